// SPDX-License-Identifier: Apache-2.0
// skif_sc_platform.cpp: example SystemC/TLM-2.0 platform. N nodes, each a host
// memory (skif_tlm_memory) and a CPU (skif_sc_cpu) around one skif_tlm_adapter
// (the torus of Verilated node models; its size is --dims, read at run time).
// Every node sends K messages round-robin to the other nodes and checks what
// it receives against the senders' record. Prints a summary and
// "PASS skif_sc_platform"; exits 1 on any mismatch or timeout, 2 on a bad
// command line.
#include <chrono>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "skif_opts.h" // skif_parse_dims: the --dims parser of skifrun and skifnet
}
#include "skif_sc_cpu.h"
#include "skif_tlm_adapter.h"
#include "skif_tlm_memory.h"

using namespace sc_core;

namespace
{
const uint64_t kMemBase = 0x100000000ull; // bus address of each node's host memory (as skifsim)
const size_t kMemSize = 1u << 20;

// A torus as "4" or "2x2".
std::string dims_str(const int *dims, int nd)
{
    std::string d;
    for (int i = 0; i < nd; i++)
        d += (i ? "x" : "") + std::to_string(dims[i]);
    return d;
}

// The default torus: 2 nodes in each dimension the node model was built for.
std::string default_dims()
{
    const int two[4] = {2, 2, 2, 2};
    return dims_str(two, skif_tlm_adapter::model_ndims());
}

struct options {
    std::string dims = default_dims();
    int dim[4] = {1, 1, 1, 1}, ndims = 1; // as parsed
    int messages = 20;
    unsigned latency = 128;  // host round trip, cycles
    unsigned ring_log2 = 12; // TX and RX ring size
    int corrupt = -1;
    uint64_t max_cycles = 0; // 0: derived from the work
    bool quiet = false;
    bool memory_waits = false;
    bool stream = false;      // rank 0 -> rank 1 only
    int size = -1;            // fixed message length
    uint64_t idle_cycles = 0; // run on after every CPU is done
};

void usage(FILE *f, const char *prog)
{
    std::fprintf(
        f,
        "usage: %s [options]\n"
        "Example SystemC/TLM-2.0 platform: a torus of skifsim nodes (one Verilated\n"
        "node model per node) behind TLM-2.0 sockets.\n"
        "Each node sends K messages (0..2048 bytes) round-robin to the other nodes\n"
        "and checks every message it receives against the senders' record: intact,\n"
        "in order per sender, exactly once. Prints PASS skif_sc_platform, or exits 1.\n"
        "  --dims D         torus dimensions, e.g. 4 (a ring) or 2x2, 2..16 each; this\n"
        "                   binary's node model is for %d-dimensional tori (default %s;\n"
        "                   sim/systemc/run.sh --dims D picks or builds the one for D)\n"
        "  --nodes N        the same as --dims N (a ring of N)\n"
        "  --messages K     messages each node sends (default 20, 0..1000000)\n"
        "  --latency C      host memory latency in cycles, annotated by the memory and\n"
        "                   turned into DMA read latency by the bridge; register\n"
        "                   accesses take C/2 each way (default 128, 1..100000)\n"
        "  --ring-log2 L    TX and RX ring size, log2 bytes (default 12, 12..18)\n"
        "  --max-cycles C   stop with FAIL after C cycles (default: from the work)\n"
        "  --corrupt M      self-test of the checker: node 0 corrupts its message M\n"
        "                   in the TX ring; the run must FAIL\n"
        "  --memory-waits   the memories wait() for their latency inside b_transport\n"
        "                   instead of annotating it (DMA requests then back-pressure)\n"
        "  --stream         only node 0 sends, all K messages to node 1 (as sw/bench/stream)\n"
        "  --size B         every message is B bytes (0..2048; default: sizes spread\n"
        "                   over 0..2048)\n"
        "  --idle-cycles C  run C more cycles after every CPU is done (the model alone,\n"
        "                   for speed figures)\n"
        "  --quiet          no per-node lines\n"
        "  --help           this text\n",
        prog, skif_tlm_adapter::model_ndims(), default_dims().c_str());
}

bool parse_num(const char *s, long long lo, long long hi, long long *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    const long long v = std::strtoll(s, &end, 0);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

// Returns 0 to run, 1 after --help, -1 on a bad command line (message printed).
int parse(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long long v;
        if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) {
            usage(stdout, argv[0]);
            return 1;
        }
        if (!std::strcmp(a, "--quiet")) {
            o->quiet = true;
            continue;
        }
        if (!std::strcmp(a, "--memory-waits")) {
            o->memory_waits = true;
            continue;
        }
        if (!std::strcmp(a, "--stream")) {
            o->stream = true;
            continue;
        }
        const char *val = i + 1 < argc ? argv[i + 1] : nullptr;
        bool ok = true;
        if (!std::strcmp(a, "--nodes"))
            ok = parse_num(val, 2, 16, &v) && ((o->dims = std::to_string(v)), true);
        else if (!std::strcmp(a, "--dims"))
            ok = val && *val && ((o->dims = val), true);
        else if (!std::strcmp(a, "--messages"))
            ok = parse_num(val, 0, 1000000, &v) && ((o->messages = static_cast<int>(v)), true);
        else if (!std::strcmp(a, "--latency"))
            ok = parse_num(val, 1, 100000, &v) && ((o->latency = static_cast<unsigned>(v)), true);
        else if (!std::strcmp(a, "--ring-log2"))
            ok = parse_num(val, 12, 18, &v) && ((o->ring_log2 = static_cast<unsigned>(v)), true);
        else if (!std::strcmp(a, "--max-cycles"))
            ok = parse_num(val, 1, 1LL << 50, &v) &&
                 ((o->max_cycles = static_cast<uint64_t>(v)), true);
        else if (!std::strcmp(a, "--size"))
            ok = parse_num(val, 0, 2048, &v) && ((o->size = static_cast<int>(v)), true);
        else if (!std::strcmp(a, "--idle-cycles"))
            ok = parse_num(val, 0, 1LL << 40, &v) &&
                 ((o->idle_cycles = static_cast<uint64_t>(v)), true);
        else if (!std::strcmp(a, "--corrupt"))
            ok = parse_num(val, 0, 1000000, &v) && ((o->corrupt = static_cast<int>(v)), true);
        else {
            std::fprintf(stderr, "%s: unknown option '%s'\n", argv[0], a);
            usage(stderr, argv[0]);
            return -1;
        }
        if (!ok) {
            std::fprintf(stderr, "%s: bad or missing value for %s: '%s'\n", argv[0], a,
                         val ? val : "");
            usage(stderr, argv[0]);
            return -1;
        }
        i++;
    }
    char err[160];
    if (skif_parse_dims(o->dims.c_str(), o->dim, &o->ndims, err, sizeof(err)) < 0) {
        std::fprintf(stderr, "%s: %s\n", argv[0], err);
        usage(stderr, argv[0]);
        return -1;
    }
    const int built = skif_tlm_adapter::model_ndims();
    if (o->ndims != built) {
        std::fprintf(stderr,
                     "%s: this node model is for %d-dimensional tori, --dims %s has %d: run "
                     "sim/systemc/run.sh --dims %s (builds build/systemc/n%d)\n",
                     argv[0], built, o->dims.c_str(), o->ndims, o->dims.c_str(), o->ndims);
        return -1;
    }
    if (o->corrupt >= o->messages && o->corrupt >= 0) {
        std::fprintf(stderr, "%s: --corrupt %d needs --messages > %d\n", argv[0], o->corrupt,
                     o->corrupt);
        return -1;
    }
    return 0;
}

