/* A prefix set's key stream, proved in one pass and queried in place (formats/prefixset.md).
 *
 * The stream is the payload of both prefix-set formats: K (depth, letter) byte pairs, the prefix
 * closure of the words in sorted order (= the trie's pre-order), each key its parent (the key of
 * length `depth` on the path to the previous key) plus one letter, bit 7 of the letter byte the
 * word flag. It is a front-coded sorted list, so it is searched where it lies:
 *
 *   KeySet(stream, letters, encode=None)
 *     proves the stream in one pass, with the rules of keystream.decode_stream (the reference) in
 *     the same order, MalformedTable(kind, offset, value) naming the first pair that breaks one
 *     ("skip", "deep", "letter", "dead", "order"; "last" at the stream's end, "odd" for an odd
 *     length); the Python side words the message. While it reads, it copies every SAMPLE-th key
 *     whole into a small index (for ENABLE: 24,243 keys, about 0.8 MB beside the 0.78 MB stream).
 *   ks.index(slots)
 *     attaches the word index the file stores after the stream (formats/prefixset.md, "The word
 *     index"), once the stream is proved and its word count checked: a hash table of the words'
 *     pairs, proved here (every word is found on its probe path, no other entry is there) before
 *     any lookup reads it: "slot" at a word's pair offset, or "entries" with the count found.
 * `word in lexicon` for a prefix set is Member's C slot (_core.c) over the bound KeySet: keyset_member,
 * one probe of the word index (and the pairs from the sample before the word's, to spell it and
 * compare), or the search below when there is no index.
 *
 * A search for a key w is a binary search over the sampled keys of w's bucket (its first two
 * letters), comparing their first 8 letters packed in one integer (the whole key on a tie), then
 * a forward scan from the last sample <= w that keeps only the length of the part the current key
 * shares with w, four pairs at a time while they are deeper than that part: a pair
 * (d, c) leaves the key below w when d is past that part, extends it when c is w's next letter,
 * and passes w (so w is absent) when d falls inside it or c is larger. In a proved stream every
 * key is larger than the one before, which is what makes the scan right; whatever the bytes, it
 * reads only pairs 0..K-1 and sampled keys inside the pool, so it is safe on any buffer.
 *
 * The stream is read in place from memory nobody can change while the set holds it (a bytes
 * object, or a read-only mmap, or a memoryview of either); anything else is copied once.
 */
#include "core.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define SAMPLE 16 /* every SAMPLE-th key is kept whole: a search scans fewer than SAMPLE pairs, a word
                   * found by the word index is spelled from at most SAMPLE - 1 of them (16: membership
                   * 3% faster than 32 on ENABLE, for 0.3 MB more) */
#define ABOVE 0x80 /* a byte after every letter (letters are 1..127): w + ABOVE follows w's subtree */
#define BUCKETS 1024 /* a key's bucket: 32 a + b for first letters a, b (b = 0 for one letter) of an
                      * alphabet of at most 31 letters, else its first letter a */

typedef struct {
    PyObject_HEAD
    Py_buffer view;        /* the caller's buffer, held while `s` points into it */
    int has_view;
    unsigned char *owned;  /* or a copy the set owns */
    const uint8_t *s;      /* 2 k bytes: the pairs */
    Py_ssize_t k, words;
    int letters;
    uint8_t encode[256];   /* Latin-1 character -> letter code (0: not a one-character label) */
    int has_encode;
    Py_ssize_t samples;    /* keys 0, SAMPLE, 2 SAMPLE, ... kept whole */
    Py_ssize_t *at;        /* samples + 1 offsets into pool: sample j is pool[at[j] .. at[j + 1]) */
    uint8_t *pool;
    uint64_t *head;        /* sample j's first 8 letters, big-endian, zero after a shorter key: in
                            * the keys' order, so the binary search compares one word a step */
    uint64_t *tail;        /* and its letters 8 to 15, little-endian (zero after a shorter key): with
                            * the head, a word of up to 17 letters found by the word index is
                            * spelled from the sample without the pool (one read fewer in turn) */
    int two;               /* the buckets are by the first two letters (an alphabet of at most 31) */
    Py_ssize_t bucket[BUCKETS + 1]; /* bucket[i]: the first sample whose bucket is >= i */
    Py_buffer index_view;  /* the word index: the caller's buffer, held while `slot` points into it */
    int has_index_view;
    uint32_t *index_owned; /* or a copy the set owns */
    const uint32_t *slot;  /* NULL until index() proves one: `slots` entries, 0 empty, else
                            * (pair + 1) << fp_bits | the low fp_bits of the word's hash */
    uint64_t slots;
    int fp_bits;
} KeySet;

