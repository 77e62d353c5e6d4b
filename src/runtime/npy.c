/* SPDX-License-Identifier: BSD-2-Clause */
/* .npy load/save, after NumPy's numpy/lib/format.py (format versions 1.0,
 * 2.0, 3.0; see the NEP 1 description of the format). */
#include "npy.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NPY_MAGIC "\x93NUMPY"
enum { MAGIC_LEN = 8, ARRAY_ALIGN = 64, GROWTH_AXIS_MAX_DIGITS = 21 };
/* NumPy writes headers of a few hundred bytes; a larger length is a damaged
 * file, not a reason to allocate gigabytes. */
enum { MAX_HEADER = 1 << 20 };

/* ------------------------------------------------------------------------ */
/* Header parsing                                                            */
/* ------------------------------------------------------------------------ */

/* A cursor over the header text, a Python dict literal. */
typedef struct {
    const char *s, *end;
    kj_rt_error *err;
} hparser;

static void skip_ws(hparser *p)
{
    while (p->s < p->end && isspace((unsigned char)*p->s)) p->s++;
}

static bool accept(hparser *p, char c)
{
    skip_ws(p);
    if (p->s < p->end && *p->s == c) {
        p->s++;
        return true;
    }
    return false;
}

static bool expect(hparser *p, char c)
{
    if (accept(p, c)) return true;
    return kj_rt_errorf(p->err, "ValueError", "malformed header: expected '%c'", c);
}

/* string := '...' | "..." (no escapes: NumPy's descr and key strings) */
static bool parse_str(hparser *p, char *out, size_t cap)
{
    skip_ws(p);
    if (p->s >= p->end || (*p->s != '\'' && *p->s != '"'))
        return kj_rt_errorf(p->err, "ValueError", "malformed header: expected a string");
    char q = *p->s++;
    size_t n = 0;
    while (p->s < p->end && *p->s != q) {
        if (n + 1 < cap) out[n++] = *p->s;
        p->s++;
    }
    out[n] = 0;
    if (p->s >= p->end)
        return kj_rt_errorf(p->err, "ValueError", "malformed header: unterminated string");
    p->s++;
    return true;
}

/* tuple := '(' [int (',' int)* [',']] ')'; ints may carry Python 2's 'L' */
static bool parse_shape(hparser *p, int *ndim, int64_t *shape)
{
    if (!expect(p, '(')) return false;
    int n = 0;
    while (!accept(p, ')')) {
        skip_ws(p);
        if (n >= KJ_MAX_DIMS)
            return kj_rt_errorf(p->err, "ValueError",
                                "arrays of more than %d dimensions are not supported",
                                KJ_MAX_DIMS);
        if (p->s >= p->end || !isdigit((unsigned char)*p->s))
            return kj_rt_errorf(p->err, "ValueError", "malformed header: bad shape");
        int64_t v = 0;
        while (p->s < p->end && isdigit((unsigned char)*p->s)) {
            if (v > (INT64_MAX - 9) / 10)
                return kj_rt_errorf(p->err, "ValueError", "malformed header: shape too large");
            v = v * 10 + (*p->s++ - '0');
        }
        if (p->s < p->end && (*p->s == 'L' || *p->s == 'l')) p->s++;
        shape[n++] = v;
        if (!accept(p, ',')) {
            if (!expect(p, ')')) return false;
            break;
        }
    }
    *ndim = n;
    return true;
}

static bool parse_bool(hparser *p, bool *out)
{
    skip_ws(p);
    size_t left = (size_t)(p->end - p->s);
    if (left >= 4 && !strncmp(p->s, "True", 4)) {
        p->s += 4;
        *out = true;
        return true;
    }
    if (left >= 5 && !strncmp(p->s, "False", 5)) {
        p->s += 5;
        *out = false;
        return true;
    }
    return kj_rt_errorf(p->err, "ValueError",
                        "malformed header: fortran_order is not True or False");
}

