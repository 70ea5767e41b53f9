/* rave.c -- RAVE / AMAF (Gelly & Silver, "Combining online and offline knowledge in
 * UCT", ICML 2007) with Fuego's mix of the two values (accelerated-uct.txt eq. 8) and
 * prior knowledge as virtual AMAF visits.
 *
 * Games: alternating moves (one or two roles); a move id means the same action
 * whoever plays it, and AMAF statistics are kept per role (an edge only learns from
 * moves of the role that chooses it).
 *
 * Edge fields: n, sum, n', sum' as plain UCT (update-descent; the final choice uses
 * them); alg_a = the AMAF payoff total of the edge's role, alg_b = the AMAF count
 * (a float: exact up to 2^24), both starting with the prior's virtual visits.
 *
 * AMAF update (MC-RAVE): the iteration's sequence is the tree moves (the path) then
 * the playout's moves (mcts.c's trace hook).  At the node of step k, whose role is r,
 * every edge whose move was played first -- among the moves from index k on -- by r
 * gets alg_b += 1, alg_a += reward of r.
 *
 * Selection: value_j = n_j/(n_j+W_j) r_j + W_j/(n_j+W_j) r_j^RAVE (eq. 8), with
 * Fuego's unnormalised weight W_j = m_j / (1/w_init + m_j/w_final) of the AMAF count
 * m_j, plus c * sqrt(ln N / n_j) when c > 0 and n_j > 0 (Fuego and the paper use
 * c = 0, footnote 8).  An edge with n_j = W_j = 0 has the value `fpu`.
 *
 * AUCT with RAVE (miai_auct_rave_policy; accelerated-uct.txt section 5.4): the same
 * policy with only r_j of eq. 8 replaced by the accelerated winning ratio r^A_j of
 * Accelerated UCT (eq. 6 and 7 with the virtual child, accel.h), params[6] = lambda
 * in (0, 1].  alg_a/alg_b keep the AMAF statistics, so the accelerated total G and
 * the velocity of edge i live beside the edges in acc[i] (grown in on_expand,
 * moved in on_reroot when the search keeps a subgraph).  With lambda = 1, G is the
 * plain total and the policy is RAVE bit for bit.  If memory for acc cannot be had
 * it goes on as plain RAVE (r_j the plain mean).  Games: one role, or two whose
 * rewards sum to 1 (as every policy of algos.h).
 *
 * Parameters: params[0] = w_init > 0 (0.9), params[1] = w_final > 0 (20000),
 * params[2] = prior visits >= 0 (0: no priors), params[3] = 1 for game knowledge in
 * the prior (the game's prior_values hook, game.h, a virtual win rate per move; else
 * its prior_kinds hook -- Go has both: good moves start at a virtual win rate of 1,
 * bad ones at 0, the rest at 0.5, or with the learned model the rate of
 * go_prior_values; a game without either gets the even prior), 0 for the even prior
 * 0.5 only; params[4] = fpu >= 0;
 * params[5] = 1 to count, per root edge, who owns each point at the end of the
 * playouts through it (the game's owner_points / owner_add hooks; init refuses a
 * game without them -- Go has them), the territory statistics of Huang et al.'s
 * territorial pruning (eq. 16); the counts restart when the root changes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "accel.h"
#include "mcts.h"
#include "search_rave_api.h"
#include "ucb.h"

typedef struct {
    double w_init, w_final, prior_n, fpu;
    bool knowledge;
    uint32_t n_roles;
    miai_move *seq;     /* the last iteration's sequence: tree moves, playout moves */
    uint32_t *who_seq;  /* ... and the role of each */
    uint32_t seq_len, seq_cap, tree_len;
    double rewards[MIAI_MAX_ROLES];
    uint32_t *stamp;    /* per move: == gen when played at an index >= k ... */
    uint8_t *who;       /* ... first by this role */
    uint32_t gen;
    miai_move *pmoves;  /* scratch for priors */
    int8_t *kinds;
    float *values;      /* the prior_values hook's answers */
    /* Territory counts per root edge (params[5]): visits, and per point black/white
     * owner counts in rows of n_points; for the root with keys terr_key/terr_key2. */
    bool territory;
    uint32_t n_points, terr_edges;
    uint32_t *terr_visits, *terr_black, *terr_white;
    uint64_t terr_key, terr_key2;
    /* AUCT with RAVE: acc[i] of edge i (acc_cap entries), the decay; acc == NULL for
     * plain RAVE or when memory ran out (then r_j is the plain mean). */
    miai_accel *acc;
    uint32_t acc_cap;
    miai_decay *decay;
} rave_data;

