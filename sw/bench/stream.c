/* SPDX-License-Identifier: Apache-2.0 */
/* stream: rank 0 streams N messages of LEN bytes to rank 1 (whole messages:
 * a partial send is completed by the next); rank 1 checks each message's
 * sequence number and prints the steady-state rate, from its first message
 * to its last, in messages and bytes per cycle. Other ranks idle.
 * Usage: skifrun -n 2 stream [N [LEN]] */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skifch.h"

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf(
            "usage: skifrun -n 2 %s [N [LEN]]\n"
            "Rank 0 sends N (default 2000) messages of LEN (default 8, 4..%d) bytes to\n"
            "rank 1, which prints: stream: N LEN first_cycle last_cycle msgs/cycle bytes/cycle\n",
            argv[0], SKIFCH_MAX_MSG);
        return 0;
    }
    long n = argc > 1 ? atol(argv[1]) : 2000;
    long len = argc > 2 ? atol(argv[2]) : 8;
    if (n < 2 || len < 4 || len > SKIFCH_MAX_MSG) {
        fprintf(stderr, "stream: need N >= 2 and 4 <= LEN <= %d\n", SKIFCH_MAX_MSG);
        return 2;
    }
    int rank = SkifCh_Rank();
    SkifCh *ch = SkifCh_Open(0);
    if (!ch) {
        fprintf(stderr, "stream: SkifCh_Open: %s\n", strerror(errno));
        return 1;
    }
    static uint8_t buf[SKIFCH_MAX_MSG];
    if (rank == 0) {
        for (long k = 0; k < n; k++) {
            uint32_t seq = (uint32_t)k;
            memcpy(buf, &seq, 4);
            long done = 0;
            while (done < len) {
                struct iovec iov = {buf + done, (size_t)(len - done)};
                ssize_t r = SkifCh_Send(ch, SkifCh_Addr(1, 0), &iov, 1);
                if (r < 0 && errno != EAGAIN) {
                    fprintf(stderr, "stream: SkifCh_Send: %s\n", strerror(errno));
                    return 1;
                }
                if (r > 0)
                    done += r;
            }
        }
    } else if (rank == 1) {
        uint64_t first = 0, last = 0;
        long got = 0, bytes = 0, msgs = 0;
        uint32_t want = 0;
        long in_msg = 0;
        while (got < n) {
            struct iovec cont[SKIFCH_CONT_SIZE];
            int parts;
            ssize_t r = SkifCh_Recv(ch, cont, &parts);
            if (r < 0) {
                if (errno != EAGAIN) {
                    fprintf(stderr, "stream: SkifCh_Recv: %s\n", strerror(errno));
                    return 1;
                }
                continue;
            }
            if (msgs++ == 0)
                first = SkifCh_Cycle(ch);
            if (in_msg == 0) {
                uint32_t seq;
                uint8_t tmp[4];
                size_t at = 0;
                for (int p = 0; p < parts && at < 4; p++)
                    for (size_t i = 0; i < cont[p].iov_len && at < 4; i++)
                        tmp[at++] = ((uint8_t *)cont[p].iov_base)[i];
                memcpy(&seq, tmp, 4);
                if (at < 4 || seq != want) {
                    fprintf(stderr, "stream: message %u arrived as %u\n", want, seq);
                    return 1;
                }
            }
            in_msg += r;
            bytes += r;
            if (in_msg == len) {
                in_msg = 0;
                want++;
                got++;
            }
            SkifCh_RecvComp(ch);
        }
        last = SkifCh_Cycle(ch);
        double cyc = (double)(last - first);
        printf("stream: %ld %ld %llu %llu %.4f %.3f\n", n, len, (unsigned long long)first,
               (unsigned long long)last, (double)(n - 1) / cyc, (double)bytes / cyc);
    }
    SkifCh_Close(ch);
    return 0;
}