#define HASH_M1 0x9E3779B97F4A7C15ULL
#define HASH_M2 0xBF58476D1CE4E5B9ULL
/* a key's hash (formats/prefixset.md): its length, then its letter codes 8 at a time (as a
 * little-endian integer, zeros after the last), each mixed in by a multiply and a shift. `w`
 * holds n codes and at least 7 bytes after them (read, then masked off). */
#define HASH_SLACK 7
static inline uint64_t key_hash(const uint8_t *w, Py_ssize_t n) {
    uint64_t h = (uint64_t)n * HASH_M1;
    for (Py_ssize_t i = 0; i < n; i += 8) {
        uint64_t v;
        memcpy(&v, w + i, 8); /* (little-endian: the core runs on such hosts only) */
        if (n - i < 8) v &= (1ULL << (8 * (n - i))) - 1;
        h = (h ^ v) * HASH_M1;
        h ^= h >> 29;
    }
    h *= HASH_M2;
    return h ^ h >> 32;
}
/* the first slot a hash probes, of `slots` (< 2^32): its high 32 bits scaled */
static inline uint64_t home_slot(uint64_t h, uint64_t slots) { return ((h >> 32) * slots) >> 32; }

static PyTypeObject *KeySetType;
/* sample j's bucket, from its first two letters (its head) */
static int sample_bucket(const KeySet *ks, Py_ssize_t j) {
    int a = (int)(ks->head[j] >> 56), b = (int)(ks->head[j] >> 48 & 0xFF);
    return ks->two ? 32 * a + b : a;
}

/* The proof: 0, or -1 with MalformedTable set (the rules and their order: keystream.decode_stream). */
static int prove(KeySet *ks) {
    uint8_t path[MAX_TILES + 1];
    Py_ssize_t prev = 0; /* the previous key's length (0: the root) */
    int prev_word = 1;
    Buf pool = {NULL, 0, 0};
    ks->samples = (ks->k + SAMPLE - 1) / SAMPLE;
    ks->at = malloc(((size_t)ks->samples + 1) * sizeof *ks->at);
    ks->head = malloc(((size_t)ks->samples + 1) * sizeof *ks->head);
    ks->tail = malloc(((size_t)ks->samples + 1) * sizeof *ks->tail);
    if (!ks->at || !ks->head || !ks->tail) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t p = 0; p < ks->k; p++) {
        int d = ks->s[2 * p], b = ks->s[2 * p + 1], c = b & 0x7F;
        const char *kind = NULL;
        if (d > prev) kind = "skip";
        else if (d >= MAX_TILES) kind = "deep";
        else if (c < 1 || c > ks->letters) kind = "letter";
        else if (!prev_word && d != prev) kind = "dead";
        else if (d < prev && c <= path[d]) kind = "order";
        if (kind) { buf_free(&pool); raise_fault(MalformedTable, kind, 2 * p, (long long)prev); return -1; }
        path[d] = (uint8_t)c;
        prev = d + 1;
        prev_word = b >> 7;
        ks->words += prev_word;
        if (p % SAMPLE == 0) {
            uint64_t h = 0, t = 0;
            for (int i = 0; i < 8; i++) h = h << 8 | (i < prev ? path[i] : 0);
            for (int i = 15; i >= 8; i--) t = t << 8 | (i < prev ? path[i] : 0);
            ks->at[p / SAMPLE] = pool.len;
            ks->head[p / SAMPLE] = h;
            ks->tail[p / SAMPLE] = t;
            if (buf_put(&pool, path, prev) < 0) { buf_free(&pool); return -1; }
        }
    }
    if (!prev_word) { buf_free(&pool); raise_fault(MalformedTable, "last", 2 * ks->k, 0); return -1; }
    ks->at[ks->samples] = pool.len;
    static const uint8_t slack[8];
    if (ks->samples && buf_put(&pool, slack, sizeof slack) < 0) { buf_free(&pool); return -1; } /* (8-byte copies) */
    ks->pool = pool.data; /* (NULL for an empty stream: no sample is ever read) */
    ks->two = ks->letters <= 31;
    Py_ssize_t j = 0;
    for (int i = 0; i <= BUCKETS; i++) { /* (sample keys ascend, so their buckets do) */
        while (j < ks->samples && sample_bucket(ks, j) < i) j++;
        ks->bucket[i] = j;
    }
    return 0;
}

