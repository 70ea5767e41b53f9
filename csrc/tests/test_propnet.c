/* test_propnet.c -- a tiny hand-built GDL propnet under the sanitizers: its game
 * through the public API (init, legal, play, keys, rewards through a cyclic range,
 * text round trips) with and without the cycle, the playout engines against the plain
 * play, and malformed descriptions refused with a status code. */
#include <stdio.h>
#include <string.h>

#include "../core/game.h"
#include "../gdl/gdl_api.h"
#include "ctest.h"
#include "gdl_cases.h"

/* 40 playouts from s by `engine` (MIAI_GDL_ENGINE_*), each checked ply by ply against
 * the plain play (miai_gdl_playout_check); the longest, in plies. */
static uint32_t longest_checked_playout(const miai_game *g, const void *s, int engine) {
    uint32_t len = 0, longest = 0;
    for (uint64_t seed = 0; seed < 40; seed++) {
        CHECK(miai_gdl_playout_check(g, s, seed, engine, &len) == MIAI_OK);
        if (len > longest) longest = len;
    }
    return longest;
}

/* The tiny game (acyclic: its variant without the cycle) through the public API. */
static void tiny_plays(int acyclic) {
    miai_gdl_desc d = acyclic ? gdl_tiny_acyclic() : gdl_tiny();
    miai_game *g = NULL;
    CHECK(miai_gdl_create(&d, &g) == MIAI_OK);
    if (!g) return;
    miai_game_facts f;
    CHECK(miai_game_get_facts(g, &f) == MIAI_OK);
    CHECK(f.n_roles == 2 && f.num_moves == 2 && f.max_legal == 2);
    uint8_t *s = malloc(f.state_size);
    CHECK(miai_state_init(g, s) == MIAI_OK);
    int32_t tm = 99;
    miai_state_to_move(g, s, &tm);
    CHECK(tm == 0); /* only a has a choice */
    miai_move moves[2];
    uint32_t n = 9;
    CHECK(miai_state_legal(g, s, 0, moves, 2, &n) == MIAI_OK && n == 2);
    CHECK(miai_state_legal(g, s, 1, moves, 2, &n) == MIAI_OK && n == 0);
    CHECK(miai_gdl_state_legal_all(g, s, 1, moves, 2, &n) == MIAI_OK && n == 1);
    uint64_t k0, k0b;
    miai_state_key(g, s, &k0, &k0b);
    CHECK(miai_state_play(g, s, 1) == MIAI_OK); /* stay */
    uint64_t k1, k1b;
    miai_state_key(g, s, &k1, &k1b);
    CHECK(k1 == k0 && k1b == k0b);
    CHECK(miai_state_check(g, s) == MIAI_OK);
    CHECK(miai_state_play(g, s, 0) == MIAI_OK); /* go: step 1 */
    CHECK(miai_state_check(g, s) == MIAI_OK);
    uint8_t bases[3];
    CHECK(miai_gdl_state_bases(g, s, bases, 3) == MIAI_OK);
    CHECK(bases[0] == 0 && bases[1] == 1 && bases[2] == 0);
    double r[2];
    CHECK(miai_state_rewards(g, s, r, 2) == MIAI_ESTATE);
    CHECK(miai_state_play(g, s, 0) == MIAI_OK); /* go: step 2, terminal */
    miai_state_to_move(g, s, &tm);
    CHECK(tm == MIAI_NOBODY);
    CHECK(miai_state_rewards(g, s, r, 2) == MIAI_OK);
    CHECK(r[0] == 1.0 && r[1] == 0.0);
    CHECK(miai_state_play(g, s, 0) == MIAI_ETERMINAL);
    char buf[MIAI_MOVE_TEXT_LEN];
    miai_move m = 9;
    CHECK(miai_move_to_text(g, 0, 1, buf, sizeof buf) == MIAI_OK && strcmp(buf, "stay") == 0);
    CHECK(miai_move_to_text(g, 1, 1, buf, sizeof buf) == MIAI_EINVAL);
    CHECK(miai_move_from_text(g, 1, "  NOOP ", &m) == MIAI_OK && m == 0);
    CHECK(miai_move_from_text(g, 0, "jump", &m) == MIAI_EINVAL);
    char text[256];
    CHECK(miai_state_render(g, s, text, sizeof text) == MIAI_OK);
    CHECK(strcmp(text, "(step 2)\n") == 0);
    double mean[2];
    uint64_t plies = 0;
    CHECK(miai_playouts(g, s, 10, 1, mean, 2, &plies) == MIAI_OK && plies == 0);
    CHECK(miai_state_init(g, s) == MIAI_OK);
    CHECK(miai_playouts(g, s, 200, 1, mean, 2, &plies) == MIAI_OK);
    CHECK(plies >= 400 && mean[0] == 1.0 && mean[1] == 0.0);
    /* the differential playout engine (through the cyclic range, if any) and the
     * one-word evaluation (acyclic only) equal the plain one */
    CHECK(longest_checked_playout(g, s, MIAI_GDL_ENGINE_DIFF) > 2); /* some "stay" */
    CHECK(longest_checked_playout(g, s, MIAI_GDL_ENGINE_DIFF_CLEAR) > 2);
    uint32_t len = 0;
    if (acyclic)
        CHECK(longest_checked_playout(g, s, MIAI_GDL_ENGINE_BITS) > 2);
    else
        CHECK(miai_gdl_playout_check(g, s, 1, MIAI_GDL_ENGINE_BITS, &len) == MIAI_ELIMIT);
    CHECK(miai_gdl_playout_check(g, s, 1, MIAI_GDL_ENGINE_AUTO, NULL) == MIAI_EINVAL);
    CHECK(miai_gdl_playout_check(g, s, 1, 7, &len) == MIAI_EINVAL);
    CHECK(miai_gdl_playout_check(g, s, 1, -1, &len) == MIAI_EINVAL);
    free(s);
    miai_game_free(g);
}

