/* ucd.c -- UCD: UCT on rooted directed acyclic graphs (Saffidine, Cazenave, Mehat;
 * ucd.txt).
 *
 * Parameters: cfg.c; params[0..2] = d1, d2, d3 (a depth >= 0, or < 0 for infinity);
 * params[3] = backup: 0 update-descent, 1 update-all, 2 the incremental update of
 * section 3.4; params[4] = prime: whose n', mu' eq. (10) and (12) read (below);
 * params[5] = payoffs: 0 auto, 1 general (below); params[MIAI_PARAM_SOLVER] (one or
 * two roles only).
 *
 * Payoffs.  With one role, or two whose rewards sum to 1, an edge's statistics for
 * the other role are n - sum (miai_q_for) and the per-node sums are kept for the
 * node's mover only.  With more than two roles (or payoffs = general) nothing is
 * assumed of the rewards: side arrays keep every role's payoff totals, per edge (Rs:
 * all n payoffs, Rp: the n' part) and per node (GA = A, GQ = Q0, PQ = node n' totals,
 * one entry per role), and after each playout the sums of the playout node's
 * ancestors are recomputed from their edges, children first (the eq. (15) deltas are
 * kept for the two-role case).  If memory for them runs out, such a search goes on
 * with the edges' own statistics (depth 0: plain decoupled UCT values).
 *
 * n'(e), mu'(e) (sec. 2: the payoffs attached to x between its apparition and its
 * first child, "x a node or an edge"):
 *   - prime = edge (default): the edge's own, as eq. (10) and (12) are written;
 *     the payoffs of the playouts that started at e's destination and came through e;
 *   - prime = node: those of e's destination node y, whichever in-edge they came
 *     through: n'(y) = playouts that started at y (P below).  With it every in-edge
 *     of y has mu_1 = the mean of y's payoffs and n_1 = y's visits (update-descent),
 *     so (1, 0, 1) is exactly the simple transposition table of section 2 (node
 *     statistics, parent term eq. (2)'s p = payoffs the children got through the
 *     parent).  An edge without a destination (the node budget was full) keeps its
 *     own n', mu'.
 *
 * Selection value of an edge e (sec. 3.4): u(e) = mu_d1(e) + c sqrt(log p_d2(e) / n_d3(e)),
 * infinite when n_d3(e) = 0.  Depths >= 2 are computed by the recursions (10), (12),
 * (13) at selection time, down to depth 1, which is read from the sums (cost b^(d-1)
 * per edge).  Depths 1 and infinity are read from per-node
 * sums (A, B, C, Q0 below) and a per-edge cache of mu_inf, n_inf (and mu_1, n_1 when
 * some depth is 1):
 *   - backup 2 (incremental) keeps them exact after every playout: the ancestors of
 *     the playout's node are visited children first; an edge off the path changes
 *     its origin's A by n(e) (mu_new(e) - mu_old(e)), eq. (15) times the origin's
 *     denominator; path edges also change n, n', sum';
 *   - backup 1 (update-all) keeps them the same way while it updates every ancestor
 *     edge once;
 *   - backup 0 (update-descent) recomputes them below a node before each use (the
 *     paper's plain method; its cost grows with the graph below the node).
 * If memory for the sums cannot be had, depth infinity falls back to the recursion
 * bounded by max_plies + 1 and update-all to update-descent.
 *
 * Exactness: means are carried as payoff totals q = mu * n, and mu * n is taken as
 * the total itself whenever the denominator of eq. (10) equals n (always, without
 * transpositions).  So in a tree every depth gives bit for bit UCT's values and,
 * with the shared tie rule, UCT's choices (rewards that are multiples of 1/2^k).
 *
 * Speed: for the depths read from the sums (d1, d3 in {0, 1, inf}, d2 in {0, inf},
 * two-role payoffs) the selection is one pass over the edges (ucd_select_fast) with
 * p_d2 taken from the node's kept C or B, and sqrt(1/n_d3), sqrt(log p_d2) from the
 * search's UCB table when the counts are in it -- the same bits as computing them.
 *
 * Per node y (indexed like the DAG's nodes, grown in on_expand; ucd_sums):
 *   A(y) = sum over y's edges f of q_inf(f) = mu_inf(f) n(f)  (role of y's mover)
 *   B(y) = sum of n(f)          C(y) = sum of n_inf(f)      Q0(y) = sum of sum(f)
 * so that mu_inf(e) = (sum'(e) + A(y)) / (n'(e) + B(y)) (eq. 14, 10),
 * n_inf(e) = n'(e) + C(y) (eq. 12), mu_1(e) = (sum'(e) + Q0(y)) / (n'(e) + B(y)) and
 * n_1(e) = n'(e) + B(y) for an edge e into y.  After a re-root (indices
 * change) the sums and the in-edge lists are rebuilt from the graph.
 */
#include <stdlib.h>
#include <string.h>

#include "algos.h"
#include "variants_api.h"

enum { UCD_DESCENT = 0, UCD_ALL = 1, UCD_INCREMENTAL = 2 };

/* The kept sums of one node (one cache line for the selection's reads). */
typedef struct {
    double a, b, c;  /* A, B, C of the file comment */
    double q0;       /* Q0: sum of the edges' payoff totals (depth 1) */
    int32_t mover;   /* role of the node's edges; -1 when it has none */
    uint32_t unused;
} ucd_sums;

/* n'(y) and its payoff total for role 0 of a node y (prime = node), and y's keys
 * (to carry it across a re-root). */
typedef struct {
    double n, q;
    uint64_t key, key2;
} ucd_prime;

/* mu_inf(e) and n_inf(e) of one edge, read by the selection without touching the
 * children (edges of a node are contiguous, so are these); mu_1(e) and n_1(e) in a
 * second array, kept only when a depth is 1 (nothing else reads them). */
typedef struct {
    double mu, n;    /* depth infinity */
} ucd_cache;
typedef struct {
    double mu1, n1;  /* depth 1 */
} ucd_cache1;

