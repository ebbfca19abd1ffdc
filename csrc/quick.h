/*
 * quick.h - sure-trick bounds at the start of a trick.
 *
 * A cheap count of tricks the side on lead can cash at once, whatever the
 * others do. It bounds the search from one side and never changes a value.
 */
#ifndef PREFDD_QUICK_H
#define PREFDD_QUICK_H

#include "board.h"

/* Tricks the seat on lead (b->first) can take by cashing top cards, in a trick
 * contract or in no trump alike; 0 if none. Only at a trick start. */
int quick_tricks(const board *b, const rules *r);

#endif