extern const miai_policy_ops miai_rave_policy;
extern const miai_policy_ops miai_auct_rave_policy;

static bool rave_ops(const miai_search *s) {
    return s->policy.ops == &miai_rave_policy || s->policy.ops == &miai_auct_rave_policy;
}

static void rave_destroy(miai_policy *p) {
    rave_data *a = p->data;
    if (!a) return;
    free(a->seq);
    free(a->who_seq);
    free(a->stamp);
    free(a->who);
    free(a->pmoves);
    free(a->kinds);
    free(a->values);
    free(a->terr_visits);
    free(a->terr_black);
    free(a->terr_white);
    free(a->acc);
    free(a->decay);
    free(a);
    p->data = NULL;
}

static int rave_init(miai_policy *p, miai_search *s) {
    const miai_game_facts *f = &s->game->facts;
    const double *pr = p->cfg.params;
    if (f->simultaneous || f->n_roles < 1 || f->n_roles > 2) return MIAI_EINVAL;
    bool accel = p->ops == &miai_auct_rave_policy;
    double lam = pr[MIAI_P_AUCT_RAVE_LAMBDA];
    if (accel && !(lam > 0.0 && lam <= 1.0)) return MIAI_EINVAL;
    if (!(pr[0] > 0) || !(pr[1] > 0) || !(pr[2] >= 0) || !(pr[4] >= 0)) return MIAI_EINVAL;
    if (pr[3] != 0 && pr[3] != 1) return MIAI_EINVAL;
    if (pr[5] != 0 && pr[5] != 1) return MIAI_EINVAL;
    const miai_game_ops *ops = s->game->ops;
    uint32_t n_points = 0;
    if (pr[5] == 1) {
        if (!ops->owner_points || !ops->owner_add) return MIAI_EINVAL;
        n_points = ops->owner_points(s->game);
        if (n_points == 0) return MIAI_EINVAL;
    }
    rave_data *a = calloc(1, sizeof *a);
    if (!a) return MIAI_ENOMEM;
    p->data = a;
    a->w_init = pr[0];
    a->w_final = pr[1];
    a->prior_n = pr[2];
    a->knowledge = pr[3] != 0;
    a->fpu = pr[4];
    a->n_roles = f->n_roles;
    uint32_t trace_cap = f->max_plies + 1;
    a->seq_cap = (f->max_plies + 2) * f->n_roles + trace_cap;
    uint32_t nm = f->num_moves ? f->num_moves : 1, nl = f->max_legal ? f->max_legal : 1;
    a->seq = malloc(sizeof *a->seq * a->seq_cap);
    a->who_seq = malloc(sizeof *a->who_seq * a->seq_cap);
    a->stamp = calloc(nm, sizeof *a->stamp);
    a->who = calloc(nm, sizeof *a->who);
    a->pmoves = malloc(sizeof *a->pmoves * nl);
    a->kinds = malloc(sizeof *a->kinds * nl);
    a->values = malloc(sizeof *a->values * nl);
    if (pr[5] == 1) {
        a->territory = true;
        a->n_points = n_points;
        a->terr_edges = nl;
        a->terr_visits = calloc(nl, sizeof *a->terr_visits);
        a->terr_black = calloc((size_t)nl * a->n_points, sizeof *a->terr_black);
        a->terr_white = calloc((size_t)nl * a->n_points, sizeof *a->terr_white);
        if (!a->terr_visits || !a->terr_black || !a->terr_white) {
            rave_destroy(p);
            return MIAI_ENOMEM;
        }
    }
    if (accel) {
        a->decay = malloc(sizeof *a->decay);
        if (!a->decay) {
            rave_destroy(p);
            return MIAI_ENOMEM;
        }
        miai_decay_init(a->decay, lam);
        a->acc_cap = 1024;
        a->acc = calloc(a->acc_cap, sizeof *a->acc);
    }
    if (!a->seq || !a->who_seq || !a->stamp || !a->who || !a->pmoves || !a->kinds || !a->values ||
        (accel && !a->acc)) {
        rave_destroy(p);
        return MIAI_ENOMEM;
    }
    /* The playout trace lands in the tail of seq: the tree part is written in front
     * of it at backup. */
    s->trace = a->seq + (a->seq_cap - trace_cap);
    s->trace_cap = trace_cap;
    return MIAI_OK;
}

