/* pn_bits.h -- the word-parallel evaluation (pn_bits.c): nets of at most 128 nodes
 * evaluated in one or two words.  pn_bits.c calls pn_plain.c only. */
#ifndef MIAI_PN_BITS_H
#define MIAI_PN_BITS_H

#include "pn_internal.h"

int pn_bits_build(pn_data *d);
/* Enables the tables built for a net of more than PN_BITS_ALWAYS_NODES nodes when its
 * `next` and `status` gates are at most PN_BITS_RATIO x diff_work, the differential
 * engine's node changes and links per ply (pn_diff_calibrate). */
void pn_bits_choose(pn_data *d, double diff_work);
void pn_bits_free(pn_bits_tables *t);
void pn_play_bits(const miai_game *g, void *state, const miai_move *moves);
/* A random playout from state; with a shadow, each ply is also played by pn_play_plain
 * on it and the two states compared (*bad counts the differences); with mast, the
 * movers' moves drawn by MAST's policy (mast.h) instead. */
uint32_t pn_bits_playout(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                         uint32_t trace_cap, uint32_t *trace_len, void *shadow,
                         uint32_t *bad, miai_mast *mast);

#endif
