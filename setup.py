"""Build of lexc's optional compiled core (``lexc.native._core``); the rest is pyproject.toml.

The extension is C99 over CPython's limited API (one abi3 build for every Python >= 3.11).
It is optional: where the machine has no working C compiler (or the build fails for any
other reason) the install goes on without it, and lexc runs on its pure-Python path.
"""

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SANITIZE = os.environ.get("LEXC_SANITIZE", "")  # make sanitize: -fsanitize=address,undefined


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing: no compiler means the pure-Python path."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # distutils raises several unrelated types for a missing compiler
            self._skip(exc)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._skip(exc)

    def _skip(self, exc):
        print(f"lexc: the compiled core was not built ({type(exc).__name__}: {exc}); "
              "lexc will run on its pure-Python path", file=sys.stderr)


flags = ["-std=c99", "-O3", "-Wall"]
link = []
if SANITIZE:
    flags = ["-std=c99", "-O1", "-g", "-fno-omit-frame-pointer", f"-fsanitize={SANITIZE}"]
    link = [f"-fsanitize={SANITIZE}"]

setup(
    ext_modules=[
        Extension(
            "lexc.native._core",
            sources=["lexc/native/_core.c", "lexc/native/movegen.c", "lexc/native/anatrie.c", "lexc/native/minimize.c",
                     "lexc/native/probability.c"],
            depends=["lexc/native/core.h", "lexc/native/search.inc"],
            define_macros=[("Py_LIMITED_API", "0x030B0000")],
            py_limited_api=True,
            extra_compile_args=flags,
            extra_link_args=link,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