/* Room in acc for every edge of the dag (amortised doubling; on_expand is the only
 * caller, so select and backup never allocate), the new node's entries zeroed.
 * Without memory the accelerated statistics are dropped (plain RAVE from then on). */
static void accel_on_expand(rave_data *a, const miai_dag *d, uint32_t first, uint32_t n) {
    if (!a->acc) return;
    if (d->n_edges > a->acc_cap) {
        uint64_t cap = a->acc_cap;
        while (cap < d->n_edges) cap *= 2;
        if (cap > UINT32_MAX) cap = UINT32_MAX;
        miai_accel *grown = realloc(a->acc, (size_t)cap * sizeof *grown);
        if (!grown) {
            free(a->acc);
            a->acc = NULL;
            return;
        }
        a->acc = grown;
        a->acc_cap = (uint32_t)cap;
    }
    memset(a->acc + first, 0, (size_t)n * sizeof *a->acc);
}

typedef struct {
    uint32_t old_first, first, n;
} edge_block;

static int by_old_first(const void *x, const void *y) {
    uint32_t a = ((const edge_block *)x)->old_first, b = ((const edge_block *)y)->old_first;
    return (a > b) - (a < b);
}

/* After the dag's compaction (node->mark = the old first edge, policy.h): move every
 * kept block of acc to its new place.  Blocks keep their order and only move down,
 * so moving them in old order is safe in place. */
static void rave_on_reroot(miai_policy *p, miai_search *s) {
    rave_data *a = p->data;
    if (!a->acc) return;
    const miai_dag *d = &s->dag;
    edge_block *blocks = malloc(((size_t)d->n_nodes + 1) * sizeof *blocks);
    uint32_t nb = 0;
    bool ok = blocks != NULL;
    for (uint32_t i = 0; ok && i < d->n_nodes; i++) {
        const miai_node *x = &d->nodes[i];
        if (x->first_edge == MIAI_NIL || x->n_edges == 0) continue;
        ok = x->mark <= a->acc_cap && x->n_edges <= a->acc_cap - x->mark;
        blocks[nb++] = (edge_block){.old_first = x->mark, .first = x->first_edge,
                                    .n = x->n_edges};
    }
    if (ok) {
        qsort(blocks, nb, sizeof *blocks, by_old_first);
        for (uint32_t b = 0; b < nb; b++)
            if (blocks[b].first != blocks[b].old_first)
                memmove(a->acc + blocks[b].first, a->acc + blocks[b].old_first,
                        (size_t)blocks[b].n * sizeof *a->acc);
    } else { /* no scratch memory (or a mark out of range): drop the statistics */
        free(a->acc);
        a->acc = NULL;
    }
    free(blocks);
}

static void rave_on_expand(miai_policy *p, miai_search *s, uint32_t node) {
    rave_data *a = p->data;
    miai_dag *d = &s->dag;
    const miai_node *x = &d->nodes[node];
    uint32_t first = x->first_edge, n = x->n_edges;
    accel_on_expand(a, d, first, n);
    if (a->prior_n <= 0) return;
    bool valued = false, known = false;
    if (a->knowledge && n) {
        for (uint32_t i = 0; i < n; i++) a->pmoves[i] = d->edges[first + i].move;
        const miai_game *g = s->game;
        valued = g->ops->prior_values &&
                 g->ops->prior_values(g, s->work, a->pmoves, n, a->values) == MIAI_OK;
        known = !valued && g->ops->prior_kinds &&
                g->ops->prior_kinds(g, s->work, a->pmoves, n, a->kinds) == MIAI_OK;
    }
    for (uint32_t i = 0; i < n; i++) {
        double q = valued ? a->values[i] : known ? 0.5 + 0.5 * a->kinds[i] : 0.5;
        miai_edge *e = &d->edges[first + i];
        e->alg_b = (float)a->prior_n;
        e->alg_a = a->prior_n * q;
    }
}

/* Eq. 8 with Fuego's weight W = m / (1/w_init + m/w_final); `total` = n r, the plain
 * payoff total (RAVE) or the accelerated one (AUCT with RAVE: only r is replaced). */
