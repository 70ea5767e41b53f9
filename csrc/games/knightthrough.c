/* knightthrough.c -- Knightthrough on 8x8, 64-bit bitboards; the GGP rulesheet's rules.
 *
 * Rules (/work/shared/ggp/games/knightthrough.kif): role 0 = white moves first from
 * ranks 1 and 2 upwards; role 1 = black starts on ranks 7 and 8 and moves down.  A
 * piece moves like a chess knight, but only forward: two files and one rank, or one
 * file and two ranks, towards the enemy side.  The target must not hold an own
 * piece; moving onto an enemy piece captures it.  A piece reaching the far rank
 * (white: rank 8, black: rank 1) wins: reward 1 for the winner, 0 for the loser.
 *
 * No legal move: the rulesheet has no rule for it (its state would have no legal move
 * and not be terminal).  It happens only to a side without pieces, because the most
 * advanced piece of a side always has a free forward target (two files sideways, one
 * rank up: at least one such square exists and holds no own piece).  We complete the
 * rules as Breakthrough does: capturing the last enemy piece wins at once.  There are
 * no draws.
 *
 * Squares: bit / square index sq = (rank - 1) * 8 + file, file 0 = a, so rank 1 is
 * bits 0..7 and white moves to higher bits.
 *
 * Move ids (num_moves = 2 * 168 = 336): every (from square, direction) pair whose
 * target lies on the board, numbered by square, then direction.  Directions 0..3 are
 * white's (file, rank) steps (-2,+1) (-1,+2) (+1,+2) (+2,+1), 4..7 black's (-2,-1)
 * (-1,-2) (+1,-2) (+2,-1).  Text: from and to squares, e.g. "b1c3" (the rulesheet's
 * (move 2 1 3 3)); the text does not depend on the role.
 *
 * Playout: uniformly random legal moves, sampled from the direction bitboards, keys
 * kept current.  max_plies = 177: every move advances a piece one or two ranks, a
 * side's 16 pieces can advance at most 8*6 + 8*5 = 88 ranks without winning.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/zobrist.h"

#define KT_N 8
#define KT_SQUARES 64
#define KT_DIRS 8
#define KT_NUM_MOVES 336
#define KT_MAX_LEGAL 64
#define KT_MAX_PLIES 177
#define KT_NONE 0xffff
#define KT_NO_WINNER 2

#define KT_FILE_A 0x0101010101010101ULL
#define KT_FILE_B 0x0202020202020202ULL
#define KT_FILE_G 0x4040404040404040ULL
#define KT_FILE_H 0x8080808080808080ULL
#define KT_RANK_1 0x00000000000000ffULL
#define KT_RANK_8 0xff00000000000000ULL

typedef struct {
    miai_head head;
    uint64_t pieces[2]; /* [0] white, [1] black */
    uint8_t side;       /* role whose turn it is (or would be, once terminal) */
    uint8_t winner;     /* 0, 1, or KT_NO_WINNER */
    uint8_t pad[6];
} kt_state;

typedef struct {
    miai_zkey piece[2][KT_SQUARES];
    miai_zkey side; /* xored in when black (role 1) is to move */
    uint8_t from[KT_NUM_MOVES];
    uint8_t to[KT_NUM_MOVES];
    uint16_t id[KT_SQUARES][KT_DIRS]; /* (from, direction) -> move id, or KT_NONE */
} kt_data;

static const int kt_df[KT_DIRS] = {-2, -1, 1, 2, -2, -1, 1, 2};
static const int kt_dr[KT_DIRS] = {1, 2, 2, 1, -1, -2, -2, -1};

/* Targets of one side in its four directions, and target - from for each. */
typedef struct {
    uint64_t to[4];
    int delta[4];
} kt_targets;

static void kt_targets_of(const kt_state *s, int side, kt_targets *t) {
    uint64_t own = s->pieces[side];
    if (side == 0) {
        t->to[0] = (own << 6) & ~(KT_FILE_G | KT_FILE_H) & ~own;
        t->to[1] = (own << 15) & ~KT_FILE_H & ~own;
        t->to[2] = (own << 17) & ~KT_FILE_A & ~own;
        t->to[3] = (own << 10) & ~(KT_FILE_A | KT_FILE_B) & ~own;
        t->delta[0] = 6, t->delta[1] = 15, t->delta[2] = 17, t->delta[3] = 10;
    } else {
        t->to[0] = (own >> 10) & ~(KT_FILE_G | KT_FILE_H) & ~own;
        t->to[1] = (own >> 17) & ~KT_FILE_H & ~own;
        t->to[2] = (own >> 15) & ~KT_FILE_A & ~own;
        t->to[3] = (own >> 6) & ~(KT_FILE_A | KT_FILE_B) & ~own;
        t->delta[0] = -10, t->delta[1] = -17, t->delta[2] = -15, t->delta[3] = -6;
    }
}

