/* havannah.c -- Havannah on a hexagon of base b (parameter `size` = b, 4..10, default 8).
 *
 * Geometry (OpenSpiel's `havannah`, so OpenSpiel serves as the rules oracle):
 *   - A cell has coordinates (x, y) in [0, 2b-2]^2 with |x - y| < b: 3b(b-1)+1 cells.
 *   - Neighbours of (x, y), in circular order: (x-1, y-1), (x, y-1), (x+1, y), (x+1, y+1),
 *     (x, y+1), (x-1, y).
 *   - Move ids number the cells row by row, y from 0, then x ascending: the order of
 *     OpenSpiel's actions (OpenSpiel's action id is y * (2b-1) + x; ours skip the
 *     off-board corners of that square, so every id in [0, cells) is a cell).
 *   - Move text: letter 'a' + x, then number y + 1 (OpenSpiel's text), e.g. "a1" is the
 *     corner (0, 0).  Upper-case letters are accepted.
 *   - Rendering (top row first): row y is one line, indented by |b-1-y|; cell (x, y) sits
 *     at column 2x - y, so the letter of column x labels a line running down and to the
 *     left.  Letters a.. stand above the first row; the letters of columns that start
 *     further down stand at the right end of the row above their first cell.
 *   - Corners: (0,0), (b-1,0), (2b-2,b-1), (2b-2,2b-2), (b-1,2b-2), (0,b-1).  Sides are
 *     the six rows of rim cells between two corners, corners excluded.
 * Rules: role 0 (X) moves first; stones are placed on empty cells; no swap (OpenSpiel's
 * default).  A move wins when the mover then has
 *   - a ring: a closed chain of own stones around at least one cell (the enclosed cells
 *     may be empty or hold stones of either colour),
 *   - a bridge: a group touching two corners, or
 *   - a fork: a group touching three sides (corner cells belong to no side).
 * A full board without a winner is a draw (0.5 each); otherwise winner 1, loser 0.
 *
 * Win detection is incremental: a union-find forest over the cells, kept in the state,
 * with the corner and side bits of each group at its root (bridge and fork are
 * popcounts).  A ring can only appear through the new stone c, in one of two ways:
 *   (a) c closes a loop that cuts some non-own cells off the board's outside.  Then c's
 *       own neighbours form at least two separate arcs around c that already belonged to
 *       one group; only then the non-own neighbours of c are flood-filled (through
 *       non-own cells) to see whether one of them no longer reaches the rim.
 *   (b) every enclosed cell is own: then some own cell off the rim has six own
 *       neighbours, and that cell is c or a neighbour of c.
 * Nothing scans the whole board unless (a)'s flood fill must.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/zobrist.h"

#define HAV_MAX_BASE 10
#define HAV_MAX_DIAM (2 * HAV_MAX_BASE - 1)
#define HAV_MAX_CELLS (3 * HAV_MAX_BASE * (HAV_MAX_BASE - 1) + 1)
#define HAV_WORDS ((HAV_MAX_CELLS + 63) / 64)
#define HAV_NONE 2 /* no winner (game on, or a draw) */
#define HAV_CORNERS 0x3fu
#define HAV_SIDE_SHIFT 6

enum { HAV_RING = 1, HAV_BRIDGE = 2, HAV_FORK = 4 };

typedef struct {
    miai_head head;
    uint64_t occ[2][HAV_WORDS]; /* stones of each role, bit = move id */
    uint8_t winner;             /* 0, 1, or HAV_NONE */
    uint8_t win_kind;           /* HAV_RING | HAV_BRIDGE | HAV_FORK made by the last move */
    uint8_t pad[6];
    /* followed by uint16_t parent[cells] and uint16_t marks[cells] (at roots: corner
     * bits 0-5 and side bits 6-11 the group touches), zero-padded to a multiple of 8 */
} hav_state;

