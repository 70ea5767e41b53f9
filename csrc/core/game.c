/* game.c -- the validated public game API (game_api.h) over the vtable (game.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "registry.h"

const char *miai_status_text(int status) {
    switch (status) {
    case MIAI_OK: return "ok";
    case MIAI_EINVAL: return "invalid argument";
    case MIAI_EILLEGAL: return "illegal move";
    case MIAI_ENOMEM: return "out of memory";
    case MIAI_EUNKNOWN: return "unknown name";
    case MIAI_ETERMINAL: return "the game is over";
    case MIAI_ESTATE: return "not valid in this state";
    case MIAI_ECORRUPT: return "consistency check failed";
    case MIAI_EPARSE: return "parse error";
    case MIAI_ELIMIT: return "limit reached";
    default: return "unknown status";
    }
}

uint32_t miai_game_count(void) { return miai_registry_size; }

int miai_game_describe(uint32_t index, miai_game_info *out) {
    if (!out || index >= miai_registry_size) return MIAI_EINVAL;
    *out = miai_registry[index]->info;
    return MIAI_OK;
}

int miai_game_create(const char *name, const double *params, uint32_t n_params,
                     miai_game **out) {
    if (!name || !out || (n_params && !params)) return MIAI_EINVAL;
    *out = NULL;
    const miai_game_entry *e = NULL;
    for (uint32_t i = 0; i < miai_registry_size; i++)
        if (strcmp(miai_registry[i]->info.name, name) == 0) e = miai_registry[i];
    if (!e) return MIAI_EUNKNOWN;
    const miai_game_info *info = &e->info;
    if (n_params != info->n_params) return MIAI_EINVAL;
    double p[MIAI_MAX_PARAMS];
    for (uint32_t i = 0; i < n_params; i++) {
        double v = params[i];
        if (!isfinite(v) || v < info->param_min[i] || v > info->param_max[i])
            return MIAI_EINVAL;
        if (info->param_integer[i] && v != floor(v)) return MIAI_EINVAL;
        p[i] = v;
    }
    miai_game *g = calloc(1, sizeof *g);
    if (!g) return MIAI_ENOMEM;
    snprintf(g->name, MIAI_NAME_LEN, "%s", info->name);
    int rc = e->create(p, g);
    if (rc != MIAI_OK) {
        if (g->ops && g->ops->destroy) g->ops->destroy(g);
        free(g);
        return rc;
    }
    *out = g;
    return MIAI_OK;
}

void miai_game_free(miai_game *g) {
    if (!g) return;
    if (g->ops && g->ops->destroy) g->ops->destroy(g);
    free(g);
}

int miai_game_get_facts(const miai_game *g, miai_game_facts *out) {
    if (!g || !out) return MIAI_EINVAL;
    *out = g->facts;
    return MIAI_OK;
}

const char *miai_game_name(const miai_game *g) { return g ? g->name : ""; }

int miai_state_init(const miai_game *g, void *state) {
    if (!g || !state) return MIAI_EINVAL;
    memset(state, 0, g->facts.state_size);
    g->ops->init(g, state);
    return MIAI_OK;
}

int miai_state_to_move(const miai_game *g, const void *state, int32_t *out) {
    if (!g || !state || !out) return MIAI_EINVAL;
    *out = miai_chead_of(state)->to_move;
    return MIAI_OK;
}

int miai_state_is_terminal(const miai_game *g, const void *state, int32_t *out) {
    if (!g || !state || !out) return MIAI_EINVAL;
    *out = miai_chead_of(state)->to_move == MIAI_NOBODY;
    return MIAI_OK;
}

int miai_state_ply(const miai_game *g, const void *state, uint32_t *out) {
    if (!g || !state || !out) return MIAI_EINVAL;
    *out = miai_chead_of(state)->ply;
    return MIAI_OK;
}

int miai_state_key(const miai_game *g, const void *state, uint64_t *key, uint64_t *key2) {
    if (!g || !state || !key || !key2) return MIAI_EINVAL;
    *key = miai_chead_of(state)->key;
    *key2 = miai_chead_of(state)->key2;
    return MIAI_OK;
}

int miai_state_key_full(const miai_game *g, const void *state, uint64_t *key,
                        uint64_t *key2) {
    if (!g || !state || !key || !key2) return MIAI_EINVAL;
    g->ops->key_full(g, state, key, key2);
    return MIAI_OK;
}

int miai_state_legal(const miai_game *g, const void *state, uint32_t role,
                     miai_move *out, uint32_t cap, uint32_t *n) {
    if (!g || !state || !out || !n || role >= g->facts.n_roles) return MIAI_EINVAL;
    if (cap < g->facts.max_legal) return MIAI_EINVAL;
    *n = 0;
    if (miai_chead_of(state)->to_move == MIAI_NOBODY) return MIAI_OK;
    *n = g->ops->legal(g, state, role, out);
    return MIAI_OK;
}

bool miai_game_is_legal(const miai_game *g, const void *state, uint32_t role,
                        miai_move move) {
    miai_move buf[g->facts.max_legal ? g->facts.max_legal : 1];
    uint32_t n = g->ops->legal(g, state, role, buf);
    for (uint32_t i = 0; i < n; i++)
        if (buf[i] == move) return true;
    return false;
}

int miai_state_play_joint(const miai_game *g, void *state, const miai_move *moves,
                          uint32_t n_moves) {
    if (!g || !state || !moves) return MIAI_EINVAL;
    const miai_head *h = miai_chead_of(state);
    if (h->to_move == MIAI_NOBODY) return MIAI_ETERMINAL;
    uint32_t nr = g->facts.n_roles;
    miai_move joint[MIAI_MAX_ROLES] = {0};
    if (h->to_move == MIAI_SIMULTANEOUS) {
        if (n_moves != nr) return MIAI_ESTATE;
        for (uint32_t r = 0; r < nr; r++) {
            if (moves[r] >= g->facts.num_moves) return MIAI_EINVAL;
            if (!miai_game_is_legal(g, state, r, moves[r])) return MIAI_EILLEGAL;
            joint[r] = moves[r];
        }
    } else {
        if (h->to_move < 0 || (uint32_t)h->to_move >= nr) return MIAI_ECORRUPT;
        uint32_t r = (uint32_t)h->to_move;
        miai_move m;
        if (n_moves == nr) m = moves[r];
        else if (n_moves == 1) m = moves[0];
        else return MIAI_EINVAL;
        if (m >= g->facts.num_moves) return MIAI_EINVAL;
        if (!miai_game_is_legal(g, state, r, m)) return MIAI_EILLEGAL;
        joint[r] = m;
    }
    g->ops->play(g, state, joint);
    return MIAI_OK;
}

int miai_state_play(const miai_game *g, void *state, miai_move move) {
    if (!g || !state) return MIAI_EINVAL;
    int32_t tm = miai_chead_of(state)->to_move;
    if (tm == MIAI_SIMULTANEOUS) return MIAI_ESTATE;
    return miai_state_play_joint(g, state, &move, 1);
}

int miai_state_rewards(const miai_game *g, const void *state, double *out, uint32_t cap) {
    if (!g || !state || !out || cap < g->facts.n_roles) return MIAI_EINVAL;
    if (miai_chead_of(state)->to_move != MIAI_NOBODY) return MIAI_ESTATE;
    g->ops->rewards(g, state, out);
    return MIAI_OK;
}

int miai_state_render(const miai_game *g, const void *state, char *buf, size_t cap) {
    if (!g || !state || !buf || cap == 0) return MIAI_EINVAL;
    buf[0] = 0;
    g->ops->render(g, state, buf, cap);
    buf[cap - 1] = 0;
    return MIAI_OK;
}

int miai_state_check(const miai_game *g, const void *state) {
    if (!g || !state) return MIAI_EINVAL;
    uint64_t k, k2;
    g->ops->key_full(g, state, &k, &k2);
    const miai_head *h = miai_chead_of(state);
    if (k != h->key || k2 != h->key2) return MIAI_ECORRUPT;
    return g->ops->check ? g->ops->check(g, state) : MIAI_OK;
}

int miai_move_to_text(const miai_game *g, uint32_t role, miai_move move, char *buf,
                      size_t cap) {
    if (!g || !buf || cap == 0 || role >= g->facts.n_roles) return MIAI_EINVAL;
    if (move >= g->facts.num_moves) return MIAI_EINVAL;
    buf[0] = 0;
    int rc = g->ops->move_to_text(g, role, move, buf, cap);
    buf[cap - 1] = 0;
    return rc;
}

int miai_move_from_text(const miai_game *g, uint32_t role, const char *text,
                        miai_move *out) {
    if (!g || !text || !out || role >= g->facts.n_roles) return MIAI_EINVAL;
    size_t len = 0;
    while (len < 4096 && text[len]) len++;
    if (len >= 4096) return MIAI_EINVAL;
    int rc = g->ops->move_from_text(g, role, text, out);
    if (rc == MIAI_OK && *out >= g->facts.num_moves) return MIAI_EINVAL;
    return rc;
}

static inline uint32_t generic_playout(const miai_game *g, void *state, miai_rng *rng,
                                       miai_move *trace, uint32_t trace_cap,
                                       uint32_t *trace_len, miai_mast *mast) {
    miai_head *h = miai_head_of(state);
    uint32_t nr = g->facts.n_roles, plies = 0, tl = 0;
    miai_move buf[g->facts.max_legal ? g->facts.max_legal : 1];
    miai_move joint[MIAI_MAX_ROLES] = {0};
    while (h->to_move != MIAI_NOBODY && h->ply < g->facts.max_plies) {
        if (h->to_move == MIAI_SIMULTANEOUS) {
            for (uint32_t r = 0; r < nr; r++) {
                uint32_t n = g->ops->legal(g, state, r, buf);
                if (mast && n)
                    joint[r] = miai_mast_pick(mast, rng, r, buf, n);
                else
                    joint[r] = n ? buf[miai_rng_below(rng, n)] : 0;
                if (trace && tl < trace_cap) trace[tl++] = joint[r];
            }
        } else {
            uint32_t r = (uint32_t)h->to_move;
            uint32_t n = g->ops->legal(g, state, r, buf);
            if (n == 0) break; /* defensive: a game must never leave a mover without moves */
            joint[r] = mast ? miai_mast_pick(mast, rng, r, buf, n) : buf[miai_rng_below(rng, n)];
            if (trace && tl < trace_cap) trace[tl++] = joint[r];
        }
        g->ops->play(g, state, joint);
        plies++;
    }
    if (trace_len) *trace_len = tl;
    return plies;
}

