/* test_search.c -- the search core under the sanitizers: tree and DAG mode agree when
 * transpositions are impossible (tictactoe whose key folds in the move sequence),
 * decoupled simultaneous search (a small pennies game), three players, the node
 * budget, re-rooting, determinism across batch splits, two searches in two threads,
 * and every validation path of search_api.h fed bad input.  The test games below are
 * local to this program and not in the shipped registry. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../search/search_api.h"
#include "ctest.h"

#define NIL 0xFFFFFFFFu

static miai_search_config config(uint32_t mode, uint64_t seed, uint32_t max_nodes) {
    miai_search_config c;
    memset(&c, 0, sizeof c);
    c.algorithm = MIAI_ALG_UCT;
    c.mode = mode;
    c.final_choice = MIAI_FINAL_VISITS;
    c.max_nodes = max_nodes;
    c.seed = seed;
    c.c = 0.7;
    return c;
}

static uint64_t mix(uint64_t x) { return miai_splitmix64(&x); }

/* ---- tictactoe with the move history in its key: no transpositions at all ---- */

static const miai_game *hist_base(const miai_game *g) { return g->data; }
static void hist_init(const miai_game *g, void *s) { hist_base(g)->ops->init(hist_base(g), s); }
static uint32_t hist_legal(const miai_game *g, const void *s, uint32_t r, miai_move *out) {
    return hist_base(g)->ops->legal(hist_base(g), s, r, out);
}
static void hist_play(const miai_game *g, void *s, const miai_move *moves) {
    miai_head *h = miai_head_of(s);
    uint64_t k = h->key, k2 = h->key2;
    miai_move m = moves[h->to_move];
    hist_base(g)->ops->play(hist_base(g), s, moves);
    h->key = mix(k * 31 + m + 1);
    h->key2 = mix(k2 * 37 + m + 1000);
}
static void hist_rewards(const miai_game *g, const void *s, double *out) {
    hist_base(g)->ops->rewards(hist_base(g), s, out);
}
static void hist_key_full(const miai_game *g, const void *s, uint64_t *k, uint64_t *k2) {
    (void)g;
    *k = miai_chead_of(s)->key;
    *k2 = miai_chead_of(s)->key2;
}
static int hist_to_text(const miai_game *g, uint32_t r, miai_move m, char *b, size_t cap) {
    return hist_base(g)->ops->move_to_text(hist_base(g), r, m, b, cap);
}
static int hist_from_text(const miai_game *g, uint32_t r, const char *t, miai_move *out) {
    return hist_base(g)->ops->move_from_text(hist_base(g), r, t, out);
}
static void hist_render(const miai_game *g, const void *s, char *b, size_t cap) {
    hist_base(g)->ops->render(hist_base(g), s, b, cap);
}
static const miai_game_ops hist_ops = {
    .init = hist_init, .legal = hist_legal, .play = hist_play, .rewards = hist_rewards,
    .key_full = hist_key_full, .move_to_text = hist_to_text, .move_from_text = hist_from_text,
    .render = hist_render,
};

/* ---- pennies: 3 rounds, both roles pick 0..2 at once; role 0 scores on a match ---- */

typedef struct {
    miai_head head;
    uint32_t round, score;
} pennies_state;

static void pennies_keys(pennies_state *s) {
    s->head.key = mix(s->round * 16 + s->score);
    s->head.key2 = mix(0xABCDEFull + s->round * 16 + s->score);
}
static void pennies_init(const miai_game *g, void *state) {
    (void)g;
    pennies_state *s = state;
    s->head.to_move = MIAI_SIMULTANEOUS;
    pennies_keys(s);
}
static uint32_t pennies_legal(const miai_game *g, const void *state, uint32_t r,
                              miai_move *out) {
    (void)g;
    (void)r;
    if (miai_chead_of(state)->to_move == MIAI_NOBODY) return 0;
    for (uint32_t i = 0; i < 3; i++) out[i] = i;
    return 3;
}
static void pennies_play(const miai_game *g, void *state, const miai_move *m) {
    (void)g;
    pennies_state *s = state;
    s->score += m[0] == m[1];
    s->round++;
    s->head.ply++;
    if (s->round == 3) s->head.to_move = MIAI_NOBODY;
    pennies_keys(s);
}
static void pennies_rewards(const miai_game *g, const void *state, double *out) {
    (void)g;
    const pennies_state *s = state;
    out[0] = s->score / 3.0;
    out[1] = 1.0 - out[0];
}
static void pennies_key_full(const miai_game *g, const void *s, uint64_t *k, uint64_t *k2) {
    (void)g;
    *k = miai_chead_of(s)->key;
    *k2 = miai_chead_of(s)->key2;
}
static int digit_text(const miai_game *g, uint32_t r, miai_move m, char *b, size_t cap) {
    (void)g;
    (void)r;
    snprintf(b, cap, "%u", m);
    return MIAI_OK;
}
static int digit_from_text(const miai_game *g, uint32_t r, const char *t, miai_move *out) {
    (void)g;
    (void)r;
    if (t[0] < '0' || t[0] > '9' || t[1]) return MIAI_EINVAL;
    *out = (miai_move)(t[0] - '0');
    return MIAI_OK;
}
static void no_render(const miai_game *g, const void *s, char *b, size_t cap) {
    (void)g;
    (void)s;
    snprintf(b, cap, "-");
}
static const miai_game_ops pennies_ops = {
    .init = pennies_init, .legal = pennies_legal, .play = pennies_play,
    .rewards = pennies_rewards, .key_full = pennies_key_full, .move_to_text = digit_text,
    .move_from_text = digit_from_text, .render = no_render,
};

