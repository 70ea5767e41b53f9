/* test_go_liberties.c -- the heavy policy's O(1) board readings against plain flood
 * fills, after every move of many random games on every size class: the liberty of a
 * group in atari from its pseudo-liberty sums (go_atari_lib), "two liberties after
 * playing here" (go_two_libs_after, and go_libs_after's walk), the bad self-atari test
 * and the 3x3 pattern code (one load per row) at every empty point for both colours.
 * The board's own invariants (go_check_board) are checked at every move too. */
#include <string.h>

#include "../core/game.h"
#include "../games/go_board.h"
#include "../games/go_policy.h"
#include "ctest.h"

/* A flood fill of the chain at p: its stones into mark[] (= stamp), returns the
 * number of stones; *libs = its distinct liberties, *lib = one of them. */
static uint32_t chain(const go_view *v, uint32_t p, uint16_t *mark, uint16_t stamp,
                      uint32_t *libs, uint32_t *lib) {
    uint16_t stack[GO_MAX_POINTS], seen_lib[GO_MAX_POINTS];
    const uint32_t W = v->W, c = v->color[p];
    memset(seen_lib, 0, sizeof seen_lib);
    uint32_t sp = 0, n = 0;
    *libs = 0;
    *lib = 0;
    stack[sp++] = (uint16_t)p;
    mark[p] = stamp;
    while (sp) {
        uint32_t q = stack[--sp];
        n++;
        const uint32_t nbs[4] = {q - W, q - 1, q + 1, q + W};
        for (int k = 0; k < 4; k++) {
            uint32_t r = nbs[k];
            if (v->color[r] == GO_EMPTY && !seen_lib[r]) {
                seen_lib[r] = 1;
                ++*libs;
                *lib = r;
            } else if (v->color[r] == c && mark[r] != stamp) {
                mark[r] = stamp;
                stack[sp++] = (uint16_t)r;
            }
        }
    }
    return n;
}

/* By flood fills: the size of the group c would form at empty p, whether it captures,
 * and the number (capped at 2) of go_libs_after's points. */
static void after_move(const go_view *v, uint32_t p, uint32_t c, uint32_t *size,
                       bool *captures, uint32_t *libs2) {
    uint16_t mark[GO_MAX_POINTS];
    uint8_t in_set[GO_MAX_POINTS];
    memset(mark, 0, sizeof mark);
    memset(in_set, 0, sizeof in_set);
    const uint32_t W = v->W, o = 3 - c;
    const uint32_t nbs[4] = {p - W, p - 1, p + 1, p + W};
    uint32_t n_set = 0;
    *size = 1;
    *captures = false;
    for (int k = 0; k < 4; k++) {
        uint32_t n = nbs[k], cn = v->color[n], libs, lib;
        if (cn == GO_EMPTY) {
            n_set += !in_set[n];
            in_set[n] = 1;
        } else if (cn == o) {
            uint16_t other[GO_MAX_POINTS];
            memset(other, 0, sizeof other);
            chain(v, n, other, 1, &libs, &lib);
            if (libs == 1 && lib == p) {
                *captures = true;
                n_set += !in_set[n];
                in_set[n] = 1;
            }
        } else if (cn == c && !mark[n]) {
            *size += chain(v, n, mark, 1, &libs, &lib);
        }
    }
    /* the own chains' liberties other than p */
    for (uint32_t q = 0; q < v->d->n_points; q++) {
        if (mark[q] != 1) continue;
        const uint32_t around[4] = {q - W, q - 1, q + 1, q + W};
        for (int k = 0; k < 4; k++) {
            uint32_t r = around[k];
            if (v->color[r] == GO_EMPTY && r != p && !in_set[r]) {
                in_set[r] = 1;
                n_set++;
            }
        }
    }
    *libs2 = n_set < 2 ? n_set : 2;
}

