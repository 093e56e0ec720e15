/* SPDX-License-Identifier: Apache-2.0 */
/* skifch.c: SkifCh over the skifsim driver (see skifch.h).
 *
 * One device per process, opened with the first channel (or by
 * SkifCh_Channels) and closed with the last: its TX ring carries the
 * messages of all the process's channels. Handles live in a static table;
 * every Open takes an entry never used before (the table is recycled, oldest
 * closed entry first, only after SKIFCH_HANDLES opens), so a closed handle
 * stays recognisable (EBADF) even when its channel is opened again.
 *
 * The receive calls' common path checks only that the handle is an entry of
 * the table: a closed entry's channel is g_none, a channel that is always
 * empty and has nothing taken, so that path falls through to the checks of
 * the slow path, which say EBADF. */
#define _GNU_SOURCE
#include "skifch.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skif_dev.h"
#include "skif_node.h"

#define TX_RING_LOG2 16
#define RX_RING_LOG2 16
#define PARTIAL_MIN 512 /* smallest part of a larger message sent alone */
/* An empty Recv or a refused Send lets simulated time pass until the next
 * device event, but at most this many cycles. Everything software can see
 * change (a channel's tail, the TX head) comes with a status-block write,
 * and each status write is an event, so a program polling several channels
 * in turn never waits on one while another has work; the limit bounds how
 * far simulated time jumps for a program that watches the clock while it
 * polls (256 cycles = 1 us at 250 MHz). At 64, three of four wake-ups of a
 * streaming program found nothing new, and each costs the simulator a
 * hand-over; at 256 the adapter's status writes (one per 128-256 cycles
 * under traffic) come first. */
#define POLL_CYCLES 256

struct SkifCh {
    struct skif_chan *chan; /* &g_none when closed */
    netaddr_t addr;         /* its own address */
    uint8_t open;           /* 1 open, 0 closed */
};
#define ENTRY_LOG2 4 /* an entry is 16 bytes: is_entry() needs a power of two */
_Static_assert(sizeof(struct SkifCh) == 1u << ENTRY_LOG2, "ENTRY_LOG2 is wrong");

/* The channel of closed entries: its tail word and its one-word ring read
 * zero, so it is always empty, and nothing is ever taken from it, so
 * nothing ever writes it. */
static uint64_t g_zero;
static struct skif_chan g_none = {.tail = &g_zero, .va = (uint8_t *)&g_zero};

/* The handles: entries [0, g_used) have been handed out (a closed one's
 * channel is g_none); g_open names each channel's open handle. */
#define SKIFCH_HANDLES 65536
static struct SkifCh g_ch[SKIFCH_HANDLES];
static size_t g_used;  /* entries handed out so far (<= SKIFCH_HANDLES) */
static size_t g_reuse; /* next entry to consider once all were handed out */
static SkifCh *g_open[SKIF_CHANS_MAX];
static struct skif_dev *g_dev;
static struct skif_txq *g_txq; /* g_dev's TX side, for the inline hot path */
static int g_nopen;
static int g_nchans; /* the adapter's channels, once known (0 before) */

__attribute__((noinline, cold)) static int set_errno(int neg)
{
    errno = -neg;
    return -1;
}

/* Is h an entry of the handle table? Its offset from the table's start
 * (huge when h is below it), rotated right by log2 of the entry size, is
 * the entry's index; a misaligned pointer leaves low bits that the rotation
 * turns into high ones, so one compare checks range and alignment. */
static inline int is_entry(const SkifCh *h)
{
    uintptr_t off = (uintptr_t)h - (uintptr_t)g_ch;
    return ((off >> ENTRY_LOG2) | (off << (sizeof(off) * CHAR_BIT - ENTRY_LOG2))) < g_used;
}

/* The handle's state: 1 open, 0 closed (EBADF), -1 not a handle (EINVAL). */
static int handle_state(const SkifCh *h)
{
    if (!is_entry(h))
        return -1;
    return h->open != 0;
}

static int check(const SkifCh *h)
{
    int st = handle_state(h);
    return st > 0 ? 0 : st == 0 ? -EBADF : -EINVAL;
}

/* Is h an open handle? */
static inline int is_open(const SkifCh *h)
{
    return is_entry(h) && h->open;
}

/* ------------------------------------------------------------ the torus */

static struct {
    int ok, size, ndims, dims[4];
} g_topo;

/* Rank count and dimensions from skifrun's environment (SKIF_SIZE,
 * SKIF_DIMS "XxYxZ"; -n alone is a ring). */
static int topo(void)
{
    if (g_topo.ok)
        return 0;
    const char *s = getenv("SKIF_SIZE");
    if (!s || !*s || atoi(s) < 1)
        return -ENODEV;
    g_topo.size = atoi(s);
    for (int d = 0; d < 4; d++)
        g_topo.dims[d] = 1;
    const char *dims = getenv("SKIF_DIMS");
    int nd = 0;
    while (dims && *dims && nd < 4) {
        int k = atoi(dims);
        if (k < 1)
            break;
        g_topo.dims[nd++] = k;
        dims = strchr(dims, 'x');
        if (dims)
            dims++;
    }
    if (nd == 0) { /* no dimensions known: a ring */
        g_topo.dims[0] = g_topo.size;
        nd = 1;
    }
    g_topo.ndims = nd;
    g_topo.ok = 1;
    return 0;
}

