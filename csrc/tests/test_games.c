/* test_games.c -- every registered game through the public API, under the sanitizers:
 * random games with the debug check at every ply, incremental vs full keys, playouts,
 * perft, and each validation path of game_api.h fed bad input. */
#include <string.h>

#include "../core/game.h"
#include "../core/registry.h"
#include "ctest.h"

static miai_game *make_default(uint32_t index) {
    miai_game_info info;
    if (miai_game_describe(index, &info) != MIAI_OK) return NULL;
    miai_game *g = NULL;
    if (miai_game_create(info.name, info.param_default, info.n_params, &g) != MIAI_OK)
        return NULL;
    return g;
}

static void random_games_keep_invariants(void) {
    for (uint32_t gi = 0; gi < miai_game_count(); gi++) {
        miai_game *g = make_default(gi);
        CHECK(g != NULL);
        if (!g) continue;
        miai_game_facts f;
        CHECK(miai_game_get_facts(g, &f) == MIAI_OK);
        uint8_t *s = malloc(f.state_size);
        miai_move *moves = malloc(sizeof(miai_move) * (f.max_legal + 1));
        miai_rng rng;
        miai_rng_seed(&rng, 42 + gi);
        for (int game = 0; game < 20; game++) {
            CHECK(miai_state_init(g, s) == MIAI_OK);
            int32_t tm;
            for (;;) {
                CHECK(miai_state_check(g, s) == MIAI_OK);
                miai_state_to_move(g, s, &tm);
                if (tm == MIAI_NOBODY) break;
                miai_move joint[MIAI_MAX_ROLES] = {0};
                for (uint32_t r = 0; r < f.n_roles; r++) {
                    uint32_t n = 0;
                    CHECK(miai_state_legal(g, s, r, moves, f.max_legal, &n) == MIAI_OK);
                    CHECK(n <= f.max_legal);
                    if (tm == MIAI_SIMULTANEOUS || (int32_t)r == tm) {
                        CHECK(n > 0);
                        if (n) joint[r] = moves[miai_rng_below(&rng, n)];
                    }
                }
                CHECK(miai_state_play_joint(g, s, joint, f.n_roles) == MIAI_OK);
                uint32_t ply;
                miai_state_ply(g, s, &ply);
                CHECK(ply <= f.max_plies);
                if (ply > f.max_plies) break;
            }
            double rw[MIAI_MAX_ROLES];
            CHECK(miai_state_rewards(g, s, rw, MIAI_MAX_ROLES) == MIAI_OK);
            for (uint32_t r = 0; r < f.n_roles; r++) CHECK(rw[r] >= 0.0 && rw[r] <= 1.0);
            char buf[8192];
            CHECK(miai_state_render(g, s, buf, sizeof buf) == MIAI_OK);
            CHECK(miai_state_render(g, s, buf, 3) == MIAI_OK); /* truncation is safe */
        }
        free(moves);
        free(s);
        miai_game_free(g);
    }
}

static void playouts_are_deterministic(void) {
    for (uint32_t gi = 0; gi < miai_game_count(); gi++) {
        miai_game *g = make_default(gi);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *s = malloc(f.state_size);
        miai_state_init(g, s);
        double a[MIAI_MAX_ROLES], b[MIAI_MAX_ROLES];
        uint64_t pa, pb;
        CHECK(miai_playouts(g, s, 50, 9, a, MIAI_MAX_ROLES, &pa) == MIAI_OK);
        CHECK(miai_playouts(g, s, 50, 9, b, MIAI_MAX_ROLES, &pb) == MIAI_OK);
        CHECK(pa == pb);
        CHECK(memcmp(a, b, sizeof(double) * f.n_roles) == 0);
        uint64_t leaves = 0;
        CHECK(miai_perft(g, s, 2, &leaves) == MIAI_OK);
        CHECK(leaves > 0);
        free(s);
        miai_game_free(g);
    }
}

static void bad_input_is_refused(void) {
    miai_game *g = NULL;
    CHECK(miai_game_create("no-such-game", NULL, 0, &g) == MIAI_EUNKNOWN);
    CHECK(miai_game_create(NULL, NULL, 0, &g) == MIAI_EINVAL);
    CHECK(miai_game_create("tictactoe", NULL, 0, NULL) == MIAI_EINVAL);
    double p = 1e300;
    CHECK(miai_game_create("tictactoe", &p, 1, &g) == MIAI_EINVAL);
    for (uint32_t gi = 0; gi < miai_game_count(); gi++) {
        miai_game_info info;
        miai_game_describe(gi, &info);
        for (uint32_t k = 0; k < info.n_params; k++) {
            double params[MIAI_MAX_PARAMS];
            memcpy(params, info.param_default, sizeof params);
            params[k] = info.param_max[k] + 1;
            CHECK(miai_game_create(info.name, params, info.n_params, &g) == MIAI_EINVAL);
            params[k] = 0.0 / 0.0;
            CHECK(miai_game_create(info.name, params, info.n_params, &g) == MIAI_EINVAL);
        }
        g = make_default(gi);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *s = malloc(f.state_size);
        miai_state_init(g, s);
        miai_move moves[1];
        uint32_t n;
        CHECK(miai_state_legal(g, s, f.n_roles, moves, f.max_legal, &n) == MIAI_EINVAL);
        if (f.max_legal > 1)
            CHECK(miai_state_legal(g, s, 0, moves, 1, &n) == MIAI_EINVAL);
        CHECK(miai_state_play(g, s, f.num_moves) != MIAI_OK);
        CHECK(miai_state_play(g, s, UINT32_MAX) != MIAI_OK);
        CHECK(miai_state_play(NULL, s, 0) == MIAI_EINVAL);
        miai_move joint[MIAI_MAX_ROLES] = {0};
        CHECK(miai_state_play_joint(g, s, joint, 7) != MIAI_OK || f.n_roles == 7);
        char buf[MIAI_MOVE_TEXT_LEN];
        CHECK(miai_move_to_text(g, 0, f.num_moves, buf, sizeof buf) == MIAI_EINVAL);
        CHECK(miai_move_to_text(g, 0, 0, buf, 0) == MIAI_EINVAL);
        CHECK(miai_move_to_text(g, 0, 0, buf, 2) == MIAI_OK);
        miai_move m;
        const char *junk[] = {"", "zz", "a0", "a99999999999999999999", "-1", "\xff\xfe",
                              "pass pass", "((", "a1 ", " "};
        for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
            int rc = miai_move_from_text(g, 0, junk[i], &m);
            CHECK(rc == MIAI_OK ? m < f.num_moves : rc == MIAI_EINVAL);
        }
        double rw[MIAI_MAX_ROLES];
        CHECK(miai_state_rewards(g, s, rw, MIAI_MAX_ROLES) == MIAI_ESTATE);
        CHECK(miai_state_rewards(g, s, rw, 0) == MIAI_EINVAL);
        free(s);
        miai_game_free(g);
    }
    miai_game_free(NULL);
}

int main(void) {
    const ctest_case cases[] = {
        {"random_games_keep_invariants", random_games_keep_invariants},
        {"playouts_are_deterministic", playouts_are_deterministic},
        {"bad_input_is_refused", bad_input_is_refused},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
