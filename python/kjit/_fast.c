/* SPDX-License-Identifier: BSD-2-Clause */
/* The fast path of a call from Python to a kjit function (docs/python.md, "Calls").
 *
 * The ctypes path builds kjit_value objects in Python and costs tens of microseconds a call; this does
 * the same in C for the common arguments (Python bool, int, float, None, NumPy arrays through the buffer
 * protocol) and results (none, bool, int, float), and returns NotImplemented for anything else, before
 * calling anything, so that the ctypes path handles it. It does not link libkjit: init() receives the
 * addresses of kjit_call, kjit_array_wrap and kjit_array_free from the ctypes library already loaded. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <kjit.h>

#ifdef KJ_HAVE_NUMPY_H
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/ndarrayobject.h>
#include <numpy/arrayscalars.h>
#endif

#include <stdint.h>
#include <string.h>

typedef int (*call_fn)(kjit_fn *, const kjit_value *, int, kjit_value *, kjit_error *);
typedef kjit_array *(*wrap_fn)(kjit_ctx *, void *, kjit_dtype, int, const int64_t *, const int64_t *,
                               kjit_error *);
typedef void (*free_fn)(kjit_array *);
typedef int (*launch_fn)(kjit_fn *, kjit_dim3, kjit_dim3, const kjit_value *, int, kjit_error *);
typedef void *(*data_fn)(const kjit_array *);
typedef kjit_call_plan *(*prepare_fn)(kjit_fn *, const kjit_value *, int, kjit_error *);
typedef int (*prepared_fn)(kjit_call_plan *, const kjit_value *, kjit_value *, kjit_error *);
typedef void (*plan_free_fn)(kjit_call_plan *);
typedef int (*rewrap_fn)(kjit_array *, void *, const int64_t *, const int64_t *, kjit_error *);
typedef kjit_launch_plan *(*launch_prepare_fn)(kjit_fn *, const kjit_value *, int, kjit_error *);
typedef int (*launch_prepared_fn)(kjit_launch_plan *, kjit_dim3, kjit_dim3, const kjit_value *, kjit_error *);
typedef void (*launch_plan_free_fn)(kjit_launch_plan *);

enum { KJ_NSCALARS = KJIT_FLOAT64 + 1 }; /* NumPy scalar types a launch takes: bool .. float64 */

typedef struct fast_state {
    call_fn call;
    wrap_fn wrap;
    free_fn free_array;
    launch_fn launch;
    data_fn data;
    PyTypeObject *ndarray;
    /* init_dispatch(): prepared calls (the Dispatch type) */
    prepare_fn prepare;
    prepared_fn prepared;
    plan_free_fn plan_free;
    rewrap_fn rewrap;
    PyObject *config;      /* kjit.config's __dict__ */
    PyObject *target_name; /* "TARGET" */
    /* init_launch(): prepared launches (the Launch type, _launch_type.h) */
    launch_prepare_fn launch_prepare;
    launch_prepared_fn launch_prepared;
    launch_plan_free_fn launch_plan_free;
    int (*array_ndim)(const kjit_array *);
    const int64_t *(*array_shape)(const kjit_array *);
    const int64_t *(*array_strides)(const kjit_array *);
    kjit_dtype (*array_dtype)(const kjit_array *);
    kjit_array *(*wrap_device)(kjit_ctx *, uint64_t, kjit_dtype, int, const int64_t *, const int64_t *,
                               kjit_error *);
    PyTypeObject *device_type;              /* cuda.DeviceNDArray */
    PyObject *scalar_types_obj;             /* the tuple that holds scalar_types */
    PyTypeObject *scalar_types[KJ_NSCALARS]; /* NumPy's, in kjit_dtype order */
    PyObject *ptr_name, *shared_name;       /* "_ptr", "_shared" */
} fast_state;

enum { MAX_ARGS = 32 };

static struct PyModuleDef fast_module;

static fast_state *state_of(PyObject *module)
{
    return (fast_state *)PyModule_GetState(module);
}

