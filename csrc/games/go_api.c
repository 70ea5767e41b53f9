/* go_api.c -- the validated Go-specific API of go_api.h over go_board.h. */
#include <stdlib.h>
#include <string.h>

#include "go_api.h"

#include "go.h"
#include "go_policy.h"

static const go_data *go_d(const miai_game *g) { return g->data; }

int go_get_size(const miai_game *g, uint32_t *size, double *komi) {
    if (!go_is_go(g) || !size || !komi) return MIAI_EINVAL;
    *size = go_d(g)->size;
    *komi = go_d(g)->komi;
    return MIAI_OK;
}

/* ---- handicap and setup ---- */

int go_fixed_handicap_points(const miai_game *g, uint32_t n, miai_move *out, uint32_t cap,
                             uint32_t *count) {
    if (!go_is_go(g) || !out || !count) return MIAI_EINVAL;
    uint32_t size = go_d(g)->size;
    uint32_t most = size < 7 ? 0 : (size == 7 || size % 2 == 0) ? 4 : 9;
    if (n < 2 || n > most || cap < n) return MIAI_EINVAL;
    /* (column, row from the bottom), in GTP's order: corners, then the centre for an
     * odd count, then the left/right side points, then the bottom/top ones. */
    uint32_t lo = size >= 13 ? 3 : 2, hi = size - 1 - lo, mid = (size - 1) / 2;
    uint32_t at[9][2] = {{lo, lo}, {hi, hi}, {lo, hi}, {hi, lo}};
    uint32_t k = n < 4 ? n : 4;
    if (n >= 6) {
        at[k][0] = lo, at[k++][1] = mid;
        at[k][0] = hi, at[k++][1] = mid;
    }
    if (n >= 8) {
        at[k][0] = mid, at[k++][1] = lo;
        at[k][0] = mid, at[k++][1] = hi;
    }
    if (n % 2 == 1 && n >= 5) at[k][0] = mid, at[k++][1] = mid;
    for (uint32_t i = 0; i < n; i++) out[i] = (size - 1 - at[i][1]) * size + at[i][0];
    *count = n;
    return MIAI_OK;
}

/* Stones on a copy, checked, then copied back: nothing changes on a refusal. */
static int go_setup_checked(const miai_game *g, void *state, const miai_move *points,
                            const uint8_t *colors, uint8_t one_color, uint32_t n,
                            int32_t to_move) {
    const go_data *d = go_d(g);
    uint8_t *work = malloc(d->state_size);
    if (!work) return MIAI_ENOMEM;
    memcpy(work, state, d->state_size);
    go_view v = go_view_of(d, work);
    int rc = MIAI_OK;
    for (uint32_t i = 0; i < n && rc == MIAI_OK; i++) {
        uint32_t c = colors ? colors[i] : one_color;
        if (points[i] >= d->n_moves || (c != GO_BLACK && c != GO_WHITE)) {
            rc = MIAI_EINVAL;
            break;
        }
        uint32_t p = d->point_of_move[points[i]];
        if (v.color[p] != GO_EMPTY) {
            rc = MIAI_EINVAL;
            break;
        }
        for (int k = 0; k < 4; k++) { /* a stone taking an enemy group's last liberty */
            uint32_t q = p + (uint32_t)d->nb[k];
            if (v.color[q] == 3 - c && go_only_lib_is(&v, v.gid[q], p)) rc = MIAI_EINVAL;
        }
        if (rc == MIAI_OK) go_place(&v, p, c);
    }
    for (uint32_t m = 0; m < d->n_moves && rc == MIAI_OK; m++) {
        uint32_t p = d->point_of_move[m];
        if (go_is_stone(v.color[p]) && v.glibs[v.gid[p]] == 0) rc = MIAI_EINVAL;
    }
    if (rc == MIAI_OK) {
        v.f->ko = 0;
        v.f->passes = 0;
        v.f->head.to_move = to_move;
        v.f->next_role = (uint8_t)to_move;
        go_reset_history(&v);
        go_rekey(&v);
        memcpy(state, work, d->state_size);
    }
    free(work);
    return rc;
}

