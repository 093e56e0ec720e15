`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_coll: the collective engine of one node (seed 001's collective subnet):
// tree table, forwarding checks, broadcast and the reduce combiner with a
// slot per (tree, reduce id). docs/collectives.md is its contract.
//
// Handshakes:
// - links (one per router link port p; flits of the collective subnet only,
//   split from and merged into the router's links by skif_torus_node): in
//   lin_* one flit per cycle with its class (dn: away from the root), no
//   ready: the sender holds a credit per flit, given back on lin_cr_up_o /
//   lin_cr_dn_o (registered) when the flit leaves the input FIFO (CDepth
//   flits per port and class). Out lout_* from registers, one flit per cycle
//   on credits lout_cr_*; block_o[p] (combinational from registers and
//   starved_i) says the engine's flit takes link p in the next cycle, so the
//   router must not send on it this cycle; starved_i[p] (registered in the
//   router) says the router wanted link p in the previous cycle and was
//   blocked: the engine then leaves it the link for a cycle.
// - loc_*: contributions and broadcasts posted by this node's adapter
//   (header + payload, valid/ready, data held while valid && !ready).
// - res_*: results for this node's host (COLL_DOWN header + payload, with
//   the tree's result channel beside each flit), valid/ready from a FIFO.
// - tab_*: table port of the adapter's registers: tab_err_o says (combinational)
//   whether writing tab_wdata_i to tree tab_sel_i would be refused;
//   tab_we_i commits it (only when not refused); tab_rdata_o is tree
//   tab_sel_i's entry.
// - drop_o/err_o: one-cycle pulses with their detail (docs/register-map.md).
// - wake_o (combinational): low when no register of the engine changes at
//   the next clock edge: idle units, empty FIFOs and queues, no pulse or
//   credit to clear, and nothing arriving (a link flit, a credit, a local
//   flit, a table write, reset). A platform may then gate clk_i off for that
//   edge with the same results (skif_net_node's eng_clk_i, docs/rtl.md).
//
// Units: U takes one packet at a time from the up FIFOs and the local
// input (round-robin among those whose head it can take), drops it when a
// forwarding check fails, combines a contribution into its slot flit by flit
// (a contribution for a slot that already holds one from the same source
// waits: back-pressure, never loss), or streams a broadcast its host posted
// at the root to S_dn (a broadcast posted anywhere else is dropped: the
// library sends those to the root itself; forwarding them up the tree could
// deadlock trees that overlap, docs/collectives.md). A slot that has every
// expected contribution goes to a done queue. S_up sends finished slots up
// one link. S_dn sends packets down to every down link at once and to the
// host: from a down FIFO (after the check that it came from the up port), a
// broadcast posted at the root, or a finished slot at the root.
// Virtual cut-through: a packet is at most 9 flits (64 bytes of payload; a
// longer broadcast is refused at the root with an error result), and U,
// S_up and S_dn start a packet of a link input FIFO only when all of it is
// there, and send one only when every target link has engine credits for
// all of it. So no unit waits mid-packet for upstream or for a link's FIFO
// space; only the host's TX (a broadcast at the root) and the host's result
// port may make one wait, and the host always delivers: the subnet cannot
// deadlock, also with overlapping trees (docs/collectives.md). CDepth = 32
// holds two whole packets, so a link streams them back to back.
`include "skif_defs.vh"

module skif_coll #(
  parameter int NDims    = 2,   // torus dimensions, 1..4
  parameter int Trees    = 32,  // tree table entries, 2..256
  parameter int NumChans = 64,  // adapter channels (result channel check)
  parameter int CDepth   = 32,  // flits per input FIFO (per link port and class), 16..64: two whole packets
  localparam int Links   = 2 * NDims,
  localparam int TreeW   = $clog2(Trees),
  localparam int SlotW   = TreeW + 5,
  localparam int Srcs    = Links + 1
) (
  input  logic               clk_i,
  input  logic               rst_ni /*verilator public_flat_rd*/,
  input  logic [15:0]        node_id_i /*verilator public_flat_rd*/,
  // table
  input  logic               tab_we_i /*verilator public_flat_rd*/,
  input  logic [7:0]         tab_sel_i /*verilator public_flat_rd*/,
  input  logic [31:0]        tab_wdata_i /*verilator public_flat_rd*/,
  output logic               tab_err_o,
  output logic [31:0]        tab_rdata_o,
  // local input (adapter TX)
  input  logic               loc_valid_i /*verilator public_flat_rd*/,
  output logic               loc_ready_o,
  input  logic [63:0]        loc_data_i /*verilator public_flat_rd*/,
  input  logic               loc_last_i /*verilator public_flat_rd*/,
  // results (adapter RX)
  output logic               res_valid_o,
  input  logic               res_ready_i /*verilator public_flat_rd*/,
  output logic [63:0]        res_data_o,
  output logic               res_last_o,
  output logic [7:0]         res_chan_o,
  // links in
  input  logic [Links-1:0]    lin_valid_i /*verilator public_flat_rd*/,
  input  logic [Links*64-1:0] lin_data_i /*verilator public_flat_rd*/,
  input  logic [Links-1:0]    lin_last_i /*verilator public_flat_rd*/,
  input  logic [Links-1:0]    lin_dn_i /*verilator public_flat_rd*/,
  output logic [Links-1:0]    lin_cr_up_o,
  output logic [Links-1:0]    lin_cr_dn_o,
  // links out
  output logic [Links-1:0]    lout_valid_o,
  output logic [Links*64-1:0] lout_data_o,
  output logic [Links-1:0]    lout_last_o,
  output logic [Links-1:0]    lout_dn_o,
  input  logic [Links-1:0]    lout_cr_up_i /*verilator public_flat_rd*/,
  input  logic [Links-1:0]    lout_cr_dn_i /*verilator public_flat_rd*/,
  // the values the six link registers (lout_*, lin_cr_*) take at the next
  // clock edge (as skif_torus_router's nx_*)
  output logic [Links-1:0]    nx_lout_valid_o,
  output logic [Links*64-1:0] nx_lout_data_o,
  output logic [Links-1:0]    nx_lout_last_o,
  output logic [Links-1:0]    nx_lout_dn_o,
  output logic [Links-1:0]    nx_lin_cr_up_o,
  output logic [Links-1:0]    nx_lin_cr_dn_o,
  output logic [Links-1:0]    block_o,
  input  logic [Links-1:0]    starved_i /*verilator public_flat_rd*/,
  // events
  output logic [1:0]         drop_o,       // drops this cycle (0..2)
  output logic [31:0]        drop_info_o,
  output logic               err_o,
  output logic [31:0]        err_info_o,
  // debug: slot dbg_sel_i's contributions so far and those it waits for
  input  logic [SlotW-1:0]   dbg_sel_i /*verilator public_flat_rd*/,
  output logic [Srcs-1:0]    dbg_got_o,
  output logic [Srcs-1:0]    dbg_exp_o,
  output logic [7:0]         dbg_state_o, // {S_dn state, S_up state, U state}
  // the next clock edge may change a register (low: none changes, so the
  // engine's clock may be gated off for that edge)
  output logic               wake_o
);
  // Every input but the clock carries "public_flat_rd" for Verilator only,
  // as in skif_torus_router: the engine's code stays the same for every
  // instance (no constant node id or tied-off input folded into it).
  localparam int NSlots = Trees * `SKIF_COLL_RIDS;
  localparam int AW     = $clog2(CDepth);
  localparam int CW     = $clog2(CDepth + 1);
  localparam int DW     = $clog2(NSlots + 1);
  localparam int SrcW   = $clog2(Srcs + 1);
  localparam int LocS   = Links;
  localparam logic [CW-1:0] CDepthC = CW'(CDepth);
  localparam logic [SrcW-1:0] LocSC = SrcW'(Links);
  // the largest payload of a collective packet on a link: a reduce or a
  // broadcast (longer broadcasts are refused at the root), so a packet is
  // at most 9 flits and fits an input FIFO whole (virtual cut-through)
  localparam int MaxPay  = `SKIF_COLL_MAX_RED;

