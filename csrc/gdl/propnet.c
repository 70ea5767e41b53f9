/* propnet.c -- GDL games as propositional networks evaluated on bit-vector states.
 *
 * See gdl_api.h for the description format and the game's rules of who moves.
 * Evaluation is forward propagation over three precomputed programs (the nodes each
 * output needs, in node order): `status` (legal moves and terminal, no inputs),
 * `next` (next values of the base propositions, reading the joint move) and `goal`,
 * built here from a validated description and run by the plain evaluation
 * (pn_plain.c); play() stores the legal-move bits and to_move in the state, so legal()
 * only reads bits.  Node values live on the caller's stack: the game object stays
 * immutable and shareable, and evaluation allocates nothing.
 *
 * The top of csrc/gdl: the game's vtable and the public functions of gdl_api.h that
 * make and read a game.  It calls pn_plain.c and pn_engine.c, which builds, chooses and
 * runs the playout engines (play, playout, playouts); no engine file directly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_engine.h"
#include "pn_plain.h"

/* ---- the vtable ---------------------------------------------------------------- */

/* Legal moves of role r from the stored bits (global indices minus the role offset). */
static uint32_t pn_legal_bits(const pn_data *d, const uint64_t *lb, uint32_t r,
                              miai_move *out) {
    uint32_t lo = d->move_off[r], hi = d->move_off[r + 1], cnt = 0;
    if (hi <= lo) return 0;
    for (uint32_t w = lo >> 6; w <= (hi - 1) >> 6; w++) {
        uint64_t x = lb[w];
        if (w == lo >> 6) x &= ~0ULL << (lo & 63);
        if (w == (hi - 1) >> 6 && (hi & 63)) x &= ~0ULL >> (64 - (hi & 63));
        while (x) {
            out[cnt++] = (miai_move)(w * 64 + (uint32_t)__builtin_ctzll(x) - lo);
            x &= x - 1;
        }
    }
    return cnt;
}

static void pn_key_full(const miai_game *g, const void *state, uint64_t *k1, uint64_t *k2) {
    const pn_data *d = g->data;
    const pn_state *s = state;
    *k1 = *k2 = 0;
    for (uint32_t w = 0; w < d->base_words; w++)
        for (uint64_t x = s->bits[w]; x; x &= x - 1)
            miai_zxor2(k1, k2, d->zbase[w * 64 + (uint32_t)__builtin_ctzll(x)]);
}

static void pn_init(const miai_game *g, void *state) {
    const pn_data *d = g->data;
    pn_state *s = state;
    memset(s->bits, 0, sizeof(uint64_t) * (d->base_words + d->legal_words + d->goal_words));
    for (uint32_t b = 0; b < d->n_base; b++)
        if (d->init[b]) s->bits[b >> 6] |= 1ULL << (b & 63);
    s->head.ply = 0;
    pn_key_full(g, state, &s->head.key, &s->head.key2);
    uint8_t v[d->n_nodes];
    pn_status(d, s, v);
}

static uint32_t pn_legal(const miai_game *g, const void *state, uint32_t role,
                         miai_move *out) {
    const pn_data *d = g->data;
    const pn_state *s = state;
    int32_t tm = s->head.to_move;
    if (tm == MIAI_NOBODY || (tm >= 0 && (uint32_t)tm != role)) return 0;
    return pn_legal_bits(d, s->bits + d->base_words, role, out);
}

static int pn_move_to_text(const miai_game *g, uint32_t role, miai_move m, char *buf,
                           size_t cap) {
    const pn_data *d = g->data;
    if (m >= d->n_moves[role]) return MIAI_EINVAL;
    snprintf(buf, cap, "%s", d->move_text[d->move_off[role] + m]);
    return MIAI_OK;
}

/* Lower case, whitespace runs to one space, none after '(' or before ')', trimmed. */
static int pn_normalise(const char *t, char *out, size_t cap) {
    size_t n = 0;
    int space = 0;
    for (; *t; t++) {
        char c = *t;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = 1;
            continue;
        }
        if (space && n > 0 && out[n - 1] != '(' && c != ')') {
            if (n + 1 >= cap) return MIAI_EINVAL;
            out[n++] = ' ';
        }
        space = 0;
        if (n + 1 >= cap) return MIAI_EINVAL;
        out[n++] = (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
    }
    out[n] = 0;
    return MIAI_OK;
}

