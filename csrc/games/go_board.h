/* go_board.h -- the Go board of csrc/games/go.c: layout, incremental groups, moves.
 *
 * Contract:
 *   - Points are padded coordinates p = (row + 1) * W + (col + 1), W = size + 2, row 0
 *     the top row: every on-board point has four orthogonal and four diagonal
 *     neighbours inside the array, border cells hold GO_EDGE (Pachi's layout), so no
 *     move generator or capture loop tests edges.  Point 0 is a border cell and means
 *     "none" (no ko, pass).
 *   - A state is plain data (miai_head first, copy = memcpy): the fixed part go_fixed,
 *     then per-point arrays whose offsets depend on the board size (go_data.off_*), so
 *     a 9x9 state is about 5 KB and a 19x19 one about 20 KB.  go_view_of() gathers
 *     pointers to them; a view is valid while its state does not move.
 *   - Groups are chains of stones in a circular list (next[]), named by a root point
 *     (gid[] of every stone); the root's entries of gsize/glibs/gsum/gsum2 hold the
 *     group's size and its pseudo-liberties (libego): one count per (stone, empty
 *     neighbour) pair, with the sum and sum of squares of the liberty points, so "the
 *     only liberty is p" is two comparisons and a merge is four additions.
 *   - go_place() assumes the move is legal (empty point, not suicide); the full rules
 *     (positional superko) are in go_is_legal_full(), the playout's (simple ko, no
 *     own-eye filling) in go_playout_ok().  Neither reads nor writes anything global.
 *   - Every board position since the start (or since setup) is kept as a 64-bit key
 *     in hist[] (capacity max_plies + 1, keys only) with a 4096-bit Bloom filter over
 *     them, so the superko test of a move is one bit test and rarely a scan.
 *   - THREAD-UNSAFE per state; the go_data of a game is read-only and shareable.
 */
#ifndef MIAI_GO_BOARD_H
#define MIAI_GO_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/game.h"
#include "../core/zobrist.h"

#define GO_MIN_SIZE 5
#define GO_MAX_SIZE 19
#define GO_MAX_W (GO_MAX_SIZE + 2)
#define GO_MAX_POINTS (GO_MAX_W * GO_MAX_W)
#define GO_MAX_MOVES (GO_MAX_SIZE * GO_MAX_SIZE)
#define GO_BLOOM_WORDS 64

enum { GO_EMPTY = 0, GO_BLACK = 1, GO_WHITE = 2, GO_EDGE = 3 };

/* The fixed part at the start of every state. */
typedef struct {
    miai_head head;
    uint64_t board_key, board_key2;     /* Zobrist keys of the stones alone */
    uint64_t bloom[GO_BLOOM_WORDS];     /* filter of the board keys in hist[] */
    uint32_t captures[2];               /* stones captured by black, by white */
    uint32_t hist_len;                  /* board keys in hist[] */
    uint16_t ko;                        /* simple-ko point (0 = none) */
    uint16_t n_empty;                   /* entries of empty[] */
    uint8_t passes;                     /* consecutive passes just played */
    uint8_t next_role;                  /* who moves next if play goes on (0/1) */
    uint16_t last;                      /* point of the last move (0: none or pass) */
    uint8_t pad[4];
} go_fixed;

/* Per-game constant data: sizes, layout, neighbour offsets, Zobrist tables. */
typedef struct {
    uint32_t size, W, n_points, n_moves, max_plies, hist_cap, state_size;
    double komi;
    uint32_t off_hist, off_gsum, off_gsum2, off_gid, off_next, off_glibs, off_gsize,
        off_epos, off_empty, off_color;
    int32_t nb[4], diag[4];
    uint16_t point_of_move[GO_MAX_MOVES];
    uint16_t move_of_point[GO_MAX_POINTS]; /* UINT16_MAX off the board */
    miai_zkey stone[2][GO_MAX_POINTS];
    miai_zkey ko[GO_MAX_POINTS];
    miai_zkey white_to_move, one_pass, ended;
    uint32_t policy;                    /* playout policy bits (go_policy.h) */
    uint8_t pattern3[1u << 13];         /* a bit per 3x3 code: MoGo pattern (go_policy.c) */
} go_data;

/* Pointers into one state. */
typedef struct {
    const go_data *d;
    uint32_t W; /* row stride: the neighbours of p are p -+ 1 and p -+ W */
    go_fixed *f;
    uint64_t *hist;
    uint32_t *gsum, *gsum2;
    uint16_t *gid, *next, *glibs, *gsize, *epos, *empty;
    uint8_t *color;
} go_view;

static inline go_view go_view_of(const go_data *d, void *state) {
    uint8_t *b = state;
    return (go_view){
        .d = d,
        .W = d->W,
        .f = state,
        .hist = (uint64_t *)(void *)(b + d->off_hist),
        .gsum = (uint32_t *)(void *)(b + d->off_gsum),
        .gsum2 = (uint32_t *)(void *)(b + d->off_gsum2),
        .gid = (uint16_t *)(void *)(b + d->off_gid),
        .next = (uint16_t *)(void *)(b + d->off_next),
        .glibs = (uint16_t *)(void *)(b + d->off_glibs),
        .gsize = (uint16_t *)(void *)(b + d->off_gsize),
        .epos = (uint16_t *)(void *)(b + d->off_epos),
        .empty = (uint16_t *)(void *)(b + d->off_empty),
        .color = b + d->off_color,
    };
}

/* A view of a state the caller only reads (the functions given it never write). */
static inline go_view go_cview_of(const go_data *d, const void *state) {
    return go_view_of(d, (void *)(uintptr_t)state);
}

static inline bool go_is_stone(uint32_t c) { return c - 1u < 2u; }

