/* SPDX-License-Identifier: Apache-2.0 */
/* skif_hw.h: adapter register, packet and ring formats for C.
 * GENERATED from rtl/skif_defs.vh by sim/gen_hw_h.awk; do not edit.
 * `make test` checks that this file matches its source. */
#ifndef SKIF_HW_H
#define SKIF_HW_H

#define SKIF_ID_VALUE            0x534B4946u  /* "SKIF" */
#define SKIF_VERSION_VALUE       0x00000200u  /* 0.2.0: major[23:16] minor[15:8] patch[7:0] */
#define SKIF_FLIT_W              64u          /* link flit width, bits */
#define SKIF_NODE_W              16u          /* node id width: 4 bits per dimension, x in [3:0] */
#define SKIF_CHAN_W              8u           /* channel id width */
#define SKIF_LEN_W               12u          /* message length field width, bytes */
#define SKIF_MAX_MSG             2048u        /* largest message payload, bytes (256 flits) */
#define SKIF_REG_AW              12u          /* register port byte address width */
#define SKIF_CHANS_MAX           256u         /* channels an adapter can have (the channel id width) */
#define SKIF_DMA_AW              64u          /* DMA byte address width */
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
#define SKIF_NA_CHAN_LO          0u
#define SKIF_NA_NODE_LO          8u
#define SKIF_DESC_LEN_LO         32u
#define SKIF_RING_LOG2_MIN       12u          /* smallest ring: 4 KiB */
#define SKIF_RING_LOG2_MAX       24u          /* largest ring: 16 MiB */
#define SKIF_STAT_TX_HEAD        0x000u       /* u32 in a u64 word: TX consumer pointer */
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
#define SKIF_CH_CFG_SIZE_MASK    0x0000001Fu  /* log2 of ring bytes (12..24) when enabling */
#define SKIF_CH_CFG_EN           0x00000100u  /* channel open: messages go into its ring */
#define SKIF_CH_CFG_BUSY         0x00010000u  /* RO: a message is being written into this channel now */

#endif /* SKIF_HW_H */
