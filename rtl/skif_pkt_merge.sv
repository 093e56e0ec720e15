`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_pkt_merge: two packet sources onto one valid/ready/last port, a
// whole packet at a time. The adapter merges with it TX and the PIO window
// into the collective engine, TX and the RMA engine's answers into the
// router's injection port, and the router's ejection and TX's loopback
// into the RMA engine.
//
// A source that offers a header keeps the port to its packet's last flit
// (a flit once offered is held until taken); between packets the two take
// turns when both wait; alone, source A sees the port's ready as if
// nothing were merged. No state but the lock and the turn.
`include "skif_defs.vh"

module skif_pkt_merge (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        a_valid_i,
  input  logic [63:0] a_data_i,
  input  logic        a_last_i,
  output logic        a_ready_o,
  input  logic        b_valid_i,
  input  logic [63:0] b_data_i,
  input  logic        b_last_i,
  output logic        b_ready_o,
  output logic        valid_o,
  output logic [63:0] data_o,
  output logic        last_o,
  input  logic        ready_i
);
  logic lock_q, lock_b_q, prio_b_q;  // a packet holds the port; it is B's; B's turn next
  logic sel_b;                       // B has the port this cycle

  assign sel_b   = lock_q ? lock_b_q : (b_valid_i && (!a_valid_i || prio_b_q));
  assign valid_o   = sel_b ? b_valid_i : a_valid_i;
  assign data_o    = sel_b ? b_data_i : a_data_i;
  assign last_o    = sel_b ? b_last_i : a_last_i;
  assign a_ready_o = ready_i && !sel_b;
  assign b_ready_o = ready_i && sel_b;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      lock_q   <= 1'b0;
      lock_b_q <= 1'b0;
      prio_b_q <= 1'b0;
    end else begin
      if (valid_o) begin
        lock_q   <= !(ready_i && last_o);
        lock_b_q <= sel_b;
      end
      if (valid_o && ready_i && last_o) prio_b_q <= !sel_b;
    end
  end
endmodule
