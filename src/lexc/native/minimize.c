/* The word-graph minimizer in C: src/lexc/formats/minimize.py's Minimizer, the same algorithm
 * step for step (Daciuk et al. 2000 on sorted input, one register for every language,
 * GADDAG links), so a build gives the same node indices and the same packed bytes on both
 * paths (the tests compare them). minimize.py is the readable reference; its docstrings
 * explain the algorithm and this file follows its names.
 *
 * Build-time edges are 64 bits: child << 10 | letter << 2 | terminal << 1 | last. A node is
 * the index of its first edge in `edges`; its list ends at the first edge with the last bit.
 * The register is an open-addressing hash table of node indices keyed by the node's edges.
 */
#include "core.h"

#define M_LAST 1ULL
#define M_TERMINAL 2ULL
#define M_CHILD(e) ((e) >> 10)
#define M_LETTER(e) ((int)(((e) >> 2) & 0xFF))

typedef struct {
    PyObject_HEAD
    uint64_t *edges;
    Py_ssize_t n, cap;
    uint64_t *slots;       /* register: node index, 0 = empty */
    size_t slot_mask;      /* table size - 1 (a power of two) */
    Py_ssize_t registered;
    long long trie_nodes;
    uint64_t *position;    /* after layout(): node -> its first edge's index in the packed array */
    uint8_t *laid;         /* after layout(): 1 at a node laid out in its own right */
    int parents_first;     /* after layout(): the nodes laid out from the last built down */
    Py_ssize_t packed;     /* edges in the packed array (roots included) */
} Minimizer;

static PyTypeObject *MinimizerType;

/* ---- growable arrays ---------------------------------------------------------------- */

static int grow_u64(uint64_t **data, Py_ssize_t *cap, Py_ssize_t need) {
    if (need <= *cap) return 0;
    Py_ssize_t cap2 = *cap ? *cap : 64;
    while (cap2 < need) cap2 *= 2;
    uint64_t *p = realloc(*data, (size_t)cap2 * sizeof(uint64_t));
    if (!p) { PyErr_NoMemory(); return -1; }
    *data = p;
    *cap = cap2;
    return 0;
}

static int grow_bytes(uint8_t **data, Py_ssize_t *cap, Py_ssize_t need) {
    if (need <= *cap) return 0;
    Py_ssize_t cap2 = *cap ? *cap : 64;
    while (cap2 < need) cap2 *= 2;
    uint8_t *p = realloc(*data, (size_t)cap2);
    if (!p) { PyErr_NoMemory(); return -1; }
    *data = p;
    *cap = cap2;
    return 0;
}

/* ---- the register ------------------------------------------------------------------- */

/* A list's hash, over its edges in stored form (last bit on the final edge only). */
static uint64_t list_hash(const uint64_t *e, Py_ssize_t len) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)len;
    for (Py_ssize_t i = 0; i < len; i++) {
        h ^= e[i];
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return h;
}

/* Whether the registered node at `node` holds exactly the list `e` (stored form). The
 * stored list ends at its last bit, which only the candidate's final edge also has, so the
 * comparison stops inside the stored list. */
static int list_equal(const Minimizer *m, uint64_t node, const uint64_t *e, Py_ssize_t len) {
    for (Py_ssize_t i = 0; i < len; i++) {
        if (m->edges[node + (uint64_t)i] != e[i]) return 0;
    }
    return 1;
}

static uint64_t reg_find(const Minimizer *m, const uint64_t *e, Py_ssize_t len) {
    if (!m->slots) return 0;
    size_t i = (size_t)list_hash(e, len) & m->slot_mask;
    for (;;) {
        uint64_t node = m->slots[i];
        if (!node) return 0;
        if (list_equal(m, node, e, len)) return node;
        i = (i + 1) & m->slot_mask;
    }
}

static int reg_resize(Minimizer *m) {
    size_t size = m->slots ? (m->slot_mask + 1) * 2 : 1024;
    uint64_t *slots = calloc(size, sizeof(uint64_t));
    if (!slots) { PyErr_NoMemory(); return -1; }
    if (m->slots) {
        for (size_t k = 0; k <= m->slot_mask; k++) {
            uint64_t node = m->slots[k];
            if (!node) continue;
            Py_ssize_t len = 1;
            while (!(m->edges[node + (uint64_t)len - 1] & M_LAST)) len++;
            size_t i = (size_t)list_hash(m->edges + node, len) & (size - 1);
            while (slots[i]) i = (i + 1) & (size - 1);
            slots[i] = node;
        }
        free(m->slots);
    }
    m->slots = slots;
    m->slot_mask = size - 1;
    return 0;
}

