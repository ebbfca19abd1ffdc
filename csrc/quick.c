/*
 * quick.c - sure tricks for the seat on lead.
 */
#include <assert.h>
#include <pthread.h>
#include "quick.h"

/* Per-byte helpers for four suits at once (each byte a suit; every count
 * is at most 8, so no byte's arithmetic reaches into its neighbour). */
#define BYTES_HIGH 0x80808080u
#define BYTES_LOW 0x01010101u

/* How many cards of each suit of a and of b, one count a byte: a's in
 * the low word, b's in the high one (one 64-bit SWAR popcount per byte). */
static inline uint64_t byte_counts2(uint32_t a, uint32_t b)
{
    uint64_t both = a | (uint64_t)b << 32;
    both = both - ((both >> 1) & 0x5555555555555555ull);
    both = (both & 0x3333333333333333ull) + ((both >> 2) & 0x3333333333333333ull);
    return (both + (both >> 4)) & 0x0F0F0F0F0F0F0F0Full;
}

/* How many cards of each suit, one count a byte. */
static inline uint32_t byte_counts(uint32_t cards)
{
    return (uint32_t)byte_counts2(cards, 0);
}

/* 0xFF in the bytes where count a >= count b, else 0. */
static inline uint32_t bytes_at_least(uint32_t a, uint32_t b)
{
    uint32_t high = ((a | BYTES_HIGH) - b) & BYTES_HIGH;
    return (high >> 7) * 0xFFu;
}

/* Per suit, the cards at or below the highest card of x. */
static inline uint32_t at_or_below_top(uint32_t x)
{
    x |= (x >> 1) & 0x7F7F7F7Fu;
    x |= (x >> 2) & 0x3F3F3F3Fu;
    x |= (x >> 4) & 0x0F0F0F0Fu;
    return x;
}

/* Per suit, the lowest card of x. */
static inline uint32_t lowest_each(uint32_t x)
{
    uint32_t up = at_or_above_lowest(x);
    return up & ~((up << 1) & 0xFEFEFEFEu);
}

/* Tricks `seat` can cash in side suits (all suits in no trump) once on
 * lead: the top cards he holds in an unbroken run and, when nobody can ruff
 * and neither other player holds more cards of the suit than that run, his
 * small cards of it too (the others are out of it by then). With can_ruff,
 * a run lasts only as long as every other trump holder can follow; without,
 * nobody else holds a trump any more. *counted gets the lowest card of each
 * top run.
 * The four suits at once, a byte each: his top run of a suit is his cards
 * above every other live card of it (masters). */
static int cash_runs(const board *b, const rules *r, int seat, int can_ruff, uint32_t *counted)
{
    int left = next_seat(seat), right = next_seat(left);
    uint32_t side = r->trump == PDD_NO_TRUMP ? 0xFFFFFFFFu : ~SUIT_MASK(r->trump);   /* trumps: master_trumps */
    uint32_t own = b->hand[seat] & side, others = b->hand[left] | b->hand[right];
    uint32_t masters = own & ~at_or_below_top(others);
    if (!masters)
        return 0;
    uint32_t top, run;
    if (r->trump == PDD_NO_TRUMP || !can_ruff) {
        /* Long cards: the others are out of the suit once the top is
         * cashed. Not while anyone else may hold a trump: there they could
         * only count when nobody does, and checking for that measured more
         * time than it saved. */
        uint64_t counts = byte_counts2(masters, own), others_counts = byte_counts2(b->hand[left], b->hand[right]);
        uint32_t length = (uint32_t)(counts >> 32);
        top = (uint32_t)counts;
        uint64_t both_out = ((top * 0x100000001ull) | 0x8080808080808080ull) - others_counts;
        uint32_t out = (uint32_t)both_out & (uint32_t)(both_out >> 32) & BYTES_HIGH;
        uint32_t longer = ((out & ~bytes_at_least(top, length)) >> 7) * 0xFFu;
        run = (length & longer) | (top & ~longer);
        *counted |= lowest_each(masters);
    } else {
        /* A player out of the suit who holds a trump must ruff: the run is
         * safe only for as many rounds as such a player can follow. Players
         * without trumps just discard, and their discards cannot matter to
         * another suit's count (only trump holders limit it). */
        uint32_t trumps = SUIT_MASK(r->trump);
        run = top = byte_counts(masters);
        if (b->hand[left] & trumps) {
            uint32_t follows = byte_counts(b->hand[left]), fewer = bytes_at_least(run, follows);
            run = (follows & fewer) | (run & ~fewer);
        }
        if (b->hand[right] & trumps) {
            uint32_t follows = byte_counts(b->hand[right]), fewer = bytes_at_least(run, follows);
            run = (follows & fewer) | (run & ~fewer);
        }
        /* The count rests on the suit's top `run` live cards being his:
         * mark the lowest of them (a mark stands for the cards above it
         * too). Where the run is cut short, that is not his lowest master. */
        uint32_t whole = bytes_at_least(run, top);
        *counted |= lowest_each(masters & whole);
        uint32_t short_runs = ~whole & BYTES_HIGH;
        for (; short_runs; short_runs &= short_runs - 1) {
            int s = lowest_card(short_runs) >> 3;
            unsigned m = suit_bits(masters, s);
            int keep = (run >> (8 * s)) & 0xFF;
            if (!keep)
                continue;
            for (int drop = popcount(m) - keep; drop > 0; drop--)
                m &= m - 1;
            *counted |= (uint32_t)(m & -m) << (8 * s);
        }
    }
    return (int)((run * BYTES_LOW) >> 24);
}

