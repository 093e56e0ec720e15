/* SPDX-License-Identifier: Apache-2.0 */
/* test_coll_tree: collective trees (sw/coll/tree.c) for many tori, member
 * sets and roots, checked against an independent walk: from the root down
 * through the down ports every member is reached exactly once, at the hop
 * count of the shortest way round each ring, moving through the dimensions
 * in order X, Y, Z, W; nodes reached that are not members are transit;
 * nodes not reached have no entry. Then each rule of the validator broken
 * on purpose: refused, with a message naming the node and the rule. */
#define _GNU_SOURCE
#include "../../sw/coll/tree.c"

#include <stdint.h>

static int failed, passed;

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (c)                                                                                     \
            passed++;                                                                              \
        else {                                                                                     \
            failed++;                                                                              \
            fprintf(stderr, "test_coll_tree: %s:%d: failed: %s\n", __FILE__, __LINE__, #c);        \
        }                                                                                          \
    } while (0)

static uint64_t rng = 12345;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* Shortest distance round a ring of n from a to b. */
static int ring_dist(int a, int b, int n)
{
    int o = ((b - a) % n + n) % n;
    return o < n - o ? o : n - o;
}

/* The independent check of one tree; returns its depth, or -1. */
static int walk_check(const struct skif_torus *t, const uint32_t *e, const uint8_t *member,
                      int root, unsigned chan)
{
    int n = t->size, bad = 0, depth = 0;
    int *hops = malloc((size_t)n * sizeof(int)), *stack = malloc((size_t)n * sizeof(int));
    int *count = calloc((size_t)n, sizeof(int));
    for (int v = 0; v < n; v++)
        hops[v] = -1;
    int sp = 0;
    stack[sp++] = root;
    hops[root] = 0;
    count[root] = 1;
    while (sp > 0 && !bad) {
        int v = stack[--sp];
        unsigned down = (e[v] >> SKIF_CTAB_DOWN_LO) & 0xffu;
        int c[4];
        skif_torus_coords(t, v, c);
        for (int p = 0; p < 8; p++) {
            if (!(down >> p & 1))
                continue;
            int d = p / 2, cw[4];
            memcpy(cw, c, sizeof(cw));
            cw[d] = p % 2 ? (c[d] + t->dims[d] - 1) % t->dims[d] : (c[d] + 1) % t->dims[d];
            int w = skif_torus_rank(t, cw);
            if (count[w]++) {
                fprintf(stderr, "  node %d reached twice\n", w);
                bad = 1;
                break;
            }
            hops[w] = hops[v] + 1;
            stack[sp++] = w;
        }
    }
    int cr[4];
    skif_torus_coords(t, root, cr);
    for (int v = 0; v < n && !bad; v++) {
        int c[4], want = 0;
        skif_torus_coords(t, v, c);
        for (int d = 0; d < t->ndims; d++)
            want += ring_dist(cr[d], c[d], t->dims[d]);
        if (member[v] && count[v] != 1) {
            fprintf(stderr, "  member %d reached %d times\n", v, count[v]);
            bad = 1;
        } else if (!count[v] && e[v] != 0) {
            fprintf(stderr, "  node %d not reached but has entry 0x%x\n", v, e[v]);
            bad = 1;
        } else if (count[v] && hops[v] != want) {
            fprintf(stderr, "  node %d at %d hops, shortest is %d\n", v, hops[v], want);
            bad = 1;
        } else if (count[v] && !!(e[v] & SKIF_CTAB_TRANSIT) != !member[v]) {
            fprintf(stderr, "  node %d transit flag wrong\n", v);
            bad = 1;
        } else if (count[v] && !(e[v] & SKIF_CTAB_TRANSIT) && ((e[v] >> 16) & 0xffu) != chan) {
            fprintf(stderr, "  node %d result channel wrong\n", v);
            bad = 1;
        } else if (count[v] && !!(e[v] & SKIF_CTAB_ROOT) != (v == root)) {
            fprintf(stderr, "  node %d root flag wrong\n", v);
            bad = 1;
        }
        if (count[v] && hops[v] > depth)
            depth = hops[v];
        /* dimension order: walking up, the dimension never grows */
        int last = 8;
        for (int w = v, h = 0; count[v] && w != root && h < 64 && !bad; h++) {
            unsigned up = (e[w] >> SKIF_CTAB_UP_LO) & 7u;
            if ((int)(up / 2) > last) {
                fprintf(stderr, "  node %d: path leaves dimension order at %d\n", v, w);
                bad = 1;
            }
            last = (int)(up / 2);
            w = skif_torus_step(t, w, (int)up);
        }
    }
    free(hops);
    free(stack);
    free(count);
    return bad ? -1 : depth;
}

