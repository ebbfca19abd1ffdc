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
 *
 * Partition search (after Ginsberg; DDS calls it "winning ranks"): an entry
 * may describe a SET of positions. It fixes the owners of the top cards of
 * each suit only; below that a suit's cards are "small", and only how many
 * each seat holds matters. The search reports which cards its proof relied
 * on (see search.c), and every position that agrees on them has the same
 * bound. Such entries cannot be found by their whole key, so they live in a
 * second table of buckets chosen by the shape alone (suit lengths and how
 * many cards of each suit each seat holds, the leader and the rules): a
 * look-up scans one bucket, whose entries all have that shape. A partition
 * search keeps all its entries there (nearly none fixes every card); the
 * exact table, one cache line per look-up, serves the other searches
 * (misere, whose bounds compare low cards, and the option switched off).
 */
#ifndef PREFDD_TT_H
#define PREFDD_TT_H

#include <stddef.h>
#include <stdint.h>
#include "board.h"

typedef struct tt_key {
    uint64_t ranks;    /* relative-rank masks of seats 0 and 1 (seat 2 holds the rest) */
    uint32_t shape;    /* per-suit counts, leader, trump, objective, declarer */
    uint32_t hash;     /* tt_key_hash's low 32 bits, which choose its bucket, or 0:
                        * worked out then (the canonical key has it, the literal
                        * one, whose partition search never asks, does not) */
} tt_key;              /* (misere and all-pass pack the same facts suit by suit
                        * in a canonical order: tt_read_position) */

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

/* A trick-boundary position as the table sees it, read once per node. */
typedef struct tt_position {
    tt_key exact;      /* its exact key */
    uint64_t shape;    /* per suit: length, seat 0's and seat 1's counts; leader, rules,
                        * tricks left (tt_read_shape; 0 until then) */
    uint32_t rel[2];   /* relative-rank masks of seats 0 and 1 (8 bits a suit;
                        * partition table only, 0 with a canonical key) */
    uint32_t live;     /* the live cards, to turn places into cards */
    uint8_t suits;     /* the suit in each of the key's four slots, 2 bits a slot
                        * (slot 0 lowest); 0xE4 when the key keeps the suits in
                        * their own order */
} tt_position;

/* The suit in slot `slot` of p's key, and the slot of `suit`. A table entry
 * keeps its best card by slot, so that it means the same card in every
 * position that shares the entry. */
static inline int tt_slot_suit(const tt_position *p, int slot)
{
    return (p->suits >> (2 * slot)) & 3;
}

static inline int tt_suit_slot(const tt_position *p, int suit)
{
    int slot = 0;
    while (tt_slot_suit(p, slot) != suit)
        slot++;
    return slot;
}

/* An entry of the partition table: the bounds hold for every position of its
 * bucket's shape that agrees with rel at the places of spec. (A bucket keeps
 * its entries in groups of four, field by field: tt.c, group_at.) */
typedef struct part_entry {
    uint32_t rel[2];   /* owners at the fixed places (masked by spec) */
    uint32_t spec;     /* fixed relative places: per suit, the top ones */
    uint8_t lower, upper, best, generation;
} part_entry;

/* 15 entries a bucket measured best for single solves: 7 lose entries a
 * search needs again, 31 cost more to scan than they save
 * (benchmarks/README.md). Long runs of similar positions want more entries
 * of one shape (tt_reshape). */
#define PART_WAYS PDD_DEFAULT_PART_WAYS
#define PART_WAYS_MAX PDD_MAX_PART_WAYS

/* A bucket's header; its part_ways entries follow, in groups of four
 * (tt.c: group_at). The shape of every entry in it is kept apart
 * (tt.part_shapes). */
typedef struct part_bucket {
    uint8_t generation;/* when the bucket was last written */
    uint8_t used;      /* its filled slots: the first `used` */
    uint8_t unused[14];
    uint32_t words[];  /* 4 * part_ways */
} part_bucket;         /* 16 + 16 * part_ways bytes: 256 (four cache lines) with 15 */

typedef struct tt {
    tt_entry *entries;      /* buckets of TT_WAYS entries, one cache line each */
    size_t bucket_mask;
    size_t window_mask;     /* the buckets in use: all, or the first ones (tt_set_window) */
    unsigned char *parts;   /* the partition table: buckets of part_stride bytes */
    uint64_t *part_shapes;  /* each bucket's shape, 0 = empty (tt.c: part_index) */
    size_t part_mask;
    size_t part_bytes;      /* its buckets (tt.c holds PART_SLACK bytes more) */
    size_t part_stride;
    int part_ways;          /* entries a bucket */
    int keep_used;          /* a partition entry that settles a node joins the current generation */
    uint8_t generation;
    /* An entry was stored since the entries (parts) were last all zero: a
     * trick contract's search stores partition entries only, a misere's
     * exact ones only, and memory never written needs no clearing. */
    int entries_used, parts_used;
    void *entries_block;    /* the allocations, to free (entries and parts are aligned within) */
    void *parts_block;
} tt;