static int pn_move_from_text(const miai_game *g, uint32_t role, const char *text,
                             miai_move *out) {
    const pn_data *d = g->data;
    char norm[PN_TEXT_MAX];
    if (pn_normalise(text, norm, sizeof norm) != MIAI_OK) return MIAI_EINVAL;
    for (uint32_t m = 0; m < d->n_moves[role]; m++)
        if (strcmp(d->move_text[d->move_off[role] + m], norm) == 0) {
            *out = m;
            return MIAI_OK;
        }
    return MIAI_EINVAL;
}

static void pn_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    const pn_data *d = g->data;
    const pn_state *s = state;
    size_t at = 0;
    buf[0] = 0;
    for (uint32_t b = 0; b < d->n_base && at + 1 < cap; b++)
        if (pn_bit(s->bits, b)) {
            int k = snprintf(buf + at, cap - at, "%s\n", d->base_text[b]);
            if (k < 0) break;
            at += (size_t)k;
        }
}

static int pn_check(const miai_game *g, const void *state) {
    const pn_data *d = g->data;
    const pn_state *s = state;
    size_t size = g->facts.state_size;
    pn_state *copy = malloc(size);
    if (!copy) return MIAI_ENOMEM;
    memcpy(copy, s, size);
    uint8_t *v = malloc(d->n_nodes);
    if (!v) {
        free(copy);
        return MIAI_ENOMEM;
    }
    pn_status(d, copy, v);
    int same = memcmp(copy, s, size) == 0;
    for (uint32_t b = d->n_base; b < d->base_words * 64; b++)
        if (pn_bit(s->bits, b)) same = 0;
    free(v);
    free(copy);
    return same ? MIAI_OK : MIAI_ECORRUPT;
}

static void pn_free_data(pn_data *d) {
    if (!d) return;
    pn_engines_free(d);
    if (d->base_text)
        for (uint32_t i = 0; i < d->n_base; i++) free(d->base_text[i]);
    if (d->move_text)
        for (uint32_t i = 0; i < d->total_moves; i++) free(d->move_text[i]);
    void *arrays[] = {d->op, d->kind, d->arg, d->first_in, d->in, d->range_lo, d->range_hi,
                      d->next_node, d->init, d->base_text, d->legal_node, d->input_role,
                      d->input_move, d->move_text, d->goal_role, d->goal_value,
                      d->goal_node, d->prog[0], d->prog[1], d->prog[2], d->zbase,
                      d->set_roles, d->set_bits, d->guarded, d->family_first,
                      d->family_base, d->gate_family_first, d->gate_family_node};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
    free(d);
}

static void pn_destroy(miai_game *g) {
    pn_free_data(g->data);
    g->data = NULL;
}

static const miai_game_ops pn_ops = {
    .init = pn_init,
    .legal = pn_legal,
    .play = pn_play,
    .rewards = pn_rewards,
    .key_full = pn_key_full,
    .move_to_text = pn_move_to_text,
    .move_from_text = pn_move_from_text,
    .render = pn_render,
    .playout = pn_playout,
    .playout_mast = pn_playout_mast,
    .playouts = pn_playouts,
    .check = pn_check,
    .destroy = pn_destroy,
};


/* ---- building from a validated description -------------------------------------- */

static size_t pn_bounded_len(const char *t) {
    size_t n = 0;
    while (n < PN_TEXT_MAX && t[n]) n++;
    return n;
}

/* The mutex families of a description: offsets in order, 2..MIAI_PN_MAX_FAMILY members
 * each, every member in range and in one family at most; a base family with at most
 * one member initially true, a gate family of gates.  (Called after the nodes are
 * validated.) */
