/* lexc.native._core: the compiled core over lexc's word graphs (C99, limited API 3.11).
 *
 * The Graph type wraps an edge array (formats/dawg.md) and answers the queries of the
 * format protocol over it: membership, walks, words with a prefix, anagrams with blanks,
 * patterns, hooks; it proves a loaded graph (no cycle, bounded paths, counts); movegen.c
 * generates every play of a position in one call, anatrie.c runs Shapiro & Smith's search
 * on the anagram trie's file. Results come back as compact buffers (words joined by the
 * code 0, plays as fixed records); Python objects only where one is asked for.
 */
#include "core.h"
#if defined(__linux__)
#include <sys/mman.h> /* words_zeroed: a proof's working array on huge pages */
#if defined(__GLIBC__)
#include <malloc.h> /* keep_heap: mallopt */
#endif
#endif

PyTypeObject *GraphType = NULL;

/* -- small helpers --------------------------------------------------------------------- */

unsigned char *buf_reserve(Buf *b, Py_ssize_t len) {
    if (len < 0 || len > PY_SSIZE_T_MAX - b->len) { PyErr_NoMemory(); return NULL; } /* (no size wraps) */
    if (b->len + len > b->cap) {
        Py_ssize_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len) cap = cap > PY_SSIZE_T_MAX / 2 ? b->len + len : cap * 2;
        unsigned char *data = realloc(b->data, (size_t)cap);
        if (!data) { PyErr_NoMemory(); return NULL; }
        b->data = data;
        b->cap = cap;
    }
    return b->data + b->len;
}

int buf_put(Buf *b, const void *src, Py_ssize_t len) {
    unsigned char *at = buf_reserve(b, len);
    if (!at) return -1;
    memcpy(at, src, (size_t)len);
    b->len += len;
    return 0;
}

void buf_free(Buf *b) { free(b->data); b->data = NULL; b->len = b->cap = 0; }

#define SPARE_MOST ((Py_ssize_t)8 << 20) /* (seven slots: at most 56 MB kept, for positions of tens of thousands of plays) */
static Buf spares[SPARES];

Buf buf_spare(int slot) {
    Buf b = spares[slot];
    spares[slot] = (Buf){NULL, 0, 0};
    b.len = 0;
    return b;
}

void buf_keep(int slot, Buf *b) {
    if (b->data && b->cap <= SPARE_MOST && !spares[slot].data) {
        spares[slot] = *b;
        spares[slot].len = 0;
    } else {
        free(b->data);
    }
    b->data = NULL;
    b->len = b->cap = 0;
}

PyObject *buf_copy(const Buf *b) { return PyBytes_FromStringAndSize(b->len ? (const char *)b->data : "", b->len); }

PyObject *buf_bytes(Buf *b) {
    PyObject *out = PyBytes_FromStringAndSize(b->len ? (const char *)b->data : "", b->len);
    buf_free(b);
    return out;
}

PyObject *mask_to_long(Mask m) {
    PyObject *lo = PyLong_FromUnsignedLongLong(m.lo), *hi = NULL, *shift = NULL, *high = NULL, *out = NULL;
    if (!lo) return NULL;
    if (!m.hi) return lo;
    hi = PyLong_FromUnsignedLongLong(m.hi);
    shift = PyLong_FromLong(64);
    if (hi && shift) high = PyNumber_Lshift(hi, shift);
    if (high) out = PyNumber_Or(high, lo);
    Py_XDECREF(lo); Py_XDECREF(hi); Py_XDECREF(shift); Py_XDECREF(high);
    return out;
}

int long_to_mask(PyObject *value, Mask *out) {
    PyObject *all = PyLong_FromUnsignedLongLong(~0ULL), *shift = PyLong_FromLong(64), *lo = NULL, *rest = NULL, *hi = NULL;
    int ok = -1;
    if (all && shift && (lo = PyNumber_And(value, all)) && (rest = PyNumber_Rshift(value, shift)) &&
        (hi = PyNumber_And(rest, all))) {
        out->lo = PyLong_AsUnsignedLongLong(lo);
        out->hi = PyLong_AsUnsignedLongLong(hi);
        ok = PyErr_Occurred() ? -1 : 0;
    }
    Py_XDECREF(all); Py_XDECREF(shift); Py_XDECREF(lo); Py_XDECREF(rest); Py_XDECREF(hi);
    return ok;
}

/* -- the core's exceptions (core.h) ------------------------------------------------------- */

PyObject *CoreError, *MalformedGraph, *UnknownLayout, *MalformedTable, *AnswerCap, *TooDeep, *UnsupportedWord;

/* raise an instance of `type` made from `args` (stolen), each item also set as the attribute
 * of the same place in `names` */
static PyObject *raise_with(PyObject *type, PyObject *args, const char *const *names) {
    if (!args) return NULL;
    PyObject *exc = PyObject_CallObject(type, args);
    for (Py_ssize_t k = 0; exc && names[k]; k++)
        if (PyObject_SetAttrString(exc, names[k], PyTuple_GetItem(args, k)) < 0) Py_CLEAR(exc);
    if (exc) { PyErr_SetObject(type, exc); Py_DECREF(exc); }
    Py_DECREF(args);
    return NULL;
}

PyObject *raise_fault(PyObject *type, const char *kind, Py_ssize_t index, long long value) {
    static const char *const names[] = {"kind", "index", "value", NULL};
    return raise_with(type, Py_BuildValue("(snL)", kind, index, value), names);
}

PyObject *raise_count(PyObject *type, const char *name, Py_ssize_t count) {
    const char *names[] = {name, NULL};
    return raise_with(type, Py_BuildValue("(n)", count), names);
}

/* a fault of the edge array or its proof */
static PyObject *fail(const char *kind, Py_ssize_t index, long long value) {
    return raise_fault(MalformedGraph, kind, index, value);
}

/* the classes of lexc/native/errors.py (both backends raise them), each also added to the
 * module under its name */
static int errors_init(PyObject *module) {
    static const char *const names[] = {"CoreError", "MalformedGraph", "UnknownLayout", "MalformedTable", "AnswerCap",
                                        "TooDeep", "UnsupportedWord", NULL};
    PyObject **slots[] = {&CoreError, &MalformedGraph, &UnknownLayout, &MalformedTable, &AnswerCap, &TooDeep,
                          &UnsupportedWord};
    PyObject *errors = PyImport_ImportModule("lexc.native.errors");
    if (!errors) return -1;
    for (int k = 0; names[k]; k++) {
        PyObject *cls = PyObject_GetAttrString(errors, names[k]);
        if (!cls || !PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)PyExc_Exception)) {
            if (cls) PyErr_Format(PyExc_ImportError, "lexc.native.errors.%s is not an exception class", names[k]);
            Py_XDECREF(cls);
            Py_DECREF(errors);
            return -1;
        }
        *slots[k] = cls; /* (one reference kept here) */
        Py_INCREF(cls);
        if (PyModule_AddObject(module, names[k], cls) < 0) { Py_DECREF(cls); Py_DECREF(errors); return -1; }
    }
    Py_DECREF(errors);
    return 0;
}

/* -- the Graph type ---------------------------------------------------------------------- */

/* whether some edge in [b0, b1) of a u32 array (the one u32 layout: letter in bits 24-31,
 * last bit 22, child in bits 0-21) is suspect: child outside the stored array or at a root
 * pointer, a letter outside [lo, hi], or (not the last of its list) a next sibling whose
 * letter is not larger. Branch-free, constant shifts: it vectorizes. */
LEXC_VECTORIZE
static uint32_t block32(const uint32_t *E, Py_ssize_t b0, Py_ssize_t b1, uint32_t un, uint32_t up, uint32_t lo,
                        uint32_t span) {
    uint32_t any = 0;
    for (Py_ssize_t i = b0; i < b1; i++) {
        uint32_t e = E[i], nx = E[i + 1], c = e & 0x3FFFFFu, lt = e >> 24, nlt = nx >> 24;
        uint32_t open = ((e >> 22) & 1u) ^ 1u;
        any |= (uint32_t)(c >= un) | (uint32_t)(c - 1u < up - 1u) | (uint32_t)(lt - lo > span) |
               (open & (uint32_t)(nlt <= lt));
    }
    return any;
}

/* the u64 layout (letter 56-63, terminal 55, last 54, reserved 40-53, child 0-39) */
static Py_ssize_t scan64(const Graph *g, int lowest) {
    const uint64_t *E = (const uint64_t *)g->base;
    Py_ssize_t n = g->n, p = g->pointers;
    const uint64_t cm = (1ULL << 40) - 1, reserved = ((1ULL << 54) - 1) & ~cm;
    uint64_t un = (uint64_t)n, up = (uint64_t)p;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t e = E[i], c = e & cm;
        int lt = (int)(e >> 56);
        if (c >= un || (e & reserved) || (c && c < up)) return i;
        if (i < p) continue;
        if (lt < lowest || lt > g->n_letters) return i;
        if (i + 1 < n && !(e >> 54 & 1) && (int)(E[i + 1] >> 56) <= lt) return i;
    }
    return -1;
}

/* the u32 layout (letter 24-31, terminal 23, last 22, child 0-21: no reserved bits) */
static Py_ssize_t scan32(const Graph *g, int lowest) {
    const uint32_t *E = (const uint32_t *)g->base;
    Py_ssize_t n = g->n, p = g->pointers;
    /* (a child field is below 2^22: an array at least that long holds every child it can name) */
    uint32_t cm = 0x3FFFFFu, un = n > 0x400000 ? 0x400000u : (uint32_t)n, up = (uint32_t)p, lo = (uint32_t)lowest;
    uint32_t span = (uint32_t)g->n_letters - lo;
    for (Py_ssize_t i = 0; i < p; i++) {
        uint32_t c = E[i] & cm;
        if (c >= un || (c && c < up)) return i;
    }
    /* every edge but the last compares itself with the next; the last closes its list (checked before) */
    for (Py_ssize_t b0 = p; b0 < n - 1; b0 += 4096) {
        Py_ssize_t b1 = b0 + 4096 < n - 1 ? b0 + 4096 : n - 1;
        if (block32(E, b0, b1, un, up, lo, span))
            for (Py_ssize_t i = b0; i < b1; i++)
                if (block32(E, i, i + 1, un, up, lo, span)) return i;
    }
    if (n > p) { /* the last edge: no next sibling */
        uint32_t e = E[n - 1], c = e & cm, lt = e >> 24;
        if (c >= un || (c && c < up) || lt - lo > span) return n - 1;
    }
    return -1;
}

/* the packed layout (formats/dawg-packed.md: child in bits 0..c-1, last c, terminal c+1, the
 * letter above, each edge edge_bytes bytes, read as edge_at does), each edge read once: no
 * reserved bits, and the letter field ends the edge */
static Py_ssize_t scan_packed(const Graph *g, int lowest) {
    Py_ssize_t n = g->n, p = g->pointers, w = g->edge_bytes;
    uint64_t un = (uint64_t)n, up = (uint64_t)p, cm = g->cmask, em = g->emask, lo = (uint64_t)lowest;
    uint64_t span = (uint64_t)g->n_letters - lo, e = 0, next;
    int ls = g->lshift, lastshift = g->lastshift;
    if (n) { memcpy(&e, g->base, 8); e &= em; }
    for (Py_ssize_t i = 0; i < n; i++, e = next) {
        uint64_t c = e & cm, lt = e >> ls;
        next = 0;
        if (i + 1 < n) { memcpy(&next, g->base + (i + 1) * w, 8); next &= em; }
        if (c >= un || (c && c < up)) return i;
        if (i < p) continue;
        if (lt - lo > span) return i;
        if (i + 1 < n && !(e >> lastshift & 1) && (next >> ls) <= lt) return i;
    }
    return -1;
}

static const Layout LAYOUTS[2] = {LAYOUT_U32, LAYOUT_U64};
static PyTypeObject *MmapType; /* mmap.mmap: a read-only map of a file is read in place */

/* Whether `obj` exports memory nobody can change while the core reads it in place: bytes, a read-only
 * mmap (a file mapped with ACCESS_READ), or a memoryview of either. Anything else (an array,
 * a bytearray, a read-only view of writable memory) is copied: checked bytes must stay so. */
int immutable_memory(PyObject *obj) {
    Py_INCREF(obj);
    if (PyMemoryView_Check(obj)) { /* its `obj` is the exporter underneath (views of views too) */
        PyObject *under = PyObject_GetAttrString(obj, "obj");
        Py_DECREF(obj);
        if (!under) { PyErr_Clear(); return 0; }
        obj = under;
    }
    int ok = 0;
    if (PyBytes_CheckExact(obj)) ok = 1;
    else if (MmapType && Py_TYPE(obj) == MmapType) {
        Py_buffer v;
        if (PyObject_GetBuffer(obj, &v, PyBUF_SIMPLE) == 0) { ok = v.readonly; PyBuffer_Release(&v); }
        else PyErr_Clear();
    }
    Py_DECREF(obj);
    return ok;
}

/* The stored edges: in place (held), or copied when the caller's memory could change or is
 * not aligned for the layout's width (`align`: packed edges are read unaligned). `pad` zero
 * bytes end the buffer (packed: 8 - edge_bytes, so an 8-byte read of the last edge stays
 * inside). 0, or -1 with an exception set. */
static int take_edges(Graph *g, PyObject *edges, Py_ssize_t size, Py_ssize_t pad, Py_ssize_t align) {
    if (PyObject_GetBuffer(edges, &g->view, PyBUF_SIMPLE) < 0) return -1;
    g->has_view = 1;
    g->base = (const unsigned char *)g->view.buf;
    if (g->view.len < pad || (g->view.len - pad) % size) {
        raise_fault(MalformedGraph, "size", g->view.len, (long long)size);
        return -1;
    }
    g->n = (g->view.len - pad) / size;
    for (Py_ssize_t k = g->view.len - pad; k < g->view.len; k++)
        if (g->base[k]) { raise_fault(MalformedGraph, "padding", k, g->base[k]); return -1; }
    if (g->view.readonly && (uintptr_t)g->view.buf % (uintptr_t)align == 0 && immutable_memory(edges)) return 0;
    g->owned = malloc(g->view.len ? (size_t)g->view.len : 1);
    if (!g->owned) { PyErr_NoMemory(); return -1; }
    memcpy(g->owned, g->view.buf, (size_t)g->view.len);
    g->base = g->owned;
    PyBuffer_Release(&g->view);
    g->has_view = 0;
    return 0;
}

/* the checks every walk relies on, over the stored edges (MalformedGraph naming the first
 * fault): the root pointers are there, the last edge closes its list, and (a branch-free pass
 * over blocks that says whether a block holds a suspect edge, then a closer look) every child
 * inside the array and not at a root pointer, reserved bits clear, letters in the alphabet (0
 * only where a separator may be), sibling lists strictly ascending */