int tt_init(tt *t, size_t bytes);   /* 0 on success */
void tt_free(tt *t);
void tt_clear(tt *t);
void tt_new_generation(tt *t);
size_t tt_bytes(const tt *t);
/* New memory for the table: about exact_bytes for the exact entries,
 * part_bytes for the partition entries in buckets of `ways` entries
 * (1..PART_WAYS_MAX); cleared. 0 on success; -1 when the memory cannot be
 * had, the table then as it was. */
int tt_reshape(tt *t, size_t exact_bytes, size_t part_bytes, int ways);
/* Keep the exact entries in the first `bytes` of their memory (all of it:
 * 0, or more than there is). Entries stored outside the window are no
 * longer found (they are lost, never wrong).
 * Why: a search whose entries live one call (the table aged every call)
 * stores a few tens of thousands of exact entries, one cache line each when
 * they are scattered over 8 MiB; packed into 1 MiB they stay in the core's
 * L2 (1 MiB on the machine measured). Measured on the deal's table (40
 * deals, one 16 MiB solver, 2026-12-02): misere best discards' nodes +1.5 %
 * (the table's +0.9 %; windows of 2 MiB, 512 KiB and 256 KiB about +1.2 %,
 * +3.5 % and +10 %), instructions +2.6 %, misses of a 1 MiB cache
 * (cachegrind) 394,000 -> 54,250 in 60 searches; CPU time of alternating
 * runs under a load average of 6: the table -4 %, random misere solves
 * -7.6 % at +1.2 % nodes. Trick contracts with PDD_OPT_PARTITION search
 * with partition entries and never touch the exact ones; with the exact
 * table alone they use the window too. */
#define TT_WINDOW_BYTES ((size_t)1 << 20)
void tt_set_window(tt *t, size_t bytes);

/* The key the search uses (see tt_read_position). */
tt_key tt_make_key(const board *b, const rules *r);
/* The key with the suits in their own order, for searches whose answer is
 * not the same under a renaming of the suits (the max^n line breaks ties by
 * card index). */
tt_key tt_make_literal_key(const board *b, const rules *r);
/* A hash of the whole key (every bit counts), for choosing buckets. */
uint64_t tt_key_hash(const tt_key *k);
/* Read p's key. Misere and all-pass are played without trumps, so the four
 * suits play alike and two positions that differ only by a renaming of the
 * suits have the same value: their key lists the suits in a canonical order
 * (by length, then by who holds which places), so that they share one entry.
 * Trick contracts keep the suits in their own order (the partition table
 * reads them suit by suit). */
void tt_read_position(const board *b, const rules *r, tt_position *p);
/* Add the partition shape (needed by the partition table only). */
void tt_read_shape(const board *b, tt_position *p);
/* Relative places fixed by `marks` (absolute cards the proof relied on): in
 * each suit, the lowest marked card and every live card above it. */
uint32_t tt_spec_from_marks(const tt_position *p, uint32_t marks);
/* The cards that stand for a spec: the lowest fixed card of each suit. */
uint32_t tt_marks_from_spec(const tt_position *p, uint32_t spec);
/* Is there a partition entry of p's shape that agrees with p and whose
 * bound settles `target` given `taken` tricks? 1 with the first such entry
 * in *found, else 0; *hint gets a best card (relative) from an agreeing entry
 * before it when it has none yet. With keep_used, the entry found joins the
 * current generation. */
int tt_find_part(tt *t, const tt_position *p, int taken, int target, int *hint, part_entry *found);
/* Store bounds for every position of p's shape that agrees with p at spec. */
void tt_store_part(tt *t, const tt_position *p, uint32_t spec, int lower, int upper, int best);
/* Start loading key's bucket: the look-up that follows finds it in cache. */
void tt_prefetch(const tt *t, const tt_key *k);
/* The entry for key, or NULL. */
const tt_entry *tt_find(const tt *t, const tt_key *k);
/* Tighten the bounds stored for key (creating the entry if needed). */
void tt_store(tt *t, const tt_key *k, int lower, int upper, int best);

#endif
