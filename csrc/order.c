/*
 * order.c - move ordering heuristics for trick contracts and misere.
 *
 * A trick is "good" for a seat when its winner helps that seat's side. With
 * rules.max_seat[] (board.h) this is one rule for both objectives: the declarer
 * winning is good exactly for the seats that want him to take more tricks.
 * (Trick contract: the declarer likes his own tricks, defenders like theirs.
 * Misere: nobody likes to win a trick himself, defenders like the declarer to.)
 */
#include <pthread.h>
#include <stdio.h>
#include "order.h"
#include "quick.h"

static int good_winner(const rules *r, int seat, int winner)
{
    return (winner == r->declarer) == r->max_seat[seat];
}

/* What every card's score needs, worked out once per node. */
typedef struct order_context {
    const board *b;
    const rules *r;
    const int *weights;    /* lead weights, indexed by W_* */
    int seat;
    uint32_t others;       /* live cards held by the other two seats */
} order_context;

/* Lead weights: the features below, scored per card and added up (with the
 * seat's history of cut-offs). The weights are data: their signs and sizes
 * come from tuning on a fixed corpus by the search's node counts
 * (benchmarks/tune_ordering.py), not from intuition. A negative weight tries
 * such leads late: tuning put misere's "sure exit" and "forcing" leads and
 * leads into the declarer's void last, for instance. Each solver holds its own
 * copy (pdd_set_order_weights).
 *
 * One row per weight: its name (the W_* index), default, range, and the
 * contracts whose leads it scores (TRICKS: trump and no trump; MISERE: misere
 * and all-pass). The API's count, range checks and error text, and the tuning
 * script's groups (through pdd_order_weight_info) all come from these rows, so
 * a new heuristic is one row here and its use below (and PDD_ORDER_WEIGHTS).
 *
 * Measured when they were added (each kept only when none of seven seeded
 * sets of best discards and exact solves got worse by more than 1 %):
 *  - W_MIS_OPEN_SUIT: a defender's lead of a suit the declarer cannot duck
 *    for good (his weak suit) goes later. Intuition said earlier; the sets
 *    said later: misere best discards -6 %, exact misere -1 % nodes.
 *  - W_MIS_DEC_LOWEST: a suit whose lowest card he holds (he ducks its first
 *    round whatever comes) goes earlier: best discards -1 % to -13 %, exact
 *    misere -1 % to -2 %.
 *  - W_MIS_PARTNER_OVER: a lead the partner can take over (his top card
 *    beats it and the declarer's) goes earlier: best discards -0.3 % to
 *    -6 %, exact misere within +-1.6 %.
 *  - W_MIS_UNBLOCK: the declarer on lead tries first his top card of a suit
 *    he cannot duck for good (he sheds the card they would catch him with):
 *    best discards -4 % to -8 %, exact misere -5 % to -7 %.
 *  - W_INTO_RUFF (trick contracts): a defender's lead into the declarer's
 *    void goes later still when he holds trumps to ruff it: trump best
 *    discards -3 % to -6 %, trump solves -0.4 % (random) and -6 %
 *    (realistic). */
