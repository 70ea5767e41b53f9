/* test_go_policy.c -- the heavy Go playout policy and the RAVE search under the
 * sanitizers: every policy mask on every size class from random positions, the board
 * check at the end of each playout; RAVE with priors and territory counts on Go and
 * on a non-Go game (where territory is refused); the RAVE inspection API fed bad
 * arguments. */
#include <string.h>

#include "../core/game.h"
#include "../games/go_api.h"
#include "../games/go_lgr_api.h"
#include "../games/go_model_api.h"
#include "../search/search_api.h"
#include "../search/search_rave_api.h"
#include "ctest.h"

static miai_game *make_go(double size, double policy) {
    double params[3] = {size, 7.5, policy};
    miai_game *g = NULL;
    if (miai_game_create("go", params, 3, &g) != MIAI_OK) return NULL;
    return g;
}

static void every_mask_keeps_the_board_sound(void) {
    const double sizes[] = {5, 9, 19};
    for (size_t si = 0; si < 3; si++)
        for (uint32_t mask = 0; mask <= 15; mask++) {
            miai_game *g = make_go(sizes[si], mask);
            CHECK(g != NULL);
            if (!g) continue;
            miai_game_facts f;
            miai_game_get_facts(g, &f);
            uint8_t *s = malloc(f.state_size), *w = malloc(f.state_size);
            miai_move *moves = malloc(sizeof(miai_move) * f.max_legal);
            miai_rng rng;
            miai_rng_seed(&rng, 100 + mask);
            miai_state_init(g, s);
            for (int k = 0; k < (sizes[si] < 10 ? 6 : 2); k++) {
                /* a few random plies, then a playout from a copy */
                for (int ply = 0; ply < 7 && miai_chead_of(s)->to_move >= 0; ply++) {
                    uint32_t n = g->ops->legal(g, s, (uint32_t)miai_chead_of(s)->to_move, moves);
                    CHECK(miai_state_play(g, s, moves[miai_rng_below(&rng, n - 1 ? n - 1 : 1)]) ==
                          MIAI_OK);
                }
                memcpy(w, s, f.state_size);
                miai_move trace[3 * 19 * 19 + 1];
                uint32_t len = 0;
                uint32_t plies = miai_game_playout(g, w, &rng, trace, 3 * 19 * 19 + 1, &len);
                CHECK(plies <= f.max_plies && len == plies);
                CHECK(miai_state_check(g, w) == MIAI_OK);
                for (uint32_t i = 0; i < len; i++) CHECK(trace[i] < f.num_moves);
            }
            free(s);
            free(w);
            free(moves);
            miai_game_free(g);
        }
}

static miai_search_config rave_config(double territory) {
    miai_search_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.algorithm = MIAI_ALG_RAVE;
    cfg.mode = MIAI_MODE_DAG;
    cfg.max_nodes = 2000;
    cfg.seed = 3;
    cfg.params[0] = 0.9;
    cfg.params[1] = 20000;
    cfg.params[2] = 10;
    cfg.params[3] = 1;
    cfg.params[4] = 1;
    cfg.params[5] = territory;
    return cfg;
}