int SkifCh_Rank(void)
{
    const char *s = getenv("SKIF_RANK");
    if (!s || !*s)
        return set_errno(-ENODEV);
    return atoi(s);
}

int SkifCh_Size(void)
{
    int rc = topo();
    return rc < 0 ? set_errno(rc) : g_topo.size;
}

int SkifCh_Dims(int dims[4])
{
    if (!dims)
        return set_errno(-EINVAL);
    int rc = topo();
    if (rc < 0)
        return set_errno(rc);
    memcpy(dims, g_topo.dims, sizeof(g_topo.dims));
    return g_topo.ndims;
}

int SkifCh_Coords(int rank, int coord[4])
{
    int rc = topo();
    if (rc < 0)
        return set_errno(rc);
    if (!coord || rank < 0 || rank >= g_topo.size)
        return set_errno(-EINVAL);
    skif_rank_coords(rank, g_topo.dims, coord);
    return 0;
}

/* The adapter's channel count (opens the device to read it the first
 * time), or a negative errno. */
static int chan_count(void)
{
    return g_nchans ? g_nchans : SkifCh_Channels() < 0 ? -errno : g_nchans;
}

netaddr_t SkifCh_AddrAt(const int coord[4], int channel)
{
    int rc = topo();
    if (rc < 0 || !coord || channel < 0) {
        errno = rc < 0 ? -rc : EINVAL;
        return (netaddr_t)-1;
    }
    if ((rc = chan_count()) < 0 || channel >= rc) {
        errno = rc < 0 ? -rc : EINVAL;
        return (netaddr_t)-1;
    }
    for (int d = 0; d < 4; d++)
        if (coord[d] < 0 || coord[d] >= g_topo.dims[d]) {
            errno = EINVAL;
            return (netaddr_t)-1;
        }
    return (skif_node_id(coord) << SKIF_NA_NODE_LO) | (netaddr_t)channel;
}

netaddr_t SkifCh_Addr(int rank, int channel)
{
    int c[4];
    if (SkifCh_Coords(rank, c) < 0)
        return (netaddr_t)-1;
    return SkifCh_AddrAt(c, channel);
}

int SkifCh_Split(netaddr_t addr, int coord[4], int *channel)
{
    int rc = topo();
    if (rc < 0)
        return set_errno(rc);
    if (addr >> 24)
        return set_errno(-EINVAL);
    int c[4], rank = 0, stride = 1;
    skif_node_coords((uint32_t)SKIFCH_ADDR_NODE(addr), c);
    for (int d = 0; d < 4; d++) {
        if (c[d] >= g_topo.dims[d])
            return set_errno(-EINVAL);
        rank += c[d] * stride;
        stride *= g_topo.dims[d];
    }
    if ((rc = chan_count()) < 0)
        return set_errno(rc);
    if (SKIFCH_ADDR_CHAN(addr) >= rc)
        return set_errno(-EINVAL);
    if (coord)
        memcpy(coord, c, sizeof(c));
    if (channel)
        *channel = SKIFCH_ADDR_CHAN(addr);
    return rank;
}

/* ------------------------------------------------------------ channels */

#define CR_ASK_BELOW (8 + SKIF_MAX_MSG) /* credits left that make a sender ask */
#define CR_OPEN_GRANT_MIN 512           /* least grant worth sending when a channel opens */
#define CREDIT_PART_MIN 64              /* smallest part of a message sent for lack of credits */
/* credit words: layout and kinds in rtl/skif_defs.vh (SKIF_CRW_*) */
#define CR_GRANT SKIF_CRW_GRANT
#define CR_REQ SKIF_CRW_REQ
#define CR_REVOKE SKIF_CRW_REVOKE
#define CR_RETURN SKIF_CRW_RETURN

static struct {
    int on;               /* credits on (SKIFCH_CREDITS unset or 1) */
    int chan;             /* the credit channel */
    struct skif_chan *q;  /* its ring (driver level: no handle) */
    uint32_t share;       /* bytes reserved per sender per channel */
    int size;             /* ranks */
    uint32_t *cred;       /* sender: [rank * nchans + channel] bytes it may send, less the
                           * share (mod 2^32: cred_get(), cred_set()) */
    uint8_t *asked;       /* sender: a REQ is out for it */
    uint32_t refuse_tail; /* the TX tail at the last refusal for credits */
    /* SkifCh_Send's inline path: the last destination send_credit() sent
     * to (checked then), its entry, and its credits split in two: fast_allow
     * the inline path may spend, fast_hold the rest (the request threshold,
     * when no request is out). While fast_dst is set, cred[fast_idx] is
     * fast_allow + fast_hold (fast_sync() writes it back). */
    netaddr_t fast_dst;
    size_t fast_idx;
    uint32_t fast_allow, fast_hold;
    uint32_t last_node; /* rank_of_node()'s last answer: node id, */
    int last_rank;      /* and its rank */
    long grants, reqs;  /* credit messages sent */
} g_cr;

static void dev_put(void);
static int credit_open(void);

