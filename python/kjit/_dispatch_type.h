/* SPDX-License-Identifier: BSD-2-Clause */
/* _fast.Dispatch: the C base of @jit dispatchers (python/kjit/_dispatch.py), whose __call__ is this
 * vectorcall (docs/python.md, "Calls"). Included by _fast.c, which defines fast_state and the argument
 * helpers.
 *
 * A call whose arguments are Python bools, ints and floats and NumPy arrays (kjit's dtypes, 1 to 4
 * dimensions, aligned) is keyed on their types: per argument its kind, dtype, rank and contiguity. A key
 * seen before maps to a prepared call (kjit_call_prepare) and the call runs without Python code, type
 * dispatch or allocation: the arrays go in through kjit_array wrappers kept per argument position and
 * pointed at each call's buffers (kjit_array_rewrap; a new wrapper only when a result still holds the old
 * one). Anything else -- keywords, another arity, an unseen key, a unit not compiled yet or compiled for
 * another target -- goes to the Python path (`slow`), which notes the types and calls through kjit_call;
 * after it returns, the key gets its prepared call. */

enum { MAX_FAST_ARGS = 16, MAX_ENTRIES = 16 };

typedef struct plan_entry {
    int nargs;
    uint32_t key[MAX_FAST_ARGS];
    kjit_call_plan *plan;
} plan_entry;

typedef struct dispatch_object {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    fast_state *st;
    PyObject *module;  /* _fast, whose state st is */
    PyObject *slow;    /* the Python path: slow(*args, **kwargs) */
    PyObject *convert; /* convert(bytes, args): a result that is not a scalar (a kjit_value) as a Python object */
    PyObject *raise;   /* raise((status, message, file, line, col)): raises the call's error */
    PyObject *owner;   /* what keeps fn's module alive (the Compiled) */
    PyObject *target;  /* kjit.config.TARGET when fn was bound */
    kjit_fn *fn;       /* NULL: every call goes to slow */
    int nparams;
    int nentries;
    plan_entry entries[MAX_ENTRIES];
    kjit_array *wrappers[MAX_FAST_ARGS];
    uint16_t wrapper_types[MAX_FAST_ARGS]; /* dtype | rank << 8 of each: rewrap keeps a wrapper's dtype */
    /* what each wrapper points at now: a call with the same data, shape and strides at that position
     * (a loop over the same arrays) passes the wrapper as it is, without kjit_array_rewrap */
    struct wrapped_layout {
        void *data;
        int64_t shape[4], strides[4];
    } wrapped[MAX_FAST_ARGS];
} dispatch_object;

/* Forget fn, its plans and the wrappers (before its module may go). */
static void dispatch_unbind(dispatch_object *d)
{
    for (int k = 0; k < d->nentries; k++) d->st->plan_free(d->entries[k].plan);
    d->nentries = 0;
    for (int k = 0; k < MAX_FAST_ARGS; k++) {
        if (d->wrappers[k]) d->st->free_array(d->wrappers[k]);
        d->wrappers[k] = NULL;
    }
    d->fn = NULL;
    Py_CLEAR(d->owner);
    Py_CLEAR(d->target);
}

#ifdef KJ_HAVE_NUMPY_H
/* The kjit dtype of a NumPy type number (native byte order), or -1. */
static int dtype_of_num(int num)
{
    switch (num) {
    case NPY_BOOL: return KJIT_BOOL;
    case NPY_INT8: return KJIT_INT8;
    case NPY_INT16: return KJIT_INT16;
    case NPY_INT32: return KJIT_INT32;
    case NPY_INT64: return KJIT_INT64;
    case NPY_UINT8: return KJIT_UINT8;
    case NPY_UINT16: return KJIT_UINT16;
    case NPY_UINT32: return KJIT_UINT32;
    case NPY_UINT64: return KJIT_UINT64;
    case NPY_FLOAT32: return KJIT_FLOAT32;
    case NPY_FLOAT64: return KJIT_FLOAT64;
    default: return -1;
    }
}

/* An ndarray's key from its fields (NumPy's header macros, which need no import_array): the value
 * carries no array yet; wrap_arrays points a wrapper at the fields. */
