/* uctstar.c -- UCT* and MCTS* (B*-style pruning in UCT; uct-star.txt), and plain UCT
 * with the MCTS-Solver.
 *
 * Parameters: cfg.c; params[0] = pruning rate p; params[1] = step width s >= 1;
 * params[2] = form: 0 eq. (1)/(5) (c and p outside the root), 1 eq. (6)/(7) (inside,
 * the form of the thesis's tables; selection uses it too); params[3] = where C
 * prunes: 0 nowhere (plain UCT selection, or root pruning done by the Python layer
 * between batches), 1 at every level (Alg. 4-6, 8), 2 at the root only (Alg. 7);
 * params[4] = selection: 0 UCB, 1 uniformly random (MCTS*); params[MIAI_PARAM_SOLVER].
 *
 * Pruning: when the root's visit count before an iteration is s - 1 modulo s,
 * every node the descent passes (the root only, Alg. 7) first removes each visited child
 * whose upper bound is below the highest lower bound among its visited children
 * (MIAI_EDGE_PRUNED; the root visit count at that moment is kept in alg_a).  When
 * one root child is left, the search's stop flag is raised (early termination).
 * With pruning off, the selection is uct.c's value computed the same way, so the
 * choices equal UCT's under the same seed.
 *
 * Speed: the nodes carry uct.c's cache (uct_cache.h): the backup keeps N, a node where
 * pruning or a proof flags an edge is marked special, and with UCT's value (eq. 1)
 * the selection is uct.c's fast one; only what it leaves undecided (unvisited edges
 * after the filling phase, a node whose every edge is excluded), the random
 * selection of MCTS* and eq. (6) take the full selection below.
 */
#include <stdlib.h>

#include "algos.h"
#include "uct_cache.h"

typedef struct {
    double p;
    uint32_t step;
    bool inside;    /* eq. (6)/(7) */
    bool prune;
    bool root_only;
    bool random;
    bool solver;
    bool uct_value; /* selection by eq. (1), not random: uct.c's fast path applies */
    /* The pruning clock: the root's visit count at the previous descent (UINT32_MAX:
     * none since the root was set) and whether this descent prunes. */
    uint32_t last_root_n;
    bool due;
} star_data;

static int star_init(miai_policy *p, miai_search *s) {
    int rc = miai_algos_check_game(s);
    if (rc != MIAI_OK) return rc;
    const double *q = p->cfg.params;
    if (!(q[0] >= 0.0 && isfinite(q[0])) || !(q[1] >= 1.0 && q[1] <= 4294967295.0) ||
        !(q[2] == 0.0 || q[2] == 1.0) || !(q[3] == 0.0 || q[3] == 1.0 || q[3] == 2.0) ||
        !(q[4] == 0.0 || q[4] == 1.0))
        return MIAI_EINVAL;
    star_data *a = calloc(1, sizeof *a);
    if (!a) return MIAI_ENOMEM;
    a->p = q[0];
    a->step = (uint32_t)q[1];
    a->inside = q[2] == 1.0;
    a->prune = q[3] != 0.0;
    a->root_only = q[3] == 2.0;
    a->random = q[4] == 1.0;
    a->solver = miai_solver_on(p);
    a->uct_value = !a->random && !a->inside;
    a->last_root_n = UINT32_MAX;
    p->data = a;
    return MIAI_OK;
}

static void star_destroy(miai_policy *p) {
    free(p->data);
    p->data = NULL;
}

/* Half width of the interval of an edge with n visits among siblings with N:
 * eq. (4)/(5) r sqrt(ln N / n), or eq. (6)/(7) sqrt(r ln N / n). */
static inline double half_width(bool inside, double r, double log_parent, double n) {
    return inside ? sqrt(r * log_parent / n) : miai_ucb_bonus(r, log_parent, n);
}

/* The selection value of eq. (6): mean + sqrt(c ln N / n), infinite for n = 0
 * (the form of the thesis's tables; eq. (1) is uct.c's). */
static inline double eq6_value(double c, double log_parent, double sum, uint32_t n) {
    return n ? sum / n + sqrt(c * log_parent / n) : INFINITY;
}

/* An edge's visits without the virtual visits of other threads' paths in flight
 * (threads.c): pruning is judged on payoffs received, as with one thread (a virtual
 * loss lowers an edge's mean and narrows its interval, and would prune it early). */
static inline uint32_t real_visits(const miai_search *s, const miai_edge *edges, uint32_t i) {
    uint32_t v = s->threads ? miai_virtual_visits(s, i) : 0;
    return edges[i].n > v ? edges[i].n - v : 0;
}

/* B* pruning at `node` (Alg. 4 lines 4-9); a node that lost an edge is marked
 * special for the node cache. */
