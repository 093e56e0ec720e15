// SPDX-License-Identifier: Apache-2.0
// netbench_main.cpp: skifnet, the torus fabric (routers and collective
// engines, no adapters) driven by the synthetic traffic and scoreboard of
// netbench.c (C++ only as Verilator demands). One Verilated model of a node
// (sim/hdl/skif_fabric_node_top.sv, built once per number of dimensions) per
// node of the torus given by --dims, strapped with its node id and the ring
// sizes; the link ports are moved between neighbours every cycle
// (node_links.h, shared with the simulator). Each cycle: offer flits on the
// local ports; every node takes its clock edge, and the handshake of that
// edge is read from the model's inj_took_o (the router's inj_ready depends
// on the offered header); the links move; the scoreboard hears what moved.
// --threads T: the edges and the moves in T parts of the torus on T threads
// (parts.h, shared with the simulator); the traffic and the scoreboard stay
// on one thread, in node order, so the results are the same. A node
// whose router holds no flit, with nothing on its links, its local port or
// its debug outputs, for 4 cycles in a row is not evaluated (its state
// cannot change) until a flit or credit reaches it (--no-skip: every node,
// every cycle; the same results). The watchdog names the router, port and
// VC of every input VC that holds a flit and stopped.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Vskif_fabric_node_top.h"
#include "Vskif_fabric_node_top___024root.h"
#include "verilated.h"

#include "node_links.h"
#include "parts.h"
#include "skif_hw.h"

extern "C" {
#include "netbench.h"
#include "skif_node.h"
}

namespace
{
using skif::get_field;
using skif::set_field;
using Model = Vskif_fabric_node_top;

const char *const kClass[SKIF_VC_CLASSES] = {
    "msg", "msg-after-dateline", "coll-up", "coll-down", "answer", "answer-after-dateline"};
const int kCalm = 4; // quiet cycles in a row before a node is skipped

// Nothing comes in, nothing goes out, no buffer holds a flit, nothing moved
// at the last edge: an edge now changes nothing the node can show.
bool quiet(const Model *x)
{
    using skif::is_zero;
    return !x->inj_valid_i && is_zero(x->in_valid_i) && is_zero(x->out_credit_valid_i) &&
           is_zero(x->out_cc_i) && is_zero(x->out_valid_o) && is_zero(x->in_credit_valid_o) &&
           is_zero(x->in_cc_o) && !x->ej_valid_o && is_zero(x->dbg_busy_o) &&
           is_zero(x->dbg_move_o);
}
} // namespace

