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
 *
 * Node cache (as uct.c's, same layout, its own code): at an alternating node,
 * node->mark holds N = the sum of n over the node's edges (low 30 bits; saturated =
 * unknown), NC_UNEVEN when some edge has n >= 2 and NC_PRUNED when the last reroot
 * found a pruned edge; the backups keep it, on_reroot recomputes it.  DUCT's s^D is a
 * function of N (DUCT_TABLE); a lazy node's record keeps eq. (2)'s factor.  With them
 * the two usual selections (no solver, alternating node) read the edges once:
 *   - every edge visited: one arg-max pass that checks n > 0 (and the pruned flags
 *     at the root or under NC_PRUNED) itself, restoring the rng and falling back to
 *     the full selection otherwise;
 *   - filling (N < count, every n <= 1, not the root, none pruned): count - N
 *     unvisited edges, one draw, no counting pass.
 * The choices and rng draws are those of the full selection.
 */
#include <stdlib.h>
#include <string.h>

#include "accel.h"
#include "uct_cache.h"

/* Lazy decay (plain AUCT and DUCT): eq. (6) and eq. (3)/(4) decay every edge of a
 * visited node by lambda.  Instead of multiplying them, each expanded node keeps a
 * scale lambda^-e (e = its visits since its last renormalisation) and its edges keep
 * their decayed quantities in units of it: the true velocity (AUCT) or n^D and W (DUCT)
 * is the stored value / scale, so a visit multiplies the scale by 1/lambda and adds
 * the scale (times the reward for W) to the chosen edge only.  AUCT's node also keeps the
 * sums eq. (7) needs in the same units, updated by the chosen edge's change: sum_j V_j
 * and sum_j V_j r^A_j over the visited edges (r^A_j = G_j / n_j; only the chosen edge's
 * r^A changes in a backup); DUCT's keeps sqrt(scale) and eq. (2)'s factor times it.
 * Ratios (eq. 7's weighted mean, W / n^D) are scale-free; eq. (2)'s exploration term
 * and the inspection API unscale (lazy_node.aux, auct_edge_view).
 *
 * Renormalisation (every stored value times lambda^e, scale 1, the sums summed again
 * in edge order) when the scale exceeds LAZY_SCALE_MAX = 2^32 or after
 * LAZY_VISITS_MAX = 2^16 visits.  Precision: stored values are floats (V, N) or doubles
 * (W) whose relative rounding does not depend on their magnitude, so the scale costs no
 * precision; it only has to keep them far from overflow: scale <= 2^32 / lambda <= 2^42
 * (lazy decay needs lambda >= 2^-10, else the eager code is used), true counts <= 2^32,
 * stored values <= 2^74, far below FLT_MAX ~ 2^128.  A float V or N gets one rounding
 * (2^-24 relative) per choice of its edge and per renormalisation, at most one per
 * visit of its node, as the eager code had.  The incremental double sums accumulate at
 * most 2 * 2^-53 of the sum per visit; summed again at least every 2^16 visits they
 * stay within 2^16 * 2^-52 ~ 1.5e-11 (relative to sum_j V_j, hence absolute on eq.
 * 7's ratio).  DUCT's sqrt(scale), kept by multiplication like the scale, drifts at most
 * 2^16 * 2^-53 relative.  lambda = 1: the scale stays 1, V_j = n_j, the sums are sums
 * of integers and dyadic payoffs, exact, as before.
 * Memory: 40 bytes per node (policy-owned array, grown in on_expand, remapped in
 * on_reroot), DUCT 16 bytes per edge more (duct_terms); the edge is unchanged (48
 * bytes). */
typedef struct {
    double scale; /* lambda^-e */
    union {
        double sum;  /* AUCT: sum_j V_j, scaled */
        double root; /* DUCT: sqrt(scale) = lambda^(-e/2), kept by multiplication */
    };
    double aux;      /* AUCT: sum_j V_j r^A_j over visited edges (their own role), scaled;
                        DUCT: eq. (2)'s factor c sqrt(log s^D) sqrt(scale) */
    uint32_t first;  /* the node's first edge, MIAI_NIL without edges (reroot matching) */
    uint32_t visits; /* visits since the last renormalisation */
    uint32_t stamp;  /* AUCT, DAG mode: the last backup that went through the node */
} lazy_node;

#define LAZY_SCALE_MAX 4294967296.0 /* 2^32 */
#define LAZY_VISITS_MAX 65536u
#define LAZY_MIN_LAMBDA (1.0 / 1024.0)

