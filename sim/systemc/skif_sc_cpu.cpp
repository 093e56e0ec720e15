// SPDX-License-Identifier: Apache-2.0
// skif_sc_cpu.cpp: the driver-like test "CPU" of one node (see skif_sc_cpu.h):
// bus accesses, traffic and checks. The register map and ring formats are in
// skif_sc_cpu_hw.cpp.
#include "skif_sc_cpu.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

using namespace sc_core;

namespace
{
const unsigned kMaxMsg = 2048; // SKIFCH_MAX_MSG, the adapter's largest message
} // namespace

skif_sc_record::skif_sc_record(std::vector<uint32_t> node_ids, std::vector<int> msgs, bool stream_,
                               int size_)
    : ids(std::move(node_ids)), messages(std::move(msgs)), stream(stream_), size(size_),
      pending(ids.size(), std::vector<std::deque<int>>(ids.size()))
{
}

int skif_sc_record::dst(int src, int k) const
{
    return stream ? 1 : skif_sc_msg_dst(src, k, static_cast<int>(ids.size()));
}

unsigned skif_sc_record::len(int src, int k) const
{
    return size >= 0 ? static_cast<unsigned>(size) : skif_sc_msg_len(src, k);
}

int skif_sc_record::rank_of(uint32_t node_id) const
{
    for (size_t i = 0; i < ids.size(); i++)
        if (ids[i] == node_id)
            return static_cast<int>(i);
    return -1;
}

// Round-robin over every other node: each node hears from all the others, so
// messages of several senders interleave, and on a 2-D torus they cross
// dimensions.
int skif_sc_msg_dst(int src, int k, int nodes)
{
    return (src + 1 + k % (nodes - 1)) % nodes;
}

// The first sizes cover the edges; then a deterministic spread over 0..2048.
unsigned skif_sc_msg_len(int src, int k)
{
    static const unsigned first[] = {0, 1, 7, 8, 9, 2048, 15, 16, 2047, 100, 64, 2040};
    const int nfirst = static_cast<int>(sizeof(first) / sizeof(first[0]));
    if (k < nfirst)
        return first[(k + src) % nfirst];
    uint32_t h = static_cast<uint32_t>(k) * 2654435761u ^ static_cast<uint32_t>(src) * 40503u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return h % (kMaxMsg + 1);
}

uint8_t skif_sc_msg_byte(int src, int k, unsigned j)
{
    return static_cast<uint8_t>(src * 37 + k * 11 + j * 7 + (j >> 8) * 13 + 0x5A);
}

uint8_t skif_sc_msg_chan(int src, int k)
{
    return static_cast<uint8_t>((k * 5 + src) % skif_sc_cpu::hw_rx_chans);
}

skif_sc_cpu::skif_sc_cpu(sc_module_name name, const skif_sc_cpu_config &cfg)
    : sc_module(name), mem("mem"), reg("reg"), irq("irq"), cfg_(cfg), last_k_(cfg.nodes, -1)
{
    for (int s = 0; s < cfg_.nodes; s++)
        for (int k = 0; k < cfg_.record->messages[s]; k++)
            if (s != cfg_.node && cfg_.record->dst(s, k) == cfg_.node)
                expected_++;
    SC_THREAD(run);
    SC_METHOD(on_irq);
    sensitive << irq.pos();
    dont_initialize();
}

void skif_sc_cpu::fail(const std::string &what)
{
    if (errors_ < 20)
        std::fprintf(stderr, "node %d: ERROR at %s: %s\n", cfg_.node,
                     sc_time_stamp().to_string().c_str(), what.c_str());
    errors_++;
}

void skif_sc_cpu::sync()
{
    if (offset_ > SC_ZERO_TIME) {
        wait(offset_);
        offset_ = SC_ZERO_TIME;
    }
}

// ------------------------------------------------------------ bus accesses

