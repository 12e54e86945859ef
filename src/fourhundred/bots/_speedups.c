/*
 * The bots' inner loops in C, each the same as its Python twin decision for
 * decision (tests/bots/test_bots_speedups.py runs both and compares):
 * the heuristic's play (heuristic.py: choose_card, _lead, _discard, _threat)
 * and its estimate of a hand's tricks (heuristic_bidding.estimate_tricks),
 * the search's rollout (rollout.py: rollout) and the location model's deal
 * of the hidden cards (locations.py: LocationSampler._deal), which draws
 * from the caller's random.Random exactly as the Python does.
 *
 * No rule of the game is computed here. The cards are played through the
 * state's own play_unchecked (the engine's core), and every table of the
 * trick rules (which card beats which, the trick's winner, the suit a
 * discard shows void, the seats in order) is the engine's, handed over by
 * init() when rollout.py imports this module. A card c is suit c / 13 and
 * rank c % 13, the engine's encoding; the suit only indexes those tables.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define DECK 52
#define FULL ((((uint64_t)1) << DECK) - 1)

static int ready;
static int STRENGTH[4][DECK];  /* engine TRICK_STRENGTH */
static uint64_t BEAT[4][DECK]; /* engine BEATERS */
static uint64_t SHOWN[DECK][DECK]; /* engine SHOWN_VOID */
static int AFTER[4][4];        /* engine SEAT_AFTER */
static uint64_t ABOVE[DECK];   /* bots.knowledge ABOVE */
static uint64_t SUITM[4];      /* engine SUIT_MASKS */
static uint64_t HEARTS;        /* engine HEARTS_MASK */
static uint64_t NONH;          /* bots.knowledge NON_HEARTS */
static int SIDE[3];            /* bots.knowledge SIDE_SUITS */

static inline int low(uint64_t m) { return __builtin_ctzll(m); }
static inline int top(uint64_t m) { return 63 - __builtin_clzll(m); }
static inline int pop(uint64_t m) { return __builtin_popcountll(m); }
static inline int rank_of(int c) { return c % 13; }

typedef struct {
    int seat;
    uint64_t hand, legal, gone;
    const int *trick;
    int n;
    const uint64_t *voids;
    int need[4];
} Pos;

/* _threat: whether an opponent still to play in this trick may beat c. */
static int threat(int c, int led, const int *later, int nlater, uint64_t outstanding,
                  const uint64_t *voids)
{
    if (!nlater)
        return 0;
    uint64_t led_mask = SUITM[led];
    int few_left = pop(outstanding & led_mask) <= 1;
    uint64_t above = BEAT[led][c];
    for (int i = 0; i < nlater; i++) {
        int t = later[i];
        uint64_t beat = above & outstanding & ~voids[t];
        if ((beat & led_mask) || (beat && ((voids[t] & led_mask) || few_left)))
            return 1;
    }
    return 0;
}

/* _discard: a card to throw away when not trying to win the trick. */
static int discard(uint64_t hand, uint64_t legal, uint64_t outstanding, int need_me,
                   int help_partner)
{
    uint64_t side = legal & NONH;
    if (!side)
        return low(legal);
    int has_hearts = (hand & HEARTS) != 0;
    int best = -1;
    double best_score = 1000.0;
    for (uint64_t m = side; m; m &= m - 1) {
        int c = low(m);
        int n = pop(hand & SUITM[c / 13]);
        int is_top = !(outstanding & ABOVE[c]);
        double score;
        if (help_partner) {
            score = (double)(-rank_of(c)) - (is_top ? 5.0 : 0.0);
        } else {
            score = (double)rank_of(c) + (is_top && need_me ? 10.0 : 0.0);
            if (n == 1 && has_hearts)
                score -= 3.0;
            if (rank_of(c) >= 10 && n == 2 && !is_top)
                score += 2.0;
        }
        if (score < best_score) {
            best_score = score;
            best = c;
        }
    }
    return best;
}

