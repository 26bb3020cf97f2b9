/* Shapiro & Smith's findwords2 on the anagram trie's file (lexc.formats.anatrie, in C). */
#include "core.h"

int anatrie_init(PyObject *module) {
    (void)module;
    return 0;
}
