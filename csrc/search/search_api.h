/* search_api.h -- the public C API of the MCTS search, as Python (cffi) sees it.
 *
 * Contract:
 *   - A miai_search owns its graph, its root state and its miai_rng (seeded from
 *     config.seed): no global state, so any number of searches may live in one
 *     process and run in different threads.  One search is used by one thread at a
 *     time, except miai_search_stop, which any thread may call at any time; with
 *     config.threads > 1, miai_search_run itself runs that many threads on the search
 *     (threads.c) and returns when all have stopped.
 *   - miai_search_run runs iterations in C until max_iterations or max_seconds (or a
 *     stop request); the caller (cffi) has released the GIL.  With an iteration
 *     budget the statistics depend only on the seed and the total number of
 *     iterations, not on how they were split into calls.
 *   - Every entry point validates its arguments and returns a MIAI_* status code;
 *     results come back through out-parameters.  A search never fails or overruns
 *     its node budget: when the budget is full it stops expanding and keeps sampling.
 *   - Root moves are addressed by their index in the root's edge list (the order of
 *     the game's legal moves; at a simultaneous root, role 0's block first).
 *
 * Read into cffi's cdef by engine/_build.py: only typedefs, opaque structs,
 * prototypes and `#define NAME integer` lines.
 */
#ifndef MIAI_SEARCH_API_H
#define MIAI_SEARCH_API_H

#include <stddef.h>
#include <stdint.h>

#include "../core/game_api.h"

/* Algorithms (policy ids); csrc/search/policies.c maps each to its vtable. */
#define MIAI_ALG_UCT 0
#define MIAI_ALG_UCD 1       /* ucd.c */
#define MIAI_ALG_AUCT 2      /* auct.c */
#define MIAI_ALG_DUCT 3      /* auct.c */
#define MIAI_ALG_UCTSTAR 4   /* uctstar.c: UCT*, MCTS*, UCT with the solver */
#define MIAI_ALG_RAVE 5      /* rave.c: RAVE/AMAF with priors */
#define MIAI_ALG_AUCT_RAVE 6 /* rave.c: RAVE with the accelerated ratio of auct.c */
#define MIAI_ALG_COUNT 7

#define MIAI_MODE_TREE 0   /* no transposition detection */
#define MIAI_MODE_DAG 1    /* one node per position */

#define MIAI_FINAL_VISITS 0  /* final move: most visited (ties: higher mean) */
#define MIAI_FINAL_MEAN 1    /* final move: highest mean (ties: more visits) */

#define MIAI_SEARCH_PARAMS 8
#define MIAI_SEARCH_TRACK_PARENTS 1  /* config.flags: keep in-edge lists in any case */
#define MIAI_EDGE_FLAG_PRUNED 1

typedef struct miai_search miai_search;

typedef struct {
    uint32_t algorithm;     /* MIAI_ALG_* */
    uint32_t mode;          /* MIAI_MODE_* */
    uint32_t final_choice;  /* MIAI_FINAL_* */
    uint32_t max_nodes;     /* node budget, >= 1 */
    uint32_t flags;         /* MIAI_SEARCH_TRACK_PARENTS */
    uint64_t max_bytes;     /* graph memory budget in bytes, 0 = none (>= 64 KiB) */
    uint64_t seed;
    double c;               /* exploration constant, finite and >= 0 */
    double params[MIAI_SEARCH_PARAMS];  /* algorithm-specific, documented per policy */
    /* Playouts from each leaf, their mean rewards backed up as the iteration's (0 or 1:
     * one; at most MIAI_LEAF_PLAYOUTS_MAX).  A game with a way to run a batch at once
     * runs them so (GDL nets: the lanes, 64 games at a time, csrc/gdl/pn_lanes.c).
     * Not with RAVE (MIAI_ALG_RAVE, MIAI_ALG_AUCT_RAVE): its AMAF reads the one
     * playout's moves. */
    uint32_t leaf_playouts;
    /* Threads searching the one graph in miai_search_run (0 or 1: the calling thread
     * alone, the single-threaded loop).  > 1 only for algorithms with a virtual loss
     * rule (miai_search_threads_ok: UCT, RAVE, UCT*, MCTS*), not with leaf_playouts > 1
     * (with mast each thread learns in its own copy of the table, merged after the
     * run). */
    uint32_t threads;
    /* Virtual loss with threads > 1: visits counted as losses on each edge of a path
     * whose playout is running, taken back at its backup.  0: none. */
    uint32_t virtual_loss;
    /* MAST (csrc/core/mast.h): 1 draws the playouts' moves from a table of every
     * (role, move)'s mean reward kept by this search across its iterations and moves
     * (0: the game's own playout policy).  mast_temp > 0: Gibbs choice at that
     * temperature (rewards 0..1); else epsilon-greedy with mast_eps in [0, 1]. */
    uint32_t mast;
    double mast_eps;
    double mast_temp;
} miai_search_config;

#define MIAI_LEAF_PLAYOUTS_MAX 1024
#define MIAI_THREADS_MAX 256
#define MIAI_VIRTUAL_LOSS_MAX 1000

/* 1 if `algorithm` (MIAI_ALG_*) can run with threads > 1, else 0. */
int miai_search_threads_ok(uint32_t algorithm);

/* One edge as reports and tests see it. */
typedef struct {
    miai_move move;
    uint32_t role;          /* the role choosing this edge */
    uint32_t child;         /* node index, or 0xFFFFFFFF if not created */
    uint32_t n;
    uint32_t n_prime;
    uint32_t flags;         /* MIAI_EDGE_FLAG_PRUNED | policy bits */
    double mean;            /* sum / n for the edge's role (0 when n == 0) */
    double sum;
    double sum_prime;
    double alg_a;
    double alg_b;
} miai_edge_stats;

