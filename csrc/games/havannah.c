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
 *   (a) c's own neighbours form two or more separate arcs around c (maximal runs of own
 *       cells in the circular order) of which two already belonged to one group.  This
 *       alone is a ring.  Proof: take a shortest path P in that group between a cell a of
 *       one arc and a cell b of the other; P avoids c (c was empty), so c-a-P-b-c is a
 *       simple closed polygon through cell centres (lattice edges meet only at their
 *       ends).  Near c its inside is one of the two open sectors between ca and cb, and
 *       each sector holds a non-own neighbour d of c, because the arcs are separate on
 *       both sides.  The lattice edge cd meets the polygon only at c, so d lies inside
 *       the polygon for one of the two sectors.  The polygon's vertices are board cells
 *       and the board is every lattice point of a convex hexagon, so d is a board cell:
 *       the loop surrounds a cell.  (hav_check's from-scratch flood fill is the
 *       independent check of this, at every ply of the tests.)
 *   (b) every enclosed cell is own: then some own cell off the rim has six own
 *       neighbours, and that cell is c or a neighbour n of c.  A neighbour n in direction
 *       k needs c's neighbours k-1, k, k+1 own (n and the two cells next to both), so
 *       only those n are looked at.
 * A move costs one find per arc (at most three) and no board scan.  hav_stone is the one
 * implementation of a move's unions and win tests; play and the playout both call it, so
 * the playout leaves exactly the state that playing its moves one by one leaves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/zobrist.h"
#include "cellgroups.h"

#define HAV_MAX_BASE 10
#define HAV_MAX_DIAM (2 * HAV_MAX_BASE - 1)
#define HAV_MAX_CELLS (3 * HAV_MAX_BASE * (HAV_MAX_BASE - 1) + 1)
#define HAV_WORDS ((HAV_MAX_CELLS + 63) / 64)
#define HAV_NONE 2 /* no winner (game on, or a draw) */
#define HAV_CORNERS 0x3fu
#define HAV_SIDE_SHIFT 6
#define HAV_OFF HAV_MAX_CELLS     /* nbs[] entry off the board */

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
    uint16_t nbs[HAV_MAX_CELLS][6];            /* the same, HAV_OFF off the board */
    uint16_t mark_of[HAV_MAX_CELLS];           /* the cell's own corner or side bit */
    uint8_t rim[HAV_MAX_CELLS];                /* 1: some neighbour is off the board */
    uint64_t board[HAV_WORDS];
    /* Zobrist keys: [role * HAV_MAX_CELLS + cell]; the last one is xored in when role 1
     * is to move. */
    miai_zkey zobrist[2 * HAV_MAX_CELLS + 1];
} hav_data;

static uint16_t *hav_marks(const hav_data *d, void *s) {
    return (uint16_t *)((uint8_t *)s + d->marks_off);
}
static const uint16_t *hav_cmarks(const hav_data *d, const void *s) {
    return (const uint16_t *)((const uint8_t *)s + d->marks_off);
}

static inline bool hav_own(const hav_state *s, uint32_t r, int32_t q) {
    return q >= 0 && cg_has(s->occ[r], (uint32_t)q);
}

/* Has v at least k set bits?  (Clears the lowest set bit k-1 times; no popcount call,
 * which without -mpopcnt is a library call on the hot path.) */
static inline bool hav_bits_at_least(uint32_t v, int k) {
    for (int i = 1; i < k; i++) v &= v - 1;
    return v != 0;
}

static void hav_init(const miai_game *g, void *state) {
    const hav_data *d = g->data;
    hav_state *s = state;
    cg_forest_init(cg_parent(s, sizeof(hav_state)), d->cells);
    s->winner = HAV_NONE;
    s->head.to_move = 0;
}

static uint32_t hav_legal(const miai_game *g, const void *state, uint32_t role,
                          miai_move *out) {
    const hav_data *d = g->data;
    const hav_state *s = state;
    if ((int32_t)role != s->head.to_move) return 0;
    return cg_empties(d->board, s->occ[0], s->occ[1], HAV_WORDS, out);
}

/* Case (b): an own cell off the rim whose six neighbours are all own. */
static bool hav_surrounded(const hav_data *d, const hav_state *s, uint32_t r, uint32_t v) {
    if (d->rim[v] || !cg_has(s->occ[r], v)) return false;
    for (int k = 0; k < 6; k++)
        if (!hav_own(s, r, d->nb[v][k])) return false;
    return true;
}

/* Case (b) and the colour helpers below read a cell's owner through cg_is: from the
 * playout's colour[] when not NULL, else from the mover's bitboard (HAV_OFF never own). */
