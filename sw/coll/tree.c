/* SPDX-License-Identifier: Apache-2.0 */
/* tree.c: building and validating collective trees (see tree.h). */
#include "coll/tree.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skif_coll.h"

static int tfail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int skif_torus_init(struct skif_torus *t, int ndims, const int *dims, char *err, size_t errlen)
{
    if (ndims < 1 || ndims > 4)
        return tfail(err, errlen, "%d dimensions: a torus has 1 to 4", ndims);
    struct skif_torus x = {ndims, {1, 1, 1, 1}, 1};
    for (int d = 0; d < ndims; d++) {
        if (dims[d] < 2 || dims[d] > 16)
            return tfail(err, errlen, "dimension %c of size %d: sizes are 2 to 16", "XYZW"[d],
                         dims[d]);
        x.dims[d] = dims[d];
        x.size *= dims[d];
    }
    *t = x;
    return 0;
}

void skif_torus_coords(const struct skif_torus *t, int rank, int c[4])
{
    for (int d = 0; d < 4; d++) {
        c[d] = rank % t->dims[d];
        rank /= t->dims[d];
    }
}

int skif_torus_rank(const struct skif_torus *t, const int c[4])
{
    int r = 0;
    for (int d = 3; d >= 0; d--)
        r = r * t->dims[d] + c[d];
    return r;
}

int skif_torus_step(const struct skif_torus *t, int rank, int port)
{
    int c[4], d = port >> 1, n = t->dims[d];
    skif_torus_coords(t, rank, c);
    c[d] = (port & 1) ? (c[d] + n - 1) % n : (c[d] + 1) % n;
    return skif_torus_rank(t, c);
}

const char *skif_torus_name(const struct skif_torus *t, int rank, char *buf, size_t len)
{
    int c[4];
    skif_torus_coords(t, rank, c);
    int n = snprintf(buf, len, "rank %d (", rank);
    for (int d = 0; d < t->ndims && n > 0 && (size_t)n < len; d++)
        n += snprintf(buf + n, len - (size_t)n, "%s%d", d ? "," : "", c[d]);
    if (n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ")");
    return buf;
}

/* "X+", "Y-", ...: a port's name. */
static const char *port_name(unsigned p)
{
    static const char *names[8] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-", "W+", "W-"};
    return p < 8 ? names[p] : "?";
}

/* The up port of rank v in the full dimension-order tree of root r: one hop
 * back along the last dimension the path from the root moves in. -1 at the
 * root. */
static int full_up(const struct skif_torus *t, int v, int r)
{
    int cv[4], cr[4];
    skif_torus_coords(t, v, cv);
    skif_torus_coords(t, r, cr);
    for (int d = t->ndims - 1; d >= 0; d--) {
        if (cv[d] == cr[d])
            continue;
        int n = t->dims[d], o = (cv[d] - cr[d] + n) % n;
        /* offsets 1..n/2 are reached through PLUS, the rest through MINUS */
        return o <= n / 2 ? 2 * d + 1 : 2 * d;
    }
    return -1;
}

int skif_tree_build(const struct skif_torus *t, const uint8_t *member, int root, unsigned chan,
                    uint32_t *entry, char *err, size_t errlen)
{
    char nm[48];
    if (root < 0 || root >= t->size)
        return tfail(err, errlen, "root %d: not a rank of this torus (0..%d)", root, t->size - 1);
    if (!member[root])
        return tfail(err, errlen, "root %s is not a member of the tree",
                     skif_torus_name(t, root, nm, sizeof(nm)));
    if (chan > 255)
        return tfail(err, errlen, "result channel %u: channels are 0..255", chan);
    uint8_t *in = calloc((size_t)t->size, 1);
    uint8_t *down = calloc((size_t)t->size, 1);
    if (!in || !down) {
        free(in);
        free(down);
        return tfail(err, errlen, "out of memory");
    }
    /* every member and the nodes on its way to the root are in the tree */
    in[root] = 1;
    for (int v = 0; v < t->size; v++) {
        for (int w = v; member[v] && !in[w];) {
            in[w] = 1;
            int up = full_up(t, w, root);
            w = skif_torus_step(t, w, up);
            down[w] |= (uint8_t)(1u << (up ^ 1));
        }
    }
    for (int v = 0; v < t->size; v++) {
        if (!in[v]) {
            entry[v] = 0;
            continue;
        }
        int up = v == root ? 0 : full_up(t, v, root);
        entry[v] =
            skif_ctab_make(down[v], (unsigned)up, v == root, !member[v], member[v] ? chan : 0);
    }
    free(in);
    free(down);
    return 0;
}

