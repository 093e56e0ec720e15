`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_torus_net: a whole network: one node (skif_net_node: adapter, router,
// collective engine) per position of a 1..4-D torus, wired by
// skif_torus_links.
//
// Handshake: per node, the skif_adapter host-side ports (register port,
// DMA port, irq), flattened into vectors with node i in slice i (the same
// ports for every network size); see skif_adapter for their protocols. Node i is
// rank i in X-fastest order; its node id (NODE register, header src/dst) is
// its packed coordinates {w, z, y, x}. Adapter i's net_tx/net_rx connect to
// router i's local port (valid/ready, data held while valid && !ready).
// net_drop_cnt_o[i*32 +: 32] is router i's count of local packets dropped at
// injection because their dst lies outside the torus; each drop is also a
// net_drop_i pulse to adapter i (NET_DROPS register, STATUS.NET_DROP).
`include "skif_defs.vh"

module skif_torus_net #(
  parameter int NDims       = 2,    // torus dimensions used, 1..4 (X, Y, Z, W)
  parameter int SizeX       = 2,    // ring size in X, 2..16
  parameter int SizeY       = 2,    // ring size in Y, 2..16 if NDims >= 2, else 1
  parameter int SizeZ       = 1,    // ring size in Z, 2..16 if NDims >= 3, else 1
  parameter int SizeW       = 1,    // ring size in W, 2..16 if NDims == 4, else 1
  parameter int VcDepth     = `SKIF_VC_DEPTH,   // router: flits per input VC buffer, 2..64 (docs/router.md: cost)
  parameter int NumVcs      = `SKIF_NUM_VCS,    // router: VCs per class, 1..4
  parameter int DmaMaxReads = 256,  // per adapter: max outstanding DMA reads (covers a 128-cycle host round trip with room)
  parameter int Trees       = `SKIF_COLL_TREES,  // collective engine: tree table entries
  localparam int Nodes      = SizeX * SizeY * SizeZ * SizeW,
  localparam int Links      = 2 * NDims,
  localparam int SlotW      = $clog2(Trees) + 5
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [Nodes-1:0]     reg_req_valid_i,
  output logic [Nodes-1:0]     reg_req_ready_o,
  input  logic [Nodes-1:0]     reg_req_write_i,
  input  logic [Nodes*12-1:0]  reg_req_addr_i,
  input  logic [Nodes*32-1:0]  reg_req_wdata_i,
  output logic [Nodes-1:0]     reg_rsp_valid_o,
  output logic [Nodes*32-1:0]  reg_rsp_rdata_o,
  output logic [Nodes-1:0]     reg_rsp_err_o,
  output logic [Nodes-1:0]     dma_req_valid_o,
  input  logic [Nodes-1:0]     dma_req_ready_i,
  output logic [Nodes-1:0]     dma_req_write_o,
  output logic [Nodes*64-1:0]  dma_req_addr_o,
  output logic [Nodes*64-1:0]  dma_req_wdata_o,
  output logic [Nodes*8-1:0]   dma_req_wstrb_o,
  input  logic [Nodes-1:0]     dma_rsp_valid_i,
  input  logic [Nodes*64-1:0]  dma_rsp_data_i,
  input  logic [Nodes-1:0]     dma_rsp_err_i,
  output logic [Nodes-1:0]     irq_o,
  output logic [Nodes*32-1:0]  net_drop_cnt_o,
  // router debug, node i in slice i: input VC holds a flit / sent one this
  // cycle (bit numbering in skif_torus_router), for a simulator's watchdog
  output logic [Nodes*(2*NDims+1)*`SKIF_VC_CLASSES*NumVcs-1:0] dbg_busy_o,
  output logic [Nodes*(2*NDims+1)*`SKIF_VC_CLASSES*NumVcs-1:0] dbg_move_o,
  // collective engines, for a simulator's watchdog: slot coll_dbg_sel_i of
  // every node (contributions so far, contributions expected: bit p = link
  // port p, bit 2*NDims = the host) and the engines' unit states
  input  logic [SlotW-1:0]              coll_dbg_sel_i,
  output logic [Nodes*(Links+1)-1:0]    coll_dbg_got_o,
  output logic [Nodes*(Links+1)-1:0]    coll_dbg_exp_o,
  output logic [Nodes*8-1:0]            coll_dbg_state_o
);
  localparam int VcW  = $clog2(`SKIF_VC_CLASSES * NumVcs);
  localparam int DbgW = (Links + 1) * `SKIF_VC_CLASSES * NumVcs;

  // Links, indexed by node and port (see skif_torus_links): out ports and
  // in-port credits of every node, and what they feed.
  logic [Nodes*Links-1:0]     lk_valid, lk_last, cr_valid, in_valid, in_last, oc_valid;
  logic [Nodes*Links*64-1:0]  lk_data, in_data;
  logic [Nodes*Links*VcW-1:0] lk_vc, cr_vc, in_vc, oc_vc;
  logic [Nodes*Links*2-1:0]   cc, occ;
  logic [19:0]                sizes;
  logic [Nodes*16-1:0]        id;

  skif_torus_links #(
    .NDims (NDims), .SizeX (SizeX), .SizeY (SizeY), .SizeZ (SizeZ), .SizeW (SizeW), .VcW (VcW)
  ) u_links (
    .sizes_o     (sizes),
    .id_o        (id),
    .out_valid_i (lk_valid),
    .out_data_i  (lk_data),
    .out_last_i  (lk_last),
    .out_vc_i    (lk_vc),
    .cr_valid_i  (cr_valid),
    .cr_vc_i     (cr_vc),
    .cc_i        (cc),
    .in_valid_o  (in_valid),
    .in_data_o   (in_data),
    .in_last_o   (in_last),
    .in_vc_o     (in_vc),
    .oc_valid_o  (oc_valid),
    .oc_vc_o     (oc_vc),
    .occ_o       (occ)
  );

  for (genvar i = 0; i < Nodes; i++) begin : g_node
    // the link registers' next values: for a one-node simulator only
    logic [Links-1:0]     unused_nx_valid, unused_nx_last, unused_nx_cr_valid;
    logic [Links*64-1:0]  unused_nx_data;
    logic [Links*VcW-1:0] unused_nx_vc, unused_nx_cr_vc;
    logic [Links*2-1:0]   unused_nx_cc;
    logic                 unused_wake;  // the engine's clock is not gated here
    skif_net_node #(
      .NDims       (NDims),
      .VcDepth     (VcDepth),
      .NumVcs      (NumVcs),
      .DmaMaxReads (DmaMaxReads),
      .Trees       (Trees)
    ) u_node (
      .clk_i              (clk_i),
      .eng_clk_i          (clk_i),
      .rst_ni             (rst_ni),
      .node_id_i          (id[i*16 +: 16]),
      .sizes_i            (sizes),
      .reg_req_valid_i    (reg_req_valid_i[i]),
      .reg_req_ready_o    (reg_req_ready_o[i]),
      .reg_req_write_i    (reg_req_write_i[i]),
      .reg_req_addr_i     (reg_req_addr_i[i*12 +: 12]),
      .reg_req_wdata_i    (reg_req_wdata_i[i*32 +: 32]),
      .reg_rsp_valid_o    (reg_rsp_valid_o[i]),
      .reg_rsp_rdata_o    (reg_rsp_rdata_o[i*32 +: 32]),
      .reg_rsp_err_o      (reg_rsp_err_o[i]),
      .dma_req_valid_o    (dma_req_valid_o[i]),
      .dma_req_ready_i    (dma_req_ready_i[i]),
      .dma_req_write_o    (dma_req_write_o[i]),
      .dma_req_addr_o     (dma_req_addr_o[i*64 +: 64]),
      .dma_req_wdata_o    (dma_req_wdata_o[i*64 +: 64]),
      .dma_req_wstrb_o    (dma_req_wstrb_o[i*8 +: 8]),
      .dma_rsp_valid_i    (dma_rsp_valid_i[i]),
      .dma_rsp_data_i     (dma_rsp_data_i[i*64 +: 64]),
      .dma_rsp_err_i      (dma_rsp_err_i[i]),
      .irq_o              (irq_o[i]),
      .net_drop_cnt_o     (net_drop_cnt_o[i*32 +: 32]),
      .out_valid_o        (lk_valid[i*Links +: Links]),
      .out_data_o         (lk_data[i*Links*64 +: Links*64]),
      .out_last_o         (lk_last[i*Links +: Links]),
      .out_vc_o           (lk_vc[i*Links*VcW +: Links*VcW]),
      .out_credit_valid_i (oc_valid[i*Links +: Links]),
      .out_credit_vc_i    (oc_vc[i*Links*VcW +: Links*VcW]),
      .out_cc_i           (occ[i*Links*2 +: Links*2]),
      .in_valid_i         (in_valid[i*Links +: Links]),
      .in_data_i          (in_data[i*Links*64 +: Links*64]),
      .in_last_i          (in_last[i*Links +: Links]),
      .in_vc_i            (in_vc[i*Links*VcW +: Links*VcW]),
      .in_credit_valid_o  (cr_valid[i*Links +: Links]),
      .in_credit_vc_o     (cr_vc[i*Links*VcW +: Links*VcW]),
      .in_cc_o            (cc[i*Links*2 +: Links*2]),
      .nx_out_valid_o     (unused_nx_valid),
      .nx_out_data_o      (unused_nx_data),
      .nx_out_last_o      (unused_nx_last),
      .nx_out_vc_o        (unused_nx_vc),
      .nx_in_credit_valid_o (unused_nx_cr_valid),
      .nx_in_credit_vc_o  (unused_nx_cr_vc),
      .nx_in_cc_o         (unused_nx_cc),
      .dbg_busy_o         (dbg_busy_o[i*DbgW +: DbgW]),
      .dbg_move_o         (dbg_move_o[i*DbgW +: DbgW]),
      .coll_dbg_sel_i     (coll_dbg_sel_i),
      .coll_dbg_got_o     (coll_dbg_got_o[i*(Links+1) +: Links+1]),
      .coll_dbg_exp_o     (coll_dbg_exp_o[i*(Links+1) +: Links+1]),
      .coll_dbg_state_o   (coll_dbg_state_o[i*8 +: 8]),
      .eng_wake_o         (unused_wake)
    );
  end
endmodule
