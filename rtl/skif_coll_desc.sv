`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_coll_desc: what a kind-1 (collective) TX descriptor says
// (docs/collectives.md, "Posting an operation"): the header flit of its
// packet for the collective engine, and whether it is one (kind 1, reserved
// bits clear; the length is checked by the users, against their limits).
// The TX engine (skif_tx, descriptors from the ring) and the PIO window
// (skif_coll_pio, descriptors written into registers) send the same packet
// from the same descriptor through this block.
`include "skif_defs.vh"

module skif_coll_desc (
  input  logic [63:0] desc_i,
  output logic [63:0] hdr_o,
  output logic        ok_o  // kind 1, reserved bits [19:16] and [31:28] zero
);
  assign ok_o = (desc_i[`SKIF_CDESC_KIND_LO +: 4] == `SKIF_DESC_KIND_COLL) &&
                (desc_i[19:16] == 4'h0) && (desc_i[31:28] == 4'h0);
  always @(*) begin
    hdr_o = '0;
    hdr_o[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO] = `SKIF_KIND_COLL_UP;
    hdr_o[`SKIF_CHDR_ARG_LO +: 16]             = desc_i[`SKIF_CDESC_ARG_LO +: 16];
    hdr_o[`SKIF_CHDR_CMD_LO +: 4]              = desc_i[`SKIF_CDESC_CMD_LO +: 4];
    hdr_o[`SKIF_CHDR_TYPE_LO +: 4]             = desc_i[`SKIF_CDESC_TYPE_LO +: 4];
    hdr_o[`SKIF_CHDR_TREE_LO +: 8]             = desc_i[`SKIF_CDESC_TREE_LO +: 8];
    hdr_o[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO]   = desc_i[`SKIF_CDESC_LEN_LO +: `SKIF_LEN_W];
    hdr_o[`SKIF_CHDR_RID_LO +: 5]              = desc_i[`SKIF_CDESC_RID_LO +: 5];
    hdr_o[`SKIF_CHDR_OP_LO +: 3]               = desc_i[`SKIF_CDESC_OP_LO +: 3];
  end
endmodule
