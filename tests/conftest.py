"""Shared pytest configuration; the shared fixtures live in lexicons.py."""

pytest_plugins = ["lexicons"]


def pytest_addoption(parser):
    parser.addoption(
        "--record-golden",
        action="store_true",
        default=False,
        help="re-record golden files under formats/golden instead of comparing",
    )