typedef struct {
    uint32_t base, diam, cells;
    uint32_t marks_off; /* byte offset of marks[] in the state */
    uint8_t x[HAV_MAX_CELLS], y[HAV_MAX_CELLS];
    int16_t id_at[HAV_MAX_DIAM][HAV_MAX_DIAM]; /* [y][x], -1 off the board */
    int16_t nb[HAV_MAX_CELLS][6];              /* circular order, -1 off the board */
    uint16_t mark_of[HAV_MAX_CELLS];           /* the cell's own corner or side bit */
    uint8_t rim[HAV_MAX_CELLS];                /* 1: some neighbour is off the board */
    uint64_t board[HAV_WORDS];
    /* Zobrist keys: [role * HAV_MAX_CELLS + cell]; the last one is xored in when role 1
     * is to move. */
    miai_zkey zobrist[2 * HAV_MAX_CELLS + 1];
} hav_data;

static inline miai_zkey hav_zstone(const hav_data *d, uint32_t role, uint32_t cell) {
    return d->zobrist[role * HAV_MAX_CELLS + cell];
}
static inline miai_zkey hav_zside(const hav_data *d) { return d->zobrist[2 * HAV_MAX_CELLS]; }

static uint16_t *hav_parent(void *s) { return (uint16_t *)((uint8_t *)s + sizeof(hav_state)); }
static const uint16_t *hav_cparent(const void *s) {
    return (const uint16_t *)((const uint8_t *)s + sizeof(hav_state));
}
static uint16_t *hav_marks(const hav_data *d, void *s) {
    return (uint16_t *)((uint8_t *)s + d->marks_off);
}
static const uint16_t *hav_cmarks(const hav_data *d, const void *s) {
    return (const uint16_t *)((const uint8_t *)s + d->marks_off);
}

static inline bool hav_has(const uint64_t *bb, uint32_t i) { return bb[i >> 6] >> (i & 63) & 1; }
static inline void hav_set(uint64_t *bb, uint32_t i) { bb[i >> 6] |= 1ULL << (i & 63); }

static inline bool hav_own(const hav_state *s, uint32_t r, int32_t q) {
    return q >= 0 && hav_has(s->occ[r], (uint32_t)q);
}

/* Has v at least k set bits?  (Clears the lowest set bit k-1 times; no popcount call,
 * which without -mpopcnt is a library call on the hot path.) */
static inline bool hav_bits_at_least(uint32_t v, int k) {
    for (int i = 1; i < k; i++) v &= v - 1;
    return v != 0;
}

/* Root of x with path halving (mutates the forest).  Path halving also ends on a
 * cycle, and ids past the board stop the walk: a state corrupted by its owner gives
 * wrong answers, never an out-of-bounds access or an endless loop. */
static uint32_t hav_find(uint16_t *parent, uint32_t x, uint32_t cells) {
    for (;;) {
        uint32_t p = parent[x];
        if (p == x || p >= cells) return x;
        uint32_t gp = parent[p];
        if (gp >= cells) return p;
        parent[x] = (uint16_t)gp;
        x = gp;
    }
}

static void hav_init(const miai_game *g, void *state) {
    const hav_data *d = g->data;
    hav_state *s = state;
    uint16_t *parent = hav_parent(s);
    for (uint32_t i = 0; i < d->cells; i++) parent[i] = (uint16_t)i;
    s->winner = HAV_NONE;
    s->head.to_move = 0;
}

static uint32_t hav_legal(const miai_game *g, const void *state, uint32_t role,
                          miai_move *out) {
    const hav_data *d = g->data;
    const hav_state *s = state;
    if ((int32_t)role != s->head.to_move) return 0;
    uint32_t n = 0;
    for (uint32_t w = 0; w < HAV_WORDS; w++) {
        uint64_t empty = d->board[w] & ~(s->occ[0][w] | s->occ[1][w]);
        while (empty) {
            out[n++] = w * 64 + (uint32_t)__builtin_ctzll(empty);
            empty &= empty - 1;
        }
    }
    return n;
}

/* Do c's own neighbours (role r, before c joins them) form two or more separate arcs
 * around c of which two already belong to one group?  Then c closes a loop. */
