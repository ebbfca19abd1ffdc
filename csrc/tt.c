/*
 * tt.c - transposition table: relative-rank keys, set-associative buckets.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include "tt.h"

#define HUGE_PAGE (2u << 20)

/* Freed table blocks are kept for the next table of the same size (a run of
 * layouts makes fresh solvers, one a worker, and a service one a request):
 * a new block's first touches fault in its pages, measured on the 2-core
 * development VM at 5-400 ms for two 16 MiB solvers (the kernel zeroing
 * pages the host hands out anew), while a kept one costs one memset (about
 * 1 ms each). A block nothing was stored in since it was zero (the exact
 * half of a trick contract's table, the partition half of a misere's) is
 * kept as clean and handed out without that memset: zeroing it would fault
 * in pages no search touched (two whist advices in a row: the second one's
 * two solvers took 190 and 350 ms to make under load, 1-2 ms with this).
 * At most KEPT_BLOCKS blocks and KEPT_BYTES in all; tables are made and
 * freed rarely, so a spin lock guards the list. */
#define KEPT_BLOCKS 8
#define KEPT_BYTES ((size_t)256 << 20)
static atomic_flag kept_lock = ATOMIC_FLAG_INIT;
static struct kept_block { void *block; void *memory; size_t bytes; int clean; } kept[KEPT_BLOCKS];
static size_t kept_total;

static void lock_kept(void)
{
    while (atomic_flag_test_and_set_explicit(&kept_lock, memory_order_acquire))
        ;
}

static void unlock_kept(void)
{
    atomic_flag_clear_explicit(&kept_lock, memory_order_release);
}

static size_t block_bytes(size_t bytes)
{
    return bytes < HUGE_PAGE ? bytes : (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
}

/* A kept block of exactly `bytes`, zeroed, or NULL. */
static void *kept_alloc(size_t bytes, void **block)
{
    void *memory = NULL;
    int clean = 0;
    lock_kept();
    for (int i = 0; i < KEPT_BLOCKS && !memory; i++)
        if (kept[i].block && kept[i].bytes == bytes) {
            memory = kept[i].memory;
            clean = kept[i].clean;
            *block = kept[i].block;
            kept[i].block = NULL;
            kept_total -= bytes;
        }
    unlock_kept();
    if (memory && !clean)
        memset(memory, 0, bytes);
    return memory;
}

/* Zeroed table memory (every slot empty), `bytes` of it aligned, and in
 * *block what to release: a kept block of that size, else new memory from
 * calloc, which takes fresh pages for large blocks and does not write them
 * (the kernel hands out zero pages as they are first touched, so a table
 * replaced at once, as tt_reshape does, costs nothing). Look-ups hit random
 * places of a large table, so each would also miss the TLB with 4 KiB
 * pages: on Linux the table asks for 2 MiB pages (transparent huge pages,
 * where the kernel allows them; nothing changes where it does not). */
static void *table_alloc(size_t bytes, void **block)
{
    size_t align = bytes < HUGE_PAGE ? 64 : HUGE_PAGE;
    *block = NULL;
    if (bytes > SIZE_MAX - 2 * (size_t)HUGE_PAGE)
        return NULL;
    bytes = block_bytes(bytes);
    void *memory = kept_alloc(bytes, block);
    if (memory)
        return memory;
    unsigned char *raw = calloc(1, bytes + align);
    if (!raw)
        return NULL;
    *block = raw;
    memory = raw + (align - (uintptr_t)raw % align) % align;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align == HUGE_PAGE)
        madvise(memory, bytes, MADV_HUGEPAGE);
#endif
    return memory;
}

/* Give back what table_alloc answered for `bytes` (`clean`: still all
 * zero): kept while there is room, else freed; nothing for a null block. */
