/* SPDX-License-Identifier: BSD-2-Clause */
/* kjit — a JIT compiler for a Numba-style array language.
 *
 * The public C API. Everything the `kjit` command does goes through this
 * header, so an embedding application can do the same.
 *
 *   kjit_error err = {0};
 *   kjit_ctx *ctx = kjit_ctx_new(NULL, &err);
 *   kjit_module *m = kjit_compile(ctx, source, strlen(source), "prog.k", &err);
 *   if (!m) { fprintf(stderr, "%s\n", err.message); ... }
 *   kjit_fn *f = kjit_module_get(m, "saxpy");
 *   kjit_value args[] = {kjit_value_float(2.0), kjit_value_array(x), kjit_value_array(y)};
 *   kjit_value result;
 *   if (kjit_call(f, args, 3, &result, &err)) { ... err.message ... }
 *
 * Errors are values: every call that can fail takes a kjit_error* and
 * returns NULL / a non-zero code; the library never exits the process.
 * Distinct contexts may be used from different threads at once; one
 * context and its modules may also be shared by several threads (compiles
 * on one context are serialised; calls of compiled code run concurrently).
 * docs/embedding.md has the details. */
#ifndef KJIT_H
#define KJIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KJIT_VERSION_MAJOR 0
#define KJIT_VERSION_MINOR 4
#define KJIT_VERSION_PATCH 0

/* Version of the library actually linked, as "MAJOR.MINOR.PATCH". */
const char *kjit_version(void);

/* Since 0.5: the candidate closest to `name` by edit distance (at most 1
 * edit for names of up to 3 characters, 2 up to 6, else 3), or NULL: for
 * "did you mean" messages. */
const char *kjit_suggest(const char *name, const char *const *candidates, size_t n);

typedef enum kjit_status {
    KJIT_OK = 0,
    KJIT_ERR_COMPILE = 1, /* the program has errors: see kjit_error and kjit_diagnostics */
    KJIT_ERR_USAGE = 2,   /* bad arguments to an API call or command, or an unavailable feature */
    KJIT_ERR_RUNTIME = 3, /* an error while running compiled code (IndexError, ...) */
    KJIT_ERR_IO = 4,      /* a file could not be read or written */
} kjit_status;

/* The first error of a failed call. `message` is a NUL-terminated copy owned
 * by the struct (no allocation needed to read it). `file`/`line`/`col` locate
 * it in the source when it has a location (line 0 otherwise). A run-time
 * error's message starts with the Python exception's name:
 * "IndexError: index 10 is out of bounds for axis 0 with size 10". */
typedef struct kjit_error {
    kjit_status code;
    char message[512];
    char file[256];
    int line, col;
} kjit_error;

typedef enum kjit_target {
    KJIT_TARGET_AUTO = 0,
    KJIT_TARGET_CPU,
    KJIT_TARGET_PARALLEL,
    KJIT_TARGET_CUDA,
} kjit_target;

/* Since 0.4: events, so that an application can time itself (`kjit bench`
 * is built on them; docs/embedding.md "Timing"). With a hook set, kjit
 * reports each compile, each kernel run and each copy between host and
 * device. A kernel's time on the GPU is device time measured by two CUDA
 * events around its launch, and the launch is waited for (the hook asks for
 * each kernel's time, which an asynchronous launch cannot give); on the cpu
 * and parallel targets it is the wall time of its blocks. Copies are timed
 * around the driver's synchronous copy. Without a hook nothing is timed. */
typedef enum kjit_event_kind {
    KJIT_EVENT_COMPILE = 0, /* a kjit_compile's host code: generated (cold) or from the cache */
    KJIT_EVENT_GPU_COMPILE, /* the kernels' GPU code: LLVM -> PTX -> cubin (or the cache), loaded */
    KJIT_EVENT_LAUNCH,      /* a kernel ran: `name`, `seconds` */
    KJIT_EVENT_H2D,         /* a copy host -> device: `bytes`, `seconds` */
    KJIT_EVENT_D2H,         /* device -> host */
    KJIT_EVENT_D2D,         /* device -> device */
} kjit_event_kind;

typedef struct kjit_event {
    kjit_event_kind kind;
    const char *name; /* LAUNCH: the kernel; COMPILE: the program's file; else NULL.
                         Valid during the hook's call only */
    uint64_t bytes;   /* copies */
    double seconds;
    bool cached;      /* COMPILE, GPU_COMPILE: the code came from the compile cache */
} kjit_event;

/* Called on the thread that did the work, during it: it must return
 * quickly and must not call kjit. Calls of one context's modules on several
 * threads call it concurrently. */
typedef void (*kjit_event_hook)(const kjit_event *ev, void *user);

typedef enum kjit_diag_format {
    KJIT_DIAG_HUMAN = 0, /* file:line:col: error: msg, the source line, a caret, a hint */
    KJIT_DIAG_SHORT,     /* one line per diagnostic (and its hint): for scripts and tests */
    KJIT_DIAG_JSON,      /* one JSON object per line */
} kjit_diag_format;

/* What kjit_compile keeps for kjit_module_llvm_ir / kjit_module_asm
 * (without it they generate the code again on request). */
enum { KJIT_KEEP_LLVM_IR = 1, KJIT_KEEP_ASM = 2 };

typedef struct kjit_options {
    kjit_target target;  /* auto (default): cuda for programs with kernels when a CUDA driver and device are present, else cpu */
    int opt_level;       /* 0..3, default 3 */
    int max_errors;      /* diagnostics kept per compile; 0 = 20 */
    const char *arch;    /* e.g. "sm_90" for PTX without a device; NULL = the device's */
    const char *cache_dir; /* NULL = $KJIT_CACHE_DIR, else $XDG_CACHE_HOME/kjit, else ~/.cache/kjit */
    int boundscheck;     /* -1 = from the decorators / $KJIT_BOUNDSCHECK, 0 off, 1 on */
    /* Since 0.2: */
    int check_only;      /* 1: stop after type checking (kjit check, kjit ir): no machine code */
    int cache;           /* 1 (default): reuse compiled code from the cache; 0: never;
                            $KJIT_NO_CACHE=1 turns it off too */
    unsigned keep;       /* KJIT_KEEP_* flags */
    FILE *out;           /* where the program's print() writes; NULL = stdout */
    /* Since 0.4: */
    kjit_event_hook on_event; /* NULL (default): no events */
    void *event_user;         /* passed to on_event */
    /* Since 0.5: */
    FILE *progress; /* NULL (default): silent; else a compile still running after a second writes there which
                       file and stage it is at (a watcher thread, made only when this is set, speaks once
                       the second has passed), then a line at most a second (kjit sets stderr on a terminal) */
} kjit_options;

