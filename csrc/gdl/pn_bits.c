/* pn_bits.c -- nets of at most 128 nodes evaluated word-parallel, in one or two words.
 *
 * On a net of at most PN_BITS_MAX_NODES nodes without a cyclic range, the node values
 * are the bits of one or two words held in registers, and a gate is a few masks: an
 * AND holds when ((values ^ flip) & mask) == mask, an OR when that is non-zero, and a
 * NOT is an AND of its one input flipped.  A ply is the plain evaluation's (pn_plain.c:
 * the `next` program with the joint move, then `status` on the new bases, and `goal`
 * once the game is over), a handful of instructions per gate.  A program's gates are
 * grouped by level (1 + the deepest input's level): a level's gates all read the values
 * left by the levels below, so they do not wait for each other (the CPU overlaps them;
 * one chain through the value word ran buttons 30 % slower), and its nodes are written
 * at once.  The sources are set by masks (the INPUT and MOVESET nodes a move makes
 * true, the BASE nodes of a base proposition that flips).  On two words a level's gates
 * come in four groups (pn_blevel) so that a gate whose inputs lie in one word tests
 * that word only; a net of one word has its own loop (the rest of a ply handles both
 * words: 4 % more instructions on buttons than a build for one word only).
 *
 * Why a third evaluation: on the smallest nets the differential engine's fixed cost per
 * ply (two waves, the dirty sweep, counters, watches) is most of a ply, and the plain
 * evaluation reads a byte per input.  Nets of at most 64 nodes always use it; nets of
 * 65-128 nodes when a ply evaluates at most PN_BITS_RATIO times as many gates as the
 * differential engine changes nodes and walks links per ply on the calibration
 * playouts (pn_bits_choose, pn_diff_calibrate: a count, not a clock).  Measured
 * (docs/benchmarks.md): onestep, switches, buttons 1.5-2x the differential engine;
 * with two words blocks 2.4x, maze 1.6x, nim1 1.2x (gates per ply against the
 * differential engine's count: 36/55, 53/45, 37/38), Tic-tac-toe 0.6x (70/24: not
 * chosen), the repository's own tictactoe.kif 0.8x (76/38: not chosen).
 * Playouts and play() use it wherever it is enabled (pn_engine.c chooses); the moves
 * are drawn exactly as miai_generic_playout draws them, and miai_gdl_playout_check
 * compares every ply with the plain play (on every net with the tables, chosen or not).
 */
#include <stdlib.h>
#include <string.h>

#include "pn_bits.h"
#include "pn_plain.h"

void pn_bits_free(pn_bits_tables *t) {
    for (int k = 0; k < 3; k++) {
        free(t->gate[k]);
        free(t->level[k]);
    }
    free(t->move_mask);
    free(t->base_mask);
    memset(t, 0, sizeof *t);
}

static inline void pn_bval_set(pn_bval *v, uint32_t i) { v->w[i >> 6] |= 1ULL << (i & 63); }

/* Node i's value (a select, not an index: v stays in registers). */
static inline int pn_val(pn_bval v, uint32_t i) {
    return (int)(((i < 64 ? v.w[0] : v.w[PN_BITS_WORDS - 1]) >> (i & 63)) & 1u);
}

static inline void pn_bval_or(pn_bval *v, const pn_bval *m) {
    for (int k = 0; k < PN_BITS_WORDS; k++) v->w[k] |= m->w[k];
}

/* The gates of program `which`, grouped by level (depth above the sources: 1 + the
 * deepest input), in node order within a level. */