static void table_release(void *block, void *memory, size_t bytes, int clean)
{
    if (!block)
        return;
    bytes = block_bytes(bytes);
    lock_kept();
    for (int i = 0; i < KEPT_BLOCKS && block && kept_total + bytes <= KEPT_BYTES; i++)
        if (!kept[i].block) {
            kept[i] = (struct kept_block){ block, memory, bytes, clean };
            kept_total += bytes;
            block = NULL;
        }
    unlock_kept();
    free(block);
}

/* The largest power of two of `size`-byte items that fits in `bytes`.
 * Divided, not multiplied: `bytes` is the caller's, and items * 2 * size
 * wraps to 0 for sizes near SIZE_MAX (the loop then never ends). */
static size_t power_of_two_items(size_t bytes, size_t size)
{
    size_t items = 1;
    while (items <= bytes / size / 2)
        items *= 2;
    return items;
}

/* A look-up's loads may read a few bytes (fewer than 16) past the last
 * bucket (agree_lanes). */
#define PART_SLACK 16

/* The partition table's memory: the buckets, the slack, then the buckets'
 * shapes (t->part_shapes), one a bucket, on whole cache lines. */
static size_t part_shapes_offset(size_t parts, size_t stride)
{
    return (parts * stride + PART_SLACK + 63) / 64 * 64;
}

static size_t part_held(size_t parts, size_t stride)
{
    return part_shapes_offset(parts, stride) + (parts * sizeof(uint64_t) + 63) / 64 * 64;
}

/* Half the memory for exact entries, half for partition entries. */
int tt_init(tt *t, size_t bytes)
{
    rank_tables_init();
    t->entries = NULL;
    t->parts = NULL;
    t->part_shapes = NULL;
    t->entries_block = t->parts_block = NULL;
    t->keep_used = 0;
    t->entries_used = t->parts_used = 0;
    return tt_reshape(t, bytes / 2, bytes / 2, PART_WAYS);
}

int tt_reshape(tt *t, size_t exact_bytes, size_t part_bytes, int ways)
{
    assert(ways >= 1 && ways <= PART_WAYS_MAX);
    size_t buckets = power_of_two_items(exact_bytes, sizeof(tt_entry) * TT_WAYS);
    size_t stride = sizeof(part_bucket) + (size_t)ways * sizeof(part_entry);
    size_t parts = power_of_two_items(part_bytes, stride);
    size_t part_total = part_held(parts, stride);   /* what is held; tt_bytes counts the buckets */
    if (t->entries && t->parts && buckets - 1 == t->bucket_mask && parts - 1 == t->part_mask
        && stride == t->part_stride) {
        tt_clear(t);   /* the same shape: no new memory to touch */
        t->window_mask = t->bucket_mask;
        return 0;
    }
    void *entries_block, *parts_block;
    tt_entry *entries = table_alloc(buckets * TT_WAYS * sizeof(tt_entry), &entries_block);
    unsigned char *memory = table_alloc(part_total, &parts_block);
    if (!entries || !memory) {
        table_release(entries_block, entries, buckets * TT_WAYS * sizeof(tt_entry), 1);
        table_release(parts_block, memory, part_total, 1);
        return -1;     /* the table stays as it was */
    }
    tt_free(t);
    t->entries_block = entries_block;
    t->parts_block = parts_block;
    t->entries = entries;
    t->bucket_mask = buckets - 1;
    t->window_mask = t->bucket_mask;
    t->parts = memory;
    t->part_shapes = (uint64_t *)(memory + part_shapes_offset(parts, stride));
    t->part_mask = parts - 1;
    t->part_bytes = parts * stride;
    t->part_stride = stride;
    t->part_ways = ways;
    t->generation = 1;   /* the memory is zeroed: every slot empty */
    t->entries_used = t->parts_used = 0;
    return 0;
}

