/* search_cases.h -- what the search test programs share: a registered game by name
 * with its default parameters, and an algorithm with its parameters. */
#ifndef MIAI_TEST_SEARCH_CASES_H
#define MIAI_TEST_SEARCH_CASES_H

#include <string.h>

#include "../search/variants_api.h"

/* The registered game `name` with its default parameters (NULL if there is none). */
static inline miai_game *make(const char *name) {
    miai_game_info info;
    for (uint32_t i = 0; i < miai_game_count(); i++) {
        if (miai_game_describe(i, &info) != MIAI_OK || strcmp(info.name, name) != 0) continue;
        miai_game *g = NULL;
        if (miai_game_create(name, info.param_default, info.n_params, &g) != MIAI_OK) return NULL;
        return g;
    }
    return NULL;
}

typedef struct {
    uint32_t algorithm;
    double params[MIAI_SEARCH_PARAMS];
} variant;

#endif