/* A defender on lead can put his partner on lead in a side suit whose top
 * card the partner holds, when he has a card of it and the declarer cannot
 * ruff (he follows, or holds no trump). */
static int partner_entry(const board *b, const rules *r, int partner)
{
    int leader = b->first, declarer = r->declarer;
    uint32_t live = b->hand[0] | b->hand[1] | b->hand[2];
    uint32_t declarer_trumps = r->trump != PDD_NO_TRUMP ? b->hand[declarer] & SUIT_MASK(r->trump) : 0;
    for (int s = 0; s < 4; s++) {
        uint32_t suit = SUIT_MASK(s);
        if (s == r->trump || !(b->hand[leader] & suit))
            continue;
        if (!(b->hand[partner] & (1u << highest_card(live & suit))))
            continue;
        if ((b->hand[declarer] & suit) || !declarer_trumps)
            return 1;
    }
    return 0;
}

int quick_tricks(const board *b, const rules *r, uint32_t *counted)
{
    int leader = b->first;
    *counted = 0;
    int total = cash_runs(b, r, leader, 1, counted);
    if (leader != r->declarer) {
        /* The defenders: the leader cashes his runs, then leads to the
         * partner, who cashes his (the entry trick is the first of them).
         * Both counts stay sure when the partner never has to throw one of
         * his run cards while the leader cashes: he follows every round when
         * he holds a trump (else the leader's runs were cut to his length),
         * and without trumps he has spare cards for every round. The
         * declarer only ever discards when he holds no trump, so he cannot
         * ruff later. Otherwise the larger of the two counts. */
        int partner = 3 - leader - r->declarer;
        if (partner_entry(b, r, partner)) {
            uint32_t partner_counted = 0;
            int partner_total = cash_runs(b, r, partner, 1, &partner_counted);
            int partner_trumps = r->trump != PDD_NO_TRUMP && (b->hand[partner] & SUIT_MASK(r->trump));
            int spare = popcount(b->hand[partner]) - partner_total;
            if (partner_total && (partner_trumps || spare >= total)) {
                total += partner_total;
                *counted |= partner_counted;
            } else if (partner_total > total) {
                total = partner_total;
                *counted = partner_counted;
            }
        }
    }
    return total < b->tricks_left ? total : b->tricks_left;
}

int declarer_regains(const board *b, const rules *r, uint32_t *counted)
{
    int d = r->declarer, leader = b->first;
    uint32_t live = b->hand[0] | b->hand[1] | b->hand[2];
    *counted = 0;
    if (r->trump != PDD_NO_TRUMP || leader == d)
        return 0;
    for (int s = 0; s < 4; s++) {
        uint32_t suit = live & SUIT_MASK(s);
        if ((b->hand[leader] & suit) && !(b->hand[d] & (1u << highest_card(suit))))
            return 0;     /* the leader has a suit the declarer does not top */
    }
    return cash_runs(b, r, d, 1, counted);
}

int drawing_trumps(const board *b, const rules *r, uint32_t *counted)
{
    int leader = b->first, left = next_seat(leader), right = next_seat(left);
    *counted = 0;
    if (r->trump == PDD_NO_TRUMP)
        return 0;
    uint32_t trumps = SUIT_MASK(r->trump);
    uint32_t own = b->hand[leader] & trumps;
    uint32_t theirs = (b->hand[left] | b->hand[right]) & trumps;
    if (!own || !theirs)
        return 0;       /* nothing to draw: master_trumps and quick_tricks say it all */
    uint32_t masters = own & ~((2u << highest_card(theirs)) - 1);
    int rounds = popcount(masters);
    if (popcount(b->hand[left] & trumps) > rounds || popcount(b->hand[right] & trumps) > rounds)
        return 0;
    uint32_t runs = 0;
    int total = popcount(own) + cash_runs(b, r, leader, 0, &runs);
    *counted = (masters & -masters) | runs;
    return total < b->tricks_left ? total : b->tricks_left;
}

/* The cards of `mine` above every card of `theirs` (same suit). */
static uint32_t above_all(uint32_t mine, uint32_t theirs)
{
    if (!theirs)
        return mine;
    return mine & ~((2u << highest_card(theirs)) - 1);
}

void master_trumps(const board *b, const rules *r, int *declarer_sure, int *defence_sure,
                   uint32_t *declarer_cards, uint32_t *defence_cards)
{
    *declarer_sure = *defence_sure = 0;
    *declarer_cards = *defence_cards = 0;
    if (r->trump == PDD_NO_TRUMP)
        return;
    uint32_t trumps = SUIT_MASK(r->trump);
    int d = r->declarer;
    uint32_t own = b->hand[d] & trumps;
    uint32_t left = b->hand[next_seat(d)] & trumps, right = b->hand[next_seat(next_seat(d))] & trumps;
    *declarer_cards = above_all(own, left | right);
    *declarer_sure = popcount(*declarer_cards);
    /* The two defenders may drop their masters on the same trick, so only the
     * larger count is sure. */
    uint32_t a = above_all(left, own), c = above_all(right, own);
    *defence_cards = popcount(a) >= popcount(c) ? a : c;
    *defence_sure = popcount(*defence_cards);
}

/* Misere bound helpers. Only defenders' cards can stop the declarer's card
 * from winning a trick of its suit, and they only ever lose cards, so "every
 * defender card of the suit is below (above) mine" stays true once true. */
typedef struct misere_suits {
    uint32_t dec[4], def[4];   /* the declarer's and both defenders' cards per suit */
} misere_suits;

