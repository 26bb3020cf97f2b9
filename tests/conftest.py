"""Shared pytest configuration."""


def pytest_addoption(parser):
    parser.addoption(
        "--record-golden",
        action="store_true",
        default=False,
        help="re-record golden files under formats/golden instead of comparing",
    )
