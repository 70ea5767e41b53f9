/* mast.h -- the Move-Average Sampling Technique (Finnsson & Bjornsson 2008): a
 * playout policy that learns during the search.
 *
 * A table owned by one search (no global state) holds, per (role, move), the sum of
 * that role's rewards over the iterations in which the role played the move (in the
 * tree or in the playout) and their count.  A playout given the table draws the
 * mover's move
 *   - with temp > 0 by a Gibbs distribution, P(m) ~ exp(Q(m) / temp),
 *   - else epsilon-greedily: with probability eps uniformly, else a move of highest Q
 *     (ties: uniformly among them),
 * where Q(m) is the move's mean reward and 1 (optimistic, as CadiaPlayer's 100 on the
 * 0-100 scale) for a move never played.  The playout writes the index of every move it
 * draws for a mover in seen[0 .. seen_len) (up to seen_cap); the search adds the
 * rewards to those moves and to the tree moves of the descent once the playout is over
 * (miai_mast_add).  Moves are a role's move ids in [0, num_moves).
 */
#ifndef MIAI_MAST_H
#define MIAI_MAST_H

#include <math.h>
#include <stdint.h>

#include "game_api.h"
#include "rng.h"

typedef struct miai_mast {
    uint32_t n_roles, num_moves;
    double *sum;       /* [n_roles * num_moves] */
    uint32_t *n;       /* [n_roles * num_moves] */
    double eps;        /* epsilon-greedy: probability of a uniform draw (temp == 0) */
    double temp;       /* > 0: Gibbs temperature on the 0..1 reward scale */
    uint32_t *seen;    /* indices (role * num_moves + move) of the playout's draws */
    uint32_t seen_len, seen_cap;
    miai_move *buf;    /* scratch for a playout's list of a mover's moves: room for the
                          game's facts.max_legal */
} miai_mast;

static inline uint32_t miai_mast_index(const miai_mast *t, uint32_t role, miai_move m) {
    return role * t->num_moves + m;
}

static inline double miai_mast_q(const miai_mast *t, uint32_t idx) {
    return t->n[idx] ? t->sum[idx] / t->n[idx] : 1.0;
}

/* The move of `role` among moves[0 .. n) (n >= 1), recorded in seen. */
static inline miai_move miai_mast_pick(miai_mast *t, miai_rng *rng, uint32_t role,
                                       const miai_move *moves, uint32_t n) {
    miai_move m;
    uint32_t base = role * t->num_moves;
    if (n == 1) {
        m = moves[0];
    } else if (t->temp > 0.0) { /* two passes: no buffer of weights */
        double total = 0.0, top = -1.0;
        for (uint32_t i = 0; i < n; i++) {
            double q = miai_mast_q(t, base + moves[i]);
            if (q > top) top = q;
        }
        for (uint32_t i = 0; i < n; i++)
            total += exp((miai_mast_q(t, base + moves[i]) - top) / t->temp);
        double x = miai_rng_unit(rng) * total;
        uint32_t i = 0;
        for (; i + 1 < n; i++) {
            double w = exp((miai_mast_q(t, base + moves[i]) - top) / t->temp);
            if (x < w) break;
            x -= w;
        }
        m = moves[i];
    } else if (t->eps > 0.0 && miai_rng_unit(rng) < t->eps) {
        m = moves[miai_rng_below(rng, n)];
    } else {
        double best = -1.0;
        uint32_t ties = 0;
        m = moves[0];
        for (uint32_t i = 0; i < n; i++) {
            double q = miai_mast_q(t, base + moves[i]);
            if (q > best) {
                best = q;
                m = moves[i];
                ties = 1;
            } else if (q == best && miai_rng_below(rng, ++ties) == 0) {
                m = moves[i];
            }
        }
    }
    if (t->seen_len < t->seen_cap) t->seen[t->seen_len++] = base + m;
    return m;
}

/* Add rewards[role] to the moves the playout recorded. */
static inline void miai_mast_add_seen(miai_mast *t, const double *rewards) {
    for (uint32_t i = 0; i < t->seen_len; i++) {
        uint32_t idx = t->seen[i];
        t->sum[idx] += rewards[idx / t->num_moves];
        t->n[idx]++;
    }
    t->seen_len = 0;
}

/* Add reward r to move m of role `role` (a tree move of the descent). */
static inline void miai_mast_add(miai_mast *t, uint32_t role, miai_move m, double r) {
    if (role >= t->n_roles || m >= t->num_moves) return;
    uint32_t idx = miai_mast_index(t, role, m);
    t->sum[idx] += r;
    t->n[idx]++;
}

#endif
