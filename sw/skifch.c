/* SPDX-License-Identifier: Apache-2.0 */
/* skifch.c: SkifCh over the skifsim driver (see skifch.h).
 *
 * One device per process, opened with the first channel (or by
 * SkifCh_Channels) and closed with the last: its TX ring carries the
 * messages of all the process's channels. Handles live in a static table,
 * one per channel number, so a closed handle stays recognisable (EBADF).
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

/* The handles (a GNU range designator: every entry starts closed). */
static struct SkifCh g_ch[SKIF_CHANS_MAX] = {[0 ... SKIF_CHANS_MAX - 1] = {.chan = &g_none}};
static struct skif_dev *g_dev;
static struct skif_txq *g_txq; /* g_dev's TX side, for the inline hot path */
static int g_nopen;

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
    return ((off >> ENTRY_LOG2) | (off << (sizeof(off) * CHAR_BIT - ENTRY_LOG2))) < SKIF_CHANS_MAX;
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
    for (int d = 0; d < 4; d++) {
        coord[d] = rank % g_topo.dims[d];
        rank /= g_topo.dims[d];
    }
    return 0;
}

netaddr_t SkifCh_AddrAt(const int coord[4], int channel)
{
    if (topo() < 0 || !coord || channel < 0 || channel >= (int)SKIF_CHANS_MAX) {
        errno = topo() < 0 ? ENODEV : EINVAL;
        return (netaddr_t)-1;
    }
    netaddr_t id = 0;
    for (int d = 0; d < 4; d++) {
        if (coord[d] < 0 || coord[d] >= g_topo.dims[d]) {
            errno = EINVAL;
            return (netaddr_t)-1;
        }
        id |= (netaddr_t)coord[d] << (4 * d);
    }
    return (id << SKIF_NA_NODE_LO) | (netaddr_t)channel;
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
    uint32_t node = (uint32_t)SKIFCH_ADDR_NODE(addr);
    for (int d = 0; d < 4; d++) {
        c[d] = (int)(node >> (4 * d)) & 0xf;
        if (c[d] >= g_topo.dims[d])
            return set_errno(-EINVAL);
        rank += c[d] * stride;
        stride *= g_topo.dims[d];
    }
    if (coord)
        memcpy(coord, c, sizeof(c));
    if (channel)
        *channel = SKIFCH_ADDR_CHAN(addr);
    return rank;
}

/* ------------------------------------------------------------ channels */

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
    return 0;
}

/* ------------------------------------------------------------ spill
 *
 * Receive-side overflow. A message for a channel whose ring is full waits in
 * the adapter and holds up every later message to the node (head-of-line
 * blocking, docs/skifch.md). So when the program is about to wait (an empty
 * Recv, a refused Send, SkifCh_Wait) and one of its channels has nothing
 * taken but less free ring space than the largest entry, the library copies
 * that channel's waiting messages out of the ring into memory of its own and
 * frees the ring space: the adapter goes on with the other channels' traffic.
 * Recv then returns the copied messages first, in order, then the ring's
 * newer ones; RecvComp completes them in the same order. While a channel has
 * copied messages its status word is replaced by one that always reads
 * "empty" and its taken count by 2, so the common paths of Recv and RecvComp
 * fall through to the code here and cost nothing more. SKIFCH_SPILL_MB bounds
 * the copies per process (default 64; 0 turns this off: then a full channel
 * blocks the node, as the adapter alone does). */

struct spill_msg {
    struct spill_msg *next;
    size_t len;
    uint8_t data[];
};

static struct spill {
    struct spill_msg *first;   /* oldest not completed */
    struct spill_msg *take;    /* next to take; NULL: all taken */
    struct spill_msg *last;    /* newest */
    const uint64_t *real_tail; /* the channel's status word */
    uint64_t empty_tail;       /* what the common path reads instead: == read */
    uint32_t taken;            /* copied messages taken, not completed */
    uint32_t ring_taken;       /* ring messages taken after the copies ran out */
    uint8_t on;                /* the channel has copied messages */
    long total;                /* messages copied since the channel opened */
} g_spill[SKIF_CHANS_MAX];
static size_t g_spill_bytes;            /* payload bytes held in copies */
static size_t g_spill_max = (size_t)-1; /* SKIFCH_SPILL_MB, read at each Open */

