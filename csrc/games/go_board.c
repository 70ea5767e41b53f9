/* go_board.c -- groups, captures, superko, playouts and area scoring of the Go board
 * (contract in go_board.h). */
#include "go_board.h"

#include <string.h>

/* ---- superko ---- */

static inline uint32_t go_bloom_bit(uint64_t key) { return (uint32_t)(key >> 52); }

void go_remember(go_view *v) {
    go_fixed *f = v->f;
    if (f->hist_len < v->d->hist_cap) v->hist[f->hist_len++] = f->board_key;
    uint32_t b = go_bloom_bit(f->board_key);
    f->bloom[b >> 6] |= 1ULL << (b & 63);
}

static bool go_seen(const go_view *v, uint64_t key) {
    uint32_t b = go_bloom_bit(key);
    if (!(v->f->bloom[b >> 6] >> (b & 63) & 1)) return false;
    for (uint32_t i = 0; i < v->f->hist_len; i++)
        if (v->hist[i] == key) return true;
    return false;
}

/* The board key after colour c plays at p (captures included), without playing. */
static uint64_t go_key_after(const go_view *v, uint32_t p, uint32_t c) {
    const go_data *d = v->d;
    uint32_t o = 3 - c;
    uint64_t key = v->f->board_key ^ d->stone[c - 1][p].k1;
    uint32_t taken[4], n_taken = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t n = p + (uint32_t)d->nb[k];
        if (v->color[n] != o) continue;
        uint32_t g = v->gid[n];
        bool dup = false;
        for (uint32_t i = 0; i < n_taken; i++) dup |= taken[i] == g;
        if (dup || !go_only_lib_is(v, g, p)) continue;
        taken[n_taken++] = g;
        uint32_t s = g;
        do {
            key ^= d->stone[o - 1][s].k1;
            s = v->next[s];
        } while (s != g);
    }
    return key;
}

bool go_is_legal_full(const go_view *v, uint32_t p, uint32_t c) {
    if (v->color[p] != GO_EMPTY || go_is_suicide(v, p, c)) return false;
    return !go_seen(v, go_key_after(v, p, c));
}

/* ---- placing and removing stones ---- */

/* Hot paths copy the view's pointers into locals first: the build uses
 * -fno-strict-aliasing, so every store through a board array would otherwise reload
 * them from the view. */

static void go_merge(go_view *v, uint32_t a, uint32_t b) {
    uint16_t *gid = v->gid, *next = v->next, *gsize = v->gsize;
    if (gsize[a] < gsize[b]) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    uint32_t s = b;
    do {
        gid[s] = (uint16_t)a;
        s = next[s];
    } while (s != b);
    uint16_t t = next[a];
    next[a] = next[b];
    next[b] = t;
    gsize[a] += gsize[b];
    v->glibs[a] += v->glibs[b];
    v->gsum[a] += v->gsum[b];
    v->gsum2[a] += v->gsum2[b];
}

static uint32_t go_remove_group(go_view *v, uint32_t g) {
    const go_data *d = v->d;
    go_fixed *f = v->f;
    uint8_t *col = v->color;
    uint16_t *gid = v->gid, *next = v->next, *glibs = v->glibs;
    uint32_t *gsum = v->gsum, *gsum2 = v->gsum2;
    const uint32_t W = v->W;
    const miai_zkey *z = d->stone[col[g] - 1];
    uint64_t k1 = f->board_key, k2 = f->board_key2;
    uint32_t n = 0, s = g;
    do {
        col[s] = GO_EMPTY;
        gid[s] = 0;
        go_empty_add(v, s);
        k1 ^= z[s].k1;
        k2 ^= z[s].k2;
        n++;
        s = next[s];
    } while (s != g);
    f->board_key = k1;
    f->board_key2 = k2;
    s = g;
    do {
        const uint32_t nbs[4] = {s - W, s - 1, s + 1, s + W};
        for (int k = 0; k < 4; k++) {
            uint32_t q = nbs[k];
            if (go_is_stone(col[q])) {
                uint32_t h = gid[q];
                glibs[h]++;
                gsum[h] += s;
                gsum2[h] += s * s;
            }
        }
        s = next[s];
    } while (s != g);
    return n;
}

