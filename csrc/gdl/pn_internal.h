/* pn_internal.h -- the propnet game's private data: the net, the state's layout and
 * each playout engine's tables, with the constants and small inline helpers they share.
 *
 * Not a public header (no _api suffix): nothing outside csrc/gdl/ includes it.  It
 * declares no function of a .c file: each file's own header does (pn_plain.h,
 * pn_bits.h, pn_diff.h, pn_lanes.h, pn_engine.h), and a file includes the headers of
 * the files it calls, which form a DAG:
 *   propnet.c -> pn_engine.c -> {pn_diff*.c, pn_bits.c, pn_lanes.c} -> pn_plain.c
 * (propnet.c and pn_engine.c also call pn_plain.c; pn_lanes.c calls no other file).
 * The data is immutable after miai_gdl_create; every evaluation keeps its node values
 * on the caller's stack.
 */
#ifndef MIAI_PN_INTERNAL_H
#define MIAI_PN_INTERNAL_H

#include <stdint.h>

#include "../core/game.h"
#include "../core/zobrist.h"
#include "gdl_api.h"

#define PN_RANGE_FLAG 0x80000000u
#define PN_TEXT_MAX 4096
/* The differential engine keeps 5 bytes and a bit per node on the stack: above this
 * many nodes playouts use the plain evaluation (miai_generic_playout). */
#define PN_DIFF_MAX_NODES 262144u
/* play() uses the differential engine from this many nodes up, the plain evaluation
 * below (measured, MCTS iterations per second: buttons, 47 nodes, 800 k plain against
 * 652 k differential; switches, 25 nodes, 4.5 M against 3.9 M; maze, 74 nodes, 374 k
 * against 487 k; Tic-tac-toe, 116 nodes, 178 k against 343 k) -- where the
 * word-parallel evaluation (pn_bits.c) does not come first. */
#define PN_DIFF_PLAY_MIN_NODES 64u

/* A node as evaluation reads it: one 12-byte record instead of three arrays. */
typedef struct {
    uint32_t kind;
    uint32_t a; /* BASE/INPUT/MOVESET: arg; gates: first input */
    uint32_t b; /* gates: one past the last input */
} pn_op;

enum { PROG_STATUS, PROG_NEXT, PROG_GOAL };

/* An edge of the differential engine (4 bytes): the gate it reaches, and whether that
 * gate's counter goes down when the node turns true (an input of a NOT) or is not
 * counted at all (a gate of a cyclic range, settled by reading its inputs). */
#define PN_EDGE_NEGATED 0x80000000u
#define PN_EDGE_RANGE 0x40000000u
#define PN_EDGE_NODE 0x3fffffffu

/* A node value of the differential engine: bit 0 the value, bit 1 the old value while
 * a range settles, PN_V_RANGE on the nodes of cyclic ranges, PN_V_EXTRA on the nodes
 * with family links (pn_xspan). */
#define PN_V_RANGE 0x80u
#define PN_V_EXTRA 0x40u

/* The links of node i in pn_diff_tables.link: [edge, neg) the gates that count it
 * true, [neg, range) the NOT gates that count it false, [range, watch) the range gates
 * it feeds, [watch, end) its watches. */
typedef struct {
    uint32_t edge, neg, range, watch, end;
} pn_span;

/* The family links of a node whose value carries PN_V_EXTRA: [guard, group) the ANDs
 * it guards, [group, end) its groups (indices into pn_diff_tables.group); fam: its
 * family + 1 (0: not a member), idx its index there, PN_XS_BASE in a base family. */
#define PN_XS_BASE 0x80000000u
typedef struct {
    uint32_t guard, group, end, fam, idx;
} pn_xspan;

