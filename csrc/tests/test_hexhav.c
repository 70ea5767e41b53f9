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

/* Flip one bit at byte `at`, store keys that agree with the new contents (so only the
 * game's own check can notice), and run the check. */
static int check_after_rekeyed_flip(miai_game *g, const uint8_t *s, uint8_t *bad, size_t size,
                                    size_t at, uint8_t bit) {
    memcpy(bad, s, size);
    bad[at] ^= bit;
    uint64_t k1, k2;
    miai_state_key_full(g, bad, &k1, &k2);
    miai_head_of(bad)->key = k1;
    miai_head_of(bad)->key2 = k2;
    return miai_state_check(g, bad);
}

/* The state layouts of hex.c and havannah.c: head, occ[2][words], winner byte(s) and
 * padding, then uint16_t parent[cells], then the root data (uint8_t edges / uint16_t
 * marks per cell). */
static void check_catches_corruption(void) {
    for (int kind = 0; kind < 2; kind++) {
        int size = kind ? 6 : 7;
        miai_game *g = make(kind ? "havannah" : "hex", size);
        CHECK(g != NULL);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        size_t words = kind ? 5 : 6, occ_at = sizeof(miai_head), occ_end = occ_at + 16 * words;
        size_t parent_at = occ_end + 8, cells = f.num_moves;
        size_t root_at = parent_at + 2 * cells, root_width = kind ? 2 : 1;
        uint8_t *s = malloc(f.state_size), *bad = malloc(f.state_size);
        miai_rng rng;
        miai_rng_seed(&rng, 3);
        random_game(g, s, &rng, 20);
        CHECK(miai_state_check(g, s) == MIAI_OK);
        /* Every stone added, removed or recoloured is caught. */
        for (size_t at = occ_at; at < occ_end; at++)
            for (int b = 0; b < 8; b++)
                CHECK(check_after_rekeyed_flip(g, s, bad, f.state_size, at, (uint8_t)(1 << b)) ==
                      MIAI_ECORRUPT);
        /* The winner byte. */
        CHECK(check_after_rekeyed_flip(g, s, bad, f.state_size, occ_end, 1) == MIAI_ECORRUPT);
        /* Parent links: a flip that leaves a valid forest of the same groups is harmless;
         * most flips do not, and are caught. */
        uint32_t caught = 0, tried = 0;
        for (size_t at = parent_at; at < root_at; at++)
            for (int b = 0; b < 8; b++, tried++)
                caught += check_after_rekeyed_flip(g, s, bad, f.state_size, at,
                                                   (uint8_t)(1 << b)) == MIAI_ECORRUPT;
        CHECK(caught * 10 > tried * 9);
        /* The edges (Hex) or corner and side marks (Havannah) of every group's root. */
        const uint16_t *parent = (const uint16_t *)(s + parent_at);
        uint32_t roots = 0;
        for (size_t c = 0; c < cells; c++) {
            bool stone = false;
            for (int r = 0; r < 2; r++)
                stone |= (s[occ_at + 8 * (words * (size_t)r + c / 64) + (c % 64) / 8] >> (c % 8)) & 1;
            if (!stone || parent[c] != c) continue;
            roots++;
            for (int b = 0; b < (kind ? 12 : 2); b++) {
                size_t at = root_at + root_width * c + (size_t)(b / 8);
                CHECK(check_after_rekeyed_flip(g, s, bad, f.state_size, at,
                                               (uint8_t)(1 << (b % 8))) == MIAI_ECORRUPT);
            }
        }
        CHECK(roots > 0);
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

/* States of random bytes (as a buggy or hostile owner could make them): every entry
 * point must survive them; the sanitizers catch any out-of-bounds access. */
static void garbage_states_are_survived(void) {
    miai_rng rng;
    miai_rng_seed(&rng, 11);
    const char *names[2] = {"hex", "havannah"};
    const int sizes[2][3] = {{2, 9, 19}, {4, 7, 10}};
    for (int k = 0; k < 2; k++)
        for (int z = 0; z < 3; z++) {
            miai_game *g = make(names[k], sizes[k][z]);
            CHECK(g != NULL);
            if (!g) continue;
            miai_game_facts f;
            miai_game_get_facts(g, &f);
            uint8_t *s = malloc(f.state_size);
            miai_move *moves = malloc(sizeof(miai_move) * f.max_legal);
            for (int i = 0; i < 300; i++) {
                if (i % 2) {
                    /* A real position with a few bytes past the head overwritten. */
                    random_game(g, s, &rng, miai_rng_below(&rng, f.max_plies));
                    for (uint32_t j = 0, n_bad = 1 + miai_rng_below(&rng, 4); j < n_bad; j++) {
                        uint32_t at = (uint32_t)sizeof(miai_head) +
                                      miai_rng_below(&rng, f.state_size - sizeof(miai_head));
                        s[at] = (uint8_t)miai_rng_next(&rng);
                    }
                } else {
                    for (uint32_t b = 0; b < f.state_size; b++)
                        s[b] = (uint8_t)miai_rng_next(&rng);
                    if (i % 3) miai_head_of(s)->to_move = (int32_t)(i % 3) - 1; /* -1.. 1 */
                    if (i % 5 == 0) miai_head_of(s)->to_move = MIAI_NOBODY;
                    if (i % 4) miai_head_of(s)->ply = miai_rng_below(&rng, f.max_plies);
                }
                uint32_t n = 0;
                miai_state_legal(g, s, 0, moves, f.max_legal, &n);
                CHECK(n <= f.max_legal);
                miai_state_legal(g, s, 1, moves, f.max_legal, &n);
                CHECK(n <= f.max_legal);
                (void)miai_state_check(g, s);
                char buf[2048];
                CHECK(miai_state_render(g, s, buf, sizeof buf) == MIAI_OK);
                double rw[2];
                (void)miai_state_rewards(g, s, rw, 2);
                uint64_t k1, k2, leaves, plies;
                CHECK(miai_state_key_full(g, s, &k1, &k2) == MIAI_OK);
                uint8_t *copy = malloc(f.state_size);
                memcpy(copy, s, f.state_size);
                (void)miai_playouts(g, copy, 2, (uint64_t)i, rw, 2, &plies);
                (void)miai_perft(g, copy, 1, &leaves);
                for (int step = 0; step < 8; step++)
                    (void)miai_state_play(g, copy, (miai_move)miai_rng_below(&rng, f.num_moves));
                free(copy);
            }
            free(moves);
            free(s);
            miai_game_free(g);
        }
}

int main(void) {
    const ctest_case cases[] = {
        {"every_size_plays_consistent_games", every_size_plays_consistent_games},
        {"playout_trace_replays_to_the_same_state", playout_trace_replays_to_the_same_state},
        {"move_text_round_trips_and_refuses_junk", move_text_round_trips_and_refuses_junk},
        {"check_catches_corruption", check_catches_corruption},
        {"garbage_states_are_survived", garbage_states_are_survived},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
