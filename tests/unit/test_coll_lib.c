/* SPDX-License-Identifier: Apache-2.0 */
/* test_coll_lib: the hardware path of sw/skifcoll.c against a fake adapter
 * in the same process. Node 0 of a 2x2 torus; the fake's collective engine
 * answers every operation as if this node were the only contributor
 * (ALLREDUCE: the data back; REDUCE: the data at the target, length 0
 * elsewhere; BCAST: the data back), at most `per_wait` results per wait and
 * in reverse order within a batch when asked. The other nodes' part of the
 * library's own barriers (software, over SkifCh) is stubbed by answering
 * each message as its dissemination partner would. Checked: the tree table
 * programmed (and cleared), vectors split at 64 bytes, reduce ids never
 * reused in flight, 40 reduces with one result per wait, results out of
 * order, the barrier's second reduce posted only after the first one's
 * result, broadcasts in several pieces and before their request, error
 * results (a broadcast piece too: the engine refuses one of more than 64
 * bytes), wrong lengths, non-members, ids running out. */
#define _GNU_SOURCE
#include "../../driver/skif_coll.c"
#include "../../sw/coll/tree.c"
#include "../../sw/skifcoll.c"

static int failed, passed;

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (c)                                                                                     \
            passed++;                                                                              \
        else {                                                                                     \
            failed++;                                                                              \
            fprintf(stderr, "test_coll_lib: %s:%d: failed: %s\n", __FILE__, __LINE__, #c);         \
        }                                                                                          \
    } while (0)

/* ------------------------------------------------------------ the fake */

#define TXSZ 65536u
#define RXSZ 65536u

struct skif_dev {
    struct skif_txq txq;
    uint64_t stat[64];
    uint32_t doorbell;
    uint32_t tab[32], sel;
    struct skif_chan *ch;
    /* engine */
    int per_wait, reverse, err_next, badlen_next, nposted;
    uint8_t inflight[32][32]; /* tree, rid: posted, result not delivered */
    int reuse_bad;
    struct skif_coll_op posted[512];
    struct pend {
        uint64_t hdr;
        uint8_t data[2048];
    } pend[512];
    int npend;
};
static struct skif_dev fdev;
static uint8_t txring[TXSZ];
static int refuse_tab;

struct skif_dev *skifch__device(void)
{
    return &fdev;
}
struct skif_txq *skif_dev_txq(struct skif_dev *dev)
{
    return &dev->txq;
}
int skif_dev_channels(const struct skif_dev *dev)
{
    (void)dev;
    return 64;
}
int skif_dev_rank_node(const struct skif_dev *dev, int rank, uint32_t *node)
{
    (void)dev;
    *node = (uint32_t)((rank % 2) | (rank / 2) << 4);
    return 0;
}
static void engine_one(uint64_t d, const uint8_t *data);
static uint32_t pio_lo, pio_data[16];
static int npio;
int skif_reg_write(struct skif_dev *dev, uint32_t off, uint32_t val)
{
    /* the PIO window: payload halves, the descriptor's low half, then the
     * high half launches (the library's default path) */
    if (off >= SKIF_REG_COLL_PIO_DATA && off < SKIF_REG_COLL_PIO_DATA + 64)
        pio_data[(off - SKIF_REG_COLL_PIO_DATA) / 4] = val;
    if (off == SKIF_REG_COLL_PIO_LO)
        pio_lo = val;
    if (off == SKIF_REG_COLL_PIO_HI) {
        uint8_t data[64];
        memcpy(data, pio_data, 64);
        npio++;
        engine_one((uint64_t)val << 32 | pio_lo, data);
    }
    if (off == SKIF_REG_COLL_SEL)
        dev->sel = val;
    if (off == SKIF_REG_COLL_TAB && !refuse_tab)
        dev->tab[dev->sel & 31] = val;
    return 0;
}
int skif_reg_read(struct skif_dev *dev, uint32_t off, uint32_t *val)
{
    if (off != SKIF_REG_COLL_TAB)
        return -EIO;
    *val = dev->tab[dev->sel & 31];
    return 0;
}
int skif_reg_flush(struct skif_dev *dev)
{
    (void)dev;
    return refuse_tab ? -EIO : 0;
}
int skif_rx_complete(struct skif_chan *ch)
{
    ch->taken = 0;
    ch->head = ch->read;
    return 0;
}
static uint64_t chan_tail;
int skif_chan_open(struct skif_dev *dev, int id, unsigned log2, struct skif_chan **chp)
{
    (void)log2;
    struct skif_chan *ch = calloc(1, sizeof(*ch));
    ch->va = calloc(RXSZ, 1);
    ch->mask = RXSZ - 1;
    ch->tail = &chan_tail;
    ch->id = id;
    chan_tail = 0;
    dev->ch = ch;
    *chp = ch;
    return 0;
}
int skif_chan_close(struct skif_chan *ch)
{
    free(ch->va);
    free(ch);
    fdev.ch = NULL;
    return 0;
}