static PyObject *KeySet_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"stream", "letters", "encode", NULL};
    PyObject *stream, *encode = Py_None;
    int letters;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Oi|O", names, &stream, &letters, &encode)) return NULL;
    if (letters < 1 || letters > 127) {
        PyErr_SetString(PyExc_ValueError, "KeySet: letters must be 1..127");
        return NULL;
    }
    KeySet *ks = (KeySet *)PyType_GenericNew(type, NULL, NULL);
    if (!ks) return NULL;
    ks->letters = letters;
    if (encode != Py_None) {
        Py_buffer e;
        if (PyObject_GetBuffer(encode, &e, PyBUF_SIMPLE) < 0) goto fail;
        if (e.len != 256) {
            PyBuffer_Release(&e);
            PyErr_SetString(PyExc_ValueError, "KeySet: encode must be 256 bytes");
            goto fail;
        }
        memcpy(ks->encode, e.buf, 256);
        PyBuffer_Release(&e);
        ks->has_encode = 1;
    }
    if (PyObject_GetBuffer(stream, &ks->view, PyBUF_SIMPLE) < 0) goto fail;
    ks->has_view = 1;
    ks->s = (const uint8_t *)ks->view.buf;
    if (ks->view.len % 2) { raise_fault(MalformedTable, "odd", ks->view.len, 0); goto fail; }
    ks->k = ks->view.len / 2;
    if (!(ks->view.readonly && immutable_memory(stream))) {
        ks->owned = malloc(ks->view.len ? (size_t)ks->view.len : 1);
        if (!ks->owned) { PyErr_NoMemory(); goto fail; }
        memcpy(ks->owned, ks->view.buf, (size_t)ks->view.len);
        ks->s = ks->owned;
        PyBuffer_Release(&ks->view);
        ks->has_view = 0;
    }
    if (prove(ks) < 0) goto fail;
    return (PyObject *)ks;
fail:
    Py_DECREF((PyObject *)ks);
    return NULL;
}

static void KeySet_dealloc(PyObject *self) {
    KeySet *ks = (KeySet *)self;
    if (ks->has_view) PyBuffer_Release(&ks->view);
    free(ks->owned);
    free(ks->at);
    free(ks->head);
    free(ks->tail);
    free(ks->pool);
    if (ks->has_index_view) PyBuffer_Release(&ks->index_view);
    free(ks->index_owned);
    free_object(self);
}

/* sample j's key compared with w: <0, 0, >0 */
static int sample_cmp(const KeySet *ks, Py_ssize_t j, const uint8_t *w, Py_ssize_t n) {
    const uint8_t *key = ks->pool + ks->at[j];
    Py_ssize_t len = ks->at[j + 1] - ks->at[j], m = len < n ? len : n;
    int c = m ? memcmp(key, w, (size_t)m) : 0;
    return c ? c : (len > n) - (len < n);
}

/* The first key >= w (its pair index; k when there is none), *equal set when it is w. w holds
 * n >= 1 bytes. */
