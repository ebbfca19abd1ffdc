/*
 * canonical.c - the canonical naming of a position's suits: the one home of
 * the rule that picks, among positions that are the same game under other
 * suit names, one representative (the advice's split of the defence's
 * tricks is read along the solver's line in that representative, and among
 * several best discards the one whose position comes first in it is played).
 *
 * The suits are ordered by what each is in the game, whatever its name:
 * trumps first, then by who holds each of its live cards from the ace down
 * (seat 0, 1, 2, or the first, second card on the trick: 3, 4), compared as
 * sequences (a sequence that is a prefix of another comes first), and, for
 * suits alike in both, by their old index. The position's cards are then
 * renamed suit by suit into that order; ranks are kept.
 */
#include "prefdd.h"
#include "board.h"

/* A suit's place in the order as one number: not-trump above trump, then
 * the owners of its cards high to low as base-8 digits (owner + 1, so an
 * absent digit, 0, sorts a prefix first), then the old index. */
static uint64_t suit_signature(const pdd_position *p, int suit)
{
    uint64_t owners = 0;
    int digits = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int card = suit * 8 + rank, owner = -1;
        for (int i = 0; i < p->trick_count; i++)
            if (p->trick[i] == card)
                owner = 3 + i;
        for (int seat = 0; seat < 3 && owner < 0; seat++)
            if (p->hands[seat] >> card & 1)
                owner = seat;
        if (owner >= 0) {
            owners |= (uint64_t)(owner + 1) << (3 * (7 - digits));
            digits++;
        }
    }
    return (uint64_t)(suit != p->trump) << 30 | owners << 2 | (uint64_t)suit;
}

void canonical_suits(const pdd_position *p, int suit_to[4])
{
    uint64_t sig[4];
    for (int s = 0; s < 4; s++)
        sig[s] = suit_signature(p, s);
    for (int s = 0; s < 4; s++) {
        int place = 0;
        for (int t = 0; t < 4; t++)
            place += sig[t] < sig[s];
        suit_to[s] = place;
    }
}

uint32_t canonical_mask(uint32_t mask, const int suit_to[4])
{
    uint32_t out = 0;
    for (int s = 0; s < 4; s++)
        out |= (mask >> (8 * s) & 0xFFu) << (8 * suit_to[s]);
    return out;
}

int pdd_canonical_suits(const pdd_position *position, int32_t suit_to[4])
{
    if (!position || !suit_to)
        return PDD_ERR_NULL;
    if (position->trick_count < 0 || position->trick_count > 2)
        return PDD_ERR_TRICK;
    for (int i = 0; i < position->trick_count; i++)
        if (position->trick[i] < 0 || position->trick[i] > 31)
            return PDD_ERR_TRICK;
    int order[4];
    canonical_suits(position, order);
    for (int s = 0; s < 4; s++)
        suit_to[s] = order[s];
    return PDD_OK;
}