void tt_free(tt *t)
{
    table_release(t->entries_block, t->entries, (t->bucket_mask + 1) * TT_WAYS * sizeof(tt_entry),
                  !t->entries_used);
    if (t->parts)
        table_release(t->parts_block, t->parts, part_held(t->part_mask + 1, t->part_stride), !t->parts_used);
    t->entries_block = t->parts_block = NULL;
    t->entries = NULL;
    t->parts = NULL;
    t->part_shapes = NULL;
}

void tt_clear(tt *t)
{
    if (t->entries_used)
        memset(t->entries, 0, (t->bucket_mask + 1) * TT_WAYS * sizeof(tt_entry));
    if (t->parts_used) {
        memset(t->parts, 0, t->part_bytes);
        memset(t->part_shapes, 0, (t->part_mask + 1) * sizeof(uint64_t));
    }
    t->entries_used = t->parts_used = 0;
    t->generation = 1;
}

void tt_set_window(tt *t, size_t bytes)
{
    size_t buckets = bytes ? power_of_two_items(bytes, sizeof(tt_entry) * TT_WAYS) : 0;
    t->window_mask = buckets && buckets - 1 < t->bucket_mask ? buckets - 1 : t->bucket_mask;
}

void tt_new_generation(tt *t)
{
    /* Generation 0 marks empty slots, so wrap from 255 to 1. */
    t->generation = t->generation == 255 ? 1 : t->generation + 1;
}

size_t tt_bytes(const tt *t)
{
    return (t->bucket_mask + 1) * TT_WAYS * sizeof(tt_entry) + t->part_bytes;
}

/* Leader and rules. Once the trumps are gone the play is that of no trump,
 * so such positions share entries with the no-trump search (the deal's table
 * solves every strain of the same hands). */
static uint32_t rules_bits(const board *b, const rules *r, uint32_t live)
{
    int trump = r->trump != PDD_NO_TRUMP && (live & SUIT_MASK(r->trump)) ? r->trump : PDD_NO_TRUMP;
    return (uint32_t)b->first | (uint32_t)trump << 2 | (uint32_t)r->objective << 5
         | (uint32_t)r->declarer << 6;
}

/* How many cards of each suit: four byte counts in one word (a SWAR
 * popcount per byte). */
static uint32_t suit_counts(uint32_t cards)
{
    cards = cards - ((cards >> 1) & 0x55555555u);
    cards = (cards & 0x33333333u) + ((cards >> 2) & 0x33333333u);
    return (cards + (cards >> 4)) & 0x0F0F0F0Fu;
}

/* The relative places that exist (per suit, one bit per live card from bit
 * 0), for the asserts on keys and specs. */
static inline uint32_t live_places(uint32_t live)
{
    uint32_t places = 0;
    for (int s = 0; s < 4; s++)
        places |= (uint32_t)rank_compress[suit_bits(live, s)][suit_bits(live, s)] << (8 * s);
    return places;
}

#define LITERAL_SUITS 0xE4u   /* slots 0-3 hold suits 0-3 */

static void order_two(uint32_t *high, uint32_t *low)
{
    uint32_t a = *high, b = *low;
    *high = a > b ? a : b;
    *low = a > b ? b : a;
}

/* The key with the suits in a canonical order. Each suit is a 20-bit
 * number - its live cards (4 bits), seat 0's and seat 1's places (8 bits
 * each) - shifted over its own index (which says where each suit went, and
 * orders two equal suits either way); a sorting network of five exchanges
 * puts them in descending order, and the key is the four numbers side by
 * side (80 bits: the 64 of ranks and 16 of shape) and the rules. Its layout
 * is not that of the literal key; the rules bits keep the two kinds apart. */