/* Mutex families in the differential engine (engine/gdl/mutex.py proves them: base
 * families, at most one member true in every reachable state; gate families, at most
 * one true in every state a wave settles on: a reachable state under the joint move of
 * the ply, of the last ply, or none).  An AND outside ranges and lazy gates that reads
 * a member (of the largest family, when several) may be *guarded* by it: while the
 * member is false the AND is false whatever its other inputs do.  A node's edges into
 * the ANDs guarded by one family form a group when there are PN_GROUP_MIN or more (and
 * at least 1/PN_GROUP_SPARSE of the family's size): the node's change then steps only
 * the ANDs guarded by the member that holds, which the work block keeps per family
 * (gt_prisoner: a move reached an AND per score, 2 of 200 now).  A guarded AND's
 * counter is exact while its guard holds and is the family's current member; else it
 * may lag, and stays < 0 (the guard counts 0, every other input at most 1).  When the
 * guard rises the AND is counted again from its inputs' values (pn_guard_rise).
 * Within a wave each node changes once, so the last member to rise is the one that
 * holds when it settles; members of a gate family may overlap while gates settle in
 * index order (one rises before another falls), which only delays steps into ANDs
 * whose guard is about to fall.  A ply's bases fall before they rise: a base member
 * rising while another holds is a state the rules do not allow (pn_wave.broken), and
 * the playout goes on by the plain evaluation.  Following families costs a call and
 * a recount where a guard changes; pn_diff_calibrate keeps them only where its
 * playouts count less work with them. */
#define PN_GROUP_MIN 4u
#define PN_GROUP_SPARSE 8u
/* An AND of at most this many inputs takes as its guard the member under which most of
 * its other inputs form groups (pn_guard_pick); a wider one, the member of the largest
 * family (the count of (input, family) pairs grows with the square of the fan-in). */
#define PN_GUARD_SCORE_FANIN 16u

typedef struct {
    uint32_t fam; /* the family whose true member picks the gates */
    uint32_t off; /* its offsets: gfirst[off + k], k = 0..family size */
    uint32_t src; /* the node whose changes it carries */
} pn_group;

/* A watch: slot << PN_WATCH_ROLE_SHIFT | bit (a legal-move bit; slot r + 1 for role r's
 * moves, r + 1 + MIAI_MAX_ROLES for its guarded ones: pn_wave's count), or a bit alone
 * (a next-state bit); bits index the work block's next | legal words. */
#define PN_WATCH_ROLE_SHIFT 27
#define PN_WATCH_INDEX 0x07ffffffu

/* The work block of a playout, one array of words (pn_diff.c, pn_wave_layout):
 * dirty bits | dirty words | next-state bits | legal-move bits | counts | counters |
 * each family's true member (index + 1, 0: none) | values. */
typedef struct {
    uint32_t dirty, dsum, next, legal, count, cnt, cur, v, words;
} pn_layout;

