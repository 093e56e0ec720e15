// SPDX-License-Identifier: Apache-2.0
// sim_main.cpp: the Verilated model of the adapter network (the only C++ of
// the simulator, as Verilator demands): construction, reset, clocking and FST
// tracing in a cycle window. Everything else is the C kernel (kernel.c).
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "Vskif_sim_top.h"
#include "verilated.h"
#include "verilated_fst_c.h"

extern "C" {
#include "sim.h"
}

namespace
{
// Bit access for every width Verilator picks.
template <typename T> bool get_bit(const T &v, int i)
{
    return (v >> i) & 1;
}
template <std::size_t W> bool get_bit(const VlWide<W> &v, int i)
{
    return (v[i / 32] >> (i % 32)) & 1;
}

VerilatedContext *g_ctx;
std::vector<uint8_t> g_moved; // per router input VC: sent a flit since skif_model_dbg_begin()
bool g_dbg_on;
Vskif_sim_top *g_top;
VerilatedFstC *g_fst;
const skif_opts *g_opt;
uint64_t g_half_ps; // half a clock period in ps (trace time unit)

void trace_open()
{
    g_fst = new VerilatedFstC;
    if (g_opt->trace_node >= 0) {
        // node K's adapter and its router
        const std::string k = std::to_string(g_opt->trace_node);
        g_fst->dumpvars(99, "TOP.skif_sim_top.u_net.g_node[" + k + "]");
        g_fst->dumpvars(99, "TOP.skif_sim_top.u_net.u_fabric.g_node[" + k + "]");
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
    if (g_top->dims_o != skif_opts_dims_word(o)) {
        std::fprintf(stderr, "skifsim: this model was built for another torus than --dims\n");
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
    if (g_dbg_on)
        for (size_t k = 0; k < g_moved.size(); k++)
            if (get_bit(g_top->dbg_move_o, static_cast<int>(k)))
                g_moved[k] = 1;
    if (g_fst && cycle == g_opt->trace_to)
        trace_close();
}

extern "C" void skif_model_dbg_begin(void)
{
    g_moved.assign(static_cast<size_t>(g_opt->nodes) * g_top->dbgw_o, 0);
    g_dbg_on = true;
}

extern "C" void skif_model_dbg_report(void)
{
    if (!g_dbg_on)
        return;
    const int dbgw = g_top->dbgw_o, links = 2 * g_opt->ndims, vcs = dbgw / (links + 1);
    static const char *const cls[4] = {"message", "message after the dateline", "collective up",
                                       "collective down"};
    int stuck = 0;
    for (int k = 0; k < g_opt->nodes * dbgw; k++) {
        if (!get_bit(g_top->dbg_busy_o, k) || g_moved[static_cast<size_t>(k)])
            continue;
        const int r = k / dbgw, p = (k % dbgw) / vcs, u = k % vcs;
        char pname[8];
        if (p == links)
            std::snprintf(pname, sizeof(pname), "local");
        else
            std::snprintf(pname, sizeof(pname), "%c%c", "XYZW"[p / 2], p % 2 ? '-' : '+');
        std::fprintf(stderr,
                     "  stuck: router of node %d (id 0x%x) input port %s VC %d (%s): holds a "
                     "flit that did not move\n",
                     r, skif_opts_node_id(g_opt, r), pname, u, cls[(u * 4) / vcs]);
        stuck++;
    }
    if (!stuck)
        std::fprintf(stderr, "  routers: no flit waits in any router buffer\n");
    g_dbg_on = false;
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