int skif_tree_stride_members(const struct skif_torus *t, int tree, uint8_t *member)
{
    if (tree < 0 || tree >= SKIF_TREE_STRIDE_TREES)
        return -1;
    int k = tree >> 1, s = tree & 1;
    memset(member, 0, (size_t)t->size);
    for (long r = s; r < t->size; r += 1L << k)
        member[r] = 1;
    return 0;
}

int skif_tree_stride(const struct skif_torus *t, int tree, unsigned chan, uint32_t *entry,
                     char *err, size_t errlen)
{
    uint8_t *member = malloc((size_t)t->size);
    if (!member)
        return tfail(err, errlen, "out of memory");
    int rc;
    if (skif_tree_stride_members(t, tree, member) < 0)
        rc = tfail(err, errlen, "stride tree %d: they are 0..%d", tree, SKIF_TREE_STRIDE_TREES - 1);
    else
        rc = skif_tree_build(t, member, tree & 1, chan, entry, err, errlen);
    free(member);
    return rc;
}

/* The format rules of one entry: 0, or -1 with the message. */
static int check_format(const struct skif_torus *t, int v, uint32_t e, unsigned nchans, char *err,
                        size_t errlen)
{
    char nm[48];
    unsigned nports = 2u * (unsigned)t->ndims, down = skif_ctab_down(e), up = skif_ctab_up(e);
    skif_torus_name(t, v, nm, sizeof(nm));
    if (!(e & SKIF_CTAB_VALID)) {
        if (e)
            return tfail(err, errlen, "%s: format: entry 0x%08x is not valid but has bits set", nm,
                         e);
        return 0;
    }
    if (e & SKIF_CTAB_RSVD)
        return tfail(err, errlen, "%s: format: reserved bits set in entry 0x%08x", nm, e);
    if (down >> nports)
        return tfail(err, errlen, "%s: format: down port set 0x%02x names a port beyond %s", nm,
                     down, port_name(nports - 1));
    if (e & SKIF_CTAB_ROOT) {
        if (up)
            return tfail(err, errlen, "%s: format: root with up port %s (must be 0)", nm,
                         port_name(up));
    } else {
        if (up >= nports)
            return tfail(err, errlen, "%s: format: up port %u beyond %s", nm, up,
                         port_name(nports - 1));
        if (down & (1u << up))
            return tfail(err, errlen, "%s: format: up port %s is also a down port", nm,
                         port_name(up));
    }
    if (!(e & SKIF_CTAB_TRANSIT) && nchans && skif_ctab_chan(e) >= nchans)
        return tfail(err, errlen, "%s: format: result channel %u, the adapter has %u", nm,
                     skif_ctab_chan(e), nchans);
    return 0;
}