static int pn_validate_families(const miai_gdl_desc *x) {
    if (x->n_families &&
        (x->n_families > x->n_base / 2 || !x->family_first || !x->family_base ||
         x->family_first[0] != 0))
        return MIAI_EINVAL;
    uint8_t *seen = calloc(x->n_base ? x->n_base : 1, 1);
    if (!seen) return MIAI_ENOMEM;
    int rc = MIAI_OK;
    for (uint32_t f = 0; f < x->n_families && rc == MIAI_OK; f++) {
        uint32_t lo = x->family_first[f], hi = x->family_first[f + 1], on = 0;
        if (hi < lo + 2 || hi - lo > MIAI_PN_MAX_FAMILY || hi > x->n_base) {
            rc = MIAI_EINVAL;
            break;
        }
        for (uint32_t e = lo; e < hi; e++) {
            uint32_t b = x->family_base[e];
            if (b >= x->n_base || seen[b]) {
                rc = MIAI_EINVAL;
                break;
            }
            seen[b] = 1;
            on += x->init[b];
        }
        if (on > 1) rc = MIAI_EINVAL;
    }
    free(seen);
    if (rc != MIAI_OK || !x->n_gate_families) return rc;
    if (x->n_gate_families > x->n_nodes / 2 || !x->gate_family_first ||
        !x->gate_family_node || x->gate_family_first[0] != 0)
        return MIAI_EINVAL;
    if (!(seen = calloc(x->n_nodes, 1))) return MIAI_ENOMEM;
    for (uint32_t f = 0; f < x->n_gate_families && rc == MIAI_OK; f++) {
        uint32_t lo = x->gate_family_first[f], hi = x->gate_family_first[f + 1];
        if (hi < lo + 2 || hi - lo > MIAI_PN_MAX_FAMILY || hi > x->n_nodes) {
            rc = MIAI_EINVAL;
            break;
        }
        for (uint32_t e = lo; e < hi && rc == MIAI_OK; e++) {
            uint32_t node = x->gate_family_node[e];
            if (node >= x->n_nodes || seen[node] || !pn_is_gate(x->kind[node]))
                rc = MIAI_EINVAL;
            else
                seen[node] = 1;
        }
    }
    free(seen);
    return rc;
}

static int pn_validate(const miai_gdl_desc *x, uint32_t *total_out) {
    if (!x) return MIAI_EINVAL;
    uint32_t n = x->n_nodes;
    if (n > MIAI_PN_MAX_NODES) return MIAI_ELIMIT;
    if (n < 2 || !x->kind || !x->arg || !x->first_in) return MIAI_EINVAL;
    if (x->kind[0] != MIAI_PN_FALSE || x->kind[1] != MIAI_PN_TRUE) return MIAI_EINVAL;
    if (x->n_roles < 1 || x->n_roles > MIAI_MAX_ROLES || !x->n_moves) return MIAI_EINVAL;
    uint64_t total = 0;
    for (uint32_t r = 0; r < x->n_roles; r++) total += x->n_moves[r];
    if (total > MIAI_PN_MAX_NODES) return MIAI_ELIMIT;
    if (total && (!x->legal_node || !x->move_text)) return MIAI_EINVAL;
    if (x->n_base > MIAI_PN_MAX_NODES) return MIAI_ELIMIT;
    if (x->n_base && (!x->next_node || !x->init || !x->base_text)) return MIAI_EINVAL;
    if (x->n_sets > MIAI_PN_MAX_NODES) return MIAI_ELIMIT;
    if (x->n_sets) {
        if (!x->set_first || !x->set_move || x->set_first[0] != 0) return MIAI_EINVAL;
        for (uint32_t k = 0; k < x->n_sets; k++) {
            if (x->set_first[k + 1] < x->set_first[k] || x->set_first[k + 1] > MIAI_PN_MAX_NODES)
                return MIAI_EINVAL;
            for (uint32_t e = x->set_first[k]; e < x->set_first[k + 1]; e++)
                if (x->set_move[e] >= total) return MIAI_EINVAL;
        }
    }
    if (x->first_in[0] != 0) return MIAI_EINVAL;
    for (uint32_t i = 0; i < n; i++)
        if (x->first_in[i + 1] < x->first_in[i]) return MIAI_EINVAL;
    if (x->first_in[n] > 64u * MIAI_PN_MAX_NODES) return MIAI_ELIMIT;
    if (x->first_in[n] && !x->in) return MIAI_EINVAL;
    if (x->n_ranges > n || (x->n_ranges && (!x->range_lo || !x->range_hi)))
        return MIAI_EINVAL;
    uint32_t prev = 2;
    for (uint32_t k = 0; k < x->n_ranges; k++) {
        if (x->range_lo[k] < prev || x->range_hi[k] <= x->range_lo[k] || x->range_hi[k] > n)
            return MIAI_EINVAL;
        prev = x->range_hi[k];
    }
    uint32_t k = 0; /* the range at or after node i */
    for (uint32_t i = 0; i < n; i++) {
        while (k < x->n_ranges && x->range_hi[k] <= i) k++;
        int in_range = k < x->n_ranges && x->range_lo[k] <= i;
        uint32_t limit = in_range ? x->range_hi[k] : i;
        uint32_t deg = x->first_in[i + 1] - x->first_in[i];
        uint8_t kind = x->kind[i];
        switch (kind) {
        case MIAI_PN_FALSE:
        case MIAI_PN_TRUE:
            if (deg) return MIAI_EINVAL;
            break;
        case MIAI_PN_BASE:
            if (deg || x->arg[i] >= x->n_base) return MIAI_EINVAL;
            break;
        case MIAI_PN_INPUT:
            if (deg || x->arg[i] >= total) return MIAI_EINVAL;
            break;
        case MIAI_PN_NOT:
            if (deg != 1) return MIAI_EINVAL;
            if (in_range) limit = x->range_lo[k]; /* negation never inside a cycle */
            break;
        case MIAI_PN_MOVESET:
            if (deg || x->arg[i] >= x->n_sets) return MIAI_EINVAL;
            break;
        case MIAI_PN_AND:
        case MIAI_PN_OR: break;
        default: return MIAI_EINVAL;
        }
        for (uint32_t e = x->first_in[i]; e < x->first_in[i + 1]; e++)
            if (x->in[e] >= limit) return MIAI_EINVAL;
    }
    for (uint32_t b = 0; b < x->n_base; b++) {
        if (x->next_node[b] >= n || x->init[b] > 1 || !x->base_text[b]) return MIAI_EINVAL;
        if (pn_bounded_len(x->base_text[b]) >= PN_TEXT_MAX) return MIAI_EINVAL;
    }
    if (!x->legal_guard != !x->legal_guarded) return MIAI_EINVAL;
    if (x->legal_guard)
        for (uint32_t r = 0; r < x->n_roles; r++)
            if (x->legal_guard[r] >= n) return MIAI_EINVAL;
    for (uint32_t m = 0; m < total; m++) {
        if (x->legal_node[m] >= n || !x->move_text[m]) return MIAI_EINVAL;
        if (x->legal_guarded && x->legal_guarded[m] > 1) return MIAI_EINVAL;
        if (pn_bounded_len(x->move_text[m]) >= PN_TEXT_MAX) return MIAI_EINVAL;
    }
    if (x->terminal_node >= n) return MIAI_EINVAL;
    if (x->n_goals > MIAI_PN_MAX_NODES) return MIAI_ELIMIT;
    if (x->n_goals && (!x->goal_role || !x->goal_value || !x->goal_node)) return MIAI_EINVAL;
    for (uint32_t i = 0; i < x->n_goals; i++)
        if (x->goal_role[i] >= x->n_roles || x->goal_value[i] > 100 || x->goal_node[i] >= n)
            return MIAI_EINVAL;
    if (x->max_plies < 1) return MIAI_EINVAL;
    int rc = pn_validate_families(x);
    if (rc != MIAI_OK) return rc;
    *total_out = (uint32_t)total;
    return MIAI_OK;
}

