// SPDX-License-Identifier: Apache-2.0
// skif_icarus_top: the simulation top under Icarus Verilog. Icarus keeps its
// own time, so the kernel's life cycle (sim/kernel/sim.h) runs from this initial
// block through the VPI tasks of sim/kernel/vpi_main.c: one $skif_sync per cycle
// boundary, the host model's tick before each rising edge. 4-state: the VPI
// side stops the run on any X or Z that reaches the host.
`timescale 1ns/1ps
module skif_icarus_top #(
  parameter int NDims = 1,  // torus dimensions, 1..4
  parameter int SizeX = 2,  // ring size in X, 2..16
  parameter int SizeY = 1,  // ring size in Y (1 when NDims < 2)
  parameter int SizeZ = 1,  // ring size in Z (1 when NDims < 3)
  parameter int SizeW = 1   // ring size in W (1 when NDims < 4)
) ();
  logic       clk = 1'b0;
  logic       rst_n = 1'b0;
  logic [19:0] dims;
  integer     r, xcyc;

  skif_sim_top #(
    .NDims(NDims), .SizeX(SizeX), .SizeY(SizeY), .SizeZ(SizeZ), .SizeW(SizeW)
  ) u_top (.clk_i(clk), .rst_ni(rst_n), .dims_o(dims), .coll_sel_i(10'h0));

  initial begin
    r = $skif_init(SizeX | SizeY << 5 | SizeZ << 10 | SizeW << 15);  // command line,
                            // host memories; ends the run on error
    repeat (8) begin
      #2 clk = 1'b1;
      #2 clk = 1'b0;
    end
    rst_n = 1'b1;
    $skif_start;
    forever begin
      r = $skif_sync;       // run programs; non-zero: the run is over
      if (r != 0) $skif_finish;
      $skif_tick_host;
      #2 clk = 1'b1;
      #2 clk = 1'b0;
      $skif_cycle_done;
    end
  end

  // skifrun --wave FILE.fst --sim icarus: vvp -fst +skif_wave=FILE dumps the
  // whole network (FST) from time 0.
  reg [8*1024-1:0] wave_file;
  initial begin
    if ($value$plusargs("skif_wave=%s", wave_file)) begin
      $dumpfile(wave_file);
      $dumpvars(0, u_top);
    end
  end

  // Test hook (SKIF_X_INJECT=C in the environment): from cycle C on, node 0's
  // DMA write data is X, which the host-side X check must catch and name.
  initial begin
    xcyc = $skif_x_cycle;
    if (xcyc > 0) begin
      repeat (8 + xcyc) @(posedge clk);
      force u_top.u_net.g_node[0].u_node.u_adapter.dma_req_wdata_o = 64'hx;
    end
  end
endmodule