static void prune_node(const star_data *a, miai_search *s, uint32_t node) {
    uint32_t first = s->dag.nodes[node].first_edge, count = s->dag.nodes[node].n_edges;
    miai_edge *edges = s->dag.edges;
    uint64_t parent = 0;
    for (uint32_t i = first; i < first + count; i++) parent += real_visits(s, edges, i);
    double log_parent = miai_ucb_log(parent);
    double best_low = -INFINITY;
    for (uint32_t i = first; i < first + count; i++) {
        const miai_edge *e = &edges[i];
        uint32_t n = real_visits(s, edges, i);
        if (n == 0 || (e->flags & MIAI_EDGE_PRUNED)) continue;
        double low = e->sum / n - half_width(a->inside, a->p, log_parent, n);
        if (low > best_low) best_low = low;
    }
    double when = s->dag.nodes[s->dag.root].n;
    for (uint32_t i = first; i < first + count; i++) {
        miai_edge *e = &edges[i];
        uint32_t n = real_visits(s, edges, i);
        if (n == 0 || (e->flags & MIAI_EDGE_PRUNED)) continue;
        double high = e->sum / n + half_width(a->inside, a->p, log_parent, n);
        if (high < best_low) {
            e->flags |= MIAI_EDGE_PRUNED;
            e->alg_a = when;
            miai_uct_mark_special(&s->dag.nodes[node]);
        }
    }
}

int miai_uctstar_root_intervals(miai_search *s, double *low, double *high, uint32_t cap,
                                uint32_t *n) {
    if (!s || !low || !high || !n) return MIAI_EINVAL;
    if (s->policy.cfg.algorithm != MIAI_ALG_UCTSTAR || !s->policy.data) return MIAI_EINVAL;
    const star_data *a = s->policy.data;
    const miai_dag *d = &s->dag;
    if (d->root == MIAI_NIL || d->root >= d->n_nodes) return MIAI_EINVAL;
    const miai_node *root = &d->nodes[d->root];
    if (miai_simultaneous_at(d, d->root)) return MIAI_EINVAL;
    if (cap < root->n_edges) return MIAI_EINVAL;
    const miai_edge *edges = d->edges + root->first_edge;
    uint64_t parent = 0;
    for (uint32_t i = 0; i < root->n_edges; i++) parent += edges[i].n;
    double log_parent = miai_ucb_log(parent);
    for (uint32_t i = 0; i < root->n_edges; i++) {
        if (edges[i].n == 0) {
            low[i] = 0.0;
            high[i] = 1.0;
            continue;
        }
        double mean = edges[i].sum / edges[i].n;
        double w = half_width(a->inside, a->p, log_parent, edges[i].n);
        low[i] = mean - w;
        high[i] = mean + w;
    }
    *n = root->n_edges;
    return MIAI_OK;
}

/* Kept out of star_select (GCC, Clang), so that its usual path -- the cached one --
 * stays a short function. */
#if defined(__GNUC__)
#define MIAI_STAR_COLD __attribute__((noinline))
#else
#define MIAI_STAR_COLD
#endif

/* The full selection (after any pruning), plain decoupled UCT at a simultaneous node
 * (random for MCTS*); else the solver's win, the exclusion mask, an
 * unvisited edge, then the arg-max of eq. (1) or (6); MCTS* draws uniformly. */
static MIAI_STAR_COLD uint32_t star_select_full(miai_policy *p, miai_search *s,
                                                uint32_t node, uint32_t first,
                                                uint32_t count) {
    const star_data *a = p->data;
    if (miai_simultaneous_at(&s->dag, node))
        return a->random ? first + miai_rng_below(&s->rng, count)
                         : miai_select_plain(s, p->cfg.c, first, count);
    const miai_edge *edges = s->dag.edges;
    uint32_t win = a->solver ? miai_solver_win(edges, first, count) : MIAI_NIL;
    if (win != MIAI_NIL) return win;
    uint32_t mask = miai_exclusion(edges, first, count, a->solver);
    if (a->random) {
        uint32_t n = 0;
        for (uint32_t i = first; i < first + count; i++) n += !(edges[i].flags & mask);
        uint32_t k = miai_rng_below(&s->rng, n);
        for (uint32_t i = first; i < first + count; i++)
            if (!(edges[i].flags & mask) && k-- == 0) return i;
        return first;
    }
    uint32_t fresh = miai_pick_unvisited(edges, first, count, mask, &s->rng);
    if (fresh != MIAI_NIL) return fresh;
    uint64_t parent = 0;
    for (uint32_t i = first; i < first + count; i++) parent += edges[i].n;
    double log_parent = miai_ucb_log(parent);
    double k = miai_ucb_factor(&s->ucb, p->cfg.c, parent);
    miai_argmax best;
    miai_argmax_init(&best, first);
    for (uint32_t i = first; i < first + count; i++) {
        const miai_edge *e = &edges[i];
        if (e->flags & mask) continue;
        double v = a->inside ? eq6_value(p->cfg.c, log_parent, e->sum, e->n)
                             : miai_ucb_value_real(e->sum, e->n, k); /* eq. (1) */
        miai_argmax_offer(&best, &s->rng, i, v);
    }
    return best.chosen;
}