static Py_ssize_t seek(const KeySet *ks, const uint8_t *w, Py_ssize_t n, int *equal) {
    *equal = 0;
    if (!ks->k) return 0;
    /* the last sample <= w is in [lo - 1, hi): the samples of an earlier bucket than w's are
     * below w, those of a later one above it (a byte past the letters: above them all) */
    Py_ssize_t lo, hi;
    int a = w[0], b = n > 1 ? w[1] : 0;
    if (ks->two && a < 32 && b < 32) { lo = ks->bucket[32 * a + b]; hi = ks->bucket[32 * a + b + 1]; }
    else if (ks->two && a < 32) lo = hi = ks->bucket[32 * (a + 1)];
    else if (!ks->two && a < 128) { lo = ks->bucket[a]; hi = ks->bucket[a + 1]; }
    else lo = hi = ks->samples;
    uint64_t h = 0;
    for (int i = 0; i < 8; i++) h = h << 8 | (i < n ? w[i] : 0);
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        uint64_t m = ks->head[mid];
        if (m < h || (m == h && sample_cmp(ks, mid, w, n) <= 0)) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return 0; /* w is before the first key */
    Py_ssize_t j = lo - 1, p = j * SAMPLE;
    const uint8_t *key = ks->pool + ks->at[j];
    Py_ssize_t len = ks->at[j + 1] - ks->at[j], shared = 0;
    while (shared < len && shared < n && key[shared] == w[shared]) shared++;
    if (shared == n) { *equal = shared == len; return p; } /* (shared == n < len: the key is above w) */
    /* the key at p is below w and shares `shared` < n letters with it */
    const uint8_t *s = ks->s;
    const uint64_t ones = 0x0001000100010001ULL, low = 0x00FF00FF00FF00FFULL, nine = 0x0100010001000100ULL;
    for (p++; p < ks->k; p++) {
        /* four pairs at a time while every depth is past `shared` (the pair at 2p is the low 16
         * bits, depth first: 0x100 + shared - depth keeps bit 8 iff depth <= shared, no borrow) */
        while (p + 4 <= ks->k) {
            uint64_t v, m;
            memcpy(&v, s + 2 * p, 8);
            m = (nine + (uint64_t)shared * ones - (v & low)) & nine;
            if (m) { p += ((uint32_t)m ? LEXC_LOW_BIT((uint32_t)m) : 32 + LEXC_LOW_BIT((uint32_t)(m >> 32))) / 16; break; }
            p += 4;
        }
        if (p >= ks->k) break;
        Py_ssize_t d = s[2 * p];
        if (d > shared) continue; /* the same first `shared` letters and the same one after: below w */
        if (d < shared) return p; /* a later letter where w has the key's: above w */
        int c = s[2 * p + 1] & 0x7F;
        if (c > w[d]) return p;
        if (c == w[d] && ++shared == n) { *equal = 1; return p; }
    }
    return ks->k;
}

/* the argument as a key of at most MAX_TILES + 1 letters, copied into `w`: its length, or -1
 * with an exception */
static Py_ssize_t key_arg(PyObject *arg, uint8_t *w) {
    Py_buffer b;
    if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0) return -1;
    Py_ssize_t n = b.len;
    if (n > MAX_TILES + 1) n = MAX_TILES + 1; /* (no key is longer than MAX_TILES: still absent) */
    memcpy(w, b.buf, (size_t)n);
    PyBuffer_Release(&b);
    return n;
}

/* the word flag of the key w: 1 a word, 0 a prefix only, -1 no key */
static int key_flag(const KeySet *ks, const uint8_t *w, Py_ssize_t n) {
    int equal;
    if (!n) return -1;
    Py_ssize_t p = seek(ks, w, n, &equal);
    return equal ? ks->s[2 * p + 1] >> 7 : -1;
}

static PyObject *KeySet_flag(PyObject *self, PyObject *arg) {
    uint8_t w[MAX_TILES + 1];
    Py_ssize_t n = key_arg(arg, w);
    if (n < 0) return NULL;
    return PyLong_FromLong(key_flag((const KeySet *)self, w, n));
}

/* a str of one-character Latin-1 letters as codes: 1, or 0 when it is anything else (too long,
 * a character that is no letter), or -1 with an exception. `codes` holds MAX_TILES + 8 bytes:
 * the codes are written 8 at a time, zeros after the last to the end of its 8 (so the hash,
 * which reads them 8 at a time, finds each group where one store put it: byte stores read
 * back as a word would wait for the stores to retire, as long again as the lookup's own work) */
static int encode_word(const KeySet *ks, PyObject *word, uint8_t *codes, Py_ssize_t *len) {
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(word, &size);
    if (!text) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return -1;
        PyErr_Clear();
        return 0;
    }
    int ascii = lexc_encode_ascii(ks->encode, text, size, codes);
    if (ascii >= 0) {
        memset(codes + size, 0, 8); /* (the hash reads 8 at a time: zeros past the word; inside the slack) */
        *len = size;
        return ascii;
    }
    Py_ssize_t n = 0;
    uint64_t group = 0; /* the codes since the last multiple of 8, the first in the low byte */
    for (Py_ssize_t k = 0; k < size; k++) {
        unsigned char ch = (unsigned char)text[k];
        unsigned int cp = ch;
        if (ch >= 0x80) {
            if ((ch & 0xE0) != 0xC0 || k + 1 >= size || ch > 0xC3) return 0; /* beyond Latin-1 */
            cp = ((ch & 0x1Fu) << 6) | ((unsigned char)text[++k] & 0x3Fu);
        }
        uint8_t code = ks->encode[cp];
        if (!code || n == MAX_TILES) return 0;
        group |= (uint64_t)code << (8 * (n & 7));
        if ((++n & 7) == 0) { memcpy(codes + n - 8, &group, 8); group = 0; }
    }
    memcpy(codes + (n & ~(Py_ssize_t)7), &group, 8); /* (n <= MAX_TILES: inside the buffer) */
    *len = n;
    return 1;
}

