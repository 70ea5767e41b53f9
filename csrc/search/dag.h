/* dag.h -- the search graph: node and edge arenas, the transposition table, re-rooting.
 *
 * Contract:
 *   - Nodes and edges live in two arenas addressed by 32-bit index (MIAI_NIL = none).
 *     A node's out-edges are contiguous: edges[first_edge .. first_edge + n_edges).
 *     A node is created without edges (first_edge == MIAI_NIL: a leaf, it costs no
 *     edge memory); miai_dag_expand gives it one edge per legal move (child =
 *     MIAI_NIL) when the search first descends through it, and child nodes are
 *     created lazily, when an edge is first followed.
 *   - Statistics live on edges (UCD paper, sec. 3.1): n, the payoff sum of the role
 *     that chooses the edge, and n', sum' -- the payoffs received while the
 *     destination had no child (the iteration ended at the destination).  alg_a and
 *     alg_b and the MIAI_EDGE_POLICY bits of flags belong to the active policy.
 *   - Simultaneous nodes (to_move == MIAI_SIMULTANEOUS) hold one block of edges per
 *     role, role 0 first (the role is in the top byte of flags); the statistics of an
 *     edge are its role's (decoupled selection).  Children hang off per joint move in
 *     a linked list of joint links (links arena), created lazily.
 *   - DAG mode: each position has at most one node.  The table is keyed by the
 *     position's first Zobrist key; a hit must also match the second, independent key
 *     (head.key2), so merging two different positions needs a 128-bit collision.
 *     Tree mode: no table, every edge gets a child of its own.
 *   - Memory budget: at most max_nodes nodes and, if max_bytes > 0, at most max_bytes
 *     bytes in all arenas and the table together (miai_dag_bytes_allocated).  Arenas
 *     grow by doubling (less near the byte budget); when a budget is reached or an
 *     allocation fails, new_node returns MIAI_NIL / expand MIAI_ENOMEM and the search
 *     keeps sampling without expanding.  Nothing here ever fails a search.
 *   - Nodes are never freed during a search; reroot() keeps the part of the graph
 *     reachable from the new root and compacts both arenas (indices change; node
 *     order, hence edge order, is kept).
 *   - In-edges (optional, track_parents): parent_head[node] starts a list of in-links
 *     [parent node, from, next]; `from` is an edge index, or MIAI_FROM_LINK | a joint
 *     link index for a simultaneous parent.  Kept current as children are linked and rebuilt by
 *     reroot.  UCD's update-all and ancestor sets a_d(x) walk these lists.
 *   - A dag is used by one thread at a time: the search that owns it, or with
 *     threads (threads.c) whichever of its threads holds the search's lock.
 */
#ifndef MIAI_DAG_H
#define MIAI_DAG_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/game.h"

#define MIAI_NIL UINT32_MAX
#define MIAI_FROM_LINK 0x80000000u  /* in-link `from` names a joint link, not an edge */

/* Edge flags. */
#define MIAI_EDGE_PRUNED 0x1u            /* excluded from selection and final choice */
#define MIAI_EDGE_POLICY 0x00FFFF00u     /* bits owned by the active policy */
#define MIAI_EDGE_ROLE_SHIFT 24          /* role of the edge (simultaneous nodes) */

typedef struct {
    miai_move move;     /* the move of the edge's role */
    uint32_t child;     /* destination node, MIAI_NIL until first followed */
    uint32_t n;         /* payoffs received through this edge */
    uint32_t n_prime;   /* ... of them, while the destination had no child */
    double sum;         /* payoff sum of the choosing role */
    double sum_prime;   /* payoff sum of the n' payoffs */
    double alg_a;       /* owned by the active policy (zero at creation) */
    float alg_b;        /* owned by the active policy (zero at creation) */
    uint32_t flags;     /* MIAI_EDGE_PRUNED, policy bits, role << MIAI_EDGE_ROLE_SHIFT */
} miai_edge;