uint32_t miai_generic_playout(const miai_game *g, void *state, miai_rng *rng,
                              miai_move *trace, uint32_t trace_cap, uint32_t *trace_len) {
    return generic_playout(g, state, rng, trace, trace_cap, trace_len, NULL);
}

uint32_t miai_generic_playout_mast(const miai_game *g, void *state, miai_rng *rng,
                                   miai_move *trace, uint32_t trace_cap,
                                   uint32_t *trace_len, miai_mast *mast) {
    return generic_playout(g, state, rng, trace, trace_cap, trace_len, mast);
}

void miai_game_playouts(const miai_game *g, const void *state, uint64_t n, miai_rng *rng,
                        void *scratch, bool batch, double *sum, uint64_t *plies) {
    uint32_t nr = g->facts.n_roles;
    for (uint32_t k = 0; k < nr; k++) sum[k] = 0.0;
    *plies = 0;
    if (batch && g->ops->playouts && g->ops->playouts(g, state, n, rng, sum, plies) == MIAI_OK)
        return;
    for (uint32_t k = 0; k < nr; k++) sum[k] = 0.0; /* declined, or out of memory */
    *plies = 0;
    double r[MIAI_MAX_ROLES];
    for (uint64_t i = 0; i < n; i++) {
        memcpy(scratch, state, g->facts.state_size);
        *plies += miai_game_playout(g, scratch, rng, NULL, 0, NULL);
        miai_game_outcome(g, scratch, r);
        for (uint32_t k = 0; k < nr; k++) sum[k] += r[k];
    }
}

