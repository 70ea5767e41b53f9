/* go_api.h -- Go-specific entry points (handicap, setup, scores, ownership, text) for
 * the GTP engine and tools; the rules themselves are the "go" game (csrc/games/go.c).
 *
 * Contract:
 *   - `g` must be a game created by miai_game_create("go", ...) and `state` a state
 *     of that game object (miai_game_facts.state_size bytes); any other g gives
 *     MIAI_EINVAL.  Every pointer, count and capacity is validated; bad input returns
 *     a MIAI_E* code and leaves the state unchanged.
 *   - Points are move ids 0 .. size^2 - 1 (row-major from the top-left, as in the
 *     game interface); per-point arrays have size^2 entries in that order.
 *   - Colours: GO_COLOR_EMPTY, GO_COLOR_BLACK, GO_COLOR_WHITE.
 *   - Playout-based functions (ownership, dead stones) are deterministic for a seed;
 *     they play from a copy of the position with the game treated as still going
 *     (a finished game is resumed by the side that would move next), so they work on
 *     a game ended by two passes.
 *   - No global state; callable from any thread on distinct states.
 */
#ifndef MIAI_GO_API_H
#define MIAI_GO_API_H

#include <stddef.h>
#include <stdint.h>

#include "../core/game_api.h"

#define GO_COLOR_EMPTY 0
#define GO_COLOR_BLACK 1
#define GO_COLOR_WHITE 2

/* Board size and komi of a Go game. */
int go_get_size(const miai_game *g, uint32_t *size, double *komi);

/* GTP's fixed_handicap placement of n stones (2..9 on odd sizes >= 9, 2..4 on size 7
 * and even sizes >= 8, none below 7): the points into out[0..cap), *count = n.
 * An n the board does not allow gives MIAI_EINVAL. */
int go_fixed_handicap_points(const miai_game *g, uint32_t n, miai_move *out, uint32_t cap,
                             uint32_t *count);

/* Handicap on an empty board before any move: black stones on points[0..n)
 * (2 <= n < size^2, distinct points); white moves next.  Not empty / moves already
 * played: MIAI_ESTATE. */
int go_place_handicap(const miai_game *g, void *state, const miai_move *points, uint32_t n);

/* go_place_handicap with go_fixed_handicap_points(n). */
int go_place_fixed_handicap(const miai_game *g, void *state, uint32_t n);

/* Setup stones before any move is played (ply 0): colours[i] (black or white) on the
 * empty points[i]; then `to_move` (0 black, 1 white) moves.  Stones are added to the
 * board as it is, nothing is captured: a setup leaving any group without a liberty,
 * a point given twice or already occupied gives MIAI_EINVAL.  The position becomes
 * the start of the superko history. */
int go_setup_stones(const miai_game *g, void *state, const miai_move *points,
                    const uint8_t *colors, uint32_t n, int32_t to_move);

/* GTP's `play COLOR VERTEX`: `role` (0 black, 1 white) plays `move` (a point or pass
 * = size^2) whether or not it is that side's turn; the other side moves next.  The full
 * rules apply (no suicide, positional superko); illegal -> MIAI_EILLEGAL, a finished
 * game -> MIAI_ETERMINAL, and the state is unchanged.  An out-of-turn pass still
 * counts towards the two consecutive passes that end the game. */
int go_play_as(const miai_game *g, void *state, int32_t role, miai_move move);

/* The colour of every point into out[0..cap), cap >= size^2. */
int go_colors(const miai_game *g, const void *state, uint8_t *out, uint32_t cap);

/* Stones captured so far by black and by white. */
int go_captures(const miai_game *g, const void *state, uint32_t *by_black,
                uint32_t *by_white);

/* The simple-ko point (a move id) the side to move may not retake, or size^2 if none. */
int go_ko_point(const miai_game *g, const void *state, miai_move *out);

/* Area score: stones plus empty regions bordered by one colour only.  dead: NULL (all
 * stones alive) or n_dead == size^2 flags, nonzero = the stone there is dead (removed
 * before counting; flags on empty points are ignored).  *margin = black - white - komi. */
int go_score(const miai_game *g, const void *state, const uint8_t *dead, uint32_t n_dead,
             uint32_t *black_area, uint32_t *white_area, double *margin);

/* Owner of every point by that count (GO_COLOR_*, EMPTY = neutral) into out[0..cap). */
int go_owners(const miai_game *g, const void *state, const uint8_t *dead, uint32_t n_dead,
              uint8_t *out, uint32_t cap);

/* Ownership over n playouts from the position (Huang et al.): black_share[p] =
 * b_p(n)/n, the fraction of playouts whose final position gives p to black, and
 * territory[p] = (b_p(n) - w_p(n)) / n in [-1, 1] (eq. 16).  Either array may be NULL. */
int go_ownership(const miai_game *g, const void *state, uint64_t n, uint64_t seed,
                 double *black_share, double *territory, uint32_t cap);

/* For a search that runs its own playouts: add the owners of a final position to
 * per-point counters (black_counts[p]++ / white_counts[p]++), cap >= size^2 ... */
int go_ownership_add(const miai_game *g, const void *state, uint32_t *black_counts,
                     uint32_t *white_counts, uint32_t cap);

/* ... and turn n playouts' counters into the territory values of eq. 16. */
int go_territory(const miai_game *g, const uint32_t *black_counts,
                 const uint32_t *white_counts, uint64_t n, double *territory, uint32_t cap);

/* Dead stones estimated from ownership (GTP final_status_list): a group is dead when
 * its stones' mean territory value over n playouts (eq. 16) favours the opponent.
 * dead[p] = 1 for dead stones, 0 elsewhere; cap >= size^2; n >= 1. */
int go_dead_stones(const miai_game *g, const void *state, uint64_t n, uint64_t seed,
                   uint8_t *dead, uint32_t cap);

/* One playout from (a copy of) the position with the game's playout policy; the
 * moves into trace[0..cap) (pass = size^2), *len moves recorded, *plies played. */
int go_playout_trace(const miai_game *g, const void *state, uint64_t seed, miai_move *trace,
                     uint32_t cap, uint32_t *len, uint32_t *plies);

/* Ladder reading (go_ladder_read, go_policy.h): the group of the stone at `point`
 * (a move id), which must be in atari, extends at its liberty and the attacker ataris
 * it again as long as it has two liberties; *captured = 1 if the ladder takes it, 0 if
 * it escapes.  Its colour moves next whoever is to move in the state. */
int go_ladder_captures(const miai_game *g, const void *state, miai_move point,
                       int32_t *captured);

/* The board as text: size lines of size characters, top row first, '.' empty,
 * 'X' black, 'O' white, each line ending in '\n'; NUL-terminated, truncated to cap. */
int go_board_text(const miai_game *g, const void *state, char *buf, size_t cap);

#endif
