/* accel.h -- Accelerated UCT's statistics (Hashimoto et al., accelerated-uct.txt): the
 * velocity of eq. (6) and the accelerated winning ratio of eq. (7), for the policies
 * that use them (auct.c: plain AUCT; rave.c: AUCT with RAVE, section 5.4).
 *
 * Contract:
 *   - Per edge: the velocity v (a float) and the accelerated total G = r^A * n.  They
 *     live in the edge (alg_b = v, alg_a = G; plain AUCT) or in a policy-owned side
 *     array indexed like the dag's edges (`side`, when alg_a/alg_b hold another
 *     algorithm's statistics, e.g. RAVE's AMAF).  Every function takes `side`: NULL
 *     means the edge fields; the functions are inline, so a caller passing a constant
 *     NULL gets code without the test.
 *   - Until eq. (7) first applies to an edge (its destination has not made a choice
 *     yet) G is the plain payoff total, kept equal to `sum` (the same additions);
 *     the MIAI_EDGE_ACC flag (algos.h) marks the edges whose G is accelerated.
 *   - miai_accel_node is the backup at one node of the descent path, after
 *     update-descent counted the playout: eq. (6) for every visited edge of the node,
 *     then eq. (7) for the edge entering it over the node's visited edges and the
 *     virtual child (the entering edge's pre-expansion payoffs: ratio mu', velocity
 *     n' lambda^t, t = choices made at the node so far, so it only decays).  With
 *     lambda = 1 every velocity is a visit count and r^A is the plain mean, exactly
 *     (products v * (G / n) are taken as G when v == n).
 *   - Roles: one role, or two whose rewards sum to 1; a child edge's total is turned
 *     to the entering edge's role as n - G when the roles differ.
 *   - No allocation, no global state.
 */
#ifndef MIAI_ACCEL_H
#define MIAI_ACCEL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "algos.h"

#define MIAI_ACCEL_POWERS 4096

/* One edge's accelerated statistics when they live beside the edge. */
typedef struct {
    double g;  /* accelerated total G (valid when the edge has MIAI_EDGE_ACC) */
    float v;   /* velocity, eq. (6) */
    uint32_t unused;
} miai_accel;

/* The decay lambda and its powers lambda^t for t < MIAI_ACCEL_POWERS (pow() per node
 * would be slow). */
typedef struct {
    double lambda;
    double power[MIAI_ACCEL_POWERS];
} miai_decay;

static inline void miai_decay_init(miai_decay *dc, double lambda) {
    dc->lambda = lambda;
    for (uint32_t t = 0; t < MIAI_ACCEL_POWERS; t++) dc->power[t] = pow(lambda, (double)t);
}

static inline double miai_decay_to(const miai_decay *dc, double t) {
    return t < MIAI_ACCEL_POWERS ? dc->power[(uint32_t)t] : pow(dc->lambda, t);
}

/* G of edge i (always current: the plain total until eq. (7) first applies). */
static inline double miai_accel_total(const miai_edge *edges, const miai_accel *side,
                                      uint32_t i) {
    return side ? side[i].g : edges[i].alg_a;
}

/* v * (q / n), exactly q when v == n (n > 0). */
static inline double miai_accel_weighted(double v, double q, double n) {
    return v == n ? q : v * (q / n);
}

/* Eq. (6) for the visited edges of [from, to), none of them the chosen one.  In the
 * edges (side == NULL) an unvisited edge has v = 0 and G = 0 (only edges on a path
 * change, and they are counted first), so it is decayed too, without a branch on n:
 * 0 * lambda is 0, and its eq. (7) terms below are +0.0, which leave the sums' bits
 * as they are (each sum starts at +0.0, so it is never -0.0). */
static inline void miai_accel_decay(double lambda, miai_edge *edges, miai_accel *side,
                                    uint32_t from, uint32_t to) {
    miai_edge *f = edges + from;
    for (uint32_t i = from; i < to; i++, f++) {
        if (side && f->n == 0) continue; /* never chosen: v is 0 and stays 0 */
        float *v = side ? &side[i].v : &f->alg_b;
        /* eq. (6): v <- v lambda + [selected], here not selected */
        *v = (float)((double)*v * lambda);
    }
}

/* The same, and the edges' terms of eq. (7) (as seen by the entering edge's role:
 * n - G when `flip`) added to *num, *den, *t in edge order. */
static inline void miai_accel_decay_sum(double lambda, miai_edge *edges, miai_accel *side,
                                        uint32_t from, uint32_t to, bool flip,
                                        double *num, double *den, uint64_t *t) {
    double nu = *num, de = *den;
    uint64_t tt = *t; /* a count: exact as an integer, as it was as a double */
    miai_edge *f = edges + from;
    for (uint32_t i = from; i < to; i++, f++) {
        const uint32_t n_i = f->n;
        if (side && n_i == 0) continue;
        float *v = side ? &side[i].v : &f->alg_b;
        /* eq. (6), not selected */
        const float vf = (float)((double)*v * lambda);
        *v = vf;
        /* n_i = 0 (edges only): weighted with n = 1 gives 0 * (q / 1) = +0.0 */
        const double q = side ? side[i].g : f->alg_a, n1 = n_i | (n_i == 0);
        tt += n_i;
        nu += miai_accel_weighted(vf, flip ? n1 - q : q, n1);
        de += vf;
    }
    *num = nu;
    *den = de;
    *t = tt;
}