static void split_suits(const board *b, const rules *r, misere_suits *m)
{
    int d = r->declarer;
    uint32_t defence = b->hand[next_seat(d)] | b->hand[next_seat(next_seat(d))];
    for (int s = 0; s < 4; s++) {
        m->dec[s] = b->hand[d] & SUIT_MASK(s);
        m->def[s] = defence & SUIT_MASK(s);
    }
}

/* Every card of the declarer beats every defender card of its suit. */
static int all_masters(const misere_suits *m)
{
    for (int s = 0; s < 4; s++)
        if (m->dec[s] && m->def[s] && highest_card(m->def[s]) > lowest_card(m->dec[s]))
            return 0;
    return 1;
}

/* The declarer can duck every defender lead of the suit for good: his i-th
 * lowest card is below the defenders' i-th lowest, for every i they both
 * reach. Against a lead x he plays his highest card under x (his lowest is
 * under theirs, so one exists), and when void elsewhere he discards his top
 * card of a suit; both moves keep the pairing, as does any defender card
 * leaving. Defenders never lead a suit they lack, so it may be his alone. */
static int duckable_by_pairs(uint32_t dec, uint32_t def)
{
    while (dec && def) {
        if (lowest_card(dec) > lowest_card(def))
            return 0;
        dec &= dec - 1;
        def &= def - 1;
    }
    return 1;
}

/* duckable_by_pairs of every pair of one suit's 8-bit masks: bit (def & 7)
 * of duck_table[dec][def >> 3], filled once (quick_tables_init). A look-up
 * instead of the loop, since the misere bounds and the defenders' lead
 * ordering both ask at every trick start. */
static uint8_t duck_table[256][32];
static pthread_once_t duck_table_once = PTHREAD_ONCE_INIT;

static void fill_duck_table(void)
{
    for (unsigned dec = 0; dec < 256; dec++)
        for (unsigned def = 0; def < 256; def++)
            if (duckable_by_pairs(dec, def))
                duck_table[dec][def >> 3] |= (uint8_t)(1u << (def & 7));
}

void quick_tables_init(void)
{
    pthread_once(&duck_table_once, fill_duck_table);
}

int misere_duckable(uint32_t dec, uint32_t def)
{
    int shift = dec ? lowest_card(dec) & ~7 : 0;     /* the suit's byte */
    unsigned d = (dec >> shift) & 0xFF, e = (def >> shift) & 0xFF;
    return (duck_table[d][e >> 3] >> (e & 7)) & 1;
}

/* duckable_by_pairs of two 8-bit masks of one suit (bits 0..7). */
static int pairs_below(unsigned low, unsigned high)
{
    return (duck_table[low][high >> 3] >> (high & 7)) & 1;
}

/* The suits (bit s) in which defender o cannot play under every card the
 * declarer d leads of it: duckable_by_pairs with the roles swapped fails
 * (the defender's i-th lowest card is above the declarer's i-th lowest, for
 * some i both reach). hand[] need not be the board's. */
static unsigned unpaired_suits(const uint32_t hand[3], int o, int d)
{
    unsigned failed = 0;
    for (int s = 0; s < 4; s++)
        if (!pairs_below(suit_bits(hand[o], s), suit_bits(hand[d], s)))
            failed |= 1u << s;
    return failed;
}

/* The declarer on lead takes every trick left exactly when neither defender
 * is unpaired in any suit. Then each defender answers the declarer's j-th
 * lowest card of a suit with his own j-th lowest (or, shorter, his highest;
 * void, he discards his top card of a suit), which keeps the pairing and
 * takes no trick. Where a defender is unpaired at place i of a suit, the
 * declarer leads the suit upwards: that defender must follow each time
 * (nobody else is ever on lead to let him discard) and holds fewer than i
 * cards under the declarer's i-th, so he overtakes one of the first i
 * leads. */
static int defenders_keep_lead(const uint32_t hand[3], int d)
{
    return !unpaired_suits(hand, next_seat(d), d) && !unpaired_suits(hand, next_seat(next_seat(d)), d);
}

/* The partner, void in the suit led, discards so that he stays paired in
 * every suit: his top card of any suit when he is paired in all (removing a
 * top card keeps a pairing), else a card of the one suit he is not. */
static int partner_discard_pairs(const board *b, int partner, int d, unsigned unpaired)
{
    if (!unpaired)
        return 1;
    int t = lowest_card(unpaired);
    unsigned own = suit_bits(b->hand[partner], t), dec = suit_bits(b->hand[d], t);
    for (unsigned cards = own; cards; cards &= cards - 1)
        if (pairs_below(own & ~(cards & -cards), dec))
            return 1;
    return 0;
}

/* A defender on lead makes the declarer take every trick left exactly when
 * some first trick makes him win it and leaves him in the position of
 * defenders_keep_lead: the lead and the partner's card under all the
 * declarer's cards of a suit he holds (else he plays under one of them),
 * the partner following or discarding. The declarer third to play plays
 * his top card of the suit (any other choice leaves him cards at least as
 * high, place by place, which only helps the defenders' pairing); second to
 * play, every card he may play must have an answer. The trick changes one
 * suit of the leader's and the declarer's and one of the partner's, so a
 * defender unpaired in two suits stays so, and only the changed suits are
 * tested again. */
static int force_given_pairing(const board *b, int d, unsigned leader_unpaired, unsigned partner_unpaired);

