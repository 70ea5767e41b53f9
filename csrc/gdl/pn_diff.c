/* pn_diff.c -- random playouts on a propnet by differential (event-driven) evaluation.
 *
 * The plain evaluation (pn_plain.c) recomputes every node the outputs need at every
 * ply.  Here the value of every node is kept across the plies of one playout, and a
 * ply only propagates what changed:
 *   - each gate keeps a counter, its true inputs minus its threshold (AND: fan-in,
 *     OR: 1; NOT counts its false input against 1), and is true when it is >= 0;
 *   - a changed node steps the counters of the gates reading it; a counter that
 *     changes sign toggles the gate's bit in a bitmap of dirty nodes (two changes
 *     before it settles cancel out); since an input always has a smaller index than
 *     its gate (outside cyclic ranges), the bitmap is swept upwards once per wave and
 *     every dirty gate simply flips, once;
 *   - a cyclic range [lo, hi) (positive recursion) is recomputed whole from all-false
 *     to its least fixpoint, as in the plain evaluation, when one of its nodes is
 *     marked; its nodes' changes then go out like any other;
 *   - the legal-move bits and per-role counts follow their nodes, the next-state bits
 *     follow theirs (a changed node flips its watched bits); a role's guarded moves
 *     count apart and are legal while its guard node holds; terminal is a node value;
 *     the gates only the goals need are lazy: a ply never touches them, and when a
 *     playout ends they take what changed since the snapshot (pn_goal_wave) or, on
 *     nets with few of them, are evaluated once.
 * One ply = one wave for the joint move (INPUT nodes, MOVESET nodes whose count of
 * roles playing a move of the set crosses zero: pn_joint_change), then one wave for
 * the base propositions that the next-state bits change.  A playout starts from a
 * copy of the snapshot (the initial state's evaluation, built with the game) and one
 * wave for the bases where its state differs.  The moves are drawn exactly as
 * miai_generic_playout draws them (same random calls, same order of the legal moves),
 * so a playout gives the same moves and the same final state as the generic loop over
 * play(); miai_gdl_playout_check verifies that ply by ply, and every value and counter
 * (but the lazy gates') against a plain evaluation of the whole net.  play() itself
 * (pn_diff_play) is one such ply from the state's evaluation, on nets of
 * PN_DIFF_PLAY_MIN_NODES nodes or more.  Nets of at most 64 nodes without a cycle go
 * to the word-parallel evaluation (pn_bits.c) instead, for playouts and play(), and
 * nets of 65-128 nodes where it counts less work (pn_bits_choose): pn_engine.c
 * chooses.
 *
 * Working memory (one work block: dirty bits, next-state and legal bits, counts,
 * counters, node values) lives on the caller's stack: nothing is allocated per
 * playout or per ply, the game stays immutable.  Above PN_DIFF_MAX_NODES nodes, or
 * for a net with a source node inside a range, playouts use the generic loop.
 *
 * This file is the waves: a ply, play(), a playout, a batch on one work block, check
 * mode.  The tables they read are built in pn_diff_tables.c, and pn_diff_calibrate.c
 * picks the way of a ply; calls: pn_plain.c only.
 */
#include <stdlib.h>
#include <string.h>

#include "pn_diff.h"
#include "pn_plain.h"

#define PN_NO_MOVE 0xffffffffu

/* ---- one playout ---------------------------------------------------------------- */

typedef struct {
    const pn_data *d;
    const pn_diff_tables *t;
    uint64_t *dirty;     /* nodes to settle */
    uint64_t *dsum;      /* words of dirty that have had a bit set since the sweep
                          * passed them: the sweep skips 64 clean words at once (on
                          * every net: a bound on the highest dirty word, kept as the
                          * bits flip, cost more on big nets, 2026-11-26) */
    uint64_t *bits;      /* next-state bits, then legal-move bits (watch indices) */
    uint64_t *next;      /* next-state bits (= bits) */
    uint64_t *legal;     /* legal-move bits */
    uint32_t *count;     /* [2 MIAI_MAX_ROLES + 1]: 0 unused; r + 1: role r's legal moves
                          * without a guard; r + 1 + MIAI_MAX_ROLES: its guarded moves
                          * whose legal node holds (legal when the guard holds too) */
    int32_t *cnt;        /* gates: true inputs minus the threshold, true when >= 0 */
    uint8_t *v;          /* node values (bit 0; PN_V_RANGE and bit 1: see pn_internal.h) */
    uint32_t dlo;        /* the lowest word of dirty that may be non-zero */
    uint32_t nsum;       /* words of dsum */
    uint8_t broken;      /* a family's member rose while another held (pn_set_source1) */
    uint32_t *cur;       /* each mutex family's true member: index + 1, 0 for none */
    uint8_t *front;      /* NULL: the lazy gates hold the snapshot's values; else the
                          * frontier values (by pn_diff_tables.front index) they were
                          * last settled on (a batch's kept block, pn_diff_playouts) */
} pn_wave;

static void pn_tally_begin(const pn_wave *w, pn_tally *t) {
    memcpy(t->before, w->v, w->d->n_nodes);
}

/* The family links' work of node k, which a wave changed: the ANDs it guards (counted
 * again from all their inputs when it rose), and per group a lookup and the ANDs of
 * the member that holds after the wave, against one step per deferred edge. */
static void pn_tally_extra(const pn_wave *w, pn_tally *t, uint32_t k) {
    const pn_diff_tables *dt = w->t;
    const pn_data *d = w->d;
    const pn_xspan xs = dt->xspan[k];
    int rose = w->v[k] & 1;
    /* in counted edges' worth of instructions (callgrind, roshambo2 and gt_prisoner:
     * the call and the member's bookkeeping about 6 steps, an AND counted again 3 and
     * its inputs, a group's lookup 3) */
    t->fam += 6;
    for (uint32_t e = xs.guard; e < xs.group; e++) {
        uint32_t g = dt->link[e];
        t->fam += rose ? 3 + d->first_in[g + 1] - d->first_in[g] : 1;
        t->unfam += 1;
    }
    for (uint32_t e = xs.group; e < xs.end; e++) {
        const pn_group gr = dt->group[dt->link[e]];
        uint32_t c = w->cur[gr.fam], size = dt->fam_size[gr.fam];
        t->fam += 3 + (c ? dt->gfirst[gr.off + c] - dt->gfirst[gr.off + c - 1] : 0);
        t->unfam += dt->gfirst[gr.off + size] - dt->gfirst[gr.off];
    }
}

static void pn_tally_end(const pn_wave *w, pn_tally *t) {
    uint32_t n = w->d->n_nodes;
    for (uint32_t i = 0; i < n; i += 8) { /* 8 values at a time: most are unchanged */
        uint64_t a = 0, b = 0;
        memcpy(&a, w->v + i, n - i < 8 ? n - i : 8);
        memcpy(&b, t->before + i, n - i < 8 ? n - i : 8);
        for (uint64_t x = (a ^ b) & 0x0101010101010101ULL; x; x &= x - 1) {
            uint32_t k = i + (uint32_t)__builtin_ctzll(x) / 8;
            t->steps += 1 + w->t->span[k].end - w->t->span[k].edge;
            if (w->v[k] & PN_V_EXTRA) pn_tally_extra(w, t, k);
        }
    }
}