/* Eq. (7) for the edge `e` entering a node: num = sum_j v_j r^A_j (the node's visited
 * edges, r^A_j as seen by e's role) and den = sum_j v_j, both in units of `scale`
 * (lambda^-e of a lazily decayed node, auct.c; 1 here), and the virtual child (ratio
 * mu' = sum' / n', velocity n' lambda^t, t = choices made at the node so far, so it
 * only decays).  Stored as G = r^A n; nothing when every weight is 0. */
static inline void miai_accel_ratio(const miai_decay *dc, miai_edge *e, miai_accel *side_e,
                                    uint64_t t, double scale, double num, double den) {
    if (e->n_prime) { /* the virtual child */
        double v = e->n_prime * miai_decay_to(dc, (double)t) * scale;
        num += miai_accel_weighted(v, e->sum_prime, e->n_prime);
        den += v;
    }
    if (den <= 0) return;
    /* eq. (7): r^A = sum_j w_j r^A_j, w_j = v_j / sum_k v_k; stored as G = r^A n */
    double g = den == e->n ? num : num / den * e->n;
    if (side_e) side_e->g = g;
    else e->alg_a = g;
    e->flags |= MIAI_EDGE_ACC;
}

/* The backup at `node` where edge `chosen` was taken, `in` the edge entering the node
 * on the path (MIAI_NIL at the root or after a simultaneous node): eq. (6) for every
 * visited edge, eq. (7) for `in`, in one pass over the edges in their order (the
 * chosen edge splits it, so no edge is compared with it).  Loop bounds and pointers
 * are locals: the extension is built with -fno-strict-aliasing, so stores through
 * the edges would reload them. */
static inline void miai_accel_node(const miai_decay *dc, miai_dag *d, miai_accel *side,
                                   uint32_t node, uint32_t chosen, uint32_t in) {
    miai_edge *edges = d->edges;
    const uint32_t first = d->nodes[node].first_edge;
    const uint32_t end = first + d->nodes[node].n_edges;
    const double lambda = dc->lambda;
    float *vc = side ? &side[chosen].v : &edges[chosen].alg_b;
    if (in == MIAI_NIL) {
        miai_accel_decay(lambda, edges, side, first, chosen);
        /* eq. (6): v <- v lambda + [selected], the selected edge */
        *vc = (float)((double)*vc * lambda + 1.0);
        miai_accel_decay(lambda, edges, side, chosen + 1, end);
        return;
    }
    const bool flip = miai_role_of(&edges[chosen]) != miai_role_of(&edges[in]);
    double num = 0.0, den = 0.0;
    uint64_t t = 0;
    if (flip) miai_accel_decay_sum(lambda, edges, side, first, chosen, true, &num, &den, &t);
    else miai_accel_decay_sum(lambda, edges, side, first, chosen, false, &num, &den, &t);
    /* eq. (6), the selected edge (visited: n >= 1) */
    const float vf = (float)((double)*vc * lambda + 1.0);
    *vc = vf;
    const double nc = edges[chosen].n, qc = miai_accel_total(edges, side, chosen);
    t += edges[chosen].n;
    num += miai_accel_weighted(vf, flip ? nc - qc : qc, nc);
    den += vf;
    if (flip) miai_accel_decay_sum(lambda, edges, side, chosen + 1, end, true, &num, &den, &t);
    else miai_accel_decay_sum(lambda, edges, side, chosen + 1, end, false, &num, &den, &t);
    miai_accel_ratio(dc, &edges[in], side ? &side[in] : NULL, t, 1.0, num, den);
}

/* The accelerated backup of one playout, after update-descent counted it: every edge
 * of the path not yet accelerated adds the reward to G (its plain total), then
 * miai_accel_node at every alternating node of the path, leaf first (a node's
 * entering edge needs its children's new totals); simultaneous nodes are skipped. */
static inline void miai_accel_path(const miai_decay *dc, miai_dag *d, miai_accel *side,
                                   const miai_path *path, const double *rewards) {
    for (uint32_t k = path->len; k-- > 0;) {
        const miai_step *st = &path->steps[k];
        miai_edge *e = &d->edges[st->edge];
        if (!(e->flags & MIAI_EDGE_ACC)) {
            if (side) side[st->edge].g += rewards[st->role];
            else e->alg_a += rewards[st->role];
        }
        if (miai_simultaneous_at(d, st->node)) continue;
        bool into = k > 0 && !miai_simultaneous_at(d, path->steps[k - 1].node);
        miai_accel_node(dc, d, side, st->node, st->edge,
                        into ? path->steps[k - 1].edge : MIAI_NIL);
    }
}

#endif
