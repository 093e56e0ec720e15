/* SPDX-License-Identifier: Apache-2.0 */
/* counter: a distributed counter on PE 0. Every PE takes TICKETS tickets
 * by fetch-and-add on PE 0's counter (shmem_long_atomic_fetch_add, every
 * other one with the SHMEM 1.0 name shmem_long_fadd); the adapter of PE 0
 * performs them one at a time, so every ticket number is handed out once.
 * PE 0 gathers the tickets and prints the total, checked.
 * Run: oshrun -np 4 build/shmem/examples/counter [TICKETS] */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 256
#define MAXPE 256
static long counter;
static long tickets[MAXPE * MAXT]; /* at PE 0: every PE's tickets */

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: oshrun -np N %s [TICKETS]\nEvery PE takes TICKETS (default 10, at most "
               "%d) tickets from a counter on PE 0\nby atomic fetch-and-add; PE 0 checks that "
               "each number was handed out once.\n",
               argv[0], MAXT);
        return 0;
    }
    int t = argc > 1 ? atoi(argv[1]) : 10;
    if (t < 1 || t > MAXT) {
        fprintf(stderr, "counter: TICKETS must be 1..%d\n", MAXT);
        return 2;
    }
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > MAXPE) {
        fprintf(stderr, "counter: at most %d PEs\n", MAXPE);
        shmem_global_exit(2);
    }
    long mine[MAXT];
    for (int k = 0; k < t; k++)
        mine[k] =
            k % 2 ? shmem_long_fadd(&counter, 1, 0) : shmem_long_atomic_fetch_add(&counter, 1, 0);
    shmem_long_put(&tickets[me * t], mine, (size_t)t, 0);
    shmem_barrier_all(); /* every ticket taken and gathered */
    int ok = 1;
    if (me == 0) {
        long total = (long)npes * t;
        char *seen = calloc((size_t)total, 1);
        for (long i = 0; i < total; i++) {
            if (tickets[i] < 0 || tickets[i] >= total || seen[tickets[i]])
                ok = 0;
            else
                seen[tickets[i]] = 1;
        }
        free(seen);
        ok = ok && counter == total;
        printf("counter: %d PEs took %d tickets each: total %ld, tickets 0..%ld each once (%s)\n",
               npes, t, counter, total - 1, ok ? "correct" : "WRONG");
    }
    shmem_finalize();
    return ok ? 0 : 1;
}
