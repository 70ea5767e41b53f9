/* connect4.c -- Connect Four, 7 columns x 6 rows, on 64-bit bitboards.
 *
 * Rules: role 0 ("x") moves first; a move drops a stone into a column that is not
 * full; four in a row (vertical, horizontal or diagonal) wins; a full board with no
 * line is a draw.  Rewards: win 1, loss 0, draw 0.5.  No parameters.
 *
 * Move ids: the column, 0 (left) .. 6 (right) -- OpenSpiel's connect_four actions.
 * Move text: the column letter "a".."g" (written), or the column number "1".."7"
 * (read only), case-insensitive.  There is no pass.
 *
 * Board layout (Tromp's): bit col * 7 + row, row 0 at the bottom; row 6 of every
 * column is an always-empty sentinel, so the lowest empty cell of every column is
 * ((mask + BOTTOM) & BOARD) and shifted-AND line tests never wrap between columns.
 * Only the stones of the player who just moved are tested for a line, and only
 * after their move.  The state is the head, the two stone bitboards and the winner
 * (kept so rewards are one load); column heights are never stored.  `check`
 * recomputes the winner, the mover and the ply from the stones and checks gravity.
 *
 * Zobrist: one key per (colour, cell) and one for "o to move"; incremental in play,
 * recomputed by key_full from the stones.  `render` prints the top row first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/zobrist.h"

#define C4_COLS 7
#define C4_ROWS 6
#define C4_H 7 /* bits per column: 6 rows + sentinel */
#define C4_CELLS (C4_COLS * C4_H)

/* Bit 0 of every column. */
#define C4_BOTTOM 0x0040810204081ULL
/* Every playable cell (rows 0..5 of every column). */
#define C4_BOARD (C4_BOTTOM * 0x3fULL)

typedef struct {
    miai_head head;
    uint64_t stones[2]; /* bit col * 7 + row */
    uint8_t winner;     /* 0, 1, or 2 = none / draw */
    uint8_t pad[7];
} c4_state;

typedef struct {
    miai_zkey stone[2][C4_CELLS];
    miai_zkey side; /* xored in when role 1 is to move */
} c4_data;

static inline uint64_t c4_column_mask(uint32_t col) { return 0x3fULL << (col * C4_H); }

/* Four in a row among b's stones: shifted AND per direction (1 vertical, 7
 * horizontal, 6 and 8 the diagonals). */
static inline bool c4_has_four(uint64_t b) {
    static const int dirs[4] = {1, 7, 6, 8};
    for (int i = 0; i < 4; i++) {
        uint64_t y = b & (b >> dirs[i]);
        if (y & (y >> (2 * dirs[i]))) return true;
    }
    return false;
}

/* The lowest empty cell of each non-full column. */
static inline uint64_t c4_drop_cells(uint64_t mask) { return (mask + C4_BOTTOM) & C4_BOARD; }

static void c4_init(const miai_game *g, void *state) {
    (void)g;
    c4_state *s = state;
    memset(s, 0, sizeof *s);
    s->head.to_move = 0;
    s->winner = 2;
}

static uint32_t c4_legal(const miai_game *g, const void *state, uint32_t role,
                         miai_move *out) {
    (void)g;
    const c4_state *s = state;
    if ((int32_t)role != s->head.to_move) return 0;
    uint64_t drops = c4_drop_cells(s->stones[0] | s->stones[1]);
    uint32_t n = 0;
    for (uint32_t c = 0; c < C4_COLS; c++)
        if (drops & c4_column_mask(c)) out[n++] = c;
    return n;
}

/* Drop a stone of role r at `cell` (a single bit); update keys and head. */
static inline void c4_apply(const c4_data *d, c4_state *s, int r, uint64_t cell) {
    s->stones[r] |= cell;
    miai_zxor(&s->head, d->stone[r][__builtin_ctzll(cell)]);
    miai_zxor(&s->head, d->side);
    s->head.ply++;
    if (c4_has_four(s->stones[r])) {
        s->winner = (uint8_t)r;
        s->head.to_move = MIAI_NOBODY;
    } else if (((s->stones[0] | s->stones[1]) & C4_BOARD) == C4_BOARD) {
        s->head.to_move = MIAI_NOBODY;
    } else {
        s->head.to_move = 1 - r;
    }
}

static void c4_play(const miai_game *g, void *state, const miai_move *moves) {
    c4_state *s = state;
    int r = s->head.to_move;
    uint64_t cell = c4_drop_cells(s->stones[0] | s->stones[1]) & c4_column_mask(moves[r]);
    c4_apply(g->data, s, r, cell);
}

/* Uniformly random play to the end, without the per-move legality scan. */
static uint32_t c4_playout(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                           uint32_t trace_cap, uint32_t *trace_len) {
    const c4_data *d = g->data;
    c4_state *s = state;
    uint32_t plies = 0, tl = 0;
    /* (uint32_t)to_move < 2: a state its owner corrupted stops here rather than
     * indexing out of bounds. */
    while ((uint32_t)s->head.to_move < 2 && s->head.ply < g->facts.max_plies) {
        /* Listing the cells first keeps the branches predictable (a loop that
         * stops at a random bit does not).  One drop cell per column, unless the
         * state was corrupted: room for every cell, and none ends the playout. */
        uint64_t drops = c4_drop_cells(s->stones[0] | s->stones[1]);
        uint32_t n = 0, bits[C4_COLS * C4_ROWS];
        for (; drops; drops &= drops - 1) bits[n++] = (uint32_t)__builtin_ctzll(drops);
        if (n == 0) break;
        uint32_t bit = bits[miai_rng_below(rng, n)];
        if (trace && tl < trace_cap) trace[tl++] = bit / C4_H;
        c4_apply(d, s, s->head.to_move, 1ULL << bit);
        plies++;
    }
    if (trace_len) *trace_len = tl;
    return plies;
}