int main(int argc, char **argv)
{
    nb_opts o;
    int rc = nb_parse(&o, argc, argv);
    if (rc)
        return rc > 0 ? 0 : 2;
    nb *b = nb_new(&o);
    if (!b)
        return 5;
    const int n = nb_nodes(b);

    VerilatedContext ctx;
    ctx.threads(1); // single-threaded models: no idle pool of Verilator's own
    std::vector<std::unique_ptr<Model>> own;
    std::vector<Model *> m;
    for (int i = 0; i < n; i++) {
        own.emplace_back(new Model{&ctx, ("g_node[" + std::to_string(i) + "]").c_str()});
        m.push_back(own.back().get());
        m[i]->node_id_i = static_cast<uint16_t>(nb_node_id(&o, i));
        m[i]->sizes_i = skif_node_sizes(o.dims);
        m[i]->rst_ni = 0;
        m[i]->ej_ready_i = 1;
        m[i]->clk_i = 0;
        m[i]->eval(); // the outputs below (ndims_o, ...) are known after one evaluation
    }
    if (m[0]->ndims_o != o.ndims) {
        std::fprintf(stderr,
                     "skifnet: this model is for %d-dimensional tori, --dims has %d dimensions "
                     "(use build/netbench/n%d/skifnet)\n",
                     m[0]->ndims_o, o.ndims, o.ndims);
        nb_free(b);
        return 2;
    }
    nb_set_tie_plus(b, !m[0]->tie_o);
    const int links = 2 * o.ndims, ports = links + 1;
    const int dbgw = m[0]->dbgw_o, vcs = dbgw / ports, numvcs = m[0]->numvcs_o;
    int vcw = 0;
    while ((1 << vcw) < vcs)
        vcw++;
    std::vector<int> nbr(static_cast<size_t>(n * links));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < links; j++)
            nbr[static_cast<size_t>(i * links + j)] = skif::torus_neighbour(o.dims, o.ndims, i, j);
    auto edge_all = [&](bool falling_first) {
        for (Model *x : m) {
            if (falling_first) {
                x->clk_i = 0;
                x->eval();
            }
            skif::cycle_one<Vskif_fabric_node_top___024root>(x);
        }
        skif::move_links(m, nbr, links, vcw, 0, m.size());
    };
    for (int i = 0; i < 8; i++) { // reset: 8 cycles; rst_ni is registered, it rises before the last
        if (i == 7)
            for (Model *x : m)
                x->rst_ni = 1;
        edge_all(true);
    }

    // A node's slots of what crosses between the traffic's thread and the
    // parts: its offer, and what its edge did. (The threads touch each
    // other's models only where the links cross, not at every port a cycle.)
    std::vector<uint8_t> offered(n), off_last(n), inj(n), ej(n), ej_last(n), calm(n, 0), ran(n, 1);
    std::vector<uint64_t> off_data(n), ej_data(n), vc_moved(static_cast<size_t>(n) * dbgw, 0);
    std::vector<std::remove_reference_t<decltype(m[0]->dbg_move_o)>> dbg_move(n);
    // One cycle of part k of the routers (parts.h; the whole torus in one part
    // without --threads): the clock edge of each of its routers that is not
    // quiet; when every part has had its edges, the moves into its routers'
    // link inputs (they read the other parts' outputs; a router that took no
    // edge shows what it showed, so its ports are passed over). Every write
    // is to the part's own routers and their slots of the vectors above.
    std::unique_ptr<skif::Parts> parts;
    std::vector<uint64_t> evals;
    parts = std::make_unique<skif::Parts>(
        0, static_cast<size_t>(n), o.threads,
        [&](size_t k) {
            const skif::Parts::Range r = parts->range(k);
            uint64_t e = 0;
            for (size_t i = r.lo; i < r.hi; i++) {
                Model *x = m[i];
                x->inj_valid_i = offered[i];
                x->inj_data_i = off_data[i];
                x->inj_last_i = off_last[i];
                // the ejection port is registered: its outputs are this cycle's
                ej[i] = x->ej_valid_o;
                ej_data[i] = x->ej_data_o;
                ej_last[i] = x->ej_last_o;
                calm[i] = quiet(x) ? (calm[i] < kCalm ? calm[i] + 1 : kCalm) : 0;
                inj[i] = 0;
                ran[i] = calm[i] < kCalm || o.no_skip;
                if (ran[i]) {
                    skif::cycle_one<Vskif_fabric_node_top___024root>(x);
                    e++;
                    inj[i] = offered[i] && x->inj_took_o;
                }
                dbg_move[i] = x->dbg_move_o;
            }
            evals[k] += e;
            parts->wait();
            skif::move_links(m, nbr, links, vcw, r.lo, r.hi, nullptr, ran.data());
        },
        1 << 14); // (no programs here want the cores: spin through the traffic's step)
    evals.assign(parts->count(), 0);
    uint64_t node_cycles = 0;
    uint64_t last_any = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        const uint64_t now = nb_now(b);
        bool moved = false;
        for (int i = 0; i < n; i++) { // (the traffic's random numbers in one order)
            int last = 0;
            off_data[i] = 0;
            offered[i] = nb_offer(b, i, &off_data[i], &last);
            off_last[i] = last;
        }
        parts->run();
        node_cycles += static_cast<uint64_t>(n);
        for (int i = 0; i < n; i++) {
            if (inj[i])
                nb_injected(b, i), moved = true;
            if (ej[i])
                nb_ejected(b, i, ej_data[i], ej_last[i]), moved = true;
            // per input VC: when did it last send a flit
            skif::for_each_bit(dbg_move[i], [&](int k) {
                vc_moved[static_cast<size_t>(i * dbgw + k)] = now, moved = true;
            });
        }
        if (moved)
            last_any = now;
        if (now - last_any + 1 >= o.watchdog) {
            std::string s;
            for (int k = 0; k < n * dbgw; k++) {
                const int r = k / dbgw, p = (k % dbgw) / vcs, u = k % vcs;
                if (!get_field(m[r]->dbg_busy_o, k % dbgw, 1) || now - vc_moved[k] < o.watchdog / 2)
                    continue;
                const uint32_t id = nb_node_id(&o, r);
                char pname[8], line[200];
                if (p == links)
                    std::snprintf(pname, sizeof(pname), "local");
                else
                    std::snprintf(pname, sizeof(pname), "%c%c", "XYZW"[p / 2], p % 2 ? '-' : '+');
                std::snprintf(line, sizeof(line),
                              "  stuck: router %d (x%u y%u z%u w%u) input port %s VC %d (%s) holds "
                              "a flit, idle since cycle %llu\n",
                              r, id & 15, id >> 4 & 15, id >> 8 & 15, id >> 12 & 15, pname, u,
                              kClass[u / numvcs], static_cast<unsigned long long>(vc_moved[k]));
                s += line;
            }
            nb_set_stuck(b, s.c_str());
        }
        rc = nb_cycle(b, moved);
        if (rc)
            break;
    }
    const size_t nthreads = parts->count();
    const double in_parts = static_cast<double>(parts->in_parts_ppm()) * 1e-6;
    parts.reset();
    uint64_t evaluated = 0;
    for (uint64_t e : evals)
        evaluated += e;
    // a few idle cycles so the last drops reach the counters
    for (Model *x : m)
        x->inj_valid_i = 0;
    for (int c = 0; c < 16; c++)
        edge_all(false);
    for (int i = 0; i < n; i++)
        nb_drop_count(b, i, m[i]->drop_cnt_o);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    int code = nb_report(b, wall);
    char used[48];
    std::snprintf(used, sizeof(used), ", used in %.0f%% of the cycles", 100.0 * in_parts);
    if (!o.quiet)
        std::printf("skifnet: %.1f%% of %llu router-cycles evaluated (%s), %zu thread%s%s\n",
                    node_cycles
                        ? 100.0 * static_cast<double>(evaluated) / static_cast<double>(node_cycles)
                        : 0.0,
                    static_cast<unsigned long long>(node_cycles),
                    o.no_skip ? "--no-skip" : "the rest idle, skipped", nthreads,
                    nthreads > 1 ? "s" : "", nthreads > 1 ? used : "");
    for (Model *x : m)
        x->final();
    nb_free(b);
    return rc < 0 ? 1 : code;
}