static uint32_t ndarray_key(PyArrayObject *a, kjit_value *v)
{
    PyArray_Descr *d = PyArray_DESCR(a);
    int dt = PyArray_ISNOTSWAPPED(a) ? dtype_of_num(d->type_num) : -1;
    int nd = PyArray_NDIM(a), fl = PyArray_FLAGS(a);
    /* a read-only array takes the Python path, which refuses it where the code writes it (_readonly.py) */
    if (dt < 0 || nd < 1 || nd > 4 || !(fl & NPY_ARRAY_ALIGNED) || !(fl & NPY_ARRAY_WRITEABLE) || !PyArray_DATA(a))
        return 0;
    /* the item size from the dtype: NumPy 2 moved elsize in PyArray_Descr (type_num and byteorder stay) */
    npy_intp size = dt == KJIT_BOOL || dt == KJIT_INT8 || dt == KJIT_UINT8       ? 1
                    : dt == KJIT_INT16 || dt == KJIT_UINT16                     ? 2
                    : dt == KJIT_INT32 || dt == KJIT_UINT32 || dt == KJIT_FLOAT32 ? 4
                                                                                  : 8;
    for (int k = 0; k < nd; k++)
        if (PyArray_STRIDES(a)[k] % size) return 0;
    v->kind = KJIT_VALUE_ARRAY;
    v->v.a = NULL;
    return 4 | (uint32_t)dt << 4 | (uint32_t)nd << 9 | (uint32_t)((fl & NPY_ARRAY_C_CONTIGUOUS) != 0) << 12 |
           (uint32_t)((fl & NPY_ARRAY_F_CONTIGUOUS) != 0) << 13;
}
#endif

/* The key of one argument, with its value (arrays: their view, not yet wrapped); 0 when not for us. */
static uint32_t arg_key(fast_state *st, call_args *ca, PyObject *o, kjit_value *v)
{
    if (PyFloat_CheckExact(o)) {
        *v = kjit_value_float(PyFloat_AS_DOUBLE(o));
        return 1 | (uint32_t)KJIT_FLOAT64 << 4;
    }
    if (PyBool_Check(o)) {
        *v = kjit_value_bool(o == Py_True);
        return 2;
    }
    if (PyLong_CheckExact(o)) return scalar_arg(o, v) ? 3 | (uint32_t)KJIT_INT64 << 4 : 0;
    if (Py_TYPE(o) != st->ndarray) return 0;
#ifdef KJ_HAVE_NUMPY_H
    return ndarray_key((PyArrayObject *)o, v);
#endif
    Py_buffer *view = &ca->views[ca->nviews];
    if (PyObject_GetBuffer(o, view, PyBUF_STRIDES | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) { /* read-only: Python */
        PyErr_Clear();
        return 0;
    }
    ca->nviews++;
    int dt = dtype_of(view->format, view->itemsize);
    if (dt < 0 || view->ndim < 1 || view->ndim > 4 || !view->buf || (uintptr_t)view->buf % (uintptr_t)view->itemsize)
        return 0;
    for (int d = 0; d < view->ndim; d++)
        if (view->strides[d] % view->itemsize) return 0;
    v->kind = KJIT_VALUE_ARRAY;
    v->v.a = NULL;
    return 4 | (uint32_t)dt << 4 | (uint32_t)view->ndim << 9 | (uint32_t)PyBuffer_IsContiguous(view, 'C') << 12 |
           (uint32_t)PyBuffer_IsContiguous(view, 'F') << 13;
}

/* Keys and values of all arguments; false (views released) when one is not for the fast path. */
static bool keyed_args(fast_state *st, call_args *ca, PyObject *const *args, Py_ssize_t n, uint32_t *key)
{
    ca->nviews = ca->narrays = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!(key[i] = arg_key(st, ca, args[i], &ca->values[i]))) {
            release_args(st, ca);
            return false;
        }
    }
    return true;
}

static plan_entry *find_entry(dispatch_object *d, const uint32_t *key, Py_ssize_t n)
{
    for (int k = 0; k < d->nentries; k++)
        if (d->entries[k].nargs == n && !memcmp(d->entries[k].key, key, (size_t)n * sizeof *key))
            return &d->entries[k];
    return NULL;
}

/* The array values over the views, through the kept wrappers; false when one cannot be made. */
static bool wrap_arrays(dispatch_object *d, call_args *ca, PyObject *const *args, Py_ssize_t n)
{
    fast_state *st = d->st;
    for (Py_ssize_t i = 0, view = 0; i < n; i++) {
        if (ca->values[i].kind != KJIT_VALUE_ARRAY) continue;
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
        kjit_array **w = &d->wrappers[i];
        /* kjit_array_rewrap keeps the wrapper's dtype and rank: another dtype at this position gets its own */
        uint16_t type = (uint16_t)(dt | nd << 8);
        struct wrapped_layout *l = &d->wrapped[i];
        bool same = *w && d->wrapper_types[i] == type && l->data == data;
        for (int k = 0; same && k < nd; k++) same = l->shape[k] == shape[k] && l->strides[k] == strides[k];
        if (!same && (!*w || d->wrapper_types[i] != type || st->rewrap(*w, data, shape, strides, &err) != KJIT_OK)) {
            if (*w) st->free_array(*w); /* a result holds it: drop ours only */
            *w = st->wrap(NULL, data, dt, nd, shape, strides, &err);
            if (!*w) return false;
            d->wrapper_types[i] = type;
        }
        l->data = data;
        for (int k = 0; k < nd; k++) l->shape[k] = shape[k], l->strides[k] = strides[k];
        ca->values[i].v.a = *w;
    }
    return true;
}

