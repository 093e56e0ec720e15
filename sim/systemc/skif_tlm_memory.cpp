// SPDX-License-Identifier: Apache-2.0
// skif_tlm_memory.cpp: loosely-timed TLM-2.0 memory (see skif_tlm_memory.h).
#include "skif_tlm_memory.h"

using namespace sc_core;

skif_tlm_memory::skif_tlm_memory(sc_module_name name, uint64_t base, size_t size, sc_time latency)
    : sc_module(name), socket("socket"), base_(base), mem_(size, 0), latency_(latency)
{
    socket.register_b_transport(this, &skif_tlm_memory::b_transport);
    socket.register_transport_dbg(this, &skif_tlm_memory::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &skif_tlm_memory::get_direct_mem_ptr);
}

unsigned skif_tlm_memory::access(tlm::tlm_generic_payload &gp)
{
    const uint64_t addr = gp.get_address();
    const unsigned len = gp.get_data_length();
    const unsigned sw = gp.get_streaming_width() ? gp.get_streaming_width() : len;
    const unsigned char *be = gp.get_byte_enable_ptr();
    const unsigned bl = gp.get_byte_enable_length();
    if (gp.get_command() == tlm::TLM_IGNORE_COMMAND) {
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
        return 0;
    }
    // The window touched is [addr, addr + min(len, sw)).
    const uint64_t span = len < sw ? len : sw;
    if (addr < base_ || addr - base_ > mem_.size() || span > mem_.size() - (addr - base_)) {
        errors_++;
        gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return 0;
    }
    if (be && bl == 0) {
        errors_++;
        gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return 0;
    }
    unsigned char *m = mem_.data() + (addr - base_);
    unsigned char *d = gp.get_data_ptr();
    const bool wr = gp.is_write();
    for (unsigned k = 0; k < len; k++) {
        if (be && be[k % bl] != TLM_BYTE_ENABLED)
            continue;
        if (wr)
            m[k % sw] = d[k];
        else
            d[k] = m[k % sw];
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return len;
}

void skif_tlm_memory::set_port_latency(unsigned port, sc_time t)
{
    if (port_latency_.size() <= port)
        port_latency_.resize(port + 1, {false, SC_ZERO_TIME});
    port_latency_[port] = {true, t};
}

sc_time skif_tlm_memory::latency(unsigned port) const
{
    if (port < port_latency_.size() && port_latency_[port].first)
        return port_latency_[port].second;
    return latency_;
}

void skif_tlm_memory::b_transport(int id, tlm::tlm_generic_payload &gp, sc_time &delay)
{
    access(gp);
    gp.set_dmi_allowed(true);
    delay += latency(static_cast<unsigned>(id));
    if (blocking_) {
        wait(delay);
        delay = SC_ZERO_TIME;
    }
}

unsigned skif_tlm_memory::transport_dbg(int, tlm::tlm_generic_payload &gp)
{
    return access(gp);
}

bool skif_tlm_memory::get_direct_mem_ptr(int id, tlm::tlm_generic_payload &, tlm::tlm_dmi &dmi)
{
    const sc_time lat = latency(static_cast<unsigned>(id));
    dmi.allow_read_write();
    dmi.set_dmi_ptr(mem_.data());
    dmi.set_start_address(base_);
    dmi.set_end_address(base_ + mem_.size() - 1);
    dmi.set_read_latency(lat);
    dmi.set_write_latency(lat);
    return true;
}
