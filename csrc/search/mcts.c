/* mcts.c -- one MCTS iteration over the DAG, and the helpers policies share. */
#include "mcts.h"

#include <stdlib.h>
#include <string.h>

/* Destination of the move just played from the work state: the table's node (DAG
 * mode) or a new one.  *created tells which.  MIAI_NIL when the budget is full. */
static uint32_t find_or_create(miai_search *s, bool *created) {
    miai_dag *d = &s->dag;
    const miai_head *h = miai_chead_of(s->work);
    uint32_t node = miai_dag_lookup(d, h->key, h->key2);
    *created = false;
    if (node != MIAI_NIL) return node;
    node = miai_dag_new_node(d, s->work);
    *created = node != MIAI_NIL;
    return node;
}

/* A hint to the cache (GCC/Clang; a no-op elsewhere): no effect on results. */
#if defined(__GNUC__)
#define MIAI_PREFETCH(addr) __builtin_prefetch(addr)
#else
#define MIAI_PREFETCH(addr) ((void)(addr))
#endif

/* Start loading the first edges of `node` (if expanded) while the move is played:
 * the next level's selection reads them all. */
static void prefetch_edges(const miai_dag *d, uint32_t node) {
    const miai_node *x = &d->nodes[node];
    if (x->first_edge == MIAI_NIL) return;
    const char *at = (const char *)&d->edges[x->first_edge];
    uint32_t bytes = x->n_edges * (uint32_t)sizeof(miai_edge);
    if (bytes > 512u) bytes = 512u;
    for (uint32_t b = 0; b < bytes; b += 64u) MIAI_PREFETCH(at + b);
}

static void push_step(miai_path *p, uint32_t node, uint32_t edge, uint32_t role) {
    p->steps[p->len++] = (miai_step){.node = node, .edge = edge, .role = role};
}

/* One level at a simultaneous node: each role selects in its own block; the joint
 * move's child hangs off a joint link.  Returns the next node, or MIAI_NIL with
 * *stop set when the descent ends here. */
static uint32_t descend_simultaneous(miai_search *s, uint32_t node, bool *stop) {
    miai_dag *d = &s->dag;
    const miai_game *g = s->game;
    uint32_t nr = g->facts.n_roles;
    miai_move joint[MIAI_MAX_ROLES] = {0};
    uint32_t offsets[MIAI_MAX_ROLES];
    uint32_t first = d->nodes[node].first_edge, end = first + d->nodes[node].n_edges;
    uint32_t b = first;
    for (uint32_t r = 0; r < nr; r++) {
        uint32_t e = b;
        while (e < end && miai_edge_role(&d->edges[e]) == r) e++;
        if (e == b) { /* a role without moves: let the playout handle the state */
            *stop = true;
            s->path.leaf = node;
            return MIAI_NIL;
        }
        uint32_t chosen = s->policy.ops->select(&s->policy, s, node, b, e - b, r);
        joint[r] = d->edges[chosen].move;
        offsets[r] = chosen - first;
        push_step(&s->path, node, chosen, r);
        b = e;
    }
    g->ops->play(g, s->work, joint);
    uint32_t link = miai_dag_joint_find(d, node, offsets);
    if (link != MIAI_NIL) return miai_dag_link_child(d, link);
    *stop = true;
    s->path.leaf = MIAI_NIL;
    if (miai_dag_reserve_parent(d) != MIAI_OK) {
        d->refused++;
        return MIAI_NIL;
    }
    link = miai_dag_joint_add(d, node, offsets, MIAI_NIL);
    if (link == MIAI_NIL) return MIAI_NIL;
    bool created;
    uint32_t child = find_or_create(s, &created);
    if (child == MIAI_NIL) { /* pop the link just added */
        d->nodes[node].joint = miai_dag_link_next(d, link);
        d->n_links--;
        return MIAI_NIL;
    }
    d->links[(uint64_t)link * d->link_stride] = child;
    miai_dag_add_parent(d, child, node, MIAI_FROM_LINK | link);
    if (created) {
        s->path.leaf = child;
        return MIAI_NIL;
    }
    *stop = false; /* a transposition: keep descending */
    return child;
}

