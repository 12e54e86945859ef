/*
 * The engine's card functions in C (_pycore.py's twins): a mask's cards,
 * its k-th card, a card picked at a fraction, a deal from random bytes.
 * See _speedups.c.
 */
#include "_speedups.h"

PyObject *nth_card(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "nth_card(mask, k)");
        return NULL;
    }
    uint64_t m;
    if (read_mask(args[0], &m) < 0)
        return NULL;
    long k = PyLong_AsLong(args[1]);
    if (k == -1 && PyErr_Occurred())
        return NULL;
    for (; k > 0 && m; k--)
        m &= m - 1;
    if (!m)
        return PyLong_FromLong(-1);
    return PyLong_FromLong(__builtin_ctzll(m));
}

PyObject *pick_card(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "pick_card(mask, r)");
        return NULL;
    }
    uint64_t m;
    if (read_mask(args[0], &m) < 0)
        return NULL;
    double r = PyFloat_AsDouble(args[1]);
    if (r == -1.0 && PyErr_Occurred())
        return NULL;
    if (!(r >= 0.0 && r < 1.0)) {
        PyErr_SetString(PyExc_ValueError, "r must be in [0, 1)");
        return NULL;
    }
    if (!m)
        return PyLong_FromLong(-1);
    long k = (long)(r * __builtin_popcountll(m));
    for (; k > 0; k--)
        m &= m - 1;
    return PyLong_FromLong(__builtin_ctzll(m));
}

PyObject *cards_of(PyObject *module, PyObject *arg)
{
    uint64_t m;
    if (read_mask(arg, &m) < 0)
        return NULL;
    PyObject *list = PyList_New(__builtin_popcountll(m));
    if (!list)
        return NULL;
    Py_ssize_t i = 0;
    while (m) {
        PyObject *v = PyLong_FromLong(__builtin_ctzll(m));
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i++, v);
        m &= m - 1;
    }
    return list;
}

PyObject *deal_from_bytes(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const unsigned char *buf = (const unsigned char *)view.buf;
    Py_ssize_t len = view.len, pos = 0;
    int deck[DECK];
    for (int i = 0; i < DECK; i++)
        deck[i] = i;
    for (int i = DECK - 1; i > 0; i--) {
        uint64_t bound = (uint64_t)i + 1;
        uint64_t limit = ((uint64_t)1 << 32) - (((uint64_t)1 << 32) % bound);
        uint64_t r;
        for (;;) {
            if (pos + 4 > len) {
                PyBuffer_Release(&view);
                Py_RETURN_NONE;
            }
            r = (uint64_t)buf[pos] | ((uint64_t)buf[pos + 1] << 8) |
                ((uint64_t)buf[pos + 2] << 16) | ((uint64_t)buf[pos + 3] << 24);
            pos += 4;
            if (r < limit)
                break;
        }
        int j = (int)(r % bound);
        int t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    PyBuffer_Release(&view);
    uint64_t h[4] = {0, 0, 0, 0};
    for (int i = 0; i < DECK; i++)
        h[i / 13] |= (uint64_t)1 << deck[i];
    return Py_BuildValue("(KKKK)", (unsigned long long)h[0], (unsigned long long)h[1],
                         (unsigned long long)h[2], (unsigned long long)h[3]);
}
