/* Shapiro & Smith's findwords2 on the anagram trie's letter table (lexc.formats.anatrie, in C).
 *
 * The same search as AnagramTrie._findwords2 (the reference), over either disk layout
 * (formats/anatrie.md) read in place: the mapped file's bytes are never parsed ahead, so
 * every read is checked against the buffer's end here, and a record that runs past it, a
 * fail offset that does not point forward, a letter outside the canonical order or a word
 * holding a code outside the alphabet stops the search with MalformedTable(kind, offset), as
 * the pure path raises FormatError at the same record.
 */
#include "core.h"

#define PASCAL 0
#define SIMULA 1
#define HAS_SUCC 1
#define HAS_FAIL 2
#define HAS_WORD 4
#define DUMMY 0
#define NONE (-1)  /* no subtrie */
#define SKIP (-2)  /* simula: the fail subtrie follows the success subtrie, reached by reading it */
#define FAULT (-3) /* a damaged record (Table.error says which) */
#define MAX_FRAMES 200 /* a search pushes one frame a letter or blank: at most MAX_LIST + MAX_TILES */
#define MAX_LIST 128
#define GROUP_HEADER 22 /* depth, blank-made count, words (u32), bytes and nodes read so far (u64 each) */

enum { E_PAST = 1, E_BACKWARD, E_LETTER, E_WORD, E_DEEP };

typedef struct {
    const uint8_t *data;
    Py_ssize_t n;
    int layout, letters;
    const uint8_t *rank;   /* letter code -> canonical rank (255: not in the order) */
    const uint8_t *made;   /* rank -> letter code */
    unsigned long long nbytes, nodes;
    int error;
    Py_ssize_t where;
} Table;

typedef struct { int letter; Py_ssize_t succ, fail, words; Py_ssize_t size; } Node;

static int bad(Table *t, int kind, Py_ssize_t where) {
    if (!t->error) { t->error = kind; t->where = where; }
    return -1;
}

static inline int byte_at(Table *t, Py_ssize_t p, int *out) {
    if (p < 0 || p >= t->n) return bad(t, E_PAST, p);
    *out = t->data[p];
    return 0;
}

/* the node at `offset`, `depth` letters deep (AnagramTrie.file.node) */
static int node_at(Table *t, Py_ssize_t offset, Py_ssize_t depth, Node *nd) {
    int letter, flags, mark;
    if (byte_at(t, offset, &letter) < 0 || byte_at(t, offset + 1, &flags) < 0) return -1;
    nd->letter = letter;
    if (t->layout == PASCAL) {
        Py_ssize_t p = offset + 2;
        nd->fail = NONE;
        if (flags & HAS_FAIL) {
            if (p + 4 > t->n) return bad(t, E_PAST, p);
            uint32_t fail;
            memcpy(&fail, t->data + p, 4);
            if ((Py_ssize_t)fail <= offset) return bad(t, E_BACKWARD, offset);
            nd->fail = (Py_ssize_t)fail;
            p += 4;
        }
        nd->words = NONE;
        if (flags & HAS_WORD) {
            nd->words = p;
            p += depth;
            for (;;) {
                if (byte_at(t, p, &mark) < 0) return -1;
                if (mark != DUMMY) break;
                p += 2 + depth;
            }
        }
        if (flags & HAS_SUCC) { nd->succ = p; nd->size = p - offset; }
        else { nd->succ = NONE; nd->size = p + 1 - offset; }
        return 0;
    }
    /* simula: letter, count, the words, a code (1: success follows, 2: a fail subtrie) */
    int count = flags, code;
    Py_ssize_t p = offset + 2 + (Py_ssize_t)count * depth;
    if (byte_at(t, p, &code) < 0) return -1;
    p += 1;
    nd->succ = code & 1 ? p : NONE;
    nd->fail = code & 2 ? (nd->succ != NONE ? SKIP : p) : NONE;
    nd->words = count ? offset + 2 : NONE;
    nd->size = p - offset;
    return 0;
}