/* Defaults for every field: target auto, -O3, decorators decide boundscheck,
 * machine code generated, cache on, output to stdout. */
void kjit_options_init(kjit_options *opt);

typedef struct kjit_ctx kjit_ctx;
typedef struct kjit_module kjit_module;
typedef struct kjit_fn kjit_fn;
typedef struct kjit_array kjit_array;

/* `opt` may be NULL for the defaults. */
kjit_ctx *kjit_ctx_new(const kjit_options *opt, kjit_error *err);
void kjit_ctx_free(kjit_ctx *ctx);

/* Compile a program held in memory (`source` of `len` bytes; the text need
 * not be NUL-terminated). `filename` is used in diagnostics. Returns NULL on
 * error with `err` set to the first error; all diagnostics can be formatted
 * with kjit_ctx_diagnostics(). The stages: parse, type-check (every function
 * reachable from main and every explicit signature), then, unless
 * `check_only`, generate and load machine code for the host functions. */
kjit_module *kjit_compile(kjit_ctx *ctx, const char *source, size_t len, const char *filename,
                          kjit_error *err);
/* Read and compile a file. */
kjit_module *kjit_compile_file(kjit_ctx *ctx, const char *path, kjit_error *err);
/* Free a module, its functions and its compiled code (no call of it may be
 * running). Arrays returned by its calls stay valid. */
void kjit_module_free(kjit_module *m);

/* The diagnostics of the context's last compile, formatted. Returned string
 * is malloc'd (free it); empty when there were none. */
char *kjit_ctx_diagnostics(kjit_ctx *ctx, kjit_diag_format fmt);
/* Number of errors in the context's last compile. */
int kjit_ctx_error_count(const kjit_ctx *ctx);

/* An error returned for module `m` (a run-time error of one of its calls,
 * or a compile error), formatted like a diagnostic: in KJIT_DIAG_HUMAN
 * "prog.k:5:12: IndexError: index 3 is out of bounds for axis 0 with size 3"
 * (compile errors say "error: ..."), then the source line with a caret.
 * malloc'd; `m` may be NULL (no source line then). */
char *kjit_error_format(const kjit_module *m, const kjit_error *err, kjit_diag_format fmt);

/* The typed IR (KIR) of every specialisation in the module, as text
 * (malloc'd; free it). */
char *kjit_module_ir(const kjit_module *m);
/* The optimised LLVM IR / the assembly of the module's host functions as
 * kjit_compile generated them (malloc'd). Generated again when not kept
 * (see KJIT_KEEP_*). NULL with `err` set when code generation fails. */
char *kjit_module_llvm_ir(kjit_module *m, kjit_error *err);
char *kjit_module_asm(kjit_module *m, kjit_error *err);
/* Since 0.4: the PTX of the module's kernels (every kernel specialisation,
 * or those of kernel `kernel` when not NULL), for the context's `arch`, else
 * the device's, else sm_90. Needs no GPU or driver (also for check_only
 * modules). malloc'd; NULL with err set on failure. */
char *kjit_module_ptx(kjit_module *m, const char *kernel, kjit_error *err);
/* Where the module's kernels run: KJIT_TARGET_CPU or KJIT_TARGET_CUDA (auto
 * resolved), or KJIT_TARGET_PARALLEL; the option as given for check_only. */
kjit_target kjit_module_target(const kjit_module *m);

/* ---- arrays ---- */

/* Element types (NumPy's names). */
typedef enum kjit_dtype {
    KJIT_BOOL,
    KJIT_INT8,
    KJIT_INT16,
    KJIT_INT32,
    KJIT_INT64,
    KJIT_UINT8,
    KJIT_UINT16,
    KJIT_UINT32,
    KJIT_UINT64,
    KJIT_FLOAT32,
    KJIT_FLOAT64,
    KJIT_COMPLEX64,  /* two float32, real then imaginary (NumPy's complex64) */
    KJIT_COMPLEX128, /* two float64 (NumPy's complex128, Python's complex) */
    KJIT_FLOAT16,    /* IEEE binary16 (NumPy's float16) */
    /* Since 0.5: NumPy's datetime64 and timedelta64, an int64 count of a unit
     * (NumPy's NPY_DATETIMEUNIT numbers: KJIT_UNIT_*); INT64_MIN is NaT. An
     * array's unit: kjit_array_unit / kjit_array_set_unit; a scalar's: v.dt. */
    KJIT_DATETIME64 = 14,
    KJIT_TIMEDELTA64 = 15,
    KJIT_RECORD = 16, /* since 0.5: a NumPy structured dtype (kjit_record_desc): arrays made by
                         kjit_array_wrap_record / kjit_array_new_record, and KJIT_VALUE_RECORD */
} kjit_dtype;

/* Since 0.5: the units of datetime64 / timedelta64 (NumPy's NPY_DATETIMEUNIT
 * values; 3, NumPy's removed business day, is unused). */
enum {
    KJIT_UNIT_Y = 0, KJIT_UNIT_M = 1, KJIT_UNIT_W = 2, KJIT_UNIT_D = 4, KJIT_UNIT_h = 5, KJIT_UNIT_m = 6,
    KJIT_UNIT_s = 7, KJIT_UNIT_ms = 8, KJIT_UNIT_us = 9, KJIT_UNIT_ns = 10, KJIT_UNIT_ps = 11, KJIT_UNIT_fs = 12,
    KJIT_UNIT_as = 13, KJIT_UNIT_GENERIC = 14, /* np.timedelta64(7): no unit */
};

enum { KJIT_MAX_DIMS = 8 }; /* arrays passed to compiled code may have 1 to 4 */

