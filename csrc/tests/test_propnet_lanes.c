/* test_propnet_lanes.c -- the lanes (pn_lanes.c: playouts 64 games at a time) under
 * the sanitizers, on a hand-built net with what the shared rulesheets do not have: a
 * status node that reads the joint move and is read by the next state, a role left
 * without legal moves, goals that hold together, a cyclic range in the goals.  Every
 * lane's game is replayed by the plain play. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../gdl/gdl_api.h"
#include "../search/search_api.h"
#include "ctest.h"
#include "gdl_cases.h"

/* Roles a ("inc", "hold") and b ("noop").  Bases s0, s1, s2 (one holds: the step) and
 * f.  inc moves the step on, hold keeps it and sets f (f' = f OR hold, node 15).
 * Terminal: s2, or (f OR hold) AND s0 -- node 15 again, which the status program
 * evaluates with no move (f) and the next state with the joint move.  b's noop is
 * legal unless s1 AND f: then b is stuck and the game over.  Goals: a 100 through a
 * cycle (x = x' OR s2, x' = x) and 30 always, b 50 with f and 0 always (the largest
 * that holds counts), and 70 with a's move hold, which never holds: goals are read
 * under no move (not valid GDL, but a net may read the move there).  Games: hold (over at once: 30, 50), inc hold (b stuck: 30, 50),
 * inc inc (s2: 100, 0). */
enum { N_NODES = 22 };
static const uint8_t KIND[N_NODES] = {
    MIAI_PN_FALSE, MIAI_PN_TRUE,  MIAI_PN_BASE, MIAI_PN_BASE, MIAI_PN_BASE, MIAI_PN_BASE,
    MIAI_PN_INPUT, MIAI_PN_INPUT, MIAI_PN_INPUT, MIAI_PN_AND, MIAI_PN_AND,  MIAI_PN_AND,
    MIAI_PN_OR,    MIAI_PN_AND,   MIAI_PN_OR,   MIAI_PN_OR,   MIAI_PN_AND,  MIAI_PN_OR,
    MIAI_PN_OR,    MIAI_PN_OR,    MIAI_PN_AND,  MIAI_PN_NOT};
