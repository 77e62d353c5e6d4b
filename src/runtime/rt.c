/* Run-time entry points of JIT-compiled host code: the error mechanism
 * (setjmp in kj_rt_call_entry, longjmp in kj_rt_raise*) and small helpers
 * that are simpler in C than as generated IR. */
#include "rt.h"
#include "rt_host.h"
#include "gpu.h"

#include "../abi/abi.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

static const char *const kind_names[KJ_RT__COUNT] = {
    [KJ_RT_OK] = "no error",
    [KJ_RT_ZERO_DIVISION] = "ZeroDivisionError",
    [KJ_RT_INDEX] = "IndexError",
    [KJ_RT_ASSERTION] = "AssertionError",
    [KJ_RT_VALUE] = "ValueError",
    [KJ_RT_OVERFLOW] = "OverflowError",
    [KJ_RT_MEMORY] = "MemoryError",
    [KJ_RT_RUNTIME] = "RuntimeError",
    [KJ_RT_TYPE] = "TypeError",
    [KJ_RT_OS] = "OSError",
    [KJ_RT_FILE_NOT_FOUND] = "FileNotFoundError",
};

void kj_rt_init(kj_rt *rt, const char *file)
{
    /* all but the random stream's state (2.5 KB, unread until seeded):
     * a launch through the C API makes a context each time */
    size_t rng = offsetof(kj_rt, rng), after = rng + sizeof rt->rng;
    memset(rt, 0, rng);
    memset((char *)rt + after, 0, sizeof *rt - after);
    rt->file = file;
    rt->out = stdout;
}

/* cuda.event() on the host: the perf_counter time of its last record(). */
struct kj_rt_event {
    double t;
    bool recorded;
    void *cu; /* its CUevent when the context has a GPU */
    kj_rt_event *next;
};

/* Release every registered array and event (the end of a run). */
static void release_all(kj_rt *rt)
{
    for (size_t k = rt->narrays; k-- > 0;) kj_array_release(rt->arrays[k]);
    free(rt->arrays);
    rt->arrays = NULL;
    rt->narrays = rt->cap_arrays = 0;
    for (size_t k = 0; k < rt->nstreams; k++) kj_gpu_stream_free(rt->gpu, rt->streams[k]);
    free(rt->streams);
    rt->streams = NULL;
    rt->nstreams = rt->cap_streams = 0;
    while (rt->events) {
        kj_rt_event *e = rt->events;
        rt->events = e->next;
        if (e->cu) kj_gpu_event_free(rt->gpu, e->cu);
        free(e);
    }
}

void kj_rt_dispose(kj_rt *rt) { release_all(rt); }

kj_rt_event *kj_rt_event_alloc(kj_rt *rt)
{
    kj_rt_event *e = calloc(1, sizeof *e);
    if (!e) {
        fputs("kjit: out of memory\n", stderr);
        abort();
    }
    e->next = rt->events;
    rt->events = e;
    if (rt->gpu) e->cu = kj_gpu_event_new(rt->gpu);
    return e;
}

void *kj_rt_event_cu(const kj_rt_event *e) { return e ? e->cu : NULL; }

void kj_rt_event_set(kj_rt_event *e, double t)
{
    e->t = t;
    e->recorded = true;
}

bool kj_rt_event_get(const kj_rt_event *e, double *t)
{
    *t = e ? e->t : 0;
    return e && e->recorded;
}

const char *kj_rt_kind_name(kj_rt_kind kind)
{
    return (unsigned)kind < KJ_RT__COUNT ? kind_names[kind] : "RuntimeError";
}

/* The end of an entry call: the outermost one releases the run's arrays
 * and flushes the output. */
static void leave(kj_rt *rt)
{
    if (--rt->depth > 0) return;
    release_all(rt);
    if (rt->out) fflush(rt->out);
}

/* The setjmp side. `fn` runs with rt->jb pointing at this frame's jmp_buf;
 * the previous one is restored on the way out, so entries may nest. Nothing
 * in this frame changes between setjmp and a longjmp back, so no local needs
 * to be volatile except the saved pointer, which is read after the jump. */
