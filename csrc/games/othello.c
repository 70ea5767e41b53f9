/* othello.c -- Othello (Reversi) on 8x8, on 64-bit bitboards.
 *
 * Rules: the standard start (d4, e5 white; d5, e4 black); role 0 = black ("x") moves
 * first, role 1 = white ("o").  A move places a disc that brackets at least one line
 * of opposing discs, which flip.  A player with no such move must pass; the pass is
 * an explicit move (id 64, text "pass") and is that player's only legal move, as in
 * OpenSpiel, so search and perft see it.  The game ends when neither player can move
 * (no trailing passes are played); more discs wins (empty squares are not counted).
 * Rewards: win 1, loss 0, draw 0.5.  No parameters.
 *
 * Move ids: square = row * 8 + col with row 0 the rank "1" at the top and col 0 the
 * file "a" -- OpenSpiel's othello actions -- and 64 = pass.  Move text: file letter
 * and rank number as in Othello notation ("d3", "f5", "pass"), case-insensitive.
 * The opening moves are d3, c4, f5, e6.
 *
 * Bitboards: bit = move id.  Moves are generated for all squares at once by shifting
 * the mover's discs through runs of opposing discs in the eight directions (masks stop
 * wrap-around between files); the flips of one move are found by walking the eight
 * rays from the square.  The state is the two disc bitboards and the colour to move
 * (it alternates every ply, passes included); `check` recomputes the rest.
 *
 * Zobrist: one key per (colour, square) and one for "white to move"; incremental in
 * play (a flip xors both colours' keys of its square), recomputed by key_full.
 * `render` prints rank 1 (the top) first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/zobrist.h"

#define OTH_PASS 64u
#define OTH_SQUARES 64
#define OTH_NOT_A 0xfefefefefefefefeULL /* every square but file a */
#define OTH_NOT_H 0x7f7f7f7f7f7f7f7fULL /* every square but file h */

typedef struct {
    miai_head head;
    uint64_t discs[2]; /* bit = square */
    uint8_t side;      /* colour whose turn it is (or would be, once the game is over) */
    uint8_t pad[7];
} oth_state;

typedef struct {
    miai_zkey disc[2][OTH_SQUARES];
    miai_zkey side;                /* xored in when white is to move */
    miai_zkey flip[OTH_SQUARES];   /* disc[0][sq] ^ disc[1][sq] */
} oth_data;

/* Shift every disc one step in direction d (0..7: E, W, S, N, SE, SW, NE, NW with S
 * towards rank 8), dropping those that leave the board. */
static inline uint64_t oth_shift(uint64_t b, int d) {
    switch (d) {
    case 0: return (b << 1) & OTH_NOT_A;
    case 1: return (b >> 1) & OTH_NOT_H;
    case 2: return b << 8;
    case 3: return b >> 8;
    case 4: return (b << 9) & OTH_NOT_A;
    case 5: return (b << 7) & OTH_NOT_H;
    case 6: return (b >> 7) & OTH_NOT_A;
    default: return (b >> 9) & OTH_NOT_H;
    }
}

/* Every square where `me` may play against `opp`. */
static inline uint64_t oth_moves(uint64_t me, uint64_t opp) {
    uint64_t empty = ~(me | opp), moves = 0;
    for (int d = 0; d < 8; d++) {
        uint64_t x = oth_shift(me, d) & opp;
        x |= oth_shift(x, d) & opp;
        x |= oth_shift(x, d) & opp;
        x |= oth_shift(x, d) & opp;
        x |= oth_shift(x, d) & opp;
        x |= oth_shift(x, d) & opp;
        moves |= oth_shift(x, d) & empty;
    }
    return moves;
}

/* The opposing discs that a disc of `me` on `sq` (a legal square) flips: per
 * direction, the run of opposing discs next to the square (at most six long), kept
 * when the square beyond its far end holds a disc of `me`.  Shifting the whole run
 * one step lands on that square and otherwise only on the run itself. */
static inline uint64_t oth_flips(uint64_t me, uint64_t opp, uint32_t sq) {
    uint64_t at = 1ULL << sq, flips = 0;
    for (int d = 0; d < 8; d++) {
        uint64_t x = oth_shift(at, d) & opp;
        x |= oth_shift(x, d) & opp;
        x |= oth_shift(x, d) & opp;
        x |= oth_shift(x, d) & opp;
        x |= oth_shift(x, d) & opp;
        x |= oth_shift(x, d) & opp;
        flips |= x & (0 - (uint64_t)((oth_shift(x, d) & me) != 0));
    }
    return flips;
}

static void oth_init(const miai_game *g, void *state) {
    const oth_data *d = g->data;
    oth_state *s = state;
    memset(s, 0, sizeof *s);
    /* d5 = 35 and e4 = 28 black; d4 = 27 and e5 = 36 white. */
    s->discs[0] = (1ULL << 35) | (1ULL << 28);
    s->discs[1] = (1ULL << 27) | (1ULL << 36);
    s->head.to_move = 0;
    for (int r = 0; r < 2; r++)
        for (uint64_t b = s->discs[r]; b; b &= b - 1)
            miai_zxor(&s->head, d->disc[r][__builtin_ctzll(b)]);
}