/* After a Python-path call: a prepared call for this key (nothing when it cannot be made). */
static void add_entry(dispatch_object *d, PyObject *const *args, Py_ssize_t n)
{
    call_args ca;
    uint32_t key[MAX_FAST_ARGS];
    if (!d->fn || d->nentries == MAX_ENTRIES || !keyed_args(d->st, &ca, args, n, key)) return;
    if (!find_entry(d, key, n) && wrap_arrays(d, &ca, args, n)) {
        kjit_error err;
        kjit_call_plan *p = d->st->prepare(d->fn, ca.values, (int)n, &err);
        if (p) {
            plan_entry *e = &d->entries[d->nentries++];
            e->nargs = (int)n;
            memcpy(e->key, key, (size_t)n * sizeof *key);
            e->plan = p;
        }
    }
    release_args(d->st, &ca);
}

/* Is fn compiled for the target kjit.config says now? */
static bool target_current(dispatch_object *d)
{
    PyObject *t = PyDict_GetItemWithError(d->st->config, d->st->target_name);
    if (!t) PyErr_Clear();
    return t == d->target;
}

static PyObject *slow_call(dispatch_object *d, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    PyObject *r = PyObject_Vectorcall(d->slow, args, nargsf, kwnames);
    if (r && !kwnames && n == d->nparams && n <= MAX_FAST_ARGS && d->fn && target_current(d)) add_entry(d, args, n);
    return r;
}

static PyObject *dispatch_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    dispatch_object *d = (dispatch_object *)self;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (!d->slow) {
        PyErr_SetString(PyExc_TypeError, "kjit dispatcher not set up");
        return NULL;
    }
    if (!d->fn || (kwnames && PyTuple_GET_SIZE(kwnames)) || n != d->nparams || n > MAX_FAST_ARGS ||
        !target_current(d))
        return slow_call(d, args, nargsf, kwnames);
    call_args ca;
    uint32_t key[MAX_FAST_ARGS];
    if (!keyed_args(d->st, &ca, args, n, key)) return slow_call(d, args, nargsf, kwnames);
    plan_entry *e = find_entry(d, key, n);
    if (!e || !wrap_arrays(d, &ca, args, n)) {
        release_args(d->st, &ca);
        return slow_call(d, args, nargsf, kwnames);
    }
    kjit_value result;
    kjit_error err;
    int code = d->st->prepared(e->plan, ca.values, &result, &err);
    release_args(d->st, &ca);
    if (code == KJIT_ERR_USAGE) /* not of the plan's types after all (nothing ran): the Python path says why */
        return PyObject_Vectorcall(d->slow, args, nargsf, kwnames);
    if (code != KJIT_OK) {
        PyObject *t = Py_BuildValue("(iy#yii)", code, err.message, (Py_ssize_t)sizeof err.message, err.file, err.line, err.col);
        PyObject *r = t ? PyObject_CallOneArg(d->raise, t) : NULL;
        Py_XDECREF(t);
        return r;
    }
    PyObject *r = result_object(&result);
    if (r) return r;
    /* convert(bytes, args): an array result that views an argument keeps it alive */
    PyObject *b = PyBytes_FromStringAndSize((const char *)&result, sizeof result);
    PyObject *t = b ? PyTuple_New(n) : NULL;
    for (Py_ssize_t i = 0; t && i < n; i++) PyTuple_SET_ITEM(t, i, Py_NewRef(args[i]));
    r = t ? PyObject_CallFunctionObjArgs(d->convert, b, t, NULL) : NULL;
    Py_XDECREF(t);
    Py_XDECREF(b);
    return r;
}

/* _kjit_fast_setup(slow, convert, raise, nparams) */
static PyObject *dispatch_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    dispatch_object *d = (dispatch_object *)self;
    PyObject *module = PyType_GetModuleByDef(Py_TYPE(self), &fast_module);
    if (!module) return NULL;
    if (nargs != 4 || !PyLong_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "_kjit_fast_setup(slow, convert, raise, nparams)");
        return NULL;
    }
    fast_state *st = state_of(module);
    if (!st->prepare || !st->config) {
        PyErr_SetString(PyExc_RuntimeError, "_fast.init_dispatch() was not called");
        return NULL;
    }
    d->st = st;
    dispatch_unbind(d);
    Py_XSETREF(d->module, Py_NewRef(module));
    Py_XSETREF(d->slow, Py_NewRef(args[0]));
    Py_XSETREF(d->convert, Py_NewRef(args[1]));
    Py_XSETREF(d->raise, Py_NewRef(args[2]));
    d->nparams = (int)PyLong_AsLong(args[3]);
    d->vectorcall = dispatch_vectorcall;
    Py_RETURN_NONE;
}

