/* gdl_api.h -- a GDL game from a flat propositional network (built in Python).
 *
 * Contract:
 *   - miai_gdl_create validates every array and index of the description before it
 *     builds anything: bad kinds, out-of-range inputs or arguments, unordered nodes,
 *     malformed ranges, missing texts give MIAI_EINVAL (too big: MIAI_ELIMIT), never a
 *     crash.  The description is copied: the caller may free it on return.
 *   - Nodes come in evaluation order: every input of node i is < i, except inside a
 *     range [lo, hi) (a cycle of positive recursion), where inputs are < hi; C then
 *     evaluates the range to its least fixpoint.  A NOT inside a range reads a node
 *     below lo.  Nodes 0 and 1 are the constants false and true.
 *   - The result is an ordinary miai_game (game.h): a state is a miai_head, the bits of
 *     the base propositions, the bits of the legal moves of every role and, once the
 *     game is over, each role's goal (one byte per role).  Moves of a
 *     role are indices into its list (move_text).  to_move is the one role with more
 *     than one legal move, else role 0 when every role has exactly one (the others'
 *     single moves are filled in by play), else MIAI_SIMULTANEOUS; terminal, or a role
 *     without legal moves, gives MIAI_NOBODY.  Rewards are goal / 100 (the largest
 *     goal that holds; 0 when none).  Zobrist keys come from one table entry per base
 *     proposition, seeded with desc->seed (a hash of the rules).
 */
#ifndef MIAI_GDL_API_H
#define MIAI_GDL_API_H

#include <stdint.h>

#include "../core/game_api.h"

#define MIAI_PN_FALSE 0
#define MIAI_PN_TRUE 1
#define MIAI_PN_BASE 2   /* arg = base proposition index */
#define MIAI_PN_INPUT 3  /* arg = global move index (role 0's moves first) */
#define MIAI_PN_AND 4
#define MIAI_PN_OR 5
#define MIAI_PN_NOT 6
#define MIAI_PN_MOVESET 7 /* arg = set index: true when some role plays a move of the set */
#define MIAI_PN_MAX_NODES 1048576  /* node values live on the stack during evaluation */
#define MIAI_PN_MAX_FAMILY 65535   /* bases of one mutex family */

typedef struct {
    uint32_t n_nodes;
    const uint8_t *kind;          /* [n_nodes] MIAI_PN_* */
    const uint32_t *arg;          /* [n_nodes] */
    const uint32_t *first_in;     /* [n_nodes + 1] offsets into in */
    const uint32_t *in;           /* [first_in[n_nodes]] input node indices */
    uint32_t n_ranges;
    const uint32_t *range_lo;     /* [n_ranges] cyclic blocks [lo, hi), increasing */
    const uint32_t *range_hi;
    uint32_t n_base;
    const uint32_t *next_node;    /* [n_base] node giving the next value of each base */
    const uint8_t *init;          /* [n_base] initial value, 0 or 1 */
    const char *const *base_text; /* [n_base] KIF text, for render */
    uint32_t n_roles;             /* 1..MIAI_MAX_ROLES */
    const uint32_t *n_moves;      /* [n_roles] */
    const uint32_t *legal_node;   /* [total moves] */
    /* Optional (both NULL, or both set): a move whose flag is 1 is legal when its
     * legal_node and its role's guard node (1, true, for none) both hold -- whose turn
     * it is, taken out of every legal AND of an alternating game. */
    const uint32_t *legal_guard;  /* [n_roles] */
    const uint8_t *legal_guarded; /* [total moves] 0 or 1 */
    const char *const *move_text; /* [total moves] normalised KIF text */
    uint32_t n_sets;              /* move sets (an OR of INPUT nodes, as a bitset) */
    const uint32_t *set_first;    /* [n_sets + 1] offsets into set_move */
    const uint32_t *set_move;     /* global move indices, of one role or several */
    uint32_t terminal_node;
    uint32_t n_goals;
    const uint32_t *goal_role;    /* [n_goals] */
    const uint32_t *goal_value;   /* [n_goals] 0..100 */
    const uint32_t *goal_node;    /* [n_goals] */
    /* Optional (n_families 0): mutex families, sets of base propositions of which at
     * most one holds in every reachable state (proved in engine/gdl/mutex.py).  Each
     * family has 2..MIAI_PN_MAX_FAMILY bases, a base lies in one family at most, and at
     * most one base of a family is initially true.  The differential engine sends a
     * change to the ANDs reading a family's members through the member that holds
     * (pn_diff.c); a state where two members hold (the rules do not allow one) is
     * played by the plain evaluation instead. */
    uint32_t n_families;
    const uint32_t *family_first; /* [n_families + 1] offsets into family_base */
    const uint32_t *family_base;  /* base indices */
    /* Optional (0): mutex families of gates (AND, OR, NOT nodes), of which at most one
     * holds in any reachable state under any joint move (one move per role, or none):
     * 2..MIAI_PN_MAX_FAMILY gates each, a gate in one family at most. */
    uint32_t n_gate_families;
    const uint32_t *gate_family_first; /* [n_gate_families + 1] offsets */
    const uint32_t *gate_family_node;  /* node indices */
    uint32_t max_plies;
    uint64_t seed;
    const char *name;
} miai_gdl_desc;

/* Build a game from a propnet description (validated; copied). */
int miai_gdl_create(const miai_gdl_desc *desc, miai_game **out);

/* Legal moves of `role` as the rules give them, whoever is to move (the ops->legal of
 * the game gives none to a role that is not to move): a GGP player needs its noop. */
