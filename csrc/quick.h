/*
 * quick.h - sure-trick bounds at the start of a trick.
 *
 * A cheap count of tricks the side on lead can cash at once, whatever the
 * others do. It bounds the search from one side and never changes a value.
 */
#ifndef PREFDD_QUICK_H
#define PREFDD_QUICK_H

#include "board.h"

/* Tricks the side on lead can take by cashing top cards of side suits (all
 * suits in no trump) before anyone can ruff, and in no trump the small
 * cards after them where the others are out of the suit by then; 0 if
 * none. A defender on lead adds his partner's, when he can put the partner
 * on lead in a suit whose top card the partner holds. Only at a trick
 * start. Trumps are left to master_trumps, so the two counts add up.
 * *counted gets the cards the count relied on: the lowest card of each run
 * of top cards cashed, which stands for the run (partition search, see
 * search.c). */
int quick_tricks(const board *b, const rules *r, uint32_t *counted);

/* No trump, a defender on lead who cannot keep the declarer off lead: the
 * declarer holds the top card of every suit the leader holds, so he wins
 * whatever is led and then cashes his runs. Answers their count (cash_runs,
 * as if he led; the trick led to him is the first round of one of them),
 * else 0 (also in trump contracts: there, measured, the count settled too
 * few nodes, 2 %, to pay for itself). *counted as for quick_tricks. */
int declarer_regains(const board *b, const rules *r, uint32_t *counted);

/* Trump contracts: when the top trumps of the seat on lead outnumber each
 * other player's trumps, he draws them, and then every trump of his wins and
 * his side suits cash as in no trump (nobody left to ruff, his partner
 * included; discards only shorten the others' suits). Answers his trumps
 * plus those runs, or 0. *counted: his lowest top trump and the runs' cards
 * (see quick_tricks). */
int drawing_trumps(const board *b, const rules *r, uint32_t *counted);

/* Trump contracts, whoever leads: each trump of a side that beats every trump
 * of the other side wins a trick of its own whenever it is played. Sets the
 * declarer's and the defenders' counts (0 in no trump), and the trumps
 * counted. */
void master_trumps(const board *b, const rules *r, int *declarer_sure, int *defence_sure,
                   uint32_t *declarer_cards, uint32_t *defence_cards);

/* Misere: can the declarer duck every defender lead of one suit for good
 * (his i-th lowest card under the defenders' i-th lowest, for every i they
 * both reach)? dec and def are his and both defenders' cards of the suit. */
int misere_duckable(uint32_t dec, uint32_t def);
/* Fill the table misere_duckable reads (once; thread-safe). pdd_new calls it. */
void quick_tables_init(void);

/* Misere, no trump, at a trick start: bounds on the declarer's future tricks
 * (lower <= value - tricks taken <= upper), each proved by a strategy that
 * the side concerned can always follow. target_tricks is the future tricks
 * the search asks about: bounds that cannot settle it may be left out (0
 * and tricks left are always safe answers). options: the PDD_OPT_* flags.
 * With PDD_OPT_EVERY_TRICK, the question
 * "every trick left?" (target_tricks = tricks left) is answered exactly:
 * the defenders can make him take every trick exactly when, after at most
 * the trick about to start, each of them can play under every card the
 * declarer leads of each suit (quick.c, defenders_keep_lead). With
 * PDD_OPT_EXIT_LOOKAHEAD, "one more?" with the declarer on lead looks one
 * trick past each of his exits (quick.c, caught_after_exit). */
void misere_bounds(const board *b, const rules *r, int target_tricks, int options, int *lower, int *upper);

/* Misere, no trump, a defender on lead at a trick start with four or more
 * tricks left, the question "all but one?" (target_tricks = tricks left -
 * 1): 1 when the declarer is proved to escape, taking at most tricks left
 * - 2 (for every first trick of theirs an answer after which they cannot
 * make him take every trick left, or he never wins another; quick.c,
 * declarer_escapes), else 0 (not known). The search asks it with
 * PDD_OPT_ALL_BUT_ONE after a table look-up that did not settle the node,
 * and keeps a proof in the table. options: the PDD_OPT_* flags; with
 * PDD_OPT_EXIT_ESCAPE a first trick the declarer wins may also be answered
 * by a sure exit after it, and with the declarer on lead the question is
 * asked too, answered by a sure exit at once (quick.c, exit_escapes). */
int misere_escapes(const board *b, const rules *r, int target_tricks, int options);

#endif
