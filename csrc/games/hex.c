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
 * edges its group touches.  A move costs at most six finds and unions; nothing scans the
 * board.  Copying a state is memcpy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/zobrist.h"

#define HEX_MAX_SIZE 19
#define HEX_MAX_CELLS (HEX_MAX_SIZE * HEX_MAX_SIZE)
#define HEX_WORDS ((HEX_MAX_CELLS + 63) / 64)
#define HEX_NONE 2 /* no winner yet */
#define HEX_BOTH_EDGES 3

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
    uint8_t edge_of[2][HEX_MAX_CELLS];     /* edge bits of a lone stone of each role */
    uint64_t board[HEX_WORDS];             /* the cells of this size */
    /* Zobrist keys: [role * HEX_MAX_CELLS + cell]; the last one is xored in when role 1
     * is to move. */
    miai_zkey zobrist[2 * HEX_MAX_CELLS + 1];
} hex_data;

static inline miai_zkey hex_zstone(const hex_data *d, uint32_t role, uint32_t cell) {
    return d->zobrist[role * HEX_MAX_CELLS + cell];
}
static inline miai_zkey hex_zside(const hex_data *d) { return d->zobrist[2 * HEX_MAX_CELLS]; }

static uint16_t *hex_parent(void *s) { return (uint16_t *)((uint8_t *)s + sizeof(hex_state)); }
static const uint16_t *hex_cparent(const void *s) {
    return (const uint16_t *)((const uint8_t *)s + sizeof(hex_state));
}
static uint8_t *hex_edges(const hex_data *d, void *s) { return (uint8_t *)s + d->edges_off; }
static const uint8_t *hex_cedges(const hex_data *d, const void *s) {
    return (const uint8_t *)s + d->edges_off;
}

static inline bool hex_has(const uint64_t *bb, uint32_t i) { return bb[i >> 6] >> (i & 63) & 1; }

/* Root of x with path halving (mutates the forest).  Path halving also ends on a
 * cycle, and ids past the board stop the walk: a state corrupted by its owner gives
 * wrong answers, never an out-of-bounds access or an endless loop. */
static uint32_t hex_find(uint16_t *parent, uint32_t x, uint32_t cells) {
    for (;;) {
        uint32_t p = parent[x];
        if (p == x || p >= cells) return x;
        uint32_t gp = parent[p];
        if (gp >= cells) return p;
        parent[x] = (uint16_t)gp;
        x = gp;
    }
}

static void hex_init(const miai_game *g, void *state) {
    const hex_data *d = g->data;
    hex_state *s = state;
    uint16_t *parent = hex_parent(s);
    for (uint32_t i = 0; i < d->cells; i++) parent[i] = (uint16_t)i;
    s->winner = HEX_NONE;
    s->head.to_move = 0;
}

static uint32_t hex_legal(const miai_game *g, const void *state, uint32_t role,
                          miai_move *out) {
    const hex_data *d = g->data;
    const hex_state *s = state;
    if ((int32_t)role != s->head.to_move) return 0;
    uint32_t n = 0;
    for (uint32_t w = 0; w < HEX_WORDS; w++) {
        uint64_t empty = d->board[w] & ~(s->occ[0][w] | s->occ[1][w]);
        while (empty) {
            out[n++] = w * 64 + (uint32_t)__builtin_ctzll(empty);
            empty &= empty - 1;
        }
    }
    return n;
}

static void hex_play_cell(const hex_data *d, hex_state *s, uint32_t m) {
    uint32_t r = (uint32_t)s->head.to_move;
    uint16_t *parent = hex_parent(s);
    uint8_t *edges = hex_edges(d, s);
    s->occ[r][m >> 6] |= 1ULL << (m & 63);
    miai_zxor(&s->head, hex_zstone(d, r, m));
    miai_zxor(&s->head, hex_zside(d));
    s->head.ply++;
    /* Join the new stone to its own-coloured neighbours: it hangs under the first
     * neighbouring group's root, and any other group's root hangs under that. */
    uint32_t root = m;
    uint8_t e = d->edge_of[r][m];
    for (int k = 0; k < 6; k++) {
        int32_t q = d->nb[m][k];
        if (q < 0 || !hex_has(s->occ[r], (uint32_t)q)) continue;
        uint32_t qr = hex_find(parent, (uint32_t)q, d->cells);
        if (qr == root) continue;
        e |= edges[qr];
        if (root == m) {
            parent[m] = (uint16_t)qr;
            root = qr;
        } else {
            parent[qr] = (uint16_t)root;
        }
    }
    edges[root] = e;
    if (e == HEX_BOTH_EDGES) {
        s->winner = (uint8_t)r;
        s->head.to_move = MIAI_NOBODY;
    } else {
        s->head.to_move = (int32_t)(1 - r);
    }
}

