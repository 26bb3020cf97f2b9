/* The static equity of every play record of a position in one pass (lexc.equity, in C).
 *
 * The rule is lexc.equity's, and its Python reference (lexc.equity.candidates.weigh) defines
 * the answer; Python computes the tables of a rack once (at most one term a sub-rack), and
 * only the per-play sums run here: a play's equity, in the rule's integer units, is
 *
 *     score x resolution + terms[the sum of place[tile] over its tiles]
 *                        + (on the opening) the penalty of each square where it puts a vowel
 *
 * `place` numbers the tiles a play uses (lexc.equity's SubRacks: a mixed-radix number of the
 * sub-rack), `terms` values what it keeps. Every input is bounded first (|score x resolution|,
 * |term|, and the sum of a play's penalties each under INT64_MAX / 4), so no sum overflows;
 * a record past those bounds (a crafted ruleset's score) answers None: Python computes it.
 */
#include "core.h"

#define RECORD 40
#define REC_ROW 8
#define REC_TILES 12
#define LIMIT (INT64_MAX / 4)

/* equities(records, count, place, terms, resolution, vowel, penalties, n) -> (bytes, best, places) | None:
 * count int64 in native order, the largest of them (None when there is no record) and the
 * places where it is (int64s, ascending: the best plays, found without a Python step a play); `place` 256 int32 by tile code (0 on THROUGH), `terms` int64
 * by the number of the tiles used, `vowel` 256 bytes (1: a vowel) or empty (not the opening),
 * `penalties` 2n int64 (across by column, then down by row) when `vowel` is given */
static PyObject *equities(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer records, place, terms, vowel, penalties;
    Py_ssize_t count;
    long long resolution;
    int n;
    PyObject *result = NULL;
    int64_t *term = NULL, *out = NULL, pen[2 * MAX_BOARD] = {0};
    int32_t weight[256];
    if (!PyArg_ParseTuple(args, "y*ny*y*Ly*y*i", &records, &count, &place, &terms, &resolution, &vowel, &penalties,
                          &n))
        return NULL;
    Py_ssize_t nterms = terms.len / 8;
    int opening = vowel.len != 0;
    if (count < 0 || count > records.len / RECORD || place.len != 256 * 4 || terms.len % 8 || nterms < 1 ||
        resolution < 1 || resolution > 1000000000 || n < 1 || n > MAX_BOARD ||
        (opening && (vowel.len != 256 || penalties.len != 2 * 8 * (Py_ssize_t)n)) || (!opening && penalties.len)) {
        PyErr_SetString(PyExc_ValueError, "equities: bad arguments");
        goto done;
    }
    memcpy(weight, place.buf, sizeof weight);
    for (int c = 0; c < 256; c++)
        if (weight[c] < 0 || weight[c] > nterms) { PyErr_SetString(PyExc_ValueError, "equities: bad weights"); goto done; }
    term = malloc((size_t)nterms * 8);
    out = malloc((size_t)(count ? count : 1) * 8);
    if (!term || !out) { PyErr_NoMemory(); goto done; }
    memcpy(term, terms.buf, (size_t)nterms * 8);
    int bounded = 1;
    for (Py_ssize_t i = 0; i < nterms; i++) bounded &= term[i] <= LIMIT && term[i] >= -LIMIT;
    if (opening) {
        memcpy(pen, penalties.buf, (size_t)(2 * n) * 8);
        for (int i = 0; i < 2 * n; i++) bounded &= pen[i] <= LIMIT / MAX_BOARD && pen[i] >= -(LIMIT / MAX_BOARD);
    }
    const uint8_t *vow = vowel.buf;
    const int64_t most = LIMIT / resolution;
    for (Py_ssize_t k = 0; bounded && k < count; k++) {
        const uint8_t *rec = (const uint8_t *)records.buf + k * RECORD;
        int64_t score;
        memcpy(&score, rec, 8);
        int row = rec[REC_ROW], col = rec[REC_ROW + 1], down = rec[REC_ROW + 2], len = rec[REC_ROW + 3];
        if (score > most || score < -most) { bounded = 0; break; }
        if (len > RECORD - REC_TILES || (down ? row : col) + len > n) {
            PyErr_SetString(PyExc_ValueError, "equities: a record off the board");
            goto done;
        }
        const uint8_t *tiles = rec + REC_TILES;
        int64_t used = 0, eq = score * resolution;
        for (int t = 0; t < len; t++) used += weight[tiles[t]];
        if (used >= nterms) { PyErr_SetString(PyExc_ValueError, "equities: a play's tiles are not the rack's"); goto done; }
        eq += term[used];
        if (opening) {
            const int64_t *line = pen + (down ? n : 0);
            int start = down ? row : col;
            for (int t = 0; t < len; t++)
                if (tiles[t] != THROUGH && vow[tiles[t]]) eq += line[start + t];
        }
        out[k] = eq;
    }
    if (!bounded) { result = Py_None; Py_INCREF(result); goto done; }
    int64_t best = count ? out[0] : 0;
    Py_ssize_t ties = 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        if (out[k] > best) { best = out[k]; ties = 0; }
        if (out[k] == best) ties++;
    }
    int64_t *places = malloc((size_t)(ties ? ties : 1) * 8);
    if (!places) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t k = 0, j = 0; k < count; k++)
        if (out[k] == best) places[j++] = k;
    PyObject *blob = PyBytes_FromStringAndSize((const char *)out, count * 8),
             *at = PyBytes_FromStringAndSize((const char *)places, ties * 8),
             *top = count ? PyLong_FromLongLong(best) : (Py_INCREF(Py_None), Py_None);
    free(places);
    if (blob && at && top) result = PyTuple_Pack(3, blob, top, at);
    Py_XDECREF(blob); Py_XDECREF(at); Py_XDECREF(top);
done:
    free(term); free(out);
    PyBuffer_Release(&records); PyBuffer_Release(&place); PyBuffer_Release(&terms);
    PyBuffer_Release(&vowel); PyBuffer_Release(&penalties);
    return result;
}

static PyMethodDef equity_methods[] = {
    {"equities", equities, METH_VARARGS, "The static equity of each play record (lexc.equity)."},
    {NULL, NULL, 0, NULL},
};

int equity_init(PyObject *module) { return PyModule_AddFunctions(module, equity_methods); }
