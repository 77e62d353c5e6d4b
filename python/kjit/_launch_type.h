/* SPDX-License-Identifier: BSD-2-Clause */
/* _fast.Launch: the C base of a kernel's launch configuration, `k[blocks, threads]` (kjit/cuda.py's _Launch),
 * whose __call__ is this vectorcall (docs/python.md, "Launches"). Included by _fast.c after
 * _dispatch_type.h, whose argument keys it extends.
 *
 * As _fast.Dispatch does for calls: a launch whose arguments are Python bools, ints and floats, NumPy
 * scalars of kjit's dtypes, NumPy arrays (as the call path takes them) and kjit device arrays is keyed on
 * their types; a key seen before maps to a prepared launch (kjit_launch_prepare) and the launch runs with no
 * Python code, no type dispatch and, for device arrays and scalars, no allocation: a device array passes its
 * own kjit_array. Host arrays on the cpu target go through wrappers kept per argument position
 * (kjit_array_rewrap); on the GPU, where kjit copies them to the device and back around the launch as Numba
 * does, each launch wraps them afresh and brings their data back after. Anything else -- keywords, another
 * arity, an unseen key, another library's GPU array (its interface is read and its stream waited for by the
 * Python path), a device array shared with another library on the cpu target, a unit that prints, a kernel
 * not compiled for kjit.config.TARGET -- goes to the Python path (`slow`), after which the key gets its
 * prepared launch. */

typedef struct launch_entry {
    int nargs;
    uint32_t key[MAX_FAST_ARGS];
    kjit_launch_plan *plan;
} launch_entry;

/* Another library's GPU array (CuPy, PyTorch, Numba: __cuda_array_interface__) as a launch saw it: the
 * layout its interface gave and kjit's array over that memory (kjit_array_wrap_device, which checked that
 * the span is device memory of this context). A later launch whose argument gives the same layout uses the
 * same array: no allocation, no driver call. It describes the memory, it does not own it (nor does kjit's
 * array): memory freed and handed out again at the same address and layout is that layout's memory again. */
enum { CAI_SLOTS = 2 }; /* two per position: ping-pong buffers stay on the fast path */
typedef struct cai_slot {
    kjit_array *a;
    uint64_t ptr;
    int dt, nd;
    int64_t shape[4], strides[4];
} cai_slot;

typedef struct launch_object {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    fast_state *st;
    PyObject *module; /* _fast, whose state st is */
    PyObject *slow;   /* the Python path: slow(*args, **kwargs) */
    PyObject *raise;  /* raise((status, message, file, line, col)): raises the launch's error */
    PyObject *owner;  /* what keeps fn's module alive (the Compiled) */
    PyObject *target; /* kjit.config.TARGET when fn was bound */
    kjit_fn *fn;      /* NULL: every launch goes to slow */
    kjit_dim3 grid, block;
    bool on_gpu; /* host arrays are copied to the device and back */
    int nparams;
    int nentries;
    launch_entry entries[MAX_ENTRIES];
    kjit_array *wrappers[MAX_FAST_ARGS]; /* host arrays on the cpu target */
    uint16_t wrapper_types[MAX_FAST_ARGS]; /* dtype | rank << 8 of each: rewrap keeps a wrapper's dtype */
    kjit_ctx *ctx;                         /* the context foreign GPU arrays are wrapped in */
    cai_slot cai[MAX_FAST_ARGS][CAI_SLOTS]; /* per position, the foreign GPU arrays seen last */
} launch_object;

/* fast_enable_vectorcall (_dispatch_type.h) sets a subclass's vectorcall offset as Dispatch's */
_Static_assert(offsetof(launch_object, vectorcall) == offsetof(dispatch_object, vectorcall),
               "Launch's vectorcall field where Dispatch has its own");

