/* Move generation for a whole position in one call (lexc.movegen, in C).
 *
 * The same rules as the pure-Python generators, which are the reference: anchors (the start
 * square on an empty board), cross-checks as letter masks from the DAWG, Appel & Jacobson's
 * LeftPart/ExtendRight over the DAWG root or Gordon's search over the GADDAG root, one lane
 * (row or column) at a time; each play scored by the lane's premiums and cross-sums
 * (scoring.LaneScoring); a one-tile play that forms words both ways listed once, across.
 * Plays come back as fixed records (RECORD bytes): int64 score, row, column, down, length,
 * then the tiles (0 where the word runs through a board tile, BLANK_FLAG on blanks). Scores
 * are computed in 64 bits, and a position whose scores could pass them is refused
 * (score_bound), so no sum or product overflows.
 */
#include "core.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define REC_TILES_MAX (RECORD - REC_TILES) /* the tiles a record holds: 28 */


struct Lane {
    const Graph *g;
    int n, letters, rack_size, bingo, down, lane;
    Py_ssize_t root;                 /* DAWG root pointer (A&J) or GADDAG root pointer (Gordon) */
    uint8_t squares[MAX_BOARD];      /* the lane's tiles (0 empty) */
    Mask checks[MAX_BOARD];          /* cross-check of each empty square */
    uint32_t occupied, anchors;      /* the lane's tiles and anchors as bits (bit i: square i) */
    int anchor_at;                   /* the anchor being searched */
    int limit;                       /* Gordon: the leftmost square the anchor's plays may cover */
    int placed;                      /* Gordon: rack tiles in the leftward part so far */
    int64_t cross[MAX_BOARD];        /* cross-sum of each empty square (where `crossing`) */
    uint8_t crossing[MAX_BOARD];     /* the square's tile would make a cross word */
    int lm[MAX_BOARD], wm[MAX_BOARD];
    int32_t values[256];             /* by board code (a copy: the caller's buffer may be unaligned) */
    const uint8_t *board;            /* the real board, n x n, row-major */
    int counts[128];                 /* rack: counts[0] blanks */
    Mask naturals;                   /* the letters the rack holds (bit c: counts[c] > 0) */
    uint8_t tiles[MAX_BOARD + REC_TILES_MAX]; /* the play being built (A&J: from its start; Gordon: at its
                                      * squares), and slack: emit reads REC_TILES_MAX bytes from any square */
    Buf *out;
    Py_ssize_t found, cap;
    int failed;
    unsigned long long edges;        /* edges the search read (for the bench's explanation of Gordon's claim) */
};

/* a play's score (scoring.LaneScoring's rule), in 64 bits: movegen checked that no play's
 * score, nor any sum or product on the way to it, can pass INT64_MAX (score_bound). Without a
 * branch on the tiles (whether a square's tile is the board's or the rack's follows no pattern
 * a predictor learns): a board tile counts as a rack tile on a square with no premium and no
 * cross word, which adds its value to the word and nothing else. */
static int64_t lane_score(const Lane *L, int start, const uint8_t *tiles, int len) {
    int64_t main = 0, crossed = 0, factor = 1;
    int placed = 0;
    for (int k = 0; k < len; k++) {
        int i = start + k, tile = tiles[k], put = tile != THROUGH;
        int64_t keep = -(int64_t)put; /* all ones for a rack tile, else 0 */
        int code = put ? tile : L->squares[i];
        int64_t lm = put ? L->lm[i] : 1, wm = put ? L->wm[i] : 1;
        int64_t value = (int64_t)L->values[code] * lm;
        main += value;
        factor *= wm;
        crossed += (L->cross[i] + value) * wm & (keep & -(int64_t)L->crossing[i]);
        placed += put;
    }
    int64_t total = len > 1 ? main * factor + crossed : crossed;
    return placed == L->rack_size ? total + L->bingo : total;
}

/* An upper bound on |score| of any play movegen can find (ruleset.score_bound's, from the
 * arrays it is given): a play puts down k <= min(rack tiles, n) tiles in one line; its main
 * word holds at most n tiles, each worth at most V (the largest |value|) x LM (the largest
 * letter multiplier, at least 1), times at most the product P of the k largest word
 * multipliers (each taken as at least 1); each tile put down makes at most one cross word,
 * n tiles at most, times one word multiplier WM; then |bingo|. So every partial sum and
 * product of lane_score is at most n V LM P + k n V LM WM + |bingo|. UINT64_MAX when that
 * does not fit 64 bits. */
static uint64_t score_bound(const int32_t *values, const uint8_t *lm, const uint8_t *wm, Py_ssize_t squares, int n,
                            int tiles, int bingo) {
    uint64_t v = 0, letter = 1, word = 1, product = 1, tile, main, cross, total;
    for (int c = 0; c < 256; c++) {
        uint64_t a = values[c] < 0 ? (uint64_t)0 - (uint64_t)(int64_t)values[c] : (uint64_t)values[c];
        if (a > v) v = a;
    }
    uint16_t have[256] = {0}; /* word multipliers by value, for the k largest (squares <= MAX_BOARD^2) */
    int top = 0;                /* the largest */
    for (Py_ssize_t q = 0; q < squares; q++) {
        if (lm[q] > letter) letter = lm[q];
        have[wm[q]]++;
        if (wm[q] > top) top = wm[q];
    }
    int k = tiles < n ? tiles : n;
    if (k > 0 && squares > 0 && (uint64_t)top > word) word = (uint64_t)top;
    for (int m = top; m > 1 && k > 0; m--) /* (the factors of 0 and 1 are each taken as 1) */
        for (int j = 0; j < have[m] && k > 0; j++, k--)
            if (lexc_mul_over(product, (uint64_t)m, &product)) return UINT64_MAX;
    k = tiles < n ? tiles : n;
    if (lexc_mul_over((uint64_t)n, v, &tile) || lexc_mul_over(tile, letter, &tile) || lexc_mul_over(tile, product, &main) ||
        lexc_mul_over(tile, word, &cross) || lexc_mul_over(cross, (uint64_t)k, &cross) ||
        lexc_add_over(main, cross, &total) ||
        lexc_add_over(total, bingo < 0 ? (uint64_t)0 - (uint64_t)(int64_t)bingo : (uint64_t)bingo, &total))
        return UINT64_MAX;
    return total;
}

#if defined(__SSE2__)
/* 28 bytes of ones, then 28 of zeros: from KEEP + 28 - len, a mask of len bytes */
static const uint8_t KEEP[56] = {255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
                                 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};
#endif

/* record the play of `len` tiles from square `start` (`tiles`: at least REC_TILES_MAX bytes
 * readable, L->tiles' slack) */
static void emit(Lane *L, int start, const uint8_t *tiles, int len) {
    if (L->failed) return;
    int row = L->down ? start : L->lane, col = L->down ? L->lane : start;
#if defined(__SSE2__)
    /* the tiles and zeros after them, as the record holds them: two 16-byte halves that
     * overlap by 4 (no call, no loop on the length) */
    __m128i lo = _mm_and_si128(_mm_loadu_si128((const __m128i *)tiles),
                               _mm_loadu_si128((const __m128i *)(KEEP + 28 - len)));
    __m128i hi = _mm_and_si128(_mm_loadu_si128((const __m128i *)(tiles + 12)),
                               _mm_loadu_si128((const __m128i *)(KEEP + 40 - len)));
#endif
    if (L->down) { /* a lone tile down that also forms an across word is listed across */
#if defined(__SSE2__)
        const __m128i none = _mm_setzero_si128();
        uint32_t put = (~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, none)) & 0xFFFFu) |
                       (~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, none)) & 0xFFF0u) << 12; /* bit k: a rack tile */
