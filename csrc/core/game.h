/* game.h -- the game vtable: the one interface between rules and search.
 *
 * Search, DAG and playout code include this header, never a game's own file.
 * Hand-written games (csrc/games/) and GDL propnets (csrc/gdl/) implement it alike.
 *
 * Contract for an implementation:
 *   - A state is fixed-size plain data of game->facts.state_size bytes that starts
 *     with a miai_head.  Copying a state is memcpy; no pointers inside; no allocation
 *     in init/play/legal/playout.  States are fully initialised (no uninitialised
 *     padding), so memcmp/hashing of whole states is well-defined.
 *   - head.key / head.key2 are the two independent 64-bit Zobrist keys of the
 *     *position* (everything that determines the future of the game, including the
 *     side to move; not the ply), updated incrementally by play.  ops->key_full
 *     recomputes them from scratch.  Tables come from zobrist_fill() with a seed
 *     fixed by the game and its parameters, so keys are stable across processes.
 *   - head.to_move is the acting role, MIAI_SIMULTANEOUS or MIAI_NOBODY (terminal);
 *     play keeps it current, so terminal tests are one load.
 *   - Moves are ids in [0, facts.num_moves); text conversion does not depend on the
 *     state.  `legal` writes at most facts.max_legal moves.
 *   - `play` is given a joint move indexed by role; at an alternating state only
 *     moves[head.to_move] is read.  The caller (game.c) has already checked legality,
 *     so play may assume a legal move.
 *   - Rewards are per role in [0, 1]; only asked of terminal states.
 *   - The vtable and the game object are immutable after create: a game may be
 *     shared by threads.  All per-game constant data (Zobrist tables, neighbour
 *     tables) hangs off game->data.
 */
#ifndef MIAI_GAME_H
#define MIAI_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game_api.h"
#include "mast.h"
#include "rng.h"

typedef struct {
    uint64_t key;     /* Zobrist key of the position */
    uint64_t key2;    /* second, independent key (identity check in the DAG) */
    int32_t to_move;  /* role, MIAI_SIMULTANEOUS, or MIAI_NOBODY when terminal */
    uint32_t ply;     /* plies played since the initial state */
} miai_head;

typedef struct miai_game_ops {
    /* Write the initial state. */
    void (*init)(const miai_game *g, void *state);
    /* Legal moves of `role` into out (room for facts.max_legal); returns the count.
     * A role that is not to move at an alternating state has 0 legal moves. */
    uint32_t (*legal)(const miai_game *g, const void *state, uint32_t role, miai_move *out);
    /* Apply a legal joint move (moves[role]); keep head current. */
    void (*play)(const miai_game *g, void *state, const miai_move *moves);
    /* Rewards per role in [0, 1] of a terminal state. */
    void (*rewards)(const miai_game *g, const void *state, double *out);
    /* Recompute both keys from scratch. */
    void (*key_full)(const miai_game *g, const void *state, uint64_t *key, uint64_t *key2);
    /* Move text; stateless.  Returns MIAI_OK or MIAI_EINVAL. */
    int (*move_to_text)(const miai_game *g, uint32_t role, miai_move move, char *buf,
                        size_t cap);
    int (*move_from_text)(const miai_game *g, uint32_t role, const char *text,
                          miai_move *out);
    /* Human-readable board, NUL-terminated, truncated to cap. */
    void (*render)(const miai_game *g, const void *state, char *buf, size_t cap);
    /* Optional (NULL = generic): play the game out from `state` with the game's
     * playout policy, recording each ply's moves in trace (n_roles entries per ply for
     * simultaneous plies, one otherwise) while trace_cap allows; trace may be NULL.
     * Returns the number of plies played.  Must stop at facts.max_plies. */
    uint32_t (*playout)(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                        uint32_t trace_cap, uint32_t *trace_len);
    /* Optional (NULL = miai_generic_playout_mast): the playout with MAST's policy
     * (mast.h) instead of the game's own: every mover's move drawn by
     * miai_mast_pick from the table, as the search that owns it asks.  Otherwise as
     * `playout` (trace included). */
    uint32_t (*playout_mast)(const miai_game *g, void *state, miai_rng *rng,
                             miai_move *trace, uint32_t trace_cap, uint32_t *trace_len,
                             miai_mast *mast);
    /* Optional (NULL = one by one): n playouts from `state` with the game's playout
     * policy, sum[r] the sum of role r's rewards (0.5 each at the ply cap), *plies the
     * plies played; the state is not changed.  MIAI_ELIMIT: not for this batch (the
     * caller plays them one by one); MIAI_ENOMEM. */
    int (*playouts)(const miai_game *g, const void *state, uint64_t n, miai_rng *rng,
                    double *sum, uint64_t *plies);
    /* Optional (NULL = always OK): recompute derived data (bitboard unions, group
     * liberties, ...) and compare; returns MIAI_OK or MIAI_ECORRUPT. */
    int (*check)(const miai_game *g, const void *state);
    /* Release game->data. */
    void (*destroy)(miai_game *g);

    /* Optional knowledge hooks a search may use (NULL = the game offers none).  A
     * search asks only through these, never a game's own header. */
    /* Prior knowledge of moves[0..n) at `state`: kind[i] = +1 (a good move), -1 (a bad
     * one) or 0.  MIAI_OK, or an error (the search then goes without). */
    int (*prior_kinds)(const miai_game *g, const void *state, const miai_move *moves,
                       uint32_t n, int8_t *kind);
    /* Graded prior knowledge, asked before prior_kinds: q[i] in [0, 1], the share of
     * a prior's virtual visits that are wins (0.5: no opinion).  MIAI_OK, or an error
     * (the search then asks prior_kinds). */
    int (*prior_values)(const miai_game *g, const void *state, const miai_move *moves,
                        uint32_t n, float *q);
    /* Ownership of a finished position, per point of the board: the number of points
     * (> 0), and owner_add adding 1 to first[p] for each point p owned by role 0 and to
     * second[p] for each one owned by role 1 (cap >= the number of points; MIAI_OK or
     * MIAI_EINVAL). */
    uint32_t (*owner_points)(const miai_game *g);
    int (*owner_add)(const miai_game *g, const void *state, uint32_t *first,
                     uint32_t *second, uint32_t cap);
    /* Optional playout memory (NULL = none): what a game's playouts learn across one
     * search's playouts (e.g. Go's last-good-reply table).  playout_memory gives the
     * bytes one search needs (0 = none for these parameters); the search callocs them
     * (all zero = nothing learnt), keeps them for its lifetime and hands them, never
     * shared with another thread, to playout_learn, which plays out as ops->playout
     * does (same trace contract) while reading and updating the memory. */
    size_t (*playout_memory)(const miai_game *g);
    uint32_t (*playout_learn)(const miai_game *g, void *state, miai_rng *rng, void *memory,
                              miai_move *trace, uint32_t trace_cap, uint32_t *trace_len);
} miai_game_ops;