/* DUCT's s^D as a function of the node's visit count t: every visit decays every edge's
 * n^D by lambda and adds 1 to exactly one (eq. 3), and a node starts with every n^D = 0,
 * so s^D = sum_j n^D_j follows s_0 = 0, s_t = lambda s_{t-1} + 1, i.e.
 * s_t = (1 - lambda^t) / (1 - lambda) (t with lambda = 1).  t is the node's sum_j n_j
 * (update-descent counts each visit on exactly one edge; reroots keep a node's edges
 * whole; simultaneous nodes use plain UCT and are not counted here).  The factor
 * c sqrt(log s_t) of eq. (2) is tabled per search, the table's s_t by the recurrence
 * (so s_1 = 1 exactly): DUCT_TABLE entries at the start, grown on demand (doubling) to
 * at most DUCT_TABLE_MAX, and no further once s_t has reached the recurrence's fixed
 * point in double (lambda s + 1 == s, s ~ 1 / (1 - lambda): for lambda = 0.999 near
 * t = 37,000), after which every t has the last entry.  Above the table's reach (lambda
 * very close to 1, or no memory) the factor is computed from duct_s.  The root and the
 * nodes near it pass t = 1024 early in a search and are backed up every iteration, so
 * without the growth they would pay expm1, log and sqrt at each visit. */
#define DUCT_TABLE 1024u
#define DUCT_TABLE_MAX 65536u /* 512 KB */

typedef struct {
    double *f;     /* c sqrt(log s_t) for t < len, 0 while s_t <= 1 */
    uint32_t len;
    double s_next; /* s_len by the recurrence */
    bool fixed;    /* s_{len-1} is the fixed point: f[len - 1] serves every t >= len */
} duct_table;

/* DUCT's value cache (lazy mode): per edge, the two terms of eq. (2) in stored units,
 * W / N and sqrt(1 / N), computed as miai_ucb_value_real computes them, so
 * miai_ucb_value(mean, k, inv_sqrt) has miai_ucb_value_real(W, N, k)'s bits.  An
 * edge's W and N change only when it is chosen (the lazy scale decays the others), at
 * its node's renormalisation and at a reroot; each of these refreshes the terms, so
 * selection at a node whose edges are all visited reads them with no division and no
 * square root.  16 bytes per edge (policy-owned, grown in
 * on_expand; dropped with the lazy records). */
typedef struct {
    double mean;     /* W / N */
    double inv_sqrt; /* sqrt(1 / N) */
} duct_terms;

typedef struct {
    bool solver;
    bool duct;
    bool lazy;          /* per-node scales (else every edge decays at every visit) */
    lazy_node *node;    /* lazy: per node index < node_len */
    uint32_t node_cap, node_len;
    duct_terms *terms;  /* DUCT, lazy: per edge index < terms_cap */
    uint32_t terms_cap;
    uint32_t stamp;     /* backups counted for lazy_node.stamp */
    double inv_lambda;
    double inv_sqrt_lambda; /* DUCT, lazy: lambda^(-1/2), the factor of lazy_node.root */
    double c;
    double log_lambda; /* DUCT: log(lambda) */
    miai_decay decay;
    duct_table *dt; /* DUCT: eq. (2)'s factor by visit count (grown by const readers:
                       a cache whose entries never change) */
} auct_data;

/* The node cache is uct_cache.h's layout (N in the low bits, an uneven bit, a bit for
 * a pruned edge), so a reroot rebuilds it with miai_uct_recount. */
#define NC_PRUNED MIAI_UCT_SPECIAL
#define NC_UNEVEN MIAI_UCT_UNEVEN
#define NC_N_UNKNOWN MIAI_UCT_N_UNKNOWN
#define NC_N(mark) MIAI_UCT_N(mark)

/* One step of update-descent (miai_backup_descent) and the node cache of its node. */
static inline void backup_step_cached(miai_node *nodes, miai_edge *edges, const miai_step *st,
                                      double r, bool last) {
    miai_edge *e = &edges[st->edge];
    miai_backup_step(e, r, last);
    miai_node *x = &nodes[st->node];
    if (x->to_move == MIAI_SIMULTANEOUS) return;
    if (NC_N(x->mark) != NC_N_UNKNOWN) x->mark++;
    if (e->n >= 2) x->mark |= NC_UNEVEN;
}

/* Update-descent over the path, keeping every node's cache. */
static void backup_descent_cached(miai_search *s, const miai_path *path,
                                  const double *rewards) {
    miai_node *nodes = s->dag.nodes;
    miai_edge *edges = s->dag.edges;
    for (uint32_t i = 0; i < path->len; i++)
        backup_step_cached(nodes, edges, &path->steps[i], rewards[path->steps[i].role],
                           i >= path->last_level);
}

/* s^D of a node visited t times (see DUCT_TABLE), computed directly. */
static inline double duct_s(const auct_data *a, uint64_t t) {
    const double lambda = a->decay.lambda;
    return lambda == 1.0 ? (double)t : -expm1((double)t * a->log_lambda) / (1.0 - lambda);
}

/* DUCT's exploration factor of eq. (2), c sqrt(log s^D) (0 while s^D <= 1), for a node
 * visited t times.  A node whose counts are stored in units of `scale` multiplies it
 * by sqrt(scale): with N_j = scale n^D_j, c sqrt(log s^D / n^D_j) =
 * (c sqrt(log s^D) sqrt(scale)) sqrt(1 / N_j). */
static double duct_factor_slow(const auct_data *a, uint64_t t);
static inline double duct_factor_of(const auct_data *a, uint64_t t) {
    const duct_table *dt = a->dt;
    if (t < dt->len) return dt->f[t];
    return dt->fixed ? dt->f[dt->len - 1] : duct_factor_slow(a, t);
}