static bool hav_closes_loop(const hav_data *d, hav_state *s, uint32_t r, uint32_t c) {
    uint16_t *parent = hav_parent(s);
    bool own[6];
    int start = -1;
    for (int k = 0; k < 6; k++) {
        own[k] = hav_own(s, r, d->nb[c][k]);
        if (!own[k]) start = k;
    }
    if (start < 0) return false; /* six own neighbours: one arc (case (b) covers it) */
    uint32_t arc_root[3];
    uint32_t n_arcs = 0;
    for (int i = 1; i <= 6; i++) {
        int k = (start + i) % 6;
        if (own[k] && !own[(k + 5) % 6]) /* first cell of an arc */
            arc_root[n_arcs++] = hav_find(parent, (uint32_t)d->nb[c][k], d->cells);
    }
    for (uint32_t i = 0; i < n_arcs; i++)
        for (uint32_t j = i + 1; j < n_arcs; j++)
            if (arc_root[i] == arc_root[j]) return true;
    return false;
}

/* Case (a): after c was placed, is some non-own neighbour of c cut off from the rim?
 * Flood fill through non-own cells; cells reached by a fill that escaped are shared. */
static bool hav_encloses(const hav_data *d, const hav_state *s, uint32_t r, uint32_t c) {
    uint64_t seen[HAV_WORDS] = {0};
    uint16_t stack[HAV_MAX_CELLS];
    for (int k = 0; k < 6; k++) {
        int32_t start = d->nb[c][k];
        if (start < 0 || hav_own(s, r, start) || hav_has(seen, (uint32_t)start)) continue;
        uint32_t top = 0;
        bool escaped = false;
        stack[top++] = (uint16_t)start;
        hav_set(seen, (uint32_t)start);
        while (top && !escaped) {
            uint32_t x = stack[--top];
            if (d->rim[x]) {
                escaped = true;
                break;
            }
            for (int j = 0; j < 6; j++) {
                int32_t q = d->nb[x][j];
                if (q < 0 || hav_own(s, r, q) || hav_has(seen, (uint32_t)q)) continue;
                hav_set(seen, (uint32_t)q);
                stack[top++] = (uint16_t)q;
            }
        }
        if (!escaped) return true;
    }
    return false;
}

/* Case (b): an own cell off the rim whose six neighbours are all own. */
static bool hav_surrounded(const hav_data *d, const hav_state *s, uint32_t r, uint32_t v) {
    if (d->rim[v] || !hav_has(s->occ[r], v)) return false;
    for (int k = 0; k < 6; k++)
        if (!hav_own(s, r, d->nb[v][k])) return false;
    return true;
}

static void hav_play_cell(const hav_data *d, hav_state *s, uint32_t c) {
    uint32_t r = (uint32_t)s->head.to_move;
    uint16_t *parent = hav_parent(s);
    uint16_t *marks = hav_marks(d, s);
    bool loop = hav_closes_loop(d, s, r, c);
    hav_set(s->occ[r], c);
    miai_zxor(&s->head, hav_zstone(d, r, c));
    miai_zxor(&s->head, hav_zside(d));
    s->head.ply++;
    uint32_t root = c, n_own = 0;
    uint16_t m = d->mark_of[c];
    for (int k = 0; k < 6; k++) {
        int32_t q = d->nb[c][k];
        if (q < 0 || !hav_has(s->occ[r], (uint32_t)q)) continue;
        n_own++;
        uint32_t qr = hav_find(parent, (uint32_t)q, d->cells);
        if (qr == root) continue;
        m |= marks[qr];
        if (root == c) {
            parent[c] = (uint16_t)qr;
            root = qr;
        } else {
            parent[qr] = (uint16_t)root;
        }
    }
    marks[root] = m;
    uint8_t kind = 0;
    if (hav_bits_at_least(m & HAV_CORNERS, 2)) kind |= HAV_BRIDGE;
    if (hav_bits_at_least((uint32_t)m >> HAV_SIDE_SHIFT, 3)) kind |= HAV_FORK;
    if (loop && hav_encloses(d, s, r, c)) kind |= HAV_RING;
    /* Case (b) needs three own neighbours of c: c itself has six, and a surrounded
     * neighbour n needs n and the two cells next to both c and n. */
    if (!(kind & HAV_RING) && n_own >= 3) {
        bool blob = hav_surrounded(d, s, r, c);
        for (int k = 0; k < 6 && !blob; k++)
            if (hav_own(s, r, d->nb[c][k])) blob = hav_surrounded(d, s, r, (uint32_t)d->nb[c][k]);
        if (blob) kind |= HAV_RING;
    }
    s->win_kind = kind;
    if (kind) {
        s->winner = (uint8_t)r;
        s->head.to_move = MIAI_NOBODY;
    } else if (s->head.ply == d->cells) {
        s->head.to_move = MIAI_NOBODY;
    } else {
        s->head.to_move = (int32_t)(1 - r);
    }
}