int go_setup_stones(const miai_game *g, void *state, const miai_move *points,
                    const uint8_t *colors, uint32_t n, int32_t to_move) {
    if (!go_is_go(g) || !state || (n && (!points || !colors))) return MIAI_EINVAL;
    if ((to_move != 0 && to_move != 1) || n > go_d(g)->n_moves) return MIAI_EINVAL;
    if (miai_chead_of(state)->ply != 0) return MIAI_ESTATE;
    return go_setup_checked(g, state, points, colors, 0, n, to_move);
}

int go_place_handicap(const miai_game *g, void *state, const miai_move *points, uint32_t n) {
    if (!go_is_go(g) || !state || !points) return MIAI_EINVAL;
    const go_data *d = go_d(g);
    if (n < 2 || n >= d->n_moves) return MIAI_EINVAL;
    const go_fixed *f = state;
    if (f->head.ply != 0 || f->n_empty != d->n_moves) return MIAI_ESTATE;
    return go_setup_checked(g, state, points, NULL, GO_BLACK, n, 1);
}

int go_place_fixed_handicap(const miai_game *g, void *state, uint32_t n) {
    miai_move points[9];
    uint32_t count = 0;
    int rc = go_fixed_handicap_points(g, n, points, 9, &count);
    if (rc != MIAI_OK) return rc;
    return go_place_handicap(g, state, points, count);
}

/* ---- playing for either side ---- */

int go_play_as(const miai_game *g, void *state, int32_t role, miai_move move) {
    if (!go_is_go(g) || !state || (role != 0 && role != 1)) return MIAI_EINVAL;
    const go_data *d = go_d(g);
    if (move > d->n_moves) return MIAI_EINVAL;
    go_view v = go_view_of(d, state);
    if (v.f->head.to_move == MIAI_NOBODY) return MIAI_ETERMINAL;
    uint32_t p = move < d->n_moves ? d->point_of_move[move] : 0;
    if (p && !go_is_legal_full(&v, p, (uint32_t)role + 1)) return MIAI_EILLEGAL;
    if (v.f->head.to_move != role) {
        v.f->head.to_move = role;
        v.f->ko = 0; /* the ko ban was the other side's */
    }
    go_apply(&v, p);
    return MIAI_OK;
}

/* ---- reading the position ---- */

int go_colors(const miai_game *g, const void *state, uint8_t *out, uint32_t cap) {
    if (!go_is_go(g) || !state || !out) return MIAI_EINVAL;
    const go_data *d = go_d(g);
    if (cap < d->n_moves) return MIAI_EINVAL;
    go_view v = go_cview_of(d, state);
    for (uint32_t m = 0; m < d->n_moves; m++) out[m] = v.color[d->point_of_move[m]];
    return MIAI_OK;
}

int go_captures(const miai_game *g, const void *state, uint32_t *by_black,
                uint32_t *by_white) {
    if (!go_is_go(g) || !state || !by_black || !by_white) return MIAI_EINVAL;
    const go_fixed *f = state;
    *by_black = f->captures[0];
    *by_white = f->captures[1];
    return MIAI_OK;
}

int go_ko_point(const miai_game *g, const void *state, miai_move *out) {
    if (!go_is_go(g) || !state || !out) return MIAI_EINVAL;
    const go_data *d = go_d(g);
    const go_fixed *f = state;
    *out = f->ko && f->ko < d->n_points ? d->move_of_point[f->ko] : d->n_moves;
    return MIAI_OK;
}

/* Per-move dead flags to per-point ones; false if the length is wrong. */
static bool go_dead_points(const go_data *d, const uint8_t *dead, uint32_t n_dead,
                           uint8_t *out) {
    memset(out, 0, d->n_points);
    if (!dead) return true;
    if (n_dead != d->n_moves) return false;
    for (uint32_t m = 0; m < d->n_moves; m++) out[d->point_of_move[m]] = dead[m] != 0;
    return true;
}

