/* threads.c -- one search, one graph, cfg.threads threads (tree parallelism with
 * virtual loss; docs/search.md, "Threads").
 *
 * Every thread runs the iteration of mcts.c in its three phases:
 *   1. with the graph's lock held (it spins, then sleeps; below): the descent and expansion
 *      (miai_mcts_descend), then a virtual loss of cfg.virtual_loss visits on every
 *      edge of its path;
 *   2. without the lock: the playout, on the thread's own state buffer, random
 *      stream and trace buffer (miai_mcts_evaluate_on reads only s->game, s->cfg);
 *   3. with the lock: the virtual loss taken back, then the visit counted and backed
 *      up (miai_mcts_record), exactly as the single-threaded loop does.
 * Phase 3 of one iteration and phase 1 of the thread's next share one hold of the
 * lock (worker_loop).
 * While it holds the lock a thread installs its own buffers (work, moves, taken, path,
 * rng, trace) in s, so the policies and the graph code run unchanged: one thread at a
 * time touches the graph (arenas grown by realloc, the transposition table, policy
 * data), which makes every structural change -- a node created and entered in the
 * table, an edge block allocated, a child linked -- atomic with respect to the other
 * threads: a position never gets two nodes, and no edge or visit is lost.  Lazy edges
 * are off with threads (mcts.c): paths in flight hold edge indices, which a lazy
 * block's move would change.
 *
 * The threads' paths in flight (worker.in_flight) are readable under the lock:
 * miai_virtual_visits tells a policy how much of an edge's n is virtual (UCT*'s
 * pruning judges the payoffs received).
 *
 * Limits: iteration budgets are claimed with an atomic counter (the total is exactly
 * the budget); the stop flag and the deadline are read by every thread before each
 * iteration (the clock every MIAI_THREAD_TIME_EVERY of its iterations).  Thread i > 0
 * draws its seed from the search's stream at the start of a run; thread 0 continues
 * the search's stream, which it hands back at the end.  A game's playout memory
 * (game.h, e.g. Go's last-good-reply table) is never shared: thread 0 plays out on the
 * search's own, every other thread on a fresh one for the run.  Each thread's buffers
 * and bookkeeping sit on cache lines of their own (line_alloc): a line written by two
 * cores ping-pongs between them at every write.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcts.h"

#define MIAI_THREAD_TIME_EVERY 8u

/* The graph's lock: test-and-test-and-set, spinning a while, then asleep.  It is held
 * for a descent or a backup, a few microseconds; a pthread mutex alone puts a waiter to
 * sleep in the kernel and wakes it with a system call at nearly every hand-over, which
 * cost more than the work it guards (docs/benchmarks.md, "Threads").  So a waiter spins
 * first; one that has spun MIAI_SPINS_BEFORE_SLEEP times (the holder is not running:
 * more threads than free cores, a busy machine) sleeps on a condition variable and
 * leaves its core to the holder.
 *
 * No lost wake-up: a sleeper counts itself in `sleepers` and tries the flag again under
 * `m` before it waits; the holder clears the flag, then reads `sleepers` (both
 * sequentially consistent), and if it is not 0 signals under `m`.  Either the holder's
 * read sees the sleeper, which is then waiting or about to retry under `m`, or the
 * sleeper's retry comes after the clear and takes the lock. */
#ifndef MIAI_SPINS_BEFORE_SLEEP /* tests build with 1: every wait sleeps */
#define MIAI_SPINS_BEFORE_SLEEP 4096u
#endif

typedef struct {
    alignas(64) atomic_bool held;   /* with sleepers, alone on its cache line */
    atomic_uint sleepers;
    pthread_mutex_t m;              /* for sleeping only */
    pthread_cond_t wake;
} graph_lock;

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static int graph_lock_init(graph_lock *l) {
    atomic_init(&l->held, false);
    atomic_init(&l->sleepers, 0u);
    if (pthread_mutex_init(&l->m, NULL) != 0) return MIAI_ENOMEM;
    if (pthread_cond_init(&l->wake, NULL) != 0) {
        pthread_mutex_destroy(&l->m);
        return MIAI_ENOMEM;
    }
    return MIAI_OK;
}

static void graph_lock_destroy(graph_lock *l) {
    pthread_cond_destroy(&l->wake);
    pthread_mutex_destroy(&l->m);
}

