/* SPDX-License-Identifier: Apache-2.0 */
/* pingpong: PE 0 and PE 1 pass a ball back and forth ROUNDS times: a PE
 * puts SIZE bytes of data into the other's buffer, shmem_fence, then the
 * ball (a long, shmem_long_p) carrying the round's number; the other waits
 * for it with shmem_long_wait_until, checks the data and answers. PE 0
 * prints the round trip time in simulated cycles (shmemx_cycle) and in
 * microseconds at the adapter's clock. Other PEs only take part in the
 * barriers. Run: oshrun -np 2 build/shmem/examples/pingpong [ROUNDS [SIZE]] */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXSIZE 2048
static long ball;
static unsigned char data[MAXSIZE];

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: oshrun -np 2 %s [ROUNDS [SIZE]]\nPE 0 and PE 1 play ping-pong ROUNDS "
               "times (default 100) with SIZE bytes of data\n(default 8, 0..%d) and a flag, "
               "waiting with shmem_long_wait_until.\nPE 0 prints the round trip time.\n",
               argv[0], MAXSIZE);
        return 0;
    }
    long rounds = argc > 1 ? atol(argv[1]) : 100, size = argc > 2 ? atol(argv[2]) : 8;
    if (rounds < 1 || size < 0 || size > MAXSIZE) {
        fprintf(stderr, "pingpong: bad arguments (ROUNDS >= 1, SIZE 0..%d)\n", MAXSIZE);
        return 2;
    }
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() < 2) {
        fprintf(stderr, "pingpong: needs 2 PEs\n");
        shmem_global_exit(2);
    }
    unsigned char out[MAXSIZE];
    int bad = 0;
    shmem_barrier_all();
    unsigned long long t0 = shmemx_cycle();
    for (long r = 1; r <= rounds && me < 2; r++) {
        long mine = me == 0 ? 2 * r - 1 : 2 * r; /* the ball value this PE sends */
        if (me == 1) {                           /* wait for the ping */
            shmem_long_wait_until(&ball, SHMEM_CMP_EQ, mine - 1);
            for (long i = 0; i < size; i++)
                bad += data[i] != (unsigned char)(mine - 1 + i);
        }
        for (long i = 0; i < size; i++)
            out[i] = (unsigned char)(mine + i);
        if (size > 0) {
            shmem_putmem(data, out, (size_t)size, 1 - me);
            shmem_fence(); /* the data before the ball */
        }
        shmem_long_p(&ball, mine, 1 - me);
        if (me == 0) { /* wait for the pong */
            shmem_long_wait_until(&ball, SHMEM_CMP_EQ, mine + 1);
            for (long i = 0; i < size; i++)
                bad += data[i] != (unsigned char)(mine + 1 + i);
        }
    }
    unsigned long long t1 = shmemx_cycle();
    if (me == 0) {
        double rtt = (double)(t1 - t0) / (double)rounds;
        printf("pingpong: %ld round trips of %ld bytes: %.1f cycles = %.3f us per round trip "
               "at %u MHz (data %s)\n",
               rounds, size, rtt, rtt / shmemx_clock_mhz(), shmemx_clock_mhz(),
               bad ? "WRONG" : "correct");
    } else if (me == 1 && bad)
        printf("pingpong: PE 1: data WRONG\n");
    shmem_barrier_all();
    shmem_finalize();
    return bad ? 1 : 0;
}