/* The process's device, opened and set up on first use. */
static int dev_get(void)
{
    if (g_dev)
        return 0;
    struct skif_dev *dev;
    int rc = skif_dev_open(&dev);
    if (rc < 0)
        return rc;
    if ((rc = skif_dev_setup(dev, TX_RING_LOG2)) < 0) {
        skif_dev_close(dev);
        return rc;
    }
    g_dev = dev;
    g_txq = skif_dev_txq(dev);
    g_nchans = skif_dev_channels(dev);
    if (g_cr.on && (rc = credit_open()) < 0) {
        dev_put();
        return rc;
    }
    return 0;
}

/* ------------------------------------------------------------ credits
 *
 * End-to-end credits per channel (seed 003's dynamic credit flow control,
 * docs/skifch.md "Credits"; on unless SKIFCH_CREDITS=0, for the whole
 * process). A sender may send to a channel only while it holds credits for
 * it: one credit is one byte of the channel's ring, and a message costs its
 * ring entry (8 + its length rounded up to 8). Each receive channel's ring
 * is split into a share reserved for every sender, known to both sides
 * without asking (credit_share()), and a pool. Credits travel in 8-byte
 * messages on a channel of the library's own (the adapter's last but one):
 * a GRANT gives a sender bytes for one channel, a REQ asks the receiver for
 * more. The receiver counts what it has completed per sender (reading the
 * completed entries' headers, which name the sender) and, before it next
 * waits, gives it back; a sender that asked gets more from the pool, and
 * when the pool is short, senders above their share are cut back to it as
 * their messages complete. Up to as many ranks as half the ring holds
 * shares for, the sum of all senders' credits never exceeds the ring, so a
 * message that reaches the adapter always finds room and the link into the
 * node is never held up by a full ring; beyond, the shares over-commit it. */

/* Receive side of a channel with credits. */
struct cr_rx {
    uint32_t acct;                 /* ring position up to which completions are counted */
    uint32_t ring;                 /* ring bytes */
    uint32_t floor;                /* bytes reserved per sender: the share, or its part of
                                    * half the ring granted at open (never revoked) */
    int64_t pool;                  /* bytes not promised to any sender */
    uint32_t *allot, *done, *want; /* per sender: promised, completed, asked */
    uint8_t *asking;               /* per sender: a REQ came, no grant since */
    uint8_t *revoked;              /* per sender: a REVOKE is out */
    /* the senders with something to do (done, want or asking non-zero), so
     * that a wait costs nothing per idle sender (512 ranks and more) */
    int *pend, npend;
    uint8_t *inpend;
};

/* Sender s of r has something to do at the next hook. */
static inline void cr_pend(struct cr_rx *r, int s)
{
    if (!r->inpend[s]) {
        r->inpend[s] = 1;
        r->pend[r->npend++] = s;
    }
}
static struct cr_rx *g_crx[SKIF_CHANS_MAX];

/* Bytes every sender holds for every channel at the start: half the
 * smallest ring shared out among all ranks (multiples of 8, at least 16,
 * room for an 8-byte message). */
static uint32_t credit_share(int size)
{
    uint32_t s = ((1u << SKIF_RING_LOG2_MIN) / 2 / (uint32_t)size) & ~7u;
    return s < 16 ? 16 : s;
}

/* The sender's credits for table entry idx. The table holds them less the
 * share, so that it starts all zero: calloc'd, a page of it is touched only
 * when a destination in it is used. Filled with the share, it cost every
 * process ranks x channels x 4 bytes at its start (1 MiB at 4096 ranks, 4 GiB
 * of pages cleared over the whole run, most of a 4096-node run's start). */
static inline uint32_t cred_get(size_t idx)
{
    return g_cr.share + g_cr.cred[idx];
}
static inline void cred_set(size_t idx, uint32_t bytes)
{
    g_cr.cred[idx] = bytes - g_cr.share;
}

/* Leave the inline path: its credits back into the table. */
static void fast_sync(void)
{
    if (g_cr.fast_dst != (netaddr_t)-1)
        cred_set(g_cr.fast_idx, g_cr.fast_allow + g_cr.fast_hold);
    g_cr.fast_dst = (netaddr_t)-1; /* reserved bits set: no destination */
    g_cr.fast_allow = 0;
}

static inline int rank_of_node(uint32_t node)
{
    /* senders come in streams: the last one answers most lookups */
    if (node == g_cr.last_node)
        return g_cr.last_rank;
    g_cr.last_node = node;
    int c[4], rank = 0, stride = 1;
    skif_node_coords(node, c);
    for (int d = 0; d < 4; d++) {
        rank += c[d] * stride;
        stride *= g_topo.dims[d];
    }
    g_cr.last_rank = rank;
    return rank;
}

/* Post one credit word to channel chan of rank's credit channel: 0 or
 * -EAGAIN (TX ring full). */
static int cr_post(int rank, uint32_t kind, int chan, uint32_t bytes)
{
    uint64_t w = (uint64_t)kind << SKIF_CRW_KIND_LO | (uint64_t)chan << SKIF_CRW_CHAN_LO |
                 (uint64_t)bytes << SKIF_CRW_BYTES_LO;
    uint32_t node;
    skif_dev_rank_node(g_dev, rank, &node);
    int rc = skif_txq_post1(skif_dev_txq(g_dev), (node << SKIF_NA_NODE_LO) | (uint32_t)g_cr.chan,
                            &w, sizeof(w));
    if (rc == 0) {
        if (kind == CR_GRANT)
            g_cr.grants++;
        else
            g_cr.reqs++;
    }
    return rc;
}

