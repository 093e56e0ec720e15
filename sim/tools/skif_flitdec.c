/* SPDX-License-Identifier: Apache-2.0 */
/* skif_flitdec: GTKWave translate filter process for link flits. GTKWave
 * writes one value per line (hex, as the trace shows it) and reads one line
 * back; this decodes it as a header flit (docs/packet-format.md): kind,
 * source, destination, channel or tree, length, reduce id and op (the
 * table `fields` below says which fields each kind prints, and how). A value
 * that is not a well-formed 64-bit hex number (X/Z digits, wrong length,
 * stray characters) comes back raw behind a '?' marker, never a crash.
 *
 *   skif_flitdec [--dims D]            filter mode (stdin to stdout, by line)
 *   skif_flitdec [--dims D] VALUE...   decode the given values and exit
 *   skif_flitdec --help */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skif_hw.h"

#define FIELD(v, hi, lo) (((v) >> (lo)) & ((1ull << ((hi) - (lo) + 1)) - 1))

/* Parse up to 16 hex digits (optional 0x, 'h or #); -1 if anything else. */
static int parse_hex(const char *s, size_t n, uint64_t *out)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2, n -= 2;
    else if (n >= 1 && (s[0] == '#' || s[0] == '\''))
        s++, n--;
    if (n >= 1 && (s[0] == 'h' || s[0] == 'H'))
        s++, n--;
    if (n == 0 || n > 16)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return -1;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return 0;
}

/* The torus the ids belong to (--dims or SKIF_DIMS): sizes X fastest; 0
 * dimensions when unknown (ids then print as coordinates). */
static int g_ndims, g_dims[4];

static int set_dims(const char *s)
{
    int n = 0;
    const char *p = s;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 2 || v > 16 || n == 4 || (*end && *end != 'x') ||
            (*end == 'x' && !end[1]))
            return -1;
        g_dims[n++] = (int)v;
        p = *end ? end + 1 : end;
    }
    g_ndims = n;
    return n ? 0 : -1;
}

/* A node id (packed coordinates, 4 bits each, X lowest) as users think of it:
 * its rank (X fastest) when the torus is known, else "(x,y,z)" ("(x,y,z,w)"
 * when w is not 0). An id outside the known torus prints as "?id0x...". */
static int fmt_node(char *buf, size_t len, unsigned id)
{
    unsigned c[4];
    for (int d = 0; d < 4; d++)
        c[d] = (id >> (4 * d)) & 15u;
    if (g_ndims) {
        unsigned rank = 0, mul = 1;
        for (int d = 0; d < 4; d++) {
            unsigned size = d < g_ndims ? (unsigned)g_dims[d] : 1u;
            if (c[d] >= size)
                return snprintf(buf, len, "?id0x%x", id);
            rank += c[d] * mul;
            mul *= size;
        }
        return snprintf(buf, len, "%u", rank);
    }
    if (c[3])
        return snprintf(buf, len, "(%u,%u,%u,%u)", c[0], c[1], c[2], c[3]);
    return snprintf(buf, len, "(%u,%u,%u)", c[0], c[1], c[2]);
}

static const char *op_name(unsigned op)
{
    static const char *const names[8] = {"sum", "min", "max", "op3", "op4", "op5", "op6", "op7"};
    return names[op & 7];
}

static const char *cmd_name(unsigned c)
{
    static const char *const names[16] = {"bcast", "allreduce", "reduce"};
    return c < 3 ? names[c] : "cmd?";
}

static const char *type_name(unsigned t)
{
    static const char *const names[4] = {"u32", "s32", "u64", "s64"};
    return t < 4 ? names[t] : "type?";
}

/* How a field prints. */
enum fmt { F_ROUTE, F_DEC, F_OP, F_MBZ, F_NODE, F_CMD, F_TYPE, F_FLAG };

/* The fields each kind of header flit prints, in order (docs/packet-format.md;
 * positions from skif_hw.h, generated from rtl/skif_defs.vh). F_ROUTE prints
 * "src>dst" (the route: the two node ids), F_DEC a decimal after its label,
 * F_OP a reduction operator, F_MBZ only a " ?bad" marker when not zero,
 * F_NODE one node id after its label, F_CMD/F_TYPE a collective command or
 * element type, F_FLAG its label when set. A new header field is one line
 * here. */
