/*
 * discard.c - the declarer's best discard: the best value of a contract over
 * every way to put two of his cards (his hand and the talon) out of play, and
 * the discards that reach it.
 *
 * How the work is kept down (every saving is exact):
 *  - Equivalent discards are searched once. Discarded cards are dead, so two
 *    discards that leave the same hands up to the relative ranks of the live
 *    cards give the same game: the same owner for each live card of each
 *    suit, from the ace down (class_key; it splits the discards exactly as
 *    the transposition-table key of the starting board does). In misere and
 *    all-pass, where no suit is trumps, discards that leave the same game up
 *    to a renaming of the suits are one class too (the table's key lists
 *    those suits in a canonical order: tt.h). pdd_discard_classes answers
 *    the same classes, for the Python side.
 *  - Null-window probes: once a value v is known, a class only has to show
 *    it cannot beat v (one probe), and, when every best discard is wanted,
 *    that it reaches v (a second probe). Only a class that beats v is solved
 *    exactly.
 *  - Classes are tried in a heuristic order (keep trumps and high cards in a
 *    trick contract, drop the cards that would win for misere), so v is
 *    usually the best value from the first class on.
 *  - The solver's table is kept across the classes: deeper positions of two
 *    discards coincide (by relative ranks) once the differing cards are gone.
 *  - The canonically first best discard (PDD_DISCARD_CANONICAL) is found from
 *    the best value and the bounds its search proved: the classes are taken
 *    in the canonical order of their first member, and the first one that
 *    reaches the value (by a bound already known, else one probe) holds it.
 *    Proving every tie instead (PDD_DISCARD_ALL) measured 2.5 times the
 *    nodes on the whist advice's layouts.
 */
#include "prefdd.h"
#include "search.h"
#include "canonical.h"

#define MAX_DISCARDS 66

typedef struct discard_class {
    uint32_t members[MAX_DISCARDS];   /* 2-card masks */
    int count;
    int score;                         /* heuristic: lower is tried first */
} discard_class;

typedef struct discard_search {
    pdd_solver *S;
    pdd_position base;                 /* hands[declarer] is set per discard */
    uint32_t pool;                     /* the declarer's cards before the discard */
    uint32_t defence;                  /* both defenders' cards */
    uint32_t others[2];                /* each defender's cards */
    int lo[MAX_DISCARDS], hi[MAX_DISCARDS];   /* each class's value is within [lo, hi] */
    int trick_order;                   /* classes ordered by trick_score, else shown_score */
} discard_search;

/* What a fail-soft answer v to a probe at target proves about a class. */
static void note_bound(discard_search *D, int i, int target, int v)
{
    if (v >= target) {
        if (v > D->lo[i])
            D->lo[i] = v;
    } else if (v < D->hi[i]) {
        D->hi[i] = v;
    }
    assert(D->lo[i] <= D->hi[i]);
}

static void note_value(discard_search *D, int i, int v)
{
    assert(D->lo[i] <= v && v <= D->hi[i]);
    D->lo[i] = D->hi[i] = v;
}

/* Trick contracts, the order of the searches whose value no order changes,
 * nor, but for PDD_DISCARD_VALUE (which lists no discard), their discards
 * (PDD_DISCARD_VALUE, PDD_DISCARD_ALL, PDD_DISCARD_CANONICAL): lower is more
 * promising. Drop small cards of short side suits, never trumps nor a card
 * no defender card beats (a winner), and empty a side suit where possible
 * (a void lets him ruff). The first class searched is then the best one
 * more often, and a class that is not best costs one probe that fails
 * (a class that beats the first costs a probe that succeeds and an exact
 * value). Measured against shown_score's weights (length 1, cards under 4,
 * no winner term), nodes of best-discard searches: the whist advice's
 * layouts (JT98.JT.98.A9, talon ..J.K, 6c) value only -17 %, canonical
 * -8 %; 1,866 random full deals, every strain -7.3 % (first class best on
 * 76 % -> 88 % of 430 of them). The weights were picked on the advice's
 * layouts and 430 random deals, checked on the other 1,866; an oracle
 * putting the best class first saves 24 % on the advice's layouts. */