/* simula: past the subtrie at `p` (node, success and fail subtries), by reading all of it */
static Py_ssize_t skip_subtrie(Table *t, Py_ssize_t p, Py_ssize_t depth, Py_ssize_t *read) {
    Py_ssize_t start = p, cap = 64, top = 0;
    Py_ssize_t *stack = malloc((size_t)cap * sizeof *stack);
    if (!stack) { PyErr_NoMemory(); return bad(t, E_DEEP, p); }
    stack[top++] = depth;
    while (top) {
        Py_ssize_t d = stack[--top];
        int count, code;
        if (byte_at(t, p + 1, &count) < 0) { free(stack); return -1; }
        if (byte_at(t, p + 2 + (Py_ssize_t)count * d, &code) < 0) { free(stack); return -1; }
        p += 3 + (Py_ssize_t)count * d;
        if (top + 2 > cap) {
            Py_ssize_t *grown = realloc(stack, (size_t)(cap *= 2) * sizeof *stack);
            if (!grown) { free(stack); PyErr_NoMemory(); return bad(t, E_DEEP, p); }
            stack = grown;
        }
        if (code & 2) stack[top++] = d;
        if (code & 1) stack[top++] = d + 1;
    }
    free(stack);
    *read = p - start;
    return p;
}

/* where a node's fail subtrie starts: `fail` itself, or (SKIP, simula) the offset past its
 * success subtrie at `succ`, read to get there and counted; FAULT on a damaged record */
static Py_ssize_t fail_root(Table *t, Py_ssize_t fail, Py_ssize_t succ, Py_ssize_t depth) {
    if (fail != SKIP) return fail;
    Py_ssize_t read = 0, past = skip_subtrie(t, succ, depth + 1, &read);
    if (past < 0) return FAULT;
    t->nbytes += (unsigned long long)read;
    return past;
}

/* the fail chain from `offset` to the first node whose letter ranks at least `least`:
 * its offset, or NONE when the chain ends first (NodeFile.seek, PascalFile.seek) */
static Py_ssize_t seek(Table *t, Py_ssize_t offset, Py_ssize_t depth, int least, int *failed) {
    int letter;
    for (;;) {
        if (byte_at(t, offset, &letter) < 0) { *failed = 1; return NONE; }
        if (t->rank[letter] >= least) return offset;
        if (t->layout == PASCAL) {
            int flags;
            t->nodes++;
            if (byte_at(t, offset + 1, &flags) < 0) { *failed = 1; return NONE; }
            if (!(flags & HAS_FAIL)) { t->nbytes += 2; return NONE; }
            if (offset + 6 > t->n) { bad(t, E_PAST, offset + 2); *failed = 1; return NONE; }
            uint32_t fail;
            memcpy(&fail, t->data + offset + 2, 4);
            if ((Py_ssize_t)fail <= offset) { bad(t, E_BACKWARD, offset); *failed = 1; return NONE; }
            t->nbytes += 6;
            offset = (Py_ssize_t)fail;
            continue;
        }
        Node nd;
        if (node_at(t, offset, depth, &nd) < 0) { *failed = 1; return NONE; }
        t->nbytes += (unsigned long long)nd.size;
        t->nodes++;
        if (nd.fail == NONE) return NONE;
        offset = fail_root(t, nd.fail, nd.succ, depth);
        if (offset == FAULT) { *failed = 1; return NONE; }
    }
}

/* the words stored with a node, appended to `out` after a group header (checked: every
 * byte a letter code of the alphabet) */
