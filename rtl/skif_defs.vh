// SPDX-License-Identifier: Apache-2.0
// skif_defs.vh: the one definition of the packet, ring and register formats.
//
// Every RTL module, testbench and (through sim/tools/gen_hw_h.awk, which turns each
// `define below into a C #define in include/skif_hw.h) the C side use these
// names. Keep one `define per line, value as a sized Verilog literal or a plain
// decimal, so the generator can read it. docs/packet-format.md and
// docs/register-map.md explain each field.

`ifndef SKIF_DEFS_VH
`define SKIF_DEFS_VH

// ---------------------------------------------------------------- identity
`define SKIF_ID_VALUE          32'h534B4946  // "SKIF"
`define SKIF_VERSION_VALUE     32'h00000500  // 0.5.0: major[23:16] minor[15:8] patch[7:0]

// ---------------------------------------------------------------- widths
`define SKIF_FLIT_W            64     // link flit width, bits
`define SKIF_NODE_W            16     // node id width: 4 bits per dimension, x in [3:0]
`define SKIF_CHAN_W            8      // channel id width
`define SKIF_LEN_W             12     // message length field width, bytes
`define SKIF_MAX_MSG           2048   // largest message payload, bytes (256 flits)
`define SKIF_REG_AW            12     // register port byte address width
`define SKIF_CHANS_MAX         256    // channels an adapter can have (the channel id width)
`define SKIF_DMA_AW            64     // DMA byte address width

// ---------------------------------------------------------------- router
// The torus router's defaults, read by every module and top that has the
// parameter (docs/router.md): the VC classes are messages before and after
// the dateline, collective up and down, answers before and after the dateline.
`define SKIF_VC_CLASSES        6      // VC classes of the torus router
`define SKIF_NUM_VCS           2      // VCs per class (NumVcs), 1..4
`define SKIF_VC_DEPTH          32     // flits per input VC buffer (VcDepth), 2..64

// ---------------------------------------------------------------- header flit
// [63:60] kind  [59:44] dst node  [43:28] src node  [27:20] dst channel
// [19:8]  payload length in bytes  [7:0] reserved (zero for KIND_MSG)
`define SKIF_HDR_KIND_HI       63
`define SKIF_HDR_KIND_LO       60
`define SKIF_HDR_DST_HI        59
`define SKIF_HDR_DST_LO        44
`define SKIF_HDR_SRC_HI        43
`define SKIF_HDR_SRC_LO        28
`define SKIF_HDR_CHAN_HI       27
`define SKIF_HDR_CHAN_LO       20
`define SKIF_HDR_LEN_HI        19
`define SKIF_HDR_LEN_LO        8
`define SKIF_KIND_MSG          4'h0   // SkifCh message; other kinds reserved
`define SKIF_KIND_COLL_UP      4'h1   // collective subnet, towards the root (own VC class in the torus router)
`define SKIF_KIND_COLL_DOWN    4'h2   // collective subnet, away from the root (own VC class in the torus router)

