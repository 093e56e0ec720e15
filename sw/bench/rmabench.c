/* SPDX-License-Identifier: Apache-2.0 */
/* rmabench: RMA request latency and put throughput through the driver
 * (driver/skif_rma.h), rank 0 to rank 1. Latency: one request, then
 * skif_rma_quiet(), ITER times each; cycles from the post to quiet's
 * return, min and mean. Throughput: 2048-byte puts kept in flight (as many
 * as the TX ring takes) for 4 MiB, then quiet. Other ranks only open a
 * window and wait for the end.
 * Mode put8: N (default 5000) 8-byte aligned puts posted as fast as the TX
 * ring takes them (-EAGAIN: skif_dev_wait, post again), cycles from the
 * first post to skif_rma_quiet's return; puts/cycle. Then the latencies of
 * one put 8 B and one 64-bit fetch-add (each + quiet, 20 times).
 * Usage: skifrun -n 2 rmabench [ITER] | skifrun -n 2 rmabench put8 [N] */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skif_dev.h"
#include "skif_rma.h"

#define WIN 0x10000u
#define RES 0x8000u /* results here: gets, old values */

static struct skif_dev *dev;
static struct skif_rma *rma;
static struct skif_chan *ch;
static uint64_t bus;

static void die(const char *what, int rc)
{
    fprintf(stderr, "rmabench: %s: %s\n", what, strerror(-rc));
    exit(1);
}

static void msg_send(uint32_t node)
{
    uint32_t v = 1;
    struct iovec iov = {&v, 4};
    int rc;
    while ((rc = skif_tx_post(dev, node << SKIF_NA_NODE_LO, &iov, 1, 4)) == -EAGAIN)
        skif_dev_wait(dev, 1000);
    if (rc < 0)
        die("send", rc);
}
static void msg_recv(void)
{
    struct skif_rx_msg m;
    int rc;
    while ((rc = skif_rx_next(ch, &m)) == 0)
        if ((rc = skif_dev_wait(dev, 0)) < 0)
            die("wait", rc);
    if (rc < 0)
        die("recv", rc);
    skif_rx_complete(ch);
}

/* kind: 0 put, 1 get, 2 64-bit fetch-add, 3 32-bit compare-swap */
static void lat(uint32_t peer, int kind, size_t len, long iter)
{
    static uint8_t src[SKIF_MAX_MSG];
    uint64_t best = ~0ull, sum = 0;
    for (long i = 0; i < iter; i++) {
        skif_dev_wait(dev, 50);
        uint64_t t0 = skif_dev_cycle(dev);
        int rc;
        if (kind == 0)
            rc = skif_rma_put(rma, peer, bus, src, len);
        else if (kind == 1)
            rc = skif_rma_get(rma, peer, bus + RES, bus, len);
        else if (kind == 2)
            rc = skif_rma_atomic(rma, peer, SKIF_RMA_OP_FADD, 8, bus + 8, 1, 0, bus + RES);
        else
            rc = skif_rma_atomic(rma, peer, SKIF_RMA_OP_CSWAP, 4, bus + 16, 1, 0, bus + RES);
        if (rc < 0)
            die("post", rc);
        if ((rc = skif_rma_quiet(rma, 10000000)) < 0)
            die("quiet", rc);
        uint64_t t = skif_dev_cycle(dev) - t0;
        sum += t;
        best = t < best ? t : best;
    }
    static const char *name[] = {"put", "get", "fetch-add 64", "cswap 32"};
    printf("rmabench: %-12s %4zu B: min %llu mean %.1f cycles (%ld)\n", name[kind], len,
           (unsigned long long)best, (double)sum / (double)iter, iter);
}

