/* crossing.c -- the crossing games on 8x8 bitboards: Breakthrough and Knightthrough,
 * one implementation, two move sets.
 *
 * Both games: each side starts with 16 pieces on its two home rows and moves only
 * forward, one piece a turn, towards the far row.  A move goes from an own piece in
 * one of the side's directions to a square on the board that holds no own piece;
 * moving onto an enemy piece captures it.  A piece reaching the far row wins, and so
 * does capturing the last enemy piece: reward 1 for the winner, 0 for the loser; there
 * are no draws.  A side with a piece always has a move (its most advanced piece has a
 * free target), so the game never stalls.  What differs is a table (cr_rules): the
 * directions of each side, which of them may only move to an empty square, how rows
 * are named in text, the piece letters, and the move-text suffix.
 *
 * Breakthrough (OpenSpiel `breakthrough`, 8x8): role 0 = black moves first from the
 * two top rows (ranks 8 and 7) downwards; role 1 = white starts on ranks 2 and 1 and
 * moves up.  A pawn moves one square straight forward to an empty square, or one
 * square diagonally forward to a square that is empty or holds an enemy pawn
 * (capture); straight moves never capture.
 *
 * Knightthrough (the GGP rulesheet knightthrough.kif): role 0 = white moves first from
 * ranks 1 and 2 upwards; role 1 = black starts on ranks 7 and 8 and moves down.  A
 * piece moves like a chess knight, but only forward: two files and one rank, or one
 * file and two ranks.  The rulesheet has no rule for a side without a legal move (its
 * state would have no legal move and not be terminal); that happens only to a side
 * without pieces, so we complete the rules as Breakthrough does: capturing the last
 * enemy piece wins at once.
 *
 * Squares: bit / square index sq = row * 8 + col, col 0 = file a.  Role 0 starts on
 * rows 0 and 1 and moves to higher rows (bit + 8 per row), role 1 starts on rows 6 and
 * 7 and moves down, in both games.  The names differ: Breakthrough's row 0 is rank 8,
 * as OpenSpiel numbers rows; Knightthrough's row 0 is rank 1.
 *
 * Move ids: every (from square, direction) pair whose target lies on the board,
 * numbered by square, then direction: role 0's directions first, then role 1's, in the
 * order of the table.
 *   Breakthrough (num_moves = 308): the (row, col) steps (+1,-1) (+1,0) (+1,+1), then
 *     (-1,-1) (-1,0) (-1,+1); this is OpenSpiel's order (direction d = 0..5), and
 *     openspiel_action = 2 * ((r * 8 + c) * 6 + d) + capture, capture = 1 when the
 *     target holds an enemy pawn; the tests map through the text, which is OpenSpiel's
 *     action string without its trailing '*'.  Text e.g. "a7b6"; move_from_text also
 *     accepts OpenSpiel's "a7b6*".
 *   Knightthrough (num_moves = 2 * 168 = 336): the (file, rank) steps (-2,+1) (-1,+2)
 *     (+1,+2) (+2,+1), then (-2,-1) (-1,-2) (+1,-2) (+2,-1).  Text e.g. "b1c3" (the
 *     rulesheet's (move 2 1 3 3)).
 * The text of a move does not depend on the role.
 *
 * Playout: uniformly random legal moves, sampled straight from the direction
 * bitboards (no move list), keys kept current.  max_plies = 177: every non-winning
 * move advances a piece one row or more, a side's 16 pieces can advance 8*6 + 8*5 = 88
 * rows without winning, so a game has at most 2 * 88 + 1 plies.
 *
 * Speed: legal and playout are written once (cr_legal, cr_playout) and inlined into
 * one copy per game with that game's table as a constant, so each copy compiles to
 * the fixed shifts and masks of its move set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/zobrist.h"

#define CR_N 8
#define CR_SQUARES 64
#define CR_MAX_DIRS 4 /* directions of one side */
#define CR_MAX_MOVES 336
#define CR_MAX_PLIES 177
#define CR_NONE 0xffff
#define CR_NO_WINNER 2

#define CR_FILE_A 0x0101010101010101ULL
#define CR_FILE_B 0x0202020202020202ULL
#define CR_FILE_G 0x4040404040404040ULL
#define CR_FILE_H 0x8080808080808080ULL
#define CR_ROW_0 0x00000000000000ffULL /* role 0's home row, role 1's goal */
#define CR_ROW_7 0xff00000000000000ULL /* role 1's home row, role 0's goal */