tlm::tlm_response_status skif_sc_cpu::reg_access(bool write, uint64_t off, uint32_t &val,
                                                 unsigned len)
{
    uint8_t data[8] = {0};
    for (unsigned i = 0; i < 4; i++)
        data[i] = static_cast<uint8_t>(val >> (8 * i));
    gp_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp_.set_address(off);
    gp_.set_data_ptr(data);
    gp_.set_data_length(len);
    gp_.set_streaming_width(len);
    gp_.set_byte_enable_ptr(nullptr);
    gp_.set_byte_enable_length(0);
    gp_.set_dmi_allowed(false);
    gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    reg->b_transport(gp_, offset_);
    if (!write && gp_.is_response_ok())
        val = data[0] | data[1] << 8 | data[2] << 16 | static_cast<uint32_t>(data[3]) << 24;
    return gp_.get_response_status();
}

uint32_t skif_sc_cpu::reg_rd(uint32_t off)
{
    uint32_t v = 0;
    const tlm::tlm_response_status st = reg_access(false, off, v);
    if (st != tlm::TLM_OK_RESPONSE) {
        char m[96];
        std::snprintf(m, sizeof(m), "register read 0x%03x: %s", off,
                      gp_.get_response_string().c_str());
        fail(m);
    }
    return v;
}

void skif_sc_cpu::reg_wr(uint32_t off, uint32_t val)
{
    const tlm::tlm_response_status st = reg_access(true, off, val);
    if (st != tlm::TLM_OK_RESPONSE) {
        char m[96];
        std::snprintf(m, sizeof(m), "register write 0x%03x: %s", off,
                      gp_.get_response_string().c_str());
        fail(m);
    }
}

void skif_sc_cpu::mem_access(bool write, uint64_t addr, void *buf, size_t len)
{
    gp_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp_.set_address(addr);
    gp_.set_data_ptr(static_cast<unsigned char *>(buf));
    gp_.set_data_length(static_cast<unsigned>(len));
    gp_.set_streaming_width(static_cast<unsigned>(len));
    gp_.set_byte_enable_ptr(nullptr);
    gp_.set_byte_enable_length(0);
    gp_.set_dmi_allowed(false);
    gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    mem->b_transport(gp_, offset_);
    if (!gp_.is_response_ok()) {
        char m[96];
        std::snprintf(m, sizeof(m), "memory %s at 0x%" PRIx64 ": %s", write ? "write" : "read",
                      addr, gp_.get_response_string().c_str());
        fail(m);
    }
}

// len bytes at free-running ring offset off, wrapping at the ring's end.
void skif_sc_cpu::ring_access(bool write, uint64_t base, uint32_t size, uint32_t off, void *buf,
                              size_t len)
{
    const uint32_t pos = off & (size - 1);
    const size_t first = size - pos < len ? size - pos : len;
    if (first)
        mem_access(write, base + pos, buf, first);
    if (len > first)
        mem_access(write, base, static_cast<uint8_t *>(buf) + first, len - first);
}

// ------------------------------------------------------------ traffic

// Post every message that fits, record each, then one doorbell for all.
bool skif_sc_cpu::send_pass()
{
    const int before = sent_;
    std::vector<uint8_t> payload;
    while (sent_ < cfg_.messages) {
        const int k = sent_;
        const int dst = cfg_.record->dst(cfg_.node, k);
        const uint32_t len = cfg_.record->len(cfg_.node, k);
        payload.resize(len);
        for (uint32_t j = 0; j < len; j++)
            payload[j] = skif_sc_msg_byte(cfg_.node, k, j);
        if (k == cfg_.corrupt && len > 0)
            payload[len / 2] ^= 0x10; // one flipped bit: the receiver must notice
        if (!hw_tx_post(cfg_.record->ids[dst], skif_sc_msg_chan(cfg_.node, k), payload.data(), len,
                        k == cfg_.corrupt && len == 0))
            break;
        cfg_.record->pending[dst][cfg_.node].push_back(k);
        sent_++;
    }
    hw_tx_doorbell();
    return sent_ != before;
}

// Take every complete message, check it, then free them all at once.
bool skif_sc_cpu::receive_pass()
{
    const int before = received_;
    rx_msg m;
    while (hw_rx_next(m)) {
        check_message(m);
        received_++;
    }
    hw_rx_release();
    return received_ != before;
}