static uint32_t descend_alternating(miai_search *s, uint32_t node, bool *stop) {
    miai_dag *d = &s->dag;
    const miai_game *g = s->game;
    miai_node *x = &d->nodes[node];
    uint32_t r = (uint32_t)x->to_move;
    uint32_t chosen = s->policy.ops->select(&s->policy, s, node, x->first_edge, x->n_edges, r);
    push_step(&s->path, node, chosen, r);
    miai_move joint[MIAI_MAX_ROLES] = {0};
    joint[r] = d->edges[chosen].move;
    uint32_t child = d->edges[chosen].child;
    if (child != MIAI_NIL) {
        prefetch_edges(d, child);
        if (s->policy.ops->prefetch) s->policy.ops->prefetch(&s->policy, s, child);
    }
    g->ops->play(g, s->work, joint);
    if (child != MIAI_NIL) return child;
    bool created = false;
    if (miai_dag_reserve_parent(d) == MIAI_OK)
        child = find_or_create(s, &created); /* may move the arenas: no pointers kept */
    else
        d->refused++;
    if (child == MIAI_NIL) {
        *stop = true;
        s->path.leaf = MIAI_NIL;
        return MIAI_NIL;
    }
    d->edges[chosen].child = child;
    miai_dag_add_parent(d, child, node, chosen);
    if (created) {
        *stop = true;
        s->path.leaf = child;
        return MIAI_NIL;
    }
    return child;
}

/* The mean rewards of k > 1 playouts from s->work (left as it is): a batch by the
 * game's ops->playouts where it runs one, else one by one on s->leaf. */
void miai_mcts_evaluate_on(const miai_search *s, miai_eval *ev, double *rewards) {
    const miai_game *g = s->game;
    miai_head *h = miai_head_of(ev->work);
    *ev->trace_len = 0;
    *ev->trace_role = MIAI_NOBODY;
    bool open = h->to_move != MIAI_NOBODY && h->ply < g->facts.max_plies;
    uint32_t k = s->cfg.leaf_playouts;
    if (open && k > 1) { /* the mean of k playouts: a batch where the game runs one */
        double sum[MIAI_MAX_ROLES];
        uint64_t plies = 0;
        *ev->playouts += k;
        if (ev->mast) { /* one by one, each playout's moves learning from its outcome */
            double r[MIAI_MAX_ROLES];
            for (uint32_t q = 0; q < g->facts.n_roles; q++) sum[q] = 0.0;
            for (uint32_t i = 0; i < k; i++) {
                memcpy(ev->leaf, ev->work, g->facts.state_size);
                miai_game_playout_mast(g, ev->leaf, ev->rng, NULL, 0, NULL, ev->mast);
                miai_game_outcome(g, ev->leaf, r);
                miai_mast_add_seen(ev->mast, r);
                for (uint32_t q = 0; q < g->facts.n_roles; q++) sum[q] += r[q];
            }
        } else {
            miai_game_playouts(g, ev->work, k, ev->rng, ev->leaf, true, sum, &plies);
        }
        for (uint32_t q = 0; q < g->facts.n_roles; q++) rewards[q] = sum[q] / k;
        return;
    }
    if (open) {
        (*ev->playouts)++;
        *ev->trace_role = h->to_move;
        if (ev->mast)
            miai_game_playout_mast(g, ev->work, ev->rng, ev->trace,
                                   ev->trace ? ev->trace_cap : 0,
                                   ev->trace ? ev->trace_len : NULL, ev->mast);
        else if (ev->playout_memory)
            g->ops->playout_learn(g, ev->work, ev->rng, ev->playout_memory, ev->trace,
                                  ev->trace ? ev->trace_cap : 0,
                                  ev->trace ? ev->trace_len : NULL);
        else
            miai_game_playout(g, ev->work, ev->rng, ev->trace, ev->trace ? ev->trace_cap : 0,
                              ev->trace ? ev->trace_len : NULL);
    }
    miai_game_outcome(g, ev->work, rewards);
    if (ev->mast) miai_mast_add_seen(ev->mast, rewards);
}

/* MAST: the descent's moves get their role's reward too. */
static void mast_tree(miai_search *s, const miai_path *p, const double *rewards) {
    const miai_edge *edges = s->dag.edges;
    for (uint32_t i = 0; i < p->len; i++) {
        uint32_t r = p->steps[i].role;
        miai_mast_add(&s->mast, r, edges[p->steps[i].edge].move, rewards[r]);
    }
}