typedef struct {
    double depth[3];           /* d1, d2, d3; INFINITY for infinity */
    uint32_t backup;
    bool solver;
    bool node_prime;           /* prime = node: n', mu' of the destination (P) */
    bool general;              /* payoffs of every role kept (Rs, Rp, GA, GQ, PQ) */
    uint32_t nr;               /* roles */
    bool broken;               /* an allocation failed: sums are no longer kept */
    bool recurse;              /* no sums at all (memory): infinity by bounded recursion */
    bool refresh;              /* sums recomputed below a node before each use */
    bool fast;                 /* depths the one-pass selection handles (ucd_select_fast) */
    int mu_kind, n_kind;       /* ... and how it reads d1 and d3 (UCD_AT_*) */
    double inf_depth;          /* the recursion's bound for infinity: max_plies + 1 */
    uint32_t cap_nodes, cap_edges;
    ucd_sums *S;               /* per node */
    ucd_sums *D;               /* per node, scratch of one update: the changes */
    ucd_cache *E;              /* per edge: mu_inf and n_inf (contiguous for selection) */
    ucd_cache1 *E1;            /* per edge: mu_1 and n_1, when keep1 */
    bool keep1;                /* some depth is 1: E1 kept */
    ucd_prime *P;              /* per node, prime = node only: n'(y), its payoff total */
    double *Rs, *Rp;           /* general: per edge x role, payoff totals of n and n' */
    double *GA, *GQ;           /* general: per node x role, A and Q0 */
    double *PQ;                /* general and prime = node: per node x role, n'(y) totals */
    uint32_t *in_head;         /* per node: first in-edge */
    uint32_t *in_next;         /* per edge: next in-edge of the same child */
    uint32_t *origin;          /* per edge: the node it leaves */
    uint32_t *stamp;           /* per node: visit stamp of the current walk */
    uint32_t *order, *stack, *iter; /* per node, scratch */
    uint32_t epoch;
    uint32_t init_nodes;       /* nodes [0, init_nodes) have their sums and lists set */
    uint64_t seen_iterations;  /* root_iterations at the last backup, + 1 */
    uint64_t seen_key, seen_key2;
    uint64_t p_seen_iterations; /* the same for P */
    uint64_t p_seen_key, p_seen_key2;
} ucd_data;

static bool grow(void **p, uint32_t cap, size_t elem) {
    void *q = realloc(*p, (size_t)cap * elem);
    if (!q) return false;
    *p = q;
    return true;
}

/* A scratch array (contents dead between uses) with room for cap elements: a fresh
 * block, not a copy -- realloc would copy (and fault in) the whole old array. */
static bool regrow_scratch(void **p, uint32_t cap, size_t elem) {
    free(*p);
    *p = malloc((size_t)cap * elem);
    return *p != NULL;
}

/* Room for the graph's nodes and edges. */
static bool ucd_reserve(ucd_data *u, const miai_dag *d) {
    if (d->n_nodes > u->cap_nodes) {
        uint32_t cap = u->cap_nodes ? u->cap_nodes : 1024;
        while (cap < d->n_nodes) cap = cap > UINT32_MAX / 2 ? d->n_nodes : cap * 2;
        bool ok = grow((void **)&u->S, cap, sizeof(ucd_sums)) &&
                  regrow_scratch((void **)&u->D, cap, sizeof(ucd_sums)) &&
                  grow((void **)&u->in_head, cap, sizeof(uint32_t)) &&
                  grow((void **)&u->stamp, cap, sizeof(uint32_t)) &&
                  regrow_scratch((void **)&u->order, cap, sizeof(uint32_t)) &&
                  regrow_scratch((void **)&u->stack, cap, sizeof(uint32_t)) &&
                  regrow_scratch((void **)&u->iter, cap, sizeof(uint32_t)) &&
                  (!u->node_prime || grow((void **)&u->P, cap, sizeof(ucd_prime))) &&
                  (!u->general || (grow((void **)&u->GA, cap, u->nr * sizeof(double)) &&
                                   grow((void **)&u->GQ, cap, u->nr * sizeof(double)))) &&
                  (!u->general || !u->node_prime ||
                   grow((void **)&u->PQ, cap, u->nr * sizeof(double)));
        if (!ok) return false;
        memset(u->stamp + u->cap_nodes, 0, (size_t)(cap - u->cap_nodes) * sizeof(uint32_t));
        u->cap_nodes = cap;
    }
    if (d->n_edges > u->cap_edges) {
        uint32_t cap = u->cap_edges ? u->cap_edges : 4096;
        while (cap < d->n_edges) cap = cap > UINT32_MAX / 2 ? d->n_edges : cap * 2;
        if (!grow((void **)&u->in_next, cap, sizeof(uint32_t)) ||
            !grow((void **)&u->origin, cap, sizeof(uint32_t)) ||
            !grow((void **)&u->E, cap, sizeof(ucd_cache)) ||
            (u->keep1 && !grow((void **)&u->E1, cap, sizeof(ucd_cache1))) ||
            (u->general && (!grow((void **)&u->Rs, cap, u->nr * sizeof(double)) ||
                            !grow((void **)&u->Rp, cap, u->nr * sizeof(double)))))
            return false;
        u->cap_edges = cap;
    }
    return true;
}

static uint32_t next_epoch(ucd_data *u) {
    if (++u->epoch == 0) {
        memset(u->stamp, 0, (size_t)u->cap_nodes * sizeof(uint32_t));
        u->epoch = 1;
    }
    return u->epoch;
}

/* ---- the adapted statistics ----------------------------------------------------- */

/* Does e read its destination's n', mu' (prime = node, P kept, e has one)? */
static inline bool node_prime_of(const ucd_data *u, const miai_edge *e) {
    return u->node_prime && !u->recurse && e->child != MIAI_NIL;
}

/* n'(e) of eq. (10) and (12): the edge's or, prime = node, its destination's. */
static inline double prime_n(const ucd_data *u, const miai_edge *e) {
    return node_prime_of(u, e) ? u->P[e->child].n : e->n_prime;
}

/* Index of an edge in the arena (for the per-edge side arrays). */
static inline size_t edge_index(const miai_dag *d, const miai_edge *e) {
    return (size_t)(e - d->edges);
}

/* Payoff total of the n' part of e (mu'(e) n'(e)), for role `to`. */
static inline double prime_q(const ucd_data *u, const miai_dag *d, const miai_edge *e,
                             uint32_t to) {
    if (node_prime_of(u, e)) {
        if (u->general) return u->PQ[(size_t)e->child * u->nr + to];
        const ucd_prime *y = &u->P[e->child];
        return miai_q_for(y->q, y->n, 0, to);
    }
    if (u->general) return u->Rp[edge_index(d, e) * u->nr + to];
    return miai_q_for(e->sum_prime, e->n_prime, miai_role_of(e), to);
}

/* Payoff total of all of e's payoffs (mu(e) n(e)), for role `to`. */
static inline double edge_q(const ucd_data *u, const miai_dag *d, const miai_edge *e,
                            uint32_t to) {
    if (u->general) return u->Rs[edge_index(d, e) * u->nr + to];
    return miai_q_for(e->sum, e->n, miai_role_of(e), to);
}

/* A(y) and Q0(y) for role `to` (y has edges). */
static inline double node_a(const ucd_data *u, uint32_t y, uint32_t to) {
    if (u->general) return u->GA[(size_t)y * u->nr + to];
    return miai_q_for(u->S[y].a, u->S[y].b, (uint32_t)u->S[y].mover, to);
}
static inline double node_q0(const ucd_data *u, uint32_t y, uint32_t to) {
    if (u->general) return u->GQ[(size_t)y * u->nr + to];
    return miai_q_for(u->S[y].q0, u->S[y].b, (uint32_t)u->S[y].mover, to);
}

/* mu_inf(e) * n(e) as a total for role `to`, from the kept sums (eq. 14). */
static double q_inf(const ucd_data *u, const miai_dag *d, const miai_edge *e, uint32_t to) {
    double num = prime_q(u, d, e, to), den = prime_n(u, e);
    if (e->child != MIAI_NIL) {
        const ucd_sums *y = &u->S[e->child];
        if (y->mover >= 0) {
            num += node_a(u, e->child, to);
            den += y->b;
        }
    }
    if (den == e->n) return num;
    return den > 0 ? num / den * e->n : 0.0;
}

