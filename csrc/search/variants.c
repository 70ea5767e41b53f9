/* variants.c -- the inspection entries of variants_api.h. */
#include "variants_api.h"

#include "algos.h"
#include "ucb.h"

bool miai_ucd_recursion(miai_policy *p, bool on);
bool miai_ucd_role_sums(const miai_policy *p, const miai_search *s, uint32_t node,
                        double *out, uint64_t cap);

int miai_variant_edge_role_sums(miai_search *s, uint32_t node, double *out, uint32_t cap,
                                uint32_t *n) {
    if (!s || !out || !n || node >= s->dag.n_nodes) return MIAI_EINVAL;
    if (s->policy.cfg.algorithm != MIAI_ALG_UCD ||
        !miai_ucd_role_sums(&s->policy, s, node, out, cap))
        return MIAI_EINVAL;
    *n = s->dag.nodes[node].n_edges;
    return MIAI_OK;
}

int miai_variant_edge_terms(miai_search *s, uint32_t node, int recompute, double *out,
                            uint32_t cap, uint32_t *n) {
    if (!s || !out || !n || node >= s->dag.n_nodes) return MIAI_EINVAL;
    const miai_node *x = &s->dag.nodes[node];
    if (x->to_move == MIAI_SIMULTANEOUS || (uint64_t)cap < 4ull * x->n_edges)
        return MIAI_EINVAL;
    miai_policy *p = &s->policy;
    switch (p->cfg.algorithm) {
    case MIAI_ALG_UCD: {
        bool was = miai_ucd_recursion(p, recompute != 0);
        miai_ucd_terms(p, s, node, out);
        miai_ucd_recursion(p, was);
        break;
    }
    case MIAI_ALG_AUCT:
        miai_auct_terms(p, s, node, out);
        break;
    case MIAI_ALG_DUCT:
        miai_duct_terms(p, s, node, out);
        break;
    case MIAI_ALG_UCTSTAR:
        miai_uctstar_terms(p, s, node, out);
        break;
    default:
        return MIAI_EINVAL;
    }
    *n = x->n_edges;
    return MIAI_OK;
}

int miai_variant_root_proven(const miai_search *s, int32_t *out) {
    if (!s || !out) return MIAI_EINVAL;
    uint32_t alg = s->policy.cfg.algorithm;
    bool mine = alg == MIAI_ALG_UCD || alg == MIAI_ALG_AUCT || alg == MIAI_ALG_DUCT ||
                alg == MIAI_ALG_UCTSTAR;
    *out = mine && miai_solver_on(&s->policy) ? miai_solver_root(s) : 0;
    return MIAI_OK;
}

int miai_variant_prune_root(miai_search *s, uint32_t *left) {
    if (!s || !left || s->policy.cfg.algorithm != MIAI_ALG_UCTSTAR) return MIAI_EINVAL;
    int32_t tm = s->dag.nodes[s->dag.root].to_move;
    if (tm == MIAI_NOBODY || tm == MIAI_SIMULTANEOUS) return MIAI_ESTATE;
    miai_uctstar_prune_root(&s->policy, s, left);
    return MIAI_OK;
}

double miai_ucb_value_of(double c, uint64_t parent, double sum, uint32_t n) {
    if (n == 0) return INFINITY;
    miai_ucb_table t;
    miai_ucb_table_init(&t);
    return miai_ucb_value_sum(sum, miai_ucb_count_of(&t, n), miai_ucb_factor(&t, c, parent));
}

int miai_ucb_argmax_of(const double *values, uint32_t n, uint64_t seed, uint32_t rounds,
                       uint32_t *out) {
    if (!values || !out || n == 0) return MIAI_EINVAL;
    miai_rng rng;
    miai_rng_seed(&rng, seed);
    for (uint32_t r = 0; r < rounds; r++) {
        miai_argmax best;
        miai_argmax_init(&best, 0);
        for (uint32_t i = 0; i < n; i++) miai_argmax_offer(&best, &rng, i, values[i]);
        out[r] = best.chosen;
    }
    return MIAI_OK;
}
