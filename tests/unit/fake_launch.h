/* SPDX-License-Identifier: BSD-2-Clause */
/* Watching the fake driver's launches from a unit test (fake_libcuda.c's
 * fake_cuda_on_launch, found in the library KJIT_LIBCUDA names, which the
 * API tests run with). Include after cmocka.h. */
#ifndef KJIT_TESTS_FAKE_LAUNCH_H
#define KJIT_TESTS_FAKE_LAUNCH_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

/* Called with the grid and block dimensions and the parameters of each launch. */
typedef void (*fake_launch_hook)(const unsigned *grid_block, void **params, void *user);

/* Sets the hook (NULL: none) that the fake driver calls at each launch. */
static inline void fake_watch_launches(fake_launch_hook fn, void *user)
{
    void *lib = dlopen(getenv("KJIT_LIBCUDA"), RTLD_NOW);
    assert_non_null(lib);
    void (*on)(fake_launch_hook, void *) = (void (*)(fake_launch_hook, void *))(uintptr_t)dlsym(lib, "fake_cuda_on_launch");
    assert_non_null(on);
    on(fn, user);
    dlclose(lib);
}

#endif
