/*
 * The exact solver (solver.py: _Solver and solve_root) in C, value for
 * value: alpha-beta on the team value, one team maximising and the other
 * minimising, over every card left; a hand stops as soon as every player's
 * fate is settled, and touching cards in one hand are tried once. The
 * value of each outcome (which players made their bids) comes from the
 * caller (solver.py: Scorer.outcomes), the play's rules (the legal cards, a
 * trick's winner) from the engine's own C functions (its capsule, taken by
 * init()). Hands with a 13 bid stay with the Python solver.
 *
 * solve(hands, trick, leader, won, bids, outcomes, maximising): the value
 * of each distinct legal card of the seat to act, as a dict (maximising:
 * by seat, whether the seat's team is the one whose value it is).
 */
#include "_speedups.h"
#include "../engine/_capi.h"

static const EngineCAPI *ENGINE;

typedef struct {
    double outcome[16]; /* by outcome: bit s set when seat s made its bid */
    long bids[4];
    int maxing[4]; /* whether the seat's team is the one maximising */
} Solver;

int solve_init(void)
{
    ENGINE = PyCapsule_Import(ENGINE_CAPI_NAME, 0);
    return ENGINE ? 0 : -1;
}

static double value_of(const Solver *sv, const int *won)
{
    int key = 0;
    for (int s = 0; s < 4; s++)
        if (won[s] >= sv->bids[s])
            key |= 1 << s;
    return sv->outcome[key];
}

static int settled(const Solver *sv, const int *won, int left)
{
    for (int s = 0; s < 4; s++)
        if (won[s] < sv->bids[s] && sv->bids[s] <= won[s] + left)
            return 0;
    return 1;
}

/* The legal cards, one of each run of touching cards, highest first
 * (solver.py: distinct_cards). */
static int distinct(uint64_t hand, uint64_t legal, uint64_t in_play, int *out)
{
    int n = 0;
    while (legal) {
        int t = top(legal);
        legal ^= (uint64_t)1 << t;
        uint64_t above = ABOVE[t] & in_play;
        if (above && (hand >> low(above) & 1))
            continue;
        out[n++] = t;
    }
    return n;
}

static double moves(const Solver *sv, uint64_t *hands, int *trick, int n, int leader, int *won,
                    double alpha, double beta);

/* A position: at a trick's start, the outcome if every fate is settled. */
static double search(const Solver *sv, uint64_t *hands, int *trick, int n, int leader, int *won,
                     double alpha, double beta)
{
    if (n == 0) {
        int left = pop(hands[0] | hands[1] | hands[2] | hands[3]) / 4;
        if (left == 0 || settled(sv, won, left))
            return value_of(sv, won);
    }
    return moves(sv, hands, trick, n, leader, won, alpha, beta);
}

/* The value of playing card c (the n-th of the trick) for the seat to act. */
static double after(const Solver *sv, uint64_t *hands, int *trick, int n, int leader, int *won,
                    int c, double alpha, double beta)
{
    int seat = AFTER[leader][n];
    uint64_t h = hands[seat];
    hands[seat] = h ^ ((uint64_t)1 << c);
    trick[n] = c;
    double v;
    if (n == 3) {
        int winner = AFTER[leader][ENGINE->winner(trick)];
        int next[4];
        won[winner]++;
        v = search(sv, hands, next, 0, winner, won, alpha, beta);
        won[winner]--;
    } else {
        v = search(sv, hands, trick, n + 1, leader, won, alpha, beta);
    }
    hands[seat] = h;
    return v;
}

static uint64_t in_play_of(const uint64_t *hands, const int *trick, int n)
{
    uint64_t m = hands[0] | hands[1] | hands[2] | hands[3];
    for (int i = 0; i < n; i++)
        m |= (uint64_t)1 << trick[i];
    return m;
}

static double moves(const Solver *sv, uint64_t *hands, int *trick, int n, int leader, int *won,
                    double alpha, double beta)
{
    int seat = AFTER[leader][n];
    uint64_t h = hands[seat];
    int cards[13];
    int k = distinct(h, ENGINE->legal(h, n ? trick[0] : -1), in_play_of(hands, trick, n), cards);
    int maxing = sv->maxing[seat];
    double best = maxing ? -INFINITY : INFINITY;
    for (int i = 0; i < k; i++) {
        double v = after(sv, hands, trick, n, leader, won, cards[i], alpha, beta);
        if (maxing) {
            best = v > best ? v : best;
            alpha = best > alpha ? best : alpha;
        } else {
            best = v < best ? v : best;
            beta = best < beta ? best : beta;
        }
        if (alpha >= beta)
            break;
    }
    return best;
}

static int one_double(PyObject *o, void *out)
{
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred())
        return -1;
    *(double *)out = v;
    return 0;
}

PyObject *py_solve(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "solve(hands, trick, leader, won, bids, outcomes, maximising)");
        return NULL;
    }
    if (not_ready())
        return NULL;
    Solver sv;
    uint64_t hands[4];
    int trick[4], n, leader;
    long won_l[4], max_l[4];
    if (read_masks(args[0], hands, 4, "hands") < 0 || read_trick(args[1], trick, &n) < 0 ||
        one_int(args[2], &leader) < 0 || read_longs(args[3], won_l, 4, "won") < 0 ||
        read_longs(args[4], sv.bids, 4, "bids") < 0 || read_seq(args[5], sv.outcome, sizeof(double), 16, one_double, "outcomes") < 0 ||
        read_longs(args[6], max_l, 4, "maximising") < 0)
        return NULL;
    if (leader < 0 || leader > 3) {
        PyErr_Format(PyExc_ValueError, "%d is not a seat", leader);
        return NULL;
    }
    int won[4];
    for (int s = 0; s < 4; s++) {
        won[s] = (int)won_l[s];
        sv.maxing[s] = max_l[s] != 0;
    }
    uint64_t h = hands[AFTER[leader][n]];
    if (!h) {
        PyErr_SetString(PyExc_ValueError, "the seat to act has no cards");
        return NULL;
    }
    int cards[13];
    int k = distinct(h, ENGINE->legal(h, n ? trick[0] : -1), in_play_of(hands, trick, n), cards);
    PyObject *out = PyDict_New();
    for (int i = 0; out && i < k; i++) {
        double v = after(&sv, hands, trick, n, leader, won, cards[i], -INFINITY, INFINITY);
        PyObject *key = PyLong_FromLong(cards[i]);
        PyObject *val = PyFloat_FromDouble(v);
        if (!key || !val || PyDict_SetItem(out, key, val) < 0)
            Py_CLEAR(out);
        Py_XDECREF(key);
        Py_XDECREF(val);
    }
    return out;
}
