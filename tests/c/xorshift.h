/*
 * xorshift.h - the seeded generator of the test drivers in tests/c
 * (xorshift64, Marsaglia): the same sequence on every machine, so a
 * driver's positions are the same from run to run.
 */
#include <stdint.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
