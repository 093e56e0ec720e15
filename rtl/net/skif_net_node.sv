`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_net_node: one whole node of the network: its adapter (skif_adapter)
// on the local ports of its router and collective engine (skif_torus_node).
//
// Handshakes: the host side is the adapter's (register port, DMA port, irq;
// see skif_adapter), the link side the node's (see skif_torus_node). The
// node id and the ring sizes are straps (inputs held for the whole run), so
// that one build serves every node of every torus of NDims dimensions:
// skif_torus_net wires N of them, the simulator's one-node model
// (sim/hdl/skif_node_top.sv) is one of them with its links moved in C.
// net_drop_cnt_o counts local packets the router dropped at injection
// because their dst lies outside the torus; each drop is also a pulse to the
// adapter (NET_DROPS register, STATUS.NET_DROP).
// Clocks: the collective engine and the RMA engine run on eng_clk_i, the
// rest on clk_i. eng_wake_o (combinational) is low when neither engine's
// registers would change at the next edge (skif_coll, skif_rma wake_o): a
// platform may then gate eng_clk_i off for that edge with the same results.
// Without clock gating it is clk_i (skif_torus_net); the one-node simulator
// gates it (sim/kernel/node_links.h, cycle_one).
`include "skif_defs.vh"

module skif_net_node #(
  parameter int NDims       = 2,    // torus dimensions used, 1..4 (X, Y, Z, W)
  parameter int VcDepth     = `SKIF_VC_DEPTH,   // router: flits per input VC buffer, 2..64
  parameter int NumVcs      = `SKIF_NUM_VCS,    // router: VCs per class, 1..4
  parameter int DmaMaxReads = 256,  // adapter: max outstanding DMA reads
  parameter int Trees       = `SKIF_COLL_TREES,  // collective engine: tree table entries
  localparam int Links      = 2 * NDims,
  localparam int TotalVcs   = `SKIF_VC_CLASSES * NumVcs,
  localparam int VcW        = $clog2(TotalVcs),
  localparam int DbgW       = (Links + 1) * TotalVcs,
  localparam int SlotW      = $clog2(Trees) + 5
) (
  input  logic                 clk_i,
  input  logic                 eng_clk_i,  // the collective and RMA engines' clock: clk_i, or
                                           // clk_i gated off while eng_wake_o is low
  input  logic                 rst_ni,
  input  logic [15:0]          node_id_i,  // straps: packed coordinates {w, z, y, x}
  input  logic [19:0]          sizes_i,    // straps: ring sizes, 5 bits each, X lowest
  // host side (skif_adapter)
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
  // the link outputs' values after the next clock edge (skif_torus_node)
  output logic [Links-1:0]     nx_out_valid_o,
  output logic [Links*64-1:0]  nx_out_data_o,
  output logic [Links-1:0]     nx_out_last_o,
  output logic [Links*VcW-1:0] nx_out_vc_o,
  output logic [Links-1:0]     nx_in_credit_valid_o,
  output logic [Links*VcW-1:0] nx_in_credit_vc_o,
  output logic [Links*2-1:0]   nx_in_cc_o,
  // for a simulator's watchdog: router input VCs that hold a flit / sent one
  // this cycle (bit numbering in skif_torus_router); collective slot
  // coll_dbg_sel_i (contributions so far and expected: bit p = link port p,
  // bit Links = the host) and the engine's unit states
  output logic [DbgW-1:0]      dbg_busy_o,
  output logic [DbgW-1:0]      dbg_move_o,
  input  logic [SlotW-1:0]     coll_dbg_sel_i,
  output logic [Links:0]       coll_dbg_got_o,
  output logic [Links:0]       coll_dbg_exp_o,
  output logic [7:0]           coll_dbg_state_o,
  output logic                 eng_wake_o  // the engines need the next edge of eng_clk_i
);
  logic        tx_valid, tx_ready, tx_last, rx_valid, rx_ready, rx_last, drop;
  logic [63:0] tx_data, rx_data;
  logic        atx_valid, atx_ready, atx_last, arx_valid, arx_ready, arx_last;
  logic [63:0] atx_data, arx_data;
  // adapter <-> collective engine
  logic        ct_valid, ct_ready, ct_last, cr_valid, cr_ready, cr_last, tab_we, tab_err, cerr;
  logic [63:0] ct_data, cr_data;
  logic [7:0]  cr_chan, tab_sel;
  logic [31:0] tab_wdata, tab_rdata, cdrop_info, cerr_info;
  logic [1:0]  cdrop;
  logic        rma_wake, coll_wake;  // the engines clocked by eng_clk_i need its next edge
  assign eng_wake_o = rma_wake || coll_wake;

  skif_adapter #(
    .DmaMaxReads (DmaMaxReads),
    .Trees       (Trees)
  ) u_adapter (
    .clk_i           (clk_i),
    .eng_clk_i       (eng_clk_i),
    .rst_ni          (rst_ni),
    .node_id_i       (node_id_i),
    .reg_req_valid_i (reg_req_valid_i),
    .reg_req_ready_o (reg_req_ready_o),
    .reg_req_write_i (reg_req_write_i),
    .reg_req_addr_i  (reg_req_addr_i),
    .reg_req_wdata_i (reg_req_wdata_i),
    .reg_rsp_valid_o (reg_rsp_valid_o),
    .reg_rsp_rdata_o (reg_rsp_rdata_o),
    .reg_rsp_err_o   (reg_rsp_err_o),
    .dma_req_valid_o (dma_req_valid_o),
    .dma_req_ready_i (dma_req_ready_i),
    .dma_req_write_o (dma_req_write_o),
    .dma_req_addr_o  (dma_req_addr_o),
    .dma_req_wdata_o (dma_req_wdata_o),
    .dma_req_wstrb_o (dma_req_wstrb_o),
    .dma_rsp_valid_i (dma_rsp_valid_i),
    .dma_rsp_data_i  (dma_rsp_data_i),
    .dma_rsp_err_i   (dma_rsp_err_i),
    .irq_o           (irq_o),
    .net_tx_valid_o  (tx_valid),
    .net_tx_ready_i  (tx_ready),
    .net_tx_data_o   (tx_data),
    .net_tx_last_o   (tx_last),
    .net_rx_valid_i  (rx_valid),
    .net_rx_ready_o  (rx_ready),
    .net_rx_data_i   (rx_data),
    .net_rx_last_i   (rx_last),
    .ans_tx_valid_o  (atx_valid),
    .ans_tx_ready_i  (atx_ready),
    .ans_tx_data_o   (atx_data),
    .ans_tx_last_o   (atx_last),
    .ans_rx_valid_i  (arx_valid),
    .ans_rx_ready_o  (arx_ready),
    .ans_rx_data_i   (arx_data),
    .ans_rx_last_i   (arx_last),
    .net_drop_i      (drop),
    .coll_tx_valid_o (ct_valid),
    .coll_tx_ready_i (ct_ready),
    .coll_tx_data_o  (ct_data),
    .coll_tx_last_o  (ct_last),
    .coll_rx_valid_i (cr_valid),
    .coll_rx_ready_o (cr_ready),
    .coll_rx_data_i  (cr_data),
    .coll_rx_last_i  (cr_last),
    .coll_rx_chan_i  (cr_chan),
    .coll_tab_we_o   (tab_we),
    .coll_tab_sel_o  (tab_sel),
    .coll_tab_wdata_o(tab_wdata),
    .coll_tab_err_i  (tab_err),
    .coll_tab_rdata_i(tab_rdata),
    .coll_drop_i     (cdrop),
    .coll_drop_info_i(cdrop_info),
    .coll_err_i      (cerr),
    .coll_err_info_i (cerr_info),
    .rma_wake_o      (rma_wake)
  );

  skif_torus_node #(
    .NDims    (NDims),
    .VcDepth  (VcDepth),
    .NumVcs   (NumVcs),
    .Trees    (Trees)
  ) u_tnode (
    .clk_i              (clk_i),
    .eng_clk_i          (eng_clk_i),
    .rst_ni             (rst_ni),
    .node_id_i          (node_id_i),
    .sizes_i            (sizes_i),
    .out_valid_o        (out_valid_o),
    .out_data_o         (out_data_o),
    .out_last_o         (out_last_o),
    .out_vc_o           (out_vc_o),
    .out_credit_valid_i (out_credit_valid_i),
    .out_credit_vc_i    (out_credit_vc_i),
    .out_cc_i           (out_cc_i),
    .in_valid_i         (in_valid_i),
    .in_data_i          (in_data_i),
    .in_last_i          (in_last_i),
    .in_vc_i            (in_vc_i),
    .in_credit_valid_o  (in_credit_valid_o),
    .in_credit_vc_o     (in_credit_vc_o),
    .in_cc_o            (in_cc_o),
    .nx_out_valid_o     (nx_out_valid_o),
    .nx_out_data_o      (nx_out_data_o),
    .nx_out_last_o      (nx_out_last_o),
    .nx_out_vc_o        (nx_out_vc_o),
    .nx_in_credit_valid_o (nx_in_credit_valid_o),
    .nx_in_credit_vc_o  (nx_in_credit_vc_o),
    .nx_in_cc_o         (nx_in_cc_o),
    .inj_valid_i        (tx_valid),
    .inj_ready_o        (tx_ready),
    .inj_data_i         (tx_data),
    .inj_last_i         (tx_last),
    .ej_valid_o         (rx_valid),
    .ej_ready_i         (rx_ready),
    .ej_data_o          (rx_data),
    .ej_last_o          (rx_last),
    .ans_inj_valid_i    (atx_valid),
    .ans_inj_ready_o    (atx_ready),
    .ans_inj_data_i     (atx_data),
    .ans_inj_last_i     (atx_last),
    .ans_ej_valid_o     (arx_valid),
    .ans_ej_ready_i     (arx_ready),
    .ans_ej_data_o      (arx_data),
    .ans_ej_last_o      (arx_last),
    .drop_o             (drop),
    .drop_cnt_o         (net_drop_cnt_o),
    .dbg_busy_o         (dbg_busy_o),
    .dbg_move_o         (dbg_move_o),
    .coll_in_valid_i    (ct_valid),
    .coll_in_ready_o    (ct_ready),
    .coll_in_data_i     (ct_data),
    .coll_in_last_i     (ct_last),
    .coll_out_valid_o   (cr_valid),
    .coll_out_ready_i   (cr_ready),
    .coll_out_data_o    (cr_data),
    .coll_out_last_o    (cr_last),
    .coll_out_chan_o    (cr_chan),
    .coll_tab_we_i      (tab_we),
    .coll_tab_sel_i     (tab_sel),
    .coll_tab_wdata_i   (tab_wdata),
    .coll_tab_err_o     (tab_err),
    .coll_tab_rdata_o   (tab_rdata),
    .coll_drop_o        (cdrop),
    .coll_drop_info_o   (cdrop_info),
    .coll_err_o         (cerr),
    .coll_err_info_o    (cerr_info),
    .coll_dbg_sel_i     (coll_dbg_sel_i),
    .coll_dbg_got_o     (coll_dbg_got_o),
    .coll_dbg_exp_o     (coll_dbg_exp_o),
    .coll_dbg_state_o   (coll_dbg_state_o),
    .coll_wake_o        (coll_wake)
  );
endmodule
