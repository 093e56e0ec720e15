/* SPDX-License-Identifier: Apache-2.0 */
/* tree.h: trees of the collective subnet, in pure C (no device): building
 * every node's tree table entry for a set of ranks and a root in dimension
 * order X, Y, Z, W, the 16 predefined stride trees, and the validator of
 * the paper's rules (docs/collectives.md). Entries are COLL_TAB words
 * (driver/skif_coll.h: skif_ctab_make and friends); an entry of 0 means the
 * node is not in the tree.
 *
 * Ranks number the nodes with X fastest, as SkifCh_Rank does. Ports: p = 2d
 * leads to coordinate + 1 of dimension d (PLUS), p = 2d + 1 to coordinate - 1
 * (MINUS); opposite(p) = p ^ 1. Errors: -1 with a message in err (which
 * names the node by rank and coordinates, and the rule), at most errlen
 * bytes; err may be NULL. */
#ifndef SKIF_COLL_TREE_H
#define SKIF_COLL_TREE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Stride trees: tree 2k + s is the SHMEM active set PE_start s, logPE_stride
 * k (k = 0..7, s = 0..1): ranks s, s + 2^k, ... up to size - 1, root s. */
#define SKIF_TREE_STRIDE_TREES 16

/* A torus: 1..4 dimensions of 2..16 nodes each. */
struct skif_torus {
    int ndims;
    int dims[4]; /* 1 beyond ndims */
    int size;    /* product of the dims */
};

/* Fill *t for ndims dimensions of sizes dims[0..ndims): 0, or -1 (ndims
 * outside 1..4, a size outside 2..16). */
int skif_torus_init(struct skif_torus *t, int ndims, const int *dims, char *err, size_t errlen);

/* The coordinates of rank in c[0..3] (0 beyond ndims), and back. */
void skif_torus_coords(const struct skif_torus *t, int rank, int c[4]);
int skif_torus_rank(const struct skif_torus *t, const int c[4]);

/* The rank one hop from `rank` through port `port` (wrap links included). */
int skif_torus_step(const struct skif_torus *t, int rank, int port);

/* "rank 5 (2,1)": the node's name in messages, into buf (size >= 32). */
const char *skif_torus_name(const struct skif_torus *t, int rank, char *buf, size_t len);

/* Build the tree of the ranks with member[r] != 0 and root `root` (a
 * member): entry[0..t->size) gets every node's COLL_TAB word, result
 * channel `chan` at the members. The root spreads along X (both ways round
 * each ring, the shorter way to every node: a ring of 8 has depth 4; a ring
 * of 2 through PLUS only), then every node reached along Y, then Z, then W;
 * subtrees without members are pruned, non-members left on the way are
 * transit. 0, or -1 (root out of range or not a member, chan > 255). */
int skif_tree_build(const struct skif_torus *t, const uint8_t *member, int root, unsigned chan,
                    uint32_t *entry, char *err, size_t errlen);

/* Build stride tree `tree` (0..SKIF_TREE_STRIDE_TREES-1) as above. */
int skif_tree_stride(const struct skif_torus *t, int tree, unsigned chan, uint32_t *entry,
                     char *err, size_t errlen);

/* The members of stride tree `tree`: member[r] = 1 or 0. 0, or -1. */
int skif_tree_stride_members(const struct skif_torus *t, int tree, uint8_t *member);

/* Check every node's entry by the paper's rules before any is programmed:
 * the format (reserved bits zero; ports below 2 * ndims; up not in down; up
 * 0 at the root; an entry that is not valid all zero; chan < nchans at a
 * member unless nchans is 0); the local rule (a non-root node's down ports
 * only in dimensions after its up port's, or opposite(up)); a transit node
 * has a down port; exactly one root; every down port leads to a node of the
 * tree whose up port points back, and every up port to a node with the
 * matching down port; every node of the tree reached from the root exactly
 * once. 0, or -1 with the first rule broken (checked in that order). */
int skif_tree_validate(const struct skif_torus *t, const uint32_t *entry, unsigned nchans,
                       char *err, size_t errlen);

/* The depth of a valid tree (hops from the root to its deepest node). */
int skif_tree_depth(const struct skif_torus *t, const uint32_t *entry);

#ifdef __cplusplus
}
#endif

#endif /* SKIF_COLL_TREE_H */
