/* SPDX-License-Identifier: BSD-2-Clause */
/* The CUDA driver layer (src/runtime/cuda_drv.c) over a fake driver: each
 * test fills a kj_cu by hand with the static fakes below, so the logic
 * above the driver (error texts, device set-up, PTX linking, logs) runs
 * without a GPU. The fakes keep no state of their own: the fake linker's
 * state lives in the CUlinkState it hands out, and calls that must happen
 * are checked with cmocka's expect_function_call.
 *
 * kj_cu_open is only tried where it must fail (no file, a library that is
 * no driver): the real driver is exercised by the GPU tests, not here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/cuda_drv.h"
#include "runtime/gpu.h"
#include "abi/abi_mpi.h"

/* --- the fake driver ----------------------------------------------------- */

static CUresult fake_error_name(CUresult r, const char **s)
{
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS: *s = "CUDA_ERROR_ILLEGAL_ADDRESS"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_PTX: *s = "CUDA_ERROR_INVALID_PTX"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_IMAGE: *s = "CUDA_ERROR_INVALID_IMAGE"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_CONTEXT: *s = "CUDA_ERROR_INVALID_CONTEXT"; return CUDA_SUCCESS;
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: *s = "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"; return CUDA_SUCCESS;
    default: *s = NULL; return CUDA_ERROR_INVALID_VALUE; /* as the driver does for codes it does not know */
    }
}

static CUresult fake_error_string(CUresult r, const char **s)
{
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS: *s = "an illegal memory access was encountered"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_PTX: *s = "a PTX JIT compilation failed"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_IMAGE: *s = "device kernel image is invalid"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_CONTEXT: *s = "invalid device context"; return CUDA_SUCCESS;
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
        *s = "system has unsupported display driver / cuda driver combination";
        return CUDA_SUCCESS;
    default: *s = NULL; return CUDA_ERROR_INVALID_VALUE;
    }
}

static CUresult fake_init_ok(unsigned flags)
{
    assert_int_equal(flags, 0);
    return CUDA_SUCCESS;
}

static CUresult fake_init_no_device(unsigned flags)
{
    (void)flags;
    return CUDA_ERROR_NO_DEVICE;
}

static CUresult fake_init_mismatch(unsigned flags)
{
    (void)flags;
    return CUDA_ERROR_SYSTEM_DRIVER_MISMATCH;
}

static CUresult fake_count_one(int *n)
{
    *n = 1;
    return CUDA_SUCCESS;
}

static CUresult fake_count_zero(int *n)
{
    *n = 0;
    return CUDA_SUCCESS;
}

enum { FAKE_DEVICE = 7 };

static CUresult fake_device_get(CUdevice *d, int ordinal)
{
    assert_int_equal(ordinal, 0);
    *d = FAKE_DEVICE;
    return CUDA_SUCCESS;
}

/* An H100's answers. */
static CUresult fake_attribute(int *v, CUdevice_attribute a, CUdevice d)
{
    assert_int_equal(d, FAKE_DEVICE);
    switch (a) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: *v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *v = 1023; break; /* not 1024: the fields must not mix up */
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *v = 64; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *v = 2147483647; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: *v = 65535; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *v = 65534; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *v = 49152; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = 232448; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = 32; break;
    default: fail_msg("unexpected attribute %d", (int)a);
    }
    return CUDA_SUCCESS;
}

static CUresult fake_attribute_fails(int *v, CUdevice_attribute a, CUdevice d)
{
    (void)v, (void)a, (void)d;
    return CUDA_ERROR_INVALID_CONTEXT;
}

static CUresult fake_device_name(char *name, int len, CUdevice d)
{
    assert_int_equal(d, FAKE_DEVICE);
    assert_true(len > 0);
    snprintf(name, (size_t)len, "%s", "NVIDIA H100 80GB HBM3");
    return CUDA_SUCCESS;
}

