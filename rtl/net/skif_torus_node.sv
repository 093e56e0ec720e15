`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_torus_node: the network side of one node: its torus router and its
// collective engine, sharing the node's links.
//
// Handshakes: the link ports are the router's (see skif_torus_router:
// flits with a VC, one per cycle, per-VC credits back), plus a second credit
// lane per link for the collective engine (cc_*: one bit per class, up and
// down). A link flit on VC class 2 (up) or 3 (down) belongs to the engine:
// it goes to the engine's input FIFOs, never into the router (classes 0, 1,
// 4 and 5 go to the router); the engine's
// own flits leave on those classes (sub-VC 0), in cycles the engine has
// taken from the router (skif_coll block_o/starved_i). The local port is the
// router's (inj_*/ej_*: messages and RMA requests; ans_inj_*/ans_ej_*: RMA
// answers); coll_in_*/coll_out_* and coll_tab_* are
// the engine's host side (skif_coll). Coll = 0 leaves the engine out (the
// network bench's message-only node, sim/hdl/skif_fabric_node_top.sv): the
// engine's outputs read as idle, collective-class link flits go nowhere.
// Clocks: the engine runs on eng_clk_i, which is clk_i or clk_i gated off
// for the edges where coll_wake_o is low (no register of the engine would
// change: skif_coll wake_o). A platform without clock gating ties it to
// clk_i; the one-node simulator gates it (sim/kernel/node_links.h).
`include "skif_defs.vh"

