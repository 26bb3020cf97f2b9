/* The exact endgame search (lexc.engine.endgame, in C): the bag is empty, both racks known.
 *
 * Negamax with alpha-beta (fail-soft), iterative deepening and a transposition table, over
 * the plays movegen.c's generator finds at each node on one mutable board whose cross-checks
 * are kept up to date as plays are made and taken back (only the squares at the ends of the
 * runs a play's tiles join change). The rules are engine/endgame.py's, which the pure-Python
 * search (the reference) also follows:
 *
 *   - a node's value is the points the side to move gains on the other from there to the
 *     end of the game, end-of-game rack points included;
 *   - a play that empties the mover's rack ends the game: its score plus twice the value of
 *     the other rack (the spread is the same under the add-and-subtract rule);
 *   - a pass ends the game when it is the second pass in a row of the search, or the sixth
 *     scoreless turn in a row (the position's count plus the search's passes); each side
 *     then loses the value of its own rack. Ending on the second pass keeps every value
 *     exact: two passes give the same board back, so a side that would rather play had
 *     played the first time (engine/README.md works it through);
 *   - the horizon: a node at depth 0 is not searched; an iteration in which no line met the
 *     horizon is exact (`complete`), and deepening stops there.
 *
 * Plays are the generator's records (RECORD bytes), kept per ply; a transposition entry
 * holds the 64-bit Zobrist key of board, racks, side to move, pass and scoreless count, the
 * value with its bound, the depth it was searched to (or complete: exact at any depth), and
 * the best play's 32-bit digest, tried first when the node is met again. Ordering: that play,
 * then plays going out (their value known), then by score. Scores are 64-bit; the search
 * refuses a position whose whole game could pass 2^61 points (gen_score_bound).
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SCORELESS_END 6   /* the sixth scoreless turn in a row ends the game */
#define INF_VALUE ((int64_t)1 << 62)
#define PASS_ID 0xFFFFFFFFu
#define NO_ID 0u

enum { BOUND_EXACT = 1, BOUND_LOWER = 2, BOUND_UPPER = 3 };
enum { GO_ON, STOP_TIME, STOP_SIGNAL, STOP_ERROR };

typedef struct {
    uint64_t key;
    int64_t value;
    uint32_t move;      /* the best play's digest (PASS_ID: the pass; NO_ID: none) */
    uint16_t depth;     /* the depth it was searched to */
    uint8_t bound;      /* BOUND_*; 0: an empty slot */
    uint8_t complete;   /* no line of its search met the horizon: good at any depth */
} Entry;

typedef struct { Py_ssize_t at; Cross old; } Undo;
typedef struct { int64_t key; uint32_t index; } Order;

typedef struct {
    Gen G;
    Lane *L;
    int n;
    uint8_t board[MAX_BOARD * MAX_BOARD];
    Cross *x;                    /* 2 n n: gen_all_cross's, kept up to date */
    int counts[2][128];          /* side 0: the mover at the root */
    int tiles[2];
    int64_t rack_value[2];
    uint64_t hash;               /* board and racks */
    int plies;                   /* the deepest ply a search can reach */
    Buf *plays;                  /* per ply: the node's records */
    Order **order;               /* per ply: the order they are tried in */
    Py_ssize_t *order_cap;
    Undo *undo;
    Py_ssize_t undo_len, undo_cap;
    Entry *tt;
    uint64_t tt_mask;
    unsigned long long nodes, edges;
    double deadline;             /* 0: none */
    int finished;                /* iterations finished: the deadline stops none before the first */
    int stop;
    uint64_t seed;
} Solver;

static double now_seconds(void) {
#if defined(CLOCK_MONOTONIC)
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
#else
    return (double)clock() / CLOCKS_PER_SEC;
#endif
}

