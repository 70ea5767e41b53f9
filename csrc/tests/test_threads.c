/* test_threads.c -- one search, one graph, many threads (csrc/search/threads.c).
 *
 * Run under ASan/UBSan like every C test, and under ThreadSanitizer by
 * tests/core/test_c_sanitizers.py (test_c_threads_under_tsan).  Games with many
 * transpositions (tic-tac-toe, Connect Four, leftright) and Go 9x9 with RAVE are
 * searched by 2-4 threads; afterwards the graph is checked against the game itself:
 *   - every node's keys are those of the position its in-edge's move leads to (the
 *     states are replayed from the root), one node per position (DAG mode);
 *   - an expanded node has exactly one edge per legal move, in the legal order (no
 *     edge lost, none twice);
 *   - each non-root node's visit count equals the sum of its in-edges' counts, the
 *     root's the number of iterations, and the iterations the budget;
 *   - virtual losses are all taken back (the counts above would be off otherwise).
 * A stress part runs tiny budgets, stop requests from another thread, and time limits.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/game_api.h"
#include "../search/search_api.h"
#include "../search/variants_api.h"
#include "ctest.h"
#include "gdl_cases.h"

#define NIL 0xFFFFFFFFu

static miai_search_config config(uint32_t alg, uint32_t mode, uint64_t seed, uint32_t threads) {
    miai_search_config c;
    memset(&c, 0, sizeof c);
    c.algorithm = alg;
    c.mode = mode;
    c.final_choice = MIAI_FINAL_VISITS;
    c.max_nodes = 1u << 20;
    c.seed = seed;
    c.c = 0.7;
    c.threads = threads;
    c.virtual_loss = 1;
    if (alg == MIAI_ALG_RAVE) {
        c.c = 0.0;
        c.params[0] = 0.9;
        c.params[1] = 20000;
        c.params[2] = 10;
        c.params[3] = 1;
        c.params[4] = 1.0;
    }
    return c;
}

typedef struct {
    uint32_t node;
    uint8_t *state;
} frame;

static int key_order(const void *a, const void *b) {
    const uint64_t *x = a, *y = b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    if (x[1] != y[1]) return x[1] < y[1] ? -1 : 1;
    return 0;
}

/* The invariants of the file comment; returns the number of nodes reached. */
static uint32_t check_graph(const miai_game *g, const miai_search *s, const void *root_state,
                            uint64_t iterations, int dag) {
    miai_game_facts f;
    miai_game_get_facts(g, &f);
    miai_search_info info;
    CHECK(miai_search_get_info(s, &info) == MIAI_OK);
    CHECK_EQ_U64(info.iterations, iterations);
    uint32_t n_nodes = info.nodes;
    uint64_t *into = calloc(n_nodes, sizeof *into);
    uint8_t *seen = calloc(n_nodes, 1);
    frame *stack = calloc(n_nodes + 1, sizeof *stack);
    miai_edge_stats *edges = malloc(sizeof *edges * (f.max_legal + 1));
    miai_move *legal = malloc(sizeof *legal * (f.max_legal + 1));
    uint64_t *keys = calloc(2 * (size_t)n_nodes, sizeof *keys);
    uint32_t top = 0, reached = 0;
    if (!into || !seen || !stack || !edges || !legal || !keys) {
        CHECK(0);
        goto out;
    }
    stack[top].node = info.root;
    stack[top].state = malloc(f.state_size);
    memcpy(stack[top++].state, root_state, f.state_size);
    seen[info.root] = 1;
    while (top) {
        frame fr = stack[--top];
        reached++;
        miai_node_stats ns;
        CHECK(miai_search_node(s, fr.node, &ns) == MIAI_OK);
        uint64_t k, k2;
        miai_state_key(g, fr.state, &k, &k2);
        CHECK(ns.key == k && ns.key2 == k2);
        if (dag) {
            keys[2 * (size_t)fr.node] = k;
            keys[2 * (size_t)fr.node + 1] = k2;
        }
        uint32_t n = 0, n_legal = 0;
        CHECK(miai_search_node_edges(s, fr.node, edges, f.max_legal + 1, &n) == MIAI_OK);
        int32_t to_move;
        miai_state_to_move(g, fr.state, &to_move);
        if (n && to_move >= 0) {
            miai_state_legal(g, fr.state, (uint32_t)to_move, legal, f.max_legal + 1, &n_legal);
            CHECK_EQ_U64(n, n_legal);
            for (uint32_t i = 0; i < n && i < n_legal; i++) CHECK(edges[i].move == legal[i]);
        }
        for (uint32_t i = 0; i < n; i++) {
            CHECK(edges[i].n >= edges[i].n_prime);
            uint32_t c = edges[i].child;
            if (c == NIL) continue;
            CHECK(c < n_nodes);
            if (c >= n_nodes) continue;
            into[c] += edges[i].n;
            if (seen[c]) continue;
            seen[c] = 1;
            stack[top].node = c;
            stack[top].state = malloc(f.state_size);
            memcpy(stack[top].state, fr.state, f.state_size);
            CHECK(miai_state_play(g, stack[top].state, edges[i].move) == MIAI_OK);
            top++;
        }
        free(fr.state);
    }
    CHECK_EQ_U64(reached, n_nodes); /* every node hangs off some edge */
    for (uint32_t i = 0; i < n_nodes; i++) {
        miai_node_stats ns;
        miai_search_node(s, i, &ns);
        if (i == info.root) CHECK_EQ_U64(ns.n, iterations);
        else CHECK_EQ_U64(ns.n, into[i]);
    }
    if (dag) { /* one node per position: no two nodes share both keys */
        qsort(keys, n_nodes, 2 * sizeof *keys, key_order);
        for (uint32_t i = 1; i < n_nodes; i++)
            CHECK(key_order(&keys[2 * (size_t)i - 2], &keys[2 * (size_t)i]) != 0);
    }
out:
    free(into);
    free(seen);
    free(stack);
    free(edges);
    free(legal);
    free(keys);
    return reached;
}

