/* SPDX-License-Identifier: Apache-2.0 */
/* test_coll_driver: driver/skif_coll.c on a fake device: the collective
 * descriptor's fields at the bit positions of docs/collectives.md, the
 * format checks, posting into a TX ring (across its end, full), result
 * entries parsed and taken from a channel ring (across its end, malformed
 * ones refused), the tree table window, the status-block counters. */
#define _GNU_SOURCE
#include "../../driver/skif_coll.c"

#include <stdio.h>
#include <stdlib.h>

static int failed, passed;

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (c)                                                                                     \
            passed++;                                                                              \
        else {                                                                                     \
            failed++;                                                                              \
            fprintf(stderr, "test_coll_driver: %s:%d: failed: %s\n", __FILE__, __LINE__, #c);      \
        }                                                                                          \
    } while (0)

/* ------------------------------------------------------------ fake device */

struct skif_dev {
    struct skif_txq txq;
    uint64_t stat[64];
    uint32_t doorbell;
    uint32_t wr_off[16], wr_val[16];
    int nwr, flushes, refuse;
    uint32_t tab[32], sel;
};

struct skif_txq *skif_dev_txq(struct skif_dev *dev)
{
    return &dev->txq;
}
int skif_reg_write(struct skif_dev *dev, uint32_t off, uint32_t val)
{
    if (dev->nwr < 16) {
        dev->wr_off[dev->nwr] = off;
        dev->wr_val[dev->nwr++] = val;
    }
    if (off == SKIF_REG_COLL_SEL)
        dev->sel = val;
    if (off == SKIF_REG_COLL_TAB && !dev->refuse)
        dev->tab[dev->sel] = val;
    return 0;
}
int skif_reg_read(struct skif_dev *dev, uint32_t off, uint32_t *val)
{
    if (off != SKIF_REG_COLL_TAB || dev->refuse)
        return -EIO;
    *val = dev->tab[dev->sel];
    return 0;
}
int skif_reg_flush(struct skif_dev *dev)
{
    dev->flushes++;
    return dev->refuse ? -EIO : 0;
}
int skif_rx_complete(struct skif_chan *ch)
{
    if (!ch->taken)
        return -ENOENT;
    ch->taken = 0;
    ch->head = ch->read;
    return 0;
}

/* ------------------------------------------------------------ tests */

static uint64_t bits(uint64_t w, int hi, int lo)
{
    return (w >> lo) & ((1ull << (hi - lo + 1)) - 1);
}

static void desc_fields(void)
{
    uint64_t s = 99;
    for (int i = 0; i < 1000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        struct skif_coll_op o = {(unsigned)(s >> 10) % 3,  (unsigned)(s >> 14) % 4,
                                 (unsigned)(s >> 18) % 3,  (unsigned)(s >> 22) % 32,
                                 (unsigned)(s >> 28) % 32, (unsigned)(s >> 34) & 0xffff,
                                 (size_t)(s >> 52) % 2049};
        uint64_t d = skif_coll_desc(&o);
        /* the table of docs/collectives.md, "Posting an operation" */
        CHECK(bits(d, 15, 0) == o.arg);
        CHECK(bits(d, 19, 16) == 0);
        CHECK(bits(d, 23, 20) == o.type);
        CHECK(bits(d, 27, 24) == o.cmd);
        CHECK(bits(d, 31, 28) == 0);
        CHECK(bits(d, 43, 32) == o.len);
        CHECK(bits(d, 46, 44) == o.op);
        CHECK(bits(d, 51, 47) == o.rid);
        CHECK(bits(d, 59, 52) == o.tree);
        CHECK(bits(d, 63, 60) == 1);
    }
}