#else
        uint32_t put = 0;
        for (int k = 0; k < len; k++) put |= (uint32_t)(tiles[k] != THROUGH) << k;
#endif
        if (put && !(put & (put - 1))) {
            int r = start + LEXC_LOW_BIT(put), c = L->lane, n = L->n;
            if ((c > 0 && L->board[r * n + c - 1]) || (c + 1 < n && L->board[r * n + c + 1])) return;
        }
    }
    Buf *out = L->out; /* the record is written in place at the buffer's end */
    if (out->len + RECORD > out->cap) { /* grow: buf_put with a zeroed record */
        static const unsigned char zero[RECORD];
        if (buf_put(out, zero, RECORD) < 0) { L->failed = 1; return; }
        out->len -= RECORD;
    }
    unsigned char *rec = out->data + out->len;
    int64_t score = lane_score(L, start, tiles, len);
    memcpy(rec, &score, 8);
    rec[REC_ROW] = (unsigned char)row; rec[REC_ROW + 1] = (unsigned char)col;
    rec[REC_ROW + 2] = (unsigned char)L->down; rec[REC_ROW + 3] = (unsigned char)len;
#if defined(__SSE2__)
    _mm_storeu_si128((__m128i *)(rec + REC_TILES), lo);
    _mm_storeu_si128((__m128i *)(rec + REC_TILES + 12), hi);
#else
    memcpy(rec + REC_TILES, tiles, (size_t)len);
    memset(rec + REC_TILES + len, 0, (size_t)(RECORD - REC_TILES - len));
#endif
    out->len += RECORD;
    if (++L->found > L->cap) L->failed = 2;
}

/* -- the rack: counts, and the mask of letters it can put down ----------------------------- */

static const Mask ALL = {~0ULL, ~0ULL};

static inline void rack_mask(Lane *L) {
    Mask m = {0, 0};
    for (int c = 1; c <= L->letters; c++) if (L->counts[c]) mask_set(&m, c);
    L->naturals = m;
}

/* the first square of the run of tiles that holds square `pos` (`occupied`: a lane's tiles as bits) */
static inline int run_start(uint32_t occupied, int pos) {
    uint32_t before = ~occupied & ((1u << pos) - 1u); /* the empty squares left of it */
    return before ? LEXC_TOP_BIT(before) + 1 : 0;
}

/* the letters the rack can put down: all while it holds a blank */
static inline Mask have(const Lane *L) { return L->counts[0] ? ALL : L->naturals; }

/* take a tile (a blank when it carries BLANK_FLAG) off the rack, and put it back */
static inline void take(Lane *L, int tile) {
    if (!tile) return;
    int k = tile & BLANK_FLAG ? 0 : tile;
    if (!--L->counts[k] && k) mask_clear(&L->naturals, k);
}
static inline void put_back(Lane *L, int tile) {
    if (!tile) return;
    int k = tile & BLANK_FLAG ? 0 : tile;
    if (L->counts[k]++ == 0 && k) mask_set(&L->naturals, k);
}

/* -- the searches, one copy per edge layout (search.inc) ---------------------------------- */

/* A search from a stored root reads stored edges only: the Graph constructor checked that
 * every stored edge's child is inside the stored array (the in-memory extra edges, a
 * GADDAG's rebuilt DAWG root, are only ever a root). So the u32 copy, used when the search
 * root is stored, reads the array directly. */
static inline uint64_t edge32(const Graph *g, Py_ssize_t i) {
    return ((const uint32_t *)g->base)[i];
}

/* the u32 layout (formats/dawg.md): letter in bits 24-31, terminal 23, last 22, child 0-21;
 * with the letter masks (an alphabet of at most 31 letters), then without */
#define EDGE(i) edge32(g, i)
#define KIDS(i) (g->kids[i])
#define LET(e) ((int)((e) >> 24 & 0xFF))
#define TRM(e) ((int)((e) >> 23 & 1))
#define LST(e) ((int)((e) >> 22 & 1))
#define CHD(e) ((Py_ssize_t)((e) & 0x3FFFFF))

#define EDGE_ADDR(i) ((const uint32_t *)g->base + (i))
#define FN(name) name##_m32
#define MASKED 1
#define IMAGE 0
#define POP32(x) lexc_pop32(x)
#include "search.inc" /* (which undefines FN, MASKED, IMAGE and POP32) */

#if LEXC_POPCNT_COPY /* the same, each letter's place in its list counted by the POPCNT instruction
                      * (chosen where the CPU has it: movegen_init): both searches about 12% faster */
#pragma GCC push_options
#pragma GCC target("popcnt")
#define FN(name) name##_m32p
#define MASKED 1
#define IMAGE 0
#define POP32(x) LEXC_POPCNT32(x)
#include "search.inc"
#pragma GCC pop_options
#endif

#define FN(name) name##_u32
#define MASKED 0
#define IMAGE 0
#define POP32(x) lexc_pop32(x)
#include "search.inc"
#undef EDGE
#undef KIDS
#undef EDGE_ADDR

/* the search image (core.h graph_image), which every generator over a graph of at most 31
 * letters and fewer than 2^22 edges searches (gen_setup), whatever the file's edge layout (the
 * image's edges are u32, their fields moved): a list's mask at its offset, its edges after
 * it, so that the mask and the edges it finds are one cache line, not one in each of two arrays
 * as big as the file; an edge index i reads image[i + 1], a list's mask sits at its own index
 * (its first edge's). Both searches ran faster over it (ENABLE's gaddawg, the bench's
 * positions, in turns with the graph's copies: Gordon 4-10%, Appel & Jacobson 22-26%, the
 * most where it finds a board tile's edge by the mask instead of a scan). */
#define EDGE(i) (g->image[(i) + 1])
#define KIDS(i) (g->image[i])
#define EDGE_ADDR(i) (&g->image[(i) + 1])
#define FN(name) name##_i32
#define MASKED 1
#define IMAGE 1
#define POP32(x) lexc_pop32(x)
#include "search.inc"
#if LEXC_POPCNT_COPY
#pragma GCC push_options
#pragma GCC target("popcnt")
#define FN(name) name##_i32p
#define MASKED 1
#define IMAGE 1
#define POP32(x) LEXC_POPCNT32(x)
#include "search.inc"
#pragma GCC pop_options
#endif
#undef EDGE
#undef KIDS
#undef EDGE_ADDR
#undef LET
#undef TRM
#undef LST
#undef CHD

/* any layout, its fields where the graph says */
#define EDGE(i) edge_at(g, i)
#define LET(e) LETTER(g, e)
#define TRM(e) TERM(g, e)
#define LST(e) LASTE(g, e)
#define CHD(e) CHILD(g, e)
#define FN(name) name##_any
#define MASKED 0
#define IMAGE 0
#define POP32(x) lexc_pop32(x)
#include "search.inc"
#undef EDGE
#undef LET
#undef TRM
#undef LST
#undef CHD

/* whether the generators search the graph's image (graph_image) where it can have one: unless
 * the environment variable LEXC_NO_IMAGE was set when the module loaded (read once) */
static int use_image = 1;

/* whether the searches run their POPCNT copy: the CPU has the instruction, and the environment
 * variable LEXC_NO_POPCNT was not set when the module loaded (read once, then never written) */
static int use_popcnt = 0;

/* whether the graph's edges are the u32 layout (Graph accepts exactly two: core.h Layout) */
static int fixed_u32(const Graph *g) { return !g->wide; }

/* the image's index of root edge r (graph_image made): a root pointer's own, the in-memory
 * root's (the edge right after the stored ones) where the image holds it; -1 otherwise */
static Py_ssize_t image_root(const Graph *g, Py_ssize_t r) {
    if (r < g->pointers) return r;
    if (r == g->n && g->image_extra_root) return g->image_extra_root;
    return -1;
}