static CUresult fake_driver_version(int *v)
{
    *v = 13000;
    return CUDA_SUCCESS;
}

static struct CUctx_st {
    int unused;
} fake_ctx;

static CUresult fake_retain(CUcontext *c, CUdevice d)
{
    assert_int_equal(d, FAKE_DEVICE);
    *c = &fake_ctx;
    return CUDA_SUCCESS;
}

static CUresult fake_release(CUdevice d)
{
    function_called();
    assert_int_equal(d, FAKE_DEVICE);
    return CUDA_SUCCESS;
}

static CUresult fake_set_current(CUcontext c)
{
    assert_ptr_equal(c, &fake_ctx);
    return CUDA_SUCCESS;
}

static CUresult fake_set_current_fails(CUcontext c)
{
    (void)c;
    return CUDA_ERROR_INVALID_CONTEXT;
}

/* The fake linker: its state records where the options said the logs go,
 * and holds the cubin, which dies with it (so a caller that kept the
 * driver's pointer instead of a copy reads freed memory under ASan). */
struct CUlinkState_st {
    char *error_log, *info_log;
    unsigned error_cap, info_cap;
    int line_info; /* CU_JIT_GENERATE_LINE_INFO's value, -1 when not given */
    unsigned char cubin[8];
};

static const unsigned char FAKE_CUBIN[8] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33};
static const char PTX[] = ".version 8.0\n.target sm_90\n.address_size 64\n";

