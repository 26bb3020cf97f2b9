"""Build of lexc's optional compiled core (``lexc.native._core``); the rest is pyproject.toml.

The extension is C99 over CPython's limited API (one abi3 build for every Python >= 3.11).
It is optional (``Extension(optional=True)``): where the machine has no working C compiler,
setuptools reports the failed build and the install goes on without it, and lexc runs on its
pure-Python path. ``LEXC_SANITIZE=address,undefined`` builds it under the sanitizers
(``make sanitize``).
"""

import os

from setuptools import Extension, setup

SANITIZE = os.environ.get("LEXC_SANITIZE", "")
NATIVE = "src/lexc/native"

flags = ["-std=c99", "-O3", "-Wall"]
link = []
if SANITIZE:
    flags = ["-std=c99", "-O1", "-g", "-fno-omit-frame-pointer", f"-fsanitize={SANITIZE}"]
    link = [f"-fsanitize={SANITIZE}"]

setup(
    ext_modules=[
        Extension(
            "lexc.native._core",
            sources=[f"{NATIVE}/{name}.c"
                     for name in ("_core", "movegen", "anatrie", "minimize", "probability", "equity", "leaves",
                                  "keyset", "endgame")],
            depends=[f"{NATIVE}/core.h", f"{NATIVE}/search.inc", f"{NATIVE}/cross.inc"],
            define_macros=[("Py_LIMITED_API", "0x030B0000")],
            py_limited_api=True,
            extra_compile_args=flags,
            extra_link_args=link,
            optional=not SANITIZE,  # a sanitizer build must not fall back silently
        )
    ],
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