#define LIMIT PDD_WEIGHT_LIMIT
#define SHIFT 16               /* a history shift beyond 16 leaves no history */
#define LEAD_WEIGHT_ROWS(ROW) \
    ROW(W_WINNER,            27, -LIMIT, LIMIT, TRICKS) /* the card beats every other card of its suit */ \
    ROW(W_DRAW_TRUMPS,      -38, -LIMIT, LIMIT, TRICKS) /* the declarer leads a trump */ \
    ROW(W_INTO_VOID,        -13, -LIMIT, LIMIT, TRICKS) /* a defender leads a side suit the declarer lacks */ \
    ROW(W_PARTNER_TOP,       30, -LIMIT, LIMIT, TRICKS) /* a defender leads towards his partner's top card */ \
    ROW(W_NEXT_TOP,         -10, -LIMIT, LIMIT, TRICKS) /* the next seat holds the top card above ours */ \
    ROW(W_RANK,              -1, -LIMIT, LIMIT, TRICKS) /* per rank: high winners, low losers */ \
    ROW(W_HISTORY_SHIFT,      1,      0, SHIFT, TRICKS) /* history counts are divided by 2^this */ \
    ROW(W_LENGTH,             5, -LIMIT, LIMIT, TRICKS) /* per card the leader holds in the suit */ \
    ROW(W_DEFENCE_TRUMP,    -15, -LIMIT, LIMIT, TRICKS) /* a defender leads a trump */ \
    ROW(W_PARTNER_RUFF,      15, -LIMIT, LIMIT, TRICKS) /* a defender leads a suit his partner can ruff */ \
    ROW(W_MIS_EXIT,        -100, -LIMIT, LIMIT, MISERE) /* the declarer's sure exit */ \
    ROW(W_MIS_UNDER,          1, -LIMIT, LIMIT, MISERE) /* the declarer's card is under some other card */ \
    ROW(W_MIS_UNDER_EACH,    -2, -LIMIT, LIMIT, MISERE) /* ... per such card */ \
    ROW(W_MIS_DEC_RANK,       0, -LIMIT, LIMIT, MISERE) /* per rank of the declarer's lead (subtracted) */ \
    ROW(W_MIS_DEC_VOID,   -1154, -LIMIT, LIMIT, MISERE) /* a defender leads a suit the declarer lacks */ \
    ROW(W_MIS_FORCE,       -133, -LIMIT, LIMIT, MISERE) /* a defender's lead the declarer must win */ \
    ROW(W_MIS_NONE_LOWER,   -27, -LIMIT, LIMIT, MISERE) /* the declarer holds no card of the suit below it */ \
    ROW(W_MIS_DEC_LENGTH,     2, -LIMIT, LIMIT, MISERE) /* per card of the declarer in the suit */ \
    ROW(W_MIS_DEF_RANK,       2, -LIMIT, LIMIT, MISERE) /* per rank of the defender's lead (subtracted) */ \
    ROW(W_MIS_HISTORY_SHIFT,  1,      0, SHIFT, MISERE) /* history counts are divided by 2^this */ \
    ROW(W_LOWEST,             0, -LIMIT, LIMIT, TRICKS) /* the leader's lowest card of the suit */ \
    ROW(W_MIS_LENGTH,         0, -LIMIT, LIMIT, MISERE) /* per card the leader holds in the suit */ \
    ROW(W_MIS_PARTNER_VOID,   0, -LIMIT, LIMIT, MISERE) /* a defender leads a suit his partner lacks */ \
    ROW(W_MIS_LOWEST,         5, -LIMIT, LIMIT, MISERE) /* the leader's lowest card of the suit */ \
    ROW(W_MIS_OPEN_SUIT,   -200, -LIMIT, LIMIT, MISERE) /* a defender leads a suit the declarer cannot duck for good */ \
    ROW(W_MIS_DEC_LOWEST,   120, -LIMIT, LIMIT, MISERE) /* a defender leads a suit whose lowest card the declarer holds */ \
    ROW(W_MIS_PARTNER_OVER,  60, -LIMIT, LIMIT, MISERE) /* the partner can take a defender's lead over, above the declarer */ \
    ROW(W_MIS_UNBLOCK,     2000, -LIMIT, LIMIT, MISERE) /* the declarer leads his top card of a suit he cannot duck for good */ \
    ROW(W_INTO_RUFF,        -40, -LIMIT, LIMIT, TRICKS) /* a defender leads a side suit the declarer lacks and can ruff */

#define WEIGHT_INDEX(id, value, min, max, group) id,
enum { LEAD_WEIGHT_ROWS(WEIGHT_INDEX) LEAD_WEIGHTS };
_Static_assert((int)LEAD_WEIGHTS == (int)PDD_ORDER_WEIGHTS, "PDD_ORDER_WEIGHTS must count the rows");

