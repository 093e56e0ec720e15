// SPDX-License-Identifier: Apache-2.0
// skif_fabric_node_top: the network bench's one-node model: one node's router
// (rtl/net/skif_torus_node without its collective engine), no adapter, its
// local port driven by skifnet's synthetic traffic (sim/netbench/netbench_main.cpp).
// Built once per number of dimensions (NDims), and per router variant
// (NumVcs, VcDepth, Tie, EjFirst); the node's place is a run-time choice: the straps
// node_id_i (packed coordinates) and sizes_i (ring sizes). skifnet makes one
// model per node and moves the link ports between neighbours every cycle, as
// the simulator does with sim/hdl/skif_node_top.sv. Without the collective
// engine (skif_torus_node's Coll = 0): skifnet offers only messages, and an
// idle engine's logic was a quarter of every evaluation.
//
// Link timing: see sim/hdl/skif_link_regs.sv. This model's link outputs are
// its node's link registers' next values and its link inputs are
// registered, with the same timing as the whole network. In a waveform the
// node's own ports (u_node) show the link wires as the whole network has them.
`include "skif_defs.vh"

module skif_fabric_node_top #(
  parameter int NDims   = 1,   // torus dimensions, 1..4
  parameter int NumVcs  = `SKIF_NUM_VCS,   // VCs per class of the router
  parameter int VcDepth = `SKIF_VC_DEPTH,  // flits per input VC buffer
  parameter int Tie     = 1,   // half-ring tie-break: 1 split per flow, 0 always PLUS (the first router)
  parameter int EjFirst = 1,   // ejection-first switch allocation: 1, or 0 (the first router)
  localparam int Links  = 2 * NDims,
  localparam int VcW    = $clog2(`SKIF_VC_CLASSES * NumVcs),
  localparam int DbgW   = (Links + 1) * `SKIF_VC_CLASSES * NumVcs
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [15:0]          node_id_i,
  input  logic [19:0]          sizes_i,
  output logic [2:0]           ndims_o,   // what this model was built for
  output logic [2:0]           numvcs_o,
  output logic                 tie_o,
  output logic [15:0]          dbgw_o,    // router debug bits (ports x VCs)
  // links (skif_torus_node)
  output logic [Links-1:0]     out_valid_o,
  output logic [Links*64-1:0]  out_data_o,
  output logic [Links-1:0]     out_last_o,
  output logic [Links*VcW-1:0] out_vc_o,
  input  logic [Links-1:0]     out_credit_valid_i,
  input  logic [Links*VcW-1:0] out_credit_vc_i,
  input  logic [Links*2-1:0]   out_cc_i,
  input  logic [Links-1:0]     in_valid_i,
  input  logic [Links*64-1:0]  in_data_i,
  input  logic [Links-1:0]     in_last_i,
  input  logic [Links*VcW-1:0] in_vc_i,
  output logic [Links-1:0]     in_credit_valid_o,
  output logic [Links*VcW-1:0] in_credit_vc_o,
  output logic [Links*2-1:0]   in_cc_o,
  // the local port
  input  logic                 inj_valid_i,
  output logic                 inj_ready_o,
  output logic                 inj_took_o,   // the last clock edge took the offered flit
  input  logic [63:0]          inj_data_i,
  input  logic                 inj_last_i,
  output logic                 ej_valid_o,
  input  logic                 ej_ready_i,
  output logic [63:0]          ej_data_o,
  output logic                 ej_last_o,
  output logic [31:0]          drop_cnt_o,
  // for the watchdog's report
  output logic [DbgW-1:0]      dbg_busy_o,
  output logic [DbgW-1:0]      dbg_move_o
);
  assign ndims_o  = 3'(NDims);
  assign numvcs_o = 3'(NumVcs);
  assign tie_o    = (Tie != 0);
  assign dbgw_o   = 16'(DbgW);

  // the engine's host side, unused here (outputs read by nothing)
  /* verilator lint_off UNUSEDSIGNAL */
  logic        drop, coll_in_ready, coll_out_valid, coll_out_last, coll_tab_err, coll_err;
  logic [63:0] coll_out_data;
  logic [7:0]  coll_out_chan, coll_state;
  logic [31:0] coll_tab_rdata, coll_drop_info, coll_err_info;
  logic [1:0]  coll_drop;
  logic [Links:0] coll_got, coll_exp;
  logic        coll_wake;
  logic        ans_inj_ready, ans_ej_valid, ans_ej_last;
  logic [63:0] ans_ej_data;
  /* verilator lint_on UNUSEDSIGNAL */

  // link inputs and straps registered, link outputs one edge ahead (skif_link_regs)
  logic                 rst_q;
  logic [15:0]          node_id_q;
  logic [19:0]          sizes_q;
  logic [Links-1:0]     out_credit_valid_q, in_valid_q, in_last_q;
  logic [Links*VcW-1:0] out_credit_vc_q, in_vc_q;
  logic [Links*2-1:0]   out_cc_q;
  logic [Links*64-1:0]  in_data_q;
  skif_link_regs #(.Links(Links), .VcW(VcW)) u_link_regs (
    .clk_i, .rst_ni, .node_id_i, .sizes_i, .out_credit_valid_i, .out_credit_vc_i, .out_cc_i,
    .in_valid_i, .in_data_i, .in_last_i, .in_vc_i,
    .rst_no(rst_q), .node_id_o(node_id_q), .sizes_o(sizes_q), .out_credit_valid_o(out_credit_valid_q),
    .out_credit_vc_o(out_credit_vc_q), .out_cc_o(out_cc_q), .in_valid_o(in_valid_q),
    .in_data_o(in_data_q), .in_last_o(in_last_q), .in_vc_o(in_vc_q)
  );
  // the node's link registers themselves, read by nothing here
  logic [Links-1:0]     unused_valid, unused_last, unused_cr_valid;
  logic [Links*64-1:0]  unused_data;
  logic [Links*VcW-1:0] unused_vc, unused_cr_vc;
  logic [Links*2-1:0]   unused_cc;

  // skifnet reads the handshake after the edge from this register, instead
  // of evaluating the model once more before the edge to read inj_ready_o
  // (which depends on the offered header)
  logic inj_took_q;
  always_ff @(posedge clk_i) inj_took_q <= inj_valid_i && inj_ready_o;
  assign inj_took_o = inj_took_q;

  skif_torus_node #(.NDims(NDims), .VcDepth(VcDepth), .NumVcs(NumVcs), .Tie(Tie), .EjFirst(EjFirst), .Coll(0)) u_node (
    .clk_i, .eng_clk_i(clk_i), .rst_ni(rst_q), .node_id_i(node_id_q), .sizes_i(sizes_q),
    .out_valid_o(unused_valid), .out_data_o(unused_data), .out_last_o(unused_last),
    .out_vc_o(unused_vc), .out_credit_valid_i(out_credit_valid_q),
    .out_credit_vc_i(out_credit_vc_q), .out_cc_i(out_cc_q),
    .in_valid_i(in_valid_q), .in_data_i(in_data_q), .in_last_i(in_last_q), .in_vc_i(in_vc_q),
    .in_credit_valid_o(unused_cr_valid), .in_credit_vc_o(unused_cr_vc), .in_cc_o(unused_cc),
    .nx_out_valid_o(out_valid_o), .nx_out_data_o(out_data_o), .nx_out_last_o(out_last_o),
    .nx_out_vc_o(out_vc_o), .nx_in_credit_valid_o(in_credit_valid_o),
    .nx_in_credit_vc_o(in_credit_vc_o), .nx_in_cc_o(in_cc_o),
    .inj_valid_i, .inj_ready_o, .inj_data_i, .inj_last_i,
    .ej_valid_o, .ej_ready_i, .ej_data_o, .ej_last_o,
    // skifnet offers only messages: the answer lanes idle
    .ans_inj_valid_i(1'b0), .ans_inj_ready_o(ans_inj_ready), .ans_inj_data_i(64'd0),
    .ans_inj_last_i(1'b0), .ans_ej_valid_o(ans_ej_valid), .ans_ej_ready_i(1'b1),
    .ans_ej_data_o(ans_ej_data), .ans_ej_last_o(ans_ej_last),
    .drop_o(drop), .drop_cnt_o, .dbg_busy_o, .dbg_move_o,
    .coll_in_valid_i(1'b0), .coll_in_ready_o(coll_in_ready), .coll_in_data_i(64'd0),
    .coll_in_last_i(1'b0), .coll_out_valid_o(coll_out_valid), .coll_out_ready_i(1'b0),
    .coll_out_data_o(coll_out_data), .coll_out_last_o(coll_out_last),
    .coll_out_chan_o(coll_out_chan), .coll_tab_we_i(1'b0), .coll_tab_sel_i(8'd0),
    .coll_tab_wdata_i(32'd0), .coll_tab_err_o(coll_tab_err), .coll_tab_rdata_o(coll_tab_rdata),
    .coll_drop_o(coll_drop), .coll_drop_info_o(coll_drop_info), .coll_err_o(coll_err),
    .coll_err_info_o(coll_err_info), .coll_dbg_sel_i('0), .coll_dbg_got_o(coll_got),
    .coll_dbg_exp_o(coll_exp), .coll_dbg_state_o(coll_state),
    .coll_wake_o(coll_wake)
  );
endmodule