#define CR_INLINE static inline __attribute__((always_inline))
#define CR_UNROLL _Pragma("GCC unroll 4")

/* The move set and names of one game. */
typedef struct {
    const char *name;               /* registry name; seeds the Zobrist tables */
    int dirs;                       /* directions of each side */
    int drow[2][CR_MAX_DIRS];       /* [side][k]: row step (+1 = bit + 8) */
    int dcol[2][CR_MAX_DIRS];       /* [side][k]: column step */
    bool to_empty[CR_MAX_DIRS];     /* direction k may only move to an empty square */
    uint32_t num_moves, max_legal;
    char row0_rank;                 /* rank digit of row 0: '8' or '1' */
    char piece[2];                  /* render letters of role 0 and role 1 */
    bool star_suffix;               /* move text may end in '*' (a capture mark) */
} cr_rules;

static const cr_rules cr_breakthrough = {
    .name = "breakthrough",
    .dirs = 3,
    .drow = {{1, 1, 1}, {-1, -1, -1}},
    .dcol = {{-1, 0, 1}, {-1, 0, 1}},
    .to_empty = {false, true, false},
    .num_moves = 308,
    .max_legal = 48,
    .row0_rank = '8',
    .piece = {'b', 'w'},
    .star_suffix = true,
};

static const cr_rules cr_knightthrough = {
    .name = "knightthrough",
    .dirs = 4,
    .drow = {{1, 2, 2, 1}, {-1, -2, -2, -1}},
    .dcol = {{-2, -1, 1, 2}, {-2, -1, 1, 2}},
    .to_empty = {false, false, false, false},
    .num_moves = 336,
    .max_legal = 64,
    .row0_rank = '1',
    .piece = {'W', 'B'},
    .star_suffix = false,
};

typedef struct {
    miai_head head;
    uint64_t pieces[2]; /* [0] role 0's, [1] role 1's */
    uint8_t side;       /* role whose turn it is (or would be, once terminal) */
    uint8_t winner;     /* 0, 1, or CR_NO_WINNER */
    uint8_t pad[6];
} cr_state;

typedef struct {
    miai_zkey piece[2][CR_SQUARES];
    miai_zkey side; /* xored in when role 1 is to move */
    const cr_rules *rules;
    uint8_t from[CR_MAX_MOVES];
    uint8_t to[CR_MAX_MOVES];
    uint16_t id[CR_SQUARES][2 * CR_MAX_DIRS]; /* (from, direction) -> move id, or CR_NONE */
} cr_data;

/* The squares a step of dcol columns reaches without wrapping round the edge. */
CR_INLINE uint64_t cr_no_wrap(int dcol) {
    switch (dcol) {
    case -2: return ~(CR_FILE_G | CR_FILE_H);
    case -1: return ~CR_FILE_H;
    case 1: return ~CR_FILE_A;
    case 2: return ~(CR_FILE_A | CR_FILE_B);
    default: return ~0ULL;
    }
}

/* Target bitboards of one side, one per direction k of that side, and the square
 * offset target - from of each. */
typedef struct {
    uint64_t to[CR_MAX_DIRS];
    int delta[CR_MAX_DIRS];
} cr_targets;

CR_INLINE void cr_targets_of_side(const cr_rules *R, const cr_state *s, int side,
                                  cr_targets *t) {
    uint64_t own = s->pieces[side], empty = ~(s->pieces[0] | s->pieces[1]);
    CR_UNROLL
    for (int k = 0; k < R->dirs; k++) {
        int delta = R->drow[side][k] * CR_N + R->dcol[side][k];
        uint64_t moved = delta > 0 ? own << delta : own >> -delta;
        t->to[k] = moved & cr_no_wrap(R->dcol[side][k]) & (R->to_empty[k] ? empty : ~own);
        t->delta[k] = delta;
    }
}

/* One branch per side, so that with R constant every shift and mask is one too. */
CR_INLINE void cr_targets_of(const cr_rules *R, const cr_state *s, int side,
                             cr_targets *t) {
    if (side == 0)
        cr_targets_of_side(R, s, 0, t);
    else
        cr_targets_of_side(R, s, 1, t);
}

