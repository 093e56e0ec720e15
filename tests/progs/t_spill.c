/* SPDX-License-Identifier: Apache-2.0 */
/* t_spill: a channel the program does not read does not hold up the others
 * (the library copies its messages out of its ring, docs/skifch.md,
 * "Back-pressure"). 2 nodes; rank 1 sends N messages of 1..512 bytes
 * alternating rank 0's channel A (4 KiB ring) and channel B.
 *  - rank 0 reads only B until it has all of B's: that can only finish if
 *    A's waiting messages are copied out (the test sets SKIFCH_SPILL_MB=64;
 *    copying is off by default); with `nospill` (SKIFCH_SPILL_MB=0) it
 *    cannot, and rank 0 then expects B to stop short and says so;
 *  - then A's messages, taken in batches of 1..5 before completing them, so
 *    copied and ring messages are held at once: each is checked at
 *    completion time (intact, in order), and RecvComp with nothing taken
 *    says ENOENT;
 *  - channel C (4 KiB ring) fills while rank 0 waits, is copied out, and is
 *    closed with copies pending (nothing leaks: the suite runs this under
 *    valgrind too).
 * Prints "t_spill: node 0: ok, K copied" on success. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"
#include "t_check.h"

#define CH_A 3
#define CH_B 4
#define CH_C 5
#define N 1000 /* messages to A and B together */
#define NC 300 /* messages to C */

static size_t len_of(long k)
{
    return 8 + (size_t)(k * 37 % 505);
}

static void fill(uint8_t *buf, long k, size_t len)
{
    memcpy(buf, &k, sizeof(k));
    for (size_t i = sizeof(k); i < len; i++)
        buf[i] = (uint8_t)(k * 11 + (long)i * 7);
}

/* Message k, from the parts Recv gave: intact? */
static int intact(const struct iovec *cont, int parts, long k)
{
    static uint8_t want[SKIFCH_MAX_MSG], got[SKIFCH_MAX_MSG];
    size_t len = len_of(k), at = 0;
    fill(want, k, len);
    for (int p = 0; p < parts; p++) {
        if (at + cont[p].iov_len > len)
            return 0;
        memcpy(got + at, cont[p].iov_base, cont[p].iov_len);
        at += cont[p].iov_len;
    }
    return at == len && memcmp(got, want, len) == 0;
}

