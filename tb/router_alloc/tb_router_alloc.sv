`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// tb_router_alloc: one skif_torus_router (3-D, node (1,1,1) of a 3x3x3 torus)
// with the testbench as every neighbour and as the adapter.
//
// All 7 inputs (6 links + injection) send packets back to back towards one
// output, so they contend for it: (1) all in message class 0 for the same
// output VC (VC allocation contention), (2) some inputs messages, some
// collective up, some collective down to the same output port (switch
// allocation across VCs and classes: collectives must not starve messages or
// the reverse), (3) all to the local node (ejection, with random ejection
// back-pressure). Checks: every input makes progress, the shares of packets
// (phase 1, 3) or flits (phase 2) are equal within a small margin, no input
// waits longer than a bound between two of its packets, packets never
// interleave on an output VC (wormhole), flits only on VCs with credits.
`include "skif_defs.vh"

module tb_router_alloc;
  parameter int DEPTH = 4;     // VcDepth
  parameter int NVCS  = 1;     // NumVcs
  parameter int LEN   = 5;     // payload flits per packet
  parameter int CYC   = 4000;  // cycles per phase
  parameter int SEED  = 1;

  localparam int NDIMS = 3;
  localparam int Links = 2 * NDIMS;
  localparam int Ports = Links + 1;
  localparam int TV    = 6 * NVCS;
  localparam int VcW   = $clog2(TV);
  localparam logic [15:0] Me = 16'h0111;

  `include "skif_tb.svh"  // clk, rst_n, cycle, errors, `CHECK

  int seed_v = SEED;
  function automatic int rnd(input int n);
    return int'($unsigned($random(seed_v)) % n);
  endfunction

  // ---------------------------------------------------------------- DUT
  logic [Links-1:0]     in_v, in_l, oc_v;
  logic [Links*64-1:0]  in_d;
  logic [Links*VcW-1:0] in_vc, oc_vc;
  wire  [Links-1:0]     out_v, out_l, ic_v;
  wire  [Links*64-1:0]  out_d;
  wire  [Links*VcW-1:0] out_vc, ic_vc;
  logic                 inj_v, inj_l, ej_r;
  logic [63:0]          inj_d;
  wire                  inj_r, ej_v, ej_l, drop;
  wire  [63:0]          ej_d;
  wire  [31:0]          drop_cnt;
  wire  [Ports*TV-1:0]  dbg_busy, dbg_move;

  skif_torus_router #(
    .NDims (NDIMS), .VcDepth (DEPTH), .NumVcs (NVCS)
  ) u_dut (
    .clk_i (clk), .rst_ni (rst_n), .node_id_i (Me), .sizes_i ({5'd1, 5'd3, 5'd3, 5'd3}),
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

  // ---------------------------------------------------------------- traffic control
  int phase = 0;               // 0 idle, 1..3
  logic [15:0] dst_of [Ports]; // per input: dst node
  int kind_of [Ports];         // per input: kind
  int pkts [Ports];            // per input: packets completed at the target
  int flits [Ports];           // per input: flits delivered at the target
  int last_done [Ports];       // per input: cycle of the last completion
  int max_gap [Ports];         // per input: longest time between completions
  int ej_pct = 100;

  function automatic int vc_for(input int kind);
    int cls;
    cls = (kind == `SKIF_KIND_COLL_UP) ? 2 : (kind == `SKIF_KIND_COLL_DOWN) ? 3 : 0;
    return cls * NVCS;  // src ^ dst hash: src field is 0 and dst fixed; sub 0 when NVCS == 1
  endfunction
  // header: channel field = sending input (tag), len = LEN flits
  function automatic logic [63:0] hdr(input int j);
    return skif_tb_hdr(4'(kind_of[j]), dst_of[j], 16'h0000, 8'(j), 12'(LEN * 8), 8'h00);
  endfunction

  // completion bookkeeping, called by the sinks on a last flit from input j
  task automatic done_pkt(input int j);
    pkts[j]++;
    if (cycle - last_done[j] > max_gap[j]) max_gap[j] = cycle - last_done[j];
    last_done[j] = cycle;
  endtask

  // ---------------------------------------------------------------- upstream senders (links)
  for (genvar j = 0; j < Links; j++) begin : g_up
    int cred [TV];
    int k;
    logic [VcW-1:0] v;
    always @(posedge clk) begin
      if (!rst_n) begin
        for (int u = 0; u < TV; u++) cred[u] = DEPTH;
        k = 0;
        in_v[j] <= 1'b0;
      end else begin
        if (ic_v[j]) begin
          cred[ic_vc[j*VcW +: VcW]]++;
          `CHECK(cred[ic_vc[j*VcW +: VcW]] <= DEPTH, ("port %0d vc %0d: more credits than flits sent", j, ic_vc[j*VcW +: VcW]))
        end
        in_v[j] <= 1'b0;
        if (phase != 0 || k != 0) begin
          v = VcW'(vc_for(kind_of[j]));
          if (cred[v] > 0) begin
            cred[v]--;
            in_v[j] <= 1'b1;
            in_vc[j*VcW +: VcW] <= v;
            in_d[j*64 +: 64] <= (k == 0) ? hdr(j) : {8'(j), 40'h0, 16'(k)};
            in_l[j] <= (k == LEN);
            k = (k == LEN) ? 0 : k + 1;
          end
        end
      end
    end
  end

  // injection (input Links)
  int ik = 0;
  always @(posedge clk) begin
    if (!rst_n) begin
      inj_v <= 1'b0; ik = 0;
    end else begin
      if (inj_v && inj_r) ik = (ik == LEN) ? 0 : ik + 1;
      if (!inj_v || inj_r) begin
        if (phase != 0 || ik != 0) begin
          inj_v <= 1'b1;
          inj_d <= (ik == 0) ? hdr(Links) : {8'(Links), 40'h0, 16'(ik)};
          inj_l <= (ik == LEN);
        end else inj_v <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- downstream sinks (links)
  for (genvar j = 0; j < Links; j++) begin : g_down
    int owed [TV];         // flits received, credit not yet returned
    int cur [TV];          // per VC: input tag of the packet in progress, -1 none
    int ret_q [$];
    always @(posedge clk) begin
      if (!rst_n) begin
        for (int u = 0; u < TV; u++) begin owed[u] = 0; cur[u] = -1; end
        oc_v[j] <= 1'b0;
      end else begin
        oc_v[j] <= 1'b0;
        if (out_v[j]) begin
          int u, tag;
          u = int'(out_vc[j*VcW +: VcW]);
          owed[u]++;
          `CHECK(owed[u] <= DEPTH, ("out port %0d vc %0d: flit without a credit", j, u))
          tag = (cur[u] < 0) ? int'(out_d[j*64 + `SKIF_HDR_CHAN_LO +: 8]) : int'(out_d[j*64 + 56 +: 8]);
          if (cur[u] < 0) cur[u] = tag;
          else `CHECK(tag == cur[u], ("out port %0d vc %0d: flit of input %0d inside a packet of input %0d", j, u, tag, cur[u]))
          flits[cur[u]]++;
          if (out_l[j]) begin done_pkt(cur[u]); cur[u] = -1; end
          ret_q.push_back(u);
        end
        if (ret_q.size() > 0 && rnd(4) != 0) begin
          int u;
          u = ret_q.pop_front();
          owed[u]--;
          oc_v[j] <= 1'b1;
          oc_vc[j*VcW +: VcW] <= VcW'(u);
        end
      end
    end
  end

  // ejection sink
  int ecur = -1;
  always @(negedge clk) ej_r <= rnd(100) < ej_pct;
  always @(posedge clk) begin
    if (rst_n && ej_v && ej_r) begin
      int tag;
      tag = (ecur < 0) ? int'(ej_d[`SKIF_HDR_CHAN_LO +: 8]) : int'(ej_d[56 +: 8]);
      if (ecur < 0) ecur = tag;
      else `CHECK(tag == ecur, ("ejection: flit of input %0d inside a packet of input %0d", tag, ecur))
      flits[ecur]++;
      if (ej_l) begin done_pkt(ecur); ecur = -1; end
    end
  end

  // ---------------------------------------------------------------- phases
  task automatic run_phase(input int ph, input string name, input bit by_flits, input int gap_bound);
    int mn, mx;
    for (int j = 0; j < Ports; j++) begin pkts[j] = 0; flits[j] = 0; last_done[j] = cycle; max_gap[j] = 0; end
    phase = ph;
    repeat (CYC) @(posedge clk);
    phase = 0;
    repeat (200) @(posedge clk);   // drain (senders finish their packet)
    mn = 1 << 30; mx = 0;
    for (int j = 0; j < Ports; j++) begin
      int x;
      x = by_flits ? flits[j] : pkts[j];
      if (x < mn) mn = x;
      if (x > mx) mx = x;
      `CHECK(x > 0, ("%s: input %0d starved", name, j))
      `CHECK(max_gap[j] <= gap_bound, ("%s: input %0d waited %0d cycles between packets (bound %0d)", name, j, max_gap[j], gap_bound))
    end
    if (ph != 2) begin
      `CHECK(mx - mn <= mx / 10 + 2, ("%s: unfair shares, min %0d max %0d", name, mn, mx))
    end else begin
      // the link is shared fairly among the three output VCs (classes); the
      // inputs of one class share that class's VC fairly
      int tot [3], cnt [3], cmn [3], cmx [3];
      for (int c = 0; c < 3; c++) begin tot[c] = 0; cnt[c] = 0; cmn[c] = 1 << 30; cmx[c] = 0; end
      for (int j = 0; j < Ports; j++) begin
        tot[j % 3] += flits[j]; cnt[j % 3]++;
        if (flits[j] < cmn[j % 3]) cmn[j % 3] = flits[j];
        if (flits[j] > cmx[j % 3]) cmx[j % 3] = flits[j];
      end
      mn = 1 << 30; mx = 0;
      for (int c = 0; c < 3; c++) begin
        if (tot[c] < mn) mn = tot[c];
        if (tot[c] > mx) mx = tot[c];
        `CHECK(cmx[c] - cmn[c] <= cmx[c] / 10 + 2, ("%s: class %0d: unfair shares among its inputs, min %0d max %0d", name, c, cmn[c], cmx[c]))
      end
      `CHECK(mx - mn <= mx / 10 + 2, ("%s: unfair class shares, min %0d max %0d", name, mn, mx))
      $display("%s: flits per class (message, coll up, coll down): %0d %0d %0d", name, tot[0], tot[1], tot[2]);
    end
    $write("%s: %s per input:", name, by_flits ? "flits" : "packets");
    for (int j = 0; j < Ports; j++) $write(" %0d", by_flits ? flits[j] : pkts[j]);
    $write("; longest wait between packets:");
    for (int j = 0; j < Ports; j++) $write(" %0d", max_gap[j]);
    $display("");
  endtask

  reg [8*256-1:0] wave_file;
  initial begin
    if ($value$plusargs("wave=%s", wave_file)) begin
      $dumpfile(wave_file);
      $dumpvars(0, tb_router_alloc);
    end
    for (int j = 0; j < Ports; j++) begin dst_of[j] = 16'h0211; kind_of[j] = `SKIF_KIND_MSG; end
    repeat (5) @(posedge clk);
    rst_n = 1'b1;
    repeat (2) @(posedge clk);

    // 1: everyone to Z+ (node (1,1,2)) in message class 0: one output VC
    run_phase(1, "one output VC", 1'b0, 2 * Ports * (LEN + 1) + 4 * DEPTH + 16);

    // 2: to Z+ in three classes: inputs alternate message / coll up / coll down
    for (int j = 0; j < Ports; j++)
      kind_of[j] = (j % 3 == 0) ? `SKIF_KIND_MSG : (j % 3 == 1) ? `SKIF_KIND_COLL_UP : `SKIF_KIND_COLL_DOWN;
    run_phase(2, "three classes, one output port", 1'b1, 3 * Ports * (LEN + 1) + 4 * DEPTH + 16);

    // 3: everyone to the local node, ejection ready 60%
    for (int j = 0; j < Ports; j++) begin dst_of[j] = Me; kind_of[j] = (j % 2) ? `SKIF_KIND_MSG : `SKIF_KIND_COLL_UP; end
    ej_pct = 60;
    run_phase(3, "ejection", 1'b0, 4 * Ports * (LEN + 1) + 64);

    `CHECK(drop_cnt == 0, ("drops: %0d", drop_cnt))
    if (errors > 0) $fatal(1, "tb_router_alloc: %0d errors", errors);
    $display("tb_router_alloc DEPTH=%0d NVCS=%0d LEN=%0d: %0d cycles, 0 errors", DEPTH, NVCS, LEN, cycle);
    $display("PASS tb_router_alloc");
    $finish;
  end
endmodule