/* A mean from its total and count, as uct.c divides (total * (1/n)); 0 for none. */
static inline double mean_of(double num, double den) { return den > 0 ? num * (1.0 / den) : 0.0; }

/* Refresh the cached mu_inf(e), n_inf(e) of edge i from its statistics and its
 * child's kept sums (eq. 14 and eq. 12 at depth infinity). */
static inline void cache_edge(ucd_data *u, const miai_dag *d, uint32_t i) {
    const miai_edge *e = &d->edges[i];
    uint32_t role = miai_role_of(e);
    double np = prime_n(u, e);
    double num = prime_q(u, d, e, role), den = np, n = np, num1 = num;
    if (e->child != MIAI_NIL) {
        const ucd_sums *y = &u->S[e->child];
        if (y->mover >= 0) {
            num += node_a(u, e->child, role);
            num1 += node_q0(u, e->child, role);
            den += y->b;
        }
        n += y->c;
    }
    u->E[i] = (ucd_cache){.mu = mean_of(num, den), .n = n};
    if (u->keep1) u->E1[i] = (ucd_cache1){.mu1 = mean_of(num1, den), .n1 = den};
}

/* mu_d(e) * n(e) for role `to`: eq. (9) at depth 0, eq. (10) above; the numerator and
 * denominator of mu_d(e) go to *num, *den. */
static double q_depth(const ucd_data *u, const miai_dag *d, const miai_edge *e, double depth,
                      uint32_t to, double *num_out, double *den_out) {
    double num, den;
    if (depth == 0) {
        num = edge_q(u, d, e, to);
        den = e->n;
    } else if ((isinf(depth) || depth == 1) && !u->recurse) {
        /* the sums, kept or refreshed: A at infinity, Q0 at depth 1 */
        num = prime_q(u, d, e, to);
        den = prime_n(u, e);
        if (e->child != MIAI_NIL && u->S[e->child].mover >= 0) {
            num += depth == 1 ? node_q0(u, e->child, to) : node_a(u, e->child, to);
            den += u->S[e->child].b;
        }
    } else {
        num = prime_q(u, d, e, to);
        den = prime_n(u, e);
        if (e->child != MIAI_NIL) {
            const miai_node *y = &d->nodes[e->child];
            for (uint32_t i = y->first_edge; i < y->first_edge + y->n_edges; i++) {
                const miai_edge *f = &d->edges[i];
                if (f->n == 0) continue;
                num += q_depth(u, d, f, depth - 1, to, NULL, NULL);
                den += f->n;
            }
        }
    }
    if (num_out) *num_out = num;
    if (den_out) *den_out = den;
    if (den == e->n) return num;
    return den > 0 ? num / den * e->n : 0.0;
}

/* n_d(e): eq. (11) at depth 0, eq. (12) above. */
static double n_depth(const ucd_data *u, const miai_dag *d, const miai_edge *e, double depth) {
    if (depth == 0) return e->n;
    double n = prime_n(u, e);
    if (e->child == MIAI_NIL) return n;
    if (isinf(depth) && !u->recurse) return n + u->S[e->child].c;
    if (depth == 1 && !u->recurse) return n + u->S[e->child].b; /* eq. (12) at 1: n' + B */
    const miai_node *y = &d->nodes[e->child];
    for (uint32_t i = y->first_edge; i < y->first_edge + y->n_edges; i++)
        n += n_depth(u, d, &d->edges[i], depth - 1);
    return n;
}

/* Depth k as the recursions take it: infinity stays infinity when the kept sums are
 * read, else it becomes the bound max_plies + 1 (no path is longer in an acyclic
 * graph; in a graph with repeated positions it keeps the recursion finite). */
static inline double depth_of(const ucd_data *u, int k) {
    return isinf(u->depth[k]) && u->recurse ? u->inf_depth : u->depth[k];
}

/* Depth 0, 1 or infinity of d1 or d3 read without recursion: the edge's own, or the
 * edge cache (mu_1, n_1; mu_inf, n_inf). */
enum { UCD_AT_0, UCD_AT_1, UCD_AT_INF };

static int depth_kind(double depth) {
    return depth == 0 ? UCD_AT_0 : depth == 1 ? UCD_AT_1 : isinf(depth) ? UCD_AT_INF : -1;
}

/* The adapted value u_{d1,d2,d3}(e) = mu_d1(e) + c sqrt(log p_d2(e) / n_d3(e))
 * (ucd.txt sec. 3.4), eq. 1's value of ucb.h with the adapted terms: k = c sqrt(log p) and
 * sqrt(1 / n_d3) (from the table when n_d3 is in it: the same bits); infinite when
 * n_d3(e) = 0. */
static inline double ucd_value(const miai_ucb_table *t, double mu, double k, double nd3) {
    if (nd3 < (double)MIAI_UCB_TABLE) {
        if (nd3 <= 0) return INFINITY;
        uint32_t i = (uint32_t)nd3;
        if ((double)i == nd3) return miai_ucb_value(mu, k, t->count[i].sqrt_inv);
    }
    return miai_ucb_value(mu, k, sqrt(1.0 / nd3));
}

/* The three terms and the value of edge i; k = c sqrt(log p_d2) of its siblings (eq. 13).
 * An edge never followed (n = 0, so no child) has every count 0: value infinity. */
static inline void ucd_edge_terms(const ucd_data *u, const miai_dag *d,
                                  const miai_ucb_table *t, uint32_t i, double k, double *mu,
                                  double *nd3, double *value) {
    const miai_edge *e = &d->edges[i];
    if (e->n == 0) {
        *mu = *nd3 = 0.0;
        *value = INFINITY;
        return;
    }
    double num, den;
    bool plain = u->general && u->recurse; /* no per-role totals: the edge's own */
    if (u->depth[0] == 0 || plain) {
        *mu = mean_of(e->sum, e->n);
    } else if (isinf(u->depth[0]) && !u->recurse) {
        *mu = u->E[i].mu;
    } else if (u->depth[0] == 1 && !u->recurse) {
        *mu = u->E1[i].mu1;
    } else {
        q_depth(u, d, e, depth_of(u, 0), miai_role_of(e), &num, &den);
        *mu = mean_of(num, den);
    }
    if (u->depth[2] == 0 || plain) *nd3 = e->n;
    else if (isinf(u->depth[2]) && !u->recurse) *nd3 = u->E[i].n;
    else if (u->depth[2] == 1 && !u->recurse) *nd3 = u->E1[i].n1;
    else *nd3 = n_depth(u, d, e, depth_of(u, 2));
    *value = ucd_value(t, *mu, k, *nd3);
}