static void read_canonical(const board *b, const rules *r, uint32_t live, tt_position *p)
{
    uint32_t sig[4];
    for (int s = 0; s < 4; s++) {
        unsigned l = suit_bits(live, s);
        uint32_t places = (uint32_t)popcount(l) << 16
                        | (uint32_t)rank_compress[l][suit_bits(b->hand[0], s)] << 8
                        | rank_compress[l][suit_bits(b->hand[1], s)];
        sig[s] = places << 2 | (uint32_t)s;
    }
    order_two(&sig[0], &sig[1]);
    order_two(&sig[2], &sig[3]);
    order_two(&sig[0], &sig[2]);
    order_two(&sig[1], &sig[3]);
    order_two(&sig[1], &sig[2]);
    uint64_t c0 = sig[0] >> 2, c1 = sig[1] >> 2, c2 = sig[2] >> 2, c3 = sig[3] >> 2;
    p->exact.ranks = c0 | c1 << 20 | c2 << 40 | c3 << 60;
    p->exact.shape = (uint32_t)(c3 >> 4) | rules_bits(b, r, live) << 16;
    p->exact.hash = (uint32_t)tt_key_hash(&p->exact);   /* for the prefetch, the look-up and the store */
    p->suits = (uint8_t)((sig[0] & 3) | (sig[1] & 3) << 2 | (sig[2] & 3) << 4 | (sig[3] & 3) << 6);
    /* The slots name each suit once, longest suit first. */
    assert((1u << (sig[0] & 3) | 1u << (sig[1] & 3) | 1u << (sig[2] & 3) | 1u << (sig[3] & 3)) == 0xF);
    assert(sig[0] >= sig[1] && sig[1] >= sig[2] && sig[2] >= sig[3]);
}

/* The literal key's shape: lengths packed 4 bits a suit, and the rules. */
static uint32_t literal_shape(const board *b, const rules *r, uint32_t live)
{
    uint32_t lengths = suit_counts(live);
    uint32_t packed = (lengths | lengths >> 4) & 0x00FF00FFu;
    packed = (packed | packed >> 8) & 0xFFFFu;
    return packed | rules_bits(b, r, live) << 16;
}

/* The partition shape: the exact key's shape, plus how many cards of each
 * suit seats 0 and 1 hold (seat 2 holds the rest), and the tricks left
 * (replacement reads them). */
