/*
 * order.h - move ordering: which card to try first.
 *
 * Ordering changes only how fast the search finds a cut-off, never a value.
 */
#ifndef PREFDD_ORDER_H
#define PREFDD_ORDER_H

#include "board.h"

/* The lead weights of a new solver. */
void order_default_weights(int weights[PDD_ORDER_WEIGHTS]);
/* Are these weights in range (PDD_OK or PDD_ERR_WEIGHTS)? */
int order_check_weights(const int *weights);
/* The error text of PDD_ERR_WEIGHTS: the count and each range, from the table. */
const char *order_weights_text(void);

/* Write the cards of `moves` into out[] best first and answer how many.
 * `hint` (a card, or NO_CARD) goes first when it is among the moves, and a
 * lead `killer` (a card, or NO_CARD) next; the seat's `history` (cut-offs
 * its leads caused in this search, weighted by depth) adds to the heuristic
 * score of a lead, and `weights` score the features of a lead. */
int order_moves(const board *b, const rules *r, uint32_t moves, int hint, int killer,
                const uint32_t history[32], const int *weights, int out[10]);

#endif