/* Where each part of the work block lies, in words. */
static pn_layout pn_wave_layout(const pn_data *d) {
    pn_layout l;
    uint32_t n = d->n_nodes, bw = d->base_words ? d->base_words : 1;
    l.dirty = 0;
    l.dsum = l.dirty + (n + 63) / 64;
    l.next = l.dsum + ((n + 63) / 64 + 63) / 64;
    l.legal = l.next + bw;
    l.count = l.legal + d->legal_words;
    l.cnt = l.count + (2 * MIAI_MAX_ROLES + 2) / 2;
    l.cur = l.cnt + (n + 1) / 2;
    l.v = l.cur + (d->n_families + d->n_gate_families + 1) / 2;
    l.words = l.v + (n + 7) / 8;
    return l;
}

static pn_wave pn_wave_on(const pn_data *d, uint64_t *work) {
    const pn_layout *l = &d->diff.lay;
    return (pn_wave){.d = d, .t = &d->diff, .dirty = work + l->dirty, .dsum = work + l->dsum,
                     .bits = work + l->next, .next = work + l->next,
                     .legal = work + l->legal, .count = (uint32_t *)(work + l->count),
                     .cnt = (int32_t *)(work + l->cnt), .cur = (uint32_t *)(work + l->cur),
                     .v = (uint8_t *)(work + l->v),
                     .nsum = l->next - l->dsum, .dlo = UINT32_MAX};
}

/* A gate's counter changed sign: toggle its dirty bit (two sign changes before it
 * settles cancel out) and mark its word in dsum.  It lies above the node being
 * settled, which the sweep has passed, so dlo never moves here. */
static inline void pn_flip(pn_wave *w, uint32_t node) {
    uint32_t word = node >> 6;
    w->dirty[word] ^= 1ULL << (node & 63);
    w->dsum[word >> 6] |= 1ULL << (word & 63);
}

/* A gate of a range is marked: the range settles whole. */
static inline void pn_mark(pn_wave *w, uint32_t node) {
    uint32_t word = node >> 6;
    w->dirty[word] |= 1ULL << (node & 63);
    w->dsum[word >> 6] |= 1ULL << (word & 63);
}

/* Member `guard` of AND g has risen: g's counter, which lagged while the guard was
 * false (and stayed < 0), is counted again from its inputs' values. */
static inline void pn_guard_rise(pn_wave *w, uint32_t g) {
    const pn_data *d = w->d;
    const pn_op o = d->op[g];
    int32_t c = -(int32_t)(o.b - o.a), old = w->cnt[g];
    for (uint32_t k = o.a; k < o.b; k++) c += w->v[d->in[k]] & 1;
    w->cnt[g] = c;
    if ((old >= 0) != (c >= 0)) pn_flip(w, g);
}

/* The family links of node i (PN_V_EXTRA), which has just changed to x: its
 * family's true member follows it; as a guard it counts its ANDs again when it rises
 * (or steps them down as it falls); through its groups it is counted in the ANDs
 * guarded by the member that holds. */
static inline __attribute__((always_inline)) void pn_changed_extra(pn_wave *w, uint32_t i,
                                                                    uint8_t x) {
    const pn_diff_tables *t = w->t;
    const pn_xspan xs = t->xspan[i];
    const uint32_t *link = t->link;
    int32_t *cnt = w->cnt;
    if (xs.fam) {
        uint32_t me = (xs.idx & ~PN_XS_BASE) + 1, *cur = &w->cur[xs.fam - 1];
        if (x) {
            /* bases fall before they rise (pn_bases_change); a gate family's members
             * may overlap while a wave settles (pn_internal.h, mutex families) */
            w->broken |= (xs.idx & PN_XS_BASE) && *cur && *cur != me;
            *cur = me;
        } else if (*cur == me) {
            *cur = 0;
        }
    }
    for (uint32_t e = xs.guard; e < xs.group; e++) {
        if (x)
            pn_guard_rise(w, link[e]);
        else if (cnt[link[e]]-- == 0)
            pn_flip(w, link[e]);
    }
    for (uint32_t e = xs.group; e < xs.end; e++) {
        const pn_group gr = t->group[link[e]];
        uint32_t c = w->cur[gr.fam];
        if (!c) continue;
        const uint32_t *gl = t->glink;
        uint32_t lo = t->gfirst[gr.off + c - 1], hi = t->gfirst[gr.off + c];
        if (x) {
            for (uint32_t k = lo; k < hi; k++)
                if (++cnt[gl[k]] == 0) pn_flip(w, gl[k]);
        } else {
            for (uint32_t k = lo; k < hi; k++)
                if (cnt[gl[k]]-- == 0) pn_flip(w, gl[k]);
        }
    }
}

/* Node i has just changed to x: count it in the gates reading it, mark those whose
 * counter crosses from -1 to 0 or back (and the range gates it feeds), flip the
 * watched bits.  (Its family links, if any: pn_changed_extra.) */
static inline __attribute__((always_inline)) void pn_changed(pn_wave *w, uint32_t i,
                                                              uint8_t x) {
    const uint32_t *link = w->t->link;
    int32_t *cnt = w->cnt;
    const pn_span sp = w->t->span[i];
    int32_t delta = x ? 1 : -1;
    /* a gate flips when its counter goes from -1 to 0 or from 0 to -1 */
    if (x) {
        for (uint32_t e = sp.edge; e < sp.neg; e++)
            if (++cnt[link[e]] == 0) pn_flip(w, link[e]);
        for (uint32_t e = sp.neg; e < sp.range; e++)
            if (cnt[link[e]]-- == 0) pn_flip(w, link[e]);
    } else {
        for (uint32_t e = sp.edge; e < sp.neg; e++)
            if (cnt[link[e]]-- == 0) pn_flip(w, link[e]);
        for (uint32_t e = sp.neg; e < sp.range; e++)
            if (++cnt[link[e]] == 0) pn_flip(w, link[e]);
    }
    for (uint32_t e = sp.range; e < sp.watch; e++) pn_mark(w, link[e]);
    for (uint32_t e = sp.watch; e < sp.end; e++) {
        uint32_t a = link[e], k = a & PN_WATCH_INDEX;
        w->bits[k >> 6] ^= 1ULL << (k & 63);
        w->count[a >> PN_WATCH_ROLE_SHIFT] += (uint32_t)delta;
    }
}

/* A source node (BASE, INPUT, MOVESET) takes value x, before a wave. */
static inline void pn_set_source0(pn_wave *w, uint32_t node, uint8_t x) {
    if (w->v[node] == x) return;
    w->v[node] = x;
    if ((node >> 6) < w->dlo) w->dlo = node >> 6; /* its gates lie above */
    pn_changed(w, node, x);
}

/* The same on a net that follows mutex families: the node's value may carry
 * PN_V_EXTRA.  The engine is compiled for each (pn_diff_run), fam a constant, so a net
 * without families does none of this work. */
static inline void pn_set_source1(pn_wave *w, uint32_t node, uint8_t x) {
    uint8_t old = w->v[node];
    if ((old & 1) == x) return;
    w->v[node] = old ^ 1;
    if ((node >> 6) < w->dlo) w->dlo = node >> 6;
    pn_changed(w, node, x);
    if (old & PN_V_EXTRA) pn_changed_extra(w, node, x);
}

