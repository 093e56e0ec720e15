/* SPDX-License-Identifier: Apache-2.0 */
/* skifcoll.c: SkifColl, collectives over the tree subnet and in software
 * (see skifcoll.h).
 *
 * Hardware path: every tree keeps which request owns each of its 32 reduce
 * ids (a reduce id is taken in the same order at every member, and never
 * while its last use is in flight), the broadcast receives it waits for
 * (matched by the posting node, in the order results come), and broadcast
 * data that came before its receive was made. Results are taken from the
 * result channel whenever the program tests or waits.
 *
 * Software path: messages on SKIFCOLL_CHAN_SW carry a 16-byte header (tree
 * group and call number, round, sender, offset); a message that is not the
 * one awaited is copied aside until its call asks for it. Pieces stay at or
 * below 512 bytes, which SkifCh sends whole. */
#define _GNU_SOURCE
#include "skifcoll.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/tree.h"
#include "skif_coll.h"
#include "skif_dev.h"
#include "skifch_util.h"

/* The device under SkifCh, from a SkifCh build that offers it (see
 * docs/collectives.md, "Library"); without it the hardware path is not
 * built and SkifColl_Init without SKIFCOLL_NO_HW fails with ENOSYS. */
extern struct skif_dev *skifch__device(void) __attribute__((weak));

#define SW_PIECE 496     /* software payload per message: 512 with the header */
#define SW_HDR 16        /* software message header bytes */
#define WAIT_CYCLES 4096 /* longest sleep between looks at the result ring */
#define HW_RING_LOG2 16  /* result channel ring */
#define BCAST_PIECE 64u  /* broadcast bytes per operation: one 9-flit packet */

enum { RQ_BCAST, RQ_RED, RQ_BAR };

struct SkifCollReq {
    SkifCollTree *t;
    int kind, done, err;
    struct SkifCollReq *next; /* the tree's broadcast receives, in order */
    /* broadcast */
    uint8_t *buf;
    size_t len;
    unsigned root_node, chunks, got;
    int is_root;
    int streaming; /* counted in g.root_bcasts */
    /* reduce */
    uint8_t *recv;
    size_t bytes;
    unsigned left;
    int want_data;
    /* barrier */
    unsigned rid2;
    int phase;
};

/* A broadcast piece that came before its receive was made. */
struct bchunk {
    struct bchunk *next;
    unsigned node, len;
    int err; /* an error result (err set, no data) */
    uint8_t data[];
};

struct SkifCollTree {
    int id;         /* hardware tree id, -1 on the software path */
    unsigned gid;   /* software group id (0..255) */
    int root;       /* rank */
    int nmem, me;   /* members; this rank's index among them, -1 if none */
    int *mem;       /* member ranks, ascending */
    int depth;      /* hops from the root to the deepest node */
    uint32_t seq;   /* software calls made on it */
    uint32_t entry; /* this node's table entry */
    int nreq;       /* requests not yet freed */
    struct SkifCollReq *owner[SKIFCOLL_RIDS];
    unsigned piece[SKIFCOLL_RIDS];
    unsigned next_rid;
    struct SkifCollReq *bq;     /* broadcast receives waiting */
    struct bchunk *ub, *ub_end; /* broadcast pieces waiting for a receive */
    struct SkifCollTree *next;  /* all trees */
};

/* A software message copied aside. */
struct umsg {
    struct umsg *next;
    size_t len;
    uint8_t data[];
};

static struct {
    int up, hw, fatal;
    int pio;         /* reduces by programmed I/O (SKIFCOLL_INJECT) */
    int root_bcasts; /* broadcasts posted here (the root) not yet back whole */
    SkifCh *ch;
    struct skif_dev *dev;
    struct skif_chan *hwch;
    struct skif_torus torus;
    int rank, size;
    SkifCollTree *stride[SKIFCOLL_STRIDE_TREES];
    SkifCollTree *byid[SKIFCOLL_TREES];
    SkifCollTree *trees;
    unsigned next_gid;
    struct umsg *uq;
    long stray; /* results for no tree or reduce id waiting */
    SkifCollReq *deferred[SKIFCOLL_TREES * SKIFCOLL_RIDS / 2]; /* barriers' second reduces */
    int ndeferred;
    uint8_t rx[SKIF_MAX_MSG];
} g;

static int fail(int e)
{
    errno = e;
    return -1;
}

size_t SkifColl_TypeSize(int type)
{
    switch (type) {
    case SKIFCOLL_U32:
    case SKIFCOLL_S32:
        return 4;
    case SKIFCOLL_U64:
    case SKIFCOLL_S64:
        return 8;
    default:
        return 0;
    }
}