int miai_gdl_state_legal_all(const miai_game *g, const void *state, uint32_t role,
                             miai_move *out, uint32_t cap, uint32_t *n);

/* The values of the base propositions of a state of a GDL game, one byte each. */
int miai_gdl_state_bases(const miai_game *g, const void *state, uint8_t *out, uint32_t cap);

/* The playout engines of a GDL game: the one its playouts use (bits where enabled,
 * else the differential engine the way chosen when the game was made), the
 * differential engine (pn_diff.c) keeping the joint move on between plies, the
 * word-parallel evaluation of small nets (pn_bits.c), the differential engine clearing
 * the joint move before the bases propagate. */
#define MIAI_GDL_ENGINE_AUTO 0
#define MIAI_GDL_ENGINE_DIFF 1
#define MIAI_GDL_ENGINE_BITS 2
#define MIAI_GDL_ENGINE_DIFF_CLEAR 3
#define MIAI_GDL_ENGINE_NONE 4 /* miai_gdl_playout_engine: the generic loop over play() */

/* The engine this game's random playouts use: MIAI_GDL_ENGINE_BITS, _DIFF, _DIFF_CLEAR
 * or _NONE, in *engine. */
int miai_gdl_playout_engine(const miai_game *g, int *engine);

/* How the differential engine follows the mutex families: its groups (a node's edges
 * into the ANDs one family guards) and guarded ANDs; 0 and 0 when it follows none
 * (no family, none worth it on the calibration playouts, or no differential engine). */
int miai_gdl_family_stats(const miai_game *g, uint32_t *groups, uint32_t *guarded);

/* Test of a playout engine: one random playout from `state` with `seed`, each ply also
 * played by the plain evaluation and the two states compared byte for byte (the
 * differential engine also compares, at the start and after every ply, every node
 * value, gate counter, next-state and legal bit and legal-move count with a plain
 * evaluation of the whole net); then the generic playout loop with the same seed must
 * give the same moves and the same final state.  MIAI_OK when all agree (*plies = the
 * playout's length), MIAI_ECORRUPT on any difference, MIAI_ELIMIT when the engine is
 * not built for this net (too big; bits: a cyclic range too), MIAI_EINVAL for another
 * engine number. */
int miai_gdl_playout_check(const miai_game *g, const void *state, uint64_t seed,
                           int engine, uint32_t *plies);

/* Test of MAST's playouts (csrc/core/mast.h) on a playout engine (as
 * miai_gdl_playout_check names them): n playouts from `state`, each drawing the movers'
 * moves from a table that learns from the playouts before it (epsilon-greedy with
 * `eps`, or Gibbs at `temp` > 0; each move gets its role's reward once a playout
 * ends), against the same on the generic loop over play() with its own table and the
 * same seed.  MIAI_OK when every playout's moves, final state and both tables agree
 * (*plies = the plies of all), MIAI_ECORRUPT on a difference, MIAI_ELIMIT when the
 * engine is not built for this net.  n at most MIAI_GDL_LANE_TRACE_MAX. */
int miai_gdl_mast_check(const miai_game *g, const void *state, uint64_t seed, int engine,
                        uint32_t n, double eps, double temp, uint64_t *plies);

/* Test of the differential engine's batches (the batch op where the lanes decline):
 * n playouts from `state` with `seed` on one work block, each after the first started
 * from where the last one ended -- always with `restart` 1, else only where fewer
 * bases differ that way than from the snapshot, counting the copy it saves (the op's
 * rule) -- with sum[r] the sum of role r's rewards (0.5 at the ply cap) and *plies the
 * plies: the same as n playouts one by one with that seed.  n at most
 * MIAI_GDL_BATCH_MAX; MIAI_ELIMIT without the differential engine (net too big, or
 * the word-parallel evaluation comes first). */
#define MIAI_GDL_BATCH_MAX 1048576
int miai_gdl_diff_playouts(const miai_game *g, const void *state, uint64_t n, uint64_t seed,
                           int restart, double *sum, uint32_t cap, uint64_t *plies);

/* The least batch of playouts (miai_playouts) that runs in the lanes, in *n (0: none
 * does). */
int miai_gdl_lanes_min_batch(const miai_game *g, uint32_t *n);

/* The lanes' guarded blocks (pn_internal.h), the gates in them, and the work a ply of
 * the lanes counts with them (the nodes and edges it evaluates, a block's as often as
 * its guard was true in the calibration batch, plus the moves and bases; 0 for all
 * three when the net has no lanes). */
int miai_gdl_lanes_blocks(const miai_game *g, uint32_t *blocks, uint32_t *gates,
                          uint64_t *work);

/* Test of the lanes (pn_lanes.c, where miai_playouts runs batches 64 games at a time):
 * n playouts from `state` with `seed`, recording for playout i (in the order they
 * start) and its ply p < cap each role r's number of legal moves in
 * counts[(i * cap + p) * n_roles + r] and its move in moves[...] (the same index),
 * its plies in plies[i] and its rewards in rewards[i * n_roles + r].  n and cap at most
 * MIAI_GDL_LANE_TRACE_MAX; MIAI_ELIMIT when the net is too big for the lanes. */
#define MIAI_GDL_LANE_TRACE_MAX 4096
int miai_gdl_lane_playouts(const miai_game *g, const void *state, uint32_t n, uint64_t seed,
                           uint32_t cap, miai_move *moves, uint32_t *counts, uint32_t *plies,
                           double *rewards);

#endif