/* N 8-byte puts to peer, 8-byte aligned, as fast as the TX ring takes them */
static void put8_rate(uint32_t peer, long n)
{
    uint64_t v = 0;
    long again = 0;
    int rc;
    skif_dev_wait(dev, 50);
    uint64_t t0 = skif_dev_cycle(dev);
    for (long i = 0; i < n; i++) {
        v = (uint64_t)i;
        while ((rc = skif_rma_put(rma, peer, bus + (uint64_t)(i % 1024) * 8, &v, 8)) == -EAGAIN) {
            again++;
            skif_dev_wait(dev, 0);
        }
        if (rc < 0)
            die("put", rc);
    }
    uint64_t t1 = skif_dev_cycle(dev);
    if ((rc = skif_rma_quiet(rma, 0)) < 0)
        die("quiet", rc);
    uint64_t t = skif_dev_cycle(dev) - t0;
    printf("rmabench: put8 rate: %ld puts of 8 B in %llu cycles (posted in %llu, %ld -EAGAIN): "
           "%.3f puts/cycle\n",
           n, (unsigned long long)t, (unsigned long long)(t1 - t0), again, (double)n / (double)t);
}

int main(int argc, char **argv)
{
    int put8 = argc > 1 && strcmp(argv[1], "put8") == 0;
    long iter = argc > 1 + put8 ? strtol(argv[1 + put8], NULL, 10) : put8 ? 5000 : 100;
    int rc;
    if (iter < 1 || argc > 2 + put8) {
        fprintf(stderr, "usage: skifrun -n 2 rmabench [ITER] | rmabench put8 [N]\n");
        return 2;
    }
    if ((rc = skif_dev_open(&dev)) < 0 || (rc = skif_dev_setup(dev, 16)) < 0 ||
        (rc = skif_chan_open(dev, 0, 12, &ch)) < 0 || (rc = skif_rma_open(dev, &rma)) < 0)
        die("open", rc);
    struct skif_dma m;
    if ((rc = skif_dma_alloc(dev, WIN, 4096, &m)) < 0)
        die("alloc", rc);
    bus = m.bus;
    if ((rc = skif_rma_win_set(rma, 0, bus, WIN,
                               SKIF_RMA_PERM_R | SKIF_RMA_PERM_W | SKIF_RMA_PERM_A)) < 0)
        die("window", rc);
    int rank = skif_dev_rank(dev), size = skif_dev_size(dev);
    uint32_t n0, peer;
    skif_dev_rank_node(dev, 0, &n0);
    skif_dev_rank_node(dev, 1, &peer);
    if (size < 2)
        die("needs 2 nodes", -EINVAL);
    if (rank != 0) {
        msg_send(n0); /* window open */
        msg_recv();   /* the end */
    } else {
        for (int i = 1; i < size; i++)
            msg_recv();
        if (put8) {
            put8_rate(peer, iter);
            lat(peer, 0, 8, 20);
            lat(peer, 2, 8, 20);
            goto end;
        }
        static const size_t sizes[] = {8, 64, 512, 2048};
        for (int k = 0; k < 2; k++)
            for (int s = 0; s < 4; s++)
                lat(peer, k, sizes[s], iter);
        lat(peer, 2, 8, iter);
        lat(peer, 3, 4, iter);
        /* throughput: puts of 2048 B, as many in flight as the ring takes */
        static uint8_t src[SKIF_MAX_MSG];
        const long total = 2048;
        skif_dev_wait(dev, 50);
        uint64_t t0 = skif_dev_cycle(dev);
        for (long i = 0; i < total; i++) {
            while ((rc = skif_rma_put(rma, peer, bus + (uint64_t)(i % 16) * 2048, src,
                                      SKIF_MAX_MSG)) == -EAGAIN)
                skif_dev_wait(dev, 0);
            if (rc < 0)
                die("put", rc);
        }
        if ((rc = skif_rma_quiet(rma, 0)) < 0)
            die("quiet", rc);
        uint64_t t = skif_dev_cycle(dev) - t0;
        printf("rmabench: put stream 2048 B x %ld: %llu cycles, %.2f bytes/cycle\n", total,
               (unsigned long long)t, (double)total * 2048 / (double)t);
    end:
        for (int i = 1; i < size; i++) {
            uint32_t nd;
            skif_dev_rank_node(dev, i, &nd);
            msg_send(nd);
        }
    }
    skif_rma_close(rma);
    skif_dev_close(dev);
    return 0;
}
