// SPDX-License-Identifier: Apache-2.0
// sim_main.cpp: the network of one-node models (the only C++ of the
// simulator, as Verilator demands). One Verilated model of a whole node
// (sim/hdl/skif_node_top.sv, built once per number of dimensions) per node of the
// torus, each strapped with its node index, node id and the ring sizes; at
// every clock edge the link ports are moved between neighbours (the rule of
// rtl/net/skif_torus_links.sv). Construction, reset, clocking, FST tracing in
// a cycle window and the watchdog's view of routers and collective engines.
// Everything else is the C kernel (kernel.c).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Vskif_node_top.h"
#include "Vskif_node_top__Syms.h"
#include "Vskif_node_top___024root.h"
#include "verilated.h"
#include "verilated_fst_c.h"

#include "node_links.h"
#include "parts.h"
#include "ranks.h"
#include "skif_hw.h"

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#else
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#endif

extern "C" {
#include "sim.h"
}

namespace
{
using skif::get_field;
using skif::set_field;
using Model = Vskif_node_top;

bool g_gate; // gate the engines' clock at the edges they do not need (not with --no-skip)

void cycle_one(Model *m)
{
    skif::cycle_one<Vskif_node_top___024root>(m, g_gate);
}

VerilatedContext *g_ctx;
std::vector<Model *> g_m; // per node: its model (own nodes and ghosts only, under --ranks)
size_t g_lo, g_hi;        // the nodes this process evaluates (all, or its slab)
std::vector<int> g_nb;    // g_nb[i * links + j]: the node through port j of node i
int g_links, g_vcw;
std::vector<uint8_t> g_moved; // per node and router input VC: sent a flit since dbg_begin
bool g_dbg_on;
VerilatedFstC *g_fst;
const skif_opts *g_opt;
uint64_t g_half_ps; // half a clock period in ps (trace time unit)

int neighbour(int r, int port)
{
    return skif::torus_neighbour(g_opt->dims, g_opt->ndims, r, port);
}

std::vector<uint8_t> g_changed; // per node: its inputs changed at the last move
std::vector<uint8_t> g_ran;     // per node: took this cycle's clock edge (a ghost: always 1)

// The moves after node_cycle: only into nodes next to one that ran (a
// sleeping node's outputs stay as they were). all: after every node ran.
void move_links(size_t lo, size_t hi, bool all = false)
{
    skif::move_links(g_m, g_nb, g_links, g_vcw, lo, hi, g_changed.data(),
                     all ? nullptr : g_ran.data());
}

// Under --ranks each rank writes its own nodes: into FILE-rankR.fst, or
// with --trace-node into FILE by the rank that has that node.
void trace_open()
{
    std::string file = g_opt->wave;
    if (g_sim.ranks > 1) {
        const int t = g_opt->trace_node;
        if (t >= 0 && (static_cast<size_t>(t) < g_lo || static_cast<size_t>(t) >= g_hi))
            return;
        if (t < 0)
            file = file.substr(0, file.size() - 4) + "-rank" + std::to_string(g_sim.me) + ".fst";
    }
    g_fst = new VerilatedFstC;
    for (size_t i = g_lo; i < g_hi; i++)
        if (g_opt->trace_node < 0 || static_cast<int>(i) == g_opt->trace_node)
            g_m[i]->trace(g_fst, 99);
    g_fst->open(file.c_str());
    if (!g_fst->isOpen()) {
        std::fprintf(stderr, "skifsim: cannot open --wave file '%s'\n", file.c_str());
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

bool tracing(uint64_t cycle)
{
    return g_fst && cycle >= g_opt->trace_from && cycle <= g_opt->trace_to;
}

// Skipping quiet nodes. A model is a deterministic function of its state
// (all of it in its symbol table: the root and any module not inlined), its
// inputs (part of that state) and what its host calls return. If a cycle in
// which the host calls did nothing (no DMA request, event, response or
// register access: hostmem.c counts them in host_acts) left the state, the
// next cycle's inputs included, byte for byte as it was one cycle earlier,
// the node is at a fixed point: every further cycle would leave it so, until
// an input changes (a neighbour's link output moves) or the host has
// something for it (a DMA read answer, a register access). Such a node
// "sleeps": it is not evaluated, and its state, outputs included, stays what
// evaluating it would have kept. So the results, cycle counts and waveforms
// are those of evaluating every node (tests/scale.sh compares them;
// --no-skip evaluates everything). A traced cycle evaluates every node.
// The comparison (a copy of the state, then a memcmp: about 100 KB, the
// collective engine's accumulators most of it) is tried only on nodes whose
// router holds no flit and whose host side is idle, first on the state's
// first 4 KB alone (the adapter's counters and timers; the status-write
// pacing counts up to 256 cycles after a write), and after a try that
// failed not again for a while (8 cycles, doubling with each failure up to
// 1024, back to 8 once a node slept that long).
size_t g_state_bytes;            // bytes of one model's state
std::vector<uint8_t> g_snap;     // per node: its state one cycle ago (g_state_bytes each)
std::vector<uint8_t> g_asleep;   // per node: at a fixed point, not evaluated
std::vector<uint8_t> g_cand;     // per node: 0; 1 g_snap's first Prefix bytes are its state
                                 // of one cycle ago; 2 and the rest too
std::vector<uint64_t> g_acts;    // per node: host_acts after its last cycle
std::vector<uint64_t> g_retry;   // per node: no try before this cycle; when asleep: since when
std::vector<uint32_t> g_backoff; // per node: cycles to wait after a failed try
constexpr uint32_t BackoffMin = 8, BackoffMax = 1024;
size_t g_prefix;                 // min(4096, g_state_bytes)
uint64_t g_now;                  // the cycle being simulated
std::vector<uint64_t> g_skipped; // per thread part: node-cycles not evaluated
std::vector<uint64_t> g_gated;   // per thread part: evaluated node-cycles, engine clock gated
bool g_skip;

uint8_t *state_of(Model *m)
{
    return reinterpret_cast<uint8_t *>(m->rootp->vlSymsp);
}

// Node i's clock edge, unless it sleeps and nothing reached it from the host.
void node_cycle(size_t i, uint64_t &skipped, uint64_t &gated)
{
    if (g_asleep[i]) {
        if (!hostmem_busy(&g_sim.nodes[i])) {
            skipped++;
            g_ran[i] = 0;
            return;
        }
        g_asleep[i] = 0;
        g_cand[i] = 0;
    }
    g_ran[i] = 1;
    gated += g_gate && !g_m[i]->eng_wake_o;
    cycle_one(g_m[i]);
}

// After the moves: wake a sleeper whose inputs changed; put to sleep a node
// whose last cycle changed nothing.
void node_settle(size_t i)
{
    const bool changed = g_changed[i];
    g_changed[i] = 0;
    if (g_asleep[i]) {
        if (changed) {
            g_asleep[i] = g_cand[i] = 0;
            if (g_now - g_retry[i] >= BackoffMax)
                g_backoff[i] = BackoffMin;
            g_retry[i] = g_now + 1;
        }
        return;
    }
    const node &nd = g_sim.nodes[i];
    const bool acted = nd.host_acts != g_acts[i];
    g_acts[i] = nd.host_acts;
    Model *m = g_m[i];
    if (acted || changed || hostmem_busy(&nd) || !skif::is_zero(m->dbg_busy_o)) {
        g_cand[i] = 0; // (its state differs from the snapshot, or soon will)
        return;
    }
    if (g_now < g_retry[i])
        return;
    uint8_t *st = state_of(m), *sn = &g_snap[(i - g_lo) * g_state_bytes];
    const size_t p = g_prefix;
    if (g_cand[i] == 0) {
        std::memcpy(sn, st, p);
        g_cand[i] = 1;
    } else if (g_cand[i] == 1 && std::memcmp(st, sn, p) == 0) {
        std::memcpy(sn + p, st + p, g_state_bytes - p);
        g_cand[i] = 2;
    } else if (g_cand[i] == 2 && std::memcmp(st, sn, g_state_bytes) == 0) {
        // the prefix as two cycles ago and one cycle ago, the rest as one
        // cycle ago: all of it as one cycle ago, after a quiet cycle
        g_asleep[i] = 1;
        g_retry[i] = g_now; // asleep since
    } else {
        g_cand[i] = 0;
        g_retry[i] = g_now + g_backoff[i];
        g_backoff[i] = std::min(2 * g_backoff[i], BackoffMax);
    }
}

void settle(size_t lo, size_t hi)
{
    if (g_skip)
        for (size_t i = lo; i < hi; i++)
            node_settle(i);
}

void wake_all()
{
    std::fill(g_asleep.begin(), g_asleep.end(), 0);
    std::fill(g_cand.begin(), g_cand.end(), 0);
}

void eval_all(int clk)
{
    for (size_t i = g_lo; i < g_hi; i++) {
        g_m[i]->clk_i = clk;
        g_m[i]->eng_clk_i = clk; // (every edge: a traced cycle shows the engines clocked)
        g_m[i]->eval();
    }
}

// --ranks: the slab boundaries. A ghost is a model of a node of another rank
// next to one of ours, never evaluated: its link outputs are what that rank
// sent, so the moves read it like any neighbour. With a cut latency of C
// cycles, the link outputs of our boundary nodes are collected for C cycles
// and sent at once; what a peer's node put out at cycle s is a ghost's
// output at the moves of cycle s + C - 1 (so it reaches our node's input at
// the edge of s + C: a link of C cycles; C = 1 is every link's latency).
// The ranks exchange only every C cycles (conservative synchronisation with
// the link latency as lookahead, as SST does).
struct Peer {
    int rank;
    std::vector<size_t> send, recv;  // our boundary nodes it needs; its nodes we need
    std::vector<uint8_t> sbuf, rbuf; // C records per node, slot-major
};
std::vector<Peer> g_peers;
size_t g_rec; // bytes of one node's link outputs
uint64_t g_cut = 1;

template <typename F> void link_outputs(Model *m, F f)
{
    f(m->out_valid_o);
    f(m->out_last_o);
    f(m->out_vc_o);
    f(m->out_data_o);
    f(m->in_credit_valid_o);
    f(m->in_credit_vc_o);
    f(m->in_cc_o);
}

void pack(Model *m, uint8_t *b)
{
    link_outputs(m, [&b](auto &p) {
        std::memcpy(b, static_cast<const void *>(&p), sizeof p);
        b += sizeof p;
    });
}

void unpack(Model *m, const uint8_t *b)
{
    link_outputs(m, [&b](auto &p) {
        std::memcpy(static_cast<void *>(&p), b, sizeof p);
        b += sizeof p;
    });
}

int owner(size_t node)
{
    for (int r = 1; r < g_sim.ranks; r++)
        if (node < static_cast<size_t>(skif_opts_slab_lo(g_opt, g_sim.ranks, r)))
            return r - 1;
    return g_sim.ranks - 1;
}

// After the edges of cycle `cycle` (reset: a cycle of the reset, always
// exchanged), before the moves.
void cut_exchange(uint64_t cycle, bool reset)
{
    if (g_peers.empty())
        return;
    const uint64_t c = reset ? 1 : g_cut, slot = reset ? 0 : cycle % c;
    for (Peer &p : g_peers)
        for (size_t k = 0; k < p.send.size(); k++)
            pack(g_m[p.send[k]], &p.sbuf[(slot * p.send.size() + k) * g_rec]);
    if (slot == c - 1) {
        int peer[8];
        void *sb[8], *rb[8];
        size_t sl[8], rl[8];
        int n = 0;
        for (Peer &p : g_peers) {
            peer[n] = p.rank;
            sb[n] = p.sbuf.data();
            rb[n] = p.rbuf.data();
            sl[n] = c * p.send.size() * g_rec;
            rl[n] = c * p.recv.size() * g_rec;
            n++;
        }
        skif_ranks_exchange(n, peer, sb, sl, rb, rl);
    }
    const uint64_t use = reset ? 0 : (cycle + 1) % c;
    for (Peer &p : g_peers)
        for (size_t k = 0; k < p.recv.size(); k++)
            unpack(g_m[p.recv[k]], &p.rbuf[(use * p.recv.size() + k) * g_rec]);
}

// The peers and their buffers, once the neighbours are known.
void cut_init()
{
    g_cut = g_opt->cut_latency ? static_cast<uint64_t>(g_opt->cut_latency) : 1;
    std::vector<std::vector<size_t>> send(static_cast<size_t>(g_sim.ranks)),
        recv(static_cast<size_t>(g_sim.ranks));
    for (size_t i = g_lo; i < g_hi; i++)
        for (int j = 0; j < g_links; j++) {
            const size_t nb = static_cast<size_t>(g_nb[i * static_cast<size_t>(g_links) + j]);
            if (nb >= g_lo && nb < g_hi)
                continue;
            const size_t r = static_cast<size_t>(owner(nb));
            send[r].push_back(i);
            recv[r].push_back(nb);
        }
    for (size_t r = 0; r < send.size(); r++) {
        if (send[r].empty())
            continue;
        for (std::vector<size_t> *v : {&send[r], &recv[r]}) {
            std::sort(v->begin(), v->end());
            v->erase(std::unique(v->begin(), v->end()), v->end());
        }
        g_peers.push_back({static_cast<int>(r), send[r], recv[r], {}, {}});
    }
    g_rec = 0;
    link_outputs(g_m[g_lo], [](auto &p) { g_rec += sizeof p; });
    for (Peer &p : g_peers) {
        p.sbuf.assign(g_cut * p.send.size() * g_rec, 0);
        p.rbuf.assign(g_cut * p.recv.size() * g_rec, 0);
    }
}

// After the reset: until the first exchange, a ghost shows what its node
// put out at the end of the reset.
void cut_reset_done()
{
    for (Peer &p : g_peers) {
        const size_t one = p.recv.size() * g_rec;
        for (uint64_t k = 1; k < g_cut; k++)
            std::memcpy(&p.rbuf[k * one], p.rbuf.data(), one);
    }
}

// --threads T (parts.h): the nodes in T contiguous parts. A cycle of a part:
// both clock edges of its nodes (a node's edge reads only its own inputs: the
// links are registered); with MPI ranks, part 0 exchanges the cut links;
// then the moves into the part's nodes' link inputs (they read the other
// parts' outputs). The host model's calls of different nodes touch only
// their own node's state. Same results as one thread.
std::unique_ptr<skif::Parts> g_parts;
uint64_t g_in_parts_ppm; // skif_model_in_parts_ppm(), kept when g_parts is gone

void part_cycle(size_t k)
{
    const skif::Parts::Range p = g_parts->range(k);
    for (size_t i = p.lo; i < p.hi; i++)
        node_cycle(i, g_skipped[k], g_gated[k]);
    g_parts->wait();
    if (!g_peers.empty()) {
        if (k == 0)
            cut_exchange(g_now, false);
        g_parts->wait();
    }
    move_links(p.lo, p.hi);
    settle(p.lo, p.hi);
}
} // namespace

extern "C" int skif_model_init(const skif_opts *o)
{
    g_opt = o;
    g_half_ps = 500000ull / o->clock_mhz;
    g_ctx = new VerilatedContext;
    // The models are single-threaded (--threads is ours, parts.h): no pool
    // of Verilator's own (by default it starts one thread less than the
    // CPUs the process may use, idle for the whole run).
    g_ctx->threads(1);
    if (o->wave)
        g_ctx->traceEverOn(true);
    g_lo = static_cast<size_t>(g_sim.lo);
    g_hi = static_cast<size_t>(g_sim.hi);
    const size_t n = static_cast<size_t>(o->nodes);
    // (the links are wired by the ring sizes alone)
    g_links = 2 * o->ndims;
    g_nb.resize(n * static_cast<size_t>(g_links));
    for (int i = 0; i < o->nodes; i++)
        for (int j = 0; j < g_links; j++)
            g_nb[static_cast<size_t>(i * g_links + j)] = neighbour(i, j);
    // Our nodes, and under --ranks the ghosts of our neighbours (not
    // evaluated: not even constructed to the reset).
    std::vector<uint8_t> need(n, 0);
    for (size_t i = g_lo; i < g_hi; i++) {
        need[i] = 1;
        for (int j = 0; j < g_links; j++)
            need[static_cast<size_t>(g_nb[i * static_cast<size_t>(g_links) + j])] = 1;
    }
    g_m.assign(n, nullptr);
    for (size_t i = 0; i < n; i++) {
        if (!need[i])
            continue;
        // the model's name is its scope in a trace: g_node[i], as in the
        // whole-network model of Icarus (u_net.g_node[i])
        const std::string name = "g_node[" + std::to_string(i) + "]";
        Model *m = new Model{g_ctx, name.c_str()};
        g_m[i] = m;
        m->node_idx_i = static_cast<uint32_t>(i);
        m->node_id_i = static_cast<uint16_t>(skif_opts_node_id(o, static_cast<int>(i)));
        m->sizes_i = skif_opts_dims_word(o);
        m->rst_ni = 0;
        m->clk_i = 0;
        m->eng_clk_i = 0;
        if (i >= g_lo && i < g_hi)
            m->eval();
        sim_progress_setup("constructing the node models", static_cast<int>(i + 1),
                           static_cast<int>(n));
    }
    Model *m0 = g_m[g_lo];
    if (m0->ndims_o != o->ndims) {
        if (g_sim.me == 0)
            std::fprintf(stderr, "skifsim: this model was built for %d dimensions, --dims has %d\n",
                         m0->ndims_o, o->ndims);
        return -1;
    }
    g_vcw = m0->vcw_o;
    cut_init();
    if (o->wave)
        trace_open();
    // Reset: 8 cycles (not counted as simulated time). The models register
    // rst_ni (sim/hdl/skif_link_regs.sv): it rises before the last edge.
    for (int c = 0; c < 8; c++) {
        if (c == 7)
            for (size_t i = g_lo; i < g_hi; i++)
                g_m[i]->rst_ni = 1;
        eval_all(0);
        eval_all(1);
        cut_exchange(0, true);
        move_links(g_lo, g_hi, true);
    }
    cut_reset_done();
    g_skip = !o->no_skip;
    g_gate = !o->no_skip;
    g_state_bytes = sizeof(Vskif_node_top__Syms);
    g_prefix = std::min<size_t>(4096, g_state_bytes);
    if (g_skip) {
        g_snap.assign((g_hi - g_lo) * g_state_bytes, 0);
        // The state's padding bytes are never written: the same in every
        // comparison, but undefined to valgrind's memcheck.
        for (size_t i = g_lo; i < g_hi; i++)
            VALGRIND_MAKE_MEM_DEFINED(state_of(g_m[i]), g_state_bytes);
    }
    g_asleep.assign(n, 0);
    g_cand.assign(n, 0);
    g_changed.assign(n, 0);
    g_ran.assign(n, 1);
    g_acts.assign(n, 0);
    g_retry.assign(n, 0);
    g_backoff.assign(n, BackoffMin);
    g_parts = std::make_unique<skif::Parts>(g_lo, g_hi, o->threads, part_cycle,
                                            skif::Parts::kSpinUs, true, sim_pin_worker);
    g_skipped.assign(g_parts->count(), 0);
    g_gated.assign(g_parts->count(), 0);
    return 0;
}

extern "C" void skif_model_step(uint64_t cycle)
{
    g_now = cycle;
    const bool tr = tracing(cycle);
    if (!tr) {
        g_parts->run();
    } else { // both edges, each dumped; every node evaluated
        wake_all();
        eval_all(0);
        if (tr)
            g_fst->dump(2 * cycle * g_half_ps);
        eval_all(1);
        cut_exchange(cycle, false);
        move_links(g_lo, g_hi, true);
    }
    if (tr) {
        for (size_t i = g_lo; i < g_hi; i++) // the neighbours' new link values, as one
            g_m[i]->eval();                  // network shows them
        g_fst->dump((2 * cycle + 1) * g_half_ps);
    }
    if (g_dbg_on) {
        const size_t w = g_m[g_lo]->dbgw_o;
        for (size_t i = g_lo; i < g_hi; i++)
            skif::for_each_bit(g_m[i]->dbg_move_o,
                               [&](int k) { g_moved[i * w + static_cast<size_t>(k)] = 1; });
    }
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
void coll_missing(const std::vector<uint32_t> &got, const std::vector<uint32_t> &exp, int r,
                  int links, std::string &out, int depth)
{
    if (got[static_cast<size_t>(r)] != 0 || depth > g_opt->nodes)
        return;
    if (exp[static_cast<size_t>(r)] & (1u << links))
        out += " " + std::to_string(r);
    for (int p = 0; p < links; p++)
        if (exp[static_cast<size_t>(r)] & (1u << p))
            coll_missing(got, exp, neighbour(r, p), links, out, depth + 1);
}

// The slots' contributions of every node: ours evaluated here, the other
// ranks' summed in (each node is one rank's). Slots no node holds are not
// gathered.
void coll_report()
{
    const int links = g_links, nodes = g_opt->nodes;
    const int slots = 1 << 10; // SkifCh trees x 32 reduce ids (skif_node_top's coll_sel_i)
    const auto eval_slot = [](int s, size_t r) {
        Model *m = g_m[r];
        m->coll_sel_i = static_cast<uint16_t>(s);
        m->eval();
        return m;
    };
    std::vector<uint64_t> busy(static_cast<size_t>(slots), 0);
    for (int s = 0; s < slots; s++)
        for (size_t r = g_lo; r < g_hi && !busy[static_cast<size_t>(s)]; r++)
            busy[static_cast<size_t>(s)] = eval_slot(s, r)->coll_got_o != 0;
    skif_ranks_max(busy.data(), busy.size());
    std::vector<uint64_t> ge(2 * static_cast<size_t>(nodes));
    std::vector<uint32_t> got(static_cast<size_t>(nodes)), exp(static_cast<size_t>(nodes));
    int waiting = 0;
    for (int s = 0; s < slots; s++) {
        if (!busy[static_cast<size_t>(s)])
            continue;
        std::fill(ge.begin(), ge.end(), 0);
        for (size_t r = g_lo; r < g_hi; r++) {
            const Model *m = eval_slot(s, r);
            ge[2 * r] = static_cast<uint32_t>(m->coll_got_o);
            ge[2 * r + 1] = static_cast<uint32_t>(m->coll_exp_o);
        }
        skif_ranks_sum(ge.data(), ge.size());
        for (size_t r = 0; r < static_cast<size_t>(nodes); r++) {
            got[r] = static_cast<uint32_t>(ge[2 * r]);
            exp[r] = static_cast<uint32_t>(ge[2 * r + 1]);
        }
        std::string missing;
        for (int r = 0; r < nodes; r++) {
            const uint32_t g = got[static_cast<size_t>(r)], e = exp[static_cast<size_t>(r)];
            if (g == 0)
                continue;
            if ((e & ~g) & (1u << links))
                missing += " " + std::to_string(r);
            for (int p = 0; p < links; p++)
                if ((e & ~g) & (1u << p))
                    coll_missing(got, exp, neighbour(r, p), links, missing, 0);
        }
        if (g_sim.me == 0)
            std::fprintf(stderr,
                         "  collective: tree %d reduce id %d is incomplete; contributions missing "
                         "from the programs of node(s):%s\n",
                         s / 32, s % 32,
                         missing.empty() ? " (none: results on their way)" : missing.c_str());
        waiting++;
    }
    if (!waiting && g_sim.me == 0)
        std::fprintf(stderr, "  collective engines: no reduce waits for contributions\n");
}
} // namespace

extern "C" void skif_model_dbg_begin(void)
{
    g_moved.assign(g_m.size() * g_m[g_lo]->dbgw_o, 0);
    g_dbg_on = true;
}

extern "C" void skif_model_dbg_report(void)
{
    if (!g_dbg_on)
        return;
    const int dbgw = g_m[g_lo]->dbgw_o, links = g_links, vcs = dbgw / (links + 1);
    static const char *const cls[SKIF_VC_CLASSES] = {"message",       "message after the dateline",
                                                     "collective up", "collective down",
                                                     "answer",        "answer after the dateline"};
    uint64_t stuck = 0;
    skif_ranks_text t;
    FILE *f = skif_ranks_text_open(&t, stderr);
    for (int r = static_cast<int>(g_lo); r < static_cast<int>(g_hi); r++) {
        const Model *m = g_m[static_cast<size_t>(r)];
        for (int b = 0; b < dbgw; b++) {
            if (!get_field(m->dbg_busy_o, b, 1) || g_moved[static_cast<size_t>(r * dbgw + b)])
                continue;
            const int p = b / vcs, u = b % vcs;
            char pname[8];
            if (p == links)
                std::snprintf(pname, sizeof(pname), "local");
            else
                std::snprintf(pname, sizeof(pname), "%c%c", "XYZW"[p / 2], p % 2 ? '-' : '+');
            std::fprintf(f,
                         "  stuck: router of node %d (id 0x%x) input port %s VC %d (%s): holds a "
                         "flit that did not move\n",
                         r, skif_opts_node_id(g_opt, r), pname, u,
                         cls[(u * SKIF_VC_CLASSES) / vcs]);
            stuck++;
        }
    }
    skif_ranks_text_print(&t, stderr); // every rank's, in node order
    skif_ranks_sum(&stuck, 1);
    if (!stuck && g_sim.me == 0)
        std::fprintf(stderr, "  routers: no flit waits in any router buffer\n");
    coll_report(); // evaluates the models with other debug selections:
    wake_all();    // their states are no longer the fixed points found
    g_dbg_on = false;
}

extern "C" uint64_t skif_model_skipped(void)
{
    uint64_t s = 0;
    for (uint64_t k : g_skipped)
        s += k;
    return s;
}

extern "C" uint64_t skif_model_in_parts_ppm(void)
{
    if (g_parts && g_parts->cycles())
        g_in_parts_ppm = g_parts->in_parts_ppm();
    return g_in_parts_ppm;
}

extern "C" uint64_t skif_model_gated(void)
{
    uint64_t s = 0;
    for (uint64_t k : g_gated)
        s += k;
    return s;
}

extern "C" void skif_model_fini(void)
{
    skif_model_in_parts_ppm();
    g_parts.reset();
    trace_close();
    for (size_t i = 0; i < g_m.size(); i++) {
        if (!g_m[i])
            continue;
        if (i >= g_lo && i < g_hi) // (a ghost was never evaluated)
            g_m[i]->final();
        delete g_m[i];
    }
    g_m.clear();
    delete g_ctx;
    g_ctx = nullptr;
}

int main(int argc, char **argv)
{
    return sim_run(argc, argv);
}