/* fetch the sibling list from edge i (its mask, if made, and its first edges) before a walk
 * reads it: the mask and the edge it points to then arrive together, not one miss after the
 * other (a stored edge's child is a stored edge; 0, no list, fetches nothing) */
static inline void fetch_list(const Graph *g, Py_ssize_t i) {
    if (!i || i >= g->n) return;
    if (g->kids) LEXC_PREFETCH(&g->kids[i]);
    LEXC_PREFETCH(edge_address(g, i));
}

/* -- cross-checks ------------------------------------------------------------------------ */

/* A square's cross-check is the letters x (among the generator's `want`) with before + x +
 * after a word, `before` and `after` the tiles of its perpendicular line on either side. From
 * the DAWG root: walk `before`, then `after` from each child. Where the graph holds a GADDAG
 * and `after` is longer, from its root instead: the word reversed is a GADDAG string (no
 * separator), so `after` reversed is walked once, then `before` reversed from each child
 * (wolges's cross-sets).
 *
 * The squares' walks do not depend on one another, so they are made a batch at a time in
 * step: each walk's next edge is read in turn, and the misses of a batch's walks overlap
 * instead of following one another (the cross-checks of a position cost about as much as a
 * no-blank rack's search otherwise). */

#define CROSS_BATCH 32
#define SUB_WALKS 256 /* the second walks kept before they are stepped (at least one list's: 128 letters) */

typedef struct {
    Cross *out;
    Py_ssize_t node;             /* the first walk's edge so far (the root's, then -1 once it fails) */
    int n1, n2, gaddag;
    uint8_t first[MAX_BOARD], second[MAX_BOARD];
} CrossJob;

typedef struct { int job, letter; Py_ssize_t edge; } SubWalk;

/* the edge of `letter` in the image's list at offset `list` (0: none), or -1: by the list's mask */
static inline Py_ssize_t image_find(const uint32_t *img, Py_ssize_t list, int letter, int popcnt) {
    return list ? mask_find(img[list], list, letter, popcnt) : -1;
}

#define FN(name) name##_d /* over the graph */
#define POPCNT 0
#define IMAGE 0
#include "cross.inc" /* (which undefines them) */
#define FN(name) name##_di /* over its image */
#define POPCNT 0
#define IMAGE 1
#include "cross.inc"

#if LEXC_POPCNT_COPY
#pragma GCC push_options
#pragma GCC target("popcnt")
#define FN(name) name##_p
#define POPCNT 1
#define IMAGE 0
#include "cross.inc"
#define FN(name) name##_pi
#define POPCNT 1
#define IMAGE 1
#include "cross.inc"
#pragma GCC pop_options
#endif

/* the cross-checks of `count` jobs, on the copy the CPU runs best (the image's where the
 * generator has it for the cross-checks' roots) */
static void cross_batch(const Gen *G, CrossJob *jobs, int count) {
#if LEXC_POPCNT_COPY
    if (use_popcnt) { if (G->cross_imaged) cross_batch_pi(G, jobs, count); else cross_batch_p(G, jobs, count); return; }
#endif
    if (G->cross_imaged) cross_batch_di(G, jobs, count); else cross_batch_d(G, jobs, count);
}

/* the job of square (r, c)'s cross-check for plays `down` (its perpendicular line's tiles
 * before and after it), with its cross-sum written to `x`: 0, or 1 where the square touches
 * no tile that way (any letter fits, `x` written whole) */
static int cross_job(const Gen *G, const uint8_t *b, int r, int c, int down, Cross *x, CrossJob *q) {
    int n = G->n;
    uint8_t before[MAX_BOARD], after[MAX_BOARD];
    int nb = 0, na = 0;
    int64_t sum = 0;
    int p = down ? c : r; /* position along the perpendicular line */
    int t = p;
    while (t > 0 && b[down ? r * n + t - 1 : (t - 1) * n + c]) t--;
    for (; t < p; t++) {
        int code = b[down ? r * n + t : t * n + c];
        before[nb++] = (uint8_t)(code & ~BLANK_FLAG);
        sum += G->values[code];
    }
    for (t = p + 1; t < n && b[down ? r * n + t : t * n + c]; t++) {
        int code = b[down ? r * n + t : t * n + c];
        after[na++] = (uint8_t)(code & ~BLANK_FLAG);
        sum += G->values[code];
    }
    if (!nb && !na) { *x = (Cross){ALL, 0, 0}; return 1; }
    x->sum = sum; x->crossing = 1;
    q->out = x;
    q->gaddag = na && G->gaddag_root >= 0 && nb < na;
    if (!q->gaddag) {
        q->node = G->dawg_root; q->n1 = nb; q->n2 = na;
        memcpy(q->first, before, (size_t)nb); memcpy(q->second, after, (size_t)na);
    } else { /* `after` reversed from the GADDAG root, then `before` reversed */
        q->node = G->gaddag_root; q->n1 = na; q->n2 = nb;
        for (int k = 0; k < na; k++) q->first[k] = after[na - 1 - k];
        for (int k = 0; k < nb; k++) q->second[k] = before[nb - 1 - k];
    }
    return 0;
}

/* -- a whole position: the generator (core.h), which Generator and the endgame search share -- */

/* the cross-check of square (r, c) for plays `down`, among the letters G->want, with the
 * cross-sum; `crossing` 0 where the square touches no tile that way (any letter fits) */
void gen_cross(const Gen *G, const uint8_t *b, int r, int c, int down, Cross *x) {
    CrossJob q;
    if (!cross_job(G, b, r, c, down, x, &q)) cross_batch(G, &q, 1);
}

/* The board's squares as bits, a row's in a u32 (MAX_BOARD < 32): `occupied` (a tile), and
 * the empty squares with a tile above or below (`vertical`: their cross-checks are the across
 * plays') or left or right (`horizontal`: the down plays'); found without a branch per square,
 * so that the position's fixed cost (the same for every strategy) stays small. */
typedef struct { uint32_t occupied[MAX_BOARD], vertical[MAX_BOARD], horizontal[MAX_BOARD]; int empty; } Bits;

static void board_bits(const uint8_t *b, int n, Bits *s) {
    uint32_t full = (uint32_t)((1ULL << n) - 1), any = 0;
    for (int r = 0; r < n; r++) {
        uint32_t m = 0;
        for (int c = 0; c < n; c++) m |= (uint32_t)(b[r * n + c] != 0) << c;
        s->occupied[r] = m;
        any |= m;
    }
    for (int r = 0; r < n; r++) {
        uint32_t m = s->occupied[r];
        s->vertical[r] = ((r > 0 ? s->occupied[r - 1] : 0) | (r + 1 < n ? s->occupied[r + 1] : 0)) & ~m;
        s->horizontal[r] = ((m << 1) | (m >> 1)) & ~m & full;
    }
    s->empty = !any;
}

/* every empty square's cross-checks both ways: x[down * n * n + r * n + c] (occupied squares
 * are written too, as any letter: they are never read), the board's bits `s` given */
static void all_cross(const Gen *G, const uint8_t *b, const Bits *bits, Cross *x) {
    int n = G->n, count = 0;
    const Bits s = *bits;
    CrossJob jobs[CROSS_BATCH];
    for (Py_ssize_t k = 0; k < 2 * (Py_ssize_t)n * n; k++) x[k] = (Cross){ALL, 0, 0};
    for (int down = 0; down < 2; down++) /* only the squares touching a tile that way have a check to make */
        for (int r = 0; r < n; r++)
            for (uint32_t m = down ? s.horizontal[r] : s.vertical[r]; m; m &= m - 1) {
                int c = LEXC_LOW_BIT(m);
                if (cross_job(G, b, r, c, down, &x[down * n * n + r * n + c], &jobs[count])) continue;
                if (++count == CROSS_BATCH) { cross_batch(G, jobs, count); count = 0; }
            }
    if (count) cross_batch(G, jobs, count);
}

