// SPDX-License-Identifier: Apache-2.0
// skif_tb.svh: what every self-checking testbench of tb/ shares. `include it
// inside the testbench module, before anything that uses these names (the
// run scripts put tb/common on the include path):
//   clk      10 ns clock, starts low
//   rst_n    reset, low until the testbench raises it
//   cycle    rising edges of clk so far
//   errors   failed checks; the testbench ends with $fatal when it is not 0
//   `CHECK(cond, (fmt, args...))  counts and reports a failed check
//   skif_tb_hdr(kind, dst, src, chan, len, low)  a header flit, its fields
//            placed by rtl/skif_defs.vh (which the testbench includes first);
//            len in bytes, low = the header's bits [7:0]
// With `define SKIF_TB_XORSHIFT before the include, also
//   rnd(n)   0..n-1 from a xorshift32 generator (state rng, seed 1): the same
//            sequence under Icarus and Verilator, whose seeded $random has
//            weak low bits.

  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  int cycle = 0;
  always @(posedge clk) cycle <= cycle + 1;
  int errors = 0;
`ifndef CHECK
  `define CHECK(cond, msg) if (!(cond)) begin errors = errors + 1; $error msg; end
`endif
  function automatic logic [63:0] skif_tb_hdr(input logic [3:0] kind, input logic [15:0] dst,
                                              input logic [15:0] src, input logic [7:0] chan,
                                              input logic [11:0] len, input logic [7:0] low);
    logic [63:0] h;
    h = {56'h0, low};
    h[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO] = kind;
    h[`SKIF_HDR_DST_HI:`SKIF_HDR_DST_LO]   = dst;
    h[`SKIF_HDR_SRC_HI:`SKIF_HDR_SRC_LO]   = src;
    h[`SKIF_HDR_CHAN_HI:`SKIF_HDR_CHAN_LO] = chan;
    h[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO]   = len;
    return h;
  endfunction
`ifdef SKIF_TB_XORSHIFT
  logic [31:0] rng = 32'h1;
  function automatic int rnd(input int n);
    rng = rng ^ (rng << 13);
    rng = rng ^ (rng >> 17);
    rng = rng ^ (rng << 5);
    return int'(rng % 32'(n));
  endfunction
`endif
