/* lexc's compiled core: shared definitions (C99, CPython limited API 3.11).
 *
 * The contract (lexc/native/README.md): the loader has checked the arrays handed in here
 * (formats/README.md, "What the loader guarantees"); the Graph constructor checks again
 * what indexing relies on (child indices and list ends inside the arrays), so no function
 * reads outside an array whatever it is given, and every walk is bounded by MAX_PATH.
 */
#ifndef LEXC_CORE_H
#define LEXC_CORE_H

#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TILES 64            /* the longest word (alphabet.MAX_WORD_TILES) */
#define MAX_PATH (MAX_TILES + 2) /* a GADDAG string holds one separator more */
#define BLANK_FLAG 0x80
#define MAX_BOARD 26
#define THROUGH 0

/* -- compiler builtins: each behind a guard, with a portable C99 fallback ----------------- */
#if defined(__GNUC__) || defined(__clang__)
#define LEXC_LIKELY(x) __builtin_expect(!!(x), 1)
#define LEXC_NOINLINE __attribute__((noinline)) /* (a hot loop kept in a function of its own) */
#define LEXC_PREFETCH(p) __builtin_prefetch(p)
#define LEXC_TOP_BIT(x) (63 - __builtin_clzll(x)) /* the highest set bit of a non-zero u64 */
#define LEXC_LOW_BIT(x) __builtin_ctz(x)          /* the lowest set bit of a non-zero u32 */
#else
#define LEXC_LIKELY(x) (x)
#define LEXC_NOINLINE
#define LEXC_PREFETCH(p) ((void)0)
#define LEXC_TOP_BIT(x) lexc_top_bit(x)
static inline int lexc_top_bit(uint64_t x) {
    int b = 0;
    for (int s = 32; s; s >>= 1)
        if (x >> s) { x >>= s; b += s; }
    return b;
}
#define LEXC_LOW_BIT(x) lexc_low_bit(x)
static inline int lexc_low_bit(uint32_t x) {
    int b = 0;
    while (!(x & 1u)) { x >>= 1; b++; }
    return b;
}
#endif
/* x86-64 GCC: the move generator's masked searches are compiled twice, with the POPCNT
 * instruction and without, and the one the CPU runs is picked at run time (movegen.c); the
 * baseline x86-64 has no POPCNT, so elsewhere a count is the SWAR sequence below */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define LEXC_POPCNT_COPY 1
#define LEXC_POPCNT32(x) __builtin_popcount(x) /* (the instruction inside a target("popcnt") region) */
#define LEXC_CPU_POPCNT() (__builtin_cpu_supports("popcnt") != 0)
#else
#define LEXC_POPCNT_COPY 0
#define LEXC_POPCNT32(x) lexc_pop32(x)
#define LEXC_CPU_POPCNT() 0
#endif
/* the set bits of a u32 (the SWAR count: one instruction sequence, no CPU feature needed) */
static inline int lexc_pop32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
}
/* GCC (not Clang) vectorizes a hot loop at -O3 when told to */
#if defined(__GNUC__) && !defined(__clang__)
#define LEXC_VECTORIZE __attribute__((noinline, optimize("O3")))
#else
#define LEXC_VECTORIZE
#endif

/* A word's UTF-8 text of at most MAX_TILES ASCII characters as letter codes through a Latin-1
 * table (`encode`, 0: not a one-character label), a table read a character and one test at the
 * end, no branch a character (the common case of `word in lexicon`): 1 encoded, 0 a character
 * is no label, -1 not that case (too long, or not ASCII: the caller's own loop reads it). */
static inline int lexc_encode_ascii(const uint8_t *encode, const char *text, Py_ssize_t size, uint8_t *codes) {
    if (size > MAX_TILES) return -1;
    unsigned char high = 0, none = 0;
    for (Py_ssize_t k = 0; k < size; k++) {
        unsigned char ch = (unsigned char)text[k], code = encode[ch];
        high |= ch;
        none |= (unsigned char)(code == 0);
        codes[k] = code;
    }
    return high & 0x80 ? -1 : !none;
}

