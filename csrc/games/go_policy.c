/* go_policy.c -- the heavy Go playout policy: atari answers, self-atari avoidance, MoGo
 * 3x3 patterns, switchable eye rule (contract in go_policy.h). */
#include "go_policy.h"

#include <stdlib.h>
#include <string.h>

/* ---- 3x3 patterns ---- */

/* The MoGo patterns (Gelly, Wang, Munos, Teytaud, "Modification of UCT with patterns
 * in Monte-Carlo Go", INRIA RR-6062, 2006, fig. 2-4: hane, cut, edge), centre = the
 * candidate empty point, rows top to bottom.  Cells: '.' empty, 'X' and 'O' the two
 * colours (either way round), '#' off the board, '?' anything, 'x' not X, 'o' not O.
 * Every rotation and reflection matches too. */
static const char *const go_patterns[][3] = {
    {"XOX", "...", "???"}, /* hane: enclosing */
    {"XO.", "...", "?.?"}, /* hane: non-cutting */
    {"XO?", "X..", "x.?"}, /* hane: magari */
    {".O.", "X..", "..."}, /* diagonal attachment */
    {"XO?", "O.o", "?o?"}, /* cut 1: unprotected cut */
    {"XO?", "O.X", "???"}, /* cut 1: peeped cut */
    {"?X?", "O.O", "ooo"}, /* cut 2 */
    {"OX?", "o.O", "???"}, /* cut: keima */
    {"X.?", "O.?", "##?"}, /* edge: chase */
    {"OX?", "X.O", "###"}, /* edge: block a side cut */
    {"?X?", "x.O", "###"}, /* edge: block a side connection */
    {"?XO", "x.x", "###"}, /* edge: sagari */
    {"?OX", "X.O", "###"}, /* edge: cut */
};

/* Row/column offsets of the eight code positions, in code order. */
static const int8_t go_ring[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1},
                                     {0, 1},   {1, -1}, {1, 0},  {1, 1}};

/* Set of colours (bit per GO_EMPTY..GO_EDGE) a pattern cell allows; x = black's
 * colour after the colour swap. */
static uint32_t go_cell_set(char ch, uint32_t x) {
    uint32_t o = 3 - x;
    switch (ch) {
    case '.': return 1u << GO_EMPTY;
    case 'X': return 1u << x;
    case 'O': return 1u << o;
    case '#': return 1u << GO_EDGE;
    case 'x': return 0xFu & ~(1u << x);
    case 'o': return 0xFu & ~(1u << o);
    default: return 0xFu;
    }
}

/* Every code whose position k has a colour in allowed[k], for k >= at. */
static void go_pattern_fill(uint8_t *table, const uint32_t *allowed, int at, uint32_t code) {
    if (at == 8) {
        table[code >> 3] |= (uint8_t)(1u << (code & 7));
        return;
    }
    for (uint32_t col = 0; col < 4; col++)
        if (allowed[at] >> col & 1) go_pattern_fill(table, allowed, at + 1, code | col << (2 * at));
}

void go_policy_build_patterns(go_data *d) {
    memset(d->pattern3, 0, sizeof d->pattern3);
    const size_t n_pat = sizeof go_patterns / sizeof go_patterns[0];
    for (size_t i = 0; i < n_pat; i++)
        for (int sym = 0; sym < 8; sym++)
            for (uint32_t x = GO_BLACK; x <= GO_WHITE; x++) {
                uint32_t allowed[8];
                for (int k = 0; k < 8; k++) {
                    /* The pattern cell that lands on code position k under `sym`:
                     * the inverse map of a rotation by sym&3 quarter turns, then an
                     * optional mirror. */
                    int r = go_ring[k][0], c = go_ring[k][1];
                    if (sym & 4) c = -c;
                    for (int t = 0; t < (sym & 3); t++) {
                        int nr = c, nc = -r;
                        r = nr;
                        c = nc;
                    }
                    allowed[k] = go_cell_set(go_patterns[i][r + 1][c + 1], x);
                }
                go_pattern_fill(d->pattern3, allowed, 0, 0);
            }
}

/* The colours c[-1], c[0], c[1] as bytes 0..2 of the result.  One 4-byte load from
 * c - 2 on a little-endian target (c[-2] is dropped; for the top-left point that is
 * the byte before the colour array, still inside the state). */
static inline uint32_t go_row3(const uint8_t *c) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t x;
    memcpy(&x, c - 2, sizeof x);
    return x >> 8;
