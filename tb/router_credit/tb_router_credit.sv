`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// tb_router_credit: credit flow control of one skif_torus_router (node 1 of
// a 1-D ring of 5) with the testbench as both neighbours and the adapter.
//
// Traffic: the X MINUS neighbour (input port 1) and the adapter send packets
// on several VCs (message class 0 and 1, collective up and down) that leave
// on X PLUS (output port 0). The X PLUS neighbour returns credits with random
// delays and, in windows of several hundred cycles, withholds them entirely.
// Checks: every router credit counter stays in 0..VcDepth every cycle; while
// credits are withheld the router sends exactly the credits it holds and then
// stops; after the credits come back it resumes; every flit arrives intact
// and in order per VC with nothing lost or duplicated; the router returns
// exactly one credit per flit it received (never more than VcDepth
// outstanding at the sender); no input buffer overflows (the router flags it).
`include "skif_defs.vh"

module tb_router_credit;
  parameter int DEPTH = 4;     // VcDepth
  parameter int NVCS  = 1;     // NumVcs
  parameter int NPKT  = 120;   // packets per source
  parameter int SEED  = 1;

  localparam int Links = 2;
  localparam int Ports = 3;
  localparam int TV    = 6 * NVCS;
  localparam int VcW   = $clog2(TV);
  localparam int CntW  = $clog2(DEPTH + 1);

  `include "skif_tb.svh"  // clk, rst_n, cycle, errors, `CHECK

  int seed_v = SEED;
  function automatic int rnd(input int n);
    return int'($unsigned($random(seed_v)) % n);
  endfunction

  // ---------------------------------------------------------------- DUT
  logic [Links-1:0]     in_v = '0, in_l = '0, oc_v = '0;
  logic [Links*64-1:0]  in_d = '0;
  logic [Links*VcW-1:0] in_vc = '0, oc_vc = '0;
  wire  [Links-1:0]     out_v, out_l, ic_v;
  wire  [Links*64-1:0]  out_d;
  wire  [Links*VcW-1:0] out_vc, ic_vc;
  logic                 inj_v = 1'b0, inj_l = 1'b0, ej_r = 1'b1;
  logic [63:0]          inj_d = '0;
  wire                  inj_r, ej_v, ej_l, drop;
  wire  [63:0]          ej_d;
  wire  [31:0]          drop_cnt;
  wire  [Ports*TV-1:0]  dbg_busy, dbg_move;

  skif_torus_router #(
    .NDims (1), .VcDepth (DEPTH), .NumVcs (NVCS)
  ) u_dut (
    .clk_i (clk), .rst_ni (rst_n), .node_id_i (16'h0001), .sizes_i ({5'd1, 5'd1, 5'd1, 5'd5}),
    .out_valid_o (out_v), .out_data_o (out_d), .out_last_o (out_l), .out_vc_o (out_vc),
    .out_credit_valid_i (oc_v), .out_credit_vc_i (oc_vc),
    .in_valid_i (in_v), .in_data_i (in_d), .in_last_i (in_l), .in_vc_i (in_vc),
    .in_credit_valid_o (ic_v), .in_credit_vc_o (ic_vc),
    .nx_out_valid_o (), .nx_out_data_o (), .nx_out_last_o (), .nx_out_vc_o (),
    .nx_in_credit_valid_o (), .nx_in_credit_vc_o (),
    .inj_valid_i (inj_v), .inj_ready_o (inj_r), .inj_data_i (inj_d), .inj_last_i (inj_l),
    .ej_valid_o (ej_v), .ej_ready_i (ej_r), .ej_data_o (ej_d), .ej_last_o (ej_l),
    .ans_inj_valid_i (1'b0), .ans_inj_ready_o (), .ans_inj_data_i (64'd0), .ans_inj_last_i (1'b0),
    .ans_ej_valid_o (), .ans_ej_ready_i (1'b1), .ans_ej_data_o (), .ans_ej_last_o (),
    .out_block_i ('0), .out_starved_o (),
    .drop_o (drop), .drop_cnt_o (drop_cnt), .dbg_busy_o (dbg_busy), .dbg_move_o (dbg_move)
  );

  // ---------------------------------------------------------------- router credit counters
  logic [Links*TV*CntW-1:0] rcred;  // router credit counters, [(o*TV + v)*CntW +: CntW]
  always @(*) for (int i = 0; i < Links*TV; i++) rcred[i*CntW +: CntW] = u_dut.cred_q[i];
  for (genvar o = 0; o < Links; o++) begin : g_mon
    for (genvar v = 0; v < TV; v++) begin : g_vc
      always @(posedge clk) begin
        if (rst_n) begin
          `CHECK(rcred[(o*TV + v)*CntW +: CntW] <= CntW'(DEPTH),
                 ("credit counter port %0d vc %0d = %0d > VcDepth", o, v, rcred[(o*TV + v)*CntW +: CntW]))
        end
      end
    end
  end

  // ---------------------------------------------------------------- sources
  // Source 0: the X MINUS neighbour on input port 1; source 1: the adapter.
  // Packet: header dst node 2 or 3 (both leave on X PLUS: 1 and 2 hops of a
  // ring of 5, so no half-ring tie), kind by packet
  // number; payload flits {source, vc, sequence per (source, vc), flit}.
  int nsent [2];
  int seq_tx [2*TV];      // per (source, output VC) packets sent
  int up_cred [TV];       // credits the X MINUS neighbour holds
  int up_out = 0;         // flits it has sent without a credit back

  function automatic int kind_of(input int n);
    case (n % 4) 0, 1: return `SKIF_KIND_MSG; 2: return `SKIF_KIND_COLL_UP; default: return `SKIF_KIND_COLL_DOWN; endcase
  endfunction
  function automatic int len_of(input int s, input int n);
    return (n * 7 + s * 3) % 9;
  endfunction
  function automatic logic [15:0] dst_of(input int n);
    return (n % 3 == 0) ? 16'h0003 : 16'h0002;
  endfunction
  // VC the packet uses on the X PLUS link, which is also the VC a packet of
  // source 0 arrives on (model of the dateline classes: the way from node 1
  // to node 2 or 3 does not cross the wrap link, so a message that arrived in
  // class 1 keeps it; odd-numbered messages of source 0 arrive in class 1 (as
  // if they had wrapped earlier); any other message is in the class its flow
  // picks for a dimension it never wraps in, alt = h[1]^h[2]^h[3], as an
  // upstream router would have chosen; sub from the flow hash)
  function automatic int ovc_of(input int s, input int n);
    logic [15:0] f; logic [3:0] h; int cls;
    f = ((s == 0) ? 16'h0000 : 16'h0001) ^ dst_of(n);
    h = f[3:0] ^ f[7:4] ^ f[11:8] ^ f[15:12];
    cls = (kind_of(n) == `SKIF_KIND_COLL_UP) ? 2 : (kind_of(n) == `SKIF_KIND_COLL_DOWN) ? 3 :
          (s == 0 && n % 2 == 1) ? 1 : int'(h[1] ^ h[2] ^ h[3]);
    return cls * NVCS + int'(h) % NVCS;
  endfunction
  function automatic logic [63:0] hdr(input int s, input int n, input int sq);
    return skif_tb_hdr(4'(kind_of(n)), dst_of(n), (s == 0) ? 16'h0000 : 16'h0001, 8'(sq), 12'(len_of(s, n) * 8), 8'(s));
  endfunction
  function automatic logic [63:0] pay(input int s, input int v, input int sq, input int k);
    return {8'(s), 8'(v), 16'(sq), 16'(k), 16'hC0DE};
  endfunction

  // source 0: link, on the VC of the packet's class at the input (msg: class
  // 0 or 1 alternately, collectives class 2/3)
  int k0 = 0, n0 = 0, sq0 = 0;
  logic [VcW-1:0] v0;
  always @(posedge clk) begin
    if (!rst_n) begin
      for (int u = 0; u < TV; u++) up_cred[u] = DEPTH;
      in_v[1] <= 1'b0;
    end else begin
      if (ic_v[1]) begin
        up_cred[ic_vc[VcW +: VcW]]++;
        up_out--;
        `CHECK(up_cred[ic_vc[VcW +: VcW]] <= DEPTH, ("router returned a credit it did not owe (vc %0d)", ic_vc[VcW +: VcW]))
      end
      `CHECK(ic_v[0] == 1'b0, ("credit on port 0, which received nothing"))
      in_v[1] <= 1'b0;
      if (n0 < NPKT && rnd(4) != 0) begin
        v0 = VcW'(ovc_of(0, n0));
        if (up_cred[v0] > 0) begin
          if (k0 == 0) begin sq0 = seq_tx[ovc_of(0, n0)]; end
          up_cred[v0]--; up_out++;
          in_v[1] <= 1'b1;
          in_vc[VcW +: VcW] <= v0;
          in_d[64 +: 64] <= (k0 == 0) ? hdr(0, n0, sq0) : pay(0, ovc_of(0, n0), sq0, k0 - 1);
          in_l[1] <= (k0 == len_of(0, n0));
          if (k0 == len_of(0, n0)) begin
            seq_tx[ovc_of(0, n0)]++; k0 = 0; n0++;
          end else k0++;
        end
      end
    end
  end

  // source 1: the adapter (valid/ready)
  int k1 = 0, n1 = 0, sq1 = 0;
  always @(posedge clk) begin
    if (!rst_n) inj_v <= 1'b0;
    else begin
      if (inj_v && inj_r) begin
        if (k1 == len_of(1, n1)) begin seq_tx[TV + ovc_of(1, n1)]++; k1 = 0; n1++; end
        else k1++;
      end
      if (!inj_v || inj_r) begin
        if (n1 < NPKT) begin
          if (k1 == 0) sq1 = seq_tx[TV + ovc_of(1, n1)];
          inj_v <= 1'b1;
          inj_d <= (k1 == 0) ? hdr(1, n1, sq1) : pay(1, ovc_of(1, n1), sq1, k1 - 1);
          inj_l <= (k1 == len_of(1, n1));
        end else inj_v <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- sink: X PLUS neighbour
  int owed [TV];          // flits received, credit not yet returned
  int cur_src [TV];       // per VC: source of the packet in progress, -1 none
  int cur_k [TV], cur_len [TV], cur_seq [TV];
  int seq_rx [2*TV];
  int ret_q [$];
  bit withhold = 1'b0;
  int rx_total = 0, rx_in_hold = 0;

  always @(posedge clk) begin
    if (!rst_n) begin
      for (int u = 0; u < TV; u++) begin owed[u] = 0; cur_src[u] = -1; end
      oc_v <= '0;
    end else begin
      oc_v <= '0;
      `CHECK(!ej_v, ("ejection at node 1: nothing is addressed to it"))
      `CHECK(!out_v[1], ("flit on X MINUS: nothing goes there"))
      if (out_v[0]) begin
        int u;
        u = int'(out_vc[0 +: VcW]);
        owed[u]++;
        rx_total++;
        if (withhold) rx_in_hold++;
        `CHECK(owed[u] <= DEPTH, ("port 0 vc %0d: flit sent without a credit (%0d outstanding)", u, owed[u]))
        if (cur_src[u] < 0) begin
          cur_src[u] = int'(out_d[0 +: 8]);
          cur_len[u] = int'(out_d[`SKIF_HDR_LEN_LO +: 12]) / 8;
          cur_seq[u] = int'(out_d[`SKIF_HDR_CHAN_LO +: 8]);
          cur_k[u]   = 0;
          `CHECK(cur_seq[u] == seq_rx[cur_src[u] * TV + u] % 256,
                 ("vc %0d: from source %0d seq %0d, expected %0d (lost or reordered)", u, cur_src[u], cur_seq[u],
                  seq_rx[cur_src[u] * TV + u]))
        end else begin
          `CHECK(out_d[0 +: 64] == pay(cur_src[u], u, cur_seq[u], cur_k[u]),
                 ("vc %0d: flit %0d of source %0d seq %0d = %h", u, cur_k[u], cur_src[u], cur_seq[u], out_d[0 +: 64]))
          cur_k[u]++;
        end
        `CHECK(out_l[0] == (cur_k[u] == cur_len[u]), ("vc %0d: last flag wrong", u))
        if (out_l[0]) begin seq_rx[cur_src[u] * TV + u]++; cur_src[u] = -1; end
        ret_q.push_back(u);
      end
      if (!withhold && ret_q.size() > 0 && rnd(3) != 0) begin
        int u;
        u = ret_q.pop_front();
        owed[u]--;
        oc_v[0] <= 1'b1;
        oc_vc[0 +: VcW] <= VcW'(u);
      end
    end
  end

  // ---------------------------------------------------------------- control
  reg [8*256-1:0] wave_file;
  int n_before;
  initial begin
    if ($value$plusargs("wave=%s", wave_file)) begin
      $dumpfile(wave_file);
      $dumpvars(0, tb_router_credit);
    end
    for (int u = 0; u < 2 * TV; u++) begin seq_tx[u] = 0; seq_rx[u] = 0; end
    repeat (5) @(posedge clk);
    rst_n = 1'b1;
    for (int w = 0; w < 4; w++) begin
      repeat (150 + w * 40) @(posedge clk);
      // withhold credits: the router may send only what it holds, then stops
      withhold = 1'b1; rx_in_hold = 0;
      n_before = rx_total;
      repeat (300) @(posedge clk);
      `CHECK(rx_total - n_before <= TV * DEPTH, ("%0d flits sent while credits were withheld", rx_total - n_before))
      for (int u = 0; u < TV; u++) begin
        `CHECK(rcred[u*CntW +: CntW] == CntW'(DEPTH - owed[u]),
               ("vc %0d: router holds %0d credits, sink owes %0d", u, rcred[u*CntW +: CntW], owed[u]))
      end
      n_before = rx_total;
      repeat (50) @(posedge clk);
      `CHECK(rx_total == n_before, ("router kept sending without credits"))
      $display("window %0d: credits withheld 350 cycles: %0d flits sent meanwhile (<= %0d), then stopped", w, rx_in_hold, TV * DEPTH);
      withhold = 1'b0;
    end
    while ((n0 < NPKT || n1 < NPKT || ret_q.size() > 0) && cycle < 200000) @(posedge clk);
    repeat (100) @(posedge clk);
    for (int u = 0; u < TV; u++) begin
      `CHECK(seq_rx[u] == seq_tx[u] && seq_rx[TV + u] == seq_tx[TV + u],
             ("vc %0d: received %0d/%0d packets, sent %0d/%0d", u, seq_rx[u], seq_rx[TV + u], seq_tx[u], seq_tx[TV + u]))
      `CHECK(rcred[u*CntW +: CntW] == CntW'(DEPTH), ("vc %0d: credits not all back", u))
      `CHECK(up_cred[u] == DEPTH, ("input vc %0d: %0d credits returned of %0d", u, up_cred[u], DEPTH))
    end
    `CHECK(up_out == 0, ("%0d flits without credit back at the sender", up_out))
    if (errors > 0) $fatal(1, "tb_router_credit: %0d errors", errors);
    $display("tb_router_credit DEPTH=%0d NVCS=%0d: %0d packets, %0d flits, %0d cycles, 0 errors", DEPTH, NVCS,
             n0 + n1, rx_total, cycle);
    $display("PASS tb_router_credit");
    $finish;
  end
endmodule
