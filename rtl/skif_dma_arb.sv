`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_dma_arb: shares the adapter's DMA request port between the TX and RX engines.
//
// Handshake: each engine offers a request with valid/ready (an engine may
// withdraw a request that was not accepted; the arbiter takes it only on
// valid && ready). The arbiter registers the winner in an output stage that
// speaks valid/ready on dma_req_*, data held while valid && !ready; the stage
// takes a new request in the cycle it empties, so throughput is one request
// per cycle. Round-robin between TX and RX: after a grant the other engine
// has priority, so neither starves. Read responses (in order, no
// back-pressure) all belong to TX and are passed through. stat_done_o pulses
// when a request tagged as a status-block write is accepted on dma_req_*.
module skif_dma_arb (
  input  logic        clk_i,
  input  logic        rst_ni,
  // TX engine: ring reads and TX_HEAD status writes
  input  logic        tx_valid_i,
  output logic        tx_ready_o,
  input  logic        tx_write_i,
  input  logic [63:0] tx_addr_i,
  input  logic [63:0] tx_wdata_i,
  input  logic        tx_stat_i,      // this request is a status-block write
  // RX engine: writes only
  input  logic        rx_valid_i,
  output logic        rx_ready_o,
  input  logic [63:0] rx_addr_i,
  input  logic [63:0] rx_wdata_i,
  input  logic        rx_stat_i,      // this request is a status-block write
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
  // read responses to TX
  output logic        tx_rsp_valid_o,
  output logic [63:0] tx_rsp_data_o,
  output logic        tx_rsp_err_o,
  output logic        stat_done_o
);
  logic        out_valid_q, out_write_q, out_stat_q;
  logic [63:0] out_addr_q, out_wdata_q;
  logic        rx_prio_q;   // 1: RX wins a tie next time
  logic        take, gnt_tx, gnt_rx;

  assign take   = !out_valid_q || dma_req_ready_i;
  assign gnt_tx = tx_valid_i && (!rx_valid_i || !rx_prio_q);
  assign gnt_rx = rx_valid_i && (!tx_valid_i || rx_prio_q);
  assign tx_ready_o = take && gnt_tx;
  assign rx_ready_o = take && gnt_rx;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      out_valid_q <= 1'b0;
      rx_prio_q   <= 1'b0;
    end else begin
      if (take) out_valid_q <= gnt_tx || gnt_rx;
      if (take && gnt_tx) rx_prio_q <= 1'b1;
      else if (take && gnt_rx) rx_prio_q <= 1'b0;
    end
  end

  // Datapath of the output stage: not reset.
  always @(posedge clk_i) begin
    if (take && gnt_tx) begin
      out_write_q <= tx_write_i;
      out_stat_q  <= tx_stat_i;
      out_addr_q  <= tx_addr_i;
      out_wdata_q <= tx_write_i ? tx_wdata_i : 64'h0;
    end else if (take && gnt_rx) begin
      out_write_q <= 1'b1;
      out_stat_q  <= rx_stat_i;
      out_addr_q  <= rx_addr_i;
      out_wdata_q <= rx_wdata_i;
    end
  end

  assign dma_req_valid_o = out_valid_q;
  assign dma_req_write_o = out_write_q;
  assign dma_req_addr_o  = out_addr_q;
  assign dma_req_wdata_o = out_wdata_q;
  assign dma_req_wstrb_o = out_write_q ? 8'hFF : 8'h00;
  assign stat_done_o     = out_valid_q && dma_req_ready_i && out_stat_q;

  assign tx_rsp_valid_o = dma_rsp_valid_i;
  assign tx_rsp_data_o  = dma_rsp_data_i;
  assign tx_rsp_err_o   = dma_rsp_err_i;
endmodule