static int pn_bits_program(pn_data *d, int which, const uint8_t *depth, uint8_t max_depth) {
    pn_bits_tables *t = &d->bits;
    uint32_t len = d->prog_len[which], n = 0;
    t->gate[which] = malloc(sizeof(pn_bgate) * (len ? len : 1));
    t->level[which] = malloc(sizeof(pn_blevel) * (max_depth ? max_depth : 1));
    if (!t->gate[which] || !t->level[which]) return MIAI_ENOMEM;
    for (uint8_t level = 1; level <= max_depth; level++) {
        pn_blevel l = {.mask = {{0}}};
        for (int group = 0; group < 4; group++) { /* pn_blevel's four groups */
            for (uint32_t p = 0; p < len; p++) {
                uint32_t i = d->prog[which][p];
                uint8_t k = d->kind[i];
                if (!pn_is_gate(k) || depth[i] != level) continue; /* sources: masks */
                pn_bgate g = {.inv = k == MIAI_PN_OR};
                pn_bval_set(&g.set, i);
                for (uint32_t e = d->first_in[i]; e < d->first_in[i + 1]; e++)
                    pn_bval_set(&g.mask, d->in[e]);
                int in0 = g.mask.w[0] != 0, in1 = g.mask.w[PN_BITS_WORDS - 1] != 0;
                if ((in1 ? 2 + in0 : i >= 64) != group) continue;
                if (k == MIAI_PN_NOT) g.flip = g.mask;
                if (k != MIAI_PN_OR) g.want = g.mask;
                t->gate[which][n++] = g;
                pn_bval_set(&l.mask, i);
            }
            l.end[group] = n;
        }
        if (n > (t->n_level[which] ? t->level[which][t->n_level[which] - 1].end[3] : 0))
            t->level[which][t->n_level[which]++] = l;
    }
    t->n_gate[which] = n;
    return MIAI_OK;
}

int pn_bits_build(pn_data *d) {
    pn_bits_tables *t = &d->bits;
    memset(t, 0, sizeof *t);
    uint32_t n = d->n_nodes;
    if (n > PN_BITS_MAX_NODES || d->n_ranges) return MIAI_OK; /* the other engines */
    t->move_mask = calloc(d->total_moves ? d->total_moves : 1, sizeof(pn_bval));
    t->base_mask = calloc(d->n_base ? d->n_base : 1, sizeof(pn_bval));
    if (!t->move_mask || !t->base_mask) return MIAI_ENOMEM;
    uint8_t depth[PN_BITS_MAX_NODES], max_depth = 0; /* inputs come first (no cycle) */
    for (uint32_t i = 0; i < n; i++) {
        depth[i] = 0;
        if (!pn_is_gate(d->kind[i])) continue;
        for (uint32_t e = d->first_in[i]; e < d->first_in[i + 1]; e++)
            if (depth[d->in[e]] > depth[i]) depth[i] = depth[d->in[e]];
        depth[i]++;
        if (depth[i] > max_depth) max_depth = depth[i];
    }
    for (int which = 0; which < 3; which++) {
        int rc = pn_bits_program(d, which, depth, max_depth);
        if (rc != MIAI_OK) return rc;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = d->arg[i];
        switch (d->kind[i]) {
        case MIAI_PN_TRUE: pn_bval_set(&t->true_bits, i); break;
        case MIAI_PN_BASE: pn_bval_set(&t->base_mask[a], i); break;
        case MIAI_PN_INPUT:
            pn_bval_set(&t->move_mask[a], i);
            pn_bval_set(&t->move_all, i);
            break;
        case MIAI_PN_MOVESET:
            for (uint32_t m = 0; m < d->total_moves; m++)
                if (pn_bit(d->set_bits + (size_t)a * d->set_words, m))
                    pn_bval_set(&t->move_mask[m], i);
            pn_bval_set(&t->move_all, i);
            break;
        default: break;
        }
    }
    t->one_word = n <= 64;
    t->built = 1;
    t->enabled = n <= PN_BITS_ALWAYS_NODES;
    return MIAI_OK;
}

void pn_bits_choose(pn_data *d, double diff_work) {
    pn_bits_tables *t = &d->bits;
    if (!t->built || d->n_nodes <= PN_BITS_ALWAYS_NODES) return;
    t->enabled = t->n_gate[PROG_NEXT] + t->n_gate[PROG_STATUS] <= PN_BITS_RATIO * diff_work;
}

/* ---- evaluation ------------------------------------------------------------------ */

/* Whether gate g holds, its inputs in word k of v. */
static inline uint64_t pn_gate_in(const pn_bgate *g, pn_bval v, int k) {
    return (((v.w[k] ^ g->flip.w[k]) & g->mask.w[k]) == g->want.w[k]) ^ g->inv;
}