static uint32_t code_by_bytes(const go_view *v, uint32_t p) {
    const int32_t W = (int32_t)v->W;
    const int32_t ring[8] = {-W - 1, -W, -W + 1, -1, 1, W - 1, W, W + 1};
    uint32_t code = 0;
    for (int k = 0; k < 8; k++) code |= (uint32_t)v->color[(int32_t)p + ring[k]] << (2 * k);
    return code;
}

/* How often each case came up, so the test shows it covers them. */
typedef struct {
    uint64_t in_atari, libs2[3], captures, bad;
} tally;

/* Every reading at every point of the position. */
static void check_position(const go_view *v, tally *t) {
    const go_data *d = v->d;
    uint16_t mark[GO_MAX_POINTS];
    memset(mark, 0, sizeof mark);
    for (uint32_t m = 0; m < d->n_moves; m++) {
        uint32_t p = d->point_of_move[m], cp = v->color[p];
        if (go_is_stone(cp)) {
            uint32_t libs, lib;
            chain(v, p, mark, (uint16_t)(m + 1), &libs, &lib);
            CHECK(go_atari_lib(v, v->gid[p]) == (libs == 1 ? lib : 0));
            t->in_atari += libs == 1;
            continue;
        }
        CHECK(go_pattern_code(v, p) == code_by_bytes(v, p));
        for (uint32_t c = GO_BLACK; c <= GO_WHITE; c++) {
            uint32_t size, libs2;
            bool captures;
            after_move(v, p, c, &size, &captures, &libs2);
            CHECK(go_libs_after(v, p, c, 2) == libs2);
            CHECK(go_two_libs_after(v, p, c) == (libs2 >= 2));
            CHECK(go_captures_at(v, p, c) == captures);
            bool bad = size >= GO_SELF_ATARI_MIN && !captures && libs2 < 2;
            CHECK(go_is_bad_self_atari(v, p, c) == bad);
            t->libs2[libs2]++;
            t->captures += captures;
            t->bad += bad;
        }
    }
}

static void readings_match_flood_fills(void) {
    const double sizes[] = {5, 7, 9, 13, 19};
    const int games[] = {30, 20, 12, 2, 1};
    tally t = {0};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        double params[3] = {sizes[si], 7.5, 0};
        miai_game *g = NULL;
        CHECK(miai_game_create("go", params, 3, &g) == MIAI_OK);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *s = malloc(f.state_size);
        miai_move *moves = malloc(sizeof(miai_move) * f.max_legal);
        miai_rng rng;
        miai_rng_seed(&rng, 31 + si);
        for (int game = 0; game < games[si]; game++) {
            CHECK(miai_state_init(g, s) == MIAI_OK);
            go_view v = go_view_of(g->data, s);
            int32_t tm = 0;
            while (miai_state_to_move(g, s, &tm) == MIAI_OK && tm != MIAI_NOBODY) {
                CHECK(miai_state_check(g, s) == MIAI_OK);
                check_position(&v, &t);
                uint32_t n = 0;
                CHECK(miai_state_legal(g, s, (uint32_t)tm, moves, f.max_legal, &n) == MIAI_OK);
                /* mostly points, so games are long, with big groups, ataris, captures */
                miai_move mv = n > 1 && miai_rng_below(&rng, 60) ? moves[miai_rng_below(&rng, n - 1)]
                                                                 : moves[n - 1];
                CHECK(miai_state_play(g, s, mv) == MIAI_OK);
            }
        }
        free(s);
        free(moves);
        miai_game_free(g);
    }
    printf("stones in atari %llu, points with 0/1/2+ liberties after %llu/%llu/%llu, "
           "captures %llu, bad self-ataris %llu\n",
           (unsigned long long)t.in_atari, (unsigned long long)t.libs2[0],
           (unsigned long long)t.libs2[1], (unsigned long long)t.libs2[2],
           (unsigned long long)t.captures, (unsigned long long)t.bad);
    CHECK(t.in_atari > 1000 && t.libs2[0] > 100 && t.libs2[1] > 1000 && t.captures > 1000 &&
          t.bad > 1000);
}

int main(void) {
    const ctest_case cases[] = {
        {"readings_match_flood_fills", readings_match_flood_fills},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