static void hav_play(const miai_game *g, void *state, const miai_move *moves) {
    const hav_data *d = g->data;
    hav_state *s = state;
    if (s->head.to_move != 0 && s->head.to_move != 1) return; /* corrupted by its owner */
    miai_move m = moves[s->head.to_move];
    if (m < d->cells) hav_play_cell(d, s, m);
}

/* Uniformly random moves, like the generic playout, drawing from an array of the empty
 * cells with swap-remove instead of rebuilding the move list every ply. */
static uint32_t hav_playout(const miai_game *g, void *state, miai_rng *rng,
                            miai_move *trace, uint32_t trace_cap, uint32_t *trace_len) {
    const hav_data *d = g->data;
    hav_state *s = state;
    miai_move empty[HAV_MAX_CELLS];
    uint32_t n_empty = 0, plies = 0, tl = 0;
    if (trace_len) *trace_len = 0;
    if (s->head.to_move != 0 && s->head.to_move != 1) return 0; /* over (or corrupted) */
    n_empty = hav_legal(g, s, (uint32_t)s->head.to_move, empty);
    while (s->head.to_move != MIAI_NOBODY && s->head.ply < g->facts.max_plies && n_empty) {
        uint32_t i = miai_rng_below(rng, n_empty);
        miai_move m = empty[i];
        empty[i] = empty[--n_empty];
        if (trace && tl < trace_cap) trace[tl++] = m;
        hav_play_cell(d, s, m);
        plies++;
    }
    if (trace_len) *trace_len = tl;
    return plies;
}

static void hav_rewards(const miai_game *g, const void *state, double *out) {
    (void)g;
    const hav_state *s = state;
    out[0] = s->winner == 0 ? 1.0 : s->winner == 1 ? 0.0 : 0.5;
    out[1] = 1.0 - out[0];
}

static void hav_key_full(const miai_game *g, const void *state, uint64_t *k1, uint64_t *k2) {
    const hav_data *d = g->data;
    const hav_state *s = state;
    *k1 = *k2 = 0;
    uint32_t stones = 0;
    for (uint32_t r = 0; r < 2; r++)
        for (uint32_t i = 0; i < d->cells; i++)
            if (hav_has(s->occ[r], i)) {
                miai_zxor2(k1, k2, hav_zstone(d, r, i));
                stones++;
            }
    if (stones & 1) miai_zxor2(k1, k2, hav_zside(d));
}

static int hav_move_to_text(const miai_game *g, uint32_t role, miai_move m, char *buf,
                            size_t cap) {
    (void)role;
    const hav_data *d = g->data;
    snprintf(buf, cap, "%c%u", (char)('a' + d->x[m]), (unsigned)(d->y[m] + 1));
    return MIAI_OK;
}

static int hav_move_from_text(const miai_game *g, uint32_t role, const char *t,
                              miai_move *out) {
    (void)role;
    const hav_data *d = g->data;
    char c = (char)(t[0] | 0x20);
    if (c < 'a' || c >= (char)('a' + d->diam)) return MIAI_EINVAL;
    if (t[1] < '1' || t[1] > '9') return MIAI_EINVAL;
    uint32_t row = (uint32_t)(t[1] - '0');
    if (t[2]) {
        if (t[2] < '0' || t[2] > '9' || t[3]) return MIAI_EINVAL;
        row = row * 10 + (uint32_t)(t[2] - '0');
    }
    if (row > d->diam) return MIAI_EINVAL;
    int16_t id = d->id_at[row - 1][c - 'a'];
    if (id < 0) return MIAI_EINVAL;
    *out = (miai_move)id;
    return MIAI_OK;
}

