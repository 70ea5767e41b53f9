/* game_api.h -- the public C API of games, as Python (cffi) sees it.
 *
 * Contract:
 *   - Every entry point returns a miai status code (MIAI_OK == 0) unless it is a
 *     plain accessor; results come back through out-parameters.
 *   - Every entry point validates its arguments: no input from Python can make the
 *     core read or write out of bounds.  Bad input gives MIAI_E* codes, never a crash.
 *   - A miai_game is immutable after creation and may be shared by any number of
 *     threads; a state is plain data owned by the caller (copy = memcpy of
 *     miai_game_state_size bytes), used by one thread at a time.
 *   - No global mutable state: every table lives in the game object.
 *
 * This file is read by engine/_build.py into ffi.cdef(): it may contain only
 * typedefs, opaque struct declarations, prototypes and `#define NAME integer` lines
 * (preprocessor guards and includes are stripped by the build module).
 */
#ifndef MIAI_GAME_API_H
#define MIAI_GAME_API_H

#include <stddef.h>
#include <stdint.h>

/* Status codes.  engine/errors.py maps each to an exception class. */
#define MIAI_OK 0
#define MIAI_EINVAL 1      /* malformed argument (NULL, out of range, bad text) */
#define MIAI_EILLEGAL 2    /* a well-formed move that is illegal in this state */
#define MIAI_ENOMEM 3      /* allocation failed or a memory budget is exhausted */
#define MIAI_EUNKNOWN 4    /* unknown game / parameter name */
#define MIAI_ETERMINAL 5   /* the state is terminal: no move can be played */
#define MIAI_ESTATE 6      /* operation not valid in this state (e.g. joint move needed) */
#define MIAI_ECORRUPT 7    /* a consistency check failed (debug `check`) */
#define MIAI_EPARSE 8      /* text could not be parsed (GDL, SGF, ...) */
#define MIAI_ELIMIT 9      /* a time / size bound was hit */

/* to_move values besides a role index 0..n_roles-1. */
#define MIAI_SIMULTANEOUS -1  /* every role moves at once: play needs a joint move */
#define MIAI_NOBODY -2        /* terminal state */

#define MIAI_MAX_ROLES 8
#define MIAI_MAX_PARAMS 4
#define MIAI_NAME_LEN 32
#define MIAI_MOVE_TEXT_LEN 64

typedef uint32_t miai_move;
typedef struct miai_game miai_game;

/* The descriptor of one registered game and its parameters. */
typedef struct {
    char name[MIAI_NAME_LEN];
    uint32_t n_params;
    char param_name[MIAI_MAX_PARAMS][MIAI_NAME_LEN];
    double param_default[MIAI_MAX_PARAMS];
    double param_min[MIAI_MAX_PARAMS];
    double param_max[MIAI_MAX_PARAMS];
    uint8_t param_integer[MIAI_MAX_PARAMS];  /* 1: the value must be a whole number */
} miai_game_info;

/* Static facts of a created game. */
typedef struct {
    uint32_t n_roles;
    uint32_t state_size;   /* bytes; copy a state with memcpy */
    uint32_t num_moves;    /* move ids lie in [0, num_moves) */
    uint32_t max_legal;    /* no role ever has more legal moves than this */
    uint32_t max_plies;    /* a game never lasts longer than this (playout guard) */
    uint32_t simultaneous; /* 1 if some states have to_move == MIAI_SIMULTANEOUS */
} miai_game_facts;

/* Registry of hand-written games. */
uint32_t miai_game_count(void);
int miai_game_describe(uint32_t index, miai_game_info *out);
int miai_game_create(const char *name, const double *params, uint32_t n_params,
                     miai_game **out);
void miai_game_free(miai_game *g);
int miai_game_get_facts(const miai_game *g, miai_game_facts *out);
const char *miai_game_name(const miai_game *g);
const char *miai_status_text(int status);

/* States.  `state` points at miai_game_facts.state_size bytes owned by the caller. */
int miai_state_init(const miai_game *g, void *state);
int miai_state_to_move(const miai_game *g, const void *state, int32_t *out);
int miai_state_is_terminal(const miai_game *g, const void *state, int32_t *out);
int miai_state_ply(const miai_game *g, const void *state, uint32_t *out);
/* The 64-bit Zobrist key (incremental) and the independent second key the DAG uses
 * to verify identity. */
int miai_state_key(const miai_game *g, const void *state, uint64_t *key, uint64_t *key2);
/* Keys recomputed from scratch (tests compare them with the incremental ones). */
int miai_state_key_full(const miai_game *g, const void *state, uint64_t *key,
                        uint64_t *key2);
/* Legal moves of `role` into out[0..cap); *n gets the count (cap >= max_legal). */
int miai_state_legal(const miai_game *g, const void *state, uint32_t role,
                     miai_move *out, uint32_t cap, uint32_t *n);
/* Play one move of the role to move (alternating states). Illegal -> MIAI_EILLEGAL,
 * and the state is unchanged. */
int miai_state_play(const miai_game *g, void *state, miai_move move);
/* Play a joint move: moves[r] for every role r (simultaneous states; also accepted
 * at alternating states, where only the mover's entry is read). */
int miai_state_play_joint(const miai_game *g, void *state, const miai_move *moves,
                          uint32_t n_moves);
/* Rewards per role in [0, 1] of a terminal state. */
int miai_state_rewards(const miai_game *g, const void *state, double *out, uint32_t cap);
int miai_state_render(const miai_game *g, const void *state, char *buf, size_t cap);
int miai_state_check(const miai_game *g, const void *state);
int miai_move_to_text(const miai_game *g, uint32_t role, miai_move move, char *buf,
                      size_t cap);
int miai_move_from_text(const miai_game *g, uint32_t role, const char *text,
                        miai_move *out);

/* n playouts from `state` with the game's playout policy (uniform random by
 * default), all in C.  mean_rewards[r] gets the mean reward of role r;
 * *total_plies the plies played in all.  Same seed, same results.  A game with a way
 * to run a batch at once (GDL nets: 64 games in the lanes of a word, pn_lanes.c) runs
 * the batch that way; miai_playouts_each plays them one by one, each as the search's
 * playouts are played. */
int miai_playouts(const miai_game *g, const void *state, uint64_t n, uint64_t seed,
                  double *mean_rewards, uint32_t cap, uint64_t *total_plies);
int miai_playouts_each(const miai_game *g, const void *state, uint64_t n, uint64_t seed,
                       double *mean_rewards, uint32_t cap, uint64_t *total_plies);

/* Number of leaves at depth `depth` below `state` (perft).  Simultaneous states count
 * joint moves.  Terminal states before `depth` count as leaves of their own depth only
 * when `depth` is reached, i.e. they contribute nothing (standard perft). */
int miai_perft(const miai_game *g, const void *state, uint32_t depth, uint64_t *out);

#endif
