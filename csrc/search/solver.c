/* solver.c -- MCTS-Solver (Winands et al.; uct-star.txt's future work 5.2.3): proven
 * wins and losses backed up the graph, for any policy of algos.h.
 *
 * An edge into a terminal position is proven by its reward for the edge's role
 * (1: win, 0: loss; draws stay unproven; with two roles only where their rewards sum
 * to 1, so that a GDL game whose goals are not zero-sum gets no unsound proof).  A
 * node is won for its mover when one of its edges is a proven win, lost when every
 * edge is a proven loss; the edge entering it then gets the proof seen by that edge's
 * role.  Proofs travel up the descent
 * path (a DAG node proven through one parent is recognised when another parent's
 * descent reaches it).  Selection skips proven losses and takes a proven win; a
 * proven root stops the search.
 *
 * With uct.c's node cache (miai_solver_backup_uct, uctstar.c), a node not marked
 * MIAI_UCT_SPECIAL has no proven edge, so its status is known to be open without a
 * scan of its edges (the usual case at the end of a descent), and each proof marks
 * its node special; the proofs made are the same.
 */
#include "algos.h"
#include "uct_cache.h"

int miai_algos_check_game(const miai_search *s) {
    return s->game->facts.n_roles > 2 ? MIAI_EINVAL : MIAI_OK;
}

bool miai_solver_on(const miai_policy *p) { return p->cfg.params[MIAI_PARAM_SOLVER] != 0.0; }

uint32_t miai_solver_win(const miai_edge *edges, uint32_t first, uint32_t count) {
    for (uint32_t i = first; i < first + count; i++)
        if (edges[i].flags & MIAI_EDGE_WIN) return i;
    return MIAI_NIL;
}

/* 1: won for the node's mover, -1: lost, 0: open. */
static int node_status(const miai_dag *d, uint32_t node) {
    const miai_node *x = &d->nodes[node];
    if (x->n_edges == 0) return 0;
    bool all_lost = true;
    for (uint32_t i = x->first_edge; i < x->first_edge + x->n_edges; i++) {
        uint32_t f = d->edges[i].flags;
        if (f & MIAI_EDGE_WIN) return 1;
        if (!(f & MIAI_EDGE_LOSS)) all_lost = false;
    }
    return all_lost ? -1 : 0;
}

/* node_status, or 0 without a scan when the node cache says no edge is proven. */
static inline int status_of(const miai_dag *d, uint32_t node, bool cached) {
    if (cached && !(d->nodes[node].mark & MIAI_UCT_SPECIAL)) return 0;
    return node_status(d, node);
}

/* Prove edge `edge` of `node` won or lost for its role. */
static void mark(miai_dag *d, uint32_t node, uint32_t edge, int won, bool cached) {
    miai_edge *e = &d->edges[edge];
    e->flags = (e->flags & ~MIAI_EDGE_PROVEN) | (won ? MIAI_EDGE_WIN : MIAI_EDGE_LOSS);
    if (cached) miai_uct_mark_special(&d->nodes[node]);
}

static void solver_backup(miai_search *s, const miai_path *path, const double *rewards,
                          bool cached) {
    miai_dag *d = &s->dag;
    if (path->len == 0) return;
    const miai_step *end = &path->steps[path->len - 1];
    const miai_edge *last = &d->edges[end->edge];
    uint32_t leaf = path->leaf;
    if (miai_simultaneous_at(d, end->node)) return; /* no proofs */
    /* Only an outcome where one role wins what the other loses proves anything: a
     * loss proven for one role is then a win for the other (a GDL game whose goals
     * do not sum to 100 may end with both at 0).  Proofs made of such outcomes alone
     * stay sound; a one-role puzzle has no other role. */
    bool decisive = s->game->facts.n_roles < 2 || rewards[0] + rewards[1] == 1.0;
    if (leaf != MIAI_NIL && d->nodes[leaf].to_move == MIAI_NOBODY && decisive) {
        double r = rewards[end->role];
        if (r >= 1.0) mark(d, end->node, end->edge, 1, cached);
        else if (r <= 0.0) mark(d, end->node, end->edge, 0, cached);
    } else if (leaf != MIAI_NIL && leaf == last->child) {
        int st = status_of(d, leaf, cached); /* a node proven through another parent */
        if (st != 0) {
            uint32_t mover = (uint32_t)d->nodes[leaf].to_move;
            bool same = mover == end->role;
            mark(d, end->node, end->edge, same ? st > 0 : st < 0, cached);
        }
    }
    for (uint32_t k = path->len; k-- > 0;) {
        uint32_t node = path->steps[k].node;
        int st = status_of(d, node, cached);
        if (st == 0) break;
        if (k > 0 && miai_simultaneous_at(d, path->steps[k - 1].node)) break;
        if (k == 0) {
            atomic_store(&s->stop, true);
            break;
        }
        uint32_t mover = path->steps[k].role;
        bool same = mover == path->steps[k - 1].role;
        mark(d, path->steps[k - 1].node, path->steps[k - 1].edge, same ? st > 0 : st < 0,
             cached);
    }
}

void miai_solver_backup(miai_search *s, const miai_path *path, const double *rewards) {
    solver_backup(s, path, rewards, false);
}

void miai_solver_backup_uct(miai_search *s, const miai_path *path, const double *rewards) {
    solver_backup(s, path, rewards, true);
}

int miai_solver_root(const miai_search *s) { return node_status(&s->dag, s->dag.root); }

uint32_t miai_solver_final(const miai_policy *p, const miai_search *s, uint32_t first,
                           uint32_t count) {
    const miai_edge *edges = s->dag.edges;
    uint32_t win = miai_solver_win(edges, first, count);
    if (win != MIAI_NIL) return win;
    bool all_lost = true;
    for (uint32_t i = first; i < first + count; i++)
        if (!(edges[i].flags & MIAI_EDGE_LOSS)) all_lost = false;
    if (all_lost) return miai_final_default(p, s, first, count);
    /* The configured rule over the unproven edges: most visits (ties: higher mean)
     * or highest mean (ties: more visits), as miai_final_default. */
    return miai_final_among(edges, first, count, MIAI_EDGE_LOSS,
                            p->cfg.final_choice == MIAI_FINAL_MEAN, false);
}