struct field {
    unsigned kind;     /* packet kind it belongs to */
    const char *label; /* printed before the value */
    unsigned hi, lo;   /* bit positions */
    enum fmt fmt;
    unsigned max; /* F_DEC: a larger value is marked " ?bad" (0: no limit) */
};

static const struct field fields[] = {
    {SKIF_KIND_MSG, "", SKIF_HDR_SRC_HI, SKIF_HDR_SRC_LO, F_ROUTE, 0},
    {SKIF_KIND_MSG, "ch", SKIF_HDR_CHAN_HI, SKIF_HDR_CHAN_LO, F_DEC, 0},
    {SKIF_KIND_MSG, "len", SKIF_HDR_LEN_HI, SKIF_HDR_LEN_LO, F_DEC, SKIF_MAX_MSG},
    {SKIF_KIND_MSG, "", 7, 0, F_MBZ, 0},
    {SKIF_KIND_COLL_UP, "", SKIF_CHDR_CMD_LO + 3, SKIF_CHDR_CMD_LO, F_CMD, 0},
    {SKIF_KIND_COLL_UP, "", SKIF_CHDR_TYPE_LO + 3, SKIF_CHDR_TYPE_LO, F_TYPE, 0},
    {SKIF_KIND_COLL_UP, "node", SKIF_CHDR_ARG_LO + 15, SKIF_CHDR_ARG_LO, F_NODE, 0},
    {SKIF_KIND_COLL_UP, "tree", SKIF_CHDR_TREE_LO + 7, SKIF_CHDR_TREE_LO, F_DEC, 0},
    {SKIF_KIND_COLL_UP, "red", SKIF_CHDR_RID_LO + 4, SKIF_CHDR_RID_LO, F_DEC, 0},
    {SKIF_KIND_COLL_UP, "", SKIF_CHDR_OP_LO + 2, SKIF_CHDR_OP_LO, F_OP, 0},
    {SKIF_KIND_COLL_UP, "len", SKIF_HDR_LEN_HI, SKIF_HDR_LEN_LO, F_DEC, SKIF_MAX_MSG},
    {SKIF_KIND_COLL_UP, "err", SKIF_CHDR_ERR, SKIF_CHDR_ERR, F_FLAG, 0},
    {SKIF_KIND_COLL_UP, "", SKIF_CHDR_ERR - 1, SKIF_CHDR_TREE_LO + 8, F_MBZ, 0},
    {SKIF_KIND_COLL_DOWN, "", SKIF_CHDR_CMD_LO + 3, SKIF_CHDR_CMD_LO, F_CMD, 0},
    {SKIF_KIND_COLL_DOWN, "", SKIF_CHDR_TYPE_LO + 3, SKIF_CHDR_TYPE_LO, F_TYPE, 0},
    {SKIF_KIND_COLL_DOWN, "node", SKIF_CHDR_ARG_LO + 15, SKIF_CHDR_ARG_LO, F_NODE, 0},
    {SKIF_KIND_COLL_DOWN, "tree", SKIF_CHDR_TREE_LO + 7, SKIF_CHDR_TREE_LO, F_DEC, 0},
    {SKIF_KIND_COLL_DOWN, "red", SKIF_CHDR_RID_LO + 4, SKIF_CHDR_RID_LO, F_DEC, 0},
    {SKIF_KIND_COLL_DOWN, "", SKIF_CHDR_OP_LO + 2, SKIF_CHDR_OP_LO, F_OP, 0},
    {SKIF_KIND_COLL_DOWN, "len", SKIF_HDR_LEN_HI, SKIF_HDR_LEN_LO, F_DEC, SKIF_MAX_MSG},
    {SKIF_KIND_COLL_DOWN, "err", SKIF_CHDR_ERR, SKIF_CHDR_ERR, F_FLAG, 0},
    {SKIF_KIND_COLL_DOWN, "", SKIF_CHDR_ERR - 1, SKIF_CHDR_TREE_LO + 8, F_MBZ, 0},
};

static const char *const kind_names[16] = {
    [SKIF_KIND_MSG] = "MSG", [SKIF_KIND_COLL_UP] = "COLL_UP", [SKIF_KIND_COLL_DOWN] = "COLL_DOWN"};

