/* pn_lanes.c -- random playouts 64 at a time: the propnet evaluated bit-sliced.
 *
 * A batch of playouts from one state (miai_playouts, ops->playouts) runs in the 64
 * lanes of a word: every node value is a uint64_t whose bit l is the node's value in
 * lane l's game, so one AND of words evaluates a gate in 64 games at once.  A ply
 * evaluates the `status` program (legal moves, terminal; no move played, as
 * pn_status), then a lane's roles draw their moves uniformly from their legal ones
 * (one draw per role and lane, as miai_generic_playout: the same distribution of
 * games, not the same stream of draws), then the `next` program without the nodes the
 * status program already gave that do not read the joint move, and the moving lanes
 * take their next bases.  A lane whose game ends (terminal, a role without legal
 * moves, or the ply cap: a draw, as miai_playouts) has its goals read off the `goal`
 * program (without the status nodes) and starts the next playout of the batch from
 * the batch's state, sitting out the ply in which it restarts.
 *
 * The cost of a ply is the whole status and next programs, whatever changed, shared by
 * 64 games; the differential engine (pn_diff.c) pays only for the nodes that change, in
 * one game.  Where most of a net's ANDs are 0 in all 64 games most of the time
 * (kalaha_2009's sums: 99 % of its words), guarded blocks skip them: a calibration
 * batch (pn_lanes_calibrate) counts how often each node's word is not 0, groups the
 * ANDs behind their rarely true guards, and keeps the blocks where they cut the work
 * (pn_internal.h, PN_LANES_BLOCK_GAIN).  pn_lanes_choose compares the lanes and the
 * differential engine on the calibration playouts (their work count and their games'
 * lengths) and sets the least batch that runs in the lanes (PN_LANES_RATIO);
 * miai_playouts and a search's leaf playouts (miai_game_playouts) run smaller batches
 * one by one (pn_engine.c chooses).
 * miai_gdl_lane_playouts (pn_engine.c) records every lane's legal-move counts and moves
 * so that tests replay each game by the plain play.  Calls no other file of csrc/gdl.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_lanes.h"

/* ---- tables ------------------------------------------------------------------- */

/* The most moves a role has (at least 1). */
static uint32_t pn_most_moves(const pn_data *d) {
    uint32_t most = 1;
    for (uint32_t r = 0; r < d->n_roles; r++)
        if (d->n_moves[r] > most) most = d->n_moves[r];
    return most;
}

/* The nodes of entry e (a node, or a range's). */
static void pn_entry_nodes(const pn_data *d, uint32_t e, uint32_t *lo, uint32_t *hi) {
    *lo = e & PN_RANGE_FLAG ? d->range_lo[e & ~PN_RANGE_FLAG] : e;
    *hi = e & PN_RANGE_FLAG ? d->range_hi[e & ~PN_RANGE_FLAG] : e + 1;
}

void pn_lanes_free(pn_lanes_tables *t) {
    for (int i = 0; i < 3; i++) free(t->prog[i]);
    free(t->blk_guard);
    free(t->blk_len);
    free(t->pushed_node);
    free(t->pushed_first);
    free(t->lin);
    free(t->push_id);
    free(t->push_first);
    free(t->push_to);
    free(t->set_first);
    free(t->set_move);
    memset(t, 0, sizeof *t);
}

/* The entries of program `which` the lanes run: all of `status`; of `next` and `goal`,
 * all but the nodes of the status program that the joint move cannot reach (dep 0):
 * the status program of the same ply has just given them. */
static int pn_lanes_filter(pn_data *d, pn_lanes_tables *t, int which, const uint8_t *in_status,
                           const uint8_t *dep) {
    uint32_t len = d->prog_len[which], kept = 0;
    uint32_t *prog = malloc(sizeof *prog * (len ? len : 1));
    if (!prog) return MIAI_ENOMEM;
    for (uint32_t i = 0; i < len; i++) {
        uint32_t e = d->prog[which][i];
        uint32_t node = e & PN_RANGE_FLAG ? d->range_lo[e & ~PN_RANGE_FLAG] : e;
        if (which != PROG_STATUS && in_status[node] && !dep[node]) continue;
        prog[kept++] = e;
    }
    t->prog[which] = prog;
    t->len[which] = kept;
    return MIAI_OK;
}

/* Each move set's moves as a list (a set's bitset spans every role's moves: knightwar's
 * 57 words a set, for a few moves). */
static int pn_lanes_sets(const pn_data *d, pn_lanes_tables *t) {
    uint64_t total = 0;
    for (uint64_t i = 0; i < (uint64_t)d->n_sets * d->set_words; i++)
        total += pn_popcount(d->set_bits[i]);
    t->set_first = malloc(sizeof(uint32_t) * (d->n_sets + 1u));
    t->set_move = malloc(sizeof(uint32_t) * (total ? total : 1));
    if (!t->set_first || !t->set_move) return MIAI_ENOMEM;
    uint32_t k = 0;
    for (uint32_t set = 0; set < d->n_sets; set++) {
        t->set_first[set] = k;
        const uint64_t *bits = d->set_bits + (size_t)set * d->set_words;
        for (uint32_t w = 0; w < d->set_words; w++)
            for (uint64_t y = bits[w]; y; y &= y - 1)
                t->set_move[k++] = w * 64 + (uint32_t)__builtin_ctzll(y);
    }
    t->set_first[d->n_sets] = k;
    return MIAI_OK;
}

/* Work of one evaluation of a program: a node and its inputs (a move set counts one:
 * its loads are independent, and counting its moves put breakthrough's lanes, 2.6x
 * as fast on batches of 64, at 4.7x the differential engine's work).  A guarded block
 * counts 1, and its ANDs as often as its guard was true in the calibration (`rate`,
 * per node). */
