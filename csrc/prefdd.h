/*
 * prefdd.h - the public interface of the preferans-dd C core.
 *
 * An exact double-dummy solver for Preferans: three seats, 32 cards, trick
 * contracts (trump or no trump), misere and all-pass (paranoid per-player value).
 *
 * Cards are numbered index = suit * 8 + rank (suit 0 spades, 1 clubs, 2 diamonds,
 * 3 hearts; rank 0 = seven ... 7 = ace). A hand is a 32-bit mask with bit `index`
 * set for each card it holds.
 *
 * Every function validates what it is given and answers an error code (< 0)
 * instead of crashing. A solver owns all its memory (the transposition table is
 * allocated once, at creation); distinct solvers may be used from distinct threads
 * at the same time. One solver must not be used by two threads at once.
 *
 * The block between CDEF BEGIN and CDEF END is read by the cffi build
 * (csrc/build_ffi.py), so it must stay free of preprocessor directives.
 */
#ifndef PREFDD_H
#define PREFDD_H

#include <stdint.h>
#include <stddef.h>

/* CDEF BEGIN */
typedef struct pdd_solver pdd_solver;

/* Objectives. Misere: the declarer minimises his tricks and the defenders maximise
 * them; with trump = PDD_NO_TRUMP this is also the all-pass value of the seat
 * named as declarer (the fewest tricks he can be sure of against the other two). */
enum { PDD_TRICKS = 0, PDD_MISERE = 1 };
enum { PDD_NO_TRUMP = 4 };

enum {
    PDD_OK = 0,
    PDD_ERR_NULL = -1,          /* a null pointer was passed */
    PDD_ERR_SEAT = -2,          /* a seat outside 0..2 */
    PDD_ERR_TRUMP = -3,         /* a trump outside 0..4 */
    PDD_ERR_OBJECTIVE = -4,     /* unknown objective */
    PDD_ERR_DUPLICATE = -5,     /* a card held twice, or held and also on the trick/talon */
    PDD_ERR_HAND_SIZE = -6,     /* hand sizes do not fit the position */
    PDD_ERR_TRICK = -7,         /* bad current trick: count or card index out of range */
    PDD_ERR_ILLEGAL_CARD = -8,  /* a card on the current trick breaks the rules of play */
    PDD_ERR_TALON = -9,         /* bad talon leads (count, card, or leader not seat 0),
                                 * or talon tricks where a call takes none (pdd_line_tricks) */
    PDD_ERR_TARGET = -10,       /* probe target out of range */
    PDD_ERR_STOPPED = -11,      /* the search was stopped by pdd_request_stop */
    PDD_ERR_NO_MEMORY = -12,    /* the table could not be allocated */
    PDD_ERR_TRICKS_TAKEN = -13, /* tricks already taken out of range */
    PDD_ERR_NO_CARDS = -14,     /* nothing left to play */
    PDD_ERR_WEIGHTS = -15,      /* move-ordering weights: wrong count or out of range */
    PDD_ERR_COUNT = -16,        /* a count of positions below 0 */
    PDD_ERR_DISCARD_MODE = -17, /* best-discard mode outside PDD_DISCARD_* */
    PDD_ERR_SUIT_ORDER = -18,   /* a suit order that is not a permutation of 0..3 */
    PDD_ERR_POLICY = -19,       /* table policy out of range (pdd_set_table_policy) */
    PDD_ERR_SOLVERS = -20       /* not 1..PDD_MAX_SOLVERS distinct solvers */
};

/* Option flags for pdd_set_options: each switches an enhancement on. The
 * default is PDD_OPT_ALL; 0 gives the plain alpha-beta baseline used by the
 * benchmarks and by the cross-check tests. No option changes a value. */
enum {
    PDD_OPT_TT = 1,           /* transposition table */
    PDD_OPT_EQUIV = 2,        /* one card per run of equivalent cards */
    PDD_OPT_ORDER = 4,        /* heuristic move ordering */
    PDD_OPT_QUICK = 8,        /* sure-trick bounds at the start of a trick */
    PDD_OPT_PARTITION = 16,   /* table entries cover positions differing in small cards */
    PDD_OPT_EVERY_TRICK = 32, /* misere and all-pass, with PDD_OPT_QUICK: "every trick left?" answered exactly */
    PDD_OPT_EXIT_LOOKAHEAD = 64, /* misere and all-pass, with PDD_OPT_QUICK: the declarer on lead
                                  * caught after each of his exits, looked at one trick ahead */
    PDD_OPT_ALL_BUT_ONE = 128, /* misere and all-pass, with PDD_OPT_QUICK: "all but one trick left?" with a
                                * defender on lead, "no" proved one trick ahead */
    PDD_OPT_EXIT_ESCAPE = 256, /* with PDD_OPT_ALL_BUT_ONE: where the declarer wins the first trick, his
                                * escape may also be a sure exit after it, looked at one more trick ahead;
                                * with the declarer on lead, a sure exit at once */
    PDD_OPT_ALL = 511
};

