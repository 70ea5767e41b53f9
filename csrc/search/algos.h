/* algos.h -- pieces shared by the papers' policies (ucd.c, auct.c, uctstar.c, solver.c).
 *
 * Contract:
 *   - Every policy here works for one role or two roles whose rewards sum to 1
 *     (win/draw/loss): the mean of an edge as seen by the other role is 1 - mean
 *     (miai_q_for).  init refuses games with more than two roles (MIAI_EINVAL),
 *     except UCD, which then keeps every role's payoff totals (ucd.c).  The
 *     algorithms are defined for alternating moves: at a simultaneous node (a GDL game
 *     may have some) every policy selects by plain decoupled UCT (miai_select_plain)
 *     and its own backup skips the node (UCD refreshes its sums along such a path
 *     only; the solver proves nothing there).
 *   - Policy flag bits (inside MIAI_EDGE_POLICY) used by these policies:
 *       MIAI_EDGE_WIN / MIAI_EDGE_LOSS   the MCTS-Solver's proven value of the edge for
 *                                        its role (solver.c; any policy with the solver);
 *       MIAI_EDGE_INLIST                 UCD: the edge is in its child's in-edge list;
 *       MIAI_EDGE_ONPATH, MIAI_EDGE_FRESH UCD: scratch during one backup;
 *       MIAI_EDGE_ACC                    AUCT: eq. 7 has applied (accel.h).
 *   - cfg.params[MIAI_PARAM_SOLVER] != 0 turns the MCTS-Solver on (every policy here).
 *   - Selection follows uct.c's rules exactly (an unvisited edge uniformly at random
 *     first, then ucb.h's arg-max: reservoir sampling with the search's rng over equal
 *     values), so an algorithm that computes the same values as UCT makes the same
 *     choices under the same seed.
 */
#ifndef MIAI_ALGOS_H
#define MIAI_ALGOS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "mcts.h"
#include "ucb.h"

#define MIAI_PARAM_SOLVER 7

#define MIAI_EDGE_WIN 0x100u
#define MIAI_EDGE_LOSS 0x200u
#define MIAI_EDGE_PROVEN (MIAI_EDGE_WIN | MIAI_EDGE_LOSS)
#define MIAI_EDGE_INLIST 0x400u
#define MIAI_EDGE_ONPATH 0x800u
#define MIAI_EDGE_ACC 0x1000u
#define MIAI_EDGE_FRESH 0x2000u

/* Flags that keep an edge of edges[first .. first+count) out of selection: pruned
 * edges unless every edge is pruned; with the solver also proven losses unless every
 * remaining edge is one. */
static inline uint32_t miai_exclusion(const miai_edge *edges, uint32_t first, uint32_t count,
                                      bool solver) {
    uint32_t mask = 0;
    for (uint32_t i = first; i < first + count; i++)
        if (!(edges[i].flags & MIAI_EDGE_PRUNED)) {
            mask = MIAI_EDGE_PRUNED;
            break;
        }
    if (solver)
        for (uint32_t i = first; i < first + count; i++)
            if (!(edges[i].flags & (mask | MIAI_EDGE_LOSS))) {
                mask |= MIAI_EDGE_LOSS;
                break;
            }
    return mask;
}

/* uct.c's first step: unvisited edges are worth +infinity, so if some edge that the
 * mask lets through has n == 0, one of them uniformly at random (one draw of the
 * rng, as uct.c does); else MIAI_NIL. */
static inline uint32_t miai_pick_unvisited(const miai_edge *edges, uint32_t first,
                                           uint32_t count, uint32_t mask, miai_rng *rng) {
    uint32_t unvisited = 0;
    for (uint32_t i = first; i < first + count; i++)
        unvisited += edges[i].n == 0 && !(edges[i].flags & mask);
    if (!unvisited) return MIAI_NIL;
    uint32_t k = miai_rng_below(rng, unvisited);
    for (uint32_t i = first; i < first + count; i++)
        if (edges[i].n == 0 && !(edges[i].flags & mask) && k-- == 0) return i;
    return MIAI_NIL;
}

static inline bool miai_simultaneous_at(const miai_dag *d, uint32_t node) {
    return d->nodes[node].to_move == MIAI_SIMULTANEOUS;
}

/* Does the path pass a simultaneous node? */
static inline bool miai_path_simultaneous(const miai_dag *d, const miai_path *path) {
    for (uint32_t k = 0; k < path->len; k++)
        if (miai_simultaneous_at(d, path->steps[k].node)) return true;
    return false;
}

/* A payoff total `q` over `n` payoffs of role `from`, as seen by role `to`. */
static inline double miai_q_for(double q, double n, uint32_t from, uint32_t to) {
    return from == to ? q : n - q;
}

static inline uint32_t miai_role_of(const miai_edge *e) { return miai_edge_role(e); }

/* uct.c's selection over edges[first .. first + count) (decoupled UCT at a
 * simultaneous node's role block). */
static inline uint32_t miai_select_plain(miai_search *s, double c, uint32_t first,
                                         uint32_t count) {
    const miai_edge *edges = s->dag.edges;
    uint32_t mask = miai_exclusion(edges, first, count, false);
    uint32_t fresh = miai_pick_unvisited(edges, first, count, mask, &s->rng);
    if (fresh != MIAI_NIL) return fresh;
    uint64_t parent = 0;
    for (uint32_t i = first; i < first + count; i++) parent += edges[i].n;
    double k = miai_ucb_factor(&s->ucb, c, parent); /* eq. 1 (ucb.h) */
    miai_argmax best;
    miai_argmax_init(&best, first);
    for (uint32_t i = first; i < first + count; i++)
        if (!(edges[i].flags & mask))
            miai_argmax_offer(&best, &s->rng, i,
                              miai_ucb_value_real(edges[i].sum, edges[i].n, k));
    return best.chosen;
}

/* Games these policies accept (see the contract). */
int miai_algos_check_game(const miai_search *s);
bool miai_solver_on(const miai_policy *p);

/* MCTS-Solver (solver.c). */
/* An edge proven a win for its role is chosen at once; returns MIAI_NIL if none. */
uint32_t miai_solver_win(const miai_edge *edges, uint32_t first, uint32_t count);
/* Back proofs up the path after the statistics were updated; a proven root sets the
 * search's stop flag. */
void miai_solver_backup(miai_search *s, const miai_path *path, const double *rewards);
/* Final choice with proofs: a proven win, else the configured rule among the edges
 * that are not proven losses (all, if every edge is one). */
uint32_t miai_solver_final(const miai_policy *p, const miai_search *s, uint32_t first,
                           uint32_t count);
/* 1: root proven a win for its mover, -1: a loss, 0: not proven. */
int miai_solver_root(const miai_search *s);

/* Selection values for the debug API (algos_api.h): out[4*k ..] = mean term, parent
 * term, count term, value, for the edges of `node`. */
void miai_ucd_terms(miai_policy *p, miai_search *s, uint32_t node, double *out);
void miai_auct_terms(miai_policy *p, miai_search *s, uint32_t node, double *out);
void miai_duct_terms(miai_policy *p, miai_search *s, uint32_t node, double *out);
void miai_uctstar_terms(miai_policy *p, miai_search *s, uint32_t node, double *out);
void miai_uctstar_prune_root(miai_policy *p, miai_search *s, uint32_t *left);

#endif
