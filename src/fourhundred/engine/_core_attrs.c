/*
 * PlayCore's attributes (getters and setters): the same names and values
 * as _pycore.py's. See _speedups.c.
 */
#include "_speedups.h"

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

PyGetSetDef Core_getset[] = {
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