static void evaluate(miai_search *s, double *rewards) {
    miai_eval ev = {.work = s->work, .rng = &s->rng, .trace = s->trace,
                    .trace_cap = s->trace_cap, .trace_len = &s->trace_len,
                    .trace_role = &s->trace_role, .leaf = s->leaf, .playouts = &s->playouts,
                    .playout_memory = s->playout_memory,
                    .mast = s->cfg.mast ? &s->mast : NULL};
    miai_mcts_evaluate_on(s, &ev, rewards);
}

void miai_mcts_descend(miai_search *s) {
    const miai_game *g = s->game;
    miai_dag *d = &s->dag;
    miai_path *p = &s->path;
    memcpy(s->work, s->root_state, g->facts.state_size);
    const miai_head *h = miai_chead_of(s->work);
    p->len = 0;
    p->last_level = 0;
    p->leaf = d->root;
    uint32_t node = d->root;
    /* Lazy edges move and reorder blocks: not with in-links, which name edges, nor
     * with threads, whose paths in flight name edges too. */
    bool lazy = s->policy.ops->lazy_edges && !d->track_parents && s->cfg.threads <= 1;
    for (;;) {
        if (d->nodes[node].to_move == MIAI_NOBODY || h->ply >= g->facts.max_plies) {
            p->leaf = node;
            break;
        }
        if (!miai_dag_expanded(d, node)) { /* second visit: the leaf gets its edges */
            int rc = lazy && node != d->root
                         ? miai_dag_expand_lazy(d, g, s->work, node, s->moves)
                         : miai_dag_expand(d, g, s->work, node, s->moves);
            if (rc != MIAI_OK) {
                p->leaf = node; /* edge memory short: sample from here */
                break;
            }
            if (s->policy.ops->on_expand) s->policy.ops->on_expand(&s->policy, s, node);
        }
        const miai_node *x = &d->nodes[node];
        if (x->n_edges == 0 && !miai_dag_lazy(x)) {
            p->leaf = node;
            break;
        }
        p->last_level = p->len;
        bool stop = false;
        uint32_t next = x->to_move == MIAI_SIMULTANEOUS ? descend_simultaneous(s, node, &stop)
                                                        : descend_alternating(s, node, &stop);
        if (stop) break;
        node = next;
    }
}

void miai_mcts_record(miai_search *s, const double *rewards) {
    const miai_game *g = s->game;
    miai_dag *d = &s->dag;
    const miai_path *p = &s->path;
    if (s->cfg.mast) mast_tree(s, p, rewards);
    /* Count the visit in every node of the path (one per level), then the policy. */
    for (uint32_t i = 0; i < p->len; i++) {
        miai_node *x = &d->nodes[p->steps[i].node];
        if (x->to_move != MIAI_SIMULTANEOUS || p->steps[i].role == 0) x->n++;
    }
    if (p->leaf != MIAI_NIL && (p->len == 0 || p->leaf != p->steps[p->len - 1].node))
        d->nodes[p->leaf].n++;
    s->policy.ops->backup(&s->policy, s, p, rewards);
    uint32_t nr = g->facts.n_roles, root_first = d->nodes[d->root].first_edge;
    for (uint32_t i = 0; i < p->len && p->steps[i].node == d->root; i++) {
        uint32_t k = p->steps[i].edge - root_first;
        if (k >= s->root_role_cap) break;
        for (uint32_t r = 0; r < nr; r++) s->root_role_sum[(uint64_t)k * nr + r] += rewards[r];
        s->root_role_n[k]++;
        if (d->nodes[d->root].to_move != MIAI_SIMULTANEOUS) break;
    }
    for (uint32_t r = 0; r < nr; r++) s->root_sum[r] += rewards[r];
    s->root_iterations++;
    s->iterations++;
}

void miai_mcts_iterate(miai_search *s, double *rewards) {
    miai_mcts_descend(s);
    evaluate(s, rewards);
    miai_mcts_record(s, rewards);
}

void miai_mcts_virtual_loss(miai_search *s, const miai_path *path, uint32_t amount, bool add) {
    miai_edge *edges = s->dag.edges;
    for (uint32_t i = 0; i < path->len; i++) {
        miai_edge *e = &edges[path->steps[i].edge];
        if (add) e->n += amount;
        else e->n -= amount;
    }
    if (s->policy.ops->virtual_loss)
        s->policy.ops->virtual_loss(&s->policy, s, path, amount, add);
}

