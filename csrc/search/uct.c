/* uct.c -- plain UCT (Kocsis & Szepesvari): UCB1 selection, update-descent backup.
 *
 * Parameters: cfg.c (exploration constant), cfg.final_choice.  No params[] used.
 * Unvisited edges have an infinite value; the others eq. 1's (ucb.h), ties broken
 * uniformly at random with the search's rng (ucb.h's arg-max).
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
#include <string.h>

#include "algos.h"
#include "uct_cache.h"
#include "ucb.h"

/* Eq. 1 (ucb.h), +infinity for an unvisited edge. */
static inline double uct_value(const miai_ucb_table *t, double sum, uint32_t n, double k) {
    if (n == 0) return INFINITY;
    return miai_ucb_value_sum(sum, miai_ucb_count_of(t, n), k);
}

static inline bool eligible(const miai_edge *e, bool skip_pruned) {
    return !(skip_pruned && (e->flags & MIAI_EDGE_PRUNED));
}

/* Arg-max of uct_value over the eligible edges (ucb.h's tie-break). */
static uint32_t uct_argmax(miai_search *s, uint32_t first, uint32_t count, bool skip_pruned,
                           double k) {
    const miai_edge *edges = s->dag.edges;
    miai_argmax best;
    miai_argmax_init(&best, first);
    for (uint32_t i = first; i < first + count; i++) {
        if (!eligible(&edges[i], skip_pruned)) continue;
        miai_argmax_offer(&best, &s->rng, i, uct_value(&s->ucb, edges[i].sum, edges[i].n, k));
    }
    return best.chosen;
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
    return uct_argmax(s, first, count, skip_pruned, miai_ucb_factor(&s->ucb, p->cfg.c, parent));
}

/* Edge indices of `node` held in the path (a position met twice in one descent) to
 * moves (before), and back to the node's edges after its block moved or was sorted. */
static void path_edges_to_moves(miai_search *s, uint32_t node) {
    for (uint32_t i = 0; i < s->path.len; i++)
        if (s->path.steps[i].node == node)
            s->path.steps[i].edge = s->dag.edges[s->path.steps[i].edge].move;
}

static void path_moves_to_edges(miai_search *s, uint32_t node) {
    const miai_node *x = &s->dag.nodes[node];
    for (uint32_t i = 0; i < s->path.len; i++) {
        miai_step *st = &s->path.steps[i];
        if (st->node != node) continue;
        uint32_t e = x->first_edge;
        while (e < x->first_edge + x->n_edges && s->dag.edges[e].move != st->edge) e++;
        st->edge = e;
    }
}

/* A lazy node (dag.h, "Lazy edges"): its edges so far have n = 1 each, so eager UCT
 * would be filling (uct_cache.h): one draw k below the unvisited count, and the k-th
 * unvisited edge in the legal order.  The same draw picks the k-th legal move without
 * an edge, which then gets one: the same choice, the same rng.  Anything else (a legal
 * list that differs from the node's, a count other than 1) completes the node and
 * returns MIAI_NIL: the eager selection decides. */
static uint32_t uct_select_lazy(miai_search *s, uint32_t node, uint32_t role) {
    miai_dag *d = &s->dag;
    const miai_game *g = s->game;
    uint32_t n_legal = g->ops->legal(g, s->work, role, s->moves);
    const miai_node *x = &d->nodes[node];
    uint32_t count = miai_dag_lazy_count(x), have = x->n_edges;
    bool same = n_legal == count;
    if (same) memset(s->taken, 0, n_legal);
    for (uint32_t i = 0; same && i < have; i++) {
        const miai_edge *e = &d->edges[x->first_edge + i];
        uint32_t at = (uint32_t)e->alg_b;
        same = at < n_legal && s->moves[at] == e->move && e->n == 1 && !s->taken[at];
        if (same) s->taken[at] = 1;
    }
    bool held = false;
    for (uint32_t i = 0; i < s->path.len && !held; i++) held = s->path.steps[i].node == node;
    if (held) path_edges_to_moves(s, node);
    uint32_t chosen = MIAI_NIL;
    if (same) {
        uint32_t k = miai_rng_below(&s->rng, count - have), j = 0;
        while (s->taken[j] || k-- != 0) j++;
        chosen = miai_dag_lazy_add(d, node, s->moves, n_legal, j, role);
        if (chosen == MIAI_NIL) /* edge memory short: an edge it has (the budget rule) */
            chosen = have ? d->nodes[node].first_edge : MIAI_NIL;
    } else {
        (void)miai_dag_complete(d, g, s->work, node, s->moves);
    }
    if (held) path_moves_to_edges(s, node);
    return chosen;
}

static uint32_t uct_select(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                           uint32_t count, uint32_t role) {
    if (miai_dag_lazy(&s->dag.nodes[node])) {
        uint32_t lazy = uct_select_lazy(s, node, role);
        if (lazy != MIAI_NIL) return lazy;
        first = s->dag.nodes[node].first_edge;
        count = s->dag.nodes[node].n_edges;
    }
    uint32_t chosen = miai_uct_select_fast(s, p->cfg.c, node, first, count, false);
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
    return uct_argmax(s, first, count, false, miai_ucb_factor(&s->ucb, p->cfg.c, parent));
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

/* Threads: the node cache's N follows the virtual visits (uct_cache.h); UNEVEN once
 * an edge held n >= 2 (set conservatively: it only sends selection to the full pass). */
void miai_uct_virtual_loss(miai_policy *p, miai_search *s, const miai_path *path,
                           uint32_t amount, bool add) {
    (void)p;
    for (uint32_t i = 0; i < path->len; i++) {
        const miai_step *st = &path->steps[i];
        miai_node *x = &s->dag.nodes[st->node];
        if (x->to_move == MIAI_SIMULTANEOUS) continue;
        uint32_t big_n = MIAI_UCT_N(x->mark), bits = x->mark & ~MIAI_UCT_N_UNKNOWN;
        if (big_n != MIAI_UCT_N_UNKNOWN) {
            uint64_t next = add ? (uint64_t)big_n + amount : (uint64_t)big_n - amount;
            big_n = next < MIAI_UCT_N_UNKNOWN ? (uint32_t)next : MIAI_UCT_N_UNKNOWN;
        }
        if (s->dag.edges[st->edge].n >= 2) bits |= MIAI_UCT_UNEVEN;
        x->mark = big_n | bits;
    }
}

const miai_policy_ops miai_uct_policy = {
    .name = "uct",
    .lazy_edges = 1,
    .select = uct_select,
    .on_reroot = uct_on_reroot,
    .backup = uct_backup,
    .virtual_loss = miai_uct_virtual_loss,
};