// Holds reset for 8 cycles, then waits for every CPU and stops the simulation.
SC_MODULE(skif_sc_supervisor)
{
    sc_in<bool> clk;
    sc_signal<bool> rst_n;
    std::vector<skif_sc_cpu *> cpus;
    uint64_t idle_cycles = 0;
    bool all_done = false;

    SC_CTOR(skif_sc_supervisor) : clk("clk"), rst_n("rst_n", false)
    {
        SC_THREAD(run);
    }

    void run()
    {
        rst_n.write(false);
        for (int i = 0; i < 8; i++)
            wait(clk.posedge_event());
        rst_n.write(true);
        for (skif_sc_cpu *c : cpus)
            while (!c->done())
                wait(c->done_event());
        all_done = true;
        for (uint64_t i = 0; i < idle_cycles; i++)
            wait(clk.posedge_event());
        sc_stop();
    }
};
} // namespace

int sc_main(int argc, char **argv)
{
    // No "stopped by user" note (the summary says it). The banner is printed
    // before sc_main: SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 in the environment.
    sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);
    options o;
    const int pr = parse(argc, argv, &o);
    if (pr != 0)
        return pr > 0 ? 0 : 2;

    const sc_time period(4, SC_NS); // 250 MHz, as skifsim
    sc_clock clk("clk", period);

    skif_tlm_adapter_config acfg;
    acfg.clock_period = period;
    acfg.reg_req_delay = period * (o.latency / 2);
    acfg.reg_rsp_delay = period * (o.latency - o.latency / 2);
    skif_tlm_adapter adapter("adapter", o.dim, o.ndims, acfg);
    skif_sc_supervisor sup("supervisor");
    sup.clk(clk);
    adapter.clk_i(clk);
    adapter.rst_ni(sup.rst_n);

    const int nodes = adapter.nodes();
    std::vector<uint32_t> ids;
    for (int i = 0; i < nodes; i++)
        ids.push_back(adapter.node_id(i));
    std::vector<int> msgs(nodes, o.messages);
    if (o.stream)
        for (int i = 1; i < nodes; i++)
            msgs[i] = 0;
    skif_sc_record record(ids, msgs, o.stream, o.size);
    sup.idle_cycles = o.idle_cycles;
    std::vector<std::unique_ptr<skif_tlm_memory>> mems;
    std::vector<std::unique_ptr<skif_sc_cpu>> cpus;
    for (int i = 0; i < nodes; i++) {
        const std::string s = std::to_string(i);
        mems.push_back(std::make_unique<skif_tlm_memory>(("mem_" + s).c_str(), kMemBase, kMemSize,
                                                         period * o.latency));
        skif_sc_cpu_config c;
        c.node = i;
        c.nodes = nodes;
        c.record = &record;
        c.messages = msgs[i];
        c.mem_base = kMemBase;
        c.mem_size = kMemSize;
        c.tx_log2 = c.rx_log2 = o.ring_log2;
        c.corrupt = i == 0 ? o.corrupt : -1;
        cpus.push_back(std::make_unique<skif_sc_cpu>(("cpu_" + s).c_str(), c));
        // Port 0 of the memory: the adapter's DMA (latency = --latency cycles);
        // port 1: the CPU, as a cache hit would be (a few ns).
        adapter.dma_socket(i).bind(mems[i]->socket);
        cpus[i]->mem.bind(mems[i]->socket);
        mems[i]->set_port_latency(1, sc_time(2, SC_NS));
        mems[i]->set_blocking(o.memory_waits);
        cpus[i]->reg.bind(adapter.reg_socket(i));
        cpus[i]->irq(adapter.irq(i));
        sup.cpus.push_back(cpus[i].get());
    }

    // Bound: setup plus a generous per-message budget (messages go one after
    // another on a node: 2 x 2056-byte reads/writes and a few latencies each).
    uint64_t max_cycles = o.max_cycles;
    if (!max_cycles)
        max_cycles = 200000 + o.idle_cycles +
                     static_cast<uint64_t>(o.messages) * (3000 + 8ull * o.latency) *
                         (o.memory_waits ? 2 * o.latency : 1);

    const auto t0 = std::chrono::steady_clock::now();
    sc_start(period * static_cast<double>(max_cycles));
    const auto t1 = std::chrono::steady_clock::now();
    const double wall = std::chrono::duration<double>(t1 - t0).count();
    const uint64_t cycles = adapter.cycles();

    int errors = 0;
    uint64_t bytes = 0;
    for (int i = 0; i < nodes; i++) {
        const skif_sc_cpu &c = *cpus[i];
        errors += c.errors();
        bytes += c.payload_bytes();
        if (!o.quiet)
            std::printf("node %d (id 0x%x): sent %d, received %d (%" PRIu64
                        " payload bytes), irqs %" PRIu64 ", DMA reads %" PRIu64 " (latency %" PRIu64
                        "..%" PRIu64 " cycles) writes %" PRIu64 " errors %" PRIu64 ", %s\n",
                        i, ids[i], c.sent(), c.received(), c.payload_bytes(), adapter.irqs(i),
                        adapter.dma_reads(i), adapter.dma_read_latency_min(i),
                        adapter.dma_read_latency_max(i), adapter.dma_writes(i),
                        adapter.dma_errors(i),
                        !c.done()    ? "NOT DONE"
                        : c.errors() ? "ERRORS"
                                     : "ok");
        if (!c.done() || c.received() != c.expected() || c.sent() != msgs[i])
            errors++;
        if (adapter.dma_errors(i) || adapter.net_drops(i))
            errors++;
    }
    std::printf("torus %s (%d nodes), messages/node %d, latency %u cycles, %" PRIu64
                " payload bytes checked\n",
                dims_str(o.dim, o.ndims).c_str(), nodes, o.messages, o.latency, bytes);
    std::printf("simulated %" PRIu64 " cycles (%.3f us) in %.3f s wall: %.0f cycles/s\n", cycles,
                sc_time_stamp().to_seconds() * 1e6, wall, wall > 0 ? cycles / wall : 0.0);
    if (!sup.all_done)
        std::printf("timeout: not finished after %" PRIu64 " cycles (--max-cycles)\n", max_cycles);
    if (errors || !sup.all_done) {
        std::printf("FAIL skif_sc_platform (%d errors)\n", errors);
        return 1;
    }
    std::printf("PASS skif_sc_platform\n");
    return 0;
}