/* Runs of 1, 2, 3 and 50 iterations, then the rest of `budget` in two: the tiny runs
 * start and join the threads with almost nothing to do.  Each run does its whole part
 * unless `may_stop` (pruning to one root move, a proven root); returns the total. */
static uint64_t run_in_parts(miai_search *s, uint64_t budget, int may_stop) {
    uint64_t done = 0, total = 0;
    uint64_t parts[] = {1, 2, 3, 50, (budget - 56) / 2, budget - 56 - (budget - 56) / 2};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        CHECK(miai_search_run(s, parts[i], 0.0, &done) == MIAI_OK);
        if (may_stop) CHECK(done <= parts[i]);
        else CHECK_EQ_U64(done, parts[i]);
        total += done;
    }
    return total;
}

static void search_and_check(const char *game, const double *params, uint32_t n_params,
                             uint32_t alg, uint32_t mode, uint32_t threads, uint64_t budget) {
    miai_game *g = NULL;
    CHECK(miai_game_create(game, params, n_params, &g) == MIAI_OK);
    if (!g) return;
    miai_game_facts f;
    miai_game_get_facts(g, &f);
    uint8_t *root = malloc(f.state_size);
    miai_state_init(g, root);
    miai_search_config cfg = config(alg, mode, 17 + threads, threads);
    miai_search *s = NULL;
    CHECK(miai_search_create(g, root, &cfg, &s) == MIAI_OK);
    CHECK_EQ_U64(run_in_parts(s, budget, 0), budget);
    uint32_t nodes = check_graph(g, s, root, budget, mode == MIAI_MODE_DAG);
    CHECK(nodes > 10);
    miai_search_free(s);
    free(root);
    miai_game_free(g);
}