typedef struct pdd_position {
    uint32_t hands[3];     /* cards still held by each seat */
    int32_t trick[3];      /* cards already on the current trick, in play order */
    int32_t trick_count;   /* how many of them (0..2) */
    int32_t leader;        /* seat that played (or plays) first to the current trick */
    int32_t trump;         /* 0..3 a suit, 4 = no trump */
    int32_t declarer;      /* seat whose tricks are counted */
    int32_t objective;     /* PDD_TRICKS or PDD_MISERE */
    int32_t tricks_taken;  /* the declarer's tricks already taken; added to every value */
    /* All-pass talon leads: talon[0] names the suit of the current trick when
     * talon_count > 0, talon[1] that of the next one. Seat 0 plays first to a
     * talon trick (leader must be 0), and the highest card of that suit wins it;
     * if nobody follows suit, nobody takes it. With four_players set, a talon
     * card that stays highest wins the trick for the sitting dealer. */
    int32_t talon[2];
    int32_t talon_count;   /* 0..2 talon-led tricks still to come, the current one included */
    int32_t four_players;  /* 0 or 1 */
} pdd_position;

typedef struct pdd_stats {
    uint64_t nodes;        /* cards played in the search */
    uint64_t tt_probes;    /* table look-ups at trick boundaries */
    uint64_t tt_hits;      /* look-ups that ended the node */
    uint64_t probes;       /* null-window searches run */
} pdd_stats;

/* A new solver whose table uses about table_bytes of memory (0 = default,
 * 16 MiB; at least 64 KiB). NULL when the memory cannot be had. */
pdd_solver *pdd_new(size_t table_bytes);
void pdd_free(pdd_solver *solver);

/* Switch enhancements (PDD_OPT_* flags); answers the previous flags. Changing
 * options clears the table. */
int pdd_set_options(pdd_solver *solver, int flags);
/* How the table keeps entries over many top-level calls. The defaults
 * (PDD_DEFAULT_PART_WAYS, 1, 1) suit unrelated positions: each call starts a
 * table generation, and the entries of older ones are the first replaced. A long run of similar
 * positions (an enumeration's splits, one after another on one solver) wants
 * the entries of the calls just before: solves_per_generation calls share a
 * generation (1..PDD_MAX_SOLVES_PER_GENERATION), and a partition bucket,
 * which holds the entries of one shape, has part_ways entries
 * (1..PDD_MAX_PART_WAYS; fewer buckets in the same memory). exact_table 1
 * splits the memory between the exact and the partition entries as
 * pdd_new does; 0 gives the partition entries all of table_bytes and the
 * exact ones the least (64 KiB more): for trick contracts searched with
 * partition entries, which never read the exact ones (misere does). Changes
 * only the speed, never a value. Clears the table; PDD_ERR_POLICY out of
 * range, PDD_ERR_NO_MEMORY when the memory cannot be had (the table then as
 * it was). */
/* Macros, not enum constants: pdd_error_text spells the limits from them. */
#define PDD_DEFAULT_PART_WAYS 15
#define PDD_MAX_PART_WAYS 127
#define PDD_MAX_SOLVES_PER_GENERATION 1048576   /* 2^20 */
int pdd_set_table_policy(pdd_solver *solver, int part_ways, int solves_per_generation, int exact_table);
/* Move-ordering weights for leads (see order.c for what each one scores):
 * PDD_ORDER_WEIGHTS integers, each within its range (pdd_order_weight_info;
 * most within +-PDD_WEIGHT_LIMIT). Weights change only the speed, never a
 * value; the defaults were tuned on a fixed corpus
 * (benchmarks/tune_ordering.py). */
enum { PDD_ORDER_WEIGHTS = 29, PDD_WEIGHT_LIMIT = 10000 };
int pdd_set_order_weights(pdd_solver *solver, const int *weights, int count);
/* Copy the solver's weights (count must be PDD_ORDER_WEIGHTS). */
int pdd_get_order_weights(const pdd_solver *solver, int *weights, int count);
/* One weight's row of order.c's table: its name (the W_* index), default,
 * range, and group: "TRICKS" when it scores leads in trump and no-trump
 * contracts, "MISERE" in misere and all-pass. PDD_ERR_WEIGHTS for an index
 * outside 0..PDD_ORDER_WEIGHTS-1. */