static void launch_unbind(launch_object *l)
{
    for (int k = 0; k < l->nentries; k++) l->st->launch_plan_free(l->entries[k].plan);
    l->nentries = 0;
    for (int k = 0; k < MAX_FAST_ARGS; k++) {
        if (l->wrappers[k]) l->st->free_array(l->wrappers[k]);
        l->wrappers[k] = NULL;
    }
    for (int k = 0; k < MAX_FAST_ARGS; k++)
        for (int j = 0; j < CAI_SLOTS; j++) {
            if (l->cai[k][j].a) l->st->free_array(l->cai[k][j].a);
            l->cai[k][j].a = NULL;
        }
    l->fn = NULL;
    l->ctx = NULL;
    Py_CLEAR(l->owner);
    Py_CLEAR(l->target);
}

/* A NumPy scalar of one of kjit's dtypes (its exact type, as given to init_launch) as a value; its key. */
static uint32_t npscalar_key(fast_state *st, PyObject *o, kjit_value *v)
{
#ifdef KJ_HAVE_NUMPY_H
    PyTypeObject *t = Py_TYPE(o);
    int dt = 0;
    while (dt < KJ_NSCALARS && st->scalar_types[dt] != t) dt++;
    switch (dt) {
    case KJIT_BOOL: *v = kjit_value_bool(PyArrayScalar_VAL(o, Bool) != 0); return 2;
    case KJIT_INT8: *v = kjit_value_int_as(PyArrayScalar_VAL(o, Byte), KJIT_INT8); break;
    case KJIT_INT16: *v = kjit_value_int_as(PyArrayScalar_VAL(o, Short), KJIT_INT16); break;
    case KJIT_INT32: *v = kjit_value_int_as(PyArrayScalar_VAL(o, Int), KJIT_INT32); break;
    case KJIT_INT64: *v = kjit_value_int_as((int64_t)PyArrayScalar_VAL(o, Long), KJIT_INT64); break;
    case KJIT_UINT8: *v = kjit_value_int_as(PyArrayScalar_VAL(o, UByte), KJIT_UINT8); break;
    case KJIT_UINT16: *v = kjit_value_int_as(PyArrayScalar_VAL(o, UShort), KJIT_UINT16); break;
    case KJIT_UINT32: *v = kjit_value_int_as(PyArrayScalar_VAL(o, UInt), KJIT_UINT32); break;
    case KJIT_UINT64: *v = kjit_value_int_as((int64_t)(uint64_t)PyArrayScalar_VAL(o, ULong), KJIT_UINT64); break;
    case KJIT_FLOAT32: *v = kjit_value_float32(PyArrayScalar_VAL(o, Float)); return 1 | (uint32_t)KJIT_FLOAT32 << 4;
    case KJIT_FLOAT64: *v = kjit_value_float(PyArrayScalar_VAL(o, Double)); return 1 | (uint32_t)KJIT_FLOAT64 << 4;
    default: return 0;
    }
    return 3 | (uint32_t)dt << 4;
#else
    (void)st, (void)o, (void)v;
    return 0;
#endif
}

/* Is this layout C (or, reversed, Fortran) contiguous, as NumPy's flags say (dimensions of one ignored)? */
static bool contiguous(int nd, const int64_t *shape, const int64_t *strides, int64_t item, bool fortran)
{
    int64_t want = item;
    for (int k = 0; k < nd; k++) {
        int d = fortran ? k : nd - 1 - k;
        if (shape[d] == 0) return true;
        if (shape[d] != 1 && strides[d] != want) return false;
        want *= shape[d];
    }
    return true;
}

