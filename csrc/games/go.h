/* go.h -- what go.c shares with go_api.c: recognising a Go game and scoring.
 * Internal (not read by cffi); the public Go API is go_api.h. */
#ifndef MIAI_GO_H
#define MIAI_GO_H

#include "go_board.h"

/* Is g a game created by the "go" entry (so g->data is a go_data)? */
bool go_is_go(const miai_game *g);

/* Black's area minus white's minus komi; dead: NULL or a flag per padded point. */
double go_margin(const miai_game *g, const void *state, const uint8_t *dead);

/* GTP vertex or "pass" (case-insensitive) to a move id; MIAI_EINVAL otherwise. */
int go_parse_vertex(const miai_game *g, const char *text, miai_move *out);

#endif