/* The table's entries [len, want) by the recurrence, stopping at the fixed point;
 * false without memory (the table unchanged). */
static bool duct_table_fill(duct_table *dt, double lambda, double c, uint32_t want) {
    double *f = realloc(dt->f, (size_t)want * sizeof *f);
    if (!f) return false;
    dt->f = f;
    double st = dt->s_next;
    while (dt->len < want && !dt->fixed) {
        f[dt->len++] = miai_ucb_factor_real(NULL, c, st);
        const double next = lambda * st + 1.0;
        dt->fixed = next == st;
        st = next;
    }
    dt->s_next = st;
    return true;
}

/* t beyond the table: grow it (doubling, up to DUCT_TABLE_MAX) or compute. */
static double duct_factor_slow(const auct_data *a, uint64_t t) {
    duct_table *dt = a->dt;
    if (dt->len < DUCT_TABLE_MAX && !dt->fixed) {
        uint64_t want = 2u * (uint64_t)dt->len;
        while (want <= t && want < DUCT_TABLE_MAX) want *= 2u;
        if (want > DUCT_TABLE_MAX) want = DUCT_TABLE_MAX;
        if (duct_table_fill(dt, a->decay.lambda, a->c, (uint32_t)want))
            return duct_factor_of(a, t);
    }
    return miai_ucb_factor_real(NULL, a->c, duct_s(a, t));
}

/* An edge's eq. (2) terms after its W or N changed (0 while N = 0: never read). */
static inline void duct_refresh(duct_terms *t, const miai_edge *e) {
    if (e->alg_b > 0.0f) {
        const miai_ucb_count q = miai_ucb_count_real((double)e->alg_b);
        t->mean = e->alg_a * q.inv;
        t->inv_sqrt = q.sqrt_inv;
    } else {
        t->mean = t->inv_sqrt = 0.0;
    }
}

/* The visits of a node: the cache's N, or sum_j n_j when it is saturated. */
static inline uint64_t node_visits(const miai_dag *d, uint32_t node) {
    const miai_node *x = &d->nodes[node];
    uint64_t t = NC_N(x->mark);
    if (t != NC_N_UNKNOWN) return t;
    t = 0;
    for (uint32_t k = 0; k < x->n_edges; k++) t += d->edges[x->first_edge + k].n;
    return t;
}

/* The scale of `node` (1 when eager or the node has no lazy record). */
static inline double scale_of(const auct_data *a, uint32_t node) {
    return a->lazy && node < a->node_len && a->node[node].first != MIAI_NIL
               ? a->node[node].scale
               : 1.0;
}

/* A lazy node's sums (and DUCT's factor) from its edges, in edge order. */
static void lazy_sums(const auct_data *a, double c, const miai_dag *d, uint32_t node) {
    lazy_node *L = &a->node[node];
    const miai_node *x = &d->nodes[node];
    const miai_edge *e = d->edges + x->first_edge;
    if (a->duct) {
        uint64_t t = 0;
        for (uint32_t k = 0; k < x->n_edges; k++) t += e[k].n;
        L->root = sqrt(L->scale);
        L->aux = duct_factor_of(a, t) * L->root; /* eq. (2)'s factor, scaled */
        return;
    }
    double sum = 0.0, aux = 0.0;
    for (uint32_t k = 0; k < x->n_edges; k++) {
        sum += e[k].alg_b;
        if (e[k].n) aux += miai_accel_weighted(e[k].alg_b, e[k].alg_a, e[k].n);
    }
    L->sum = sum;
    L->aux = aux;
    (void)c;
}

/* Every stored value of `node` times lambda^e; scale 1, the sums summed again. */
static void lazy_renormalise(const auct_data *a, double c, miai_dag *d, uint32_t node) {
    lazy_node *L = &a->node[node];
    const miai_node *x = &d->nodes[node];
    miai_edge *e = d->edges + x->first_edge;
    const double f = 1.0 / L->scale; /* lambda^e */
    for (uint32_t k = 0; k < x->n_edges; k++) {
        e[k].alg_b = (float)((double)e[k].alg_b * f);
        if (a->duct) {
            e[k].alg_a *= f;
            if (a->terms) duct_refresh(&a->terms[x->first_edge + k], &e[k]);
        }
    }
    L->scale = 1.0;
    L->visits = 0;
    lazy_sums(a, c, d, node);
}

/* A visit of a lazy node: its scale times 1/lambda (renormalised first when due, then
 * *renormalised is set); returns the new scale. */
static inline double lazy_visit(const auct_data *a, double c, miai_dag *d, uint32_t node,
                                bool *renormalised) {
    lazy_node *L = &a->node[node];
    if (L->scale > LAZY_SCALE_MAX || L->visits >= LAZY_VISITS_MAX) {
        lazy_renormalise(a, c, d, node);
        *renormalised = true;
    }
    L->visits++;
    return L->scale *= a->inv_lambda;
}