/* A kjit device array (cuda.DeviceNDArray, exactly): its own kjit_array, borrowed for the launch. */
static uint32_t device_key(launch_object *l, PyObject *o, kjit_value *v)
{
    fast_state *st = l->st;
    if (!l->on_gpu) { /* shared with another library: its host copy must be made current (Python) */
        PyObject *shared = PyObject_GetAttr(o, st->shared_name);
        int yes = shared ? PyObject_IsTrue(shared) : -1;
        Py_XDECREF(shared);
        if (yes != 0) {
            PyErr_Clear();
            return 0;
        }
    }
    PyObject *p = PyObject_GetAttr(o, st->ptr_name);
    kjit_array *a = p && PyLong_CheckExact(p) ? PyLong_AsVoidPtr(p) : NULL;
    Py_XDECREF(p);
    if (!a) {
        PyErr_Clear();
        return 0;
    }
    int nd = st->array_ndim(a), dt = (int)st->array_dtype(a);
    if (nd < 1 || nd > 4 || dt < 0 || dt > KJIT_FLOAT64) return 0;
    static const int64_t items[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8};
    const int64_t *shape = st->array_shape(a), *strides = st->array_strides(a);
    *v = kjit_value_array(a);
    return 5 | (uint32_t)dt << 4 | (uint32_t)nd << 9 |
           (uint32_t)contiguous(nd, shape, strides, items[dt], false) << 12 |
           (uint32_t)contiguous(nd, shape, strides, items[dt], true) << 13;
}

/* The kjit dtype of a CAI typestr (native little-endian, or `|` for one byte), or -1. */
static int typestr_dtype(PyObject *t)
{
    const char *s = PyUnicode_Check(t) ? PyUnicode_AsUTF8(t) : NULL;
    if (!s || strlen(s) != 3 || (s[0] != '<' && s[0] != '|')) return -1;
    static const char *const names[] = {"b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8"};
    for (int k = 0; k < KJ_NSCALARS; k++)
        if (!strcmp(s + 1, names[k])) return k;
    return -1;
}

/* n Python ints into out (1 to 4 of them, from a tuple); false otherwise. */
static bool int_tuple(PyObject *t, int64_t *out, Py_ssize_t n)
{
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != n) return false;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *x = PyTuple_GET_ITEM(t, k);
        out[k] = PyLong_Check(x) ? PyLong_AsLongLong(x) : -1;
        if (out[k] == -1 && (!PyLong_Check(x) || PyErr_Occurred())) return false;
    }
    return true;
}

/* A foreign GPU array's layout from its interface (version 3, no mask, a stream of None or the legacy default
 * one, which kjit's own work is ordered on; anything else is the Python path's: it waits, or says why). */
static bool cai_layout(PyObject *o, cai_slot *d)
{
    PyObject *cai = PyObject_GetAttrString(o, "__cuda_array_interface__");
    bool ok = false;
    if (cai && PyDict_CheckExact(cai)) {
        PyObject *ver = PyDict_GetItemString(cai, "version"), *mask = PyDict_GetItemString(cai, "mask");
        PyObject *stream = PyDict_GetItemString(cai, "stream"), *ty = PyDict_GetItemString(cai, "typestr");
        PyObject *shape = PyDict_GetItemString(cai, "shape"), *strides = PyDict_GetItemString(cai, "strides");
        PyObject *data = PyDict_GetItemString(cai, "data");
        long v = ver && PyLong_Check(ver) ? PyLong_AsLong(ver) : -1;
        d->nd = shape && PyTuple_Check(shape) ? (int)PyTuple_GET_SIZE(shape) : 0;
        d->dt = ty ? typestr_dtype(ty) : -1;
        ok = v >= 0 && v <= 3 && (!mask || mask == Py_None) && d->dt >= 0 && d->nd >= 1 && d->nd <= 4 &&
             /* no `stream` (v0-2, PyTorch's): the producer's stream is unknown, the Python path waits */
             v == 3 && stream && (stream == Py_None || (PyLong_Check(stream) && PyLong_AsLong(stream) == 1)) &&
             int_tuple(shape, d->shape, d->nd) && data && PyTuple_Check(data) && PyTuple_GET_SIZE(data) == 2 &&
             PyLong_Check(PyTuple_GET_ITEM(data, 0));
        if (ok) d->ptr = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(data, 0));
        if (ok && strides && strides != Py_None) {
            ok = int_tuple(strides, d->strides, d->nd);
        } else if (ok) { /* C order */
            static const int64_t items[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8};
            int64_t s = items[d->dt];
            for (int k = d->nd - 1; k >= 0; k--) d->strides[k] = s, s *= d->shape[k] ? d->shape[k] : 1;
        }
    }
    Py_XDECREF(cai);
    if (PyErr_Occurred()) PyErr_Clear();
    return ok && d->ptr;
}