static void op_checks(void)
{
    struct skif_coll_op ok = {
        SKIF_COLL_CMD_ALLREDUCE, SKIF_COLL_TYPE_U32, SKIF_COLL_OP_SUM, 31, 31, 0, 64};
    struct skif_coll_op o;
    CHECK(skif_coll_op_check(&ok) == 0);
    o = ok, o.len = 0; /* a barrier */
    CHECK(skif_coll_op_check(&o) == 0);
    o = ok, o.cmd = 3;
    CHECK(skif_coll_op_check(&o) == -EINVAL);
    o = ok, o.type = 4;
    CHECK(skif_coll_op_check(&o) == -EINVAL);
    o = ok, o.op = 3;
    CHECK(skif_coll_op_check(&o) == -EINVAL);
    o = ok, o.rid = 32;
    CHECK(skif_coll_op_check(&o) == -EINVAL);
    o = ok, o.tree = 32;
    CHECK(skif_coll_op_check(&o) == -EINVAL);
    o = ok, o.len = 68;
    CHECK(skif_coll_op_check(&o) == -EINVAL);
    o = ok, o.len = 6;
    CHECK(skif_coll_op_check(&o) == -EINVAL);
    o = ok, o.type = SKIF_COLL_TYPE_S64, o.len = 12;
    CHECK(skif_coll_op_check(&o) == -EINVAL);
    o = ok, o.cmd = SKIF_COLL_CMD_BCAST, o.len = 2048, o.type = 9;
    CHECK(skif_coll_op_check(&o) == 0); /* type and op do not matter to a broadcast */
    o.len = 2049;
    CHECK(skif_coll_op_check(&o) == -EINVAL);
    CHECK(skif_coll_op_check(NULL) == -EINVAL);
}

static void posting(void)
{
    static struct skif_dev dev;
    static uint8_t ring[4096];
    uint64_t head = 4096 - 16; /* the adapter has taken everything so far */
    dev.txq = (struct skif_txq){{ring, 0x1000, 4096}, &head, 4096 - 16, 4, NULL, &dev.doorbell};
    uint8_t pay[40];
    for (int i = 0; i < 40; i++)
        pay[i] = (uint8_t)(i + 1);
    struct skif_coll_op o = {
        SKIF_COLL_CMD_REDUCE, SKIF_COLL_TYPE_U64, SKIF_COLL_OP_MAX, 5, 7, 0x0121, 40};
    CHECK(skif_coll_post(&dev, &o, pay) == 0);
    /* 8 + 40 bytes from offset 4080: the descriptor and 8 payload bytes
     * before the end, 32 after it */
    uint64_t d;
    memcpy(&d, ring + 4080, 8);
    CHECK(d == skif_coll_desc(&o));
    CHECK(memcmp(ring + 4088, pay, 8) == 0);
    CHECK(memcmp(ring, pay + 8, 32) == 0);
    CHECK(dev.txq.tail == 4096 - 16 + 48);
    CHECK(dev.doorbell == dev.txq.tail);
    /* full: 4096 - 48 free, a 2048-byte broadcast fits, a second does not */
    uint8_t *big = calloc(2048, 1);
    struct skif_coll_op b = {SKIF_COLL_CMD_BCAST, 0, 0, 0, 3, 0x0002, 2048};
    CHECK(skif_coll_post(&dev, &b, big) == 0);
    uint32_t tail = dev.txq.tail;
    CHECK(skif_coll_post(&dev, &b, big) == -EAGAIN);
    CHECK(dev.txq.tail == tail);
    /* bad ones write nothing */
    b.len = 10;
    CHECK(skif_coll_post(&dev, &b, NULL) == -EINVAL);
    b.cmd = 7;
    CHECK(skif_coll_post(&dev, &b, big) == -EINVAL);
    CHECK(dev.txq.tail == tail);
    free(big);
}

/* An entry header by the table of docs/collectives.md, "Results". */
static uint64_t ent(unsigned chan, unsigned node, unsigned tree, unsigned len, unsigned err,
                    unsigned op, unsigned rid, unsigned cmd, unsigned kind)
{
    return (uint64_t)chan | (uint64_t)node << 8 | (uint64_t)tree << 24 | (uint64_t)len << 32 |
           (uint64_t)err << 44 | (uint64_t)op << 45 | (uint64_t)rid << 48 | (uint64_t)cmd << 56 |
           (uint64_t)kind << 60;
}

