/* SPDX-License-Identifier: Apache-2.0 */
/* t_gone: messages to a node with no program behind it are discarded and
 * counted, like messages to a closed channel, and hold up nothing
 * (docs/skifch.md, "Addresses and channels"). 3 nodes:
 *  - rank 1 exits at once, without ever opening SkifCh;
 *  - rank 2 opens channel 1, tells rank 0 so, takes one message and exits
 *    with the channel still open (no Close);
 *  - rank 0 sends N 1 KiB messages to rank 1 and, after rank 2's word, N to
 *    rank 2 (far more than a 64 KiB ring holds), then closes.
 * The run must end on its own (not at the watchdog); skifrun's summary then
 * counts at least N + N - 1 - 63 discarded messages (63 entries of 1032
 * bytes fit rank 2's ring before its program ends), which the suite checks.
 * That is the adapter's part, run with SKIFCH_CREDITS=0. With credits (the
 * default) nothing answers a sender's credit requests from a node with no
 * program, so a sender stops there with EAGAIN once its share is spent;
 * mode `credits` checks that: rank 0 sends 1 KiB messages to rank 1 until
 * Send has refused for 20000 cycles, checks it sent no more than the share
 * (half the smallest ring among 3 ranks: 680 bytes of ring, in pieces),
 * then sends rank 2 the one message it waits for, and closes.
 * Usage: t_gone [N [credits]] (default 300). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"
#include "t_check.h"

#define CH 1
#define LEN 1024

int main(int argc, char **argv)
{
    t_name = "t_gone";
    long n = 300;
    if (argc > 1 && (!strcmp(argv[1], "--help") || SkifChU_Num(argv[1], 1, 100000, &n) ||
                     (argc > 2 && strcmp(argv[2], "credits")))) {
        printf("usage: skifrun -n 3 t_gone [N [credits]]\n");
        return strcmp(argv[1], "--help") ? 2 : 0;
    }
    int credits = argc > 2;
    t_rank = SkifCh_Rank();
    ASSERT_EQ(SkifCh_Size(), 3);
    if (t_rank == 1)
        return 0; /* no program behind node 1 from now on */
    SkifCh *ch = SkifCh_Open(CH);
    ASSERT_TRUE(ch != NULL);
    static uint8_t buf[LEN];
    if (t_rank == 2) {
        uint32_t word = 2;
        ASSERT_EQ(SkifChU_Send(ch, SkifCh_Addr(0, CH), &word, sizeof(word)), 0);
        ASSERT_EQ(SkifChU_Recv(ch, buf, LEN), LEN);
        printf("t_gone: node 2: got one, exiting with channel %d open\n", CH);
        return 0; /* no SkifCh_Close */
    }
    if (credits) {
        /* to node 1: until refused for 20000 cycles */
        long sent = 0;
        uint64_t last = SkifCh_Cycle(ch);
        while (SkifCh_Cycle(ch) - last < 20000) {
            struct iovec iov = {buf, LEN};
            ssize_t r = SkifCh_Send(ch, SkifCh_Addr(1, CH), &iov, 1);
            if (r > 0) {
                sent += r;
                last = SkifCh_Cycle(ch);
            } else {
                ASSERT_EQ(errno, EAGAIN);
            }
        }
        ASSERT_TRUE(sent > 0 && sent <= 680);
        printf("t_gone: node 0: node 1 (no program) took %ld bytes, then Send said EAGAIN "
               "for 20000 cycles\n",
               sent);
    } else {
        for (long k = 0; k < n; k++)
            ASSERT_EQ(SkifChU_Send(ch, SkifCh_Addr(1, CH), buf, LEN), 0);
    }
    uint32_t word = 0;
    ASSERT_EQ(SkifChU_Recv(ch, &word, sizeof(word)), sizeof(word));
    ASSERT_EQ(word, 2);
    if (credits) { /* one for node 2, which exits after it */
        ASSERT_EQ(SkifChU_Send(ch, SkifCh_Addr(2, CH), buf, LEN), 0);
        ASSERT_EQ(SkifCh_Close(ch), 0);
        printf("t_gone: node 0: sent 1 to node 2, closed\n");
        return 0;
    }
    for (long k = 0; k < n; k++)
        ASSERT_EQ(SkifChU_Send(ch, SkifCh_Addr(2, CH), buf, LEN), 0);
    ASSERT_EQ(SkifCh_Close(ch), 0);
    printf("t_gone: node 0: sent %ld to node 1 (no program) and %ld to node 2 (exited), "
           "closed\n",
           n, n);
    return 0;
}