/* The kjit dtype of a buffer's struct format character, or -1. */
static int dtype_of(const char *fmt, Py_ssize_t itemsize)
{
    if (*fmt == '<' || *fmt == '=' || *fmt == '@') fmt++;
    if (fmt[0] == '\0' || fmt[1] != '\0') return -1;
    bool is_signed = strchr("bhilq", fmt[0]) != NULL;
    bool is_unsigned = strchr("BHILQ", fmt[0]) != NULL;
    static const int sints[] = {0, KJIT_INT8, KJIT_INT16, 0, KJIT_INT32, 0, 0, 0, KJIT_INT64};
    static const int uints[] = {0, KJIT_UINT8, KJIT_UINT16, 0, KJIT_UINT32, 0, 0, 0, KJIT_UINT64};
    if ((is_signed || is_unsigned) && itemsize >= 1 && itemsize <= 8 && sints[itemsize])
        return is_signed ? sints[itemsize] : uints[itemsize];
    if (fmt[0] == '?' && itemsize == 1) return KJIT_BOOL;
    if (fmt[0] == 'f' && itemsize == 4) return KJIT_FLOAT32;
    if (fmt[0] == 'd' && itemsize == 8) return KJIT_FLOAT64;
    return -1;
}

typedef struct call_args {
    kjit_value values[MAX_ARGS];
    Py_buffer views[MAX_ARGS];
    kjit_array *arrays[MAX_ARGS];
    int nviews, narrays;
} call_args;

static void release_args(fast_state *st, call_args *ca)
{
    for (int i = 0; i < ca->narrays; i++) st->free_array(ca->arrays[i]);
    for (int i = 0; i < ca->nviews; i++) PyBuffer_Release(&ca->views[i]);
}

/* An ndarray argument as a kjit_array over its buffer: false when the fast path cannot take it. */
static bool array_arg(fast_state *st, call_args *ca, PyObject *o, kjit_value *v)
{
    Py_buffer *view = &ca->views[ca->nviews];
    /* a read-only array takes the Python path, which refuses it where the code writes it (_readonly.py) */
    if (PyObject_GetBuffer(o, view, PyBUF_STRIDES | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
        PyErr_Clear();
        return false;
    }
    ca->nviews++;
    int dt = dtype_of(view->format, view->itemsize);
    if (dt < 0 || view->ndim < 1 || view->ndim > 4 || !view->buf ||
        (uintptr_t)view->buf % (uintptr_t)view->itemsize != 0)
        return false;
    int64_t shape[4], strides[4];
    for (int d = 0; d < view->ndim; d++) {
        shape[d] = view->shape[d];
        strides[d] = view->strides[d];
        if (strides[d] % view->itemsize != 0) return false;
    }
    kjit_error err;
    kjit_array *a = st->wrap(NULL, view->buf, (kjit_dtype)dt, view->ndim, shape, strides, &err);
    if (!a) return false;
    ca->arrays[ca->narrays++] = a;
    *v = kjit_value_array(a);
    return true;
}

static bool scalar_arg(PyObject *o, kjit_value *v)
{
    if (o == Py_None) {
        v->kind = KJIT_VALUE_NONE;
        return true;
    }
    if (PyBool_Check(o)) {
        *v = kjit_value_bool(o == Py_True);
        return true;
    }
    if (PyLong_CheckExact(o)) {
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow || (x == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return false;
        }
        *v = kjit_value_int(x);
        return true;
    }
    if (PyFloat_CheckExact(o)) {
        *v = kjit_value_float(PyFloat_AS_DOUBLE(o));
        return true;
    }
    return false;
}

/* Arguments for the fast path into ca: false (nothing held) when one is not for it. */
static bool fast_args(fast_state *st, call_args *ca, PyObject *tuple)
{
    Py_ssize_t n = PyTuple_GET_SIZE(tuple);
    ca->nviews = ca->narrays = 0;
    if (n > MAX_ARGS) return false;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyTuple_GET_ITEM(tuple, i);
        bool ok = Py_TYPE(o) == st->ndarray ? array_arg(st, ca, o, &ca->values[i]) : scalar_arg(o, &ca->values[i]);
        if (!ok) {
            release_args(st, ca);
            return false;
        }
    }
    return true;
}

static PyObject *result_object(const kjit_value *r)
{
    switch (r->kind) {
    case KJIT_VALUE_NONE: Py_RETURN_NONE;
    case KJIT_VALUE_BOOL: return PyBool_FromLong(r->v.b);
    case KJIT_VALUE_INT:
        if (r->dtype > KJIT_UINT64) return NULL; /* datetime64 / timedelta64: converted in Python */
        return r->dtype >= KJIT_UINT8 && r->dtype <= KJIT_UINT64 ? PyLong_FromUnsignedLongLong((uint64_t)r->v.i)
                                                                 : PyLong_FromLongLong(r->v.i);
    case KJIT_VALUE_FLOAT: return PyFloat_FromDouble(r->v.f);
    default: return NULL;
    }
}

