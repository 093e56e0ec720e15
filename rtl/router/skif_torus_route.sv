`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_torus_route: route computation of the torus router for one header flit.
//
// Handshake: none (combinational). en_i says a flit is there to route: with
// en_i = 0 the outputs are those of no route (port_o the local port, the rest
// zero) and the route logic is passed over. The router reads a link port's
// route only with a flit, so en_i changes no decision there; it spares a
// simulation the cost of routing idle ports. From the header's dst/src/kind, the node's
// own id and the port and VC the header came in on, gives the output port and
// output VC (dimension order X, Y, Z, W; shortest way round each ring; a
// tie at distance Size/2 goes PLUS or MINUS by a fixed function of the flow,
// `tie_minus` below; dateline VC classes), the VC a freshly injected packet
// uses at the local input port, and whether dst lies outside the torus.
//
// Port numbering (Ports = 2*NDims + 1): port 2d is dimension d PLUS (towards
// coordinate +1), port 2d+1 dimension d MINUS, port 2*NDims the local port.
// VC numbering (TotalVcs = 6*NumVcs): vc = class*NumVcs + sub, class 0/1 =
// message (and RMA request) before/after the dateline, 2 = collective towards
// the root (SKIF_KIND_COLL_UP), 3 = collective away from the root
// (SKIF_KIND_COLL_DOWN), 4/5 = RMA answer (SKIF_KIND_RMA_GET_RESP,
// SKIF_KIND_RMA_ACK) before/after the dateline: the answer network, routed
// exactly as messages; sub = (xor of the four nibbles of src ^ dst) % NumVcs,
// fixed per flow. At the destination vc_o names the ejection lane: 0, or
// AnsVc0 = 4*NumVcs for an answer (the router's answer ejection lane).
// See docs/router.md.
`include "skif_defs.vh"

module skif_torus_route #(
  parameter int NDims    = 2,  // torus dimensions used, 1..4 (X, Y, Z, W)
  parameter int NumVcs   = 1,  // VCs per class, 1..4
  parameter int Dateline = 1,  // 1: dateline class switch; 0 only to demonstrate the deadlock
  parameter int Tie      = 1,  // half a ring: 1 split per flow (tie_minus); 0 always PLUS (the first router)
  localparam int Ports    = 2 * NDims + 1,
  localparam int PortW    = $clog2(Ports),
  localparam int TotalVcs = `SKIF_VC_CLASSES * NumVcs,
  localparam int VcW      = $clog2(TotalVcs)
) (
  input  logic             en_i,       // a flit to route (0: no route: the local port, the rest zero)
  input  logic [15:0]      node_id_i,  // own coordinates: x [3:0], y [7:4], z [11:8], w [15:12]
  input  logic [19:0]      sizes_i,    // ring sizes, 5 bits each, X lowest (2..16; 1 beyond NDims)
  input  logic [15:0]      dst_i,      // header dst node
  input  logic [15:0]      src_i,      // header src node
  input  logic [3:0]       kind_i,     // header kind
  input  logic [PortW-1:0] in_port_i,  // port the header arrived on
  input  logic [VcW-1:0]   in_vc_i,    // VC the header arrived on
  output logic [PortW-1:0] port_o,     // output port
  output logic [VcW-1:0]   vc_o,       // output VC (port_o local: 0, an answer 4*NumVcs)
  output logic [VcW-1:0]   inj_vc_o,   // VC of the local input port for an injected packet
  output logic             ans_o,      // kind_i is an answer (classes 4/5)
  output logic             bad_o       // dst outside the torus
);
  localparam int LocalPort = 2 * NDims;

`ifndef SYNTHESIS
  if (NDims < 1 || NDims > 4) begin : g_bad_ndims
    `SKIF_BAD_PARAM("skif_torus NDims=%0d out of range 1..4", NDims)
  end
  if (NumVcs < 1 || NumVcs > 4) begin : g_bad_vcs
    `SKIF_BAD_PARAM("skif_torus NumVcs=%0d out of range 1..4", NumVcs)
  end
  if (Dateline != 0 && Dateline != 1) begin : g_bad_dateline
    `SKIF_BAD_PARAM("skif_torus Dateline=%0d must be 0 or 1", Dateline)
  end
  if (Tie != 0 && Tie != 1) begin : g_bad_tie
    `SKIF_BAD_PARAM("skif_torus Tie=%0d must be 0 or 1", Tie)
  end
