/*
 * tt.c - transposition table: relative-rank keys, set-associative buckets.
 */
#include <stdlib.h>
#include <string.h>
#include "tt.h"

int tt_init(tt *t, size_t bytes)
{
    rank_tables_init();
    size_t bucket_bytes = sizeof(tt_entry) * TT_WAYS;
    size_t buckets = 1;
    while (buckets * 2 * bucket_bytes <= bytes)
        buckets *= 2;
    t->entries = aligned_alloc(64, buckets * bucket_bytes);
    if (!t->entries)
        return -1;
    t->bucket_mask = buckets - 1;
    tt_clear(t);
    return 0;
}

void tt_free(tt *t)
{
    free(t->entries);
    t->entries = NULL;
}

void tt_clear(tt *t)
{
    memset(t->entries, 0, tt_bytes(t));
    t->generation = 1;
}

void tt_new_generation(tt *t)
{
    /* Generation 0 marks empty slots, so wrap from 255 to 1. */
    t->generation = t->generation == 255 ? 1 : t->generation + 1;
}

size_t tt_bytes(const tt *t)
{
    return (t->bucket_mask + 1) * TT_WAYS * sizeof(tt_entry);
}

tt_key tt_make_key(const board *b, const rules *r)
{
    tt_key k;
    uint32_t rel0 = 0, rel1 = 0, counts = 0;
    uint32_t live = b->hand[0] | b->hand[1] | b->hand[2];
    for (int s = 0; s < 4; s++) {
        unsigned l = (live >> (8 * s)) & 0xFF;
        rel0 |= (uint32_t)rank_compress[l][(b->hand[0] >> (8 * s)) & 0xFF] << (8 * s);
        rel1 |= (uint32_t)rank_compress[l][(b->hand[1] >> (8 * s)) & 0xFF] << (8 * s);
        counts |= (uint32_t)popcount(l) << (4 * s);
    }
    k.ranks = rel0 | ((uint64_t)rel1 << 32);
    /* Once the trumps are gone the play is that of no trump, so such
     * positions share entries with the no-trump search (the deal's table
     * solves every strain of the same hands). */
    int trump = r->trump != PDD_NO_TRUMP && (live & SUIT_MASK(r->trump)) ? r->trump : PDD_NO_TRUMP;
    k.shape = counts | (uint32_t)b->first << 16 | (uint32_t)trump << 18
            | (uint32_t)r->objective << 21 | (uint32_t)r->declarer << 22;
    return k;
}

static tt_entry *bucket_of(const tt *t, const tt_key *k)
{
    uint64_t h = k->ranks ^ ((uint64_t)k->shape * 0x9E3779B97F4A7C15ull);
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
    return t->entries + (h & t->bucket_mask) * TT_WAYS;
}

const tt_entry *tt_find(const tt *t, const tt_key *k)
{
    const tt_entry *e = bucket_of(t, k);
    for (int i = 0; i < TT_WAYS; i++)
        if (e[i].generation && e[i].ranks == k->ranks && e[i].shape == k->shape)
            return &e[i];
    return NULL;
}

/* Deeper entries saved more work; an entry of an older generation is the
 * first to go. */
static int keep_score(const tt_entry *e, uint8_t generation)
{
    if (!e->generation) return -1000;
    int cards = 0;
    for (int s = 0; s < 4; s++)
        cards += (e->shape >> (4 * s)) & 0xF;
    return cards + (e->generation == generation ? 64 : 0);
}

void tt_store(tt *t, const tt_key *k, int lower, int upper, int best)
{
    tt_entry *e = bucket_of(t, k);
    tt_entry *victim = NULL;
    for (int i = 0; i < TT_WAYS; i++)
        if (e[i].generation && e[i].ranks == k->ranks && e[i].shape == k->shape) {
            victim = &e[i];
            if (lower < victim->lower) lower = victim->lower;
            if (upper > victim->upper) upper = victim->upper;
            if (best == NO_BEST) best = victim->best;
            break;
        }
    if (!victim) {
        victim = &e[0];
        for (int i = 1; i < TT_WAYS; i++)
            if (keep_score(&e[i], t->generation) < keep_score(victim, t->generation))
                victim = &e[i];
    }
    victim->ranks = k->ranks;
    victim->shape = k->shape;
    victim->lower = (uint8_t)lower;
    victim->upper = (uint8_t)upper;
    victim->best = (uint8_t)best;
    victim->generation = t->generation;
}
