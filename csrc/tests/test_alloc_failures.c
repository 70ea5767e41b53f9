/* test_alloc_failures.c -- searches whose allocations fail, under the sanitizers.
 *
 * link: -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc
 *
 * The harness (tests/core/test_c_sanitizers.py) links this program with the flags of the
 * `link:` line above, so every malloc, calloc and realloc of the core goes through the
 * wrappers below.  They fail on demand: the k-th allocation of a search only, or every
 * allocation from the k-th on.  For each algorithm and each k up to the number of
 * allocations a small search makes (two moves with a reroot between them; UCT, DUCT,
 * AUCT, UCD, UCT* on Connect Four and Hex, the Go bot's RAVE searches on Go), the search
 * must not crash, leak or read out of bounds (the sanitizers), and must either refuse
 * to start (MIAI_ENOMEM) or keep its promises: runs return, iteration counts add up,
 * the node budget holds, a best move exists. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "ctest.h"
#include "search_cases.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t m, size_t n);
void *__real_realloc(void *p, size_t n);

/* The test program's own state (not the core's): when to fail. */
static long alloc_count;     /* allocations since counting started */
static long alloc_fail_at;   /* fail the allocation with this count (-1: never) */
static bool alloc_fail_rest; /* ... and every later one */
static bool alloc_counting;

static bool alloc_should_fail(void) {
    if (!alloc_counting) return false;
    long k = alloc_count++;
    if (alloc_fail_at < 0) return false;
    return alloc_fail_rest ? k >= alloc_fail_at : k == alloc_fail_at;
}

void *__wrap_malloc(size_t n) { return alloc_should_fail() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t m, size_t n) {
    return alloc_should_fail() ? NULL : __real_calloc(m, n);
}
void *__wrap_realloc(void *p, size_t n) {
    return alloc_should_fail() ? NULL : __real_realloc(p, n);
}

#define MAX_NODES 3000u

/* One search of two moves with allocations failing as set; returns the number of
 * allocations it made. */
static long one_search(miai_game *g, const variant *v, uint32_t mode, long fail_at, bool rest) {
    miai_game_facts f;
    miai_game_get_facts(g, &f);
    static uint8_t state[1 << 16];
    CHECK(f.state_size <= sizeof state);
    if (f.state_size > sizeof state) return 0;
    miai_state_init(g, state);
    miai_search_config cfg = {.algorithm = v->algorithm, .mode = mode,
                              .final_choice = MIAI_FINAL_VISITS, .max_nodes = MAX_NODES,
                              .seed = 5, .c = 0.5};
    memcpy(cfg.params, v->params, sizeof cfg.params);
    alloc_count = 0;
    alloc_fail_at = fail_at;
    alloc_fail_rest = rest;
    alloc_counting = true;
    miai_search *s = NULL;
    int rc = miai_search_create(g, state, &cfg, &s);
    if (rc != MIAI_OK) {
        CHECK(rc == MIAI_ENOMEM && s == NULL);
        alloc_counting = false;
        return alloc_count;
    }
    for (int move = 0; move < 2; move++) {
        uint64_t done = 0;
        rc = miai_search_run(s, 500, 0, &done);
        CHECK(rc == MIAI_OK || rc == MIAI_ENOMEM);
        miai_search_clear_stop(s);
        miai_search_info info;
        CHECK(miai_search_get_info(s, &info) == MIAI_OK);
        CHECK(info.nodes <= MAX_NODES);
        uint32_t best = 0, n = 0;
        if (miai_search_best(s, 0, &best) != MIAI_OK) break;
        miai_edge_stats e[64];
        if (miai_search_root_edges(s, e, 64, &n) != MIAI_OK || best >= n) break;
        miai_move m = e[best].move;
        rc = miai_search_advance(s, &m, 1);
        CHECK(rc == MIAI_OK || rc == MIAI_ENOMEM);
        if (rc != MIAI_OK) break;
    }
    alloc_counting = false;
    miai_search_free(s);
    return alloc_count;
}

static const variant VARIANTS[] = {
    {MIAI_ALG_UCT, {0}},
    {MIAI_ALG_DUCT, {0.999}},
    {MIAI_ALG_AUCT, {0.9}},
    {MIAI_ALG_UCD, {-1, -1, -1, MIAI_UCD_INCREMENTAL}}, /* (inf, inf, inf) */
    {MIAI_ALG_UCD, {0, 1, 2, MIAI_UCD_INCREMENTAL}},    /* depth 2 through depth 1 */
    {MIAI_ALG_UCTSTAR, {0.5, 20}},
};

/* The Go bot's searches (rave.c): RAVE with priors and territory counts, and with the
 * accelerated ratio. */
static const variant GO_VARIANTS[] = {
    {MIAI_ALG_RAVE, {0.9, 20000, 10, 1, 1, 1}},
    {MIAI_ALG_AUCT_RAVE, {0.9, 20000, 10, 1, 1, 1, 0.99}},
};

static void sweep(miai_game *g, const variant *v) {
    for (uint32_t mode = 0; mode < 2; mode++) {
        long total = one_search(g, v, mode, -1, false);
        CHECK(total > 0);
        long step = total > 40 ? total / 40 : 1;
        for (long k = 0; k < total; k += step) {
            one_search(g, v, mode, k, false);
            one_search(g, v, mode, k, true);
        }
    }
}

/* Every allocation of each search failing in turn (once, then from there on). */
static void searches_survive_failed_allocations(void) {
    const char *names[] = {"connect4", "hex"};
    for (int gi = 0; gi < 2; gi++) {
        miai_game *g = make(names[gi]);
        CHECK(g != NULL);
        if (!g) continue;
        for (size_t v = 0; v < sizeof VARIANTS / sizeof VARIANTS[0]; v++) sweep(g, &VARIANTS[v]);
        miai_game_free(g);
    }
    miai_game *go = make("go");
    CHECK(go != NULL);
    if (!go) return;
    for (size_t v = 0; v < sizeof GO_VARIANTS / sizeof GO_VARIANTS[0]; v++)
        sweep(go, &GO_VARIANTS[v]);
    miai_game_free(go);
}

int main(void) {
    const ctest_case cases[] = {
        {"searches_survive_failed_allocations", searches_survive_failed_allocations},
    };
    return ctest_run(cases, 1);
}
