/* SPDX-License-Identifier: Apache-2.0 */
/* t_coll_sw: the software collectives of SkifColl (SkifCollSw_*) on the
 * whole torus, on stride trees and on random subgroups: every op and type
 * on random data against a reference each node computes alone from the
 * same seeds; broadcasts of 0 bytes to several pieces from random roots;
 * barriers checked against the simulated clock (no node leaves before the
 * last one came); calls by non-members and bad arguments refused.
 * Usage: t_coll_sw [seed] [groups] */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"
#include "skifcoll.h"
#include "t_check.h"
#include "t_coll_ref.h"

/* Every operation on tree t (members mem[0..n)), case numbers from *c. */
static void run_tree(SkifCollTree *t, const int *mem, int n, int *c)
{
    static const size_t counts[] = {0, 1, 16, 17, 300};
    uint64_t rs = g_seed + (uint64_t)*c;
    for (int type = 0; type < 4; type++)
        for (int op = 0; op < 3; op++)
            for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
                size_t count = counts[k], bytes = count * SkifColl_TypeSize(type);
                uint8_t *send = malloc(bytes + 8), *recv = malloc(bytes + 8);
                int target = mem[SkifChU_Rand(&rs) % (uint64_t)n];
                int which = (int)(SkifChU_Rand(&rs) % 3);
                (*c)++;
                fill(send, *c, t_rank, count, type);
                memset(recv, 0xA5, bytes + 8);
                if (which == 0) {
                    ASSERT_EQ(SkifCollSw_Allreduce(t, send, recv, count, type, op), 0);
                    check_vec(recv, *c, mem, n, count, type, op);
                } else if (which == 1) {
                    ASSERT_EQ(SkifCollSw_AllreduceTree(t, send, recv, count, type, op), 0);
                    check_vec(recv, *c, mem, n, count, type, op);
                } else {
                    ASSERT_EQ(SkifCollSw_Reduce(t, target, send, recv, count, type, op), 0);
                    if (t_rank == target)
                        check_vec(recv, *c, mem, n, count, type, op);
                    else
                        for (size_t i = 0; i < bytes; i++)
                            ASSERT_EQ(recv[i], 0xA5); /* only the target gets it */
                }
                ASSERT_EQ(recv[bytes], 0xA5); /* nothing written beyond */
                free(send);
                free(recv);
            }
    static const size_t lens[] = {0, 8, 497, 5000};
    for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
        int root = mem[SkifChU_Rand(&rs) % (uint64_t)n];
        size_t len = lens[k];
        uint8_t *buf = malloc(len + 1);
        (*c)++;
        if (t_rank == root)
            fill(buf, *c, root, len / 4, SKIFCOLL_U32);
        else
            memset(buf, 0, len);
        buf[len] = 0x5A;
        ASSERT_EQ(SkifCollSw_Bcast(t, root, buf, len), 0);
        uint8_t *want = malloc(len + 1);
        fill(want, *c, root, len / 4, SKIFCOLL_U32);
        ASSERT_EQ(memcmp(buf, want, len / 4 * 4), 0);
        ASSERT_EQ(buf[len], 0x5A);
        g_checks++;
        free(buf);
        free(want);
    }
    /* barrier: no member leaves before the last one entered; members enter
     * at different times */
    SkifCh *ch = SkifColl_Channel();
    for (int b = 0; b < 3; b++) {
        SkifCh_Wait(ch, 50 + (uint64_t)((t_rank * 37 + b * 11) % 7) * 200);
        uint64_t in = SkifCh_Cycle(ch), last;
        ASSERT_EQ(SkifCollSw_Barrier(t), 0);
        uint64_t out = SkifCh_Cycle(ch);
        ASSERT_EQ(SkifCollSw_Allreduce(t, &in, &last, 1, SKIFCOLL_U64, SKIFCOLL_MAX), 0);
        ASSERT_TRUE(out >= last);
        g_checks++;
    }
}