/* The program on a net of one word, a level at a time. */
static inline __attribute__((always_inline)) pn_bval
pn_bits_eval1(const pn_bits_tables *t, int which, pn_bval v) {
    const pn_bgate *g = t->gate[which];
    for (const pn_blevel *l = t->level[which], *le = l + t->n_level[which]; l < le; l++) {
        uint64_t got = 0; /* the level's gates, all from the same v */
        for (const pn_bgate *e = t->gate[which] + l->end[0]; g < e; g++)
            got |= g->set.w[0] & (0 - pn_gate_in(g, v, 0));
        v.w[0] = (v.w[0] & ~l->mask.w[0]) | got;
    }
    return v;
}

/* The program on values v, a level at a time; a gate whose inputs lie in one word
 * tests that word only and sets a bit of one word. */
static inline __attribute__((always_inline)) pn_bval
pn_bits_eval2(const pn_bits_tables *t, int which, pn_bval v) {
    const pn_bgate *g = t->gate[which], *base = g;
    for (const pn_blevel *l = t->level[which], *le = l + t->n_level[which]; l < le; l++) {
        uint64_t got0 = 0, got1 = 0; /* the level's gates, all from the same v */
        for (const pn_bgate *e = base + l->end[0]; g < e; g++)
            got0 |= g->set.w[0] & (0 - pn_gate_in(g, v, 0));
        for (const pn_bgate *e = base + l->end[1]; g < e; g++)
            got1 |= g->set.w[1] & (0 - pn_gate_in(g, v, 0));
        for (const pn_bgate *e = base + l->end[2]; g < e; g++)
            got1 |= g->set.w[1] & (0 - pn_gate_in(g, v, 1));
        for (const pn_bgate *e = base + l->end[3]; g < e; g++) {
            uint64_t ok = ((((v.w[0] ^ g->flip.w[0]) & g->mask.w[0]) == g->want.w[0]) &
                           (((v.w[1] ^ g->flip.w[1]) & g->mask.w[1]) == g->want.w[1])) ^
                          g->inv;
            got1 |= g->set.w[1] & (0 - ok);
        }
        v.w[0] = (v.w[0] & ~l->mask.w[0]) | got0;
        v.w[1] = (v.w[1] & ~l->mask.w[1]) | got1;
    }
    return v;
}

static inline __attribute__((always_inline)) pn_bval
pn_bits_eval(const pn_bits_tables *t, int which, pn_bval v) {
    return t->one_word ? pn_bits_eval1(t, which, v) : pn_bits_eval2(t, which, v);
}

/* The values of the sources of state s, no move played (gates: 0). */
static pn_bval pn_bits_start(const pn_data *d, const pn_state *s) {
    pn_bval v = d->bits.true_bits;
    for (uint32_t w = 0; w < d->base_words; w++)
        for (uint64_t x = s->bits[w]; x; x &= x - 1)
            pn_bval_or(&v, &d->bits.base_mask[w * 64 + (uint32_t)__builtin_ctzll(x)]);
    return v;
}

/* Legal bits, counts, to_move and, once over, the goals of the state whose bases are
 * in val (pn_status of pn_plain.c, on bits). */
static pn_bval pn_bits_status(const pn_data *d, pn_state *s, pn_bval val, uint32_t *count) {
    const pn_bits_tables *t = &d->bits;
    uint64_t *lb = pn_legal_words(d, s);
    val = pn_bits_eval(t, PROG_STATUS, val);
    memset(lb, 0, sizeof(uint64_t) * d->legal_words);
    for (uint32_t r = 0; r < d->n_roles; r++) {
        int guard = pn_val(val, d->legal_guard[r]);
        count[r] = 0;
        for (uint32_t m = d->move_off[r]; m < d->move_off[r + 1]; m++)
            if (pn_val(val, d->legal_node[m]) && (guard || !pn_bit(d->guarded, m))) {
                lb[m >> 6] |= 1ULL << (m & 63);
                count[r]++;
            }
    }
    s->head.to_move = pn_to_move(d, count, pn_val(val, d->terminal_node));
    uint8_t *gb = pn_goal_bytes(d, s);
    memset(gb, 0, sizeof(uint64_t) * d->goal_words);
    if (s->head.to_move != MIAI_NOBODY) return val;
    val = pn_bits_eval(t, PROG_GOAL, val);
    for (uint32_t i = 0; i < d->n_goals; i++)
        if (pn_val(val, d->goal_node[i]) && d->goal_value[i] > gb[d->goal_role[i]])
            gb[d->goal_role[i]] = (uint8_t)d->goal_value[i];
    return val;
}

