/* test_propnet_families.c -- mutex families in the differential engine under the
 * sanitizers: a hand-built score game whose moves reach an AND per score, followed
 * through groups (a base family and a gate family), its playouts checked ply by ply
 * against the plain play; malformed families refused; a family that is not one
 * (planted) caught by the check mode while playouts still give the plain results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../gdl/gdl_api.h"
#include "ctest.h"
#include "gdl_cases.h"

/* Role 0 plays a or b, role 1 plays x or y, at once.  Bases (score 0..K-1) and (flag),
 * init (score 0).  a with x raises the score, anything else keeps it; terminal at
 * score K-1, where role 0 gets 100.  Gates: G_i = score_i AND a, P_i = G_i AND x,
 * Q_i = score_i AND y, R_i = score_i AND b; next (score i) = P_{i-1} OR Q_i OR R_i;
 * next (flag) = true.  a, y and b each reach an AND per score (guarded by the score
 * family), x one per G_i (guarded by the gate family G). */
enum { K = 32 };
enum {
    BASE0 = 2,
    FLAG = BASE0 + K,
    IN_A = FLAG + 1,
    IN_B,
    IN_X,
    IN_Y,
    G0,
    P0 = G0 + K - 1,
    Q0 = P0 + K - 1,
    R0 = Q0 + K,
    OR0 = R0 + K,
    N = OR0 + K
};

typedef struct {
    uint8_t kind[N];
    uint32_t arg[N], first[N + 1], in[2 * N], next[K + 1];
    uint8_t init[K + 1];
    char texts[K + 1][16];
    const char *base_text[K + 1];
    uint32_t fam_first[2], fam_base[K + 1], gate_first[2], gate_node[K];
} scores;

static const char *const MOVE_TEXT[4] = {"a", "b", "x", "y"};
static const uint32_t N_MOVES[2] = {2, 2}, LEGAL[4] = {1, 1, 1, 1};
static const uint32_t GOAL_ROLE[2] = {0, 1}, GOAL_VALUE[2] = {100, 50},
                      GOAL_NODE[2] = {BASE0 + K - 1, 1};

static miai_gdl_desc scores_desc(scores *t) {
    uint32_t e = 0;
    memset(t->arg, 0, sizeof t->arg);
    for (uint32_t i = 0; i < N; i++) {
        t->first[i] = e;
        if (i < BASE0) {
            t->kind[i] = i == 0 ? MIAI_PN_FALSE : MIAI_PN_TRUE;
        } else if (i < IN_A) {
            t->kind[i] = MIAI_PN_BASE;
            t->arg[i] = i - BASE0;
        } else if (i < G0) {
            t->kind[i] = MIAI_PN_INPUT;
            t->arg[i] = i - IN_A;
        } else if (i < P0) {
            t->kind[i] = MIAI_PN_AND;
            t->in[e++] = BASE0 + (i - G0);
            t->in[e++] = IN_A;
        } else if (i < Q0) {
            t->kind[i] = MIAI_PN_AND;
            t->in[e++] = G0 + (i - P0);
            t->in[e++] = IN_X;
        } else if (i < R0) {
            t->kind[i] = MIAI_PN_AND;
            t->in[e++] = BASE0 + (i - Q0);
            t->in[e++] = IN_Y;
        } else if (i < OR0) {
            t->kind[i] = MIAI_PN_AND;
            t->in[e++] = BASE0 + (i - R0);
            t->in[e++] = IN_B;
        } else {
            uint32_t k = i - OR0;
            t->kind[i] = MIAI_PN_OR;
            if (k > 0) t->in[e++] = P0 + k - 1;
            t->in[e++] = Q0 + k;
            t->in[e++] = R0 + k;
        }
    }
    t->first[N] = e;
    for (uint32_t k = 0; k < K; k++) t->next[k] = OR0 + k;
    t->next[K] = 1; /* (flag) holds from the first ply on */
    memset(t->init, 0, sizeof t->init);
    t->init[0] = 1;
    for (uint32_t k = 0; k <= K; k++) {
        if (k < K)
            snprintf(t->texts[k], sizeof t->texts[k], "(score %u)", k);
        else
            snprintf(t->texts[k], sizeof t->texts[k], "(flag)");
        t->base_text[k] = t->texts[k];
    }
    t->fam_first[0] = 0;
    t->fam_first[1] = K;
    for (uint32_t k = 0; k < K; k++) t->fam_base[k] = k;
    t->gate_first[0] = 0;
    t->gate_first[1] = K - 1;
    for (uint32_t k = 0; k < K - 1; k++) t->gate_node[k] = G0 + k;
    miai_gdl_desc d = {
        .n_nodes = N, .kind = t->kind, .arg = t->arg, .first_in = t->first, .in = t->in,
        .n_base = K + 1, .next_node = t->next, .init = t->init, .base_text = t->base_text,
        .n_roles = 2, .n_moves = N_MOVES, .legal_node = LEGAL, .move_text = MOVE_TEXT,
        .terminal_node = BASE0 + K - 1, .n_goals = 2, .goal_role = GOAL_ROLE,
        .goal_value = GOAL_VALUE, .goal_node = GOAL_NODE,
        .n_families = 1, .family_first = t->fam_first, .family_base = t->fam_base,
        .n_gate_families = 1, .gate_family_first = t->gate_first,
        .gate_family_node = t->gate_node, .max_plies = 400, .seed = 3, .name = "scores"};
    return d;
}