/* Wrap the caller's memory without copying: `ndim` dimensions of `shape`,
 * `strides` in BYTES (multiples of the item size; NULL = C order). kjit
 * never frees `data`; it must outlive the array and everything made from
 * it. `ctx` may be NULL (arrays do not depend on a context). */
kjit_array *kjit_array_wrap(kjit_ctx *ctx, void *data, kjit_dtype dtype, int ndim, const int64_t *shape,
                            const int64_t *strides, kjit_error *err);
/* Since 0.5: point a wrapper at other memory of the same dtype and rank
 * (`strides` as for kjit_array_wrap), without allocating: for a caller that
 * passes new arrays of the same types call after call (a prepared call).
 * KJIT_ERR_USAGE, the array unchanged, unless it is a kjit_array_wrap of
 * the caller's that only the caller holds (no view or result refers to it,
 * no GPU copy of it was made). */
int kjit_array_rewrap(kjit_array *a, void *data, const int64_t *shape, const int64_t *strides, kjit_error *err);
/* Since 0.5: the layout of a NumPy structured dtype (Numba's Record): its
 * fields in order, each a name, a byte offset and a scalar dtype (bool,
 * integers, floats, complex), the item size in bytes and NumPy's align=
 * (an aligned record's fields are read at their natural alignment, a
 * packed one's at any byte, as Numba's). Field ranges must lie inside the
 * item and not overlap. kjit copies what it needs: the caller's may go
 * after the call that took it. */
typedef struct kjit_record_desc {
    int nfields;
    const char *const *names;
    const int64_t *offsets;
    const kjit_dtype *dtypes;
    int64_t itemsize;
    bool aligned;
} kjit_record_desc;
/* Since 0.5: kjit_array_wrap for an array of records (dtype KJIT_RECORD):
 * `strides` in bytes, multiples of nothing in particular (NumPy's record
 * arrays may have any strides that keep items apart); NULL = C order. */
kjit_array *kjit_array_wrap_record(kjit_ctx *ctx, void *data, const kjit_record_desc *rec, int ndim,
                                   const int64_t *shape, const int64_t *strides, kjit_error *err);
/* Since 0.5: a new zero-filled C-order array of records. */
kjit_array *kjit_array_new_record(kjit_ctx *ctx, const kjit_record_desc *rec, int ndim, const int64_t *shape,
                                  kjit_error *err);
/* Since 0.5: the record layout of an array of dtype KJIT_RECORD (kjit's
 * copy, valid while the array lives), NULL for other arrays. */
const kjit_record_desc *kjit_array_record(const kjit_array *a);
/* A new zero-filled C-order array owning its memory. */
kjit_array *kjit_array_new(kjit_ctx *ctx, kjit_dtype dtype, int ndim, const int64_t *shape,
                           kjit_error *err);
/* Drop the caller's reference (NULL is fine). Memory a view still uses is
 * kept until the view goes too. */
void kjit_array_free(kjit_array *a);
/* The elements. With a GPU, a copy a kernel left on the device comes back
 * first, and the device copy then counts as stale (the caller may write). */
void *kjit_array_data(const kjit_array *a);
int kjit_array_ndim(const kjit_array *a);
const int64_t *kjit_array_shape(const kjit_array *a);   /* ndim entries */
const int64_t *kjit_array_strides(const kjit_array *a); /* ndim entries, in bytes */
kjit_dtype kjit_array_dtype(const kjit_array *a);
/* Since 0.5: the unit (KJIT_UNIT_*) of a datetime64 / timedelta64 array,
 * -1 for other dtypes. kjit_array_set_unit makes an int64 array (from
 * kjit_array_wrap or kjit_array_new) one of `dtype` KJIT_DATETIME64 or
 * KJIT_TIMEDELTA64 in `unit` (kjit_array_wrap and kjit_array_new take those
 * dtypes too, in the generic unit); KJIT_ERR_USAGE for another dtype or a
 * unit out of range. */
int kjit_array_unit(const kjit_array *a);
int kjit_array_set_unit(kjit_array *a, kjit_dtype dtype, int unit, kjit_error *err);
int64_t kjit_array_size(const kjit_array *a); /* number of elements */
size_t kjit_dtype_size(kjit_dtype dtype);
const char *kjit_dtype_name(kjit_dtype dtype); /* "float32", ... */

/* ---- device memory (since 0.5; docs/embedding.md "Device memory") ---- */

/* The CUDA device address (a CUdeviceptr) of a's first element, for
 * another library's kernels or copies (the Python package's
 * __cuda_array_interface__). Opens the context's GPU if no compile has;
 * KJIT_ERR_RUNTIME without one. a's device copy is made current first
 * (allocated, and uploaded synchronously when the host's was newer) and
 * from then on counts as the current copy: the caller may read and write
 * it, and later host reads (kjit_array_data, compiled host code) copy it
 * back each time, since kjit cannot see what the caller wrote. The memory
 * lives as long as a (kjit_array_free may reuse it at once). Streams:
 * kjit's launches are queued on the legacy default stream (or on blocking
 * streams, which it orders), so work the caller queues on the legacy
 * default stream runs after them; work on a non-blocking stream must wait
 * for kjit_sync first. Likewise kjit's next launch or copy (on the legacy
 * default stream) runs after the caller's work on it; work on other
 * streams must be finished before kjit uses the array again. */
int kjit_array_device_ptr(kjit_ctx *ctx, kjit_array *a, uint64_t *out, kjit_error *err);
/* An array over device memory that the caller (CuPy, PyTorch, its own
 * cuMemAlloc) allocated in the context's GPU context, without a copy:
 * `ndim` dimensions of `shape`, `strides` in BYTES (NULL = C order), its
 * first element at `devptr`. The span of the elements must lie in one
 * allocation of this context (KJIT_ERR_USAGE otherwise: host memory, another
 * device's or context's memory, a range past its end). kjit never frees the
 * memory; it must outlive the array. Launches use it as it is. Host reads
 * (kjit_array_data, calls of host code) copy it into a host copy of kjit's,
 * each time, and a host write is uploaded at the next launch or
 * kjit_array_device_ptr (between the two the memory must not be written by
 * the caller). Streams as for kjit_array_device_ptr. */
kjit_array *kjit_array_wrap_device(kjit_ctx *ctx, uint64_t devptr, kjit_dtype dtype, int ndim,
                                   const int64_t *shape, const int64_t *strides, kjit_error *err);