#define WEIGHT_INFO(id, value, min, max, group) {#id, value, min, max, #group},
static const pdd_weight_info weight_table[LEAD_WEIGHTS] = { LEAD_WEIGHT_ROWS(WEIGHT_INFO) };
#undef LIMIT
#undef SHIFT
#define WEIGHT(k) (x->weights[k])

int pdd_order_weight_info(int index, pdd_weight_info *info)
{
    if (!info)
        return PDD_ERR_NULL;
    if (index < 0 || index >= LEAD_WEIGHTS)
        return PDD_ERR_WEIGHTS;
    *info = weight_table[index];
    return PDD_OK;
}

void order_default_weights(int weights[PDD_ORDER_WEIGHTS])
{
    for (int k = 0; k < LEAD_WEIGHTS; k++)
        weights[k] = weight_table[k].default_value;
}

int order_check_weights(const int *weights)
{
    for (int k = 0; k < LEAD_WEIGHTS; k++)
        if (weights[k] < weight_table[k].min || weights[k] > weight_table[k].max)
            return PDD_ERR_WEIGHTS;
    return PDD_OK;
}

static int same_range(int j, int k)
{
    return weight_table[j].min == weight_table[k].min && weight_table[j].max == weight_table[k].max;
}

static int append_range(char *text, int n, int size, int k)
{
    int min = weight_table[k].min, max = weight_table[k].max;
    return n + (min == -max ? snprintf(text + n, size - n, " within +-%d", max)
                            : snprintf(text + n, size - n, " within %d..%d", min, max));
}

/* "give N integers, <names> within <range>, ..., the others within <range>":
 * the rows' count and ranges, the commonest range last as "the others". */
static char weights_text[512];
static pthread_once_t weights_text_once = PTHREAD_ONCE_INIT;

static void fill_weights_text(void)
{
    int size = sizeof weights_text, common = 0, most = 0;
    for (int k = 0; k < LEAD_WEIGHTS; k++) {
        int count = 0;
        for (int j = 0; j < LEAD_WEIGHTS; j++)
            count += same_range(j, k);
        if (count > most)
            most = count, common = k;
    }
    int n = snprintf(weights_text, size, "move-ordering weights: give %d integers", LEAD_WEIGHTS);
    for (int k = 0; k < LEAD_WEIGHTS && n < size; k++) {
        int first = !same_range(k, common);
        for (int j = 0; j < k && first; j++)
            first = !same_range(j, k);
        if (!first)
            continue;
        for (int j = k; j < LEAD_WEIGHTS && n < size; j++)
            if (same_range(j, k))
                n += snprintf(weights_text + n, size - n, "%s%s", j == k ? ", " : " and ", weight_table[j].name);
        if (n < size)
            n = append_range(weights_text, n, size, k);
    }
    if (n < size)
        n += snprintf(weights_text + n, size - n, ", the others");
    if (n < size)
        append_range(weights_text, n, size, common);
}

const char *order_weights_text(void)
{
    pthread_once(&weights_text_once, fill_weights_text);
    return weights_text;
}

/* Lead scores, suit by suit: what depends on the suit only is worked out
 * once for all of the seat's cards in it (the ordering is the same as
 * scoring each card alone). Each function adds the suit's cards of `moves`
 * to score[] and out[], lowest first, through the node's insertion sort. */
typedef struct lead_sort {
    int *score, *out, n;
    int hint, killer, history_shift;
    const uint32_t *history;
} lead_sort;

/* Insertion sort: at most 10 cards; among equal scores the card added first
 * stays first. */
static inline void sort_in(int *score, int *out, int n, int c, int s)
{
    int i = n;
    while (i > 0 && score[i - 1] < s) {
        score[i] = score[i - 1];
        out[i] = out[i - 1];
        i--;
    }
    score[i] = s;
    out[i] = c;
}

/* The score of a lead c whose heuristic score is `heuristic`: the table's
 * card first, the killer next, then history plus heuristic. */
