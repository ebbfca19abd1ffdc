/*
 * board.c - legal moves, equivalent cards, playing a card and the trick winner.
 */
#include <assert.h>
#include <pthread.h>
#include "board.h"

uint8_t rank_compress[256][256];
uint8_t rank_expand[256][256];
static pthread_once_t rank_tables_once = PTHREAD_ONCE_INIT;

static void fill_rank_tables(void)
{
    for (int live = 0; live < 256; live++)
        for (int held = 0; held < 256; held++) {
            int packed = 0, spread = 0, k = 0;
            for (int bit = 0; bit < 8; bit++) {
                if (!(live & (1 << bit))) continue;
                if (held & (1 << bit)) packed |= 1 << k;   /* held among live */
                if (held & (1 << k)) spread |= 1 << bit;   /* k-th live card */
                k++;
            }
            rank_compress[live][held] = (uint8_t)packed;
            rank_expand[live][held] = (uint8_t)spread;
        }
}

void rank_tables_init(void)
{
    pthread_once(&rank_tables_once, fill_rank_tables);
}

void rules_init(rules *r, const pdd_position *p)
{
    r->trump = p->trump;
    r->declarer = p->declarer;
    r->objective = p->objective;
    r->four_players = p->four_players;
    for (int s = 0; s < 3; s++) {
        int is_declarer = (s == p->declarer);
        /* Trick contract: the declarer wants more tricks. Misere and all-pass:
         * the declarer wants fewer, so the other two want him to take more. */
        r->max_seat[s] = (p->objective == PDD_TRICKS) ? is_declarer : !is_declarer;
    }
}

int card_beats(int card, int winning, int lead_suit, int trump)
{
    int suit = CARD_SUIT(card);
    if (winning == NO_CARD)
        return suit == lead_suit || suit == trump;
    int win_suit = CARD_SUIT(winning);
    if (suit == win_suit)
        return card > winning;
    /* A different suit wins only as a trump over a non-trump. */
    return suit == trump;
}

/* Set up the trick led by a talon card: seat 0 plays first. In a 4-player game
 * the talon card competes for the sitting dealer (seat NOBODY). */
static void start_talon_trick(board *b, const rules *r, int talon_card)
{
    b->first = b->to_move = 0;
    b->lead_suit = (int8_t)CARD_SUIT(talon_card);
    b->win_seat = NOBODY;
    b->win_card = r->four_players ? (int8_t)talon_card : NO_CARD;
    b->on_trick = r->four_players ? (1u << talon_card) : 0;
}

void board_from_position(board *b, const pdd_position *p, const rules *r)
{
    /* pdd_validate bounds it: the board and the table keep tricks in 8 bits. */
    assert(p->tricks_taken >= 0 && p->tricks_taken <= 10);
    for (int s = 0; s < 3; s++)
        b->hand[s] = p->hands[s];
    b->dtricks = (uint8_t)p->tricks_taken;
    b->tricks_left = (uint8_t)popcount(p->hands[p->leader]) + (p->trick_count > 0);
    b->talon_left = (int8_t)p->talon_count;
    b->talon_next = p->talon_count == 2 ? (int8_t)p->talon[1] : NO_CARD;
    b->ncards = 0;
    if (p->talon_count > 0) {
        start_talon_trick(b, r, p->talon[0]);
    } else {
        b->first = b->to_move = (int8_t)p->leader;
        b->lead_suit = -1;
        b->win_seat = NOBODY;
        b->win_card = NO_CARD;
        b->on_trick = 0;
    }
    /* Replay the cards already on the trick (the hands no longer hold them). */
    for (int i = 0; i < p->trick_count; i++) {
        int seat = seat_to_move(b);
        b->hand[seat] |= 1u << p->trick[i];
        play_card(b, r, p->trick[i]);
    }
    assert(board_consistent(b));   /* pdd_validate let only such positions through */
}

