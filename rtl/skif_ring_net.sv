`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_ring_net: Nodes adapters on a 1-D ring of skif_ring_stop routers.
//
// Handshake: per node, the skif_adapter host-side ports (register port,
// DMA port, irq), flattened into vectors with node i in slice i; see
// skif_adapter for their protocols. Node i has id i; stop i's out link feeds
// stop (i+1) % Nodes. ring_drop_cnt_o[i*32 +: 32] is stop i's count of local
// packets dropped at injection because their dst node was >= Nodes; each
// drop also reaches adapter i (net_drop_i: NET_DROPS, STATUS.NET_DROP).
`include "skif_defs.vh"

module skif_ring_net #(
  parameter int Nodes       = 4,    // number of nodes on the ring, 2..16
  parameter int DmaMaxReads = 128   // per adapter: max outstanding DMA reads
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
  output logic [Nodes*32-1:0]  ring_drop_cnt_o
);
`ifndef SYNTHESIS
  if (Nodes < 2 || Nodes > 16) begin : g_bad_nodes
    `SKIF_BAD_PARAM("skif_ring_net Nodes=%0d out of range 2..16", Nodes)
  end
`endif

  // Ring links: link[i] is stop i's out, feeding stop (i+1) % Nodes.
  logic [Nodes-1:0]    link_valid, link_ready, link_last;
  logic [Nodes*64-1:0] link_data;

  for (genvar i = 0; i < Nodes; i++) begin : g_node
    localparam int Prev = (i + Nodes - 1) % Nodes;

    logic        tx_valid, tx_ready, tx_last, rx_valid, rx_ready, rx_last;
    logic [63:0] tx_data, rx_data;
    logic [31:0] drop_cnt, drop_cnt_q;
    logic        drop;

    // the stop only counts drops: a change of its counter is one drop
    always @(posedge clk_i) begin
      if (!rst_ni) drop_cnt_q <= 32'h0;
      else         drop_cnt_q <= drop_cnt;
    end
    assign drop = (drop_cnt != drop_cnt_q);
    assign ring_drop_cnt_o[i*32 +: 32] = drop_cnt;

    skif_adapter #(
      .DmaMaxReads (DmaMaxReads)
    ) u_adapter (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .node_id_i       (16'(i)),
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
      .net_tx_valid_o  (tx_valid),
      .net_tx_ready_i  (tx_ready),
      .net_tx_data_o   (tx_data),
      .net_tx_last_o   (tx_last),
      .net_rx_valid_i  (rx_valid),
      .net_rx_ready_o  (rx_ready),
      .net_rx_data_i   (rx_data),
      .net_rx_last_i   (rx_last),
      .net_drop_i      (drop)
    );

    skif_ring_stop #(
      .Nodes (Nodes)
    ) u_stop (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .node_id_i      (16'(i)),
      .in_valid_i     (link_valid[Prev]),
      .in_ready_o     (link_ready[Prev]),
      .in_data_i      (link_data[Prev*64 +: 64]),
      .in_last_i      (link_last[Prev]),
      .out_valid_o    (link_valid[i]),
      .out_ready_i    (link_ready[i]),
      .out_data_o     (link_data[i*64 +: 64]),
      .out_last_o     (link_last[i]),
      .loc_tx_valid_i (tx_valid),
      .loc_tx_ready_o (tx_ready),
      .loc_tx_data_i  (tx_data),
      .loc_tx_last_i  (tx_last),
      .loc_rx_valid_o (rx_valid),
      .loc_rx_ready_i (rx_ready),
      .loc_rx_data_o  (rx_data),
      .loc_rx_last_o  (rx_last),
      .drop_cnt_o     (drop_cnt)
    );
  end
endmodule