static uint64_t mix64(uint64_t z) { /* splitmix64's finalizer */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
/* the Zobrist number of item i of kind k */
static inline uint64_t zob(const Solver *S, uint64_t k, uint64_t i) { return mix64(S->seed ^ (k << 56) ^ (i * 0x9E3779B97F4A7C15ULL)); }
static inline uint64_t z_square(const Solver *S, Py_ssize_t sq, int code) { return zob(S, 1, (uint64_t)sq * 256 + (uint64_t)code); }
static inline uint64_t z_rack(const Solver *S, int side, int letter, int count) {
    return zob(S, 2, ((uint64_t)side * 128 + (uint64_t)letter) * 256 + (uint64_t)(count & 0xFF));
}
static inline uint64_t z_state(const Solver *S, int me, int passed, int scoreless) {
    return zob(S, 3, (uint64_t)me) ^ (passed ? zob(S, 4, 0) : 0) ^ zob(S, 5, (uint64_t)scoreless);
}

/* a record's digest (its square, direction and tiles): how the table names a play */
static uint32_t play_id(const uint8_t *rec) {
    uint64_t h = 0xCBF29CE484222325ULL;
    int len = rec[REC_ROW + 3];
    for (int k = REC_ROW; k < REC_TILES + len; k++) h = (h ^ rec[k]) * 0x100000001B3ULL;
    uint32_t id = (uint32_t)(h ^ (h >> 32));
    return id == PASS_ID || id == NO_ID ? 1u : id;
}

static int tile_letter(int code) { return code & BLANK_FLAG ? 0 : code; }

static int push_undo(Solver *S, Py_ssize_t at) {
    if (S->undo_len == S->undo_cap) {
        Py_ssize_t cap = S->undo_cap ? 2 * S->undo_cap : 256;
        Undo *grown = realloc(S->undo, (size_t)cap * sizeof *grown);
        if (!grown) return -1;
        S->undo = grown;
        S->undo_cap = cap;
    }
    S->undo[S->undo_len].at = at;
    S->undo[S->undo_len].old = S->x[at];
    S->undo_len++;
    return 0;
}

/* the cross-check of empty square (r, c) for plays `down`, made anew (the old one logged) */
static int recheck(Solver *S, int r, int c, int down) {
    int n = S->n;
    Py_ssize_t at = (Py_ssize_t)down * n * n + (Py_ssize_t)r * n + c;
    if (push_undo(S, at) < 0) return -1;
    gen_cross(&S->G, S->board, r, c, down, &S->x[at]);
    return 0;
}

/* Tile `t` of side `me` onto square `sq` (`onto` 1) or back onto the rack (0): the board, the
 * rack's counts, tiles and value, and the hash, each the other's undo. */
static void shift_tile(Solver *S, int me, Py_ssize_t sq, int t, int onto) {
    int letter = tile_letter(t), step = onto ? -1 : 1;
    S->board[sq] = (uint8_t)(onto ? t : 0);
    S->hash ^= z_square(S, sq, t);
    S->hash ^= z_rack(S, me, letter, S->counts[me][letter]);
    S->counts[me][letter] += step;
    S->hash ^= z_rack(S, me, letter, S->counts[me][letter]);
    S->tiles[me] += step;
    S->rack_value[me] += step * (int64_t)S->G.values[letter];
}

/* Each tile a record puts down, `onto` the board or back off it */
static void shift_tiles(Solver *S, const uint8_t *rec, int me, int onto) {
    int n = S->n, row = rec[REC_ROW], col = rec[REC_ROW + 1], down = rec[REC_ROW + 2], len = rec[REC_ROW + 3];
    for (int k = 0; k < len; k++) {
        int t = rec[REC_TILES + k];
        if (t != THROUGH) shift_tile(S, me, (Py_ssize_t)(down ? row + k : row) * n + (down ? col : col + k), t, onto);
    }
}

/* Make the play `rec` for side `me`: its tiles on the board, off the rack, the cross-checks
 * at the ends of every run they join made anew. 0, or -1 out of memory. */
static int make_play(Solver *S, const uint8_t *rec, int me) {
    int n = S->n, row = rec[REC_ROW], col = rec[REC_ROW + 1], down = rec[REC_ROW + 2], len = rec[REC_ROW + 3];
    shift_tiles(S, rec, me, 1);
    for (int k = 0; k < len; k++) {
        if (rec[REC_TILES + k] == THROUGH) continue;
        int r = down ? row + k : row, c = down ? col : col + k, q;
        /* the run across through (r, c): its empty ends take new down cross-checks */
        for (q = c; q > 0 && S->board[r * n + q - 1]; q--) {}
        if (q > 0 && recheck(S, r, q - 1, 1) < 0) return -1;
        for (q = c; q + 1 < n && S->board[r * n + q + 1]; q++) {}
        if (q + 1 < n && recheck(S, r, q + 1, 1) < 0) return -1;
        /* the run down through it: its empty ends take new across cross-checks */
        for (q = r; q > 0 && S->board[(q - 1) * n + c]; q--) {}
        if (q > 0 && recheck(S, q - 1, c, 0) < 0) return -1;
        for (q = r; q + 1 < n && S->board[(q + 1) * n + c]; q++) {}
        if (q + 1 < n && recheck(S, q + 1, c, 0) < 0) return -1;
    }
    return 0;
}

/* Take back the play `rec` of side `me` (made with make_play; the undo log back to `mark`). */
static void unmake_play(Solver *S, const uint8_t *rec, int me, Py_ssize_t mark) {
    while (S->undo_len > mark) {
        S->undo_len--;
        S->x[S->undo[S->undo_len].at] = S->undo[S->undo_len].old;
    }
    shift_tiles(S, rec, me, 0);
}

static int placed_count(const uint8_t *rec) {
    int len = rec[REC_ROW + 3], k = 0;
    for (int i = 0; i < len; i++) k += rec[REC_TILES + i] != THROUGH;
    return k;
}

static inline int64_t rec_score(const uint8_t *rec) {
    int64_t s;
    memcpy(&s, rec, 8);
    return s;
}

static int by_key(const void *a, const void *b) {
    const Order *x = a, *y = b;
    if (x->key != y->key) return x->key > y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* the time (once an iteration has finished: there is a line to give) and Ctrl-C, looked at
 * every 1024 nodes */
static void look_up(Solver *S) {
    if (S->deadline > 0 && S->finished && now_seconds() > S->deadline) S->stop = STOP_TIME;
    if (PyErr_CheckSignals() < 0) { /* Ctrl-C: the search stops with its line; another exception ends it */
        if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) { PyErr_Clear(); S->stop = STOP_SIGNAL; }
        else S->stop = STOP_ERROR;
    }
}

/* The order a node's moves are tried in (negamax.moves's, the reference's): the table's move
 * first, then the pass where it ends the game, then plays going out (by their value), then by
 * score, ties in generation order; the pass last where it does not end the game. `order`
 * has room for count + 1 (the pass: index PASS_ID). */
static void order_moves(const Solver *S, const Buf *buf, Py_ssize_t count, int me, int pass_ends, uint32_t tt_move,
                        Order *order) {
    int64_t out_bonus = 2 * S->rack_value[1 - me];
    for (Py_ssize_t k = 0; k < count; k++) {
        const uint8_t *rec = buf->data + k * RECORD;
        int64_t key = rec_score(rec);
        if (placed_count(rec) == S->tiles[me]) key += out_bonus + ((int64_t)1 << 56);
        if (tt_move != NO_ID && play_id(rec) == tt_move) key = INT64_MAX;
        order[k].key = key;
        order[k].index = (uint32_t)k;
    }
    order[count].key = tt_move == PASS_ID ? INT64_MAX : pass_ends ? INT64_MAX - 1 : INT64_MIN;
    order[count].index = PASS_ID;
    qsort(order, (size_t)count + 1, sizeof(Order), by_key);
}

static int64_t search(Solver *S, int ply, int depth, int me, int passed, int scoreless, int64_t alpha, int64_t beta,
                      int *complete);

/* A move's value for the side making it (`score` now, then the node after it searched for
 * the other side) within (a, beta). With `scout` (a move after the node's first: principal
 * variation search) a null window first asks whether it beats `a`, and only a move that does
 * is searched again with the whole window. */
static int64_t move_value(Solver *S, int ply, int depth, int opp, int passed, int scoreless, int64_t score,
                          int64_t a, int64_t beta, int scout, int *complete) {
    if (scout && beta - a > 1) {
        int64_t v = score - search(S, ply + 1, depth - 1, opp, passed, scoreless, score - a - 1, score - a, complete);
        if (S->stop || v <= a || v >= beta) return v;
        *complete = 1;
    }
    return score - search(S, ply + 1, depth - 1, opp, passed, scoreless, score - beta, score - a, complete);
}

/* The value of the node for side `me` within (alpha, beta), fail-soft; *complete 1 when no
 * line below met the horizon. A stopped search (S->stop) returns 0 and is thrown away. */
static int64_t search(Solver *S, int ply, int depth, int me, int passed, int scoreless, int64_t alpha, int64_t beta,
                      int *complete) {
    int opp = 1 - me;
    if ((++S->nodes & 1023) == 0) look_up(S);
    if (S->stop) { *complete = 0; return 0; }
    uint64_t key = S->hash ^ z_state(S, me, passed, scoreless);
    Entry *e = &S->tt[key & S->tt_mask];
    uint32_t tt_move = NO_ID;
    if (e->bound && e->key == key) {
        tt_move = e->move;
        if (e->complete || e->depth >= depth) {
            int64_t v = e->value;
            if (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && v >= beta) ||
                (e->bound == BOUND_UPPER && v <= alpha)) {
                *complete = e->complete;
                return v;
            }
        }
    }
    int64_t pass_end = S->rack_value[opp] - S->rack_value[me]; /* each side loses its own rack */
    if (depth <= 0 || ply + 1 >= S->plies) { *complete = 0; return pass_end; }
    Buf *buf = &S->plays[ply];
    buf->len = 0;
    Py_ssize_t count = gen_plays(&S->G, S->L, S->board, S->x, S->counts[me], buf, (Py_ssize_t)1 << 30, &S->edges);
    if (count < 0) { S->stop = STOP_ERROR; *complete = 0; return 0; }
    if (count + 1 > S->order_cap[ply]) {
        Order *grown = realloc(S->order[ply], (size_t)(count + 1) * sizeof(Order));
        if (!grown) { S->stop = STOP_ERROR; *complete = 0; return 0; }
        S->order[ply] = grown;
        S->order_cap[ply] = count + 1;
    }
    Order *order = S->order[ply];
    int64_t out_bonus = 2 * S->rack_value[opp];
    int pass_ends = passed || scoreless + 1 >= SCORELESS_END;
    order_moves(S, buf, count, me, pass_ends, tt_move, order);
    int64_t best = -INF_VALUE, a = alpha;
    uint32_t best_move = NO_ID;
    int all_complete = 1;
    for (Py_ssize_t k = 0; k <= count; k++) {
        int64_t v;
        uint32_t id;
        if (order[k].index == PASS_ID) {
            id = PASS_ID;
            if (pass_ends) v = pass_end;
            else {
                int c = 1;
                v = move_value(S, ply, depth, opp, 1, scoreless + 1, 0, a, beta, best_move != NO_ID, &c);
                all_complete &= c;
            }
        } else {
            const uint8_t *rec = S->plays[ply].data + (Py_ssize_t)order[k].index * RECORD; /* (the buffer may move) */
            int64_t score = rec_score(rec);
            id = play_id(rec);
            if (placed_count(rec) == S->tiles[me]) v = score + out_bonus;
            else {
                uint8_t copy[RECORD];
                memcpy(copy, rec, RECORD);
                Py_ssize_t mark = S->undo_len;
                if (make_play(S, copy, me) < 0) { S->stop = STOP_ERROR; unmake_play(S, copy, me, mark); break; }
                int c = 1;
                v = move_value(S, ply, depth, opp, 0, 0, score, a, beta, best_move != NO_ID, &c);
                unmake_play(S, copy, me, mark);
                all_complete &= c;
            }
        }
        if (S->stop) { *complete = 0; return 0; }
        if (v > best) {
            best = v;
            best_move = id;
            if (v > a) a = v;
            if (a >= beta) break;
        }
    }
    if (S->stop) { *complete = 0; return 0; }
    /* keep it unless the slot holds a deeper search of another node */
    if (!e->bound || e->key == key || all_complete || e->depth <= depth) {
        e->key = key;
        e->value = best;
        e->move = best_move;
        e->depth = (uint16_t)(depth > 0xFFFF ? 0xFFFF : depth);
        e->bound = best <= alpha ? BOUND_UPPER : best >= beta ? BOUND_LOWER : BOUND_EXACT;
        e->complete = (uint8_t)all_complete;
    }
    *complete = all_complete;
    return best;
}

