/* SPDX-License-Identifier: Apache-2.0 */
/* netbench.h: synthetic traffic, scoreboard and statistics for the torus
 * fabric alone (no adapters): every node injects packets at an offered load
 * following a pattern; every ejected packet is checked (right node, intact,
 * exactly once, in order per source-destination pair) and timed. The model
 * side (sim/netbench/netbench_main.cpp) moves flits; everything else is here. */
#ifndef SKIF_NETBENCH_H
#define SKIF_NETBENCH_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum nb_pattern { NB_UNIFORM, NB_TRANSPOSE, NB_BITCOMP, NB_TORNADO, NB_NEIGHBOR, NB_HOTSPOT };

struct nb_opts {
    int ndims;
    int dims[4];
    enum nb_pattern pattern;
    double load;       /* offered flits per node per cycle */
    int size;          /* flits per packet, header included (1..257) */
    uint64_t warmup;   /* cycles before measuring */
    uint64_t measure;  /* cycles of the measurement window */
    uint64_t drain;    /* at most this many cycles to deliver the measured packets */
    uint64_t watchdog; /* cycles without any flit moving before the run fails */
    unsigned seed;
    int bad_dst_every; /* inject a packet to a node outside the torus every N packets (0: never) */
    int quiet;
    int no_skip;     /* evaluate every node every cycle (--no-skip) */
    int threads;     /* evaluate the nodes in this many threads (--threads; 1..SKIF_THREADS_MAX) */
    int tie_plus;    /* the model's router sends every half-ring tie PLUS (Tie = 0) */
    const char *csv; /* append a result line to this CSV file */
};

/* Parse the command line (argv[0] is the program). 0, 1 for --help, -1 on a
 * bad line (message printed). */
int nb_parse(struct nb_opts *o, int argc, char **argv);

/* Packet-level state of a run. */
struct nb;

struct nb *nb_new(const struct nb_opts *o);
/* What the model's router does at a half-ring tie (its Tie parameter): 1 if
 * it always goes PLUS; used by the ideal capacity. */
void nb_set_tie_plus(struct nb *b, int tie_plus);
void nb_free(struct nb *b);

/* Per cycle, for node `node`: the flit it offers for injection (returns 1 and
 * fills data and last) or 0. nb_injected() after the flit was accepted. */
int nb_offer(struct nb *b, int node, uint64_t *data, int *last);
void nb_injected(struct nb *b, int node);
/* A flit ejected at `node`. */
void nb_ejected(struct nb *b, int node, uint64_t data, int last);
/* Packets dropped by node's router at injection (its counter's value now). */
void nb_drop_count(struct nb *b, int node, uint32_t count);
/* Advance to the next cycle: generates new packets. Returns 0 to go on, 1
 * when the run is complete, -1 on failure (scoreboard, watchdog). */
int nb_cycle(struct nb *b, int moved);
/* Print results (and the CSV line); returns the process exit code. */
int nb_report(struct nb *b, double wall_s);
/* The watchdog fired: name the stuck router/port/VC from the busy bits. */
void nb_set_stuck(struct nb *b, const char *what);

/* Ideal capacity (flits/node/cycle) of the torus for a pattern under the
 * router's dimension-order routing (its half-ring tie-break: o->tie_plus):
 * 1 / (largest expected load on any link or ejection port when every node
 * injects 1 flit/cycle), capped at 1. */
double nb_ideal_capacity(const struct nb_opts *o);

/* Node id (packed coordinates) of rank r. */
uint32_t nb_node_id(const struct nb_opts *o, int r);

uint64_t nb_now(const struct nb *b);
int nb_nodes(const struct nb *b);

#ifdef __cplusplus
}
#endif

#endif /* SKIF_NETBENCH_H */
