/*
 * search.c - null-window alpha-beta over cards, with the table consulted and
 * written at trick boundaries, and a driver for exact values that bisects the
 * target while each fail-soft answer moves a bound (MTD(f) in spirit).
 *
 * A probe answers one yes/no question: does the declarer's total reach
 * `target`? Seats with rules.max_seat set want "yes", the others "no". The
 * search is exact: every cut-off is a proven one, and nothing is pruned
 * forward.
 */
#include <string.h>
#include "search.h"
#include "order.h"
#include "quick.h"

#define STOP_CHECK_INTERVAL 4096

/* The table keeps the best card as (suit, place among the suit's live cards),
 * so that it stays meaningful in every position that shares the entry. */
static int card_to_relative(const board *b, int card)
{
    uint32_t live = (b->hand[0] | b->hand[1] | b->hand[2]) & SUIT_MASK(CARD_SUIT(card));
    return CARD_SUIT(card) * 8 + popcount(live & ((1u << card) - 1));
}

static int relative_to_card(const board *b, int relative)
{
    uint32_t live = (b->hand[0] | b->hand[1] | b->hand[2]) & SUIT_MASK(relative >> 3);
    for (int k = relative & 7; k > 0 && live; k--)
        live &= live - 1;
    return live ? lowest_card(live) : NO_CARD;
}

/* The last trick: nobody has a choice. Answers the declarer's final total. */
static int last_trick_total(const pdd_solver *S, const board *b)
{
    board nb = *b;
    while (nb.tricks_left > 0)
        play_card(&nb, &S->rules, lowest_card(nb.hand[seat_to_move(&nb)]));
    return nb.dtricks;
}

static int stop_now(pdd_solver *S)
{
    if ((S->stats.nodes % STOP_CHECK_INTERVAL) == 0 &&
        atomic_load_explicit(&S->stop_requested, memory_order_relaxed))
        S->stopped = 1;
    return S->stopped;
}

/* Fail-soft null-window search around `target`. The answer v bounds the
 * declarer's final total: if v >= target the total is at least v, otherwise it
 * is at most v. Bounds tighter than the question let the driver and the table
 * skip probes that a plain yes/no would need. */
static int search(pdd_solver *S, const board *b, int target)
{
    const rules *r = &S->rules;
    int options = S->options;
    int boundary = at_trick_start(b);
    int low = b->dtricks;
    int hint = NO_CARD;
    tt_key key = {0, 0};

    S->stats.nodes++;
    if (stop_now(S))
        return 0;
    if (low >= target)
        return low;
    if (low + b->tricks_left < target)
        return low + b->tricks_left;
    if (boundary) {
        if (b->tricks_left == 1)
            return last_trick_total(S, b);
        if (options & PDD_OPT_TT) {
            key = tt_make_key(b, r);
            S->stats.tt_probes++;
            const tt_entry *e = tt_find(&S->table, &key);
            if (e) {
                if (low + e->lower >= target) { S->stats.tt_hits++; return low + e->lower; }
                if (low + e->upper < target) { S->stats.tt_hits++; return low + e->upper; }
                if (e->best != NO_BEST)
                    hint = relative_to_card(b, e->best);
            }
        }
        if ((options & PDD_OPT_QUICK) && r->objective != PDD_TRICKS) {
            int lower, upper;
            misere_bounds(b, r, &lower, &upper);
            if (low + lower >= target)
                return low + lower;
            if (low + upper < target)
                return low + upper;
        }
        if ((options & PDD_OPT_QUICK) && r->objective == PDD_TRICKS) {
            int cash = quick_tricks(b, r), declarer_sure, defence_sure;
            master_trumps(b, r, &declarer_sure, &defence_sure);
            /* Cashing side suits leaves every master trump in place. */
            if (r->max_seat[b->first])
                declarer_sure += cash;
            else
                defence_sure += cash;
            if (low + declarer_sure >= target)
                return low + declarer_sure;
            if (low + b->tricks_left - defence_sure < target)
                return low + b->tricks_left - defence_sure;
        }
    }

    int seat = seat_to_move(b);
    int maximise = r->max_seat[seat];
    uint32_t moves = legal_moves(b, r);
    int single = (moves & (moves - 1)) == 0;   /* a forced card: nothing to choose or sort */
    if ((options & PDD_OPT_EQUIV) && !single)
        moves = equivalence_representatives(b, moves, seat);
    int cards[10], n;
    if (single) {
        n = 1;
        cards[0] = lowest_card(moves);
    } else if (options & PDD_OPT_ORDER) {
        n = order_moves(b, r, moves, hint, S->history[seat], S->lead_weights, cards);
    } else {
        n = 0;
        for (uint32_t m = moves; m; m &= m - 1)
            cards[n++] = lowest_card(m);
    }

    /* best starts at the worst this seat can end with and improves. */
    int best = maximise ? b->dtricks : b->dtricks + b->tricks_left;
    int best_card = NO_CARD;
    for (int i = 0; i < n; i++) {
        board child = *b;
        play_card(&child, r, cards[i]);
        int v = search(S, &child, target);
        if (S->stopped)
            return 0;
        if (maximise ? v > best : v < best) {
            best = v;
            best_card = cards[i];
        }
        if (maximise ? best >= target : best < target) {
            if (b->ncards == 0)
                S->history[seat][cards[i]] += b->tricks_left * b->tricks_left;
            break;
        }
    }

    if (boundary && (options & PDD_OPT_TT)) {
        int future = best - b->dtricks;
        int rel = best_card == NO_CARD ? NO_BEST : card_to_relative(b, best_card);
        if (best >= target)
            tt_store(&S->table, &key, future, b->tricks_left, rel);
        else
            tt_store(&S->table, &key, 0, future, rel);
    }
    return best;
}

void search_begin(pdd_solver *S)
{
    S->stopped = 0;
    memset(S->history, 0, sizeof S->history);   /* card history means nothing in another deal */
    tt_new_generation(&S->table);
}

int search_bound(pdd_solver *S, const board *b, int target)
{
    return search(S, b, target);
}

int search_probe(pdd_solver *S, const board *b, int target)
{
    return search(S, b, target) >= target;
}

int search_value_from(pdd_solver *S, const board *b, int first_target)
{
    int lower = b->dtricks, upper = b->dtricks + b->tricks_left;
    int target = first_target;
    /* Bisect, letting each fail-soft answer move a bound past the target. */
    while (lower < upper) {
        if (target <= lower || target > upper)
            target = (lower + upper + 1) / 2;
        S->stats.probes++;
        int v = search(S, b, target);
        if (S->stopped)
            return -1;
        if (v >= target)
            lower = v;
        else
            upper = v;
        target = -1;
    }
    return lower;
}

int search_value(pdd_solver *S, const board *b)
{
    return search_value_from(S, b, -1);
}
