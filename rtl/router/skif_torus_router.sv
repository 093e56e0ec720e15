`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_torus_router: wormhole virtual-channel router of a 1..4-D torus.
//
// Handshakes: the 2*NDims link ports use credit-based flow control per VC:
// forward out_valid/data/last/vc (one flit per cycle, from a register; the
// sender only sends on a VC it holds a credit for, so there is no ready),
// backward out_credit_valid/vc (one credit per freed flit). The local port
// is valid/ready, data held while valid && !ready, `last` on the final flit
// of a packet: inj_* (adapter -> router; inj_ready_o depends on inj_data_i
// through the header decode, never on ej_*) and ej_* (router -> adapter,
// from a 2-entry FIFO). drop_o pulses (registered) once per injected packet
// dropped for a dst outside the torus; drop_cnt_o counts them (wraps).
//
// Port p: 2d = dimension d PLUS, 2d+1 = dimension d MINUS, 2*NDims = local;
// link vectors hold port j in slice j. VC u = class*NumVcs + sub (class 0/1
// message before/after the ring's dateline, 2 collective up, 3 collective
// down). dbg_busy_o/dbg_move_o bit p*TotalVcs+u: input VC u of port p holds a
// flit / sent a flit this cycle. Pipeline: input VC buffer (1 cycle; each
// flit's route is computed as it enters and stored with it), then VC
// allocation + switch allocation + crossbar into the output register in one
// cycle: 2 cycles per hop including the link.
// docs/router.md describes routing, the dateline and arbitration.
`include "skif_defs.vh"

module skif_torus_router #(
  parameter int NDims    = 2,  // torus dimensions used, 1..4 (X, Y, Z, W)
  parameter int SizeX    = 4,  // ring size in X, 2..16
  parameter int SizeY    = 4,  // ring size in Y, 2..16 if NDims >= 2, else 1
  parameter int SizeZ    = 1,  // ring size in Z, 2..16 if NDims >= 3, else 1
  parameter int SizeW    = 1,  // ring size in W, 2..16 if NDims == 4, else 1
  parameter int VcDepth  = 4,  // flits per input VC buffer, 2..64 (>= 4: one flit/cycle on one VC)
  parameter int NumVcs   = 1,  // VCs per class (4 classes), 1..4
  parameter int Dateline = 1,  // 1: dateline VC classes; 0 only to demonstrate the deadlock
  localparam int Links    = 2 * NDims,
  localparam int Ports    = Links + 1,
  localparam int TotalVcs = 4 * NumVcs,
  localparam int VcW      = $clog2(TotalVcs)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni /*verilator public_flat_rd*/,
  input  logic [15:0]               node_id_i /*verilator public_flat_rd*/,  // own coordinates: x [3:0], y [7:4], z [11:8], w [15:12]
  // links to the neighbours (slice j = port j)
  output logic [Links-1:0]          out_valid_o,
  output logic [Links*64-1:0]       out_data_o,
  output logic [Links-1:0]          out_last_o,
  output logic [Links*VcW-1:0]      out_vc_o,
  input  logic [Links-1:0]          out_credit_valid_i /*verilator public_flat_rd*/,
  input  logic [Links*VcW-1:0]      out_credit_vc_i /*verilator public_flat_rd*/,
  input  logic [Links-1:0]          in_valid_i /*verilator public_flat_rd*/,
  input  logic [Links*64-1:0]       in_data_i /*verilator public_flat_rd*/,
  input  logic [Links-1:0]          in_last_i /*verilator public_flat_rd*/,
  input  logic [Links*VcW-1:0]      in_vc_i /*verilator public_flat_rd*/,
  output logic [Links-1:0]          in_credit_valid_o,
  output logic [Links*VcW-1:0]      in_credit_vc_o,
  // local port: injection from and ejection to the adapter
  input  logic                      inj_valid_i /*verilator public_flat_rd*/,
  output logic                      inj_ready_o,
  input  logic [63:0]               inj_data_i /*verilator public_flat_rd*/,
  input  logic                      inj_last_i /*verilator public_flat_rd*/,
  output logic                      ej_valid_o,
  input  logic                      ej_ready_i /*verilator public_flat_rd*/,
  output logic [63:0]               ej_data_o,
  output logic                      ej_last_o,
  // injected packets dropped for a bad dst
  output logic                      drop_o,
  output logic [31:0]               drop_cnt_o,
  // debug: per input VC (bit p*TotalVcs+u)
  output logic [Ports*TotalVcs-1:0] dbg_busy_o,
  output logic [Ports*TotalVcs-1:0] dbg_move_o
);
  // Every input port above carries "public_flat_rd" for Verilator only: it
  // keeps the port a variable of the router, so the simulator does not
  // substitute the parent's net (or the constant node id) into the router's
  // code. That code is then the same for every instance and is generated and
  // compiled once per torus, not once per router (docs/router.md, "Simulation").

  localparam int LocalPort = Links;
  localparam int PortW     = $clog2(Ports);
  localparam int NIv       = Ports * TotalVcs;      // input VCs (= output VCs)
  localparam int PvW       = PortW + VcW;           // {port, vc} of an output VC
  localparam int Kl        = 2 * Ports;             // VA candidates of a link output VC
  localparam int CntW      = $clog2(VcDepth + 1);
  localparam int AddrW     = $clog2(VcDepth);
  localparam logic [CntW-1:0]  VcDepthC = CntW'(VcDepth);
  localparam logic [AddrW-1:0] LastAddr = AddrW'(VcDepth - 1);

