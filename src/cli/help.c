/* SPDX-License-Identifier: BSD-2-Clause */
/* The help of the `kjit` command: the overview (`kjit --help`), one text
 * per command (`kjit COMMAND --help`, `kjit help COMMAND`), and the names
 * of commands, options and targets that "did you mean" suggestions pick
 * from (kjit_suggest of kjit.h). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char overview[] =
    "usage: kjit <command> [options] FILE.k\n"
    "\n"
    "commands:\n"
    "  check FILE.k    check a program for errors; prints nothing when it is valid\n"
    "  ir FILE.k       print the typed IR (KIR) of every compiled function\n"
    "  run FILE.k [NAME=VALUE ...]\n"
    "                  compile the program and run its main(); NAME=VALUE overrides\n"
    "                  the default of main's parameter NAME\n"
    "  llvm FILE.k     print the optimised LLVM IR of the host code\n"
    "  asm FILE.k      print the assembly of the host code\n"
    "  ptx FILE.k      print the PTX of the kernels (no GPU needed)\n"
    "  bench FILE.k [NAME=VALUE ...]\n"
    "                  run main on each --target (a list: cpu,parallel,cuda), check\n"
    "                  that they print the same, time and break down each run, fit\n"
    "                  t = overhead + bytes/bandwidth + work/throughput, find where\n"
    "                  the fastest target changes (docs/bench.md)\n"
    "  cache [clear]   show the compile cache (where, entries, size, bound), or empty it\n"
    "  sysinfo [--json]\n"
    "                  versions, CPU, threads, CUDA driver and GPUs, MPI, cache\n"
    "  help [COMMAND]  show this help, or COMMAND's (also: kjit COMMAND --help)\n"
    "  version         print the version\n"
    "\n"
    "options:\n"
    "  --diag-format=human|short|json   how diagnostics are printed (default human,\n"
    "                                   or $KJIT_DIAG_FORMAT)\n"
    "  --max-errors=N                   report at most N errors (default 20)\n"
    "  --target=cpu|parallel|cuda|auto  where kernels and ufuncs run (default auto: cuda\n"
    "                                   when a CUDA driver and GPU are present, else cpu)\n"
    "  --arch=sm_XY                     the GPU architecture of the PTX (default: the\n"
    "                                   device's, else sm_90)\n"
    "  --kernel=NAME                    ptx: only the kernel NAME\n"
    "  -O0 -O1 -O2 -O3                  optimisation level (default -O3)\n"
    "  --boundscheck                    check every array index (or $KJIT_BOUNDSCHECK=1)\n"
    "  --no-cache                       do not reuse compiled code (or $KJIT_NO_CACHE=1)\n"
    "  bench: --sweep NAME=v1,v2,...|NAME=start:stop:xF   values of main's parameter\n"
    "         --repeat N (timed runs per value, 1 to 1000, default 3)\n"
    "         --tolerance REL (default 1e-5)\n"
    "         --plot out.svg  --json out.json  --csv out.csv\n"
    "  -h, --help                       show this help (after a command: its help)\n"
    "  --version                        print the version\n"
    "\n"
    "FILE.k may be '-' to read the program from standard input.\n"
    "\n"
    "exit status: 0 success; 1 the program has errors or cannot be read; 2 bad usage;\n"
    "3 the program stopped with a run-time error (also: no CUDA driver or device for\n"
    "--target=cuda).\n";

/* The options every compiling command takes. */
#define COMPILE_OPTS                                                                                     \
    "  --diag-format=human|short|json   how diagnostics are printed (default human)\n"                   \
    "  --max-errors=N                   report at most N errors (default 20)\n"                          \
    "  --target=cpu|parallel|cuda|auto  the target the program is compiled for (default auto)\n"

#define CODE_OPTS                                                                                        \
    "  -O0 -O1 -O2 -O3                  optimisation level (default -O3)\n"                              \
    "  --boundscheck                    check every array index (or $KJIT_BOUNDSCHECK=1)\n"              \
    "  --no-cache                       do not reuse compiled code (or $KJIT_NO_CACHE=1)\n"

typedef struct command_help {
    const char *name;
    const char *text; /* usage, what it does, options, an example */
} command_help;