/* descr := byte-order char ('<' '>' '|' '=') + kind + itemsize, e.g. "<f8". */
static bool parse_descr(const char *d, kj_dtype *dt, bool *byteswap, kj_rt_error *err)
{
    char order = d[0];
    if (order != '<' && order != '>' && order != '|' && order != '=')
        return kj_rt_errorf(err, "ValueError", "unsupported dtype '%s'", d);
    char kind = d[1];
    if (kind == 'O') return kj_rt_errorf(err, "ValueError", "object arrays cannot be loaded");
    int size = atoi(d + 2);
    static const struct { char kind; int size; kj_dtype dt; } map[] = {
        {'b', 1, KJ_DT_BOOL},   {'i', 1, KJ_DT_INT8},     {'i', 2, KJ_DT_INT16},
        {'i', 4, KJ_DT_INT32},  {'i', 8, KJ_DT_INT64},    {'u', 1, KJ_DT_UINT8},
        {'u', 2, KJ_DT_UINT16}, {'u', 4, KJ_DT_UINT32},   {'u', 8, KJ_DT_UINT64},
        {'f', 2, KJ_DT_FLOAT16}, {'f', 4, KJ_DT_FLOAT32}, {'f', 8, KJ_DT_FLOAT64},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        char digits[8];
        snprintf(digits, sizeof digits, "%d", map[i].size);
        if (map[i].kind == kind && map[i].size == size && !strcmp(d + 2, digits)) {
            *dt = map[i].dt;
            *byteswap = order == '>' && size > 1;
            return true;
        }
    }
    return kj_rt_errorf(err, "ValueError", "unsupported dtype '%s'", d);
}

/* header := '{' (key ':' value ',')* '}' with keys descr, fortran_order and
 * shape, each exactly once (NumPy rejects other keys). */
bool kj_npy_parse_header(const char *hdr, size_t len, kj_dtype *dt, bool *byteswap,
                         bool *fortran, int *ndim, int64_t *shape, kj_rt_error *err)
{
    hparser p = {hdr, hdr + len, err};
    bool seen[3] = {false, false, false};
    if (!expect(&p, '{')) return false;
    while (!accept(&p, '}')) {
        char key[32], descr[64];
        if (!parse_str(&p, key, sizeof key) || !expect(&p, ':')) return false;
        if (!strcmp(key, "descr")) {
            skip_ws(&p);
            if (p.s < p.end && *p.s == '[')
                return kj_rt_errorf(err, "ValueError", "structured dtypes are not supported");
            if (!parse_str(&p, descr, sizeof descr) || !parse_descr(descr, dt, byteswap, err))
                return false;
            seen[0] = true;
        } else if (!strcmp(key, "fortran_order")) {
            if (!parse_bool(&p, fortran)) return false;
            seen[1] = true;
        } else if (!strcmp(key, "shape")) {
            if (!parse_shape(&p, ndim, shape)) return false;
            seen[2] = true;
        } else {
            return kj_rt_errorf(err, "ValueError", "malformed header: unexpected key '%s'", key);
        }
        if (!accept(&p, ',')) {
            if (!expect(&p, '}')) return false;
            break;
        }
    }
    if (!seen[0] || !seen[1] || !seen[2])
        return kj_rt_errorf(err, "ValueError", "malformed header: missing key '%s'",
                            !seen[0] ? "descr" : !seen[1] ? "fortran_order" : "shape");
    return true;
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                   */
/* ------------------------------------------------------------------------ */

static void byteswap_all(char *data, int64_t n, size_t isz)
{
    for (int64_t i = 0; i < n; i++) {
        char *e = data + i * (int64_t)isz;
        for (size_t j = 0; j < isz / 2; j++) {
            char t = e[j];
            e[j] = e[isz - 1 - j];
            e[isz - 1 - j] = t;
        }
    }
}

/* Read the magic, version and header; leave f at the data. */
static bool read_header(FILE *f, char **hdr, size_t *hlen, kj_rt_error *err)
{
    unsigned char pre[MAGIC_LEN];
    if (fread(pre, 1, MAGIC_LEN, f) != MAGIC_LEN || memcmp(pre, NPY_MAGIC, 6))
        return kj_rt_errorf(err, "ValueError", "not an .npy file (no \\x93NUMPY magic string)");
    int major = pre[6];
    if (major < 1 || major > 3)
        return kj_rt_errorf(err, "ValueError",
                            "unsupported .npy format version %d.%d", major, pre[7]);
    unsigned char lb[4] = {0};
    size_t nlen = major == 1 ? 2 : 4;
    if (fread(lb, 1, nlen, f) != nlen) return kj_rt_errorf(err, "ValueError", "truncated header");
    *hlen = (size_t)lb[0] | (size_t)lb[1] << 8 | (size_t)lb[2] << 16 | (size_t)lb[3] << 24;
    if (*hlen > MAX_HEADER) return kj_rt_errorf(err, "ValueError", "header too large (%zu bytes)", *hlen);
    *hdr = malloc(*hlen + 1);
    if (!*hdr) return kj_rt_errorf(err, "ValueError", "header too large");
    if (fread(*hdr, 1, *hlen, f) != *hlen) {
        free(*hdr);
        *hdr = NULL; /* the callers free it too */
        return kj_rt_errorf(err, "ValueError", "truncated header");
    }
    (*hdr)[*hlen] = 0;
    return true;
}

/* Bytes left in f after the current position, or -1 where f cannot seek
 * (a pipe): then the data is simply read until it runs out. */
static int64_t bytes_left(FILE *f)
{
    long here = ftell(f);
    if (here < 0 || fseek(f, 0, SEEK_END) != 0) return -1;
    long end = ftell(f);
    if (fseek(f, here, SEEK_SET) != 0 || end < here) return -1;
    return (int64_t)(end - here);
}

/* The payload size of a header's dtype and shape, or false when it cannot
 * be in the file: a damaged header must not make the loader allocate what
 * the file does not hold (a shape of 10^12 elements in a 100-byte file). */
static bool payload_fits(FILE *f, kj_dtype dt, int ndim, const int64_t *shape, kj_rt_error *err)
{
    int64_t left = bytes_left(f);
    if (left < 0) return true;
    uint64_t want = kj_dtype_size(dt);
    bool huge = false; /* the size overflows: say only that the file is short */
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0) return true;
        if (want > (uint64_t)INT64_MAX / (uint64_t)shape[i]) huge = true;
        else want *= (uint64_t)shape[i];
    }
    if (huge)
        return kj_rt_errorf(err, "ValueError",
                            "truncated data: the shape needs more than the %lld bytes left",
                            (long long)left);
    if (want <= (uint64_t)left) return true;
    return kj_rt_errorf(err, "ValueError", "truncated data: expected %llu bytes, found %lld",
                        (unsigned long long)want, (long long)left);
}

