/*
 * The bots' inner loops in C, each the same as its Python twin decision for
 * decision (tests/bots/test_bots_speedups.py runs both and compares). This
 * unit: the module, its arguments, the engine's tables, and the walks
 * through a hand (rollout.py: rollout; inference.py: play_likelihood).
 * _heuristic.c: the heuristic's play (heuristic.py: choose_card, _lead,
 * _discard, _threat) and its estimate of a hand's tricks
 * (heuristic_bidding.estimate_tricks). _deal.c: the deal of the hidden
 * cards and the bids' weighing of it (sampling.sample_hands' and
 * locations.LocationSampler's rejection loop), which draws from the
 * caller's random.Random exactly as the Python does.
 *
 * No rule of the game is computed here. The cards are played through the
 * state's own play_unchecked (the engine's core), and every table of the
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

static PyObject *S_turn, *S_play, *S_bids, *S_trick, *S_hands, *S_won, *S_ntricks, *S_legal;

static int get_long_attr(PyObject *o, PyObject *name, long *out)
{
    PyObject *v = PyObject_GetAttr(o, name);
    if (!v)
        return -1;
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int get_attr_with(PyObject *o, PyObject *name, int (*read)(PyObject *, void *), void *out)
{
    PyObject *v = PyObject_GetAttr(o, name);
    if (!v)
        return -1;
    int r = read(v, out);
    Py_DECREF(v);
    return r;
}

static int rd_bids(PyObject *v, void *out) { return read_longs(v, out, 4, "bids"); }
static int rd_won(PyObject *v, void *out) { return read_longs(v, out, 4, "tricks_won"); }
static int rd_hands(PyObject *v, void *out) { return read_masks(v, out, 4, "hands"); }

/* A hand being played out through the state's own play_unchecked, and what
 * the loops below keep of it between cards (the engine's state is the
 * truth: this copy only spares reading it back after every card). */
typedef struct {
    PyObject *state;
    uint64_t hands[4], legal;
    long bids[4], won[4], ntricks;
    int trick[4], n, trick_done;
} Hand;

static int hand_start(PyObject *state, Hand *h)
{
    h->state = state;
    h->trick_done = 0;
    if (get_attr_with(state, S_bids, rd_bids, h->bids) < 0 ||
        get_attr_with(state, S_won, rd_won, h->won) < 0 ||
        get_attr_with(state, S_hands, rd_hands, h->hands) < 0 ||
        get_long_attr(state, S_ntricks, &h->ntricks) < 0)
        return -1;
    PyObject *t = PyObject_GetAttr(state, S_trick);
    if (!t)
        return -1;
    int r = read_trick(t, h->trick, &h->n);
    Py_DECREF(t);
    if (r < 0)
        return -1;
    PyObject *lg = PyObject_CallMethodNoArgs(state, S_legal);
    if (!lg)
        return -1;
    r = read_u64(lg, &h->legal);
    Py_DECREF(lg);
    return r;
}

/* The seat to play (the winner of a finished trick leads the next). */
static int hand_turn(Hand *h, int *seat)
{
    long s;
    if (get_long_attr(h->state, S_turn, &s) < 0)
        return -1;
    if (s < 0 || s > 3) {
        PyErr_Format(PyExc_ValueError, "%ld is not a seat", s);
        return -1;
    }
    if (h->trick_done) {
        h->won[s]++;
        h->ntricks++;
        h->trick_done = 0;
    }
    *seat = (int)s;
    return 0;
}

/* The position of seat as the heuristic reads it. */
static void hand_pos(const Hand *h, Pos *p, int seat, uint64_t gone, const uint64_t *voids)
{
    p->seat = seat;
    p->hand = h->hands[seat];
    p->legal = h->legal;
    p->gone = gone;
    p->trick = h->trick;
    p->n = h->n;
    p->voids = voids;
    p->hands = NULL;
    fill_need(p, h->bids, h->won, 13 - h->ntricks);
}

/* Play card c for seat; 1 if the hand goes on, 0 if it is over. */
static int hand_play(Hand *h, int seat, int c)
{
    h->trick[h->n++] = c;
    h->hands[seat] &= ~((uint64_t)1 << c);
    PyObject *pc = PyLong_FromLong(c);
    if (!pc)
        return -1;
    PyObject *next = PyObject_CallMethodOneArg(h->state, S_play, pc);
    Py_DECREF(pc);
    if (!next || read_u64(next, &h->legal) < 0) {
        Py_XDECREF(next);
        return -1;
    }
    Py_DECREF(next);
    if (!h->legal)
        return 0;
    if (h->n == 4) {
        h->n = 0;
        h->trick_done = 1;
    }
    return 1;
}

/* Every seat's true voids in the deal being played out: the suits it no
 * longer holds (rollout.py's true_voids). */
static void true_voids(const Hand *h, uint64_t *out)
{
    for (int s = 0; s < 4; s++) {
        out[s] = 0;
        for (int u = 0; u < 4; u++)
            if (!(h->hands[s] & SUITM[u]))
                out[s] |= SUITM[u];
    }
}