static uint64_t partition_shape(const board *b, uint32_t exact_shape)
{
    /* Both seats' counts in one 64-bit SWAR popcount per byte. */
    uint64_t both = b->hand[0] | (uint64_t)b->hand[1] << 32;
    both = both - ((both >> 1) & 0x5555555555555555ull);
    both = (both & 0x3333333333333333ull) + ((both >> 2) & 0x3333333333333333ull);
    both = (both + (both >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    uint32_t counts = (uint32_t)both | (uint32_t)(both >> 32) << 4;
    assert(counts == (suit_counts(b->hand[0]) | suit_counts(b->hand[1]) << 4));
    return exact_shape | (uint64_t)counts << 24 | (uint64_t)b->tricks_left << 56;
}

/* The canonical key (misere and all-pass), out of line. */
static __attribute__((noinline)) void read_canonical_position(const board *b, const rules *r, tt_position *p)
{
    uint32_t live = b->hand[0] | b->hand[1] | b->hand[2];
    p->live = live;
    p->shape = 0;
    read_canonical(b, r, live, p);
    p->rel[0] = p->rel[1] = 0;   /* read by the partition table only */
}

/* The literal key (trick contracts), inlined into the search's node: the
 * call cost a tenth of it. */
static inline __attribute__((always_inline)) void read_literal_position(const board *b, const rules *r, tt_position *p)
{
    uint32_t live = b->hand[0] | b->hand[1] | b->hand[2];
    p->live = live;
    p->shape = 0;
    uint32_t rel0 = 0, rel1 = 0;
    for (int s = 0; s < 4; s++) {
        unsigned l = suit_bits(live, s);
        rel0 |= (uint32_t)rank_compress[l][suit_bits(b->hand[0], s)] << (8 * s);
        rel1 |= (uint32_t)rank_compress[l][suit_bits(b->hand[1], s)] << (8 * s);
    }
    p->exact.ranks = rel0 | ((uint64_t)rel1 << 32);
    p->exact.shape = literal_shape(b, r, live);
    p->exact.hash = 0;
    assert((rel0 & rel1) == 0 && (rel0 & ~live_places(live)) == 0 && (rel1 & ~live_places(live)) == 0);
    p->rel[0] = rel0;
    p->rel[1] = rel1;
    p->suits = LITERAL_SUITS;
}

__attribute__((always_inline)) inline void tt_read_position(const board *b, const rules *r, tt_position *p)
{
    if (r->objective != PDD_TRICKS)
        read_canonical_position(b, r, p);
    else
        read_literal_position(b, r, p);
}

void tt_read_shape(const board *b, tt_position *p)
{
    p->shape = partition_shape(b, p->exact.shape);
}

tt_key tt_make_key(const board *b, const rules *r)
{
    tt_position p;
    tt_read_position(b, r, &p);
    return p.exact;
}

tt_key tt_make_literal_key(const board *b, const rules *r)
{
    tt_position p;
    read_literal_position(b, r, &p);
    return p.exact;
}

/* The places of the live cards at or above each suit's lowest mark: the
 * marks smeared upwards within each byte pick them, one look-up a suit. */
uint32_t tt_spec_from_marks(const tt_position *p, uint32_t marks)
{
    uint32_t fixed = p->live & at_or_above_lowest(marks), spec = 0;
    for (int s = 0; s < 4; s++)
        spec |= (uint32_t)rank_compress[suit_bits(p->live, s)][suit_bits(fixed, s)] << (8 * s);
#ifndef NDEBUG
    for (int s = 0; s < 4; s++) {
        unsigned m = suit_bits(marks, s), l = suit_bits(p->live, s);
        unsigned from = m ? rank_compress[l][m & -m] : 0;   /* the lowest mark's place */
        assert(suit_bits(spec, s) == (m ? (rank_compress[l][l] & ~(from - 1)) : 0));
    }
#endif
    return spec;
}

uint32_t tt_marks_from_spec(const tt_position *p, uint32_t spec)
{
    uint32_t marks = 0;
    for (int s = 0; s < 4; s++) {
        unsigned fixed = suit_bits(spec, s);
        if (fixed)
            marks |= (uint32_t)rank_expand[suit_bits(p->live, s)][fixed & -fixed] << (8 * s);
    }
    return marks;
}

/* A bucket index must depend on every bit of the key. A bare multiply only
 * carries bits upwards: a multiply with the high half folded down never
 * sees the key's top bits, the places of seat 1's last suits, so positions
 * that differ only there share a bucket (measured: the max^n memo, one
 * entry a bucket, stored 32,000 positions 1.4 million times). Here buckets
 * of four and depth-first replacement hide most of it: 0.5-2 % fewer nodes
 * with this hash than with that one (the table-only search, with many more
 * positions, -36 % on one seeded set).
 * The finaliser of MurmurHash3 mixes every bit into every other. */
static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    return h;
}

uint64_t tt_key_hash(const tt_key *k)
{
    return mix64(k->ranks ^ ((uint64_t)k->shape * 0x9E3779B97F4A7C15ull));
}

/* A bucket's shape is kept apart from it, in a dense array of shapes
 * (t->part_shapes, 8 to a cache line): a look-up whose shape is not there
 * (most of them: 59 % on random trump deals) reads that array only, not
 * the bucket's first line. */
static size_t part_index(const tt *t, uint64_t shape)
{
    return mix64(shape) & t->part_mask;
}

static part_bucket *part_bucket_at(const tt *t, size_t index)
{
    return (part_bucket *)(t->parts + index * t->part_stride);
}

/* A bucket keeps its entries in groups of four, field by field: a group is
 * the four specs, the four rel[0], the four rel[1] and the four bounds, 64
 * bytes on at most two cache lines, since the bucket's 16-byte header puts
 * the groups at 16 mod 64 (the bucket's last group holds what is left, each
 * field as many words as it has slots). So a look-up compares four
 * entries at once where SSE2 is there (every x86-64), and still reads the
 * bucket front to back.
 * Measured on the enumeration of searching hand 0 (benchmarks/sets.py, 63
 * entries a bucket): a look-up whose shape is there reads 12.7 entries on
 * average (a hit is the 8th), and this layout takes 5-8 % off the
 * enumeration's time against entries side by side (the same nodes:
 * alternating runs); fields in whole-bucket arrays instead, four lines
 * touched where one was, cost 20 % more. */
#define GROUP 4
#define GROUP_WORDS (4 * GROUP)

typedef struct part_info { uint8_t lower, upper, best, generation; } part_info;

/* The fields of group g of a bucket of `ways` slots (group_at). */
typedef struct part_group {
    uint32_t *spec, *rel0, *rel1;
    part_info *info;
} part_group;

/* How many of `slots` slots (counted from a bucket's first) fall in group g:
 * GROUP, or what is left in the last. */
static inline int lanes_in(int slots, int g)
{
    int left = slots - GROUP * g;
    return left < GROUP ? left : GROUP;
}

static inline part_group group_at(part_bucket *b, int ways, int g)
{
    uint32_t *w = b->words + GROUP_WORDS * g;
    int size = lanes_in(ways, g);
    return (part_group){ w, w + size, w + 2 * size, (part_info *)(w + 3 * size) };
}

/* Does lane k of group q hold for a position whose places are rel0, rel1? */
static inline int agrees(const part_group *q, int k, uint32_t rel0, uint32_t rel1)
{
    return (rel0 & q->spec[k]) == q->rel0[k] && (rel1 & q->spec[k]) == q->rel1[k];
}

#if defined(__SSE2__) && !defined(PDD_NO_SIMD)
#include <emmintrin.h>

/* Which lanes of q agree with the places (bit k for lane k). In the last
 * group of a bucket the loads may read past a field into the next one, or
 * past the bucket (PART_SLACK): the caller masks those lanes off. */
static inline unsigned agree_lanes(const part_group *q, __m128i rel0, __m128i rel1)
{
    __m128i spec = _mm_loadu_si128((const __m128i *)q->spec);
    __m128i a = _mm_cmpeq_epi32(_mm_and_si128(spec, rel0), _mm_loadu_si128((const __m128i *)q->rel0));
    __m128i b = _mm_cmpeq_epi32(_mm_and_si128(spec, rel1), _mm_loadu_si128((const __m128i *)q->rel1));
    return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_and_si128(a, b)));
}

