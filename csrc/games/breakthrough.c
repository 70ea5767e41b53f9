/* breakthrough.c -- Breakthrough on 8x8, 64-bit bitboards; OpenSpiel's rules.
 *
 * Rules (OpenSpiel `breakthrough`, 8x8): role 0 = black moves first from the two top
 * rows (ranks 8 and 7) downwards; role 1 = white starts on ranks 2 and 1 and moves up.
 * A pawn moves one square straight forward to an empty square, or one square
 * diagonally forward to a square that is empty or holds an enemy pawn (capture).
 * Straight moves never capture.  Reaching the far row (black: rank 1, white: rank 8)
 * or capturing the last enemy pawn wins: reward 1 for the winner, 0 for the loser;
 * there are no draws.  A side with at least one pawn always has a move (its most
 * advanced pawn has an empty-or-enemy diagonal target), so the game never stalls.
 *
 * Squares: bit / square index sq = r * 8 + c, with r = 0 the top row (rank 8) and
 * c = 0 file a, as OpenSpiel numbers rows.  Black moves to r + 1 (bit + 8).
 *
 * Move ids (num_moves = 308): every (from square, direction) pair whose target lies on
 * the board, numbered in OpenSpiel's order, r, then c, then direction d, where d is
 * OpenSpiel's direction index: 0..2 = black (row +1; column -1, 0, +1), 3..5 = white
 * (row -1; column -1, 0, +1).  Mapping to OpenSpiel's action numbers:
 *     openspiel_action = 2 * ((r * 8 + c) * 6 + d) + capture,
 * capture = 1 when the target holds an enemy pawn; the tests map through the text,
 * which is OpenSpiel's action string without its trailing '*'.
 * Text: from and to squares, file letter a-h and rank digit 1-8, e.g. "a7b6";
 * move_from_text also accepts OpenSpiel's "a7b6*".
 *
 * Playout: uniformly random legal moves, sampled straight from the direction
 * bitboards (no move list), keys kept current.  max_plies = 177: every non-winning
 * move advances a pawn one row, a side's 16 pawns can advance 8*6 + 8*5 = 88 rows
 * without winning, so a game has at most 2 * 88 + 1 plies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/zobrist.h"

#define BT_N 8
#define BT_SQUARES 64
#define BT_DIRS 6
#define BT_NUM_MOVES 308
#define BT_MAX_LEGAL 48
#define BT_MAX_PLIES 177
#define BT_NONE 0xffff

#define BT_FILE_A 0x0101010101010101ULL
#define BT_FILE_H 0x8080808080808080ULL
#define BT_ROW_TOP 0x00000000000000ffULL     /* r = 0, rank 8: black's start, white's goal */
#define BT_ROW_BOTTOM 0xff00000000000000ULL  /* r = 7, rank 1: white's start, black's goal */

typedef struct {
    miai_head head;
    uint64_t pawns[2];  /* [0] black, [1] white */
    uint8_t side;       /* role whose turn it is (or would be, once terminal) */
    uint8_t winner;     /* 0, 1, or BT_NO_WINNER */
    uint8_t pad[6];
} bt_state;

#define BT_NO_WINNER 2

typedef struct {
    miai_zkey pawn[2][BT_SQUARES];
    miai_zkey side;                   /* xored in when white (role 1) is to move */
    uint8_t from[BT_NUM_MOVES];
    uint8_t to[BT_NUM_MOVES];
    uint16_t id[BT_SQUARES][BT_DIRS]; /* (from, direction) -> move id, or BT_NONE */
} bt_data;

static const int bt_dr[BT_DIRS] = {1, 1, 1, -1, -1, -1};
static const int bt_dc[BT_DIRS] = {-1, 0, 1, -1, 0, 1};

/* Target bitboards of one side, one per direction of that side (0: column -1,
 * 1: straight, 2: column +1), and the square offset target - from of each. */