static double pn_lanes_prog_work(const pn_data *d, const uint32_t *prog, uint32_t len,
                                 const double *rate) {
    double w = 0.0;
    for (uint32_t i = 0; i < len; i++) {
        uint32_t e = prog[i];
        if (e & PN_LANES_PUSHED) { /* its pushes count with the ANDs' blocks */
            uint32_t sg = e & ~PN_LANES_PUSHED;
            w += 1.0 + d->lanes.pushed_first[sg + 1] - d->lanes.pushed_first[sg];
            continue;
        }
        if (e & PN_LANES_BLOCK) {
            uint32_t b = e & ~PN_LANES_BLOCK, m = 0;
            for (uint32_t k = 1; k <= d->lanes.blk_len[b]; k++) {
                uint32_t a = prog[i + k] & ~PN_LANES_PUSH, p = 0;
                if (prog[i + k] & PN_LANES_PUSH) { /* and its pushes */
                    uint32_t id = d->lanes.push_id[a];
                    p = d->lanes.push_first[id + 1] - d->lanes.push_first[id];
                }
                m += 1 + (d->first_in[a + 1] - d->first_in[a]) + p;
            }
            w += 1.0 + (rate ? rate[d->lanes.blk_guard[b]] : 1.0) * m;
            i += d->lanes.blk_len[b];
            continue;
        }
        uint32_t lo, hi;
        pn_entry_nodes(d, e, &lo, &hi);
        for (uint32_t n = lo; n < hi; n++) w += 1 + (d->first_in[n + 1] - d->first_in[n]);
    }
    return w;
}

/* What a ply of the lanes evaluates (pn_lanes_tables.work). */
static uint64_t pn_lanes_ply_work(const pn_data *d, const double *rate) {
    const pn_lanes_tables *t = &d->lanes;
    return (uint64_t)(pn_lanes_prog_work(d, t->prog[PROG_STATUS], t->len[PROG_STATUS], rate) +
                      pn_lanes_prog_work(d, t->prog[PROG_NEXT], t->len[PROG_NEXT], rate) + 0.5) +
           d->total_moves + 2u * d->n_base;
}

int pn_lanes_build(pn_data *d) {
    pn_lanes_tables *t = &d->lanes;
    memset(t, 0, sizeof *t);
    uint32_t n = d->n_nodes;
    if (n > PN_LANES_MAX_NODES || pn_most_moves(d) > PN_LANES_MAX_MOVES)
        return MIAI_OK; /* not built */
    uint8_t *in_status = calloc(n ? n : 1, 1), *dep = calloc(n ? n : 1, 1);
    int rc = MIAI_ENOMEM;
    if (in_status && dep) {
        for (uint32_t i = 0; i < d->prog_len[PROG_STATUS]; i++) {
            uint32_t e = d->prog[PROG_STATUS][i];
            if (!(e & PN_RANGE_FLAG)) {
                in_status[e] = 1;
                continue;
            }
            for (uint32_t k = d->range_lo[e & ~PN_RANGE_FLAG]; k < d->range_hi[e & ~PN_RANGE_FLAG];
                 k++)
                in_status[k] = 1;
        }
        /* dep: the node reads the joint move, directly or through its inputs; a range
         * whole (its nodes read later ones), so sweep until nothing changes */
        for (int changed = 1; changed;) {
            changed = 0;
            for (uint32_t i = 0; i < n; i++) {
                uint8_t k = d->kind[i], x = k == MIAI_PN_INPUT || k == MIAI_PN_MOVESET;
                for (uint32_t e = d->first_in[i]; e < d->first_in[i + 1] && !x; e++)
                    x = dep[d->in[e]];
                if (x && !dep[i]) dep[i] = 1, changed = 1;
            }
            for (uint32_t r = 0; r < d->n_ranges; r++) {
                uint8_t any = 0;
                for (uint32_t i = d->range_lo[r]; i < d->range_hi[r]; i++) any |= dep[i];
                for (uint32_t i = d->range_lo[r]; i < d->range_hi[r] && any; i++)
                    if (!dep[i]) dep[i] = 1, changed = 1;
            }
        }
        rc = MIAI_OK;
        for (int w = 0; w < 3 && rc == MIAI_OK; w++) rc = pn_lanes_filter(d, t, w, in_status, dep);
        if (rc == MIAI_OK) rc = pn_lanes_sets(d, t);
    }
    free(in_status);
    free(dep);
    if (rc != MIAI_OK) {
        pn_lanes_free(t);
        return rc;
    }
    t->built = 1;
    /* a ply: the status and next programs, the legal nodes, the bases' update (the
     * goals are left out on both sides: the calibration's count leaves out the
     * differential engine's, and queens' 2,712 goal gates would count against the
     * lanes where they are 6x as fast) */
    t->work = pn_lanes_ply_work(d, NULL); /* no blocks yet: no rates read */
    return MIAI_OK;
}

/* The expected plies of the longest of n games whose lengths are drawn from the m
 * sorted ones (the largest order statistic of the sample's distribution). */
static double pn_expected_longest(const uint32_t *sorted, uint32_t m, uint32_t n) {
    double e = 0.0, below = 0.0;
    for (uint32_t i = 1; i <= m; i++) {
        double at = pow((double)i / m, (double)n);
        e += sorted[i - 1] * (at - below);
        below = at;
    }
    return e;
}

void pn_lanes_choose(pn_data *d, double diff_work, const uint32_t *lengths, uint32_t m) {
    pn_lanes_tables *t = &d->lanes;
    t->min_batch = 0;
    if (!t->built || diff_work <= 0 || m == 0 || m > PN_CALIBRATION_PLAYOUTS) return;
    uint32_t sorted[PN_CALIBRATION_PLAYOUTS];
    double mean = 0.0;
    for (uint32_t i = 0; i < m; i++) { /* insertion sort: m is 16 */
        uint32_t x = lengths[i], k = i;
        for (; k > 0 && sorted[k - 1] > x; k--) sorted[k] = sorted[k - 1];
        sorted[k] = x;
        mean += x;
    }
    mean /= m;
    if (mean <= 0.0) return;
    /* Long batches keep the lanes busy (a lane starts the next game as one ends): a ply
     * of 64 games against 64 plies one by one (PN_LANES_RATIO was measured so). */
    if ((double)t->work >= PN_LANES_RATIO * diff_work * 64.0) return;
    /* A batch of n < 64 games runs as many plies as its longest game, each costing
     * `work`; one by one its games cost n x mean plies of PN_LANES_RATIO x diff_work. */
    for (uint32_t n = PN_LANES_MIN_BATCH; n < 64; n++) {
        if ((double)t->work * pn_expected_longest(sorted, m, n) <
            PN_LANES_MARGIN * PN_LANES_RATIO * diff_work * n * mean) {
            t->min_batch = n;
            return;
        }
    }
    t->min_batch = 64;
}

