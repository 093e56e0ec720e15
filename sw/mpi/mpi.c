/* SPDX-License-Identifier: Apache-2.0 */
/* mpi.c: skifsim's MPI over SkifCh (see mpi.h and docs/mpi.md).
 *
 * Every rank opens SkifCh channel SKIFMPI_CHANNEL. A packet is one SkifCh
 * message whose first 64-bit word says what it is (low 4 bits):
 *   EAGER  word0 = type | ctx << 4 | src << 16 | tag << 32, then the data
 *          (at most EAGER_MAX bytes, so the packet is at most 512 bytes and
 *          SkifCh sends it whole); the length is the packet's.
 *   RTS    word0 as EAGER, word1 the length | the sender's world rank << 48,
 *          word2 the sender's request.
 *   CTS    word0 = type | sender's request, word1 the receiver's request.
 *   DATA   word0 = type | receiver's request, then data appended where the
 *          previous DATA of that request ended (per-sender order is kept).
 *   EAGERL word0 as EAGER, word1 as RTS, then the first 496 bytes of an eager
 *          message of up to MEDIUM_MAX bytes; the rest follows at once in
 *   CONT   packets (word0 = type | sender's world rank << 4, then up to 504
 *          bytes), appended to the message the sender's EAGERL began.
 *   PACK   word0 = type | count << 4 | the data length of message i (0..248)
 *          in bits 8i+8..8i+15 (count 2..PACK_MSGS), then each message as an
 *          EAGER packet (word0 and data), padded to 8 bytes. A sender packs
 *          eager messages of up to PACK_DATA bytes only while its TX ring is
 *          full (SkifCh_Send said EAGAIN), so they share one packet header
 *          instead of waiting; see "Packing" in docs/mpi.md.
 * Requests are 16-byte aligned, so their addresses carry the type in the
 * low bits. ctx is a communicator's context: 2 * id for point to point,
 * 2 * id + 1 for its collectives. src is the sender's rank in the
 * communicator. Packets to this rank itself go through a local queue.
 *
 * Progress happens only inside MPI calls: progress() pushes the DATA of
 * sends whose CTS has come, then takes one packet (an empty SkifCh_Recv lets
 * simulated time run). Matching: an incoming EAGER or RTS goes to the first
 * posted receive that matches (ctx, source or ANY, tag or ANY), else to the
 * unexpected queue; a new receive looks at the unexpected queue first. */
#define _POSIX_C_SOURCE 200809L
#include "mpi.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "skifch.h"
#include "skifcoll.h"

#define T_EAGER 1u
#define T_RTS 2u
#define T_CTS 3u
#define T_DATA 4u
#define T_EAGERL 5u
#define T_CONT 6u
#define T_PACK 7u
#define PACK_MSGS 7                   /* eager messages in a PACK packet at most */
#define PACK_DATA 248                 /* data bytes of a packed message at most */
#define PACK_MAX 512                  /* bytes of a PACK packet at most */
#define MEDIUM_MAX 8192               /* longest eager message (several packets) */
#define EAGER_MAX (512 - 8)           /* data bytes of an eager packet */
#define DATA_MAX (SKIFCH_MAX_MSG - 8) /* data bytes of a DATA packet */
#define LEN_MASK ((1ull << 48) - 1)   /* RTS word1: length, sender's world rank */
#define MAX_IDS 2048                  /* communicator ids */
#define MASK_WORDS (MAX_IDS / 64)

enum { TAG_BARRIER = 1, TAG_BCAST, TAG_REDUCE, TAG_GATHER, TAG_SCATTER, TAG_ALLTOALL, TAG_CTX };

/* ------------------------------------------------------------ state */
struct skifmpi_req {
    _Alignas(16) int kind; /* R_SEND, R_RECV */
    int done, freed, comm, err;
    struct skifmpi_req *next; /* posted queue, push list, free list */
    /* receive */
    char *buf;
    size_t cap, len, got;
    uint32_t ctx;
    int src, tag;
    MPI_Status st;
    /* send */
    const char *sbuf;
    size_t slen, sent;
    int dst_world;
    uint64_t rreq;
};
enum { R_SEND = 1, R_RECV };

struct unexp {
    struct unexp *next;
    uint32_t type, ctx;
    int src, tag, src_world;
    size_t len, got; /* got < len: CONT packets still to come */
    uint64_t sreq;
    char data[];
};

struct lpkt { /* a packet to this rank itself */
    struct lpkt *next;
    size_t len;
    _Alignas(8) char data[];
};

struct coll_ops;
struct comm {
    int used, id, rank, size, errh;
    int *world; /* comm rank -> world rank */
    const struct coll_ops *coll;
    SkifCollTree *tree; /* hw_coll: the engine's tree of this group (kept until MPI_Finalize) */
};

/* The collectives a communicator uses: today every communicator gets
 * sw_coll (software over point to point). A hardware path (the collective
 * engine) replaces this table per communicator for what it does exactly. */
struct coll_ops {
    int (*barrier)(struct comm *c);
    int (*bcast)(struct comm *c, void *buf, size_t bytes, int root);
    int (*reduce)(struct comm *c, const void *in, void *out, int n, MPI_Datatype t, MPI_Op op,
                  int root);
    int (*allreduce)(struct comm *c, const void *in, void *out, int n, MPI_Datatype t, MPI_Op op);
};

static struct {
    int init, finalized, singleton, rank, size, errh_world_default;
    SkifCh *ch;
    netaddr_t *addr; /* world rank -> address of its MPI channel */
    struct comm **comms;
    int ncomms;
    uint64_t used_ids[MASK_WORDS];
    struct skifmpi_req *posted, **posted_tail;
    struct unexp *unexp, **unexp_tail;
    struct skifmpi_req *push; /* sends whose CTS came, DATA to go */
    struct skifmpi_req *free_reqs;
    struct lpkt *local, **local_tail;
    struct timespec t0;
    int thread;
    /* per world rank: where its CONT packets go (a receive or an
     * unexpected message), NULL when none is expected */
    struct sink {
        struct skifmpi_req *r;
        struct unexp *u;
    } * sink;
    /* per world rank: eager messages waiting to leave as one PACK packet
     * (allocated at the first); npack: ranks with such messages */
    struct pack {
        int n;
        size_t len;
        _Alignas(8) char buf[PACK_MAX];
    } * *pack;
    int npack, nopack;           /* nopack: SKIFMPI_PACK=0 */
    unsigned long packed, packs; /* messages sent in PACK packets, PACK packets */
} g = {.posted_tail = &g.posted, .unexp_tail = &g.unexp, .local_tail = &g.local};

static const struct coll_ops sw_coll;
static void hw_init(void);
static void hw_fini(void);

static const int type_size[] = {[MPI_CHAR] = 1,
                                [MPI_SIGNED_CHAR] = 1,
                                [MPI_UNSIGNED_CHAR] = 1,
                                [MPI_BYTE] = 1,
                                [MPI_SHORT] = sizeof(short),
                                [MPI_INT] = sizeof(int),
                                [MPI_UNSIGNED] = sizeof(unsigned),
                                [MPI_LONG] = sizeof(long),
                                [MPI_UNSIGNED_LONG] = sizeof(unsigned long),
                                [MPI_LONG_LONG] = sizeof(long long),
                                [MPI_FLOAT] = sizeof(float),
                                [MPI_DOUBLE] = sizeof(double)};
#define NTYPES ((int)(sizeof(type_size) / sizeof(type_size[0])))

/* ------------------------------------------------------------ errors */
static const char *const err_names[] = {
    "MPI_SUCCESS",   "MPI_ERR_BUFFER", "MPI_ERR_COUNT",     "MPI_ERR_TYPE",
    "MPI_ERR_TAG",   "MPI_ERR_COMM",   "MPI_ERR_RANK",      "MPI_ERR_REQUEST",
    "MPI_ERR_ROOT",  "MPI_ERR_GROUP",  "MPI_ERR_OP",        "MPI_ERR_TOPOLOGY",
    "MPI_ERR_DIMS",  "MPI_ERR_ARG",    "MPI_ERR_UNKNOWN",   "MPI_ERR_TRUNCATE",
    "MPI_ERR_OTHER", "MPI_ERR_INTERN", "MPI_ERR_IN_STATUS", "MPI_ERR_PENDING"};
static const char *const err_texts[] = {
    "no error",
    "invalid buffer pointer",
    "invalid count argument",
    "invalid datatype",
    "invalid tag",
    "invalid communicator",
    "invalid rank",
    "invalid request",
    "invalid root",
    "invalid group",
    "invalid reduction operation",
    "invalid topology",
    "invalid dimensions",
    "invalid argument",
    "unknown error",
    "message truncated: the receive buffer is smaller than the message",
    "other error",
    "internal error",
    "error code is in status",
    "pending request"};

static int comm_ok(MPI_Comm c)
{
    return c > 0 && c < g.ncomms && g.comms[c] && g.comms[c]->used;
}

static void die_line(const char *fn, const char *cls, const char *why)
{
    fflush(stdout);
    int rank = g.init || g.finalized ? g.rank : SkifCh_Rank();
    if (rank >= 0)
        fprintf(stderr, "MPI error: %s on rank %d: %s: %s\n", fn, rank, cls, why);
    else
        fprintf(stderr, "MPI error: %s: %s: %s\n", fn, cls, why);
    fflush(stderr);
    _exit(1);
}

/* Report error class `cls` of call `fn` on communicator `c` (its handler, or
 * MPI_COMM_WORLD's): fatal, or return cls. */
static int fail(MPI_Comm c, const char *fn, int cls, const char *fmt, ...)
{
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    int errh = MPI_ERRORS_ARE_FATAL;
    if (g.init && comm_ok(c))
        errh = g.comms[c]->errh;
    else if (g.init && comm_ok(MPI_COMM_WORLD))
        errh = g.comms[MPI_COMM_WORLD]->errh;
    else if (g.finalized)
        errh = g.errh_world_default;
    if (errh == MPI_ERRORS_RETURN)
        return cls;
    die_line(fn, err_names[cls], why);
    return cls;
}

static void internal(const char *what)
{
    die_line("skifmpi", "MPI_ERR_INTERN", what);
}

/* The checks every call starts with. */
#define CHECK_INIT(fn)                                                                             \
    do {                                                                                           \
        if (!g.init)                                                                               \
            return fail(MPI_COMM_WORLD, fn, MPI_ERR_OTHER,                                         \
                        g.finalized ? "called after MPI_Finalize" : "called before MPI_Init");     \
    } while (0)
#define CHECK_COMM(fn, c)                                                                          \
    do {                                                                                           \
        CHECK_INIT(fn);                                                                            \
        if (!comm_ok(c))                                                                           \
            return fail(MPI_COMM_WORLD, fn, MPI_ERR_COMM, "invalid communicator %d", (int)(c));    \
    } while (0)

static int check_buf(MPI_Comm c, const char *fn, const void *buf, int count, MPI_Datatype t)
{
    if (count < 0)
        return fail(c, fn, MPI_ERR_COUNT, "negative count %d", count);
    if (t <= 0 || t >= NTYPES)
        return fail(c, fn, MPI_ERR_TYPE, "invalid datatype %d", (int)t);
    if (!buf && count > 0)
        return fail(c, fn, MPI_ERR_BUFFER, "NULL buffer with count %d", count);
    return MPI_SUCCESS;
}