/* ---- race3: three players in turn add 1 or 2 (moves 0, 1); reaching 7 wins ---- */

typedef struct {
    miai_head head;
    uint32_t total, winner;
} race_state;

static void race_keys(race_state *s) {
    s->head.key = mix(s->total * 8 + (uint32_t)(s->head.to_move + 2));
    s->head.key2 = mix(0x5151ull + s->total * 8 + (uint32_t)(s->head.to_move + 2));
}
static void race_init(const miai_game *g, void *state) {
    (void)g;
    race_state *s = state;
    s->head.to_move = 0;
    race_keys(s);
}
static uint32_t race_legal(const miai_game *g, const void *state, uint32_t r, miai_move *out) {
    (void)g;
    if ((int32_t)r != miai_chead_of(state)->to_move) return 0;
    out[0] = 0;
    out[1] = 1;
    return 2;
}
static void race_play(const miai_game *g, void *state, const miai_move *m) {
    (void)g;
    race_state *s = state;
    int32_t r = s->head.to_move;
    s->total += m[r] + 1;
    s->head.ply++;
    if (s->total >= 7) {
        s->winner = (uint32_t)r;
        s->head.to_move = MIAI_NOBODY;
    } else {
        s->head.to_move = (r + 1) % 3;
    }
    race_keys(s);
}
static void race_rewards(const miai_game *g, const void *state, double *out) {
    (void)g;
    const race_state *s = state;
    for (uint32_t r = 0; r < 3; r++) out[r] = r == s->winner ? 1.0 : 0.0;
}
static const miai_game_ops race_ops = {
    .init = race_init, .legal = race_legal, .play = race_play, .rewards = race_rewards,
    .key_full = pennies_key_full, .move_to_text = digit_text,
    .move_from_text = digit_from_text, .render = no_render,
};

/* ---- detour: a state whose legal moves depend on history outside its key ----
 * Player 0 picks A (0) or B (1); both reach the same keyed position where player 1
 * moves, but the win move Y (1) is legal there only after B -- as Go's positional
 * superko makes the moves of one board depend on the boards before it.  X (0) loses
 * for player 1. */

typedef struct {
    miai_head head;
    uint32_t stage, via_b, winner;
} detour_state;

static void detour_keys(detour_state *s) {
    s->head.key = mix(0xde70ull + s->stage * 4 + (uint32_t)(s->head.to_move + 2));
    s->head.key2 = mix(0x7e0dull + s->stage * 4 + (uint32_t)(s->head.to_move + 2));
}
static void detour_init(const miai_game *g, void *state) {
    (void)g;
    detour_state *s = state;
    memset(s, 0, sizeof *s);
    detour_keys(s);
}
static uint32_t detour_legal(const miai_game *g, const void *state, uint32_t r,
                             miai_move *out) {
    (void)g;
    const detour_state *s = state;
    if ((int32_t)r != s->head.to_move) return 0;
    out[0] = 0;
    out[1] = 1;
    return s->stage == 0 || s->via_b ? 2 : 1;
}
static void detour_play(const miai_game *g, void *state, const miai_move *m) {
    (void)g;
    detour_state *s = state;
    miai_move move = m[s->head.to_move];
    s->head.ply++;
    if (s->stage == 0) {
        s->via_b = move == 1;
        s->stage = 1;
        s->head.to_move = 1;
    } else {
        s->stage = 2;
        s->winner = move == 1 ? 1 : 0;
        s->head.to_move = MIAI_NOBODY;
    }
    detour_keys(s);
}
static void detour_rewards(const miai_game *g, const void *state, double *out) {
    (void)g;
    const detour_state *s = state;
    out[0] = s->winner == 0 ? 1.0 : 0.0;
    out[1] = 1.0 - out[0];
}
static void detour_key_full(const miai_game *g, const void *s, uint64_t *k, uint64_t *k2) {
    (void)g;
    detour_state copy = *(const detour_state *)s;
    detour_keys(&copy);
    *k = copy.head.key;
    *k2 = copy.head.key2;
}
static const miai_game_ops detour_ops = {
    .init = detour_init, .legal = detour_legal, .play = detour_play,
    .rewards = detour_rewards, .key_full = detour_key_full, .move_to_text = digit_text,
    .move_from_text = digit_from_text, .render = no_render,
};