static int trick_score(const discard_search *D, uint32_t discard)
{
    uint32_t defence = D->defence, kept = D->pool & ~discard;
    int trump = D->base.trump, score = 0;
    for (uint32_t m = discard; m; m &= m - 1) {
        int card = lowest_card(m), suit = CARD_SUIT(card);
        int under = popcount(defence & SUIT_MASK(suit) & ((1u << card) - 1));
        int above = popcount(defence & SUIT_MASK(suit) & ~((2u << card) - 1));
        int length = popcount(D->pool & SUIT_MASK(suit));
        score += (suit == trump ? 100 : 0) + 3 * length + 2 * under + (above ? 0 : 8);
    }
    for (int suit = 0; suit < 4; suit++)
        if ((D->pool & SUIT_MASK(suit)) && !(kept & SUIT_MASK(suit)) && trump != PDD_NO_TRUMP && suit != trump)
            score -= 8;
    return score;
}

/* Lower is more promising. Both orders were measured on seeded deals by the
 * search's node counts.
 * Trick contract: drop the cards with the fewest defender cards under them
 * (those that win nothing) from short side suits, never trumps, and empty a
 * side suit where possible (a void lets him ruff). PDD_DISCARD_ONE uses
 * this order: its answer, the first class reaching the value in it, is what
 * its callers show and the blind-discard figure plays.
 * Misere: drop the cards with the most defender cards under them (those that
 * would win), high ones first, and empty a suit where possible (a void lets
 * him discard): 13% fewer nodes than "drop high cards of short suits". */
static int shown_score(const discard_search *D, uint32_t discard)
{
    uint32_t defence = D->defence, kept = D->pool & ~discard;
    int misere = D->base.objective == PDD_MISERE, trump = D->base.trump;
    int score = 0;
    for (uint32_t m = discard; m; m &= m - 1) {
        int card = lowest_card(m), suit = CARD_SUIT(card);
        int under = popcount(defence & SUIT_MASK(suit) & ((1u << card) - 1));
        int length = popcount(D->pool & SUIT_MASK(suit));
        score += misere ? length - 4 * under - CARD_RANK(card)
                        : (suit == trump ? 100 : 0) + length + 4 * under;
    }
    for (int suit = 0; suit < 4; suit++)
        if ((D->pool & SUIT_MASK(suit)) && !(kept & SUIT_MASK(suit)))
            score -= misere ? 16 : (trump != PDD_NO_TRUMP && suit != trump ? 8 : 0);
    return score;
}

static int discard_score(const discard_search *D, uint32_t discard)
{
    return D->trick_order ? trick_score(D, discard) : shown_score(D, discard);
}

static void start_board(discard_search *D, uint32_t kept, board *b)
{
    pdd_position q = D->base;
    q.hands[q.declarer] = kept;
    rules_init(&D->S->rules, &q);
    board_from_position(b, &q, &D->S->rules);
}

/* The game a discard leaves, as a number: for each suit the owner of each
 * live card from the ace down (1 the declarer's kept cards, 2 and 3 the
 * others'), two bits a card, a suit in 16 bits. With renamed set, the four
 * suits are sorted, so that a renaming of the suits leaves it unchanged.
 * Equal numbers, equal games up to the relative ranks of the live cards. */
static uint64_t class_key(uint32_t kept, const uint32_t others[2], int renamed)
{
    uint64_t suit[4];
    for (int s = 0; s < 4; s++) {
        uint32_t owners = 0;
        for (int rank = 7; rank >= 0; rank--) {
            uint32_t bit = 1u << (s * 8 + rank);
            int owner = (kept & bit) ? 1 : (others[0] & bit) ? 2 : (others[1] & bit) ? 3 : 0;
            if (owner)
                owners = owners << 2 | (uint32_t)owner;
        }
        suit[s] = owners;
    }
    if (renamed)
        for (int i = 1; i < 4; i++)
            for (int j = i; j > 0 && suit[j - 1] < suit[j]; j--) {
                uint64_t t = suit[j];
                suit[j] = suit[j - 1];
                suit[j - 1] = t;
            }
    return suit[0] | suit[1] << 16 | suit[2] << 32 | suit[3] << 48;
}

/* Each discard's class: class_of[i] for the i-th discard of the
 * enumeration (first card, then second, by ascending index), classes
 * numbered in order of first appearance. Answers the number of classes. */