static int check_dst(MPI_Comm c, const char *fn, int dst, int tag, int recv)
{
    int size = g.comms[c]->size;
    if (!(dst >= 0 && dst < size) && dst != MPI_PROC_NULL && !(recv && dst == MPI_ANY_SOURCE))
        return fail(c, fn, MPI_ERR_RANK, "invalid %s rank %d (communicator size %d)",
                    recv ? "source" : "destination", dst, size);
    if (!(tag >= 0 && tag <= MPI_TAG_UB_VALUE) && !(recv && tag == MPI_ANY_TAG))
        return fail(c, fn, MPI_ERR_TAG, "invalid tag %d (0..%d%s)", tag, MPI_TAG_UB_VALUE,
                    recv ? " or MPI_ANY_TAG" : "");
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ requests */
static struct skifmpi_req *req_new(int kind, int comm)
{
    struct skifmpi_req *r = g.free_reqs;
    if (r)
        g.free_reqs = r->next;
    else if (!(r = aligned_alloc(16, sizeof(*r))))
        internal("out of memory for a request");
    memset(r, 0, sizeof(*r));
    r->kind = kind;
    r->comm = comm;
    return r;
}

static void req_release(struct skifmpi_req *r)
{
    r->next = g.free_reqs;
    g.free_reqs = r;
}

static void complete(struct skifmpi_req *r)
{
    r->done = 1;
    if (r->freed)
        req_release(r);
}

/* ------------------------------------------------------------ packets */
static void skif_fatal(const char *call)
{
    char why[160];
    snprintf(why, sizeof(why), "%s: %s", call, strerror(errno));
    internal(why);
}

/* Send the messages packed for world rank dst: 1 when they are gone (or
 * there were none), 0 when the TX ring is full and `wait` is 0. One message
 * leaves as a plain EAGER packet. */
static int flush_pack(int dst, int wait)
{
    struct pack *k = g.pack ? g.pack[dst] : NULL;
    if (!k || !k->n)
        return 1;
    struct iovec iov = {k->buf, k->len};
    if (k->n == 1) { /* the EAGER packet after the PACK word, without padding */
        uint64_t w0;
        memcpy(&w0, k->buf, 8);
        iov.iov_base = k->buf + 8;
        iov.iov_len = 8 + (size_t)(w0 >> 8 & 255);
    }
    while (SkifCh_Send(g.ch, g.addr[dst], &iov, 1) < 0) {
        if (errno != EAGAIN)
            skif_fatal("SkifCh_Send");
        if (!wait)
            return 0;
    }
    if (k->n > 1) {
        g.packed += (unsigned long)k->n;
        g.packs++;
    }
    k->n = 0;
    g.npack--;
    return 1;
}

/* Flush every rank's packed messages (wait: until they are gone). */
static void flush_packs(int wait)
{
    for (int i = 0; g.npack && i < g.size; i++)
        flush_pack(i, wait);
}

/* Send one packet of at most 512 bytes (sent whole) to world rank dst,
 * after the messages packed for it. */
static void send_pkt(int dst, const struct iovec *iov, int n)
{
    if (dst == g.rank) {
        size_t len = 0;
        for (int i = 0; i < n; i++)
            len += iov[i].iov_len;
        struct lpkt *p = malloc(sizeof(*p) + len);
        if (!p)
            internal("out of memory for a local packet");
        p->next = NULL;
        p->len = len;
        size_t at = 0;
        for (int i = 0; i < n; i++) {
            if (iov[i].iov_len)
                memcpy(p->data + at, iov[i].iov_base, iov[i].iov_len);
            at += iov[i].iov_len;
        }
        *g.local_tail = p;
        g.local_tail = &p->next;
        return;
    }
    flush_pack(dst, 1);
    while (SkifCh_Send(g.ch, g.addr[dst], iov, n) < 0)
        if (errno != EAGAIN)
            skif_fatal("SkifCh_Send");
}

/* Put an eager message (word0 w0, bytes <= PACK_DATA) into world rank
 * dst's PACK packet, after sending what was packed for dst if it is full. */
static void pack_add(int dst, uint64_t w0, const void *buf, size_t bytes)
{
    struct pack *k = g.pack ? g.pack[dst] : NULL;
    size_t need = 8 + ((bytes + 7) & ~(size_t)7);
    if (k && k->n && (k->n == PACK_MSGS || k->len + need > PACK_MAX))
        flush_pack(dst, 1);
    if (!k || !k->n) {
        if (!g.pack && !(g.pack = calloc((size_t)g.size, sizeof(*g.pack))))
            internal("out of memory for packed messages");
        if (!(k = g.pack[dst]) && !(k = g.pack[dst] = malloc(sizeof(*k))))
            internal("out of memory for packed messages");
        k->n = 0;
        k->len = 8;
        g.npack++;
    }
    uint64_t pw = T_PACK;
    if (k->n)
        memcpy(&pw, k->buf, 8);
    pw = (pw & ~(uint64_t)0xf0) | (uint64_t)(k->n + 1) << 4 | (uint64_t)bytes << (8 + 8 * k->n);
    memcpy(k->buf, &pw, 8);
    memcpy(k->buf + k->len, &w0, 8);
    if (bytes)
        memcpy(k->buf + k->len + 8, buf, bytes);
    k->len += need;
    k->n++;
}

/* An eager message of `bytes` <= EAGER_MAX to world rank dst: sent at once
 * when the TX ring takes it; a short one (PACK_DATA) finding the ring full,
 * or other messages already packed for dst, goes into dst's PACK packet,
 * which leaves when it is full, at the next progress() that finds room, or
 * before anything else goes to dst (so per-pair order is kept). */
static void send_eager(int dst, uint64_t w0, const void *buf, size_t bytes)
{
    struct iovec iov[2] = {{&w0, 8}, {(void *)(uintptr_t)buf, bytes}};
    if (dst == g.rank || bytes > PACK_DATA || g.nopack) {
        send_pkt(dst, iov, 2);
        return;
    }
    if (!g.pack || !g.pack[dst] || !g.pack[dst]->n) {
        if (SkifCh_Send(g.ch, g.addr[dst], iov, 2) >= 0)
            return;
        if (errno != EAGAIN)
            skif_fatal("SkifCh_Send");
    }
    pack_add(dst, w0, buf, bytes);
}

static int match(uint32_t ctx, int src, int tag, uint32_t rctx, int rsrc, int rtag)
{
    return ctx == rctx && (rsrc == src || rsrc == MPI_ANY_SOURCE) &&
           (rtag == tag || rtag == MPI_ANY_TAG);
}

static void set_status(struct skifmpi_req *r, int src, int tag, size_t len)
{
    r->st.MPI_SOURCE = src;
    r->st.MPI_TAG = tag;
    r->st.skifmpi_bytes = (long long)len;
    r->st.MPI_ERROR = len > r->cap ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    r->len = len;
}

static void send_cts(int src_world, uint64_t sreq, struct skifmpi_req *r)
{
    uint64_t w[2] = {sreq | T_CTS, (uint64_t)(uintptr_t)r};
    struct iovec iov = {w, sizeof(w)};
    send_pkt(src_world, &iov, 1);
}

/* A receive matched an RTS: ask for the data. */
static void start_rndv(struct skifmpi_req *r, int src, int tag, size_t len, int src_world,
                       uint64_t sreq)
{
    set_status(r, src, tag, len);
    r->got = 0;
    send_cts(src_world, sreq, r);
    if (len == 0)
        complete(r);
}

/* Handle one packet (len bytes at p, 8-byte aligned). */
static void handle(const char *p, size_t len)
{
    uint64_t w0;
    memcpy(&w0, p, 8);
    uint32_t type = (uint32_t)(w0 & 15);
    if (type == T_EAGER || type == T_RTS || type == T_EAGERL) {
        uint32_t ctx = (uint32_t)(w0 >> 4) & 0xfff;
        int src = (int)((w0 >> 16) & 0xffff), tag = (int)(uint32_t)(w0 >> 32);
        size_t mlen = len - 8;
        uint64_t sreq = 0;
        int src_world = -1;
        const char *data = p + 8;
        size_t chunk = mlen;
        if (type != T_EAGER) {
            uint64_t w1;
            memcpy(&w1, p + 8, 8);
            mlen = (size_t)(w1 & LEN_MASK);
            src_world = (int)(w1 >> 48);
            if (type == T_RTS) {
                memcpy(&sreq, p + 16, 8);
            } else {
                data = p + 16;
                chunk = len - 16;
            }
        }
        struct skifmpi_req **pp = &g.posted, *r;
        for (; (r = *pp); pp = &r->next)
            if (match(ctx, src, tag, r->ctx, r->src, r->tag))
                break;
        if (r) {
            *pp = r->next;
            if (!r->next)
                g.posted_tail = pp;
            if (type == T_EAGER) {
                set_status(r, src, tag, mlen);
                if (mlen)
                    memcpy(r->buf, data, mlen > r->cap ? r->cap : mlen);
                complete(r);
            } else if (type == T_EAGERL) {
                set_status(r, src, tag, mlen);
                memcpy(r->buf, data, chunk > r->cap ? r->cap : chunk);
                r->got = chunk;
                g.sink[src_world].r = r;
            } else {
                start_rndv(r, src, tag, mlen, src_world, sreq);
            }
            return;
        }
        struct unexp *u = malloc(sizeof(*u) + (type != T_RTS ? mlen : 0));
        if (!u)
            internal("out of memory for the unexpected queue");
        u->next = NULL;
        u->type = type;
        u->ctx = ctx;
        u->src = src;
        u->tag = tag;
        u->len = mlen;
        u->got = mlen;
        u->sreq = sreq;
        u->src_world = src_world;
        if (type == T_EAGER && mlen)
            memcpy(u->data, data, mlen);
        if (type == T_EAGERL) {
            memcpy(u->data, data, chunk);
            u->type = T_EAGER;
            u->got = chunk;
            g.sink[src_world].u = u;
        }
        *g.unexp_tail = u;
        g.unexp_tail = &u->next;
    } else if (type == T_PACK) {
        int cnt = (int)(w0 >> 4 & 15);
        size_t off = 8;
        for (int i = 0; i < cnt; i++) {
            size_t n = (size_t)(w0 >> (8 + 8 * i) & 255);
            if (cnt > PACK_MSGS || off + 8 + n > len)
                internal("a corrupt packed packet");
            handle(p + off, 8 + n);
            off += 8 + ((n + 7) & ~(size_t)7);
        }
    } else if (type == T_CONT) {
        struct sink *k = &g.sink[(w0 >> 4) & 0xffff];
        size_t n = len - 8;
        if (k->r) {
            struct skifmpi_req *r = k->r;
            if (r->got < r->cap)
                memcpy(r->buf + r->got, p + 8, n < r->cap - r->got ? n : r->cap - r->got);
            r->got += n;
            if (r->got >= r->len) {
                k->r = NULL;
                complete(r);
            }
        } else if (k->u) {
            memcpy(k->u->data + k->u->got, p + 8, n);
            k->u->got += n;
            if (k->u->got >= k->u->len)
                k->u = NULL;
        } else {
            internal("a continuation packet for no message");
        }
    } else if (type == T_CTS) {
        struct skifmpi_req *s = (struct skifmpi_req *)(uintptr_t)(w0 & ~(uint64_t)15);
        memcpy(&s->rreq, p + 8, 8);
        if (s->slen == 0) {
            complete(s);
        } else {
            s->next = g.push;
            g.push = s;
        }
    } else if (type == T_DATA) {
        struct skifmpi_req *r = (struct skifmpi_req *)(uintptr_t)(w0 & ~(uint64_t)15);
        size_t n = len - 8;
        if (r->got < r->cap)
            memcpy(r->buf + r->got, p + 8, n < r->cap - r->got ? n : r->cap - r->got);
        r->got += n;
        if (r->got >= r->len)
            complete(r);
    } else {
        internal("a corrupt packet");
    }
}

/* Push DATA of the sends whose CTS came; 1 if a SkifCh_Send was refused
 * (time advanced). */
static int push_data(void)
{
    struct skifmpi_req **pp = &g.push, *s;
    while ((s = *pp)) {
        while (s->sent < s->slen) {
            size_t n = s->slen - s->sent;
            if (n > DATA_MAX)
                n = DATA_MAX;
            uint64_t w0 = s->rreq | T_DATA;
            struct iovec iov[2] = {{&w0, 8}, {(void *)(uintptr_t)(s->sbuf + s->sent), n}};
            if (s->dst_world == g.rank) {
                send_pkt(g.rank, iov, 2);
                s->sent += n;
                continue;
            }
            ssize_t r = SkifCh_Send(g.ch, g.addr[s->dst_world], iov, 2);
            if (r < 0) {
                if (errno != EAGAIN)
                    skif_fatal("SkifCh_Send");
                return 1;
            }
            s->sent += (size_t)r - 8;
        }
        *pp = s->next;
        complete(s);
    }
    return 0;
}

static void handle_ring(const struct iovec *cont, int parts, ssize_t n);

/* One step of progress: push data, then take one packet (waiting for one,
 * i.e. letting simulated time run, when none is there). */
static void progress(void)
{
    if (g.npack)
        flush_packs(0);
    int pushed = g.push != NULL;
    if (pushed)
        push_data();
    if (g.local) {
        struct lpkt *p = g.local;
        g.local = p->next;
        if (!g.local)
            g.local_tail = &g.local;
        handle(p->data, p->len);
        free(p);
        return;
    }
    if (g.singleton) {
        if (!pushed)
            die_line("MPI", "MPI_ERR_OTHER",
                     "deadlock: waiting for a message no rank will send (one rank alone)");
        return;
    }
    struct iovec cont[SKIFCH_CONT_SIZE];
    int parts;
    ssize_t n = SkifCh_Recv(g.ch, cont, &parts);
    if (n < 0) {
        if (errno != EAGAIN)
            skif_fatal("SkifCh_Recv");
        return;
    }
    handle_ring(cont, parts, n);
}

/* Handle the packet SkifCh_Recv returned and complete it. */
static void handle_ring(const struct iovec *cont, int parts, ssize_t n)
{
    if (parts == 1 && ((uintptr_t)cont[0].iov_base & 7) == 0) {
        handle(cont[0].iov_base, (size_t)n);
    } else {
        static _Alignas(8) char tmp[SKIFCH_MAX_MSG];
        size_t at = 0;
        for (int i = 0; i < parts; i++) {
            memcpy(tmp + at, cont[i].iov_base, cont[i].iov_len);
            at += cont[i].iov_len;
        }
        handle(tmp, at);
    }
    if (SkifCh_RecvComp(g.ch) < 0)
        skif_fatal("SkifCh_RecvComp");
}

static void wait_req(struct skifmpi_req *r)
{
    while (!r->done)
        progress();
}

/* ------------------------------------------------------------ internal p2p */
/* Start a send of bytes at buf to comm rank dst on context ctx; returns the
 * request (done already for an eager send) or NULL when it is done. */
static struct skifmpi_req *isend_raw(struct comm *c, uint32_t ctx, const void *buf, size_t bytes,
                                     int dst, int tag, int sync, int want_req, int comm_h)
{
    int dw = c->world[dst];
    uint64_t w0 = (uint64_t)ctx << 4 | (uint64_t)c->rank << 16 | (uint64_t)(uint32_t)tag << 32;
    if (bytes <= EAGER_MAX && !sync) {
        send_eager(dw, w0 | T_EAGER, buf, bytes);
        if (!want_req)
            return NULL;
        struct skifmpi_req *r = req_new(R_SEND, comm_h);
        r->done = 1;
        return r;
    }
    if (bytes <= MEDIUM_MAX && !sync) {
        /* several packets of at most 512 bytes, sent back to back */
        uint64_t w[2] = {w0 | T_EAGERL, bytes | (uint64_t)g.rank << 48};
        struct iovec iov[2] = {{w, 16}, {(void *)(uintptr_t)buf, 512 - 16}};
        send_pkt(dw, iov, 2);
        uint64_t c0 = T_CONT | (uint64_t)g.rank << 4;
        for (size_t at = 512 - 16; at < bytes; at += 512 - 8) {
            size_t n = bytes - at < 512 - 8 ? bytes - at : 512 - 8;
            struct iovec ci[2] = {{&c0, 8}, {(void *)(uintptr_t)((const char *)buf + at), n}};
            send_pkt(dw, ci, 2);
        }
        if (!want_req)
            return NULL;
        struct skifmpi_req *r = req_new(R_SEND, comm_h);
        r->done = 1;
        return r;
    }
    struct skifmpi_req *r = req_new(R_SEND, comm_h);
    r->sbuf = buf;
    r->slen = bytes;
    r->dst_world = dw;
    uint64_t w[3] = {w0 | T_RTS, bytes | (uint64_t)g.rank << 48, (uint64_t)(uintptr_t)r};
    struct iovec iov = {w, sizeof(w)};
    send_pkt(dw, &iov, 1);
    return r;
}

static void send_raw(struct comm *c, uint32_t ctx, const void *buf, size_t bytes, int dst, int tag,
                     int sync)
{
    struct skifmpi_req *r = isend_raw(c, ctx, buf, bytes, dst, tag, sync, 0, 0);
    if (r) {
        wait_req(r);
        req_release(r);
    }
}

/* Post a receive (the unexpected queue first). */
static void irecv_post(struct skifmpi_req *r, void *buf, size_t cap, uint32_t ctx, int src, int tag)
{
    r->buf = buf;
    r->cap = cap;
    r->ctx = ctx;
    r->src = src;
    r->tag = tag;
    struct unexp **pp = &g.unexp, *u;
    for (; (u = *pp); pp = &u->next)
        if (match(u->ctx, u->src, u->tag, ctx, src, tag))
            break;
    if (u && u->got < u->len) {
        /* its last packets are on their way (the sender sends them back
         * to back): take them, then find the entry again */
        while (u->got < u->len)
            progress();
        for (pp = &g.unexp; *pp != u; pp = &(*pp)->next)
            ;
    }
    if (u) {
        *pp = u->next;
        if (!u->next)
            g.unexp_tail = pp;
        if (u->type == T_EAGER) {
            set_status(r, u->src, u->tag, u->len);
            if (u->len)
                memcpy(r->buf, u->data, u->len > cap ? cap : u->len);
            complete(r);
        } else {
            start_rndv(r, u->src, u->tag, u->len, u->src_world, u->sreq);
        }
        free(u);
        return;
    }
    r->next = NULL;
    *g.posted_tail = r;
    g.posted_tail = &r->next;
}

static struct skifmpi_req *irecv_raw(struct comm *c, uint32_t ctx, void *buf, size_t cap, int src,
                                     int tag, int comm_h)
{
    (void)c;
    struct skifmpi_req *r = req_new(R_RECV, comm_h);
    irecv_post(r, buf, cap, ctx, src, tag);
    return r;
}

static void recv_raw(struct comm *c, uint32_t ctx, void *buf, size_t cap, int src, int tag)
{
    struct skifmpi_req r = {.kind = R_RECV};
    (void)c;
    irecv_post(&r, buf, cap, ctx, src, tag);
    wait_req(&r);
    if (r.st.MPI_ERROR)
        internal("a collective message longer than expected");
}

static void status_out(MPI_Status *st, const MPI_Status *from)
{
    if (st && st != MPI_STATUS_IGNORE)
        *st = *from;
}

static void status_null(MPI_Status *st)
{
    MPI_Status s = {MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0};
    status_out(st, &s);
}

/* ------------------------------------------------------------ environment */
static void at_exit(void)
{
    if (g.init && !g.finalized) {
        fflush(stdout);
        fprintf(stderr,
                "MPI error: rank %d: the program ended (returned from main or called exit) "
                "without MPI_Finalize\n",
                g.rank);
        fflush(stderr);
        _exit(1);
    }
}

static struct comm *comm_new(int id, int rank, int size, int *world)
{
    struct comm *c = calloc(1, sizeof(*c));
    if (!c)
        internal("out of memory for a communicator");
    c->used = 1;
    c->id = id;
    c->rank = rank;
    c->size = size;
    c->world = world;
    c->errh = MPI_ERRORS_ARE_FATAL;
    c->coll = &sw_coll;
    g.used_ids[id / 64] |= 1ull << (id % 64);
    return c;
}

static int comm_add(struct comm *c)
{
    for (int i = 3; i < g.ncomms; i++)
        if (!g.comms[i]) {
            g.comms[i] = c;
            return i;
        }
    struct comm **n = realloc(g.comms, sizeof(*n) * (size_t)(g.ncomms + 1));
    if (!n)
        internal("out of memory for a communicator");
    g.comms = n;
    g.comms[g.ncomms] = c;
    return g.ncomms++;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    if (g.init || g.finalized)
        return fail(MPI_COMM_WORLD, "MPI_Init", MPI_ERR_OTHER,
                    g.init ? "MPI is already initialized" : "called after MPI_Finalize");
    clock_gettime(CLOCK_MONOTONIC, &g.t0);
    int rank = SkifCh_Rank();
    if (rank < 0) {
        g.singleton = 1;
        g.rank = 0;
        g.size = 1;
    } else {
        g.rank = rank;
        g.size = SkifCh_Size();
        g.ch = SkifCh_Open(SKIFMPI_CHANNEL);
        if (!g.ch || g.size < 1) {
            char why[128];
            snprintf(why, sizeof(why), "SkifCh_Open(%d): %s", SKIFMPI_CHANNEL, strerror(errno));
            die_line("MPI_Init", "MPI_ERR_OTHER", why);
        }
        g.addr = malloc(sizeof(*g.addr) * (size_t)g.size);
        if (!g.addr)
            internal("out of memory");
        for (int i = 0; i < g.size; i++)
            g.addr[i] = SkifCh_Addr(i, SKIFMPI_CHANNEL);
    }
    g.ncomms = 3;
    g.comms = calloc(3, sizeof(*g.comms));
    g.sink = calloc((size_t)g.size, sizeof(*g.sink));
    if (!g.sink)
        internal("out of memory");
    int *ww = malloc(sizeof(int) * (size_t)g.size), *sw = malloc(sizeof(int));
    if (!g.comms || !ww || !sw)
        internal("out of memory");
    for (int i = 0; i < g.size; i++)
        ww[i] = i;
    sw[0] = g.rank;
    g.comms[MPI_COMM_WORLD] = comm_new(0, g.rank, g.size, ww);
    g.comms[MPI_COMM_SELF] = comm_new(1, 0, 1, sw);
    g.thread = required < MPI_THREAD_SINGLE       ? MPI_THREAD_SINGLE
               : required > MPI_THREAD_SERIALIZED ? MPI_THREAD_SERIALIZED
                                                  : required;
    if (provided)
        *provided = g.thread;
    g.init = 1;
    const char *pk = getenv("SKIFMPI_PACK");
    g.nopack = pk && strcmp(pk, "0") == 0;
    hw_init();
    atexit(at_exit);
    return MPI_SUCCESS;
}

int MPI_Init(int *argc, char ***argv)
{
    return MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, NULL);
}

