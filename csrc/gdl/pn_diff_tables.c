/* pn_diff_tables.c -- the differential engine's tables (pn_diff.c), built once per game.
 *
 * From the net: the links of every node (the gates that count it, the NOT gates, the
 * range gates it feeds, the legal-move and next-state bits it is watched by), the
 * sources of each base and move, the lazy gates and the goal wave's links, and the
 * mutex families it follows (pn_internal.h: guards and groups).  The last step is the
 * snapshot, the initial state's work block, which the waves of pn_diff.c make
 * (pn_diff_snapshot).  Calls: pn_plain.c (pn_mark_cone), pn_diff.c (pn_diff_snapshot).
 */
#include <stdlib.h>
#include <string.h>

#include "pn_diff.h"
#include "pn_plain.h"

void pn_diff_free(pn_diff_tables *t) {
    void *arrays[] = {t->range_id,    t->span,        t->link,        t->base_first,
                      t->base_nodes,  t->input_first, t->input_nodes, t->set_first,
                      t->set_nodes,   t->base0,       t->work0,       t->lazy,
                      t->is_lazy,     t->lazy_first,  t->lazy_link,   t->front,
                      t->fam_size,    t->xspan,       t->guard_of,    t->group,
                      t->gfirst,      t->glink};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
    memset(t, 0, sizeof *t);
}

/* Counting sort of (key, value) pairs into offsets first[n_keys + 1] and values. */
static int pn_csr(uint32_t n_keys, uint32_t n_pairs, const uint32_t *key,
                  const uint32_t *value, uint32_t **first_out, uint32_t **values_out) {
    uint32_t *first = calloc((size_t)n_keys + 1, sizeof *first);
    uint32_t *vals = malloc(sizeof *vals * (n_pairs ? n_pairs : 1));
    if (!first || !vals) {
        free(first);
        free(vals);
        return MIAI_ENOMEM;
    }
    for (uint32_t i = 0; i < n_pairs; i++) first[key[i] + 1]++;
    for (uint32_t k = 0; k < n_keys; k++) first[k + 1] += first[k];
    uint32_t *at = malloc(sizeof *at * ((size_t)n_keys + 1));
    if (!at) {
        free(first);
        free(vals);
        return MIAI_ENOMEM;
    }
    memcpy(at, first, sizeof *at * ((size_t)n_keys + 1));
    for (uint32_t i = 0; i < n_pairs; i++) vals[at[key[i]]++] = value[i];
    free(at);
    *first_out = first;
    *values_out = vals;
    return MIAI_OK;
}

/* The lazy gates (pn_internal.h): the gates outside the cone of what a ply needs. */
static int pn_find_lazy(pn_data *d) {
    pn_diff_tables *t = &d->diff;
    uint32_t n = d->n_nodes, n_outs = d->n_base + d->total_moves + d->n_roles + 1;
    uint32_t *outs = malloc(sizeof *outs * n_outs);
    t->is_lazy = malloc(n ? n : 1);
    if (!outs || !t->is_lazy) {
        free(outs);
        return MIAI_ENOMEM;
    }
    memcpy(outs, d->next_node, sizeof *outs * d->n_base);
    memcpy(outs + d->n_base, d->legal_node, sizeof *outs * d->total_moves);
    memcpy(outs + d->n_base + d->total_moves, d->legal_guard, sizeof *outs * d->n_roles);
    outs[n_outs - 1] = d->terminal_node;
    int rc = pn_mark_cone(d, outs, n_outs, t->is_lazy);
    free(outs);
    if (rc != MIAI_OK) return rc;
    t->n_lazy = 0;
    for (uint32_t i = 0; i < n; i++) {
        t->is_lazy[i] = !t->is_lazy[i] && !t->range_id[i] && pn_is_gate(d->kind[i]);
        t->n_lazy += t->is_lazy[i];
    }
    t->lazy = malloc(sizeof *t->lazy * (t->n_lazy ? t->n_lazy : 1));
    if (!t->lazy) return MIAI_ENOMEM;
    for (uint32_t i = 0, m = 0; i < n; i++)
        if (t->is_lazy[i]) t->lazy[m++] = i;
    return MIAI_OK;
}