/* Which lanes of q hold exactly spec and places. */
static inline unsigned same_lanes(const part_group *q, __m128i spec, __m128i rel0, __m128i rel1)
{
    __m128i a = _mm_cmpeq_epi32(spec, _mm_loadu_si128((const __m128i *)q->spec));
    __m128i b = _mm_cmpeq_epi32(rel0, _mm_loadu_si128((const __m128i *)q->rel0));
    __m128i c = _mm_cmpeq_epi32(rel1, _mm_loadu_si128((const __m128i *)q->rel1));
    return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_and_si128(_mm_and_si128(a, b), c)));
}
#define PLACES(v) __m128i v##_all = _mm_set1_epi32((int)(v))
#define AGREE(q, lanes) (agree_lanes(q, rel0_all, rel1_all) & (lanes))
#define SAME(q, lanes) (same_lanes(q, spec_all, rel0_all, rel1_all) & (lanes))
#else
/* The portable path: lane by lane, the same answers. */
#define PLACES(v) (void)0
static inline unsigned agree_scalar(const part_group *q, unsigned lanes, uint32_t rel0, uint32_t rel1)
{
    unsigned m = 0;
    for (int k = 0; k < GROUP; k++)
        if ((lanes >> k & 1) && agrees(q, k, rel0, rel1))
            m |= 1u << k;
    return m;
}