int MPI_Query_thread(int *provided)
{
    CHECK_INIT("MPI_Query_thread");
    if (!provided)
        return fail(MPI_COMM_WORLD, "MPI_Query_thread", MPI_ERR_ARG, "NULL provided");
    *provided = g.thread;
    return MPI_SUCCESS;
}

int MPI_Initialized(int *flag)
{
    if (!flag)
        return fail(MPI_COMM_WORLD, "MPI_Initialized", MPI_ERR_ARG, "NULL flag");
    *flag = g.init || g.finalized;
    return MPI_SUCCESS;
}

int MPI_Finalized(int *flag)
{
    if (!flag)
        return fail(MPI_COMM_WORLD, "MPI_Finalized", MPI_ERR_ARG, "NULL flag");
    *flag = g.finalized;
    return MPI_SUCCESS;
}

static void free_all(void)
{
    if (g.pack)
        for (int i = 0; i < g.size; i++)
            free(g.pack[i]);
    free(g.pack);
    g.pack = NULL;
    g.npack = 0;
    for (int i = 0; i < g.ncomms; i++)
        if (g.comms[i]) {
            free(g.comms[i]->world);
            free(g.comms[i]);
        }
    free(g.comms);
    g.comms = NULL;
    g.ncomms = 0;
    while (g.unexp) {
        struct unexp *u = g.unexp;
        g.unexp = u->next;
        free(u);
    }
    g.unexp_tail = &g.unexp;
    while (g.free_reqs) {
        struct skifmpi_req *r = g.free_reqs;
        g.free_reqs = r->next;
        free(r);
    }
    free(g.addr);
    g.addr = NULL;
    free(g.sink);
    g.sink = NULL;
}