#else
    return (uint32_t)c[-1] | (uint32_t)c[0] << 8 | (uint32_t)c[1] << 16;
#endif
}

/* go_pattern_code of p on colours c with row stride W (inlined into the policy): each
 * row's bytes packed to two bits a cell, the centre left out. */
static inline uint32_t go_code3(const uint8_t *c, uint32_t W, uint32_t p) {
    const uint32_t a = go_row3(c + p - W), m = go_row3(c + p), b = go_row3(c + p + W);
    /* go_ring order: the row above, left and right, the row below. */
    return ((a | a >> 6 | a >> 12) & 0x3F) | ((m | m >> 14) & 0xF) << 6 |
           ((b | b >> 6 | b >> 12) & 0x3F) << 10;
}

static inline bool go_pattern_bit(const uint8_t *table, uint32_t code) {
    return table[code >> 3] >> (code & 7) & 1;
}

uint32_t go_pattern_code(const go_view *v, uint32_t p) { return go_code3(v->color, v->W, p); }

bool go_pattern_match(const go_view *v, uint32_t p) {
    return go_pattern_bit(v->d->pattern3, go_code3(v->color, v->W, p));
}

/* ---- liberties ---- */

/* go_atari_lib, inlined into the policy. */
static inline uint32_t go_lib1(const go_view *v, uint32_t g) {
    uint64_t n = v->glibs[g], sum = v->gsum[g];
    /* All n pseudo-liberties are one point iff (sum p)^2 == n sum p^2 (Cauchy-Schwarz
     * equality): no division unless the group is in atari. */
    if (n == 0 || sum * sum != n * v->gsum2[g]) return 0;
    return (uint32_t)(sum / n);
}

uint32_t go_atari_lib(const go_view *v, uint32_t g) { return go_lib1(v, g); }

typedef struct {
    uint32_t pts[8];
    uint32_t n, cap;
} go_libset;

/* Add q; true once the set is full. */
static bool go_libset_add(go_libset *s, uint32_t q) {
    for (uint32_t i = 0; i < s->n; i++)
        if (s->pts[i] == q) return false;
    s->pts[s->n++] = q;
    return s->n >= s->cap;
}

uint32_t go_libs_after(const go_view *v, uint32_t p, uint32_t c, uint32_t cap) {
    if (cap > 8) cap = 8;
    go_libset s = {.n = 0, .cap = cap};
    const uint32_t W = v->W, o = 3 - c;
    const uint32_t nbs[4] = {p - W, p - 1, p + 1, p + W};
    uint32_t walked[4], n_walked = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t n = nbs[k], cn = v->color[n];
        if (cn == GO_EMPTY) {
            if (go_libset_add(&s, n)) return cap;
        } else if (cn == o) {
            if (go_only_lib_is(v, v->gid[n], p) && go_libset_add(&s, n)) return cap;
        } else if (cn == c) {
            uint32_t g = v->gid[n];
            bool seen = false;
            for (uint32_t i = 0; i < n_walked; i++) seen |= walked[i] == g;
            if (seen) continue;
            walked[n_walked++] = g;
            uint32_t st = g;
            do {
                const uint32_t around[4] = {st - W, st - 1, st + 1, st + W};
                for (int j = 0; j < 4; j++)
                    if (v->color[around[j]] == GO_EMPTY && around[j] != p &&
                        go_libset_add(&s, around[j]))
                        return cap;
                st = v->next[st];
            } while (st != g);
        }
    }
    return s.n;
}

bool go_captures_at(const go_view *v, uint32_t p, uint32_t c) {
    const uint32_t W = v->W, o = 3 - c;
    const uint32_t nbs[4] = {p - W, p - 1, p + 1, p + W};
    for (int k = 0; k < 4; k++)
        if (v->color[nbs[k]] == o && go_only_lib_is(v, v->gid[nbs[k]], p)) return true;
    return false;
}

/* ---- liberties after a move, from pseudo-liberties ---- */

#define GO_MANY UINT32_MAX

/* The liberties of group g other than p, where g has m pseudo-liberties at p (m of p's
 * sides are stones of g): 0 if none, the point if exactly one, GO_MANY if more.  Drop
 * the m copies of p from the pseudo-liberty multiset; the rest are all one point iff
 * (sum)^2 == n sum of squares (Cauchy-Schwarz equality).  O(1), no walk of the group. */
