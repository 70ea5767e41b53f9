/* pn_plain.h -- the plain evaluation (pn_plain.c), the bottom of csrc/gdl: the
 * primitives every playout engine shares.  pn_plain.c calls no other file here. */
#ifndef MIAI_PN_PLAIN_H
#define MIAI_PN_PLAIN_H

#include "pn_internal.h"

/* The plain play (the reference the other engines must equal). */
void pn_play_plain(const miai_game *g, void *state, const miai_move *moves);
/* The legal bits, to_move and goals of the state's base bits by the plain evaluation;
 * v: n_nodes bytes of scratch. */
void pn_status(const pn_data *d, pn_state *s, uint8_t *v);
/* to_move from each role's count of legal moves and terminal: MIAI_NOBODY when over or
 * a role has none, the one role with several, MIAI_SIMULTANEOUS for more, else role 0
 * (gdl_api.h). */
int32_t pn_to_move(const pn_data *d, const uint32_t *count, int terminal);
/* The joint move play() applies: the others' only moves filled in when one role is to
 * move. */
void pn_full_joint(const pn_data *d, const pn_state *s, const miai_move *moves,
                   miai_move *joint);
/* ops->rewards: the goal bytes of a finished state; the goal program for any other. */
void pn_rewards(const miai_game *g, const void *state, double *out);
/* mark[i] = 1 for the nodes the outputs need (a range whole), else 0. */
int pn_mark_cone(const pn_data *d, const uint32_t *outs, uint32_t n_outs, uint8_t *mark);

#endif
