/* pn_engine.c -- the chooser of the GDL playout engines.
 *
 * A propnet game has four ways to play: the plain evaluation (pn_plain.c, the
 * reference), the differential engine (pn_diff*.c: one game, only what changes), the
 * word-parallel evaluation (pn_bits.c: nets of at most 128 nodes in one or two words)
 * and the lanes (pn_lanes.c: batches of 64 games, a game per bit).  This file builds
 * their tables, weighs them once per game on the differential engine's calibration
 * playouts (a count, not a clock), and dispatches the game's play(), playout() and
 * playouts() to the one that plays; with it are gdl_api.h's functions that name or
 * test an engine.  The only file that knows every engine; none of them calls it, and
 * propnet.c (the vtable) calls the engines only through it.
 */
#include <stdlib.h>
#include <string.h>

#include "pn_bits.h"
#include "pn_diff.h"
#include "pn_engine.h"
#include "pn_lanes.h"
#include "pn_plain.h"

/* ---- building and choosing ------------------------------------------------------- */

int pn_engines_build(pn_data *d) {
    int rc = pn_diff_build(d, PN_FAM_BY_GROUPS);
    if (rc == MIAI_OK) rc = pn_bits_build(d);
    if (rc == MIAI_OK) rc = pn_lanes_build(d);
    return rc;
}

void pn_engines_free(pn_data *d) {
    pn_diff_free(&d->diff);
    pn_bits_free(&d->bits);
    pn_lanes_free(&d->lanes);
}

/* The differential engine's way of a ply and its families (pn_diff_calibrate); its
 * work a ply then decides whether a net of 65-128 nodes uses the word-parallel
 * evaluation instead (pn_bits_choose) and which batches run in the lanes, once their
 * guarded blocks are made (pn_lanes_calibrate, pn_lanes_choose).  Without the
 * differential engine there is nothing to weigh them against: bits as built, no lanes. */
int pn_engines_calibrate(miai_game *g) {
    pn_data *d = g->data;
    if (!d->diff.enabled) return MIAI_OK;
    pn_diff_cost cost;
    int rc = pn_diff_calibrate(g, &cost);
    if (rc != MIAI_OK || !d->diff.enabled) return rc;
    pn_bits_choose(d, cost.per_ply);
    if ((rc = pn_lanes_calibrate(g)) != MIAI_OK) return rc;
    pn_lanes_choose(d, cost.per_ply, cost.lengths, PN_CALIBRATION_PLAYOUTS);
    return MIAI_OK;
}

/* ---- the game's play, playout and playouts --------------------------------------- */

void pn_play(const miai_game *g, void *state, const miai_move *moves) {
    const pn_data *d = g->data;
    if (d->bits.enabled) {
        pn_play_bits(g, state, moves);
        return;
    }
    if (!d->diff.enabled || d->n_nodes < PN_DIFF_PLAY_MIN_NODES) {
        pn_play_plain(g, state, moves);
        return;
    }
    pn_diff_play(g, state, moves);
}

/* (the differential engine's way of a ply chosen by pn_diff_calibrate) */
uint32_t pn_playout(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                    uint32_t trace_cap, uint32_t *trace_len) {
    const pn_data *d = g->data;
    if (d->bits.enabled)
        return pn_bits_playout(g, state, rng, trace, trace_cap, trace_len, NULL, NULL, NULL);
    if (!d->diff.enabled)
        return miai_generic_playout(g, state, rng, trace, trace_cap, trace_len);
    return pn_diff_run(g, state, rng, trace, trace_cap, trace_len, NULL,
                       d->diff.clear_joint, NULL);
}

uint32_t pn_playout_mast(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                         uint32_t trace_cap, uint32_t *trace_len, miai_mast *mast) {
    const pn_data *d = g->data;
    if (d->bits.enabled)
        return pn_bits_playout(g, state, rng, trace, trace_cap, trace_len, NULL, NULL, mast);
    if (!d->diff.enabled)
        return miai_generic_playout_mast(g, state, rng, trace, trace_cap, trace_len, mast);
    return pn_diff_run_mast(g, state, rng, trace, trace_cap, trace_len, d->diff.clear_joint,
                            mast);
}

