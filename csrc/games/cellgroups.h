/* cellgroups.h -- the cell-group machinery shared by the connection games (Hex, Havannah).
 *
 * Contract.  A board of `cells` cells (cells <= UINT16_MAX) numbered 0..cells-1, each with
 * six neighbours in circular order, given as `nbs[6]` with an id `off` (>= cells) standing
 * for "off the board".  The caller owns all memory; nothing here allocates or keeps state
 * between calls, so any number of games may run at once.  Stones of the two roles are
 * bitboards (bit = cell id, `words` uint64_t words each, `board` = the cells of this
 * size).  Groups live in a union-find forest `parent[cells]` (uint16_t) kept inside the
 * game's state; whatever a game records per group (edge or corner bits) sits at the root
 * and is the game's own business.  Two roles, role 0 moving first; Zobrist keys laid out
 * as keys[role * stride + cell] plus a side key keys[2 * stride].  Besides the forest,
 * the header holds the pieces of the play and playout ops that such games share (the
 * mover's move, key updates, the playout's empties and byte-per-cell board, the draw of
 * a uniformly random empty cell, and the move-by-move playout loop itself, into which
 * each game passes its stone), so the games that use them draw the same random
 * streams and leave the same states; and the pieces of their other ops that are one
 * thing: move text (a column letter and a row number), text rendering into a buffer,
 * and the from-scratch check of the groups against the forest.
 *
 * Safety: cg_find and cg_check_roots stay inside [0, cells) and stop on cycles, so a
 * forest corrupted by its owner gives wrong answers, never an out-of-bounds access or an
 * endless loop.  Callers must pass a cell id < cells to cg_find.
 */
#ifndef MIAI_CELLGROUPS_H
#define MIAI_CELLGROUPS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../core/game.h"
#include "../core/rng.h"
#include "../core/zobrist.h"

/* Forced inline where a caller's copy must be specialised (the playouts' colour[]). */
#if defined(__GNUC__)
#define CG_INLINE static inline __attribute__((always_inline))
#else
#define CG_INLINE static inline
#endif

#define CG_DIRS 0x3fu /* a set of the six directions */

static inline bool cg_has(const uint64_t *bb, uint32_t i) { return bb[i >> 6] >> (i & 63) & 1; }
static inline void cg_set(uint64_t *bb, uint32_t i) { bb[i >> 6] |= 1ULL << (i & 63); }

/* The forest parent[cells] sits right after the game's fixed-size state struct of
 * `fixed` bytes. */
static inline uint16_t *cg_parent(void *s, size_t fixed) {
    return (uint16_t *)((uint8_t *)s + fixed);
}
static inline const uint16_t *cg_cparent(const void *s, size_t fixed) {
    return (const uint16_t *)((const uint8_t *)s + fixed);
}

/* Zobrist keys laid out as keys[role * stride + cell] for a stone, keys[2 * stride]
 * xored in when role 1 is to move. */
static inline miai_zkey cg_zstone(const miai_zkey *keys, uint32_t stride, uint32_t role,
                                  uint32_t cell) {
    return keys[role * stride + cell];
}
static inline miai_zkey cg_zside(const miai_zkey *keys, uint32_t stride) {
    return keys[2 * stride];
}

/* The mover and its move for a play op: false (play nothing) when no single role is to
 * move (a state corrupted by its owner) or the move is off the board. */
static inline bool cg_play_move(const miai_head *h, const miai_move *moves, uint32_t cells,
                                uint32_t *r, miai_move *m) {
    if (h->to_move != 0 && h->to_move != 1) return false;
    *r = (uint32_t)h->to_move;
    *m = moves[*r];
    return *m < cells;
}

/* Role r's stone on cell m in the keys, and the ply counted. */
static inline void cg_count_move(miai_head *h, const miai_zkey *keys, uint32_t stride,
                                 uint32_t r, uint32_t m) {
    miai_zxor(h, cg_zstone(keys, stride, r, m));
    miai_zxor(h, cg_zside(keys, stride));
    h->ply++;
}