/* p_d2 over edges[first .. first + count) (eq. 13). */
static double ucd_parent(const ucd_data *u, const miai_dag *d, uint32_t first, uint32_t count) {
    if (u->depth[1] == 0 || (u->general && u->recurse)) {
        uint64_t n = 0;
        for (uint32_t i = first; i < first + count; i++) n += d->edges[i].n;
        return (double)n;
    }
    double p = 0.0;
    if (isinf(u->depth[1]) && !u->recurse) {
        for (uint32_t i = first; i < first + count; i++) p += u->E[i].n;
        return p;
    }
    if (u->depth[1] == 1 && !u->recurse) {
        for (uint32_t i = first; i < first + count; i++) p += u->E1[i].n1;
        return p;
    }
    for (uint32_t i = first; i < first + count; i++)
        p += n_depth(u, d, &d->edges[i], depth_of(u, 1));
    return p;
}

/* ---- keeping A, B, C and the in-edge lists -------------------------------------- */

/* Enter edge i in its child's in-edge list; returns true if it was not there (the
 * edge got its child in this iteration). */
static bool register_edge(ucd_data *u, miai_dag *d, uint32_t i) {
    miai_edge *e = &d->edges[i];
    if (e->child == MIAI_NIL || (e->flags & MIAI_EDGE_INLIST)) return false;
    u->in_next[i] = u->in_head[e->child];
    u->in_head[e->child] = i;
    e->flags |= MIAI_EDGE_INLIST;
    return true;
}

/* Recompute A, B, C of node x from its edges (children's sums already current) and
 * refresh the caches of its edges. */
static void node_sums(ucd_data *u, const miai_dag *d, uint32_t x) {
    const miai_node *y = &d->nodes[x];
    double a = 0.0, b = 0.0, c = 0.0, q0 = 0.0;
    int32_t mover = y->n_edges ? (int32_t)miai_role_of(&d->edges[y->first_edge]) : -1;
    for (uint32_t i = y->first_edge; i < y->first_edge + y->n_edges; i++) {
        const miai_edge *f = &d->edges[i];
        if (!u->general) {
            a += q_inf(u, d, f, (uint32_t)mover);
            q0 += f->sum;
        }
        b += f->n;
        c += prime_n(u, f) + (f->child != MIAI_NIL ? u->S[f->child].c : 0.0);
    }
    if (u->general) { /* A and Q0 for every role */
        double *ga = &u->GA[(size_t)x * u->nr], *gq = &u->GQ[(size_t)x * u->nr];
        for (uint32_t r = 0; r < u->nr; r++) {
            ga[r] = gq[r] = 0.0;
            for (uint32_t i = y->first_edge; i < y->first_edge + y->n_edges; i++) {
                ga[r] += q_inf(u, d, &d->edges[i], r);
                gq[r] += u->Rs[(size_t)i * u->nr + r];
            }
        }
    }
    u->S[x] = (ucd_sums){.a = a, .b = b, .c = c, .q0 = q0, .mover = mover};
    for (uint32_t i = y->first_edge; i < y->first_edge + y->n_edges; i++) cache_edge(u, d, i);
}

/* Recompute the sums and edge caches of every node reachable from `node` from
 * scratch (children first, an iterative post-order walk): the plain method of
 * update-descent, and the tests' full recomputation.  Stamps keep it finite in a
 * graph with repeated positions. */
static void refresh_below(ucd_data *u, const miai_dag *d, uint32_t node) {
    uint32_t ep = next_epoch(u), top = 0;
    u->stack[top] = node;
    u->iter[top++] = 0;
    u->stamp[node] = ep;
    while (top) {
        uint32_t x = u->stack[top - 1];
        const miai_node *y = &d->nodes[x];
        if (u->iter[top - 1] < y->n_edges) {
            uint32_t c = d->edges[y->first_edge + u->iter[top - 1]++].child;
            if (c != MIAI_NIL && u->stamp[c] != ep) {
                u->stamp[c] = ep;
                u->stack[top] = c;
                u->iter[top++] = 0;
            }
            continue;
        }
        node_sums(u, d, x);
        top--;
    }
}

/* prime = node: P from the graph's edges (first use, after a re-root).  A playout
 * from y is in n' of the in-edge it came through (update-descent, incremental) or of
 * every in-edge y had then (update-all; the edge that created y had them all, so it
 * is the one with the largest n'). */
static void prime_rebuild(ucd_data *u, miai_search *s) {
    miai_dag *d = &s->dag;
    if (!ucd_reserve(u, d)) {
        u->broken = true;
        u->recurse = true;
        return;
    }
    for (uint32_t x = 0; x < d->n_nodes; x++)
        u->P[x] = (ucd_prime){.key = d->nodes[x].key, .key2 = d->nodes[x].key2};
    if (u->general) memset(u->PQ, 0, (size_t)d->n_nodes * u->nr * sizeof(double));
    for (uint32_t i = 0; i < d->n_edges; i++) {
        const miai_edge *e = &d->edges[i];
        if (e->child == MIAI_NIL || e->n_prime == 0) continue;
        ucd_prime *y = &u->P[e->child];
        double q = miai_q_for(e->sum_prime, e->n_prime, miai_role_of(e), 0);
        bool add = u->backup != UCD_ALL;
        if (!add && e->n_prime <= y->n) continue;
        y->n = add ? y->n + e->n_prime : e->n_prime;
        y->q = add ? y->q + q : q;
        if (u->general)
            for (uint32_t r = 0; r < u->nr; r++) {
                double *pq = &u->PQ[(size_t)e->child * u->nr + r];
                *pq = (add ? *pq : 0.0) + u->Rp[(size_t)i * u->nr + r];
            }
    }
    /* nodes made from now on start empty (ucd_grow) */
    if (u->init_nodes > d->n_nodes) u->init_nodes = d->n_nodes;
    const miai_node *root = &d->nodes[d->root];
    u->p_seen_key = root->key;
    u->p_seen_key2 = root->key2;
    u->p_seen_iterations = s->root_iterations;
}

/* The graph was compacted (advance): in DAG mode P moves with its nodes (node order
 * is kept and each position has one node, so the kept nodes are found in order by
 * their keys); the edges into a kept node may have been dropped with their origins,
 * so P could not be rebuilt from the graph.  In tree mode a kept node keeps its one
 * in-edge: prime_sync rebuilds P from the graph. */
