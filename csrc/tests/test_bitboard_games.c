/* test_bitboard_games.c -- the bitboard games' own fast paths under the sanitizers.
 *
 * Connect Four, Othello and Tic-tac-toe each have a hand-written playout that bypasses
 * ops->play; it must leave exactly the state (keys, ply, mover included) that
 * replaying its trace through the validated public API gives, from the start and from
 * mid-game positions.  Also: published perft counts at small depth (Connect Four,
 * Othello), move text edge cases, and states filled with garbage by their owner, which
 * every operation must survive (the check reports them). */
#include <string.h>

#include "../core/game.h"
#include "../core/registry.h"
#include "ctest.h"

static const char *const GAMES[] = {"connect4", "othello", "tictactoe"};

static void fast_playout_equals_replayed_trace(void) {
    for (size_t gi = 0; gi < sizeof GAMES / sizeof GAMES[0]; gi++) {
        miai_game *g = NULL;
        CHECK(miai_game_create(GAMES[gi], NULL, 0, &g) == MIAI_OK);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *start = malloc(f.state_size), *fast = malloc(f.state_size),
                *slow = malloc(f.state_size);
        miai_move *trace = malloc(sizeof(miai_move) * f.max_plies);
        miai_rng rng;
        miai_rng_seed(&rng, 1234 + gi);
        for (int game = 0; game < 300; game++) {
            /* Start from the initial state or a few random plies into the game. */
            uint32_t pre = (uint32_t)(game % 4) * 5;
            miai_state_init(g, start);
            for (uint32_t i = 0; i < pre && miai_chead_of(start)->to_move >= 0; i++) {
                miai_move legal[64];
                uint32_t n = 0;
                miai_state_legal(g, start, (uint32_t)miai_chead_of(start)->to_move, legal, 64,
                                 &n);
                CHECK(miai_state_play(g, start, legal[miai_rng_below(&rng, n)]) == MIAI_OK);
            }
            memcpy(fast, start, f.state_size);
            uint32_t len = 0;
            uint32_t plies = miai_game_playout(g, fast, &rng, trace, f.max_plies, &len);
            CHECK(plies == len);
            CHECK(miai_chead_of(fast)->to_move == MIAI_NOBODY);
            CHECK(miai_state_check(g, fast) == MIAI_OK);
            memcpy(slow, start, f.state_size);
            for (uint32_t i = 0; i < len; i++) CHECK(miai_state_play(g, slow, trace[i]) == MIAI_OK);
            CHECK(memcmp(fast, slow, f.state_size) == 0);
            /* A short trace buffer is respected. */
            memcpy(fast, start, f.state_size);
            miai_move small[3] = {0, 0, 0};
            len = 99;
            miai_game_playout(g, fast, &rng, small, 2, &len);
            CHECK(len <= 2);
            CHECK(small[2] == 0);
            /* A terminal state plays out to nothing. */
            CHECK(miai_game_playout(g, fast, &rng, NULL, 0, NULL) == 0);
        }
        free(trace);
        free(slow);
        free(fast);
        free(start);
        miai_game_free(g);
    }
}

static void perft_matches_published_counts(void) {
    static const uint64_t c4[] = {1, 7, 49, 343, 2401, 16807};
    static const uint64_t oth[] = {1, 4, 12, 56, 244, 1396, 8200};
    const uint64_t *want[] = {c4, oth};
    const uint32_t depths[] = {6, 7};
    for (size_t gi = 0; gi < 2; gi++) { /* connect4, othello */
        miai_game *g = NULL;
        CHECK(miai_game_create(GAMES[gi], NULL, 0, &g) == MIAI_OK);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *s = malloc(f.state_size);
        miai_state_init(g, s);
        for (uint32_t d = 0; d < depths[gi]; d++) {
            uint64_t n = 0;
            CHECK(miai_perft(g, s, d, &n) == MIAI_OK);
            CHECK_EQ_U64(n, want[gi][d]);
        }
        free(s);
        miai_game_free(g);
    }
}