/* Give sender s of channel ch what it asked for, as far as the pool goes. */
static void cr_serve(struct cr_rx *r, int s)
{
    uint32_t quantum = r->ring / 8; /* a busy sender gets an eighth at once */
    uint32_t g = r->want[s] > quantum ? r->want[s] : quantum;
    if ((int64_t)g > r->pool)
        g = (uint32_t)(r->pool & ~7ll);
    /* enough for what it waits for, or for a first part of it */
    uint32_t enough = r->want[s] < 8 + PARTIAL_MIN ? r->want[s] : 8 + PARTIAL_MIN;
    if (g >= enough && g > 0) {
        r->pool -= g;
        r->allot[s] += g;
        r->done[s] += g; /* goes out with the next grant */
        r->want[s] = 0;
    }
}

/* Before a wait: take the credit messages that came, count completions and
 * give credits back. */
static void credit_hook(void)
{
    struct skif_rx_msg m;
    fast_sync();
    while (skif_rx_next(g_cr.q, &m) == 1) {
        uint64_t w = 0;
        if (m.len == sizeof(w) && m.nparts == 1)
            memcpy(&w, m.part[0].iov_base, sizeof(w));
        skif_rx_complete(g_cr.q);
        int src = rank_of_node(m.src_node), ch = (int)(w >> SKIF_CRW_CHAN_LO) & 0xff;
        uint32_t bytes = (uint32_t)(w >> SKIF_CRW_BYTES_LO),
                 kind = (uint32_t)(w >> SKIF_CRW_KIND_LO) & 0xff;
        if (src >= g_cr.size || ch >= g_nchans)
            continue;
        size_t idx = (size_t)src * (size_t)g_nchans + (size_t)ch;
        if (kind == CR_GRANT) {
            cred_set(idx, cred_get(idx) + bytes);
            g_cr.asked[idx] = 0;
        } else if (kind == CR_REQ) {
            struct cr_rx *r = g_crx[ch];
            if (!r) { /* closed: nothing reaches a ring; grant what it asks (if
                       * the TX ring is full, the sender asks again later) */
                (void)cr_post(src, CR_GRANT, ch, bytes);
                continue;
            }
            r->want[src] = bytes;
            r->asking[src] = 1;
            r->revoked[src] = 0;
            cr_pend(r, src);
        } else if (kind == CR_REVOKE) {
            /* give back what it holds beyond the bytes the REVOKE lets it
             * keep (its share, or 0), not spent; asked again when needed */
            uint32_t cr = cred_get(idx);
            uint32_t give = cr > bytes ? cr - bytes : 0;
            if (cr_post(src, CR_RETURN, ch, give) == 0)
                cred_set(idx, cr - give);
        } else if (kind == CR_RETURN) {
            struct cr_rx *r = g_crx[ch];
            if (r) {
                bytes = bytes < r->allot[src] ? bytes : r->allot[src];
                r->allot[src] -= bytes;
                r->pool += bytes;
                /* one that had nothing to give is not asked again until it
                 * has asked itself or been granted more (else the two would
                 * trade REVOKE and empty RETURN at every wait) */
                if (bytes)
                    r->revoked[src] = 0;
            }
        }
    }
    for (int id = 0; id < g_nchans; id++) {
        struct cr_rx *r = g_crx[id];
        if (!r)
            continue;
        struct skif_chan *c = g_open[id]->chan;
        /* completed entries: [acct, head) */
        uint32_t at = r->acct, head = c->head, *done = r->done;
        const uint8_t *va = c->va;
        size_t mask = c->mask;
        /* senders come in streams: a run of one sender's entries is
         * summed, then added to its count; key: the header's node field */
        uint64_t key = UINT64_MAX, nodef = (uint64_t)0xffff << 8;
        uint32_t run = 0;
        int src = 0;
        while (at != head) {
            uint64_t hdr;
            memcpy(&hdr, va + (at & mask), sizeof(hdr));
            if (__builtin_expect((hdr & nodef) != key, 0)) {
                if (run) {
                    done[src] += run;
                    cr_pend(r, src);
                }
                run = 0;
                key = hdr & nodef;
                src = rank_of_node((uint32_t)(key >> 8));
                if (src >= g_cr.size)
                    break; /* cannot be: the entry was checked when taken */
            }
            uint64_t len = hdr >> 32;
            if (len > SKIF_MAX_MSG)
                break; /* nor this */
            uint32_t e = 8 + skif_round8((uint32_t)len);
            run += e;
            at += e;
        }
        if (src >= g_cr.size)
            src = 0, run = 0;
        if (run) {
            done[src] += run;
            cr_pend(r, src);
        }
        r->acct = at;
        if (!r->npend)
            continue;
        int short_pool = 0;
        for (int i = 0; i < r->npend; i++) {
            int s = r->pend[i];
            if (r->want[s]) {
                cr_serve(r, s);
                short_pool |= r->want[s] != 0;
            }
        }
        /* the pool cannot serve a sender that asks: take back what the
         * other senders hold unspent beyond their shares (they may be done
         * with this channel, or wait for more themselves, holding too
         * little to send; a sender that asks is asked too: it may hold
         * plenty, having asked early), so that the pool gathers it and
         * serves the first that asks. Shares stay reserved (a sender that has exited
         * is never asked). Some sender holds more than its share whenever the pool is
         * short: the pool and what the senders hold beyond their shares add up to at
         * least half the ring (credit_rx_open()), more than any request needs. */
        for (int s = 0; short_pool && s < g_cr.size; s++)
            if (r->allot[s] > r->floor && !r->revoked[s] &&
                cr_post(s, CR_REVOKE, id, r->floor) == 0)
                r->revoked[s] = 1;
        int full = 0, keep_n = 0;
        for (int i = 0; i < r->npend; i++) {
            int s = r->pend[i];
            /* batched: a grant when a quarter of the sender's credits is
             * back, or when it asked (none once the TX ring is full: the
             * rest next time) */
            if (full || !r->done[s] || (r->done[s] < r->allot[s] / 4 && !r->asking[s])) {
                if (r->done[s] || r->want[s] || r->asking[s])
                    r->pend[keep_n++] = s; /* still to do */
                else
                    r->inpend[s] = 0;
                continue;
            }
            uint32_t give = r->done[s];
            if (short_pool && !r->asking[s] && r->allot[s] > r->floor) { /* cut back */
                uint32_t cut = r->allot[s] - r->floor < give ? r->allot[s] - r->floor : give;
                r->allot[s] -= cut;
                r->pool += cut;
                give -= cut;
            }
            if (give && cr_post(s, CR_GRANT, id, give) < 0) {
                full = 1; /* undo the cut: done and allot as before */
                r->allot[s] += r->done[s] - give;
                r->pool -= r->done[s] - give;
                r->pend[keep_n++] = s;
                continue;
            }
            r->done[s] = 0;
            r->asking[s] = 0;
            if (give)
                r->revoked[s] = 0; /* it holds more again */
            if (r->want[s])
                r->pend[keep_n++] = s;
            else
                r->inpend[s] = 0;
        }
        r->npend = keep_n;
    }
}