/* ---- evaluation ----------------------------------------------------------------- */

static inline uint64_t pn_lane_node(const pn_data *d, uint32_t n, const uint64_t *v,
                                    const uint64_t *base, const uint64_t *mv) {
    const pn_op o = d->op[n];
    const uint32_t *in = d->in;
    switch (o.kind) {
    case MIAI_PN_TRUE: return ~0ULL;
    case MIAI_PN_BASE: return base[o.a];
    case MIAI_PN_INPUT: return mv[o.a];
    case MIAI_PN_AND: {
        uint64_t x = v[in[o.a]];
        for (uint32_t k = o.a + 1; k < o.b; k++) x &= v[in[k]];
        return x;
    }
    case MIAI_PN_OR: {
        uint64_t x = v[in[o.a]];
        for (uint32_t k = o.a + 1; k < o.b; k++) x |= v[in[k]];
        return x;
    }
    case MIAI_PN_NOT: return ~v[in[o.a]];
    case MIAI_PN_MOVESET: {
        const pn_lanes_tables *t = &d->lanes;
        uint64_t x = 0;
        for (uint32_t k = t->set_first[o.a]; k < t->set_first[o.a + 1]; k++)
            x |= mv[t->set_move[k]];
        return x;
    }
    default: return 0;
    }
}

/* A cycle of positive recursion: from all-false to the least fixpoint, in every lane
 * at once (monotone in each lane). */
static void pn_lanes_range(const pn_data *d, uint32_t e, uint64_t *v, const uint64_t *base,
                           const uint64_t *mv) {
    uint32_t lo = d->range_lo[e & ~PN_RANGE_FLAG], hi = d->range_hi[e & ~PN_RANGE_FLAG];
    memset(v + lo, 0, sizeof(uint64_t) * (hi - lo));
    uint64_t changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t k = lo; k < hi; k++) {
            uint64_t x = pn_lane_node(d, k, v, base, mv);
            changed |= x ^ v[k];
            v[k] = x;
        }
    }
}

/* A program without blocks: a node or a range an entry. */
static void pn_lanes_run_plain(const pn_data *d, const uint32_t *prog, uint32_t len,
                               uint64_t *v, const uint64_t *base, const uint64_t *mv) {
    for (const uint32_t *p = prog, *end = prog + len; p < end; p++) {
        uint32_t e = *p;
        if (!(e & PN_RANGE_FLAG))
            v[e] = pn_lane_node(d, e, v, base, mv);
        else
            pn_lanes_range(d, e, v, base, mv);
    }
}

/* A program with guarded blocks.  zero: the batch's flag per block, 1 while its ANDs
 * are known to be 0; acc: per OR that block ANDs push into, what they pushed this run
 * (pn_lanes_pushes). */
static void pn_lanes_run_blocks(const pn_data *d, const uint32_t *prog, uint32_t len,
                                uint64_t *v, const uint64_t *base, const uint64_t *mv,
                                uint8_t *zero, uint64_t *acc) {
    const pn_lanes_tables *t = &d->lanes;
    for (uint32_t i = 0; i < len; i++) {
        uint32_t e = prog[i];
        if (!(e & (PN_RANGE_FLAG | PN_LANES_BLOCK | PN_LANES_PUSHED | PN_LANES_PUSH))) {
            v[e] = pn_lane_node(d, e, v, base, mv);
            continue;
        }
        if (e & PN_LANES_PUSH) { /* an AND of a block that is evaluated */
            uint32_t a = e & ~PN_LANES_PUSH;
            uint64_t x = pn_lane_node(d, a, v, base, mv);
            v[a] = x;
            if (x) {
                uint32_t k = t->push_id[a];
                for (uint32_t q = t->push_first[k]; q < t->push_first[k + 1]; q++)
                    acc[t->push_to[q]] |= x;
            }
            continue;
        }
        if (e & PN_LANES_PUSHED) {
            uint32_t sg = e & ~PN_LANES_PUSHED;
            uint64_t x = acc[sg];
            acc[sg] = 0;
            for (uint32_t k = t->pushed_first[sg]; k < t->pushed_first[sg + 1]; k++) x |= v[t->lin[k]];
            v[t->pushed_node[sg]] = x;
            continue;
        }
        if (e & PN_LANES_BLOCK) {
            uint32_t b = e & ~PN_LANES_BLOCK, n = t->blk_len[b];
            if (v[t->blk_guard[b]]) { /* its ANDs follow, evaluated */
                zero[b] = 0;
                continue;
            }
            if (!zero[b]) {
                for (uint32_t k = 1; k <= n; k++) v[prog[i + k] & ~PN_LANES_PUSH] = 0;
                zero[b] = 1;
            }
            i += n;
            continue;
        }
        pn_lanes_range(d, e, v, base, mv);
    }
}

/* One run of a program: the plain loop on a net without blocks (the block-aware one
 * cost gt_prisoner 9 % more instructions). */
static void pn_lanes_run(const pn_data *d, const uint32_t *prog, uint32_t len, uint64_t *v,
                         const uint64_t *base, const uint64_t *mv, uint8_t *zero,
                         uint64_t *acc) {
    if (d->lanes.n_blocks)
        pn_lanes_run_blocks(d, prog, len, v, base, mv, zero, acc);
    else
        pn_lanes_run_plain(d, prog, len, v, base, mv);
}

/* The work of a batch, allocated once. */
typedef struct {
    uint64_t *v, *base, *mv, *start;
    uint32_t *list; /* [64][most]: a lane's legal moves of the role being drawn */
    uint8_t *zero;  /* [n_blocks] pn_lanes_run */
    uint64_t *acc;  /* [n_pushed] pn_lanes_run */
} pn_lane_work;