/* The game follows want_groups groups over want_guarded ANDs, and `seeds` playouts
 * from s each way of a ply agree with the plain play ply by ply. */
static void followed_and_checked(miai_game *g, const uint8_t *s, uint32_t want_groups,
                                 uint32_t want_guarded, uint64_t seeds) {
    uint32_t groups = 0, guarded = 0, len = 0;
    CHECK(miai_gdl_family_stats(g, &groups, &guarded) == MIAI_OK);
    CHECK(groups == want_groups && guarded == want_guarded);
    for (uint64_t seed = 0; seed < seeds; seed++) {
        CHECK(miai_gdl_playout_check(g, s, seed, MIAI_GDL_ENGINE_DIFF, &len) == MIAI_OK);
        CHECK(miai_gdl_playout_check(g, s, seed, MIAI_GDL_ENGINE_DIFF_CLEAR, &len) ==
              MIAI_OK);
    }
}

static void scores_follow_their_families(void) {
    scores t;
    miai_gdl_desc d = scores_desc(&t);
    uint8_t *s = NULL;
    miai_game *g = game_with_initial_state(&d, &s);
    if (!g) return;
    uint32_t groups = 0, guarded = 0, len = 0;
    followed_and_checked(g, s, 4, 4 * K - 2, 30); /* a, b, y by scores; x by G */
    /* from a state far from the initial one: up to score 20, then playouts and play */
    miai_move up[2] = {0, 0}, keep[2] = {1, 1};
    for (int k = 0; k < 20; k++) CHECK(miai_state_play_joint(g, s, up, 2) == MIAI_OK);
    uint8_t bases[K + 1];
    CHECK(miai_gdl_state_bases(g, s, bases, K + 1) == MIAI_OK);
    CHECK(bases[20] == 1 && bases[19] == 0 && bases[K] == 1);
    CHECK(miai_state_play_joint(g, s, keep, 2) == MIAI_OK);
    CHECK(miai_state_check(g, s) == MIAI_OK);
    for (uint64_t seed = 0; seed < 10; seed++)
        CHECK(miai_gdl_playout_check(g, s, seed, MIAI_GDL_ENGINE_DIFF, &len) == MIAI_OK);
    CHECK(miai_gdl_family_stats(NULL, &groups, &guarded) == MIAI_EINVAL);
    free(s);
    miai_game_free(g);
}

static void a_member_without_a_node_is_not_followed(void) {
    /* (flag) in the score family, but no node reads it (its BASE node made FALSE):
     * it holds with a score from the first ply on, and the engine, which cannot see
     * it, follows the scores alone */
    scores t;
    miai_gdl_desc d = scores_desc(&t);
    t.kind[FLAG] = MIAI_PN_FALSE;
    t.fam_first[1] = K + 1;
    t.fam_base[K] = K;
    uint8_t *s = NULL;
    miai_game *g = game_with_initial_state(&d, &s);
    if (!g) return;
    uint32_t len = 0, groups = 0, guarded = 0;
    CHECK(miai_gdl_family_stats(g, &groups, &guarded) == MIAI_OK && groups == 4);
    for (uint64_t seed = 0; seed < 10; seed++)
        CHECK(miai_gdl_playout_check(g, s, seed, MIAI_GDL_ENGINE_DIFF, &len) == MIAI_OK);
    free(s);
    miai_game_free(g);
}