/* Write one result entry into the channel ring. */
static void deliver(uint64_t hdr, const uint8_t *data)
{
    struct skif_chan *ch = fdev.ch;
    uint32_t len = (uint32_t)(hdr >> 32) & 0xfffu, t = (uint32_t)chan_tail;
    if (((hdr >> 56) & 15) != SKIF_COLL_CMD_BCAST)
        fdev.inflight[(hdr >> 24) & 31][(hdr >> 48) & 31] = 0;
    memcpy(ch->va + (t & ch->mask), &hdr, 8);
    for (uint32_t i = 0; i < len; i++)
        ch->va[(t + 8 + i) & ch->mask] = data[i];
    chan_tail = t + 8 + ((len + 7) & ~7u);
}

static uint64_t ent(unsigned node, unsigned tree, unsigned len, unsigned err, unsigned op,
                    unsigned rid, unsigned cmd)
{
    return SKIFCOLL_CHAN_HW | (uint64_t)node << 8 | (uint64_t)tree << 24 | (uint64_t)len << 32 |
           (uint64_t)err << 44 | (uint64_t)op << 45 | (uint64_t)rid << 48 | (uint64_t)cmd << 56 |
           2ull << 60;
}

/* The engine: one operation (descriptor d, its payload), its result queued. */
static void engine_one(uint64_t d, const uint8_t *data)
{
    struct skif_coll_op o = {(unsigned)(d >> 24) & 15,  (unsigned)(d >> 20) & 15,
                             (unsigned)(d >> 44) & 7,   (unsigned)(d >> 47) & 31,
                             (unsigned)(d >> 52) & 255, (unsigned)d & 0xffff,
                             (size_t)(d >> 32) & 0xfff};
    CHECK((d >> 60) == 1);
    if (o.cmd != SKIF_COLL_CMD_BCAST) {
        fdev.reuse_bad += fdev.inflight[o.tree][o.rid];
        fdev.inflight[o.tree][o.rid] = 1;
    }
    fdev.posted[fdev.nposted++ & 511] = o;
    struct pend *p = &fdev.pend[fdev.npend++];
    memcpy(p->data, data, o.len);
    unsigned len = (unsigned)o.len, node = o.arg;
    if (o.cmd == SKIF_COLL_CMD_ALLREDUCE)
        node = 0;
    if (o.cmd == SKIF_COLL_CMD_REDUCE && o.arg != 0) /* this node's id is 0 */
        len = 0;
    if (fdev.badlen_next && o.cmd != SKIF_COLL_CMD_BCAST) {
        fdev.badlen_next = 0;
        len = len ? len - 4 : 4;
    }
    unsigned err = 0;
    if (o.cmd == SKIF_COLL_CMD_BCAST && o.len > 64) { /* the engine refuses it */
        err = 1;
        len = 0;
    }
    if (fdev.err_next) {
        fdev.err_next = 0;
        err = 1;
        len = 0;
    }
    p->hdr = ent(node, o.tree, len, err, o.op, o.rid, o.cmd);
}

/* The engine: take the TX ring's new descriptors, queue their results. */
static void engine(void)
{
    struct skif_txq *q = &fdev.txq;
    uint32_t h = (uint32_t)fdev.stat[0];
    static uint8_t data[2048];
    while (h != q->tail) {
        uint64_t d;
        memcpy(&d, txring + (h & (TXSZ - 1)), 8);
        size_t len = (size_t)(d >> 32) & 0xfff;
        for (size_t i = 0; i < len; i++)
            data[i] = txring[(h + 8 + i) & (TXSZ - 1)];
        engine_one(d, data);
        h += 8 + (((uint32_t)len + 7) & ~7u);
    }
    fdev.stat[0] = h;
}

/* What happens while the library sleeps: the engine runs and hands over
 * up to per_wait results (all: 0), in reverse order if asked. */