void miai_backup_descent(miai_search *s, const miai_path *path, const double *rewards) {
    miai_dag *d = &s->dag;
    for (uint32_t i = 0; i < path->len; i++)
        miai_backup_step(&d->edges[path->steps[i].edge], rewards[path->steps[i].role],
                         i >= path->last_level);
}

uint32_t miai_final_among(const miai_edge *edges, uint32_t first, uint32_t count,
                          uint32_t exclude, bool by_mean, bool skip_unvisited) {
    uint32_t best = MIAI_NIL;
    double best_mean = 0.0;
    for (uint32_t i = first; i < first + count; i++) {
        const miai_edge *e = &edges[i];
        if (e->flags & exclude) continue;
        if (skip_unvisited && e->n == 0) continue;
        double mean = e->n ? e->sum / e->n : 0.0;
        bool better;
        if (best == MIAI_NIL) better = true;
        else if (by_mean)
            better = mean > best_mean || (mean == best_mean && e->n > edges[best].n);
        else
            better = e->n > edges[best].n || (e->n == edges[best].n && mean > best_mean);
        if (better) {
            best = i;
            best_mean = mean;
        }
    }
    return best;
}

uint32_t miai_final_default(const miai_policy *p, const miai_search *s, uint32_t first,
                            uint32_t count) {
    const miai_edge *edges = s->dag.edges;
    bool skip_pruned = false, any_visited = false;
    for (uint32_t i = first; i < first + count; i++)
        if (!(edges[i].flags & MIAI_EDGE_PRUNED)) skip_pruned = true;
    for (uint32_t i = first; i < first + count; i++)
        if (edges[i].n && !(skip_pruned && (edges[i].flags & MIAI_EDGE_PRUNED)))
            any_visited = true;
    bool by_mean = p->cfg.final_choice == MIAI_FINAL_MEAN && any_visited;
    return miai_final_among(edges, first, count, skip_pruned ? MIAI_EDGE_PRUNED : 0u, by_mean,
                            by_mean);
}

int miai_mcts_init(miai_search *s) {
    const miai_game_facts *f = &s->game->facts;
    s->work = malloc(f->state_size);
    s->moves = malloc(sizeof(miai_move) * (f->max_legal ? f->max_legal : 1));
    s->taken = malloc(f->max_legal ? f->max_legal : 1);
    s->path.cap = (f->max_plies + 2) * f->n_roles;
    s->path.steps = malloc(sizeof(miai_step) * s->path.cap);
    if (!s->work || !s->moves || !s->taken || !s->path.steps) return MIAI_ENOMEM;
    if (s->cfg.leaf_playouts > 1 && !(s->leaf = malloc(f->state_size))) return MIAI_ENOMEM;
    const miai_game_ops *ops = s->game->ops;
    size_t mem = ops->playout_memory && ops->playout_learn ? ops->playout_memory(s->game) : 0;
    if (mem && !(s->playout_memory = calloc(1, mem))) return MIAI_ENOMEM;
    if (s->cfg.mast) {
        miai_mast *t = &s->mast;
        size_t cells = (size_t)f->n_roles * (f->num_moves ? f->num_moves : 1);
        uint64_t cap = (uint64_t)f->max_plies * f->n_roles;
        t->n_roles = f->n_roles;
        t->num_moves = f->num_moves ? f->num_moves : 1;
        t->eps = s->cfg.mast_eps;
        t->temp = s->cfg.mast_temp;
        t->seen_cap = cap < (1u << 24) ? (uint32_t)cap : (1u << 24);
        t->sum = calloc(cells, sizeof *t->sum);
        t->n = calloc(cells, sizeof *t->n);
        t->seen = malloc(sizeof *t->seen * (t->seen_cap ? t->seen_cap : 1));
        t->buf = malloc(sizeof *t->buf * (f->max_legal ? f->max_legal : 1));
        if (!t->sum || !t->n || !t->seen || !t->buf) return MIAI_ENOMEM;
    }
    return miai_mcts_set_root(s, MIAI_NIL);
}

void miai_mcts_done(miai_search *s) {
    free(s->root_role_sum);
    free(s->root_role_n);
    s->root_role_sum = NULL;
    s->root_role_n = NULL;
    s->root_role_cap = 0;
    free(s->work);
    free(s->moves);
    free(s->taken);
    s->taken = NULL;
    free(s->path.steps);
    free(s->leaf);
    s->leaf = NULL;
    free(s->playout_memory);
    s->playout_memory = NULL;
    free(s->mast.sum);
    free(s->mast.n);
    free(s->mast.seen);
    free(s->mast.buf);
    s->mast = (miai_mast){0};
    s->work = NULL;
    s->moves = NULL;
    s->path.steps = NULL;
}