KJ_CALLS_JIT kj_rt_kind kj_rt_call_entry(kj_rt *rt, kj_entry_fn fn, void **args, void *ret)
{
    jmp_buf jb;
    jmp_buf *volatile saved = rt->jb;
    rt->kind = KJ_RT_OK;
    rt->depth++;
    if (setjmp(jb)) {
        rt->jb = saved;
        leave(rt);
        return rt->kind != KJ_RT_OK ? rt->kind : KJ_RT_RUNTIME;
    }
    rt->jb = &jb;
    fn(rt, args, ret);
    /* A fault of the run's last kernels is the run's error: wait for them
     * while an error can still be raised. */
    if (rt->depth == 1 && rt->gpu && !rt->async_gpu) kj_rt_cuda_sync(rt, 0, 0);
    rt->jb = saved;
    leave(rt);
    return KJ_RT_OK;
}

char *kj_rt_format_error(const kj_rt *rt, char *buf, size_t cap)
{
    int n = 0;
    if (rt->file && rt->line > 0)
        n = snprintf(buf, cap, "%s:%d:%d: ", rt->file, (int)rt->line, (int)rt->col);
    else if (rt->line > 0)
        n = snprintf(buf, cap, "line %d:%d: ", (int)rt->line, (int)rt->col);
    if (n < 0 || (size_t)n >= cap) return buf;
    const char *name = kj_rt_kind_name(rt->kind);
    if (rt->message[0])
        snprintf(buf + n, cap - (size_t)n, "%s: %s", name, rt->message);
    else
        snprintf(buf + n, cap - (size_t)n, "%s", name);
    return buf;
}

/* Record the error and jump back to the innermost entry. Raising outside
 * kj_rt_call_entry is a bug in the caller of generated code: there is no
 * frame to return to, so the process cannot continue. */
static _Noreturn void jump(kj_rt *rt, int32_t kind, int32_t line, int32_t col)
{
    rt->kind = kind > KJ_RT_OK && kind < KJ_RT__COUNT ? (kj_rt_kind)kind : KJ_RT_RUNTIME;
    rt->line = line;
    rt->col = col;
    if (!rt->jb) {
        char buf[700];
        fprintf(stderr, "kjit: run-time error outside kj_rt_call_entry: %s\n",
                kj_rt_format_error(rt, buf, sizeof buf));
        abort();
    }
    longjmp(*rt->jb, 1);
}

_Noreturn void kj_rt_raise(kj_rt *rt, int32_t kind, const char *msg, int32_t line, int32_t col)
{
    snprintf(rt->message, sizeof rt->message, "%s", msg ? msg : "");
    jump(rt, kind, line, col);
}

/* The kind for a Python exception name from the array runtime. */
static kj_rt_kind kind_of_exc(const char *exc)
{
    for (int k = 1; k < KJ_RT__COUNT; k++)
        if (exc && strcmp(exc, kind_names[k]) == 0) return (kj_rt_kind)k;
    return KJ_RT_RUNTIME;
}

_Noreturn void kj_rt_raise_error(kj_rt *rt, const kj_rt_error *e, int32_t line, int32_t col)
{
    snprintf(rt->message, sizeof rt->message, "%s", e->message);
    jump(rt, (int32_t)kind_of_exc(e->exc), line, col);
}

_Noreturn void kj_rt_raise_index(kj_rt *rt, int64_t index, int64_t axis, int64_t size, int32_t line,
                                 int32_t col)
{
    snprintf(rt->message, sizeof rt->message, "index %lld is out of bounds for axis %lld with size %lld",
             (long long)index, (long long)axis, (long long)size);
    jump(rt, KJ_RT_INDEX, line, col);
}

/* ---- array lifetime ---- */

void kj_rt_own(kj_rt *rt, kj_array *a)
{
    if (rt->narrays == rt->cap_arrays) {
        size_t nc = rt->cap_arrays ? rt->cap_arrays * 2 : 16;
        kj_array **v = realloc(rt->arrays, nc * sizeof *v);
        if (!v) {
            fputs("kjit: out of memory\n", stderr);
            abort();
        }
        rt->arrays = v;
        rt->cap_arrays = nc;
    }
    rt->arrays[rt->narrays++] = a;
    if (rt->narrays > rt->peak_arrays) rt->peak_arrays = rt->narrays;
}

int64_t kj_rt_mark(kj_rt *rt) { return (int64_t)rt->narrays; }