static void rave_runs_on_go_and_elsewhere(void) {
    miai_game *g = make_go(9, 7), *ttt = NULL;
    CHECK(g != NULL);
    CHECK(miai_game_create("tictactoe", NULL, 0, &ttt) == MIAI_OK);
    if (!g || !ttt) {
        miai_game_free(g);
        miai_game_free(ttt);
        return;
    }
    miai_game_facts f;
    miai_game_get_facts(g, &f);
    uint8_t *s = malloc(f.state_size);
    miai_state_init(g, s);
    miai_search_config cfg = rave_config(1);
    miai_search *search = NULL;
    CHECK(miai_search_create(g, s, &cfg, &search) == MIAI_OK);
    uint64_t done = 0;
    CHECK(miai_search_run(search, 3000, 0, &done) == MIAI_OK && done == 3000);
    uint32_t visits[82], n = 0, total = 0;
    uint32_t *black = malloc(sizeof(uint32_t) * 82 * 81), *white = malloc(sizeof(uint32_t) * 82 * 81);
    CHECK(miai_rave_root_territory(search, visits, black, white, 82, 81, &n) == MIAI_OK);
    CHECK(n == 82);
    for (uint32_t k = 0; k < n; k++) total += visits[k];
    CHECK(total == 3000);
    CHECK(miai_rave_root_territory(search, visits, black, white, 10, 81, &n) == MIAI_EINVAL);
    CHECK(miai_rave_root_territory(search, visits, black, white, 82, 80, &n) == MIAI_EINVAL);
    CHECK(miai_rave_root_territory(NULL, visits, black, white, 82, 81, &n) == MIAI_EINVAL);
    miai_move seq[1000];
    uint32_t roles[1000], len = 0, tree_len = 0;
    double rewards[2];
    CHECK(miai_rave_last_sequence(search, seq, roles, 1000, &len, &tree_len, rewards, 2) ==
          MIAI_OK);
    CHECK(tree_len <= len && len > 0);
    CHECK(miai_rave_last_sequence(search, seq, roles, 0, &len, &tree_len, rewards, 2) ==
          MIAI_EINVAL);
    CHECK(miai_rave_last_sequence(search, seq, roles, 1000, &len, &tree_len, rewards, 1) ==
          MIAI_EINVAL);
    miai_move move = 40;
    CHECK(miai_search_advance(search, &move, 1) == MIAI_OK);
    CHECK(miai_search_run(search, 500, 0, &done) == MIAI_OK);
    CHECK(miai_rave_root_territory(search, visits, black, white, 82, 81, &n) == MIAI_OK);
    miai_search_free(search);
    /* tictactoe: RAVE runs (even priors), territory is refused */
    uint8_t t[512];
    miai_state_init(ttt, t);
    miai_search_config c2 = rave_config(0);
    CHECK(miai_search_create(ttt, t, &c2, &search) == MIAI_OK);
    CHECK(miai_search_run(search, 2000, 0, &done) == MIAI_OK && done == 2000);
    CHECK(miai_rave_root_territory(search, visits, black, white, 82, 81, &n) == MIAI_ESTATE);
    miai_search_free(search);
    c2 = rave_config(1);
    search = NULL;
    CHECK(miai_search_create(ttt, t, &c2, &search) == MIAI_EINVAL && search == NULL);
    c2 = rave_config(0);
    c2.params[0] = 0;
    CHECK(miai_search_create(ttt, t, &c2, &search) == MIAI_EINVAL);
    free(black);
    free(white);
    free(s);
    miai_game_free(g);
    miai_game_free(ttt);
}

/* Last-good-reply playouts: a RAVE search with the playout memory (LGRF-1, LGRF-2)
 * on 9x9 and 19x19 with tree reuse, and go_lgr_api.h fed bad arguments. */
static void lgr_searches_and_bad_arguments(void) {
    const double sizes[] = {9, 19};
    const double policies[] = {7 + 64, 7 + 64 + 128, 64 + 128};
    for (size_t si = 0; si < 2; si++)
        for (size_t pi = 0; pi < 3; pi++) {
            miai_game *g = make_go(sizes[si], policies[pi]);
            CHECK(g != NULL);
            if (!g) continue;
            miai_game_facts f;
            miai_game_get_facts(g, &f);
            uint8_t *s = malloc(f.state_size);
            miai_state_init(g, s);
            miai_search_config cfg = rave_config(0);
            miai_search *search = NULL;
            CHECK(miai_search_create(g, s, &cfg, &search) == MIAI_OK);
            uint64_t done = 0;
            CHECK(miai_search_run(search, 600, 0, &done) == MIAI_OK && done == 600);
            miai_move move = (miai_move)(f.num_moves / 2);
            CHECK(miai_search_advance(search, &move, 1) == MIAI_OK);
            CHECK(miai_search_run(search, 300, 0, &done) == MIAI_OK);
            miai_search_free(search);
            free(s);
            miai_game_free(g);
        }
    miai_game *g = make_go(9, 7 + 64), *plain = make_go(9, 7);
    CHECK(g && plain);
    if (g && plain) {
        size_t bytes = 0;
        CHECK(go_lgr_memory_bytes(plain, &bytes) == MIAI_EINVAL);
        CHECK(go_lgr_memory_bytes(g, NULL) == MIAI_EINVAL);
        CHECK(go_lgr_memory_bytes(g, &bytes) == MIAI_OK && bytes > 0);
        uint8_t *mem = calloc(1, bytes), s[1 << 16];
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        CHECK(f.state_size <= sizeof s);
        miai_state_init(g, s);
        miai_move trace[300], r = 0;
        uint32_t len = 0;
        CHECK(go_lgr_playout(g, s, 1, mem, bytes - 1, trace, 300, &len) == MIAI_EINVAL);
        CHECK(go_lgr_playout(plain, s, 1, mem, bytes, trace, 300, &len) == MIAI_EINVAL);
        CHECK(go_lgr_playout(g, s, 1, mem, bytes, NULL, 300, &len) == MIAI_EINVAL);
        CHECK(go_lgr_playout(g, s, 1, mem, bytes, trace, 300, &len) == MIAI_OK);
        CHECK(go_lgr_playout(g, s, 1, mem, bytes, trace, 300, &len) == MIAI_ETERMINAL);
        CHECK(go_lgr_get(g, mem, bytes, 2, 0, &r) == MIAI_EINVAL);
        CHECK(go_lgr_get(g, mem, bytes, 0, 81, &r) == MIAI_EINVAL);
        CHECK(go_lgr_set(g, mem, bytes, 0, 0, 82) == MIAI_EINVAL);
        CHECK(go_lgr_set(g, mem, bytes, 1, 3, 4) == MIAI_OK);
        CHECK(go_lgr_get(g, mem, bytes, 1, 3, &r) == MIAI_OK && r == 4);
        CHECK(go_lgr_get2(g, mem, bytes, 1, 3, 4, &r) == MIAI_EINVAL); /* no LGRF-2 bit */
        free(mem);
    }
    miai_game_free(g);
    miai_game_free(plain);
}