/* rollout(state, gone, voids[, seen]): rollout.py's rollout. */
static PyObject *py_rollout(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "rollout(state, gone, voids[, seen])");
        return NULL;
    }
    if (not_ready())
        return NULL;
    long seen = 0;
    if (nargs == 4 && (seen = PyLong_AsLong(args[3])) == -1 && PyErr_Occurred())
        return NULL;
    PyObject *voids_list = args[2];
    uint64_t gone, voids[4], known[4];
    Hand h;
    Pos p;
    if (read_u64(args[1], &gone) < 0 || read_masks(voids_list, voids, 4, "voids") < 0 ||
        hand_start(args[0], &h) < 0)
        return NULL;
    int more = 1;
    while (more) {
        int seat;
        if (hand_turn(&h, &seat) < 0)
            return NULL;
        if (seen)
            true_voids(&h, known);
        hand_pos(&h, &p, seat, gone, seen ? known : voids);
        if (seen > 1)
            p.hands = h.hands;
        int c = choose(&p);
        if (h.n)
            voids[seat] |= SHOWN[h.trick[0]][c];
        gone |= (uint64_t)1 << c;
        if ((more = hand_play(&h, seat, c)) < 0)
            return NULL;
    }
    for (Py_ssize_t s = 0; s < 4; s++) {
        PyObject *v = PyLong_FromUnsignedLongLong(voids[s]);
        if (!v || PySequence_SetItem(voids_list, s, v) < 0) {
            Py_XDECREF(v);
            return NULL;
        }
        Py_DECREF(v);
    }
    Py_RETURN_NONE;
}

/* inference._same_card: a and b equal, or touching for a player holding
 * hand (no card still in play between them). */
static int same_card(int a, int b, uint64_t hand, uint64_t gone, const int *trick, int n)
{
    if (a == b)
        return 1;
    uint64_t suit = SUITM[a / 13];
    if (!(suit >> b & 1))
        return 0;
    int lo = a < b ? a : b, hi = a < b ? b : a;
    uint64_t between = ABOVE[lo] & suit & (((uint64_t)1 << hi) - 1);
    uint64_t in_play = ~gone;
    for (int i = 0; i < n; i++)
        in_play |= (uint64_t)1 << trick[i];
    return !(between & in_play & ~hand);
}

/* likelihood(state, order, me, noise, judge_from): inference.py's
 * play_likelihood, the same product in the same order. */
static PyObject *py_likelihood(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "likelihood(state, order, me, noise, judge_from)");
        return NULL;
    }
    if (not_ready())
        return NULL;
    long me = PyLong_AsLong(args[2]);
    double noise = PyFloat_AsDouble(args[3]);
    long judge_from = PyLong_AsLong(args[4]);
    if (PyErr_Occurred())
        return NULL;
    PyObject *order = PySequence_Fast(args[1], "the cards played must be a sequence");
    if (!order)
        return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(order);
    uint64_t gone = 0, voids[4] = {0, 0, 0, 0};
    double w = 1.0;
    Hand h;
    Pos p;
    int more = hand_start(args[0], &h) < 0 ? -1 : 1;
    for (Py_ssize_t i = 0; i < len && more > 0; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(order, i));
        int seat;
        if ((c == -1 && PyErr_Occurred()) || hand_turn(&h, &seat) < 0) {
            more = -1;
            break;
        }
        if (c < 0 || c >= DECK || !(h.legal >> c & 1)) {
            PyErr_Format(PyExc_ValueError, "card %ld is not a legal play here", c);
            more = -1;
            break;
        }
        if (seat != me && i >= judge_from) {
            int legal_n = pop(h.legal);
            if (legal_n > 1) {
                hand_pos(&h, &p, seat, gone, voids);
                int hc = choose(&p);
                double keep = same_card(hc, (int)c, h.hands[seat], gone, h.trick, h.n) ? 1.0 - noise
                                                                                         : 0.0;
                w *= keep + noise / legal_n;
            }
        }
        if (h.n)
            voids[seat] |= SHOWN[h.trick[0]][c];
        gone |= (uint64_t)1 << c;
        more = hand_play(&h, seat, (int)c);
    }
    Py_DECREF(order);
    if (more < 0)
        return NULL;
    return PyFloat_FromDouble(w);
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
#define INTERN(var, s)                                                                             \
    if (!(var = PyUnicode_InternFromString(s)))                                                    \
        return NULL;
    INTERN(S_turn, "turn");
    INTERN(S_play, "play_unchecked");
    INTERN(S_bids, "bids");
    INTERN(S_trick, "current_trick");
    INTERN(S_hands, "hands");
    INTERN(S_won, "tricks_won");
    INTERN(S_ntricks, "n_tricks");
    INTERN(S_legal, "legal_mask");
#undef INTERN
    if (deal_init() < 0)
        return NULL;
    return PyModule_Create(&module_def);
}