/* The registered node with these edges (`e` has no last bits; len > 0), registering it (its
 * edges appended to the array) if new. Returns 0 with an exception set on failure. */
static uint64_t reg_node(Minimizer *m, uint64_t *e, Py_ssize_t len) {
    e[len - 1] |= M_LAST;
    uint64_t found = reg_find(m, e, len);
    if (found) return found;
    if (!m->slots || (size_t)(m->registered + 1) * 2 > m->slot_mask + 1) {
        if (reg_resize(m) < 0) return 0;
    }
    if (grow_u64(&m->edges, &m->cap, m->n + len) < 0) return 0;
    uint64_t index = (uint64_t)m->n;
    memcpy(m->edges + m->n, e, (size_t)len * sizeof(uint64_t));
    m->n += len;
    size_t i = (size_t)list_hash(e, len) & m->slot_mask;
    while (m->slots[i]) i = (i + 1) & m->slot_mask;
    m->slots[i] = index;
    m->registered++;
    return index;
}

/* ---- the type ----------------------------------------------------------------------- */

static PyObject *Minimizer_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    if (!PyArg_ParseTuple(args, ":Minimizer")) return NULL;
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    Minimizer *m = (Minimizer *)alloc(type, 0);
    if (!m) return NULL;
    if (grow_u64(&m->edges, &m->cap, 1024) < 0) { Py_DECREF(m); return NULL; }
    m->edges[0] = M_LAST; /* index 0 is never a node: child 0 means "no edges" */
    m->n = 1;
    return (PyObject *)m;
}

static void Minimizer_dealloc(PyObject *self) {
    Minimizer *m = (Minimizer *)self;
    free(m->edges);
    free(m->slots);
    free(m->position);
    free(m->laid);
    free_object(self);
}

static int check_open(const Minimizer *m) {
    if (m->position) {
        PyErr_SetString(PyExc_ValueError, "the minimizer is packed: no language can be added");
        return -1;
    }
    return 0;
}

/* The path being built: per depth, its letter, terminal flag, link target and where its
 * node's pending edges start on the one pending stack (only the deepest node grows). */
typedef struct {
    uint8_t *letters, *finals;
    uint64_t *targets, *pending, *starts;
    Py_ssize_t cap_letters, cap_finals, cap_targets, cap_pending, cap_starts;
    Py_ssize_t n_pending;
} Path;

static void path_free(Path *p) {
    free(p->letters); free(p->finals); free(p->targets); free(p->pending); free(p->starts);
}

/* Finish the deepest pending node (depth `depth`, 1-based) and hang it from its parent's list. */
static int finish(Minimizer *m, Path *p, Py_ssize_t depth) {
    Py_ssize_t start = (Py_ssize_t)p->starts[depth];
    Py_ssize_t len = p->n_pending - start;
    uint64_t child = 0;
    if (len) {
        child = reg_node(m, p->pending + start, len);
        if (!child) return -1;
    }
    p->n_pending = start;
    if (!child) child = p->targets[depth - 1];
    if (grow_u64(&p->pending, &p->cap_pending, p->n_pending + 1) < 0) return -1;
    p->pending[p->n_pending++] = child << 10 | (uint64_t)p->letters[depth - 1] << 2 | p->finals[depth - 1];
    return 0;
}