`endif

  logic             coll, up, ans, found, plus, wrap, same_dim, in_post, ahead, alt;
  logic             par0, tie_minus;
  logic [15:0]      fl;
  logic [3:0]       hash, me_c, dst_c;
  logic [4:0]       sz, dplus;
  logic [2:0]       cls, kcls, mcls;  // class; at injection; a message's or answer's class 0
  logic [VcW-1:0]   sub;
  logic [PortW-1:0] port;

  assign ans_o = ans;

  always @(*) begin
    up      = 1'b0;
    coll    = 1'b0;
    ans     = 1'b0;
    mcls    = 3'd0;
    kcls    = 3'd0;
    fl      = '0;
    hash    = '0;
    sub     = '0;
    alt     = 1'b0;
    par0    = 1'b0;
    in_post = 1'b0;
    found    = 1'b0;
    bad_o    = 1'b0;
    port     = PortW'(LocalPort);
    cls      = 3'd0;
    plus     = 1'b0;
    wrap     = 1'b0;
    same_dim = 1'b0;
    ahead    = 1'b0;
    dplus    = 5'd0;
    tie_minus = 1'b0;
    me_c     = '0;
    dst_c    = '0;
    sz       = '0;
    if (en_i) begin
      up   = (kind_i == `SKIF_KIND_COLL_UP);
      coll = up || (kind_i == `SKIF_KIND_COLL_DOWN);
      ans  = (kind_i == `SKIF_KIND_RMA_GET_RESP) || (kind_i == `SKIF_KIND_RMA_ACK);
      mcls = ans ? 3'd4 : 3'd0;
      kcls = coll ? (up ? 3'd2 : 3'd3) : mcls;
      // Flow hash: the same for every packet of a (src, dst) pair, at every hop.
      fl   = src_i ^ dst_i;
      hash = fl[3:0] ^ fl[7:4] ^ fl[11:8] ^ fl[15:12];
      sub  = VcW'(4'(hash % 4'(NumVcs)));
      // class of a message that never crosses the wrap link of a dimension
      alt  = hash[1] ^ hash[2] ^ hash[3];
      // parity of bit 0 of src ^ dst over all four coordinates
      par0 = fl[0] ^ fl[4] ^ fl[8] ^ fl[12];
      // The header came in on a port of the dimension it still travels in, in
      // class 1 or 5 (it already crossed that ring's wrap link).
      in_post = ((in_vc_i >= VcW'(NumVcs)) && (in_vc_i < VcW'(2 * NumVcs))) ||
                ((in_vc_i >= VcW'(5 * NumVcs)) && (in_vc_i < VcW'(6 * NumVcs)));
      cls  = mcls;
      for (int d = 0; d < 4; d++) begin
        me_c  = node_id_i[4*d +: 4];
        dst_c = dst_i[4*d +: 4];
        sz    = sizes_i[5*d +: 5];
        if (d >= NDims) begin
          if (dst_c != 4'd0) bad_o = 1'b1;
        end else begin
          if ({1'b0, dst_c} >= sz) bad_o = 1'b1;
          if (!found && dst_c != me_c) begin
            found = 1'b1;
            // distance going PLUS, 1..sz-1
            dplus = (dst_c >= me_c) ? {1'b0, dst_c} - {1'b0, me_c}
                                    : {1'b0, dst_c} + sz - {1'b0, me_c};
            // Exactly half the ring (only possible at the first hop in this
            // dimension, where me_c is src's coordinate): MINUS iff bit 0 of
            // src's coordinate here, xor bit 0 of src ^ dst in every other
            // dimension, is 1. A fixed function of the flow, so every packet of
            // a flow takes the same path; on a ring of 4k nodes each direction
            // carries exactly half of the ties (docs/router.md, "Tie-break").
            tie_minus = (Tie != 0) && (src_i[4*d] ^ par0 ^ fl[4*d]);
            // messages: shortest way; collectives: never across the wrap link
            plus = coll ? (dst_c > me_c)
                        : (({dplus, 1'b0} < {1'b0, sz}) || ({dplus, 1'b0} == {1'b0, sz} && !tie_minus));
            port = plus ? PortW'(2 * d) : PortW'(2 * d + 1);
            // this hop uses the ring's wrap link (size-1 -> 0 PLUS, 0 -> size-1 MINUS)
            wrap = plus ? ({1'b0, me_c} == sz - 5'd1) : (me_c == 4'd0);
            same_dim = (in_port_i != PortW'(LocalPort)) && (in_port_i[PortW-1:1] == (PortW-1)'(d));
            // the rest of the way in this dimension crosses the wrap link
            ahead = plus ? (dst_c < me_c) : (dst_c > me_c);
            if (coll)                                                  cls = kcls;
            else if (Dateline != 0 && (wrap || (same_dim && in_post))) cls = mcls + 3'd1;
            else if (Dateline != 0 && !ahead && alt)                   cls = mcls + 3'd1;
            else                                                       cls = mcls;
          end
        end
      end
    end
  end

  assign port_o   = port;
  assign vc_o     = found ? VcW'(cls) * VcW'(NumVcs) + sub : (ans ? VcW'(4 * NumVcs) : '0);
  assign inj_vc_o = VcW'(kcls) * VcW'(NumVcs) + sub;
endmodule