CG_INLINE bool hav_is(const uint8_t *colour, uint8_t me, const uint64_t *occ, uint32_t q) {
    return cg_is(colour, me, occ, q, HAV_OFF);
}

/* The directions k in which c has an own neighbour. */
CG_INLINE uint32_t hav_own_dirs(const hav_data *d, const uint8_t *colour, uint8_t me,
                                const uint64_t *occ, uint32_t c) {
    return cg_own_dirs(d->nbs[c], colour, me, occ, HAV_OFF);
}

/* Case (b): does c (own directions `own`, before c was placed) or a neighbour of c now
 * have six own neighbours?  The neighbour n in direction k touches c, c's neighbours
 * k-1 and k+1, and n's own neighbours in directions k-1, k, k+1. */
static inline bool hav_blob(const hav_data *d, const uint8_t *colour, uint8_t me,
                            const uint64_t *occ, uint32_t c, uint32_t own) {
    if (own == CG_DIRS) return true; /* c has six own (so on-board) neighbours */
    uint32_t tri = own & cg_rot_prev(own) & cg_rot_next(own);
    while (tri) {
        uint32_t k = (uint32_t)__builtin_ctz(tri);
        tri &= tri - 1;
        const uint16_t *nn = d->nbs[d->nbs[c][k]];
        if (hav_is(colour, me, occ, nn[(k + 5) % 6]) && hav_is(colour, me, occ, nn[k]) &&
            hav_is(colour, me, occ, nn[(k + 1) % 6]))
            return true;
    }
    return false;
}

/* Join the new stone c to its own neighbours (directions `own`, taken before c was
 * placed): one find per arc of own neighbours, since the cells of an arc touch each
 * other.  c hangs under the first arc's root and every other arc's root under that one.
 * Returns the kinds the move makes among bridge, fork and case (a) rings. */
static inline uint8_t hav_join(const hav_data *d, uint16_t *parent, uint16_t *marks,
                               uint32_t c, uint32_t own) {
    uint32_t starts = cg_arc_starts(own);
    uint32_t root = c;
    uint16_t m = d->mark_of[c];
    uint8_t kind = 0;
    while (starts) {
        uint32_t k = (uint32_t)__builtin_ctz(starts);
        starts &= starts - 1;
        uint32_t qr = cg_find(parent, d->nbs[c][k], d->cells);
        if (qr == root) { /* this arc's group is an earlier arc's: case (a) */
            kind = HAV_RING;
            continue;
        }
        m |= marks[qr];
        cg_hang(parent, &root, c, qr);
    }
    marks[root] = m;
    if (hav_bits_at_least(m & HAV_CORNERS, 2)) kind |= HAV_BRIDGE;
    if (hav_bits_at_least((uint32_t)m >> HAV_SIDE_SHIFT, 3)) kind |= HAV_FORK;
    return kind;
}

/* Stone of role r on empty cell c, whose own neighbours lie in directions `own`
 * (hav_own_dirs before the stone): its bit, c's joins in the forest, and the kinds of
 * win it makes.  colour[] (see hav_is) is the playout's copy of the board, c already
 * set in it (cg_playout_moves); play passes NULL and the state's bitboards are read
 * instead.  Keys, ply and side to move are the caller's (hav_finish), so the playout
 * keeps them in registers. */
CG_INLINE uint8_t hav_stone(const hav_data *d, hav_state *s, uint8_t *colour, uint32_t r,
                             uint32_t c, uint32_t own) {
    uint8_t me = (uint8_t)(r + 1);
    cg_set(s->occ[r], c);
    if (!own) { /* a lone stone: its own group, no win */
        hav_marks(d, s)[c] = d->mark_of[c];
        return 0;
    }
    uint8_t kind = hav_join(d, cg_parent(s, sizeof(hav_state)), hav_marks(d, s), c, own);
    if (!(kind & HAV_RING) && hav_blob(d, colour, me, s->occ[r], c, own)) kind |= HAV_RING;
    return kind;
}

/* After role r's move (ply already counted) made win kinds `kind`: winner, side to
 * move.  Returns true if the game is over. */
static inline bool hav_finish(const hav_data *d, hav_state *s, uint32_t r, uint8_t kind) {
    s->win_kind = kind;
    if (kind) {
        s->winner = (uint8_t)r;
        s->head.to_move = MIAI_NOBODY;
        return true;
    }
    if (s->head.ply == d->cells) {
        s->head.to_move = MIAI_NOBODY;
        return true;
    }
    s->head.to_move = (int32_t)(1 - r);
    return false;
}

