/* dag.c -- node and edge arenas, the transposition table, joint links, re-rooting. */
#include "dag.h"

#include <stdlib.h>
#include <string.h>

#define MIAI_DAG_FIRST_NODES 256u
#define MIAI_DAG_MAX_EDGES 0x7FFFFFFFu

static uint32_t table_slot(uint64_t key, uint32_t mask) {
    /* Zobrist keys are uniform: the low bits index directly. */
    return (uint32_t)key & mask;
}

static void table_insert(miai_dag *d, uint32_t node) {
    uint32_t i = table_slot(d->nodes[node].key, d->table_mask);
    while (d->table[i] != MIAI_NIL) i = (i + 1) & d->table_mask;
    d->table[i] = node;
}

static void table_rebuild(miai_dag *d) {
    if (d->tree_mode) return;
    memset(d->table, 0xFF, ((size_t)d->table_mask + 1) * sizeof *d->table);
    for (uint32_t i = 0; i < d->n_nodes; i++) table_insert(d, i);
}

static uint64_t table_size_for(uint64_t cap_nodes) {
    uint64_t size = 1;
    while (size < 2 * cap_nodes) size *= 2;
    return size;
}

/* Bytes of the node arena, its parent heads and the table at capacity cap. */
static uint64_t node_bytes(const miai_dag *d, uint64_t cap) {
    uint64_t per = sizeof(miai_node) + (d->track_parents ? sizeof(uint32_t) : 0);
    return cap * per + (d->tree_mode ? 0 : table_size_for(cap) * sizeof(uint32_t));
}

/* The capacity to grow to: `want`, or less (not below `need`) to stay within the byte
 * budget; 0 if even `need` does not fit.  `now` and `then(cap)` are the bytes of the
 * arena being grown, before and at capacity cap. */
static uint64_t budget_cap(const miai_dag *d, uint64_t need, uint64_t want, uint64_t now,
                           uint64_t (*then)(const miai_dag *, uint64_t)) {
    if (!d->max_bytes) return want;
    uint64_t others = miai_dag_bytes_allocated(d) - now;
    uint64_t cap = want;
    while (others + then(d, cap) > d->max_bytes) {
        if (cap == need) return 0;
        cap = need + (cap - need) / 2;
    }
    return cap;
}

static uint64_t edge_bytes(const miai_dag *d, uint64_t cap) {
    (void)d;
    return cap * sizeof(miai_edge);
}

static uint64_t link_bytes(const miai_dag *d, uint64_t cap) {
    return cap * d->link_stride * sizeof(uint32_t);
}

static uint64_t in_link_bytes(const miai_dag *d, uint64_t cap) {
    (void)d;
    return cap * 3 * sizeof(uint32_t);
}

/* Grow the node arena (and the table with it) to hold at least `need` nodes. */
static int grow_nodes(miai_dag *d, uint32_t need) {
    if (need <= d->cap_nodes) return MIAI_OK;
    if (need > d->max_nodes) return MIAI_ENOMEM;
    uint64_t cap = d->cap_nodes ? d->cap_nodes : MIAI_DAG_FIRST_NODES;
    while (cap < need) cap *= 2;
    if (cap > d->max_nodes) cap = d->max_nodes;
    cap = budget_cap(d, need, cap, d->cap_nodes ? node_bytes(d, d->cap_nodes) : 0, node_bytes);
    if (!cap) return MIAI_ENOMEM;
    miai_node *nodes = realloc(d->nodes, (size_t)cap * sizeof *nodes);
    if (!nodes) return MIAI_ENOMEM;
    d->nodes = nodes;
    if (d->track_parents) {
        uint32_t *heads = realloc(d->parent_head, (size_t)cap * sizeof *heads);
        if (!heads) return MIAI_ENOMEM;
        d->parent_head = heads;
    }
    if (!d->tree_mode) {
        uint64_t size = table_size_for(cap);
        uint32_t *table = malloc((size_t)size * sizeof *table);
        if (!table) return MIAI_ENOMEM; /* nodes grew, capacity did not: still consistent */
        free(d->table);
        d->table = table;
        d->table_mask = (uint32_t)(size - 1);
        d->cap_nodes = (uint32_t)cap;
        table_rebuild(d);
    } else {
        d->cap_nodes = (uint32_t)cap;
    }
    return MIAI_OK;
}

