/* test_paper_figures.c -- the papers' worked examples with the C policies themselves.
 *
 * Accelerated UCT's virtual child (accelerated-uct.txt, Figure 2): the figure's graph
 * is built with the dag functions and every playout is backed up by the policy's own
 * backup (auct.c, and rave.c's AUCT with RAVE, whose statistics live beside the
 * edges), then the paper's numbers are checked.
 *
 * Figure 2: three playouts end at leaf a below the root r (2 wins: r->a has ratio
 * 2/3); a is expanded into d and e; one playout at d (a win), one at e (a loss).
 * Plain UCT's ratio of r->a is 3/5; Accelerated UCT's eq. (7) over a's moves alone
 * would lose the 2/3, so a virtual child a' carries it (ratio 2/3, velocity
 * n' lambda^t, only decaying): with lambda = 1 r^A = (3 * 2/3 + 1 + 0) / 5 = 3/5, the
 * same as UCT; with lambda = 1/2 (velocities d: 1/2, e: 1, a': 3/4)
 * r^A = (3/4 * 2/3 + 1/2) / (9/4) = 4/9.
 *
 * Tic-tac-toe stands in for the figure's game: r is the empty board, a is move 0,
 * d and e are a's first two moves; rewards are role 0's (r's mover), so the test also
 * goes through the role change at a.
 *
 * UCD's Figure 3 (ucd.txt, section 3.1): statistics on edges.  A node x reached by
 * two edges (a transposition: LeftRight's L,R and R,L) got 4 payoffs with mean 0.75
 * through one and 2 with mean 0.5 through the other; the node's data, 6 payoffs with
 * mean 0.67 = (4 * 0.75 + 2 * 0.5) / 6, is the aggregate of its in-edges.  Built
 * with the dag functions in DAG mode (the table finds x again), backed up by the UCD
 * policy's incremental backup; its depth-1 terms above a and b read the same data.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../search/algos.h"
#include "../search/mcts.h"
#include "../search/search_rave_api.h"
#include "../search/variants_api.h"
#include "ctest.h"

typedef struct {
    miai_game *game;
    miai_search *s;
    uint32_t root, a, ea;      /* nodes r, a and the edge r->a */
    uint8_t *state_a;
} figure;

static int near(double x, double y) { return fabs(x - y) < 1e-12; }

static int figure_start(figure *f, uint32_t algorithm, double lambda) {
    memset(f, 0, sizeof *f);
    if (miai_game_create("tictactoe", NULL, 0, &f->game) != MIAI_OK) return 0;
    size_t size = f->game->facts.state_size;
    uint8_t *root = malloc(size);
    f->state_a = malloc(size);
    if (!root || !f->state_a) {
        free(root);
        return 0;
    }
    miai_state_init(f->game, root);
    miai_search_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.algorithm = algorithm;
    cfg.mode = MIAI_MODE_TREE;
    cfg.max_nodes = 64;
    cfg.c = 1.0;
    if (algorithm == MIAI_ALG_AUCT) {
        cfg.params[MIAI_P_LAMBDA] = lambda;
    } else { /* RAVE's w_init, w_final; no prior */
        cfg.params[0] = 0.9;
        cfg.params[1] = 20000.0;
        cfg.params[MIAI_P_AUCT_RAVE_LAMBDA] = lambda;
    }
    int ok = miai_search_create(f->game, root, &cfg, &f->s) == MIAI_OK;
    if (ok) {
        miai_dag *d = &f->s->dag;
        f->root = d->root;
        f->ea = d->nodes[f->root].first_edge;
        memcpy(f->state_a, root, size);
        miai_state_play(f->game, f->state_a, d->edges[f->ea].move);
        f->a = miai_dag_new_node(d, f->state_a);
        ok = f->a != MIAI_NIL;
        if (ok) d->edges[f->ea].child = f->a;
    }
    free(root);
    return ok;
}

static void figure_free(figure *f) {
    miai_search_free(f->s);
    miai_game_free(f->game);
    free(f->state_a);
}

/* One playout backed up by the policy: the descent r -> a (-> a's edge `below`, whose
 * destination is created as the new leaf), role 0's reward `win`. */