#define HAV_PUT(...)                                                                   \
    do {                                                                               \
        if (at < cap) {                                                                \
            int w_ = snprintf(buf + at, cap - at, __VA_ARGS__);                        \
            at += w_ > 0 ? (size_t)w_ : 0;                                             \
        }                                                                              \
    } while (0)

static void hav_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    const hav_data *d = g->data;
    const hav_state *s = state;
    int b = (int)d->base, m = b - 1;
    size_t at = 0;
    /* Cell (x, y) is printed at text column 2x - y + m + 3; the row number takes the
     * three columns before the row's first cell. */
    HAV_PUT("%*s", m + 3, "");
    for (int x = 0; x < b; x++) HAV_PUT("%c%s", (char)('a' + x), x + 1 < b ? " " : "\n");
    for (int y = 0; y < (int)d->diam; y++) {
        int x0 = y < b ? 0 : y - m, x1 = y < b ? y + m : (int)d->diam - 1;
        int first_col = 2 * x0 - y + m;
        HAV_PUT("%*s%2d ", first_col, "", y + 1);
        for (int x = x0; x <= x1; x++) {
            uint32_t i = (uint32_t)d->id_at[y][x];
            char ch = hav_has(s->occ[0], i) ? 'X' : hav_has(s->occ[1], i) ? 'O' : '.';
            HAV_PUT("%c%s", ch, x < x1 ? " " : "");
        }
        if (y < m) HAV_PUT(" %c", (char)('a' + b + y));
        HAV_PUT("\n");
    }
    if (s->winner != HAV_NONE) {
        HAV_PUT("%c wins by", s->winner == 0 ? 'X' : 'O');
        if (s->win_kind & HAV_RING) HAV_PUT(" ring");
        if (s->win_kind & HAV_BRIDGE) HAV_PUT(" bridge");
        if (s->win_kind & HAV_FORK) HAV_PUT(" fork");
        HAV_PUT("\n");
    } else if (s->head.to_move == MIAI_NOBODY) {
        HAV_PUT("draw: the board is full\n");
    } else {
        HAV_PUT("%c to move\n", s->head.to_move == 0 ? 'X' : 'O');
    }
}

/* From scratch: the win kinds role r has on the board (rings by the global form of (a)
 * and (b): a non-own cell that no flood from the rim through non-own cells reaches, or an
 * own cell off the rim with six own neighbours). */
static uint8_t hav_kinds_from_scratch(const hav_data *d, const hav_state *s, uint32_t r) {
    uint8_t kind = 0;
    uint16_t stack[HAV_MAX_CELLS];
    uint64_t seen[HAV_WORDS] = {0};
    for (uint32_t i = 0; i < d->cells; i++) {
        if (!hav_has(s->occ[r], i) || hav_has(seen, i)) continue;
        uint32_t top = 0;
        uint16_t m = 0;
        stack[top++] = (uint16_t)i;
        hav_set(seen, i);
        while (top) {
            uint32_t x = stack[--top];
            m |= d->mark_of[x];
            for (int k = 0; k < 6; k++) {
                int32_t q = d->nb[x][k];
                if (!hav_own(s, r, q) || hav_has(seen, (uint32_t)q)) continue;
                hav_set(seen, (uint32_t)q);
                stack[top++] = (uint16_t)q;
            }
        }
        if (__builtin_popcount(m & HAV_CORNERS) >= 2) kind |= HAV_BRIDGE;
        if (__builtin_popcount(m >> HAV_SIDE_SHIFT) >= 3) kind |= HAV_FORK;
    }
    uint64_t out[HAV_WORDS] = {0};
    uint32_t top = 0;
    for (uint32_t i = 0; i < d->cells; i++)
        if (d->rim[i] && !hav_has(s->occ[r], i)) {
            hav_set(out, i);
            stack[top++] = (uint16_t)i;
        }
    while (top) {
        uint32_t x = stack[--top];
        for (int k = 0; k < 6; k++) {
            int32_t q = d->nb[x][k];
            if (q < 0 || hav_own(s, r, q) || hav_has(out, (uint32_t)q)) continue;
            hav_set(out, (uint32_t)q);
            stack[top++] = (uint16_t)q;
        }
    }
    for (uint32_t i = 0; i < d->cells; i++) {
        if (!hav_has(s->occ[r], i) && !hav_has(out, i)) kind |= HAV_RING;
        if (hav_surrounded(d, s, r, i)) kind |= HAV_RING;
    }
    return kind;
}

