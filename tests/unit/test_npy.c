/* SPDX-License-Identifier: BSD-2-Clause */
/* .npy load/save: fixtures written by NumPy, round trips, byte-identical
 * output, errors, and (when python3 with numpy is available) NumPy loading
 * what kjit wrote.
 *
 * The fixtures in tests/unit/data/ were made once with numpy 1.24:
 *   np.save('f8_1d.npy', np.array([1.5, -2.25, 1e300, np.nan, -0.0]))
 *   np.save('f4_2d.npy', np.arange(6, dtype=np.float32).reshape(2, 3) / 4)
 *   np.save('i8_3d.npy', np.arange(24, dtype=np.int64).reshape(2, 3, 4) - 5)
 *   np.save('i4_fortran.npy', np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3)))
 *   np.save('b1.npy', np.array([True, False, True]))
 *   np.save('u1.npy', np.array([0, 255, 7], dtype=np.uint8))
 *   np.save('u2_4d.npy', np.arange(16, dtype=np.uint16).reshape(1, 2, 2, 4))
 *   np.save('i2_0d.npy', np.array(-7, dtype=np.int16))
 *   np.save('f8_empty.npy', np.zeros((0, 3)))
 *   np.save('be_f8.npy', np.array([1.5, -2.0, 3.25], dtype='>f8'))
 *   np.save('be_i4.npy', np.array([1, -2, 70000], dtype='>i4'))
 *   np.save('c16.npy', np.array([1+2j]))
 *   np.save('obj.npy', np.array([1, 'a'], dtype=object), allow_pickle=True)
 *   np.lib.format.write_array(open('f8_v2.npy', 'wb'), np.array([1.0, 2.0]), version=(2, 0))
 *   np.lib.format.write_array(open('f8_v3.npy', 'wb'), np.array([3.0, 4.0]), version=(3, 0)) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/npy.h"

/* --- helpers ------------------------------------------------------------ */

/* The directory of this source file: __FILE__ is relative to the build
 * directory under meson, which is where tests run; fall back to the
 * executable's build directory (one level up from tests/). */
static const char *src_dir(void)
{
    static char dir[PATH_MAX];
    char f[PATH_MAX];
    snprintf(f, sizeof f, "%s", __FILE__);
    snprintf(dir, sizeof dir, "%s", dirname(f));
    char probe[PATH_MAX + 32];
    snprintf(probe, sizeof probe, "%s/data/f8_1d.npy", dir);
    if (access(probe, R_OK) == 0 || dir[0] == '/') return dir;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char tmp[PATH_MAX];
        snprintf(tmp, sizeof tmp, "%s", __FILE__);
        snprintf(dir, sizeof dir, "%s/../%s", dirname(exe), dirname(tmp));
    }
    return dir;
}

static char *data_path(const char *name)
{
    static char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/data/%s", src_dir(), name);
    return p;
}

static kj_array *load_fixture(const char *name)
{
    kj_rt_error err = {0};
    kj_array *a = kj_npy_load(data_path(name), &err);
    if (!a) fprintf(stderr, "%s\n", err.message);
    assert_non_null(a);
    return a;
}

static char tmpdir[64];

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kjit-npy-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    (void)state;
    DIR *d = opendir(tmpdir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char p[PATH_MAX];
            snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(tmpdir);
    return 0;
}