// ---------------------------------------------------------------- RMA header flit
// Remote memory access (docs/rma.md, docs/packet-format.md "RMA packets"):
// [63:60] kind 3..7  [59:44] dst  [43:28] src  [27:24] op (ATOMIC) or code
// (ACK)  [23:20] kind of the request answered (ACK), else zero  [19:8] data
// length in bytes (not the flit count)  [7:0] request tag (echoed).
`define SKIF_KIND_RMA_PUT      4'h3   // RMA put: header, target address, ceil(len/8) data flits
`define SKIF_KIND_RMA_GET      4'h4   // RMA get request: header, target address, initiator address
`define SKIF_KIND_RMA_GET_RESP 4'h5   // RMA get response: header, initiator address, ceil(len/8) data flits
`define SKIF_KIND_RMA_ATOMIC   4'h6   // RMA atomic: header, target address, result address, operand, compare
`define SKIF_KIND_RMA_ACK      4'h7   // RMA ack: header; len 4/8: also result address, old value
`define SKIF_RHDR_OP_LO        24     // 4 bits: ATOMIC op (SKIF_RMA_OP_*); ACK: code (SKIF_RMA_ERR_*)
`define SKIF_RHDR_RKIND_LO     20     // 4 bits: ACK: kind of the request answered; else zero
`define SKIF_RHDR_TAG_LO       0      // 8 bits: request tag, echoed in the answer
`define SKIF_RMA_OP_FETCH      4'h0   // atomic fetch: old value, no write
`define SKIF_RMA_OP_FADD       4'h1   // atomic fetch-and-add: old value, mem += operand
`define SKIF_RMA_OP_ADD        4'h2   // atomic add: mem += operand, ACK without value
`define SKIF_RMA_OP_SWAP       4'h3   // atomic swap: old value, mem = operand
`define SKIF_RMA_OP_CSWAP      4'h4   // atomic compare-swap: old value, mem = operand if old == compare
`define SKIF_RMA_ERR_OK        4'h0   // ACK code: performed
`define SKIF_RMA_ERR_WIN       4'h1   // ACK code: outside every window or without the permission
`define SKIF_RMA_ERR_LEN       4'h2   // ACK code: bad length (0, > SKIF_MAX_MSG, atomic not 4/8)
`define SKIF_RMA_ERR_OP        4'h3   // ACK code: bad atomic op or address not aligned to its width
`define SKIF_RMA_ERR_FORMAT    4'h4   // ACK code: the last flag too early or too late
`define SKIF_RMA_ERR_DMA       4'h5   // ACK code: a DMA read returned an error
`define SKIF_RMA_WINDOWS_MAX   8      // RMA window table entries at most
`define SKIF_RMA_PERM_R        32'h00000001  // RMA_WIN_CFG: window readable by GET
`define SKIF_RMA_PERM_W        32'h00000002  // RMA_WIN_CFG: window writable by PUT, GET_RESP, atomic results
`define SKIF_RMA_PERM_A        32'h00000004  // RMA_WIN_CFG: window open to ATOMIC
// RMA completion status words in host memory (at RMA_STAT, 8-byte aligned, 16 bytes)
`define SKIF_RMA_STAT_PUTS     12'h000  // u32: puts acknowledged (RMA_PUTS)
`define SKIF_RMA_STAT_GETS     12'h004  // u32: gets returned (RMA_GETS)
`define SKIF_RMA_STAT_ATOMS    12'h008  // u32: atomics returned (RMA_ATOMS)
`define SKIF_RMA_STAT_ERRS     12'h00C  // u32: requests completed in error (RMA_ERRS)

// ---------------------------------------------------------------- collective header flit
// Kinds COLL_UP/COLL_DOWN (docs/collectives.md): [63:60] kind  [59:44] arg
// [43:40] cmd  [39:36] type  [35] err  [34:28] zero  [27:20] tree  [19:8] len
// [7:3] reduce id  [2:0] op. Link flits of the collective subnet travel on
// the router's VC classes 2 (up) and 3 (down) but are handled by the
// collective engine of every node (rtl/coll/), one hop at a time.
`define SKIF_CHDR_ARG_LO       44     // 16 bits: REDUCE target node; BCAST posting node; else 0
`define SKIF_CHDR_CMD_LO       40     // 4 bits: SKIF_COLL_CMD_*
`define SKIF_CHDR_TYPE_LO      36     // 4 bits: SKIF_COLL_TYPE_*
`define SKIF_CHDR_ERR          35     // the operation failed (mismatch, bad op/type/len): no data
`define SKIF_CHDR_TREE_LO      20     // 8 bits: tree id
`define SKIF_CHDR_RID_LO       3      // 5 bits: reduce id 0..31
`define SKIF_CHDR_OP_LO        0      // 3 bits: SKIF_COLL_OP_*
`define SKIF_COLL_CMD_BCAST    4'h0   // broadcast (a request on the way up)
`define SKIF_COLL_CMD_ALLREDUCE 4'h1   // reduce, result to every member
`define SKIF_COLL_CMD_REDUCE   4'h2   // reduce, data to the target node, empty completion to the others
`define SKIF_COLL_TYPE_U32     4'h0   // unsigned 32-bit elements
`define SKIF_COLL_TYPE_S32     4'h1   // signed 32-bit elements
`define SKIF_COLL_TYPE_U64     4'h2   // unsigned 64-bit elements
`define SKIF_COLL_TYPE_S64     4'h3   // signed 64-bit elements
`define SKIF_COLL_OP_SUM       3'h0   // sum, wrapping
`define SKIF_COLL_OP_MIN       3'h1   // minimum
`define SKIF_COLL_OP_MAX       3'h2   // maximum
`define SKIF_COLL_MAX_RED      64     // largest reduce payload, bytes (a multiple of the element size)
`define SKIF_COLL_RIDS         32     // reduce ids per tree
`define SKIF_COLL_TREES        32     // tree table entries in every simulation build

// ---------------------------------------------------------------- netaddr_t
// [7:0] channel  [23:8] node  [31:24] must be zero
`define SKIF_NA_CHAN_LO        0
`define SKIF_NA_NODE_LO        8

// ---------------------------------------------------------------- rings
// TX descriptor word (little-endian u64 at the ring's head):
//   [31:0] dst netaddr  [43:32] length in bytes  [63:44] must be zero
// followed by ceil(len/8) payload words. Entry size 8 + roundup8(len).
// RX entry header word, written by the adapter into the channel's ring:
//   [7:0] dst channel  [23:8] src node  [31:24] zero  [43:32] length  [63:44] zero
// Head/tail are free-running 32-bit byte counters; the ring byte address is
// base + (ptr & (size - 1)); used = tail - head. Every channel has a ring of
// its own (channel table, CH_* registers).
`define SKIF_DESC_LEN_LO       32
`define SKIF_DESC_KIND_LO      60     // 4 bits: 0 message, 1 collective (SKIF_DESC_KIND_*)
`define SKIF_DESC_KIND_MSG     4'h0   // message: [31:0] dst netaddr, [63:44] zero
`define SKIF_DESC_KIND_COLL    4'h1   // collective operation (docs/collectives.md)
`define SKIF_DESC_KIND_RMA     4'h2   // RMA request: [43:32] bytes that follow, [31:0] and [59:44] zero
// RMA request descriptor (kind 2): the entry's following words are the
// request packet's flits (header first) as sent, but for the header's src
// field, which the adapter fills in; [43:32] = 8 x flits, 8..SKIF_RMA_REQ_MAX.
// The header's kind must be PUT, GET or ATOMIC (else TX_ERR, as a bad
// descriptor). Entry size 8 + 8 x flits.
`define SKIF_RMA_REQ_MAX       2064   // largest RMA request in the TX ring, bytes: header, address, 256 data flits
// Collective descriptor: [15:0] arg  [19:16] zero  [23:20] type  [27:24] cmd
// [31:28] zero  [43:32] len  [46:44] op  [51:47] rid  [59:52] tree  [63:60] kind 1
`define SKIF_CDESC_ARG_LO      0
`define SKIF_CDESC_LEN_LO      32
`define SKIF_CDESC_KIND_LO     60
`define SKIF_CDESC_TYPE_LO     20
`define SKIF_CDESC_CMD_LO      24
`define SKIF_CDESC_OP_LO       44
`define SKIF_CDESC_RID_LO      47
`define SKIF_CDESC_TREE_LO     52
// RX entry header of a collective result (kind 2): [7:0] channel  [23:8] node
// (BCAST poster, REDUCE target, else 0)  [31:24] tree  [43:32] len  [44] err
// [47:45] op  [52:48] rid  [59:56] cmd  [63:60] kind (0 message, 2 collective)
`define SKIF_CENT_CHAN_LO      0
`define SKIF_CENT_NODE_LO      8
`define SKIF_CENT_LEN_LO       32
`define SKIF_CENT_TREE_LO      24
`define SKIF_CENT_ERR_BIT      44
`define SKIF_CENT_OP_LO        45
`define SKIF_CENT_RID_LO       48
`define SKIF_CENT_CMD_LO       56
`define SKIF_CENT_KIND_LO      60
`define SKIF_ENT_KIND_MSG      4'h0   // the entry is a message
`define SKIF_ENT_KIND_COLL     4'h2   // the entry is a collective result
`define SKIF_RING_LOG2_MIN     12     // smallest ring: 4 KiB
`define SKIF_RING_LOG2_MAX     24     // largest ring: 16 MiB

