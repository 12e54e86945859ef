/*
 * The trick-play core of the engine in C: the same class and functions as
 * _pycore.py, card for card (the tests run both and compare them). It holds
 * only what changes on every card; the rules of bidding, scoring and the end
 * of the game stay in Python (state.py), which subclasses PlayCore.
 *
 * This unit: the PlayCore type and the module. Its attributes are in
 * _core_attrs.c, the module's card functions in _cards.c, what they share
 * in _speedups.h.
 */
#include "_speedups.h"
#include "_capi.h"

static int strength(int led, int c)
{
    int suit = c / 13, rank = c % 13;
    if (suit == 2)
        return 100 + rank;
    if (suit == led)
        return rank;
    return -1;
}

/* The cards of hand that may be played when led is the card led (-1: none). */
static uint64_t legal_cards(uint64_t hand, int led)
{
    if (led >= 0) {
        uint64_t f = hand & SUIT_MASK(led / 13);
        if (f)
            return f;
    }
    return hand;
}

/* Which card of a full trick (in play order) wins it. */
static int trick_winner(const int *trick)
{
    int led = trick[0] / 13;
    int w = 0, best = strength(led, trick[0]);
    for (int i = 1; i < 4; i++) {
        int s = strength(led, trick[i]);
        if (s > best) {
            w = i;
            best = s;
        }
    }
    return w;
}

static EngineCAPI c_api = {legal_cards, trick_winner};

PyObject *int_list(const int *xs, int n)
{
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(xs[i]);
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static int Core_init(CoreObject *self, PyObject *args, PyObject *kwds)
{
    memset(self->hands, 0, sizeof self->hands);
    self->turn = 0;
    self->ntrick = 0;
    self->ndone = 0;
    self->nwinners = 0;
    memset(self->won, 0, sizeof self->won);
    self->thirteen_bidder = -1;
    return 0;
}

static PyObject *Core_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    CoreObject *self = (CoreObject *)type->tp_alloc(type, 0);
    if (self)
        self->thirteen_bidder = -1;
    return (PyObject *)self;
}

int read_seat(PyObject *arg, int *out)
{
    int overflow = 0;
    long s = PyLong_AsLongAndOverflow(arg, &overflow);
    if (s == -1 && PyErr_Occurred())
        return -1;
    if (overflow || s < 0 || s > 3) {
        PyErr_Format(PyExc_ValueError, "%R is not a seat (0 to 3)", arg);
        return -1;
    }
    *out = (int)s;
    return 0;
}

