/* go_model_api.c -- the public entry points of the learned Go move model
 * (go_model_api.h): arguments checked here, the work done by go_model.c on the game's
 * go_data.  Apart from go_model.c so that the model's code does not depend on the
 * game's (go.c uses the model for its prior hook; this file uses both). */
#include "go.h"
#include "go_model.h"
#include "go_policy.h"

int go_move_features(const miai_game *g, const void *state, const miai_move *moves,
                     uint32_t n, uint32_t *out, uint32_t cap) {
    if (!go_is_go(g) || !state || (n && (!moves || !out))) return MIAI_EINVAL;
    if ((uint64_t)n * GO_FEATURES > cap) return MIAI_EINVAL;
    return go_model_features(g->data, state, moves, n, out);
}

int go_model_probs(const miai_game *g, const void *state, const miai_move *moves,
                   uint32_t n, double *prob) {
    if (!go_is_go(g) || !state || (n && (!moves || !prob))) return MIAI_EINVAL;
    int rc = go_model_strengths(g->data, state, moves, n, prob);
    if (rc != MIAI_OK) return rc;
    double total = 0;
    for (uint32_t i = 0; i < n; i++) total += prob[i];
    for (uint32_t i = 0; i < n; i++) prob[i] = total > 0 ? prob[i] / total : 1.0 / n;
    return MIAI_OK;
}

int go_knowledge_kinds(const miai_game *g, const void *state, const miai_move *moves,
                       uint32_t n, int8_t *kind) {
    if (!go_is_go(g) || !state) return MIAI_EINVAL;
    return go_prior_kinds(g->data, state, moves, n, kind);
}

int go_model_info(uint32_t *n_patterns, uint32_t *levels) {
    if (!n_patterns || !levels) return MIAI_EINVAL;
    *n_patterns = go_model_pattern_count();
    *levels = GO_MODEL_LEVELS;
    return MIAI_OK;
}