static int put_words(Table *t, Buf *out, Py_ssize_t at, Py_ssize_t depth, const uint8_t *blanked, int nblanked) {
    uint32_t count = 0;
    Py_ssize_t head = out->len;
    unsigned char header[GROUP_HEADER] = {(unsigned char)depth, (unsigned char)nblanked};
    uint64_t read[2] = {t->nbytes, t->nodes}; /* what the search had read when it met the group */
    memcpy(header + 6, read, 16);
    if (buf_put(out, header, GROUP_HEADER) < 0 || buf_put(out, blanked, nblanked) < 0) return -2;
    Py_ssize_t p = at;
    int mark;
    if (t->layout == PASCAL) {
        for (;;) {
            if (p + depth > t->n) return bad(t, E_PAST, p);
            for (Py_ssize_t k = 0; k < depth; k++)
                if (t->data[p + k] < 1 || t->data[p + k] > t->letters) return bad(t, E_WORD, at);
            if (buf_put(out, t->data + p, depth) < 0) return -2;
            count++;
            p += depth;
            if (byte_at(t, p, &mark) < 0) return -1;
            if (mark != DUMMY) break;
            p += 2;
        }
    } else {
        int n;
        if (byte_at(t, at - 1, &n) < 0) return -1;
        if (at + (Py_ssize_t)n * depth > t->n) return bad(t, E_PAST, at);
        for (Py_ssize_t k = 0; k < (Py_ssize_t)n * depth; k++)
            if (t->data[at + k] < 1 || t->data[at + k] > t->letters) return bad(t, E_WORD, at);
        if (buf_put(out, t->data + at, (Py_ssize_t)n * depth) < 0) return -2;
        count = (uint32_t)n;
    }
    memcpy(out->data + head + 2, &count, 4);
    return 0;
}

typedef struct {
    Py_ssize_t depth, succ, fail, words;
    int i, blanks, nblanked, r;
} Frame;

/* findwords(data, layout, letters, blanks, rank, made, n_letters) -> (groups, count, bytes
 * read, nodes read). `letters`: the search list, little-endian uint16 each (rank << 1, | 1
 * when optional), sorted; `rank`: 256 bytes; `made`: rank -> letter code. Each group in the
 * blob: depth (u8), blank-made letters (u8 count), words (u32 count), the bytes and nodes
 * the search had read when it met the group (u64 each: SIMULA's detach points), the
 * blank-made letter codes, then the words, `depth` bytes each; in the paper's order. */