static inline void add_lead(lead_sort *q, int c, int heuristic)
{
    int s = c == q->hint ? 1 << 20
          : c == q->killer ? 1 << 19
          : (int)(q->history[c] >> q->history_shift) + heuristic;
    sort_in(q->score, q->out, q->n++, c, s);
}

/* Trick contracts. Per card: the suit's length, whether it is the leader's
 * lowest of the suit, whether it beats every other card of the suit (and
 * then W_RANK per rank, else minus W_RANK per rank), the trump and void
 * features of a declarer's or a defender's lead, a lead towards the
 * partner's top card, one whose top card above sits with the next seat, and
 * one the partner can ruff. */
static inline void trick_leads(const order_context *x, lead_sort *q, uint32_t cards, int suit)
{
    const board *b = x->b;
    const rules *r = x->r;
    int seat = x->seat, declarer = r->declarer, trump = r->trump;
    uint32_t sm = SUIT_MASK(suit);
    uint32_t own = b->hand[seat] & sm, other = x->others & sm;
    int top_other = other ? highest_card(other) : -1;
    int base = WEIGHT(W_LENGTH) * popcount(own);
    if (seat == declarer) {
        if (suit == trump)
            base += WEIGHT(W_DRAW_TRUMPS);
    } else {
        int partner = 3 - seat - declarer;
        if (suit == trump)
            base += WEIGHT(W_DEFENCE_TRUMP);
        else if (!(b->hand[declarer] & sm))
            base += WEIGHT(W_INTO_VOID)
                  + (trump != PDD_NO_TRUMP && (b->hand[declarer] & SUIT_MASK(trump)) ? WEIGHT(W_INTO_RUFF) : 0);
        if (top_other >= 0 && !(b->hand[declarer] & (1u << top_other)))
            base += WEIGHT(W_PARTNER_TOP);
        if (trump != PDD_NO_TRUMP && suit != trump && !(b->hand[partner] & sm)
            && (b->hand[partner] & SUIT_MASK(trump)))
            base += WEIGHT(W_PARTNER_RUFF);
    }
    /* Under the top other card (never ours): the next seat may hold it. */
    int under = base + (top_other >= 0 && (b->hand[next_seat(seat)] & (1u << top_other)) ? WEIGHT(W_NEXT_TOP) : 0);
    int lowest = lowest_card(own);
    for (; cards; cards &= cards - 1) {
        int c = lowest_card(cards), rank = CARD_RANK(c);
        int score = (c > top_other ? base + WEIGHT(W_WINNER) + WEIGHT(W_RANK) * rank : under - WEIGHT(W_RANK) * rank)
                  + (c == lowest ? WEIGHT(W_LOWEST) : 0);
        add_lead(q, c, score);
    }
}

/* Misere and all-pass. The declarer's lead: a sure exit (some defender
 * holds only higher cards of the suit, so must overtake), else how many
 * other cards of the suit lie above his; and his top card of a suit he
 * cannot duck for good (W_MIS_UNBLOCK). A defender's: a lead into the
 * declarer's void, a lead the declarer must win (all his cards of the suit
 * above it, the partner able to stay under his lowest), whether the declarer
 * holds a lower card of the suit, and his length in it. Either's: the
 * generic features (length, lowest card, the partner's void), a lead the
 * partner can take over, and for a defender a suit the declarer cannot duck
 * for good (W_MIS_OPEN_SUIT) or whose lowest card he holds (W_MIS_DEC_LOWEST). */