static void graph_lock_take(graph_lock *l) {
    for (uint32_t spins = 0; spins < MIAI_SPINS_BEFORE_SLEEP; spins++) {
        if (!atomic_load_explicit(&l->held, memory_order_relaxed) &&
            !atomic_exchange_explicit(&l->held, true, memory_order_acquire))
            return;
        cpu_relax();
    }
    pthread_mutex_lock(&l->m);
    atomic_fetch_add(&l->sleepers, 1u);
    while (atomic_exchange(&l->held, true)) pthread_cond_wait(&l->wake, &l->m);
    atomic_fetch_sub(&l->sleepers, 1u);
    pthread_mutex_unlock(&l->m);
}

static void graph_lock_give(graph_lock *l) {
    atomic_store(&l->held, false);
    if (atomic_load(&l->sleepers) != 0) {
        pthread_mutex_lock(&l->m);
        pthread_cond_signal(&l->wake);
        pthread_mutex_unlock(&l->m);
    }
}

typedef struct worker worker;

typedef struct {
    graph_lock lock;
    miai_search *s;
    uint64_t budget;             /* 0: none */
    atomic_uint_fast64_t claimed;
    double deadline;             /* <= 0: none */
    atomic_bool time_up;
    worker *workers;
    uint32_t n_workers;
} shared;

struct worker {
    alignas(64) shared *sh;  /* each worker on its own cache lines */
    pthread_t tid;
    bool started;
    uint8_t *work;
    miai_move *moves;
    uint8_t *taken;
    miai_path path;
    miai_rng rng;
    miai_move *trace;
    uint32_t trace_len;
    int32_t trace_role;
    uint8_t *leaf;
    void *memory;       /* the game's playout memory (game.h): the search's own for
                         * thread 0, a fresh one per other thread, never shared */
    bool own_memory;    /* memory was allocated here (freed with the worker) */
    miai_mast mast;     /* cfg.mast: the thread's own table (a copy of the search's at
                         * the run's start) and playout scratch */
    bool in_flight;     /* its path holds a virtual loss (read and written under the lock) */
    uint64_t playouts;  /* since it last reported under the lock */
    uint64_t done;
    double held;        /* seconds it held the lock */
    double waited;      /* seconds it waited for it */
};

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A thread's own memory on cache lines of its own (zeroed): two threads writing
 * neighbouring bytes of one line would pass the line between their cores. */
static void *line_alloc(size_t size) {
    size_t rounded = (size + 63u) & ~(size_t)63u;
    void *p = aligned_alloc(64, rounded ? rounded : 64);
    if (p) memset(p, 0, rounded ? rounded : 64);
    return p;
}

static int worker_alloc(worker *w, const miai_search *s, bool first) {
    const miai_game_facts *f = &s->game->facts;
    if (s->playout_memory) {
        if (first) {
            w->memory = s->playout_memory;
        } else {
            const miai_game_ops *ops = s->game->ops;
            if (!(w->memory = line_alloc(ops->playout_memory(s->game)))) return MIAI_ENOMEM;
            w->own_memory = true;
        }
    }
    w->work = line_alloc(f->state_size);
    w->moves = line_alloc(sizeof(miai_move) * (f->max_legal ? f->max_legal : 1));
    w->taken = line_alloc(f->max_legal ? f->max_legal : 1);
    w->path.cap = s->path.cap;
    w->path.steps = line_alloc(sizeof(miai_step) * w->path.cap);
    if (s->trace) w->trace = line_alloc(sizeof(miai_move) * (s->trace_cap ? s->trace_cap : 1));
    if (s->cfg.leaf_playouts > 1) w->leaf = line_alloc(f->state_size);
    if (s->cfg.mast) {
        const miai_mast *t = &s->mast;
        size_t cells = (size_t)t->n_roles * t->num_moves;
        w->mast = (miai_mast){.n_roles = t->n_roles, .num_moves = t->num_moves,
                              .eps = t->eps, .temp = t->temp, .seen_cap = t->seen_cap};
        w->mast.sum = line_alloc(cells * sizeof *t->sum);
        w->mast.n = line_alloc(cells * sizeof *t->n);
        w->mast.seen = line_alloc(sizeof *t->seen * (t->seen_cap ? t->seen_cap : 1));
        w->mast.buf = line_alloc(sizeof *t->buf * (f->max_legal ? f->max_legal : 1));
        if (!w->mast.sum || !w->mast.n || !w->mast.seen || !w->mast.buf) return MIAI_ENOMEM;
        memcpy(w->mast.sum, t->sum, cells * sizeof *t->sum);
        memcpy(w->mast.n, t->n, cells * sizeof *t->n);
    }
    if (!w->work || !w->moves || !w->taken || !w->path.steps || (s->trace && !w->trace) ||
        (s->cfg.leaf_playouts > 1 && !w->leaf))
        return MIAI_ENOMEM;
    return MIAI_OK;
}

