/*
 * part_table_paths.c - drives the partition table (csrc/tt.c) through a
 * seeded run of stores, look-ups and new generations, and prints what the
 * look-ups answered as one digest. tests/test_part_table_paths.py builds it
 * with the SSE2 comparisons and with the portable path (-DPDD_NO_SIMD) and
 * checks that both print the same.
 *
 *     part_table_paths WAYS OPERATIONS
 */
#include <stdio.h>
#include <stdlib.h>
#include "board.c"
#include "tt.c"

#include "xorshift.h"

/* A position with every card live: 8 places a suit, the owners at random;
 * one of a few shapes, so that buckets fill and shapes compete for them. */
static void random_position(tt_position *p)
{
    memset(p, 0, sizeof *p);
    p->live = 0xFFFFFFFFu;
    p->rel[0] = (uint32_t)next();
    p->rel[1] = (uint32_t)next() & ~p->rel[0];
    p->shape = (next() % 24 + 1) | (uint64_t)(next() % 8 + 2) << 56;
}

/* Entries of one set of positions must agree: its value comes from a hash
 * of the set, and a store widens it at random. */
static int set_value(uint32_t spec, uint32_t rel0, uint32_t rel1)
{
    return (int)(mix64(spec ^ (uint64_t)(rel0 & spec) << 32 ^ mix64(rel1 & spec)) % 11);
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int ways = atoi(argv[1]);
    long operations = atol(argv[2]);
    tt t;
    if (tt_init(&t, 1 << 20) != 0 || tt_reshape(&t, 1 << 16, 64 << 10, ways) != 0)
        return 1;
    t.keep_used = 1;
    uint64_t digest = 1469598103934665603ull;
    long hits = 0, hints = 0;
    for (long i = 0; i < operations; i++) {
        tt_position p;
        random_position(&p);
        /* Few marks: most entries fix the top places of a suit or two. */
        uint32_t marks = (uint32_t)(next() & next() & next() & next());
        uint32_t spec = tt_spec_from_marks(&p, marks);
        int v = set_value(spec, p.rel[0], p.rel[1]);
        if (next() % 3 == 0) {
            int lower = (int)(next() % (unsigned)(v + 1)), upper = v + (int)(next() % (unsigned)(11 - v));
            int best = next() % 4 == 0 ? NO_BEST : (int)(next() % 32);
            tt_store_part(&t, &p, spec, lower, upper, best);
        } else {
            int hint = NO_BEST, taken = (int)(next() % 3), target = (int)(next() % 12);
            part_entry e = { { 0, 0 }, 0, 0, 0, 0, 0 };
            int found = tt_find_part(&t, &p, taken, target, &hint, &e);
            hits += found;
            hints += hint != NO_BEST;
            uint64_t answer = (uint64_t)found | (uint64_t)e.spec << 1 | (uint64_t)e.lower << 33
                            | (uint64_t)e.upper << 41 | (uint64_t)(hint & 0xFF) << 49;
            digest = (digest ^ answer ^ e.rel[0] ^ (uint64_t)e.rel[1] << 32) * 1099511628211ull;
        }
        if (next() % 512 == 0)
            tt_new_generation(&t);
    }
    printf("%016llx %ld %ld %d\n", (unsigned long long)digest, hits, hints,
#if defined(__SSE2__) && !defined(PDD_NO_SIMD)
           1
#else
           0
#endif
    );
    tt_free(&t);
    return 0;
}
