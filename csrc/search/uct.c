/* uct.c -- plain UCT (Kocsis & Szepesvari): UCB1 selection, update-descent backup.
 *
 * Parameters: cfg.c (exploration constant), cfg.final_choice.  No params[] used.
 * Unvisited edges have an infinite value; ties are broken uniformly at random with
 * the search's rng (reservoir sampling over equal values).
 *
 * Node cache (uct_cache.h, shared with uctstar.c): at an alternating node, node->mark
 * holds N = the sum of n over the node's edges, MIAI_UCT_UNEVEN when some edge has
 * n >= 2, and MIAI_UCT_SPECIAL when some edge may be flagged (pruned; proven, for the
 * solver); uct_backup keeps it and uct_on_reroot recomputes it from the edges.  Plain
 * UCT prunes only at the root (miai_search_set_pruned between runs), which is always
 * read as special.  With it the two usual selections read the edges once:
 *   - every edge visited: one arg-max pass (it checks n > 0 itself, and at a special
 *     node skips pruned edges -- proven losses with the solver, and takes a proven
 *     win -- and otherwise restores the rng and falls back);
 *   - filling (N < count, every n <= 1, not special): the N visited edges have n = 1,
 *     so count - N are unvisited; the draw and the scan for the chosen one need no
 *     counting pass.  The root is left out.
 * Anything else takes the full two-pass selection, so the choice and the rng draws
 * are the same either way.
 */
#include <math.h>

#include "algos.h"
#include "uct_cache.h"

/* The UCT value, uct-star.txt eq. 1 (= ucd.txt eq. 2): U_i = w_i/n_i + c*sqrt(ln N/n_i),
 * with N = p(e), the payoffs of e and its siblings.  Written as
 * w_i*(1/n_i) + (c*sqrt(ln N))*sqrt(1/n_i): c*sqrt(ln N) computed once per node, 1/n_i
 * and sqrt(1/n_i) looked up for small n_i (ucb_table.h: the same bits as computing
 * them), else one division and one square root per edge. */
static inline double uct_value_of(double sum, miai_ucb_count q, double c_sqrt_log_parent) {
    return sum * q.inv + c_sqrt_log_parent * q.sqrt_inv;
}

static inline double uct_value(const miai_ucb_table *t, double sum, uint32_t n,
                               double c_sqrt_log_parent) {
    if (n == 0) return INFINITY;
    return uct_value_of(sum, miai_ucb_count_of(t, n), c_sqrt_log_parent);
}

#define UCT_N(mark) ((mark) & MIAI_UCT_N_UNKNOWN)

static inline bool eligible(const miai_edge *e, bool skip_pruned) {
    return !(skip_pruned && (e->flags & MIAI_EDGE_PRUNED));
}

/* The exploration factor c*sqrt(ln N) of eq. 1 (0 while N <= 1). */
static inline double uct_factor(const miai_search *s, double c, uint64_t parent) {
    return parent > 1 ? c * miai_ucb_sqrt_log(&s->ucb, parent) : 0.0;
}

/* Arg-max of uct_value over the eligible edges, ties broken by reservoir sampling. */
static uint32_t uct_argmax(miai_search *s, uint32_t first, uint32_t count, bool skip_pruned,
                           double k) {
    const miai_edge *edges = s->dag.edges;
    double best = -INFINITY;
    uint32_t chosen = first, ties = 0;
    for (uint32_t i = first; i < first + count; i++) {
        if (!eligible(&edges[i], skip_pruned)) continue;
        double v = uct_value(&s->ucb, edges[i].sum, edges[i].n, k);
        if (v > best) {
            best = v;
            chosen = i;
            ties = 1;
        } else if (v == best && miai_rng_below(&s->rng, ++ties) == 0) {
            chosen = i;
        }
    }
    return chosen;
}

/* The general case: some edge is pruned. */
static uint32_t uct_select_pruned(miai_policy *p, miai_search *s, uint32_t first,
                                  uint32_t count) {
    const miai_edge *edges = s->dag.edges;
    uint64_t parent = 0;
    uint32_t unvisited = 0, unvisited_open = 0;
    bool skip_pruned = false;
    for (uint32_t i = first; i < first + count; i++) {
        bool open = !(edges[i].flags & MIAI_EDGE_PRUNED);
        parent += edges[i].n;
        skip_pruned |= open;
        unvisited += edges[i].n == 0;
        unvisited_open += edges[i].n == 0 && open;
    }
    /* Unvisited edges are worth +infinity: one of them, uniformly at random. */
    uint32_t ties = skip_pruned ? unvisited_open : unvisited;
    if (ties) {
        uint32_t k = miai_rng_below(&s->rng, ties);
        for (uint32_t i = first; i < first + count; i++)
            if (edges[i].n == 0 && eligible(&edges[i], skip_pruned) && k-- == 0) return i;
    }
    return uct_argmax(s, first, count, skip_pruned, uct_factor(s, p->cfg.c, parent));
}

/* One pass over a node whose N is known: the arg-max of uct_value with uct_argmax's
 * tie draws, or MIAI_NIL (the rng as it was) when an eligible edge is unvisited or
 * none is eligible, and the full selection must decide.  `skip`: the flags that keep
 * an edge out (pruned; with the solver also proven losses -- then an edge proven a
 * win is returned at once, as miai_solver_win would: the scan reaches it before any
 * later edge could matter, and the draws made so far are undone).  With an eligible
 * edge present, the full selection's exclusion mask is exactly `skip` (algos.h). */
