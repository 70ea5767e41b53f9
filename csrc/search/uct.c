/* uct.c -- plain UCT (Kocsis & Szepesvari): UCB1 selection, update-descent backup.
 *
 * Parameters: cfg.c (exploration constant), cfg.final_choice.  No params[] used.
 * Unvisited edges have an infinite value; ties are broken uniformly at random with
 * the search's rng (reservoir sampling over equal values).
 */
#include <math.h>

#include "mcts.h"

/* The UCT value, uct-star.txt eq. 1 (= ucd.txt eq. 2): U_i = w_i/n_i + c*sqrt(ln N/n_i),
 * with N = p(e), the payoffs of e and its siblings.  Written as
 * w_i*(1/n_i) + (c*sqrt(ln N))*sqrt(1/n_i): c*sqrt(ln N) computed once per node, 1/n_i
 * and sqrt(1/n_i) looked up for small n_i (ucb_table.h: the same bits as computing
 * them), else one division and one square root per edge. */
static inline double uct_value(const miai_ucb_table *t, double sum, uint32_t n,
                               double c_sqrt_log_parent) {
    if (n == 0) return INFINITY;
    miai_ucb_count q = miai_ucb_count_of(t, n);
    return sum * q.inv + c_sqrt_log_parent * q.sqrt_inv;
}

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

static uint32_t uct_select(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                           uint32_t count, uint32_t role) {
    (void)node;
    (void)role;
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

static void uct_backup(miai_policy *p, miai_search *s, const miai_path *path,
                       const double *rewards) {
    (void)p;
    miai_backup_descent(s, path, rewards);
}

const miai_policy_ops miai_uct_policy = {
    .name = "uct",
    .select = uct_select,
    .backup = uct_backup,
};
