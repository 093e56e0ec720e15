/* SPDX-License-Identifier: Apache-2.0 */
/* ranks_mpi.c: sim/kernel/ranks.h on MPI (Debian's Open MPI or MPICH), linked into
 * skifsim-mpi only. Every failure of MPI ends the whole job (the default
 * error handler, MPI_ERRORS_ARE_FATAL): a rank never waits for one that is
 * gone. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ranks.h"

static int g_me, g_count = 1;

int skif_ranks_init(int *argc, char ***argv)
{
    if (MPI_Init(argc, argv) != MPI_SUCCESS) {
        fprintf(stderr, "skifsim: MPI_Init failed\n");
        return -1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &g_me);
    MPI_Comm_size(MPI_COMM_WORLD, &g_count);
    return g_count;
}

int skif_ranks_me(void)
{
    return g_me;
}

int skif_ranks_count(void)
{
    return g_count;
}

int skif_ranks_mpi(void)
{
    return 1;
}

static void reduce(uint64_t *v, size_t n, MPI_Op op)
{
    if (g_count > 1 && n)
        MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, op, MPI_COMM_WORLD);
}

void skif_ranks_sum(uint64_t *v, size_t n)
{
    reduce(v, n, MPI_SUM);
}

void skif_ranks_max(uint64_t *v, size_t n)
{
    reduce(v, n, MPI_MAX);
}

void skif_ranks_exchange(int npeers, const int *peer, void *const *sbuf, const size_t *slen,
                         void *const *rbuf, const size_t *rlen)
{
    enum { MaxPeers = 8 };
    MPI_Request rq[2 * MaxPeers];
    int n = 0;
    if (npeers > MaxPeers) {
        fprintf(stderr, "skifsim: %d peers to exchange with; at most %d\n", npeers, MaxPeers);
        MPI_Abort(MPI_COMM_WORLD, 5);
    }
    for (int k = 0; k < npeers; k++)
        MPI_Irecv(rbuf[k], (int)rlen[k], MPI_BYTE, peer[k], 0, MPI_COMM_WORLD, &rq[n++]);
    for (int k = 0; k < npeers; k++)
        MPI_Isend(sbuf[k], (int)slen[k], MPI_BYTE, peer[k], 0, MPI_COMM_WORLD, &rq[n++]);
    MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
}

void skif_ranks_print(FILE *to, const char *text, size_t len)
{
    if (g_count == 1) {
        fwrite(text, 1, len, to);
        fflush(to);
        return;
    }
    int n = (int)len, *lens = NULL, *at = NULL;
    char *all = NULL;
    if (g_me == 0) {
        lens = calloc((size_t)g_count, sizeof(int));
        at = calloc((size_t)g_count, sizeof(int));
    }
    MPI_Gather(&n, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
    size_t total = 0;
    if (g_me == 0) {
        for (int r = 0; r < g_count; r++) {
            at[r] = (int)total;
            total += (size_t)lens[r];
        }
        all = malloc(total + 1);
    }
    MPI_Gatherv(text, n, MPI_CHAR, all, lens, at, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (g_me == 0) {
        fwrite(all, 1, total, to);
        fflush(to);
    }
    free(all);
    free(lens);
    free(at);
}

void skif_ranks_barrier(void)
{
    if (g_count > 1)
        MPI_Barrier(MPI_COMM_WORLD);
}

void skif_ranks_fini(void)
{
    MPI_Finalize();
}