typedef struct {
    uint64_t to[3];
    int delta[3];
} bt_targets;

static void bt_targets_of(const bt_state *s, int side, bt_targets *t) {
    uint64_t own = s->pawns[side], empty = ~(s->pawns[0] | s->pawns[1]);
    if (side == 0) {
        t->to[0] = (own << 7) & ~BT_FILE_H & ~own;
        t->to[1] = (own << 8) & empty;
        t->to[2] = (own << 9) & ~BT_FILE_A & ~own;
        t->delta[0] = 7, t->delta[1] = 8, t->delta[2] = 9;
    } else {
        t->to[0] = (own >> 9) & ~BT_FILE_H & ~own;
        t->to[1] = (own >> 8) & empty;
        t->to[2] = (own >> 7) & ~BT_FILE_A & ~own;
        t->delta[0] = -9, t->delta[1] = -8, t->delta[2] = -7;
    }
}

static void bt_init(const miai_game *g, void *state) {
    bt_state *s = state;
    s->pawns[0] = 0x000000000000ffffULL; /* rows 0 and 1: ranks 8 and 7 */
    s->pawns[1] = 0xffff000000000000ULL; /* rows 6 and 7: ranks 2 and 1 */
    s->side = 0;
    s->winner = BT_NO_WINNER;
    s->head.to_move = 0;
    s->head.ply = 0;
    g->ops->key_full(g, s, &s->head.key, &s->head.key2);
}

static uint32_t bt_legal(const miai_game *g, const void *state, uint32_t role,
                         miai_move *out) {
    const bt_state *s = state;
    const bt_data *d = g->data;
    if ((int32_t)role != s->head.to_move || role > 1) return 0;
    /* At most 16 pieces, hence max_legal moves; a state corrupted by its owner with
     * more gets no moves rather than an overrun buffer. */
    if (__builtin_popcountll(s->pawns[role]) > 16) return 0;
    bt_targets t;
    bt_targets_of(s, (int)role, &t);
    uint32_t n = 0;
    for (int k = 0; k < 3; k++) {
        int dir = 3 * (int)role + k;
        for (uint64_t b = t.to[k]; b; b &= b - 1) {
            int to = __builtin_ctzll(b);
            out[n++] = d->id[to - t.delta[k]][dir];
        }
    }
    return n;
}

/* Move the side-to-move's pawn from -> to, capturing, updating keys and status. */
static void bt_apply(const bt_data *d, bt_state *s, int from, int to) {
    int r = s->side & 1, o = 1 - r; /* & 1: never index out of bounds */
    uint64_t to_bit = 1ULL << to;
    s->pawns[r] ^= (1ULL << from) | to_bit;
    miai_zxor(&s->head, d->pawn[r][from]);
    miai_zxor(&s->head, d->pawn[r][to]);
    if (s->pawns[o] & to_bit) {
        s->pawns[o] ^= to_bit;
        miai_zxor(&s->head, d->pawn[o][to]);
    }
    miai_zxor(&s->head, d->side);
    s->side = (uint8_t)o;
    s->head.ply++;
    uint64_t goal = r == 0 ? BT_ROW_BOTTOM : BT_ROW_TOP;
    if ((to_bit & goal) || s->pawns[o] == 0) {
        s->winner = (uint8_t)r;
        s->head.to_move = MIAI_NOBODY;
    } else {
        s->head.to_move = o;
    }
}

static void bt_play(const miai_game *g, void *state, const miai_move *moves) {
    bt_state *s = state;
    const bt_data *d = g->data;
    miai_move m = moves[s->head.to_move];
    bt_apply(d, s, d->from[m], d->to[m]);
}

