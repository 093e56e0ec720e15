/* SPDX-License-Identifier: Apache-2.0 */
/* skif_coll.h: the driver's side of the collective subnet (docs/collectives.md):
 * the tree table through the COLL_SEL/COLL_TAB window, collective
 * descriptors (kind 1) posted into the TX ring or written into the COLL_PIO
 * window (programmed I/O), collective result entries
 * (kind 2) taken from a channel ring, and the COLL_SENT/COLL_DONE counters of
 * the status block.
 *
 * The formats are rtl/skif_defs.vh's, generated into skif_hw.h. Until the
 * generated header has them, the values of docs/collectives.md are defined
 * below, each under #ifndef so the generated one wins. Errors: negative
 * errno values, outputs set only on success, as in skif_dev.h. */
#ifndef SKIF_COLL_H
#define SKIF_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "skif_dev.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- formats */

#ifndef SKIF_COLL_TREES
#define SKIF_COLL_TREES 32u /* tree table entries per router */
#endif
#ifndef SKIF_COLL_RIDS
#define SKIF_COLL_RIDS 32u /* reduce ids (slots) per tree */
#endif
#ifndef SKIF_COLL_MAX_RED
#define SKIF_COLL_MAX_RED 64u /* payload bytes of one reduce */
#endif

/* Registers. docs/collectives.md names them but gives no offsets: these are
 * placeholders in the free part of the map, replaced by the generated ones. */
#ifndef SKIF_REG_COLL_SEL
#define SKIF_REG_COLL_SEL 0x0D0u /* RW  tree the COLL_TAB window shows and commits */
#endif
#ifndef SKIF_REG_COLL_TAB
#define SKIF_REG_COLL_TAB 0x0D4u /* RW  write: commit the entry of tree COLL_SEL */
#endif
#ifndef SKIF_REG_COLL_SENT
#define SKIF_REG_COLL_SENT 0x0D8u /* RO  collective operations handed to the engine */
#endif
#ifndef SKIF_REG_COLL_DONE
#define SKIF_REG_COLL_DONE 0x0DCu /* RO  collective results written into rings */
#endif
#ifndef SKIF_REG_COLL_DROPS
#define SKIF_REG_COLL_DROPS 0x0E0u /* RO  packets dropped by a forwarding check */
#endif
#ifndef SKIF_REG_COLL_ERRS
#define SKIF_REG_COLL_ERRS 0x0E4u /* RO  collective errors seen by the engine */
#endif
#ifndef SKIF_REG_COLL_PIO_LO
#define SKIF_REG_COLL_PIO_LO 0x0F0u   /* WO  PIO descriptor [31:0] */
#define SKIF_REG_COLL_PIO_HI 0x0F4u   /* WO  PIO descriptor [63:32]: launches */
#define SKIF_REG_COLL_PIO_DATA 0x100u /* WO  + 4i: PIO payload halves */
#endif
#ifndef SKIF_STAT_COLL_SENT
#define SKIF_STAT_COLL_SENT 0x008u /* status block: COLL_SENT in a u64 word */
#endif
#ifndef SKIF_STAT_COLL_DONE
#define SKIF_STAT_COLL_DONE 0x010u /* status block: COLL_DONE in a u64 word */
#endif

/* Tree table entry (COLL_TAB). */
#ifndef SKIF_CTAB_DOWN_LO
#define SKIF_CTAB_DOWN_LO 0u /* [7:0] down port set, bit p = port p */
#define SKIF_CTAB_UP_LO 8u   /* [10:8] up port (0 at the root) */
#define SKIF_CTAB_ROOT 0x00001000u
#define SKIF_CTAB_TRANSIT 0x00002000u
#define SKIF_CTAB_VALID 0x00008000u
#define SKIF_CTAB_CHAN_LO 16u /* [23:16] result channel */
#define SKIF_CTAB_RSVD 0xFF004800u
#endif