/* Load from an open file; errors without the path (the caller adds it). */
static kj_array *load_file(FILE *f, kj_rt_error *err)
{
    char *hdr = NULL;
    size_t hlen = 0;
    if (!read_header(f, &hdr, &hlen, err)) return NULL;
    kj_dtype dt;
    bool swap = false, fortran = false;
    int ndim = 0;
    int64_t shape[KJ_MAX_DIMS];
    bool ok = kj_npy_parse_header(hdr, hlen, &dt, &swap, &fortran, &ndim, shape, err);
    free(hdr);
    if (!ok || !payload_fits(f, dt, ndim, shape, err)) return NULL;
    int64_t rev[KJ_MAX_DIMS];
    for (int i = 0; i < ndim; i++) rev[i] = shape[ndim - 1 - i];
    /* Fortran order: a C array of the reversed shape, transposed */
    kj_array *a = kj_array_empty(dt, ndim, fortran ? rev : shape, err);
    if (!a) return NULL;
    size_t isz = kj_dtype_size(dt), want = (size_t)kj_array_size(a) * isz;
    size_t got = fread(a->data, 1, want, f);
    if (got != want) {
        kj_rt_errorf(err, "ValueError", "truncated data: expected %zu bytes, found %zu", want, got);
        kj_array_release(a);
        return NULL;
    }
    if (swap) byteswap_all(a->data, kj_array_size(a), isz);
    if (fortran) {
        int64_t st[KJ_MAX_DIMS];
        for (int i = 0; i < ndim; i++) st[i] = a->strides[ndim - 1 - i];
        memcpy(a->shape, shape, (size_t)ndim * sizeof shape[0]);
        memcpy(a->strides, st, (size_t)ndim * sizeof st[0]);
        kj_array_update_flags(a);
    }
    return a;
}