typedef struct {
    uint64_t key;
    uint64_t key2;
    int32_t to_move;
    uint32_t n;             /* iterations through this node */
    uint32_t n_edges;
    uint32_t n_links;       /* joint children (simultaneous nodes) */
} miai_node_stats;

typedef struct {
    uint64_t iterations;    /* total since creation (all runs) */
    uint64_t root_iterations; /* since the current root was set */
    uint32_t nodes;
    uint32_t edges;
    uint32_t root;          /* node index of the root */
    uint32_t max_nodes;
    uint64_t refused;       /* expansions refused: budget full */
    uint64_t bytes_allocated; /* the search object and its graph */
    uint64_t graph_bytes;     /* the graph alone (what max_bytes bounds) */
    uint32_t bytes_per_edge;
    uint32_t bytes_per_node;
    double seconds;         /* time spent in miai_search_run, all runs */
    uint64_t playouts;      /* playouts run, all runs (leaf_playouts a leaf; none at a
                             * terminal leaf) */
    /* Runs with threads > 1, all runs, summed over the threads (wall clock): the time
     * they held the search's lock, waited for it, and ran (lock_held / thread_seconds
     * is the serial part of the work that bounds the speedup; docs/search.md). */
    double lock_held_seconds;
    double lock_wait_seconds;
    double thread_seconds;
    /* cfg.mast: rewards the table holds, over every (role, move) (0 without MAST). */
    uint64_t mast_samples;
} miai_search_info;

int miai_search_create(const miai_game *g, const void *state, const miai_search_config *cfg,
                       miai_search **out);
void miai_search_free(miai_search *s);

/* Run until max_iterations more iterations (0 = no iteration limit) or max_seconds
 * (<= 0 = no time limit) or a stop request; at least one limit is required.
 * *done gets the number of iterations run.  A terminal root runs none (MIAI_OK). */
int miai_search_run(miai_search *s, uint64_t max_iterations, double max_seconds,
                    uint64_t *done);
/* Ask a running miai_search_run to return; callable from any thread. */
int miai_search_stop(miai_search *s);
/* Clear a stop request (before the next run). */
int miai_search_clear_stop(miai_search *s);

int miai_search_get_info(const miai_search *s, miai_search_info *out);
/* Copy the root state into out (cap >= state size). */
int miai_search_root_state(const miai_search *s, void *out, size_t cap);
/* Mean reward per role over the iterations since the root was set. */
int miai_search_root_values(const miai_search *s, double *out, uint32_t cap);

/* Mean reward of every role (out[r], cap >= n_roles) over the iterations through root
 * edge `index` since the root was set; *count gets their number (means are 0 if 0). */
int miai_search_root_role_means(const miai_search *s, uint32_t index, double *out,
                                uint32_t cap, uint64_t *count);
/* Edges of the root; *n gets the count (cap >= it, else MIAI_EINVAL). */
int miai_search_root_edges(const miai_search *s, miai_edge_stats *out, uint32_t cap,
                           uint32_t *n);
/* Exclude (pruned = 1) or re-admit (0) the root edge `index` from selection.  A root
 * reused from the graph may hold edges of moves illegal in the real root state (a
 * position reached by another history, e.g. Go's superko); those are pruned when the
 * root is set and re-admitting one is MIAI_EINVAL. */
int miai_search_set_pruned(miai_search *s, uint32_t index, int pruned);
/* The final choice (configured rule) at the root: root edge index of role `role`'s
 * move (role is ignored at alternating roots).  MIAI_ESTATE if the root is terminal. */
int miai_search_best(const miai_search *s, uint32_t role, uint32_t *index);
/* The edge the selection policy would choose now at the root for `role`, without
 * changing any statistic or the search's random stream. */
int miai_search_select_root(miai_search *s, uint32_t role, uint32_t *index);
/* Principal variation by the final-choice rule: one entry per role at simultaneous
 * nodes (to_move[i] == MIAI_SIMULTANEOUS), one per ply otherwise. */
int miai_search_pv(const miai_search *s, miai_move *moves, uint32_t *roles,
                   int32_t *to_move, uint32_t cap, uint32_t *len);

/* Play a move (alternating root: moves[0] or moves[mover]) or a joint move at the
 * root; keep the graph below the new root, reclaim the rest. */
int miai_search_advance(miai_search *s, const miai_move *moves, uint32_t n_moves);

/* Graph inspection (tests, tools). */
int miai_search_node(const miai_search *s, uint32_t node, miai_node_stats *out);
int miai_search_node_edges(const miai_search *s, uint32_t node, miai_edge_stats *out,
                           uint32_t cap, uint32_t *n);
/* In-edges of a node (only when parents are tracked, else MIAI_ESTATE): the parent
 * node and, for an alternating parent, the edge index relative to its first edge; for
 * a simultaneous parent, edges[i] = 0xFFFFFFFF (the joint link is not an edge). */
int miai_search_node_parents(const miai_search *s, uint32_t node, uint32_t *parents,
                             uint32_t *edges, uint32_t cap, uint32_t *n);
/* Joint children of a simultaneous node: children[i] and, per link, n_roles edge
 * offsets (relative to the node's first edge) in offsets[i * n_roles + r]. */
int miai_search_node_links(const miai_search *s, uint32_t node, uint32_t *children,
                           uint32_t *offsets, uint32_t cap, uint32_t *n);

#endif