static void move_text_edges(void) {
    miai_game *c4 = NULL, *oth = NULL;
    CHECK(miai_game_create("connect4", NULL, 0, &c4) == MIAI_OK);
    CHECK(miai_game_create("othello", NULL, 0, &oth) == MIAI_OK);
    if (!c4 || !oth) return;
    miai_move m = 99;
    CHECK(miai_move_from_text(c4, 0, "G", &m) == MIAI_OK && m == 6);
    CHECK(miai_move_from_text(c4, 1, "7", &m) == MIAI_OK && m == 6);
    CHECK(miai_move_from_text(c4, 0, "h", &m) == MIAI_EINVAL);
    CHECK(miai_move_from_text(c4, 0, "0", &m) == MIAI_EINVAL);
    CHECK(miai_move_from_text(c4, 0, "ab", &m) == MIAI_EINVAL);
    CHECK(miai_move_from_text(oth, 0, "PASS", &m) == MIAI_OK && m == 64);
    CHECK(miai_move_from_text(oth, 0, "h8", &m) == MIAI_OK && m == 63);
    CHECK(miai_move_from_text(oth, 0, "passpass", &m) == MIAI_EINVAL);
    CHECK(miai_move_from_text(oth, 0, "i1", &m) == MIAI_EINVAL);
    CHECK(miai_move_from_text(oth, 0, "a", &m) == MIAI_EINVAL);
    char buf[MIAI_MOVE_TEXT_LEN];
    CHECK(miai_move_to_text(oth, 0, 64, buf, sizeof buf) == MIAI_OK && strcmp(buf, "pass") == 0);
    CHECK(miai_move_to_text(oth, 0, 19, buf, sizeof buf) == MIAI_OK && strcmp(buf, "d3") == 0);
    CHECK(miai_move_to_text(oth, 0, 64, buf, 3) == MIAI_OK && strcmp(buf, "pa") == 0);
    CHECK(miai_move_to_text(oth, 0, 65, buf, sizeof buf) == MIAI_EINVAL);
    CHECK(miai_move_to_text(c4, 0, 7, buf, sizeof buf) == MIAI_EINVAL);
    miai_game_free(c4);
    miai_game_free(oth);
}

/* Random bytes after the head, and a mover that may be out of range: no operation may
 * read or write out of bounds (ASan/UBSan watch), and most such states fail check. */
static void garbage_states_are_survived(void) {
    static const int32_t movers[] = {0, 1, MIAI_NOBODY, 5, -7, 1 << 30};
    for (size_t gi = 0; gi < sizeof GAMES / sizeof GAMES[0]; gi++) {
        miai_game *g = NULL;
        CHECK(miai_game_create(GAMES[gi], NULL, 0, &g) == MIAI_OK);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *s = malloc(f.state_size), *work = malloc(f.state_size);
        miai_move *legal = malloc(sizeof(miai_move) * f.max_legal);
        miai_rng rng;
        miai_rng_seed(&rng, 77 + gi);
        uint32_t corrupt_found = 0;
        for (int trial = 0; trial < 600; trial++) {
            miai_state_init(g, s);
            /* Every third state all garbage, the others a few bits off the start. */
            for (uint32_t i = sizeof(miai_head); i < f.state_size; i++) {
                uint64_t x = miai_rng_next(&rng);
                s[i] = (uint8_t)(trial % 3 == 0 ? x : s[i] ^ (x & (x >> 8) & 1));
            }
            miai_head *h = miai_head_of(s);
            h->to_move = movers[trial % (int)(sizeof movers / sizeof movers[0])];
            h->ply = (uint32_t)miai_rng_below(&rng, 2 * f.max_plies);
            if (miai_state_check(g, s) != MIAI_OK) corrupt_found++;
            for (uint32_t role = 0; role < f.n_roles; role++) {
                uint32_t n = 0;
                CHECK(miai_state_legal(g, s, role, legal, f.max_legal, &n) == MIAI_OK);
                CHECK(n <= f.max_legal);
                for (uint32_t i = 0; i < n; i++) {
                    memcpy(work, s, f.state_size);
                    miai_state_play(g, work, legal[i]);
                    miai_state_check(g, work);
                }
            }
            double mean[MIAI_MAX_ROLES];
            uint64_t plies = 0;
            CHECK(miai_playouts(g, s, 3, (uint64_t)trial, mean, MIAI_MAX_ROLES, &plies) ==
                  MIAI_OK);
            char buf[512];
            CHECK(miai_state_render(g, s, buf, sizeof buf) == MIAI_OK);
            uint64_t k1, k2;
            CHECK(miai_state_key_full(g, s, &k1, &k2) == MIAI_OK);
        }
        CHECK(corrupt_found > 300);
        free(legal);
        free(work);
        free(s);
        miai_game_free(g);
    }
}

int main(void) {
    static const ctest_case cases[] = {
        {"fast_playout_equals_replayed_trace", fast_playout_equals_replayed_trace},
        {"perft_matches_published_counts", perft_matches_published_counts},
        {"move_text_edges", move_text_edges},
        {"garbage_states_are_survived", garbage_states_are_survived},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