typedef struct pdd_weight_info {
    const char *name;
    int32_t default_value;
    int32_t min;
    int32_t max;
    const char *group;
} pdd_weight_info;
int pdd_order_weight_info(int index, pdd_weight_info *info);
/* Forget everything in the table (normally never needed: entries are exact). */
void pdd_clear(pdd_solver *solver);

/* Check a position; PDD_OK or the error that a solve would answer. */
int pdd_validate(const pdd_position *position);

/* The exact value: the declarer's total tricks (tricks_taken included) with
 * best play by all, under the position's objective. */
int pdd_solve(pdd_solver *solver, const pdd_position *position, int *value);

/* Many positions in one call: values[i] answers positions[i] as pdd_solve
 * would, its value (0..10) or its error code (< 0), solved in order on the
 * same table, so values and node counts are those of count pdd_solve calls.
 * The caller's cost per call (an interpreter's call, its structs) is paid
 * once per batch. A refused position answers its code and the batch goes
 * on; a stop request ends it: the position under way and every later one
 * answer PDD_ERR_STOPPED, and so does the call. Otherwise PDD_OK. */
int pdd_solve_many(pdd_solver *solver, const pdd_position *positions, int count, int32_t *values);
/* pdd_solve_many of count copies of template, copy i with the hand masks
 * hands[2i] for seat seat_a and hands[2i + 1] for seat seat_b (an
 * enumeration's splits: 8 bytes a position to pass instead of 64).
 * PDD_ERR_SEAT for seats outside 0..2 or equal. */
int pdd_solve_hands(pdd_solver *solver, const pdd_position *template, int seat_a, int seat_b,
                    const uint32_t *hands, int count, int32_t *values);

/* One null-window search: *result = 1 if the value is at least target, else 0.
 * This is "can the declarer make target?" for trick contracts and "is the
 * misere caught (at least target tricks)?" for misere. */
int pdd_probe(pdd_solver *solver, const pdd_position *position, int target, int *result);

/* The value after each legal card of the seat on move: values[card] for every
 * card in *legal, -1 elsewhere. */
int pdd_card_values(pdd_solver *solver, const pdd_position *position,
                    int values[32], uint32_t *legal);

/* The principal variation from a position: up to 30 cards in play order
 * (*count of them), each an optimal card for its player. */
int pdd_best_line(pdd_solver *solver, const pdd_position *position,
                  int cards[30], int *count);
/* The same, when the caller has a guess of the value (e.g. from a best
 * discard): the value is then confirmed by two probes instead of searched
 * for. Any guess gives the same line; -1 means none. */
int pdd_best_line_from(pdd_solver *solver, const pdd_position *position, int value_guess,
                       int cards[30], int *count);
/* The same line with the ties broken as if suit s were named suit_to[s]
 * (a permutation of 0..3): the line of the renamed position, renamed back,
 * searched under the position's own names so that the table filled by
 * earlier calls on them (a best discard) serves it. */
int pdd_best_line_ordered(pdd_solver *solver, const pdd_position *position, int value_guess,
                          const int32_t suit_to[4], int cards[30], int *count);

/* Each seat's tricks from the position on (the current trick included)
 * along the line pdd_best_line_ordered gives with the same arguments:
 * tricks[s] for seat s. The line is not listed, and its cards are not
 * searched past the point where the declarer takes every trick left. Not
 * for talon tricks (PDD_ERR_TALON). */
int pdd_line_tricks(pdd_solver *solver, const pdd_position *position, int value_guess,
                    const int32_t suit_to[4], int32_t tricks[3]);

/* Legal cards of the seat on move. */
int pdd_legal_moves(const pdd_position *position, uint32_t *legal);

/* Ask a search running on another thread to stop: it answers PDD_ERR_STOPPED
 * soon. The request stays until pdd_clear_stop. */
void pdd_request_stop(pdd_solver *solver);
void pdd_clear_stop(pdd_solver *solver);

/* Counters since the last pdd_reset_stats. */
void pdd_get_stats(const pdd_solver *solver, pdd_stats *stats);
void pdd_reset_stats(pdd_solver *solver);

/* Table size in bytes. */
size_t pdd_table_bytes(const pdd_solver *solver);

/* A short English text for an error code. */
const char *pdd_error_text(int code);
/* --- best discard (discard.c) --- */

