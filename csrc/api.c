/*
 * api.c - the public functions: solver contexts, validation of everything that
 * crosses the boundary, and the calls built on the search.
 */
#include <stdlib.h>
#include "prefdd.h"
#include "search.h"
#include "order.h"
#include "quick.h"

#define DEFAULT_TABLE_BYTES (16u << 20)
#define MIN_TABLE_BYTES (64u << 10)

/* Entries aged every call keep to the table's window; entries kept over
 * many calls want all the room (tt.h, tt_set_window). */
static void set_window(pdd_solver *S)
{
    tt_set_window(&S->table, S->solves_per_generation == 1 ? TT_WINDOW_BYTES : 0);
}

pdd_solver *pdd_new(size_t table_bytes)
{
    if (table_bytes == 0)
        table_bytes = DEFAULT_TABLE_BYTES;
    if (table_bytes < MIN_TABLE_BYTES)
        table_bytes = MIN_TABLE_BYTES;
    pdd_solver *S = calloc(1, sizeof *S);
    if (!S)
        return NULL;
    quick_tables_init();
    if (tt_init(&S->table, table_bytes) != 0) {
        free(S);
        return NULL;
    }
    S->table_bytes = table_bytes;
    S->options = PDD_OPT_ALL;
    S->solves_per_generation = 1;
    set_window(S);
    order_default_weights(S->lead_weights);
    atomic_init(&S->stop_requested, 0);
    return S;
}

void pdd_free(pdd_solver *S)
{
    if (!S)
        return;
    tt_free(&S->table);
    free(S);
}

int pdd_set_options(pdd_solver *S, int flags)
{
    if (!S)
        return PDD_ERR_NULL;
    int previous = S->options;
    S->options = flags & PDD_OPT_ALL;
    tt_clear(&S->table);
    return previous;
}

int pdd_set_table_policy(pdd_solver *S, int part_ways, int solves_per_generation, int exact_table)
{
    if (!S)
        return PDD_ERR_NULL;
    if (part_ways < 1 || part_ways > PDD_MAX_PART_WAYS || solves_per_generation < 1
        || solves_per_generation > PDD_MAX_SOLVES_PER_GENERATION || (exact_table != 0 && exact_table != 1))
        return PDD_ERR_POLICY;
    size_t half = S->table_bytes / 2;
    if (tt_reshape(&S->table, exact_table ? half : MIN_TABLE_BYTES, exact_table ? half : S->table_bytes,
                   part_ways) != 0)
        return PDD_ERR_NO_MEMORY;
    S->solves_per_generation = solves_per_generation;
    S->solves_in_generation = 0;
    set_window(S);
    /* Entries in use survive the aging (measured on the searching hands of
     * benchmarks/sets.py: about 5 % fewer nodes); not for unrelated positions,
     * whose search stays as it was tuned. */
    S->table.keep_used = solves_per_generation > 1;
    return PDD_OK;
}

int pdd_set_order_weights(pdd_solver *S, const int *weights, int count)
{
    if (!S || !weights)
        return PDD_ERR_NULL;
    if (count != PDD_ORDER_WEIGHTS || order_check_weights(weights) != PDD_OK)
        return PDD_ERR_WEIGHTS;
    for (int k = 0; k < PDD_ORDER_WEIGHTS; k++)
        S->lead_weights[k] = weights[k];
    return PDD_OK;
}

int pdd_get_order_weights(const pdd_solver *S, int *weights, int count)
{
    if (!S || !weights)
        return PDD_ERR_NULL;
    if (count != PDD_ORDER_WEIGHTS)
        return PDD_ERR_WEIGHTS;
    for (int k = 0; k < PDD_ORDER_WEIGHTS; k++)
        weights[k] = S->lead_weights[k];
    return PDD_OK;
}

void pdd_clear(pdd_solver *S)
{
    if (S)
        tt_clear(&S->table);
}

void pdd_request_stop(pdd_solver *S)
{
    if (S)
        atomic_store(&S->stop_requested, 1);
}

void pdd_clear_stop(pdd_solver *S)
{
    if (S)
        atomic_store(&S->stop_requested, 0);
}

void pdd_get_stats(const pdd_solver *S, pdd_stats *stats)
{
    if (S && stats)
        *stats = S->stats;
}

void pdd_reset_stats(pdd_solver *S)
{
    if (S)
        S->stats = (pdd_stats){0};
}