static inline void go_place_inline(go_view *v, uint32_t p, uint32_t c) {
    const go_data *d = v->d;
    go_fixed *f = v->f;
    uint8_t *col = v->color;
    uint16_t *gid = v->gid, *glibs = v->glibs;
    uint32_t *gsum = v->gsum, *gsum2 = v->gsum2;
    const uint32_t W = v->W, o = 3 - c, pp = p * p;
    const uint32_t nbs[4] = {p - W, p - 1, p + 1, p + W};
    col[p] = (uint8_t)c;
    go_empty_remove(v, p);
    f->board_key ^= d->stone[c - 1][p].k1;
    f->board_key2 ^= d->stone[c - 1][p].k2;
    gid[p] = (uint16_t)p;
    v->next[p] = (uint16_t)p;
    v->gsize[p] = 1;
    uint32_t libs = 0, sum = 0, sum2 = 0, friends = 0, foes = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t n = nbs[k], cn = col[n];
        if (cn == GO_EMPTY) {
            libs++;
            sum += n;
            sum2 += n * n;
        } else if (go_is_stone(cn)) {
            uint32_t h = gid[n];
            glibs[h]--;
            gsum[h] -= p;
            gsum2[h] -= pp;
            friends |= (cn == c) << k;
            foes |= (cn == o) << k;
        }
    }
    glibs[p] = (uint16_t)libs;
    gsum[p] = sum;
    gsum2[p] = sum2;
    for (int k = 0; friends; k++, friends >>= 1)
        if ((friends & 1) && gid[nbs[k]] != gid[p]) go_merge(v, gid[p], gid[nbs[k]]);
    uint32_t taken = 0, last = 0;
    for (int k = 0; foes; k++, foes >>= 1) {
        uint32_t n = nbs[k];
        if ((foes & 1) && col[n] == o && glibs[gid[n]] == 0) {
            taken += go_remove_group(v, gid[n]);
            last = n;
        }
    }
    if (taken) f->captures[c - 1] += taken;
    uint32_t g = gid[p];
    f->ko = (uint16_t)(taken == 1 && v->gsize[g] == 1 && glibs[g] == 1 ? last : 0);
}

void go_place(go_view *v, uint32_t p, uint32_t c) { go_place_inline(v, p, c); }

static inline void go_rekey_inline(go_view *v) {
    const go_data *d = v->d;
    go_fixed *f = v->f;
    uint64_t k1 = f->board_key, k2 = f->board_key2;
    if (f->head.to_move == 1) miai_zxor2(&k1, &k2, d->white_to_move);
    if (f->head.to_move == MIAI_NOBODY) miai_zxor2(&k1, &k2, d->ended);
    if (f->ko) miai_zxor2(&k1, &k2, d->ko[f->ko]);
    if (f->passes == 1) miai_zxor2(&k1, &k2, d->one_pass);
    f->head.key = k1;
    f->head.key2 = k2;
}

void go_rekey(go_view *v) { go_rekey_inline(v); }

/* go_apply's body, inlined into the playout loop. */
static inline void go_apply_inline(go_view *v, uint32_t p) {
    go_fixed *f = v->f;
    int32_t mover = f->head.to_move;
    f->last = (uint16_t)p;
    if (p) {
        go_place_inline(v, p, (uint32_t)mover + 1);
        f->passes = 0;
        go_remember(v);
    } else {
        f->passes++;
        f->ko = 0;
    }
    f->head.ply++;
    f->next_role = (uint8_t)(1 - mover);
    if (f->passes >= 2 || f->head.ply >= v->d->max_plies) f->head.to_move = MIAI_NOBODY;
    else f->head.to_move = 1 - mover;
    go_rekey_inline(v);
}

void go_apply(go_view *v, uint32_t p) { go_apply_inline(v, p); }

void go_reset_history(go_view *v) {
    memset(v->f->bloom, 0, sizeof v->f->bloom);
    v->f->hist_len = 0;
    go_remember(v);
}