/* Set up credits with the device (SKIFCH_CREDITS read at the first Open). */
static int credit_open(void)
{
    int rc = topo();
    if (rc < 0)
        return rc;
    g_cr.size = g_topo.size;
    g_cr.share = credit_share(g_cr.size);
    g_cr.chan =
        g_nchans - SKIF_CRW_CHAN_BACK; /* 59 of 64: 60 MPI, 61-62 SkifColl, 63 skifch_util */
    size_t n = (size_t)g_cr.size * (size_t)g_nchans;
    g_cr.cred = calloc(n, sizeof(*g_cr.cred)); /* every entry the share (cred_get()) */
    g_cr.asked = calloc(n, 1);
    if (!g_cr.cred || !g_cr.asked)
        return -ENOMEM;
    g_cr.fast_dst = (netaddr_t)-1; /* reserved bits set: no destination */
    g_cr.fast_allow = 0;
    g_cr.last_node = UINT32_MAX;
    rc = skif_chan_open(g_dev, g_cr.chan, 16, &g_cr.q);
    return rc < 0 ? rc : 0;
}

static void credit_close(void)
{
    free(g_cr.cred);
    free(g_cr.asked);
    g_cr.cred = NULL;
    g_cr.asked = NULL;
    g_cr.fast_dst = (netaddr_t)-1;
    g_cr.fast_allow = 0;
    g_cr.q = NULL; /* closed with the device */
}

/* A channel opens or closes at the receiver. */
static int credit_rx_open(int id, uint32_t ring)
{
    struct cr_rx *r = calloc(1, sizeof(*r));
    size_t n = (size_t)g_cr.size;
    if (!r || !(r->allot = calloc(n, 4)) || !(r->done = calloc(n, 4)) ||
        !(r->want = calloc(n, 4)) || !(r->asking = calloc(n, 1)) || !(r->revoked = calloc(n, 1)) ||
        !(r->pend = calloc(n, sizeof(int))) || !(r->inpend = calloc(n, 1))) {
        if (r) {
            free(r->allot);
            free(r->done);
            free(r->want);
            free(r->asking);
            free(r->revoked);
            free(r->pend);
        }
        free(r);
        return -ENOMEM;
    }
    for (size_t s = 0; s < n; s++)
        r->allot[s] = g_cr.share;
    r->ring = ring;
    r->pool = (int64_t)ring - (int64_t)g_cr.share * (int64_t)n;
    /* More ranks than half the ring holds shares for (over 2048 on 64 KiB
     * rings, over 128 on the smallest): the shares are over-committed, and
     * the pool keeps half the ring all the same. The promise then holds
     * unless the senders spend their shares and the pool's grants at once
     * (the adapter then holds the link until the ring drains: late, never
     * lost). With no pool, every request had to take back every share
     * (4096 REVOKEs a request: docs/skifch.md "Credits"). */
    if (r->pool < (int64_t)ring / 2)
        r->pool = (int64_t)ring / 2;
    g_crx[id] = r;
    /* A ring larger than the smallest: give every sender at once its part
     * of half the ring, so a sender need not ask before it runs at the
     * link's rate, when that part is worth a message (up to about 60
     * ranks on 64 KiB rings); it stays reserved for the sender as the
     * share does. The rest stays in the pool. */
    uint32_t part = (ring / 2 / (uint32_t)n) & ~7u;
    r->floor = g_cr.share;
    if (part >= g_cr.share + CR_OPEN_GRANT_MIN) {
        r->floor = part;
        for (size_t s = 0; s < n; s++)
            if (cr_post((int)s, CR_GRANT, id, part - g_cr.share) == 0) {
                r->allot[s] += part - g_cr.share;
                r->pool -= part - g_cr.share;
            }
    }
    return 0;
}