typedef struct {
    uint64_t key, key2;   /* the position's two Zobrist keys */
    uint32_t first_edge;  /* edges[first_edge .. first_edge + n_edges); MIAI_NIL until
                             the node is expanded */
    uint32_t n_edges;     /* all roles' edges at a simultaneous node */
    uint32_t n;           /* iterations that passed through (or ended at) this node */
    int32_t to_move;      /* role, MIAI_SIMULTANEOUS, MIAI_NOBODY (terminal) */
    uint32_t joint;       /* first joint link (simultaneous nodes), MIAI_NIL if none */
    uint32_t mark;        /* scratch for reroot, which leaves in it the node's first
                             edge before the compaction; free for policies between
                             reroots */
} miai_node;

typedef struct {
    uint32_t n_roles;
    uint32_t tree_mode;   /* 1: no transposition detection */
    uint32_t max_nodes;   /* budget */
    uint64_t max_bytes;   /* budget for all arenas and the table, 0 = none */
    miai_node *nodes;
    uint32_t n_nodes, cap_nodes;
    miai_edge *edges;
    uint32_t n_edges, cap_edges;  /* arena used (edges, lazy room, moved blocks' holes) */
    uint32_t live_edges;  /* edges of the nodes (what the search made) */
    uint32_t *table;      /* DAG mode: open addressing, node index or MIAI_NIL */
    uint32_t table_mask;  /* table size - 1 (size = 2 * cap_nodes, a power of two) */
    uint32_t *links;      /* joint links: [child, next, offset per role] */
    uint32_t link_stride; /* 2 + n_roles */
    uint32_t n_links, cap_links;
    uint32_t root;
    uint64_t refused;     /* expansions refused because the budget was full */
    uint32_t track_parents;
    uint32_t *parent_head; /* per node: first in-link or MIAI_NIL (track_parents only) */
    uint32_t *in_links;    /* triples [parent node, from, next] */
    uint32_t n_in, cap_in;
} miai_dag;

int miai_dag_init(miai_dag *d, uint32_t n_roles, uint32_t tree_mode, uint32_t max_nodes,
                  uint64_t max_bytes, uint32_t track_parents);
void miai_dag_free(miai_dag *d);
/* Forget every node (the arenas are kept). */
void miai_dag_clear(miai_dag *d);

/* The node of the position with these keys, or MIAI_NIL (always MIAI_NIL in tree mode). */
uint32_t miai_dag_lookup(const miai_dag *d, uint64_t key, uint64_t key2);

/* A new leaf node for `state` (no edges yet), entered in the table.  MIAI_NIL when
 * the budget is full. */
uint32_t miai_dag_new_node(miai_dag *d, const void *state);
/* Give `node` (the position `state`) its edges: one per legal move, per role at
 * simultaneous states, none at terminal states or at ply >= max_plies.  `moves` has
 * room for facts.max_legal moves.  No-op if already expanded; MIAI_ENOMEM (node left
 * a leaf) when edge memory is short. */
int miai_dag_expand(miai_dag *d, const miai_game *g, const void *state, uint32_t node,
                    miai_move *moves);
static inline bool miai_dag_expanded(const miai_dag *d, uint32_t node) {
    return d->nodes[node].first_edge != MIAI_NIL;
}

/* Lazy edges (a policy with lazy_edges: plain UCT).  A lazy node is an expanded
 * alternating node whose edges exist only for the moves the search has taken: its
 * `joint` field holds MIAI_DAG_LAZY | (number of legal moves) instead of a link, its
 * n_edges the edges made so far, in the order they were made, in a block of room
 * miai_dag_lazy_room(n_edges, count) (powers of two from 2, at most count), moved to
 * the arena's end when full.  The edge that completes the block sorts it into the
 * legal moves' order and the node becomes an ordinary (eager) one: from then on both
 * are the same.  The root is never lazy (miai_dag_complete). */
#define MIAI_DAG_LAZY 0x80000000u
static inline bool miai_dag_lazy(const miai_node *x) {
    return x->joint != MIAI_NIL && (x->joint & MIAI_DAG_LAZY);
}
static inline uint32_t miai_dag_lazy_count(const miai_node *x) {
    return x->joint & ~MIAI_DAG_LAZY;
}
/* The node's first joint link (MIAI_NIL at a lazy node: it has none). */
static inline uint32_t miai_dag_first_link(const miai_node *x) {
    return miai_dag_lazy(x) ? MIAI_NIL : x->joint;
}
static inline uint32_t miai_dag_lazy_room(uint32_t n_edges, uint32_t count) {
    uint32_t room = 2;
    while (room < n_edges) room *= 2;
    return room < count ? room : count;
}
/* Expand `node` lazily: no edges yet, room for two; as miai_dag_expand otherwise (a
 * terminal state, the ply cap, or no legal move gives an ordinary empty node). */