`ifndef SYNTHESIS
  if (VcDepth < 2 || VcDepth > 64) begin : g_bad_depth
    `SKIF_BAD_PARAM("skif_torus_router VcDepth=%0d out of range 2..64", VcDepth)
  end
`endif

  // bit masks of a one-hot to binary encoder: bit b of the index of a
  // one-hot vector of n bits is the OR of its bits k with k[b] set
  function automatic logic [63:0] enc_mask(input int n, input int b);
    logic [63:0] m;
    m = '0;
    for (int k = 0; k < n; k++) m[k] = ((k >> b) & 1) == 1;
    return m;
  endfunction

  // ---------------------------------------------------------------- per input VC
  logic [NIv-1:0]   f_valid, va_req, va_gnt, sa_req, pop;
  logic [PvW-1:0]   head_pv [NIv];  // routed output VC {port, vc} of the head flit
  logic [PvW-1:0]   tgt_pv [NIv];   // output VC of the packet at the head (held or routed)
  logic [NIv-1:0]   busy_q;         // per output VC o*TotalVcs+v: held by a packet
  logic [Ports*(1<<VcW)-1:0] ov_ok; // per output VC {port, vc}: a credit / ejection space
  logic             ej_push_ready;
  logic [NIv-1:0]   chk_ovf, chk_cred;  // for skif_torus_check (simulation only)

  // per input port: the VC stage 1 of switch allocation picked, and its head flit
  logic [VcW-1:0]   sa1_idx [Ports];
  logic [63:0]      rd_data [Ports];
  logic             rd_last [Ports];

  // local injection
  logic             inj_hdr_q, inj_drop_q, inj_bad, inj_drop, inj_fire;
  logic [VcW-1:0]   inj_vc_q, inj_vc_hdr, inj_vc, inj_ovc;
  logic [PortW-1:0] inj_port;
  logic [31:0]      drop_cnt_q;
  logic             drop_q;

  // Route of the local port's header (also its VC and the bad-dst check).
  // Routes are computed where a flit enters its buffer (one route per input
  // port, not per VC) and stored with it; only headers' routes are used.
  skif_torus_route #(
    .NDims (NDims), .SizeX (SizeX), .SizeY (SizeY), .SizeZ (SizeZ), .SizeW (SizeW),
    .NumVcs (NumVcs), .Dateline (Dateline)
  ) u_inj_route (
    .node_id_i (node_id_i),
    .dst_i     (inj_data_i[`SKIF_HDR_DST_HI:`SKIF_HDR_DST_LO]),
    .src_i     (inj_data_i[`SKIF_HDR_SRC_HI:`SKIF_HDR_SRC_LO]),
    .kind_i    (inj_data_i[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO]),
    .in_port_i (PortW'(LocalPort)),
    .in_vc_i   (VcW'(0)),
    .port_o    (inj_port),
    .vc_o      (inj_ovc),
    .inj_vc_o  (inj_vc_hdr),
    .bad_o     (inj_bad)
  );

  assign inj_drop = inj_hdr_q ? inj_bad : inj_drop_q;
  assign inj_vc   = inj_hdr_q ? inj_vc_hdr : inj_vc_q;
  assign inj_fire = inj_valid_i && inj_ready_o;

  logic [TotalVcs-1:0] inj_push_ready;
  assign inj_ready_o = inj_drop || inj_push_ready[inj_vc];

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      inj_hdr_q  <= 1'b1;
      inj_drop_q <= 1'b0;
      inj_vc_q   <= '0;
      drop_q     <= 1'b0;
      drop_cnt_q <= 32'h0;
    end else begin
      drop_q <= 1'b0;
      if (inj_fire) begin
        inj_hdr_q <= inj_last_i;
        if (inj_hdr_q) begin
          inj_drop_q <= inj_bad;
          inj_vc_q   <= inj_vc_hdr;
          if (inj_bad) begin
            drop_q     <= 1'b1;
            drop_cnt_q <= drop_cnt_q + 32'd1;
          end
        end
      end
    end
  end

  assign drop_o     = drop_q;
  assign drop_cnt_o = drop_cnt_q;

  // ---------------------------------------------------------------- input buffers
  // Per input port: TotalVcs FIFOs of VcDepth entries (first word fall
  // through, as skif_fifo) in one array, data and {last, route} apart: the
  // route of every VC's head is read each cycle, the data only of the VC that
  // stage 1 of switch allocation picked.
  for (genvar p = 0; p < Ports; p++) begin : g_in
    logic             w_valid, w_last;
    logic [VcW-1:0]   w_vc, w_ovc;
    logic [PortW-1:0] w_port;
    logic [63:0]      w_data;
    logic [TotalVcs-1:0] push, ready, valid, vpop;

    logic [63:0]               data_q [TotalVcs][VcDepth];
    logic [PvW:0]              meta_q [TotalVcs][VcDepth];  // {last, port, vc}
    logic [TotalVcs*AddrW-1:0] wr_ptrs, rd_ptrs;             // the VCs' pointers side by side
    logic [AddrW-1:0]          w_ptr, r_ptr;
    logic [PvW:0]              rd_meta;

    if (p == LocalPort) begin : g_loc
      assign w_valid = inj_valid_i && !inj_drop;
      assign w_vc    = inj_vc;
      assign w_data  = inj_data_i;
      assign w_last  = inj_last_i;
      assign w_port  = inj_port;
      assign w_ovc   = inj_ovc;
      assign inj_push_ready = ready;
    end else begin : g_link
      logic [VcW-1:0] unused_inj_vc;
      logic           unused_bad;
      assign w_valid = in_valid_i[p];
      assign w_vc    = in_vc_i[p*VcW +: VcW];
      assign w_data  = in_data_i[p*64 +: 64];
      assign w_last  = in_last_i[p];
      skif_torus_route #(
        .NDims (NDims), .SizeX (SizeX), .SizeY (SizeY), .SizeZ (SizeZ), .SizeW (SizeW),
        .NumVcs (NumVcs), .Dateline (Dateline)
      ) u_route (
        .node_id_i (node_id_i),
        .dst_i     (w_data[`SKIF_HDR_DST_HI:`SKIF_HDR_DST_LO]),
        .src_i     (w_data[`SKIF_HDR_SRC_HI:`SKIF_HDR_SRC_LO]),
        .kind_i    (w_data[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO]),
        .in_port_i (PortW'(p)),
        .in_vc_i   (w_vc),
        .port_o    (w_port),
        .vc_o      (w_ovc),
        .inj_vc_o  (unused_inj_vc),
        .bad_o     (unused_bad)
      );
    end

    // storage: not reset (datapath); at most one VC written per cycle
    assign w_ptr = wr_ptrs[w_vc*AddrW +: AddrW];
    always @(posedge clk_i) begin
      if (push != '0) begin
        data_q[w_vc][w_ptr] <= w_data;
        meta_q[w_vc][w_ptr] <= {w_last, w_port, w_ovc};
      end
    end

    // the head flit of the VC stage 1 picked (the crossbar's input)
    assign r_ptr      = rd_ptrs[sa1_idx[p]*AddrW +: AddrW];
    assign rd_data[p] = data_q[sa1_idx[p]][r_ptr];
    assign rd_meta    = meta_q[sa1_idx[p]][r_ptr];
    assign rd_last[p] = rd_meta[PvW];

    for (genvar u = 0; u < TotalVcs; u++) begin : g_vc
      localparam int Iv = p * TotalVcs + u;

      logic             hdr_q, hold_q, last;
      logic [PvW-1:0]   pv_q;
      logic [AddrW-1:0] wr_ptr_q, rd_ptr_q;
      logic [CntW-1:0]  cnt_q;

      // FIFO pointers and fill count, as skif_fifo
      always @(posedge clk_i) begin
        if (!rst_ni) begin
          wr_ptr_q <= '0;
          rd_ptr_q <= '0;
          cnt_q    <= '0;
        end else begin
          if (push[u]) wr_ptr_q <= (wr_ptr_q == LastAddr) ? '0 : wr_ptr_q + 1'b1;
          if (vpop[u]) rd_ptr_q <= (rd_ptr_q == LastAddr) ? '0 : rd_ptr_q + 1'b1;
          if (push[u] && !vpop[u])      cnt_q <= cnt_q + 1'b1;
          else if (vpop[u] && !push[u]) cnt_q <= cnt_q - 1'b1;
        end
      end
      assign wr_ptrs[u*AddrW +: AddrW] = wr_ptr_q;
      assign rd_ptrs[u*AddrW +: AddrW] = rd_ptr_q;

      assign ready[u]    = (cnt_q != VcDepthC);
      assign valid[u]    = (cnt_q != '0);
      assign push[u]     = w_valid && (w_vc == VcW'(u)) && ready[u];
      assign chk_ovf[Iv] = (p != LocalPort) && w_valid && (w_vc == VcW'(u)) && !ready[u];
      assign vpop[u]     = pop[Iv];
      assign f_valid[Iv] = valid[u];
      assign {last, head_pv[Iv]} = meta_q[u][rd_ptr_q];

      assign va_req[Iv]  = f_valid[Iv] && hdr_q && !hold_q;
      assign tgt_pv[Iv]  = hold_q ? pv_q : head_pv[Iv];
      assign sa_req[Iv]  = f_valid[Iv] && (hold_q || va_gnt[Iv]) && ov_ok[tgt_pv[Iv]];

      always @(posedge clk_i) begin
        if (!rst_ni) begin
          hdr_q  <= 1'b1;
          hold_q <= 1'b0;
          pv_q   <= '0;
        end else begin
          if (va_gnt[Iv]) begin
            hold_q <= 1'b1;
            pv_q   <= head_pv[Iv];
          end
          if (pop[Iv]) begin
            hdr_q <= last;
            if (last) hold_q <= 1'b0;  // the tail releases the output VC
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- VC allocation
  // One round-robin arbiter per free output VC among the headers routed to
  // it; the pointer moves only on its own grants. Candidates (what routing can
  // send there): for the ejection port (a single output VC, 0) every input VC
  // (candidate k = input VC k); for a link output VC 2*Ports candidates,
  // k = 2*port + c: for a collective VC the same VC of every input port
  // (c = 0 only), for a message VC of sub s the VC of class c and sub s of
  // every input port. Each request is built with constant indices.
  logic [Kl-1:0]  va_g [Links*TotalVcs];  // grants of the link output VCs
  logic [NIv-1:0] ej_g;                   // grants of the ejection output VC

  for (genvar o = 0; o < Links; o++) begin : g_va
    for (genvar v = 0; v < TotalVcs; v++) begin : g_ovc
      localparam int Ov = o * TotalVcs + v;
      localparam int Co = v / NumVcs;
      localparam int S  = v % NumVcs;
      localparam logic [PvW-1:0] OvPv = {PortW'(o), VcW'(v)};
      logic [Kl-1:0] req;

      for (genvar k = 0; k < Kl; k++) begin : g_k
        localparam int Ci = (Co >= 2) ? (k / 2) * TotalVcs + v
                                      : (k / 2) * TotalVcs + (k % 2) * NumVcs + S;
        if (Co >= 2 && k % 2 == 1) begin : g_no
          assign req[k] = 1'b0;
        end else begin : g_yes
          assign req[k] = va_req[Ci] && (head_pv[Ci] == OvPv);
        end
      end

      skif_rr_arb #(
        .N (Kl)
      ) u_arb (
        .clk_i    (clk_i),
        .rst_ni   (rst_ni),
        .req_i    (busy_q[Ov] ? '0 : req),
        .update_i (1'b1),
        .gnt_o    (va_g[Ov])
      );
    end
  end

  if (1) begin : g_va_ej
    logic [NIv-1:0] req;
    for (genvar k = 0; k < NIv; k++) begin : g_k
      assign req[k] = va_req[k] && (head_pv[k] == {PortW'(LocalPort), VcW'(0)});
    end
    skif_rr_arb #(
      .N (NIv)
    ) u_arb (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .req_i    (busy_q[LocalPort*TotalVcs] ? '0 : req),
      .update_i (1'b1),
      .gnt_o    (ej_g)
    );
  end

  // per input VC: granted by one of the output VCs it is a candidate of
  for (genvar p = 0; p < Ports; p++) begin : g_vagnt
    for (genvar u = 0; u < TotalVcs; u++) begin : g_vc
      localparam int Iv = p * TotalVcs + u;
      localparam int Cu = u / NumVcs;
      localparam int Su = u % NumVcs;
      logic [2*Links-1:0] gs;
      for (genvar o = 0; o < Links; o++) begin : g_o
        if (Cu < 2) begin : g_msg
          assign gs[2*o]     = va_g[o*TotalVcs + Su][2*p + Cu];
          assign gs[2*o + 1] = va_g[o*TotalVcs + NumVcs + Su][2*p + Cu];
        end else begin : g_coll
          assign gs[2*o]     = va_g[o*TotalVcs + u][2*p];
          assign gs[2*o + 1] = 1'b0;
        end
      end
      assign va_gnt[Iv] = ej_g[Iv] || (gs != '0);
    end
  end

  // ---------------------------------------------------------------- switch allocation
  // Stage 1, per input port: round-robin among its VCs that hold (or win this
  // cycle) an output VC and have a flit and a credit; the pointer moves only
  // when stage 2 grants the port. Stage 2, per output port: round-robin among
  // the input ports whose stage-1 choice goes there. Grants are turned into
  // indices, and the crossbar reads arrays at those indices.
  logic [Ports-1:0]     sa1_any, in_gnt;
  logic [PvW-1:0]       sa1_pv [Ports];
  logic [Ports*Ports-1:0] sa2_gnt;       // [o*Ports + p]
  logic [Ports-1:0]     o_valid;
  logic                 o_last [Ports];
  logic [63:0]          o_data [Ports];
  logic [VcW-1:0]       o_vc [Ports];

  assign dbg_busy_o = f_valid;
  assign dbg_move_o = pop;

  for (genvar p = 0; p < Ports; p++) begin : g_sa1
    logic [TotalVcs-1:0] gnt;
    skif_rr_arb #(
      .N (TotalVcs)
    ) u_arb (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .req_i    (sa_req[p*TotalVcs +: TotalVcs]),
      .update_i (in_gnt[p]),
      .gnt_o    (gnt)
    );
    assign sa1_any[p] = (gnt != '0);
    for (genvar b = 0; b < VcW; b++) begin : g_enc
      localparam logic [TotalVcs-1:0] M = TotalVcs'(enc_mask(TotalVcs, b));
      assign sa1_idx[p][b] = ((gnt & M) != '0);
    end
    assign sa1_pv[p] = tgt_pv[p*TotalVcs + int'(sa1_idx[p])];
    assign pop[p*TotalVcs +: TotalVcs] = in_gnt[p] ? gnt : '0;
  end

  for (genvar o = 0; o < Ports; o++) begin : g_sa2
    logic [Ports-1:0] req, gnt;
    logic [PortW-1:0] sel;
    for (genvar p = 0; p < Ports; p++) begin : g_p
      assign req[p] = sa1_any[p] && (sa1_pv[p][PvW-1:VcW] == PortW'(o));
    end
    skif_rr_arb #(
      .N (Ports)
    ) u_arb (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .req_i    (req),
      .update_i (1'b1),
      .gnt_o    (gnt)
    );
    assign sa2_gnt[o*Ports +: Ports] = gnt;
    assign o_valid[o] = (gnt != '0);
    for (genvar b = 0; b < PortW; b++) begin : g_enc
      localparam logic [Ports-1:0] M = Ports'(enc_mask(Ports, b));
      assign sel[b] = ((gnt & M) != '0);
    end

    // crossbar (contents do not matter while !o_valid)
    assign o_data[o] = rd_data[sel];
    assign o_last[o] = rd_last[sel];
    assign o_vc[o]   = sa1_pv[sel][VcW-1:0];
  end

  always @(*) begin
    in_gnt = '0;
    for (int o = 0; o < Ports; o++) in_gnt = in_gnt | sa2_gnt[o*Ports +: Ports];
  end

  // ---------------------------------------------------------------- output VC state and credits
  for (genvar o = 0; o < Ports; o++) begin : g_out
    // ov_ok is indexed by {port, vc}: entries of vc >= TotalVcs (NumVcs 3) unused
    for (genvar v = TotalVcs; v < (1 << VcW); v++) begin : g_pad
      assign ov_ok[o*(1<<VcW) + v] = (o == LocalPort) ? ej_push_ready : 1'b0;
    end

    for (genvar v = 0; v < TotalVcs; v++) begin : g_ovc
      localparam int Ov = o * TotalVcs + v;
      logic sent, rel, alloc;
      assign sent = o_valid[o] && (o_vc[o] == VcW'(v));
      assign rel  = sent && o_last[o];
      if (o == LocalPort) begin : g_alloc_ej
        assign alloc = (v == 0) && (ej_g != '0);
      end else begin : g_alloc_link
        assign alloc = (va_g[Ov] != '0);
      end

      always @(posedge clk_i) begin
        // a tail in the allocation cycle (one-flit packet) leaves it free
        if (!rst_ni) busy_q[Ov] <= 1'b0;
        else if (rel) busy_q[Ov] <= 1'b0;
        else if (alloc) busy_q[Ov] <= 1'b1;
      end

      if (o == LocalPort) begin : g_ej
        // ejection is flow-controlled by its FIFO
        assign ov_ok[o*(1<<VcW) + v] = ej_push_ready;
        assign chk_cred[Ov] = 1'b0;
      end else begin : g_cred
        logic [CntW-1:0] cred_q;
        logic            ret;
        assign ret = out_credit_valid_i[o] && (out_credit_vc_i[o*VcW +: VcW] == VcW'(v));
        always @(posedge clk_i) begin
          if (!rst_ni) cred_q <= VcDepthC;
          else if (ret && !sent) cred_q <= cred_q + 1'b1;
          else if (sent && !ret) cred_q <= cred_q - 1'b1;
        end
        assign ov_ok[o*(1<<VcW) + v] = (cred_q != '0);
        assign chk_cred[Ov] = (sent && !ret && cred_q == '0) || (ret && !sent && cred_q == VcDepthC);
      end
    end
  end

  // ---------------------------------------------------------------- link outputs
  for (genvar o = 0; o < Links; o++) begin : g_link_out
    logic             valid_q, last_q, cv_q;
    logic [63:0]      data_q;
    logic [VcW-1:0]   vc_q, cvc_q;

    always @(posedge clk_i) begin
      if (!rst_ni) begin
        valid_q <= 1'b0;
        cv_q    <= 1'b0;
      end else begin
        valid_q <= o_valid[o];
        cv_q    <= in_gnt[o];
      end
    end

    // datapath registers: not reset
    always @(posedge clk_i) begin
      if (o_valid[o]) begin
        data_q <= o_data[o];
        last_q <= o_last[o];
        vc_q   <= o_vc[o];
      end
    end

    // credit for the input VC of this port that sent a flit (at most one per cycle)
    always @(posedge clk_i) begin
      if (in_gnt[o]) cvc_q <= sa1_idx[o];
    end

    assign out_valid_o[o]               = valid_q;
    assign out_data_o[o*64 +: 64]       = data_q;
    assign out_last_o[o]                = last_q;
    assign out_vc_o[o*VcW +: VcW]       = vc_q;
    assign in_credit_valid_o[o]         = cv_q;
    assign in_credit_vc_o[o*VcW +: VcW] = cvc_q;
  end

  // ---------------------------------------------------------------- ejection
  // A 2-entry first-word-fall-through FIFO, as skif_fifo Depth 2 (written out
  // here so the simulator keeps its code the same for every router).
  logic [64:0] ej_mem_q [2];
  logic        ej_wr_q, ej_rd_q, ej_push, ej_pop;
  logic [1:0]  ej_cnt_q;

  assign ej_push_ready = (ej_cnt_q != 2'd2);
  assign ej_valid_o    = (ej_cnt_q != 2'd0);
  assign {ej_last_o, ej_data_o} = ej_mem_q[ej_rd_q];
  assign ej_push       = o_valid[LocalPort] && ej_push_ready;
  assign ej_pop        = ej_valid_o && ej_ready_i;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      ej_wr_q  <= 1'b0;
      ej_rd_q  <= 1'b0;
      ej_cnt_q <= 2'd0;
    end else begin
      if (ej_push) ej_wr_q <= !ej_wr_q;
      if (ej_pop)  ej_rd_q <= !ej_rd_q;
      if (ej_push && !ej_pop)      ej_cnt_q <= ej_cnt_q + 2'd1;
      else if (ej_pop && !ej_push) ej_cnt_q <= ej_cnt_q - 2'd1;
    end
    // storage: not reset (datapath)
    if (ej_push) ej_mem_q[ej_wr_q] <= {o_last[LocalPort], o_data[LocalPort]};
  end

  // ---------------------------------------------------------------- checks
`ifndef SYNTHESIS
  skif_torus_check #(
    .Ports    (Ports),
    .TotalVcs (TotalVcs)
  ) u_check (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .ovf_i  (chk_ovf),
    .cred_i (chk_cred)
  );
`endif
endmodule