int MPI_Finalize(void)
{
    CHECK_INIT("MPI_Finalize");
    struct comm *w = g.comms[MPI_COMM_WORLD];
    flush_packs(1);
    w->coll->barrier(w);
    while (g.push || g.local)
        progress();
    g.errh_world_default = w->errh;
    hw_fini();
    if (g.ch && SkifCh_Close(g.ch) < 0)
        skif_fatal("SkifCh_Close");
    g.ch = NULL;
    free_all();
    g.init = 0;
    g.finalized = 1;
    return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
    (void)comm;
    fflush(stdout);
    fprintf(stderr, "MPI_Abort: rank %d aborts the job with error code %d\n", g.rank, errorcode);
    fflush(stderr);
    _exit(errorcode & 255 ? errorcode & 255 : 1);
}

int MPI_Get_processor_name(char *name, int *resultlen)
{
    CHECK_INIT("MPI_Get_processor_name");
    if (!name || !resultlen)
        return fail(MPI_COMM_WORLD, "MPI_Get_processor_name", MPI_ERR_ARG, "NULL argument");
    int co[4] = {0, 0, 0, 0};
    if (!g.singleton)
        SkifCh_Coords(g.rank, co);
    int n = snprintf(name, MPI_MAX_PROCESSOR_NAME, "skif-node%d(%d,%d,%d,%d)", g.rank, co[0], co[1],
                     co[2], co[3]);
    *resultlen = n < MPI_MAX_PROCESSOR_NAME ? n : MPI_MAX_PROCESSOR_NAME - 1;
    return MPI_SUCCESS;
}

int MPI_Get_version(int *version, int *subversion)
{
    if (!version || !subversion)
        return fail(MPI_COMM_WORLD, "MPI_Get_version", MPI_ERR_ARG, "NULL argument");
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

double MPI_Wtime(void)
{
    if (g.ch) {
        unsigned mhz = SkifCh_ClockMHz(g.ch);
        return (double)SkifCh_Cycle(g.ch) / ((mhz ? mhz : 250) * 1e6);
    }
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - g.t0.tv_sec) + (t.tv_nsec - g.t0.tv_nsec) * 1e-9;
}

double MPI_Wtick(void)
{
    if (g.ch) {
        unsigned mhz = SkifCh_ClockMHz(g.ch);
        return 1.0 / ((mhz ? mhz : 250) * 1e6);
    }
    return 1e-9;
}

int MPI_Error_string(int errorcode, char *string, int *resultlen)
{
    if (!string || !resultlen)
        return fail(MPI_COMM_WORLD, "MPI_Error_string", MPI_ERR_ARG, "NULL argument");
    if (errorcode < 0 || errorcode > MPI_ERR_LASTCODE)
        return fail(MPI_COMM_WORLD, "MPI_Error_string", MPI_ERR_ARG, "unknown error code %d",
                    errorcode);
    int n = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", err_names[errorcode],
                     err_texts[errorcode]);
    *resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    return MPI_SUCCESS;
}

int MPI_Error_class(int errorcode, int *errorclass)
{
    if (!errorclass || errorcode < 0 || errorcode > MPI_ERR_LASTCODE)
        return fail(MPI_COMM_WORLD, "MPI_Error_class", MPI_ERR_ARG, "unknown error code %d",
                    errorcode);
    *errorclass = errorcode;
    return MPI_SUCCESS;
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    CHECK_COMM("MPI_Comm_set_errhandler", comm);
    if (errhandler != MPI_ERRORS_ARE_FATAL && errhandler != MPI_ERRORS_RETURN)
        return fail(comm, "MPI_Comm_set_errhandler", MPI_ERR_ARG, "invalid error handler %d",
                    errhandler);
    g.comms[comm]->errh = errhandler;
    return MPI_SUCCESS;
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    CHECK_COMM("MPI_Comm_get_errhandler", comm);
    if (!errhandler)
        return fail(comm, "MPI_Comm_get_errhandler", MPI_ERR_ARG, "NULL errhandler");
    *errhandler = g.comms[comm]->errh;
    return MPI_SUCCESS;
}

int MPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    if (!errhandler)
        return fail(MPI_COMM_WORLD, "MPI_Errhandler_free", MPI_ERR_ARG, "NULL errhandler");
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    static int tag_ub = MPI_TAG_UB_VALUE;
    CHECK_COMM("MPI_Comm_get_attr", comm);
    if (!attribute_val || !flag)
        return fail(comm, "MPI_Comm_get_attr", MPI_ERR_ARG, "NULL argument");
    *flag = keyval == MPI_TAG_UB;
    if (*flag)
        *(int **)attribute_val = &tag_ub;
    return MPI_SUCCESS;
}

int MPI_Type_size(MPI_Datatype datatype, int *size)
{
    CHECK_INIT("MPI_Type_size");
    if (datatype <= 0 || datatype >= NTYPES)
        return fail(MPI_COMM_WORLD, "MPI_Type_size", MPI_ERR_TYPE, "invalid datatype %d", datatype);
    if (!size)
        return fail(MPI_COMM_WORLD, "MPI_Type_size", MPI_ERR_ARG, "NULL size");
    *size = type_size[datatype];
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ point to point */
static int send_common(const char *fn, const void *buf, int count, MPI_Datatype t, int dest,
                       int tag, MPI_Comm comm, int sync, MPI_Request *req)
{
    CHECK_COMM(fn, comm);
    int e;
    if ((e = check_buf(comm, fn, buf, count, t)) || (e = check_dst(comm, fn, dest, tag, 0)))
        return e;
    struct comm *c = g.comms[comm];
    size_t bytes = (size_t)count * (size_t)type_size[t];
    if (dest == MPI_PROC_NULL) {
        if (req) {
            *req = req_new(R_SEND, comm);
            (*req)->done = 1;
        }
        return MPI_SUCCESS;
    }
    if (req)
        *req = isend_raw(c, (uint32_t)c->id * 2, buf, bytes, dest, tag, sync, 1, comm);
    else
        send_raw(c, (uint32_t)c->id * 2, buf, bytes, dest, tag, sync);
    return MPI_SUCCESS;
}

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    /* the common case inline: a valid eager send to another rank */
    struct comm *c;
    if (g.ch && (unsigned)comm < (unsigned)g.ncomms && (c = g.comms[comm]) && count >= 0 &&
        datatype > 0 && datatype < NTYPES && (unsigned)dest < (unsigned)c->size && tag >= 0 &&
        (buf || !count)) {
        size_t bytes = (size_t)count * (size_t)type_size[datatype];
        int dw = c->world[dest];
        if (bytes <= EAGER_MAX && dw != g.rank && !g.npack) {
            uint64_t pkt[1 + EAGER_MAX / 8];
            pkt[0] = T_EAGER | (uint64_t)c->id << 5 | (uint64_t)c->rank << 16 |
                     (uint64_t)(uint32_t)tag << 32;
            memcpy(pkt + 1, buf, bytes);
            struct iovec iov = {pkt, 8 + bytes};
            while (SkifCh_Send(g.ch, g.addr[dw], &iov, 1) < 0) {
                if (errno != EAGAIN)
                    skif_fatal("SkifCh_Send");
                if (bytes <= PACK_DATA && !g.nopack) { /* the ring is full: pack */
                    pack_add(dw, pkt[0], buf, bytes);
                    return MPI_SUCCESS;
                }
            }
            return MPI_SUCCESS;
        }
    }
    return send_common("MPI_Send", buf, count, datatype, dest, tag, comm, 0, NULL);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return send_common("MPI_Rsend", buf, count, datatype, dest, tag, comm, 0, NULL);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return send_common("MPI_Ssend", buf, count, datatype, dest, tag, comm, 1, NULL);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    if (!request)
        return fail(comm, "MPI_Isend", MPI_ERR_REQUEST, "NULL request pointer");
    return send_common("MPI_Isend", buf, count, datatype, dest, tag, comm, 0, request);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    if (!request)
        return fail(comm, "MPI_Issend", MPI_ERR_REQUEST, "NULL request pointer");
    return send_common("MPI_Issend", buf, count, datatype, dest, tag, comm, 1, request);
}

