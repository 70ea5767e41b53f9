/* tictactoe.c -- Tic-tac-toe on 9-bit bitboards.
 *
 * Roles: 0 = x (moves first), 1 = o.  Move id = cell = row * 3 + col with row 0 the
 * top row (OpenSpiel's action numbering).  Text: column letter a-c and row number
 * 1-3 counted from the bottom, e.g. "b2" is the centre, "a3" the top-left corner.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/zobrist.h"

typedef struct {
    miai_head head;
    uint16_t stones[2];  /* bit i = cell i */
    uint8_t winner;      /* 0, 1, or 2 = draw / none */
    uint8_t pad[3];
} ttt_state;

typedef struct {
    miai_zkey stone[2][9];
    miai_zkey side;  /* xored in when o is to move */
    uint8_t line[512]; /* line[b]: the 9-bit stone set b holds three in a row */
} ttt_data;

static const uint16_t ttt_lines[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};

static bool ttt_has_line(uint16_t b) {
    for (int i = 0; i < 8; i++)
        if ((b & ttt_lines[i]) == ttt_lines[i]) return true;
    return false;
}

static void ttt_init(const miai_game *g, void *state) {
    ttt_state *s = state;
    const ttt_data *d = g->data;
    (void)d;
    s->head.to_move = 0;
    s->head.key = 0;
    s->head.key2 = 0;
    s->winner = 2;
}

static uint32_t ttt_legal(const miai_game *g, const void *state, uint32_t role,
                          miai_move *out) {
    (void)g;
    const ttt_state *s = state;
    if ((int32_t)role != s->head.to_move) return 0;
    uint32_t n = 0;
    uint16_t empty = (uint16_t)(~(s->stones[0] | s->stones[1]) & 0777);
    while (empty) {
        out[n++] = (miai_move)__builtin_ctz(empty);
        empty &= (uint16_t)(empty - 1);
    }
    return n;
}

static inline void ttt_apply(const ttt_data *d, ttt_state *s, int r, miai_move m) {
    s->stones[r] |= (uint16_t)(1u << m);
    miai_zxor(&s->head, d->stone[r][m]);
    miai_zxor(&s->head, d->side);
    s->head.ply++;
    if (d->line[s->stones[r] & 0777]) { /* & 0777: stray bits never index past the table */
        s->winner = (uint8_t)r;
        s->head.to_move = MIAI_NOBODY;
    } else if ((s->stones[0] | s->stones[1]) == 0777) {
        s->head.to_move = MIAI_NOBODY;
    } else {
        s->head.to_move = 1 - r;
    }
}

static void ttt_play(const miai_game *g, void *state, const miai_move *moves) {
    ttt_state *s = state;
    int r = s->head.to_move;
    ttt_apply(g->data, s, r, moves[r]);
}

/* Uniformly random play to the end on local copies of the bitboards and keys (a
 * random empty cell straight from the bitboard); the state is left exactly as
 * ops->play would have left it. */
static uint32_t ttt_playout(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                            uint32_t trace_cap, uint32_t *trace_len) {
    const ttt_data *d = g->data;
    ttt_state *s = state;
    uint32_t plies = 0, tl = 0, ply = s->head.ply;
    int r = s->head.to_move;
    if (r != 0 && r != 1) { /* terminal, or corrupted by the state's owner */
        if (trace_len) *trace_len = 0;
        return 0;
    }
    /* & 0777: a corrupted state's stray bits never index past the line table. */
    uint32_t st[2] = {s->stones[0] & 0777u, s->stones[1] & 0777u};
    uint64_t k1 = s->head.key, k2 = s->head.key2;
    bool over = false;
    while (ply < g->facts.max_plies) {
        /* Listing the cells first keeps the branches predictable (a loop that stops
         * at a random bit does not). */
        uint32_t empty = ~(st[0] | st[1]) & 0777u, n = 0;
        miai_move cells[9];
        for (; empty; empty &= empty - 1) cells[n++] = (miai_move)__builtin_ctz(empty);
        if (n == 0) break; /* only in a corrupted state: a full board not marked over */
        miai_move m = cells[miai_rng_below(rng, n)];
        if (trace && tl < trace_cap) trace[tl++] = m;
        st[r] |= 1u << m;
        k1 ^= d->stone[r][m].k1 ^ d->side.k1;
        k2 ^= d->stone[r][m].k2 ^ d->side.k2;
        ply++;
        plies++;
        if (d->line[st[r]]) {
            s->winner = (uint8_t)r;
            over = true;
            break;
        }
        if ((st[0] | st[1]) == 0777u) {
            over = true;
            break;
        }
        r = 1 - r;
    }
    s->stones[0] = (uint16_t)st[0];
    s->stones[1] = (uint16_t)st[1];
    s->head.ply = ply;
    s->head.to_move = over ? MIAI_NOBODY : r;
    s->head.key = k1;
    s->head.key2 = k2;
    if (trace_len) *trace_len = tl;
    return plies;
}