static void cr_init(const miai_game *g, void *state) {
    cr_state *s = state;
    s->pieces[0] = 0x000000000000ffffULL; /* rows 0 and 1 */
    s->pieces[1] = 0xffff000000000000ULL; /* rows 6 and 7 */
    s->side = 0;
    s->winner = CR_NO_WINNER;
    s->head.to_move = 0;
    s->head.ply = 0;
    g->ops->key_full(g, s, &s->head.key, &s->head.key2);
}

CR_INLINE uint32_t cr_legal(const cr_rules *R, const miai_game *g, const void *state,
                            uint32_t role, miai_move *out) {
    const cr_state *s = state;
    const cr_data *d = g->data;
    if ((int32_t)role != s->head.to_move || role > 1) return 0;
    /* At most 16 pieces, hence max_legal moves; a state corrupted by its owner with
     * more gets no moves rather than an overrun buffer. */
    if (__builtin_popcountll(s->pieces[role]) > 16) return 0;
    cr_targets t;
    cr_targets_of(R, s, (int)role, &t);
    uint32_t n = 0;
    CR_UNROLL
    for (int k = 0; k < R->dirs; k++) {
        int dir = R->dirs * (int)role + k;
        for (uint64_t b = t.to[k]; b; b &= b - 1) {
            int to = __builtin_ctzll(b);
            out[n++] = d->id[to - t.delta[k]][dir];
        }
    }
    return n;
}

/* Move the side-to-move's piece from -> to, capturing, updating keys and status. */
static void cr_apply(const cr_data *d, cr_state *s, int from, int to) {
    int r = s->side & 1, o = 1 - r; /* & 1: never index out of bounds */
    uint64_t to_bit = 1ULL << to;
    s->pieces[r] ^= (1ULL << from) | to_bit;
    miai_zxor(&s->head, d->piece[r][from]);
    miai_zxor(&s->head, d->piece[r][to]);
    if (s->pieces[o] & to_bit) {
        s->pieces[o] ^= to_bit;
        miai_zxor(&s->head, d->piece[o][to]);
    }
    miai_zxor(&s->head, d->side);
    s->side = (uint8_t)o;
    s->head.ply++;
    uint64_t goal = r == 0 ? CR_ROW_7 : CR_ROW_0;
    if ((to_bit & goal) || s->pieces[o] == 0) {
        s->winner = (uint8_t)r;
        s->head.to_move = MIAI_NOBODY;
    } else {
        s->head.to_move = o;
    }
}

static void cr_play(const miai_game *g, void *state, const miai_move *moves) {
    cr_state *s = state;
    const cr_data *d = g->data;
    miai_move m = moves[s->head.to_move];
    cr_apply(d, s, d->from[m], d->to[m]);
}

CR_INLINE uint32_t cr_playout(const cr_rules *R, const miai_game *g, void *state,
                              miai_rng *rng, miai_move *trace, uint32_t trace_cap,
                              uint32_t *trace_len) {
    cr_state *s = state;
    const cr_data *d = g->data;
    uint32_t plies = 0, tl = 0;
    while (s->head.to_move != MIAI_NOBODY && s->head.ply < CR_MAX_PLIES) {
        int side = s->side & 1;
        cr_targets t;
        cr_targets_of(R, s, side, &t);
        uint32_t count[CR_MAX_DIRS], total = 0;
        CR_UNROLL
        for (int k = 0; k < R->dirs; k++) {
            count[k] = (uint32_t)__builtin_popcountll(t.to[k]);
            total += count[k];
        }
        if (total == 0) break; /* unreachable: a side with a piece has a move */
        uint32_t i = miai_rng_below(rng, total);
        int k = 0;
        while (k < R->dirs - 1 && i >= count[k]) i -= count[k++];
        uint64_t b = t.to[k];
        while (i--) b &= b - 1;
        int to = __builtin_ctzll(b), from = to - t.delta[k];
        if (trace && tl < trace_cap) trace[tl++] = d->id[from][R->dirs * side + k];
        cr_apply(d, s, from, to);
        plies++;
    }
    if (trace_len) *trace_len = tl;
    return plies;
}

static void cr_rewards(const miai_game *g, const void *state, double *out) {
    (void)g;
    const cr_state *s = state;
    out[0] = s->winner == 0 ? 1.0 : 0.0;
    out[1] = s->winner == 1 ? 1.0 : 0.0;
}

