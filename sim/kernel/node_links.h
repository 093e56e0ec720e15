// SPDX-License-Identifier: Apache-2.0
// node_links.h: what the simulator (sim/kernel/sim_main.cpp) and the network bench
// (sim/netbench/netbench_main.cpp) share about networks of one-node Verilated models
// (C++ only as Verilator demands): bit fields of the models' ports, one clock
// cycle in one evaluation, the torus neighbour rule and the moving of the
// link ports between neighbours (the rule of rtl/net/skif_torus_links.sv).
// A model is any Verilated top with the link ports of skif_torus_node.
#ifndef SKIF_NODE_LINKS_H
#define SKIF_NODE_LINKS_H

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "verilated.h"

namespace skif
{
// Bit fields of a model's ports, for every width Verilator picks (fields of
// at most 64 bits; a 64-bit field of a wide port starts on a word).
template <typename T> uint64_t get_field(const T &v, int lsb, int w)
{
    return (static_cast<uint64_t>(v) >> lsb) & (w == 64 ? ~0ull : (1ull << w) - 1);
}
template <std::size_t W> uint64_t get_field(const VlWide<W> &v, int lsb, int w)
{
    uint64_t x = v[lsb / 32] >> (lsb % 32);
    if (lsb % 32 + w > 32)
        x |= static_cast<uint64_t>(v[lsb / 32 + 1]) << (32 - lsb % 32);
    return x & (w == 64 ? ~0ull : (1ull << w) - 1);
}
template <typename T> void set_field(T &v, int lsb, int w, uint64_t x)
{
    const uint64_t m = (w == 64 ? ~0ull : (1ull << w) - 1) << lsb;
    v = static_cast<T>((static_cast<uint64_t>(v) & ~m) | ((x << lsb) & m));
}
template <std::size_t W> void set_field(VlWide<W> &v, int lsb, int w, uint64_t x)
{
    for (int b = 0; b < w; b += 32) { // whole words: data fields are 64-bit aligned
        const int k = (lsb + b) / 32;
        v[k] = static_cast<uint32_t>(x >> b);
    }
}

// A port is all zeros.
template <typename T> bool is_zero(const T &v)
{
    return v == 0;
}
template <std::size_t W> bool is_zero(const VlWide<W> &v)
{
    for (std::size_t k = 0; k < W; k++)
        if (v[k])
            return false;
    return true;
}

// Calls f(k) for each set bit k of a port, lowest first: a word at a time,
// so a port with few bits set costs a few operations, not one per bit.
template <typename T, typename F> void for_each_bit(const T &v, F f)
{
    for (uint64_t x = static_cast<uint64_t>(v); x; x &= x - 1)
        f(__builtin_ctzll(x));
}
template <std::size_t W, typename F> void for_each_bit(const VlWide<W> &v, F f)
{
    for (std::size_t w = 0; w < W; w++)
        for (uint32_t x = v[w]; x; x &= x - 1)
            f(static_cast<int>(w * 32) + __builtin_ctz(x));
}

// One clock cycle of one model in one evaluation. A Verilated model evaluates
// all logic that depends on its inputs on every eval(), so the usual falling
// and rising edge (two evaluations) cost a node's input logic twice a cycle,
// where a whole network's model had no inputs. Verilator 5 finds a rising
// edge by comparing the clock with its value at the last evaluation: with the
// clock held at 1 and that value set to 0, one evaluation is the rising edge,
// after the new link inputs. Where the generated model has no such member (a
// Verilator version other than the 5.0 series), the two evaluations are used.
// Root is the model's root class (V<top>___024root).
template <typename R, typename = void> struct HasClkPrev : std::false_type {
};
template <typename R>
struct HasClkPrev<R, std::void_t<decltype(std::declval<R &>().__Vtrigrprev__TOP__clk_i)>>
    : std::true_type {
};

// Engine clock gating: a model with an eng_clk_i port (skif_node_top) runs
// its collective and RMA engines on it. At each edge that clock rises only if
// the model's eng_wake_o was high after its last evaluation (a register of
// the engines may change at this edge; low: none does, so skipping the edge
// changes nothing, and Verilator then evaluates none of the engines'
// clocked logic). gate = false clocks them at every edge, as clk_i.
template <typename M, typename = void> struct HasEngClk : std::false_type {
};
template <typename M>
struct HasEngClk<M, std::void_t<decltype(std::declval<M &>().eng_clk_i)>> : std::true_type {
};

template <typename Root, typename M> void cycle_one(M *m, bool gate = true)
{
    [[maybe_unused]] uint8_t eng = 1;
    if constexpr (HasEngClk<M>::value)
        eng = gate ? m->eng_wake_o : 1;
    if constexpr (HasClkPrev<Root>::value) {
        m->clk_i = 1;
        m->rootp->__Vtrigrprev__TOP__clk_i = 0; // (already 0 after a falling edge's evaluation)
        if constexpr (HasEngClk<M>::value) {
            m->eng_clk_i = eng;
            m->rootp->__Vtrigrprev__TOP__eng_clk_i = 0;
        }
        m->eval();
    } else {
        m->clk_i = 0;
        if constexpr (HasEngClk<M>::value)
            m->eng_clk_i = 0;
        m->eval();
        m->clk_i = 1;
        if constexpr (HasEngClk<M>::value)
            m->eng_clk_i = eng;
        m->eval();
    }
}

// The node through port `port` (2d: +, 2d+1: - in dimension d) of node r of a
// torus of dims[0..ndims) (ranks X fastest).
inline int torus_neighbour(const int *dims, int ndims, int r, int port)
{
    int c[4] = {0, 0, 0, 0}, s = r;
    for (int d = 0; d < ndims; d++) {
        c[d] = s % dims[d];
        s /= dims[d];
    }
    const int d = port / 2, sz = dims[d];
    c[d] = (port % 2) ? (c[d] + sz - 1) % sz : (c[d] + 1) % sz;
    int n = 0;
    for (int k = ndims - 1; k >= 0; k--)
        n = n * dims[k] + c[k];
    return n;
}

// The links: in port j of node i is fed by its neighbour through port j,
// from that neighbour's out port j^1; the credits of node i's out port j come
// from the same neighbour's in port j^1. nb[i * links + j] is node i's
// neighbour through port j; vcw the width of a VC number. Nodes [lo, hi)
// (their inputs only).
// changed, when given, gets changed[i] = 1 for each node i whose inputs now
// differ from what they were (the simulator wakes a sleeping node so).
// ran, when given, says which nodes took their clock edge since the last
// move (ran[k] != 0): the outputs of one that did not are what they were, so
// the ports it feeds are passed over.
// Each of a node's narrow input ports (valid, last, VC, credit, cc: at most
// 64 bits for 8 links) is gathered whole from the neighbours and written
// once; a bit at a time, read, compared and written, it cost three times
// the instructions. (move_links_shape: the same with the number of links
// and the VC width as constants where LinksC, VcwC != 0: the field offsets
// fold; move_links picks it for the shapes the models have.)
template <typename P> constexpr bool narrow_v = std::is_integral<std::remove_reference_t<P>>::value;

template <int LinksC, int VcwC, typename M>
void move_links_shape(const std::vector<M *> &m, const std::vector<int> &nb, int links, int vcw,
                      std::size_t lo, std::size_t hi, uint8_t *changed, const uint8_t *ran)
{
    static_assert(narrow_v<decltype(M::in_valid_i)> && narrow_v<decltype(M::in_vc_i)> &&
                      narrow_v<decltype(M::out_credit_vc_i)> && narrow_v<decltype(M::out_cc_i)>,
                  "the narrow link ports fit 64 bits (at most 8 links)");
    const int L = LinksC ? LinksC : links, V = VcwC ? VcwC : vcw;
    // (the ports through the models' roots: a model's ports are references
    // to its root's members, a second load at every access)
    using Root = std::remove_reference_t<decltype(*m[0]->rootp)>;
    for (std::size_t i = lo; i < hi; i++) {
        Root *t = m[i]->rootp;
        const int *const nbi = &nb[i * static_cast<std::size_t>(L)];
        const Root *s[8];
        bool any = false;
        for (int j = 0; j < L; j++) {
            const int from = nbi[j];
            s[j] = (ran && !ran[from]) ? nullptr : m[static_cast<std::size_t>(from)]->rootp;
            any |= s[j] != nullptr;
        }
        if (!any)
            continue;
        bool ch = false;
        uint64_t valid = 0, last = 0, vc = 0, crv = 0, crvc = 0, cc = 0;
        uint64_t keep = 0; // one bit per port whose neighbour slept: its bits stay as they were
#pragma GCC unroll 8
        for (int j = 0; j < L; j++) {
            const Root *n = s[j];
            if (!n) {
                keep |= 1ull << j;
                continue;
            }
            const int k = j ^ 1;
            valid |= get_field(n->out_valid_o, k, 1) << j;
            last |= get_field(n->out_last_o, k, 1) << j;
            vc |= get_field(n->out_vc_o, k * V, V) << (j * V);
            crv |= get_field(n->in_credit_valid_o, k, 1) << j;
            crvc |= get_field(n->in_credit_vc_o, k * V, V) << (j * V);
            cc |= get_field(n->in_cc_o, k * 2, 2) << (j * 2);
            const uint64_t d = get_field(n->out_data_o, k * 64, 64);
            if (changed && !ch && get_field(t->in_data_i, j * 64, 64) != d)
                ch = true;
            set_field(t->in_data_i, j * 64, 64, d);
        }
        if (keep) { // the kept ports' bits, as masks of 1, V and 2 bits per port
            uint64_t kv = 0, k2 = 0;
            for (int j = 0; j < L; j++)
                if (keep >> j & 1) {
                    kv |= ((1ull << V) - 1) << (j * V);
                    k2 |= 3ull << (j * 2);
                }
            valid |= t->in_valid_i & keep;
            last |= t->in_last_i & keep;
            vc |= t->in_vc_i & kv;
            crv |= t->out_credit_valid_i & keep;
            crvc |= t->out_credit_vc_i & kv;
            cc |= t->out_cc_i & k2;
        }
        const auto put = [&ch, changed](auto &dst, uint64_t x) {
            using T = std::remove_reference_t<decltype(dst)>;
            if (changed && static_cast<uint64_t>(dst) != x)
                ch = true;
            dst = static_cast<T>(x);
        };
        put(t->in_valid_i, valid);
        put(t->in_last_i, last);
        put(t->in_vc_i, vc);
        put(t->out_credit_valid_i, crv);
        put(t->out_credit_vc_i, crvc);
        put(t->out_cc_i, cc);
        if (ch)
            changed[i] = 1;
    }
}

template <typename M>
void move_links(const std::vector<M *> &m, const std::vector<int> &nb, int links, int vcw,
                std::size_t lo, std::size_t hi, uint8_t *changed = nullptr,
                const uint8_t *ran = nullptr)
{
    if (vcw == 4) {
        switch (links) {
        case 2:
            return move_links_shape<2, 4>(m, nb, links, vcw, lo, hi, changed, ran);
        case 4:
            return move_links_shape<4, 4>(m, nb, links, vcw, lo, hi, changed, ran);
        case 6:
            return move_links_shape<6, 4>(m, nb, links, vcw, lo, hi, changed, ran);
        case 8:
            return move_links_shape<8, 4>(m, nb, links, vcw, lo, hi, changed, ran);
        default:
            break;
        }
    }
    move_links_shape<0, 0>(m, nb, links, vcw, lo, hi, changed, ran);
}
} // namespace skif

#endif // SKIF_NODE_LINKS_H
