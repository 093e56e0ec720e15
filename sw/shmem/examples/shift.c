/* SPDX-License-Identifier: Apache-2.0 */
/* shift: a circular shift of an int array: every PE puts its array into
 * the next PE's (shmem_int_put), then checks what the previous PE sent.
 * The arrays are global, so symmetric: the same variable on every PE.
 * Run: oshrun -np 4 build/shmem/examples/shift [N] */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 4096
static int src[MAXN], dst[MAXN];

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: oshrun -np N %s [COUNT]\nEvery PE puts COUNT ints (default 16, at most %d) "
               "into the next PE's array\nand checks the ones it got from the previous PE.\n",
               argv[0], MAXN);
        return 0;
    }
    int n = argc > 1 ? atoi(argv[1]) : 16;
    if (n < 1 || n > MAXN) {
        fprintf(stderr, "shift: COUNT must be 1..%d\n", MAXN);
        return 2;
    }
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
    for (int i = 0; i < n; i++)
        src[i] = me * 1000 + i;
    shmem_barrier_all(); /* every PE has filled its array */
    shmem_int_put(dst, src, (size_t)n, next);
    shmem_barrier_all(); /* completes the puts: dst holds prev's array */
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += dst[i] != prev * 1000 + i;
    printf("shift: PE %d got %d ints from PE %d (%s)\n", me, n, prev, bad ? "WRONG" : "correct");
    shmem_finalize();
    return bad ? 1 : 0;
}