static int classify(uint32_t pool, const uint32_t others[2], int renamed, uint32_t discards[MAX_DISCARDS],
                    int class_of[MAX_DISCARDS])
{
    uint64_t keys[MAX_DISCARDS];
    int n = 0, count = 0;
    for (uint32_t a = pool; a; a &= a - 1) {
        int first = lowest_card(a);
        for (uint32_t rest = a & (a - 1); rest; rest &= rest - 1) {
            uint32_t discard = (1u << first) | (1u << lowest_card(rest));
            uint64_t key = class_key(pool & ~discard, others, renamed);
            int k = 0;
            while (k < n && keys[k] != key)
                k++;
            if (k == n)
                keys[n++] = key;
            discards[count] = discard;
            class_of[count++] = k;
        }
    }
    return n;
}

/* Gather the 66 discards into classes (class_key), ordered by their best
 * heuristic score. Answers the number of classes. */
static int build_classes(discard_search *D, discard_class *classes)
{
    uint32_t discards[MAX_DISCARDS];
    int class_of[MAX_DISCARDS];
    int n = classify(D->pool, D->others, D->base.objective != PDD_TRICKS, discards, class_of);
    int count = popcount(D->pool) * (popcount(D->pool) - 1) / 2;
    for (int k = 0; k < n; k++)
        classes[k].count = 0;
    for (int i = 0; i < count; i++) {
        discard_class *c = &classes[class_of[i]];
        int score = discard_score(D, discards[i]);
        if (c->count == 0 || score < c->score)
            c->score = score;
        c->members[c->count++] = discards[i];
    }
    /* Insertion sort by score (stable: ties keep the enumeration order). */
    for (int i = 1; i < n; i++) {
        discard_class c = classes[i];
        int j = i;
        while (j > 0 && classes[j - 1].score > c.score) {
            classes[j] = classes[j - 1];
            j--;
        }
        classes[j] = c;
    }
#ifndef NDEBUG
    int members = 0;
    for (int i = 0; i < n; i++)
        members += classes[i].count;
    assert(n >= 1 && members == count);   /* each discard in one class */
    /* The classes are those of the table's key of the starting board. */
    tt_key start[MAX_DISCARDS];
    for (int i = 0; i < count; i++) {
        board b;
        start_board(D, D->pool & ~discards[i], &b);
        start[i] = tt_make_key(&b, &D->S->rules);
        for (int j = 0; j < i; j++)
            assert((class_of[i] == class_of[j])
                   == (start[i].ranks == start[j].ranks && start[i].shape == start[j].shape));
    }
#endif
    return n;
}

/* One null-window probe of a class around target, answered fail-soft (see
 * search_bound): >= target proves at least that, < target at most that. */
static int class_bound(discard_search *D, const discard_class *c, int target)
{
    board b;
    start_board(D, D->pool & ~c->members[0], &b);
    D->S->stats.probes++;
    return search_bound(D->S, &b, target);
}

/* The exact value of a class. */
static int class_value(discard_search *D, const discard_class *c)
{
    board b;
    start_board(D, D->pool & ~c->members[0], &b);
    return search_value(D->S, &b);
}

/* The position must be a start of play (no card on the trick, no talon
 * leads, nothing taken) and valid with the declarer holding the pool less
 * any two cards; the pool must not overlap the other hands. */
static int check_start(const pdd_position *p, uint32_t pool)
{
    if (popcount(pool) < 3 || popcount(pool) > 12)
        return PDD_ERR_HAND_SIZE;
    if (p->declarer < 0 || p->declarer > 2)
        return PDD_ERR_SEAT;
    for (int s = 0; s < 3; s++)
        if (s != p->declarer && (p->hands[s] & pool))
            return PDD_ERR_DUPLICATE;
    if (p->trick_count != 0)
        return PDD_ERR_TRICK;
    if (p->talon_count != 0)
        return PDD_ERR_TALON;
    if (p->tricks_taken != 0)
        return PDD_ERR_TRICKS_TAKEN;
    pdd_position q = *p;
    uint32_t kept = pool & (pool - 1);      /* drop the two lowest cards */
    kept &= kept - 1;
    q.hands[q.declarer] = kept;
    return pdd_validate(&q);
}