static int refused(miai_gdl_desc *d) {
    miai_game *g = NULL;
    int rc = miai_gdl_create(d, &g);
    if (g) miai_game_free(g);
    return rc == MIAI_EINVAL && g == NULL;
}

static void malformed_families_refused(void) {
    scores t;
    miai_gdl_desc d = scores_desc(&t);
    t.fam_base[3] = K + 1; /* out of range */
    CHECK(refused(&d));
    d = scores_desc(&t);
    t.fam_base[3] = 2; /* twice */
    CHECK(refused(&d));
    d = scores_desc(&t);
    t.fam_first[1] = 1; /* one member */
    CHECK(refused(&d));
    d = scores_desc(&t);
    t.init[1] = 1; /* two members initially */
    CHECK(refused(&d));
    d = scores_desc(&t);
    d.family_base = NULL;
    CHECK(refused(&d));
    d = scores_desc(&t);
    d.n_families = K; /* more families than half the bases allow */
    CHECK(refused(&d));
    d = scores_desc(&t);
    t.gate_node[0] = BASE0; /* not a gate */
    CHECK(refused(&d));
    d = scores_desc(&t);
    t.gate_node[0] = N; /* out of range */
    CHECK(refused(&d));
    d = scores_desc(&t);
    t.gate_first[1] = K + 5; /* past the nodes given */
    d.n_gate_families = 0;   /* ... but unused: fine */
    miai_game *g = NULL;
    CHECK(miai_gdl_create(&d, &g) == MIAI_OK);
    miai_game_free(g);
}

static void a_planted_family_is_caught(void) {
    scores t, u;
    miai_gdl_desc d = scores_desc(&t), honest = scores_desc(&u);
    t.fam_first[1] = K + 1; /* (flag) too: it holds with a score from the first ply */
    t.fam_base[K] = K;
    uint8_t *s = NULL, *h = NULL;
    miai_game *g = game_with_initial_state(&d, &s), *gh = game_with_initial_state(&honest, &h);
    if (!g || !gh) return;
    uint32_t len = 0, groups = 0, guarded = 0;
    CHECK(miai_gdl_family_stats(g, &groups, &guarded) == MIAI_OK && groups > 0);
    CHECK(miai_gdl_playout_check(g, s, 1, MIAI_GDL_ENGINE_DIFF, &len) == MIAI_ECORRUPT);
    double m1[2], m2[2];
    uint64_t p1 = 0, p2 = 0;
    /* one by one: the engine that follows the families (a batch may take the lanes) */
    CHECK(miai_playouts_each(g, s, 200, 9, m1, 2, &p1) == MIAI_OK);
    CHECK(miai_playouts_each(gh, h, 200, 9, m2, 2, &p2) == MIAI_OK);
    CHECK(p1 == p2 && m1[0] == m2[0] && m1[1] == m2[1]);
    miai_move up[2] = {0, 0};
    CHECK(miai_state_play_joint(g, s, up, 2) == MIAI_OK); /* a broken state: plain play */
    CHECK(miai_state_play_joint(gh, h, up, 2) == MIAI_OK);
    CHECK(miai_state_check(g, s) == MIAI_OK);
    uint8_t b1[K + 1], b2[K + 1];
    CHECK(miai_gdl_state_bases(g, s, b1, K + 1) == MIAI_OK);
    CHECK(miai_gdl_state_bases(gh, h, b2, K + 1) == MIAI_OK);
    CHECK(memcmp(b1, b2, sizeof b1) == 0);
    /* from that state (two members hold): playouts and play by the plain evaluation */
    CHECK(miai_playouts_each(g, s, 100, 4, m1, 2, &p1) == MIAI_OK);
    CHECK(miai_playouts_each(gh, h, 100, 4, m2, 2, &p2) == MIAI_OK);
    CHECK(p1 == p2 && m1[0] == m2[0] && m1[1] == m2[1]);
    CHECK(miai_gdl_playout_check(g, s, 2, MIAI_GDL_ENGINE_DIFF, &len) == MIAI_ECORRUPT);
    CHECK(miai_state_play_joint(g, s, up, 2) == MIAI_OK);
    CHECK(miai_state_play_joint(gh, h, up, 2) == MIAI_OK);
    CHECK(miai_gdl_state_bases(g, s, b1, K + 1) == MIAI_OK);
    CHECK(miai_gdl_state_bases(gh, h, b2, K + 1) == MIAI_OK);
    CHECK(memcmp(b1, b2, sizeof b1) == 0 && b1[2] == 1);
    free(s);
    free(h);
    miai_game_free(g);
    miai_game_free(gh);
}

