/* mcts.h -- the search object and one MCTS iteration (descent, expansion, playout,
 * backpropagation), shared by every policy.
 *
 * Contract:
 *   - struct miai_search is owned by one thread at a time; only `stop` is touched by
 *     other threads (C11 atomic).  Policies read and write s->dag and use s->rng.
 *     With cfg.threads > 1 (threads.c) several threads share it during a run, each
 *     taking the run's graph lock (threads.c) around its descent and its backup and installing its own
 *     buffers (work, moves, path, rng, trace) in s while it holds the lock.
 *   - miai_mcts_iterate runs one iteration from s->dag.root and s->root_state:
 *       descent: at an expanded node the policy selects an edge (one per role at a
 *         simultaneous node, joined into a joint move), the move is played on a
 *         copy of the root state;
 *       expansion: the first time an edge (or joint move) is followed, its
 *         destination is looked up (DAG mode) or created as a leaf without edges; a
 *         newly created node ends the descent, an existing one (a transposition) is
 *         descended further.  A leaf gets its edges (and the policy's on_expand
 *         call) when a descent first goes through it;
 *       playout: from the state where the descent ended, with the game's playout
 *         policy; a terminal state gives its rewards, the ply cap a draw (0.5 each);
 *         with cfg.leaf_playouts k > 1, the mean of k playouts from there (a batch
 *         by the game's ops->playouts where it has one); a game with playout memory
 *         (game.h) plays single playouts by ops->playout_learn on the search's own
 *         memory (s->playout_memory, allocated in init, freed in done);
 *       backup: node->n += 1 on every node of the path, then the policy's backup;
 *         with cfg.mast, the MAST table gets each role's reward for every move of the
 *         descent and of the playout (mast.h; k playouts a leaf: each its own).
 *     When the node budget is full the descent ends at the unexpanded edge and the
 *     playout starts from its destination state (path.leaf = MIAI_NIL).
 *   - The descent also ends at ply >= max_plies, so games whose positions repeat
 *     cannot loop in DAG mode.
 */
#ifndef MIAI_MCTS_H
#define MIAI_MCTS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../core/game.h"
#include "../core/rng.h"
#include "dag.h"
#include "policy.h"
#include "ucb_table.h"

struct miai_search {
    const miai_game *game;
    miai_search_config cfg;
    miai_policy policy;
    miai_dag dag;
    miai_rng rng;
    uint8_t *root_state;    /* the root position */
    uint8_t *work;          /* the descent/playout state */
    miai_move *moves;       /* scratch: room for facts.max_legal */
    uint8_t *taken;         /* scratch: facts.max_legal flags (lazy edges) */
    miai_path path;
    atomic_bool stop;
    uint64_t iterations;    /* all runs */
    uint64_t playouts;      /* all runs */
    uint8_t *leaf;          /* leaf_playouts > 1 on a game without a batch op: scratch */
    uint64_t root_iterations;
    double seconds;
    double root_sum[MIAI_MAX_ROLES];  /* rewards per role since the root was set */
    /* Per root edge, since the root was set: rewards of every role (n_roles per edge)
     * and the count, so reports have every role's mean for each root move. */
    double *root_role_sum;
    uint32_t *root_role_n;
    uint32_t root_role_cap;   /* edges the two arrays have room for */
    /* AMAF hook: a policy that sets trace (in its init; it owns the buffer) gets the
     * moves of each iteration's playout in trace[0 .. trace_len) (up to trace_cap),
     * trace_role being the role that made the first (MIAI_NOBODY: no playout). */
    miai_move *trace;
    uint32_t trace_cap, trace_len;
    int32_t trace_role;
    miai_ucb_table ucb;       /* UCB1 terms of small counts (ucb_table.h) */
    /* cfg.threads > 1 (threads.c, whose run holds the graph's lock): seconds the
     * threads held it, waited for it, and ran. */
    double lock_held_seconds, lock_wait_seconds, thread_seconds; /* (search_api.h) */
    void *playout_memory;     /* the game's playout memory (game.h), NULL if none */
    miai_mast mast;           /* cfg.mast: the playout policy's table (mast.h) */
    const void *threads;      /* during a threaded run: its shared data (threads.c) */
};

/* Where one playout of a thread runs: its own state buffer, random stream, trace
 * buffer (AMAF) and counters. */
typedef struct {
    uint8_t *work;
    miai_rng *rng;
    miai_move *trace;      /* NULL: the policy wants no trace */
    uint32_t trace_cap;
    uint32_t *trace_len;
    int32_t *trace_role;
    uint8_t *leaf;         /* leaf_playouts > 1 scratch (may be NULL otherwise) */
    uint64_t *playouts;
    void *playout_memory;  /* the game's playout memory for this thread (game.h), or NULL */
    miai_mast *mast;       /* cfg.mast: the search's MAST table (single thread only) */
} miai_eval;

/* One iteration; `rewards` gets the playout's reward per role.  It is the three
 * phases below in a row (threads.c runs them with the lock around the first and the
 * last, the playout outside it). */
void miai_mcts_iterate(miai_search *s, double *rewards);
/* Descent and expansion from the root into s->path, s->work left at its end. */
void miai_mcts_descend(miai_search *s);
/* The playout (or terminal rewards) from ev->work; reads only s->game and s->cfg
 * (and writes ev->mast, the search's MAST table, when set). */
void miai_mcts_evaluate_on(const miai_search *s, miai_eval *ev, double *rewards);
/* Count the iteration of s->path: node visits, the policy's backup, root reports. */
void miai_mcts_record(miai_search *s, const double *rewards);
/* Virtual loss on the edges of a path in flight: n += amount (add) or n -= amount,
 * the policy's virtual_loss hook for the caches it keeps (policy.h). */
void miai_mcts_virtual_loss(miai_search *s, const miai_path *path, uint32_t amount, bool add);
/* threads.c: the virtual visits that the other threads' paths in flight hold on
 * `edge` (0 outside a threaded run); read with the graph's lock held.  A policy whose
 * decisions must not follow virtual losses (UCT*'s pruning) takes them off e->n. */
uint32_t miai_virtual_visits(const miai_search *s, uint32_t edge);
/* threads.c: miai_search_run with cfg.threads > 1 threads on the one graph. */
int miai_search_run_threads(miai_search *s, uint64_t max_iterations, double max_seconds,
                            uint64_t *done);

/* Set up / tear down the loop's buffers and the root node (search.c calls these). */
int miai_mcts_init(miai_search *s);
void miai_mcts_done(miai_search *s);

/* Make the position in s->root_state the root: reuse its node if the graph has one
 * (child hint first, then the table), else start a fresh graph. */
int miai_mcts_set_root(miai_search *s, uint32_t hint);

#endif