/* The goal wave's tables: the lazy readers of every node, and the frontier.  key and
 * val: room for one pair per edge. */
static int pn_lazy_links(pn_data *d, uint32_t *key, uint32_t *val) {
    pn_diff_tables *t = &d->diff;
    uint32_t n = d->n_nodes, m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (t->is_lazy[i])
            for (uint32_t e = d->first_in[i]; e < d->first_in[i + 1]; e++) {
                key[m] = d->in[e];
                val[m++] = i | (d->kind[i] == MIAI_PN_NOT ? PN_EDGE_NEGATED : 0);
            }
    int rc = pn_csr(n, m, key, val, &t->lazy_first, &t->lazy_link);
    if (rc != MIAI_OK) return rc;
    t->n_front = 0;
    for (uint32_t i = 0; i < n; i++)
        t->n_front += !t->is_lazy[i] && t->lazy_first[i + 1] > t->lazy_first[i];
    t->goal_wave = m >= PN_GOAL_WAVE_MIN_EDGES && 2 * (uint64_t)t->n_front <= m;
    t->front = malloc(sizeof *t->front * (t->n_front ? t->n_front : 1));
    if (!t->front) return MIAI_ENOMEM;
    for (uint32_t i = 0, k = 0; i < n; i++)
        if (!t->is_lazy[i] && t->lazy_first[i + 1] > t->lazy_first[i]) t->front[k++] = i;
    return MIAI_OK;
}

/* A guarded edge: source s into the AND g guarded by member idx of family fam, edge e
 * (an index into d->in). */
typedef struct {
    uint32_t s, fam, idx, g, e;
} pn_gedge;

static int pn_gedge_cmp(const void *pa, const void *pb) {
    const pn_gedge *a = pa, *b = pb;
    if (a->s != b->s) return a->s < b->s ? -1 : 1;
    if (a->fam != b->fam) return a->fam < b->fam ? -1 : 1;
    if (a->idx != b->idx) return a->idx < b->idx ? -1 : 1;
    return a->e < b->e ? -1 : a->e > b->e;
}

/* A (source, family) pair: `n` ANDs read the source beside a member of the family --
 * the ANDs a group of the source would reach if those members guarded them. */
typedef struct {
    uint32_t s, fam, n;
} pn_pair;

static int pn_pair_cmp(const void *pa, const void *pb) {
    const pn_pair *a = pa, *b = pb;
    if (a->s != b->s) return a->s < b->s ? -1 : 1;
    return a->fam < b->fam ? -1 : a->fam > b->fam;
}

/* An AND that may be guarded: outside ranges and the lazy gates. */
static int pn_guardable(const pn_data *d, uint32_t g) {
    return d->kind[g] == MIAI_PN_AND && !d->diff.is_lazy[g] && !d->diff.range_id[g];
}

/* Every (source, family) pair of the guardable ANDs, counted, sorted (pn_pair_cmp); the
 * ANDs of more than PN_GUARD_SCORE_FANIN inputs are left out (their guard is picked by
 * family size alone).  NULL with *n 0 when there are none, or out of memory (rc). */