`ifndef SYNTHESIS
  if (NDims < 1 || NDims > 4) begin : g_bad_ndims
    `SKIF_BAD_PARAM("skif_coll NDims=%0d out of range 1..4", NDims)
  end
  if (Trees < 2 || Trees > 256 || (Trees & (Trees - 1)) != 0) begin : g_bad_trees
    `SKIF_BAD_PARAM("skif_coll Trees=%0d must be a power of two 2..256", Trees)
  end
  if (CDepth < 16 || CDepth > 64 || (CDepth & (CDepth - 1)) != 0) begin : g_bad_depth
    `SKIF_BAD_PARAM("skif_coll CDepth=%0d must be a power of two 16..64 (a whole 9-flit packet)", CDepth)
  end
`endif

  // ---------------------------------------------------------------- table
  // entry: [7:0] down, [10:8] up, [12] root, [13] transit, [15] valid, [23:16] chan
  logic [23:0] tab_q [Trees];

  function automatic logic tab_bad(input logic [31:0] w, input logic [7:0] sel);
    logic [7:0] down;
    logic [2:0] up;
    logic       root, transit, valid, bad;
    down    = w[7:0];
    up      = w[`SKIF_CTAB_UP_LO +: 3];
    root    = w[12];
    transit = w[13];
    valid   = w[15];
    bad     = ({24'h0, sel} >= Trees) || w[11] || w[14] || (w[31:24] != 8'h0);
    if (!valid) begin
      bad = bad || (w != 32'h0);
    end else begin
      bad = bad || ((down >> Links) != 8'h0);
      if (root) begin
        bad = bad || (up != 3'd0);
      end else begin
        bad = bad || ({29'h0, up} >= Links) || down[up];
        for (int p = 0; p < 8; p++) begin
          // the paper's local rule: down only in later dimensions, or opposite(up)
          if (down[p] && !((p >> 1) > (int'(up) >> 1) || p == (int'(up) ^ 1))) bad = 1'b1;
        end
      end
      if (transit) bad = bad || (down == 8'h0);
      else         bad = bad || ({24'h0, w[23:16]} >= NumChans);
    end
    return bad;
  endfunction

  assign tab_err_o   = tab_bad(tab_wdata_i, tab_sel_i);
  assign tab_rdata_o = ({24'h0, tab_sel_i} < Trees) ? {8'h0, tab_q[tab_sel_i[TreeW-1:0]]} : 32'h0;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int t = 0; t < Trees; t++) tab_q[t] <= '0;
    end else if (tab_we_i && !tab_err_o) begin
      tab_q[tab_sel_i[TreeW-1:0]] <= tab_wdata_i[23:0];
    end
  end

  // ---------------------------------------------------------------- input FIFOs
  // per link port p and class c (0 up, 1 down): index c*Links + p, so that
  // the pushes, pops and credits of a class are one vector each. Data and
  // last flags are apart (a 64-bit word each, not a 65-bit one); fne_q is
  // "count != 0" kept beside the count. When no FIFO holds a flit, the
  // logic of their heads is passed over (it cost an idle engine most of its
  // evaluation); a head then reads as zero.
  logic [63:0]           fdat_q [Links*2][CDepth];
  logic [CDepth-1:0]     flast_q [Links*2];
  logic [Links*2*AW-1:0] fwr_q, frd_q;
  logic [Links*2*CW-1:0] fcnt_q;
  logic [Links*2-1:0]    fne_q;
  logic [Links*2-1:0]    fpush, fpop;
  logic [63:0]           fhead [Links*2];
  logic [Links*2-1:0]    fhead_last;
  logic [Links*2-1:0]    fne;

  assign fpush = {lin_valid_i & lin_dn_i, lin_valid_i & ~lin_dn_i};
  assign fne   = fne_q;
  always @(*) begin
    for (int f = 0; f < Links * 2; f++) begin
      fhead[f] = '0;
    end
    fhead_last = '0;
    if (fne != '0) begin
      for (int f = 0; f < Links * 2; f++) begin
        if (fne[f]) begin
          fhead[f]      = fdat_q[f][frd_q[f*AW +: AW]];
          fhead_last[f] = flast_q[f][frd_q[f*AW +: AW]];
        end
      end
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      fwr_q  <= '0;
      frd_q  <= '0;
      fcnt_q <= '0;
      fne_q  <= '0;
    end else if ((fpush | fpop) != '0) begin
      for (int f = 0; f < Links * 2; f++) begin
        if (fpush[f]) fwr_q[f*AW +: AW] <= fwr_q[f*AW +: AW] + 1'b1;
        if (fpop[f])  frd_q[f*AW +: AW] <= frd_q[f*AW +: AW] + 1'b1;
        if (fpush[f] && !fpop[f]) begin
          fcnt_q[f*CW +: CW] <= fcnt_q[f*CW +: CW] + 1'b1;
          fne_q[f]           <= 1'b1;
        end else if (fpop[f] && !fpush[f]) begin
          fcnt_q[f*CW +: CW] <= fcnt_q[f*CW +: CW] - 1'b1;
          fne_q[f]           <= fcnt_q[f*CW +: CW] != CW'(1);
        end
      end
    end
  end
  always @(posedge clk_i) begin
    if (lin_valid_i != '0) begin
      for (int p = 0; p < Links; p++) begin
        if (lin_valid_i[p]) begin
          fdat_q[int'(lin_dn_i[p])*Links + p][fwr_q[(int'(lin_dn_i[p])*Links + p)*AW +: AW]] <=
              lin_data_i[p*64 +: 64];
          flast_q[int'(lin_dn_i[p])*Links + p][fwr_q[(int'(lin_dn_i[p])*Links + p)*AW +: AW]] <=
              lin_last_i[p];
        end
      end
    end
  end

  // Virtual cut-through: a unit starts a packet of a link input FIFO only
  // when all of it is there (the flit that arrives this cycle counts: it is
  // readable next cycle, when the unit takes the packet's second flit), so
  // it never waits mid-packet for upstream. A packet's flits come from its
  // header's length: 1 + ceil(len/8). A longer one than the subnet carries
  // (malformed: no engine sends it) counts as its header alone; it is
  // dropped or skipped as it comes.
  function automatic logic [6:0] pk_flits(input logic [63:0] h);
    logic [11:0] len;
    len = h[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO];
    return (len > 12'(MaxPay)) ? 7'd1 : 7'(7'd1 + 7'((len + 12'd7) >> 3));
  endfunction
  logic [Links*2-1:0] fwhole;
  always @(*) begin
    fwhole = '0;
    if (fne != '0) begin
      for (int f = 0; f < Links * 2; f++) begin
        if (fne[f])
          fwhole[f] = {1'b0, 7'(fcnt_q[f*CW +: CW])} + {7'h0, fpush[f]} >= {1'b0, pk_flits(fhead[f])};
      end
    end
  end

  // credits back to the senders: one per flit that leaves an input FIFO
  logic [Links-1:0] cr_up_q, cr_dn_q, cr_up_d, cr_dn_d;
  assign cr_up_d = rst_ni ? fpop[Links-1:0] : '0;
  assign cr_dn_d = rst_ni ? fpop[Links*2-1:Links] : '0;
  always @(posedge clk_i) begin
    cr_up_q <= cr_up_d;
    cr_dn_q <= cr_dn_d;
  end
  assign lin_cr_up_o    = cr_up_q;
  assign lin_cr_dn_o    = cr_dn_q;
  assign nx_lin_cr_up_o = cr_up_d;
  assign nx_lin_cr_dn_o = cr_dn_d;

  // ---------------------------------------------------------------- slots
  // meta: [35] err, [34:31] cmd, [30:27] type, [26:24] op, [23:16] len, [15:0] arg
  logic [Srcs-1:0] got_q  [NSlots];
  logic [35:0]     meta_q [NSlots];
  logic [63:0]     acc_q  [NSlots * 8];

  assign dbg_got_o = got_q[dbg_sel_i];
  assign dbg_exp_o = {!tab_q[dbg_sel_i[SlotW-1:5]][13], tab_q[dbg_sel_i[SlotW-1:5]][Links-1:0]};

  // done queues: finished slots for S_up (non-root) and S_dn (root); each
  // slot is in at most one of them once, so NSlots entries never overflow
  logic [SlotW-1:0] upq_mem [NSlots];
  logic [SlotW-1:0] dnq_mem [NSlots];
  logic [DW-1:0]    upq_wr_q, upq_rd_q, dnq_wr_q, dnq_rd_q;
  logic             upq_push, upq_pop, dnq_push, dnq_pop;
  logic [SlotW-1:0] done_slot;
  logic             upq_ne, dnq_ne;
  logic [SlotW-1:0] upq_head, dnq_head;
  assign upq_ne   = upq_wr_q != upq_rd_q;
  assign dnq_ne   = dnq_wr_q != dnq_rd_q;
  assign upq_head = upq_mem[upq_rd_q[DW-2:0]];
  assign dnq_head = dnq_mem[dnq_rd_q[DW-2:0]];

  // ---------------------------------------------------------------- source heads for U
  // source s < Links: up FIFO of port s; s == LocS: the local input
  logic [Srcs-1:0] s_valid;
  logic [63:0]     s_data [Srcs];
  logic [Srcs-1:0] s_last;
  logic [Srcs-1:0] s_whole;   // the head packet is all there (the host's streams)
  for (genvar s = 0; s < Srcs; s++) begin : g_src
    if (s == LocS) begin : g_loc
      assign s_whole[s] = 1'b1;
      assign s_valid[s] = loc_valid_i;
      assign s_data[s]  = loc_data_i;
      assign s_last[s]  = loc_last_i;
    end else begin : g_link
      assign s_whole[s] = fwhole[s];
      assign s_valid[s] = fne[s];
      assign s_data[s]  = fhead[s];
      assign s_last[s]  = fhead_last[s];
    end
  end

  // ---------------------------------------------------------------- combine
  function automatic logic [63:0] comb(input logic [63:0] a, input logic [63:0] b,
                                       input logic [3:0] typ, input logic [2:0] op);
    logic [63:0] r;
    logic        lt;
    r = a;
    if (typ == `SKIF_COLL_TYPE_U64 || typ == `SKIF_COLL_TYPE_S64) begin
      lt = (typ == `SKIF_COLL_TYPE_S64) ? ($signed(b) < $signed(a)) : (b < a);
      case (op)
        `SKIF_COLL_OP_SUM: r = a + b;
        `SKIF_COLL_OP_MIN: r = lt ? b : a;
        default:           r = lt ? a : b;
      endcase
    end else begin
      for (int l = 0; l < 2; l++) begin
        lt = (typ == `SKIF_COLL_TYPE_S32) ? ($signed(b[l*32 +: 32]) < $signed(a[l*32 +: 32]))
                                          : (b[l*32 +: 32] < a[l*32 +: 32]);
        case (op)
          `SKIF_COLL_OP_SUM: r[l*32 +: 32] = a[l*32 +: 32] + b[l*32 +: 32];
          `SKIF_COLL_OP_MIN: r[l*32 +: 32] = lt ? b[l*32 +: 32] : a[l*32 +: 32];
          default:           r[l*32 +: 32] = lt ? a[l*32 +: 32] : b[l*32 +: 32];
        endcase
      end
    end
    return r;
  endfunction

  // a contribution's own error: unknown cmd/type/op, bad length, err flag
  function automatic logic contrib_bad(input logic [63:0] h);
    logic [3:0]  cmd, typ;
    logic [11:0] len;
    cmd = h[`SKIF_CHDR_CMD_LO +: 4];
    typ = h[`SKIF_CHDR_TYPE_LO +: 4];
    len = h[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO];
    return (cmd != `SKIF_COLL_CMD_ALLREDUCE && cmd != `SKIF_COLL_CMD_REDUCE) ||
           (typ > `SKIF_COLL_TYPE_S64) || (h[`SKIF_CHDR_OP_LO +: 3] > `SKIF_COLL_OP_MAX) ||
           (len > 12'(`SKIF_COLL_MAX_RED)) ||
           ((typ >= `SKIF_COLL_TYPE_U64) ? (len[2:0] != 3'd0) : (len[1:0] != 2'd0)) ||
           h[`SKIF_CHDR_ERR];
  endfunction

  // ---------------------------------------------------------------- U: up packets
  typedef enum logic [2:0] {
    UIdle = 3'd0,  // choosing the next packet
    UComb = 3'd1,  // combining payload flits into slot u_slot_q
    UDrop = 3'd2,  // discarding a packet up to its last flit
    UBcDn = 3'd3   // streaming a broadcast posted here, at the root, to S_dn
  } ustate_e;

  ustate_e          u_q;
  logic [SrcW-1:0]  u_src_q;
  logic [SlotW-1:0] u_slot_q;
  logic [2:0]       u_k_q;
  logic             u_first_q, u_skip_q;
  logic             u_bcerr_q;  // UBcDn: the broadcast is too long: an error result, its payload dropped
  logic [Srcs-1:0]  u_rr_q;     // round-robin mask: 1 = at or after the pointer

  // per source: what U would do with its head packet
  logic [Srcs-1:0]  s_elig, s_drop;
  logic [7:0]       s_tree [Srcs];
  logic [SlotW-1:0] s_slot [Srcs];
  logic [7:0]       s_reason [Srcs];

  always @(*) begin : p_src
    logic [23:0] ent;
    logic [3:0]  kind;
    logic        tv;
    ent  = '0;
    kind = '0;
    tv   = 1'b0;
    s_drop = '0;
    s_elig = '0;
    for (int s = 0; s < Srcs; s++) begin
      s_tree[s]   = '0;
      s_slot[s]   = '0;
      s_reason[s] = '0;
    end
    // (only the sources with a flit: an idle engine passes over it all)
    if (s_valid != '0) for (int s = 0; s < Srcs; s++) if (s_valid[s]) begin
      s_tree[s]   = s_data[s][`SKIF_CHDR_TREE_LO +: 8];
      s_slot[s]   = {s_data[s][`SKIF_CHDR_TREE_LO +: TreeW], s_data[s][`SKIF_CHDR_RID_LO +: 5]};
      tv          = ({24'h0, s_tree[s]} < Trees);
      ent         = tab_q[s_tree[s][TreeW-1:0]];
      kind        = s_data[s][`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO];
      s_reason[s] = 8'd0;
      if (kind != `SKIF_KIND_COLL_UP) s_reason[s] = 8'd4;
      else if (!tv || !ent[15])       s_reason[s] = 8'd1;
      else if (s_data[s][`SKIF_CHDR_CMD_LO +: 4] == `SKIF_COLL_CMD_BCAST)
        s_reason[s] = (s == LocS && ent[12]) ? 8'd0 : 8'd5;  // posted at the root only
      else if (s == LocS ? ent[13] : !ent[s]) s_reason[s] = 8'd2;
      s_drop[s] = (s_reason[s] != 8'd0);
      s_elig[s] = s_valid[s] && s_whole[s] && (s_drop[s] ||
                  (s_data[s][`SKIF_CHDR_CMD_LO +: 4] == `SKIF_COLL_CMD_BCAST) ||
                  !got_q[s_slot[s]][s]);
    end
  end

  // round-robin choice among eligible sources
  logic [Srcs-1:0] u_m, u_g;
  logic [SrcW-1:0] u_pick;
  always @(*) begin
    u_m    = s_elig & u_rr_q;
    u_g    = (u_m != '0) ? (u_m & (~u_m + 1'b1)) : (s_elig & (~s_elig + 1'b1));
    u_pick = '0;
    for (int s = 0; s < Srcs; s++) begin
      if (u_g[s]) u_pick = SrcW'(s);
    end
  end

  // the current source's head (U holds a source from header to last flit)
  logic        c_valid, c_last;
  logic [63:0] c_data;
  assign c_valid = s_valid[u_src_q];
  assign c_data  = s_data[u_src_q];
  assign c_last  = s_last[u_src_q];

  // S_dn takes flits of a broadcast U streams through this
  logic        sd_bc_take;
  // U's decisions this cycle
  logic        u_pop, u_hdr_take, u_fin;
  logic [63:0] p_hdr;
  logic [35:0] p_meta;
  logic        p_first, p_bad, p_mis;
  logic [SlotW-1:0] p_slot;

  // a broadcast longer than a packet carries: refused at the root (an error
  // result to every member, counted here), like a reduce of a bad length
  logic p_bclong;
  // (all zero while no source is eligible: read only when U takes a header)
  always @(*) begin
    p_hdr    = '0;
    p_slot   = '0;
    p_first  = 1'b0;
    p_bad    = 1'b0;
    p_meta   = '0;
    p_mis    = 1'b0;
    p_bclong = 1'b0;
    if (s_elig != '0) begin
      p_hdr   = s_data[u_pick];
      p_slot  = s_slot[u_pick];
      p_first = (got_q[p_slot] == '0);
      p_bad   = contrib_bad(p_hdr);
      p_meta  = meta_q[p_slot];
      // A mismatch is counted once, where it is first seen: not against a slot
      // already in error, and not for a child's error result (its engine
      // counted it).
      p_mis   = !p_first && !p_meta[35] && !p_hdr[`SKIF_CHDR_ERR] &&
                (p_meta[34:16] != {p_hdr[`SKIF_CHDR_CMD_LO +: 4], p_hdr[`SKIF_CHDR_TYPE_LO +: 4],
                                   p_hdr[`SKIF_CHDR_OP_LO +: 3], p_hdr[`SKIF_HDR_LEN_LO +: 8]} ||
                 p_meta[15:0] != p_hdr[`SKIF_CHDR_ARG_LO +: 16] ||
                 p_hdr[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO + 8] != 4'h0);
      p_bclong = p_hdr[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO] > 12'(MaxPay);
    end
  end

  assign u_hdr_take = (u_q == UIdle) && (s_elig != '0) && !initing;

  // U finishes a contribution: at its header (no payload) or its last flit
  logic [SlotW-1:0] fin_slot;
  logic [SrcW-1:0]  fin_src;
  always @(*) begin
    u_pop    = 1'b0;
    u_fin    = 1'b0;
    fin_slot = u_slot_q;
    fin_src  = u_src_q;
    case (u_q)
      UIdle: begin
        if (u_hdr_take) begin
          u_pop = 1'b1;
          if (!s_drop[u_pick] && p_hdr[`SKIF_CHDR_CMD_LO +: 4] != `SKIF_COLL_CMD_BCAST) begin
            // a contribution: no payload to take (len 0, or an error) finishes now
            if (s_last[u_pick]) begin
              u_fin    = 1'b1;
              fin_slot = p_slot;
              fin_src  = u_pick;
            end
          end
          // a broadcast's header stays until S_up/S_dn takes it
          if (!s_drop[u_pick] && p_hdr[`SKIF_CHDR_CMD_LO +: 4] == `SKIF_COLL_CMD_BCAST) u_pop = 1'b0;
        end
      end
      UComb: begin
        if (c_valid) begin
          u_pop = 1'b1;
          if (c_last) u_fin = 1'b1;
        end
      end
      UDrop:   u_pop = c_valid;
      default: u_pop = sd_bc_take;  // UBcDn
    endcase
  end

  // pops of U's source
  logic [SrcW-1:0] u_cur;
  assign u_cur       = (u_q == UIdle) ? u_pick : u_src_q;
  assign loc_ready_o = u_pop && (u_cur == LocSC);

  // expected contributions of a slot's tree
  logic [Srcs-1:0] fin_exp, fin_got;
  logic [23:0]     fin_ent;
  assign fin_ent = tab_q[fin_slot[SlotW-1:5]];
  always @(*) begin
    fin_exp             = '0;
    fin_exp[Links-1:0]  = fin_ent[Links-1:0];
    fin_exp[LocS]       = !fin_ent[13];
    fin_got             = got_q[fin_slot] | (Srcs'(1) << fin_src);
  end
  assign done_slot = fin_slot;
  assign upq_push  = u_fin && (fin_got == fin_exp) && !fin_ent[12];
  assign dnq_push  = u_fin && (fin_got == fin_exp) && fin_ent[12];

  logic        drop_q, err_q;
  logic [31:0] drop_info_q, err_info_q;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      u_q       <= UIdle;
      u_src_q   <= '0;
      u_slot_q  <= '0;
      u_k_q     <= '0;
      u_first_q <= 1'b0;
      u_skip_q  <= 1'b0;
      u_bcerr_q <= 1'b0;
      u_rr_q    <= '1;
      drop_q    <= 1'b0;
      err_q     <= 1'b0;
      drop_info_q <= '0;
      err_info_q  <= '0;
    end else begin
      drop_q <= 1'b0;
      err_q  <= 1'b0;
      case (u_q)
        UIdle: begin
          if (u_hdr_take) begin
            u_src_q  <= u_pick;
            u_slot_q <= p_slot;
            u_k_q    <= '0;
            u_first_q <= p_first;
            u_skip_q <= p_bad || p_mis;
            u_rr_q   <= ~((Srcs'(1) << u_pick) - 1'b1) << 1;
            if (s_drop[u_pick]) begin
              drop_q      <= 1'b1;
              drop_info_q <= {s_tree[u_pick], 4'h0, 4'(u_pick), 8'h0, s_reason[u_pick]};
              if (!s_last[u_pick]) u_q <= UDrop;
            end else if (p_hdr[`SKIF_CHDR_CMD_LO +: 4] == `SKIF_COLL_CMD_BCAST) begin
              u_q       <= UBcDn;  // at the root (checked above)
              u_bcerr_q <= p_bclong;
              if (p_bclong) begin
                err_q      <= 1'b1;
                err_info_q <= {s_tree[u_pick], 3'h0, p_hdr[`SKIF_CHDR_RID_LO +: 5], 4'h0, 4'(u_pick), 8'h0};
              end
            end else begin
              if ((p_bad && !p_hdr[`SKIF_CHDR_ERR]) || p_mis) begin
                err_q      <= 1'b1;
                err_info_q <= {s_tree[u_pick], 3'h0, p_hdr[`SKIF_CHDR_RID_LO +: 5], 4'h0, 4'(u_pick),
                               7'h0, p_mis};
              end
              if (!s_last[u_pick]) u_q <= UComb;
            end
          end
        end
        UComb: if (c_valid) begin
          u_k_q <= u_k_q + 1'b1;
          if (c_last) u_q <= UIdle;
        end
        UDrop: if (c_valid && c_last) u_q <= UIdle;
        default: if (sd_bc_take) begin
          // an error result is the header alone: the payload is dropped
          if (c_last)         u_q <= UIdle;
          else if (u_bcerr_q) u_q <= UDrop;
        end
      endcase
    end
  end

  // slot updates by U: meta at the header, accumulator per payload flit,
  // the contribution bit at the finish; S_up/S_dn clear a slot once sent
  logic             su_free, sd_free;
  logic [SlotW-1:0] su_free_slot, sd_free_slot;
  // After reset the slots are cleared one per cycle (NSlots cycles, as a
  // RAM would be); U takes nothing until then.
  logic [SlotW:0] init_q;
  logic           initing;
  assign initing = !init_q[SlotW];
  always @(posedge clk_i) begin
    if (!rst_ni)      init_q <= '0;
    else if (initing) init_q <= init_q + 1'b1;
  end
  always @(posedge clk_i) begin
    if (initing) begin
      got_q[init_q[SlotW-1:0]] <= '0;
    end else begin
      if (u_fin) got_q[fin_slot] <= fin_got;
      if (su_free) got_q[su_free_slot] <= '0;
      if (sd_free) got_q[sd_free_slot] <= '0;
    end
  end
  always @(posedge clk_i) begin
    if (u_hdr_take && !s_drop[u_pick] && p_hdr[`SKIF_CHDR_CMD_LO +: 4] != `SKIF_COLL_CMD_BCAST) begin
      if (p_first)
        meta_q[p_slot] <= {p_bad, p_hdr[`SKIF_CHDR_CMD_LO +: 4], p_hdr[`SKIF_CHDR_TYPE_LO +: 4],
                           p_hdr[`SKIF_CHDR_OP_LO +: 3], p_hdr[`SKIF_HDR_LEN_LO +: 8],
                           p_hdr[`SKIF_CHDR_ARG_LO +: 16]};
      else if (p_bad || p_mis)
        meta_q[p_slot][35] <= 1'b1;
    end
  end
  always @(posedge clk_i) begin
    if (u_q == UComb && c_valid && !u_skip_q) begin
      acc_q[{u_slot_q, u_k_q}] <= u_first_q ? c_data
          : comb(acc_q[{u_slot_q, u_k_q}], c_data, meta_q[u_slot_q][30:27], meta_q[u_slot_q][26:24]);
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      upq_wr_q <= '0;
      upq_rd_q <= '0;
      dnq_wr_q <= '0;
      dnq_rd_q <= '0;
    end else begin
      if (upq_push) upq_wr_q <= (upq_wr_q == DW'(NSlots * 2 - 1)) ? '0 : upq_wr_q + 1'b1;
      if (upq_pop)  upq_rd_q <= (upq_rd_q == DW'(NSlots * 2 - 1)) ? '0 : upq_rd_q + 1'b1;
      if (dnq_push) dnq_wr_q <= (dnq_wr_q == DW'(NSlots * 2 - 1)) ? '0 : dnq_wr_q + 1'b1;
      if (dnq_pop)  dnq_rd_q <= (dnq_rd_q == DW'(NSlots * 2 - 1)) ? '0 : dnq_rd_q + 1'b1;
    end
  end
  always @(posedge clk_i) begin
    if (upq_push) upq_mem[upq_wr_q[DW-2:0]] <= done_slot;
    if (dnq_push) dnq_mem[dnq_wr_q[DW-2:0]] <= done_slot;
  end

  // a slot's result packet: header flit and payload flit k
  function automatic logic [63:0] slot_hdr(input logic [35:0] m, input logic [SlotW-1:0] sl,
                                           input logic [3:0] kind);
    logic [11:0] len;
    len = m[35] ? 12'h0 : {4'h0, m[23:16]};
    return {kind, m[15:0], m[34:31], m[30:27], m[35], 7'h0, 8'(sl[SlotW-1:5]), len, sl[4:0],
            m[26:24]};
  endfunction

  // ---------------------------------------------------------------- S_up
  typedef enum logic [1:0] {
    SuIdle = 2'd0,
    SuSlot = 2'd1   // sending slot su_slot_q: header, then its payload
  } sustate_e;

  sustate_e         su_q;
  logic [SlotW-1:0] su_slot_q;
  logic [2:0]       su_port_q;
  logic [3:0]       su_k_q;     // 0: header, k: payload flit k-1
  logic [3:0]       su_n_q;     // payload flits
  logic             su_req, su_last;
  logic [63:0]      su_data;
  logic             su_go;
  logic [35:0]      su_meta;
  logic [6:0]       su_room;   // engine credits of the up link (one coming back this cycle counts)
  assign su_meta = meta_q[su_slot_q];

  // engine credits per link and class (counted in the links-out section)
  logic [Links*CW-1:0] ec_up_q, ec_dn_q;
  logic [7:0]          cr_up8;
  assign cr_up8  = 8'(lout_cr_up_i);
  assign su_room = 7'(ec_up_q[int'(su_port_q)*CW +: CW]) + {6'h0, cr_up8[su_port_q]};
  // the header goes only when the up link has credits for the whole packet
  assign su_req  = (su_q == SuSlot) && (su_k_q != 4'd0 || su_room >= 7'(su_n_q) + 7'd1);
  always @(*) begin
    su_data = '0;  // (read only while sending)
    if (su_q == SuSlot)
      su_data = (su_k_q == 4'd0) ? slot_hdr(su_meta, su_slot_q, `SKIF_KIND_COLL_UP)
                                 : acc_q[{su_slot_q, 3'(su_k_q - 4'd1)}];
  end
  assign su_last = (su_k_q == su_n_q);
  assign upq_pop      = (su_q == SuIdle) && upq_ne;
  assign su_free      = (su_q == SuSlot) && su_go && su_last;
  assign su_free_slot = su_slot_q;

  always @(posedge clk_i) begin : p_su
    logic [35:0] m;
    if (!rst_ni) begin
      su_q      <= SuIdle;
      su_slot_q <= '0;
      su_port_q <= '0;
      su_k_q    <= '0;
      su_n_q    <= '0;
    end else begin
      case (su_q)
        SuIdle: begin
          if (upq_pop) begin
            m         = meta_q[upq_head];
            su_q      <= SuSlot;
            su_slot_q <= upq_head;
            su_port_q <= tab_q[upq_head[SlotW-1:5]][`SKIF_CTAB_UP_LO +: 3];
            su_k_q    <= '0;
            su_n_q    <= m[35] ? 4'd0 : 4'((m[23:16] + 8'd7) >> 3);
          end
        end
        default: if (su_go) begin
          su_k_q <= su_k_q + 1'b1;
          if (su_last) su_q <= SuIdle;
        end
      endcase
    end
  end

  // ---------------------------------------------------------------- S_dn
  typedef enum logic [2:0] {
    SdIdle = 3'd0,
    SdFifo = 3'd1,  // forwarding a packet from the down FIFO of port sd_src_q
    SdBc   = 3'd2,  // sending the broadcast U turns around at the root
    SdSlot = 3'd3,  // sending slot sd_slot_q (root)
    SdDrop = 3'd4   // discarding a packet of the down FIFO of port sd_src_q
  } sdstate_e;

  sdstate_e         sd_q;
  logic [2:0]       sd_src_q;
  logic [SlotW-1:0] sd_slot_q;
  logic [7:0]       sd_mask_q;   // down ports of the packet's tree
  logic             sd_mem_q;    // this node's host receives (member)
  logic             sd_hdr_q;    // the next flit is the header
  logic             sd_locpay_q; // the payload goes to the host too
  logic [7:0]       sd_chan_q;
  logic [3:0]       sd_k_q, sd_n_q;
  logic [Links+1:0] sd_rr_q;     // round-robin over: down FIFOs, U's broadcast, done queue
  logic             sd_req, sd_last, sd_loc, sd_go;
  logic [63:0]      sd_data, sd_loc_data;
  logic             sd_loc_last;
  logic [35:0]      sd_meta;
  assign sd_meta = meta_q[sd_slot_q];

  // candidates: a packet S_dn can send whole without waiting for
  // upstream or for a down link's FIFO space (virtual cut-through): a down
  // FIFO's head packet all there (one that is dropped needs nothing more),
  // the broadcast U holds, a finished slot; each only when every down link
  // of its tree has engine credits for the whole packet (a credit coming
  // back this cycle counts). The host's TX may still make a broadcast wait
  // mid-packet, and the host's result FIFO any packet: the host always
  // delivers. S_dn starts one in SdIdle, or in the cycle it sends the last
  // flit of the one before (back to back; not from that packet's own
  // source, whose head is still that flit, and with the credits that flit
  // takes).
  logic [Links+1:0] sd_cand, sd_cm, sd_cg;
  logic [SrcW:0]    sd_pick;
  logic [6:0]       ecd [Links];   // down credits, with the one coming back this cycle
  logic [7:0]       fh_reason [Links];
  logic [23:0]      fh_ent [Links];
  logic [6:0]       fh_need [Links];
  logic [7:0]       bc_mask, sl_mask;
  logic [6:0]       bc_need, sl_need;
  logic [35:0]      sl_meta;
  // the head packet of each down FIFO (zero for an empty one)
  always @(*) begin : p_fh
    logic [63:0] h;
    logic [7:0]  tr;
    h  = '0;
    tr = '0;
    for (int p = 0; p < Links; p++) begin
      fh_ent[p]    = '0;
      fh_need[p]   = '0;
      fh_reason[p] = '0;
    end
    if (fne[Links*2-1:Links] != '0) begin
      for (int p = 0; p < Links; p++) begin
        if (fne[Links + p]) begin
          h            = fhead[Links + p];
          tr           = h[`SKIF_CHDR_TREE_LO +: 8];
          fh_ent[p]    = tab_q[tr[TreeW-1:0]];
          fh_need[p]   = pk_flits(h);
          // drop reasons: 4 not a down packet, 1 invalid tree, 3 not from the
          // tree's up port (or at the root), 6 longer than a packet carries
          fh_reason[p] = (h[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO] != `SKIF_KIND_COLL_DOWN) ? 8'd4
                       : (({24'h0, tr} >= Trees) || !fh_ent[p][15]) ? 8'd1
                       : (fh_ent[p][12] || fh_ent[p][`SKIF_CTAB_UP_LO +: 3] != 3'(p)) ? 8'd3
                       : (h[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO] > 12'(MaxPay)) ? 8'd6 : 8'd0;
        end
      end
    end
  end
  // the broadcast posted here: the one U holds, or the one U takes this
  // cycle (its header stays at the local input until S_dn sends it)
  logic        bc_now;
  logic [63:0] bc_hdr;
  assign bc_now  = u_hdr_take && u_pick == LocSC && !s_drop[LocS] &&
                   p_hdr[`SKIF_CHDR_CMD_LO +: 4] == `SKIF_COLL_CMD_BCAST;
  assign bc_hdr  = (u_q == UBcDn) ? c_data : p_hdr;
  assign bc_mask = tab_q[bc_hdr[`SKIF_CHDR_TREE_LO +: TreeW]][7:0];
  assign bc_need = ((u_q == UBcDn) ? u_bcerr_q : p_bclong) ? 7'd1 : pk_flits(bc_hdr);
  assign sl_meta = meta_q[dnq_head];
  assign sl_mask = tab_q[dnq_head[SlotW-1:5]][7:0];
  assign sl_need = sl_meta[35] ? 7'd1 : 7'd1 + 7'((sl_meta[23:16] + 8'd7) >> 3);
  always @(*) begin
    logic room;
    room    = 1'b1;
    sd_cand = '0;
    for (int q = 0; q < Links; q++) ecd[q] = '0;
    if (fwhole[Links*2-1:Links] != '0 || u_q == UBcDn || bc_now || dnq_ne) begin
      for (int q = 0; q < Links; q++)
        ecd[q] = 7'(ec_dn_q[q*CW +: CW]) + {6'h0, lout_cr_dn_i[q]} - {6'h0, sd_go && sd_mask_q[q]};
    end
    // (each check only where its candidate is there: the loops over the
    // links cost an idle engine more than all else)
    if (fwhole[Links*2-1:Links] != '0) begin
      for (int p = 0; p < Links; p++) begin
        room = 1'b1;
        if (fwhole[Links + p] && fh_reason[p] == 8'd0) begin
          for (int q = 0; q < Links; q++) if (fh_ent[p][q] && ecd[q] < fh_need[p]) room = 1'b0;
        end
        sd_cand[p] = fwhole[Links + p] && (fh_reason[p] != 8'd0 || room) &&
                     !(sd_q != SdIdle && sd_src_q == 3'(p));
      end
    end
    if ((u_q == UBcDn && sd_q != SdBc) || bc_now) begin
      room = 1'b1;
      for (int q = 0; q < Links; q++) if (bc_mask[q] && ecd[q] < bc_need) room = 1'b0;
      sd_cand[Links] = room;
    end
    if (dnq_ne) begin
      room = 1'b1;
      for (int q = 0; q < Links; q++) if (sl_mask[q] && ecd[q] < sl_need) room = 1'b0;
      sd_cand[Links + 1] = room;
    end
    sd_cm   = sd_cand & sd_rr_q;
    sd_cg   = (sd_cm != '0) ? (sd_cm & (~sd_cm + 1'b1)) : (sd_cand & (~sd_cand + 1'b1));
    sd_pick = '0;
    for (int i = 0; i < Links + 2; i++) begin
      if (sd_cg[i]) sd_pick = (SrcW+1)'(i);
    end
  end
  // S_dn starts a packet this cycle; the picked down FIFO's head
  logic        sd_start;
  logic [63:0] pk_data;
  logic [23:0] pk_ent;
  logic [7:0]  pk_reason;
  assign sd_start = (sd_q == SdIdle || (sd_go && sd_last)) && sd_cand != '0;
  always @(*) begin
    pk_data   = '0;
    pk_ent    = '0;
    pk_reason = '0;
    for (int p = 0; p < Links; p++) begin
      if (sd_pick == (SrcW+1)'(p)) begin
        pk_data   = fhead[Links + p];
        pk_ent    = fh_ent[p];
        pk_reason = fh_reason[p];
      end
    end
  end

  // the head of the down FIFO S_dn forwards or drops from
  logic [63:0] dh_data;
  logic        dh_last, dh_valid;
  assign dh_valid = fne[Links + int'(sd_src_q)];
  assign dh_data  = fhead[Links + int'(sd_src_q)];
  assign dh_last  = fhead_last[Links + int'(sd_src_q)];

  // the broadcast U holds (posted here, at the root), turned into a down packet
  // (an error result when it is too long: err set, length 0, no payload)
  logic [63:0] bc_dn_hdr;
  always @(*) begin
    bc_dn_hdr = {`SKIF_KIND_COLL_DOWN, c_data[59:0]};
    if (u_bcerr_q) begin
      bc_dn_hdr[`SKIF_CHDR_ERR] = 1'b1;
      bc_dn_hdr[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO] = 12'h0;
    end
  end

  // The host gets the payload, except: a REDUCE's only at the target node; a
  // BCAST's not at the node that posted it (it has the data; its DMA port is
  // busy reading it out of the TX ring). Those get the header alone, with
  // length 0, as their completion.
  function automatic logic loc_pay(input logic [63:0] h, input logic [15:0] me);
    logic [3:0] cmd;
    cmd = h[`SKIF_CHDR_CMD_LO +: 4];
    return (cmd == `SKIF_COLL_CMD_REDUCE) ? (h[`SKIF_CHDR_ARG_LO +: 16] == me)
         : (cmd == `SKIF_COLL_CMD_BCAST)  ? (h[`SKIF_CHDR_ARG_LO +: 16] != me) : 1'b1;
  endfunction
  function automatic logic [63:0] loc_hdr(input logic [63:0] h, input logic [15:0] me);
    return loc_pay(h, me) ? h : {h[63:20], 12'h0, h[7:0]};
  endfunction

  always @(*) begin
    sd_req      = 1'b0;
    sd_last     = 1'b0;
    sd_data     = '0;
    case (sd_q)
      SdFifo: begin
        sd_req  = dh_valid;
        sd_data = dh_data;
        sd_last = dh_last;
      end
      SdBc: begin
        sd_req  = c_valid;
        sd_data = sd_hdr_q ? bc_dn_hdr : c_data;
        sd_last = c_last || u_bcerr_q;
      end
      SdSlot: begin
        sd_req  = 1'b1;
        sd_data = (sd_k_q == 4'd0) ? slot_hdr(sd_meta, sd_slot_q, `SKIF_KIND_COLL_DOWN)
                                   : acc_q[{sd_slot_q, 3'(sd_k_q - 4'd1)}];
        sd_last = (sd_k_q == sd_n_q);
      end
      default: ;
    endcase
    // the host's copy: the header (shortened for a REDUCE elsewhere), and
    // the payload when it has the data
    sd_loc      = sd_mem_q && (sd_hdr_q || sd_locpay_q);
    sd_loc_data = sd_hdr_q ? loc_hdr(sd_data, node_id_i) : sd_data;
    sd_loc_last = sd_hdr_q ? (sd_last || !loc_pay(sd_data, node_id_i)) : sd_last;
  end

  // result FIFO to the adapter (decouples res_ready_i from the link decision)
  logic res_ready, res_push;
  skif_fifo #(
    .Width (73),
    .Depth (4)
  ) u_res (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .push_valid_i (res_push),
    .push_ready_o (res_ready),
    .push_data_i  ({sd_chan_q, sd_loc_last, sd_loc_data}),
    .pop_valid_o  (res_valid_o),
    .pop_ready_i  (res_ready_i),
    .pop_data_o   ({res_chan_o, res_last_o, res_data_o})
  );
  assign res_push = sd_go && sd_loc;

  assign sd_bc_take   = (sd_q == SdBc) && sd_go;
  assign dnq_pop      = sd_start && sd_cg[Links + 1];
  assign sd_free      = (sd_q == SdSlot) && sd_go && sd_last;
  assign sd_free_slot = sd_slot_q;

  // pops of the input FIFOs: U's source (an up FIFO, or the local input),
  // S_dn forwarding or dropping (a down FIFO)
  assign fpop[Links-1:0]       = (u_pop && u_cur != LocSC) ? Links'(Links'(1) << u_cur) : '0;
  assign fpop[Links*2-1:Links] = ((sd_q == SdFifo && sd_go) || (sd_q == SdDrop && dh_valid))
                               ? Links'(Links'(1) << sd_src_q) : '0;

  logic        sd_drop_q;
  logic [31:0] sd_drop_info_q;
  always @(posedge clk_i) begin : p_sd
    logic [35:0] m;
    if (!rst_ni) begin
      sd_q        <= SdIdle;
      sd_src_q    <= '0;
      sd_slot_q   <= '0;
      sd_mask_q   <= '0;
      sd_mem_q    <= 1'b0;
      sd_hdr_q    <= 1'b0;
      sd_locpay_q <= 1'b0;
      sd_chan_q   <= '0;
      sd_k_q      <= '0;
      sd_n_q      <= '0;
      sd_rr_q     <= '1;
      sd_drop_q   <= 1'b0;
      sd_drop_info_q <= '0;
    end else begin
      sd_drop_q <= 1'b0;
      if (sd_start) begin
        sd_rr_q  <= ~(((Links+2)'(1) << sd_pick) - 1'b1) << 1;
        sd_hdr_q <= 1'b1;
        sd_k_q   <= '0;
        if (sd_pick < (SrcW+1)'(Links)) begin
          sd_src_q <= sd_pick[2:0];
          if (pk_reason != 8'd0) begin
            sd_q           <= SdDrop;
            sd_drop_q      <= 1'b1;
            sd_drop_info_q <= {pk_data[`SKIF_CHDR_TREE_LO +: 8], 4'h0, 4'(sd_pick), 8'h0, pk_reason};
          end else begin
            sd_q        <= SdFifo;
            sd_mask_q   <= pk_ent[7:0];
            sd_mem_q    <= !pk_ent[13];
            sd_chan_q   <= pk_ent[23:16];
            sd_locpay_q <= loc_pay(pk_data, node_id_i);
          end
        end else if (sd_pick == (SrcW+1)'(Links)) begin
          sd_q        <= SdBc;
          sd_mask_q   <= bc_mask;
          sd_mem_q    <= !tab_q[bc_hdr[`SKIF_CHDR_TREE_LO +: TreeW]][13];
          sd_chan_q   <= tab_q[bc_hdr[`SKIF_CHDR_TREE_LO +: TreeW]][16 +: 8];
          sd_locpay_q <= loc_pay(bc_hdr, node_id_i);
        end else begin
          m           = sl_meta;
          sd_q        <= SdSlot;
          sd_slot_q   <= dnq_head;
          sd_mask_q   <= sl_mask;
          sd_mem_q    <= !tab_q[dnq_head[SlotW-1:5]][13];
          sd_chan_q   <= tab_q[dnq_head[SlotW-1:5]][16 +: 8];
          sd_n_q      <= m[35] ? 4'd0 : 4'((m[23:16] + 8'd7) >> 3);
          sd_locpay_q <= (m[34:31] != `SKIF_COLL_CMD_REDUCE) || (m[15:0] == node_id_i);
        end
      end else begin
        case (sd_q)
          SdIdle: ;
          SdDrop: if (dh_valid && dh_last) sd_q <= SdIdle;
          default: begin
            if (sd_go) begin
              sd_hdr_q <= 1'b0;
              sd_k_q   <= sd_k_q + 1'b1;
              if (sd_last) sd_q <= SdIdle;
            end
          end
        endcase
      end
    end
  end

  // ---------------------------------------------------------------- links out
  // Engine credits per link and class; S_up and S_dn share the links: a
  // link where both want to send goes to each in turn (su_turn_q), and the
  // router gets a link for a cycle after it was starved on it.
  logic [7:0]          ok_up, ok_dn;
  logic                su_turn_q, up_ok, dn_ok, clash;
  always @(*) begin
    ok_up = '0;
    ok_dn = '0;
    if (su_req || sd_req) begin  // (read only then)
      for (int p = 0; p < Links; p++) begin
        ok_up[p] = (ec_up_q[p*CW +: CW] != '0) && !starved_i[p];
        ok_dn[p] = (ec_dn_q[p*CW +: CW] != '0) && !starved_i[p];
      end
    end
  end
  assign up_ok = su_req && ok_up[su_port_q];
  assign dn_ok = sd_req && ((sd_mask_q & ~ok_dn) == 8'h0) && (!sd_loc || res_ready);
  assign clash = up_ok && dn_ok && sd_mask_q[su_port_q];
  assign su_go = up_ok && !(clash && !su_turn_q);
  assign sd_go = dn_ok && !(clash && su_turn_q);

  logic [Links-1:0] e_up, e_dn;
  logic [7:0]       e_up8;
  always @(*) begin
    e_up8 = '0;
    if (su_go) e_up8[su_port_q] = 1'b1;
  end
  assign e_up    = e_up8[Links-1:0];
  assign e_dn    = sd_go ? sd_mask_q[Links-1:0] : '0;
  assign block_o = e_up | e_dn;

  logic [Links-1:0] lo_valid_q, lo_last_q, lo_dn_q, lo_valid_d, lo_last_d, lo_dn_d;
  logic [63:0]      lo_data_q [Links];
  logic [63:0]      lo_data_d [Links];
  assign lo_valid_d = rst_ni ? (e_up | e_dn) : '0;
  // (per link: S_up's flit, else S_dn's, else held; as vectors, not bit by bit)
  assign lo_last_d  = (e_up & {Links{su_last}}) | (e_dn & ~e_up & {Links{sd_last}}) |
                      (~(e_up | e_dn) & lo_last_q);
  assign lo_dn_d    = (e_dn & ~e_up) | (~(e_up | e_dn) & lo_dn_q);
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      su_turn_q  <= 1'b0;
      ec_up_q    <= {Links{CDepthC}};
      ec_dn_q    <= {Links{CDepthC}};
    end else begin
      if (clash) su_turn_q <= !su_turn_q;
      if ((e_up | e_dn | lout_cr_up_i | lout_cr_dn_i) != '0) for (int p = 0; p < Links; p++) begin
        if (e_up[p] && !lout_cr_up_i[p])      ec_up_q[p*CW +: CW] <= ec_up_q[p*CW +: CW] - 1'b1;
        else if (!e_up[p] && lout_cr_up_i[p]) ec_up_q[p*CW +: CW] <= ec_up_q[p*CW +: CW] + 1'b1;
        if (e_dn[p] && !lout_cr_dn_i[p])      ec_dn_q[p*CW +: CW] <= ec_dn_q[p*CW +: CW] - 1'b1;
        else if (!e_dn[p] && lout_cr_dn_i[p]) ec_dn_q[p*CW +: CW] <= ec_dn_q[p*CW +: CW] + 1'b1;
      end
    end
  end
  // datapath registers: not reset, kept while nothing is sent
  for (genvar p = 0; p < Links; p++) begin : g_lout
    assign lo_data_d[p] = e_up[p] ? su_data : e_dn[p] ? sd_data : lo_data_q[p];
    assign lout_data_o[p*64 +: 64]    = lo_data_q[p];
    assign nx_lout_data_o[p*64 +: 64] = lo_data_d[p];
  end
  always @(posedge clk_i) begin
    lo_valid_q <= lo_valid_d;
    if (lo_valid_d != '0) for (int p = 0; p < Links; p++) lo_data_q[p] <= lo_data_d[p];
    lo_last_q  <= lo_last_d;
    lo_dn_q    <= lo_dn_d;
  end
  assign lout_valid_o    = lo_valid_q;
  assign lout_last_o     = lo_last_q;
  assign lout_dn_o       = lo_dn_q;
  assign nx_lout_valid_o = lo_valid_d;
  assign nx_lout_last_o  = lo_last_d;
  assign nx_lout_dn_o    = lo_dn_d;

  // ---------------------------------------------------------------- events
  assign drop_o      = {drop_q && sd_drop_q, drop_q != sd_drop_q};
  assign drop_info_o = drop_q ? drop_info_q : sd_drop_info_q;
  assign err_o       = err_q;
  assign err_info_o  = err_info_q;
  assign dbg_state_o = {sd_q, su_q, u_q};

  // ---------------------------------------------------------------- wake
  // With every term low, no register changes at the edge: the table and the
  // FIFO pointers and storage (no write, push or pop: nothing in the FIFOs,
  // nothing arriving); U, S_up and S_dn idle with nothing to take (no source
  // valid, empty done queues), so no slot, queue or credit count changes; the
  // pulses and credit outputs already 0; the link output registers not
  // valid (their last/dn flags hold); the result FIFO empty.
  assign wake_o = !rst_ni || initing || tab_we_i || loc_valid_i || (lin_valid_i != '0) ||
                  (fne_q != '0) || (u_q != UIdle) || (su_q != SuIdle) || (sd_q != SdIdle) ||
                  upq_ne || dnq_ne || drop_q || err_q || sd_drop_q || (cr_up_q != '0) ||
                  (cr_dn_q != '0) || (lout_cr_up_i != '0) || (lout_cr_dn_i != '0) ||
                  (lo_valid_q != '0) || res_valid_o;
endmodule