/* a * b into *r, 1 when it does not fit 64 bits */
static inline int lexc_mul_over(uint64_t a, uint64_t b, uint64_t *r) {
#if (defined(__GNUC__) && __GNUC__ >= 5) || defined(__clang__)
    return __builtin_mul_overflow(a, b, r);
#else
    if (a && b > UINT64_MAX / a) return 1;
    *r = a * b;
    return 0;
#endif
}

/* a + b into *r, 1 when it does not fit 64 bits */
static inline int lexc_add_over(uint64_t a, uint64_t b, uint64_t *r) {
    *r = a + b;
    return *r < a;
}

typedef struct { uint64_t lo, hi; } Mask; /* a set of letter codes 0..127 */

/* (branch-free: the word is selected, the bit shifted by c mod 64) */
static inline int mask_has(Mask m, int c) { return (int)(((c < 64 ? m.lo : m.hi) >> (c & 63)) & 1); }
static inline void mask_set(Mask *m, int c) { uint64_t *w = c < 64 ? &m->lo : &m->hi; *w |= 1ULL << (c & 63); }
static inline void mask_clear(Mask *m, int c) { uint64_t *w = c < 64 ? &m->lo : &m->hi; *w &= ~(1ULL << (c & 63)); }
static inline Mask mask_and(Mask a, Mask b) { Mask m = {a.lo & b.lo, a.hi & b.hi}; return m; }
static inline int mask_empty(Mask m) { return !(m.lo | m.hi); }
/* the highest letter in a non-empty mask */
static inline int mask_top(Mask m) { return m.hi ? 64 + LEXC_TOP_BIT(m.hi) : LEXC_TOP_BIT(m.lo); }

/* The two edge layouts (formats/dawg.md, src/lexc/formats/edges.py LAYOUTS): the only fixed ones a
 * Graph accepts (UnknownLayout for any other), so every scan reads the width it was made for.
 * The third, "packed" (formats/dawg-packed.md), is given its widths with the edges. */
typedef struct { const char *name; int size, lshift, tshift, lastshift, cbits; } Layout;
#define LAYOUT_U32 {"u32", 4, 24, 23, 22, 22}
#define LAYOUT_U64 {"u64", 8, 56, 55, 54, 40}

/* A word graph: an edge array in the u32 or u64 layout, plus edges kept in memory after the
 * stored ones (the GADDAG's rebuilt DAWG root). Immutable once built: everything below is set
 * by the constructor, checked there, and never changed (a Cursor's indices stay valid). */