static int defenders_force_every_trick(const board *b, int d)
{
    int leader = b->first, partner = 3 - leader - d;
    return force_given_pairing(b, d, unpaired_suits(b->hand, leader, d), unpaired_suits(b->hand, partner, d));
}

/* defenders_force_every_trick, the leader's and the partner's
 * unpaired_suits known. */
static int force_given_pairing(const board *b, int d, unsigned leader_unpaired, unsigned partner_unpaired)
{
    int leader = b->first, partner = 3 - leader - d;
    int declarer_second = next_seat(leader) == d;
    if ((leader_unpaired & (leader_unpaired - 1)) || (partner_unpaired & (partner_unpaired - 1)))
        return 0;
    /* The suit led must be the leader's unpaired one, if any, and both
     * defenders need a card under the declarer's lowest of it (following)
     * or the partner a discard that keeps him paired. */
    for (unsigned suits = leader_unpaired ? leader_unpaired : 0xFu; suits; suits &= suits - 1) {
        int s = lowest_card(suits);
        unsigned dec = suit_bits(b->hand[d], s), own = suit_bits(b->hand[leader], s), under = (dec & -dec) - 1;
        if (!dec || !(own & under))
            continue;
        unsigned follows = suit_bits(b->hand[partner], s);
        if (follows ? (partner_unpaired & ~(1u << s)) || !(follows & under)
                    : !partner_discard_pairs(b, partner, d, partner_unpaired))
            continue;
        int discards = !follows;
        for (unsigned leads = own & under; leads; leads &= leads - 1) {
            unsigned own_left = own & ~(leads & -leads);
            /* Second to play he may play any card; third, his top one. */
            unsigned choices = declarer_second ? dec : 1u << highest_card(dec);
            int answered = 1;
            for (unsigned cards = choices; cards && answered; cards &= cards - 1) {
                unsigned card = cards & -cards, dec_left = dec & ~card;
                int leader_paired = pairs_below(own_left, dec_left);
                answered = leader_paired && discards;
                unsigned answers = leader_paired ? follows & (declarer_second ? card - 1 : under) : 0;
                for (; answers && !answered; answers &= answers - 1)
                    answered = pairs_below(follows & ~(answers & -answers), dec_left);
            }
            if (answered)
                return 1;
        }
    }
    return 0;
}

/* Has the declarer, in some suit, a card (his top one when `top`, else his
 * lowest) under every card a defender holds of it? Leading it, that defender
 * must overtake: a sure exit. */
static int declarer_exit(const board *b, int d, int top)
{
    for (int s = 0; s < 4; s++) {
        uint32_t own = b->hand[d] & SUIT_MASK(s);
        if (!own)
            continue;
        int card = top ? highest_card(own) : lowest_card(own);
        for (int o = next_seat(d); o != d; o = next_seat(o)) {
            uint32_t theirs = b->hand[o] & SUIT_MASK(s);
            if (theirs && lowest_card(theirs) > card)
                return 1;
        }
    }
    return 0;
}

/* The declarer never wins another trick: every suit is duckable and he is
 * not on lead, or on lead with an exit that keeps them so: his top card of a
 * suit, since removing a top card keeps the pairing (after the exit he never
 * wins, so never leads again). */
static int declarer_safe(const board *b, const misere_suits *m, int d)
{
    /* The suit's byte known: pairs_below, not misere_duckable (measured:
     * random misere -0.5 % instructions). */
    for (int s = 0; s < 4; s++)
        if (!pairs_below(suit_bits(m->dec[s], s), suit_bits(m->def[s], s)))
            return 0;
    return b->first != d || declarer_exit(b, d, 1);
}

/* The defender on lead can force the declarer to win this trick: he leads
 * under all the declarer's cards of a suit while his partner can stay under
 * the declarer's lowest (a lower card, or none of the suit to discard).
 * hand[] need not be the board's. */
static int can_force(const uint32_t hand[3], int leader, int d)
{
    int partner = 3 - leader - d;
    for (int s = 0; s < 4; s++) {
        uint32_t own = hand[leader] & SUIT_MASK(s), dec = hand[d] & SUIT_MASK(s);
        if (!own || !dec || lowest_card(own) > lowest_card(dec))
            continue;
        uint32_t partner_cards = hand[partner] & SUIT_MASK(s);
        if (!partner_cards || lowest_card(partner_cards) < lowest_card(dec))
            return 1;
    }
    return 0;
}

static int defender_can_force(const board *b, int d)
{
    return can_force(b->hand, b->first, d);
}

/* The top card of each suit of the hand. */
static uint32_t suit_tops(uint32_t hand)
{
    uint32_t tops = 0;
    for (int t = 0; t < 4; t++)
        if (hand & SUIT_MASK(t))
            tops |= 1u << highest_card(hand & SUIT_MASK(t));
    return tops;
}

/* A defender's answers to the declarer's lead of suit s tried by
 * caught_after_exit: following, his highest and his lowest card of it;
 * void, his top card of each suit (a discard). */
static uint32_t answers_tried(uint32_t hand, int s)
{
    uint32_t own = hand & SUIT_MASK(s);
    return own ? 1u << highest_card(own) | (own & -own) : suit_tops(hand);
}

/* The declarer on lead is caught when each card of his either wins the
 * trick (each defender holding its suit can stay under it) or, an exit,
 * has an answer of the defenders after which the trick's winner can force
 * him at once (can_force). Only some of their answers are tried
 * (answers_tried): enough to prove it, and few. Measured (PDD_OPT_EXIT_LOOKAHEAD,
 * asked for "one more?" only): misere best discards -7 % to -11 % nodes,
 * exact misere -2.6 %. The same look past a defender's lead that cannot
 * force him (the leader's lowest and highest card of each suit, the
 * partner's answers_tried, every card of the declarer's) gained 0.4 % on
 * exact misere and cost 1.7 % on the deal's table: not kept. */
