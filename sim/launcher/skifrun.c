/* SPDX-License-Identifier: Apache-2.0 */
/* skifrun: the launcher (like mpirun). It checks the command line, finds or
 * builds the simulator for the requested network (build/models/<tag>/skifsim),
 * and hands over to it; the simulator starts one process of the program per
 * node. Usage: skifrun --help. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "skif_opts.h"
#include "skif_proto.h"

/* Where skifrun runs from: the source tree (SKIF_ROOT, else two levels above
 * build/bin/skifrun), which builds models on first use, or an installed tree
 * (PREFIX/bin/skifrun with PREFIX/libexec/skifsim/), which holds the models
 * `make install` copied and builds none. */
struct where {
    char root[PATH_MAX]; /* source tree or PREFIX */
    char models[PATH_MAX + 32];
    char vpi[PATH_MAX + 32];
    int installed;
};

static int find_root(struct where *w)
{
    const char *env = getenv("SKIF_ROOT");
    if (env && *env) {
        snprintf(w->root, sizeof(w->root), "%s", env);
    } else {
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        if (n <= 0)
            return -1;
        self[n] = '\0';
        for (int up = 0; up < 2; up++) {
            char *slash = strrchr(self, '/');
            if (!slash)
                return -1;
            *slash = '\0';
        }
        /* self is now PREFIX (installed) or ROOT/build */
        char probe[PATH_MAX + 32];
        struct stat st;
        snprintf(probe, sizeof(probe), "%s/libexec/skifsim/models", self);
        if (stat(probe, &st) == 0 && S_ISDIR(st.st_mode)) {
            w->installed = 1;
            snprintf(w->root, sizeof(w->root), "%s", self);
        } else {
            char *slash = strrchr(self, '/');
            if (!slash)
                return -1;
            *slash = '\0';
            snprintf(w->root, sizeof(w->root), "%s", self);
        }
    }
    if (w->installed) {
        snprintf(w->models, sizeof(w->models), "%s/libexec/skifsim/models", w->root);
        snprintf(w->vpi, sizeof(w->vpi), "%s/libexec/skifsim/vpi", w->root);
    } else {
        snprintf(w->models, sizeof(w->models), "%s/build/models", w->root);
        snprintf(w->vpi, sizeof(w->vpi), "%s/build/vpi", w->root);
    }
    return 0;
}

/* The models an installed tree holds, for the message when one is missing. */
static void list_models(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    fprintf(stderr, "skifrun: installed models:");
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.')
            fprintf(stderr, " %s", e->d_name);
    fprintf(stderr, "\n");
    closedir(d);
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

/* Is `path` a regular file we may execute? */
static int exec_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Is `prog` something execvp can run? */
static int runnable(const char *prog)
{
    if (strchr(prog, '/'))
        return exec_file(prog);
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char *dup = strdup(path), *save = NULL;
    int ok = 0;
    for (char *d = strtok_r(dup, ":", &save); d && !ok; d = strtok_r(NULL, ":", &save)) {
        char full[PATH_MAX];
        snprintf(full, sizeof(full), "%s/%s", *d ? d : ".", prog);
        ok = exec_file(full);
    }
    free(dup);
    return ok;
}

/* Can the run write `path` (--wave, --stats)? Checked before the run, so a
 * result the user asked for is never lost at the end. A file that did not
 * exist is removed again. */
static int writable(const char *opt, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "skifrun: %s '%s': is a directory\n", opt, path);
        return 0;
    }
    int existed = access(path, F_OK) == 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        fprintf(stderr, "skifrun: %s '%s': cannot write it: %s\n", opt, path, strerror(errno));
        return 0;
    }
    close(fd);
    if (!existed)
        unlink(path);
    return 1;
}

/* SKIF_SPIN (polls before sleeping, include/skif_proto.h): a whole number in
 * 0..SKIF_SPIN_MAX, or unset. */
static int spin_ok(void)
{
    const char *s = getenv("SKIF_SPIN");
    if (!s || !*s)
        return 1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < 0 || v > SKIF_SPIN_MAX || s[0] == '+' || s[0] == ' ') {
        fprintf(stderr,
                "skifrun: SKIF_SPIN='%s': expected a whole number from 0 to %d (polls before a "
                "wait sleeps; unset it for the default %d)\n",
                s, SKIF_SPIN_MAX, SKIF_SPIN_LOOPS);
        return 0;
    }
    return 1;
}

/* --ranks K: the MPI build of the model (skifsim-mpi, built beside the
 * model when an MPI was installed), started by the mpiexec of that MPI
 * (named in skifsim-mpi.launcher) as K processes. */
