`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_torus_net: one adapter per node on a 1..4-D torus of routers and
// collective engines (skif_torus_fabric).
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
  parameter int VcDepth     = 32,   // router: flits per input VC buffer, 2..64 (docs/router.md: cost)
  parameter int NumVcs      = 2,    // router: VCs per class, 1..4
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
  output logic [Nodes*(2*NDims+1)*4*NumVcs-1:0] dbg_busy_o,
  output logic [Nodes*(2*NDims+1)*4*NumVcs-1:0] dbg_move_o,
  // collective engines, for a simulator's watchdog: slot coll_dbg_sel_i of
  // every node (contributions so far, contributions expected: bit p = link
  // port p, bit 2*NDims = the host) and the engines' unit states
  input  logic [SlotW-1:0]              coll_dbg_sel_i,
  output logic [Nodes*(Links+1)-1:0]    coll_dbg_got_o,
  output logic [Nodes*(Links+1)-1:0]    coll_dbg_exp_o,
  output logic [Nodes*8-1:0]            coll_dbg_state_o
);
  localparam int StrZ = SizeX * SizeY;
  localparam int StrW = SizeX * SizeY * SizeZ;

  logic [Nodes-1:0]      tx_valid, tx_ready, tx_last, rx_valid, rx_ready, rx_last, drop;
  logic [Nodes*64-1:0]   tx_data, rx_data;
  // adapters <-> collective engines
  logic [Nodes-1:0]      ct_valid, ct_ready, ct_last, cr_valid, cr_ready, cr_last, tab_we, tab_err, cerr;
  logic [Nodes*64-1:0]   ct_data, cr_data;
  logic [Nodes*8-1:0]    cr_chan, tab_sel;
  logic [Nodes*32-1:0]   tab_wdata, tab_rdata, cdrop_info, cerr_info;
  logic [Nodes*2-1:0]    cdrop;

  for (genvar i = 0; i < Nodes; i++) begin : g_node
    // node id: packed coordinates of rank i
    localparam logic [15:0] Id = {4'(i / StrW), 4'((i / StrZ) % SizeZ), 4'((i / SizeX) % SizeY), 4'(i % SizeX)};

    skif_adapter #(
      .DmaMaxReads (DmaMaxReads),
      .Trees       (Trees)
    ) u_adapter (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .node_id_i       (Id),
      .reg_req_valid_i (reg_req_valid_i[i]),
      .reg_req_ready_o (reg_req_ready_o[i]),
      .reg_req_write_i (reg_req_write_i[i]),
      .reg_req_addr_i  (reg_req_addr_i[i*12 +: 12]),
      .reg_req_wdata_i (reg_req_wdata_i[i*32 +: 32]),
      .reg_rsp_valid_o (reg_rsp_valid_o[i]),
      .reg_rsp_rdata_o (reg_rsp_rdata_o[i*32 +: 32]),
      .reg_rsp_err_o   (reg_rsp_err_o[i]),
      .dma_req_valid_o (dma_req_valid_o[i]),
      .dma_req_ready_i (dma_req_ready_i[i]),
      .dma_req_write_o (dma_req_write_o[i]),
      .dma_req_addr_o  (dma_req_addr_o[i*64 +: 64]),
      .dma_req_wdata_o (dma_req_wdata_o[i*64 +: 64]),
      .dma_req_wstrb_o (dma_req_wstrb_o[i*8 +: 8]),
      .dma_rsp_valid_i (dma_rsp_valid_i[i]),
      .dma_rsp_data_i  (dma_rsp_data_i[i*64 +: 64]),
      .dma_rsp_err_i   (dma_rsp_err_i[i]),
      .irq_o           (irq_o[i]),
      .net_tx_valid_o  (tx_valid[i]),
      .net_tx_ready_i  (tx_ready[i]),
      .net_tx_data_o   (tx_data[i*64 +: 64]),
      .net_tx_last_o   (tx_last[i]),
      .net_rx_valid_i  (rx_valid[i]),
      .net_rx_ready_o  (rx_ready[i]),
      .net_rx_data_i   (rx_data[i*64 +: 64]),
      .net_rx_last_i   (rx_last[i]),
      .net_drop_i      (drop[i]),
      .coll_tx_valid_o (ct_valid[i]),
      .coll_tx_ready_i (ct_ready[i]),
      .coll_tx_data_o  (ct_data[i*64 +: 64]),
      .coll_tx_last_o  (ct_last[i]),
      .coll_rx_valid_i (cr_valid[i]),
      .coll_rx_ready_o (cr_ready[i]),
      .coll_rx_data_i  (cr_data[i*64 +: 64]),
      .coll_rx_last_i  (cr_last[i]),
      .coll_rx_chan_i  (cr_chan[i*8 +: 8]),
      .coll_tab_we_o   (tab_we[i]),
      .coll_tab_sel_o  (tab_sel[i*8 +: 8]),
      .coll_tab_wdata_o(tab_wdata[i*32 +: 32]),
      .coll_tab_err_i  (tab_err[i]),
      .coll_tab_rdata_i(tab_rdata[i*32 +: 32]),
      .coll_drop_i     (cdrop[i*2 +: 2]),
      .coll_drop_info_i(cdrop_info[i*32 +: 32]),
      .coll_err_i      (cerr[i]),
      .coll_err_info_i (cerr_info[i*32 +: 32])
    );
  end

  skif_torus_fabric #(
    .NDims   (NDims),
    .SizeX   (SizeX),
    .SizeY   (SizeY),
    .SizeZ   (SizeZ),
    .SizeW   (SizeW),
    .VcDepth (VcDepth),
    .NumVcs  (NumVcs),
    .Trees   (Trees)
  ) u_fabric (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .inj_valid_i (tx_valid),
    .inj_ready_o (tx_ready),
    .inj_data_i  (tx_data),
    .inj_last_i  (tx_last),
    .ej_valid_o  (rx_valid),
    .ej_ready_i  (rx_ready),
    .ej_data_o   (rx_data),
    .ej_last_o   (rx_last),
    .drop_o      (drop),
    .drop_cnt_o  (net_drop_cnt_o),
    .dbg_busy_o  (dbg_busy_o),
    .dbg_move_o  (dbg_move_o),
    .coll_in_valid_i  (ct_valid),
    .coll_in_ready_o  (ct_ready),
    .coll_in_data_i   (ct_data),
    .coll_in_last_i   (ct_last),
    .coll_out_valid_o (cr_valid),
    .coll_out_ready_i (cr_ready),
    .coll_out_data_o  (cr_data),
    .coll_out_last_o  (cr_last),
    .coll_out_chan_o  (cr_chan),
    .coll_tab_we_i    (tab_we),
    .coll_tab_sel_i   (tab_sel),
    .coll_tab_wdata_i (tab_wdata),
    .coll_tab_err_o   (tab_err),
    .coll_tab_rdata_o (tab_rdata),
    .coll_drop_o      (cdrop),
    .coll_drop_info_o (cdrop_info),
    .coll_err_o       (cerr),
    .coll_err_info_o  (cerr_info),
    .coll_dbg_sel_i   (coll_dbg_sel_i),
    .coll_dbg_got_o   (coll_dbg_got_o),
    .coll_dbg_exp_o   (coll_dbg_exp_o),
    .coll_dbg_state_o (coll_dbg_state_o)
  );
endmodule
