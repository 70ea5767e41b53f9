/* test_go.c -- the Go game under the sanitizers: random games on every size class with
 * the debug check at every ply, playouts checked at their end, handicap and setup,
 * and every go_api.h entry fed bad arguments. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../games/go_api.h"
#include "ctest.h"

static miai_game *make_go(double size, double komi) {
    double params[3] = {size, komi, 0}; /* light playouts (policy 0) */
    miai_game *g = NULL;
    if (miai_game_create("go", params, 3, &g) != MIAI_OK) return NULL;
    return g;
}

static void random_games_keep_invariants(void) {
    const double sizes[] = {5, 9, 13, 19};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        miai_game *g = make_go(sizes[si], 7.5);
        CHECK(g != NULL);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *s = malloc(f.state_size);
        miai_move *moves = malloc(sizeof(miai_move) * f.max_legal);
        miai_rng rng;
        miai_rng_seed(&rng, 7 + si);
        int games = sizes[si] < 10 ? 6 : 1;
        for (int game = 0; game < games; game++) {
            CHECK(miai_state_init(g, s) == MIAI_OK);
            int32_t tm = 0;
            while (miai_state_to_move(g, s, &tm) == MIAI_OK && tm != MIAI_NOBODY) {
                CHECK(miai_state_check(g, s) == MIAI_OK);
                uint32_t n = 0;
                CHECK(miai_state_legal(g, s, (uint32_t)tm, moves, f.max_legal, &n) == MIAI_OK);
                CHECK(n >= 1 && moves[n - 1] == f.num_moves - 1); /* pass is always legal */
                /* mostly points, so games are long and capture-rich */
                miai_move m = n > 1 && miai_rng_below(&rng, 50) ? moves[miai_rng_below(&rng, n - 1)]
                                                                : moves[n - 1];
                CHECK(miai_state_play(g, s, m) == MIAI_OK);
            }
            CHECK(miai_state_check(g, s) == MIAI_OK);
            double rw[2];
            CHECK(miai_state_rewards(g, s, rw, 2) == MIAI_OK);
            CHECK(rw[0] + rw[1] == 1.0);
        }
        /* playouts from the start and from a mid-game position end consistent */
        for (int k = 0; k < 20; k++) {
            miai_state_init(g, s);
            if (k % 2) miai_game_playout(g, s, &rng, NULL, 0, NULL);
            CHECK(miai_state_check(g, s) == MIAI_OK);
            miai_state_init(g, s);
            for (int ply = 0; ply < 10; ply++) {
                uint32_t n = 0;
                miai_state_legal(g, s, (uint32_t)(ply % 2), moves, f.max_legal, &n);
                miai_state_play(g, s, moves[miai_rng_below(&rng, n - 1)]);
            }
            uint32_t plies = miai_game_playout(g, s, &rng, NULL, 0, NULL);
            CHECK(plies > 0);
            CHECK(miai_state_check(g, s) == MIAI_OK);
            int32_t over = 0;
            miai_state_is_terminal(g, s, &over);
            CHECK(over == 1);
        }
        free(moves);
        free(s);
        miai_game_free(g);
    }
}

static void two_games_in_one_process_do_not_interfere(void) {
    miai_game *a = make_go(9, 7.5), *b = make_go(9, 0.5);
    CHECK(a && b);
    if (!a || !b) {
        miai_game_free(a);
        miai_game_free(b);
        return;
    }
    miai_game_facts f;
    miai_game_get_facts(a, &f);
    uint8_t *sa = malloc(f.state_size), *sb = malloc(f.state_size);
    miai_state_init(a, sa);
    miai_state_init(b, sb);
    CHECK(memcmp(sa, sb, f.state_size) == 0); /* komi is not part of the state */
    double ra[2], rb[2];
    uint64_t pa, pb;
    CHECK(miai_playouts(a, sa, 30, 5, ra, 2, &pa) == MIAI_OK);
    CHECK(miai_playouts(b, sb, 30, 5, rb, 2, &pb) == MIAI_OK);
    CHECK(pa == pb); /* the same games, scored with different komi */
    CHECK(ra[0] <= rb[0]); /* more komi, fewer black wins */
    free(sa);
    free(sb);
    miai_game_free(a);
    miai_game_free(b);
}