static PyObject *Minimizer_add_language(PyObject *self, PyObject *args) {
    Minimizer *m = (Minimizer *)self;
    PyObject *iterable;
    int linked = 0;
    if (!PyArg_ParseTuple(args, "O|p:add_language", &iterable, &linked)) return NULL;
    if (check_open(m) < 0) return NULL;
    PyObject *it = PyObject_GetIter(iterable);
    if (!it) return NULL;
    Path p = {0};
    PyObject *previous = PyBytes_FromStringAndSize("", 0); /* the previous word (after a link's cut) */
    const uint8_t *prev = (const uint8_t *)"";
    Py_ssize_t prev_len = 0, n_words = 0, depth = 0;
    PyObject *item, *result = NULL;
    if (!previous || grow_u64(&p.starts, &p.cap_starts, 1) < 0) goto done;
    p.starts[0] = 0;
    while ((item = PyIter_Next(it))) {
        char *data;
        Py_ssize_t len;
        PyObject *word = PyBytes_FromObject(item); /* bytes, bytearray, memoryview alike */
        Py_DECREF(item);
        if (!word) goto done;
        if (PyBytes_AsStringAndSize(word, &data, &len) < 0) { Py_DECREF(word); goto done; }
        const uint8_t *w = (const uint8_t *)data;
        /* word <= previous, compared as bytes (the whole string, a link's target included) */
        Py_ssize_t limit = len < prev_len ? len : prev_len;
        int cmp = limit ? memcmp(w, prev, (size_t)limit) : 0;
        if (cmp < 0 || (cmp == 0 && len <= prev_len)) {
            PyErr_Format(PyExc_ValueError, "words must be strictly increasing: %R after %R", word, previous);
            Py_DECREF(word);
            goto done;
        }
        uint64_t target = 0;
        if (linked) {
            const uint8_t *sep = memchr(w, 0, (size_t)len);
            if (sep) {
                Py_ssize_t cut = sep - w + 1;
                int wild = 0;
                for (Py_ssize_t k = cut; k < len; k++) {
                    if (target >> 55) wild = 1;
                    target = target << 8 | w[k];
                }
                PyObject *head = PyBytes_FromStringAndSize(data, cut);
                Py_DECREF(word);
                if (!head) goto done;
                word = head;
                PyBytes_AsStringAndSize(word, &data, &len);
                w = (const uint8_t *)data;
                /* a link points at a registered node (C never follows an index outside the array) */
                if (!target || wild || target >= (uint64_t)m->n || !(m->edges[target - 1] & M_LAST)) {
                    PyErr_Format(PyExc_ValueError, "link %R points at no node", word);
                    Py_DECREF(word);
                    goto done;
                }
                limit = len < prev_len ? len : prev_len;
            }
        }
        /* (an empty word is never above the previous one: the check above refuses it) */
        n_words++;
        Py_ssize_t common = 0;
        while (common < limit && w[common] == prev[common]) common++;
        if (prev_len && common == prev_len && p.targets[prev_len - 1]) {
            PyErr_Format(PyExc_ValueError, "link %R is extended by %R", previous, word);
            Py_DECREF(word);
            goto done;
        }
        for (Py_ssize_t d = prev_len; d > common; d--) {
            if (finish(m, &p, d) < 0) { Py_DECREF(word); goto done; }
        }
        if (grow_bytes(&p.letters, &p.cap_letters, len) < 0 || grow_bytes(&p.finals, &p.cap_finals, len) < 0 ||
            grow_u64(&p.targets, &p.cap_targets, len) < 0 || grow_u64(&p.starts, &p.cap_starts, len + 1) < 0) {
            Py_DECREF(word);
            goto done;
        }
        for (Py_ssize_t d = common; d < len; d++) {
            p.letters[d] = w[d];
            p.finals[d] = 0;
            p.targets[d] = 0;
            p.starts[d + 1] = (uint64_t)p.n_pending;
        }
        if (target) p.targets[len - 1] = target;
        else p.finals[len - 1] = (uint8_t)M_TERMINAL;
        m->trie_nodes += len - common;
        Py_XDECREF(previous);
        previous = word;
        prev = w;
        prev_len = len;
        depth = len;
    }
    if (PyErr_Occurred()) goto done;
    for (Py_ssize_t d = depth; d > 0; d--) {
        if (finish(m, &p, d) < 0) goto done;
    }
    if (n_words) m->trie_nodes += 1; /* the trie's root */
    uint64_t root = 0;
    if (p.n_pending) {
        root = reg_node(m, p.pending, p.n_pending);
        if (!root) goto done;
    }
    result = PyLong_FromUnsignedLongLong(root);
done:
    Py_XDECREF(previous);
    Py_DECREF(it);
    path_free(&p);
    return result;
}

static PyObject *Minimizer_child(PyObject *self, PyObject *args) {
    Minimizer *m = (Minimizer *)self;
    unsigned long long node;
    int letter;
    if (!PyArg_ParseTuple(args, "Ki:child", &node, &letter)) return NULL;
    Py_ssize_t i = (Py_ssize_t)node;
    if (node >= (unsigned long long)m->n) i = 0;
    while (i) {
        uint64_t e = m->edges[i];
        if (M_LETTER(e) == letter) return PyLong_FromUnsignedLongLong(M_CHILD(e));
        if (e & M_LAST) break;
        i++;
    }
    return PyErr_Format(PyExc_ValueError, "no edge %d from node %llu", letter, node);
}

static PyObject *Minimizer_counts(PyObject *self, PyObject *unused) {
    Minimizer *m = (Minimizer *)self;
    return Py_BuildValue("(nL)", m->registered, m->trie_nodes);
}