static void spill_end_if_done(struct spill *s, struct skif_chan *c)
{
    if (s->first || !s->on)
        return;
    c->tail = s->real_tail;
    c->taken = s->ring_taken;
    s->ring_taken = 0;
    s->on = 0;
}

/* Copy channel c's untaken messages below tail out of its ring. */
static void spill_fill(struct spill *s, struct skif_chan *c, uint32_t tail)
{
    uint32_t at = c->read, size = (uint32_t)c->mask + 1;
    while (at != tail) {
        const uint8_t *e = c->va + (at & c->mask);
        uint32_t len = skif_entry_len(e), entry = 8 + skif_round8(len);
        if (len > SKIF_MAX_MSG || tail - at < entry || g_spill_bytes + len > g_spill_max)
            break; /* a malformed entry stays for Recv to report */
        struct spill_msg *m = malloc(sizeof(*m) + len);
        if (!m)
            break;
        uint32_t pos = (at + 8) & (uint32_t)c->mask;
        uint32_t first = len < size - pos ? len : size - pos;
        memcpy(m->data, c->va + pos, first);
        memcpy(m->data + first, c->va, len - first);
        m->next = NULL;
        m->len = len;
        if (s->last)
            s->last->next = m;
        else
            s->first = m;
        s->last = m;
        if (!s->take)
            s->take = m;
        g_spill_bytes += len;
        s->total++;
        at += entry;
    }
    if (at == c->read)
        return;
    /* nothing of the ring is taken: all below `at` is free now (the next
     * wait writes the head to the adapter) */
    c->read = at;
    c->head = at;
    if (!s->on) {
        s->on = 1;
        s->real_tail = c->tail;
        c->tail = &s->empty_tail;
        s->ring_taken = 0;
        c->taken = 2;
    }
    s->empty_tail = at;
}

/* Before the program waits: copy out the channels that may hold up others. */
static void spill_scan(void)
{
    if (g_spill_max == 0)
        return;
    int nchans = skif_dev_channels(g_dev); /* no channel beyond them opens */
    for (int id = 0; id < nchans; id++) {
        struct spill *s = &g_spill[id];
        struct skif_chan *c = g_ch[id].chan;
        /* (with copies already, more can follow them while no ring
         * message is taken) */
        if (!g_ch[id].open || (s->on ? s->ring_taken : c->taken))
            continue;
        uint32_t tail = (uint32_t)__atomic_load_n(s->on ? s->real_tail : c->tail, __ATOMIC_ACQUIRE);
        uint32_t size = (uint32_t)c->mask + 1;
        if (tail != c->read && size - (tail - c->head) < 16 + SKIF_MAX_MSG)
            spill_fill(s, c, tail);
    }
}

/* Recv on a channel with copied messages: the oldest copy not taken, or,
 * when all are taken, the ring's next message. */
static ssize_t spill_recv(struct spill *s, struct skif_chan *c, struct iovec *cont, int *cont_count)
{
    struct spill_msg *m = s->take;
    if (m) {
        s->take = m->next;
        s->taken++;
        cont[0].iov_base = m->data;
        cont[0].iov_len = m->len;
        *cont_count = 1;
        return (ssize_t)m->len;
    }
    c->tail = s->real_tail;
    c->taken = s->ring_taken;
    ssize_t len = skif_chan_take(c, cont, cont_count);
    s->ring_taken = c->taken;
    s->empty_tail = c->read;
    c->tail = &s->empty_tail;
    c->taken = 2;
    return len;
}

/* RecvComp on a channel with copied messages: copies first (older). */
static int spill_comp(struct spill *s, struct skif_chan *c)
{
    int rc = 0;
    if (s->taken) {
        struct spill_msg *m = s->first;
        s->first = m->next;
        if (!s->first)
            s->last = NULL;
        g_spill_bytes -= m->len;
        free(m);
        s->taken--;
    } else if (s->ring_taken) {
        c->taken = s->ring_taken;
        rc = skif_chan_complete(c);
        s->ring_taken = c->taken;
        c->taken = 2;
    } else {
        return -ENOENT;
    }
    spill_end_if_done(s, c);
    return rc;
}

