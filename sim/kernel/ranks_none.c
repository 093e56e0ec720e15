/* SPDX-License-Identifier: Apache-2.0 */
/* ranks_none.c: the run in one process (sim/kernel/ranks.h without MPI). */
#include "ranks.h"

int skif_ranks_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 1;
}

int skif_ranks_me(void)
{
    return 0;
}

int skif_ranks_count(void)
{
    return 1;
}

int skif_ranks_mpi(void)
{
    return 0;
}

void skif_ranks_sum(uint64_t *v, size_t n)
{
    (void)v;
    (void)n;
}

void skif_ranks_max(uint64_t *v, size_t n)
{
    (void)v;
    (void)n;
}

void skif_ranks_exchange(int npeers, const int *peer, void *const *sbuf, const size_t *slen,
                         void *const *rbuf, const size_t *rlen)
{
    (void)npeers;
    (void)peer;
    (void)sbuf;
    (void)slen;
    (void)rbuf;
    (void)rlen;
}

void skif_ranks_print(FILE *to, const char *text, size_t len)
{
    fwrite(text, 1, len, to);
    fflush(to);
}

void skif_ranks_barrier(void) {}

void skif_ranks_fini(void) {}