static int run_ranks(const struct skif_opts *o, const char *model, int argc, char **argv)
{
    char mpi[PATH_MAX + 160], lfile[PATH_MAX + 200], launcher[128] = "";
    snprintf(mpi, sizeof(mpi), "%s-mpi", model);
    snprintf(lfile, sizeof(lfile), "%s.launcher", mpi);
    FILE *f = fopen(lfile, "r");
    if (f) {
        if (!fgets(launcher, sizeof(launcher), f))
            launcher[0] = '\0';
        fclose(f);
        launcher[strcspn(launcher, "\n")] = '\0';
    }
    if (access(mpi, X_OK) != 0 || !launcher[0]) {
        fprintf(stderr,
                "skifrun: --ranks %d needs skifsim built on MPI (%s), and there is none: no MPI "
                "was installed when the model was built; install Debian's Open MPI (make deps, "
                "or apt-get install openmpi-bin libopenmpi-dev) and run again\n",
                o->ranks, mpi);
        return 5;
    }
    int openmpi = strstr(launcher, "openmpi") != NULL;
    if (openmpi && geteuid() == 0) { /* Open MPI refuses root unless told */
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    }
    char **av = calloc((size_t)argc + 16, sizeof(char *));
    if (!av)
        return 5;
    char np[16];
    snprintf(np, sizeof(np), "%d", o->ranks);
    int k = 0;
    av[k++] = launcher;
    av[k++] = "-np";
    av[k++] = np;
    if (openmpi) {
        av[k++] = "--oversubscribe"; /* more ranks than cores is allowed (slower) */
        av[k++] = "--bind-to";       /* the ranks and their programs share the cores */
        av[k++] = "none";
        av[k++] = "-q";                  /* the simulator says why a run failed */
        av[k++] = "--mca";               /* a rank that waits for the others yields its core (to */
        av[k++] = "mpi_yield_when_idle"; /* the programs, which run meanwhile) */
        av[k++] = "1";
    }
    av[k++] = mpi;
    for (int i = 1; i < argc; i++)
        av[k++] = argv[i];
    execvp(launcher, av);
    fprintf(stderr, "skifrun: cannot start %s for --ranks: %s\n", launcher, strerror(errno));
    free(av);
    return 5;
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
        fprintf(stderr, "skifrun: %s (see skifrun --help)\n", err);
        return 2;
    }
    if (!runnable(o.prog_argv[0])) {
        struct stat st;
        if (stat(o.prog_argv[0], &st) == 0 && S_ISDIR(st.st_mode))
            fprintf(stderr, "skifrun: cannot run '%s': it is a directory\n", o.prog_argv[0]);
        else
            fprintf(stderr, "skifrun: cannot run '%s': not found or not executable\n",
                    o.prog_argv[0]);
        return 2;
    }
    if (o.cut_latency && o.ranks < 2) {
        fprintf(stderr,
                "skifrun: --cut-latency %d: there is no slab boundary in one process; give "
                "--ranks K with K from 2 (see skifrun --help)\n",
                o.cut_latency);
        return 2;
    }
    if ((o.wave && !writable("--wave", o.wave)) || (o.stats && !writable("--stats", o.stats)) ||
        !spin_ok())
        return 2;
    struct where w;
    memset(&w, 0, sizeof(w));
    char tag[64], model[PATH_MAX + 128];
    if (find_root(&w) < 0) {
        fprintf(stderr, "skifrun: cannot find the project root; set SKIF_ROOT\n");
        return 5;
    }
    const char *root = w.root;
    skif_opts_model_tag(&o, tag, sizeof(tag));
    snprintf(model, sizeof(model), "%s/%s/skifsim%s", w.models, tag, o.icarus ? ".vvp" : "");
    if (w.installed) {
        if (access(model, o.icarus ? R_OK : X_OK) != 0) {
            fprintf(stderr,
                    "skifrun: this installed skifsim (%s) has no model for %s; build it in the "
                    "source tree (make model MODEL=%s) and install again\n",
                    root, tag, tag);
            list_models(w.models);
            return 5;
        }
    } else {
        struct stat mst;
        int stale = stat(model, &mst) != 0 || access(model, X_OK) != 0;
        static const char *const src_dirs[] = {
            "rtl",     "rtl/router", "rtl/coll",    "rtl/rma",   "rtl/net",
            "sim/hdl", "sim/kernel", "sim/options", "sim/tools", "include"};
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
            /* up to date: mark it so, and later runs skip the make -q */
            if (!stale)
                utimensat(AT_FDCWD, model, NULL, 0);
        }
        if (stale) {
            /* First use of this network, or its sources changed: build its model. */
            fprintf(stderr, "skifrun: building the model %s (takes a minute or two)...\n", tag);
            snprintf(cmd, sizeof(cmd), "make -s -C '%s' model MODEL=%s >&2", root, tag);
            int st = system(cmd);
            if (st != 0 || access(model, X_OK) != 0) {
                fprintf(stderr, "skifrun: building the model %s failed (see above)\n", tag);
                return 5;
            }
        }
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    char t0[64];
    snprintf(t0, sizeof(t0), "%.9f", (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9);
    setenv("SKIF_T0", t0, 1);
    if (o.icarus) {
        /* vvp -n -M VPIDIR -m skif MODEL.vvp ARGS...: the VPI module reads ARGS */
        char *vpidir = w.vpi;
        char **av = calloc((size_t)argc + 10, sizeof(char *));
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
        char plus[PATH_MAX + 16];
        if (o.wave) {
            snprintf(plus, sizeof(plus), "+skif_wave=%s", o.wave);
            av[k++] = "-fst";
            av[k++] = plus;
        }
        for (int i = 1; i < argc; i++)
            av[k++] = argv[i];
        execvp("vvp", av);
        fprintf(stderr, "skifrun: cannot start vvp: %s\n", strerror(errno));
        return 5;
    }
    if (o.ranks > 1)
        return run_ranks(&o, model, argc, argv);
    argv[0] = model;
    execv(model, argv);
    fprintf(stderr, "skifrun: cannot start the simulator %s: %s\n", model, strerror(errno));
    return 5;
}