// Status block in host memory (8-byte aligned, address in STAT_BASE;
// 0x100 + 8 * channels bytes):
`define SKIF_STAT_TX_HEAD      12'h000  // u32 in a u64 word: TX consumer pointer
`define SKIF_STAT_COLL         12'h008  // u64: [31:0] COLL_SENT, [63:32] COLL_DONE (collective counters)
`define SKIF_STAT_COLL_SENT    12'h008  // byte offset of COLL_SENT (u32, low half of SKIF_STAT_COLL)
`define SKIF_STAT_COLL_DONE    12'h00C  // byte offset of COLL_DONE (u32, high half of SKIF_STAT_COLL)
`define SKIF_STAT_CH_TAIL      12'h100  // u32 in a u64 word per channel c at + 8c: its ring's producer pointer

// ---------------------------------------------------------------- registers
// 32-bit registers, byte offsets; map is 0x000..0x0FF, 4-byte aligned.
`define SKIF_REG_ID            12'h000  // RO  SKIF_ID_VALUE
`define SKIF_REG_VERSION       12'h004  // RO  SKIF_VERSION_VALUE
`define SKIF_REG_SCRATCH       12'h008  // RW  free for software
`define SKIF_REG_CTRL          12'h00C  // RW  CTRL_* bits
`define SKIF_REG_STATUS        12'h010  // RO/W1C  STATUS_* bits; error bits write-1-to-clear
`define SKIF_REG_NODE          12'h014  // RO  this adapter's node id
`define SKIF_REG_ERR_INFO      12'h01C  // RO  detail of the last error (offending offset or ring pointer)
`define SKIF_REG_TX_BASE_LO    12'h020  // RW  TX ring base, bits [31:0], 8-byte aligned
`define SKIF_REG_TX_BASE_HI    12'h024  // RW  TX ring base, bits [63:32]
`define SKIF_REG_TX_SIZE       12'h028  // RW  log2 of TX ring size in bytes (12..24)
`define SKIF_REG_TX_TAIL       12'h02C  // RW  doorbell: software producer pointer
`define SKIF_REG_TX_HEAD       12'h030  // RO  adapter consumer pointer
`define SKIF_REG_STAT_BASE_LO  12'h060  // RW  status block address, bits [31:0]
`define SKIF_REG_STAT_BASE_HI  12'h064  // RW  status block address, bits [63:32]
`define SKIF_REG_TX_PKTS       12'h080  // RO  packets sent
`define SKIF_REG_TX_FLITS      12'h084  // RO  flits sent
`define SKIF_REG_RX_PKTS       12'h088  // RO  packets delivered into channel rings
`define SKIF_REG_RX_DROPS      12'h08C  // RO  packets dropped (malformed)
`define SKIF_REG_NET_DROPS     12'h090  // RO  local packets dropped by the router at injection (bad dst)
`define SKIF_REG_CH_DROPS      12'h094  // RO  messages discarded: channel closed or beyond CH_NUM
`define SKIF_REG_CH_NUM        12'h0A0  // RO  number of channels of this adapter
`define SKIF_REG_CH_SEL        12'h0A4  // RW  channel the CH_* window shows and CH_CFG commits (< CH_NUM)
`define SKIF_REG_CH_BASE_LO    12'h0A8  // RW  ring base for the next CH_CFG write, bits [31:0], 8-byte aligned
`define SKIF_REG_CH_BASE_HI    12'h0AC  // RW  ring base for the next CH_CFG write, bits [63:32]
`define SKIF_REG_CH_CFG        12'h0B0  // RW  write: commit {CH_BASE, size, enable} to channel CH_SEL, head = tail = 0; read: channel CH_SEL
`define SKIF_REG_CH_TAIL       12'h0B4  // RO  channel CH_SEL: adapter producer pointer
`define SKIF_REG_CH_HEAD_RD    12'h0B8  // RO  channel CH_SEL: software consumer pointer
`define SKIF_REG_CH_RBASE_LO   12'h0BC  // RO  channel CH_SEL: ring base, bits [31:0]
`define SKIF_REG_CH_RBASE_HI   12'h0C0  // RO  channel CH_SEL: ring base, bits [63:32]
`define SKIF_REG_COLL_TREES    12'h0D0  // RO  tree table entries of the collective engine
`define SKIF_REG_COLL_SEL      12'h0D4  // RW  tree the COLL_TAB window shows and commits (< COLL_TREES)
`define SKIF_REG_COLL_TAB      12'h0D8  // RW  write: commit tree COLL_SEL's entry; read: the entry
`define SKIF_REG_COLL_DROPS    12'h0DC  // RO  collective packets dropped by a forwarding check
`define SKIF_REG_COLL_ERRS     12'h0E0  // RO  collective operations that ended in error here
`define SKIF_REG_COLL_SENT     12'h0E4  // RO  collective operations handed to the engine
`define SKIF_REG_COLL_DONE     12'h0E8  // RO  collective results written into rings
`define SKIF_REG_COLL_PIO_LO   12'h0F0  // WO  programmed-I/O collective: descriptor [31:0] (kept until rewritten)
`define SKIF_REG_COLL_PIO_HI   12'h0F4  // WO  programmed-I/O collective: descriptor [63:32]; the write launches the packet
`define SKIF_REG_COLL_PIO_DATA 12'h100  // WO  + 4i, i < 16: PIO payload word i/2, low half when i is even (kept until rewritten)
`define SKIF_COLL_PIO_REGS     16     // COLL_PIO_DATA registers (SKIF_COLL_MAX_RED bytes)
`define SKIF_REG_RMA_STATUS     12'h200  // RO/W1C  RMA_STATUS_* bits; sticky bits write-1-to-clear
`define SKIF_REG_RMA_REFUSED    12'h204  // RO  RMA requests refused here (window, length, op, format), wraps
`define SKIF_REG_RMA_ERR_INFO   12'h208  // RO  last refusal or dropped response: [3:0] code [7:4] kind [15:8] tag [31:16] src
`define SKIF_REG_RMA_ACKS       12'h20C  // RO  RMA ACK packets received, wraps
`define SKIF_REG_RMA_PUTS       12'h210  // RO  puts acknowledged (also in the RMA status words)
`define SKIF_REG_RMA_GETS       12'h214  // RO  gets returned and written
`define SKIF_REG_RMA_ATOMS      12'h218  // RO  atomics returned (old value written)
`define SKIF_REG_RMA_ERRS       12'h21C  // RO  requests of this node completed in error (error ACK or bad response)
`define SKIF_REG_RMA_STAT_LO    12'h220  // RW  RMA status words address [31:0], 8-byte aligned; 0: none written
`define SKIF_REG_RMA_STAT_HI    12'h224  // RW  RMA status words address [63:32]
`define SKIF_REG_RMA_WIN_SEL    12'h228  // RW  window the RMA_WIN_* registers show and RMA_WIN_CFG commits
`define SKIF_REG_RMA_WIN_CFG    12'h22C  // RW  write: commit {WIN_BASE, WIN_SIZE, perm [2:0]} to WIN_SEL; read: its perm
`define SKIF_REG_RMA_WIN_BASE_LO 12'h230  // RW  window base [31:0] for the next WIN_CFG write (bits [2:0] ignored)
`define SKIF_REG_RMA_WIN_BASE_HI 12'h234  // RW  window base [63:32] for the next WIN_CFG write
`define SKIF_REG_RMA_WIN_SIZE_LO 12'h238  // RW  window size [31:0] in bytes for the next WIN_CFG write (bits [2:0] ignored)
`define SKIF_REG_RMA_WIN_SIZE_HI 12'h23C  // RW  window size [63:32] for the next WIN_CFG write
`define SKIF_REG_RMA_WIN_RBASE_LO 12'h240  // RO  window WIN_SEL: base [31:0]
`define SKIF_REG_RMA_WIN_RBASE_HI 12'h244  // RO  window WIN_SEL: base [63:32]
`define SKIF_REG_RMA_WIN_RSIZE_LO 12'h248  // RO  window WIN_SEL: size [31:0]
`define SKIF_REG_RMA_WIN_RSIZE_HI 12'h24C  // RO  window WIN_SEL: size [63:32]
`define SKIF_REG_RMA_WINDOWS    12'h250  // RO  window table entries
`define SKIF_REG_RMA_SERVED     12'h254  // RO  RMA requests performed here (puts, gets, atomics), wraps
`define SKIF_REG_RMA_END        12'h258  // first offset after the RMA window
`define SKIF_RMA_STATUS_REFUSED 32'h00000001  // sticky: a request was refused here
`define SKIF_RMA_STATUS_RSP_ERR 32'h00000002  // sticky: a response for this node was dropped or an error ACK came
`define SKIF_RMA_STATUS_BUSY   32'h00000004  // the engine is handling a packet
`define SKIF_REG_CH_HEAD       12'h400  // WO  + 4c: channel c's consumer pointer (frees ring space), c < CH_NUM
`define SKIF_REG_MAP_SIZE      12'h800  // first offset outside the map

`define SKIF_CTRL_TX_EN        32'h00000001  // TX engine runs
`define SKIF_CTRL_RX_EN        32'h00000002  // RX engine accepts packets
`define SKIF_CTRL_IRQ_EN       32'h00000004  // event pulse on each status-block write