static void handicap_and_setup(void) {
    miai_game *g = make_go(19, 0.5);
    CHECK(g != NULL);
    if (!g) return;
    miai_game_facts f;
    miai_game_get_facts(g, &f);
    uint8_t *s = malloc(f.state_size);
    miai_state_init(g, s);
    CHECK(go_place_fixed_handicap(g, s, 9) == MIAI_OK);
    CHECK(miai_state_check(g, s) == MIAI_OK);
    int32_t tm;
    miai_state_to_move(g, s, &tm);
    CHECK(tm == 1);
    uint8_t colors[361];
    CHECK(go_colors(g, s, colors, 361) == MIAI_OK);
    uint32_t black = 0;
    for (int i = 0; i < 361; i++) black += colors[i] == GO_COLOR_BLACK;
    CHECK(black == 9);
    CHECK(go_place_fixed_handicap(g, s, 2) == MIAI_ESTATE);
    /* setup: a white stone in atari is fine, one without liberties is not */
    miai_state_init(g, s);
    miai_move pts[3] = {1, 19, 0};
    uint8_t cols[3] = {GO_COLOR_BLACK, GO_COLOR_BLACK, GO_COLOR_WHITE};
    uint8_t *before = malloc(f.state_size);
    memcpy(before, s, f.state_size);
    CHECK(go_setup_stones(g, s, pts, cols, 3, 0) == MIAI_EINVAL);
    CHECK(memcmp(before, s, f.state_size) == 0);
    CHECK(go_setup_stones(g, s, pts, cols, 2, 1) == MIAI_OK);
    CHECK(miai_state_check(g, s) == MIAI_OK);
    CHECK(miai_state_play(g, s, 0) == MIAI_EILLEGAL); /* suicide */
    free(before);
    free(s);
    miai_game_free(g);
}