/* call(fn, args): the result object; NotImplemented when an argument is not for the fast path (nothing
 * was called); bytes, the kjit_value, when the result is not a scalar (for the caller to convert and
 * release); a tuple (status, message, file, line, col) when the call failed (message: the whole buffer, as
 * kjit_error_exc_args reads a byte past its NUL). */
static PyObject *fast_call(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    fast_state *st = state_of(module);
    if (nargs != 2 || !PyTuple_Check(args[1]) || !st->call) {
        PyErr_SetString(PyExc_TypeError, "_fast.call(fn, args) after init()");
        return NULL;
    }
    kjit_fn *fn = PyLong_AsVoidPtr(args[0]);
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(args[1]);
    call_args ca;
    if (!fast_args(st, &ca, args[1])) Py_RETURN_NOTIMPLEMENTED;
    kjit_value result;
    kjit_error err;
    memset(&result, 0, sizeof result);
    int code = st->call(fn, ca.values, (int)n, &result, &err);
    release_args(st, &ca);
    if (code != KJIT_OK)
        return Py_BuildValue("(iy#yii)", code, err.message, (Py_ssize_t)sizeof err.message, err.file, err.line, err.col);
    PyObject *r = result_object(&result);
    if (r) return r;
    return PyBytes_FromStringAndSize((const char *)&result, sizeof result);
}

static bool dim3_of(PyObject *o, kjit_dim3 *d)
{
    unsigned long v[3] = {1, 1, 1};
    if (PyLong_CheckExact(o)) {
        v[0] = PyLong_AsUnsignedLong(o);
    } else if (PyTuple_CheckExact(o) && PyTuple_GET_SIZE(o) >= 1 && PyTuple_GET_SIZE(o) <= 3) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(o); i++) {
            PyObject *x = PyTuple_GET_ITEM(o, i);
            if (!PyLong_CheckExact(x)) return false;
            v[i] = PyLong_AsUnsignedLong(x);
        }
    } else {
        return false;
    }
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return false;
    }
    for (int i = 0; i < 3; i++)
        if (v[i] > UINT32_MAX) return false;
    d->x = (uint32_t)v[0];
    d->y = (uint32_t)v[1];
    d->z = (uint32_t)v[2];
    return true;
}

/* launch(fn, grid, block, args, copy_back): None; NotImplemented when the configuration or an argument is
 * not for the fast path (nothing launched); (status, message, file, line, col) when the launch failed.
 * copy_back: bring each host array's data back from the device (kjit_array_data) after the launch. */
static PyObject *fast_launch(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    fast_state *st = state_of(module);
    if (nargs != 5 || !PyTuple_Check(args[3]) || !st->launch) {
        PyErr_SetString(PyExc_TypeError, "_fast.launch(fn, grid, block, args, copy_back) after init()");
        return NULL;
    }
    kjit_fn *fn = PyLong_AsVoidPtr(args[0]);
    if (PyErr_Occurred()) return NULL;
    kjit_dim3 grid, block;
    if (!dim3_of(args[1], &grid) || !dim3_of(args[2], &block)) Py_RETURN_NOTIMPLEMENTED;
    call_args ca;
    if (!fast_args(st, &ca, args[3])) Py_RETURN_NOTIMPLEMENTED;
    kjit_error err;
    int code = st->launch(fn, grid, block, ca.values, (int)PyTuple_GET_SIZE(args[3]), &err);
    if (code == KJIT_OK && PyObject_IsTrue(args[4]))
        for (int i = 0; i < ca.narrays; i++) st->data(ca.arrays[i]);
    release_args(st, &ca);
    if (code != KJIT_OK)
        return Py_BuildValue("(iy#yii)", code, err.message, (Py_ssize_t)sizeof err.message, err.file, err.line, err.col);
    Py_RETURN_NONE;
}

#include "_dispatch_type.h"
#include "_launch_type.h"