static void worker_free(worker *w) {
    free(w->work);
    free(w->moves);
    free(w->taken);
    free(w->path.steps);
    free(w->trace);
    free(w->leaf);
    if (w->own_memory) free(w->memory);
    free(w->mast.sum);
    free(w->mast.n);
    free(w->mast.seen);
    free(w->mast.buf);
}

/* The thread's buffers in s (the lock held). */
static void install(miai_search *s, worker *w) {
    s->work = w->work;
    s->moves = w->moves;
    s->taken = w->taken;
    s->path = w->path;
    s->rng = w->rng;
    s->leaf = w->leaf;
    if (s->cfg.mast) s->mast = w->mast; /* the descent's moves go to the thread's table */
}

static void take_back(miai_search *s, worker *w) {
    w->path = s->path;
    w->rng = s->rng;
}

static bool keep_going(shared *sh, worker *w) {
    miai_search *s = sh->s;
    if (atomic_load_explicit(&s->stop, memory_order_relaxed)) return false;
    if (sh->deadline > 0) {
        if (atomic_load_explicit(&sh->time_up, memory_order_relaxed)) return false;
        if (w->done % MIAI_THREAD_TIME_EVERY == 0 && now_seconds() >= sh->deadline) {
            atomic_store_explicit(&sh->time_up, true, memory_order_relaxed);
            return false;
        }
    }
    if (sh->budget &&
        atomic_fetch_add_explicit(&sh->claimed, 1, memory_order_relaxed) >= sh->budget)
        return false;
    return true;
}

uint32_t miai_virtual_visits(const miai_search *s, uint32_t edge) {
    const shared *sh = s->threads;
    if (!sh) return 0;
    uint32_t paths = 0;
    for (uint32_t i = 0; i < sh->n_workers; i++) {
        const worker *w = &sh->workers[i];
        if (!w->in_flight) continue;
        for (uint32_t k = 0; k < w->path.len; k++) paths += w->path.steps[k].edge == edge;
    }
    return paths * s->cfg.virtual_loss;
}

/* One hold of the lock per iteration: the backup of the thread's previous iteration,
 * then the descent of its next one.  The top of the new path is mostly the top of the
 * one just backed up, whose cache lines the backup has just brought to this core; with
 * a hold for each, the other threads' holds came between and took them away again,
 * and every hand-over of the lock costs its own transfers. */
static void *worker_loop(void *arg) {
    worker *w = arg;
    shared *sh = w->sh;
    miai_search *s = sh->s;
    uint32_t vloss = s->cfg.virtual_loss;
    double rewards[MIAI_MAX_ROLES];
    miai_eval ev = {.work = w->work, .rng = &w->rng, .trace = w->trace,
                    .trace_cap = s->trace_cap, .trace_len = &w->trace_len,
                    .trace_role = &w->trace_role, .leaf = w->leaf, .playouts = &w->playouts,
                    .playout_memory = w->memory, .mast = s->cfg.mast ? &w->mast : NULL};
    bool pending = false; /* a playout done, its backup not yet */
    for (;;) {
        bool more = keep_going(sh, w);
        if (!more && !pending) break;
        double t0 = now_seconds();
        graph_lock_take(&sh->lock);
        double t1 = now_seconds();
        install(s, w);
        if (pending) {
            if (s->trace) {
                memcpy(s->trace, w->trace, sizeof *w->trace * w->trace_len);
                s->trace_len = w->trace_len;
                s->trace_role = w->trace_role;
            }
            s->playouts += w->playouts;
            w->playouts = 0;
            if (vloss) miai_mcts_virtual_loss(s, &s->path, vloss, false);
            w->in_flight = false;
            miai_mcts_record(s, rewards);
            w->done++;
            pending = false;
        }
        /* a proof or a stop request may have come with that backup */
        if (more && atomic_load_explicit(&s->stop, memory_order_relaxed)) more = false;
        if (more) {
            miai_mcts_descend(s);
            if (vloss) miai_mcts_virtual_loss(s, &s->path, vloss, true);
            w->in_flight = vloss != 0;
        }
        take_back(s, w);
        graph_lock_give(&sh->lock);
        double t2 = now_seconds();
        w->held += t2 - t1;
        w->waited += t1 - t0;
        if (!more) break;
        miai_mcts_evaluate_on(s, &ev, rewards);
        pending = true;
    }
    return NULL;
}