static void cr_key_full(const miai_game *g, const void *state, uint64_t *k1,
                        uint64_t *k2) {
    const cr_state *s = state;
    const cr_data *d = g->data;
    *k1 = *k2 = 0;
    for (int r = 0; r < 2; r++)
        for (uint64_t b = s->pieces[r]; b; b &= b - 1)
            miai_zxor2(k1, k2, d->piece[r][__builtin_ctzll(b)]);
    if (s->side == 1) miai_zxor2(k1, k2, d->side);
}

/* The rank digit of a row, and back: rows count down from rank 8 or up from rank 1. */
static char cr_rank_of_row(const cr_rules *R, int row) {
    return (char)(R->row0_rank == '8' ? '8' - row : '1' + row);
}

static int cr_row_of_rank(const cr_rules *R, char rank) {
    return R->row0_rank == '8' ? '8' - rank : rank - '1';
}

static void cr_square_text(const cr_rules *R, int sq, char *out) {
    out[0] = (char)('a' + sq % CR_N);
    out[1] = cr_rank_of_row(R, sq / CR_N);
}

static int cr_move_to_text(const miai_game *g, uint32_t role, miai_move m, char *buf,
                           size_t cap) {
    (void)role;
    const cr_data *d = g->data;
    char t[5] = {0};
    cr_square_text(d->rules, d->from[m], t);
    cr_square_text(d->rules, d->to[m], t + 2);
    snprintf(buf, cap, "%s", t);
    return MIAI_OK;
}

/* "a7" -> square index, or -1. */
static int cr_parse_square(const cr_rules *R, const char *t) {
    char f = (char)(t[0] | 0x20);
    if (f < 'a' || f > 'h' || t[1] < '1' || t[1] > '8') return -1;
    return cr_row_of_rank(R, t[1]) * CR_N + (f - 'a');
}

static int cr_move_from_text(const miai_game *g, uint32_t role, const char *t,
                             miai_move *out) {
    (void)role;
    const cr_data *d = g->data;
    const cr_rules *R = d->rules;
    if (!t[0] || !t[1] || !t[2] || !t[3]) return MIAI_EINVAL;
    if (t[4] != 0 && !(R->star_suffix && t[4] == '*' && t[5] == 0)) return MIAI_EINVAL;
    int from = cr_parse_square(R, t), to = cr_parse_square(R, t + 2);
    if (from < 0 || to < 0) return MIAI_EINVAL;
    int dr = to / CR_N - from / CR_N, dc = to % CR_N - from % CR_N;
    for (int dir = 0; dir < 2 * R->dirs; dir++) {
        int side = dir / R->dirs, k = dir % R->dirs;
        if (R->drow[side][k] == dr && R->dcol[side][k] == dc && d->id[from][dir] != CR_NONE) {
            *out = d->id[from][dir];
            return MIAI_OK;
        }
    }
    return MIAI_EINVAL;
}

/* Rank 8 first, files a-h left to right. */
static void cr_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    const cr_state *s = state;
    const cr_rules *R = ((const cr_data *)g->data)->rules;
    char text[CR_N * 12 + 16];
    size_t at = 0;
    for (char rank = '8'; rank >= '1'; rank--) {
        int row = cr_row_of_rank(R, rank);
        text[at++] = rank;
        text[at++] = ' ';
        for (int c = 0; c < CR_N; c++) {
            uint64_t bit = 1ULL << (row * CR_N + c);
            text[at++] = (s->pieces[0] & bit)   ? R->piece[0]
                         : (s->pieces[1] & bit) ? R->piece[1]
                                                : '.';
        }
        text[at++] = '\n';
    }
    memcpy(text + at, "  abcdefgh\n", 12);
    snprintf(buf, cap, "%s", text);
}

static int cr_check(const miai_game *g, const void *state) {
    (void)g;
    const cr_state *s = state;
    uint64_t p0 = s->pieces[0], p1 = s->pieces[1];
    if (p0 & p1) return MIAI_ECORRUPT;
    if (__builtin_popcountll(p0) > 16 || __builtin_popcountll(p1) > 16) return MIAI_ECORRUPT;
    if (s->side > 1 || s->side != (s->head.ply & 1)) return MIAI_ECORRUPT;
    if (s->head.ply > CR_MAX_PLIES) return MIAI_ECORRUPT;
    /* Who has won, recomputed from the board: only the side that just moved can. */
    int last = 1 - s->side;
    uint64_t goal = last == 0 ? CR_ROW_7 : CR_ROW_0;
    bool won = s->head.ply > 0 && ((s->pieces[last] & goal) || s->pieces[s->side] == 0);
    if ((s->pieces[s->side] & (s->side == 0 ? CR_ROW_7 : CR_ROW_0)))
        return MIAI_ECORRUPT; /* the side to move cannot already stand on its goal */
    if (won) {
        if (s->winner != last || s->head.to_move != MIAI_NOBODY) return MIAI_ECORRUPT;
    } else {
        if (s->winner != CR_NO_WINNER || s->head.to_move != s->side) return MIAI_ECORRUPT;
    }
    return MIAI_OK;
}