static int is_word(const KeySet *ks, const uint8_t *w, Py_ssize_t n);

/* contains_str(word) -> True / False, or None for a word it does not encode (Python does) */
static PyObject *KeySet_contains_str(PyObject *self, PyObject *word) {
    const KeySet *ks = (const KeySet *)self;
    uint8_t codes[MAX_TILES + 1 + HASH_SLACK];
    Py_ssize_t len = 0;
    int ok = ks->has_encode && PyUnicode_Check(word) ? encode_word(ks, word, codes, &len) : 0;
    if (ok < 0) return NULL;
    if (!ok) Py_RETURN_NONE;
    return PyBool_FromLong(is_word(ks, codes, len));
}

/* subtree(prefix) -> (start, stop): the pairs of the keys that start with prefix (all of them
 * for the empty prefix; start == stop when none does) */
static PyObject *KeySet_subtree(PyObject *self, PyObject *arg) {
    const KeySet *ks = (const KeySet *)self;
    uint8_t w[MAX_TILES + 2];
    Py_ssize_t n = key_arg(arg, w);
    if (n < 0) return NULL;
    if (!n) return Py_BuildValue("(nn)", (Py_ssize_t)0, ks->k);
    int equal;
    Py_ssize_t start = seek(ks, w, n, &equal), stop = start;
    if (equal) {
        w[n] = ABOVE;
        stop = seek(ks, w, n + 1, &equal);
    }
    return Py_BuildValue("(nn)", start, stop);
}

/* keys(start, stop) -> (list of bytes, flags): the keys of pairs start .. stop - 1 (clipped to
 * the stream) and their word flags, one byte each */
static PyObject *KeySet_keys(PyObject *self, PyObject *args) {
    const KeySet *ks = (const KeySet *)self;
    Py_ssize_t start, stop;
    if (!PyArg_ParseTuple(args, "nn", &start, &stop)) return NULL;
    if (start < 0) start = 0;
    if (stop > ks->k) stop = ks->k;
    if (stop < start) stop = start;
    PyObject *list = PyList_New(stop - start), *flags = NULL, *out = NULL;
    if (!list) return NULL;
    char *f = malloc(stop > start ? (size_t)(stop - start) : 1);
    if (!f) { PyErr_NoMemory(); goto done; }
    uint8_t path[MAX_TILES + 1];
    Py_ssize_t len = 0, p = start;
    if (start < stop) { /* the path at `start`: its sample's key, then the pairs after it */
        Py_ssize_t j = start / SAMPLE;
        len = ks->at[j + 1] - ks->at[j];
        memcpy(path, ks->pool + ks->at[j], (size_t)len);
        for (p = j * SAMPLE + 1; p < start; p++) {
            int d = ks->s[2 * p];
            path[d] = ks->s[2 * p + 1] & 0x7F;
            len = d + 1;
        }
    }
    for (p = start; p < stop; p++) {
        if (p > start || p % SAMPLE) {
            int d = ks->s[2 * p];
            path[d] = ks->s[2 * p + 1] & 0x7F;
            len = d + 1;
        }
        PyObject *key = PyBytes_FromStringAndSize((const char *)path, len);
        if (!key) goto done;
        PyList_SetItem(list, p - start, key);
        f[p - start] = (char)(ks->s[2 * p + 1] >> 7);
    }
    flags = PyBytes_FromStringAndSize(f, stop - start);
    if (flags) out = Py_BuildValue("(OO)", list, flags);
done:
    free(f);
    Py_DECREF(list);
    Py_XDECREF(flags);
    return out;
}

/* children(prefix, letters) -> (keys, words): of the letters L in the mask `letters`, those for
 * which prefix + L is a key, and those for which it is a word (letter masks as ints). Each child
 * is found after the previous one's subtree: a short scan, or a search past it. */