int read_mask(PyObject *obj, uint64_t *out)
{
    unsigned long long m = PyLong_AsUnsignedLongLong(obj);
    if (m == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if (m >> DECK) {
        PyErr_SetString(PyExc_ValueError, "a card mask has bits beyond the 52 cards");
        return -1;
    }
    *out = (uint64_t)m;
    return 0;
}

/* ---- methods ---- */

static PyObject *Core_hand(CoreObject *self, PyObject *arg)
{
    int seat;
    if (read_seat(arg, &seat) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(self->hands[seat]);
}

static PyObject *Core_start(CoreObject *self, PyObject *arg)
{
    PyObject *seq = PySequence_Fast(arg, "hands must be a sequence of four masks");
    if (!seq)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 4) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "hands must be four masks");
        return NULL;
    }
    uint64_t h[4];
    for (int i = 0; i < 4; i++) {
        if (read_mask(PySequence_Fast_GET_ITEM(seq, i), &h[i]) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    memcpy(self->hands, h, sizeof h);
    self->ntrick = 0;
    self->ndone = 0;
    self->nwinners = 0;
    memset(self->won, 0, sizeof self->won);
    self->thirteen_bidder = -1;
    Py_RETURN_NONE;
}

static PyTypeObject CoreType;

static PyObject *Core_copy(CoreObject *self, PyObject *arg)
{
    if (!PyObject_TypeCheck(arg, &CoreType)) {
        PyErr_SetString(PyExc_TypeError, "can only copy from another PlayCore");
        return NULL;
    }
    CoreObject *o = (CoreObject *)arg;
    memcpy(self->hands, o->hands, sizeof o->hands);
    self->turn = o->turn;
    memcpy(self->trick, o->trick, sizeof o->trick);
    self->ntrick = o->ntrick;
    memcpy(self->done, o->done, sizeof o->done);
    self->ndone = o->ndone;
    memcpy(self->winners, o->winners, sizeof o->winners);
    self->nwinners = o->nwinners;
    memcpy(self->won, o->won, sizeof o->won);
    self->thirteen_bidder = o->thirteen_bidder;
    Py_RETURN_NONE;
}

static PyObject *Core_state(CoreObject *self, PyObject *unused)
{
    PyObject *trick = int_list(self->trick, self->ntrick);
    PyObject *done = int_list(self->done, self->ndone);
    PyObject *winners = int_list(self->winners, self->nwinners);
    PyObject *won = int_list(self->won, 4);
    PyObject *out = NULL;
    if (trick && done && winners && won)
        out = Py_BuildValue("((KKKK)iNNNNi)", (unsigned long long)self->hands[0],
                            (unsigned long long)self->hands[1], (unsigned long long)self->hands[2],
                            (unsigned long long)self->hands[3], self->turn,
                            PySequence_Tuple(trick), PySequence_Tuple(done),
                            PySequence_Tuple(winners), PySequence_Tuple(won),
                            self->thirteen_bidder);
    Py_XDECREF(trick);
    Py_XDECREF(done);
    Py_XDECREF(winners);
    Py_XDECREF(won);
    return out;
}

static int read_cards(PyObject *seq_obj, int *out, int max, int *n, int limit)
{
    PyObject *seq = PySequence_Fast(seq_obj, "expected a sequence");
    if (!seq)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > max) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "not a play-core state");
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < 0 || v >= limit) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "not a play-core state");
            return -1;
        }
        out[i] = (int)v;
    }
    *n = (int)len;
    Py_DECREF(seq);
    return 0;
}

static PyObject *Core_restore(CoreObject *self, PyObject *arg)
{
    PyObject *hands, *trick, *done, *winners, *won;
    int turn, thirteen;
    if (!PyArg_ParseTuple(arg, "OiOOOOi", &hands, &turn, &trick, &done, &winners, &won,
                          &thirteen))
        return NULL;
    CoreObject tmp;
    int nwon = 0;
    if (read_cards(trick, tmp.trick, 3, &tmp.ntrick, DECK) < 0 ||
        read_cards(done, tmp.done, DECK, &tmp.ndone, DECK) < 0 ||
        read_cards(winners, tmp.winners, 13, &tmp.nwinners, 4) < 0 ||
        read_cards(won, tmp.won, 4, &nwon, 14) < 0)
        return NULL;
    if (nwon != 4 || tmp.ndone != 4 * tmp.nwinners || turn < 0 || turn > 3 || thirteen < -1 ||
        thirteen > 3) {
        PyErr_SetString(PyExc_ValueError, "not a play-core state");
        return NULL;
    }
    PyObject *r = Core_start(self, hands);
    if (!r)
        return NULL;
    Py_DECREF(r);
    self->turn = turn;
    memcpy(self->trick, tmp.trick, sizeof tmp.trick);
    self->ntrick = tmp.ntrick;
    memcpy(self->done, tmp.done, sizeof tmp.done);
    self->ndone = tmp.ndone;
    memcpy(self->winners, tmp.winners, sizeof tmp.winners);
    self->nwinners = tmp.nwinners;
    memcpy(self->won, tmp.won, sizeof tmp.won);
    self->thirteen_bidder = thirteen;
    Py_RETURN_NONE;
}

static PyObject *Core_legal_mask(CoreObject *self, PyObject *unused)
{
    uint64_t h = self->hands[self->turn];
    return PyLong_FromUnsignedLongLong(legal_cards(h, self->ntrick ? self->trick[0] : -1));
}