static PyObject *findwords(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer data, list, rank, made;
    int layout, blanks, n_letters;
    if (!PyArg_ParseTuple(args, "y*iy*iy*y*i", &data, &layout, &list, &blanks, &rank, &made, &n_letters)) return NULL;
    PyObject *result = NULL;
    Buf out = {0};
    Table t = {0};
    Frame *stack = NULL;
    if ((layout != PASCAL && layout != SIMULA) || list.len % 2 || list.len / 2 >= MAX_LIST || blanks < 0 ||
        blanks > MAX_TILES || rank.len != 256 || made.len < 1 || made.len > 255 || n_letters < 1 || n_letters > 127) {
        PyErr_SetString(PyExc_ValueError, "findwords: bad arguments");
        goto done;
    }
    int end = (int)(list.len / 2); /* (below MAX_LIST: checked in Py_ssize_t first) */
    int letters[MAX_LIST + 1], required[MAX_LIST + 2];
    for (int k = 0; k < end; k++) {
        uint16_t v;
        memcpy(&v, (const uint8_t *)list.buf + 2 * k, 2);
        letters[k] = v;
    }
    letters[end] = 512; /* the sentinel */
    required[end] = 0;
    for (int k = end - 1; k >= 0; k--) required[k] = required[k + 1] + !(letters[k] & 1);
    required[end + 1] = 0;
    t.data = (const uint8_t *)data.buf; t.n = data.len; t.layout = layout; t.letters = n_letters;
    t.rank = (const uint8_t *)rank.buf; t.made = (const uint8_t *)made.buf;
    const uint8_t *rk = t.rank;
    stack = malloc(MAX_FRAMES * sizeof(Frame));
    if (!stack) { PyErr_NoMemory(); goto done; }
    uint8_t blanked[MAX_FRAMES + 1];
    int nblanked = 0, top = 0, i = 0, failed = 0, groups = 0;
    Py_ssize_t tree = t.n ? 0 : NONE, depth = 1;
    for (;;) {
        if (tree != NONE && (blanks || i < end)) {
            int letter;
            if (byte_at(&t, tree, &letter) < 0) break;
            if (!blanks && rk[letter] < (letters[i] >> 1)) {
                tree = seek(&t, tree, depth, letters[i] >> 1, &failed);
                if (failed) break;
                if (tree == NONE) continue;
            }
            Node nd;
            if (node_at(&t, tree, depth, &nd) < 0) break;
            t.nodes++;
            t.nbytes += (unsigned long long)nd.size;
            int r = rk[nd.letter];
            if (r == 255) { bad(&t, E_LETTER, tree); break; }
            int head = letters[i] >> 1;
            while (head < r && (letters[i] & 1)) head = letters[++i] >> 1;
            if (head == r || (head > r && blanks)) {
                if (top >= MAX_FRAMES) { bad(&t, E_DEEP, tree); break; }
                Frame f = {depth, nd.succ, nd.fail, nd.words, i, blanks, nblanked, head == r ? -1 : r};
                stack[top++] = f;
                if (head == r) { tree = nd.succ; depth++; i++; }
                else { tree = nd.succ; depth++; blanks--; blanked[nblanked++] = t.made[r < made.len ? r : 0]; }
            } else if (head < r) {
                tree = NONE;
            } else if (i < end) {
                tree = fail_root(&t, nd.fail, nd.succ, depth);
                if (tree == FAULT) break;
            } else {
                tree = NONE;
            }
            continue;
        }
        if (!top) break;
        Frame f = stack[--top];
        depth = f.depth; i = f.i; blanks = f.blanks; nblanked = f.nblanked;
        if (f.r < 0) {
            if (f.words != NONE && !required[i + 1]) {
                int rc = put_words(&t, &out, f.words, depth, blanked, nblanked);
                if (rc == -2) goto done;
                if (rc < 0) break;
                groups++;
            }
            if (!(letters[i] & 1)) { tree = NONE; continue; }
            i++;
        } else if (f.words != NONE && !required[i]) {
            blanked[nblanked] = t.made[f.r < made.len ? f.r : 0];
            int rc = put_words(&t, &out, f.words, depth, blanked, nblanked + 1);
            if (rc == -2) goto done;
            if (rc < 0) break;
            groups++;
        }
        tree = fail_root(&t, f.fail, f.succ, depth);
        if (tree == FAULT) break;
    }
    if (PyErr_Occurred()) goto done;
    if (t.error) {
        static const char *kinds[] = {"", "past", "backward", "letter", "word", "deep"};
        raise_fault(MalformedTable, kinds[t.error], t.where, 0);
        goto done;
    }
    {
        PyObject *blob = buf_bytes(&out);
        if (blob) result = Py_BuildValue("(NiKK)", blob, groups, t.nbytes, t.nodes);
    }
done:
    buf_free(&out);
    free(stack);
    PyBuffer_Release(&data); PyBuffer_Release(&list); PyBuffer_Release(&rank); PyBuffer_Release(&made);
    return result;
}

/* scan_words(data, layout, letters) -> every word of the letter table in file order, each
 * followed by a 0 byte (AnagramTrie.file.preorder with its words: one forward pass), or None
 * when a record is damaged anywhere: the Python pass then raises the error at that record. */
