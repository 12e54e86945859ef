/*
 * The heuristic's play (heuristic.py: choose_card, _lead, _discard,
 * _threat) and its estimate of a hand's tricks
 * (heuristic_bidding.estimate_tricks), branch for branch and sum for sum.
 * No rule is computed here (see _speedups.c).
 */
#include "_speedups.h"

/* _threat: whether an opponent still to play in this trick may beat c
 * (can, when the seat sees the hands). */
static int threat(int c, int led, const int *later, int nlater, uint64_t outstanding,
                  const uint64_t *voids, const uint64_t *hands)
{
    if (!nlater)
        return 0;
    uint64_t led_mask = SUITM[led];
    int few_left = pop(outstanding & led_mask) <= 1;
    uint64_t above = BEAT[led][c];
    for (int i = 0; i < nlater; i++) {
        int t = later[i];
        if (hands) {
            uint64_t can = above & hands[t];
            if ((can & led_mask) || (can && !(hands[t] & led_mask)))
                return 1;
            continue;
        }
        uint64_t beat = above & outstanding & ~voids[t];
        if ((beat & led_mask) || (beat && ((voids[t] & led_mask) || few_left)))
            return 1;
    }
    return 0;
}

/* _discard: a card to throw away when not trying to win the trick; outstanding:
 * the cards that may beat ours (choose's theirs). */
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
                     const int *opp, const int *may_ruff, const uint64_t *hands)
{
    uint64_t mine = hand & SUITM[s];
    if (!mine)
        return -1;
    int t = top(mine);
    if (hands) {
        for (int i = 0; i < 2; i++) {
            uint64_t theirs = hands[opp[i]];
            if ((theirs & ABOVE[t]) || ((theirs & HEARTS) && !(theirs & SUITM[s])))
                return -1;
        }
        return t;
    }
    if (outstanding & ABOVE[t])
        return -1;
    int left = pop(outstanding & SUITM[s]);
    for (int i = 0; i < 2; i++)
        if (may_ruff[i] && ((voids[opp[i]] & SUITM[s]) || left <= 1))
            return -1;
    return t;
}

/* _to_partner: our lowest card of the first side suit whose top card the
 * partner holds for sure, or -1. */
static int to_partner(uint64_t hand, const uint64_t *hands, int partner, const int *opp)
{
    uint64_t opps = hands[opp[0]] | hands[opp[1]];
    for (int i = 0; i < 3; i++) {
        uint64_t sm = SUITM[SIDE[i]];
        uint64_t mine = hand & sm, theirs = hands[partner] & sm;
        if (!mine || !theirs || (opps & sm & ABOVE[top(theirs)]))
            continue;
        int ruff = 0;
        for (int j = 0; j < 2; j++) {
            uint64_t h = hands[opp[j]];
            if ((h & HEARTS) && !(h & sm))
                ruff = 1;
        }
        if (!ruff)
            return low(mine);
    }
    return -1;
}

/* _lead; theirs: the cards that may beat ours (choose's). */
static int lead(const Pos *p, uint64_t outstanding, uint64_t theirs, int need_me, int need_p,
                int opp_need)
{
    const int *around = AFTER[p->seat];
    const uint64_t *voids = p->voids;
    uint64_t hand = p->hand;
    int partner = around[2];
    int opp[2] = {around[1], around[3]};
    uint64_t my_h = hand & HEARTS, out_h = theirs & HEARTS;
    int may_ruff[2] = {(outstanding & HEARTS & ~voids[opp[0]]) != 0,
                       (outstanding & HEARTS & ~voids[opp[1]]) != 0};
    if (need_me || (opp_need && !need_p)) {
        if (my_h && out_h && top(my_h) > top(out_h))
            return top(my_h);
        int best = -1, best_left = -1;
        for (int i = 0; i < 3; i++) {
            int s = SIDE[i];
            int t = sure_side(s, hand, outstanding, voids, opp, may_ruff, p->hands);
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
        if (p->team && p->hands) {
            int c = to_partner(hand, p->hands, partner, opp);
            if (c >= 0)
                return c;
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
        if (rank_of(hi) >= 10 && (theirs & ABOVE[hi]) && n <= 3)
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
    uint64_t outstanding, theirs, mine_win;
    int led, following, need_me, help;
    const int *later;
    int nlater;
} Play;

static int lose(const Play *q)
{
    if (q->following)
        return low(q->p->legal);
    return discard(q->p->hand, q->p->legal, q->theirs, q->need_me, q->help);
}

static int cheapest_safe(const Play *q)
{
    for (uint64_t m = q->mine_win; m; m &= m - 1) {
        int c = low(m);
        if (!threat(c, q->led, q->later, q->nlater, q->outstanding, q->p->voids, q->p->hands))
            return c;
    }
    return -1;
}

/* choose_card: the heuristic's card; needs filled in by the caller. */
int choose(const Pos *p) /* NOLINT(readability-function-size): heuristic.py's decision table, branch for branch */
{
    uint64_t legal = p->legal;
    if (!(legal & (legal - 1)))
        return low(legal);
    const int *around = AFTER[p->seat];
    int partner = around[2], o1 = around[1], o2 = around[3];
    int need_me = p->need[p->seat], need_p = p->need[partner];
    int opp_need = p->need[o1] || p->need[o2];
    uint64_t outstanding = FULL ^ p->gone ^ p->hand;
    /* The cards that may beat ours: any another seat holds, or, for a seat
     * that reads every hand, the opponents'. */
    uint64_t theirs =
        p->reads_all && p->hands ? p->hands[o1] | p->hands[o2] : outstanding;
    int n = p->n;
    if (n == 0)
        return lead(p, outstanding, theirs, need_me, need_p, opp_need);
    int led = p->trick[0] / 13;
    int wi = winner_index(p->trick, n);
    int best = p->trick[wi];
    int wseat = around[4 + wi - n]; /* n - wi seats before ours */
    int later[1] = {o1};
    Play q = {p, outstanding, theirs, legal & BEAT[led][best], led, (legal & SUITM[led]) != 0,
              need_me, need_p > 0 && need_me == 0, later, n < 3 ? 1 : 0};
    if (!q.mine_win)
        return lose(&q);
    if (wseat == partner) {
        int partner_safe =
            !threat(best, led, q.later, q.nlater, outstanding, p->voids, p->hands);
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

void fill_need(Pos *p, const long *bids, const long *won, long tricks_left)
{
    for (int s = 0; s < 4; s++) {
        long n = bids[s] - won[s];
        p->need[s] = (n > 0 && n <= tricks_left) ? (int)n : 0;
    }
}

PyObject *py_choose_card(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
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
    p.hands = NULL;
    p.reads_all = 0;
    p.team = 0;
    fill_need(&p, bids, won, tricks_left);
    return PyLong_FromLong(choose(&p));
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

double estimate(uint64_t hand)
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

PyObject *py_estimate_tricks(PyObject *module, PyObject *arg)
{
    uint64_t hand;
    if (not_ready() || read_u64(arg, &hand) < 0)
        return NULL;
    return PyFloat_FromDouble(estimate(hand));
}
