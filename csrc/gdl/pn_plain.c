/* pn_plain.c -- the plain evaluation: a program run node by node, and the primitives
 * every playout engine shares.
 *
 * Evaluation is forward propagation over three precomputed programs (propnet.c builds
 * them: the nodes each output needs, in node order): `status` (legal moves and
 * terminal, no inputs), `next` (next values of the base propositions, reading the
 * joint move) and `goal`.  The plain play runs `next`, then `status` on the new state
 * and stores the legal-move bits and to_move in the state, so legal() only reads bits.
 * Node values live in a VLA on the caller's stack (at most MIAI_PN_MAX_NODES bytes).
 * It is the reference the other engines (pn_diff.c, pn_bits.c, pn_lanes.c) are checked
 * against, and their fallback.  The bottom of csrc/gdl: it calls no other file here.
 */
#include <stdlib.h>
#include <string.h>

#include "pn_plain.h"

static inline uint8_t pn_node(const pn_data *d, uint32_t n, const uint8_t *v,
                              const uint64_t *base, const miai_move *joint) {
    const pn_op o = d->op[n];
    const uint32_t *in = d->in;
    switch (o.kind) {
    case MIAI_PN_TRUE: return 1;
    case MIAI_PN_BASE: return (uint8_t)((base[o.a >> 6] >> (o.a & 63)) & 1u);
    case MIAI_PN_INPUT: return joint && joint[d->input_role[o.a]] == d->input_move[o.a];
    case MIAI_PN_AND:
        for (uint32_t k = o.a; k < o.b; k++)
            if (!v[in[k]]) return 0;
        return 1;
    case MIAI_PN_OR:
        for (uint32_t k = o.a; k < o.b; k++)
            if (v[in[k]]) return 1;
        return 0;
    case MIAI_PN_NOT: return !v[in[o.a]];
    case MIAI_PN_MOVESET: {
        if (!joint) return 0;
        const uint64_t *bits = d->set_bits + (size_t)o.a * d->set_words;
        for (uint32_t mask = d->set_roles[o.a]; mask; mask &= mask - 1) {
            uint32_t r = (uint32_t)__builtin_ctz(mask), m = d->move_off[r] + joint[r];
            if ((bits[m >> 6] >> (m & 63)) & 1u) return 1;
        }
        return 0;
    }
    default: return 0;
    }
}

static void pn_run(const pn_data *d, int which, uint8_t *v, const uint64_t *base,
                   const miai_move *joint) {
    const uint32_t *prog = d->prog[which];
    for (uint32_t i = 0, len = d->prog_len[which]; i < len; i++) {
        uint32_t e = prog[i];
        if (!(e & PN_RANGE_FLAG)) {
            v[e] = pn_node(d, e, v, base, joint);
            continue;
        }
        /* A cycle of positive recursion: iterate from all-false to the least fixpoint
         * (monotone, so at most hi - lo + 1 sweeps). */
        uint32_t lo = d->range_lo[e & ~PN_RANGE_FLAG], hi = d->range_hi[e & ~PN_RANGE_FLAG];
        memset(v + lo, 0, hi - lo);
        int changed = 1;
        while (changed) {
            changed = 0;
            for (uint32_t n = lo; n < hi; n++) {
                uint8_t x = pn_node(d, n, v, base, joint);
                if (x != v[n]) {
                    v[n] = x;
                    changed = 1;
                }
            }
        }
    }
}

int32_t pn_to_move(const pn_data *d, const uint32_t *count, int terminal) {
    int32_t tm = 0;
    uint32_t many = 0;
    int stuck = 0;
    for (uint32_t r = 0; r < d->n_roles; r++) {
        if (count[r] == 0) stuck = 1;
        if (count[r] > 1) {
            many++;
            tm = (int32_t)r;
        }
    }
    if (terminal || stuck) return MIAI_NOBODY;
    if (many == 0) return 0;
    return many > 1 ? MIAI_SIMULTANEOUS : tm;
}

/* Legal bits, terminal, to_move and goals of the state's base bits; v is scratch. */
void pn_status(const pn_data *d, pn_state *s, uint8_t *v) {
    uint64_t *lb = s->bits + d->base_words;
    pn_run(d, PROG_STATUS, v, s->bits, NULL);
    memset(lb, 0, sizeof(uint64_t) * d->legal_words);
    uint32_t count[MIAI_MAX_ROLES] = {0};
    for (uint32_t r = 0; r < d->n_roles; r++)
        for (uint32_t m = d->move_off[r]; m < d->move_off[r + 1]; m++)
            if (v[d->legal_node[m]] && (!pn_bit(d->guarded, m) || v[d->legal_guard[r]])) {
                lb[m >> 6] |= 1ULL << (m & 63);
                count[r]++;
            }
    int32_t tm = pn_to_move(d, count, v[d->terminal_node]);
    s->head.to_move = tm;
    uint8_t *gb = pn_goal_bytes(d, s);
    memset(gb, 0, sizeof(uint64_t) * d->goal_words);
    if (tm != MIAI_NOBODY) return;
    pn_run(d, PROG_GOAL, v, s->bits, NULL);
    for (uint32_t i = 0; i < d->n_goals; i++)
        if (v[d->goal_node[i]] && d->goal_value[i] > gb[d->goal_role[i]])
            gb[d->goal_role[i]] = (uint8_t)d->goal_value[i];
}

