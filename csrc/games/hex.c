/* hex.c -- Hex on an n x n rhombus (parameter `size` = n, 2..19, default 11).
 *
 * Rules, roles and numbering are OpenSpiel's `hex` (num_rows = num_cols = n, swap off,
 * which is OpenSpiel's default), so OpenSpiel serves as the rules oracle:
 *   - Role 0 (x, OpenSpiel's black) moves first and joins the top row to the bottom row;
 *     role 1 (o, white) joins the left column to the right column.
 *   - The cell in row r (0 = top) and column c (0 = left) has move id r * n + c, which is
 *     OpenSpiel's action id.
 *   - Each row is drawn half a cell to the right of the row above it (see render), so
 *     the neighbours of (r, c) are (r-1, c), (r-1, c+1), (r, c+1), (r+1, c), (r+1, c-1)
 *     and (r, c-1).  The top-left and bottom-right corners are acute (two neighbours),
 *     the top-right and bottom-left ones obtuse (three).
 *   - Move text: column letter then row number, both from 1 at the top-left corner:
 *     "a1" = id 0 (top left), "b3" = row 3 from the top, column b = id 2 * n + 1.
 *     Letters a..s, numbers 1..19; upper-case letters are accepted.
 *   - A game ends at the first connection.  There are no draws: a full board always holds
 *     a winning chain.  Rewards: winner 1, loser 0.
 *
 * State: occupancy bitboards (bit = move id, 6 words) and a union-find forest over the
 * cells, kept inside the state and sized to the board: parent ids, and at each root the
 * edges its group touches.  A move costs one find per arc of own neighbours (at most
 * three) and as many unions; nothing scans the board.  Copying a state is memcpy.
 * The playout op (hex_playout) has a fast path without a trace: it fills the board and
 * names the winner by one flood fill, and leaves only the result in the state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/zobrist.h"
#include "cellgroups.h"

#define HEX_MAX_SIZE 19
#define HEX_MAX_CELLS (HEX_MAX_SIZE * HEX_MAX_SIZE)
#define HEX_WORDS ((HEX_MAX_CELLS + 63) / 64)
#define HEX_NONE 2 /* no winner yet */
#define HEX_BOTH_EDGES 3
#define HEX_OFF HEX_MAX_CELLS /* nbs[] entry off the board */

typedef struct {
    miai_head head;
    uint64_t occ[2][HEX_WORDS]; /* stones of each role, bit = move id */
    uint8_t winner;             /* 0, 1, or HEX_NONE */
    uint8_t pad[7];
    /* followed by uint16_t parent[cells] and uint8_t edges[cells] (meaningful at roots:
     * bit 0 = the group touches the role's first edge, bit 1 = its second), then zero
     * padding up to a multiple of 8 bytes */
} hex_state;

typedef struct {
    uint32_t n, cells;
    uint32_t edges_off; /* byte offset of edges[] in the state */
    int16_t nb[HEX_MAX_CELLS][6];          /* neighbour ids, -1 off the board */
    uint16_t nbs[HEX_MAX_CELLS][6];        /* the same, HEX_OFF off the board */
    uint8_t edge_of[2][HEX_MAX_CELLS];     /* edge bits of a lone stone of each role */
    uint64_t board[HEX_WORDS];             /* the cells of this size */
    /* Zobrist keys: [role * HEX_MAX_CELLS + cell]; the last one is xored in when role 1
     * is to move. */
    miai_zkey zobrist[2 * HEX_MAX_CELLS + 1];
} hex_data;

static uint8_t *hex_edges(const hex_data *d, void *s) { return (uint8_t *)s + d->edges_off; }
static const uint8_t *hex_cedges(const hex_data *d, const void *s) {
    return (const uint8_t *)s + d->edges_off;
}

static void hex_init(const miai_game *g, void *state) {
    const hex_data *d = g->data;
    hex_state *s = state;
    cg_forest_init(cg_parent(s, sizeof(hex_state)), d->cells);
    s->winner = HEX_NONE;
    s->head.to_move = 0;
}

static uint32_t hex_legal(const miai_game *g, const void *state, uint32_t role,
                          miai_move *out) {
    const hex_data *d = g->data;
    const hex_state *s = state;
    if ((int32_t)role != s->head.to_move) return 0;
    return cg_empties(d->board, s->occ[0], s->occ[1], HEX_WORDS, out);
}

/* The directions k (bit k) in which c has an own neighbour: from colour[] (the
 * playout's byte per cell, 0 empty, 1 + role) when not NULL, else from the bitboard occ
 * of the mover (see cg_is). */
CG_INLINE uint32_t hex_own_dirs(const hex_data *d, const uint8_t *colour, uint8_t me,
                                const uint64_t *occ, uint32_t c) {
    return cg_own_dirs(d->nbs[c], colour, me, occ, HEX_OFF);
}

