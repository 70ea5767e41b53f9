/* test_hexhav_playouts.c -- the fast playout ops of Hex and Havannah against the slow
 * ways to the same result.
 *   - Hex without a trace fills the board and names the winner by one flood fill; with
 *     a trace it plays move by move to the first connection.  Both draw the same cells
 *     in the same order, so the same seed must give the same winner, seed by seed.
 *   - Havannah's playout leaves the same bytes with a trace or without.
 *   - Both games' playouts (no trace) against the generic playout (ops->legal and
 *     ops->play every ply, a move drawn from the sorted legal list): outcome frequencies
 *     and, where both play move by move, the game length agree within five standard
 *     errors.  The seeds are fixed, so the test is deterministic; a biased draw or a
 *     wrong early end shows up as a difference of many standard errors.
 *   - Each move of a playout is uniform among the empty cells (rank statistics).
 * MIAI_FULL=1 runs ten times more playouts. */
#include <math.h>
#include <string.h>

#include "../core/game.h"
#include "ctest.h"

static miai_game *make(const char *name, int size) {
    double p = size;
    miai_game *g = NULL;
    if (miai_game_create(name, &p, 1, &g) != MIAI_OK) return NULL;
    return g;
}

static uint32_t scale(void) {
    const char *full = getenv("MIAI_FULL");
    return full && full[0] == '1' ? 10 : 1;
}

/* A position `plies` random moves into the game (or the end, if that comes first). */
static void random_start(miai_game *g, void *s, miai_rng *rng, uint32_t plies) {
    miai_game_facts f;
    miai_game_get_facts(g, &f);
    miai_move *moves = malloc(sizeof(miai_move) * f.max_legal);
    miai_state_init(g, s);
    for (uint32_t p = 0; p < plies; p++) {
        int32_t tm;
        miai_state_to_move(g, s, &tm);
        if (tm == MIAI_NOBODY) break;
        uint32_t n = 0;
        miai_state_legal(g, s, (uint32_t)tm, moves, f.max_legal, &n);
        miai_state_play(g, s, moves[miai_rng_below(rng, n)]);
    }
    free(moves);
}

static void hex_fill_names_the_first_connection_winner(void) {
    const int sizes[] = {2, 3, 5, 8, 11, 19};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        miai_game *g = make("hex", sizes[z]);
        CHECK(g != NULL);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *start = malloc(f.state_size), *a = malloc(f.state_size),
                *b = malloc(f.state_size);
        miai_move *trace = malloc(sizeof(miai_move) * f.max_plies);
        miai_rng pick;
        miai_rng_seed(&pick, 1000 + (uint64_t)sizes[z]);
        uint32_t games = (sizes[z] <= 11 ? 2000 : 300) * scale(), wins[2] = {0, 0};
        for (uint32_t i = 0; i < games; i++) {
            /* Every fourth playout starts a few moves into a game. */
            random_start(g, start, &pick, i % 4 ? 0 : miai_rng_below(&pick, f.max_plies / 2));
            int32_t tm;
            miai_state_to_move(g, start, &tm);
            if (tm == MIAI_NOBODY) continue;
            uint32_t ply0;
            miai_state_ply(g, start, &ply0);
            memcpy(a, start, f.state_size);
            memcpy(b, start, f.state_size);
            miai_rng ra, rb;
            miai_rng_seed(&ra, i);
            miai_rng_seed(&rb, i);
            uint32_t len = 0;
            uint32_t slow = miai_game_playout(g, a, &ra, trace, f.max_plies, &len);
            uint32_t fast = miai_game_playout(g, b, &rb, NULL, 0, NULL);
            CHECK(slow == len && slow > 0 && slow <= fast);
            CHECK_EQ_U64(fast, f.num_moves - ply0); /* the fill covers every empty cell */
            CHECK(miai_state_check(g, a) == MIAI_OK);
            double wa[2], wb[2];
            CHECK(miai_state_rewards(g, a, wa, 2) == MIAI_OK);
            CHECK(miai_state_rewards(g, b, wb, 2) == MIAI_OK);
            CHECK(wa[0] == wb[0] && wa[1] == wb[1]);
            wins[wa[0] == 1.0 ? 0 : 1]++;
        }
        CHECK(sizes[z] == 2 || (wins[0] > 0 && wins[1] > 0)); /* both sides win some */
        free(trace);
        free(start);
        free(a);
        free(b);
        miai_game_free(g);
    }
}