/* ---- values ---- */

typedef enum kjit_value_kind {
    KJIT_VALUE_NONE = 0,
    KJIT_VALUE_BOOL,
    KJIT_VALUE_INT,   /* dtype: KJIT_INT8 .. KJIT_UINT64 (kjit_value_int: int64) */
    KJIT_VALUE_FLOAT, /* dtype: KJIT_FLOAT32 or KJIT_FLOAT64 */
    KJIT_VALUE_STR,   /* NUL-terminated UTF-8; kjit never frees an argument's; a result's
                         is malloc'd (since 0.5; a constant of the module before, and a
                         string made at run time came back freed), the caller's to
                         release with kjit_value_release */
    KJIT_VALUE_ARRAY,
    KJIT_VALUE_TUPLE, /* since 0.3: v.t; an argument's is the caller's (borrowed); a result's
                         is malloc'd, the caller's to release with kjit_value_release */
    KJIT_VALUE_COMPLEX = 7, /* since 0.5: v.c; dtype KJIT_COMPLEX64 or KJIT_COMPLEX128 (complex64's
                               parts are float32 values, held exactly) */
    KJIT_VALUE_LIST = 8, /* since 0.5: v.l, Numba's reflected list (kjit_list below) */
    KJIT_VALUE_SET = 9,  /* since 0.5: v.l, Numba's reflected set: the items in no particular order */
    KJIT_VALUE_DICT = 10, /* since 0.5: v.d, a numba.typed.Dict (kjit_dict below) */
    KJIT_VALUE_GENERATOR = 11, /* since 0.5: v.g, what calling a generator function returns (a
                                  result only): advance it with kjit_generator_next, free it
                                  (its frame and run) with kjit_value_release */
    KJIT_VALUE_RNG = 12,    /* since 0.5: v.rng, a NumPy Generator over PCG64 (Numba's
                               NumPyRandomGeneratorType), passed by reference: compiled code
                               draws from the caller's state and advances it in place */
    KJIT_VALUE_RECORD = 13, /* since 0.5: v.rec, a record (a NumPy structured scalar, Numba's
                               Record): an argument is passed by reference (compiled code reads
                               and writes the caller's bytes, as Numba does); a result is a
                               malloc'd copy, the caller's to release with kjit_value_release */
    KJIT_VALUE_FUNCTION = 14, /* since 0.5: v.fn, a @jit function of the callee's own module passed as
                                 a value (Numba specialises on the function: one specialisation per
                                 function); an argument only */
    KJIT_VALUE_DTYPE = 15, /* since 0.5: a NumPy scalar type as a value (np.float32 passed, a.dtype
                              returned): dtype says which; no payload (compiled code folds it) */
    KJIT_VALUE_BYTES = 16,  /* since 0.5: v.buf, a Python buffer as Numba types it: bytes (read-only),
                               bytearray (writable) or memoryview (of any array); its elements are
                               the kjit_array v.buf.a (borrowed; an argument only, except bytes: a
                               bytes result is a 1-d uint8 array, the caller's to release) */
} kjit_value_kind;

/* Since 0.5: which buffer a KJIT_VALUE_BYTES is (Numba's types.Bytes,
 * ByteArray, MemoryView). bytes and bytearray are 1-d C-contiguous uint8. */
typedef enum kjit_buffer_kind {
    KJIT_BUFFER_BYTES = 0,
    KJIT_BUFFER_BYTEARRAY = 1,
    KJIT_BUFFER_MEMORYVIEW = 2,    /* over writable memory */
    KJIT_BUFFER_MEMORYVIEW_RO = 3, /* over read-only memory (memoryview(b'..')) */
} kjit_buffer_kind;


/* Since 0.5: the state of a NumPy PCG64 bit generator (bit_generator.state:
 * the 128-bit state and increment, has_uint32 and uinteger), which
 * compiled Generator methods advance exactly as NumPy's. It must be 16-byte
 * aligned (the type says so; malloc's memory is): compiled code works on it
 * in place, so draws after a call continue the stream. */
#ifdef __cplusplus
#define KJIT_ALIGN16 alignas(16)
#else
#define KJIT_ALIGN16 _Alignas(16)
#endif
typedef struct kjit_rng {
    KJIT_ALIGN16 uint64_t state_lo; /* state = state_hi * 2**64 + state_lo */
    uint64_t state_hi;
    uint64_t inc_lo, inc_hi;
    bool has_uint32;
    uint32_t uinteger;
} kjit_rng;

/* Since 0.5: a record value: `data` its bytes (the caller's for an
 * argument), laid out as `desc` says. */
typedef struct kjit_record {
    const kjit_record_desc *desc;
    void *data;
} kjit_record;

struct kjit_value;
struct kjit_dict;
typedef struct kjit_generator kjit_generator; /* since 0.5: opaque */

/* Since 0.5: the items of a list or set value (KJIT_VALUE_LIST, KJIT_VALUE_SET),
 * all of one type (the same kind, dtype, array rank and layout, tuple shape),
 * as Numba's reflected list and set.
 *
 * An argument: the caller's list, with `owned` false and items the caller's
 * (borrowed, as a tuple's). An empty one (n 0) is typed by items[0], an
 * example item of its type (a numba.typed.List knows its item type when
 * empty); with `items` NULL it cannot be typed (Numba cannot type an empty
 * reflected list: KJIT_ERR_USAGE). Reflection: when the call changed the list (append,
 * pop, sort, an item stored, +=; for a set add, remove, ...), also when it
 * raised, kjit writes the new contents back into this struct: `items` then
 * points to a new array of `n` values that kjit allocated (result values,
 * each as kjit_value_release knows them) and `owned` becomes true. The items
 * array the caller had is left as it was (kjit never frees the caller's
 * memory); kjit_list_release frees what kjit wrote. A list that was only read
 * is not touched. A list passed again after a reflection may have been
 * reflected into: kjit frees the owned items it replaces. Lists inside a tuple
 * argument are passed but not reflected (as Numba); lists of lists are passed,
 * the outer list reflected with copies of the inner ones.
 *
 * A result: a new malloc'd struct, `owned` true, released (with its items) by
 * kjit_value_release. `from_arg` is k + 1 when the function returned argument
 * k's own list (Numba returns that Python object itself), 0 otherwise. */