static void c4_rewards(const miai_game *g, const void *state, double *out) {
    (void)g;
    const c4_state *s = state;
    out[0] = s->winner == 0 ? 1.0 : s->winner == 1 ? 0.0 : 0.5;
    out[1] = 1.0 - out[0];
}

static void c4_key_full(const miai_game *g, const void *state, uint64_t *k1, uint64_t *k2) {
    const c4_state *s = state;
    const c4_data *d = g->data;
    *k1 = *k2 = 0;
    for (int r = 0; r < 2; r++) /* & C4_BOARD: bits off the board have no key */
        for (uint64_t b = s->stones[r] & C4_BOARD; b; b &= b - 1)
            miai_zxor2(k1, k2, d->stone[r][__builtin_ctzll(b)]);
    if (__builtin_popcountll(s->stones[0] | s->stones[1]) & 1) miai_zxor2(k1, k2, d->side);
}

static int c4_move_to_text(const miai_game *g, uint32_t role, miai_move m, char *buf,
                           size_t cap) {
    (void)g;
    (void)role;
    snprintf(buf, cap, "%c", 'a' + (int)m);
    return MIAI_OK;
}

static int c4_move_from_text(const miai_game *g, uint32_t role, const char *t,
                             miai_move *out) {
    (void)g;
    (void)role;
    if (t[0] == 0 || t[1] != 0) return MIAI_EINVAL;
    char c = (char)(t[0] | 0x20);
    if (c >= 'a' && c < 'a' + C4_COLS) *out = (miai_move)(c - 'a');
    else if (t[0] >= '1' && t[0] < '1' + C4_COLS) *out = (miai_move)(t[0] - '1');
    else return MIAI_EINVAL;
    return MIAI_OK;
}

static void c4_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    (void)g;
    const c4_state *s = state;
    size_t at = 0;
    for (int row = C4_ROWS - 1; row >= 0 && at < cap; row--) {
        at += (size_t)snprintf(buf + at, cap - at, "%d ", row + 1);
        for (int col = 0; col < C4_COLS && at < cap; col++) {
            int c = col * C4_H + row;
            char ch = (s->stones[0] >> c & 1) ? 'x' : (s->stones[1] >> c & 1) ? 'o' : '.';
            at += (size_t)snprintf(buf + at, cap - at, "%c", ch);
        }
        if (at < cap) at += (size_t)snprintf(buf + at, cap - at, "\n");
    }
    if (at < cap) snprintf(buf + at, cap - at, "  abcdefg\n");
}

static int c4_check(const miai_game *g, const void *state) {
    (void)g;
    const c4_state *s = state;
    uint64_t a = s->stones[0], b = s->stones[1], mask = a | b;
    if (a & b) return MIAI_ECORRUPT;
    if (mask & ~C4_BOARD) return MIAI_ECORRUPT;
    /* Gravity: every stone above the bottom row stands on another stone. */
    if (mask & ~C4_BOTTOM & ~(mask << 1)) return MIAI_ECORRUPT;
    int n0 = __builtin_popcountll(a), n1 = __builtin_popcountll(b);
    if (n0 - n1 != 0 && n0 - n1 != 1) return MIAI_ECORRUPT;
    if ((int)s->head.ply != n0 + n1) return MIAI_ECORRUPT;
    bool w0 = c4_has_four(a), w1 = c4_has_four(b);
    int winner = w0 ? 0 : w1 ? 1 : 2;
    if (w0 && w1) return MIAI_ECORRUPT;
    if (s->winner != winner) return MIAI_ECORRUPT;
    /* The winner moved last. */
    if (winner != 2 && winner != (n0 + n1 + 1) % 2) return MIAI_ECORRUPT;
    int32_t tm = (winner != 2 || mask == C4_BOARD) ? MIAI_NOBODY : (n0 + n1) % 2;
    if (s->head.to_move != tm) return MIAI_ECORRUPT;
    for (size_t i = 0; i < sizeof s->pad; i++)
        if (s->pad[i]) return MIAI_ECORRUPT;
    return MIAI_OK;
}

static void c4_destroy(miai_game *g) { free(g->data); }

static const miai_game_ops c4_ops = {
    .init = c4_init,
    .legal = c4_legal,
    .play = c4_play,
    .rewards = c4_rewards,
    .key_full = c4_key_full,
    .move_to_text = c4_move_to_text,
    .move_from_text = c4_move_from_text,
    .render = c4_render,
    .playout = c4_playout,
    .check = c4_check,
    .destroy = c4_destroy,
};

static int c4_create(const double *params, miai_game *g) {
    c4_data *d = calloc(1, sizeof *d);
    if (!d) return MIAI_ENOMEM;
    zobrist_fill(&d->stone[0][0], 2 * C4_CELLS + 1, zobrist_seed("connect4", params, 0));
    g->data = d;
    g->ops = &c4_ops;
    g->facts = (miai_game_facts){.n_roles = 2,
                                 .state_size = sizeof(c4_state),
                                 .num_moves = C4_COLS,
                                 .max_legal = C4_COLS,
                                 .max_plies = C4_COLS * C4_ROWS,
                                 .simultaneous = 0};
    return MIAI_OK;
}

const miai_game_entry miai_connect4_entry = {
    .info = {.name = "connect4", .n_params = 0},
    .create = c4_create,
};