/* init_dispatch(prepare_addr, prepared_addr, plan_free_addr, rewrap_addr, config_module) */
static PyObject *fast_init_dispatch(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    fast_state *st = state_of(module);
    if (nargs != 5 || !PyModule_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "_fast.init_dispatch(prepare, prepared, plan_free, rewrap, config)");
        return NULL;
    }
    void *a[4];
    for (int k = 0; k < 4; k++) a[k] = PyLong_AsVoidPtr(args[k]);
    if (PyErr_Occurred()) return NULL;
    memcpy(&st->prepare, &a[0], sizeof a[0]);
    memcpy(&st->prepared, &a[1], sizeof a[1]);
    memcpy(&st->plan_free, &a[2], sizeof a[2]);
    memcpy(&st->rewrap, &a[3], sizeof a[3]);
    Py_XSETREF(st->config, Py_NewRef(PyModule_GetDict(args[4])));
    Py_XSETREF(st->target_name, PyUnicode_InternFromString("TARGET"));
    if (!st->target_name) return NULL;
    Py_RETURN_NONE;
}

/* init(call_addr, wrap_addr, free_addr, ndarray_type, launch_addr, data_addr) */
static PyObject *fast_init(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    fast_state *st = state_of(module);
    if (nargs != 6 || !PyType_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "_fast.init(call_addr, wrap_addr, free_addr, ndarray, launch_addr, data_addr)");
        return NULL;
    }
    void *c = PyLong_AsVoidPtr(args[0]), *w = PyLong_AsVoidPtr(args[1]), *f = PyLong_AsVoidPtr(args[2]);
    void *l = PyLong_AsVoidPtr(args[4]), *d = PyLong_AsVoidPtr(args[5]);
    if (PyErr_Occurred()) return NULL;
    memcpy(&st->launch, &l, sizeof l);
    memcpy(&st->data, &d, sizeof d);
    /* Function pointers from integers: the addresses ctypes read from the loaded library. */
    memcpy(&st->call, &c, sizeof c);
    memcpy(&st->wrap, &w, sizeof w);
    memcpy(&st->free_array, &f, sizeof f);
    Py_XDECREF(st->ndarray);
    Py_INCREF(args[3]);
    st->ndarray = (PyTypeObject *)args[3];
    Py_RETURN_NONE;
}

static PyMethodDef fast_methods[] = {
    {"call", (PyCFunction)(void (*)(void))fast_call, METH_FASTCALL, "Call a kjit function (fast path)."},
    {"launch", (PyCFunction)(void (*)(void))fast_launch, METH_FASTCALL, "Launch a kernel (fast path)."},
    {"init", (PyCFunction)(void (*)(void))fast_init, METH_FASTCALL, "Give the library's entry points."},
    {"init_dispatch", (PyCFunction)(void (*)(void))fast_init_dispatch, METH_FASTCALL,
     "Give the library's prepared-call entry points and kjit.config."},
    {"init_launch", (PyCFunction)(void (*)(void))fast_init_launch, METH_FASTCALL,
     "Give the library's prepared-launch entry points, DeviceNDArray and NumPy's scalar types."},
    {"enable_vectorcall", fast_enable_vectorcall, METH_O, "Call a Dispatch subclass through the vectorcall."},
    {NULL, NULL, 0, NULL},
};

static int fast_traverse(PyObject *m, visitproc visit, void *arg)
{
    Py_VISIT(state_of(m)->ndarray);
    Py_VISIT(state_of(m)->config);
    Py_VISIT(state_of(m)->device_type);
    Py_VISIT(state_of(m)->scalar_types_obj);
    return 0;
}

static int fast_clear(PyObject *m)
{
    Py_CLEAR(state_of(m)->ndarray);
    Py_CLEAR(state_of(m)->config);
    Py_CLEAR(state_of(m)->target_name);
    Py_CLEAR(state_of(m)->device_type);
    Py_CLEAR(state_of(m)->scalar_types_obj);
    Py_CLEAR(state_of(m)->ptr_name);
    Py_CLEAR(state_of(m)->shared_name);
    return 0;
}

static struct PyModuleDef fast_module = {
    PyModuleDef_HEAD_INIT, "_fast", "kjit's fast call path (C).", sizeof(fast_state), fast_methods,
    NULL, fast_traverse, fast_clear, NULL,
};

PyMODINIT_FUNC PyInit__fast(void)
{
    PyObject *m = PyModule_Create(&fast_module);
    if (!m) return NULL;
    memset(state_of(m), 0, sizeof(fast_state));
    PyObject *t = PyType_FromModuleAndSpec(m, &dispatch_spec, NULL);
    if (!t || PyModule_AddObject(m, "Dispatch", t) != 0) {
        Py_XDECREF(t);
        Py_DECREF(m);
        return NULL;
    }
    t = PyType_FromModuleAndSpec(m, &launch_spec, NULL);
    if (!t || PyModule_AddObject(m, "Launch", t) != 0) {
        Py_XDECREF(t);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
