/*
 * What the bots' C units share (_speedups.c: the module, its arguments,
 * the engine's tables; _walk.c: the rollout and the likelihood;
 * _heuristic.c: the heuristic's play and its estimate of a hand's tricks;
 * _deal.c: the deal of the hidden cards; _solve.c: the exact solver):
 * the engine's tables, handed over by init(), and the position the
 * heuristic reads. See _speedups.c for what the C is and is not.
 */
#ifndef FOURHUNDRED_BOTS_SPEEDUPS_H
#define FOURHUNDRED_BOTS_SPEEDUPS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define DECK 52
#define FULL ((((uint64_t)1) << DECK) - 1)

extern int ready;
extern int STRENGTH[4][DECK];      /* engine TRICK_STRENGTH */
extern uint64_t BEAT[4][DECK];     /* engine BEATERS */
extern uint64_t SHOWN[DECK][DECK]; /* engine SHOWN_VOID */
extern int AFTER[4][4];            /* engine SEAT_AFTER */
extern uint64_t ABOVE[DECK];       /* bots.knowledge ABOVE */
extern uint64_t SUITM[4];          /* engine SUIT_MASKS */
extern uint64_t HEARTS;            /* engine HEARTS_MASK */
extern uint64_t NONH;              /* bots.knowledge NON_HEARTS */
extern int SIDE[3];                /* bots.knowledge SIDE_SUITS */

static inline int low(uint64_t m) { return __builtin_ctzll(m); }
static inline int top(uint64_t m) { return 63 - __builtin_clzll(m); }
static inline int pop(uint64_t m) { return __builtin_popcountll(m); }
static inline int rank_of(int c) { return c % 13; }

/* A seat's position as the heuristic reads it. */
typedef struct {
    int seat;
    uint64_t hand, legal, gone;
    const int *trick;
    int n;
    const uint64_t *voids;
    const uint64_t *hands; /* every seat's cards when the seat sees them, else NULL */
    int reads_all;         /* with hands: its top cards are read from them too */
    int team;              /* with hands: leads into the partner's sure winners */
    int need[4];
} Pos;

/* _heuristic.c */
int choose(const Pos *p);
void fill_need(Pos *p, const long *bids, const long *won, long tricks_left);
double estimate(uint64_t hand);
PyObject *py_choose_card(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *py_estimate_tricks(PyObject *module, PyObject *arg);

/* _walk.c */
int walk_init(void);
PyObject *py_rollout(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *py_likelihood(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* _solve.c */
int solve_init(void);
PyObject *py_solve(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* _deal.c */
int deal_init(void);
PyObject *py_draw(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* _speedups.c: reading Python arguments */
typedef int (*ReadOne)(PyObject *, void *);
int read_u64(PyObject *o, uint64_t *out);
int one_long(PyObject *o, void *out);
int one_int(PyObject *o, void *out);
int one_mask(PyObject *o, void *out);
int read_seq(PyObject *seq, void *out, size_t size, Py_ssize_t want, ReadOne one,
             const char *what);
int read_longs(PyObject *seq, long *out, Py_ssize_t want, const char *what);
int read_masks(PyObject *seq, uint64_t *out, Py_ssize_t want, const char *what);
int read_trick(PyObject *seq, int *trick, int *n);
int not_ready(void);

#endif