static char *tmp_path(const char *name)
{
    static char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    return p;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = malloc(1 << 16);
    *len = fread(buf, 1, 1 << 16, f);
    fclose(f);
    return buf;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void assert_same_file(const char *a, const char *b)
{
    size_t na, nb;
    char *x = read_file(a, &na), *y = read_file(b, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(x, y, na);
    free(x);
    free(y);
}

static void assert_load_error(const char *path, const char *exc, const char *want)
{
    kj_rt_error err = {0};
    assert_null(kj_npy_load(path, &err));
    if (!strstr(err.message, want)) fprintf(stderr, "message: %s\n", err.message);
    assert_non_null(strstr(err.message, want));
    assert_non_null(strstr(err.message, path));
    assert_string_equal(err.exc, exc);
}

/* --- loading NumPy's files ---------------------------------------------- */

static void test_load_f8(void **state)
{
    (void)state;
    kj_array *a = load_fixture("f8_1d.npy");
    assert_int_equal(a->dtype, KJ_DT_FLOAT64);
    assert_int_equal(a->ndim, 1);
    assert_int_equal(a->shape[0], 5);
    double *d = (double *)(void *)a->data;
    assert_true(d[0] == 1.5 && d[1] == -2.25 && d[2] == 1e300 && isnan(d[3]));
    assert_true(d[4] == 0 && signbit(d[4]));
    kj_array_release(a);
}

static void test_load_shapes_and_types(void **state)
{
    (void)state;
    kj_array *a = load_fixture("f4_2d.npy");
    assert_int_equal(a->dtype, KJ_DT_FLOAT32);
    assert_int_equal(a->shape[0], 2);
    assert_int_equal(a->shape[1], 3);
    assert_true(kj_array_get_f64(a, (int64_t[]){1, 2}) == 1.25);
    kj_array_release(a);

    a = load_fixture("i8_3d.npy");
    assert_int_equal(a->ndim, 3);
    assert_int_equal(kj_array_get_i64(a, (int64_t[]){1, 2, 3}), 23 - 5);
    assert_int_equal(kj_array_get_i64(a, (int64_t[]){0, 0, 0}), -5);
    kj_array_release(a);

    a = load_fixture("b1.npy");
    assert_int_equal(a->dtype, KJ_DT_BOOL);
    assert_int_equal(kj_array_get_i64(a, (int64_t[]){0}), 1);
    assert_int_equal(kj_array_get_i64(a, (int64_t[]){1}), 0);
    kj_array_release(a);

    a = load_fixture("u1.npy");
    assert_int_equal(a->dtype, KJ_DT_UINT8);
    assert_int_equal(kj_array_get_i64(a, (int64_t[]){1}), 255);
    kj_array_release(a);

    a = load_fixture("u2_4d.npy");
    assert_int_equal(a->ndim, 4);
    assert_int_equal(a->dtype, KJ_DT_UINT16);
    assert_int_equal(kj_array_get_i64(a, (int64_t[]){0, 1, 1, 3}), 15);
    kj_array_release(a);

    a = load_fixture("i2_0d.npy");
    assert_int_equal(a->ndim, 0);
    assert_int_equal(kj_array_get_i64(a, NULL), -7);
    kj_array_release(a);

    a = load_fixture("f8_empty.npy");
    assert_int_equal(a->ndim, 2);
    assert_int_equal(a->shape[0], 0);
    assert_int_equal(a->shape[1], 3);
    kj_array_release(a);
}

static void test_load_fortran(void **state)
{
    (void)state;
    kj_array *a = load_fixture("i4_fortran.npy");
    assert_int_equal(a->dtype, KJ_DT_INT32);
    assert_int_equal(a->shape[0], 2);
    assert_int_equal(a->shape[1], 3);
    assert_int_equal(a->strides[0], 4);
    assert_int_equal(a->strides[1], 8);
    assert_true(a->flags & KJ_ARR_F_CONTIGUOUS);
    assert_false(a->flags & KJ_ARR_C_CONTIGUOUS);
    for (int64_t i = 0; i < 2; i++)
        for (int64_t j = 0; j < 3; j++)
            assert_int_equal(kj_array_get_i64(a, (int64_t[]){i, j}), i * 3 + j);
    kj_array_release(a);
}

static void test_load_big_endian(void **state)
{
    (void)state;
    kj_array *a = load_fixture("be_f8.npy");
    assert_int_equal(a->dtype, KJ_DT_FLOAT64);
    assert_true(kj_array_get_f64(a, (int64_t[]){0}) == 1.5);
    assert_true(kj_array_get_f64(a, (int64_t[]){1}) == -2.0);
    assert_true(kj_array_get_f64(a, (int64_t[]){2}) == 3.25);
    kj_array_release(a);
    a = load_fixture("be_i4.npy");
    assert_int_equal(a->dtype, KJ_DT_INT32);
    assert_int_equal(kj_array_get_i64(a, (int64_t[]){1}), -2);
    assert_int_equal(kj_array_get_i64(a, (int64_t[]){2}), 70000);
    kj_array_release(a);
}

static void test_load_versions(void **state)
{
    (void)state;
    kj_array *a = load_fixture("f8_v2.npy");
    assert_true(kj_array_get_f64(a, (int64_t[]){1}) == 2.0);
    kj_array_release(a);
    a = load_fixture("f8_v3.npy");
    assert_true(kj_array_get_f64(a, (int64_t[]){0}) == 3.0);
    kj_array_release(a);
}

/* --- errors --------------------------------------------------------------- */

static void test_load_errors(void **state)
{
    (void)state;
    assert_load_error(tmp_path("missing.npy"), "FileNotFoundError", "No such file or directory");
    assert_load_error(data_path("c16.npy"), "ValueError", "unsupported dtype '<c16'");
    assert_load_error(data_path("obj.npy"), "ValueError", "object arrays cannot be loaded");

    write_file(tmp_path("text.npy"), "hello, world\n", 13);
    assert_load_error(tmp_path("text.npy"), "ValueError", "not an .npy file");

    /* a valid file cut short inside the data */
    size_t n;
    char *bytes = read_file(data_path("f8_1d.npy"), &n);
    write_file(tmp_path("short.npy"), bytes, n - 3);
    assert_load_error(tmp_path("short.npy"), "ValueError",
                      "truncated data: expected 40 bytes, found 37");
    /* ... and inside the header */
    write_file(tmp_path("shorthdr.npy"), bytes, 40);
    assert_load_error(tmp_path("shorthdr.npy"), "ValueError", "truncated header");
    free(bytes);
    /* a header shorter than its length says, read for its type only (the
     * compiler's np.load): once freed twice (issue 13), also at 60000 */
    static const char cut[] = "\x93NUMPY\x01\x00\xff\x00{";
    static const char cut60k[] = "\x93NUMPY\x01\x00\x60\xea{";
    const char *files[2] = {cut, cut60k};
    for (int k = 0; k < 2; k++) {
        write_file(tmp_path("cut.npy"), files[k], sizeof cut - 1);
        kj_dtype dt;
        bool fortran;
        int ndim;
        int64_t shape[KJ_MAX_DIMS];
        kj_rt_error e = {0};
        assert_false(kj_npy_read_info(tmp_path("cut.npy"), &dt, &fortran, &ndim, shape, &e));
        assert_non_null(strstr(e.message, "truncated header"));
        assert_load_error(tmp_path("cut.npy"), "ValueError", "truncated header");
    }
    /* a version-2 header claiming 3 GB */
    static const char huge[] = "\x93NUMPY\x02\x00\x00\x00\x00\xc0{";
    write_file(tmp_path("huge.npy"), huge, sizeof huge - 1);
    assert_load_error(tmp_path("huge.npy"), "ValueError", "header too large (3221225472 bytes)");
}

/* A header announcing more data than the file holds is refused before any
 * allocation (the fuzz target runs under a 2 GB malloc limit), from a file
 * and from memory; a valid file loads from memory as from its path. */
static void test_load_mem_and_oversized_shape(void **state)
{
    (void)state;
    size_t n;
    char *bytes = read_file(data_path("f8_1d.npy"), &n);
    kj_rt_error e = {0};
    kj_array *a = kj_npy_load_mem(bytes, n, &e), *b = kj_npy_load(data_path("f8_1d.npy"), &e);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->ndim, 1);
    assert_int_equal(a->shape[0], b->shape[0]);
    assert_memory_equal(a->data, b->data, (size_t)kj_array_size(a) * 8);
    kj_array_release(a);
    kj_array_release(b);
    assert_null(kj_npy_load_mem(bytes, n - 3, &e));
    assert_string_equal(e.message, "truncated data: expected 40 bytes, found 37");
    assert_null(kj_npy_load_mem(bytes, 3, &e));
    assert_non_null(strstr(e.message, "not an .npy file"));
    free(bytes);

    /* 10^12 float64 (8 TB), and a shape whose byte size overflows int64 */
    static const char *const dicts[2] = {
        "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }",
        "{'descr': '<f8', 'fortran_order': True, 'shape': (4294967296, 4294967296), }",
    };
    static const char *const want[2] = {
        "truncated data: expected 8000000000000 bytes, found 4",
        "truncated data: the shape needs more than the 4 bytes left",
    };
    for (int k = 0; k < 2; k++) {
        char file[256];
        size_t hl = strlen(dicts[k]);
        memcpy(file, "\x93NUMPY\x01\x00", 8);
        file[8] = (char)hl;
        file[9] = 0;
        memcpy(file + 10, dicts[k], hl);
        memcpy(file + 10 + hl, "abcd", 4); /* 4 bytes of "data" */
        assert_null(kj_npy_load_mem(file, 14 + hl, &e));
        assert_string_equal(e.message, want[k]);
        write_file(tmp_path("bigshape.npy"), file, 14 + hl);
        assert_null(kj_npy_load(tmp_path("bigshape.npy"), &e));
        assert_non_null(strstr(e.message, tmp_path("bigshape.npy")));
        assert_non_null(strstr(e.message, want[k]));
    }
}

static void test_parse_header(void **state)
{
    (void)state;
    kj_dtype dt;
    bool swap = false, fortran = true;
    int nd = -1;
    int64_t shape[KJ_MAX_DIMS];
    kj_rt_error err = {0};
    const char *h = "{'descr': '<u4', 'fortran_order': False, 'shape': (2, 3L, 4), }   \n";
    assert_true(kj_npy_parse_header(h, strlen(h), &dt, &swap, &fortran, &nd, shape, &err));
    assert_int_equal(dt, KJ_DT_UINT32);
    assert_false(swap);
    assert_false(fortran);
    assert_int_equal(nd, 3);
    assert_int_equal(shape[1], 3);
    h = "{\"shape\": (), \"fortran_order\": True, \"descr\": \">i8\"}";
    assert_true(kj_npy_parse_header(h, strlen(h), &dt, &swap, &fortran, &nd, shape, &err));
    assert_int_equal(dt, KJ_DT_INT64);
    assert_true(swap && fortran);
    assert_int_equal(nd, 0);

    static const struct { const char *hdr, *msg; } bad[] = {
        {"{'descr': '<f8', 'shape': (3,), }", "missing key 'fortran_order'"},
        {"{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (3,)}",
         "structured dtypes are not supported"},
        {"{'descr': '<f16', 'fortran_order': False, 'shape': (3,)}", "unsupported dtype '<f16'"},
        {"{'descr': '<f8', 'fortran_order': 0, 'shape': (3,)}", "not True or False"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (-3,)}", "bad shape"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (3,), 'x': 1}", "unexpected key 'x'"},
        {"['descr']", "expected '{'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.message[0] = 0;
        assert_false(kj_npy_parse_header(bad[i].hdr, strlen(bad[i].hdr), &dt, &swap, &fortran,
                                         &nd, shape, &err));
        if (!strstr(err.message, bad[i].msg))
            fprintf(stderr, "%s -> %s\n", bad[i].hdr, err.message);
        assert_non_null(strstr(err.message, bad[i].msg));
    }
}

/* --- saving ----------------------------------------------------------------- */

/* kjit writes the same bytes as np.save for the same array. */
static void test_save_identical_to_numpy(void **state)
{
    (void)state;
    static const char *names[] = {"f8_1d.npy", "f4_2d.npy", "i8_3d.npy", "i4_fortran.npy",
                                  "b1.npy", "u1.npy", "u2_4d.npy", "i2_0d.npy", "f8_empty.npy"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        kj_array *a = load_fixture(names[i]);
        kj_rt_error err = {0};
        assert_true(kj_npy_save(tmp_path(names[i]), a, &err));
        assert_same_file(tmp_path(names[i]), data_path(names[i]));
        kj_array_release(a);
    }
}

static void test_save_round_trip_views(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    kj_array *base = kj_array_arange_i64(0, 12, 1, KJ_DT_INT64, &err);
    kj_array *m = kj_array_reshape(base, 2, (int64_t[]){3, 4}, &err);
    kj_index ix[2] = {{.kind = KJ_IDX_SLICE, .step = -1}, {.kind = KJ_IDX_SLICE, .step = 2}};
    kj_array *v = kj_array_view(m, ix, 2, &err); /* m[::-1, ::2] */
    assert_non_null(v);
    assert_true(kj_npy_save(tmp_path("strided.npy"), v, &err));
    kj_array *r = kj_npy_load(tmp_path("strided.npy"), &err);
    assert_non_null(r);
    assert_int_equal(r->shape[0], 3);
    assert_int_equal(r->shape[1], 2);
    assert_true(kj_array_is_c_contiguous(r));
    static const int64_t want[3][2] = {{8, 10}, {4, 6}, {0, 2}};
    for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 2; j++)
            assert_int_equal(kj_array_get_i64(r, (int64_t[]){i, j}), want[i][j]);
    kj_array_release(r);
    kj_array_release(v);
    kj_array_release(m);
    kj_array_release(base);
}

