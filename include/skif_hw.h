/* SPDX-License-Identifier: Apache-2.0 */
/* skif_hw.h: adapter register, packet and ring formats for C.
 * GENERATED from rtl/skif_defs.vh by sim/tools/gen_hw_h.awk; do not edit.
 * `make test` checks that this file matches its source. */
#ifndef SKIF_HW_H
#define SKIF_HW_H

#define SKIF_ID_VALUE            0x534B4946u  /* "SKIF" */
#define SKIF_VERSION_VALUE       0x00000500u  /* 0.5.0: major[23:16] minor[15:8] patch[7:0] */
#define SKIF_FLIT_W              64u          /* link flit width, bits */
#define SKIF_NODE_W              16u          /* node id width: 4 bits per dimension, x in [3:0] */
#define SKIF_CHAN_W              8u           /* channel id width */
#define SKIF_LEN_W               12u          /* message length field width, bytes */
#define SKIF_MAX_MSG             2048u        /* largest message payload, bytes (256 flits) */
#define SKIF_REG_AW              12u          /* register port byte address width */
#define SKIF_CHANS_MAX           256u         /* channels an adapter can have (the channel id width) */
#define SKIF_DMA_AW              64u          /* DMA byte address width */
#define SKIF_VC_CLASSES          6u           /* VC classes of the torus router */
#define SKIF_NUM_VCS             2u           /* VCs per class (NumVcs), 1..4 */
#define SKIF_VC_DEPTH            32u          /* flits per input VC buffer (VcDepth), 2..64 */
#define SKIF_HDR_KIND_HI         63u
#define SKIF_HDR_KIND_LO         60u
#define SKIF_HDR_DST_HI          59u
#define SKIF_HDR_DST_LO          44u
#define SKIF_HDR_SRC_HI          43u
#define SKIF_HDR_SRC_LO          28u
#define SKIF_HDR_CHAN_HI         27u
#define SKIF_HDR_CHAN_LO         20u
#define SKIF_HDR_LEN_HI          19u
#define SKIF_HDR_LEN_LO          8u
#define SKIF_KIND_MSG            0x0u         /* SkifCh message; other kinds reserved */
#define SKIF_KIND_COLL_UP        0x1u         /* collective subnet, towards the root (own VC class in the torus router) */
#define SKIF_KIND_COLL_DOWN      0x2u         /* collective subnet, away from the root (own VC class in the torus router) */
#define SKIF_KIND_RMA_PUT        0x3u         /* RMA put: header, target address, ceil(len/8) data flits */
#define SKIF_KIND_RMA_GET        0x4u         /* RMA get request: header, target address, initiator address */
#define SKIF_KIND_RMA_GET_RESP   0x5u         /* RMA get response: header, initiator address, ceil(len/8) data flits */
#define SKIF_KIND_RMA_ATOMIC     0x6u         /* RMA atomic: header, target address, result address, operand, compare */
#define SKIF_KIND_RMA_ACK        0x7u         /* RMA ack: header; len 4/8: also result address, old value */
#define SKIF_RHDR_OP_LO          24u          /* 4 bits: ATOMIC op (SKIF_RMA_OP_*); ACK: code (SKIF_RMA_ERR_*) */
#define SKIF_RHDR_RKIND_LO       20u          /* 4 bits: ACK: kind of the request answered; else zero */
#define SKIF_RHDR_TAG_LO         0u           /* 8 bits: request tag, echoed in the answer */
#define SKIF_RMA_OP_FETCH        0x0u         /* atomic fetch: old value, no write */
#define SKIF_RMA_OP_FADD         0x1u         /* atomic fetch-and-add: old value, mem += operand */
#define SKIF_RMA_OP_ADD          0x2u         /* atomic add: mem += operand, ACK without value */
#define SKIF_RMA_OP_SWAP         0x3u         /* atomic swap: old value, mem = operand */
#define SKIF_RMA_OP_CSWAP        0x4u         /* atomic compare-swap: old value, mem = operand if old == compare */
#define SKIF_RMA_ERR_OK          0x0u         /* ACK code: performed */
#define SKIF_RMA_ERR_WIN         0x1u         /* ACK code: outside every window or without the permission */
#define SKIF_RMA_ERR_LEN         0x2u         /* ACK code: bad length (0, > SKIF_MAX_MSG, atomic not 4/8) */
#define SKIF_RMA_ERR_OP          0x3u         /* ACK code: bad atomic op or address not aligned to its width */
#define SKIF_RMA_ERR_FORMAT      0x4u         /* ACK code: the last flag too early or too late */
#define SKIF_RMA_ERR_DMA         0x5u         /* ACK code: a DMA read returned an error */
#define SKIF_RMA_WINDOWS_MAX     8u           /* RMA window table entries at most */
#define SKIF_RMA_PERM_R          0x00000001u  /* RMA_WIN_CFG: window readable by GET */
#define SKIF_RMA_PERM_W          0x00000002u  /* RMA_WIN_CFG: window writable by PUT, GET_RESP, atomic results */
#define SKIF_RMA_PERM_A          0x00000004u  /* RMA_WIN_CFG: window open to ATOMIC */
#define SKIF_RMA_STAT_PUTS       0x000u       /* u32: puts acknowledged (RMA_PUTS) */
#define SKIF_RMA_STAT_GETS       0x004u       /* u32: gets returned (RMA_GETS) */
#define SKIF_RMA_STAT_ATOMS      0x008u       /* u32: atomics returned (RMA_ATOMS) */
#define SKIF_RMA_STAT_ERRS       0x00Cu       /* u32: requests completed in error (RMA_ERRS) */
#define SKIF_CHDR_ARG_LO         44u          /* 16 bits: REDUCE target node; BCAST posting node; else 0 */
#define SKIF_CHDR_CMD_LO         40u          /* 4 bits: SKIF_COLL_CMD_* */
#define SKIF_CHDR_TYPE_LO        36u          /* 4 bits: SKIF_COLL_TYPE_* */
#define SKIF_CHDR_ERR            35u          /* the operation failed (mismatch, bad op/type/len): no data */
#define SKIF_CHDR_TREE_LO        20u          /* 8 bits: tree id */
#define SKIF_CHDR_RID_LO         3u           /* 5 bits: reduce id 0..31 */
#define SKIF_CHDR_OP_LO          0u           /* 3 bits: SKIF_COLL_OP_* */
#define SKIF_COLL_CMD_BCAST      0x0u         /* broadcast (a request on the way up) */
#define SKIF_COLL_CMD_ALLREDUCE  0x1u         /* reduce, result to every member */
#define SKIF_COLL_CMD_REDUCE     0x2u         /* reduce, data to the target node, empty completion to the others */
#define SKIF_COLL_TYPE_U32       0x0u         /* unsigned 32-bit elements */
#define SKIF_COLL_TYPE_S32       0x1u         /* signed 32-bit elements */
#define SKIF_COLL_TYPE_U64       0x2u         /* unsigned 64-bit elements */
#define SKIF_COLL_TYPE_S64       0x3u         /* signed 64-bit elements */
#define SKIF_COLL_OP_SUM         0x0u         /* sum, wrapping */
#define SKIF_COLL_OP_MIN         0x1u         /* minimum */
#define SKIF_COLL_OP_MAX         0x2u         /* maximum */
#define SKIF_COLL_MAX_RED        64u          /* largest reduce payload, bytes (a multiple of the element size) */
#define SKIF_COLL_RIDS           32u          /* reduce ids per tree */
#define SKIF_COLL_TREES          32u          /* tree table entries in every simulation build */
#define SKIF_NA_CHAN_LO          0u
#define SKIF_NA_NODE_LO          8u
#define SKIF_DESC_LEN_LO         32u
#define SKIF_DESC_KIND_LO        60u          /* 4 bits: 0 message, 1 collective (SKIF_DESC_KIND_*) */
#define SKIF_DESC_KIND_MSG       0x0u         /* message: [31:0] dst netaddr, [63:44] zero */
#define SKIF_DESC_KIND_COLL      0x1u         /* collective operation (docs/collectives.md) */
#define SKIF_DESC_KIND_RMA       0x2u         /* RMA request: [43:32] bytes that follow, [31:0] and [59:44] zero */
#define SKIF_RMA_REQ_MAX         2064u        /* largest RMA request in the TX ring, bytes: header, address, 256 data flits */
#define SKIF_CDESC_ARG_LO        0u
#define SKIF_CDESC_LEN_LO        32u
#define SKIF_CDESC_KIND_LO       60u
#define SKIF_CDESC_TYPE_LO       20u
#define SKIF_CDESC_CMD_LO        24u
#define SKIF_CDESC_OP_LO         44u
#define SKIF_CDESC_RID_LO        47u
#define SKIF_CDESC_TREE_LO       52u
#define SKIF_CENT_CHAN_LO        0u
#define SKIF_CENT_NODE_LO        8u
#define SKIF_CENT_LEN_LO         32u
#define SKIF_CENT_TREE_LO        24u
#define SKIF_CENT_ERR_BIT        44u
#define SKIF_CENT_OP_LO          45u
#define SKIF_CENT_RID_LO         48u
#define SKIF_CENT_CMD_LO         56u
#define SKIF_CENT_KIND_LO        60u
#define SKIF_ENT_KIND_MSG        0x0u         /* the entry is a message */
#define SKIF_ENT_KIND_COLL       0x2u         /* the entry is a collective result */
#define SKIF_RING_LOG2_MIN       12u          /* smallest ring: 4 KiB */
#define SKIF_RING_LOG2_MAX       24u          /* largest ring: 16 MiB */
#define SKIF_STAT_TX_HEAD        0x000u       /* u32 in a u64 word: TX consumer pointer */
#define SKIF_STAT_COLL           0x008u       /* u64: [31:0] COLL_SENT, [63:32] COLL_DONE (collective counters) */
#define SKIF_STAT_COLL_SENT      0x008u       /* byte offset of COLL_SENT (u32, low half of SKIF_STAT_COLL) */
#define SKIF_STAT_COLL_DONE      0x00Cu       /* byte offset of COLL_DONE (u32, high half of SKIF_STAT_COLL) */
#define SKIF_STAT_CH_TAIL        0x100u       /* u32 in a u64 word per channel c at + 8c: its ring's producer pointer */
#define SKIF_REG_ID              0x000u       /* RO  SKIF_ID_VALUE */
#define SKIF_REG_VERSION         0x004u       /* RO  SKIF_VERSION_VALUE */
#define SKIF_REG_SCRATCH         0x008u       /* RW  free for software */
#define SKIF_REG_CTRL            0x00Cu       /* RW  CTRL_* bits */
#define SKIF_REG_STATUS          0x010u       /* RO/W1C  STATUS_* bits; error bits write-1-to-clear */
#define SKIF_REG_NODE            0x014u       /* RO  this adapter's node id */
#define SKIF_REG_ERR_INFO        0x01Cu       /* RO  detail of the last error (offending offset or ring pointer) */
#define SKIF_REG_TX_BASE_LO      0x020u       /* RW  TX ring base, bits [31:0], 8-byte aligned */
#define SKIF_REG_TX_BASE_HI      0x024u       /* RW  TX ring base, bits [63:32] */
#define SKIF_REG_TX_SIZE         0x028u       /* RW  log2 of TX ring size in bytes (12..24) */
#define SKIF_REG_TX_TAIL         0x02Cu       /* RW  doorbell: software producer pointer */
#define SKIF_REG_TX_HEAD         0x030u       /* RO  adapter consumer pointer */
#define SKIF_REG_STAT_BASE_LO    0x060u       /* RW  status block address, bits [31:0] */
#define SKIF_REG_STAT_BASE_HI    0x064u       /* RW  status block address, bits [63:32] */
#define SKIF_REG_TX_PKTS         0x080u       /* RO  packets sent */
#define SKIF_REG_TX_FLITS        0x084u       /* RO  flits sent */
#define SKIF_REG_RX_PKTS         0x088u       /* RO  packets delivered into channel rings */
#define SKIF_REG_RX_DROPS        0x08Cu       /* RO  packets dropped (malformed) */
#define SKIF_REG_NET_DROPS       0x090u       /* RO  local packets dropped by the router at injection (bad dst) */
#define SKIF_REG_CH_DROPS        0x094u       /* RO  messages discarded: channel closed or beyond CH_NUM */
#define SKIF_REG_CH_NUM          0x0A0u       /* RO  number of channels of this adapter */
#define SKIF_REG_CH_SEL          0x0A4u       /* RW  channel the CH_* window shows and CH_CFG commits (< CH_NUM) */
#define SKIF_REG_CH_BASE_LO      0x0A8u       /* RW  ring base for the next CH_CFG write, bits [31:0], 8-byte aligned */
#define SKIF_REG_CH_BASE_HI      0x0ACu       /* RW  ring base for the next CH_CFG write, bits [63:32] */
#define SKIF_REG_CH_CFG          0x0B0u       /* RW  write: commit {CH_BASE, size, enable} to channel CH_SEL, head = tail = 0; read: channel CH_SEL */
#define SKIF_REG_CH_TAIL         0x0B4u       /* RO  channel CH_SEL: adapter producer pointer */
#define SKIF_REG_CH_HEAD_RD      0x0B8u       /* RO  channel CH_SEL: software consumer pointer */
#define SKIF_REG_CH_RBASE_LO     0x0BCu       /* RO  channel CH_SEL: ring base, bits [31:0] */
#define SKIF_REG_CH_RBASE_HI     0x0C0u       /* RO  channel CH_SEL: ring base, bits [63:32] */
#define SKIF_REG_COLL_TREES      0x0D0u       /* RO  tree table entries of the collective engine */
#define SKIF_REG_COLL_SEL        0x0D4u       /* RW  tree the COLL_TAB window shows and commits (< COLL_TREES) */
#define SKIF_REG_COLL_TAB        0x0D8u       /* RW  write: commit tree COLL_SEL's entry; read: the entry */
#define SKIF_REG_COLL_DROPS      0x0DCu       /* RO  collective packets dropped by a forwarding check */
#define SKIF_REG_COLL_ERRS       0x0E0u       /* RO  collective operations that ended in error here */
#define SKIF_REG_COLL_SENT       0x0E4u       /* RO  collective operations handed to the engine */
#define SKIF_REG_COLL_DONE       0x0E8u       /* RO  collective results written into rings */
#define SKIF_REG_COLL_PIO_LO     0x0F0u       /* WO  programmed-I/O collective: descriptor [31:0] (kept until rewritten) */
#define SKIF_REG_COLL_PIO_HI     0x0F4u       /* WO  programmed-I/O collective: descriptor [63:32]; the write launches the packet */
#define SKIF_REG_COLL_PIO_DATA   0x100u       /* WO  + 4i, i < 16: PIO payload word i/2, low half when i is even (kept until rewritten) */
#define SKIF_COLL_PIO_REGS       16u          /* COLL_PIO_DATA registers (SKIF_COLL_MAX_RED bytes) */
#define SKIF_REG_RMA_STATUS      0x200u       /* RO/W1C  RMA_STATUS_* bits; sticky bits write-1-to-clear */
#define SKIF_REG_RMA_REFUSED     0x204u       /* RO  RMA requests refused here (window, length, op, format), wraps */
#define SKIF_REG_RMA_ERR_INFO    0x208u       /* RO  last refusal or dropped response: [3:0] code [7:4] kind [15:8] tag [31:16] src */
#define SKIF_REG_RMA_ACKS        0x20Cu       /* RO  RMA ACK packets received, wraps */
#define SKIF_REG_RMA_PUTS        0x210u       /* RO  puts acknowledged (also in the RMA status words) */
#define SKIF_REG_RMA_GETS        0x214u       /* RO  gets returned and written */
#define SKIF_REG_RMA_ATOMS       0x218u       /* RO  atomics returned (old value written) */
#define SKIF_REG_RMA_ERRS        0x21Cu       /* RO  requests of this node completed in error (error ACK or bad response) */
#define SKIF_REG_RMA_STAT_LO     0x220u       /* RW  RMA status words address [31:0], 8-byte aligned; 0: none written */
#define SKIF_REG_RMA_STAT_HI     0x224u       /* RW  RMA status words address [63:32] */
#define SKIF_REG_RMA_WIN_SEL     0x228u       /* RW  window the RMA_WIN_* registers show and RMA_WIN_CFG commits */
#define SKIF_REG_RMA_WIN_CFG     0x22Cu       /* RW  write: commit {WIN_BASE, WIN_SIZE, perm [2:0]} to WIN_SEL; read: its perm */
#define SKIF_REG_RMA_WIN_BASE_LO 0x230u       /* RW  window base [31:0] for the next WIN_CFG write (bits [2:0] ignored) */
#define SKIF_REG_RMA_WIN_BASE_HI 0x234u       /* RW  window base [63:32] for the next WIN_CFG write */
#define SKIF_REG_RMA_WIN_SIZE_LO 0x238u       /* RW  window size [31:0] in bytes for the next WIN_CFG write (bits [2:0] ignored) */
#define SKIF_REG_RMA_WIN_SIZE_HI 0x23Cu       /* RW  window size [63:32] for the next WIN_CFG write */
#define SKIF_REG_RMA_WIN_RBASE_LO 0x240u       /* RO  window WIN_SEL: base [31:0] */
#define SKIF_REG_RMA_WIN_RBASE_HI 0x244u       /* RO  window WIN_SEL: base [63:32] */
#define SKIF_REG_RMA_WIN_RSIZE_LO 0x248u       /* RO  window WIN_SEL: size [31:0] */
#define SKIF_REG_RMA_WIN_RSIZE_HI 0x24Cu       /* RO  window WIN_SEL: size [63:32] */
#define SKIF_REG_RMA_WINDOWS     0x250u       /* RO  window table entries */
#define SKIF_REG_RMA_SERVED      0x254u       /* RO  RMA requests performed here (puts, gets, atomics), wraps */
#define SKIF_REG_RMA_END         0x258u       /* first offset after the RMA window */
#define SKIF_RMA_STATUS_REFUSED  0x00000001u  /* sticky: a request was refused here */
#define SKIF_RMA_STATUS_RSP_ERR  0x00000002u  /* sticky: a response for this node was dropped or an error ACK came */
#define SKIF_RMA_STATUS_BUSY     0x00000004u  /* the engine is handling a packet */
#define SKIF_REG_CH_HEAD         0x400u       /* WO  + 4c: channel c's consumer pointer (frees ring space), c < CH_NUM */
#define SKIF_REG_MAP_SIZE        0x800u       /* first offset outside the map */
#define SKIF_CTRL_TX_EN          0x00000001u  /* TX engine runs */
#define SKIF_CTRL_RX_EN          0x00000002u  /* RX engine accepts packets */
#define SKIF_CTRL_IRQ_EN         0x00000004u  /* event pulse on each status-block write */
#define SKIF_STATUS_TX_BUSY      0x00000001u  /* TX engine is sending */
#define SKIF_STATUS_RX_BUSY      0x00000002u  /* RX engine is receiving a packet */
#define SKIF_STATUS_RX_STALL     0x00000004u  /* a message waits for space in its channel's ring: link back-pressured */
#define SKIF_STATUS_TX_ERR       0x00000008u  /* sticky: bad TX descriptor, TX halted */
#define SKIF_STATUS_REG_ERR      0x00000010u  /* sticky: register access outside the map */
#define SKIF_STATUS_DMA_ERR      0x00000020u  /* sticky: DMA read returned an error */
#define SKIF_STATUS_RX_ERR       0x00000040u  /* sticky: malformed packet dropped */
#define SKIF_STATUS_NET_DROP     0x00000080u  /* sticky: router dropped a local packet (bad dst) */
#define SKIF_STATUS_CH_DROP      0x00000100u  /* sticky: a message for a closed channel was discarded */
#define SKIF_STATUS_COLL_DROP    0x00000200u  /* sticky: a collective packet failed a forwarding check */
#define SKIF_STATUS_COLL_ERR     0x00000400u  /* sticky: a collective operation ended in error here */
#define SKIF_STATUS_PIO_BUSY     0x00000800u  /* a PIO collective launch waits for the engine: writes to the COLL_PIO window wait */
#define SKIF_CTAB_DOWN_MASK      0x000000FFu  /* bit p: port p leads to a node below */
#define SKIF_CTAB_UP_LO          8u           /* 3 bits: port towards the node above */
#define SKIF_CTAB_ROOT           0x00001000u  /* this node is the root */
#define SKIF_CTAB_TRANSIT        0x00002000u  /* this node's host is not a member */
#define SKIF_CTAB_VALID          0x00008000u  /* the entry is in use */
#define SKIF_CTAB_CHAN_LO        16u          /* 8 bits: result channel */
#define SKIF_CTAB_DOWN_LO        0u           /* 8 bits: down port set */
#define SKIF_CTAB_RSVD           0xFF004800u  /* must be zero */
#define SKIF_CH_CFG_SIZE_MASK    0x0000001Fu  /* log2 of ring bytes (12..24) when enabling */
#define SKIF_CH_CFG_EN           0x00000100u  /* channel open: messages go into its ring */
#define SKIF_CH_CFG_BUSY         0x00010000u  /* RO: a message is being written into this channel now */
#define SKIF_CRW_CHAN_BACK       5u           /* the credit channel is CH_NUM - this (59 of 64) */
#define SKIF_CRW_KIND_LO         0u
#define SKIF_CRW_CHAN_LO         8u
#define SKIF_CRW_BYTES_LO        32u
#define SKIF_CRW_GRANT           1u           /* receiver to sender: add bytes */
#define SKIF_CRW_REQ             2u           /* sender to receiver: asks for at least bytes */
#define SKIF_CRW_REVOKE          3u           /* receiver to sender: give back what you hold beyond bytes */
#define SKIF_CRW_RETURN          4u           /* sender to receiver: bytes given back */

#endif /* SKIF_HW_H */