static void *pn_dup(const void *src, size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (p && bytes) memcpy(p, src, bytes);
    return p;
}

static char *pn_strdup(const char *t) { return pn_dup(t, pn_bounded_len(t) + 1); }

/* The program of the nodes the outputs need, in order; a cycle is one range entry. */
static int pn_program(pn_data *d, const uint32_t *outs, uint32_t n_outs, int which) {
    uint32_t n = d->n_nodes;
    uint8_t *mark = malloc(n ? n : 1);
    uint32_t *range_of = calloc(n ? n : 1, sizeof *range_of);
    if (!mark || !range_of || pn_mark_cone(d, outs, n_outs, mark) != MIAI_OK) {
        free(mark);
        free(range_of);
        return MIAI_ENOMEM;
    }
    for (uint32_t r = 0; r < d->n_ranges; r++)
        for (uint32_t i = d->range_lo[r]; i < d->range_hi[r]; i++) range_of[i] = r + 1;
    uint32_t len = 0;
    uint32_t *prog = malloc(sizeof *prog * (n ? n : 1));
    if (!prog) {
        free(mark);
        free(range_of);
        return MIAI_ENOMEM;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!mark[i]) continue;
        if (range_of[i]) {
            prog[len++] = PN_RANGE_FLAG | (range_of[i] - 1);
            i = d->range_hi[range_of[i] - 1] - 1;
        } else {
            prog[len++] = i;
        }
    }
    free(mark);
    free(range_of);
    d->prog[which] = prog;
    d->prog_len[which] = len;
    return MIAI_OK;
}