static void tiny_game_plays(void) {
    tiny_plays(0);
    tiny_plays(1);
}

/* A guard (legal_guard/legal_guarded): role a's two moves are legal only while node
 * 2, (step 0), holds; after "go" a has none, the game is stuck there (terminal) with
 * a at 0 and b at 50.  The plain play and the playout engines agree (acyclic: play()
 * and playouts by the one-word evaluation). */
static void guarded_tiny(int acyclic) {
    miai_gdl_desc d = acyclic ? gdl_tiny_acyclic() : gdl_tiny();
    uint32_t guard[2] = {2, 1};
    uint8_t guarded[3] = {1, 1, 0};
    d.legal_guard = guard;
    d.legal_guarded = guarded;
    uint8_t *s = NULL;
    miai_game *g = game_with_initial_state(&d, &s);
    if (!g) return;
    miai_move moves[2];
    uint32_t n = 9;
    int32_t tm = 99;
    CHECK(miai_state_legal(g, s, 0, moves, 2, &n) == MIAI_OK && n == 2);
    CHECK(miai_state_play(g, s, 1) == MIAI_OK); /* stay */
    CHECK(miai_state_legal(g, s, 0, moves, 2, &n) == MIAI_OK && n == 2);
    CHECK(miai_state_play(g, s, 0) == MIAI_OK); /* go: step 1, a has no move */
    CHECK(miai_gdl_state_legal_all(g, s, 0, moves, 2, &n) == MIAI_OK && n == 0);
    CHECK(miai_gdl_state_legal_all(g, s, 1, moves, 2, &n) == MIAI_OK && n == 1);
    miai_state_to_move(g, s, &tm);
    CHECK(tm == MIAI_NOBODY);
    double r[2];
    CHECK(miai_state_rewards(g, s, r, 2) == MIAI_OK && r[0] == 0.0 && r[1] == 0.5);
    CHECK(miai_state_init(g, s) == MIAI_OK);
    double mean[2];
    uint64_t plies = 0;
    CHECK(miai_playouts(g, s, 200, 3, mean, 2, &plies) == MIAI_OK);
    CHECK(plies >= 200 && mean[0] == 0.0 && mean[1] == 0.5);
    CHECK(longest_checked_playout(g, s, MIAI_GDL_ENGINE_DIFF) > 1);
    CHECK(longest_checked_playout(g, s, MIAI_GDL_ENGINE_DIFF_CLEAR) > 1);
    if (acyclic) CHECK(longest_checked_playout(g, s, MIAI_GDL_ENGINE_BITS) > 1);
    free(s);
    miai_game_free(g);
}