#define pn_set_source(w, node, x, fam) \
    ((fam) ? pn_set_source1(w, node, x) : pn_set_source0(w, node, x))

static inline uint8_t pn_gate_from_inputs(const pn_data *d, const uint8_t *v, uint32_t i) {
    const pn_op o = d->op[i];
    if (o.kind == MIAI_PN_AND) {
        for (uint32_t k = o.a; k < o.b; k++)
            if (!(v[d->in[k]] & 1)) return 0;
        return 1;
    }
    for (uint32_t k = o.a; k < o.b; k++)
        if (v[d->in[k]] & 1) return 1;
    return 0;
}

/* Range [lo, hi) from all-false to its least fixpoint (monotone: at most hi - lo + 1
 * sweeps); the old values wait in bit 1. */
static void pn_range_fixpoint(const pn_data *d, uint8_t *v, uint32_t lo, uint32_t hi) {
    for (uint32_t n = lo; n < hi; n++) v[n] = (uint8_t)(PN_V_RANGE | (v[n] & 1) << 1);
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t n = lo; n < hi; n++) {
            uint8_t x = pn_gate_from_inputs(d, v, n);
            if (x != (v[n] & 1)) {
                v[n] = (uint8_t)((v[n] & ~1u) | x);
                changed = 1;
            }
        }
    }
}

/* Range [lo, hi) evaluated from scratch (no old values to compare): its least
 * fixpoint, each node left as a settled range value. */
static void pn_range_fresh(const pn_data *d, uint8_t *v, uint32_t lo, uint32_t hi) {
    memset(v + lo, 0, hi - lo);
    pn_range_fixpoint(d, v, lo, hi);
    for (uint32_t n = lo; n < hi; n++) v[n] = (uint8_t)(PN_V_RANGE | (v[n] & 1));
}

/* Recompute range r, then send out the changes. */
static void pn_settle_range(pn_wave *w, uint32_t r) {
    const pn_data *d = w->d;
    uint32_t lo = d->range_lo[r], hi = d->range_hi[r];
    uint8_t *v = w->v;
    for (uint32_t n = lo; n < hi; n++) w->dirty[n >> 6] &= ~(1ULL << (n & 63));
    pn_range_fixpoint(d, v, lo, hi);
    for (uint32_t n = lo; n < hi; n++) {
        uint8_t old = (v[n] >> 1) & 1, x = v[n] & 1;
        v[n] = (uint8_t)(PN_V_RANGE | x);
        if (old != x) pn_changed(w, n, x);
    }
}

/* Node i has just changed to x: count it in the lazy gates reading it (the goal wave;
 * no watches, no ranges there). */
static inline void pn_lazy_changed(pn_wave *w, uint32_t i, uint8_t x) {
    const pn_diff_tables *t = w->t;
    int32_t *cnt = w->cnt;
    for (uint32_t e = t->lazy_first[i]; e < t->lazy_first[i + 1]; e++) {
        uint32_t g = t->lazy_link[e] & PN_EDGE_NODE;
        if ((x != 0) != ((t->lazy_link[e] & PN_EDGE_NEGATED) != 0)) {
            if (++cnt[g] == 0) pn_flip(w, g);
        } else if (cnt[g]-- == 0) {
            pn_flip(w, g);
        }
    }
}

/* Settle every dirty node, lowest index first: a dirty gate outside ranges has
 * flipped (its counter changed sign an odd number of times).  goal: the goal wave,
 * whose dirty nodes are lazy gates and reach lazy gates only. */
static inline __attribute__((always_inline)) void pn_settle_word(pn_wave *w, uint32_t word,
                                                                 int goal, int fam) {
    uint8_t *v = w->v;
    uint64_t *dirty = w->dirty;
    while (dirty[word]) {
        uint32_t i = word * 64 + (uint32_t)__builtin_ctzll(dirty[word]);
        dirty[word] &= dirty[word] - 1;
        uint8_t x = v[i] ^ 1;
        if (goal) {
            v[i] = x;
            pn_lazy_changed(w, i, x);
            continue;
        }
        if (x & PN_V_RANGE) {
            pn_settle_range(w, w->t->range_id[i] - 1);
            continue;
        }
        if (fam && (x & PN_V_EXTRA)) { /* fam: a constant (pn_set_source1) */
            v[i] = x;
            pn_changed(w, i, x & 1);
            pn_changed_extra(w, i, x & 1);
            continue;
        }
        v[i] = x;
        pn_changed(w, i, x);
    }
}

static inline __attribute__((always_inline)) void pn_sweep(pn_wave *w, int goal, int fam) {
    uint64_t *dsum = w->dsum;
    /* a settled node only marks nodes above it: in its word (pn_settle_word) or in a
     * later word (a higher bit of dsum, read again after each word) */
    for (uint32_t sw = w->dlo >> 6, n = w->nsum; sw < n; sw++)
        while (dsum[sw]) {
            uint32_t word = sw * 64 + (uint32_t)__builtin_ctzll(dsum[sw]);
            dsum[sw] &= dsum[sw] - 1;
            pn_settle_word(w, word, goal, fam);
        }
    w->dlo = UINT32_MAX;
}

static void pn_wave_run0(pn_wave *w) { pn_sweep(w, 0, 0); }
static void pn_wave_run1(pn_wave *w) { pn_sweep(w, 0, 1); }
static inline void pn_wave_run(pn_wave *w, int fam) {
    if (fam)
        pn_wave_run1(w);
    else
        pn_wave_run0(w);
}

/* The goal wave, once a playout ends (pn_internal.h): the lazy gates still hold the
 * snapshot's values and counters, so the frontier nodes that differ from the
 * snapshot's step their lazy readers, and the lazy gates that flip settle upwards.
 * It touches what changed since the initial state (queens: about 380 of its 2,712
 * lazy gates) instead of evaluating every lazy gate. */
static void pn_goal_wave(pn_wave *w) {
    const pn_diff_tables *t = w->t;
    const uint8_t *v0 = (const uint8_t *)(t->work0 + t->lay.v);
    const uint8_t *v = w->v;
    if (w->front) { /* a kept block: against what they last settled on */
        for (uint32_t k = 0; k < t->n_front; k++) {
            uint32_t f = t->front[k];
            if ((v[f] & 1) != w->front[k]) {
                w->front[k] = v[f] & 1;
                pn_lazy_changed(w, f, v[f] & 1);
            }
        }
    } else {
        for (uint32_t k = 0; k < t->n_front; k++) {
            uint32_t f = t->front[k];
            if ((v[f] ^ v0[f]) & 1) pn_lazy_changed(w, f, v[f] & 1);
        }
    }
    w->dlo = t->lazy[0] >> 6;
    pn_sweep(w, 1, 0);
}

/* The lazy gates from their inputs' values, in index order (inputs first): the goals'
 * cone is current.  Their counters are left stale: only on nets without the goal wave,
 * which alone reads them. */
static void pn_eval_lazy(pn_wave *w) {
    const pn_data *d = w->d;
    uint8_t *v = w->v;
    for (uint32_t k = 0; k < w->t->n_lazy; k++) {
        uint32_t i = w->t->lazy[k];
        const pn_op o = d->op[i];
        v[i] = o.kind == MIAI_PN_NOT ? !(v[d->in[o.a]] & 1) : pn_gate_from_inputs(d, v, i);
    }
}

