`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_torus_router: wormhole virtual-channel router of a 1..4-D torus.
//
// Handshakes: the 2*NDims link ports use credit-based flow control per VC:
// forward out_valid/data/last/vc (one flit per cycle, from a register; the
// sender only sends on a VC it holds a credit for, so there is no ready),
// backward out_credit_valid/vc (one credit per freed flit). The local port
// is valid/ready, data held while valid && !ready, `last` on the final flit
// of a packet, in two lanes each way: inj_* (adapter -> router: messages,
// RMA requests, collectives) and ans_inj_* (the RMA engine's answers), each
// ready depending on its own data through the header decode, never on the
// other lane or on ej_*; ej_* (router -> adapter: everything but answers)
// and ans_ej_* (answers), each from a 2-entry FIFO of its own. drop_o
// pulses (registered) in a cycle where an injected packet was dropped (a
// dst outside the torus, or an answer kind on inj_* / another kind on
// ans_inj_*); drop_cnt_o counts the packets (wraps).
//
// Port p: 2d = dimension d PLUS, 2d+1 = dimension d MINUS, 2*NDims = local;
// link vectors hold port j in slice j. VC u = class*NumVcs + sub (class 0/1
// message before/after the ring's dateline, 2 collective up, 3 collective
// down, 4/5 RMA answer before/after the dateline: the answer network, whose
// buffers, injection lane and ejection lane no other packet uses). dbg_busy_o/dbg_move_o bit p*TotalVcs+u: input VC u of port p holds a
// flit / sent a flit this cycle. Pipeline: input VC buffer (1 cycle; each
// flit's route is computed as it enters and stored with it), then VC
// allocation + switch allocation + crossbar into the output register in one
// cycle: 2 cycles per hop including the link.
// docs/router.md describes routing, the dateline and arbitration.
`include "skif_defs.vh"

