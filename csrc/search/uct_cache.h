/* uct_cache.h -- uct.c's node cache and fast selection, for the policies that select
 * by UCT's value (uct.c itself; uctstar.c: UCT* with form eq. 1/5, and UCT with the
 * MCTS-Solver).
 *
 * Contract:
 *   - At an alternating node, node->mark holds N = the sum of n over the node's edges
 *     in its low 30 bits (MIAI_UCT_N_UNKNOWN, saturated, means "sum the edges"),
 *     MIAI_UCT_UNEVEN when some edge has n >= 2, and MIAI_UCT_SPECIAL when some edge
 *     may carry a flag the selection must read (pruned, or proven by the solver).
 *     A new node has mark 0 (dag.c), which is right: no edge visited, none flagged.
 *   - A policy using it keeps it current: miai_uct_backup_descent for the statistics
 *     (update-descent, and N and UNEVEN), miai_uct_mark_special on the node whenever
 *     it sets such a flag on one of the node's edges between reroots, and
 *     miai_uct_recount as (or in) its on_reroot.  Flags set at the root from outside
 *     the policy (miai_search_set_pruned, foreign root edges) need no mark: the root
 *     is always read as special.
 *   - miai_uct_select_fast returns the edge uct.c's full selection would choose,
 *     with the same rng draws, or MIAI_NIL (the rng untouched) when the caller's full
 *     selection must decide.  With `solver`, an edge proven a win is taken at once and
 *     proven losses are skipped like pruned edges (algos.h's rules).
 */
#ifndef MIAI_UCT_CACHE_H
#define MIAI_UCT_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "mcts.h"

#define MIAI_UCT_SPECIAL 0x80000000u
#define MIAI_UCT_UNEVEN 0x40000000u
#define MIAI_UCT_N_UNKNOWN 0x3FFFFFFFu

static inline void miai_uct_mark_special(miai_node *x) { x->mark |= MIAI_UCT_SPECIAL; }

/* The fast selection at `node` (edges[first .. first + count)) with exploration
 * constant c; solver: the MCTS-Solver's rules too (algos.h's MIAI_EDGE_WIN/LOSS). */
uint32_t miai_uct_select_fast(miai_search *s, double c, uint32_t node, uint32_t first,
                              uint32_t count, bool solver);
/* miai_backup_descent, keeping N and MIAI_UCT_UNEVEN. */
void miai_uct_backup_descent(miai_search *s, const miai_path *path, const double *rewards);
/* Every node's mark from its edges; `special` = the edge flags that set MIAI_UCT_SPECIAL. */
void miai_uct_recount(miai_search *s, uint32_t special);

/* solver.c: miai_solver_backup for a policy that keeps this cache: nodes without
 * MIAI_UCT_SPECIAL have no proven edge (their status is read as open without a scan),
 * and every node one of whose edges gets proven is marked special. */
void miai_solver_backup_uct(miai_search *s, const miai_path *path, const double *rewards);

#endif
