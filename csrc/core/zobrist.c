#include "zobrist.h"

#include <string.h>

#include "rng.h"

uint64_t zobrist_seed(const char *name, const double *params, uint32_t n_params) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ULL;
    }
    for (uint32_t i = 0; i < n_params; i++) {
        /* Hash the value as an integer when whole, so 9 and 9.0 agree everywhere. */
        int64_t v = (int64_t)(params[i] * 1024.0);
        for (int b = 0; b < 8; b++) {
            h ^= (uint64_t)((v >> (8 * b)) & 0xff);
            h *= 0x100000001b3ULL;
        }
    }
    return h;
}

void zobrist_fill(miai_zkey *table, size_t n, uint64_t seed) {
    uint64_t x = seed;
    for (size_t i = 0; i < n; i++) {
        do table[i].k1 = miai_splitmix64(&x); while (table[i].k1 == 0);
        do table[i].k2 = miai_splitmix64(&x); while (table[i].k2 == 0);
    }
}