/* Decode one value into buf (one line, no newline). */
static void decode(const char *in, size_t n, char *buf, size_t len)
{
    uint64_t v;
    if (parse_hex(in, n, &v) < 0) {
        snprintf(buf, len, "?%.*s", (int)(n > 40 ? 40 : n), in);
        return;
    }
    unsigned kind = (unsigned)FIELD(v, SKIF_HDR_KIND_HI, SKIF_HDR_KIND_LO);
    if (!kind_names[kind]) {
        snprintf(buf, len, "?kind%u %016" PRIx64, kind, v);
        return;
    }
    size_t k = (size_t)snprintf(buf, len, "%s", kind_names[kind]);
    int bad = 0;
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]) && k < len; i++) {
        const struct field *f = &fields[i];
        if (f->kind != kind)
            continue;
        unsigned x = (unsigned)FIELD(v, f->hi, f->lo);
        char a[32], b[32];
        switch (f->fmt) {
        case F_ROUTE:
            fmt_node(a, sizeof(a), x);
            fmt_node(b, sizeof(b), (unsigned)FIELD(v, SKIF_HDR_DST_HI, SKIF_HDR_DST_LO));
            k += (size_t)snprintf(buf + k, len - k, " %s>%s", a, b);
            break;
        case F_DEC:
            k += (size_t)snprintf(buf + k, len - k, " %s%u", f->label, x);
            bad |= f->max && x > f->max;
            break;
        case F_OP:
            k += (size_t)snprintf(buf + k, len - k, " %s", op_name(x));
            break;
        case F_MBZ:
            bad |= x != 0;
            break;
        case F_NODE:
            fmt_node(a, sizeof(a), x);
            k += (size_t)snprintf(buf + k, len - k, " %s %s", f->label, a);
            break;
        case F_CMD:
            k += (size_t)snprintf(buf + k, len - k, " %s", cmd_name(x));
            bad |= x > 2;
            break;
        case F_TYPE:
            k += (size_t)snprintf(buf + k, len - k, " %s", type_name(x));
            bad |= x > 3;
            break;
        case F_FLAG:
            if (x)
                k += (size_t)snprintf(buf + k, len - k, " %s", f->label);
            break;
        }
    }
    if (bad && k < len)
        snprintf(buf + k, len - k, " ?bad");
}

int main(int argc, char **argv)
{
    char out[160];
    int i = 1;
    const char *dims = getenv("SKIF_DIMS");
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: skif_flitdec [--dims XxYxZ] [VALUE...]\n"
               "Decode 64-bit link flits (hex) as header flits: kind, src>dst node,\n"
               "channel and length (messages) or command, element type, node, tree,\n"
               "reduce id, op, length and error flag (collectives). Nodes print as ranks when the "
               "torus is known (--dims, or\n"
               "SKIF_DIMS in the environment, as skifrun sets it), else as coordinates\n"
               "(x,y,z). Without VALUEs it is a GTKWave translate filter process: one\n"
               "value per line on stdin, one decoded line on stdout. Malformed values\n"
               "come back raw behind '?'.\n"
               "  skif_flitdec --dims 4 0000300010501100    ->  MSG 1>3 ch5 len17\n"
               "  skif_flitdec 0000300010501100             ->  MSG (1,0,0)>(3,0,0) ch5 len17\n");
        return 0;
    }
    if (argc > 1 && !strncmp(argv[1], "--dims", 6)) {
        if (argv[1][6] == '=')
            dims = argv[1] + 7, i = 2;
        else if (!argv[1][6] && argc > 2)
            dims = argv[2], i = 3;
        else
            dims = "";
        if (!*dims) {
            fprintf(stderr, "skif_flitdec: --dims needs a value (e.g. --dims 2x2x2)\n");
            return 2;
        }
    }
    if (dims && *dims && set_dims(dims) < 0) {
        fprintf(stderr,
                "skif_flitdec: dims '%s': expected 1 to 4 sizes of 2..16 separated by 'x' "
                "(e.g. 4x4)\n",
                dims);
        return 2;
    }
    if (argc > i) {
        for (; i < argc; i++) {
            decode(argv[i], strlen(argv[i]), out, sizeof(out));
            printf("%s\n", out);
        }
        return 0;
    }
    char line[4096];
    while (fgets(line, sizeof(line), stdin)) {
        size_t n = strcspn(line, "\r\n");
        if (line[n] == '\0' && n == sizeof(line) - 1) {
            /* longer than any value: answer once for the whole line */
            int c;
            while ((c = getchar()) != EOF && c != '\n')
                ;
        }
        decode(line, n, out, sizeof(out));
        printf("%s\n", out);
        fflush(stdout);
    }
    return 0;
}
