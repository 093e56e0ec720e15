/* SPDX-License-Identifier: Apache-2.0 */
/* netbench.c: traffic patterns, scoreboard and statistics (see netbench.h). */
#define _POSIX_C_SOURCE 200809L
#include "netbench.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fifo.h"
#include "skif_hw.h"
#include "skif_node.h"
#include "skif_opts.h"

/* A packet waiting at its source. */
struct pkt {
    uint64_t t_create;
    uint32_t seq;
    int dst; /* rank, or -1: a bad destination (dropped at injection) */
    int measured;
};

/* What the receiver of a pair expects next. */
struct expect {
    uint64_t t_create;
    uint32_t seq;
    int measured;
};

struct src {
    struct fifo q; /* struct pkt */
    int flit;      /* next flit of the head packet */
    uint64_t rng;
};

struct dst {
    int in_pkt; /* inside a packet */
    int src;    /* its source rank */
    uint32_t seq;
    int flits; /* flits seen */
    int want;  /* flits it must have */
};

struct nb {
    struct nb_opts o;
    int n;
    uint64_t now;
    struct src *src;
    struct dst *dst;
    uint32_t *send_seq;  /* per pair */
    struct fifo *expect; /* per pair: struct expect */
    uint64_t outstanding, measured_left, bad_sent, bad_injected;
    uint64_t flits_in_window, pkts_in_window;
    double *lat;
    size_t nlat, caplat;
    double sh, shh, sl, slh; /* measured packets: sums of hops, hops^2, latency, latency*hops */
    uint64_t last_move;
    uint32_t *drops;
    int failed;
    int saturated;
    char stuck[512];
};

static const char *pattern_names[] = {"uniform", "transpose", "bitcomp",
                                      "tornado", "neighbor",  "hotspot"};

static void usage(FILE *f, const char *cmd)
{
    fprintf(f,
            "usage: %s [options]\n"
            "Synthetic traffic on the torus fabric (routers only), with a scoreboard that\n"
            "checks every packet is delivered once, intact, to the right node, in order\n"
            "per source-destination pair; prints latency and accepted throughput.\n"
            "  --dims X[xY[xZ[xW]]]  the torus (each 2..16); the model is built per number of\n"
            "                        dimensions: build/netbench/nD/skifnet for D of them\n"
            "  --pattern P           uniform, transpose, bitcomp, tornado, neighbor, hotspot\n"
            "  --load F              offered load, flits/node/cycle (0 < F <= 1; default 0.1)\n"
            "  --size N              flits per packet, header included (1..257; default 4)\n"
            "  --warmup C            cycles before measuring (default 2000)\n"
            "  --measure C           measurement window, cycles (default 5000)\n"
            "  --drain C             cycles allowed to deliver measured packets (default 20000)\n"
            "  --watchdog C          fail if no flit moves for C cycles (default 5000)\n"
            "  --seed S              random seed (default 1)\n"
            "  --bad-dst N           every Nth packet of node 0 goes outside the torus\n"
            "  --csv FILE            append a result line to FILE\n"
            "  --threads T           evaluate the routers in T threads, T contiguous parts of\n"
            "                        the torus (1..%d; default 1: the same results); the\n"
            "                        threads are used only while they pay (not where a\n"
            "                        cycle's work is a few microseconds)\n"
            "  --no-skip             evaluate every router every cycle (by default a router\n"
            "                        idle for 4 cycles, with idle links, is not evaluated\n"
            "                        until a flit or credit comes: the same results, faster)\n"
            "  -q                    no text report\n",
            cmd, SKIF_THREADS_MAX);
}

static int num(const char *s, double lo, double hi, double *out)
{
    char *end;
    if (!s || !*s)
        return -1;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || v < lo || v > hi || v != v)
        return -1;
    *out = v;
    return 0;
}