static miai_game make_game(const miai_game_ops *ops, miai_game_facts facts, void *data) {
    miai_game g;
    memset(&g, 0, sizeof g);
    g.ops = ops;
    g.facts = facts;
    g.data = data;
    return g;
}

static miai_game pennies_game(void) {
    return make_game(&pennies_ops,
                     (miai_game_facts){.n_roles = 2, .state_size = sizeof(pennies_state),
                                       .num_moves = 3, .max_legal = 3, .max_plies = 3,
                                       .simultaneous = 1},
                     NULL);
}

static miai_game race_game(void) {
    return make_game(&race_ops,
                     (miai_game_facts){.n_roles = 3, .state_size = sizeof(race_state),
                                       .num_moves = 2, .max_legal = 2, .max_plies = 7},
                     NULL);
}

static miai_game detour_game(void) {
    return make_game(&detour_ops,
                     (miai_game_facts){.n_roles = 2, .state_size = sizeof(detour_state),
                                       .num_moves = 2, .max_legal = 2, .max_plies = 2},
                     NULL);
}

static miai_search *new_search(const miai_game *g, const void *state, miai_search_config c) {
    miai_search *s = NULL;
    CHECK(miai_search_create(g, state, &c, &s) == MIAI_OK);
    return s;
}

static uint64_t run(miai_search *s, uint64_t n) {
    uint64_t done = 0;
    CHECK(miai_search_run(s, n, 0.0, &done) == MIAI_OK);
    CHECK_EQ_U64(done, n);
    return done;
}

static int same_edges(const miai_search *a, const miai_search *b, uint32_t node) {
    miai_edge_stats ea[16], eb[16];
    uint32_t na = 0, nb = 0;
    if (miai_search_node_edges(a, node, ea, 16, &na) != MIAI_OK) return 0;
    if (miai_search_node_edges(b, node, eb, 16, &nb) != MIAI_OK) return 0;
    if (na != nb) return 0;
    for (uint32_t i = 0; i < na; i++)
        if (ea[i].move != eb[i].move || ea[i].n != eb[i].n || ea[i].n_prime != eb[i].n_prime ||
            ea[i].sum != eb[i].sum || ea[i].child != eb[i].child)
            return 0;
    return 1;
}

static void tree_and_dag_agree_without_transpositions(void) {
    miai_game *ttt = NULL;
    CHECK(miai_game_create("tictactoe", NULL, 0, &ttt) == MIAI_OK);
    miai_game hist = make_game(&hist_ops, ttt->facts, ttt);
    uint8_t state[64];
    CHECK(hist.facts.state_size <= sizeof state);
    miai_state_init(&hist, state);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        miai_search *tree = new_search(&hist, state, config(MIAI_MODE_TREE, seed, 100000));
        miai_search *dag = new_search(&hist, state, config(MIAI_MODE_DAG, seed, 100000));
        run(tree, 4000);
        run(dag, 4000);
        miai_search_info it, id;
        miai_search_get_info(tree, &it);
        miai_search_get_info(dag, &id);
        CHECK_EQ_U64(it.nodes, id.nodes);
        uint32_t differ = 0;
        for (uint32_t n = 0; n < it.nodes; n++) differ += !same_edges(tree, dag, n);
        CHECK_EQ_U64(differ, 0);
        miai_search_free(tree);
        miai_search_free(dag);
    }
    miai_game_free(ttt);
}