module skif_torus_router #(
  parameter int NDims    = 2,  // torus dimensions used, 1..4 (X, Y, Z, W)
  parameter int VcDepth  = `SKIF_VC_DEPTH, // flits per input VC buffer, 2..64 (>= 4: one flit/cycle on one VC)
  parameter int NumVcs   = `SKIF_NUM_VCS,  // VCs per class (6 classes), 1..4
  parameter int Dateline = 1,  // 1: dateline VC classes; 0 only to demonstrate the deadlock
  parameter int SaIters  = 2,  // switch allocation iterations per cycle, 1..2
  parameter int Tie      = 1,  // half a ring: 1 split per flow, 0 always PLUS (skif_torus_route)
  parameter int EjFirst  = 1,  // 1: the packet that holds the ejection port goes first at its input; 0: plain round-robin (the first router)
  localparam int Links    = 2 * NDims,
  localparam int Ports    = Links + 1,
  localparam int TotalVcs = `SKIF_VC_CLASSES * NumVcs,
  localparam int VcW      = $clog2(TotalVcs)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni /*verilator public_flat_rd*/,
  input  logic [15:0]               node_id_i /*verilator public_flat_rd*/,  // own coordinates: x [3:0], y [7:4], z [11:8], w [15:12]
  input  logic [19:0]               sizes_i,    // ring sizes, 5 bits each, X lowest (1 beyond NDims)
  // links to the neighbours (slice j = port j)
  output logic [Links-1:0]          out_valid_o,
  output logic [Links*64-1:0]       out_data_o,
  output logic [Links-1:0]          out_last_o,
  output logic [Links*VcW-1:0]      out_vc_o,
  input  logic [Links-1:0]          out_credit_valid_i /*verilator public_flat_rd*/,
  input  logic [Links*VcW-1:0]      out_credit_vc_i /*verilator public_flat_rd*/,
  input  logic [Links-1:0]          in_valid_i /*verilator public_flat_rd*/,
  input  logic [Links*64-1:0]       in_data_i /*verilator public_flat_rd*/,
  input  logic [Links-1:0]          in_last_i /*verilator public_flat_rd*/,
  input  logic [Links*VcW-1:0]      in_vc_i /*verilator public_flat_rd*/,
  output logic [Links-1:0]          in_credit_valid_o,
  output logic [Links*VcW-1:0]      in_credit_vc_o,
  // the values the six link registers above take at the next clock edge
  // (a one-node simulator hands these to the neighbours and registers what
  // it receives, so that no logic depends on a model's inputs)
  output logic [Links-1:0]          nx_out_valid_o,
  output logic [Links*64-1:0]       nx_out_data_o,
  output logic [Links-1:0]          nx_out_last_o,
  output logic [Links*VcW-1:0]      nx_out_vc_o,
  output logic [Links-1:0]          nx_in_credit_valid_o,
  output logic [Links*VcW-1:0]      nx_in_credit_vc_o,
  // local port: injection from and ejection to the adapter. inj_ready_o
  // (and ans_inj_ready_o) holds only while a flit is offered: it depends on
  // the offered header's route, computed only then. A sender offers a flit
  // without waiting for ready and reads ready only with valid.
  input  logic                      inj_valid_i /*verilator public_flat_rd*/,
  output logic                      inj_ready_o,
  input  logic [63:0]               inj_data_i /*verilator public_flat_rd*/,
  input  logic                      inj_last_i /*verilator public_flat_rd*/,
  output logic                      ej_valid_o,
  input  logic                      ej_ready_i /*verilator public_flat_rd*/,
  output logic [63:0]               ej_data_o,
  output logic                      ej_last_o,
  // local answer lanes: the RMA engine's answers in, answers to this node out
  input  logic                      ans_inj_valid_i /*verilator public_flat_rd*/,
  output logic                      ans_inj_ready_o,
  input  logic [63:0]               ans_inj_data_i /*verilator public_flat_rd*/,
  input  logic                      ans_inj_last_i /*verilator public_flat_rd*/,
  output logic                      ans_ej_valid_o,
  input  logic                      ans_ej_ready_i /*verilator public_flat_rd*/,
  output logic [63:0]               ans_ej_data_o,
  output logic                      ans_ej_last_o,
  // link sharing with the collective engine (skif_coll): block a link
  // output this cycle; the router wanted a blocked link (registered)
  input  logic [Links-1:0]          out_block_i,
  output logic [Links-1:0]          out_starved_o,
  // injected packets dropped for a bad dst
  output logic                      drop_o,
  output logic [31:0]               drop_cnt_o,
  // debug: per input VC (bit p*TotalVcs+u)
  output logic [Ports*TotalVcs-1:0] dbg_busy_o,
  output logic [Ports*TotalVcs-1:0] dbg_move_o
);
  // Every input port above carries "public_flat_rd" for Verilator only: it
  // keeps the port a variable of the router, so the simulator does not
  // substitute the parent's net (or the constant node id) into the router's
  // code. That code is then the same for every instance and is generated and
  // compiled once per torus, not once per router (docs/router.md, "Simulation").

  localparam int LocalPort = Links;
  localparam int PortW     = $clog2(Ports);
  localparam int NIv       = Ports * TotalVcs;      // input VCs (= output VCs)
  localparam int PvW       = PortW + VcW;           // {port, vc} of an output VC
  localparam int CntW      = $clog2(VcDepth + 1);
  localparam int AddrW     = $clog2(VcDepth);
  localparam logic [CntW-1:0]  VcDepthC = CntW'(VcDepth);
  localparam logic [AddrW-1:0] LastAddr = AddrW'(VcDepth - 1);
  localparam logic [PortW-1:0] LocalC   = PortW'(LocalPort);
  // the local output VC of the answer ejection lane (ej_*: VC 0)
  localparam logic [VcW-1:0]   AnsEjVc  = VcW'(4 * NumVcs);

`ifndef SYNTHESIS
  if (VcDepth < 2 || VcDepth > 64) begin : g_bad_depth
    `SKIF_BAD_PARAM("skif_torus_router VcDepth=%0d out of range 2..64", VcDepth)
  end
  if (SaIters < 1 || SaIters > 2) begin : g_bad_iters
    `SKIF_BAD_PARAM("skif_torus_router SaIters=%0d out of range 1..2", SaIters)
  end
  if (EjFirst != 0 && EjFirst != 1) begin : g_bad_ejfirst
    `SKIF_BAD_PARAM("skif_torus_router EjFirst=%0d must be 0 or 1", EjFirst)
  end
`endif

  // ---------------------------------------------------------------- state
  // Per input VC iv = p*TotalVcs + u: FIFO pointers and fill, the number of
  // tail flits in the buffer, and the output VC its packet holds. (Arrays of
  // small words: a simulator reads and writes element iv directly; the
  // updates below touch only the VCs that push or pop this cycle.)
  logic [AddrW-1:0] wr_ptr_q [NIv];
  logic [AddrW-1:0] rd_ptr_q [NIv];
  logic [CntW-1:0]  cnt_q [NIv];
  logic [CntW-1:0]  tails_q [NIv];
  logic [PvW-1:0]   pv_q [NIv];       // held output VC {port, vc}
  logic [NIv-1:0]   occ_q;            // buffer holds a flit (cnt_q != 0)
  logic [NIv-1:0]   hold_q;           // the head packet holds pv_q (its header has left)
  // storage, per input VC: not reset (datapath); route stored with each flit
  logic [63:0]      data_q [NIv][VcDepth];
  logic [PvW:0]     meta_q [NIv][VcDepth];  // {last, port, vc}
  // per output VC o*TotalVcs+v: held by a packet; link credits and cred != 0
  logic [NIv-1:0]   busy_q;
  logic [CntW-1:0]  cred_q [Links*TotalVcs];  // per link output VC
  logic [Links*TotalVcs-1:0] cred_ok_q;
  // round-robin pointers as masks (1 = at or after the pointer)
  logic [NIv-1:0]   s1_mask_q;        // per input port, over its VCs
  logic [NIv-1:0]   ovc_mask_q;       // per output port, over its VCs
  logic [Ports:0]   in_mask_q [NIv];  // per output VC, over the Ports+1 switch inputs

  // index (5 bits) of the set bit of a one-hot word of up to 32 bits (0 if
  // none): five ANDs, not a loop over the bits (a macro: no function is
  // called in the router, see docs/router.md, "Simulation")