/* (a batch the lanes leave goes to the differential engine unless the word-parallel
 * evaluation comes first: then, and for a batch of one, the caller plays them one by
 * one by playout()) */
int pn_playouts(const miai_game *g, const void *state, uint64_t n, miai_rng *rng, double *sum,
                uint64_t *plies) {
    const pn_data *d = g->data;
    if (!d->lanes.min_batch || n < d->lanes.min_batch) {
        if (n < 2 || d->bits.enabled) return MIAI_ELIMIT;
        return pn_diff_playouts(g, state, n, rng, sum, plies, 0);
    }
    return pn_lanes_playouts(g, state, n, rng, sum, plies, NULL);
}

/* ---- gdl_api.h: the engines named and tested ------------------------------------- */

int miai_gdl_diff_playouts(const miai_game *g, const void *state, uint64_t n, uint64_t seed,
                           int restart, double *sum, uint32_t cap, uint64_t *plies) {
    if (!g || !state || !sum || !plies || g->ops->playout != pn_playout) return MIAI_EINVAL;
    if (n > MIAI_GDL_BATCH_MAX || cap < g->facts.n_roles || (restart != 0 && restart != 1))
        return MIAI_EINVAL;
    miai_rng rng;
    miai_rng_seed(&rng, seed);
    for (uint32_t r = 0; r < g->facts.n_roles; r++) sum[r] = 0.0;
    *plies = 0;
    if (((const pn_data *)g->data)->bits.enabled) return MIAI_ELIMIT; /* it comes first */
    return pn_diff_playouts(g, state, n, &rng, sum, plies, restart);
}

int miai_gdl_playout_engine(const miai_game *g, int *engine) {
    if (!g || !engine || g->ops->playout != pn_playout) return MIAI_EINVAL;
    const pn_data *d = g->data;
    *engine = d->bits.enabled        ? MIAI_GDL_ENGINE_BITS
              : !d->diff.enabled     ? MIAI_GDL_ENGINE_NONE
              : d->diff.clear_joint  ? MIAI_GDL_ENGINE_DIFF_CLEAR
                                     : MIAI_GDL_ENGINE_DIFF;
    return MIAI_OK;
}

int miai_gdl_family_stats(const miai_game *g, uint32_t *groups, uint32_t *guarded) {
    if (!g || !groups || !guarded || g->ops->playout != pn_playout) return MIAI_EINVAL;
    const pn_data *d = g->data;
    *groups = d->diff.enabled ? d->diff.n_groups : 0;
    *guarded = d->diff.enabled ? d->diff.n_guarded : 0;
    return MIAI_OK;
}

/* The fast engine a check compares with the plain evaluation: `*engine` (AUTO: the
 * game's own) if it is built for this net; MIAI_ELIMIT when none is. */
static int pn_check_engine(const miai_game *g, int *engine) {
    const pn_data *d = g->data;
    if (*engine == MIAI_GDL_ENGINE_AUTO) miai_gdl_playout_engine(g, engine);
    if (*engine == MIAI_GDL_ENGINE_NONE) return MIAI_ELIMIT;
    if (*engine < MIAI_GDL_ENGINE_DIFF || *engine > MIAI_GDL_ENGINE_DIFF_CLEAR)
        return MIAI_EINVAL;
    if (*engine == MIAI_GDL_ENGINE_BITS ? !d->bits.built : !d->diff.enabled)
        return MIAI_ELIMIT;
    return MIAI_OK;
}

