// SPDX-License-Identifier: Apache-2.0
// skif_sc_cpu.cpp: the driver-like test "CPU" of one node (see skif_sc_cpu.h).
#include "skif_sc_cpu.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "skif_hw.h" // generated from rtl/skif_defs.vh

using namespace sc_core;

namespace
{
uint32_t round8(uint32_t n)
{
    return (n + 7u) & ~7u;
}
uint64_t get_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= static_cast<uint64_t>(p[i]) << (8 * i);
    return v;
}
void put_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = static_cast<uint8_t>(v >> (8 * i));
}
#ifndef SKIF_STATUS_NET_DROP
#define SKIF_STATUS_NET_DROP 0u // sticky router-drop bit, in newer skif_hw.h
#endif
const uint32_t kErrBits = SKIF_STATUS_TX_ERR | SKIF_STATUS_REG_ERR | SKIF_STATUS_DMA_ERR |
                          SKIF_STATUS_RX_ERR | SKIF_STATUS_NET_DROP;
const uint8_t kPadGarbage = 0xA5; // written past len in TX entries; must arrive as zeros
} // namespace

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
    return h % (SKIF_MAX_MSG + 1);
}

uint8_t skif_sc_msg_byte(int src, int k, unsigned j)
{
    return static_cast<uint8_t>(src * 37 + k * 11 + j * 7 + (j >> 8) * 13 + 0x5A);
}

uint8_t skif_sc_msg_chan(int src, int k)
{
    return static_cast<uint8_t>(k * 5 + src);
}