static inline uint32_t go_other_lib(const go_view *v, uint32_t g, uint32_t p, uint32_t m) {
    uint64_t n = v->glibs[g] - m, s = v->gsum[g] - m * p, s2 = v->gsum2[g] - m * p * p;
    if (n == 0) return 0;
    if (s * s != n * s2) return GO_MANY;
    return (uint32_t)(s / n);
}

/* Add liberty point q to the tally `one` (0 = none yet); true once there are two. */
static inline bool go_tally(uint32_t *one, uint32_t q) {
    if (q == GO_MANY) return true;
    if (!*one) *one = q;
    else if (q != *one) return true;
    return false;
}

/* The own groups next to p (distinct roots into g[], how many of p's sides each
 * touches into m[]); returns how many. */
static inline uint32_t go_own_groups(const go_view *v, const uint32_t nbs[4], uint32_t c,
                                     uint32_t g[4], uint32_t m[4]) {
    uint32_t n = 0;
    for (int k = 0; k < 4; k++) {
        if (v->color[nbs[k]] != c) continue;
        uint32_t h = v->gid[nbs[k]], i = 0;
        while (i < n && g[i] != h) i++;
        if (i == n) {
            g[n] = h;
            m[n++] = 0;
        }
        m[i]++;
    }
    return n;
}

/* go_libs_after(v, p, c, 2) >= 2 without walking any group: the same set of points
 * (p's empty neighbours, the neighbouring enemy stones it would capture, the other
 * liberties of the own groups it joins), from the pseudo-liberty sums. */
static inline bool go_two_libs(const go_view *v, uint32_t p, uint32_t c) {
    const uint32_t W = v->W, o = 3 - c;
    const uint32_t nbs[4] = {p - W, p - 1, p + 1, p + W};
    uint32_t one = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t n = nbs[k], cn = v->color[n];
        if ((cn == GO_EMPTY || (cn == o && go_only_lib_is(v, v->gid[n], p))) &&
            go_tally(&one, n))
            return true;
    }
    uint32_t g[4], m[4], ng = go_own_groups(v, nbs, c, g, m);
    for (uint32_t i = 0; i < ng; i++) {
        uint32_t q = go_other_lib(v, g[i], p, m[i]);
        if (q && go_tally(&one, q)) return true;
    }
    return false;
}

bool go_two_libs_after(const go_view *v, uint32_t p, uint32_t c) { return go_two_libs(v, p, c); }

/* go_is_bad_self_atari past its fast path (p has at most one empty neighbour). */
static bool go_self_atari_slow(const go_view *v, uint32_t p, uint32_t c) {
    const uint8_t *col = v->color;
    const uint32_t W = v->W, o = 3 - c;
    const uint32_t nbs[4] = {p - W, p - 1, p + 1, p + W};
    /* Bad iff the group has GO_SELF_ATARI_MIN+ stones, nothing is captured and it has
     * fewer than two liberties (go_libs_after; with no capture they are p's empty
     * neighbour and the own groups' other liberties).  One pass over p's sides: the
     * empty one, captures, the distinct own groups with their sizes and how many of
     * p's sides each touches. */
    uint32_t g[4], m[4], ng = 0, size = 1, one = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t n = nbs[k], cn = col[n];
        if (cn == GO_EMPTY) {
            one = n;
        } else if (cn == o) {
            if (go_only_lib_is(v, v->gid[n], p)) return false; /* a capture */
        } else if (cn == c) {
            uint32_t h = v->gid[n], i = 0;
            while (i < ng && g[i] != h) i++;
            if (i == ng) {
                g[ng] = h;
                m[ng++] = 0;
                size += v->gsize[h];
            }
            m[i]++;
        }
    }
    if (size < GO_SELF_ATARI_MIN) return false;
    for (uint32_t i = 0; i < ng; i++) {
        uint32_t q = go_other_lib(v, g[i], p, m[i]);
        if (q && go_tally(&one, q)) return false;
    }
    return true;
}

/* Empty neighbours of p. */
static inline uint32_t go_empty_nbs(const uint8_t *col, uint32_t W, uint32_t p) {
    return (uint32_t)(col[p - W] == GO_EMPTY) + (col[p - 1] == GO_EMPTY) +
           (col[p + 1] == GO_EMPTY) + (col[p + W] == GO_EMPTY);
}

