/* ucb.h -- UCB1 as UCT selects by it, written once: the exploration factor, the value,
 * and the arg-max with its random tie-break.  Every policy (uct.c, uct_cache.h,
 * uctstar.c, ucd.c, auct.c, rave.c, algos.h's plain selection) calls these.
 *
 * The formula (uct-star.txt eq. 1; ucd.txt eq. 2 with N = p(e)):
 *     U_i = w_i/n_i + c sqrt(ln N / n_i),   N = the visits of i and its siblings.
 *
 * Contract:
 *   - The exploration factor k = c sqrt(ln N) is computed once per node
 *     (miai_ucb_factor, or miai_ucb_factor_real for counts kept as doubles), 0 while
 *     N <= 1; then each edge's value is mean + k sqrt(1/n) (miai_ucb_value), and
 *     w (1/n) + k sqrt(1/n) from a payoff total (miai_ucb_value_sum).  1/n, sqrt(1/n)
 *     and sqrt(ln N) come from the search's table for small whole counts (ucb_table.h:
 *     the same bits as computing them).  This order of operations is the one every
 *     policy used before they shared it, so a seed gives the same statistics.
 *   - miai_ucb_bonus is eq. 1's exploration term in the paper's own order,
 *     c sqrt(ln N / n): it differs from k sqrt(1/n) in the last bits, so the policies
 *     that always computed it so (rave.c's term added to eq. 8, uctstar.c's interval
 *     half width of eq. 4/5) keep it.
 *   - miai_argmax is the one arg-max: the first strictly greater value wins, and among
 *     equal values each is kept with probability 1/ties (reservoir sampling: one
 *     miai_rng_below(rng, ties) draw per tie after the first), so every tied edge is
 *     chosen uniformly at random.  An unvisited edge (value +infinity) is handled
 *     before, by one draw among the unvisited edges (algos.h miai_pick_unvisited).
 *   - tests/reference/ucb.py is the plain-Python reference of each (factor, value,
 *     tie-break with the same rng); tests/test_ucb.py compares them through
 *     miai_ucb_value_of / miai_ucb_argmax_of (variants_api.h).
 */
#ifndef MIAI_UCB_H
#define MIAI_UCB_H

#include <math.h>
#include <stdint.h>

#include "../core/rng.h"
#include "ucb_table.h"

/* Inlined into its caller whatever the compiler's size estimate (GCC, Clang): the
 * selection loops that use these are each one function, as they were when each policy
 * wrote its own. */
#if defined(__GNUC__)
#define MIAI_UCB_INLINE inline __attribute__((always_inline))
#else
#define MIAI_UCB_INLINE inline
#endif

/* ---- eq. 1: factor and value ---- */

/* Eq. 1's exploration factor c sqrt(ln N) of a node whose edges have N visits in all
 * (0 while N <= 1), sqrt(ln N) from the table when N is in it. */
static inline double miai_ucb_factor(const miai_ucb_table *t, double c, uint64_t parent) {
    return parent > 1 ? c * miai_ucb_sqrt_log(t, parent) : 0.0;
}

/* The same factor for a count kept as a double (UCD's path counts, DUCT's discounted
 * s): from the table when N is a whole number in it (t may be NULL: computed). */
static inline double miai_ucb_factor_real(const miai_ucb_table *t, double c, double parent) {
    if (!(parent > 1)) return 0.0;
    uint32_t i = miai_ucb_table_index(parent);
    return c * (t && i < MIAI_UCB_TABLE ? t->sqrt_log[i] : sqrt(log(parent)));
}

/* Eq. 1's value from the mean and 1/sqrt(n): mean + (c sqrt(ln N)) sqrt(1/n), with
 * k = the factor above. */
static inline double miai_ucb_value(double mean, double k, double sqrt_inv) {
    return mean + k * sqrt_inv;
}

/* Eq. 1's value from the payoff total w of n visits, q = {1/n, sqrt(1/n)}:
 * w (1/n) + k sqrt(1/n). */
static inline double miai_ucb_value_sum(double sum, miai_ucb_count q, double k) {
    return miai_ucb_value(sum * q.inv, k, q.sqrt_inv);
}

/* miai_ucb_value_sum for a count n kept as a double, computed (no table); +infinity
 * for n = 0. */
static inline double miai_ucb_value_real(double sum, double n, double k) {
    if (n == 0) return INFINITY;
    return miai_ucb_value_sum(sum, miai_ucb_count_real(n), k);
}

/* ln N of a visit count, 0 for N = 0 (the log of the bonus below). */
static inline double miai_ucb_log(uint64_t parent) {
    return parent ? log((double)parent) : 0.0;
}

/* Eq. 1's exploration term in the paper's order, c sqrt(ln N / n), n > 0, with
 * log_parent = miai_ucb_log(N) (see the contract: rave.c, and uctstar.c's eq. 4/5
 * interval with its rate in place of c). */
static inline double miai_ucb_bonus(double c, double log_parent, double n) {
    return c * sqrt(log_parent / n);
}

/* ---- the arg-max with random tie-break ---- */

typedef struct {
    uint32_t chosen; /* the index kept so far (the init's `first` while none offered) */
    uint32_t ties;   /* how many offered values equal best (0: none offered) */
    double best;
} miai_argmax;

static inline void miai_argmax_init(miai_argmax *a, uint32_t first) {
    a->chosen = first;
    a->ties = 0;
    a->best = -INFINITY;
}

/* Offer index i with value v: a greater value is kept, an equal one replaces the kept
 * one with probability 1/ties (one draw of rng). */
static MIAI_UCB_INLINE void miai_argmax_offer(miai_argmax *a, miai_rng *rng, uint32_t i, double v) {
    if (v > a->best) {
        a->best = v;
        a->chosen = i;
        a->ties = 1;
    } else if (v == a->best && miai_rng_below(rng, ++a->ties) == 0) {
        a->chosen = i;
    }
}

#endif
