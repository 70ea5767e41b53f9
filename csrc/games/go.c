/* go.c -- the game of Go through the game interface (board code in go_board.c).
 *
 * Parameters: size (integer 5..19, default 9), komi (any finite number, default 7.5:
 * GTP's komi is any float) and policy (integer 0..255, default 0: the playout policy's
 * bits 1..8, the priors' bits 16, 32, 256 and last-good-reply playouts 64, 128, go_policy.h;
 * 0 = light uniform playouts).  Roles: 0 = black (moves first), 1 = white.
 *
 * Rules: captures; suicide is illegal; positional superko (a stone may not recreate
 * any board position of the game so far, whoever was to move) in `legal` and so in
 * every validated `play` and in the search tree; pass is always legal; the game ends
 * after two consecutive passes, or at max_plies = 3 size^2 plies, where the position
 * is scored as it stands.  Area (Chinese) scoring: stones plus empty regions bordered
 * by one colour only, all stones counted alive; black wins when black's area minus
 * white's minus komi is positive, jigo (integer komi) gives 0.5 each.
 *
 * Moves: id = row * size + col for a point, row 0 the top row, col 0 the left
 * column; id size^2 is pass.  Text is GTP's vertex: a column letter A..T without I
 * and a row number 1..size counted from the bottom ("A1" is the bottom-left corner,
 * "C3" and "c3" are the same point), or "pass"; case-insensitive.
 *
 * Keys: head.key is the Zobrist key of the stones, the side to move, the simple-ko
 * point, a pending first pass and the end of the game.  Two states with the same
 * board, side, ko point and pass count but different histories have the same key and
 * are one DAG node: their futures differ only where positional superko forbids a
 * long cycle (triple ko and the like), which is rare; such a move is still safe to
 * `play` (it only repeats a position), so a shared node never corrupts a state, and
 * when such a node becomes the search root its edges illegal in the real history are
 * pruned (miai_mcts_set_root), so the engine never plays a superko-illegal move.
 *
 * Playouts (the `playout` op) with policy = 0: uniformly random among the points that are not an own
 * eye (go_is_own_eye), not suicide and not the simple-ko point -- simple ko instead
 * of superko for speed, the usual practice; the ply cap ends any cycle.  A player
 * with no such point passes; two passes end the playout.  Other policy values select
 * the heavy policy of go_policy.c (atari answers, self-atari, patterns, eye rule).
 * With bit 64 (GO_POLICY_LGR) the game offers a search playout memory (game.h): a
 * search's playouts then play last good replies first (go_play_out_lgr); playouts
 * without a search's memory ignore the bit.
 *
 * Handicap, setup stones, scores with dead stones, ownership and the board as text
 * are in go_api.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "go.h"
#include "go_policy.h"

static const char go_columns[] = "ABCDEFGHJKLMNOPQRST";

static const go_data *go_d(const miai_game *g) { return g->data; }

static void go_init(const miai_game *g, void *state) {
    go_view v = go_view_of(go_d(g), state);
    go_clear(&v);
}

static uint32_t go_legal(const miai_game *g, const void *state, uint32_t role,
                         miai_move *out) {
    const go_data *d = go_d(g);
    go_view v = go_cview_of(d, state);
    if ((int32_t)role != v.f->head.to_move) return 0;
    uint32_t n = 0, c = role + 1;
    for (uint32_t m = 0; m < d->n_moves; m++)
        if (go_is_legal_full(&v, d->point_of_move[m], c)) out[n++] = m;
    out[n++] = d->n_moves;
    return n;
}

static void go_play(const miai_game *g, void *state, const miai_move *moves) {
    const go_data *d = go_d(g);
    go_view v = go_view_of(d, state);
    miai_move m = moves[v.f->head.to_move];
    go_apply(&v, m < d->n_moves ? d->point_of_move[m] : 0);
}

static void go_rewards(const miai_game *g, const void *state, double *out) {
    double margin = go_margin(g, state, NULL);
    out[0] = margin > 0 ? 1.0 : margin < 0 ? 0.0 : 0.5;
    out[1] = 1.0 - out[0];
}

static void go_key_full(const miai_game *g, const void *state, uint64_t *k1, uint64_t *k2) {
    const go_data *d = go_d(g);
    go_view v = go_cview_of(d, state);
    go_board_keys(&v, k1, k2);
    const go_fixed *f = v.f;
    if (f->head.to_move == 1) miai_zxor2(k1, k2, d->white_to_move);
    if (f->head.to_move == MIAI_NOBODY) miai_zxor2(k1, k2, d->ended);
    if (f->ko && f->ko < d->n_points) miai_zxor2(k1, k2, d->ko[f->ko]);
    if (f->passes == 1) miai_zxor2(k1, k2, d->one_pass);
}

static int go_move_to_text(const miai_game *g, uint32_t role, miai_move m, char *buf,
                           size_t cap) {
    (void)role;
    const go_data *d = go_d(g);
    if (m == d->n_moves) snprintf(buf, cap, "pass");
    else snprintf(buf, cap, "%c%u", go_columns[m % d->size], d->size - m / d->size);
    return MIAI_OK;
}

int go_parse_vertex(const miai_game *g, const char *t, miai_move *out) {
    const go_data *d = go_d(g);
    char low[8];
    size_t len = 0;
    while (t[len] && len < sizeof low - 1) {
        low[len] = (char)(t[len] | (t[len] >= 'A' && t[len] <= 'Z' ? 0x20 : 0));
        len++;
    }
    if (t[len]) return MIAI_EINVAL;
    low[len] = 0;
    if (strcmp(low, "pass") == 0) {
        *out = d->n_moves;
        return MIAI_OK;
    }
    if (len < 2 || len > 3) return MIAI_EINVAL;
    uint32_t col = 0;
    while (col < d->size && (go_columns[col] | 0x20) != low[0]) col++;
    if (col == d->size) return MIAI_EINVAL;
    uint32_t row = 0;
    for (size_t i = 1; i < len; i++) {
        if (low[i] < '0' || low[i] > '9') return MIAI_EINVAL;
        row = row * 10 + (uint32_t)(low[i] - '0');
    }
    if (low[1] == '0' || row < 1 || row > d->size) return MIAI_EINVAL;
    *out = (d->size - row) * d->size + col;
    return MIAI_OK;
}

static int go_move_from_text(const miai_game *g, uint32_t role, const char *t,
                             miai_move *out) {
    (void)role;
    return go_parse_vertex(g, t, out);
}

static void go_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    const go_data *d = go_d(g);
    go_view v = go_cview_of(d, state);
    size_t at = 0;
#define GO_OUT(...)                                                           \
    do {                                                                      \
        if (at < cap) at += (size_t)snprintf(buf + at, cap - at, __VA_ARGS__); \
    } while (0)
    GO_OUT("   ");
    for (uint32_t c = 0; c < d->size; c++) GO_OUT(" %c", go_columns[c]);
    GO_OUT("\n");
    for (uint32_t r = 0; r < d->size; r++) {
        GO_OUT("%2u ", d->size - r);
        for (uint32_t c = 0; c < d->size; c++) {
            uint32_t p = d->point_of_move[r * d->size + c];
            GO_OUT(" %c", ".XO"[v.color[p]]);
        }
        GO_OUT(" %2u\n", d->size - r);
    }
    GO_OUT("   ");
    for (uint32_t c = 0; c < d->size; c++) GO_OUT(" %c", go_columns[c]);
    GO_OUT("\n");
    const go_fixed *f = v.f;
    const char *who = f->head.to_move == 0   ? "black (X) to move"
                      : f->head.to_move == 1 ? "white (O) to move"
                                             : "game over";
    GO_OUT("%s; captured by X: %u, by O: %u", who, f->captures[0], f->captures[1]);
    if (f->ko) {
        char ko[8];
        go_move_to_text(g, 0, d->move_of_point[f->ko], ko, sizeof ko);
        GO_OUT("; ko at %s", ko);
    }
    GO_OUT("\n");
#undef GO_OUT
}

static uint32_t go_playout(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                           uint32_t trace_cap, uint32_t *trace_len) {
    const go_data *d = go_d(g);
    go_view v = go_view_of(d, state);
    const uint32_t mask = d->policy & GO_POLICY_PLAYOUT; /* the prior bits play no part */
    if (mask == 0) return go_play_out(&v, rng, trace, trace_cap, trace_len);
    return go_play_out_policy(&v, mask, v.f->last, rng, trace, trace_cap, trace_len);
}

