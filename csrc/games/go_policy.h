/* go_policy.h -- the heavy Go playout policy (MoGo / Fuego style) and the Go knowledge
 * the search's priors use.
 *
 * Contract:
 *   - The policy is a bitmask (the Go game parameter `policy`, go_data.policy):
 *       GO_POLICY_ATARI      answer the last move: capture a group it left in atari,
 *                            save an own group it put in atari (extend to a point
 *                            with at least two liberties, or capture a neighbour);
 *       GO_POLICY_SELF_ATARI never play a non-capturing self-atari of a group of
 *                            GO_SELF_ATARI_MIN or more stones (single-stone
 *                            throw-ins stay allowed);
 *       GO_POLICY_PATTERN    play a MoGo 3x3 pattern move next to the last move;
 *       GO_POLICY_FILL_EYES  switch OFF the rule that never fills an own eye.
 *     0 is the light policy of go_play_out (uniform, no eye filling).  Each rule draws
 *     uniformly among its candidates; the rules are tried in the order above (MoGo's
 *     order) and a uniformly random acceptable point is the fallback.
 *   - Every move the policy plays satisfies go_playout_ok (not the simple-ko point,
 *     not suicide, not an own eye unless GO_POLICY_FILL_EYES), so playouts end.
 *   - No global state: the pattern table is built into the game's go_data at create.
 */
#ifndef MIAI_GO_POLICY_H
#define MIAI_GO_POLICY_H

#include <stdint.h>

#include "go_board.h"

#define GO_POLICY_ATARI 1u
#define GO_POLICY_SELF_ATARI 2u
#define GO_POLICY_PATTERN 4u
#define GO_POLICY_FILL_EYES 8u
#define GO_POLICY_FULL (GO_POLICY_ATARI | GO_POLICY_SELF_ATARI | GO_POLICY_PATTERN)
/* Bits of the same parameter that change only the priors (go_prior_kinds), not the
 * playouts: */
#define GO_PRIOR_LINES 16u  /* first/second-line malus (see go_prior_kinds) */
#define GO_PRIOR_LADDER 32u /* ladder reading: working ladder atari +1, escape -1 */
#define GO_POLICY_PLAYOUT 15u /* the bits above that the playouts read */
/* Last-good-reply playouts (go_play_out_lgr): only where a search gives the playouts
 * its memory (game.h's playout_memory); other playouts ignore the bit. */
#define GO_POLICY_LGR 64u
/* With GO_POLICY_LGR: also the replies to the last two moves (LGRF-2), tried first. */
#define GO_POLICY_LGR2 128u
/* Priors from the learned move model (go_model_api.h) in place of go_prior_kinds'
 * rules (go_prior_values). */
#define GO_PRIOR_MODEL 256u
#define GO_POLICY_MAX 511u
#define GO_SELF_ATARI_MIN 2u

/* Fill d->pattern3 (one bit per 3x3 neighbourhood code, see go_pattern_code). */
void go_policy_build_patterns(go_data *d);

/* The 16-bit code of p's eight neighbours (2 bits each: empty, black, white, edge). */
uint32_t go_pattern_code(const go_view *v, uint32_t p);

/* Does empty p match a MoGo pattern? */
bool go_pattern_match(const go_view *v, uint32_t p);

/* The only liberty of group g, or 0 if it has two or more (O(1), pseudo-liberties). */
uint32_t go_atari_lib(const go_view *v, uint32_t g);

/* Liberties (counted up to `cap`) of the group colour c would form at empty p: p's
 * empty neighbours, the neighbouring enemy stones it would capture and the other
 * liberties of the own groups it joins.  Walks those groups (the plain reference). */
uint32_t go_libs_after(const go_view *v, uint32_t p, uint32_t c, uint32_t cap);