/* No lazy records (memory): every node back to scale 1, the eager code from now on. */
static void lazy_drop(auct_data *a, double c, miai_dag *d) {
    free(a->terms); /* first: the renormalisations below must not refresh them */
    a->terms = NULL;
    a->terms_cap = 0;
    for (uint32_t i = 0; i < a->node_len && i < d->n_nodes; i++)
        if (a->node[i].first != MIAI_NIL) lazy_renormalise(a, c, d, i);
    free(a->node);
    a->node = NULL;
    a->node_cap = a->node_len = 0;
    a->lazy = false;
}

static int auct_init_common(miai_policy *p, miai_search *s, bool duct) {
    int rc = miai_algos_check_game(s);
    if (rc != MIAI_OK) return rc;
    double lam = p->cfg.params[0];
    if (!(lam > 0.0 && lam <= 1.0)) return MIAI_EINVAL;
    auct_data *a = calloc(1, sizeof *a);
    if (!a) return MIAI_ENOMEM;
    a->solver = miai_solver_on(p);
    a->duct = duct;
    a->lazy = lam >= LAZY_MIN_LAMBDA;
    a->inv_lambda = 1.0 / lam;
    a->inv_sqrt_lambda = 1.0 / sqrt(lam);
    a->c = p->cfg.c;
    a->log_lambda = log(lam);
    miai_decay_init(&a->decay, lam);
    if (duct) { /* s_t by eq. (3) summed over the node's edges (see DUCT_TABLE) */
        a->dt = calloc(1, sizeof *a->dt);
        if (!a->dt || !duct_table_fill(a->dt, lam, a->c, DUCT_TABLE)) {
            if (a->dt) free(a->dt->f);
            free(a->dt);
            free(a);
            return MIAI_ENOMEM;
        }
    }
    p->data = a;
    return MIAI_OK;
}

static int auct_init(miai_policy *p, miai_search *s) { return auct_init_common(p, s, false); }
static int duct_init(miai_policy *p, miai_search *s) { return auct_init_common(p, s, true); }

static void auct_destroy(miai_policy *p) {
    auct_data *a = p->data;
    if (a) {
        free(a->node);
        free(a->terms);
        if (a->dt) free(a->dt->f);
        free(a->dt);
    }
    free(p->data);
    p->data = NULL;
}

/* Room for at least `need` elements of `elem` bytes in *p (capacity *cap, doubled from
 * `first` on); false without memory (*p unchanged). */
static bool grow_to(void **p, uint32_t *cap, uint32_t need, uint32_t first, size_t elem) {
    if (need <= *cap) return true;
    uint32_t c = *cap ? *cap : first;
    while (c < need && c < UINT32_MAX / 2) c *= 2;
    if (c < need) c = need;
    void *q = realloc(*p, (size_t)c * elem);
    if (!q) return false;
    *p = q;
    *cap = c;
    return true;
}

/* A node got its edges (all values 0): its lazy record, scale 1. */
static void lazy_on_expand(miai_policy *p, miai_search *s, uint32_t node) {
    auct_data *a = p->data;
    if (!a->lazy) return;
    miai_dag *d = &s->dag;
    if (d->n_nodes == 1) a->node_len = 0; /* a new graph: older records are stale */
    const miai_node *x = &d->nodes[node];
    /* room for its record, and for its terms before it has a record */
    if (!grow_to((void **)&a->node, &a->node_cap, node + 1, 1024u, sizeof *a->node) ||
        (a->duct && x->n_edges &&
         !grow_to((void **)&a->terms, &a->terms_cap, x->first_edge + x->n_edges, 4096u,
                  sizeof *a->terms))) {
        lazy_drop(a, p->cfg.c, d);
        return;
    }
    if (a->duct && x->n_edges) {
        /* N = 0: never read before the edge's first backup refreshes them */
        memset(&a->terms[x->first_edge], 0, x->n_edges * sizeof *a->terms);
    }
    for (uint32_t i = a->node_len; i < node; i++) a->node[i].first = MIAI_NIL;
    if (node >= a->node_len) a->node_len = node + 1;
    a->node[node] = (lazy_node){.scale = 1.0, .first = x->n_edges ? x->first_edge : MIAI_NIL};
    lazy_sums(a, p->cfg.c, d, node);
}

/* After the dag's compaction (node->mark = the old first edge, policy.h; nodes keep
 * their order, so new index <= old index): move each kept node's record to its new
 * index, matching old records by their first edge in one forward scan. */
static void lazy_on_reroot(auct_data *a, double c, miai_dag *d) {
    uint32_t j = 0;
    for (uint32_t i = 0; i < d->n_nodes; i++) {
        const miai_node *x = &d->nodes[i];
        if (x->first_edge == MIAI_NIL || x->n_edges == 0) {
            if (i < a->node_cap) a->node[i].first = MIAI_NIL;
            continue;
        }
        while (j < a->node_len && a->node[j].first != x->mark) j++;
        if (j < a->node_len) {
            a->node[i] = a->node[j++];
        } else { /* not reached (every expanded node has a record): best effort */
            a->node[i] = (lazy_node){.scale = 1.0};
            lazy_sums(a, c, d, i);
        }
        a->node[i].first = x->first_edge;
    }
    a->node_len = d->n_nodes < a->node_cap ? d->n_nodes : a->node_cap;
    if (a->terms) /* the edges moved: their terms again (n_edges only shrank) */
        for (uint32_t i = 0; i < d->n_edges && i < a->terms_cap; i++)
            duct_refresh(&a->terms[i], &d->edges[i]);
}