static void results(void)
{
    struct skif_coll_result r;
    CHECK(skif_coll_entry_parse(ent(61, 0x0123, 17, 64, 1, 2, 30, 1, 2), &r) == 0);
    CHECK(r.kind == 2 && r.chan == 61 && r.node == 0x123 && r.tree == 17 && r.len == 64 &&
          r.err == 1 && r.op == 2 && r.rid == 30 && r.cmd == 1);
    CHECK(skif_coll_entry_parse(ent(3, 0x0010, 0, 100, 0, 0, 0, 0, 0), &r) == 0);
    CHECK(r.kind == 0 && r.len == 100 && r.node == 0x10);
    CHECK(skif_coll_entry_parse(ent(3, 1, 5, 8, 0, 0, 0, 0, 0), &r) == -EPROTO); /* message, tree */
    CHECK(skif_coll_entry_parse(ent(3, 1, 0, 8, 0, 0, 0, 0, 3), &r) == -EPROTO); /* kind 3 */
    CHECK(skif_coll_entry_parse(ent(3, 1, 0, 2049, 0, 0, 0, 0, 2), &r) == -EPROTO);
    CHECK(skif_coll_entry_parse(ent(3, 1, 0, 8, 0, 0, 0, 0, 2) | 1ull << 54, &r) == -EPROTO);

    /* a channel ring of 4096 bytes: an entry that wraps, then a message */
    static uint8_t ring[4096];
    uint64_t tail = 0;
    struct skif_chan ch = {0};
    ch.tail = &tail;
    ch.va = ring;
    ch.mask = 4095;
    ch.read = ch.head = 4096 - 24;
    uint64_t h = ent(61, 7, 20, 40, 0, 0, 4, 2, 2);
    memcpy(ring + 4072, &h, 8);
    for (int i = 0; i < 40; i++)
        ring[(4080 + i) & 4095] = (uint8_t)(0x80 + i);
    h = ent(61, 9, 0, 3, 0, 0, 0, 0, 0);
    memcpy(ring + 24, &h, 8); /* the next entry: 4072 + 48 */
    memcpy(ring + 32, "abc", 3);
    uint8_t buf[64];
    tail = 4096 - 24; /* empty */
    CHECK(skif_coll_take(&ch, &r, buf, sizeof(buf)) == 0);
    tail = 4072 + 48 + 16;
    CHECK(skif_coll_take(&ch, &r, buf, sizeof(buf)) == 1);
    CHECK(r.kind == 2 && r.tree == 20 && r.rid == 4 && r.cmd == 2 && r.len == 40);
    int same = 1;
    for (int i = 0; i < 40; i++)
        same &= buf[i] == (uint8_t)(0x80 + i);
    CHECK(same);
    CHECK(ch.read == 4096 + 24 && ch.head == ch.read && ch.taken == 0);
    CHECK(skif_coll_take(&ch, &r, buf, 2) == 1); /* cap 2: the rest is not copied */
    CHECK(r.kind == 0 && r.len == 3 && buf[0] == 'a' && buf[1] == 'b' && buf[2] != 'c');
    CHECK(skif_coll_take(&ch, &r, buf, sizeof(buf)) == 0);
    /* malformed: nothing taken */
    h = ent(61, 0, 0, 8, 0, 0, 0, 0, 5);
    memcpy(ring + 40, &h, 8);
    tail += 16;
    uint32_t before = ch.read;
    CHECK(skif_coll_take(&ch, &r, buf, sizeof(buf)) == -EPROTO);
    CHECK(ch.read == before);
}

static void table(void)
{
    static struct skif_dev dev;
    uint32_t e = skif_ctab_make(0x0c, 1, 0, 1, 61), back = 0;
    CHECK(e == (0x0cu | 1u << 8 | 1u << 13 | 1u << 15 | 61u << 16));
    CHECK(skif_coll_tab_write(&dev, 20, e) == 0);
    CHECK(dev.nwr == 2 && dev.wr_off[0] == SKIF_REG_COLL_SEL && dev.wr_val[0] == 20 &&
          dev.wr_off[1] == SKIF_REG_COLL_TAB && dev.wr_val[1] == e && dev.flushes == 1);
    CHECK(skif_coll_tab_read(&dev, 20, &back) == 0 && back == e);
    CHECK(skif_coll_tab_write(&dev, 32, e) == -EINVAL);
    CHECK(skif_coll_tab_read(&dev, 32, &back) == -EINVAL);
    dev.refuse = 1;
    CHECK(skif_coll_tab_write(&dev, 21, e) == -EIO);
    back = 77;
    CHECK(skif_coll_tab_read(&dev, 21, &back) == -EIO && back == 77);

    /* counters from the status block */
    dev.stat[0] = 0;
    dev.stat[SKIF_STAT_COLL / 8] = (uint64_t)10 << 32 | 12; /* [31:0] sent, [63:32] done */
    dev.txq.head = &dev.stat[SKIF_STAT_TX_HEAD / 8];
    uint32_t sent = 0, done = 0;
    skif_coll_counters(&dev, &sent, &done);
    CHECK(sent == 12 && done == 10);
}

int main(void)
{
    desc_fields();
    op_checks();
    posting();
    results();
    table();
    printf("test_coll_driver: %d checks passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
