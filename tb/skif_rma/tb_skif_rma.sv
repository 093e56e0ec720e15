`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// tb_skif_rma: skif_rma (the RMA engine) alone: a packet source on its
// network input, a behavioural host memory on its DMA port (random ready,
// random in-order read latency, read errors in one poisoned range), random
// back-pressure on its output, and a reference model of memory, answers and
// counters computed here, packet by packet, in arrival order.
//
// Checks: the window table reads back what was configured (a commit to a
// window >= Windows changes nothing); puts of every size 1..256 at every
// alignment and random puts up to SKIF_MAX_MSG land exactly (sub-word heads
// and tails by read-modify-write: neighbouring bytes unchanged); gets return
// the reference bytes (tail bytes zero); atomics of both widths and every op
// return the reference old value, and bursts of back-to-back atomics on one
// word end at the exact value; requests outside every window, without the
// permission, crossing a window's end (also at the top of the address
// space), with bad lengths, bad ops, misaligned, or framed wrongly touch no
// memory, are counted (REFUSED, STATUS) and answered by an ACK with the
// code; GET_RESP and ACK answers to this node are written where they say if
// a window allows, else counted as errors; requests from this node to
// itself (one in six of the random mix) leave nothing on the output: their
// answers are written and counted here as if received; the completion counters and the
// status words in memory match; every DMA access lies in a window (or is a
// status write), reads outstanding never exceed MaxReads; output data is
// held while valid && !ready. Memory is compared word by word at the end.
// Clock gating (wake_o): a second engine on the same inputs runs on a clock
// gated off, as a clock-gating cell does, at the edges its wake_o was low;
// its outputs equal the DUT's at every edge, and it was gated for part of
// the run (so a wake_o that misses a register change fails here).
`include "skif_defs.vh"