static void hex_play(const miai_game *g, void *state, const miai_move *moves) {
    const hex_data *d = g->data;
    hex_state *s = state;
    if (s->head.to_move != 0 && s->head.to_move != 1) return; /* corrupted by its owner */
    miai_move m = moves[s->head.to_move];
    if (m < d->cells) hex_play_cell(d, s, m);
}

/* Uniformly random moves, like the generic playout, without rebuilding the move list
 * every ply: the empty cells are kept in an array and drawn with swap-remove. */
static uint32_t hex_playout(const miai_game *g, void *state, miai_rng *rng,
                            miai_move *trace, uint32_t trace_cap, uint32_t *trace_len) {
    const hex_data *d = g->data;
    hex_state *s = state;
    miai_move empty[HEX_MAX_CELLS];
    uint32_t n_empty = 0, plies = 0, tl = 0;
    if (trace_len) *trace_len = 0;
    if (s->head.to_move != 0 && s->head.to_move != 1) return 0; /* over (or corrupted) */
    n_empty = hex_legal(g, s, (uint32_t)s->head.to_move, empty);
    while (s->head.to_move != MIAI_NOBODY && s->head.ply < g->facts.max_plies && n_empty) {
        uint32_t i = miai_rng_below(rng, n_empty);
        miai_move m = empty[i];
        empty[i] = empty[--n_empty];
        if (trace && tl < trace_cap) trace[tl++] = m;
        hex_play_cell(d, s, m);
        plies++;
    }
    if (trace_len) *trace_len = tl;
    return plies;
}

static void hex_rewards(const miai_game *g, const void *state, double *out) {
    (void)g;
    const hex_state *s = state;
    out[0] = s->winner == 0 ? 1.0 : s->winner == 1 ? 0.0 : 0.5;
    out[1] = 1.0 - out[0];
}

static void hex_key_full(const miai_game *g, const void *state, uint64_t *k1, uint64_t *k2) {
    const hex_data *d = g->data;
    const hex_state *s = state;
    *k1 = *k2 = 0;
    uint32_t stones = 0;
    for (uint32_t r = 0; r < 2; r++)
        for (uint32_t i = 0; i < d->cells; i++)
            if (hex_has(s->occ[r], i)) {
                miai_zxor2(k1, k2, hex_zstone(d, r, i));
                stones++;
            }
    if (stones & 1) miai_zxor2(k1, k2, hex_zside(d));
}

static int hex_move_to_text(const miai_game *g, uint32_t role, miai_move m, char *buf,
                            size_t cap) {
    (void)role;
    const hex_data *d = g->data;
    snprintf(buf, cap, "%c%u", (char)('a' + m % d->n), (unsigned)(m / d->n + 1));
    return MIAI_OK;
}

/* Parse a 1- or 2-digit number without leading zero, 1..max; -1 on error. */
static int hex_parse_number(const char *t, uint32_t max) {
    if (t[0] < '1' || t[0] > '9') return -1;
    uint32_t v = (uint32_t)(t[0] - '0');
    if (t[1]) {
        if (t[1] < '0' || t[1] > '9' || t[2]) return -1;
        v = v * 10 + (uint32_t)(t[1] - '0');
    }
    return v <= max ? (int)v : -1;
}

static int hex_move_from_text(const miai_game *g, uint32_t role, const char *t,
                              miai_move *out) {
    (void)role;
    const hex_data *d = g->data;
    char c = (char)(t[0] | 0x20);
    if (c < 'a' || c >= (char)('a' + d->n)) return MIAI_EINVAL;
    int row = hex_parse_number(t + 1, d->n);
    if (row < 0) return MIAI_EINVAL;
    *out = (miai_move)((uint32_t)(row - 1) * d->n + (uint32_t)(c - 'a'));
    return MIAI_OK;
}

/* Append formatted text at *at, never past cap (buf stays NUL-terminated). */
#define HEX_PUT(...)                                                                   \
    do {                                                                               \
        if (*at < cap) {                                                               \
            int w_ = snprintf(buf + *at, cap - *at, __VA_ARGS__);                      \
            *at += w_ > 0 ? (size_t)w_ : 0;                                            \
        }                                                                              \
    } while (0)

