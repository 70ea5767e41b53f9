/* test_variants.c -- the papers' policies (UCD, AUCT, DUCT, UCT*, MCTS*, MCTS-Solver)
 * under the sanitizers: searches in tree and DAG mode with a small node budget (so the
 * budget-full paths run), re-rooting with advance, the inspection API and bad input. */
#include <math.h>
#include <string.h>

#include "ctest.h"
#include "search_cases.h"

static const variant VARIANTS[] = {
    {MIAI_ALG_UCD, {-1, -1, -1, MIAI_UCD_INCREMENTAL, 0, 0, 0, 1}},
    {MIAI_ALG_UCD, {-1, -1, -1, MIAI_UCD_ALL}},
    {MIAI_ALG_UCD, {2, 1, 0, MIAI_UCD_DESCENT}},
    {MIAI_ALG_UCD, {0, 1, 2, MIAI_UCD_INCREMENTAL}},
    {MIAI_ALG_UCD, {1, 0, 1, MIAI_UCD_INCREMENTAL, MIAI_UCD_PRIME_NODE}},
    {MIAI_ALG_UCD, {-1, 2, 1, MIAI_UCD_ALL, MIAI_UCD_PRIME_NODE, 0, 0, 1}},
    {MIAI_ALG_UCD, {-1, 1, -1, MIAI_UCD_DESCENT, MIAI_UCD_PRIME_NODE}},
    {MIAI_ALG_UCD, {-1, 1, 2, MIAI_UCD_INCREMENTAL, MIAI_UCD_PRIME_NODE, MIAI_UCD_PAYOFFS_GENERAL}},
    {MIAI_ALG_UCD, {1, 0, 1, MIAI_UCD_ALL, 0, MIAI_UCD_PAYOFFS_GENERAL, 0, 1}},
    {MIAI_ALG_UCD, {2, 1, -1, MIAI_UCD_DESCENT, MIAI_UCD_PRIME_NODE, MIAI_UCD_PAYOFFS_GENERAL}},
    {MIAI_ALG_AUCT, {0.9, 0, 0, 0, 0, 0, 0, 1}},
    {MIAI_ALG_DUCT, {0.99}},
    {MIAI_ALG_UCTSTAR, {0.1, 10, 0, 1, 0, 0, 0, 1}},
    {MIAI_ALG_UCTSTAR, {0.1, 10, 1, 2, 0}},
    {MIAI_ALG_UCTSTAR, {0.3, 5, 0, 1, 1}},
};

static void run_variant(miai_game *g, const variant *v, uint32_t mode, uint32_t max_nodes,
                        uint64_t iterations) {
    miai_game_facts f;
    miai_game_get_facts(g, &f);
    uint8_t *state = malloc(f.state_size);
    miai_state_init(g, state);
    miai_search_config cfg = {.algorithm = v->algorithm, .mode = mode,
                              .final_choice = MIAI_FINAL_VISITS, .max_nodes = max_nodes,
                              .seed = 7, .c = 0.6};
    memcpy(cfg.params, v->params, sizeof cfg.params);
    miai_search *s = NULL;
    CHECK(miai_search_create(g, state, &cfg, &s) == MIAI_OK);
    if (!s) {
        free(state);
        return;
    }
    for (int move = 0; move < 3; move++) {
        uint64_t done = 0;
        CHECK(miai_search_run(s, iterations, 0, &done) == MIAI_OK);
        miai_search_clear_stop(s);
        miai_search_info info;
        CHECK(miai_search_get_info(s, &info) == MIAI_OK);
        CHECK(info.nodes <= max_nodes);
        double terms[4 * 64];
        uint32_t n = 0;
        for (uint32_t k = 0; k < info.nodes; k++) {
            if (miai_variant_edge_terms(s, k, k & 1, terms, 4 * 64, &n) != MIAI_OK) continue;
            for (uint32_t i = 0; i < n; i++) CHECK(!isnan(terms[4 * i + 3]));
            double sums[4 * 64]; /* UCD's per-role totals, where kept */
            if (miai_variant_edge_role_sums(s, k, sums, 4 * 64, &n) == MIAI_OK)
                for (uint32_t i = 0; i < 2 * f.n_roles * n; i++) CHECK(!isnan(sums[i]));
        }
        int32_t proof = 0;
        CHECK(miai_variant_root_proven(s, &proof) == MIAI_OK);
        uint32_t best = 0;
        if (miai_search_best(s, 0, &best) != MIAI_OK) break;
        miai_edge_stats e[64];
        CHECK(miai_search_root_edges(s, e, 64, &n) == MIAI_OK);
        miai_move m = e[best].move;
        if (miai_search_advance(s, &m, 1) != MIAI_OK) break;
        int32_t tm = 0;
        miai_search_root_state(s, state, f.state_size);
        miai_state_to_move(g, state, &tm);
        if (tm == MIAI_NOBODY) break;
    }
    miai_search_free(s);
    free(state);
}

/* Each of vs[0 .. n) in tree and DAG mode, with a roomy node budget (`roomy`
 * iterations a move) and a full one (`full`). */
static void run_each(miai_game *g, const variant *vs, size_t n, uint64_t roomy,
                     uint64_t full) {
    for (size_t v = 0; v < n; v++)
        for (uint32_t mode = 0; mode < 2; mode++) {
            run_variant(g, &vs[v], mode, 100000, roomy);
            run_variant(g, &vs[v], mode, 40, full);
        }
}