/* every empty square's cross-checks both ways (all_cross's) */
void gen_all_cross(const Gen *G, const uint8_t *b, Cross *x) {
    Bits s;
    board_bits(b, G->n, &s);
    all_cross(G, b, &s, x);
}

/* A generator for the graph and ruleset arrays of a Generator or an endgame (checked by the caller):
 * 0, or -1 with an exception (no memory for the letter masks). */
int gen_setup(Gen *G, const Graph *g, int n, const int32_t *values, const uint8_t *lm, const uint8_t *wm,
              int rack_size, int bingo, int sr, int sc, Py_ssize_t dawg_root, Py_ssize_t root, Py_ssize_t gaddag_root,
              int strategy) {
    memset(G, 0, sizeof *G);
    G->g = g; G->n = n; G->lm = lm; G->wm = wm; G->rack_size = rack_size; G->bingo = bingo;
    G->sr = sr; G->sc = sc; G->dawg_root = dawg_root; G->root = root; G->gaddag_root = gaddag_root;
    G->want = ALL;
    memcpy(G->values, values, sizeof G->values);
    G->fixed = fixed_u32(g) && root < g->n;
    /* the search image, where the graph can have one: for the search from a root it holds (a
     * root pointer, or a GADDAG file's rebuilt DAWG root, the in-memory edge after the stored
     * ones), its roots then the image's indices; for the cross-checks where it holds theirs too */
    if (use_image) {
        if (graph_image((Graph *)g) < 0) return -1;
        Py_ssize_t r = g->image ? image_root(g, root) : -1;
        if (r >= 0) {
            G->imaged = 1;
            G->root = r;
            Py_ssize_t d = image_root(g, dawg_root), a = gaddag_root < 0 ? -1 : image_root(g, gaddag_root);
            if (d >= 0 && (gaddag_root < 0 || a >= 0)) {
                G->cross_imaged = 1;
                G->dawg_root = d;
                G->gaddag_root = a;
            }
        }
    }
    /* the kids masks, where a search or the cross-checks read the graph itself */
    if (G->fixed && !G->cross_imaged && graph_masks((Graph *)g) < 0) return -1;
    G->masked = G->fixed && g->kids;
    G->popcnt = use_popcnt;
    /* the search: the strategy's copy for what the graph has (the image, the kids masks, u32
     * edges, or any layout), counted by POPCNT where the build has that copy and it is used */
    int gordon = strategy != 0;
#if LEXC_POPCNT_COPY
    if (G->popcnt && (G->imaged || G->masked)) {
        G->search = G->imaged ? (gordon ? gordon_i32p : appel_jacobson_i32p) : (gordon ? gordon_m32p : appel_jacobson_m32p);
        return 0;
    }
#endif
    G->search = G->imaged ? (gordon ? gordon_i32 : appel_jacobson_i32)
              : G->masked ? (gordon ? gordon_m32 : appel_jacobson_m32)
              : G->fixed ? (gordon ? gordon_u32 : appel_jacobson_u32)
              : (gordon ? gordon_any : appel_jacobson_any);
    return 0;
}

/* the bound on any play's score (score_bound) with at most `tiles` tiles */
uint64_t gen_score_bound(const Gen *G, int tiles) {
    return score_bound(G->values, G->lm, G->wm, (Py_ssize_t)G->n * G->n, G->n, tiles, G->bingo);
}

Lane *gen_lane_new(void) {
    Lane *L = calloc(1, sizeof(Lane));
    if (!L) PyErr_NoMemory();
    return L;
}

/* Every play of the board `b` for the rack `counts` (by letter code, [0] the blanks), its
 * cross-checks `x` (all_cross's, kept up to date by the caller; read only at empty squares)
 * and bits `s`, appended to `out` as records; `L` is scratch (gen_lane_new). The plays found,
 * -1 out of memory (MemoryError set), -2 past `cap` plays. `edges` += the edges the searches
 * read. */
static Py_ssize_t plays_of(const Gen *G, Lane *L, const uint8_t *b, const Bits *bits, const Cross *x,
                           const int *counts, Buf *out, Py_ssize_t cap, unsigned long long *edges) {
    int n = G->n;
    L->g = G->g; L->n = n; L->letters = G->g->n_letters; L->rack_size = G->rack_size; L->bingo = G->bingo;
    L->root = G->root; L->board = b; L->out = out; L->cap = cap; L->found = 0; L->failed = 0; L->edges = 0;
    memcpy(L->values, G->values, sizeof L->values);
    memcpy(L->counts, counts, sizeof L->counts);
    rack_mask(L);
    /* the anchors (the start square on an empty board, else each empty square beside a tile)
     * are the same both ways: found once, with the lanes that hold one (the others are skipped) */
    const Bits s = *bits;
    uint32_t anchors[MAX_BOARD], columns = 0; /* a row's anchors as bits; the columns that hold one */
    for (int r = 0; r < n; r++) {
        anchors[r] = s.empty ? (r == G->sr ? 1u << G->sc : 0) : s.vertical[r] | s.horizontal[r];
        columns |= anchors[r];
    }
    for (int down = 0; down < 2 && !L->failed; down++) {
        L->down = down;
        const Cross *xd = x + (size_t)down * n * n;
        for (int lane = 0; lane < n && !L->failed; lane++) {
            if (!(down ? columns >> lane & 1 : anchors[lane] != 0)) continue;
            L->lane = lane;
            uint32_t occupied = 0, lane_anchors = down ? 0 : anchors[lane];
            for (int i = 0; i < n; i++) {
                int at = down ? i * n + lane : lane * n + i; /* square i of the lane */
                int code = b[at];
                L->squares[i] = (uint8_t)code;
                L->lm[i] = G->lm[at]; L->wm[i] = G->wm[at];
                occupied |= (uint32_t)(code != 0) << i;
                if (down) lane_anchors |= (anchors[i] >> lane & 1) << i;
                /* an empty square's cross-check; none on a tile (without a branch: x holds an
                 * entry for every square, gen_all_cross's) */
                const Cross *q = &xd[at];
                uint64_t keep = (uint64_t)0 - (uint64_t)!code;
                L->checks[i] = (Mask){q->check.lo & keep, q->check.hi & keep};
                L->cross[i] = (int64_t)((uint64_t)q->sum & keep);
                L->crossing[i] = (uint8_t)(q->crossing & keep);
            }
            L->occupied = occupied; L->anchors = lane_anchors;
            G->search(L);
        }
    }
    if (edges) *edges += L->edges;
    if (L->failed == 2) return -2;
    if (L->failed) return -1;
    return L->found;
}

/* plays_of for a board whose bits are found here (the endgame search's, at each node) */
Py_ssize_t gen_plays(const Gen *G, Lane *L, const uint8_t *b, const Cross *x, const int *counts, Buf *out,
                     Py_ssize_t cap, unsigned long long *edges) {
    Bits s;
    board_bits(b, G->n, &s);
    return plays_of(G, L, b, &s, x, counts, out, cap, edges);
}

/* the checks of a generator's arguments, before any position (graph roots, board size, the
 * ruleset arrays' sizes, start square, strategy): 0, or -1 with ValueError set */