// Against the sender's record: the oldest message that sender sent here on
// this channel (with one RX ring: the oldest it sent here at all), then its
// length and every byte.
void skif_sc_cpu::check_message(const rx_msg &msg)
{
    char m[192];
    const int src = cfg_.record->rank_of(msg.src_id);
    if (src < 0 || src == cfg_.node) {
        std::snprintf(m, sizeof(m), "message from node id 0x%x: no such sender", msg.src_id);
        fail(m);
        return;
    }
    std::deque<int> &q = cfg_.record->pending[cfg_.node][src];
    auto it = q.begin();
    while (it != q.end() && skif_sc_msg_chan(src, *it) != msg.chan)
        ++it;
    if (it == q.end()) {
        std::snprintf(m, sizeof(m),
                      "message from node %d on chan %u len %u: not sent (lost order, duplicate or "
                      "corrupt header; %zu pending from it%s%s)",
                      src, msg.chan, msg.len, q.size(), q.empty() ? "" : ", oldest: ",
                      q.empty() ? ""
                                : ("message " + std::to_string(q.front()) + " chan " +
                                   std::to_string(skif_sc_msg_chan(src, q.front())))
                                      .c_str());
        fail(m);
        return;
    }
    const int k = *it;
    if (hw_one_rx_ring && it != q.begin()) {
        // The earlier ones are lost or late: name them once, forget them.
        std::snprintf(m, sizeof(m),
                      "message %d from node %d arrived before its message %d (%d earlier ones "
                      "missing or out of order)",
                      k, src, q.front(), static_cast<int>(it - q.begin()));
        fail(m);
        it = q.erase(q.begin(), it);
    }
    q.erase(it);
    if (k <= last_k_[src] && hw_one_rx_ring) {
        std::snprintf(m, sizeof(m), "message %d from node %d after its message %d", k, src,
                      last_k_[src]);
        fail(m);
    }
    last_k_[src] = k;
    const uint32_t want_len = cfg_.record->len(src, k);
    if (msg.len != want_len) {
        std::snprintf(m, sizeof(m), "message %d from node %d: len %u, want %u", k, src, msg.len,
                      want_len);
        fail(m);
    }
    int bad = 0;
    for (uint32_t j = 0; j < msg.data.size(); j++) {
        const uint8_t want = j < msg.len ? skif_sc_msg_byte(src, k, j) : 0;
        if (msg.data[j] != want && bad++ < 3) {
            std::snprintf(m, sizeof(m), "message %d from node %d byte %u: 0x%02x, want 0x%02x%s", k,
                          src, j, msg.data[j], want, j < msg.len ? "" : " (tail byte)");
            fail(m);
        }
    }
    rx_bytes_ += msg.len;
}

void skif_sc_cpu::run()
{
    hw_check_registers();
    hw_open();
    while (!broken_ && errors_ < 100) {
        const uint64_t seen = irq_count_;
        hw_poll();
        bool progress = receive_pass();
        progress |= send_pass();
        if (sent_ == cfg_.messages && received_ >= expected_ && hw_tx_idle())
            break;
        sync();
        // Sleep until the next irq (none lost: on_irq counts them all).
        if (!progress && irq_count_ == seen)
            wait(cfg_.poll, irq.posedge_event());
    }
    sync();
    if (!broken_) {
        // Nothing left that was sent here; counters and sticky status agree.
        for (int s = 0; s < cfg_.nodes; s++) {
            const std::deque<int> &q = cfg_.record->pending[cfg_.node][s];
            if (!q.empty())
                fail("message " + std::to_string(q.front()) + " from node " + std::to_string(s) +
                     " never arrived (" + std::to_string(q.size()) + " missing from it)");
        }
        if (received_ != expected_)
            fail("received " + std::to_string(received_) + " messages, want " +
                 std::to_string(expected_));
        hw_final_check();
        if ((cfg_.messages > 0 || expected_ > 0) && irq_count_ == 0)
            fail("no irq seen");
        hw_close();
        sync();
    }
    done_ = true;
    done_ev_.notify(SC_ZERO_TIME);
}