static void pn_lane_work_free(pn_lane_work *w) {
    free(w->zero);
    free(w->acc);
    free(w->v);
    free(w->base);
    free(w->mv);
    free(w->start);
    free(w->list);
}

static int pn_lane_work_alloc(const pn_data *d, const pn_state *s, uint32_t most,
                              pn_lane_work *w) {
    w->v = calloc(d->n_nodes ? d->n_nodes : 1, sizeof(uint64_t));
    w->base = calloc(d->n_base ? d->n_base : 1, sizeof(uint64_t));
    w->mv = calloc(d->total_moves ? d->total_moves : 1, sizeof(uint64_t));
    w->start = calloc(d->n_base ? d->n_base : 1, sizeof(uint64_t));
    w->list = malloc(sizeof(uint32_t) * 64u * most);
    w->zero = calloc(d->lanes.n_blocks ? d->lanes.n_blocks : 1, 1);
    w->acc = calloc(d->lanes.n_pushed ? d->lanes.n_pushed : 1, sizeof(uint64_t));
    if (!w->v || !w->base || !w->mv || !w->start || !w->list || !w->zero || !w->acc) {
        pn_lane_work_free(w);
        return MIAI_ENOMEM;
    }
    for (uint32_t b = 0; b < d->n_base; b++) w->start[b] = pn_bit(s->bits, b) ? ~0ULL : 0;
    return MIAI_OK;
}

/* What the calibration batch counts per node: the runs that evaluated it, and those in
 * which its word was not 0 (NULL: none). */
typedef struct {
    uint32_t *seen, *set;
} pn_lane_stats;

static void pn_lanes_count(const pn_data *d, const uint32_t *prog, uint32_t len,
                           const uint64_t *v, pn_lane_stats *st) {
    if (!st) return;
    for (uint32_t i = 0; i < len; i++) {
        uint32_t lo, hi; /* no blocks yet */
        pn_entry_nodes(d, prog[i], &lo, &hi);
        for (uint32_t k = lo; k < hi; k++) {
            st->seen[k]++;
            st->set[k] += v[k] != 0;
        }
    }
}

/* n playouts from `state` (its bases and ply); sum[r] gets the sum of role r's rewards,
 * *plies the plies played. */
static int pn_lanes_batch(const miai_game *g, const pn_state *s, uint64_t n, miai_rng *rng,
                          double *sum, uint64_t *plies, const pn_lane_trace *tr,
                          pn_lane_stats *st) {
    const pn_data *d = g->data;
    const pn_lanes_tables *t = &d->lanes;
    uint32_t nr = d->n_roles, most = pn_most_moves(d);
    for (uint32_t r = 0; r < nr; r++) sum[r] = 0.0;
    *plies = 0;
    if (n == 0) return MIAI_OK;
    pn_lane_work w = {0};
    if (pn_lane_work_alloc(d, s, most, &w) != MIAI_OK) return MIAI_ENOMEM;
    uint64_t *v = w.v, *base = w.base, *mv = w.mv;
    uint32_t ply[64], cnt[64];
    uint64_t pid[64];                       /* each lane's playout, in start order */
    miai_move chosen[64][MIAI_MAX_ROLES];   /* the moves to clear from mv */
    memset(chosen, 0, sizeof chosen);
    uint32_t lanes = n < 64 ? (uint32_t)n : 64;
    uint64_t active = lanes == 64 ? ~0ULL : (1ULL << lanes) - 1, started = lanes;
    for (uint32_t b = 0; b < d->n_base; b++) base[b] = w.start[b];
    for (uint32_t l = 0; l < lanes; l++) {
        ply[l] = s->head.ply;
        pid[l] = l;
    }
    const uint32_t max_plies = g->facts.max_plies;
    while (active) {
        pn_lanes_run(d, t->prog[PROG_STATUS], t->len[PROG_STATUS], v, base, mv, w.zero, w.acc);
        pn_lanes_count(d, t->prog[PROG_STATUS], t->len[PROG_STATUS], v, st);
        /* over: terminal or the ply cap; stuck: a role without legal moves (found as
         * the roles draw) */
        uint64_t capped = 0;
        for (uint64_t x = active; x; x &= x - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(x);
            if (ply[l] >= max_plies) capped |= 1ULL << l;
        }
        uint64_t term = v[d->terminal_node] & active;
        uint64_t want = active & ~term, stuck = 0;
        for (uint32_t r = 0; r < nr && want; r++) {
            uint32_t lo = d->move_off[r], hi = d->move_off[r + 1];
            uint64_t guard = v[d->legal_guard[r]];
            for (uint64_t x = want; x; x &= x - 1) cnt[__builtin_ctzll(x)] = 0;
            for (uint32_t m = lo; m < hi; m++) {
                uint64_t x = v[d->legal_node[m]] & want;
                if (pn_bit(d->guarded, m)) x &= guard;
                for (; x; x &= x - 1) {
                    uint32_t l = (uint32_t)__builtin_ctzll(x);
                    w.list[l * most + cnt[l]++] = m;
                }
            }
            for (uint64_t x = want; x; x &= x - 1) {
                uint32_t l = (uint32_t)__builtin_ctzll(x);
                if (cnt[l] == 0) {
                    stuck |= 1ULL << l;
                    continue;
                }
                if ((capped >> l) & 1u) continue; /* over, unless stuck: counted only */
                uint32_t m = w.list[l * most + miai_rng_below(rng, cnt[l])];
                chosen[l][r] = m;
                mv[m] |= 1ULL << l;
                if (tr && ply[l] - s->head.ply < tr->cap) {
                    size_t at = ((size_t)pid[l] * tr->cap + (ply[l] - s->head.ply)) * nr + r;
                    tr->moves[at] = m - lo;
                    tr->counts[at] = cnt[l];
                }
            }
            want &= ~stuck;
        }
        uint64_t draw = active & ~term & ~capped;
        uint64_t moving = draw & ~stuck, ended = active & ~moving;
        if (ended) {
            uint64_t scored = (term | stuck) & ended; /* the rest: the ply cap, a draw */
            uint8_t best[64][MIAI_MAX_ROLES];
            if (scored) {
                /* goals under no move, as pn_status: a stuck lane's roles drawn before
                 * the stuck one take their moves back (a goal that reads the joint
                 * move is not valid GDL, but a net may have one) */
                for (uint64_t x = stuck; x; x &= x - 1) {
                    uint32_t l = (uint32_t)__builtin_ctzll(x);
                    for (uint32_t r = 0; r < nr; r++) mv[chosen[l][r]] &= ~(1ULL << l);
                }
                pn_lanes_run(d, t->prog[PROG_GOAL], t->len[PROG_GOAL], v, base, mv, w.zero, w.acc);
                pn_lanes_count(d, t->prog[PROG_GOAL], t->len[PROG_GOAL], v, st);
                for (uint64_t x = scored; x; x &= x - 1)
                    memset(best[__builtin_ctzll(x)], 0, MIAI_MAX_ROLES);
                for (uint32_t i = 0; i < d->n_goals; i++)
                    for (uint64_t x = v[d->goal_node[i]] & scored; x; x &= x - 1) {
                        uint8_t *b = &best[__builtin_ctzll(x)][d->goal_role[i]];
                        if (d->goal_value[i] > *b) *b = (uint8_t)d->goal_value[i];
                    }
            }
            for (uint64_t x = ended; x; x &= x - 1) {
                uint32_t l = (uint32_t)__builtin_ctzll(x);
                for (uint32_t r = 0; r < nr; r++) {
                    double reward = (scored >> l) & 1u ? best[l][r] / 100.0 : 0.5;
                    sum[r] += reward;
                    if (tr) tr->rewards[pid[l] * nr + r] = reward;
                }
                *plies += ply[l] - s->head.ply;
                if (tr) tr->plies[pid[l]] = ply[l] - s->head.ply;
            }
        }
        /* the moving lanes take their next bases */
        if (moving) {
            pn_lanes_run(d, t->prog[PROG_NEXT], t->len[PROG_NEXT], v, base, mv, w.zero, w.acc);
            pn_lanes_count(d, t->prog[PROG_NEXT], t->len[PROG_NEXT], v, st);
            for (uint32_t b = 0; b < d->n_base; b++)
                base[b] = (v[d->next_node[b]] & moving) | (base[b] & ~moving);
            for (uint64_t x = moving; x; x &= x - 1) ply[__builtin_ctzll(x)]++;
        }
        for (uint64_t x = draw; x; x &= x - 1) { /* mv all zero again for status */
            uint32_t l = (uint32_t)__builtin_ctzll(x);
            for (uint32_t r = 0; r < nr; r++) mv[chosen[l][r]] = 0;
        }
        /* ended lanes start the batch's next playouts, or stop */
        uint64_t refill = 0;
        for (uint64_t x = ended; x && started < n; x &= x - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(x);
            refill |= 1ULL << l;
            ply[l] = s->head.ply;
            pid[l] = started++;
        }
        if (refill)
            for (uint32_t b = 0; b < d->n_base; b++)
                base[b] = (base[b] & ~refill) | (w.start[b] & refill);
        active = (active & ~ended) | refill;
    }
    pn_lane_work_free(&w);
    return MIAI_OK;
}