typedef struct {
    uint8_t enabled;         /* 0: playouts fall back to the generic loop */
    uint32_t *range_id;      /* [n] range index + 1, 0 outside every range */
    pn_span *span;           /* [n] its links */
    uint32_t *link;          /* edges, range edges and watches of every node */
    uint32_t *base_first;    /* [n_base + 1] offsets into base_nodes */
    uint32_t *base_nodes;    /* BASE nodes of each base proposition */
    uint32_t *input_first;   /* [total moves + 1] offsets into input_nodes */
    uint32_t *input_nodes;   /* INPUT nodes of each global move */
    uint32_t *set_first;     /* [total moves + 1] offsets into set_nodes */
    uint32_t *set_nodes;     /* MOVESET nodes whose set holds each global move, increasing */
    /* Lazy gates: outside every range and needed by the goals only (not by the legal
     * moves, their guards, the next state or terminal).  No link of `link` reaches
     * them, so a ply never touches them: their values and counters stay the
     * snapshot's (the initial state's) until a playout ends.  Then the goal wave
     * (pn_goal_wave) sends them what changed since the snapshot: the frontier nodes
     * (not lazy, read by a lazy gate) whose value differs from the snapshot's step the
     * counters of their lazy readers through `lazy_link`, and the lazy gates settle
     * like any wave.  On a net with fewer than PN_GOAL_WAVE_MIN_EDGES edges into lazy
     * gates, or with more than half as many frontier nodes as such edges, they are
     * evaluated instead, each from its inputs in index order: the wave's fixed cost,
     * or its reading the whole frontier, is then more than that (measured with the
     * wave: tictactoe 1.5 %, coins 2.2 %, twisty-passages 1.4 % more instructions a
     * playout; twisty's goal is one OR of 200 cells). */
    uint32_t n_lazy;
    uint32_t *lazy;          /* [n_lazy] increasing */
    uint8_t *is_lazy;        /* [n] */
    uint8_t goal_wave;       /* 1: the goal wave, 0: evaluate the lazy gates */
    uint32_t *lazy_first;    /* [n + 1] offsets into lazy_link */
    uint32_t *lazy_link;     /* the lazy gates reading each node (PN_EDGE_NEGATED: a NOT) */
    uint32_t n_front;
    uint32_t *front;         /* [n_front] the frontier nodes, increasing */
    /* Mutex families (PN_GROUP_MIN above): base families first, then gate families. */
    uint32_t n_fam;
    uint32_t *fam_size;      /* [n_fam] members (0: a gate family not used, lazy) */
    pn_xspan *xspan;         /* [n] */
    uint32_t *guard_of;      /* [n] a guarded AND's guard node, else 0 */
    uint32_t n_groups, n_guarded;
    uint8_t fam;             /* families are followed (a group exists) */
    uint8_t guard_pick;      /* the way guards were picked (PN_FAM_BY_GROUPS, _BY_SIZE) */
    uint8_t base_fam_used;   /* a base family is followed: bases fall before they rise */
    pn_group *group;         /* [n_groups] */
    uint32_t *gfirst;        /* the groups' offsets into glink, by member index */
    uint32_t *glink;         /* the guarded ANDs of each group, by member index */
    /* The snapshot: the work block of the initial state, no move played.  A playout
     * starts from a copy and propagates the bases where its state differs. */
    pn_layout lay;
    uint64_t *base0;         /* [base_words] the initial state's base bits */
    uint64_t *work0;         /* [lay.words] */
    /* 1: a ply clears the joint move before the bases propagate (pn_diff_ply), chosen
     * when the game is made (pn_diff_calibrate). */
    uint8_t clear_joint;
    /* a ply's bases that change are found word by word, and bit j of a mask stands for
     * base words [j << bshift, (j + 1) << bshift) that differ: only those are sent out
     * (bases_all: every word) */
    uint8_t bshift;
    uint64_t bases_all;
} pn_diff_tables;

/* States of at most this many base words send out every word's changes without
 * marking them first: the marks pay only on big states (callgrind, instructions a
 * playout against every word: kalaha_2009, 48 words, 2.3 % fewer; gt_prisoner, 5
 * words, 3.3 % more; knightwar, 13 words, 2.8 % more). */
#define PN_BASES_SCAN_WORDS 32u

#define PN_GOAL_WAVE_MIN_EDGES 64u

/* pn_bits.c: nets of at most 128 nodes evaluated in one or two words. */
#define PN_BITS_WORDS 2
#define PN_BITS_MAX_NODES (64u * PN_BITS_WORDS)
/* Nets of at most this many nodes always use it; bigger ones when a ply evaluates at
 * most PN_BITS_RATIO times as many gates as the differential engine changes nodes and
 * walks links (pn_bits_choose). */
#define PN_BITS_ALWAYS_NODES 64u
#define PN_BITS_RATIO 1.5

/* Node values, a bit per node (word 1 unused on nets of one word). */
typedef struct {
    uint64_t w[PN_BITS_WORDS];
} pn_bval;

/* A gate of the word-parallel evaluation: its node, `set`, becomes
 * (((values ^ flip) & mask) == want) ^ inv -- an AND of the nodes of mask (want = mask),
 * an OR (want = 0, inv = 1), a NOT (an AND of its input flipped). */
typedef struct {
    pn_bval mask, flip, want, set;
    uint64_t inv;
} pn_bgate;