/* Trick contracts: solve the first class, then decide every other against
 * the best value so far (one probe, a full solve only for a class that beats
 * it). is_best[] marks the classes reaching the final value (only the last
 * best one unless all_best). Measured faster here than best first, which
 * must start every class from the top.
 * With a floor, a class must reach it to matter: no class is solved before
 * one reaches the floor, and each probe asks for one more than the best so
 * far or the floor, whichever is higher. When none reaches it, the answer is
 * the highest bound proved (below the floor, at least the best value), with
 * no class marked. Measured on the whist advice's layouts (floor 5 for a 6,
 * 9 % of them below it): value only -8.5 % nodes, canonical -4 to -5 %;
 * solving the first class first, then probing at the floor: -3 % and -5 %;
 * probing the first class at the floor only when the search's guess for it
 * is below the floor: -5 % and -6.5 %. */
static int search_classes_in_order(discard_search *D, const discard_class *classes, int n,
                                   int all_best, int floor, int is_best[MAX_DISCARDS])
{
    int tricks = popcount(D->pool) - 2;
    int best = -1, bar = floor - 1, i = 0;   /* bar: what a class must beat to matter */
    if (floor <= 0) {
        /* A stopped search answers nothing: its figures are never noted. */
        best = class_value(D, &classes[0]);
        if (D->S->stopped)
            return best;
        note_value(D, 0, best);
        is_best[0] = 1;
        if (best > bar)
            bar = best;
        i = 1;
    }
    for (; i < n; i++) {
        const discard_class *c = &classes[i];
        /* Can this class beat bar: does it reach bar + 1? */
        int v = bar;
        if (bar < tricks) {
            v = class_bound(D, c, bar + 1);
            if (D->S->stopped)
                break;
            note_bound(D, i, bar + 1, v);
        }
        if (v > bar) {
            best = bar = class_value(D, c);
            if (D->S->stopped)
                break;
            note_value(D, i, best);
            for (int k = 0; k < i; k++)
                is_best[k] = 0;
            is_best[i] = 1;
        } else if (all_best && v == best) {
            /* Not better, and at most v: a tie exactly when it reaches best
             * (v < best rules a tie out). Once a class has a value, bar is
             * that value. */
            assert(best == bar);
            int tie = class_bound(D, c, best);
            if (D->S->stopped)
                break;
            note_bound(D, i, best, tie);
            is_best[i] = tie >= best;
        }
    }
    if (best >= floor || D->S->stopped)
        return best;
    int upper = 0;
    for (int k = 0; k < n; k++) {
        upper = D->hi[k] > upper ? D->hi[k] : upper;
        is_best[k] = 0;
    }
    assert(best <= upper && upper < floor);
    return upper;
}

/* Misere: best first over the classes. Each class keeps a lower bound on
 * its value, and the class with the lowest is probed at it: is it held to it
 * (not caught for one more)? A probe that says so proves the class's value
 * equals the bound, and no other class can do better, since none has a lower
 * bound; a probe that fails raises the bound by its fail-soft answer. Classes
 * far from the best are settled by cheap probes at targets far from their
 * values, and only the best ones are searched near their values. With
 * all_best, classes whose bound ties the best value are probed too.
 * is_best[] marks the classes reaching it. Measured: 12% fewer nodes than in
 * order for misere (trick contracts: 26% more, every class would start from
 * ten tricks).
 * Each probe starts with no move history: one class's cut-offs order
 * another's leads badly. Measured (nodes, one best discard a search): the
 * deal's table's misere searches (40 deals) -2.6 %, 60 random deals' -6.3 %
 * (every best discard -7.7 %); halving it instead -2.3 % / -5.7 %, a
 * history kept by class -2.9 % / -4.8 %, only the declarer's cleared
 * -1.4 % / -1.7 %, only the defenders' -2.1 % / -4.6 %. In trick contracts
 * the same took +0.9 % (there the history is kept). */