/* _lead's sure_side: our top card of side suit s if no one can beat it. */
static int sure_side(int s, uint64_t hand, uint64_t outstanding, const uint64_t *voids,
                     const int *opp, const int *may_ruff)
{
    uint64_t mine = hand & SUITM[s];
    if (!mine)
        return -1;
    int t = top(mine);
    if (outstanding & ABOVE[t])
        return -1;
    int left = pop(outstanding & SUITM[s]);
    for (int i = 0; i < 2; i++)
        if (may_ruff[i] && ((voids[opp[i]] & SUITM[s]) || left <= 1))
            return -1;
    return t;
}

static int lead(const Pos *p, uint64_t outstanding, int need_me, int need_p, int opp_need)
{
    const int *around = AFTER[p->seat];
    const uint64_t *voids = p->voids;
    uint64_t hand = p->hand;
    int partner = around[2];
    int opp[2] = {around[1], around[3]};
    uint64_t my_h = hand & HEARTS, out_h = outstanding & HEARTS;
    int may_ruff[2] = {(outstanding & HEARTS & ~voids[opp[0]]) != 0,
                       (outstanding & HEARTS & ~voids[opp[1]]) != 0};
    if (need_me || (opp_need && !need_p)) {
        if (my_h && out_h && top(my_h) > top(out_h))
            return top(my_h);
        int best = -1, best_left = -1;
        for (int i = 0; i < 3; i++) {
            int s = SIDE[i];
            int t = sure_side(s, hand, outstanding, voids, opp, may_ruff);
            if (t >= 0) {
                int left = pop(outstanding & SUITM[s]);
                if (left > best_left) {
                    best = t;
                    best_left = left;
                }
            }
        }
        if (best >= 0)
            return best;
        if (my_h && !out_h && need_me)
            return top(my_h);
    }
    if (need_p) {
        for (int i = 0; i < 3; i++) {
            uint64_t sm = SUITM[SIDE[i]];
            uint64_t mine = hand & sm;
            if (mine && (voids[partner] & sm) && (outstanding & HEARTS & ~voids[partner]) &&
                !(voids[opp[0]] & sm) && !(voids[opp[1]] & sm))
                return low(mine);
        }
    }
    int best = -1;
    double best_score = -1e9;
    uint64_t side = p->legal & NONH;
    for (int i = 0; i < 3; i++) {
        int s = SIDE[i];
        uint64_t mine = side & SUITM[s];
        if (!mine)
            continue;
        int n = pop(mine);
        int lo = low(mine), hi = top(mine);
        double score = (double)n;
        if (need_me && my_h && n <= 2)
            score += 3.0 - n;
        if (rank_of(hi) >= 10 && (outstanding & ABOVE[hi]) && n <= 3)
            score -= 2.5;
        for (int j = 0; j < 2; j++) {
            int o = opp[j];
            if ((voids[o] & SUITM[s]) && (outstanding & HEARTS & ~voids[o]) && p->need[o])
                score -= 4.0;
        }
        score -= rank_of(lo) * 0.2;
        if (score > best_score) {
            best_score = score;
            best = lo;
        }
    }
    if (best >= 0)
        return best;
    if (my_h && (!out_h || top(my_h) > top(out_h)) && (need_me || opp_need))
        return top(my_h);
    return low(p->legal);
}

static int winner_index(const int *trick, int n)
{
    const int *strength = STRENGTH[trick[0] / 13];
    int w = 0, best = strength[trick[0]];
    for (int i = 1; i < n; i++)
        if (strength[trick[i]] > best) {
            w = i;
            best = strength[trick[i]];
        }
    return w;
}

typedef struct {
    const Pos *p;
    uint64_t outstanding, mine_win;
    int led, following, need_me, help;
    const int *later;
    int nlater;
} Play;

static int lose(const Play *q)
{
    if (q->following)
        return low(q->p->legal);
    return discard(q->p->hand, q->p->legal, q->outstanding, q->need_me, q->help);
}

static int cheapest_safe(const Play *q)
{
    for (uint64_t m = q->mine_win; m; m &= m - 1) {
        int c = low(m);
        if (!threat(c, q->led, q->later, q->nlater, q->outstanding, q->p->voids))
            return c;
    }
    return -1;
}

