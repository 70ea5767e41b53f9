/* search.c -- the validated public search API (search_api.h) over mcts.c and dag.c. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcts.h"

#define MIAI_TIME_CHECK_EVERY 16u
#define MIAI_SEARCH_MIN_BYTES (64u * 1024u)

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int config_ok(const miai_search_config *cfg) {
    if (!miai_policy_for(cfg->algorithm)) return 0;
    if (cfg->mode != MIAI_MODE_TREE && cfg->mode != MIAI_MODE_DAG) return 0;
    if (cfg->final_choice != MIAI_FINAL_VISITS && cfg->final_choice != MIAI_FINAL_MEAN)
        return 0;
    if (cfg->max_nodes == 0 || cfg->max_nodes >= MIAI_NIL / 2) return 0;
    if (cfg->flags & ~(uint32_t)MIAI_SEARCH_TRACK_PARENTS) return 0;
    if (cfg->max_bytes && cfg->max_bytes < MIAI_SEARCH_MIN_BYTES) return 0;
    if (!isfinite(cfg->c) || cfg->c < 0) return 0;
    for (int i = 0; i < MIAI_SEARCH_PARAMS; i++)
        if (!isfinite(cfg->params[i])) return 0;
    if (cfg->leaf_playouts > MIAI_LEAF_PLAYOUTS_MAX) return 0;
    if (cfg->mast > 1 || !(cfg->mast_eps >= 0.0 && cfg->mast_eps <= 1.0)) return 0;
    if (!isfinite(cfg->mast_temp) || cfg->mast_temp < 0.0) return 0;
    if (cfg->leaf_playouts > 1 &&
        (cfg->algorithm == MIAI_ALG_RAVE || cfg->algorithm == MIAI_ALG_AUCT_RAVE))
        return 0;
    if (cfg->threads > MIAI_THREADS_MAX || cfg->virtual_loss > MIAI_VIRTUAL_LOSS_MAX) return 0;
    if (cfg->threads > 1 && (!miai_search_threads_ok(cfg->algorithm) || cfg->leaf_playouts > 1))
        return 0;
    return 1;
}

int miai_search_threads_ok(uint32_t algorithm) {
    const miai_policy_ops *ops = miai_policy_for(algorithm);
    return ops && ops->virtual_loss ? 1 : 0;
}

void miai_search_free(miai_search *s) {
    if (!s) return;
    if (s->policy.ops && s->policy.ops->destroy) s->policy.ops->destroy(&s->policy);
    miai_mcts_done(s);
    miai_dag_free(&s->dag);
    free(s->root_state);
    free(s);
}

int miai_search_create(const miai_game *g, const void *state, const miai_search_config *cfg,
                       miai_search **out) {
    if (!g || !state || !cfg || !out) return MIAI_EINVAL;
    *out = NULL;
    if (!config_ok(cfg)) return MIAI_EINVAL;
    if (g->facts.n_roles == 0 || g->facts.n_roles > MIAI_MAX_ROLES) return MIAI_EINVAL;
    miai_search *s = calloc(1, sizeof *s);
    if (!s) return MIAI_ENOMEM;
    s->game = g;
    s->cfg = *cfg;
    s->policy.ops = miai_policy_for(cfg->algorithm);
    s->policy.cfg = *cfg;
    atomic_init(&s->stop, false);
    miai_rng_seed(&s->rng, cfg->seed);
    miai_ucb_table_init(&s->ucb);
    uint32_t parents = s->policy.ops->track_parents || (cfg->flags & MIAI_SEARCH_TRACK_PARENTS);
    int rc = miai_dag_init(&s->dag, g->facts.n_roles, cfg->mode == MIAI_MODE_TREE,
                           cfg->max_nodes, cfg->max_bytes, parents);
    if (rc != MIAI_OK) {
        free(s);
        return rc;
    }
    s->root_state = malloc(g->facts.state_size);
    if (!s->root_state) rc = MIAI_ENOMEM;
    if (rc == MIAI_OK) {
        memcpy(s->root_state, state, g->facts.state_size);
        if (s->policy.ops->init) rc = s->policy.ops->init(&s->policy, s);
    }
    if (rc == MIAI_OK) rc = miai_mcts_init(s);
    if (rc != MIAI_OK) {
        miai_search_free(s);
        return rc;
    }
    *out = s;
    return MIAI_OK;
}

int miai_search_run(miai_search *s, uint64_t max_iterations, double max_seconds,
                    uint64_t *done) {
    if (!s || !done || isnan(max_seconds)) return MIAI_EINVAL;
    *done = 0;
    bool timed = max_seconds > 0;
    if (!max_iterations && !timed) return MIAI_EINVAL;
    if (miai_chead_of(s->root_state)->to_move == MIAI_NOBODY) return MIAI_OK;
    if (s->cfg.threads > 1) return miai_search_run_threads(s, max_iterations, max_seconds, done);
    double rewards[MIAI_MAX_ROLES];
    double start = now_seconds(), deadline = start + max_seconds;
    uint64_t i = 0;
    /* several playouts an iteration: the clock read every iteration */
    uint64_t every = s->cfg.leaf_playouts > 1 ? 1 : MIAI_TIME_CHECK_EVERY;
    while (!max_iterations || i < max_iterations) {
        if (atomic_load_explicit(&s->stop, memory_order_relaxed)) break;
        if (timed && i % every == 0 && now_seconds() >= deadline) break;
        miai_mcts_iterate(s, rewards);
        i++;
    }
    s->seconds += now_seconds() - start;
    *done = i;
    return MIAI_OK;
}

