/* go_lgr.c -- go_lgr_api.h: last-good-reply playouts on a caller's memory. */
#include "go_lgr_api.h"

#include "go.h"
#include "go_policy.h"

static const go_data *go_lgr_data(const miai_game *g, const void *memory, size_t bytes) {
    if (!go_is_go(g) || !memory) return NULL;
    const go_data *d = g->data;
    if (!(d->policy & GO_POLICY_LGR) || bytes < go_lgr_memory_size(d)) return NULL;
    return d;
}

int go_lgr_memory_bytes(const miai_game *g, size_t *bytes) {
    if (!go_is_go(g) || !bytes) return MIAI_EINVAL;
    const go_data *d = g->data;
    if (!(d->policy & GO_POLICY_LGR)) return MIAI_EINVAL;
    *bytes = go_lgr_memory_size(d);
    return MIAI_OK;
}

int go_lgr_playout(const miai_game *g, void *state, uint64_t seed, void *memory,
                   size_t bytes, miai_move *trace, uint32_t cap, uint32_t *len) {
    const go_data *d = go_lgr_data(g, memory, bytes);
    if (!d || !state || !len || (cap && !trace)) return MIAI_EINVAL;
    go_view v = go_view_of(d, state);
    if (v.f->head.to_move != 0 && v.f->head.to_move != 1) return MIAI_ETERMINAL;
    miai_rng rng;
    miai_rng_seed(&rng, seed);
    go_play_out_lgr(&v, d->policy & GO_POLICY_PLAYOUT, &rng, memory, trace, cap, len);
    return MIAI_OK;
}

/* The table slot of role and move prev, or NULL. */
static uint16_t *go_lgr_slot(const go_data *d, const void *memory, int32_t role,
                             miai_move prev) {
    if ((role != 0 && role != 1) || prev >= d->n_moves) return NULL;
    return (uint16_t *)memory + (size_t)role * d->n_points + d->point_of_move[prev];
}

int go_lgr_get(const miai_game *g, const void *memory, size_t bytes, int32_t role,
               miai_move prev, miai_move *reply) {
    const go_data *d = go_lgr_data(g, memory, bytes);
    if (!d || !reply) return MIAI_EINVAL;
    const uint16_t *slot = go_lgr_slot(d, memory, role, prev);
    if (!slot) return MIAI_EINVAL;
    *reply = *slot ? d->move_of_point[*slot] : d->n_moves;
    return MIAI_OK;
}

int go_lgr_set(const miai_game *g, void *memory, size_t bytes, int32_t role, miai_move prev,
               miai_move reply) {
    const go_data *d = go_lgr_data(g, memory, bytes);
    if (!d || reply > d->n_moves) return MIAI_EINVAL;
    uint16_t *slot = go_lgr_slot(d, memory, role, prev);
    if (!slot) return MIAI_EINVAL;
    *slot = reply == d->n_moves ? 0 : d->point_of_move[reply];
    return MIAI_OK;
}

/* The two-move table's slot of role, before and prev, or NULL. */
static uint16_t *go_lgr_slot2(const go_data *d, const void *memory, int32_t role,
                              miai_move before, miai_move prev) {
    if (!(d->policy & GO_POLICY_LGR2) || (role != 0 && role != 1) || before >= d->n_moves ||
        prev >= d->n_moves)
        return NULL;
    const size_t P = d->n_points;
    uint16_t *reply2 = (uint16_t *)memory + 2u * P + d->max_plies + 1u;
    return reply2 + ((size_t)role * P + d->point_of_move[before]) * P + d->point_of_move[prev];
}

int go_lgr_get2(const miai_game *g, const void *memory, size_t bytes, int32_t role,
                miai_move before, miai_move prev, miai_move *reply) {
    const go_data *d = go_lgr_data(g, memory, bytes);
    if (!d || !reply) return MIAI_EINVAL;
    const uint16_t *slot = go_lgr_slot2(d, memory, role, before, prev);
    if (!slot) return MIAI_EINVAL;
    *reply = *slot ? d->move_of_point[*slot] : d->n_moves;
    return MIAI_OK;
}

int go_lgr_set2(const miai_game *g, void *memory, size_t bytes, int32_t role,
                miai_move before, miai_move prev, miai_move reply) {
    const go_data *d = go_lgr_data(g, memory, bytes);
    if (!d || reply > d->n_moves) return MIAI_EINVAL;
    uint16_t *slot = go_lgr_slot2(d, memory, role, before, prev);
    if (!slot) return MIAI_EINVAL;
    *slot = reply == d->n_moves ? 0 : d->point_of_move[reply];
    return MIAI_OK;
}
