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

// Collective engines: every (tree, reduce id) slot that holds contributions
// somewhere, with the programs whose contributions are missing. A node whose
// slot is empty and whose parent waits for it has sent nothing: its own
// program (if a member) and its subtree are missing, down to nodes that wait
// themselves (reported on their own line).
namespace
{
int coll_neighbour(int r, int port)
{
    int c[4] = {0, 0, 0, 0}, s = r;
    for (int d = 0; d < g_opt->ndims; d++) {
        c[d] = s % g_opt->dims[d];
        s /= g_opt->dims[d];
    }
    const int d = port / 2, sz = g_opt->dims[d];
    c[d] = (port % 2) ? (c[d] + sz - 1) % sz : (c[d] + 1) % sz;
    int n = 0;
    for (int k = g_opt->ndims - 1; k >= 0; k--)
        n = n * g_opt->dims[k] + c[k];
    return n;
}

void coll_missing(const std::vector<uint32_t> &got, const std::vector<uint32_t> &exp, int r,
                  int links, std::string &out, int depth)
{
    if (got[r] != 0 || depth > g_opt->nodes)
        return;
    if (exp[r] & (1u << links))
        out += " " + std::to_string(r);
    for (int p = 0; p < links; p++)
        if (exp[r] & (1u << p))
            coll_missing(got, exp, coll_neighbour(r, p), links, out, depth + 1);
}

void coll_report()
{
    const int links = 2 * g_opt->ndims, nodes = g_opt->nodes, w = links + 1;
    const int slots = 1 << 10; // SkifCh trees x 32 reduce ids (skif_sim_top's coll_sel_i)
    std::vector<uint32_t> got(static_cast<size_t>(nodes)), exp(static_cast<size_t>(nodes));
    int waiting = 0;
    for (int s = 0; s < slots; s++) {
        g_top->coll_sel_i = static_cast<uint16_t>(s);
        g_top->eval();
        bool any = false;
        for (int r = 0; r < nodes; r++) {
            got[static_cast<size_t>(r)] = exp[static_cast<size_t>(r)] = 0;
            for (int b = 0; b < w; b++) {
                if (get_bit(g_top->coll_got_o, r * w + b))
                    got[static_cast<size_t>(r)] |= 1u << b;
                if (get_bit(g_top->coll_exp_o, r * w + b))
                    exp[static_cast<size_t>(r)] |= 1u << b;
            }
            any = any || got[static_cast<size_t>(r)] != 0;
        }
        if (!any)
            continue;
        std::string missing;
        for (int r = 0; r < nodes; r++) {
            const uint32_t g = got[static_cast<size_t>(r)], e = exp[static_cast<size_t>(r)];
            if (g == 0)
                continue;
            if ((e & ~g) & (1u << links))
                missing += " " + std::to_string(r);
            for (int p = 0; p < links; p++)
                if ((e & ~g) & (1u << p))
                    coll_missing(got, exp, coll_neighbour(r, p), links, missing, 0);
        }
        std::fprintf(stderr,
                     "  collective: tree %d reduce id %d is incomplete; contributions missing from "
                     "the programs of node(s):%s\n",
                     s / 32, s % 32,
                     missing.empty() ? " (none: results on their way)" : missing.c_str());
        waiting++;
    }
    if (!waiting)
        std::fprintf(stderr, "  collective engines: no reduce waits for contributions\n");
}
} // namespace

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
    coll_report();
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
