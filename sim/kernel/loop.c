/* SPDX-License-Identifier: Apache-2.0 */
/* loop.c: the main loop of a model that the simulator clocks itself (the
 * Verilated model, sim/kernel/sim_main.cpp): the kernel's life cycle of sim.h with
 * one sim_step() per cycle. Icarus runs its own loop (sim/kernel/vpi_main.c). */
#include "ranks.h"
#include "sim.h"

void sim_step(void)
{
    sim_tick_host();
    skif_model_step(g_sim.now);
    sim_cycle_done();
}

static int run(int argc, char **argv)
{
    int rc = sim_init(argc, argv);
    if (rc == SIM_HELP) {
        sim_fini();
        return 0;
    }
    if (rc < 0 || skif_model_init(&g_sim.opt) < 0) {
        sim_fini();
        return rc < 0 ? -rc : SKIF_EXIT_SIM;
    }
    /* The model is out of reset; start the programs. */
    rc = sim_start();
    if (rc < 0) {
        skif_model_fini();
        sim_fini();
        return -rc;
    }
    while (sim_sync() == SIM_STEP)
        sim_step();
    skif_model_fini();
    return sim_fini();
}

/* Under MPI (skifsim-mpi, sim/kernel/ranks.h) every rank runs the same life cycle
 * on its slab; they decide together when it ends. */
int sim_run(int argc, char **argv)
{
    if (skif_ranks_init(&argc, &argv) < 0)
        return SKIF_EXIT_SIM;
    int rc = run(argc, argv);
    skif_ranks_fini();
    return rc;
}
