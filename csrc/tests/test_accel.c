/* test_accel.c -- Accelerated UCT's virtual child (accelerated-uct.txt, Figure 2) with
 * the C policies themselves: the figure's graph is built with the dag functions and
 * every playout is backed up by the policy's own backup (auct.c, and rave.c's AUCT
 * with RAVE, whose statistics live beside the edges), then the paper's numbers are
 * checked.
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
    if (s->policy.cfg.algorithm == MIAI_ALG_AUCT) {
        *v_a = e->alg_b;
        *v_d = first_a == MIAI_NIL ? 0.0 : s->dag.edges[first_a].alg_b;
        *v_e = first_a == MIAI_NIL ? 0.0 : s->dag.edges[first_a + 1].alg_b;
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

int main(void) {
    const ctest_case cases[] = {
        {"figure2_auct_lambda_one", test_figure2_auct_lambda_one},
        {"figure2_auct_lambda_half", test_figure2_auct_lambda_half},
        {"figure2_auct_rave", test_figure2_auct_rave},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