static void hav_play(const miai_game *g, void *state, const miai_move *moves) {
    const hav_data *d = g->data;
    hav_state *s = state;
    uint32_t r;
    miai_move m;
    if (!cg_play_move(&s->head, moves, d->cells, &r, &m)) return;
    uint8_t kind = hav_stone(d, s, NULL, r, m, hav_own_dirs(d, NULL, 0, s->occ[r], m));
    cg_count_move(&s->head, d->zobrist, HAV_MAX_CELLS, r, m);
    hav_finish(d, s, r, kind);
}

/* hav_stone as the shared playout calls it (cg_stone_fn). */
CG_INLINE uint32_t hav_playout_stone(const void *d, void *s, uint8_t *colour, uint32_t r,
                                     uint32_t c, uint32_t own) {
    return hav_stone(d, s, colour, r, c, own);
}

static inline cg_board hav_board(const hav_data *d) {
    return (cg_board){
        .nbs = d->nbs, .off = HAV_OFF, .keys = d->zobrist, .stride = HAV_MAX_CELLS};
}

/* Uniformly random moves, like the generic playout, by the connection games' shared
 * loop (cg_playout_moves): each ply draws one of the empty cells uniformly from an array
 * of them (swap-remove instead of rebuilding the move list).  Neighbours are read from a
 * byte-per-cell copy of the board, the stones go through hav_stone like play's, and
 * keys, ply and side to move are written back at the end, so the final state is the one
 * the trace's moves give when played one by one, trace or no trace. */
static uint32_t hav_playout(const miai_game *g, void *state, miai_rng *rng,
                            miai_move *trace, uint32_t trace_cap, uint32_t *trace_len) {
    const hav_data *d = g->data;
    hav_state *s = state;
    miai_move empty[HAV_MAX_CELLS];
    uint8_t colour[HAV_MAX_CELLS + 1];
    if (trace_len) *trace_len = 0;
    uint32_t r, plies = 0;
    uint32_t n_empty = cg_playout_begin(&s->head, g->facts.max_plies, d->board, s->occ[0],
                                        s->occ[1], HAV_WORDS, empty, colour, sizeof colour, &r);
    if (!n_empty) return 0;
    uint32_t kind = cg_playout_moves(d, s, hav_playout_stone, hav_board(d), g->facts.max_plies,
                                     rng, empty, n_empty, colour, &r, trace, trace_cap,
                                     trace_len, &plies);
    hav_finish(d, s, r, (uint8_t)kind);
    return plies;
}

static void hav_rewards(const miai_game *g, const void *state, double *out) {
    (void)g;
    cg_rewards(((const hav_state *)state)->winner, out);
}

static void hav_key_full(const miai_game *g, const void *state, uint64_t *k1, uint64_t *k2) {
    const hav_data *d = g->data;
    const hav_state *s = state;
    cg_key_full(s->occ[0], s->occ[1], d->cells, d->zobrist, HAV_MAX_CELLS, k1, k2);
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
    uint32_t x, y;
    if (!cg_parse_cell(t, d->diam, d->diam, &x, &y)) return MIAI_EINVAL;
    int16_t id = d->id_at[y][x];
    if (id < 0) return MIAI_EINVAL;
    *out = (miai_move)id;
    return MIAI_OK;
}