#define COMBINE(T)                                                                                 \
    for (size_t i = 0; i < count; i++) {                                                           \
        T a, b;                                                                                    \
        memcpy(&a, (uint8_t *)inout + i * sizeof(T), sizeof(T));                                   \
        memcpy(&b, (const uint8_t *)in + i * sizeof(T), sizeof(T));                                \
        if (op == SKIFCOLL_SUM)                                                                    \
            a = (T)(a + b);                                                                        \
        else if (op == SKIFCOLL_MIN)                                                               \
            a = b < a ? b : a;                                                                     \
        else                                                                                       \
            a = b > a ? b : a;                                                                     \
        memcpy((uint8_t *)inout + i * sizeof(T), &a, sizeof(T));                                   \
    }

int SkifColl_Combine(void *inout, const void *in, size_t count, int type, int op)
{
    if (op < SKIFCOLL_SUM || op > SKIFCOLL_MAX || !SkifColl_TypeSize(type) ||
        (count && (!inout || !in)))
        return fail(EINVAL);
    switch (type) {
    case SKIFCOLL_U32:
        COMBINE(uint32_t);
        break;
    case SKIFCOLL_S32:
        /* signed sums wrap like the adapter's: add as unsigned */
        if (op == SKIFCOLL_SUM) {
            COMBINE(uint32_t);
        } else {
            COMBINE(int32_t);
        }
        break;
    case SKIFCOLL_U64:
        COMBINE(uint64_t);
        break;
    default:
        if (op == SKIFCOLL_SUM) {
            COMBINE(uint64_t);
        } else {
            COMBINE(int64_t);
        }
        break;
    }
    return 0;
}

/* ---------------------------------------------------------------- trees */

