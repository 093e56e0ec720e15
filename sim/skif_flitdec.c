/* SPDX-License-Identifier: Apache-2.0 */
/* skif_flitdec: GTKWave translate filter process for link flits. GTKWave
 * writes one value per line (hex, as the trace shows it) and reads one line
 * back; this decodes it as a header flit (docs/packet-format.md): kind,
 * source, destination, channel or tree, length, reduce id and op. A value
 * that is not a well-formed 64-bit hex number (X/Z digits, wrong length,
 * stray characters) comes back raw behind a '?' marker, never a crash.
 *
 *   skif_flitdec            filter mode (stdin to stdout, line by line)
 *   skif_flitdec VALUE...   decode the given values and exit
 *   skif_flitdec --help */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
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

static const char *kind_name(unsigned k)
{
    switch (k) {
    case SKIF_KIND_MSG:
        return "MSG";
    case 1:
        return "COLL_UP";
    case 2:
        return "COLL_DOWN";
    default:
        return NULL;
    }
}

static const char *op_name(unsigned op)
{
    static const char *const names[8] = {"sum", "min", "max", "op3", "op4", "op5", "op6", "op7"};
    return names[op & 7];
}

/* Decode one value into buf (one line, no newline). */
static void decode(const char *in, size_t n, char *buf, size_t len)
{
    uint64_t v;
    if (parse_hex(in, n, &v) < 0) {
        snprintf(buf, len, "?%.*s", (int)(n > 40 ? 40 : n), in);
        return;
    }
    unsigned kind = (unsigned)FIELD(v, SKIF_HDR_KIND_HI, SKIF_HDR_KIND_LO);
    unsigned dst = (unsigned)FIELD(v, SKIF_HDR_DST_HI, SKIF_HDR_DST_LO);
    unsigned src = (unsigned)FIELD(v, SKIF_HDR_SRC_HI, SKIF_HDR_SRC_LO);
    unsigned chan = (unsigned)FIELD(v, SKIF_HDR_CHAN_HI, SKIF_HDR_CHAN_LO);
    unsigned plen = (unsigned)FIELD(v, SKIF_HDR_LEN_HI, SKIF_HDR_LEN_LO);
    unsigned low = (unsigned)FIELD(v, 7, 0);
    const char *kn = kind_name(kind);
    if (!kn) {
        snprintf(buf, len, "?kind%u %016" PRIx64, kind, v);
        return;
    }
    if (kind == SKIF_KIND_MSG)
        snprintf(buf, len, "MSG %x>%x ch%u len%u%s", src, dst, chan, plen,
                 plen > SKIF_MAX_MSG || low ? " ?bad" : "");
    else
        snprintf(buf, len, "%s %x>%x tree%u red%u %s len%u", kn, src, dst, chan, low >> 3,
                 op_name(low), plen);
}

int main(int argc, char **argv)
{
    char out[128];
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: skif_flitdec [VALUE...]\n"
               "Decode 64-bit link flits (hex) as header flits: kind, src>dst node,\n"
               "channel (messages) or tree / reduce id / op (collectives), length.\n"
               "Without VALUEs it is a GTKWave translate filter process: one value per\n"
               "line on stdin, one decoded line on stdout. Malformed values come back\n"
               "raw behind '?'.\n");
        return 0;
    }
    if (argc > 1) {
        for (int i = 1; i < argc; i++) {
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
