/* SPDX-License-Identifier: Apache-2.0 */
/* mpibench: OSU-style MPI benchmarks in simulated time (MPI_Wtime), plus the
 * seed-004 MsgRate test and the instruction-count loops for callgrind.
 *   latency [MAX]   ping-pong one-way latency, sizes 0..MAX (ranks 0, 1)
 *   bw [MAX]        bandwidth: windows of 64 MPI_Isend, one ack (0 -> 1)
 *   bibw [MAX]      bidirectional bandwidth (0 <-> 1)
 *   mr [MAX]        multi-pair message rate: rank i sends to i + N/2
 *   allreduce|bcast [MAX], barrier   collective latency over all ranks
 *   msgrate COUNT LEN   seed 004's MsgRate: between two barriers rank 0
 *                   sends COUNT messages of LEN bytes to rank 1 (MPI_Send,
 *                   MPI_Recv); rank 1 prints messages per cycle
 *   msgcost COUNT   rank 0 sends COUNT 8-byte messages, then (after a SkifCh
 *                   barrier that leaves MPI's channel alone) rank 1 receives
 *                   them: measure_send / measure_recv are for callgrind
 * Run: mpirun -np N build/mpi/bench/mpibench MODE [ARGS] (sw/mpi/bench/bench.sh) */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"

static int rank, size;
static char *sbuf, *rbuf;

static int iters(long len)
{
    return len <= 1024 ? 100 : len <= 65536 ? 20 : 4;
}