static void test_ttt_dag(void) {
    search_and_check("tictactoe", NULL, 0, MIAI_ALG_UCT, MIAI_MODE_DAG, 4, 6000);
}
static void test_connect4_dag(void) {
    search_and_check("connect4", NULL, 0, MIAI_ALG_UCT, MIAI_MODE_DAG, 2, 6000);
}
static void test_connect4_tree(void) {
    search_and_check("connect4", NULL, 0, MIAI_ALG_UCT, MIAI_MODE_TREE, 3, 4000);
}
static void test_leftright_dag(void) {
    double steps = 30;
    search_and_check("leftright", &steps, 1, MIAI_ALG_UCT, MIAI_MODE_DAG, 3, 4000);
}
static void test_connect4_rave(void) {
    search_and_check("connect4", NULL, 0, MIAI_ALG_RAVE, MIAI_MODE_DAG, 2, 3000);
}
static void test_go_rave(void) {
    double params[] = {9, 7.5, 7}; /* size, komi, the Go bot's heavy playout policy */
    search_and_check("go", params, 3, MIAI_ALG_RAVE, MIAI_MODE_DAG, 2, 600);
}
/* Go with last-good-reply playouts (LGRF-2, 7 | 64 | 128): each thread plays out on
 * its own reply table (threads.c), which TSan checks is never shared. */
static void test_go_lgr(void) {
    double params[] = {9, 7.5, 7 | 64 | 128};
    search_and_check("go", params, 3, MIAI_ALG_RAVE, MIAI_MODE_DAG, 3, 600);
}

/* Connect Four and its initial position (NULL, nothing to free, on failure). */
static uint8_t *connect4_root(miai_game **g) {
    CHECK(miai_game_create("connect4", NULL, 0, g) == MIAI_OK);
    if (!*g) return NULL;
    miai_game_facts f;
    miai_game_get_facts(*g, &f);
    uint8_t *root = malloc(f.state_size);
    if (!root) {
        miai_game_free(*g);
        return NULL;
    }
    miai_state_init(*g, root);
    return root;
}

/* ---- stress: stop requests and deadlines ---- */

typedef struct {
    miai_search *s;
    int delay_ms;
} stopper;

static void *stop_later(void *arg) {
    stopper *st = arg;
    struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)st->delay_ms * 1000000L};
    nanosleep(&ts, NULL);
    miai_search_stop(st->s);
    return NULL;
}

static void test_stop_and_deadline(void) {
    miai_game *g = NULL;
    uint8_t *root = connect4_root(&g);
    if (!root) return;
    miai_search_config cfg = config(MIAI_ALG_UCT, MIAI_MODE_DAG, 5, 3);
    miai_search *s = NULL;
    CHECK(miai_search_create(g, root, &cfg, &s) == MIAI_OK);
    uint64_t total = 0, done = 0;
    for (int round = 0; round < 6; round++) {
        /* a stop request during an unbounded timed run */
        stopper st = {.s = s, .delay_ms = 5 + 5 * round};
        pthread_t t;
        CHECK(miai_search_clear_stop(s) == MIAI_OK);
        CHECK(pthread_create(&t, NULL, stop_later, &st) == 0);
        CHECK(miai_search_run(s, 0, 3600.0, &done) == MIAI_OK);
        pthread_join(t, NULL);
        total += done;
        /* a stop request made before the run: nothing runs */
        CHECK(miai_search_run(s, 100, 0.0, &done) == MIAI_OK);
        CHECK_EQ_U64(done, 0);
        CHECK(miai_search_clear_stop(s) == MIAI_OK);
        /* a deadline, with a budget too large to reach */
        CHECK(miai_search_run(s, 1u << 30, 0.01, &done) == MIAI_OK);
        CHECK(done < (1u << 30));
        total += done;
        /* tiny budgets */
        for (uint64_t b = 1; b <= 4; b++) {
            CHECK(miai_search_run(s, b, 0.0, &done) == MIAI_OK);
            CHECK_EQ_U64(done, b);
            total += done;
        }
    }
    check_graph(g, s, root, total, 1);
    /* advancing the root keeps the graph consistent for the next threaded run */
    uint32_t best;
    CHECK(miai_search_best(s, 0, &best) == MIAI_OK);
    miai_edge_stats e[16];
    uint32_t n;
    CHECK(miai_search_root_edges(s, e, 16, &n) == MIAI_OK);
    CHECK(miai_search_advance(s, &e[best].move, 1) == MIAI_OK);
    miai_state_play(g, root, e[best].move);
    CHECK(miai_search_run(s, 500, 0.0, &done) == MIAI_OK);
    CHECK_EQ_U64(done, 500);
    miai_search_free(s);
    free(root);
    miai_game_free(g);
}