void kj_rt_collect(kj_rt *rt, int64_t mark, void *const *keep, int32_t nkeep)
{
    size_t m = (size_t)mark, out = m;
    if (mark < 0 || m >= rt->narrays) return;
    for (size_t k = m; k < rt->narrays; k++) {
        kj_array *a = rt->arrays[k];
        bool live = false;
        for (int32_t j = 0; j < nkeep && !live; j++) live = keep[j] == a;
        if (live) rt->arrays[out++] = a;
        else kj_array_release(a);
    }
    rt->narrays = out;
}

void kj_rt_keep(kj_rt *rt, void *owner)
{
    (void)rt;
    kj_array_retain(owner);
}

void kj_rt_describe(void *out, const kj_array *a, int ndim)
{
    kj_abi_array_pack(out, ndim, a->data, a->shape, a->strides, (void *)a);
}

/* ---- a[...] = b with broadcasting ---- */

typedef struct strided {
    char *data;
    int ndim;
    int64_t shape[KJ_ABI_MAX_DIMS];
    int64_t strides[KJ_ABI_MAX_DIMS];
} strided;

static strided unpack(const void *desc, int ndim)
{
    const kj_abi_array *a = desc;
    strided s = {.data = kj_abi_array_data(a), .ndim = ndim};
    for (int k = 0; k < ndim; k++) {
        s.shape[k] = kj_abi_array_shape(a, ndim, k);
        s.strides[k] = kj_abi_array_stride(a, ndim, k);
    }
    return s;
}

static void shape_str(char *buf, size_t cap, const strided *s)
{
    size_t n = (size_t)snprintf(buf, cap, "(");
    for (int k = 0; k < s->ndim && n < cap; k++)
        n += (size_t)snprintf(buf + n, cap - n, k ? ",%lld" : "%lld", (long long)s->shape[k]);
    if (n < cap) snprintf(buf + n, cap - n, s->ndim == 1 ? ",)" : ")");
}

/* The lowest and one-past-highest byte an array touches; false if empty. */
static bool byte_range(const strided *s, int64_t itemsize, char **lo, char **hi)
{
    int64_t l = 0, h = 0;
    for (int k = 0; k < s->ndim; k++) {
        if (s->shape[k] == 0) return false;
        int64_t span = (s->shape[k] - 1) * s->strides[k];
        if (span < 0) l += span;
        else h += span;
    }
    *lo = s->data + l;
    *hi = s->data + h + itemsize;
    return true;
}

/* Copy src (already broadcast to dst's ndim, zero strides where it is
 * repeated) into dst, element by element, last dimension innermost. */
static void copy_strided(const strided *dst, const strided *src, int64_t itemsize)
{
    int64_t idx[KJ_ABI_MAX_DIMS] = {0};
    int n = dst->ndim;
    for (int k = 0; k < n; k++)
        if (dst->shape[k] == 0) return;
    for (;;) {
        char *d = dst->data, *s = src->data;
        for (int k = 0; k < n; k++) {
            d += idx[k] * dst->strides[k];
            s += idx[k] * src->strides[k];
        }
        memcpy(d, s, (size_t)itemsize);
        int k = n - 1;
        while (k >= 0 && ++idx[k] == dst->shape[k]) idx[k--] = 0;
        if (k < 0) return;
    }
}

void kj_rt_assign(kj_rt *rt, const void *dst_desc, int32_t dst_ndim, const void *src_desc,
                  int32_t src_ndim, int64_t itemsize, int32_t line, int32_t col)
{
    strided dst = unpack(dst_desc, dst_ndim), src0 = unpack(src_desc, src_ndim);
    /* Broadcast src to dst's dimensions: align the trailing ones. */
    strided src = {.data = src0.data, .ndim = dst_ndim};
    int off = dst_ndim - src_ndim;
    if (off < 0) goto mismatch;
    for (int k = 0; k < dst_ndim; k++) {
        int j = k - off;
        src.shape[k] = dst.shape[k];
        if (j < 0) continue; /* stride 0: repeated */
        if (src0.shape[j] == dst.shape[k]) src.strides[k] = src0.strides[j];
        else if (src0.shape[j] != 1) goto mismatch;
    }
    char *dlo, *dhi, *slo, *shi;
    if (byte_range(&dst, itemsize, &dlo, &dhi) && byte_range(&src0, itemsize, &slo, &shi) &&
        slo < dhi && dlo < shi) {
        /* Overlap (a[1:] = a[:-1]): copy the source out first, C order. */
        int64_t n = 1;
        for (int k = 0; k < src0.ndim; k++) n *= src0.shape[k];
        char *tmp = malloc((size_t)(n * itemsize));
        if (!tmp) abort();
        strided t = src0;
        t.data = tmp;
        int64_t st = itemsize;
        for (int k = src0.ndim - 1; k >= 0; k--) {
            t.strides[k] = st;
            st *= src0.shape[k];
        }
        copy_strided(&t, &src0, itemsize);
        for (int k = off; k < dst_ndim; k++)
            src.strides[k] = src0.shape[k - off] == dst.shape[k] ? t.strides[k - off] : 0;
        src.data = tmp;
        copy_strided(&dst, &src, itemsize);
        free(tmp);
        return;
    }
    copy_strided(&dst, &src, itemsize);
    return;
mismatch: {
    char a[128], b[128];
    shape_str(a, sizeof a, &src0);
    shape_str(b, sizeof b, &dst);
    snprintf(rt->message, sizeof rt->message,
             "could not broadcast input array from shape %s into shape %s", a, b);
    jump(rt, KJ_RT_VALUE, line, col);
}
}