static const uint32_t ARG[N_NODES] = {0, 0, 0, 1, 2, 3, 0, 1, 2, 0, 0,
                                      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static const uint32_t FIRST_IN[N_NODES + 1] = {0, 0, 0,  0,  0,  0,  0,  0,  0,  0,  2, 4,
                                               6, 8, 10, 12, 14, 16, 18, 20, 21, 23, 24};
static const uint32_t IN[24] = {2, 7, 2, 6, 3, 7, 10, 11, 3, 6, 13, 4,
                                5, 7, 15, 2, 4, 16, 19, 4, 18, 3, 5, 20};
static const uint32_t RANGE_LO[1] = {18}, RANGE_HI[1] = {20};
static const uint32_t NEXT[4] = {9, 12, 14, 15};
static const uint8_t INIT[4] = {1, 0, 0, 0};
static const char *const BASE_TEXT[4] = {"s0", "s1", "s2", "f"};
static const uint32_t N_MOVES[2] = {2, 1};
static const uint32_t LEGAL[3] = {1, 1, 21};
static const char *const MOVE_TEXT[3] = {"inc", "hold", "noop"};
static const uint32_t GOAL_ROLE[5] = {0, 0, 1, 1, 1}, GOAL_VALUE[5] = {100, 30, 50, 0, 70},
                      GOAL_NODE[5] = {18, 1, 5, 1, 7};

static miai_gdl_desc steps(uint32_t max_plies) {
    miai_gdl_desc d = {
        .n_nodes = N_NODES, .kind = KIND, .arg = ARG, .first_in = FIRST_IN, .in = IN,
        .n_ranges = 1, .range_lo = RANGE_LO, .range_hi = RANGE_HI,
        .n_base = 4, .next_node = NEXT, .init = INIT, .base_text = BASE_TEXT,
        .n_roles = 2, .n_moves = N_MOVES, .legal_node = LEGAL, .move_text = MOVE_TEXT,
        .terminal_node = 17, .n_goals = 5, .goal_role = GOAL_ROLE,
        .goal_value = GOAL_VALUE, .goal_node = GOAL_NODE, .max_plies = max_plies,
        .seed = 3, .name = "steps"};
    return d;
}

enum { N = 200, CAP = 8 };

/* N lane games from the initial state, each replayed by the plain play: the same
 * legal-move counts and moves each ply, the same end and rewards.  Counts the games
 * that ended with each reward of role a (30, 100, or 50: the ply cap's draw). */
static void lanes_replay(uint32_t max_plies, uint32_t *ends) {
    miai_gdl_desc d = steps(max_plies);
    uint8_t *s0 = NULL;
    miai_game *g = game_with_initial_state(&d, &s0);
    if (!g) return;
    miai_game_facts f;
    CHECK(miai_game_get_facts(g, &f) == MIAI_OK);
    static miai_move moves[N * CAP * 2];
    static uint32_t counts[N * CAP * 2], plies[N];
    static double rewards[N * 2];
    CHECK(miai_gdl_lane_playouts(g, s0, N, 9, CAP, moves, counts, plies, rewards) == MIAI_OK);
    uint8_t *s = malloc(f.state_size);
    for (uint32_t i = 0; s && i < N; i++) {
        memcpy(s, s0, f.state_size);
        CHECK(plies[i] <= CAP);
        for (uint32_t p = 0; p < plies[i] && p < CAP; p++) {
            miai_move joint[2], all[2];
            for (uint32_t r = 0; r < 2; r++) {
                uint32_t n = 0;
                CHECK(miai_gdl_state_legal_all(g, s, r, all, 2, &n) == MIAI_OK);
                CHECK_EQ_U64(counts[(i * CAP + p) * 2 + r], n);
                joint[r] = moves[(i * CAP + p) * 2 + r];
                CHECK(joint[r] < N_MOVES[r]);
            }
            CHECK(miai_state_play_joint(g, s, joint, 2) == MIAI_OK);
        }
        int32_t over = 0;
        double want[2] = {0.5, 0.5};
        CHECK(miai_state_is_terminal(g, s, &over) == MIAI_OK);
        if (over) CHECK(miai_state_rewards(g, s, want, 2) == MIAI_OK);
        CHECK(rewards[i * 2] == want[0] && rewards[i * 2 + 1] == want[1]);
        uint32_t k = rewards[i * 2] == 0.3 ? 0 : rewards[i * 2] == 1.0 ? 1 : 2;
        ends[k]++;
    }
    /* a batch is the lanes' games: the same seed, the same sums (this net takes them) */
    double mean[2], sum[2] = {0, 0};
    uint64_t total = 0, traced = 0;
    CHECK(miai_playouts(g, s0, N, 9, mean, 2, &total) == MIAI_OK);
    for (uint32_t i = 0; i < N; i++) {
        sum[0] += rewards[i * 2];
        sum[1] += rewards[i * 2 + 1];
        traced += plies[i];
    }
    uint32_t lanes = 0;
    CHECK(miai_gdl_lanes_min_batch(g, &lanes) == MIAI_OK && lanes > 0 && lanes <= N);
    for (uint32_t r = 0; r < 2 && lanes; r++) { /* summed in another order */
        double diff = mean[r] - sum[r] / N;
        CHECK(diff < 1e-12 && diff > -1e-12);
    }
    CHECK(!lanes || total == traced);
    free(s);
    free(s0);
    miai_game_free(g);
}

static void lane_games_replay_by_the_plain_play(void) {
    uint32_t ends[3] = {0, 0, 0};
    lanes_replay(50, ends);
    /* all three games occur: over at once or stuck (30), s2 (100); no cap */
    CHECK(ends[0] > 0 && ends[1] > 0 && ends[2] == 0);
}

static void lanes_stop_at_the_ply_cap(void) {
    uint32_t ends[3] = {0, 0, 0};
    lanes_replay(1, ends); /* inc at ply 0 reaches the cap: a draw */
    CHECK(ends[0] > 0 && ends[1] == 0 && ends[2] > 0);
}

static void lane_playouts_refuse_bad_arguments(void) {
    miai_gdl_desc d = steps(50);
    uint8_t *s = NULL;
    miai_game *g = game_with_initial_state(&d, &s);
    if (!g) return;
    miai_move m[4];
    uint32_t c[4], p[2];
    double r[4];
    uint32_t on = 0;
    CHECK(miai_gdl_lane_playouts(NULL, s, 1, 1, 1, m, c, p, r) == MIAI_EINVAL);
    CHECK(miai_gdl_lane_playouts(g, NULL, 1, 1, 1, m, c, p, r) == MIAI_EINVAL);
    CHECK(miai_gdl_lane_playouts(g, s, 1, 1, 1, NULL, c, p, r) == MIAI_EINVAL);
    CHECK(miai_gdl_lane_playouts(g, s, MIAI_GDL_LANE_TRACE_MAX + 1, 1, 1, m, c, p, r) ==
          MIAI_EINVAL);
    CHECK(miai_gdl_lane_playouts(g, s, 1, 1, MIAI_GDL_LANE_TRACE_MAX + 1, m, c, p, r) ==
          MIAI_EINVAL);
    CHECK(miai_gdl_lane_playouts(g, s, 0, 1, 0, m, c, p, r) == MIAI_OK);
    CHECK(miai_gdl_lanes_min_batch(NULL, &on) == MIAI_EINVAL);
    CHECK(miai_gdl_lanes_min_batch(g, NULL) == MIAI_EINVAL);
    miai_game *ttt = NULL;
    CHECK(miai_game_create("tictactoe", NULL, 0, &ttt) == MIAI_OK);
    if (ttt) {
        CHECK(miai_gdl_lanes_min_batch(ttt, &on) == MIAI_EINVAL);
        CHECK(miai_gdl_lane_playouts(ttt, s, 1, 1, 1, m, c, p, r) == MIAI_EINVAL);
        miai_game_free(ttt);
    }
    free(s);
    miai_game_free(g);
}

/* A search with 64 playouts a leaf runs them in the lanes (the batch op): the leaves'
 * playouts are counted, the root's edges hold means of 64 games. */
static void search_leaves_run_in_the_lanes(void) {
    miai_gdl_desc d = steps(50);
    uint8_t *s0 = NULL;
    miai_game *g = game_with_initial_state(&d, &s0);
    if (!g) return;
    miai_search_config c;
    memset(&c, 0, sizeof c);
    c.algorithm = MIAI_ALG_UCT;
    c.mode = MIAI_MODE_DAG;
    c.final_choice = MIAI_FINAL_VISITS;
    c.max_nodes = 1000;
    c.c = 0.7;
    c.seed = 5;
    c.leaf_playouts = 64;
    miai_search *s = NULL;
    CHECK(miai_search_create(g, s0, &c, &s) == MIAI_OK);
    uint64_t done = 0;
    CHECK(s && miai_search_run(s, 40, 0.0, &done) == MIAI_OK && done == 40);
    miai_search_info info;
    CHECK(s && miai_search_get_info(s, &info) == MIAI_OK);
    CHECK(info.playouts > 0 && info.playouts % 64 == 0 && info.playouts <= 64 * 40);
    miai_search_free(s);
    free(s0);
    miai_game_free(g);
}

/* Guarded blocks (pn_internal.h): role a plays inc, or mark unless h.  Bases
 * s0..s3 are the step (s3: terminal), f0 and f1 flags, c always true, h a record.
 * Four ANDs read s2, which holds only at ply 2 of a game (the calibration's 64 lanes
 * start together): s2 AND mark, s2 AND inc, s2 AND f0, s2 AND c (c read WIDE times), a
 * block; f0' = f0 OR
 * (s2 AND mark) OR (s0 AND mark) and f1' = f1 OR (s2 AND inc) OR (s2 AND f0) read
 * them, so the block's ANDs push into those ORs; h' = s2 AND c, read directly (a
 * block's ANDs left stale when s2 falls would make mark illegal at ply 1 of the next
 * game).  Goals: a 100 with f1, 50 with f0, else 0. */
enum { B_NODES = 20 };
static const uint8_t B_KIND[B_NODES] = {
    MIAI_PN_FALSE, MIAI_PN_TRUE,  MIAI_PN_BASE, MIAI_PN_BASE, MIAI_PN_BASE,
    MIAI_PN_BASE,  MIAI_PN_BASE,  MIAI_PN_BASE, MIAI_PN_BASE, MIAI_PN_BASE,
    MIAI_PN_INPUT, MIAI_PN_INPUT, MIAI_PN_AND,  MIAI_PN_AND,  MIAI_PN_AND,
    MIAI_PN_AND,   MIAI_PN_AND,   MIAI_PN_OR,   MIAI_PN_OR,   MIAI_PN_NOT};
static const uint32_t B_ARG[B_NODES] = {0, 0, 0, 1, 2, 3, 4, 5, 6, 7,
                                        0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
/* s2 AND c reads c WIDE times: the block's work, skipped two runs in three, outweighs
 * the rest of the net's (PN_LANES_BLOCK_GAIN) */
enum { WIDE = 60 };
static const uint32_t B_FIRST_IN[B_NODES + 1] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 4, 6, 7 + WIDE, 9 + WIDE, 12 + WIDE, 15 + WIDE,
    16 + WIDE};
static uint32_t B_IN[16 + WIDE];

static void flags_inputs(void) {
    const uint32_t head[7] = {4, 11, 4, 10, 4, 6, 4}, tail[9] = {2, 11, 6, 12, 16, 7, 13, 14, 9};
    memcpy(B_IN, head, sizeof head);
    for (uint32_t k = 0; k < WIDE; k++) B_IN[7 + k] = 8;
    memcpy(B_IN + 7 + WIDE, tail, sizeof tail);
}
static const uint32_t B_NEXT[8] = {0, 2, 3, 4, 17, 18, 8, 15};
static const uint8_t B_INIT[8] = {1, 0, 0, 0, 0, 0, 1, 0};
static const char *const B_BASE_TEXT[8] = {"s0", "s1", "s2", "s3", "f0", "f1", "c", "h"};
static const uint32_t B_N_MOVES[1] = {2};
static const uint32_t B_LEGAL[2] = {1, 19};
static const char *const B_MOVE_TEXT[2] = {"inc", "mark"};
static const uint32_t B_GOAL_ROLE[3] = {0, 0, 0}, B_GOAL_VALUE[3] = {100, 50, 0},
                      B_GOAL_NODE[3] = {7, 6, 1};

static miai_gdl_desc flags(void) {
    flags_inputs();
    miai_gdl_desc d = {
        .n_nodes = B_NODES, .kind = B_KIND, .arg = B_ARG, .first_in = B_FIRST_IN,
        .in = B_IN, .n_base = 8, .next_node = B_NEXT, .init = B_INIT,
        .base_text = B_BASE_TEXT, .n_roles = 1, .n_moves = B_N_MOVES,
        .legal_node = B_LEGAL, .move_text = B_MOVE_TEXT, .terminal_node = 5, .n_goals = 3,
        .goal_role = B_GOAL_ROLE, .goal_value = B_GOAL_VALUE, .goal_node = B_GOAL_NODE,
        .max_plies = 10, .seed = 4, .name = "flags"};
    return d;
}

/* The block forms, and every lane game replays by the plain play: inc at ply 2 sets
 * f1 (100), mark there sets f0 (50).  The lanes start 64 games together, then each
 * lane its next game as one ends (3 plies each), so the block is skipped, set to 0
 * and evaluated as s2 comes and goes. */
static void guarded_blocks_replay_by_the_plain_play(void) {
    miai_gdl_desc d = flags();
    uint8_t *s0 = NULL;
    miai_game *g = game_with_initial_state(&d, &s0);
    if (!g) return;
    miai_game_facts f;
    CHECK(miai_game_get_facts(g, &f) == MIAI_OK);
    uint32_t blocks = 0, gates = 0;
    uint64_t work = 0;
    CHECK(miai_gdl_lanes_blocks(g, &blocks, &gates, &work) == MIAI_OK);
    CHECK(blocks == 1 && gates == 4 && work > 0);
    CHECK(miai_gdl_lanes_blocks(NULL, &blocks, &gates, &work) == MIAI_EINVAL);
    CHECK(miai_gdl_lanes_blocks(g, &blocks, NULL, &work) == MIAI_EINVAL);
    static miai_move moves[N * CAP];
    static uint32_t counts[N * CAP], plies[N];
    static double rewards[N];
    CHECK(miai_gdl_lane_playouts(g, s0, N, 11, CAP, moves, counts, plies, rewards) == MIAI_OK);
    uint32_t seen[3] = {0, 0, 0};
    uint8_t *s = malloc(f.state_size);
    for (uint32_t i = 0; s && i < N; i++) {
        memcpy(s, s0, f.state_size);
        CHECK_EQ_U64(plies[i], 3);
        for (uint32_t p = 0; p < plies[i] && p < CAP; p++) {
            miai_move all[2];
            uint32_t n = 0;
            CHECK(miai_gdl_state_legal_all(g, s, 0, all, 2, &n) == MIAI_OK);
            CHECK_EQ_U64(counts[i * CAP + p], n);
            CHECK(moves[i * CAP + p] < 2);
            CHECK(miai_state_play(g, s, moves[i * CAP + p]) == MIAI_OK);
        }
        int32_t over = 0;
        double want = 0.5;
        CHECK(miai_state_is_terminal(g, s, &over) == MIAI_OK && over);
        CHECK(miai_state_rewards(g, s, &want, 1) == MIAI_OK);
        CHECK(rewards[i] == want);
        seen[want == 1.0 ? 0 : want == 0.5 ? 1 : 2]++;
    }
    CHECK(seen[0] > 0 && seen[1] > 0 && seen[2] == 0);
    free(s);
    free(s0);
    miai_game_free(g);
}

int main(void) {
    const ctest_case cases[] = {
        {"guarded_blocks_replay_by_the_plain_play", guarded_blocks_replay_by_the_plain_play},
        {"lane_games_replay_by_the_plain_play", lane_games_replay_by_the_plain_play},
        {"lanes_stop_at_the_ply_cap", lanes_stop_at_the_ply_cap},
        {"lane_playouts_refuse_bad_arguments", lane_playouts_refuse_bad_arguments},
        {"search_leaves_run_in_the_lanes", search_leaves_run_in_the_lanes},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