/* ---- guarded blocks (pn_internal.h) --------------------------------------------- */

/* Scratch for making the blocks of one program. */
typedef struct {
    const double *rate;    /* [n] runs of the calibration in which the node's word was not 0 */
    const uint8_t *progs;  /* [n] programs the node lies in (2: two or more) */
    uint32_t *key;         /* [n] the block's root the AND would join, UINT32_MAX: none */
    uint32_t *at;          /* [n] the node's entry in the program, UINT32_MAX: not in it */
    uint32_t *blk;         /* [n] the node's block, UINT32_MAX: none (all programs) */
} pn_blk_scratch;

/* A binary min-heap of units by their first entry (Kahn's ready units). */
static void pn_heap_push(uint32_t *h, uint32_t *n, uint32_t u, const uint32_t *first) {
    uint32_t i = (*n)++;
    while (i > 0 && first[h[(i - 1) / 2]] > first[u]) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = u;
}

static uint32_t pn_heap_pop(uint32_t *h, uint32_t *n, const uint32_t *first) {
    uint32_t top = h[0], u = h[--*n], i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && first[h[c + 1]] < first[h[c]]) c++;
        if (first[h[c]] >= first[u]) break;
        h[i] = h[c];
        i = c;
    }
    if (*n) h[i] = u;
    return top;
}

/* Which ANDs of program `which` would join which block: an AND lying in this program
 * only, whose least often true input (its guard) is true in at most
 * PN_LANES_BLOCK_RATE of the runs, joins its guard's block if the guard is itself in
 * one of this program (the AND implies the guard, which implies that block's root),
 * else a block rooted at the guard.  Roots with fewer than PN_LANES_BLOCK_MIN ANDs
 * make none.  `chain` 0: every AND roots at its own guard. */
static void pn_blk_keys(const pn_data *d, const uint32_t *prog, uint32_t len, int chain,
                        pn_blk_scratch *x, uint32_t *count) {
    for (uint32_t i = 0; i < len; i++) {
        uint32_t e = prog[i];
        if (e & PN_RANGE_FLAG || d->kind[e] != MIAI_PN_AND || x->progs[e] != 1 ||
            d->first_in[e + 1] - d->first_in[e] < 2)
            continue;
        uint32_t g = d->in[d->first_in[e]];
        for (uint32_t k = d->first_in[e] + 1; k < d->first_in[e + 1]; k++)
            if (x->rate[d->in[k]] < x->rate[g]) g = d->in[k];
        if (x->rate[g] > PN_LANES_BLOCK_RATE) continue;
        x->key[e] = chain && x->at[g] != UINT32_MAX && x->key[g] != UINT32_MAX ? x->key[g] : g;
        count[x->key[e]]++;
    }
    for (uint32_t i = 0; i < len; i++) {
        uint32_t e = prog[i];
        if (!(e & PN_RANGE_FLAG) && x->key[e] != UINT32_MAX && count[x->key[e]] < PN_LANES_BLOCK_MIN)
            x->key[e] = UINT32_MAX;
    }
}

