/* test_hexhav.c -- Hex and Havannah at every size under the sanitizers: random games with
 * the debug check at every ply, the playout op replayed move by move, move text, and the
 * check op catching corrupted states. */
#include <string.h>

#include "../core/game.h"
#include "ctest.h"

static miai_game *make(const char *name, int size) {
    double p = size;
    miai_game *g = NULL;
    if (miai_game_create(name, &p, 1, &g) != MIAI_OK) return NULL;
    return g;
}

/* Play one uniformly random game from the start, checking the state at every ply. */
static void random_game(miai_game *g, uint8_t *s, miai_rng *rng, uint32_t stop_at_ply) {
    miai_game_facts f;
    miai_game_get_facts(g, &f);
    miai_move *moves = malloc(sizeof(miai_move) * f.max_legal);
    CHECK(miai_state_init(g, s) == MIAI_OK);
    int32_t tm = 0;
    uint32_t ply = 0;
    while (ply < stop_at_ply) {
        CHECK(miai_state_check(g, s) == MIAI_OK);
        miai_state_to_move(g, s, &tm);
        if (tm == MIAI_NOBODY) break;
        uint32_t n = 0;
        CHECK(miai_state_legal(g, s, (uint32_t)tm, moves, f.max_legal, &n) == MIAI_OK);
        CHECK(n > 0 && n == f.num_moves - ply);
        uint32_t other = 0;
        CHECK(miai_state_legal(g, s, (uint32_t)(1 - tm), moves, f.max_legal, &other) == MIAI_OK);
        CHECK(other == 0);
        CHECK(miai_state_legal(g, s, (uint32_t)tm, moves, f.max_legal, &n) == MIAI_OK);
        CHECK(miai_state_play(g, s, moves[miai_rng_below(rng, n)]) == MIAI_OK);
        miai_state_ply(g, s, &ply);
    }
    free(moves);
}

static void every_size_plays_consistent_games(void) {
    miai_rng rng;
    miai_rng_seed(&rng, 5);
    for (int kind = 0; kind < 2; kind++) {
        const char *name = kind ? "havannah" : "hex";
        int lo = kind ? 4 : 2, hi = kind ? 10 : 19;
        for (int size = lo; size <= hi; size++) {
            miai_game *g = make(name, size);
            CHECK(g != NULL);
            if (!g) continue;
            miai_game_facts f;
            miai_game_get_facts(g, &f);
            CHECK(f.num_moves == (kind ? (uint32_t)(3 * size * (size - 1) + 1)
                                       : (uint32_t)(size * size)));
            uint8_t *s = malloc(f.state_size);
            for (int i = 0; i < 4; i++) {
                random_game(g, s, &rng, UINT32_MAX);
                int32_t tm;
                miai_state_to_move(g, s, &tm);
                CHECK(tm == MIAI_NOBODY);
                double rw[2];
                CHECK(miai_state_rewards(g, s, rw, 2) == MIAI_OK);
                CHECK(rw[0] + rw[1] == 1.0);
                if (!kind) CHECK(rw[0] == 1.0 || rw[0] == 0.0); /* Hex has no draws */
                char buf[4096];
                CHECK(miai_state_render(g, s, buf, sizeof buf) == MIAI_OK);
                CHECK(strstr(buf, "wins") != NULL || rw[0] == 0.5);
            }
            free(s);
            miai_game_free(g);
        }
    }
}

