/* go_model.c -- the learned move model of go_model_api.h: move features and the
 * probability of each move as the product of its features' gammas (Coulom 2007). */
#include <stdlib.h>

#include "go_model.h"
#include "go_model_data.h"
#include "go_policy.h"

/* The ring order of go_pattern_key: NW N NE W E SW S SE as (row, column) offsets. */
static const int8_t ring_dr[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
static const int8_t ring_dc[8] = {-1, 0, 1, -1, 1, -1, 0, 1};

/* Where ring cell i goes under symmetry t (bit 0: transpose, bit 1: flip rows, bit 2:
 * flip columns): sym_cell[t][i] is the ring index of (dr, dc) so transformed.  The
 * table is written out (tests/reference/go_model.py enumerates the symmetries its own
 * way, and the keys agree on random positions). */
static const uint8_t sym_cell[8][8] = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {0, 3, 5, 1, 6, 2, 4, 7}, {5, 6, 7, 3, 4, 0, 1, 2},
    {5, 3, 0, 6, 1, 7, 4, 2}, {2, 1, 0, 4, 3, 7, 6, 5}, {2, 4, 7, 1, 6, 0, 3, 5},
    {7, 6, 5, 4, 3, 2, 1, 0}, {7, 4, 2, 6, 1, 5, 3, 0}};

uint32_t go_pattern_key(const go_view *v, uint32_t p, uint32_t c) {
    uint32_t cell[8];
    for (uint32_t i = 0; i < 8; i++) {
        uint32_t q = (uint32_t)((int32_t)p + ring_dr[i] * (int32_t)v->W + ring_dc[i]);
        uint32_t col = v->color[q], rel = col;
        if (go_is_stone(col)) rel = col == c ? 1u : 2u;
        bool orth = ring_dr[i] == 0 || ring_dc[i] == 0;
        if (orth && go_is_stone(col) && go_atari_lib(v, v->gid[q])) rel |= 4u;
        cell[i] = rel;
    }
    uint32_t best = UINT32_MAX;
    for (uint32_t t = 0; t < 8; t++) {
        uint32_t key = 0;
        for (uint32_t i = 0; i < 8; i++) key |= cell[i] << (3u * sym_cell[t][i]);
        if (key < best) best = key;
    }
    return best;
}

/* Does any stone of group gp (colour e) touch a group of colour 3 - e in atari? */
static bool touches_atari(const go_view *v, uint32_t gp, uint32_t e) {
    const uint32_t W = v->W, own = 3 - e;
    uint32_t st = gp;
    do {
        const uint32_t around[4] = {st - W, st - 1, st + 1, st + W};
        for (int k = 0; k < 4; k++)
            if (v->color[around[k]] == own && go_atari_lib(v, v->gid[around[k]]))
                return true;
        st = v->next[st];
    } while (st != gp);
    return false;
}

static uint32_t capture_level(const go_view *v, uint32_t p, uint32_t c) {
    const uint32_t W = v->W, o = 3 - c, last = v->f->last;
    const uint32_t nbs[4] = {p - W, p - 1, p + 1, p + W};
    uint32_t level = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t q = nbs[k];
        if (v->color[q] != o || !go_only_lib_is(v, v->gid[q], p)) continue;
        uint32_t gq = v->gid[q], l = 3;
        if (touches_atari(v, gq, o)) l = 1;
        else if (last && go_is_stone(v->color[last]) && v->gid[last] == gq) l = 2;
        if (!level || l < level) level = l;
    }
    return level;
}

/* The liberties (up to 3) of the group c forms at p, counted on a copy of the
 * position with the stone placed (captures made): go_libs_after counts a captured
 * group's adjacent stones only, and an escape that captures a big group has more. */
static int exact_libs_after(const go_view *v, uint32_t p, uint32_t c, uint8_t **scratch,
                            uint32_t *libs) {
    go_view w;
    if (!go_after_move(v, p, c, scratch, &w)) return -2;
    uint32_t found[3], n = 0, st = p;
    do {
        const uint32_t around[4] = {st - w.W, st - 1, st + 1, st + w.W};
        for (int k = 0; k < 4 && n < 3; k++) {
            uint32_t q = around[k], i = 0;
            if (w.color[q] != GO_EMPTY) continue;
            while (i < n && found[i] != q) i++;
            if (i == n) found[n++] = q;
        }
        st = w.next[st];
    } while (st != p && n < 3);
    *libs = n;
    return 0;
}

/* Extending an own group in atari at p (its only liberty). */
static int escape_level(const go_view *v, uint32_t p, uint32_t c, int ladder,
                        uint8_t **scratch, uint32_t *level) {
    const uint32_t W = v->W;
    const uint32_t nbs[4] = {p - W, p - 1, p + 1, p + W};
    bool saves = false;
    *level = 0;
    for (int k = 0; k < 4 && !saves; k++)
        saves = v->color[nbs[k]] == c && go_only_lib_is(v, v->gid[nbs[k]], p);
    if (!saves) return 0;
    uint32_t libs = 0;
    if (exact_libs_after(v, p, c, scratch, &libs) < 0) return -2;
    *level = libs <= 1 ? 1 : libs >= 3 ? 4 : ladder < 0 ? 2 : 3;
    return 0;
}

static uint32_t self_atari_level(const go_view *v, uint32_t p, uint32_t c) {
    if (go_captures_at(v, p, c) || go_two_libs_after(v, p, c)) return 0;
    const uint32_t W = v->W;
    const uint32_t nbs[4] = {p - W, p - 1, p + 1, p + W};
    for (int k = 0; k < 4; k++)
        if (v->color[nbs[k]] == c) return 2;
    return 1;
}