/* The node budget full while threads run: sampling goes on, counts stay right. */
static void test_node_budget(void) {
    miai_game *g = NULL;
    uint8_t *root = connect4_root(&g);
    if (!root) return;
    miai_search_config cfg = config(MIAI_ALG_UCT, MIAI_MODE_DAG, 8, 4);
    cfg.max_nodes = 300;
    miai_search *s = NULL;
    CHECK(miai_search_create(g, root, &cfg, &s) == MIAI_OK);
    uint64_t done = 0;
    CHECK(miai_search_run(s, 3000, 0.0, &done) == MIAI_OK);
    CHECK_EQ_U64(done, 3000);
    miai_search_info info;
    miai_search_get_info(s, &info);
    CHECK(info.nodes <= 300);
    CHECK(info.refused > 0);
    miai_search_free(s);
    free(root);
    miai_game_free(g);
}

/* UCT* pruning at every level every 5 iterations, with the MCTS-Solver, 3 threads:
 * the graph whole, as many iterations as the runs report (pruning to one root move
 * or a proven root stops early), and the proofs sound where the game says (an edge
 * into a terminal position proven by its reward).  Under ThreadSanitizer, the
 * pruning's reads of other threads' paths in flight (miai_virtual_visits) race with
 * nothing. */
static void test_uctstar_solver(void) {
    const char *names[] = {"tictactoe", "connect4"};
    for (size_t k = 0; k < 2; k++) {
        miai_game *g = NULL;
        CHECK(miai_game_create(names[k], NULL, 0, &g) == MIAI_OK);
        if (!g) return;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *root = malloc(f.state_size);
        miai_state_init(g, root);
        miai_search_config cfg = config(MIAI_ALG_UCTSTAR, MIAI_MODE_DAG, 31 + k, 3);
        cfg.params[MIAI_P_STAR_P] = 0.3;
        cfg.params[MIAI_P_STAR_STEP] = 5;
        cfg.params[MIAI_P_STAR_LEVELS] = 1;
        cfg.params[MIAI_P_SOLVER] = 1;
        cfg.virtual_loss = 3;
        miai_search *s = NULL;
        CHECK(miai_search_create(g, root, &cfg, &s) == MIAI_OK);
        uint64_t total = run_in_parts(s, 3300, 1);
        CHECK(total > 10);
        check_graph(g, s, root, total, 1);
        miai_search_free(s);
        free(root);
        miai_game_free(g);
    }
}

/* A GDL propnet game with simultaneous moves, 3 threads, on both of the propnet's
 * evaluations (the tiny game of gdl_cases.h: the differential engine; its acyclic
 * variant: the one-word one): each thread evaluates on its own state buffer and the
 * game is read only (game.h), which ThreadSanitizer checks here.  The budget is exact,
 * every pass through the root is counted on one of a's edges there, and role a finds
 * that "go" (100 at step 2) beats "stay". */
static void test_gdl_propnet(void) {
    for (int acyclic = 0; acyclic < 2; acyclic++) {
        miai_gdl_desc d = acyclic ? gdl_tiny_acyclic() : gdl_tiny();
        uint8_t *root = NULL;
        miai_game *g = game_with_initial_state(&d, &root);
        if (!g) return;
        miai_search_config cfg = config(MIAI_ALG_UCT, MIAI_MODE_DAG, 41 + (uint64_t)acyclic, 3);
        miai_search *s = NULL;
        CHECK(miai_search_create(g, root, &cfg, &s) == MIAI_OK);
        uint64_t total = run_in_parts(s, 3056, 0);
        miai_search_info info;
        CHECK(miai_search_get_info(s, &info) == MIAI_OK);
        CHECK_EQ_U64(info.iterations, total);
        miai_node_stats ns;
        CHECK(miai_search_node(s, info.root, &ns) == MIAI_OK);
        CHECK(ns.n >= total); /* "stay" comes back to the root's position */
        miai_edge_stats edges[8];
        uint32_t n = 0;
        CHECK(miai_search_node_edges(s, info.root, edges, 8, &n) == MIAI_OK);
        CHECK(n == 2); /* a: go, stay (b's one move needs no edge) */
        uint64_t through = 0;
        uint32_t go = 0, stay = 0;
        for (uint32_t i = 0; i < n && i < 8; i++) {
            CHECK(edges[i].role == 0);
            through += edges[i].n;
            if (edges[i].move == 0) go = edges[i].n;
            if (edges[i].move == 1) stay = edges[i].n;
        }
        CHECK_EQ_U64(through, ns.n); /* every pass through the root took an edge of a */
        CHECK(go > stay);
        miai_search_free(s);
        free(root);
        miai_game_free(g);
    }
}