static pn_pair *pn_pairs(const pn_data *d, uint32_t *n_out, int *rc) {
    const pn_diff_tables *t = &d->diff;
    size_t m = 0;
    *n_out = 0;
    *rc = MIAI_OK;
    for (uint32_t g = 0; g < d->n_nodes; g++) {
        uint32_t lo = d->first_in[g], hi = d->first_in[g + 1];
        if (!pn_guardable(d, g) || hi - lo > PN_GUARD_SCORE_FANIN) continue;
        for (uint32_t e = lo; e < hi; e++) m += t->xspan[d->in[e]].fam ? hi - lo - 1 : 0;
    }
    if (m == 0) return NULL;
    pn_pair *pairs = malloc(sizeof *pairs * m);
    if (!pairs) {
        *rc = MIAI_ENOMEM;
        return NULL;
    }
    m = 0;
    for (uint32_t g = 0; g < d->n_nodes; g++) {
        uint32_t lo = d->first_in[g], hi = d->first_in[g + 1];
        if (!pn_guardable(d, g) || hi - lo > PN_GUARD_SCORE_FANIN) continue;
        for (uint32_t e = lo; e < hi; e++) {
            uint32_t f = t->xspan[d->in[e]].fam;
            if (!f) continue;
            for (uint32_t k = lo; k < hi; k++)
                if (k != e) pairs[m++] = (pn_pair){d->in[k], f - 1, 1};
        }
    }
    qsort(pairs, m, sizeof *pairs, pn_pair_cmp);
    size_t u = 0;
    for (size_t i = 0; i < m; i++) {
        if (u && pn_pair_cmp(&pairs[u - 1], &pairs[i]) == 0)
            pairs[u - 1].n++;
        else
            pairs[u++] = pairs[i];
    }
    *n_out = (uint32_t)u;
    return pairs;
}

/* Whether source s would form a group over family fam (PN_GROUP_MIN, PN_GROUP_SPARSE),
 * by the pairs' counts. */
static int pn_would_group(const pn_data *d, const pn_pair *pairs, uint32_t n_pairs, uint32_t s,
                          uint32_t fam) {
    pn_pair key = {s, fam, 0};
    const pn_pair *p = bsearch(&key, pairs, n_pairs, sizeof *pairs, pn_pair_cmp);
    return p && p->n >= PN_GROUP_MIN &&
           (uint64_t)p->n * PN_GROUP_SPARSE >= (uint64_t)d->diff.fam_size[fam] + 1;
}

/* The guard of AND g: of its inputs that are members of a family, the one under which
 * most of its other inputs would form groups (the member whose change is then the
 * only one that steps every AND it reaches: gate families guarded by base members
 * left kalaha_2009's hand counter stepping 201 ANDs a change), then the one of the
 * largest family (0: none). */
static uint32_t pn_guard_pick(const pn_data *d, const pn_pair *pairs, uint32_t n_pairs,
                              uint32_t g) { /* pairs NULL: by size alone */
    const pn_diff_tables *t = &d->diff;
    uint32_t guard = 0, best_score = 0, size = 0;
    uint32_t lo = d->first_in[g], hi = d->first_in[g + 1];
    for (uint32_t e = lo; e < hi; e++) {
        uint32_t f = t->xspan[d->in[e]].fam;
        if (!f || !t->fam_size[f - 1]) continue;
        uint32_t score = 0;
        if (pairs && hi - lo <= PN_GUARD_SCORE_FANIN)
            for (uint32_t k = lo; k < hi; k++)
                score += k != e && pn_would_group(d, pairs, n_pairs, d->in[k], f - 1);
        if (score > best_score || (score == best_score && t->fam_size[f - 1] > size)) {
            guard = d->in[e];
            best_score = score;
            size = t->fam_size[f - 1];
        }
    }
    return guard;
}

/* The families' members (pn_xspan fam, idx): base families through their BASE nodes,
 * gate families whose gates the differential engine keeps (none lazy, none in a
 * range; else the family stays unused, fam_size 0). */
