/* SPDX-License-Identifier: BSD-2-Clause */
/* OpenBLAS and LAPACKE, opened at run time (see linalg.h).
 *
 * Why these: Debian's OpenBLAS (libopenblas0) is an optimised, threaded
 * BLAS, the one NumPy uses through the libblas.so.3 alternative once it is
 * installed, so `np.dot` in kjit and in NumPy run the same kernels; its
 * LAPACK is what LAPACKE (liblapacke, the reference C interface) calls
 * through liblapack.so.3. Opening them with dlopen, as the CUDA driver is
 * opened (cuda_drv.c), keeps them out of kjit's link: kjit builds and runs
 * without them, and only a program that does linear algebra needs them. */
#include "linalg.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* Each library: the soname, and the Debian package that installs it. */
static const struct {
    const char *soname, *package;
} BLAS = {"libopenblas.so.0", "libopenblas0"}, LAPACKE = {"liblapacke.so.3", "liblapacke"};

static void *open_lib(const char *soname, const char *package, char *err, size_t cap)
{
    void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        snprintf(err, cap, "linear algebra needs %s, which cannot be opened (%s): install the Debian package %s",
                 soname, dlerror(), package);
    return h;
}

/* Every entry point of one library; the name of the first missing, or NULL. */
static const char *resolve_blas(kj_linalg_lib *l)
{
#define KJ_LA_SYM(name, ret, params)                                    \
    *(void **)&l->name = dlsym(l->blas, #name);                          \
    if (!l->name) return #name;
    KJ_LA_BLAS_FUNCS(KJ_LA_SYM, cblas_s, float)
    KJ_LA_BLAS_FUNCS(KJ_LA_SYM, cblas_d, double)
#undef KJ_LA_SYM
    return NULL;
}

static const char *resolve_lapacke(kj_linalg_lib *l)
{
#define KJ_LA_SYM(name, ret, params)                                    \
    *(void **)&l->name = dlsym(l->lapacke, #name);                       \
    if (!l->name) return #name;
    KJ_LA_LAPACK_FUNCS(KJ_LA_SYM, LAPACKE_s, float)
    KJ_LA_LAPACK_FUNCS(KJ_LA_SYM, LAPACKE_d, double)
#undef KJ_LA_SYM
    return NULL;
}

kj_linalg_lib *kj_linalg_open(char *err, size_t cap)
{
    kj_linalg_lib *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, cap, "out of memory opening the linear-algebra libraries");
        return NULL;
    }
    l->blas = open_lib(BLAS.soname, BLAS.package, err, cap);
    const char *miss = l->blas ? resolve_blas(l) : NULL;
    if (miss) snprintf(err, cap, "%s lacks %s: install a current Debian package %s", BLAS.soname, miss, BLAS.package);
    if (!l->blas || miss) {
        kj_linalg_close(l);
        return NULL;
    }
    return l;
}

bool kj_linalg_open_lapack(kj_linalg_lib *l, char *err, size_t cap)
{
    if (l->lapacke) return true;
    l->lapacke = open_lib(LAPACKE.soname, LAPACKE.package, err, cap);
    const char *miss = l->lapacke ? resolve_lapacke(l) : NULL;
    if (miss) {
        snprintf(err, cap, "%s lacks %s: install a current Debian package %s", LAPACKE.soname, miss,
                 LAPACKE.package);
        dlclose(l->lapacke);
        l->lapacke = NULL;
    }
    return l->lapacke != NULL;
}

void kj_linalg_close(kj_linalg_lib *l)
{
    if (!l) return;
    if (l->lapacke) dlclose(l->lapacke);
    if (l->blas) dlclose(l->blas);
    free(l);
}