int main(int argc, char **argv)
{
    t_name = "t_coll_sw";
    if (SkifChU_WantsHelp(argc, argv)) {
        printf("usage: t_coll_sw [seed] [groups]: software collectives against a reference\n");
        return 0;
    }
    long seed = 1, groups = 3;
    if ((argc > 1 && SkifChU_Num(argv[1], 0, 1L << 30, &seed)) ||
        (argc > 2 && SkifChU_Num(argv[2], 0, 100, &groups))) {
        fprintf(stderr, "t_coll_sw: bad argument (usage: t_coll_sw [seed] [groups])\n");
        return 2;
    }
    if ((t_rank = SkifChU_Rank("t_coll_sw")) < 0)
        return 2;
    g_seed = (uint64_t)seed * 0x9E3779B97F4A7C15ull;
    g_size = SkifCh_Size();
    ASSERT_EQ(SkifColl_Init(SKIFCOLL_NO_HW), 0);
    ASSERT_EQ(SkifColl_HwUp(), 0);
    int c = 0;

    /* the whole torus: stride tree 0 */
    int *all = malloc((size_t)g_size * sizeof(int));
    for (int r = 0; r < g_size; r++)
        all[r] = r;
    SkifCollTree *t0 = SkifColl_Stride(0, 0);
    ASSERT_TRUE(t0 && SkifColl_Members(t0) == g_size && SkifColl_Root(t0) == 0);
    run_tree(t0, all, g_size, &c);

    /* the odd ranks: stride tree 1 (logPE_stride 0, PE_start 1) and
     * logPE_stride 1 (every second from 1): tree 3 */
    SkifCollTree *t3 = SkifColl_Stride(1, 1);
    int nodd = 0, *odd = malloc((size_t)g_size * sizeof(int));
    for (int r = 1; r < g_size; r += 2)
        odd[nodd++] = r;
    ASSERT_EQ(SkifColl_Members(t3), nodd);
    if (t_rank % 2) {
        c = 1000; /* case numbers: the same at every member of a tree */
        run_tree(t3, odd, nodd, &c);
    } else {
        uint32_t x = 1, y;
        errno = 0;
        ASSERT_EQ(SkifCollSw_Allreduce(t3, &x, &y, 1, SKIFCOLL_U32, SKIFCOLL_SUM), -1);
        ASSERT_EQ(errno, EPERM);
        ASSERT_EQ(SkifCollSw_Barrier(t3), -1);
        ASSERT_EQ(errno, EPERM);
    }

    /* random subgroups with random roots: every node makes the same calls */
    uint64_t rs = g_seed ^ 0xC0FFEE;
    for (long k = 0; k < groups; k++) {
        int *mem = malloc((size_t)g_size * sizeof(int)), n = 0;
        unsigned pct = 20 + (unsigned)(SkifChU_Rand(&rs) % 70);
        for (int r = 0; r < g_size; r++)
            if (SkifChU_Rand(&rs) % 100 < pct)
                mem[n++] = r;
        if (n == 0)
            mem[n++] = (int)(SkifChU_Rand(&rs) % (uint64_t)g_size);
        int root = mem[SkifChU_Rand(&rs) % (uint64_t)n];
        SkifCollTree *t = SkifColl_Create(mem, n, root);
        ASSERT_TRUE(t != NULL);
        int member = 0;
        for (int i = 0; i < n; i++)
            member |= mem[i] == t_rank;
        ASSERT_EQ(SkifColl_IsMember(t), member);
        ASSERT_TRUE(SkifColl_Depth(t) >= 0);
        if (member) {
            c = 2000 + 1000 * (int)k;
            run_tree(t, mem, n, &c);
        } else {
            uint8_t b[8];
            errno = 0;
            ASSERT_EQ(SkifCollSw_Bcast(t, root, b, 8), -1);
            ASSERT_EQ(errno, EPERM);
        }
        ASSERT_EQ(SkifColl_Free(t), 0);
        free(mem);
    }

    /* bad input */
    uint32_t x = 0, y = 0;
    SkifCollReq *req;
    errno = 0;
    ASSERT_EQ(SkifCollSw_Allreduce(t0, &x, &y, 1, 4, SKIFCOLL_SUM), -1); /* unknown type */
    ASSERT_EQ(errno, EINVAL);
    ASSERT_EQ(SkifCollSw_Allreduce(t0, &x, &y, 1, SKIFCOLL_U32, 3), -1); /* unknown op */
    ASSERT_EQ(errno, EINVAL);
    ASSERT_EQ(SkifCollSw_Reduce(t0, g_size, &x, &y, 1, SKIFCOLL_U32, 0), -1); /* no such target */
    ASSERT_EQ(errno, EINVAL);
    ASSERT_EQ(SkifColl_Allreduce(t0, &x, &y, 1, SKIFCOLL_U32, 0, &req), -1); /* no hardware */
    ASSERT_EQ(errno, ENOSYS);
    int twice[2] = {0, 0}, one[1] = {0};
    ASSERT_TRUE(SkifColl_Create(twice, 2, 0) == NULL && errno == EINVAL);
    ASSERT_TRUE(SkifColl_Create(one, 1, 1) == NULL && errno == EINVAL);
    ASSERT_TRUE(SkifColl_Stride(8, 0) == NULL && errno == EINVAL);
    ASSERT_EQ(SkifColl_Free(t0), -1); /* a stride tree */
    ASSERT_EQ(SkifColl_Init(SKIFCOLL_NO_HW), -1);
    ASSERT_EQ(errno, EALREADY);

    /* the count of checks, summed over the nodes, as a last allreduce */
    uint64_t mine = (uint64_t)g_checks, total = 0;
    ASSERT_EQ(SkifCollSw_Allreduce(t0, &mine, &total, 1, SKIFCOLL_U64, SKIFCOLL_SUM), 0);
    if (t_rank == 0)
        printf("t_coll_sw: %d nodes, %llu checks passed\n", g_size, (unsigned long long)total);
    ASSERT_EQ(SkifColl_Finalize(), 0);
    free(all);
    free(odd);
    return 0;
}