kj_array *kj_npy_load_mem(const void *data, size_t size, kj_rt_error *err)
{
    if (size < MAGIC_LEN) {
        kj_rt_errorf(err, "ValueError", "not an .npy file (no \\x93NUMPY magic string)");
        return NULL;
    }
    /* read-only ("rb"): fmemopen never writes through the cast */
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f) {
        kj_rt_errorf(err, "OSError", "%s", strerror(errno));
        return NULL;
    }
    kj_array *a = load_file(f, err);
    fclose(f);
    return a;
}

bool kj_npy_read_info(const char *path, kj_dtype *dt, bool *fortran, int *ndim, int64_t *shape,
                      kj_rt_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return kj_rt_errorf(err, errno == ENOENT ? "FileNotFoundError" : "OSError",
                            "cannot load '%s': %s", path, strerror(errno));
    char *hdr = NULL;
    size_t hlen = 0;
    kj_rt_error e = {0};
    bool swap = false;
    bool ok = read_header(f, &hdr, &hlen, &e) &&
              kj_npy_parse_header(hdr, hlen, dt, &swap, fortran, ndim, shape, &e);
    free(hdr);
    fclose(f);
    if (!ok) kj_rt_errorf(err, e.exc, "cannot load '%s': %s", path, e.message);
    return ok;
}

kj_array *kj_npy_load(const char *path, kj_rt_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        kj_rt_errorf(err, errno == ENOENT ? "FileNotFoundError" : "OSError",
                     "cannot load '%s': %s", path, strerror(errno));
        return NULL;
    }
    kj_rt_error e = {0};
    kj_array *a = load_file(f, &e);
    fclose(f);
    if (!a) kj_rt_errorf(err, e.exc, "cannot load '%s': %s", path, e.message);
    return a;
}

/* ------------------------------------------------------------------------ */
/* Saving                                                                    */
/* ------------------------------------------------------------------------ */

/* The header np.save writes: the dict with sorted keys and Python reprs,
 * spare spaces so the growth axis can be rewritten in place, then padding
 * to a multiple of 64 bytes ending in '\n' (format._wrap_header). */
static size_t build_header(const kj_array *a, bool fortran, char *out, size_t cap)
{
    char dict[512];
    size_t n = (size_t)snprintf(dict, sizeof dict,
                                "{'descr': '%s', 'fortran_order': %s, 'shape': (",
                                kj_dtype_descr(a->dtype), fortran ? "True" : "False");
    for (int i = 0; i < a->ndim; i++)
        n += (size_t)snprintf(dict + n, sizeof dict - n, i ? ", %lld" : "%lld",
                              (long long)a->shape[i]);
    n += (size_t)snprintf(dict + n, sizeof dict - n, a->ndim == 1 ? ",), }" : "), }");
    if (a->ndim > 0) {
        char growth[32];
        int gl = snprintf(growth, sizeof growth, "%lld",
                          (long long)a->shape[fortran ? a->ndim - 1 : 0]);
        for (int i = gl; i < GROWTH_AXIS_MAX_DIGITS; i++) dict[n++] = ' ';
    }
    /* version 1.0 (a 2-byte length) always suffices: the dict is < 400 bytes */
    size_t hlen = n + 1;
    size_t pad = ARRAY_ALIGN - ((MAGIC_LEN + 2 + hlen) % ARRAY_ALIGN);
    size_t total = hlen + pad, k = 0;
    if (cap < MAGIC_LEN + 2 + total) return 0;
    memcpy(out, NPY_MAGIC, 6);
    out[6] = 1;
    out[7] = 0;
    k = MAGIC_LEN;
    out[k++] = (char)(total & 0xff);
    out[k++] = (char)(total >> 8);
    memcpy(out + k, dict, n);
    k += n;
    memset(out + k, ' ', pad);
    k += pad;
    out[k++] = '\n';
    return k;
}