/* The declarer's best discard. `position` is the start of play (no card on
 * the trick, no talon leads, nothing taken) with the other two hands set;
 * hands[declarer] is ignored and `pool` gives the declarer's cards before the
 * discard (his hand and the talon: 12 cards, or hand size + 2 in an endgame).
 * value = the best value over every discard of two pool cards (trick
 * contract: the most tricks; misere: the fewest); discards[0..count) = 2-card
 * masks, ascending, as `mode` asks: PDD_DISCARD_ONE the discards of one class
 * reaching it (the first in a fixed heuristic order, the same from release
 * to release), PDD_DISCARD_ALL every discard reaching it, PDD_DISCARD_CANONICAL
 * the one discard reaching it whose starting position comes first in
 * canonical form (pdd_canonical_suits; the renamed hands compared as
 * numbers, seat 0's first), found without proving every tie,
 * PDD_DISCARD_VALUE the discards of one class reaching it, whichever the
 * search met first (for callers that want the value only: in trick
 * contracts it searches in the order measured fastest). classes = distinct
 * discards searched (discards leaving the same game up to relative ranks are
 * one class). */
enum { PDD_DISCARD_ONE = 0, PDD_DISCARD_ALL = 1, PDD_DISCARD_CANONICAL = 2, PDD_DISCARD_VALUE = 3 };
typedef struct pdd_discard_result {
    int32_t value;
    int32_t count;
    uint32_t discards[66];
    int32_t classes;
} pdd_discard_result;

int pdd_best_discard(pdd_solver *solver, const pdd_position *position, uint32_t pool,
                     int mode, pdd_discard_result *result);
/* The same for a caller to whom a best value below `floor` is as good as
 * any other below it (the whist advice's auction model rejects such a
 * layout): in a trick contract whose best value is below the floor, value is
 * some value below it, at least the best, and count is 0 (no discards).
 * Otherwise, and in misere (the floor is not used), as pdd_best_discard;
 * floor <= 0 is pdd_best_discard. */
int pdd_best_discard_floor(pdd_solver *solver, const pdd_position *position, uint32_t pool,
                           int mode, int floor, pdd_discard_result *result);

/* Many best-discard searches in one call (discard_many.c): results[i] and
 * codes[i] answer positions[i] with pools[i] as pdd_best_discard would (its
 * code: PDD_OK, or the error with results[i] unset). The solvers share
 * them, each taking the next search not yet taken: the calling thread with
 * solvers[0], one thread the call starts for each other. The call returns
 * once every search is answered; a thread that starts after the others took
 * every search finds none and ends without touching its solver. With
 * one solver they are searched in order on its table: the answers and node
 * counts of count calls. A stop request on a solver stops its search, and
 * no solver takes another (those answer PDD_ERR_STOPPED, and so does the
 * call); the others finish the search they are in. solvers: 1 to
 * PDD_MAX_SOLVERS, all distinct (else PDD_ERR_SOLVERS); each must be used
 * by no other thread during the call. */
enum { PDD_MAX_SOLVERS = 64 };
int pdd_best_discard_many(pdd_solver *const *solvers, int solver_count, const pdd_position *positions,
                          const uint32_t *pools, int count, int mode, int32_t *codes,
                          pdd_discard_result *results);

/* Many layouts' best discards on one solver (discard_lines.c): layout i
 * is `template` with the hand masks hands[3i..3i+2], the declarer's entry
 * his pool (hand and talon). out[4i] = pdd_best_discard_floor's value (mode
 * and floor as there), and with `line` and a best discard found (none below
 * the floor) out[4i+1..4i+3] = each seat's tricks along pdd_line_tricks
 * after that discard (the first listed), the value as the guess and the
 * suits in canonical order (pdd_canonical_suits); -1 there otherwise. The
 * same calls on the same table as one by one (the same answers), except
 * that in a trick contract the run's layouts share table generations (up
 * to 16 a generation, each run starting one, and an entry that settles a
 * node joins the current one), so that a layout finds the entries of the
 * layouts before it; the solver's table policy is as it was afterwards.
 * The first error (a refused layout, a stop request) ends the call and is
 * answered: the later layouts' entries are unset. */
int pdd_best_discard_lines(pdd_solver *solver, const pdd_position *template, const uint32_t *hands, int count,
                           int mode, int floor, int line, int32_t *out);