static int grow_edges(miai_dag *d, uint64_t need) {
    if (need <= d->cap_edges) return MIAI_OK;
    if (need > MIAI_DAG_MAX_EDGES) return MIAI_ENOMEM;
    uint64_t cap = d->cap_edges ? d->cap_edges : 1024u;
    while (cap < need) cap *= 2;
    if (cap > MIAI_DAG_MAX_EDGES) cap = MIAI_DAG_MAX_EDGES;
    cap = budget_cap(d, need, cap, edge_bytes(d, d->cap_edges), edge_bytes);
    if (!cap) return MIAI_ENOMEM;
    miai_edge *edges = realloc(d->edges, (size_t)cap * sizeof *edges);
    if (!edges) return MIAI_ENOMEM;
    d->edges = edges;
    d->cap_edges = (uint32_t)cap;
    return MIAI_OK;
}

static int grow_links(miai_dag *d, uint32_t need) {
    if (need <= d->cap_links) return MIAI_OK;
    if (need >= MIAI_NIL / 2) return MIAI_ENOMEM;
    uint64_t cap = d->cap_links ? d->cap_links : 256u;
    while (cap < need) cap *= 2;
    cap = budget_cap(d, need, cap, link_bytes(d, d->cap_links), link_bytes);
    if (!cap) return MIAI_ENOMEM;
    uint32_t *links = realloc(d->links, (size_t)cap * d->link_stride * sizeof *links);
    if (!links) return MIAI_ENOMEM;
    d->links = links;
    d->cap_links = (uint32_t)cap;
    return MIAI_OK;
}

int miai_dag_init(miai_dag *d, uint32_t n_roles, uint32_t tree_mode, uint32_t max_nodes,
                  uint64_t max_bytes, uint32_t track_parents) {
    if (!d || n_roles == 0 || n_roles > MIAI_MAX_ROLES || max_nodes == 0 ||
        max_nodes >= MIAI_NIL / 2)
        return MIAI_EINVAL;
    memset(d, 0, sizeof *d);
    d->n_roles = n_roles;
    d->tree_mode = tree_mode ? 1u : 0u;
    d->max_nodes = max_nodes;
    d->link_stride = 2 + n_roles;
    d->root = MIAI_NIL;
    d->track_parents = track_parents ? 1u : 0u;
    d->max_bytes = max_bytes;
    /* First capacities: 256 nodes, 1024 edges (less to fit max_bytes). */
    int rc = grow_nodes(d, 1);
    if (rc == MIAI_OK) rc = grow_edges(d, 1);
    if (rc != MIAI_OK) miai_dag_free(d);
    return rc;
}

void miai_dag_free(miai_dag *d) {
    if (!d) return;
    free(d->nodes);
    free(d->edges);
    free(d->table);
    free(d->links);
    free(d->parent_head);
    free(d->in_links);
    memset(d, 0, sizeof *d);
    d->root = MIAI_NIL;
}

void miai_dag_clear(miai_dag *d) {
    d->n_nodes = 0;
    d->n_edges = 0;
    d->live_edges = 0;
    d->n_links = 0;
    d->n_in = 0;
    d->root = MIAI_NIL;
    table_rebuild(d);
}

int miai_dag_reserve_parent(miai_dag *d) {
    if (!d->track_parents || d->n_in < d->cap_in) return MIAI_OK;
    if (d->cap_in >= MIAI_NIL / 8) return MIAI_ENOMEM;
    uint32_t cap = (uint32_t)budget_cap(d, d->cap_in + 1u, d->cap_in ? 2 * d->cap_in : 1024u,
                                        in_link_bytes(d, d->cap_in), in_link_bytes);
    if (!cap) return MIAI_ENOMEM;
    uint32_t *in = realloc(d->in_links, (size_t)cap * 3 * sizeof *in);
    if (!in) return MIAI_ENOMEM;
    d->in_links = in;
    d->cap_in = cap;
    return MIAI_OK;
}