static void credit_rx_close(int id)
{
    struct cr_rx *r = g_crx[id];
    if (!r)
        return;
    free(r->allot);
    free(r->done);
    free(r->want);
    free(r->asking);
    free(r->revoked);
    free(r->pend);
    free(r->inpend);
    free(r);
    g_crx[id] = NULL;
}

/* Before the program waits (an empty Recv, a refused Send, SkifCh_Wait). */
static void before_wait(void)
{
    if (g_cr.on)
        credit_hook();
}

/* Let the adapter send what was posted, then close the device. */
static void dev_put(void)
{
    while (!skif_tx_idle(g_dev))
        if (skif_dev_wait(g_dev, 0) < 0)
            break;
    skif_dev_close(g_dev);
    g_dev = NULL;
    g_txq = NULL;
    if (g_cr.on)
        credit_close();
}

int SkifCh_Channels(void)
{
    if (g_nchans)
        return g_nchans;
    int rc = dev_get();
    if (rc < 0)
        return set_errno(rc);
    if (g_nopen == 0)
        dev_put(); /* nothing holds the device */
    return g_nchans;
}

/* The environment variable name as a number in lo..hi (dflt when unset or
 * empty): 0, or -1 when it is something else. */
static int env_num(const char *name, long lo, long hi, long dflt, long *v)
{
    const char *s = getenv(name);
    *v = dflt;
    if (!s || !*s)
        return 0;
    char *end;
    *v = strtol(s, &end, 10);
    return (*end || *v < lo || *v > hi) ? -1 : 0;
}

/* A handle entry never handed out, or once all were, the oldest closed one;
 * NULL when all are open (cannot happen: fewer channels than entries). */
static SkifCh *entry_new(void)
{
    if (g_used < SKIFCH_HANDLES)
        return &g_ch[g_used++];
    for (size_t i = 0; i < SKIFCH_HANDLES; i++) {
        SkifCh *h = &g_ch[g_reuse];
        g_reuse = (g_reuse + 1) % SKIFCH_HANDLES;
        if (!h->open)
            return h;
    }
    return NULL;
}

SkifCh *SkifCh_Open(int channel)
{
    if (channel < 0 || channel >= (int)SKIF_CHANS_MAX) {
        errno = EINVAL;
        return NULL;
    }
    if (g_open[channel]) {
        errno = EBUSY;
        return NULL;
    }
    long log2, credits;
    if (env_num("SKIFCH_RING_LOG2", SKIF_RING_LOG2_MIN, SKIF_RING_LOG2_MAX, RX_RING_LOG2, &log2) ||
        env_num("SKIFCH_CREDITS", 0, 1, 1, &credits)) {
        errno = EINVAL;
        return NULL;
    }
    if (!g_dev) /* credits are on or off for a whole opening of the device */
        g_cr.on = (int)credits;
    int rc = dev_get();
    if (rc < 0)
        return set_errno(rc), NULL;
    struct skif_chan *chan;
    rc = skif_chan_open(g_dev, channel, (unsigned)log2, &chan);
    if (rc < 0) {
        if (g_nopen == 0)
            dev_put();
        return set_errno(rc), NULL;
    }
    if (g_cr.on && (rc = credit_rx_open(channel, 1u << log2)) < 0) {
        skif_chan_close(chan);
        if (g_nopen == 0)
            dev_put();
        return set_errno(rc), NULL;
    }
    SkifCh *h = entry_new();
    g_nopen++;
    h->addr = (skif_dev_node_id(g_dev) << SKIF_NA_NODE_LO) | (netaddr_t)channel;
    h->chan = chan;
    h->open = 1;
    g_open[channel] = h;
    return h;
}

int SkifCh_Close(SkifCh *skifch)
{
    int rc = check(skifch);
    if (rc < 0)
        return set_errno(rc);
    int id = skif_chan_id(skifch->chan);
    credit_rx_close(id);
    g_open[id] = NULL;
    rc = skif_chan_close(skifch->chan);
    skifch->chan = &g_none;
    skifch->open = 0;
    if (--g_nopen == 0)
        dev_put();
    return rc < 0 ? set_errno(rc) : 0;
}

netaddr_t SkifCh_MyAddr(const SkifCh *skifch)
{
    int rc = check(skifch);
    if (rc < 0) {
        errno = -rc;
        return (netaddr_t)-1;
    }
    return skifch->addr;
}

/* ------------------------------------------------------------ messages */