static PyObject *scan_words(PyObject *module, PyObject *args) {
    Py_buffer data;
    int layout, letters;
    if (!PyArg_ParseTuple(args, "y*ii", &data, &layout, &letters)) return NULL;
    const uint8_t *d = data.buf;
    Py_ssize_t n = data.len, p = 0;
    Buf out = {0};
    Py_ssize_t *stack = NULL, top = 0, cap = 0; /* pascal: (depth, recorded fail) pairs; simula: depths */
    int fault = 0;
#define NEED(q) do { if ((q) > n || (q) < 0) { fault = 1; goto finish; } } while (0)
#define PUSH(v) do { if (top == cap) { Py_ssize_t c2 = cap ? cap * 2 : 64; \
        Py_ssize_t *g2 = realloc(stack, (size_t)c2 * sizeof(Py_ssize_t)); if (!g2) { PyErr_NoMemory(); goto finish; } \
        stack = g2; cap = c2; } stack[top++] = (v); } while (0)
    if (layout == PASCAL) {
        Py_ssize_t depth = 1;
        while (p < n) {
            NEED(p + 2);
            int letter = d[p], flags = d[p + 1];
            if (letter < 1 || letter > letters || (flags & ~(HAS_SUCC | HAS_FAIL | HAS_WORD))) { fault = 1; break; }
            if (!(flags & (HAS_SUCC | HAS_WORD))) { fault = 1; break; }
            p += 2;
            if (flags & HAS_FAIL) {
                NEED(p + 4);
                uint32_t recorded;
                memcpy(&recorded, d + p, 4);
                PUSH(depth);
                PUSH((Py_ssize_t)recorded);
                p += 4;
            }
            if (flags & HAS_WORD) {
                Py_ssize_t at = p;
                for (int first = 1;; first = 0) {
                    if (!first) {
                        NEED(at + 1);
                        if (d[at] != DUMMY) break;
                        NEED(at + 2);
                        if (d[at + 1] != HAS_WORD) { fault = 1; break; }
                        at += 2;
                    }
                    NEED(at + depth);
                    unsigned char *w = buf_reserve(&out, depth + 1);
                    if (!w) { PyErr_NoMemory(); goto finish; }
                    for (Py_ssize_t k = 0; k < depth; k++) {
                        int c = d[at + k];
                        if (c < 1 || c > letters) { fault = 1; goto finish; }
                        w[k] = (unsigned char)c;
                    }
                    w[depth] = 0;
                    out.len += depth + 1;
                    at += depth;
                }
                if (fault) break;
                p = at;
            }
            if (flags & HAS_SUCC) { depth++; continue; }
            NEED(p + 1);
            if (d[p] != 0xFF) { fault = 1; break; } /* END */
            p++;
            if (!top) break;
            Py_ssize_t recorded = stack[--top];
            depth = stack[--top];
            if (recorded != p) { fault = 1; break; }
        }
        if (!fault && (p != n || top)) fault = 1;
    } else {
        if (n) PUSH(1);
        while (top && p < n) {
            Py_ssize_t depth = stack[--top];
            NEED(p + 2);
            int letter = d[p], count = d[p + 1];
            if (count && depth > (n - p - 2) / count) { fault = 1; break; } /* words past the end */
            Py_ssize_t code_at = p + 2 + (Py_ssize_t)count * depth;
            NEED(code_at + 1);
            int code = d[code_at];
            if (letter < 1 || letter > letters || code > 3) { fault = 1; break; }
            if (!count && !(code & 1)) { fault = 1; break; }
            for (int i = 0; i < count; i++) {
                unsigned char *w = buf_reserve(&out, depth + 1);
                if (!w) { PyErr_NoMemory(); goto finish; }
                for (Py_ssize_t k = 0; k < depth; k++) {
                    int c = d[p + 2 + i * depth + k];
                    if (c < 1 || c > letters) { fault = 1; goto finish; }
                    w[k] = (unsigned char)c;
                }
                w[depth] = 0;
                out.len += depth + 1;
            }
            p = code_at + 1;
            if (code & 2) PUSH(depth);
            if (code & 1) PUSH(depth + 1);
        }
        if (!fault && (p != n || top)) fault = 1;
    }
#undef NEED
#undef PUSH
finish:
    free(stack);
    PyBuffer_Release(&data);
    if (PyErr_Occurred()) { buf_free(&out); return NULL; }
    if (fault) { buf_free(&out); Py_RETURN_NONE; }
    return buf_bytes(&out);
}

static PyMethodDef anatrie_methods[] = {
    {"scan_words", scan_words, METH_VARARGS, "every word of a letter table, each followed by a 0 byte; None if a record is damaged"},
    {"findwords", findwords, METH_VARARGS, "Shapiro & Smith's findwords2 on a letter table: (groups, count, bytes, nodes)."},
    {NULL, NULL, 0, NULL},
};

int anatrie_init(PyObject *module) {
    return PyModule_AddFunctions(module, anatrie_methods);
}