static bool same_layout(const cai_slot *a, const cai_slot *b)
{
    return a->ptr == b->ptr && a->dt == b->dt && a->nd == b->nd &&
           !memcmp(a->shape, b->shape, (size_t)a->nd * sizeof *a->shape) &&
           !memcmp(a->strides, b->strides, (size_t)a->nd * sizeof *a->strides);
}

/* A foreign GPU array at position i: kjit's array over it from the slots (make: a new one when none fits,
 * as after the Python path's launch; else none fitting is 0, the Python path). */
static uint32_t cai_key(launch_object *l, Py_ssize_t i, PyObject *o, kjit_value *v, bool make)
{
    cai_slot d, *slots = l->cai[i];
    if (!l->on_gpu || !l->ctx || i >= MAX_FAST_ARGS || !cai_layout(o, &d)) return 0;
    int hit = -1;
    for (int j = 0; j < CAI_SLOTS && hit < 0; j++)
        if (slots[j].a && same_layout(&slots[j], &d)) hit = j;
    if (hit < 0 && !make) return 0;
    if (hit < 0) {
        kjit_error err;
        d.a = l->st->wrap_device(l->ctx, d.ptr, (kjit_dtype)d.dt, d.nd, d.shape, d.strides, &err);
        if (!d.a) return 0;
        if (slots[CAI_SLOTS - 1].a) l->st->free_array(slots[CAI_SLOTS - 1].a);
        memmove(&slots[1], &slots[0], (CAI_SLOTS - 1) * sizeof *slots); /* the newest first */
        slots[0] = d;
        hit = 0;
    }
    static const int64_t items[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8};
    const cai_slot *s = &slots[hit];
    *v = kjit_value_array(s->a);
    return 6 | (uint32_t)s->dt << 4 | (uint32_t)s->nd << 9 |
           (uint32_t)contiguous(s->nd, s->shape, s->strides, items[s->dt], false) << 12 |
           (uint32_t)contiguous(s->nd, s->shape, s->strides, items[s->dt], true) << 13;
}

static uint32_t launch_arg_key(launch_object *l, call_args *ca, Py_ssize_t i, PyObject *o, kjit_value *v,
                               bool make)
{
    fast_state *st = l->st;
    if (Py_TYPE(o) == st->device_type) return device_key(l, o, v);
    uint32_t k = npscalar_key(st, o, v);
    if (!k) k = arg_key(st, ca, o, v);
    if (!k && !PyTuple_Check(o) && Py_TYPE(o) != st->ndarray) k = cai_key(l, i, o, v, make);
    return k;
}

static bool launch_keyed_args(launch_object *l, call_args *ca, PyObject *const *args, Py_ssize_t n, uint32_t *key,
                              bool make)
{
    ca->nviews = ca->narrays = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!(key[i] = launch_arg_key(l, ca, i, args[i], &ca->values[i], make))) {
            release_args(l->st, ca);
            return false;
        }
    }
    return true;
}

static launch_entry *launch_find(launch_object *l, const uint32_t *key, Py_ssize_t n)
{
    for (int k = 0; k < l->nentries; k++)
        if (l->entries[k].nargs == n && !memcmp(l->entries[k].key, key, (size_t)n * sizeof *key))
            return &l->entries[k];
    return NULL;
}

/* The host arrays' values (key kind 4): on the GPU fresh wrappers (ca->arrays: the data comes back and
 * they are freed after the launch), on the cpu target the kept ones pointed at this launch's buffers. */