/* Send with credits (every Send comes here then): as much of the message as
 * both the TX ring and the credits for its destination channel allow, with
 * the same rules (a piece of at most PARTIAL_MIN bytes whole or not at all,
 * a part at least PARTIAL_MIN). Without credits it asks the receiver once
 * and returns EAGAIN: at once when the program has sent something since it
 * was last refused for credits (so a program that goes on with other
 * destinations loses no time), else after letting simulated time pass. */
static ssize_t send_credit(netaddr_t dst, const struct iovec *iov, int iov_count, size_t total)
{
    int rc, chan = SKIFCH_ADDR_CHAN(dst);
    if (chan == g_cr.chan)
        return set_errno(-EINVAL); /* the library's own */
    fast_sync();
    int rank = rank_of_node((uint32_t)SKIFCH_ADDR_NODE(dst));
    size_t idx = (size_t)rank * (size_t)g_nchans + (size_t)chan;
    size_t space = skif_tx_space(g_dev);
    if (cred_get(idx) < 8 + skif_round8((uint32_t)(total < space ? total : space)))
        credit_hook(); /* grants may have come */
    uint32_t cred = cred_get(idx);
    size_t room = cred >= 8 ? cred - 8 : 0; /* payload the credits cover */
    int short_cred = room < space;
    if (short_cred)
        space = room;
    size_t len = total < space ? total : space;
    if (8 + skif_round8((uint32_t)len) > cred)
        short_cred = 1, len = 0, space = 0; /* not even an empty message */
    /* parts may be as small as CREDIT_PART_MIN when credits are what is
     * short (the shares of many senders can be small) */
    int parts_ok = !(iov_count == 1 && total <= PARTIAL_MIN) && total > PARTIAL_MIN;
    size_t part_min = short_cred && len < total ? CREDIT_PART_MIN : PARTIAL_MIN;
    if ((len < total || space == 0) && (len < part_min || !parts_ok)) {
        if (short_cred) {
            /* what lets it go on: a first part, or the whole piece */
            uint32_t need = 8 + (parts_ok ? CREDIT_PART_MIN : skif_round8((uint32_t)total));
            if (!g_cr.asked[idx] && cr_post(rank, CR_REQ, chan, need) == 0)
                g_cr.asked[idx] = 1;
            uint32_t tail = skif_dev_txq(g_dev)->tail;
            if (tail != g_cr.refuse_tail) {
                g_cr.refuse_tail = tail; /* progress since the last refusal */
                return set_errno(-EAGAIN);
            }
        }
        before_wait();
        rc = skif_dev_wait(g_dev, POLL_CYCLES);
        if (rc >= 0)
            credit_hook(); /* grants that came while waiting */
        return set_errno(rc < 0 ? rc : -EAGAIN);
    }
    rc = skif_tx_post(g_dev, dst, iov, iov_count, len);
    if (rc < 0)
        return set_errno(rc);
    uint32_t left = cred_get(idx) - 8 - skif_round8((uint32_t)len);
    cred_set(idx, left);
    /* the credit-request flag: running low, ask for more before running out */
    if (left < CR_ASK_BELOW && !g_cr.asked[idx] &&
        cr_post(rank, CR_REQ, chan, 8 + PARTIAL_MIN) == 0)
        g_cr.asked[idx] = 1;
    /* SkifCh_Send's inline path sends there next, down to the threshold
     * of the next request (none while one is out) */
    uint32_t hold = g_cr.asked[idx] ? 0 : left < CR_ASK_BELOW ? left : CR_ASK_BELOW;
    g_cr.fast_dst = dst;
    g_cr.fast_idx = idx;
    g_cr.fast_hold = hold;
    g_cr.fast_allow = left - hold;
    return (ssize_t)len;
}

/* Send's general path: a gather, a piece larger than a message, a ring that
 * is full, or an error. Kept out of line so the common case stays short. */
__attribute__((noinline)) static ssize_t send_slow(SkifCh *skifch, netaddr_t dst_netaddr,
                                                   const struct iovec *iov, int iov_count)
{
    int rc;
    if (!is_open(skifch))
        return set_errno(check(skifch));
    if (iov_count < 0 || iov_count > IOV_MAX || (iov_count > 0 && !iov))
        return set_errno(-EINVAL);
    if ((rc = skif_tx_check(g_dev, dst_netaddr)) < 0)
        return set_errno(rc);
    size_t total = 0;
    for (int i = 0; i < iov_count; i++) {
        /* as writev: the lengths must add up to at most SSIZE_MAX */
        if ((iov[i].iov_len && !iov[i].iov_base) || iov[i].iov_len > (size_t)SSIZE_MAX - total)
            return set_errno(-EINVAL);
        total += iov[i].iov_len;
    }
    if (g_cr.on)
        return send_credit(dst_netaddr, iov, iov_count, total);
    if (iov_count == 1 && total <= PARTIAL_MIN) {
        /* a short single piece goes whole or not at all: SkifCh_Send tried
         * it and the ring is full */
        before_wait();
        rc = skif_dev_wait(g_dev, POLL_CYCLES);
        return set_errno(rc < 0 ? rc : -EAGAIN);
    }
    size_t space = skif_tx_space(g_dev);
    size_t len = total < space ? total : space;
    /* Send a part only when it is worth a packet: a sliver of a large
     * message costs a header and an event for little data; waiting for the
     * adapter to drain the ring is better. */
    if (space == 0 || (len < total && len < PARTIAL_MIN)) {
        before_wait();
        rc = skif_dev_wait(g_dev, POLL_CYCLES);
        return set_errno(rc < 0 ? rc : -EAGAIN);
    }
    rc = skif_tx_post(g_dev, dst_netaddr, iov, iov_count, len);
    if (rc < 0)
        return set_errno(rc);
    return (ssize_t)len;
}