typedef struct kjit_list {
    int64_t n;
    struct kjit_value *items;
    bool owned;
    int from_arg;
} kjit_list;

/* Frees what kjit wrote into argument list `l` by reflection (its owned items) and
 * empties it (n 0, items NULL, owned false). Nothing when `owned` is false. */
void kjit_list_release(kjit_list *l);

/* The items of a tuple value, in order. */
typedef struct kjit_tuple {
    int n;
    struct kjit_value *items;
} kjit_tuple;

/* An argument or result whose type is known only at run time. An integer
 * argument has exactly the type its dtype says (int64 for kjit_value_int),
 * as a typed NumPy scalar would in Numba: Python's weak literal typing does
 * not apply. */
typedef struct kjit_value {
    kjit_value_kind kind;
    kjit_dtype dtype; /* INT and FLOAT: the exact type; an ARRAY result: its element type */
    union {
        bool b;
        int64_t i; /* signed, and unsigned stored as their bits */
        double f;  /* float32 values too (exactly representable) */
        const char *s;
        struct kjit_fn *fn; /* KJIT_VALUE_FUNCTION (since 0.5) */
        kjit_array *a; /* arguments: borrowed; results: the caller's, to kjit_array_free */
        kjit_tuple *t;
        kjit_list *l; /* since 0.5: KJIT_VALUE_LIST, KJIT_VALUE_SET */
        kjit_rng *rng;   /* since 0.5 */
        kjit_record *rec; /* since 0.5 */
        struct kjit_dict *d; /* since 0.5 */
        kjit_generator *g;   /* since 0.5 */
        /* since 0.5 (the union grew from 8 to 16 bytes then): */
        struct { double re, im; } c;                /* COMPLEX */
        struct { int64_t count; int32_t unit; } dt; /* INT of dtype KJIT_DATETIME64 / KJIT_TIMEDELTA64:
                                                       count is v.i; unit a KJIT_UNIT_* */
        struct { kjit_array *a; kjit_buffer_kind kind; } buf; /* BYTES; a is v.a */
    } v;
} kjit_value;

/* Since 0.5: a numba.typed.Dict (DictType[key, value]) as a value: its n
 * entries in insertion order, and its key and value types, each written
 * as a type value: a kjit_value whose kind and dtype name the type
 * (BOOL; INT and FLOAT with their dtype; STR; ARRAY with dtype the element
 * type and v.i the rank, any layout; TUPLE with v.t's items type values).
 * Keys: booleans, integers, floats, strings and tuples of them; values:
 * those and arrays. Compiled code gets a dict of its own made from the
 * entries (string keys and values and arrays are the caller's: they must
 * live through the call) and works on it as on any typed.Dict; after the
 * call kjit sets `after` to the dict's entries as the code left them (a
 * kjit_dict of kjit's, for the caller to free with kjit_dict_free), so
 * that the caller can reflect the changes, as Numba reflects a list.
 * A result is a kjit_dict of kjit's (its strings copied, its arrays
 * holding references), released with kjit_value_release. */
typedef struct kjit_dict {
    int64_t n;
    struct kjit_value *keys, *values; /* n each */
    struct kjit_value key_type, value_type;
    struct kjit_dict *after; /* an argument's entries after the call, NULL before */
} kjit_dict;

/* Since 0.5: the next value of a generator that kjit_call returned (as
 * Python's next()): KJIT_OK and *done false with the value in *out (the
 * caller's, to kjit_value_release), or KJIT_OK and *done true when the
 * generator is exhausted; an exception its body raises is
 * KJIT_ERR_RUNTIME, with the class and message as kjit_call gives them.
 * After the end or an exception it stays done. The body runs in the
 * generator's own run context, which holds what it makes (arrays,
 * strings) until kjit_value_release; its module must outlive it. Not
 * for two threads at once on one generator. */
int kjit_generator_next(struct kjit_value *gen, struct kjit_value *out, bool *done, kjit_error *err);

/* Since 0.5: free a kjit_dict kjit made (a result's, an argument's
 * `after`): its entries, and its own `after`. NULL is fine. */
void kjit_dict_free(kjit_dict *d);

static inline kjit_value kjit_value_bool(bool b)
{
    kjit_value x = {KJIT_VALUE_BOOL, KJIT_BOOL, {0}};
    x.v.b = b;
    return x;
}
static inline kjit_value kjit_value_int(int64_t i)
{
    kjit_value x = {KJIT_VALUE_INT, KJIT_INT64, {0}};
    x.v.i = i;
    return x;
}
/* An integer of another width: dtype KJIT_INT8 .. KJIT_UINT64. */
static inline kjit_value kjit_value_int_as(int64_t i, kjit_dtype dtype)
{
    kjit_value x = {KJIT_VALUE_INT, dtype, {0}};
    x.v.i = i;
    return x;
}
static inline kjit_value kjit_value_float(double f)
{
    kjit_value x = {KJIT_VALUE_FLOAT, KJIT_FLOAT64, {0}};
    x.v.f = f;
    return x;
}
static inline kjit_value kjit_value_float32(float f)
{
    kjit_value x = {KJIT_VALUE_FLOAT, KJIT_FLOAT32, {0}};
    x.v.f = f;
    return x;
}
static inline kjit_value kjit_value_str(const char *s)
{
    kjit_value x = {KJIT_VALUE_STR, KJIT_BOOL, {0}};
    x.v.s = s;
    return x;
}
static inline kjit_value kjit_value_array(kjit_array *a)
{
    kjit_value x = {KJIT_VALUE_ARRAY, KJIT_BOOL, {0}};
    x.v.a = a;
    return x;
}

/* Since 0.5: a complex number; dtype KJIT_COMPLEX128 (Python's complex) or
 * KJIT_COMPLEX64 (np.complex64). */
static inline kjit_value kjit_value_complex(double re, double im, kjit_dtype dtype)
{
    kjit_value x = {KJIT_VALUE_COMPLEX, dtype, {0}};
    x.v.c.re = re;
    x.v.c.im = im;
    return x;
}
/* Since 0.5: np.datetime64 / np.timedelta64 (dtype KJIT_DATETIME64 or
 * KJIT_TIMEDELTA64): `count` units (a KJIT_UNIT_*); INT64_MIN is NaT. */
