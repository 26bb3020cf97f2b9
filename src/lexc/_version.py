"""The lexc version, written into every file's header."""

__version__ = "0.1.0"
