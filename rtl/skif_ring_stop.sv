`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_ring_stop: 1-D ring router stop between the ring links and one adapter.
//
// Handshake: all four ports (in, out, loc_tx, loc_rx) are valid/ready links
// of 64-bit flits with `last` on the final flit of a packet; data held while
// valid && !ready. out_valid_o/out_data_o come from a FIFO (never from
// out_ready_i); in_ready_o depends on in_valid_i/in_data_i (header decode)
// but not on out_ready_i, so stops can be chained into a ring without a
// combinational loop.
//
// Datapath: `in` enters a BufDepth-flit skid FIFO; a packet whose header dst
// node equals node_id_i leaves on loc_rx, any other packet goes to the output
// queue. The output queue is written by one packet at a time (never
// interleaving two packets), round-robin between forwarded and local packets,
// and drains onto `out`. Hop latency 2 cycles (in FIFO + output queue), one
// flit per cycle.
//
// Deadlock freedom (bubble flow control): the output queue holds OutSlots
// packet slots of MaxFlits flits each. A packet to be forwarded reserves a slot
// when its header enters the input FIFO (in_ready_o stays low for that header
// until a slot is free); a local packet reserves one when its header enters
// the output queue, and only if two slots are free (the bubble); a slot is
// freed when the packet's last flit leaves on `out`. So every packet on the
// ring that is not about to be ejected holds a slot, the ring can never fill
// with packets that all wait for each other, and a reserved packet always
// finds room. Transit traffic is never held back for a local packet that does
// not yet meet its two-slot condition (that would reintroduce the deadlock),
// so round-robin fairness applies among the packets that may go.
//
// Injection filter: a local packet whose dst node is >= Nodes (it would circle
// forever) is consumed and discarded whole; drop_cnt_o counts such packets.
`include "skif_defs.vh"

module skif_ring_stop #(
  parameter int Nodes    = 4,  // node ids on the ring are 0..Nodes-1
  parameter int BufDepth = 4,  // input skid FIFO depth in flits (>= 2)
  parameter int OutSlots = 4   // output queue size in max-size packets (>= 2)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] node_id_i,
  // from the previous stop's out
  input  logic        in_valid_i,
  output logic        in_ready_o,
  input  logic [63:0] in_data_i,
  input  logic        in_last_i,
  // to the next stop's in
  output logic        out_valid_o,
  input  logic        out_ready_i,
  output logic [63:0] out_data_o,
  output logic        out_last_o,
  // from the local adapter (net_tx)
  input  logic        loc_tx_valid_i,
  output logic        loc_tx_ready_o,
  input  logic [63:0] loc_tx_data_i,
  input  logic        loc_tx_last_i,
  // to the local adapter (net_rx)
  output logic        loc_rx_valid_o,
  input  logic        loc_rx_ready_i,
  output logic [63:0] loc_rx_data_o,
  output logic        loc_rx_last_o,
  // local packets dropped at injection (dst >= Nodes), wrapping counter
  output logic [31:0] drop_cnt_o
);
  localparam int MaxFlits = 1 + `SKIF_MAX_MSG / 8;
  localparam int OutDepth = OutSlots * MaxFlits;
  localparam int SlotW    = $clog2(OutSlots + 1);
  localparam logic [SlotW-1:0] OutSlotsC = SlotW'(OutSlots);
  localparam logic [15:0] NodesC = 16'(Nodes);

`ifndef SYNTHESIS
  if (OutSlots < 2) begin : g_bad_slots
    `SKIF_BAD_PARAM("OutSlots=%0d must be >= 2", OutSlots)
  end
  if (Nodes < 1 || Nodes > 65536) begin : g_bad_nodes
    `SKIF_BAD_PARAM("Nodes=%0d out of range", Nodes)
  end