module skif_torus_node #(
  parameter int NDims    = 2,
  parameter int VcDepth  = `SKIF_VC_DEPTH,
  parameter int NumVcs   = `SKIF_NUM_VCS,
  parameter int Dateline = 1,
  parameter int Tie      = 1,   // half-ring tie-break of the router (skif_torus_route)
  parameter int EjFirst  = 1,   // the router's ejection-first switch allocation (skif_torus_router)
  parameter int Trees    = 32,  // collective tree table entries
  parameter int NumChans = 64,  // adapter channels (result channel check)
  parameter int Coll     = 1,   // 1: the collective engine; 0: none (message-only benches)
  localparam int Links    = 2 * NDims,
  localparam int Ports    = Links + 1,
  localparam int TotalVcs = `SKIF_VC_CLASSES * NumVcs,
  localparam int VcW      = $clog2(TotalVcs),
  localparam int SlotW    = $clog2(Trees) + 5
) (
  input  logic                      clk_i,
  input  logic                      eng_clk_i, // the collective engine's clock (see above)
  input  logic                      rst_ni,
  input  logic [15:0]               node_id_i,
  input  logic [19:0]               sizes_i,   // ring sizes, 5 bits each, X lowest (1 beyond NDims)
  // links
  output logic [Links-1:0]          out_valid_o,
  output logic [Links*64-1:0]       out_data_o,
  output logic [Links-1:0]          out_last_o,
  output logic [Links*VcW-1:0]      out_vc_o,
  input  logic [Links-1:0]          out_credit_valid_i,
  input  logic [Links*VcW-1:0]      out_credit_vc_i,
  input  logic [Links*2-1:0]        out_cc_i,      // engine credits {dn, up} per link
  input  logic [Links-1:0]          in_valid_i,
  input  logic [Links*64-1:0]       in_data_i,
  input  logic [Links-1:0]          in_last_i,
  input  logic [Links*VcW-1:0]      in_vc_i,
  output logic [Links-1:0]          in_credit_valid_o,
  output logic [Links*VcW-1:0]      in_credit_vc_o,
  output logic [Links*2-1:0]        in_cc_o,
  // the values of the link outputs above after the next clock edge (they
  // all come from registers; see skif_torus_router's nx_*)
  output logic [Links-1:0]          nx_out_valid_o,
  output logic [Links*64-1:0]       nx_out_data_o,
  output logic [Links-1:0]          nx_out_last_o,
  output logic [Links*VcW-1:0]      nx_out_vc_o,
  output logic [Links-1:0]          nx_in_credit_valid_o,
  output logic [Links*VcW-1:0]      nx_in_credit_vc_o,
  output logic [Links*2-1:0]        nx_in_cc_o,
  // router local port
  input  logic                      inj_valid_i,
  output logic                      inj_ready_o,
  input  logic [63:0]               inj_data_i,
  input  logic                      inj_last_i,
  output logic                      ej_valid_o,
  input  logic                      ej_ready_i,
  output logic [63:0]               ej_data_o,
  output logic                      ej_last_o,
  input  logic                      ans_inj_valid_i,
  output logic                      ans_inj_ready_o,
  input  logic [63:0]               ans_inj_data_i,
  input  logic                      ans_inj_last_i,
  output logic                      ans_ej_valid_o,
  input  logic                      ans_ej_ready_i,
  output logic [63:0]               ans_ej_data_o,
  output logic                      ans_ej_last_o,
  output logic                      drop_o,
  output logic [31:0]               drop_cnt_o,
  output logic [Ports*TotalVcs-1:0] dbg_busy_o,
  output logic [Ports*TotalVcs-1:0] dbg_move_o,
  // collective engine host side
  input  logic                      coll_in_valid_i,
  output logic                      coll_in_ready_o,
  input  logic [63:0]               coll_in_data_i,
  input  logic                      coll_in_last_i,
  output logic                      coll_out_valid_o,
  input  logic                      coll_out_ready_i,
  output logic [63:0]               coll_out_data_o,
  output logic                      coll_out_last_o,
  output logic [7:0]                coll_out_chan_o,
  input  logic                      coll_tab_we_i,
  input  logic [7:0]                coll_tab_sel_i,
  input  logic [31:0]               coll_tab_wdata_i,
  output logic                      coll_tab_err_o,
  output logic [31:0]               coll_tab_rdata_o,
  output logic [1:0]                coll_drop_o,
  output logic [31:0]               coll_drop_info_o,
  output logic                      coll_err_o,
  output logic [31:0]               coll_err_info_o,
  input  logic [SlotW-1:0]          coll_dbg_sel_i,
  output logic [Links:0]            coll_dbg_got_o,
  output logic [Links:0]            coll_dbg_exp_o,
  output logic [7:0]                coll_dbg_state_o,
  output logic                      coll_wake_o  // the engine needs the next edge of eng_clk_i
);
  localparam logic [VcW-1:0] UpVc = VcW'(2 * NumVcs);
  localparam logic [VcW-1:0] DnVc = VcW'(3 * NumVcs);
  localparam logic [VcW-1:0] AnsVc = VcW'(4 * NumVcs);  // the answer classes (router)

  logic [Links-1:0]     r_valid, r_last, r_in_valid, block, starved;
  logic [Links*64-1:0]  r_data;
  logic [Links*VcW-1:0] r_vc;
  logic [Links-1:0]     e_valid, e_last, e_dn, e_in_valid, e_in_dn, e_cr_up, e_cr_dn, e_oc_up, e_oc_dn;
  logic [Links*64-1:0]  e_data;
  logic [Links-1:0]     nr_valid, nr_last, ne_valid, ne_last, ne_dn, ne_cr_up, ne_cr_dn;
  logic [Links*64-1:0]  nr_data, ne_data;
  logic [Links*VcW-1:0] nr_vc;

  // (the one-bit-per-port signals are whole vectors: a simulator evaluates
  // a vector in one operation, a port at a time in several per port)
  logic [Links-1:0] in_coll;  // per port: the flit's VC is of class 2 or 3
  for (genvar j = 0; j < Links; j++) begin : g_link
    logic [VcW-1:0] ivc;
    assign ivc           = in_vc_i[j*VcW +: VcW];
    assign in_coll[j]    = (ivc >= UpVc) && (ivc < AnsVc);
    assign e_in_dn[j]    = (ivc >= DnVc);
    // out: the engine's flit when it took the link, else the router's
    assign out_data_o[j*64 +: 64]  = e_valid[j] ? e_data[j*64 +: 64] : r_data[j*64 +: 64];
    assign out_vc_o[j*VcW +: VcW]  = e_valid[j] ? (e_dn[j] ? DnVc : UpVc) : r_vc[j*VcW +: VcW];
    assign in_cc_o[j*2 +: 2]       = {e_cr_dn[j], e_cr_up[j]};
    assign e_oc_up[j]              = out_cc_i[j*2];
    assign e_oc_dn[j]              = out_cc_i[j*2 + 1];
    // the same after the next edge
    assign nx_out_data_o[j*64 +: 64]  = ne_valid[j] ? ne_data[j*64 +: 64] : nr_data[j*64 +: 64];
    assign nx_out_vc_o[j*VcW +: VcW]  = ne_valid[j] ? (ne_dn[j] ? DnVc : UpVc) : nr_vc[j*VcW +: VcW];
    assign nx_in_cc_o[j*2 +: 2]       = {ne_cr_dn[j], ne_cr_up[j]};
  end
  // in: classes 2 and 3 to the engine, the others to the router
  assign e_in_valid     = in_valid_i & in_coll;
  assign r_in_valid     = in_valid_i & ~in_coll;
  assign out_valid_o    = e_valid | r_valid;
  assign out_last_o     = (e_valid & e_last) | (~e_valid & r_last);
  assign nx_out_valid_o = ne_valid | nr_valid;
  assign nx_out_last_o  = (ne_valid & ne_last) | (~ne_valid & nr_last);

  skif_torus_router #(
    .NDims    (NDims),
    .VcDepth  (VcDepth),
    .NumVcs   (NumVcs),
    .Dateline (Dateline),
    .Tie      (Tie),
    .EjFirst  (EjFirst)
  ) u_router (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .node_id_i          (node_id_i),
    .sizes_i            (sizes_i),
    .out_valid_o        (r_valid),
    .out_data_o         (r_data),
    .out_last_o         (r_last),
    .out_vc_o           (r_vc),
    .out_credit_valid_i (out_credit_valid_i),
    .out_credit_vc_i    (out_credit_vc_i),
    .in_valid_i         (r_in_valid),
    .in_data_i          (in_data_i),
    .in_last_i          (in_last_i),
    .in_vc_i            (in_vc_i),
    .in_credit_valid_o  (in_credit_valid_o),
    .in_credit_vc_o     (in_credit_vc_o),
    .nx_out_valid_o     (nr_valid),
    .nx_out_data_o      (nr_data),
    .nx_out_last_o      (nr_last),
    .nx_out_vc_o        (nr_vc),
    .nx_in_credit_valid_o (nx_in_credit_valid_o),
    .nx_in_credit_vc_o  (nx_in_credit_vc_o),
    .inj_valid_i        (inj_valid_i),
    .inj_ready_o        (inj_ready_o),
    .inj_data_i         (inj_data_i),
    .inj_last_i         (inj_last_i),
    .ej_valid_o         (ej_valid_o),
    .ej_ready_i         (ej_ready_i),
    .ej_data_o          (ej_data_o),
    .ej_last_o          (ej_last_o),
    .ans_inj_valid_i    (ans_inj_valid_i),
    .ans_inj_ready_o    (ans_inj_ready_o),
    .ans_inj_data_i     (ans_inj_data_i),
    .ans_inj_last_i     (ans_inj_last_i),
    .ans_ej_valid_o     (ans_ej_valid_o),
    .ans_ej_ready_i     (ans_ej_ready_i),
    .ans_ej_data_o      (ans_ej_data_o),
    .ans_ej_last_o      (ans_ej_last_o),
    .out_block_i        (block),
    .out_starved_o      (starved),
    .drop_o             (drop_o),
    .drop_cnt_o         (drop_cnt_o),
    .dbg_busy_o         (dbg_busy_o),
    .dbg_move_o         (dbg_move_o)
  );

  if (Coll != 0) begin : g_coll
    skif_coll #(
      .NDims    (NDims),
      .Trees    (Trees),
      .NumChans (NumChans)
    ) u_coll (
      .clk_i        (eng_clk_i),
      .rst_ni       (rst_ni),
      .node_id_i    (node_id_i),
      .tab_we_i     (coll_tab_we_i),
      .tab_sel_i    (coll_tab_sel_i),
      .tab_wdata_i  (coll_tab_wdata_i),
      .tab_err_o    (coll_tab_err_o),
      .tab_rdata_o  (coll_tab_rdata_o),
      .loc_valid_i  (coll_in_valid_i),
      .loc_ready_o  (coll_in_ready_o),
      .loc_data_i   (coll_in_data_i),
      .loc_last_i   (coll_in_last_i),
      .res_valid_o  (coll_out_valid_o),
      .res_ready_i  (coll_out_ready_i),
      .res_data_o   (coll_out_data_o),
      .res_last_o   (coll_out_last_o),
      .res_chan_o   (coll_out_chan_o),
      .lin_valid_i  (e_in_valid),
      .lin_data_i   (in_data_i),
      .lin_last_i   (in_last_i),
      .lin_dn_i     (e_in_dn),
      .lin_cr_up_o  (e_cr_up),
      .lin_cr_dn_o  (e_cr_dn),
      .lout_valid_o (e_valid),
      .lout_data_o  (e_data),
      .lout_last_o  (e_last),
      .lout_dn_o    (e_dn),
      .lout_cr_up_i (e_oc_up),
      .lout_cr_dn_i (e_oc_dn),
      .nx_lout_valid_o (ne_valid),
      .nx_lout_data_o  (ne_data),
      .nx_lout_last_o  (ne_last),
      .nx_lout_dn_o    (ne_dn),
      .nx_lin_cr_up_o  (ne_cr_up),
      .nx_lin_cr_dn_o  (ne_cr_dn),
      .block_o      (block),
      .starved_i    (starved),
      .drop_o       (coll_drop_o),
      .drop_info_o  (coll_drop_info_o),
      .err_o        (coll_err_o),
      .err_info_o   (coll_err_info_o),
      .dbg_sel_i    (coll_dbg_sel_i),
      .dbg_got_o    (coll_dbg_got_o),
      .dbg_exp_o    (coll_dbg_exp_o),
      .dbg_state_o  (coll_dbg_state_o),
      .wake_o       (coll_wake_o)
    );
  end else begin : g_no_coll
    // no engine: nothing blocks the router, nothing leaves on the engine's
    // classes, no engine credits; the host side reads as idle
    assign block            = '0;
    assign e_valid          = '0;
    assign e_data           = '0;
    assign e_last           = '0;
    assign e_dn             = '0;
    assign e_cr_up          = '0;
    assign e_cr_dn          = '0;
    assign ne_valid         = '0;
    assign ne_data          = '0;
    assign ne_last          = '0;
    assign ne_dn            = '0;
    assign ne_cr_up         = '0;
    assign ne_cr_dn         = '0;
    assign coll_in_ready_o  = 1'b0;
    assign coll_out_valid_o = 1'b0;
    assign coll_out_data_o  = '0;
    assign coll_out_last_o  = 1'b0;
    assign coll_out_chan_o  = '0;
    assign coll_tab_err_o   = 1'b1;
    assign coll_tab_rdata_o = '0;
    assign coll_drop_o      = '0;
    assign coll_drop_info_o = '0;
    assign coll_err_o       = 1'b0;
    assign coll_err_info_o  = '0;
    assign coll_dbg_got_o   = '0;
    assign coll_dbg_exp_o   = '0;
    assign coll_dbg_state_o = '0;
    assign coll_wake_o      = 1'b0;
    logic unused_no_coll;  // the engine's inputs, read by nothing here
    assign unused_no_coll = ^{starved, e_in_valid, e_in_dn, e_oc_up, e_oc_dn, coll_in_valid_i,
                              coll_in_data_i, coll_in_last_i, coll_out_ready_i, coll_tab_we_i,
                              coll_tab_sel_i, coll_tab_wdata_i, coll_dbg_sel_i, eng_clk_i};
  end
endmodule
