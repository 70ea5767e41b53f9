/* uct_cache.h -- UCT's value (eq. 1), its node cache and fast selection, for the
 * policies that select by it (uct.c; uctstar.c: UCT* with form eq. 1/5, and UCT with
 * the MCTS-Solver).  The full selection and the recount are uct.c's.
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

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "algos.h"
#include "mcts.h"
#include "ucb.h"

#define MIAI_UCT_SPECIAL 0x80000000u
#define MIAI_UCT_UNEVEN 0x40000000u
#define MIAI_UCT_N_UNKNOWN 0x3FFFFFFFu
#define MIAI_UCT_N(mark) ((mark) & MIAI_UCT_N_UNKNOWN)

static inline void miai_uct_mark_special(miai_node *x) { x->mark |= MIAI_UCT_SPECIAL; }

/* One pass over a node whose N is known: the arg-max of eq. 1 (ucb.h's value and
 * arg-max), or MIAI_NIL (the rng as it was) when an eligible edge is unvisited or
 * none is eligible, and the full selection must decide.  `skip`: the flags that keep
 * an edge out (pruned; with the solver also proven losses -- then an edge proven a
 * win is returned at once, as miai_solver_win would: the scan reaches it before any
 * later edge could matter, and the draws made so far are undone).  With an eligible
 * edge present, the full selection's exclusion mask is exactly `skip` (algos.h). */
static MIAI_UCB_INLINE uint32_t miai_uct_argmax_once(miai_search *s, uint32_t first,
                                                     uint32_t count, double k,
                                                     uint32_t skip, uint32_t win) {
    const miai_edge *e = s->dag.edges + first;
    const miai_ucb_table *t = &s->ucb;
    miai_rng saved = s->rng;
    miai_argmax best;
    miai_argmax_init(&best, 0);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t n = e[i].n;
        if (skip && (e[i].flags & skip)) {
            if (e[i].flags & win) {
                s->rng = saved;
                return first + i;
            }
            continue;
        }
        if (n == 0) {
            s->rng = saved;
            return MIAI_NIL;
        }
        miai_argmax_offer(&best, &s->rng, i,
                          miai_ucb_value_sum(e[i].sum, miai_ucb_count_of(t, n), k));
    }
    if (skip && best.ties == 0) { /* no eligible edge (each eligible value is finite) */
        s->rng = saved;
        return MIAI_NIL;
    }
    return first + best.chosen;
}

/* The cached selections at `node` (edges[first .. first + count)), exploration
 * constant c, or MIAI_NIL (see the contract). */
static inline uint32_t miai_uct_select_fast(miai_search *s, double c, uint32_t node,
                                            uint32_t first, uint32_t count, bool solver) {
    const miai_node *x = &s->dag.nodes[node];
    uint32_t big_n = MIAI_UCT_N(x->mark);
    if (x->to_move == MIAI_SIMULTANEOUS || big_n == MIAI_UCT_N_UNKNOWN) return MIAI_NIL;
    bool special = (x->mark & MIAI_UCT_SPECIAL) || node == s->dag.root;
    if (big_n >= count) { /* every edge visited needs N >= count (the pass checks the rest) */
        double k = miai_ucb_factor(&s->ucb, c, big_n);
        if (!special) return miai_uct_argmax_once(s, first, count, k, 0, 0);
        return solver ? miai_uct_argmax_once(s, first, count, k,
                                             MIAI_EDGE_PRUNED | MIAI_EDGE_PROVEN, MIAI_EDGE_WIN)
                      : miai_uct_argmax_once(s, first, count, k, MIAI_EDGE_PRUNED, 0);
    }
    if (!(x->mark & MIAI_UCT_UNEVEN) && !special) {
        const miai_edge *edges = s->dag.edges;
        uint32_t k = miai_rng_below(&s->rng, count - big_n);
        for (uint32_t i = first; i < first + count; i++)
            if (edges[i].n == 0 && k-- == 0) return i;
    }
    return MIAI_NIL;
}

/* miai_backup_descent, and each step adds 1 to its node's N. */
static inline void miai_uct_backup_descent(miai_search *s, const miai_path *path,
                                           const double *rewards) {
    miai_node *nodes = s->dag.nodes;
    miai_edge *edges = s->dag.edges;
    for (uint32_t i = 0; i < path->len; i++) {
        const miai_step *st = &path->steps[i];
        miai_edge *e = &edges[st->edge];
        miai_backup_step(e, rewards[st->role], i >= path->last_level);
        miai_node *x = &nodes[st->node];
        if (x->to_move == MIAI_SIMULTANEOUS) continue;
        if (MIAI_UCT_N(x->mark) != MIAI_UCT_N_UNKNOWN) x->mark++;
        if (e->n >= 2) x->mark |= MIAI_UCT_UNEVEN;
    }
}

/* Every node's mark from its edges; `special` = the edge flags that set MIAI_UCT_SPECIAL. */
void miai_uct_recount(miai_search *s, uint32_t special);

/* Threads (policy.h's virtual_loss, threads.c): the node cache's N follows a path's
 * virtual visits, added or taken back. */
void miai_uct_virtual_loss(miai_policy *p, miai_search *s, const miai_path *path,
                           uint32_t amount, bool add);

/* solver.c: miai_solver_backup for a policy that keeps this cache: nodes without
 * MIAI_UCT_SPECIAL have no proven edge (their status is read as open without a scan),
 * and every node one of whose edges gets proven is marked special. */
void miai_solver_backup_uct(miai_search *s, const miai_path *path, const double *rewards);

#endif