static PyObject *KeySet_children(PyObject *self, PyObject *args) {
    const KeySet *ks = (const KeySet *)self;
    PyObject *prefix, *asked;
    if (!PyArg_ParseTuple(args, "OO", &prefix, &asked)) return NULL;
    Mask want, keys = {0, 0}, words = {0, 0};
    if (long_to_mask(asked, &want) < 0) return NULL;
    uint8_t w[MAX_TILES + 3];
    Py_ssize_t n = key_arg(prefix, w), p = 0;
    if (n < 0) return NULL;
    int equal = 1;
    if (n) {
        p = seek(ks, w, n, &equal) + 1; /* the first child, if any, follows its parent */
        if (n > MAX_TILES) equal = 0;
    }
    const uint8_t *s = ks->s;
    int top = mask_empty(want) ? 0 : mask_top(want);
    while (equal && p < ks->k && s[2 * p] == n) {
        int c = s[2 * p + 1] & 0x7F;
        if (c > top) break;
        if (mask_has(want, c)) {
            mask_set(&keys, c);
            if (s[2 * p + 1] >> 7) mask_set(&words, c);
        }
        Py_ssize_t q = p + 1, limit = p + 2 * SAMPLE; /* past the child's subtree */
        while (q < ks->k && q < limit && s[2 * q] > n) q++;
        if (q < ks->k && s[2 * q] > n) {
            w[n] = (uint8_t)c;
            w[n + 1] = ABOVE;
            q = seek(ks, w, n + 2, &equal);
            equal = 1;
        }
        p = q > p ? q : p + 1; /* (a proved stream always moves on; any stream must end) */
    }
    PyObject *a = mask_to_long(keys), *b = a ? mask_to_long(words) : NULL, *out = NULL;
    if (b) out = Py_BuildValue("(OO)", a, b);
    Py_XDECREF(a);
    Py_XDECREF(b);
    return out;
}

/* counts() -> (keys, words, index bytes): the stream's keys and words, the bytes of the index
 * beside the stream (the samples' offsets, heads and letters, the buckets) */
static PyObject *KeySet_counts(PyObject *self, PyObject *unused) {
    const KeySet *ks = (const KeySet *)self;
    Py_ssize_t index = (ks->samples + 1) * (Py_ssize_t)(sizeof *ks->at + sizeof *ks->head + sizeof *ks->tail) +
                       ks->at[ks->samples] +
                       (Py_ssize_t)sizeof ks->bucket;
    return Py_BuildValue("(nnn)", ks->k, ks->words, index);
}

static PyObject *KeySet_index(PyObject *self, PyObject *arg);

