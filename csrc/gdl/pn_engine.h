/* pn_engine.h -- the chooser (pn_engine.c): builds the playout engines, picks the one
 * that plays each of play(), playout() and playouts(), and dispatches to it.  The only
 * file that knows all engines (pn_diff*.c, pn_bits.c, pn_lanes.c); propnet.c calls it
 * and no engine directly. */
#ifndef MIAI_PN_ENGINE_H
#define MIAI_PN_ENGINE_H

#include "pn_internal.h"

/* Every engine's tables (the differential engine's following the families, guards
 * picked by groups). */
int pn_engines_build(pn_data *d);
void pn_engines_free(pn_data *d);
/* Once the game is made: the differential engine's calibration playouts, then the
 * word-parallel evaluation and the lanes chosen by its count (nothing without it). */
int pn_engines_calibrate(miai_game *g);
/* ops->play: the word-parallel evaluation where it is enabled, the plain one on a net
 * of under PN_DIFF_PLAY_MIN_NODES nodes, else the differential engine. */
void pn_play(const miai_game *g, void *state, const miai_move *moves);
/* ops->playout: the word-parallel evaluation where it is enabled, else the
 * differential engine, else the generic loop over play(). */
uint32_t pn_playout(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                    uint32_t trace_cap, uint32_t *trace_len);
/* ops->playout_mast: the same engines, with MAST's policy (mast.h). */
uint32_t pn_playout_mast(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                         uint32_t trace_cap, uint32_t *trace_len, miai_mast *mast);
/* ops->playouts: n playouts by the lanes; a batch under lanes.min_batch (of 2 or
 * more) on one block of the differential engine (pn_diff_playouts); else MIAI_ELIMIT:
 * the caller plays them one by one. */
int pn_playouts(const miai_game *g, const void *state, uint64_t n, miai_rng *rng, double *sum,
                uint64_t *plies);

#endif
