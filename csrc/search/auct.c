/* auct.c -- Accelerated UCT and Discounted UCT (Hashimoto, Kishimoto, Yoshizoe,
 * Ikeda; accelerated-uct.txt).
 *
 * Both: params[0] = lambda in (0, 1] (the paper's grid is lambda = 1 - 0.1^k),
 * cfg.c, params[MIAI_PARAM_SOLVER].  Plain n, sum, n', sum' are kept by
 * update-descent as for UCT (the bias term and the final choice use them).
 *
 * Accelerated UCT (accel.h has eq. 6 and 7 and the virtual child): alg_b = the
 * edge's velocity v (a float), alg_a = the accelerated total G = r^A * n, so
 * r^A = G / n; before the edge's destination made its first choice G is the plain
 * total (alg_a == sum, the same additions; MIAI_EDGE_ACC is set once eq. 7 applied).
 * Selection eq. (5) computes G (1/n) + c sqrt(log s) sqrt(1/n) as uct.c does, so with
 * lambda = 1 (every velocity a visit count, G the plain total exactly) AUCT makes
 * UCT's choices bit for bit (rewards that are multiples of 1/2^k).  In DAG mode the
 * virtual child is the n' part of the edge on the path.
 *
 * Discounted UCT: alg_a = W, the discounted payoff total, alg_b = n^D (a float);
 * r^D = W / n^D.  Eq. (3) and (4) (n <- lambda n + I, r <- (lambda n r + R) / (lambda
 * n + I)) are applied as W <- lambda W + R, n <- lambda n + I to every edge of every
 * node on the path, which is the same r; selection is eq. (2).
 */
#include <stdlib.h>

#include "accel.h"

typedef struct {
    bool solver;
    miai_decay decay;
} auct_data;

static int auct_init(miai_policy *p, miai_search *s) {
    int rc = miai_algos_check_game(s);
    if (rc != MIAI_OK) return rc;
    double lam = p->cfg.params[0];
    if (!(lam > 0.0 && lam <= 1.0)) return MIAI_EINVAL;
    auct_data *a = calloc(1, sizeof *a);
    if (!a) return MIAI_ENOMEM;
    a->solver = miai_solver_on(p);
    miai_decay_init(&a->decay, lam);
    p->data = a;
    return MIAI_OK;
}

static void auct_destroy(miai_policy *p) {
    free(p->data);
    p->data = NULL;
}

static inline double parent_of(const miai_edge *edges, uint32_t first, uint32_t count) {
    uint64_t parent = 0;
    for (uint32_t i = first; i < first + count; i++) parent += edges[i].n;
    return (double)parent;
}

/* What AUCT and DUCT select before any value is computed: plain UCT at a
 * simultaneous node, a proven win, an unvisited edge; else MIAI_NIL and the mask of
 * edges to leave out. */
static uint32_t select_before_values(miai_policy *p, miai_search *s, uint32_t node,
                                     uint32_t first, uint32_t count, uint32_t *mask) {
    const auct_data *a = p->data;
    const miai_edge *edges = s->dag.edges;
    *mask = 0;
    if (miai_simultaneous_at(&s->dag, node)) return miai_select_plain(s, p->cfg.c, first, count);
    uint32_t win = a->solver ? miai_solver_win(edges, first, count) : MIAI_NIL;
    if (win != MIAI_NIL) return win;
    *mask = miai_exclusion(edges, first, count, a->solver);
    return miai_pick_unvisited(edges, first, count, *mask, &s->rng);
}

/* The arg-max of eq. (5) over the edges of [first, end) without `mask` flags;
 * `visited`: every such edge has n > 0 (no infinite value to test for). */