static PyMethodDef KeySet_methods[] = {
    {"flag", KeySet_flag, METH_O, "flag(key) -> 1 a word, 0 a prefix only, -1 no key"},
    {"contains_str", KeySet_contains_str, METH_O, "contains_str(word) -> bool, or None for a word it cannot encode"},
    {"subtree", KeySet_subtree, METH_O, "subtree(prefix) -> (start, stop): the pairs of the keys under prefix"},
    {"keys", KeySet_keys, METH_VARARGS, "keys(start, stop) -> (list of keys, word flags)"},
    {"children", KeySet_children, METH_VARARGS, "children(prefix, letters) -> (key letters, word letters)"},
    {"counts", KeySet_counts, METH_NOARGS, "counts() -> (keys, words, index bytes)"},
    {"index", KeySet_index, METH_O, "index(slots): prove the word index and search by it"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot KeySet_slots[] = {
    {Py_tp_new, KeySet_new},
    {Py_tp_dealloc, KeySet_dealloc},
    {Py_tp_methods, KeySet_methods},
    {Py_tp_doc, "A prefix set's key stream, proved on construction and searched in place."},
    {0, NULL},
};

static PyType_Spec KeySet_spec = {"lexc.native._core.KeySet", sizeof(KeySet), 0, Py_TPFLAGS_DEFAULT, KeySet_slots};

/* Whether the entry `e` of the word index (a word's pair and fingerprint, the fingerprint
 * already w's) names the word w (n >= 1 codes, at least 7 readable bytes after them): its last
 * letter and length are w's and the pairs from the sample before it spell w's first n - 1
 * letters. Up to 16 of them (nearly every word) start from the sample's head and tail, read
 * with the pair itself, and are compared 8 at a time; a longer word's, from the pool. */
static int names_word(const KeySet *ks, uint32_t e, const uint8_t *w, Py_ssize_t n) {
    const uint8_t *s = ks->s;
    Py_ssize_t p = (Py_ssize_t)(e >> ks->fp_bits) - 1; /* (a word's pair: proved) */
    Py_ssize_t j = p / SAMPLE, m = n - 1; /* (the letters before the last) */
    uint64_t head = ks->head[j], tail = ks->tail[j];
    if (s[2 * p] != m || (s[2 * p + 1] & 0x7F) != w[m]) return 0;
    uint8_t path[MAX_TILES + 8];
    if (m <= 16) {
        uint64_t first = 0; /* the head's letters in spelling order (a byte swap) */
        for (int i = 0; i < 8; i++) first |= (head >> (56 - 8 * i) & 0xFF) << (8 * i);
        memcpy(path, &first, 8); /* (little-endian: the core runs on such hosts only) */
        memcpy(path + 8, &tail, 8);
    } else {
        Py_ssize_t len = ks->at[j + 1] - ks->at[j];
        for (Py_ssize_t i = 0; i < len; i += 8) memcpy(path + i, ks->pool + ks->at[j] + i, 8);
    }
    for (Py_ssize_t q = j * SAMPLE + 1; q < p; q++) path[s[2 * q]] = s[2 * q + 1] & 0x7F;
    if (m <= 16) {
        uint64_t a, b;
        memcpy(&a, path, 8); memcpy(&b, w, 8);
        if (m <= 8) return m == 8 ? a == b : !((a ^ b) & ((1ULL << (8 * m)) - 1));
        if (a != b) return 0;
        memcpy(&a, path + 8, 8); memcpy(&b, w + 8, 8); /* (w: n >= 10 codes and 7 more bytes) */
        return m == 16 ? a == b : !((a ^ b) & ((1ULL << (8 * (m - 8))) - 1));
    }
    Py_ssize_t i = 0;
    while (i < m && path[i] == w[i]) i++;
    return i == m;
}

/* Whether the word w (n >= 1 codes) is in the set, by the proved word index: each entry on w's
 * probe path (up to the first empty slot) with w's fingerprint may name it. A word that is
 * absent costs the whole path, some 13 slots at the index's load (0.8): with SSE2 (every
 * x86-64) four slots are tested at once where four follow inside the array, one by one
 * elsewhere; either way no slot outside the index is read. */
static int index_member(const KeySet *ks, const uint8_t *w, Py_ssize_t n) {
    uint64_t h = key_hash(w, n), at = home_slot(h, ks->slots);
    uint32_t fp_mask = (uint32_t)((1ULL << ks->fp_bits) - 1), fp = (uint32_t)h & fp_mask;
    const uint32_t *slot = ks->slot;
#if defined(__SSE2__)
    const __m128i want = _mm_set1_epi32((int)fp), keep = _mm_set1_epi32((int)fp_mask), none = _mm_setzero_si128();
#endif
    for (;;) { /* (a proved index has an empty slot: the probe ends) */
#if defined(__SSE2__)
        if (at + 4 <= ks->slots) {
            __m128i v = _mm_loadu_si128((const __m128i *)(slot + at));
            int empty = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, none)));
            int match = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(v, keep), want)));
            match &= empty ? (empty & -empty) - 1 : 0xF; /* the slots before the first empty one */
            for (; match; match &= match - 1)
                if (names_word(ks, slot[at + (uint64_t)LEXC_LOW_BIT((uint32_t)match)], w, n)) return 1;
            if (empty) return 0;
            at += 4;
            if (at == ks->slots) at = 0;
            continue;
        }
#endif
        uint32_t e = slot[at];
        if (!e) return 0;
        if ((e & fp_mask) == fp && names_word(ks, e, w, n)) return 1;
        if (++at == ks->slots) at = 0;
    }
}

/* whether the key w (n codes) is a word: by the word index when there is one */
static int is_word(const KeySet *ks, const uint8_t *w, Py_ssize_t n) {
    if (ks->slot) return n ? index_member(ks, w, n) : 0;
    return key_flag(ks, w, n) == 1;
}

/* index(slots): prove the word index (a buffer of `slots` little-endian u32, as many as the
 * set's words + words / 4 + 1) and search by it from now on. MalformedTable "size" (the length
 * in bytes; the slots expected), "slot" (a word's pair offset: not on its probe path) or
 * "entries" (the words; the entries, when they are not as many). */