/* The classes of equivalent discards, as pdd_best_discard searches them:
 * two discards of two `pool` cards are equivalent when they leave the same
 * game up to the relative ranks of the live cards - the same owner (the
 * pool's kept cards, others[0], others[1]) for each live card of each suit,
 * from the ace down - and, with suits_renamed (pdd_best_discard sets it for
 * misere and all-pass), up to a renaming of the suits. discards[0..count)
 * lists every discard (first card, then second, by ascending index),
 * class_of[i] the class of discards[i], classes numbered 0..classes-1 in
 * order of first appearance. The pool holds 2..12 cards; no card may be in
 * two of pool, others[0], others[1] (cards in none are dead). */
typedef struct pdd_discard_classes_result {
    int32_t count;
    uint32_t discards[66];
    int32_t class_of[66];
    int32_t classes;
} pdd_discard_classes_result;

int pdd_discard_classes(uint32_t pool, const uint32_t others[2], int suits_renamed,
                        pdd_discard_classes_result *result);

/* --- canonical suit names (canonical.c) --- */

/* The canonical order of the position's suits: suit_to[s] = the new index
 * of suit s. Trumps first, then by the owners of each suit's live cards from
 * the ace down (seats 0-2, the trick's first and second cards 3 and 4; a
 * sequence before any longer one it begins), ties by the old index. Only the
 * trick's count and cards are checked. */
int pdd_canonical_suits(const pdd_position *position, int32_t suit_to[4]);

/* --- all-pass max^n line (maxn.c) --- */

/* The max^n line from a position: each seat in turn plays the card that
 * minimises its own final tricks, assuming the others do the same, ties to
 * the lowest card index. tricks[s] = seat s's tricks from this position on
 * (the current trick included); unclaimed = tricks no seat takes (the sitting
 * dealer's in a 4-player all-pass, else talon tricks nobody followed);
 * cards[0..count) = the line in play order. The declarer and objective of the
 * position are ignored; the trump is honoured (all-pass has none). */
typedef struct pdd_maxn_result {
    int32_t tricks[3];
    int32_t unclaimed;
    int32_t cards[30];
    int32_t count;
} pdd_maxn_result;

int pdd_maxn_line(pdd_solver *solver, const pdd_position *position, pdd_maxn_result *result);

/* --- a sampled layout's deal (sample.c) --- */

/* CPython's random.Random seeded with the integer whose 32-bit words, least
 * significant first, are key[0..key_words) (key[key_words - 1] non-zero
 * unless key_words is 1: CPython's integer has no leading zero words), then random.shuffle of the card
 * indices cards[0..count), the shuffled cards dealt in order into parts of
 * sizes[0..parts) cards: masks[p] |= the bits of part p's cards (the caller
 * sets masks[] to each part's fixed cards first). The same draws as
 * CPython's generator and shuffle. PDD_ERR_COUNT for key_words outside
 * 1..PDD_MAX_KEY_WORDS, count outside 0..32, parts outside 1..PDD_MAX_PARTS
 * or sizes not adding up to count; PDD_ERR_DUPLICATE for a card outside
 * 0..31 or given twice. */
enum { PDD_MAX_KEY_WORDS = 64, PDD_MAX_PARTS = 8 };
int pdd_shuffle_deal(const uint32_t *key, int key_words, const int32_t *cards, int count,
                     const int32_t *sizes, int parts, uint32_t *masks);
/* pdd_shuffle_deal of `deals` keys in one call: key d has key_words[d]
 * words, following key d - 1's in keys[]; its parts' masks are
 * masks[d * parts .. d * parts + parts), set to fixed[0..parts) first. The
 * first error ends the call and is answered (the later deals unset).
 * Measured on the whist advice's draws: 4.5 us a layout through the
 * binding one at a time, the C shuffle 2.6 us of it. */
int pdd_shuffle_deals(const uint32_t *keys, const int32_t *key_words, int deals, const int32_t *cards, int count,
                      const int32_t *sizes, int parts, const uint32_t *fixed, uint32_t *masks);
/* --- the enumeration's splits (splits.c) --- */

/* Every split of cards[0..n) into a part of k cards and one of the rest, in
 * revolving-door order (each split one card out of the first part and one in
 * from the one before, as solver/advice/layouts.py's revolving_door over the
 * cards' indices): split i is out[2i] = first_fixed | the part's cards,
 * out[2i + 1] = second_fixed | the other cards, for the C(n, k) splits.
 * PDD_ERR_COUNT for n outside 0..32, k outside 0..n, or more
 * splits than capacity (nothing written); PDD_ERR_DUPLICATE for a card
 * outside 0..31, given twice, or among the fixed cards, or fixed cards in
 * both parts. */
int pdd_split_masks(const int32_t *cards, int n, int k, uint32_t first_fixed, uint32_t second_fixed,
                    uint32_t *out, int capacity);
/* CDEF END */

#endif
