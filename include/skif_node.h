/* SPDX-License-Identifier: Apache-2.0 */
/* skif_node.h: node ids for C, written once: a node id packs the node's
 * torus coordinates 4 bits each (SKIF_NODE_W / 4), x in bits [3:0], then y,
 * z, w; ranks number the nodes with x fastest (docs/architecture.md). */
#ifndef SKIF_NODE_H
#define SKIF_NODE_H

#include <stdint.h>

#include "skif_hw.h"

#define SKIF_NODE_DIMS 4                                 /* coordinates in a node id */
#define SKIF_NODE_COORD_W (SKIF_NODE_W / SKIF_NODE_DIMS) /* bits per coordinate */
#define SKIF_NODE_COORD_MASK ((1u << SKIF_NODE_COORD_W) - 1)

/* The node id of coordinates coord[0..3] (each below 1 << SKIF_NODE_COORD_W). */
static inline uint32_t skif_node_id(const int coord[SKIF_NODE_DIMS])
{
    uint32_t id = 0;
    for (int d = 0; d < SKIF_NODE_DIMS; d++)
        id |= ((uint32_t)coord[d] & SKIF_NODE_COORD_MASK) << (SKIF_NODE_COORD_W * d);
    return id;
}

/* The coordinates packed in node id `id`. */
static inline void skif_node_coords(uint32_t id, int coord[SKIF_NODE_DIMS])
{
    for (int d = 0; d < SKIF_NODE_DIMS; d++)
        coord[d] = (int)((id >> (SKIF_NODE_COORD_W * d)) & SKIF_NODE_COORD_MASK);
}

/* The ring sizes dims[0..3] (1 beyond the used dimensions) as the routers'
 * sizes_i strap takes them: 5 bits each, X lowest. */
static inline uint32_t skif_node_sizes(const int dims[SKIF_NODE_DIMS])
{
    uint32_t w = 0;
    for (int d = 0; d < SKIF_NODE_DIMS; d++)
        w |= (uint32_t)dims[d] << (5 * d);
    return w;
}

/* The coordinates of rank `rank` (0 <= rank < the product of dims) on a
 * torus of dims[0..3] (1 beyond the used dimensions), x fastest. */
static inline void skif_rank_coords(int rank, const int dims[SKIF_NODE_DIMS],
                                    int coord[SKIF_NODE_DIMS])
{
    for (int d = 0; d < SKIF_NODE_DIMS; d++) {
        coord[d] = rank % dims[d];
        rank /= dims[d];
    }
}

#endif /* SKIF_NODE_H */