static int caught_after_exit(const board *b, int d)
{
    int left = next_seat(d), right = next_seat(left);
    for (int s = 0; s < 4; s++) {
        uint32_t l = b->hand[left] & SUIT_MASK(s), r = b->hand[right] & SUIT_MASK(s);
        uint32_t left_answers = answers_tried(b->hand[left], s), right_answers = answers_tried(b->hand[right], s);
        for (uint32_t cards = b->hand[d] & SUIT_MASK(s); cards; cards &= cards - 1) {
            int c = lowest_card(cards);
            if (!((l && lowest_card(l) > c) || (r && lowest_card(r) > c)))
                continue;    /* both can stay under it: he wins */
            int answered = 0;
            for (uint32_t x = left_answers; x && !answered; x &= x - 1)
                for (uint32_t y = right_answers; y && !answered; y &= y - 1) {
                    int xc = lowest_card(x), yc = lowest_card(y);
                    int xs = CARD_SUIT(xc) == s ? xc : -1, ys = CARD_SUIT(yc) == s ? yc : -1;
                    assert(xs > c || ys > c);    /* a defender whose cards of s are all above c beats it */
                    uint32_t hand[3];
                    hand[d] = b->hand[d] & ~(1u << c);
                    hand[left] = b->hand[left] & ~(x & -x);
                    hand[right] = b->hand[right] & ~(y & -y);
                    answered = can_force(hand, xs > ys ? left : right, d);
                }
            if (!answered)
                return 0;
        }
    }
    return 1;
}

/* "All but one?" (the question one trick short of every trick left), a
 * defender on lead (PDD_OPT_ALL_BUT_ONE): the declarer escapes, taking at
 * most tricks left - 2, when every first trick of the defenders has an
 * answer of his after which either he lost the trick and they cannot make
 * him take every trick left (defenders_force_every_trick, exact), or he won
 * it and never wins another (declarer_safe's test; that needs three tricks
 * left, as he must lose two of the rest) or, with PDD_OPT_EXIT_ESCAPE, has
 * a sure exit after which he cannot be made to take every trick left
 * (exit_escapes). A proof of "no" only: when it
 * fails the search goes on. The leader's leads are tried one per class of
 * equivalent cards (equivalence_representatives at the trick start: cards
 * adjacent among the cards out compare alike with every other card, so the
 * tests after the trick give the same answers), the partner's cards as in
 * third_answers and second_answers, the declarer's answers only a few,
 * which can only miss an escape: losing, his highest card under the trick's
 * top card (it leaves him his lowest cards, which keep the defenders
 * unpaired) or, void, the top card of a suit; winning, his top card of the
 * suit. A trick changes at most three suits, so the defenders' pairing is
 * tested again only there: one of them unpaired in two suits cannot force
 * him (the first test of defenders_force_every_trick), the answer of most
 * tricks tried.
 *
 * The position after the trick is built in lost_escapes and won_escapes,
 * kept out of line, as a copy of the board: GCC 12.2 at -O3 builds the
 * other natural shape (the hands after the trick in a local array, the
 * pairing tests inlined into it) wrongly, its answers differing from -O0
 * and from -O3 -fno-tree-pre. This shape gives the same answers and node
 * counts in all three builds. */
typedef struct escape_start {
    const board *b;
    int d, leader, partner;
    unsigned leader_unpaired, partner_unpaired;   /* unpaired_suits at the trick start */
    int options;                                  /* the PDD_OPT_* flags */
} escape_start;

/* More than one suit in the mask. */
static int several(unsigned suits)
{
    return (suits & (suits - 1)) != 0;
}

/* A defender's unpaired_suits after a trick that touched the suits
 * `touched` (his hand and the declarer's after it): the others as before,
 * the touched ones tested again. */
static unsigned unpaired_after(unsigned before, unsigned touched, uint32_t hand, uint32_t declarer_hand)
{
    unsigned unpaired = before & ~touched;
    for (unsigned suits = touched; suits; suits &= suits - 1) {
        int t = lowest_card(suits);
        if (!pairs_below(suit_bits(hand, t), suit_bits(declarer_hand, t)))
            unpaired |= 1u << t;
    }
    return unpaired;
}

/* After a first trick the defenders won (`winner` on lead): the declarer
 * does not take every trick left. */
static __attribute__((noinline)) int lost_escapes(const escape_start *e, int lead, int follow, int card, int winner)
{
    const board *b = e->b;
    int d = e->d;
    uint32_t leader_hand = b->hand[e->leader] & ~(1u << lead), partner_hand = b->hand[e->partner] & ~(1u << follow);
    uint32_t declarer_hand = b->hand[d] & ~(1u << card);
    unsigned touched = 1u << CARD_SUIT(lead) | 1u << CARD_SUIT(follow) | 1u << CARD_SUIT(card);
    if (several(e->leader_unpaired & ~touched) || several(e->partner_unpaired & ~touched))
        return 1;
    unsigned leader_unpaired = unpaired_after(e->leader_unpaired, touched, leader_hand, declarer_hand);
    unsigned partner_unpaired = unpaired_after(e->partner_unpaired, touched, partner_hand, declarer_hand);
    if (several(leader_unpaired) || several(partner_unpaired))
        return 1;
    board next = *b;
    next.hand[e->leader] = leader_hand;
    next.hand[e->partner] = partner_hand;
    next.hand[d] = declarer_hand;
    next.first = (int8_t)winner;
    return winner == e->leader ? !force_given_pairing(&next, d, leader_unpaired, partner_unpaired)
                               : !force_given_pairing(&next, d, partner_unpaired, leader_unpaired);
}