int main(int argc, char **argv)
{
    t_name = "t_spill";
    int nospill = argc > 1 && !strcmp(argv[1], "nospill");
    /* copying is off by default; this test turns it on (64 MiB) */
    setenv("SKIFCH_SPILL_MB", nospill ? "0" : "64", 1);
    t_rank = SkifCh_Rank();
    SkifCh *bar = SkifChU_BarrierOpen();
    ASSERT_TRUE(bar != NULL);
    SkifCh *a, *b, *c = NULL;
    if (t_rank == 0) {
        /* a bad SKIFCH_SPILL_MB: Open says EINVAL */
        setenv("SKIFCH_SPILL_MB", "lots", 1);
        errno = 0;
        ASSERT_TRUE(SkifCh_Open(CH_A) == NULL);
        ASSERT_EQ(errno, EINVAL);
        setenv("SKIFCH_SPILL_MB", nospill ? "0" : "64", 1);
        setenv("SKIFCH_RING_LOG2", "12", 1);
        a = SkifCh_Open(CH_A);
        c = SkifCh_Open(CH_C);
        unsetenv("SKIFCH_RING_LOG2");
        b = SkifCh_Open(CH_B);
        ASSERT_TRUE(a && b && c);
    } else {
        a = b = SkifCh_Open(CH_A);
        ASSERT_TRUE(a != NULL);
    }
    ASSERT_EQ(SkifChU_Barrier(bar), 0);
    static uint8_t buf[SKIFCH_MAX_MSG];
    struct iovec cont[SKIFCH_CONT_SIZE];
    int parts;
    if (t_rank == 1) {
        for (long k = 0; k < N; k++) {
            fill(buf, k, len_of(k));
            ASSERT_EQ(SkifChU_Send(a, SkifCh_Addr(0, k % 2 ? CH_B : CH_A), buf, len_of(k)), 0);
        }
        for (long k = 0; k < NC; k++) {
            fill(buf, k, len_of(k));
            ASSERT_EQ(SkifChU_Send(a, SkifCh_Addr(0, CH_C), buf, len_of(k)), 0);
        }
        printf("t_spill: node 1: sent\n");
    } else if (t_rank == 0) {
        /* B alone: all of it, unless copying is off */
        long got_b = 0;
        uint64_t last = SkifCh_Cycle(b);
        while (got_b < N / 2 && SkifCh_Cycle(b) - last < 20000) {
            if (SkifCh_Recv(b, cont, &parts) < 0) {
                ASSERT_EQ(errno, EAGAIN);
                continue;
            }
            ASSERT_TRUE(intact(cont, parts, 2 * got_b + 1));
            ASSERT_EQ(SkifCh_RecvComp(b), 0);
            got_b++;
            last = SkifCh_Cycle(b);
        }
        if (nospill) {
            ASSERT_TRUE(got_b < N / 2);
            ASSERT_EQ(SkifCh_Spilled(a), 0);
            printf("t_spill: node 0: without copying B stopped at %ld of %d\n", got_b, N / 2);
        } else {
            ASSERT_EQ(got_b, N / 2);
            ASSERT_TRUE(SkifCh_Spilled(a) > 0);
        }
        /* A (and the rest of B), A in batches of 1..5 taken before completion */
        long got_a = 0, batch = 0;
        while (got_a < N / 2 || got_b < N / 2) {
            if (got_b < N / 2 && SkifCh_Recv(b, cont, &parts) >= 0) {
                ASSERT_TRUE(intact(cont, parts, 2 * got_b + 1));
                ASSERT_EQ(SkifCh_RecvComp(b), 0);
                got_b++;
            }
            if (got_a == N / 2)
                continue;
            struct iovec held[5][SKIFCH_CONT_SIZE];
            int held_parts[5], n = 0, want = (int)(batch++ % 5) + 1;
            while (n < want && got_a + n < N / 2) {
                if (SkifCh_Recv(a, held[n], &held_parts[n]) < 0) {
                    ASSERT_EQ(errno, EAGAIN);
                    if (n > 0)
                        break;
                    continue;
                }
                n++;
            }
            for (int i = 0; i < n; i++) {
                ASSERT_TRUE(intact(held[i], held_parts[i], 2 * (got_a + i)));
                ASSERT_EQ(SkifCh_RecvComp(a), 0);
            }
            got_a += n;
        }
        errno = 0;
        ASSERT_EQ(SkifCh_RecvComp(a), -1);
        ASSERT_EQ(errno, ENOENT);
        /* C: wait until its messages have come (copied out of its ring as
         * rank 0 waits), read a few, close it with the rest pending */
        long spilled_ab = SkifCh_Spilled(a);
        while (!nospill && SkifCh_Spilled(c) == 0)
            ASSERT_TRUE(SkifCh_Wait(c, 256) >= 0);
        for (long k = 0; k < 3; k++) {
            while (SkifCh_Recv(c, cont, &parts) < 0)
                ASSERT_EQ(errno, EAGAIN);
            ASSERT_TRUE(intact(cont, parts, k));
            ASSERT_EQ(SkifCh_RecvComp(c), 0);
        }
        ASSERT_EQ(SkifCh_Close(c), 0);
        printf("t_spill: node 0: ok, %ld copied\n", spilled_ab);
    }
    /* rank 1 must not end before rank 0 has taken C's messages it needs */
    ASSERT_EQ(SkifChU_Barrier(bar), 0);
    if (t_rank == 0)
        ASSERT_EQ(SkifCh_Close(b), 0);
    ASSERT_EQ(SkifCh_Close(a), 0);
    return 0;
}
