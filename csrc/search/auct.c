/* auct.c -- Accelerated UCT and Discounted UCT (Hashimoto, Kishimoto, Yoshizoe,
 * Ikeda; accelerated-uct.txt).
 *
 * Both: params[0] = lambda in (0, 1] (the paper's grid is lambda = 1 - 0.1^k),
 * cfg.c, params[MIAI_PARAM_SOLVER].  Plain n, sum, n', sum' are kept by
 * update-descent as for UCT (the bias term and the final choice use them).
 *
 * Accelerated UCT: alg_b = the edge's velocity v (eq. 6, a float), alg_a = the
 * accelerated total G = r^A * n, so r^A = G / n (before the edge's destination made
 * its first choice, r^A is the plain mean: G = sum).  At every node of the path,
 * after the playout: every edge's velocity decays and the chosen one gains 1
 * (eq. 6); then the edge entering the node gets eq. (7) over the node's visited
 * edges and the virtual child, whose ratio is the entering edge's mu' and whose
 * velocity is n' lambda^t (t = choices made at the node so far: it starts at the
 * number of pre-expansion playouts and only decays).  With lambda = 1 every
 * velocity is a visit count and r^A is the plain mean (the paper's "identical to
 * UCT"); products v * (G / n) are taken as G when v == n, so that case is exact.
 * In DAG mode the virtual child is the n' part of the edge on the path.
 *
 * Discounted UCT: alg_a = W, the discounted payoff total, alg_b = n^D (a float);
 * r^D = W / n^D.  Eq. (3) and (4) (n <- lambda n + I, r <- (lambda n r + R) / (lambda
 * n + I)) are applied as W <- lambda W + R, n <- lambda n + I to every edge of every
 * node on the path, which is the same r; selection is eq. (2).
 */
#include <stdlib.h>

#include "algos.h"

#define AUCT_POWERS 4096

typedef struct {
    double lambda;
    bool solver;
    double power[AUCT_POWERS];  /* lambda^t, t < AUCT_POWERS (pow() per node is slow) */
} auct_data;

static inline double lambda_to(const auct_data *a, double t) {
    return t < AUCT_POWERS ? a->power[(uint32_t)t] : pow(a->lambda, t);
}

static int auct_init(miai_policy *p, miai_search *s) {
    int rc = miai_algos_check_game(s);
    if (rc != MIAI_OK) return rc;
    double lam = p->cfg.params[0];
    if (!(lam > 0.0 && lam <= 1.0)) return MIAI_EINVAL;
    auct_data *a = calloc(1, sizeof *a);
    if (!a) return MIAI_ENOMEM;
    a->lambda = lam;
    a->solver = miai_solver_on(p);
    for (uint32_t t = 0; t < AUCT_POWERS; t++) a->power[t] = pow(lam, (double)t);
    p->data = a;
    return MIAI_OK;
}

static void auct_destroy(miai_policy *p) {
    free(p->data);
    p->data = NULL;
}

/* G of edge e: the accelerated total, or the plain total before eq. (7) applied. */
static inline double acc_total(const miai_edge *e) {
    return (e->flags & MIAI_EDGE_ACC) ? e->alg_a : e->sum;
}