static void playout(figure *f, uint32_t below, double win) {
    miai_search *s = f->s;
    miai_dag *d = &s->dag;
    miai_step steps[2];
    miai_path path = {.steps = steps, .cap = 2};
    steps[0] = (miai_step){.node = f->root, .edge = f->ea, .role = 0};
    path.len = 1;
    path.leaf = f->a;
    if (below != MIAI_NIL) {
        uint8_t *st = malloc(f->game->facts.state_size);
        CHECK(st != NULL);
        if (!st) return;
        memcpy(st, f->state_a, f->game->facts.state_size);
        miai_state_play(f->game, st, d->edges[below].move);
        uint32_t leaf = miai_dag_new_node(d, st);
        free(st);
        CHECK(leaf != MIAI_NIL);
        d->edges[below].child = leaf;
        steps[1] = (miai_step){.node = f->a, .edge = below, .role = 1};
        path.len = 2;
        path.leaf = leaf;
    }
    path.last_level = path.len - 1;
    double rewards[2] = {win, 1.0 - win};
    s->policy.ops->backup(&s->policy, s, &path, rewards);
}

/* r^A of r->a and the velocities of r->a, a->d, a->e, from the policy's storage. */
static double ratio_of_a(figure *f, double *v_a, double *v_d, double *v_e) {
    miai_search *s = f->s;
    const miai_edge *e = &s->dag.edges[f->ea];
    uint32_t first_a = s->dag.nodes[f->a].first_edge, n;
    double g[9], v[9];
    if (s->policy.cfg.algorithm == MIAI_ALG_AUCT) { /* velocities through the inspection
                                                        API: auct.c stores them scaled */
        miai_edge_stats st[9];
        CHECK(miai_search_node_edges(s, f->root, st, 9, &n) == MIAI_OK);
        *v_a = st[f->ea - s->dag.nodes[f->root].first_edge].alg_b;
        *v_d = *v_e = 0.0;
        if (first_a != MIAI_NIL && miai_search_node_edges(s, f->a, st, 9, &n) == MIAI_OK) {
            *v_d = st[0].alg_b;
            *v_e = st[1].alg_b;
        }
        return e->alg_a / e->n;
    }
    CHECK(miai_auct_rave_edges(s, f->root, g, v, 9, &n) == MIAI_OK);
    *v_a = v[0];
    double r = g[0] / e->n;
    *v_d = *v_e = 0.0;
    if (first_a != MIAI_NIL && miai_auct_rave_edges(s, f->a, g, v, 9, &n) == MIAI_OK) {
        *v_d = v[0];
        *v_e = v[1];
    }
    return r;
}

static void check_figure2(uint32_t algorithm, double lambda, double after_d,
                          double after_e) {
    figure f;
    CHECK(figure_start(&f, algorithm, lambda));
    if (!f.s) {
        figure_free(&f);
        return;
    }
    double va, vd, ve;
    /* Left of the figure: a is a leaf, three playouts end there, 2 of them wins. */
    playout(&f, MIAI_NIL, 1.0);
    playout(&f, MIAI_NIL, 0.0);
    playout(&f, MIAI_NIL, 1.0);
    const miai_edge *ea = &f.s->dag.edges[f.ea];
    CHECK_EQ_U64(ea->n, 3);
    CHECK_EQ_U64(ea->n_prime, 3);
    CHECK(near(ea->sum_prime / ea->n_prime, 2.0 / 3.0));
    CHECK(near(ratio_of_a(&f, &va, &vd, &ve), 2.0 / 3.0));
    CHECK(!(ea->flags & MIAI_EDGE_ACC)); /* no eq. 7 yet: a made no choice */
    /* Right of the figure: a gets its real children d, e (and the virtual a'). */
    miai_dag *d = &f.s->dag;
    miai_move moves[9];
    CHECK(miai_dag_expand(d, f.game, f.state_a, f.a, moves) == MIAI_OK);
    f.s->path.len = 0;
    if (f.s->policy.ops->on_expand) f.s->policy.ops->on_expand(&f.s->policy, f.s, f.a);
    uint32_t first = d->nodes[f.a].first_edge;
    playout(&f, first, 1.0);     /* a win at d */
    CHECK(near(ratio_of_a(&f, &va, &vd, &ve), after_d));
    playout(&f, first + 1, 0.0); /* a loss at e */
    ea = &f.s->dag.edges[f.ea];
    CHECK_EQ_U64(ea->n, 5);
    CHECK(near(ea->sum / ea->n, 3.0 / 5.0)); /* plain UCT's ratio */
    CHECK(ea->flags & MIAI_EDGE_ACC);
    CHECK(near(ratio_of_a(&f, &va, &vd, &ve), after_e));
    /* eq. (6): five choices of a at r; d chosen once before e */
    double l = lambda;
    CHECK(near(va, 1.0 + l + l * l + l * l * l + l * l * l * l));
    CHECK(near(vd, l));
    CHECK(near(ve, 1.0));
    figure_free(&f);
}