void pn_full_joint(const pn_data *d, const pn_state *s, const miai_move *moves,
                   miai_move *joint) {
    const uint64_t *lb = s->bits + d->base_words;
    for (uint32_t r = 0; r < d->n_roles; r++) {
        joint[r] = moves[r];
        if (s->head.to_move >= 0 && (uint32_t)s->head.to_move != r) {
            miai_move only[1] = {0};
            /* Not to move: exactly one legal move (the rule for to_move). */
            uint32_t lo = d->move_off[r];
            for (uint32_t m = lo; m < d->move_off[r + 1]; m++)
                if (pn_bit(lb, m)) {
                    only[0] = m - lo;
                    break;
                }
            joint[r] = only[0];
        }
    }
}

void pn_play_plain(const miai_game *g, void *state, const miai_move *moves) {
    const pn_data *d = g->data;
    pn_state *s = state;
    miai_move joint[MIAI_MAX_ROLES];
    pn_full_joint(d, s, moves, joint);
    uint8_t v[d->n_nodes];
    pn_run(d, PROG_NEXT, v, s->bits, joint);
    uint64_t fresh[d->base_words ? d->base_words : 1];
    memset(fresh, 0, sizeof fresh);
    for (uint32_t b = 0; b < d->n_base; b++)
        fresh[b >> 6] |= (uint64_t)v[d->next_node[b]] << (b & 63);
    for (uint32_t w = 0; w < d->base_words; w++) {
        for (uint64_t x = s->bits[w] ^ fresh[w]; x; x &= x - 1)
            miai_zxor(&s->head, d->zbase[w * 64 + (uint32_t)__builtin_ctzll(x)]);
        s->bits[w] = fresh[w];
    }
    s->head.ply++;
    pn_status(d, s, v);
}

/* The goal bytes of a finished state; the goal program for any other state. */
void pn_rewards(const miai_game *g, const void *state, double *out) {
    const pn_data *d = g->data;
    const pn_state *s = state;
    if (s->head.to_move == MIAI_NOBODY) {
        const uint8_t *gb = (const uint8_t *)(s->bits + d->base_words + d->legal_words);
        for (uint32_t r = 0; r < d->n_roles; r++) out[r] = gb[r] / 100.0;
        return;
    }
    uint8_t v[d->n_nodes];
    pn_run(d, PROG_GOAL, v, s->bits, NULL);
    int best[MIAI_MAX_ROLES];
    for (uint32_t r = 0; r < d->n_roles; r++) best[r] = 0;
    for (uint32_t i = 0; i < d->n_goals; i++)
        if (v[d->goal_node[i]] && (int)d->goal_value[i] > best[d->goal_role[i]])
            best[d->goal_role[i]] = (int)d->goal_value[i];
    for (uint32_t r = 0; r < d->n_roles; r++) out[r] = best[r] / 100.0;
}

/* mark[i] = 1 for the nodes the outputs need (a range whole), else 0. */
int pn_mark_cone(const pn_data *d, const uint32_t *outs, uint32_t n_outs, uint8_t *mark) {
    uint32_t n = d->n_nodes;
    uint32_t *range_of = calloc(n ? n : 1, sizeof *range_of);
    if (!range_of) return MIAI_ENOMEM;
    memset(mark, 0, n);
    for (uint32_t r = 0; r < d->n_ranges; r++)
        for (uint32_t i = d->range_lo[r]; i < d->range_hi[r]; i++) range_of[i] = r + 1;
    for (uint32_t i = 0; i < n_outs; i++) mark[outs[i]] = 1;
    for (uint32_t i = n; i-- > 0;) {
        if (range_of[i]) {
            uint32_t lo = d->range_lo[range_of[i] - 1];
            int any = 0;
            for (uint32_t j = lo; j <= i; j++) any |= mark[j];
            if (any)
                for (uint32_t j = lo; j <= i; j++) {
                    mark[j] = 1;
                    for (uint32_t e = d->first_in[j]; e < d->first_in[j + 1]; e++)
                        mark[d->in[e]] = 1;
                }
            i = lo;
            continue;
        }
        if (mark[i])
            for (uint32_t e = d->first_in[i]; e < d->first_in[i + 1]; e++) mark[d->in[e]] = 1;
    }
    free(range_of);
    return MIAI_OK;
}