static void ttt_rewards(const miai_game *g, const void *state, double *out) {
    (void)g;
    const ttt_state *s = state;
    out[0] = s->winner == 0 ? 1.0 : s->winner == 1 ? 0.0 : 0.5;
    out[1] = 1.0 - out[0];
}

static void ttt_key_full(const miai_game *g, const void *state, uint64_t *k1,
                         uint64_t *k2) {
    const ttt_state *s = state;
    const ttt_data *d = g->data;
    *k1 = *k2 = 0;
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 9; c++)
            if (s->stones[r] >> c & 1) miai_zxor2(k1, k2, d->stone[r][c]);
    if (__builtin_popcount(s->stones[0] | s->stones[1]) & 1) miai_zxor2(k1, k2, d->side);
}

static int ttt_move_to_text(const miai_game *g, uint32_t role, miai_move m, char *buf,
                            size_t cap) {
    (void)g;
    (void)role;
    snprintf(buf, cap, "%c%d", 'a' + (int)(m % 3), 3 - (int)(m / 3));
    return MIAI_OK;
}

static int ttt_move_from_text(const miai_game *g, uint32_t role, const char *t,
                              miai_move *out) {
    (void)g;
    (void)role;
    char c = t[0] | 0x20;
    if (c < 'a' || c > 'c' || t[1] < '1' || t[1] > '3' || t[2] != 0) return MIAI_EINVAL;
    *out = (miai_move)((3 - (t[1] - '0')) * 3 + (c - 'a'));
    return MIAI_OK;
}

static void ttt_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    (void)g;
    const ttt_state *s = state;
    size_t at = 0;
    for (int row = 0; row < 3 && at < cap; row++) {
        at += (size_t)snprintf(buf + at, cap - at, "%d ", 3 - row);
        for (int col = 0; col < 3 && at < cap; col++) {
            int c = row * 3 + col;
            char ch = (s->stones[0] >> c & 1) ? 'X' : (s->stones[1] >> c & 1) ? 'O' : '.';
            at += (size_t)snprintf(buf + at, cap - at, "%c", ch);
        }
        if (at < cap) at += (size_t)snprintf(buf + at, cap - at, "\n");
    }
    if (at < cap) snprintf(buf + at, cap - at, "  abc\n");
}

static int ttt_check(const miai_game *g, const void *state) {
    (void)g;
    const ttt_state *s = state;
    if (s->stones[0] & s->stones[1]) return MIAI_ECORRUPT;
    int n0 = __builtin_popcount(s->stones[0]), n1 = __builtin_popcount(s->stones[1]);
    if (n0 - n1 != 0 && n0 - n1 != 1) return MIAI_ECORRUPT;
    if ((int)s->head.ply != n0 + n1) return MIAI_ECORRUPT;
    return MIAI_OK;
}

static void ttt_destroy(miai_game *g) { free(g->data); }

static const miai_game_ops ttt_ops = {
    .init = ttt_init,
    .legal = ttt_legal,
    .play = ttt_play,
    .rewards = ttt_rewards,
    .key_full = ttt_key_full,
    .move_to_text = ttt_move_to_text,
    .move_from_text = ttt_move_from_text,
    .render = ttt_render,
    .playout = ttt_playout,
    .check = ttt_check,
    .destroy = ttt_destroy,
};

static int ttt_create(const double *params, miai_game *g) {
    ttt_data *d = calloc(1, sizeof *d);
    if (!d) return MIAI_ENOMEM;
    zobrist_fill(&d->stone[0][0], 2 * 9 + 1, zobrist_seed("tictactoe", params, 0));
    for (uint32_t b = 0; b < 512; b++) d->line[b] = ttt_has_line((uint16_t)b);
    g->data = d;
    g->ops = &ttt_ops;
    g->facts = (miai_game_facts){.n_roles = 2,
                                 .state_size = sizeof(ttt_state),
                                 .num_moves = 9,
                                 .max_legal = 9,
                                 .max_plies = 9,
                                 .simultaneous = 0};
    return MIAI_OK;
}

const miai_game_entry miai_tictactoe_entry = {
    .info = {.name = "tictactoe", .n_params = 0},
    .create = ttt_create,
};