static inline uint32_t auct_argmax(const miai_edge *edges, uint32_t first, uint32_t end,
                                   uint32_t mask, bool visited, double k, miai_rng *rng) {
    miai_argmax best;
    miai_argmax_init(&best, first);
    for (uint32_t i = first; i < end; i++) {
        if (mask && (edges[i].flags & mask)) continue;
        /* eq. (5): r^A + C sqrt(log s / n), s the visits of the node's moves; G (1/n)
         * as in miai_ucb, so lambda = 1 gives UCT's value bit for bit */
        const double g = miai_accel_total(edges, NULL, i), n = edges[i].n;
        double v;
        if (visited) {
            const double inv = 1.0 / n;
            v = g * inv + k * sqrt(inv);
        } else {
            v = miai_ucb(g, n, k);
        }
        miai_argmax_offer(&best, rng, i, v);
    }
    return best.chosen;
}

/* AUCT's selection.  The common case (no solver, no pruned edge) takes one pass for
 * the visits, the unvisited edges and the flags, then one for the values, with
 * uct.c's rules (an unvisited edge uniformly at random, one draw of the rng); the
 * others go through select_before_values. */
static uint32_t auct_select(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                            uint32_t count, uint32_t role) {
    (void)role;
    const auct_data *a = p->data;
    const miai_edge *edges = s->dag.edges;
    const uint32_t end = first + count;
    if (!a->solver && !miai_simultaneous_at(&s->dag, node)) {
        uint64_t visits = 0;
        uint32_t unvisited = 0, flags = 0;
        for (uint32_t i = first; i < end; i++) {
            const uint32_t n = edges[i].n;
            visits += n;
            unvisited += n == 0;
            flags |= edges[i].flags;
        }
        if (!(flags & MIAI_EDGE_PRUNED)) {
            if (unvisited) {
                uint32_t k = miai_rng_below(&s->rng, unvisited);
                for (uint32_t i = first; i < end; i++)
                    if (edges[i].n == 0 && k-- == 0) return i;
            }
            double k = miai_ucb_factor(p->cfg.c, (double)visits);
            return auct_argmax(edges, first, end, 0u, true, k, &s->rng);
        }
    }
    uint32_t mask;
    uint32_t early = select_before_values(p, s, node, first, count, &mask);
    if (early != MIAI_NIL) return early;
    double k = miai_ucb_factor(p->cfg.c, parent_of(edges, first, count));
    return auct_argmax(edges, first, end, mask, false, k, &s->rng);
}

static void auct_backup(miai_policy *p, miai_search *s, const miai_path *path,
                        const double *rewards) {
    const auct_data *a = p->data;
    miai_backup_descent(s, path, rewards);
    miai_accel_path(&a->decay, &s->dag, NULL, path, rewards);
    if (a->solver) miai_solver_backup(s, path, rewards);
}

/* DUCT's selection; the common case (no solver, no pruned edge, alternating node)
 * takes one pass for s^D, the unvisited edges and the flags, then one for eq. (2),
 * with uct.c's rule for unvisited edges (uniformly at random, one draw of the rng) --
 * the same choices as the general path below, in fewer passes. */
static uint32_t duct_select(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                            uint32_t count, uint32_t role) {
    (void)role;
    const auct_data *a = p->data;
    const miai_edge *edges = s->dag.edges;
    const uint32_t end = first + count;
    uint32_t mask = 0;
    double total = 0.0;
    bool fast = !a->solver && !miai_simultaneous_at(&s->dag, node);
    if (fast) {
        uint32_t unvisited = 0, flags = 0;
        for (uint32_t i = first; i < end; i++) {
            total += edges[i].alg_b;
            unvisited += edges[i].n == 0;
            flags |= edges[i].flags;
        }
        fast = !(flags & MIAI_EDGE_PRUNED);
        if (fast && unvisited) {
            uint32_t k = miai_rng_below(&s->rng, unvisited);
            for (uint32_t i = first; i < end; i++)
                if (edges[i].n == 0 && k-- == 0) return i;
        }
    }
    if (!fast) {
        uint32_t early = select_before_values(p, s, node, first, count, &mask);
        if (early != MIAI_NIL) return early;
        total = 0.0;
        for (uint32_t i = first; i < end; i++) total += edges[i].alg_b;
    }
    const double k = miai_ucb_factor(p->cfg.c, total);
    miai_argmax best;
    miai_argmax_init(&best, first);
    for (uint32_t i = first; i < end; i++) {
        if (mask && (edges[i].flags & mask)) continue;
        /* eq. (2): r^D + C sqrt(log s^D / n^D) */
        miai_argmax_offer(&best, &s->rng, i, miai_ucb(edges[i].alg_a, edges[i].alg_b, k));
    }
    return best.chosen;
}