/* Recompute groups, corner/side marks, wins, winner, side to move and ply. */
static int hav_check(const miai_game *g, const void *state) {
    const hav_data *d = g->data;
    const hav_state *s = state;
    const uint16_t *parent = hav_cparent(s);
    const uint16_t *marks = hav_cmarks(d, s);
    uint32_t stones[2] = {0, 0};
    for (uint32_t w = 0; w < HAV_WORDS; w++) {
        if (s->occ[0][w] & s->occ[1][w]) return MIAI_ECORRUPT;
        if ((s->occ[0][w] | s->occ[1][w]) & ~d->board[w]) return MIAI_ECORRUPT;
        stones[0] += (uint32_t)__builtin_popcountll(s->occ[0][w]);
        stones[1] += (uint32_t)__builtin_popcountll(s->occ[1][w]);
    }
    if (s->head.ply != stones[0] + stones[1]) return MIAI_ECORRUPT;
    if (stones[0] != stones[1] && stones[0] != stones[1] + 1) return MIAI_ECORRUPT;
    uint16_t root[HAV_MAX_CELLS], comp[HAV_MAX_CELLS], stack[HAV_MAX_CELLS];
    for (uint32_t i = 0; i < d->cells; i++) {
        int owner = hav_has(s->occ[0], i) ? 0 : hav_has(s->occ[1], i) ? 1 : -1;
        if (parent[i] >= d->cells) return MIAI_ECORRUPT;
        if (owner < 0) {
            if (parent[i] != i) return MIAI_ECORRUPT;
            root[i] = (uint16_t)i;
            continue;
        }
        uint32_t x = i, steps = 0;
        while (parent[x] != x && steps++ <= d->cells) {
            x = parent[x];
            if (x >= d->cells || !hav_has(s->occ[owner], x)) return MIAI_ECORRUPT;
        }
        if (parent[x] != x) return MIAI_ECORRUPT;
        root[i] = (uint16_t)x;
    }
    const uint16_t unseen = UINT16_MAX;
    for (uint32_t i = 0; i < d->cells; i++) comp[i] = unseen;
    for (uint32_t i = 0; i < d->cells; i++) {
        int owner = hav_has(s->occ[0], i) ? 0 : hav_has(s->occ[1], i) ? 1 : -1;
        if (owner < 0 || comp[i] != unseen) continue;
        if (comp[root[i]] != unseen) return MIAI_ECORRUPT;
        uint32_t top = 0;
        uint16_t m = 0;
        stack[top++] = (uint16_t)i;
        comp[i] = (uint16_t)i;
        while (top) {
            uint32_t x = stack[--top];
            if (root[x] != root[i]) return MIAI_ECORRUPT;
            m |= d->mark_of[x];
            for (int k = 0; k < 6; k++) {
                int32_t q = d->nb[x][k];
                if (!hav_own(s, (uint32_t)owner, q) || comp[q] != unseen) continue;
                comp[q] = (uint16_t)i;
                stack[top++] = (uint16_t)q;
            }
        }
        if (marks[root[i]] != m) return MIAI_ECORRUPT;
    }
    uint8_t kinds[2] = {hav_kinds_from_scratch(d, s, 0), hav_kinds_from_scratch(d, s, 1)};
    if (s->winner == HAV_NONE) {
        if (kinds[0] || kinds[1] || s->win_kind) return MIAI_ECORRUPT;
        int32_t want = s->head.ply == d->cells ? MIAI_NOBODY : (int32_t)(s->head.ply & 1);
        if (s->head.to_move != want) return MIAI_ECORRUPT;
    } else {
        if (s->winner > 1 || s->head.to_move != MIAI_NOBODY) return MIAI_ECORRUPT;
        if (s->head.ply == 0 || s->winner != (s->head.ply - 1) % 2) return MIAI_ECORRUPT;
        if (kinds[s->winner] != s->win_kind || !s->win_kind || kinds[1 - s->winner])
            return MIAI_ECORRUPT;
    }
    return MIAI_OK;
}