static void record_options(struct CUlinkState_st *s, unsigned n, const CUjit_option *o, void **v)
{
    for (unsigned i = 0; i < n; i++) {
        switch (o[i]) {
        case CU_JIT_ERROR_LOG_BUFFER: s->error_log = v[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: s->error_cap = (unsigned)(uintptr_t)v[i]; break;
        case CU_JIT_INFO_LOG_BUFFER: s->info_log = v[i]; break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: s->info_cap = (unsigned)(uintptr_t)v[i]; break;
        case CU_JIT_GENERATE_LINE_INFO: s->line_info = (int)(uintptr_t)v[i]; break;
        default: fail_msg("unexpected JIT option %d", (int)o[i]);
        }
    }
    assert_non_null(s->error_log);
    assert_non_null(s->info_log);
    assert_true(s->error_cap >= 1024 && s->info_cap >= 1024);
}

static CUresult fake_link_create(unsigned n, CUjit_option *o, void **v, CUlinkState *out)
{
    struct CUlinkState_st *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->line_info = -1;
    record_options(s, n, o, v);
    memcpy(s->cubin, FAKE_CUBIN, sizeof s->cubin);
    *out = s;
    return CUDA_SUCCESS;
}

static CUresult fake_link_add_ptx(CUlinkState s, CUjitInputType type, void *data, size_t size, const char *name,
                                  unsigned n, CUjit_option *o, void **v)
{
    (void)s, (void)o, (void)v;
    assert_int_equal(type, CU_JIT_INPUT_PTX);
    assert_string_equal(data, PTX);
    assert_int_equal(size, sizeof PTX); /* the terminator included */
    assert_string_equal(name, "kjit.ptx");
    assert_int_equal(n, 0);
    return CUDA_SUCCESS;
}

/* What ptxas says about a PTX file that names an undefined symbol. */
static CUresult fake_link_add_bad_ptx(CUlinkState s, CUjitInputType type, void *data, size_t size,
                                      const char *name, unsigned n, CUjit_option *o, void **v)
{
    (void)type, (void)data, (void)size, (void)name, (void)n, (void)o, (void)v;
    snprintf(s->error_log, s->error_cap, "%s",
             "ptxas application ptx input, line 12; error   : Unknown symbol 'x'\n"
             "ptxas fatal   : Ptx assembly aborted due to errors\n\n");
    snprintf(s->info_log, s->info_cap, "%s", "ptxas info    : 0 bytes gmem\n");
    return CUDA_ERROR_INVALID_PTX;
}

static CUresult fake_link_complete(CUlinkState s, void **cubin, size_t *size)
{
    *cubin = s->cubin;
    *size = sizeof s->cubin;
    return CUDA_SUCCESS;
}

/* A failure that leaves its reason in the info log only. */
static CUresult fake_link_complete_info_only(CUlinkState s, void **cubin, size_t *size)
{
    (void)cubin, (void)size;
    snprintf(s->info_log, s->info_cap, "%s", "  nvlink info: entry function 'k' not found  \n");
    return CUDA_ERROR_INVALID_IMAGE;
}

static CUresult fake_link_destroy(CUlinkState s)
{
    function_called();
    free(s);
    return CUDA_SUCCESS;
}

static struct CUmod_st {
    int unused;
} fake_mod;

static CUresult fake_module_load(CUmodule *m, const void *image, unsigned n, CUjit_option *o, void **v)
{
    struct CUlinkState_st logs = {0};
    record_options(&logs, n, o, v);
    assert_memory_equal(image, FAKE_CUBIN, sizeof FAKE_CUBIN);
    *m = &fake_mod;
    return CUDA_SUCCESS;
}

static CUresult fake_module_load_fails(CUmodule *m, const void *image, unsigned n, CUjit_option *o, void **v)
{
    (void)m, (void)image;
    struct CUlinkState_st logs = {0};
    record_options(&logs, n, o, v);
    snprintf(logs.error_log, logs.error_cap, "%s", "\nmodule uses too much shared data (0x40000 bytes)\n");
    return CUDA_ERROR_INVALID_IMAGE;
}

/* A table whose every call used here succeeds; tests swap single entries. */
static kj_cu fake_driver(void)
{
    kj_cu cu = {.opened = true};
    cu.cuGetErrorName = fake_error_name;
    cu.cuGetErrorString = fake_error_string;
    cu.cuInit = fake_init_ok;
    cu.cuDeviceGetCount = fake_count_one;
    cu.cuDeviceGet = fake_device_get;
    cu.cuDeviceGetAttribute = fake_attribute;
    cu.cuDeviceGetName = fake_device_name;
    cu.cuDriverGetVersion = fake_driver_version;
    cu.cuDevicePrimaryCtxRetain = fake_retain;
    cu.cuDevicePrimaryCtxRelease = fake_release;
    cu.cuCtxSetCurrent = fake_set_current;
    cu.cuLinkCreate = fake_link_create;
    cu.cuLinkAddData = fake_link_add_ptx;
    cu.cuLinkComplete = fake_link_complete;
    cu.cuLinkDestroy = fake_link_destroy;
    cu.cuModuleLoadDataEx = fake_module_load;
    return cu;
}

/* --- kj_cu_fail ----------------------------------------------------------- */

static void test_fail_text(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    char err[256];
    assert_false(kj_cu_fail(&cu, CUDA_ERROR_ILLEGAL_ADDRESS, "cuLaunchKernel", err, sizeof err));
    assert_string_equal(err, "cuLaunchKernel: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered");
}

/* A code newer than the driver: only the number is left. */
static void test_fail_unknown_code(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    char err[256];
    assert_false(kj_cu_fail(&cu, (CUresult)12345, "cuMemAlloc", err, sizeof err));
    assert_string_equal(err, "cuMemAlloc: CUDA error 12345");
}

static void test_fail_truncates(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    char err[16];
    memset(err, 'x', sizeof err);
    assert_false(kj_cu_fail(&cu, CUDA_ERROR_ILLEGAL_ADDRESS, "cuLaunchKernel", err, sizeof err));
    assert_string_equal(err, "cuLaunchKernel:");
    assert_false(kj_cu_fail(&cu, CUDA_ERROR_ILLEGAL_ADDRESS, "cuLaunchKernel", NULL, 0));
}

/* --- kj_cu_device_open ----------------------------------------------------- */

static void test_device_props(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    CUdevice dev = -1;
    CUcontext ctx = NULL;
    kj_cu_props p;
    memset(&p, 0xff, sizeof p);
    char err[256] = "";
    assert_true(kj_cu_device_open(&cu, 0, &dev, &ctx, &p, err, sizeof err));
    assert_string_equal(err, "");
    assert_int_equal(dev, FAKE_DEVICE);
    assert_ptr_equal(ctx, &fake_ctx);
    assert_string_equal(p.name, "NVIDIA H100 80GB HBM3");
    assert_int_equal(p.cc_major, 9);
    assert_int_equal(p.cc_minor, 0);
    assert_int_equal(p.sm_count, 132);
    assert_int_equal(p.max_threads_per_block, 1024);
    assert_int_equal(p.max_block[0], 1024);
    assert_int_equal(p.max_block[1], 1023);
    assert_int_equal(p.max_block[2], 64);
    assert_int_equal(p.max_grid[0], 2147483647);
    assert_int_equal(p.max_grid[1], 65535);
    assert_int_equal(p.max_grid[2], 65534);
    assert_int_equal(p.max_shared_per_block, 49152);
    assert_int_equal(p.max_shared_per_block_optin, 232448);
    assert_int_equal(p.warp_size, 32);
    assert_int_equal(p.driver_version, 13000);
}

static void expect_device_error(kj_cu *cu, int ordinal, const char *want)
{
    CUdevice dev = -1;
    CUcontext ctx = NULL;
    kj_cu_props p;
    char err[256] = "";
    assert_false(kj_cu_device_open(cu, ordinal, &dev, &ctx, &p, err, sizeof err));
    assert_string_equal(err, want);
    assert_null(ctx);
}

static void test_device_none_counted(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    cu.cuDeviceGetCount = fake_count_zero;
    expect_device_error(&cu, 0, "no CUDA device");
}

static void test_device_none_at_init(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    cu.cuInit = fake_init_no_device;
    expect_device_error(&cu, 0, "no CUDA device");
}

static void test_device_init_error(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    cu.cuInit = fake_init_mismatch;
    expect_device_error(&cu, 0,
                        "cuInit: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: system has unsupported display driver / cuda "
                        "driver combination");
}

static void test_device_ordinal_out_of_range(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    expect_device_error(&cu, 1, "no CUDA device 1 (the driver reports 1)");
    expect_device_error(&cu, -1, "no CUDA device -1 (the driver reports 1)");
}

static void test_device_attribute_error(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    cu.cuDeviceGetAttribute = fake_attribute_fails;
    expect_device_error(&cu, 0, "cuDeviceGetAttribute: CUDA_ERROR_INVALID_CONTEXT: invalid device context");
}

/* The retained primary context is given back when it cannot be made current. */
static void test_device_set_current_fails(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    cu.cuCtxSetCurrent = fake_set_current_fails;
    expect_function_call(fake_release);
    expect_device_error(&cu, 0, "cuCtxSetCurrent: CUDA_ERROR_INVALID_CONTEXT: invalid device context");
}

static void test_device_unopened(void **state)
{
    (void)state;
    kj_cu cu = {0};
    expect_device_error(&cu, 0, "no CUDA driver found");
}

/* --- kj_cu_link_ptx and kj_cu_module_load ------------------------------------ */

static void test_link_ok(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    void *cubin = NULL;
    size_t size = 0;
    char err[256] = "";
    expect_function_call(fake_link_destroy);
    assert_true(kj_cu_link_ptx(&cu, PTX, &cubin, &size, err, sizeof err));
    assert_string_equal(err, "");
    assert_int_equal(size, sizeof FAKE_CUBIN);
    assert_memory_equal(cubin, FAKE_CUBIN, sizeof FAKE_CUBIN); /* read after the link state is gone */
    free(cubin);
}

/* PTX with .loc lines (lineinfo=True) is linked with CU_JIT_GENERATE_LINE_INFO
 * = 1, other PTX without the option. */
static CUresult fake_link_add_lines(CUlinkState s, CUjitInputType type, void *data, size_t size, const char *name,
                                    unsigned n, CUjit_option *o, void **v)
{
    (void)type, (void)size, (void)name, (void)n, (void)o, (void)v;
    assert_int_equal(s->line_info, strstr(data, "\t.loc\t") ? 1 : -1);
    return CUDA_SUCCESS;
}

static void test_link_line_info(void **state)
{
    (void)state;
    static const char LINES[] = ".version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.loc\t1 7 5\n\tret;\n}\n";
    const char *ptx[2] = {PTX, LINES};
    for (int k = 0; k < 2; k++) {
        kj_cu cu = fake_driver();
        cu.cuLinkAddData = fake_link_add_lines;
        void *cubin = NULL;
        size_t size = 0;
        char err[256] = "";
        expect_function_call(fake_link_destroy);
        assert_true(kj_cu_link_ptx(&cu, ptx[k], &cubin, &size, err, sizeof err));
        free(cubin);
    }
}

static void test_link_error_log(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    cu.cuLinkAddData = fake_link_add_bad_ptx;
    void *cubin = (void *)1;
    size_t size = 99;
    char err[512] = "";
    expect_function_call(fake_link_destroy);
    assert_false(kj_cu_link_ptx(&cu, PTX, &cubin, &size, err, sizeof err));
    assert_null(cubin);
    assert_int_equal(size, 0);
    assert_string_equal(err, "cuLinkAddData: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed\n"
                             "PTX JIT failed: ptxas application ptx input, line 12; error   : Unknown symbol 'x'\n"
                             "ptxas fatal   : Ptx assembly aborted due to errors");
}

static void test_link_info_log(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    cu.cuLinkComplete = fake_link_complete_info_only;
    void *cubin = NULL;
    size_t size = 0;
    char err[512] = "";
    expect_function_call(fake_link_destroy);
    assert_false(kj_cu_link_ptx(&cu, PTX, &cubin, &size, err, sizeof err));
    assert_null(cubin);
    assert_string_equal(err, "cuLinkComplete: CUDA_ERROR_INVALID_IMAGE: device kernel image is invalid\n"
                             "PTX JIT failed: nvlink info: entry function 'k' not found");
}

/* A log longer than err is cut, and err stays terminated. */
static void test_link_error_log_cut(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    cu.cuLinkAddData = fake_link_add_bad_ptx;
    void *cubin = NULL;
    size_t size = 0;
    char err[90];
    expect_function_call(fake_link_destroy);
    assert_false(kj_cu_link_ptx(&cu, PTX, &cubin, &size, err, sizeof err));
    assert_int_equal(strlen(err), sizeof err - 1);
    assert_memory_equal(err, "cuLinkAddData: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed\nPTX JIT failed: ",
                        sizeof "cuLinkAddData: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed\nPTX JIT failed: " - 1);
}

static void test_module_load(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    CUmodule mod = NULL;
    char err[256] = "";
    assert_true(kj_cu_module_load(&cu, FAKE_CUBIN, &mod, err, sizeof err));
    assert_ptr_equal(mod, &fake_mod);
    assert_string_equal(err, "");
}

static void test_module_load_error_log(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    cu.cuModuleLoadDataEx = fake_module_load_fails;
    CUmodule mod = NULL;
    char err[256] = "";
    assert_false(kj_cu_module_load(&cu, FAKE_CUBIN, &mod, err, sizeof err));
    assert_string_equal(err, "cuModuleLoadDataEx: CUDA_ERROR_INVALID_IMAGE: device kernel image is invalid\n"
                             "module load failed: module uses too much shared data (0x40000 bytes)");
}

/* --- kj_cu_open and kj_cu_close ---------------------------------------------- */

static void expect_open_error(const char *lib, const char *prefix)
{
    assert_int_equal(setenv("KJIT_LIBCUDA", lib, 1), 0);
    kj_cu cu = fake_driver();
    char err[512] = "";
    bool ok = kj_cu_open(&cu, err, sizeof err);
    unsetenv("KJIT_LIBCUDA");
    assert_false(ok);
    assert_false(cu.opened);
    assert_null(cu.lib);
    assert_null(cu.cuInit); /* nothing left of the table it was given */
    assert_memory_equal(err, prefix, strlen(prefix));
}

static void test_open_missing_library(void **state)
{
    (void)state;
    expect_open_error("/nonexistent/kjit/libcuda.so.1", "no CUDA driver found (");
}

/* A library that loads but is no driver. */
static void test_open_not_a_driver(void **state)
{
    (void)state;
    expect_open_error("libc.so.6", "no CUDA driver found (libc.so.6 lacks cuGetProcAddress)");
}

static void test_close_fake(void **state)
{
    (void)state;
    kj_cu cu = fake_driver();
    kj_cu_close(&cu);
    assert_false(cu.opened);
    assert_null(cu.cuInit);
    kj_cu_close(&cu); /* twice is harmless */
    kj_cu_close(NULL);
}

/* The MPI reductions' kernels (gpu_combine.c): one per op and numeric
 * dtype, each assembled by ptxas (KJIT_TEST_PTXAS, set by meson). */
static void test_combine_ptx(void **state)
{
    (void)state;
    const char *ptxas = getenv("KJIT_TEST_PTXAS");
    char ptx[2048], path[] = "/tmp/kjit-combine-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unsigned n = 0;
    for (int op = KJ_MPI_OP_SUM; op <= KJ_MPI_OP_MIN; op++)
        for (int dt = 0; dt < KJ_DT_COUNT; dt++) {
            size_t len = kj_gpu_combine_ptx(op, (kj_dtype)dt, ptx, sizeof ptx);
            /* no float16: MPI cannot reduce it (builtins.c refuses it) */
            bool numeric = dt != KJ_DT_BOOL && dt != KJ_DT_COMPLEX64 && dt != KJ_DT_COMPLEX128 && dt != KJ_DT_FLOAT16;
            assert_int_equal(len > 0, numeric);
            if (!len) continue;
            assert_non_null(strstr(ptx, kj_dtype_name((kj_dtype)dt)));
            n++;
            if (!ptxas || !*ptxas) continue;
            FILE *f = fopen(path, "w");
            assert_non_null(f);
            fputs(ptx, f);
            fclose(f);
            char cmd[512];
            snprintf(cmd, sizeof cmd, "'%s' -arch=sm_90 '%s' -o /dev/null", ptxas, path);
            if (system(cmd) != 0) fail_msg("ptxas refused:\n%s", ptx);
        }
    unlink(path);
    assert_int_equal(n, 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fail_text),
        cmocka_unit_test(test_fail_unknown_code),
        cmocka_unit_test(test_fail_truncates),
        cmocka_unit_test(test_device_props),
        cmocka_unit_test(test_device_none_counted),
        cmocka_unit_test(test_device_none_at_init),
        cmocka_unit_test(test_device_init_error),
        cmocka_unit_test(test_device_ordinal_out_of_range),
        cmocka_unit_test(test_device_attribute_error),
        cmocka_unit_test(test_device_set_current_fails),
        cmocka_unit_test(test_device_unopened),
        cmocka_unit_test(test_link_ok),
        cmocka_unit_test(test_link_line_info),
        cmocka_unit_test(test_link_error_log),
        cmocka_unit_test(test_link_info_log),
        cmocka_unit_test(test_link_error_log_cut),
        cmocka_unit_test(test_module_load),
        cmocka_unit_test(test_module_load_error_log),
        cmocka_unit_test(test_open_missing_library),
        cmocka_unit_test(test_open_not_a_driver),
        cmocka_unit_test(test_close_fake),
        cmocka_unit_test(test_combine_ptx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