static void test_figure2_auct_lambda_one(void) {
    check_figure2(MIAI_ALG_AUCT, 1.0, 3.0 / 4.0, 3.0 / 5.0);
}

static void test_figure2_auct_lambda_half(void) {
    /* after d: v_d = 1, a' = 3 * 1/2: (3/2 * 2/3 + 1) / (5/2) = 4/5 */
    check_figure2(MIAI_ALG_AUCT, 0.5, 4.0 / 5.0, 4.0 / 9.0);
}

static void test_figure2_auct_rave(void) {
    check_figure2(MIAI_ALG_AUCT_RAVE, 1.0, 3.0 / 4.0, 3.0 / 5.0);
    check_figure2(MIAI_ALG_AUCT_RAVE, 0.5, 4.0 / 5.0, 4.0 / 9.0);
}

/* One UCD playout r -> (a or b) -> x as mcts.c does it: visits counted on the nodes
 * of the path, then the policy's backup. */
static void ucd_playout(miai_search *s, uint32_t r, uint32_t e1, uint32_t mid, uint32_t e2,
                        uint32_t x, double payoff) {
    miai_step steps[2] = {{.node = r, .edge = e1, .role = 0}, {.node = mid, .edge = e2, .role = 0}};
    miai_path path = {.steps = steps, .len = 2, .cap = 2, .last_level = 1, .leaf = x};
    s->dag.nodes[r].n++;
    s->dag.nodes[mid].n++;
    s->dag.nodes[x].n++;
    double rewards[1] = {payoff};
    s->policy.ops->backup(&s->policy, s, &path, rewards);
}

/* The child of node `from` by `move` (state `st` is from's position, advanced in
 * place): found in the table or created, and linked with its in-edge. */
static uint32_t link_child(miai_search *s, const miai_game *g, uint8_t *st, uint32_t from,
                           uint32_t edge) {
    miai_dag *d = &s->dag;
    miai_state_play(g, st, d->edges[edge].move);
    const miai_head *h = miai_chead_of(st);
    uint32_t child = miai_dag_lookup(d, h->key, h->key2);
    if (child == MIAI_NIL) child = miai_dag_new_node(d, st);
    if (child == MIAI_NIL || miai_dag_reserve_parent(d) != MIAI_OK) return MIAI_NIL;
    d->edges[edge].child = child;
    miai_dag_add_parent(d, child, from, edge);
    return child;
}

