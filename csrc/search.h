/*
 * search.h - the solver context and the alpha-beta search.
 */
#ifndef PREFDD_SEARCH_H
#define PREFDD_SEARCH_H

#include <stdatomic.h>
#include "board.h"
#include "tt.h"

struct pdd_solver {
    tt table;
    int options;           /* PDD_OPT_* flags */
    rules rules;           /* of the search under way */
    atomic_int stop_requested;
    int stopped;           /* the search under way saw the stop request */
    pdd_stats stats;
    size_t table_bytes;         /* the table's memory as asked for at pdd_new */
    int solves_per_generation;  /* top-level calls that share a table generation */
    int solves_in_generation;   /* ... begun in the current one */
    uint32_t history[3][32];  /* cut-offs by seat and card: move ordering only */
    int8_t killer[11][3];     /* by tricks left and seat: the lead that cut last (search.c) */
    int lead_weights[PDD_ORDER_WEIGHTS];  /* move ordering: see order.c */
};

/* Has a stop been requested (pdd_request_stop, not yet cleared)? */
static inline int stop_pending(pdd_solver *S)
{
    return atomic_load_explicit(&S->stop_requested, memory_order_relaxed) != 0;
}

/* Ready the solver for a new top-level call (stop flag, move history and
 * killer leads, table generation). */
void search_begin(pdd_solver *S);
/* Forget the move history (the cut-offs that order the leads). */
void search_clear_history(pdd_solver *S);
/* Null-window search: 1 if the declarer's total tricks reach target under the
 * objective, else 0 (also 0 when stopped: check solver->stopped). */
int search_probe(pdd_solver *S, const board *b, int target);
/* The same question answered fail-soft: v >= target proves the total is at
 * least v, v < target that it is at most v. */
int search_bound(pdd_solver *S, const board *b, int target);
/* The exact value by a sequence of probes (MTD(f) style). */
int search_value(pdd_solver *S, const board *b);
/* The same, asking "is it at least first_target?" first (a good guess saves
 * probes: e.g. a child's value is usually its parent's). */
int search_value_from(pdd_solver *S, const board *b, int first_target);
/* The legal cards `moves` at b in the order the search tries them, one card
 * per run of equivalent cards (with the options that do so). Answers how
 * many. */
int search_ordered_moves(pdd_solver *S, const board *b, uint32_t moves, int cards[10]);

#endif