int skif_dev_wait(struct skif_dev *dev, uint64_t max_cycles)
{
    (void)max_cycles;
    engine();
    int n = dev->per_wait && dev->per_wait < dev->npend ? dev->per_wait : dev->npend;
    for (int i = 0; i < n; i++) {
        int k = dev->reverse ? n - 1 - i : i;
        deliver(dev->pend[k].hdr, dev->pend[k].data);
    }
    memmove(dev->pend, dev->pend + n, (size_t)(dev->npend - n) * sizeof(dev->pend[0]));
    dev->npend -= n;
    return 1;
}

/* ------------------------------------------------------------ SkifCh stubs */

static struct SkifCh {
    int x;
} fch;
static uint8_t last_msg[SW_HDR + SW_PIECE];
static size_t last_len;
static int last_dst, nmsgs;

int SkifCh_Rank(void)
{
    return 0;
}
int SkifCh_Size(void)
{
    return 4;
}
int SkifCh_Dims(int dims[4])
{
    dims[0] = dims[1] = 2;
    dims[2] = dims[3] = 1;
    return 2;
}
SkifCh *SkifCh_Open(int channel)
{
    (void)channel;
    return &fch;
}
int SkifCh_Close(SkifCh *ch)
{
    (void)ch;
    return 0;
}
netaddr_t SkifCh_Addr(int rank, int channel)
{
    return (netaddr_t)rank << 8 | (netaddr_t)channel;
}
int SkifChU_Send(SkifCh *ch, netaddr_t dst, const void *buf, size_t len)
{
    (void)ch;
    memcpy(last_msg, buf, len);
    last_len = len;
    last_dst = (int)(dst >> 8);
    nmsgs++;
    return 0;
}
/* the dissemination partner's message: the same round, from rank -dst */
ssize_t SkifChU_Recv(SkifCh *ch, void *buf, size_t cap)
{
    (void)ch;
    (void)cap;
    uint32_t src = (uint32_t)((4 - last_dst) % 4);
    memcpy(buf, last_msg, last_len);
    memcpy((uint8_t *)buf + 12, &src, 4);
    return (ssize_t)last_len;
}

/* ------------------------------------------------------------ tests */

static void setup(void)
{
    fdev.txq =
        (struct skif_txq){{txring, 0x10000, TXSZ}, &fdev.stat[0], 0, 64, NULL, &fdev.doorbell};
}

static void tables(void)
{
    struct skif_torus t;
    int dims[4] = {2, 2, 1, 1};
    uint32_t e[4];
    skif_torus_init(&t, 2, dims, NULL, 0);
    int same = 1;
    for (int i = 0; i < 16; i++) {
        skif_tree_stride(&t, i, SKIFCOLL_CHAN_HW, e, NULL, 0);
        same &= fdev.tab[i] == e[0];
    }
    CHECK(same);
    CHECK(fdev.tab[0] & SKIF_CTAB_ROOT);    /* rank 0 roots tree 0 */
    CHECK(!(fdev.tab[1] & SKIF_CTAB_ROOT)); /* tree 1: ranks 1..3, root 1 */
    CHECK((fdev.tab[1] & SKIF_CTAB_VALID) && (fdev.tab[1] & SKIF_CTAB_TRANSIT)); /* via 0 to 2 */
    CHECK(SkifColl_IsMember(SkifColl_Stride(0, 1)) == 0);
}

