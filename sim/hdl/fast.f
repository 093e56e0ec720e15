// Verilator options of every simulation build: skifsim's node models
// (sim/tools/build_model.sh), skifnet's (sim/tools/build_netbench.sh) and the
// SystemC platform's (sim/systemc/verilate.sh). Lint runs without them.
-O3
--x-assign fast
--x-initial fast
-Wno-fatal
// Loops are unrolled up to 64 iterations (Verilator's default) and, since
// this option, whatever their unrolled size: the router's request loop
// (rtl/router/skif_torus_router.sv, a loop over ports around a loop over
// their VCs) is unrolled whole even on a 4-D router. Kept as a run-time
// loop it cost about 10% of a node-cycle under traffic (docs/router.md,
// "Simulation").
--unroll-stmts 1000000
