/* zobrist.h -- Zobrist tables from a fixed seed.
 *
 * A table is an array of miai_zkey (two independent 64-bit words).  Games fill their
 * tables once at creation with zobrist_fill(seed): the seed is derived from the game's
 * name and parameters by zobrist_seed(), so keys are the same in every run and every
 * process.  Updating a key is one XOR per word (miai_zxor).
 */
#ifndef MIAI_ZOBRIST_H
#define MIAI_ZOBRIST_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

typedef struct {
    uint64_t k1, k2;
} miai_zkey;

/* A stable 64-bit seed from a name and parameter values (FNV-1a over the bytes). */
uint64_t zobrist_seed(const char *name, const double *params, uint32_t n_params);

/* Fill n keys deterministically from seed; no key is zero. */
void zobrist_fill(miai_zkey *table, size_t n, uint64_t seed);

static inline void miai_zxor(miai_head *h, miai_zkey z) {
    h->key ^= z.k1;
    h->key2 ^= z.k2;
}

static inline void miai_zxor2(uint64_t *k1, uint64_t *k2, miai_zkey z) {
    *k1 ^= z.k1;
    *k2 ^= z.k2;
}

#endif