static void guarded_moves_need_their_guard(void) {
    guarded_tiny(0);
    guarded_tiny(1);
}

/* A ladder of K + 1 steps (4 K + 6 nodes): role a "go"es up a step or "stay"s (not on
 * the last step but one, through a NOT), b has "noop"; terminal on the top step, where
 * a gets 100.  Each play is checked against the expected step, keys from scratch and
 * the to_move rule; playouts against the plain play (miai_gdl_playout_check).  With
 * K = 32 (134 nodes) play() uses the differential engine (no word-parallel tables
 * above 128 nodes); with K = 24 (102 nodes) both engines' playouts are checked, the
 * word-parallel one on two words. */
static void ladder_plays(const uint32_t K) {
    const uint32_t BASE0 = 2, GO = BASE0 + K + 1, STAY = GO + 1, NOOP = GO + 2,
                   AND0 = GO + 3, OR0 = AND0 + 2 * K, NOT0 = OR0 + K - 1, N = NOT0 + 1;
    uint8_t kind[N];
    uint32_t arg[N], first[N + 1], in[6 * K], next[K + 1]; /* 4K + 2(K - 1) + 1 */
    uint32_t e = 0;
    memset(arg, 0, sizeof arg);
    for (uint32_t i = 0; i < N; i++) {
        first[i] = e;
        if (i < BASE0) kind[i] = i == 0 ? MIAI_PN_FALSE : MIAI_PN_TRUE;
        else if (i < GO) kind[i] = MIAI_PN_BASE, arg[i] = i - BASE0;
        else if (i < AND0) kind[i] = MIAI_PN_INPUT, arg[i] = i - GO;
        else if (i < OR0) { /* step k and go, then step k and stay */
            uint32_t k = (i - AND0) / 2;
            kind[i] = MIAI_PN_AND;
            in[e++] = BASE0 + k;
            in[e++] = (i - AND0) % 2 ? STAY : GO;
        } else if (i < NOT0) { /* next (step k + 1): up from k, or stay on k + 1 */
            uint32_t k = i - OR0;
            kind[i] = MIAI_PN_OR;
            in[e++] = AND0 + 2 * k;
            in[e++] = AND0 + 2 * (k + 1) + 1;
        } else {
            kind[i] = MIAI_PN_NOT;
            in[e++] = BASE0 + K - 1;
        }
    }
    first[N] = e;
    next[0] = AND0 + 1;
    for (uint32_t k = 1; k < K; k++) next[k] = OR0 + k - 1;
    next[K] = AND0 + 2 * (K - 1);
    uint8_t init[K + 1];
    memset(init, 0, sizeof init);
    init[0] = 1;
    char texts[K + 1][16];
    const char *base_text[K + 1], *move_text[3] = {"go", "stay", "noop"};
    for (uint32_t k = 0; k <= K; k++) {
        snprintf(texts[k], sizeof texts[k], "(step %u)", k);
        base_text[k] = texts[k];
    }
    uint32_t n_moves[2] = {2, 1}, legal[3] = {1, NOT0, 1};
    uint32_t goal_role[2] = {0, 1}, goal_value[2] = {100, 0}, goal_node[2] = {BASE0 + K, 1};
    miai_gdl_desc d = {
        .n_nodes = N, .kind = kind, .arg = arg, .first_in = first, .in = in,
        .n_base = K + 1, .next_node = next, .init = init, .base_text = base_text,
        .n_roles = 2, .n_moves = n_moves, .legal_node = legal, .move_text = move_text,
        .terminal_node = BASE0 + K, .n_goals = 2, .goal_role = goal_role,
        .goal_value = goal_value, .goal_node = goal_node, .max_plies = 200, .seed = 5,
        .name = "ladder"};
    CHECK(N >= 64); /* PN_DIFF_PLAY_MIGDL_TINY_NODES */
    uint8_t *s = NULL;
    miai_game *g = game_with_initial_state(&d, &s);
    if (!g) return;
    uint8_t bases[K + 1];
    miai_move moves[2];
    uint32_t n = 0;
    int32_t tm = 99;
    CHECK(miai_state_play(g, s, 1) == MIAI_OK); /* stay on 0 */
    for (uint32_t k = 1; k <= K; k++) {
        CHECK(miai_state_play(g, s, 0) == MIAI_OK); /* go: step k */
        CHECK(miai_state_check(g, s) == MIAI_OK);   /* keys from scratch */
        CHECK(miai_gdl_state_bases(g, s, bases, K + 1) == MIAI_OK);
        for (uint32_t j = 0; j <= K; j++) CHECK(bases[j] == (j == k));
        CHECK(miai_gdl_state_legal_all(g, s, 0, moves, 2, &n) == MIAI_OK);
        CHECK(n == (k == K - 1 ? 1u : 2u));
        miai_state_to_move(g, s, &tm);
        CHECK(tm == (k == K ? MIAI_NOBODY : 0));
    }
    double r[2];
    CHECK(miai_state_rewards(g, s, r, 2) == MIAI_OK && r[0] == 1.0 && r[1] == 0.0);
    CHECK(miai_state_init(g, s) == MIAI_OK);
    CHECK(longest_checked_playout(g, s, MIAI_GDL_ENGINE_DIFF) > K);
    CHECK(longest_checked_playout(g, s, MIAI_GDL_ENGINE_DIFF_CLEAR) > K);
    int engine = -1;
    CHECK(miai_gdl_playout_engine(g, &engine) == MIAI_OK);
    if (N > 128) { /* no word-parallel tables: play() and playouts by the differential one */
        uint32_t len = 0;
        CHECK(miai_gdl_playout_check(g, s, 1, MIAI_GDL_ENGINE_BITS, &len) == MIAI_ELIMIT);
        CHECK(engine == MIAI_GDL_ENGINE_DIFF || engine == MIAI_GDL_ENGINE_DIFF_CLEAR);
    } else {
        CHECK(longest_checked_playout(g, s, MIAI_GDL_ENGINE_BITS) > K);
    }
    CHECK(miai_gdl_playout_engine(NULL, &engine) == MIAI_EINVAL);
    free(s);
    miai_game_free(g);
}