static void bad_arguments_are_refused(void) {
    miai_game *g = make_go(9, 7.5), *ttt = NULL;
    CHECK(miai_game_create("tictactoe", NULL, 0, &ttt) == MIAI_OK);
    double endless[3] = {9, INFINITY, 0}, none[3] = {9, NAN, 0}, big[3] = {21, 7.5, 0},
           pol[3] = {9, 7.5, 512}, quarter[3] = {9, 6.25, 0};
    miai_game *bad = NULL, *any_komi = NULL;
    CHECK(miai_game_create("go", endless, 3, &bad) == MIAI_EINVAL && bad == NULL);
    CHECK(miai_game_create("go", none, 3, &bad) == MIAI_EINVAL && bad == NULL);
    CHECK(miai_game_create("go", quarter, 3, &any_komi) == MIAI_OK); /* GTP: any komi */
    miai_game_free(any_komi);
    CHECK(miai_game_create("go", big, 3, &bad) == MIAI_EINVAL);
    CHECK(miai_game_create("go", pol, 3, &bad) == MIAI_EINVAL && bad == NULL);
    if (!g || !ttt) {
        miai_game_free(g);
        miai_game_free(ttt);
        return;
    }
    miai_game_facts f;
    miai_game_get_facts(g, &f);
    uint8_t *s = malloc(f.state_size);
    miai_state_init(g, s);
    uint32_t u, u2, len;
    double d;
    miai_move mv[400];
    uint8_t flags[400];
    char text[200];
    double share[81], terr[81];
    uint32_t bc[81] = {0}, wc[81] = {0};
    CHECK(go_get_size(NULL, &u, &d) == MIAI_EINVAL);
    CHECK(go_get_size(ttt, &u, &d) == MIAI_EINVAL);
    CHECK(go_get_size(g, NULL, &d) == MIAI_EINVAL);
    CHECK(go_get_size(g, &u, &d) == MIAI_OK && u == 9 && d == 7.5);
    CHECK(go_fixed_handicap_points(g, 1, mv, 9, &u) == MIAI_EINVAL);
    CHECK(go_fixed_handicap_points(g, 10, mv, 9, &u) == MIAI_EINVAL);
    CHECK(go_fixed_handicap_points(g, 9, mv, 8, &u) == MIAI_EINVAL);
    CHECK(go_fixed_handicap_points(g, 9, NULL, 9, &u) == MIAI_EINVAL);
    CHECK(go_fixed_handicap_points(ttt, 2, mv, 9, &u) == MIAI_EINVAL);
    mv[0] = 0;
    mv[1] = 81;
    CHECK(go_place_handicap(g, s, mv, 2) == MIAI_EINVAL);
    mv[1] = 0;
    CHECK(go_place_handicap(g, s, mv, 2) == MIAI_EINVAL); /* twice the same point */
    CHECK(go_place_handicap(g, s, mv, 1) == MIAI_EINVAL);
    CHECK(go_place_handicap(g, s, mv, 81) == MIAI_EINVAL);
    CHECK(go_place_handicap(g, s, NULL, 2) == MIAI_EINVAL);
    CHECK(go_place_handicap(ttt, s, mv, 2) == MIAI_EINVAL);
    CHECK(go_place_fixed_handicap(g, NULL, 2) == MIAI_EINVAL);
    uint8_t cols[2] = {3, 1};
    mv[1] = 1;
    CHECK(go_setup_stones(g, s, mv, cols, 2, 0) == MIAI_EINVAL);
    cols[0] = 1;
    CHECK(go_setup_stones(g, s, mv, cols, 2, 2) == MIAI_EINVAL);
    CHECK(go_setup_stones(g, s, mv, NULL, 2, 0) == MIAI_EINVAL);
    CHECK(go_setup_stones(g, s, mv, cols, 100000, 0) == MIAI_EINVAL);
    CHECK(go_colors(g, s, flags, 80) == MIAI_EINVAL);
    CHECK(go_colors(g, NULL, flags, 81) == MIAI_EINVAL);
    CHECK(go_captures(g, s, NULL, &u) == MIAI_EINVAL);
    CHECK(go_ko_point(g, s, NULL) == MIAI_EINVAL);
    CHECK(go_ko_point(g, s, mv) == MIAI_OK && mv[0] == 81);
    memset(flags, 1, sizeof flags);
    CHECK(go_score(g, s, flags, 80, &u, &u2, &d) == MIAI_EINVAL);
    CHECK(go_score(g, s, NULL, 0, &u, &u2, NULL) == MIAI_EINVAL);
    CHECK(go_score(g, s, flags, 81, &u, &u2, &d) == MIAI_OK && u == 0 && u2 == 0);
    CHECK(go_owners(g, s, NULL, 0, flags, 80) == MIAI_EINVAL);
    CHECK(go_owners(g, s, flags, 3, flags, 81) == MIAI_EINVAL);
    CHECK(go_ownership(g, s, 0, 1, share, terr, 81) == MIAI_EINVAL);
    CHECK(go_ownership(g, s, 5, 1, share, terr, 80) == MIAI_EINVAL);
    CHECK(go_ownership(g, s, 5, 1, NULL, NULL, 81) == MIAI_OK);
    CHECK(go_ownership_add(g, s, NULL, wc, 81) == MIAI_EINVAL);
    CHECK(go_ownership_add(g, s, bc, wc, 80) == MIAI_EINVAL);
    CHECK(go_territory(g, bc, wc, 0, terr, 81) == MIAI_EINVAL);
    bc[3] = 5;
    CHECK(go_territory(g, bc, wc, 4, terr, 81) == MIAI_EINVAL); /* count above n */
    CHECK(go_dead_stones(g, s, 0, 1, flags, 81) == MIAI_EINVAL);
    CHECK(go_dead_stones(g, s, 3, 1, flags, 80) == MIAI_EINVAL);
    CHECK(go_playout_trace(g, s, 1, NULL, 5, &len, &u) == MIAI_EINVAL);
    CHECK(go_playout_trace(g, s, 1, mv, 3, &len, &u) == MIAI_OK && len == 3 && u > 3);
    CHECK(go_board_text(g, s, text, 0) == MIAI_EINVAL);
    CHECK(go_board_text(g, s, text, 5) == MIAI_OK && strlen(text) == 4);
    CHECK(go_board_text(g, s, text, sizeof text) == MIAI_OK && strlen(text) == 90);
    int32_t taken = 7;
    CHECK(go_ladder_captures(g, s, 0, &taken) == MIAI_EINVAL && taken == 7); /* empty */
    CHECK(go_ladder_captures(g, s, 81, &taken) == MIAI_EINVAL);
    CHECK(go_ladder_captures(g, NULL, 0, &taken) == MIAI_EINVAL);
    CHECK(go_ladder_captures(g, s, 0, NULL) == MIAI_EINVAL);
    CHECK(go_ladder_captures(ttt, s, 0, &taken) == MIAI_EINVAL);
    CHECK(go_play_as(g, s, 2, 0) == MIAI_EINVAL);
    CHECK(go_play_as(g, s, 0, 82) == MIAI_EINVAL);
    CHECK(go_play_as(ttt, s, 0, 0) == MIAI_EINVAL);
    CHECK(go_play_as(g, NULL, 0, 0) == MIAI_EINVAL);
    CHECK(go_play_as(g, s, 1, 40) == MIAI_OK && miai_state_check(g, s) == MIAI_OK);
    CHECK(go_play_as(g, s, 0, 40) == MIAI_EILLEGAL);
    /* The knowledge hooks a search uses (game.h): Go fills them, tictactoe does not.
     * One white stone in the centre: white's area is the whole board. */
    const miai_game_ops *ops = g->ops;
    CHECK(ops->prior_kinds && ops->owner_points && ops->owner_add);
    CHECK(!ttt->ops->prior_kinds && !ttt->ops->owner_points && !ttt->ops->owner_add);
    CHECK(ops->owner_points(g) == 81);
    uint32_t ob[81] = {0}, ow[81] = {0};
    CHECK(ops->owner_add(g, s, ob, ow, 80) == MIAI_EINVAL);
    CHECK(ops->owner_add(g, s, NULL, ow, 81) == MIAI_EINVAL);
    CHECK(ops->owner_add(g, s, ob, ow, 81) == MIAI_OK);
    CHECK(go_ownership_add(g, s, ob, ow, 81) == MIAI_OK);
    for (uint32_t p = 0; p < 81; p++) CHECK(ob[p] == 0 && ow[p] == 2);
    int8_t kind[2] = {9, 9};
    miai_move pm[2] = {40, 81}; /* the occupied centre (no kind), a pass (bad: empty board) */
    CHECK(ops->prior_kinds(g, s, pm, 2, kind) == MIAI_OK && kind[0] == 0 && kind[1] == -1);
    pm[0] = 82;
    CHECK(ops->prior_kinds(g, s, pm, 1, kind) == MIAI_EINVAL);
    miai_move m;
    const char *junk[] = {"i5", "a0", "a10", "z1", "a-1", "a1a", "passx", "", "a", "a01"};
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++)
        CHECK(miai_move_from_text(g, 0, junk[i], &m) == MIAI_EINVAL);
    CHECK(miai_move_from_text(g, 0, "j9", &m) == MIAI_OK && m == 8);
    free(s);
    miai_game_free(g);
    miai_game_free(ttt);
}