static void test_save_appends_extension_and_leaves_no_temp(void **state)
{
    (void)state;
    kj_rt_error err = {0};
    int8_t v[3] = {1, 2, 3};
    kj_array *a = kj_array_wrap(v, KJ_DT_INT8, 1, (int64_t[]){3}, NULL, &err);
    assert_true(kj_npy_save(tmp_path("noext"), a, &err));
    assert_int_equal(access(tmp_path("noext.npy"), R_OK), 0);
    assert_int_not_equal(access(tmp_path("noext"), F_OK), 0);
    /* only the saved files exist: no temporaries left behind */
    DIR *d = opendir(tmpdir);
    struct dirent *e;
    while ((e = readdir(d))) assert_null(strstr(e->d_name, ".tmp"));
    closedir(d);
    /* a directory that does not exist: an error naming the path */
    assert_false(kj_npy_save("/nonexistent-kjit-dir/x.npy", a, &err));
    assert_non_null(strstr(err.message, "cannot save '/nonexistent-kjit-dir/x.npy'"));
    assert_non_null(strstr(err.message, "No such file or directory"));
    kj_array_release(a);
}

/* Write the files npy_numpy_check.py expects. */
static void write_numpy_check_files(void)
{
    kj_rt_error err = {0};
    kj_array *a = kj_array_arange(0, 6, 1, KJ_DT_FLOAT64, &err);
    kj_array *q = kj_array_full(KJ_DT_FLOAT64, 1, (int64_t[]){1}, kj_scalar_f64(4), &err);
    kj_array *d = kj_array_binop(KJ_AOP_DIV, a, q, &err);
    kj_array *f8 = kj_array_reshape(d, 2, (int64_t[]){2, 3}, &err);
    assert_true(kj_npy_save(tmp_path("f8.npy"), f8, &err));
    kj_array_release(f8), kj_array_release(d), kj_array_release(q), kj_array_release(a);

    int32_t fd[6] = {0, 1, 2, 3, 4, 5};
    a = kj_array_wrap(fd, KJ_DT_INT32, 2, (int64_t[]){2, 3}, (int64_t[]){4, 8}, &err);
    assert_true(kj_npy_save(tmp_path("i4_fortran.npy"), a, &err));
    kj_array_release(a);

    kj_array *base = kj_array_arange_i64(0, 12, 1, KJ_DT_INT64, &err);
    kj_array *m = kj_array_reshape(base, 2, (int64_t[]){3, 4}, &err);
    kj_index ix[2] = {{.kind = KJ_IDX_SLICE, .step = -1}, {.kind = KJ_IDX_SLICE, .step = 2}};
    kj_array *v = kj_array_view(m, ix, 2, &err);
    assert_true(kj_npy_save(tmp_path("strided.npy"), v, &err));
    kj_array_release(v), kj_array_release(m), kj_array_release(base);

    bool b[3] = {true, false, true};
    a = kj_array_wrap(b, KJ_DT_BOOL, 1, (int64_t[]){3}, NULL, &err);
    assert_true(kj_npy_save(tmp_path("b1.npy"), a, &err));
    kj_array_release(a);
    uint64_t u[2] = {0, UINT64_MAX};
    a = kj_array_wrap(u, KJ_DT_UINT64, 1, (int64_t[]){2}, NULL, &err);
    assert_true(kj_npy_save(tmp_path("u8.npy"), a, &err));
    kj_array_release(a);
    float f[4] = {NAN, INFINITY, -0.0f, 1e-45f};
    a = kj_array_wrap(f, KJ_DT_FLOAT32, 1, (int64_t[]){4}, NULL, &err);
    assert_true(kj_npy_save(tmp_path("f4_nan.npy"), a, &err));
    kj_array_release(a);
    a = kj_array_full(KJ_DT_INT16, 0, NULL, kj_scalar_i64(-7), &err);
    assert_true(kj_npy_save(tmp_path("i2_0d.npy"), a, &err));
    kj_array_release(a);
    a = kj_array_zeros(KJ_DT_FLOAT32, 2, (int64_t[]){0, 3}, &err);
    assert_true(kj_npy_save(tmp_path("empty.npy"), a, &err));
    kj_array_release(a);
    int8_t i8[3] = {1, 2, 3};
    a = kj_array_wrap(i8, KJ_DT_INT8, 1, (int64_t[]){3}, NULL, &err);
    assert_true(kj_npy_save(tmp_path("noext"), a, &err));
    kj_array_release(a);
}

/* NumPy itself loads what kjit wrote (skipped without python3 + numpy). */
static void test_numpy_loads_kjit_files(void **state)
{
    (void)state;
    static const char *pythons[] = {"python3", "/usr/bin/python3"};
    const char *py = NULL;
    for (size_t i = 0; i < 2 && !py; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "%s -c 'import numpy' >/dev/null 2>&1", pythons[i]);
        if (system(cmd) == 0) py = pythons[i];
    }
    if (!py) {
        skip();
        return;
    }
    write_numpy_check_files();
    char cmd[2 * PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, "%s '%s/npy_numpy_check.py' '%s'", py, src_dir(), tmpdir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_f8),
        cmocka_unit_test(test_load_shapes_and_types),
        cmocka_unit_test(test_load_fortran),
        cmocka_unit_test(test_load_big_endian),
        cmocka_unit_test(test_load_versions),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_parse_header),
        cmocka_unit_test(test_save_identical_to_numpy),
        cmocka_unit_test(test_load_mem_and_oversized_shape),
        cmocka_unit_test(test_save_round_trip_views),
        cmocka_unit_test(test_save_appends_extension_and_leaves_no_temp),
        cmocka_unit_test(test_numpy_loads_kjit_files),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
