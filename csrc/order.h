/*
 * order.h - move ordering: which card to try first.
 *
 * Ordering changes only how fast the search finds a cut-off, never a value.
 */
#ifndef PREFDD_ORDER_H
#define PREFDD_ORDER_H

#include "board.h"

/* Write the cards of `moves` into out[] best first and answer how many.
 * `hint` (a card, or NO_CARD) goes first when it is among the moves. */
int order_moves(const board *b, const rules *r, uint32_t moves, int hint, int out[10]);

#endif