/* MAST with threads: each thread learns in its own copy of the search's table (a
 * playout reads the table at every move, outside the lock: a shared one would be read
 * while other threads' backups write it).  At the end of the run the search's table
 * gets every thread's additions. */
static void mast_merge(miai_mast *t, const worker *ws, uint32_t n) {
    size_t cells = (size_t)t->n_roles * t->num_moves;
    for (size_t c = 0; c < cells; c++) {
        double sum = t->sum[c];
        uint32_t count = t->n[c];
        for (uint32_t i = 0; i < n; i++) {
            sum += ws[i].mast.sum[c] - t->sum[c];
            count += ws[i].mast.n[c] - t->n[c];
        }
        t->sum[c] = sum;
        t->n[c] = count;
    }
}

int miai_search_run_threads(miai_search *s, uint64_t max_iterations, double max_seconds,
                            uint64_t *done) {
    uint32_t n = s->cfg.threads;
    worker *ws = line_alloc(n * sizeof *ws);
    if (!ws) return MIAI_ENOMEM;
    double start = now_seconds();
    shared sh = {.s = s, .budget = max_iterations,
                 .deadline = max_seconds > 0 ? start + max_seconds : 0.0, .workers = ws,
                 .n_workers = n};
    atomic_init(&sh.claimed, 0);
    atomic_init(&sh.time_up, false);
    int rc = graph_lock_init(&sh.lock);
    if (rc != MIAI_OK) {
        free(ws);
        return rc;
    }
    for (uint32_t i = 0; i < n && rc == MIAI_OK; i++) {
        ws[i].sh = &sh;
        rc = worker_alloc(&ws[i], s, i == 0);
    }
    /* The search's own buffers, put back at the end. */
    uint8_t *own_work = s->work, *own_taken = s->taken, *own_leaf = s->leaf;
    miai_move *own_moves = s->moves;
    miai_path own_path = s->path;
    miai_mast own_mast = s->mast; /* not written during the run: its start */
    if (rc == MIAI_OK) {
        for (uint32_t i = 1; i < n; i++) miai_rng_seed(&ws[i].rng, miai_rng_next(&s->rng));
        ws[0].rng = s->rng;
        s->threads = &sh;
        for (uint32_t i = 1; i < n; i++) {
            if (pthread_create(&ws[i].tid, NULL, worker_loop, &ws[i]) != 0) {
                /* fewer threads than asked: the ones running finish the budget */
                break;
            }
            ws[i].started = true;
        }
        worker_loop(&ws[0]);
        for (uint32_t i = 1; i < n; i++)
            if (ws[i].started) pthread_join(ws[i].tid, NULL);
        s->rng = ws[0].rng;
        s->threads = NULL;
        if (s->cfg.mast) mast_merge(&own_mast, ws, n);
    }
    s->mast = own_mast;
    s->work = own_work;
    s->moves = own_moves;
    s->taken = own_taken;
    s->leaf = own_leaf;
    own_path.len = 0;
    s->path = own_path;
    uint64_t total = 0;
    double end = now_seconds();
    for (uint32_t i = 0; i < n; i++) {
        s->lock_held_seconds += ws[i].held;
        s->lock_wait_seconds += ws[i].waited;
        if (i == 0 || ws[i].started) s->thread_seconds += end - start;
        total += ws[i].done;
        worker_free(&ws[i]);
    }
    free(ws);
    graph_lock_destroy(&sh.lock);
    s->seconds += end - start;
    *done = total;
    return rc;
}