void go_clear(go_view *v) {
    const go_data *d = v->d;
    go_fixed *f = v->f;
    memset(v->color, GO_EDGE, d->n_points);
    f->n_empty = 0;
    for (uint32_t m = 0; m < d->n_moves; m++) {
        uint32_t p = d->point_of_move[m];
        v->color[p] = GO_EMPTY;
        go_empty_add(v, p);
    }
    f->board_key = f->board_key2 = 0;
    f->ko = 0;
    f->last = 0;
    f->passes = 0;
    f->captures[0] = f->captures[1] = 0;
    f->head.to_move = 0;
    f->next_role = 0;
    f->head.ply = 0;
    go_reset_history(v);
    go_rekey(v);
}

/* ---- playouts ---- */

uint32_t go_play_out(go_view *v, miai_rng *rng, miai_move *trace, uint32_t trace_cap,
                     uint32_t *trace_len) {
    const go_view lv = *v; /* never escapes: its fields stay in registers */
    go_fixed *f = lv.f;
    uint16_t *empty = lv.empty, *epos = lv.epos;
    uint32_t plies = 0, tl = 0;
    while (f->head.to_move != MIAI_NOBODY) {
        uint32_t c = (uint32_t)f->head.to_move + 1, k = f->n_empty, p = 0;
        /* Uniform among the acceptable points: draw, and move a refused point past
         * the end of the window so it is not drawn again this ply. */
        while (k) {
            uint32_t i = miai_rng_below(rng, k);
            uint32_t q = empty[i];
            if (go_playout_ok(&lv, q, c)) {
                p = q;
                break;
            }
            k--;
            uint16_t r = empty[k];
            empty[k] = (uint16_t)q;
            empty[i] = r;
            epos[q] = (uint16_t)k;
            epos[r] = (uint16_t)i;
        }
        if (trace && tl < trace_cap) trace[tl++] = p ? lv.d->move_of_point[p] : lv.d->n_moves;
        go_apply_inline(v, p);
        plies++;
    }
    if (trace_len) *trace_len = tl;
    return plies;
}

/* ---- scoring ---- */

void go_area(const go_view *v, const uint8_t *dead, uint32_t *black, uint32_t *white,
             uint8_t *owner) {
    const go_data *d = v->d;
    uint8_t col[GO_MAX_POINTS], seen[GO_MAX_POINTS];
    uint16_t stack[GO_MAX_POINTS], region[GO_MAX_POINTS];
    memcpy(col, v->color, d->n_points);
    memset(seen, 0, d->n_points);
    if (dead)
        for (uint32_t p = 0; p < d->n_points; p++)
            if (dead[p] && go_is_stone(col[p])) col[p] = GO_EMPTY;
    uint32_t area[3] = {0, 0, 0};
    for (uint32_t m = 0; m < d->n_moves; m++) {
        uint32_t p = d->point_of_move[m];
        if (go_is_stone(col[p])) {
            area[col[p]]++;
            if (owner) owner[p] = col[p];
            continue;
        }
        if (seen[p]) continue;
        uint32_t sp = 0, nr = 0, border = 0;
        stack[sp++] = (uint16_t)p;
        seen[p] = 1;
        while (sp) {
            uint32_t q = stack[--sp];
            region[nr++] = (uint16_t)q;
            for (int k = 0; k < 4; k++) {
                uint32_t n = q + (uint32_t)d->nb[k];
                uint32_t cn = col[n];
                if (cn == GO_EMPTY) {
                    if (!seen[n]) {
                        seen[n] = 1;
                        stack[sp++] = (uint16_t)n;
                    }
                } else if (cn != GO_EDGE) {
                    border |= cn;
                }
            }
        }
        uint32_t who = border == GO_BLACK || border == GO_WHITE ? border : GO_EMPTY;
        area[who] += nr;
        if (owner)
            for (uint32_t i = 0; i < nr; i++) owner[region[i]] = (uint8_t)who;
    }
    *black = area[GO_BLACK];
    *white = area[GO_WHITE];
}

/* ---- consistency ---- */

void go_board_keys(const go_view *v, uint64_t *k1, uint64_t *k2) {
    const go_data *d = v->d;
    *k1 = *k2 = 0;
    for (uint32_t m = 0; m < d->n_moves; m++) {
        uint32_t p = d->point_of_move[m], c = v->color[p];
        if (go_is_stone(c)) miai_zxor2(k1, k2, d->stone[c - 1][p]);
    }
}

