/* SPDX-License-Identifier: Apache-2.0 */
/* pingpong: one-way message latency between rank 0 and rank PEER: N round
 * trips of LEN-byte messages; rank 0 prints the one-way latency (half the
 * mean round trip) in cycles and in microseconds at the stated clock. Other
 * ranks only take part in the barriers.
 * Usage: skifrun -n 2 pingpong [N [LEN [PEER]]] */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"

#define CHAN 1

static int usage(const char *cmd, FILE *f, int rc)
{
    fprintf(f,
            "usage: skifrun -n N %s [ITER [LEN [PEER]]]\n"
            "Rank 0 and rank PEER (default 1) exchange ITER (default 1000) round trips of\n"
            "LEN-byte messages (default 8, 0..%d) on channel %d. Rank 0 prints:\n"
            "  pingpong: LEN bytes, ITER round trips: one-way C cycles = U us at M MHz\n",
            cmd, SKIFCH_MAX_MSG, CHAN);
    return rc;
}

int main(int argc, char **argv)
{
    long iter = 1000, len = 8, peer = 1;
    if (SkifChU_WantsHelp(argc, argv))
        return usage(argv[0], stdout, 0);
    if (argc > 4 || (argc > 1 && SkifChU_Num(argv[1], 1, 10000000, &iter)) ||
        (argc > 2 && SkifChU_Num(argv[2], 0, SKIFCH_MAX_MSG, &len)) ||
        (argc > 3 && SkifChU_Num(argv[3], 1, 255, &peer))) {
        fprintf(stderr, "pingpong: bad arguments\n");
        return usage(argv[0], stderr, 2);
    }
    int rank = SkifChU_Rank("pingpong"), size = SkifCh_Size();
    if (rank < 0)
        return 1;
    if (peer >= size) {
        fprintf(stderr, "pingpong: PEER %ld is not a rank of this run (%d ranks)\n", peer, size);
        return 2;
    }
    SkifCh *ch = SkifCh_Open(CHAN), *bar = SkifChU_BarrierOpen();
    if (!ch || !bar) {
        fprintf(stderr, "pingpong: SkifCh_Open: %s\n", strerror(errno));
        return 1;
    }
    static uint8_t buf[SKIFCH_MAX_MSG];
    memset(buf, 0x5a, sizeof(buf));
    if (SkifChU_Barrier(bar) < 0)
        goto fail;
    if (rank == 0) {
        uint64_t t0 = SkifCh_Cycle(ch);
        for (long i = 0; i < iter; i++) {
            if (SkifChU_Send(ch, SkifCh_Addr((int)peer, CHAN), buf, (size_t)len) < 0 ||
                SkifChU_Recv(ch, buf, sizeof(buf)) != len)
                goto fail;
        }
        uint64_t t1 = SkifCh_Cycle(ch);
        double one_way = (double)(t1 - t0) / (double)iter / 2.0;
        unsigned mhz = SkifCh_ClockMHz(ch);
        printf("pingpong: %ld bytes, %ld round trips: one-way %.1f cycles = %.3f us at %u MHz\n",
               len, iter, one_way, one_way / mhz, mhz);
    } else if (rank == peer) {
        for (long i = 0; i < iter; i++) {
            if (SkifChU_Recv(ch, buf, sizeof(buf)) != len ||
                SkifChU_Send(ch, SkifCh_Addr(0, CHAN), buf, (size_t)len) < 0)
                goto fail;
        }
    }
    if (SkifChU_Barrier(bar) < 0)
        goto fail;
    SkifCh_Close(ch);
    SkifCh_Close(bar);
    return 0;
fail:
    fprintf(stderr, "pingpong: node %d: %s\n", rank, strerror(errno));
    return 1;
}
