`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// tb_router_route: skif_torus_route against a behavioural model, for every
// (src, dst) pair of a torus and every kind (message, collective up/down,
// RMA answer: GET_RESP and ACK).
//
// Walks each packet hop by hop through the route function (output port ->
// neighbour, arriving on the opposite port with the VC chosen): every hop's
// port and VC equal the model's (dimension order X, Y, Z, W; shortest way
// round; at exactly half the ring PLUS or MINUS by the flow (TIE = 1: MINUS
// iff bit 0 of src's coordinate there, xor bit 0 of src ^ dst in every other
// dimension, is 1; TIE = 0: PLUS, the first router); class 0 until the hop that crosses the
// ring's wrap link, class 1 from that hop until the packet leaves the
// dimension; collectives never cross a wrap link and keep class 2/3; RMA
// answers as messages but in classes 4/5 (the answer network), ejected on
// the answer lane (local VC 4*NumVcs); sub-VC from the flow hash), the path has the model's length and ends at dst, the
// injection VC and the bad-dst flag are right. Then builds the channel
// dependency graph (link channel = router, port, VC; an edge for every pair of
// consecutive hops of every route, answers included) and checks it is
// acyclic, and that no answer channel depends on a request/message channel
// or the reverse (the two networks share no VC) (Dally-Seitz:
// no deadlock); the same check on the route function built with Dateline=0
// must find a cycle whenever a ring has 5 or more nodes, or 4 with TIE = 0
// (it would deadlock).
// With TIE = 1, the half-ring messages of each dimension of even size must
// take PLUS and MINUS hops in equal numbers (the point of the tie-break).
`include "skif_defs.vh"

