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
 * w_i*(1/n_i) + (c*sqrt(ln N))*sqrt(1/n_i): one division and one square root per edge,
 * c*sqrt(ln N) computed once per node. */
static inline double uct_value(double sum, uint32_t n, double c_sqrt_log_parent) {
    if (n == 0) return INFINITY;
    double inv = 1.0 / (double)n;
    return sum * inv + c_sqrt_log_parent * sqrt(inv);
}

static inline bool eligible(const miai_edge *e, bool skip_pruned) {
    return !(skip_pruned && (e->flags & MIAI_EDGE_PRUNED));
}

static uint32_t uct_select(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                           uint32_t count, uint32_t role) {
    (void)node;
    (void)role;
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
    double k = parent > 1 ? p->cfg.c * sqrt(log((double)parent)) : 0.0;
    double best = -INFINITY;
    uint32_t chosen = first;
    ties = 0;
    for (uint32_t i = first; i < first + count; i++) {
        if (!eligible(&edges[i], skip_pruned)) continue;
        double v = uct_value(edges[i].sum, edges[i].n, k);
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