static void reduces(SkifCollTree *t0)
{
    uint64_t in[100], out[100];
    SkifCollReq *r;
    for (int i = 0; i < 100; i++)
        in[i] = (uint64_t)i * 0x10001u;
    /* 800 bytes: 13 pieces, ids 0..12 */
    int before = fdev.nposted;
    CHECK(SkifColl_Allreduce(t0, in, out, 100, SKIFCOLL_U64, SKIFCOLL_SUM, &r) == 0);
    CHECK(SkifColl_Wait(r) == 0);
    CHECK(memcmp(in, out, sizeof(in)) == 0);
    CHECK(fdev.nposted - before == 13);
    int lens_ok = 1, rids_ok = 1;
    for (int i = 0; i < 13; i++) {
        struct skif_coll_op *o = &fdev.posted[(before + i) & 511];
        lens_ok &= o->len == (i < 12 ? 64u : 32u);
        rids_ok &= o->rid == (unsigned)i && o->tree == 0 && o->cmd == SKIF_COLL_CMD_ALLREDUCE &&
                   o->type == SKIFCOLL_U64;
    }
    CHECK(lens_ok && rids_ok);

    /* 40 allreduces in flight, one result per wait, reversed batches: no id
     * posted twice while in flight */
    fdev.per_wait = 3;
    fdev.reverse = 1;
    SkifCollReq *rq[40];
    uint32_t v[40], res[40];
    before = fdev.nposted;
    for (int k = 0; k < 40; k++) {
        v[k] = (uint32_t)k * 7u;
        CHECK(SkifColl_Allreduce(t0, &v[k], &res[k], 1, SKIFCOLL_U32, SKIFCOLL_MAX, &rq[k]) == 0);
    }
    for (int k = 39; k >= 0; k--)
        CHECK(SkifColl_Wait(rq[k]) == 0 && res[k] == v[k]);
    int reused = 0;
    for (int i = 0; i < 40; i++) {
        /* ids go round in order from 13: the one 32 back must be done */
        unsigned rid = fdev.posted[(before + i) & 511].rid;
        reused |= rid != (unsigned)(13 + i) % 32;
    }
    CHECK(!reused);
    CHECK(fdev.reuse_bad == 0);
    fdev.per_wait = 0;
    fdev.reverse = 0;

    /* reduce to this node and to another */
    uint64_t a[3] = {5, 6, 7}, b[3] = {0, 0, 0};
    CHECK(SkifColl_Reduce(t0, 0, a, b, 3, SKIFCOLL_S64, SKIFCOLL_MIN, &r) == 0);
    CHECK(SkifColl_Wait(r) == 0 && b[0] == 5 && b[2] == 7);
    CHECK(fdev.posted[(fdev.nposted - 1) & 511].cmd == SKIF_COLL_CMD_REDUCE);
    b[0] = 99;
    CHECK(SkifColl_Reduce(t0, 3, a, b, 3, SKIFCOLL_S64, SKIFCOLL_MIN, &r) == 0);
    CHECK(SkifColl_Wait(r) == 0 && b[0] == 99);
    CHECK(fdev.posted[(fdev.nposted - 1) & 511].arg == 0x11); /* rank 3 at (1,1) */

    /* Test: not yet, then done */
    CHECK(SkifColl_Allreduce(t0, a, b, 1, SKIFCOLL_U64, SKIFCOLL_SUM, &r) == 0);
    CHECK(SkifColl_Test(r) == 0);
    skif_dev_wait(&fdev, 0);
    CHECK(SkifColl_Test(r) == 1);

    /* an error result; a result of the wrong length */
    fdev.err_next = 1;
    CHECK(SkifColl_Allreduce(t0, a, b, 2, SKIFCOLL_U64, SKIFCOLL_SUM, &r) == 0);
    errno = 0;
    CHECK(SkifColl_Wait(r) == -1 && errno == EIO);
    fdev.badlen_next = 1;
    CHECK(SkifColl_Allreduce(t0, a, b, 2, SKIFCOLL_U64, SKIFCOLL_SUM, &r) == 0);
    CHECK(SkifColl_Wait(r) == -1 && errno == EPROTO);
    /* the library goes on */
    CHECK(SkifColl_Allreduce(t0, a, b, 2, SKIFCOLL_U64, SKIFCOLL_SUM, &r) == 0);
    CHECK(SkifColl_Wait(r) == 0 && b[1] == 6);

    /* refused by the library */
    CHECK(SkifColl_Allreduce(t0, a, b, 1, 4, SKIFCOLL_SUM, &r) == -1 && errno == EINVAL);
    CHECK(SkifColl_Allreduce(t0, a, b, 1, SKIFCOLL_U32, 3, &r) == -1 && errno == EINVAL);
    CHECK(SkifColl_Reduce(t0, 4, a, b, 1, SKIFCOLL_U32, 0, &r) == -1 && errno == EINVAL);
    CHECK(SkifColl_Allreduce(NULL, a, b, 1, SKIFCOLL_U32, 0, &r) == -1 && errno == EINVAL);
}

