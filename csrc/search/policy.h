/* policy.h -- the selection/backup policy vtable: how an algorithm plugs into the loop.
 *
 * Contract:
 *   - An algorithm is a miai_policy_ops (functions) chosen by its MIAI_ALG_* id from
 *     the table in policies.c (add one line there per algorithm).  A miai_policy is
 *     the ops, the search config (c, final choice, params[]) and the policy's own
 *     `data` (allocated by init, released by destroy).
 *   - select chooses one edge among edges[first .. first + count) of `node` for `role`
 *     (at a simultaneous node it is called once per role, on that role's block) and
 *     returns its absolute edge index.  It must skip edges with MIAI_EDGE_PRUNED
 *     unless every edge of the block is pruned, and may use s->rng for ties.
 *   - backup gets the whole descent path (every node and chosen edge, root first)
 *     and the rewards per role of the playout, after mcts.c has counted the visit in
 *     every node of the path (node->n).  It owns every edge statistic: n, sum, n',
 *     sum', alg_a/alg_b and the MIAI_EDGE_POLICY flag bits.  miai_backup_descent is
 *     plain UCT's update-descent; UCD's update-all / incremental updates and AUCT's
 *     velocities walk the graph from the path (edges of a node are contiguous, so
 *     siblings are edges[node->first_edge ..]).  Values are written before counts.
 *   - track_parents asks the dag for in-edge lists (dag.h: parent_head, in_links), for
 *     algorithms that update or read ancestors (UCD's update-all, a_d(x)).
 *   - on_expand (optional) runs once when a node gets its edges (its second visit;
 *     the root when it is set): priors, AUCT's virtual child.  s->path then holds the
 *     descent so far -- its last step is the edge that led to the node, whose n' and
 *     sum' are the node's pre-expansion playouts (len == 0 at the root).
 *   - on_reroot (optional) runs right after miai_dag_reroot compacted the graph (the
 *     search keeps the part below a new root): each kept node's `mark` then holds
 *     the index of its first edge before the compaction, so a policy can move
 *     per-edge side data of its own (edge order within a node is kept).
 *   - final (optional) picks the root move; NULL means the configured rule
 *     (most visits or highest mean), see miai_final_default.
 *   - A policy must not allocate during select/backup (the search loop is hot) and
 *     keeps no global mutable state.
 */
#ifndef MIAI_POLICY_H
#define MIAI_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "dag.h"
#include "search_api.h"

typedef struct miai_policy miai_policy;

/* One choice on the descent path: at `node`, `role` followed edge `edge`. */
typedef struct {
    uint32_t node;
    uint32_t edge;
    uint32_t role;
} miai_step;

/* The descent of one iteration. */
typedef struct {
    miai_step *steps;     /* root first; a simultaneous node gives one step per role */
    uint32_t len;
    uint32_t cap;
    uint32_t last_level;  /* index of the first step made at the last node of the path */
    uint32_t leaf;        /* node where the descent ended, or MIAI_NIL when the budget
                             was full and the playout started from an unstored state */
} miai_path;

typedef struct miai_policy_ops {
    const char *name;
    uint32_t track_parents;  /* 1: the dag keeps in-edge lists (UCD's ancestors) */
    uint32_t lazy_edges;     /* 1: nodes below the root get edges as the policy takes
                                them (dag.h, "Lazy edges"; the policy's select must
                                handle lazy nodes) */
    int (*init)(miai_policy *p, miai_search *s);          /* optional */
    void (*destroy)(miai_policy *p);                       /* optional */
    uint32_t (*select)(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                       uint32_t count, uint32_t role);
    void (*on_expand)(miai_policy *p, miai_search *s, uint32_t node); /* optional */
    void (*on_reroot)(miai_policy *p, miai_search *s);                 /* optional */
    void (*backup)(miai_policy *p, miai_search *s, const miai_path *path,
                   const double *rewards);
    uint32_t (*final)(const miai_policy *p, const miai_search *s, uint32_t first,
                      uint32_t count);                     /* optional */
    /* The inspection API's view of `node`'s edges (out[0 .. count), filled from the
     * edges): a policy that stores alg_a/alg_b in its own units (auct.c's lazy decay)
     * turns them into the plain quantities.  Optional. */
    void (*edge_view)(const miai_policy *p, const miai_search *s, uint32_t node,
                      miai_edge_stats *out, uint32_t count);
    /* A cache hint: the descent is about to reach `node` (called while the move is
     * played, like the prefetch of its edges); a policy with per-node data of its own
     * starts loading it.  Must not change anything.  Optional. */
    void (*prefetch)(const miai_policy *p, const miai_search *s, uint32_t node);
    /* Threads (threads.c): a policy with this hook can run with cfg.threads > 1.  It
     * is called after the loop added (add) or removed `amount` virtual visits on every
     * edge of `path` (edge n only: a virtual loss adds no payoff), and brings the
     * caches the policy keeps from edge counts up to date.  Optional; NULL: the
     * search refuses threads > 1 for the algorithm. */
    void (*virtual_loss)(miai_policy *p, miai_search *s, const miai_path *path,
                         uint32_t amount, bool add);
} miai_policy_ops;

struct miai_policy {
    const miai_policy_ops *ops;
    miai_search_config cfg;
    void *data;
};

/* The vtable of an algorithm id, or NULL. */
const miai_policy_ops *miai_policy_for(uint32_t algorithm);

/* Shared helpers for policies (mcts.c). */
/* Plain update-descent: every edge of the path gets n += 1, sum += its role's reward;
 * the last level's edges also n' and sum'. */
void miai_backup_descent(miai_search *s, const miai_path *path, const double *rewards);
/* One step of it: the edge of path step i got reward r (last: i >= path->last_level). */
static inline void miai_backup_step(miai_edge *e, double r, bool last) {
    e->sum += r;
    if (last) {
        e->sum_prime += r;
        e->n_prime++;
    }
    e->n++;
}
/* The configured final rule over edges[first .. first + count), pruned edges skipped
 * unless all are pruned. */
/* The final choice among edges[first .. first+count) without `exclude` flags: most
 * visits (ties: higher mean), or with by_mean the highest mean (ties: more visits);
 * skip_unvisited leaves out edges with n == 0.  MIAI_NIL if none is left. */
uint32_t miai_final_among(const miai_edge *edges, uint32_t first, uint32_t count,
                          uint32_t exclude, bool by_mean, bool skip_unvisited);
uint32_t miai_final_default(const miai_policy *p, const miai_search *s, uint32_t first,
                            uint32_t count);

#endif
