/* pn_diff.h -- the differential engine, in three files that call downwards only:
 *   pn_diff_calibrate.c (its choices, once per game)
 *     -> pn_diff_tables.c (its tables, built once per game)
 *     -> pn_diff.c (the waves: a ply, play(), a playout, a batch, check mode)
 *     -> pn_plain.c.
 * (pn_diff_calibrate.c also calls pn_diff.c.)  No file of it calls another engine. */
#ifndef MIAI_PN_DIFF_H
#define MIAI_PN_DIFF_H

#include "pn_internal.h"

/* ---- pn_diff_tables.c ---------------------------------------------------------- */

/* families: PN_FAM_NONE builds the tables without following the mutex families;
 * PN_FAM_BY_GROUPS picks each AND's guard by the groups it makes (pn_guard_pick),
 * PN_FAM_BY_SIZE by family size alone; pn_diff_calibrate keeps the one whose playouts
 * count less work. */
enum { PN_FAM_NONE, PN_FAM_BY_GROUPS, PN_FAM_BY_SIZE };
int pn_diff_build(pn_data *d, int families);
void pn_diff_free(pn_diff_tables *t);

/* ---- pn_diff.c ----------------------------------------------------------------- */

/* The work of waves, counted for pn_diff_calibrate: per node that a wave changes, 1 +
 * its links (a gate settles at most once per wave, so comparing the values before and
 * after a wave finds every change).  before: n_nodes bytes of scratch. */
typedef struct {
    uint8_t *before;
    uint64_t steps;
    /* on a net that follows families: the family links' work (group lookups and the
     * ANDs they reach, guards' ANDs counted again from their inputs) and what the same
     * changes would have cost as counted edges */
    uint64_t fam, unfam;
} pn_tally;

/* Check mode of pn_diff_run: a copy of the start state played by pn_play_plain, and
 * scratch for pn_verify; `bad` counts the differences. */
typedef struct {
    void *shadow;
    uint8_t *v;
    int32_t *cnt;
    uint32_t bad;
} pn_check_ctx;

/* The snapshot, the initial state's work block (the last step of pn_diff_build). */
int pn_diff_snapshot(pn_data *d);
/* play() by the differential engine. */
void pn_diff_play(const miai_game *g, void *state, const miai_move *moves);
/* A playout by the differential engine; with `check`, every ply is also played by
 * pn_play_plain and verified; `clear`: the way of a ply (pn_diff_ply); `tally`: count
 * the work (NULL: none). */
uint32_t pn_diff_run(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                     uint32_t trace_cap, uint32_t *trace_len, pn_check_ctx *check, int clear,
                     pn_tally *tally);
/* A playout by the differential engine with MAST's policy (mast.h). */
uint32_t pn_diff_run_mast(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                          uint32_t trace_cap, uint32_t *trace_len, int clear,
                          miai_mast *mast);
/* n playouts on one work block, each from where the last one ended where that is
 * closer (restart 1: always); MIAI_ELIMIT without the differential engine. */
int pn_diff_playouts(const miai_game *g, const void *state, uint64_t n, miai_rng *rng,
                     double *sum, uint64_t *plies, int restart);

/* ---- pn_diff_calibrate.c ------------------------------------------------------- */

/* What the calibration playouts counted: the differential engine's node changes and
 * links a ply, and the playouts' lengths (what the other engines are weighed against). */
typedef struct {
    double per_ply;
    uint32_t lengths[PN_CALIBRATION_PLAYOUTS];
} pn_diff_cost;

/* Sets diff.clear_joint, the way of the two that does less work on 16 playouts, and
 * drops the family groups where they cost more than they save; fills *cost when the
 * engine is enabled (else leaves it). */
int pn_diff_calibrate(miai_game *g, pn_diff_cost *cost);

#endif