static void barrier(SkifCollTree *t0)
{
    SkifCollReq *r;
    fdev.per_wait = 1;
    int before = fdev.nposted;
    CHECK(SkifColl_Barrier(t0, &r) == 0);
    engine();
    CHECK(fdev.nposted == before + 1); /* the second waits for the first result */
    CHECK(SkifColl_Wait(r) == 0);
    CHECK(fdev.nposted == before + 2);
    struct skif_coll_op *o1 = &fdev.posted[before & 511], *o2 = &fdev.posted[(before + 1) & 511];
    CHECK(o1->cmd == SKIF_COLL_CMD_ALLREDUCE && o1->len == 0 && o2->len == 0 &&
          o2->rid == (o1->rid + 1) % 32);
    /* a collective made while the first reduce is out takes the id after both */
    uint32_t x = 1, y = 0;
    SkifCollReq *q;
    CHECK(SkifColl_Barrier(t0, &r) == 0);
    CHECK(SkifColl_Allreduce(t0, &x, &y, 1, SKIFCOLL_U32, SKIFCOLL_SUM, &q) == 0);
    engine();
    unsigned first = fdev.posted[(fdev.nposted - 2) & 511].rid;
    CHECK(fdev.posted[(fdev.nposted - 1) & 511].rid == (first + 2) % 32);
    CHECK(SkifColl_Wait(r) == 0 && SkifColl_Wait(q) == 0 && y == 1);
    fdev.per_wait = 0;
}

static void bcasts(SkifCollTree *t0)
{
    SkifCollReq *r;
    uint8_t *big = malloc(5000);
    for (int i = 0; i < 5000; i++)
        big[i] = (uint8_t)(i * 13);
    int before = fdev.nposted;
    CHECK(SkifColl_Bcast(t0, 0, big, 5000, &r) == 0);
    CHECK(SkifColl_Wait(r) == 0);
    /* 64-byte pieces (one 9-flit packet each), the last one 5000 - 78 * 64 */
    CHECK(fdev.nposted - before == 79);
    int pieces_ok = 1;
    for (int i = 0; i < 79; i++) {
        const struct skif_coll_op *o = &fdev.posted[(before + i) & 511];
        pieces_ok &= o->cmd == SKIF_COLL_CMD_BCAST && o->arg == 0 && o->len == (i < 78 ? 64u : 8u);
    }
    CHECK(pieces_ok);
    /* a receiver reassembles the pieces: tree {0, 3} rooted at rank 3
     * (node 0x11), a 138-byte broadcast in pieces of 64, 64, 10; the first
     * two come before the call */
    int set2[2] = {0, 3};
    SkifCollTree *t3 = SkifColl_Create(set2, 2, 3);
    CHECK(t3 && SkifColl_Id(t3) == 16);
    uint8_t *back = calloc(5000, 1);
    for (int i = 0; i < 3; i++) {
        struct pend *p = &fdev.pend[fdev.npend++];
        unsigned n = i < 2 ? 64 : 10;
        memcpy(p->data, big + 64 * i, n);
        p->hdr = ent(0x11, 16, n, 0, 0, 0, SKIF_COLL_CMD_BCAST);
        if (i == 1)
            skif_dev_wait(&fdev, 0);
    }
    before = fdev.nposted;
    CHECK(SkifColl_Bcast(t3, 3, back, 138, &r) == 0);
    CHECK(SkifColl_Wait(r) == 0 && fdev.nposted == before && memcmp(back, big, 138) == 0);
    /* an error result among them: EIO */
    for (int i = 0; i < 3; i++) {
        struct pend *p = &fdev.pend[fdev.npend++];
        unsigned n = i == 1 ? 0 : i < 2 ? 64 : 10;
        memcpy(p->data, big + 64 * i, n);
        p->hdr = ent(0x11, 16, n, i == 1, 0, 0, SKIF_COLL_CMD_BCAST);
    }
    CHECK(SkifColl_Bcast(t3, 3, back, 138, &r) == 0);
    errno = 0;
    CHECK(SkifColl_Wait(r) == -1 && errno == EIO);
    CHECK(SkifColl_Free(t3) == 0);
    /* an error result for one piece: the request fails with EIO once every
     * piece is back, and the library goes on */
    fdev.err_next = 1;
    CHECK(SkifColl_Bcast(t0, 0, big, 200, &r) == 0);
    errno = 0;
    CHECK(SkifColl_Wait(r) == -1 && errno == EIO);
    CHECK(SkifColl_Bcast(t0, 0, big, 200, &r) == 0);
    CHECK(SkifColl_Wait(r) == 0);
    free(back);
    /* (broadcasts from another member go over SkifCh, not the adapter:
     * t_coll_hw and t_coll_sw run them under the simulator) */
    SkifCollReq *r1;
    CHECK(SkifColl_Bcast(t0, 0, NULL, 8, &r1) == -1 && errno == EINVAL);
    free(big);
}