/* Program `which` again with its blocks: units (a block's ANDs, or one entry) in the
 * order of Kahn's algorithm over the program's dependencies, earliest entry first,
 * each block behind its header.  MIAI_ECORRUPT when the blocks make a cycle (an entry
 * between two of a block's ANDs); the program is then left as it was. */
static int pn_blk_order(pn_data *d, int which, pn_blk_scratch *x, uint32_t **out_prog,
                        uint32_t *out_len) {
    pn_lanes_tables *t = &d->lanes;
    uint32_t len = t->len[which], *prog = t->prog[which], n = d->n_nodes;
    uint32_t *unit = malloc(sizeof(uint32_t) * (len + 1)), *first = NULL, *ufirst = NULL;
    uint32_t *root_unit = NULL, *indeg = NULL, *succ = NULL, *sfirst = NULL, *heap = NULL;
    uint32_t *out = NULL, *mfirst = NULL, *member = NULL;
    int rc = MIAI_ENOMEM;
    if (!unit) return rc;
    /* units: a block per root, every other entry its own */
    uint32_t units = 0;
    root_unit = malloc(sizeof(uint32_t) * (n ? n : 1));
    if (!root_unit) goto done;
    for (uint32_t i = 0; i < len; i++) {
        uint32_t e = prog[i];
        if (!(e & PN_RANGE_FLAG) && x->key[e] != UINT32_MAX) root_unit[x->key[e]] = UINT32_MAX;
    }
    uint32_t blocks = 0;
    for (uint32_t i = 0; i < len; i++) {
        uint32_t e = prog[i];
        if (!(e & PN_RANGE_FLAG) && x->key[e] != UINT32_MAX) {
            if (root_unit[x->key[e]] == UINT32_MAX) {
                root_unit[x->key[e]] = units++;
                blocks++;
            }
            unit[i] = root_unit[x->key[e]];
        } else {
            unit[i] = units++;
        }
    }
    if (!blocks) {
        rc = MIAI_OK; /* nothing to do */
        *out_prog = NULL;
        goto done;
    }
    first = malloc(sizeof(uint32_t) * units);
    indeg = calloc(units, sizeof(uint32_t));
    sfirst = calloc(units + 1, sizeof(uint32_t));
    mfirst = calloc(units + 1, sizeof(uint32_t));
    member = malloc(sizeof(uint32_t) * (len ? len : 1));
    heap = malloc(sizeof(uint32_t) * units);
    out = malloc(sizeof(uint32_t) * (len + blocks));
    if (!first || !indeg || !sfirst || !mfirst || !member || !heap || !out) goto done;
    for (uint32_t u = 0; u < units; u++) first[u] = UINT32_MAX;
    for (uint32_t i = 0; i < len; i++) {
        if (first[unit[i]] == UINT32_MAX) first[unit[i]] = i;
        mfirst[unit[i] + 1]++;
    }
    for (uint32_t u = 0; u < units; u++) mfirst[u + 1] += mfirst[u];
    ufirst = malloc(sizeof(uint32_t) * (units + 1));
    if (!ufirst) goto done;
    memcpy(ufirst, mfirst, sizeof(uint32_t) * (units + 1));
    for (uint32_t i = 0; i < len; i++) member[ufirst[unit[i]]++] = i; /* entry order */
    /* dependencies between units: an input's entry in this program, in another unit */
    for (int pass = 0; pass < 2; pass++) {
        uint32_t *fill = pass ? ufirst : NULL;
        if (pass) {
            for (uint32_t u = 0; u < units; u++) sfirst[u + 1] += sfirst[u];
            succ = malloc(sizeof(uint32_t) * (sfirst[units] ? sfirst[units] : 1));
            if (!succ) goto done;
            memcpy(fill, sfirst, sizeof(uint32_t) * (units + 1));
        }
        for (uint32_t i = 0; i < len; i++) {
            uint32_t lo, hi;
            pn_entry_nodes(d, prog[i], &lo, &hi);
            for (uint32_t k = lo; k < hi; k++)
                for (uint32_t e = d->first_in[k]; e < d->first_in[k + 1]; e++) {
                    uint32_t j = x->at[d->in[e]];
                    if (j == UINT32_MAX || unit[j] == unit[i]) continue;
                    if (pass) {
                        succ[fill[unit[j]]++] = unit[i];
                        indeg[unit[i]]++;
                    } else {
                        sfirst[unit[j] + 1]++;
                    }
                }
        }
    }
    uint32_t hn = 0, m = 0, done_units = 0, nb = t->n_blocks;
    for (uint32_t u = 0; u < units; u++)
        if (!indeg[u]) pn_heap_push(heap, &hn, u, first);
    while (hn) {
        uint32_t u = pn_heap_pop(heap, &hn, first);
        done_units++;
        uint32_t cnt = mfirst[u + 1] - mfirst[u];
        uint32_t e0 = prog[member[mfirst[u]]];
        if (!(e0 & PN_RANGE_FLAG) && x->key[e0] != UINT32_MAX) {
            t->blk_guard[nb] = x->key[e0];
            t->blk_len[nb] = cnt;
            out[m++] = PN_LANES_BLOCK | nb;
            for (uint32_t k = mfirst[u]; k < mfirst[u + 1]; k++) x->blk[prog[member[k]]] = nb;
            nb++;
        }
        for (uint32_t k = mfirst[u]; k < mfirst[u + 1]; k++) out[m++] = prog[member[k]];
        for (uint32_t k = sfirst[u]; k < sfirst[u + 1]; k++)
            if (--indeg[succ[k]] == 0) pn_heap_push(heap, &hn, succ[k], first);
    }
    if (done_units < units) { /* a cycle: undo the marks */
        for (uint32_t i = 0; i < len; i++)
            if (!(prog[i] & PN_RANGE_FLAG)) x->blk[prog[i]] = UINT32_MAX;
        rc = MIAI_ECORRUPT;
        goto done;
    }
    t->n_blocks = nb;
    *out_prog = out;
    *out_len = m;
    out = NULL;
    rc = MIAI_OK;
done:
    free(unit);
    free(first);
    free(ufirst);
    free(root_unit);
    free(indeg);
    free(succ);
    free(sfirst);
    free(heap);
    free(out);
    free(mfirst);
    free(member);
    return rc;
}