typedef struct {
    PyObject_HEAD
    Py_buffer view;        /* the caller's buffer, held while `base` points into it */
    int has_view;
    unsigned char *owned;  /* or a copy the graph owns (the caller's memory could change) */
    PyObject *shared;      /* or the Graph whose checked stored edges this one shares */
    const unsigned char *base;
    Py_ssize_t n;          /* stored edges */
    uint64_t *extra;       /* in-memory edges n .. n + n_extra - 1 */
    Py_ssize_t n_extra;
    int wide;              /* 0: u32, 1: u64, 2: packed (edge_bytes a stored edge, read unaligned) */
    int lshift, tshift, lastshift;
    uint64_t cmask;
    Py_ssize_t edge_bytes; /* packed: bytes a stored edge (1..8); the payload ends in 8 - edge_bytes zeros */
    uint64_t emask;        /* packed: the low 8 * edge_bytes bits (an edge) */
    int n_letters;
    int pointers;          /* root pointer slots at the array's start */
    int separator;         /* letter 0 allowed (GADDAG) */
    uint8_t encode[256];   /* Latin-1 character -> letter code (0: not a one-character label) */
    int has_encode;
    Py_ssize_t member_root; /* the edge membership walks from (-1: none) */
    const uint32_t *kids;  /* for an alphabet of at most 31 letters (else NULL; made by the first search,
                            * graph_masks), bit c of kids[i]:
                            * stored edge i or one after it in its list has letter c; so the
                            * edge of c in the list from edge i is at i + popcount(kids[i] &
                            * (2^c - 1)), found without scanning the list */
    uint32_t *owned_kids;  /* that array when this graph made it (else the shared graph's) */
    const uint32_t *image; /* the search image (graph_image), or NULL */
    uint32_t *owned_image;
    int image_tried;       /* graph_image ran (the image may still be NULL: the graph has none) */
    Py_ssize_t image_extra_root; /* the image index of the in-memory root (the edge n: a GADDAG file's
                            * rebuilt DAWG root pointer; its edge reads image[index + 1]), 0: none */
    int32_t *first;        /* for at most 31 letters: the member walk after its first two letters
                            * a, b (a word's first) at [B a + b], and
                            * after three, a, b, c, at [B^2 + (B a + b) B + c], B = letters + 1:
                            * the edge reached, as its child list and terminal bit (child << 1 |
                            * terminal), -1 for none: the walk's first levels in one read (NULL:
                            * no member walk, or a graph of 2^30 edges or more) */
    int first_base;        /* B */
    uint64_t *prefixes;    /* the member walk's prefix table (make_prefixes), or NULL: every word of
                            * 4 .. prefix_len - 1 letters and every prefix_len-letter prefix as a
                            * slot (key << vbits | child << 1 | terminal), key the letters, 5 bits each,
                            * the first highest; 0 an empty slot; a linear probe from the key's hash */
    uint32_t prefix_size;  /* slots */
    int prefix_len, prefix_vbits; /* K; the value's bits */
    int prefix_tried;      /* make_prefixes ran (prefixes may still be NULL) */
    Py_ssize_t walks;      /* member walks counted toward making it */
} Graph;

/* make a graph's `kids` if it can have them and has none yet (the searches call it before
 * they start, the GIL held): 0, or -1 with MemoryError set */
int graph_masks(Graph *g);

/* The search image of a graph of at most 31 letters and fewer than 2^22 edges, in any layout
 * (its edges in the u32 layout's fields): each sibling list as its letter
 * mask (bit c: the list holds letter c, the separator's bit 0 included) followed by its edges,
 * every edge's child the image offset of its list's mask; the root pointer slots first, at
 * image[1 ..], so that a root's edge index r reads image[r + 1] as every edge index does; the
 * in-memory edges after the stored ones (the rebuilt root's index: image_extra_root). A
 * list's mask and edges sit together, one cache line where the kids masks take two. Made by the
 * first search (the GIL held), not on load: 0 (g->image NULL where the graph can have none),
 * or -1 with MemoryError set. */
int graph_image(Graph *g);

static inline uint64_t edge_at(const Graph *g, Py_ssize_t i) {
    if (LEXC_LIKELY(i < g->n)) {
        if (!g->wide) return ((const uint32_t *)g->base)[i]; /* the payload is 8-aligned in its file */
        if (g->wide == 1) return ((const uint64_t *)g->base)[i];
        uint64_t e; /* packed: 8 bytes from the edge's first (the zero padding keeps the last inside) */
        memcpy(&e, g->base + i * g->edge_bytes, 8);
        return e & g->emask;
    }
    return g->extra[i - g->n];
}
/* where stored edge i sits (i < n), for a prefetch */
static inline const void *edge_address(const Graph *g, Py_ssize_t i) {
    return g->base + (size_t)i * (size_t)g->edge_bytes;
}
#define LETTER(g, e) ((int)(((e) >> (g)->lshift) & 0xFF))
#define TERM(g, e) ((int)(((e) >> (g)->tshift) & 1))
#define LASTE(g, e) ((int)(((e) >> (g)->lastshift) & 1))
#define CHILD(g, e) ((Py_ssize_t)((e) & (g)->cmask))

/* the edge of `letter` in a list from edge `i` whose letters are the mask `m` (kids[i], or an
 * image's list mask), or -1: i + the letters before it, counted by the POPCNT instruction
 * where `popcnt` (a constant: only from code compiled for it, movegen.c's POPCNT copies), else
 * by lexc_pop32 */