static inline void misere_leads(const order_context *x, lead_sort *q, uint32_t cards, int suit)
{
    const board *b = x->b;
    int seat = x->seat, declarer = x->r->declarer;
    uint32_t sm = SUIT_MASK(suit);
    uint32_t dec = b->hand[declarer] & sm, own = b->hand[seat] & sm;
    uint32_t partner = seat != declarer ? b->hand[3 - seat - declarer] & sm : 0;
    int partner_top = partner && (!dec || highest_card(partner) > highest_card(dec)) ? highest_card(partner) : -1;
    int lowest = lowest_card(own);
    int base = WEIGHT(W_MIS_LENGTH) * popcount(own)
             + (seat != declarer && !partner ? WEIGHT(W_MIS_PARTNER_VOID) : 0);
    if (seat != declarer && dec) {
        /* A defender on lead, in a suit the declarer holds: does he fail to
         * duck it for good, does he hold its lowest card? */
        uint32_t def = (own | partner) & ~dec;
        if (!misere_duckable(dec, def))
            base += WEIGHT(W_MIS_OPEN_SUIT);
        if (lowest_card(dec) < lowest_card(def))
            base += WEIGHT(W_MIS_DEC_LOWEST);
    }
    if (seat == declarer) {
        uint32_t other = x->others & sm;
        int top = highest_card(dec);
        int unblock_card = (cards >> top & 1) && !misere_duckable(dec, other) ? top : NO_CARD;
        /* A lead under this is a sure exit: the highest lowest card of a defender's. */
        int exit_below = -1;
        for (int o = next_seat(seat); o != seat; o = next_seat(o)) {
            uint32_t theirs = b->hand[o] & sm;
            if (theirs && lowest_card(theirs) > exit_below)
                exit_below = lowest_card(theirs);
        }
        for (; cards; cards &= cards - 1) {
            int c = lowest_card(cards), rank = CARD_RANK(c);
            int score = base + (c == unblock_card ? WEIGHT(W_MIS_UNBLOCK) : 0) + (c == lowest ? WEIGHT(W_MIS_LOWEST) : 0);
            if (c < exit_below) {
                score += WEIGHT(W_MIS_EXIT) + rank;
            } else {
                uint32_t higher_other = other & ~((2u << c) - 1);
                score += (higher_other ? WEIGHT(W_MIS_UNDER) + WEIGHT(W_MIS_UNDER_EACH) * popcount(higher_other) : 0)
                       - WEIGHT(W_MIS_DEC_RANK) * rank;
            }
            add_lead(q, c, score);
        }
        return;
    }
    if (!dec) {
        for (; cards; cards &= cards - 1) {
            int c = lowest_card(cards);
            add_lead(q, c, base + WEIGHT(W_MIS_DEC_VOID) - WEIGHT(W_MIS_DEF_RANK) * CARD_RANK(c)
                           + (c > partner_top ? 0 : WEIGHT(W_MIS_PARTNER_OVER))
                           + (c == lowest ? WEIGHT(W_MIS_LOWEST) : 0));
        }
        return;
    }
    int dec_low = lowest_card(dec);
    int force = !partner || lowest_card(partner) < dec_low;
    int above = base + WEIGHT(W_MIS_DEC_LENGTH) * popcount(dec);
    for (; cards; cards &= cards - 1) {
        int c = lowest_card(cards), rank = CARD_RANK(c);
        int score = c < dec_low && force ? base + WEIGHT(W_MIS_FORCE) + rank
                  : above + (c < dec_low ? WEIGHT(W_MIS_NONE_LOWER) : 0) - WEIGHT(W_MIS_DEF_RANK) * rank;
        add_lead(q, c, score + (c > partner_top ? 0 : WEIGHT(W_MIS_PARTNER_OVER))
                             + (c == lowest ? WEIGHT(W_MIS_LOWEST) : 0));
    }
}

/* The cards of `moves` that would take the trick as it stands. */
static uint32_t winning_moves(const board *b, const rules *r, uint32_t moves)
{
    if (b->win_card == NO_CARD)
        return moves & (SUIT_MASK(b->lead_suit) | (r->trump < 4 ? SUIT_MASK(r->trump) : 0));
    int win_suit = CARD_SUIT(b->win_card);
    uint32_t above = moves & SUIT_MASK(win_suit) & ~((2u << b->win_card) - 1);
    if (r->trump < 4 && win_suit != r->trump)
        above |= moves & SUIT_MASK(r->trump);      /* a ruff beats any side card */
    return above;
}