/* Last-good-reply playouts (GO_POLICY_LGR): the search's playout memory. */
static size_t go_playout_memory(const miai_game *g) {
    const go_data *d = go_d(g);
    return d->policy & GO_POLICY_LGR ? go_lgr_memory_size(d) : 0;
}

static uint32_t go_playout_learn(const miai_game *g, void *state, miai_rng *rng,
                                 void *memory, miai_move *trace, uint32_t trace_cap,
                                 uint32_t *trace_len) {
    const go_data *d = go_d(g);
    if (!memory || !(d->policy & GO_POLICY_LGR))
        return go_playout(g, state, rng, trace, trace_cap, trace_len);
    go_view v = go_view_of(d, state);
    return go_play_out_lgr(&v, d->policy & GO_POLICY_PLAYOUT, rng, memory, trace, trace_cap,
                           trace_len);
}

static int go_check(const miai_game *g, const void *state) {
    go_view v = go_cview_of(go_d(g), state);
    return go_check_board(&v);
}

static void go_destroy(miai_game *g) { free(g->data); }

/* The knowledge hooks a search may use (game.h): priors from go_policy.c, and the
 * owners of a final position per point (the point of move m counted at index m). */
static int go_prior_hook(const miai_game *g, const void *state, const miai_move *moves,
                         uint32_t n, int8_t *kind) {
    return go_prior_kinds(go_d(g), state, moves, n, kind);
}

static int go_prior_values_hook(const miai_game *g, const void *state,
                                const miai_move *moves, uint32_t n, float *q) {
    return go_prior_values(go_d(g), state, moves, n, q);
}

