/*
 * tt.h - the transposition table.
 *
 * Entries are written at trick boundaries only. A position is keyed by the
 * relative ranks of the remaining cards: for each seat and suit, which of the
 * suit's remaining cards (counted from the lowest) the seat holds. Two positions
 * that differ only in which cards already left the game play out the same way, so
 * they share an entry. The key is stored whole, so a hit is never a collision:
 * the table can only ever speed the search up, never change a value.
 *
 * An entry keeps a lower and an upper bound on the declarer's FUTURE tricks
 * (tricks still to be played), so it serves whatever has been taken before.
 * Entries are never wrong, so the table is not cleared between calls; a
 * generation counter only steers replacement towards stale entries.
 */
#ifndef PREFDD_TT_H
#define PREFDD_TT_H

#include <stddef.h>
#include <stdint.h>
#include "board.h"

typedef struct tt_key {
    uint64_t ranks;    /* relative-rank masks of seats 0 and 1 (seat 2 holds the rest) */
    uint32_t shape;    /* per-suit counts, leader, trump, objective, declarer */
} tt_key;

typedef struct tt_entry {
    uint64_t ranks;
    uint32_t shape;
    uint8_t lower;     /* future declarer tricks are >= lower */
    uint8_t upper;     /* ... and <= upper */
    uint8_t best;      /* a best card found here, or NO_BEST */
    uint8_t generation;/* 0 = empty */
} tt_entry;

#define TT_WAYS 4
#define NO_BEST 0xFF

typedef struct tt {
    tt_entry *entries;      /* buckets of TT_WAYS entries, one cache line each */
    size_t bucket_mask;
    uint8_t generation;
} tt;

int tt_init(tt *t, size_t bytes);   /* 0 on success */
void tt_free(tt *t);
void tt_clear(tt *t);
void tt_new_generation(tt *t);
size_t tt_bytes(const tt *t);

tt_key tt_make_key(const board *b, const rules *r);
/* The entry for key, or NULL. */
const tt_entry *tt_find(const tt *t, const tt_key *k);
/* Tighten the bounds stored for key (creating the entry if needed). */
void tt_store(tt *t, const tt_key *k, int lower, int upper, int best);

#endif