static uint32_t bt_playout(const miai_game *g, void *state, miai_rng *rng,
                           miai_move *trace, uint32_t trace_cap, uint32_t *trace_len) {
    bt_state *s = state;
    const bt_data *d = g->data;
    uint32_t plies = 0, tl = 0;
    while (s->head.to_move != MIAI_NOBODY && s->head.ply < BT_MAX_PLIES) {
        int side = s->side & 1;
        bt_targets t;
        bt_targets_of(s, side, &t);
        uint32_t c0 = (uint32_t)__builtin_popcountll(t.to[0]);
        uint32_t c1 = (uint32_t)__builtin_popcountll(t.to[1]);
        uint32_t c2 = (uint32_t)__builtin_popcountll(t.to[2]);
        uint32_t total = c0 + c1 + c2;
        if (total == 0) break; /* unreachable: a side with a pawn has a move */
        uint32_t i = miai_rng_below(rng, total);
        int k = 0;
        if (i >= c0) {
            i -= c0;
            k = 1;
            if (i >= c1) i -= c1, k = 2;
        }
        uint64_t b = t.to[k];
        while (i--) b &= b - 1;
        int to = __builtin_ctzll(b), from = to - t.delta[k];
        if (trace && tl < trace_cap) trace[tl++] = d->id[from][3 * side + k];
        bt_apply(d, s, from, to);
        plies++;
    }
    if (trace_len) *trace_len = tl;
    return plies;
}

static void bt_rewards(const miai_game *g, const void *state, double *out) {
    (void)g;
    const bt_state *s = state;
    out[0] = s->winner == 0 ? 1.0 : 0.0;
    out[1] = s->winner == 1 ? 1.0 : 0.0;
}

static void bt_key_full(const miai_game *g, const void *state, uint64_t *k1,
                        uint64_t *k2) {
    const bt_state *s = state;
    const bt_data *d = g->data;
    *k1 = *k2 = 0;
    for (int r = 0; r < 2; r++)
        for (uint64_t b = s->pawns[r]; b; b &= b - 1)
            miai_zxor2(k1, k2, d->pawn[r][__builtin_ctzll(b)]);
    if (s->side == 1) miai_zxor2(k1, k2, d->side);
}

static void bt_square_text(int sq, char *out) {
    out[0] = (char)('a' + sq % BT_N);
    out[1] = (char)('8' - sq / BT_N);
}

static int bt_move_to_text(const miai_game *g, uint32_t role, miai_move m, char *buf,
                           size_t cap) {
    (void)role;
    const bt_data *d = g->data;
    char t[5] = {0};
    bt_square_text(d->from[m], t);
    bt_square_text(d->to[m], t + 2);
    snprintf(buf, cap, "%s", t);
    return MIAI_OK;
}

/* "a7" -> square index, or -1. */
static int bt_parse_square(const char *t) {
    char f = (char)(t[0] | 0x20);
    if (f < 'a' || f > 'h' || t[1] < '1' || t[1] > '8') return -1;
    return ('8' - t[1]) * BT_N + (f - 'a');
}

static int bt_move_from_text(const miai_game *g, uint32_t role, const char *t,
                             miai_move *out) {
    (void)role;
    const bt_data *d = g->data;
    if (!t[0] || !t[1] || !t[2] || !t[3]) return MIAI_EINVAL;
    if (t[4] != 0 && !(t[4] == '*' && t[5] == 0)) return MIAI_EINVAL;
    int from = bt_parse_square(t), to = bt_parse_square(t + 2);
    if (from < 0 || to < 0) return MIAI_EINVAL;
    int dr = to / BT_N - from / BT_N, dc = to % BT_N - from % BT_N;
    for (int dir = 0; dir < BT_DIRS; dir++) {
        if (bt_dr[dir] == dr && bt_dc[dir] == dc && d->id[from][dir] != BT_NONE) {
            *out = d->id[from][dir];
            return MIAI_OK;
        }
    }
    return MIAI_EINVAL;
}

