/*
 * discard_lines.c - the best discard of many layouts in one call, each with
 * the seats' tricks along the canonical line after it when asked: the
 * sampled whist advice's searches for a run of layouts, on one solver.
 *
 * Each layout is what the binding would do with three calls
 * (pdd_best_discard_floor, pdd_canonical_suits, pdd_line_tricks), in the
 * same order on the same table, so the values and tricks are those of the
 * calls one by one (in a trick contract the nodes are not: the layouts
 * share table generations, LAYOUTS_PER_GENERATION). Measured on the first
 * defender's whist advice: about 20 us of the interpreter's work a layout (structs, three
 * calls, the lock) became one crossing of the binding for a run of them.
 */
#include <limits.h>
#include "prefdd.h"
#include "search.h"

/* In a trick contract the layouts of a run share table generations, up to
 * this many a generation (each run starts one). A run's layouts are the
 * sampled advice's sorted neighbours, so the entries of the layouts just
 * before are the ones the next reuses; a generation a call (the solver's
 * default policy) makes them the first replaced. An entry that settles a
 * node joins the current generation (keep_used). Measured on the whist
 * advice's runs (benchmarks/whist_discards.py --runs, 16 MiB solvers, runs
 * of up to 16 layouts): first defender -13.6 % to -14.8 % nodes, second
 * defender -11.9 % to -13.4 %; 8 layouts a generation -12.5 %, carried
 * across runs about the same; without keep_used -12.8 %. Generations of
 * 20 layouts or more (carried across runs) cost up to 15 % more nodes than
 * one a call: the table then fills with entries of one generation. */
#define LAYOUTS_PER_GENERATION 16

static int layout(pdd_solver *S, const pdd_position *template, const uint32_t hands[3], int mode, int floor,
                  int line, int32_t out[4])
{
    pdd_position p = *template;
    int declarer = template->declarer;
    uint32_t pool = hands[declarer];
    for (int s = 0; s < 3; s++)
        p.hands[s] = s == declarer ? 0 : hands[s];
    pdd_discard_result found;
    int err = pdd_best_discard_floor(S, &p, pool, mode, floor, &found);
    if (err != PDD_OK)
        return err;
    out[0] = found.value;
    out[1] = out[2] = out[3] = -1;
    if (!line || found.count == 0)   /* no discard: a value below the floor */
        return PDD_OK;
    p.hands[declarer] = pool & ~found.discards[0];
    int32_t suit_to[4];
    err = pdd_canonical_suits(&p, suit_to);
    if (err != PDD_OK)
        return err;
    int guess = found.value < -1 ? -1 : found.value > 10 ? 10 : found.value;
    return pdd_line_tricks(S, &p, guess, suit_to, out + 1);
}

int pdd_best_discard_lines(pdd_solver *solver, const pdd_position *template, const uint32_t *hands, int count,
                           int mode, int floor, int line, int32_t *out)
{
    if (!solver || !template || (count > 0 && (!hands || !out)))
        return PDD_ERR_NULL;
    if (count < 0)
        return PDD_ERR_COUNT;
    if (template->declarer < 0 || template->declarer > 2)
        return PDD_ERR_SEAT;
    int shared = template->objective == PDD_TRICKS;
    int per_generation = solver->solves_per_generation, keep_used = solver->table.keep_used;
    if (shared) {
        solver->solves_per_generation = INT_MAX;   /* search_begin leaves the generation alone */
        solver->table.keep_used = 1;
    }
    int err = PDD_OK;
    for (int i = 0; i < count && err == PDD_OK; i++) {
        if (shared && i % LAYOUTS_PER_GENERATION == 0)
            tt_new_generation(&solver->table);
        err = layout(solver, template, hands + 3 * (size_t)i, mode, floor, line, out + 4 * (size_t)i);
    }
    if (shared) {
        solver->solves_per_generation = per_generation;
        solver->solves_in_generation = 0;
        solver->table.keep_used = keep_used;
    }
    return err;
}