/* roots: a sequence of node indices, copied out (each checked to be 0 or a node start) */
static uint64_t *read_roots(Minimizer *m, PyObject *seq, Py_ssize_t *count) {
    PyObject *fast = PySequence_Tuple(seq);
    if (!fast) return NULL;
    Py_ssize_t n = PyTuple_Size(fast);
    uint64_t *roots = malloc((size_t)(n ? n : 1) * sizeof(uint64_t));
    if (!roots) { Py_DECREF(fast); PyErr_NoMemory(); return NULL; }
    for (Py_ssize_t k = 0; k < n; k++) {
        unsigned long long r = PyLong_AsUnsignedLongLong(PyTuple_GetItem(fast, k));
        if (PyErr_Occurred()) { free(roots); Py_DECREF(fast); return NULL; }
        if (r && (r >= (unsigned long long)m->n || !(m->edges[r - 1] & M_LAST))) {
            free(roots);
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%llu is not a node", r);
            return NULL;
        }
        roots[k] = r;
    }
    Py_DECREF(fast);
    *count = n;
    return roots;
}

static Py_ssize_t list_len(const Minimizer *m, Py_ssize_t node) {
    Py_ssize_t len = 1;
    while (!(m->edges[node + len - 1] & M_LAST)) len++;
    return len;
}

/* layout(roots, share_tails, parents_first) -> (packed edges, reachable nodes): minimize.py's
 * pack up to the choice of the layout; the register is dropped once it is done. */
static PyObject *Minimizer_layout(PyObject *self, PyObject *args) {
    Minimizer *m = (Minimizer *)self;
    PyObject *seq;
    int share = 0, parents_first = 0;
    if (!PyArg_ParseTuple(args, "O|pp:layout", &seq, &share, &parents_first)) return NULL;
    if (check_open(m) < 0) return NULL;
    Py_ssize_t n_roots;
    uint64_t *roots = read_roots(m, seq, &n_roots);
    if (!roots) return NULL;
    Py_ssize_t n = m->n;
    uint8_t *reach = calloc((size_t)n + 1, 1);
    uint8_t *tail = calloc((size_t)n + 1, 1);
    uint64_t *position = calloc((size_t)n + 1, sizeof(uint64_t));
    if (!reach || !tail || !position) {
        free(reach); free(tail); free(position); free(roots);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; k < n_roots; k++) reach[roots[k]] = 1;
    /* parents before children: node starts from the array's end backwards */
    for (Py_ssize_t i = n - 1; i >= 1; i--) {
        if (!(m->edges[i - 1] & M_LAST)) continue; /* i is not a node start */
        if (!reach[i]) continue;
        for (Py_ssize_t j = i;; j++) {
            reach[M_CHILD(m->edges[j])] = 1;
            if (m->edges[j] & M_LAST) break;
        }
    }
    reach[0] = 0;
    Py_ssize_t reached = 0;
    for (Py_ssize_t i = 1; i < n; i++) reached += reach[i];
    if (share) {
        for (Py_ssize_t i = 1; i < n; i++) {
            if (!(m->edges[i - 1] & M_LAST) || !reach[i]) continue;
            Py_ssize_t len = list_len(m, i);
            for (Py_ssize_t j = 1; j < len; j++) {
                uint64_t s = reg_find(m, m->edges + i + j, len - j);
                if (s > (uint64_t)i && reach[s]) tail[s] = 1; /* (a host built before its tail: either order holds) */
            }
        }
    }
    uint64_t pos = (uint64_t)n_roots;
    for (Py_ssize_t k = 1; k < n; k++) {
        Py_ssize_t i = parents_first ? n - k : k;
        if (!(m->edges[i - 1] & M_LAST) || !reach[i] || tail[i]) continue;
        Py_ssize_t len = list_len(m, i);
        position[i] = pos;
        if (share) {
            for (Py_ssize_t j = 1; j < len; j++) {
                uint64_t s = reg_find(m, m->edges + i + j, len - j);
                if (s > (uint64_t)i && reach[s] && !position[s]) position[s] = pos + (uint64_t)j;
            }
        }
        pos += (uint64_t)len;
    }
    free(m->slots); /* packing finishes the minimizer: the register goes first */
    m->slots = NULL;
    m->registered = 0;
    m->slot_mask = 0;
    for (Py_ssize_t i = 1; i < n; i++) tail[i] = (m->edges[i - 1] & M_LAST) && reach[i] && !tail[i];
    free(reach);
    free(roots);
    m->position = position;
    m->laid = tail; /* now: laid out in its own right */
    m->parents_first = parents_first;
    m->packed = (Py_ssize_t)pos;
    return Py_BuildValue("(Kn)", (unsigned long long)pos, reached);
}