static void bt_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    (void)g;
    const bt_state *s = state;
    char text[BT_N * 12 + 16];
    size_t at = 0;
    for (int r = 0; r < BT_N; r++) {
        text[at++] = (char)('8' - r);
        text[at++] = ' ';
        for (int c = 0; c < BT_N; c++) {
            uint64_t bit = 1ULL << (r * BT_N + c);
            text[at++] = (s->pawns[0] & bit) ? 'b' : (s->pawns[1] & bit) ? 'w' : '.';
        }
        text[at++] = '\n';
    }
    memcpy(text + at, "  abcdefgh\n", 12);
    snprintf(buf, cap, "%s", text);
}

static int bt_check(const miai_game *g, const void *state) {
    (void)g;
    const bt_state *s = state;
    uint64_t b = s->pawns[0], w = s->pawns[1];
    if (b & w) return MIAI_ECORRUPT;
    if (__builtin_popcountll(b) > 16 || __builtin_popcountll(w) > 16) return MIAI_ECORRUPT;
    if (s->side > 1 || s->side != (s->head.ply & 1)) return MIAI_ECORRUPT;
    if (s->head.ply > BT_MAX_PLIES) return MIAI_ECORRUPT;
    /* Who has won, recomputed from the board: only the side that just moved can. */
    int last = 1 - s->side;
    uint64_t goal = last == 0 ? BT_ROW_BOTTOM : BT_ROW_TOP;
    bool won = s->head.ply > 0 && ((s->pawns[last] & goal) || s->pawns[s->side] == 0);
    if ((s->pawns[s->side] & (s->side == 0 ? BT_ROW_BOTTOM : BT_ROW_TOP)))
        return MIAI_ECORRUPT; /* the side to move cannot already stand on its goal */
    if (won) {
        if (s->winner != last || s->head.to_move != MIAI_NOBODY) return MIAI_ECORRUPT;
    } else {
        if (s->winner != BT_NO_WINNER || s->head.to_move != s->side) return MIAI_ECORRUPT;
    }
    return MIAI_OK;
}

static void bt_destroy(miai_game *g) { free(g->data); }

static const miai_game_ops bt_ops = {
    .init = bt_init,
    .legal = bt_legal,
    .play = bt_play,
    .rewards = bt_rewards,
    .key_full = bt_key_full,
    .move_to_text = bt_move_to_text,
    .move_from_text = bt_move_from_text,
    .render = bt_render,
    .playout = bt_playout,
    .check = bt_check,
    .destroy = bt_destroy,
};

static int bt_create(const double *params, miai_game *g) {
    bt_data *d = calloc(1, sizeof *d);
    if (!d) return MIAI_ENOMEM;
    zobrist_fill(&d->pawn[0][0], 2 * BT_SQUARES + 1, zobrist_seed("breakthrough", params, 0));
    uint32_t n = 0;
    for (int sq = 0; sq < BT_SQUARES; sq++) {
        for (int dir = 0; dir < BT_DIRS; dir++) {
            int r = sq / BT_N + bt_dr[dir], c = sq % BT_N + bt_dc[dir];
            d->id[sq][dir] = BT_NONE;
            if (r < 0 || r >= BT_N || c < 0 || c >= BT_N) continue;
            d->id[sq][dir] = (uint16_t)n;
            d->from[n] = (uint8_t)sq;
            d->to[n] = (uint8_t)(r * BT_N + c);
            n++;
        }
    }
    g->data = d;
    g->ops = &bt_ops;
    if (n != BT_NUM_MOVES) return MIAI_ECORRUPT;
    g->facts = (miai_game_facts){.n_roles = 2,
                                 .state_size = sizeof(bt_state),
                                 .num_moves = BT_NUM_MOVES,
                                 .max_legal = BT_MAX_LEGAL,
                                 .max_plies = BT_MAX_PLIES,
                                 .simultaneous = 0};
    return MIAI_OK;
}

const miai_game_entry miai_breakthrough_entry = {
    .info = {.name = "breakthrough", .n_params = 0},
    .create = bt_create,
};