size_t pdd_table_bytes(const pdd_solver *S)
{
    return S ? tt_bytes(&S->table) : 0;
}

static int valid_card(int32_t card) { return card >= 0 && card < 32; }

/* Each card on the current trick must have been a legal play: following suit
 * when possible, else trumping when possible. The player's hand now lacks the
 * card, and it lacked the suit then exactly when it lacks it now. */
static int check_trick_cards(const pdd_position *p)
{
    int lead_suit = p->talon_count > 0 ? CARD_SUIT(p->talon[0])
                                       : (p->trick_count > 0 ? CARD_SUIT(p->trick[0]) : -1);
    int first_follower = p->talon_count > 0 ? 0 : 1;
    for (int i = first_follower; i < p->trick_count; i++) {
        int seat = (p->leader + i) % 3;
        int suit = CARD_SUIT(p->trick[i]);
        uint32_t hand = p->hands[seat];
        if (suit == lead_suit)
            continue;
        if (hand & SUIT_MASK(lead_suit))
            return PDD_ERR_ILLEGAL_CARD;
        if (p->trump != PDD_NO_TRUMP && suit != p->trump && (hand & SUIT_MASK(p->trump)))
            return PDD_ERR_ILLEGAL_CARD;
    }
    return PDD_OK;
}

/* Adds count cards to *seen: the error invalid for a card out of 0..31,
 * PDD_ERR_DUPLICATE for one already seen. */
static int add_cards(const int32_t *cards, int count, int invalid, uint32_t *seen)
{
    for (int i = 0; i < count; i++) {
        if (!valid_card(cards[i]))
            return invalid;
        if (*seen & (1u << cards[i]))
            return PDD_ERR_DUPLICATE;
        *seen |= 1u << cards[i];
    }
    return PDD_OK;
}

static int check_cards(const pdd_position *p)
{
    uint32_t seen = 0;
    for (int s = 0; s < 3; s++) {
        if (seen & p->hands[s])
            return PDD_ERR_DUPLICATE;
        seen |= p->hands[s];
    }
    int err = add_cards(p->trick, p->trick_count, PDD_ERR_TRICK, &seen);
    return err == PDD_OK ? add_cards(p->talon, p->talon_count, PDD_ERR_TALON, &seen) : err;
}

/* Seats that already played to the current trick hold one card fewer. */
static int check_sizes(const pdd_position *p)
{
    int tricks_left = __builtin_popcount(p->hands[p->leader]) + (p->trick_count > 0);
    if (tricks_left == 0)
        return PDD_ERR_NO_CARDS;
    if (tricks_left > 10)
        return PDD_ERR_HAND_SIZE;
    for (int i = 0; i < 3; i++) {
        int seat = (p->leader + i) % 3;
        int expected = tricks_left - (i < p->trick_count);
        if (__builtin_popcount(p->hands[seat]) != expected)
            return PDD_ERR_HAND_SIZE;
    }
    /* Compared without adding: tricks_taken is the caller's, and near
     * INT32_MAX the sum would overflow past the check. The board keeps the
     * declarer's tricks in 8 bits, and the table keeps tricks still to come
     * relative to them, so a value past 10 would corrupt both. */
    if (p->tricks_taken < 0 || p->tricks_taken > 10 - tricks_left)
        return PDD_ERR_TRICKS_TAKEN;
    if (p->talon_count > tricks_left)
        return PDD_ERR_TALON;
    return PDD_OK;
}

int pdd_validate(const pdd_position *p)
{
    if (!p)
        return PDD_ERR_NULL;
    if (p->leader < 0 || p->leader > 2 || p->declarer < 0 || p->declarer > 2)
        return PDD_ERR_SEAT;
    if (p->trump < 0 || p->trump > PDD_NO_TRUMP)
        return PDD_ERR_TRUMP;
    if (p->objective != PDD_TRICKS && p->objective != PDD_MISERE)
        return PDD_ERR_OBJECTIVE;
    if (p->trick_count < 0 || p->trick_count > 2)
        return PDD_ERR_TRICK;
    if (p->talon_count < 0 || p->talon_count > 2 || (p->four_players != 0 && p->four_players != 1))
        return PDD_ERR_TALON;
    /* Talon tricks belong to all-pass: no trump, and first hand plays first. */
    if (p->talon_count > 0 && (p->leader != 0 || p->trump != PDD_NO_TRUMP))
        return PDD_ERR_TALON;
    int err = check_cards(p);
    if (err == PDD_OK) err = check_sizes(p);
    if (err == PDD_OK) err = check_trick_cards(p);
    return err;
}