int miai_search_stop(miai_search *s) {
    if (!s) return MIAI_EINVAL;
    atomic_store(&s->stop, true);
    return MIAI_OK;
}

int miai_search_clear_stop(miai_search *s) {
    if (!s) return MIAI_EINVAL;
    atomic_store(&s->stop, false);
    return MIAI_OK;
}

int miai_search_get_info(const miai_search *s, miai_search_info *out) {
    if (!s || !out) return MIAI_EINVAL;
    memset(out, 0, sizeof *out);
    out->iterations = s->iterations;
    out->root_iterations = s->root_iterations;
    out->nodes = s->dag.n_nodes;
    out->edges = s->dag.live_edges;
    out->root = s->dag.root;
    out->playouts = s->playouts;
    out->max_nodes = s->dag.max_nodes;
    out->refused = s->dag.refused;
    out->graph_bytes = miai_dag_bytes_allocated(&s->dag);
    out->bytes_allocated = out->graph_bytes + sizeof *s + s->game->facts.state_size * 2u +
                           s->path.cap * sizeof(miai_step) +
                           s->root_role_cap * (s->game->facts.n_roles * sizeof(double) + 4u);
    out->bytes_per_edge = miai_dag_bytes_per_edge();
    out->bytes_per_node = miai_dag_bytes_per_node(s->dag.tree_mode);
    out->seconds = s->seconds;
    out->lock_held_seconds = s->lock_held_seconds;
    out->lock_wait_seconds = s->lock_wait_seconds;
    out->thread_seconds = s->thread_seconds;
    if (s->cfg.mast && s->mast.n)
        for (size_t c = 0; c < (size_t)s->mast.n_roles * s->mast.num_moves; c++)
            out->mast_samples += s->mast.n[c];
    return MIAI_OK;
}

int miai_search_root_state(const miai_search *s, void *out, size_t cap) {
    if (!s || !out || cap < s->game->facts.state_size) return MIAI_EINVAL;
    memcpy(out, s->root_state, s->game->facts.state_size);
    return MIAI_OK;
}

int miai_search_root_values(const miai_search *s, double *out, uint32_t cap) {
    uint32_t nr = s ? s->game->facts.n_roles : 0;
    if (!s || !out || cap < nr) return MIAI_EINVAL;
    for (uint32_t r = 0; r < nr; r++)
        out[r] = s->root_iterations ? s->root_sum[r] / (double)s->root_iterations : 0.0;
    return MIAI_OK;
}

