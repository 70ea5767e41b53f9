/* variants.c -- the inspection entries of variants_api.h. */
#include "variants_api.h"

#include "algos.h"

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