/* The features of one move (out[0..GO_FEATURES)); -2 when the ladder reader has no
 * memory. */
static int move_features(const go_view *v, miai_move m, uint32_t c, uint8_t **scratch,
                         uint32_t *out) {
    const go_data *d = v->d;
    for (uint32_t f = 0; f < GO_FEATURES; f++) out[f] = 0;
    if (m == d->n_moves) {
        uint32_t empty = v->f->n_empty;
        out[GO_F_PASS] = 2u * empty > d->n_moves ? 1 : 4u * empty > d->n_moves ? 2 : 3;
        return 0;
    }
    uint32_t p = d->point_of_move[m];
    if (v->color[p] != GO_EMPTY) return 0;
    int ladder = go_ladder_kind(v, p, c, scratch);
    if (ladder == -2) return -2;
    uint32_t g[4];
    out[GO_F_CAPTURE] = capture_level(v, p, c);
    if (escape_level(v, p, c, ladder, scratch, &out[GO_F_ESCAPE]) < 0) return -2;
    out[GO_F_SELF_ATARI] = self_atari_level(v, p, c);
    if (go_ataris_at(v, p, 3 - c, g))
        out[GO_F_ATARI] = ladder > 0 ? 2 : v->f->ko ? 3 : 1;
    out[GO_F_EYE] = go_is_own_eye(v, p, c) ? 1 : 0;
    uint32_t line = go_line(d, p);
    out[GO_F_LINE] = line < 5 ? line : 5;
    uint32_t last = v->f->last;
    if (last) {
        int32_t dr = abs((int32_t)(p / d->W) - (int32_t)(last / d->W));
        int32_t dc = abs((int32_t)(p % d->W) - (int32_t)(last % d->W));
        uint32_t dist = (uint32_t)(dr + dc + (dr > dc ? dr : dc));
        out[GO_F_DIST] = (dist < 17 ? dist : 17) - 1;
    }
    out[GO_F_PATTERN] = 1 + go_pattern_key(v, p, c);
    return 0;
}

int go_model_features(const go_data *d, const void *state, const miai_move *moves,
                      uint32_t n, uint32_t *out) {
    go_view v = go_cview_of(d, state);
    int32_t mover = v.f->head.to_move;
    if (mover != 0 && mover != 1) mover = v.f->next_role;
    uint32_t c = (uint32_t)mover + 1;
    for (uint32_t i = 0; i < n; i++)
        if (moves[i] > d->n_moves) return MIAI_EINVAL;
    uint8_t *scratch = NULL;
    int rc = MIAI_OK;
    for (uint32_t i = 0; i < n && rc == MIAI_OK; i++)
        if (move_features(&v, moves[i], c, &scratch, out + (size_t)i * GO_FEATURES) < 0)
            rc = MIAI_ENOMEM;
    free(scratch);
    return rc;
}

static double pattern_gamma(uint32_t key) {
    const uint32_t count = GO_MODEL_PATTERNS;
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (go_model_pattern_key[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    if (lo < count && go_model_pattern_key[lo] == key)
        return go_model_pattern_gamma[lo];
    return GO_MODEL_PATTERN_RARE;
}

/* The strength of a move with features f: the product of its gammas. */
static double strength(const uint32_t *f) {
    double s = 1.0;
    for (uint32_t k = 0; k < GO_F_PATTERN; k++)
        if (f[k]) s *= go_model_level_gamma[k][f[k] < GO_MODEL_LEVELS ? f[k] : 0];
    if (f[GO_F_PATTERN]) s *= pattern_gamma(f[GO_F_PATTERN] - 1);
    return s;
}

int go_model_strengths(const go_data *d, const void *state, const miai_move *moves,
                       uint32_t n, double *out) {
    uint32_t *f = malloc(sizeof *f * GO_FEATURES * (n ? n : 1));
    if (!f) return MIAI_ENOMEM;
    int rc = go_model_features(d, state, moves, n, f);
    for (uint32_t i = 0; i < n && rc == MIAI_OK; i++) out[i] = strength(f + i * GO_FEATURES);
    free(f);
    return rc;
}

uint32_t go_model_pattern_count(void) { return GO_MODEL_PATTERNS; }

int go_prior_values(const go_data *d, const void *state, const miai_move *moves,
                    uint32_t n, float *q) {
    if (!d || !state || (n && (!moves || !q))) return MIAI_EINVAL;
    if (!(d->policy & GO_PRIOR_MODEL)) {
        int8_t *kind = malloc(n ? n : 1);
        if (!kind) return MIAI_ENOMEM;
        int rc = go_prior_kinds(d, state, moves, n, kind);
        for (uint32_t i = 0; i < n && rc == MIAI_OK; i++) q[i] = 0.5f + 0.5f * kind[i];
        free(kind);
        return rc;
    }
    double *s = malloc(sizeof *s * (n ? n : 1));
    if (!s) return MIAI_ENOMEM;
    int rc = go_model_strengths(d, state, moves, n, s);
    double total = 0;
    for (uint32_t i = 0; i < n && rc == MIAI_OK; i++) total += s[i];
    for (uint32_t i = 0; i < n && rc == MIAI_OK; i++) {
        double x = total > 0 ? n * s[i] / total : 1.0;
        q[i] = (float)(x / (1.0 + x));
    }
    free(s);
    return rc;
}
