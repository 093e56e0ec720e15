/* SPDX-License-Identifier: Apache-2.0 */
/* t_chan: SkifCh channels on 3 nodes (ranks 1 and 2 send, rank 0 receives).
 *  - isolation: rank 0 has channels 2, 5 and 9 open; the senders interleave
 *    messages to all three; each channel gets exactly its own messages, in
 *    order per sender;
 *  - closed channel: messages to rank 0's channel 7 (never opened) are
 *    discarded and counted (SkifCh_Discarded);
 *  - closing with messages pending: channel 11 is closed holding received,
 *    uncompleted messages; reopened it is empty and works;
 *  - ring wrap-around: channel 13 has a 4 KiB ring; messages come in two
 *    parts across its end, intact (with credits, the default, the sender
 *    may send a message of 1200 bytes or more in pieces as its credits for
 *    the small ring allow: the pieces come in order and make it up);
 *  - partial send: a 6000-byte message from a 3-piece iovec goes out in
 *    parts (Send returns less than asked) and arrives intact;
 *  - bad calls: every error of skifch.h's list, on rank 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"
#include "t_check.h"

#define M 40     /* messages per sender per channel */
#define BIG 6000 /* the partial-send message */

static const int chans[3] = {2, 5, 9};

struct msg {
    uint8_t src, chan;
    uint16_t pad;
    uint32_t seq;
};

static uint8_t pat(int src, uint32_t seq, int i)
{
    return (uint8_t)(src * 17 + seq * 5 + (uint32_t)i * 3);
}

static size_t len_of(int src, uint32_t seq)
{
    return sizeof(struct msg) + (src * 7 + seq * 13) % 300;
}

static void send_msg(SkifCh *ch, int dst, int c, int src, uint32_t seq)
{
    static uint8_t buf[SKIFCH_MAX_MSG];
    struct msg h = {(uint8_t)src, (uint8_t)c, 0, seq};
    size_t len = len_of(src, seq);
    memcpy(buf, &h, sizeof(h));
    for (size_t i = sizeof(h); i < len; i++)
        buf[i] = pat(src, seq, (int)i);
    ASSERT_EQ(SkifChU_Send(ch, SkifCh_Addr(dst, c), buf, len), 0);
}

/* Receive one message of channel c into buf (copying both parts); returns
 * its length and counts wrapped (two-part) messages. */
static int wraps;
static ssize_t recv_copy(SkifCh *ch, uint8_t *buf)
{
    struct iovec cont[SKIFCH_CONT_SIZE];
    int parts;
    ssize_t r;
    while ((r = SkifCh_Recv(ch, cont, &parts)) < 0)
        ASSERT_EQ(errno, EAGAIN);
    ASSERT_TRUE(parts == 1 || parts == 2);
    size_t at = 0;
    for (int p = 0; p < parts; p++) {
        memcpy(buf + at, cont[p].iov_base, cont[p].iov_len);
        at += cont[p].iov_len;
    }
    ASSERT_EQ(at, r);
    if (parts == 2)
        wraps++;
    ASSERT_EQ(SkifCh_RecvComp(ch), 0);
    return r;
}