static int pn_fill(pn_data *d, const miai_gdl_desc *x, uint32_t total) {
    uint32_t n = x->n_nodes, n_in = x->first_in[n];
    d->n_nodes = n;
    d->n_ranges = x->n_ranges;
    d->n_base = x->n_base;
    d->base_words = (x->n_base + 63) / 64;
    d->n_roles = x->n_roles;
    d->total_moves = total;
    d->legal_words = (total + 63) / 64;
    d->goal_words = (x->n_roles + 7) / 8;
    d->terminal_node = x->terminal_node;
    d->n_goals = x->n_goals;
    for (uint32_t r = 0; r < x->n_roles; r++) {
        d->n_moves[r] = x->n_moves[r];
        d->move_off[r + 1] = d->move_off[r] + x->n_moves[r];
    }
    d->kind = pn_dup(x->kind, n);
    d->arg = pn_dup(x->arg, sizeof(uint32_t) * n);
    d->first_in = pn_dup(x->first_in, sizeof(uint32_t) * (n + 1));
    d->in = pn_dup(x->in, sizeof(uint32_t) * n_in);
    d->range_lo = pn_dup(x->range_lo, sizeof(uint32_t) * x->n_ranges);
    d->range_hi = pn_dup(x->range_hi, sizeof(uint32_t) * x->n_ranges);
    d->next_node = pn_dup(x->next_node, sizeof(uint32_t) * x->n_base);
    d->init = pn_dup(x->init, x->n_base);
    d->legal_node = pn_dup(x->legal_node, sizeof(uint32_t) * total);
    d->goal_role = pn_dup(x->goal_role, sizeof(uint32_t) * x->n_goals);
    d->goal_value = pn_dup(x->goal_value, sizeof(uint32_t) * x->n_goals);
    d->goal_node = pn_dup(x->goal_node, sizeof(uint32_t) * x->n_goals);
    d->op = malloc(sizeof(pn_op) * n);
    if (d->op)
        for (uint32_t i = 0; i < n; i++) {
            uint8_t k = x->kind[i];
            int gate = pn_is_gate(k);
            d->op[i] = (pn_op){k, gate ? x->first_in[i] : x->arg[i], x->first_in[i + 1]};
        }
    d->input_role = malloc(sizeof(uint32_t) * (total ? total : 1));
    d->input_move = malloc(sizeof(uint32_t) * (total ? total : 1));
    d->base_text = calloc(x->n_base ? x->n_base : 1, sizeof(char *));
    d->move_text = calloc(total ? total : 1, sizeof(char *));
    d->zbase = malloc(sizeof(miai_zkey) * (x->n_base ? x->n_base : 1));
    if (!d->op || !d->kind || !d->arg || !d->first_in || !d->in || !d->range_lo || !d->range_hi ||
        !d->next_node || !d->init || !d->legal_node || !d->goal_role || !d->goal_value ||
        !d->goal_node || !d->input_role || !d->input_move || !d->base_text ||
        !d->move_text || !d->zbase)
        return MIAI_ENOMEM;
    for (uint32_t b = 0; b < x->n_base; b++)
        if (!(d->base_text[b] = pn_strdup(x->base_text[b]))) return MIAI_ENOMEM;
    for (uint32_t r = 0; r < x->n_roles; r++)
        for (uint32_t m = d->move_off[r]; m < d->move_off[r + 1]; m++) {
            d->input_role[m] = r;
            d->input_move[m] = m - d->move_off[r];
            if (!(d->move_text[m] = pn_strdup(x->move_text[m]))) return MIAI_ENOMEM;
        }
    d->n_sets = x->n_sets;
    d->set_words = total ? (total + 63) / 64 : 1;
    d->set_roles = calloc(x->n_sets ? x->n_sets : 1, sizeof *d->set_roles);
    d->set_bits = calloc((size_t)d->set_words * (x->n_sets ? x->n_sets : 1), sizeof(uint64_t));
    if (!d->set_roles || !d->set_bits) return MIAI_ENOMEM;
    for (uint32_t k = 0; k < x->n_sets; k++)
        for (uint32_t e = x->set_first[k]; e < x->set_first[k + 1]; e++) {
            uint32_t m = x->set_move[e];
            d->set_bits[(size_t)k * d->set_words + (m >> 6)] |= 1ULL << (m & 63);
            d->set_roles[k] |= 1u << d->input_role[m];
        }
    zobrist_fill(d->zbase, x->n_base ? x->n_base : 1, x->seed);
    d->n_families = x->n_families;
    if (x->n_families) {
        d->family_first = pn_dup(x->family_first, sizeof(uint32_t) * (x->n_families + 1));
        d->family_base =
            pn_dup(x->family_base, sizeof(uint32_t) * x->family_first[x->n_families]);
        if (!d->family_first || !d->family_base) return MIAI_ENOMEM;
    }
    d->n_gate_families = x->n_gate_families;
    if (x->n_gate_families) {
        uint32_t nf = x->n_gate_families;
        d->gate_family_first = pn_dup(x->gate_family_first, sizeof(uint32_t) * (nf + 1));
        d->gate_family_node =
            pn_dup(x->gate_family_node, sizeof(uint32_t) * x->gate_family_first[nf]);
        if (!d->gate_family_first || !d->gate_family_node) return MIAI_ENOMEM;
    }
    d->guarded = calloc(d->legal_words ? d->legal_words : 1, sizeof(uint64_t));
    if (!d->guarded) return MIAI_ENOMEM;
    for (uint32_t r = 0; r < x->n_roles; r++) d->legal_guard[r] = x->legal_guard ? x->legal_guard[r] : 1;
    for (uint32_t m = 0; m < total; m++)
        if (x->legal_guarded && x->legal_guarded[m]) d->guarded[m >> 6] |= 1ULL << (m & 63);
    uint32_t n_status = total + x->n_roles + 1;
    uint32_t *outs = malloc(sizeof(uint32_t) * (n_status + x->n_base + x->n_goals + 1));
    if (!outs) return MIAI_ENOMEM;
    memcpy(outs, x->legal_node, sizeof(uint32_t) * total);
    memcpy(outs + total, d->legal_guard, sizeof(uint32_t) * x->n_roles);
    outs[total + x->n_roles] = x->terminal_node;
    int rc = pn_program(d, outs, n_status, PROG_STATUS);
    if (rc == MIAI_OK) rc = pn_program(d, x->next_node, x->n_base, PROG_NEXT);
    if (rc == MIAI_OK) rc = pn_program(d, x->goal_node, x->n_goals, PROG_GOAL);
    free(outs);
    if (rc == MIAI_OK) rc = pn_engines_build(d);
    return rc;
}

