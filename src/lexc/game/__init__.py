"""Games: the game manager, players, the interactive game, GCG records and their replay.

Wing 5 of the package: imports the foundations, ``formats``, ``lexicons``, ``board``,
``movegen`` and ``equity``. ``manager`` deals, draws and keeps the score; ``players`` are the
programs (greedy, beginner, equity);
``interactive`` puts a person at the keyboard; ``gcg`` reads and writes records; ``replay``
replays them through the referee, bag and all.
"""