static void auct_on_reroot(miai_policy *p, miai_search *s) {
    auct_data *a = p->data;
    if (a->lazy) lazy_on_reroot(a, p->cfg.c, &s->dag);
    miai_uct_recount(s, MIAI_EDGE_PRUNED);
}

/* The descent is about to reach `node`: start loading its lazy record (a cache hint;
 * no effect on results). */
static void lazy_prefetch(const miai_policy *p, const miai_search *s, uint32_t node) {
    const auct_data *a = p->data;
    if (a && a->lazy && node < a->node_len) {
#if defined(__GNUC__)
        __builtin_prefetch(&a->node[node]);
        const uint32_t first = s->dag.nodes[node].first_edge;
        if (a->terms && first < a->terms_cap) __builtin_prefetch(&a->terms[first]);
#endif
    }
}

/* The inspection API's plain values: stored / scale. */
static void auct_edge_view(const miai_policy *p, const miai_search *s, uint32_t node,
                           miai_edge_stats *out, uint32_t count) {
    const auct_data *a = p->data;
    const double f = 1.0 / scale_of(a, node);
    if (f == 1.0) return;
    for (uint32_t k = 0; k < count; k++) {
        out[k].alg_b *= f;
        if (a->duct) out[k].alg_a *= f;
    }
    (void)s;
}

static inline uint64_t parent_of_n(const miai_edge *edges, uint32_t first, uint32_t count) {
    uint64_t parent = 0;
    for (uint32_t i = first; i < first + count; i++) parent += edges[i].n;
    return parent;
}

static inline double parent_of(const miai_edge *edges, uint32_t first, uint32_t count) {
    return (double)parent_of_n(edges, first, count);
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

/* Eq. (5): r^A + C sqrt(log s / n), s the visits of the node's moves, written as
 * G (1/n) + (C sqrt(log s)) sqrt(1/n) with 1/n and sqrt(1/n) from the search's table
 * (ucb_table.h: the same bits as computing them), as uct.c does, so lambda = 1 gives
 * UCT's value bit for bit. */
static inline double auct_value_of(double g, miai_ucb_count q, double k) {
    return miai_ucb_value_sum(g, q, k);
}

/* The exploration factor C sqrt(log s) of eq. (5) (0 while s <= 1): eq. 1's (ucb.h). */
static inline double auct_factor(const miai_search *s, double c, uint64_t visits) {
    return miai_ucb_factor(&s->ucb, c, visits);
}

/* The arg-max of eq. (5) over the edges of [first, end) without `mask` flags. */
static inline uint32_t auct_argmax(const miai_search *s, const miai_edge *edges,
                                   uint32_t first, uint32_t end, uint32_t mask, double k,
                                   miai_rng *rng) {
    miai_argmax best;
    miai_argmax_init(&best, first);
    for (uint32_t i = first; i < end; i++) {
        if (mask && (edges[i].flags & mask)) continue;
        const uint32_t n = edges[i].n;
        const double v = n ? auct_value_of(miai_accel_total(edges, NULL, i),
                                           miai_ucb_count_of(&s->ucb, n), k)
                           : INFINITY;
        miai_argmax_offer(&best, rng, i, v);
    }
    return best.chosen;
}

/* True when eq. (2)'s value W / N + k sqrt(1 / N) of an edge (N > 0) is certainly below
 * `best`, decided without a division or a square root: with d = best N - W > 0 it is
 * below iff k^2 N < d^2.  Only for W >= 0 and best > 0 (else false: the value is
 * computed), with margins that keep the decision far from rounding:
 * W < best N (1 - 1e-6) / (1 + 1e-6) (bm = best (1 - 1e-6) / (1 + 1e-6)), i.e.
 * d > 1e-6 (best N + W), and k^2 N (1 + 1e-6) < d^2: such a value is below best by more
 * than 1e-13 (best + W / N), far more than the rounding of its computed value.  A value
 * below the best changes nothing in miai_argmax_offer (no tie, no draw), so skipping
 * it makes the same choices.  best = INFINITY: true for N > 0; NaN compares false. */
static inline bool duct_below(double w, double nd, double k2m, double best) {
    const double d = best * nd - w, bm = best * ((1.0 - 1e-6) / (1.0 + 1e-6));
    return w >= 0.0 && w < bm * nd && k2m * nd < d * d;
}

/* duct_below's k^2 (1 + 1e-6). */
static inline double duct_k2m(double k) { return k * k * (1.0 + 1e-6); }

/* Inlined into each caller (GCC, Clang): the selection of one level is one function,
 * as uct.c's is, with the pruned check and the kind of value as constants. */
#if defined(__GNUC__)
#define MIAI_AUCT_INLINE inline __attribute__((always_inline))
#else
#define MIAI_AUCT_INLINE inline
#endif

/* One pass over a node whose edges should all be visited: the arg-max of eq. (5)
 * (AUCT) or eq. (2) (DUCT) with miai_argmax's tie draws, or MIAI_NIL (the rng as it
 * was) when an edge is unvisited or (with check_pruned) pruned. */
static MIAI_AUCT_INLINE uint32_t argmax_once(miai_search *s, uint32_t first, uint32_t count,
                                             double k, bool check_pruned,
                                             const duct_terms *terms) {
    const miai_edge *e = s->dag.edges + first;
    const miai_ucb_table *t = &s->ucb;
    const bool duct = terms != NULL;
    terms += duct ? first : 0;
    miai_rng saved = s->rng;
    miai_argmax best;
    miai_argmax_init(&best, 0);
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t n = e[i].n;
        if (n == 0 || (check_pruned && (e[i].flags & MIAI_EDGE_PRUNED))) {
            s->rng = saved;
            return MIAI_NIL;
        }
        const double v = duct ? miai_ucb_value(terms[i].mean, k, terms[i].inv_sqrt) /* (2) */
                              : auct_value_of(e[i].alg_a, miai_ucb_count_of(t, n), k);
        miai_argmax_offer(&best, &s->rng, i, v);
    }
    return first + best.chosen;
}