/* Every node's value and counter from the base bits and the joint move `cur`
 * (PN_NO_MOVE: none), a plain evaluation of the whole net: the snapshot is built by it
 * and check mode compares the wave with it.  Range nodes and sources count 0. */
static void pn_eval_all(const pn_data *d, const uint64_t *base, const miai_move *cur,
                        uint8_t *v, int32_t *cnt) {
    for (uint32_t i = 0; i < d->n_nodes; i++) {
        uint32_t rid = d->diff.range_id[i];
        if (rid) {
            uint32_t lo = d->range_lo[rid - 1], hi = d->range_hi[rid - 1];
            pn_range_fresh(d, v, lo, hi);
            for (uint32_t n = lo; n < hi; n++) cnt[n] = 0; /* settled whole, not counted */
            i = hi - 1;
            continue;
        }
        const pn_op o = d->op[i];
        int32_t c = 0;
        cnt[i] = 0; /* sources have no counter */
        switch (o.kind) {
        case MIAI_PN_TRUE: v[i] = 1; break;
        case MIAI_PN_BASE: v[i] = (uint8_t)pn_bit(base, o.a); break;
        case MIAI_PN_INPUT: {
            miai_move m = cur[d->input_role[o.a]];
            v[i] = m != PN_NO_MOVE && m == d->input_move[o.a];
            break;
        }
        case MIAI_PN_MOVESET: {
            const uint64_t *bits = d->set_bits + (size_t)o.a * d->set_words;
            for (uint32_t r = 0; r < d->n_roles; r++)
                c += cur[r] != PN_NO_MOVE && pn_bit(bits, d->move_off[r] + cur[r]);
            cnt[i] = c - 1;
            v[i] = cnt[i] >= 0;
            break;
        }
        case MIAI_PN_AND:
        case MIAI_PN_OR:
            for (uint32_t k = o.a; k < o.b; k++) c += v[d->in[k]] & 1;
            cnt[i] = c - (o.kind == MIAI_PN_AND ? (int32_t)(o.b - o.a) : 1);
            v[i] = cnt[i] >= 0;
            break;
        case MIAI_PN_NOT:
            cnt[i] = (int32_t)!(v[d->in[o.a]] & 1) - 1;
            v[i] = cnt[i] >= 0;
            break;
        default: v[i] = 0; break;
        }
    }
}

/* Each family's true member (index + 1, 0 for none): a base family's in the base
 * bits (of the bases with a BASE node: the others' changes reach no node, so the wave
 * cannot follow them), a gate family's in the node values (the last when several
 * hold: a state the rules do not allow, pn_verify); 0 for a family the engine does
 * not use. */
static void pn_family_members(const pn_data *d, const uint64_t *base, const uint8_t *v,
                              uint32_t *cur) {
    const uint32_t *bf = d->diff.base_first;
    for (uint32_t f = 0; f < d->n_families; f++) {
        cur[f] = 0;
        if (!d->diff.fam_size[f]) continue; /* unused */
        for (uint32_t e = d->family_first[f]; e < d->family_first[f + 1]; e++) {
            uint32_t b = d->family_base[e]; /* a base no node reads is not followed */
            if (pn_bit(base, b) && bf[b + 1] > bf[b]) cur[f] = e - d->family_first[f] + 1;
        }
    }
    for (uint32_t f = 0; f < d->n_gate_families; f++) {
        uint32_t *c = &cur[d->n_families + f];
        *c = 0;
        if (!d->diff.fam_size[d->n_families + f]) continue; /* unused: lazy gates */
        for (uint32_t e = d->gate_family_first[f]; e < d->gate_family_first[f + 1]; e++)
            if (v[d->gate_family_node[e]] & 1) *c = e - d->gate_family_first[f] + 1;
    }
}

/* Every node's value and counter from the base bits, no move played (a plain
 * evaluation of the whole net); clears the dirty bits. */
static void pn_wave_init(pn_wave *w, const uint64_t *base) {
    const pn_data *d = w->d;
    uint8_t *v = w->v;
    memset(w->dirty, 0, sizeof(uint64_t) * (d->diff.lay.next - d->diff.lay.dirty)); /* + dsum */
    miai_move none[MIAI_MAX_ROLES];
    for (uint32_t r = 0; r < d->n_roles; r++) none[r] = PN_NO_MOVE;
    pn_eval_all(d, base, none, v, w->cnt);
    memset(w->next, 0, sizeof(uint64_t) * d->base_words);
    for (uint32_t b = 0; b < d->n_base; b++)
        if (v[d->next_node[b]] & 1) w->next[b >> 6] |= 1ULL << (b & 63);
    pn_family_members(d, base, v, w->cur);
    memset(w->legal, 0, sizeof(uint64_t) * d->legal_words);
    memset(w->count, 0, sizeof(uint32_t) * (2 * MIAI_MAX_ROLES + 1));
    for (uint32_t r = 0; r < d->n_roles; r++)
        for (uint32_t g = d->move_off[r]; g < d->move_off[r + 1]; g++)
            if (v[d->legal_node[g]] & 1) {
                w->legal[g >> 6] |= 1ULL << (g & 63);
                w->count[r + 1 + (pn_bit(d->guarded, g) ? MIAI_MAX_ROLES : 0)]++;
            }
    w->dlo = UINT32_MAX;
}

/* The snapshot of the initial state's evaluation (built once per game). */
int pn_diff_snapshot(pn_data *d) {
    pn_diff_tables *t = &d->diff;
    uint32_t bw = d->base_words ? d->base_words : 1;
    t->lay = pn_wave_layout(d);
    t->base0 = calloc(bw, sizeof *t->base0);
    t->work0 = calloc(t->lay.words, sizeof *t->work0);
    if (!t->base0 || !t->work0) return MIAI_ENOMEM;
    for (uint32_t b = 0; b < d->n_base; b++)
        if (d->init[b]) t->base0[b >> 6] |= 1ULL << (b & 63);
    pn_wave w = pn_wave_on(d, t->work0);
    pn_wave_init(&w, t->base0);
    for (uint32_t i = 0; i < d->n_nodes; i++) /* the nodes with family links */
        if (t->xspan[i].fam || t->xspan[i].end > t->xspan[i].guard) w.v[i] |= PN_V_EXTRA;
    return MIAI_OK;
}

/* The bases set in diff whose value in `now` is `which` (-1: every one) take it; with
 * a head, its Zobrist key follows. */
static inline __attribute__((always_inline)) void
pn_bases_word(pn_wave *w, const uint64_t *now, const uint64_t *diff, uint32_t word, int which,
              miai_head *head, int fam) {
    const pn_data *d = w->d;
    const pn_diff_tables *t = w->t;
    uint64_t x = diff[word];
    if (which >= 0) x &= which ? now[word] : ~now[word];
    for (; x; x &= x - 1) {
        uint32_t b = word * 64 + (uint32_t)__builtin_ctzll(x);
        uint8_t v = (uint8_t)pn_bit(now, b);
        if (head) miai_zxor(head, d->zbase[b]);
        for (uint32_t e = t->base_first[b]; e < t->base_first[b + 1]; e++)
            pn_set_source(w, t->base_nodes[e], v, fam);
    }
}