static void simultaneous_search_is_decoupled(void) {
    miai_game g = pennies_game();
    pennies_state st;
    memset(&st, 0, sizeof st);
    miai_state_init(&g, &st);
    for (uint32_t mode = 0; mode < 2; mode++) {
        miai_search_config cfg = config(mode, 7, 100000);
        cfg.flags = MIAI_SEARCH_TRACK_PARENTS;
        miai_search *s = new_search(&g, &st, cfg);
        run(s, 3000);
        miai_edge_stats e[8];
        uint32_t n = 0;
        CHECK(miai_search_root_edges(s, e, 8, &n) == MIAI_OK);
        CHECK_EQ_U64(n, 6);
        uint64_t per_role[2] = {0, 0};
        for (uint32_t i = 0; i < n; i++) {
            CHECK_EQ_U64(e[i].role, i / 3);
            per_role[e[i].role] += e[i].n;
            CHECK(e[i].mean >= 0.0 && e[i].mean <= 1.0);
        }
        CHECK_EQ_U64(per_role[0], 3000);
        CHECK_EQ_U64(per_role[1], 3000);
        /* Children per joint move: each iteration went through exactly one. */
        miai_search_info info;
        miai_search_get_info(s, &info);
        uint32_t children[9], offsets[18], links = 0;
        CHECK(miai_search_node_links(s, info.root, children, offsets, 9, &links) == MIAI_OK);
        CHECK_EQ_U64(links, 9);
        uint64_t through = 0;
        for (uint32_t l = 0; l < links; l++) {
            miai_node_stats ns;
            CHECK(miai_search_node(s, children[l], &ns) == MIAI_OK);
            CHECK(offsets[2 * l] < 3 && offsets[2 * l + 1] >= 3);
            uint32_t par[16], pe[16], np = 0, from_root = 0;
            CHECK(miai_search_node_parents(s, children[l], par, pe, 16, &np) == MIAI_OK);
            for (uint32_t k = 0; k < np; k++)
                from_root += par[k] == info.root && pe[k] == NIL;
            CHECK(from_root >= 1);
            if (mode == MIAI_MODE_TREE) CHECK_EQ_U64(np, 1);
            if (mode == MIAI_MODE_TREE) through += ns.n;
        }
        if (mode == MIAI_MODE_TREE) CHECK_EQ_U64(through, 3000);
        /* DAG: positions are (round, score): 1 + 2 + 3 + 4 of them. */
        if (mode == MIAI_MODE_DAG) CHECK(info.nodes <= 10);
        uint32_t best = 0;
        CHECK(miai_search_best(s, 1, &best) == MIAI_OK);
        CHECK(best >= 3 && best < 6);
        miai_move pv[8];
        uint32_t roles[8], len = 0;
        int32_t tm[8];
        CHECK(miai_search_pv(s, pv, roles, tm, 8, &len) == MIAI_OK);
        CHECK(len >= 2 && len % 2 == 0 && tm[0] == MIAI_SIMULTANEOUS && roles[1] == 1);
        miai_move joint[2] = {1, 2};
        CHECK(miai_search_advance(s, joint, 2) == MIAI_OK);
        miai_search_get_info(s, &info);
        CHECK(info.nodes < (mode == MIAI_MODE_DAG ? 10u : 3000u));
        run(s, 500);
        miai_search_free(s);
    }
}

static void three_players_take_the_win(void) {
    miai_game g = race_game();
    race_state st;
    memset(&st, 0, sizeof st);
    miai_state_init(&g, &st);
    miai_move m0[1] = {1}, m1[1] = {1}, m2[1] = {0};
    miai_state_play_joint(&g, &st, m0, 1); /* 2 */
    miai_state_play_joint(&g, &st, m1, 1); /* 4 */
    miai_state_play_joint(&g, &st, m2, 1); /* 5: role 0 to move, +2 wins */
    miai_search *s = new_search(&g, &st, config(MIAI_MODE_DAG, 3, 1000));
    run(s, 2000);
    uint32_t best = 9;
    CHECK(miai_search_best(s, 0, &best) == MIAI_OK);
    CHECK_EQ_U64(best, 1);
    double v[3];
    CHECK(miai_search_root_values(s, v, 3) == MIAI_OK);
    CHECK(fabs(v[0] + v[1] + v[2] - 1.0) < 1e-9);
    CHECK(v[0] > 0.9);
    double rm[3];
    uint64_t count = 0, total = 0;
    for (uint32_t i = 0; i < 2; i++) {
        CHECK(miai_search_root_role_means(s, i, rm, 3, &count) == MIAI_OK);
        total += count;
        if (count) CHECK(fabs(rm[0] + rm[1] + rm[2] - 1.0) < 1e-9);
        if (i == 1) CHECK(rm[0] == 1.0 && rm[1] == 0.0 && rm[2] == 0.0);
    }
    CHECK_EQ_U64(total, 2000);
    CHECK(miai_search_root_role_means(s, 2, rm, 3, &count) == MIAI_EINVAL);
    CHECK(miai_search_root_role_means(s, 0, rm, 2, &count) == MIAI_EINVAL);
    miai_search_free(s);
}