static void test_figure3_ucd_aggregation(void) {
    miai_game *g = NULL;
    double steps = 4.0;
    CHECK(miai_game_create("leftright", &steps, 1, &g) == MIAI_OK);
    if (!g) return;
    size_t size = g->facts.state_size;
    uint8_t *root = malloc(size), *sa = malloc(size), *sb = malloc(size);
    miai_search *s = NULL;
    miai_search_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.algorithm = MIAI_ALG_UCD;
    cfg.mode = MIAI_MODE_DAG;
    cfg.max_nodes = 64;
    cfg.flags = MIAI_SEARCH_TRACK_PARENTS;
    cfg.c = 1.0;
    cfg.params[MIAI_P_UCD_D1] = cfg.params[MIAI_P_UCD_D2] = cfg.params[MIAI_P_UCD_D3] = 1.0;
    cfg.params[MIAI_P_UCD_BACKUP] = MIAI_UCD_INCREMENTAL;
    CHECK(root && sa && sb);
    if (root && sa && sb) {
        miai_state_init(g, root);
        CHECK(miai_search_create(g, root, &cfg, &s) == MIAI_OK);
    }
    if (s) {
        miai_dag *d = &s->dag;
        miai_move moves[2];
        uint32_t r = d->root, left = d->nodes[r].first_edge, right = left + 1;
        CHECK(d->edges[left].move == 0 && d->edges[right].move == 1); /* L, R */
        memcpy(sa, root, size);
        memcpy(sb, root, size);
        uint32_t a = link_child(s, g, sa, r, left), b = link_child(s, g, sb, r, right);
        CHECK(a != MIAI_NIL && b != MIAI_NIL && a != b);
        CHECK(miai_dag_expand(d, g, sa, a, moves) == MIAI_OK);
        s->policy.ops->on_expand(&s->policy, s, a);
        CHECK(miai_dag_expand(d, g, sb, b, moves) == MIAI_OK);
        s->policy.ops->on_expand(&s->policy, s, b);
        uint32_t ax = d->nodes[a].first_edge + 1, bx = d->nodes[b].first_edge; /* R, L */
        uint32_t x = link_child(s, g, sa, a, ax);
        CHECK(x != MIAI_NIL && link_child(s, g, sb, b, bx) == x); /* the transposition */
        const double via_a[4] = {1.0, 1.0, 1.0, 0.0}, via_b[2] = {1.0, 0.0};
        for (int i = 0; i < 4; i++) ucd_playout(s, r, left, a, ax, x, via_a[i]);
        for (int i = 0; i < 2; i++) ucd_playout(s, r, right, b, bx, x, via_b[i]);
        CHECK_EQ_U64(d->edges[ax].n, 4);
        CHECK(near(d->edges[ax].sum / d->edges[ax].n, 0.75));
        CHECK_EQ_U64(d->edges[bx].n, 2);
        CHECK(near(d->edges[bx].sum / d->edges[bx].n, 0.5));
        /* x's data from its in-edges: 6 payoffs, mean 0.67 */
        uint32_t parents[4], pedges[4], np = 0;
        CHECK(miai_search_node_parents(s, x, parents, pedges, 4, &np) == MIAI_OK);
        CHECK_EQ_U64(np, 2);
        uint64_t n = 0;
        double total = 0.0;
        for (uint32_t k = 0; k < np && k < 4; k++) {
            const miai_edge *e = &d->edges[d->nodes[parents[k]].first_edge + pedges[k]];
            n += e->n;
            total += e->sum;
        }
        CHECK_EQ_U64(n, 6);
        CHECK_EQ_U64(d->nodes[x].n, 6);
        CHECK(near(total / (double)n, (4 * 0.75 + 2 * 0.5) / 6.0));
        CHECK(fabs(total / (double)n - 0.67) < 0.005);
        /* UCD (1, 1, 1) at r: mu_1 = 0.75 and 0.5, n_1 = 4 and 2, p_1 = 6 */
        double terms[8];
        uint32_t ne = 0;
        CHECK(miai_variant_edge_terms(s, r, 0, terms, 8, &ne) == MIAI_OK);
        CHECK_EQ_U64(ne, 2);
        CHECK(near(terms[0], 0.75) && near(terms[4], 0.5));
        CHECK(near(terms[2], 4.0) && near(terms[6], 2.0));
        CHECK(near(terms[1], 6.0) && near(terms[5], 6.0));
    }
    miai_search_free(s);
    miai_game_free(g);
    free(root);
    free(sa);
    free(sb);
}

int main(void) {
    const ctest_case cases[] = {
        {"figure3_ucd_aggregation", test_figure3_ucd_aggregation},
        {"figure2_auct_lambda_one", test_figure2_auct_lambda_one},
        {"figure2_auct_lambda_half", test_figure2_auct_lambda_half},
        {"figure2_auct_rave", test_figure2_auct_rave},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