static int check_stored(const Graph *g) {
    Py_ssize_t n = g->n;
    int lowest = g->separator ? 0 : 1;
    if (n < g->pointers) { raise_fault(MalformedGraph, "short", n, g->pointers); return -1; }
    if (n > g->pointers && !LASTE(g, edge_at(g, n - 1))) { raise_fault(MalformedGraph, "unclosed", n - 1, 0); return -1; }
    Py_ssize_t i = g->wide == 2 ? scan_packed(g, lowest) : g->wide ? scan64(g, lowest) : scan32(g, lowest);
    if (i < 0) return 0;
    uint64_t e = edge_at(g, i), reserved = g->wide == 1 ? ((1ULL << 54) - 1) & ~g->cmask : 0;
    Py_ssize_t c = CHILD(g, e);
    int lt = LETTER(g, e);
    if (c >= n || (e & reserved)) raise_fault(MalformedGraph, "child", i, (long long)c);
    else if (c && c < g->pointers) raise_fault(MalformedGraph, "pointer", i, (long long)c);
    else if (lt < lowest || lt > g->n_letters) raise_fault(MalformedGraph, "letter", i, lt);
    else raise_fault(MalformedGraph, "order", i, lt);
    return -1;
}

/* `kids` (core.h) for an alphabet of at most 31 letters, in one pass from the end: an edge's
 * letter bit, and the rest of its list's unless it closes the list. The stored edges are
 * checked (letters in the alphabet, the last edge closing its list). 0, or -1 (no memory).
 * Made by the first search that reads them (graph_masks), not on load: a membership walk, a
 * listing or a hook reads none, and the array is as big as the file. */
static int make_kids(Graph *g) {
    if (g->n_letters > 31 || g->n <= 0 || g->kids) return 0;
    uint32_t *k = malloc((size_t)g->n * sizeof *k);
    if (!k) { PyErr_NoMemory(); return -1; }
    uint32_t after = 0;
    if (!g->wide) { /* the u32 layout (letter in bits 24-31, last 22), read as it is stored */
        const uint32_t *E = (const uint32_t *)g->base;
        for (Py_ssize_t i = g->n - 1; i >= 0; i--) {
            uint32_t e = E[i], lt = e >> 24;
            after = (e >> 22 & 1u ? 0u : after) | (lt < 32 ? 1u << lt : 0u);
            k[i] = after;
        }
    } else {
        for (Py_ssize_t i = g->n - 1; i >= 0; i--) {
            uint64_t e = edge_at(g, i);
            int lt = LETTER(g, e);
            if (LASTE(g, e)) after = 0;
            after |= lt < 32 ? 1u << lt : 0; /* (a root pointer's letter is not checked; no walk reads its mask) */
            k[i] = after;
        }
    }
    g->owned_kids = k;
    g->kids = k;
    return 0;
}

int graph_masks(Graph *g) {
    if (g->kids || g->n_letters > 31) return 0;
    if (g->shared) {
        Graph *b = (Graph *)g->shared;
        if (graph_masks(b) < 0) return -1;
        g->kids = b->kids;
        return 0;
    }
    return make_kids(g);
}

/* graph_image (core.h). The lists are laid out in the file's order, every list of the stored
 * edges (a list ends at an edge marked last) and after them the in-memory ones (a GADDAG file's
 * rebuilt DAWG root: its pointer, a one-edge list, then its list), so that the list from edge s
 * has its mask at 1 + s + (the lists before it); a child that points into the middle of a list
 * (lexc's minimizer shares a list's tail: 8,801 of the 419,252 lists ENABLE's gaddawg's
 * children name) names a copy of that tail, after them. Three passes in order over the edges:
 * where lists begin (a bit an edge, and the count before each 64), the tails children name (a
 * bit an edge), the image, each child's offset counted from the bits (a breadth-first order
 * from the roots searched no faster, and an offset table as big as the file took twice as long
 * to make). */
#define IMAGE_MAX ((Py_ssize_t)1 << 22) /* child fields of 22 bits */

typedef struct {
    const uint64_t *begins, *tailbits;  /* bit i: a list begins at edge i; a child names the tail from edge i */
    const uint32_t *before, *tails_before; /* the lists, and the tails, beginning before edge 64 w */
    const uint32_t *tail_off;           /* each tail's mask's offset, in the order of their first edges */
} ImageMap;

/* the image offset of the list a stored child `c` (non-zero) names */
static uint32_t image_offset(const ImageMap *m, uint32_t c) {
    uint64_t bits = m->begins[c >> 6];
    if (bits >> (c & 63) & 1u) {
        uint64_t below = bits & ((1ULL << (c & 63)) - 1);
        return 1 + c + m->before[c >> 6] + (uint32_t)(lexc_pop32((uint32_t)below) + lexc_pop32((uint32_t)(below >> 32)));
    }
    uint64_t below = m->tailbits[c >> 6] & ((1ULL << (c & 63)) - 1); /* (c is a tail: pass two marked it) */
    return m->tail_off[m->tails_before[c >> 6] + (uint32_t)(lexc_pop32((uint32_t)below) + lexc_pop32((uint32_t)(below >> 32)))];
}

/* edge i of the graph, its stored edges and then its in-memory ones, in the u32 layout (the
 * image's): as it is where the graph is u32, its fields moved there from a u64 or packed
 * edge (make_image reads only graphs of fewer than IMAGE_MAX edges, and of at most 31
 * letters: every field fits) */
static inline uint32_t image_edge(const Graph *g, Py_ssize_t i) {
    if (LEXC_LIKELY(!g->wide && i < g->n)) return ((const uint32_t *)g->base)[i];
    uint64_t e = edge_at(g, i);
    if (!g->wide) return (uint32_t)e;
    return (uint32_t)LETTER(g, e) << 24 | (uint32_t)TERM(g, e) << 23 | (uint32_t)LASTE(g, e) << 22 |
           (uint32_t)CHILD(g, e);
}

/* write the list from edge s (to the edge marked last) at image offset o: its mask, its edges
 * with their children's offsets; the offset after it */
static Py_ssize_t image_list(const Graph *g, const ImageMap *m, uint32_t *img, Py_ssize_t s, Py_ssize_t o) {
    uint32_t mask = 0;
    Py_ssize_t j = o + 1;
    for (Py_ssize_t i = s;; i++) {
        uint32_t e = image_edge(g, i), c = e & 0x3FFFFF;
        mask |= 1u << (e >> 24); /* (a stored edge's letter is at most n_letters: proven) */
        img[j++] = (e & ~0x3FFFFFu) | (c ? image_offset(m, c) : 0u);
        if (e >> 22 & 1u) break; /* (the last stored edge closes its list: proven) */
    }
    img[o] = mask;
    return j;
}

static int make_image(Graph *g) {
    Py_ssize_t n = g->n, p = g->pointers, total = n + g->n_extra, words = (total >> 6) + 1;
    if (total >= IMAGE_MAX || g->n_letters > 31 || n <= p) return 0; /* (an image is at least as long) */
    uint64_t *begins = calloc((size_t)words, sizeof *begins), *tailbits = calloc((size_t)words, sizeof *tailbits);
    uint32_t *before = calloc((size_t)words, sizeof *before), *tails_before = calloc((size_t)words, sizeof *tails_before);
    uint32_t *tail_at = NULL, *tail_off = NULL, *img = NULL;
    if (!begins || !tailbits || !before || !tails_before) goto nomem;
    Py_ssize_t lists = 0, tails = 0, tail_edges = 0;
    /* (without a branch an edge where no predictor could guess: whether a list ends or a
     * child is a leaf follows no pattern, and a mispredicted branch an edge cost half the time) */
    uint64_t opens = 1; /* a list begins at the next edge */
    for (Py_ssize_t i = p; i < total; i++) { /* (the last stored edge closes its list: proven) */
        if (!(i & 63)) before[i >> 6] = (uint32_t)lists;
        begins[i >> 6] |= opens << (i & 63);
        lists += (Py_ssize_t)opens;
        opens = image_edge(g, i) >> 22 & 1u;
    }
    for (Py_ssize_t i = 0; i < total; i++) { /* (the proof: a child is 0 or in p .. total - 1) */
        uint32_t c = image_edge(g, i) & 0x3FFFFF;
        uint64_t known = (begins[c >> 6] | tailbits[c >> 6]) >> (c & 63) & 1u; /* (edge 0 begins no list) */
        if (!known & (c != 0)) {
            tailbits[c >> 6] |= 1ULL << (c & 63);
            tails++;
            for (Py_ssize_t k = c; tail_edges++, !(image_edge(g, k) >> 22 & 1u); k++) {}
        }
    }
    Py_ssize_t size = 1 + total + lists + tails + tail_edges;
    if (size >= IMAGE_MAX) goto none;
    tail_at = malloc(((size_t)tails + 1) * sizeof *tail_at);
    tail_off = malloc(((size_t)tails + 1) * sizeof *tail_off);
    img = malloc((size_t)size * sizeof *img);
    if (!tail_at || !tail_off || !img) goto nomem;
    Py_ssize_t o = 1 + total + lists, k = 0;
    for (Py_ssize_t c = p; c < total; c++) {
        if (!(c & 63)) tails_before[c >> 6] = (uint32_t)k;
        if (!(tailbits[c >> 6] >> (c & 63) & 1u)) continue;
        tail_at[k] = (uint32_t)c; tail_off[k] = (uint32_t)o; k++;
        o++; /* (its mask) */
        for (Py_ssize_t i = c; o++, !(image_edge(g, i) >> 22 & 1u); i++) {}
    }
    ImageMap m = {begins, tailbits, before, tails_before, tail_off};
    img[0] = 0;
    for (Py_ssize_t r = 0; r < p; r++) {
        uint32_t e = image_edge(g, r), c = e & 0x3FFFFF;
        img[1 + r] = (e & ~0x3FFFFFu) | (c ? image_offset(&m, c) : 0u);
    }
    o = 1 + p; /* every list, in order: an edge's mask slot is the last list's to begin */
    Py_ssize_t mask_at = o;
    uint32_t mask = 0;
    for (Py_ssize_t i = p; i < total; i++) {
        uint32_t e = image_edge(g, i), c = e & 0x3FFFFF, opened = (uint32_t)(begins[i >> 6] >> (i & 63) & 1u);
        o += opened;
        mask_at = opened ? o - 1 : mask_at;
        mask = (mask & (opened - 1u)) | 1u << (e >> 24); /* (a stored edge's letter is at most n_letters: proven) */
        img[o++] = (e & ~0x3FFFFFu) | (image_offset(&m, c ? c : (uint32_t)p) & (0u - (uint32_t)(c != 0)));
        img[mask_at] = mask;
    }
    for (k = 0; k < tails; k++) o = image_list(g, &m, img, tail_at[k], o);
    /* the in-memory root: the edge right after the stored ones, a list of its own */
    g->image_extra_root = g->n_extra ? (Py_ssize_t)image_offset(&m, (uint32_t)n) : 0;
    free(begins); free(tailbits); free(before); free(tails_before); free(tail_at); free(tail_off);
    g->owned_image = img; g->image = img;
    return 0;
none: /* too big for the child field: no image, the searches read the graph and its masks */
    free(begins); free(tailbits); free(before); free(tails_before);
    return 0;
nomem:
    free(begins); free(tailbits); free(before); free(tails_before); free(tail_at); free(tail_off); free(img);
    PyErr_NoMemory();
    return -1;
}

int graph_image(Graph *g) {
    if (g->image_tried) return 0;
    if (g->shared) {
        Graph *b = (Graph *)g->shared;
        if (graph_image(b) < 0) return -1;
        g->image = b->image; g->image_tried = 1;
        /* (the image holds the shared graph's in-memory edges: this one's root among them only
         * where they are the same edges) */
        if (g->n_extra == b->n_extra && (!g->n_extra || !memcmp(g->extra, b->extra, (size_t)g->n_extra * 8)))
            g->image_extra_root = b->image_extra_root;
        return 0;
    }
    if (make_image(g) < 0) return -1;
    g->image_tried = 1;
    return 0;
}

/* the member walk's table of its first levels (`first`, core.h), each list read once: every
 * entry -1, then the lists met after one and two letters read in, each edge as its child list
 * and its terminal bit (child << 1 | terminal). 0, or -1 (no memory). */
static void fill_list(const Graph *g, int32_t *row, Py_ssize_t from) {
    for (Py_ssize_t i = from; i; i++) { /* (letters in the alphabet, checked: a row has B entries) */
        uint64_t e = edge_at(g, i);
        row[LETTER(g, e)] = (int32_t)(CHILD(g, e) << 1 | TERM(g, e));
        if (LASTE(g, e)) break;
    }
}

static int make_first(Graph *g, Py_ssize_t member) {
    int B = g->n_letters + 1;
    size_t two = (size_t)B * (size_t)B, all = two + two * (size_t)B;
    int32_t *t = malloc(all * sizeof(int32_t)), one[128];
    if (!t) { PyErr_NoMemory(); return -1; }
    for (size_t k = 0; k < all; k++) t[k] = -1;
    for (int a = 0; a < B; a++) one[a] = -1;
    fill_list(g, one, CHILD(g, edge_at(g, member)));
    one[0] = -1; /* (letter 0, a GADDAG's separator, begins no member walk) */
    for (int a = 1; a < B; a++) {
        if (one[a] < 0) continue;
        int32_t *row2 = t + (size_t)B * (size_t)a;
        fill_list(g, row2, one[a] >> 1);
        row2[0] = -1;
        for (int b = 1; b < B; b++) {
            if (row2[b] < 0) continue;
            int32_t *row3 = t + two + (size_t)(B * a + b) * (size_t)B;
            fill_list(g, row3, row2[b] >> 1);
            row3[0] = -1;
        }
    }
    g->first = t;
    g->first_base = B;
    return 0;
}

/* The member walk's prefix table (core.h `prefixes`): a hash table of every word of 4 to K - 1
 * letters and every K-letter prefix of a longer word (K <= 8), each with the edge its last
 * letter reaches, so that a word of 4 letters or more is answered (fewer than K) or starts its
 * walk K letters in (K or more) with one read, where the lists take a dependent read a letter
 * past `first`'s three. K is the longest whose table, 8 bytes a slot and at most 4/5 full, adds
 * with `first` at most twice the stored edges' bytes (ENABLE: K = 7 for the DAWG, 86,441 keys
 * in 864 KB; 6 for the packed DAWG; 8 for the GADDAGs). The walks that count the keys stop at
 * four edges a slot allowed, so that the work stays bounded by the file's size, whatever the
 * graph (one whose paths branch at every level cannot hold up a lookup). */
#define PREFIX_MIN 4
#define PREFIX_MAX 8 /* 5 bits a letter: a key of 40 bits, a slot's value 24 */

typedef struct {
    const Graph *g;
    Py_ssize_t words[PREFIX_MAX + 1], prefixes[PREFIX_MAX + 1]; /* counted: the words, the prefixes of each length */
    Py_ssize_t visits, most; /* edges read, and the most the count may read */
    uint64_t *slots;         /* NULL while counting */
    uint32_t size;           /* slots */
    int vbits, depth;        /* the value's bits (a slot: key << vbits | value); K, or the count's depth */
} PrefixWalk;

/* a key's first slot, of `size` (the high half of its hash times size) */
static inline uint32_t prefix_slot(uint64_t key, uint32_t size) {
    return (uint32_t)(((key * 0x9E3779B97F4A7C15ULL) >> 32) * size >> 32);
}