void miai_dag_add_parent(miai_dag *d, uint32_t child, uint32_t parent, uint32_t from) {
    if (!d->track_parents || d->n_in >= d->cap_in) return;
    uint32_t l = d->n_in++;
    d->in_links[3 * (uint64_t)l] = parent;
    d->in_links[3 * (uint64_t)l + 1] = from;
    d->in_links[3 * (uint64_t)l + 2] = d->parent_head[child];
    d->parent_head[child] = l;
}

/* Every in-link from scratch (after reroot): never needs more room than before. */
static void parents_rebuild(miai_dag *d) {
    if (!d->track_parents) return;
    d->n_in = 0;
    for (uint32_t i = 0; i < d->n_nodes; i++) d->parent_head[i] = MIAI_NIL;
    for (uint32_t i = 0; i < d->n_nodes; i++) {
        const miai_node *x = &d->nodes[i];
        for (uint32_t k = 0; k < x->n_edges; k++) {
            uint32_t c = d->edges[x->first_edge + k].child;
            if (c != MIAI_NIL) miai_dag_add_parent(d, c, i, x->first_edge + k);
        }
        for (uint32_t l = miai_dag_first_link(x); l != MIAI_NIL; l = miai_dag_link_next(d, l))
            miai_dag_add_parent(d, miai_dag_link_child(d, l), i, MIAI_FROM_LINK | l);
    }
}

uint32_t miai_dag_lookup(const miai_dag *d, uint64_t key, uint64_t key2) {
    if (d->tree_mode) return MIAI_NIL;
    uint32_t i = table_slot(key, d->table_mask);
    for (;;) {
        uint32_t node = d->table[i];
        if (node == MIAI_NIL) return MIAI_NIL;
        const miai_node *x = &d->nodes[node];
        if (x->key == key && x->key2 == key2) return node;
        i = (i + 1) & d->table_mask;
    }
}

uint32_t miai_dag_new_node(miai_dag *d, const void *state) {
    if (d->n_nodes >= d->max_nodes || grow_nodes(d, d->n_nodes + 1) != MIAI_OK) {
        d->refused++;
        return MIAI_NIL;
    }
    const miai_head *h = miai_chead_of(state);
    uint32_t id = d->n_nodes++;
    miai_node *x = &d->nodes[id];
    x->key = h->key;
    x->key2 = h->key2;
    x->first_edge = MIAI_NIL;
    x->n_edges = 0;
    x->n = 0;
    x->to_move = h->to_move;
    x->joint = MIAI_NIL;
    x->mark = 0;
    if (d->track_parents) d->parent_head[id] = MIAI_NIL;
    if (!d->tree_mode) table_insert(d, id);
    return id;
}

int miai_dag_expand(miai_dag *d, const miai_game *g, const void *state, uint32_t node,
                    miai_move *moves) {
    if (d->nodes[node].first_edge != MIAI_NIL) return MIAI_OK;
    const miai_head *h = miai_chead_of(state);
    uint32_t first = d->n_edges, count = 0;
    bool open = h->to_move != MIAI_NOBODY && h->ply < g->facts.max_plies;
    if (open) {
        uint32_t r0 = h->to_move == MIAI_SIMULTANEOUS ? 0 : (uint32_t)h->to_move;
        uint32_t r1 = h->to_move == MIAI_SIMULTANEOUS ? d->n_roles : r0 + 1;
        for (uint32_t r = r0; r < r1; r++) {
            uint32_t n = g->ops->legal(g, state, r, moves);
            if (grow_edges(d, (uint64_t)first + count + n) != MIAI_OK) {
                d->refused++;
                return MIAI_ENOMEM;
            }
            for (uint32_t i = 0; i < n; i++) {
                miai_edge *e = &d->edges[first + count + i];
                memset(e, 0, sizeof *e);
                e->move = moves[i];
                e->child = MIAI_NIL;
                e->flags = r << MIAI_EDGE_ROLE_SHIFT;
            }
            count += n;
        }
    }
    d->n_edges = first + count;
    d->live_edges += count;
    d->nodes[node].first_edge = first;
    d->nodes[node].n_edges = count;
    return MIAI_OK;
}

