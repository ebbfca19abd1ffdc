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

/* Highest live card of a suit held by anyone but seat, or -1. */
static int best_other(const board *b, int seat, int suit)
{
    uint32_t other = (b->hand[0] | b->hand[1] | b->hand[2]) & ~b->hand[seat] & SUIT_MASK(suit);
    return other ? highest_card(other) : -1;
}

static int lead_score(const board *b, const rules *r, int seat, int card)
{
    int suit = CARD_SUIT(card), rank = CARD_RANK(card);
    uint32_t live = b->hand[0] | b->hand[1] | b->hand[2];
    int top_other = best_other(b, seat, suit);
    int declarer = r->declarer;
    if (r->objective == PDD_TRICKS) {
        int score = 0;
        if (card > top_other)
            score += 60;                       /* a winner: cash it */
        if (suit == r->trump && seat == declarer)
            score += 20;                       /* draw trumps */
        if (seat != declarer && suit != r->trump) {
            /* Defenders: a suit the declarer cannot win cheaply. */
            uint32_t dec = b->hand[declarer] & SUIT_MASK(suit);
            if (!dec) score -= 10;
        }
        return score + (card > top_other ? rank : -rank);
    }
    /* Misere. */
    uint32_t dec = b->hand[declarer] & SUIT_MASK(suit);
    if (seat == declarer) {
        /* A safe exit: a low card under some opponent's card of the suit. */
        uint32_t higher_other = live & ~b->hand[seat] & SUIT_MASK(suit) & ~((2u << card) - 1);
        return (higher_other ? 50 + popcount(higher_other) : 0) - rank;
    }
    /* Defenders: lead low where the declarer has no card under ours. */
    if (!dec)
        return -20 - rank;
    uint32_t dec_lower = dec & ((1u << card) - 1);
    return (dec_lower ? 0 : 40) + popcount(dec) - rank;
}

static int follow_score(const board *b, const rules *r, int seat, int card)
{
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
    int third = (seat + 1) % 3;
    if (good_winner(r, seat, b->win_seat) && !wins)
        return 50 + (misere ? rank : -rank);   /* leave it as it is */
    if (!misere) {
        if (wins) {
            int top_third = best_other(b, seat, CARD_SUIT(card));
            int safe = card > top_third || !(b->hand[third] & SUIT_MASK(b->lead_suit));
            return (safe ? 80 : 30) - rank;
        }
        return -rank;
    }
    /* Misere, second to play and the current winner is bad for us. */
    if (seat == r->declarer)
        return wins ? -rank : 60 + rank;       /* the highest card that ducks */
    return wins ? rank : 20 - rank;
}

int order_moves(const board *b, const rules *r, uint32_t moves, int hint, int out[10])
{
    int seat = seat_to_move(b);
    int score[10], n = 0;
    for (uint32_t m = moves; m; m &= m - 1) {
        int c = lowest_card(m);
        int s = b->ncards == 0 && b->lead_suit < 0 ? lead_score(b, r, seat, c)
                                                   : follow_score(b, r, seat, c);
        if (c == hint)
            s = 1 << 20;
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