static void prefix_put(PrefixWalk *w, uint64_t key, uint64_t value) {
    uint32_t h = prefix_slot(key, w->size);
    while (w->slots[h]) h = h + 1 == w->size ? 0 : h + 1; /* (each key is met once: a list's letters differ) */
    w->slots[h] = key << w->vbits | value;
}

/* below the list from edge `from`, `key` the `level` letters before it: the words and prefixes
 * of each length counted, down to w->depth letters; or the keys put in the table; 0, or -1 when
 * the count reads more edges than it may */
static int prefix_paths(PrefixWalk *w, Py_ssize_t from, int level, uint64_t key) {
    const Graph *g = w->g;
    for (Py_ssize_t i = from; i; i++) { /* (every list closes inside the array: proved) */
        uint64_t e = edge_at(g, i);
        int lt = LETTER(g, e), at = level + 1;
        if (!w->slots && ++w->visits > w->most) return -1;
        if (lt) { /* (letter 0, a GADDAG's separator, is in no word) */
            uint64_t k = key << 5 | (uint64_t)lt;
            if (!w->slots) {
                w->prefixes[at]++;
                w->words[at] += TERM(g, e);
            } else if (at == w->depth || (at >= PREFIX_MIN && TERM(g, e))) {
                prefix_put(w, k, (uint64_t)CHILD(g, e) << 1 | (uint64_t)TERM(g, e));
            }
            if (at < w->depth && prefix_paths(w, CHILD(g, e), at, k) < 0) return -1;
        }
        if (LASTE(g, e)) break;
    }
    return 0;
}

/* make the prefix table where the graph can have one (else prefixes stays NULL), in at most
 * `budget` bytes (-1: what adds, with `first`, at most twice the stored edges' bytes): 0, or -1
 * with MemoryError set */
static int make_prefixes(Graph *g, Py_ssize_t budget) {
    if (!g->first || g->member_root < 0) return 0;
    size_t B = (size_t)g->first_base;
    size_t stored = (size_t)g->n * (size_t)g->edge_bytes, first = (B * B + B * B * B) * sizeof(int32_t);
    if (budget < 0) budget = 2 * stored > first ? (Py_ssize_t)(2 * stored - first) : 0;
    size_t most = (size_t)budget / sizeof(uint64_t); /* slots allowed */
    if (most < 2) return 0;
    if (most > ((size_t)1 << 30)) most = (size_t)1 << 30;
    uint64_t edges = (uint64_t)(g->n + g->n_extra);
    Py_ssize_t root = CHILD(g, edge_at(g, g->member_root));
    for (int deepest = PREFIX_MAX; deepest >= PREFIX_MIN; deepest--) { /* (deeper counts may read too much) */
        PrefixWalk w = {.g = g, .most = (Py_ssize_t)(4 * most), .depth = deepest};
        if (prefix_paths(&w, root, 0, 0) < 0) continue;
        for (int depth = deepest; depth >= PREFIX_MIN; depth--) {
            w.vbits = 64 - 5 * depth;
            Py_ssize_t keys = w.prefixes[depth];
            for (int l = PREFIX_MIN; l < depth; l++) keys += w.words[l];
            if (edges >= (1ULL << (w.vbits - 1)) || !keys || (size_t)keys > most / 5 * 4) continue;
            w.depth = depth;
            w.size = (uint32_t)(keys + keys / 4 + 1); /* (at most `most`) */
            w.slots = calloc(w.size, sizeof(uint64_t));
            if (!w.slots) { PyErr_NoMemory(); return -1; }
            prefix_paths(&w, root, 0, 0);
            g->prefixes = w.slots;
            g->prefix_size = w.size;
            g->prefix_vbits = w.vbits;
            g->prefix_len = depth;
            return 0;
        }
        return 0;
    }
    return 0;
}

/* the prefix table, made once (the GIL held), in `budget` bytes (make_prefixes): 0, or -1 with
 * MemoryError set */
static int prefix_table(Graph *g, Py_ssize_t budget) {
    if (g->prefix_tried) return 0;
    g->prefix_tried = 1;
    return make_prefixes(g, budget);
}

/* count `walks` more member walks of the graph; at the PREFIX_AFTER-th, make the prefix table
 * (a ski rental: making it, 3-6 ms for ENABLE, costs about what that many walks take, so that
 * a few lookups never pay for it, and a loop of many soon gains): 0, or -1 with MemoryError set */
#define PREFIX_AFTER 65536
static inline int member_walks(Graph *g, Py_ssize_t walks) {
    if (g->prefix_tried) return 0;
    g->walks += walks;
    return g->walks < PREFIX_AFTER ? 0 : prefix_table(g, -1);
}

/* the extra edges (little-endian u64, each holding an edge of the graph's layout), copied and
 * checked as the stored ones are: children inside the whole array and not at a root pointer,
 * no bits outside the layout's fields, letters in the alphabet, lists ascending, the last
 * edge closing its list */
static int take_extra(Graph *g, const Py_buffer *extra) {
    Py_ssize_t k = extra->len / 8, n = g->n, total;
    if (extra->len % 8) { raise_fault(MalformedGraph, "size", extra->len, 8); return -1; }
    if (!k) return 0;
    if (k > PY_SSIZE_T_MAX / 8 - n) { PyErr_NoMemory(); return -1; }
    total = n + k;
    g->extra = malloc((size_t)k * 8);
    if (!g->extra) { PyErr_NoMemory(); return -1; }
    memcpy(g->extra, extra->buf, (size_t)k * 8);
    g->n_extra = k;
    int lowest = g->separator ? 0 : 1;
    uint64_t fields = g->wide == 2 ? g->emask : g->wide ? ~(((1ULL << 54) - 1) & ~g->cmask) : 0xFFFFFFFFULL;
    for (Py_ssize_t j = 0; j < k; j++) {
        uint64_t e = g->extra[j];
        Py_ssize_t c = CHILD(g, e), i = n + j;
        int lt = LETTER(g, e);
        if ((uint64_t)c >= (uint64_t)total || (e & ~fields)) { raise_fault(MalformedGraph, "child", i, (long long)c); return -1; }
        if (c && c < g->pointers) { raise_fault(MalformedGraph, "pointer", i, (long long)c); return -1; }
        if (lt < lowest || lt > g->n_letters) { raise_fault(MalformedGraph, "letter", i, lt); return -1; }
        if (j + 1 < k && !LASTE(g, e) && LETTER(g, g->extra[j + 1]) <= lt) { raise_fault(MalformedGraph, "order", i, lt); return -1; }
    }
    if (!LASTE(g, g->extra[k - 1])) { raise_fault(MalformedGraph, "unclosed", total - 1, 0); return -1; }
    return 0;
}

/* Graph(edges, layout, letters, pointers, separator=False, extra=b"", member=-1,
 *       encode=None, widths=None)
 * `edges`: a buffer of little-endian edges in `layout` ("u32" or "u64", or "packed" with
 * `widths` = (edge_bytes, child_bits): UnknownLayout for any other), read in place when it is
 * immutable memory (bytes, a read-only file map) and copied otherwise; or a Graph made with
 * the same layout, letters, pointers and separator, whose checked stored edges the new one
 * shares. `extra`: little-endian u64 edges kept after
 * the stored ones; `member`: the edge `word in lexicon` walks from, forwards (-1: none);
 * `encode`: 256 bytes mapping a Latin-1 character to its letter code.
 * Everything is given here and checked here (MalformedGraph naming the first fault): what a
 * Graph answers never changes afterwards (the first search adds the letter masks it reads
 * by, made from the checked edges: graph_masks). */
static PyObject *Graph_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *names[] = {"edges", "layout", "letters", "pointers", "separator", "extra", "member", "encode",
                            "widths", NULL};
    PyObject *edges, *layout_name, *encode = Py_None, *widths = Py_None;
    int letters, pointers, separator = 0, edge_bytes = 0, child_bits = 0;
    Py_ssize_t member = -1;
    Py_buffer extra = {0};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OUii|py*nOO:Graph", names, &edges, &layout_name, &letters,
                                     &pointers, &separator, &extra, &member, &encode, &widths))
        return NULL;
    const Layout *layout = NULL;
    Layout packed = {"packed", 0, 0, 0, 0, 0};
    for (int k = 0; k < 2; k++)
        if (!PyUnicode_CompareWithASCIIString(layout_name, LAYOUTS[k].name)) layout = &LAYOUTS[k];
    Graph *g = NULL;
    Py_buffer enc = {0};
    if (!PyUnicode_CompareWithASCIIString(layout_name, "packed")) {
        /* edge_bytes 1..8, a child field of at least one bit, a letter field of 1..8 bits above
         * the two flags: every field inside the 8 * edge_bytes bits an edge is */
        if (!PyTuple_Check(widths) || !PyArg_ParseTuple(widths, "ii:widths", &edge_bytes, &child_bits) ||
            edge_bytes < 1 || edge_bytes > 8 || child_bits < 1 || 8 * edge_bytes - 2 - child_bits < 1 ||
            8 * edge_bytes - 2 - child_bits > 8) {
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "Graph: packed edges take widths=(edge_bytes 1..8, child_bits), "
                                "with 1 to 8 letter bits left above the child and the two flags");
            }
            goto fail;
        }
        packed.size = edge_bytes;
        packed.lastshift = child_bits;
        packed.tshift = child_bits + 1;
        packed.lshift = child_bits + 2;
        packed.cbits = child_bits;
        layout = &packed;
    } else if (widths != Py_None) {
        PyErr_SetString(PyExc_ValueError, "Graph: widths are only for packed edges");
        goto fail;
    }
    if (!layout) {
        PyErr_Format(UnknownLayout, "edge layout %R: the core reads u32 and u64 (formats/dawg.md), and packed "
                     "edges given their widths (formats/dawg-packed.md)", layout_name);
        goto fail;
    }
    if (letters < 1 || letters > 127 || pointers < 1) {
        PyErr_SetString(PyExc_ValueError, "Graph: letters in 1..127, at least one root pointer");
        goto fail;
    }
    if (encode != Py_None) {
        if (PyObject_GetBuffer(encode, &enc, PyBUF_SIMPLE) < 0) goto fail;
        if (enc.len != 256) { PyErr_SetString(PyExc_ValueError, "Graph: encode is 256 bytes"); goto fail; }
    }
    g = (Graph *)PyType_GenericAlloc(type, 0);
    if (!g) goto fail;
    g->member_root = -1;
    g->wide = layout == &packed ? 2 : layout->size == 8;
    g->lshift = layout->lshift; g->tshift = layout->tshift; g->lastshift = layout->lastshift;
    g->cmask = (1ULL << layout->cbits) - 1;
    g->edge_bytes = layout->size;
    g->emask = layout->size == 8 ? ~0ULL : (1ULL << (8 * layout->size)) - 1;
    g->n_letters = letters; g->pointers = pointers; g->separator = separator;
    if (enc.obj) { memcpy(g->encode, enc.buf, 256); g->has_encode = 1; }
    if (PyObject_TypeCheck(edges, GraphType)) {
        const Graph *b = (const Graph *)edges;
        if (b->wide != g->wide || b->edge_bytes != g->edge_bytes || b->cmask != g->cmask || b->n_letters != letters ||
            b->pointers != pointers || b->separator != separator) {
            PyErr_SetString(PyExc_ValueError, "Graph: a shared graph has the same layout, letters, pointers and separator");
            goto fail;
        }
        Py_INCREF(edges);
        g->shared = edges;
        g->base = b->base;
        g->n = b->n;
        g->kids = b->kids;
    } else if (take_edges(g, edges, layout->size, g->wide == 2 ? 8 - layout->size : 0,
                          g->wide == 2 ? 1 : layout->size) < 0 || check_stored(g) < 0) {
        goto fail;
    }
    if (extra.obj && take_extra(g, &extra) < 0) goto fail;
    if (member < -1 || member >= g->n + g->n_extra) {
        PyErr_SetString(PyExc_IndexError, "Graph: the member edge is outside the array");
        goto fail;
    }
    g->member_root = member;
    if (g->n_letters <= 31 && member >= 0 && g->n + g->n_extra < (1 << 30) && make_first(g, member) < 0) goto fail;
    if (extra.obj) PyBuffer_Release(&extra);
    if (enc.obj) PyBuffer_Release(&enc);
    return (PyObject *)g;
fail:
    if (extra.obj) PyBuffer_Release(&extra);
    if (enc.obj) PyBuffer_Release(&enc);
    Py_XDECREF((PyObject *)g);
    return NULL;
}

/* the end of a heap type's dealloc: free the object, release its type */
void free_object(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    tp_free(self);
    Py_DECREF(tp);
}

static void Graph_dealloc(PyObject *self) {
    Graph *g = (Graph *)self;
    if (g->has_view) PyBuffer_Release(&g->view);
    free(g->owned);
    Py_XDECREF(g->shared);
    free(g->extra);
    free(g->owned_kids);
    free(g->owned_image);
    free(g->first);
    free(g->prefixes);
    free_object(self);
}

/* -- the proof ------------------------------------------------------------------------------ */

/* The proof's roots, read from a Python sequence and checked once for the three passes below:
 * a malloc'd array of nodes (0, or past the pointer slots), *count of them; NULL with an
 * exception set (IndexError for a root outside the array or at a pointer slot). */
static Py_ssize_t *proof_roots(const Graph *g, PyObject *roots, Py_ssize_t *count) {
    Py_ssize_t total = g->n + g->n_extra, nroots = PySequence_Size(roots);
    if (nroots < 0) return NULL;
    Py_ssize_t *at = malloc((size_t)(nroots ? nroots : 1) * sizeof *at);
    if (!at) { PyErr_NoMemory(); return NULL; }
    for (Py_ssize_t k = 0; k < nroots; k++) {
        PyObject *item = PySequence_GetItem(roots, k);
        if (!item) { free(at); return NULL; }
        at[k] = PyLong_AsSsize_t(item);
        Py_DECREF(item);
        if (at[k] == -1 && PyErr_Occurred()) { free(at); return NULL; }
        if (at[k] < 0 || at[k] >= total || (at[k] && at[k] < g->pointers)) {
            PyErr_SetString(PyExc_IndexError, "root outside the array or at a root pointer slot");
            free(at);
            return NULL;
        }
    }
    *count = nroots;
    return at;
}

/* The proof's answer at one root: the strings it spells, the most separators on one (0, 0
 * at root 0, which spells nothing). */
typedef struct { uint64_t strings; int seps; } RootFacts;

/* prove(roots, longest, most) -> [(strings, separators), ...] (graph.prove, in C): a walk over
 * positions, S[i] = terminal(i) + S[child(i)] + S[i + 1] (unless i closes its list), with the
 * longest string and the most separators on one; MalformedGraph(kind, edge, 0) for a cycle
 * ("cycle"), a path longer than `longest` (at most 255: a height is kept in a byte; "deep") or
 * more than `most` strings ("most"). The roots `at` are checked (proof_roots); their facts go
 * to out[]. 0, or -1 with an exception set. */