static void kt_init(const miai_game *g, void *state) {
    kt_state *s = state;
    s->pieces[0] = 0x000000000000ffffULL; /* ranks 1 and 2 */
    s->pieces[1] = 0xffff000000000000ULL; /* ranks 7 and 8 */
    s->side = 0;
    s->winner = KT_NO_WINNER;
    s->head.to_move = 0;
    s->head.ply = 0;
    g->ops->key_full(g, s, &s->head.key, &s->head.key2);
}

static uint32_t kt_legal(const miai_game *g, const void *state, uint32_t role,
                         miai_move *out) {
    const kt_state *s = state;
    const kt_data *d = g->data;
    if ((int32_t)role != s->head.to_move || role > 1) return 0;
    /* At most 16 pieces, hence max_legal moves; a state corrupted by its owner with
     * more gets no moves rather than an overrun buffer. */
    if (__builtin_popcountll(s->pieces[role]) > 16) return 0;
    kt_targets t;
    kt_targets_of(s, (int)role, &t);
    uint32_t n = 0;
    for (int k = 0; k < 4; k++) {
        int dir = 4 * (int)role + k;
        for (uint64_t b = t.to[k]; b; b &= b - 1) {
            int to = __builtin_ctzll(b);
            out[n++] = d->id[to - t.delta[k]][dir];
        }
    }
    return n;
}

static void kt_apply(const kt_data *d, kt_state *s, int from, int to) {
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
    uint64_t goal = r == 0 ? KT_RANK_8 : KT_RANK_1;
    if ((to_bit & goal) || s->pieces[o] == 0) {
        s->winner = (uint8_t)r;
        s->head.to_move = MIAI_NOBODY;
    } else {
        s->head.to_move = o;
    }
}

static void kt_play(const miai_game *g, void *state, const miai_move *moves) {
    kt_state *s = state;
    const kt_data *d = g->data;
    miai_move m = moves[s->head.to_move];
    kt_apply(d, s, d->from[m], d->to[m]);
}

static uint32_t kt_playout(const miai_game *g, void *state, miai_rng *rng,
                           miai_move *trace, uint32_t trace_cap, uint32_t *trace_len) {
    kt_state *s = state;
    const kt_data *d = g->data;
    uint32_t plies = 0, tl = 0;
    while (s->head.to_move != MIAI_NOBODY && s->head.ply < KT_MAX_PLIES) {
        int side = s->side & 1;
        kt_targets t;
        kt_targets_of(s, side, &t);
        uint32_t count[4], total = 0;
        for (int k = 0; k < 4; k++) {
            count[k] = (uint32_t)__builtin_popcountll(t.to[k]);
            total += count[k];
        }
        if (total == 0) break; /* unreachable: a side with a piece has a move */
        uint32_t i = miai_rng_below(rng, total);
        int k = 0;
        while (i >= count[k]) i -= count[k++];
        uint64_t b = t.to[k];
        while (i--) b &= b - 1;
        int to = __builtin_ctzll(b), from = to - t.delta[k];
        if (trace && tl < trace_cap) trace[tl++] = d->id[from][4 * side + k];
        kt_apply(d, s, from, to);
        plies++;
    }
    if (trace_len) *trace_len = tl;
    return plies;
}

static void kt_rewards(const miai_game *g, const void *state, double *out) {
    (void)g;
    const kt_state *s = state;
    out[0] = s->winner == 0 ? 1.0 : 0.0;
    out[1] = s->winner == 1 ? 1.0 : 0.0;
}

static void kt_key_full(const miai_game *g, const void *state, uint64_t *k1,
                        uint64_t *k2) {
    const kt_state *s = state;
    const kt_data *d = g->data;
    *k1 = *k2 = 0;
    for (int r = 0; r < 2; r++)
        for (uint64_t b = s->pieces[r]; b; b &= b - 1)
            miai_zxor2(k1, k2, d->piece[r][__builtin_ctzll(b)]);
    if (s->side == 1) miai_zxor2(k1, k2, d->side);
}

static void kt_square_text(int sq, char *out) {
    out[0] = (char)('a' + sq % KT_N);
    out[1] = (char)('1' + sq / KT_N);
}

static int kt_move_to_text(const miai_game *g, uint32_t role, miai_move m, char *buf,
                           size_t cap) {
    (void)role;
    const kt_data *d = g->data;
    char t[5] = {0};
    kt_square_text(d->from[m], t);
    kt_square_text(d->to[m], t + 2);
    snprintf(buf, cap, "%s", t);
    return MIAI_OK;
}

static int kt_parse_square(const char *t) {
    char f = (char)(t[0] | 0x20);
    if (f < 'a' || f > 'h' || t[1] < '1' || t[1] > '8') return -1;
    return (t[1] - '1') * KT_N + (f - 'a');
}