/* A level of a program: its gates read only nodes of lower levels, so they are
 * evaluated from the same values (independent: the CPU overlaps them) and their nodes,
 * `mask`, written at once.  They come in four groups, ending at end[0..3]: inputs and
 * node in word 0; inputs in word 0, node in word 1; inputs in word 1; inputs in both. */
typedef struct {
    pn_bval mask;
    uint32_t end[4];
} pn_blevel;

typedef struct {
    uint8_t built;       /* tables built: at most PN_BITS_MAX_NODES nodes, no cycle */
    uint8_t enabled;     /* playouts and play() use it (pn_bits_choose) */
    uint8_t one_word;    /* at most 64 nodes: word 1 and the last three groups unused */
    pn_bgate *gate[3];   /* the gates of the programs status, next and goal, by level */
    uint32_t n_gate[3];
    pn_blevel *level[3];
    uint32_t n_level[3];
    pn_bval true_bits;   /* the TRUE nodes */
    pn_bval move_all;    /* every INPUT and MOVESET node */
    pn_bval *move_mask;  /* [total_moves] the nodes a move makes true */
    pn_bval *base_mask;  /* [n_base] the BASE nodes of each base proposition */
} pn_bits_tables;

/* pn_lanes.c: batches of playouts run 64 at a time, a lane per game. */
#define PN_LANES_MAX_NODES 262144u /* 2 MB of node values a batch */
#define PN_LANES_MAX_MOVES 65536u  /* moves of one role: 16 MB of lists a batch */
/* A ply of the lanes is worth n plies one by one when its work (pn_lanes_tables: the
 * same whatever the number of games) is PN_LANES_RATIO x n x the differential engine's
 * node changes and links a ply (pn_diff_calibrate's count); nets with n < 64 run a
 * batch in the lanes when it has enough games that its plies, as many as its longest
 * game's, cost less than its games' plies one by one (pn_lanes_choose).  The two counts weigh
 * unlike work (a lane's node is a load and an AND, the differential engine's a walk of
 * scattered links), so the ratio is measured (bench_gdl.py, batches of 64 and more,
 * 2026-11-26): lanes 2.5x faster at 1.20 (knightwar), 2.9x at 1.30 (battle), 6.3x at
 * 1.16 (queens), 2.6x at 0.66 (breakthrough), but 0.5x at 3.0 (twisty-passages) and
 * 4.12 (kalaha_2009). */
#define PN_LANES_RATIO 2.5
/* A batch of under 64 games takes the lanes when they cost at most this much of one by
 * one by that count: a lane's own work (its draws, its moves' list) is left out of
 * `work` (snake2p: 0.92x on 25 playouts where the count said 1.0x). */
#define PN_LANES_MARGIN 0.7
/* Batches under this stay one by one: a batch's tables cost a few allocations, more
 * than a few playouts of the smallest nets (blocks: 0.92x on 3 playouts). */
#define PN_LANES_MIN_BATCH 8u
/* A batch's next playout starts from where the last one ended (pn_diff_playouts)
 * unless that is more bases away from its start than the snapshot is, plus one base
 * for every PN_RESTART_WORDS words of the work block: the copy of the snapshot that
 * way saves (measured 2026-11-26, playouts a CPU second from the initial state, one by
 * one / this rule / always from the last end: kalaha_2009, 65 k words, 9,271 / 10,204 /
 * 10,102; connectFour 302 k / 305 k / 222 k; breakthrough 26.9 k / 27.1 k / 25.3 k). */
#define PN_RESTART_WORDS 512u
/* pn_diff_calibrate's playouts (each way of a differential ply). */
#define PN_CALIBRATION_PLAYOUTS 16

/* Guarded blocks (pn_lanes_calibrate): a program entry PN_LANES_BLOCK | b is followed
 * by blk_len[b] ANDs that all read node blk_guard[b].  Where the guard's word is 0 in
 * every lane, so are theirs: the run skips them, setting them to 0 once (a batch's
 * zero flag per block says they are).  A block is made of at least PN_LANES_BLOCK_MIN
 * ANDs of one depth in the net whose least often true input (in a calibration batch)
 * is the guard, true in at most PN_LANES_BLOCK_RATE of the calibration's runs, and that
 * lie in no other program (which could write them behind the flag's back). */