static void playout_trace_replays_to_the_same_state(void) {
    const char *names[2] = {"hex", "havannah"};
    const int sizes[2] = {11, 8};
    for (int k = 0; k < 2; k++) {
        miai_game *g = make(names[k], sizes[k]);
        CHECK(g != NULL);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *a = malloc(f.state_size), *b = malloc(f.state_size);
        miai_move *trace = malloc(sizeof(miai_move) * f.max_plies);
        miai_rng rng;
        miai_rng_seed(&rng, 77);
        for (int i = 0; i < 20; i++) {
            miai_state_init(g, a);
            uint32_t len = 0;
            uint32_t plies = miai_game_playout(g, a, &rng, trace, f.max_plies, &len);
            CHECK(plies == len && plies > 0);
            CHECK(miai_state_check(g, a) == MIAI_OK);
            miai_state_init(g, b);
            for (uint32_t p = 0; p < len; p++) CHECK(miai_state_play(g, b, trace[p]) == MIAI_OK);
            CHECK(memcmp(a, b, f.state_size) == 0);
            int32_t tm;
            miai_state_to_move(g, a, &tm);
            CHECK(tm == MIAI_NOBODY);
        }
        free(trace);
        free(a);
        free(b);
        miai_game_free(g);
    }
}

static void move_text_round_trips_and_refuses_junk(void) {
    for (int kind = 0; kind < 2; kind++) {
        miai_game *g = make(kind ? "havannah" : "hex", kind ? 10 : 19);
        CHECK(g != NULL);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        char buf[MIAI_MOVE_TEXT_LEN];
        for (miai_move m = 0; m < f.num_moves; m++) {
            miai_move back = UINT32_MAX;
            CHECK(miai_move_to_text(g, 0, m, buf, sizeof buf) == MIAI_OK);
            CHECK(miai_move_from_text(g, 1, buf, &back) == MIAI_OK && back == m);
        }
        const char *junk[] = {"", "a", "1", "a0", "a01", "a100", "t1", "a20", "A", "@1",
                              "a1a", "a-1", "s0", "\x01\x02", "aa1"};
        for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
            miai_move m;
            CHECK(miai_move_from_text(g, 0, junk[i], &m) == MIAI_EINVAL);
        }
        miai_move m;
        /* Havannah: s1 is off the hexagon (x - y too large); Hex 19: s19 is a corner. */
        CHECK(miai_move_from_text(g, 0, "s1", &m) == (kind ? MIAI_EINVAL : MIAI_OK));
        CHECK(miai_move_from_text(g, 0, "s19", &m) == MIAI_OK);
        miai_game_free(g);
    }
}

static void check_catches_corruption(void) {
    for (int kind = 0; kind < 2; kind++) {
        miai_game *g = make(kind ? "havannah" : "hex", kind ? 6 : 7);
        CHECK(g != NULL);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *s = malloc(f.state_size), *bad = malloc(f.state_size);
        miai_rng rng;
        miai_rng_seed(&rng, 3);
        random_game(g, s, &rng, 16);
        CHECK(miai_state_check(g, s) == MIAI_OK);
        /* Every single-byte change past the keys must be caught (or be harmless padding
         * or a stale non-root group datum, which the check tolerates): count catches. */
        uint32_t caught = 0, tried = 0;
        for (uint32_t at = sizeof(miai_head); at < f.state_size; at++) {
            memcpy(bad, s, f.state_size);
            bad[at] ^= 0x01;
            tried++;
            if (miai_state_check(g, bad) == MIAI_ECORRUPT) caught++;
        }
        CHECK(caught > tried / 2);
        /* A wrong side to move and a wrong ply are caught. */
        memcpy(bad, s, f.state_size);
        miai_head_of(bad)->ply++;
        CHECK(miai_state_check(g, bad) == MIAI_ECORRUPT);
        memcpy(bad, s, f.state_size);
        miai_head_of(bad)->to_move = 1 - miai_head_of(bad)->to_move;
        CHECK(miai_state_check(g, bad) == MIAI_ECORRUPT);
        free(s);
        free(bad);
        miai_game_free(g);
    }
}

int main(void) {
    const ctest_case cases[] = {
        {"every_size_plays_consistent_games", every_size_plays_consistent_games},
        {"playout_trace_replays_to_the_same_state", playout_trace_replays_to_the_same_state},
        {"move_text_round_trips_and_refuses_junk", move_text_round_trips_and_refuses_junk},
        {"check_catches_corruption", check_catches_corruption},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
