/* Zyzzyva's probability order in C: each word's combinations (src/lexc/lexicons/probability.py,
 * whose pure path is the reference), for a whole lexicon's words in one call.
 *
 * combinations(blob, table, big, letters, one, two, blanks) -> bytes or None
 *   blob    the words' letter codes, each word followed by a 0 byte (the joined form the
 *           listings give); every code in 1..letters, no word longer than MAX_TILES
 *   table   C(bag count of code c, k) for c in 0..letters and k in 0..MAX_TILES, u64
 *           little-endian, row by row (Python's math.comb; a value that does not fit is
 *           marked in `big`)
 *   big     one byte per table entry: 1 where C(.., k) does not fit 64 bits
 *   one,two C(blanks in the bag, 1) and C(.., 2)
 *   blanks  0, 1 or 2: how many blanks may stand in
 * gives one u64 per word (little-endian, in blob order), or None when some word's count (or a
 * step on the way to it) does not fit 64 bits: the Python path then counts exactly.
 */
#include "core.h"

#define ROW (MAX_TILES + 1)

/* none, one, two: draws with no letter, one or two letters left to blanks (see
 * probability._draws); each distinct tile multiplies them by C(bag, n), C(bag, n - 1) and
 * C(bag, n - 2). 1: a value did not fit. */
static int word_draws(const uint8_t *w, Py_ssize_t len, const uint64_t *t, const uint8_t *big,
                      uint64_t sums[3]) {
    int count[256] = {0};
    uint8_t seen[MAX_TILES];
    int distinct = 0;
    for (Py_ssize_t i = 0; i < len; i++)
        if (!count[w[i]]++) seen[distinct++] = w[i];
    uint64_t none = 1, one = 0, two = 0;
    for (int d = 0; d < distinct; d++) {
        int c = seen[d], n = count[c];
        const uint64_t *row = t + (Py_ssize_t)c * ROW;
        const uint8_t *over = big + (Py_ssize_t)c * ROW;
        if (over[n] || over[n - 1] || (n >= 2 && over[n - 2])) return 1;
        uint64_t whole = row[n], less = row[n - 1], least = n >= 2 ? row[n - 2] : 0, a, b, e;
        uint64_t n2, o2, t2;
        if (lexc_mul_over(none, whole, &n2)) return 1;
        if (lexc_mul_over(one, whole, &a) || lexc_mul_over(none, less, &b) || lexc_add_over(a, b, &o2)) return 1;
        if (lexc_mul_over(two, whole, &a) || lexc_mul_over(one, less, &b) || lexc_mul_over(none, least, &e)
            || lexc_add_over(a, b, &t2) || lexc_add_over(t2, e, &t2)) return 1;
        none = n2, one = o2, two = t2;
    }
    sums[0] = none, sums[1] = one, sums[2] = two;
    return 0;
}

static PyObject *combinations(PyObject *self, PyObject *args) {
    Py_buffer blob, table, big;
    int letters, blanks;
    PyObject *one, *two;
    if (!PyArg_ParseTuple(args, "y*y*y*iOOi", &blob, &table, &big, &letters, &one, &two, &blanks)) return NULL;
    PyObject *result = NULL;
    unsigned long long f1 = PyLong_AsUnsignedLongLong(one), f2 = PyLong_AsUnsignedLongLong(two);
    uint64_t *t = NULL, *out = NULL;
    if (PyErr_Occurred()) goto done; /* a blank factor that is not an int of 64 bits */
    if (letters < 1 || letters > 127 || blanks < 0 || blanks > 2) {
        PyErr_SetString(PyExc_ValueError, "combinations: letters in 1..127, blanks 0..2");
        goto done;
    }
    Py_ssize_t entries = (Py_ssize_t)(letters + 1) * ROW;
    if (table.len != entries * 8 || big.len != entries) {
        PyErr_SetString(PyExc_ValueError, "combinations: the table must hold C(bag, 0..64) for every code");
        goto done;
    }
    const uint8_t *d = (const uint8_t *)blob.buf;
    Py_ssize_t n = blob.len, words = 0;
    if (n && d[n - 1]) {
        PyErr_SetString(PyExc_ValueError, "combinations: every word ends with a 0 byte");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) words += !d[i];
    t = (uint64_t *)malloc((size_t)entries * 8);
    out = (uint64_t *)malloc(words ? (size_t)words * 8 : 1);
    if (!t || !out) { PyErr_NoMemory(); goto done; }
    memcpy(t, table.buf, (size_t)entries * 8); /* the bytes object may sit at any alignment */
    const uint8_t *over = (const uint8_t *)big.buf;
    Py_ssize_t start = 0, k = 0;
    int fits = 1;
    for (Py_ssize_t i = 0; i < n && fits; i++) {
        if (d[i]) {
            if (d[i] > letters) {
                PyErr_Format(UnsupportedWord, "combinations: letter code %d outside 1..%d", d[i], letters);
                goto done;
            }
            continue;
        }
        Py_ssize_t len = i - start;
        if (len < 1 || len > MAX_TILES) {
            PyErr_SetString(UnsupportedWord, "combinations: a word of 1 to 64 tiles");
            goto done;
        }
        uint64_t sums[3], total, a;
        if (word_draws(d + start, len, t, over, sums)) { fits = 0; break; }
        total = sums[0];
        if (blanks >= 1 && (lexc_mul_over(f1, sums[1], &a) || lexc_add_over(total, a, &total))) { fits = 0; break; }
        if (blanks >= 2 && (lexc_mul_over(f2, sums[2], &a) || lexc_add_over(total, a, &total))) { fits = 0; break; }
        out[k++] = total;
        start = i + 1;
    }
    if (!fits) {
        Py_INCREF(Py_None);
        result = Py_None;
    } else {
        result = PyBytes_FromStringAndSize(words ? (const char *)out : "", words * 8);
    }
done:
    free(t);
    free(out);
    PyBuffer_Release(&blob);
    PyBuffer_Release(&table);
    PyBuffer_Release(&big);
    return result;
}

static PyMethodDef probability_methods[] = {
    {"combinations", combinations, METH_VARARGS,
     "combinations(blob, table, big, letters, one, two, blanks) -> u64 per word, or None if one does not fit"},
    {NULL, NULL, 0, NULL},
};

int probability_init(PyObject *module) {
    return PyModule_AddFunctions(module, probability_methods);
}
