"""MAVEN's searches (Sheppard 2002, sections 5-7) over the static player: the exact endgame
(``endgame``: the bag empty, both racks known), with the pure-Python search (``negamax``) as
the reference the compiled core's is held to; simulation (``sim``); the pre-endgame with a
few tiles in the bag (``pre_endgame``); and MAVEN's player, which uses the three (``player``).

The engine wing sits above movegen, board, equity and game's players: it may import them,
and the CLI imports it; nothing below imports it.
"""