static inline Py_ssize_t mask_find(uint32_t m, Py_ssize_t i, int letter, int popcnt) {
    if ((unsigned)letter > 31 || !(m >> letter & 1u)) return -1;
    uint32_t below = m & ((1u << letter) - 1u);
    return i + (popcnt ? LEXC_POPCNT32(below) : lexc_pop32(below));
}

/* the edge labelled `letter` in the list starting at edge `i` (0: no list), or -1 (by the mask
 * where the graph has its kids, mask_find's count) */
static inline Py_ssize_t g_find_counted(const Graph *g, Py_ssize_t i, int letter, int popcnt) {
    if (!i) return -1;
    if (g->kids && i < g->n) return mask_find(g->kids[i], i, letter, popcnt);
    for (;;) {
        uint64_t e = edge_at(g, i);
        int lt = LETTER(g, e);
        if (lt == letter) return i;
        if (lt > letter || LASTE(g, e)) return -1;
        i++;
    }
}

/* the edge labelled `letter` in the list starting at edge `i` (0: no list), or -1 */
static inline Py_ssize_t g_find(const Graph *g, Py_ssize_t i, int letter) { return g_find_counted(g, i, letter, 0); }

/* follow `len` letters from the node reached by edge `from`; the final edge or -1 */
static inline Py_ssize_t g_walk(const Graph *g, Py_ssize_t from, const uint8_t *codes, Py_ssize_t len) {
    Py_ssize_t i = from;
    for (Py_ssize_t k = 0; k < len; k++) {
        i = g_find(g, CHILD(g, edge_at(g, i)), codes[k]);
        if (i < 0) return -1;
    }
    return i;
}

/* the letters whose edge out of the node reached by edge `node` is terminal */
static inline Mask g_word_letters(const Graph *g, Py_ssize_t node) {
    Mask m = {0, 0};
    Py_ssize_t i = CHILD(g, edge_at(g, node));
    while (i) {
        uint64_t e = edge_at(g, i);
        if (TERM(g, e)) mask_set(&m, LETTER(g, e));
        if (LASTE(g, e)) break;
        i++;
    }
    return m;
}

/* A growing byte buffer (results come back as compact buffers). */
typedef struct { unsigned char *data; Py_ssize_t len, cap; } Buf;
/* room for `len` more bytes at the end (the caller writes there, then adds to len); NULL: no memory */
unsigned char *buf_reserve(Buf *b, Py_ssize_t len);
int buf_put(Buf *b, const void *src, Py_ssize_t len);
void buf_free(Buf *b);
PyObject *buf_bytes(Buf *b);
/* Spare buffers: a call's big scratch (its plays, their notations, keys and orders, a JSON
 * line) taken from a slot kept between calls and given back after, so that a batch of
 * positions grows the heap once rather than once a position (each growth and trim is page
 * faults). Taking empties the slot (a call inside a call gets a fresh buffer); giving back
 * keeps at most SPARE_MOST bytes a slot, else frees. The GIL serializes the callers. */
enum { SPARE_PLAYS, SPARE_NOTES, SPARE_KEYS, SPARE_OFFSETS, SPARE_ORDER, SPARE_SLOTS, SPARE_JSON, SPARES };
Buf buf_spare(int slot);
void buf_keep(int slot, Buf *b);
/* `bytes` of a buffer's contents (the buffer kept) */
PyObject *buf_copy(const Buf *b);

PyObject *mask_to_long(Mask m);
int long_to_mask(PyObject *value, Mask *out);

/* The core's exceptions, the classes of lexc/native/errors.py (read at module init: the
 * pure-Python backend raises the same classes), beneath lexc.errors.LexcError with ValueError
 * their second base (README.md, "Errors"): every error a file or input can cause is one of
 * these. Plain bad arguments from a Python caller stay ValueError. */