int miai_dag_expand_lazy(miai_dag *d, const miai_game *g, const void *state, uint32_t node,
                         miai_move *moves) {
    if (d->nodes[node].first_edge != MIAI_NIL) return MIAI_OK;
    const miai_head *h = miai_chead_of(state);
    if (h->to_move == MIAI_NOBODY || h->to_move == MIAI_SIMULTANEOUS ||
        h->ply >= g->facts.max_plies)
        return miai_dag_expand(d, g, state, node, moves);
    uint32_t n = g->ops->legal(g, state, (uint32_t)h->to_move, moves);
    if (n < 2 || n >= MIAI_DAG_LAZY) return miai_dag_expand(d, g, state, node, moves);
    uint32_t first = d->n_edges, room = miai_dag_lazy_room(0, n);
    if (grow_edges(d, (uint64_t)first + room) != MIAI_OK) {
        d->refused++;
        return MIAI_ENOMEM;
    }
    d->n_edges = first + room;
    d->nodes[node].first_edge = first;
    d->nodes[node].n_edges = 0;
    d->nodes[node].joint = MIAI_DAG_LAZY | n;
    return MIAI_OK;
}

/* Sort the n edges from `first` into the order of moves[0 .. n) (each move once). */
static void sort_by_moves(miai_dag *d, uint32_t first, const miai_move *moves, uint32_t n) {
    miai_edge *e = d->edges + first;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i;
        while (j < n && e[j].move != moves[i]) j++;
        if (j < n && j != i) {
            miai_edge t = e[i];
            e[i] = e[j];
            e[j] = t;
        }
    }
}

uint32_t miai_dag_lazy_add(miai_dag *d, uint32_t node, const miai_move *moves,
                           uint32_t n_legal, uint32_t index, uint32_t role) {
    miai_node *x = &d->nodes[node];
    uint32_t count = miai_dag_lazy_count(x), have = x->n_edges;
    if (have >= count || n_legal != count || index >= n_legal) return MIAI_NIL;
    if (have == miai_dag_lazy_room(have, count)) { /* full: a block twice the room */
        uint32_t room = miai_dag_lazy_room(have + 1, count), to = d->n_edges;
        if (grow_edges(d, (uint64_t)to + room) != MIAI_OK) {
            d->refused++;
            return MIAI_NIL;
        }
        x = &d->nodes[node];
        if (have) memcpy(&d->edges[to], &d->edges[x->first_edge], (size_t)have * sizeof(miai_edge));
        x->first_edge = to;
        d->n_edges = to + room;
    }
    miai_edge *e = &d->edges[x->first_edge + have];
    memset(e, 0, sizeof *e);
    e->move = moves[index];
    e->child = MIAI_NIL;
    e->flags = role << MIAI_EDGE_ROLE_SHIFT;
    e->alg_b = (float)index;
    x->n_edges = have + 1;
    d->live_edges++;
    if (x->n_edges < count) return x->first_edge + have;
    /* Complete: the legal order, as miai_dag_expand would have made it. */
    sort_by_moves(d, x->first_edge, moves, count);
    for (uint32_t i = 0; i < count; i++) d->edges[x->first_edge + i].alg_b = 0.0f;
    x->joint = MIAI_NIL;
    return x->first_edge + index;
}