static void ucd_on_reroot(miai_policy *p, miai_search *s) {
    ucd_data *u = p->data;
    miai_dag *d = &s->dag;
    if (u->recurse) return;
    if (u->general) {
        /* Rs, Rp move with their edges: the kept blocks now lie end to end, in the
         * order of their old places (node->mark, policy.h), each moved down.  in_next
         * (rebuilt after a re-root) says which node starts each block. */
        for (uint32_t j = 0; j < d->n_nodes; j++)
            if (d->nodes[j].first_edge != MIAI_NIL && d->nodes[j].n_edges)
                u->in_next[d->nodes[j].first_edge] = j;
        size_t nr = u->nr;
        for (uint32_t k = 0; k < d->n_edges;) {
            const miai_node *x = &d->nodes[u->in_next[k]];
            if (x->mark != k) {
                memmove(u->Rs + k * nr, u->Rs + (size_t)x->mark * nr,
                        (size_t)x->n_edges * nr * sizeof(double));
                memmove(u->Rp + k * nr, u->Rp + (size_t)x->mark * nr,
                        (size_t)x->n_edges * nr * sizeof(double));
            }
            k += x->n_edges;
        }
    }
    if (!u->node_prime || d->tree_mode) return;
    uint32_t old = u->init_nodes < u->cap_nodes ? u->init_nodes : u->cap_nodes, i = 0;
    for (uint32_t j = 0; j < d->n_nodes; j++) { /* j <= i: moving down in place is safe */
        const miai_node *x = &d->nodes[j];
        while (i < old && (u->P[i].key != x->key || u->P[i].key2 != x->key2)) i++;
        bool found = i < old;
        if (u->general)
            for (uint32_t r = 0; r < u->nr; r++)
                u->PQ[(size_t)j * u->nr + r] = found ? u->PQ[(size_t)i * u->nr + r] : 0.0;
        u->P[j] = found ? u->P[i++] : (ucd_prime){.key = x->key, .key2 = x->key2};
    }
    u->init_nodes = d->n_nodes;
    const miai_node *root = &d->nodes[d->root];
    u->p_seen_key = root->key;
    u->p_seen_key2 = root->key2;
    u->p_seen_iterations = 0; /* the search restarts its root count */
}

/* Make P current (prime = node): rebuilt when the graph changed under it. */
static void prime_sync(ucd_data *u, miai_search *s) {
    if (!u->node_prime || u->recurse) return;
    const miai_node *root = &s->dag.nodes[s->dag.root];
    if (u->p_seen_iterations != s->root_iterations || u->p_seen_key != root->key ||
        u->p_seen_key2 != root->key2)
        prime_rebuild(u, s);
}

/* A playout from `leaf` (prime = node): one more payoff in n'(leaf), mu'(leaf). */
static void prime_add(ucd_data *u, uint32_t leaf, const double *rewards) {
    if (!u->node_prime || u->recurse || leaf == MIAI_NIL) return;
    u->P[leaf].n += 1.0;
    u->P[leaf].q += rewards[0];
    if (u->general)
        for (uint32_t r = 0; r < u->nr; r++) u->PQ[(size_t)leaf * u->nr + r] += rewards[r];
}

/* general: every role's payoff into edge i's totals (and its n' part). */
static inline void side_add(ucd_data *u, uint32_t i, const double *rewards, bool prime) {
    double *rs = &u->Rs[(size_t)i * u->nr], *rp = &u->Rp[(size_t)i * u->nr];
    for (uint32_t r = 0; r < u->nr; r++) {
        rs[r] += rewards[r];
        if (prime) rp[r] += rewards[r];
    }
}

/* general: miai_backup_descent's additions, for every role. */
static void side_descent(ucd_data *u, const miai_path *path, const double *rewards) {
    if (!u->general || u->recurse) return;
    for (uint32_t k = 0; k < path->len; k++)
        side_add(u, path->steps[k].edge, rewards, k >= path->last_level);
}

/* Rebuild in-edge lists and sums from the whole graph (first use, after a re-root):
 * children before parents (refresh_below from the root). */
static void ucd_rebuild(ucd_data *u, miai_search *s) {
    miai_dag *d = &s->dag;
    if (!ucd_reserve(u, d)) {
        u->broken = true;
        u->recurse = true;
        return;
    }
    prime_sync(u, s);
    for (uint32_t x = 0; x < d->n_nodes; x++) {
        u->in_head[x] = MIAI_NIL;
        const miai_node *y = &d->nodes[x];
        for (uint32_t i = y->first_edge; i < y->first_edge + y->n_edges; i++) u->origin[i] = x;
    }
    for (uint32_t i = 0; i < d->n_edges; i++) d->edges[i].flags &= ~MIAI_EDGE_INLIST;
    for (uint32_t i = 0; i < d->n_edges; i++) register_edge(u, d, i);
    if (d->n_nodes) refresh_below(u, d, d->root);
    u->init_nodes = d->n_nodes;
    const miai_node *root = &d->nodes[d->root];
    u->seen_key = root->key;
    u->seen_key2 = root->key2;
    u->seen_iterations = s->root_iterations;
}

static inline void ucd_sync(ucd_data *u, miai_search *s);

/* Make the sums current for a use at `node`. */
static void ucd_prepare(ucd_data *u, miai_search *s, uint32_t node) {
    if (u->recurse) return;
    prime_sync(u, s);
    if (u->recurse) return;
    if (u->refresh) refresh_below(u, &s->dag, node);
    else ucd_sync(u, s);
}

static inline void ucd_sync(ucd_data *u, miai_search *s) {
    const miai_node *root = &s->dag.nodes[s->dag.root];
    if (u->seen_iterations != s->root_iterations || u->seen_key != root->key ||
        u->seen_key2 != root->key2)
        ucd_rebuild(u, s);
}

/* The nodes from which `leaf` can be reached (leaf included) into u->order, parents
 * before children (post-order of a walk up the in-edges); returns the count.  Read
 * backwards it is children first. */
static uint32_t ancestors(ucd_data *u, const miai_dag *d, uint32_t leaf) {
    (void)d;
    uint32_t ep = next_epoch(u), top = 0, n = 0;
    u->stack[top] = leaf;
    u->iter[top++] = u->in_head[leaf];
    u->stamp[leaf] = ep;
    while (top) {
        uint32_t i = u->iter[top - 1];
        if (i != MIAI_NIL) {
            u->iter[top - 1] = u->in_next[i];
            uint32_t x = u->origin[i];
            if (u->stamp[x] != ep) {
                u->stamp[x] = ep;
                u->stack[top] = x;
                u->iter[top++] = u->in_head[x];
            }
            continue;
        }
        u->order[n++] = u->stack[--top];
    }
    return n;
}

/* mu_inf(e) n(e) for role `to` from explicit statistics of e and sums of its child. */
static inline double q_from(double sum_p, double n_p, uint32_t role, uint32_t to, double n,
                            double a, double b, uint32_t mover, bool has_sums) {
    double num = miai_q_for(sum_p, n_p, role, to), den = n_p;
    if (has_sums) {
        num += miai_q_for(a, b, mover, to);
        den += b;
    }
    if (den == n) return num;
    return den > 0 ? num / den * n : 0.0;
}

/* After a playout from `leaf` with `rewards`: update the statistics (every ancestor
 * edge of leaf once under update-all, the marked path edges otherwise) and the sums
 * A, B, C of every ancestor of leaf, children first.  An in-edge e of y off the path
 * changes its origin's A by n(e) * (mu_new(e) - mu_old(e)), which is eq. (15) times
 * the origin's denominator; path edges also change n, n', sum'. */