/* the k-th edge of a packed array of `itemsize`-byte edges */
static inline void put_edge(unsigned char *dst, Py_ssize_t k, int itemsize, uint64_t v) {
    if (itemsize == 4) {
        uint32_t w = (uint32_t)v;
        memcpy(dst + k * 4, &w, 4);
    } else {
        memcpy(dst + k * 8, &v, 8);
    }
}

/* emit(roots, itemsize, letter_shift, terminal_bit, last_bit, child_bits) -> bytes: the
 * packed array in the chosen layout (native byte order, as array.frombytes reads it). */
static PyObject *Minimizer_emit(PyObject *self, PyObject *args) {
    Minimizer *m = (Minimizer *)self;
    PyObject *seq;
    int itemsize, shift, tbit, lbit, cbits;
    if (!PyArg_ParseTuple(args, "Oiiiii:emit", &seq, &itemsize, &shift, &tbit, &lbit, &cbits)) return NULL;
    if (!m->position) {
        PyErr_SetString(PyExc_ValueError, "emit() comes after layout()");
        return NULL;
    }
    int bits = itemsize * 8; /* every field inside the edge: no shift by a negative count or past 64 */
    if ((itemsize != 4 && itemsize != 8) || shift < 0 || shift + 8 > bits || tbit < 0 || tbit >= bits || lbit < 0 ||
        lbit >= bits || cbits < 0 || cbits >= bits || (uint64_t)m->packed > (1ULL << cbits)) {
        PyErr_SetString(PyExc_ValueError, "the layout does not hold the packed graph");
        return NULL;
    }
    Py_ssize_t n_roots;
    uint64_t *roots = read_roots(m, seq, &n_roots);
    if (!roots) return NULL;
    if (n_roots > m->packed) { free(roots); PyErr_SetString(PyExc_ValueError, "roots do not match layout()"); return NULL; }
    Buf out = {0};
    unsigned char *dst = buf_reserve(&out, m->packed * itemsize);
    if (!dst) { free(roots); return PyErr_NoMemory(); }
    Py_ssize_t k = 0;
    for (Py_ssize_t r = 0; r < n_roots; r++) put_edge(dst, k++, itemsize, 1ULL << lbit | m->position[roots[r]]);
    for (Py_ssize_t q = 1; q < m->n && k < m->packed; q++) {
        Py_ssize_t i = m->parents_first ? m->n - q : q;
        if (!m->laid[i]) continue;
        for (Py_ssize_t j = i; k < m->packed; j++) {
            uint64_t e = m->edges[j];
            uint64_t v = (uint64_t)M_LETTER(e) << shift | ((e >> 1) & 1) << tbit | m->position[M_CHILD(e)];
            if (e & M_LAST) v |= 1ULL << lbit;
            put_edge(dst, k++, itemsize, v);
            if (e & M_LAST) break;
        }
    }
    free(roots);
    out.len = k * itemsize;
    return buf_bytes(&out);
}

static PyMethodDef Minimizer_methods[] = {
    {"add_language", Minimizer_add_language, METH_VARARGS,
     "add_language(words, linked=False) -> root: minimize.Minimizer.add_language"},
    {"child", Minimizer_child, METH_VARARGS, "child(node, letter) -> node"},
    {"counts", Minimizer_counts, METH_NOARGS, "counts() -> (registered nodes, trie nodes)"},
    {"layout", Minimizer_layout, METH_VARARGS,
     "layout(roots, share_tails=False, parents_first=False) -> (packed edges, reachable nodes); drops the register"},
    {"emit", Minimizer_emit, METH_VARARGS,
     "emit(roots, itemsize, letter_shift, terminal_bit, last_bit, child_bits) -> the packed array's bytes"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot Minimizer_slots[] = {
    {Py_tp_new, Minimizer_new},
    {Py_tp_dealloc, Minimizer_dealloc},
    {Py_tp_methods, Minimizer_methods},
    {Py_tp_doc, "The word-graph minimizer (src/lexc/formats/minimize.py's Minimizer) in C."},
    {0, NULL},
};

static PyType_Spec Minimizer_spec = {"lexc.native._core.Minimizer", sizeof(Minimizer), 0, Py_TPFLAGS_DEFAULT,
                                     Minimizer_slots};

int minimize_init(PyObject *module) {
    MinimizerType = (PyTypeObject *)PyType_FromSpec(&Minimizer_spec);
    if (!MinimizerType) return -1;
    Py_INCREF((PyObject *)MinimizerType);
    if (PyModule_AddObject(module, "Minimizer", (PyObject *)MinimizerType) < 0) {
        Py_DECREF(MinimizerType);
        return -1;
    }
    return 0;
}
