/* search_rave_api.h -- inspection of the RAVE policy (csrc/search/rave.c) for tests and tools.
 *
 * Contract: `s` must be a search created with algorithm MIAI_ALG_RAVE or
 * MIAI_ALG_AUCT_RAVE (else MIAI_EINVAL).  The last iteration's move sequence is what
 * the AMAF update used: moves[0 .. tree_len) the tree moves (the descent path, root
 * first), then the playout's moves; roles[i] the role that made moves[i]; rewards[r] per role
 * (cap_rewards >= the number of roles).  cap must hold the whole sequence (else
 * MIAI_EINVAL; max_plies + 2 is always enough).
 */
#ifndef MIAI_SEARCH_RAVE_API_H
#define MIAI_SEARCH_RAVE_API_H

#include <stdint.h>

#include "search_api.h"

#define MIAI_P_AUCT_RAVE_LAMBDA 6  /* AUCT with RAVE: the decay lambda in (0, 1] */

int miai_rave_last_sequence(const miai_search *s, miai_move *moves, uint32_t *roles,
                            uint32_t cap, uint32_t *len, uint32_t *tree_len,
                            double *rewards, uint32_t cap_rewards);

/* Territory counts of a search with params[5] = 1 (else MIAI_ESTATE), per root edge k
 * (root edge order) for the current root: visits[k] playouts through it, and for
 * each point q (a Go move id < n_points = size^2) black[k * n_points + q] /
 * white[...] of them ending with q owned by black / white.  cap_edges >= the
 * root's edge count; *n_edges gets it. */
int miai_rave_root_territory(const miai_search *s, uint32_t *visits, uint32_t *black,
                             uint32_t *white, uint32_t cap_edges, uint32_t n_points,
                             uint32_t *n_edges);

/* AUCT with RAVE only (MIAI_ALG_AUCT_RAVE, else MIAI_EINVAL): the accelerated
 * statistics of the edges of `node`, in edge order: total[k] = G = r^A * n (the plain
 * payoff total until eq. 7 of accelerated-uct.txt applied to the edge, see
 * csrc/search/accel.h) and velocity[k] (eq. 6).  cap >= the node's edge count (*n
 * gets it).  MIAI_ESTATE when memory for them ran out (the policy then runs as plain
 * RAVE). */
int miai_auct_rave_edges(const miai_search *s, uint32_t node, double *total, double *velocity,
                         uint32_t cap, uint32_t *n);

#endif