static void one_tree(const struct skif_torus *t, const uint8_t *member, int root, int full)
{
    uint32_t *e = malloc((size_t)t->size * sizeof(uint32_t));
    char err[256] = "";
    unsigned chan = 1 + rnd(60);
    int rc = skif_tree_build(t, member, root, chan, e, err, sizeof(err));
    CHECK(rc == 0);
    if (rc == 0) {
        int vrc = skif_tree_validate(t, e, 64, err, sizeof(err));
        if (vrc)
            fprintf(stderr, "  validator: %s\n", err);
        CHECK(vrc == 0);
        int depth = walk_check(t, e, member, root, chan);
        CHECK(depth >= 0);
        int bound = 0;
        for (int d = 0; d < t->ndims; d++)
            bound += t->dims[d] / 2;
        CHECK(depth <= bound);
        if (full)
            CHECK(depth == bound); /* a whole torus: the farthest node is that far */
        CHECK(skif_tree_depth(t, e) == depth);
    }
    free(e);
}

/* A valid tree broken: validation must fail and the message hold each of
 * the given strings. */
static void broken(const struct skif_torus *t, const uint32_t *e, const char *rule,
                   const char *node)
{
    char err[256] = "";
    int rc = skif_tree_validate(t, e, 64, err, sizeof(err));
    printf("  refused: %s\n", err);
    CHECK(rc == -1);
    CHECK(strstr(err, rule) != NULL);
    CHECK(node == NULL || strstr(err, node) != NULL);
}

static void rules(void)
{
    struct skif_torus t;
    int dims[4] = {4, 4, 1, 1};
    uint8_t all[16];
    uint32_t e[16], x[16];
    memset(all, 1, sizeof(all));
    CHECK(skif_torus_init(&t, 2, dims, NULL, 0) == 0);
    CHECK(skif_tree_build(&t, all, 5, 3, e, NULL, 0) == 0); /* root (1,1) */
    CHECK(skif_tree_validate(&t, e, 64, NULL, 0) == 0);

    /* format */
    memcpy(x, e, sizeof(x));
    x[6] |= 1u << 11;
    broken(&t, x, "format: reserved", "rank 6 (2,1)");
    memcpy(x, e, sizeof(x));
    x[6] |= 1u << 4; /* Z+ in a 2-D torus */
    broken(&t, x, "beyond", "rank 6 (2,1)");
    memcpy(x, e, sizeof(x));
    x[6] |= 1u << skif_ctab_up(e[6]);
    broken(&t, x, "also a down port", "rank 6");
    memcpy(x, e, sizeof(x));
    x[5] |= 2u << SKIF_CTAB_UP_LO;
    broken(&t, x, "root with up port", "rank 5 (1,1)");
    memcpy(x, e, sizeof(x));
    x[0] = 0x7;
    broken(&t, x, "not valid but has bits", "rank 0 (0,0)");
    memcpy(x, e, sizeof(x));
    x[9] = (x[9] & ~0xff0000u) | (200u << 16);
    broken(&t, x, "result channel 200", "rank 9 (1,2)");

    /* local rule: rank 9 (1,2) has up Y-; an X+ down port is before Y */
    memcpy(x, e, sizeof(x));
    CHECK(skif_ctab_up(e[9]) == 3);
    x[9] |= 1u << 0;
    broken(&t, x, "local rule: down port X+", "rank 9 (1,2)");

    /* transit without a down port: a leaf made transit */
    memcpy(x, e, sizeof(x));
    CHECK(skif_ctab_down(e[15]) == 0);
    x[15] |= SKIF_CTAB_TRANSIT;
    broken(&t, x, "transit rule", "rank 15 (3,3)");

    /* two roots, no root */
    memcpy(x, e, sizeof(x));
    x[15] = skif_ctab_make(0, 0, 1, 0, 3);
    broken(&t, x, "one-root rule: a second root", "rank 15 (3,3)");
    memcpy(x, e, sizeof(x));
    x[5] &= ~SKIF_CTAB_ROOT;
    x[5] |= 1u << SKIF_CTAB_UP_LO; /* up X-, also down: take X- out of down */
    x[5] &= ~(1u << 1);
    broken(&t, x, "one-root rule: no node", NULL);

    /* link rule: a down port to a node that is not in the tree */
    uint8_t some[16] = {0};
    some[5] = some[6] = 1;
    CHECK(skif_tree_build(&t, some, 5, 3, x, NULL, 0) == 0);
    CHECK(skif_tree_validate(&t, x, 64, NULL, 0) == 0);
    x[6] |= 1u << 2; /* Y+ after X-: local rule holds */
    broken(&t, x, "link rule: down port Y+ leads to rank 10 (2,2), not in the tree",
           "rank 6 (2,1)");
    /* a down port to a node whose up port does not point back */
    memcpy(x, e, sizeof(x));
    x[13] = skif_ctab_make(0, 2, 0, 0, 3); /* (1,3): up Y+ instead of Y- */
    broken(&t, x, "link rule", "rank 9 (1,2)");
    /* an up port to a node without the down port back */
    memcpy(x, e, sizeof(x));
    x[9] &= ~(1u << 2); /* (1,2) drops its Y+ child (1,3) */
    broken(&t, x, "link rule: up port Y- leads to rank 9 (1,2)", "rank 13 (1,3)");

    /* ring of 2: PLUS and MINUS reach the same neighbour; using both breaks
     * the link rule */
    int d2[4] = {2, 3, 1, 1};
    struct skif_torus t2;
    uint8_t all6[6];
    uint32_t e2[6];
    memset(all6, 1, sizeof(all6));
    CHECK(skif_torus_init(&t2, 2, d2, NULL, 0) == 0);
    CHECK(skif_tree_build(&t2, all6, 0, 3, e2, NULL, 0) == 0);
    CHECK(skif_ctab_down(e2[0]) == ((1u << 0) | (1u << 2) | (1u << 3))); /* X+ only, Y+, Y- */
    e2[0] |= 1u << 1;
    broken(&t2, e2, "link rule: down port X-", "rank 0 (0,0)");

    /* a cycle away from the root: row y = 0 of a 3x2 torus, each node up X-,
     * down X+, the root (0,1) alone */
    int d3[4] = {3, 2, 1, 1};
    struct skif_torus t3;
    uint32_t e3[6] = {0};
    CHECK(skif_torus_init(&t3, 2, d3, NULL, 0) == 0);
    for (int v = 0; v < 3; v++)
        e3[v] = skif_ctab_make(1u << 0, 1, 0, 0, 3);
    e3[3] = skif_ctab_make(0, 0, 1, 0, 3);
    broken(&t3, e3, "tree rule: not reachable from the root rank 3 (0,1)", "rank 0 (0,0)");
}

