/* test_btkt_playouts.c -- the fast playout ops of breakthrough, knightthrough and
 * leftright, under the sanitizers: each playout's trace, replayed move by move through
 * the validated API (which checks legality), must reach exactly the state the playout
 * left (same bytes, so same keys and status), and that state must pass `check`.
 * Also from middle positions and with a trace buffer shorter than the game. */
#include <string.h>

#include "../core/game.h"
#include "ctest.h"

static void replay_matches(const char *name, const double *params, uint32_t n_params) {
    miai_game *g = NULL;
    CHECK(miai_game_create(name, params, n_params, &g) == MIAI_OK);
    if (!g) return;
    miai_game_facts f;
    miai_game_get_facts(g, &f);
    CHECK(g->ops->playout != NULL);
    uint8_t *start = malloc(f.state_size), *end = malloc(f.state_size);
    uint8_t *again = malloc(f.state_size);
    miai_move *trace = malloc(sizeof(miai_move) * (f.max_plies + 1));
    miai_move *legal = malloc(sizeof(miai_move) * f.max_legal);
    miai_rng rng;
    miai_rng_seed(&rng, 1234);
    for (int game = 0; game < 200; game++) {
        /* Start from the initial state or after a few random plies. */
        miai_state_init(g, start);
        uint32_t pre = (uint32_t)(game % 4) * 5, tl = 0, n = 0;
        int32_t tm = 0;
        for (uint32_t i = 0; i < pre && tm != MIAI_NOBODY; i++) {
            CHECK(miai_state_legal(g, start, (uint32_t)tm, legal,
                                   f.max_legal, &n) == MIAI_OK);
            if (n) CHECK(miai_state_play(g, start, legal[miai_rng_below(&rng, n)]) == MIAI_OK);
            miai_state_to_move(g, start, &tm);
        }
        if (tm == MIAI_NOBODY) continue;
        memcpy(end, start, f.state_size);
        uint32_t plies = g->ops->playout(g, end, &rng, trace, f.max_plies + 1, &tl);
        CHECK(plies == tl);
        CHECK(miai_state_check(g, end) == MIAI_OK);
        miai_state_to_move(g, end, &tm);
        CHECK(tm == MIAI_NOBODY);
        memcpy(again, start, f.state_size);
        for (uint32_t i = 0; i < tl; i++) CHECK(miai_state_play(g, again, trace[i]) == MIAI_OK);
        CHECK(memcmp(again, end, f.state_size) == 0);
        /* A short trace buffer is filled, never overrun. */
        memcpy(end, start, f.state_size);
        miai_move small[3] = {0};
        plies = g->ops->playout(g, end, &rng, small, 2, &tl);
        CHECK(tl == (plies < 2 ? plies : 2));
        CHECK(miai_state_check(g, end) == MIAI_OK);
    }
    free(legal);
    free(trace);
    free(again);
    free(end);
    free(start);
    miai_game_free(g);
}

static void breakthrough_playouts_replay(void) { replay_matches("breakthrough", NULL, 0); }

static void knightthrough_playouts_replay(void) { replay_matches("knightthrough", NULL, 0); }

static void leftright_playouts_replay(void) {
    const double lengths[] = {1, 5, 63, 64, 65, 300};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
        replay_matches("leftright", &lengths[i], 1);
}

int main(void) {
    const ctest_case cases[] = {
        {"breakthrough_playouts_replay", breakthrough_playouts_replay},
        {"knightthrough_playouts_replay", knightthrough_playouts_replay},
        {"leftright_playouts_replay", leftright_playouts_replay},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