static int prove_exact(const Graph *g, const Py_ssize_t *at, Py_ssize_t nroots, int longest, unsigned long long most,
                       RootFacts *out) {
    Py_ssize_t total = g->n + g->n_extra;
    uint64_t *count = malloc((size_t)(total ? total : 1) * sizeof(uint64_t));
    uint8_t *height = calloc((size_t)(total ? total : 1), 1), *seps = calloc((size_t)(total ? total : 1), 1);
    uint8_t *state = calloc((size_t)(total ? total : 1), 1); /* 0 new, 1 on the path, 2 done */
    Py_ssize_t cap = 1024, top = 0;
    Py_ssize_t *stack = malloc((size_t)cap * sizeof(Py_ssize_t));
    const char *error = NULL;
    Py_ssize_t where = 0;
    int status = -1;
    if (!count || !height || !seps || !state || !stack) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t k = 0; k < nroots && !error; k++) {
        Py_ssize_t root = at[k];
        if (root && state[root] != 2) {
            top = 0;
            stack[top++] = root;
            state[root] = 1;
            while (top) {
                Py_ssize_t i = stack[top - 1], push = -1;
                uint64_t e = edge_at(g, i);
                Py_ssize_t c = CHILD(g, e);
                if (c && state[c] != 2) {
                    if (state[c] == 1) { error = "cycle"; where = c; break; }
                    push = c;
                } else if (!LASTE(g, e) && state[i + 1] != 2) {
                    if (state[i + 1] == 1) { error = "cycle"; where = i + 1; break; }
                    push = i + 1;
                }
                if (push >= 0) {
                    if (top == cap) {
                        Py_ssize_t *grown = realloc(stack, (size_t)cap * 2 * sizeof(Py_ssize_t));
                        if (!grown) { PyErr_NoMemory(); goto done; }
                        stack = grown; cap *= 2;
                    }
                    state[push] = 1;
                    stack[top++] = push;
                    continue;
                }
                uint64_t rest = 0;
                int high = 0, most_seps = 0;
                if (!LASTE(g, e)) { rest = count[i + 1]; high = height[i + 1]; most_seps = seps[i + 1]; }
                uint64_t below = c ? count[c] : 0;
                uint64_t sum = (uint64_t)TERM(g, e) + below;
                if (sum < below || sum + rest < sum || sum + rest > most) { error = "most"; where = i; break; }
                int deep = c ? height[c] + 1 : 1;
                if (deep > longest) { error = "deep"; where = i; break; }
                int sep = (LETTER(g, e) == 0) + (c ? seps[c] : 0);
                count[i] = sum + rest;
                height[i] = (uint8_t)(deep > high ? deep : high);
                sep = sep > most_seps ? sep : most_seps;
                seps[i] = (uint8_t)(sep > 2 ? 2 : sep);
                state[i] = 2;
                top--;
            }
        }
        if (!error) out[k] = root ? (RootFacts){count[root], seps[root]} : (RootFacts){0, 0};
    }
    if (error) fail(error, where, 0);
    else status = 0;
done:
    free(count); free(height); free(seps); free(state); free(stack);
    return status;
}

/* -- the proof in one pass, for a graph laid out in order ---------------------------------
 *
 * lexc lays a DAWG out children first (every child index before the list holding its edge)
 * and a GADDAG parents first (every child index after its edge): formats/dawg.md and
 * gaddag.md, "Layout". Either way one pass settles every position from positions settled
 * already: parents first, one sweep from the last edge down (a position's next sibling and
 * child are both above it); children first, the lists in index order, each from its last
 * edge down. One u32 a position: its longest string (bits 0-6), whether one of its strings
 * holds a separator (bit 7), its strings (bits 8-31).
 *
 * The pass checks only what keeps these fields exact: no count reaches 2^24 and no string
 * 128 edges (an OR of every value says so), and no separator edge leads to a string that
 * holds another. The bounds are then checked at the roots alone: a position a root reaches
 * spells no more strings than the root (each, after the path to it, is the root's), nor a
 * longer one. A graph in neither order is left to the walk (prove_walk), which works the same
 * words; one past these widths, with a string of two separators anywhere or a root past its
 * bounds, to the exact walk (prove_exact), which names the fault the pure path names, or
 * finds none where the passes were only cautious. */
#define O_HIGH(x) ((x) & 0x7Fu)
#define O_SEP(x) ((x) >> 7 & 1u)
#define O_COUNT(x) ((x) >> 8)

/* The word of position j, from its edge (its letter, terminal bit), its child's word (0: no
 * child) and its next sibling's (0 where j closes its list), worked on whole words: the counts
 * added (bits 8-31 shifted down: each below 2^24, so the sum below 2^25), the separator bits
 * OR'ed in place (bit 7), the larger of the child's height + 1 and the sibling's. `ors`
 * gathers every count and height by OR, a height shifted so that 128 lands where a count's
 * 2^24 does (O_OVER: a field past its width); `twice`, a separator edge whose child's strings
 * hold a separator. */
#define O_OVER(ors) ((ors) >> 24)
static inline uint32_t o_word(uint32_t letter, uint32_t term, uint32_t child, uint32_t next, uint32_t *ors,
                              uint32_t *twice) {
    uint32_t mine = (uint32_t)(letter == 0) << 7; /* a separator edge: bit 7 */
    uint32_t deep = O_HIGH(child) + 1u, after = O_HIGH(next), high = deep > after ? deep : after;
    uint32_t count = term + O_COUNT(child) + O_COUNT(next);
    *twice |= mine & child;
    *ors |= count | high << 17;
    return count << 8 | ((child | next | mine) & 0x80u) | (high & 0x7Fu);
}

/* An edge as the proof's passes read it: `u32` (a constant in each copy of a pass) a graph of
 * u32 edges read at their fixed bits (formats/dawg.md), where the pass reads stored edges only;
 * else any layout, through edge_at. */
#define W_EDGE(i) (u32 ? (uint64_t)((const uint32_t *)g->base)[i] : edge_at(g, i))
#define W_LETTER(e) (u32 ? (int)((e) >> 24 & 0xFF) : LETTER(g, e))
#define W_TERM(e) (u32 ? (int)((e) >> 23 & 1) : TERM(g, e))
#define W_LAST(e) (u32 ? (int)((e) >> 22 & 1) : LASTE(g, e))
#define W_CHILD(e) (u32 ? (Py_ssize_t)((e) & 0x3FFFFF) : CHILD(g, e))

/* Parents first, from the last stored position down to `lo` (a root's: every position it
 * reaches lies above it), in blocks of 4096 positions (a graph out of order is left at the
 * end of the block where it shows). 0 when every position from `lo` up settled. The child's
 * word is asked for 16 positions ahead (a prefetch): most of the sweep's time is waiting for
 * it. (A stored edge's child is a stored position, inside info: the constructor checked.) */
static inline uint32_t sweep_copy(const Graph *g, uint32_t *info, Py_ssize_t lo, int u32) {
    Py_ssize_t a = lo, j = g->n - 1;
    uint32_t order = 0, ors = 0, twice = 0;
    uint32_t word = 0; /* position j + 1's, where j does not close its list */
    while (j >= a && !(order | O_OVER(ors) | twice)) {
        Py_ssize_t stop = j - 4095 > a ? j - 4095 : a;
        for (; j >= stop; j--) {
            if (j >= a + 16) LEXC_PREFETCH(&info[W_CHILD(W_EDGE(j - 16))]);
            uint64_t e = W_EDGE(j);
            Py_ssize_t c = W_CHILD(e);
            uint32_t keep = (uint32_t)W_LAST(e) - 1u; /* 0 where j closes its list (a mask: the bit is no branch) */
            order |= (uint64_t)(c - 1) < (uint64_t)j; /* a child at or before its edge (c - 1: none for no child) */
            word = o_word((uint32_t)W_LETTER(e), (uint32_t)W_TERM(e), info[c], word & keep, &ors, &twice);
            info[j] = word;
        }
    }
    return order | O_OVER(ors) | twice;
}

/* Children first: the stored lists in index order, each from its last edge down, every child
 * in a list before it (settled already). 1 when settled. */
static inline int ascend_copy(const Graph *g, uint32_t *info, int u32) {
    Py_ssize_t a = g->pointers, n = g->n;
    uint32_t ors = 0, twice = 0;
    while (a < n) {
        Py_ssize_t b = a;
        while (!W_LAST(W_EDGE(b))) b++; /* (the constructor proved the last stored edge closes its list) */
        uint32_t next = 0;
        for (Py_ssize_t j = b; j >= a; j--) {
            uint64_t e = W_EDGE(j);
            Py_ssize_t c = W_CHILD(e);
            if (c >= a) return 0;
            next = o_word((uint32_t)W_LETTER(e), (uint32_t)W_TERM(e), info[c], j < b ? next : 0, &ors, &twice);
            info[j] = next;
        }
        if (O_OVER(ors) | twice) return 0;
        a = b + 1;
    }
    return 1;
}

/* the sweep and the ascent on the copy for the graph's layout */
static LEXC_NOINLINE uint32_t sweep(const Graph *g, uint32_t *info, Py_ssize_t lo) {
    return g->wide ? sweep_copy(g, info, lo, 0) : sweep_copy(g, info, lo, 1);
}
static LEXC_NOINLINE int ascend(const Graph *g, uint32_t *info) {
    return g->wide ? ascend_copy(g, info, 0) : ascend_copy(g, info, 1);
}

/* The edges kept in memory after the stored ones (a GADDAG's rebuilt DAWG root: a pointer,
 * then one list), their lists from the last down, each child stored or in a later list. */
static int settle_extra(const Graph *g, uint32_t *info) {
    Py_ssize_t b = g->n + g->n_extra - 1;
    uint32_t ors = 0, twice = 0;
    while (b >= g->n) {
        Py_ssize_t a = b;
        while (a > g->n && !LASTE(g, edge_at(g, a - 1))) a--;
        uint32_t next = 0;
        for (Py_ssize_t j = b; j >= a; j--) {
            uint64_t e = edge_at(g, j);
            Py_ssize_t c = CHILD(g, e);
            if (c >= g->n && c <= b) return 0;
            next = o_word((uint32_t)LETTER(g, e), (uint32_t)TERM(g, e), info[c], j < b ? next : 0, &ors, &twice);
            info[j] = next;
        }
        if (O_OVER(ors) | twice) return 0;
        b = a - 1;
    }
    return 1;
}

/* A zeroed working array of `bytes` for one proof, freed by words_free(p, *mapped). A fresh
 * array of a few megabytes costs a page fault a 4 KiB page as the sweep first touches it
 * (about 1.6 ms for ENABLE's GADDAG, half the sweep); on Linux an array of 2 MiB or more is
 * therefore an anonymous mapping aligned to 2 MiB and advised to use transparent huge pages
 * (one fault a 2 MiB page where the system grants them: about 0.4 ms), *mapped its length.
 * Elsewhere, or where the mapping fails, calloc (*mapped 0); and calloc under AddressSanitizer,
 * which checks a heap array's bounds to the byte where a mapping's rounded-up end would hide
 * a stray read. */
#define HUGE_PAGE ((size_t)2 << 20)
#if defined(__SANITIZE_ADDRESS__)
#define LEXC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LEXC_ASAN 1
#endif
#endif
#if defined(__linux__) && defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE) && !defined(LEXC_ASAN)
#define LEXC_HUGE_WORDS 1
#endif
static void *words_zeroed(size_t bytes, size_t *mapped) {
    *mapped = 0;
#ifdef LEXC_HUGE_WORDS
    if (bytes >= HUGE_PAGE && bytes <= SIZE_MAX / 2) {
        size_t len = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        char *raw = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw != MAP_FAILED) {
            char *at = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
            size_t head = (size_t)(at - raw), tail = HUGE_PAGE - head;
            if (head) munmap(raw, head); /* keep the aligned part alone */
            if (tail) munmap(at + len, tail);
            (void)madvise(at, len, MADV_HUGEPAGE); /* (advice: refused, the small pages serve) */
            *mapped = len;
            return at;
        }
    }
#endif
    return calloc(bytes ? bytes : 1, 1);
}

static void words_free(void *p, size_t mapped) {
#ifdef LEXC_HUGE_WORDS
    if (mapped) { munmap(p, mapped); return; }
#endif
    (void)mapped;
    free(p);
}

/* The lowest stored position the roots' strings can read in a graph laid out parents first:
 * the lowest root, and the lowest stored child of the edges kept in memory (which
 * settle_extra reads). Every position a root at r reaches lies above r there (the sweep
 * checks each edge it reads points up), so a sweep from the last position down to this one
 * settles every root; ENABLE's gaddawg lays its DAWG (the words) out in its last 15%, so the
 * words are proved in a seventh of the sweep. */
static Py_ssize_t lowest_read(const Graph *g, const Py_ssize_t *roots, Py_ssize_t nroots) {
    Py_ssize_t lo = g->n;
    for (Py_ssize_t k = 0; k < nroots; k++)
        if (roots[k] && roots[k] < lo) lo = roots[k];
    for (Py_ssize_t j = g->n; j < g->n + g->n_extra; j++) {
        Py_ssize_t c = CHILD(g, edge_at(g, j));
        if (c && c < lo) lo = c;
    }
    return lo < g->pointers ? g->pointers : lo;
}

/* The order a graph is laid out in, told before the proof's working array is made: 1 parents
 * first as far as the sweep's first block shows (no edge in the last 4096 positions down to
 * `lo` points at or before itself), 2 children first (one does, and the first stored list
 * leads nowhere), 0 neither (an engine's KWG: the walk, without the array; 0.2-0.5 ms of its
 * first count). */
static int layout_order(const Graph *g, Py_ssize_t lo) {
    Py_ssize_t stop = g->n - 4096 > lo ? g->n - 4096 : lo, j = g->n - 1, disorder = 0;
    for (; j >= stop && !disorder; j--) {
        Py_ssize_t c = CHILD(g, edge_at(g, j));
        disorder = c && c <= j;
    }
    if (!disorder) return 1;
    for (j = g->pointers; j < g->n; j++) {
        uint64_t e = edge_at(g, j);
        if (CHILD(g, e)) return 0;
        if (LASTE(g, e)) return 2;
    }
    return 2;
}

/* The roots' words (1), or 0 for a graph the walk must prove, -1 for no memory (nothing
 * raised: the caller released the GIL). A graph laid out parents first is swept down to the
 * lowest position the roots read (lowest_read), one laid out children first ascended in
 * whole; one that breaks its order further on is left to the walk. */
static int prove_ordered(const Graph *g, const Py_ssize_t *roots, Py_ssize_t nroots, uint32_t *words) {
    Py_ssize_t total = g->n + g->n_extra, lo = lowest_read(g, roots, nroots);
    int order = layout_order(g, lo);
    if (!order) return 0;
    size_t mapped;
    uint32_t *info = words_zeroed((size_t)total * sizeof *info, &mapped); /* (zero: a pass that meets a child
                                                                           * out of order reads no garbage) */
    if (!info) return -1; /* (info[0] stays 0: child 0 is no child, and no child is a pointer slot) */
    int ok = g->n <= lo || (order == 1 ? !sweep(g, info, lo) : ascend(g, info));
    ok = ok && settle_extra(g, info);
    for (Py_ssize_t k = 0; ok && k < nroots; k++) words[k] = roots[k] ? info[roots[k]] : 0;
    words_free(info, mapped);
    return ok;
}