/* Rewards of a two-role win/loss game: winner 1, loser 0; any other `winner` value (no
 * winner) gives 0.5 each. */
static inline void cg_rewards(uint8_t winner, double *out) {
    out[0] = winner == 0 ? 1.0 : winner == 1 ? 0.0 : 0.5;
    out[1] = 1.0 - out[0];
}

/* Every cell its own group. */
static inline void cg_forest_init(uint16_t *parent, uint32_t cells) {
    for (uint32_t i = 0; i < cells; i++) parent[i] = (uint16_t)i;
}

/* Root of x with path halving (mutates the forest).  Path halving also ends on a
 * cycle, and ids past the board stop the walk. */
static inline uint32_t cg_find(uint16_t *parent, uint32_t x, uint32_t cells) {
    for (;;) {
        uint32_t p = parent[x];
        if (p == x || p >= cells) return x;
        uint32_t gp = parent[p];
        if (gp >= cells) return p;
        parent[x] = (uint16_t)gp;
        x = gp;
    }
}

/* The empty cells of the board in ascending order into out; returns their number. */
static inline uint32_t cg_empties(const uint64_t *board, const uint64_t *occ0,
                                  const uint64_t *occ1, uint32_t words, uint32_t *out) {
    uint32_t n = 0;
    for (uint32_t w = 0; w < words; w++) {
        uint64_t empty = board[w] & ~(occ0[w] | occ1[w]);
        while (empty) {
            out[n++] = w * 64 + (uint32_t)__builtin_ctzll(empty);
            empty &= empty - 1;
        }
    }
    return n;
}

/* A byte per cell from the bitboards: 0 empty, 1 + role.  colour must hold `len` bytes
 * (every cell and the off-board id, which stays 0). */
static inline void cg_colour_fill(uint8_t *colour, size_t len, const uint64_t *board,
                                  const uint64_t *occ0, const uint64_t *occ1,
                                  uint32_t words) {
    memset(colour, 0, len);
    for (uint32_t w = 0; w < words; w++) {
        for (uint64_t b = occ0[w] & board[w]; b; b &= b - 1)
            colour[w * 64 + (uint32_t)__builtin_ctzll(b)] = 1;
        for (uint64_t b = occ1[w] & board[w]; b; b &= b - 1)
            colour[w * 64 + (uint32_t)__builtin_ctzll(b)] = 2;
    }
}

/* Draw one of the n_empty cells of empty[] uniformly and swap-remove it. */
static inline uint32_t cg_draw(miai_rng *rng, uint32_t *empty, uint32_t *n_empty) {
    uint32_t i = miai_rng_below(rng, *n_empty);
    uint32_t m = empty[i];
    empty[i] = empty[--*n_empty];
    return m;
}

/* The start of a playout op: the mover *r, the empty cells into empty[] and the board
 * into colour[] (see cg_colour_fill).  Returns the number of empty cells, or 0 when
 * there is nothing to play: no single role to move (over, or corrupted), the ply limit
 * max_plies reached, or a full board. */
static inline uint32_t cg_playout_begin(const miai_head *h, uint32_t max_plies,
                                        const uint64_t *board, const uint64_t *occ0,
                                        const uint64_t *occ1, uint32_t words,
                                        uint32_t *empty, uint8_t *colour, size_t colour_len,
                                        uint32_t *r) {
    if (h->to_move != 0 && h->to_move != 1) return 0;
    *r = (uint32_t)h->to_move;
    uint32_t n_empty = cg_empties(board, occ0, occ1, words, empty);
    if (h->ply >= max_plies || !n_empty) return 0;
    cg_colour_fill(colour, colour_len, board, occ0, occ1, words);
    return n_empty;
}

/* The end of a move-by-move playout: the stream, keys and ply kept in locals go back. */
static inline void cg_playout_end(miai_head *h, miai_rng *rng, const miai_rng *rn,
                                  uint64_t k1, uint64_t k2, uint32_t ply) {
    *rng = *rn;
    h->key = k1;
    h->key2 = k2;
    h->ply = ply;
}