/* Validate and set up a search. */
static int begin(pdd_solver *S, const pdd_position *p, board *b)
{
    if (!S)
        return PDD_ERR_NULL;
    int err = pdd_validate(p);
    if (err != PDD_OK)
        return err;
    rules_init(&S->rules, p);
    board_from_position(b, p, &S->rules);
    search_begin(S);
    return PDD_OK;
}

int pdd_solve(pdd_solver *S, const pdd_position *p, int *value)
{
    board b;
    if (!value)
        return PDD_ERR_NULL;
    int err = begin(S, p, &b);
    if (err != PDD_OK)
        return err;
    int v = search_value(S, &b);
    if (S->stopped)
        return PDD_ERR_STOPPED;
    *value = v;
    return PDD_OK;
}

/* Position i of a batch of count: values[i] gets its value or its code. A
 * stop gives it and every later one PDD_ERR_STOPPED, and answers that. */
static int solve_in_batch(pdd_solver *S, const pdd_position *p, int i, int count, int32_t *values)
{
    int v, err = pdd_solve(S, p, &v);
    if (err == PDD_ERR_STOPPED) {
        for (int k = i; k < count; k++)
            values[k] = PDD_ERR_STOPPED;
        return PDD_ERR_STOPPED;
    }
    values[i] = err == PDD_OK ? v : err;
    return PDD_OK;
}

int pdd_solve_many(pdd_solver *S, const pdd_position *positions, int count, int32_t *values)
{
    if (!S || !values || (count > 0 && !positions))
        return PDD_ERR_NULL;
    if (count < 0)
        return PDD_ERR_COUNT;
    for (int i = 0; i < count; i++)
        if (solve_in_batch(S, &positions[i], i, count, values) == PDD_ERR_STOPPED)
            return PDD_ERR_STOPPED;
    return PDD_OK;
}

int pdd_solve_hands(pdd_solver *S, const pdd_position *template, int seat_a, int seat_b,
                    const uint32_t *hands, int count, int32_t *values)
{
    if (!S || !template || !values || (count > 0 && !hands))
        return PDD_ERR_NULL;
    if (count < 0)
        return PDD_ERR_COUNT;
    if (seat_a < 0 || seat_a > 2 || seat_b < 0 || seat_b > 2 || seat_a == seat_b)
        return PDD_ERR_SEAT;
    pdd_position p = *template;
    for (int i = 0; i < count; i++) {
        p.hands[seat_a] = hands[2 * i];
        p.hands[seat_b] = hands[2 * i + 1];
        if (solve_in_batch(S, &p, i, count, values) == PDD_ERR_STOPPED)
            return PDD_ERR_STOPPED;
    }
    return PDD_OK;
}

int pdd_probe(pdd_solver *S, const pdd_position *p, int target, int *result)
{
    board b;
    if (!result)
        return PDD_ERR_NULL;
    if (target < 0 || target > 10)
        return PDD_ERR_TARGET;   /* refused before begin: a refused call leaves the solver as it was */
    int err = begin(S, p, &b);
    if (err != PDD_OK)
        return err;
    S->stats.probes++;
    int reached = search_probe(S, &b, target);
    if (S->stopped)
        return PDD_ERR_STOPPED;
    *result = reached;
    return PDD_OK;
}

int pdd_legal_moves(const pdd_position *p, uint32_t *legal)
{
    if (!legal)
        return PDD_ERR_NULL;
    int err = pdd_validate(p);
    if (err != PDD_OK)
        return err;
    rules r;
    board b;
    rules_init(&r, p);
    board_from_position(&b, p, &r);
    *legal = legal_moves(&b, &r);
    return PDD_OK;
}

/* Values of each legal card, one search per run of equivalent cards. The
 * cards go in the search's order, so the first is likely the best: it is
 * solved outright, and each later one is asked first whether it reaches the
 * best value so far ("at least it?" for a seat that wants more, "more than
 * it?" for the other), which settles most cards in two probes next to their
 * value. Measured: 4-6 % fewer nodes than solving the position first and
 * then each card within the bound its value gives (the position's own
 * search refutes every card once more). */
