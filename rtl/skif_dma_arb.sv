`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_dma_arb: shares the adapter's DMA request port between its engines
// (Clients of them: TX, RX, and whatever a later engine adds).
//
// Handshake: each client offers a request with valid/ready (a client may
// withdraw a request that was not accepted; the arbiter takes it only on
// valid && ready). The arbiter registers the winner in an output stage that
// speaks valid/ready on dma_req_*, data held while valid && !ready; the stage
// takes a new request in the cycle it empties, so throughput is one request
// per cycle. Round-robin among the clients: after a grant the clients after
// the winner come first, so none starves. Read responses come back in
// request order with no back-pressure; a tag FIFO of the client of every read
// accepted on dma_req_* (MaxReads entries: the clients together never have
// more reads outstanding) steers each response to its client (rsp_valid_o
// one-hot, data and err shared). stat_done_o pulses when a request tagged as
// a status-block write is accepted on dma_req_*.
`include "skif_defs.vh"

module skif_dma_arb #(
  parameter int Clients  = 2,    // engines sharing the port, 1..8
  parameter int MaxReads = 256,  // reads outstanding at the port at most (tag FIFO depth, >= 2)
  localparam int CW = (Clients > 1) ? $clog2(Clients) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // clients: client c in slice c
  input  logic [Clients-1:0]    req_valid_i,
  output logic [Clients-1:0]    req_ready_o,
  input  logic [Clients-1:0]    req_write_i,
  input  logic [Clients*64-1:0] req_addr_i,
  input  logic [Clients*64-1:0] req_wdata_i,
  input  logic [Clients-1:0]    req_stat_i,   // the request is a status-block write
  output logic [Clients-1:0]    rsp_valid_o,  // a read response for client c
  output logic [63:0]           rsp_data_o,
  output logic                  rsp_err_o,
  // DMA port
  output logic        dma_req_valid_o,
  input  logic        dma_req_ready_i,
  output logic        dma_req_write_o,
  output logic [63:0] dma_req_addr_o,
  output logic [63:0] dma_req_wdata_o,
  output logic [7:0]  dma_req_wstrb_o,
  input  logic        dma_rsp_valid_i,
  input  logic [63:0] dma_rsp_data_i,
  input  logic        dma_rsp_err_i,
  output logic        stat_done_o
);
`ifndef SYNTHESIS
  if (Clients < 1 || Clients > 8) begin : g_bad_clients
    `SKIF_BAD_PARAM("skif_dma_arb Clients=%0d out of range 1..8", Clients)
  end
  if (MaxReads < 2) begin : g_bad_reads
    `SKIF_BAD_PARAM("skif_dma_arb MaxReads=%0d must be >= 2", MaxReads)
  end
`endif

  logic              out_valid_q, out_write_q, out_stat_q;
  logic [63:0]       out_addr_q, out_wdata_q;
  logic [CW-1:0]     out_cl_q;
  logic [Clients-1:0] rr_q;      // 1 = at or after the round-robin pointer
  logic              take;
  logic [Clients-1:0] m, g;
  logic [CW-1:0]     win;

  assign take = !out_valid_q || dma_req_ready_i;
  always @(*) begin
    m   = req_valid_i & rr_q;
    g   = (m != '0) ? (m & (~m + 1'b1)) : (req_valid_i & (~req_valid_i + 1'b1));
    win = '0;
    for (int c = 0; c < Clients; c++) begin
      if (g[c]) win = CW'(c);
    end
  end
  assign req_ready_o = take ? g : '0;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      out_valid_q <= 1'b0;
      rr_q        <= '1;
    end else if (take) begin
      out_valid_q <= (req_valid_i != '0);
      if (req_valid_i != '0) rr_q <= ~((Clients'(1) << win) - 1'b1) << 1;
    end
  end

  // Datapath of the output stage: not reset.
  always @(posedge clk_i) begin
    if (take && req_valid_i != '0) begin
      out_write_q <= req_write_i[win];
      out_stat_q  <= req_stat_i[win];
      out_addr_q  <= req_addr_i[int'(win)*64 +: 64];
      out_wdata_q <= req_write_i[win] ? req_wdata_i[int'(win)*64 +: 64] : 64'h0;
      out_cl_q    <= win;
    end
  end

  assign dma_req_valid_o = out_valid_q;
  assign dma_req_write_o = out_write_q;
  assign dma_req_addr_o  = out_addr_q;
  assign dma_req_wdata_o = out_wdata_q;
  assign dma_req_wstrb_o = out_write_q ? 8'hFF : 8'h00;
  assign stat_done_o     = out_valid_q && dma_req_ready_i && out_stat_q;

  // read response steering
  logic          tag_push, tag_valid, unused_tag_ready;
  logic [CW-1:0] tag;
  assign tag_push = out_valid_q && dma_req_ready_i && !out_write_q;
  skif_fifo #(
    .Width (CW),
    .Depth (MaxReads)
  ) u_tags (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .push_valid_i (tag_push),
    .push_ready_o (unused_tag_ready),  // never full: reads outstanding <= MaxReads
    .push_data_i  (out_cl_q),
    .pop_valid_o  (tag_valid),
    .pop_ready_i  (dma_rsp_valid_i),
    .pop_data_o   (tag)
  );
  always @(*) begin
    rsp_valid_o = '0;
    if (dma_rsp_valid_i && tag_valid) rsp_valid_o[tag] = 1'b1;
  end
  assign rsp_data_o = dma_rsp_data_i;
  assign rsp_err_o  = dma_rsp_err_i;
endmodule