/* Is q own?  The owner comes from a byte per cell (colour[], 0 empty, 1 + role) when
 * colour is not NULL, else from the mover's bitboard occ.  `off` is never own:
 * colour[off] stays 0, and the bitboard is not read there (a state corrupted by its
 * owner could have that bit set, and a find from `off` would leave the forest). */
CG_INLINE bool cg_is(const uint8_t *colour, uint8_t me, const uint64_t *occ, uint32_t q,
                     uint32_t off) {
    return colour ? colour[q] == me : q != off && cg_has(occ, q);
}

/* The directions k (bit k) in which the cell with neighbours nb[6] has an own neighbour. */
CG_INLINE uint32_t cg_own_dirs(const uint16_t *nb, const uint8_t *colour, uint8_t me,
                               const uint64_t *occ, uint32_t off) {
    uint32_t own = (uint32_t)cg_is(colour, me, occ, nb[0], off);
    own |= (uint32_t)cg_is(colour, me, occ, nb[1], off) << 1;
    own |= (uint32_t)cg_is(colour, me, occ, nb[2], off) << 2;
    own |= (uint32_t)cg_is(colour, me, occ, nb[3], off) << 3;
    own |= (uint32_t)cg_is(colour, me, occ, nb[4], off) << 4;
    return own | (uint32_t)cg_is(colour, me, occ, nb[5], off) << 5;
}

/* A game's move in the shared playout (cg_playout_moves): role r's stone on empty cell c,
 * whose own neighbours lie in directions `own` (taken before the stone; colour[c] is
 * already set), joined into the game's groups.  Returns nonzero when the move wins
 * (the game's own code for how).  data and state are the game's. */
typedef uint32_t (*cg_stone_fn)(const void *data, void *state, uint8_t *colour, uint32_t r,
                                uint32_t c, uint32_t own);

/* What the shared playout reads of a board: neighbours in circular order (`off` off the
 * board) and the Zobrist keys (see cg_zstone). */
typedef struct {
    const uint16_t (*nbs)[6];
    uint32_t off;
    const miai_zkey *keys;
    uint32_t stride;
} cg_board;

/* The move-by-move playout of a connection game, after cg_playout_begin (empty[n_empty],
 * colour[], mover *r): uniformly random moves, each drawn from the empty cells
 * (cg_draw), recorded in trace while trace_cap allows, placed by `stone`, until a move
 * wins, the ply reaches max_plies or the board is full.  Keys, ply and the stream are
 * kept in locals and written back at the end (cg_playout_end); winner and side to move
 * are the caller's.  *r is left at the last mover, *plies at the moves played,
 * *trace_len at the moves recorded.  Returns the last stone's result.  Forced inline, so
 * that with `stone` a constant each game gets its own copy with its stone inlined. */