int miai_search_root_role_means(const miai_search *s, uint32_t index, double *out,
                                uint32_t cap, uint64_t *count) {
    uint32_t nr = s ? s->game->facts.n_roles : 0;
    if (!s || !out || !count || cap < nr) return MIAI_EINVAL;
    if (index >= s->dag.nodes[s->dag.root].n_edges) return MIAI_EINVAL;
    uint32_t n = index < s->root_role_cap ? s->root_role_n[index] : 0;
    for (uint32_t r = 0; r < nr; r++)
        out[r] = n ? s->root_role_sum[(uint64_t)index * nr + r] / n : 0.0;
    *count = n;
    return MIAI_OK;
}

static void edge_stats(const miai_edge *e, miai_edge_stats *out) {
    out->move = e->move;
    out->role = miai_edge_role(e);
    out->child = e->child;
    out->n = e->n;
    out->n_prime = e->n_prime;
    out->flags = e->flags & ~(0xFFu << MIAI_EDGE_ROLE_SHIFT);
    out->mean = e->n ? e->sum / e->n : 0.0;
    out->sum = e->sum;
    out->sum_prime = e->sum_prime;
    out->alg_a = e->alg_a;
    out->alg_b = e->alg_b;
}

int miai_search_node_edges(const miai_search *s, uint32_t node, miai_edge_stats *out,
                           uint32_t cap, uint32_t *n) {
    if (!s || !out || !n || node >= s->dag.n_nodes) return MIAI_EINVAL;
    const miai_node *x = &s->dag.nodes[node];
    *n = x->n_edges;
    if (cap < x->n_edges) return MIAI_EINVAL;
    for (uint32_t i = 0; i < x->n_edges; i++)
        edge_stats(&s->dag.edges[x->first_edge + i], &out[i]);
    if (s->policy.ops->edge_view) s->policy.ops->edge_view(&s->policy, s, node, out, x->n_edges);
    return MIAI_OK;
}

int miai_search_root_edges(const miai_search *s, miai_edge_stats *out, uint32_t cap,
                           uint32_t *n) {
    if (!s) return MIAI_EINVAL;
    return miai_search_node_edges(s, s->dag.root, out, cap, n);
}

int miai_search_node(const miai_search *s, uint32_t node, miai_node_stats *out) {
    if (!s || !out || node >= s->dag.n_nodes) return MIAI_EINVAL;
    const miai_node *x = &s->dag.nodes[node];
    out->key = x->key;
    out->key2 = x->key2;
    out->to_move = x->to_move;
    out->n = x->n;
    out->n_edges = x->n_edges;
    out->n_links = 0;
    for (uint32_t l = miai_dag_first_link(x); l != MIAI_NIL; l = miai_dag_link_next(&s->dag, l))
        out->n_links++;
    return MIAI_OK;
}

int miai_search_node_links(const miai_search *s, uint32_t node, uint32_t *children,
                           uint32_t *offsets, uint32_t cap, uint32_t *n) {
    if (!s || !children || !offsets || !n || node >= s->dag.n_nodes) return MIAI_EINVAL;
    const miai_dag *d = &s->dag;
    uint32_t count = 0;
    for (uint32_t l = miai_dag_first_link(&d->nodes[node]); l != MIAI_NIL;
         l = miai_dag_link_next(d, l))
        count++;
    *n = count;
    if (cap < count) return MIAI_EINVAL;
    uint32_t i = 0;
    for (uint32_t l = miai_dag_first_link(&d->nodes[node]); l != MIAI_NIL;
         l = miai_dag_link_next(d, l)) {
        children[i] = miai_dag_link_child(d, l);
        memcpy(offsets + (uint64_t)i * d->n_roles, miai_dag_link_offsets(d, l),
               d->n_roles * sizeof *offsets);
        i++;
    }
    return MIAI_OK;
}

/* The edge offset at the parent an in-link comes from (MIAI_NIL for joint links). */
static uint32_t in_link_edge(const miai_dag *d, uint32_t in) {
    uint32_t from = miai_dag_in_from(d, in);
    if (from & MIAI_FROM_LINK) return MIAI_NIL;
    return from - d->nodes[miai_dag_in_parent(d, in)].first_edge;
}