#define PN_LANES_BLOCK 0x40000000u
#define PN_LANES_PUSHED 0x20000000u /* an OR that its blocks' ANDs push into */
#define PN_LANES_PUSH 0x10000000u  /* an AND of a block that pushes into ORs */
#define PN_LANES_BLOCK_MIN 4u
#define PN_LANES_BLOCK_RATE 0.5
/* The blocks are kept when the lanes' work with them is at most this much of their
 * work without (the lanes forced on batches of 20,000 playouts, 2026-11-26, work and
 * rate with/without: battle 0.56 and 1.22x, kalaha_2009 0.063 and 8.1x, but
 * knightwar 0.78 and 0.99x, pacman3p 0.79 and 0.93x, Connect Four 0.87 and 0.84x,
 * 3pConnectFour 0.85 and 0.81x: a header and the pushes cost more than they skip). */
#define PN_LANES_BLOCK_GAIN 0.6
/* The calibration batch of the lanes (pn_lanes_calibrate): this many playouts from the
 * initial state, cut at 2^PN_LANES_CALIB_SHIFT / nodes plies (at least 4). */
#define PN_LANES_CALIB_PLAYOUTS 64u
#define PN_LANES_CALIB_SHIFT 24

typedef struct {
    uint8_t built;     /* at most PN_LANES_MAX_NODES nodes, PN_LANES_MAX_MOVES moves a role */
    uint32_t min_batch; /* batches of this many or more use them, 0: none (pn_lanes_choose) */
    /* the programs status, next without the status nodes that do not read the joint
     * move, goal without the status nodes; with guarded blocks once calibrated */
    uint32_t *prog[3];
    uint32_t len[3];
    uint32_t n_blocks;
    uint32_t *blk_guard, *blk_len; /* [n_blocks] */
    uint32_t n_pushed;             /* ORs pushed into (pn_lanes_pushes) */
    uint32_t *pushed_node, *pushed_first, *lin;
    uint32_t *push_id, *push_first, *push_to;
    uint64_t work;     /* nodes and edges a ply evaluates, the legal moves, the bases */
    uint32_t *set_first, *set_move; /* [n_sets + 1] offsets, the moves of each move set */
} pn_lanes_tables;

typedef struct {
    uint32_t n_nodes;
    pn_op *op;
    uint8_t *kind;
    uint32_t *arg, *first_in, *in;
    uint32_t n_ranges;
    uint32_t *range_lo, *range_hi;
    uint32_t n_base, base_words;
    uint32_t *next_node;
    uint8_t *init;
    char **base_text;
    uint32_t n_roles;
    uint32_t n_moves[MIAI_MAX_ROLES];
    uint32_t move_off[MIAI_MAX_ROLES + 1];
    uint32_t total_moves, legal_words, goal_words;
    uint32_t *legal_node, *input_role, *input_move;
    uint32_t legal_guard[MIAI_MAX_ROLES]; /* node 1 (true) when the role has none */
    uint64_t *guarded;                    /* [legal_words] moves legal only with the guard */
    char **move_text;
    uint32_t terminal_node;
    uint32_t n_goals;
    uint32_t *goal_role, *goal_value, *goal_node;
    uint32_t *prog[3];
    uint32_t prog_len[3];
    uint32_t n_sets, set_words;   /* set k: bits [k * set_words, (k + 1) * set_words) of */
    uint32_t *set_roles;          /* global moves; [n_sets] the roles it holds moves of */
    uint64_t *set_bits;
    miai_zkey *zbase;
    uint32_t n_families;          /* mutex families of bases (gdl_api.h) */
    uint32_t *family_first, *family_base;
    uint32_t n_gate_families;     /* mutex families of gates (gdl_api.h) */
    uint32_t *gate_family_first, *gate_family_node;
    pn_diff_tables diff;
    pn_bits_tables bits;
    pn_lanes_tables lanes;
} pn_data;