struct miai_game {
    const miai_game_ops *ops;
    miai_game_facts facts;
    char name[MIAI_NAME_LEN];
    void *data;  /* per-game constant data, owned by the game */
};

/* A registered game: its descriptor and constructor.  `params` are validated against
 * the descriptor (count, range, integrality) before create is called. */
typedef struct {
    miai_game_info info;
    int (*create)(const double *params, miai_game *g);
} miai_game_entry;

static inline miai_head *miai_head_of(void *state) { return (miai_head *)state; }
static inline const miai_head *miai_chead_of(const void *state) {
    return (const miai_head *)state;
}

/* Generic playout: uniformly random legal moves until terminal or max_plies. */
uint32_t miai_generic_playout(const miai_game *g, void *state, miai_rng *rng,
                              miai_move *trace, uint32_t trace_cap, uint32_t *trace_len);

/* The generic playout with MAST's choice of every mover's move (mast.h); with mast
 * NULL exactly miai_generic_playout. */
uint32_t miai_generic_playout_mast(const miai_game *g, void *state, miai_rng *rng,
                                   miai_move *trace, uint32_t trace_cap,
                                   uint32_t *trace_len, miai_mast *mast);

/* Play out with MAST (ops->playout_mast, or the generic one). */
static inline uint32_t miai_game_playout_mast(const miai_game *g, void *state, miai_rng *rng,
                                              miai_move *trace, uint32_t trace_cap,
                                              uint32_t *trace_len, miai_mast *mast) {
    if (g->ops->playout_mast)
        return g->ops->playout_mast(g, state, rng, trace, trace_cap, trace_len, mast);
    return miai_generic_playout_mast(g, state, rng, trace, trace_cap, trace_len, mast);
}

/* Play out with the game's policy (ops->playout, or the generic one). */
static inline uint32_t miai_game_playout(const miai_game *g, void *state, miai_rng *rng,
                                         miai_move *trace, uint32_t trace_cap,
                                         uint32_t *trace_len) {
    if (g->ops->playout)
        return g->ops->playout(g, state, rng, trace, trace_cap, trace_len);
    return miai_generic_playout(g, state, rng, trace, trace_cap, trace_len);
}

/* A playout's rewards: the game's where it is over, 0.5 each at the ply cap (a draw). */
static inline void miai_game_outcome(const miai_game *g, const void *state, double *out) {
    if (miai_chead_of(state)->to_move == MIAI_NOBODY) {
        g->ops->rewards(g, state, out);
    } else {
        for (uint32_t r = 0; r < g->facts.n_roles; r++) out[r] = 0.5;
    }
}

/* n playouts from `state` (unchanged): sum[r] the sum of role r's rewards (0.5 at the
 * ply cap), *plies the plies played.  With `batch`, by ops->playouts where the game
 * runs this batch at once; else (or when it declines) one by one on `scratch`
 * (state_size bytes).  A declined batch draws nothing from rng. */
void miai_game_playouts(const miai_game *g, const void *state, uint64_t n, miai_rng *rng,
                        void *scratch, bool batch, double *sum, uint64_t *plies);

/* Is `move` legal for `role` in `state`?  (Generic: scans ops->legal.) */
bool miai_game_is_legal(const miai_game *g, const void *state, uint32_t role,
                        miai_move move);

#endif
