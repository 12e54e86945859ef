/*
 * The trick-play core of the engine in C: the same class and functions as
 * _pycore.py, card for card (the tests run both and compare them). It holds
 * only what changes on every card; the rules of bidding, scoring and the end
 * of the game stay in Python (state.py), which subclasses PlayCore.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define DECK 52
#define SUIT_MASK(s) (((uint64_t)0x1FFF) << (13 * (s)))

typedef struct {
    PyObject_HEAD
    uint64_t hands[4];
    uint64_t follow;
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

static int strength(int led, int c)
{
    int suit = c / 13, rank = c % 13;
    if (suit == 2)
        return 100 + rank;
    if (suit == led)
        return rank;
    return -1;
}

static PyObject *int_list(const int *xs, int n)
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
    self->follow = 0;
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

static int read_seat(PyObject *arg, int *out)
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

static int read_mask(PyObject *obj, uint64_t *out)
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

/* ---- getters and setters ---- */

static PyObject *Core_get_hands(CoreObject *self, void *closure)
{
    return Py_BuildValue("[KKKK]", (unsigned long long)self->hands[0],
                         (unsigned long long)self->hands[1], (unsigned long long)self->hands[2],
                         (unsigned long long)self->hands[3]);
}

static PyObject *Core_get_turn(CoreObject *self, void *closure)
{
    return PyLong_FromLong(self->turn);
}

static int Core_set_turn(CoreObject *self, PyObject *value, void *closure)
{
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete turn");
        return -1;
    }
    return read_seat(value, &self->turn);
}

static PyObject *Core_get_thirteen(CoreObject *self, void *closure)
{
    return PyLong_FromLong(self->thirteen_bidder);
}

static int Core_set_thirteen(CoreObject *self, PyObject *value, void *closure)
{
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete thirteen_bidder");
        return -1;
    }
    long s = PyLong_AsLong(value);
    if (s == -1 && PyErr_Occurred())
        return -1;
    if (s < -1 || s > 3) {
        PyErr_Format(PyExc_ValueError, "%ld is not a seat (0 to 3) or -1", s);
        return -1;
    }
    self->thirteen_bidder = (int)s;
    return 0;
}

static PyObject *Core_get_tricks_won(CoreObject *self, void *closure)
{
    return int_list(self->won, 4);
}

static PyObject *Core_get_winners(CoreObject *self, void *closure)
{
    return int_list(self->winners, self->nwinners);
}

static PyObject *Core_get_trick(CoreObject *self, void *closure)
{
    return int_list(self->trick, self->ntrick);
}

static PyObject *Core_get_done(CoreObject *self, void *closure)
{
    return int_list(self->done, self->ndone);
}

static PyObject *Core_get_plays(CoreObject *self, void *closure)
{
    int all[DECK];
    memcpy(all, self->done, sizeof(int) * self->ndone);
    memcpy(all + self->ndone, self->trick, sizeof(int) * self->ntrick);
    return int_list(all, self->ndone + self->ntrick);
}

static PyObject *Core_get_ntricks(CoreObject *self, void *closure)
{
    return PyLong_FromLong(self->nwinners);
}

static PyObject *Core_get_led(CoreObject *self, void *closure)
{
    return PyLong_FromLong(self->ntrick ? self->trick[0] / 13 : -1);
}

static PyGetSetDef Core_getset[] = {
    {"hands", (getter)Core_get_hands, NULL, "Each seat's unplayed cards, as masks.", NULL},
    {"turn", (getter)Core_get_turn, (setter)Core_set_turn, "The seat to act.", NULL},
    {"thirteen_bidder", (getter)Core_get_thirteen, (setter)Core_set_thirteen,
     "The seat that bid 13 in this hand, or -1.", NULL},
    {"tricks_won", (getter)Core_get_tricks_won, NULL, "Tricks won in this hand, by seat.", NULL},
    {"trick_winners", (getter)Core_get_winners, NULL, "The winner of each complete trick.", NULL},
    {"current_trick", (getter)Core_get_trick, NULL, "The trick in progress.", NULL},
    {"done_cards", (getter)Core_get_done, NULL, "The cards of the complete tricks.", NULL},
    {"plays", (getter)Core_get_plays, NULL, "This hand's cards in the order played.", NULL},
    {"n_tricks", (getter)Core_get_ntricks, NULL, "Complete tricks in this hand.", NULL},
    {"led_suit", (getter)Core_get_led, NULL, "The suit led to the trick in progress, or -1.",
     NULL},
    {NULL},
};

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
    self->follow = 0;
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
    self->follow = o->follow;
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
    self->follow = tmp.ntrick ? SUIT_MASK(tmp.trick[0] / 13) : 0;
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
    if (self->ntrick) {
        uint64_t f = h & self->follow;
        if (f)
            return PyLong_FromUnsignedLongLong(f);
    }
    return PyLong_FromUnsignedLongLong(h);
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
        if (self->ntrick == 1)
            self->follow = SUIT_MASK(c / 13);
        seat = (seat + 1) & 3;
        self->turn = seat;
        uint64_t h = self->hands[seat];
        uint64_t f = h & self->follow;
        return PyLong_FromUnsignedLongLong(f ? f : h);
    }
    int led = self->trick[0] / 13;
    int w = 0, best = strength(led, self->trick[0]);
    for (int i = 1; i < 4; i++) {
        int s = strength(led, self->trick[i]);
        if (s > best) {
            w = i;
            best = s;
        }
    }
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

/* ---- module functions ---- */

static PyObject *nth_card(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
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

static PyObject *pick_card(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
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

static PyObject *cards_of(PyObject *module, PyObject *arg)
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

static PyObject *deal_from_bytes(PyObject *module, PyObject *arg)
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
    return m;
}