CG_INLINE uint32_t cg_playout_moves(const void *data, void *state, cg_stone_fn stone,
                                    cg_board board, uint32_t max_plies, miai_rng *rng,
                                    uint32_t *empty, uint32_t n_empty, uint8_t *colour,
                                    uint32_t *r, miai_move *trace, uint32_t trace_cap,
                                    uint32_t *trace_len, uint32_t *plies) {
    miai_head *h = state; /* a state starts with its head (game.h) */
    /* Locals stay in registers across the stores into the state and colour[]. */
    miai_rng rn = *rng;
    uint64_t k1 = h->key, k2 = h->key2;
    const miai_zkey side = cg_zside(board.keys, board.stride);
    uint32_t ply = h->ply, mover = *r, n = 0, tl = 0, result;
    miai_move m = cg_draw(&rn, empty, &n_empty);
    uint32_t own = cg_own_dirs(board.nbs[m], colour, (uint8_t)(mover + 1), NULL, board.off);
    for (;;) {
        if (trace && tl < trace_cap) trace[tl++] = m;
        n++;
        /* The next move's cell and its own neighbours first: they do not depend on this
         * move's joins (the other role's groups), so the processor can fetch them while
         * this move's branches resolve.  One draw too many at the end only advances the
         * stream. */
        bool more = n_empty > 0;
        miai_move next = more ? cg_draw(&rn, empty, &n_empty) : 0;
        uint32_t next_own =
            more ? cg_own_dirs(board.nbs[next], colour, (uint8_t)(2 - mover), NULL, board.off)
                 : 0;
        colour[m] = (uint8_t)(mover + 1);
        result = stone(data, state, colour, mover, m, own);
        miai_zxor2(&k1, &k2, cg_zstone(board.keys, board.stride, mover, m));
        miai_zxor2(&k1, &k2, side);
        ply++;
        if (result || ply >= max_plies || !more) break;
        m = next;
        own = next_own;
        mover ^= 1;
    }
    cg_playout_end(h, rng, &rn, k1, k2, ply);
    *r = mover;
    *plies = n;
    if (trace_len) *trace_len = tl;
    return result;
}

/* Bit k: bit k-1 (mod 6) of a set of directions.  cg_rot_next: bit k+1. */
static inline uint32_t cg_rot_prev(uint32_t set) { return ((set << 1) | (set >> 5)) & CG_DIRS; }
static inline uint32_t cg_rot_next(uint32_t set) { return ((set >> 1) | (set << 5)) & CG_DIRS; }

/* The first direction of each arc (maximal circular run) of own directions; one bit
 * for a full ring of six.  The cells of an arc touch each other, so one find per arc
 * covers all of a new stone's own neighbours. */
static inline uint32_t cg_arc_starts(uint32_t own) {
    return own == CG_DIRS ? 1u : own & ~cg_rot_prev(own);
}

/* Join the new stone c to the group of root qr (qr != *root): c hangs under the first
 * arc's root, every later arc's root under that one.  *root starts as c. */
static inline void cg_hang(uint16_t *parent, uint32_t *root, uint32_t c, uint32_t qr) {
    if (*root == c) {
        parent[c] = (uint16_t)qr;
        *root = qr;
    } else {
        parent[qr] = (uint16_t)*root;
    }
}

/* Zobrist key from scratch: keys[role * stride + cell] for each stone, and keys[2 * stride]
 * (the side key) when role 1 is to move, i.e. after an odd number of stones. */
static inline void cg_key_full(const uint64_t *occ0, const uint64_t *occ1, uint32_t cells,
                               const miai_zkey *keys, uint32_t stride, uint64_t *k1,
                               uint64_t *k2) {
    *k1 = *k2 = 0;
    uint32_t stones = 0;
    for (uint32_t r = 0; r < 2; r++)
        for (uint32_t i = 0; i < cells; i++)
            if (cg_has(r ? occ1 : occ0, i)) {
                miai_zxor2(k1, k2, keys[r * stride + i]);
                stones++;
            }
    if (stones & 1) miai_zxor2(k1, k2, keys[2 * stride]);
}

/* Consistency of the stones: no cell of both roles, none off the board, ply = the
 * number of stones, role 0 has as many stones as role 1 or one more.  False if not. */
static inline bool cg_check_stones(const uint64_t *occ0, const uint64_t *occ1,
                                   const uint64_t *board, uint32_t words, uint32_t ply) {
    uint32_t stones[2] = {0, 0};
    for (uint32_t w = 0; w < words; w++) {
        if (occ0[w] & occ1[w]) return false;
        if ((occ0[w] | occ1[w]) & ~board[w]) return false;
        stones[0] += (uint32_t)__builtin_popcountll(occ0[w]);
        stones[1] += (uint32_t)__builtin_popcountll(occ1[w]);
    }
    if (ply != stones[0] + stones[1]) return false;
    return stones[0] == stones[1] || stones[0] == stones[1] + 1;
}