static inline unsigned same_scalar(const part_group *q, unsigned lanes, uint32_t spec, uint32_t rel0, uint32_t rel1)
{
    unsigned m = 0;
    for (int k = 0; k < GROUP; k++)
        if ((lanes >> k & 1) && q->spec[k] == spec && q->rel0[k] == rel0 && q->rel1[k] == rel1)
            m |= 1u << k;
    return m;
}
#define AGREE(q, lanes) agree_scalar(q, lanes, rel0, rel1)
#define SAME(q, lanes) same_scalar(q, lanes, spec, rel0, rel1)
#endif

/* The lanes of group g that are filled slots. */
static inline unsigned filled_lanes(int g, int used)
{
    return (1u << lanes_in(used, g)) - 1;
}

int tt_find_part(tt *t, const tt_position *p, int taken, int target, int *hint, part_entry *found)
{
    size_t index = part_index(t, p->shape);
    if (t->part_shapes[index] != p->shape)
        return 0;
    part_bucket *b = part_bucket_at(t, index);
    uint32_t rel0 = p->rel[0], rel1 = p->rel[1];
    PLACES(rel0);
    PLACES(rel1);
    for (int g = 0; GROUP * g < b->used; g++) {
        part_group q = group_at(b, t->part_ways, g);
        for (unsigned m = AGREE(&q, filled_lanes(g, b->used)); m; m &= m - 1) {
            int k = __builtin_ctz(m);
            part_info *e = &q.info[k];
            assert(agrees(&q, k, rel0, rel1) && e->generation);
            if (taken + e->lower >= target || taken + e->upper < target) {
                if (t->keep_used)
                    e->generation = t->generation;
                *found = (part_entry){ { q.rel0[k], q.rel1[k] }, q.spec[k], e->lower, e->upper, e->best,
                                       e->generation };
                return 1;
            }
            if (e->best != NO_BEST && *hint == NO_BEST)
                *hint = e->best;
        }
    }
    return 0;
}

/* A bucket belongs to one shape. Another shape takes it over when it is
 * stale (an older generation) or the newcomer is deeper (saves more work). */
static int take_over(const part_bucket *b, uint64_t held, uint64_t shape, uint8_t generation)
{
    return !held || b->generation != generation || (shape >> 56) > (held >> 56);
}

/* The group and lane that hold exactly spec and places: 1, or 0. */
static int same_slot(part_bucket *b, int ways, uint32_t spec, uint32_t rel0, uint32_t rel1, part_group *q, int *lane)
{
    PLACES(spec);
    PLACES(rel0);
    PLACES(rel1);
    for (int g = 0; GROUP * g < b->used; g++) {
        *q = group_at(b, ways, g);
        unsigned m = SAME(q, filled_lanes(g, b->used));
        if (m) {
            *lane = __builtin_ctz(m);
            return 1;
        }
    }
    return 0;
}

/* Within a bucket: a stale slot first, then an empty one, else the entry
 * that fixes the most places (it covers the fewest positions); the first
 * such slot. So the filled slots are the bucket's first `used`. */
static int part_victim(part_bucket *b, int ways, uint8_t generation)
{
    int victim = 0, most = -1;
    for (int g = 0; GROUP * g < b->used; g++) {
        part_group q = group_at(b, ways, g);
        int lanes = lanes_in(b->used, g);
        for (int k = 0; k < lanes; k++) {
            if (q.info[k].generation != generation)
                return GROUP * g + k;
            int fixed = popcount(q.spec[k]);
            if (fixed > most) {
                most = fixed;
                victim = GROUP * g + k;
            }
        }
    }
    return b->used < ways ? b->used : victim;
}

