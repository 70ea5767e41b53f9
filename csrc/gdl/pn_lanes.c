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
 * one game.  pn_lanes_choose compares the two on the calibration playouts (their work
 * count and their games' lengths) and sets the least batch that runs in the lanes
 * (pn_internal.h, PN_LANES_RATIO); miai_playouts and a search's leaf playouts
 * (miai_game_playouts) run smaller batches one by one.
 * miai_gdl_lane_playouts records every lane's legal-move counts and moves so that
 * tests replay each game by the plain play.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_internal.h"

/* ---- tables ------------------------------------------------------------------- */

/* The most moves a role has (at least 1). */
static uint32_t pn_most_moves(const pn_data *d) {
    uint32_t most = 1;
    for (uint32_t r = 0; r < d->n_roles; r++)
        if (d->n_moves[r] > most) most = d->n_moves[r];
    return most;
}

void pn_lanes_free(pn_lanes_tables *t) {
    for (int i = 0; i < 3; i++) free(t->prog[i]);
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
 * as fast on batches of 64, at 4.7x the differential engine's work). */
static uint64_t pn_lanes_prog_work(const pn_data *d, const uint32_t *prog, uint32_t len) {
    uint64_t w = 0;
    for (uint32_t i = 0; i < len; i++) {
        uint32_t e = prog[i];
        uint32_t lo = e & PN_RANGE_FLAG ? d->range_lo[e & ~PN_RANGE_FLAG] : e;
        uint32_t hi = e & PN_RANGE_FLAG ? d->range_hi[e & ~PN_RANGE_FLAG] : e + 1;
        for (uint32_t n = lo; n < hi; n++) w += 1 + (d->first_in[n + 1] - d->first_in[n]);
    }
    return w;
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
    t->work = pn_lanes_prog_work(d, t->prog[PROG_STATUS], t->len[PROG_STATUS]) +
              pn_lanes_prog_work(d, t->prog[PROG_NEXT], t->len[PROG_NEXT]) +
              d->total_moves + 2u * d->n_base;
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

static void pn_lanes_run(const pn_data *d, const uint32_t *prog, uint32_t len, uint64_t *v,
                         const uint64_t *base, const uint64_t *mv) {
    for (uint32_t i = 0; i < len; i++) {
        uint32_t e = prog[i];
        if (!(e & PN_RANGE_FLAG)) {
            v[e] = pn_lane_node(d, e, v, base, mv);
            continue;
        }
        /* a cycle of positive recursion: from all-false to the least fixpoint, in every
         * lane at once (monotone in each lane) */
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
}

/* What a test records of the batch's playouts, in the order they start (NULL: none). */
typedef struct {
    uint32_t cap;        /* plies recorded per playout */
    miai_move *moves;    /* [n][cap][n_roles] each role's move */
    uint32_t *counts;    /* [n][cap][n_roles] each role's legal moves */
    uint32_t *plies;     /* [n] */
    double *rewards;     /* [n][n_roles] */
} pn_lane_trace;

/* The work of a batch, allocated once. */
typedef struct {
    uint64_t *v, *base, *mv, *start;
    uint32_t *list; /* [64][most]: a lane's legal moves of the role being drawn */
} pn_lane_work;

static void pn_lane_work_free(pn_lane_work *w) {
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
    if (!w->v || !w->base || !w->mv || !w->start || !w->list) {
        pn_lane_work_free(w);
        return MIAI_ENOMEM;
    }
    for (uint32_t b = 0; b < d->n_base; b++) w->start[b] = pn_bit(s->bits, b) ? ~0ULL : 0;
    return MIAI_OK;
}

/* n playouts from `state` (its bases and ply); sum[r] gets the sum of role r's rewards,
 * *plies the plies played. */
static int pn_lanes_batch(const miai_game *g, const pn_state *s, uint64_t n, miai_rng *rng,
                          double *sum, uint64_t *plies, const pn_lane_trace *tr) {
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
        pn_lanes_run(d, t->prog[PROG_STATUS], t->len[PROG_STATUS], v, base, mv);
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
                pn_lanes_run(d, t->prog[PROG_GOAL], t->len[PROG_GOAL], v, base, mv);
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
            pn_lanes_run(d, t->prog[PROG_NEXT], t->len[PROG_NEXT], v, base, mv);
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

/* ---- the game's batch op and the test entry ------------------------------------- */

int pn_playouts(const miai_game *g, const void *state, uint64_t n, miai_rng *rng, double *sum,
                uint64_t *plies) {
    const pn_data *d = g->data;
    if (!d->lanes.min_batch || n < d->lanes.min_batch)
        return n >= 2 ? pn_diff_playouts(g, state, n, rng, sum, plies) : MIAI_ELIMIT;
    return pn_lanes_batch(g, state, n, rng, sum, plies, NULL);
}

int miai_gdl_lanes_min_batch(const miai_game *g, uint32_t *n) {
    if (!g || !n || g->ops->playouts != pn_playouts) return MIAI_EINVAL;
    *n = ((const pn_data *)g->data)->lanes.min_batch;
    return MIAI_OK;
}

int miai_gdl_lane_playouts(const miai_game *g, const void *state, uint32_t n, uint64_t seed,
                           uint32_t cap, miai_move *moves, uint32_t *counts, uint32_t *plies,
                           double *rewards) {
    if (!g || !state || !moves || !counts || !plies || !rewards || g->ops->playouts != pn_playouts)
        return MIAI_EINVAL;
    if (n > MIAI_GDL_LANE_TRACE_MAX || cap > MIAI_GDL_LANE_TRACE_MAX) return MIAI_EINVAL;
    const pn_data *d = g->data;
    if (!d->lanes.built) return MIAI_ELIMIT;
    pn_lane_trace tr = {.cap = cap, .moves = moves, .counts = counts, .plies = plies,
                        .rewards = rewards};
    miai_rng rng;
    miai_rng_seed(&rng, seed);
    double sum[MIAI_MAX_ROLES];
    uint64_t total;
    return pn_lanes_batch(g, state, n, &rng, sum, &total, &tr);
}