int miai_search_node_parents(const miai_search *s, uint32_t node, uint32_t *parents,
                             uint32_t *edges, uint32_t cap, uint32_t *n) {
    if (!s || !parents || !edges || !n || node >= s->dag.n_nodes) return MIAI_EINVAL;
    const miai_dag *d = &s->dag;
    if (!d->track_parents) return MIAI_ESTATE;
    uint32_t count = 0;
    for (uint32_t l = d->parent_head[node]; l != MIAI_NIL; l = miai_dag_in_next(d, l)) count++;
    *n = count;
    if (cap < count) return MIAI_EINVAL;
    uint32_t i = 0;
    for (uint32_t l = d->parent_head[node]; l != MIAI_NIL; l = miai_dag_in_next(d, l), i++) {
        parents[i] = miai_dag_in_parent(d, l);
        edges[i] = in_link_edge(d, l);
    }
    return MIAI_OK;
}

int miai_search_set_pruned(miai_search *s, uint32_t index, int pruned) {
    if (!s || (pruned != 0 && pruned != 1)) return MIAI_EINVAL;
    const miai_node *x = &s->dag.nodes[s->dag.root];
    if (index >= x->n_edges) return MIAI_EINVAL;
    miai_edge *e = &s->dag.edges[x->first_edge + index];
    /* A move illegal in the real root state (pruned by miai_mcts_set_root) stays out. */
    int32_t tm = miai_chead_of(s->root_state)->to_move;
    uint32_t role = tm == MIAI_SIMULTANEOUS ? miai_edge_role(e) : (uint32_t)tm;
    if (!pruned && !miai_game_is_legal(s->game, s->root_state, role, e->move))
        return MIAI_EINVAL;
    if (pruned) e->flags |= MIAI_EDGE_PRUNED;
    else e->flags &= ~MIAI_EDGE_PRUNED;
    return MIAI_OK;
}

/* Role `role`'s block of edges at node x: [*first, *first + *count). */
static void role_block(const miai_dag *d, const miai_node *x, uint32_t role, uint32_t *first,
                       uint32_t *count) {
    if (x->to_move != MIAI_SIMULTANEOUS) {
        *first = x->first_edge;
        *count = x->n_edges;
        return;
    }
    uint32_t b = x->first_edge, end = x->first_edge + x->n_edges;
    while (b < end && miai_edge_role(&d->edges[b]) < role) b++;
    uint32_t e = b;
    while (e < end && miai_edge_role(&d->edges[e]) == role) e++;
    *first = b;
    *count = e - b;
}

static uint32_t final_choice(const miai_search *s, uint32_t first, uint32_t count) {
    if (s->policy.ops->final) return s->policy.ops->final(&s->policy, s, first, count);
    return miai_final_default(&s->policy, s, first, count);
}

int miai_search_best(const miai_search *s, uint32_t role, uint32_t *index) {
    if (!s || !index) return MIAI_EINVAL;
    const miai_node *x = &s->dag.nodes[s->dag.root];
    if (x->to_move == MIAI_SIMULTANEOUS && role >= s->game->facts.n_roles) return MIAI_EINVAL;
    if (x->n_edges == 0) return MIAI_ESTATE;
    uint32_t first, count;
    role_block(&s->dag, x, role, &first, &count);
    if (count == 0) return MIAI_ESTATE;
    uint32_t e = final_choice(s, first, count);
    if (e == MIAI_NIL) return MIAI_ESTATE;
    *index = e - x->first_edge;
    return MIAI_OK;
}

int miai_search_select_root(miai_search *s, uint32_t role, uint32_t *index) {
    if (!s || !index) return MIAI_EINVAL;
    const miai_node *x = &s->dag.nodes[s->dag.root];
    if (x->to_move == MIAI_SIMULTANEOUS && role >= s->game->facts.n_roles) return MIAI_EINVAL;
    if (x->n_edges == 0) return MIAI_ESTATE;
    uint32_t first, count, r = x->to_move == MIAI_SIMULTANEOUS ? role : (uint32_t)x->to_move;
    role_block(&s->dag, x, r, &first, &count);
    if (count == 0) return MIAI_ESTATE;
    miai_rng saved = s->rng;
    uint32_t e = s->policy.ops->select(&s->policy, s, s->dag.root, first, count, r);
    s->rng = saved;
    *index = e - x->first_edge;
    return MIAI_OK;
}