static int check_setup(const Graph *g, int n, Py_ssize_t dawg_root, Py_ssize_t root, Py_ssize_t gaddag_root,
                       Py_ssize_t values_len, Py_ssize_t lm_len, Py_ssize_t wm_len, int sr, int sc, int strategy) {
    Py_ssize_t total = g->n + g->n_extra;
    if (n < 1 || n > MAX_BOARD || lm_len != (Py_ssize_t)n * n || wm_len != lm_len || values_len != 256 * 4 ||
        dawg_root < 0 || dawg_root >= total || root < 0 || root >= total || gaddag_root < -1 ||
        gaddag_root >= total || sr < 0 || sr >= n || sc < 0 || sc >= n || (strategy != 0 && strategy != 1)) {
        PyErr_SetString(PyExc_ValueError, "movegen: bad arguments");
        return -1;
    }
    return 0;
}

/* every board code inside the graph's alphabet (a blank's too): 0, or -1 with ValueError set */
static int check_board(const Graph *g, const uint8_t *b, Py_ssize_t len) {
    int bad = 0;
    for (Py_ssize_t k = 0; k < len; k++) /* (no branch a square: the loop vectorizes) */
        bad |= ((b[k] & ~BLANK_FLAG) > g->n_letters) | (b[k] == BLANK_FLAG);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "movegen: a board code outside the alphabet");
        return -1;
    }
    return 0;
}

static const char OVER[] = "movegen: a play's score could pass 64 bits (tile values, premiums)";

/* the checks the endgame search makes of its position's arguments (a Generator makes the
 * same: check_setup once, then the board and the rack a position): 0, or -1 with ValueError
 * set */
int gen_check_args(const Graph *g, const Py_buffer *board, int n, Py_ssize_t rack_len, Py_ssize_t dawg_root,
                   Py_ssize_t root, Py_ssize_t gaddag_root, const Py_buffer *values, const Py_buffer *lm,
                   const Py_buffer *wm, int tiles, int bingo, int sr, int sc, int strategy) {
    if (check_setup(g, n, dawg_root, root, gaddag_root, values->len, lm->len, wm->len, sr, sc, strategy) < 0)
        return -1;
    if (board->len != (Py_ssize_t)n * n || rack_len > 128) {
        PyErr_SetString(PyExc_ValueError, "movegen: bad arguments");
        return -1;
    }
    if (check_board(g, board->buf, board->len) < 0) return -1;
    int32_t v[256];
    memcpy(v, values->buf, sizeof v);
    if (score_bound(v, lm->buf, wm->buf, board->len, n, tiles, bingo) > (uint64_t)INT64_MAX) {
        PyErr_SetString(PyExc_ValueError, OVER);
        return -1;
    }
    return 0;
}

/* A whole position's plays for the generator `G0` (checked, set up): the board `b` (n x n,
 * checked), the rack `counts` (by letter code, [0] the blanks): (records, count, edges), or
 * NULL with an exception (AnswerCap past `cap` plays). */
static PyObject *generate(const Gen *G0, const uint8_t *b, const int *counts, Py_ssize_t cap) {
    PyObject *result = NULL;
    Lane *L = NULL;
    Cross *x = NULL;
    Buf out = buf_spare(SPARE_PLAYS);
    Gen G = *G0;
    int n = G.n;
    if (!counts[0]) { /* no blank: the checks need decide only the rack's letters */
        G.want = (Mask){0, 0};
        for (int c = 1; c < 128; c++) if (counts[c]) mask_set(&G.want, c);
    }
    L = gen_lane_new();
    x = malloc(2 * (size_t)n * (size_t)n * sizeof *x);
    if (!L || !x) { if (!PyErr_Occurred()) PyErr_NoMemory(); goto done; }
    Bits s; /* (found once for both) */
    board_bits(b, n, &s);
    all_cross(&G, b, &s, x);
    unsigned long long edges = 0;
    Py_ssize_t found = plays_of(&G, L, b, &s, x, counts, &out, cap, &edges);
    if (found == -2) { raise_count(AnswerCap, "count", L->found); goto done; }
    if (found < 0) goto done;
    PyObject *blob = buf_copy(&out);
    if (blob) result = Py_BuildValue("(NnK)", blob, found, edges);
done:
    buf_keep(SPARE_PLAYS, &out);
    free(L);
    free(x);
    return result;
}

/* -- a generator prepared once for a graph and a ruleset ---------------------------------- */

/* Generator(graph, n, strategy, dawg_root, search_root, gaddag_root, values, letter_mult,
 * word_mult, rack_size, bingo, start_row, start_col): strategy 0 is Appel & Jacobson's from
 * the DAWG root `search_root`, 1 Gordon's from the GADDAG root `search_root`; cross-checks from
 * `dawg_root`, or from `gaddag_root` where that is cheaper (-1: the graph holds no GADDAG);
 * values: 256 little-endian int32 by board code; letter_mult, word_mult: n*n bytes. Checked
 * and set up once (the ruleset's arrays copied, the bound on a play's score found for every
 * count of rack tiles); `plays(board, tiles, cap)` then searches one position, with only the
 * position to check. What the move generator keeps for a lexicon and a ruleset
 * (lexc.movegen.compiled); the only way into move generation from Python. */
typedef struct {
    PyObject_HEAD
    PyObject *graph;
    Gen G;                                                  /* its lm and wm point at the copies below */
    uint8_t lm[MAX_BOARD * MAX_BOARD], wm[MAX_BOARD * MAX_BOARD];
    uint8_t fits[MAX_BOARD + 1];                            /* fits[k]: no play of k rack tiles scores past 64 bits */
} Generator;

static PyObject *Generator_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    (void)kwds;
    PyObject *graph;
    Py_buffer values, lm, wm;
    int n, strategy, rack_size, bingo, sr, sc;
    Py_ssize_t dawg_root, root, gaddag_root;
    if (!PyArg_ParseTuple(args, "O!iinnny*y*y*iiii:Generator", GraphType, &graph, &n, &strategy, &dawg_root, &root,
                          &gaddag_root, &values, &lm, &wm, &rack_size, &bingo, &sr, &sc))
        return NULL;
    Generator *self = NULL;
    const Graph *g = (const Graph *)graph;
    if (check_setup(g, n, dawg_root, root, gaddag_root, values.len, lm.len, wm.len, sr, sc, strategy) < 0) goto done;
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    self = (Generator *)alloc(type, 0);
    if (!self) goto done;
    Py_INCREF(graph);
    self->graph = graph;
    memcpy(self->lm, lm.buf, (size_t)lm.len);
    memcpy(self->wm, wm.buf, (size_t)wm.len);
    int32_t v[256];
    memcpy(v, values.buf, sizeof v);
    for (int k = 0; k <= n; k++) self->fits[k] = score_bound(v, self->lm, self->wm, lm.len, n, k, bingo) <= (uint64_t)INT64_MAX;
    if (gen_setup(&self->G, g, n, v, self->lm, self->wm, rack_size, bingo, sr, sc, dawg_root, root, gaddag_root,
                  strategy) < 0)
        Py_CLEAR(self);
done:
    PyBuffer_Release(&values); PyBuffer_Release(&lm); PyBuffer_Release(&wm);
    return (PyObject *)self;
}

static void Generator_dealloc(PyObject *self) {
    Py_XDECREF(((Generator *)self)->graph);
    free_object(self);
}

/* plays(board, tiles, cap) -> (records, count, edges): every play of the board (n*n codes
 * row-major, 0 empty, BLANK_FLAG on blanks) for the rack's tiles (bytes of letter codes, 0 a
 * blank; at most 255), one record a play in generation order, AnswerCap past `cap` plays;
 * `edges`: how many edges the searches read (cross-checks apart), returned with the call (no
 * state outlives it: a threaded host's calls never see each other's) */
