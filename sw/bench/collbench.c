/* SPDX-License-Identifier: Apache-2.0 */
/* collbench: one figure of `make bench-coll` (sw/bench/coll.sh): the time of
 * a collective on the whole torus, in simulated cycles and microseconds.
 *   bcast:     root 0 posts BYTES; from the post to the last node's result
 *              (the mean over ITERS broadcasts; before each the nodes meet
 *              in a barrier and the root waits 2000 cycles, so every node
 *              already waits for the data when it is posted)
 *   allreduce: ITERS allreduces of BYTES (u64 sums, checked) back to back:
 *              from the first node's start to the last node's end, / ITERS
 *   barrier:   ITERS barriers back to back, the same way
 * MODE hw: the adapter's collective subnet; sw (= sw-rd): software over
 * SkifCh, recursive doubling for allreduce; sw-tree: binomial reduce then
 * binomial broadcast. Exit status 3: the hardware path is not built. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"
#include "skifcoll.h"

enum { OP_BCAST, OP_ALLREDUCE, OP_BARRIER };
enum { M_HW, M_RD, M_TREE };

static int run(SkifCollTree *t, int op, int mode, uint8_t *buf, uint64_t *in, uint64_t *out,
               size_t bytes)
{
    SkifCollReq *req;
    if (mode == M_HW) {
        int rc = op == OP_BCAST ? SkifColl_Bcast(t, 0, buf, bytes, &req)
                 : op == OP_BARRIER
                     ? SkifColl_Barrier(t, &req)
                     : SkifColl_Allreduce(t, in, out, bytes / 8, SKIFCOLL_U64, SKIFCOLL_SUM, &req);
        return rc < 0 ? -1 : SkifColl_Wait(req);
    }
    if (op == OP_BCAST)
        return SkifCollSw_Bcast(t, 0, buf, bytes);
    if (op == OP_BARRIER)
        return SkifCollSw_Barrier(t);
    if (mode == M_TREE)
        return SkifCollSw_AllreduceTree(t, in, out, bytes / 8, SKIFCOLL_U64, SKIFCOLL_SUM);
    return SkifCollSw_Allreduce(t, in, out, bytes / 8, SKIFCOLL_U64, SKIFCOLL_SUM);
}

static uint64_t reduce_u64(SkifCollTree *t, uint64_t v, int op)
{
    uint64_t r = 0;
    if (SkifCollSw_Allreduce(t, &v, &r, 1, SKIFCOLL_U64, op) < 0) {
        fprintf(stderr, "collbench: %s\n", strerror(errno));
        exit(1);
    }
    return r;
}

int main(int argc, char **argv)
{
    static const char *ops[] = {"bcast", "allreduce", "barrier"};
    static const char *modes[] = {"hw", "sw-rd", "sw-tree"};
    if (SkifChU_WantsHelp(argc, argv) || argc < 4) {
        printf("usage: skifrun --dims DIMS %s OP MODE ITERS [BYTES]\n"
               "OP: bcast | allreduce | barrier; MODE: hw | sw | sw-rd | sw-tree;\n"
               "BYTES: 0..65536, a multiple of 8 for allreduce (default 8).\n"
               "Prints: collbench OP MODE nodes=N bytes=B iters=I cycles=C us=U\n",
               argv[0]);
        return SkifChU_WantsHelp(argc, argv) ? 0 : 2;
    }
    int op = -1, mode = -1;
    long iters, bytes = 8;
    for (int i = 0; i < 3; i++) {
        if (!strcmp(argv[1], ops[i]))
            op = i;
        if (!strcmp(argv[2], modes[i]))
            mode = i;
    }
    if (!strcmp(argv[2], "sw"))
        mode = M_RD;
    if (op < 0) {
        fprintf(stderr, "collbench: unknown OP '%s' (bcast, allreduce, barrier)\n", argv[1]);
        return 2;
    }
    if (mode < 0) {
        fprintf(stderr, "collbench: unknown MODE '%s' (hw, sw, sw-rd, sw-tree)\n", argv[2]);
        return 2;
    }
    if (SkifChU_Num(argv[3], 1, 1000000, &iters)) {
        fprintf(stderr, "collbench: bad ITERS '%s' (1..1000000)\n", argv[3]);
        return 2;
    }
    if (argc > 4 && (SkifChU_Num(argv[4], 0, 65536, &bytes) || (op == OP_ALLREDUCE && bytes % 8))) {
        fprintf(stderr, "collbench: bad BYTES '%s'\n", argv[4]);
        return 2;
    }
    int rank = SkifChU_Rank("collbench");
    if (rank < 0)
        return 1;
    if (SkifColl_Init(mode == M_HW ? 0 : SKIFCOLL_NO_HW) < 0) {
        if (errno == ENOSYS) {
            if (rank == 0)
                fprintf(stderr, "collbench: the hardware path is not built\n");
            return 3;
        }
        fprintf(stderr, "collbench: SkifColl_Init: %s\n", strerror(errno));
        return 1;
    }
    SkifCollTree *all = SkifColl_Stride(0, 0);
    SkifCh *ch = SkifColl_Channel();
    int size = SkifCh_Size();
    size_t n = (size_t)bytes;
    uint8_t *buf = calloc(n + 8, 1);
    uint64_t *in = calloc(n / 8 + 1, 8), *out = calloc(n / 8 + 1, 8);
    for (size_t i = 0; i < n / 8; i++)
        in[i] = (uint64_t)rank + i;
    double cycles = 0;
    if (op == OP_BCAST) {
        for (long k = 0; k < iters; k++) {
            if (rank == 0)
                memset(buf, (int)(k + 1), n);
            SkifCollSw_Barrier(all);
            /* the root posts 2000 cycles after it left the barrier, so that
             * every node already waits for the data (nodes leave a
             * barrier at different times): post to last result */
            if (rank == 0)
                for (uint64_t until = SkifCh_Cycle(ch) + 2000; SkifCh_Cycle(ch) < until;)
                    SkifCh_Wait(ch, until - SkifCh_Cycle(ch));
            uint64_t t0 = SkifCh_Cycle(ch);
            if (run(all, op, mode, buf, in, out, n) < 0) {
                fprintf(stderr, "collbench: node %d: %s\n", rank, strerror(errno));
                return 1;
            }
            uint64_t t1 = SkifCh_Cycle(ch);
            if (n && (buf[0] != (uint8_t)(k + 1) || buf[n - 1] != (uint8_t)(k + 1))) {
                fprintf(stderr, "collbench: node %d: wrong broadcast data\n", rank);
                return 1;
            }
            uint64_t last = reduce_u64(all, t1, SKIFCOLL_MAX);
            uint64_t start = reduce_u64(all, rank == 0 ? t0 : 0, SKIFCOLL_MAX);
            cycles += (double)(last - start);
        }
        cycles /= (double)iters;
    } else {
        SkifCollSw_Barrier(all);
        uint64_t t0 = SkifCh_Cycle(ch);
        for (long k = 0; k < iters; k++)
            if (run(all, op, mode, buf, in, out, n) < 0) {
                fprintf(stderr, "collbench: node %d: %s\n", rank, strerror(errno));
                return 1;
            }
        uint64_t t1 = SkifCh_Cycle(ch);
        /* sum over ranks of (rank + i) */
        for (size_t i = 0; op == OP_ALLREDUCE && i < n / 8; i++)
            if (out[i] != (uint64_t)size * (uint64_t)(size - 1) / 2 + (uint64_t)size * i) {
                fprintf(stderr, "collbench: node %d: wrong allreduce result\n", rank);
                return 1;
            }
        uint64_t last = reduce_u64(all, t1, SKIFCOLL_MAX);
        uint64_t first = reduce_u64(all, t0, SKIFCOLL_MIN);
        cycles = (double)(last - first) / (double)iters;
    }
    unsigned mhz = SkifCh_ClockMHz(ch);
    if (rank == 0) {
        /* one software version of bcast and barrier: "sw" */
        const char *label = mode == M_RD && op != OP_ALLREDUCE ? "sw" : modes[mode];
        printf("collbench %s %s nodes=%d bytes=%zu iters=%ld cycles=%.1f us=%.3f", ops[op], label,
               size, n, iters, cycles, cycles / mhz);
        if (op == OP_BCAST && n > 8)
            printf(" bytes_per_cycle=%.3f gbit_s=%.3f", n / cycles, n / cycles * 8 * mhz / 1000);
        printf("\n");
    }
    free(buf);
    free(in);
    free(out);
    return SkifColl_Finalize() < 0 ? 1 : 0;
}
