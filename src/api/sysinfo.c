/* SPDX-License-Identifier: BSD-2-Clause */
/* What kjit finds on this machine (kjit_sysinfo: `kjit sysinfo`, as
 * `numba -s`) and the cache directory as a whole (kjit_cache_info_get,
 * kjit_cache_clear: `kjit cache`). Nothing absent is an error here: each
 * line says "not found" and why. */
#include "api_int.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

/* ---- the cache directory ---- */

int kjit_cache_info_get(const char *dir, kjit_cache_info *info, kjit_error *err)
{
    char why[256];
    memset(info, 0, sizeof *info);
    if (!kj_api_cache_max(&info->max_bytes, why, sizeof why)) {
        kj_api_set_error(err, KJIT_ERR_USAGE, NULL, "%s", why);
        return KJIT_ERR_USAGE;
    }
    char *d = dir ? NULL : kj_cache_default_dir();
    const char *use = dir ? dir : d;
    if (use) {
        snprintf(info->dir, sizeof info->dir, "%s", use);
        kj_cache_dir_usage(use, &info->entries, &info->bytes);
        info->hits = kj_cache_dir_hits(use);
    }
    free(d);
    kj_api_clear_error(err);
    return KJIT_OK;
}

int kjit_cache_clear(const char *dir, uint64_t *removed, kjit_error *err)
{
    char *d = dir ? NULL : kj_cache_default_dir();
    const char *use = dir ? dir : d;
    if (!use) {
        kj_api_set_error(err, KJIT_ERR_USAGE, NULL,
                         "no cache directory: none of KJIT_CACHE_DIR, XDG_CACHE_HOME, HOME is set");
        return KJIT_ERR_USAGE;
    }
    uint64_t n = kj_cache_dir_clear(use);
    if (removed) *removed = n;
    free(d);
    kj_api_clear_error(err);
    return KJIT_OK;
}

/* ---- sysinfo ---- */

typedef struct lines {
    kjit_sysinfo_line *v;
    int cap, n;
} lines;

static void add(lines *l, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* One line (counted even when there is no room: the caller asks again). */
static void add(lines *l, const char *key, const char *fmt, ...)
{
    if (l->n < l->cap) {
        kjit_sysinfo_line *ln = &l->v[l->n];
        snprintf(ln->key, sizeof ln->key, "%s", key);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ln->value, sizeof ln->value, fmt, ap);
        va_end(ap);
    }
    l->n++;
}

/* The host's SIMD features among LLVM's "+feat,-feat,..." list. */
static void vector_features(char *out, size_t cap)
{
    static const char *const simd[] = {"sse2",     "sse3",    "ssse3",    "sse4.1", "sse4.2", "avx",
                                       "avx2",     "fma",     "f16c",     "avx512f", "avx512bw", "avx512dq",
                                       "avx512vl", "avx512fp16", "neon",  "sve",    "sve2",   "altivec",
                                       "vsx"};
    char *feats = LLVMGetHostCPUFeatures();
    size_t len = 0;
    out[0] = 0;
    for (size_t k = 0; k < sizeof simd / sizeof *simd; k++) {
        char want[32];
        snprintf(want, sizeof want, "+%s", simd[k]);
        for (const char *p = feats; p && (p = strstr(p, want)); p += strlen(want)) {
            char after = p[strlen(want)];
            if ((p == feats || p[-1] == ',') && (after == ',' || after == 0)) {
                len += (size_t)snprintf(out + len, len < cap ? cap - len : 0, "%s%s", len ? " " : "", simd[k]);
                break;
            }
        }
        if (len >= cap) break;
    }
    if (!out[0]) snprintf(out, cap, "none found");
    LLVMDisposeMessage(feats);
}

static void versions_and_cpu(lines *l)
{
    unsigned maj, min, pat;
    LLVMGetVersion(&maj, &min, &pat);
    add(l, "kjit version", "%s", kjit_version());
    add(l, "LLVM version", "%u.%u.%u", maj, min, pat);
    LLVMInitializeNVPTXTargetInfo();
    LLVMTargetRef t;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple("nvptx64-nvidia-cuda", &t, &msg) == 0)
        add(l, "NVPTX backend", "LLVM %u.%u.%u, nvptx64-nvidia-cuda (PTX for sm_XY; default sm_90)", maj, min, pat);
    else
        add(l, "NVPTX backend", "not found (%s)", msg ? msg : "not in this LLVM");
    LLVMDisposeMessage(msg);
    char *triple = LLVMGetDefaultTargetTriple(), *cpu = LLVMGetHostCPUName();
    add(l, "host", "%s, CPU %s, %ld CPUs online", triple, cpu, sysconf(_SC_NPROCESSORS_ONLN));
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    char vec[400];
    vector_features(vec, sizeof vec);
    add(l, "host vector features", "%s", vec);
}