static int playouts_run(const miai_game *g, const void *state, uint64_t n, uint64_t seed,
                        double *mean_rewards, uint32_t cap, uint64_t *total_plies,
                        bool batch) {
    if (!g || !state || !mean_rewards || !total_plies) return MIAI_EINVAL;
    uint32_t nr = g->facts.n_roles;
    if (cap < nr) return MIAI_EINVAL;
    void *work = malloc(g->facts.state_size);
    if (!work) return MIAI_ENOMEM;
    miai_rng rng;
    miai_rng_seed(&rng, seed);
    double sum[MIAI_MAX_ROLES];
    miai_game_playouts(g, state, n, &rng, work, batch, sum, total_plies);
    for (uint32_t k = 0; k < nr; k++) mean_rewards[k] = n ? sum[k] / (double)n : 0.0;
    free(work);
    return MIAI_OK;
}

int miai_playouts(const miai_game *g, const void *state, uint64_t n, uint64_t seed,
                  double *mean_rewards, uint32_t cap, uint64_t *total_plies) {
    return playouts_run(g, state, n, seed, mean_rewards, cap, total_plies, true);
}

int miai_playouts_each(const miai_game *g, const void *state, uint64_t n, uint64_t seed,
                       double *mean_rewards, uint32_t cap, uint64_t *total_plies) {
    return playouts_run(g, state, n, seed, mean_rewards, cap, total_plies, false);
}