static uint32_t go_owner_points(const miai_game *g) { return go_d(g)->n_moves; }

static int go_owner_add(const miai_game *g, const void *state, uint32_t *black,
                        uint32_t *white, uint32_t cap) {
    const go_data *d = go_d(g);
    if (!state || !black || !white || cap < d->n_moves) return MIAI_EINVAL;
    go_view v = go_cview_of(d, state);
    go_count_owners(&v, black, white);
    return MIAI_OK;
}

static const miai_game_ops go_ops = {
    .init = go_init,
    .legal = go_legal,
    .play = go_play,
    .rewards = go_rewards,
    .key_full = go_key_full,
    .move_to_text = go_move_to_text,
    .move_from_text = go_move_from_text,
    .render = go_render,
    .playout = go_playout,
    .check = go_check,
    .destroy = go_destroy,
    .prior_kinds = go_prior_hook,
    .prior_values = go_prior_values_hook,
    .owner_points = go_owner_points,
    .owner_add = go_owner_add,
    .playout_memory = go_playout_memory,
    .playout_learn = go_playout_learn,
};

bool go_is_go(const miai_game *g) { return g && g->ops == &go_ops && g->data; }

double go_margin(const miai_game *g, const void *state, const uint8_t *dead) {
    const go_data *d = go_d(g);
    go_view v = go_cview_of(d, state);
    uint32_t black, white;
    go_area(&v, dead, &black, &white, NULL);
    return (double)black - (double)white - d->komi;
}

static uint32_t go_align8(uint32_t x) { return (x + 7u) & ~7u; }

static int go_create(const double *params, miai_game *g) {
    double komi = params[1];
    go_data *d = calloc(1, sizeof *d);
    if (!d) return MIAI_ENOMEM;
    uint32_t n = (uint32_t)params[0], w = n + 2;
    d->size = n;
    d->W = w;
    d->n_points = w * w;
    d->n_moves = n * n;
    d->max_plies = 3 * n * n;
    d->hist_cap = d->max_plies + 1;
    d->komi = komi;
    d->policy = (uint32_t)params[2];
    go_policy_build_patterns(d);
    int32_t W = (int32_t)w;
    const int32_t nb[4] = {-W, -1, 1, W}, diag[4] = {-W - 1, -W + 1, W - 1, W + 1};
    memcpy(d->nb, nb, sizeof nb);
    memcpy(d->diag, diag, sizeof diag);
    memset(d->move_of_point, 0xff, sizeof d->move_of_point);
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t c = 0; c < n; c++) {
            uint32_t m = r * n + c, p = (r + 1) * w + c + 1;
            d->point_of_move[m] = (uint16_t)p;
            d->move_of_point[p] = (uint16_t)m;
        }
    /* Layout: the fixed part, then arrays by decreasing alignment. */
    uint32_t at = go_align8((uint32_t)sizeof(go_fixed)), P = d->n_points;
    d->off_hist = at;
    at += 8 * d->hist_cap;
    d->off_gsum = at;
    at += 4 * P;
    d->off_gsum2 = at;
    at += 4 * P;
    d->off_gid = at;
    at += 2 * P;
    d->off_next = at;
    at += 2 * P;
    d->off_glibs = at;
    at += 2 * P;
    d->off_gsize = at;
    at += 2 * P;
    d->off_epos = at;
    at += 2 * P;
    d->off_empty = at;
    at += 2 * d->n_moves;
    d->off_color = at;
    at += P;
    d->state_size = go_align8(at);
    /* Zobrist keys: stones, ko points, then the three flags, from a seed of the size. */
    miai_zkey *keys = calloc(3 * GO_MAX_POINTS + 3, sizeof *keys);
    if (!keys) {
        free(d);
        return MIAI_ENOMEM;
    }
    zobrist_fill(keys, 3 * GO_MAX_POINTS + 3, zobrist_seed("go", params, 1));
    memcpy(d->stone, keys, sizeof d->stone);
    memcpy(d->ko, keys + 2 * GO_MAX_POINTS, sizeof d->ko);
    d->white_to_move = keys[3 * GO_MAX_POINTS];
    d->one_pass = keys[3 * GO_MAX_POINTS + 1];
    d->ended = keys[3 * GO_MAX_POINTS + 2];
    free(keys);
    g->data = d;
    g->ops = &go_ops;
    g->facts = (miai_game_facts){.n_roles = 2,
                                 .state_size = d->state_size,
                                 .num_moves = d->n_moves + 1,
                                 .max_legal = d->n_moves + 1,
                                 .max_plies = d->max_plies,
                                 .simultaneous = 0};
    return MIAI_OK;
}

const miai_game_entry miai_go_entry = {
    .info = {.name = "go",
             .n_params = 3,
             .param_name = {"size", "komi", "policy"},
             .param_default = {9, 7.5, 0},
             .param_min = {GO_MIN_SIZE, -INFINITY, 0},
             .param_max = {GO_MAX_SIZE, INFINITY, GO_POLICY_MAX},
             .param_integer = {1, 0, 1}},
    .create = go_create,
};