static int pn_family_members_of(pn_data *d, int families) {
    pn_diff_tables *t = &d->diff;
    uint32_t nb = d->n_families;
    t->n_fam = nb + d->n_gate_families;
    t->fam_size = calloc(t->n_fam ? t->n_fam : 1, sizeof *t->fam_size);
    if (!families) return t->fam_size ? MIAI_OK : MIAI_ENOMEM; /* none followed */
    uint32_t *base_fam = calloc(d->n_base ? d->n_base : 1, sizeof *base_fam);
    uint32_t *base_idx = calloc(d->n_base ? d->n_base : 1, sizeof *base_idx);
    if (!t->fam_size || !base_fam || !base_idx) {
        free(base_fam);
        free(base_idx);
        return MIAI_ENOMEM;
    }
    for (uint32_t f = 0; f < nb; f++) {
        t->fam_size[f] = d->family_first[f + 1] - d->family_first[f];
        for (uint32_t e = d->family_first[f]; e < d->family_first[f + 1]; e++) {
            base_fam[d->family_base[e]] = f + 1;
            base_idx[d->family_base[e]] = e - d->family_first[f];
        }
    }
    for (uint32_t i = 0; i < d->n_nodes; i++)
        if (d->kind[i] == MIAI_PN_BASE && base_fam[d->arg[i]])
            t->xspan[i] =
                (pn_xspan){0, 0, 0, base_fam[d->arg[i]], base_idx[d->arg[i]] | PN_XS_BASE};
    free(base_fam);
    free(base_idx);
    for (uint32_t f = 0; f < d->n_gate_families; f++) {
        uint32_t lo = d->gate_family_first[f], hi = d->gate_family_first[f + 1], ok = 1;
        for (uint32_t e = lo; e < hi; e++)
            ok &= !t->is_lazy[d->gate_family_node[e]] && !t->range_id[d->gate_family_node[e]];
        if (!ok) continue;
        t->fam_size[nb + f] = hi - lo;
        for (uint32_t e = lo; e < hi; e++)
            t->xspan[d->gate_family_node[e]] = (pn_xspan){0, 0, 0, nb + f + 1, e - lo};
    }
    return MIAI_OK;
}

/* The guarded ANDs and the groups (pn_internal.h, PN_GROUP_MIN): ekind[e] becomes 1
 * for an edge that goes into a group, 2 for the guard's edge of a guarded AND, 0 for
 * the others (counted edges). */