static uint64_t perft_rec(const miai_game *g, const void *state, uint32_t depth,
                          uint8_t *stack) {
    const miai_head *h = miai_chead_of(state);
    if (depth == 0) return 1;
    if (h->to_move == MIAI_NOBODY) return 0;
    uint32_t ss = g->facts.state_size, nr = g->facts.n_roles, ml = g->facts.max_legal;
    uint8_t *child = stack;
    uint64_t total = 0;
    miai_move joint[MIAI_MAX_ROLES] = {0};
    if (h->to_move == MIAI_SIMULTANEOUS) {
        miai_move lists[MIAI_MAX_ROLES][ml ? ml : 1];
        uint32_t counts[MIAI_MAX_ROLES], idx[MIAI_MAX_ROLES] = {0};
        for (uint32_t r = 0; r < nr; r++) {
            counts[r] = g->ops->legal(g, state, r, lists[r]);
            if (counts[r] == 0) return 0;
        }
        for (;;) {
            for (uint32_t r = 0; r < nr; r++) joint[r] = lists[r][idx[r]];
            memcpy(child, state, ss);
            g->ops->play(g, child, joint);
            total += perft_rec(g, child, depth - 1, stack + ss);
            uint32_t r = 0;
            while (r < nr && ++idx[r] == counts[r]) idx[r++] = 0;
            if (r == nr) break;
        }
        return total;
    }
    if (h->to_move < 0 || (uint32_t)h->to_move >= nr) return 0; /* corrupted state */
    miai_move moves[ml ? ml : 1];
    uint32_t r = (uint32_t)h->to_move;
    uint32_t n = g->ops->legal(g, state, r, moves);
    if (depth == 1) return n;
    for (uint32_t i = 0; i < n; i++) {
        memcpy(child, state, ss);
        joint[r] = moves[i];
        g->ops->play(g, child, joint);
        total += perft_rec(g, child, depth - 1, stack + ss);
    }
    return total;
}

int miai_perft(const miai_game *g, const void *state, uint32_t depth, uint64_t *out) {
    if (!g || !state || !out || depth > 64) return MIAI_EINVAL;
    uint8_t *stack = malloc((size_t)g->facts.state_size * (depth + 1));
    if (!stack) return MIAI_ENOMEM;
    *out = perft_rec(g, state, depth, stack);
    free(stack);
    return MIAI_OK;
}