static bool launch_wrap(launch_object *l, call_args *ca, PyObject *const *args, Py_ssize_t n, const uint32_t *key)
{
    fast_state *st = l->st;
    for (Py_ssize_t i = 0, view = 0; i < n; i++) {
        if ((key[i] & 15) != 4) continue;
        int64_t shape[4], strides[4];
        void *data;
        int nd;
        kjit_dtype dt;
#ifdef KJ_HAVE_NUMPY_H
        (void)view;
        PyArrayObject *a = (PyArrayObject *)args[i];
        nd = PyArray_NDIM(a);
        data = PyArray_DATA(a);
        dt = (kjit_dtype)dtype_of_num(PyArray_DESCR(a)->type_num);
        for (int k = 0; k < nd; k++) shape[k] = PyArray_DIMS(a)[k], strides[k] = PyArray_STRIDES(a)[k];
#else
        (void)args;
        Py_buffer *b = &ca->views[view++];
        nd = b->ndim;
        data = b->buf;
        dt = (kjit_dtype)dtype_of(b->format, b->itemsize);
        for (int k = 0; k < nd; k++) shape[k] = b->shape[k], strides[k] = b->strides[k];
#endif
        kjit_error err;
        if (l->on_gpu) {
            kjit_array *w = st->wrap(NULL, data, dt, nd, shape, strides, &err);
            if (!w) return false;
            ca->arrays[ca->narrays++] = w;
            ca->values[i].v.a = w;
            continue;
        }
        kjit_array **w = &l->wrappers[i];
        /* kjit_array_rewrap keeps the wrapper's dtype and rank: another dtype at this position gets its own */
        uint16_t type = (uint16_t)(dt | nd << 8);
        if (!*w || l->wrapper_types[i] != type || st->rewrap(*w, data, shape, strides, &err) != KJIT_OK) {
            if (*w) st->free_array(*w);
            *w = st->wrap(NULL, data, dt, nd, shape, strides, &err);
            if (!*w) return false;
            l->wrapper_types[i] = type;
        }
        ca->values[i].v.a = *w;
    }
    return true;
}

/* After a Python-path launch: a prepared launch for this key (nothing when it cannot be made). */
static void launch_add_entry(launch_object *l, PyObject *const *args, Py_ssize_t n)
{
    call_args ca;
    uint32_t key[MAX_FAST_ARGS];
    if (!l->fn || !launch_keyed_args(l, &ca, args, n, key, true)) return; /* foreign arrays: new slots */
    if (l->nentries == MAX_ENTRIES) {
        release_args(l->st, &ca);
        return;
    }
    if (!launch_find(l, key, n) && launch_wrap(l, &ca, args, n, key)) {
        kjit_error err;
        kjit_launch_plan *p = l->st->launch_prepare(l->fn, ca.values, (int)n, &err);
        if (p) {
            launch_entry *e = &l->entries[l->nentries++];
            e->nargs = (int)n;
            memcpy(e->key, key, (size_t)n * sizeof *key);
            e->plan = p;
        }
    }
    release_args(l->st, &ca);
}

static bool launch_target_current(launch_object *l)
{
    PyObject *t = PyDict_GetItemWithError(l->st->config, l->st->target_name);
    if (!t) PyErr_Clear();
    return t == l->target;
}

static PyObject *launch_slow(launch_object *l, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    PyObject *r = PyObject_Vectorcall(l->slow, args, nargsf, kwnames);
    if (r && !kwnames && n == l->nparams && n <= MAX_FAST_ARGS && l->fn && launch_target_current(l))
        launch_add_entry(l, args, n);
    return r;
}

