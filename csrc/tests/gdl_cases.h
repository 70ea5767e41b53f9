/* gdl_cases.h -- what the GDL propnet test programs share: a game built from a
 * description, with a new initial state.  Include after ctest.h. */
#ifndef MIAI_TEST_GDL_CASES_H
#define MIAI_TEST_GDL_CASES_H

#include <stdlib.h>

#include "../core/game_api.h"
#include "../gdl/gdl_api.h"

/* The game of d and a new initial state of it (NULL, after a failed CHECK, if either
 * cannot be made). */
static inline miai_game *game_with_initial_state(const miai_gdl_desc *d, uint8_t **state) {
    miai_game *g = NULL;
    miai_game_facts f;
    CHECK(miai_gdl_create(d, &g) == MIAI_OK);
    if (!g) return NULL;
    CHECK(miai_game_get_facts(g, &f) == MIAI_OK);
    *state = malloc(f.state_size);
    CHECK(*state && miai_state_init(g, *state) == MIAI_OK);
    if (!*state) {
        miai_game_free(g);
        return NULL;
    }
    return g;
}

/* The tiny game, for test_propnet.c (its public API, its engines) and test_threads.c
 * (a propnet search with threads).  Roles a (moves "go", "stay") and b ("noop").
 * Bases (step 0..2), init (step 0).  go advances the step, stay keeps it; terminal at
 * step 2, where a gets 100 through a two-node cycle x = x' OR step2, x' = x, and b gets
 * 0 (50 only while not at step 2).  The arrays are static locals: a file that includes
 * this header and does not use the game has no unused constants. */
enum { GDL_TINY_NODES = 17 };

static inline miai_gdl_desc gdl_tiny(void) {
    static const uint8_t KIND[GDL_TINY_NODES] = {
        MIAI_PN_FALSE, MIAI_PN_TRUE, MIAI_PN_BASE, MIAI_PN_BASE, MIAI_PN_BASE,
        MIAI_PN_INPUT, MIAI_PN_INPUT, MIAI_PN_INPUT, MIAI_PN_AND, MIAI_PN_AND,
        MIAI_PN_OR, MIAI_PN_AND, MIAI_PN_OR, MIAI_PN_AND, MIAI_PN_OR, MIAI_PN_OR, MIAI_PN_NOT};
    static const uint32_t ARG[GDL_TINY_NODES] = {0, 0, 0, 1, 2, 0, 1, 2, 0,
                                                 0, 0, 0, 0, 0, 0, 0, 0};
    static const uint32_t FIRST_IN[GDL_TINY_NODES + 1] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 4,
                                                          6, 8, 10, 12, 14, 15, 16};
    static const uint32_t IN[16] = {2, 5, 3, 6, 8, 9, 3, 5, 11, 4, 2, 6, 15, 4, 14, 4};
    static const uint32_t RANGE_LO[1] = {14}, RANGE_HI[1] = {16};
    static const uint32_t NEXT[3] = {13, 10, 12};
    static const uint8_t INIT[3] = {1, 0, 0};
    static const char *const BASE_TEXT[3] = {"(step 0)", "(step 1)", "(step 2)"};
    static const uint32_t N_MOVES[2] = {2, 1};
    static const uint32_t LEGAL[3] = {1, 1, 1};
    static const char *const MOVE_TEXT[3] = {"go", "stay", "noop"};
    static const uint32_t GOAL_ROLE[3] = {0, 1, 1}, GOAL_VALUE[3] = {100, 0, 50},
                          GOAL_NODE[3] = {14, 1, 16};
    miai_gdl_desc d = {
        .n_nodes = GDL_TINY_NODES, .kind = KIND, .arg = ARG, .first_in = FIRST_IN, .in = IN,
        .n_ranges = 1, .range_lo = RANGE_LO, .range_hi = RANGE_HI,
        .n_base = 3, .next_node = NEXT, .init = INIT, .base_text = BASE_TEXT,
        .n_roles = 2, .n_moves = N_MOVES, .legal_node = LEGAL, .move_text = MOVE_TEXT,
        .terminal_node = 4, .n_goals = 3, .goal_role = GOAL_ROLE,
        .goal_value = GOAL_VALUE, .goal_node = GOAL_NODE, .max_plies = 50, .seed = 7,
        .name = "tiny"};
    return d;
}

/* The same game without the cycle: x = false OR step 2, x' = x (nodes 14 and 15, in
 * order) -- small and acyclic, so its playouts and play() use the one-word
 * evaluation (pn_bits.c), where the tiny game's use the differential engine. */
static inline miai_gdl_desc gdl_tiny_acyclic(void) {
    static const uint32_t IN_ACYCLIC[16] = {2, 5, 3, 6, 8, 9, 3, 5, 11, 4, 2, 6, 0, 4, 14, 4};
    miai_gdl_desc d = gdl_tiny();
    d.in = IN_ACYCLIC;
    d.n_ranges = 0;
    d.range_lo = d.range_hi = NULL;
    return d;
}

#endif