static const command_help commands[] = {
    {"check", "usage: kjit check [options] FILE.k\n\n"
              "Parse and type-check the program; print nothing and exit 0 when it is valid,\n"
              "else print the diagnostics to stderr and exit 1. No machine code is made.\n\n"
              "options:\n" COMPILE_OPTS "\nexample:\n  kjit check --diag-format=short saxpy.k\n"},
    {"ir", "usage: kjit ir [options] FILE.k\n\n"
           "Type-check the program and print its typed IR (KIR), one block per function.\n\n"
           "options:\n" COMPILE_OPTS "\nexample:\n  kjit ir saxpy.k | less\n"},
    {"run", "usage: kjit run [options] FILE.k [NAME=VALUE ...]\n\n"
            "Compile the program for this machine and call its main(); NAME=VALUE overrides\n"
            "the default of main's parameter NAME (read as the default's type).\n\n"
            "options:\n" COMPILE_OPTS CODE_OPTS
            "  --arch=sm_XY                     the GPU architecture for --target=cuda\n"
            "\nexample:\n  kjit run --target=parallel saxpy.k n=1000000\n"},
    {"llvm", "usage: kjit llvm [options] FILE.k\n\n"
             "Compile the program and print the optimised LLVM IR of its host code.\n\n"
             "options:\n" COMPILE_OPTS CODE_OPTS "\nexample:\n  kjit llvm -O2 saxpy.k\n"},
    {"asm", "usage: kjit asm [options] FILE.k\n\n"
            "Compile the program and print the assembly of its host code.\n\n"
            "options:\n" COMPILE_OPTS CODE_OPTS "\nexample:\n  kjit asm saxpy.k\n"},
    {"ptx", "usage: kjit ptx [options] FILE.k\n\n"
            "Type-check the program and print the PTX of its kernels (no GPU needed).\n\n"
            "options:\n" COMPILE_OPTS
            "  --arch=sm_XY                     the GPU architecture (default: the device's, else sm_90)\n"
            "  --kernel=NAME                    only the kernel NAME\n"
            "  -O0 -O1 -O2 -O3                  optimisation level (default -O3)\n"
            "\nexample:\n  kjit ptx --arch=sm_80 --kernel=saxpy saxpy.k\n"},
    {"bench", "usage: kjit bench [options] FILE.k [NAME=VALUE ...]\n\n"
              "Run main on each target of --target (a list), check that they print the same,\n"
              "time and break down each run, fit t = overhead + bytes/bandwidth + work/throughput\n"
              "per target and find where the fastest target changes (docs/bench.md).\n\n"
              "options:\n"
              "  --target=LIST                    targets to compare, e.g. cpu,parallel,cuda (default cpu)\n"
              "  --sweep NAME=v1,v2,...|NAME=start:stop:xF   values of main's parameter NAME\n"
              "  --repeat N                       timed runs per value, 1 to 1000 (default 3)\n"
              "  --tolerance REL                  relative tolerance of compared outputs (default 1e-5)\n"
              "  --plot out.svg  --json out.json  --csv out.csv   write the results\n"
              "  --diag-format=human|short|json   how diagnostics are printed\n" CODE_OPTS
              "\nexample:\n  kjit bench --target=cpu,parallel --sweep n=1000:1000000:x10 saxpy.k\n"},
    {"cache", "usage: kjit cache [clear]\n\n"
              "Show the compile cache: its directory, entries, size on disk and size bound\n"
              "($KJIT_CACHE_MAX, default 1G; least recently used entries are evicted beyond it).\n"
              "'kjit cache clear' removes every entry (safe while other kjit processes run).\n"
              "The directory is $KJIT_CACHE_DIR, else $XDG_CACHE_HOME/kjit, else ~/.cache/kjit.\n\n"
              "options:\n"
              "  --json                           print the figures as one JSON object\n"
              "\nexample:\n  KJIT_CACHE_MAX=256M kjit cache\n  kjit cache clear\n"},
    {"sysinfo", "usage: kjit sysinfo [--json]\n\n"
                "Print what kjit finds on this machine (as 'numba -s'): kjit, LLVM and NVPTX\n"
                "versions, the host CPU and its vector features, the thread pool, the CUDA driver\n"
                "and each GPU, libdevice, MPI, BLAS/LAPACK and the compile cache. What is absent\n"
                "says 'not found'; that is not an error.\n\n"
                "options:\n"
                "  --json                           one JSON object, a member per line\n"
                "\nexample:\n  kjit sysinfo --json > sysinfo.json\n"},
    {"help", "usage: kjit help [COMMAND]\n\n"
             "Print the overview of kjit's commands and options, or COMMAND's help.\n"
             "\nexample:\n  kjit help run\n"},
    {"version", "usage: kjit version\n\n"
                "Print the version of kjit (kjit sysinfo says more).\n"
                "\nexample:\n  kjit --version\n"},
};

enum { NCOMMANDS = sizeof commands / sizeof *commands };

void kjit_cli_help(const char *cmd)
{
    for (size_t k = 0; cmd && k < NCOMMANDS; k++) {
        if (!strcmp(commands[k].name, cmd)) {
            fputs(commands[k].text, stdout);
            return;
        }
    }
    fputs(overview, stdout);
}

bool kjit_cli_is_command(const char *cmd)
{
    for (size_t k = 0; k < NCOMMANDS; k++)
        if (!strcmp(commands[k].name, cmd)) return true;
    return false;
}

const char *kjit_cli_closest_command(const char *cmd)
{
    const char *names[NCOMMANDS];
    for (size_t k = 0; k < NCOMMANDS; k++) names[k] = commands[k].name;
    return kjit_suggest(cmd, names, NCOMMANDS);
}

/* Every option's name: the candidates of "did you mean" for an unknown one. */
static const char *const option_names[] = {
    "--help",   "--version", "--boundscheck", "--no-cache", "--diag-format", "--max-errors", "--target",
    "--sweep",  "--repeat",  "--tolerance",   "--plot",     "--json",        "--csv",        "--arch",
    "--kernel", "-O0",       "-O1",           "-O2",        "-O3",
};

const char *kjit_cli_closest_option(const char *arg)
{
    /* --targt=cpu: the name is what comes before '=' */
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
    return kjit_suggest(name, option_names, sizeof option_names / sizeof *option_names);
}

const char *kjit_cli_closest_target(const char *t)
{
    static const char *const targets[] = {"cpu", "parallel", "cuda", "auto"};
    return kjit_suggest(t, targets, sizeof targets / sizeof *targets);
}