static uint32_t oth_legal(const miai_game *g, const void *state, uint32_t role,
                          miai_move *out) {
    (void)g;
    const oth_state *s = state;
    if ((int32_t)role != s->head.to_move || role > 1) return 0;
    /* At most 60 squares, max_legal, even in a state corrupted by its owner: a move
     * needs an empty square (at most 60 once four discs stand) and is one of the
     * eight rays of a disc of the mover (at most 24 with three discs or fewer). */
    uint64_t m = oth_moves(s->discs[role], s->discs[1 - role]);
    if (!m) {
        out[0] = OTH_PASS;
        return 1;
    }
    uint32_t n = 0;
    for (; m; m &= m - 1) out[n++] = (miai_move)__builtin_ctzll(m);
    return n;
}

/* Role r plays `move` (a square or the pass); then decide who moves next. */
static inline void oth_apply(const oth_data *d, oth_state *s, int r, miai_move move) {
    uint64_t *me = &s->discs[r], *opp = &s->discs[1 - r];
    if (move != OTH_PASS) {
        uint64_t flips = oth_flips(*me, *opp, move);
        *me |= flips | (1ULL << move);
        *opp &= ~flips;
        miai_zxor(&s->head, d->disc[r][move]);
        for (; flips; flips &= flips - 1) miai_zxor(&s->head, d->flip[__builtin_ctzll(flips)]);
    }
    miai_zxor(&s->head, d->side);
    s->side = (uint8_t)(1 - r);
    s->head.ply++;
    /* The opponent moves (or passes) unless neither side has a move. */
    if (oth_moves(*opp, *me) || oth_moves(*me, *opp)) s->head.to_move = 1 - r;
    else s->head.to_move = MIAI_NOBODY;
}

static void oth_play(const miai_game *g, void *state, const miai_move *moves) {
    oth_state *s = state;
    int r = s->head.to_move;
    oth_apply(g->data, s, r, moves[r]);
}

static void oth_key_full(const miai_game *g, const void *state, uint64_t *k1,
                         uint64_t *k2) {
    const oth_state *s = state;
    const oth_data *d = g->data;
    *k1 = *k2 = 0;
    for (int r = 0; r < 2; r++)
        for (uint64_t b = s->discs[r]; b; b &= b - 1)
            miai_zxor2(k1, k2, d->disc[r][__builtin_ctzll(b)]);
    if (s->side == 1) miai_zxor2(k1, k2, d->side);
}

/* Uniformly random play to the end on local bitboards; keys are recomputed once at
 * the end, so the state is exactly what ops->play would have left. */
static uint32_t oth_playout(const miai_game *g, void *state, miai_rng *rng,
                            miai_move *trace, uint32_t trace_cap, uint32_t *trace_len) {
    oth_state *s = state;
    uint32_t plies = 0, tl = 0, ply = s->head.ply, max = g->facts.max_plies;
    int r = s->head.to_move;
    if (r != 0 && r != 1) { /* terminal, or corrupted by the state's owner */
        if (trace_len) *trace_len = 0;
        return 0;
    }
    uint64_t me = s->discs[r], opp = s->discs[1 - r];
    uint64_t moves = oth_moves(me, opp);
    bool over = false;
    while (ply < max) {
        miai_move mv = OTH_PASS;
        if (moves) {
            /* Listing the squares first keeps the branches predictable (a loop
             * that stops at a random bit does not). */
            miai_move list[OTH_SQUARES];
            uint32_t n = 0;
            for (; moves; moves &= moves - 1) list[n++] = (miai_move)__builtin_ctzll(moves);
            mv = list[miai_rng_below(rng, n)];
            uint64_t flips = oth_flips(me, opp, mv);
            me |= flips | (1ULL << mv);
            opp &= ~flips;
        }
        if (trace && tl < trace_cap) trace[tl++] = mv;
        plies++;
        ply++;
        uint64_t t = me;
        me = opp;
        opp = t;
        r = 1 - r;
        moves = oth_moves(me, opp);
        if (!moves && !oth_moves(opp, me)) {
            over = true;
            break;
        }
    }
    s->discs[r] = me;
    s->discs[1 - r] = opp;
    s->side = (uint8_t)r;
    s->head.ply = ply;
    s->head.to_move = over ? MIAI_NOBODY : r;
    oth_key_full(g, s, &s->head.key, &s->head.key2);
    if (trace_len) *trace_len = tl;
    return plies;
}

static void oth_rewards(const miai_game *g, const void *state, double *out) {
    (void)g;
    const oth_state *s = state;
    int n0 = __builtin_popcountll(s->discs[0]), n1 = __builtin_popcountll(s->discs[1]);
    out[0] = n0 > n1 ? 1.0 : n0 < n1 ? 0.0 : 0.5;
    out[1] = 1.0 - out[0];
}