/* A node is keyed by position, not history, so a reused root may have been expanded
 * from another history whose legal moves differ (Go's positional superko: the same
 * stones and player to move, but a different set of earlier positions).  Edges whose
 * move is not legal in the real root state are marked pruned, so neither selection
 * nor the final choice can take them; nothing clears that flag while they are root
 * edges.  Legal moves the other history lacked are not added: the root then searches
 * a subset of its moves, which is safe.  Cost: one legal-move generation per role. */
static void prune_foreign_root_edges(miai_search *s) {
    const miai_game *g = s->game;
    miai_dag *d = &s->dag;
    const miai_node *x = &d->nodes[d->root];
    if (!miai_dag_expanded(d, d->root)) return;
    bool simultaneous = miai_chead_of(s->root_state)->to_move == MIAI_SIMULTANEOUS;
    for (uint32_t r = 0; r < g->facts.n_roles; r++) {
        uint32_t n_legal = g->ops->legal(g, s->root_state, r, s->moves);
        if (n_legal == 0) continue;
        for (uint32_t i = x->first_edge; i < x->first_edge + x->n_edges; i++) {
            miai_edge *e = &d->edges[i];
            if (simultaneous && miai_edge_role(e) != r) continue;
            uint32_t j = 0;
            while (j < n_legal && s->moves[j] != e->move) j++;
            if (j == n_legal) e->flags |= MIAI_EDGE_PRUNED;
        }
    }
}

int miai_mcts_set_root(miai_search *s, uint32_t hint) {
    miai_dag *d = &s->dag;
    const miai_head *h = miai_chead_of(s->root_state);
    uint32_t node = hint;
    if (node != MIAI_NIL &&
        (d->nodes[node].key != h->key || d->nodes[node].key2 != h->key2))
        node = MIAI_NIL;
    if (node == MIAI_NIL && d->n_nodes) node = miai_dag_lookup(d, h->key, h->key2);
    int rc = MIAI_OK;
    if (node != MIAI_NIL) rc = miai_dag_reroot(d, node);
    if (node != MIAI_NIL && rc == MIAI_OK && miai_dag_lazy(&d->nodes[d->root]))
        rc = miai_dag_complete(d, s->game, s->root_state, d->root, s->moves); /* (dag.h) */
    if (node != MIAI_NIL && rc == MIAI_OK) {
        prune_foreign_root_edges(s);
        if (s->policy.ops->on_reroot) s->policy.ops->on_reroot(&s->policy, s);
    }
    if (node == MIAI_NIL || rc != MIAI_OK) {
        miai_dag_clear(d);
        node = miai_dag_new_node(d, s->root_state);
        if (node == MIAI_NIL) return MIAI_ENOMEM;
        d->root = node;
    }
    if (!miai_dag_expanded(d, d->root)) {
        memcpy(s->work, s->root_state, s->game->facts.state_size);
        if (miai_dag_expand(d, s->game, s->work, d->root, s->moves) != MIAI_OK)
            return MIAI_ENOMEM;
        s->path.len = 0;
        s->path.last_level = 0;
        s->path.leaf = d->root;
        if (s->policy.ops->on_expand) s->policy.ops->on_expand(&s->policy, s, d->root);
    }
    s->root_iterations = 0;
    for (uint32_t r = 0; r < MIAI_MAX_ROLES; r++) s->root_sum[r] = 0.0;
    uint32_t n = d->nodes[d->root].n_edges, nr = s->game->facts.n_roles;
    if (n > s->root_role_cap) {
        double *sums = realloc(s->root_role_sum, (size_t)n * nr * sizeof *sums);
        if (sums) s->root_role_sum = sums;
        uint32_t *counts = realloc(s->root_role_n, (size_t)n * sizeof *counts);
        if (counts) s->root_role_n = counts;
        if (sums && counts) s->root_role_cap = n;
    }
    if (s->root_role_cap) {
        memset(s->root_role_sum, 0, (size_t)s->root_role_cap * nr * sizeof(double));
        memset(s->root_role_n, 0, (size_t)s->root_role_cap * sizeof(uint32_t));
    }
    return MIAI_OK;
}