static void hex_render_into(const hex_data *d, const hex_state *s, char *buf, size_t cap,
                            size_t *at) {
    HEX_PUT("   ");
    for (uint32_t c = 0; c < d->n; c++) HEX_PUT(" %c", (char)('a' + c));
    HEX_PUT("\n");
    for (uint32_t r = 0; r < d->n; r++) {
        HEX_PUT("%*s%2u ", (int)r, "", (unsigned)(r + 1));
        for (uint32_t c = 0; c < d->n; c++) {
            uint32_t i = r * d->n + c;
            char ch = hex_has(s->occ[0], i) ? 'x' : hex_has(s->occ[1], i) ? 'o' : '.';
            HEX_PUT(" %c", ch);
        }
        HEX_PUT("\n");
    }
    if (s->winner != HEX_NONE)
        HEX_PUT("%c wins\n", s->winner == 0 ? 'x' : 'o');
    else
        HEX_PUT("%c to move (x joins top and bottom, o joins left and right)\n",
                s->head.to_move == 0 ? 'x' : 'o');
}

static void hex_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    size_t at = 0;
    hex_render_into(g->data, state, buf, cap, &at);
}

/* Recompute the groups by flood fill and compare them with the union-find forest,
 * the root edge flags, the winner, the side to move and the ply. */
static int hex_check(const miai_game *g, const void *state) {
    const hex_data *d = g->data;
    const hex_state *s = state;
    const uint16_t *parent = hex_cparent(s);
    const uint8_t *edges = hex_cedges(d, s);
    uint32_t stones[2] = {0, 0};
    for (uint32_t w = 0; w < HEX_WORDS; w++) {
        if (s->occ[0][w] & s->occ[1][w]) return MIAI_ECORRUPT;
        if ((s->occ[0][w] | s->occ[1][w]) & ~d->board[w]) return MIAI_ECORRUPT;
        stones[0] += (uint32_t)__builtin_popcountll(s->occ[0][w]);
        stones[1] += (uint32_t)__builtin_popcountll(s->occ[1][w]);
    }
    if (s->head.ply != stones[0] + stones[1]) return MIAI_ECORRUPT;
    if (stones[0] != stones[1] && stones[0] != stones[1] + 1) return MIAI_ECORRUPT;
    /* Roots by walking parents (bounded, so a cycle is caught, not looped on). */
    uint16_t root[HEX_MAX_CELLS], comp[HEX_MAX_CELLS], stack[HEX_MAX_CELLS];
    for (uint32_t i = 0; i < d->cells; i++) {
        int owner = hex_has(s->occ[0], i) ? 0 : hex_has(s->occ[1], i) ? 1 : -1;
        if (parent[i] >= d->cells) return MIAI_ECORRUPT;
        if (owner < 0) {
            if (parent[i] != i) return MIAI_ECORRUPT;
            root[i] = (uint16_t)i;
            continue;
        }
        uint32_t x = i, steps = 0;
        while (parent[x] != x && steps++ <= d->cells) {
            x = parent[x];
            if (x >= d->cells || !hex_has(s->occ[owner], x)) return MIAI_ECORRUPT;
        }
        if (parent[x] != x) return MIAI_ECORRUPT;
        root[i] = (uint16_t)x;
    }
    /* Flood fill the groups: one root per group, distinct roots for distinct groups. */
    const uint16_t unseen = UINT16_MAX;
    for (uint32_t i = 0; i < d->cells; i++) comp[i] = unseen;
    bool won[2] = {false, false};
    for (uint32_t i = 0; i < d->cells; i++) {
        int owner = hex_has(s->occ[0], i) ? 0 : hex_has(s->occ[1], i) ? 1 : -1;
        if (owner < 0 || comp[i] != unseen) continue;
        if (comp[root[i]] != unseen) return MIAI_ECORRUPT; /* root shared with a group */
        uint32_t top = 0;
        uint8_t e = 0;
        stack[top++] = (uint16_t)i;
        comp[i] = (uint16_t)i;
        while (top) {
            uint32_t x = stack[--top];
            if (root[x] != root[i]) return MIAI_ECORRUPT;
            e |= d->edge_of[owner][x];
            for (int k = 0; k < 6; k++) {
                int32_t q = d->nb[x][k];
                if (q < 0 || comp[q] != unseen || !hex_has(s->occ[owner], (uint32_t)q))
                    continue;
                comp[q] = (uint16_t)i;
                stack[top++] = (uint16_t)q;
            }
        }
        if (edges[root[i]] != e) return MIAI_ECORRUPT;
        if (e == HEX_BOTH_EDGES) won[owner] = true;
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