static void node_budget_holds(void) {
    miai_game *ttt = NULL;
    miai_game_create("tictactoe", NULL, 0, &ttt);
    uint8_t state[64];
    miai_state_init(ttt, state);
    for (uint32_t mode = 0; mode < 2; mode++) {
        miai_search *s = new_search(ttt, state, config(mode, 5, 64));
        run(s, 20000);
        miai_search_info info;
        miai_search_get_info(s, &info);
        CHECK(info.nodes <= 64);
        CHECK(info.refused > 0);
        CHECK_EQ_U64(info.root_iterations, 20000);
        CHECK(info.bytes_per_edge <= 48);
        miai_search_free(s);
    }
    miai_game_free(ttt);
}

static void byte_budget_holds(void) {
    miai_game *hex = NULL;
    double size = 11;
    CHECK(miai_game_create("hex", &size, 1, &hex) == MIAI_OK);
    if (!hex) return;
    uint8_t *state = malloc(hex->facts.state_size);
    miai_state_init(hex, state);
    for (uint32_t mode = 0; mode < 2; mode++) {
        miai_search_config c = config(mode, 5, 1000000);
        c.max_bytes = 100 * 1024;
        c.flags = MIAI_SEARCH_TRACK_PARENTS;
        miai_search *s = new_search(hex, state, c);
        run(s, 3000);
        miai_search_info info;
        miai_search_get_info(s, &info);
        CHECK(info.graph_bytes <= c.max_bytes);
        CHECK(info.refused > 0);
        CHECK(info.nodes > 1);
        miai_move m = 60;
        CHECK(miai_search_advance(s, &m, 1) == MIAI_OK);
        run(s, 1000);
        miai_search_get_info(s, &info);
        CHECK(info.graph_bytes <= c.max_bytes);
        miai_search_free(s);
    }
    free(state);
    miai_game_free(hex);
}

/* Every registered game: a whole game of search + advance (random or best moves)
 * with small budgets, both modes, parents tracked -- reroot and the budget paths
 * under the sanitizers. */
static void every_game_search_and_advance(void) {
    for (uint32_t gi = 0; gi < miai_game_count(); gi++) {
        miai_game_info info;
        miai_game_describe(gi, &info);
        double params[MIAI_MAX_PARAMS];
        for (uint32_t k = 0; k < info.n_params; k++)  /* the least value, if there is one */
            params[k] = isfinite(info.param_min[k]) ? info.param_min[k] : info.param_default[k];
        if (strcmp(info.name, "leftright") == 0) params[0] = 30;
        miai_game *g = NULL;
        CHECK(miai_game_create(info.name, params, info.n_params, &g) == MIAI_OK);
        if (!g) continue;
        uint8_t *state = malloc(g->facts.state_size);
        miai_move *legal = malloc(sizeof(miai_move) * g->facts.max_legal);
        miai_edge_stats *edges = malloc(sizeof(miai_edge_stats) * g->facts.max_legal * 8);
        miai_rng rng;
        miai_rng_seed(&rng, gi);
        for (uint32_t mode = 0; mode < 2; mode++) {
            miai_state_init(g, state);
            miai_search_config c = config(mode, gi, 200);
            c.flags = MIAI_SEARCH_TRACK_PARENTS;
            miai_search *s = new_search(g, state, c);
            if (!s) continue;
            int32_t tm = 0;
            for (uint32_t ply = 0; ply < 400; ply++) {
                miai_state_to_move(g, state, &tm);
                if (tm == MIAI_NOBODY) break;
                run(s, 150);
                miai_search_info si;
                miai_search_get_info(s, &si);
                CHECK(si.nodes <= 200);
                miai_move joint[MIAI_MAX_ROLES] = {0};
                uint32_t nr = g->facts.n_roles;
                for (uint32_t r = 0; r < nr; r++) {
                    if (tm != MIAI_SIMULTANEOUS && (int32_t)r != tm) continue;
                    uint32_t n = 0, best = 0, ne = 0;
                    miai_state_legal(g, state, r, legal, g->facts.max_legal, &n);
                    CHECK(n > 0);
                    joint[r] = legal[miai_rng_below(&rng, n)];
                    if (ply % 2 == 0 && miai_search_best(s, r, &best) == MIAI_OK &&
                        miai_search_root_edges(s, edges, g->facts.max_legal * 8, &ne) ==
                            MIAI_OK)
                        joint[r] = edges[best].move;
                }
                CHECK(miai_search_advance(s, joint, nr) == MIAI_OK);
                CHECK(miai_state_play_joint(g, state, joint, nr) == MIAI_OK);
                uint8_t root[4096];
                if (g->facts.state_size <= sizeof root) {
                    CHECK(miai_search_root_state(s, root, sizeof root) == MIAI_OK);
                    CHECK(memcmp(root, state, g->facts.state_size) == 0);
                }
            }
            CHECK(tm == MIAI_NOBODY);
            miai_search_free(s);
        }
        free(edges);
        free(legal);
        free(state);
        miai_game_free(g);
    }
}

