// SPDX-License-Identifier: Apache-2.0
// netbench_main.cpp: skifnet, the Verilated torus fabric (routers only) driven
// by the synthetic traffic and scoreboard of netbench.c (C++ only as Verilator
// demands). Each cycle: offer flits on the local ports, settle, sample the
// handshakes, clock, then tell the scoreboard what moved. The watchdog names
// the router, port and VC of every input VC that holds a flit and stopped.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "Vskif_torus_fabric.h"
#include "verilated.h"

extern "C" {
#include "netbench.h"
}

#ifndef SKIFNET_NDIMS
#error "build with -DSKIFNET_NDIMS=... -DSKIFNET_DIMS=... (see the Makefile)"
#endif

namespace
{
// Bit and word access that works for every width Verilator picks.
template <typename T> bool get_bit(const T &v, int i)
{
    return (v >> i) & 1;
}
template <std::size_t W> bool get_bit(const VlWide<W> &v, int i)
{
    return (v[i / 32] >> (i % 32)) & 1;
}
template <typename T> void set_bit(T &v, int i, bool b)
{
    v = b ? (v | (T(1) << i)) : (v & ~(T(1) << i));
}
template <std::size_t W> void set_bit(VlWide<W> &v, int i, bool b)
{
    if (b)
        v[i / 32] |= 1u << (i % 32);
    else
        v[i / 32] &= ~(1u << (i % 32));
}
template <std::size_t W> uint64_t get_u64(const VlWide<W> &v, int i)
{
    return (uint64_t)v[2 * i] | (uint64_t)v[2 * i + 1] << 32;
}
template <std::size_t W> void set_u64(VlWide<W> &v, int i, uint64_t x)
{
    v[2 * i] = (uint32_t)x;
    v[2 * i + 1] = (uint32_t)(x >> 32);
}
template <std::size_t W> uint32_t get_u32(const VlWide<W> &v, int i)
{
    return v[i];
}
uint32_t get_u32(uint64_t v, int i)
{
    return (uint32_t)(v >> (32 * i));
}

const int kDims[4] = {SKIFNET_DIMS};
const char *const kClass[4] = {"msg", "msg-after-dateline", "coll-up", "coll-down"};
} // namespace

int main(int argc, char **argv)
{
    nb_opts o;
    int rc = nb_parse(&o, argc, argv);
    if (rc)
        return rc > 0 ? 0 : 2;
    bool match = o.ndims == SKIFNET_NDIMS;
    for (int d = 0; d < 4 && match; d++)
        match = o.dims[d] == kDims[d];
    if (!match) {
        std::fprintf(stderr, "skifnet: this model was built for another torus than --dims\n");
        return 2;
    }
    nb *b = nb_new(&o);
    if (!b)
        return 5;
    const int n = nb_nodes(b);
    const int links = 2 * SKIFNET_NDIMS, ports = links + 1;
    const int vcs = 4 * SKIFNET_NUMVCS, dbgw = ports * vcs;

    VerilatedContext ctx;
    Vskif_torus_fabric top{&ctx, "TOP"};
    top.rst_ni = 0;
    for (int i = 0; i < 8; i++) {
        top.clk_i = 0;
        top.eval();
        top.clk_i = 1;
        top.eval();
    }
    top.rst_ni = 1;
    for (int i = 0; i < n; i++)
        set_bit(top.ej_ready_i, i, true);

    std::vector<uint8_t> inj(n), ej(n), ej_last(n);
    std::vector<uint64_t> ej_data(n), vc_moved(static_cast<size_t>(n) * dbgw, 0);
    uint64_t last_any = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        const uint64_t now = nb_now(b);
        for (int i = 0; i < n; i++) {
            uint64_t data = 0;
            int last = 0;
            bool v = nb_offer(b, i, &data, &last);
            set_bit(top.inj_valid_i, i, v);
            set_u64(top.inj_data_i, i, data);
            set_bit(top.inj_last_i, i, last);
        }
        top.clk_i = 0;
        top.eval();
        bool moved = false;
        for (int i = 0; i < n; i++) {
            inj[i] = get_bit(top.inj_valid_i, i) && get_bit(top.inj_ready_o, i);
            ej[i] = get_bit(top.ej_valid_o, i);
            ej_data[i] = get_u64(top.ej_data_o, i);
            ej_last[i] = get_bit(top.ej_last_o, i);
        }
        top.clk_i = 1;
        top.eval();
        for (int i = 0; i < n; i++) {
            if (inj[i])
                nb_injected(b, i), moved = true;
            if (ej[i])
                nb_ejected(b, i, ej_data[i], ej_last[i]), moved = true;
        }
        // per input VC: when did it last send a flit
        for (int k = 0; k < n * dbgw; k++)
            if (get_bit(top.dbg_move_o, k))
                vc_moved[k] = now, moved = true;
        if (moved)
            last_any = now;
        if (now - last_any + 1 >= o.watchdog) {
            std::string s;
            for (int k = 0; k < n * dbgw; k++) {
                if (!get_bit(top.dbg_busy_o, k) || now - vc_moved[k] < o.watchdog / 2)
                    continue;
                const int r = k / dbgw, p = (k % dbgw) / vcs, u = k % vcs;
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
                              kClass[u / SKIFNET_NUMVCS],
                              static_cast<unsigned long long>(vc_moved[k]));
                s += line;
            }
            nb_set_stuck(b, s.c_str());
        }
        rc = nb_cycle(b, moved);
        if (rc)
            break;
    }
    // a few idle cycles so the last drops reach the counters
    for (int i = 0; i < n; i++)
        set_bit(top.inj_valid_i, i, false);
    for (int c = 0; c < 16; c++) {
        top.clk_i = 0;
        top.eval();
        top.clk_i = 1;
        top.eval();
    }
    for (int i = 0; i < n; i++)
        nb_drop_count(b, i, get_u32(top.drop_cnt_o, i));
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    int code = nb_report(b, wall);
    top.final();
    nb_free(b);
    return rc < 0 ? 1 : code;
}