/* The walk, for a graph in another order (an engine's KWG): depth first from each root over
 * the lists it reaches, so a proof of one root reads only what that root reaches (ENABLE's
 * words, a seventh of an engine's KWG, in about 3.5 ms, where the whole graph takes about
 * 25). A frame settles one list's positions from its end down to the one asked for, so the
 * positions of a list are read in order and none is pushed on its own; opening it asks for
 * the lists its edges lead to (a prefetch), which the walk opens next. Each position gets the
 * sweep's word (o_word); a settled word has a height (its own edge at least), a position on
 * an open frame's list W_PENDING. 1 with the roots' words in words[], 0 for a cycle, a field
 * past its width or a string of two separators (prove_exact then names the fault, or finds
 * none where the walk was only cautious), -1 for no memory (nothing raised: the caller
 * released the GIL). */
typedef struct { Py_ssize_t lo, j; } Frame;
#define W_PENDING 0x100u /* (a count and no height: no settled word looks so) */
#define W_SETTLED(x) (O_HIGH(x) != 0)

static inline int walk_roots(const Graph *g, const Py_ssize_t *at, Py_ssize_t nroots, uint32_t *words, int u32) {
    Py_ssize_t total = g->n + g->n_extra, cap = 256, top = 0;
    size_t mapped = 0;
    uint32_t *info = words_zeroed((size_t)total * sizeof *info, &mapped);
    Frame *stack = malloc((size_t)cap * sizeof(Frame));
    uint32_t ors = 0, twice = 0;
    int status = 1;
    if (!info || !stack) { status = -1; goto done; }
    for (Py_ssize_t k = 0; k < nroots; k++) {
        Py_ssize_t want = at[k];
        top = 0;
        while (want >= 0 || top) {
            if (want >= 0) { /* open a frame for the suffix of a list from `want` */
                if (want && !W_SETTLED(info[want])) {
                    Py_ssize_t e = want;
                    while (!W_LAST(W_EDGE(e)) && e + 1 < total) e++;
                    while (W_SETTLED(info[e])) e--; /* (a list is settled from its end: a suffix of it) */
                    for (Py_ssize_t x = want; x <= e; x++) {
                        if (info[x]) { status = 0; goto done; } /* pending in an open frame: a cycle */
                        info[x] = W_PENDING;
                        Py_ssize_t c = W_CHILD(W_EDGE(x));
                        if (c && c < g->n) {
                            LEXC_PREFETCH(&info[c]);
                            LEXC_PREFETCH(u32 ? (const void *)((const uint32_t *)g->base + c) : edge_address(g, c));
                        }
                    }
                    if (top == cap) {
                        Frame *grown = realloc(stack, (size_t)cap * 2 * sizeof(Frame));
                        if (!grown) { status = -1; goto done; }
                        stack = grown; cap *= 2;
                    }
                    stack[top].lo = want; stack[top].j = e; top++;
                }
                want = -1;
                continue;
            }
            Frame *f = &stack[top - 1];
            Py_ssize_t j = f->j, lo = f->lo;
            uint32_t next = j + 1 < total ? info[j + 1] : 0; /* (read only where j does not close its list) */
            for (; j >= lo; j--) {
                uint64_t e = W_EDGE(j);
                Py_ssize_t c = W_CHILD(e);
                uint32_t child = info[c]; /* (info[0] is 0: no child) */
                if (c && !W_SETTLED(child)) {
                    if (child) { status = 0; goto done; } /* pending: a cycle */
                    want = c;
                    break;
                }
                uint32_t keep = (uint32_t)W_LAST(e) - 1u; /* 0 where j closes its list */
                next = o_word((uint32_t)W_LETTER(e), (uint32_t)W_TERM(e), child, next & keep, &ors, &twice);
                info[j] = next;
            }
            /* (a height past 127 would read as unsettled: said before any other frame reads it) */
            if (O_OVER(ors) | twice) { status = 0; goto done; }
            f->j = j;
            if (want < 0) top--;
        }
        words[k] = at[k] ? info[at[k]] : 0;
    }
done:
    if (info) words_free(info, mapped);
    free(stack);
    return status;
}

#undef W_EDGE
#undef W_LETTER
#undef W_TERM
#undef W_LAST
#undef W_CHILD

/* the walk on the copy for the graph: u32 edges all stored (an engine's KWG, DAWG-only KWG or
 * KAD) read at their fixed bits, as the sweep reads them (ENABLE's KAD proved in 1.9 ms, not
 * 2.3-2.9 through edge_at), else any layout */
static int prove_walk(const Graph *g, const Py_ssize_t *at, Py_ssize_t nroots, uint32_t *words) {
    if (!g->wide && !g->n_extra) return walk_roots(g, at, nroots, words, 1);
    return walk_roots(g, at, nroots, words, 0);
}

/* prove(roots, longest, most): the roots read and checked once (proof_roots), then the
 * fastest pass that can answer: the one pass over a graph laid out in order (prove_ordered),
 * else the walk (prove_walk); their words are kept where every root is within the bounds
 * (a position a root reaches spells no more strings than the root, nor a longer one). Else,
 * or where neither could answer, the exact walk (prove_exact), which names the fault the
 * pure path names. */
static PyObject *Graph_prove(PyObject *self, PyObject *args) {
    Graph *g = (Graph *)self;
    PyObject *roots, *list = NULL;
    int longest, done;
    unsigned long long most;
    Py_ssize_t nroots;
    if (!PyArg_ParseTuple(args, "OiK", &roots, &longest, &most)) return NULL;
    if (longest < 0 || longest > 255) { /* (prove_exact keeps a height in a byte) */
        PyErr_SetString(PyExc_ValueError, "prove: longest in 0..255");
        return NULL;
    }
    Py_ssize_t *at = proof_roots(g, roots, &nroots);
    if (!at) return NULL;
    RootFacts *facts = malloc((size_t)(nroots ? nroots : 1) * sizeof *facts);
    uint32_t *words = malloc((size_t)(nroots ? nroots : 1) * sizeof *words);
    if (!facts || !words) { PyErr_NoMemory(); goto out; }
    Py_BEGIN_ALLOW_THREADS
    done = prove_ordered(g, at, nroots, words);
    if (!done) done = prove_walk(g, at, nroots, words);
    Py_END_ALLOW_THREADS
    if (done < 0) { PyErr_NoMemory(); goto out; }
    for (Py_ssize_t k = 0; done && k < nroots; k++) {
        done = O_COUNT(words[k]) <= most && (int)O_HIGH(words[k]) <= longest;
        facts[k] = (RootFacts){O_COUNT(words[k]), (int)O_SEP(words[k])}; /* (root 0's word is 0) */
    }
    if (!done && prove_exact(g, at, nroots, longest, most, facts) < 0) goto out;
    list = PyList_New(nroots);
    for (Py_ssize_t k = 0; list && k < nroots; k++) {
        PyObject *pair = Py_BuildValue("(Ki)", (unsigned long long)facts[k].strings, facts[k].seps);
        if (!pair || PyList_SetItem(list, k, pair) < 0) Py_CLEAR(list);
    }
out:
    free(at); free(facts); free(words);
    return list;
}

/* -- the deep check's node rules (Dawg.check, whose Python walk stays the reference) ------- */

static Py_ssize_t list_end(const Graph *g, Py_ssize_t i) {
    while (!LASTE(g, edge_at(g, i))) i++; /* the constructor proved every list closes */
    return i;
}

static uint64_t run_hash(const Graph *g, Py_ssize_t lo, Py_ssize_t hi) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)(hi - lo);
    for (Py_ssize_t i = lo; i <= hi; i++) {
        h ^= edge_at(g, i);
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return h;
}

static int run_equal(const Graph *g, Py_ssize_t a, Py_ssize_t b, Py_ssize_t len) {
    for (Py_ssize_t k = 0; k < len; k++) {
        if (edge_at(g, a + k) != edge_at(g, b + k)) return 0;
    }
    return 1;
}

/* lists_ok() -> whether the stored graph keeps every rule of Dawg.check but the string
 * counts: root pointer slots are pointer edges; every node reachable from them lies in the
 * node area, its letters increase and lie in the alphabet (a separator, where allowed, first,
 * not terminal, with a child); no two reachable nodes have equal edge lists; and every
 * stored run of edges is a reachable node (or a copy of none). False sends the caller to the
 * Python walk, which names what is wrong. */
static PyObject *Graph_lists_ok(PyObject *self, PyObject *unused) {
    Graph *g = (Graph *)self;
    Py_ssize_t n = g->n, slots = g->pointers;
    int ok = 1;
    uint8_t *reach = calloc((size_t)(n ? n : 1), 1);
    Py_ssize_t *stack = malloc((size_t)(n ? n : 1) * sizeof(Py_ssize_t)), top = 0, count = 0;
    Py_ssize_t *table = NULL;
    size_t mask = 0;
    if (!reach || !stack) { free(reach); free(stack); return PyErr_NoMemory(); }
    for (Py_ssize_t i = 0; i < slots && i < n; i++) {
        uint64_t e = edge_at(g, i);
        if ((e >> g->lshift) || !LASTE(g, e)) { ok = 0; goto done; }
        Py_ssize_t c = CHILD(g, e);
        if (!c) continue;
        if (c < slots || c >= n) { ok = 0; goto done; }
        if (!reach[c]) { reach[c] = 1; stack[top++] = c; count++; }
    }
    while (top) {
        Py_ssize_t start = stack[--top], end = list_end(g, start);
        for (Py_ssize_t i = start; i <= end; i++) {
            Py_ssize_t c = CHILD(g, edge_at(g, i));
            if (!c) continue;
            if (c < slots || c >= n) { ok = 0; goto done; }
            if (!reach[c]) { reach[c] = 1; stack[top++] = c; count++; } /* each node once: top < n */
        }
    }
    size_t size = 16;
    while (size < (size_t)count * 2 + 2) size *= 2;
    table = malloc(size * sizeof(Py_ssize_t));
    if (!table) { PyErr_NoMemory(); goto done; }
    for (size_t k = 0; k < size; k++) table[k] = -1;
    mask = size - 1;
    for (Py_ssize_t start = slots; start < n && ok; start++) {
        if (!reach[start]) continue;
        Py_ssize_t end = list_end(g, start), len = end - start + 1, from = start;
        uint64_t e = edge_at(g, start);
        if (g->separator && LETTER(g, e) == 0) { /* the separator edge, first */
            if (TERM(g, e) || !CHILD(g, e)) { ok = 0; break; }
            from++;
        }
        int previous = 0;
        for (Py_ssize_t i = from; i <= end; i++) {
            int letter = LETTER(g, edge_at(g, i));
            if (letter <= previous || letter > g->n_letters) { ok = 0; break; }
            previous = letter;
        }
        size_t k = (size_t)run_hash(g, start, end) & mask;
        while (table[k] >= 0) {
            Py_ssize_t other = table[k];
            if (list_end(g, other) - other + 1 == len && run_equal(g, other, start, len)) { ok = 0; break; }
            k = (k + 1) & mask;
        }
        table[k] = start;
    }
    for (Py_ssize_t start = slots, i = slots; i < n && ok; i++) { /* the stored runs */
        if (!LASTE(g, edge_at(g, i))) continue;
        Py_ssize_t len = i - start + 1;
        size_t k = (size_t)run_hash(g, start, i) & mask;
        int same = 0;
        while (table[k] >= 0) {
            Py_ssize_t other = table[k];
            if (list_end(g, other) - other + 1 == len && run_equal(g, other, start, len)) { same = 1; break; }
            k = (k + 1) & mask;
        }
        if (same ? table[k] != start : !reach[start]) ok = 0;
        start = i + 1;
    }
done:
    free(reach); free(stack); free(table);
    if (PyErr_Occurred()) return NULL;
    return PyBool_FromLong(ok);
}

/* -- queries ------------------------------------------------------------------------------ */

/* walk(codes, from_edge) -> the final edge index, or -1 */
static PyObject *Graph_walk(PyObject *self, PyObject *args) {
    Graph *g = (Graph *)self;
    Py_buffer codes;
    Py_ssize_t from;
    if (!PyArg_ParseTuple(args, "y*n", &codes, &from)) return NULL;
    Py_ssize_t total = g->n + g->n_extra;
    if (from < 0 || from >= total) { PyBuffer_Release(&codes); PyErr_SetString(PyExc_IndexError, "edge"); return NULL; }
    Py_ssize_t end = g_walk(g, from, (const uint8_t *)codes.buf, codes.len);
    PyBuffer_Release(&codes);
    return PyLong_FromSsize_t(end);
}

/* contains(codes, from_edge, reverse=False) -> bool: the path (reversed: a GADDAG's word
 * read from its root without the separator) ends on a terminal edge */
