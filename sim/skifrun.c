/* SPDX-License-Identifier: Apache-2.0 */
/* skifrun: the launcher (like mpirun). It checks the command line, finds or
 * builds the simulator for the requested network (build/models/<tag>/skifsim),
 * and hands over to it; the simulator starts one process of the program per
 * node. Usage: skifrun --help. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "skif_opts.h"

/* The project root: SKIF_ROOT, else two levels above this binary
 * (build/bin/skifrun). */
static int find_root(char *buf, size_t len)
{
    const char *env = getenv("SKIF_ROOT");
    if (env && *env) {
        snprintf(buf, len, "%s", env);
        return 0;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    for (int up = 0; up < 3; up++) {
        char *slash = strrchr(self, '/');
        if (!slash)
            return -1;
        *slash = '\0';
    }
    snprintf(buf, len, "%s", self);
    return 0;
}

/* Is any source of the model in `dir` newer than `t`? */
static int newer_in(const char *root, const char *dir, time_t t)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/%s", root, dir);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int newer = 0;
    for (struct dirent *e; !newer && (e = readdir(d));) {
        struct stat st;
        char f[PATH_MAX + 64 + 258];
        snprintf(f, sizeof(f), "%s/%s", path, e->d_name);
        newer = e->d_name[0] != '.' && stat(f, &st) == 0 && S_ISREG(st.st_mode) && st.st_mtime > t;
    }
    closedir(d);
    return newer;
}

/* Is `prog` something execvp can run? */
static int runnable(const char *prog)
{
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char *dup = strdup(path), *save = NULL;
    int ok = 0;
    for (char *d = strtok_r(dup, ":", &save); d && !ok; d = strtok_r(NULL, ":", &save)) {
        char full[PATH_MAX];
        snprintf(full, sizeof(full), "%s/%s", *d ? d : ".", prog);
        ok = access(full, X_OK) == 0;
    }
    free(dup);
    return ok;
}

int main(int argc, char **argv)
{

    struct skif_opts o;
    char err[256];
    argv[0] = "skifrun";
    int rc = skif_opts_parse(&o, argc, argv, err, sizeof(err));
    if (rc == 1)
        return 0;
    if (rc < 0) {
        fprintf(stderr, "skifrun: %s\n", err);
        skif_opts_usage(stderr, "skifrun");
        return 2;
    }
    if (!runnable(o.prog_argv[0])) {
        fprintf(stderr, "skifrun: cannot run '%s': not found or not executable\n", o.prog_argv[0]);
        return 2;
    }
    char root[PATH_MAX], tag[64], model[PATH_MAX + 128];
    if (find_root(root, sizeof(root)) < 0) {
        fprintf(stderr, "skifrun: cannot find the project root; set SKIF_ROOT\n");
        return 5;
    }
    skif_opts_model_tag(&o, tag, sizeof(tag));
    snprintf(model, sizeof(model), "%s/build/models/%s/skifsim%s", root, tag,
             o.icarus ? ".vvp" : "");
    struct stat mst;
    int stale = stat(model, &mst) != 0 || access(model, X_OK) != 0;
    static const char *const src_dirs[] = {"rtl", "rtl/router", "rtl/coll", "rtl/net", "sim", "csrc", "driver"};
    /* (an Icarus model also needs build/vpi/skif.vpi; make builds both) */
    for (size_t i = 0; !stale && i < sizeof(src_dirs) / sizeof(src_dirs[0]); i++)
        stale = newer_in(root, src_dirs[i], mst.st_mtime);
    char cmd[PATH_MAX * 2];
    if (stale && access(model, X_OK) == 0) {
        /* A source directory changed: ask make whether the model depends on
         * what changed (it is up to date when make -q says so). */
        snprintf(cmd, sizeof(cmd), "make -s -q -C '%s' 'build/models/%s/skifsim%s' 2>/dev/null",
                 root, tag, o.icarus ? ".vvp" : "");
        stale = system(cmd) != 0;
    }
    if (stale) {
        /* First use of this network, or its sources changed: build its model. */
        fprintf(stderr, "skifrun: building the model %s (takes a few seconds)...\n", tag);
        snprintf(cmd, sizeof(cmd), "make -s -C '%s' model MODEL=%s >&2", root, tag);
        int st = system(cmd);
        if (st != 0 || access(model, X_OK) != 0) {
            fprintf(stderr, "skifrun: building the model %s failed (see above)\n", tag);
            return 5;
        }
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    char t0[64];
    snprintf(t0, sizeof(t0), "%.9f", (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9);
    setenv("SKIF_T0", t0, 1);
    if (o.icarus) {
        /* vvp -n -M VPIDIR -m skif MODEL.vvp ARGS...: the VPI module reads ARGS */
        char vpidir[PATH_MAX + 32];
        snprintf(vpidir, sizeof(vpidir), "%s/build/vpi", root);
        char **av = calloc((size_t)argc + 8, sizeof(char *));
        if (!av)
            return 5;
        int k = 0;
        av[k++] = "vvp";
        av[k++] = "-n";
        av[k++] = "-M";
        av[k++] = vpidir;
        av[k++] = "-m";
        av[k++] = "skif";
        av[k++] = model;
        for (int i = 1; i < argc; i++)
            av[k++] = argv[i];
        execvp("vvp", av);
        fprintf(stderr, "skifrun: cannot start vvp: %s\n", strerror(errno));
        return 5;
    }
    argv[0] = model;
    execv(model, argv);
    fprintf(stderr, "skifrun: cannot start the simulator %s: %s\n", model, strerror(errno));
    return 5;
}