static void reroot_keeps_child_statistics(void) {
    miai_game *ttt = NULL;
    miai_game_create("tictactoe", NULL, 0, &ttt);
    uint8_t state[64];
    miai_state_init(ttt, state);
    for (uint32_t mode = 0; mode < 2; mode++) {
        miai_search *s = new_search(ttt, state, config(mode, 5, 100000));
        run(s, 3000);
        miai_edge_stats root[9], child[9], after[9];
        uint32_t n = 0, nc = 0, na = 0;
        miai_search_root_edges(s, root, 9, &n);
        CHECK(root[4].child != NIL);
        miai_search_node_edges(s, root[4].child, child, 9, &nc);
        miai_search_info before, info;
        miai_search_get_info(s, &before);
        miai_move m = 4;
        CHECK(miai_search_advance(s, &m, 1) == MIAI_OK);
        miai_search_get_info(s, &info);
        CHECK(info.nodes < before.nodes);
        CHECK(miai_search_root_edges(s, after, 9, &na) == MIAI_OK);
        CHECK_EQ_U64(na, nc);
        for (uint32_t i = 0; i < na && i < nc; i++) {
            CHECK_EQ_U64(after[i].n, child[i].n);
            CHECK(after[i].sum == child[i].sum);
        }
        run(s, 1000);
        miai_search_free(s);
    }
    miai_game_free(ttt);
}

static void batch_splits_do_not_matter(void) {
    miai_game *ttt = NULL;
    miai_game_create("tictactoe", NULL, 0, &ttt);
    uint8_t state[64];
    miai_state_init(ttt, state);
    miai_search *a = new_search(ttt, state, config(MIAI_MODE_DAG, 9, 100000));
    miai_search *b = new_search(ttt, state, config(MIAI_MODE_DAG, 9, 100000));
    run(a, 2000);
    for (int i = 0; i < 20; i++) run(b, 100);
    miai_search_info ia, ib;
    miai_search_get_info(a, &ia);
    miai_search_get_info(b, &ib);
    CHECK_EQ_U64(ia.nodes, ib.nodes);
    uint32_t differ = 0;
    for (uint32_t n = 0; n < ia.nodes; n++) differ += !same_edges(a, b, n);
    CHECK_EQ_U64(differ, 0);
    miai_search_free(a);
    miai_search_free(b);
    miai_game_free(ttt);
}

/* Several playouts a leaf on a game without a batch op: one by one on a scratch
 * state; every non-terminal leaf counts leaf_playouts, every root edge's mean is a
 * mean of means (a multiple of 1 / (2 * 8) for Tic-tac-toe's 0, 0.5, 1 rewards). */
static void leaf_playouts_one_by_one(void) {
    miai_game *ttt = NULL;
    miai_game_create("tictactoe", NULL, 0, &ttt);
    uint8_t state[64];
    miai_state_init(ttt, state);
    miai_search_config c = config(MIAI_MODE_TREE, 3, 100000);
    c.leaf_playouts = 8;
    miai_search *s = new_search(ttt, state, c);
    run(s, 9); /* the opening's nine moves, one leaf each, none terminal */
    miai_search_info info;
    miai_search_get_info(s, &info);
    CHECK_EQ_U64(info.playouts, 72);
    miai_edge_stats e[9];
    uint32_t n = 0;
    CHECK(miai_search_root_edges(s, e, 9, &n) == MIAI_OK && n == 9);
    int fractional = 0;
    for (uint32_t i = 0; i < n; i++) {
        double x = e[i].mean * 16.0;
        CHECK(e[i].n == 1 && x == (double)(int)x);
        fractional |= e[i].mean != 0.0 && e[i].mean != 0.5 && e[i].mean != 1.0;
    }
    CHECK(fractional); /* one playout a leaf would give 0, 0.5 or 1 */
    run(s, 300);
    miai_search_get_info(s, &info);
    CHECK(info.playouts <= 8 * 309 && info.playouts % 8 == 0);
    miai_search_free(s);
    miai_game_free(ttt);
}