int miai_gdl_create(const miai_gdl_desc *desc, miai_game **out) {
    if (!out) return MIAI_EINVAL;
    *out = NULL;
    uint32_t total = 0;
    int rc = pn_validate(desc, &total);
    if (rc != MIAI_OK) return rc;
    pn_data *d = calloc(1, sizeof *d);
    miai_game *g = calloc(1, sizeof *g);
    if (!d || !g) {
        free(d);
        free(g);
        return MIAI_ENOMEM;
    }
    rc = pn_fill(d, desc, total);
    if (rc != MIAI_OK) {
        pn_free_data(d);
        free(g);
        return rc;
    }
    uint32_t most = 1;
    for (uint32_t r = 0; r < d->n_roles; r++)
        if (d->n_moves[r] > most) most = d->n_moves[r];
    g->ops = &pn_ops;
    g->data = d;
    g->facts = (miai_game_facts){
        .n_roles = d->n_roles,
        .state_size = (uint32_t)(sizeof(pn_state) +
                                 sizeof(uint64_t) * (d->base_words + d->legal_words +
                                                     d->goal_words)),
        .num_moves = most,
        .max_legal = most,
        .max_plies = desc->max_plies,
        .simultaneous = d->n_roles > 1,
    };
    snprintf(g->name, MIAI_NAME_LEN, "%s", desc->name ? desc->name : "gdl");
    rc = pn_engines_calibrate(g);
    if (rc != MIAI_OK) {
        pn_destroy(g);
        free(g);
        return rc;
    }
    *out = g;
    return MIAI_OK;
}

int miai_gdl_state_bases(const miai_game *g, const void *state, uint8_t *out, uint32_t cap) {
    if (!g || !state || !out || g->ops != &pn_ops) return MIAI_EINVAL;
    const pn_data *d = g->data;
    if (cap < d->n_base) return MIAI_EINVAL;
    const pn_state *s = state;
    for (uint32_t b = 0; b < d->n_base; b++) out[b] = (uint8_t)pn_bit(s->bits, b);
    return MIAI_OK;
}

int miai_gdl_state_legal_all(const miai_game *g, const void *state, uint32_t role,
                             miai_move *out, uint32_t cap, uint32_t *n) {
    if (!g || !state || !out || !n || g->ops != &pn_ops) return MIAI_EINVAL;
    const pn_data *d = g->data;
    if (role >= d->n_roles || cap < d->n_moves[role]) return MIAI_EINVAL;
    const pn_state *s = state;
    *n = pn_legal_bits(d, s->bits + d->base_words, role, out);
    return MIAI_OK;
}
