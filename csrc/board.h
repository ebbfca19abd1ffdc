/*
 * board.h - the position inside the search: hands as bit masks, the current
 * trick, legal moves, equivalent cards and the trick winner.
 *
 * The search uses copy-make: a board is small (24 bytes), so a child is a copy
 * of its parent with one card played, and nothing needs undoing.
 */
#ifndef PREFDD_BOARD_H
#define PREFDD_BOARD_H

#include <assert.h>
#include <stdint.h>
#include "prefdd.h"

#define SUIT_MASK(s) (0xFFu << ((s) * 8))
#define CARD_SUIT(c) ((c) >> 3)
#define CARD_RANK(c) ((c) & 7)
#define NO_CARD (-1)
#define NOBODY (-1)

typedef struct board {
    uint32_t hand[3];
    uint32_t on_trick;   /* cards on the current trick (they still count for equivalence) */
    int8_t first;        /* seat that plays first to the current trick */
    int8_t to_move;      /* seat to play next (kept, not derived: % 3 is slow) */
    int8_t ncards;       /* cards played to the current trick */
    int8_t lead_suit;    /* suit of the trick, -1 before the lead */
    int8_t win_seat;     /* seat winning the trick so far, NOBODY if none (or the dealer) */
    int8_t win_card;     /* card winning so far, NO_CARD if none */
    int8_t talon_left;   /* talon-led tricks still to come, the current one included */
    int8_t talon_next;   /* the talon card for the trick after the current one, or NO_CARD */
    uint8_t dtricks;     /* tricks taken by the declarer */
    uint8_t tricks_left; /* tricks not yet finished, the current one included */
} board;

/* What stays fixed during one search. */
typedef struct rules {
    int trump;          /* 0..3, or PDD_NO_TRUMP */
    int declarer;
    int objective;
    int four_players;
    /* max_seat[s] is 1 when seat s wants the declarer to take MORE tricks. */
    int max_seat[3];
} rules;

static inline int seat_to_move(const board *b) { return b->to_move; }
static inline int next_seat(int seat) { return seat == 2 ? 0 : seat + 1; }
static inline int at_trick_start(const board *b) { return b->ncards == 0 && b->talon_left == 0; }
static inline int lowest_card(uint32_t m) { return __builtin_ctz(m); }
static inline int highest_card(uint32_t m) { return 31 ^ __builtin_clz(m); }   /* = 31 - clz: GCC folds it into one BSR */
static inline int popcount(uint32_t m) { return __builtin_popcount(m); }

/* Rank tables, indexed [live cards of a suit][cards of that suit]:
 * rank_compress renumbers the cards among the live ones (lowest live card =
 * bit 0, a software PEXT); rank_expand is its inverse (PDEP). Filled once by
 * rank_tables_init (thread-safe), read-only afterwards. */
extern uint8_t rank_compress[256][256];
extern uint8_t rank_expand[256][256];
void rank_tables_init(void);

static inline unsigned suit_bits(uint32_t cards, int suit) { return (cards >> (8 * suit)) & 0xFF; }

/* Per suit (each byte), the places at or above the lowest card of x. */
static inline uint32_t at_or_above_lowest(uint32_t x)
{
    x |= (x << 1) & 0xFEFEFEFEu;
    x |= (x << 2) & 0xFCFCFCFCu;
    x |= (x << 4) & 0xF0F0F0F0u;
    return x;
}

/* Cards whose relative order still matters: those in hands, on the trick and,
 * in a 4-player all-pass, the talon card still to lead. */
static inline uint32_t live_cards(const board *b)
{
    uint32_t live = b->hand[0] | b->hand[1] | b->hand[2] | b->on_trick;
    if (b->talon_next != NO_CARD)
        live |= 1u << b->talon_next;   /* harmless in 3-player games: it is in no hand */
    return live;
}

/* The board's invariants, for assert() (debug and sanitizer builds; the
 * release build has NDEBUG): the hands and the trick's cards are disjoint,
 * the seats in range, and each seat holds one card per trick left less the
 * card it has already played to this one; at most 10 tricks in all. */
static inline int board_consistent(const board *b)
{
    uint32_t h0 = b->hand[0], h1 = b->hand[1], h2 = b->hand[2];
    if ((h0 & h1) || (h0 & h2) || (h1 & h2) || ((h0 | h1 | h2) & b->on_trick))
        return 0;
    if (b->first < 0 || b->first > 2 || b->ncards < 0 || b->ncards > 2
        || b->to_move != (b->first + b->ncards) % 3 || b->dtricks + b->tricks_left > 10)
        return 0;
    if (b->ncards > 0 && (b->lead_suit < 0 || b->lead_suit > 3))
        return 0;
    for (int k = 0, s = b->first; k < 3; k++, s = next_seat(s))
        if (popcount(b->hand[s]) != b->tricks_left - (k < b->ncards))
            return 0;
    return 1;
}

void rules_init(rules *r, const pdd_position *p);
/* Build the search board from a validated position. */
void board_from_position(board *b, const pdd_position *p, const rules *r);
uint32_t legal_moves(const board *b, const rules *r);
/* Keep one card (the highest) of each run of equivalent cards in `moves`. */
uint32_t equivalence_representatives(const board *b, uint32_t moves, int seat);
/* All cards of seat equivalent to `card` (card included). */
uint32_t equivalence_class(const board *b, int seat, int card);
/* Play `card` for the seat on move; finishes the trick when it is the third. */
void play_card(board *b, const rules *r, int card);
/* Playing `card` as the last of the trick: the winning card when its rank
 * beat another card of its suit (its rank decided the trick), else 0. The
 * search reports such cards to the table (partition search, see search.c). */
uint32_t trick_marks(const board *b, const rules *r, int card);
/* Would `card` beat `winning` (NO_CARD: nothing wins yet) in a trick of lead_suit? */
int card_beats(int card, int winning, int lead_suit, int trump);

/* The seat that takes the trick when `card` is its third card: the one
 * playing it if it beats the card winning so far, else that card's seat
 * (NOBODY when it is the sitting dealer's talon card). */
static inline int trick_taker(const board *b, const rules *r, int card)
{
    return card_beats(card, b->win_card, b->lead_suit, r->trump) ? seat_to_move(b) : b->win_seat;
}

#endif