/* go_libs_after(v, p, c, 2) >= 2 in O(1): no group is walked, the own groups' other
 * liberties are read from their pseudo-liberty sums.  The policy uses this one (and
 * the same reading inside go_is_bad_self_atari); csrc/tests/test_go_liberties.c checks
 * both against flood fills. */
bool go_two_libs_after(const go_view *v, uint32_t p, uint32_t c);

/* Would c at p capture nothing and leave its group of GO_SELF_ATARI_MIN or more
 * stones with one liberty (a bad self-atari)? */
bool go_is_bad_self_atari(const go_view *v, uint32_t p, uint32_t c);

/* Would c at p capture at least one stone? */
bool go_captures_at(const go_view *v, uint32_t p, uint32_t c);

/* The points the ATARI rule would choose among after a move at `last` (0: none);
 * returns the count (at most cap). */
uint32_t go_atari_replies(const go_view *v, uint32_t last, uint32_t c, uint32_t mask,
                          uint16_t *out, uint32_t cap);

/* Go knowledge for a search's priors, per move of moves[0..n) at `state`: kind[i] =
 * +1 (a capture, saving an own group the last move put in atari, a 3x3 pattern next
 * to the last move), -1 (filling an own eye, a self-atari of a big group, a pass while
 * more than a quarter of the board is empty) or 0.  With the prior bits of d->policy,
 * in this order (a later rule overrides an earlier one):
 *   GO_PRIOR_LINES   -1 for a move on the first or second line with no stone in the
 *                    5x5 square around it (an empty area, as Fuego's line priors), and
 *                    for a first-line move while more than half the board is empty,
 *                    unless the move is tactical: it captures, is one of the atari
 *                    answers above, or puts an enemy group in atari;
 *   GO_PRIOR_LADDER  +1 for an atari (the enemy group next to p has exactly the two
 *                    liberties p and q) that go_ladder_captures reads as captured;
 *                    -1 for extending an own group in atari at its only liberty
 *                    (capturing nothing) when the ladder works against it.
 * MIAI_EINVAL on a move id out of range, MIAI_ENOMEM if the ladder reader's scratch
 * cannot be had.  The Go game offers it to searches as its prior_kinds hook (game.h). */
int go_prior_kinds(const go_data *d, const void *state, const miai_move *moves, uint32_t n,
                   int8_t *kind);

/* Helpers the priors share with the learned move model (go_model.c):
 *   go_line        the 1-based line of point p (1 = the edge line);
 *   go_ataris_at   the enemy groups (colour o) that a stone at p would put in atari
 *                  (they have exactly the two liberties p and another): roots into g[];
 *   go_ladder_kind the GO_PRIOR_LADDER rule for colour c at p: +1 an atari whose ladder
 *                  captures, -1 an extension (capturing nothing) of an own group in
 *                  atari that the ladder then captures, 0 neither, -2 out of memory;
 *                  *scratch is go_scratch's buffer, had on first need (free it). */
uint32_t go_line(const go_data *d, uint32_t p);
uint32_t go_ataris_at(const go_view *v, uint32_t p, uint32_t o, uint32_t g[4]);
uint8_t *go_scratch(const go_data *d, uint8_t **scratch);
/* The position after colour c plays empty p (go_place: captures and the ko point),
 * built in the state of *scratch past the ladder reader's levels (so a ladder read
 * from it does not overwrite it); *w its view.  NULL without memory. */
uint8_t *go_after_move(const go_view *v, uint32_t p, uint32_t c, uint8_t **scratch,
                       go_view *w);
int go_ladder_kind(const go_view *v, uint32_t p, uint32_t c, uint8_t **scratch);

/* Graded priors (the Go game's prior_values hook): with GO_PRIOR_MODEL, the learned
 * model's probability p[i] of each move (go_model_api.h) as a virtual win rate
 * q[i] = x / (1 + x), x = n p[i]: 0.5 for a move of average probability 1/n, towards
 * 1 for a move the model expects, towards 0 for one it does not; without the bit,
 * q[i] = (1 + go_prior_kinds' kind) / 2.  Errors as go_prior_kinds. */