static PyObject *Core_play(CoreObject *self, PyObject *arg)
{
    int overflow = 0;
    long c = PyLong_AsLongAndOverflow(arg, &overflow);
    if (c == -1 && PyErr_Occurred())
        return NULL;
    if (overflow || c < 0 || c >= DECK) {
        PyErr_Format(PyExc_ValueError, "%R is not a card", arg);
        return NULL;
    }
    if (self->ndone + self->ntrick >= DECK) {
        PyErr_SetString(PyExc_ValueError, "the hand has no cards left to play");
        return NULL;
    }
    int seat = self->turn;
    self->hands[seat] ^= ((uint64_t)1 << c);
    self->trick[self->ntrick++] = (int)c;
    if (self->ntrick < 4) {
        seat = (seat + 1) & 3;
        self->turn = seat;
        return PyLong_FromUnsignedLongLong(legal_cards(self->hands[seat], self->trick[0]));
    }
    int w = trick_winner(self->trick);
    int winner = (seat + 1 + w) & 3;
    memcpy(self->done + self->ndone, self->trick, sizeof self->trick);
    self->ndone += 4;
    self->ntrick = 0;
    self->winners[self->nwinners++] = winner;
    self->won[winner]++;
    self->turn = winner;
    int bidder = self->thirteen_bidder;
    if (self->nwinners == 13 || (bidder >= 0 && winner != bidder)) {
        PyObject *r = PyObject_CallMethod((PyObject *)self, "_hand_over", NULL);
        if (!r)
            return NULL;
        Py_DECREF(r);
        return PyLong_FromLong(0);
    }
    return PyLong_FromUnsignedLongLong(self->hands[winner]);
}

static PyObject *Core_hand_over(CoreObject *self, PyObject *unused)
{
    PyErr_SetString(PyExc_NotImplementedError, "subclasses implement _hand_over");
    return NULL;
}

static PyMethodDef Core_methods[] = {
    {"hand", (PyCFunction)Core_hand, METH_O, "A seat's unplayed cards, as a mask."},
    {"_core_start", (PyCFunction)Core_start, METH_O, "New hands; no trick played yet."},
    {"_core_copy", (PyCFunction)Core_copy, METH_O, "Copy the core state of another."},
    {"_core_state", (PyCFunction)Core_state, METH_NOARGS, "Everything the core holds."},
    {"_core_restore", (PyCFunction)Core_restore, METH_O, "Set everything from _core_state."},
    {"legal_mask", (PyCFunction)Core_legal_mask, METH_NOARGS,
     "The cards the seat to act may play (a mask)."},
    {"play_unchecked", (PyCFunction)Core_play, METH_O,
     "Play a card with no rule checks; return the next legal mask (0: hand over)."},
    {"_hand_over", (PyCFunction)Core_hand_over, METH_NOARGS, "Called when the hand ends."},
    {NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fourhundred.engine._speedups.PlayCore",
    .tp_doc = "The trick-play core of a game state (C).",
    .tp_basicsize = sizeof(CoreObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = Core_new,
    .tp_init = (initproc)Core_init,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static PyMethodDef module_methods[] = {
    {"nth_card", (PyCFunction)(void (*)(void))nth_card, METH_FASTCALL,
     "The k-th card (from 0, in deck order) of a mask."},
    {"cards_of", (PyCFunction)cards_of, METH_O, "The cards of a mask, in deck order."},
    {"pick_card", (PyCFunction)(void (*)(void))pick_card, METH_FASTCALL,
     "The card at fraction r in [0, 1) of a mask's cards (uniform when r is)."},
    {"deal_from_bytes", (PyCFunction)deal_from_bytes, METH_O,
     "Deal 13 cards to each seat from random bytes; None when they run out."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "fourhundred.engine._speedups",
    .m_doc = "C speed-ups for the engine's fast path (see _pycore.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    if (PyType_Ready(&CoreType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "PlayCore", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    PyObject *api = PyCapsule_New(&c_api, ENGINE_CAPI_NAME, NULL);
    if (!api || PyModule_AddObject(m, "_C_API", api) < 0) {
        Py_XDECREF(api);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
