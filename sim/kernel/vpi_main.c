/* SPDX-License-Identifier: Apache-2.0 */
/* vpi_main.c: the simulator kernel inside Icarus Verilog (vvp), as VPI system
 * tasks. Icarus keeps its own time: sim/hdl/skif_icarus_top.sv calls $skif_sync at
 * every cycle boundary and $skif_tick_host before every rising edge; the host
 * shims call the same host-model entry points as the DPI shims do under
 * Verilator. Every value that reaches the host model is checked for X and Z:
 * one ends the run (exit 5) with the signal's name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vpi_user.h>

#include "sim.h"
#include "svdpi.h"

/* sim/kernel/hostmem.c */
void skif_dpi_dma_req(int node, svBit write, long long addr, long long data, int strb);
void skif_dpi_irq(int node);
void skif_dpi_dma_rsp(int node, svBit *valid, long long *data, svBit *err);
void skif_dpi_mmio_poll(int node, svBit *valid, svBit *write, int *addr, int *wdata);
void skif_dpi_mmio_rsp(int node, int rdata, svBit err);

#define MAX_ARGS 8

/* The argument handles of one call site, found once. */
struct call {
    int n;
    vpiHandle arg[MAX_ARGS];
};

static struct call *call_of(void)
{
    vpiHandle self = vpi_handle(vpiSysTfCall, NULL);
    struct call *c = vpi_get_userdata(self);
    if (c)
        return c;
    c = calloc(1, sizeof(*c));
    if (!c)
        abort();
    vpiHandle it = vpi_iterate(vpiArgument, self);
    for (vpiHandle h; it && (h = vpi_scan(it));)
        if (c->n < MAX_ARGS)
            c->arg[c->n++] = h;
    vpi_put_userdata(self, c);
    return c;
}

static int x_seen;

/* Read argument i as up to 64 bits; an X or Z bit is reported and makes the
 * run fail. */
static uint64_t get_bits(const struct call *c, int i, int node)
{
    s_vpi_value v = {.format = vpiVectorVal};
    vpi_get_value(c->arg[i], &v);
    int size = vpi_get(vpiSize, c->arg[i]);
    uint64_t aval = v.value.vector[0].aval, bval = v.value.vector[0].bval;
    if (size > 32) {
        aval |= (uint64_t)v.value.vector[1].aval << 32;
        bval |= (uint64_t)v.value.vector[1].bval << 32;
    }
    if (size < 64) {
        aval &= (1ull << size) - 1;
        bval &= (1ull << size) - 1;
    }
    if (bval) {
        const char *name = vpi_get_str(vpiFullName, c->arg[i]);
        char digits[80];
        int nd = (size + 3) / 4, k = 0;
        for (int d = nd - 1; d >= 0; d--) {
            unsigned a = (unsigned)(aval >> (4 * d)) & 15, b = (unsigned)(bval >> (4 * d)) & 15;
            digits[k++] = b ? ((a & b) == b ? 'x' : 'z') : "0123456789abcdef"[a];
        }
        digits[k] = '\0';
        if (x_seen < 5)
            fprintf(stderr,
                    "skifsim: X check: node %d: cycle %llu: %s carries X/Z into the host: "
                    "%d'h%s\n",
                    node, (unsigned long long)g_sim.now, name ? name : "(expression)", size,
                    digits);
        else if (x_seen == 5)
            fprintf(stderr, "skifsim: X check: further reports suppressed\n");
        x_seen++;
        sim_fail(SKIF_EXIT_SIM);
    }
    return aval;
}

static int get_int(const struct call *c, int i)
{
    s_vpi_value v = {.format = vpiIntVal};
    vpi_get_value(c->arg[i], &v);
    return v.value.integer;
}

static void put_bits(const struct call *c, int i, uint64_t val)
{
    s_vpi_vecval vec[2] = {{(PLI_INT32)(uint32_t)val, 0}, {(PLI_INT32)(uint32_t)(val >> 32), 0}};
    s_vpi_value v = {.format = vpiVectorVal};
    v.value.vector = vec;
    vpi_put_value(c->arg[i], &v, NULL, vpiNoDelay);
}