static int recv_check(const char *fn, void *buf, int count, MPI_Datatype t, int source, int tag,
                      MPI_Comm comm)
{
    CHECK_COMM(fn, comm);
    int e;
    if ((e = check_buf(comm, fn, buf, count, t)) || (e = check_dst(comm, fn, source, tag, 1)))
        return e;
    return MPI_SUCCESS;
}

static int truncated(MPI_Comm comm, const char *fn, const struct skifmpi_req *r)
{
    return fail(comm, fn, MPI_ERR_TRUNCATE,
                "message of %zu bytes from rank %d (tag %d) into a buffer of %zu bytes", r->len,
                r->st.MPI_SOURCE, r->st.MPI_TAG, r->cap);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    /* the common case inline: valid arguments, nothing queued: take the next
     * packet straight from the ring, and if it is an eager message this
     * receive matches, copy it out; anything else goes the general way */
    struct comm *c;
    if (g.ch && !g.unexp && !g.posted && !g.push && !g.local &&
        (unsigned)comm < (unsigned)g.ncomms && (c = g.comms[comm]) && count >= 0 && datatype > 0 &&
        datatype < NTYPES && ((unsigned)source < (unsigned)c->size || source == MPI_ANY_SOURCE) &&
        (tag >= 0 || tag == MPI_ANY_TAG) && (buf || !count)) {
        size_t cap = (size_t)count * (size_t)type_size[datatype];
        struct iovec cont[SKIFCH_CONT_SIZE];
        int parts;
        ssize_t n;
        while ((n = SkifCh_Recv(g.ch, cont, &parts)) < 0)
            if (errno != EAGAIN)
                skif_fatal("SkifCh_Recv");
        uint64_t w0;
        memcpy(&w0, cont[0].iov_base, 8);
        int hsrc = (int)((w0 >> 16) & 0xffff), htag = (int)(uint32_t)(w0 >> 32);
        size_t len = (size_t)n - 8;
        if (parts == 1 && (w0 & 15) == T_EAGER && ((w0 >> 4) & 0xfff) == (uint64_t)c->id * 2 &&
            (source == hsrc || source == MPI_ANY_SOURCE) && (tag == htag || tag == MPI_ANY_TAG) &&
            len <= cap) {
            if (len)
                memcpy(buf, (const char *)cont[0].iov_base + 8, len);
            if (SkifCh_RecvComp(g.ch) < 0)
                skif_fatal("SkifCh_RecvComp");
            if (status != MPI_STATUS_IGNORE && status) {
                status->MPI_SOURCE = hsrc;
                status->MPI_TAG = htag;
                status->MPI_ERROR = MPI_SUCCESS;
                status->skifmpi_cancelled = 0;
                status->skifmpi_bytes = (long long)len;
            }
            return MPI_SUCCESS;
        }
        handle_ring(cont, parts, n);
    }
    int e = recv_check("MPI_Recv", buf, count, datatype, source, tag, comm);
    if (e)
        return e;
    if (source == MPI_PROC_NULL) {
        status_null(status);
        return MPI_SUCCESS;
    }
    c = g.comms[comm];
    struct skifmpi_req r = {.kind = R_RECV, .comm = comm};
    irecv_post(&r, buf, (size_t)count * (size_t)type_size[datatype], (uint32_t)c->id * 2, source,
               tag);
    wait_req(&r);
    status_out(status, &r.st);
    if (r.st.MPI_ERROR)
        return truncated(comm, "MPI_Recv", &r);
    return MPI_SUCCESS;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    if (!request)
        return fail(comm, "MPI_Irecv", MPI_ERR_REQUEST, "NULL request pointer");
    int e = recv_check("MPI_Irecv", buf, count, datatype, source, tag, comm);
    if (e)
        return e;
    if (source == MPI_PROC_NULL) {
        struct skifmpi_req *r = req_new(R_RECV, comm);
        r->done = 1;
        r->st = (MPI_Status){MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0};
        *request = r;
        return MPI_SUCCESS;
    }
    struct comm *c = g.comms[comm];
    *request = irecv_raw(c, (uint32_t)c->id * 2, buf, (size_t)count * (size_t)type_size[datatype],
                         source, tag, comm);
    return MPI_SUCCESS;
}

/* Finish a done request: status out, free it, NULL the handle. Returns the
 * request's error (a truncation). */
static int finish(const char *fn, MPI_Request *request, MPI_Status *status)
{
    struct skifmpi_req *r = *request;
    int e = MPI_SUCCESS;
    if (r->kind == R_RECV) {
        status_out(status, &r->st);
        if (r->st.MPI_ERROR)
            e = truncated(r->comm, fn, r);
    } else if (status && status != MPI_STATUS_IGNORE) {
        *status = (MPI_Status){0, 0, MPI_SUCCESS, 0, 0};
        status->MPI_SOURCE = MPI_ANY_SOURCE;
        status->MPI_TAG = MPI_ANY_TAG;
    }
    req_release(r);
    *request = MPI_REQUEST_NULL;
    return e;
}

static void status_empty(MPI_Status *st)
{
    MPI_Status s = {MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0};
    status_out(st, &s);
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    CHECK_INIT("MPI_Wait");
    if (!request)
        return fail(MPI_COMM_WORLD, "MPI_Wait", MPI_ERR_REQUEST, "NULL request pointer");
    if (!*request) {
        status_empty(status);
        return MPI_SUCCESS;
    }
    wait_req(*request);
    return finish("MPI_Wait", request, status);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    CHECK_INIT("MPI_Test");
    if (!request || !flag)
        return fail(MPI_COMM_WORLD, "MPI_Test", MPI_ERR_ARG, "NULL argument");
    if (!*request) {
        *flag = 1;
        status_empty(status);
        return MPI_SUCCESS;
    }
    if (!(*request)->done)
        progress();
    *flag = (*request)->done;
    return *flag ? finish("MPI_Test", request, status) : MPI_SUCCESS;
}

static MPI_Status *nth_status(MPI_Status *sts, int i)
{
    return sts == MPI_STATUSES_IGNORE || !sts ? MPI_STATUS_IGNORE : &sts[i];
}

int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses)
{
    CHECK_INIT("MPI_Waitall");
    if (count < 0 || (count > 0 && !array_of_requests))
        return fail(MPI_COMM_WORLD, "MPI_Waitall", count < 0 ? MPI_ERR_COUNT : MPI_ERR_REQUEST,
                    "count %d, requests %p", count, (void *)array_of_requests);
    int err = 0;
    for (int i = 0; i < count; i++) {
        MPI_Request *rq = &array_of_requests[i];
        MPI_Status *st = nth_status(array_of_statuses, i);
        if (!*rq) {
            status_empty(st);
            continue;
        }
        wait_req(*rq);
        MPI_Comm c = (*rq)->comm;
        if ((*rq)->kind == R_RECV && (*rq)->st.MPI_ERROR) {
            status_out(st, &(*rq)->st);
            struct skifmpi_req *r = *rq;
            int e = fail(c, "MPI_Waitall", MPI_ERR_TRUNCATE,
                         "message of %zu bytes from rank %d (tag %d) into a buffer of %zu "
                         "bytes",
                         r->len, r->st.MPI_SOURCE, r->st.MPI_TAG, r->cap);
            req_release(r);
            *rq = MPI_REQUEST_NULL;
            err = e;
            continue;
        }
        finish("MPI_Waitall", rq, st);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = MPI_SUCCESS;
    }
    return err ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
}

int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    CHECK_INIT("MPI_Waitany");
    if (count < 0 || !index || (count > 0 && !array_of_requests))
        return fail(MPI_COMM_WORLD, "MPI_Waitany", MPI_ERR_ARG, "invalid argument");
    for (;;) {
        int active = 0;
        for (int i = 0; i < count; i++) {
            if (!array_of_requests[i])
                continue;
            active = 1;
            if (array_of_requests[i]->done) {
                *index = i;
                return finish("MPI_Waitany", &array_of_requests[i], status);
            }
        }
        if (!active) {
            *index = MPI_UNDEFINED;
            status_empty(status);
            return MPI_SUCCESS;
        }
        progress();
    }
}

int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                MPI_Status *array_of_statuses)
{
    CHECK_INIT("MPI_Testall");
    if (count < 0 || !flag || (count > 0 && !array_of_requests))
        return fail(MPI_COMM_WORLD, "MPI_Testall", MPI_ERR_ARG, "invalid argument");
    for (int pass = 0; pass < 2; pass++) {
        int all = 1;
        for (int i = 0; i < count; i++)
            if (array_of_requests[i] && !array_of_requests[i]->done)
                all = 0;
        if (all) {
            *flag = 1;
            return MPI_Waitall(count, array_of_requests, array_of_statuses);
        }
        if (pass == 0)
            progress();
    }
    *flag = 0;
    return MPI_SUCCESS;
}

int MPI_Request_free(MPI_Request *request)
{
    CHECK_INIT("MPI_Request_free");
    if (!request || !*request)
        return fail(MPI_COMM_WORLD, "MPI_Request_free", MPI_ERR_REQUEST, "null request");
    struct skifmpi_req *r = *request;
    if (r->done)
        req_release(r);
    else
        r->freed = 1;
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status)
{
    const char *fn = "MPI_Sendrecv";
    CHECK_COMM(fn, comm);
    int e;
    if ((e = check_buf(comm, fn, sendbuf, sendcount, sendtype)) ||
        (e = check_dst(comm, fn, dest, sendtag, 0)) ||
        (e = recv_check(fn, recvbuf, recvcount, recvtype, source, recvtag, comm)))
        return e;
    MPI_Request rr, sr;
    MPI_Irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, &rr);
    MPI_Isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, &sr);
    wait_req(sr);
    finish(fn, &sr, MPI_STATUS_IGNORE);
    wait_req(rr);
    return finish(fn, &rr, status);
}

static struct unexp *probe_find(uint32_t ctx, int src, int tag)
{
    for (struct unexp *u = g.unexp; u; u = u->next)
        if (match(u->ctx, u->src, u->tag, ctx, src, tag))
            return u;
    return NULL;
}

static void probe_status(MPI_Status *st, const struct unexp *u)
{
    MPI_Status s = {u->src, u->tag, MPI_SUCCESS, 0, (long long)u->len};
    status_out(st, &s);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    CHECK_COMM("MPI_Iprobe", comm);
    int e = check_dst(comm, "MPI_Iprobe", source, tag, 1);
    if (e)
        return e;
    if (!flag)
        return fail(comm, "MPI_Iprobe", MPI_ERR_ARG, "NULL flag");
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        status_null(status);
        return MPI_SUCCESS;
    }
    uint32_t ctx = (uint32_t)g.comms[comm]->id * 2;
    struct unexp *u = probe_find(ctx, source, tag);
    if (!u) {
        progress();
        u = probe_find(ctx, source, tag);
    }
    *flag = u != NULL;
    if (u)
        probe_status(status, u);
    return MPI_SUCCESS;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    CHECK_COMM("MPI_Probe", comm);
    int e = check_dst(comm, "MPI_Probe", source, tag, 1);
    if (e)
        return e;
    if (source == MPI_PROC_NULL) {
        status_null(status);
        return MPI_SUCCESS;
    }
    uint32_t ctx = (uint32_t)g.comms[comm]->id * 2;
    struct unexp *u;
    while (!(u = probe_find(ctx, source, tag)))
        progress();
    probe_status(status, u);
    return MPI_SUCCESS;
}