/* The highest of `cards` under `card`, as a mask (0: none). */
static uint32_t highest_under(uint32_t cards, int card)
{
    cards &= (1u << card) - 1;
    return cards ? 1u << highest_card(cards) : 0;
}

/* The declarer on lead (after a first trick he won) exits with his card c,
 * the left and right defenders answering x and y (xs, ys: their cards of
 * the suit, -1 if a discard). unpaired_suits of both before the trick
 * known. Does the trick's winner fail to make him take every trick left
 * after it (defenders_force_every_trick, exact)? Out of line and on a copy
 * of the board, like lost_escapes. */
static __attribute__((noinline)) int exit_lost_escapes(const board *b, int d, int c, int x, int y,
                                                       unsigned left_unpaired, unsigned right_unpaired)
{
    int left = next_seat(d), right = next_seat(left), s = CARD_SUIT(c);
    int xs = CARD_SUIT(x) == s ? x : -1, ys = CARD_SUIT(y) == s ? y : -1;
    assert(xs > c || ys > c);    /* a sure exit: he loses it */
    board next = *b;
    next.hand[d] &= ~(1u << c);
    next.hand[left] &= ~(1u << x);
    next.hand[right] &= ~(1u << y);
    unsigned touched = 1u << s | 1u << CARD_SUIT(x) | 1u << CARD_SUIT(y);
    left_unpaired = unpaired_after(left_unpaired, touched, next.hand[left], next.hand[d]);
    right_unpaired = unpaired_after(right_unpaired, touched, next.hand[right], next.hand[d]);
    if (several(left_unpaired) || several(right_unpaired))
        return 1;
    if (xs > ys) {
        next.first = (int8_t)left;
        return !force_given_pairing(&next, d, left_unpaired, right_unpaired);
    }
    next.first = (int8_t)right;
    return !force_given_pairing(&next, d, right_unpaired, left_unpaired);
}

/* The declarer on lead (after a first trick he won) exits: he leads a card
 * that some defender of its suit must overtake, and whatever they play the
 * trick's winner cannot make him take every trick left after it. Then he
 * loses that trick and one more (PDD_OPT_EXIT_ESCAPE; measured: random
 * misere -25 % nodes and -19 % instructions, the deal's table's misere
 * best discards -11 % nodes, -7.7 % instructions). Each of his sure exits
 * is tried; of the
 * defenders' answers, by the dominance of third_answers (their lower cards
 * only help them), every card of the right defender's and, against each,
 * the left one's highest card and his highest under it (void: the top card
 * of each suit, for either). */
static int exit_escapes(const board *b, int d)
{
    int left = next_seat(d), right = next_seat(left);
    unsigned left_unpaired = unpaired_suits(b->hand, left, d), right_unpaired = unpaired_suits(b->hand, right, d);
    for (int s = 0; s < 4; s++) {
        uint32_t l = b->hand[left] & SUIT_MASK(s), r = b->hand[right] & SUIT_MASK(s);
        uint32_t ys = r ? r : suit_tops(b->hand[right]);
        for (uint32_t cards = b->hand[d] & SUIT_MASK(s); cards; cards &= cards - 1) {
            int c = lowest_card(cards);
            if (!((l && lowest_card(l) > c) || (r && lowest_card(r) > c)))
                continue;    /* not a sure exit */
            int escapes = 1;
            for (uint32_t y = ys; y && escapes; y &= y - 1) {
                int yc = lowest_card(y);
                uint32_t xs = !l ? suit_tops(b->hand[left])
                                 : 1u << highest_card(l) | (r ? highest_under(l, yc) : 0);
                for (uint32_t x = xs; x && escapes; x &= x - 1)
                    escapes = exit_lost_escapes(b, d, c, lowest_card(x), yc, left_unpaired, right_unpaired);
            }
            if (escapes)
                return 1;
        }
    }
    return 0;
}

/* After a first trick the declarer won (on lead): every suit duckable and
 * an exit by his top card of a suit, so he never wins another trick; or,
 * with PDD_OPT_EXIT_ESCAPE (four tricks left or more at the first trick's
 * start), a sure exit after which he loses one more (exit_escapes). */
static __attribute__((noinline)) int won_escapes(const escape_start *e, int lead, int follow, int card)
{
    board next = *e->b;
    int d = e->d;
    next.hand[e->leader] &= ~(1u << lead);
    next.hand[e->partner] &= ~(1u << follow);
    next.hand[d] &= ~(1u << card);
    next.first = (int8_t)d;
    uint32_t defence = next.hand[e->leader] | next.hand[e->partner];
    int safe = 1;
    for (int s = 0; s < 4 && safe; s++)
        safe = pairs_below(suit_bits(next.hand[d], s), suit_bits(defence, s));
    if (safe && declarer_exit(&next, d, 1))
        return 1;
    if (!(e->options & PDD_OPT_EXIT_ESCAPE) || e->b->tricks_left < 4)
        return 0;
    /* exit_escapes is not monotone in the partner's ranks: a higher card he
     * keeps may win the exit and give the lead to the defender who forces.
     * So every lower card of his in the suit of `follow` is tried too (with
     * any of them the declarer still wins this trick). */
    uint32_t partner = e->b->hand[e->partner];
    uint32_t lower = partner & SUIT_MASK(CARD_SUIT(follow)) & ((1u << follow) - 1);
    for (uint32_t f = 1u << follow | lower; f; f &= f - 1) {
        next.hand[e->partner] = partner & ~(f & -f);
        if (!exit_escapes(&next, d))
            return 0;
    }
    return 1;
}