static PyObject *KeySet_index(PyObject *self, PyObject *arg) {
    KeySet *ks = (KeySet *)self;
    if (ks->slot || ks->has_index_view || ks->index_owned) {
        PyErr_SetString(PyExc_ValueError, "KeySet: the index is already set");
        return NULL;
    }
    Py_buffer v;
    if (PyObject_GetBuffer(arg, &v, PyBUF_SIMPLE) < 0) return NULL;
    uint64_t slots = (uint64_t)ks->words + (uint64_t)ks->words / 4 + 1;
    if ((uint64_t)v.len != 4 * slots || ks->k > ((Py_ssize_t)1 << 31)) { /* (slots < 2^32: home_slot's product fits) */
        Py_ssize_t len = v.len;
        PyBuffer_Release(&v);
        raise_fault(MalformedTable, "size", len, (long long)slots);
        return NULL;
    }
    const uint32_t *slot;
    if (v.readonly && (uintptr_t)v.buf % 4 == 0 && immutable_memory(arg)) {
        ks->index_view = v;
        ks->has_index_view = 1;
        slot = (const uint32_t *)v.buf;
    } else {
        ks->index_owned = malloc((size_t)v.len);
        if (!ks->index_owned) { PyBuffer_Release(&v); PyErr_NoMemory(); return NULL; }
        memcpy(ks->index_owned, v.buf, (size_t)v.len);
        PyBuffer_Release(&v);
        slot = ks->index_owned;
    }
    int pair_bits = 0;
    while (pair_bits < 32 && ((Py_ssize_t)1 << pair_bits) <= ks->k) pair_bits++;
    int fp_bits = 32 - pair_bits;
    uint32_t fp_mask = (uint32_t)((1ULL << fp_bits) - 1);
    /* every word is on its probe path, before an empty slot (and within `slots` probes); the
     * words are hashed a batch at a time and their home slots fetched ahead, so the table's
     * cache misses overlap (the first fault in stream order is still the one named) */
    enum { BATCH = 16 };
    uint8_t path[MAX_TILES + 1 + HASH_SLACK] = {0};
    uint64_t home[BATCH];
    uint32_t want[BATCH];
    Py_ssize_t pair[BATCH];
    int batch = 0;
    for (Py_ssize_t p = 0; p <= ks->k; p++) {
        if (p < ks->k) {
            int d = ks->s[2 * p], b = ks->s[2 * p + 1];
            path[d] = (uint8_t)(b & 0x7F);
            if (!(b >> 7)) continue;
            uint64_t h = key_hash(path, d + 1);
            home[batch] = home_slot(h, slots);
            want[batch] = (uint32_t)(((uint64_t)p + 1) << fp_bits) | ((uint32_t)h & fp_mask);
            pair[batch] = p;
            LEXC_PREFETCH(slot + home[batch]);
            if (++batch < BATCH) continue;
        }
        for (int i = 0; i < batch; i++) {
            uint64_t at = home[i], tries = 0;
            while (slot[at] && slot[at] != want[i] && ++tries < slots)
                if (++at == slots) at = 0;
            if (slot[at] != want[i]) { raise_fault(MalformedTable, "slot", 2 * pair[i], 0); return NULL; }
        }
        batch = 0;
    }
    uint64_t entries = 0; /* and nothing else is there (each word's entry is its own) */
    for (uint64_t i = 0; i < slots; i++) entries += slot[i] != 0;
    if (entries != (uint64_t)ks->words) { raise_fault(MalformedTable, "entries", ks->words, (long long)entries); return NULL; }
    ks->slots = slots;
    ks->fp_bits = fp_bits;
    ks->slot = slot;
    Py_RETURN_NONE;
}

/* `word in` the lexicon a KeySet is bound to (Member, _core.c, calls it for a bound store that
 * is no Graph): 1 or 0; KEYSET_NOT_ANSWERED for a store that is no KeySet or a word it does not
 * encode (the Python path answers); -1 with an exception set. */
int keyset_member(PyObject *store, PyObject *word) {
    if (Py_TYPE(store) != KeySetType) return KEYSET_NOT_ANSWERED; /* (KeySet is no base type) */
    const KeySet *ks = (const KeySet *)store;
    uint8_t codes[MAX_TILES + 1 + HASH_SLACK];
    Py_ssize_t len = 0;
    int ok = ks->has_encode ? encode_word(ks, word, codes, &len) : 0;
    if (ok < 0) return -1;
    return ok ? is_word(ks, codes, len) : KEYSET_NOT_ANSWERED;
}

int keyset_init(PyObject *module) {
    KeySetType = (PyTypeObject *)PyType_FromSpec(&KeySet_spec);
    if (!KeySetType) return -1;
    Py_INCREF((PyObject *)KeySetType);
    if (PyModule_AddObject(module, "KeySet", (PyObject *)KeySetType) < 0) { Py_DECREF(KeySetType); return -1; }
    return 0;
}