/* Misere, the declarer second to play after a defender's lead: a card is safe
 * when it stays under the card led or under every card of the suit that the
 * third seat holds (he must follow and overtake). Safe cards come first, the
 * highest first; if none is safe he wins the trick and sheds his highest. */
static int declarer_second_score(const board *b, int third, int card)
{
    uint32_t theirs = b->hand[third] & SUIT_MASK(b->lead_suit);
    int bar = b->win_card;
    if (theirs && lowest_card(theirs) > bar)
        bar = lowest_card(theirs);
    if (CARD_SUIT(card) != b->lead_suit || card < bar)
        return 60 + CARD_RANK(card);
    return CARD_RANK(card);
}

static int misere_follow_score(const order_context *x, int card)
{
    const board *b = x->b;
    const rules *r = x->r;
    int seat = x->seat;
    int rank = CARD_RANK(card);
    int wins = card_beats(card, b->win_card, b->lead_suit, r->trump);
    if (seat != r->declarer && b->win_seat == r->declarer && CARD_SUIT(card) == b->lead_suit) {
        /* A defender following the declarer's lead whose partner, last to
         * play, holds only cards above it: the declarer loses the trick
         * anyway, so which defender takes it is all that is left to choose.
         * Overtaking, cheapest first, measured better (misere best discards
         * -3 % to -4 %, exact misere -1 % to -2.6 % nodes). */
        uint32_t partner = b->hand[next_seat(seat)] & SUIT_MASK(b->lead_suit);
        if (partner && lowest_card(partner) > b->win_card)
            return wins ? 60 - rank : 50 + rank;
    }
    /* Second to play (order_last_to_play orders the third): the third seat
     * can still change the winner. */
    if (good_winner(r, seat, b->win_seat) && !wins)
        return 50 + rank;   /* leave it as it is */
    /* The current winner is bad for us. */
    if (seat == r->declarer)
        return declarer_second_score(b, next_seat(seat), card);
    /* A defender after his partner's lead: stay under it with his highest
     * such card (his low cards are what catch the declarer later), else
     * overtake as cheaply as he can. Measured: misere best discards -4.7 %
     * nodes against lowest first. */
    return wins ? 8 - rank : 20 + rank;
}

#define RANK_ROW 0x01010101u   /* one rank in every suit */

/* Cards of one suit are in rank order already (the card index grows with the
 * rank): the common case of a seat following suit. */
static int one_suit(uint32_t cards)
{
    return (cards & (cards - 1)) == 0 || CARD_SUIT(lowest_card(cards)) == CARD_SUIT(highest_card(cards));
}

/* The ranks present in any suit of `cards` (bit k: rank k). */
static unsigned rank_set(uint32_t cards)
{
    cards |= cards >> 16;
    cards |= cards >> 8;
    return cards & 0xFF;
}

/* Cards by rank, lowest first, whatever their suits (a discard of a low card
 * in any suit is as cheap as in another). Inlined: a trick's last card calls
 * it once or twice (measured, callgrind, 200 random trump and no-trump
 * solves: -0.5 % instructions). */
static inline __attribute__((always_inline))
int append_low_first(uint32_t cards, int out[10], int n)
{
    if (one_suit(cards)) {
        for (; cards; cards &= cards - 1)
            out[n++] = lowest_card(cards);
        return n;
    }
    for (unsigned ranks = rank_set(cards); ranks; ranks &= ranks - 1)
        for (uint32_t row = cards & (RANK_ROW << lowest_card(ranks)); row; row &= row - 1)
            out[n++] = lowest_card(row);
    return n;
}

static inline __attribute__((always_inline))
int append_high_first(uint32_t cards, int out[10], int n)
{
    if (one_suit(cards)) {
        for (; cards; cards &= ~(1u << highest_card(cards)))
            out[n++] = highest_card(cards);
        return n;
    }
    for (unsigned ranks = rank_set(cards); ranks; ranks &= ~(1u << highest_card(ranks)))
        for (uint32_t row = cards & (RANK_ROW << highest_card(ranks)); row; row &= row - 1)
            out[n++] = lowest_card(row);
    return n;
}