/* Pruning at `node` when it is due (Alg. 4-8); the early stop when one root move is
 * left. */
static MIAI_STAR_COLD void star_prune(const star_data *a, miai_search *s, uint32_t node,
                                      uint32_t first, uint32_t count) {
    const miai_dag *d = &s->dag;
    prune_node(a, s, node);
    if (node == d->root) {
        uint32_t left = 0;
        for (uint32_t i = first; i < first + count; i++)
            left += !(d->edges[i].flags & MIAI_EDGE_PRUNED);
        if (left == 1) atomic_store(&s->stop, true);
    }
}

/* Whether the descent now starting at the root prunes: the root's visit count N
 * before the iteration is s - 1 modulo s (Alg. 4).  One thread sees every N in turn;
 * with threads, two backups can come between two descents, so the descent prunes when
 * some N' in (N at the previous descent, N] is s - 1 modulo s: no pruning round is
 * skipped, none is made twice, and with one thread the rule is the paper's. */
static bool pruning_due(star_data *a, uint32_t root_n) {
    uint32_t s = a->step, last = a->last_root_n;
    a->last_root_n = root_n;
    if (root_n == last) return false; /* no backup since: this N was judged */
    if (last == UINT32_MAX || root_n < last) return root_n % s == s - 1;
    return ((uint64_t)root_n + 1) / s > ((uint64_t)last + 1) / s;
}

static uint32_t star_select(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                            uint32_t count, uint32_t role) {
    (void)role;
    star_data *a = p->data;
    const miai_dag *d = &s->dag;
    if (a->prune && node == d->root) a->due = pruning_due(a, d->nodes[d->root].n);
    if (!miai_simultaneous_at(d, node)) {
        if (a->prune && (!a->root_only || node == d->root) && a->due)
            star_prune(a, s, node, first, count);
        if (a->uct_value) {
            uint32_t fast = miai_uct_select_fast(s, p->cfg.c, node, first, count, a->solver);
            if (fast != MIAI_NIL) return fast;
        }
    }
    return star_select_full(p, s, node, first, count);
}

static void star_backup(miai_policy *p, miai_search *s, const miai_path *path,
                        const double *rewards) {
    const star_data *a = p->data;
    miai_uct_backup_descent(s, path, rewards);
    if (a->solver) miai_solver_backup_uct(s, path, rewards);
}

/* After a reroot: the node cache from the edges (pruned and proven edges special). */
static void star_on_reroot(miai_policy *p, miai_search *s) {
    star_data *a = p->data;
    a->last_root_n = UINT32_MAX;
    miai_uct_recount(s, MIAI_EDGE_PRUNED | MIAI_EDGE_PROVEN);
}

static uint32_t star_final(const miai_policy *p, const miai_search *s, uint32_t first,
                           uint32_t count) {
    const star_data *a = p->data;
    return a->solver ? miai_solver_final(p, s, first, count)
                     : miai_final_default(p, s, first, count);
}

void miai_uctstar_terms(miai_policy *p, miai_search *s, uint32_t node, double *out) {
    const star_data *a = p->data;
    const miai_edge *edges = s->dag.edges;
    const miai_node *x = &s->dag.nodes[node];
    uint64_t parent = 0;
    for (uint32_t k = 0; k < x->n_edges; k++) parent += edges[x->first_edge + k].n;
    double log_parent = miai_ucb_log(parent);
    for (uint32_t k = 0; k < x->n_edges; k++) {
        const miai_edge *e = &edges[x->first_edge + k];
        double mean = e->n ? e->sum / e->n : 0.0;
        out[4 * k] = mean;
        out[4 * k + 1] = (double)parent;
        out[4 * k + 2] = e->n;
        out[4 * k + 3] = a->inside ? eq6_value(p->cfg.c, log_parent, e->sum, e->n)
                                   : miai_ucb_value_real(e->sum, e->n,
                                                         miai_ucb_factor(&s->ucb, p->cfg.c,
                                                                         parent));
    }
}

const miai_policy_ops miai_uctstar_policy = {
    .name = "uctstar",
    .init = star_init,
    .destroy = star_destroy,
    .select = star_select,
    .on_reroot = star_on_reroot,
    .backup = star_backup,
    .final = star_final,
    .virtual_loss = miai_uct_virtual_loss, /* the node cache follows virtual visits */
};

/* B* pruning at the root now, for the root-only variant run by the Python layer
 * between batches (Alg. 7); *left gets the root moves still in play. */
void miai_uctstar_prune_root(miai_policy *p, miai_search *s, uint32_t *left) {
    const star_data *a = p->data;
    const miai_dag *d = &s->dag;
    const miai_node *root = &d->nodes[d->root];
    prune_node(a, s, d->root);
    uint32_t n = 0;
    for (uint32_t i = root->first_edge; i < root->first_edge + root->n_edges; i++)
        n += !(d->edges[i].flags & MIAI_EDGE_PRUNED);
    *left = n;
}