/* After `lead` and the declarer's `card`, the leader is unpaired in two
 * suits whatever the partner plays (his card changes neither's cards of
 * its suit): every such trick the defenders win escapes (lost_escapes). */
static int leader_stays_unpaired(const escape_start *e, int lead, int card)
{
    uint32_t leader_hand = e->b->hand[e->leader] & ~(1u << lead), declarer_hand = e->b->hand[e->d] & ~(1u << card);
    unsigned touched = 1u << CARD_SUIT(lead) | 1u << CARD_SUIT(card);
    return several(unpaired_after(e->leader_unpaired, touched, leader_hand, declarer_hand));
}

/* The partner's cards tried. A defender's lower cards only help the
 * defenders to make the declarer take every trick (each trick he took he
 * still takes, their cards mapped place by place), and only hurt his
 * "never wins another" test (duckable suits, an exit: both need their
 * cards high). So of the partner's cards that leave the same trick winner
 * and the same answer of the declarer's, the highest is the hardest for
 * him: it leaves the partner his lowest cards. Void, that is the top card
 * of each suit. This does not hold for the sure exit of exit_escapes,
 * which won_escapes therefore asks with the partner's lower cards too. */

/* The declarer third to play: under the lead the trick's top card is the
 * lead's; above it, the partner's, and the declarer's answer the same for
 * the partner's cards with no card of the declarer's between them. */
static uint32_t third_answers(const escape_start *e, int lead)
{
    int s = CARD_SUIT(lead);
    uint32_t follows = e->b->hand[e->partner] & SUIT_MASK(s);
    if (!follows)
        return suit_tops(e->b->hand[e->partner]);
    uint32_t tried = highest_under(follows, lead), both = follows | (e->b->hand[e->d] & SUIT_MASK(s));
    for (uint32_t above = follows & ~((2u << lead) - 1); above; above &= above - 1) {
        int card = lowest_card(above);
        uint32_t higher = both & ~((2u << card) - 1);
        if (!higher || !(follows & higher & -higher))
            tried |= 1u << card;
    }
    return tried;
}

/* The declarer second to play his `card`: the partner under the trick's
 * top card so far or above it. */
static uint32_t second_answers(const escape_start *e, int lead, int card)
{
    int s = CARD_SUIT(lead);
    uint32_t hand = e->b->hand[e->partner], follows = hand & SUIT_MASK(s);
    if (!follows)
        return suit_tops(hand);
    int top = CARD_SUIT(card) == s && card > lead ? card : lead;
    uint32_t tried = highest_under(follows, top);
    if (highest_card(follows) > top)
        tried |= 1u << highest_card(follows);
    return tried;
}

/* The declarer third to play, the lead and the partner's card known: has he
 * an answer that escapes? */
static int third_escapes(const escape_start *e, int lead, int follow)
{
    const board *b = e->b;
    int s = CARD_SUIT(lead);
    int top = CARD_SUIT(follow) == s && follow > lead ? follow : lead;
    int winner = top == lead ? e->leader : e->partner;
    uint32_t own = b->hand[e->d] & SUIT_MASK(s);
    if (!own) {   /* void: a discard, his top card of a suit */
        for (uint32_t tops = suit_tops(b->hand[e->d]); tops; tops &= tops - 1)
            if (lost_escapes(e, lead, follow, lowest_card(tops), winner))
                return 1;
        return 0;
    }
    uint32_t under = own & ((1u << top) - 1);
    if (under && lost_escapes(e, lead, follow, highest_card(under), winner))
        return 1;
    return b->tricks_left >= 3 && highest_card(own) > top && won_escapes(e, lead, follow, highest_card(own));
}

/* The declarer second to play his `card` to `lead`: does it escape whatever
 * the partner plays? */
static int second_card_escapes(const escape_start *e, int lead, int card)
{
    int s = CARD_SUIT(lead);
    if (!(CARD_SUIT(card) == s && card > lead) && leader_stays_unpaired(e, lead, card))
        return 1;   /* he loses the trick whatever the partner plays */
    for (uint32_t answers = second_answers(e, lead, card); answers; answers &= answers - 1) {
        int follow = lowest_card(answers);
        int top = CARD_SUIT(follow) == s && follow > lead ? follow : lead;
        int ok = CARD_SUIT(card) == s && card > top
                     ? e->b->tricks_left >= 3 && won_escapes(e, lead, follow, card)
                     : lost_escapes(e, lead, follow, card, top == lead ? e->leader : e->partner);
        if (!ok)
            return 0;
    }
    return 1;
}

/* The declarer second to play, the lead known: has he an answer that
 * escapes whatever the partner plays? */
static int second_escapes(const escape_start *e, int lead)
{
    int s = CARD_SUIT(lead);
    uint32_t hand = e->b->hand[e->d], own = hand & SUIT_MASK(s);
    if (!own) {   /* void: a discard, his top card of a suit */
        for (uint32_t tops = suit_tops(hand); tops; tops &= tops - 1)
            if (second_card_escapes(e, lead, lowest_card(tops)))
                return 1;
        return 0;
    }
    uint32_t under = own & ((1u << lead) - 1);
    if (under && second_card_escapes(e, lead, highest_card(under)))
        return 1;
    return highest_card(own) > lead && second_card_escapes(e, lead, highest_card(own));
}