`define SKIF_OH_IDX(g) {|(32'(g) & 32'hFFFF_0000), |(32'(g) & 32'hFF00_FF00), \
                        |(32'(g) & 32'hF0F0_F0F0), |(32'(g) & 32'hCCCC_CCCC), \
                        |(32'(g) & 32'hAAAA_AAAA)}

  // ---------------------------------------------------------------- local injection
  logic             inj_hdr_q, inj_drop_q, inj_bad, inj_drop, inj_fire, inj_ans;
  logic [VcW-1:0]   inj_vc_q, inj_vc_hdr, inj_vc, inj_ovc;
  logic [PortW-1:0] inj_port;
  // the answer lane, the same
  logic             ai_hdr_q, ai_drop_q, ai_bad, ai_drop, ai_fire, ai_ans;
  logic [VcW-1:0]   ai_vc_q, ai_vc_hdr, ai_vc, ai_ovc;
  logic [PortW-1:0] ai_port;
  logic [31:0]      drop_cnt_q;
  logic             drop_q;

  // Route of the local port's header (also its VC and the bad-dst check).
  // Routes are computed where a flit enters its buffer (one route per input
  // port, not per VC) and stored with it; only headers' routes are used.
  skif_torus_route #(
    .NDims (NDims),
    .NumVcs (NumVcs), .Dateline (Dateline), .Tie (Tie)
  ) u_inj_route (
    .en_i      (inj_valid_i),  // (routed only while offered: see inj_ready_o)
    .node_id_i (node_id_i),
    .sizes_i   (sizes_i),
    .dst_i     (inj_data_i[`SKIF_HDR_DST_HI:`SKIF_HDR_DST_LO]),
    .src_i     (inj_data_i[`SKIF_HDR_SRC_HI:`SKIF_HDR_SRC_LO]),
    .kind_i    (inj_data_i[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO]),
    .in_port_i (LocalC),
    .in_vc_i   (VcW'(0)),
    .port_o    (inj_port),
    .vc_o      (inj_ovc),
    .inj_vc_o  (inj_vc_hdr),
    .ans_o     (inj_ans),
    .bad_o     (inj_bad)
  );

  // an answer kind offered on inj_* is dropped: answers have their own lane
  assign inj_drop    = inj_hdr_q ? (inj_bad || inj_ans) : inj_drop_q;
  assign inj_vc      = inj_hdr_q ? inj_vc_hdr : inj_vc_q;
  assign inj_ready_o = inj_drop || (cnt_q[LocalPort*TotalVcs + int'(inj_vc)] != VcDepthC);
  assign inj_fire    = inj_valid_i && inj_ready_o;

  // The answer lane writes only the answer classes' local buffers, so an
  // answer never waits behind a message, request or collective at injection
  // (nor they behind it); any other kind offered there is dropped.
  skif_torus_route #(
    .NDims (NDims),
    .NumVcs (NumVcs), .Dateline (Dateline), .Tie (Tie)
  ) u_ans_route (
    .en_i      (ans_inj_valid_i),
    .node_id_i (node_id_i),
    .sizes_i   (sizes_i),
    .dst_i     (ans_inj_data_i[`SKIF_HDR_DST_HI:`SKIF_HDR_DST_LO]),
    .src_i     (ans_inj_data_i[`SKIF_HDR_SRC_HI:`SKIF_HDR_SRC_LO]),
    .kind_i    (ans_inj_data_i[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO]),
    .in_port_i (LocalC),
    .in_vc_i   (VcW'(0)),
    .port_o    (ai_port),
    .vc_o      (ai_ovc),
    .inj_vc_o  (ai_vc_hdr),
    .ans_o     (ai_ans),
    .bad_o     (ai_bad)
  );

  assign ai_drop         = ai_hdr_q ? (ai_bad || !ai_ans) : ai_drop_q;
  assign ai_vc           = ai_hdr_q ? ai_vc_hdr : ai_vc_q;
  assign ans_inj_ready_o = ai_drop || (cnt_q[LocalPort*TotalVcs + int'(ai_vc)] != VcDepthC);
  assign ai_fire         = ans_inj_valid_i && ans_inj_ready_o;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      inj_hdr_q  <= 1'b1;
      inj_drop_q <= 1'b0;
      inj_vc_q   <= '0;
      ai_hdr_q   <= 1'b1;
      ai_drop_q  <= 1'b0;
      ai_vc_q    <= '0;
      drop_q     <= 1'b0;
      drop_cnt_q <= 32'h0;
    end else begin
      drop_q <= (inj_fire && inj_hdr_q && inj_drop) || (ai_fire && ai_hdr_q && ai_drop);
      if (inj_fire) begin
        inj_hdr_q <= inj_last_i;
        if (inj_hdr_q) begin
          inj_drop_q <= inj_drop;
          inj_vc_q   <= inj_vc_hdr;
        end
      end
      if (ai_fire) begin
        ai_hdr_q <= ans_inj_last_i;
        if (ai_hdr_q) begin
          ai_drop_q <= ai_drop;
          ai_vc_q   <= ai_vc_hdr;
        end
      end
      if ((inj_fire && inj_hdr_q && inj_drop) || (ai_fire && ai_hdr_q && ai_drop))
        drop_cnt_q <= drop_cnt_q + 32'(inj_fire && inj_hdr_q && inj_drop) +
                      32'(ai_fire && ai_hdr_q && ai_drop);
    end
  end

  assign drop_o     = drop_q;
  assign drop_cnt_o = drop_cnt_q;

  // ---------------------------------------------------------------- input side
  // What arrives on each link input port this cycle (at most one flit per
  // port) and its route (computed on every flit, used only for headers). The
  // local port's lanes are inj_* and ans_inj_* above. (Kept apart: the link
  // inputs come from registers, the local lanes from the adapter; logic that
  // read both would be evaluated before and again after every clock edge
  // wherever the local lanes are a simulation model's inputs, as in skifnet.)
  logic [Links-1:0] w_valid, w_last;
  logic [VcW-1:0]   w_vc [Links];
  logic [PortW-1:0] w_port [Links];
  logic [VcW-1:0]   w_ovc [Links];
  logic [63:0]      w_data [Links];

  for (genvar p = 0; p < Links; p++) begin : g_in
    logic [VcW-1:0] unused_inj_vc;
    logic           unused_bad, unused_ans;
    assign w_valid[p] = in_valid_i[p];
    assign w_vc[p]    = in_vc_i[p*VcW +: VcW];
    assign w_data[p]  = in_data_i[p*64 +: 64];
    assign w_last[p]  = in_last_i[p];
    skif_torus_route #(
      .NDims (NDims),
      .NumVcs (NumVcs), .Dateline (Dateline), .Tie (Tie)
    ) u_route (
      .en_i      (in_valid_i[p]),
      .node_id_i (node_id_i),
      .sizes_i   (sizes_i),
      .dst_i     (in_data_i[p*64 + `SKIF_HDR_DST_LO +: 16]),
      .src_i     (in_data_i[p*64 + `SKIF_HDR_SRC_LO +: 16]),
      .kind_i    (in_data_i[p*64 + `SKIF_HDR_KIND_LO +: 4]),
      .in_port_i (PortW'(p)),
      .in_vc_i   (in_vc_i[p*VcW +: VcW]),
      .port_o    (w_port[p]),
      .vc_o      (w_ovc[p]),
      .inj_vc_o  (unused_inj_vc),
      .ans_o     (unused_ans),
      .bad_o     (unused_bad)
    );
  end

  // ---------------------------------------------------------------- allocation
  // Combined VC and switch allocation, separable input-first, SaIters
  // iterations, in one cycle. The switch has Ains = Ports + 1 inputs: one per
  // link port, and two for the local port (its even and its odd VCs), so two
  // injected packets can leave towards two outputs in the same cycle.
  //   request: an input VC with a flit whose output VC is held by its packet,
  //     or (a header) whose routed output VC is free, and that output VC has a
  //     credit (ejection: FIFO space). A header towards ejection whose whole
  //     packet is not yet in the buffer (no tail, buffer not full) only
  //     requests if no complete one does.
  //   stage 1, per switch input not yet matched: round-robin among its
  //     requesting VCs whose output port is not yet matched; in the first
  //     iteration (EjFirst), only among the body flits of the packet that
  //     holds the ejection port, if that input has one: ejection is the
  //     scarcest output under uniform traffic, and a held ejection port that
  //     loses its input to another VC idles for the cycle (docs/router.md);
  //   stage 2, per output port not yet matched: round-robin among the switch
  //     inputs whose stage-1 choice goes there.
  // A header that wins takes its output VC in the same cycle (VC allocation
  // folded into switch allocation: at most one header per output port per
  // cycle). Pointers move past the winners only. Everything is skipped while
  // no input VC holds a flit (the outputs are then all zero).
  localparam int Ains = Ports + 1;
  localparam int AinW = $clog2(Ains);
  localparam int IvW  = $clog2(NIv);
  // VCs of the local port's two switch inputs
  localparam logic [TotalVcs-1:0] EvenVcs = TotalVcs'(64'h5555_5555_5555_5555);

  logic [NIv-1:0]   req, pop;
  logic [Ports-1:0] want;             // a request for an output before out_block_i
  logic [Ports-1:0] block_p;          // out_block_i, one bit per port (local: 0)
  assign block_p = {1'b0, out_block_i};
  logic [NIv-1:0]   to_port [Ports];  // requesting input VCs by the output port they want
  logic [PvW-1:0]   a_tgt;
  logic [NIv-1:0]   head_last;
  logic [NIv-1:0]   ej_want;          // a body flit of the packet that holds the ejection port
  logic [NIv-1:0]   ej_hdr, ej_full;  // header towards ejection; its packet complete
  logic [NIv-1:0]   ej_ans;           // that header's lane is the answer ejection
  logic [Ains-1:0]  in_gnt;           // switch input matched
  logic [Ains-1:0]  s1_act;           // switch input requests in this iteration
  logic [Ports-1:0] o_valid;          // output port matched
  logic [VcW-1:0]   s1_idx [Ains];    // matched switch input: its VC
  logic [PvW-1:0]   s1_tgt [Ains];
  logic [AinW-1:0]  o_sel [Ports];    // matched output port: its switch input
  logic [VcW-1:0]   o_vc [Ports];
  logic             o_last [Ports];
  logic [AddrW-1:0] o_ptr [Ports];
  logic [IvW-1:0]   o_iv [Ports];     // the input VC of o_sel
  logic             ej_push_ready, aej_push_ready;
  // scratch of the allocation block
  logic [NIv-1:0]        req_it;      // requests of this iteration
  logic [TotalVcs-1:0]   s1_r, s1_m, s1_g;
  logic [Ains-1:0]       s2_r, s2_m, s2_g;
  logic [TotalVcs-1:0]   s2_vr, s2_vm, s2_vg;
  logic [NIv-1:0]        s2_vreq;     // [o*TotalVcs + v]
  logic [VcW-1:0]        s2_v;
  logic [PvW:0]          a_meta;
  logic [PortW-1:0]      a_port;
  logic                  a_ok;
  logic [1:0]            a_strong;    // a complete packet waits for ejection: {answer lane, ej}
  logic [IvW-1:0]        a_iv;
  int                    a_p;

  always @(*) begin
    req       = '0;
    want      = '0;
    pop       = '0;
    head_last = '0;
    ej_want   = '0;
    ej_hdr    = '0;
    ej_full   = '0;
    ej_ans    = '0;
    in_gnt    = '0;
    s1_act    = '0;
    o_valid   = '0;
    a_strong  = 2'b00;
    a_meta    = '0;
    a_port    = '0;
    a_ok      = 1'b0;
    a_iv      = '0;
    a_p       = 0;
    req_it    = '0;
    s1_r      = '0;
    s1_m      = '0;
    s1_g      = '0;
    s2_r      = '0;
    s2_m      = '0;
    s2_g      = '0;
    s2_vreq   = '0;
    s2_vr     = '0;
    s2_vm     = '0;
    s2_vg     = '0;
    s2_v      = '0;
    for (int a = 0; a < Ains; a++) begin
      s1_idx[a] = '0;
      s1_tgt[a] = '0;
    end
    for (int o = 0; o < Ports; o++) begin
      o_sel[o]   = '0;
      o_vc[o]    = '0;
      o_last[o]  = 1'b0;
      o_ptr[o]   = '0;
      o_iv[o]    = '0;
      to_port[o] = '0;
    end
    a_tgt     = '0;
    if (occ_q != '0) begin
      // requests
      // (one port at a time, skipping the empty ones: the loops are unrolled
      // by a simulator, and an empty port costs one test)
      for (int p = 0; p < Ports; p++) begin
        if (occ_q[p*TotalVcs +: TotalVcs] != '0) begin
          for (int u = 0; u < TotalVcs; u++) begin
`define SKIF_IV (p*TotalVcs + u)
            if (occ_q[`SKIF_IV]) begin
              a_meta              = meta_q[`SKIF_IV][rd_ptr_q[`SKIF_IV]];
              head_last[`SKIF_IV] = a_meta[PvW];
              a_tgt               = hold_q[`SKIF_IV] ? pv_q[`SKIF_IV] : a_meta[PvW-1:0];
              a_port              = a_tgt[PvW-1:VcW];
              if (a_port == LocalC) begin
                a_ok = (a_tgt[VcW-1:0] == AnsEjVc) ? aej_push_ready : ej_push_ready;
              end else begin
                a_ok = cred_ok_q[int'(a_port) * TotalVcs + int'(a_tgt[VcW-1:0])];
              end
              if (!hold_q[`SKIF_IV]) begin
                a_ok = a_ok && !busy_q[int'(a_port) * TotalVcs + int'(a_tgt[VcW-1:0])];
                if (a_port == LocalC) begin
                  ej_hdr[`SKIF_IV]  = 1'b1;
                  ej_ans[`SKIF_IV]  = (a_tgt[VcW-1:0] == AnsEjVc);
                  ej_full[`SKIF_IV] = (tails_q[`SKIF_IV] != '0) || (cnt_q[`SKIF_IV] == VcDepthC);
                  if (ej_full[`SKIF_IV]) a_strong[ej_ans[`SKIF_IV]] = 1'b1;
                end
              end
              // a link the collective engine takes this cycle
              if (a_port != LocalC && a_ok) begin
                want[a_port] = 1'b1;
                if (block_p[a_port]) a_ok = 1'b0;
              end
              req[`SKIF_IV] = a_ok;
              if (a_ok) to_port[a_port][`SKIF_IV] = 1'b1;
              ej_want[`SKIF_IV] = (EjFirst != 0) && (a_port == LocalC) && hold_q[`SKIF_IV];
            end
