/* SPDX-License-Identifier: BSD-2-Clause */
/* Run-time entry points of JIT-compiled host code: the error mechanism
 * (setjmp in kj_rt_call_entry, longjmp in kj_rt_raise*) and small helpers
 * that are simpler in C than as generated IR. */
#include "rt.h"
#include "rt_host.h"
#include "fault.h"
#include "gpu.h"
#include "pool.h"
#include "linalg.h"

#include "../abi/abi.h"
#include "../abi/exc_obj.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

static const char *const kind_names[KJ_RT__COUNT] = {
#define KJ_EXC_NAME(id, name, base, raisable) [KJ_RT_##id] = name,
    KJ_EXC_CLASSES(KJ_EXC_NAME)
#undef KJ_EXC_NAME
};

void kj_rt_init(kj_rt *rt, const char *file)
{
    /* all but the message buffer and the random streams' states (2.5 KB each,
     * unread until seeded): a launch through the C API makes a context
     * each time */
    size_t msg = offsetof(kj_rt, message), after_msg = msg + sizeof rt->message;
    size_t rng = offsetof(kj_rt, rng), after_rng = rng + sizeof rt->rng, pyrng = offsetof(kj_rt, pyrng);
    _Static_assert(offsetof(kj_rt, message) < offsetof(kj_rt, rng), "kj_rt_init's ranges");
    _Static_assert(offsetof(kj_rt, pyrng) + sizeof(kj_mt19937) == sizeof(kj_rt), "kj_rt_init's ranges");
    memset(rt, 0, msg);
    rt->message[0] = 0;
    memset((char *)rt + after_msg, 0, rng - after_msg);
    memset((char *)rt + after_rng, 0, pyrng - after_rng);
    rt->file = file;
    rt->out = stdout;
    rt->stack_limit = UINTPTR_MAX; /* computed at the first check (kj_rt_stack_check) */
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
    /* nothing registered (a call that made no array, string or container): the common case of a small
     * function called from Python, run twice per call (leave, kj_rt_dispose) */
    if (!rt->ndicts && !rt->dicts && !rt->nlists && !rt->lists && !rt->nstrs && !rt->strs && !rt->arrays &&
        !rt->nspare && !rt->linalg && !rt->streams && !rt->events && !rt->mpi_run && !rt->gens && !rt->pinned &&
        (rt->mods_borrowed || !rt->mods))
        return;
    kj_rt_dict_free_all(rt); /* first: dicts and lists of arrays hold references to them */
    kj_rt_list_free_all(rt);
    kj_rt_gen_free_all(rt);
    kj_rt_str_free_all(rt);
    for (size_t k = rt->narrays; k-- > 0;) kj_array_release(rt->arrays[k]);
    for (unsigned k = 0; k < rt->nspare; k++) free(rt->spare[k].data);
    rt->nspare = 0;
    free(rt->arrays);
    rt->arrays = NULL;
    kj_linalg_close(rt->linalg);
    rt->linalg = NULL;
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
    kj_rt_mpi_free(rt);
    kj_rt_modslots_free(rt);
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

/* The end of an entry call: the outermost one releases the run's arrays,
 * flushes the output and tells the fault handler the thread is out of the
 * run (back in `outer`, usually none). Output the flush loses (a full disk)
 * is the run's error, an OSError, unless it already has one: false then. */
static bool leave(kj_rt *rt, kj_rt *outer)
{
    if (--rt->depth > 0) return true;
    kj_fault_leave(outer);
    release_all(rt);
    if (!rt->out || rt->launch_only || fflush(rt->out) == 0) return true;
    int errnum = errno ? errno : EIO;
    if (rt->kind == KJ_RT_OK) {
        rt->kind = KJ_RT_OS;
        rt->line = rt->col = 0;
        snprintf(rt->message, sizeof rt->message, "cannot write the output: %s", strerror(errnum));
    }
    return false;
}

/* The setjmp side. `fn` runs with rt->jb pointing at this frame's jmp_buf;
 * the previous one is restored on the way out, so entries may nest. Nothing
 * in this frame changes between setjmp and a longjmp back, so no local needs
 * to be volatile except the saved pointer, which is read after the jump. */
KJ_CALLS_JIT kj_rt_kind kj_rt_call_entry(kj_rt *rt, kj_entry_fn fn, void **args, void *ret)
{
    jmp_buf jb;
    jmp_buf *volatile saved = rt->jb;
    kj_rt *outer = rt->depth == 0 ? kj_fault_enter(rt) : NULL; /* set once, before setjmp */
    rt->kind = KJ_RT_OK;
    rt->depth++;
    if (setjmp(jb)) {
        rt->jb = saved;
        leave(rt, outer);
        return rt->kind != KJ_RT_OK ? rt->kind : KJ_RT_RUNTIME;
    }
    rt->jb = &jb;
    fn(rt, args, ret);
    /* A fault of the run's last kernels is the run's error: wait for them
     * while an error can still be raised. */
    if (rt->depth == 1 && rt->gpu && !rt->launch_only) kj_rt_cuda_sync(rt, 0, 0);
    rt->jb = saved;
    rt->kind = KJ_RT_OK;
    return leave(rt, outer) ? KJ_RT_OK : rt->kind;
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
static _Noreturn void jump_form(kj_rt *rt, int32_t kind, int32_t form, int32_t line, int32_t col)
{
    rt->kind = kind > KJ_RT_OK && kind < KJ_RT__COUNT ? (kj_rt_kind)kind : KJ_RT_RUNTIME;
    rt->exc_form = form;
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

static _Noreturn void jump(kj_rt *rt, int32_t kind, int32_t line, int32_t col)
{
    jump_form(rt, kind, KJ_EXC_FORM_AUTO, line, col);
}

/* kind's bits from KJ_EXC_FORM_SHIFT on: what the raise says of the
 * exception's arguments (exc_obj.h) */
_Noreturn void kj_rt_raise(kj_rt *rt, int32_t kind, const char *msg, int32_t line, int32_t col)
{
    snprintf(rt->message, sizeof rt->message, "%s", msg ? msg : "");
    jump_form(rt, kind & ((1 << KJ_EXC_FORM_SHIFT) - 1), kind >> KJ_EXC_FORM_SHIFT, line, col);
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

_Noreturn void kj_rt_raise_index_unsigned(kj_rt *rt, int64_t index, int64_t axis, int64_t size, int32_t line,
                                          int32_t col)
{
    snprintf(rt->message, sizeof rt->message, "index %llu is out of bounds for axis %lld with size %lld",
             (unsigned long long)(uint64_t)index, (long long)axis, (long long)size);
    jump(rt, KJ_RT_INDEX, line, col);
}

/* ---- the recursion guard ---- */

enum { STACK_MARGIN = 1 << 20 };

/* The stack of the calling thread into rt: [stack_lo, stack_hi), and the
 * limit under which recursive functions stop, a margin above its end (the
 * margin keeps room for the non-recursive calls below the last checked
 * frame, the runtime's among them). Without the thread's bounds, never. */
static void find_stack(kj_rt *rt)
{
    pthread_attr_t attr;
    void *addr = NULL;
    size_t size = 0;
    bool ok = pthread_getattr_np(pthread_self(), &attr) == 0;
    if (ok) {
        ok = pthread_attr_getstack(&attr, &addr, &size) == 0 && size > 0;
        pthread_attr_destroy(&attr);
    }
    if (!ok) {
        rt->stack_lo = 0;
        rt->stack_hi = UINTPTR_MAX;
        rt->stack_limit = 0;
        return;
    }
    size_t margin = size / 4 < STACK_MARGIN ? size / 4 : STACK_MARGIN;
    rt->stack_lo = (uintptr_t)addr;
    rt->stack_hi = (uintptr_t)addr + size;
    rt->stack_limit = rt->stack_lo + margin;
}

void kj_rt_stack_check(kj_rt *rt, const char *fn, int32_t line, int32_t col)
{
    /* the frame, not a local: under ASan locals may live on a fake stack */
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    if (rt->stack_limit == UINTPTR_MAX || sp < rt->stack_lo || sp >= rt->stack_hi) find_stack(rt);
    if (sp >= rt->stack_limit) return;
    snprintf(rt->message, sizeof rt->message, "maximum recursion depth exceeded in '%s'", fn ? fn : "?");
    jump(rt, KJ_RT_RECURSION, line, col);
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

enum { SPARE_MIN_BYTES = 4 << 20 }; /* as the huge pages of rt_ufunc.c */

static size_t nbytes_of(kj_dtype dt, int ndim, const int64_t *shape)
{
    size_t n = kj_dtype_size(dt);
    for (int k = 0; k < ndim; k++) n *= (size_t)shape[k];
    return n;
}

/* A large array that nothing but rt references any more gives its memory
 * to rt->spare instead of free(). Not in a worker's context (worker_init):
 * it is released after each chunk, and the memory is for the next result
 * of the thread that runs the program. */
static bool spare_memory(kj_rt *rt, kj_array *a)
{
    enum { NSPARE = sizeof rt->spare / sizeof rt->spare[0] };
    if (rt->in_parallel || rt->nspare == NSPARE || !a->owns_data || a->mirror || a->base ||
        atomic_load_explicit(&a->refcount, memory_order_acquire) != 1)
        return false;
    size_t n = nbytes_of(a->dtype, a->ndim, a->shape);
    if (n < SPARE_MIN_BYTES) return false;
    rt->spare[rt->nspare++] = (struct kj_rt_spare){a->data, n};
    a->owns_data = false;
    kj_array_release(a);
    return true;
}

kj_array *kj_rt_spare_array(kj_rt *rt, kj_dtype dt, int ndim, const int64_t *shape)
{
    size_t n = nbytes_of(dt, ndim, shape);
    for (unsigned k = 0; k < rt->nspare; k++) {
        if (rt->spare[k].bytes != n) continue;
        void *data = rt->spare[k].data;
        rt->spare[k] = rt->spare[--rt->nspare];
        return kj_array_adopt(data, dt, ndim, shape);
    }
    return NULL;
}

void kj_rt_collect(kj_rt *rt, int64_t mark, void *const *keep, int32_t nkeep)
{
    size_t m = (size_t)mark, out = m;
    if (mark < 0 || m >= rt->narrays) return;
    for (size_t k = m; k < rt->narrays; k++) {
        kj_array *a = rt->arrays[k];
        bool live = false;
        for (int32_t j = 0; j < nkeep && !live; j++) live = keep[j] == a;
        if (live) rt->arrays[out++] = a;
        else if (!spare_memory(rt, a)) kj_array_release(a);
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

/* ---- parallel loops (rt.h; docs/runtime.md "Thread pool") ---- */

/* The state of one kj_rt_parallel_for shared by its workers. */
typedef struct par_run {
    const kj_rt *parent;
    kj_rt *workers; /* per worker index, set up at its first chunk */
    bool *ready;
    kj_rt_chunk_fn fn;
    void *env;
    int64_t n, nchunks, acc_stride;
    char *acc;
    /* the error of the lowest failing chunk; chunks above it are skipped */
    atomic_int_fast64_t err_chunk;
    pthread_mutex_t mu;
    kj_rt_kind kind;
    int32_t line, col;
    char message[sizeof ((kj_rt *)0)->message];
} par_run;

/* A worker's context: a fresh one (kj_rt_init) with the parent's settings
 * copied one by one: output, file, GPU and its code, pool, MPI
 * communicator, fault-handler names, event sink. Nothing the parent owns
 * for its run is copied (its arrays, spare memory, events, streams, MPI
 * requests, jmp_buf): a chunk's entry call releases what its context holds
 * when it returns (release_all), which must never be the parent's. Its
 * random stream is seeded from OS entropy at first use (Numba: one
 * independent stream per thread); its stack limit is computed again on its
 * own stack. */
static void worker_init(kj_rt *w, const kj_rt *parent)
{
    kj_rt_init(w, parent->file);
    w->user = parent->user;
    w->out = parent->out;
    w->gpu = parent->gpu;
    w->code = parent->code;
    w->pool = parent->pool;
    w->in_parallel = true;
    w->fn_name = parent->fn_name;
    w->fn_line = parent->fn_line;
    w->launch_only = parent->launch_only;
    w->sink = parent->sink;
    w->mpi = parent->mpi; /* the communicator: borrowed, as the parent borrows it */
    w->mods = parent->mods; /* module slots: read only while the parent waits */
    w->mods_borrowed = true;
    w->num_threads = parent->num_threads; /* chunksize stays 0 in a worker, as in Numba */
}

void kj_rt_worker_init(kj_rt *w, const kj_rt *parent) { worker_init(w, parent); }

/* Chunk c's bounds: n split into nchunks parts differing by at most one. */
static void chunk_bounds(const par_run *r, int64_t c, int64_t *begin, int64_t *end)
{
    int64_t base = r->n / r->nchunks, rem = r->n % r->nchunks;
    *begin = c * base + (c < rem ? c : rem);
    *end = *begin + base + (c < rem ? 1 : 0);
}

/* The entry kj_rt_call_entry runs for a chunk: args = {run, &chunk}. */
static KJ_CALLS_JIT void par_entry(kj_rt *w, void **args, void *ret)
{
    (void)ret;
    par_run *r = args[0];
    int64_t c = *(const int64_t *)args[1], begin, end;
    chunk_bounds(r, c, &begin, &end);
    r->fn(w, r->env, begin, end, r->acc ? r->acc + c * r->acc_stride : NULL);
}

/* Keep w's error when chunk c is the lowest that failed so far. */
static void par_record(par_run *r, int64_t c, const kj_rt *w)
{
    pthread_mutex_lock(&r->mu);
    if (c < atomic_load(&r->err_chunk)) {
        atomic_store(&r->err_chunk, c);
        r->kind = w->kind;
        r->line = w->line;
        r->col = w->col;
        memcpy(r->message, w->message, sizeof r->message);
    }
    pthread_mutex_unlock(&r->mu);
}

/* A pool task: chunk c on worker `worker`, its error caught there (never
 * a longjmp across the pool). */
static void par_task(void *p, int64_t c, int worker)
{
    par_run *r = p;
    if (c > atomic_load_explicit(&r->err_chunk, memory_order_relaxed)) return;
    kj_rt *w = &r->workers[worker];
    if (!r->ready[worker]) {
        worker_init(w, r->parent);
        w->thread_id = worker;
        r->ready[worker] = true;
    }
    void *args[2] = {r, &c};
    if (kj_rt_call_entry(w, par_entry, args, NULL) != KJ_RT_OK) par_record(r, c, w);
}

static void *par_calloc(size_t n, size_t size)
{
    void *v = calloc(n ? n : 1, size);
    if (!v) {
        fputs("kjit: out of memory\n", stderr);
        abort();
    }
    return v;
}

/* The whole loop on the calling thread as one chunk. Reduction storage is
 * on this frame, which an error leaves by longjmp: nothing to free. */
static KJ_CALLS_JIT void par_serial(kj_rt *rt, kj_rt_chunk_fn fn, void *env, int64_t n, int64_t acc_bytes,
                                    kj_rt_combine_fn combine)
{
    _Alignas(16) char acc[KJ_RT_MAX_ACC];
    if (acc_bytes > KJ_RT_MAX_ACC) kj_rt_raise(rt, KJ_RT_RUNTIME, "too many reduction variables", 0, 0);
    /* the body sees what a worker would: chunk size 0 (an error leaves it
     * 0, as a body that raised in a Numba worker never restores it) */
    int64_t chunksize = rt->chunksize;
    rt->chunksize = 0;
    fn(rt, env, 0, n, acc_bytes > 0 ? acc : NULL);
    rt->chunksize = chunksize;
    if (acc_bytes > 0 && combine) combine(rt, env, acc);
}

/* How many chunks a loop of n iterations runs in on `threads` threads: a
 * chunk size set by the program gives ceil(n / size) (bounded, since a
 * reduction keeps storage per chunk); else min_chunk iterations at least,
 * four chunks per thread at most. */
static int64_t chunk_count(const kj_rt *rt, int64_t n, int64_t min_chunk, int threads)
{
    enum { MAX_CHUNKS = 1 << 16 };
    if (rt->chunksize > 0) {
        int64_t c = n / rt->chunksize + (n % rt->chunksize != 0);
        return c < MAX_CHUNKS ? c : MAX_CHUNKS;
    }
    int64_t c = n / (min_chunk > 1 ? min_chunk : 1);
    return c > 4 * (int64_t)threads ? 4 * (int64_t)threads : c;
}

typedef struct {
    kj_task_fn task;
    void *ctx;
} pool_tasks;

static void pool_task(void *p, int64_t t, int worker)
{
    (void)worker;
    const pool_tasks *r = p;
    r->task(r->ctx, t);
}

static void pool_run(const kj_tasks *self, int64_t n, kj_task_fn task, void *ctx)
{
    pool_tasks r = {task, ctx};
    kj_pool_run_on(self->pool, n, pool_task, &r, self->width);
}

const kj_tasks *kj_rt_tasks(kj_rt *rt, kj_tasks *storage)
{
    int threads = kj_rt_threads(rt);
    if (!rt->pool || rt->in_parallel || threads < 2) return NULL;
    *storage = (kj_tasks){pool_run, rt->pool, threads};
    return storage;
}

KJ_CALLS_JIT void kj_rt_parallel_for(kj_rt *rt, kj_rt_chunk_fn fn, void *env, int64_t n, int64_t min_chunk,
                                     int64_t acc_bytes, kj_rt_combine_fn combine)
{
    if (n <= 0) return;
    int threads = kj_rt_threads(rt);
    int64_t nchunks = chunk_count(rt, n, min_chunk, threads);
    if (!rt->pool || rt->in_parallel || threads == 1 || nchunks <= 1) {
        par_serial(rt, fn, env, n, acc_bytes, combine);
        return;
    }
    par_run r = {.parent = rt, .fn = fn, .env = env, .n = n, .nchunks = nchunks};
    int size = kj_pool_size(rt->pool);
    r.workers = par_calloc((size_t)size, sizeof *r.workers);
    r.ready = par_calloc((size_t)size, sizeof *r.ready);
    if (acc_bytes > 0) {
        r.acc_stride = (acc_bytes + 15) & ~(int64_t)15;
        r.acc = aligned_alloc(16, (size_t)(r.acc_stride * nchunks));
        if (!r.acc) kj_rt_raise(rt, KJ_RT_MEMORY, "no memory for the partial results of a parallel loop", 0, 0);
    }
    atomic_init(&r.err_chunk, INT64_MAX);
    pthread_mutex_init(&r.mu, NULL);
    kj_pool_run_on(rt->pool, nchunks, par_task, &r, threads);
    for (int k = 0; k < size; k++)
        if (r.ready[k]) kj_rt_dispose(&r.workers[k]);
    free(r.workers);
    free(r.ready);
    pthread_mutex_destroy(&r.mu);
    if (atomic_load(&r.err_chunk) != INT64_MAX) {
        free(r.acc);
        snprintf(rt->message, sizeof rt->message, "%s", r.message);
        jump(rt, r.kind, r.line, r.col);
    }
    for (int64_t c = 0; r.acc && combine && c < nchunks; c++) combine(rt, env, r.acc + c * r.acc_stride);
    free(r.acc);
}
