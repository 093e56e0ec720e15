`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// tb_torus_fabric: a whole torus (skif_torus_fabric) with a packet generator
// on every injection port and a checking sink on every ejection port.
//
// Checks: zero-load latency of every (src, dst) pair is exactly 2 + 2*hops
// (hops = shortest DOR distance); link throughput between neighbours; random
// message traffic from every node (random lengths, random ejection
// back-pressure and injection gaps; the collective kinds' VC classes belong
// to the collective engines on the links, tb_coll_net tests them): every packet delivered exactly once, intact, to the right
// node, in order per (src, dst, kind class), never interleaved, `last` on the
// right flit; packets to a dst outside the torus are dropped at injection and
// counted (drop_cnt_o and drop_o); the ejection protocol; tornado traffic on
// every X ring completes. A watchdog fails the test when packets are
// outstanding and no flit moves for WD cycles, naming the busy router input
// VCs. With DATELINE=0 EXPECT_DEADLOCK=1 the same tornado must deadlock and the
// watchdog must catch it (proving the watchdog and the need for the dateline).
`include "skif_defs.vh"

module tb_torus_fabric;
  parameter int NDIMS    = 1;     // torus dimensions
  parameter int SX       = 5;     // ring sizes
  parameter int SY       = 1;
  parameter int SZ       = 1;
  parameter int SW       = 1;
  parameter int DEPTH    = 4;     // VcDepth
  parameter int NVCS     = 1;     // NumVcs
  parameter int DATELINE = 1;     // router Dateline parameter
  parameter int NPKT     = 40;    // random packets per node
  parameter int MAXLEN   = 20;    // max payload flits of random packets
  parameter int NTOR     = 12;    // tornado packets per node
  parameter int TORLEN   = 16;    // tornado payload flits
  parameter int EXPECT_DEADLOCK = 0;  // 1: only tornado, which must deadlock
  parameter int WD       = 2000;  // watchdog: cycles without movement
  parameter int SEED     = 1;

  localparam int N     = SX * SY * SZ * SW;
  localparam int Links = 2 * NDIMS;
  localparam int Ports = Links + 1;
  localparam int TV    = 6 * NVCS;
  localparam int DbgW  = Ports * TV;
  localparam int QMAX  = 4096;    // queued packets per node

  `include "skif_tb.svh"  // clk, rst_n, cycle, errors, `CHECK

  int seed_v = SEED;

  function automatic int rnd(input int n);
    return int'($unsigned($random(seed_v)) % n);
  endfunction

  // ---------------------------------------------------------------- geometry model
  function automatic int dsz(input int d);
    case (d) 0: return SX; 1: return SY; 2: return SZ; default: return SW; endcase
  endfunction
  function automatic int crd(input int r, input int d);
    int s; s = 1;
    for (int k = 0; k < d; k++) s = s * dsz(k);
    return (r / s) % dsz(d);
  endfunction
  function automatic logic [15:0] nid(input int r);
    logic [15:0] id; id = 0;
    for (int d = 0; d < 4; d++) id[4*d +: 4] = 4'(crd(r, d));
    return id;
  endfunction
  function automatic int rank_of(input logic [15:0] id);
    int r, s; r = 0; s = 1;
    for (int d = 0; d < 4; d++) begin r = r + int'(id[4*d +: 4]) * s; s = s * dsz(d); end
    return r;
  endfunction
  // hops of the DOR route; coll = 1: collectives never cross a wrap link
  function automatic int hops(input int s, input int t, input bit coll);
    int h, a, b, dp; h = 0;
    for (int d = 0; d < NDIMS; d++) begin
      a = crd(s, d); b = crd(t, d);
      dp = (b - a + dsz(d)) % dsz(d);
      if (coll) h = h + ((b > a) ? b - a : a - b);
      else      h = h + ((2 * dp <= dsz(d)) ? dp : dsz(d) - dp);
    end
    return h;
  endfunction

  // ---------------------------------------------------------------- DUT
  logic [N-1:0]      inj_v, inj_l, ej_r;
  wire  [N-1:0]      inj_r, ej_v, ej_l, drop;
  logic [N*64-1:0]   inj_d;
  wire  [N*64-1:0]   ej_d;
  wire  [N*32-1:0]   drop_cnt;
  wire  [N*DbgW-1:0] dbg_busy, dbg_move;

  skif_torus_fabric #(
    .NDims    (NDIMS),
    .SizeX    (SX),
    .SizeY    (SY),
    .SizeZ    (SZ),
    .SizeW    (SW),
    .VcDepth  (DEPTH),
    .NumVcs   (NVCS),
    .Dateline (DATELINE)
  ) u_fabric (
    .clk_i       (clk),
    .rst_ni      (rst_n),
    .inj_valid_i (inj_v),
    .inj_ready_o (inj_r),
    .inj_data_i  (inj_d),
    .inj_last_i  (inj_l),
    .ej_valid_o  (ej_v),
    .ej_ready_i  (ej_r),
    .ej_data_o   (ej_d),
    .ej_last_o   (ej_l),
    .ans_inj_valid_i ({N{1'b0}}),
    .ans_inj_ready_o (),
    .ans_inj_data_i  ({N*64{1'b0}}),
    .ans_inj_last_i  ({N{1'b0}}),
    .ans_ej_valid_o  (),
    .ans_ej_ready_i  ({N{1'b1}}),
    .ans_ej_data_o   (),
    .ans_ej_last_o   (),
    .drop_o      (drop),
    .drop_cnt_o  (drop_cnt),
    .dbg_busy_o  (dbg_busy),
    .dbg_move_o  (dbg_move)
  );

  // ---------------------------------------------------------------- traffic state
  // Queue of packets per node: dst node id, payload flits, kind.
  int q_dst [N*QMAX];
  int q_len [N*QMAX];
  int q_kind [N*QMAX];
  int q_seq [N*QMAX];
  bit q_bad [N*QMAX];
  int q_head [N];
  int q_tail [N];
  int tx_seq [N*N*3];   // [(src*N + dst)*3 + kind class]: packets queued
  int rx_seq [N*N*3];   // packets received
  int bad_q [N];        // bad-dst packets queued per node
  int drop_pulses [N];
  int outstanding = 0;  // good packets injected and not yet received
  int queued = 0;       // good packets queued and not yet received
  int ej_ready_pct = 100;
  int go_pct = 100;
  int t_inj [N];        // cycle of the last header accepted per node
  int lat_last = 0;     // latency of the last packet received
  int flits_rx = 0;     // payload+header flits received (all nodes)
  int t_first_rx = -1, t_last_rx = -1;
  bit deadlock = 1'b0;

  function automatic int kcls(input int kind);
    return (kind == `SKIF_KIND_COLL_UP) ? 1 : (kind == `SKIF_KIND_COLL_DOWN) ? 2 : 0;
  endfunction
  function automatic logic [63:0] hdr(input int kind, input logic [15:0] dst, input logic [15:0] src,
                                      input int seq, input int len);
    return skif_tb_hdr(4'(kind), dst, src, 8'(seq), 12'(len * 8), 8'(seq >> 8));
  endfunction
  function automatic logic [63:0] pay(input logic [15:0] src, input logic [15:0] dst, input int seq, input int k);
    return {src, dst, 16'(seq), 16'(k)};
  endfunction

  // enqueue a packet at node s to node id dst (bad dsts are not counted)
  task automatic enq(input int s, input logic [15:0] dst, input int len, input int kind, input bit bad);
    int idx, sidx;
    idx = s * QMAX + q_tail[s];
    if (q_tail[s] >= QMAX) $fatal(1, "queue overflow at node %0d", s);
    q_dst[idx] = int'(dst); q_len[idx] = len; q_kind[idx] = kind; q_bad[idx] = bad;
    if (bad) begin
      q_seq[idx] = 0;
      bad_q[s] = bad_q[s] + 1;
    end else begin
      sidx = (s * N + rank_of(dst)) * 3 + kcls(kind);
      q_seq[idx] = tx_seq[sidx];
      tx_seq[sidx] = tx_seq[sidx] + 1;
      queued = queued + 1;
    end
    q_tail[s] = q_tail[s] + 1;
  endtask

  // a node id outside the torus (0 if every id is valid)
  function automatic logic [15:0] bad_id(input int r);
    logic [15:0] id;
    id = nid(r);
    for (int d = 0; d < 4; d++) begin
      if (d >= NDIMS) begin id[4*d +: 4] = 4'(1 + rnd(15)); return id; end
      if (dsz(d) < 16) begin id[4*d +: 4] = 4'(dsz(d) + rnd(16 - dsz(d))); return id; end
    end
    return 16'h0;
  endfunction

  always @(negedge clk) begin
    for (int n = 0; n < N; n++) ej_r[n] <= rnd(100) < ej_ready_pct;
  end

  for (genvar i = 0; i < N; i++) begin : g_node
    // generator state
    logic        busy;
    int          k, nfl, idx;
    // sink state
    logic        s_hdr;
    int          s_src, s_nfl, s_seq, s_k, s_kc;
    logic [15:0] s_sid;
    logic        pv_prev, pr_prev;
    logic [64:0] pd_prev;

    initial begin
      q_head[i] = 0; q_tail[i] = 0; bad_q[i] = 0; drop_pulses[i] = 0; t_inj[i] = 0;
      for (int d = 0; d < N * 3; d++) begin tx_seq[i*N*3 + d] = 0; rx_seq[i*N*3 + d] = 0; end
    end

    always @(posedge clk) begin
      if (!rst_n) begin
        inj_v[i] <= 1'b0; inj_l[i] <= 1'b0; busy = 1'b0; k = 0; nfl = 0;
        s_hdr = 1'b1;
        pv_prev <= 1'b0;
      end else begin
        // ------------------------------------------------ generator
        if (inj_v[i] && inj_r[i]) begin
          if (k == 0) begin
            t_inj[i] = cycle;
            if (!q_bad[idx]) outstanding = outstanding + 1;
          end
          k = k + 1;
          if (k == nfl) begin busy = 1'b0; q_head[i] = q_head[i] + 1; end
        end
        if (!inj_v[i] || inj_r[i]) begin
          if (!busy && q_head[i] < q_tail[i] && rnd(100) < go_pct) begin
            busy = 1'b1;
            k = 0;
            idx = i * QMAX + q_head[i];
            nfl = 1 + q_len[idx];
          end
          if (busy) begin
            inj_v[i] <= 1'b1;
            inj_d[i*64 +: 64] <= (k == 0) ? hdr(q_kind[idx], 16'(q_dst[idx]), nid(i), q_seq[idx], q_len[idx])
                                          : pay(nid(i), 16'(q_dst[idx]), q_seq[idx], k - 1);
            inj_l[i] <= (k == nfl - 1);
          end else begin
            inj_v[i] <= 1'b0;
          end
        end

        // ------------------------------------------------ sink
        if (ej_v[i] && ej_r[i]) begin
          flits_rx = flits_rx + 1;
          if (t_first_rx < 0) t_first_rx = cycle;
          t_last_rx = cycle;
          if (s_hdr) begin
            `CHECK(ej_d[i*64 + `SKIF_HDR_DST_LO +: 16] == nid(i),
                   ("node %0d: got a packet for %h", i, ej_d[i*64 + `SKIF_HDR_DST_LO +: 16]))
            s_sid = ej_d[i*64 + `SKIF_HDR_SRC_LO +: 16];
            s_src = rank_of(s_sid);
            s_nfl = 1 + int'(ej_d[i*64 + `SKIF_HDR_LEN_LO +: 12]) / 8;
            s_kc  = kcls(int'(ej_d[i*64 + `SKIF_HDR_KIND_LO +: 4]));
            s_seq = int'({ej_d[i*64 +: 8], ej_d[i*64 + `SKIF_HDR_CHAN_LO +: 8]});
            s_k   = 1;
            if (s_src >= N || nid(s_src) != s_sid) $fatal(1, "node %0d: bad src %h", i, s_sid);
            `CHECK(s_seq == rx_seq[(s_src * N + i) * 3 + s_kc] % 65536,
                   ("node %0d: from %0d class %0d got seq %0d, expected %0d (lost, duplicated or reordered)",
                    i, s_src, s_kc, s_seq, rx_seq[(s_src * N + i) * 3 + s_kc]))
            lat_last = cycle - t_inj[s_src];
          end else begin
            `CHECK(ej_d[i*64 +: 64] == pay(s_sid, nid(i), s_seq, s_k - 1),
                   ("node %0d: from %0d seq %0d flit %0d = %h (corrupt or interleaved)", i, s_src, s_seq, s_k,
                    ej_d[i*64 +: 64]))
            s_k = s_k + 1;
          end
          `CHECK(ej_l[i] == (s_k == s_nfl), ("node %0d: from %0d seq %0d: last=%b at flit %0d of %0d", i, s_src,
                 s_seq, ej_l[i], s_k, s_nfl))
          s_hdr = ej_l[i];
          if (ej_l[i]) begin
            rx_seq[(s_src * N + i) * 3 + s_kc] = rx_seq[(s_src * N + i) * 3 + s_kc] + 1;
            outstanding = outstanding - 1;
            queued = queued - 1;
          end
        end
        if (drop[i]) drop_pulses[i] = drop_pulses[i] + 1;

        // ------------------------------------------------ ejection protocol
        if (pv_prev && !pr_prev)
          `CHECK(ej_v[i] && {ej_l[i], ej_d[i*64 +: 64]} == pd_prev, ("node %0d: ej changed while stalled", i))
        pv_prev <= ej_v[i]; pr_prev <= ej_r[i]; pd_prev <= {ej_l[i], ej_d[i*64 +: 64]};
      end
    end
  end

  // ---------------------------------------------------------------- watchdog
  int idle = 0;
  always @(posedge clk) begin
    if (rst_n && !deadlock) begin
      if (outstanding > 0 && dbg_move == '0 && (ej_v & ej_r) == '0 && (inj_v & inj_r) == '0) idle <= idle + 1;
      else idle <= 0;
      if (idle >= WD) begin
        deadlock = 1'b1;
        $display("watchdog: no flit moved for %0d cycles with %0d packets outstanding (cycle %0d); busy input VCs:",
                 WD, outstanding, cycle);
        for (int n = 0; n < N; n++)
          for (int p = 0; p < Ports; p++)
            for (int u = 0; u < TV; u++)
              if (dbg_busy[n*DbgW + p*TV + u])
                $display("  router %0d (node id %h) port %0d VC %0d (class %0d)", n, nid(n), p, u, u / NVCS);
        if (EXPECT_DEADLOCK == 0) begin
          errors = errors + 1;
          $error("deadlock: watchdog fired");
        end
      end
    end
  end

  task automatic wait_done(input int limit);
    int t0; t0 = cycle;
    while ((queued > 0 || outstanding > 0) && !deadlock && cycle - t0 < limit) @(posedge clk);
    @(posedge clk);
    if (!deadlock) `CHECK(queued == 0 && outstanding == 0, ("timeout: %0d queued, %0d outstanding", queued, outstanding))
  endtask

  reg [8*256-1:0] wave_file;
  int nbad, max_hops, lat_max, t0, fl0, hsum, npairs;
  real per_hop, thr;
  initial begin
    if ($value$plusargs("wave=%s", wave_file)) begin
      $dumpfile(wave_file);
      $dumpvars(0, tb_torus_fabric);
    end
    repeat (5) @(posedge clk);
    rst_n = 1'b1;
    repeat (2) @(posedge clk);

    if (EXPECT_DEADLOCK == 0) begin
      // ------------------------------------------------ zero-load latency, all pairs
      lat_max = 0; max_hops = 0; hsum = 0; npairs = 0;
      // all pairs on small tori; from/to nodes 0 and N-1 on larger ones (run time)
      for (int s = 0; s < N; s++) begin
        for (int t = 0; t < N; t++) begin
          if (N <= 9 || s == 0 || s == N - 1 || t == 0 || t == N - 1) for (int c = 0; c < 1; c++) begin
            enq(s, nid(t), 0, `SKIF_KIND_MSG, 1'b0);
            wait_done(1000);
            `CHECK(lat_last == 2 + 2 * hops(s, t, c == 1),
                   ("zero-load %0d -> %0d (%s): latency %0d, expected %0d", s, t, c ? "coll" : "msg", lat_last,
                    2 + 2 * hops(s, t, c == 1)))
            if (c == 0) begin
              hsum = hsum + hops(s, t, 0); npairs = npairs + 1;
              if (hops(s, t, 0) > max_hops) begin max_hops = hops(s, t, 0); lat_max = lat_last; end
            end
          end
        end
      end
      $display("zero-load latency: %0d (src, dst) pairs, header accept -> ejection header = 2 + 2*hops cycles; farthest %0d hops: %0d cycles",
               npairs, max_hops, lat_max);

      // ------------------------------------------------ link throughput, node 0 -> X PLUS neighbour
      flits_rx = 0; t_first_rx = -1;
      for (int j = 0; j < 16; j++) enq(0, nid(1), 31, `SKIF_KIND_MSG, 1'b0);
      wait_done(5000);
      thr = real'(flits_rx) / real'(t_last_rx - t_first_rx + 1);
      $display("link throughput: %0d flits in %0d cycles = %0.3f flits/cycle (VcDepth %0d)", flits_rx,
               t_last_rx - t_first_rx + 1, thr, DEPTH);
      if (DEPTH >= 4) `CHECK(thr > 0.99, ("throughput %0.3f below 1 flit/cycle", thr))

      // ------------------------------------------------ random traffic + bad destinations
      ej_ready_pct = 70; go_pct = 70; nbad = 0;
      for (int s = 0; s < N; s++) begin
        for (int j = 0; j < NPKT; j++) begin
          int kind, len;
          kind = `SKIF_KIND_MSG;
          case (rnd(3))
            0: len = 0;
            1: len = rnd(4);
            default: len = rnd(MAXLEN + 1);
          endcase
          if (rnd(20) == 0 && bad_id(s) != 16'h0) begin
            enq(s, bad_id(s), len, kind, 1'b1); nbad = nbad + 1;
          end else begin
            enq(s, nid(rnd(N)), len, kind, 1'b0);
          end
        end
      end
      wait_done(200000);
      repeat (4) @(posedge clk);
      for (int s = 0; s < N; s++) begin
        `CHECK(drop_cnt[s*32 +: 32] == 32'(bad_q[s]), ("node %0d: drop_cnt %0d, expected %0d", s, drop_cnt[s*32 +: 32], bad_q[s]))
        `CHECK(drop_pulses[s] == bad_q[s], ("node %0d: %0d drop pulses, expected %0d", s, drop_pulses[s], bad_q[s]))
      end
      $display("random traffic: %0d packets per node, %0d bad-dst packets dropped, done at cycle %0d", NPKT, nbad, cycle);
      ej_ready_pct = 100; go_pct = 100;
    end

    // ------------------------------------------------ tornado in X (every node sends to x + ceil(SX/2) - 1)
    if (SX >= 3) begin
      for (int j = 0; j < NTOR; j++)
        for (int s = 0; s < N; s++)
          enq(s, nid(s - crd(s, 0) + (crd(s, 0) + (SX + 1) / 2 - 1) % SX), TORLEN, `SKIF_KIND_MSG, 1'b0);
      wait_done(100000);
      if (EXPECT_DEADLOCK != 0) begin
        `CHECK(deadlock, ("tornado without dateline completed: expected a deadlock"))
        if (deadlock) $display("tornado without the dateline deadlocked and the watchdog caught it (expected)");
      end else begin
        $display("tornado: %0d packets of %0d flits per node delivered, cycle %0d", NTOR, TORLEN + 1, cycle);
      end
    end

    if (errors > 0) $fatal(1, "tb_torus_fabric: %0d errors", errors);
    $display("tb_torus_fabric NDIMS=%0d %0dx%0dx%0dx%0d DEPTH=%0d NVCS=%0d DATELINE=%0d: %0d cycles, 0 errors",
             NDIMS, SX, SY, SZ, SW, DEPTH, NVCS, DATELINE, cycle);
    $display("PASS tb_torus_fabric");
    $finish;
  end
endmodule
