/*
 * What the engine's C units share (_speedups.c: the PlayCore type and the
 * module; _core_attrs.c: its attributes; _cards.c: the module's card
 * functions; _capi.h: the play rules the module exports to other C code).
 * See _speedups.c.
 */
#ifndef FOURHUNDRED_ENGINE_SPEEDUPS_H
#define FOURHUNDRED_ENGINE_SPEEDUPS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define DECK 52
#define SUIT_MASK(s) (((uint64_t)0x1FFF) << (13 * (s)))

typedef struct {
    PyObject_HEAD
    uint64_t hands[4];
    int turn;
    int trick[4];
    int ntrick;
    int done[DECK];
    int ndone;
    int winners[13];
    int nwinners;
    int won[4];
    int thirteen_bidder;
} CoreObject;

/* _speedups.c */
PyObject *int_list(const int *xs, int n);
int read_seat(PyObject *arg, int *out);
int read_mask(PyObject *obj, uint64_t *out);

/* _core_attrs.c */
extern PyGetSetDef Core_getset[];

/* _cards.c */
PyObject *nth_card(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *pick_card(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *cards_of(PyObject *module, PyObject *arg);
PyObject *deal_from_bytes(PyObject *module, PyObject *arg);

#endif