int miai_dag_complete(miai_dag *d, const miai_game *g, const void *state, uint32_t node,
                      miai_move *moves) {
    miai_node *x = &d->nodes[node];
    if (!miai_dag_lazy(x)) return MIAI_OK;
    const miai_head *h = miai_chead_of(state);
    uint32_t role = (uint32_t)h->to_move, have = x->n_edges;
    uint32_t n = g->ops->legal(g, state, role, moves);
    /* The legal moves the node lacks, then the whole block: legal order, then the
     * edges whose move is not legal here (another history's: kept, with their stats). */
    uint32_t extra = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = 0;
        while (j < have && d->edges[x->first_edge + j].move != moves[i]) j++;
        if (j == have) extra++;
    }
    uint32_t total = have + extra, to = d->n_edges;
    if (grow_edges(d, (uint64_t)to + total) != MIAI_OK) {
        d->refused++;
        return MIAI_ENOMEM;
    }
    x = &d->nodes[node];
    miai_edge *out = &d->edges[to];
    const miai_edge *old = &d->edges[x->first_edge];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = 0;
        while (j < have && old[j].move != moves[i]) j++;
        if (j < have) {
            out[k] = old[j];
        } else {
            memset(&out[k], 0, sizeof out[k]);
            out[k].move = moves[i];
            out[k].child = MIAI_NIL;
            out[k].flags = role << MIAI_EDGE_ROLE_SHIFT;
        }
        k++;
    }
    for (uint32_t j = 0; j < have; j++) {
        uint32_t i = 0;
        while (i < n && moves[i] != old[j].move) i++;
        if (i == n) out[k++] = old[j];
    }
    for (uint32_t i = 0; i < total; i++) out[i].alg_b = 0.0f;
    x->first_edge = to;
    x->n_edges = total;
    x->joint = MIAI_NIL;
    d->n_edges = to + total;
    d->live_edges += extra;
    return MIAI_OK;
}

uint32_t miai_dag_joint_find(const miai_dag *d, uint32_t node, const uint32_t *offsets) {
    for (uint32_t l = d->nodes[node].joint; l != MIAI_NIL; l = miai_dag_link_next(d, l))
        if (memcmp(miai_dag_link_offsets(d, l), offsets, d->n_roles * sizeof *offsets) == 0)
            return l;
    return MIAI_NIL;
}

uint32_t miai_dag_joint_add(miai_dag *d, uint32_t node, const uint32_t *offsets,
                            uint32_t child) {
    if (grow_links(d, d->n_links + 1) != MIAI_OK) {
        d->refused++;
        return MIAI_NIL;
    }
    uint32_t l = d->n_links++;
    uint32_t *slot = d->links + (uint64_t)l * d->link_stride;
    slot[0] = child;
    slot[1] = d->nodes[node].joint;
    memcpy(slot + 2, offsets, d->n_roles * sizeof *offsets);
    d->nodes[node].joint = l;
    return l;
}

/* Children of a node: its edges' destinations and its joint links' destinations. */
static void mark_reachable(miai_dag *d, uint32_t root, uint32_t *stack) {
    for (uint32_t i = 0; i < d->n_nodes; i++) d->nodes[i].mark = 0;
    uint32_t top = 0;
    d->nodes[root].mark = 1;
    stack[top++] = root;
    while (top) {
        const miai_node *x = &d->nodes[stack[--top]];
        for (uint32_t k = 0; k < x->n_edges; k++) {
            uint32_t c = d->edges[x->first_edge + k].child;
            if (c != MIAI_NIL && !d->nodes[c].mark) {
                d->nodes[c].mark = 1;
                stack[top++] = c;
            }
        }
        for (uint32_t l = miai_dag_first_link(x); l != MIAI_NIL; l = miai_dag_link_next(d, l)) {
            uint32_t c = miai_dag_link_child(d, l);
            if (!d->nodes[c].mark) {
                d->nodes[c].mark = 1;
                stack[top++] = c;
            }
        }
    }
}

typedef struct {
    uint32_t first, node;
} edge_block;

/* Edges a node's block holds room for: its edges, or a lazy node's room. */
static uint32_t block_room(const miai_node *x) {
    return miai_dag_lazy(x) ? miai_dag_lazy_room(x->n_edges, miai_dag_lazy_count(x))
                            : x->n_edges;
}

static int block_order(const void *a, const void *b) {
    uint32_t x = ((const edge_block *)a)->first, y = ((const edge_block *)b)->first;
    return (x > y) - (x < y);
}

