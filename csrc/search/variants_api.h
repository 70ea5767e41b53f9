/* variants_api.h -- the papers' algorithms (UCD, Accelerated and Discounted UCT,
 * UCT and MCTS, MCTS-Solver) as cffi sees them, beyond the ids in search_api.h.
 *
 * Contract:
 *   - The parameters of each algorithm travel in miai_search_config.params; the slot
 *     numbers are below and each policy file documents its own.  A policy refuses
 *     bad values (and games with more than two roles, except UCD, which keeps every
 *     role's payoffs for them) with MIAI_EINVAL from miai_search_create.
 *   - The inspection entries only read the graph; they validate every argument and
 *     return a MIAI_* status code.
 *
 * Read into cffi's cdef by engine/_build.py (after search_api.h, by file name).
 */
#ifndef MIAI_VARIANTS_API_H
#define MIAI_VARIANTS_API_H

#include <stdint.h>

#include "search_api.h"

/* Parameter slots (miai_search_config.params). */
#define MIAI_P_UCD_D1 0        /* depth, < 0 for infinity */
#define MIAI_P_UCD_D2 1
#define MIAI_P_UCD_D3 2
#define MIAI_P_UCD_BACKUP 3    /* MIAI_UCD_* */
#define MIAI_P_UCD_PRIME 4     /* MIAI_UCD_PRIME_*: whose n', mu' eq. (10), (12) read */
#define MIAI_P_UCD_PAYOFFS 5   /* MIAI_UCD_PAYOFFS_* */
#define MIAI_P_LAMBDA 0        /* AUCT, DUCT: decay in (0, 1] */
#define MIAI_P_STAR_P 0        /* UCT*: pruning rate */
#define MIAI_P_STAR_STEP 1     /* UCT*: step width s >= 1 */
#define MIAI_P_STAR_FORM 2     /* 0: eq. (4)/(5), 1: eq. (6)/(7) */
#define MIAI_P_STAR_LEVELS 3   /* C prunes: 0 nowhere, 1 every level, 2 the root */
#define MIAI_P_STAR_RANDOM 4   /* 1: random selection (MCTS*) */
#define MIAI_P_SOLVER 7        /* 1: MCTS-Solver on */

#define MIAI_UCD_DESCENT 0
#define MIAI_UCD_ALL 1
#define MIAI_UCD_INCREMENTAL 2
#define MIAI_UCD_PRIME_EDGE 0  /* n'(e), mu'(e) of the edge (eq. 10, 12 as written) */
#define MIAI_UCD_PRIME_NODE 1  /* n'(y), mu'(y) of its destination node y (sec. 2) */
#define MIAI_UCD_PAYOFFS_AUTO 0    /* general with > 2 roles; else rewards sum to 1 */
#define MIAI_UCD_PAYOFFS_GENERAL 1 /* every role's payoff totals kept (any rewards) */

/* Edge flag bits set by these policies (miai_edge_stats.flags). */
#define MIAI_FLAG_WIN 256      /* MCTS-Solver: proven win for the edge's role */
#define MIAI_FLAG_LOSS 512     /* MCTS-Solver: proven loss */

/* The selection terms of every edge of `node` as the policy computes them:
 * out[4k .. 4k+3] = mean term, parent term, count term, value (UCD: mu_d1, p_d2,
 * n_d3, u; AUCT: r^A, s, n, value; DUCT: r^D, s^D, n^D, value; UCT*: mean, N, n,
 * value).  recompute = 1 makes UCD compute depth infinity by recursion instead of
 * reading its kept sums.  cap >= 4 * edges; *n gets the edge count.  MIAI_EINVAL for
 * an algorithm without terms (plain UCT) or a bad node. */
int miai_variant_edge_terms(miai_search *s, uint32_t node, int recompute, double *out,
                            uint32_t cap, uint32_t *n);

/* UCD keeping every role's payoffs (more than two roles, or payoffs = general): per
 * edge k of `node`, out[2 r k + i] (r = roles) = role i's payoff total over the
 * edge's n payoffs, out[2 r k + r + i] over its n' payoffs.  cap >= 2 r edges; *n
 * gets the edge count.  MIAI_EINVAL for other algorithms, UCD without these totals
 * (or after its memory ran out), a bad node or a short cap. */
int miai_variant_edge_role_sums(miai_search *s, uint32_t node, double *out, uint32_t cap,
                                uint32_t *n);

/* UCT*: apply the B* pruning rule at the root now (the root-only variant, run by
 * the Python layer between batches); *left gets the root moves not pruned.
 * MIAI_EINVAL unless the search runs MIAI_ALG_UCTSTAR. */
int miai_variant_prune_root(miai_search *s, uint32_t *left);

/* MCTS-Solver: *out = 1 if the root is proven a win for its mover, -1 a loss, else 0
 * (always 0 with the solver off). */
int miai_variant_root_proven(const miai_search *s, int32_t *out);

/* UCT*: the pruning interval [low, high] of every root edge, in edge order, with the
 * search's own rate p and form (eq. 5 or eq. 7); an unvisited edge gets [0, 1].
 * cap >= root edges; *n gets the count.  MIAI_EINVAL unless the algorithm is UCT* or
 * MCTS* and the root is an alternating node. */
int miai_uctstar_root_intervals(miai_search *s, double *low, double *high, uint32_t cap,
                                uint32_t *n);

/* UCB1 as every policy computes it (ucb.h), for tests against tests/reference/ucb.py:
 * eq. 1's value of an edge with payoff total `sum` over n visits among siblings with
 * `parent` visits in all, exploration constant c, by the search's own order of
 * operations and table; +infinity for n = 0. */
double miai_ucb_value_of(double c, uint64_t parent, double sum, uint32_t n);

/* ucb.h's arg-max with random tie-break over values[0 .. n), `rounds` times with one
 * rng seeded by `seed` as a search seeds its own: out[r] = the index chosen in round
 * r.  MIAI_EINVAL for n = 0 or a NULL pointer. */
int miai_ucb_argmax_of(const double *values, uint32_t n, uint64_t seed, uint32_t rounds,
                       uint32_t *out);

#endif