int go_score(const miai_game *g, const void *state, const uint8_t *dead, uint32_t n_dead,
             uint32_t *black_area, uint32_t *white_area, double *margin) {
    if (!go_is_go(g) || !state || !black_area || !white_area || !margin) return MIAI_EINVAL;
    const go_data *d = go_d(g);
    uint8_t flags[GO_MAX_POINTS];
    if (!go_dead_points(d, dead, n_dead, flags)) return MIAI_EINVAL;
    go_view v = go_cview_of(d, state);
    go_area(&v, flags, black_area, white_area, NULL);
    *margin = (double)*black_area - (double)*white_area - d->komi;
    return MIAI_OK;
}

int go_owners(const miai_game *g, const void *state, const uint8_t *dead, uint32_t n_dead,
              uint8_t *out, uint32_t cap) {
    if (!go_is_go(g) || !state || !out) return MIAI_EINVAL;
    const go_data *d = go_d(g);
    uint8_t flags[GO_MAX_POINTS], owner[GO_MAX_POINTS];
    if (cap < d->n_moves || !go_dead_points(d, dead, n_dead, flags)) return MIAI_EINVAL;
    go_view v = go_cview_of(d, state);
    uint32_t b, w;
    go_area(&v, flags, &b, &w, owner);
    for (uint32_t m = 0; m < d->n_moves; m++) out[m] = owner[d->point_of_move[m]];
    return MIAI_OK;
}

/* ---- ownership from playouts ---- */

/* The copy `work` of a position made ready for a playout: the game goes on with the
 * side that would move next, ply and history start afresh (the ply cap is a full
 * game's), the ko point stays. */
static void go_resume(go_view *v) {
    go_fixed *f = v->f;
    f->head.to_move = f->next_role;
    f->head.ply = 0;
    f->passes = 0;
    go_reset_history(v);
    go_rekey(v);
}

/* b_p(n) and w_p(n) of n playouts from the position. */
static int go_count_playouts(const miai_game *g, const void *state, uint64_t n,
                             uint64_t seed, uint32_t *black, uint32_t *white) {
    const go_data *d = go_d(g);
    uint8_t *work = malloc(d->state_size);
    if (!work) return MIAI_ENOMEM;
    memset(black, 0, sizeof *black * d->n_moves);
    memset(white, 0, sizeof *white * d->n_moves);
    miai_rng rng;
    miai_rng_seed(&rng, seed);
    go_view v = go_view_of(d, work);
    for (uint64_t i = 0; i < n; i++) {
        memcpy(work, state, d->state_size);
        go_resume(&v);
        go_play_out(&v, &rng, NULL, 0, NULL);
        go_count_owners(&v, black, white);
    }
    free(work);
    return MIAI_OK;
}

/* Huang et al., "Pruning in UCT", eq. 16: T_p = b_p(n)/n - w_p(n)/n. */
static double go_eq16(uint32_t b, uint32_t w, uint64_t n) {
    return ((double)b - (double)w) / (double)n;
}

int go_territory(const miai_game *g, const uint32_t *black_counts,
                 const uint32_t *white_counts, uint64_t n, double *territory, uint32_t cap) {
    if (!go_is_go(g) || !black_counts || !white_counts || !territory || n == 0) return MIAI_EINVAL;
    const go_data *d = go_d(g);
    if (cap < d->n_moves) return MIAI_EINVAL;
    for (uint32_t m = 0; m < d->n_moves; m++) {
        if (black_counts[m] > n || white_counts[m] > n - black_counts[m]) return MIAI_EINVAL;
    }
    for (uint32_t m = 0; m < d->n_moves; m++)
        territory[m] = go_eq16(black_counts[m], white_counts[m], n);
    return MIAI_OK;
}

int go_ownership_add(const miai_game *g, const void *state, uint32_t *black_counts,
                     uint32_t *white_counts, uint32_t cap) {
    if (!go_is_go(g)) return MIAI_EINVAL;
    return g->ops->owner_add(g, state, black_counts, white_counts, cap);
}