static void update_ancestors(ucd_data *u, miai_dag *d, uint32_t leaf, const double *rewards,
                             bool all, const ucd_prime *leaf_before) {
    uint32_t n = ancestors(u, d, leaf);
    for (uint32_t k = 0; k < n; k++) u->D[u->order[k]] = (ucd_sums){0};
    for (uint32_t k = n; k-- > 0;) {
        uint32_t y = u->order[k];
        ucd_sums *ys = &u->S[y];
        const ucd_sums *dy = &u->D[y];
        bool sums = ys->mover >= 0;
        uint32_t mover = sums ? (uint32_t)ys->mover : 0;
        double a0 = ys->a, b0 = ys->b, c0 = ys->c;
        double a1 = a0 + dy->a, b1 = b0 + dy->b, c1 = c0 + dy->c, q01 = ys->q0 + dy->q0;
        /* prime = node: y's n', mu' before this playout (only the leaf's changed) */
        const ucd_prime *yp0 = u->node_prime ? (y == leaf ? leaf_before : &u->P[y]) : NULL;
        for (uint32_t i = u->in_head[y]; i != MIAI_NIL; i = u->in_next[i]) {
            miai_edge *e = &d->edges[i];
            uint32_t role = miai_role_of(e), x = u->origin[i];
            bool hit = all || (e->flags & MIAI_EDGE_ONPATH);
            bool prime = hit && y == leaf;
            bool fresh = e->flags & MIAI_EDGE_FRESH; /* had no child before this playout */
            double r = rewards[role];
            /* n', mu' n' as e read them before the playout (a fresh edge had no
             * destination: its own) */
            double np0 = e->n_prime, sp0 = e->sum_prime;
            if (yp0 && !fresh) {
                np0 = yp0->n;
                sp0 = miai_q_for(yp0->q, yp0->n, 0, role);
            }
            double q0 = q_from(sp0, np0, role, role, e->n, a0, b0, mover, sums && !fresh);
            if (hit) {
                e->sum += r;
                if (prime) {
                    e->sum_prime += r;
                    e->n_prime++;
                }
                e->n++;
            }
            double np1 = prime_n(u, e), sp1 = prime_q(u, d, e, role);
            double q1 = q_from(sp1, np1, role, role, e->n, a1, b1, mover, sums);
            double den1 = np1 + (sums ? b1 : 0.0);
            double num1 = sp1 + (sums ? miai_q_for(a1, b1, mover, role) : 0.0);
            u->E[i] = (ucd_cache){.mu = mean_of(num1, den1), .n = np1 + c1};
            if (u->keep1) {
                double num01 = sp1 + (sums ? miai_q_for(q01, b1, mover, role) : 0.0);
                u->E1[i] = (ucd_cache1){.mu1 = mean_of(num01, den1), .n1 = den1};
            }
            ucd_sums *dx = &u->D[x];
            dx->a += q1 - q0;
            dx->b += hit ? 1.0 : 0.0;
            dx->q0 += hit ? r : 0.0;
            dx->c += (np1 - np0) + (fresh ? c1 : c1 - c0);
        }
        ys->a = a1;
        ys->b = b1;
        ys->c = c1;
        ys->q0 = q01;
    }
}

/* Recompute the sums of every ancestor of `node` from their edges (the rare backup
 * whose last edge has no child: the node budget was full). */
static void recompute_ancestors(ucd_data *u, miai_dag *d, uint32_t node) {
    uint32_t n = ancestors(u, d, node);
    for (uint32_t k = n; k-- > 0;) node_sums(u, d, u->order[k]);
}

/* ---- the policy ----------------------------------------------------------------- */

static double depth_param(double v) { return v < 0 ? INFINITY : floor(v); }

static int ucd_init(miai_policy *p, miai_search *s) {
    uint32_t nr = s->game->facts.n_roles;
    double pay = p->cfg.params[MIAI_P_UCD_PAYOFFS];
    if (!(pay == MIAI_UCD_PAYOFFS_AUTO || pay == MIAI_UCD_PAYOFFS_GENERAL) ||
        (nr > 2 && miai_solver_on(p)))
        return MIAI_EINVAL; /* the solver's proofs are two-player win/loss */
    ucd_data *u = calloc(1, sizeof *u);
    if (!u) return MIAI_ENOMEM;
    for (int k = 0; k < 3; k++) {
        double v = p->cfg.params[k];
        if (isnan(v)) {
            free(u);
            return MIAI_EINVAL;
        }
        u->depth[k] = depth_param(v);
    }
    double b = p->cfg.params[3];
    if (!(b == UCD_DESCENT || b == UCD_ALL || b == UCD_INCREMENTAL)) {
        free(u);
        return MIAI_EINVAL;
    }
    u->backup = (uint32_t)b;
    double pm = p->cfg.params[MIAI_P_UCD_PRIME];
    if (!(pm == MIAI_UCD_PRIME_EDGE || pm == MIAI_UCD_PRIME_NODE)) {
        free(u);
        return MIAI_EINVAL;
    }
    u->node_prime = pm == MIAI_UCD_PRIME_NODE;
    u->nr = nr;
    u->general = nr > 2 || pay == MIAI_UCD_PAYOFFS_GENERAL;
    u->solver = miai_solver_on(p);
    u->refresh = u->backup == UCD_DESCENT;
    u->keep1 = u->depth[0] == 1 || u->depth[1] == 1 || u->depth[2] == 1;
    u->mu_kind = depth_kind(u->depth[0]);
    u->n_kind = depth_kind(u->depth[2]);
    u->fast = !u->general && u->mu_kind >= 0 && u->n_kind >= 0 &&
              (isinf(u->depth[1]) || u->depth[1] == 0);
    u->inf_depth = (double)s->game->facts.max_plies + 1.0;
    u->seen_iterations = UINT64_MAX;
    u->p_seen_iterations = UINT64_MAX;
    p->data = u;
    return MIAI_OK;
}

static void ucd_destroy(miai_policy *p) {
    ucd_data *u = p->data;
    if (!u) return;
    free(u->S);
    free(u->D);
    free(u->E);
    free(u->E1);
    free(u->P);
    free(u->Rs);
    free(u->Rp);
    free(u->GA);
    free(u->GQ);
    free(u->PQ);
    free(u->in_head);
    free(u->in_next);
    free(u->origin);
    free(u->stamp);
    free(u->order);
    free(u->stack);
    free(u->iter);
    free(u);
    p->data = NULL;
}

/* Memory ran out: stop keeping sums, compute every depth by recursion; update-all
 * then degrades to update-descent (it needs the in-edge lists). */
static void ucd_break(ucd_data *u) {
    u->broken = true;
    u->recurse = true;
}

/* Room for the graph, and empty sums and in-edge lists for the nodes created since
 * the last call (the loop creates leaves without a hook; their edges come later, with
 * on_expand).  Amortised doubling: the rare reallocation is the only allocation in
 * backup.  False when memory ran out (the policy then recurses). */