/* choose_card: the heuristic's card; needs filled in by the caller. */
static int choose(const Pos *p) /* NOLINT(readability-function-size): heuristic.py's decision table, branch for branch */
{
    uint64_t legal = p->legal;
    if (!(legal & (legal - 1)))
        return low(legal);
    const int *around = AFTER[p->seat];
    int partner = around[2], o1 = around[1], o2 = around[3];
    int need_me = p->need[p->seat], need_p = p->need[partner];
    int opp_need = p->need[o1] || p->need[o2];
    uint64_t outstanding = FULL ^ p->gone ^ p->hand;
    int n = p->n;
    if (n == 0)
        return lead(p, outstanding, need_me, need_p, opp_need);
    int led = p->trick[0] / 13;
    int wi = winner_index(p->trick, n);
    int best = p->trick[wi];
    int wseat = around[4 + wi - n]; /* n - wi seats before ours */
    int later[1] = {o1};
    Play q = {p, outstanding, legal & BEAT[led][best], led, (legal & SUITM[led]) != 0,
              need_me, need_p > 0 && need_me == 0, later, n < 3 ? 1 : 0};
    if (!q.mine_win)
        return lose(&q);
    if (wseat == partner) {
        int partner_safe = !threat(best, led, q.later, q.nlater, outstanding, p->voids);
        if (partner_safe) {
            if (need_me && !need_p) {
                int c = cheapest_safe(&q);
                if (c >= 0)
                    return c;
            }
            return lose(&q);
        }
        if (need_me || need_p || opp_need) {
            int c = cheapest_safe(&q);
            if (c >= 0 && (need_me || !need_p || q.following))
                return c;
        }
        return lose(&q);
    }
    int deny = p->need[wseat] > 0 || (q.nlater && p->need[o1]);
    int want = need_me > 0 || deny;
    int partner_later = n == 1;
    if (!want)
        return lose(&q);
    int c = cheapest_safe(&q);
    if (c >= 0)
        return c;
    if (partner_later)
        return lose(&q);
    if (need_me && q.following)
        return top(q.mine_win);
    if (need_me && (q.mine_win & HEARTS))
        return q.nlater ? top(q.mine_win & HEARTS) : low(q.mine_win);
    return lose(&q);
}

static void fill_need(Pos *p, const long *bids, const long *won, long tricks_left)
{
    for (int s = 0; s < 4; s++) {
        long n = bids[s] - won[s];
        p->need[s] = (n > 0 && n <= tricks_left) ? (int)n : 0;
    }
}

/* ---- reading Python arguments ---- */

static int read_u64(PyObject *o, uint64_t *out)
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

typedef int (*ReadOne)(PyObject *, void *);

static int one_long(PyObject *o, void *out)
{
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *(long *)out = v;
    return 0;
}

static int one_int(PyObject *o, void *out)
{
    long v;
    if (one_long(o, &v) < 0)
        return -1;
    *(int *)out = (int)v;
    return 0;
}

static int one_mask(PyObject *o, void *out) { return read_u64(o, out); }

/* want items of seq, each read by one into out (items of size bytes). */
static int read_seq(PyObject *seq, void *out, size_t size, Py_ssize_t want, ReadOne one,
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

static int read_longs(PyObject *seq, long *out, Py_ssize_t want, const char *what)
{
    return read_seq(seq, out, sizeof *out, want, one_long, what);
}

static int read_masks(PyObject *seq, uint64_t *out, Py_ssize_t want, const char *what)
{
    return read_seq(seq, out, sizeof *out, want, one_mask, what);
}

static int read_trick(PyObject *seq, int *trick, int *n)
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

static int not_ready(void)
{
    if (ready)
        return 0;
    PyErr_SetString(PyExc_RuntimeError, "_speedups.init() has not been given the engine's tables");
    return 1;
}

static PyObject *py_choose_card(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "choose_card(seat, hand, legal, trick, gone, voids, "
                                         "bids, won, values, tricks_left)");
        return NULL;
    }
    if (not_ready())
        return NULL;
    Pos p;
    int trick[3];
    uint64_t voids[4];
    long bids[4], won[4];
    long seat = PyLong_AsLong(args[0]);
    long tricks_left = PyLong_AsLong(args[9]);
    if (PyErr_Occurred())
        return NULL;
    if (seat < 0 || seat > 3) {
        PyErr_Format(PyExc_ValueError, "%ld is not a seat", seat);
        return NULL;
    }
    if (read_u64(args[1], &p.hand) < 0 || read_u64(args[2], &p.legal) < 0 ||
        read_trick(args[3], trick, &p.n) < 0 || read_u64(args[4], &p.gone) < 0 ||
        read_masks(args[5], voids, 4, "voids") < 0 || read_longs(args[6], bids, 4, "bids") < 0 ||
        read_longs(args[7], won, 4, "won") < 0)
        return NULL;
    if (!p.legal) {
        PyErr_SetString(PyExc_ValueError, "no legal card to choose from");
        return NULL;
    }
    p.seat = (int)seat;
    p.trick = trick;
    p.voids = voids;
    fill_need(&p, bids, won, tricks_left);
    return PyLong_FromLong(choose(&p));
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