/* The principal variation from the root, whose value is `value` at `depth`: at each node the
 * first move (in the search's order) whose value, searched with a window around it, is the
 * node's; appended to `pv` as records (a pass: a record of length 0). A proven value's line
 * is searched to the end of the game at every node (`exact`: a node off the proof's lines is
 * searched whole, not to what is left of `depth`); else each node one ply shallower than
 * the one before, and where no move has the value sought (the table holds deeper values of
 * a stopped iteration) the move that looked best is taken at what it looked. The moves are
 * made as it goes and taken back at the end. 0, or -1 when stopped. */
static int principal_variation(Solver *S, int64_t value, int depth, int exact, int scoreless, Buf *pv) {
    int me = 0, passed = 0, made = 0;
    uint8_t line[512][RECORD];
    int sides[512];
    Py_ssize_t marks[512];
    while (made < 512 && made + 1 < S->plies) {
        int opp = 1 - me, found = 0;
        Buf *buf = &S->plays[S->plies - 1]; /* (the search below uses the plies from 1 on) */
        buf->len = 0;
        Py_ssize_t count = gen_plays(&S->G, S->L, S->board, S->x, S->counts[me], buf, (Py_ssize_t)1 << 30, &S->edges);
        if (count < 0) { S->stop = STOP_ERROR; break; }
        Buf mine = {NULL, 0, 0};
        Order *order = malloc(((size_t)count + 1) * sizeof(Order));
        if (!order || (count && buf_put(&mine, buf->data, count * RECORD) < 0)) {
            free(order);
            S->stop = STOP_ERROR;
            break;
        }
        int64_t pass_end = S->rack_value[opp] - S->rack_value[me], out_bonus = 2 * S->rack_value[opp];
        int pass_ends = passed || scoreless + 1 >= SCORELESS_END, ended = 0;
        order_moves(S, &mine, count, me, pass_ends, NO_ID, order);
        Py_ssize_t chosen = -1, best_k = -1;
        int64_t best_v = 0;
        for (Py_ssize_t j = 0; j <= count && chosen < 0; j++) {
            Py_ssize_t k = order[j].index == PASS_ID ? count : (Py_ssize_t)order[j].index;
            int64_t v;
            int c = 1;
            if (k == count) { /* the pass */
                if (pass_ends) v = pass_end;
                else v = -search(S, 1, depth - 1, opp, 1, scoreless + 1, -value - 1, -value + 1, &c);
            } else {
                uint8_t rec[RECORD];
                memcpy(rec, mine.data + k * RECORD, RECORD);
                int64_t score = rec_score(rec);
                if (placed_count(rec) == S->tiles[me]) v = score + out_bonus;
                else {
                    Py_ssize_t mark = S->undo_len;
                    if (make_play(S, rec, me) < 0) { S->stop = STOP_ERROR; unmake_play(S, rec, me, mark); break; }
                    v = score - search(S, 1, depth - 1, opp, 0, 0, score - value - 1, score - value + 1, &c);
                    unmake_play(S, rec, me, mark);
                }
            }
            if (S->stop) break;
            if (v == value) chosen = k;
            else if (best_k < 0 || v > best_v) { best_k = k; best_v = v; }
        }
        if (!S->stop && chosen < 0 && best_k >= 0) { /* a value not proven, the table's entries deeper than
            * `depth` (a later iteration's, stopped): the move that looked best, at what it looked */
            chosen = best_k;
            value = best_v;
        }
        if (!S->stop && chosen >= 0) {
            uint8_t rec[RECORD];
            int out;
            found = 1;
            if (chosen == count) { memset(rec, 0, RECORD); out = pass_ends; }
            else {
                memcpy(rec, mine.data + chosen * RECORD, RECORD);
                out = placed_count(rec) == S->tiles[me];
            }
            if (buf_put(pv, rec, RECORD) < 0) S->stop = STOP_ERROR;
            else if (out) ended = 1;
            else if (chosen == count) { value = -value; passed = 1; scoreless++; }
            else {
                memcpy(line[made], rec, RECORD);
                sides[made] = me;
                marks[made] = S->undo_len;
                if (make_play(S, rec, me) < 0) S->stop = STOP_ERROR;
                else {
                    made++;
                    value = rec_score(rec) - value;
                    passed = 0;
                    scoreless = 0;
                }
            }
        }
        buf_free(&mine);
        free(order);
        if (S->stop || !found || ended) break;
        me = opp;
        if (!exact && --depth <= 0) break;
    }
    while (made > 0) {
        made--;
        unmake_play(S, line[made], sides[made], marks[made]);
    }
    return S->stop ? -1 : 0;
}

