/*
 * discard.c - the declarer's best discard: the best value of a contract over
 * every way to put two of his cards (his hand and the talon) out of play, and
 * the discards that reach it.
 *
 * How the work is kept down (every saving is exact):
 *  - Equivalent discards are searched once. Discarded cards are dead, so two
 *    discards that leave the same hands up to the relative ranks of the live
 *    cards give the same game; the transposition-table key of the starting
 *    board (relative ranks of every seat, leader, strain) names that game
 *    exactly, so discards with equal keys form one class (in misere the key
 *    lists the suits in a canonical order, so discards that leave the same
 *    game up to a renaming of the suits are one class too: tt.h).
 *  - Null-window probes: once a value v is known, a class only has to show
 *    it cannot beat v (one probe), and, when every best discard is wanted,
 *    that it reaches v (a second probe). Only a class that beats v is solved
 *    exactly.
 *  - Classes are tried in a heuristic order (keep trumps and high cards in a
 *    trick contract, drop the cards that would win for misere), so v is
 *    usually the best value from the first class on.
 *  - The solver's table is kept across the classes: deeper positions of two
 *    discards coincide (by relative ranks) once the differing cards are gone.
 */
#include "prefdd.h"
#include "search.h"

#define MAX_DISCARDS 66

typedef struct discard_class {
    tt_key key;
    uint32_t members[MAX_DISCARDS];   /* 2-card masks */
    int count;
    int score;                         /* heuristic: lower is tried first */
} discard_class;

typedef struct discard_search {
    pdd_solver *S;
    pdd_position base;                 /* hands[declarer] is set per discard */
    uint32_t pool;                     /* the declarer's cards before the discard */
    uint32_t defence;                  /* both defenders' cards */
} discard_search;

/* Lower is more promising. Both orders were measured on seeded deals by the
 * search's node counts.
 * Trick contract: drop the cards with the fewest defender cards under them
 * (those that win nothing) from short side suits, never trumps, and empty a
 * side suit where possible (a void lets him ruff).
 * Misere: drop the cards with the most defender cards under them (those that
 * would win), high ones first, and empty a suit where possible (a void lets
 * him discard): 13% fewer nodes than "drop high cards of short suits". */
static int discard_score(const discard_search *D, uint32_t discard)
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

static void start_board(discard_search *D, uint32_t kept, board *b)
{
    pdd_position q = D->base;
    q.hands[q.declarer] = kept;
    rules_init(&D->S->rules, &q);
    board_from_position(b, &q, &D->S->rules);
}

/* Gather the 66 discards into classes of equal starting keys, ordered by
 * their best heuristic score. Answers the number of classes. */
static int build_classes(discard_search *D, discard_class *classes)
{
    uint32_t pool = D->pool;
    int n = 0;
    for (uint32_t a = pool; a; a &= a - 1) {
        int first = lowest_card(a);
        for (uint32_t rest = a & (a - 1); rest; rest &= rest - 1) {
            int second = lowest_card(rest);
            uint32_t discard = (1u << first) | (1u << second);
            board b;
            start_board(D, pool & ~discard, &b);
            tt_key key = tt_make_key(&b, &D->S->rules);
            int score = discard_score(D, discard);
            int k = 0;
            while (k < n && !(classes[k].key.ranks == key.ranks && classes[k].key.shape == key.shape))
                k++;
            if (k == n) {
                classes[n].key = key;
                classes[n].count = 0;
                classes[n].score = score;
                n++;
            }
            classes[k].members[classes[k].count++] = discard;
            if (score < classes[k].score)
                classes[k].score = score;
        }
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
    assert(n >= 1 && members == popcount(pool) * (popcount(pool) - 1) / 2);   /* each discard in one class */
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
 * must start every class from the top. */
static int search_classes_in_order(discard_search *D, const discard_class *classes, int n,
                                   int all_best, int is_best[MAX_DISCARDS])
{
    int tricks = popcount(D->pool) - 2;
    int best = class_value(D, &classes[0]);
    is_best[0] = 1;
    for (int i = 1; i < n && !D->S->stopped; i++) {
        const discard_class *c = &classes[i];
        /* Can this class beat best: does it reach best + 1? */
        int v = best < tricks ? class_bound(D, c, best + 1) : best;
        if (D->S->stopped)
            break;
        if (v > best) {
            best = class_value(D, c);
            for (int k = 0; k < i; k++)
                is_best[k] = 0;
            is_best[i] = 1;
        } else if (all_best && v == best) {
            /* Not better, and at most v: a tie exactly when it reaches best
             * (v < best rules a tie out). */
            is_best[i] = class_bound(D, c, best) >= best;
        }
    }
    return best;
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
 * ten tricks). */
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
        int v = class_bound(D, &classes[pick], bound[pick] + 1);
        if (D->S->stopped)
            break;
        assert(v >= bound[pick]);   /* a fail-soft answer never falls below a proven bound */
        if (v < bound[pick] + 1) {
            done[pick] = is_best[pick] = 1;
            best = bound[pick];
        } else {
            bound[pick] = v;
        }
    }
    return best;
}

int pdd_best_discard(pdd_solver *S, const pdd_position *position, uint32_t pool,
                     int all_best, pdd_discard_result *result)
{
    if (!S || !position || !result)
        return PDD_ERR_NULL;
    int err = check_start(position, pool);
    if (err != PDD_OK)
        return err;

    uint32_t defence = 0;
    for (int seat = 0; seat < 3; seat++)
        if (seat != position->declarer)
            defence |= position->hands[seat];
    discard_search D = { S, *position, pool, defence };
    discard_class classes[MAX_DISCARDS];
    int is_best[MAX_DISCARDS] = {0};
    search_begin(S);
    int n = build_classes(&D, classes);
    int value = position->objective == PDD_TRICKS
                    ? search_classes_in_order(&D, classes, n, all_best, is_best)
                    : search_classes_best_first(&D, classes, n, all_best, is_best);
    if (S->stopped)
        return PDD_ERR_STOPPED;

    assert(value >= 0 && value <= popcount(pool) - 2);
    result->value = value;
    result->classes = n;
    result->count = 0;
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