int go_prior_values(const go_data *d, const void *state, const miai_move *moves,
                    uint32_t n, float *q);

/* Ladder reading.  Group G (the stone at gp, colour e) has exactly one liberty and e
 * moves next: is G captured when e extends at the liberty and the attacker answers
 * each extension that leaves exactly two liberties with an atari at one of them (both
 * are tried)?  G escapes when it reaches three liberties, when an attacker group next
 * to G is in atari before e extends (e takes it), when G is no longer in atari (an
 * attacker's atari that captured stones), when the attacker has no legal atari,
 * or when the read passes GO_LADDER_NODES extensions or 2 size + 2 of them in a row
 * (too long to trust: counted as an escape).  G is captured when the extension is
 * illegal (the simple-ko point, suicide) or leaves one liberty.  Moves are placed
 * (go_place: captures and the simple-ko point as in the game) on copies of the state
 * in `scratch`, which holds go_ladder_levels(d) states of d->state_size bytes; the
 * state itself is not changed.  *out = 1 captured, 0 escapes; MIAI_EINVAL if gp is not
 * a stone in atari. */
#define GO_LADDER_NODES 512u
uint32_t go_ladder_levels(const go_data *d);
int go_ladder_read(const go_data *d, const void *state, uint32_t gp, uint8_t *scratch,
                   bool *out);

/* One playout with the rules of `mask` (see above); trace as go_play_out.  `last` is
 * the point of the move that led to the state (0 if unknown or a pass). */
uint32_t go_play_out_policy(go_view *v, uint32_t mask, uint32_t last, miai_rng *rng,
                            miai_move *trace, uint32_t trace_cap, uint32_t *trace_len);

/* Last-good-reply playouts with forgetting (LGRF-1: Baier and Drake, "The Power of
 * Forgetting: Improving the Last-Good-Reply Policy in Monte Carlo Go", IEEE TCIAIG
 * 2(4), 2010).  The memory (go_lgr_memory_size bytes, zero = empty) holds reply[c][q]
 * (c = 0 black, 1 white; q a padded point; 0 = no reply), then room for one
 * playout's points.  go_play_out_lgr plays out as go_play_out_policy with `mask`, but
 * first, after a move at q, plays reply[mover][q] when it is an empty point that the
 * policy's own checks accept (not the ko point, not suicide, not an own eye, not a bad
 * self-atari under GO_POLICY_SELF_ATARI); then it scores the end (area, komi) and
 * calls go_lgr_update.  Only the playout's moves are learnt (and the reply to the
 * move that led to its start, v->f->last); the tree's moves are not seen.  With
 * GO_POLICY_LGR2 as well (LGRF-2), the memory then holds reply2[c][q'][q], the reply
 * to q' followed by q, tried before reply[c][q] (from the playout's second move on:
 * the state does not know the move before its last). */
size_t go_lgr_memory_size(const go_data *d);
uint32_t go_play_out_lgr(go_view *v, uint32_t mask, miai_rng *rng, void *memory,
                         miai_move *trace, uint32_t trace_cap, uint32_t *trace_len);
/* The LGRF update after a playout of points seq[0..n) (0 = pass), started by
 * `mover` (0/1) after a move at `prev` (0: none or a pass), won by `winner` (0/1;
 * anything else, a draw or the ply cap, changes nothing): for each move m after a
 * move q, both points, played by colour c: reply[c][q] = m if c won, else reply[c][q]
 * is cleared if it was m; with reply2 (NULL: none) the same for reply2[c][q'][q] when
 * the move q' before q is a point too.  In playout order (a later reply overwrites). */
void go_lgr_update(const go_data *d, uint16_t *reply, uint16_t *reply2, uint32_t prev,
                   uint32_t mover, const uint16_t *seq, uint32_t n, int32_t winner);

#endif