/* The guard picked by the groups it makes.  One role plays up or stay; a counter
 * (a 0..KA-1, family A) goes up with up; a toggle (b 0..KA, family B, bigger: only
 * b 0 and b 1 ever hold, by turns) flips every ply; (seen) holds after a ply where
 * some T_i = a_i AND b_0 held.  By family size b_0 would guard every T_i, a_i's edge
 * into it alone (no group), and b_0's change would step KA ANDs every ply; picked by
 * the groups, a_i guards T_i and b_0's edges form a group over A: one AND a change. */
enum { KA = 24 };
enum {
    A0 = 2,
    B0 = A0 + KA,
    SEEN = B0 + KA + 1,
    UP = SEEN + 1,
    STAY,
    T0,
    U0 = T0 + KA,
    V0 = U0 + KA - 1,
    NA0 = V0 + KA,
    NSEEN = NA0 + KA,
    NT = NSEEN + 1
};

typedef struct {
    uint8_t kind[NT];
    uint32_t arg[NT], first[NT + 1], in[3 * NT], next[2 * KA + 2];
    uint8_t init[2 * KA + 2];
    char texts[2 * KA + 2][16];
    const char *base_text[2 * KA + 2];
    uint32_t fam_first[3], fam_base[2 * KA + 1];
} toggles;

static const char *const TOGGLE_MOVES[2] = {"up", "stay"};
static const uint32_t TOGGLE_N_MOVES[1] = {2}, TOGGLE_LEGAL[2] = {1, 1};
static const uint32_t TOGGLE_GOAL_ROLE[1] = {0}, TOGGLE_GOAL_VALUE[1] = {100},
                      TOGGLE_GOAL_NODE[1] = {SEEN};

static miai_gdl_desc toggles_desc(toggles *t) {
    uint32_t e = 0, nb = 2 * KA + 2; /* bases: a 0..KA-1, b 0..KA, seen */
    memset(t->arg, 0, sizeof t->arg);
    for (uint32_t i = 0; i < NT; i++) {
        t->first[i] = e;
        if (i < A0) {
            t->kind[i] = i == 0 ? MIAI_PN_FALSE : MIAI_PN_TRUE;
        } else if (i < UP) {
            t->kind[i] = MIAI_PN_BASE;
            t->arg[i] = i - A0;
        } else if (i < T0) {
            t->kind[i] = MIAI_PN_INPUT;
            t->arg[i] = i - UP;
        } else if (i < U0) { /* T_i = a_i AND b_0 */
            t->kind[i] = MIAI_PN_AND;
            t->in[e++] = A0 + (i - T0);
            t->in[e++] = B0;
        } else if (i < V0) { /* U_i = a_i AND up */
            t->kind[i] = MIAI_PN_AND;
            t->in[e++] = A0 + (i - U0);
            t->in[e++] = UP;
        } else if (i < NA0) { /* V_i = a_i AND stay */
            t->kind[i] = MIAI_PN_AND;
            t->in[e++] = A0 + (i - V0);
            t->in[e++] = STAY;
        } else if (i < NSEEN) { /* next (a i) = U_{i-1} OR V_i */
            uint32_t k = i - NA0;
            t->kind[i] = MIAI_PN_OR;
            if (k > 0) t->in[e++] = U0 + k - 1;
            t->in[e++] = V0 + k;
        } else { /* next (seen) = OR of the T_i */
            t->kind[i] = MIAI_PN_OR;
            for (uint32_t k = 0; k < KA; k++) t->in[e++] = T0 + k;
        }
    }
    t->first[NT] = e;
    for (uint32_t k = 0; k < KA; k++) t->next[k] = NA0 + k;
    for (uint32_t k = 0; k <= KA; k++) t->next[KA + k] = 0; /* b k for k >= 2: never */
    t->next[KA] = B0 + 1;                                   /* b 0 next after b 1 */
    t->next[KA + 1] = B0;
    t->next[2 * KA + 1] = NSEEN;
    memset(t->init, 0, sizeof t->init);
    t->init[0] = t->init[KA] = 1; /* a 0, b 0 */
    for (uint32_t k = 0; k < nb; k++) {
        if (k < KA)
            snprintf(t->texts[k], sizeof t->texts[k], "(a %u)", k);
        else if (k < 2 * KA + 1)
            snprintf(t->texts[k], sizeof t->texts[k], "(b %u)", k - KA);
        else
            snprintf(t->texts[k], sizeof t->texts[k], "(seen)");
        t->base_text[k] = t->texts[k];
    }
    t->fam_first[0] = 0;
    t->fam_first[1] = KA;
    t->fam_first[2] = 2 * KA + 1;
    for (uint32_t k = 0; k < 2 * KA + 1; k++) t->fam_base[k] = k;
    miai_gdl_desc d = {
        .n_nodes = NT, .kind = t->kind, .arg = t->arg, .first_in = t->first, .in = t->in,
        .n_base = nb, .next_node = t->next, .init = t->init, .base_text = t->base_text,
        .n_roles = 1, .n_moves = TOGGLE_N_MOVES, .legal_node = TOGGLE_LEGAL,
        .move_text = TOGGLE_MOVES, .terminal_node = A0 + KA - 1, .n_goals = 1,
        .goal_role = TOGGLE_GOAL_ROLE, .goal_value = TOGGLE_GOAL_VALUE,
        .goal_node = TOGGLE_GOAL_NODE, .n_families = 2, .family_first = t->fam_first,
        .family_base = t->fam_base, .max_plies = 400, .seed = 5, .name = "toggles"};
    return d;
}

