/* SPDX-License-Identifier: Apache-2.0 */
/* t_stuck: one channel that is never read, and the traffic around it. On a
 * ring of 5 (node 0 reaches node 2 through node 1):
 *  - rank 1 opens channel A (4 KiB ring) and channel B; it reads only B
 *    until B brings nothing for IDLE cycles (also when it has all N, so A
 *    stays unread while the other flows finish), then A and B;
 *  - rank 2 opens channel C and reads it;
 *  - rank 0 sends N 8-byte messages to each of 1:A, 1:B and 2:C, in turn;
 *    a destination that refuses (EAGAIN) is skipped for that round, so a
 *    stuck A does not stop the sender's other flows.
 * Every message carries its number and is checked in order on arrival.
 * Mode `read` reads A from the start (the reference run). Prints
 *   t_stuck: node 1: B got K of N while A was unread; A read from cycle T; all 2N in order
 *   t_stuck: node 2: C got N in order, first at cycle F, last at cycle L
 * Usage: skifrun -n 5 t_stuck [N [IDLE [read]]] (default 1000 3000). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "skifch_util.h"
#include "t_check.h"

#define CH_A 1
#define CH_B 2
#define CH_C 3

static long g_n = 1000, g_idle = 3000;

/* Take one message of ch if there is one: 1 (and checks it is number
 * *next, then counts it), 0 none. */
static int take(SkifCh *ch, long *next, char name)
{
    struct iovec cont[SKIFCH_CONT_SIZE];
    int parts;
    ssize_t r = SkifCh_Recv(ch, cont, &parts);
    if (r < 0) {
        ASSERT_EQ(errno, EAGAIN);
        return 0;
    }
    uint64_t w = 0;
    ASSERT_EQ(r, sizeof(w));
    ASSERT_EQ(parts, 1);
    memcpy(&w, cont[0].iov_base, sizeof(w));
    if (w != (uint64_t)*next) {
        fprintf(stderr, "t_stuck: channel %c: got message %llu, expected %ld\n", name,
                (unsigned long long)w, *next);
        exit(1);
    }
    ASSERT_EQ(SkifCh_RecvComp(ch), 0);
    (*next)++;
    return 1;
}

int main(int argc, char **argv)
{
    t_name = "t_stuck";
    if (argc > 1 && !strcmp(argv[1], "--help")) {
        printf("usage: skifrun -n 5 t_stuck [N [IDLE [read]]]\n");
        return 0;
    }
    if (argc > 4 || (argc > 1 && SkifChU_Num(argv[1], 1, 1000000, &g_n)) ||
        (argc > 2 && SkifChU_Num(argv[2], 100, 100000000, &g_idle)) ||
        (argc > 3 && strcmp(argv[3], "read"))) {
        fprintf(stderr, "t_stuck: bad arguments\n");
        return 2;
    }
    int read_a = argc > 3;
    t_rank = SkifCh_Rank();
    ASSERT_TRUE(SkifCh_Size() >= 3);
    SkifCh *bar = SkifChU_BarrierOpen();
    ASSERT_TRUE(bar != NULL);
    SkifCh *a = NULL, *b = NULL, *c = NULL;
    if (t_rank == 1) {
        setenv("SKIFCH_RING_LOG2", "12", 1);
        ASSERT_TRUE((a = SkifCh_Open(CH_A)) != NULL);
        unsetenv("SKIFCH_RING_LOG2");
        ASSERT_TRUE((b = SkifCh_Open(CH_B)) != NULL);
    } else if (t_rank == 2) {
        ASSERT_TRUE((c = SkifCh_Open(CH_C)) != NULL);
    } else if (t_rank == 0) {
        ASSERT_TRUE((a = SkifCh_Open(CH_A)) != NULL); /* to send from */
    }
    ASSERT_EQ(SkifChU_Barrier(bar), 0);
    if (t_rank == 0) {
        const netaddr_t dst[3] = {SkifCh_Addr(1, CH_A), SkifCh_Addr(1, CH_B), SkifCh_Addr(2, CH_C)};
        long next[3] = {0, 0, 0};
        while (next[0] < g_n || next[1] < g_n || next[2] < g_n)
            for (int i = 0; i < 3; i++) {
                if (next[i] >= g_n)
                    continue;
                uint64_t w = (uint64_t)next[i];
                struct iovec iov = {&w, sizeof(w)};
                if (SkifCh_Send(a, dst[i], &iov, 1) == sizeof(w))
                    next[i]++;
                else
                    ASSERT_EQ(errno, EAGAIN);
            }
        printf("t_stuck: node 0: sent %ld to each of 1:A, 1:B, 2:C\n", g_n);
    } else if (t_rank == 1) {
        long got_a = 0, got_b = 0;
        uint64_t last = SkifCh_Cycle(b);
        while (SkifCh_Cycle(b) - last < (uint64_t)g_idle) {
            if (read_a)
                take(a, &got_a, 'A');
            if (take(b, &got_b, 'B'))
                last = SkifCh_Cycle(b);
        }
        long b_alone = got_b;
        uint64_t t_a = SkifCh_Cycle(b);
        while (got_a < g_n || got_b < g_n) {
            take(a, &got_a, 'A');
            take(b, &got_b, 'B');
        }
        printf("t_stuck: node 1: B got %ld of %ld while A was %s; A read from cycle %llu; all "
               "%ld in order\n",
               b_alone, g_n, read_a ? "read" : "unread", (unsigned long long)t_a, 2 * g_n);
    } else if (t_rank == 2) {
        long got = 0;
        uint64_t first = 0;
        while (got < g_n)
            if (take(c, &got, 'C') && got == 1)
                first = SkifCh_Cycle(c);
        printf("t_stuck: node 2: C got %ld in order, first at cycle %llu, last at cycle %llu\n",
               got, (unsigned long long)first, (unsigned long long)SkifCh_Cycle(c));
    }
    ASSERT_EQ(SkifChU_Barrier(bar), 0);
    return 0;
}
