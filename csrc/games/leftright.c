/* leftright.c -- LeftRight, the one-player test game of the UCD paper.
 *
 * Rules (Saffidine, Cazenave, Mehat, "UCD: Upper Confidence bound for rooted Directed
 * acyclic graphs", section 4.1): one player (role 0)
 * takes h = `steps` steps (parameter, integer 1..100000, default 300 as in the
 * paper), each step Left or Right.  The game ends after h steps; the reward is the
 * share of Left steps, lefts / h, in [0, 1] (the paper scores the number of Left
 * steps; we divide by h so rewards lie in [0, 1]).
 *
 * A position is (step, lefts): move order does not matter, so transpositions are
 * everywhere.  The Zobrist key is Zstep[step] ^ Zleft[lefts], two tables of h + 1
 * entries filled from a seed fixed by the name and h: it depends only on the
 * position, and a move updates it with two or four XORs.
 *
 * Move ids: 0 = Left, text "L"; 1 = Right, text "R" (lower case accepted).
 * Playout: uniformly random steps, 64 at a time from one random word (the number of
 * Left steps of a block is a popcount), keys kept current; with a trace, each step's
 * move is recorded from the same bits.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../core/game.h"
#include "../core/zobrist.h"

#define LR_LEFT 0
#define LR_RIGHT 1

typedef struct {
    miai_head head;
    uint32_t step;  /* steps taken so far (== head.ply) */
    uint32_t lefts; /* Left steps among them */
} lr_state;

typedef struct {
    uint32_t steps;  /* h */
    miai_zkey *zstep; /* [h + 1] */
    miai_zkey *zleft; /* [h + 1] */
} lr_data;

static void lr_init(const miai_game *g, void *state) {
    lr_state *s = state;
    const lr_data *d = g->data;
    s->step = 0;
    s->lefts = 0;
    s->head.ply = 0;
    s->head.to_move = 0;
    s->head.key = d->zstep[0].k1 ^ d->zleft[0].k1;
    s->head.key2 = d->zstep[0].k2 ^ d->zleft[0].k2;
}

static uint32_t lr_legal(const miai_game *g, const void *state, uint32_t role,
                         miai_move *out) {
    (void)g;
    const lr_state *s = state;
    if ((int32_t)role != s->head.to_move) return 0;
    out[0] = LR_LEFT;
    out[1] = LR_RIGHT;
    return 2;
}

/* Is the state inside the tables?  Only a state corrupted by its owner is not; such
 * a state is left alone (and fails `check`) rather than read out of bounds. */
static bool lr_sane(const lr_data *d, const lr_state *s) {
    return s->step < d->steps && s->lefts <= s->step;
}

/* Advance by `n` steps of which `left` went Left; keys follow (step, lefts). */
static void lr_advance(const lr_data *d, lr_state *s, uint32_t n, uint32_t left) {
    miai_zxor(&s->head, d->zstep[s->step]);
    s->step += n;
    miai_zxor(&s->head, d->zstep[s->step]);
    if (left) {
        miai_zxor(&s->head, d->zleft[s->lefts]);
        s->lefts += left;
        miai_zxor(&s->head, d->zleft[s->lefts]);
    }
    s->head.ply = s->step;
    s->head.to_move = s->step == d->steps ? MIAI_NOBODY : 0;
}

static void lr_play(const miai_game *g, void *state, const miai_move *moves) {
    if (!lr_sane(g->data, state)) return;
    lr_advance(g->data, state, 1, moves[0] == LR_LEFT ? 1 : 0);
}

static uint32_t lr_playout(const miai_game *g, void *state, miai_rng *rng,
                           miai_move *trace, uint32_t trace_cap, uint32_t *trace_len) {
    lr_state *s = state;
    const lr_data *d = g->data;
    if (trace_len) *trace_len = 0;
    if (!lr_sane(d, s)) return 0;
    uint32_t remaining = d->steps - s->step, tl = 0, left = 0, done = 0;
    while (done < remaining) {
        uint32_t k = remaining - done < 64 ? remaining - done : 64;
        uint64_t bits = miai_rng_next(rng);
        if (k < 64) bits &= (1ULL << k) - 1;
        left += (uint32_t)__builtin_popcountll(bits);
        for (uint32_t i = 0; i < k && trace && tl < trace_cap; i++)
            trace[tl++] = (bits >> i & 1) ? LR_LEFT : LR_RIGHT;
        done += k;
    }
    if (remaining) lr_advance(d, s, remaining, left);
    if (trace_len) *trace_len = tl;
    return remaining;
}

