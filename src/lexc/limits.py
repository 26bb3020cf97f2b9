"""Limits shared by the library and the command line, in a module that imports nothing (the
command line reads them to show its options' defaults and ranges without importing the library).

Every integer the user gives lexc has a range stated here and in its ``--help``: a value
outside it is refused with one line naming the option, never passed on to code that would
overflow (a C ``ssize_t``), allocate without bound or run for ever."""

MAX_RULESET_TEXT = 65536  # bytes of a ruleset file (and of one stored in a lexicon header)
MAX_LISTED_WORDS = 10_000_000  # words a compiled file may spell before listing them all is refused (--max-words)
MAX_WORD_TILES = 64  # the longest word any lexicon holds, and the most tiles a rack may hold

# The ranges of the command line's integer options (lexc.cli.common.Bounded).
MAX_COUNT = 1_000_000_000  # a count or limit of rows, words or plays (-n, --limit, --max-words): fits a C int
MAX_SEED = 2**32 - 1  # a random seed (--seed): 32 bits, as most engines take
MAX_WORKERS = 1_024  # local processes one command starts (--workers)
MAX_MATCH_GAMES = 10_000_000  # games of one ``lexc match`` (each keeps a few numbers)
MAX_GAMES = 10_000  # games of one ``lexc selfplay`` run (each keeps its positions in memory)
MAX_REPEAT = 1_000  # runs of one benchmark figure (--repeat, --movegen-repeat)
MAX_BUDGET_S = 86_400.0  # seconds of a benchmark's time budget (--budget): one day
MAX_SYNTH_WORDS = 50_000_000  # words of one synthetic list (lexc synth -n): beyond it a chain runs thin
MAX_LINE_BYTES = 1 << 20  # bytes of one line of a line-by-line text file (JSONL positions) or of stdin
MAX_SEARCH_S = 86_400.0  # seconds one search may be given (lexc endgame --time): one day
MAX_PLIES = 1_000  # a search's depth limit in plies (lexc endgame --depth)