/* rollout(state, gone, voids): rollout.py's rollout. */
static PyObject *py_rollout(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "rollout(state, gone, voids)");
        return NULL;
    }
    if (not_ready())
        return NULL;
    PyObject *voids_list = args[2];
    uint64_t gone, voids[4];
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
        hand_pos(&h, &p, seat, gone, voids);
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

/* ---- heuristic_bidding.estimate_tricks, the sums in the same order ---- */

static double trump_tricks(uint64_t hr, int nh)
{
    double e = 0.0;
    if (hr & (1 << 12))
        e += 1.0;
    if (hr & (1 << 11))
        e += nh >= 2 ? 0.85 : 0.3;
    if (hr & (1 << 10))
        e += nh >= 3 ? 0.65 : 0.15;
    if (hr & (1 << 9))
        e += nh >= 4 ? 0.4 : 0.05;
    if (nh >= 5 && (hr & (1 << 8)))
        e += 0.2;
    if (nh > 3)
        e += 0.75 * (nh - 3);
    return e;
}

static double side_tricks(double e, uint64_t m, int n, int nh)
{
    uint64_t ace = m & 4096, king = m & 2048, queen = m & 1024, jack = m & 512;
    if (ace)
        e += n <= 5 ? 0.95 : (n == 6 ? 0.8 : 0.6);
    if (king) {
        if (n >= 2) {
            e += ace ? 0.75 : 0.5;
            if (n >= 6)
                e -= 0.15;
        } else {
            e += 0.15;
        }
    }
    if (queen) {
        if (n >= 3) {
            e += (ace || king) ? 0.45 : 0.3;
            if (ace && king)
                e += 0.15;
        } else if (n == 2 && (ace || king)) {
            e += 0.15;
        }
    }
    if (jack && n >= 4 && (ace || king) && queen)
        e += 0.2;
    if (n >= 5)
        e += (nh >= 4 ? 0.25 : 0.1) * (n - 4);
    return e;
}

static double estimate(uint64_t hand)
{
    uint64_t h = hand & HEARTS;
    int nh = pop(h);
    double e = trump_tricks(h >> 26, nh);
    int spare = nh - 2 > 0 ? nh - 2 : 0;
    for (int i = 0; i < 3; i++) {
        int s = SIDE[i];
        uint64_t m = (hand >> (13 * s)) & 0x1FFF;
        int n = pop(m);
        if (n == 0) {
            e += 0.6 * (spare < 2 ? spare : 2);
            spare = spare - 2 > 0 ? spare - 2 : 0;
        } else if (n == 1) {
            if (spare) {
                e += 0.4;
                spare--;
            }
        } else if (n == 2 && spare) {
            e += 0.15;
        }
        if (n)
            e = side_tricks(e, m, n, nh);
    }
    return e;
}

static PyObject *py_estimate_tricks(PyObject *module, PyObject *arg)
{
    uint64_t hand;
    if (not_ready() || read_u64(arg, &hand) < 0)
        return NULL;
    return PyFloat_FromDouble(estimate(hand));
}

