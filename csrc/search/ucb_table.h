/* ucb_table.h -- the UCB1 terms of small integer counts, precomputed per search.
 *
 * Contract:
 *   - A miai_ucb_table holds, for every integer 1 <= n < MIAI_UCB_TABLE, the values
 *     1.0 / n, sqrt(1.0 / n) and sqrt(log(n)) computed by the same double expressions
 *     the selection would evaluate (no fast-math), so a lookup gives the same bits as
 *     the computation: a selection that uses the table makes the same choices.
 *   - Counts at or above MIAI_UCB_TABLE (and 0) are computed, not looked up.
 *   - The table is plain data inside each search (no global state); miai_ucb_table_init
 *     fills it once when the search is created.
 *   - These are the pieces of UCT's value (uct-star.txt eq. 1); the formula itself
 *     is in ucb.h.
 */
#ifndef MIAI_UCB_TABLE_H
#define MIAI_UCB_TABLE_H

#include <math.h>
#include <stdint.h>

#define MIAI_UCB_TABLE 1024u

typedef struct {
    double inv;       /* 1.0 / n */
    double sqrt_inv;  /* sqrt(1.0 / n) */
} miai_ucb_count;

typedef struct {
    miai_ucb_count count[MIAI_UCB_TABLE];  /* [0] unused */
    double sqrt_log[MIAI_UCB_TABLE];       /* sqrt(log(n)); [0] unused */
} miai_ucb_table;

static inline void miai_ucb_table_init(miai_ucb_table *t) {
    t->count[0] = (miai_ucb_count){0.0, 0.0};
    t->sqrt_log[0] = 0.0;
    for (uint32_t n = 1; n < MIAI_UCB_TABLE; n++) {
        double inv = 1.0 / (double)n;
        t->count[n] = (miai_ucb_count){inv, sqrt(inv)};
        t->sqrt_log[n] = sqrt(log((double)n));
    }
}

/* sqrt(log(n)), n >= 1. */
static inline double miai_ucb_sqrt_log(const miai_ucb_table *t, uint64_t n) {
    return n < MIAI_UCB_TABLE ? t->sqrt_log[n] : sqrt(log((double)n));
}

/* 1/n and sqrt(1/n) of n > 0, computed. */
static inline miai_ucb_count miai_ucb_count_real(double n) {
    double inv = 1.0 / n;
    return (miai_ucb_count){inv, sqrt(inv)};
}

/* 1/n and sqrt(1/n), n >= 1. */
static inline miai_ucb_count miai_ucb_count_of(const miai_ucb_table *t, uint32_t n) {
    if (n < MIAI_UCB_TABLE) return t->count[n];
    return miai_ucb_count_real((double)n);
}

/* A count kept as a double (a whole number: sums of counts) as an index of the
 * table, or MIAI_UCB_TABLE when it is outside it. */
static inline uint32_t miai_ucb_table_index(double x) {
    return x >= 1.0 && x < (double)MIAI_UCB_TABLE && (double)(uint32_t)x == x ? (uint32_t)x
                                                                             : MIAI_UCB_TABLE;
}

#endif