/* Eq. (3) and (4) without the playout: every edge of [begin, end) decays by lambda. */
static inline void duct_decay(miai_edge *edges, uint32_t begin, uint32_t end, double lam) {
    for (uint32_t i = begin; i < end; i++) {
        edges[i].alg_a = lam * edges[i].alg_a;
        edges[i].alg_b = (float)(lam * (double)edges[i].alg_b);
    }
}

static void duct_backup(miai_policy *p, miai_search *s, const miai_path *path,
                        const double *rewards) {
    const auct_data *a = p->data;
    miai_dag *d = &s->dag;
    const double lam = a->decay.lambda;
    miai_backup_descent(s, path, rewards);
    miai_edge *edges = d->edges; /* a local: stores through edges must not reload it */
    for (uint32_t k = 0; k < path->len; k++) {
        const miai_step *st = &path->steps[k];
        if (miai_simultaneous_at(d, st->node)) continue;
        const miai_node *x = &d->nodes[st->node];
        const uint32_t begin = x->first_edge, end = begin + x->n_edges, hit = st->edge;
        /* eq. (3) and (4): the chosen edge gains the playout, every edge decays */
        duct_decay(edges, begin, hit, lam);
        edges[hit].alg_a = lam * edges[hit].alg_a + rewards[st->role];
        edges[hit].alg_b = (float)(lam * (double)edges[hit].alg_b + 1.0);
        duct_decay(edges, hit + 1, end, lam);
    }
    if (a->solver) miai_solver_backup(s, path, rewards);
}

static uint32_t auct_final(const miai_policy *p, const miai_search *s, uint32_t first,
                           uint32_t count) {
    const auct_data *a = p->data;
    return a->solver ? miai_solver_final(p, s, first, count)
                     : miai_final_default(p, s, first, count);
}

void miai_auct_terms(miai_policy *p, miai_search *s, uint32_t node, double *out) {
    const miai_edge *edges = s->dag.edges;
    const miai_node *x = &s->dag.nodes[node];
    double parent = parent_of(edges, x->first_edge, x->n_edges);
    double f = miai_ucb_factor(p->cfg.c, parent);
    for (uint32_t k = 0; k < x->n_edges; k++) {
        const miai_edge *e = &edges[x->first_edge + k];
        double g = miai_accel_total(edges, NULL, x->first_edge + k);
        out[4 * k] = e->n ? g / e->n : 0.0;
        out[4 * k + 1] = parent;
        out[4 * k + 2] = e->n;
        out[4 * k + 3] = miai_ucb(g, e->n, f);
    }
}

void miai_duct_terms(miai_policy *p, miai_search *s, uint32_t node, double *out) {
    const miai_edge *edges = s->dag.edges;
    const miai_node *x = &s->dag.nodes[node];
    double total = 0.0;
    for (uint32_t k = 0; k < x->n_edges; k++) total += edges[x->first_edge + k].alg_b;
    double f = miai_ucb_factor(p->cfg.c, total);
    for (uint32_t k = 0; k < x->n_edges; k++) {
        const miai_edge *e = &edges[x->first_edge + k];
        out[4 * k] = e->alg_b > 0 ? e->alg_a / e->alg_b : 0.0;
        out[4 * k + 1] = total;
        out[4 * k + 2] = e->alg_b;
        out[4 * k + 3] = miai_ucb(e->alg_a, e->alg_b, f);
    }
}

const miai_policy_ops miai_auct_policy = {
    .name = "auct",
    .init = auct_init,
    .destroy = auct_destroy,
    .select = auct_select,
    .backup = auct_backup,
    .final = auct_final,
};

const miai_policy_ops miai_duct_policy = {
    .name = "duct",
    .init = auct_init,
    .destroy = auct_destroy,
    .select = duct_select,
    .backup = duct_backup,
    .final = auct_final,
};