/* ---- the location model's deal ---- */

static PyObject *S_random, *S_getrandbits;
/* _random.Random's own methods, and the last type of rng seen to use them
 * unchanged (random.Random): called directly, without a bound method. */
static PyObject *RANDOM_METH, *GETRANDBITS_METH;
static PyTypeObject *PLAIN_RNG;

static int plain_rng(PyObject *rng)
{
    PyTypeObject *t = Py_TYPE(rng);
    if (t == PLAIN_RNG)
        return 1;
    if (!RANDOM_METH) {
        PyObject *mod = PyImport_ImportModule("_random");
        if (!mod)
            return -1;
        PyObject *base = PyObject_GetAttrString(mod, "Random");
        Py_DECREF(mod);
        if (!base)
            return -1;
        RANDOM_METH = PyObject_GetAttr(base, S_random);
        GETRANDBITS_METH = PyObject_GetAttr(base, S_getrandbits);
        Py_DECREF(base);
        if (!RANDOM_METH || !GETRANDBITS_METH)
            return -1;
    }
    PyObject *r = PyObject_GetAttr((PyObject *)t, S_random);
    PyObject *g = PyObject_GetAttr((PyObject *)t, S_getrandbits);
    int same = r == RANDOM_METH && g == GETRANDBITS_METH;
    Py_XDECREF(r);
    Py_XDECREF(g);
    if (!r || !g)
        return -1;
    if (same) { /* kept alive, so that no other class can take its address */
        Py_INCREF(t);
        Py_XDECREF(PLAIN_RNG);
        PLAIN_RNG = t;
    }
    return same;
}

/* rng.getrandbits(bits), or rng.random() without bits: directly for a plain random.Random,
 * else through the method (an override is honoured). */
static PyObject *rng_call(PyObject *rng, PyObject *bits)
{
    int plain = plain_rng(rng);
    if (plain < 0)
        return NULL;
    if (plain) {
        PyObject *argv[2] = {rng, bits};
        return PyObject_Vectorcall(bits ? GETRANDBITS_METH : RANDOM_METH, argv, bits ? 2 : 1, NULL);
    }
    return bits ? PyObject_CallMethodOneArg(rng, S_getrandbits, bits)
                : PyObject_CallMethodNoArgs(rng, S_random);
}

static PyObject *S_randbelow;

/* What random.shuffle draws: rng._randbelow(n). For a plain random.Random
 * that is _randbelow_with_getrandbits, done here the way CPython does it; a
 * class of its own may draw otherwise (one that overrides random() but not
 * getrandbits() draws with random()), so its own method is called. */
static long randbelow(PyObject *rng, long n)
{
    int plain = plain_rng(rng);
    if (plain < 0)
        return -1;
    if (!plain) {
        PyObject *arg = PyLong_FromLong(n), *v;
        if (!arg)
            return -1;
        v = PyObject_CallMethodOneArg(rng, S_randbelow, arg);
        Py_DECREF(arg);
        if (!v)
            return -1;
        long r = PyLong_AsLong(v);
        Py_DECREF(v);
        return (r == -1 && PyErr_Occurred()) ? -1 : r;
    }
    int k = 0;
    for (long m = n; m; m >>= 1)
        k++;
    PyObject *bits = PyLong_FromLong(k);
    if (!bits)
        return -1;
    long r;
    PyObject *argv[2] = {rng, bits}; /* plain: its own getrandbits, directly */
    do {
        PyObject *v = PyObject_Vectorcall(GETRANDBITS_METH, argv, 2, NULL);
        if (!v) {
            Py_DECREF(bits);
            return -1;
        }
        r = PyLong_AsLong(v);
        Py_DECREF(v);
        if (r == -1 && PyErr_Occurred()) {
            Py_DECREF(bits);
            return -1;
        }
    } while (r >= n);
    Py_DECREF(bits);
    return r;
}

