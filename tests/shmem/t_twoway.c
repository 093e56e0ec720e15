/* SPDX-License-Identifier: Apache-2.0 */
/* t_twoway: RMA traffic in every direction at once, the pattern that can
 * stopped the network in the request-answer deadlock when answers shared
 * the requests' virtual channels (docs/shmem.md, "In flight"); the answer
 * network carries it through with no in-flight limit (the default), and
 * any SHMEM_RMA_BUDGET must too.
 * Run: oshrun -np N build/tests/shmem/t_twoway [K]. Each PE, all at once:
 * K 8-byte puts to the next PE, 8 KiB to every PE (an all-to-all), a
 * 20000-byte get from the next PE, and 200 adds spread over all PEs; then
 * a barrier and the checks against what each PE must hold: the puts of the
 * previous PE, every PE's block, the next PE's bytes, the exact sum.
 * Every PE prints "t_twoway: PE i: all N checks passed"; a failure names
 * the check and the PE on stderr and exits 1. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLK 8192
#define GET 20000
#define ADDS 200
#define KMAX 4000

static long words[KMAX];
static long sum;
static unsigned char blocks[64 * BLK];
static unsigned char src[64 * BLK > GET ? 64 * BLK : GET];
static unsigned char got[GET];

static unsigned char byte_of(int pe, size_t i)
{
    return (unsigned char)(i * 7u + (unsigned)pe * 13u + 1u);
}

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: oshrun -np N %s [K]\n"
               "Puts, an all-to-all, gets and adds between all PEs at once (K 8-byte puts\n"
               "to the next PE, default 1000, at most %d); checks every PE's memory.\n",
               argv[0], KMAX);
        return 0;
    }
    int k = argc > 1 ? atoi(argv[1]) : 1000;
    if (k < 1 || k > KMAX) {
        fprintf(stderr, "t_twoway: K must be 1..%d\n", KMAX);
        return 2;
    }
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
    if (n > 64) {
        fprintf(stderr, "t_twoway: at most 64 PEs\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof(src); i++)
        src[i] = byte_of(me, i);
    shmem_barrier_all();
    for (int i = 0; i < k; i++)
        shmem_long_p(&words[i], (long)i * 3 + me, next);
    for (int r = 0; r < n; r++)
        shmem_putmem(&blocks[(size_t)me * BLK], src, BLK, (me + r) % n);
    shmem_getmem(got, src, GET, next);
    for (int i = 0; i < ADDS; i++)
        shmem_long_atomic_add(&sum, i + 1, i % n);
    shmem_barrier_all();

    int checks = 0, bad = 0;
    for (int i = 0; i < k; i++, checks++)
        if (words[i] != (long)i * 3 + prev && bad++ < 5)
            fprintf(stderr, "t_twoway: PE %d: put %d from PE %d: %ld\n", me, i, prev, words[i]);
    for (int p = 0; p < n; p++, checks++)
        for (size_t i = 0; i < BLK; i++)
            if (blocks[(size_t)p * BLK + i] != byte_of(p, i)) {
                if (bad++ < 5)
                    fprintf(stderr, "t_twoway: PE %d: all-to-all block of PE %d, byte %zu\n", me, p,
                            i);
                break;
            }
    for (size_t i = 0; i < GET; i++)
        if (got[i] != byte_of(next, i)) {
            if (bad++ < 5)
                fprintf(stderr, "t_twoway: PE %d: get from PE %d, byte %zu\n", me, next, i);
            break;
        }
    checks++;
    long want = 0; /* from every PE: adds of i + 1 for the i with i % n == me */
    for (int i = me; i < ADDS; i += n)
        want += (long)n * (i + 1);
    if (sum != want && bad++ < 5)
        fprintf(stderr, "t_twoway: PE %d: sum %ld, expected %ld\n", me, sum, want);
    checks++;
    shmem_barrier_all();
    if (bad) {
        fprintf(stderr, "t_twoway: PE %d: %d checks failed\n", me, bad);
        return 1;
    }
    printf("t_twoway: PE %d: all %d checks passed\n", me, checks);
    shmem_finalize();
    return 0;
}