/* The same over the base words: every one on a state of at most PN_BASES_SCAN_WORDS
 * words, else the runs marked in `touched` (diff is 0 elsewhere, and may be unset). */
static inline __attribute__((always_inline)) void
pn_bases_set(pn_wave *w, const uint64_t *now, const uint64_t *diff, uint64_t touched,
             int which, miai_head *head, int fam) {
    const pn_data *d = w->d;
    if (d->base_words <= PN_BASES_SCAN_WORDS) {
        for (uint32_t word = 0; word < d->base_words; word++)
            pn_bases_word(w, now, diff, word, which, head, fam);
        return;
    }
    uint8_t bshift = w->t->bshift;
    for (uint64_t tx = touched; tx; tx &= tx - 1) {
        uint32_t lo = (uint32_t)__builtin_ctzll(tx) << bshift, hi = lo + (1u << bshift);
        if (hi > d->base_words) hi = d->base_words;
        for (uint32_t word = lo; word < hi; word++)
            pn_bases_word(w, now, diff, word, which, head, fam);
    }
}

/* The bases that change take their values: on a net with mutex families those that
 * fall first, so a member rising while another holds is a broken state. */
static inline __attribute__((always_inline)) void
pn_bases_change(pn_wave *w, const uint64_t *now, const uint64_t *diff, uint64_t touched,
                miai_head *head, int fam) {
    if (fam && w->t->base_fam_used) {
        pn_bases_set(w, now, diff, touched, 0, head, fam);
        pn_bases_set(w, now, diff, touched, 1, head, fam);
    } else {
        pn_bases_set(w, now, diff, touched, -1, head, fam);
    }
}

/* The block holds the evaluation of the bases `from`: a wave takes it to `to`. */
static inline __attribute__((always_inline)) void
pn_wave_between(pn_wave *w, const uint64_t *from, const uint64_t *to, int fam) {
    const pn_data *d = w->d;
    uint32_t flips = 0;
    uint64_t diff[d->base_words ? d->base_words : 1];
    for (uint32_t word = 0; word < d->base_words; word++) {
        diff[word] = to[word] ^ from[word];
        flips |= diff[word] != 0;
    }
    pn_bases_change(w, to, diff, w->t->bases_all, NULL, fam);
    if (flips) pn_wave_run(w, fam);
}

/* The evaluation of the state's bases, no move played, in the work block: a copy of
 * the snapshot, then a wave for the bases that differ from the initial state.  The
 * wave settles each gate and walks each edge at most once, like a plain evaluation of
 * the net, so a state far from the initial one stays cheap (measured: cheaper than a
 * plain evaluation 8 plies into Tic-tac-toe). */
static inline __attribute__((always_inline)) void
pn_wave_start(pn_wave *w, uint64_t *work, const uint64_t *base, int fam) {
    const pn_diff_tables *t = w->t;
    memcpy(work, t->work0, sizeof(uint64_t) * t->lay.words);
    pn_wave_between(w, t->base0, base, fam);
}

/* Role r's legal moves: those without a guard, and its guarded ones while the guard
 * holds (the legal bits follow the legal nodes, without the guard). */
static inline uint32_t pn_role_count(const pn_wave *w, uint32_t r) {
    return w->count[r + 1] +
           ((w->v[w->d->legal_guard[r]] & 1) ? w->count[r + 1 + MIAI_MAX_ROLES] : 0);
}

/* What to clear from role r's legal bits: its guarded moves while the guard is off. */
static inline uint64_t pn_guard_off(const pn_wave *w, uint32_t r) {
    return (w->v[w->d->legal_guard[r]] & 1) ? 0 : ~0ULL;
}

/* The legal-move bits of the state: the legal bits without the moves whose guard is off. */
static void pn_state_legal(const pn_wave *w, uint64_t *out) {
    const pn_data *d = w->d;
    memcpy(out, w->legal, sizeof(uint64_t) * d->legal_words);
    for (uint32_t r = 0; r < d->n_roles; r++) {
        uint32_t lo = d->move_off[r], hi = d->move_off[r + 1];
        if (hi == lo || pn_guard_off(w, r) == 0) continue;
        for (uint32_t word = lo >> 6; word <= (hi - 1) >> 6; word++) {
            uint64_t mine = ~0ULL;
            if (word == lo >> 6) mine &= ~0ULL << (lo & 63);
            if (word == (hi - 1) >> 6 && (hi & 63)) mine &= ~0ULL >> (64 - (hi & 63));
            out[word] &= ~(d->guarded[word] & mine);
        }
    }
}

/* The k-th legal move of role r (k < pn_role_count), in increasing order. */
static inline __attribute__((always_inline)) miai_move pn_kth_legal(const pn_wave *w,
                                                                     uint32_t r, uint32_t k) {
    const pn_data *d = w->d;
    return pn_kth_bit(w->legal, d->guarded, pn_guard_off(w, r), d->move_off[r],
                      d->move_off[r + 1], k);
}

/* The first legal move of role r (it has one): pn_kth_legal's k = 0 without its count
 * of bits (knightthrough 1.8 % fewer instructions a playout). */
static inline __attribute__((always_inline)) miai_move pn_first_legal(const pn_wave *w,
                                                                       uint32_t r) {
    const pn_data *d = w->d;
    uint64_t off = pn_guard_off(w, r);
    uint32_t lo = d->move_off[r], hi = d->move_off[r + 1];
    for (uint32_t word = lo >> 6; word <= (hi - 1) >> 6; word++) {
        uint64_t x = w->legal[word] & ~(d->guarded[word] & off);
        if (word == lo >> 6) x &= ~0ULL << (lo & 63);
        if (x) return (miai_move)(word * 64 + (uint32_t)__builtin_ctzll(x) - lo);
    }
    return 0;
}

/* to_move from the counts and the terminal node (pn_to_move). */
static int32_t pn_wave_to_move(const pn_wave *w) {
    uint32_t count[MIAI_MAX_ROLES];
    for (uint32_t r = 0; r < w->d->n_roles; r++) count[r] = pn_role_count(w, r);
    return pn_to_move(w->d, count, w->v[w->d->terminal_node] & 1);
}

/* The MOVESET nodes [from, to) take the values of their counters (most keep theirs). */
static inline void pn_settle_sets(pn_wave *w, const uint32_t *from, const uint32_t *to,
                                  int fam) {
    for (; from < to; from++) {
        uint32_t node = *from;
        uint8_t x = w->cnt[node] >= 0;
        /* its value byte carries PN_V_EXTRA only on a net that follows families */
        if ((fam ? w->v[node] & 1 : w->v[node]) != x) pn_set_source(w, node, x, fam);
    }
}

/* The joint move goes from `cur` to `joint` (PN_NO_MOVE in cur: none yet).  Each
 * changed role's INPUT nodes follow its move; a MOVESET node counts the roles whose
 * move lies in its set (counter = count - 1, true when >= 0, as an OR), so all roles'
 * counts are stepped first and only the sets whose value then differs go out: one
 * role's noop and the other's move leaving a frame axiom's set and entering it cancel
 * out before anything propagates. */
