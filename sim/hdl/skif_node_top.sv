// SPDX-License-Identifier: Apache-2.0
// skif_node_top: the simulator's one-node model: one whole node
// (rtl/net/skif_net_node: adapter, router, collective engine) with its host
// shim. Built once per number of dimensions (NDims); the node's place is a
// run-time choice: the straps node_idx_i (the simulator's node index, passed
// to every host call), node_id_i (packed coordinates) and sizes_i (ring
// sizes). The simulator (sim/kernel/sim_main.cpp) makes one model per node and moves
// the link ports between neighbours at every clock edge; the links are the
// nodes' registered outputs, so each node's evaluation in a cycle is
// independent of the others'. Only clock, reset and the straps come from C++;
// all host traffic goes through the shim's DPI calls.
//
// Pins = 1 builds the same node for the SystemC/TLM-2.0 path (sim/systemc,
// docs/systemc.md): no shim; the adapter's host ports (register port, DMA
// port, irq, the router's drop count) are this model's host_* ports, driven
// by the TLM bridge, and the reset is not registered (the bridge drives it as
// the platform's rst_ni at each edge). With Pins = 0 those ports are unused
// (outputs 0).
//
// Link timing: see sim/hdl/skif_link_regs.sv. This model's link outputs are
// its node's link registers' next values and its link inputs are
// registered, with the same timing as the whole network. In a waveform the
// node's own ports (u_node) show the link wires as the whole network has them.
//
// Clock gating: the collective and RMA engines run on eng_clk_i. The simulator drives
// it with clk_i at the edges where eng_wake_o (combinational from the node's
// registers and the host pins) was high after the last evaluation and holds
// it otherwise: at those edges no register of the engines would change, so the
// results are the same as with eng_clk_i = clk_i (--no-skip), and the engines'
// clocked logic is not evaluated (sim/kernel/node_links.h, cycle_one).
`include "skif_defs.vh"

module skif_node_top #(
  parameter int NDims = 1,  // torus dimensions, 1..4
  parameter int Pins  = 0,  // 0: the DPI host shim (skifsim); 1: host ports as pins (SystemC)
  localparam int NetVcs = `SKIF_NUM_VCS,  // VCs per class of the router (rtl/skif_defs.vh)
  localparam int Links  = 2 * NDims,
  localparam int VcW    = $clog2(`SKIF_VC_CLASSES * NetVcs),
  localparam int DbgW   = (Links + 1) * `SKIF_VC_CLASSES * NetVcs,
  localparam int SlotW  = $clog2(`SKIF_COLL_TREES) + 5,
  localparam bit HostPins = (Pins != 0)
) (
  input  logic                 clk_i,
  input  logic                 eng_clk_i,  // the engines' clock (see above)
  output logic                 eng_wake_o, // it needs the next edge of eng_clk_i
  input  logic                 rst_ni,
  input  int                   node_idx_i,
  input  logic [15:0]          node_id_i,
  input  logic [19:0]          sizes_i,
  output logic [2:0]           ndims_o,  // what this model was built for
  output logic [15:0]          dbgw_o,   // router debug bits (ports x VCs)
  output logic [2:0]           vcw_o,    // width of a VC number on the links
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
  // for the watchdog's report (skif_net_node)
  output logic [DbgW-1:0]      dbg_busy_o,
  output logic [DbgW-1:0]      dbg_move_o,
  input  logic [SlotW-1:0]     coll_sel_i,
  output logic [Links:0]       coll_got_o,
  output logic [Links:0]       coll_exp_o,
  output logic [7:0]           coll_state_o,
  // host side with Pins = 1: skif_adapter's ports (rtl/skif_adapter.sv)
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
  output logic [31:0]          net_drop_cnt_o
);
  assign ndims_o = 3'(NDims);
  assign dbgw_o  = 16'(DbgW);
  assign vcw_o   = 3'(VcW);

  logic        reg_req_valid, reg_req_ready, reg_req_write, reg_rsp_valid, reg_rsp_err;
  logic [11:0] reg_req_addr;
  logic [31:0] reg_req_wdata, reg_rsp_rdata, net_drop_cnt;
  logic        dma_req_valid, dma_req_ready, dma_req_write, dma_rsp_valid, dma_rsp_err, irq;
  logic [63:0] dma_req_addr, dma_req_wdata, dma_rsp_data;
  logic [7:0]  dma_req_wstrb;

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

  logic rst_node;  // the node's reset: registered with the straps, or the pin (Pins)
  assign rst_node = HostPins ? rst_ni : rst_q;

  skif_net_node #(.NDims(NDims), .NumVcs(NetVcs)) u_node (
    .clk_i, .eng_clk_i, .rst_ni(rst_node), .node_id_i(node_id_q), .sizes_i(sizes_q),
    .reg_req_valid_i(reg_req_valid), .reg_req_ready_o(reg_req_ready),
    .reg_req_write_i(reg_req_write), .reg_req_addr_i(reg_req_addr),
    .reg_req_wdata_i(reg_req_wdata), .reg_rsp_valid_o(reg_rsp_valid),
    .reg_rsp_rdata_o(reg_rsp_rdata), .reg_rsp_err_o(reg_rsp_err),
    .dma_req_valid_o(dma_req_valid), .dma_req_ready_i(dma_req_ready),
    .dma_req_write_o(dma_req_write), .dma_req_addr_o(dma_req_addr),
    .dma_req_wdata_o(dma_req_wdata), .dma_req_wstrb_o(dma_req_wstrb),
    .dma_rsp_valid_i(dma_rsp_valid), .dma_rsp_data_i(dma_rsp_data),
    .dma_rsp_err_i(dma_rsp_err), .irq_o(irq), .net_drop_cnt_o(net_drop_cnt),
    .out_valid_o(unused_valid), .out_data_o(unused_data), .out_last_o(unused_last),
    .out_vc_o(unused_vc), .out_credit_valid_i(out_credit_valid_q),
    .out_credit_vc_i(out_credit_vc_q), .out_cc_i(out_cc_q),
    .in_valid_i(in_valid_q), .in_data_i(in_data_q), .in_last_i(in_last_q), .in_vc_i(in_vc_q),
    .in_credit_valid_o(unused_cr_valid), .in_credit_vc_o(unused_cr_vc), .in_cc_o(unused_cc),
    .nx_out_valid_o(out_valid_o), .nx_out_data_o(out_data_o), .nx_out_last_o(out_last_o),
    .nx_out_vc_o(out_vc_o), .nx_in_credit_valid_o(in_credit_valid_o),
    .nx_in_credit_vc_o(in_credit_vc_o), .nx_in_cc_o(in_cc_o),
    .dbg_busy_o, .dbg_move_o,
    .coll_dbg_sel_i(coll_sel_i), .coll_dbg_got_o(coll_got_o), .coll_dbg_exp_o(coll_exp_o),
    .coll_dbg_state_o(coll_state_o), .eng_wake_o
  );

  // the host side: the TLM bridge's pins, or the DPI host shim
  logic unused_in;  // (the pins' inputs without Pins, the shim's strap with it)
  assign unused_in = ^{reg_req_valid_i, reg_req_write_i, reg_req_addr_i, reg_req_wdata_i,
                       dma_req_ready_i, dma_rsp_valid_i, dma_rsp_data_i, dma_rsp_err_i, node_idx_i};
  assign reg_req_ready_o = HostPins && reg_req_ready;
  assign reg_rsp_valid_o = HostPins && reg_rsp_valid;
  assign reg_rsp_rdata_o = HostPins ? reg_rsp_rdata : '0;
  assign reg_rsp_err_o   = HostPins && reg_rsp_err;
  assign dma_req_valid_o = HostPins && dma_req_valid;
  assign dma_req_write_o = HostPins && dma_req_write;
  assign dma_req_addr_o  = HostPins ? dma_req_addr : '0;
  assign dma_req_wdata_o = HostPins ? dma_req_wdata : '0;
  assign dma_req_wstrb_o = HostPins ? dma_req_wstrb : '0;
  assign irq_o           = HostPins && irq;
  assign net_drop_cnt_o  = HostPins ? net_drop_cnt : '0;
  if (HostPins) begin : g_pins
    assign reg_req_valid = reg_req_valid_i;
    assign reg_req_write = reg_req_write_i;
    assign reg_req_addr  = reg_req_addr_i;
    assign reg_req_wdata = reg_req_wdata_i;
    assign dma_req_ready = dma_req_ready_i;
    assign dma_rsp_valid = dma_rsp_valid_i;
    assign dma_rsp_data  = dma_rsp_data_i;
    assign dma_rsp_err   = dma_rsp_err_i;
  end else begin : g_shim
    skif_host_shim u_shim (
      .clk_i, .rst_ni(rst_q), .node_i(node_idx_i),
      .reg_req_valid_o(reg_req_valid), .reg_req_ready_i(reg_req_ready),
      .reg_req_write_o(reg_req_write), .reg_req_addr_o(reg_req_addr),
      .reg_req_wdata_o(reg_req_wdata),
      .reg_rsp_valid_i(reg_rsp_valid), .reg_rsp_rdata_i(reg_rsp_rdata),
      .reg_rsp_err_i(reg_rsp_err),
      .dma_req_valid_i(dma_req_valid), .dma_req_ready_o(dma_req_ready),
      .dma_req_write_i(dma_req_write), .dma_req_addr_i(dma_req_addr),
      .dma_req_wdata_i(dma_req_wdata), .dma_req_wstrb_i(dma_req_wstrb),
      .dma_rsp_valid_o(dma_rsp_valid), .dma_rsp_data_o(dma_rsp_data),
      .dma_rsp_err_o(dma_rsp_err), .irq_i(irq)
    );
  end
endmodule
