/* SPDX-License-Identifier: Apache-2.0 */
/* msgrate: the SkifCh paper's MsgRate test. Between two barriers, rank 0
 * sends N messages of LEN bytes to rank 1, which receives them; rate = N /
 * time. Rank 1 prints the rate in messages per cycle and per microsecond at
 * the stated clock, measured from the first barrier's end to the last
 * message's arrival (its own clock). Every message is its own packet: no
 * aggregation. Usage: skifrun -n 2 msgrate [N [LEN]] */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"

#define CHAN 1
#define MAX_LEN 512

static int usage(const char *cmd, FILE *f, int rc)
{
    fprintf(f,
            "usage: skifrun -n N %s [COUNT [LEN]]\n"
            "Between two barriers rank 0 sends COUNT (default 10000) messages of LEN\n"
            "(default 8, 0..%d: a single piece that size is always sent whole) bytes to rank\n"
            "1 on channel %d; rank 1 checks their order and\n"
            "prints:\n"
            "  msgrate: COUNT x LEN bytes in C cycles: R msgs/cycle = M Mmsg/s at F MHz\n",
            cmd, MAX_LEN, CHAN);
    return rc;
}

int main(int argc, char **argv)
{
    long n = 10000, len = 8;
    if (SkifChU_WantsHelp(argc, argv))
        return usage(argv[0], stdout, 0);
    if (argc > 3 || (argc > 1 && SkifChU_Num(argv[1], 1, 100000000, &n)) ||
        (argc > 2 && SkifChU_Num(argv[2], 0, MAX_LEN, &len))) {
        fprintf(stderr, "msgrate: bad arguments\n");
        return usage(argv[0], stderr, 2);
    }
    int rank = SkifChU_Rank("msgrate");
    if (rank < 0)
        return 1;
    SkifCh *ch = SkifCh_Open(CHAN), *bar = SkifChU_BarrierOpen();
    if (!ch || !bar) {
        fprintf(stderr, "msgrate: SkifCh_Open: %s\n", strerror(errno));
        return 1;
    }
    static uint8_t buf[SKIFCH_MAX_MSG];
    memset(buf, 0, sizeof(buf));
    if (SkifChU_Barrier(bar) < 0)
        goto fail;
    if (rank == 0) {
        netaddr_t dst = SkifCh_Addr(1, CHAN);
        for (long k = 0; k < n; k++) {
            uint32_t seq = (uint32_t)k;
            memcpy(buf, &seq, len < 4 ? (size_t)len : 4);
            if (SkifChU_Send(ch, dst, buf, (size_t)len) < 0)
                goto fail;
        }
    } else if (rank == 1) {
        uint64_t t0 = SkifCh_Cycle(ch);
        for (long k = 0; k < n; k++) {
            uint32_t seq = 0, want = (uint32_t)k;
            ssize_t r = SkifChU_Recv(ch, buf, sizeof(buf));
            if (r < 0)
                goto fail;
            memcpy(&seq, buf, len < 4 ? (size_t)len : 4);
            if (len < 4)
                want &= (uint32_t)((1ull << (8 * len)) - 1);
            if (r != len || seq != want) {
                fprintf(stderr, "msgrate: message %ld: %zd bytes, sequence %u\n", k, r, seq);
                return 1;
            }
        }
        uint64_t cyc = SkifCh_Cycle(ch) - t0;
        unsigned mhz = SkifCh_ClockMHz(ch);
        double rate = (double)n / (double)cyc;
        printf("msgrate: %ld x %ld bytes in %llu cycles: %.4f msgs/cycle = %.2f Mmsg/s at %u MHz\n",
               n, len, (unsigned long long)cyc, rate, rate * mhz, mhz);
    }
    if (SkifChU_Barrier(bar) < 0)
        goto fail;
    SkifCh_Close(ch);
    SkifCh_Close(bar);
    return 0;
fail:
    fprintf(stderr, "msgrate: node %d: %s\n", rank, strerror(errno));
    return 1;
}