bool go_is_bad_self_atari(const go_view *v, uint32_t p, uint32_t c) {
    /* Fast path: two empty neighbours are two liberties. */
    return go_empty_nbs(v->color, v->W, p) < 2 && go_self_atari_slow(v, p, c);
}

/* ---- the policy's rules ---- */

/* go_playout_ok, or without the eye rule when the mask switches it off. */
static inline bool go_policy_ok(const go_view *v, uint32_t p, uint32_t c, uint32_t mask) {
    if (!(mask & GO_POLICY_FILL_EYES)) return go_playout_ok(v, p, c);
    return p != v->f->ko && !go_is_suicide(v, p, c);
}

/* A point the policy may play for c: go_policy_ok, and not a bad self-atari when the
 * mask has GO_POLICY_SELF_ATARI; both tests' fast paths share one look at p's sides. */
static inline bool go_pick_ok(const go_view *v, uint32_t p, uint32_t c, uint32_t mask) {
    if (p == v->f->ko) return false;
    uint32_t e = go_empty_nbs(v->color, v->W, p);
    if (e >= 2) return true; /* neither an eye nor suicide nor a self-atari */
    /* An empty neighbour rules out an eye and suicide (go_playout_ok's fast path). */
    if (!e && ((!(mask & GO_POLICY_FILL_EYES) && go_is_own_eye(v, p, c)) ||
               go_is_suicide(v, p, c)))
        return false;
    return !(mask & GO_POLICY_SELF_ATARI) || !go_self_atari_slow(v, p, c);
}

typedef struct {
    uint16_t *out;
    uint32_t n, cap;
} go_cands;

static void go_cand_add(go_cands *cs, uint32_t q) {
    for (uint32_t i = 0; i < cs->n; i++)
        if (cs->out[i] == q) return;
    if (cs->n < cs->cap) cs->out[cs->n++] = (uint16_t)q;
}

/* The ATARI rule's answers for group g (colour gc), in atari at lib. */
static void go_atari_group(const go_view *v, uint32_t g, uint32_t gc, uint32_t lib, uint32_t c,
                           uint32_t mask, go_cands *cs) {
    const uint32_t W = v->W, o = 3 - c;
    if (gc == o) { /* capture the group in atari */
        if (go_policy_ok(v, lib, c, mask)) go_cand_add(cs, lib);
        return;
    }
    /* Save an own group: extend if that gives two liberties ... */
    if (go_policy_ok(v, lib, c, mask) && go_two_libs(v, lib, c)) go_cand_add(cs, lib);
    /* ... or capture an enemy group next to it that is in atari. */
    uint32_t st = g;
    do {
        const uint32_t nb[4] = {st - W, st - 1, st + 1, st + W};
        for (int j = 0; j < 4; j++) {
            if (v->color[nb[j]] != o) continue;
            uint32_t l2 = go_lib1(v, v->gid[nb[j]]);
            if (l2 && go_policy_ok(v, l2, c, mask)) go_cand_add(cs, l2);
        }
        st = v->next[st];
    } while (st != g);
}

/* Is any group the last move touched in atari?  (Its own group, every neighbour of its
 * colour being in it, and the other colour's groups next to it.) */
static inline bool go_touched_atari(const go_view *v, uint32_t last, uint32_t cl) {
    const uint8_t *col = v->color;
    const uint16_t *gid = v->gid;
    const uint32_t W = v->W, other = 3 - cl;
    return go_lib1(v, gid[last]) ||
           (col[last - W] == other && go_lib1(v, gid[last - W])) ||
           (col[last - 1] == other && go_lib1(v, gid[last - 1])) ||
           (col[last + 1] == other && go_lib1(v, gid[last + 1])) ||
           (col[last + W] == other && go_lib1(v, gid[last + W]));
}

uint32_t go_atari_replies(const go_view *v, uint32_t last, uint32_t c, uint32_t mask,
                          uint16_t *out, uint32_t cap) {
    if (!last) return 0;
    const uint32_t cl = v->color[last];
    if (!go_is_stone(cl) || !go_touched_atari(v, last, cl)) return 0;
    go_cands cs = {.out = out, .n = 0, .cap = cap};
    /* Those groups in the order last, N, W, E, S, each once. */
    const uint32_t W = v->W, other = 3 - cl, g0 = v->gid[last];
    uint32_t lib = go_lib1(v, g0);
    if (lib) go_atari_group(v, g0, cl, lib, c, mask, &cs);
    const uint32_t nbs[4] = {last - W, last - 1, last + 1, last + W};
    uint32_t seen[4], n_seen = 0;
    for (int k = 0; k < 4; k++) {
        if (v->color[nbs[k]] != other) continue;
        uint32_t g = v->gid[nbs[k]], i = 0;
        while (i < n_seen && seen[i] != g) i++;
        if (i < n_seen) continue;
        seen[n_seen++] = g;
        lib = go_lib1(v, g);
        if (lib) go_atari_group(v, g, other, lib, c, mask, &cs);
    }
    return cs.n;
}

