// SPDX-License-Identifier: Apache-2.0
// skif_sc_cpu_hw.cpp: the example CPU's hardware access: the only code of the
// SystemC path that knows the adapter's register map (include/skif_hw.h,
// generated from rtl/skif_defs.vh), the TX and RX ring entries and the status
// block (docs/register-map.md, docs/packet-format.md). A change of the
// register map or of the RX side is ported here; skif_sc_cpu.cpp only sees
// hw_tx_post / hw_rx_next and their siblings (skif_sc_cpu.h).
//
// Two register maps, chosen by what skif_hw.h defines:
// - SKIF_REG_CH_CFG (channel demultiplexer): one RX ring per channel, opened
//   through the channel table (CH_SEL, CH_BASE, CH_CFG), freed by CH_HEAD + 4c,
//   producer pointers in the status block at SKIF_STAT_CH_TAIL + 8c; the
//   traffic uses channels 0..hw_rx_chans-1 (skif_sc_cpu.h);
// - otherwise one RX ring for every channel (RX_BASE, RX_SIZE, RX_HEAD,
//   SKIF_STAT_RX_TAIL).
#include "skif_sc_cpu.h"

#include <cinttypes>
#include <cstdio>

#include "skif_hw.h"

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
#ifdef SKIF_REG_CH_CFG
const uint32_t kErrBits = SKIF_STATUS_TX_ERR | SKIF_STATUS_REG_ERR | SKIF_STATUS_DMA_ERR |
                          SKIF_STATUS_RX_ERR | SKIF_STATUS_NET_DROP | SKIF_STATUS_CH_DROP;
const uint32_t kStatSize = SKIF_STAT_CH_TAIL + 8 * skif_sc_cpu::hw_rx_chans;
#else
const uint32_t kErrBits = SKIF_STATUS_TX_ERR | SKIF_STATUS_REG_ERR | SKIF_STATUS_DMA_ERR |
                          SKIF_STATUS_RX_ERR | SKIF_STATUS_NET_DROP;
const uint32_t kStatSize = 16;
#endif
const uint8_t kPadGarbage = 0xA5; // written past len in TX entries; must arrive as zeros
} // namespace