static PyObject *launch_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    launch_object *l = (launch_object *)self;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (!l->slow) {
        PyErr_SetString(PyExc_TypeError, "kjit launch not set up");
        return NULL;
    }
    if (!l->fn || (kwnames && PyTuple_GET_SIZE(kwnames)) || n != l->nparams || n > MAX_FAST_ARGS ||
        !launch_target_current(l))
        return launch_slow(l, args, nargsf, kwnames);
    call_args ca;
    uint32_t key[MAX_FAST_ARGS];
    if (!launch_keyed_args(l, &ca, args, n, key, false)) return launch_slow(l, args, nargsf, kwnames);
    launch_entry *e = launch_find(l, key, n);
    if (!e || !launch_wrap(l, &ca, args, n, key)) {
        release_args(l->st, &ca);
        return launch_slow(l, args, nargsf, kwnames);
    }
    kjit_error err;
    int code = l->st->launch_prepared(e->plan, l->grid, l->block, ca.values, &err);
    if (code == KJIT_OK)
        for (int i = 0; i < ca.narrays; i++) l->st->data(ca.arrays[i]); /* Numba's copy-out of host arrays */
    release_args(l->st, &ca);
    if (code == KJIT_ERR_USAGE) /* not of the plan's types after all (nothing ran): the Python path says why */
        return PyObject_Vectorcall(l->slow, args, nargsf, kwnames);
    if (code != KJIT_OK) {
        PyObject *t = Py_BuildValue("(iy#yii)", code, err.message, (Py_ssize_t)sizeof err.message, err.file, err.line, err.col);
        PyObject *r = t ? PyObject_CallOneArg(l->raise, t) : NULL;
        Py_XDECREF(t);
        return r;
    }
    Py_RETURN_NONE;
}

/* _kjit_launch_setup(slow, raise, nparams, grid, block): grid and block as (x, y, z) */
static PyObject *launch_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    launch_object *l = (launch_object *)self;
    PyObject *module = PyType_GetModuleByDef(Py_TYPE(self), &fast_module);
    if (!module) return NULL;
    if (nargs != 5 || !PyLong_Check(args[2]) || !dim3_of(args[3], &l->grid) || !dim3_of(args[4], &l->block)) {
        PyErr_SetString(PyExc_TypeError, "_kjit_launch_setup(slow, raise, nparams, (x, y, z), (x, y, z))");
        return NULL;
    }
    fast_state *st = state_of(module);
    if (!st->launch_prepare || !st->config) {
        PyErr_SetString(PyExc_RuntimeError, "_fast.init_launch() was not called");
        return NULL;
    }
    l->st = st;
    launch_unbind(l);
    Py_XSETREF(l->module, Py_NewRef(module));
    Py_XSETREF(l->slow, Py_NewRef(args[0]));
    Py_XSETREF(l->raise, Py_NewRef(args[1]));
    l->nparams = (int)PyLong_AsLong(args[2]);
    l->vectorcall = launch_vectorcall;
    Py_RETURN_NONE;
}

/* _kjit_bind(owner, fn_addr, target, on_gpu, ctx_addr); _kjit_bind(None, None, None, False, None) unbinds.
 * ctx: the context foreign GPU arrays are wrapped in (None: they take the Python path). */
static PyObject *launch_bind(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    launch_object *l = (launch_object *)self;
    if (nargs != 5 || !l->st) {
        PyErr_SetString(PyExc_TypeError, "_kjit_bind(owner, fn_addr, target, on_gpu, ctx) after _kjit_launch_setup");
        return NULL;
    }
    kjit_fn *fn = args[1] == Py_None ? NULL : PyLong_AsVoidPtr(args[1]);
    kjit_ctx *ctx = args[4] == Py_None ? NULL : PyLong_AsVoidPtr(args[4]);
    if (PyErr_Occurred()) return NULL;
    launch_unbind(l);
    if (fn) {
        l->fn = fn;
        l->owner = Py_NewRef(args[0]);
        l->target = Py_NewRef(args[2]);
        l->on_gpu = PyObject_IsTrue(args[3]) == 1;
        l->ctx = ctx;
    }
    Py_RETURN_NONE;
}

static PyObject *launch_state_of(PyObject *self, PyObject *unused)
{
    (void)unused;
    launch_object *l = (launch_object *)self;
    return Py_BuildValue("(Oi)", l->fn ? Py_True : Py_False, l->nentries);
}

static int launch_traverse(PyObject *self, visitproc visit, void *arg)
{
    launch_object *l = (launch_object *)self;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(l->module);
    Py_VISIT(l->slow);
    Py_VISIT(l->raise);
    Py_VISIT(l->owner);
    Py_VISIT(l->target);
    return 0;
}

