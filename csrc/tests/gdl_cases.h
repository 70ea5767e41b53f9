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

#endif