/* Stone of role r on empty cell c whose own neighbours lie in directions `own`: its
 * bit, and its joins in the forest.  The neighbours are in circular order, so the cells
 * of an arc of own neighbours touch each other and one find per arc suffices: c hangs
 * under the first arc's root, every other arc's root under that one.  The one
 * implementation of a move for play and the playout, so both leave the same state.
 * Returns true if the stone's group now joins the role's two edges. */
CG_INLINE bool hex_stone(const hex_data *d, hex_state *s, uint32_t r, uint32_t c,
                          uint32_t own) {
    uint16_t *parent = cg_parent(s, sizeof(hex_state));
    uint8_t *edges = hex_edges(d, s);
    s->occ[r][c >> 6] |= 1ULL << (c & 63);
    uint32_t starts = cg_arc_starts(own);
    uint32_t root = c;
    uint8_t e = d->edge_of[r][c];
    while (starts) {
        uint32_t k = (uint32_t)__builtin_ctz(starts);
        starts &= starts - 1;
        uint32_t qr = cg_find(parent, d->nbs[c][k], d->cells);
        if (qr == root) continue;
        e |= edges[qr];
        cg_hang(parent, &root, c, qr);
    }
    edges[root] = e;
    return e == HEX_BOTH_EDGES;
}

/* After role r's move (keys and ply already counted): winner and side to move. */
static inline void hex_finish(hex_state *s, uint32_t r, bool won) {
    if (won) {
        s->winner = (uint8_t)r;
        s->head.to_move = MIAI_NOBODY;
    } else {
        s->head.to_move = (int32_t)(1 - r);
    }
}

static void hex_play(const miai_game *g, void *state, const miai_move *moves) {
    const hex_data *d = g->data;
    hex_state *s = state;
    uint32_t r;
    miai_move m;
    if (!cg_play_move(&s->head, moves, d->cells, &r, &m)) return;
    bool won = hex_stone(d, s, r, m, hex_own_dirs(d, NULL, 0, s->occ[r], m));
    cg_count_move(&s->head, d->zobrist, HEX_MAX_CELLS, r, m);
    hex_finish(s, r, won);
}

/* Does role 0 (x) join the top row to the bottom row on colour[] (1 = x)?  A flood fill
 * from the top row through x's cells; visited cells are marked 3 in colour[]. */
static bool hex_x_connects(const hex_data *d, uint8_t *colour) {
    uint16_t stack[HEX_MAX_CELLS];
    uint32_t top = 0, n = d->n, last_row = d->cells - n;
    for (uint32_t c = 0; c < n; c++)
        if (colour[c] == 1) { /* the top row is not the bottom row: n >= 2 */
            colour[c] = 3;
            stack[top++] = (uint16_t)c;
        }
    while (top) {
        const uint16_t *nb = d->nbs[stack[--top]];
        for (uint32_t k = 0; k < 6; k++) {
            uint32_t q = nb[k];
            if (colour[q] != 1) continue;
            if (q >= last_row) return true;
            colour[q] = 3;
            stack[top++] = (uint16_t)q;
        }
    }
    return false;
}

/* hex_stone as the shared playout calls it (cg_stone_fn). */
CG_INLINE uint32_t hex_playout_stone(const void *d, void *s, uint8_t *colour, uint32_t r,
                                     uint32_t c, uint32_t own) {
    (void)colour;
    return hex_stone(d, s, r, c, own);
}

static inline cg_board hex_board(const hex_data *d) {
    return (cg_board){
        .nbs = d->nbs, .off = HEX_OFF, .keys = d->zobrist, .stride = HEX_MAX_CELLS};
}

/* Uniformly random moves, like the generic playout: each ply draws one of the empty
 * cells uniformly from an array of them (swap-remove instead of rebuilding the move
 * list), so a playout is a uniformly random order of the empty cells, the mover
 * alternating.
 *
 * With a trace (trace != NULL) the connection games' shared loop (cg_playout_moves)
 * plays every move through hex_stone like play's and stops at the first connection:
 * the final state is the one the trace's moves give when played one by one.
 *
 * Without a trace (the fast path) the board is filled in the same random order with no
 * group bookkeeping, and one flood fill at the end names the winner.  This is the winner
 * of the move-by-move game with that order: on a full Hex board exactly one side has a
 * winning chain (Gale, "The Game of Hex and the Brouwer Fixed-Point Theorem", 1979: no
 * draw, and an x chain top-bottom and an o chain left-right would have to cross); the
 * side W that connects first in the move-by-move game keeps that chain as the order goes
 * on filling the board, so W is the full board's unique winner.  The draws are the same
 * as with a trace, so the same seed gives the same winner on both paths (the tests check
 * this seed by seed).  The fast path leaves only the result in the state: side to move
 * MIAI_NOBODY, the winner, and the ply of the full board; stones, groups and keys are
 * not updated, so such a state is for rewards only (every caller that passes no trace,
 * miai_playouts and the search's evaluation, reads nothing else).  It returns the
 * number of cells filled. */