static int launch_clear(PyObject *self)
{
    launch_object *l = (launch_object *)self;
    if (l->st) launch_unbind(l); /* the plans go before the module their owner keeps */
    Py_CLEAR(l->slow);
    Py_CLEAR(l->raise);
    Py_CLEAR(l->module);
    return 0;
}

static void launch_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    launch_clear(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyMethodDef launch_methods[] = {
    {"_kjit_launch_setup", (PyCFunction)(void (*)(void))launch_setup, METH_FASTCALL, "Set the Python path up."},
    {"_kjit_bind", (PyCFunction)(void (*)(void))launch_bind, METH_FASTCALL, "Launch this compiled kernel."},
    {"_kjit_fast_state", launch_state_of, METH_NOARGS, "(bound, number of prepared launches): for tests."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef launch_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(launch_object, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot launch_slots[] = {
    {Py_tp_call, (void *)PyVectorcall_Call},
    {Py_tp_traverse, (void *)launch_traverse},
    {Py_tp_clear, (void *)launch_clear},
    {Py_tp_dealloc, (void *)launch_dealloc},
    {Py_tp_methods, launch_methods},
    {Py_tp_members, launch_members},
    {0, NULL},
};

static PyType_Spec launch_spec = {
    "kjit._fast.Launch", sizeof(launch_object), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL, launch_slots,
};

/* init_launch(prepare, prepared, plan_free, ndim, shape, strides, dtype, device_type, scalar_types,
 * wrap_device): the addresses of kjit_launch_prepare .. kjit_launch_plan_free and kjit_array_ndim ..
 * kjit_array_dtype, cuda.DeviceNDArray, NumPy's scalar types in kjit_dtype order (bool .. float64), and
 * kjit_array_wrap_device's address. After init_dispatch. */
static PyObject *fast_init_launch(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    fast_state *st = state_of(module);
    if (nargs != 10 || !PyType_Check(args[7]) || !PyTuple_Check(args[8]) ||
        PyTuple_GET_SIZE(args[8]) != KJ_NSCALARS) {
        PyErr_SetString(PyExc_TypeError, "_fast.init_launch(prepare, prepared, plan_free, ndim, shape, strides, "
                                         "dtype, DeviceNDArray, scalar_types, wrap_device)");
        return NULL;
    }
    void *wd = PyLong_AsVoidPtr(args[9]);
    if (PyErr_Occurred()) return NULL;
    memcpy(&st->wrap_device, &wd, sizeof wd);
    void *a[7];
    for (int k = 0; k < 7; k++) a[k] = PyLong_AsVoidPtr(args[k]);
    if (PyErr_Occurred()) return NULL;
    memcpy(&st->launch_prepare, &a[0], sizeof a[0]);
    memcpy(&st->launch_prepared, &a[1], sizeof a[1]);
    memcpy(&st->launch_plan_free, &a[2], sizeof a[2]);
    memcpy(&st->array_ndim, &a[3], sizeof a[3]);
    memcpy(&st->array_shape, &a[4], sizeof a[4]);
    memcpy(&st->array_strides, &a[5], sizeof a[5]);
    memcpy(&st->array_dtype, &a[6], sizeof a[6]);
    Py_XSETREF(st->device_type, (PyTypeObject *)Py_NewRef(args[7]));
    Py_XSETREF(st->scalar_types_obj, Py_NewRef(args[8]));
    for (int k = 0; k < KJ_NSCALARS; k++) st->scalar_types[k] = (PyTypeObject *)PyTuple_GET_ITEM(args[8], k);
    Py_XSETREF(st->ptr_name, PyUnicode_InternFromString("_ptr"));
    Py_XSETREF(st->shared_name, PyUnicode_InternFromString("_shared"));
    if (!st->ptr_name || !st->shared_name) return NULL;
    Py_RETURN_NONE;
}
