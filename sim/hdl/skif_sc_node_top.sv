`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_sc_node_top: one node (skif_net_node: adapter, router, collective
// engine) for the SystemC/TLM-2.0 path (sim/systemc, docs/systemc.md), built
// once per number of torus dimensions. skif_tlm_adapter makes one model per
// node and moves the link signals between neighbours at each clock edge, as
// skifsim does with skif_node_top (sim/kernel/node_links.h); the adapter's host
// ports (register port, DMA port, irq) are this model's ports, driven by the
// TLM bridge instead of skifsim's DPI host shim.
//
// Timing is that of the whole-network skif_torus_net: the link inputs and the
// straps are registered here (skif_link_regs) and the outputs to the
// neighbours are the values after the next edge (nx_*), so a flit takes the
// same cycles; the reset is not registered (the bridge drives it as the
// platform's rst_ni at each edge).
`include "skif_defs.vh"

module skif_sc_node_top #(
  parameter int NDims = 1,  // torus dimensions, 1..4
  localparam int NetVcs = `SKIF_NUM_VCS,
  localparam int Links  = 2 * NDims,
  localparam int VcW    = $clog2(`SKIF_VC_CLASSES * NetVcs),
  localparam int SlotW  = $clog2(`SKIF_COLL_TREES) + 5
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [15:0]          node_id_i,
  input  logic [19:0]          sizes_i,
  output logic [2:0]           ndims_o,  // what this model was built for
  output logic [2:0]           vcw_o,    // width of a VC number on the links
  // host side: skif_adapter's ports (rtl/skif_adapter.sv)
  input  logic                 reg_req_valid_i,
  output logic                 reg_req_ready_o,
  input  logic                 reg_req_write_i,
  input  logic [11:0]          reg_req_addr_i,
  input  logic [31:0]          reg_req_wdata_i,
  output logic                 reg_rsp_valid_o,
  output logic [31:0]          reg_rsp_rdata_o,
  output logic                 reg_rsp_err_o,
  output logic                 dma_req_valid_o,
  input  logic                 dma_req_ready_i,
  output logic                 dma_req_write_o,
  output logic [63:0]          dma_req_addr_o,
  output logic [63:0]          dma_req_wdata_o,
  output logic [7:0]           dma_req_wstrb_o,
  input  logic                 dma_rsp_valid_i,
  input  logic [63:0]          dma_rsp_data_i,
  input  logic                 dma_rsp_err_i,
  output logic                 irq_o,
  output logic [31:0]          net_drop_cnt_o,
  // links, as skif_node_top's
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
  output logic [Links*2-1:0]   in_cc_o
);
  assign ndims_o = 3'(NDims);
  assign vcw_o   = 3'(VcW);

  logic                 rst_q;  // (unused: the reset is not registered here)
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
  /* verilator lint_off UNUSEDSIGNAL */
  logic [Links-1:0]     unused_valid, unused_last, unused_cr_valid;
  logic [Links*64-1:0]  unused_data;
  logic [Links*VcW-1:0] unused_vc, unused_cr_vc;
  logic [Links*2-1:0]   unused_cc;
  logic [(Links+1)*`SKIF_VC_CLASSES*NetVcs-1:0] unused_busy, unused_move;
  logic [Links:0]       unused_got, unused_exp;
  logic [7:0]           unused_state;
  logic                 unused_rst;
  assign unused_rst = rst_q;
  /* verilator lint_on UNUSEDSIGNAL */

  skif_net_node #(.NDims(NDims), .NumVcs(NetVcs)) u_node (
    .clk_i, .rst_ni, .node_id_i(node_id_q), .sizes_i(sizes_q),
    .reg_req_valid_i, .reg_req_ready_o, .reg_req_write_i, .reg_req_addr_i, .reg_req_wdata_i,
    .reg_rsp_valid_o, .reg_rsp_rdata_o, .reg_rsp_err_o,
    .dma_req_valid_o, .dma_req_ready_i, .dma_req_write_o, .dma_req_addr_o, .dma_req_wdata_o,
    .dma_req_wstrb_o, .dma_rsp_valid_i, .dma_rsp_data_i, .dma_rsp_err_i, .irq_o, .net_drop_cnt_o,
    .out_valid_o(unused_valid), .out_data_o(unused_data), .out_last_o(unused_last),
    .out_vc_o(unused_vc), .out_credit_valid_i(out_credit_valid_q),
    .out_credit_vc_i(out_credit_vc_q), .out_cc_i(out_cc_q),
    .in_valid_i(in_valid_q), .in_data_i(in_data_q), .in_last_i(in_last_q), .in_vc_i(in_vc_q),
    .in_credit_valid_o(unused_cr_valid), .in_credit_vc_o(unused_cr_vc), .in_cc_o(unused_cc),
    .nx_out_valid_o(out_valid_o), .nx_out_data_o(out_data_o), .nx_out_last_o(out_last_o),
    .nx_out_vc_o(out_vc_o), .nx_in_credit_valid_o(in_credit_valid_o),
    .nx_in_credit_vc_o(in_credit_vc_o), .nx_in_cc_o(in_cc_o),
    .dbg_busy_o(unused_busy), .dbg_move_o(unused_move),
    .coll_dbg_sel_i(SlotW'(0)), .coll_dbg_got_o(unused_got), .coll_dbg_exp_o(unused_exp),
    .coll_dbg_state_o(unused_state)
  );
endmodule