int skif_tree_validate(const struct skif_torus *t, const uint32_t *entry, unsigned nchans,
                       char *err, size_t errlen)
{
    char nm[48], nm2[48];
    int n = t->size, root = -1;
    for (int v = 0; v < n; v++)
        if (check_format(t, v, entry[v], nchans, err, errlen) < 0)
            return -1;
    /* local rule, transit */
    for (int v = 0; v < n; v++) {
        uint32_t e = entry[v];
        if (!(e & SKIF_CTAB_VALID))
            continue;
        unsigned down = skif_ctab_down(e), up = skif_ctab_up(e);
        skif_torus_name(t, v, nm, sizeof(nm));
        if (!(e & SKIF_CTAB_ROOT))
            for (unsigned p = 0; p < 8; p++)
                if ((down >> p & 1) && (p >> 1) <= (up >> 1) && p != (up ^ 1))
                    return tfail(err, errlen,
                                 "%s: local rule: down port %s is neither in a dimension after "
                                 "the up port %s nor opposite to it",
                                 nm, port_name(p), port_name(up));
        if ((e & SKIF_CTAB_TRANSIT) && !down)
            return tfail(err, errlen, "%s: transit rule: a transit node has no down port", nm);
    }
    /* exactly one root */
    for (int v = 0; v < n; v++) {
        if (!(entry[v] & SKIF_CTAB_VALID) || !(entry[v] & SKIF_CTAB_ROOT))
            continue;
        if (root >= 0)
            return tfail(err, errlen, "%s: one-root rule: a second root (the first is %s)",
                         skif_torus_name(t, v, nm, sizeof(nm)),
                         skif_torus_name(t, root, nm2, sizeof(nm2)));
        root = v;
    }
    if (root < 0)
        return tfail(err, errlen, "one-root rule: no node of the tree is its root");
    /* links: every down port meets an up port pointing back, and the reverse */
    for (int v = 0; v < n; v++) {
        uint32_t e = entry[v];
        if (!(e & SKIF_CTAB_VALID))
            continue;
        skif_torus_name(t, v, nm, sizeof(nm));
        unsigned down = skif_ctab_down(e);
        for (unsigned p = 0; p < 8; p++) {
            if (!(down >> p & 1))
                continue;
            int w = skif_torus_step(t, v, (int)p);
            uint32_t f = entry[w];
            skif_torus_name(t, w, nm2, sizeof(nm2));
            if (!(f & SKIF_CTAB_VALID))
                return tfail(err, errlen,
                             "%s: link rule: down port %s leads to %s, not in the tree", nm,
                             port_name(p), nm2);
            if ((f & SKIF_CTAB_ROOT) || skif_ctab_up(f) != (p ^ 1))
                return tfail(err, errlen,
                             "%s: link rule: down port %s leads to %s whose up port is %s, not %s",
                             nm, port_name(p), nm2,
                             (f & SKIF_CTAB_ROOT) ? "none (the root)" : port_name(skif_ctab_up(f)),
                             port_name(p ^ 1));
        }
        if (e & SKIF_CTAB_ROOT)
            continue;
        unsigned up = skif_ctab_up(e);
        int u = skif_torus_step(t, v, (int)up);
        uint32_t f = entry[u];
        if (!(f & SKIF_CTAB_VALID) || !(skif_ctab_down(f) >> (up ^ 1) & 1))
            return tfail(err, errlen,
                         "%s: link rule: up port %s leads to %s, which has no down port %s back",
                         nm, port_name(up), skif_torus_name(t, u, nm2, sizeof(nm2)),
                         port_name(up ^ 1));
    }
    /* reached from the root, each once */
    int *seen = calloc((size_t)n, sizeof(int)), *queue = malloc((size_t)n * sizeof(int));
    if (!seen || !queue) {
        free(seen);
        free(queue);
        return tfail(err, errlen, "out of memory");
    }
    int qh = 0, qt = 0, rc = 0;
    queue[qt++] = root;
    seen[root] = 1;
    while (qh < qt && rc == 0) {
        int v = queue[qh++];
        unsigned down = skif_ctab_down(entry[v]);
        for (unsigned p = 0; p < 8 && rc == 0; p++) {
            if (!(down >> p & 1))
                continue;
            int w = skif_torus_step(t, v, (int)p);
            if (seen[w]++)
                rc = tfail(err, errlen, "%s: tree rule: reached twice from the root (a cycle)",
                           skif_torus_name(t, w, nm, sizeof(nm)));
            else
                queue[qt++] = w;
        }
    }
    for (int v = 0; v < n && rc == 0; v++)
        if ((entry[v] & SKIF_CTAB_VALID) && !seen[v])
            rc = tfail(err, errlen, "%s: tree rule: not reachable from the root %s (a cycle)",
                       skif_torus_name(t, v, nm, sizeof(nm)),
                       skif_torus_name(t, root, nm2, sizeof(nm2)));
    free(seen);
    free(queue);
    return rc;
}

int skif_tree_depth(const struct skif_torus *t, const uint32_t *entry)
{
    int depth = 0;
    for (int v = 0; v < t->size; v++) {
        if (!(entry[v] & SKIF_CTAB_VALID))
            continue;
        int h = 0;
        for (int w = v; !(entry[w] & SKIF_CTAB_ROOT) && h <= t->size; h++)
            w = skif_torus_step(t, w, (int)skif_ctab_up(entry[w]));
        if (h > depth)
            depth = h;
    }
    return depth;
}