int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    if (!status || status == MPI_STATUS_IGNORE || !count)
        return fail(MPI_COMM_WORLD, "MPI_Get_count", MPI_ERR_ARG, "NULL status or count");
    if (datatype <= 0 || datatype >= NTYPES)
        return fail(MPI_COMM_WORLD, "MPI_Get_count", MPI_ERR_TYPE, "invalid datatype %d", datatype);
    long long b = status->skifmpi_bytes, s = type_size[datatype];
    *count = b % s ? MPI_UNDEFINED : (int)(b / s);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ reductions */
#define OPS_ARITH(T)                                                                               \
    case MPI_SUM:                                                                                  \
        for (int i = 0; i < n; i++)                                                                \
            ((T *)io)[i] = (T)(((T *)io)[i] + ((const T *)in)[i]);                                 \
        return 0;                                                                                  \
    case MPI_PROD:                                                                                 \
        for (int i = 0; i < n; i++)                                                                \
            ((T *)io)[i] = (T)(((T *)io)[i] * ((const T *)in)[i]);                                 \
        return 0;                                                                                  \
    case MPI_MIN:                                                                                  \
        for (int i = 0; i < n; i++)                                                                \
            if (((const T *)in)[i] < ((T *)io)[i])                                                 \
                ((T *)io)[i] = ((const T *)in)[i];                                                 \
        return 0;                                                                                  \
    case MPI_MAX:                                                                                  \
        for (int i = 0; i < n; i++)                                                                \
            if (((const T *)in)[i] > ((T *)io)[i])                                                 \
                ((T *)io)[i] = ((const T *)in)[i];                                                 \
        return 0;
#define OPS_LOGIC(T)                                                                               \
    case MPI_LAND:                                                                                 \
        for (int i = 0; i < n; i++)                                                                \
            ((T *)io)[i] = (T)(((T *)io)[i] && ((const T *)in)[i]);                                \
        return 0;                                                                                  \
    case MPI_LOR:                                                                                  \
        for (int i = 0; i < n; i++)                                                                \
            ((T *)io)[i] = (T)(((T *)io)[i] || ((const T *)in)[i]);                                \
        return 0;
#define OPS_BIT(T)                                                                                 \
    case MPI_BAND:                                                                                 \
        for (int i = 0; i < n; i++)                                                                \
            ((T *)io)[i] = (T)(((T *)io)[i] & ((const T *)in)[i]);                                 \
        return 0;                                                                                  \
    case MPI_BOR:                                                                                  \
        for (int i = 0; i < n; i++)                                                                \
            ((T *)io)[i] = (T)(((T *)io)[i] | ((const T *)in)[i]);                                 \
        return 0;
#define INT_TYPE(K, T)                                                                             \
    case K:                                                                                        \
        switch (op) {                                                                              \
            OPS_ARITH(T)                                                                           \
            OPS_LOGIC(T)                                                                           \
            OPS_BIT(T)                                                                             \
        }                                                                                          \
        return -1;
#define FLOAT_TYPE(K, T)                                                                           \
    case K:                                                                                        \
        switch (op) {                                                                              \
            OPS_ARITH(T)                                                                           \
        }                                                                                          \
        return -1;

/* io[i] = io[i] op in[i]; -1 if op does not apply to type t (MPI's rules:
 * arithmetic and logical ops on integers, arithmetic on floating point,
 * bitwise on integers and MPI_BYTE, none on MPI_CHAR). */
static int reduce_apply(MPI_Op op, MPI_Datatype t, void *io, const void *in, int n)
{
    switch (t) {
        INT_TYPE(MPI_SIGNED_CHAR, signed char)
        INT_TYPE(MPI_UNSIGNED_CHAR, unsigned char)
        INT_TYPE(MPI_SHORT, short)
        INT_TYPE(MPI_INT, int)
        INT_TYPE(MPI_UNSIGNED, unsigned)
        INT_TYPE(MPI_LONG, long)
        INT_TYPE(MPI_UNSIGNED_LONG, unsigned long)
        INT_TYPE(MPI_LONG_LONG, long long)
        FLOAT_TYPE(MPI_FLOAT, float)
        FLOAT_TYPE(MPI_DOUBLE, double)
    case MPI_BYTE:
        switch (op) {
            OPS_BIT(unsigned char)
        }
        return -1;
    }
    return -1;
}

static int op_valid(MPI_Op op, MPI_Datatype t)
{
    long long x = 0, y = 0;
    return op >= MPI_SUM && op <= MPI_BOR && reduce_apply(op, t, &x, &y, 0) == 0;
}

/* ------------------------------------------------------------ software collectives */
static uint32_t cctx(const struct comm *c)
{
    return (uint32_t)c->id * 2 + 1;
}

static int sw_barrier(struct comm *c)
{
    char b = 0;
    for (int k = 1; k < c->size; k <<= 1) {
        struct skifmpi_req *r =
            irecv_raw(c, cctx(c), &b, 0, (c->rank - k + c->size) % c->size, TAG_BARRIER, 0);
        send_raw(c, cctx(c), &b, 0, (c->rank + k) % c->size, TAG_BARRIER, 0);
        wait_req(r);
        req_release(r);
    }
    return MPI_SUCCESS;
}