static void hav_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    const hav_data *d = g->data;
    const hav_state *s = state;
    int b = (int)d->base, m = b - 1;
    size_t at = 0;
    /* Cell (x, y) is printed at text column 2x - y + m + 3; the row number takes the
     * three columns before the row's first cell. */
    cg_put(buf, cap, &at, "%*s", m + 3, "");
    for (int x = 0; x < b; x++)
        cg_put(buf, cap, &at, "%c%s", (char)('a' + x), x + 1 < b ? " " : "\n");
    for (int y = 0; y < (int)d->diam; y++) {
        int x0 = y < b ? 0 : y - m, x1 = y < b ? y + m : (int)d->diam - 1;
        int first_col = 2 * x0 - y + m;
        cg_put(buf, cap, &at, "%*s%2d ", first_col, "", y + 1);
        for (int x = x0; x <= x1; x++) {
            uint32_t i = (uint32_t)d->id_at[y][x];
            char ch = cg_has(s->occ[0], i) ? 'X' : cg_has(s->occ[1], i) ? 'O' : '.';
            cg_put(buf, cap, &at, "%c%s", ch, x < x1 ? " " : "");
        }
        if (y < m) cg_put(buf, cap, &at, " %c", (char)('a' + b + y));
        cg_put(buf, cap, &at, "\n");
    }
    if (s->winner != HAV_NONE) {
        cg_put(buf, cap, &at, "%c wins by", s->winner == 0 ? 'X' : 'O');
        if (s->win_kind & HAV_RING) cg_put(buf, cap, &at, " ring");
        if (s->win_kind & HAV_BRIDGE) cg_put(buf, cap, &at, " bridge");
        if (s->win_kind & HAV_FORK) cg_put(buf, cap, &at, " fork");
        cg_put(buf, cap, &at, "\n");
    } else if (s->head.to_move == MIAI_NOBODY) {
        cg_put(buf, cap, &at, "draw: the board is full\n");
    } else {
        cg_put(buf, cap, &at, "%c to move\n", s->head.to_move == 0 ? 'X' : 'O');
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
        if (!cg_has(s->occ[r], i) || cg_has(seen, i)) continue;
        uint32_t top = 0;
        uint16_t m = 0;
        stack[top++] = (uint16_t)i;
        cg_set(seen, i);
        while (top) {
            uint32_t x = stack[--top];
            m |= d->mark_of[x];
            for (int k = 0; k < 6; k++) {
                int32_t q = d->nb[x][k];
                if (!hav_own(s, r, q) || cg_has(seen, (uint32_t)q)) continue;
                cg_set(seen, (uint32_t)q);
                stack[top++] = (uint16_t)q;
            }
        }
        if (__builtin_popcount(m & HAV_CORNERS) >= 2) kind |= HAV_BRIDGE;
        if (__builtin_popcount(m >> HAV_SIDE_SHIFT) >= 3) kind |= HAV_FORK;
    }
    uint64_t out[HAV_WORDS] = {0};
    uint32_t top = 0;
    for (uint32_t i = 0; i < d->cells; i++)
        if (d->rim[i] && !cg_has(s->occ[r], i)) {
            cg_set(out, i);
            stack[top++] = (uint16_t)i;
        }
    while (top) {
        uint32_t x = stack[--top];
        for (int k = 0; k < 6; k++) {
            int32_t q = d->nb[x][k];
            if (q < 0 || hav_own(s, r, q) || cg_has(out, (uint32_t)q)) continue;
            cg_set(out, (uint32_t)q);
            stack[top++] = (uint16_t)q;
        }
    }
    for (uint32_t i = 0; i < d->cells; i++) {
        if (!cg_has(s->occ[r], i) && !cg_has(out, i)) kind |= HAV_RING;
        if (hav_surrounded(d, s, r, i)) kind |= HAV_RING;
    }
    return kind;
}

/* Recompute groups, corner/side marks, wins, winner, side to move and ply. */
static int hav_check(const miai_game *g, const void *state) {
    const hav_data *d = g->data;
    const hav_state *s = state;
    const uint16_t *parent = cg_cparent(s, sizeof(hav_state));
    const uint16_t *marks = hav_cmarks(d, s);
    if (!cg_check_stones(s->occ[0], s->occ[1], d->board, HAV_WORDS, s->head.ply))
        return MIAI_ECORRUPT;
    uint16_t root[HAV_MAX_CELLS], comp[HAV_MAX_CELLS], stack[HAV_MAX_CELLS];
    if (!cg_check_roots(parent, s->occ[0], s->occ[1], d->cells, root)) return MIAI_ECORRUPT;
    if (!cg_check_groups(d->nb, s->occ[0], s->occ[1], d->cells, root, comp, stack))
        return MIAI_ECORRUPT;
    /* The corners and sides each group touches, at its lowest cell, against its root's. */
    uint16_t m[HAV_MAX_CELLS] = {0};
    for (uint32_t i = 0; i < d->cells; i++)
        if (comp[i] != UINT16_MAX) m[comp[i]] |= d->mark_of[i];
    for (uint32_t i = 0; i < d->cells; i++)
        if (comp[i] == i && marks[root[i]] != m[i]) return MIAI_ECORRUPT;
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
            cg_set(d->board, n);
            n++;
        }
    d->cells = n;
    static const int dx[6] = {-1, 0, 1, 1, 0, -1}, dy[6] = {-1, -1, 0, 1, 1, 0};
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 6; k++) {
            int x = d->x[i] + dx[k], y = d->y[i] + dy[k];
            bool in = x >= 0 && y >= 0 && x < diam && y < diam;
            d->nb[i][k] = in ? d->id_at[y][x] : -1;
            d->nbs[i][k] = d->nb[i][k] < 0 ? HAV_OFF : (uint16_t)d->nb[i][k];
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