static inline __attribute__((always_inline)) void
pn_joint_change_(pn_wave *w, miai_move *cur, const miai_move *joint, int fam) {
    const pn_data *d = w->d;
    const pn_diff_tables *t = w->t;
    const uint32_t *sn = t->set_nodes, *sf = t->set_first;
    uint32_t old[MIAI_MAX_ROLES], now[MIAI_MAX_ROLES], n = 0;
    for (uint32_t r = 0; r < d->n_roles; r++) {
        if (joint[r] == cur[r]) continue;
        old[n] = cur[r] == PN_NO_MOVE ? PN_NO_MOVE : d->move_off[r] + cur[r];
        now[n] = d->move_off[r] + joint[r];
        cur[r] = joint[r];
        if (old[n] != PN_NO_MOVE) {
            for (uint32_t e = t->input_first[old[n]]; e < t->input_first[old[n] + 1]; e++)
                pn_set_source(w, t->input_nodes[e], 0, fam);
            for (uint32_t e = sf[old[n]]; e < sf[old[n] + 1]; e++) w->cnt[sn[e]]--;
        }
        for (uint32_t e = t->input_first[now[n]]; e < t->input_first[now[n] + 1]; e++)
            pn_set_source(w, t->input_nodes[e], 1, fam);
        for (uint32_t e = sf[now[n]]; e < sf[now[n] + 1]; e++) w->cnt[sn[e]]++;
        n++;
    }
    for (uint32_t k = 0; k < n; k++) {
        if (old[k] != PN_NO_MOVE) pn_settle_sets(w, sn + sf[old[k]], sn + sf[old[k] + 1], fam);
        pn_settle_sets(w, sn + sf[now[k]], sn + sf[now[k] + 1], fam);
    }
}

static void pn_joint_change0(pn_wave *w, miai_move *cur, const miai_move *joint) {
    pn_joint_change_(w, cur, joint, 0);
}
static void pn_joint_change1(pn_wave *w, miai_move *cur, const miai_move *joint) {
    pn_joint_change_(w, cur, joint, 1);
}

/* Every role's move leaves (cur: PN_NO_MOVE): its INPUT nodes off, its sets' counts
 * stepped down, then the sets that change go out. */
static inline __attribute__((always_inline)) void pn_joint_clear_(pn_wave *w, miai_move *cur,
                                                                  int fam) {
    const pn_data *d = w->d;
    const pn_diff_tables *t = w->t;
    const uint32_t *sn = t->set_nodes, *sf = t->set_first;
    uint32_t old[MIAI_MAX_ROLES], n = 0;
    for (uint32_t r = 0; r < d->n_roles; r++) {
        if (cur[r] == PN_NO_MOVE) continue;
        old[n] = d->move_off[r] + cur[r];
        cur[r] = PN_NO_MOVE;
        for (uint32_t e = t->input_first[old[n]]; e < t->input_first[old[n] + 1]; e++)
            pn_set_source(w, t->input_nodes[e], 0, fam);
        for (uint32_t e = sf[old[n]]; e < sf[old[n] + 1]; e++) w->cnt[sn[e]]--;
        n++;
    }
    for (uint32_t k = 0; k < n; k++)
        pn_settle_sets(w, sn + sf[old[k]], sn + sf[old[k] + 1], fam);
}

static void pn_joint_clear0(pn_wave *w, miai_move *cur) { pn_joint_clear_(w, cur, 0); }
static void pn_joint_clear1(pn_wave *w, miai_move *cur) { pn_joint_clear_(w, cur, 1); }

/* The joint move's wave-1 and wave-2 steps, compiled without and with families. */
static inline void pn_joint_change(pn_wave *w, miai_move *cur, const miai_move *joint,
                                   int fam) {
    if (fam)
        pn_joint_change1(w, cur, joint);
    else
        pn_joint_change0(w, cur, joint);
}

static inline void pn_joint_clear(pn_wave *w, miai_move *cur, int fam) {
    if (fam)
        pn_joint_clear1(w, cur);
    else
        pn_joint_clear0(w, cur);
}

/* Check mode: every node value and counter (but the lazy gates', and a guarded AND's
 * while its guard is false: < 0 only), each family's true member, the next-state and
 * legal bits and the counts against a plain evaluation of the whole net for the
 * state's bases and the joint move `cur` (PN_NO_MOVE: none).  1 when all agree. */
static int pn_verify(const pn_wave *w, const uint64_t *base, const miai_move *cur,
                     uint8_t *v, int32_t *cnt) {
    const pn_data *d = w->d;
    const pn_diff_tables *t = w->t;
    pn_eval_all(d, base, cur, v, cnt);
    for (uint32_t i = 0; i < d->n_nodes; i++) { /* lazy gates wait for the goals */
        if (t->is_lazy[i]) continue;
        if (v[i] != (w->v[i] & ~PN_V_EXTRA)) return 0;
        /* a guarded AND's counter lags while its guard is false, staying < 0 */
        int lags = t->guard_of[i] && !(v[t->guard_of[i]] & 1);
        if (lags ? w->cnt[i] >= 0 : cnt[i] != w->cnt[i]) return 0;
    }
    uint32_t nf = t->n_fam, members[nf ? nf : 1];
    pn_family_members(d, base, v, members);
    if (w->broken || (nf && memcmp(members, w->cur, sizeof(uint32_t) * nf) != 0)) return 0;
    for (uint32_t b = 0; b < d->n_base; b++)
        if (pn_bit(w->next, b) != (v[d->next_node[b]] & 1)) return 0;
    for (uint32_t r = 0; r < d->n_roles; r++) {
        uint32_t count[2] = {0, 0};
        for (uint32_t g = d->move_off[r]; g < d->move_off[r + 1]; g++) {
            if (pn_bit(w->legal, g) != (v[d->legal_node[g]] & 1)) return 0;
            count[pn_bit(d->guarded, g)] += v[d->legal_node[g]] & 1;
        }
        if (count[0] != w->count[r + 1] || count[1] != w->count[r + 1 + MIAI_MAX_ROLES])
            return 0;
    }
    for (uint32_t word = 0; word < w->t->lay.next - w->t->lay.dirty; word++)
        if (w->dirty[word]) return 0; /* and dsum, which follows */
    return 1;
}

/* One ply of the joint move on the wave of state s (its legal bits left in the wave:
 * pn_state_legal): wave 1 for the joint move, wave 2 for the bases that change (keys
 * updated), then ply, to_move and, once over, the goals.  flip: base_words scratch.
 * With `clear` the joint move leaves in wave 2 with the bases (pn_joint_clear), else
 * it stays on until the next ply's joint move replaces it: kept, wave 2 also carries
 * the new bases through the gates of the next state under the old move, work the next
 * wave 1 undoes (Breakthrough's moves are 8x fewer node changes this way); cleared, a
 * move's whole effect comes and goes every ply (lightsout, Connect Four: fewer). */