static void bad_calls(SkifCh *c2)
{
    struct iovec iov = {"x", 1}, cont[SKIFCH_CONT_SIZE];
    int parts;
    netaddr_t me = SkifCh_MyAddr(c2);
    errno = 0;
    ASSERT_TRUE(SkifCh_Open(-1) == NULL && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Open(256) == NULL && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Open(SkifCh_Channels()) == NULL && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Open(2) == NULL && errno == EBUSY);
    ASSERT_TRUE(SkifCh_Send(c2, me, &iov, -1) == -1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Send(c2, me, &iov, IOV_MAX + 1) == -1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Send(c2, me, NULL, 1) == -1 && errno == EINVAL);
    struct iovec nullbase = {NULL, 5};
    ASSERT_TRUE(SkifCh_Send(c2, me, &nullbase, 1) == -1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Send(c2, SkifCh_Addr(1, 0) | 64u, &iov, 1) == -1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Send(c2, 0x01000000u | me, &iov, 1) == -1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Send(c2, 0x00FFFF00u, &iov, 1) == -1 && errno == EHOSTUNREACH);
    ASSERT_TRUE(SkifCh_Send(NULL, me, &iov, 1) == -1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Recv(c2, NULL, &parts) == -1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Recv(c2, cont, NULL) == -1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_RecvComp(c2) == -1 && errno == ENOENT);
    int local;
    SkifCh *fake = (SkifCh *)&local;
    ASSERT_TRUE(SkifCh_Recv(fake, cont, &parts) == -1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_RecvComp(fake) == -1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Close(fake) == -1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Close(NULL) == -1 && errno == EINVAL);
    /* a closed handle */
    SkifCh *t = SkifCh_Open(20);
    ASSERT_TRUE(t != NULL);
    ASSERT_EQ(SkifCh_Close(t), 0);
    ASSERT_TRUE(SkifCh_Recv(t, cont, &parts) == -1 && errno == EBADF);
    ASSERT_TRUE(SkifCh_RecvComp(t) == -1 && errno == EBADF);
    ASSERT_TRUE(SkifCh_Send(t, me, &iov, 1) == -1 && errno == EBADF);
    ASSERT_TRUE(SkifCh_Close(t) == -1 && errno == EBADF);
    ASSERT_TRUE(SkifCh_MyAddr(t) == (netaddr_t)-1 && errno == EBADF);
    /* address helpers */
    int coord[4], c;
    ASSERT_EQ(SkifCh_Split(SkifCh_Addr(2, 9), coord, &c), 2);
    ASSERT_EQ(c, 9);
    ASSERT_EQ(SkifCh_AddrAt(coord, 9), SkifCh_Addr(2, 9));
    ASSERT_TRUE(SkifCh_Split(0x00FFFF00u, coord, &c) == -1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Addr(3, 0) == (netaddr_t)-1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Addr(0, 256) == (netaddr_t)-1 && errno == EINVAL);
}