static void thread_pool(lines *l)
{
    char why[256];
    int n = 0;
    if (!kj_pool_threads_from_env(&n, why, sizeof why)) {
        add(l, "thread pool", "not usable: %s", why);
        return;
    }
    const char *from = "the CPUs this process may run on";
    const char *k = getenv("KJIT_NUM_THREADS"), *nb = getenv("NUMBA_NUM_THREADS");
    if (k && *k) from = "KJIT_NUM_THREADS";
    else if (nb && *nb) from = "NUMBA_NUM_THREADS";
    add(l, "thread pool", "%d threads (from %s)", n, from);
}

static void one_gpu(lines *l, kj_gpu *g, int i)
{
    const kj_cu_props *p = kj_gpu_props(g);
    size_t free_b = 0, total = 0;
    char key[32], mem[64] = "memory unknown";
    if (kj_gpu_mem_info(g, &free_b, &total))
        snprintf(mem, sizeof mem, "%.1f GiB memory (%.1f free)", total / 1073741824.0, free_b / 1073741824.0);
    snprintf(key, sizeof key, "GPU %d", i);
    add(l, key, "%s, compute capability %d.%d (sm_%d%d), %s, %d SMs", p->name, p->cc_major, p->cc_minor,
        p->cc_major, p->cc_minor, mem, p->sm_count);
}

static void gpus(lines *l)
{
    char err[256];
    kj_gpu *g = kj_gpu_open(0, NULL, err, sizeof err);
    if (!g) {
        /* "no CUDA driver found (...)" or "no CUDA device" */
        static const char prefix[] = "no CUDA driver found ";
        bool no_driver = strstr(err, "driver") != NULL;
        const char *why = strncmp(err, prefix, sizeof prefix - 1) ? err : err + sizeof prefix - 1;
        if (no_driver) add(l, "CUDA driver", "not found %s", why);
        else add(l, "CUDA driver", "found (no device to ask its version)");
        add(l, "GPUs", "not found (%s)", no_driver ? "no CUDA driver" : err);
        return;
    }
    int v = kj_gpu_props(g)->driver_version, count = kj_gpu_count(g);
    add(l, "CUDA driver", "%d.%d (CUDA API version %d)", v / 1000, v % 1000 / 10, v);
    add(l, "GPUs", "%d", count);
    one_gpu(l, g, 0);
    kj_gpu_release(g);
    for (int i = 1; i < count; i++) {
        g = kj_gpu_open(i, NULL, err, sizeof err);
        if (g) one_gpu(l, g, i);
        else {
            char key[32];
            snprintf(key, sizeof key, "GPU %d", i);
            add(l, key, "not usable (%s)", err);
        }
        kj_gpu_release(g);
    }
}

static void libdevice(lines *l)
{
    char buf[512];
    const char *p = kj_api_libdevice_path(buf, sizeof buf);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) add(l, "libdevice", "%s", p);
    else add(l, "libdevice", "not found (%s; set KJIT_LIBDEVICE or CUDA_HOME)", p);
}

/* The MPI library kjit would use, opened (RTLD_GLOBAL, as kj_mpi_open
 * does) but not initialised: whether CUDA support is on is known only
 * after MPI_Init, which a program's first MPI call does. */
static void mpi(lines *l)
{
    char err[512];
    kj_mpi *m = kj_mpi_open(NULL, err, sizeof err);
    if (!m) {
        add(l, "MPI library", "not found (%s)", err);
        add(l, "MPI CUDA-aware", "not found (no MPI library)");
        return;
    }
    Dl_info info;
    void *init = dlsym(RTLD_DEFAULT, "MPI_Init");
    add(l, "MPI library", "%s", init && dladdr(init, &info) && info.dli_fname ? info.dli_fname : "found");
    if (dlsym(RTLD_DEFAULT, "MPIX_Query_cuda_support"))
        add(l, "MPI CUDA-aware", "built with CUDA support (MPIX_Query_cuda_support); whether it is on is asked at "
                                 "MPI_Init, KJIT_STATS=1 says at the end of a run");
    else
        add(l, "MPI CUDA-aware", "no (the library has no MPIX_Query_cuda_support)");
    kj_mpi_release(m);
}

static void cache(lines *l)
{
    kjit_cache_info ci;
    kjit_error err;
    if (kjit_cache_info_get(NULL, &ci, &err) != KJIT_OK) {
        add(l, "cache", "not usable: %s", err.message);
        return;
    }
    if (!ci.dir[0]) {
        add(l, "cache", "not found (none of KJIT_CACHE_DIR, XDG_CACHE_HOME, HOME is set)");
        return;
    }
    add(l, "cache", "%s, %llu entries, %.1f MiB of %.1f MiB, %llu hits", ci.dir, (unsigned long long)ci.entries,
        ci.bytes / 1048576.0, ci.max_bytes / 1048576.0, (unsigned long long)ci.hits);
}

int kjit_sysinfo(kjit_sysinfo_line *v, int cap)
{
    lines l = {v, v ? cap : 0, 0};
    versions_and_cpu(&l);
    thread_pool(&l);
    gpus(&l);
    libdevice(&l);
    mpi(&l);
    add(&l, "BLAS/LAPACK", "not found (kjit does not use one yet)");
    cache(&l);
    return l.n;
}