static void lr_rewards(const miai_game *g, const void *state, double *out) {
    const lr_state *s = state;
    const lr_data *d = g->data;
    out[0] = (double)s->lefts / (double)d->steps;
}

static void lr_key_full(const miai_game *g, const void *state, uint64_t *k1,
                        uint64_t *k2) {
    const lr_state *s = state;
    const lr_data *d = g->data;
    uint32_t step = s->step <= d->steps ? s->step : d->steps;
    uint32_t lefts = s->lefts <= step ? s->lefts : step;
    *k1 = *k2 = 0;
    miai_zxor2(k1, k2, d->zstep[step]);
    miai_zxor2(k1, k2, d->zleft[lefts]);
}

static int lr_move_to_text(const miai_game *g, uint32_t role, miai_move m, char *buf,
                           size_t cap) {
    (void)g;
    (void)role;
    snprintf(buf, cap, "%s", m == LR_LEFT ? "L" : "R");
    return MIAI_OK;
}

static int lr_move_from_text(const miai_game *g, uint32_t role, const char *t,
                             miai_move *out) {
    (void)g;
    (void)role;
    if (t[0] == 0 || t[1] != 0) return MIAI_EINVAL;
    char c = (char)(t[0] | 0x20);
    if (c == 'l') *out = LR_LEFT;
    else if (c == 'r') *out = LR_RIGHT;
    else return MIAI_EINVAL;
    return MIAI_OK;
}

static void lr_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    const lr_state *s = state;
    const lr_data *d = g->data;
    snprintf(buf, cap, "step %u/%u: %u left, %u right\n", s->step, d->steps, s->lefts,
             s->step - s->lefts);
}

static int lr_check(const miai_game *g, const void *state) {
    const lr_state *s = state;
    const lr_data *d = g->data;
    if (s->step > d->steps || s->lefts > s->step) return MIAI_ECORRUPT;
    if (s->head.ply != s->step) return MIAI_ECORRUPT;
    if (s->head.to_move != (s->step == d->steps ? MIAI_NOBODY : 0)) return MIAI_ECORRUPT;
    return MIAI_OK;
}

static void lr_destroy(miai_game *g) {
    lr_data *d = g->data;
    if (d) free(d->zstep);
    free(d);
}

static const miai_game_ops lr_ops = {
    .init = lr_init,
    .legal = lr_legal,
    .play = lr_play,
    .rewards = lr_rewards,
    .key_full = lr_key_full,
    .move_to_text = lr_move_to_text,
    .move_from_text = lr_move_from_text,
    .render = lr_render,
    .playout = lr_playout,
    .check = lr_check,
    .destroy = lr_destroy,
};

static int lr_create(const double *params, miai_game *g) {
    lr_data *d = calloc(1, sizeof *d);
    if (!d) return MIAI_ENOMEM;
    g->data = d;
    g->ops = &lr_ops;
    d->steps = (uint32_t)params[0];
    size_t n = (size_t)d->steps + 1;
    d->zstep = malloc(2 * n * sizeof *d->zstep);
    if (!d->zstep) return MIAI_ENOMEM;
    d->zleft = d->zstep + n;
    zobrist_fill(d->zstep, 2 * n, zobrist_seed("leftright", params, 1));
    g->facts = (miai_game_facts){.n_roles = 1,
                                 .state_size = sizeof(lr_state),
                                 .num_moves = 2,
                                 .max_legal = 2,
                                 .max_plies = d->steps,
                                 .simultaneous = 0};
    return MIAI_OK;
}

const miai_game_entry miai_leftright_entry = {
    .info = {.name = "leftright",
             .n_params = 1,
             .param_name = {"steps"},
             .param_default = {300},
             .param_min = {1},
             .param_max = {100000},
             .param_integer = {1}},
    .create = lr_create,
};
