/* SPDX-License-Identifier: Apache-2.0 */
/* chanblock: what back-pressure on one channel does to another. Rank 0 opens
 * channel A (a 4 KiB ring: 256 entries of an 8-byte message) and channel B;
 * rank 1 sends COUNT 8-byte messages alternating A, B; when Send refuses one
 * of them (EAGAIN: no room or, with credits, no credits for it) it goes on
 * with the other, each in order. Rank 0 first reads only
 * B, until B brings nothing new for IDLE cycles, then reads both until all
 * arrived. Rank 0 prints how many B messages came while A was unread, the
 * cycles B was starved, and the totals.
 * Usage: skifrun -n 2 chanblock [COUNT [IDLE]] */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"

#define CH_A 1
#define CH_B 2

static int usage(const char *cmd, FILE *f, int rc)
{
    fprintf(f,
            "usage: skifrun -n 2 %s [COUNT [IDLE]]\n"
            "Rank 1 sends COUNT (default 1200) 8-byte messages alternating rank 0's channel\n"
            "%d (4 KiB ring) and channel %d; rank 0 reads only channel %d until it brings\n"
            "nothing for IDLE (default 3000) cycles, then both, checking every message's\n"
            "number and order. Rank 0 prints what B got while A was unread, how long B\n"
            "starved (if it did). By default (end-to-end credits) A's sender stops before\n"
            "A's ring is full and B gets everything; with SKIFCH_CREDITS=0 a full A blocks\n"
            "B at the adapter until A is read.\n",
            cmd, CH_A, CH_B, CH_B);
    return rc;
}

/* Message k carries k: A gets the even ones, B the odd ones, each in order. */
static int in_order(const struct iovec *cont, int parts, long want, char ch)
{
    uint64_t word = 0;
    if (parts == 1 && cont[0].iov_len == sizeof(word))
        memcpy(&word, cont[0].iov_base, sizeof(word));
    if (parts != 1 || cont[0].iov_len != sizeof(word) || word != (uint64_t)want) {
        fprintf(stderr, "chanblock: channel %c: got message %llu, expected %ld\n", ch,
                (unsigned long long)word, want);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    long count = 1200, idle = 3000;
    if (SkifChU_WantsHelp(argc, argv))
        return usage(argv[0], stdout, 0);
    if (argc > 3 || (argc > 1 && SkifChU_Num(argv[1], 2, 1000000, &count)) ||
        (argc > 2 && SkifChU_Num(argv[2], 100, 100000000, &idle))) {
        fprintf(stderr, "chanblock: bad arguments\n");
        return usage(argv[0], stderr, 2);
    }
    int rank = SkifChU_Rank("chanblock");
    if (rank < 0)
        return 1;
    SkifCh *bar = SkifChU_BarrierOpen(), *a = NULL, *b = NULL;
    if (rank == 0) {
        setenv("SKIFCH_RING_LOG2", "12", 1);
        a = SkifCh_Open(CH_A);
        unsetenv("SKIFCH_RING_LOG2");
        b = SkifCh_Open(CH_B);
    } else {
        a = SkifCh_Open(CH_A); /* any channel to send from */
    }
    if (!bar || !a || (rank == 0 && !b)) {
        fprintf(stderr, "chanblock: SkifCh_Open: %s\n", strerror(errno));
        return 1;
    }
    if (SkifChU_Barrier(bar) < 0)
        goto fail;
    uint64_t word = 0;
    if (rank == 1) {
        /* next[0]: A's next message (even numbers), next[1]: B's (odd) */
        long next[2] = {0, 1};
        while (next[0] < count || next[1] < count)
            for (int i = 0; i < 2; i++) {
                if (next[i] >= count)
                    continue;
                word = (uint64_t)next[i];
                struct iovec iov = {&word, sizeof(word)};
                if (SkifCh_Send(a, SkifCh_Addr(0, i ? CH_B : CH_A), &iov, 1) == sizeof(word))
                    next[i] += 2;
                else if (errno != EAGAIN)
                    goto fail;
            }
    } else if (rank == 0) {
        long want_b = count / 2, want_a = count - want_b, got_a = 0, got_b = 0;
        uint64_t t0 = SkifCh_Cycle(b), last = t0;
        struct iovec cont[SKIFCH_CONT_SIZE];
        int parts;
        /* phase 1: B only */
        while (got_b < want_b && SkifCh_Cycle(b) - last < (uint64_t)idle) {
            if (SkifCh_Recv(b, cont, &parts) >= 0) {
                if (!in_order(cont, parts, 2 * got_b + 1, 'B'))
                    return 1;
                SkifCh_RecvComp(b);
                got_b++;
                last = SkifCh_Cycle(b);
            } else if (errno != EAGAIN) {
                goto fail;
            }
        }
        long b_alone = got_b;
        uint64_t t_stuck = last, t_drain = SkifCh_Cycle(b), first_b_after = 0;
        /* phase 2: both */
        while (got_a < want_a || got_b < want_b) {
            if (got_a < want_a && SkifCh_Recv(a, cont, &parts) >= 0) {
                if (!in_order(cont, parts, 2 * got_a, 'A'))
                    return 1;
                SkifCh_RecvComp(a);
                got_a++;
            } else if (errno != EAGAIN) {
                goto fail;
            }
            if (got_b < want_b && SkifCh_Recv(b, cont, &parts) >= 0) {
                if (!in_order(cont, parts, 2 * got_b + 1, 'B'))
                    return 1;
                SkifCh_RecvComp(b);
                if (!first_b_after)
                    first_b_after = SkifCh_Cycle(b);
                got_b++;
            } else if (errno != EAGAIN) {
                goto fail;
            }
        }
        uint64_t t_end = SkifCh_Cycle(b);
        if (b_alone < want_b)
            printf("chanblock: B got %ld of %ld while A (256-entry ring) was unread; B then "
                   "starved %llu cycles until A was read; ",
                   b_alone, want_b,
                   (unsigned long long)((first_b_after ? first_b_after : t_drain) - t_stuck));
        else
            printf("chanblock: B got all %ld while A (256-entry ring) was unread; ", want_b);
        printf("all %ld messages in order by cycle %llu (%llu after the start)\n", count,
               (unsigned long long)t_end, (unsigned long long)(t_end - t0));
    }
    if (SkifChU_Barrier(bar) < 0)
        goto fail;
    return 0;
fail:
    fprintf(stderr, "chanblock: node %d: %s\n", rank, strerror(errno));
    return 1;
}