static uint32_t hex_playout(const miai_game *g, void *state, miai_rng *rng,
                            miai_move *trace, uint32_t trace_cap, uint32_t *trace_len) {
    const hex_data *d = g->data;
    hex_state *s = state;
    miai_move empty[HEX_MAX_CELLS];
    uint8_t colour[HEX_MAX_CELLS + 1];
    if (trace_len) *trace_len = 0;
    uint32_t r, plies = 0, ply = s->head.ply, max_plies = g->facts.max_plies;
    uint32_t n_empty = cg_playout_begin(&s->head, max_plies, d->board, s->occ[0], s->occ[1],
                                        HEX_WORDS, empty, colour, sizeof colour, &r);
    if (!n_empty) return 0;
    if (!trace) {
        miai_rng rn = *rng; /* in registers across the stores into colour[] */
        if (n_empty > max_plies - ply) n_empty = max_plies - ply; /* only if corrupted */
        for (uint32_t left = n_empty; left; left--, r ^= 1) {
            uint32_t i = miai_rng_below(&rn, left);
            colour[empty[i]] = (uint8_t)(r + 1);
            empty[i] = empty[left - 1];
        }
        *rng = rn;
        s->winner = hex_x_connects(d, colour) ? 0 : 1;
        s->head.to_move = MIAI_NOBODY;
        s->head.ply = ply + n_empty;
        return n_empty;
    }
    uint32_t won = cg_playout_moves(d, s, hex_playout_stone, hex_board(d), max_plies, rng,
                                    empty, n_empty, colour, &r, trace, trace_cap, trace_len,
                                    &plies);
    hex_finish(s, r, won);
    return plies;
}

static void hex_rewards(const miai_game *g, const void *state, double *out) {
    (void)g;
    cg_rewards(((const hex_state *)state)->winner, out);
}

static void hex_key_full(const miai_game *g, const void *state, uint64_t *k1, uint64_t *k2) {
    const hex_data *d = g->data;
    const hex_state *s = state;
    cg_key_full(s->occ[0], s->occ[1], d->cells, d->zobrist, HEX_MAX_CELLS, k1, k2);
}

static int hex_move_to_text(const miai_game *g, uint32_t role, miai_move m, char *buf,
                            size_t cap) {
    (void)role;
    const hex_data *d = g->data;
    snprintf(buf, cap, "%c%u", (char)('a' + m % d->n), (unsigned)(m / d->n + 1));
    return MIAI_OK;
}

static int hex_move_from_text(const miai_game *g, uint32_t role, const char *t,
                              miai_move *out) {
    (void)role;
    const hex_data *d = g->data;
    uint32_t c, r;
    if (!cg_parse_cell(t, d->n, d->n, &c, &r)) return MIAI_EINVAL;
    *out = (miai_move)(r * d->n + c);
    return MIAI_OK;
}

static void hex_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    const hex_data *d = g->data;
    const hex_state *s = state;
    size_t at = 0;
    cg_put(buf, cap, &at, "   ");
    for (uint32_t c = 0; c < d->n; c++) cg_put(buf, cap, &at, " %c", (char)('a' + c));
    cg_put(buf, cap, &at, "\n");
    for (uint32_t r = 0; r < d->n; r++) {
        cg_put(buf, cap, &at, "%*s%2u ", (int)r, "", (unsigned)(r + 1));
        for (uint32_t c = 0; c < d->n; c++) {
            uint32_t i = r * d->n + c;
            char ch = cg_has(s->occ[0], i) ? 'x' : cg_has(s->occ[1], i) ? 'o' : '.';
            cg_put(buf, cap, &at, " %c", ch);
        }
        cg_put(buf, cap, &at, "\n");
    }
    if (s->winner != HEX_NONE)
        cg_put(buf, cap, &at, "%c wins\n", s->winner == 0 ? 'x' : 'o');
    else
        cg_put(buf, cap, &at,
               "%c to move (x joins top and bottom, o joins left and right)\n",
               s->head.to_move == 0 ? 'x' : 'o');
}

/* Recompute the groups by flood fill and compare them with the union-find forest,
 * the root edge flags, the winner, the side to move and the ply. */