static bool ucd_grow(ucd_data *u, const miai_dag *d) {
    if (u->recurse) return false;
    if (!ucd_reserve(u, d)) {
        ucd_break(u);
        return false;
    }
    for (uint32_t x = u->init_nodes; x < d->n_nodes; x++) {
        u->S[x] = (ucd_sums){.mover = -1};
        u->in_head[x] = MIAI_NIL;
        if (u->node_prime)
            u->P[x] = (ucd_prime){.key = d->nodes[x].key, .key2 = d->nodes[x].key2};
        if (u->general) {
            memset(&u->GA[(size_t)x * u->nr], 0, u->nr * sizeof(double));
            memset(&u->GQ[(size_t)x * u->nr], 0, u->nr * sizeof(double));
            if (u->node_prime) memset(&u->PQ[(size_t)x * u->nr], 0, u->nr * sizeof(double));
        }
    }
    if (d->n_nodes > u->init_nodes) u->init_nodes = d->n_nodes;
    return true;
}

/* A node got its edges (its second visit): it keeps its sums (zero: it had no
 * edges) and its in-edges; its edges start empty. */
static void ucd_on_expand(miai_policy *p, miai_search *s, uint32_t node) {
    ucd_data *u = p->data;
    miai_dag *d = &s->dag;
    if (!ucd_grow(u, d)) return;
    const miai_node *x = &d->nodes[node];
    u->S[node].mover = x->n_edges ? (int32_t)miai_role_of(&d->edges[x->first_edge]) : -1;
    for (uint32_t i = x->first_edge; i < x->first_edge + x->n_edges; i++) {
        u->origin[i] = node;
        u->E[i] = (ucd_cache){0};
        if (u->keep1) u->E1[i] = (ucd_cache1){0};
    }
    if (u->general) {
        memset(&u->Rs[(size_t)x->first_edge * u->nr], 0, (size_t)x->n_edges * u->nr * sizeof(double));
        memset(&u->Rp[(size_t)x->first_edge * u->nr], 0, (size_t)x->n_edges * u->nr * sizeof(double));
    }
}

/* Inlined into each call with constant kinds (GCC, Clang), so each is its own loop. */
#if defined(__GNUC__)
#define MIAI_UCD_INLINE inline __attribute__((always_inline))
#else
#define MIAI_UCD_INLINE inline
#endif

/* The selection of ucd_select in one pass over the edges, for a node none of whose
 * edges is flagged (pruned or proven) -- then the full selection's mask excludes
 * nothing -- with p_d2 given: the arg-max of the adapted value with the shared tie
 * rule; at the first unvisited edge the draws so far are undone and one of the
 * unvisited edges is drawn (those before it were visited).  MIAI_NIL (the rng as it
 * was) when an edge is flagged: the full selection decides. */
static MIAI_UCD_INLINE uint32_t ucd_argmax_once(const ucd_data *u, miai_search *s,
                                                uint32_t first, uint32_t count, double k,
                                                int mu_kind, int n_kind) {
    const miai_edge *edges = s->dag.edges;
    const ucd_cache *E = u->E;
    const ucd_cache1 *E1 = u->E1;
    const miai_ucb_table *t = &s->ucb;
    const uint32_t flagged = MIAI_EDGE_PRUNED | MIAI_EDGE_PROVEN, end = first + count;
    miai_rng saved = s->rng;
    miai_argmax best;
    miai_argmax_init(&best, first);
    for (uint32_t i = first; i < end; i++) {
        const miai_edge *e = &edges[i];
        if (e->flags & flagged) {
            s->rng = saved;
            return MIAI_NIL;
        }
        if (e->n == 0) { /* miai_pick_unvisited from here */
            s->rng = saved;
            uint32_t unvisited = 0;
            for (uint32_t j = i; j < end; j++) {
                if (edges[j].flags & flagged) return MIAI_NIL;
                unvisited += edges[j].n == 0;
            }
            uint32_t pick = miai_rng_below(&s->rng, unvisited);
            for (uint32_t j = i;; j++)
                if (edges[j].n == 0 && pick-- == 0) return j;
        }
        double mu = mu_kind == UCD_AT_INF ? E[i].mu
                    : mu_kind == UCD_AT_1 ? E1[i].mu1
                                          : mean_of(e->sum, e->n);
        double nd3 = n_kind == UCD_AT_INF ? E[i].n : n_kind == UCD_AT_1 ? E1[i].n1 : e->n;
        miai_argmax_offer(&best, &s->rng, i, ucd_value(t, mu, k, nd3));
    }
    return best.chosen;
}

/* ucd_select for the kept sums (u->fast, not recursing): p_d2 = C(node) at depth
 * infinity (the sum of the n_inf of its edges, eq. 12-13) or B(node) at depth 0 (the
 * sum of their n).  Below 2^53 both are whole numbers kept exactly (counts only grow,
 * and a child's C is at most its parent's), so they equal ucd_parent's sum in any
 * order; above (path counts explode in some graphs) ucd_parent sums the edges. */
static uint32_t ucd_select_fast(const ucd_data *u, miai_search *s, uint32_t node,
                                uint32_t first, uint32_t count, double c) {
    const ucd_sums *x = &u->S[node];
    double parent = isinf(u->depth[1]) ? x->c : x->b;
    if (!(parent < 9007199254740992.0)) parent = ucd_parent(u, &s->dag, first, count);
    double k = miai_ucb_factor_real(&s->ucb, c, parent);
    int mu_kind = u->mu_kind, n_kind = u->n_kind;
    if (mu_kind == UCD_AT_INF && n_kind == UCD_AT_INF)
        return ucd_argmax_once(u, s, first, count, k, UCD_AT_INF, UCD_AT_INF);
    if (mu_kind == UCD_AT_1 && n_kind == UCD_AT_1)
        return ucd_argmax_once(u, s, first, count, k, UCD_AT_1, UCD_AT_1);
    return ucd_argmax_once(u, s, first, count, k, mu_kind, n_kind);
}

static uint32_t ucd_select(miai_policy *p, miai_search *s, uint32_t node, uint32_t first,
                           uint32_t count, uint32_t role) {
    (void)role;
    ucd_data *u = p->data;
    miai_dag *d = &s->dag;
    if (miai_simultaneous_at(d, node)) return miai_select_plain(s, p->cfg.c, first, count);
    ucd_prepare(u, s, node);
    if (u->general && u->recurse) return miai_select_plain(s, p->cfg.c, first, count);
    uint32_t chosen;
    if (u->fast && !u->recurse) {
        chosen = ucd_select_fast(u, s, node, first, count, p->cfg.c);
        if (chosen != MIAI_NIL) return chosen;
    }
    const miai_edge *edges = d->edges;
    chosen = u->solver ? miai_solver_win(edges, first, count) : MIAI_NIL;
    if (chosen != MIAI_NIL) return chosen;
    uint32_t mask = miai_exclusion(edges, first, count, u->solver);
    uint32_t fresh = miai_pick_unvisited(edges, first, count, mask, &s->rng);
    if (fresh != MIAI_NIL) return fresh;
    double k = miai_ucb_factor_real(&s->ucb, p->cfg.c, ucd_parent(u, d, first, count));
    miai_argmax best;
    miai_argmax_init(&best, first);
    for (uint32_t i = first; i < first + count; i++) {
        if (edges[i].flags & mask) continue;
        double mu, nd3, v;
        ucd_edge_terms(u, d, &s->ucb, i, k, &mu, &nd3, &v);
        miai_argmax_offer(&best, &s->rng, i, v);
    }
    return best.chosen;
}

