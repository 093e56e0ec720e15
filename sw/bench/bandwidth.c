/* SPDX-License-Identifier: Apache-2.0 */
/* bandwidth: rank 0 streams COUNT messages of each size to rank 1 (between
 * barriers, one size after another; a message the TX ring cannot take whole
 * goes in parts, as SkifCh_Send allows); rank 1 prints one CSV line per size:
 * bytes, messages, cycles, payload bytes/cycle, GB/s at the stated clock.
 * Usage: skifrun -n 2 bandwidth [COUNT [SIZE...]] */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"

#define CHAN 1
#define MAX_SIZES 32

static int usage(const char *cmd, FILE *f, int rc)
{
    fprintf(f,
            "usage: skifrun -n N %s [COUNT [SIZE...]]\n"
            "Rank 0 sends COUNT (default 500) messages of each SIZE (default 8 64 256 1024\n"
            "2048; each 1..%d) to rank 1 on channel %d. Rank 1 prints CSV:\n"
            "  size,messages,cycles,bytes_per_cycle,gbytes_per_s\n",
            cmd, SKIFCH_MAX_MSG, CHAN);
    return rc;
}

int main(int argc, char **argv)
{
    long count = 500, sizes[MAX_SIZES] = {8, 64, 256, 1024, 2048};
    int nsizes = 5;
    if (SkifChU_WantsHelp(argc, argv))
        return usage(argv[0], stdout, 0);
    if (argc > 1 && SkifChU_Num(argv[1], 1, 10000000, &count)) {
        fprintf(stderr, "bandwidth: bad COUNT '%s'\n", argv[1]);
        return usage(argv[0], stderr, 2);
    }
    if (argc > 2) {
        nsizes = 0;
        for (int i = 2; i < argc; i++) {
            if (nsizes == MAX_SIZES || SkifChU_Num(argv[i], 1, SKIFCH_MAX_MSG, &sizes[nsizes])) {
                fprintf(stderr, "bandwidth: bad SIZE '%s' (1..%d, at most %d sizes)\n", argv[i],
                        SKIFCH_MAX_MSG, MAX_SIZES);
                return usage(argv[0], stderr, 2);
            }
            nsizes++;
        }
    }
    int rank = SkifChU_Rank("bandwidth");
    if (rank < 0)
        return 1;
    SkifCh *ch = SkifCh_Open(CHAN), *bar = SkifChU_BarrierOpen();
    if (!ch || !bar) {
        fprintf(stderr, "bandwidth: SkifCh_Open: %s\n", strerror(errno));
        return 1;
    }
    static uint8_t buf[SKIFCH_MAX_MSG];
    for (size_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(i * 7);
    if (rank == 1)
        printf("size,messages,cycles,bytes_per_cycle,gbytes_per_s\n");
    for (int s = 0; s < nsizes; s++) {
        long len = sizes[s];
        if (SkifChU_Barrier(bar) < 0)
            goto fail;
        if (rank == 0) {
            for (long k = 0; k < count; k++)
                if (SkifChU_Send(ch, SkifCh_Addr(1, CHAN), buf, (size_t)len) < 0)
                    goto fail;
        } else if (rank == 1) {
            /* bytes, not messages: a message may come in parts (partial sends) */
            uint64_t t0 = SkifCh_Cycle(ch);
            for (long got = 0; got < count * len;) {
                ssize_t r = SkifChU_Recv(ch, buf, sizeof(buf));
                if (r < 0)
                    goto fail;
                got += r;
            }
            uint64_t cyc = SkifCh_Cycle(ch) - t0;
            double bpc = (double)(count * len) / (double)cyc;
            printf("%ld,%ld,%llu,%.3f,%.3f\n", len, count, (unsigned long long)cyc, bpc,
                   bpc * SkifCh_ClockMHz(ch) / 1000.0);
        }
    }
    if (SkifChU_Barrier(bar) < 0)
        goto fail;
    SkifCh_Close(ch);
    SkifCh_Close(bar);
    return 0;
fail:
    fprintf(stderr, "bandwidth: node %d: %s\n", rank, strerror(errno));
    return 1;
}