static void hav_destroy(miai_game *g) { free(g->data); }

static const miai_game_ops hav_ops = {
    .init = hav_init,
    .legal = hav_legal,
    .play = hav_play,
    .rewards = hav_rewards,
    .key_full = hav_key_full,
    .move_to_text = hav_move_to_text,
    .move_from_text = hav_move_from_text,
    .render = hav_render,
    .playout = hav_playout,
    .check = hav_check,
    .destroy = hav_destroy,
};

/* The corner bit (0-5) or side bit (6-11) of rim cell (x, y); 0 inside the board. */
static uint16_t hav_mark(int x, int y, int m) {
    int e = 2 * m;
    const int corner[6][2] = {{0, 0}, {m, 0}, {e, m}, {e, e}, {m, e}, {0, m}};
    for (int k = 0; k < 6; k++)
        if (x == corner[k][0] && y == corner[k][1]) return (uint16_t)(1u << k);
    int side = y == 0 ? 0 : x - y == m ? 1 : x == e ? 2 : y == e ? 3 : y - x == m ? 4
             : x == 0 ? 5 : -1;
    return side < 0 ? 0 : (uint16_t)(1u << (HAV_SIDE_SHIFT + side));
}

static int hav_create(const double *params, miai_game *g) {
    int b = (int)params[0];
    if (b < 4 || b > HAV_MAX_BASE) return MIAI_EINVAL;
    hav_data *d = calloc(1, sizeof *d);
    if (!d) return MIAI_ENOMEM;
    int m = b - 1, diam = 2 * b - 1;
    d->base = (uint32_t)b;
    d->diam = (uint32_t)diam;
    uint32_t n = 0;
    for (int y = 0; y < HAV_MAX_DIAM; y++)
        for (int x = 0; x < HAV_MAX_DIAM; x++) {
            bool on = x < diam && y < diam && x - y < b && y - x < b;
            d->id_at[y][x] = on ? (int16_t)n : -1;
            if (!on) continue;
            d->x[n] = (uint8_t)x;
            d->y[n] = (uint8_t)y;
            d->mark_of[n] = hav_mark(x, y, m);
            hav_set(d->board, n);
            n++;
        }
    d->cells = n;
    static const int dx[6] = {-1, 0, 1, 1, 0, -1}, dy[6] = {-1, -1, 0, 1, 1, 0};
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 6; k++) {
            int x = d->x[i] + dx[k], y = d->y[i] + dy[k];
            bool in = x >= 0 && y >= 0 && x < diam && y < diam;
            d->nb[i][k] = in ? d->id_at[y][x] : -1;
            if (d->nb[i][k] < 0) d->rim[i] = 1;
        }
    d->marks_off = (uint32_t)(sizeof(hav_state) + (size_t)n * sizeof(uint16_t));
    size_t tail = (size_t)n * 2 * sizeof(uint16_t);
    zobrist_fill(d->zobrist, 2 * HAV_MAX_CELLS + 1, zobrist_seed("havannah", params, 1));
    g->data = d;
    g->ops = &hav_ops;
    g->facts = (miai_game_facts){.n_roles = 2,
                                 .state_size = (uint32_t)(sizeof(hav_state) + (tail + 7) / 8 * 8),
                                 .num_moves = n,
                                 .max_legal = n,
                                 .max_plies = n,
                                 .simultaneous = 0};
    return MIAI_OK;
}

const miai_game_entry miai_havannah_entry = {
    .info = {.name = "havannah",
             .n_params = 1,
             .param_name = {"size"},
             .param_default = {8},
             .param_min = {4},
             .param_max = {HAV_MAX_BASE},
             .param_integer = {1}},
    .create = hav_create,
};
