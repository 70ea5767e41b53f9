/* pn_diff_calibrate.c -- the differential engine's choices, made once per game.
 *
 * Keep the joint move on while the bases propagate, or clear it first (pn_diff_ply);
 * on a net with family groups, also whether following the families does less work
 * than counting those edges (else the tables are built again without them):
 * 16 playouts from the initial state each way with the same seed (each cut short on a
 * big net, below), and the way that
 * changed fewer nodes and walked fewer links wins.  Deterministic (a count, not a
 * clock), and both ways give the same moves and states, so only speed depends on it.
 * The same count per ply (pn_diff_cost) decides whether a net of 65-128 nodes uses the
 * word-parallel evaluation instead, and which batches run in the lanes (pn_engine.c).
 * Calls: pn_diff_tables.c (the tables again), pn_diff.c (the counted playouts).
 */
#include <stdlib.h>
#include <string.h>

#include "pn_diff.h"

/* The calibration playouts: their work (pn_tally) each way of a ply, with the family
 * links and as counted edges, and their lengths. */
typedef struct {
    uint64_t with[2], without[2], plies;
    uint32_t lengths[PN_CALIBRATION_PLAYOUTS]; /* the games' plies (both ways alike) */
} pn_calib;

static int pn_calib_run(miai_game *g, pn_calib *c) {
    pn_data *d = g->data;
    size_t size = g->facts.state_size;
    uint8_t *init = malloc(size), *s = malloc(size), *before = malloc(d->n_nodes);
    int rc = MIAI_ENOMEM;
    if (init && s && before) {
        g->ops->init(g, init);
        pn_tally tally[2] = {{.before = before}, {.before = before}};
        c->plies = 0;
        /* The tally reads every node twice a ply: at most 2^22 / n plies a playout
         * (othello's 200 k nodes: 20 plies; nets under 1,000 nodes: whole games), so
         * a big net or a long game costs milliseconds, not seconds, at creation. */
        uint32_t max_plies = g->facts.max_plies, cap = (1u << 22) / d->n_nodes;
        cap = cap < 4 ? 4 : cap;
        g->facts.max_plies = cap < max_plies ? cap : max_plies;
        for (int clear = 0; clear < 2; clear++) {
            miai_rng rng;
            miai_rng_seed(&rng, 12345);
            for (int k = 0; k < PN_CALIBRATION_PLAYOUTS; k++) {
                memcpy(s, init, size);
                c->lengths[k] =
                    pn_diff_run(g, s, &rng, NULL, 0, NULL, NULL, clear, &tally[clear]);
                c->plies += c->lengths[k];
            }
        }
        g->facts.max_plies = max_plies;
        for (int k = 0; k < 2; k++) {
            c->with[k] = tally[k].steps + tally[k].fam;
            c->without[k] = tally[k].steps + tally[k].unfam;
        }
        rc = MIAI_OK;
    }
    free(init);
    free(s);
    free(before);
    return rc;
}

static uint64_t pn_calib_best(const pn_calib *c) { return c->with[c->with[1] < c->with[0]]; }

int pn_diff_calibrate(miai_game *g, pn_diff_cost *cost) {
    pn_data *d = g->data;
    if (!d->diff.enabled) return MIAI_OK;
    pn_calib c;
    int rc = pn_calib_run(g, &c);
    if (rc != MIAI_OK) return rc;
    if (d->diff.fam && d->diff.guard_pick == PN_FAM_BY_GROUPS) {
        /* the guards picked by family size instead, kept where that counts less work
         * (a guard whose groups reach ANDs that a rarely changing source reads, but
         * that changes every ply itself: breakthrough 4 % more instructions) */
        pn_diff_tables by_groups = d->diff;
        pn_calib by_size;
        if (pn_diff_build(d, PN_FAM_BY_SIZE) == MIAI_OK && d->diff.enabled &&
            pn_calib_run(g, &by_size) == MIAI_OK && pn_calib_best(&by_size) < pn_calib_best(&c)) {
            pn_diff_free(&by_groups);
            c = by_size;
        } else {
            pn_diff_free(&d->diff);
            d->diff = by_groups;
        }
    }
    uint64_t best_with = pn_calib_best(&c);
    if (d->diff.fam && best_with >= c.without[c.without[1] < c.without[0]]) {
        /* the families cost more than they save here (a guard that changes every
         * ply, a source that rarely does): the tables again without them */
        pn_diff_free(&d->diff);
        rc = pn_diff_build(d, PN_FAM_NONE);
        return rc == MIAI_OK ? pn_diff_calibrate(g, cost) : rc;
    }
    d->diff.clear_joint = c.with[1] < c.with[0];
    cost->per_ply = c.plies ? (double)best_with / ((double)c.plies / 2) : 0.0;
    memcpy(cost->lengths, c.lengths, sizeof cost->lengths);
    return MIAI_OK;
}