void tt_store_part(tt *t, const tt_position *p, uint32_t spec, int lower, int upper, int best)
{
    size_t index = part_index(t, p->shape);
    part_bucket *b = part_bucket_at(t, index);
    uint32_t rel0 = p->rel[0] & spec, rel1 = p->rel[1] & spec;
    assert(p->shape != 0 && (p->rel[0] & p->rel[1]) == 0);   /* tt_read_shape ran; places of distinct seats */
    assert((spec & ~live_places(p->live)) == 0);                /* fixed places are live places */
    assert(0 <= lower && lower <= upper && (best == NO_BEST || (best >= 0 && best < 32)));
    if (t->part_shapes[index] != p->shape) {
        if (!take_over(b, t->part_shapes[index], p->shape, t->generation))
            return;
        memset(b, 0, t->part_stride);
        t->part_shapes[index] = p->shape;
    }
    t->parts_used = 1;
    b->generation = t->generation;
    part_group q;
    int k;
    if (same_slot(b, t->part_ways, spec, rel0, rel1, &q, &k)) {
        /* The same set of positions: both bounds hold, keep the tighter. */
        part_info *e = &q.info[k];
        if (lower < e->lower) lower = e->lower;
        if (upper > e->upper) upper = e->upper;
        if (best == NO_BEST) best = e->best;
        assert(lower <= upper);   /* two exact bounds of the same set of positions agree */
    } else {
        int slot = part_victim(b, t->part_ways, t->generation);
        if (slot == b->used)
            b->used++;
        q = group_at(b, t->part_ways, slot / GROUP);
        k = slot % GROUP;
    }
    q.spec[k] = spec;
    q.rel0[k] = rel0;
    q.rel1[k] = rel1;
    q.info[k] = (part_info){ (uint8_t)lower, (uint8_t)upper, (uint8_t)best, t->generation };
}

/* Chosen by the hash's low 32 bits (a table of more than 2^32 buckets
 * would use its first 2^32). */
static tt_entry *bucket_of(const tt *t, const tt_key *k)
{
    uint32_t hash = k->hash ? k->hash : (uint32_t)tt_key_hash(k);
    assert(hash == (uint32_t)tt_key_hash(k));
    return t->entries + (hash & t->window_mask) * TT_WAYS;
}

void tt_prefetch(const tt *t, const tt_key *k)
{
    __builtin_prefetch(bucket_of(t, k));
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
    uint32_t cards = (e->shape & 0x0F0Fu) + ((e->shape >> 4) & 0x0F0Fu);   /* the four nibbles' sum */
    cards = (cards & 0xFFu) + (cards >> 8 & 0xFFu);
    return (int)cards + (e->generation == generation ? 64 : 0);
}

void tt_store(tt *t, const tt_key *k, int lower, int upper, int best)
{
    tt_entry *e = bucket_of(t, k);
    tt_entry *victim = NULL;
    assert(0 <= lower && lower <= upper && upper <= 10 && (best == NO_BEST || (best >= 0 && best < 32)));
    for (int i = 0; i < TT_WAYS; i++)
        if (e[i].generation && e[i].ranks == k->ranks && e[i].shape == k->shape) {
            victim = &e[i];
            if (lower < victim->lower) lower = victim->lower;
            if (upper > victim->upper) upper = victim->upper;
            if (best == NO_BEST) best = victim->best;
            assert(lower <= upper);   /* exact bounds of one position agree: entries are never wrong */
            break;
        }
    if (!victim) {
        victim = &e[0];
        int lowest = keep_score(victim, t->generation);
        for (int i = 1; i < TT_WAYS; i++) {
            int score = keep_score(&e[i], t->generation);
            if (score < lowest) {
                victim = &e[i];
                lowest = score;
            }
        }
    }
    victim->ranks = k->ranks;
    victim->shape = k->shape;
    victim->lower = (uint8_t)lower;
    victim->upper = (uint8_t)upper;
    victim->best = (uint8_t)best;
    victim->generation = t->generation;
    t->entries_used = 1;
}