/* The blocks of program `which`: chained to their roots, else each AND at its own
 * guard, else none, whichever first orders without a cycle. */
static int pn_lanes_block_prog(pn_data *d, int which, pn_blk_scratch *x, uint32_t *count) {
    pn_lanes_tables *t = &d->lanes;
    uint32_t len = t->len[which], *prog = t->prog[which];
    for (uint32_t i = 0; i < len; i++) {
        uint32_t lo, hi;
        pn_entry_nodes(d, prog[i], &lo, &hi);
        for (uint32_t k = lo; k < hi; k++) x->at[k] = i;
    }
    int rc = MIAI_OK;
    for (int chain = 1; chain >= 0; chain--) {
        for (uint32_t i = 0; i < len; i++)
            if (!(prog[i] & PN_RANGE_FLAG)) {
                x->key[prog[i]] = UINT32_MAX;
                count[prog[i]] = 0;
            }
        for (uint32_t i = 0; i < len; i++) /* guards may lie outside the program */
            if (!(prog[i] & PN_RANGE_FLAG))
                for (uint32_t e = d->first_in[prog[i]]; e < d->first_in[prog[i] + 1]; e++)
                    count[d->in[e]] = 0;
        pn_blk_keys(d, prog, len, chain, x, count);
        uint32_t *out = NULL, m = 0;
        rc = pn_blk_order(d, which, x, &out, &m);
        if (rc == MIAI_ECORRUPT) continue;
        if (rc == MIAI_OK && out) {
            free(t->prog[which]);
            t->prog[which] = out;
            t->len[which] = m;
        }
        break;
    }
    if (rc == MIAI_ECORRUPT) rc = MIAI_OK; /* no blocks here */
    for (uint32_t i = 0; i < t->len[which]; i++) { /* `at` again for the next program */
        uint32_t e = t->prog[which][i], lo, hi;
        if (e & PN_LANES_BLOCK) continue;
        pn_entry_nodes(d, e, &lo, &hi);
        for (uint32_t k = lo; k < hi; k++) x->at[k] = UINT32_MAX;
    }
    return rc;
}

/* The ORs of a program that read ANDs of its blocks: those ANDs push their words into
 * the OR (an accumulator, acc) when their block is evaluated and not 0, and the OR
 * reads only its other inputs (`lin`) and the accumulator: entry PN_LANES_PUSHED | s
 * for OR pushed_node[s], its other inputs lin[pushed_first[s], pushed_first[s + 1]);
 * a pushing AND is entry PN_LANES_PUSH | node, its ORs push_to[push_first[k],
 * push_first[k + 1]) for its k = push_id[node].  A skipped block pushes nothing: its
 * ANDs are 0. */
static int pn_lanes_pushes(pn_data *d, const uint32_t *blk) {
    pn_lanes_tables *t = &d->lanes;
    uint32_t n = d->n_nodes, sz = n ? n : 1;
    uint32_t *prog_of = malloc(sizeof(uint32_t) * sz), *fill = NULL;
    t->push_id = malloc(sizeof(uint32_t) * sz);
    t->push_first = calloc(sz + 1, sizeof(uint32_t));
    if (!prog_of || !t->push_id || !t->push_first) {
        free(prog_of);
        return MIAI_ENOMEM;
    }
    for (uint32_t i = 0; i < n; i++) prog_of[i] = t->push_id[i] = UINT32_MAX;
    for (int p = 0; p < 3; p++)
        for (uint32_t i = 0; i < t->len[p]; i++) {
            uint32_t e = t->prog[p][i];
            if (!(e & (PN_RANGE_FLAG | PN_LANES_BLOCK)) && blk[e] != UINT32_MAX) prog_of[e] = (uint32_t)p;
        }
    /* pass 0 counts (the ORs, their other inputs, each pushing AND's ORs), pass 1 fills */
    uint32_t ors = 0, others = 0, ids = 0;
    int rc = MIAI_OK;
    for (int pass = 0; pass < 2 && rc == MIAI_OK; pass++) {
        if (pass) {
            for (uint32_t k = 0; k < ids; k++) t->push_first[k + 1] += t->push_first[k];
            t->pushed_node = malloc(sizeof(uint32_t) * (ors + 1));
            t->pushed_first = malloc(sizeof(uint32_t) * (ors + 1));
            t->lin = malloc(sizeof(uint32_t) * (others + 1));
            t->push_to = malloc(sizeof(uint32_t) * (t->push_first[ids] + 1));
            fill = malloc(sizeof(uint32_t) * (ids + 1));
            if (!t->pushed_node || !t->pushed_first || !t->lin || !t->push_to || !fill) {
                rc = MIAI_ENOMEM;
                break;
            }
            memcpy(fill, t->push_first, sizeof(uint32_t) * ids);
            t->pushed_first[0] = 0;
        }
        uint32_t m = 0, s = 0;
        for (int p = 0; p < 3; p++)
            for (uint32_t i = 0; i < t->len[p]; i++) {
                uint32_t e = t->prog[p][i];
                if (e & (PN_RANGE_FLAG | PN_LANES_BLOCK) || d->kind[e] != MIAI_PN_OR) continue;
                uint32_t pushed = 0; /* its inputs that are ANDs of its program's blocks */
                for (uint32_t k = d->first_in[e]; k < d->first_in[e + 1]; k++)
                    pushed += blk[d->in[k]] != UINT32_MAX && prog_of[d->in[k]] == (uint32_t)p;
                if (!pushed) continue;
                for (uint32_t k = d->first_in[e]; k < d->first_in[e + 1]; k++) {
                    uint32_t a = d->in[k];
                    if (blk[a] == UINT32_MAX || prog_of[a] != (uint32_t)p) {
                        if (pass) t->lin[m] = a;
                        m++;
                    } else if (!pass) {
                        if (t->push_id[a] == UINT32_MAX) t->push_id[a] = ids++;
                        t->push_first[t->push_id[a] + 1]++;
                    } else {
                        t->push_to[fill[t->push_id[a]]++] = s;
                    }
                }
                if (pass) {
                    t->pushed_node[s] = e;
                    t->pushed_first[s + 1] = m;
                    t->prog[p][i] = PN_LANES_PUSHED | s;
                }
                s++;
            }
        ors = s;
        others = m;
    }
    if (rc == MIAI_OK) { /* the ANDs that push are marked last (pass 1 reads them plain) */
        for (int p = 0; p < 3; p++)
            for (uint32_t i = 0; i < t->len[p]; i++) {
                uint32_t e = t->prog[p][i];
                if (!(e & (PN_RANGE_FLAG | PN_LANES_BLOCK | PN_LANES_PUSHED)) &&
                    t->push_id[e] != UINT32_MAX)
                    t->prog[p][i] = PN_LANES_PUSH | e;
            }
        t->n_pushed = ors;
    }
    free(fill);
    free(prog_of);
    return rc;
}

