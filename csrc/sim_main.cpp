// SPDX-License-Identifier: Apache-2.0
// sim_main.cpp: the Verilated model of the adapter network (the only C++ of
// the simulator, as Verilator demands): construction, reset, clocking and FST
// tracing in a cycle window. Everything else is the C kernel (kernel.c).
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "Vskif_sim_top.h"
#include "verilated.h"
#include "verilated_fst_c.h"

extern "C" {
#include "sim.h"
}

namespace
{
VerilatedContext *g_ctx;
Vskif_sim_top *g_top;
VerilatedFstC *g_fst;
const skif_opts *g_opt;
uint64_t g_half_ps; // half a clock period in ps (trace time unit)

void trace_open()
{
    g_fst = new VerilatedFstC;
    if (g_opt->trace_node >= 0) {
        const std::string hier =
            "TOP.skif_sim_top.u_net.g_node[" + std::to_string(g_opt->trace_node) + "]";
        g_fst->dumpvars(99, hier);
    }
    g_top->trace(g_fst, 99);
    g_fst->open(g_opt->wave);
    if (!g_fst->isOpen()) {
        std::fprintf(stderr, "skifsim: cannot open --wave file '%s'\n", g_opt->wave);
        delete g_fst;
        g_fst = nullptr;
    }
}

void trace_close()
{
    if (g_fst) {
        g_fst->close();
        delete g_fst;
        g_fst = nullptr;
    }
}

void half_cycle(uint64_t cycle, int clk)
{
    g_top->clk_i = clk;
    g_top->eval();
    if (g_fst && cycle >= g_opt->trace_from && cycle <= g_opt->trace_to)
        g_fst->dump((2 * cycle + (clk ? 1 : 0)) * g_half_ps);
}
} // namespace

extern "C" int skif_model_init(const skif_opts *o)
{
    g_opt = o;
    g_half_ps = 500000ull / o->clock_mhz;
    g_ctx = new VerilatedContext;
    if (o->wave)
        g_ctx->traceEverOn(true);
    g_top = new Vskif_sim_top{g_ctx, "TOP"};
    g_top->rst_ni = 0;
    g_top->clk_i = 0;
    g_top->eval();
    if (g_top->nodes_o != static_cast<uint32_t>(o->nodes)) {
        std::fprintf(stderr, "skifsim: this model was built for %u nodes, not %d\n",
                     static_cast<unsigned>(g_top->nodes_o), o->nodes);
        return -1;
    }
    if (o->wave)
        trace_open();
    // Reset: 8 cycles with rst_ni low (not counted as simulated time).
    g_top->rst_ni = 0;
    for (int i = 0; i < 8; i++) {
        g_top->clk_i = 0;
        g_top->eval();
        g_top->clk_i = 1;
        g_top->eval();
    }
    g_top->rst_ni = 1;
    return 0;
}

extern "C" void skif_model_step(uint64_t cycle)
{
    half_cycle(cycle, 0);
    half_cycle(cycle, 1);
    if (g_fst && cycle == g_opt->trace_to)
        trace_close();
}

extern "C" void skif_model_fini(void)
{
    trace_close();
    if (g_top)
        g_top->final();
    delete g_top;
    g_top = nullptr;
    delete g_ctx;
    g_ctx = nullptr;
}

int main(int argc, char **argv)
{
    return sim_run(argc, argv);
}