/* The channel closes: drop its copies. */
static void spill_drop(int id)
{
    struct spill *s = &g_spill[id];
    if (s->on) {
        g_ch[id].chan->tail = s->real_tail;
        g_ch[id].chan->taken = s->ring_taken;
    }
    while (s->first) {
        struct spill_msg *m = s->first;
        s->first = m->next;
        g_spill_bytes -= m->len;
        free(m);
    }
    *s = (struct spill){0};
}

long SkifCh_Spilled(const SkifCh *skifch)
{
    int rc = check(skifch);
    if (rc < 0)
        return set_errno(rc);
    return g_spill[skifch - g_ch].total;
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
}

int SkifCh_Channels(void)
{
    int rc = dev_get();
    if (rc < 0)
        return set_errno(rc);
    int n = skif_dev_channels(g_dev);
    if (g_nopen == 0)
        dev_put(); /* nothing holds the device */
    return n;
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

SkifCh *SkifCh_Open(int channel)
{
    if (channel < 0 || channel >= (int)SKIF_CHANS_MAX) {
        errno = EINVAL;
        return NULL;
    }
    if (g_ch[channel].open) {
        errno = EBUSY;
        return NULL;
    }
    long log2, spill_mb;
    if (env_num("SKIFCH_RING_LOG2", SKIF_RING_LOG2_MIN, SKIF_RING_LOG2_MAX, RX_RING_LOG2, &log2) ||
        env_num("SKIFCH_SPILL_MB", 0, 65536, 64, &spill_mb)) {
        errno = EINVAL;
        return NULL;
    }
    g_spill_max = (size_t)spill_mb << 20;
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
    g_nopen++;
    g_ch[channel].chan = chan;
    g_ch[channel].open = 1;
    g_ch[channel].addr = (skif_dev_node_id(g_dev) << SKIF_NA_NODE_LO) | (netaddr_t)channel;
    return &g_ch[channel];
}

int SkifCh_Close(SkifCh *skifch)
{
    int rc = check(skifch);
    if (rc < 0)
        return set_errno(rc);
    spill_drop((int)(skifch - g_ch));
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
        if (iov[i].iov_len && !iov[i].iov_base)
            return set_errno(-EINVAL);
        total += iov[i].iov_len;
    }
    if (iov_count == 1 && total <= PARTIAL_MIN) {
        /* a short single piece goes whole or not at all: SkifCh_Send tried
         * it and the ring is full */
        spill_scan();
        rc = skif_dev_wait(g_dev, POLL_CYCLES);
        return set_errno(rc < 0 ? rc : -EAGAIN);
    }
    size_t space = skif_tx_space(g_dev);
    size_t len = total < space ? total : space;
    /* Send a part only when it is worth a packet: a sliver of a large
     * message costs a header and an event for little data; waiting for the
     * adapter to drain the ring is better. */
    if (space == 0 || (len < total && len < PARTIAL_MIN)) {
        spill_scan();
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
     * the ring: whole or nothing */
    if (is_open(skifch) && iov_count == 1 && iov && iov[0].iov_len <= SKIFCH_MAX_MSG &&
        skif_txq_post1(g_txq, dst_netaddr, iov[0].iov_base, iov[0].iov_len) == 0)
        return (ssize_t)iov[0].iov_len;
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
    struct spill *s = &g_spill[c->id];
    if (s->on && !s->take && !s->taken)
        spill_end_if_done(s, c);
    ssize_t len = s->on ? spill_recv(s, c, cont, cont_count) : skif_chan_take(c, cont, cont_count);
    if (len >= 0)
        return len; /* it came since the common path looked */
    if (len != -EAGAIN)
        return set_errno((int)len);
    spill_scan();
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
    struct spill *s = &g_spill[skifch - g_ch];
    rc = s->on ? spill_comp(s, skifch->chan) : skif_chan_complete(skifch->chan);
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
    spill_scan();
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