/* ---- numeric helpers ---- */

/* Round the exact decimal expansion of |x| (digits, with `ipart` integer
 * digits) at 10**k, k > 0, half to even: the integer result as a string
 * of digits into out. */
static void round_digits(const char *digits, size_t ipart, int64_t k, char *out, size_t cap)
{
    size_t keep = ipart > (size_t)k ? ipart - (size_t)k : 0;
    /* rest = the dropped digits: > half, == half or < half of 10**k */
    const char *rest = digits + keep;
    int cmp = 0; /* sign of rest - 5000... */
    if ((size_t)k > ipart) cmp = -1; /* |x| < 10**(k-1) <= half */
    else if (rest[0] != '5') cmp = rest[0] > '5' ? 1 : -1;
    else
        for (const char *p = rest + 1; *p && !cmp; p++) cmp = *p != '0' && *p != '.';
    char buf[400];
    size_t n = 0;
    buf[n++] = '0'; /* room for a carry */
    for (size_t i = 0; i < keep && n < sizeof buf - 1; i++) buf[n++] = digits[i];
    bool odd = keep > 0 && ((digits[keep - 1] - '0') & 1);
    if (cmp > 0 || (cmp == 0 && odd)) {
        size_t i = n - 1;
        while (buf[i] == '9') buf[i--] = '0';
        buf[i]++;
    }
    buf[n] = 0;
    snprintf(out, cap, "%se%lld", buf, (long long)k);
}

/* round(x, ndigits) for floats exactly as CPython's double_round: the
 * correctly rounded decimal (half to even on the exact binary value),
 * read back. glibc's printf prints exact decimal expansions, which stand
 * in for CPython's dtoa. */
double kj_rt_round_ndigits(double x, int64_t ndigits)
{
    if (!isfinite(x) || x == 0.0) return x;
    if (ndigits > 323) return x;
    if (ndigits < -308) return copysign(0.0, x);
    char buf[1400], out[420]; /* 309 integer digits + 1074 fraction digits */
    if (ndigits >= 0) {
        snprintf(buf, sizeof buf, "%.*f", (int)ndigits, x);
        return strtod(buf, NULL);
    }
    snprintf(buf, sizeof buf, "%.1074f", fabs(x));
    round_digits(buf, strcspn(buf, "."), -ndigits, out, sizeof out);
    return copysign(strtod(out, NULL), x);
}

int64_t kj_rt_round_int(int64_t x, int64_t ndigits)
{
    if (ndigits >= 0) return x;
    if (ndigits < -18) return 0;
    int64_t p = 1;
    for (int64_t k = 0; k < -ndigits; k++) p *= 10;
    int64_t q = x / p, r = x % p;
    if (r < 0) { /* floor division */
        q -= 1;
        r += p;
    }
    /* r in [0, p): round half to even */
    if (2 * (uint64_t)r > (uint64_t)p || (2 * (uint64_t)r == (uint64_t)p && (q & 1))) q += 1;
    return (int64_t)((uint64_t)q * (uint64_t)p);
}

double kj_rt_lgamma(double x)
{
    int sign;
    return lgamma_r(x, &sign);
}

float kj_rt_lgammaf(float x)
{
    int sign;
    return lgammaf_r(x, &sign);
}