uint32_t legal_moves(const board *b, const rules *r)
{
    uint32_t h = b->hand[seat_to_move(b)];
    if (b->lead_suit < 0)
        return h;
    uint32_t follow = h & SUIT_MASK(b->lead_suit);
    if (follow)
        return follow;
    /* Void in the suit led: a trump is compulsory when one is held. */
    if (r->trump != PDD_NO_TRUMP) {
        uint32_t trumps = h & SUIT_MASK(r->trump);
        if (trumps)
            return trumps;
    }
    return h;
}

uint32_t equivalence_representatives(const board *b, uint32_t moves, int seat)
{
    /* Among the live cards of a suit, a card of ours whose next higher live
     * card is also ours is interchangeable with it: keep the top of each run.
     * From the place under each of our cards, walk down through the dead
     * cards of the suit (three doubling steps cover the seven places below
     * an ace) to the first live card: if it is ours, it is not a run's top.
     * A walk stops at a suit's lowest place, and none starts from it. */
    uint32_t dead = ~live_cards(b) & ~0x01010101u;
    uint32_t under = (moves >> 1) & ~0x80808080u;
    uint32_t pass = dead >> 1;   /* bit p: the place above p is dead (so a walk from it reaches p) */
    under |= pass & (under >> 1);
    pass &= pass >> 1;
    under |= pass & (under >> 2);
    pass &= pass >> 2;
    under |= pass & (under >> 4);
    (void)seat;
    return moves & ~under;
}

uint32_t equivalence_class(const board *b, int seat, int card)
{
    uint32_t live = live_cards(b) & SUIT_MASK(CARD_SUIT(card));
    uint32_t own = b->hand[seat];
    uint32_t cls = 1u << card;
    /* Walk up and down through live cards while they are ours. */
    for (int c = card + 1; c < (CARD_SUIT(card) + 1) * 8; c++) {
        if (!(live & (1u << c))) continue;
        if (!(own & (1u << c))) break;
        cls |= 1u << c;
    }
    for (int c = card - 1; c >= CARD_SUIT(card) * 8; c--) {
        if (!(live & (1u << c))) continue;
        if (!(own & (1u << c))) break;
        cls |= 1u << c;
    }
    return cls;
}

static void finish_trick(board *b, const rules *r)
{
    if (b->win_seat == r->declarer)
        b->dtricks++;
    b->tricks_left--;
    b->ncards = 0;
    if (b->talon_left > 0) {
        b->talon_left--;
        if (b->talon_left > 0) {
            start_talon_trick(b, r, b->talon_next);
            b->talon_next = NO_CARD;
            return;
        }
        b->first = 0;   /* after the talon tricks, first hand leads */
    } else {
        b->first = b->win_seat;
    }
    b->to_move = b->first;
    b->lead_suit = -1;
    b->win_seat = NOBODY;
    b->win_card = NO_CARD;
    b->on_trick = 0;
}

void play_card(board *b, const rules *r, int card)
{
    int seat = seat_to_move(b);
    assert(card >= 0 && card < 32 && (b->hand[seat] >> card & 1));
    assert(b->tricks_left > 0);
    b->hand[seat] &= ~(1u << card);
    b->on_trick |= 1u << card;
    if (b->lead_suit < 0)
        b->lead_suit = (int8_t)CARD_SUIT(card);
    if (card_beats(card, b->win_card, b->lead_suit, r->trump)) {
        b->win_card = (int8_t)card;
        b->win_seat = (int8_t)seat;
    }
    b->to_move = (int8_t)next_seat(seat);
    if (++b->ncards == 3)
        finish_trick(b, r);
}

uint32_t trick_marks(const board *b, const rules *r, int card)
{
    int winner = card_beats(card, b->win_card, b->lead_suit, r->trump) ? card : b->win_card;
    if (winner == NO_CARD)
        return 0;
    uint32_t same_suit = (b->on_trick | 1u << card) & SUIT_MASK(CARD_SUIT(winner));
    return (same_suit & (same_suit - 1)) ? 1u << winner : 0;   /* two cards or more */
}