ssize_t SkifCh_Send(SkifCh *skifch, netaddr_t dst_netaddr, const struct iovec *iov, int iov_count)
{
    /* the common case: an open channel, one piece that fits a message and
     * the ring: whole or nothing; with credits, to the destination of the
     * last Send, with credits enough that no request is due after it */
    if (is_open(skifch) && iov_count == 1 && iov && iov[0].iov_len <= SKIFCH_MAX_MSG) {
        size_t len = iov[0].iov_len;
        if (!g_cr.on) {
            if (skif_txq_post1(g_txq, dst_netaddr, iov[0].iov_base, len) == 0)
                return (ssize_t)len;
        } else if (dst_netaddr == g_cr.fast_dst) {
            /* checked when send_credit() sent there; running low, it asks
             * for more */
            uint32_t cost = 8 + skif_round8((uint32_t)len);
            if (cost <= g_cr.fast_allow &&
                skif_txq_put1(g_txq, dst_netaddr, iov[0].iov_base, len) == 0) {
                g_cr.fast_allow -= cost;
                return (ssize_t)len;
            }
        }
    }
    return send_slow(skifch, dst_netaddr, iov, iov_count);
}

/* Recv's other paths: bad arguments; nothing there, a corrupt ring or a
 * closed channel (the common path did not take a message of the entry's
 * channel c). */
__attribute__((noinline)) static ssize_t recv_bad(SkifCh *skifch, struct iovec *cont,
                                                  int *cont_count)
{
    return set_errno(is_open(skifch) && (!cont || !cont_count) ? -EINVAL : check(skifch));
}

__attribute__((noinline)) static ssize_t recv_none(struct skif_chan *c, struct iovec *cont,
                                                   int *cont_count)
{
    if (c == &g_none)
        return set_errno(-EBADF);
    ssize_t len = skif_chan_take(c, cont, cont_count);
    if (len >= 0)
        return len; /* it came since the common path looked */
    if (len != -EAGAIN)
        return set_errno((int)len);
    before_wait();
    int rc = skif_dev_wait(g_dev, POLL_CYCLES);
    return set_errno(rc < 0 ? rc : -EAGAIN);
}

ssize_t SkifCh_Recv(SkifCh *skifch, struct iovec cont[SKIFCH_CONT_SIZE], int *cont_count)
{
    /* separate tests: the compiler then keeps them as plain branches */
    if (!is_entry(skifch))
        return recv_bad(skifch, cont, cont_count);
    if (!cont)
        return recv_bad(skifch, cont, cont_count);
    if (!cont_count)
        return recv_bad(skifch, cont, cont_count);
    struct skif_chan *c = skifch->chan; /* g_none when closed: it is empty */
    ssize_t len = skif_chan_take_fast(c, cont, cont_count);
    if (len < 0)
        return recv_none(c, cont, cont_count);
    return len;
}

/* RecvComp's other paths: bad handle, closed, nothing taken, several
 * messages taken, the head due at the adapter. */
__attribute__((noinline)) static int comp_slow(SkifCh *skifch)
{
    int rc = check(skifch);
    if (rc < 0)
        return set_errno(rc);
    rc = skif_chan_complete(skifch->chan);
    return rc < 0 ? set_errno(rc) : 0;
}

int SkifCh_RecvComp(SkifCh *skifch)
{
    /* a closed entry's channel, g_none, has nothing taken */
    if (is_entry(skifch) && skif_chan_complete_fast(skifch->chan))
        return 0;
    return comp_slow(skifch);
}

int SkifCh_Wait(SkifCh *skifch, uint64_t max_cycles)
{
    int rc = check(skifch);
    if (rc < 0)
        return set_errno(rc);
    before_wait();
    rc = skif_dev_wait(g_dev, max_cycles);
    return rc < 0 ? set_errno(rc) : rc;
}

uint64_t SkifCh_Cycle(const SkifCh *skifch)
{
    return check(skifch) == 0 ? skif_dev_cycle(g_dev) : 0;
}

unsigned SkifCh_ClockMHz(const SkifCh *skifch)
{
    return check(skifch) == 0 ? skif_dev_clock_mhz(g_dev) : 0;
}

long SkifCh_Discarded(const SkifCh *skifch)
{
    int rc = check(skifch);
    if (rc < 0)
        return set_errno(rc);
    uint32_t v;
    rc = skif_reg_read(g_dev, SKIF_REG_CH_DROPS, &v);
    return rc < 0 ? set_errno(rc) : (long)v;
}

/* The device under SkifCh, for the collective library (sw/skifcoll.c,
 * which declares it weak): NULL before the first SkifCh_Open. */
struct skif_dev *skifch__device(void);
struct skif_dev *skifch__device(void)
{
    return g_dev;
}