/* Empty neighbours (8) of `last` that match a pattern and pass the rules. */
static uint32_t go_pattern_replies(const go_view *v, uint32_t last, uint32_t c, uint32_t mask,
                                   uint16_t *out) {
    const uint8_t *col = v->color, *table = v->d->pattern3;
    const uint32_t W = v->W;
    /* go_ring order */
    const uint32_t ring[8] = {last - W - 1, last - W, last - W + 1, last - 1,
                              last + 1,     last + W - 1, last + W, last + W + 1};
    uint32_t n = 0;
    for (int k = 0; k < 8; k++) {
        uint32_t q = ring[k];
        if (col[q] == GO_EMPTY && go_pattern_bit(table, go_code3(col, W, q)) &&
            go_pick_ok(v, q, c, mask))
            out[n++] = (uint16_t)q;
    }
    return n;
}

/* A uniformly random point that passes the rules, or 0 (pass). */
static uint32_t go_random_point(go_view *v, uint32_t c, uint32_t mask, miai_rng *rng) {
    uint16_t *empty = v->empty, *epos = v->epos;
    uint32_t k = v->f->n_empty;
    while (k) {
        uint32_t i = miai_rng_below(rng, k);
        uint32_t q = empty[i];
        if (go_pick_ok(v, q, c, mask)) return q;
        /* Move the refused point past the window so it is not drawn again. */
        k--;
        uint16_t r = empty[k];
        empty[k] = (uint16_t)q;
        empty[i] = r;
        epos[q] = (uint16_t)k;
        epos[r] = (uint16_t)i;
    }
    return 0;
}

/* The playout loop.  reply: NULL, or the last-good-reply table (go_lgr_memory_size):
 * its reply to the last move is played first when it is an empty point that passes
 * go_pick_ok; reply2: NULL, or the table of replies to the last two moves, tried
 * before it; seq: NULL, or room for every point played (0 = pass), in order. */
static inline uint32_t go_play_out_core(go_view *v, uint32_t mask, uint32_t last,
                                        miai_rng *rng, miai_move *trace, uint32_t trace_cap,
                                        uint32_t *trace_len, const uint16_t *reply,
                                        const uint16_t *reply2, uint16_t *seq) {
    go_fixed *f = v->f;
    const uint32_t P = v->d->n_points;
    uint32_t plies = 0, tl = 0, before = 0; /* before: the move before last (0: unknown) */
    uint16_t cand[64];
    while (f->head.to_move != MIAI_NOBODY) {
        uint32_t c = (uint32_t)f->head.to_move + 1, p = 0, n = 0;
        if (reply2 && last && before) {
            uint32_t r = reply2[((c - 1) * P + before) * P + last];
            if (r && v->color[r] == GO_EMPTY && go_pick_ok(v, r, c, mask)) p = r;
        }
        if (!p && reply && last) {
            uint32_t r = reply[(c - 1) * P + last];
            if (r && v->color[r] == GO_EMPTY && go_pick_ok(v, r, c, mask)) p = r;
        }
        if (!p) {
            if (last && (mask & GO_POLICY_ATARI) && go_is_stone(v->color[last]) &&
                go_touched_atari(v, last, v->color[last]))
                n = go_atari_replies(v, last, c, mask, cand, sizeof cand / sizeof cand[0]);
            if (!n && last && (mask & GO_POLICY_PATTERN))
                n = go_pattern_replies(v, last, c, mask, cand);
            if (n) p = cand[miai_rng_below(rng, n)];
            else p = go_random_point(v, c, mask, rng);
        }
        if (trace && tl < trace_cap) trace[tl++] = p ? v->d->move_of_point[p] : v->d->n_moves;
        if (seq) seq[plies] = (uint16_t)p;
        go_apply(v, p);
        before = last;
        last = p;
        plies++;
    }
    if (trace_len) *trace_len = tl;
    return plies;
}