int miai_dag_expand_lazy(miai_dag *d, const miai_game *g, const void *state, uint32_t node,
                         miai_move *moves);
/* Add the edge of legal move `index` (moves[index]; moves = the node's n_legal legal
 * moves, n_legal == its count) to lazy node `node`, moving its block to the arena's
 * end when full; the edge that completes the node sorts the block into the legal
 * order (and clears the edges' alg_b, where a lazy block keeps each edge's legal
 * index).  Returns the new edge's index, or MIAI_NIL when edge memory is short
 * (nothing changed).  The node's first edge or its order may change: a caller holding
 * edge indices of this node re-finds them by move. */
uint32_t miai_dag_lazy_add(miai_dag *d, uint32_t node, const miai_move *moves,
                           uint32_t n_legal, uint32_t index, uint32_t role);
/* Make a lazy node an ordinary one: one edge per legal move of `state` (role `role`),
 * in their order, the edges made so far kept (with their statistics), followed by any
 * edge whose move is not legal in `state`.  MIAI_ENOMEM (unchanged) when memory is
 * short. */
int miai_dag_complete(miai_dag *d, const miai_game *g, const void *state, uint32_t node,
                      miai_move *moves);

/* Joint links of a simultaneous node: offsets[r] is role r's edge, relative to the
 * node's first edge. */
uint32_t miai_dag_joint_find(const miai_dag *d, uint32_t node, const uint32_t *offsets);
/* Add a link to `child`; returns its index or MIAI_NIL when memory is short. */
uint32_t miai_dag_joint_add(miai_dag *d, uint32_t node, const uint32_t *offsets,
                            uint32_t child);
static inline uint32_t miai_dag_link_child(const miai_dag *d, uint32_t link) {
    return d->links[(uint64_t)link * d->link_stride];
}
static inline uint32_t miai_dag_link_next(const miai_dag *d, uint32_t link) {
    return d->links[(uint64_t)link * d->link_stride + 1];
}
static inline const uint32_t *miai_dag_link_offsets(const miai_dag *d, uint32_t link) {
    return d->links + (uint64_t)link * d->link_stride + 2;
}

/* In-links (track_parents): room for one more (call before linking a child), and
 * recording that `from` (edge index, or MIAI_FROM_LINK | link) now leads to child.
 * Both are no-ops returning MIAI_OK when parents are not tracked. */
int miai_dag_reserve_parent(miai_dag *d);
void miai_dag_add_parent(miai_dag *d, uint32_t child, uint32_t parent, uint32_t from);
static inline uint32_t miai_dag_in_parent(const miai_dag *d, uint32_t in) {
    return d->in_links[3 * (uint64_t)in];
}
static inline uint32_t miai_dag_in_from(const miai_dag *d, uint32_t in) {
    return d->in_links[3 * (uint64_t)in + 1];
}
static inline uint32_t miai_dag_in_next(const miai_dag *d, uint32_t in) {
    return d->in_links[3 * (uint64_t)in + 2];
}

/* Keep what is reachable from new_root, reclaim the rest, compact; new_root becomes
 * d->root.  MIAI_ENOMEM (graph unchanged) if scratch memory is short. */
int miai_dag_reroot(miai_dag *d, uint32_t new_root);

static inline uint32_t miai_edge_role(const miai_edge *e) {
    return e->flags >> MIAI_EDGE_ROLE_SHIFT;
}

/* Memory accounting (the benchmark prints these). */
static inline uint32_t miai_dag_bytes_per_edge(void) { return (uint32_t)sizeof(miai_edge); }
/* Node plus its share of the table (two slots per node at the table's lowest load). */
static inline uint32_t miai_dag_bytes_per_node(uint32_t tree_mode) {
    return (uint32_t)sizeof(miai_node) + (tree_mode ? 0u : 2u * (uint32_t)sizeof(uint32_t));
}
uint64_t miai_dag_bytes_allocated(const miai_dag *d);

#endif
