/*
 * quick.c - sure tricks for the seat on lead.
 */
#include "quick.h"

/* How many of the suit's top live cards the seat holds in an unbroken run. */
static int top_run(unsigned own, unsigned live)
{
    int n = popcount(live);
    unsigned missing = ~rank_compress[live][own] & ((1u << n) - 1);
    return missing ? n - 1 - highest_card(missing) : n;
}

int quick_tricks(const board *b, const rules *r)
{
    int seat = b->first;
    uint32_t own = b->hand[seat];
    uint32_t live = b->hand[0] | b->hand[1] | b->hand[2];
    int total = 0;
    for (int s = 0; s < 4; s++) {
        uint32_t suit = SUIT_MASK(s);
        if (!(own & suit) || s == r->trump)
            continue;   /* trumps are counted by master_trumps */
        int run = top_run(suit_bits(own, s), suit_bits(live, s));
        if (run && r->trump != PDD_NO_TRUMP) {
            /* A player out of the suit who holds a trump must ruff: the run
             * is safe only for as many rounds as such a player can follow.
             * Players without trumps just discard, and their discards cannot
             * matter to another suit's count (only trump holders limit it). */
            for (int o = 1; o <= 2; o++) {
                int other = (seat + o) % 3;
                if (b->hand[other] & SUIT_MASK(r->trump)) {
                    int length = popcount(b->hand[other] & suit);
                    if (length < run)
                        run = length;
                }
            }
        }
        total += run;
    }
    return total < b->tricks_left ? total : b->tricks_left;
}

/* How many cards of `mine` are above every card of `theirs` (same suit). */
static int above_all(uint32_t mine, uint32_t theirs)
{
    if (!theirs)
        return popcount(mine);
    return popcount(mine & ~((2u << highest_card(theirs)) - 1));
}

void master_trumps(const board *b, const rules *r, int *declarer_sure, int *defence_sure)
{
    *declarer_sure = *defence_sure = 0;
    if (r->trump == PDD_NO_TRUMP)
        return;
    uint32_t trumps = SUIT_MASK(r->trump);
    int d = r->declarer;
    uint32_t own = b->hand[d] & trumps;
    uint32_t left = b->hand[(d + 1) % 3] & trumps, right = b->hand[(d + 2) % 3] & trumps;
    *declarer_sure = above_all(own, left | right);
    /* The two defenders may drop their masters on the same trick, so only the
     * larger count is sure. */
    int a = above_all(left, own), c = above_all(right, own);
    *defence_sure = a > c ? a : c;
}