static inline kjit_value kjit_value_datetime(int64_t count, int unit, kjit_dtype dtype)
{
    kjit_value x = {KJIT_VALUE_INT, dtype, {0}};
    x.v.dt.count = count;
    x.v.dt.unit = unit;
    return x;
}
/* Since 0.5: a bytes, bytearray or memoryview argument over array `a`
 * (1-d uint8 for bytes and bytearray). */
static inline kjit_value kjit_value_buffer(kjit_array *a, kjit_buffer_kind kind)
{
    kjit_value x = {KJIT_VALUE_BYTES, KJIT_UINT8, {0}};
    x.v.buf.a = a;
    x.v.buf.kind = kind;
    return x;
}

/* A tuple argument over the caller's items (nested tuples and arrays
 * allowed): kjit_tuple t = {2, items}; kjit_value_tuple(&t). */
static inline kjit_value kjit_value_tuple(kjit_tuple *t)
{
    kjit_value x = {KJIT_VALUE_TUPLE, KJIT_BOOL, {0}};
    x.v.t = t;
    return x;
}

/* Since 0.5: a list or set argument over the caller's kjit_list (n > 0 items of one
 * type; see kjit_list for reflection): kjit_list l = {3, items, false, 0};
 * kjit_value_list(&l). */
static inline kjit_value kjit_value_list(kjit_list *l)
{
    kjit_value x = {KJIT_VALUE_LIST, KJIT_BOOL, {0}};
    x.v.l = l;
    return x;
}
static inline kjit_value kjit_value_set(kjit_list *l)
{
    kjit_value x = {KJIT_VALUE_SET, KJIT_BOOL, {0}};
    x.v.l = l;
    return x;
}
/* Since 0.5: the class of a tuple value, in its kjit_value's dtype (KJIT_TUPLE_PLAIN, which
 * kjit_value_tuple sets, for a plain tuple): KJIT_TUPLE_POLYNOMIAL is a
 * numpy.polynomial.Polynomial, its items coef, domain and window (1-d
 * arrays), Numba's PolynomialType. A Polynomial result comes back so. */
enum { KJIT_TUPLE_PLAIN = 0, KJIT_TUPLE_POLYNOMIAL = 1 };

/* Since 0.5: a Generator argument over the caller's state. */
static inline kjit_value kjit_value_rng(kjit_rng *g)
{
    kjit_value x = {KJIT_VALUE_RNG, KJIT_BOOL, {0}};
    x.v.rng = g;
    return x;
}
/* Since 0.5: a record argument over the caller's bytes (kjit_record r = {&desc, data}). */
static inline kjit_value kjit_value_record(kjit_record *r)
{
    kjit_value x = {KJIT_VALUE_RECORD, KJIT_RECORD, {0}};
    x.v.rec = r;
    return x;
}
/* Since 0.5: a dict argument (the caller's kjit_dict, read during the call; kjit sets its `after`). */
static inline kjit_value kjit_value_dict(kjit_dict *d)
{
    kjit_value x = {KJIT_VALUE_DICT, KJIT_BOOL, {0}};
    x.v.d = d;
    return x;
}

/* Release what a result of kjit_call owns: an array (kjit_array_free), a
 * tuple's items (each released) and storage, a list's or set's items and struct. Nothing for other kinds. `v`
 * becomes a none value. Only for results: arguments are the caller's. */
void kjit_value_release(kjit_value *v);
/* Since 0.5: the namedtuple class name of a tuple RESULT ("Point" for a
 * collections.namedtuple('Point', ...) instance, whose fields are the items
 * in order; the module's string, valid while it lives), NULL for a plain
 * tuple. Only for tuples kjit made (results and their nested tuples), never
 * for a caller's. */
const char *kjit_tuple_name(const kjit_tuple *t);

/* "int64", "float32", "bool", "str", "array(float32, 1d)", "(int64, float64)",
 * "none"; since 0.5 "list(int64)", "set(str)" (an empty list's items: "undefined") */
const char *kjit_value_type_name(const kjit_value *v, char *buf, size_t cap);

/* Since 0.5: a module-level value given by the host, for programs whose
 * source reads a global it does not bind (Python's globals of a decorated
 * function, as Numba sees them). An array value (1 to 4 dimensions; bool,
 * integer and float dtypes; any strides) is frozen: its elements are
 * copied when the program compiles and compiled code reads them as a
 * read-only C-order constant, as Numba freezes global arrays (a write is a
 * compile error). The elements take part in the cache key. */
typedef struct kjit_global {
    const char *name;
    kjit_value value;       /* KJIT_VALUE_ARRAY (the caller's; read during the call only) */
} kjit_global;
/* kjit_compile with `nglobals` globals: a name the source binds itself is
 * the source's. KJIT_ERR_USAGE for a global kjit cannot take (naming it). */
kjit_module *kjit_compile_globals(kjit_ctx *ctx, const char *source, size_t len, const char *filename,
                                  const kjit_global *globals, int nglobals, kjit_error *err);

/* ---- functions ---- */

typedef enum kjit_fn_kind {
    KJIT_FN_MAIN,   /* the program's main */
    KJIT_FN_HELPER, /* an undecorated host function */
    KJIT_FN_JIT,    /* @jit / @njit */
    KJIT_FN_KERNEL, /* @cuda.jit: launched, not called */
    KJIT_FN_DEVICE, /* @cuda.jit(device=True): called from kernels only */
    KJIT_FN_UFUNC,  /* @vectorize */
    KJIT_FN_GUFUNC, /* @guvectorize */
} kjit_fn_kind;

/* A function of the module by its name (a kernel, ufunc, @jit function,
 * helper or main), or NULL when there is none. The handle belongs to the
 * module (the same one for every lookup of a name). */
kjit_fn *kjit_module_get(kjit_module *m, const char *name);
const char *kjit_fn_name(const kjit_fn *f);
kjit_fn_kind kjit_fn_get_kind(const kjit_fn *f);
/* Its parameters in order: names, and the default of parameter i as written
 * in the source ("10", "N * 2") or NULL when it has none. */