static int index_of(const SkifCollTree *t, int rank)
{
    int lo = 0, hi = t->nmem - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (t->mem[mid] == rank)
            return mid;
        if (t->mem[mid] < rank)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static void tree_free(SkifCollTree *t)
{
    while (t->ub) {
        struct bchunk *c = t->ub;
        t->ub = c->next;
        free(c);
    }
    free(t->mem);
    free(t);
}

/* Make a tree of member[] with root `root`: its entries built and
 * validated; on the hardware path this node's entry programmed as `id` and
 * read back. NULL with errno. */
static SkifCollTree *tree_make(const uint8_t *member, int root, int id, unsigned gid,
                               const char *who)
{
    char err[200];
    int n = g.size;
    uint32_t *e = malloc((size_t)n * sizeof(uint32_t));
    SkifCollTree *t = calloc(1, sizeof(*t));
    int *mem = malloc((size_t)n * sizeof(int));
    if (!e || !t || !mem) {
        free(e);
        free(t);
        free(mem);
        return errno = ENOMEM, NULL;
    }
    int rc = skif_tree_build(&g.torus, member, root, SKIFCOLL_CHAN_HW, e, err, sizeof(err));
    if (rc == 0)
        rc = skif_tree_validate(&g.torus, e, g.hw ? (unsigned)skif_dev_channels(g.dev) : 0, err,
                                sizeof(err));
    if (rc < 0) {
        fprintf(stderr, "%s: node %d: tree refused: %s\n", who, g.rank, err);
        free(e);
        free(t);
        free(mem);
        return errno = EPROTO, NULL;
    }
    t->id = g.hw ? id : -1;
    t->gid = gid & 0xffu;
    t->root = root;
    t->me = -1;
    for (int r = 0; r < n; r++) {
        if (!member[r])
            continue;
        if (r == g.rank)
            t->me = t->nmem;
        mem[t->nmem++] = r;
    }
    t->mem = mem;
    t->entry = e[g.rank];
    t->depth = skif_tree_depth(&g.torus, e);
    free(e);
    if (g.hw) {
        uint32_t back;
        if ((rc = skif_coll_tab_write(g.dev, (unsigned)id, t->entry)) < 0 ||
            (rc = skif_coll_tab_read(g.dev, (unsigned)id, &back)) < 0) {
            fprintf(stderr, "%s: node %d: the adapter refused tree %d's entry 0x%08x (%s)\n", who,
                    g.rank, id, t->entry, strerror(-rc));
            tree_free(t);
            return errno = rc == -EPIPE ? EPIPE : EIO, NULL;
        }
        if (back != t->entry) {
            fprintf(stderr, "%s: node %d: tree %d reads back 0x%08x, written 0x%08x\n", who, g.rank,
                    id, back, t->entry);
            tree_free(t);
            return errno = EPROTO, NULL;
        }
        g.byid[id] = t;
    }
    t->next = g.trees;
    g.trees = t;
    return t;
}

/* Take t out of the list of trees, clear its entry, free it. */
static void tree_drop(SkifCollTree *t)
{
    for (SkifCollTree **pp = &g.trees; *pp; pp = &(*pp)->next)
        if (*pp == t) {
            *pp = t->next;
            break;
        }
    if (g.hw && t->id >= 0) {
        skif_coll_tab_write(g.dev, (unsigned)t->id, 0);
        g.byid[t->id] = NULL;
    }
    tree_free(t);
}

int SkifColl_Id(const SkifCollTree *t)
{
    return t ? t->id : -1;
}
int SkifColl_Root(const SkifCollTree *t)
{
    return t ? t->root : -1;
}
int SkifColl_IsMember(const SkifCollTree *t)
{
    return t && t->me >= 0;
}
int SkifColl_Members(const SkifCollTree *t)
{
    return t ? t->nmem : -1;
}
int SkifColl_Depth(const SkifCollTree *t)
{
    return t ? t->depth : -1;
}
int SkifColl_HwUp(void)
{
    return g.up && g.hw;
}
int SkifColl_Pio(void)
{
    return g.up && g.hw && g.pio;
}
SkifCh *SkifColl_Channel(void)
{
    return g.up ? g.ch : NULL;
}

SkifCollTree *SkifColl_Stride(int log_stride, int start)
{
    if (!g.up || log_stride < 0 || log_stride > 7 || start < 0 || start > 1)
        return errno = EINVAL, NULL;
    return g.stride[2 * log_stride + start];
}

/* ---------------------------------------------------------------- software messages */

static uint32_t tag_next(SkifCollTree *t)
{
    return t->gid << 24 | (t->seq++ & 0xffffffu);
}

static void hdr_put(uint8_t *m, uint32_t tag, uint32_t step, uint32_t off)
{
    uint32_t h[4] = {tag, step, off, (uint32_t)g.rank};
    memcpy(m, h, SW_HDR);
}

/* Send len bytes to rank dst as pieces of the call `tag`, round `step`. */
static int sw_send(uint32_t tag, int dst, uint32_t step, const void *buf, size_t len)
{
    uint8_t m[SW_HDR + SW_PIECE];
    netaddr_t to = SkifCh_Addr(dst, SKIFCOLL_CHAN_SW);
    size_t off = 0;
    do {
        size_t n = len - off < SW_PIECE ? len - off : SW_PIECE;
        hdr_put(m, tag, step, (uint32_t)off);
        if (n)
            memcpy(m + SW_HDR, (const uint8_t *)buf + off, n);
        if (SkifChU_Send(g.ch, to, m, SW_HDR + n) < 0)
            return -1;
        off += n;
    } while (off < len);
    return 0;
}

/* Does software message m (len bytes) belong to (tag, step, src)? Copies
 * its piece into buf and returns 1; 0 not this one; -1 EPROTO. */
static int sw_match(const uint8_t *m, size_t mlen, uint32_t tag, uint32_t step, int src,
                    uint8_t *buf, size_t len)
{
    uint32_t h[4];
    if (mlen < SW_HDR)
        return fail(EPROTO);
    memcpy(h, m, SW_HDR);
    if (h[0] != tag || h[1] != step || h[3] != (uint32_t)src)
        return 0;
    size_t n = mlen - SW_HDR;
    if (h[2] > len || n > len - h[2])
        return fail(EPROTO);
    if (n)
        memcpy(buf + h[2], m + SW_HDR, n);
    return 1;
}

/* Receive len bytes from rank src for (tag, step) into buf. */
static int sw_recv(uint32_t tag, int src, uint32_t step, void *buf, size_t len)
{
    size_t need = len ? (len + SW_PIECE - 1) / SW_PIECE : 1, got = 0;
    /* the copies first, oldest first */
    for (struct umsg **pp = &g.uq; *pp && got < need;) {
        struct umsg *u = *pp;
        int rc = sw_match(u->data, u->len, tag, step, src, buf, len);
        if (rc < 0)
            return -1;
        if (rc) {
            *pp = u->next;
            free(u);
            got++;
        } else {
            pp = &u->next;
        }
    }
    while (got < need) {
        ssize_t n = SkifChU_Recv(g.ch, g.rx, sizeof(g.rx));
        if (n < 0)
            return -1;
        if ((size_t)n > sizeof(g.rx))
            return fail(EPROTO);
        int rc = sw_match(g.rx, (size_t)n, tag, step, src, buf, len);
        if (rc < 0)
            return -1;
        if (rc) {
            got++;
            continue;
        }
        struct umsg *u = malloc(sizeof(*u) + (size_t)n), **pp = &g.uq;
        if (!u)
            return fail(ENOMEM);
        u->next = NULL;
        u->len = (size_t)n;
        memcpy(u->data, g.rx, (size_t)n);
        while (*pp)
            pp = &(*pp)->next;
        *pp = u;
    }
    return 0;
}

/* The checks every collective call makes: started, a tree, a member. */
static int call_check(const SkifCollTree *t)
{
    if (!g.up || !t)
        return fail(EINVAL);
    if (t->me < 0)
        return fail(EPERM);
    return 0;
}

/* Bytes of count elements of type with op, or -1 EINVAL. */
static int vec_bytes(size_t count, int type, int op, size_t *bytes)
{
    size_t es = SkifColl_TypeSize(type);
    if (!es || op < SKIFCOLL_SUM || op > SKIFCOLL_MAX || count > ((size_t)1 << 40) / es)
        return fail(EINVAL);
    *bytes = count * es;
    return 0;
}

int SkifCollSw_Bcast(SkifCollTree *t, int root, void *buf, size_t len)
{
    if (call_check(t) < 0)
        return -1;
    int ri = index_of(t, root);
    if (ri < 0 || (len && !buf))
        return fail(EINVAL);
    uint32_t tag = tag_next(t);
    int m = t->nmem, v = (t->me - ri + m) % m, mask = 1;
    for (; mask < m; mask <<= 1)
        if (v & mask) {
            if (sw_recv(tag, t->mem[(v - mask + ri) % m], 0, buf, len) < 0)
                return -1;
            break;
        }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (v + mask < m && sw_send(tag, t->mem[(v + mask + ri) % m], 0, buf, len) < 0)
            return -1;
    return 0;
}

/* Binomial reduce of acc (bytes) to member index ti; at ti acc holds the
 * result. */
static int sw_reduce(SkifCollTree *t, int ti, uint8_t *acc, uint8_t *tmp, size_t bytes,
                     size_t count, int type, int op)
{
    uint32_t tag = tag_next(t);
    int m = t->nmem, v = (t->me - ti + m) % m;
    for (int mask = 1; mask < m; mask <<= 1) {
        if (v & mask)
            return sw_send(tag, t->mem[((v & ~mask) + ti) % m], 0, acc, bytes);
        if ((v | mask) < m) {
            if (sw_recv(tag, t->mem[((v | mask) + ti) % m], 0, tmp, bytes) < 0)
                return -1;
            SkifColl_Combine(acc, tmp, count, type, op);
        }
    }
    return 0;
}

/* acc and tmp: two buffers of bytes (at least 1), acc holding send. */
static int bufs(const void *send, size_t bytes, uint8_t **acc, uint8_t **tmp)
{
    *acc = malloc(bytes ? bytes : 1);
    *tmp = malloc(bytes ? bytes : 1);
    if (!*acc || !*tmp) {
        free(*acc);
        free(*tmp);
        return fail(ENOMEM);
    }
    if (bytes)
        memcpy(*acc, send, bytes);
    return 0;
}

int SkifCollSw_Reduce(SkifCollTree *t, int target, const void *send, void *recv, size_t count,
                      int type, int op)
{
    size_t bytes;
    uint8_t *acc, *tmp;
    if (call_check(t) < 0 || vec_bytes(count, type, op, &bytes) < 0)
        return -1;
    int ti = index_of(t, target);
    if (ti < 0 || (bytes && (!send || (ti == t->me && !recv))))
        return fail(EINVAL);
    if (bufs(send, bytes, &acc, &tmp) < 0)
        return -1;
    int rc = sw_reduce(t, ti, acc, tmp, bytes, count, type, op);
    if (rc == 0 && ti == t->me && bytes)
        memcpy(recv, acc, bytes);
    free(acc);
    free(tmp);
    return rc;
}

int SkifCollSw_AllreduceTree(SkifCollTree *t, const void *send, void *recv, size_t count, int type,
                             int op)
{
    size_t bytes;
    uint8_t *acc, *tmp;
    if (call_check(t) < 0 || vec_bytes(count, type, op, &bytes) < 0)
        return -1;
    if (bytes && (!send || !recv))
        return fail(EINVAL);
    if (bufs(send, bytes, &acc, &tmp) < 0)
        return -1;
    int ri = index_of(t, t->root);
    int rc = sw_reduce(t, ri, acc, tmp, bytes, count, type, op);
    if (rc == 0)
        rc = SkifCollSw_Bcast(t, t->root, acc, bytes);
    if (rc == 0 && bytes)
        memcpy(recv, acc, bytes);
    free(acc);
    free(tmp);
    return rc;
}

int SkifCollSw_Allreduce(SkifCollTree *t, const void *send, void *recv, size_t count, int type,
                         int op)
{
    size_t bytes;
    uint8_t *acc, *tmp;
    if (call_check(t) < 0 || vec_bytes(count, type, op, &bytes) < 0)
        return -1;
    if (bytes && (!send || !recv))
        return fail(EINVAL);
    if (bufs(send, bytes, &acc, &tmp) < 0)
        return -1;
    uint32_t tag = tag_next(t);
    int m = t->nmem, me = t->me, p2 = 1, rc = 0;
    while (p2 * 2 <= m)
        p2 *= 2;
    int rem = m - p2, nr;
    /* fold: of the first 2 * rem members, the even ones hand their vector
     * to the next and sit out the doubling */
    if (me < 2 * rem) {
        if (me % 2 == 0) {
            rc = sw_send(tag, t->mem[me + 1], 1000, acc, bytes);
            nr = -1;
        } else {
            rc = sw_recv(tag, t->mem[me - 1], 1000, tmp, bytes);
            SkifColl_Combine(acc, tmp, count, type, op);
            nr = me / 2;
        }
    } else {
        nr = me - rem;
    }
    for (int mask = 1, step = 0; rc == 0 && nr >= 0 && mask < p2; mask <<= 1, step++) {
        int pn = nr ^ mask, partner = pn < rem ? 2 * pn + 1 : pn + rem;
        rc = sw_send(tag, t->mem[partner], (uint32_t)step, acc, bytes);
        if (rc == 0)
            rc = sw_recv(tag, t->mem[partner], (uint32_t)step, tmp, bytes);
        if (rc == 0)
            SkifColl_Combine(acc, tmp, count, type, op);
    }
    if (rc == 0 && me < 2 * rem) {
        if (me % 2 == 0)
            rc = sw_recv(tag, t->mem[me + 1], 1001, acc, bytes);
        else
            rc = sw_send(tag, t->mem[me - 1], 1001, acc, bytes);
    }
    if (rc == 0 && bytes)
        memcpy(recv, acc, bytes);
    free(acc);
    free(tmp);
    return rc;
}

int SkifCollSw_Barrier(SkifCollTree *t)
{
    if (call_check(t) < 0)
        return -1;
    uint32_t tag = tag_next(t);
    int m = t->nmem;
    for (int k = 1, step = 0; k < m; k <<= 1, step++) {
        if (sw_send(tag, t->mem[(t->me + k) % m], (uint32_t)step, NULL, 0) < 0 ||
            sw_recv(tag, t->mem[(t->me - k + m) % m], (uint32_t)step, NULL, 0) < 0)
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- hardware: results */

static void req_done(SkifCollReq *r)
{
    r->done = 1;
    if (r->streaming) {
        r->streaming = 0;
        g.root_bcasts--;
    }
    if (r->kind == RQ_BCAST) {
        for (SkifCollReq **pp = &r->t->bq; *pp; pp = &(*pp)->next)
            if (*pp == r) {
                *pp = r->next;
                break;
            }
    }
}

/* A broadcast piece for receive r: 0, or it does not fit (r fails), or
 * the root's engine refused it (err: an error result, no data; r fails with
 * EIO, and its other pieces still count). */
static void bcast_piece(SkifCollReq *r, const uint8_t *data, unsigned len, int err)
{
    size_t off = (size_t)r->got * BCAST_PIECE;
    size_t want = r->len - off < BCAST_PIECE ? r->len - off : BCAST_PIECE;
    /* the node that posted a broadcast gets its pieces back as completions
     * of length 0 (the adapter does not write its own data back) */
    if (err)
        r->err = EIO;
    else if (len != want && !(r->is_root && len == 0))
        r->err = EPROTO;
    else if (!r->is_root && len)
        memcpy(r->buf + off, data, len);
    if (++r->got == r->chunks)
        req_done(r);
}

static void on_result(const struct skif_coll_result *res, const uint8_t *data)
{
    SkifCollTree *t =
        res->kind == SKIF_ENT_KIND_COLL && res->tree < SKIFCOLL_TREES ? g.byid[res->tree] : NULL;
    if (!t) {
        g.stray++;
        return;
    }
    if (res->cmd == SKIF_COLL_CMD_BCAST) {
        for (SkifCollReq *r = t->bq; r; r = r->next)
            if (r->root_node == res->node) {
                bcast_piece(r, data, res->len, res->err);
                return;
            }
        struct bchunk *c = malloc(sizeof(*c) + res->len);
        if (!c) {
            g.fatal = ENOMEM;
            return;
        }
        c->next = NULL;
        c->node = res->node;
        c->len = res->len;
        c->err = res->err;
        memcpy(c->data, data, res->len);
        if (t->ub)
            t->ub_end->next = c;
        else
            t->ub = c;
        t->ub_end = c;
        return;
    }
    SkifCollReq *r = t->owner[res->rid];
    if (!r) {
        g.stray++;
        return;
    }
    unsigned piece = t->piece[res->rid];
    t->owner[res->rid] = NULL;
    if (res->err) {
        r->err = EIO;
    } else if (r->kind == RQ_RED && r->want_data) {
        size_t off = (size_t)piece * SKIFCOLL_MAX_RED;
        size_t want = r->bytes - off < SKIFCOLL_MAX_RED ? r->bytes - off : SKIFCOLL_MAX_RED;
        if (res->len != want)
            r->err = EPROTO;
        else if (want)
            memcpy(r->recv + off, data, want);
    } else if (res->len != 0) {
        r->err = EPROTO;
    }
    if (r->kind == RQ_BAR && r->phase == 0) {
        r->phase = 1;
        if (!r->err) { /* the second reduce goes once this one is back */
            g.deferred[g.ndeferred++] = r;
            return;
        }
        t->owner[r->rid2] = NULL;
    }
    /* done when every piece is back, even after an error: until then the
     * reduce ids point at the request */
    if (--r->left == 0)
        req_done(r);
}

static int post_try(SkifCollTree *t, unsigned cmd, unsigned type, unsigned op, unsigned rid,
                    unsigned arg, const void *buf, size_t len)
{
    struct skif_coll_op o = {cmd, type, op, rid, (unsigned)t->id, arg, len};
    /* reduces (at most 64 bytes each) by programmed I/O unless asked for the
     * ring; broadcast pieces through the TX ring. Not while a broadcast
     * posted here streams: the engine takes no host packet until its pieces
     * are through, and a PIO write held until then would hold this
     * program's CH_HEAD writes behind it (docs/collectives.md, COLL_PIO) */
    if (g.pio && cmd != SKIF_COLL_CMD_BCAST && g.root_bcasts == 0)
        return skif_coll_post_pio(g.dev, &o, buf);
    return skif_coll_post(g.dev, &o, buf);
}

/* Take every result there is; post the second reduces of barriers. 0, or
 * -1 with errno (the ring is broken, the simulator is gone). */
static int hw_progress(void)
{
    struct skif_coll_result res;
    int rc;
    if (g.fatal)
        return fail(g.fatal);
    while ((rc = skif_coll_take(g.hwch, &res, g.rx, sizeof(g.rx))) > 0)
        on_result(&res, g.rx);
    if (rc < 0) {
        g.fatal = -rc;
        return fail(-rc);
    }
    while (g.ndeferred > 0) {
        SkifCollReq *r = g.deferred[0];
        rc = post_try(r->t, SKIF_COLL_CMD_ALLREDUCE, 0, 0, r->rid2, 0, NULL, 0);
        if (rc == -EAGAIN)
            break;
        if (rc < 0) {
            r->err = -rc;
            r->t->owner[r->rid2] = NULL;
            req_done(r);
        }
        memmove(g.deferred, g.deferred + 1, (size_t)--g.ndeferred * sizeof(g.deferred[0]));
    }
    return 0;
}

/* Sleep until the next device event (or WAIT_CYCLES), then take results. */
static int hw_block(void)
{
    int rc = skif_dev_wait(g.dev, WAIT_CYCLES);
    if (rc < 0)
        return fail(-rc);
    return hw_progress();
}

/* Post one operation, waiting for room in the TX ring. */
static int post(SkifCollTree *t, unsigned cmd, unsigned type, unsigned op, unsigned rid,
                unsigned arg, const void *buf, size_t len)
{
    for (;;) {
        int rc = post_try(t, cmd, type, op, rid, arg, buf, len);
        if (rc != -EAGAIN)
            return rc < 0 ? fail(-rc) : 0;
        if (hw_block() < 0)
            return -1;
    }
}

/* The tree's next reduce id for piece `piece` of r, once it is free. */
static int rid_take(SkifCollTree *t, SkifCollReq *r, unsigned piece, unsigned *rid)
{
    unsigned id = t->next_rid;
    while (t->owner[id])
        if (hw_block() < 0)
            return -1;
    t->owner[id] = r;
    t->piece[id] = piece;
    t->next_rid = (id + 1) % SKIFCOLL_RIDS;
    *rid = id;
    return 0;
}

static SkifCollReq *req_new(SkifCollTree *t, int kind)
{
    SkifCollReq *r = calloc(1, sizeof(*r));
    if (!r)
        return errno = ENOMEM, NULL;
    r->t = t;
    r->kind = kind;
    t->nreq++;
    return r;
}

static int hw_check(const SkifCollTree *t, SkifCollReq **req)
{
    if (call_check(t) < 0)
        return -1;
    if (!g.hw)
        return fail(ENOSYS);
    if (!req)
        return fail(EINVAL);
    return 0;
}

int SkifColl_Bcast(SkifCollTree *t, int root, void *buf, size_t len, SkifCollReq **req)
{
    uint32_t node;
    if (hw_check(t, req) < 0)
        return -1;
    if (index_of(t, root) < 0 || (len && !buf) || len > ((size_t)1 << 40))
        return fail(EINVAL);
    SkifCollReq *r = req_new(t, RQ_BCAST);
    if (!r)
        return -1;
    if (root != t->root) {
        /* The adapter takes broadcasts at the tree's root only (a request
         * forwarded up the tree could deadlock overlapping trees,
         * docs/collectives.md): from any other member the software path
         * carries it, and the request is complete on return. */
        if (SkifCollSw_Bcast(t, root, buf, len) < 0)
            r->err = errno;
        req_done(r);
        *req = r;
        return 0;
    }
    skif_dev_rank_node(g.dev, root, &node);
    r->buf = buf;
    r->len = len;
    r->root_node = node;
    r->chunks = len ? (unsigned)((len + BCAST_PIECE - 1) / BCAST_PIECE) : 1;
    r->is_root = root == g.rank;
    /* wait in line: pieces that came already are taken now */
    SkifCollReq **pp = &t->bq;
    while (*pp)
        pp = &(*pp)->next;
    *pp = r;
    for (struct bchunk **cp = &t->ub; *cp && !r->done;) {
        struct bchunk *c = *cp;
        if (c->node != node) {
            cp = &c->next;
            continue;
        }
        *cp = c->next;
        if (t->ub_end == c) {
            t->ub_end = NULL;
            for (struct bchunk *x = t->ub; x; x = x->next)
                t->ub_end = x;
        }
        bcast_piece(r, c->data, c->len, c->err);
        free(c);
    }
    if (r->is_root && !r->done) {
        r->streaming = 1;
        g.root_bcasts++;
    }
    if (r->is_root)
        for (unsigned i = 0; i < r->chunks; i++) {
            size_t off = (size_t)i * BCAST_PIECE;
            size_t n = len - off < BCAST_PIECE ? len - off : BCAST_PIECE;
            if (post(t, SKIF_COLL_CMD_BCAST, 0, 0, 0, node, (uint8_t *)buf + off, n) < 0) {
                r->err = errno;
                req_done(r);
                break;
            }
        }
    *req = r;
    return 0;
}

static int hw_reduce(SkifCollTree *t, unsigned cmd, int target, const void *send, void *recv,
                     size_t count, int type, int op, SkifCollReq **req)
{
    size_t bytes;
    uint32_t node = 0;
    if (hw_check(t, req) < 0 || vec_bytes(count, type, op, &bytes) < 0)
        return -1;
    int want = cmd == SKIF_COLL_CMD_ALLREDUCE || target == g.rank;
    if (cmd == SKIF_COLL_CMD_REDUCE) {
        if (index_of(t, target) < 0)
            return fail(EINVAL);
        skif_dev_rank_node(g.dev, target, &node);
    }
    if (bytes && (!send || (want && !recv)))
        return fail(EINVAL);
    SkifCollReq *r = req_new(t, RQ_RED);
    if (!r)
        return -1;
    r->recv = recv;
    r->bytes = bytes;
    r->want_data = want;
    unsigned pieces = bytes ? (unsigned)((bytes + SKIFCOLL_MAX_RED - 1) / SKIFCOLL_MAX_RED) : 1;
    r->left = pieces;
    for (unsigned i = 0; i < pieces; i++) {
        size_t off = (size_t)i * SKIFCOLL_MAX_RED;
        size_t n = bytes - off < SKIFCOLL_MAX_RED ? bytes - off : SKIFCOLL_MAX_RED;
        unsigned rid;
        int rc = rid_take(t, r, i, &rid);
        if (rc == 0 && post(t, cmd, (unsigned)type, (unsigned)op, rid, node,
                            (const uint8_t *)send + off, n) < 0) {
            t->owner[rid] = NULL;
            rc = -1;
        }
        if (rc < 0) {
            /* the pieces posted complete the request when they come back */
            r->err = errno;
            r->left -= pieces - i;
            break;
        }
    }
    if (r->left == 0)
        req_done(r);
    *req = r;
    return 0;
}

int SkifColl_Reduce(SkifCollTree *t, int target, const void *send, void *recv, size_t count,
                    int type, int op, SkifCollReq **req)
{
    return hw_reduce(t, SKIF_COLL_CMD_REDUCE, target, send, recv, count, type, op, req);
}

int SkifColl_Allreduce(SkifCollTree *t, const void *send, void *recv, size_t count, int type,
                       int op, SkifCollReq **req)
{
    return hw_reduce(t, SKIF_COLL_CMD_ALLREDUCE, -1, send, recv, count, type, op, req);
}

int SkifColl_Barrier(SkifCollTree *t, SkifCollReq **req)
{
    if (hw_check(t, req) < 0)
        return -1;
    SkifCollReq *r = req_new(t, RQ_BAR);
    if (!r)
        return -1;
    unsigned rid;
    r->left = 1;
    /* both ids now, so every member takes them in the same order */
    if (rid_take(t, r, 0, &rid) < 0) {
        r->err = errno;
    } else if (rid_take(t, r, 1, &r->rid2) < 0) {
        r->err = errno;
        t->owner[rid] = NULL;
    } else if (post(t, SKIF_COLL_CMD_ALLREDUCE, 0, 0, rid, 0, NULL, 0) < 0) {
        r->err = errno;
        t->owner[rid] = t->owner[r->rid2] = NULL;
    }
    if (r->err)
        req_done(r);
    *req = r;
    return 0;
}

static int req_end(SkifCollReq *r)
{
    int err = r->err;
    r->t->nreq--;
    free(r);
    return err ? fail(err) : 0;
}

int SkifColl_Test(SkifCollReq *r)
{
    if (!r || !g.up || !g.hw)
        return fail(EINVAL);
    if (!r->done && hw_progress() < 0)
        return -1;
    if (!r->done)
        return 0;
    return req_end(r) < 0 ? -1 : 1;
}

int SkifColl_Wait(SkifCollReq *r)
{
    if (!r || !g.up || !g.hw)
        return fail(EINVAL);
    if (hw_progress() < 0)
        return -1;
    while (!r->done)
        if (hw_block() < 0)
            return -1;
    return req_end(r);
}

/* ---------------------------------------------------------------- start, stop */

static int all_barrier(void)
{
    return SkifCollSw_Barrier(g.stride[0]);
}

int SkifColl_Init(int flags)
{
    if (g.up)
        return fail(EALREADY);
    if (flags & ~SKIFCOLL_NO_HW)
        return fail(EINVAL);
    int dims[4], nd;
    char err[128];
    if ((g.rank = SkifCh_Rank()) < 0 || (g.size = SkifCh_Size()) < 0 ||
        (nd = SkifCh_Dims(dims)) < 0)
        return -1;
    if (skif_torus_init(&g.torus, nd, dims, err, sizeof(err)) < 0) {
        fprintf(stderr, "SkifColl_Init: %s\n", err);
        return fail(EINVAL);
    }
    const char *inj = getenv("SKIFCOLL_INJECT");
    if (inj && strcmp(inj, "pio") != 0 && strcmp(inj, "ring") != 0) {
        fprintf(stderr, "SkifColl_Init: SKIFCOLL_INJECT='%s' (expected pio or ring)\n", inj);
        return fail(EINVAL);
    }
    g.pio = !inj || strcmp(inj, "pio") == 0;
    g.root_bcasts = 0;
    if (!(g.ch = SkifCh_Open(SKIFCOLL_CHAN_SW)))
        return -1;
    int rc = 0;
    if (!(flags & SKIFCOLL_NO_HW)) {
        uint32_t v;
        g.dev = skifch__device ? skifch__device() : NULL;
        if (!g.dev) {
            rc = ENOSYS;
        } else if (skif_coll_tab_read(g.dev, 0, &v) < 0) {
            /* no collective engine: the access was refused; clear the
             * sticky error it left */
            skif_reg_write(g.dev, SKIF_REG_STATUS, SKIF_STATUS_REG_ERR);
            skif_reg_flush(g.dev);
            rc = ENOSYS;
        } else if ((rc = -skif_chan_open(g.dev, SKIFCOLL_CHAN_HW, HW_RING_LOG2, &g.hwch)) == 0) {
            g.hw = 1;
        }
    }
    uint8_t *member = rc ? NULL : malloc((size_t)g.size);
    if (!rc && !member)
        rc = ENOMEM;
    for (int i = 0; i < SKIFCOLL_STRIDE_TREES && !rc; i++) {
        skif_tree_stride_members(&g.torus, i, member);
        if (!(g.stride[i] = tree_make(member, i & 1, i, (unsigned)i, "SkifColl_Init")))
            rc = errno;
    }
    free(member);
    g.up = !rc;
    if (!rc && all_barrier() < 0)
        rc = errno;
    if (rc) {
        while (g.trees)
            tree_drop(g.trees);
        memset(g.stride, 0, sizeof(g.stride));
        if (g.hwch)
            skif_chan_close(g.hwch);
        SkifCh_Close(g.ch);
        g.hwch = NULL;
        g.ch = NULL;
        g.hw = g.up = 0;
        return fail(rc);
    }
    return 0;
}

SkifCollTree *SkifColl_Create(const int *ranks, int nranks, int root)
{
    if (!g.up || !ranks || nranks < 1 || nranks > g.size)
        return errno = EINVAL, NULL;
    uint8_t *member = calloc((size_t)g.size, 1);
    if (!member)
        return errno = ENOMEM, NULL;
    for (int i = 0; i < nranks; i++) {
        if (ranks[i] < 0 || ranks[i] >= g.size || member[ranks[i]]) {
            free(member);
            return errno = EINVAL, NULL;
        }
        member[ranks[i]] = 1;
    }
    if (root < 0 || root >= g.size || !member[root]) {
        free(member);
        return errno = EINVAL, NULL;
    }
    int id = -1;
    for (int i = SKIFCOLL_STRIDE_TREES; g.hw && i < SKIFCOLL_TREES && id < 0; i++)
        if (!g.byid[i])
            id = i;
    if (g.hw && id < 0) {
        free(member);
        return errno = ENOSPC, NULL;
    }
    unsigned gid = SKIFCOLL_STRIDE_TREES + g.next_gid++ % (256 - SKIFCOLL_STRIDE_TREES);
    SkifCollTree *t = tree_make(member, root, id, gid, "SkifColl_Create");
    free(member);
    if (!t)
        return NULL;
    /* on the hardware path nobody may use it before every node has its entry */
    if (g.hw && all_barrier() < 0) {
        int e = errno;
        tree_drop(t);
        return errno = e, NULL;
    }
    return t;
}

int SkifColl_Free(SkifCollTree *t)
{
    if (!g.up || !t || t->gid < SKIFCOLL_STRIDE_TREES)
        return fail(EINVAL);
    if (t->nreq)
        return fail(EBUSY);
    if (g.hw && all_barrier() < 0)
        return -1;
    tree_drop(t);
    return 0;
}

int SkifColl_Finalize(void)
{
    if (!g.up)
        return fail(EINVAL);
    int rc = g.hw ? all_barrier() : 0;
    while (g.trees)
        tree_drop(g.trees);
    memset(g.stride, 0, sizeof(g.stride));
    if (g.hwch)
        skif_chan_close(g.hwch);
    while (g.uq) {
        struct umsg *u = g.uq;
        g.uq = u->next;
        free(u);
    }
    if (SkifCh_Close(g.ch) < 0)
        rc = -1;
    g.hwch = NULL;
    g.ch = NULL;
    g.dev = NULL;
    g.hw = g.up = g.fatal = 0;
    g.ndeferred = 0;
    return rc;
}