/* The edge of [first, end) that is the k-th unvisited one, k drawn uniformly among
 * `unvisited` (one rng draw, uct.c's rule); MIAI_NIL if there are fewer. */
static inline uint32_t draw_unvisited(miai_rng *rng, const miai_edge *edges, uint32_t first,
                                      uint32_t end, uint32_t unvisited) {
    uint32_t k = miai_rng_below(rng, unvisited);
    for (uint32_t i = first; i < end; i++)
        if (edges[i].n == 0 && k-- == 0) return i;
    return MIAI_NIL;
}

/* One pass over [first, end): the visits, the unvisited edges and the union of flags. */
typedef struct {
    uint64_t visits;
    uint32_t unvisited, flags;
} edge_scan;

static inline edge_scan scan_edges(const miai_edge *edges, uint32_t first, uint32_t end) {
    edge_scan sc = {0, 0, 0};
    for (uint32_t i = first; i < end; i++) {
        sc.visits += edges[i].n;
        sc.unvisited += edges[i].n == 0;
        sc.flags |= edges[i].flags;
    }
    return sc;
}

/* The cached selection (no solver, alternating node): MIAI_NIL when the full one must
 * decide.  `k` is read only when every edge may be visited. */
static MIAI_AUCT_INLINE uint32_t select_cached(miai_search *s, const miai_node *x,
                                               uint32_t node, uint32_t first, uint32_t count,
                                               double c, bool duct, const auct_data *a) {
    const uint32_t big_n = NC_N(x->mark);
    if (big_n == NC_N_UNKNOWN) return MIAI_NIL;
    const bool maybe_pruned = (x->mark & NC_PRUNED) || node == s->dag.root;
    if (big_n >= count) { /* every edge visited needs N >= count (the pass checks) */
        if (duct && !a->terms) return MIAI_NIL;
        const double k = duct ? a->node[node].aux : auct_factor(s, c, big_n);
        const duct_terms *terms = duct ? a->terms : NULL;
        return maybe_pruned ? argmax_once(s, first, count, k, true, terms)
                            : argmax_once(s, first, count, k, false, terms);
    }
    if ((x->mark & NC_UNEVEN) || maybe_pruned) return MIAI_NIL;
    /* filling: the N visited edges have n = 1, count - N have n = 0 (the cache counts
     * them, so the draw finds one) */
    return draw_unvisited(&s->rng, s->dag.edges, first, first + count, count - big_n);
}

/* AUCT's selection.  Without the solver at an alternating node: the cached selection,
 * else one pass for the visits, the unvisited edges and the flags, then one for the
 * values, with uct.c's rules (an unvisited edge uniformly at random, one draw of the
 * rng); the others go through select_before_values. */
static uint32_t auct_select(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                            uint32_t count, uint32_t role) {
    (void)role;
    const auct_data *a = p->data;
    const miai_edge *edges = s->dag.edges;
    const miai_node *x = &s->dag.nodes[node];
    const uint32_t end = first + count;
    if (!a->solver && x->to_move != MIAI_SIMULTANEOUS) {
        uint32_t chosen = select_cached(s, x, node, first, count, p->cfg.c, false, a);
        if (chosen != MIAI_NIL) return chosen;
        const edge_scan sc = scan_edges(edges, first, end);
        if (!(sc.flags & MIAI_EDGE_PRUNED)) {
            if (sc.unvisited) return draw_unvisited(&s->rng, edges, first, end, sc.unvisited);
            return auct_argmax(s, edges, first, end, 0u, auct_factor(s, p->cfg.c, sc.visits),
                               &s->rng);
        }
    }
    uint32_t mask;
    uint32_t early = select_before_values(p, s, node, first, count, &mask);
    if (early != MIAI_NIL) return early;
    uint64_t visits = 0;
    for (uint32_t i = first; i < end; i++) visits += edges[i].n;
    return auct_argmax(s, edges, first, end, mask, auct_factor(s, p->cfg.c, visits), &s->rng);
}

