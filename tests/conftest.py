"""Shared pytest configuration; the shared fixtures live in lexicons.py."""

import os
import shutil
import sys
import tempfile
from pathlib import Path

# The development tools (tools/fuzz.py) are not part of the installed package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

pytest_plugins = ["lexicons"]

# Study indexes (lexc.lexicons.study) are worked out afresh in every test process, never read
# from a cache an earlier run left; test_study.py turns the disk cache on in its own directory.
os.environ["LEXC_STUDY_CACHE"] = "0"


def pytest_addoption(parser):
    parser.addoption(
        "--record-golden",
        action="store_true",
        default=False,
        help="re-record golden files under formats/golden instead of comparing",
    )


# Fixtures whose use makes a test slow: they build ENABLE in a format other than the DAWG
# (several seconds in pure Python for the GADDAG), or generate moves over ENABLE positions.
# ``make check`` deselects them (-m "not slow"): ENABLE is queried there through the DAWG.
SLOW_FIXTURES = {"enable_by_format", "enable_gaddags", "enable_kwg", "bench_run"}


def pytest_collection_modifyitems(config, items):
    """Mark as slow the tests that build ENABLE's GADDAG or the big list; the rest make the quick
    loop of ``make check``."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        params = getattr(getattr(item, "callspec", None), "params", {})
        if (fixtures & SLOW_FIXTURES or params.get("enable_lexicon", "dawg") not in ("dawg", "dawg:pure")
                or (item.module.__name__ == "test_prefixset" and item.name.startswith("test_enable"))):
            item.add_marker("slow")


def pytest_configure(config):
    """One directory per run, shared by the xdist workers, for lexicons built once (lexicons.py);
    the ``slow`` marker."""
    config.addinivalue_line("markers", "slow: builds ENABLE's GADDAG or the big list; left out by make check")
    if hasattr(config, "workerinput"):  # an xdist worker: the controller made it
        return
    if "LEXC_TEST_SHARED" not in os.environ:
        config._lexc_shared = tempfile.mkdtemp(prefix="lexc-tests-")
        os.environ["LEXC_TEST_SHARED"] = config._lexc_shared


def pytest_unconfigure(config):
    shared = getattr(config, "_lexc_shared", None)
    if shared:
        shutil.rmtree(shared, ignore_errors=True)
        os.environ.pop("LEXC_TEST_SHARED", None)