static void bad_input(void)
{
    struct skif_torus t;
    char err[128] = "";
    int d[4] = {4, 1, 4, 4}, ok[4] = {3, 3, 1, 1};
    CHECK(skif_torus_init(&t, 3, d, err, sizeof(err)) == -1 && strstr(err, "dimension Y"));
    CHECK(skif_torus_init(&t, 5, d, err, sizeof(err)) == -1 && strstr(err, "5 dimensions"));
    d[1] = 17;
    CHECK(skif_torus_init(&t, 2, d, err, sizeof(err)) == -1 && strstr(err, "size 17"));
    CHECK(skif_torus_init(&t, 2, ok, err, sizeof(err)) == 0);
    uint8_t m[9] = {1, 1, 0, 0, 0, 0, 0, 0, 1};
    uint32_t e[9];
    CHECK(skif_tree_build(&t, m, 4, 1, e, err, sizeof(err)) == -1 &&
          strstr(err, "rank 4 (1,1) is not a member"));
    CHECK(skif_tree_build(&t, m, 9, 1, e, err, sizeof(err)) == -1 && strstr(err, "root 9"));
    CHECK(skif_tree_build(&t, m, 0, 256, e, err, sizeof(err)) == -1 && strstr(err, "channel"));
    CHECK(skif_tree_stride(&t, 16, 1, e, err, sizeof(err)) == -1 && strstr(err, "stride tree"));
    printf("  bad input refused: %s\n", err);
}

static void strides(const struct skif_torus *t)
{
    uint32_t *e = malloc((size_t)t->size * sizeof(uint32_t));
    uint8_t *m = malloc((size_t)t->size);
    for (int tree = 0; tree < SKIF_TREE_STRIDE_TREES; tree++) {
        int k = tree / 2, s = tree % 2;
        CHECK(skif_tree_stride(t, tree, 7, e, NULL, 0) == 0);
        CHECK(skif_tree_validate(t, e, 64, NULL, 0) == 0);
        for (int r = 0; r < t->size; r++)
            m[r] = r >= s && (r - s) % (1 << k) == 0; /* the SHMEM active set */
        CHECK(walk_check(t, e, m, s, 7) >= 0);
        CHECK((e[s] & SKIF_CTAB_ROOT) != 0);
    }
    free(e);
    free(m);
}

int main(void)
{
    static const int shapes[][5] = {
        {1, 2},       {1, 3},          {1, 8},          {1, 16},
        {2, 2, 2},    {2, 3, 3},       {2, 4, 4},       {2, 8, 8},
        {2, 2, 16},   {3, 2, 2, 2},    {3, 2, 3, 4},    {3, 4, 4, 4},
        {3, 5, 2, 7}, {4, 2, 2, 2, 2}, {4, 3, 4, 2, 5}, {4, 16, 16, 16, 16},
    };
    int ntrees = 0;
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
        struct skif_torus t;
        CHECK(skif_torus_init(&t, shapes[s][0], &shapes[s][1], NULL, 0) == 0);
        uint8_t *m = malloc((size_t)t.size);
        int reps = t.size > 4096 ? 3 : 40;
        for (int rep = 0; rep < reps; rep++) {
            int root = (int)rnd((unsigned)t.size);
            int full = rep % 4 == 0;
            unsigned pct = 1 + rnd(100);
            for (int r = 0; r < t.size; r++)
                m[r] = full || rnd(100) < pct;
            m[root] = 1;
            one_tree(&t, m, root, full);
            ntrees++;
        }
        strides(&t);
        free(m);
    }
    rules();
    bad_input();
    printf("test_coll_tree: %d trees built and walked, %d checks passed, %d failed\n", ntrees,
           passed, failed);
    return failed ? 1 : 0;
}
