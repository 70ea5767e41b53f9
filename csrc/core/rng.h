/* rng.h -- the random number generator of playouts and search.
 *
 * xoshiro256** (Blackman & Vigna) seeded through splitmix64.  A miai_rng is plain
 * data owned by its user (one per search / playout loop): no global state, so two
 * searches in one process never share a stream.  Same seed, same stream, on every
 * platform.
 */
#ifndef MIAI_RNG_H
#define MIAI_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} miai_rng;

static inline uint64_t miai_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void miai_rng_seed(miai_rng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = miai_splitmix64(&x);
}

static inline uint64_t miai_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t miai_rng_next(miai_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = miai_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = miai_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; bias < n / 2^32,
 * negligible for move counts). */
static inline uint32_t miai_rng_below(miai_rng *r, uint32_t n) {
    return (uint32_t)(((miai_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform double in [0, 1). */
static inline double miai_rng_unit(miai_rng *r) {
    return (double)(miai_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