typedef struct {
    const miai_game *g;
    const void *state;
    uint64_t seed;
    miai_edge_stats edges[9];
} thread_job;

static void *thread_search(void *arg) {
    thread_job *job = arg;
    miai_search_config c = config(MIAI_MODE_DAG, job->seed, 100000);
    miai_search *s = NULL;
    if (miai_search_create(job->g, job->state, &c, &s) != MIAI_OK) return NULL;
    uint64_t done;
    miai_search_run(s, 20000, 0.0, &done);
    uint32_t n;
    miai_search_root_edges(s, job->edges, 9, &n);
    miai_search_free(s);
    return NULL;
}

static void two_searches_in_two_threads(void) {
    miai_game *ttt = NULL;
    miai_game_create("tictactoe", NULL, 0, &ttt);
    uint8_t state[64];
    miai_state_init(ttt, state);
    thread_job seq[2], par[2];
    memset(seq, 0, sizeof seq);
    memset(par, 0, sizeof par);
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        seq[i] = (thread_job){.g = ttt, .state = state, .seed = 100 + (uint64_t)i};
        par[i] = seq[i];
        thread_search(&seq[i]);
    }
    for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, thread_search, &par[i]);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 9; k++) {
            CHECK_EQ_U64(par[i].edges[k].n, seq[i].edges[k].n);
            CHECK(par[i].edges[k].sum == seq[i].edges[k].sum);
        }
    miai_game_free(ttt);
}

static void bad_input_is_rejected(void) {
    miai_game *ttt = NULL;
    miai_game_create("tictactoe", NULL, 0, &ttt);
    uint8_t state[64];
    miai_state_init(ttt, state);
    miai_search *s = NULL;
    miai_search_config c = config(MIAI_MODE_DAG, 1, 1000);
    CHECK(miai_search_create(NULL, state, &c, &s) == MIAI_EINVAL);
    CHECK(miai_search_create(ttt, NULL, &c, &s) == MIAI_EINVAL);
    CHECK(miai_search_create(ttt, state, NULL, &s) == MIAI_EINVAL);
    CHECK(miai_search_create(ttt, state, &c, NULL) == MIAI_EINVAL);
    miai_search_config bad[11];
    for (int i = 0; i < 11; i++) bad[i] = c;
    bad[9].leaf_playouts = MIAI_LEAF_PLAYOUTS_MAX + 1;
    bad[10].leaf_playouts = 2; /* RAVE reads the one playout's moves */
    bad[10].algorithm = MIAI_ALG_RAVE;
    bad[7].max_bytes = 1000;
    bad[8].flags = 4;
    bad[0].algorithm = 99;
    bad[1].mode = 2;
    bad[2].final_choice = 5;
    bad[3].max_nodes = 0;
    bad[4].c = NAN;
    bad[5].c = -1.0;
    bad[6].params[3] = INFINITY;
    for (int i = 0; i < 11; i++) {
        CHECK(miai_search_create(ttt, state, &bad[i], &s) == MIAI_EINVAL);
        CHECK(s == NULL);
    }
    s = new_search(ttt, state, c);
    uint64_t done = 0;
    CHECK(miai_search_run(NULL, 10, 0, &done) == MIAI_EINVAL);
    CHECK(miai_search_run(s, 10, 0, NULL) == MIAI_EINVAL);
    CHECK(miai_search_run(s, 0, 0, &done) == MIAI_EINVAL);
    CHECK(miai_search_run(s, 0, NAN, &done) == MIAI_EINVAL);
    CHECK(miai_search_stop(NULL) == MIAI_EINVAL);
    CHECK(miai_search_clear_stop(NULL) == MIAI_EINVAL);
    miai_search_stop(s);
    CHECK(miai_search_run(s, 100, 0, &done) == MIAI_OK);
    CHECK_EQ_U64(done, 0);
    miai_search_clear_stop(s);
    run(s, 100);
    miai_edge_stats e[9];
    uint32_t n;
    CHECK(miai_search_root_edges(s, e, 8, &n) == MIAI_EINVAL);
    CHECK(miai_search_root_edges(s, NULL, 9, &n) == MIAI_EINVAL);
    CHECK(miai_search_node_edges(s, 1u << 30, e, 9, &n) == MIAI_EINVAL);
    miai_node_stats ns;
    CHECK(miai_search_node(s, 1u << 30, &ns) == MIAI_EINVAL);
    CHECK(miai_search_set_pruned(s, 9, 1) == MIAI_EINVAL);
    CHECK(miai_search_set_pruned(s, 0, 2) == MIAI_EINVAL);
    CHECK(miai_search_best(s, 0, NULL) == MIAI_EINVAL);
    double v[1];
    CHECK(miai_search_root_values(s, v, 1) == MIAI_EINVAL);
    CHECK(miai_search_root_state(s, state, 1) == MIAI_EINVAL);
    uint32_t ch[1], off[2];
    CHECK(miai_search_node_links(s, 0, ch, off, 1, NULL) == MIAI_EINVAL);
    miai_move pv[2];
    uint32_t roles[2], len;
    int32_t tm[2];
    CHECK(miai_search_pv(s, pv, roles, tm, 2, &len) == MIAI_OK);
    CHECK(len <= 2);
    CHECK(miai_search_pv(s, NULL, roles, tm, 2, &len) == MIAI_EINVAL);
    miai_move m = 4;
    CHECK(miai_search_advance(s, NULL, 1) == MIAI_EINVAL);
    CHECK(miai_search_advance(s, &m, 1) == MIAI_OK);
    CHECK(miai_search_advance(s, &m, 1) == MIAI_EILLEGAL); /* b2 is taken */
    m = 77;
    CHECK(miai_search_advance(s, &m, 1) == MIAI_EINVAL);
    miai_search_free(s);
    miai_search_free(NULL);
    miai_game_free(ttt);
}