static inline double rave_value(const rave_data *a, const miai_edge *e, double total) {
    double n = e->n, m = e->alg_b;
    double w = m > 0 ? m / (1.0 / a->w_init + m / a->w_final) : 0.0;
    if (n + w <= 0) return a->fpu;
    double rave_mean = m > 0 ? e->alg_a / m : 0.0;
    return (total + w * rave_mean) / (n + w); /* n r + W r^RAVE over n + W */
}

static uint32_t rave_select(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                            uint32_t count, uint32_t role) {
    (void)node;
    (void)role;
    const rave_data *a = p->data;
    const miai_edge *edges = s->dag.edges;
    const miai_accel *acc = a->acc;
    uint64_t parent = 0;
    bool skip_pruned = false;
    for (uint32_t i = first; i < first + count; i++) {
        parent += edges[i].n;
        if (!(edges[i].flags & MIAI_EDGE_PRUNED)) skip_pruned = true;
    }
    double log_parent = miai_ucb_log(parent), c = p->cfg.c;
    miai_argmax best;
    miai_argmax_init(&best, first);
    for (uint32_t i = first; i < first + count; i++) {
        if (skip_pruned && (edges[i].flags & MIAI_EDGE_PRUNED)) continue;
        double v = rave_value(a, &edges[i], acc ? acc[i].g : edges[i].sum);
        /* eq. 1's exploration term, in the paper's order (ucb.h) */
        if (c > 0 && edges[i].n) v += miai_ucb_bonus(c, log_parent, edges[i].n);
        miai_argmax_offer(&best, &s->rng, i, v);
    }
    return best.chosen;
}

static inline void rave_mark(rave_data *a, uint32_t j) {
    a->stamp[a->seq[j]] = a->gen;
    a->who[a->seq[j]] = (uint8_t)a->who_seq[j];
}

/* The final position of the playout (s->work) counted for the root edge taken. */
static void rave_count_territory(rave_data *a, miai_search *s, const miai_path *path) {
    const miai_dag *d = &s->dag;
    const miai_node *root = &d->nodes[d->root];
    if (root->key != a->terr_key || root->key2 != a->terr_key2) { /* a new root */
        memset(a->terr_visits, 0, sizeof *a->terr_visits * a->terr_edges);
        memset(a->terr_black, 0, sizeof *a->terr_black * a->terr_edges * a->n_points);
        memset(a->terr_white, 0, sizeof *a->terr_white * a->terr_edges * a->n_points);
        a->terr_key = root->key;
        a->terr_key2 = root->key2;
    }
    if (path->len == 0 || path->steps[0].node != d->root) return;
    uint32_t k = path->steps[0].edge - root->first_edge;
    if (k >= a->terr_edges) return;
    size_t row = (size_t)k * a->n_points;
    const miai_game *g = s->game;
    if (g->ops->owner_add(g, s->work, a->terr_black + row, a->terr_white + row,
                          a->n_points) == MIAI_OK)
        a->terr_visits[k]++;
}

static void rave_backup(miai_policy *p, miai_search *s, const miai_path *path,
                        const double *rewards) {
    rave_data *a = p->data;
    miai_dag *d = &s->dag;
    miai_backup_descent(s, path, rewards);
    if (a->territory) rave_count_territory(a, s, path);
    /* The sequence: tree moves, then the playout's (already in seq's tail). */
    uint32_t L = path->len, T = s->trace_role >= 0 ? s->trace_len : 0;
    uint32_t tail = a->seq_cap - s->trace_cap;
    if (T) memmove(a->seq + L, a->seq + tail, sizeof *a->seq * T);
    for (uint32_t i = 0; i < L; i++) {
        a->seq[i] = d->edges[path->steps[i].edge].move;
        a->who_seq[i] = path->steps[i].role;
    }
    for (uint32_t j = 0; j < T; j++)
        a->who_seq[L + j] = ((uint32_t)s->trace_role + j) % a->n_roles;
    a->tree_len = L;
    a->seq_len = L + T;
    for (uint32_t r = 0; r < a->n_roles; r++) a->rewards[r] = rewards[r];
    if (++a->gen == 0) { /* the stamps wrapped: start afresh */
        memset(a->stamp, 0, sizeof *a->stamp * (s->game->facts.num_moves ? s->game->facts.num_moves : 1));
        a->gen = 1;
    }
    for (uint32_t j = a->seq_len; j-- > L;) rave_mark(a, j);
    for (uint32_t k = L; k-- > 0;) {
        rave_mark(a, k);
        const miai_step *st = &path->steps[k];
        const miai_node *x = &d->nodes[st->node];
        double r = rewards[st->role];
        for (uint32_t i = x->first_edge; i < x->first_edge + x->n_edges; i++) {
            miai_edge *e = &d->edges[i];
            if (a->stamp[e->move] == a->gen && a->who[e->move] == st->role) {
                e->alg_a += r;
                e->alg_b += 1.0f;
            }
        }
    }
    if (a->acc) miai_accel_path(a->decay, d, a->acc, path, rewards);
}