int miai_gdl_playout_check(const miai_game *g, const void *state, uint64_t seed,
                           int engine, uint32_t *plies) {
    if (!g || !state || !plies || g->ops->playout != pn_playout) return MIAI_EINVAL;
    const pn_data *d = g->data;
    int ok = pn_check_engine(g, &engine);
    if (ok != MIAI_OK) return ok;
    size_t size = g->facts.state_size;
    uint64_t want = (uint64_t)g->facts.max_plies * g->facts.n_roles;
    uint32_t cap = want < (1u << 24) ? (uint32_t)want : (1u << 24);
    uint8_t *fast = malloc(size), *shadow = malloc(size), *plain = malloc(size);
    miai_move *t1 = malloc(sizeof *t1 * cap), *t2 = malloc(sizeof *t2 * cap);
    pn_check_ctx ctx = {.shadow = shadow, .v = malloc(d->n_nodes),
                        .cnt = malloc(sizeof(int32_t) * d->n_nodes)};
    int rc = MIAI_ENOMEM;
    if (fast && shadow && plain && t1 && t2 && ctx.v && ctx.cnt) {
        memcpy(fast, state, size);
        memcpy(shadow, state, size);
        memcpy(plain, state, size);
        miai_rng r1, r2;
        miai_rng_seed(&r1, seed);
        miai_rng_seed(&r2, seed);
        uint32_t l1 = 0, l2 = 0;
        if (engine == MIAI_GDL_ENGINE_BITS)
            *plies = pn_bits_playout(g, fast, &r1, t1, cap, &l1, shadow, &ctx.bad, NULL);
        else
            *plies = pn_diff_run(g, fast, &r1, t1, cap, &l1, &ctx,
                                 engine == MIAI_GDL_ENGINE_DIFF_CLEAR, NULL);
        uint32_t p2 = miai_generic_playout(g, plain, &r2, t2, cap, &l2);
        int same = ctx.bad == 0 && p2 == *plies && l1 == l2 &&
                   memcmp(t1, t2, sizeof *t1 * l1) == 0 && memcmp(fast, plain, size) == 0;
        rc = same ? MIAI_OK : MIAI_ECORRUPT;
    }
    free(fast);
    free(shadow);
    free(plain);
    free(t1);
    free(t2);
    free(ctx.v);
    free(ctx.cnt);
    return rc;
}

int miai_gdl_lanes_min_batch(const miai_game *g, uint32_t *n) {
    if (!g || !n || g->ops->playouts != pn_playouts) return MIAI_EINVAL;
    *n = ((const pn_data *)g->data)->lanes.min_batch;
    return MIAI_OK;
}

int miai_gdl_lanes_blocks(const miai_game *g, uint32_t *blocks, uint32_t *gates,
                          uint64_t *work) {
    if (!g || !blocks || !gates || !work || g->ops->playouts != pn_playouts) return MIAI_EINVAL;
    const pn_lanes_tables *t = &((const pn_data *)g->data)->lanes;
    *blocks = t->built ? t->n_blocks : 0;
    *gates = 0;
    for (uint32_t b = 0; b < *blocks; b++) *gates += t->blk_len[b];
    *work = t->built ? t->work : 0;
    return MIAI_OK;
}

int miai_gdl_lane_playouts(const miai_game *g, const void *state, uint32_t n, uint64_t seed,
                           uint32_t cap, miai_move *moves, uint32_t *counts, uint32_t *plies,
                           double *rewards) {
    if (!g || !state || !moves || !counts || !plies || !rewards || g->ops->playouts != pn_playouts)
        return MIAI_EINVAL;
    if (n > MIAI_GDL_LANE_TRACE_MAX || cap > MIAI_GDL_LANE_TRACE_MAX) return MIAI_EINVAL;
    const pn_data *d = g->data;
    if (!d->lanes.built) return MIAI_ELIMIT;
    pn_lane_trace tr = {.cap = cap, .moves = moves, .counts = counts, .plies = plies,
                        .rewards = rewards};
    miai_rng rng;
    miai_rng_seed(&rng, seed);
    double sum[MIAI_MAX_ROLES];
    uint64_t total;
    return pn_lanes_playouts(g, state, n, &rng, sum, &total, &tr);
}

