/* SPDX-License-Identifier: Apache-2.0 */
/* ranks.h: a run split over the processes of an MPI job (skifrun --ranks K,
 * or mpirun -np K skifsim-mpi). Each rank simulates one slab of the torus
 * (a range of planes along its slowest dimension, so a contiguous range of
 * node indices) and runs the programs of those nodes; the link signals that
 * cross a slab boundary are exchanged as MPI messages. Two implementations:
 * ranks_mpi.c (built against Debian's Open MPI or MPICH into skifsim-mpi)
 * and ranks_none.c (one process; every call is trivial). All calls but
 * skif_ranks_me()/skif_ranks_count() are collective: every rank makes them
 * in the same order. */
#ifndef SKIF_RANKS_H
#define SKIF_RANKS_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Start the job (MPI_Init) before anything reads argv. Returns the number
 * of ranks (1 without MPI), or -1 when MPI could not start (said on stderr). */
int skif_ranks_init(int *argc, char ***argv);
/* This process's rank (0..count-1) and the number of ranks. */
int skif_ranks_me(void);
int skif_ranks_count(void);
/* Built with MPI (skifsim-mpi)? */
int skif_ranks_mpi(void);

/* In place, over all ranks: v[i] = the sum (skif_ranks_sum) or the
 * largest (skif_ranks_max) of every rank's v[i]. */
void skif_ranks_sum(uint64_t *v, size_t n);
void skif_ranks_max(uint64_t *v, size_t n);

/* Exchange with npeers other ranks at once: send sbuf[k] (slen[k] bytes) to
 * rank peer[k] and receive rlen[k] bytes from it into rbuf[k]. */
void skif_ranks_exchange(int npeers, const int *peer, void *const *sbuf, const size_t *slen,
                         void *const *rbuf, const size_t *rlen);

/* Rank 0 writes every rank's text (len bytes each) to `to`, in rank order
 * (the MPI launcher's forwarding of the ranks' own output keeps no order). */
void skif_ranks_print(FILE *to, const char *text, size_t len);

/* Text of every rank that rank 0 prints in rank order: write this rank's
 * part to the FILE skif_ranks_text_open() returns, then (every rank)
 * skif_ranks_text_print(). Without memory for it, the part goes straight to
 * `to` and the rank still takes its turn. */
struct skif_ranks_text {
    char *buf;
    size_t len;
    FILE *f;
};
FILE *skif_ranks_text_open(struct skif_ranks_text *t, FILE *to);
void skif_ranks_text_print(struct skif_ranks_text *t, FILE *to);

/* Wait until every rank has come here. */
void skif_ranks_barrier(void);
/* End the job (MPI_Finalize). */
void skif_ranks_fini(void);

#ifdef __cplusplus
}
#endif

#endif /* SKIF_RANKS_H */