static void solver_free(Solver *S) {
    if (S->plays) for (int p = 0; p < S->plies; p++) buf_free(&S->plays[p]);
    if (S->order) for (int p = 0; p < S->plies; p++) free(S->order[p]);
    free(S->plays); free(S->order); free(S->order_cap);
    free(S->undo); free(S->tt); free(S->x); free(S->L);
}

/* endgame(graph, board, n, rack, other, strategy, dawg_root, search_root, gaddag_root, values,
 *         letter_mult, word_mult, rack_size, bingo, start_row, start_col, scoreless, seconds,
 *         table_bits, max_depth[, report])
 *   -> (value, proven, depth, nodes, seconds, pv records, stopped)
 * A Generator's arguments (movegen.c), the board (n*n codes) and the racks (rack: the side
 * to move's counts by letter code, [0] the blanks; other: the opponent's), the
 * position's scoreless turns in a row, a time limit (0: none), the table's size (2^bits
 * entries) and a depth limit (0: none); `report(depth, value, nodes, seconds, proven)` is
 * called after each finished iteration (an exception it raises ends the search). `proven`: the value is exact; else it is the deepest
 * iteration's that finished. `stopped`: "", "time" or "interrupt" (Ctrl-C: its
 * KeyboardInterrupt taken, for the caller to raise again once it has the result). */