/* MAST playouts with 3 threads: each thread reads and writes its own copy of the
 * table during a run (a playout reads it at every move, outside the lock), merged into
 * the search's after the run.  The graph whole, and the table holding at least one
 * reward an iteration (every iteration plays some move). */
static void test_mast(void) {
    miai_game *g = NULL;
    uint8_t *root = connect4_root(&g);
    if (!root) return;
    miai_search_config cfg = config(MIAI_ALG_UCT, MIAI_MODE_DAG, 7, 3);
    cfg.mast = 1;
    cfg.mast_eps = 0.4;
    miai_search *s = NULL;
    CHECK(miai_search_create(g, root, &cfg, &s) == MIAI_OK);
    uint64_t total = run_in_parts(s, 3056, 0);
    check_graph(g, s, root, total, 1);
    miai_search_info info;
    CHECK(miai_search_get_info(s, &info) == MIAI_OK);
    CHECK(info.mast_samples >= total);
    miai_search_free(s);
    free(root);
    miai_game_free(g);
}

static void test_refused(void) {
    miai_game *g = NULL;
    uint8_t *root = connect4_root(&g);
    if (!root) return;
    CHECK(miai_search_threads_ok(MIAI_ALG_UCT) == 1);
    CHECK(miai_search_threads_ok(MIAI_ALG_RAVE) == 1);
    CHECK(miai_search_threads_ok(MIAI_ALG_UCTSTAR) == 1);
    uint32_t no[] = {MIAI_ALG_UCD, MIAI_ALG_AUCT, MIAI_ALG_DUCT, MIAI_ALG_AUCT_RAVE};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        CHECK(miai_search_threads_ok(no[i]) == 0);
        miai_search_config cfg = config(no[i], MIAI_MODE_DAG, 1, 2);
        miai_search *s = NULL;
        CHECK(miai_search_create(g, root, &cfg, &s) == MIAI_EINVAL);
        CHECK(s == NULL);
    }
    miai_search_config cfg = config(MIAI_ALG_UCT, MIAI_MODE_DAG, 1, MIAI_THREADS_MAX + 1);
    miai_search *s = NULL;
    CHECK(miai_search_create(g, root, &cfg, &s) == MIAI_EINVAL);
    cfg = config(MIAI_ALG_UCT, MIAI_MODE_DAG, 1, 2);
    cfg.leaf_playouts = 4;
    CHECK(miai_search_create(g, root, &cfg, &s) == MIAI_EINVAL);
    free(root);
    miai_game_free(g);
}

int main(void) {
    const ctest_case cases[] = {
        {"ttt_dag", test_ttt_dag},
        {"connect4_dag", test_connect4_dag},
        {"connect4_tree", test_connect4_tree},
        {"leftright_dag", test_leftright_dag},
        {"connect4_rave", test_connect4_rave},
        {"go_rave", test_go_rave},
        {"go_lgr", test_go_lgr},
        {"stop_and_deadline", test_stop_and_deadline},
        {"node_budget", test_node_budget},
        {"uctstar_solver", test_uctstar_solver},
        {"gdl_propnet", test_gdl_propnet},
        {"mast", test_mast},
        {"refused", test_refused},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