/* A MAST table for miai_gdl_mast_check (mast.h), its arrays malloc'd. */
static int pn_mast_make(const miai_game *g, miai_mast *t, double eps, double temp) {
    const miai_game_facts *f = &g->facts;
    size_t cells = (size_t)f->n_roles * f->num_moves;
    uint64_t cap = (uint64_t)f->max_plies * f->n_roles;
    *t = (miai_mast){.n_roles = f->n_roles, .num_moves = f->num_moves, .eps = eps,
                     .temp = temp, .seen_cap = cap < (1u << 24) ? (uint32_t)cap : (1u << 24)};
    t->sum = calloc(cells, sizeof *t->sum);
    t->n = calloc(cells, sizeof *t->n);
    t->seen = malloc(sizeof *t->seen * (t->seen_cap ? t->seen_cap : 1));
    t->buf = malloc(sizeof *t->buf * (f->max_legal ? f->max_legal : 1));
    return t->sum && t->n && t->seen && t->buf ? MIAI_OK : MIAI_ENOMEM;
}

static void pn_mast_drop(miai_mast *t) {
    free(t->sum);
    free(t->n);
    free(t->seen);
    free(t->buf);
}

int miai_gdl_mast_check(const miai_game *g, const void *state, uint64_t seed, int engine,
                        uint32_t n, double eps, double temp, uint64_t *plies) {
    if (!g || !state || !plies || g->ops->playout != pn_playout) return MIAI_EINVAL;
    if (n > MIAI_GDL_LANE_TRACE_MAX || !(eps >= 0.0 && eps <= 1.0) || !(temp >= 0.0) ||
        temp > 1e300)
        return MIAI_EINVAL;
    int ok = pn_check_engine(g, &engine);
    if (ok != MIAI_OK) return ok;
    size_t size = g->facts.state_size, cells = (size_t)g->facts.n_roles * g->facts.num_moves;
    uint64_t want = (uint64_t)g->facts.max_plies * g->facts.n_roles;
    uint32_t cap = want < (1u << 24) ? (uint32_t)want : (1u << 24);
    uint8_t *fast = malloc(size), *plain = malloc(size);
    miai_move *t1 = malloc(sizeof *t1 * cap), *t2 = malloc(sizeof *t2 * cap);
    miai_mast m1, m2;
    int rc = pn_mast_make(g, &m1, eps, temp);
    int rc2 = pn_mast_make(g, &m2, eps, temp);
    if (rc == MIAI_OK && (rc2 != MIAI_OK || !fast || !plain || !t1 || !t2)) rc = MIAI_ENOMEM;
    *plies = 0;
    miai_rng r1, r2;
    miai_rng_seed(&r1, seed);
    miai_rng_seed(&r2, seed);
    for (uint32_t i = 0; i < n && rc == MIAI_OK; i++) {
        memcpy(fast, state, size);
        memcpy(plain, state, size);
        uint32_t l1 = 0, l2 = 0, p1;
        if (engine == MIAI_GDL_ENGINE_BITS)
            p1 = pn_bits_playout(g, fast, &r1, t1, cap, &l1, NULL, NULL, &m1);
        else
            p1 = pn_diff_run_mast(g, fast, &r1, t1, cap, &l1,
                                  engine == MIAI_GDL_ENGINE_DIFF_CLEAR, &m1);
        uint32_t p2 = miai_generic_playout_mast(g, plain, &r2, t2, cap, &l2, &m2);
        double w1[MIAI_MAX_ROLES], w2[MIAI_MAX_ROLES];
        miai_game_outcome(g, fast, w1);
        miai_game_outcome(g, plain, w2);
        miai_mast_add_seen(&m1, w1);
        miai_mast_add_seen(&m2, w2);
        *plies += p1;
        if (p1 != p2 || l1 != l2 || memcmp(t1, t2, sizeof *t1 * l1) != 0 ||
            memcmp(fast, plain, size) != 0 || memcmp(m1.n, m2.n, sizeof *m1.n * cells) != 0 ||
            memcmp(m1.sum, m2.sum, sizeof *m1.sum * cells) != 0)
            rc = MIAI_ECORRUPT;
    }
    pn_mast_drop(&m1);
    pn_mast_drop(&m2);
    free(fast);
    free(plain);
    free(t1);
    free(t2);
    return rc;
}