static inline uint32_t uct_argmax_once(miai_search *s, uint32_t first, uint32_t count,
                                       double k, uint32_t skip, uint32_t win) {
    const miai_edge *e = s->dag.edges + first;
    const miai_ucb_table *t = &s->ucb;
    miai_rng saved = s->rng;
    double best = -INFINITY;
    uint32_t chosen = 0, ties = 0;
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
        double v = uct_value_of(e[i].sum, miai_ucb_count_of(t, n), k);
        if (v > best) {
            best = v;
            chosen = i;
            ties = 1;
        } else if (v == best && miai_rng_below(&s->rng, ++ties) == 0) {
            chosen = i;
        }
    }
    if (skip && ties == 0) { /* no eligible edge (each eligible value is finite) */
        s->rng = saved;
        return MIAI_NIL;
    }
    return first + chosen;
}

/* The cached selections (uct_cache.h), or MIAI_NIL. */
static inline uint32_t uct_select_cached(miai_search *s, double c, uint32_t node,
                                         uint32_t first, uint32_t count, bool solver) {
    const miai_node *x = &s->dag.nodes[node];
    uint32_t big_n = UCT_N(x->mark);
    if (x->to_move == MIAI_SIMULTANEOUS || big_n == MIAI_UCT_N_UNKNOWN) return MIAI_NIL;
    bool special = (x->mark & MIAI_UCT_SPECIAL) || node == s->dag.root;
    if (big_n >= count) { /* every edge visited needs N >= count (the pass checks the rest) */
        double k = uct_factor(s, c, big_n);
        if (!special) return uct_argmax_once(s, first, count, k, 0, 0);
        return solver ? uct_argmax_once(s, first, count, k,
                                        MIAI_EDGE_PRUNED | MIAI_EDGE_PROVEN, MIAI_EDGE_WIN)
                      : uct_argmax_once(s, first, count, k, MIAI_EDGE_PRUNED, 0);
    }
    if (!(x->mark & MIAI_UCT_UNEVEN) && !special) {
        const miai_edge *edges = s->dag.edges;
        uint32_t k = miai_rng_below(&s->rng, count - big_n);
        for (uint32_t i = first; i < first + count; i++)
            if (edges[i].n == 0 && k-- == 0) return i;
    }
    return MIAI_NIL;
}

uint32_t miai_uct_select_fast(miai_search *s, double c, uint32_t node, uint32_t first,
                              uint32_t count, bool solver) {
    return uct_select_cached(s, c, node, first, count, solver);
}

static uint32_t uct_select(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                           uint32_t count, uint32_t role) {
    (void)role;
    uint32_t chosen = uct_select_cached(s, p->cfg.c, node, first, count, false);
    if (chosen != MIAI_NIL) return chosen;
    const miai_edge *edges = s->dag.edges;
    uint64_t parent = 0;
    uint32_t unvisited = 0, flags = 0;
    for (uint32_t i = first; i < first + count; i++) {
        parent += edges[i].n;
        unvisited += edges[i].n == 0;
        flags |= edges[i].flags;
    }
    if (flags & MIAI_EDGE_PRUNED) return uct_select_pruned(p, s, first, count);
    /* No edge pruned (the usual case): the same choice with fewer tests. */
    if (unvisited) {
        uint32_t k = miai_rng_below(&s->rng, unvisited);
        for (uint32_t i = first; i < first + count; i++)
            if (edges[i].n == 0 && k-- == 0) return i;
    }
    return uct_argmax(s, first, count, false, uct_factor(s, p->cfg.c, parent));
}

void miai_uct_backup_descent(miai_search *s, const miai_path *path, const double *rewards) {
    /* miai_backup_descent, and each step adds 1 to its node's N. */
    miai_node *nodes = s->dag.nodes;
    miai_edge *edges = s->dag.edges;
    for (uint32_t i = 0; i < path->len; i++) {
        const miai_step *st = &path->steps[i];
        miai_edge *e = &edges[st->edge];
        miai_backup_step(e, rewards[st->role], i >= path->last_level);
        miai_node *x = &nodes[st->node];
        if (x->to_move == MIAI_SIMULTANEOUS) continue;
        if (UCT_N(x->mark) != MIAI_UCT_N_UNKNOWN) x->mark++;
        if (e->n >= 2) x->mark |= MIAI_UCT_UNEVEN;
    }
}

static void uct_backup(miai_policy *p, miai_search *s, const miai_path *path,
                       const double *rewards) {
    (void)p;
    miai_uct_backup_descent(s, path, rewards);
}

void miai_uct_recount(miai_search *s, uint32_t special) {
    miai_dag *d = &s->dag;
    for (uint32_t i = 0; i < d->n_nodes; i++) {
        miai_node *x = &d->nodes[i];
        uint64_t sum = 0;
        uint32_t bits = 0;
        for (uint32_t k = 0; k < x->n_edges; k++) {
            const miai_edge *e = &d->edges[x->first_edge + k];
            sum += e->n;
            if (e->n >= 2) bits |= MIAI_UCT_UNEVEN;
            if (e->flags & special) bits |= MIAI_UCT_SPECIAL;
        }
        x->mark = (sum < MIAI_UCT_N_UNKNOWN ? (uint32_t)sum : MIAI_UCT_N_UNKNOWN) | bits;
    }
}

/* After a reroot (mark = old first edge, policy.h): every node's N from its edges. */
static void uct_on_reroot(miai_policy *p, miai_search *s) {
    (void)p;
    miai_uct_recount(s, MIAI_EDGE_PRUNED);
}

const miai_policy_ops miai_uct_policy = {
    .name = "uct",
    .select = uct_select,
    .on_reroot = uct_on_reroot,
    .backup = uct_backup,
};
