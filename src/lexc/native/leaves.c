/* A leave's rank in a KLV's graph, in C: the engines' lookup (wolges Kwg::get_word_index),
 * whose reference is KlvGraph.rank_pure in src/lexc/formats/klv.py.
 *
 * klv_rank(edges, counts, root, tiles) -> rank, or -1 when the leave is not stored
 *   edges   the KLV's u32 edges (native byte order: tile in bits 24-31, accepts 23, end of
 *           siblings 22, child 0-21), n of them
 *   counts  n + 1 u32: for each edge the leaves at and after it in its sibling list (the
 *           reader's count_words), counts[n] = 0
 *   root    the first edge of the root's list (0: no leaves)
 *   tiles   the leave's tiles in the engine's numbers, sorted, 1 to 255 of them
 *
 * The contract: KlvGraph.open proved the graph (children and lists inside the array, tiles
 * ascending, no cycle) and computed the counts; this function still reads nothing outside
 * the two arrays whatever it is given (each index is checked before it is read, a sibling
 * list ends at the array's end), and it takes at most n steps a tile.
 */
#include "core.h"

#define KLV_CHILD 0x3FFFFFu
#define KLV_END (1u << 22)
#define KLV_ACCEPTS (1u << 23)

static inline uint32_t load_u32(const uint8_t *base, Py_ssize_t i) {
    uint32_t v;
    memcpy(&v, base + 4 * i, 4); /* (a buffer may sit at any alignment) */
    return v;
}

static long long rank_walk(const uint8_t *edges, const uint8_t *counts, Py_ssize_t n, Py_ssize_t root,
                           const uint8_t *tiles, Py_ssize_t len) {
    Py_ssize_t p = root;
    long long index = 0;
    for (Py_ssize_t k = 0; k < len; k++) {
        if (p <= 0 || p >= n) return -1;
        uint32_t e = load_u32(edges, p);
        while ((e >> 24) != tiles[k]) {
            if (e & KLV_END) return -1;
            index += (long long)load_u32(counts, p) - (long long)load_u32(counts, p + 1); /* p + 1 <= n */
            p++;
            if (p >= n) return -1;
            e = load_u32(edges, p);
        }
        if (k == len - 1) return (e & KLV_ACCEPTS) ? index : -1;
        index += (e & KLV_ACCEPTS) ? 1 : 0;
        p = (Py_ssize_t)(e & KLV_CHILD);
    }
    return -1;
}

static PyObject *klv_rank(PyObject *self, PyObject *args) {
    Py_buffer edges, counts, tiles;
    Py_ssize_t root;
    if (!PyArg_ParseTuple(args, "y*y*ny*", &edges, &counts, &root, &tiles)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = edges.len / 4;
    if (edges.len % 4 || counts.len != 4 * (n + 1)) {
        PyErr_SetString(PyExc_ValueError, "klv_rank: n u32 edges and n + 1 u32 counts");
        goto done;
    }
    if (root < 0 || root >= n || tiles.len > 255) {
        PyErr_SetString(PyExc_ValueError, "klv_rank: the root inside the edges, at most 255 tiles");
        goto done;
    }
    long long rank = tiles.len ? rank_walk((const uint8_t *)edges.buf, (const uint8_t *)counts.buf, n, root,
                                           (const uint8_t *)tiles.buf, tiles.len) : -1;
    result = PyLong_FromLongLong(rank);
done:
    PyBuffer_Release(&edges);
    PyBuffer_Release(&counts);
    PyBuffer_Release(&tiles);
    return result;
}

static PyMethodDef leaves_methods[] = {
    {"klv_rank", klv_rank, METH_VARARGS, "klv_rank(edges, counts, root, tiles) -> rank, or -1 when not stored"},
    {NULL, NULL, 0, NULL},
};

int leaves_init(PyObject *module) {
    return PyModule_AddFunctions(module, leaves_methods);
}