static PyObject *Generator_plays(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    const Generator *m = (const Generator *)self;
    const Gen *G = &m->G;
    char *b, *t;
    Py_ssize_t blen, tlen;
    if (nargs != 3) { PyErr_SetString(PyExc_TypeError, "plays(board, tiles, cap)"); return NULL; }
    if (PyBytes_AsStringAndSize(args[0], &b, &blen) < 0 || PyBytes_AsStringAndSize(args[1], &t, &tlen) < 0) return NULL;
    Py_ssize_t cap = PyLong_AsSsize_t(args[2]);
    if (cap == -1 && PyErr_Occurred()) return NULL;
    if (blen != (Py_ssize_t)G->n * G->n || tlen > 255) {
        PyErr_SetString(PyExc_ValueError, "movegen: bad arguments");
        return NULL;
    }
    if (check_board(G->g, (const uint8_t *)b, blen) < 0) return NULL;
    int counts[128] = {0};
    for (Py_ssize_t k = 0; k < tlen; k++) {
        int code = (uint8_t)t[k];
        if (code > G->g->n_letters) { PyErr_SetString(PyExc_ValueError, "movegen: a rack tile outside the alphabet"); return NULL; }
        counts[code]++;
    }
    if (!m->fits[tlen < G->n ? tlen : G->n]) { PyErr_SetString(PyExc_ValueError, OVER); return NULL; }
    return generate(G, (const uint8_t *)b, counts, cap);
}

/* reads() -> (search, cross-checks): what each reads, "image" (the search image), "masks" (the
 * graph and its kids masks), "u32" (the u32 edges) or "any" (any layout); for the tests and for
 * a user's question why a file searches slower than another */
static PyObject *Generator_reads(PyObject *self, PyObject *unused) {
    (void)unused;
    const Gen *G = &((const Generator *)self)->G;
    const char *search = G->imaged ? "image" : G->masked ? "masks" : G->fixed ? "u32" : "any";
    const char *cross = G->cross_imaged ? "image" : G->g->kids ? "masks" : "any";
    return Py_BuildValue("(ss)", search, cross);
}

static PyMethodDef Generator_methods[] = {
    {"plays", (PyCFunction)(void (*)(void))Generator_plays, METH_FASTCALL,
     "plays(board, tiles, cap) -> (records, count, edges): every play of one position"},
    {"reads", Generator_reads, METH_NOARGS,
     "reads() -> (search, cross-checks): what each reads: 'image', 'masks', 'u32' or 'any'"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot Generator_slots[] = {
    {Py_tp_new, Generator_new},
    {Py_tp_dealloc, Generator_dealloc},
    {Py_tp_methods, Generator_methods},
    {Py_tp_doc, "A move generator prepared for a graph and a ruleset: plays(board, tiles, cap)."},
    {0, NULL},
};

static PyType_Spec Generator_spec = {"lexc.native._core.Generator", sizeof(Generator), 0, Py_TPFLAGS_DEFAULT,
                                     Generator_slots};

/* -- plays as text ------------------------------------------------------------------------ */

#define JSON_TILE 192 /* the longest escaped tile text: 32 bytes, \\uXXXX for each */
#define NOTE_MAX (JSON_TILE * MAX_BOARD + 2 * MAX_BOARD + 16) /* the longest notation, escaped */

/* The 256 tile texts by board code (bytes of at most `most` bytes each) from a Python
 * sequence; the items are kept (texts point into them) until `release_texts`. */
static int read_texts(PyObject *seq, PyObject *items[256], const char *text[256], Py_ssize_t tlen[256], Py_ssize_t most) {
    if (PySequence_Size(seq) != 256) return -1;
    for (int c = 0; c < 256; c++) {
        char *s;
        items[c] = PySequence_GetItem(seq, c);
        if (!items[c] || PyBytes_AsStringAndSize(items[c], &s, &tlen[c]) < 0 || tlen[c] > most) return -1;
        text[c] = s;
    }
    return 0;
}

static void release_texts(PyObject *items[256]) {
    for (int c = 0; c < 256; c++) Py_XDECREF(items[c]);
}

/* a number's decimal digits into s: how many */
static int write_int(char *s, long long v) {
    char d[24];
    int k = 0, len = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do { d[k++] = (char)('0' + u % 10); u /= 10; } while (u);
    if (v < 0) s[len++] = '-';
    while (k) s[len++] = d[--k];
    return len;
}

/* a record's standard notation into s (NOTE_MAX bytes), each tile by `text`: its length, or
 * -1 for a record off the board */
static int write_notation(const uint8_t *rec, const uint8_t *b, int n, const char **text, const Py_ssize_t *tlen,
                          char *s) {
    int len = 0, row = rec[REC_ROW], col = rec[REC_ROW + 1], down = rec[REC_ROW + 2], L = rec[REC_ROW + 3], inside = 0;
    if (row >= n || col >= n || L > MAX_BOARD || (down ? row : col) + L > n) return -1;
    if (down) s[len++] = (char)('A' + col);
    len += write_int(s + len, row + 1);
    if (!down) s[len++] = (char)('A' + col);
    s[len++] = ' ';
    for (int t = 0; t < L; t++) {
        int r = down ? row + t : row, c = down ? col : col + t;
        int tile = rec[REC_TILES + t], through = tile == THROUGH;
        if (through != inside) { s[len++] = through ? '(' : ')'; inside = through; }
        int code = through ? b[r * n + c] : tile;
        if (tlen[code] == 1) s[len++] = text[code][0]; /* (most alphabets: no call to copy a byte) */
        else { memcpy(s + len, text[code], (size_t)tlen[code]); len += (int)tlen[code]; }
    }
    if (inside) s[len++] = ')';
    return len;
}

/* the most bytes write_notation writes on an n x n board with these tile texts: a square
 * (letter, two digits), a space, n tiles and a parenthesis either side of each (at most) */
static Py_ssize_t note_bound(int n, const Py_ssize_t *tlen) {
    Py_ssize_t most = 0;
    for (int c = 0; c < 256; c++) if (tlen[c] > most) most = tlen[c];
    return 4 + (Py_ssize_t)n * (most + 2);
}

/* A play's sort key: score, and its notation (UTF-8, whose byte order is code point order,
 * the order Python compares strings in); `prefix` holds the notation's first 8 bytes
 * big-endian, so most comparisons need no memcmp. */
typedef struct { uint64_t prefix; int64_t score; int len; const char *note; const uint8_t *rec; } Ranked;

/* whether play x ranks before play y: score descending, then notation (movegen.ranked) */
static inline int ranked_before(const Ranked *x, const Ranked *y) {
    if (x->score != y->score) return x->score > y->score;
    if (x->prefix != y->prefix) return x->prefix < y->prefix;
    int common = x->len < y->len ? x->len : y->len, c = common > 8 ? memcmp(x->note + 8, y->note + 8, (size_t)common - 8) : 0;
    return c ? c < 0 : x->len < y->len;
}

/* sort order[lo, hi) by ranked_before: quicksort (median of three) down to short runs, each
 * then sorted by insertion; the comparison is inlined (qsort's call a comparison was most of
 * the ranking's time) */
static void sort_range(const Ranked **order, Py_ssize_t lo, Py_ssize_t hi) {
    while (hi - lo > 16) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        const Ranked *a = order[lo], *b = order[mid], *c = order[hi - 1], *pivot;
        if (ranked_before(a, b)) pivot = ranked_before(b, c) ? b : ranked_before(a, c) ? c : a;
        else pivot = ranked_before(a, c) ? a : ranked_before(b, c) ? c : b;
        Py_ssize_t i = lo, j = hi - 1;
        for (;;) { /* Hoare's partition: [lo, j] ranks no later than the pivot, [j + 1, hi) no earlier */
            while (ranked_before(order[i], pivot)) i++;
            while (ranked_before(pivot, order[j])) j--;
            if (i >= j) break;
            const Ranked *t = order[i]; order[i] = order[j]; order[j] = t;
            i++; j--;
        }
        if (j + 1 - lo < hi - j - 1) { sort_range(order, lo, j + 1); lo = j + 1; } /* (the smaller side first: */
        else { sort_range(order, j + 1, hi); hi = j + 1; }                          /*  depth stays logarithmic) */
    }
    for (Py_ssize_t k = lo + 1; k < hi; k++) {
        const Ranked *x = order[k];
        Py_ssize_t m = k;
        while (m > lo && ranked_before(x, order[m - 1])) { order[m] = order[m - 1]; m--; }
        order[m] = x;
    }
}

/* the keys in ranked order (pointers into `keys`; NULL when out of memory). Where the scores
 * span at most 2^16 values (any real ruleset), one LSD radix sort of a 64-bit key per play:
 * the score's rank from the best in the top 16 bits, the notation's first 6 bytes below (a
 * byte pass skipped where every key has the same byte); then each run of equal keys (one
 * score, one 6-byte start) by the whole notation. Otherwise (a crafted ruleset's scores) one
 * comparison sort. */
typedef struct { uint64_t key; const Ranked *play; } Slot;
static const Ranked **sort_ranked(const Ranked *keys, Py_ssize_t count, Buf *order_buf) {
    const Ranked **order = (const Ranked **)buf_reserve(order_buf, (Py_ssize_t)sizeof(Ranked *) * (count ? count : 1));
    if (!order || !count) return order;
    int64_t lo = keys[0].score, hi = keys[0].score;
    for (Py_ssize_t k = 1; k < count; k++) {
        if (keys[k].score < lo) lo = keys[k].score;
        if (keys[k].score > hi) hi = keys[k].score;
    }
    Buf slots = buf_spare(SPARE_SLOTS);
    Slot *a = (uint64_t)hi - (uint64_t)lo < 65536 ? (Slot *)buf_reserve(&slots, (Py_ssize_t)sizeof(Slot) * 2 * count) : NULL;
    if (!a) {
        PyErr_Clear(); /* (no room for the radix pass: the comparison sort needs none) */
        buf_keep(SPARE_SLOTS, &slots);
        for (Py_ssize_t k = 0; k < count; k++) order[k] = keys + k;
        sort_range(order, 0, count);
        return order;
    }
    Slot *b = a + count;
    uint64_t all_and = ~0ULL, all_or = 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        uint64_t key = ((uint64_t)hi - (uint64_t)keys[k].score) << 48 | keys[k].prefix >> 16;
        a[k].key = key;
        a[k].play = keys + k;
        all_and &= key;
        all_or |= key;
    }
    Py_ssize_t (*at)[256] = calloc(8, sizeof *at); /* every byte's counts, in one pass */
    if (!at) { buf_keep(SPARE_SLOTS, &slots); return NULL; }
    for (Py_ssize_t k = 0; k < count; k++)
        for (int byte = 0; byte < 8; byte++) at[byte][a[k].key >> (8 * byte) & 0xFF]++;
    for (int byte = 0; byte < 8; byte++) {
        int shift = 8 * byte;
        if (!((all_and ^ all_or) >> shift & 0xFF)) continue; /* every key has this byte */
        Py_ssize_t sum = 0, *to = at[byte];
        for (int v = 0; v < 256; v++) { Py_ssize_t c = to[v]; to[v] = sum; sum += c; }
        for (Py_ssize_t k = 0; k < count; k++) b[to[a[k].key >> shift & 0xFF]++] = a[k];
        Slot *t = a; a = b; b = t;
    }
    free(at);
    for (Py_ssize_t k = 0; k < count; k++) order[k] = a[k].play;
    for (Py_ssize_t from = 0; from < count;) {
        Py_ssize_t to = from + 1;
        while (to < count && a[to].key == a[from].key) to++;
        if (to - from > 1) sort_range(order, from, to);
        from = to;
    }
    buf_keep(SPARE_SLOTS, &slots);
    return order;
}