int go_ownership(const miai_game *g, const void *state, uint64_t n, uint64_t seed,
                 double *black_share, double *territory, uint32_t cap) {
    if (!go_is_go(g) || !state || n == 0 || n > UINT32_MAX) return MIAI_EINVAL;
    const go_data *d = go_d(g);
    if (cap < d->n_moves) return MIAI_EINVAL;
    uint32_t black[GO_MAX_MOVES], white[GO_MAX_MOVES];
    int rc = go_count_playouts(g, state, n, seed, black, white);
    if (rc != MIAI_OK) return rc;
    for (uint32_t m = 0; m < d->n_moves; m++) {
        if (black_share) black_share[m] = (double)black[m] / (double)n;
        if (territory) territory[m] = go_eq16(black[m], white[m], n);
    }
    return MIAI_OK;
}

int go_dead_stones(const miai_game *g, const void *state, uint64_t n, uint64_t seed,
                   uint8_t *dead, uint32_t cap) {
    if (!go_is_go(g) || !state || !dead || n == 0 || n > UINT32_MAX) return MIAI_EINVAL;
    const go_data *d = go_d(g);
    if (cap < d->n_moves) return MIAI_EINVAL;
    double t[GO_MAX_MOVES];
    int rc = go_ownership(g, state, n, seed, NULL, t, GO_MAX_MOVES);
    if (rc != MIAI_OK) return rc;
    go_view v = go_cview_of(d, state);
    /* Mean territory value of each group, summed at its root. */
    double sum[GO_MAX_POINTS] = {0};
    for (uint32_t m = 0; m < d->n_moves; m++) {
        uint32_t p = d->point_of_move[m];
        if (go_is_stone(v.color[p])) sum[v.gid[p]] += t[m];
    }
    for (uint32_t m = 0; m < d->n_moves; m++) {
        uint32_t p = d->point_of_move[m], c = v.color[p];
        dead[m] = 0;
        if (!go_is_stone(c)) continue;
        double mean = sum[v.gid[p]] / v.gsize[v.gid[p]];
        dead[m] = c == GO_BLACK ? mean < 0 : mean > 0;
    }
    return MIAI_OK;
}

int go_playout_trace(const miai_game *g, const void *state, uint64_t seed, miai_move *trace,
                     uint32_t cap, uint32_t *len, uint32_t *plies) {
    if (!go_is_go(g) || !state || !len || !plies || (cap && !trace)) return MIAI_EINVAL;
    const go_data *d = go_d(g);
    uint8_t *work = malloc(d->state_size);
    if (!work) return MIAI_ENOMEM;
    memcpy(work, state, d->state_size);
    miai_rng rng;
    miai_rng_seed(&rng, seed);
    *plies = miai_game_playout(g, work, &rng, trace, cap, len); /* the game's policy */
    free(work);
    return MIAI_OK;
}

int go_ladder_captures(const miai_game *g, const void *state, miai_move point,
                       int32_t *captured) {
    if (!go_is_go(g) || !state || !captured) return MIAI_EINVAL;
    const go_data *d = go_d(g);
    if (point >= d->n_moves) return MIAI_EINVAL;
    uint8_t *scratch = malloc((size_t)go_ladder_levels(d) * d->state_size);
    if (!scratch) return MIAI_ENOMEM;
    bool taken = false;
    int rc = go_ladder_read(d, state, d->point_of_move[point], scratch, &taken);
    free(scratch);
    if (rc == MIAI_OK) *captured = taken;
    return rc;
}

int go_board_text(const miai_game *g, const void *state, char *buf, size_t cap) {
    if (!go_is_go(g) || !state || !buf || cap == 0) return MIAI_EINVAL;
    const go_data *d = go_d(g);
    go_view v = go_cview_of(d, state);
    size_t at = 0;
    for (uint32_t m = 0; m < d->n_moves && at + 1 < cap; m++) {
        buf[at++] = ".XO"[v.color[d->point_of_move[m]]];
        if (m % d->size == d->size - 1 && at + 1 < cap) buf[at++] = '\n';
    }
    buf[at] = 0;
    return MIAI_OK;
}