int nb_parse(struct nb_opts *o, int argc, char **argv)
{
    memset(o, 0, sizeof(*o));
    o->pattern = NB_UNIFORM;
    o->load = 0.1;
    o->size = 4;
    o->warmup = 2000;
    o->measure = 5000;
    o->drain = 20000;
    o->watchdog = 5000;
    o->seed = 1;
    o->threads = 1;
    for (int d = 0; d < 4; d++)
        o->dims[d] = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double x;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout, argv[0]);
            return 1;
        }
        if (!strcmp(a, "-q")) {
            o->quiet = 1;
            continue;
        }
        if (!strcmp(a, "--no-skip")) {
            o->no_skip = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "skifnet: option '%s' %s\n", a,
                    a[0] == '-' ? "needs a value" : "is not an option");
            usage(stderr, argv[0]);
            return -1;
        }
        i++;
        if (!strcmp(a, "--dims")) {
            char err[160];
            if (skif_parse_dims(v, o->dims, &o->ndims, err, sizeof(err)) < 0) {
                fprintf(stderr, "skifnet: %s\n", err);
                return -1;
            }
        } else if (!strcmp(a, "--pattern")) {
            int k;
            for (k = 0; k < 6 && strcmp(v, pattern_names[k]); k++)
                ;
            if (k == 6) {
                fprintf(stderr,
                        "skifnet: --pattern '%s': one of uniform, transpose, bitcomp, "
                        "tornado, neighbor, hotspot\n",
                        v);
                return -1;
            }
            o->pattern = (enum nb_pattern)k;
        } else if (!strcmp(a, "--threads")) { /* (skifsim's words, sim/options/skif_opts.c) */
            if (num(v, 1, SKIF_THREADS_MAX, &x) < 0 || x != floor(x)) {
                fprintf(stderr, "skifnet: --threads '%s': expected a number of threads, 1..%d\n", v,
                        SKIF_THREADS_MAX);
                return -1;
            }
            o->threads = (int)x;
        } else if (!strcmp(a, "--csv")) {
            o->csv = v;
        } else {
            struct {
                const char *name;
                double lo, hi;
            } lim[] = {{"--load", 1e-6, 1},         {"--size", 1, 257},   {"--warmup", 0, 1e9},
                       {"--measure", 1, 1e9},       {"--drain", 1, 1e10}, {"--watchdog", 10, 1e10},
                       {"--seed", 0, 4294967295.0}, {"--bad-dst", 1, 1e9}};
            int k;
            for (k = 0; k < 8 && strcmp(a, lim[k].name); k++)
                ;
            if (k == 8) {
                fprintf(stderr, "skifnet: unknown option '%s'\n", a);
                usage(stderr, argv[0]);
                return -1;
            }
            if (num(v, lim[k].lo, lim[k].hi, &x) < 0 || (k > 0 && x != floor(x))) {
                fprintf(stderr, "skifnet: %s '%s': expected a %s from %g to %g\n", a, v,
                        k ? "whole number" : "number", lim[k].lo, lim[k].hi);
                return -1;
            }
            switch (k) {
            case 0:
                o->load = x;
                break;
            case 1:
                o->size = (int)x;
                break;
            case 2:
                o->warmup = (uint64_t)x;
                break;
            case 3:
                o->measure = (uint64_t)x;
                break;
            case 4:
                o->drain = (uint64_t)x;
                break;
            case 5:
                o->watchdog = (uint64_t)x;
                break;
            case 6:
                o->seed = (unsigned)x;
                break;
            default:
                o->bad_dst_every = (int)x;
                break;
            }
        }
    }
    if (!o->ndims) {
        fprintf(stderr, "skifnet: give the torus with --dims\n");
        return -1;
    }
    if (o->pattern == NB_TRANSPOSE &&
        (o->ndims < 2 || o->dims[0] != o->dims[1] || (o->ndims == 4 && o->dims[2] != o->dims[3]) ||
         o->ndims == 3)) {
        fprintf(stderr, "skifnet: transpose needs a 2-D or 4-D torus with X == Y (and Z == W)\n");
        return -1;
    }
    if (o->pattern == NB_TORNADO) {
        int big = 0; /* tornado moves (size + 1) / 2 - 1 along each ring: 0 on a ring of 2 */
        for (int d = 0; d < o->ndims; d++)
            big |= o->dims[d] > 2;
        if (!big) {
            fprintf(stderr, "skifnet: tornado on a torus of rings of 2 sends every packet to its "
                            "own node: it needs a ring of 3 or more\n");
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ topology */

static void coords(const struct nb_opts *o, int r, int c[4])
{
    skif_rank_coords(r, o->dims, c);
}

static int rank_of(const struct nb_opts *o, const int c[4])
{
    int r = 0;
    for (int d = 3; d >= 0; d--)
        r = r * o->dims[d] + c[d];
    return r;
}

uint32_t nb_node_id(const struct nb_opts *o, int r)
{
    int c[4];
    coords(o, r, c);
    return skif_node_id(c);
}

static uint64_t rnd(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* Destination rank of a packet from src (deterministic patterns ignore rng). */
static int pick_dst(const struct nb_opts *o, int n, int src, uint64_t *rng)
{
    int c[4], t[4];
    coords(o, src, c);
    memcpy(t, c, sizeof(t));
    switch (o->pattern) {
    case NB_HOTSPOT:
        if (rnd(rng) % 10 == 0 && src != 0)
            return 0; /* 10% of packets to node 0 */
        /* fall through */
    case NB_UNIFORM: {
        int d = (int)(rnd(rng) % (uint64_t)(n - 1));
        return d >= src ? d + 1 : d;
    }
    case NB_TRANSPOSE:
        t[0] = c[1], t[1] = c[0], t[2] = c[3], t[3] = c[2];
        break;
    case NB_BITCOMP:
        for (int d = 0; d < o->ndims; d++)
            t[d] = o->dims[d] - 1 - c[d];
        break;
    case NB_TORNADO:
        for (int d = 0; d < o->ndims; d++)
            t[d] = (c[d] + (o->dims[d] + 1) / 2 - 1) % o->dims[d];
        break;
    case NB_NEIGHBOR:
        t[0] = (c[0] + 1) % o->dims[0];
        break;
    }
    return rank_of(o, t);
}

/* Hops of the route from coordinates s to t in dimension d (positive: the
 * plus direction), as the router routes (rtl/router/skif_torus_route.sv):
 * the shortest way; at exactly half the ring PLUS, or with the split
 * tie-break MINUS iff bit 0 of s[d], xor bit 0 of s ^ t in every other
 * dimension, is 1. */
static int hops(const int s[4], const int t[4], int d, int k, int tie_plus)
{
    int fwd = (t[d] - s[d] + k) % k;
    if (2 * fwd == k && !tie_plus) {
        int minus = s[d] & 1;
        for (int e = 0; e < 4; e++)
            if (e != d)
                minus ^= (s[e] ^ t[e]) & 1;
        return minus ? -fwd : fwd;
    }
    return 2 * fwd <= k ? fwd : fwd - k;
}

/* Links a packet from rank s to rank t crosses. */
static int route_hops(const struct nb_opts *o, int s, int t)
{
    int c[4], tc[4], h = 0;
    coords(o, s, c);
    coords(o, t, tc);
    for (int d = 0; d < o->ndims; d++)
        h += abs(hops(c, tc, d, o->dims[d], o->tie_plus));
    return h;
}

double nb_ideal_capacity(const struct nb_opts *o)
{
    int n = 1;
    for (int d = 0; d < 4; d++)
        n *= o->dims[d];
    /* load[node][dim][dir]: expected flits per cycle on that output link when
     * every node injects 1 flit/cycle */
    double *load = calloc((size_t)n * 8, sizeof(double));
    if (!load)
        return 0;
    double max_eject = 0, *eject = calloc((size_t)n, sizeof(double));
    for (int s = 0; s < n; s++) {
        /* destination distribution of s */
        for (int t = 0; t < n; t++) {
            double p;
            switch (o->pattern) {
            case NB_UNIFORM:
                p = t == s ? 0 : 1.0 / (n - 1);
                break;
            case NB_HOTSPOT:
                p = s == 0 ? (t == 0 ? 0 : 1.0 / (n - 1))
                           : 0.9 * (t == s ? 0 : 1.0 / (n - 1)) + (t == 0 ? 0.1 : 0);
                break;
            default: {
                uint64_t dummy = 1;
                p = pick_dst(o, n, s, &dummy) == t ? 1 : 0;
            }
            }
            if (p == 0 || t == s)
                continue;
            eject[t] += p;
            int c[4], tc[4];
            coords(o, s, c);
            coords(o, t, tc);
            int sc[4];
            memcpy(sc, c, sizeof(sc));
            for (int d = 0; d < o->ndims; d++) {
                int h = hops(sc, tc, d, o->dims[d], o->tie_plus);
                int dir = h > 0 ? 0 : 1, step = h > 0 ? 1 : -1;
                for (; c[d] != tc[d]; c[d] = (c[d] + step + o->dims[d]) % o->dims[d])
                    load[rank_of(o, c) * 8 + d * 2 + dir] += p;
            }
        }
    }
    double max = 0;
    for (int i = 0; i < n * 8; i++)
        if (load[i] > max)
            max = load[i];
    for (int i = 0; i < n; i++)
        if (eject[i] > max_eject)
            max_eject = eject[i];
    free(load);
    free(eject);
    if (max_eject > max)
        max = max_eject;
    return max > 1 ? 1.0 / max : 1.0;
}

/* ------------------------------------------------------------ run */

void nb_set_tie_plus(struct nb *b, int tie_plus)
{
    b->o.tie_plus = tie_plus;
}

struct nb *nb_new(const struct nb_opts *o)
{
    struct nb *b = calloc(1, sizeof(*b));
    if (!b)
        return NULL;
    b->o = *o;
    b->n = 1;
    for (int d = 0; d < 4; d++)
        b->n *= o->dims[d];
    int n = b->n;
    b->src = calloc((size_t)n, sizeof(*b->src));
    b->dst = calloc((size_t)n, sizeof(*b->dst));
    b->send_seq = calloc((size_t)n * n, sizeof(uint32_t));
    b->expect = calloc((size_t)n * n, sizeof(struct fifo));
    b->drops = calloc((size_t)n, sizeof(uint32_t));
    if (!b->src || !b->dst || !b->send_seq || !b->expect || !b->drops) {
        nb_free(b);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        fifo_init(&b->src[i].q, sizeof(struct pkt));
        b->src[i].rng = 0x9E3779B97F4A7C15ull * (uint64_t)(o->seed + 1) + (uint64_t)i * 7919u + 1;
    }
    for (int i = 0; i < n * n; i++)
        fifo_init(&b->expect[i], sizeof(struct expect));
    return b;
}

void nb_free(struct nb *b)
{
    if (!b)
        return;
    for (int i = 0; b->src && i < b->n; i++)
        fifo_free(&b->src[i].q);
    for (int i = 0; b->expect && i < b->n * b->n; i++)
        fifo_free(&b->expect[i]);
    free(b->src);
    free(b->dst);
    free(b->send_seq);
    free(b->expect);
    free(b->drops);
    free(b->lat);
    free(b);
}

uint64_t nb_now(const struct nb *b)
{
    return b->now;
}
int nb_nodes(const struct nb *b)
{
    return b->n;
}

static void fail(struct nb *b, int node, const char *fmt, uint64_t a, uint64_t c)
{
    if (b->failed++ < 10) {
        fprintf(stderr, "skifnet: scoreboard: cycle %" PRIu64 ": node %d: ", b->now, node);
        fprintf(stderr, fmt, a, c);
        fprintf(stderr, "\n");
    }
}

static uint64_t flit_word(int src, int dst, uint32_t seq, int idx)
{
    return (uint64_t)src << 48 | (uint64_t)(dst & 0xffff) << 32 | (uint64_t)(seq & 0xffffff) << 8 |
           (uint64_t)(idx & 0xff);
}

int nb_offer(struct nb *b, int node, uint64_t *data, int *last)
{
    struct src *s = &b->src[node];
    struct pkt *p = fifo_peek(&s->q);
    if (!p)
        return 0;
    int size = b->o.size;
    if (s->flit == 0) {
        uint32_t dst_id;
        if (p->dst < 0) /* outside the torus: one past X's size, or Y set on a ring */
            dst_id = b->o.dims[0] < 16 ? (uint32_t)b->o.dims[0] : 0x10u;
        else
            dst_id = nb_node_id(&b->o, p->dst);
        *data = (uint64_t)SKIF_KIND_MSG << SKIF_HDR_KIND_LO | (uint64_t)dst_id << SKIF_HDR_DST_LO |
                (uint64_t)nb_node_id(&b->o, node) << SKIF_HDR_SRC_LO |
                (uint64_t)(size - 1) * 8 << SKIF_HDR_LEN_LO;
    } else {
        *data = flit_word(node, p->dst, p->seq, s->flit);
    }
    *last = s->flit == size - 1;
    return 1;
}

void nb_injected(struct nb *b, int node)
{
    struct src *s = &b->src[node];
    b->last_move = b->now;
    if (s->flit == 0) {
        struct pkt *p = fifo_peek(&s->q);
        if (p && p->dst < 0)
            b->bad_injected++; /* its header is in: the router drops it */
    }
    if (++s->flit == b->o.size) {
        s->flit = 0;
        fifo_pop(&s->q);
    }
}

static int rank_of_id(const struct nb *b, uint32_t id)
{
    int c[4] = {(int)(id & 15), (int)(id >> 4 & 15), (int)(id >> 8 & 15), (int)(id >> 12 & 15)};
    for (int d = 0; d < 4; d++)
        if (c[d] >= b->o.dims[d])
            return -1;
    return rank_of(&b->o, c);
}

void nb_ejected(struct nb *b, int node, uint64_t data, int last)
{
    struct dst *d = &b->dst[node];
    b->last_move = b->now;
    if (b->now >= b->o.warmup && b->now < b->o.warmup + b->o.measure)
        b->flits_in_window++;
    if (!d->in_pkt) {
        uint32_t dst_id = (uint32_t)(data >> SKIF_HDR_DST_LO) & 0xffff;
        uint32_t src_id = (uint32_t)(data >> SKIF_HDR_SRC_LO) & 0xffff;
        uint32_t len = (uint32_t)(data >> SKIF_HDR_LEN_LO) & 0xfff;
        if (dst_id != nb_node_id(&b->o, node))
            fail(b, node, "packet for node id 0x%" PRIx64 " delivered here (src id 0x%" PRIx64 ")",
                 dst_id, src_id);
        d->src = rank_of_id(b, src_id);
        if (d->src < 0) {
            fail(b, node, "header names source id 0x%" PRIx64 " outside the torus%s", src_id, 0);
            d->src = 0;
        }
        d->want = (int)(len / 8) + 1;
        d->flits = 0;
        d->in_pkt = 1;
        struct expect *e = fifo_peek(&b->expect[d->src * b->n + node]);
        if (!e) {
            fail(b, node, "unexpected packet from rank %" PRIu64 " (duplicate?)%s",
                 (uint64_t)d->src, 0);
            d->seq = 0;
        } else {
            d->seq = e->seq;
        }
    } else if (data != flit_word(d->src, node, d->seq, d->flits)) {
        fail(b, node,
             "payload flit corrupt or out of order: got 0x%016" PRIx64 ", want 0x%016" PRIx64, data,
             flit_word(d->src, node, d->seq, d->flits));
    }
    d->flits++;
    if (!last && d->flits < d->want)
        return;
    if (!last || d->flits != d->want)
        fail(b, node, "packet of %" PRIu64 " flits ended after %" PRIu64, (uint64_t)d->want,
             (uint64_t)d->flits);
    d->in_pkt = 0;
    struct fifo *q = &b->expect[d->src * b->n + node];
    struct expect *e = fifo_peek(q);
    if (!e)
        return;
    if (e->measured) {
        if (b->nlat == b->caplat) {
            b->caplat = b->caplat ? b->caplat * 2 : 4096;
            b->lat = realloc(b->lat, b->caplat * sizeof(double));
            if (!b->lat)
                abort();
        }
        double l = (double)(b->now - e->t_create + 1), h = route_hops(&b->o, d->src, node);
        b->lat[b->nlat++] = l;
        b->sh += h, b->shh += h * h, b->sl += l, b->slh += l * h;
        b->measured_left--;
    }
    fifo_pop(q);
    b->outstanding--;
}

void nb_drop_count(struct nb *b, int node, uint32_t count)
{
    b->drops[node] = count;
}

void nb_set_stuck(struct nb *b, const char *what)
{
    snprintf(b->stuck, sizeof(b->stuck), "%s", what);
}

int nb_cycle(struct nb *b, int moved)
{
    const struct nb_opts *o = &b->o;
    if (moved)
        b->last_move = b->now;
    b->now++;
    uint64_t end_measure = o->warmup + o->measure;
    int measuring = b->now >= o->warmup && b->now < end_measure;
    /* new packets: Bernoulli with probability load/size per cycle */
    double p = o->load / o->size;
    for (int i = 0; i < b->n; i++) {
        struct src *s = &b->src[i];
        if ((double)(rnd(&s->rng) >> 11) * (1.0 / 9007199254740992.0) >= p)
            continue;
        struct pkt k = {.t_create = b->now, .measured = measuring};
        k.dst = pick_dst(o, b->n, i, &s->rng);
        if (k.dst == i)
            continue; /* deterministic patterns map some nodes to themselves */
        if (o->bad_dst_every && i == 0 &&
            (b->send_seq[k.dst] + 1) % (uint32_t)o->bad_dst_every == 0 && b->bad_sent < 1000) {
            k.dst = -1;
            k.measured = 0;
            b->bad_sent++;
            b->send_seq[0]++; /* count it on pair 0->0 so the cadence holds */
            fifo_push(&s->q, &k);
            continue;
        }
        k.seq = b->send_seq[i * b->n + k.dst]++;
        struct expect e = {.t_create = k.t_create, .seq = k.seq, .measured = k.measured};
        if (fifo_push(&s->q, &k) < 0 || fifo_push(&b->expect[i * b->n + k.dst], &e) < 0)
            abort();
        b->outstanding++;
        if (measuring) {
            b->measured_left++;
            b->pkts_in_window++;
        }
    }
    if (b->failed)
        return -1;
    if (b->outstanding && b->now - b->last_move >= o->watchdog) {
        fprintf(stderr,
                "skifnet: watchdog: no flit moved for %" PRIu64 " cycles at cycle %" PRIu64
                " with %" PRIu64 " packets outstanding\n%s",
                o->watchdog, b->now, b->outstanding, b->stuck);
        b->failed++;
        return -1;
    }
    if (b->now >= end_measure && b->measured_left == 0)
        return 1;
    if (b->now >= end_measure + o->drain) {
        b->saturated = 1;
        return 1;
    }
    return 0;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int nb_report(struct nb *b, double wall_s)
{
    const struct nb_opts *o = &b->o;
    double avg = 0, p99 = 0;
    if (b->nlat) {
        for (size_t i = 0; i < b->nlat; i++)
            avg += b->lat[i];
        avg /= (double)b->nlat;
        qsort(b->lat, b->nlat, sizeof(double), cmp_d);
        p99 = b->lat[(size_t)((double)(b->nlat - 1) * 0.99)];
    }
    /* latency per hop: the least-squares slope of latency over hop count
     * (at low load, the router's pipeline per hop, link included) */
    double nl = (double)b->nlat, var = nl * b->shh - b->sh * b->sh;
    double per_hop = var > 0 ? (nl * b->slh - b->sh * b->sl) / var : 0;
    double acc = (double)b->flits_in_window / ((double)b->n * (double)o->measure);
    double ideal = nb_ideal_capacity(o);
    uint64_t drops = 0;
    for (int i = 0; i < b->n; i++)
        drops += b->drops[i];
    char dims[32];
    int k = 0;
    for (int d = 0; d < o->ndims; d++)
        k += snprintf(dims + k, sizeof(dims) - (size_t)k, "%s%d", d ? "x" : "", o->dims[d]);
    int rc = b->failed ? 1 : 0;
    if (o->bad_dst_every && drops != b->bad_injected) {
        fprintf(stderr,
                "skifnet: %" PRIu64 " packets injected for nodes outside the torus, %" PRIu64
                " dropped by the routers\n",
                b->bad_injected, drops);
        rc = 1;
    }
    if (!o->quiet)
        printf("skifnet: %s %s load %.3f size %d: %" PRIu64 " packets measured, latency avg %.1f "
               "p99 %.0f cycles, accepted %.4f flits/node/cycle = %.1f%% of ideal %.4f%s; "
               "%" PRIu64 " bad-dst packets dropped; %" PRIu64 " cycles, %.0f cycles/s\n",
               dims, pattern_names[o->pattern], o->load, o->size, (uint64_t)b->nlat, avg, p99, acc,
               100 * acc / ideal, ideal, b->saturated ? " (saturated)" : "", drops, b->now,
               wall_s > 0 ? (double)b->now / wall_s : 0.0);
    if (!o->quiet && var > 0)
        printf("skifnet: latency per hop %.3f cycles (slope of latency over hops, %.2f hops on "
               "average)\n",
               per_hop, b->sh / nl);
    if (o->csv) {
        FILE *f = fopen(o->csv, "a");
        if (!f) {
            fprintf(stderr, "skifnet: cannot append to %s\n", o->csv);
            return 1;
        }
        char hop_s[32] = ""; /* empty when every packet crossed as many hops */
        if (var > 0)
            snprintf(hop_s, sizeof(hop_s), "%.3f", per_hop);
        fprintf(f, "%s,%d,%s,%.4f,%d,%" PRIu64 ",%.2f,%.0f,%.5f,%.5f,%.4f,%d,%" PRIu64 ",%.0f,%s\n",
                dims, b->n, pattern_names[o->pattern], o->load, o->size, (uint64_t)b->nlat, avg,
                p99, acc, ideal, acc / ideal, b->saturated, b->now,
                wall_s > 0 ? (double)b->now / wall_s : 0.0, hop_s);
        fclose(f);
    }
    return rc;
}