/* Collective TX descriptor (kind 1). */
#ifndef SKIF_CDESC_ARG_LO
#define SKIF_CDESC_ARG_LO 0u   /* [15:0] REDUCE target / BCAST poster node id */
#define SKIF_CDESC_TYPE_LO 20u /* [23:20] */
#define SKIF_CDESC_CMD_LO 24u  /* [27:24] */
#define SKIF_CDESC_LEN_LO 32u  /* [43:32] */
#define SKIF_CDESC_OP_LO 44u   /* [46:44] */
#define SKIF_CDESC_RID_LO 47u  /* [51:47] */
#define SKIF_CDESC_TREE_LO 52u /* [59:52] */
#define SKIF_CDESC_KIND_LO 60u /* [63:60] */
#endif
#ifndef SKIF_DESC_KIND_MSG
#define SKIF_DESC_KIND_MSG 0u
#endif
#ifndef SKIF_DESC_KIND_COLL
#define SKIF_DESC_KIND_COLL 1u
#endif

/* Channel ring entry header of a collective result (kind 2). */
#ifndef SKIF_CENT_CHAN_LO
#define SKIF_CENT_CHAN_LO 0u  /* [7:0] */
#define SKIF_CENT_NODE_LO 8u  /* [23:8] */
#define SKIF_CENT_TREE_LO 24u /* [31:24] */
#define SKIF_CENT_LEN_LO 32u  /* [43:32] */
#define SKIF_CENT_ERR_BIT 44u /* [44] */
#define SKIF_CENT_OP_LO 45u   /* [47:45] */
#define SKIF_CENT_RID_LO 48u  /* [52:48] */
#define SKIF_CENT_CMD_LO 56u  /* [59:56] */
#define SKIF_CENT_KIND_LO 60u /* [63:60] */
#endif
#ifndef SKIF_ENT_KIND_MSG
#define SKIF_ENT_KIND_MSG 0u
#endif
#ifndef SKIF_ENT_KIND_COLL
#define SKIF_ENT_KIND_COLL 2u
#endif

#ifndef SKIF_COLL_CMD_BCAST
#define SKIF_COLL_CMD_BCAST 0u
#define SKIF_COLL_CMD_ALLREDUCE 1u
#define SKIF_COLL_CMD_REDUCE 2u
#endif
#ifndef SKIF_COLL_TYPE_U32
#define SKIF_COLL_TYPE_U32 0u
#define SKIF_COLL_TYPE_S32 1u
#define SKIF_COLL_TYPE_U64 2u
#define SKIF_COLL_TYPE_S64 3u
#endif
#ifndef SKIF_COLL_OP_SUM
#define SKIF_COLL_OP_SUM 0u
#define SKIF_COLL_OP_MIN 1u
#define SKIF_COLL_OP_MAX 2u
#endif

/* ---------------------------------------------------------------- table */

/* Ports: p = 2d PLUS, 2d + 1 MINUS of dimension d (0..3 = X, Y, Z, W). */
static inline uint32_t skif_ctab_make(unsigned down, unsigned up, int root, int transit,
                                      unsigned chan)
{
    return (down & 0xffu) << SKIF_CTAB_DOWN_LO | (up & 7u) << SKIF_CTAB_UP_LO |
           (root ? SKIF_CTAB_ROOT : 0) | (transit ? SKIF_CTAB_TRANSIT : 0) | SKIF_CTAB_VALID |
           (chan & 0xffu) << SKIF_CTAB_CHAN_LO;
}
static inline unsigned skif_ctab_down(uint32_t e)
{
    return (e >> SKIF_CTAB_DOWN_LO) & 0xffu;
}
static inline unsigned skif_ctab_up(uint32_t e)
{
    return (e >> SKIF_CTAB_UP_LO) & 7u;
}
static inline unsigned skif_ctab_chan(uint32_t e)
{
    return (e >> SKIF_CTAB_CHAN_LO) & 0xffu;
}

/* Write `entry` into tree `tree` of this node's table (COLL_SEL, COLL_TAB)
 * and wait until the adapter took it. Errors: -EINVAL tree >= SKIF_COLL_TREES;
 * -EIO the adapter refused it (a rule of docs/collectives.md, or no
 * collective engine); -EPIPE. */
int skif_coll_tab_write(struct skif_dev *dev, unsigned tree, uint32_t entry);

/* Read the entry of tree `tree` back into *entry. Errors as above. */
int skif_coll_tab_read(struct skif_dev *dev, unsigned tree, uint32_t *entry);

/* ---------------------------------------------------------------- posting */