static void havannah_playout_state_is_the_same_with_or_without_trace(void) {
    const int sizes[] = {4, 6, 8, 10};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        miai_game *g = make("havannah", sizes[z]);
        CHECK(g != NULL);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *start = malloc(f.state_size), *a = malloc(f.state_size),
                *b = malloc(f.state_size);
        miai_move *trace = malloc(sizeof(miai_move) * f.max_plies);
        miai_rng pick;
        miai_rng_seed(&pick, 2000 + (uint64_t)sizes[z]);
        for (uint32_t i = 0; i < 300 * scale(); i++) {
            random_start(g, start, &pick, i % 3 ? 0 : miai_rng_below(&pick, f.max_plies / 3));
            memcpy(a, start, f.state_size);
            memcpy(b, start, f.state_size);
            miai_rng ra, rb;
            miai_rng_seed(&ra, i);
            miai_rng_seed(&rb, i);
            uint32_t len = 0;
            uint32_t with = miai_game_playout(g, a, &ra, trace, f.max_plies, &len);
            uint32_t without = miai_game_playout(g, b, &rb, NULL, 0, NULL);
            CHECK(with == without && with == len);
            CHECK(memcmp(a, b, f.state_size) == 0);
            CHECK(memcmp(&ra, &rb, sizeof ra) == 0);
        }
        free(trace);
        free(start);
        free(a);
        free(b);
        miai_game_free(g);
    }
}

/* Outcome classes counted per playout. */
enum { X_WINS, O_WINS, DRAW, RING, BRIDGE, FORK, N_CLASSES };

typedef struct {
    uint32_t n;
    uint32_t count[N_CLASSES];
    double plies, plies_sq;
} tally;

static void count(miai_game *g, const void *s, uint32_t plies, tally *t) {
    double rw[2];
    CHECK(miai_state_rewards(g, s, rw, 2) == MIAI_OK);
    t->n++;
    t->count[rw[0] == 1.0 ? X_WINS : rw[0] == 0.0 ? O_WINS : DRAW]++;
    char buf[4096];
    miai_state_render(g, s, buf, sizeof buf);
    const char *by = strstr(buf, "wins by"); /* Havannah names the kinds of a win */
    if (by) {
        t->count[RING] += strstr(by, " ring") != NULL;
        t->count[BRIDGE] += strstr(by, " bridge") != NULL;
        t->count[FORK] += strstr(by, " fork") != NULL;
    }
    t->plies += plies;
    t->plies_sq += (double)plies * plies;
}

/* |p_a - p_b| within five standard errors of the difference of two proportions. */
static bool same_rate(uint32_t ca, uint32_t na, uint32_t cb, uint32_t nb) {
    double pa = (double)ca / na, pb = (double)cb / nb, p = (double)(ca + cb) / (na + nb);
    double se = sqrt(p * (1 - p) * (1.0 / na + 1.0 / nb));
    return fabs(pa - pb) <= 5 * se + 1e-12;
}

static bool same_mean(const tally *a, const tally *b) {
    double ma = a->plies / a->n, mb = b->plies / b->n;
    double va = a->plies_sq / a->n - ma * ma, vb = b->plies_sq / b->n - mb * mb;
    return fabs(ma - mb) <= 5 * sqrt(va / a->n + vb / b->n) + 1e-12;
}

static void playouts_match_the_generic_playout_in_distribution(void) {
    const struct {
        const char *name;
        int size;
        uint32_t n;
    } cases[] = {{"hex", 3, 20000}, {"hex", 5, 20000}, {"hex", 11, 2000},
                 {"havannah", 4, 20000}, {"havannah", 5, 10000}, {"havannah", 8, 2000}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        miai_game *g = make(cases[c].name, cases[c].size);
        CHECK(g != NULL);
        if (!g) continue;
        bool hex = strcmp(cases[c].name, "hex") == 0;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *start = malloc(f.state_size), *s = malloc(f.state_size);
        miai_move *trace = malloc(sizeof(miai_move) * f.max_plies);
        miai_state_init(g, start);
        tally fast = {0}, generic = {0}, traced = {0};
        miai_rng rf, rg, rt;
        miai_rng_seed(&rf, 31 + c);
        miai_rng_seed(&rg, 47 + c);
        miai_rng_seed(&rt, 59 + c);
        uint32_t n = cases[c].n * scale();
        for (uint32_t i = 0; i < n; i++) {
            memcpy(s, start, f.state_size);
            count(g, s, miai_game_playout(g, s, &rf, NULL, 0, NULL), &fast);
            memcpy(s, start, f.state_size);
            count(g, s, miai_generic_playout(g, s, &rg, NULL, 0, NULL), &generic);
            if (!hex) continue;
            uint32_t len;
            memcpy(s, start, f.state_size);
            count(g, s, miai_game_playout(g, s, &rt, trace, f.max_plies, &len), &traced);
        }
        for (int k = 0; k < N_CLASSES; k++) {
            if (!same_rate(fast.count[k], fast.n, generic.count[k], generic.n))
                fprintf(stderr, "%s %d class %d: fast %u / %u, generic %u / %u\n",
                        cases[c].name, cases[c].size, k, fast.count[k], fast.n,
                        generic.count[k], generic.n);
            CHECK(same_rate(fast.count[k], fast.n, generic.count[k], generic.n));
        }
        /* Game length: Hex's fast path fills the board, so its move-by-move path (with
         * a trace) stands in for it there. */
        CHECK(same_mean(hex ? &traced : &fast, &generic));
        if (hex) {
            CHECK(generic.count[DRAW] == 0 && fast.count[DRAW] == 0);
            CHECK(same_rate(traced.count[X_WINS], traced.n, generic.count[X_WINS], generic.n));
        } else {
            CHECK(fast.count[RING] > 0 && fast.count[BRIDGE] > 0 && fast.count[FORK] > 0);
        }
        free(trace);
        free(start);
        free(s);
        miai_game_free(g);
    }
}