/* The declarer third to play, the lead known: an escape against each card
 * of the partner's tried. */
static int third_all_escape(const escape_start *e, int lead)
{
    /* Where the lead stays the trick's top card, his answer does not
     * depend on the partner's card: one test for all of them. */
    int s = CARD_SUIT(lead);
    uint32_t hand = e->b->hand[e->d], own = hand & SUIT_MASK(s), under = own & ((1u << lead) - 1);
    int under_lead = 0;
    if (under)
        under_lead = leader_stays_unpaired(e, lead, highest_card(under));
    else if (!own) {   /* void: a discard, his top card of a suit */
        for (uint32_t tops = suit_tops(hand); tops && !under_lead; tops &= tops - 1)
            under_lead = leader_stays_unpaired(e, lead, lowest_card(tops));
        if (under_lead)
            return 1;
    }
    for (uint32_t answers = third_answers(e, lead); answers; answers &= answers - 1) {
        int follow = lowest_card(answers);
        if (under_lead && !(CARD_SUIT(follow) == s && follow > lead))
            continue;
        if (!third_escapes(e, lead, follow))
            return 0;
    }
    return 1;
}

static int declarer_escapes(const board *b, int d, int options)
{
    escape_start e;
    e.options = options;
    e.b = b;
    e.d = d;
    e.leader = b->first;
    e.partner = 3 - b->first - d;
    e.leader_unpaired = unpaired_suits(b->hand, e.leader, d);
    e.partner_unpaired = unpaired_suits(b->hand, e.partner, d);
    int second = next_seat(e.leader) == d;
    for (uint32_t leads = equivalence_representatives(b, b->hand[e.leader], e.leader); leads; leads &= leads - 1)
        if (!(second ? second_escapes(&e, lowest_card(leads)) : third_all_escape(&e, lowest_card(leads))))
            return 0;
    return 1;
}

/* Does the leader hold a card of a suit in which the declarer has cards? */
static int leader_meets_declarer(const misere_suits *m, const board *b)
{
    for (int s = 0; s < 4; s++)
        if (m->dec[s] && (b->hand[b->first] & SUIT_MASK(s)))
            return 1;
    return 0;
}

void misere_bounds(const board *b, const rules *r, int target_tricks, int options, int *lower, int *upper)
{
    int d = r->declarer, n = b->tricks_left;
    misere_suits m;
    *lower = 0;
    *upper = n;
    if (r->trump != PDD_NO_TRUMP)
        return;
    split_suits(b, r, &m);
    /* Only masters: each lead of his own wins and keeps him on lead; a
     * defender's lead of one of his suits makes him win and then lead. With
     * PDD_OPT_EVERY_TRICK the declarer on lead is asked the exact question
     * instead, whatever the target (eight look-ups, as cheap as the
     * masters; measured: misere best discards -2 % to -3 % nodes, exact
     * misere -1.3 %). */
    int on_lead = b->first == d;
    if (on_lead && (options & PDD_OPT_EVERY_TRICK) ? defenders_keep_lead(b->hand, d)
                                                   : all_masters(&m) && (on_lead || leader_meets_declarer(&m, b))) {
        *lower = n;
        return;
    }
    if (declarer_safe(b, &m, d)) {
        *upper = 0;
        return;
    }
    /* "Every trick left?" has an exact answer at a trick start
     * (PDD_OPT_EVERY_TRICK). Measured: exact misere -24 % nodes, its
     * best discards -10 %. */
    if ((options & PDD_OPT_EVERY_TRICK) && target_tricks >= n) {
        if (!on_lead && defenders_force_every_trick(b, d))   /* on lead he was asked above */
            *lower = n;
        else
            *upper = n - 1;
        return;
    }
    /* The trick about to start is settled already: either the declarer must
     * win it, or he can surely lose it. Such bounds (1 or n - 1) only answer
     * questions at the ends, so they are not worked out for the others. */
    if (target_tricks > 1 && target_tricks < n)
        return;
    if (b->first == d ? !declarer_exit(b, d, 0)
                          || ((options & PDD_OPT_EXIT_LOOKAHEAD) && target_tricks <= 1 && caught_after_exit(b, d))
                      : defender_can_force(b, d))
        *lower = 1;
    else
        *upper = n - 1;
}

/* With fewer tricks left the search below the node costs less than the
 * test. Measured (instructions, callgrind), the test from 3, 4, 5 tricks
 * left: 200 random misere deals 2,436 M, 2,430 M, 2,448 M (2,552 M
 * without it), the deal's table's first 40 misere best discards 1,928 M,
 * 1,921 M, 1,928 M (1,979 M). */
enum { ESCAPE_MIN_TRICKS = 4 };

int misere_escapes(const board *b, const rules *r, int target_tricks, int options)
{
    int d = r->declarer, n = b->tricks_left;
    if (r->trump != PDD_NO_TRUMP || target_tricks != n - 1 || n < ESCAPE_MIN_TRICKS)
        return 0;
    /* The declarer on lead escapes by a sure exit after which they cannot
     * make him take every trick left (measured: the deal's table's misere
     * best discards -0.9 % nodes, -0.35 % instructions; random misere
     * -1.7 % / -0.7 %). */
    if (b->first == d)
        return (options & PDD_OPT_EXIT_ESCAPE) && exit_escapes(b, d);
    return declarer_escapes(b, d, options);
}