/* AUCT's lazy backup at `node` (chosen edge `chosen`, entering edge `in` or MIAI_NIL),
 * after update-descent and after the chosen edge's G got its new value (g_old = the
 * value before).  `full`: sum the node's terms again (a node met twice in one path). */
static inline void auct_node_lazy(const auct_data *a, double c, miai_dag *d, uint32_t node,
                                  uint32_t chosen, uint32_t in, double g_old, bool full) {
    const double s = lazy_visit(a, c, d, node, &full);
    lazy_node *L = &a->node[node];
    miai_edge *edges = d->edges, *ch = &edges[chosen];
    const float v_old = ch->alg_b;
    /* eq. (6) in units of lambda^-e: the scale decayed every edge, the chosen one gains
     * 1 = s units */
    const float v_new = (float)((double)v_old + s);
    ch->alg_b = v_new;
    if (full) {
        lazy_sums(a, c, d, node);
    } else { /* only the chosen edge's term of eq. (7) changed */
        const uint32_t n_old = ch->n - 1;
        const double before = n_old ? miai_accel_weighted(v_old, g_old, n_old) : 0.0;
        L->sum += (double)v_new - (double)v_old;
        L->aux += miai_accel_weighted(v_new, ch->alg_a, ch->n) - before;
    }
    if (in == MIAI_NIL) return;
    miai_edge *e = &edges[in];
    /* as seen by the entering edge's role: sum_j v_j (1 - r^A_j) when the roles differ */
    const double num = miai_role_of(ch) != miai_role_of(e) ? L->sum - L->aux : L->aux;
    const miai_node *x = &d->nodes[node];
    uint64_t t = NC_N(x->mark); /* choices made at the node */
    if (t == NC_N_UNKNOWN) {
        t = 0;
        for (uint32_t k = 0; k < x->n_edges; k++) t += edges[x->first_edge + k].n;
    }
    miai_accel_ratio(&a->decay, e, NULL, t, s, num, L->sum);
}

/* AUCT's lazy backup of one playout (accel.h's miai_accel_path in scaled units): leaf
 * first, every edge not yet accelerated adds the reward to G, then the node's update.
 * In DAG mode a node met twice on the path (a cycle) makes every node sum its terms
 * again (the chosen edge's old term would be unknown). */
static void auct_backup_lazy(auct_data *a, double c, miai_dag *d, const miai_path *path,
                             const double *rewards) {
    bool full = false;
    if (!d->tree_mode) {
        if (++a->stamp == 0) {
            for (uint32_t i = 0; i < a->node_len; i++) a->node[i].stamp = 0;
            a->stamp = 1;
        }
        for (uint32_t k = 0; k < path->len; k++) {
            const uint32_t node = path->steps[k].node;
            if (miai_simultaneous_at(d, node)) continue;
            full |= a->node[node].stamp == a->stamp;
            a->node[node].stamp = a->stamp;
        }
    }
    double carried = 0.0; /* G of the next step's chosen edge before eq. (7) set it */
    bool have = false;
    for (uint32_t k = path->len; k-- > 0;) {
        const miai_step *st = &path->steps[k];
        miai_edge *e = &d->edges[st->edge];
        const double g_old = have ? carried : e->alg_a;
        have = false;
        if (!(e->flags & MIAI_EDGE_ACC)) e->alg_a += rewards[st->role];
        if (miai_simultaneous_at(d, st->node)) continue;
        uint32_t in = MIAI_NIL;
        if (k > 0 && !miai_simultaneous_at(d, path->steps[k - 1].node)) {
            in = path->steps[k - 1].edge;
            carried = d->edges[in].alg_a;
            have = true;
        }
        auct_node_lazy(a, c, d, st->node, st->edge, in, g_old, full);
    }
}

static void auct_backup(miai_policy *p, miai_search *s, const miai_path *path,
                        const double *rewards) {
    auct_data *a = p->data;
    backup_descent_cached(s, path, rewards);
    if (a->lazy) auct_backup_lazy(a, p->cfg.c, &s->dag, path, rewards);
    else miai_accel_path(&a->decay, &s->dag, NULL, path, rewards);
    if (a->solver) miai_solver_backup(s, path, rewards);
}

/* DUCT's selection; without the solver at an alternating node the cached selection,
 * else one pass for s^D, the unvisited edges and the flags, then one for eq. (2), with
 * uct.c's rule for unvisited edges (uniformly at random, one draw of the rng) -- the
 * same choices as the general path below, in fewer passes. */