/* The plays ranked best first: a Ranked key per record (in `ranks->keys`, their notations in
 * `ranks->notes`) and their order (in `ranks->order`, returned); NULL with an exception set.
 * The caller gives the buffers back (ranks_keep). */
typedef struct { Buf keys, notes, order; } Ranks;
static Ranks ranks_spare(void) { return (Ranks){buf_spare(SPARE_KEYS), buf_spare(SPARE_NOTES), buf_spare(SPARE_ORDER)}; }
static void ranks_keep(Ranks *r) {
    buf_keep(SPARE_KEYS, &r->keys); buf_keep(SPARE_NOTES, &r->notes); buf_keep(SPARE_ORDER, &r->order);
}

static const Ranked **rank_plays(const uint8_t *records, Py_ssize_t count, const uint8_t *b, int n,
                                 const char **text, const Py_ssize_t *tlen, Ranks *ranks) {
    Buf offsets_buf = buf_spare(SPARE_OFFSETS);
    Ranked *keys = (Ranked *)buf_reserve(&ranks->keys, (Py_ssize_t)sizeof(Ranked) * (count ? count : 1));
    Py_ssize_t *offsets = (Py_ssize_t *)buf_reserve(&offsets_buf, (Py_ssize_t)sizeof(Py_ssize_t) * (count ? count : 1));
    const Ranked **order = NULL;
    Buf *arena = &ranks->notes;
    Py_ssize_t most = note_bound(n, tlen);
    if (!keys || !offsets || (count && !buf_reserve(arena, count < 4096 ? count * 16 : 4096 * 16))) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        const uint8_t *rec = records + k * RECORD;
        char *s = arena->cap - arena->len >= most ? (char *)arena->data + arena->len : (char *)buf_reserve(arena, most);
        if (!s) goto fail;
        int len = write_notation(rec, b, n, text, tlen, s);
        if (len < 0) { PyErr_SetString(PyExc_ValueError, "a play record off the board"); goto fail; }
        offsets[k] = arena->len;
        arena->len += len;
        memcpy(&keys[k].score, rec, 8);
        keys[k].len = len;
        keys[k].rec = rec;
    }
    for (Py_ssize_t k = 0; k < count; k++) { /* (the arena has moved while it grew) */
        const unsigned char *note = arena->data + offsets[k];
        uint64_t prefix = 0;
        for (int j = 0; j < 8; j++) prefix = prefix << 8 | (j < keys[k].len ? note[j] : 0);
        keys[k].note = (const char *)note;
        keys[k].prefix = prefix;
    }
    order = sort_ranked(keys, count, &ranks->order);
    if (!order) { if (!PyErr_Occurred()) PyErr_NoMemory(); goto fail; }
    buf_keep(SPARE_OFFSETS, &offsets_buf);
    return order;
fail:
    buf_keep(SPARE_OFFSETS, &offsets_buf);
    return NULL;
}

/* notations(records, count, board, n, texts) -> [str]: each play's standard notation,
 * `texts` the 256 tile texts by code (UTF-8 bytes: upper case, lower case for a blank,
 * brackets around a multi-character label) */
static PyObject *notations(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer records, board;
    Py_ssize_t count;
    int n;
    PyObject *texts, *items[256] = {0}, *out = NULL;
    const char *text[256];
    Py_ssize_t tlen[256];
    if (!PyArg_ParseTuple(args, "y*ny*iO", &records, &count, &board, &n, &texts)) return NULL;
    if (count < 0 || count > records.len / RECORD || n < 1 || n > MAX_BOARD || board.len != (Py_ssize_t)n * n ||
        read_texts(texts, items, text, tlen, 32) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "notations: bad arguments");
        goto done;
    }
    out = PyList_New(count);
    const uint8_t *rec = (const uint8_t *)records.buf, *b = (const uint8_t *)board.buf;
    for (Py_ssize_t k = 0; out && k < count; k++, rec += RECORD) {
        char s[NOTE_MAX];
        int len = write_notation(rec, b, n, text, tlen, s);
        if (len < 0) { PyErr_SetString(PyExc_ValueError, "notations: a record off the board"); Py_CLEAR(out); break; }
        PyObject *str = PyUnicode_DecodeUTF8(s, len, "strict");
        if (!str) { Py_CLEAR(out); break; }
        PyList_SetItem(out, k, str);
    }