/* The last card of a trick decides its winner, so the order follows from two
 * questions: is winning it good for this seat, is losing it good? Cheap cards
 * first in a trick contract; in misere high cards go first, since shedding
 * them (or winning with them when a trick must be won) is what matters. */
static int order_last_to_play(const board *b, const rules *r, uint32_t moves, int out[10])
{
    int seat = seat_to_move(b);
    uint32_t winners = winning_moves(b, r, moves), losers = moves & ~winners;
    int win_good = good_winner(r, seat, seat), lose_good = good_winner(r, seat, b->win_seat);
    int misere = r->objective != PDD_TRICKS;
    int n = 0;
    if (win_good && !lose_good) {
        n = append_low_first(winners, out, n);
        return misere ? append_high_first(losers, out, n) : append_low_first(losers, out, n);
    }
    if (lose_good && !win_good) {
        n = misere ? append_high_first(losers, out, n) : append_low_first(losers, out, n);
        return misere ? append_high_first(winners, out, n) : append_low_first(winners, out, n);
    }
    return misere ? append_high_first(moves, out, 0) : append_low_first(moves, out, 0);
}

/* Misere, a defender out of the led suit: his cards of the declarer's
 * suits go first, highest first (high cards there can only be made to win
 * tricks the declarer ducks), but his cards under the declarer's lowest of a
 * suit last among them (they force the declarer); then the suits the
 * declarer lacks. Measured: misere best discards -5 % nodes against highest
 * first whatever the suit. */
static int order_defender_discards(const board *b, const rules *r, uint32_t moves, int out[10])
{
    uint32_t declarer = b->hand[r->declarer], shed = 0, keep = 0, lacking = 0;
    for (int s = 0; s < 4; s++) {
        uint32_t cards = moves & SUIT_MASK(s), dec = declarer & SUIT_MASK(s);
        if (!dec) {
            lacking |= cards;
            continue;
        }
        uint32_t under = cards & ((1u << lowest_card(dec)) - 1);
        keep |= under;
        shed |= cards & ~under;
    }
    int n = append_high_first(shed, out, 0);
    n = append_high_first(keep, out, n);
    return append_high_first(lacking, out, n);
}

/* Misere: the suits (bit s) the declarer holds and cannot duck for good
 * (quick.h), against every other card of the suit. */
static unsigned weak_suits(const board *b, int declarer)
{
    uint32_t dec = b->hand[declarer];
    uint32_t def = (b->hand[0] | b->hand[1] | b->hand[2]) & ~dec;
    unsigned weak = 0;
    for (int s = 0; s < 4; s++) {
        uint32_t own = dec & SUIT_MASK(s);
        if (own && !misere_duckable(own, def & SUIT_MASK(s)))
            weak |= 1u << s;
    }
    return weak;
}

/* Misere, the declarer out of the led suit: first the top card of each suit
 * he cannot duck for good (the card they would catch him with, as with
 * W_MIS_UNBLOCK), then the rest, highest first. Measured: best discards
 * -3 % to -6 %, exact misere -4 % to -7 % nodes against highest first. */
static int order_declarer_discards(const board *b, const rules *r, uint32_t moves, int out[10])
{
    uint32_t dec = b->hand[r->declarer], dangerous = 0;
    for (unsigned weak = weak_suits(b, r->declarer); weak; weak &= weak - 1)
        dangerous |= 1u << highest_card(dec & SUIT_MASK(lowest_card(weak)));
    int n = append_high_first(moves & dangerous, out, 0);
    return append_high_first(moves & ~dangerous, out, n);
}

