/*
 * The engine's play rules as C functions, for C code outside the engine
 * (the bots' exact solver, bots/_solve.c): the module exports them in a
 * capsule, fourhundred.engine._speedups._C_API, and uses them itself, so
 * the rules stay computed in one place.
 */
#ifndef FOURHUNDRED_ENGINE_CAPI_H
#define FOURHUNDRED_ENGINE_CAPI_H

#include <stdint.h>

#define ENGINE_CAPI_NAME "fourhundred.engine._speedups._C_API"

typedef struct {
    /* The cards of hand that may be played to a trick whose first card is
     * led (led < 0: the trick is empty, any card). */
    uint64_t (*legal)(uint64_t hand, int led);
    /* Which of the four cards of a full trick, in play order, wins it. */
    int (*winner)(const int *trick);
} EngineCAPI;

#endif
