/*
 * sample.c - a sampled layout's deal, drawn exactly as the Python side
 * defines it (solver/advice/layouts.py): CPython's random.Random seeded with
 * an integer, then random.shuffle of the free cards, dealt in order into
 * the parts.
 *
 * The generator is the Mersenne Twister MT19937 with the reference seeding
 * by an array of 32-bit words (init_by_array), which is what CPython's
 * random.seed does with an integer (its absolute value's words, least
 * significant first); random.getrandbits(k), k <= 32, is the top k bits of
 * one 32-bit output, and random.shuffle is Fisher-Yates from the end, each
 * index below i + 1 drawn by rejection from getrandbits(bit length of i + 1).
 * The tests compare the deals with CPython's. Measured: a sampled layout's
 * deal took 11 us in Python, most of it seeding the generator; here the
 * seeding's fixed first step (the state for 19650218) is made once, and the
 * words are twisted as the shuffle needs them.
 */
#include <pthread.h>
#include <string.h>
#include "prefdd.h"

#define MT_N 624
#define MT_M 397

typedef struct mt_state {
    uint32_t mt[MT_N];
    int next;      /* the word the next output tempers */
    int twisted;   /* words of the current round already twisted */
} mt_state;

/* The reference init_genrand(19650218), every seeding's starting point. */
static uint32_t mt_base[MT_N];
static pthread_once_t mt_base_once = PTHREAD_ONCE_INIT;

static void mt_base_fill(void)
{
    mt_base[0] = 19650218u;
    for (int i = 1; i < MT_N; i++)
        mt_base[i] = 1812433253u * (mt_base[i - 1] ^ (mt_base[i - 1] >> 30)) + (uint32_t)i;
}

static void mt_seed(mt_state *s, const uint32_t *key, int words)
{
    uint32_t *mt = s->mt;
    memcpy(mt, mt_base, sizeof mt_base);
    int i = 1, j = 0;
    for (int k = MT_N > words ? MT_N : words; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= words)
            j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000u;   /* a non-zero state */
    s->next = s->twisted = 0;
}

/* Word k of the next round: the reference twist, which makes the words in
 * order, word k from words k and k + 1 of the round before and word
 * k + 397 (mod 624; of the new round once that one is made). */
static uint32_t mt_twisted(const uint32_t *mt, int k)
{
    uint32_t y = (mt[k] & 0x80000000u) | (mt[k + 1 < MT_N ? k + 1 : 0] & 0x7fffffffu);
    uint32_t far = mt[k + MT_M < MT_N ? k + MT_M : k + MT_M - MT_N];
    return far ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
}

/* The next 32-bit output. The words are twisted one at a time as they are
 * needed (the same order, the same words): a shuffle of 20 cards uses
 * about 27 of the 624 a round twists. */
static uint32_t mt_next(mt_state *s)
{
    if (s->next == MT_N)
        s->next = s->twisted = 0;
    if (s->next == s->twisted) {
        s->mt[s->twisted] = mt_twisted(s->mt, s->twisted);
        s->twisted++;
    }
    uint32_t y = s->mt[s->next++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

static int bit_length(uint32_t n) { return 32 - __builtin_clz(n); }

int pdd_shuffle_deal(const uint32_t *key, int key_words, const int32_t *cards, int count,
                     const int32_t *sizes, int parts, uint32_t *masks)
{
    if (!key || !cards || !sizes || !masks)
        return PDD_ERR_NULL;
    if (key_words < 1 || key_words > PDD_MAX_KEY_WORDS || count < 0 || count > 32 || parts < 1
        || parts > PDD_MAX_PARTS)
        return PDD_ERR_COUNT;
    int dealt = 0;
    for (int p = 0; p < parts; p++) {
        if (sizes[p] < 0 || sizes[p] > count - dealt)
            return PDD_ERR_COUNT;
        dealt += sizes[p];
    }
    if (dealt != count)
        return PDD_ERR_COUNT;
    uint32_t seen = 0;
    int32_t deck[32];
    for (int c = 0; c < count; c++) {
        if (cards[c] < 0 || cards[c] > 31 || (seen >> cards[c] & 1))
            return PDD_ERR_DUPLICATE;
        seen |= 1u << cards[c];
        deck[c] = cards[c];
    }
    pthread_once(&mt_base_once, mt_base_fill);
    mt_state s;
    mt_seed(&s, key, key_words);
    for (int i = count - 1; i > 0; i--) {
        int shift = 32 - bit_length((uint32_t)i + 1);
        uint32_t j = mt_next(&s) >> shift;
        while (j > (uint32_t)i)
            j = mt_next(&s) >> shift;
        int32_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    for (int p = 0, c = 0; p < parts; p++)
        for (int k = 0; k < sizes[p]; k++)
            masks[p] |= 1u << deck[c++];
    return PDD_OK;
}

int pdd_shuffle_deals(const uint32_t *keys, const int32_t *key_words, int deals, const int32_t *cards, int count,
                      const int32_t *sizes, int parts, const uint32_t *fixed, uint32_t *masks)
{
    if (deals < 0 || parts < 1 || parts > PDD_MAX_PARTS)
        return PDD_ERR_COUNT;
    if (deals > 0 && (!keys || !key_words || !fixed || !masks))
        return PDD_ERR_NULL;
    for (int d = 0; d < deals; d++) {
        uint32_t *deal = masks + (size_t)d * (size_t)parts;
        memcpy(deal, fixed, (size_t)parts * sizeof *deal);
        int err = pdd_shuffle_deal(keys, key_words[d], cards, count, sizes, parts, deal);
        if (err != PDD_OK)
            return err;
        keys += key_words[d];   /* checked by pdd_shuffle_deal: 1..PDD_MAX_KEY_WORDS */
    }
    return PDD_OK;
}
