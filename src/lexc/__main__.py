"""``python -m lexc``: the command line."""

from .cli import main

main()
