/*
 * The walks through a hand (see _speedups.c for what the C is and is not):
 * a hand played out through the state's own play_unchecked, card by card,
 * by the heuristic (rollout.py: rollout) or along the cards that were
 * played, judging each against the heuristic's (inference.py:
 * play_likelihood).
 */
#include "_speedups.h"

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
    p->reads_all = 0;
    p->team = 0;
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
PyObject *py_rollout(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
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
        p.reads_all = seen == 3;
        p.team = seen == 4;
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
PyObject *py_likelihood(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
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

int walk_init(void)
{
#define INTERN(var, s)                                                                             \
    if (!(var = PyUnicode_InternFromString(s)))                                                    \
        return -1;
    INTERN(S_turn, "turn");
    INTERN(S_play, "play_unchecked");
    INTERN(S_bids, "bids");
    INTERN(S_trick, "current_trick");
    INTERN(S_hands, "hands");
    INTERN(S_won, "tricks_won");
    INTERN(S_ntricks, "n_tricks");
    INTERN(S_legal, "legal_mask");
#undef INTERN
    return 0;
}