int main(void)
{
    t_name = "t_chan";
    t_rank = SkifCh_Rank();
    ASSERT_EQ(SkifCh_Size(), 3);
    SkifCh *bar = SkifChU_BarrierOpen();
    ASSERT_TRUE(bar != NULL);
    static uint8_t buf[BIG];

    if (t_rank == 0) {
        SkifCh *ch[3], *c11, *c13, *c14;
        for (int i = 0; i < 3; i++)
            ASSERT_TRUE((ch[i] = SkifCh_Open(chans[i])) != NULL);
        ASSERT_TRUE((c11 = SkifCh_Open(11)) != NULL);
        setenv("SKIFCH_RING_LOG2", "12", 1);
        ASSERT_TRUE((c13 = SkifCh_Open(13)) != NULL);
        unsetenv("SKIFCH_RING_LOG2");
        ASSERT_TRUE((c14 = SkifCh_Open(14)) != NULL);
        bad_calls(ch[0]);
        ASSERT_EQ(SkifChU_Barrier(bar), 0); /* 1: all open */

        /* isolation and order */
        uint32_t next[3][3] = {{0}};
        for (int k = 0; k < 2 * 3 * M; k++) {
            int i = k % 3;
            ssize_t r = recv_copy(ch[i], buf);
            struct msg h;
            memcpy(&h, buf, sizeof(h));
            ASSERT_TRUE(h.src == 1 || h.src == 2);
            ASSERT_EQ(h.chan, chans[i]);
            ASSERT_EQ(h.seq, next[i][h.src]);
            ASSERT_EQ((size_t)r, len_of(h.src, h.seq));
            for (ssize_t j = sizeof(h); j < r; j++)
                ASSERT_EQ(buf[j], pat(h.src, h.seq, (int)j));
            next[i][h.src]++;
        }
        /* pending at close: take all 10, complete none, close, reopen empty */
        struct iovec cont[SKIFCH_CONT_SIZE];
        int parts;
        for (int k = 0; k < 10;) {
            ssize_t r = SkifCh_Recv(c11, cont, &parts);
            if (r >= 0)
                k++;
            else
                ASSERT_EQ(errno, EAGAIN);
        }
        ASSERT_EQ(SkifCh_Close(c11), 0);
        ASSERT_TRUE((c11 = SkifCh_Open(11)) != NULL);
        ASSERT_TRUE(SkifCh_Recv(c11, cont, &parts) == -1 && errno == EAGAIN);
        ASSERT_EQ(SkifChU_Barrier(bar), 0); /* 2: reopened */
        for (int k = 0; k < 2; k++) {
            ssize_t r = recv_copy(c11, buf);
            struct msg h;
            memcpy(&h, buf, sizeof(h));
            ASSERT_EQ(h.chan, 11);
            ASSERT_EQ(h.seq, 100);
            ASSERT_EQ((size_t)r, len_of(h.src, 100));
        }
        /* wrap-around on a 4 KiB ring */
        for (uint32_t k = 0; k < 12; k++) {
            ssize_t r = 0, len = 1200 + 70 * k;
            while (r < len)
                r += recv_copy(c13, buf + r);
            ASSERT_EQ(r, len);
            for (ssize_t j = 0; j < r; j++)
                ASSERT_EQ(buf[j], pat(1, k, (int)j));
        }
        ASSERT_TRUE(wraps > 0);
        /* the partial send arrives in parts, in order, intact */
        size_t got = 0;
        int pieces = 0;
        while (got < BIG) {
            ssize_t r = recv_copy(c14, buf + got);
            got += (size_t)r;
            pieces++;
        }
        ASSERT_EQ(got, BIG);
        ASSERT_TRUE(pieces >= 3);
        for (int j = 0; j < BIG; j++)
            ASSERT_EQ(buf[j], pat(2, 7, j));
        ASSERT_EQ(SkifChU_Barrier(bar), 0); /* 3: all received */
        /* the messages to channel 7 were discarded and counted */
        ASSERT_EQ(SkifCh_Discarded(ch[0]), 4);
        printf("t_chan: node 0: %d messages on 3 channels isolated and in order, close with "
               "10 pending, %d wrapped, 6000 bytes in %d parts, 4 discarded: ok\n",
               2 * 3 * M, wraps, pieces);
        for (int i = 0; i < 3; i++)
            ASSERT_EQ(SkifCh_Close(ch[i]), 0);
        ASSERT_EQ(SkifCh_Close(c11), 0);
        ASSERT_EQ(SkifCh_Close(c13), 0);
        ASSERT_EQ(SkifCh_Close(c14), 0);
    } else {
        SkifCh *ch = SkifCh_Open(1);
        ASSERT_TRUE(ch != NULL);
        ASSERT_EQ(SkifChU_Barrier(bar), 0); /* 1 */
        for (uint32_t k = 0; k < M; k++)
            for (int i = 0; i < 3; i++)
                send_msg(ch, 0, chans[i], t_rank, k);
        for (uint32_t k = 0; k < 5; k++)
            send_msg(ch, 0, 11, t_rank, k);
        for (uint32_t k = 0; k < 2; k++)
            send_msg(ch, 0, 7, t_rank, k);  /* never opened: discarded */
        ASSERT_EQ(SkifChU_Barrier(bar), 0); /* 2 */
        send_msg(ch, 0, 11, t_rank, 100);
        if (t_rank == 1) {
            for (uint32_t k = 0; k < 12; k++) {
                size_t len = 1200 + 70 * k;
                for (size_t j = 0; j < len; j++)
                    buf[j] = pat(1, k, (int)j);
                ASSERT_EQ(SkifChU_Send(ch, SkifCh_Addr(0, 13), buf, len), 0);
            }
        } else {
            for (int j = 0; j < BIG; j++)
                buf[j] = pat(2, 7, j);
            struct iovec iov[3] = {{buf, 2000}, {buf + 2000, 2000}, {buf + 4000, 2000}};
            struct iovec *v = iov;
            int n = 3, calls = 0;
            size_t left = BIG;
            while (left) {
                ssize_t r = SkifCh_Send(ch, SkifCh_Addr(0, 14), v, n);
                if (r < 0) {
                    ASSERT_EQ(errno, EAGAIN);
                    continue;
                }
                ASSERT_TRUE(r > 0 && (size_t)r <= left && r <= SKIFCH_MAX_MSG);
                calls++;
                left -= (size_t)r;
                /* adjust the iovec past what was sent, as the paper's callers do */
                while (r > 0) {
                    if ((size_t)r >= v->iov_len) {
                        r -= (ssize_t)v->iov_len;
                        v++;
                        n--;
                    } else {
                        v->iov_base = (uint8_t *)v->iov_base + r;
                        v->iov_len -= (size_t)r;
                        r = 0;
                    }
                }
            }
            ASSERT_TRUE(calls >= 3);
        }
        ASSERT_EQ(SkifChU_Barrier(bar), 0); /* 3 */
        printf("t_chan: node %d: sent ok\n", t_rank);
        ASSERT_EQ(SkifCh_Close(ch), 0);
    }
    ASSERT_EQ(SkifCh_Close(bar), 0);
    return 0;
}
