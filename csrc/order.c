/*
 * order.c - move ordering heuristics for trick contracts and misere.
 *
 * A trick is "good" for a seat when its winner helps that seat's side. With
 * max_seat[] from rules.h this is one rule for both objectives: the declarer
 * winning is good exactly for the seats that want him to take more tricks.
 * (Trick contract: the declarer likes his own tricks, defenders like theirs.
 * Misere: nobody likes to win a trick himself, defenders like the declarer to.)
 */
#include "order.h"

static int good_winner(const rules *r, int seat, int winner)
{
    return (winner == r->declarer) == r->max_seat[seat];
}

/* What every card's score needs, worked out once per node. */
typedef struct order_context {
    const board *b;
    const rules *r;
    int seat;
    uint32_t others;       /* live cards held by the other two seats */
} order_context;

/* Highest live card of a suit held by another seat, or -1. */
static int best_other(const order_context *x, int suit)
{
    uint32_t other = x->others & SUIT_MASK(suit);
    return other ? highest_card(other) : -1;
}

/* Misere lead. The declarer looks for an exit that some defender must
 * overtake (that defender holds only higher cards of the suit); among those the
 * highest, which keeps his low cards for later exits. A defender looks for a
 * lead that forces the declarer to win: all the declarer's cards of the suit
 * are above it and the partner can stay under the declarer's lowest. */
static int misere_lead_score(const order_context *x, int card)
{
    const board *b = x->b;
    int seat = x->seat, declarer = x->r->declarer;
    int suit = CARD_SUIT(card), rank = CARD_RANK(card);
    uint32_t sm = SUIT_MASK(suit);
    uint32_t dec = b->hand[declarer] & sm;
    if (seat == declarer) {
        for (int o = 1; o <= 2; o++) {
            uint32_t theirs = b->hand[(seat + o) % 3] & sm;
            if (theirs && lowest_card(theirs) > card)
                return 100 + rank;             /* a sure exit */
        }
        uint32_t higher_other = x->others & sm & ~((2u << card) - 1);
        return (higher_other ? 50 + popcount(higher_other) : 0) - rank;
    }
    if (!dec)
        return -20 - rank;
    int partner = 3 - seat - declarer;
    int dec_low = lowest_card(dec);
    uint32_t part = b->hand[partner] & sm;
    if (card < dec_low && (!part || lowest_card(part) < dec_low))
        return 100 + rank;                     /* the declarer must win it */
    uint32_t dec_lower = dec & ((1u << card) - 1);
    return (dec_lower ? 0 : 40) + popcount(dec) - rank;
}

static int lead_score(const order_context *x, int card)
{
    const board *b = x->b;
    const rules *r = x->r;
    int seat = x->seat, declarer = r->declarer;
    int suit = CARD_SUIT(card), rank = CARD_RANK(card);
    int top_other = best_other(x, suit);
    if (r->objective == PDD_TRICKS) {
        int score = 0;
        if (card > top_other)
            score += 60;                       /* a winner: cash it */
        if (suit == r->trump && seat == declarer)
            score += 20;                       /* draw trumps */
        if (seat != declarer && suit != r->trump && !(b->hand[declarer] & SUIT_MASK(suit)))
            score -= 10;                       /* the declarer may ruff or discard */
        if (seat != declarer && top_other >= 0 && !(b->hand[declarer] & (1u << top_other)))
            score += 30;                       /* partner holds the top card */
        if (top_other >= 0 && (b->hand[next_seat(seat)] & (1u << top_other)) && card < top_other)
            score -= 15;                       /* the next seat wins it cheaply */
        return score + (card > top_other ? rank : -rank);
    }
    return misere_lead_score(x, card);
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

static int follow_score(const order_context *x, int card, int top_other_lead)
{
    const board *b = x->b;
    const rules *r = x->r;
    int seat = x->seat;
    int rank = CARD_RANK(card);
    int wins = card_beats(card, b->win_card, b->lead_suit, r->trump);
    int winner_now = wins ? seat : b->win_seat;
    int misere = r->objective != PDD_TRICKS;
    if (b->ncards == 2) {
        /* Last to play: the outcome is known. */
        if (good_winner(r, seat, winner_now))
            return 100 + (wins ? -rank : (misere ? rank : -rank));
        return misere ? rank : -rank;
    }
    /* Second to play: the third seat can still change the winner. */
    if (good_winner(r, seat, b->win_seat) && !wins)
        return 50 + (misere ? rank : -rank);   /* leave it as it is */
    if (!misere) {
        if (wins) {
            int third = next_seat(seat);
            int safe = card > top_other_lead || !(b->hand[third] & SUIT_MASK(b->lead_suit));
            return (safe ? 80 : 30) - rank;
        }
        return -rank;
    }
    /* Misere, second to play and the current winner is bad for us. */
    if (seat == r->declarer)
        return declarer_second_score(b, next_seat(seat), card);
    return wins ? rank : 20 - rank;
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

#define RANK_ROW 0x01010101u   /* one rank in every suit */

/* Cards by rank, lowest first, whatever their suits (a discard of a low card
 * in any suit is as cheap as in another). */
static int append_low_first(uint32_t cards, int out[10], int n)
{
    for (int rank = 0; rank < 8 && cards; rank++)
        for (uint32_t row = cards & (RANK_ROW << rank); row; row &= row - 1) {
            out[n++] = lowest_card(row);
            cards &= ~(1u << lowest_card(row));
        }
    return n;
}

static int append_high_first(uint32_t cards, int out[10], int n)
{
    for (int rank = 7; rank >= 0 && cards; rank--)
        for (uint32_t row = cards & (RANK_ROW << rank); row; row &= row - 1) {
            out[n++] = lowest_card(row);
            cards &= ~(1u << lowest_card(row));
        }
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

int order_moves(const board *b, const rules *r, uint32_t moves, int hint,
                const uint32_t history[32], int out[10])
{
    if (b->ncards == 2)
        return order_last_to_play(b, r, moves, out);
    order_context x = {b, r, seat_to_move(b), 0};
    x.others = (b->hand[0] | b->hand[1] | b->hand[2]) & ~b->hand[x.seat];
    int leading = b->ncards == 0 && b->lead_suit < 0;
    int top_other_lead = leading ? -1 : best_other(&x, b->lead_suit);
    int score[10], n = 0;
    for (uint32_t m = moves; m; m &= m - 1) {
        int c = lowest_card(m);
        int s = c == hint ? 1 << 20
              : leading ? (int)(history[c] >> 2) + lead_score(&x, c) : follow_score(&x, c, top_other_lead);
        /* Insertion sort: at most 10 cards. */
        int i = n++;
        while (i > 0 && score[i - 1] < s) {
            score[i] = score[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        score[i] = s;
        out[i] = c;
    }
    return n;
}