/* ---- pseudo-liberties ---- */

static inline void go_lib_add(go_view *v, uint32_t g, uint32_t p) {
    v->glibs[g]++;
    v->gsum[g] += p;
    v->gsum2[g] += p * p;
}

static inline void go_lib_sub(go_view *v, uint32_t g, uint32_t p) {
    v->glibs[g]--;
    v->gsum[g] -= p;
    v->gsum2[g] -= p * p;
}

/* Is p the only liberty of group g?  (g touches p, so it has a pseudo-liberty there;
 * all its pseudo-liberties equal p iff sum = n p and sum of squares = n p^2.) */
static inline bool go_only_lib_is(const go_view *v, uint32_t g, uint32_t p) {
    uint32_t n = v->glibs[g];
    return v->gsum[g] == n * p && v->gsum2[g] == n * p * p;
}

/* ---- the empty-point list ---- */

static inline void go_empty_remove(go_view *v, uint32_t p) {
    uint16_t i = v->epos[p];
    uint16_t last = v->empty[--v->f->n_empty];
    v->empty[i] = last;
    v->epos[last] = i;
}

static inline void go_empty_add(go_view *v, uint32_t p) {
    v->epos[p] = v->f->n_empty;
    v->empty[v->f->n_empty++] = (uint16_t)p;
}

/* ---- legality ---- */

/* Would colour c (GO_BLACK/GO_WHITE) at empty point p be suicide? */
static inline bool go_is_suicide(const go_view *v, uint32_t p, uint32_t c) {
    const uint32_t nbs[4] = {p - v->W, p - 1, p + 1, p + v->W};
    for (int k = 0; k < 4; k++) {
        uint32_t n = nbs[k];
        uint32_t cn = v->color[n];
        if (cn == GO_EMPTY) return false;
        if (cn == GO_EDGE) continue;
        bool last = go_only_lib_is(v, v->gid[n], p);
        if (cn == c ? !last : last) return false; /* own group keeps a liberty, or a capture */
    }
    return true;
}

/* Is empty p an eye of colour c: all orthogonal neighbours c or edge, and at most one
 * diagonal held by the opponent (none on the edge)?  The playout never fills these. */
static inline bool go_is_own_eye(const go_view *v, uint32_t p, uint32_t c) {
    const uint8_t *col = v->color;
    const uint32_t W = v->W;
    const uint32_t ok = 1u << c | 1u << GO_EDGE; /* each neighbour must be c or the edge */
    if (!(ok >> col[p - W] & ok >> col[p - 1] & ok >> col[p + 1] & ok >> col[p + W] & 1))
        return false;
    const uint32_t dg[4] = {col[p - W - 1], col[p - W + 1], col[p + W - 1], col[p + W + 1]};
    uint32_t bad = 0, edge = 0;
    for (int k = 0; k < 4; k++) {
        bad += dg[k] == 3u - c;
        edge += dg[k] == GO_EDGE;
    }
    return bad + (edge > 0) < 2;
}

/* The playout's rule: not the simple-ko point, not an own eye, not suicide. */
static inline bool go_playout_ok(const go_view *v, uint32_t p, uint32_t c) {
    if (p == v->f->ko) return false;
    const uint8_t *col = v->color;
    /* Fast path: an empty neighbour means neither an eye nor suicide. */
    if (!col[p - v->W] || !col[p - 1] || !col[p + 1] || !col[p + v->W]) return true;
    return !go_is_own_eye(v, p, c) && !go_is_suicide(v, p, c);
}

/* Full rules (no suicide, positional superko) for colour c at empty point p. */
bool go_is_legal_full(const go_view *v, uint32_t p, uint32_t c);

/* ---- changing the board ---- */

/* Place a stone of colour c at empty p (legal by the caller's rules): pseudo-liberties,
 * merges, captures, captures[] and ko.  Board keys updated; head keys are not (go_rekey). */
void go_place(go_view *v, uint32_t p, uint32_t c);

/* One ply for the side to move: a stone at p, or a pass when p == 0.  Records the
 * board key in hist[], ends the game after two passes or at max_plies, rekeys. */
void go_apply(go_view *v, uint32_t p);

/* Recompute head.key/key2 from the board keys, side to move, ko point and passes. */
void go_rekey(go_view *v);

/* An empty board, black to move, history holding the empty position. */
void go_clear(go_view *v);

/* Start the history afresh from the current board (after setup stones). */
void go_reset_history(go_view *v);

/* Record the current board key in hist[] and the Bloom filter. */
void go_remember(go_view *v);

/* Uniformly random moves for the side to move that never fill an own eye nor play
 * suicide, simple ko only, until two passes or max_plies.  Returns plies played. */
uint32_t go_play_out(go_view *v, miai_rng *rng, miai_move *trace, uint32_t trace_cap,
                     uint32_t *trace_len);

/* ---- reading the board ---- */

/* Area of each colour: stones plus empty regions bordered by that colour only.
 * dead: NULL or a flag per padded point (stones flagged are removed first).
 * owner: NULL or GO_EMPTY/GO_BLACK/GO_WHITE per padded point (on-board points only). */
void go_area(const go_view *v, const uint8_t *dead, uint32_t *black, uint32_t *white,
             uint8_t *owner);

/* Add the owners of a final position (go_area's) to per-move counters: black[m]++ /
 * white[m]++ for the point of each move m < n_moves that the colour owns. */
void go_count_owners(const go_view *v, uint32_t *black, uint32_t *white);

/* Recompute every derived field; MIAI_OK or MIAI_ECORRUPT. */
int go_check_board(const go_view *v);

/* Board keys recomputed from the stones. */
void go_board_keys(const go_view *v, uint64_t *k1, uint64_t *k2);

#endif