void skif_sc_cpu::hw_check_registers()
{
    const uint32_t id = cfg_.record->ids[cfg_.node];
    char m[128];
    uint32_t v;
    if ((v = reg_rd(SKIF_REG_ID)) != SKIF_ID_VALUE)
        fail("ID reads 0x" + std::to_string(v));
    if ((v = reg_rd(SKIF_REG_VERSION)) != SKIF_VERSION_VALUE)
        fail("VERSION reads " + std::to_string(v));
    if ((v = reg_rd(SKIF_REG_NODE)) != id)
        fail("NODE reads " + std::to_string(v) + ", want " + std::to_string(id));
    reg_wr(SKIF_REG_SCRATCH, 0xC0DE0000u | id);
    if ((v = reg_rd(SKIF_REG_SCRATCH)) != (0xC0DE0000u | id))
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

// Like skif_rings_setup() / skif_dev_setup() + skif_chan_open(): TX ring,
// RX ring(s), status block, then CTRL.
void skif_sc_cpu::hw_open()
{
    tx_size_ = 1u << cfg_.tx_log2;
    rx_size_ = 1u << cfg_.rx_log2;
    tx_bus_ = cfg_.mem_base + 0x1000;
    for (int c = 0; c < hw_rx_rings; c++)
        rx_bus_[c] = tx_bus_ + tx_size_ + static_cast<uint64_t>(c) * rx_size_;
    st_bus_ = tx_bus_ + tx_size_ + static_cast<uint64_t>(hw_rx_rings) * rx_size_;
    if (st_bus_ + kStatSize > cfg_.mem_base + cfg_.mem_size) {
        fail("host memory too small for the rings");
        broken_ = true;
        return;
    }
    std::vector<uint8_t> zero(kStatSize, 0);
    mem_access(true, st_bus_, zero.data(), zero.size());
    reg_wr(SKIF_REG_TX_BASE_LO, static_cast<uint32_t>(tx_bus_));
    reg_wr(SKIF_REG_TX_BASE_HI, static_cast<uint32_t>(tx_bus_ >> 32));
    reg_wr(SKIF_REG_TX_SIZE, cfg_.tx_log2);
#ifndef SKIF_REG_CH_CFG
    reg_wr(SKIF_REG_RX_BASE_LO, static_cast<uint32_t>(rx_bus_[0]));
    reg_wr(SKIF_REG_RX_BASE_HI, static_cast<uint32_t>(rx_bus_[0] >> 32));
    reg_wr(SKIF_REG_RX_SIZE, cfg_.rx_log2);
#endif
    reg_wr(SKIF_REG_STAT_BASE_LO, static_cast<uint32_t>(st_bus_));
    reg_wr(SKIF_REG_STAT_BASE_HI, static_cast<uint32_t>(st_bus_ >> 32));
    reg_wr(SKIF_REG_CTRL, SKIF_CTRL_TX_EN | SKIF_CTRL_RX_EN | SKIF_CTRL_IRQ_EN);
    if (reg_rd(SKIF_REG_CTRL) != (SKIF_CTRL_TX_EN | SKIF_CTRL_RX_EN | SKIF_CTRL_IRQ_EN))
        fail("CTRL does not read back");
#ifdef SKIF_REG_CH_CFG
    const uint32_t nchans = reg_rd(SKIF_REG_CH_NUM);
    if (nchans < static_cast<uint32_t>(hw_rx_chans)) {
        fail("CH_NUM " + std::to_string(nchans) + ": fewer channels than the traffic uses");
        broken_ = true;
        return;
    }
    for (uint32_t c = 0; c < static_cast<uint32_t>(hw_rx_rings); c++) {
        reg_wr(SKIF_REG_CH_SEL, c);
        reg_wr(SKIF_REG_CH_BASE_LO, static_cast<uint32_t>(rx_bus_[c]));
        reg_wr(SKIF_REG_CH_BASE_HI, static_cast<uint32_t>(rx_bus_[c] >> 32));
        reg_wr(SKIF_REG_CH_CFG, SKIF_CH_CFG_EN | cfg_.rx_log2);
        if (reg_rd(SKIF_REG_CH_CFG) != (SKIF_CH_CFG_EN | cfg_.rx_log2))
            fail("CH_CFG of channel " + std::to_string(c) + " does not read back");
    }
#endif
    for (int c = 0; c < hw_rx_rings; c++)
        rx_head_[c] = rx_freed_[c] = hw_rx_tail_[c] = 0;
    tx_tail_ = tx_posted_ = hw_tx_head_ = 0;
    tx_flits_ = 0;
    rx_ring_ = 0;
}

void skif_sc_cpu::hw_poll()
{
    uint8_t st[8 * hw_rx_rings];
    mem_access(false, st_bus_ + SKIF_STAT_TX_HEAD, st, 8);
    hw_tx_head_ = static_cast<uint32_t>(get_le64(st));
#ifdef SKIF_REG_CH_CFG
    mem_access(false, st_bus_ + SKIF_STAT_CH_TAIL, st, sizeof(st));
#else
    mem_access(false, st_bus_ + SKIF_STAT_RX_TAIL, st, sizeof(st));
#endif
    for (int c = 0; c < hw_rx_rings; c++)
        hw_rx_tail_[c] = static_cast<uint32_t>(get_le64(st + 8 * c));
}

bool skif_sc_cpu::hw_tx_post(uint32_t dst_id, uint8_t chan, const uint8_t *data, uint32_t len,
                             bool corrupt_chan)
{
    const uint32_t entry = 8 + round8(len);
    if (tx_size_ - (tx_tail_ - hw_tx_head_) < entry)
        return false;
    buf_.assign(entry, kPadGarbage);
    uint32_t netaddr = dst_id << SKIF_NA_NODE_LO | static_cast<uint32_t>(chan) << SKIF_NA_CHAN_LO;
    if (corrupt_chan)
        netaddr ^= 1u << SKIF_NA_CHAN_LO; // wrong channel: the receiver must notice
    put_le64(buf_.data(), netaddr | static_cast<uint64_t>(len) << SKIF_DESC_LEN_LO);
    for (uint32_t j = 0; j < len; j++)
        buf_[8 + j] = data[j];
    ring_access(true, tx_bus_, tx_size_, tx_tail_, buf_.data(), entry);
    tx_tail_ += entry;
    tx_flits_ += 1 + round8(len) / 8;
    return true;
}

void skif_sc_cpu::hw_tx_doorbell()
{
    if (tx_tail_ != tx_posted_)
        reg_wr(SKIF_REG_TX_TAIL, tx_tail_);
    tx_posted_ = tx_tail_;
}

bool skif_sc_cpu::hw_tx_idle() const
{
    return hw_tx_head_ == tx_tail_;
}

// Takes the rings in turn: every entry of ring rx_ring_, then the next ring.
bool skif_sc_cpu::hw_rx_next(rx_msg &msg)
{
    if (broken_)
        return false;
    int c = rx_ring_;
    for (int n = 0; n < hw_rx_rings && rx_head_[c] == hw_rx_tail_[c]; n++)
        c = (c + 1) % hw_rx_rings;
    rx_ring_ = c;
    if (rx_head_[c] == hw_rx_tail_[c])
        return false;
    uint8_t h[8];
    ring_access(false, rx_bus_[c], rx_size_, rx_head_[c], h, 8);
    const uint64_t hdr = get_le64(h);
    msg.chan = hdr & 0xFF;
    msg.src_id = (hdr >> 8) & 0xFFFF;
    msg.len = (hdr >> SKIF_DESC_LEN_LO) & 0xFFF;
    if ((hdr >> 44) != 0 || ((hdr >> 24) & 0xFF) != 0 || msg.len > SKIF_MAX_MSG ||
        hw_rx_tail_[c] - rx_head_[c] < 8 + round8(msg.len) ||
        (hw_rx_rings > 1 && msg.chan != static_cast<uint32_t>(c))) {
        char m[160];
        std::snprintf(m, sizeof(m),
                      "bad RX entry header 0x%016" PRIx64 " at %u (tail %u) of ring %d", hdr,
                      rx_head_[c], hw_rx_tail_[c], c);
        fail(m);
        broken_ = true; // cannot walk the ring further
        return false;
    }
    msg.data.assign(round8(msg.len), 0);
    if (!msg.data.empty())
        ring_access(false, rx_bus_[c], rx_size_, rx_head_[c] + 8, msg.data.data(), msg.data.size());
    rx_head_[c] += 8 + round8(msg.len);
    return true;
}

void skif_sc_cpu::hw_rx_release()
{
    for (int c = 0; c < hw_rx_rings; c++) {
        if (rx_head_[c] == rx_freed_[c])
            continue;
#ifdef SKIF_REG_CH_CFG
        reg_wr(SKIF_REG_CH_HEAD + 4 * static_cast<uint32_t>(c), rx_head_[c]);
#else
        reg_wr(SKIF_REG_RX_HEAD, rx_head_[c]);
#endif
        rx_freed_[c] = rx_head_[c];
    }
}

void skif_sc_cpu::hw_final_check()
{
    // TX_HEAD covers what the adapter has read; TX_PKTS counts packets whose
    // last flit has left. Let the last one leave (each read is a round trip).
    for (int i = 0; i < 200 && reg_rd(SKIF_REG_TX_PKTS) != static_cast<uint32_t>(sent_); i++)
        ;
    const struct {
        uint32_t off, want;
        const char *name;
    } fin[] = {
        {SKIF_REG_TX_PKTS, static_cast<uint32_t>(sent_), "TX_PKTS"},
        {SKIF_REG_TX_FLITS, tx_flits_, "TX_FLITS"},
        {SKIF_REG_RX_PKTS, static_cast<uint32_t>(received_), "RX_PKTS"},
        {SKIF_REG_RX_DROPS, 0, "RX_DROPS"},
        {SKIF_REG_NET_DROPS, 0, "NET_DROPS"},
        {SKIF_REG_TX_HEAD, tx_tail_, "TX_HEAD"},
#ifdef SKIF_REG_CH_CFG
        {SKIF_REG_CH_DROPS, 0, "CH_DROPS"},
#else
        {SKIF_REG_RX_TAIL, rx_head_[0], "RX_TAIL"},
#endif
    };
    for (const auto &f : fin) {
        const uint32_t v = reg_rd(f.off);
        if (v != f.want)
            fail(std::string(f.name) + " reads " + std::to_string(v) + ", want " +
                 std::to_string(f.want));
    }
#ifdef SKIF_REG_CH_CFG
    for (uint32_t c = 0; c < static_cast<uint32_t>(hw_rx_rings); c++) {
        reg_wr(SKIF_REG_CH_SEL, c);
        const uint32_t v = reg_rd(SKIF_REG_CH_TAIL);
        if (v != rx_head_[c])
            fail("CH_TAIL of channel " + std::to_string(c) + " reads " + std::to_string(v) +
                 ", want " + std::to_string(rx_head_[c]));
    }
#endif
    const uint32_t st = reg_rd(SKIF_REG_STATUS);
    if (st & kErrBits)
        fail("STATUS error bits at the end: " + std::to_string(st));
}

void skif_sc_cpu::hw_close()
{
    reg_wr(SKIF_REG_CTRL, 0);
}