`endif

  // ---------------------------------------------------------------- input admission
  // A forwarded header may enter the input FIFO only with a free output slot.
  logic             in_hdr_q, in_fwd_hdr, in_slot_ok, in_push_ready, fwd_rsv;
  logic [SlotW-1:0] used_q, free;
  assign free       = OutSlotsC - used_q;
  assign in_fwd_hdr = in_hdr_q && (in_data_i[`SKIF_HDR_DST_HI:`SKIF_HDR_DST_LO] != node_id_i);
  assign in_slot_ok = !in_fwd_hdr || (used_q != OutSlotsC);
  assign in_ready_o = in_push_ready && in_slot_ok;
  assign fwd_rsv    = in_valid_i && in_ready_o && in_fwd_hdr;

  // ---------------------------------------------------------------- input FIFO and routing
  logic        ib_valid, ib_ready, ib_last;
  logic [63:0] ib_data;
  logic        ib_hdr_q, ib_loc_q, ib_loc;

  skif_fifo #(
    .Width (65),
    .Depth (BufDepth)
  ) u_in_fifo (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .push_valid_i (in_valid_i && in_slot_ok),
    .push_ready_o (in_push_ready),
    .push_data_i  ({in_last_i, in_data_i}),
    .pop_valid_o  (ib_valid),
    .pop_ready_i  (ib_ready),
    .pop_data_o   ({ib_last, ib_data})
  );

  assign ib_loc = ib_hdr_q ? (ib_data[`SKIF_HDR_DST_HI:`SKIF_HDR_DST_LO] == node_id_i) : ib_loc_q;

  assign loc_rx_valid_o = ib_valid && ib_loc;
  assign loc_rx_data_o  = ib_data;
  assign loc_rx_last_o  = ib_last;

  // ---------------------------------------------------------------- injection filter
  logic lt_hdr_q, lt_drop_q, lt_bad, lt_drop, lt_valid, lt_ready;
  logic [31:0] drop_cnt_q;
  assign lt_bad   = loc_tx_data_i[`SKIF_HDR_DST_HI:`SKIF_HDR_DST_LO] >= NodesC;
  assign lt_drop  = lt_hdr_q ? lt_bad : lt_drop_q;
  assign lt_valid = loc_tx_valid_i && !lt_drop;
  assign loc_tx_ready_o = lt_drop || lt_ready;

  // ---------------------------------------------------------------- output queue writer
  logic             fw_valid, fw_ready;
  logic             oq_push, oq_push_ready, oq_pop_valid, oq_pop, oq_last;
  logic [63:0]      oq_data, oq_push_data;
  logic             oq_push_last;
  logic             lock_q, sel_q, rr_q;  // sel/rr: 0 forwarded, 1 local
  logic             fw_ok, lt_ok, pick_lt, cur_lt, src_valid;

  // Forwarded packets in the input FIFO already hold their slot; a local
  // header needs two free slots besides one reserved by `in` this cycle.
  assign fw_valid = ib_valid && !ib_loc;
  assign fw_ok    = fw_valid;
  assign lt_ok    = lt_valid && ({1'b0, free} >= {1'b0, SlotW'(2)} + {{SlotW{1'b0}}, fwd_rsv});
  assign pick_lt  = lt_ok && (!fw_ok || rr_q);
  assign cur_lt   = lock_q ? sel_q : pick_lt;
  assign src_valid = lock_q ? (sel_q ? lt_valid : fw_valid) : (fw_ok || lt_ok);

  assign oq_push      = src_valid && oq_push_ready;
  assign oq_push_data = cur_lt ? loc_tx_data_i : ib_data;
  assign oq_push_last = cur_lt ? loc_tx_last_i : ib_last;
  assign fw_ready     = oq_push_ready && !cur_lt && src_valid;
  assign lt_ready     = oq_push_ready && cur_lt && src_valid;
  assign ib_ready     = ib_loc ? loc_rx_ready_i : fw_ready;

  skif_fifo #(
    .Width (65),
    .Depth (OutDepth)
  ) u_out_q (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .push_valid_i (oq_push),
    .push_ready_o (oq_push_ready),
    .push_data_i  ({oq_push_last, oq_push_data}),
    .pop_valid_o  (oq_pop_valid),
    .pop_ready_i  (out_ready_i),
    .pop_data_o   ({oq_last, oq_data})
  );

  assign out_valid_o = oq_pop_valid;
  assign out_data_o  = oq_data;
  assign out_last_o  = oq_last;
  assign oq_pop      = oq_pop_valid && out_ready_i;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      in_hdr_q   <= 1'b1;
      ib_hdr_q   <= 1'b1;
      ib_loc_q   <= 1'b0;
      lt_hdr_q   <= 1'b1;
      lt_drop_q  <= 1'b0;
      drop_cnt_q <= 32'h0;
      lock_q     <= 1'b0;
      sel_q      <= 1'b0;
      rr_q       <= 1'b0;
      used_q     <= '0;
    end else begin
      if (in_valid_i && in_ready_o) in_hdr_q <= in_last_i;
      if (ib_valid && ib_ready) begin
        ib_hdr_q <= ib_last;
        if (ib_hdr_q) ib_loc_q <= ib_loc;
      end
      if (loc_tx_valid_i && loc_tx_ready_o) begin
        lt_hdr_q <= loc_tx_last_i;
        if (lt_hdr_q) begin
          lt_drop_q <= lt_bad;
          if (lt_bad) drop_cnt_q <= drop_cnt_q + 32'd1;
        end
      end
      if (oq_push) begin
        lock_q <= !oq_push_last;
        if (!lock_q) begin
          sel_q <= cur_lt;
          rr_q  <= !cur_lt;  // the other source is preferred next time
        end
      end
      used_q <= used_q + SlotW'(fwd_rsv) + SlotW'(oq_push && !lock_q && cur_lt)
                       - SlotW'(oq_pop && oq_last);
    end
  end

  assign drop_cnt_o = drop_cnt_q;
endmodule