static int card_values(pdd_solver *S, const board *b, int values[32], uint32_t *legal)
{
    int seat = seat_to_move(b), more = S->rules.max_seat[seat];
    uint32_t moves = legal_moves(b, &S->rules);
    int cards[10], n = search_ordered_moves(S, b, moves, cards), best = -1;
    for (int c = 0; c < 32; c++)
        values[c] = -1;
    for (int i = 0; i < n; i++) {
        board child = *b;
        play_card(&child, &S->rules, cards[i]);
        int v = search_value_from(S, &child, best < 0 ? -1 : more ? best : best + 1);
        if (S->stopped)
            return PDD_ERR_STOPPED;
        if (best < 0 || (more ? v > best : v < best))
            best = v;
        uint32_t same = equivalence_class(b, seat, cards[i]) & moves;
        for (uint32_t m = same; m; m &= m - 1)
            values[lowest_card(m)] = v;
    }
    *legal = moves;
    return PDD_OK;
}

int pdd_card_values(pdd_solver *S, const pdd_position *p, int values[32], uint32_t *legal)
{
    board b;
    if (!values || !legal)
        return PDD_ERR_NULL;
    int err = begin(S, p, &b);
    if (err != PDD_OK)
        return err;
    return card_values(S, &b, values, legal);
}

/* The first of `cards` when the suits are taken in the order slot_suit[0..3]
 * and the ranks from the lowest. */
static int first_card(uint32_t cards, const int slot_suit[4])
{
    for (int k = 0; k < 4; k++)
        if (cards & SUIT_MASK(slot_suit[k]))
            return lowest_card(cards & SUIT_MASK(slot_suit[k]));
    return NO_CARD;
}

/* The first card of the mover (suits in the order slot_suit, ranks from the
 * lowest) that keeps the position's value. No card is better than the
 * value, so the first card that reaches it is the answer: one probe per card
 * tried, and the search stops there. A card that falls short takes its
 * equivalent cards with it. */
static int first_best_card(pdd_solver *S, const board *b, int value, const int slot_suit[4])
{
    int seat = seat_to_move(b);
    int want_more = S->rules.max_seat[seat];
    uint32_t m = legal_moves(b, &S->rules);
    while (m) {
        int card = first_card(m, slot_suit);
        uint32_t equivalent = equivalence_class(b, seat, card);
        if (!(m & ~equivalent))
            return card;    /* every other card fell short, and some card keeps it */
        board child = *b;
        play_card(&child, &S->rules, card);
        /* Seeking more: does it still reach value? Seeking less: does it
         * stay under value + 1? */
        int keeps = want_more ? search_probe(S, &child, value) : !search_probe(S, &child, value + 1);
        if (S->stopped || keeps)
            return S->stopped ? NO_CARD : card;
        m &= ~equivalent;
    }
    return NO_CARD;
}

int pdd_best_line(pdd_solver *S, const pdd_position *p, int cards[30], int *count)
{
    return pdd_best_line_from(S, p, -1, cards, count);
}

int pdd_best_line_from(pdd_solver *S, const pdd_position *p, int value_guess, int cards[30], int *count)
{
    static const int32_t same[4] = {0, 1, 2, 3};
    return pdd_best_line_ordered(S, p, value_guess, same, cards, count);
}

/* slot_suit[k] = the suit named k under suit_to (a permutation of 0..3), or
 * PDD_ERR_SUIT_ORDER. */
static int slots_of(const int32_t suit_to[4], int slot_suit[4])
{
    for (int s = 0; s < 4; s++)
        slot_suit[s] = -1;
    for (int s = 0; s < 4; s++) {
        if (suit_to[s] < 0 || suit_to[s] > 3 || slot_suit[suit_to[s]] >= 0)
            return PDD_ERR_SUIT_ORDER;
        slot_suit[suit_to[s]] = s;
    }
    return PDD_OK;
}

/* The line of pdd_best_line_ordered from b (its value found first): cards
 * into cards[0..*count) when cards is given, each seat's tricks added to
 * tricks[] when that is given. With `settle`, the walk stops as soon as the
 * declarer's tricks so far and the tricks left make the value: along the
 * line he then takes every trick left, and the defenders' tricks are final
 * (the line's cards from there on are not found). */