static void a_guard_is_picked_by_its_groups(void) {
    toggles t;
    miai_gdl_desc d = toggles_desc(&t);
    uint8_t *s = NULL;
    miai_game *g = game_with_initial_state(&d, &s);
    if (!g) return;
    /* up, stay and b_0, each over A; T_i, U_i, V_i guarded by a_i */
    followed_and_checked(g, s, 3, 3 * KA - 1, 20);
    free(s);
    miai_game_free(g);
}

/* A batch on one work block (pn_diff_playouts) equals the same playouts one by one,
 * each starting from where the last ended (restart 1) or by the op's own rule, from
 * the initial state and from one a few plies on. */
static void a_kept_block_plays_the_same_playouts(void) {
    scores t;
    miai_gdl_desc d = scores_desc(&t);
    uint8_t *s = NULL;
    miai_game *g = game_with_initial_state(&d, &s);
    if (!g) return;
    for (int from = 0; from < 2; from++) {
        double want[2], sum[2];
        uint64_t want_plies = 0, plies = 0;
        CHECK(miai_playouts_each(g, s, 25, 11, want, 2, &want_plies) == MIAI_OK);
        for (int restart = 0; restart < 2; restart++) {
            CHECK(miai_gdl_diff_playouts(g, s, 25, 11, restart, sum, 2, &plies) == MIAI_OK);
            CHECK(plies == want_plies && sum[0] == 25 * want[0] && sum[1] == 25 * want[1]);
        }
        miai_move up[2] = {0, 0};
        for (int k = 0; k < 5; k++) CHECK(miai_state_play_joint(g, s, up, 2) == MIAI_OK);
    }
    double sum[2];
    uint64_t plies;
    CHECK(miai_gdl_diff_playouts(g, s, 25, 11, 2, sum, 2, &plies) == MIAI_EINVAL);
    CHECK(miai_gdl_diff_playouts(g, s, MIAI_GDL_BATCH_MAX + 1ull, 11, 0, sum, 2, &plies) ==
          MIAI_EINVAL);
    CHECK(miai_gdl_diff_playouts(g, s, 25, 11, 0, sum, 1, &plies) == MIAI_EINVAL);
    CHECK(miai_gdl_diff_playouts(NULL, s, 25, 11, 0, sum, 2, &plies) == MIAI_EINVAL);
    free(s);
    miai_game_free(g);
}

int main(void) {
    const ctest_case cases[] = {
        {"scores_follow_their_families", scores_follow_their_families},
        {"malformed_families_refused", malformed_families_refused},
        {"a_planted_family_is_caught", a_planted_family_is_caught},
        {"a_member_without_a_node_is_not_followed", a_member_without_a_node_is_not_followed},
        {"a_guard_is_picked_by_its_groups", a_guard_is_picked_by_its_groups},
        {"a_kept_block_plays_the_same_playouts", a_kept_block_plays_the_same_playouts},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