int miai_search_pv(const miai_search *s, miai_move *moves, uint32_t *roles,
                   int32_t *to_move, uint32_t cap, uint32_t *len) {
    if (!s || !moves || !roles || !to_move || !len) return MIAI_EINVAL;
    const miai_dag *d = &s->dag;
    uint32_t nr = s->game->facts.n_roles, k = 0, node = d->root;
    /* Depth bound: a repeated position in a cyclic game must not loop forever. */
    for (uint32_t depth = 0; node != MIAI_NIL && depth <= s->game->facts.max_plies; depth++) {
        const miai_node *x = &d->nodes[node];
        if (x->n_edges == 0 || x->n == 0) break;
        uint32_t next = MIAI_NIL;
        if (x->to_move == MIAI_SIMULTANEOUS) {
            uint32_t offsets[MIAI_MAX_ROLES];
            if (k + nr > cap) break;
            bool ok = true;
            for (uint32_t r = 0; r < nr && ok; r++) {
                uint32_t first, count;
                role_block(d, x, r, &first, &count);
                uint32_t e = count ? final_choice(s, first, count) : MIAI_NIL;
                if (e == MIAI_NIL || d->edges[e].n == 0) ok = false;
                else {
                    moves[k + r] = d->edges[e].move;
                    roles[k + r] = r;
                    to_move[k + r] = MIAI_SIMULTANEOUS;
                    offsets[r] = e - x->first_edge;
                }
            }
            if (!ok) break;
            k += nr;
            uint32_t l = miai_dag_joint_find(d, node, offsets);
            next = l == MIAI_NIL ? MIAI_NIL : miai_dag_link_child(d, l);
        } else {
            uint32_t e = final_choice(s, x->first_edge, x->n_edges);
            if (e == MIAI_NIL || d->edges[e].n == 0 || k >= cap) break;
            moves[k] = d->edges[e].move;
            roles[k] = (uint32_t)x->to_move;
            to_move[k] = x->to_move;
            k++;
            next = d->edges[e].child;
        }
        node = next;
    }
    *len = k;
    return MIAI_OK;
}

int miai_search_advance(miai_search *s, const miai_move *moves, uint32_t n_moves) {
    if (!s || !moves) return MIAI_EINVAL;
    const miai_game *g = s->game;
    memcpy(s->work, s->root_state, g->facts.state_size);
    int rc = miai_state_play_joint(g, s->work, moves, n_moves);
    if (rc != MIAI_OK) return rc;
    /* The child the graph already has for this move, if any. */
    const miai_dag *d = &s->dag;
    const miai_node *x = &d->nodes[d->root];
    int32_t tm = miai_chead_of(s->root_state)->to_move;
    uint32_t hint = MIAI_NIL;
    if (tm == MIAI_SIMULTANEOUS) {
        uint32_t offsets[MIAI_MAX_ROLES];
        bool found = true;
        for (uint32_t r = 0; r < g->facts.n_roles && found; r++) {
            uint32_t first, count, i;
            role_block(d, x, r, &first, &count);
            for (i = 0; i < count && d->edges[first + i].move != moves[r]; i++) continue;
            found = i < count;
            offsets[r] = first + i - x->first_edge;
        }
        uint32_t l = found ? miai_dag_joint_find(d, d->root, offsets) : MIAI_NIL;
        if (l != MIAI_NIL) hint = miai_dag_link_child(d, l);
    } else {
        miai_move m = n_moves == 1 ? moves[0] : moves[tm];
        for (uint32_t i = 0; i < x->n_edges; i++)
            if (d->edges[x->first_edge + i].move == m) hint = d->edges[x->first_edge + i].child;
    }
    memcpy(s->root_state, s->work, g->facts.state_size);
    return miai_mcts_set_root(s, hint);
}