static inline __attribute__((always_inline)) void
pn_diff_ply(pn_wave *w, pn_state *s, miai_move *cur, const miai_move *joint, uint64_t *flip,
            int clear, pn_tally *tally, int fam) {
    const pn_data *d = w->d;
    const uint64_t *next = w->next;
    if (tally) pn_tally_begin(w, tally);
    pn_joint_change(w, cur, joint, fam);
    pn_wave_run(w, fam);
    if (tally) {
        pn_tally_end(w, tally);
        pn_tally_begin(w, tally);
    }
    /* the next state, and (on states of more than PN_BASES_SCAN_WORDS words) the
     * words of bases that change, the only ones then sent out */
    uint64_t touched = w->t->bases_all;
    {
        /* restrict, in this block only (the state and flip are read through other
         * pointers after it): the stores to the state would otherwise reload every
         * pointer a word */
        uint64_t *restrict bits = s->bits, *restrict fl = flip;
        const uint64_t *restrict nx = next;
        uint32_t bw = d->base_words;
        if (bw <= PN_BASES_SCAN_WORDS) {
            for (uint32_t word = 0; word < bw; word++) {
                fl[word] = bits[word] ^ nx[word];
                bits[word] = nx[word]; /* next[] changes while the bases propagate */
            }
        } else {
            uint32_t bshift = w->t->bshift;
            touched = 0;
            for (uint32_t word = 0; word < bw; word++) {
                uint64_t x = bits[word] ^ nx[word];
                fl[word] = x;
                bits[word] ^= x;
                touched |= (uint64_t)(x != 0) << (word >> bshift);
            }
        }
    }
    if (clear) pn_joint_clear(w, cur, fam);
    pn_bases_change(w, s->bits, flip, touched, &s->head, fam);
    pn_wave_run(w, fam);
    if (tally) pn_tally_end(w, tally);
    s->head.ply++;
    s->head.to_move = pn_wave_to_move(w);
    if (s->head.to_move == MIAI_NOBODY) {
        uint8_t *gb = pn_goal_bytes(d, s);
        if (w->t->goal_wave)
            pn_goal_wave(w);
        else
            pn_eval_lazy(w);
        for (uint32_t i = 0; i < d->n_goals; i++)
            if ((w->v[d->goal_node[i]] & 1) && d->goal_value[i] > gb[d->goal_role[i]])
                gb[d->goal_role[i]] = (uint8_t)d->goal_value[i];
    }
}

/* play() by the differential engine (where pn_play chooses it): the state's evaluation
 * (the snapshot and a wave for the bases that differ from the initial state), then one
 * ply.  The same state bytes as pn_play_plain (miai_gdl_playout_check compares them at
 * every ply of a playout); on a big net it evaluates what changed instead of the whole
 * net. */
void pn_diff_play(const miai_game *g, void *state, const miai_move *moves) {
    const pn_data *d = g->data;
    pn_state *s = state;
    uint32_t bw = d->base_words ? d->base_words : 1;
    uint64_t work[d->diff.lay.words], flip[bw];
    miai_move cur[MIAI_MAX_ROLES], joint[MIAI_MAX_ROLES];
    pn_full_joint(d, s, moves, joint);
    for (uint32_t r = 0; r < d->n_roles; r++) cur[r] = PN_NO_MOVE;
    pn_wave w = pn_wave_on(d, work);
    int fam = d->diff.fam;
    pn_wave_start(&w, work, s->bits, fam);
    if (fam && w.broken) { /* two members of a family hold: not a state of the rules */
        pn_play_plain(g, state, moves);
        return;
    }
    memset(pn_goal_bytes(d, s), 0, sizeof(uint64_t) * d->goal_words);
    pn_diff_ply(&w, s, cur, joint, flip, d->diff.clear_joint, NULL, fam);
    if (fam && w.broken) { /* the bases are right, what they give may not be */
        uint8_t v[d->n_nodes];
        pn_status(d, s, v);
        return;
    }
    pn_state_legal(&w, pn_legal_words(d, s));
}

/* The playout; with `check`, every ply is also played by pn_play_plain on the shadow
 * and the two states compared, and the wave is verified against a plain evaluation
 * at the start and after every ply. */
static inline __attribute__((always_inline)) uint32_t
pn_diff_loop(const miai_game *g, pn_wave *wp, void *state, miai_move *cur, uint64_t *flip,
             miai_rng *rng, miai_move *trace, uint32_t trace_cap, uint32_t *trace_len,
             pn_check_ctx *check, int clear, pn_tally *tally, int fam, miai_mast *mast) {
    const pn_data *d = g->data;
    pn_wave w = *wp; /* a local copy, kept in registers */
    pn_state *s = state;
    miai_move joint[MIAI_MAX_ROLES];
    if (check && !pn_verify(&w, s->bits, cur, check->v, check->cnt)) check->bad++;
    uint32_t plies = 0, tl = 0, nr = d->n_roles;
    uint64_t *state_legal = pn_legal_words(d, s);
    while (s->head.to_move != MIAI_NOBODY && s->head.ply < g->facts.max_plies) {
        int32_t tm = s->head.to_move;
        /* the moves, drawn as miai_generic_playout draws them */
        for (uint32_t r = 0; r < nr; r++) {
            if (tm == MIAI_SIMULTANEOUS || (uint32_t)tm == r) {
                if (mast) { /* (a constant NULL where the loop is inlined without) */
                    uint32_t n = pn_list_bits(w.legal, d->guarded, pn_guard_off(&w, r),
                                              d->move_off[r], d->move_off[r + 1], mast->buf);
                    joint[r] = miai_mast_pick(mast, rng, r, mast->buf, n);
                } else {
                    joint[r] = pn_kth_legal(&w, r, miai_rng_below(rng, pn_role_count(&w, r)));
                }
                if (trace && tl < trace_cap) trace[tl++] = joint[r];
            } else {
                joint[r] = pn_first_legal(&w, r); /* its only move */
            }
        }
        pn_diff_ply(&w, s, cur, joint, flip, clear, tally, fam);
        plies++;
        if (fam && w.broken) {
            wp->broken = 1;
            /* the bases are right, what they give may not be: the plain evaluation
             * from here on (the rules' own families never get here) */
            if (check) check->bad++;
            uint8_t v[d->n_nodes];
            pn_status(d, s, v);
            uint32_t more = 0;
            plies += miai_generic_playout_mast(g, state, rng, trace ? trace + tl : NULL,
                                               trace ? trace_cap - tl : 0, &more, mast);
            if (trace_len) *trace_len = tl + more;
            return plies;
        }
        if (check) {
            pn_state_legal(&w, state_legal);
            pn_play_plain(g, check->shadow, joint);
            if (memcmp(check->shadow, state, g->facts.state_size) != 0) check->bad++;
            if (!pn_verify(&w, s->bits, cur, check->v, check->cnt)) check->bad++;
        }
    }
    pn_state_legal(&w, state_legal);
    if (trace_len) *trace_len = tl;
    return plies;
}

static inline __attribute__((always_inline)) uint32_t
pn_diff_run_(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
             uint32_t trace_cap, uint32_t *trace_len, pn_check_ctx *check, int clear,
             pn_tally *tally, int fam, miai_mast *mast) {
    const pn_data *d = g->data;
    uint32_t bw = d->base_words ? d->base_words : 1;
    uint64_t work[d->diff.lay.words], flip[bw];
    pn_state *s = state;
    pn_wave w = pn_wave_on(d, work);
    miai_move cur[MIAI_MAX_ROLES];
    for (uint32_t r = 0; r < d->n_roles; r++) cur[r] = PN_NO_MOVE;
    pn_wave_start(&w, work, s->bits, fam);
    if (fam && w.broken) { /* two members of a family hold: not a state of the rules */
        if (check) check->bad++;
        return miai_generic_playout_mast(g, state, rng, trace, trace_cap, trace_len, mast);
    }
    return pn_diff_loop(g, &w, state, cur, flip, rng, trace, trace_cap, trace_len, check,
                        clear, tally, fam, mast);
}