/* One collective operation as software posts it. */
struct skif_coll_op {
    unsigned cmd;  /* SKIF_COLL_CMD_* */
    unsigned type; /* SKIF_COLL_TYPE_* (reduces) */
    unsigned op;   /* SKIF_COLL_OP_* (reduces) */
    unsigned rid;  /* reduce id 0..31 (reduces) */
    unsigned tree; /* 0..SKIF_COLL_TREES-1 */
    unsigned arg;  /* REDUCE: target node id; BCAST: this node's id; ALLREDUCE: 0 */
    size_t len;    /* payload bytes */
};

/* The descriptor word of `o` (no check). */
static inline uint64_t skif_coll_desc(const struct skif_coll_op *o)
{
    return (uint64_t)(o->arg & 0xffffu) << SKIF_CDESC_ARG_LO |
           (uint64_t)(o->type & 0xfu) << SKIF_CDESC_TYPE_LO |
           (uint64_t)(o->cmd & 0xfu) << SKIF_CDESC_CMD_LO |
           (uint64_t)(o->len & 0xfffu) << SKIF_CDESC_LEN_LO |
           (uint64_t)(o->op & 7u) << SKIF_CDESC_OP_LO |
           (uint64_t)(o->rid & 31u) << SKIF_CDESC_RID_LO |
           (uint64_t)(o->tree & 0xffu) << SKIF_CDESC_TREE_LO |
           (uint64_t)SKIF_DESC_KIND_COLL << SKIF_CDESC_KIND_LO;
}

/* Check `o` against the formats: 0, or -EINVAL (unknown cmd, type or op, rid
 * or tree out of range, a reduce longer than SKIF_COLL_MAX_RED or not a
 * multiple of its element size, a broadcast longer than SKIF_MAX_MSG). */
int skif_coll_op_check(const struct skif_coll_op *o);

/* Post `o` with o->len bytes of payload from buf into the TX ring and ring
 * the doorbell. Errors: -EINVAL (skif_coll_op_check, NULL buf with len > 0,
 * not set up); -EAGAIN it does not fit now (nothing written). */
int skif_coll_post(struct skif_dev *dev, const struct skif_coll_op *o, const void *buf);

/* Post `o` by programmed I/O (the COLL_PIO window, docs/collectives.md): the
 * payload's ceil(len/4) 32-bit halves into COLL_PIO_DATA, the descriptor's
 * low half into COLL_PIO_LO, then its high half into COLL_PIO_HI, which
 * launches the packet; no TX ring entry, no descriptor read. Posted writes:
 * they reach the adapter when the program next blocks, and while an earlier
 * launch is not yet taken by the engine the adapter holds them (nothing is
 * lost). Errors: -EINVAL (skif_coll_op_check, a payload longer than
 * SKIF_COLL_MAX_RED, NULL buf with len > 0); -EPIPE. */
int skif_coll_post_pio(struct skif_dev *dev, const struct skif_coll_op *o, const void *buf);

/* The same writes for any descriptor word and len <= SKIF_COLL_MAX_RED
 * payload bytes, unchecked, so tests can show what the adapter does with a
 * bad one. */
int skif_coll_pio_write(struct skif_dev *dev, uint64_t desc, const void *buf, size_t len);

/* ---------------------------------------------------------------- results */

/* A channel ring entry: a message (kind 0) or a collective result (kind 2). */
struct skif_coll_result {
    unsigned kind; /* SKIF_ENT_KIND_MSG or SKIF_ENT_KIND_COLL */
    unsigned chan, node, tree, len, err, op, rid, cmd;
};

/* Split an entry header word: 0, or -EPROTO (an unknown kind, reserved bits
 * set, a length beyond SKIF_MAX_MSG). */
int skif_coll_entry_parse(uint64_t hdr, struct skif_coll_result *r);

/* Take the channel's next entry, copy up to cap bytes of its payload into
 * buf, free its ring space, and fill *r: 1, 0 when none is there, -EPROTO a
 * malformed entry (nothing taken). Entries must be taken one at a time
 * (nothing else taken from the channel). */
int skif_coll_take(struct skif_chan *ch, struct skif_coll_result *r, void *buf, size_t cap);

/* COLL_SENT and COLL_DONE as the adapter last wrote them into the status
 * block (no register access). */
void skif_coll_counters(struct skif_dev *dev, uint32_t *sent, uint32_t *done);

#ifdef __cplusplus
}
#endif

#endif /* SKIF_COLL_H */