static void put_ret(int r)
{
    s_vpi_value v = {.format = vpiIntVal};
    v.value.integer = r;
    vpi_put_value(vpi_handle(vpiSysTfCall, NULL), &v, NULL, vpiNoDelay);
}

static void finish(int rc)
{
    fflush(NULL);
    if (rc)
        exit(rc);
    vpi_control(vpiFinish, 0);
}

/* The router debug outputs are not read under Icarus. */
void skif_model_dbg_begin(void) {}

void skif_model_dbg_report(void)
{
    fprintf(stderr, "  routers: buffer state is reported by the Verilator model only\n");
}

/* Icarus evaluates the whole network every cycle, every engine clocked. */
uint64_t skif_model_skipped(void)
{
    return 0;
}
uint64_t skif_model_gated(void)
{
    return 0;
}
uint64_t skif_model_in_parts_ppm(void)
{
    return 0;
}

/* ---------------------------------------------------------- life cycle */

static PLI_INT32 t_init(PLI_BYTE8 *ud)
{
    (void)ud;
    struct call *c = call_of();
    int dims = get_int(c, 0); /* the model's sizes, 5 bits each from X */
    s_vpi_vlog_info info;
    vpi_get_vlog_info(&info);
    /* vvp [options] MODEL.vvp ARGS...: our command line starts after the model */
    int first = 1;
    for (int i = 1; i < info.argc; i++)
        if (strstr(info.argv[i], ".vvp")) {
            first = i + 1;
            break;
        }
    /* then vvp's -fst and skifrun's +skif_wave=FILE (--wave: the top dumps) */
    const char *dumping = NULL;
    for (; first < info.argc; first++) {
        if (!strncmp(info.argv[first], "+skif_wave=", 11))
            dumping = info.argv[first] + 11;
        else if (strcmp(info.argv[first], "-fst"))
            break;
    }
    int argc = info.argc - first + 1;
    char **argv = calloc((size_t)argc + 1, sizeof(char *));
    if (!argv)
        finish(SKIF_EXIT_SIM);
    argv[0] = "skifsim";
    for (int i = 1; i < argc; i++)
        argv[i] = info.argv[first + i - 1];
    int rc = sim_init(argc, argv);
    /* options point into argv: it lives for the whole run */
    if (rc == SIM_HELP)
        finish(0);
    if (rc < 0) {
        sim_fini();
        finish(-rc);
    }
    if (skif_opts_dims_word(&g_sim.opt) != (uint32_t)dims) {
        fprintf(stderr, "skifsim: this Icarus model was built for another torus than --dims\n");
        sim_fini();
        finish(SKIF_EXIT_SIM);
    }
    if (g_sim.opt.wave && (!dumping || strcmp(dumping, g_sim.opt.wave))) {
        fprintf(stderr, "skifsim: --wave under Icarus: start the model with skifrun, which "
                        "passes vvp -fst +skif_wave=FILE\n");
        sim_fini();
        finish(SKIF_EXIT_USAGE);
    }
    put_ret(0);
    return 0;
}

static PLI_INT32 t_start(PLI_BYTE8 *ud)
{
    (void)ud;
    int rc = sim_start();
    if (rc < 0) {
        sim_fini();
        finish(-rc);
    }
    return 0;
}

static PLI_INT32 t_sync(PLI_BYTE8 *ud)
{
    (void)ud;
    put_ret(sim_sync() == SIM_DONE ? 1 : 0);
    return 0;
}

static PLI_INT32 t_finish(PLI_BYTE8 *ud)
{
    (void)ud;
    int rc = sim_fini();
    if (x_seen && !rc)
        rc = SKIF_EXIT_SIM;
    finish(rc);
    return 0;
}

static PLI_INT32 t_tick_host(PLI_BYTE8 *ud)
{
    (void)ud;
    sim_tick_host();
    return 0;
}

static PLI_INT32 t_cycle_done(PLI_BYTE8 *ud)
{
    (void)ud;
    sim_cycle_done();
    return 0;
}

/* ---------------------------------------------------------- host shims */