`undef SKIF_IV
          end
        end
      end
      // (per ejection lane)
      if (a_strong[0]) req = req & ~(ej_hdr & ~ej_full & ~ej_ans);
      if (a_strong[1]) req = req & ~(ej_hdr & ~ej_full & ej_ans);

      for (int it = 0; it < SaIters; it++) begin
        // a later iteration only where a switch input requested and lost (one
        // that did not request then has no request left)
        if (it == 0 || (s1_act & ~in_gnt) != '0) begin
          // stage 1: after the first iteration, no request for an output
          // port already matched
          req_it = req;
          if (it > 0) begin
            for (int o = 0; o < Ports; o++) begin
              if (o_valid[o]) req_it = req_it & ~to_port[o];
            end
          end
          s2_vreq = '0;
          s1_act  = '0;
          for (int a = 0; a < Ains; a++) begin
            a_p = (a == Ports) ? LocalPort : a;
            if (!in_gnt[a]) begin
              s1_r = req_it[a_p*TotalVcs +: TotalVcs];
              if (a == LocalPort) s1_r = s1_r & EvenVcs;
              if (a == Ports)     s1_r = s1_r & ~EvenVcs;
              if (it == 0 && (s1_r & ej_want[a_p*TotalVcs +: TotalVcs]) != '0) begin
                s1_r = s1_r & ej_want[a_p*TotalVcs +: TotalVcs];
              end
              if (s1_r != '0) begin
                s1_m = s1_r & s1_mask_q[a_p*TotalVcs +: TotalVcs];
                s1_g = (s1_m != '0) ? (s1_m & (~s1_m + 1'b1)) : (s1_r & (~s1_r + 1'b1));
                s1_idx[a] = VcW'(`SKIF_OH_IDX(s1_g));
                // the chosen VC's output VC (as the requests above found it)
                a_iv      = IvW'(a_p*TotalVcs + int'(s1_idx[a]));
                s1_tgt[a] = hold_q[a_iv] ? pv_q[a_iv] : meta_q[a_iv][rd_ptr_q[a_iv]][PvW-1:0];
                s1_act[a] = 1'b1;
                s2_vreq[int'(s1_tgt[a][PvW-1:VcW]) * TotalVcs + int'(s1_tgt[a][VcW-1:0])] = 1'b1;
              end
            end
          end
          // stage 2
          for (int o = 0; o < Ports; o++) begin
            s2_vr = s2_vreq[o*TotalVcs +: TotalVcs];
            if (s2_vr != '0) begin
              // the output VC (round-robin), then the switch input (round-robin per output VC)
              s2_vm = s2_vr & ovc_mask_q[o*TotalVcs +: TotalVcs];
              s2_vg = (s2_vm != '0) ? (s2_vm & (~s2_vm + 1'b1)) : (s2_vr & (~s2_vr + 1'b1));
              s2_v  = VcW'(`SKIF_OH_IDX(s2_vg));
              for (int a = 0; a < Ains; a++) begin
                s2_r[a] = s1_act[a] && (s1_tgt[a] == {PortW'(o), s2_v});
              end
              s2_m = s2_r & in_mask_q[o*TotalVcs + int'(s2_v)];
              s2_g = (s2_m != '0) ? (s2_m & (~s2_m + 1'b1)) : (s2_r & (~s2_r + 1'b1));
              o_sel[o]   = AinW'(`SKIF_OH_IDX(s2_g));
              a_p        = (int'(o_sel[o]) == Ports) ? LocalPort : int'(o_sel[o]);
              o_valid[o] = 1'b1;
              in_gnt[o_sel[o]] = 1'b1;
              a_iv       = IvW'(a_p * TotalVcs + int'(s1_idx[o_sel[o]]));
              pop[a_iv]  = 1'b1;
              o_vc[o]    = s2_v;
              o_last[o]  = head_last[a_iv];
              o_ptr[o]   = rd_ptr_q[a_iv];
              o_iv[o]    = a_iv;
            end
          end
        end
      end
    end
  end

  // pushes: at most one per link input port (slot p), and two at the local
  // port (slot 0: inj_*; slot 1: the answer lane, a VC of the answer
  // classes, never the one inj_* writes). Only a slot of its own port can
  // push into an input VC.
  logic [Links-1:0] pu_v;             // link slot pushes a flit
  logic [IvW-1:0]   pu_iv [Links];    // into this input VC
  logic [PvW:0]     pu_meta [Links];  // {last, route}
  logic [1:0]       lpu_v;            // the local slots, the same
  logic [IvW-1:0]   lpu_iv [2];
  logic [PvW:0]     lpu_meta [2];
  always @(*) begin
    for (int p = 0; p < Links; p++) begin
      pu_iv[p]   = IvW'(p*TotalVcs + int'(w_vc[p]));
      pu_v[p]    = w_valid[p] && cnt_q[p*TotalVcs + int'(w_vc[p])] != VcDepthC;
      pu_meta[p] = {w_last[p], w_port[p], w_ovc[p]};
    end
  end
  // (one block per lane, each evaluated when its own inputs change)
  assign lpu_iv[0]   = IvW'(LocalPort*TotalVcs + int'(inj_vc));
  assign lpu_v[0]    = inj_valid_i && !inj_drop && cnt_q[lpu_iv[0]] != VcDepthC;
  assign lpu_meta[0] = {inj_last_i, inj_port, inj_ovc};
  assign lpu_iv[1]   = IvW'(LocalPort*TotalVcs + int'(ai_vc));
  assign lpu_v[1]    = ans_inj_valid_i && !ai_drop && cnt_q[lpu_iv[1]] != VcDepthC;
  assign lpu_meta[1] = {ans_inj_last_i, ai_port, ai_ovc};

  logic [Links-1:0] starved_q;
  always @(posedge clk_i) begin
    if (!rst_ni) starved_q <= '0;
    else         starved_q <= want[Links-1:0] & out_block_i;
  end
  assign out_starved_o = starved_q;
  logic unused_want_local;  // ejection is never blocked
  assign unused_want_local = want[LocalPort];

  assign dbg_busy_o = occ_q;
  assign dbg_move_o = pop;

  // ---------------------------------------------------------------- sequential state
  // Input VCs: at most one push per input port (and the answer lane) and
  // one pop per output port; only those VCs are updated. A VC that pushes
  // and pops in the same cycle keeps its fill (and its tail count, if the
  // flit in and the flit out are both tails or both not).
  always @(posedge clk_i) begin : p_vc
    logic [IvW-1:0] ivp;   // process-local scratch
    logic           pl;    // a push slot's flit is a tail
    int             ps;    // the input port of a pop
    logic           pu, pul;  // that input VC also pushes, a tail
    if (!rst_ni) begin
      // (a loop per port and VC: a simulator unrolls it into whole-array clears)
      for (int p = 0; p < Ports; p++) begin
        for (int u = 0; u < TotalVcs; u++) begin
          wr_ptr_q[p*TotalVcs + u] <= '0;
          rd_ptr_q[p*TotalVcs + u] <= '0;
          cnt_q[p*TotalVcs + u]    <= '0;
          tails_q[p*TotalVcs + u]  <= '0;
          pv_q[p*TotalVcs + u]     <= '0;
        end
      end
      occ_q    <= '0;
      hold_q   <= '0;
    end else begin
      for (int s = 0; s < Links + 2; s++) begin
        if (s < Links ? pu_v[s] : lpu_v[s - Links]) begin
          ivp = (s < Links) ? pu_iv[s] : lpu_iv[s - Links];
          pl  = (s < Links) ? pu_meta[s][PvW] : lpu_meta[s - Links][PvW];
          wr_ptr_q[ivp] <= (wr_ptr_q[ivp] == LastAddr) ? '0 : wr_ptr_q[ivp] + 1'b1;
          if (!pop[ivp]) begin
            cnt_q[ivp] <= cnt_q[ivp] + 1'b1;
            occ_q[ivp] <= 1'b1;
          end
          if (pl && !(pop[ivp] && head_last[ivp]))
            tails_q[ivp] <= tails_q[ivp] + 1'b1;
        end
      end
      for (int o = 0; o < Ports; o++) begin
        if (o_valid[o]) begin
          ivp = o_iv[o];
          // does a slot of the same input port push into it?
          ps  = (int'(o_sel[o]) >= LocalPort) ? LocalPort : int'(o_sel[o]);
          if (ps < Links) begin
            pu  = pu_v[ps] && pu_iv[ps] == ivp;
            pul = pu_meta[ps][PvW];
          end else begin
            pu  = (lpu_v[0] && lpu_iv[0] == ivp) || (lpu_v[1] && lpu_iv[1] == ivp);
            pul = (lpu_v[0] && lpu_iv[0] == ivp) ? lpu_meta[0][PvW] : lpu_meta[1][PvW];
          end
          rd_ptr_q[ivp] <= (rd_ptr_q[ivp] == LastAddr) ? '0 : rd_ptr_q[ivp] + 1'b1;
          // the header takes its output VC; the tail releases it
          hold_q[ivp] <= !head_last[ivp];
          if (!hold_q[ivp]) pv_q[ivp] <= {PortW'(o), o_vc[o]};
          if (!pu) begin
            cnt_q[ivp] <= cnt_q[ivp] - 1'b1;
            occ_q[ivp] <= (cnt_q[ivp] != CntW'(1));
          end
          if (head_last[ivp] && !(pu && pul))
            tails_q[ivp] <= tails_q[ivp] - 1'b1;
        end
      end
    end
  end

  // stage-1 pointers: strictly above the winner, within the switch input's VCs
  always @(posedge clk_i) begin : p_s1
    int a_p2;  // process-local scratch
    if (!rst_ni) begin
      s1_mask_q <= '1;
    end else if (in_gnt != '0) begin
      for (int a = 0; a < Ains; a++) begin
        if (in_gnt[a]) begin
          a_p2 = (a == Ports) ? LocalPort : a;
          s1_mask_q[a_p2*TotalVcs +: TotalVcs] <= ~((TotalVcs'(1) << s1_idx[a]) - 1'b1) << 1;
        end
      end
    end
  end

  // storage: at most one VC of each input port written per cycle, and one
  // answer VC of the local port
  always @(posedge clk_i) begin
    // (the data straight from the ports: no copy per slot)
    for (int p = 0; p < Links; p++) begin
      if (pu_v[p]) begin
        data_q[pu_iv[p]][wr_ptr_q[pu_iv[p]]] <= w_data[p];
        meta_q[pu_iv[p]][wr_ptr_q[pu_iv[p]]] <= pu_meta[p];
      end
    end
    if (lpu_v[0]) begin
      data_q[lpu_iv[0]][wr_ptr_q[lpu_iv[0]]] <= inj_data_i;
      meta_q[lpu_iv[0]][wr_ptr_q[lpu_iv[0]]] <= lpu_meta[0];
    end
    if (lpu_v[1]) begin
      data_q[lpu_iv[1]][wr_ptr_q[lpu_iv[1]]] <= ans_inj_data_i;
      meta_q[lpu_iv[1]][wr_ptr_q[lpu_iv[1]]] <= lpu_meta[1];
    end
  end

  // Output VCs: busy from the header to the tail (a one-flit packet leaves
  // it free); link credits: one less per flit sent, one more per credit back.
  always @(posedge clk_i) begin : p_ovc
    int sq_s, sq_c;  // process-local scratch
    if (!rst_ni) begin
      busy_q     <= '0;
      ovc_mask_q <= '1;
      for (int o = 0; o < Ports; o++) begin
        for (int v = 0; v < TotalVcs; v++) begin
          in_mask_q[o*TotalVcs + v] <= '1;
          if (o < Links) cred_q[o*TotalVcs + v] <= VcDepthC;
        end
      end
      cred_ok_q  <= '1;
    end else begin
      for (int o = 0; o < Ports; o++) begin
        if (o_valid[o]) begin
          busy_q[o*TotalVcs + int'(o_vc[o])] <= !o_last[o];
          ovc_mask_q[o*TotalVcs +: TotalVcs] <= ~((TotalVcs'(1) << o_vc[o]) - 1'b1) << 1;
          in_mask_q[o*TotalVcs + int'(o_vc[o])] <= ~((Ains'(1) << o_sel[o]) - 1'b1) << 1;
        end
      end
      for (int o = 0; o < Links; o++) begin
        if (o_valid[o] || out_credit_valid_i[o]) begin
          sq_s = o * TotalVcs + int'(o_vc[o]);
          sq_c = o * TotalVcs + int'(out_credit_vc_i[o*VcW +: VcW]);
          if (o_valid[o] && !(out_credit_valid_i[o] && sq_c == sq_s)) begin
            cred_q[sq_s]    <= cred_q[sq_s] - 1'b1;
            cred_ok_q[sq_s] <= (cred_q[sq_s] != CntW'(1));
          end
          if (out_credit_valid_i[o] && !(o_valid[o] && sq_c == sq_s)) begin
            cred_q[sq_c]    <= cred_q[sq_c] + 1'b1;
            cred_ok_q[sq_c] <= 1'b1;
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- link outputs
  // The crossbar reads the buffers at the indices switch allocation chose.
  // The registers' next values are outputs too (nx_*); the datapath
  // registers are not reset and keep their value when nothing is sent.
  logic [Links-1:0]     lo_valid_q, lo_last_q, cr_valid_q;
  logic [63:0]          lo_data_q [Links];
  logic [Links*VcW-1:0] lo_vc_q, cr_vc_q;
  logic [Links-1:0]     lo_valid_d, lo_last_d, cr_valid_d;
  logic [63:0]          lo_data_d [Links];
  logic [Links*VcW-1:0] lo_vc_d, cr_vc_d;

  assign lo_valid_d = rst_ni ? o_valid[Links-1:0] : '0;
  assign cr_valid_d = rst_ni ? in_gnt[Links-1:0] : '0;
  for (genvar o = 0; o < Links; o++) begin : g_link_out
    assign lo_data_d[o]          = o_valid[o] ? data_q[o_iv[o]][o_ptr[o]] : lo_data_q[o];
    assign lo_last_d[o]          = o_valid[o] ? o_last[o] : lo_last_q[o];
    assign lo_vc_d[o*VcW +: VcW] = o_valid[o] ? o_vc[o] : lo_vc_q[o*VcW +: VcW];
    // credit for the input VC of this port that sent a flit
    assign cr_vc_d[o*VcW +: VcW] = in_gnt[o] ? s1_idx[o] : cr_vc_q[o*VcW +: VcW];
    assign out_data_o[o*64 +: 64]    = lo_data_q[o];
    assign nx_out_data_o[o*64 +: 64] = lo_data_d[o];
  end

  always @(posedge clk_i) begin
    lo_valid_q <= lo_valid_d;
    cr_valid_q <= cr_valid_d;
    for (int o = 0; o < Links; o++) lo_data_q[o] <= lo_data_d[o];
    lo_last_q  <= lo_last_d;
    lo_vc_q    <= lo_vc_d;
    cr_vc_q    <= cr_vc_d;
  end

  assign out_valid_o          = lo_valid_q;
  assign out_last_o           = lo_last_q;
  assign out_vc_o             = lo_vc_q;
  assign in_credit_valid_o    = cr_valid_q;
  assign in_credit_vc_o       = cr_vc_q;
  assign nx_out_valid_o       = lo_valid_d;
  assign nx_out_last_o        = lo_last_d;
  assign nx_out_vc_o          = lo_vc_d;
  assign nx_in_credit_valid_o = cr_valid_d;
  assign nx_in_credit_vc_o    = cr_vc_d;

  // ---------------------------------------------------------------- ejection
  // Two lanes, each a 2-entry first-word-fall-through FIFO, as skif_fifo
  // Depth 2 (written out here so the simulator keeps its code the same for
  // every router): ej_* behind the local output VC 0, ans_ej_* behind
  // AnsEjVc (answers). The switch grants the local output one flit per
  // cycle, to a lane with space.
  logic [64:0] ej_mem_q [2];
  logic        ej_wr_q, ej_rd_q, ej_push, ej_pop;
  logic [1:0]  ej_cnt_q;
  logic [64:0] aej_mem_q [2];
  logic        aej_wr_q, aej_rd_q, aej_push, aej_pop;
  logic [1:0]  aej_cnt_q;

  assign ej_push_ready = (ej_cnt_q != 2'd2);
  assign ej_valid_o    = (ej_cnt_q != 2'd0);
  assign {ej_last_o, ej_data_o} = ej_mem_q[ej_rd_q];
  assign ej_push       = o_valid[LocalPort] && (o_vc[LocalPort] != AnsEjVc);  // only granted with space
  assign ej_pop        = ej_valid_o && ej_ready_i;

  assign aej_push_ready = (aej_cnt_q != 2'd2);
  assign ans_ej_valid_o = (aej_cnt_q != 2'd0);
  assign {ans_ej_last_o, ans_ej_data_o} = aej_mem_q[aej_rd_q];
  assign aej_push       = o_valid[LocalPort] && (o_vc[LocalPort] == AnsEjVc);
  assign aej_pop        = ans_ej_valid_o && ans_ej_ready_i;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      aej_wr_q  <= 1'b0;
      aej_rd_q  <= 1'b0;
      aej_cnt_q <= 2'd0;
    end else begin
      if (aej_push) aej_wr_q <= !aej_wr_q;
      if (aej_pop)  aej_rd_q <= !aej_rd_q;
      if (aej_push && !aej_pop)      aej_cnt_q <= aej_cnt_q + 2'd1;
      else if (aej_pop && !aej_push) aej_cnt_q <= aej_cnt_q - 2'd1;
    end
    // storage: not reset (datapath)
    if (aej_push) aej_mem_q[aej_wr_q] <= {o_last[LocalPort],
                                          data_q[o_iv[LocalPort]][o_ptr[LocalPort]]};
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      ej_wr_q  <= 1'b0;
      ej_rd_q  <= 1'b0;
      ej_cnt_q <= 2'd0;
    end else begin
      if (ej_push) ej_wr_q <= !ej_wr_q;
      if (ej_pop)  ej_rd_q <= !ej_rd_q;
      if (ej_push && !ej_pop)      ej_cnt_q <= ej_cnt_q + 2'd1;
      else if (ej_pop && !ej_push) ej_cnt_q <= ej_cnt_q - 2'd1;
    end
    // storage: not reset (datapath)
    if (ej_push) ej_mem_q[ej_wr_q] <= {o_last[LocalPort],
                                       data_q[o_iv[LocalPort]][o_ptr[LocalPort]]};
  end

  // ---------------------------------------------------------------- checks
`ifndef SYNTHESIS
  // a flit on a link input VC whose buffer is full; a credit counter leaving
  // 0..VcDepth (only computed when it happens)
  logic [NIv-1:0] chk_ovf, chk_cred;
  always @(*) begin
    chk_ovf  = '0;
    chk_cred = '0;
    // (a flit that found its buffer full did not push; a flit sent without
    // a credit finds cred_ok_q clear; each test is made only where the event
    // happened)
    if ((w_valid & ~pu_v) != '0) begin
      for (int p = 0; p < Links; p++) begin
        if (w_valid[p] && !pu_v[p]) chk_ovf[p*TotalVcs + int'(w_vc[p])] = 1'b1;
      end
    end
    for (int p = 0; p < Links; p++) begin
      if (o_valid[p]) begin
        if (!(out_credit_valid_i[p] && out_credit_vc_i[p*VcW +: VcW] == o_vc[p]) &&
            !cred_ok_q[p*TotalVcs + int'(o_vc[p])])
          chk_cred[p*TotalVcs + int'(o_vc[p])] = 1'b1;
      end
      if (out_credit_valid_i[p]) begin
        if (!(o_valid[p] && out_credit_vc_i[p*VcW +: VcW] == o_vc[p]) &&
            cred_q[p*TotalVcs + int'(out_credit_vc_i[p*VcW +: VcW])] == VcDepthC)
          chk_cred[p*TotalVcs + int'(out_credit_vc_i[p*VcW +: VcW])] = 1'b1;
      end
    end
  end

  skif_torus_check #(
    .Ports    (Ports),
    .TotalVcs (TotalVcs)
  ) u_check (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .ovf_i  (chk_ovf),
    .cred_i (chk_cred)
  );
`endif
endmodule
`undef SKIF_OH_IDX