int kjit_fn_param_count(const kjit_fn *f);
const char *kjit_fn_param_name(const kjit_fn *f, int i);
const char *kjit_fn_param_default_text(const kjit_fn *f, int i);
/* The value of parameter i's default (constants are evaluated: `n=N * 2`
 * gives an int). Python ints are int64, floats float64. Returns false when
 * the parameter has no constant default. */
bool kjit_fn_param_default(kjit_fn *f, int i, kjit_value *out);

/* Call a main, helper, @jit function or ufunc (scalar arguments) with
 * arguments whose types are known only now. The first call with new
 * argument types compiles a specialisation (as Numba's dispatcher does);
 * later calls with the same types reuse it. `result` may be NULL; an array
 * result must be released with kjit_array_free, a tuple result with
 * kjit_value_release (which also does for arrays). Returns KJIT_OK or the
 * error's code with `err` filled: KJIT_ERR_USAGE for a wrong number or
 * kind of arguments, KJIT_ERR_COMPILE when the function does not type-check
 * for these arguments, KJIT_ERR_RUNTIME for an error raised by the code
 * (message "IndexError: ...", and its file, line and column). */
int kjit_call(kjit_fn *f, const kjit_value *args, int nargs, kjit_value *result, kjit_error *err);

/* Since 0.5: a prepared call, for a function called many times with
 * arguments of the same types (the Python package's dispatcher keeps one
 * per argument-type key). kjit_call_prepare checks `args` (numbers, bools
 * and arrays; since 0.5 Generators, records, complex and datetime values and buffers
 * too; a string or tuple is KJIT_ERR_USAGE) and finds (compiles)
 * the specialisation once; kjit_call_prepared then calls it with arguments
 * of the same kinds, dtypes, ranks and (for arrays whose code assumes it)
 * contiguity, different values allowed: no type dispatch, no lock, and no
 * allocation unless the result needs one (an array, a tuple). An argument
 * of another type is KJIT_ERR_USAGE naming it. Otherwise as kjit_call. A
 * plan belongs to one thread at a time; free it before its module. */
typedef struct kjit_call_plan kjit_call_plan;
kjit_call_plan *kjit_call_prepare(kjit_fn *f, const kjit_value *args, int nargs, kjit_error *err);
int kjit_call_prepared(kjit_call_plan *p, const kjit_value *args, kjit_value *result, kjit_error *err);
void kjit_call_plan_free(kjit_call_plan *p);

/* Since 0.5: does f, specialised for `args` (compiled at first need, as
 * kjit_call or, for a kernel, kjit_launch would), write the array of
 * argument i: a store, fill, sort, atomic or ufunc `out` into it or a view of
 * it, or a call of a function that writes it? For an application whose
 * memory may be read-only (the Python package refuses a read-only NumPy
 * array there, as Numba's typing refuses to write a readonly array).
 * KJIT_ERR_USAGE when argument i is not an array; otherwise as kjit_call. */
int kjit_fn_writes_arg(kjit_fn *f, const kjit_value *args, int nargs, int i, bool *out, kjit_error *err);

typedef struct kjit_dim3 {
    uint32_t x, y, z;
} kjit_dim3;

/* Launch a kernel over `grid` blocks of `block` threads on the context's
 * target (the GPU for cuda, the calling thread's CPU otherwise), on the
 * caller's arrays; specialised for the arguments' types like kjit_call.
 * Since 0.5 arguments may be tuples (nested, of numbers and arrays): each
 * passes as its leaves (kjit_launch_prepare refuses them).
 * On the GPU the launch is asynchronous, as cuLaunchKernel is: it returns
 * once the kernel is queued (a kernel that can raise, e.g. compiled with
 * boundscheck, is waited for, so that its error is this call's); kjit_sync
 * waits for every launch, and kjit_array_data brings an array's data back.
 * On the CPU it returns when the kernel has run. A configuration the
 * driver would refuse or an error the kernel raises is KJIT_ERR_RUNTIME
 * here; a fault in a kernel is reported by the next call that waits for
 * the GPU (kjit_sync, kjit_array_data, a launch of a kernel that can raise). */
int kjit_launch(kjit_fn *f, kjit_dim3 grid, kjit_dim3 block, const kjit_value *args, int nargs,
                kjit_error *err);
/* Since 0.5: a prepared launch, for a kernel launched many times with
 * arguments of the same types. kjit_launch_prepare checks `args` and finds
 * (compiles) the specialisation once; kjit_launch_prepared then launches
 * with arguments of the same kinds, dtypes, ranks and (for arrays whose
 * code assumes it) contiguity as at prepare, different values allowed, and
 * does no type dispatch, takes no lock and allocates nothing. An argument
 * of another type is KJIT_ERR_USAGE naming it. Otherwise as kjit_launch.
 * A plan belongs to one thread at a time; free it before its module. */
typedef struct kjit_launch_plan kjit_launch_plan;
kjit_launch_plan *kjit_launch_prepare(kjit_fn *f, const kjit_value *args, int nargs, kjit_error *err);
int kjit_launch_prepared(kjit_launch_plan *p, kjit_dim3 grid, kjit_dim3 block, const kjit_value *args,
                         kjit_error *err);
void kjit_launch_plan_free(kjit_launch_plan *p);
/* Wait for the GPU's work and report a fault of it (KJIT_ERR_RUNTIME);
 * KJIT_OK at once without a GPU. */
int kjit_sync(kjit_ctx *ctx, kjit_error *err);

/* ---- faults in compiled code ---- */

/* The exit status of a process ended by the fault handler. */
enum { KJIT_FAULT_EXIT_STATUS = 70 };

/* Since 0.4: opt in to kjit's handler of SIGSEGV, SIGBUS, SIGFPE and SIGILL
 * (what `kjit run` does). Compiled code that faults (an out-of-bounds
 * write without boundscheck is undefined behaviour, as in Numba) then
 * prints "kjit: fatal: SIGSEGV in compiled function NAME (file.k:LINE);
 * rerun with --boundscheck" on stderr and ends the process with
 * KJIT_FAULT_EXIT_STATUS; the same signals outside compiled code go on to
 * the handlers installed before this call (or the default action). The
 * handler runs on an alternate signal stack (one is set up for each thread
 * that runs compiled code and has none). Process-wide and permanent;
 * calling it again does nothing. Without this call kjit installs no signal
 * handler. KJIT_ERR_USAGE when it cannot be installed (a kjit built with
 * AddressSanitizer, which reports faults itself). */
