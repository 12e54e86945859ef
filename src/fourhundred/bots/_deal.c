/*
 * The deal of the hidden cards and its weighing by the bids' fit
 * (sampling.sample_hands' and locations.LocationSampler's rejection loop),
 * drawing from the caller's random.Random exactly as the Python does. No
 * rule is computed here (see _speedups.c).
 */
#include "_speedups.h"

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
PyObject *py_draw(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
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

/* The names this unit calls random.Random's methods by. */
int deal_init(void)
{
    S_random = PyUnicode_InternFromString("random");
    S_getrandbits = PyUnicode_InternFromString("getrandbits");
    S_randbelow = PyUnicode_InternFromString("_randbelow");
    return S_random && S_getrandbits && S_randbelow ? 0 : -1;
}
