"""The board: squares and CGP positions, play notation, the one scoring function, the referee.

Wing 3 of the package: imports the foundations only (it judges words through any object
with ``__contains__``, so it needs no format). ``board`` holds the grid, premiums and CGP;
``notation`` reads and writes plays; ``scoring`` scores them for move generator and referee
alike; ``referee`` rules on a play, an exchange or a pass.
"""