static void latency(long max)
{
    int peer = 1 - rank;
    if (rank == 0)
        printf("# MPI one-way latency (ping-pong / 2), simulated time\n# Size  Latency (us)\n");
    for (long len = 0; len <= max; len = len ? len * 2 : 1) {
        int n = iters(len);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < n && rank < 2; i++) {
            if (rank == 0) {
                MPI_Send(sbuf, (int)len, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
                MPI_Recv(rbuf, (int)len, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(rbuf, (int)len, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(sbuf, (int)len, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            }
        }
        double t = MPI_Wtime() - t0;
        if (rank == 0)
            printf("%-10ld%18.2f\n", len, t * 1e6 / (2.0 * n));
    }
}

enum { WIN = 64 };

static void bw(long max, int bidir)
{
    MPI_Request rq[2 * WIN];
    if (rank == 0)
        printf("# MPI %sbandwidth, windows of %d messages, simulated time\n# Size  Bandwidth "
               "(MB/s)\n",
               bidir ? "bidirectional " : "", WIN);
    for (long len = 1; len <= max; len *= 2) {
        int n = iters(len) / 4 + 1, win = len > 65536 ? 8 : WIN;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < n && rank < 2; i++) {
            int k = 0;
            if (rank == 0 || bidir)
                for (int w = 0; w < win; w++)
                    MPI_Isend(sbuf + w * len, (int)len, MPI_BYTE, 1 - rank, 2, MPI_COMM_WORLD,
                              &rq[k++]);
            if (rank == 1 || bidir)
                for (int w = 0; w < win; w++)
                    MPI_Irecv(rbuf + w * len, (int)len, MPI_BYTE, 1 - rank, 2, MPI_COMM_WORLD,
                              &rq[k++]);
            MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
            if (rank == 1)
                MPI_Send(sbuf, 0, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
            else
                MPI_Recv(rbuf, 0, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        double t = MPI_Wtime() - t0;
        if (rank == 0)
            printf("%-10ld%18.2f\n", len, (double)len * win * n * (bidir ? 2 : 1) / (t * 1e6));
    }
}

static void mr(long max)
{
    int pairs = size / 2;
    MPI_Request rq[WIN];
    if (rank == 0)
        printf("# MPI multi-pair message rate, %d pairs (rank i -> i + %d), windows of %d, "
               "simulated time\n# Size  MB/s  Messages/s\n",
               pairs, pairs, WIN);
    for (long len = 1; len <= max; len *= 2) {
        int n = 4;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < n && rank < 2 * pairs; i++) {
            for (int w = 0; w < WIN; w++) {
                if (rank < pairs)
                    MPI_Isend(sbuf + w * len, (int)len, MPI_BYTE, rank + pairs, 4, MPI_COMM_WORLD,
                              &rq[w]);
                else
                    MPI_Irecv(rbuf + w * len, (int)len, MPI_BYTE, rank - pairs, 4, MPI_COMM_WORLD,
                              &rq[w]);
            }
            MPI_Waitall(WIN, rq, MPI_STATUSES_IGNORE);
            if (rank < pairs)
                MPI_Recv(rbuf, 0, MPI_BYTE, rank + pairs, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            else
                MPI_Send(sbuf, 0, MPI_BYTE, rank - pairs, 5, MPI_COMM_WORLD);
        }
        double t = MPI_Wtime() - t0, tmax;
        MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        double msgs = (double)pairs * WIN * n / tmax;
        if (rank == 0)
            printf("%-10ld%18.2f%18.2f\n", len, msgs * (double)len / 1e6, msgs);
    }
}

static void coll(const char *what, long max)
{
    if (rank == 0)
        printf("# MPI_%s latency on %d ranks, simulated time\n# Size  Latency (us)\n", what, size);
    int barrier = !strcmp(what, "Barrier");
    for (long len = barrier ? 0 : 4; len <= (barrier ? 0 : max); len *= 2) {
        int n = len <= 4096 ? 20 : 4;
        double t = 0.0, tmax;
        for (int i = 0; i < n; i++) {
            /* each call timed alone, as OSU does: a barrier between calls */
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (barrier)
                MPI_Barrier(MPI_COMM_WORLD);
            else if (!strcmp(what, "Bcast"))
                MPI_Bcast(sbuf, (int)len / 4, MPI_INT, 0, MPI_COMM_WORLD);
            else
                MPI_Allreduce(sbuf, rbuf, (int)len / 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            t += MPI_Wtime() - t0;
        }
        t /= n;
        MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%-10ld%18.2f\n", len, tmax * 1e6);
        if (barrier)
            break;
    }
}

static void msgrate(long n, long len)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        for (long k = 0; k < n; k++) {
            uint32_t seq = (uint32_t)k;
            memcpy(sbuf, &seq, len < 4 ? (size_t)len : 4);
            MPI_Send(sbuf, (int)len, MPI_BYTE, 1, 6, MPI_COMM_WORLD);
        }
    } else if (rank == 1) {
        double t0 = MPI_Wtime();
        for (long k = 0; k < n; k++) {
            uint32_t seq = 0, want = (uint32_t)k;
            MPI_Recv(rbuf, (int)len, MPI_BYTE, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            memcpy(&seq, rbuf, len < 4 ? (size_t)len : 4);
            if (len < 4)
                want &= (uint32_t)((1ull << (8 * len)) - 1);
            if (seq != want) {
                fprintf(stderr, "mpibench: message %ld: sequence %u\n", k, seq);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
        double cyc = (MPI_Wtime() - t0) / MPI_Wtick(), rate = (double)n / cyc;
        printf("msgrate: %ld x %ld bytes in %.0f cycles: %.4f msgs/cycle = %.2f Mmsg/s at %.0f "
               "MHz\n",
               n, len, cyc, rate, rate / MPI_Wtick() / 1e6, 1.0 / MPI_Wtick() / 1e6);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

__attribute__((noinline)) static long measure_send(long n)
{
    uint64_t word = 0;
    for (long k = 0; k < n; k++) {
        word = (uint64_t)k;
        MPI_Send(&word, 8, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
    }
    return n;
}

__attribute__((noinline)) static long measure_recv(long n)
{
    for (long k = 0; k < n; k++) {
        uint64_t word = 0;
        MPI_Recv(&word, 8, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (word != (uint64_t)k) {
            fprintf(stderr, "mpibench: msgcost: message %ld wrong\n", k);
            return -1;
        }
    }
    return n;
}

static void msgcost(long n)
{
    SkifCh *bar = SkifChU_BarrierOpen();
    if (!bar) {
        fprintf(stderr, "mpibench: msgcost needs skifrun\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)
        printf("msgcost: rank 0 sent %ld messages\n", measure_send(n));
    SkifChU_Barrier(bar);
    if (rank == 1 && measure_recv(n) == n)
        printf("msgcost: rank 1 received %ld messages\n", n);
    SkifCh_Close(bar);
}

static int usage(const char *cmd, int rc)
{
    fprintf(rc ? stderr : stdout,
            "usage: mpirun -np N %s MODE [ARGS]\n"
            "modes: latency [MAX] | bw [MAX] | bibw [MAX] | mr [MAX] | allreduce [MAX] |\n"
            "       bcast [MAX] | barrier | msgrate COUNT LEN | msgcost COUNT\n"
            "OSU-style tables in simulated time (MPI_Wtime); MAX is the largest size in bytes\n"
            "(default 1 MiB for latency, 64 KiB otherwise).\n",
            cmd);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
        return usage(argv[0], argc < 2 ? 2 : 0);
    const char *m = argv[1];
    long a = argc > 2 ? atol(argv[2]) : -1, b = argc > 3 ? atol(argv[3]) : -1;
    int known = !strcmp(m, "latency") || !strcmp(m, "bw") || !strcmp(m, "bibw") ||
                !strcmp(m, "mr") || !strcmp(m, "allreduce") || !strcmp(m, "bcast") ||
                !strcmp(m, "barrier") || !strcmp(m, "msgrate") || !strcmp(m, "msgcost");
    if (!known || (argc > 2 && a < 1) || (!strcmp(m, "msgrate") && (argc != 4 || b < 0)) ||
        (!strcmp(m, "msgcost") && argc != 3) || a > (4 << 20) || b > 65536)
        return usage(argv[0], 2);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        fprintf(stderr, "mpibench: needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long max = a > 0 ? a : !strcmp(m, "latency") ? 1 << 20 : 65536;
    sbuf = calloc((size_t)max * WIN + 65536, 1);
    rbuf = calloc((size_t)max * WIN + 65536, 1);
    if (!strcmp(m, "latency"))
        latency(max);
    else if (!strcmp(m, "bw") || !strcmp(m, "bibw"))
        bw(max, !strcmp(m, "bibw"));
    else if (!strcmp(m, "mr"))
        mr(max);
    else if (!strcmp(m, "allreduce"))
        coll("Allreduce", max);
    else if (!strcmp(m, "bcast"))
        coll("Bcast", max);
    else if (!strcmp(m, "barrier"))
        coll("Barrier", 0);
    else if (!strcmp(m, "msgrate"))
        msgrate(a, b);
    else
        msgcost(a);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