/* A state: the head, base_words of base bits, legal_words of legal-move bits (global
 * move index), then goal_words holding one byte per role: the role's goal (the largest
 * that holds, 0 when none) in a state whose to_move is MIAI_NOBODY, else 0. */
typedef struct {
    miai_head head;
    uint64_t bits[];
} pn_state;

static inline uint64_t *pn_legal_words(const pn_data *d, pn_state *s) {
    return s->bits + d->base_words;
}

static inline uint8_t *pn_goal_bytes(const pn_data *d, pn_state *s) {
    return (uint8_t *)(s->bits + d->base_words + d->legal_words);
}

/* A gate (computed from inputs), not a source or a constant. */
static inline int pn_is_gate(uint8_t kind) {
    return kind == MIAI_PN_AND || kind == MIAI_PN_OR || kind == MIAI_PN_NOT;
}

static inline int pn_bit(const uint64_t *w, uint32_t i) {
    return (int)((w[i >> 6] >> (i & 63)) & 1u);
}

/* Set bits of x, inline where the target lacks POPCNT (no libgcc call). */
static inline uint32_t pn_popcount(uint64_t x) {
#ifdef __POPCNT__
    return (uint32_t)__builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (uint32_t)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* The k-th set bit of words[lo, hi) without the bits of drop & drop_on (k < their
 * count), minus lo: a move drawn from legal-move bits (drop_on ~0 leaves out the
 * guarded moves, pn_diff.c; 0 keeps every bit). */
static inline __attribute__((always_inline)) miai_move
pn_kth_bit(const uint64_t *words, const uint64_t *drop, uint64_t drop_on, uint32_t lo,
           uint32_t hi, uint32_t k) {
    if (lo >> 6 == (hi - 1) >> 6) { /* one word: the k-th bit is in it, no count */
        uint64_t x = words[lo >> 6] & ~(drop[lo >> 6] & drop_on) & ~0ULL << (lo & 63);
        while (k--) x &= x - 1;
        return (miai_move)((lo >> 6) * 64 + (uint32_t)__builtin_ctzll(x) - lo);
    }
    for (uint32_t w = lo >> 6; w <= (hi - 1) >> 6; w++) {
        uint64_t x = words[w] & ~(drop[w] & drop_on);
        if (w == lo >> 6) x &= ~0ULL << (lo & 63);
        if (w == (hi - 1) >> 6 && (hi & 63)) x &= ~0ULL >> (64 - (hi & 63));
        if (k == 0 && x) return (miai_move)(w * 64 + (uint32_t)__builtin_ctzll(x) - lo);
        uint32_t c = pn_popcount(x);
        if (k >= c) {
            k -= c;
            continue;
        }
        while (k--) x &= x - 1;
        return (miai_move)(w * 64 + (uint32_t)__builtin_ctzll(x) - lo);
    }
    return 0; /* unreachable for k < count */
}

/* The moves of legal-move bits [lo, hi) (minus lo), in increasing order, into out;
 * their count (drop_on as pn_kth_bit).  MAST's playouts list a mover's moves so. */
static inline uint32_t pn_list_bits(const uint64_t *words, const uint64_t *drop,
                                    uint64_t drop_on, uint32_t lo, uint32_t hi,
                                    miai_move *out) {
    uint32_t n = 0;
    if (hi <= lo) return 0;
    for (uint32_t w = lo >> 6; w <= (hi - 1) >> 6; w++) {
        uint64_t x = words[w] & ~(drop[w] & drop_on);
        if (w == lo >> 6) x &= ~0ULL << (lo & 63);
        if (w == (hi - 1) >> 6 && (hi & 63)) x &= ~0ULL >> (64 - (hi & 63));
        for (; x; x &= x - 1) out[n++] = (miai_move)(w * 64 + (uint32_t)__builtin_ctzll(x) - lo);
    }
    return n;
}

#endif