static bool go_check_groups(const go_view *v) {
    const go_data *d = v->d;
    uint8_t seen[GO_MAX_POINTS];
    uint16_t stack[GO_MAX_POINTS];
    memset(seen, 0, d->n_points);
    for (uint32_t m = 0; m < d->n_moves; m++) {
        uint32_t p = d->point_of_move[m], c = v->color[p];
        if (!go_is_stone(c) || seen[p]) continue;
        uint32_t sp = 0, nc = 0, libs = 0, sum = 0, sum2 = 0, root = v->gid[p];
        stack[sp++] = (uint16_t)p;
        seen[p] = 1;
        while (sp) {
            uint32_t q = stack[--sp];
            nc++;
            if (v->gid[q] != root) return false;
            for (int k = 0; k < 4; k++) {
                uint32_t n = q + (uint32_t)d->nb[k];
                if (v->color[n] == GO_EMPTY) {
                    libs++;
                    sum += n;
                    sum2 += n * n;
                } else if (v->color[n] == c && !seen[n]) {
                    seen[n] = 1;
                    stack[sp++] = (uint16_t)n;
                }
            }
        }
        if (root >= d->n_points || v->color[root] != c || v->gid[root] != root) return false;
        if (v->gsize[root] != nc || libs == 0 || v->glibs[root] != libs ||
            v->gsum[root] != sum || v->gsum2[root] != sum2)
            return false;
        /* The circular list from the root visits exactly the chain. */
        uint32_t s = root, walked = 0;
        do {
            if (walked++ >= nc || v->gid[s] != root || v->color[s] != c) return false;
            s = v->next[s];
        } while (s != root);
        if (walked != nc) return false;
    }
    return true;
}

int go_check_board(const go_view *v) {
    const go_data *d = v->d;
    const go_fixed *f = v->f;
    uint32_t empties = 0;
    for (uint32_t p = 0; p < d->n_points; p++) {
        bool on = d->move_of_point[p] != UINT16_MAX;
        uint32_t c = v->color[p];
        if (on ? c == GO_EDGE : c != GO_EDGE) return MIAI_ECORRUPT;
        if (c == GO_EMPTY) {
            empties++;
            if (v->epos[p] >= f->n_empty || v->empty[v->epos[p]] != p) return MIAI_ECORRUPT;
        }
    }
    if (empties != f->n_empty) return MIAI_ECORRUPT;
    if (!go_check_groups(v)) return MIAI_ECORRUPT;
    uint64_t k1, k2;
    go_board_keys(v, &k1, &k2);
    if (k1 != f->board_key || k2 != f->board_key2) return MIAI_ECORRUPT;
    if (f->hist_len == 0 || f->hist_len > d->hist_cap || f->hist_len > f->head.ply + 1 ||
        v->hist[f->hist_len - 1] != f->board_key)
        return MIAI_ECORRUPT;
    for (uint32_t i = 0; i < f->hist_len; i++) {
        uint32_t b = go_bloom_bit(v->hist[i]);
        if (!(f->bloom[b >> 6] >> (b & 63) & 1)) return MIAI_ECORRUPT;
    }
    if (f->ko && (f->ko >= d->n_points || v->color[f->ko] != GO_EMPTY)) return MIAI_ECORRUPT;
    if (f->passes > 2) return MIAI_ECORRUPT;
    bool over = f->passes == 2 || f->head.ply >= d->max_plies;
    if (over != (f->head.to_move == MIAI_NOBODY)) return MIAI_ECORRUPT;
    if (!over && f->head.to_move != f->next_role) return MIAI_ECORRUPT;
    if (f->next_role > 1) return MIAI_ECORRUPT;
    return MIAI_OK;
}

void go_count_owners(const go_view *v, uint32_t *black, uint32_t *white) {
    const go_data *d = v->d;
    uint8_t owner[GO_MAX_POINTS];
    uint32_t b, w;
    go_area(v, NULL, &b, &w, owner);
    for (uint32_t m = 0; m < d->n_moves; m++) {
        uint32_t o = owner[d->point_of_move[m]];
        black[m] += o == GO_BLACK;
        white[m] += o == GO_WHITE;
    }
}