int kjit_install_fault_handler(kjit_error *err);

/* ---- the compile cache ---- */

typedef struct kjit_cache_stats {
    uint64_t hits;      /* compiles (and call-time specialisations) that reused cached
                           machine code (memory or disk) */
    uint64_t disk_hits; /* of which read from the cache directory */
    uint64_t misses;    /* compiles (and specialisations) that generated code */
    uint64_t corrupt;   /* damaged cache entries found (and replaced) */
} kjit_cache_stats;

/* The context's cache counters since kjit_ctx_new; `dir` (may be NULL)
 * receives the cache directory in use, or NULL when there is none (cache
 * off, or only in memory). */
kjit_cache_stats kjit_ctx_cache_stats(kjit_ctx *ctx, const char **dir);

/* Since 0.5: the cache directory as a whole, without a context (kjit cache). */
typedef struct kjit_cache_info {
    char dir[4096];     /* the directory; "" when none can be named (no KJIT_CACHE_DIR,
                           XDG_CACHE_HOME or HOME) */
    uint64_t entries;   /* entry files in it */
    uint64_t bytes;     /* their total size */
    uint64_t max_bytes; /* the bound: $KJIT_CACHE_MAX, else 1 GiB; past it, least recently
                           used entries are removed after each write */
    uint64_t hits;      /* entries read from it since it was created, by every process */
} kjit_cache_info;

/* Fill `info` for directory `dir` (NULL: the default one). KJIT_ERR_USAGE
 * when $KJIT_CACHE_MAX is set but not a size, naming the variable. A
 * missing directory has no entries. */
int kjit_cache_info_get(const char *dir, kjit_cache_info *info, kjit_error *err);
/* Remove every entry of `dir` (NULL: the default one); *removed (may be
 * NULL) receives how many. Safe while other processes use the cache: they
 * miss and recompile. KJIT_ERR_USAGE when no directory can be named. */
int kjit_cache_clear(const char *dir, uint64_t *removed, kjit_error *err);

/* ---- Numba's thread-pool settings (since 0.5) ---- */

/* numba.set_num_threads / set_parallel_chunksize as the application's code
 * calls them outside compiled code (Numba's user/threading-layer.rst,
 * user/parallel.rst "Scheduling"). A context holds them: every call of its
 * modules starts with them, and what compiled code sets through
 * numba.set_num_threads / set_parallel_chunksize stays set for later calls.
 * (Numba keeps them per thread; kjit per context: two threads calling one
 * context's modules share them.) */
typedef enum kjit_threads_setting {
    KJIT_THREADS_NUM = 0,       /* numba.get/set_num_threads: 1..KJIT_THREADS_MAX */
    KJIT_THREADS_CHUNKSIZE = 1, /* numba.get/set_parallel_chunksize: >= 0 (0: kjit's schedule) */
    KJIT_THREADS_MAX = 2,       /* read only: numba.config.NUMBA_NUM_THREADS, the pool's size
                                   (KJIT_NUM_THREADS, else NUMBA_NUM_THREADS, else the CPUs) */
    KJIT_THREADS_CPUS = 3,      /* read only: numba.config.NUMBA_DEFAULT_NUM_THREADS */
} kjit_threads_setting;

/* The setting's value; -1 for an unknown `which`, or for KJIT_THREADS_MAX
 * when the environment's thread count is bad. `ctx` may be NULL for
 * KJIT_THREADS_MAX and KJIT_THREADS_CPUS. */
int64_t kjit_ctx_threads_get(kjit_ctx *ctx, kjit_threads_setting which);
/* Set KJIT_THREADS_NUM or KJIT_THREADS_CHUNKSIZE; KJIT_ERR_USAGE with
 * Numba's ValueError message for a value out of range ("The number of
 * threads must be between 1 and 8", "chunksize must be greater than or
 * equal to zero"). */
kjit_status kjit_ctx_threads_set(kjit_ctx *ctx, kjit_threads_setting which, int64_t value, kjit_error *err);

/* Since 0.5: how a run-time error's exception (KJIT_ERR_RUNTIME) took its
 * arguments, so that a host language can make the same exception object:
 * the message after "Name: " is str() of the exception, and
 *   KJIT_EXC_ARGS_NONE   no arguments (`raise ValueError`);
 *   KJIT_EXC_ARGS_STR    one string, the message;
 *   KJIT_EXC_ARGS_REPR   one value whose repr() the message is (a number, a
 *                        KeyError's key: "KeyError: 'missing'");
 *   KJIT_EXC_ARGS_TUPLE  several: the message is the tuple's repr()
 *                        (`raise ValueError("negative", 2)`);
 *   KJIT_EXC_ARGS_UNKNOWN  not a run-time error of kjit_call, or not known. */
typedef enum kjit_exc_args {
    KJIT_EXC_ARGS_UNKNOWN = 0,
    KJIT_EXC_ARGS_NONE = 1,
    KJIT_EXC_ARGS_STR = 2,
    KJIT_EXC_ARGS_REPR = 3,
    KJIT_EXC_ARGS_TUPLE = 4,
} kjit_exc_args;
kjit_exc_args kjit_error_exc_args(const kjit_error *err);

/* ---- what kjit finds on this machine (since 0.5; kjit sysinfo) ---- */

typedef struct kjit_sysinfo_line {
    char key[64];    /* "LLVM version", "GPU 0", ... (distinct) */
    char value[448]; /* what was found, or "not found" and why */
} kjit_sysinfo_line;

/* Up to `cap` lines into `lines` (may be NULL with cap 0); returns how many
 * there are (more than cap: call again with room for all). Never fails for
 * what is absent (no CUDA driver, no GPU, no MPI): those lines say "not
 * found". Opens the CUDA driver and each device's primary context to ask
 * them, and the MPI library (without initialising MPI). */
int kjit_sysinfo(kjit_sysinfo_line *lines, int cap);

#ifdef __cplusplus
}
#endif

#endif