static uint32_t duct_select(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                            uint32_t count, uint32_t role) {
    (void)role;
    const auct_data *a = p->data;
    const miai_edge *edges = s->dag.edges;
    const miai_node *x = &s->dag.nodes[node];
    const uint32_t end = first + count;
    uint32_t mask = 0;
    uint64_t visits = 0;
    bool fast = !a->solver && x->to_move != MIAI_SIMULTANEOUS;
    if (fast) {
        uint32_t chosen = select_cached(s, x, node, first, count, p->cfg.c, true, a);
        if (chosen != MIAI_NIL) return chosen;
        const edge_scan sc = scan_edges(edges, first, end);
        visits = sc.visits;
        fast = !(sc.flags & MIAI_EDGE_PRUNED);
        if (fast && sc.unvisited) return draw_unvisited(&s->rng, edges, first, end, sc.unvisited);
    }
    if (!fast) {
        uint32_t early = select_before_values(p, s, node, first, count, &mask);
        if (early != MIAI_NIL) return early;
        visits = parent_of_n(edges, first, count);
    }
    /* a lazy node keeps the factor (times sqrt(scale)); else scale 1 */
    const double k = scale_of(a, node) != 1.0 ? a->node[node].aux : duct_factor_of(a, visits);
    const double k2m = duct_k2m(k);
    miai_argmax best;
    miai_argmax_init(&best, first);
    for (uint32_t i = first; i < end; i++) {
        if (mask && (edges[i].flags & mask)) continue;
        if (duct_below(edges[i].alg_a, edges[i].alg_b, k2m, best.best)) continue;
        /* eq. (2): r^D + C sqrt(log s^D / n^D) */
        miai_argmax_offer(&best, &s->rng, i,
                          miai_ucb_value_real(edges[i].alg_a, edges[i].alg_b, k));
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
    const double lam = a->decay.lambda, c = p->cfg.c;
    backup_descent_cached(s, path, rewards);
    miai_edge *edges = d->edges; /* a local: stores through edges must not reload it */
    for (uint32_t k = 0; k < path->len; k++) {
        const miai_step *st = &path->steps[k];
        if (miai_simultaneous_at(d, st->node)) continue;
        const uint32_t hit = st->edge;
        if (a->lazy) { /* eq. (3) and (4) in units of lambda^-e: the scale decayed every
                        * edge, the chosen one gains 1 and the payoff (s units) */
            bool renormalised = false;
            const double sc = lazy_visit(a, c, d, st->node, &renormalised);
            lazy_node *L = &a->node[st->node];
            L->root *= a->inv_sqrt_lambda;
            edges[hit].alg_a += rewards[st->role] * sc;
            edges[hit].alg_b = (float)((double)edges[hit].alg_b + sc);
            /* the chosen edge's terms (a renormalisation refreshed the others) */
            if (a->terms) duct_refresh(&a->terms[hit], &edges[hit]);
            /* eq. (2)'s factor from the node's visits (s^D = s_t), times sqrt(scale) */
            L->aux = duct_factor_of(a, node_visits(d, st->node)) * L->root;
            continue;
        }
        const miai_node *x = &d->nodes[st->node];
        const uint32_t begin = x->first_edge, end = begin + x->n_edges;
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
    double f = miai_ucb_factor_real(&s->ucb, p->cfg.c, parent);
    for (uint32_t k = 0; k < x->n_edges; k++) {
        const miai_edge *e = &edges[x->first_edge + k];
        double g = miai_accel_total(edges, NULL, x->first_edge + k);
        out[4 * k] = e->n ? g / e->n : 0.0;
        out[4 * k + 1] = parent;
        out[4 * k + 2] = e->n;
        out[4 * k + 3] = miai_ucb_value_real(g, e->n, f);
    }
}

void miai_duct_terms(miai_policy *p, miai_search *s, uint32_t node, double *out) {
    const miai_edge *edges = s->dag.edges;
    const miai_node *x = &s->dag.nodes[node];
    const auct_data *a = p->data;
    const double scale = scale_of(a, node);
    const uint64_t t = parent_of_n(edges, x->first_edge, x->n_edges);
    const double f = scale != 1.0 ? a->node[node].aux : duct_factor_of(a, t);
    for (uint32_t k = 0; k < x->n_edges; k++) {
        const miai_edge *e = &edges[x->first_edge + k];
        out[4 * k] = e->alg_b > 0 ? e->alg_a / e->alg_b : 0.0;
        out[4 * k + 1] = duct_s(a, t);
        out[4 * k + 2] = e->alg_b / scale;
        out[4 * k + 3] = miai_ucb_value_real(e->alg_a, e->alg_b, f);
    }
}

const miai_policy_ops miai_auct_policy = {
    .name = "auct",
    .init = auct_init,
    .destroy = auct_destroy,
    .select = auct_select,
    .on_expand = lazy_on_expand,
    .on_reroot = auct_on_reroot,
    .backup = auct_backup,
    .final = auct_final,
    .edge_view = auct_edge_view,
    .prefetch = lazy_prefetch,
};

const miai_policy_ops miai_duct_policy = {
    .name = "duct",
    .init = duct_init,
    .destroy = auct_destroy,
    .select = duct_select,
    .on_expand = lazy_on_expand,
    .on_reroot = auct_on_reroot,
    .backup = duct_backup,
    .final = auct_final,
    .edge_view = auct_edge_view,
    .prefetch = lazy_prefetch,
};
