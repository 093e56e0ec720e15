`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// tb_skif_ring_stop: NODES ring stops closed into a ring, with a random packet
// generator on every loc_tx and a checking sink on every loc_rx.
//
// Checks: every packet reaches its destination intact, in per-source order,
// never interleaved, with `last` on the right flit; packets to dst >= NODES are
// dropped at injection and counted; the link protocol (valid held, data
// stable while !ready) on every out and loc_rx port; no deadlock when all
// nodes send max-size packets to the farthest node; measures hop latency and
// link throughput.
`include "skif_defs.vh"

module tb_skif_ring_stop;
  parameter int NODES = 4;       // ring size
  parameter int BUF   = 4;       // BufDepth of the stops
  parameter int SLOTS = 4;       // OutSlots of the stops
  parameter int NPKT  = 60;      // random packets per node
  parameter int SEED  = 1;       // random seed
  parameter int FAR   = 6;       // max-size packets per node in the all-to-farthest phase

  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  int cycle = 0;
  always @(posedge clk) cycle <= cycle + 1;

  int errors = 0;
  int seed_v = 1;
  `define CHECK(cond, msg) if (!(cond)) begin errors = errors + 1; $error msg; end

  function automatic int rnd(input int n);
    return int'($unsigned($random(seed_v)) % n);
  endfunction

  // ---------------------------------------------------------------- ring
  logic [NODES-1:0]    lv, lr, ll;          // link i = stop i out
  logic [NODES*64-1:0] ld;
  logic [NODES-1:0]    tx_v, tx_r, tx_l, rx_v, rx_r, rx_l;
  logic [NODES*64-1:0] tx_d, rx_d;
  logic [NODES*32-1:0] drops;
  event                dump_ev;

  for (genvar i = 0; i < NODES; i++) begin : g_stop
    localparam int Prev = (i + NODES - 1) % NODES;
    skif_ring_stop #(
      .Nodes    (NODES),
      .BufDepth (BUF),
      .OutSlots (SLOTS)
    ) u_stop (
      .clk_i          (clk),
      .rst_ni         (rst_n),
      .node_id_i      (16'(i)),
      .in_valid_i     (lv[Prev]),
      .in_ready_o     (lr[Prev]),
      .in_data_i      (ld[Prev*64 +: 64]),
      .in_last_i      (ll[Prev]),
      .out_valid_o    (lv[i]),
      .out_ready_i    (lr[i]),
      .out_data_o     (ld[i*64 +: 64]),
      .out_last_o     (ll[i]),
      .loc_tx_valid_i (tx_v[i]),
      .loc_tx_ready_o (tx_r[i]),
      .loc_tx_data_i  (tx_d[i*64 +: 64]),
      .loc_tx_last_i  (tx_l[i]),
      .loc_rx_valid_o (rx_v[i]),
      .loc_rx_ready_i (rx_r[i]),
      .loc_rx_data_o  (rx_d[i*64 +: 64]),
      .loc_rx_last_o  (rx_l[i]),
      .drop_cnt_o     (drops[i*32 +: 32])
    );
    always @(dump_ev)
      $display("  stop %0d: used %0d lock %b sel %b | ib v %b loc %b hdr %b dst %0d | out v %b r %b | tx v %b r %b | rx v %b r %b",
               i, u_stop.used_q, u_stop.lock_q, u_stop.sel_q, u_stop.ib_valid, u_stop.ib_loc, u_stop.ib_hdr_q,
               u_stop.ib_data[44 +: 16], lv[i], lr[i], tx_v[i], tx_r[i], rx_v[i], rx_r[i]);
  end

  // ---------------------------------------------------------------- traffic
  int mode = 0;             // 0 idle, 1 random, 2 farthest max-size, 3 single probe
  int quota [NODES];        // packets each generator still starts
  int sent [NODES*16];      // [src*16+dst] headers injected to valid dsts
  int recv [NODES*16];      // [dst*16+src] packets received
  int bad_sent [NODES];     // packets to invalid dsts
  int rx_ready_pct = 70;
  int go_pct = 60;
  int t_probe_tx = -1, t_probe_rx = -1;
  int flits_out = 0;

  function automatic logic [63:0] hdr(input int dst, input int src, input int seq, input int len);
    return {`SKIF_KIND_MSG, 16'(dst), 16'(src), 8'(seq), 12'(len), 8'h00};
  endfunction
  function automatic logic [63:0] pay(input int src, input int dst, input int seq, input int k);
    return {8'(src), 8'(dst), 16'(seq), 16'(k), 16'hA5C3};
  endfunction

  always @(negedge clk) begin
    for (int n = 0; n < NODES; n++) rx_r[n] <= rnd(100) < rx_ready_pct;
  end

  for (genvar i = 0; i < NODES; i++) begin : g_node
    // generator state
    logic        busy;
    int          dst, len, seq, k, nfl;
    // sink state
    logic        s_hdr;
    int          s_src, s_len, s_seq, s_k, s_nfl;
    logic        pv_prev, pr_prev;
    logic [64:0] pd_prev;
    logic        ov_prev, or_prev;
    logic [64:0] od_prev;

    initial begin
      quota[i] = 0; bad_sent[i] = 0;
      for (int d = 0; d < 16; d++) begin sent[i*16 + d] = 0; recv[i*16 + d] = 0; end
    end

    always @(posedge clk) begin
      if (!rst_n) begin
        tx_v[i] <= 1'b0; tx_l[i] <= 1'b0; busy = 1'b0;
        s_hdr = 1'b1;
        pv_prev <= 1'b0; ov_prev <= 1'b0;
      end else begin
        // ------------------------------------------------ generator
        if (tx_v[i] && tx_r[i]) begin
          if (k == 0) begin
            if (dst < NODES) sent[i*16 + dst] = sent[i*16 + dst] + 1;
            else bad_sent[i] = bad_sent[i] + 1;
            if (mode == 3 && t_probe_tx < 0) t_probe_tx = cycle;
          end
          k = k + 1;
          if (k == nfl) busy = 1'b0;
        end
        if (!tx_v[i] || tx_r[i]) begin
          if (!busy && quota[i] > 0 && rnd(100) < go_pct) begin
            quota[i] = quota[i] - 1;
            busy = 1'b1;
            k = 0;
            case (mode)
              2: begin dst = (i + NODES - 1) % NODES; len = `SKIF_MAX_MSG; end
              3: begin dst = NODES - 1; len = 0; end
              default: begin
                dst = (rnd(16) == 0) ? NODES + rnd(70000 - NODES) : rnd(NODES);
                case (rnd(4))
                  0: len = 0;
                  1: len = rnd(17);
                  2: len = rnd(200);
                  default: len = rnd(`SKIF_MAX_MSG + 1);
                endcase
              end
            endcase
            if (dst > 65535) dst = 65535;
            seq = (dst < NODES) ? sent[i*16 + dst] : 0;
            nfl = 1 + (len + 7) / 8;
          end
          if (busy) begin
            tx_v[i] <= 1'b1;
            tx_d[i*64 +: 64] <= (k == 0) ? hdr(dst, i, seq, len) : pay(i, dst, seq, k - 1);
            tx_l[i] <= (k == nfl - 1);
          end else begin
            tx_v[i] <= 1'b0;
          end
        end

        // ------------------------------------------------ sink
        if (rx_v[i] && rx_r[i]) begin
          if (s_hdr) begin
            `CHECK(rx_d[i*64 + `SKIF_HDR_DST_LO +: 16] == 16'(i), ("node %0d: got packet for %0d", i, rx_d[i*64 + 44 +: 16]))
            s_src = int'(rx_d[i*64 + `SKIF_HDR_SRC_LO +: 16]);
            s_len = int'(rx_d[i*64 + `SKIF_HDR_LEN_LO +: 12]);
            s_nfl = 1 + (s_len + 7) / 8;
            s_k = 1;
            if (s_src >= NODES) $fatal(1, "node %0d: bad src %0d", i, s_src);
            s_seq = recv[i*16 + s_src];
            `CHECK(rx_d[i*64 + `SKIF_HDR_CHAN_LO +: 8] == 8'(s_seq), ("node %0d: from %0d seq %0d: channel %0d (lost/reordered)",
                   i, s_src, s_seq, rx_d[i*64 + 20 +: 8]))
            if (mode == 3 && t_probe_rx < 0) t_probe_rx = cycle;
          end else begin
            `CHECK(rx_d[i*64 +: 64] == pay(s_src, i, s_seq, s_k - 1), ("node %0d: from %0d seq %0d flit %0d = %h",
                   i, s_src, s_seq, s_k, rx_d[i*64 +: 64]))
            s_k = s_k + 1;
          end
          `CHECK(rx_l[i] == (s_k == s_nfl), ("node %0d: from %0d seq %0d: last=%b at flit %0d of %0d", i, s_src, s_seq,
                 rx_l[i], s_k, s_nfl))
          s_hdr = rx_l[i];
          if (rx_l[i]) recv[i*16 + s_src] = recv[i*16 + s_src] + 1;
        end

        // ------------------------------------------------ protocol checks
        if (pv_prev && !pr_prev)
          `CHECK(rx_v[i] && {rx_l[i], rx_d[i*64 +: 64]} == pd_prev, ("node %0d: loc_rx changed while stalled", i))
        if (ov_prev && !or_prev)
          `CHECK(lv[i] && {ll[i], ld[i*64 +: 64]} == od_prev, ("node %0d: out changed while stalled", i))
        pv_prev <= rx_v[i]; pr_prev <= rx_r[i]; pd_prev <= {rx_l[i], rx_d[i*64 +: 64]};
        ov_prev <= lv[i];   or_prev <= lr[i];   od_prev <= {ll[i], ld[i*64 +: 64]};
        if (i == 0 && lv[i] && lr[i]) flits_out = flits_out + 1;
      end
    end
  end

  // ---------------------------------------------------------------- phases
  function automatic int all_sent();
    int s;
    s = 0;
    for (int n = 0; n < NODES*16; n++) s += sent[n];
    return s;
  endfunction
  function automatic int all_recv();
    int s;
    s = 0;
    for (int n = 0; n < NODES*16; n++) s += recv[n];
    return s;
  endfunction
  function automatic int quota_left();
    int s;
    s = 0;
    for (int n = 0; n < NODES; n++) s += quota[n];
    return s;
  endfunction

  task automatic wait_done(input int limit, input string what);
    int t0;
    t0 = cycle;
    begin : w_1  // loop condition evaluated apart (Verilator 5.006 --timing)
      bit c;
      c = quota_left() != 0 || all_recv() != all_sent() || tx_v != '0;
      while (c) begin
      @(negedge clk);
      if (cycle - t0 > limit) begin
        $display("%s: sent %0d received %0d quota %0d", what, all_sent(), all_recv(), quota_left());
        -> dump_ev;
        #1;
        $fatal(1, "%s: timeout (deadlock?)", what);
      end
      c = quota_left() != 0 || all_recv() != all_sent() || tx_v != '0;
      end
    end
  endtask

  reg [8*256-1:0] wave_file;
  int t0, n0;

  initial begin
    if ($value$plusargs("wave=%s", wave_file)) begin
      $dumpfile(wave_file);
      $dumpvars(0, tb_skif_ring_stop);
    end
    seed_v = SEED;
    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    repeat (3) @(negedge clk);

    // ------------------------------------------------ hop latency: 0 -> NODES-1
    rx_ready_pct = 100; go_pct = 100;
    mode = 3; quota[0] = 1;
    wait_done(1000, "probe");
    $display("MEASURE hop latency: node 0 loc_tx accept -> node %0d loc_rx valid: %0d cycles over %0d hops (%0.1f per hop)",
             NODES - 1, t_probe_rx - t_probe_tx, NODES - 1, real'(t_probe_rx - t_probe_tx) / (NODES - 1));

    // ------------------------------------------------ throughput: node 0 streams max-size packets to node 1
    mode = 2; quota[1] = 0;
    // node 0's packets to the farthest node (NODES-1) all cross link 0.
    quota[0] = 8;
    t0 = cycle; n0 = flits_out;
    wait_done(20000, "stream");
    $display("MEASURE link 0: %0d flits in %0d cycles (%0.2f flits/cycle, incl. start-up)", flits_out - n0, cycle - t0,
             real'(flits_out - n0) / (cycle - t0));

    // ------------------------------------------------ random traffic with invalid destinations
    mode = 1; rx_ready_pct = 70; go_pct = 60;
    for (int n = 0; n < NODES; n++) quota[n] = NPKT;
    wait_done(40000 + NPKT * NODES * 600, "random");
    $display("random traffic done at cycle %0d: %0d packets delivered", cycle, all_recv());

    // ------------------------------------------------ deadlock test: all to the farthest node, max size
    mode = 2; rx_ready_pct = 100; go_pct = 100;
    for (int n = 0; n < NODES; n++) quota[n] = FAR;
    wait_done(100000, "farthest");
    $display("all-to-farthest done at cycle %0d", cycle);

    repeat (20) @(negedge clk);
    for (int n = 0; n < NODES; n++) begin
      for (int d = 0; d < NODES; d++)
        `CHECK(sent[n*16 + d] == recv[d*16 + n], ("%0d -> %0d: sent %0d received %0d", n, d, sent[n*16 + d], recv[d*16 + n]))
      `CHECK(drops[n*32 +: 32] == 32'(bad_sent[n]), ("node %0d: drop_cnt %0d expected %0d", n, drops[n*32 +: 32], bad_sent[n]))
    end
    $display("tb_skif_ring_stop NODES=%0d BUF=%0d SLOTS=%0d: %0d packets, %0d dropped at injection, %0d cycles, %0d errors",
             NODES, BUF, SLOTS, all_recv(), drops[31:0], cycle, errors);
    if (errors > 0) $fatal(1, "tb_skif_ring_stop: %0d errors", errors);
    $display("PASS tb_skif_ring_stop");
    $finish;
  end
endmodule