/* One ply of the full joint move on state s, whose bases are in val: the moves' sources,
 * `next`, the bases that flip (keys updated), then the new state's status; the new
 * values. */
static pn_bval pn_bits_ply(const pn_data *d, pn_state *s, pn_bval val,
                           const miai_move *joint, uint32_t *count) {
    const pn_bits_tables *t = &d->bits;
    for (int k = 0; k < PN_BITS_WORDS; k++) val.w[k] &= ~t->move_all.w[k];
    for (uint32_t r = 0; r < d->n_roles; r++)
        pn_bval_or(&val, &t->move_mask[d->move_off[r] + joint[r]]);
    val = pn_bits_eval(t, PROG_NEXT, val);
    for (uint32_t w = 0; w < d->base_words; w++) {
        uint64_t fresh = 0;
        for (uint32_t b = w * 64, hi = b + 64 < d->n_base ? b + 64 : d->n_base; b < hi; b++)
            fresh |= (uint64_t)pn_val(val, d->next_node[b]) << (b & 63);
        for (uint64_t x = s->bits[w] ^ fresh; x; x &= x - 1) {
            uint32_t b = w * 64 + (uint32_t)__builtin_ctzll(x);
            for (int k = 0; k < PN_BITS_WORDS; k++) /* its BASE nodes flip */
                val.w[k] ^= t->base_mask[b].w[k];
            miai_zxor(&s->head, d->zbase[b]);
        }
        s->bits[w] = fresh;
    }
    s->head.ply++;
    return pn_bits_status(d, s, val, count);
}

void pn_play_bits(const miai_game *g, void *state, const miai_move *moves) {
    const pn_data *d = g->data;
    pn_state *s = state;
    uint32_t count[MIAI_MAX_ROLES];
    miai_move joint[MIAI_MAX_ROLES];
    pn_full_joint(d, s, moves, joint);
    pn_bits_ply(d, s, pn_bits_start(d, s), joint, count);
}

/* A random playout from state; with a shadow, each ply is also played by pn_play_plain
 * on it and the two states compared (*bad counts the differences). */
uint32_t pn_bits_playout(const miai_game *g, void *state, miai_rng *rng, miai_move *trace,
                         uint32_t trace_cap, uint32_t *trace_len, void *shadow,
                         uint32_t *bad, miai_mast *mast) {
    const pn_data *d = g->data;
    pn_state *s = state;
    pn_bval val = pn_bits_start(d, s);
    uint32_t count[MIAI_MAX_ROLES], plies = 0, tl = 0, nr = d->n_roles;
    miai_move joint[MIAI_MAX_ROLES];
    const uint64_t *lb = pn_legal_words(d, s);
    for (uint32_t r = 0; r < nr; r++) { /* the state's own legal moves */
        count[r] = 0;
        for (uint32_t m = d->move_off[r]; m < d->move_off[r + 1]; m++) count[r] += pn_bit(lb, m);
    }
    while (s->head.to_move != MIAI_NOBODY && s->head.ply < g->facts.max_plies) {
        int32_t tm = s->head.to_move;
        /* the moves, drawn as miai_generic_playout draws them */
        for (uint32_t r = 0; r < nr; r++) {
            uint32_t lo = d->move_off[r], hi = d->move_off[r + 1];
            if (tm == MIAI_SIMULTANEOUS || (uint32_t)tm == r) {
                if (mast) {
                    uint32_t n = pn_list_bits(lb, d->guarded, 0, lo, hi, mast->buf);
                    joint[r] = miai_mast_pick(mast, rng, r, mast->buf, n);
                } else {
                    joint[r] = pn_kth_bit(lb, d->guarded, 0, lo, hi,
                                          miai_rng_below(rng, count[r]));
                }
                if (trace && tl < trace_cap) trace[tl++] = joint[r];
            } else {
                joint[r] = pn_kth_bit(lb, d->guarded, 0, lo, hi, 0); /* its only move */
            }
        }
        if (shadow) pn_play_plain(g, shadow, joint);
        val = pn_bits_ply(d, s, val, joint, count);
        plies++;
        if (shadow && memcmp(shadow, state, g->facts.state_size) != 0) (*bad)++;
    }
    if (trace_len) *trace_len = tl;
    return plies;
}