module tb_skif_rma;
  parameter int SEED     = 1;
  parameter int WINDOWS  = 8;    // Windows of the DUT
  parameter int MAXREADS = 8;    // MaxReads of the DUT
  parameter int NOPS     = 1500; // random operations after the directed ones
  parameter int OUT_PCT  = 70;   // % of cycles the output is ready
  parameter int DMA_PCT  = 70;   // % of cycles the DMA port is ready
  parameter int LAT      = 12;   // read latency 1..LAT cycles

  localparam int MW = 'h10000;                 // memory words: bytes 0..0x7FFFF
  localparam logic [15:0] NODE = 16'h0123;
  parameter logic [63:0] STAT = 64'h60000;     // completion status words (8-byte aligned; 0: none)
  localparam logic [63:0] POISON_LO = 64'h40700, POISON_HI = 64'h40800;  // reads return err

  `define SKIF_TB_XORSHIFT
  `include "skif_tb.svh"  // clk, rst_n, cycle, errors, `CHECK, rnd
  function automatic logic [63:0] rnd64();
    logic [63:0] v;
    v[31:0]  = 32'(rnd(32'h7FFFFFFF)) ^ (32'(rnd(4)) << 30);
    v[63:32] = 32'(rnd(32'h7FFFFFFF)) ^ (32'(rnd(4)) << 30);
    return v;
  endfunction

  // ---------------------------------------------------------------- DUT
  logic        reg_we = 1'b0;
  logic [11:0] reg_addr = 12'h0;
  logic [31:0] reg_wdata = 32'h0;
  wire  [31:0] reg_rdata;
  wire         reg_hit;
  logic        in_valid = 1'b0, in_last = 1'b0;
  logic [63:0] in_data = 64'h0;
  wire         in_ready;
  logic        ans_valid = 1'b0, ans_last = 1'b0;  // the answer input (GET_RESP, ACK)
  logic [63:0] ans_data = 64'h0;
  wire         ans_ready;
  wire         out_valid, out_last;
  logic        out_ready = 1'b0;
  wire  [63:0] out_data;
  wire         dvalid, dwrite, dstat;
  logic        dready = 1'b0;
  wire  [63:0] daddr, dwdata;
  logic        rsp_valid = 1'b0, rsp_err = 1'b0;
  logic [63:0] rsp_data = 64'h0;
  wire         busy;

  skif_rma #(
    .Windows  (WINDOWS),
    .MaxReads (MAXREADS)
  ) u_rma (
    .clk_i (clk), .rst_ni (rst_n), .node_i (NODE),
    .reg_we_i (reg_we), .reg_addr_i (reg_addr), .reg_wdata_i (reg_wdata),
    .reg_rdata_o (reg_rdata), .reg_hit_o (reg_hit),
    .in_valid_i (in_valid), .in_ready_o (in_ready), .in_data_i (in_data), .in_last_i (in_last),
    .ans_valid_i (ans_valid), .ans_ready_o (ans_ready), .ans_data_i (ans_data), .ans_last_i (ans_last),
    .out_valid_o (out_valid), .out_ready_i (out_ready), .out_data_o (out_data), .out_last_o (out_last),
    .dma_valid_o (dvalid), .dma_ready_i (dready), .dma_write_o (dwrite), .dma_addr_o (daddr),
    .dma_wdata_o (dwdata), .dma_stat_o (dstat),
    .dma_rsp_valid_i (rsp_valid), .dma_rsp_data_i (rsp_data), .dma_rsp_err_i (rsp_err),
    .busy_o (busy), .wake_o (wake)
  );

  // ---------------------------------------------------------------- gated twin
  wire         wake, wake_g, busy_g, in_ready_g, ans_ready_g, out_valid_g, out_last_g;
  wire         dvalid_g, dwrite_g, dstat_g, reg_hit_g;
  wire  [31:0] reg_rdata_g;
  wire  [63:0] out_data_g, daddr_g, dwdata_g;
  logic        en_l = 1'b1;  // the enable, latched while the clock is low
  always @(clk or wake_g) if (!clk) en_l = wake_g;
  wire         gclk = clk & en_l;
  int          n_gated = 0;
  skif_rma #(
    .Windows  (WINDOWS),
    .MaxReads (MAXREADS)
  ) u_rma_g (
    .clk_i (gclk), .rst_ni (rst_n), .node_i (NODE),
    .reg_we_i (reg_we), .reg_addr_i (reg_addr), .reg_wdata_i (reg_wdata),
    .reg_rdata_o (reg_rdata_g), .reg_hit_o (reg_hit_g),
    .in_valid_i (in_valid), .in_ready_o (in_ready_g), .in_data_i (in_data), .in_last_i (in_last),
    .ans_valid_i (ans_valid), .ans_ready_o (ans_ready_g), .ans_data_i (ans_data), .ans_last_i (ans_last),
    .out_valid_o (out_valid_g), .out_ready_i (out_ready), .out_data_o (out_data_g), .out_last_o (out_last_g),
    .dma_valid_o (dvalid_g), .dma_ready_i (dready), .dma_write_o (dwrite_g), .dma_addr_o (daddr_g),
    .dma_wdata_o (dwdata_g), .dma_stat_o (dstat_g),
    .dma_rsp_valid_i (rsp_valid), .dma_rsp_data_i (rsp_data), .dma_rsp_err_i (rsp_err),
    .busy_o (busy_g), .wake_o (wake_g)
  );
  always @(posedge clk) begin
    if (!en_l) n_gated <= n_gated + 1;
    `CHECK({reg_rdata_g, reg_hit_g, in_ready_g, ans_ready_g, out_valid_g, out_last_g, out_data_g,
            dvalid_g, dwrite_g, daddr_g, dwdata_g, dstat_g, busy_g, wake_g} ===
           {reg_rdata, reg_hit, in_ready, ans_ready, out_valid, out_last, out_data,
            dvalid, dwrite, daddr, dwdata, dstat, busy, wake},
           ("the engine with its clock gated differs from the DUT at cycle %0d", cycle))
  end

  // ---------------------------------------------------------------- windows (reference)
  logic [63:0] wb [8], ws [8];
  logic [2:0]  wp [8];
  initial begin
    wb[0] = 64'h10000; ws[0] = 64'h8000; wp[0] = 3'b011;   // RW
    wb[1] = 64'h20000; ws[1] = 64'h1000; wp[1] = 3'b001;   // R
    wb[2] = 64'h28000; ws[2] = 64'h1000; wp[2] = 3'b010;   // W
    wb[3] = 64'h30000; ws[3] = 64'h100;  wp[3] = 3'b100;   // A
    wb[4] = 64'h38000; ws[4] = 64'h4000; wp[4] = 3'b111;   // RWA
    wb[5] = 64'h40000; ws[5] = 64'h800;  wp[5] = 3'b011;   // RW, poisoned top 256 bytes
    wb[6] = 64'h48000; ws[6] = 64'h18;   wp[6] = 3'b111;   // RWA, 24 bytes
    wb[7] = 64'hFFFF_FFFF_FFFF_F000; ws[7] = 64'h1000; wp[7] = 3'b010;  // W at the top: only crossings sent
  end
  function automatic logic win_ok(input logic [63:0] a, input int len, input logic [2:0] need);
    logic [64:0] e;
    win_ok = 1'b0;
    e = {1'b0, a} + 65'(len);
    for (int w = 0; w < WINDOWS; w++)
      if ((wp[w] & need) != 0 && a >= wb[w] && e <= {1'b0, wb[w]} + {1'b0, ws[w]}) win_ok = 1'b1;
  endfunction
  function automatic logic in_any_window(input logic [63:0] a, input logic [2:0] need);
    in_any_window = 1'b0;
    for (int w = 0; w < WINDOWS; w++)
      if ((wp[w] & need) != 0 && a >= wb[w] && {1'b0, a} < {1'b0, wb[w]} + {1'b0, ws[w]})
        in_any_window = 1'b1;
  endfunction
  function automatic logic poisoned(input logic [63:0] word_addr);
    return word_addr >= POISON_LO && word_addr < POISON_HI;
  endfunction

  // ---------------------------------------------------------------- memories
  logic [63:0] mem [MW];   // what the DUT's DMA port sees
  logic [63:0] ref_m [MW]; // the reference
  function automatic logic [7:0] ref_byte(input logic [63:0] a);
    if (a >= 64'(MW * 8)) $fatal(1, "tb: reference read outside memory at %h", a);
    return ref_m[a[18:3]][{a[2:0], 3'b000} +: 8];
  endfunction

  // ---------------------------------------------------------------- DMA model
  logic [63:0] pd_data [4096];
  logic        pd_err  [4096];
  int          pd_time [4096];
  int          pd_wr = 0, pd_rd = 0, pd_last_t = 0;
  int          n_rmw = 0, n_dma_wr = 0, n_dma_rd = 0, n_stat_wr = 0, max_out = 0;
  always @(negedge clk) dready <= rnd(100) < DMA_PCT;
  always @(posedge clk) begin
    if (rst_n && dvalid && dready) begin
      `CHECK(daddr[2:0] == 3'b000 && daddr < 64'(MW * 8), ("DMA access outside memory: %h", daddr))
      if (dstat) begin
        `CHECK(dwrite && (daddr == STAT || daddr == STAT + 8), ("status access at %h", daddr))
        n_stat_wr <= n_stat_wr + 1;
      end else if (dwrite) begin
        `CHECK(in_any_window(daddr, 3'b110), ("DMA write outside every W/A window: %h", daddr))
        n_dma_wr <= n_dma_wr + 1;
      end else begin
        `CHECK(in_any_window(daddr, 3'b111), ("DMA read outside every window: %h", daddr))
        n_dma_rd <= n_dma_rd + 1;
      end
      if (daddr < 64'(MW * 8)) begin
        if (dwrite) mem[daddr[18:3]] <= dwdata;
        else begin
          int t;
          t = cycle + 1 + rnd(LAT);
          if (t < pd_last_t) t = pd_last_t;
          pd_time[pd_wr % 4096] <= t;
          pd_last_t <= t;
          pd_data[pd_wr % 4096] <= mem[daddr[18:3]];
          pd_err[pd_wr % 4096]  <= poisoned(daddr);
          pd_wr <= pd_wr + 1;
          `CHECK(pd_wr - pd_rd < MAXREADS, ("more than %0d reads outstanding", MAXREADS))
          if (pd_wr - pd_rd + 1 > max_out) max_out <= pd_wr - pd_rd + 1;
        end
      end
    end
  end
  always @(negedge clk) begin
    rsp_valid <= 1'b0;
    rsp_err   <= 1'b0;
    rsp_data  <= 64'hX;
    if (pd_rd != pd_wr && pd_time[pd_rd % 4096] <= cycle) begin
      rsp_valid <= 1'b1;
      rsp_data  <= pd_data[pd_rd % 4096];
      rsp_err   <= pd_err[pd_rd % 4096];
      pd_rd     <= pd_rd + 1;
    end
  end

  // ---------------------------------------------------------------- output monitor
  localparam int EXPN = 1 << 18;
  logic [63:0] exp_fl [EXPN];
  logic        exp_last [EXPN];
  int          exp_n = 0, mon_n = 0, n_out_pkts = 0, n_held = 0;
  logic        held_q = 1'b0;
  logic [63:0] held_data;
  logic        held_last;
  task automatic exp_push(input logic [63:0] f, input logic l);
    exp_fl[exp_n % EXPN] = f;
    exp_last[exp_n % EXPN] = l;
    exp_n++;
  endtask
  always @(negedge clk) out_ready <= rnd(100) < OUT_PCT;
  always @(posedge clk) begin
    if (rst_n) begin
      if (held_q) begin
        `CHECK(out_valid && out_data == held_data && out_last == held_last,
               ("output changed while valid && !ready"))
      end
      held_q    <= out_valid && !out_ready;
      held_data <= out_data;
      held_last <= out_last;
      if (out_valid && !out_ready) n_held <= n_held + 1;
      if (out_valid && out_ready) begin
        if (mon_n >= exp_n) begin
          `CHECK(0, ("unexpected output flit %h", out_data))
        end else begin
          `CHECK(out_data == exp_fl[mon_n % EXPN] && out_last == exp_last[mon_n % EXPN],
                 ("output flit %0d: %h last %b, expected %h last %b", mon_n, out_data, out_last,
                  exp_fl[mon_n % EXPN], exp_last[mon_n % EXPN]))
        end
        mon_n <= mon_n + 1;
        if (out_last) n_out_pkts <= n_out_pkts + 1;
      end
    end
  end

  // ---------------------------------------------------------------- packets
  logic [63:0] pf [300];     // flits of the packet being built
  int          pn;
  logic [7:0]  pb [4096];    // data bytes
  int e_refused = 0, e_acks = 0, e_puts = 0, e_gets = 0, e_atoms = 0, e_errs = 0, e_served = 0;
  int n_put = 0, n_get = 0, n_atom = 0, n_forged = 0, n_rsp = 0, n_put_err = 0, n_get_err = 0;
  int n_atom_err = 0, n_dma_err = 0;

  function automatic logic [63:0] hdr(input logic [3:0] kind, input logic [15:0] dst,
                                      input logic [15:0] src, input logic [3:0] op,
                                      input logic [3:0] rk, input logic [11:0] len,
                                      input logic [7:0] tag);
    return skif_tb_hdr(kind, dst, src, {op, rk}, len, tag);  // chan field = {op, answered kind}
  endfunction

  // a request's src: any node but this one, or this one when self_req (a
  // request of this node to itself: the engine completes the answer itself,
  // nothing leaves on its output)
  bit self_req = 1'b0;
  function automatic logic [15:0] rsrc();
    logic [15:0] r;
    r = 16'(rnd(65536));
    if (self_req) return NODE;
    return (r == NODE) ? r ^ 16'h1 : r;
  endfunction
  // an address for an answer to this node (its data, an old value): in a
  // window with W mostly, in an R-only one sometimes (refused there)
  function automatic logic [63:0] self_addr(input int len);
    int w;
    logic [63:0] a;
    w = (rnd(6) == 0) ? 1 : (rnd(4) == 0 ? 0 : 2);
    if (ws[w] >= 64'(len)) a = wb[w] + 64'(rnd(int'(ws[w]) - len + 1));
    else a = wb[w];
    return a;
  endfunction

  bit no_gap = 1'b0;  // the source offers a flit every cycle (the rate figure)
  // answers (GET_RESP, ACK) go to the answer input, everything else to the
  // request input, as the adapter wires the router's two ejection lanes
  task automatic send(input int nfl);
    bit a;
    a = (pf[0][`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO] == `SKIF_KIND_RMA_GET_RESP) ||
        (pf[0][`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO] == `SKIF_KIND_RMA_ACK);
    for (int k = 0; k < nfl; k++) begin
      @(negedge clk);
      if (a) begin
        ans_valid = 1'b1;
        ans_data  = pf[k];
        ans_last  = (k == nfl - 1);
      end else begin
        in_valid = 1'b1;
        in_data  = pf[k];
        in_last  = (k == nfl - 1);
      end
      @(posedge clk);
      while (!(a ? ans_ready : in_ready)) @(posedge clk);
      #1;
      in_valid  = 1'b0;
      ans_valid = 1'b0;
      if (!no_gap && rnd(8) == 0) repeat (rnd(3)) @(negedge clk);
    end
  endtask

  // data flits from pb[0..len-1]; bytes beyond len are garbage (don't-care on the link)
  task automatic pack_data(input int at, input int len);
    for (int k = 0; k < (len + 7) / 8; k++) begin
      logic [63:0] f;
      for (int b = 0; b < 8; b++) f[8 * b +: 8] = (8 * k + b < len) ? pb[8 * k + b] : 8'(rnd(256));
      pf[at + k] = f;
    end
  endtask

  // The reference write of pb[0..len-1] at a: whole words as they are;
  // a partial word whose read fails (poison) is left alone. Returns 1 if
  // such a read failed.
  function automatic logic ref_write(input logic [63:0] a, input int len);
    logic [63:0] w0, w1, wa;
    logic        bad;
    bad = 1'b0;
    w0 = {a[63:3], 3'b000};
    w1 = {(a + 64'(len) - 64'd1) >> 3, 3'b000};
    for (wa = w0; wa <= w1; wa = wa + 8) begin
      logic partial;
      partial = (wa < a) || (wa + 8 > a + 64'(len));
      if (partial && poisoned(wa)) bad = 1'b1;
      else begin
        for (int b = 0; b < 8; b++)
          if (wa + 64'(b) >= a && wa + 64'(b) < a + 64'(len))
            ref_m[wa[18:3]][8 * b +: 8] = pb[int'(wa + 64'(b) - a)];
      end
    end
    return bad;
  endfunction

  function automatic logic range_poisoned(input logic [63:0] a, input int len);
    logic [63:0] wa;
    range_poisoned = 1'b0;
    for (wa = {a[63:3], 3'b000}; wa < a + 64'(len); wa = wa + 8)
      if (poisoned(wa)) range_poisoned = 1'b1;
  endfunction

  task automatic exp_ack(input logic [15:0] dst, input logic [3:0] code, input logic [3:0] rk,
                         input logic [7:0] tag);
    if (dst == NODE) begin  // this node's own request: the ACK taken here
      e_acks++;
      if (code == `SKIF_RMA_ERR_OK && rk == `SKIF_KIND_RMA_PUT) e_puts++;
      else if (code == `SKIF_RMA_ERR_OK && rk == `SKIF_KIND_RMA_ATOMIC) e_atoms++;
      else e_errs++;
    end else
      exp_push(hdr(`SKIF_KIND_RMA_ACK, dst, NODE, code, rk, 12'h0, tag), 1'b1);
    if (code == `SKIF_RMA_ERR_OK) e_served++;
    else if (code != `SKIF_RMA_ERR_DMA) e_refused++;
  endtask

  // ---- PUT: pb[0..len-1] at a
  task automatic do_put(input logic [63:0] a, input int len);
    logic [15:0] src;
    logic [7:0]  tag;
    src = rsrc(); tag = 8'(rnd(256));
    for (int b = 0; b < len; b++) pb[b] = 8'(rnd(256));
    pf[0] = hdr(`SKIF_KIND_RMA_PUT, NODE, src, 4'h0, 4'h0, 12'(len), tag);
    pf[1] = a;
    pack_data(2, len);
    n_put++;
    if (win_ok(a, len, 3'b010)) begin
      if (ref_write(a, len)) begin
        exp_ack(src, `SKIF_RMA_ERR_DMA, `SKIF_KIND_RMA_PUT, tag);
        n_dma_err++;
      end else exp_ack(src, `SKIF_RMA_ERR_OK, `SKIF_KIND_RMA_PUT, tag);
    end else begin
      exp_ack(src, `SKIF_RMA_ERR_WIN, `SKIF_KIND_RMA_PUT, tag);
      n_put_err++;
    end
    send(2 + (len + 7) / 8);
  endtask

  // ---- GET of len bytes at a, answered to initiator address ia
  task automatic do_get(input logic [63:0] a, input int len);
    logic [15:0] src;
    logic [7:0]  tag;
    logic [63:0] ia;
    src = rsrc(); tag = 8'(rnd(256)); ia = rnd64();
    if (src == NODE) ia = self_addr(len);
    pf[0] = hdr(`SKIF_KIND_RMA_GET, NODE, src, 4'h0, 4'h0, 12'(len), tag);
    pf[1] = a;
    pf[2] = ia;
    n_get++;
    if (!win_ok(a, len, 3'b001)) begin
      exp_ack(src, `SKIF_RMA_ERR_WIN, `SKIF_KIND_RMA_GET, tag);
      n_get_err++;
    end else if (range_poisoned(a, len)) begin
      exp_ack(src, `SKIF_RMA_ERR_DMA, `SKIF_KIND_RMA_GET, tag);
      n_dma_err++;
    end else if (src == NODE) begin
      // the GET_RESP taken here: the data written at ia (W window)
      for (int b = 0; b < len; b++) pb[b] = ref_byte(a + 64'(b));
      if (!win_ok(ia, len, 3'b010)) e_errs++;
      else if (ref_write(ia, len)) e_errs++;
      else e_gets++;
      e_served++;
    end else begin
      exp_push(hdr(`SKIF_KIND_RMA_GET_RESP, src, NODE, 4'h0, 4'h0, 12'(len), tag), 1'b0);
      exp_push(ia, 1'b0);
      for (int k = 0; k < (len + 7) / 8; k++) begin
        logic [63:0] f;
        for (int b = 0; b < 8; b++) f[8 * b +: 8] = (8 * k + b < len) ? ref_byte(a + 64'(8 * k + b)) : 8'h00;
        exp_push(f, k == (len + 7) / 8 - 1);
      end
      e_served++;
    end
    send(3);
  endtask

  // ---- ATOMIC op on width wd (4/8) at a, result address ra
  task automatic do_atomic(input logic [63:0] a, input int wd, input logic [3:0] op,
                           input logic [63:0] opnd, input logic [63:0] cmp);
    logic [15:0] src;
    logic [7:0]  tag;
    logic [63:0] ra, old, nv, mask;
    logic        wr;
    src = rsrc(); tag = 8'(rnd(256)); ra = rnd64();
    if (src == NODE) ra = self_addr(wd);
    pf[0] = hdr(`SKIF_KIND_RMA_ATOMIC, NODE, src, op, 4'h0, 12'(wd), tag);
    pf[1] = a; pf[2] = ra; pf[3] = opnd; pf[4] = cmp;
    n_atom++;
    mask = (wd == 8) ? 64'hFFFF_FFFF_FFFF_FFFF : 64'hFFFF_FFFF;
    if (op > `SKIF_RMA_OP_CSWAP || (wd == 8 && a[2:0] != 0) || (wd == 4 && a[1:0] != 0)) begin
      exp_ack(src, `SKIF_RMA_ERR_OP, `SKIF_KIND_RMA_ATOMIC, tag);
      n_atom_err++;
    end else if (!win_ok(a, wd, 3'b100)) begin
      exp_ack(src, `SKIF_RMA_ERR_WIN, `SKIF_KIND_RMA_ATOMIC, tag);
      n_atom_err++;
    end else begin
      old = 64'h0;
      for (int b = 0; b < wd; b++) old[8 * b +: 8] = ref_byte(a + 64'(b));
      wr = 1'b1;
      case (op)
        `SKIF_RMA_OP_FETCH: begin nv = old; wr = 1'b0; end
        `SKIF_RMA_OP_FADD, `SKIF_RMA_OP_ADD: nv = (old + opnd) & mask;
        `SKIF_RMA_OP_SWAP: nv = opnd & mask;
        default: begin  // CSWAP
          wr = (old == (cmp & mask));
          nv = opnd & mask;
        end
      endcase
      if (wr) for (int b = 0; b < wd; b++) ref_m[(a + 64'(b)) >> 3][8 * ((a[2:0] + 3'(b)) & 7) +: 8] = nv[8 * b +: 8];
      if (op == `SKIF_RMA_OP_ADD) exp_ack(src, `SKIF_RMA_ERR_OK, `SKIF_KIND_RMA_ATOMIC, tag);
      else if (src == NODE) begin
        // the ACK taken here: the old value written at ra (W window)
        for (int b = 0; b < wd; b++) pb[b] = old[8 * b +: 8];
        e_acks++;
        if (!win_ok(ra, wd, 3'b010)) e_errs++;
        else if (ref_write(ra, wd)) e_errs++;
        else e_atoms++;
        e_served++;
      end else begin
        exp_push(hdr(`SKIF_KIND_RMA_ACK, src, NODE, 4'h0, `SKIF_KIND_RMA_ATOMIC, 12'(wd), tag), 1'b0);
        exp_push(ra, 1'b0);
        exp_push(old, 1'b1);
        e_served++;
      end
    end
    send(5);
  endtask

  // ---- answers to this node: GET_RESP of pb[0..len-1] for address a
  task automatic do_get_resp(input logic [63:0] a, input int len);
    for (int b = 0; b < len; b++) pb[b] = 8'(rnd(256));
    pf[0] = hdr(`SKIF_KIND_RMA_GET_RESP, NODE, 16'(rnd(65536)), 4'h0, 4'h0, 12'(len), 8'(rnd(256)));
    pf[1] = a;
    pack_data(2, len);
    n_rsp++;
    if (win_ok(a, len, 3'b010)) begin
      if (ref_write(a, len)) e_errs++;
      else e_gets++;
    end else e_errs++;
    send(2 + (len + 7) / 8);
  endtask
  // an ACK: code, request kind answered, value (len 4/8) for address a
  task automatic do_ack(input logic [3:0] code, input logic [3:0] rk, input int len,
                        input logic [63:0] a, input logic [63:0] v);
    pf[0] = hdr(`SKIF_KIND_RMA_ACK, NODE, 16'(rnd(65536)), code, rk, 12'(len), 8'(rnd(256)));
    pf[1] = a;
    pf[2] = v;
    n_rsp++;
    e_acks++;
    if (len == 0) begin
      if (code != 0 || (rk != `SKIF_KIND_RMA_PUT && rk != `SKIF_KIND_RMA_ATOMIC)) e_errs++;
      else if (rk == `SKIF_KIND_RMA_PUT) e_puts++;
      else e_atoms++;
      send(1);
    end else begin
      for (int b = 0; b < len; b++) pb[b] = v[8 * b +: 8];
      if (code != 0 || rk != `SKIF_KIND_RMA_ATOMIC || !win_ok(a, len, 3'b010)) e_errs++;
      else if (ref_write(a, len)) e_errs++;
      else e_atoms++;
      send(3);
    end
  endtask

  // ---- malformed packets (one fault each)
  task automatic do_forged(input int which);
    logic [15:0] src;
    logic [7:0]  tag;
    int len;
    src = rsrc(); tag = 8'(rnd(256));
    n_forged++;
    case (which)
      0: begin  // PUT of length 0 (address flit only)
        pf[0] = hdr(`SKIF_KIND_RMA_PUT, NODE, src, 4'h0, 4'h0, 12'h0, tag);
        pf[1] = wb[0];
        exp_ack(src, `SKIF_RMA_ERR_LEN, `SKIF_KIND_RMA_PUT, tag);
        send(1 + rnd(2));
      end
      1: begin  // PUT longer than SKIF_MAX_MSG (a few flits)
        len = `SKIF_MAX_MSG + 1 + rnd(4095 - `SKIF_MAX_MSG);
        pf[0] = hdr(`SKIF_KIND_RMA_PUT, NODE, src, 4'h0, 4'h0, 12'(len), tag);
        pf[1] = wb[0];
        for (int k = 2; k < 10; k++) pf[k] = rnd64();
        exp_ack(src, `SKIF_RMA_ERR_LEN, `SKIF_KIND_RMA_PUT, tag);
        send(1 + rnd(10));
      end
      2: begin  // PUT whose last flag comes early
        len = 9 + rnd(200);
        pf[0] = hdr(`SKIF_KIND_RMA_PUT, NODE, src, 4'h0, 4'h0, 12'(len), tag);
        pf[1] = wb[0] + 64'(rnd(256));
        for (int k = 2; k < 40; k++) pf[k] = rnd64();
        exp_ack(src, `SKIF_RMA_ERR_FORMAT, `SKIF_KIND_RMA_PUT, tag);
        send(1 + rnd(1 + (len + 7) / 8));
      end
      3: begin  // PUT whose last flag comes late
        len = 1 + rnd(200);
        pf[0] = hdr(`SKIF_KIND_RMA_PUT, NODE, src, 4'h0, 4'h0, 12'(len), tag);
        pf[1] = wb[0] + 64'(rnd(256));
        for (int k = 2; k < 40; k++) pf[k] = rnd64();
        exp_ack(src, `SKIF_RMA_ERR_FORMAT, `SKIF_KIND_RMA_PUT, tag);
        send(2 + (len + 7) / 8 + 1 + rnd(3));
      end
      4: begin  // GET of length 0 or > SKIF_MAX_MSG
        len = rnd(2) ? 0 : `SKIF_MAX_MSG + 1 + rnd(100);
        pf[0] = hdr(`SKIF_KIND_RMA_GET, NODE, src, 4'h0, 4'h0, 12'(len), tag);
        pf[1] = wb[0]; pf[2] = rnd64();
        exp_ack(src, `SKIF_RMA_ERR_LEN, `SKIF_KIND_RMA_GET, tag);
        send(3);
      end
      5: begin  // ATOMIC of width other than 4/8
        len = rnd(2) ? 0 : 1 + rnd(15);
        if (len == 4 || len == 8) len = 16;
        pf[0] = hdr(`SKIF_KIND_RMA_ATOMIC, NODE, src, `SKIF_RMA_OP_FADD, 4'h0, 12'(len), tag);
        pf[1] = wb[3]; pf[2] = rnd64(); pf[3] = 64'h1; pf[4] = 64'h0;
        exp_ack(src, `SKIF_RMA_ERR_LEN, `SKIF_KIND_RMA_ATOMIC, tag);
        send(5);
      end
      6: begin  // ATOMIC cut short
        pf[0] = hdr(`SKIF_KIND_RMA_ATOMIC, NODE, src, `SKIF_RMA_OP_FADD, 4'h0, 12'd8, tag);
        pf[1] = wb[3]; pf[2] = rnd64(); pf[3] = 64'h1;
        exp_ack(src, `SKIF_RMA_ERR_FORMAT, `SKIF_KIND_RMA_ATOMIC, tag);
        send(1 + rnd(4));
      end
      7: begin  // not an RMA kind: counted, no answer
        pf[0] = hdr(rnd(2) ? `SKIF_KIND_MSG : 4'(8 + rnd(8)), NODE, src, 4'h0, 4'h0, 12'(rnd(64)), tag);
        for (int k = 1; k < 10; k++) pf[k] = rnd64();
        e_refused++;
        send(1 + rnd(9));
      end
      8: begin  // PUT crossing the top of the address space (a window ends there)
        len = 9 + rnd(100);
        for (int b = 0; b < len; b++) pb[b] = 8'(rnd(256));
        pf[0] = hdr(`SKIF_KIND_RMA_PUT, NODE, src, 4'h0, 4'h0, 12'(len), tag);
        pf[1] = 64'hFFFF_FFFF_FFFF_FFFF - 64'(rnd(len - 1));
        pack_data(2, len);
        exp_ack(src, `SKIF_RMA_ERR_WIN, `SKIF_KIND_RMA_PUT, tag);
        send(2 + (len + 7) / 8);
      end
      9: begin  // GET_RESP cut short: an error completion, no write
        len = 9 + rnd(200);
        pf[0] = hdr(`SKIF_KIND_RMA_GET_RESP, NODE, src, 4'h0, 4'h0, 12'(len), tag);
        pf[1] = wb[0];
        for (int k = 2; k < 40; k++) pf[k] = rnd64();
        e_errs++;
        send(2 + rnd((len + 7) / 8));
      end
      default: begin  // ACK without value followed by a stray flit; ACK of bad length
        pf[0] = hdr(`SKIF_KIND_RMA_ACK, NODE, src, 4'h0, `SKIF_KIND_RMA_PUT, rnd(2) ? 12'h0 : 12'd5, tag);
        pf[1] = wb[0]; pf[2] = rnd64();
        e_errs++;
        e_acks++;
        send(2 + rnd(2));
      end
    endcase
  endtask

  // an address for an access of len bytes in window w (or near its edges)
  function automatic logic [63:0] addr_in(input int w, input int len, input int al);
    logic [63:0] a;
    if (ws[w] >= 64'(len)) a = wb[w] + 64'(rnd(int'(ws[w]) - len + 1));
    else a = wb[w];
    if (al > 1) a = a & ~64'(al - 1);
    return a;
  endfunction

  // ---------------------------------------------------------------- registers
  task automatic reg_write(input logic [11:0] a, input logic [31:0] d);
    @(negedge clk);
    reg_we = 1'b1; reg_addr = a; reg_wdata = d;
    @(negedge clk);
    reg_we = 1'b0;
  endtask
  task automatic reg_read(input logic [11:0] a, output logic [31:0] d);
    @(negedge clk);
    reg_addr = a;
    #1;
    d = reg_rdata;
    `CHECK(reg_hit, ("register %h not in the RMA window", a))
  endtask
  task automatic reg_expect(input logic [11:0] a, input logic [31:0] v, input string what);
    logic [31:0] d;
    reg_read(a, d);
    `CHECK(d == v, ("register %s (%h): %h, expected %h", what, a, d, v))
  endtask
  task automatic set_window(input int w, input logic [63:0] b, input logic [63:0] s, input logic [2:0] p);
    reg_write(`SKIF_REG_RMA_WIN_SEL, 32'(w));
    reg_write(`SKIF_REG_RMA_WIN_BASE_LO, b[31:0]);
    reg_write(`SKIF_REG_RMA_WIN_BASE_HI, b[63:32]);
    reg_write(`SKIF_REG_RMA_WIN_SIZE_LO, s[31:0]);
    reg_write(`SKIF_REG_RMA_WIN_SIZE_HI, s[63:32]);
    reg_write(`SKIF_REG_RMA_WIN_CFG, {29'h0, p});
  endtask

  // watchdog: the engine never stays away from a header for long (the
  // longest packet takes a few thousand cycles at the slowest settings)
  int idle_for = 0;
  always @(posedge clk) begin
    idle_for <= in_ready ? 0 : idle_for + 1;
    if (idle_for > 100_000) $fatal(1, "tb_skif_rma: the engine is stuck (state %0d)", u_rma.state_q);
  end

  // ---------------------------------------------------------------- test
  reg [8*256-1:0] wave_file;
  int wlist_w [4], wlist_r [4], wlist_a [3];
  initial begin
    if ($value$plusargs("wave=%s", wave_file)) begin
      $dumpfile(wave_file);
      $dumpvars(0, tb_skif_rma);
    end
    rng = 32'(SEED) * 32'h9E3779B9 + 32'h1;
    for (int n = 0; n < MW; n++) begin
      mem[n]   = {32'(n) * 32'h01000193, 32'(n) ^ 32'hA5A5_0000};
      ref_m[n] = mem[n];
    end
    wlist_w[0] = 0; wlist_w[1] = 2; wlist_w[2] = 4; wlist_w[3] = 5;
    wlist_r[0] = 0; wlist_r[1] = 1; wlist_r[2] = 4; wlist_r[3] = 5;
    wlist_a[0] = 3; wlist_a[1] = 4; wlist_a[2] = 6;
    repeat (3) @(negedge clk);
    rst_n = 1'b1;

    // ---- registers: reset values, the window table
    reg_expect(`SKIF_REG_RMA_WINDOWS, 32'(WINDOWS), "WINDOWS");
    reg_expect(`SKIF_REG_RMA_STATUS, 32'h0, "STATUS");
    reg_expect(`SKIF_REG_RMA_REFUSED, 32'h0, "REFUSED");
    for (int w = 0; w < WINDOWS; w++) set_window(w, wb[w], ws[w], wp[w]);
    set_window(200, 64'h0, 64'hFFFF_FFFF_FFFF_FFF8, 3'b111);   // beyond the table: ignored
    reg_write(`SKIF_REG_RMA_STAT_LO, STAT[31:0] | 32'h7);       // bits [2:0] read 0
    reg_write(`SKIF_REG_RMA_STAT_HI, STAT[63:32]);
    reg_expect(`SKIF_REG_RMA_STAT_LO, STAT[31:0], "STAT_LO");
    for (int w = 0; w < 8; w++) begin
      reg_write(`SKIF_REG_RMA_WIN_SEL, 32'(w));
      reg_expect(`SKIF_REG_RMA_WIN_CFG, (w < WINDOWS) ? 32'(wp[w]) : 32'h0, "WIN_CFG");
      reg_expect(`SKIF_REG_RMA_WIN_RBASE_LO, (w < WINDOWS) ? wb[w][31:0] : 32'h0, "WIN_RBASE_LO");
      reg_expect(`SKIF_REG_RMA_WIN_RBASE_HI, (w < WINDOWS) ? wb[w][63:32] : 32'h0, "WIN_RBASE_HI");
      reg_expect(`SKIF_REG_RMA_WIN_RSIZE_LO, (w < WINDOWS) ? ws[w][31:0] : 32'h0, "WIN_RSIZE_LO");
      reg_expect(`SKIF_REG_RMA_WIN_RSIZE_HI, (w < WINDOWS) ? ws[w][63:32] : 32'h0, "WIN_RSIZE_HI");
    end

    // ---- puts of every size 1..256 at every alignment (window 0), each read back by a get
    for (int len = 1; len <= 256; len++) begin
      logic [63:0] a;
      a = wb[0] + 64'h100 + 64'(rnd(64) * 8) + 64'(len % 8);
      do_put(a, len);
      if (len % 8 == 0) do_get(a - 64'd3, len + 6);
    end
    // ---- directed refusals
    do_put(wb[1] + 64'h10, 16);                           // R-only window
    do_put(wb[0] + ws[0] - 64'd5, 8);                     // crosses the end
    do_put(wb[0] - 64'd2, 8);                             // crosses the start
    do_get(wb[2] + 64'h8, 8);                             // W-only window
    do_atomic(wb[0], 8, `SKIF_RMA_OP_FADD, 64'h1, 64'h0); // no A permission
    do_atomic(wb[3] + 64'h4, 8, `SKIF_RMA_OP_FADD, 64'h1, 64'h0);  // misaligned
    do_atomic(wb[3] + 64'h2, 4, `SKIF_RMA_OP_FADD, 64'h1, 64'h0);  // misaligned
    do_atomic(wb[3], 8, 4'h7, 64'h1, 64'h0);              // bad op
    for (int i = 0; i <= 10; i++) do_forged(i);
    // ---- contention: back-to-back atomics on one word, both widths
    for (int i = 0; i < 200; i++) begin
      int r;
      r = rnd(10);
      if (r < 5) do_atomic(wb[3] + 64'h40, 8, rnd(2) ? `SKIF_RMA_OP_FADD : `SKIF_RMA_OP_ADD,
                           64'(rnd(1000)), 64'h0);
      else if (r < 8) do_atomic(wb[3] + 64'h40 + 64'(4 * rnd(2)), 4, `SKIF_RMA_OP_FADD,
                                64'(rnd(1 << 30)) << 1, 64'h0);
      else if (r < 9) do_atomic(wb[3] + 64'h40, 8, `SKIF_RMA_OP_FETCH, 64'h0, 64'h0);
      else do_atomic(wb[3] + 64'h40, 8, `SKIF_RMA_OP_CSWAP, 64'(rnd(100)), 64'(rnd(2)));
    end

    // ---- random mix (one request in six from this node to itself)
    for (int i = 0; i < NOPS; i++) begin
      int r, len, w;
      logic [63:0] a;
      self_req = (rnd(6) == 0);
      r = rnd(100);
      case (rnd(6))
        0: len = 1 + rnd(8);
        1: len = 1 + rnd(64);
        2: len = `SKIF_MAX_MSG - rnd(16);
        default: len = 1 + rnd(600);
      endcase
      if (r < 30) begin
        w = (rnd(8) == 0) ? rnd(WINDOWS < 8 ? WINDOWS : 7) : wlist_w[rnd(4)];
        a = addr_in(w, len, 1);
        if (rnd(10) == 0) a = wb[w] + ws[w] - 64'(rnd(len));   // crossing the end
        do_put(a, len);
      end else if (r < 45) begin
        w = (rnd(8) == 0) ? rnd(WINDOWS < 8 ? WINDOWS : 7) : wlist_r[rnd(4)];
        a = addr_in(w, len, 1);
        if (rnd(10) == 0) a = wb[w] + ws[w] - 64'(rnd(len));
        do_get(a, len);
      end else if (r < 65) begin
        int wd;
        logic [3:0] op;
        logic [63:0] cur;
        wd = rnd(2) ? 8 : 4;
        w = (rnd(8) == 0) ? rnd(WINDOWS < 8 ? WINDOWS : 7) : wlist_a[rnd(3)];
        a = addr_in(w, wd, wd);
        if (rnd(20) == 0) a = a + 64'(1 + rnd(wd - 1));   // misaligned
        op = (rnd(20) == 0) ? 4'(5 + rnd(11)) : 4'(rnd(5));
        // the compare value: random, or the current value (the swap happens)
        cur = ref_m[a[18:3]];
        if (wd == 4) cur = {32'h0, a[2] ? cur[63:32] : cur[31:0]};
        do_atomic(a, wd, op, rnd64(), rnd(2) ? rnd64() : cur);
      end else if (r < 78) begin
        w = (rnd(6) == 0) ? wlist_r[1] : wlist_w[rnd(4)];
        a = addr_in(w, len, 1);
        do_get_resp(a, len);
      end else if (r < 94) begin
        int k;
        k = rnd(6);
        if (k == 0) do_ack(4'h0, `SKIF_KIND_RMA_PUT, 0, 64'h0, 64'h0);
        else if (k == 1) do_ack(4'(1 + rnd(5)), rnd(2) ? `SKIF_KIND_RMA_PUT : `SKIF_KIND_RMA_GET, 0, 64'h0, 64'h0);
        else if (k == 2) do_ack(4'h0, `SKIF_KIND_RMA_ATOMIC, 0, 64'h0, 64'h0);
        else if (k == 3) do_ack(4'h0, `SKIF_KIND_RMA_GET, 0, 64'h0, 64'h0);
        else begin
          int wd;
          wd = rnd(2) ? 8 : 4;
          w = (rnd(6) == 0) ? wlist_r[1] : wlist_w[rnd(4)];
          do_ack(4'h0, `SKIF_KIND_RMA_ATOMIC, wd, addr_in(w, wd, 1), rnd64());
        end
      end else begin
        do_forged(rnd(11));
      end
      if (rnd(30) == 0) repeat (rnd(200)) @(negedge clk);  // the engine drains
    end
    self_req = 1'b0;

    // ---- drain
    begin
      int seen, since;
      seen = mon_n; since = cycle;
      while (mon_n != exp_n || busy || pd_rd != pd_wr || in_valid) begin
        @(negedge clk);
        if (mon_n != seen) begin seen = mon_n; since = cycle; end
        if (cycle - since > 100_000) $fatal(1, "timeout: %0d of %0d output flits", mon_n, exp_n);
      end
    end
    repeat (20) @(negedge clk);

    // ---- figures: cycles from a packet's first flit offered to its answer's
    // last flit taken (store and forward), for an aligned 2048-byte put and
    // get, one 8-byte put and one 64-bit fetch-add
    begin
      int t0, c_put, c_get, c_put8, c_fadd;
      t0 = cycle; do_put(wb[0], 2048);
      while (mon_n != exp_n) @(negedge clk);
      c_put = cycle - t0;
      t0 = cycle; do_get(wb[0], 2048);
      while (mon_n != exp_n) @(negedge clk);
      c_get = cycle - t0;
      t0 = cycle; do_put(wb[0], 8);
      while (mon_n != exp_n) @(negedge clk);
      c_put8 = cycle - t0;
      t0 = cycle; do_atomic(wb[3], 8, `SKIF_RMA_OP_FADD, 64'h1, 64'h0);
      while (mon_n != exp_n) @(negedge clk);
      c_fadd = cycle - t0;
      while (busy) @(negedge clk);
      $display("tb_skif_rma: cycles to the answer (DMA ready %0d%%, read latency <= %0d, output ready %0d%%): put 2048 B %0d, get 2048 B %0d, put 8 B %0d, fetch-add %0d",
               DMA_PCT, LAT, OUT_PCT, c_put, c_get, c_put8, c_fadd);
    end
    // ---- rate: 64 puts of 8 B at aligned addresses back to back from a
    // source without gaps, cycles from the first flit offered to the last
    // ACK taken; with the DMA port and the output always ready the engine
    // takes one every 3 cycles (its 3 flits), so 3 x 64 plus its latency
    begin
      int t0, c_rate;
      no_gap = 1'b1;
      t0 = cycle;
      for (int n = 0; n < 64; n++) do_put(wb[0] + 64'(8 * n), 8);
      while (mon_n != exp_n) @(negedge clk);
      c_rate = cycle - t0;
      no_gap = 1'b0;
      while (busy) @(negedge clk);
      $display("tb_skif_rma: 64 puts of 8 B back to back: %0d cycles (%0d.%02d cycles per put)",
               c_rate, c_rate / 64, (c_rate * 100 / 64) % 100);
      if (DMA_PCT >= 100 && OUT_PCT >= 100)
        `CHECK(c_rate <= 3 * 64 + 8, ("64 puts of 8 B took %0d cycles, more than 3 per put", c_rate))
    end

    // ---- counters, status words, memory
    reg_expect(`SKIF_REG_RMA_REFUSED, 32'(e_refused), "REFUSED");
    reg_expect(`SKIF_REG_RMA_ACKS, 32'(e_acks), "ACKS");
    reg_expect(`SKIF_REG_RMA_PUTS, 32'(e_puts), "PUTS");
    reg_expect(`SKIF_REG_RMA_GETS, 32'(e_gets), "GETS");
    reg_expect(`SKIF_REG_RMA_ATOMS, 32'(e_atoms), "ATOMS");
    reg_expect(`SKIF_REG_RMA_ERRS, 32'(e_errs), "ERRS");
    reg_expect(`SKIF_REG_RMA_SERVED, 32'(e_served), "SERVED");
    reg_expect(`SKIF_REG_RMA_STATUS, {30'h0, e_errs != 0, e_refused != 0}, "STATUS");
    reg_write(`SKIF_REG_RMA_STATUS, 32'h3);
    reg_expect(`SKIF_REG_RMA_STATUS, 32'h0, "STATUS after W1C");
    if (STAT != 64'h0) begin
      ref_m[STAT[18:3]]         = {32'(e_gets), 32'(e_puts)};
      ref_m[STAT[18:3] + 16'd1] = {32'(e_errs), 32'(e_atoms)};
    end else begin
      `CHECK(n_stat_wr == 0, ("%0d status writes with RMA_STAT = 0", n_stat_wr))
    end
    begin
      int nbad;
      nbad = 0;
      for (int n = 0; n < MW; n++) begin
        if (mem[n] !== ref_m[n]) begin
          nbad++;
          if (nbad <= 10) begin
            `CHECK(0, ("memory word at %h: %h, reference %h", n * 8, mem[n], ref_m[n]))
          end else errors++;
        end
      end
    end
    `CHECK(n_dma_err > 0 || WINDOWS < 6, ("no DMA read error exercised"))
    `CHECK(n_held > 0 || OUT_PCT >= 100, ("the output was never back-pressured"))
    `CHECK(n_gated >= 100, ("the twin's clock was gated at %0d of %0d edges", n_gated, cycle))
    $display("tb_skif_rma: Windows %0d MaxReads %0d: %0d puts (%0d refused), %0d gets (%0d refused), %0d atomics (%0d refused), %0d answers in, %0d forged, %0d DMA errors",
             WINDOWS, MAXREADS, n_put, n_put_err, n_get, n_get_err, n_atom, n_atom_err, n_rsp, n_forged, n_dma_err);
    $display("tb_skif_rma: %0d packets out, %0d DMA writes, %0d reads (max %0d outstanding), %0d status writes; PUTS %0d GETS %0d ATOMS %0d ERRS %0d REFUSED %0d; %0d cycles (%0d with the twin's clock gated), %0d errors",
             n_out_pkts, n_dma_wr, n_dma_rd, max_out, n_stat_wr, e_puts, e_gets, e_atoms, e_errs, e_refused, cycle, n_gated, errors);
    if (errors > 0) $fatal(1, "tb_skif_rma: %0d errors", errors);
    $display("PASS tb_skif_rma");
    $finish;
  end
endmodule