static PyObject *endgame(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *graph;
    Py_buffer board, rack, other, values, lm, wm;
    int n, strategy, rack_size, bingo, sr, sc, scoreless, bits, max_depth;
    Py_ssize_t dawg_root, root, gaddag_root;
    double seconds;
    PyObject *report = Py_None;
    if (!PyArg_ParseTuple(args, "O!y*iy*y*innny*y*y*iiiiidii|O", GraphType, &graph, &board, &n, &rack, &other,
                          &strategy, &dawg_root, &root, &gaddag_root, &values, &lm, &wm, &rack_size, &bingo, &sr, &sc,
                          &scoreless, &seconds, &bits, &max_depth, &report))
        return NULL;
    const Graph *g = (const Graph *)graph;
    PyObject *result = NULL;
    Solver *S = calloc(1, sizeof(Solver));
    Buf pv = {NULL, 0, 0};
    if (!S) { PyErr_NoMemory(); goto done; }
    int tiles = 0;
    for (int side = 0; side < 2; side++) {
        const Py_buffer *r = side ? &other : &rack;
        if (r->len > 128) break;
        for (Py_ssize_t k = 0; k < r->len; k++) {
            S->counts[side][k] = ((const uint8_t *)r->buf)[k];
            S->tiles[side] += S->counts[side][k];
        }
        tiles += S->tiles[side];
    }
    if (other.len > 128 || scoreless < 0 || scoreless >= SCORELESS_END || seconds < 0 || bits < 10 || bits > 30 ||
        max_depth < 0 || !S->tiles[0] || !S->tiles[1] || S->tiles[0] > rack_size || S->tiles[1] > rack_size) {
        PyErr_SetString(PyExc_ValueError, "endgame: bad arguments");
        goto done;
    }
    if (gen_check_args(g, &board, n, rack.len, dawg_root, root, gaddag_root, &values, &lm, &wm, tiles,
                       bingo, sr, sc, strategy) < 0)
        goto done;
    if (gen_setup(&S->G, g, n, values.buf, lm.buf, wm.buf, rack_size, bingo, sr, sc, dawg_root, root, gaddag_root,
                  strategy) < 0)
        goto done;
    /* every play scores at most the bound, and a game has at most `tiles` plays: 2^61 keeps
     * every sum (and twice a rack) inside 64 bits */
    uint64_t most = gen_score_bound(&S->G, S->tiles[0] > S->tiles[1] ? S->tiles[0] : S->tiles[1]);
    if (most > ((uint64_t)1 << 61) / (uint64_t)(tiles + 2)) {
        PyErr_SetString(PyExc_ValueError, "endgame: the game's scores could pass 2^61 points (tile values, premiums)");
        goto done;
    }
    S->n = n;
    memcpy(S->board, board.buf, (size_t)n * n);
    for (int side = 0; side < 2; side++)
        for (int c = 0; c < 128; c++) {
            S->rack_value[side] += (int64_t)S->counts[side][c] * S->G.values[c];
        }
    S->seed = 0x6A09E667F3BCC908ULL;
    for (Py_ssize_t sq = 0; sq < (Py_ssize_t)n * n; sq++) if (S->board[sq]) S->hash ^= z_square(S, sq, S->board[sq]);
    for (int side = 0; side < 2; side++)
        for (int c = 0; c < 128; c++) S->hash ^= z_rack(S, side, c, S->counts[side][c]);
    S->plies = 2 * tiles + 4; /* plays and at most one pass between two of them, and the search's own */
    S->L = gen_lane_new();
    S->x = malloc(2 * (size_t)n * (size_t)n * sizeof(Cross));
    S->plays = calloc((size_t)S->plies, sizeof(Buf));
    S->order = calloc((size_t)S->plies, sizeof(Order *));
    S->order_cap = calloc((size_t)S->plies, sizeof(Py_ssize_t));
    S->tt = calloc((size_t)1 << bits, sizeof(Entry));
    S->tt_mask = ((uint64_t)1 << bits) - 1;
    if (!S->L || !S->x || !S->plays || !S->order || !S->order_cap || !S->tt) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    gen_all_cross(&S->G, S->board, S->x);
    double start = now_seconds();
    S->deadline = seconds > 0 ? start + seconds : 0;
    int64_t value = 0;
    int proven = 0, reached = 0, last = max_depth > 0 && max_depth < S->plies - 1 ? max_depth : S->plies - 1;
    for (int depth = 1; depth <= last; depth++) {
        int complete = 1;
        int64_t v = search(S, 0, depth, 0, 0, scoreless, -INF_VALUE, INF_VALUE, &complete);
        if (S->stop) break;
        value = v;
        reached = depth;
        S->finished++;
        if (complete) proven = 1;
        if (report != Py_None) {
            PyObject *said = PyObject_CallFunction(report, "iLKdi", depth, (long long)value, S->nodes,
                                                   now_seconds() - start, proven);
            if (!said) {
                if (!PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) goto done;
                PyErr_Clear();
                S->stop = STOP_SIGNAL; /* Ctrl-C while it reported: the search stops there */
                break;
            }
            Py_DECREF(said);
        }
        if (proven) break;
    }
    int stop = S->stop;
    if (stop == STOP_ERROR) { if (!PyErr_Occurred()) PyErr_NoMemory(); goto done; }
    if (reached) {
        S->stop = GO_ON;
        S->deadline = 0; /* the line of a finished iteration: its nodes are in the table */
        if (principal_variation(S, value, proven ? S->plies : reached, proven, scoreless, &pv) < 0 &&
            S->stop != STOP_SIGNAL) {
            if (!PyErr_Occurred()) PyErr_NoMemory();
            goto done;
        }
        if (S->stop == STOP_SIGNAL) stop = STOP_SIGNAL;
    }
    double spent = now_seconds() - start;
    PyObject *blob = buf_bytes(&pv);
    if (blob)
        result = Py_BuildValue("(LiiKdNs)", (long long)value, proven, reached, S->nodes, spent, blob,
                               stop == STOP_TIME ? "time" : stop == STOP_SIGNAL ? "interrupt" : "");
done:
    buf_free(&pv);
    if (S) { solver_free(S); free(S); }
    PyBuffer_Release(&board); PyBuffer_Release(&rack); PyBuffer_Release(&other); PyBuffer_Release(&values);
    PyBuffer_Release(&lm); PyBuffer_Release(&wm);
    return result;
}

static PyMethodDef endgame_methods[] = {
    {"endgame", endgame, METH_VARARGS, "The exact endgame search: (value, proven, depth, nodes, seconds, pv, stopped)."},
    {NULL, NULL, 0, NULL},
};

int endgame_init(PyObject *module) { return PyModule_AddFunctions(module, endgame_methods); }