static void trees(void)
{
    int set[2] = {1, 3};
    SkifCollTree *t = SkifColl_Create(set, 2, 3);
    CHECK(t && SkifColl_Id(t) == 16 && SkifColl_IsMember(t) == 0);
    /* rank 0 is outside the tree {1, 3} (the path 3 -> 1 is one hop) */
    CHECK(fdev.tab[16] == 0);
    SkifCollReq *r;
    uint32_t x = 0, y;
    CHECK(SkifColl_Allreduce(t, &x, &y, 1, SKIFCOLL_U32, 0, &r) == -1 && errno == EPERM);
    CHECK(SkifColl_Barrier(t, &r) == -1 && errno == EPERM);
    CHECK(SkifColl_Free(t) == 0);
    /* {0, 3} with root 3: 0 is a member, reached through 1 or 2 */
    int set2[2] = {0, 3};
    t = SkifColl_Create(set2, 2, 3);
    CHECK(t && SkifColl_Id(t) == 16 && SkifColl_IsMember(t) == 1);
    CHECK((fdev.tab[16] & SKIF_CTAB_VALID) && !(fdev.tab[16] & SKIF_CTAB_TRANSIT));
    /* ids 16..31 run out */
    SkifCollTree *more[16];
    int n = 0;
    while (n < 16 && (more[n] = SkifColl_Create(set2, 2, 0)))
        n++;
    CHECK(n == 15 && errno == ENOSPC);
    CHECK(SkifColl_Free(more[3]) == 0);
    more[3] = SkifColl_Create(set2, 2, 0);
    CHECK(more[3] && SkifColl_Id(more[3]) == 20);
    for (int i = 0; i < n; i++)
        SkifColl_Free(more[i]);
    /* bad sets */
    int dup[2] = {1, 1}, out[1] = {4};
    CHECK(!SkifColl_Create(dup, 2, 1) && errno == EINVAL);
    CHECK(!SkifColl_Create(out, 1, 4) && errno == EINVAL);
    CHECK(!SkifColl_Create(set2, 2, 1) && errno == EINVAL);
    /* a request not complete: Free refuses */
    uint32_t v = 1, w;
    CHECK(SkifColl_Allreduce(t, &v, &w, 1, SKIFCOLL_U32, 0, &r) == 0);
    CHECK(SkifColl_Free(t) == -1 && errno == EBUSY);
    CHECK(SkifColl_Wait(r) == 0 && w == 1);
    CHECK(SkifColl_Free(t) == 0);
    CHECK(SkifColl_Free(SkifColl_Stride(0, 0)) == -1 && errno == EINVAL);
    /* the adapter refuses an entry */
    refuse_tab = 1;
    CHECK(!SkifColl_Create(set2, 2, 3) && errno == EIO);
    refuse_tab = 0;
}

int main(void)
{
    setup();
    CHECK(SkifColl_Init(2) == -1 && errno == EINVAL);
    /* SKIFCOLL_INJECT chooses the path (tests/coll.sh runs both) */
    const char *inj = getenv("SKIFCOLL_INJECT");
    int ring = inj && strcmp(inj, "ring") == 0;
    setenv("SKIFCOLL_INJECT", "dma", 1);
    CHECK(SkifColl_Init(0) == -1 && errno == EINVAL);
    setenv("SKIFCOLL_INJECT", ring ? "ring" : "pio", 1);
    CHECK(SkifColl_Init(0) == 0);
    CHECK(SkifColl_HwUp() == 1);
    CHECK(SkifColl_Pio() == !ring);
    CHECK(SkifColl_Init(0) == -1 && errno == EALREADY);
    tables();
    SkifCollTree *t0 = SkifColl_Stride(0, 0);
    CHECK(t0 && SkifColl_Id(t0) == 0 && SkifColl_Members(t0) == 4);
    reduces(t0);
    barrier(t0);
    bcasts(t0);
    trees();
    CHECK(SkifColl_Finalize() == 0);
    int clear = 1;
    for (int i = 0; i < 32; i++)
        clear &= fdev.tab[i] == 0;
    CHECK(clear);
    CHECK(SkifColl_Finalize() == -1 && errno == EINVAL);
    CHECK(ring ? npio == 0 : npio > 0); /* reduces went the chosen way */
    printf("test_coll_lib: %d checks passed, %d failed (%d software messages answered by the fake "
           "peers, "
           "%d operations by PIO)\n",
           passed, failed, nmsgs, npio);
    return failed ? 1 : 0;
}