static void cr_destroy(miai_game *g) { free(g->data); }

/* One copy of the hot ops per game, its table a constant. */
static uint32_t bt_legal(const miai_game *g, const void *state, uint32_t role,
                         miai_move *out) {
    return cr_legal(&cr_breakthrough, g, state, role, out);
}

static uint32_t bt_playout(const miai_game *g, void *state, miai_rng *rng,
                           miai_move *trace, uint32_t trace_cap, uint32_t *trace_len) {
    return cr_playout(&cr_breakthrough, g, state, rng, trace, trace_cap, trace_len);
}

static uint32_t kt_legal(const miai_game *g, const void *state, uint32_t role,
                         miai_move *out) {
    return cr_legal(&cr_knightthrough, g, state, role, out);
}

static uint32_t kt_playout(const miai_game *g, void *state, miai_rng *rng,
                           miai_move *trace, uint32_t trace_cap, uint32_t *trace_len) {
    return cr_playout(&cr_knightthrough, g, state, rng, trace, trace_cap, trace_len);
}

#define CR_OPS(LEGAL, PLAYOUT)                                                          \
    {                                                                                   \
        .init = cr_init, .legal = LEGAL, .play = cr_play, .rewards = cr_rewards,        \
        .key_full = cr_key_full, .move_to_text = cr_move_to_text,                       \
        .move_from_text = cr_move_from_text, .render = cr_render, .playout = PLAYOUT,   \
        .check = cr_check, .destroy = cr_destroy,                                       \
    }

static const miai_game_ops bt_ops = CR_OPS(bt_legal, bt_playout);
static const miai_game_ops kt_ops = CR_OPS(kt_legal, kt_playout);

static int cr_create(const cr_rules *R, const miai_game_ops *ops, const double *params,
                     miai_game *g) {
    cr_data *d = calloc(1, sizeof *d);
    if (!d) return MIAI_ENOMEM;
    zobrist_fill(&d->piece[0][0], 2 * CR_SQUARES + 1, zobrist_seed(R->name, params, 0));
    d->rules = R;
    uint32_t n = 0;
    for (int sq = 0; sq < CR_SQUARES; sq++) {
        for (int dir = 0; dir < 2 * CR_MAX_DIRS; dir++) {
            d->id[sq][dir] = CR_NONE;
            if (dir >= 2 * R->dirs) continue;
            int side = dir / R->dirs, k = dir % R->dirs;
            int r = sq / CR_N + R->drow[side][k], c = sq % CR_N + R->dcol[side][k];
            if (r < 0 || r >= CR_N || c < 0 || c >= CR_N) continue;
            d->id[sq][dir] = (uint16_t)n;
            d->from[n] = (uint8_t)sq;
            d->to[n] = (uint8_t)(r * CR_N + c);
            n++;
        }
    }
    g->data = d;
    g->ops = ops;
    if (n != R->num_moves) return MIAI_ECORRUPT;
    g->facts = (miai_game_facts){.n_roles = 2,
                                 .state_size = sizeof(cr_state),
                                 .num_moves = R->num_moves,
                                 .max_legal = R->max_legal,
                                 .max_plies = CR_MAX_PLIES,
                                 .simultaneous = 0};
    return MIAI_OK;
}

static int bt_create(const double *params, miai_game *g) {
    return cr_create(&cr_breakthrough, &bt_ops, params, g);
}

static int kt_create(const double *params, miai_game *g) {
    return cr_create(&cr_knightthrough, &kt_ops, params, g);
}

const miai_game_entry miai_breakthrough_entry = {
    .info = {.name = "breakthrough", .n_params = 0},
    .create = bt_create,
};

const miai_game_entry miai_knightthrough_entry = {
    .info = {.name = "knightthrough", .n_params = 0},
    .create = kt_create,
};