int miai_rave_last_sequence(const miai_search *s, miai_move *moves, uint32_t *roles,
                            uint32_t cap, uint32_t *len, uint32_t *tree_len,
                            double *rewards, uint32_t cap_rewards) {
    if (!s || !moves || !roles || !len || !tree_len || !rewards) return MIAI_EINVAL;
    if (!rave_ops(s) || !s->policy.data) return MIAI_EINVAL;
    const rave_data *a = s->policy.data;
    if (cap < a->seq_len || cap_rewards < a->n_roles) return MIAI_EINVAL;
    memcpy(moves, a->seq, sizeof *moves * a->seq_len);
    memcpy(roles, a->who_seq, sizeof *roles * a->seq_len);
    *len = a->seq_len;
    *tree_len = a->tree_len;
    for (uint32_t r = 0; r < a->n_roles; r++) rewards[r] = a->rewards[r];
    return MIAI_OK;
}

int miai_rave_root_territory(const miai_search *s, uint32_t *visits, uint32_t *black,
                             uint32_t *white, uint32_t cap_edges, uint32_t n_points,
                             uint32_t *n_edges) {
    if (!s || !visits || !black || !white || !n_edges) return MIAI_EINVAL;
    if (!rave_ops(s) || !s->policy.data) return MIAI_EINVAL;
    const rave_data *a = s->policy.data;
    if (!a->territory) return MIAI_ESTATE;
    const miai_node *root = &s->dag.nodes[s->dag.root];
    uint32_t n = root->n_edges;
    if (n_points != a->n_points || cap_edges < n || n > a->terr_edges) return MIAI_EINVAL;
    bool current = root->key == a->terr_key && root->key2 == a->terr_key2;
    for (uint32_t k = 0; k < n; k++) {
        size_t row = (size_t)k * n_points;
        visits[k] = current ? a->terr_visits[k] : 0;
        for (uint32_t q = 0; q < n_points; q++) {
            black[row + q] = current ? a->terr_black[row + q] : 0;
            white[row + q] = current ? a->terr_white[row + q] : 0;
        }
    }
    *n_edges = n;
    return MIAI_OK;
}

/* Threads: a virtual loss is n += amount on the path's edges (mcts.c), which lowers
 * eq. 8's value n r / (n + W) part; the AMAF statistics are left alone. */
static void rave_virtual_loss(miai_policy *p, miai_search *s, const miai_path *path,
                              uint32_t amount, bool add) {
    (void)p;
    (void)s;
    (void)path;
    (void)amount;
    (void)add;
}

const miai_policy_ops miai_rave_policy = {
    .name = "rave",
    .init = rave_init,
    .destroy = rave_destroy,
    .select = rave_select,
    .on_expand = rave_on_expand,
    .backup = rave_backup,
    .virtual_loss = rave_virtual_loss,
};

int miai_auct_rave_edges(const miai_search *s, uint32_t node, double *total, double *velocity,
                         uint32_t cap, uint32_t *n) {
    if (!s || !total || !velocity || !n) return MIAI_EINVAL;
    if (s->policy.ops != &miai_auct_rave_policy || !s->policy.data) return MIAI_EINVAL;
    if (node >= s->dag.n_nodes) return MIAI_EINVAL;
    const rave_data *a = s->policy.data;
    if (!a->acc) return MIAI_ESTATE;
    const miai_node *x = &s->dag.nodes[node];
    *n = x->n_edges;
    if (cap < x->n_edges) return MIAI_EINVAL;
    for (uint32_t k = 0; k < x->n_edges; k++) {
        total[k] = a->acc[x->first_edge + k].g;
        velocity[k] = a->acc[x->first_edge + k].v;
    }
    return MIAI_OK;
}

const miai_policy_ops miai_auct_rave_policy = {
    .name = "auct_rave",
    .init = rave_init,
    .destroy = rave_destroy,
    .select = rave_select,
    .on_expand = rave_on_expand,
    .on_reroot = rave_on_reroot,
    .backup = rave_backup,
};