uint32_t go_play_out_policy(go_view *v, uint32_t mask, uint32_t last, miai_rng *rng,
                            miai_move *trace, uint32_t trace_cap, uint32_t *trace_len) {
    return go_play_out_core(v, mask, last, rng, trace, trace_cap, trace_len, NULL, NULL, NULL);
}

/* ---- last good reply ---- */

size_t go_lgr_memory_size(const go_data *d) {
    size_t P = d->n_points, words = 2u * P + d->max_plies + 1u;
    if (d->policy & GO_POLICY_LGR2) words += 2u * P * P;
    return sizeof(uint16_t) * words;
}

/* The LGRF rule on one slot: the winner's reply stored, the loser's forgotten. */
static inline void go_lgr_learn(uint16_t *slot, uint32_t m, bool won) {
    if (won) *slot = (uint16_t)m;
    else if (*slot == m) *slot = 0;
}

void go_lgr_update(const go_data *d, uint16_t *reply, uint16_t *reply2, uint32_t prev,
                   uint32_t mover, const uint16_t *seq, uint32_t n, int32_t winner) {
    if (winner != 0 && winner != 1) return; /* a draw or the ply cap: nothing learnt */
    const uint32_t P = d->n_points;
    uint32_t before = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t m = seq[i], c = (mover + i) & 1u;
        if (prev && m) {
            go_lgr_learn(&reply[c * P + prev], m, (int32_t)c == winner);
            if (reply2 && before)
                go_lgr_learn(&reply2[((size_t)c * P + before) * P + prev], m,
                             (int32_t)c == winner);
        }
        before = prev;
        prev = m;
    }
}

uint32_t go_play_out_lgr(go_view *v, uint32_t mask, miai_rng *rng, void *memory,
                         miai_move *trace, uint32_t trace_cap, uint32_t *trace_len) {
    const go_data *d = v->d;
    uint16_t *reply = memory, *seq = reply + 2u * d->n_points;
    uint16_t *reply2 = d->policy & GO_POLICY_LGR2 ? seq + d->max_plies + 1u : NULL;
    const uint32_t prev = v->f->last;
    const int32_t mover = v->f->head.to_move;
    uint32_t n = go_play_out_core(v, mask, prev, rng, trace, trace_cap, trace_len, reply,
                                  reply2, seq);
    if (mover != 0 && mover != 1) return n;
    int32_t winner = -1;
    if (v->f->head.to_move == MIAI_NOBODY) {
        uint32_t black, white;
        go_area(v, NULL, &black, &white, NULL);
        double margin = (double)black - (double)white - d->komi;
        winner = margin > 0 ? 0 : margin < 0 ? 1 : -1;
    }
    go_lgr_update(d, reply, reply2, prev, (uint32_t)mover, seq, n, winner);
    return n;
}

/* ---- ladders ---- */

/* Up to cap distinct liberties of group g into out; returns how many. */
static uint32_t go_group_libs(const go_view *v, uint32_t g, uint32_t *out, uint32_t cap) {
    const uint32_t W = v->W;
    uint32_t n = 0, st = g;
    do {
        const uint32_t around[4] = {st - W, st - 1, st + 1, st + W};
        for (int j = 0; j < 4; j++) {
            uint32_t q = around[j], i = 0;
            if (v->color[q] != GO_EMPTY) continue;
            while (i < n && out[i] != q) i++;
            if (i < n) continue;
            out[n++] = q;
            if (n >= cap) return n;
        }
        st = v->next[st];
    } while (st != g);
    return n;
}

/* Is an enemy group (colour a) next to group g in atari? */
static bool go_next_to_atari(const go_view *v, uint32_t g, uint32_t a) {
    const uint32_t W = v->W;
    uint32_t st = g;
    do {
        const uint32_t around[4] = {st - W, st - 1, st + 1, st + W};
        for (int j = 0; j < 4; j++)
            if (v->color[around[j]] == a && go_lib1(v, v->gid[around[j]])) return true;
        st = v->next[st];
    } while (st != g);
    return false;
}

typedef struct {
    const go_data *d;
    uint8_t *buf;
    uint32_t levels, nodes;
} go_ladder;

static go_view go_ladder_level(const go_ladder *L, uint32_t lv) {
    return go_view_of(L->d, L->buf + (size_t)lv * L->d->state_size);
}