/* v * (q / n), exactly q when v == n. */
static inline double weighted(double v, double q, double n) {
    if (v == n) return q;
    return n > 0 ? v * (q / n) : 0.0;
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

static uint32_t auct_select(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                            uint32_t count, uint32_t role) {
    (void)role;
    const miai_edge *edges = s->dag.edges;
    uint32_t mask;
    uint32_t early = select_before_values(p, s, node, first, count, &mask);
    if (early != MIAI_NIL) return early;
    double k = miai_ucb_factor(p->cfg.c, parent_of(edges, first, count));
    miai_argmax best;
    miai_argmax_init(&best, first);
    for (uint32_t i = first; i < first + count; i++) {
        if (edges[i].flags & mask) continue;
        /* eq. (5): r^A + C sqrt(log s / n), s the visits of the node's moves */
        miai_argmax_offer(&best, &s->rng, i,
                          miai_ucb(acc_total(&edges[i]), edges[i].n, k));
    }
    return best.chosen;
}

/* At a node of the path where `chosen` was taken: eq. (6) for every edge, then, if
 * `in` (the edge entering the node) is not MIAI_NIL, eq. (7) for it: G = n(in) *
 * sum_j w_j r_j over the visited edges and the virtual child.  One pass. */
static void velocities_and_ratio(const auct_data *a, miai_dag *d, uint32_t node,
                                 uint32_t chosen, uint32_t in) {
    const miai_node *x = &d->nodes[node];
    uint32_t role = in != MIAI_NIL ? miai_role_of(&d->edges[in]) : 0;
    double num = 0.0, den = 0.0, t = 0.0;
    bool flip = in != MIAI_NIL && miai_role_of(&d->edges[chosen]) != role;
    for (uint32_t i = x->first_edge; i < x->first_edge + x->n_edges; i++) {
        miai_edge *f = &d->edges[i];
        if (f->n == 0) continue; /* never chosen: its velocity is 0 and stays 0 */
        /* eq. (6): v <- v lambda + [selected] */
        f->alg_b = (float)((double)f->alg_b * a->lambda + (i == chosen ? 1.0 : 0.0));
        if (in == MIAI_NIL) continue;
        double v = f->alg_b, n = f->n, q = acc_total(f);
        t += n;
        num += weighted(v, flip ? n - q : q, n);
        den += v;
    }
    if (in == MIAI_NIL) return;
    miai_edge *e = &d->edges[in];
    if (e->n_prime) {
        double v = e->n_prime * lambda_to(a, t);
        num += weighted(v, e->sum_prime, e->n_prime);
        den += v;
    }
    if (den <= 0) return;
    e->alg_a = den == e->n ? num : num / den * e->n;
    e->flags |= MIAI_EDGE_ACC;
}

static void auct_backup(miai_policy *p, miai_search *s, const miai_path *path,
                        const double *rewards) {
    const auct_data *a = p->data;
    miai_dag *d = &s->dag;
    miai_backup_descent(s, path, rewards);
    for (uint32_t k = path->len; k-- > 0;) {
        const miai_step *st = &path->steps[k];
        if (miai_simultaneous_at(d, st->node)) continue;
        bool into = k > 0 && !miai_simultaneous_at(d, path->steps[k - 1].node);
        velocities_and_ratio(a, d, st->node, st->edge, into ? path->steps[k - 1].edge : MIAI_NIL);
    }
    if (a->solver) miai_solver_backup(s, path, rewards);
}

static uint32_t duct_select(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                            uint32_t count, uint32_t role) {
    (void)role;
    const miai_edge *edges = s->dag.edges;
    uint32_t mask;
    uint32_t early = select_before_values(p, s, node, first, count, &mask);
    if (early != MIAI_NIL) return early;
    double total = 0.0;
    for (uint32_t i = first; i < first + count; i++) total += edges[i].alg_b;
    double k = miai_ucb_factor(p->cfg.c, total);
    miai_argmax best;
    miai_argmax_init(&best, first);
    for (uint32_t i = first; i < first + count; i++) {
        if (edges[i].flags & mask) continue;
        /* eq. (2): r^D + C sqrt(log s^D / n^D) */
        miai_argmax_offer(&best, &s->rng, i,
                          miai_ucb(edges[i].alg_a, edges[i].alg_b, k));
    }
    return best.chosen;
}

static void duct_backup(miai_policy *p, miai_search *s, const miai_path *path,
                        const double *rewards) {
    const auct_data *a = p->data;
    miai_dag *d = &s->dag;
    miai_backup_descent(s, path, rewards);
    for (uint32_t k = 0; k < path->len; k++) {
        const miai_step *st = &path->steps[k];
        if (miai_simultaneous_at(d, st->node)) continue;
        const miai_node *x = &d->nodes[st->node];
        double r = rewards[st->role];
        for (uint32_t i = x->first_edge; i < x->first_edge + x->n_edges; i++) {
            miai_edge *f = &d->edges[i];
            bool hit = i == st->edge;
            /* eq. (3) and (4) */
            f->alg_a = a->lambda * f->alg_a + (hit ? r : 0.0);
            f->alg_b = (float)(a->lambda * (double)f->alg_b + (hit ? 1.0 : 0.0));
        }
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
        out[4 * k] = e->n ? acc_total(e) / e->n : 0.0;
        out[4 * k + 1] = parent;
        out[4 * k + 2] = e->n;
        out[4 * k + 3] = miai_ucb(acc_total(e), e->n, f);
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