static void ladder_plays_by_the_differential_engine(void) {
    ladder_plays(32);
}

static void ladder_plays_on_two_words(void) {
    ladder_plays(24);
}

static int create_fails(miai_gdl_desc *d) {
    miai_game *g = NULL;
    int rc = miai_gdl_create(d, &g);
    if (g) miai_game_free(g);
    return rc != MIAI_OK && g == NULL;
}

static void malformed_descriptions_refused(void) {
    miai_game *g = NULL;
    CHECK(miai_gdl_create(NULL, &g) == MIAI_EINVAL);
    miai_gdl_desc d = gdl_tiny();
    CHECK(miai_gdl_create(&d, NULL) == MIAI_EINVAL);
    uint8_t kind[GDL_TINY_NODES];
    uint32_t in[16], arg[GDL_TINY_NODES], first[GDL_TINY_NODES + 1], lo[2], hi[2], next[3];
    uint32_t goal[3];
    const char *texts[3];
#define RESET()                                                            \
    do {                                                                   \
        d = gdl_tiny();                                                    \
        memcpy(kind, d.kind, sizeof kind);                                 \
        memcpy(in, d.in, sizeof in);                                       \
        memcpy(arg, d.arg, sizeof arg);                                    \
        memcpy(first, d.first_in, sizeof first);                           \
        memcpy(next, d.next_node, sizeof next);                            \
        memcpy(goal, d.goal_value, sizeof goal);                           \
        memcpy(texts, d.move_text, sizeof texts);                          \
        lo[0] = 14, hi[0] = 16;                                            \
        d.kind = kind, d.in = in, d.arg = arg, d.first_in = first;         \
        d.range_lo = lo, d.range_hi = hi, d.next_node = next;              \
        d.goal_value = goal, d.move_text = texts;                          \
    } while (0)
    RESET();
    CHECK(!create_fails(&d)); /* the copies are a valid description */
    RESET(); kind[9] = 42; CHECK(create_fails(&d));
    RESET(); kind[0] = MIAI_PN_TRUE; CHECK(create_fails(&d));
    RESET(); in[0] = 8; CHECK(create_fails(&d));          /* node 8 reads itself */
    RESET(); in[4] = 12; CHECK(create_fails(&d));         /* forward input */
    RESET(); in[4] = 4000000; CHECK(create_fails(&d));
    RESET(); arg[2] = 3; CHECK(create_fails(&d));         /* base index */
    RESET(); arg[5] = 3; CHECK(create_fails(&d));         /* move index */
    RESET(); first[9] = 5; CHECK(create_fails(&d));       /* offsets decrease */
    RESET(); first[0] = 1; CHECK(create_fails(&d));
    RESET(); d.n_ranges = 0; CHECK(create_fails(&d));     /* cycle without a range */
    RESET(); hi[0] = 18; CHECK(create_fails(&d));
    RESET(); lo[0] = 1; CHECK(create_fails(&d));
    RESET(); d.n_ranges = 2; lo[1] = 15; hi[1] = 16; CHECK(create_fails(&d)); /* overlap */
    RESET(); hi[0] = 17; in[15] = 14; CHECK(create_fails(&d)); /* NOT inside a cycle */
    RESET(); next[1] = GDL_TINY_NODES; CHECK(create_fails(&d));
    RESET(); d.terminal_node = GDL_TINY_NODES; CHECK(create_fails(&d));
    RESET(); goal[0] = 101; CHECK(create_fails(&d));
    RESET(); d.n_roles = 0; CHECK(create_fails(&d));
    RESET(); d.n_roles = MIAI_MAX_ROLES + 1; CHECK(create_fails(&d));
    RESET(); texts[1] = NULL; CHECK(create_fails(&d));
    RESET(); d.kind = NULL; CHECK(create_fails(&d));
    RESET(); d.in = NULL; CHECK(create_fails(&d));
    RESET(); d.n_nodes = 1; CHECK(create_fails(&d));
    RESET(); d.n_nodes = MIAI_PN_MAX_NODES + 1;
    CHECK(miai_gdl_create(&d, &g) == MIAI_ELIMIT && g == NULL);
    RESET(); d.max_plies = 0; CHECK(create_fails(&d));
    /* Move sets (global move indices, of any roles): a valid one is accepted; a move
     * past the last or a bad offset is refused. */
    uint32_t set_first[2] = {0, 3}, set_move[3] = {0, 1, 2};
    RESET(); d.n_sets = 1, d.set_first = set_first, d.set_move = set_move;
    CHECK(!create_fails(&d)); /* role a's moves 0, 1 and role b's move 2 */
    set_move[2] = 3; CHECK(create_fails(&d)); /* three moves in all */
    set_move[2] = 2; set_first[1] = 1000000000; CHECK(create_fails(&d));
    set_first[1] = 3; set_first[0] = 1; CHECK(create_fails(&d));
    set_first[0] = 0; d.set_move = NULL; CHECK(create_fails(&d));
    RESET(); kind[5] = MIAI_PN_MOVESET; CHECK(create_fails(&d)); /* no sets */
    /* Guards: both arrays or neither, a guard inside the net, flags 0 or 1. */
    uint32_t guard[2] = {2, 1};
    uint8_t guarded[3] = {1, 1, 0};
    RESET(); d.legal_guard = guard; CHECK(create_fails(&d));
    d.legal_guarded = guarded; CHECK(!create_fails(&d));
    guard[1] = GDL_TINY_NODES; CHECK(create_fails(&d));
    guard[1] = 1; guarded[2] = 2; CHECK(create_fails(&d));
    RESET(); d.legal_guarded = guarded; CHECK(create_fails(&d));
#undef RESET
    /* GDL-only accessors refuse other games. */
    miai_game *ttt = NULL;
    CHECK(miai_game_create("tictactoe", NULL, 0, &ttt) == MIAI_OK);
    uint8_t state[4096] = {0}, bases[8];
    CHECK(miai_gdl_state_bases(ttt, state, bases, 8) == MIAI_EINVAL);
    miai_game_free(ttt);
}

