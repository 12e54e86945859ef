/*
 * The bots' inner loops in C, each the same as its Python twin decision for
 * decision (tests/bots/test_bots_speedups.py runs both and compares). This
 * unit: the module, its arguments and the engine's tables. _walk.c: the
 * walks through a hand (rollout.py: rollout; inference.py:
 * play_likelihood). _heuristic.c: the heuristic's play (heuristic.py: choose_card, _lead,
 * _discard, _threat) and its estimate of a hand's tricks
 * (heuristic_bidding.estimate_tricks). _deal.c: the deal of the hidden
 * cards and the bids' weighing of it (sampling.sample_hands' and
 * locations.LocationSampler's rejection loop), which draws from the
 * caller's random.Random exactly as the Python does. _solve.c: the exact
 * solver of the last tricks (solver.py), with the engine's play rules in C.
 *
 * No rule of the game is computed here. The cards are played through the
 * state's own play_unchecked (the engine's core), or in the solver by the
 * engine's own C functions (the legal cards, a trick's winner: its
 * capsule, engine/_capi.h), and every table of the
 * trick rules (which card beats which, the trick's winner, the suit a
 * discard shows void, the seats in order) is the engine's, handed over by
 * init() when rollout.py imports this module. A card c is suit c / 13 and
 * rank c % 13, the engine's encoding; the suit only indexes those tables.
 */
#include "_speedups.h"

int ready;
int STRENGTH[4][DECK];
uint64_t BEAT[4][DECK];
uint64_t SHOWN[DECK][DECK];
int AFTER[4][4];
uint64_t ABOVE[DECK];
uint64_t SUITM[4];
uint64_t HEARTS;
uint64_t NONH;
int SIDE[3];

/* ---- reading Python arguments ---- */

int read_u64(PyObject *o, uint64_t *out)
{
    unsigned long long m = PyLong_AsUnsignedLongLong(o);
    if (m == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if (m >> DECK) {
        PyErr_SetString(PyExc_ValueError, "a card mask has bits beyond the 52 cards");
        return -1;
    }
    *out = (uint64_t)m;
    return 0;
}


int one_long(PyObject *o, void *out)
{
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *(long *)out = v;
    return 0;
}

int one_int(PyObject *o, void *out)
{
    long v;
    if (one_long(o, &v) < 0)
        return -1;
    *(int *)out = (int)v;
    return 0;
}

int one_mask(PyObject *o, void *out) { return read_u64(o, out); }

/* want items of seq, each read by one into out (items of size bytes). */
int read_seq(PyObject *seq, void *out, size_t size, Py_ssize_t want, ReadOne one,
                    const char *what)
{
    PyObject *f = PySequence_Fast(seq, what);
    if (!f)
        return -1;
    int r = 0;
    if (PySequence_Fast_GET_SIZE(f) != want) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd values", what, want);
        r = -1;
    }
    for (Py_ssize_t i = 0; r == 0 && i < want; i++)
        r = one(PySequence_Fast_GET_ITEM(f, i), (char *)out + i * size);
    Py_DECREF(f);
    return r;
}

int read_longs(PyObject *seq, long *out, Py_ssize_t want, const char *what)
{
    return read_seq(seq, out, sizeof *out, want, one_long, what);
}

int read_masks(PyObject *seq, uint64_t *out, Py_ssize_t want, const char *what)
{
    return read_seq(seq, out, sizeof *out, want, one_mask, what);
}

int read_trick(PyObject *seq, int *trick, int *n)
{
    PyObject *f = PySequence_Fast(seq, "the trick must be a sequence of cards");
    if (!f)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(f);
    if (len > 3) {
        PyErr_SetString(PyExc_ValueError, "a trick in progress has at most 3 cards");
        Py_DECREF(f);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (c < 0 || c >= DECK) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "%ld is not a card", c);
            Py_DECREF(f);
            return -1;
        }
        trick[i] = (int)c;
    }
    *n = (int)len;
    Py_DECREF(f);
    return 0;
}

int not_ready(void)
{
    if (ready)
        return 0;
    PyErr_SetString(PyExc_RuntimeError, "_speedups.init() has not been given the engine's tables");
    return 1;
}

/* ---- the engine's tables ---- */

/* A table of rows x cols items, each read by one. */
static int read_rows(PyObject *seq, void *out, size_t size, Py_ssize_t rows, Py_ssize_t cols,
                     ReadOne one, const char *what)
{
    PyObject *f = PySequence_Fast(seq, what);
    if (!f)
        return -1;
    int r = 0;
    if (PySequence_Fast_GET_SIZE(f) != rows) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd rows", what, rows);
        r = -1;
    }
    for (Py_ssize_t i = 0; r == 0 && i < rows; i++)
        r = read_seq(PySequence_Fast_GET_ITEM(f, i), (char *)out + i * cols * size, size, cols,
                     one, what);
    Py_DECREF(f);
    return r;
}

static PyObject *py_init(PyObject *module, PyObject *args)
{
    PyObject *strength, *beaters, *shown, *after, *above, *suits, *side;
    unsigned long long hearts, nonh;
    if (!PyArg_ParseTuple(args, "OOOOOOKKO", &strength, &beaters, &shown, &after, &above, &suits,
                          &hearts, &nonh, &side))
        return NULL;
    long side_l[3];
    ready = 0;
    if (read_rows(strength, STRENGTH, sizeof(int), 4, DECK, one_int, "trick_strength") < 0 ||
        read_rows(beaters, BEAT, sizeof(uint64_t), 4, DECK, one_mask, "beaters") < 0 ||
        read_rows(shown, SHOWN, sizeof(uint64_t), DECK, DECK, one_mask, "shown_void") < 0 ||
        read_rows(after, AFTER, sizeof(int), 4, 4, one_int, "seat_after") < 0 ||
        read_masks(above, ABOVE, DECK, "above") < 0 || read_masks(suits, SUITM, 4, "suit_masks") < 0 ||
        read_longs(side, side_l, 3, "side_suits") < 0)
        return NULL;
    for (int i = 0; i < 3; i++)
        SIDE[i] = (int)side_l[i];
    HEARTS = hearts;
    NONH = nonh;
    if (solve_init() < 0)
        return NULL;
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"init", (PyCFunction)py_init, METH_VARARGS,
     "Take the engine's tables (rollout.py calls it once, at import)."},
    {"choose_card", (PyCFunction)(void (*)(void))py_choose_card, METH_FASTCALL,
     "heuristic.choose_card, in C."},
    {"rollout", (PyCFunction)(void (*)(void))py_rollout, METH_FASTCALL,
     "rollout.rollout, in C: play the state to the end of the hand."},
    {"likelihood", (PyCFunction)(void (*)(void))py_likelihood, METH_FASTCALL,
     "inference.play_likelihood, in C."},
    {"estimate_tricks", (PyCFunction)py_estimate_tricks, METH_O,
     "heuristic_bidding.estimate_tricks, in C."},
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_FASTCALL,
     "solver.solve_root, in C (no 13 bid): each distinct card's exact value."},
    {"draw", (PyCFunction)(void (*)(void))py_draw, METH_FASTCALL,
     "sample_hands' and LocationSampler's rejection loop, in C."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "fourhundred.bots._speedups",
    .m_doc = "The bots' inner loops in C (see rollout.py and locations.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    if (walk_init() < 0 || deal_init() < 0)
        return NULL;
    return PyModule_Create(&module_def);
}