`define SKIF_STATUS_TX_BUSY    32'h00000001  // TX engine is sending
`define SKIF_STATUS_RX_BUSY    32'h00000002  // RX engine is receiving a packet
`define SKIF_STATUS_RX_STALL   32'h00000004  // a message waits for space in its channel's ring: link back-pressured
`define SKIF_STATUS_TX_ERR     32'h00000008  // sticky: bad TX descriptor, TX halted
`define SKIF_STATUS_REG_ERR    32'h00000010  // sticky: register access outside the map
`define SKIF_STATUS_DMA_ERR    32'h00000020  // sticky: DMA read returned an error
`define SKIF_STATUS_RX_ERR     32'h00000040  // sticky: malformed packet dropped
`define SKIF_STATUS_NET_DROP   32'h00000080  // sticky: router dropped a local packet (bad dst)
`define SKIF_STATUS_CH_DROP    32'h00000100  // sticky: a message for a closed channel was discarded
`define SKIF_STATUS_COLL_DROP  32'h00000200  // sticky: a collective packet failed a forwarding check
`define SKIF_STATUS_COLL_ERR   32'h00000400  // sticky: a collective operation ended in error here
`define SKIF_STATUS_PIO_BUSY   32'h00000800  // a PIO collective launch waits for the engine: writes to the COLL_PIO window wait