static int search_classes_best_first(discard_search *D, const discard_class *classes, int n,
                                     int all_best, int is_best[MAX_DISCARDS])
{
    int bound[MAX_DISCARDS] = {0}, done[MAX_DISCARDS] = {0};
    int best = -1;
    while (!D->S->stopped) {
        int pick = -1;
        for (int i = 0; i < n; i++)
            if (!done[i] && (pick < 0 || bound[i] < bound[pick]))
                pick = i;
        if (pick < 0 || (best >= 0 && (!all_best || bound[pick] != best)))
            break;
        search_clear_history(D->S);
        int v = class_bound(D, &classes[pick], bound[pick] + 1);
        if (D->S->stopped)
            break;
        assert(v >= bound[pick]);   /* a fail-soft answer never falls below a proven bound */
        note_bound(D, pick, bound[pick] + 1, v);
        if (v < bound[pick] + 1) {
            done[pick] = is_best[pick] = 1;
            best = bound[pick];
        } else {
            bound[pick] = v;
        }
    }
    return best;
}

/* The canonical key of the start after a discard: the hands with the suits
 * renamed (canonical.c), compared seat 0's first. */
typedef struct start_key {
    uint32_t hands[3];
} start_key;

static start_key discard_key(const discard_search *D, uint32_t discard)
{
    pdd_position q = D->base;
    q.hands[q.declarer] = D->pool & ~discard;
    int suit_to[4];
    canonical_suits(&q, suit_to);
    start_key k;
    for (int s = 0; s < 3; s++)
        k.hands[s] = canonical_mask(q.hands[s], suit_to);
    return k;
}

static int key_less(const start_key *a, const start_key *b)
{
    for (int s = 0; s < 3; s++)
        if (a->hands[s] != b->hands[s])
            return a->hands[s] < b->hands[s];
    return 0;
}

/* The discard reaching value whose start comes first canonically. Classes
 * are tried by their first member's key; a class's known bounds (with the
 * value's own: no class beats it) settle most of them, the rest take one
 * probe. Only the classes whose bounds leave the value open are ordered
 * (the others cannot hold it): the keys' suit renamings (canonical_suits,
 * one a member) were 1.4 % of the instructions of the first defender's
 * whist advice's searches and lines when every class was ordered. Answers
 * 0 when stopped. */
