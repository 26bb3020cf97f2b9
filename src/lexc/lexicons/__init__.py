"""Whole lexicons: open any source, compile, edit and convert, diff, stats, synthetic lists.

Wing 2 of the package: imports the foundations (``lexc.alphabet``, ``ruleset``,
``wordlist``, ``pattern``) and ``lexc.formats``, nothing above them.
``source`` opens a compiled file, a KWG, a plain list or the bundled ENABLE; ``compile``
builds, describes and verifies files; ``edit`` converts, edits and exports them; ``folders``
writes an engine's data folder (MAGPIE's, Quackle's, wolges's); ``diff``, ``stats``
and ``synth`` compare, measure and make word lists.
"""