/* A shared node first expanded after B holds the edge Y; reached for real after A,
 * where Y is illegal, that edge must be pruned at the new root so that neither the
 * search nor the final choice can play it (the Go superko bug this guards against). */
static void reused_root_prunes_moves_illegal_in_its_history(void) {
    miai_game g = detour_game();
    detour_state start;
    detour_init(&g, &start);
    int seen = 0;
    for (uint64_t seed = 1; seed <= 32 && !seen; seed++) {
        miai_search *s = new_search(&g, &start, config(MIAI_MODE_DAG, seed, 64));
        run(s, 200);
        /* Did B reach the shared node first (it then has both edges)? */
        miai_edge_stats root[2], shared[2];
        uint32_t n = 0, m = 0;
        CHECK(miai_search_root_edges(s, root, 2, &n) == MIAI_OK && n == 2);
        CHECK(root[0].child != NIL && root[0].child == root[1].child);
        CHECK(miai_search_node_edges(s, root[0].child, shared, 2, &m) == MIAI_OK);
        if (m == 2) {
            seen = 1;
            miai_move a = 0;
            CHECK(miai_search_advance(s, &a, 1) == MIAI_OK);
            CHECK(miai_search_root_edges(s, shared, 2, &m) == MIAI_OK && m == 2);
            CHECK(shared[1].move == 1 && (shared[1].flags & MIAI_EDGE_FLAG_PRUNED));
            CHECK(!(shared[0].flags & MIAI_EDGE_FLAG_PRUNED));
            CHECK(miai_search_set_pruned(s, 1, 0) == MIAI_EINVAL);
            CHECK(miai_search_set_pruned(s, 0, 1) == MIAI_OK);
            CHECK(miai_search_set_pruned(s, 0, 0) == MIAI_OK);
            uint32_t best = NIL;
            run(s, 50);
            CHECK(miai_search_best(s, 1, &best) == MIAI_OK && best == 0);
            CHECK(miai_search_select_root(s, 1, &best) == MIAI_OK && best == 0);
        }
        miai_search_free(s);
    }
    CHECK(seen);
}

int main(void) {
    ctest_case cases[] = {
        {"tree_and_dag_agree_without_transpositions", tree_and_dag_agree_without_transpositions},
        {"simultaneous_search_is_decoupled", simultaneous_search_is_decoupled},
        {"three_players_take_the_win", three_players_take_the_win},
        {"node_budget_holds", node_budget_holds},
        {"byte_budget_holds", byte_budget_holds},
        {"every_game_search_and_advance", every_game_search_and_advance},
        {"reroot_keeps_child_statistics", reroot_keeps_child_statistics},
        {"reused_root_prunes_moves_illegal_in_its_history",
         reused_root_prunes_moves_illegal_in_its_history},
        {"batch_splits_do_not_matter", batch_splits_do_not_matter},
        {"leaf_playouts_one_by_one", leaf_playouts_one_by_one},
        {"two_searches_in_two_threads", two_searches_in_two_threads},
        {"bad_input_is_rejected", bad_input_is_rejected},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
