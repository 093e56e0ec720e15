/* SPDX-License-Identifier: Apache-2.0 */
/* msgcost: the software cost of the SkifCh calls, for callgrind. Rank 0 sends
 * N 8-byte messages to rank 1 with SkifCh_Send (the TX ring holds them all,
 * and so do its credits, so no send is refused); after a barrier rank 1
 * takes each with SkifCh_Recv + SkifCh_RecvComp (all have arrived, so no
 * receive comes back empty; TAIL more messages follow the measured ones,
 * see there), then its SkifCh_Wait does the credit accounting of those
 * messages (measure_account). Before that, not measured, a warm-up: rank 0
 * sends 3 x N messages that rank 1 takes as they come, so that rank 0 holds
 * the credits of a sender that keeps sending (the share every sender starts
 * with, plus what the receiver's pool gave it when it asked). Run
 * under callgrind to count instructions per call (sw/bench/msgcost.sh does,
 * and prints the figures):
 *   skifrun -n 2 valgrind --tool=callgrind ... msgcost [N] */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"

/* Send n messages numbered 0..n-1 / receive and check them; inlined into
 * the measured loops and into the warm-up. */
static inline __attribute__((always_inline)) long send_loop(SkifCh *ch, long n, long *refused)
{
    uint64_t word = 0;
    struct iovec iov = {&word, sizeof(word)};
    netaddr_t to = SkifCh_Addr(1, 0);
    long sent = 0;
    while (sent < n) {
        word = (uint64_t)sent;
        if (SkifCh_Send(ch, to, &iov, 1) == (ssize_t)sizeof(word))
            sent++;
        else
            (*refused)++;
    }
    return sent;
}

static inline __attribute__((always_inline)) long recv_loop(SkifCh *ch, long n, long *empty)
{
    long got = 0;
    while (got < n) {
        struct iovec cont[SKIFCH_CONT_SIZE];
        int parts;
        ssize_t r = SkifCh_Recv(ch, cont, &parts);
        if (r < 0) {
            (*empty)++;
            continue;
        }
        if (r != 8 || *(const uint64_t *)cont[0].iov_base != (uint64_t)got) {
            fprintf(stderr, "msgcost: message %ld wrong\n", got);
            return -1;
        }
        SkifCh_RecvComp(ch);
        got++;
    }
    return got;
}

/* The measured loops: callgrind collects only inside these (msgcost.sh);
 * noipa: GCC would otherwise fold the warm-up into them (same code). */
__attribute__((noinline, noipa)) static long measure_send(SkifCh *ch, long n, long *refused)
{
    return send_loop(ch, n, refused);
}

__attribute__((noinline, noipa)) static long measure_recv(SkifCh *ch, long n, long *empty)
{
    return recv_loop(ch, n, empty);
}

/* With credits, the receiver's accounting of the completed messages at
 * its next wait (SkifCh_Wait runs it; without credits only the wait). */
__attribute__((noinline, noipa)) static void measure_account(SkifCh *ch)
{
    SkifCh_Wait(ch, 1);
}

/* The warm-up and the tail, not measured. */
__attribute__((noinline)) static long warm_send(SkifCh *ch, long n, long *refused)
{
    return send_loop(ch, n, refused);
}

__attribute__((noinline)) static long warm_recv(SkifCh *ch, long n, long *empty)
{
    return recv_loop(ch, n, empty);
}

/* Messages sent after the measured ones: the receiving adapter reports a
 * channel's new tail a little later than the barrier's (status writes are
 * coalesced), so the last few measured messages could look not yet there;
 * with a tail behind them they have all arrived when the barrier has. */
#define TAIL 64

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: skifrun -n 2 %s [N]\n"
               "Rank 0 sends N (default 1000, at most 3000) 8-byte messages to rank 1, which\n"
               "receives them after a barrier; meant to run under valgrind --tool=callgrind\n"
               "(sw/bench/msgcost.sh).\n",
               argv[0]);
        return 0;
    }
    long n = argc > 1 ? atol(argv[1]) : 1000;
    if (n < 1 || n > 3000) {
        fprintf(stderr, "msgcost: N must be from 1 to 3000\n");
        return 2;
    }
    int rank = SkifCh_Rank();
    SkifCh *ch = SkifCh_Open(0), *bar = SkifChU_BarrierOpen();
    if (!ch || !bar) {
        fprintf(stderr, "msgcost: SkifCh_Open: %s\n", strerror(errno));
        return 1;
    }
    long sent = 0, refused = 0, got = 0, empty = 0;
    /* the warm-up (its counts are not reported) */
    if (rank == 0)
        sent = warm_send(ch, 3 * n, &refused);
    else if (warm_recv(ch, 3 * n, &empty) < 0)
        return 1;
    sent = refused = empty = 0;
    if (SkifChU_Barrier(bar) < 0) {
        fprintf(stderr, "msgcost: barrier: %s\n", strerror(errno));
        return 1;
    }
    if (rank == 0) {
        sent = measure_send(ch, n, &refused);
        printf("msgcost: rank 0 sent %ld messages (%ld refused sends)\n", sent, refused);
        long r = 0;
        warm_send(ch, TAIL, &r); /* the tail */
    }
    if (SkifChU_Barrier(bar) < 0) {
        fprintf(stderr, "msgcost: barrier: %s\n", strerror(errno));
        return 1;
    }
    if (rank == 1) {
        got = measure_recv(ch, n, &empty);
        if (got < 0)
            return 1;
        printf("msgcost: rank 1 received %ld messages (%ld empty receives)\n", got, empty);
        measure_account(ch);
        long e = 0;
        if (warm_recv(ch, TAIL, &e) < 0)
            return 1;
    }
    SkifCh_Close(ch);
    SkifCh_Close(bar);
    return 0;
}
