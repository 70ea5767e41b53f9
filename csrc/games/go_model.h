/* go_model.h -- what the Go game (go.c) uses of the learned move model (go_model.c).
 * Internal (not read by cffi); the public entry points are go_model_api.h. */
#ifndef MIAI_GO_MODEL_H
#define MIAI_GO_MODEL_H

#include "go_board.h"
#include "go_model_api.h"

/* The 24-bit 3x3 pattern key of empty p for mover c (go_model_api.h). */
uint32_t go_pattern_key(const go_view *v, uint32_t p, uint32_t c);

/* The features of moves[0..n) into out[i * GO_FEATURES + f] (go_model_api.h); move
 * ids checked (MIAI_EINVAL), MIAI_ENOMEM without the ladder reader's scratch. */
int go_model_features(const go_data *d, const void *state, const miai_move *moves,
                      uint32_t n, uint32_t *out);

/* The built-in model's strength (product of gammas) of each of moves[0..n) (ids
 * checked by the caller or here: MIAI_EINVAL); MIAI_ENOMEM without scratch memory. */
int go_model_strengths(const go_data *d, const void *state, const miai_move *moves,
                       uint32_t n, double *out);

/* How many pattern gammas the built-in table holds. */
uint32_t go_model_pattern_count(void);

#endif