/* A net over the differential engine's size: a chain of ORs from the one base p
 * (initially false) to the next value of p; move "go" of the one role sets p through
 * the chain's first OR; terminal once p holds.  Playouts take the generic loop and
 * still play the game. */
static void big_net_uses_the_generic_loop(void) {
    enum { CHAIN = 262150 };
    uint32_t n = 4 + CHAIN;
    uint8_t *kind = malloc(n);
    uint32_t *arg = calloc(n, sizeof *arg), *first = calloc(n + 1, sizeof *first);
    uint32_t *in = malloc(sizeof *in * 2 * CHAIN);
    if (!kind || !arg || !first || !in) {
        CHECK(0);
        free(kind), free(arg), free(first), free(in);
        return;
    }
    kind[0] = MIAI_PN_FALSE, kind[1] = MIAI_PN_TRUE, kind[2] = MIAI_PN_BASE;
    kind[3] = MIAI_PN_INPUT;
    uint32_t e = 0;
    for (uint32_t i = 4; i < n; i++) {
        kind[i] = MIAI_PN_OR;
        first[i] = e;
        in[e++] = i == 4 ? 2 : i - 1;
        if (i == 4) in[e++] = 3;
    }
    first[n] = e;
    uint32_t next[1] = {n - 1}, goal_role[1] = {0}, goal_value[1] = {100}, goal_node[1] = {2};
    uint8_t init[1] = {0};
    const char *base_text[1] = {"p"}, *move_text[1] = {"go"};
    uint32_t n_moves[1] = {1}, legal[1] = {1};
    miai_gdl_desc d = {
        .n_nodes = n, .kind = kind, .arg = arg, .first_in = first, .in = in,
        .n_base = 1, .next_node = next, .init = init, .base_text = base_text,
        .n_roles = 1, .n_moves = n_moves, .legal_node = legal, .move_text = move_text,
        .terminal_node = 2, .n_goals = 1, .goal_role = goal_role, .goal_value = goal_value,
        .goal_node = goal_node, .max_plies = 5, .seed = 3, .name = "chain"};
    miai_game *g = NULL;
    CHECK(miai_gdl_create(&d, &g) == MIAI_OK);
    if (g) {
        miai_game_facts f;
        CHECK(miai_game_get_facts(g, &f) == MIAI_OK);
        uint8_t *s = malloc(f.state_size);
        CHECK(s && miai_state_init(g, s) == MIAI_OK);
        uint32_t len = 0;
        CHECK(miai_gdl_playout_check(g, s, 1, MIAI_GDL_ENGINE_DIFF, &len) == MIAI_ELIMIT);
        CHECK(miai_gdl_playout_check(g, s, 1, MIAI_GDL_ENGINE_BITS, &len) == MIAI_ELIMIT);
        double mean[1];
        uint64_t plies = 0;
        CHECK(miai_playouts(g, s, 3, 1, mean, 1, &plies) == MIAI_OK);
        CHECK(plies == 3 && mean[0] == 1.0); /* go, then p holds: terminal, goal 100 */
        free(s);
        miai_game_free(g);
    }
    free(kind), free(arg), free(first), free(in);
}

int main(void) {
    const ctest_case cases[] = {
        {"tiny_game_plays", tiny_game_plays},
        {"guarded_moves_need_their_guard", guarded_moves_need_their_guard},
        {"ladder_plays_by_the_differential_engine", ladder_plays_by_the_differential_engine},
        {"ladder_plays_on_two_words", ladder_plays_on_two_words},
        {"malformed_descriptions_refused", malformed_descriptions_refused},
        {"big_net_uses_the_generic_loop", big_net_uses_the_generic_loop},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
