/* SPDX-License-Identifier: Apache-2.0 */
/* alltoall: random all-to-all stress with a scoreboard. Every rank sends
 * COUNT messages, each to a random rank (itself included) and one of the
 * channels 1..NCH, of a random size 0..2048, while it receives on its own
 * channels. Every plan comes from a generator seeded by (SEED, rank), so each
 * receiver recomputes what every sender sends it and checks that each
 * message arrives exactly once, intact, on the right channel, in order per
 * (sender, channel). Each wire message is a 12-byte header {src, channel,
 * seq, offset} gathered with the data (two iovec pieces); when SkifCh_Send
 * sends only a first part, the rest follows with its own header and the
 * receiver reassembles it. Ends with a barrier; rank 0 prints the totals.
 * Usage: skifrun --dims 2x2x2 alltoall [COUNT [SEED [NCH]]] */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"

#define MAX_NCH 8
/* per-source arrays are indexed [src * SLOTS + chan], chan 1..MAX_NCH */
#define SLOTS (MAX_NCH + 1)
#define HDR 12 /* wire header: src u16, chan u8, pad u8, seq u32, offset u32 */

static long g_count;
static uint64_t g_seed;
static int g_nch, g_size;

/* The k-th message of rank src: destination rank, channel, length. */
struct plan {
    int dst, chan, len;
};

static void plan_of(int src, long k, uint64_t *st, struct plan *p)
{
    (void)k;
    uint64_t r = SkifChU_Rand(st);
    p->dst = (int)(r % (uint64_t)g_size);
    p->chan = 1 + (int)((r >> 16) % (uint64_t)g_nch);
    switch ((r >> 32) % 4) {
    case 0:
        p->len = (int)((r >> 40) % 2);
        break;
    case 1:
        p->len = (int)((r >> 40) % 64);
        break;
    case 2:
        p->len = SKIFCH_MAX_MSG - (int)((r >> 40) % 8);
        break;
    default:
        p->len = (int)((r >> 40) % (SKIFCH_MAX_MSG + 1));
    }
    (void)src;
}

static uint8_t pat(int src, uint32_t seq, int i)
{
    return (uint8_t)(src * 31 + seq * 7 + (uint32_t)i * 13 + (i >> 8));
}

static int usage(const char *cmd, FILE *f, int rc)
{
    fprintf(f,
            "usage: skifrun -n N %s [COUNT [SEED [NCH]]]\n"
            "Every rank sends COUNT (default 200) messages to random ranks and channels\n"
            "1..NCH (default 3, at most %d), sizes 0..%d, from a generator seeded by SEED\n"
            "(default 1) and its rank, and checks every message it receives. Prints per rank\n"
            "  alltoall: node R sent S received T\n"
            "and on rank 0 the totals; exits 1 on any lost, duplicated, corrupt or\n"
            "reordered message.\n",
            cmd, MAX_NCH, SKIFCH_MAX_MSG);
    return rc;
}