/* The blocks and pushes of every program from the calibration's counts; `work` then
 * counts a block's ANDs and their pushes as often as the block's root was true. */
static int pn_lanes_blocks(pn_data *d, const pn_lane_stats *st) {
    pn_lanes_tables *t = &d->lanes;
    uint32_t n = d->n_nodes, total = 0, sz = n ? n : 1;
    double *rate = malloc(sizeof *rate * sz);
    uint8_t *progs = calloc(sz, 1);
    uint32_t *key = malloc(sizeof(uint32_t) * sz), *at = malloc(sizeof(uint32_t) * sz);
    uint32_t *blk = malloc(sizeof(uint32_t) * sz), *count = calloc(sz, sizeof(uint32_t));
    for (int p = 0; p < 3; p++) total += t->len[p];
    t->blk_guard = malloc(sizeof(uint32_t) * (total / PN_LANES_BLOCK_MIN + 1));
    t->blk_len = malloc(sizeof(uint32_t) * (total / PN_LANES_BLOCK_MIN + 1));
    int rc = MIAI_ENOMEM;
    if (rate && progs && key && at && blk && count && t->blk_guard && t->blk_len) {
        for (uint32_t i = 0; i < n; i++) {
            rate[i] = st->seen[i] ? (double)st->set[i] / st->seen[i] : 1.0;
            key[i] = at[i] = blk[i] = UINT32_MAX;
        }
        for (int p = 0; p < 3; p++)
            for (uint32_t i = 0; i < t->len[p]; i++) {
                uint32_t e = t->prog[p][i];
                if (!(e & PN_RANGE_FLAG) && progs[e] < 2) progs[e]++;
            }
        pn_blk_scratch x = {.rate = rate, .progs = progs, .key = key, .at = at, .blk = blk};
        /* the programs as they were, kept until the blocks are known to pay */
        uint32_t *old[3] = {NULL, NULL, NULL}, old_len[3];
        rc = MIAI_OK;
        for (int p = 0; p < 3 && rc == MIAI_OK; p++) {
            old_len[p] = t->len[p];
            old[p] = malloc(sizeof(uint32_t) * (t->len[p] ? t->len[p] : 1));
            if (!old[p]) rc = MIAI_ENOMEM;
            else memcpy(old[p], t->prog[p], sizeof(uint32_t) * t->len[p]);
        }
        for (int p = 0; p < 3 && rc == MIAI_OK; p++) rc = pn_lanes_block_prog(d, p, &x, count);
        if (rc == MIAI_OK && t->n_blocks) rc = pn_lanes_pushes(d, blk);
        uint64_t work = rc == MIAI_OK ? pn_lanes_ply_work(d, rate) : 0;
        if (rc == MIAI_OK && (double)work <= PN_LANES_BLOCK_GAIN * (double)t->work) {
            t->work = work;
        } else { /* they do not pay (or failed): the programs as they were */
            for (int p = 0; p < 3; p++) {
                if (!old[p]) continue;
                free(t->prog[p]);
                t->prog[p] = old[p];
                t->len[p] = old_len[p];
                old[p] = NULL;
            }
            t->n_blocks = t->n_pushed = 0;
            uint32_t **pushes[] = {&t->pushed_node, &t->pushed_first, &t->lin,
                                   &t->push_id,     &t->push_first,   &t->push_to};
            for (size_t k = 0; k < sizeof pushes / sizeof pushes[0]; k++) {
                free(*pushes[k]);
                *pushes[k] = NULL;
            }
        }
        for (int p = 0; p < 3; p++) free(old[p]);
    }
    free(rate);
    free(progs);
    free(key);
    free(at);
    free(blk);
    free(count);
    return rc;
}
int pn_lanes_calibrate(miai_game *g) {
    pn_data *d = g->data;
    pn_lanes_tables *t = &d->lanes;
    if (!t->built || t->blk_guard) return MIAI_OK; /* none, or made already */
    uint32_t n = d->n_nodes;
    pn_lane_stats st = {calloc(n ? n : 1, sizeof(uint32_t)), calloc(n ? n : 1, sizeof(uint32_t))};
    void *init = malloc(g->facts.state_size);
    int rc = MIAI_ENOMEM;
    if (st.seen && st.set && init) {
        g->ops->init(g, init);
        uint32_t max_plies = g->facts.max_plies, cap = (1u << PN_LANES_CALIB_SHIFT) / (n ? n : 1);
        cap = cap < 4 ? 4 : cap;
        g->facts.max_plies = cap < max_plies ? cap : max_plies;
        miai_rng rng;
        miai_rng_seed(&rng, 12345);
        double sum[MIAI_MAX_ROLES];
        uint64_t plies;
        rc = pn_lanes_batch(g, init, PN_LANES_CALIB_PLAYOUTS, &rng, sum, &plies, NULL, &st);
        g->facts.max_plies = max_plies;
        if (rc == MIAI_OK) rc = pn_lanes_blocks(d, &st);
    }
    free(st.seen);
    free(st.set);
    free(init);
    return rc;
}

/* ---- a batch ------------------------------------------------------------------- */

int pn_lanes_playouts(const miai_game *g, const void *state, uint64_t n, miai_rng *rng,
                      double *sum, uint64_t *plies, const pn_lane_trace *tr) {
    return pn_lanes_batch(g, state, n, rng, sum, plies, tr, NULL);
}