/* Every move of a playout is uniform among the empty cells: replay traces through the
 * API and take the rank of each move in the sorted legal list, u = (rank + 1/2) / n.
 * Uniform draws give E[u] = 1/2 and Var[u] = (1 - 1/n^2) / 12 per move; the pooled mean
 * must lie within five standard errors of 1/2, and the pooled mean of (u - 1/2)^2 within
 * five of its expectation.  A draw that favours some part of the move list moves them. */
static void each_move_is_uniform_among_the_empty_cells(void) {
    const char *names[2] = {"hex", "havannah"};
    const int sizes[2] = {11, 8};
    for (int k = 0; k < 2; k++) {
        miai_game *g = make(names[k], sizes[k]);
        CHECK(g != NULL);
        if (!g) continue;
        miai_game_facts f;
        miai_game_get_facts(g, &f);
        uint8_t *s = malloc(f.state_size);
        miai_move *trace = malloc(sizeof(miai_move) * f.max_plies);
        miai_move *legal = malloc(sizeof(miai_move) * f.max_legal);
        miai_rng rng;
        miai_rng_seed(&rng, 71 + (uint64_t)k);
        double sum_u = 0, sum_d2 = 0, var_u = 0, var_d2 = 0;
        uint64_t moves = 0;
        for (uint32_t i = 0; i < 400 * scale(); i++) {
            miai_state_init(g, s);
            uint32_t len = 0;
            miai_game_playout(g, s, &rng, trace, f.max_plies, &len);
            miai_state_init(g, s);
            for (uint32_t p = 0; p < len; p++) {
                int32_t tm;
                uint32_t n = 0, rank = 0;
                miai_state_to_move(g, s, &tm);
                miai_state_legal(g, s, (uint32_t)tm, legal, f.max_legal, &n);
                while (rank < n && legal[rank] != trace[p]) rank++;
                CHECK(rank < n);
                if (rank >= n) break;
                double u = (rank + 0.5) / n, n2 = (double)n * n, d2 = (u - 0.5) * (u - 0.5);
                double mean_d2 = (1 - 1 / n2) / 12;
                sum_u += u;
                var_u += mean_d2;
                sum_d2 += d2 - mean_d2;
                /* Var[(u - 1/2)^2] for u uniform on n points: E[d^4] - E[d^2]^2, with
                 * E[d^4] = (3 n^4 - 10 n^2 + 7) / (240 n^4). */
                var_d2 += (3 * n2 * n2 - 10 * n2 + 7) / (240 * n2 * n2) - mean_d2 * mean_d2;
                moves++;
                miai_state_play(g, s, trace[p]);
            }
        }
        CHECK(moves > 1000);
        double z_mean = (sum_u - 0.5 * (double)moves) / sqrt(var_u);
        double z_spread = sum_d2 / sqrt(var_d2);
        if (fabs(z_mean) > 5 || fabs(z_spread) > 5)
            fprintf(stderr, "%s: z of the mean rank %.2f, of the spread %.2f\n", names[k],
                    z_mean, z_spread);
        CHECK(fabs(z_mean) <= 5);
        CHECK(fabs(z_spread) <= 5);
        free(legal);
        free(trace);
        free(s);
        miai_game_free(g);
    }
}

int main(void) {
    const ctest_case cases[] = {
        {"hex_fill_names_the_first_connection_winner",
         hex_fill_names_the_first_connection_winner},
        {"havannah_playout_state_is_the_same_with_or_without_trace",
         havannah_playout_state_is_the_same_with_or_without_trace},
        {"playouts_match_the_generic_playout_in_distribution",
         playouts_match_the_generic_playout_in_distribution},
        {"each_move_is_uniform_among_the_empty_cells", each_move_is_uniform_among_the_empty_cells},
    };
    return ctest_run(cases, (int)(sizeof cases / sizeof cases[0]));
}