module tb_router_route;
  parameter int NDIMS = 2;
  parameter int SX    = 3;
  parameter int SY    = 3;
  parameter int SZ    = 1;
  parameter int SW    = 1;
  parameter int NVCS  = 1;
  parameter int TIE   = 1;

  localparam int N     = SX * SY * SZ * SW;
  localparam int Links = 2 * NDIMS;
  localparam int Ports = Links + 1;
  localparam int PortW = $clog2(Ports);
  localparam int TV    = 6 * NVCS;
  localparam int VcW   = $clog2(TV);
  localparam int NCH   = N * Links * TV;   // link channels
  localparam int EMAX  = N * N * 5 * 4 * 8; // dependency edges, upper bound

  int errors = 0;
  `define CHECK(cond, msg) if (!(cond)) begin errors = errors + 1; $error msg; end

  // ---------------------------------------------------------------- geometry model
  function automatic int dsz(input int d);
    case (d) 0: return SX; 1: return SY; 2: return SZ; default: return SW; endcase
  endfunction
  function automatic int crd(input int r, input int d);
    int s; s = 1;
    for (int k = 0; k < d; k++) s = s * dsz(k);
    return (r / s) % dsz(d);
  endfunction
  function automatic int step(input int r, input int d, input int dir);  // dir +1 / -1
    int s, c; s = 1;
    for (int k = 0; k < d; k++) s = s * dsz(k);
    c = crd(r, d);
    return r + (((c + dir + dsz(d)) % dsz(d)) - c) * s;
  endfunction
  function automatic logic [15:0] nid(input int r);
    logic [15:0] id; id = 0;
    for (int d = 0; d < 4; d++) id[4*d +: 4] = 4'(crd(r, d));
    return id;
  endfunction
  function automatic int sub_of(input logic [15:0] s, input logic [15:0] t);
    logic [15:0] f; f = s ^ t;
    return int'(f[3:0] ^ f[7:4] ^ f[11:8] ^ f[15:12]) % NVCS;
  endfunction
  // class of a message that never crosses a dimension's wrap link (fixed per flow)
  // half-ring tie in dimension d of the flow s -> t (ranks): 1 = MINUS
  function automatic bit tie_minus_of(input int s, input int t, input int d);
    bit m; m = crd(s, d) % 2;
    for (int e = 0; e < 4; e++) if (e != d) m = m ^ bit'((crd(s, e) + crd(t, e)) % 2);
    return (TIE != 0) && m;
  endfunction
  function automatic int alt_of(input logic [15:0] s, input logic [15:0] t);
    logic [15:0] f; logic [3:0] h; f = s ^ t; h = f[3:0] ^ f[7:4] ^ f[11:8] ^ f[15:12];
    return int'(h[1] ^ h[2] ^ h[3]);
  endfunction

  // ---------------------------------------------------------------- DUTs
  logic [15:0]      node_id, dst, src;
  logic [3:0]       kind;
  logic [PortW-1:0] in_port;
  logic [VcW-1:0]   in_vc;
  wire  [PortW-1:0] port, port0;
  wire  [VcW-1:0]   vc, inj_vc, vc0, inj_vc0;
  wire              bad, bad0, ans, ans0;
  wire  [PortW-1:0] port_off;
  wire  [VcW-1:0]   vc_off, inj_vc_off;
  wire              bad_off, ans_off;

  skif_torus_route #(
    .NDims (NDIMS), .NumVcs (NVCS), .Dateline (1), .Tie (TIE)
  ) u_route (
    .en_i (1'b1), .node_id_i (node_id), .sizes_i ({5'(SW), 5'(SZ), 5'(SY), 5'(SX)}), .dst_i (dst), .src_i (src), .kind_i (kind), .in_port_i (in_port),
    .in_vc_i (in_vc), .port_o (port), .vc_o (vc), .inj_vc_o (inj_vc), .ans_o (ans), .bad_o (bad)
  );

  // the same function without the dateline (the deadlock-prone reference)
  skif_torus_route #(
    .NDims (NDIMS), .NumVcs (NVCS), .Dateline (0), .Tie (TIE)
  ) u_route_nodl (
    .en_i (1'b1), .node_id_i (node_id), .sizes_i ({5'(SW), 5'(SZ), 5'(SY), 5'(SX)}), .dst_i (dst), .src_i (src), .kind_i (kind), .in_port_i (in_port),
    .in_vc_i (in_vc), .port_o (port0), .vc_o (vc0), .inj_vc_o (inj_vc0), .ans_o (ans0), .bad_o (bad0)
  );

  // no flit (en_i = 0): no route (the local port, all else zero), whatever the inputs
  skif_torus_route #(
    .NDims (NDIMS), .NumVcs (NVCS), .Dateline (1), .Tie (TIE)
  ) u_route_off (
    .en_i (1'b0), .node_id_i (node_id), .sizes_i ({5'(SW), 5'(SZ), 5'(SY), 5'(SX)}), .dst_i (dst), .src_i (src), .kind_i (kind), .in_port_i (in_port),
    .in_vc_i (in_vc), .port_o (port_off), .vc_o (vc_off), .inj_vc_o (inj_vc_off), .ans_o (ans_off), .bad_o (bad_off)
  );

  // ---------------------------------------------------------------- dependency graphs
  int tie_hops [4][2];  // half-ring messages' first hops per dimension: [d][PLUS, MINUS]
  int e_src [2][EMAX];
  int e_dst [2][EMAX];
  int ne [2];

  function automatic int chan(input int r, input int p, input int v);
    return (r * Links + p) * TV + v;
  endfunction

  // Kahn: remove channels without incoming edges; leftovers lie on a cycle.
  function automatic int cyclic_left(input int g);
    int indeg [NCH];
    bit gone [NCH];
    int left, progress;
    for (int c = 0; c < NCH; c++) begin indeg[c] = 0; gone[c] = 0; end
    for (int e = 0; e < ne[g]; e++) indeg[e_dst[g][e]]++;
    left = NCH;
    progress = 1;
    while (progress) begin
      progress = 0;
      for (int c = 0; c < NCH; c++) begin
        if (!gone[c] && indeg[c] == 0) begin
          gone[c] = 1; left--; progress = 1;
          for (int e = 0; e < ne[g]; e++) if (e_src[g][e] == c) indeg[e_dst[g][e]]--;
        end
      end
    end
    return left;
  endfunction

  // ---------------------------------------------------------------- walk
  // g = 0: the real route function, checked against the model; g = 1: no
  // dateline, only its dependency graph is recorded.
  task automatic walk(input int s, input int t, input int kd, input int g);
    int cur, hops, exp_hops, d, c, tc, dp, dir, cls, ep, ev, prev_ch, ch, guard;
    bit plus, crossed [4];
    bit coll, done, an;
    an   = (kd == `SKIF_KIND_RMA_GET_RESP) || (kd == `SKIF_KIND_RMA_ACK);
    coll = (kd == `SKIF_KIND_COLL_UP) || (kd == `SKIF_KIND_COLL_DOWN);
    src = nid(s); dst = nid(t); kind = 4'(kd);
    cur = s; hops = 0; prev_ch = -1;
    in_port = PortW'(Links);
    in_vc = '0;
    for (int k = 0; k < 4; k++) crossed[k] = 0;
    node_id = nid(cur);
    #1;
    if (g == 0) begin
      `CHECK(!bad, ("%0d -> %0d: bad_o for a valid dst", s, t))
      cls = (kd == `SKIF_KIND_COLL_UP) ? 2 : (kd == `SKIF_KIND_COLL_DOWN) ? 3 : an ? 4 : 0;
      `CHECK(ans == an, ("%0d -> %0d kind %0d: ans_o %b", s, t, kd, ans))
      `CHECK(inj_vc == VcW'(cls * NVCS + sub_of(src, dst)), ("%0d -> %0d kind %0d: inj_vc %0d", s, t, kd, inj_vc))
      `CHECK(port_off == PortW'(Links) && vc_off == '0 && !bad_off && !ans_off && inj_vc_off == '0,
             ("%0d -> %0d kind %0d without en_i: port %0d vc %0d bad %b", s, t, kd, port_off, vc_off, bad_off))
      in_vc = inj_vc;
    end else begin
      in_vc = inj_vc0;
    end
    exp_hops = 0;
    for (int k = 0; k < NDIMS; k++) begin
      c = crd(s, k); tc = crd(t, k); dp = (tc - c + dsz(k)) % dsz(k);
      exp_hops += coll ? ((tc > c) ? tc - c : c - tc) : ((2 * dp <= dsz(k)) ? dp : dsz(k) - dp);
    end
    guard = 0;
    done = 0;
    while (!done) begin
      node_id = nid(cur);
      #1;
      // model: the first dimension still to correct
      d = -1;
      for (int k = NDIMS - 1; k >= 0; k--) if (crd(cur, k) != crd(t, k)) d = k;
      if (d < 0) begin
        ep = Links; ev = an ? 4 * NVCS : 0;
      end else begin
        c = crd(cur, d); tc = crd(t, d); dp = (tc - c + dsz(d)) % dsz(d);
        if (coll) plus = tc > c;
        else      plus = (dp < dsz(d) - dp) || (dp == dsz(d) - dp && !tie_minus_of(s, t, d));
        if (g == 0 && !coll && !an && dp == dsz(d) - dp) tie_hops[d][plus ? 0 : 1]++;
        dir = plus ? 1 : -1;
        if ((plus && c == dsz(d) - 1) || (!plus && c == 0)) crossed[d] = crossed[d] + 1;  // this hop wraps
        if (coll) cls = (kd == `SKIF_KIND_COLL_UP) ? 2 : 3;
        else if (crossed[d] != 0) cls = 1;
        // still to cross the wrap link in this dimension: class 0; never: either, per flow
        else if ((plus && tc < c) || (!plus && tc > c)) cls = 0;
        else      cls = alt_of(src, dst);
        if (an) cls = cls + 4;  // the answer network: the message rule in classes 4/5
        ep = plus ? 2 * d : 2 * d + 1;
        ev = cls * NVCS + sub_of(src, dst);
        if (g == 0) `CHECK(!(coll && crossed[d] != 0), ("%0d -> %0d: collective crosses a wrap link", s, t))
      end
      if (g == 0) begin
        `CHECK(port == PortW'(ep) && vc == VcW'(ev), ("%0d -> %0d kind %0d at node %0d (in port %0d vc %0d): port %0d vc %0d, model port %0d vc %0d",
               s, t, kd, cur, in_port, in_vc, port, vc, ep, ev))
      end
      // follow the DUT's choice (the model's when they differ would hide nothing: errors are counted)
      ep = (g == 0) ? int'(port) : int'(port0);
      ev = (g == 0) ? int'(vc) : int'(vc0);
      if (g == 0 && ep != Links)
        `CHECK(((ev / NVCS) >= 4) == an, ("%0d -> %0d kind %0d: vc %0d in the other network", s, t, kd, ev))
      if (ep == Links) done = 1;
      else begin
      ch = chan(cur, ep, ev);
      if (prev_ch >= 0) begin
        e_src[g][ne[g]] = prev_ch; e_dst[g][ne[g]] = ch; ne[g]++;
      end
      prev_ch = ch;
      cur = step(cur, ep / 2, (ep % 2 == 0) ? 1 : -1);
      in_port = PortW'(ep ^ 1);
      in_vc = VcW'(ev);
      hops++;
      guard++;
      if (guard > 64) begin errors++; $error("%0d -> %0d: route does not terminate", s, t); done = 1; end
      end
    end
    if (g == 0) begin
      `CHECK(cur == t, ("%0d -> %0d: ended at %0d", s, t, cur))
      `CHECK(hops == exp_hops, ("%0d -> %0d kind %0d: %0d hops, model %0d", s, t, kd, hops, exp_hops))
      for (int k = 0; k < 4; k++) `CHECK(crossed[k] <= 1, ("%0d -> %0d: wraps twice in dimension %0d", s, t, k))
    end
  endtask

  int npairs, left0, left1, big, nbad, nmix;
  // the kinds walked: message, collective up, down, the two answer kinds
  function automatic int kind_at(input int k);
    case (k)
      0: return `SKIF_KIND_MSG;
      1: return `SKIF_KIND_COLL_UP;
      2: return `SKIF_KIND_COLL_DOWN;
      3: return `SKIF_KIND_RMA_GET_RESP;
      default: return `SKIF_KIND_RMA_ACK;
    endcase
  endfunction
  logic [15:0] bid;
  initial begin
    ne[0] = 0; ne[1] = 0; npairs = 0;
    for (int d = 0; d < 4; d++) begin tie_hops[d][0] = 0; tie_hops[d][1] = 0; end
    for (int s = 0; s < N; s++)
      for (int t = 0; t < N; t++)
        for (int k = 0; k < 5; k++) begin
          walk(s, t, kind_at(k), 0);
          walk(s, t, kind_at(k), 1);
          npairs++;
        end

    // bad destinations: every id with a coordinate outside the torus
    nbad = 0;
    node_id = nid(0); src = nid(0); kind = `SKIF_KIND_MSG; in_port = PortW'(Links); in_vc = '0;
    for (int id = 0; id < 65536; id += 7) begin
      bit ok; ok = 1;
      for (int d = 0; d < 4; d++) begin
        if (d >= NDIMS && ((id >> (4 * d)) & 15) != 0) ok = 0;
        if (d < NDIMS && ((id >> (4 * d)) & 15) >= dsz(d)) ok = 0;
      end
      dst = 16'(id);
      #1;
      `CHECK(bad == !ok, ("dst %h: bad_o %b", id, bad))
      if (!ok) nbad++;
    end

    // no dependency between the answer network (classes 4/5) and the rest
    nmix = 0;
    for (int e = 0; e < ne[0]; e++)
      if (((e_src[0][e] % TV) / NVCS >= 4) != ((e_dst[0][e] % TV) / NVCS >= 4)) nmix++;
    `CHECK(nmix == 0, ("%0d dependencies between the answer network and the others", nmix))
    left0 = cyclic_left(0);
    left1 = cyclic_left(1);
    big = 0;
    // Without the dateline a ring of 5 or more has a cycle of 2-hop routes; a
    // ring of 4 only through half-ring routes, which the split tie-break
    // (correlated with the sub-VC hash) may keep off a single VC.
    for (int d = 0; d < NDIMS; d++) if (dsz(d) >= 5 || (dsz(d) == 4 && TIE == 0)) big = 1;
    `CHECK(left0 == 0, ("channel dependency graph with the dateline has a cycle (%0d channels on or behind cycles)", left0))
    if (big) `CHECK(left1 > 0, ("without the dateline the graph should have a cycle"))
    for (int d = 0; d < NDIMS; d++) begin
      if (dsz(d) % 2 == 0) begin
        `CHECK(tie_hops[d][0] + tie_hops[d][1] == N * N / dsz(d), ("dimension %0d: %0d half-ring routes, expected %0d",
               d, tie_hops[d][0] + tie_hops[d][1], N * N / dsz(d)))
        if (TIE != 0) begin
          `CHECK(tie_hops[d][0] == tie_hops[d][1], ("dimension %0d: half-ring ties %0d PLUS, %0d MINUS (not balanced)",
                 d, tie_hops[d][0], tie_hops[d][1]))
        end else begin
          `CHECK(tie_hops[d][1] == 0, ("dimension %0d: TIE=0 sent %0d ties MINUS", d, tie_hops[d][1]))
        end
      end
    end
    $display("tb_router_route NDIMS=%0d %0dx%0dx%0dx%0d NVCS=%0d TIE=%0d: %0d routes (x5 kinds) checked, %0d bad ids; CDG %0d edges acyclic, none between answers and the rest; without dateline %0d channels cyclic; ties PLUS/MINUS %0d/%0d",
             NDIMS, SX, SY, SZ, SW, NVCS, TIE, npairs / 5, nbad, ne[0], left1,
             tie_hops[0][0] + tie_hops[1][0] + tie_hops[2][0] + tie_hops[3][0],
             tie_hops[0][1] + tie_hops[1][1] + tie_hops[2][1] + tie_hops[3][1]);
    if (errors > 0) $fatal(1, "tb_router_route: %0d errors", errors);
    $display("PASS tb_router_route");
    $finish;
  end
endmodule
