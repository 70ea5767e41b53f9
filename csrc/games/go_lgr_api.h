/* go_lgr_api.h -- the Go game's last-good-reply playouts (go_policy.h, GO_POLICY_LGR),
 * driven one playout at a time on a caller's memory: for tests and tools.  A search
 * does the same on its own memory (game.h's playout memory).
 *
 * Contract:
 *   - `g` is a game made by miai_game_create("go", ...) with bit 64 in its `policy`
 *     (bit 128 as well for the two-move table)
 *     (else MIAI_EINVAL); `memory` has at least go_lgr_memory_bytes bytes and starts
 *     all zero (nothing learnt); moves are the game's ids (size^2 = pass).
 *   - The reply table: for role r (0 black, 1 white) and a point q, the point r plays
 *     first after a move at q, or none (size^2).
 *   - No global state; deterministic for a seed.
 */
#ifndef MIAI_GO_LGR_API_H
#define MIAI_GO_LGR_API_H

#include <stddef.h>
#include <stdint.h>

#include "../core/game_api.h"

/* Bytes of the memory. */
int go_lgr_memory_bytes(const miai_game *g, size_t *bytes);

/* One playout from `state` (played out in place: a non-terminal state of g) with the
 * game's policy bits and the reply table, learning from it (LGRF-1); its moves into
 * trace[0..cap), *len how many were recorded. */
int go_lgr_playout(const miai_game *g, void *state, uint64_t seed, void *memory,
                   size_t bytes, miai_move *trace, uint32_t cap, uint32_t *len);

/* Read / write the reply of `role` to a move at point `prev` (reply size^2 = none). */
int go_lgr_get(const miai_game *g, const void *memory, size_t bytes, int32_t role,
               miai_move prev, miai_move *reply);
int go_lgr_set(const miai_game *g, void *memory, size_t bytes, int32_t role, miai_move prev,
               miai_move reply);

/* With bit 128 too (LGRF-2): the reply of `role` to a move at `before` followed by one
 * at `prev` (MIAI_EINVAL without the bit). */
int go_lgr_get2(const miai_game *g, const void *memory, size_t bytes, int32_t role,
                miai_move before, miai_move prev, miai_move *reply);
int go_lgr_set2(const miai_game *g, void *memory, size_t bytes, int32_t role,
                miai_move before, miai_move prev, miai_move reply);

#endif
