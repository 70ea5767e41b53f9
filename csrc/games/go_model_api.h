/* go_model_api.h -- a learned move model for Go: the features of a move and the
 * model's probability of each move (Coulom, "Computing Elo Ratings of Move Patterns in
 * the Game of Go", ICGA Journal 30(4), 2007: a generalised Bradley-Terry model whose
 * move strength is the product of its features' gammas).
 *
 * Contract:
 *   - `g` is a game created by miai_game_create("go", ...), `state` a state of it;
 *     anything else gives MIAI_EINVAL.  moves[i] are move ids (points, pass =
 *     size^2) legal for the side to move; an occupied point gets no features (all 0).
 *   - go_move_features writes GO_FEATURES numbers per move, out[i * GO_FEATURES + f]:
 *     the level of feature group f, 0 = absent.  Groups and levels:
 *       GO_F_PASS       a pass while more than half of the board is empty: 1, more than
 *                       a quarter: 2, less: 3;
 *       GO_F_CAPTURE    1 a capture that takes a group next to an own group in atari,
 *                       2 one that takes the group of the last move, 3 any other;
 *       GO_F_ESCAPE     extending an own group in atari at its liberty: 1 to one
 *                       liberty, 2 to two where the ladder then captures it, 3 to two
 *                       where it escapes, 4 to three or more;
 *       GO_F_SELF_ATARI a move that captures nothing and leaves its group one liberty:
 *                       1 a single stone, 2 a group of two or more;
 *       GO_F_ATARI      putting an enemy group in atari: 1 plain, 2 a ladder that
 *                       captures it, 3 while a simple-ko point is on the board;
 *       GO_F_EYE        1 filling an own eye (go_board.h's eye);
 *       GO_F_LINE       the distance to the edge: line 1, 2, 3, 4, or 5 for the fifth
 *                       line and beyond;
 *       GO_F_DIST       distance to the last move d = |dx| + |dy| + max(|dx|, |dy|)
 *                       (Coulom's), level min(d, 17) - 1 (1 = adjacent ... 16 = 17 and
 *                       more); 0 after a pass or at the start;
 *       GO_F_PATTERN    1 + the 3x3 pattern key (go_pattern_key) of the point.
 *   - go_pattern_key: the eight neighbours, each 3 bits (colour relative to the mover:
 *     0 empty, 1 own, 2 enemy, 3 edge; plus 4 on an orthogonal neighbour that is a
 *     stone in atari), packed in the ring order NW N NE W E SW S SE, reduced to the
 *     smallest over the 8 rotations and reflections: a 24-bit key.
 *   - go_model_probs: the built-in model's probability of each of moves[0..n) (the
 *     gammas learnt by scripts/learn_go_patterns.py, csrc/games/go_model_data.h; a
 *     pattern it did not see has the gamma of the rare patterns), summing to 1.
 *   - No global mutable state; the model's tables are constant.
 */
#ifndef MIAI_GO_MODEL_API_H
#define MIAI_GO_MODEL_API_H

#include <stdint.h>

#include "../core/game_api.h"

#define GO_FEATURES 9
#define GO_F_PASS 0
#define GO_F_CAPTURE 1
#define GO_F_ESCAPE 2
#define GO_F_SELF_ATARI 3
#define GO_F_ATARI 4
#define GO_F_EYE 5
#define GO_F_LINE 6
#define GO_F_DIST 7
#define GO_F_PATTERN 8
#define GO_MODEL_LEVELS 17 /* levels 0..16 of the groups before GO_F_PATTERN */

int go_move_features(const miai_game *g, const void *state, const miai_move *moves,
                     uint32_t n, uint32_t *out, uint32_t cap);

int go_model_probs(const miai_game *g, const void *state, const miai_move *moves,
                   uint32_t n, double *prob);

/* The hand-written prior knowledge the model is compared with: go_prior_kinds
 * (go_policy.h) of the game's policy bits, kind[i] = +1, 0 or -1. */
int go_knowledge_kinds(const miai_game *g, const void *state, const miai_move *moves,
                       uint32_t n, int8_t *kind);

/* The built-in model's size: *n_patterns pattern gammas; *levels = GO_MODEL_LEVELS. */
int go_model_info(uint32_t *n_patterns, uint32_t *levels);

#endif