static int hex_check(const miai_game *g, const void *state) {
    const hex_data *d = g->data;
    const hex_state *s = state;
    const uint16_t *parent = cg_cparent(s, sizeof(hex_state));
    const uint8_t *edges = hex_cedges(d, s);
    if (!cg_check_stones(s->occ[0], s->occ[1], d->board, HEX_WORDS, s->head.ply))
        return MIAI_ECORRUPT;
    uint16_t root[HEX_MAX_CELLS], comp[HEX_MAX_CELLS], stack[HEX_MAX_CELLS];
    if (!cg_check_roots(parent, s->occ[0], s->occ[1], d->cells, root)) return MIAI_ECORRUPT;
    if (!cg_check_groups(d->nb, s->occ[0], s->occ[1], d->cells, root, comp, stack))
        return MIAI_ECORRUPT;
    /* The edges each group touches, at its lowest cell, against those at its root. */
    uint8_t e[HEX_MAX_CELLS] = {0};
    for (uint32_t i = 0; i < d->cells; i++) {
        int owner = cg_has(s->occ[0], i) ? 0 : cg_has(s->occ[1], i) ? 1 : -1;
        if (owner >= 0) e[comp[i]] |= d->edge_of[owner][i];
    }
    bool won[2] = {false, false};
    for (uint32_t i = 0; i < d->cells; i++) {
        int owner = cg_has(s->occ[0], i) ? 0 : cg_has(s->occ[1], i) ? 1 : -1;
        if (owner < 0 || comp[i] != i) continue;
        if (edges[root[i]] != e[i]) return MIAI_ECORRUPT;
        if (e[i] == HEX_BOTH_EDGES) won[owner] = true;
    }
    if (won[0] && won[1]) return MIAI_ECORRUPT;
    if (s->winner == HEX_NONE) {
        if (won[0] || won[1] || s->head.to_move != (int32_t)(s->head.ply & 1))
            return MIAI_ECORRUPT;
    } else {
        if (s->winner > 1 || !won[s->winner] || s->head.to_move != MIAI_NOBODY)
            return MIAI_ECORRUPT;
        if (s->head.ply == 0 || s->winner != (s->head.ply - 1) % 2) return MIAI_ECORRUPT;
    }
    return MIAI_OK;
}

static void hex_destroy(miai_game *g) { free(g->data); }

static const miai_game_ops hex_ops = {
    .init = hex_init,
    .legal = hex_legal,
    .play = hex_play,
    .rewards = hex_rewards,
    .key_full = hex_key_full,
    .move_to_text = hex_move_to_text,
    .move_from_text = hex_move_from_text,
    .render = hex_render,
    .playout = hex_playout,
    .check = hex_check,
    .destroy = hex_destroy,
};

static int hex_create(const double *params, miai_game *g) {
    uint32_t n = (uint32_t)params[0];
    if (n < 2 || n > HEX_MAX_SIZE) return MIAI_EINVAL;
    hex_data *d = calloc(1, sizeof *d);
    if (!d) return MIAI_ENOMEM;
    d->n = n;
    d->cells = n * n;
    static const int dr[6] = {-1, -1, 0, 1, 1, 0}, dc[6] = {0, 1, 1, 0, -1, -1};
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t c = 0; c < n; c++) {
            uint32_t i = r * n + c;
            d->board[i >> 6] |= 1ULL << (i & 63);
            for (int k = 0; k < 6; k++) {
                int rr = (int)r + dr[k], cc = (int)c + dc[k];
                bool on = rr >= 0 && cc >= 0 && rr < (int)n && cc < (int)n;
                d->nb[i][k] = on ? (int16_t)(rr * (int)n + cc) : -1;
                d->nbs[i][k] = on ? (uint16_t)(rr * (int)n + cc) : HEX_OFF;
            }
            d->edge_of[0][i] = (uint8_t)((r == 0 ? 1 : 0) | (r == n - 1 ? 2 : 0));
            d->edge_of[1][i] = (uint8_t)((c == 0 ? 1 : 0) | (c == n - 1 ? 2 : 0));
        }
    size_t tail = (size_t)d->cells * (sizeof(uint16_t) + sizeof(uint8_t));
    d->edges_off = (uint32_t)(sizeof(hex_state) + (size_t)d->cells * sizeof(uint16_t));
    zobrist_fill(d->zobrist, 2 * HEX_MAX_CELLS + 1, zobrist_seed("hex", params, 1));
    g->data = d;
    g->ops = &hex_ops;
    g->facts = (miai_game_facts){.n_roles = 2,
                                 .state_size = (uint32_t)(sizeof(hex_state) + (tail + 7) / 8 * 8),
                                 .num_moves = d->cells,
                                 .max_legal = d->cells,
                                 .max_plies = d->cells,
                                 .simultaneous = 0};
    return MIAI_OK;
}

const miai_game_entry miai_hex_entry = {
    .info = {.name = "hex",
             .n_params = 1,
             .param_name = {"size"},
             .param_default = {11},
             .param_min = {2},
             .param_max = {HEX_MAX_SIZE},
             .param_integer = {1}},
    .create = hex_create,
};