static bool write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* The file `path` names, following symbolic links (relative ones from the
 * link's directory) into out: np.save, like Python's open(), writes through
 * a link, and renaming onto the link itself would replace it. The last
 * link may dangle: the file it names is made. False with errno set (ELOOP
 * after 40 links, as the kernel). */
static bool resolve_links(const char *path, char *out, size_t cap)
{
    if ((size_t)snprintf(out, cap, "%s", path) >= cap) return errno = ENAMETOOLONG, false;
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(out, &st) != 0 || !S_ISLNK(st.st_mode)) return true; /* a file, or none yet */
        char target[4096];
        ssize_t n = readlink(out, target, sizeof target - 1);
        if (n < 0) return false;
        if ((size_t)n >= sizeof target - 1) return errno = ENAMETOOLONG, false;
        target[n] = 0;
        char *slash = strrchr(out, '/');
        size_t dir = target[0] == '/' || !slash ? 0 : (size_t)(slash - out) + 1; /* keeps the '/' */
        if (dir + (size_t)n >= cap) return errno = ENAMETOOLONG, false;
        memcpy(out + dir, target, (size_t)n + 1);
    }
    errno = ELOOP;
    return false;
}

/* Create a fresh temporary file beside `path` with the mode of the file it
 * replaces, else 0666 less umask, as a plain open would give. */
static int open_temp(const char *path, char *tmp, size_t cap)
{
    struct stat st;
    bool keep_mode = stat(path, &st) == 0 && S_ISREG(st.st_mode);
    for (unsigned n = 0; n < 1000; n++) {
        if ((size_t)snprintf(tmp, cap, "%s.tmp%ld.%u", path, (long)getpid(), n) >= cap) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 && keep_mode) (void)!fchmod(fd, st.st_mode & 07777); /* best effort, as cp */
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

static bool save_to(const char *path, const kj_array *a, kj_rt_error *err)
{
    bool fortran = !kj_array_is_c_contiguous(a) && (a->flags & KJ_ARR_F_CONTIGUOUS);
    kj_array *c = NULL;
    if (!kj_array_is_c_contiguous(a) && !fortran) {
        if (!(c = kj_array_copy(a, err))) return false;
        a = c;
    }
    char hdr[1024];
    size_t hl = build_header(a, fortran, hdr, sizeof hdr);
    char tmp[4096], file[4096];
    int fd = resolve_links(path, file, sizeof file) ? open_temp(file, tmp, sizeof tmp) : -1;
    path = file;
    if (fd < 0) {
        kj_array_release(c);
        return kj_rt_errorf(err, "OSError", "%s", strerror(errno));
    }
    size_t nbytes = (size_t)kj_array_size(a) * kj_array_itemsize(a);
    const char *lo = a->data; /* contiguous: the lowest address starts the data */
    bool ok = write_all(fd, hdr, hl) && write_all(fd, lo, nbytes);
    int saved = errno;
    if (close(fd) != 0 && ok) ok = false, saved = errno;
    if (ok && rename(tmp, path) != 0) ok = false, saved = errno;
    if (!ok) unlink(tmp);
    kj_array_release(c);
    return ok ? true : kj_rt_errorf(err, "OSError", "%s", strerror(saved));
}

bool kj_npy_save(const char *path, const kj_array *a, kj_rt_error *err)
{
    size_t n = strlen(path);
    char full[4096];
    if (n + 5 > sizeof full)
        return kj_rt_errorf(err, "OSError", "cannot save '%s': path too long", path);
    snprintf(full, sizeof full, "%s%s", path,
             (n >= 4 && !strcmp(path + n - 4, ".npy")) ? "" : ".npy");
    kj_rt_error e = {0};
    if (!save_to(full, a, &e))
        return kj_rt_errorf(err, e.exc, "cannot save '%s': %s", full, e.message);
    return true;
}

bool kj_npy_header_info(const char *path, const char **dtype, bool *fortran, int *ndim, int64_t shape[8],
                        char *err, size_t cap)
{
    kj_dtype dt;
    kj_rt_error e = {0};
    if (!kj_npy_read_info(path, &dt, fortran, ndim, shape, &e)) {
        snprintf(err, cap, "%s", e.message);
        return false;
    }
    *dtype = kj_dtype_name(dt);
    return true;
}