static PLI_INT32 t_dma_req(PLI_BYTE8 *ud)
{
    (void)ud;
    struct call *c = call_of();
    int node = get_int(c, 0);
    int before = x_seen;
    uint64_t valid = get_bits(c, 1, node);
    uint64_t write = get_bits(c, 2, node), addr = get_bits(c, 3, node);
    uint64_t data = 0, strb = 0;
    if (write) { /* a read's data lanes carry nothing */
        data = get_bits(c, 4, node);
        strb = get_bits(c, 5, node);
    }
    if (valid && x_seen == before)
        skif_dpi_dma_req(node, (svBit)write, (long long)addr, (long long)data, (int)strb);
    return 0;
}

static PLI_INT32 t_irq(PLI_BYTE8 *ud)
{
    (void)ud;
    struct call *c = call_of();
    int node = get_int(c, 0);
    if (get_bits(c, 1, node) == 1)
        skif_dpi_irq(node);
    return 0;
}

static PLI_INT32 t_dma_rsp(PLI_BYTE8 *ud)
{
    (void)ud;
    struct call *c = call_of();
    int node = get_int(c, 0);
    svBit valid, err;
    long long data;
    skif_dpi_dma_rsp(node, &valid, &data, &err);
    put_bits(c, 1, valid);
    put_bits(c, 2, (uint64_t)data);
    put_bits(c, 3, err);
    return 0;
}

static PLI_INT32 t_mmio_rsp(PLI_BYTE8 *ud)
{
    (void)ud;
    struct call *c = call_of();
    int node = get_int(c, 0);
    int before = x_seen;
    uint64_t valid = get_bits(c, 1, node), rdata = get_bits(c, 2, node);
    uint64_t err = get_bits(c, 3, node);
    if (valid && x_seen == before)
        skif_dpi_mmio_rsp(node, (int)rdata, (svBit)err);
    return 0;
}

static PLI_INT32 t_mmio_poll(PLI_BYTE8 *ud)
{
    (void)ud;
    struct call *c = call_of();
    int node = get_int(c, 0);
    svBit valid, write;
    int addr, wdata;
    skif_dpi_mmio_poll(node, &valid, &write, &addr, &wdata);
    put_bits(c, 1, valid);
    put_bits(c, 2, write);
    put_bits(c, 3, (uint32_t)addr);
    put_bits(c, 4, (uint32_t)wdata);
    return 0;
}

/* Test hook: SKIF_X_INJECT=C makes the Icarus top force X onto node 0's DMA
 * write data from cycle C on, to show the X check at work (0: never). */
static PLI_INT32 t_x_cycle(PLI_BYTE8 *ud)
{
    (void)ud;
    const char *s = getenv("SKIF_X_INJECT");
    put_ret(s ? atoi(s) : 0);
    return 0;
}

static PLI_INT32 size_int(PLI_BYTE8 *ud)
{
    (void)ud;
    return 32;
}

static void reg(const char *name, PLI_INT32 (*fn)(PLI_BYTE8 *), int func)
{
    s_vpi_systf_data tf = {0};
    tf.type = func ? vpiSysFunc : vpiSysTask;
    tf.sysfunctype = vpiIntFunc;
    tf.tfname = (PLI_BYTE8 *)name;
    tf.calltf = fn;
    tf.sizetf = func ? size_int : NULL;
    vpi_register_systf(&tf);
}

static void skif_register(void)
{
    reg("$skif_init", t_init, 1);
    reg("$skif_start", t_start, 0);
    reg("$skif_sync", t_sync, 1);
    reg("$skif_finish", t_finish, 0);
    reg("$skif_tick_host", t_tick_host, 0);
    reg("$skif_cycle_done", t_cycle_done, 0);
    reg("$skif_dma_req", t_dma_req, 0);
    reg("$skif_irq", t_irq, 0);
    reg("$skif_dma_rsp", t_dma_rsp, 0);
    reg("$skif_mmio_rsp", t_mmio_rsp, 0);
    reg("$skif_mmio_poll", t_mmio_poll, 0);
    reg("$skif_x_cycle", t_x_cycle, 1);
}

void (*vlog_startup_routines[])(void) = {skif_register, NULL};