static int oth_move_to_text(const miai_game *g, uint32_t role, miai_move m, char *buf,
                            size_t cap) {
    (void)g;
    (void)role;
    if (m == OTH_PASS) snprintf(buf, cap, "pass");
    else snprintf(buf, cap, "%c%d", 'a' + (int)(m % 8), 1 + (int)(m / 8));
    return MIAI_OK;
}

static int oth_move_from_text(const miai_game *g, uint32_t role, const char *t,
                              miai_move *out) {
    (void)g;
    (void)role;
    char lower[5] = {0};
    size_t n = 0;
    while (n < 4 && t[n]) {
        lower[n] = (char)(t[n] >= 'A' && t[n] <= 'Z' ? t[n] | 0x20 : t[n]);
        n++;
    }
    if (t[n] != 0) return MIAI_EINVAL;
    if (strcmp(lower, "pass") == 0) {
        *out = OTH_PASS;
        return MIAI_OK;
    }
    if (n != 2 || lower[0] < 'a' || lower[0] > 'h' || lower[1] < '1' || lower[1] > '8')
        return MIAI_EINVAL;
    *out = (miai_move)((lower[1] - '1') * 8 + (lower[0] - 'a'));
    return MIAI_OK;
}

static void oth_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    (void)g;
    const oth_state *s = state;
    size_t at = 0;
    at += (size_t)snprintf(buf, cap, "  a b c d e f g h\n");
    for (int row = 0; row < 8 && at < cap; row++) {
        at += (size_t)snprintf(buf + at, cap - at, "%d", row + 1);
        for (int col = 0; col < 8 && at < cap; col++) {
            int sq = row * 8 + col;
            char ch = (s->discs[0] >> sq & 1) ? 'x' : (s->discs[1] >> sq & 1) ? 'o' : '-';
            at += (size_t)snprintf(buf + at, cap - at, " %c", ch);
        }
        if (at < cap) at += (size_t)snprintf(buf + at, cap - at, "\n");
    }
    if (at < cap)
        snprintf(buf + at, cap - at, "%s\n",
                 s->head.to_move == MIAI_NOBODY ? "game over"
                 : s->head.to_move == 0         ? "x (black) to move"
                                                : "o (white) to move");
}

static int oth_check(const miai_game *g, const void *state) {
    (void)g;
    const oth_state *s = state;
    uint64_t b = s->discs[0], w = s->discs[1];
    if (b & w) return MIAI_ECORRUPT;
    /* The four centre squares are never empty. */
    uint64_t centre = (1ULL << 27) | (1ULL << 28) | (1ULL << 35) | (1ULL << 36);
    if (((b | w) & centre) != centre) return MIAI_ECORRUPT;
    int discs = __builtin_popcountll(b | w);
    /* Each ply places one disc or passes; passes never come twice in a row. */
    if (s->head.ply < (uint32_t)(discs - 4) || s->head.ply > 2u * (uint32_t)(discs - 4))
        return MIAI_ECORRUPT;
    if (s->side > 1 || s->side != s->head.ply % 2) return MIAI_ECORRUPT;
    bool any = oth_moves(b, w) || oth_moves(w, b);
    int32_t tm = any ? s->side : MIAI_NOBODY;
    if (s->head.to_move != tm) return MIAI_ECORRUPT;
    for (size_t i = 0; i < sizeof s->pad; i++)
        if (s->pad[i]) return MIAI_ECORRUPT;
    return MIAI_OK;
}

static void oth_destroy(miai_game *g) { free(g->data); }

static const miai_game_ops oth_ops = {
    .init = oth_init,
    .legal = oth_legal,
    .play = oth_play,
    .rewards = oth_rewards,
    .key_full = oth_key_full,
    .move_to_text = oth_move_to_text,
    .move_from_text = oth_move_from_text,
    .render = oth_render,
    .playout = oth_playout,
    .check = oth_check,
    .destroy = oth_destroy,
};

static int oth_create(const double *params, miai_game *g) {
    oth_data *d = calloc(1, sizeof *d);
    if (!d) return MIAI_ENOMEM;
    zobrist_fill(&d->disc[0][0], 2 * OTH_SQUARES + 1, zobrist_seed("othello", params, 0));
    for (int sq = 0; sq < OTH_SQUARES; sq++)
        d->flip[sq] = (miai_zkey){d->disc[0][sq].k1 ^ d->disc[1][sq].k1,
                                  d->disc[0][sq].k2 ^ d->disc[1][sq].k2};
    g->data = d;
    g->ops = &oth_ops;
    /* At most 60 placements and, since a pass is never followed by a pass, at most
     * one pass after each of them. */
    g->facts = (miai_game_facts){.n_roles = 2,
                                 .state_size = sizeof(oth_state),
                                 .num_moves = OTH_SQUARES + 1,
                                 .max_legal = 60,
                                 .max_plies = 120,
                                 .simultaneous = 0};
    return MIAI_OK;
}

const miai_game_entry miai_othello_entry = {
    .info = {.name = "othello", .n_params = 0},
    .create = oth_create,
};