int main(int argc, char **argv)
{
    long count = 200, seed = 1, nch = 3;
    if (SkifChU_WantsHelp(argc, argv))
        return usage(argv[0], stdout, 0);
    if (argc > 4 || (argc > 1 && SkifChU_Num(argv[1], 0, 1000000, &count)) ||
        (argc > 2 && SkifChU_Num(argv[2], 0, 1L << 30, &seed)) ||
        (argc > 3 && SkifChU_Num(argv[3], 1, MAX_NCH, &nch))) {
        fprintf(stderr, "alltoall: bad arguments\n");
        return usage(argv[0], stderr, 2);
    }
    int rank = SkifChU_Rank("alltoall");
    if (rank < 0)
        return 1;
    g_size = SkifCh_Size();
    g_count = count;
    g_seed = (uint64_t)seed;
    g_nch = (int)nch;

    /* what this rank expects: per (src, chan) the count, in order */
    long nexp = 0;
    long *exp_n = calloc((size_t)g_size * SLOTS, sizeof(long));
    long *got_n = calloc((size_t)g_size * SLOTS, sizeof(long));
    int *exp_len = malloc(sizeof(int) * (size_t)g_size * SLOTS * (size_t)(count + 1));
    if (!exp_n || !got_n || !exp_len) {
        fprintf(stderr, "alltoall: out of memory\n");
        return 1;
    }
    for (int src = 0; src < g_size; src++) {
        uint64_t st = g_seed * 1000003u + (uint64_t)src + 1;
        for (long k = 0; k < count; k++) {
            struct plan p;
            plan_of(src, k, &st, &p);
            if (p.dst != rank)
                continue;
            long q = (long)src * SLOTS + p.chan;
            exp_len[q * (count + 1) + exp_n[q]++] = p.len;
            nexp++;
        }
    }

    SkifCh *ch[MAX_NCH + 1] = {0};
    for (int c = 1; c <= g_nch; c++)
        if (!(ch[c] = SkifCh_Open(c))) {
            fprintf(stderr, "alltoall: SkifCh_Open(%d): %s\n", c, strerror(errno));
            return 1;
        }
    SkifCh *bar = SkifChU_BarrierOpen();
    if (!bar || SkifChU_Barrier(bar) < 0) {
        fprintf(stderr, "alltoall: barrier: %s\n", strerror(errno));
        return 1;
    }

    uint64_t st = g_seed * 1000003u + (uint64_t)rank + 1;
    uint32_t *seq_to = calloc((size_t)g_size * SLOTS, sizeof(uint32_t));
    long *part_at =
        calloc((size_t)g_size * SLOTS, sizeof(long)); /* bytes of the message in progress */
    if (!seq_to || !part_at) {
        fprintf(stderr, "alltoall: out of memory\n");
        return 1;
    }
    static uint8_t data[SKIFCH_MAX_MSG], hdr[HDR];
    long sent = 0, recvd = 0, parts_sent = 0, split = 0;
    struct plan p;
    uint32_t seq = 0, off = 0;
    int have = 0;
    while (sent < count || recvd < nexp) {
        /* send (the rest of) the next message if it fits now; EAGAIN lets time pass */
        if (sent < count) {
            if (!have) {
                plan_of(rank, sent, &st, &p);
                seq = seq_to[p.dst * SLOTS + p.chan]++;
                off = 0;
                for (int i = 0; i < p.len; i++)
                    data[i] = pat(rank, seq, i);
                have = 1;
            }
            uint16_t s16 = (uint16_t)rank;
            memcpy(hdr, &s16, 2);
            hdr[2] = (uint8_t)p.chan;
            hdr[3] = 0;
            memcpy(hdr + 4, &seq, 4);
            memcpy(hdr + 8, &off, 4);
            struct iovec iov[2] = {{hdr, HDR}, {data + off, (size_t)p.len - off}};
            ssize_t r = SkifCh_Send(ch[1], SkifCh_Addr(p.dst, p.chan), iov, 2);
            if (r >= HDR) {
                parts_sent++;
                off += (uint32_t)(r - HDR);
                if (off == (uint32_t)p.len) {
                    sent++;
                    have = 0;
                } else {
                    split++;
                }
            } else if (r >= 0 || errno != EAGAIN) {
                fprintf(stderr, "alltoall: node %d: send: %zd %s\n", rank, r, strerror(errno));
                return 1;
            }
        }
        /* take what has arrived on every channel */
        for (int c = 1; c <= g_nch && recvd < nexp; c++) {
            struct iovec cont[SKIFCH_CONT_SIZE];
            int parts;
            ssize_t r;
            while ((r = SkifCh_Recv(ch[c], cont, &parts)) >= 0) {
                static uint8_t m[SKIFCH_MAX_MSG];
                size_t at = 0;
                for (int i = 0; i < parts; i++) {
                    memcpy(m + at, cont[i].iov_base, cont[i].iov_len);
                    at += cont[i].iov_len;
                }
                if (SkifCh_RecvComp(ch[c]) < 0) {
                    fprintf(stderr, "alltoall: node %d: RecvComp: %s\n", rank, strerror(errno));
                    return 1;
                }
                uint16_t src;
                uint32_t mseq, moff;
                memcpy(&src, m, 2);
                memcpy(&mseq, m + 4, 4);
                memcpy(&moff, m + 8, 4);
                if (r < HDR || src >= g_size || m[2] != c) {
                    fprintf(stderr, "alltoall: node %d ch %d: bad message header (len %zd)\n", rank,
                            c, r);
                    return 1;
                }
                long q = (long)src * SLOTS + c;
                long want_len = got_n[q] < exp_n[q] ? exp_len[q * (count + 1) + got_n[q]] : -1;
                if (want_len < 0 || mseq != (uint32_t)got_n[q] || moff != (uint32_t)part_at[q] ||
                    moff + (uint32_t)(r - HDR) > (uint32_t)want_len) {
                    fprintf(stderr,
                            "alltoall: node %d ch %d: from %u got seq %u offset %u len %zd, "
                            "expected seq %ld offset %ld of %ld messages (length %ld)\n",
                            rank, c, src, mseq, moff, r - HDR, got_n[q], part_at[q], exp_n[q],
                            want_len);
                    return 1;
                }
                for (int i = 0; i < r - HDR; i++)
                    if (m[HDR + i] != pat(src, mseq, (int)moff + i)) {
                        fprintf(stderr, "alltoall: node %d ch %d: from %u seq %u byte %u corrupt\n",
                                rank, c, src, mseq, moff + (uint32_t)i);
                        return 1;
                    }
                part_at[q] += r - HDR;
                if (part_at[q] == want_len) {
                    part_at[q] = 0;
                    got_n[q]++;
                    recvd++;
                }
            }
            if (errno != EAGAIN) {
                fprintf(stderr, "alltoall: node %d: recv: %s\n", rank, strerror(errno));
                return 1;
            }
        }
    }
    free(part_at);
    if (SkifChU_Barrier(bar) < 0) {
        fprintf(stderr, "alltoall: barrier: %s\n", strerror(errno));
        return 1;
    }
    printf("alltoall: node %d sent %ld (%ld sent in parts) received %ld\n", rank, sent, split,
           recvd);
    if (rank == 0)
        printf("alltoall: %d nodes, %ld messages each, %d channels: all delivered once, intact, "
               "in order, at cycle %llu\n",
               g_size, count, g_nch, (unsigned long long)SkifCh_Cycle(bar));
    for (int c = 1; c <= g_nch; c++)
        SkifCh_Close(ch[c]);
    SkifCh_Close(bar);
    free(exp_n);
    free(got_n);
    free(exp_len);
    free(seq_to);
    return 0;
}