skif_sc_cpu::skif_sc_cpu(sc_module_name name, const skif_sc_cpu_config &cfg)
    : sc_module(name), mem("mem"), reg("reg"), irq("irq"), cfg_(cfg)
{
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

// ------------------------------------------------------------ phases

void skif_sc_cpu::check_registers()
{
    const uint32_t n = static_cast<uint32_t>(cfg_.node);
    char m[128];
    uint32_t v;
    if ((v = reg_rd(SKIF_REG_ID)) != SKIF_ID_VALUE)
        fail("ID reads 0x" + std::to_string(v));
    if ((v = reg_rd(SKIF_REG_VERSION)) != SKIF_VERSION_VALUE)
        fail("VERSION reads " + std::to_string(v));
    if ((v = reg_rd(SKIF_REG_NODE)) != n)
        fail("NODE reads " + std::to_string(v));
    reg_wr(SKIF_REG_SCRATCH, 0xC0DE0000u | n);
    if ((v = reg_rd(SKIF_REG_SCRATCH)) != (0xC0DE0000u | n))
        fail("SCRATCH reads back " + std::to_string(v));
    if ((v = reg_rd(SKIF_REG_STATUS)) & kErrBits)
        fail("STATUS has error bits after reset: " + std::to_string(v));

    // Accesses the map refuses: each must come back as an error response.
    struct bad {
        bool write;
        uint64_t off;
        uint32_t val;
        unsigned len;
        tlm::tlm_response_status want;
        bool reaches_rtl; // sets STATUS.REG_ERR and ERR_INFO = off
    };
    const bad cases[] = {
        {false, SKIF_REG_MAP_SIZE, 0, 4, tlm::TLM_ADDRESS_ERROR_RESPONSE, true},
        {false, 0xFFC, 0, 4, tlm::TLM_ADDRESS_ERROR_RESPONSE, true},
        {false, 0x018, 0, 4, tlm::TLM_ADDRESS_ERROR_RESPONSE, true}, // unassigned
        {false, 0x002, 0, 4, tlm::TLM_ADDRESS_ERROR_RESPONSE, true}, // misaligned
        {true, SKIF_REG_ID, 1, 4, tlm::TLM_ADDRESS_ERROR_RESPONSE, true},
        {true, SKIF_REG_TX_SIZE, 11, 4, tlm::TLM_ADDRESS_ERROR_RESPONSE, true},
        {false, 0x1000, 0, 4, tlm::TLM_ADDRESS_ERROR_RESPONSE, false}, // beyond the port
        {false, SKIF_REG_ID, 0, 8, tlm::TLM_BURST_ERROR_RESPONSE, false},
    };
    for (const bad &c : cases) {
        uint32_t val = c.val;
        const tlm::tlm_response_status st = reg_access(c.write, c.off, val, c.len);
        if (st != c.want) {
            std::snprintf(m, sizeof(m), "%s 0x%" PRIx64 " (len %u): response %d, want %d",
                          c.write ? "write" : "read", c.off, c.len, st, c.want);
            fail(m);
        }
        if (!c.reaches_rtl)
            continue;
        if ((v = reg_rd(SKIF_REG_ERR_INFO)) != (c.off & 0xFFF)) {
            std::snprintf(m, sizeof(m), "ERR_INFO 0x%x after bad access at 0x%" PRIx64, v, c.off);
            fail(m);
        }
        if (!((v = reg_rd(SKIF_REG_STATUS)) & SKIF_STATUS_REG_ERR))
            fail("STATUS.REG_ERR not set after a bad access");
        reg_wr(SKIF_REG_STATUS, SKIF_STATUS_REG_ERR); // W1C
    }
    if ((v = reg_rd(SKIF_REG_TX_SIZE)) != SKIF_RING_LOG2_MIN)
        fail("TX_SIZE changed by a refused write: " + std::to_string(v));
    if ((v = reg_rd(SKIF_REG_STATUS)) & kErrBits)
        fail("STATUS error bits not cleared by W1C: " + std::to_string(v));
}

// Like skif_rings_setup(): TX ring, RX ring, status block, then CTRL.
void skif_sc_cpu::setup_rings()
{
    tx_size_ = 1u << cfg_.tx_log2;
    rx_size_ = 1u << cfg_.rx_log2;
    tx_bus_ = cfg_.mem_base + 0x1000;
    rx_bus_ = tx_bus_ + tx_size_;
    st_bus_ = rx_bus_ + rx_size_;
    if (st_bus_ + 64 > cfg_.mem_base + cfg_.mem_size) {
        fail("host memory too small for the rings");
        return;
    }
    std::vector<uint8_t> zero(64, 0);
    mem_access(true, st_bus_, zero.data(), zero.size());
    reg_wr(SKIF_REG_TX_BASE_LO, static_cast<uint32_t>(tx_bus_));
    reg_wr(SKIF_REG_TX_BASE_HI, static_cast<uint32_t>(tx_bus_ >> 32));
    reg_wr(SKIF_REG_TX_SIZE, cfg_.tx_log2);
    reg_wr(SKIF_REG_RX_BASE_LO, static_cast<uint32_t>(rx_bus_));
    reg_wr(SKIF_REG_RX_BASE_HI, static_cast<uint32_t>(rx_bus_ >> 32));
    reg_wr(SKIF_REG_RX_SIZE, cfg_.rx_log2);
    reg_wr(SKIF_REG_STAT_BASE_LO, static_cast<uint32_t>(st_bus_));
    reg_wr(SKIF_REG_STAT_BASE_HI, static_cast<uint32_t>(st_bus_ >> 32));
    reg_wr(SKIF_REG_CTRL, SKIF_CTRL_TX_EN | SKIF_CTRL_RX_EN | SKIF_CTRL_IRQ_EN);
    if (reg_rd(SKIF_REG_CTRL) != (SKIF_CTRL_TX_EN | SKIF_CTRL_RX_EN | SKIF_CTRL_IRQ_EN))
        fail("CTRL does not read back");
    tx_tail_ = rx_head_ = hw_tx_head_ = hw_rx_tail_ = 0;
}

void skif_sc_cpu::read_status()
{
    uint8_t st[16];
    mem_access(false, st_bus_, st, sizeof(st));
    hw_tx_head_ = static_cast<uint32_t>(get_le64(st + SKIF_STAT_TX_HEAD));
    hw_rx_tail_ = static_cast<uint32_t>(get_le64(st + SKIF_STAT_RX_TAIL));
}

// Post every message that fits, then one doorbell (TX_TAIL) for all of them.
bool skif_sc_cpu::tx_pass()
{
    const uint32_t before = tx_tail_;
    const int dst = (cfg_.node + 1) % cfg_.nodes;
    while (sent_ < cfg_.messages) {
        const int k = sent_;
        const uint32_t len = skif_sc_msg_len(cfg_.node, k);
        const uint32_t entry = 8 + round8(len);
        if (tx_size_ - (tx_tail_ - hw_tx_head_) < entry)
            break;
        buf_.assign(entry, kPadGarbage);
        uint32_t netaddr = static_cast<uint32_t>(dst) << SKIF_NA_NODE_LO |
                           static_cast<uint32_t>(skif_sc_msg_chan(cfg_.node, k)) << SKIF_NA_CHAN_LO;
        if (k == cfg_.corrupt && len == 0)
            netaddr ^= 1; // wrong channel: the receiver must notice
        put_le64(buf_.data(), netaddr | static_cast<uint64_t>(len) << SKIF_DESC_LEN_LO);
        for (uint32_t j = 0; j < len; j++)
            buf_[8 + j] = skif_sc_msg_byte(cfg_.node, k, j);
        if (k == cfg_.corrupt && len > 0)
            buf_[8 + len / 2] ^= 0x10; // one flipped bit: the receiver must notice
        ring_access(true, tx_bus_, tx_size_, tx_tail_, buf_.data(), entry);
        tx_tail_ += entry;
        sent_++;
    }
    if (tx_tail_ == before)
        return false;
    reg_wr(SKIF_REG_TX_TAIL, tx_tail_);
    return true;
}

// Take every complete entry, check it, then free them with one RX_HEAD write.
bool skif_sc_cpu::rx_pass()
{
    const uint32_t before = rx_head_;
    const int src = (cfg_.node + cfg_.nodes - 1) % cfg_.nodes;
    char m[160];
    while (rx_head_ != hw_rx_tail_ && !done_) {
        uint8_t h[8];
        ring_access(false, rx_bus_, rx_size_, rx_head_, h, 8);
        const uint64_t hdr = get_le64(h);
        const uint32_t chan = hdr & 0xFF, from = (hdr >> 8) & 0xFFFF;
        const uint32_t len = (hdr >> SKIF_DESC_LEN_LO) & 0xFFF;
        const int k = received_;
        if ((hdr >> 44) != 0 || ((hdr >> 24) & 0xFF) != 0 || len > SKIF_MAX_MSG ||
            hw_rx_tail_ - rx_head_ < 8 + round8(len)) {
            std::snprintf(m, sizeof(m), "bad RX entry header 0x%016" PRIx64 " at %u (tail %u)", hdr,
                          rx_head_, hw_rx_tail_);
            fail(m);
            done_ = true; // cannot walk the ring further
            break;
        }
        if (k >= cfg_.messages) {
            fail("more messages than sent");
        } else {
            const uint32_t want_len = skif_sc_msg_len(src, k);
            if (from != static_cast<uint32_t>(src) || chan != skif_sc_msg_chan(src, k) ||
                len != want_len) {
                std::snprintf(m, sizeof(m),
                              "message %d: src %u chan %u len %u, want src %d chan %u len %u", k,
                              from, chan, len, src, skif_sc_msg_chan(src, k), want_len);
                fail(m);
            }
            buf_.assign(round8(len), 0);
            ring_access(false, rx_bus_, rx_size_, rx_head_ + 8, buf_.data(), buf_.size());
            int bad = 0;
            for (uint32_t j = 0; j < buf_.size(); j++) {
                const uint8_t want = j < len ? skif_sc_msg_byte(src, k, j) : 0;
                if (buf_[j] != want && bad++ < 3) {
                    std::snprintf(m, sizeof(m),
                                  "message %d from node %d byte %u: 0x%02x, want 0x%02x%s", k, src,
                                  j, buf_[j], want, j < len ? "" : " (tail byte)");
                    fail(m);
                }
            }
            rx_bytes_ += len;
        }
        rx_head_ += 8 + round8(len);
        received_++;
    }
    if (rx_head_ == before)
        return false;
    reg_wr(SKIF_REG_RX_HEAD, rx_head_);
    return true;
}

void skif_sc_cpu::run()
{
    check_registers();
    setup_rings();
    while (!done_ && errors_ < 100) {
        const uint64_t seen = irq_count_;
        read_status();
        bool progress = rx_pass();
        progress |= tx_pass();
        if (sent_ == cfg_.messages && received_ >= cfg_.messages && hw_tx_head_ == tx_tail_)
            break;
        sync();
        // Sleep until the next irq (none lost: on_irq counts them all).
        if (!progress && irq_count_ == seen)
            wait(cfg_.poll, irq.posedge_event());
    }
    sync();
    if (!done_) {
        // Counters and sticky status agree with what software saw.
        uint32_t flits = 0;
        for (int k = 0; k < cfg_.messages; k++)
            flits += 1 + (skif_sc_msg_len(cfg_.node, k) + 7) / 8;
        const struct {
            uint32_t off, want;
            const char *name;
        } fin[] = {
            {SKIF_REG_TX_PKTS, static_cast<uint32_t>(cfg_.messages), "TX_PKTS"},
            {SKIF_REG_TX_FLITS, flits, "TX_FLITS"},
            {SKIF_REG_RX_PKTS, static_cast<uint32_t>(cfg_.messages), "RX_PKTS"},
            {SKIF_REG_RX_DROPS, 0, "RX_DROPS"},
            {SKIF_REG_TX_HEAD, tx_tail_, "TX_HEAD"},
            {SKIF_REG_RX_TAIL, rx_head_, "RX_TAIL"},
        };
        for (const auto &f : fin) {
            const uint32_t v = reg_rd(f.off);
            if (v != f.want)
                fail(std::string(f.name) + " reads " + std::to_string(v) + ", want " +
                     std::to_string(f.want));
        }
        const uint32_t st = reg_rd(SKIF_REG_STATUS);
        if (st & kErrBits)
            fail("STATUS error bits at the end: " + std::to_string(st));
        if (cfg_.messages > 0 && irq_count_ == 0)
            fail("no irq seen");
        reg_wr(SKIF_REG_CTRL, 0);
        sync();
    }
    done_ = true;
    done_ev_.notify(SC_ZERO_TIME);
}