/* The playout, compiled without and with mutex families (pn_set_source). */
static uint32_t pn_diff_run0(const miai_game *g, void *state, miai_rng *rng,
                             miai_move *trace, uint32_t trace_cap, uint32_t *trace_len,
                             pn_check_ctx *check, int clear, pn_tally *tally) {
    return pn_diff_run_(g, state, rng, trace, trace_cap, trace_len, check, clear, tally, 0,
                        NULL);
}

static uint32_t pn_diff_run1(const miai_game *g, void *state, miai_rng *rng,
                             miai_move *trace, uint32_t trace_cap, uint32_t *trace_len,
                             pn_check_ctx *check, int clear, pn_tally *tally) {
    return pn_diff_run_(g, state, rng, trace, trace_cap, trace_len, check, clear, tally, 1,
                        NULL);
}

uint32_t pn_diff_run(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                     uint32_t trace_cap, uint32_t *trace_len, pn_check_ctx *check, int clear,
                     pn_tally *tally) {
    const pn_data *d = g->data;
    return (d->diff.fam ? pn_diff_run1 : pn_diff_run0)(g, state, rng, trace, trace_cap,
                                                        trace_len, check, clear, tally);
}

/* The playout with MAST's policy (mast.h), without and with the families: the loop
 * inlined once more, so that the plain playouts keep their code. */
static uint32_t pn_diff_mast0(const miai_game *g, void *state, miai_rng *rng,
                              miai_move *trace, uint32_t trace_cap, uint32_t *trace_len,
                              int clear, miai_mast *mast) {
    return pn_diff_run_(g, state, rng, trace, trace_cap, trace_len, NULL, clear, NULL, 0, mast);
}

static uint32_t pn_diff_mast1(const miai_game *g, void *state, miai_rng *rng,
                              miai_move *trace, uint32_t trace_cap, uint32_t *trace_len,
                              int clear, miai_mast *mast) {
    return pn_diff_run_(g, state, rng, trace, trace_cap, trace_len, NULL, clear, NULL, 1, mast);
}

uint32_t pn_diff_run_mast(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                          uint32_t trace_cap, uint32_t *trace_len, int clear,
                          miai_mast *mast) {
    const pn_data *d = g->data;
    return (d->diff.fam ? pn_diff_mast1 : pn_diff_mast0)(g, state, rng, trace, trace_cap,
                                                          trace_len, clear, mast);
}

/* The bits that differ between two base vectors. */
static uint64_t pn_base_distance(const pn_data *d, const uint64_t *a, const uint64_t *b) {
    uint64_t n = 0;
    for (uint32_t word = 0; word < d->base_words; word++) n += pn_popcount(a[word] ^ b[word]);
    return n;
}

/* n playouts from `state` on one work block: each one after the first starts from
 * where the last one ended -- a wave for the bases that differ from `state`, the last
 * joint move left on as between two plies (the first ply's wave replaces it) --
 * instead of from a copy of the snapshot, unless more bases differ that way than from
 * the snapshot plus one per PN_RESTART_WORDS words of the copy it saves
 * (kalaha_2009: a 0.5 MB block copied per playout of 84 plies, against a wave for
 * about 30 bases).  The lazy gates keep the frontier values they last
 * settled on (pn_wave.front).  The same moves, plies and rewards as n playouts by
 * pn_playout with the same rng (every node value is the state's whichever way the
 * block got there).  restart 1: always from where the last one ended.  MIAI_ELIMIT
 * without the differential engine (pn_engine.c also leaves it to the word-parallel
 * evaluation where that is enabled). */
static inline __attribute__((always_inline)) int
pn_diff_playouts_(const miai_game *g, const void *state, uint64_t n, miai_rng *rng,
                  double *sum, uint64_t *plies, int restart, int fam) {
    const pn_data *d = g->data;
    const pn_diff_tables *t = &d->diff;
    uint32_t bw = d->base_words ? d->base_words : 1, nr = d->n_roles;
    size_t size = g->facts.state_size;
    /* on the stack, as a single playout's block (a search's leaf batch would otherwise
     * map and fault in fresh pages for every leaf) */
    uint64_t work[t->lay.words], flip[bw], sbuf[(size + 7) / 8];
    uint8_t front[t->n_front ? t->n_front : 1];
    pn_state *s = (pn_state *)sbuf;
    const pn_state *start = state;
    const uint8_t *v0 = (const uint8_t *)(t->work0 + t->lay.v);
    miai_move cur[MIAI_MAX_ROLES];
    int kept = 0; /* the block holds the evaluation of s's bases under cur */
    /* a restart pays while it is this many bases away from the start, or fewer */
    uint64_t reach = pn_base_distance(d, t->base0, start->bits) + t->lay.words / PN_RESTART_WORDS;
    for (uint64_t i = 0; i < n; i++) {
        pn_wave w = pn_wave_on(d, work);
        w.front = front;
        if (kept && (restart || pn_base_distance(d, s->bits, start->bits) <= reach)) {
            pn_wave_between(&w, s->bits, start->bits, fam); /* the joint move stays on */
        } else {
            for (uint32_t r = 0; r < nr; r++) cur[r] = PN_NO_MOVE;
            for (uint32_t k = 0; k < t->n_front; k++) front[k] = v0[t->front[k]] & 1;
            pn_wave_start(&w, work, start->bits, fam);
        }
        memcpy(s, start, size);
        if (fam && w.broken) { /* two members of a family hold: not a state of the rules */
            *plies += miai_generic_playout(g, s, rng, NULL, 0, NULL);
            kept = 0;
        } else {
            *plies += pn_diff_loop(g, &w, s, cur, flip, rng, NULL, 0, NULL, NULL,
                                   t->clear_joint, NULL, fam, NULL);
            kept = !(fam && w.broken);
        }
        double r[MIAI_MAX_ROLES];
        miai_game_outcome(g, s, r);
        for (uint32_t k = 0; k < nr; k++) sum[k] += r[k];
    }
    return MIAI_OK;
}

static int pn_diff_playouts0(const miai_game *g, const void *state, uint64_t n,
                             miai_rng *rng, double *sum, uint64_t *plies, int restart) {
    return pn_diff_playouts_(g, state, n, rng, sum, plies, restart, 0);
}

static int pn_diff_playouts1(const miai_game *g, const void *state, uint64_t n,
                             miai_rng *rng, double *sum, uint64_t *plies, int restart) {
    return pn_diff_playouts_(g, state, n, rng, sum, plies, restart, 1);
}

int pn_diff_playouts(const miai_game *g, const void *state, uint64_t n, miai_rng *rng,
                     double *sum, uint64_t *plies, int restart) {
    const pn_data *d = g->data;
    if (!d->diff.enabled) return MIAI_ELIMIT;
    return (d->diff.fam ? pn_diff_playouts1 : pn_diff_playouts0)(g, state, n, rng, sum, plies,
                                                                 restart);
}