static int uniform(PyObject *rng, double *out)
{
    PyObject *v = rng_call(rng, NULL);
    if (!v)
        return -1;
    *out = PyFloat_AsDouble(v);
    Py_DECREF(v);
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

/* Deals the unknown cards to the seats other than seat, suit by suit (the
 * suits with the fewest seats that may hold them first, each shuffled), each
 * card to a seat drawn in proportion to its weight: with chances (52 x 3,
 * rel: each seat's column), LocationSampler._deal's; without,
 * sampling._deal_once's (the cards the seat still has room for). 1: dealt
 * into hands; 0: a dead end (None in Python); -1: an error. */
static int deal(PyObject *rng, long seat, uint64_t unknown, const long *caps,
                const uint64_t *voids, const double (*chances)[3], const long *rel,
                uint64_t *hands)
{
    long cap[4];
    double share[4];
    int elig[4][3], nelig[4];
    for (int s = 0; s < 4; s++) {
        cap[s] = caps[s];
        share[s] = 1.0 / (double)(cap[s] > 1 ? cap[s] : 1);
    }
    for (int su = 0; su < 4; su++) {
        nelig[su] = 0;
        for (int s = 0; s < 4; s++)
            if (s != seat && !(voids[s] & SUITM[su]))
                elig[su][nelig[su]++] = s;
    }
    int order[4] = {0, 1, 2, 3}; /* sorted by the number of seats, stably */
    for (int i = 1; i < 4; i++)
        for (int j = i; j > 0 && nelig[order[j - 1]] > nelig[order[j]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int oi = 0; oi < 4; oi++) {
        int su = order[oi], n = 0, cards[13];
        const int *seats = elig[su];
        int ns = nelig[su];
        for (uint64_t m = unknown & SUITM[su]; m; m &= m - 1)
            cards[n++] = low(m);
        for (int i = n - 1; i >= 1; i--) { /* random.shuffle */
            long j = randbelow(rng, i + 1);
            if (j < 0)
                return -1;
            int t = cards[i];
            cards[i] = cards[j];
            cards[j] = t;
        }
        for (int ci = 0; ci < n; ci++) {
            int c = cards[ci];
            double w[3], total = 0.0, r;
            for (int i = 0; i < ns; i++) {
                int s = seats[i];
                w[i] = chances ? (double)cap[s] * share[s] * chances[c][rel[s]] + 1e-9 * (double)cap[s]
                               : (double)cap[s];
                total += w[i];
            }
            if (total <= 0.0)
                return 0;
            if (uniform(rng, &r) < 0)
                return -1;
            r *= total;
            int pick = -1;
            for (int i = 0; i < ns; i++) {
                r -= w[i];
                if (r < 0.0 && cap[seats[i]]) {
                    pick = seats[i];
                    break;
                }
            }
            for (int i = ns - 1; pick < 0 && i >= 0; i--)
                if (cap[seats[i]])
                    pick = seats[i];
            if (pick < 0)
                return 0;
            hands[pick] |= (uint64_t)1 << c;
            cap[pick]--;
        }
    }
    return 1;
}

/* The arguments of a deal: seat, hand, unknown, caps, voids. */
static int read_deal_args(PyObject *const *args, long *seat, uint64_t *hand, uint64_t *unknown,
                          long *caps, uint64_t *voids)
{
    *seat = PyLong_AsLong(args[0]);
    if ((*seat == -1 && PyErr_Occurred()) || read_u64(args[1], hand) < 0 ||
        read_u64(args[2], unknown) < 0 || read_longs(args[3], caps, 4, "caps") < 0 ||
        read_masks(args[4], voids, 4, "voids") < 0)
        return -1;
    if (*seat < 0 || *seat > 3) {
        PyErr_Format(PyExc_ValueError, "%ld is not a seat", *seat);
        return -1;
    }
    for (int s = 0; s < 4; s++)
        if (caps[s] < 0 || caps[s] > 13) {
            PyErr_SetString(PyExc_ValueError, "caps: 0..13 cards for each seat");
            return -1;
        }
    return 0;
}

/* sampling.bid_likelihood: how well a whole hand fits the bid b of a seat
 * whose lowest bid is low. */
static double bid_fit(long b, long low, uint64_t whole)
{
    if (!b || b == 13)
        return 1.0;
    double e = estimate(whole) * 1.05 + 0.2;
    if (b <= low) {
        double over = e - ((double)b + 1.2);
        return over <= 0 ? 1.0 : exp(-0.5 * over * over);
    }
    double d = e - ((double)b + 0.4);
    return exp(-0.5 * d * d / 1.3);
}

static PyObject *hands_list(const uint64_t *h)
{
    return Py_BuildValue("[KKKK]", (unsigned long long)h[0], (unsigned long long)h[1],
                         (unsigned long long)h[2], (unsigned long long)h[3]);
}

/* draw(rng, chances, seat, hand, unknown, caps, voids, rel, played_by, bids,
 * lows, tries): the rejection loop of sample_hands and of LocationSampler
 * (chances and rel None: the uniform deal). Up to tries deals, each kept
 * with the chance that every other bidder's whole hand fits its bid
 * (bid_likelihood; lows: each seat's lowest bid); stops at the first dead
 * end. Returns (kept or None, deals tried, dead end?, best deal or None,
 * its weight). */
static PyObject *py_draw(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "draw(rng, chances, seat, hand, unknown, caps, voids, "
                                         "rel, played_by, bids, lows, tries)");
        return NULL;
    }
    if (not_ready())
        return NULL;
    double chances[DECK][3];
    int located = args[1] != Py_None;
    if (located) {
        Py_buffer buf;
        if (PyObject_GetBuffer(args[1], &buf, PyBUF_SIMPLE) < 0)
            return NULL;
        int ok = buf.len == (Py_ssize_t)(sizeof(double) * DECK * 3);
        if (ok)
            memcpy(chances, buf.buf, sizeof chances);
        PyBuffer_Release(&buf);
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "chances: 52 x 3 packed doubles expected");
            return NULL;
        }
    }
    long seat, caps[4], rel[4] = {0, 0, 0, 0}, bids[4], lows[4];
    uint64_t hand, unknown, voids[4], played[4];
    if (read_deal_args(args + 2, &seat, &hand, &unknown, caps, voids) < 0 ||
        (located && read_longs(args[7], rel, 4, "rel") < 0) ||
        read_masks(args[8], played, 4, "played_by") < 0 || read_longs(args[9], bids, 4, "bids") < 0 ||
        read_longs(args[10], lows, 4, "lows") < 0)
        return NULL;
    long tries = PyLong_AsLong(args[11]);
    if (tries == -1 && PyErr_Occurred())
        return NULL;
    for (int s = 0; s < 4; s++)
        if (located && s != seat && (rel[s] < 0 || rel[s] > 2)) {
            PyErr_SetString(PyExc_ValueError, "rel: a column 0..2 for each other seat");
            return NULL;
        }
    uint64_t best[4] = {0, 0, 0, 0};
    double best_w = -1.0;
    long done = 0;
    int dead = 0;
    while (done < tries) {
        uint64_t h[4] = {0, 0, 0, 0};
        h[seat] = hand;
        int r = deal(args[0], seat, unknown, caps, voids, located ? chances : NULL,
                     located ? rel : NULL, h);
        done++;
        if (r < 0)
            return NULL;
        if (r == 0) {
            dead = 1;
            break;
        }
        double w = 1.0, u;
        for (int s = 0; s < 4; s++)
            if (s != seat && bids[s])
                w *= bid_fit(bids[s], lows[s], h[s] | played[s]);
        if (w > best_w) {
            memcpy(best, h, sizeof best);
            best_w = w;
        }
        if (uniform(args[0], &u) < 0)
            return NULL;
        if (u < w)
            return Py_BuildValue("NlOOd", hands_list(h), done, Py_False,
                                 Py_None, best_w);
    }
    if (best_w < 0.0)
        return Py_BuildValue("OlOOd", Py_None, done, dead ? Py_True : Py_False, Py_None, best_w);
    return Py_BuildValue("OlONd", Py_None, done, dead ? Py_True : Py_False, hands_list(best),
                         best_w);
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
    INTERN(S_random, "random");
    INTERN(S_getrandbits, "getrandbits");
    INTERN(S_randbelow, "_randbelow");
#undef INTERN
    return PyModule_Create(&module_def);
}