done:
    release_texts(items);
    PyBuffer_Release(&records);
    PyBuffer_Release(&board);
    return out;
}

/* ranked(records, count, board, n, texts, limit) -> ([notation], [score]): the plays best
 * first (score descending, then notation), the first `limit` of them */
static PyObject *ranked(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer records, board;
    Py_ssize_t count, limit;
    int n;
    PyObject *texts, *items[256] = {0}, *notes = NULL, *scores = NULL, *result = NULL;
    const char *text[256];
    Py_ssize_t tlen[256];
    Ranks ranks = ranks_spare();
    const Ranked **order = NULL;
    if (!PyArg_ParseTuple(args, "y*ny*iOn", &records, &count, &board, &n, &texts, &limit)) { ranks_keep(&ranks); return NULL; }
    if (count < 0 || count > records.len / RECORD || n < 1 || n > MAX_BOARD || board.len != (Py_ssize_t)n * n ||
        limit < 0 || read_texts(texts, items, text, tlen, 32) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "ranked: bad arguments");
        goto done;
    }
    order = rank_plays(records.buf, count, board.buf, n, text, tlen, &ranks);
    if (!order) goto done;
    if (limit > count) limit = count;
    notes = PyList_New(limit);
    scores = PyList_New(limit);
    for (Py_ssize_t k = 0; notes && scores && k < limit; k++) {
        PyObject *str = PyUnicode_DecodeUTF8(order[k]->note, order[k]->len, "strict"),
                 *score = PyLong_FromLongLong(order[k]->score);
        if (!str || !score) { Py_XDECREF(str); Py_XDECREF(score); Py_CLEAR(notes); break; }
        PyList_SetItem(notes, k, str);
        PyList_SetItem(scores, k, score);
    }
    if (notes && scores) result = PyTuple_Pack(2, notes, scores);
done:
    Py_XDECREF(notes); Py_XDECREF(scores);
    ranks_keep(&ranks);
    release_texts(items);
    PyBuffer_Release(&records);
    PyBuffer_Release(&board);
    return result;
}

/* batch_json(records, count, board, n, texts, json_texts, limit) -> bytes: the line
 * `lexc moves --batch --json` prints for the position, exactly as json.dumps writes
 * {"count": N, "moves": [{"move": notation, "score": score}, ...]} for the first `limit`
 * plays ranked; `json_texts` are the tile texts escaped as json.dumps escapes them (ASCII) */
static PyObject *batch_json(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer records, board;
    Py_ssize_t count, limit;
    int n;
    PyObject *texts, *jtexts, *items[256] = {0}, *jitems[256] = {0}, *result = NULL;
    const char *text[256], *jtext[256];
    Py_ssize_t tlen[256], jlen[256];
    Ranks ranks = ranks_spare();
    const Ranked **order = NULL;
    Buf out = buf_spare(SPARE_JSON);
    if (!PyArg_ParseTuple(args, "y*ny*iOOn", &records, &count, &board, &n, &texts, &jtexts, &limit)) {
        ranks_keep(&ranks); buf_keep(SPARE_JSON, &out);
        return NULL;
    }
    if (count < 0 || count > records.len / RECORD || n < 1 || n > MAX_BOARD || board.len != (Py_ssize_t)n * n ||
        limit < 0 || read_texts(texts, items, text, tlen, 32) < 0 || read_texts(jtexts, jitems, jtext, jlen, JSON_TILE) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "batch_json: bad arguments");
        goto done;
    }
    order = rank_plays(records.buf, count, board.buf, n, text, tlen, &ranks);
    if (!order) goto done;
    if (limit > count) limit = count;
    int plain = 1; /* the escaped texts are the texts (ASCII labels): the ranked notations serve */
    for (int c = 0; c < 256 && plain; c++) plain = jlen[c] == tlen[c] && !memcmp(jtext[c], text[c], (size_t)tlen[c]);
    Py_ssize_t most = note_bound(n, jlen) + 64; /* a play's JSON: its escaped notation, the rest */
    if (limit && !buf_reserve(&out, limit < 4096 ? limit * 48 : 4096 * 48)) goto done;
    char head[64];
    int hl = (int)strlen(strcpy(head, "{\"count\": "));
    hl += write_int(head + hl, limit);
    hl += (int)strlen(strcpy(head + hl, ", \"moves\": ["));
    if (buf_put(&out, head, hl) < 0) goto done;
    for (Py_ssize_t k = 0; k < limit; k++) {
        static const char open[] = "{\"move\": \"", score[] = "\", \"score\": ";
        char *s = out.cap - out.len >= most ? (char *)out.data + out.len : (char *)buf_reserve(&out, most);
        if (!s) goto done;
        int len = 0;
        if (k) { s[len++] = ','; s[len++] = ' '; }
        memcpy(s + len, open, sizeof open - 1);
        len += (int)sizeof open - 1;
        if (plain) { memcpy(s + len, order[k]->note, (size_t)order[k]->len); len += order[k]->len; }
        else {
            int note = write_notation(order[k]->rec, board.buf, n, jtext, jlen, s + len);
            if (note < 0) { PyErr_SetString(PyExc_ValueError, "batch_json: a record off the board"); goto done; }
            len += note;
        }
        memcpy(s + len, score, sizeof score - 1);
        len += (int)sizeof score - 1;
        len += write_int(s + len, order[k]->score);
        s[len++] = '}';
        out.len += len;
    }
    if (buf_put(&out, "]}", 2) < 0) goto done;
    result = buf_copy(&out);
done:
    buf_keep(SPARE_JSON, &out);
    ranks_keep(&ranks);
    release_texts(items); release_texts(jitems);
    PyBuffer_Release(&records);
    PyBuffer_Release(&board);
    return result;
}

static PyMethodDef movegen_methods[] = {
    {"notations", notations, METH_VARARGS, "The notation of each play record."},
    {"ranked", ranked, METH_VARARGS, "The plays best first: ([notation], [score])."},
    {"batch_json", batch_json, METH_VARARGS, "The plays' JSON line of lexc moves --batch."},
    {NULL, NULL, 0, NULL},
};

int movegen_init(PyObject *module) {
#if LEXC_POPCNT_COPY
    const char *off = getenv("LEXC_NO_POPCNT"); /* (the tests' way to run the other copy on any CPU) */
    use_popcnt = LEXC_CPU_POPCNT() && !(off && *off && strcmp(off, "0"));
#endif
    const char *no_image = getenv("LEXC_NO_IMAGE"); /* (the tests' way to run the searches over the graph itself) */
    use_image = !(no_image && *no_image && strcmp(no_image, "0"));
    if (PyModule_AddFunctions(module, movegen_methods) < 0) return -1;
    PyObject *type = PyType_FromSpec(&Generator_spec);
    if (!type || PyModule_AddObject(module, "Generator", type) < 0) { Py_XDECREF(type); return -1; }
    if (PyModule_AddIntConstant(module, "POPCNT", use_popcnt) < 0) return -1;
    if (PyModule_AddIntConstant(module, "IMAGE", use_image) < 0) return -1;
    return PyModule_AddIntConstant(module, "RECORD", RECORD);
}