/* The root of every cell by walking parents without changing them (bounded, so a cycle
 * is caught, not looped on) into root[cells]: an empty cell must be its own root, a
 * stone's walk must stay on its owner's stones.  False if the forest is inconsistent. */
static inline bool cg_check_roots(const uint16_t *parent, const uint64_t *occ0,
                                  const uint64_t *occ1, uint32_t cells, uint16_t *root) {
    for (uint32_t i = 0; i < cells; i++) {
        const uint64_t *own = cg_has(occ0, i) ? occ0 : cg_has(occ1, i) ? occ1 : NULL;
        if (parent[i] >= cells) return false;
        if (!own) {
            if (parent[i] != i) return false;
            root[i] = (uint16_t)i;
            continue;
        }
        uint32_t x = i, steps = 0;
        while (parent[x] != x && steps++ <= cells) {
            x = parent[x];
            if (x >= cells || !cg_has(own, x)) return false;
        }
        if (parent[x] != x) return false;
        root[i] = (uint16_t)x;
    }
    return true;
}

/* The groups of stones recomputed by flood fill over nb[cells][6] (neighbour ids, -1 off
 * the board) and compared with the forest's roots root[] (from cg_check_roots): the cells
 * of a group must share one root, and two groups must not share one.  comp[i] gets the
 * group of stone i, named by its lowest cell (UINT16_MAX for an empty cell); stack[]
 * is room for `cells` entries.  False if the forest does not match the groups. */
static inline bool cg_check_groups(const int16_t (*nb)[6], const uint64_t *occ0,
                                   const uint64_t *occ1, uint32_t cells, const uint16_t *root,
                                   uint16_t *comp, uint16_t *stack) {
    const uint16_t unseen = UINT16_MAX;
    for (uint32_t i = 0; i < cells; i++) comp[i] = unseen;
    for (uint32_t i = 0; i < cells; i++) {
        const uint64_t *own = cg_has(occ0, i) ? occ0 : cg_has(occ1, i) ? occ1 : NULL;
        if (!own || comp[i] != unseen) continue;
        if (comp[root[i]] != unseen) return false; /* root shared with an earlier group */
        uint32_t top = 0;
        stack[top++] = (uint16_t)i;
        comp[i] = (uint16_t)i;
        while (top) {
            uint32_t x = stack[--top];
            if (root[x] != root[i]) return false;
            for (int k = 0; k < 6; k++) {
                int32_t q = nb[x][k];
                if (q < 0 || comp[q] != unseen || !cg_has(own, (uint32_t)q)) continue;
                comp[q] = (uint16_t)i;
                stack[top++] = (uint16_t)q;
            }
        }
    }
    return true;
}

/* Move text "a1": a column letter (upper case accepted) below 'a' + cols, then a row
 * number 1..rows of one or two digits without a leading zero.  Writes the 0-based
 * column and row; false if the text is not such a cell. */
static inline bool cg_parse_cell(const char *t, uint32_t cols, uint32_t rows, uint32_t *col,
                                 uint32_t *row) {
    char c = (char)(t[0] | 0x20);
    if (c < 'a' || c >= (char)('a' + cols)) return false;
    if (t[1] < '1' || t[1] > '9') return false;
    uint32_t v = (uint32_t)(t[1] - '0');
    if (t[2]) {
        if (t[2] < '0' || t[2] > '9' || t[3]) return false;
        v = v * 10 + (uint32_t)(t[2] - '0');
    }
    if (v > rows) return false;
    *col = (uint32_t)(c - 'a');
    *row = v - 1;
    return true;
}

/* Append formatted text at buf + *at, never past cap (buf stays NUL-terminated); *at
 * counts what was written. */
__attribute__((format(printf, 4, 5))) static inline void cg_put(char *buf, size_t cap,
                                                                size_t *at, const char *fmt,
                                                                ...) {
    if (*at >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *at, cap - *at, fmt, ap);
    va_end(ap);
    *at += w > 0 ? (size_t)w : 0;
}

#endif