// COLL_TAB fields (tree table entry)
`define SKIF_CTAB_DOWN_MASK    32'h000000FF  // bit p: port p leads to a node below
`define SKIF_CTAB_UP_LO        8             // 3 bits: port towards the node above
`define SKIF_CTAB_ROOT         32'h00001000  // this node is the root
`define SKIF_CTAB_TRANSIT      32'h00002000  // this node's host is not a member
`define SKIF_CTAB_VALID        32'h00008000  // the entry is in use
`define SKIF_CTAB_CHAN_LO      16            // 8 bits: result channel
`define SKIF_CTAB_DOWN_LO      0             // 8 bits: down port set
`define SKIF_CTAB_RSVD         32'hFF004800  // must be zero

// CH_CFG fields
`define SKIF_CH_CFG_SIZE_MASK  32'h0000001F  // log2 of ring bytes (12..24) when enabling
`define SKIF_CH_CFG_EN         32'h00000100  // channel open: messages go into its ring
`define SKIF_CH_CFG_BUSY       32'h00010000  // RO: a message is being written into this channel now

// ---------------------------------------------------------------- checks
// SKIF_BAD_PARAM(fmt, value): in a generate block guarded by the illegal
// condition, stop on an illegal parameter, naming the instance. Verilator
// stops at elaboration ($error); Icarus 11 has no elaboration-time tasks, so
// it stops at time 0 ($fatal). Synthesis ignores it.
`ifdef VERILATOR
`define SKIF_BAD_PARAM(fmt, value) $error(fmt, value);
`else
`define SKIF_BAD_PARAM(fmt, value) initial $fatal(1, fmt, value);
`endif

// SkifCh end-to-end credit words (docs/skifch.md "Credits", docs/packet-
// format.md "Credit words"): the payload of 8-byte messages that the library
// sends on its own channel, CH_NUM - SKIF_CRW_CHAN_BACK; the adapter carries
// them as any message and never parses them. [7:0] kind  [15:8] the channel
// the word is about  [31:16] zero  [63:32] bytes
`define SKIF_CRW_CHAN_BACK     5      // the credit channel is CH_NUM - this (59 of 64)
`define SKIF_CRW_KIND_LO       0
`define SKIF_CRW_CHAN_LO       8
`define SKIF_CRW_BYTES_LO      32
`define SKIF_CRW_GRANT         8'd1   // receiver to sender: add bytes
`define SKIF_CRW_REQ           8'd2   // sender to receiver: asks for at least bytes
`define SKIF_CRW_REVOKE        8'd3   // receiver to sender: give back what you hold beyond bytes
`define SKIF_CRW_RETURN        8'd4   // sender to receiver: bytes given back

`endif
