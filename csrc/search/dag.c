/* dag.c -- node and edge arenas, the transposition table, joint links, re-rooting. */
#include "dag.h"

#include <stdlib.h>
#include <string.h>

#define MIAI_DAG_FIRST_NODES 1024u
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

/* Grow the node arena (and the table with it) to hold at least `need` nodes. */
static int grow_nodes(miai_dag *d, uint32_t need) {
    if (need <= d->cap_nodes) return MIAI_OK;
    if (need > d->max_nodes) return MIAI_ENOMEM;
    uint64_t cap = d->cap_nodes ? d->cap_nodes : MIAI_DAG_FIRST_NODES;
    while (cap < need) cap *= 2;
    if (cap > d->max_nodes) cap = d->max_nodes;
    miai_node *nodes = realloc(d->nodes, (size_t)cap * sizeof *nodes);
    if (!nodes) return MIAI_ENOMEM;
    d->nodes = nodes;
    if (!d->tree_mode) {
        uint64_t size = 1;
        while (size < 2 * cap) size *= 2;
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
    uint64_t cap = d->cap_edges ? d->cap_edges : 4096u;
    while (cap < need) cap *= 2;
    if (cap > MIAI_DAG_MAX_EDGES) cap = MIAI_DAG_MAX_EDGES;
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
    uint32_t *links = realloc(d->links, (size_t)cap * d->link_stride * sizeof *links);
    if (!links) return MIAI_ENOMEM;
    d->links = links;
    d->cap_links = (uint32_t)cap;
    return MIAI_OK;
}

int miai_dag_init(miai_dag *d, uint32_t n_roles, uint32_t tree_mode, uint32_t max_nodes) {
    if (!d || n_roles == 0 || n_roles > MIAI_MAX_ROLES || max_nodes == 0 ||
        max_nodes >= MIAI_NIL / 2)
        return MIAI_EINVAL;
    memset(d, 0, sizeof *d);
    d->n_roles = n_roles;
    d->tree_mode = tree_mode ? 1u : 0u;
    d->max_nodes = max_nodes;
    d->link_stride = 2 + n_roles;
    d->root = MIAI_NIL;
    uint32_t first = max_nodes < MIAI_DAG_FIRST_NODES ? max_nodes : MIAI_DAG_FIRST_NODES;
    int rc = grow_nodes(d, first);
    if (rc == MIAI_OK) rc = grow_edges(d, 4096u);
    if (rc != MIAI_OK) miai_dag_free(d);
    return rc;
}

void miai_dag_free(miai_dag *d) {
    if (!d) return;
    free(d->nodes);
    free(d->edges);
    free(d->table);
    free(d->links);
    memset(d, 0, sizeof *d);
    d->root = MIAI_NIL;
}

void miai_dag_clear(miai_dag *d) {
    d->n_nodes = 0;
    d->n_edges = 0;
    d->n_links = 0;
    d->root = MIAI_NIL;
    table_rebuild(d);
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

uint32_t miai_dag_new_node(miai_dag *d, const miai_game *g, const void *state,
                           miai_move *moves) {
    if (d->n_nodes >= d->max_nodes || grow_nodes(d, d->n_nodes + 1) != MIAI_OK) {
        d->refused++;
        return MIAI_NIL;
    }
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
                return MIAI_NIL;
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
    uint32_t id = d->n_nodes++;
    d->n_edges = first + count;
    miai_node *x = &d->nodes[id];
    x->key = h->key;
    x->key2 = h->key2;
    x->first_edge = first;
    x->n_edges = count;
    x->n = 0;
    x->to_move = h->to_move;
    x->joint = MIAI_NIL;
    x->mark = 0;
    if (!d->tree_mode) table_insert(d, id);
    return id;
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
        for (uint32_t l = x->joint; l != MIAI_NIL; l = miai_dag_link_next(d, l)) {
            uint32_t c = miai_dag_link_child(d, l);
            if (!d->nodes[c].mark) {
                d->nodes[c].mark = 1;
                stack[top++] = c;
            }
        }
    }
}

int miai_dag_reroot(miai_dag *d, uint32_t new_root) {
    if (new_root >= d->n_nodes) return MIAI_EINVAL;
    uint32_t *stack = malloc((size_t)d->n_nodes * sizeof *stack);
    uint32_t *links = NULL;
    if (d->n_links) links = malloc((size_t)d->n_links * d->link_stride * sizeof *links);
    if (!stack || (d->n_links && !links)) {
        free(stack);
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
    uint32_t root = d->nodes[new_root].mark, n_edges = 0;
    for (uint32_t i = 0; i < d->n_nodes; i++) {
        miai_node x = d->nodes[i];
        if (x.mark == MIAI_NIL) continue;
        if (x.n_edges && x.first_edge != n_edges)
            memmove(&d->edges[n_edges], &d->edges[x.first_edge],
                    (size_t)x.n_edges * sizeof(miai_edge));
        x.first_edge = n_edges;
        n_edges += x.n_edges;
        uint32_t to = x.mark;
        x.mark = 0;
        d->nodes[to] = x;
    }
    d->root = root;
    d->n_nodes = kept;
    d->n_edges = n_edges;
    free(d->links);
    d->links = links;
    d->n_links = n_links;
    d->cap_links = n_links;
    table_rebuild(d);
    return MIAI_OK;
}

uint64_t miai_dag_bytes_allocated(const miai_dag *d) {
    return (uint64_t)d->cap_nodes * sizeof(miai_node) +
           (uint64_t)d->cap_edges * sizeof(miai_edge) +
           (d->tree_mode ? 0 : ((uint64_t)d->table_mask + 1) * sizeof(uint32_t)) +
           (uint64_t)d->cap_links * d->link_stride * sizeof(uint32_t);
}