static int sw_bcast(struct comm *c, void *buf, size_t bytes, int root)
{
    int size = c->size, rel = (c->rank - root + size) % size, mask = 1;
    while (mask < size) {
        if (rel & mask) {
            recv_raw(c, cctx(c), buf, bytes, (rel - mask + root) % size, TAG_BCAST);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < size)
            send_raw(c, cctx(c), buf, bytes, (rel + mask + root) % size, TAG_BCAST, 0);
    return MPI_SUCCESS;
}

/* Binomial tree to root; out (significant at root) gets the result. */
static int sw_reduce(struct comm *c, const void *in, void *out, int n, MPI_Datatype t, MPI_Op op,
                     int root)
{
    size_t bytes = (size_t)n * (size_t)type_size[t];
    int size = c->size, rel = (c->rank - root + size) % size;
    char *acc = c->rank == root ? out : malloc(bytes ? bytes : 1);
    char *tmp = malloc(bytes ? bytes : 1);
    if (!acc || !tmp)
        internal("out of memory for a reduction");
    const void *src = in == MPI_IN_PLACE ? out : in;
    if (acc != src && bytes)
        memcpy(acc, src, bytes);
    for (int mask = 1; mask < size; mask <<= 1) {
        if (rel & mask) {
            send_raw(c, cctx(c), acc, bytes, (rel - mask + root) % size, TAG_REDUCE, 0);
            break;
        }
        if (rel + mask < size) {
            recv_raw(c, cctx(c), tmp, bytes, (rel + mask + root) % size, TAG_REDUCE);
            reduce_apply(op, t, acc, tmp, n);
        }
    }
    if (acc != out)
        free(acc);
    free(tmp);
    return MPI_SUCCESS;
}

static int sw_allreduce(struct comm *c, const void *in, void *out, int n, MPI_Datatype t, MPI_Op op)
{
    sw_reduce(c, in, out, n, t, op, 0);
    return sw_bcast(c, out, (size_t)n * (size_t)type_size[t], 0);
}

static const struct coll_ops sw_coll = {sw_barrier, sw_bcast, sw_reduce, sw_allreduce};

/* ------------------------------------------------------------ hardware collectives */
/* hw_coll: MPI_COMM_WORLD's collectives on the adapter's collective engine
 * (SkifColl, docs/collectives.md) over the stride tree of every rank, when
 * SkifColl_Init brought the hardware path up and SKIFMPI_COLL is not "sw".
 * A call the engine cannot do exactly (a type or op it has not, a request
 * the library refuses) goes to sw_coll: the choice depends only on the
 * arguments every rank passes alike (type, op, count), so every rank takes
 * the same path. SKIFMPI_COLL_REPORT=1 prints, at MPI_Finalize, how many
 * collectives each rank did on each path (stderr). */
static struct {
    int up;               /* SkifColl_Init done (hardware path) */
    SkifCollTree *world;  /* the stride tree of every rank, root 0 */
    unsigned long hw, sw; /* collectives on the engine, fallbacks */
    int trees;            /* trees made for split communicators */
    int full;             /* SkifColl_Create ran out of tree ids */
    int report;
} hwc;

/* The engine's type for an MPI datatype, or -1. */
static int hw_type(MPI_Datatype t)
{
    switch (t) {
    case MPI_INT:
        return sizeof(int) == 4 ? SKIFCOLL_S32 : -1;
    case MPI_UNSIGNED:
        return sizeof(unsigned) == 4 ? SKIFCOLL_U32 : -1;
    case MPI_LONG:
        return sizeof(long) == 8 ? SKIFCOLL_S64 : sizeof(long) == 4 ? SKIFCOLL_S32 : -1;
    case MPI_UNSIGNED_LONG:
        return sizeof(unsigned long) == 8   ? SKIFCOLL_U64
               : sizeof(unsigned long) == 4 ? SKIFCOLL_U32
                                            : -1;
    case MPI_LONG_LONG:
        return sizeof(long long) == 8 ? SKIFCOLL_S64 : -1;
    }
    return -1;
}

static int hw_op(MPI_Op op)
{
    return op == MPI_SUM   ? SKIFCOLL_SUM
           : op == MPI_MIN ? SKIFCOLL_MIN
           : op == MPI_MAX ? SKIFCOLL_MAX
                           : -1;
}

/* Wait for a request; -1 if it failed (the caller gives up: a failed
 * request on the engine cannot be redone alone, so it is fatal). */
static int hw_done(int rc, SkifCollReq *const *r, const char *what)
{
    if (rc == 0 && SkifColl_Wait(*r) == 0) {
        hwc.hw++;
        return MPI_SUCCESS;
    }
    char why[128];
    snprintf(why, sizeof(why), "the collective engine failed (%s): %s",
             rc ? "SkifColl call" : "SkifColl_Wait", strerror(errno));
    die_line(what, "MPI_ERR_INTERN", why);
    return MPI_ERR_INTERN;
}

/* The engine's waits do not run progress(): packed messages go first. */
static int hw_barrier(struct comm *c)
{
    flush_packs(1);
    SkifCollReq *r = NULL;
    return hw_done(SkifColl_Barrier(c->tree, &r), &r, "MPI_Barrier");
}

static int hw_bcast(struct comm *c, void *buf, size_t bytes, int root)
{
    if (!bytes) {
        hwc.sw++;
        return sw_bcast(c, buf, bytes, root);
    }
    flush_packs(1);
    SkifCollReq *r = NULL;
    return hw_done(SkifColl_Bcast(c->tree, c->world[root], buf, bytes, &r), &r, "MPI_Bcast");
}

/* The engine's reduce or allreduce (root < 0) of n elements; the input
 * goes through a copy when it is MPI_IN_PLACE. */
static int hw_red(struct comm *c, const void *in, void *out, int n, MPI_Datatype t, MPI_Op op,
                  int root)
{
    int ty = hw_type(t), o = hw_op(op);
    size_t bytes = (size_t)n * (size_t)type_size[t];
    if (ty < 0 || o < 0 || n <= 0) {
        hwc.sw++;
        return root < 0 ? sw_allreduce(c, in, out, n, t, op)
                        : sw_reduce(c, in, out, n, t, op, root);
    }
    flush_packs(1);
    void *tmp = NULL;
    if (in == MPI_IN_PLACE) {
        if (!(tmp = malloc(bytes)))
            internal("out of memory for a reduction");
        memcpy(tmp, out, bytes);
        in = tmp;
    }
    SkifCollReq *r = NULL;
    int rc = root < 0 ? SkifColl_Allreduce(c->tree, in, out, (size_t)n, ty, o, &r)
                      : SkifColl_Reduce(c->tree, c->world[root], in, c->rank == root ? out : NULL,
                                        (size_t)n, ty, o, &r);
    int e = hw_done(rc, &r, root < 0 ? "MPI_Allreduce" : "MPI_Reduce");
    free(tmp);
    return e;
}

static int hw_reduce(struct comm *c, const void *in, void *out, int n, MPI_Datatype t, MPI_Op op,
                     int root)
{
    return hw_red(c, in, out, n, t, op, root);
}

static int hw_allreduce(struct comm *c, const void *in, void *out, int n, MPI_Datatype t, MPI_Op op)
{
    return hw_red(c, in, out, n, t, op, -1);
}

static const struct coll_ops hw_coll = {hw_barrier, hw_bcast, hw_reduce, hw_allreduce};

/* In MPI_Init, after SkifCh: bring the engine up for MPI_COMM_WORLD unless
 * SKIFMPI_COLL=sw; any failure leaves every communicator on sw_coll. */
static void hw_init(void)
{
    const char *e = getenv("SKIFMPI_COLL_REPORT");
    hwc.report = e && *e && strcmp(e, "0") != 0;
    e = getenv("SKIFMPI_COLL");
    if (g.singleton || g.size < 2 || (e && strcmp(e, "sw") == 0))
        return;
    if (SkifColl_Init(0) < 0)
        return;
    hwc.up = 1;
    if (!SkifColl_HwUp() || !(hwc.world = SkifColl_Stride(0, 0)) ||
        SkifColl_Members(hwc.world) != g.size || SkifColl_Root(hwc.world) != 0)
        return;
    g.comms[MPI_COMM_WORLD]->coll = &hw_coll;
    g.comms[MPI_COMM_WORLD]->tree = hwc.world;
}

/* The parent ranks of colour `color` in MPI_Comm_split's order (key, then
 * parent rank) into w[]; all[] holds every parent rank's (colour, key).
 * Returns their number. */
static int split_members(const int *all, int n, int color, int *w)
{
    int cnt = 0;
    for (int i = 0; i < n; i++) { /* insertion sort */
        if (all[2 * i] != color)
            continue;
        int j = cnt++;
        while (j > 0 && all[2 * w[j - 1] + 1] > all[2 * i + 1]) {
            w[j] = w[j - 1];
            j--;
        }
        w[j] = i;
    }
    return cnt;
}

/* MPI_Comm_split of a communicator on the engine whose group is every rank
 * (so every node of the torus takes part, as SkifColl_Create needs): every
 * rank makes, colour by colour in ascending order, the tree of each new
 * group of 2 or more ranks (ranks w_of(colour) in the new rank order, root
 * its rank 0) and keeps its own group's. all[] is every parent rank's
 * (colour, key); nc the new communicator (NULL: MPI_UNDEFINED). Every rank
 * runs the same calls with the same arguments, so they agree on which
 * groups got a tree; when the 16 tree ids are used up the remaining groups
 * (and later splits) stay on software. */
static void hw_split(struct comm *c, const int *all, struct comm *nc)
{
    if (!hwc.up || c->coll != &hw_coll || c->size != g.size || hwc.full)
        return;
    int n = c->size, *w = malloc(sizeof(int) * (size_t)n), prev = -1;
    if (!w)
        internal("out of memory");
    for (;;) {
        int col = -1; /* the next colour above prev */
        for (int i = 0; i < n; i++)
            if (all[2 * i] != MPI_UNDEFINED && all[2 * i] > prev && (col < 0 || all[2 * i] < col))
                col = all[2 * i];
        if (col < 0)
            break;
        prev = col;
        int cnt = split_members(all, n, col, w);
        if (cnt < 2)
            continue;
        for (int i = 0; i < cnt; i++)
            w[i] = c->world[w[i]];
        SkifCollTree *t = SkifColl_Create(w, cnt, w[0]);
        if (!t) {
            if (errno != ENOSPC)
                skif_fatal("SkifColl_Create for MPI_Comm_split");
            hwc.full = 1;
            break;
        }
        hwc.trees++;
        if (nc && all[2 * c->rank] == col) {
            nc->tree = t;
            nc->coll = &hw_coll;
        }
    }
    free(w);
}

static void hw_fini(void)
{
    if (hwc.report && g.packs)
        fprintf(stderr, "skifmpi: rank %d: %lu messages sent in %lu packed packets\n", g.rank,
                g.packed, g.packs);
    if (hwc.report)
        fprintf(stderr,
                "skifmpi: rank %d: collectives on the engine %lu, in software %lu; trees for split "
                "communicators %d\n",
                g.rank, hwc.hw, hwc.sw, hwc.trees);
    if (hwc.up && SkifColl_Finalize() < 0)
        skif_fatal("SkifColl_Finalize");
    hwc.up = 0;
    hwc.world = NULL;
}

/* ------------------------------------------------------------ collective calls */
static int check_root(MPI_Comm comm, const char *fn, int root)
{
    if (root < 0 || root >= g.comms[comm]->size)
        return fail(comm, fn, MPI_ERR_ROOT, "invalid root %d (communicator size %d)", root,
                    g.comms[comm]->size);
    return MPI_SUCCESS;
}

static int check_op(MPI_Comm comm, const char *fn, MPI_Op op, MPI_Datatype t)
{
    if (op < MPI_SUM || op > MPI_BOR)
        return fail(comm, fn, MPI_ERR_OP, "invalid operation %d", op);
    if (!op_valid(op, t))
        return fail(comm, fn, MPI_ERR_OP, "operation %d is not defined on datatype %d", op, t);
    return MPI_SUCCESS;
}

int MPI_Barrier(MPI_Comm comm)
{
    CHECK_COMM("MPI_Barrier", comm);
    return g.comms[comm]->coll->barrier(g.comms[comm]);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    const char *fn = "MPI_Bcast";
    CHECK_COMM(fn, comm);
    int e;
    if ((e = check_buf(comm, fn, buffer, count, datatype)) || (e = check_root(comm, fn, root)))
        return e;
    return g.comms[comm]->coll->bcast(g.comms[comm], buffer,
                                      (size_t)count * (size_t)type_size[datatype], root);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm)
{
    const char *fn = "MPI_Reduce";
    CHECK_COMM(fn, comm);
    int e;
    if ((e = check_buf(comm, fn, sendbuf, count, datatype)) || (e = check_root(comm, fn, root)) ||
        (e = check_op(comm, fn, op, datatype)))
        return e;
    struct comm *c = g.comms[comm];
    if (c->rank == root && (e = check_buf(comm, fn, recvbuf, count, datatype)))
        return e;
    if (sendbuf == MPI_IN_PLACE && c->rank != root)
        return fail(comm, fn, MPI_ERR_BUFFER, "MPI_IN_PLACE on a rank that is not the root");
    if (sendbuf == recvbuf && count > 0 && c->rank == root)
        return fail(comm, fn, MPI_ERR_BUFFER, "sendbuf equals recvbuf (use MPI_IN_PLACE)");
    return c->coll->reduce(c, sendbuf, recvbuf, count, datatype, op, root);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    const char *fn = "MPI_Allreduce";
    CHECK_COMM(fn, comm);
    int e;
    if ((e = check_buf(comm, fn, sendbuf, count, datatype)) ||
        (e = check_buf(comm, fn, recvbuf, count, datatype)) ||
        (e = check_op(comm, fn, op, datatype)))
        return e;
    if (sendbuf == recvbuf && count > 0)
        return fail(comm, fn, MPI_ERR_BUFFER, "sendbuf equals recvbuf (use MPI_IN_PLACE)");
    return g.comms[comm]->coll->allreduce(g.comms[comm], sendbuf, recvbuf, count, datatype, op);
}

/* Check the send and receive arguments of gather-like calls; *bytes gets
 * the bytes per rank (they must agree in bytes). */
static int check_pair(MPI_Comm comm, const char *fn, const void *sb, int sc, MPI_Datatype st,
                      void *rb, int rc, MPI_Datatype rt, int send_sig, int recv_sig, size_t *bytes)
{
    int e;
    if (send_sig && sb != MPI_IN_PLACE && (e = check_buf(comm, fn, sb, sc, st)))
        return e;
    if (recv_sig && (e = check_buf(comm, fn, rb, rc, rt)))
        return e;
    if (send_sig && recv_sig && sb != MPI_IN_PLACE &&
        (size_t)sc * (size_t)type_size[st] != (size_t)rc * (size_t)type_size[rt])
        return fail(comm, fn, MPI_ERR_TRUNCATE, "send count %d and receive count %d differ", sc,
                    rc);
    *bytes = send_sig && sb != MPI_IN_PLACE ? (size_t)sc * (size_t)type_size[st]
                                            : (size_t)rc * (size_t)type_size[rt];
    return MPI_SUCCESS;
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const char *fn = "MPI_Gather";
    CHECK_COMM(fn, comm);
    struct comm *c = g.comms[comm];
    size_t bytes;
    int e;
    if ((e = check_root(comm, fn, root)) ||
        (e = check_pair(comm, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 1,
                        c->rank == root, &bytes)))
        return e;
    if (sendbuf == MPI_IN_PLACE && c->rank != root)
        return fail(comm, fn, MPI_ERR_BUFFER, "MPI_IN_PLACE on a rank that is not the root");
    if (c->rank != root) {
        send_raw(c, cctx(c), sendbuf, bytes, root, TAG_GATHER, 0);
        return MPI_SUCCESS;
    }
    struct skifmpi_req **rs = calloc((size_t)c->size, sizeof(*rs));
    if (!rs)
        internal("out of memory");
    for (int i = 0; i < c->size; i++)
        if (i != root)
            rs[i] =
                irecv_raw(c, cctx(c), (char *)recvbuf + (size_t)i * bytes, bytes, i, TAG_GATHER, 0);
    if (sendbuf != MPI_IN_PLACE && bytes)
        memcpy((char *)recvbuf + (size_t)root * bytes, sendbuf, bytes);
    for (int i = 0; i < c->size; i++)
        if (rs[i]) {
            wait_req(rs[i]);
            req_release(rs[i]);
        }
    free(rs);
    return MPI_SUCCESS;
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const char *fn = "MPI_Scatter";
    CHECK_COMM(fn, comm);
    struct comm *c = g.comms[comm];
    int e, isroot = c->rank == root;
    size_t bytes;
    if ((e = check_root(comm, fn, root)))
        return e;
    if (isroot && (e = check_buf(comm, fn, sendbuf, sendcount, sendtype)))
        return e;
    if (recvbuf != MPI_IN_PLACE && (e = check_buf(comm, fn, recvbuf, recvcount, recvtype)))
        return e;
    if (recvbuf == MPI_IN_PLACE && !isroot)
        return fail(comm, fn, MPI_ERR_BUFFER, "MPI_IN_PLACE on a rank that is not the root");
    if (isroot && recvbuf != MPI_IN_PLACE &&
        (size_t)sendcount * (size_t)type_size[sendtype] !=
            (size_t)recvcount * (size_t)type_size[recvtype])
        return fail(comm, fn, MPI_ERR_TRUNCATE, "send count %d and receive count %d differ",
                    sendcount, recvcount);
    if (!isroot) {
        bytes = (size_t)recvcount * (size_t)type_size[recvtype];
        recv_raw(c, cctx(c), recvbuf, bytes, root, TAG_SCATTER);
        return MPI_SUCCESS;
    }
    bytes = (size_t)sendcount * (size_t)type_size[sendtype];
    struct skifmpi_req **rs = calloc((size_t)c->size, sizeof(*rs));
    if (!rs)
        internal("out of memory");
    for (int i = 0; i < c->size; i++)
        if (i != root)
            rs[i] = isend_raw(c, cctx(c), (const char *)sendbuf + (size_t)i * bytes, bytes, i,
                              TAG_SCATTER, 0, 1, 0);
    if (recvbuf != MPI_IN_PLACE && bytes)
        memcpy(recvbuf, (const char *)sendbuf + (size_t)root * bytes, bytes);
    for (int i = 0; i < c->size; i++)
        if (rs[i]) {
            wait_req(rs[i]);
            req_release(rs[i]);
        }
    free(rs);
    return MPI_SUCCESS;
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *fn = "MPI_Allgather";
    CHECK_COMM(fn, comm);
    struct comm *c = g.comms[comm];
    size_t bytes;
    int e = check_pair(comm, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 1, 1,
                       &bytes);
    if (e)
        return e;
    /* gather to 0 (in place there), then broadcast the whole */
    if (sendbuf != MPI_IN_PLACE && bytes)
        memcpy((char *)recvbuf + (size_t)c->rank * bytes, sendbuf, bytes);
    char *mine = (char *)recvbuf + (size_t)c->rank * bytes;
    if (c->rank != 0) {
        send_raw(c, cctx(c), mine, bytes, 0, TAG_GATHER, 0);
    } else {
        for (int i = 1; i < c->size; i++)
            recv_raw(c, cctx(c), (char *)recvbuf + (size_t)i * bytes, bytes, i, TAG_GATHER);
    }
    return c->coll->bcast(c, recvbuf, bytes * (size_t)c->size, 0);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *fn = "MPI_Alltoall";
    CHECK_COMM(fn, comm);
    struct comm *c = g.comms[comm];
    size_t bytes;
    if (sendbuf == MPI_IN_PLACE)
        return fail(comm, fn, MPI_ERR_OTHER, "MPI_IN_PLACE is not supported by MPI_Alltoall here");
    int e = check_pair(comm, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 1, 1,
                       &bytes);
    if (e)
        return e;
    int n = c->size;
    struct skifmpi_req **rs = calloc((size_t)n * 2, sizeof(*rs));
    if (!rs)
        internal("out of memory");
    for (int k = 1; k < n; k++) {
        int from = (c->rank - k + n) % n;
        rs[k] = irecv_raw(c, cctx(c), (char *)recvbuf + (size_t)from * bytes, bytes, from,
                          TAG_ALLTOALL, 0);
    }
    for (int k = 1; k < n; k++) {
        int to = (c->rank + k) % n;
        rs[n + k] = isend_raw(c, cctx(c), (const char *)sendbuf + (size_t)to * bytes, bytes, to,
                              TAG_ALLTOALL, 0, 1, 0);
    }
    if (bytes)
        memcpy((char *)recvbuf + (size_t)c->rank * bytes,
               (const char *)sendbuf + (size_t)c->rank * bytes, bytes);
    for (int k = 0; k < 2 * n; k++)
        if (rs[k]) {
            wait_req(rs[k]);
            req_release(rs[k]);
        }
    free(rs);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ communicators */
int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    CHECK_COMM("MPI_Comm_rank", comm);
    if (!rank)
        return fail(comm, "MPI_Comm_rank", MPI_ERR_ARG, "NULL rank");
    *rank = g.comms[comm]->rank;
    return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
    CHECK_COMM("MPI_Comm_size", comm);
    if (!size)
        return fail(comm, "MPI_Comm_size", MPI_ERR_ARG, "NULL size");
    *size = g.comms[comm]->size;
    return MPI_SUCCESS;
}

/* A new context id agreed by every rank of c: the lowest id free on all. */
static int new_id(struct comm *c)
{
    uint64_t all[MASK_WORDS];
    sw_allreduce(c, g.used_ids, all, MASK_WORDS, MPI_UNSIGNED_LONG, MPI_BOR);
    for (int i = 0; i < MAX_IDS; i++)
        if (!(all[i / 64] >> (i % 64) & 1))
            return i;
    return -1;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    CHECK_COMM("MPI_Comm_dup", comm);
    if (!newcomm)
        return fail(comm, "MPI_Comm_dup", MPI_ERR_ARG, "NULL newcomm");
    struct comm *c = g.comms[comm];
    int id = new_id(c);
    if (id < 0)
        return fail(comm, "MPI_Comm_dup", MPI_ERR_OTHER, "all %d communicator ids in use", MAX_IDS);
    int *w = malloc(sizeof(int) * (size_t)c->size);
    if (!w)
        internal("out of memory");
    memcpy(w, c->world, sizeof(int) * (size_t)c->size);
    struct comm *n = comm_new(id, c->rank, c->size, w);
    n->errh = c->errh;
    /* the same group: the same engine tree (its collectives come in the
     * same order on every rank, as MPI requires of overlapping groups) */
    n->coll = c->coll;
    n->tree = c->tree;
    *newcomm = comm_add(n);
    return MPI_SUCCESS;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    CHECK_COMM("MPI_Comm_split", comm);
    if (!newcomm)
        return fail(comm, "MPI_Comm_split", MPI_ERR_ARG, "NULL newcomm");
    if (color < 0 && color != MPI_UNDEFINED)
        return fail(comm, "MPI_Comm_split", MPI_ERR_ARG, "invalid color %d", color);
    struct comm *c = g.comms[comm];
    int id = new_id(c);
    if (id < 0)
        return fail(comm, "MPI_Comm_split", MPI_ERR_OTHER, "all %d communicator ids in use",
                    MAX_IDS);
    int n = c->size, mine[2] = {color, key};
    int *all = malloc(sizeof(int) * 2 * (size_t)n);
    if (!all)
        internal("out of memory");
    /* allgather (color, key) over the parent, on its collective context */
    if (c->rank != 0) {
        send_raw(c, cctx(c), mine, sizeof(mine), 0, TAG_CTX, 0);
    } else {
        memcpy(all, mine, sizeof(mine));
        for (int i = 1; i < n; i++)
            recv_raw(c, cctx(c), all + 2 * i, sizeof(mine), i, TAG_CTX);
    }
    sw_bcast(c, all, sizeof(int) * 2 * (size_t)n, 0);
    if (color == MPI_UNDEFINED) {
        hw_split(c, all, NULL);
        free(all);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    int *w = malloc(sizeof(int) * (size_t)n);
    if (!w)
        internal("out of memory");
    int cnt = split_members(all, n, color, w), rank = 0; /* my colour's members */
    for (int i = 0; i < cnt; i++) {
        if (w[i] == c->rank)
            rank = i;
        w[i] = c->world[w[i]];
    }
    struct comm *nc = comm_new(id, rank, cnt, w);
    nc->errh = c->errh;
    hw_split(c, all, nc);
    free(all);
    *newcomm = comm_add(nc);
    return MPI_SUCCESS;
}

int MPI_Comm_free(MPI_Comm *comm)
{
    CHECK_INIT("MPI_Comm_free");
    if (!comm || !comm_ok(*comm))
        return fail(MPI_COMM_WORLD, "MPI_Comm_free", MPI_ERR_COMM, "invalid communicator %d",
                    comm ? *comm : 0);
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return fail(*comm, "MPI_Comm_free", MPI_ERR_COMM,
                    "MPI_COMM_WORLD and MPI_COMM_SELF "
                    "cannot be freed");
    struct comm *c = g.comms[*comm];
    g.used_ids[c->id / 64] &= ~(1ull << (c->id % 64));
    free(c->world);
    free(c);
    g.comms[*comm] = NULL;
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    CHECK_COMM("MPI_Comm_compare", comm1);
    CHECK_COMM("MPI_Comm_compare", comm2);
    if (!result)
        return fail(comm1, "MPI_Comm_compare", MPI_ERR_ARG, "NULL result");
    struct comm *a = g.comms[comm1], *b = g.comms[comm2];
    if (comm1 == comm2) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (a->size != b->size) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int same_order = 1, same_set = 1;
    for (int i = 0; i < a->size; i++) {
        if (a->world[i] != b->world[i])
            same_order = 0;
        int found = 0;
        for (int j = 0; j < b->size; j++)
            found |= a->world[i] == b->world[j];
        same_set &= found;
    }
    *result = same_order ? MPI_CONGRUENT : same_set ? MPI_SIMILAR : MPI_UNEQUAL;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ not supported */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define UNSUPPORTED(name, args)                                                                    \
    int name args                                                                                  \
    {                                                                                              \
        CHECK_INIT(#name);                                                                         \
        return fail(MPI_COMM_WORLD, #name, MPI_ERR_OTHER,                                          \
                    "not supported by this MPI (docs/mpi.md lists what is)");                      \
    }
UNSUPPORTED(MPI_Bsend,
            (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
UNSUPPORTED(MPI_Cancel, (MPI_Request * request))
UNSUPPORTED(MPI_Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm))
UNSUPPORTED(MPI_Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
UNSUPPORTED(MPI_Type_vector,
            (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
UNSUPPORTED(MPI_Type_commit, (MPI_Datatype * datatype))
UNSUPPORTED(MPI_Type_free, (MPI_Datatype * datatype))
UNSUPPORTED(MPI_Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                          int root, MPI_Comm comm))
UNSUPPORTED(MPI_Scatterv,
            (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
UNSUPPORTED(MPI_Allgatherv,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
UNSUPPORTED(MPI_Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
UNSUPPORTED(MPI_Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
UNSUPPORTED(MPI_Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount,
                           int array_of_indices[], MPI_Status *array_of_statuses))
UNSUPPORTED(MPI_Testany,
            (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status))
UNSUPPORTED(MPI_Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                              int reorder, MPI_Comm *comm_cart))
UNSUPPORTED(MPI_Dims_create, (int nnodes, int ndims, int dims[]))
