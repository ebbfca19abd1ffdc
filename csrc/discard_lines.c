/*
 * discard_lines.c - the best discard of many layouts in one call, each with
 * the seats' tricks along the canonical line after it when asked: the
 * sampled whist advice's searches for a run of layouts, on one solver.
 *
 * Each layout is what the binding would do with three calls
 * (pdd_best_discard_floor, pdd_canonical_suits, pdd_line_tricks), in the
 * same order on the same table, so the values, tricks and node counts are
 * those of the calls one by one. Measured on the first defender's whist
 * advice: about 20 us of the interpreter's work a layout (structs, three
 * calls, the lock) became one crossing of the binding for a run of them.
 */
#include "prefdd.h"

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
    for (int i = 0; i < count; i++) {
        int err = layout(solver, template, hands + 3 * (size_t)i, mode, floor, line, out + 4 * (size_t)i);
        if (err != PDD_OK)
            return err;
    }
    return PDD_OK;
}
