/*
 * search.c - null-window alpha-beta over cards, with the table consulted and
 * written at trick boundaries, and an MTD(f)-style driver for exact values.
 *
 * A probe answers one yes/no question: does the declarer's total reach
 * `target`? Seats with rules.max_seat set want "yes", the others "no". The
 * search is exact: every cut-off is a proven one.
 */
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

/* The last trick: nobody has a choice. */
static int last_trick_reaches(const pdd_solver *S, const board *b, int target)
{
    board nb = *b;
    while (nb.tricks_left > 0)
        play_card(&nb, &S->rules, lowest_card(nb.hand[seat_to_move(&nb)]));
    return nb.dtricks >= target;
}

static int stop_now(pdd_solver *S)
{
    if ((S->stats.nodes % STOP_CHECK_INTERVAL) == 0 &&
        atomic_load_explicit(&S->stop_requested, memory_order_relaxed))
        S->stopped = 1;
    return S->stopped;
}

int search_probe(pdd_solver *S, const board *b, int target)
{
    const rules *r = &S->rules;
    int options = S->options;
    int boundary = at_trick_start(b);
    int hint = NO_CARD;
    tt_key key;

    S->stats.nodes++;
    if (stop_now(S))
        return 0;
    if (b->dtricks >= target)
        return 1;
    if (b->dtricks + b->tricks_left < target)
        return 0;
    if (boundary) {
        if (b->tricks_left == 1)
            return last_trick_reaches(S, b, target);
        if (options & PDD_OPT_TT) {
            key = tt_make_key(b, r);
            S->stats.tt_probes++;
            const tt_entry *e = tt_find(&S->table, &key);
            if (e) {
                if (b->dtricks + e->lower >= target) { S->stats.tt_hits++; return 1; }
                if (b->dtricks + e->upper < target) { S->stats.tt_hits++; return 0; }
                if (e->best != NO_BEST)
                    hint = relative_to_card(b, e->best);
            }
        }
        if ((options & PDD_OPT_QUICK) && r->objective == PDD_TRICKS) {
            int sure = quick_tricks(b, r);
            if (r->max_seat[b->first] ? b->dtricks + sure >= target
                                      : b->dtricks + b->tricks_left - sure < target)
                return r->max_seat[b->first];
        }
    }

    int seat = seat_to_move(b);
    int want = r->max_seat[seat];      /* the answer this seat plays for */
    uint32_t moves = legal_moves(b, r);
    if (options & PDD_OPT_EQUIV)
        moves = equivalence_representatives(b, moves, seat);
    int cards[10], n;
    if (options & PDD_OPT_ORDER) {
        n = order_moves(b, r, moves, hint, cards);
    } else {
        n = 0;
        for (uint32_t m = moves; m; m &= m - 1)
            cards[n++] = lowest_card(m);
    }

    int result = !want, best = NO_CARD;
    for (int i = 0; i < n; i++) {
        board child = *b;
        play_card(&child, r, cards[i]);
        int reached = search_probe(S, &child, target);
        if (S->stopped)
            return 0;
        if (reached == want) {
            result = want;
            best = cards[i];
            break;
        }
    }

    if (boundary && (options & PDD_OPT_TT)) {
        /* Bounds on future tricks: "reached" means future >= target - taken. */
        int future = target - b->dtricks;
        int rel = best == NO_CARD ? NO_BEST : card_to_relative(b, best);
        if (result)
            tt_store(&S->table, &key, future, b->tricks_left, rel);
        else
            tt_store(&S->table, &key, 0, future - 1, rel);
    }
    return result;
}

int search_value(pdd_solver *S, const board *b)
{
    int lower = b->dtricks, upper = b->dtricks + b->tricks_left;
    /* Binary search on the target; the table makes repeated probes cheap. */
    while (lower < upper) {
        int target = (lower + upper + 1) / 2;
        S->stats.probes++;
        int reached = search_probe(S, b, target);
        if (S->stopped)
            return -1;
        if (reached)
            lower = target;
        else
            upper = target - 1;
    }
    return lower;
}