static int pn_guards(pn_data *d, uint8_t *ekind, int families) {
    pn_diff_tables *t = &d->diff;
    uint32_t n = d->n_nodes;
    t->xspan = calloc(n, sizeof *t->xspan);
    t->guard_of = calloc(n, sizeof *t->guard_of);
    pn_gedge *ge = malloc(sizeof *ge * (d->first_in[n] ? d->first_in[n] : 1));
    int rc = MIAI_ENOMEM;
    if (!t->xspan || !t->guard_of || !ge || pn_family_members_of(d, families) != MIAI_OK)
        goto done;
    /* each AND's guard (pn_guard_pick), kept in guard_of until the groups are known */
    uint32_t m = 0, n_pairs = 0;
    rc = MIAI_OK;
    pn_pair *pairs = families == PN_FAM_BY_GROUPS ? pn_pairs(d, &n_pairs, &rc) : NULL;
    if (rc != MIAI_OK) goto done;
    t->guard_pick = (uint8_t)families;
    rc = MIAI_ENOMEM;
    for (uint32_t g = 0; g < n; g++) {
        if (!pn_guardable(d, g)) continue;
        uint32_t guard = pn_guard_pick(d, pairs, n_pairs, g);
        t->guard_of[g] = guard;
        if (!guard) continue;
        const pn_xspan gx = t->xspan[guard];
        for (uint32_t e = d->first_in[g]; e < d->first_in[g + 1]; e++)
            if (d->in[e] != guard && !t->range_id[d->in[e]]) /* a range's: counted */
                ge[m++] = (pn_gedge){d->in[e], gx.fam - 1, gx.idx & ~PN_XS_BASE, g, e};
    }
    free(pairs);
    uint8_t *grouped = calloc(n, 1); /* the ANDs a group reaches: guarded */
    if (!grouped) goto done;
    qsort(ge, m, sizeof *ge, pn_gedge_cmp);
    /* groups: runs of one source and family, big enough */
    size_t table = 0;
    uint32_t n_groups = 0, n_glink = 0;
    for (uint32_t a = 0, b; a < m; a = b) {
        for (b = a; b < m && ge[b].s == ge[a].s && ge[b].fam == ge[a].fam; b++) continue;
        uint32_t size = t->fam_size[ge[a].fam];
        if (b - a < PN_GROUP_MIN || (uint64_t)(b - a) * PN_GROUP_SPARSE < size + 1) {
            for (uint32_t k = a; k < b; k++) ge[k].s = UINT32_MAX; /* stays counted */
            continue;
        }
        table += size + 1;
        n_groups++;
        n_glink += b - a;
    }
    t->n_groups = n_groups;
    t->group = malloc(sizeof *t->group * (n_groups ? n_groups : 1));
    t->gfirst = malloc(sizeof *t->gfirst * (table ? table : 1));
    t->glink = malloc(sizeof *t->glink * (n_glink ? n_glink : 1));
    if (!t->group || !t->gfirst || !t->glink) {
        free(grouped);
        goto done;
    }
    uint32_t k = 0, off = 0, at = 0;
    for (uint32_t a = 0, b; a < m; a = b) {
        for (b = a; b < m && ge[b].s == ge[a].s && ge[b].fam == ge[a].fam; b++) continue;
        if (ge[a].s == UINT32_MAX) continue;
        uint32_t size = t->fam_size[ge[a].fam];
        t->group[k++] = (pn_group){ge[a].fam, off, ge[a].s};
        for (uint32_t idx = 0, e = a; idx <= size; idx++) {
            t->gfirst[off + idx] = at;
            for (; idx < size && e < b && ge[e].idx == idx; e++) {
                t->glink[at++] = ge[e].g;
                ekind[ge[e].e] = 1;
                grouped[ge[e].g] = 1;
            }
        }
        off += size + 1;
    }
    /* a family no group uses is not followed (its members' xspan cleared) */
    uint8_t *used = calloc(t->n_fam ? t->n_fam : 1, 1);
    if (!used) {
        free(grouped);
        goto done;
    }
    for (uint32_t q = 0; q < n_groups; q++) used[t->group[q].fam] = 1;
    t->base_fam_used = 0;
    for (uint32_t f = 0; f < t->n_fam; f++) {
        if (!used[f]) t->fam_size[f] = 0;
        else if (f < d->n_families) t->base_fam_used = 1;
    }
    for (uint32_t i = 0; i < n; i++)
        if (t->xspan[i].fam && !used[t->xspan[i].fam - 1]) t->xspan[i] = (pn_xspan){0, 0, 0, 0, 0};
    free(used);
    t->fam = n_groups > 0;
    /* the guarded ANDs: their guard's edges become guard links */
    t->n_guarded = 0;
    for (uint32_t g = 0; g < n; g++) {
        if (!grouped[g]) t->guard_of[g] = 0;
        if (!t->guard_of[g]) continue;
        uint32_t guard = t->guard_of[g];
        t->n_guarded++;
        for (uint32_t e = d->first_in[g]; e < d->first_in[g + 1]; e++)
            if (d->in[e] == guard) ekind[e] = 2;
    }
    free(grouped);
    rc = MIAI_OK;
done:
    free(ge);
    return rc;
}