/* The priors with every knowledge bit (line and ladder rules read ladders on copies)
 * at every ply of random games on 9x9 and 19x19: OK, kinds in -1..1, state unchanged. */
static void priors_with_ladders_leave_the_state_alone(void) {
    const double sizes[] = {9, 19};
    for (size_t si = 0; si < 2; si++) {
        double params[3] = {sizes[si], 7.5, 63};
        miai_game *g = NULL;
        CHECK(miai_game_create("go", params, 3, &g) == MIAI_OK);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *s = malloc(f.state_size), *copy = malloc(f.state_size);
        miai_move *moves = malloc(sizeof(miai_move) * f.max_legal);
        int8_t *kind = malloc(f.max_legal);
        miai_rng rng;
        miai_rng_seed(&rng, 11 + si);
        CHECK(miai_state_init(g, s) == MIAI_OK);
        int32_t tm = 0;
        uint32_t plies = 0;
        while (miai_state_to_move(g, s, &tm) == MIAI_OK && tm != MIAI_NOBODY && plies < 400) {
            uint32_t n = 0;
            CHECK(miai_state_legal(g, s, (uint32_t)tm, moves, f.max_legal, &n) == MIAI_OK);
            memcpy(copy, s, f.state_size);
            CHECK(g->ops->prior_kinds(g, s, moves, n, kind) == MIAI_OK);
            CHECK(memcmp(copy, s, f.state_size) == 0);
            for (uint32_t i = 0; i < n; i++) CHECK(kind[i] >= -1 && kind[i] <= 1);
            miai_move m = n > 1 && miai_rng_below(&rng, 50) ? moves[miai_rng_below(&rng, n - 1)]
                                                            : moves[n - 1];
            CHECK(miai_state_play(g, s, m) == MIAI_OK);
            plies++;
        }
        free(kind);
        free(moves);
        free(copy);
        free(s);
        miai_game_free(g);
    }
}

int main(void) {
    const ctest_case cases[] = {
        {"random_games_keep_invariants", random_games_keep_invariants},
        {"two_games_in_one_process_do_not_interfere", two_games_in_one_process_do_not_interfere},
        {"handicap_and_setup", handicap_and_setup},
        {"bad_arguments_are_refused", bad_arguments_are_refused},
        {"priors_with_ladders_leave_the_state_alone", priors_with_ladders_leave_the_state_alone},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