/* go_ladder_read on the state at level lv (G at gp, colour e, in atari). */
static bool go_ladder_at(go_ladder *L, uint32_t lv, uint32_t gp, uint32_t e) {
    go_view v = go_ladder_level(L, lv);
    const uint32_t a = 3 - e;
    if (lv + 2 >= L->levels || L->nodes == 0) return false; /* too long: escapes */
    L->nodes--;
    uint32_t lib = go_lib1(&v, v.gid[gp]);
    if (!lib) return false; /* the attacker's atari took stones: not in atari now */
    if (go_next_to_atari(&v, v.gid[gp], a)) return false; /* e takes an attacker */
    if (lib == v.f->ko || go_is_suicide(&v, lib, e)) return true;
    go_view w = go_ladder_level(L, lv + 1);
    memcpy(w.f, v.f, L->d->state_size);
    go_place(&w, lib, e);
    uint32_t libs[3], n = go_group_libs(&w, w.gid[gp], libs, 3);
    if (n != 2) return n < 2;
    for (uint32_t k = 0; k < 2; k++) {
        go_view u = go_ladder_level(L, lv + 2);
        memcpy(u.f, w.f, L->d->state_size);
        uint32_t x = libs[k];
        if (x == u.f->ko || go_is_suicide(&u, x, a)) continue;
        go_place(&u, x, a);
        if (go_ladder_at(L, lv + 2, gp, e)) return true;
    }
    return false;
}

uint32_t go_ladder_levels(const go_data *d) { return 2 * (2 * d->size + 2) + 2; }

int go_ladder_read(const go_data *d, const void *state, uint32_t gp, uint8_t *scratch,
                   bool *out) {
    if (!d || !state || !scratch || !out || gp >= d->n_points) return MIAI_EINVAL;
    go_view v = go_cview_of(d, state);
    if (!go_is_stone(v.color[gp]) || !go_lib1(&v, v.gid[gp])) return MIAI_EINVAL;
    go_ladder L = {.d = d, .buf = scratch, .levels = go_ladder_levels(d),
                   .nodes = GO_LADDER_NODES};
    memcpy(scratch, state, d->state_size);
    *out = go_ladder_at(&L, 0, gp, v.color[gp]);
    return MIAI_OK;
}

/* ---- priors ---- */

/* The 1-based line of point p (1 = the edge line). */
uint32_t go_line(const go_data *d, uint32_t p) {
    uint32_t r = p / d->W - 1, c = p % d->W - 1, n = d->size;
    uint32_t a = r < n - 1 - r ? r : n - 1 - r, b = c < n - 1 - c ? c : n - 1 - c;
    return 1 + (a < b ? a : b);
}

/* No stone in the 5x5 square around p? */
static bool go_empty_area(const go_view *v, uint32_t p) {
    const go_data *d = v->d;
    int32_t r = (int32_t)(p / d->W) - 1, c = (int32_t)(p % d->W) - 1, n = (int32_t)d->size;
    for (int32_t rr = r - 2; rr <= r + 2; rr++)
        for (int32_t cc = c - 2; cc <= c + 2; cc++)
            if (rr >= 0 && rr < n && cc >= 0 && cc < n &&
                go_is_stone(v->color[d->point_of_move[rr * n + cc]]))
                return false;
    return true;
}

/* The enemy groups (colour o) that c at p would put in atari: next to p, with exactly
 * the two liberties p and another (go_other_lib); their roots into g[], the count. */
uint32_t go_ataris_at(const go_view *v, uint32_t p, uint32_t o, uint32_t g[4]) {
    const uint32_t nbs[4] = {p - v->W, p - 1, p + 1, p + v->W};
    uint32_t all[4], m[4], n = go_own_groups(v, nbs, o, all, m), k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t q = go_other_lib(v, all[i], p, m[i]);
        if (q && q != GO_MANY) g[k++] = all[i];
    }
    return k;
}

/* The ladder reader's levels and one more state, had once per go_prior_kinds call
 * (only when a move needs a read). */
uint8_t *go_scratch(const go_data *d, uint8_t **scratch) {
    if (!*scratch) *scratch = malloc((size_t)(go_ladder_levels(d) + 1) * d->state_size);
    return *scratch;
}

