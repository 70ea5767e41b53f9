/* pn_lanes.h -- the lanes (pn_lanes.c): batches of playouts 64 at a time, a game per
 * bit of a word.  pn_lanes.c calls no other file of csrc/gdl. */
#ifndef MIAI_PN_LANES_H
#define MIAI_PN_LANES_H

#include "pn_internal.h"

/* What a test records of the batch's playouts, in the order they start (NULL: none). */
typedef struct {
    uint32_t cap;        /* plies recorded per playout */
    miai_move *moves;    /* [n][cap][n_roles] each role's move */
    uint32_t *counts;    /* [n][cap][n_roles] each role's legal moves */
    uint32_t *plies;     /* [n] */
    double *rewards;     /* [n][n_roles] */
} pn_lane_trace;

int pn_lanes_build(pn_data *d);
/* Sets lanes.min_batch, the least batch the lanes run (diff_work: the differential
 * engine's node changes and links a ply; lengths: the plies of the m calibration
 * playouts; PN_LANES_RATIO); 0 for none. */
void pn_lanes_choose(pn_data *d, double diff_work, const uint32_t *lengths, uint32_t m);
/* A batch of playouts in the lanes from the initial state; its counts of true words
 * choose the guarded blocks, and `work` becomes what a ply evaluates with them. */
int pn_lanes_calibrate(miai_game *g);
void pn_lanes_free(pn_lanes_tables *t);
/* n playouts from `state` in the lanes (its bases and ply); sum[r] gets the sum of
 * role r's rewards, *plies the plies played; tr: what a test records (NULL: none). */
int pn_lanes_playouts(const miai_game *g, const void *state, uint64_t n, miai_rng *rng,
                      double *sum, uint64_t *plies, const pn_lane_trace *tr);

#endif