static int kt_move_from_text(const miai_game *g, uint32_t role, const char *t,
                             miai_move *out) {
    (void)role;
    const kt_data *d = g->data;
    if (!t[0] || !t[1] || !t[2] || !t[3] || t[4]) return MIAI_EINVAL;
    int from = kt_parse_square(t), to = kt_parse_square(t + 2);
    if (from < 0 || to < 0) return MIAI_EINVAL;
    int df = to % KT_N - from % KT_N, dr = to / KT_N - from / KT_N;
    for (int dir = 0; dir < KT_DIRS; dir++) {
        if (kt_df[dir] == df && kt_dr[dir] == dr && d->id[from][dir] != KT_NONE) {
            *out = d->id[from][dir];
            return MIAI_OK;
        }
    }
    return MIAI_EINVAL;
}

static void kt_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    (void)g;
    const kt_state *s = state;
    char text[KT_N * 12 + 16];
    size_t at = 0;
    for (int rank = KT_N - 1; rank >= 0; rank--) {
        text[at++] = (char)('1' + rank);
        text[at++] = ' ';
        for (int f = 0; f < KT_N; f++) {
            uint64_t bit = 1ULL << (rank * KT_N + f);
            text[at++] = (s->pieces[0] & bit) ? 'W' : (s->pieces[1] & bit) ? 'B' : '.';
        }
        text[at++] = '\n';
    }
    memcpy(text + at, "  abcdefgh\n", 12);
    snprintf(buf, cap, "%s", text);
}

static int kt_check(const miai_game *g, const void *state) {
    (void)g;
    const kt_state *s = state;
    uint64_t w = s->pieces[0], b = s->pieces[1];
    if (w & b) return MIAI_ECORRUPT;
    if (__builtin_popcountll(w) > 16 || __builtin_popcountll(b) > 16) return MIAI_ECORRUPT;
    if (s->side > 1 || s->side != (s->head.ply & 1)) return MIAI_ECORRUPT;
    if (s->head.ply > KT_MAX_PLIES) return MIAI_ECORRUPT;
    int last = 1 - s->side;
    uint64_t goal_of_last = last == 0 ? KT_RANK_8 : KT_RANK_1;
    uint64_t goal_of_side = s->side == 0 ? KT_RANK_8 : KT_RANK_1;
    if (s->pieces[s->side] & goal_of_side) return MIAI_ECORRUPT;
    bool won =
        s->head.ply > 0 && ((s->pieces[last] & goal_of_last) || s->pieces[s->side] == 0);
    if (won) {
        if (s->winner != last || s->head.to_move != MIAI_NOBODY) return MIAI_ECORRUPT;
    } else {
        if (s->winner != KT_NO_WINNER || s->head.to_move != s->side) return MIAI_ECORRUPT;
    }
    return MIAI_OK;
}

static void kt_destroy(miai_game *g) { free(g->data); }

static const miai_game_ops kt_ops = {
    .init = kt_init,
    .legal = kt_legal,
    .play = kt_play,
    .rewards = kt_rewards,
    .key_full = kt_key_full,
    .move_to_text = kt_move_to_text,
    .move_from_text = kt_move_from_text,
    .render = kt_render,
    .playout = kt_playout,
    .check = kt_check,
    .destroy = kt_destroy,
};

static int kt_create(const double *params, miai_game *g) {
    kt_data *d = calloc(1, sizeof *d);
    if (!d) return MIAI_ENOMEM;
    zobrist_fill(&d->piece[0][0], 2 * KT_SQUARES + 1,
                 zobrist_seed("knightthrough", params, 0));
    uint32_t n = 0;
    for (int sq = 0; sq < KT_SQUARES; sq++) {
        for (int dir = 0; dir < KT_DIRS; dir++) {
            int f = sq % KT_N + kt_df[dir], r = sq / KT_N + kt_dr[dir];
            d->id[sq][dir] = KT_NONE;
            if (f < 0 || f >= KT_N || r < 0 || r >= KT_N) continue;
            d->id[sq][dir] = (uint16_t)n;
            d->from[n] = (uint8_t)sq;
            d->to[n] = (uint8_t)(r * KT_N + f);
            n++;
        }
    }
    g->data = d;
    g->ops = &kt_ops;
    if (n != KT_NUM_MOVES) return MIAI_ECORRUPT;
    g->facts = (miai_game_facts){.n_roles = 2,
                                 .state_size = sizeof(kt_state),
                                 .num_moves = KT_NUM_MOVES,
                                 .max_legal = KT_MAX_LEGAL,
                                 .max_plies = KT_MAX_PLIES,
                                 .simultaneous = 0};
    return MIAI_OK;
}

const miai_game_entry miai_knightthrough_entry = {
    .info = {.name = "knightthrough", .n_params = 0},
    .create = kt_create,
};