uint8_t *go_after_move(const go_view *v, uint32_t p, uint32_t c, uint8_t **scratch,
                       go_view *w) {
    const go_data *d = v->d;
    uint8_t *buf = go_scratch(d, scratch);
    if (!buf) return NULL;
    uint8_t *after = buf + (size_t)go_ladder_levels(d) * d->state_size;
    memcpy(after, v->f, d->state_size);
    *w = go_view_of(d, after);
    go_place(w, p, c);
    return after;
}

/* The ladder rule for c at p (GO_PRIOR_LADDER): +1, -1 or 0; -2 out of memory. */
int go_ladder_kind(const go_view *v, uint32_t p, uint32_t c, uint8_t **scratch) {
    const go_data *d = v->d;
    const uint32_t W = v->W, o = 3 - c;
    uint32_t g[4], n = go_ataris_at(v, p, o, g);
    if (n && p != v->f->ko && !go_is_suicide(v, p, c)) {
        go_view w;
        uint8_t *after = go_after_move(v, p, c, scratch, &w);
        if (!after) return -2;
        for (uint32_t i = 0; i < n; i++) {
            bool taken = false;
            /* g[i] is a root before the move; the group's stones keep it as gid. */
            if (go_is_stone(w.color[g[i]]) && go_lib1(&w, w.gid[g[i]]) &&
                go_ladder_read(d, after, g[i], *scratch, &taken) == MIAI_OK && taken)
                return 1;
        }
    }
    if (go_captures_at(v, p, c)) return 0;
    const uint32_t nbs[4] = {p - W, p - 1, p + 1, p + W};
    for (int k = 0; k < 4; k++) {
        if (v->color[nbs[k]] != c || !go_only_lib_is(v, v->gid[nbs[k]], p)) continue;
        uint8_t *buf = go_scratch(d, scratch);
        if (!buf) return -2;
        bool taken = false;
        if (go_ladder_read(d, v->f, nbs[k], buf, &taken) == MIAI_OK && taken) return -1;
    }
    return 0;
}

int go_prior_kinds(const go_data *d, const void *state, const miai_move *moves, uint32_t n,
                   int8_t *kind) {
    if (!d || !state || (n && (!moves || !kind))) return MIAI_EINVAL;
    go_view v = go_cview_of(d, state);
    int32_t mover = v.f->head.to_move;
    if (mover != 0 && mover != 1) {
        for (uint32_t i = 0; i < n; i++) kind[i] = 0;
        return MIAI_OK;
    }
    uint32_t c = (uint32_t)mover + 1, last = v.f->last;
    const bool lines = d->policy & GO_PRIOR_LINES, ladders = d->policy & GO_PRIOR_LADDER;
    const bool early = 2u * v.f->n_empty > d->n_moves;
    uint8_t *scratch = NULL;
    int rc = MIAI_OK;
    uint16_t saves[64];
    uint32_t n_saves = go_atari_replies(&v, last, c, 0, saves, 64);
    for (uint32_t i = 0; i < n; i++) {
        kind[i] = 0;
        if (moves[i] > d->n_moves) {
            rc = MIAI_EINVAL;
            break;
        }
        if (moves[i] == d->n_moves) {
            if (4u * v.f->n_empty > d->n_moves) kind[i] = -1;
            continue;
        }
        uint32_t p = d->point_of_move[moves[i]];
        if (v.color[p] != GO_EMPTY) continue;
        if (go_is_own_eye(&v, p, c) || go_is_bad_self_atari(&v, p, c)) {
            kind[i] = -1;
            continue;
        }
        bool capture = go_captures_at(&v, p, c), save = false;
        for (uint32_t k = 0; k < n_saves && !save; k++) save = saves[k] == p;
        bool good = capture || save;
        if (!good && last) {
            int32_t dr = (int32_t)(p / d->W) - (int32_t)(last / d->W);
            int32_t dc = (int32_t)(p % d->W) - (int32_t)(last % d->W);
            good = dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1 && go_pattern_match(&v, p);
        }
        if (good) kind[i] = 1;
        if (lines) {
            uint32_t line = go_line(d, p), g[4];
            if (line <= 2 && ((line == 1 && early) || go_empty_area(&v, p)) && !capture &&
                !save && !go_ataris_at(&v, p, 3 - c, g))
                kind[i] = -1;
        }
        if (ladders) {
            int k = go_ladder_kind(&v, p, c, &scratch);
            if (k == -2) {
                rc = MIAI_ENOMEM;
                break;
            }
            if (k) kind[i] = (int8_t)k;
        }
    }
    free(scratch);
    return rc;
}