/* Update-all when the last edge has no child (the node budget was full): that edge,
 * then every ancestor edge of the node it leaves, once each. */
static void all_without_leaf(ucd_data *u, miai_dag *d, const miai_path *path,
                             const double *rewards) {
    const miai_step *last = &path->steps[path->len - 1];
    miai_edge *e = &d->edges[last->edge];
    double r = rewards[miai_role_of(e)];
    e->sum += r;
    e->sum_prime += r;
    e->n_prime++;
    e->n++;
    if (u->general) side_add(u, last->edge, rewards, true);
    uint32_t n = ancestors(u, d, last->node);
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t i = u->in_head[u->order[k]]; i != MIAI_NIL; i = u->in_next[i]) {
            miai_edge *f = &d->edges[i];
            f->sum += rewards[miai_role_of(f)];
            f->n++;
            if (u->general) side_add(u, i, rewards, false);
        }
    for (uint32_t k = n; k-- > 0;) node_sums(u, d, u->order[k]);
}

/* general: update-all from `leaf` (every ancestor edge once, the leaf's in-edges also
 * in n', sum'), then the ancestors' sums recomputed from their edges, children first. */
static void all_general(ucd_data *u, miai_dag *d, uint32_t leaf, const double *rewards) {
    uint32_t n = ancestors(u, d, leaf);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t y = u->order[k];
        for (uint32_t i = u->in_head[y]; i != MIAI_NIL; i = u->in_next[i]) {
            miai_edge *f = &d->edges[i];
            double r = rewards[miai_role_of(f)];
            f->sum += r;
            if (y == leaf) {
                f->sum_prime += r;
                f->n_prime++;
            }
            f->n++;
            side_add(u, i, rewards, y == leaf);
        }
    }
    for (uint32_t k = n; k-- > 0;) node_sums(u, d, u->order[k]);
}

static void ucd_backup(miai_policy *p, miai_search *s, const miai_path *path,
                       const double *rewards) {
    ucd_data *u = p->data;
    miai_dag *d = &s->dag;
    ucd_grow(u, d);
    prime_sync(u, s);
    if (!u->recurse && !u->refresh && miai_path_simultaneous(d, path)) {
        /* decoupled UCT's statistics; the sums of the path's nodes from their edges */
        ucd_sync(u, s);
        miai_backup_descent(s, path, rewards);
        side_descent(u, path, rewards);
        prime_add(u, path->leaf, rewards);
        for (uint32_t k = path->len; k-- > 0;) node_sums(u, d, path->steps[k].node);
        u->seen_iterations = s->root_iterations + 1;
    } else if (u->recurse || u->refresh || path->len == 0) {
        miai_backup_descent(s, path, rewards);
        side_descent(u, path, rewards);
        prime_add(u, path->leaf, rewards);
    } else {
        ucd_sync(u, s);
        for (uint32_t k = 0; k < path->len; k++)
            if (register_edge(u, d, path->steps[k].edge))
                d->edges[path->steps[k].edge].flags |= MIAI_EDGE_FRESH;
        if (path->leaf == MIAI_NIL) {
            if (u->backup == UCD_ALL) {
                all_without_leaf(u, d, path, rewards);
            } else {
                miai_backup_descent(s, path, rewards);
                side_descent(u, path, rewards);
                recompute_ancestors(u, d, path->steps[path->len - 1].node);
            }
        } else if (u->general) {
            prime_add(u, path->leaf, rewards);
            if (u->backup == UCD_ALL) {
                all_general(u, d, path->leaf, rewards);
            } else {
                miai_backup_descent(s, path, rewards);
                side_descent(u, path, rewards);
                recompute_ancestors(u, d, path->leaf);
            }
        } else {
            for (uint32_t k = 0; k < path->len; k++)
                d->edges[path->steps[k].edge].flags |= MIAI_EDGE_ONPATH;
            ucd_prime before = {0};
            if (u->node_prime && !u->recurse) before = u->P[path->leaf];
            prime_add(u, path->leaf, rewards);
            update_ancestors(u, d, path->leaf, rewards, u->backup == UCD_ALL, &before);
        }
        for (uint32_t k = 0; k < path->len; k++)
            d->edges[path->steps[k].edge].flags &= ~(MIAI_EDGE_ONPATH | MIAI_EDGE_FRESH);
        u->seen_iterations = s->root_iterations + 1;
    }
    if (u->node_prime && !u->recurse) u->p_seen_iterations = s->root_iterations + 1;
    if (u->solver) miai_solver_backup(s, path, rewards);
}

static uint32_t ucd_final(const miai_policy *p, const miai_search *s, uint32_t first,
                          uint32_t count) {
    const ucd_data *u = p->data;
    return u->solver ? miai_solver_final(p, s, first, count)
                     : miai_final_default(p, s, first, count);
}

void miai_ucd_terms(miai_policy *p, miai_search *s, uint32_t node, double *out) {
    ucd_data *u = p->data;
    miai_dag *d = &s->dag;
    ucd_prepare(u, s, node);
    const miai_node *x = &d->nodes[node];
    double parent = ucd_parent(u, d, x->first_edge, x->n_edges);
    double f = miai_ucb_factor_real(&s->ucb, p->cfg.c, parent);
    for (uint32_t k = 0; k < x->n_edges; k++) {
        double mu, nd3, v;
        ucd_edge_terms(u, d, &s->ucb, x->first_edge + k, f, &mu, &nd3, &v);
        out[4 * k] = mu;
        out[4 * k + 1] = parent;
        out[4 * k + 2] = nd3;
        out[4 * k + 3] = v;
    }
}

/* Every role's payoff totals of node's edges (variants_api.h); false without them. */
bool miai_ucd_role_sums(const miai_policy *p, const miai_search *s, uint32_t node,
                        double *out, uint64_t cap) {
    const ucd_data *u = p->data;
    const miai_node *x = &s->dag.nodes[node];
    if (!u->general || u->recurse || cap < 2ull * u->nr * x->n_edges) return false;
    for (uint32_t k = 0; k < x->n_edges; k++)
        for (uint32_t r = 0; r < u->nr; r++) {
            size_t i = (size_t)(x->first_edge + k) * u->nr + r;
            out[2 * u->nr * k + r] = u->Rs[i];
            out[2 * u->nr * k + u->nr + r] = u->Rp[i];
        }
    return true;
}

/* Full recomputation instead of the kept sums (the inspection API's `recompute`). */
bool miai_ucd_recursion(miai_policy *p, bool on) {
    ucd_data *u = p->data;
    bool was = u->refresh;
    u->refresh = on || u->backup == UCD_DESCENT;
    return was;
}

const miai_policy_ops miai_ucd_policy = {
    .name = "ucd",
    .init = ucd_init,
    .destroy = ucd_destroy,
    .select = ucd_select,
    .on_expand = ucd_on_expand,
    .on_reroot = ucd_on_reroot,
    .backup = ucd_backup,
    .final = ucd_final,
};