/* _kjit_bind(owner, fn_addr, target): calls go to fn (of owner's module) while config.TARGET is target;
 * _kjit_bind(None, 0, None) unbinds. */
static PyObject *dispatch_bind(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    dispatch_object *d = (dispatch_object *)self;
    if (nargs != 3 || !d->st) {
        PyErr_SetString(PyExc_TypeError, "_kjit_bind(owner, fn_addr, target) after _kjit_fast_setup");
        return NULL;
    }
    kjit_fn *fn = args[1] == Py_None ? NULL : PyLong_AsVoidPtr(args[1]);
    if (PyErr_Occurred()) return NULL;
    dispatch_unbind(d);
    if (fn) {
        d->fn = fn;
        d->owner = Py_NewRef(args[0]);
        d->target = Py_NewRef(args[2]);
    }
    Py_RETURN_NONE;
}

static PyObject *dispatch_bound(PyObject *self, PyObject *unused)
{
    (void)unused;
    dispatch_object *d = (dispatch_object *)self;
    return Py_BuildValue("(Oi)", d->fn ? Py_True : Py_False, d->nentries);
}

static int dispatch_traverse(PyObject *self, visitproc visit, void *arg)
{
    dispatch_object *d = (dispatch_object *)self;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(d->module);
    Py_VISIT(d->slow);
    Py_VISIT(d->convert);
    Py_VISIT(d->raise);
    Py_VISIT(d->owner);
    Py_VISIT(d->target);
    return 0;
}

static int dispatch_clear(PyObject *self)
{
    dispatch_object *d = (dispatch_object *)self;
    if (d->st) dispatch_unbind(d); /* the plans go before the module their owner keeps */
    Py_CLEAR(d->slow);
    Py_CLEAR(d->convert);
    Py_CLEAR(d->raise);
    Py_CLEAR(d->module);
    return 0;
}

/* A Python subclass's dealloc (subtype_dealloc) has cleared its __dict__ and calls this; the type is a
 * heap type, whose reference its instances' dealloc drops. */
static void dispatch_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    dispatch_clear(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyMethodDef dispatch_methods[] = {
    {"_kjit_fast_setup", (PyCFunction)(void (*)(void))dispatch_setup, METH_FASTCALL, "Set the Python path up."},
    {"_kjit_bind", (PyCFunction)(void (*)(void))dispatch_bind, METH_FASTCALL, "Call this compiled function."},
    {"_kjit_fast_state", dispatch_bound, METH_NOARGS, "(bound, number of prepared calls): for tests."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef dispatch_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(dispatch_object, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot dispatch_slots[] = {
    {Py_tp_call, (void *)PyVectorcall_Call},
    {Py_tp_traverse, (void *)dispatch_traverse},
    {Py_tp_clear, (void *)dispatch_clear},
    {Py_tp_dealloc, (void *)dispatch_dealloc},
    {Py_tp_methods, dispatch_methods},
    {Py_tp_members, dispatch_members},
    {0, NULL},
};

static PyType_Spec dispatch_spec = {
    "kjit._fast.Dispatch", sizeof(dispatch_object), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL, dispatch_slots,
};

/* enable_vectorcall(cls): a Python subclass of Dispatch (or of Launch, whose vectorcall field sits at the
 * same offset: _launch_type.h) that does not define __call__ is called through the vectorcall too (Python
 * 3.12 does this itself; 3.11 leaves a heap subclass on tp_call). */
static PyObject *fast_enable_vectorcall(PyObject *module, PyObject *cls)
{
    bool ok = false;
    for (int k = 0; k < 2 && !ok; k++) {
        PyObject *base = PyObject_GetAttrString(module, k ? "Launch" : "Dispatch");
        if (!base) return NULL;
        ok = PyType_Check(cls) && PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)base) &&
             ((PyTypeObject *)cls)->tp_call == PyVectorcall_Call;
        Py_DECREF(base);
    }
    if (!ok) {
        PyErr_SetString(PyExc_TypeError,
                        "enable_vectorcall: a subclass of Dispatch or Launch without its own __call__");
        return NULL;
    }
    PyTypeObject *t = (PyTypeObject *)cls;
    t->tp_vectorcall_offset = offsetof(dispatch_object, vectorcall);
    t->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
    PyType_Modified(t);
    Py_RETURN_NONE;
}