static void every_variant_runs_rerooted_and_budget_full(void) {
    const char *names[] = {"tictactoe", "connect4", "leftright"};
    for (int gi = 0; gi < 3; gi++) {
        miai_game *g = make(names[gi]);
        CHECK(g != NULL);
        if (!g) continue;
        run_each(g, VARIANTS, sizeof VARIANTS / sizeof VARIANTS[0], 300, 300);
        miai_game_free(g);
    }
}

/* DUCT deep into a search: its table of eq. (2)'s factor grows past 1024 visits
 * (lambda close to 1) or stops at s^D's fixed point, its per-edge terms move with a
 * reroot, with the node budget roomy or full. */
static void duct_long_searches(void) {
    const variant duct[] = {{MIAI_ALG_DUCT, {0.9999}}, {MIAI_ALG_DUCT, {0.999}},
                            {MIAI_ALG_DUCT, {0.9}}};
    miai_game *g = make("connect4");
    CHECK(g != NULL);
    if (!g) return;
    run_each(g, duct, sizeof duct / sizeof duct[0], 5000, 3000);
    miai_game_free(g);
}

static void bad_input_is_refused(void) {
    miai_game *g = make("tictactoe");
    miai_game_facts f;
    miai_game_get_facts(g, &f);
    uint8_t *state = malloc(f.state_size);
    miai_state_init(g, state);
    miai_search_config cfg = {.algorithm = MIAI_ALG_UCD, .mode = MIAI_MODE_DAG,
                              .max_nodes = 1000, .c = 0.5};
    miai_search *s = NULL;
    cfg.params[MIAI_P_UCD_BACKUP] = 7;
    CHECK(miai_search_create(g, state, &cfg, &s) == MIAI_EINVAL);
    cfg.params[MIAI_P_UCD_BACKUP] = 0;
    cfg.params[MIAI_P_UCD_PRIME] = 2;
    CHECK(miai_search_create(g, state, &cfg, &s) == MIAI_EINVAL);
    cfg.params[MIAI_P_UCD_PRIME] = 0;
    cfg.params[MIAI_P_UCD_PAYOFFS] = 2;
    CHECK(miai_search_create(g, state, &cfg, &s) == MIAI_EINVAL);
    cfg.params[MIAI_P_UCD_PAYOFFS] = 0;
    cfg.algorithm = MIAI_ALG_AUCT;
    cfg.params[MIAI_P_LAMBDA] = 0;
    CHECK(miai_search_create(g, state, &cfg, &s) == MIAI_EINVAL);
    cfg.params[MIAI_P_LAMBDA] = 1.5;
    CHECK(miai_search_create(g, state, &cfg, &s) == MIAI_EINVAL);
    cfg.algorithm = MIAI_ALG_UCTSTAR;
    cfg.params[MIAI_P_STAR_STEP] = 0;
    CHECK(miai_search_create(g, state, &cfg, &s) == MIAI_EINVAL);
    cfg.params[MIAI_P_STAR_STEP] = 1;
    cfg.params[MIAI_P_STAR_LEVELS] = 3;
    CHECK(miai_search_create(g, state, &cfg, &s) == MIAI_EINVAL);
    cfg.params[MIAI_P_STAR_LEVELS] = 0;
    cfg.algorithm = MIAI_ALG_UCT;
    CHECK(miai_search_create(g, state, &cfg, &s) == MIAI_OK);
    double out[64];
    uint32_t n = 0, left = 0;
    int32_t proof = 0;
    CHECK(miai_variant_edge_terms(s, 0, 0, out, 64, &n) == MIAI_EINVAL); /* plain UCT */
    CHECK(miai_variant_prune_root(s, &left) == MIAI_EINVAL);
    CHECK(miai_variant_root_proven(s, &proof) == MIAI_OK && proof == 0);
    CHECK(miai_variant_edge_terms(NULL, 0, 0, out, 64, &n) == MIAI_EINVAL);
    CHECK(miai_variant_root_proven(NULL, &proof) == MIAI_EINVAL);
    miai_search_free(s);
    cfg.algorithm = MIAI_ALG_UCD;
    CHECK(miai_search_create(g, state, &cfg, &s) == MIAI_OK);
    CHECK(miai_variant_edge_terms(s, 5000, 0, out, 64, &n) == MIAI_EINVAL); /* no node */
    CHECK(miai_variant_edge_terms(s, 0, 0, out, 8, &n) == MIAI_EINVAL);     /* cap short */
    CHECK(miai_variant_edge_terms(s, 0, 0, NULL, 64, &n) == MIAI_EINVAL);
    CHECK(miai_variant_edge_terms(s, 0, 0, out, 64, &n) == MIAI_OK && n == 9);
    miai_search_free(s);
    free(state);
    miai_game_free(g);
}

int main(void) {
    const ctest_case cases[] = {
        {"every_variant_runs_rerooted_and_budget_full",
         every_variant_runs_rerooted_and_budget_full},
        {"duct_long_searches", duct_long_searches},
        {"bad_input_is_refused", bad_input_is_refused},
    };
    return ctest_run(cases, 3);
}
