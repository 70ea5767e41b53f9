/* policies.c -- every selection/backup policy, by algorithm id.  Add an algorithm:
 * one MIAI_ALG_* id in search_api.h, one extern and one line in the table here. */
#include "policy.h"

extern const miai_policy_ops miai_uct_policy;
extern const miai_policy_ops miai_ucd_policy;
extern const miai_policy_ops miai_auct_policy;
extern const miai_policy_ops miai_duct_policy;
extern const miai_policy_ops miai_uctstar_policy;
extern const miai_policy_ops miai_rave_policy;
extern const miai_policy_ops miai_auct_rave_policy;

static const miai_policy_ops *const miai_policies[MIAI_ALG_COUNT] = {
    [MIAI_ALG_UCT] = &miai_uct_policy,
    [MIAI_ALG_UCD] = &miai_ucd_policy,
    [MIAI_ALG_AUCT] = &miai_auct_policy,
    [MIAI_ALG_DUCT] = &miai_duct_policy,
    [MIAI_ALG_UCTSTAR] = &miai_uctstar_policy,
    [MIAI_ALG_RAVE] = &miai_rave_policy,
    [MIAI_ALG_AUCT_RAVE] = &miai_auct_rave_policy,
};

const miai_policy_ops *miai_policy_for(uint32_t algorithm) {
    return algorithm < MIAI_ALG_COUNT ? miai_policies[algorithm] : NULL;
}