int pn_diff_build(pn_data *d, int families) {
    pn_diff_tables *t = &d->diff;
    memset(t, 0, sizeof *t);
    uint32_t n = d->n_nodes, n_edges = d->first_in[n];
    if (n > PN_DIFF_MAX_NODES) return MIAI_OK; /* too big for the stack: generic loop */
    for (uint32_t r = 0; r < d->n_ranges; r++)
        for (uint32_t i = d->range_lo[r]; i < d->range_hi[r]; i++)
            if (d->kind[i] != MIAI_PN_AND && d->kind[i] != MIAI_PN_OR) return MIAI_OK;
    t->range_id = calloc(n, sizeof *t->range_id);
    /* pairs for the CSR tables: at most max(edges, watches, nodes) of them */
    uint32_t n_watch = d->total_moves + d->n_base;
    size_t cap = n_edges > n_watch ? n_edges : n_watch;
    if (cap < n) cap = n;
    uint32_t *key = calloc(cap ? cap : 1, sizeof *key);
    uint32_t *val = calloc(cap ? cap : 1, sizeof *val);
    uint8_t *ekind = NULL; /* per edge: 0 counted, 1 in a group, 2 a guard's */
    /* CSR scratch: guard links, groups, fan-out, watches (freed at done) */
    uint32_t *gdfirst = NULL, *gdlink = NULL, *grfirst = NULL, *grlink = NULL;
    uint32_t *first = NULL, *edge = NULL, *wfirst = NULL, *wval = NULL;
    int rc = MIAI_ENOMEM;
    if (!t->range_id || !key || !val) goto done;
    for (uint32_t r = 0; r < d->n_ranges; r++)
        for (uint32_t i = d->range_lo[r]; i < d->range_hi[r]; i++) t->range_id[i] = r + 1;
    if ((rc = pn_find_lazy(d)) != MIAI_OK || (rc = pn_lazy_links(d, key, val)) != MIAI_OK)
        goto done;
    ekind = calloc(n_edges ? n_edges : 1, 1);
    if (!ekind || (rc = pn_guards(d, ekind, families)) != MIAI_OK) {
        rc = MIAI_ENOMEM;
        goto done;
    }
    /* guard links (a member to the ANDs it guards) and groups, by node */
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t e = d->first_in[i]; e < d->first_in[i + 1]; e++)
            if (ekind[e] == 2) {
                key[m] = d->in[e];
                val[m++] = i;
            }
    if ((rc = pn_csr(n, m, key, val, &gdfirst, &gdlink)) != MIAI_OK) goto done;
    for (m = 0; m < t->n_groups; m++) {
        key[m] = t->group[m].src;
        val[m] = m;
    }
    if ((rc = pn_csr(n, m, key, val, &grfirst, &grlink)) != MIAI_OK) goto done;
    /* fan-out: the gates reading each node (none inside one range: it settles whole;
     * none to a lazy gate; none in a group or from a guard) */
    m = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t e = t->is_lazy[i] ? d->first_in[i + 1] : d->first_in[i];
             e < d->first_in[i + 1]; e++) {
            uint32_t src = d->in[e];
            if (t->range_id[i] && t->range_id[i] == t->range_id[src]) continue;
            if (ekind[e]) continue;
            key[m] = src;
            val[m++] = i | (t->range_id[i] ? PN_EDGE_RANGE : 0) |
                       (d->kind[i] == MIAI_PN_NOT ? PN_EDGE_NEGATED : 0);
        }
    if ((rc = pn_csr(n, m, key, val, &first, &edge)) != MIAI_OK) goto done;
    /* watches: next-state and legal-move bits (bit indices into the work block's
     * next | legal words) follow their nodes */
    uint32_t n_links = m, bw = d->base_words ? d->base_words : 1;
    m = 0;
    for (uint32_t b = 0; b < d->n_base; b++) {
        key[m] = d->next_node[b];
        val[m++] = b;
    }
    for (uint32_t g = 0; g < d->total_moves; g++) {
        key[m] = d->legal_node[g];
        uint32_t slot = d->input_role[g] + 1 + (pn_bit(d->guarded, g) ? MIAI_MAX_ROLES : 0);
        val[m++] = slot << PN_WATCH_ROLE_SHIFT | (bw * 64 + g);
    }
    n_links += m + gdfirst[n] + grfirst[n];
    rc = pn_csr(n, m, key, val, &wfirst, &wval);
    t->span = malloc(sizeof *t->span * n);
    t->link = malloc(sizeof *t->link * (n_links ? n_links : 1));
    if (rc != MIAI_OK || !t->span || !t->link) {
        rc = MIAI_ENOMEM;
        goto done;
    }
    /* per node: counted edges, then range edges, then watches */
    m = 0;
    for (uint32_t i = 0; i < n; i++) {
        t->span[i].edge = m;
        for (uint32_t e = first[i]; e < first[i + 1]; e++)
            if (!(edge[e] & (PN_EDGE_RANGE | PN_EDGE_NEGATED))) t->link[m++] = edge[e];
        t->span[i].neg = m;
        for (uint32_t e = first[i]; e < first[i + 1]; e++)
            if ((edge[e] & (PN_EDGE_RANGE | PN_EDGE_NEGATED)) == PN_EDGE_NEGATED)
                t->link[m++] = edge[e] & PN_EDGE_NODE;
        t->span[i].range = m;
        for (uint32_t e = first[i]; e < first[i + 1]; e++)
            if (edge[e] & PN_EDGE_RANGE) t->link[m++] = edge[e] & PN_EDGE_NODE;
        t->span[i].watch = m;
        for (uint32_t e = wfirst[i]; e < wfirst[i + 1]; e++) t->link[m++] = wval[e];
        t->span[i].end = m;
        t->xspan[i].guard = m;
        for (uint32_t e = gdfirst[i]; e < gdfirst[i + 1]; e++) t->link[m++] = gdlink[e];
        t->xspan[i].group = m;
        for (uint32_t e = grfirst[i]; e < grfirst[i + 1]; e++) t->link[m++] = grlink[e];
        t->xspan[i].end = m;
    }
    /* sources: the BASE nodes of each base, the INPUT nodes of each move */
    m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (d->kind[i] == MIAI_PN_BASE) {
            key[m] = d->arg[i];
            val[m++] = i;
        }
    if ((rc = pn_csr(d->n_base, m, key, val, &t->base_first, &t->base_nodes)) != MIAI_OK)
        goto done;
    m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (d->kind[i] == MIAI_PN_INPUT) {
            key[m] = d->arg[i];
            val[m++] = i;
        }
    if ((rc = pn_csr(d->total_moves, m, key, val, &t->input_first, &t->input_nodes)) !=
        MIAI_OK)
        goto done;
    /* MOVESET nodes by the moves of their sets: a move change touches only those */
    size_t n_pairs = 0;
    for (uint32_t i = 0; i < n; i++)
        if (d->kind[i] == MIAI_PN_MOVESET)
            for (uint32_t k = 0; k < d->set_words; k++)
                n_pairs += (size_t)__builtin_popcountll(
                    d->set_bits[(size_t)d->arg[i] * d->set_words + k]);
    if (n_pairs > UINT32_MAX / 2) {
        rc = MIAI_ELIMIT;
        goto done;
    }
    uint32_t *skey = calloc(n_pairs ? n_pairs : 1, sizeof *skey);
    uint32_t *sval = calloc(n_pairs ? n_pairs : 1, sizeof *sval);
    if (!skey || !sval) {
        free(skey);
        free(sval);
        rc = MIAI_ENOMEM;
        goto done;
    }
    m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (d->kind[i] == MIAI_PN_MOVESET) {
            const uint64_t *bits = d->set_bits + (size_t)d->arg[i] * d->set_words;
            for (uint32_t k = 0; k < d->set_words; k++)
                for (uint64_t x = bits[k]; x; x &= x - 1) {
                    skey[m] = k * 64 + (uint32_t)__builtin_ctzll(x);
                    sval[m++] = i;
                }
        }
    rc = pn_csr(d->total_moves, m, skey, sval, &t->set_first, &t->set_nodes);
    free(skey);
    free(sval);
    if (rc != MIAI_OK) goto done;
    t->bshift = 0;
    while (d->base_words && ((d->base_words - 1) >> t->bshift) >= 64) t->bshift++;
    uint32_t runs = d->base_words ? ((d->base_words - 1) >> t->bshift) + 1 : 0;
    t->bases_all = runs >= 64 ? ~0ULL : (1ULL << runs) - 1;
    if ((rc = pn_diff_snapshot(d)) != MIAI_OK) goto done;
    t->enabled = 1;
    rc = MIAI_OK;
done:
    free(key);
    free(val);
    free(ekind);
    free(gdfirst);
    free(gdlink);
    free(grfirst);
    free(grlink);
    free(first);
    free(edge);
    free(wfirst);
    free(wval);
    if (rc != MIAI_OK) pn_diff_free(t);
    return rc;
}
