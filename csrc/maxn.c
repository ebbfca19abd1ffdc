/*
 * maxn.c - the all-pass line (max^n): every seat in turn plays the card that
 * minimises its own final tricks, assuming the others do the same; among
 * equally good cards the lowest card index is played. The result is one
 * outcome (tricks per seat) and the line of play that leads to it.
 *
 * This is a convention, not a guarantee: unlike the paranoid per-player value
 * it is not zero-sum, and no seat is promised its share.
 *
 * The search is plain max^n (every card of every seat is looked at) with two
 * exact savings:
 *  - one card per run of equivalent cards: equivalent cards lead to games that
 *    are the same up to relative ranks, and that relabelling keeps the order of
 *    card indices, so they give the same outcome and the same tie-breaks; the
 *    lowest card of the run is the one reported;
 *  - outcomes are memoised at trick boundaries, keyed by the relative ranks of
 *    the cards left (the transposition-table key, stored whole, so a hit is
 *    never a collision). The memo is a fixed table allocated per call,
 *    indexed by the table's hash of the whole key (tt_key_hash): measured on
 *    30 random deals, a hash that misses the key's top bits makes the memo
 *    thrash (31 s in all, the slowest 23 s and 529 million nodes, against
 *    0.4 s in all, that one 0.03 s and half a million nodes).
 * A seat that finds a card giving it no further trick stops looking: no later
 * card can be strictly better and ties go to the lower index.
 */
#include <stdlib.h>
#include "prefdd.h"
#include "search.h"

#define MAXN_MEMO_ENTRIES (1u << 18)    /* 4 MiB per call */
#define MAXN_STOP_INTERVAL 4096
#define UNCLAIMED 3                      /* outcome slot for tricks no seat takes */

/* Tricks from here on for seats 0-2 and, in slot 3, those nobody at the table
 * takes (the sitting dealer's in a 4-player game, else talon tricks nobody
 * followed). */
typedef struct outcome {
    int8_t tricks[4];
} outcome;

typedef struct maxn_entry {
    uint64_t ranks;
    uint32_t shape;
    outcome value;
} maxn_entry;

typedef struct maxn_search {
    pdd_solver *S;
    rules rules;
    maxn_entry *memo;
} maxn_search;

static int maxn_stopped(maxn_search *M)
{
    pdd_solver *S = M->S;
    if ((S->stats.nodes % MAXN_STOP_INTERVAL) == 0 && stop_pending(S))
        S->stopped = 1;
    return S->stopped;
}

static maxn_entry *memo_slot(maxn_search *M, const tt_key *k)
{
    return &M->memo[tt_key_hash(k) & (MAXN_MEMO_ENTRIES - 1)];
}

/* The seat that takes the trick if `card` is its last card, or UNCLAIMED. */
static int maxn_taker(const board *b, const rules *r, int card)
{
    int seat = trick_taker(b, r, card);
    return seat == NOBODY ? UNCLAIMED : seat;
}

static outcome maxn_value(maxn_search *M, const board *b);

/* The outcome after the seat on move plays `card` (the trick it may finish
 * counted). */
static outcome after_card(maxn_search *M, const board *b, int card)
{
    int taker = b->ncards == 2 ? maxn_taker(b, &M->rules, card) : -1;
    board child = *b;
    play_card(&child, &M->rules, card);
    outcome o = maxn_value(M, &child);
    if (taker >= 0)
        o.tricks[taker]++;
    return o;
}

/* The seat on move's choice: the lowest own tricks, ties to the lowest card.
 * *chosen gets the lowest legal card of the chosen run. */
static outcome choose(maxn_search *M, const board *b, int *chosen)
{
    int seat = seat_to_move(b);
    uint32_t moves = legal_moves(b, &M->rules);
    uint32_t runs = equivalence_representatives(b, moves, seat);
    outcome best = {{0, 0, 0, 0}};
    int best_card = NO_CARD;
    for (uint32_t m = runs; m; m &= m - 1) {
        int card = lowest_card(m);
        outcome o = after_card(M, b, card);
        if (M->S->stopped)
            break;
        if (best_card == NO_CARD || o.tricks[seat] < best.tricks[seat]) {
            best = o;
            best_card = card;
            if (best.tricks[seat] == 0)
                break;
        }
    }
    if (chosen)
        *chosen = best_card == NO_CARD ? NO_CARD
                                       : lowest_card(equivalence_class(b, seat, best_card) & moves);
    return best;
}

static outcome maxn_value(maxn_search *M, const board *b)
{
    outcome none = {{0, 0, 0, 0}};
    M->S->stats.nodes++;
    if (b->tricks_left == 0 || maxn_stopped(M))
        return none;
    if (!at_trick_start(b))
        return choose(M, b, NULL);

    tt_key key = tt_make_literal_key(b, &M->rules);   /* ties go by card index: no renaming */
    maxn_entry *slot = memo_slot(M, &key);
    M->S->stats.tt_probes++;
    if (slot->shape == key.shape && slot->ranks == key.ranks && slot->shape != 0) {
        M->S->stats.tt_hits++;
        return slot->value;
    }
    outcome o = choose(M, b, NULL);
    if (!M->S->stopped) {
        slot->ranks = key.ranks;
        slot->shape = key.shape;
        slot->value = o;
    }
    return o;
}

int pdd_maxn_line(pdd_solver *S, const pdd_position *p, pdd_maxn_result *result)
{
    if (!S || !p || !result)
        return PDD_ERR_NULL;
    int err = pdd_validate(p);
    if (err != PDD_OK)
        return err;
    maxn_search M = { S, {0}, NULL };
    M.memo = calloc(MAXN_MEMO_ENTRIES, sizeof *M.memo);
    if (!M.memo)
        return PDD_ERR_NO_MEMORY;
    rules_init(&M.rules, p);
    board b;
    board_from_position(&b, p, &M.rules);
    S->stopped = stop_pending(S);   /* a pending request stops it at once, as in search_begin */

    int tricks = b.tricks_left;
    outcome total = maxn_value(&M, &b);
    /* Walk down the line: each step repeats the choice made in the search
     * (the memo makes this cheap). */
    int n = 0;
    while (b.tricks_left > 0 && !S->stopped) {
        int card;
        choose(&M, &b, &card);
        if (S->stopped)
            break;
        result->cards[n++] = card;
        play_card(&b, &M.rules, card);
    }
    free(M.memo);
    if (S->stopped)
        return PDD_ERR_STOPPED;
    for (int s = 0; s < 3; s++)
        result->tricks[s] = total.tricks[s];
    result->unclaimed = total.tricks[UNCLAIMED];
    result->count = n;
    /* Every trick is someone's or nobody's, and the line plays every card. */
    assert(total.tricks[0] + total.tricks[1] + total.tricks[2] + total.tricks[UNCLAIMED] == tricks);
    assert(n == popcount(p->hands[0] | p->hands[1] | p->hands[2]));
    (void)tricks;
    return PDD_OK;
}