static uint32_t canonical_best(discard_search *D, const discard_class *classes, int n, int value)
{
    int misere = D->base.objective != PDD_TRICKS;
    start_key first[MAX_DISCARDS];
    uint32_t member[MAX_DISCARDS];
    int order[MAX_DISCARDS], lo[MAX_DISCARDS], hi[MAX_DISCARDS];
    int open = 0;
    for (int i = 0; i < n; i++) {
        lo[i] = misere && D->lo[i] < value ? value : D->lo[i];
        hi[i] = !misere && D->hi[i] > value ? value : D->hi[i];
        if (lo[i] > value || hi[i] < value)
            continue;
        first[i] = discard_key(D, classes[i].members[0]);
        member[i] = classes[i].members[0];
        for (int m = 1; m < classes[i].count; m++) {
            start_key k = discard_key(D, classes[i].members[m]);
            if (key_less(&k, &first[i])) {
                first[i] = k;
                member[i] = classes[i].members[m];
            }
        }
        int j = open++;
        while (j > 0 && key_less(&first[i], &first[order[j - 1]])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int k = 0; k < open && !D->S->stopped; k++) {
        int i = order[k];
        if (lo[i] == hi[i])
            return member[i];
        /* Trick contract: does it reach value? Misere: is it held to value? */
        int target = misere ? value + 1 : value;
        int v = class_bound(D, &classes[i], target);
        if (D->S->stopped)
            break;
        if (misere ? v < target : v >= target)
            return member[i];
    }
    assert(D->S->stopped);   /* the class that set the value reaches it */
    return 0;
}

/* PDD_DISCARD_CANONICAL in a trick contract: of the classes tied at the
 * best score, the one whose first member comes first canonically is
 * searched first (the others keep their order). It is then more often the
 * class that sets the value and the canonical answer, whose last step then
 * needs no probe, and fewer classes come before it there. Measured on the
 * whist advice's runs (benchmarks/whist_discards.py --runs, first
 * defender, seeds 1-3): nodes -1.7 / -0.8 / -0.8 %, instructions -1.6 /
 * -0.7 / -0.8 %; the canonically first of the classes within 1, 2 or 3 of
 * the best score instead: -1.2 %, -0.4 %, -1.5 % nodes in all (the ties
 * alone -1.1 %). */
static void canonical_first_of_ties(const discard_search *D, discard_class *classes, int n)
{
    int pick = -1;
    start_key first;
    for (int i = 0; i < n && classes[i].score == classes[0].score; i++)
        for (int m = 0; m < classes[i].count; m++) {
            start_key k = discard_key(D, classes[i].members[m]);
            if (pick < 0 || key_less(&k, &first)) {
                first = k;
                pick = i;
            }
        }
    if (pick <= 0)
        return;   /* the first class holds it already */
    discard_class c = classes[pick];
    for (int i = pick; i > 0; i--)
        classes[i] = classes[i - 1];
    classes[0] = c;
}

int pdd_best_discard(pdd_solver *S, const pdd_position *position, uint32_t pool,
                     int mode, pdd_discard_result *result)
{
    return pdd_best_discard_floor(S, position, pool, mode, 0, result);
}

int pdd_best_discard_floor(pdd_solver *S, const pdd_position *position, uint32_t pool,
                           int mode, int floor, pdd_discard_result *result)
{
    if (!S || !position || !result)
        return PDD_ERR_NULL;
    int err = check_start(position, pool);
    if (err != PDD_OK)
        return err;

    if (mode < PDD_DISCARD_ONE || mode > PDD_DISCARD_VALUE)
        return PDD_ERR_DISCARD_MODE;
    discard_search D = { .S = S, .base = *position, .pool = pool,
                         .trick_order = position->objective == PDD_TRICKS && mode != PDD_DISCARD_ONE };
    for (int seat = 0, k = 0; seat < 3; seat++)
        if (seat != position->declarer)
            D.others[k++] = position->hands[seat];
    D.defence = D.others[0] | D.others[1];
    int tricks = popcount(pool) - 2;
    for (int i = 0; i < MAX_DISCARDS; i++) {
        D.lo[i] = 0;
        D.hi[i] = tricks;
    }
    discard_class classes[MAX_DISCARDS];
    int is_best[MAX_DISCARDS] = {0};
    int all_best = mode == PDD_DISCARD_ALL;
    search_begin(S);
    int n = build_classes(&D, classes);
    if (mode == PDD_DISCARD_CANONICAL && D.trick_order)
        canonical_first_of_ties(&D, classes, n);
    int tricks_floor = position->objective == PDD_TRICKS && floor > 0 ? floor : 0;
    int value = position->objective == PDD_TRICKS
                    ? search_classes_in_order(&D, classes, n, all_best, tricks_floor, is_best)
                    : search_classes_best_first(&D, classes, n, all_best, is_best);
    int below = value < tricks_floor;
    uint32_t canonical = 0;
    if (!S->stopped && mode == PDD_DISCARD_CANONICAL && !below)
        canonical = canonical_best(&D, classes, n, value);
    if (S->stopped)
        return PDD_ERR_STOPPED;

    assert(value >= 0 && value <= tricks);
    result->value = value;
    result->classes = n;
    result->count = 0;
    if (below)
        return PDD_OK;
    if (mode == PDD_DISCARD_CANONICAL) {
        result->discards[result->count++] = canonical;
        return PDD_OK;
    }
    for (int i = 0; i < n; i++)
        if (is_best[i])
            for (int m = 0; m < classes[i].count; m++)
                result->discards[result->count++] = classes[i].members[m];
    /* Ascending masks: a stable order for the callers. */
    for (int i = 1; i < result->count; i++) {
        uint32_t d = result->discards[i];
        int j = i;
        while (j > 0 && result->discards[j - 1] > d) {
            result->discards[j] = result->discards[j - 1];
            j--;
        }
        result->discards[j] = d;
    }
    assert(result->count >= 1);
    return PDD_OK;
}

int pdd_discard_classes(uint32_t pool, const uint32_t others[2], int suits_renamed,
                        pdd_discard_classes_result *result)
{
    if (!others || !result)
        return PDD_ERR_NULL;
    if (popcount(pool) < 2 || popcount(pool) > 12)
        return PDD_ERR_HAND_SIZE;
    if ((pool & others[0]) || (pool & others[1]) || (others[0] & others[1]))
        return PDD_ERR_DUPLICATE;
    result->classes = classify(pool, others, suits_renamed != 0, result->discards, result->class_of);
    result->count = popcount(pool) * (popcount(pool) - 1) / 2;
    return PDD_OK;
}