static PyObject *Graph_contains(PyObject *self, PyObject *args) {
    Graph *g = (Graph *)self;
    Py_buffer codes;
    Py_ssize_t from;
    int reverse = 0;
    if (!PyArg_ParseTuple(args, "y*n|p", &codes, &from, &reverse)) return NULL;
    Py_ssize_t len = codes.len, i = from;
    const uint8_t *c = (const uint8_t *)codes.buf;
    if (!len || from < 0 || from >= g->n + g->n_extra) { PyBuffer_Release(&codes); Py_RETURN_FALSE; }
    for (Py_ssize_t k = 0; k < len && i >= 0; k++)
        i = g_find(g, CHILD(g, edge_at(g, i)), c[reverse ? len - 1 - k : k]);
    PyBuffer_Release(&codes);
    if (i >= 0 && TERM(g, edge_at(g, i))) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

/* contains_str(word, from_edge, reverse=False) -> True, False, or None when the word is not
 * plain Latin-1 letters of a one-character alphabet (the caller then encodes it) */
/* a str as letter codes through the Latin-1 table: 1, 0 when it cannot be (a character
 * beyond Latin-1 or outside the alphabet, or more than MAX_TILES letters), -1 on error */
static inline int encode_str(const Graph *g, PyObject *word, uint8_t *codes, Py_ssize_t *len) {
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(word, &size);
    if (!text) { /* a lone surrogate has no UTF-8: no letter of any alphabet either */
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return -1;
        PyErr_Clear();
        return 0;
    }
    int ascii = lexc_encode_ascii(g->encode, text, size, codes);
    if (ascii >= 0) {
        *len = size;
        return ascii;
    }
    *len = 0;
    for (Py_ssize_t k = 0; k < size; k++) {
        unsigned char ch = (unsigned char)text[k];
        unsigned int cp = ch;
        if (ch >= 0x80) {
            if ((ch & 0xE0) != 0xC0 || k + 1 >= size || ch > 0xC3) return 0; /* beyond Latin-1 */
            cp = ((ch & 0x1Fu) << 6) | ((unsigned char)text[++k] & 0x3Fu);
        }
        uint8_t code = g->encode[cp];
        if (!code || *len == MAX_TILES) return 0;
        codes[(*len)++] = code;
    }
    return 1;
}

static PyObject *Graph_contains_str(PyObject *self, PyObject *args) {
    Graph *g = (Graph *)self;
    PyObject *word;
    Py_ssize_t from;
    int reverse = 0;
    if (!PyArg_ParseTuple(args, "Un|p", &word, &from, &reverse)) return NULL;
    if (!g->has_encode) Py_RETURN_NONE;
    uint8_t codes[MAX_TILES + 1];
    Py_ssize_t len = 0;
    int ok = encode_str(g, word, codes, &len);
    if (ok < 0) return NULL;
    if (!ok) Py_RETURN_NONE;
    if (!len || from < 0 || from >= g->n + g->n_extra) Py_RETURN_FALSE;
    Py_ssize_t i = from;
    for (Py_ssize_t k = 0; k < len && i >= 0; k++)
        i = g_find(g, CHILD(g, edge_at(g, i)), codes[reverse ? len - 1 - k : k]);
    if (i >= 0 && TERM(g, edge_at(g, i))) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

/* -- an engine's headerless u32 array, before it is read ----------------------------------------
 * scan_u32(data, slots) -> (children_inside, descent, zero), over `data`'s u32 entries (a
 * KWG-family file's bytes, its length a multiple of 4: ValueError otherwise), in one pass:
 * whether every entry's child field (bits 0-21) is inside the array (and there is one); the
 * first entry from `slots` whose child (not 0, inside the array) holds a smaller tile (bits
 * 24-31) than its own, or -1 (a path spelling tiles out of order: not an alphagram); the first entry from `slots`
 * that is all zero, or -1 (wolges's padding). kwgfamily.scan_u32 is the reference. Every read
 * is inside the buffer: a child is read only once checked against the entries' count. */
/* the arguments (data, slots) of scan_u32 and unpad_u32: 0, or -1 with an exception (the
 * buffer released) */
static int u32_args(PyObject *args, const char *name, Py_buffer *data, Py_ssize_t *slots) {
    if (!PyArg_ParseTuple(args, "y*n", data, slots)) return -1;
    if (data->len % 4 || *slots < 0) {
        PyBuffer_Release(data);
        PyErr_Format(PyExc_ValueError, "%s: the data is not whole u32 entries", name);
        return -1;
    }
    return 0;
}

static PyObject *scan_u32(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer data;
    Py_ssize_t slots;
    if (u32_args(args, "scan_u32", &data, &slots) < 0) return NULL;
    const unsigned char *p = (const unsigned char *)data.buf;
    Py_ssize_t n = data.len / 4, descent = -1, zero = -1;
    int inside = n > 0; /* (an empty array is no graph: the reference says so too) */
    for (Py_ssize_t i = 0; i < n; i++) {
        uint32_t e, c;
        if (descent < 0 && i + 16 < n) { /* the child 16 entries on, asked for now (most of the pass waits for it) */
            uint32_t ahead;
            memcpy(&ahead, p + 4 * (i + 16), 4);
            if ((Py_ssize_t)(ahead & 0x3FFFFFu) < n) LEXC_PREFETCH(p + 4 * (ahead & 0x3FFFFFu));
        }
        memcpy(&e, p + 4 * i, 4); /* (the core runs on little-endian hosts only: core_exec) */
        Py_ssize_t child = (Py_ssize_t)(e & 0x3FFFFFu);
        if (child >= n) { inside = 0; continue; }
        if (i < slots) continue;
        if (!e && zero < 0) zero = i;
        if (descent < 0 && child) {
            memcpy(&c, p + 4 * child, 4);
            if ((c >> 24) < (e >> 24)) descent = i;
        }
    }
    PyBuffer_Release(&data);
    return Py_BuildValue("(Nnn)", PyBool_FromLong(inside), descent, zero);
}

/* unpad_u32(data, slots) -> bytes or None: `data`'s u32 entries with wolges's padding made
 * harmless (kwgfamily._unpadded, the reference): each all-zero entry from `slots` that no
 * entry's child field reaches and that follows a list's last entry (or `slots`, or padding
 * made so) becomes a closed edge (tile 1, last bit, no child); None when no entry changes.
 * ValueError unless the data is whole entries. */
static PyObject *unpad_u32(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer data;
    Py_ssize_t slots;
    if (u32_args(args, "unpad_u32", &data, &slots) < 0) return NULL;
    const uint32_t LAST = 1u << 22, CLOSED = LAST | 1u << 24;
    const unsigned char *p = (const unsigned char *)data.buf;
    Py_ssize_t n = data.len / 4, first = -1;
    PyObject *result = NULL;
    uint8_t *reached = NULL;
    for (Py_ssize_t i = slots; i < n && first < 0; i++) {
        uint32_t e;
        memcpy(&e, p + 4 * i, 4);
        if (!e) first = i;
    }
    if (first < 0) { result = Py_None; Py_INCREF(result); goto done; }
    reached = calloc((size_t)n / 8 + 1, 1);
    if (!reached) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < n; i++) {
        uint32_t e;
        memcpy(&e, p + 4 * i, 4);
        Py_ssize_t child = (Py_ssize_t)(e & 0x3FFFFFu);
        if (child < n) reached[child >> 3] |= (uint8_t)(1u << (child & 7));
    }
    result = PyBytes_FromStringAndSize((const char *)p, data.len);
    if (!result) goto done;
    unsigned char *out = (unsigned char *)PyBytes_AsString(result); /* (new: not yet shared) */
    if (!out) { Py_CLEAR(result); goto done; }
    int changed = 0;
    for (Py_ssize_t i = first; i < n; i++) {
        uint32_t e, before;
        memcpy(&e, out + 4 * i, 4);
        if (e || (reached[i >> 3] >> (i & 7) & 1)) continue;
        if (i > slots) { memcpy(&before, out + 4 * (i - 1), 4); if (!(before & LAST)) continue; }
        memcpy(out + 4 * i, &CLOSED, 4);
        changed = 1;
    }
    if (!changed) { Py_DECREF(result); result = Py_None; Py_INCREF(result); }
done:
    free(reached);
    PyBuffer_Release(&data);
    return result;
}

/* -- a CGP board --------------------------------------------------------------------------------
 * cgp_board(text, n, table) -> bytes or None: the n x n squares of a CGP board field (rows
 * split by '/', a run of empty squares as up to three digits, a tile as one Latin-1 character:
 * table[character], 0 for none) row by row; None for anything else (a bracketed label, a
 * character not in the table, a row of the wrong length), which the Python reading then names. */
/* keep_heap() -> whether the allocator now keeps freed memory: for a process that makes
 * buffers of up to megabytes again and again (a batch of positions: each one's plays, ranked
 * and written), glibc's malloc gives each big one its own mapping and returns it when freed,
 * and every page of the next is faulted in and zeroed again by the kernel (about 7 faults a
 * position, some 6% of `lexc moves --batch`'s time). Buffers of up to 32 MB then come from the
 * heap, and up to 64 MB of free heap is kept. Only the command line asks (its processes are
 * short); a library user's process is left as it is. False where the C library is not glibc. */
static PyObject *keep_heap(PyObject *module, PyObject *unused) {
    (void)module; (void)unused;
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    int ok = mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1 && mallopt(M_TRIM_THRESHOLD, 64 << 20) == 1;
    return PyBool_FromLong(ok);
#else
    Py_RETURN_FALSE;
#endif
}

static PyObject *cgp_board(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *text;
    int n;
    Py_buffer table;
    if (!PyArg_ParseTuple(args, "Uiy*", &text, &n, &table)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t size;
    const char *s = table.len == 256 && n >= 1 && n <= MAX_BOARD ? PyUnicode_AsUTF8AndSize(text, &size) : NULL;
    if (!s) {
        if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) goto done;
        PyErr_Clear();
        result = Py_None; Py_INCREF(result);
        goto done;
    }
    const uint8_t *map = (const uint8_t *)table.buf;
    uint8_t squares[MAX_BOARD * MAX_BOARD];
    int row = 0, col = 0, ok = 1;
    for (Py_ssize_t k = 0; k < size && ok; k++) {
        unsigned char ch = (unsigned char)s[k];
        if (ch == '/') {
            if (col != n || ++row >= n) ok = 0;
            col = 0;
            continue;
        }
        if (ch >= '0' && ch <= '9') {
            int run = 0, digits = 0;
            while (k < size && s[k] >= '0' && s[k] <= '9' && digits < 4) { run = run * 10 + (s[k] - '0'); k++; digits++; }
            k--;
            if (digits > 3 || col + run > n) { ok = 0; break; }
            memset(squares + row * n + col, 0, (size_t)run);
            col += run;
            continue;
        }
        unsigned int cp = ch;
        if (ch >= 0x80) { /* two-byte UTF-8 of a Latin-1 character, else none of the table's */
            if ((ch & 0xE0) != 0xC0 || ch > 0xC3 || k + 1 >= size) { ok = 0; break; }
            cp = ((ch & 0x1Fu) << 6) | ((unsigned char)s[++k] & 0x3Fu);
        }
        if (!map[cp] || col >= n) { ok = 0; break; }
        squares[row * n + col++] = map[cp];
    }
    if (ok && row == n - 1 && col == n) result = PyBytes_FromStringAndSize((const char *)squares, (Py_ssize_t)n * n);
    else { result = Py_None; Py_INCREF(result); }
done:
    PyBuffer_Release(&table);
    return result;
}

/* -- `word in lexicon` without a Python call --------------------------------------------------
 * Member is the base class of the lexicons the core searches in place: the word graphs
 * (formats/dawg.py) and the prefix sets (formats/prefixset.py). Its sq_contains slot is `word in
 * lexicon` itself, so CPython calls it with no method lookup and no Python frame. It reads the
 * store bound to the instance (`_bind_store`, made by the lexicon's backend) and answers a str
 * of the alphabet's one-character letters: a Graph by its member walk, a KeySet by its search
 * (keyset_member); anything else (a store of the pure-Python backend, no walk set, bytes, a
 * letter it cannot encode) goes to the instance's `_contains`, the Python path. */
static PyObject *SLOW_NAME;
static PyTypeObject *MemberType;

typedef struct {
    PyObject_HEAD
    PyObject *graph; /* the bound store (any object: a Graph or a KeySet is searched here), or NULL */
} Member;

/* The member walk's state: the child list of the last edge it matched (`from`, 0: none) and
 * whether that edge ends a word (`term`). Its start after the word's first letters: 3 of them
 * (2 for a word of two) from `first` where there is one, else none, from the member root; *k
 * the letters read. 0 when no word starts so. */
static inline int member_start(const Graph *g, const uint8_t *codes, Py_ssize_t len, Py_ssize_t *k,
                               Py_ssize_t *from, int *term) {
    int B = g->first_base;
    *k = 0;
    *term = 0;
    if (!len) return 0;
    if (len < 2 || !g->first) { *from = CHILD(g, edge_at(g, g->member_root)); return 1; }
    int a = codes[0], b = codes[1];
    if (a >= B || b >= B) return 0; /* (no letter of the alphabet) */
    int32_t x;
    if (len == 2) {
        *k = 2;
        x = g->first[B * a + b];
    } else {
        int c = codes[2];
        if (c >= B) return 0;
        *k = 3;
        x = g->first[(size_t)B * (size_t)B + (size_t)(B * a + b) * (size_t)B + (size_t)c];
    }
    if (x < 0) return 0;
    if (g->prefixes && len >= PREFIX_MIN) { /* the table: the word's first K letters, or all of it */
        Py_ssize_t K = len < g->prefix_len ? len : g->prefix_len;
        uint64_t key = 0, slot;
        for (Py_ssize_t j = 0; j < K; j++) {
            int c = codes[j];
            if (c >= B || !c) return 0; /* (no letter of the alphabet) */
            key = key << 5 | (uint64_t)c;
        }
        uint32_t h = prefix_slot(key, g->prefix_size);
        for (; (slot = g->prefixes[h]) >> g->prefix_vbits != key; h = h + 1 == g->prefix_size ? 0 : h + 1)
            if (!slot) return 0; /* (no word is, or starts, so; a table is at most 4/5 full) */
        *k = K;
        *from = (Py_ssize_t)((slot & ((1ULL << g->prefix_vbits) - 1)) >> 1);
        *term = (int)(slot & 1u);
        return 1;
    }
    *from = x >> 1;
    *term = x & 1;
    return 1;
}

/* one level of the member walk: the edge of `letter` in the list from edge `from` (a scan: a
 * member walk reads no masks, so a level is one memory read, the list's line), the state moved
 * past it; 0 when the list has none */
static inline int member_find(const Graph *g, Py_ssize_t *from, int letter, int *term) {
    Py_ssize_t i = *from;
    if (!i) return 0;
    for (;; i++) {
        uint64_t e = edge_at(g, i);
        int lt = LETTER(g, e);
        if (lt >= letter) {
            if (lt != letter) return 0;
            *from = CHILD(g, e);
            *term = TERM(g, e);
            return 1;
        }
        if (LASTE(g, e)) return 0;
    }
}

/* the member walk of an encoded word: 1 found, 0 not */
static int member_walk(const Graph *g, const uint8_t *codes, Py_ssize_t len) {
    Py_ssize_t k, from;
    int term;
    if (!member_start(g, codes, len, &k, &from, &term)) return 0;
    if (!g->wide && from < g->n) { /* the u32 layout, read as stored, and nothing else of the graph's
        * (a walk from a stored list stays among them: every stored child is, proved) */
        const uint32_t *E = (const uint32_t *)g->base;
        for (; k < len; k++) {
            uint32_t want = codes[k], e;
            if (!from) return 0;
            for (;; from++) { /* (every list closes inside the array: proved) */
                e = E[from];
                uint32_t lt = e >> 24;
                if (lt >= want) { if (lt != want) return 0; break; }
                if (e >> 22 & 1u) return 0;
            }
            term = (int)(e >> 23 & 1u);
            from = (Py_ssize_t)(e & 0x3FFFFFu);
        }
        return term;
    }
    if (g->wide == 2 && from < g->n) { /* packed edges, their widths held in registers:
        * each an unaligned 8-byte read (the zero padding keeps the last inside the buffer) */
        const uint8_t *base = g->base;
        const Py_ssize_t w = g->edge_bytes;
        const uint64_t em = g->emask, cm = g->cmask;
        const int ls = g->lshift, lastshift = g->lastshift, ts = g->tshift;
        for (; k < len; k++) {
            uint64_t want = codes[k], e;
            if (!from) return 0;
            for (;; from++) { /* (every list closes inside the array: proved) */
                memcpy(&e, base + from * w, 8);
                e &= em;
                uint64_t lt = e >> ls;
                if (lt >= want) { if (lt != want) return 0; break; }
                if (e >> lastshift & 1u) return 0;
            }
            term = (int)(e >> ts & 1u);
            from = (Py_ssize_t)(e & cm);
        }
        return term;
    }
    for (; k < len; k++)
        if (!member_find(g, &from, codes[k], &term)) return 0;
    return term;
}

/* contains_many(words, fallback) -> [bool]: `word in lexicon` for each of a list of words, the
 * member walks of eight words at a time run level by level, so that their memory reads
 * overlap (one walk waits on each read in turn); a word the walk does not answer (not a str
 * of the alphabet's one-character letters) is `bool(fallback(word))` */
#define MANY 8
typedef struct { uint8_t codes[MAX_TILES + 1]; Py_ssize_t len, k, from, at; int term, alive; } ManyWalk;

static PyObject *Graph_contains_many(PyObject *self, PyObject *args) {
    Graph *g = (Graph *)self;
    PyObject *words, *fallback;
    if (!PyArg_ParseTuple(args, "O!O", &PyList_Type, &words, &fallback)) return NULL;
    Py_ssize_t count = PyList_Size(words);
    if (g->member_root >= 0 && member_walks(g, count) < 0) return NULL;
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    ManyWalk walk[MANY];
    int can = g->has_encode && g->member_root >= 0;
    for (Py_ssize_t base = 0; base < count; base += MANY) {
        int n = 0;
        for (Py_ssize_t at = base; at < count && at < base + MANY; at++) {
            PyObject *word = PyList_GetItem(words, at); /* (NULL where a fallback shortened the list) */
            if (!word) goto fail;
            ManyWalk *w = &walk[n];
            int ok = can && PyUnicode_Check(word) ? encode_str(g, word, w->codes, &w->len) : 0;
            if (ok < 0) goto fail;
            if (!ok) {
                Py_INCREF(word); /* (the fallback may change the list) */
                PyObject *found = PyObject_CallFunctionObjArgs(fallback, word, NULL);
                Py_DECREF(word);
                int truth = found ? PyObject_IsTrue(found) : -1;
                Py_XDECREF(found);
                if (truth < 0) goto fail;
                PyList_SetItem(out, at, PyBool_FromLong(truth));
                continue;
            }
            w->at = at;
            w->alive = member_start(g, w->codes, w->len, &w->k, &w->from, &w->term);
            n++;
        }
        for (int busy = 1; busy;) { /* a level of every walk not done: their lists fetched, then read */
            busy = 0;
            for (int j = 0; j < n; j++) {
                const ManyWalk *w = &walk[j];
                if (w->alive && w->k < w->len && w->from && w->from < g->n) LEXC_PREFETCH(edge_address(g, w->from));
            }
            for (int j = 0; j < n; j++) {
                ManyWalk *w = &walk[j];
                if (!w->alive || w->k >= w->len) continue;
                w->alive = member_find(g, &w->from, w->codes[w->k], &w->term);
                w->k++;
                busy = 1;
            }
        }
        for (int j = 0; j < n; j++) {
            const ManyWalk *w = &walk[j];
            PyList_SetItem(out, w->at, PyBool_FromLong(w->alive && w->term));
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* prefixes(budget=-1) -> (length, slots) or None: the member walk's prefix table (make_prefixes),
 * made now if it is not yet (else by the PREFIX_AFTER-th walk) in at most `budget` bytes (-1: the
 * rule; a test gives a small lexicon one), None where the graph has none */
static PyObject *Graph_prefixes(PyObject *self, PyObject *args) {
    Graph *g = (Graph *)self;
    Py_ssize_t budget = -1;
    if (!PyArg_ParseTuple(args, "|n:prefixes", &budget)) return NULL;
    if (prefix_table(g, budget < 0 ? -1 : budget) < 0) return NULL;
    if (!g->prefixes) Py_RETURN_NONE;
    return Py_BuildValue("(in)", g->prefix_len, (Py_ssize_t)g->prefix_size);
}

static int Member_contains(PyObject *self, PyObject *word) {
    PyObject *graph = ((Member *)self)->graph;
    if (graph && PyUnicode_Check(word)) {
        if (Py_TYPE(graph) == GraphType) { /* (no type derives from Graph, nor from KeySet: exact
                                              tests, not a walk of a KeySet's bases on every call) */
            Graph *g = (Graph *)graph;
            uint8_t codes[MAX_TILES + 1];
            Py_ssize_t len = 0;
            int ok = g->has_encode && g->member_root >= 0 ? encode_str(g, word, codes, &len) : 0;
            if (ok < 0) return -1;
            if (ok) return member_walks(g, 1) < 0 ? -1 : member_walk(g, codes, len);
        } else {
            int found = keyset_member(graph, word);
            if (found != KEYSET_NOT_ANSWERED) return found;
        }
    }
    PyObject *found = PyObject_CallMethodObjArgs(self, SLOW_NAME, word, NULL);
    if (!found) return -1;
    int truth = PyObject_IsTrue(found);
    Py_DECREF(found);
    return truth;
}

static PyObject *Member_bind(PyObject *self, PyObject *graph) {
    Member *m = (Member *)self;
    PyObject *old = m->graph;
    Py_INCREF(graph);
    m->graph = graph;
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

static int Member_traverse(PyObject *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(((Member *)self)->graph);
    return 0;
}

static int Member_clear(PyObject *self) {
    Py_CLEAR(((Member *)self)->graph);
    return 0;
}

static void Member_dealloc(PyObject *self) {
    PyObject_GC_UnTrack(self);
    Member_clear(self);
    free_object(self);
}

/* `lexicon.__contains__(word)` called as a method (a bound method passed as a function, as
 * a set's is): the same answer as `word in lexicon`, by a direct call rather than the slot's
 * wrapper, which packs its argument into a tuple on every call (METH_COEXIST: beside the slot) */
static PyObject *Member_direct_contains(PyObject *self, PyObject *word) {
    int found = Member_contains(self, word);
    if (found < 0) return NULL;
    return PyBool_FromLong(found);
}

static PyMethodDef Member_methods[] = {
    {"_bind_store", Member_bind, METH_O, "_bind_store(store): the Graph or KeySet `word in self` searches."},
    {"__contains__", Member_direct_contains, METH_O | METH_COEXIST, "__contains__(word): word in self."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot Member_slots[] = {
    {Py_tp_doc, "Base of the lexicons searched in place: `word in lexicon` searches the bound store in C."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, Member_dealloc},
    {Py_tp_traverse, Member_traverse},
    {Py_tp_clear, Member_clear},
    {Py_sq_contains, Member_contains},
    {Py_tp_methods, Member_methods},
    {0, NULL}};

static PyType_Spec Member_spec = {"lexc.native._core.Member", sizeof(Member), 0,
                                  Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, Member_slots};

static int check_edge(const Graph *g, Py_ssize_t i) {
    if (i < 0 || i >= g->n + g->n_extra) { PyErr_SetString(PyExc_IndexError, "edge outside the array"); return -1; }
    return 0;
}

/* word_letters(edge) -> mask of the letters ending a word one step below the node */
static PyObject *Graph_word_letters(PyObject *self, PyObject *arg) {
    Graph *g = (Graph *)self;
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if ((i == -1 && PyErr_Occurred()) || check_edge(g, i) < 0) return NULL;
    return mask_to_long(g_word_letters(g, i));
}

/* the letters L (not the separator) with L + word a word, each tried from the DAWG root */
static Mask dawg_front_hooks(const Graph *g, Py_ssize_t root, const uint8_t *w, Py_ssize_t len) {
    Mask m = {0, 0};
    Py_ssize_t i = CHILD(g, edge_at(g, root));
    while (i) {
        uint64_t e = edge_at(g, i);
        Py_ssize_t end = g_walk(g, i, w, len);
        if (end >= 0 && TERM(g, edge_at(g, end)) && LETTER(g, e)) mask_set(&m, LETTER(g, e));
        if (LASTE(g, e)) break;
        i++;
    }
    return m;
}

/* front_hooks(codes, dawg_root) -> letters L with L + codes a word (one walk per first letter) */
static PyObject *Graph_front_hooks(PyObject *self, PyObject *args) {
    Graph *g = (Graph *)self;
    Py_buffer codes;
    Py_ssize_t root;
    if (!PyArg_ParseTuple(args, "y*n", &codes, &root)) return NULL;
    if (check_edge(g, root) < 0 || graph_masks(g) < 0) { PyBuffer_Release(&codes); return NULL; }
    Mask m = dawg_front_hooks(g, root, (const uint8_t *)codes.buf, codes.len);
    PyBuffer_Release(&codes);
    return mask_to_long(m);
}

/* hooks(word, dawg_root, gaddag_root) -> (front mask, back mask, valid): a word's hooks in one
 * call (with a GADDAG root, validity is read there, as a GADDAG's membership is); `word` as letter codes, or a str, then encoded here and answered (codes, front, back,
 * valid), or None when the alphabet's table cannot encode it. Front hooks from the GADDAG root when there is one (`gaddag_root` >= 0: the terminal
 * edges after the reversed word), else by trying each letter before the word from the DAWG
 * root; back hooks and validity from the DAWG root. */
static PyObject *Graph_hooks(PyObject *self, PyObject *args) {
    Graph *g = (Graph *)self;
    PyObject *word;
    Py_ssize_t root, groot;
    if (!PyArg_ParseTuple(args, "Onn", &word, &root, &groot)) return NULL;
    if (check_edge(g, root) < 0 || (groot >= 0 && check_edge(g, groot) < 0)) return NULL;
    if (groot < 0 && graph_masks(g) < 0) return NULL; /* (a DAWG's front hooks try every letter: masks find them) */
    uint8_t w[MAX_TILES + 1];
    Py_ssize_t len = 0;
    int from_str = PyUnicode_Check(word);
    if (from_str) { /* a str: encoded here when the alphabet allows, else None (the caller encodes) */
        if (!g->has_encode) Py_RETURN_NONE;
        int ok = encode_str(g, word, w, &len);
        if (ok < 0) return NULL;
        if (!ok) Py_RETURN_NONE;
    } else {
        Py_buffer codes;
        if (PyObject_GetBuffer(word, &codes, PyBUF_SIMPLE) < 0) return NULL;
        if (codes.len > MAX_TILES) { PyBuffer_Release(&codes); PyErr_SetString(PyExc_ValueError, "word too long"); return NULL; }
        len = codes.len;
        memcpy(w, codes.buf, (size_t)len);
        PyBuffer_Release(&codes);
    }
    Mask front = {0, 0}, back = {0, 0};
    Py_ssize_t end = g_walk(g, root, w, len);
    int valid = len > 0 && end >= 0 && TERM(g, edge_at(g, end));
    if (end >= 0) back = g_word_letters(g, end);
    if (groot >= 0) { /* a GADDAG: front hooks from the reversed word (validity, as membership, forwards) */
        uint8_t reversed[MAX_TILES];
        for (Py_ssize_t k = 0; k < len; k++) reversed[k] = w[len - 1 - k];
        Py_ssize_t at = g_walk(g, groot, reversed, len);
        if (at >= 0) front = g_word_letters(g, at);
        front.lo &= ~1ULL; /* letter 0, the separator, is no hook */
    } else {
        front = dawg_front_hooks(g, root, w, len);
    }
    if (from_str)
        return Py_BuildValue("(y#NNO)", (const char *)w, len, mask_to_long(front), mask_to_long(back),
                             valid ? Py_True : Py_False);
    return Py_BuildValue("(NNO)", mask_to_long(front), mask_to_long(back), valid ? Py_True : Py_False);
}

/* -- anagrams ---------------------------------------------------------------------------- */

typedef struct {
    const Graph *g;
    int counts[256];
    int need, sub;
    Py_ssize_t cap, found;
    uint8_t path[MAX_PATH];
    Buf out;
    int failed;
} Anagram;

static void anagram_search(Anagram *a, Py_ssize_t i, int depth, int blanks, int room) {
    const Graph *g = a->g;
    static const uint8_t zero = 0;
    for (;;) {
        if (a->failed) return;
        uint64_t e = edge_at(g, i);
        int letter = LETTER(g, e), tile = -1;
        if (a->counts[letter]) tile = letter;
        else if (blanks) tile = letter | BLANK_FLAG;
        if (tile >= 0) {
            a->path[depth] = (uint8_t)tile;
            if (TERM(g, e) && (a->sub || room == 1)) {
                if ((a->found && buf_put(&a->out, &zero, 1) < 0) || buf_put(&a->out, a->path, depth + 1) < 0) {
                    a->failed = 1; return;
                }
                if (++a->found > a->cap) { a->failed = 2; return; }
            }
            Py_ssize_t c = CHILD(g, e);
            if (c && room > 1 && depth + 1 < MAX_TILES) {
                if (tile == letter) { a->counts[letter]--; anagram_search(a, c, depth + 1, blanks, room - 1); a->counts[letter]++; }
                else anagram_search(a, c, depth + 1, blanks - 1, room - 1);
            }
        }
        if (LASTE(g, e)) return;
        i++;
    }
}

/* The words of a search (joined by 0, met in code order of their letters, each spelling
 * once) in anagram order: longest first, code order within a length (formats.base
 * in_anagram_order). A stable counting sort by length. */
static int in_anagram_order(Buf *b) {
    Py_ssize_t count[MAX_PATH + 2] = {0}, at[MAX_PATH + 2];
    const unsigned char *d = b->data;
    Py_ssize_t n = b->len, start = 0;
    for (Py_ssize_t p = 0; p <= n; p++)
        if (p == n || !d[p]) { Py_ssize_t len = p - start; count[len < MAX_PATH ? len : MAX_PATH]++; start = p + 1; }
    Py_ssize_t pos = 0;
    for (int len = MAX_PATH + 1; len >= 0; len--) { at[len] = pos; pos += count[len] * (len + 1); }
    unsigned char *out = malloc((size_t)n + 2);
    if (!out) { PyErr_NoMemory(); return -1; }
    start = 0;
    for (Py_ssize_t p = 0; p <= n; p++) {
        if (p < n && d[p]) continue;
        Py_ssize_t len = p - start, k = len < MAX_PATH ? len : MAX_PATH;
        memcpy(out + at[k], d + start, (size_t)len);
        out[at[k] + len] = 0;
        at[k] += len + 1;
        start = p + 1;
    }
    memcpy(b->data, out, (size_t)n); /* the same bytes, reordered; the last separator dropped */
    free(out);
    return 0;
}

/* anagram(root_edge, letters, blanks, sub, cap, ordered=False) -> (words joined by 0, count): words from the
 * rack, each once, natural tiles used before a blank (BLANK_FLAG on blank-made letters);
 * AnswerCap past `cap` answers */
static PyObject *Graph_anagram(PyObject *self, PyObject *args) {
    Graph *g = (Graph *)self;
    Py_ssize_t root, cap;
    Py_buffer letters;
    int blanks, sub, ordered = 0;
    if (!PyArg_ParseTuple(args, "ny*ipn|p", &root, &letters, &blanks, &sub, &cap, &ordered)) return NULL;
    Anagram *a = calloc(1, sizeof(Anagram));
    if (!a) { PyBuffer_Release(&letters); return PyErr_NoMemory(); }
    a->g = g; a->sub = sub; a->cap = cap;
    /* each count checked on its own before the sum (a huge blank count overflowed an int) */
    if (check_edge(g, root) < 0 || blanks < 0 || blanks > MAX_TILES || letters.len > MAX_TILES ||
        letters.len + blanks > MAX_TILES) {
        free(a);
        PyBuffer_Release(&letters);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "rack: at most 64 tiles");
        return NULL;
    }
    const uint8_t *l = (const uint8_t *)letters.buf;
    for (Py_ssize_t k = 0; k < letters.len; k++) a->counts[l[k]]++;
    a->counts[0] = 0; /* no letter 0 in a DAWG: a separator is never matched */
    a->need = (int)letters.len + blanks;
    PyBuffer_Release(&letters);
    Py_ssize_t first = CHILD(g, edge_at(g, root));
    if (first && a->need) anagram_search(a, first, 0, blanks, a->need);
    PyObject *result = NULL;
    if (a->failed == 1) { buf_free(&a->out); }
    else if (a->failed == 2) { buf_free(&a->out); raise_count(AnswerCap, "count", a->found); }
    else if (ordered && a->found > 1 && in_anagram_order(&a->out) < 0) { buf_free(&a->out); }
    else {
        PyObject *blob = buf_bytes(&a->out);
        if (blob) result = Py_BuildValue("(Nn)", blob, a->found);
    }
    free(a);
    return result;
}

/* -- patterns ----------------------------------------------------------------------------- */

#define MAX_TOKENS 255
#define STATE_WORDS 4 /* up to 256 positions */
typedef struct { uint64_t w[STATE_WORDS]; } States;

typedef struct {
    const Graph *g;
    int ntok;
    int star[MAX_TOKENS];
    Mask mask[MAX_TOKENS];
} Pattern;

static inline int st_has(const States *s, int p) { return (int)(s->w[p >> 6] >> (p & 63) & 1); }
static inline void st_set(States *s, int p) { s->w[p >> 6] |= 1ULL << (p & 63); }
static inline int st_empty(const States *s) { return !(s->w[0] | s->w[1] | s->w[2] | s->w[3]); }

static void closure(const Pattern *pt, States *s) {
    for (int p = 0; p < pt->ntok; p++)
        if (st_has(s, p) && pt->star[p]) st_set(s, p + 1);
}

static States step(const Pattern *pt, const States *s, int letter) {
    States out = {{0, 0, 0, 0}};
    for (int p = 0; p < pt->ntok; p++) {
        if (!st_has(s, p)) continue;
        if (pt->star[p]) st_set(&out, p);
        else if (mask_has(pt->mask[p], letter)) st_set(&out, p + 1);
    }
    if (!st_empty(&out)) closure(pt, &out);
    return out;
}

/* -- cursors: words below a node, or matching a pattern, a batch at a time ------------------ */

/* A cursor is the state of one depth-first listing (the next edge to try at each depth, the
 * letters so far, and for a pattern the states before each depth), kept between calls so that
 * Python streams the words: take(n) gives the next n at most. It holds a reference to its
 * graph, whose arrays therefore outlive it. */
typedef struct {
    PyObject_HEAD
    Graph *g;
    int kind;             /* 0: every word below a node; 1: words matching a pattern */
    int depth, floor, limit, pending, failed;
    Py_ssize_t next[MAX_PATH + 1];
    uint8_t path[MAX_PATH + 1];
    Pattern *pt;          /* kind 1 */
    States states[MAX_PATH + 1];
} Cursor;

static PyTypeObject *CursorType;

static Cursor *cursor_new(Graph *g, int kind) {
    Cursor *c = (Cursor *)PyType_GenericAlloc(CursorType, 0);
    if (!c) return NULL;
    Py_INCREF((PyObject *)g);
    c->g = g;
    c->kind = kind;
    return c;
}

static void Cursor_dealloc(PyObject *self) {
    Cursor *c = (Cursor *)self;
    Py_XDECREF((PyObject *)c->g);
    free(c->pt);
    free_object(self);
}

/* take(n) -> (words joined by 0, count): the next n words at most, in code order; count 0 once
 * the listing is done. TooDeep for a path past the longest word (a proved graph has
 * none). */
static PyObject *Cursor_take(PyObject *self, PyObject *arg) {
    Cursor *c = (Cursor *)self;
    const Graph *g = c->g;
    Py_ssize_t want = PyLong_AsSsize_t(arg), count = 0;
    if (want == -1 && PyErr_Occurred()) return NULL;
    if (c->failed) return raise_count(TooDeep, "index", 0);
    Buf out = {0};
    static const uint8_t zero = 0;
    if (c->pending && want > 0) {
        c->pending = 0;
        if (buf_put(&out, c->path, c->floor) < 0) return NULL;
        count++;
    }
    const Pattern *pt = c->pt;
    while (c->depth >= c->floor && count < want) {
        int depth = c->depth;
        Py_ssize_t i = c->next[depth];
        if (!i) { c->depth--; continue; }
        uint64_t e = edge_at(g, i);
        c->next[depth] = LASTE(g, e) ? 0 : i + 1;
        int letter = LETTER(g, e);
        States s;
        if (pt) {
            s = step(pt, &c->states[depth], letter);
            if (st_empty(&s)) continue;
        }
        c->path[depth] = (uint8_t)letter;
        if (TERM(g, e) && (!pt || st_has(&s, pt->ntok))) {
            if ((count && buf_put(&out, &zero, 1) < 0) || buf_put(&out, c->path, depth + 1) < 0) {
                buf_free(&out);
                return NULL;
            }
            count++;
        }
        Py_ssize_t child = CHILD(g, e);
        if (child) {
            if (depth + 1 >= c->limit) { c->failed = 1; buf_free(&out); return raise_count(TooDeep, "index", i); }
            c->depth = depth + 1;
            c->next[depth + 1] = child;
            if (pt) c->states[depth + 1] = s;
        }
    }
    PyObject *blob = buf_bytes(&out);
    if (!blob) return NULL;
    return Py_BuildValue("(Nn)", blob, count);
}

static PyMethodDef Cursor_methods[] = {
    {"take", Cursor_take, METH_O, "take(n) -> (blob, count): the next n words at most"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot Cursor_slots[] = {
    {Py_tp_dealloc, Cursor_dealloc},
    {Py_tp_methods, Cursor_methods},
    {Py_tp_doc, "A listing of words in progress (Graph.words, Graph.pattern)."},
    {0, NULL},
};

static PyType_Spec Cursor_spec = {"lexc.native._core.Cursor", sizeof(Cursor), 0, Py_TPFLAGS_DEFAULT, Cursor_slots};

/* words(node_edge, prefix) -> a Cursor over the words below the node (each prefixed), in code
 * order, the prefix itself first when it is a word */
static PyObject *Graph_words(PyObject *self, PyObject *args) {
    Graph *g = (Graph *)self;
    Py_ssize_t start;
    Py_buffer prefix;
    if (!PyArg_ParseTuple(args, "ny*", &start, &prefix)) return NULL;
    if (check_edge(g, start) < 0 || prefix.len > MAX_TILES) {
        PyBuffer_Release(&prefix);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "prefix too long");
        return NULL;
    }
    Cursor *c = cursor_new(g, 0);
    if (!c) { PyBuffer_Release(&prefix); return NULL; }
    int plen = (int)prefix.len;
    memcpy(c->path, prefix.buf, (size_t)plen);
    PyBuffer_Release(&prefix);
    uint64_t e = edge_at(g, start);
    c->floor = c->depth = plen;
    c->limit = MAX_PATH;
    c->pending = plen && TERM(g, e);
    c->next[plen] = CHILD(g, e);
    return (PyObject *)c;
}

/* pattern(root_edge, tokens) -> a Cursor over the words matching the pattern, in code order:
 * `tokens` is 17 bytes a token, a kind byte (1: `*`, 0: one letter) and a 128-bit
 * little-endian letter mask */
static PyObject *Graph_pattern(PyObject *self, PyObject *args) {
    Graph *g = (Graph *)self;
    Py_ssize_t root;
    Py_buffer tokens;
    if (!PyArg_ParseTuple(args, "ny*", &root, &tokens)) return NULL;
    if (tokens.len % 17 || tokens.len / 17 > MAX_TOKENS || check_edge(g, root) < 0) {
        PyBuffer_Release(&tokens);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "tokens");
        return NULL;
    }
    Pattern *pt = calloc(1, sizeof(Pattern));
    if (!pt) { PyBuffer_Release(&tokens); return PyErr_NoMemory(); }
    pt->g = g; pt->ntok = (int)(tokens.len / 17);
    const uint8_t *t = (const uint8_t *)tokens.buf;
    for (int p = 0; p < pt->ntok; p++) {
        pt->star[p] = t[17 * p];
        memcpy(&pt->mask[p].lo, t + 17 * p + 1, 8);
        memcpy(&pt->mask[p].hi, t + 17 * p + 9, 8);
    }
    PyBuffer_Release(&tokens);
    Cursor *c = cursor_new(g, 1);
    if (!c) { free(pt); return NULL; }
    c->pt = pt;
    c->floor = c->depth = 0;
    c->limit = MAX_TILES;
    memset(&c->states[0], 0, sizeof(States));
    st_set(&c->states[0], 0);
    closure(pt, &c->states[0]);
    c->next[0] = CHILD(g, edge_at(g, root));
    return (PyObject *)c;
}

/* -- module -------------------------------------------------------------------------------- */

static PyObject *Graph_size(PyObject *self, PyObject *unused) {
    (void)unused;
    Graph *g = (Graph *)self;
    return Py_BuildValue("(nn)", g->n, g->n_extra);
}

static PyMethodDef Graph_methods[] = {
    {"lists_ok", Graph_lists_ok, METH_NOARGS, "lists_ok() -> whether every node rule of Dawg.check but the counts holds"},
    {"prove", Graph_prove, METH_VARARGS, "prove(roots, longest, most) -> [(strings, separators)]"},
    {"walk", Graph_walk, METH_VARARGS, "walk(codes, from_edge) -> edge or -1"},
    {"contains", Graph_contains, METH_VARARGS, "contains(codes, from_edge, reverse=False) -> bool"},
    {"contains_str", Graph_contains_str, METH_VARARGS, "contains_str(word, from_edge, reverse=False) -> bool or None"},
    {"contains_many", Graph_contains_many, METH_VARARGS, "contains_many(words, fallback) -> [bool]: the member walk of each"},
    {"prefixes", Graph_prefixes, METH_VARARGS,
     "prefixes(budget=-1) -> (length, slots) or None: the member walk's prefix table, made now if it is not yet"},
    {"word_letters", Graph_word_letters, METH_O, "word_letters(edge) -> letter mask"},
    {"front_hooks", Graph_front_hooks, METH_VARARGS, "front_hooks(codes, dawg_root) -> letter mask"},
    {"hooks", Graph_hooks, METH_VARARGS, "hooks(codes, dawg_root, gaddag_root) -> (front, back, valid)"},
    {"words", Graph_words, METH_VARARGS, "words(node_edge, prefix) -> Cursor"},
    {"anagram", Graph_anagram, METH_VARARGS, "anagram(root_edge, letters, blanks, sub, cap) -> (blob, count)"},
    {"pattern", Graph_pattern, METH_VARARGS, "pattern(root_edge, tokens) -> Cursor"},
    {"size", Graph_size, METH_NOARGS, "size() -> (stored edges, extra edges)"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot Graph_slots[] = {
    {Py_tp_new, Graph_new},
    {Py_tp_dealloc, Graph_dealloc},
    {Py_tp_methods, Graph_methods},
    {Py_tp_doc, "A word graph's edge array, checked on construction, and the queries over it."},
    {0, NULL},
};

static PyType_Spec Graph_spec = {"lexc.native._core.Graph", sizeof(Graph), 0, Py_TPFLAGS_DEFAULT, Graph_slots};

static int core_exec(PyObject *module) {
    uint16_t probe = 1;
    if (*(uint8_t *)&probe != 1) {
        PyErr_SetString(PyExc_ImportError, "lexc's compiled core reads little-endian arrays in place (a big-endian host)");
        return -1;
    }
    if (errors_init(module) < 0) return -1;
    PyObject *mmap = PyImport_ImportModule("mmap");
    if (!mmap) return -1;
    MmapType = (PyTypeObject *)PyObject_GetAttrString(mmap, "mmap");
    Py_DECREF(mmap);
    if (!MmapType) return -1;
    PyObject *layouts = PyDict_New();
    for (int k = 0; layouts && k < 2; k++) {
        const Layout *l = &LAYOUTS[k];
        PyObject *fields = Py_BuildValue("(iiiii)", l->size, l->lshift, l->tshift, l->lastshift, l->cbits);
        if (!fields || PyDict_SetItemString(layouts, l->name, fields) < 0) Py_CLEAR(layouts);
        Py_XDECREF(fields);
    }
    if (!layouts || PyModule_AddObject(module, "LAYOUTS", layouts) < 0) { Py_XDECREF(layouts); return -1; }
    GraphType = (PyTypeObject *)PyType_FromSpec(&Graph_spec);
    if (!GraphType) return -1;
    Py_INCREF((PyObject *)GraphType);
    if (PyModule_AddObject(module, "Graph", (PyObject *)GraphType) < 0) { Py_DECREF(GraphType); return -1; }
    CursorType = (PyTypeObject *)PyType_FromSpec(&Cursor_spec);
    if (!CursorType) return -1;
    if (PyModule_AddIntConstant(module, "MAX_TILES", MAX_TILES) < 0) return -1;
    if (PyModule_AddIntConstant(module, "PREFIX_AFTER", PREFIX_AFTER) < 0) return -1;
    SLOW_NAME = PyUnicode_InternFromString("_contains");
    if (!SLOW_NAME) return -1;
    MemberType = (PyTypeObject *)PyType_FromSpec(&Member_spec);
    if (!MemberType) return -1;
    if (PyModule_AddObject(module, "Member", (PyObject *)MemberType) < 0) { Py_DECREF(MemberType); return -1; }
    static PyMethodDef functions[] = {
        {"cgp_board", cgp_board, METH_VARARGS, "cgp_board(text, n, table) -> the board's squares, or None"},
        {"scan_u32", scan_u32, METH_VARARGS, "scan_u32(data, slots) -> (children_inside, descent, zero)"},
        {"unpad_u32", unpad_u32, METH_VARARGS, "unpad_u32(data, slots) -> the entries with padding closed, or None"},
        {"keep_heap", keep_heap, METH_NOARGS, "keep_heap() -> whether the allocator keeps freed memory (glibc)"},
        {NULL, NULL, 0, NULL},
    };
    if (PyModule_AddFunctions(module, functions) < 0) return -1;
    if (movegen_init(module) < 0) return -1;
    if (anatrie_init(module) < 0) return -1;
    if (minimize_init(module) < 0) return -1;
    if (probability_init(module) < 0) return -1;
    if (equity_init(module) < 0) return -1;
    if (leaves_init(module) < 0) return -1;
    if (keyset_init(module) < 0) return -1;
    if (endgame_init(module) < 0) return -1;
    return 0;
}

static PyModuleDef_Slot core_slots[] = {{Py_mod_exec, core_exec}, {0, NULL}};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "lexc.native._core",
    "lexc's compiled core: word-graph queries, proofs and move generation (see src/lexc/native/README.md).",
    0, NULL, core_slots, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModuleDef_Init(&core_module); }