/* The learned model: RAVE with its priors on 9x9 and 19x19 (features of every legal
 * move of every expanded node, ladder reads included), its features and probabilities
 * on random positions, and bad arguments. */
static void model_priors_and_bad_arguments(void) {
    const double sizes[] = {9, 19};
    for (size_t si = 0; si < 2; si++) {
        miai_game *g = make_go(sizes[si], 7 | 256);
        CHECK(g != NULL);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *s = malloc(f.state_size);
        miai_move *moves = malloc(sizeof(miai_move) * f.max_legal);
        uint32_t *feats = malloc(sizeof(uint32_t) * GO_FEATURES * f.max_legal);
        double *prob = malloc(sizeof(double) * f.max_legal);
        miai_rng rng;
        miai_rng_seed(&rng, 9);
        miai_state_init(g, s);
        for (int ply = 0; ply < 60 && miai_chead_of(s)->to_move >= 0; ply++) {
            uint32_t n = g->ops->legal(g, s, (uint32_t)miai_chead_of(s)->to_move, moves);
            CHECK(go_move_features(g, s, moves, n, feats, GO_FEATURES * n) == MIAI_OK);
            CHECK(go_model_probs(g, s, moves, n, prob) == MIAI_OK);
            double total = 0;
            for (uint32_t i = 0; i < n; i++) total += prob[i];
            CHECK(total > 0.999 && total < 1.001);
            CHECK(miai_state_play(g, s, moves[miai_rng_below(&rng, n - 1 ? n - 1 : 1)]) ==
                  MIAI_OK);
        }
        uint32_t n = g->ops->legal(g, s, (uint32_t)miai_chead_of(s)->to_move, moves);
        CHECK(go_move_features(g, s, moves, n, feats, GO_FEATURES * n - 1) == MIAI_EINVAL);
        CHECK(go_move_features(NULL, s, moves, n, feats, GO_FEATURES * n) == MIAI_EINVAL);
        miai_move bad = f.num_moves;
        CHECK(go_move_features(g, s, &bad, 1, feats, GO_FEATURES) == MIAI_EINVAL);
        CHECK(go_model_probs(g, s, &bad, 1, prob) == MIAI_EINVAL);
        miai_search_config cfg = rave_config(0);
        miai_search *search = NULL;
        CHECK(miai_search_create(g, s, &cfg, &search) == MIAI_OK);
        uint64_t done = 0;
        CHECK(miai_search_run(search, 1500, 0, &done) == MIAI_OK && done == 1500);
        miai_search_free(search);
        free(s);
        free(moves);
        free(feats);
        free(prob);
        miai_game_free(g);
    }
    miai_game *ttt = NULL;
    CHECK(miai_game_create("tictactoe", NULL, 0, &ttt) == MIAI_OK);
    uint8_t buf[64] = {0};
    miai_move m = 0;
    uint32_t out[GO_FEATURES];
    CHECK(go_move_features(ttt, buf, &m, 1, out, GO_FEATURES) == MIAI_EINVAL);
    miai_game_free(ttt);
}

int main(void) {
    const ctest_case cases[] = {
        {"lgr_searches_and_bad_arguments", lgr_searches_and_bad_arguments},
        {"every_mask_keeps_the_board_sound", every_mask_keeps_the_board_sound},
        {"rave_runs_on_go_and_elsewhere", rave_runs_on_go_and_elsewhere},
        {"model_priors_and_bad_arguments", model_priors_and_bad_arguments},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
