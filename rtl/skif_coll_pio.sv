`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_coll_pio: the programmed-I/O collective window (registers COLL_PIO_LO,
// COLL_PIO_HI, COLL_PIO_DATA[0..15]; docs/collectives.md, "Posting an
// operation by programmed I/O").
//
// Software writes the payload words and the low half of a kind-1 collective
// descriptor (the TX ring's format), then the high half: that write launches
// the packet, which this block streams to the collective engine's host input
// exactly as skif_tx would (header flit, then ceil(len/8) payload flits, the
// bytes beyond len zeroed; payload words beyond the 8 staged ones are zero).
// The staged values stay until rewritten, so a repeated operation rewrites
// only what changed.
//
// Handshakes: we_i is a register write the register block accepted (the
// window's offsets only; skif_regs holds every write to the window, ready
// low, while busy_o is set, so a launch never overwrites one not yet taken
// and the staging registers never change under a packet being sent);
// go_ok_o says whether the descriptor {wdata_i, low half} may be launched
// (kind 1, reserved bits [19:16], [31:28] zero, length <= SKIF_MAX_MSG: the
// TX engine's descriptor check), for skif_regs to refuse a COLL_PIO_HI write
// otherwise. Packet out valid/ready, data held while valid && !ready, last on
// the final flit.
`include "skif_defs.vh"

module skif_coll_pio (
  input  logic        clk_i,
  input  logic        rst_ni,
  // accepted register writes to the window
  input  logic        we_i,
  input  logic [11:0] addr_i,
  input  logic [31:0] wdata_i,
  output logic        go_ok_o,
  output logic        busy_o,       // a launched packet is not yet wholly taken
  // to the collective engine's host input (through the adapter's arbiter)
  output logic        valid_o,
  input  logic        ready_i,
  output logic [63:0] data_o,
  output logic        last_o
);
  localparam int Words = `SKIF_COLL_MAX_RED / 8;
  localparam logic [11:0] MaxMsgC = 12'(`SKIF_MAX_MSG);

  logic [31:0] lo_q;
  logic [63:0] data_q [Words];
  logic [63:0] hdr_q;
  logic [11:0] len_q;
  logic [8:0]  rem_q, widx_q;   // payload flits left; index of the next payload word
  logic        busy_q, first_q;

  // ---------------------------------------------------------------- launch check
  logic [63:0] desc;
  logic [11:0] d_len;
  assign desc    = {wdata_i, lo_q};
  assign d_len   = desc[`SKIF_CDESC_LEN_LO +: `SKIF_LEN_W];
  logic [63:0] coll_hdr;
  logic        coll_ok;
  skif_coll_desc u_coll_desc (.desc_i(desc), .hdr_o(coll_hdr), .ok_o(coll_ok));
  assign go_ok_o = coll_ok && (d_len <= MaxMsgC);

  // ---------------------------------------------------------------- window decode
  logic        we_lo, we_go, we_data;
  logic [11:0] didx;
  assign we_lo   = we_i && (addr_i == `SKIF_REG_COLL_PIO_LO);
  assign we_go   = we_i && (addr_i == `SKIF_REG_COLL_PIO_HI);
  assign didx    = (addr_i - `SKIF_REG_COLL_PIO_DATA) >> 2;
  assign we_data = we_i && (addr_i >= `SKIF_REG_COLL_PIO_DATA) &&
                   (didx < 12'(`SKIF_COLL_PIO_REGS));
  logic unused_didx;
  assign unused_didx = ^didx[11:4];

  // ---------------------------------------------------------------- packet out
  logic [63:0] word, pay_mask;
  logic        take;
  assign word     = (widx_q < 9'(Words)) ? data_q[widx_q[$clog2(Words)-1:0]] : 64'h0;
  assign pay_mask = (rem_q == 9'd1 && len_q[2:0] != 3'd0)
                  ? ~(64'hFFFF_FFFF_FFFF_FFFF << {len_q[2:0], 3'b000}) : 64'hFFFF_FFFF_FFFF_FFFF;
  assign valid_o  = busy_q;
  assign data_o   = first_q ? hdr_q : (word & pay_mask);
  assign last_o   = first_q ? (len_q == 12'd0) : (rem_q == 9'd1);
  assign take     = busy_q && ready_i;
  assign busy_o   = busy_q;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      first_q <= 1'b0;
      lo_q    <= 32'h0;
      hdr_q   <= 64'h0;
      len_q   <= 12'h0;
      rem_q   <= 9'h0;
      widx_q  <= 9'h0;
      for (int i = 0; i < Words; i++) data_q[i] <= 64'h0;
    end else begin
      if (we_lo) lo_q <= wdata_i;
      if (we_data) begin
        if (didx[0]) data_q[didx[3:1]][63:32] <= wdata_i;
        else         data_q[didx[3:1]][31:0]  <= wdata_i;
      end
      if (we_go) begin
        busy_q  <= 1'b1;
        first_q <= 1'b1;
        hdr_q   <= coll_hdr;
        len_q   <= d_len;
        rem_q   <= 9'(({1'b0, d_len} + 13'd7) >> 3);
        widx_q  <= 9'h0;
      end else if (take) begin
        first_q <= 1'b0;
        if (!first_q) begin
          widx_q <= widx_q + 9'd1;
          rem_q  <= rem_q - 9'd1;
        end
        if (last_o) busy_q <= 1'b0;
      end
    end
  end
endmodule