extern PyObject *CoreError;       /* the base */
extern PyObject *MalformedGraph;  /* (kind, index, value): an edge array or its proof */
extern PyObject *UnknownLayout;   /* an edge layout the core does not read */
extern PyObject *MalformedTable;  /* (kind, offset): an anagram trie's letter table */
extern PyObject *AnswerCap;       /* (count,): more answers than the caller's cap */
extern PyObject *TooDeep;         /* (index,): a path longer than any word */
extern PyObject *UnsupportedWord; /* a word the core does not count (Python counts it) */
/* raise `type` with args (kind, index, value) and those attributes; NULL */
PyObject *raise_fault(PyObject *type, const char *kind, Py_ssize_t index, long long value);
/* raise `type` with args (index,) and that attribute under `name`; NULL */
PyObject *raise_count(PyObject *type, const char *name, Py_ssize_t count);

extern PyTypeObject *GraphType;

/* The whole-position move generator (movegen.c), shared by Generator and the endgame search:
 * a square's cross-check for plays one way (`check`, any letter where `crossing` is 0) and
 * its cross-sum; the generator's graph, roots and ruleset arrays (lm, wm held by the caller). */
typedef struct { Mask check; int64_t sum; uint8_t crossing; } Cross;
typedef struct Lane Lane; /* a search's scratch */
typedef struct {
    const Graph *g;
    void (*search)(Lane *); /* the strategy's search over what the graph has (gen_setup's choice) */
    int n, rack_size, bingo, sr, sc, fixed, masked, imaged, cross_imaged, popcnt;
    Py_ssize_t dawg_root, root, gaddag_root; /* (the image's indices: root where imaged, the other two
                                              * where cross_imaged; else the graph's) */
    Mask want;             /* the letters a cross-check decides (gen_setup: all); a search only ever
                            * asks a check about letters its rack holds, so one rack's movegen
                            * decides those alone */
    int32_t values[256];
    const uint8_t *lm, *wm;
} Gen;
int gen_check_args(const Graph *g, const Py_buffer *board, int n, Py_ssize_t rack_len, Py_ssize_t dawg_root,
                   Py_ssize_t root, Py_ssize_t gaddag_root, const Py_buffer *values, const Py_buffer *lm,
                   const Py_buffer *wm, int tiles, int bingo, int sr, int sc, int strategy);
int gen_setup(Gen *G, const Graph *g, int n, const int32_t *values, const uint8_t *lm, const uint8_t *wm,
              int rack_size, int bingo, int sr, int sc, Py_ssize_t dawg_root, Py_ssize_t root, Py_ssize_t gaddag_root,
              int strategy);
Lane *gen_lane_new(void);
uint64_t gen_score_bound(const Gen *G, int tiles);
void gen_cross(const Gen *G, const uint8_t *b, int r, int c, int down, Cross *x);
void gen_all_cross(const Gen *G, const uint8_t *b, Cross *x);
Py_ssize_t gen_plays(const Gen *G, Lane *L, const uint8_t *b, const Cross *x, const int *counts, Buf *out,
                     Py_ssize_t cap, unsigned long long *edges);
#define RECORD 40      /* bytes of a play record */
#define REC_ROW 8      /* the score fills bytes 0-7 */
#define REC_TILES 12   /* row, column, down, length, then the tiles (28 bytes: MAX_BOARD fit) */
int endgame_init(PyObject *module);
int movegen_init(PyObject *module);
int anatrie_init(PyObject *module);
int minimize_init(PyObject *module);
int probability_init(PyObject *module);
int equity_init(PyObject *module);
int leaves_init(PyObject *module);
int keyset_init(PyObject *module);
/* whether `obj` exports memory nobody can change while it is read in place: bytes, a read-only
 * mmap, a memoryview of either (_core.c; anything else is copied by its reader) */
int immutable_memory(PyObject *obj);
/* the end of a heap type's dealloc: free the object, release its type (_core.c) */
void free_object(PyObject *self);
/* `word in` a lexicon whose bound store is a KeySet (keyset.c): 1, 0, -1 with an exception set,
 * or KEYSET_NOT_ANSWERED (no KeySet, or a word it does not encode: the Python path answers) */
#define KEYSET_NOT_ANSWERED 2
int keyset_member(PyObject *store, PyObject *word);

#endif