/* A trick contract, second to play (or a talon trick's first card): the
 * scores of follow_score fall in four bands (80, 50, 30 and 0, less the
 * rank), so the cards are ordered band by band, low ranks first within each
 * (lower suits first on equal ranks, as the insertion sort leaves them):
 * winners the third seat cannot beat (he holds nothing higher of the suit
 * led, or none of it), then, when the trick's winner is good for this seat,
 * the cards that leave it, then the other winners, then the other cards.
 * The table's card goes first. */
static int order_trick_follow(const board *b, const rules *r, uint32_t moves, int hint, int top_other_lead,
                              int out[10])
{
    int n = 0, seat = seat_to_move(b);
    if (hint >= 0 && (moves >> hint & 1)) {
        out[n++] = hint;
        moves &= ~(1u << hint);
    }
    uint32_t winners = winning_moves(b, r, moves), losers = moves & ~winners;
    uint32_t safe = winners;
    if (b->hand[next_seat(seat)] & SUIT_MASK(b->lead_suit))
        safe &= top_other_lead < 0 ? ~0u : ~((2u << top_other_lead) - 1);
    n = append_low_first(safe, out, n);
    if (good_winner(r, seat, b->win_seat)) {
        n = append_low_first(losers, out, n);
        return append_low_first(winners & ~safe, out, n);
    }
    n = append_low_first(winners & ~safe, out, n);
    return append_low_first(losers, out, n);
}

/* Leads, and misere's second hands: every card scored, then sorted. Kept
 * out of line (order_moves dispatches), so that a trick's last card, and a
 * trick contract's second hand, ordered without scores, do not pay for this
 * function's frame (measured, callgrind, 200
 * random trump and no-trump solves: -0.3 % instructions). */
static __attribute__((noinline))
int order_scored(const board *b, const rules *r, uint32_t moves, int hint, int killer,
                 const uint32_t history[32], const int *weights, int out[10])
{
    order_context x = {b, r, weights, seat_to_move(b), 0};
    x.others = (b->hand[0] | b->hand[1] | b->hand[2]) & ~b->hand[x.seat];
    int leading = b->ncards == 0 && b->lead_suit < 0;
    int history_shift = weights[r->objective == PDD_TRICKS ? W_HISTORY_SHIFT : W_MIS_HISTORY_SHIFT];
    int score[10];
    if (leading) {
        lead_sort q = {score, out, 0, hint, killer, history_shift, history};
        for (int suit = 0; suit < 4; suit++) {
            uint32_t cards = moves & SUIT_MASK(suit);
            if (!cards)
                continue;
            if (r->objective == PDD_TRICKS)
                trick_leads(&x, &q, cards, suit);
            else
                misere_leads(&x, &q, cards, suit);
        }
        return q.n;
    }
    int n = 0;
    for (uint32_t m = moves; m; m &= m - 1) {
        int c = lowest_card(m);
        int s = c == hint ? 1 << 20 : misere_follow_score(&x, c);
        sort_in(score, out, n++, c, s);
    }
    return n;
}

int order_moves(const board *b, const rules *r, uint32_t moves, int hint, int killer,
                const uint32_t history[32], const int *weights, int out[10])
{
    if (r->objective != PDD_TRICKS && b->ncards > 0 && b->lead_suit >= 0
        && !(b->hand[b->to_move] & SUIT_MASK(b->lead_suit)))
        return b->to_move == r->declarer ? order_declarer_discards(b, r, moves, out)
                                         : order_defender_discards(b, r, moves, out);
    if (b->ncards == 2)
        return order_last_to_play(b, r, moves, out);
    if (r->objective == PDD_TRICKS && (b->ncards > 0 || b->lead_suit >= 0)) {
        int seat = seat_to_move(b);
        uint32_t others = (b->hand[0] | b->hand[1] | b->hand[2]) & ~b->hand[seat] & SUIT_MASK(b->lead_suit);
        return order_trick_follow(b, r, moves, hint, others ? highest_card(others) : -1, out);
    }
    return order_scored(b, r, moves, hint, killer, history, weights, out);
}