int miai_dag_reroot(miai_dag *d, uint32_t new_root) {
    if (new_root >= d->n_nodes) return MIAI_EINVAL;
    uint32_t *stack = malloc((size_t)d->n_nodes * sizeof *stack);
    edge_block *blocks = malloc((size_t)d->n_nodes * sizeof *blocks);
    uint32_t *links = NULL;
    if (d->n_links) links = malloc((size_t)d->n_links * d->link_stride * sizeof *links);
    if (!stack || !blocks || (d->n_links && !links)) {
        free(stack);
        free(blocks);
        free(links);
        return MIAI_ENOMEM;
    }
    mark_reachable(d, new_root, stack);
    free(stack);
    /* New indices in old order, so moving nodes and edges down in place is safe. */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < d->n_nodes; i++)
        d->nodes[i].mark = d->nodes[i].mark ? kept++ : MIAI_NIL;
    /* Remap destinations while every old index still holds its own mark. */
    uint32_t n_links = 0;
    for (uint32_t i = 0; i < d->n_nodes; i++) {
        miai_node *x = &d->nodes[i];
        if (x->mark == MIAI_NIL) continue;
        for (uint32_t k = 0; k < x->n_edges; k++) {
            miai_edge *e = &d->edges[x->first_edge + k];
            if (e->child != MIAI_NIL) e->child = d->nodes[e->child].mark;
        }
        /* Copy this node's joint links into the new link arena, order kept. */
        if (miai_dag_lazy(x)) continue; /* no links: `joint` is its move count */
        uint32_t head = MIAI_NIL, *prev_next = &head;
        for (uint32_t l = x->joint; l != MIAI_NIL; l = miai_dag_link_next(d, l)) {
            uint32_t *dst = links + (uint64_t)n_links * d->link_stride;
            memcpy(dst, d->links + (uint64_t)l * d->link_stride,
                   d->link_stride * sizeof *dst);
            dst[0] = d->nodes[dst[0]].mark;
            dst[1] = MIAI_NIL;
            *prev_next = n_links;
            prev_next = &dst[1];
            n_links++;
        }
        x->joint = head;
    }
    /* Nodes move down in index order; edge blocks (allocated when a node is expanded,
     * so not in node order) move down in the order of their old position. */
    uint32_t root = d->nodes[new_root].mark, n_edges = 0, n_blocks = 0, live = 0;
    for (uint32_t i = 0; i < d->n_nodes; i++) {
        const miai_node *x = &d->nodes[i];
        if (x->mark != MIAI_NIL && x->first_edge != MIAI_NIL && block_room(x))
            blocks[n_blocks++] = (edge_block){.first = x->first_edge, .node = x->mark};
    }
    qsort(blocks, n_blocks, sizeof *blocks, block_order);
    for (uint32_t i = 0; i < d->n_nodes; i++) {
        miai_node x = d->nodes[i];
        if (x.mark == MIAI_NIL) continue;
        uint32_t to = x.mark;
        x.mark = x.first_edge; /* for the policy's on_reroot (policy.h) */
        d->nodes[to] = x;
    }
    for (uint32_t b = 0; b < n_blocks; b++) {
        miai_node *x = &d->nodes[blocks[b].node];
        if (x->first_edge != n_edges)
            memmove(&d->edges[n_edges], &d->edges[x->first_edge],
                    (size_t)x->n_edges * sizeof(miai_edge));
        x->first_edge = n_edges;
        n_edges += block_room(x);
        live += x->n_edges;
    }
    for (uint32_t i = 0; i < kept; i++)  /* expanded leaves keep a valid (empty) block */
        if (d->nodes[i].first_edge != MIAI_NIL && d->nodes[i].n_edges == 0 &&
            !miai_dag_lazy(&d->nodes[i]))
            d->nodes[i].first_edge = n_edges;
    free(blocks);
    d->root = root;
    d->n_nodes = kept;
    d->n_edges = n_edges;
    d->live_edges = live;
    free(d->links);
    d->links = links;
    d->n_links = n_links;
    d->cap_links = n_links;
    table_rebuild(d);
    parents_rebuild(d);
    return MIAI_OK;
}

uint64_t miai_dag_bytes_allocated(const miai_dag *d) {
    return (uint64_t)d->cap_nodes * sizeof(miai_node) +
           (uint64_t)d->cap_edges * sizeof(miai_edge) +
           (d->tree_mode ? 0 : ((uint64_t)d->table_mask + 1) * sizeof(uint32_t)) +
           (uint64_t)d->cap_links * d->link_stride * sizeof(uint32_t) +
           (d->track_parents ? (uint64_t)d->cap_nodes * sizeof(uint32_t) : 0) +
           (uint64_t)d->cap_in * 3 * sizeof(uint32_t);
}