static int walk_line(pdd_solver *S, board *b, int value_guess, const int slot_suit[4], int settle,
                     int cards[30], int *count, int32_t tricks[3])
{
    /* Along a best line the value never changes. */
    int value = search_value_from(S, b, value_guess);
    int n = 0;
    while (!S->stopped && b->tricks_left > 0) {
        if (settle && b->dtricks + b->tricks_left == value) {
            tricks[S->rules.declarer] += b->tricks_left;
            break;
        }
        int card = first_best_card(S, b, value, slot_suit);
        if (card == NO_CARD)
            break;
        if (cards)
            cards[n++] = card;
        if (tricks && b->ncards == 2) {
            int taker = trick_taker(b, &S->rules, card);
            if (taker != NOBODY)
                tricks[taker]++;
        }
        play_card(b, &S->rules, card);
    }
    if (S->stopped)
        return PDD_ERR_STOPPED;
    if (count)
        *count = n;
    return PDD_OK;
}

int pdd_best_line_ordered(pdd_solver *S, const pdd_position *p, int value_guess, const int32_t suit_to[4],
                          int cards[30], int *count)
{
    board b;
    int slot_suit[4];
    if (!cards || !count || !suit_to)
        return PDD_ERR_NULL;
    int err = slots_of(suit_to, slot_suit);
    if (err == PDD_OK)
        err = begin(S, p, &b);
    if (err != PDD_OK)
        return err;
    return walk_line(S, &b, value_guess, slot_suit, 0, cards, count, NULL);
}

int pdd_line_tricks(pdd_solver *S, const pdd_position *p, int value_guess, const int32_t suit_to[4],
                    int32_t tricks[3])
{
    board b;
    int slot_suit[4];
    if (!tricks || !suit_to)
        return PDD_ERR_NULL;
    int err = slots_of(suit_to, slot_suit);
    if (err == PDD_OK && p && p->talon_count > 0)
        err = PDD_ERR_TALON;
    if (err == PDD_OK)
        err = begin(S, p, &b);
    if (err != PDD_OK)
        return err;
    int32_t counted[3] = {0, 0, 0};
    err = walk_line(S, &b, value_guess, slot_suit, 1, NULL, NULL, counted);
    if (err == PDD_OK)
        for (int s = 0; s < 3; s++)
            tricks[s] = counted[s];
    return err;
}

/* A macro's value as a string literal: the error texts name the limits of
 * prefdd.h without repeating them. */
#define TEXT_OF(value) TEXT_OF_TOKENS(value)
#define TEXT_OF_TOKENS(value) #value

const char *pdd_error_text(int code)
{
    switch (code) {
    case PDD_OK: return "ok";
    case PDD_ERR_NULL: return "a required pointer was null";
    case PDD_ERR_SEAT: return "seat out of range (0-2)";
    case PDD_ERR_TRUMP: return "trump out of range (0-3 or 4 for no trump)";
    case PDD_ERR_OBJECTIVE: return "unknown objective";
    case PDD_ERR_DUPLICATE: return "a card appears twice";
    case PDD_ERR_HAND_SIZE: return "hand sizes do not fit the position";
    case PDD_ERR_TRICK: return "bad current trick";
    case PDD_ERR_ILLEGAL_CARD: return "a card on the current trick breaks the rules of play";
    case PDD_ERR_TALON: return "bad talon leads";
    case PDD_ERR_TARGET: return "target out of range (0-10)";
    case PDD_ERR_STOPPED: return "search stopped";
    case PDD_ERR_NO_MEMORY: return "out of memory";
    case PDD_ERR_TRICKS_TAKEN: return "tricks already taken out of range";
    case PDD_ERR_NO_CARDS: return "no cards left to play";
    case PDD_ERR_WEIGHTS: return order_weights_text();
    case PDD_ERR_COUNT: return "count of positions below 0";
    case PDD_ERR_DISCARD_MODE: return "best-discard mode out of range (0 one class, 1 all, 2 canonical, 3 value)";
    case PDD_ERR_SUIT_ORDER: return "suit order is not a permutation of 0-3";
    case PDD_ERR_POLICY: return "table policy out of range: part_ways 1-" TEXT_OF(PDD_MAX_PART_WAYS)
                                ", solves_per_generation 1-" TEXT_OF(PDD_MAX_SOLVES_PER_GENERATION);
    case PDD_ERR_SOLVERS: return "solvers: 1 to 64 distinct ones";
    default: return "unknown error";
    }
}
