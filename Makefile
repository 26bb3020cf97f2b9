# lexc: every target works on a fresh machine with only Python 3.11.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEMO   := build/demo

.PHONY: help install demo check test bench biglist fuzz sanitize sanitize-quick positions lint docs docs-reference clean

help:           ## list the targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

INSTALLED := $(VENV)/.lexc-installed
# what the installed package is made of: its files (not Python's caches, not a compiled core built in
# place); lexc is installed again when one of them is newer than the install, or the list of them changed
SOURCES := find src wordlists setup.py pyproject.toml -name __pycache__ -prune -o -type f ! -name '*.so' ! -name '*.pyc'

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml  # the dependencies, and lexc with them
	rm -rf build/lib build/lib.* build/bdist.* *.egg-info src/*.egg-info  # setuptools' leftovers would ship modules that no longer exist
	$(BIN)/python -m pip install --quiet ".[test]"
	$(SOURCES) -print | sort > $(INSTALLED)

install: $(STAMP) ## create the virtualenv and install lexc into it (again when a source changed since)
	@if [ -n "$$($(SOURCES) -newer $(INSTALLED) -print -quit)" ] || ! $(SOURCES) -print | sort | cmp -s - $(INSTALLED); then \
	    echo "reinstalling lexc (a source changed)"; rm -rf build/lib build/lib.* build/bdist.* *.egg-info src/*.egg-info; \
	    $(BIN)/python -m pip install --quiet --no-deps --force-reinstall . && $(SOURCES) -print | sort > $(INSTALLED); fi

demo: install   ## compile the bundled ENABLE list into every format and run a few queries
	@mkdir -p $(DEMO)
	$(BIN)/lexc build wordlists/enable1.txt -f all -o $(DEMO)
	$(BIN)/lexc info $(DEMO)/enable1.gaddawg
	$(BIN)/lexc verify $(DEMO)/enable1.gaddawg --against wordlists/enable1.txt
	$(BIN)/lexc anagram $(DEMO)/enable1.dawg RETAINS
	$(BIN)/lexc anagram $(DEMO)/enable1.gaddag --sub QUIZ? --json
	$(BIN)/lexc hooks $(DEMO)/enable1.gaddawg CARE QAT
	$(BIN)/lexc words $(DEMO)/enable1.prefixset-aho --pattern 'Q[^U]*' --limit 10
	$(BIN)/lexc check $(DEMO)/enable1.prefixset CARE ZAX QUIXOTIC

test: install   ## install and run the whole test suite (in parallel, one worker per core)
	cd tests && ../$(BIN)/python -m pytest -c ../pyproject.toml --rootdir .. $(PYTEST_ARGS)

check: $(STAMP) ## the quick loop while you work: the source tree (its compiled core built in place), every test module, without the slow tests (ENABLE's GADDAG, the big list)
	$(BIN)/python setup.py -q build_ext --inplace 2>&1 | grep -v "Warning\|warn(" || true
	cd tests && env -u PYTHONDONTWRITEBYTECODE PYTHONPATH=$(CURDIR)/src ../$(BIN)/python -m pytest -c ../pyproject.toml --rootdir .. -m "not slow" $(PYTEST_ARGS)

BIGWORDS ?= 3000000
BIGLIST  := build/biglist/synth-$(BIGWORDS).txt

biglist: install  ## a synthetic 3,000,000-word list (lexc synth) in every format: peak memory, layouts, agreement (docs/bench/biglist/)
	@mkdir -p build/biglist
	test -f $(BIGLIST) || $(BIN)/lexc synth -n $(BIGWORDS) -o $(BIGLIST)
	$(BIN)/lexc bench $(BIGLIST) --repeat $(or $(REPEAT),1) --no-movegen --no-papers --out docs/bench/biglist

fuzz: install   ## load 100,000 mutated lexicon files of every format (CASES=, SEED= to change); exit 1 on any crash, hang or stray exception
	$(BIN)/python tools/fuzz.py --cases $(or $(CASES),100000) --seed $(or $(SEED),0)

SANITIZE := build/sanitize
SANITIZE_QUICK := build/sanitize-quick
ASAN_LIB := $(shell gcc -print-file-name=libasan.so 2>/dev/null)
UBSAN_LIB := $(shell gcc -print-file-name=libubsan.so 2>/dev/null)
# How a sanitized run is started: the sanitizers' runtimes preloaded (Python itself is not built
# with them), the first error fatal, and a missing core an import error (no silent pure run); the
# engines' files read where they are (the copy of the tree under build/ is not beside ../shared).
SANITIZED_ENV := env LD_PRELOAD="$(ASAN_LIB) $(UBSAN_LIB)" \
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1:soft_rss_limit_mb=3072 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 LEXC_REQUIRE_CORE=1 \
    LEXC_INTEROP="$(or $(LEXC_INTEROP),$(abspath $(CURDIR)/../shared/interop))"
# A sanitized build of the core, in its own copy of the tree ($(1)). CFLAGS=-fno-wrapv undoes
# the -fwrapv that Python's own CFLAGS hand every extension build: with it a signed overflow in
# the core is defined behaviour and UBSan never reports one.
define sanitized_build
	rm -rf $(1) && mkdir -p $(1)
	cp -r src tests tools wordlists formats docs setup.py pyproject.toml $(1)/
	rm -f $(1)/src/lexc/native/*.so
	cd $(1) && CFLAGS=-fno-wrapv LEXC_SANITIZE=address,undefined ../../$(BIN)/python setup.py -q build_ext --inplace 2>&1 | grep -v "Warning\|warn(" || true
	test -f $(1)/src/lexc/native/_core.abi3.so  # the sanitized build must exist: no silent pure-Python run
endef
SANITIZE_TESTS := test_native.py test_contract.py test_generated.py test_queries.py test_movegen.py test_alphabets.py \
    test_biglist.py test_kwg.py test_hostile.py test_forgery.py test_dawg.py test_gaddag.py test_study.py test_search.py \
    test_probability.py test_equity.py test_leaves_native.py test_prefixset.py test_endgame.py

sanitize: $(STAMP) ## the compiled core under AddressSanitizer and UndefinedBehaviorSanitizer: the agreement tests, then 20,000 fuzz cases (CASES= to change)
	$(call sanitized_build,$(SANITIZE))
	cd $(SANITIZE)/tests && $(SANITIZED_ENV) PYTHONPATH=$(CURDIR)/$(SANITIZE)/src \
	    ../../../$(BIN)/python -m pytest -c ../pyproject.toml --rootdir .. -p no:cacheprovider $(SANITIZE_TESTS) $(PYTEST_ARGS)
	cd $(SANITIZE) && $(SANITIZED_ENV) PYTHONPATH=$(CURDIR)/$(SANITIZE)/src \
	    ../../$(BIN)/python tools/fuzz.py --cases $(or $(CASES),20000) --seed $(or $(SEED),0) --jobs 2 --memory-mb 0

# The quick sanitizer run (CI, after make test; under 5 minutes on 2 cores): the same sanitized
# build as make sanitize, then the agreement tests (the generated rulesets of test_generated.py
# in full, the compiled core's own tests and its contract, move generation without ENABLE's
# positions, hostile files, the prefix sets' KeySet against its reference, the endgame search on generated
# endgames and MAGPIE's quicker ones) and QUICK_CASES fuzz cases, with Python allocating through malloc
# (PYTHONMALLOC=malloc) so that AddressSanitizer also sees an overflow of a small Python buffer,
# which pymalloc's arenas hide (make sanitize, ten times longer, keeps pymalloc).
QUICK_TESTS := test_generated.py test_native.py test_contract.py test_movegen.py test_hostile.py test_equity.py test_leaves_native.py \
    test_prefixset.py test_endgame.py

sanitize-quick: $(STAMP) ## the quick sanitizer run (ASan + UBSan): the agreement tests on generated rulesets and the core's tests, then 3,000 fuzz cases (QUICK_CASES= to change)
	$(call sanitized_build,$(SANITIZE_QUICK))
	cd $(SANITIZE_QUICK)/tests && $(SANITIZED_ENV) PYTHONMALLOC=malloc PYTHONPATH=$(CURDIR)/$(SANITIZE_QUICK)/src \
	    ../../../$(BIN)/python -m pytest -c ../pyproject.toml --rootdir .. -p no:cacheprovider -m "not slow" \
	    $(QUICK_TESTS) $(PYTEST_ARGS)
	cd $(SANITIZE_QUICK) && $(SANITIZED_ENV) PYTHONMALLOC=malloc PYTHONPATH=$(CURDIR)/$(SANITIZE_QUICK)/src \
	    ../../$(BIN)/python tools/fuzz.py --cases $(or $(QUICK_CASES),3000) --seed $(or $(SEED),0) --jobs 2 --memory-mb 0

bench: install  ## measure everything side by side (lexc bench --full, about 25 minutes); write docs/bench/ and the README's report
	$(BIN)/lexc bench --full --movegen-repeat 3 --out docs/bench
	$(BIN)/python -m lexc.bench.report docs/bench README.md

positions: install  ## regenerate the built-in move-generation position set from 150 self-play games
	@mkdir -p build
	$(BIN)/lexc selfplay --games 150 --seed 1 --positions build/selfplay-positions.jsonl > /dev/null
	$(BIN)/python -m lexc.bench.moves build/selfplay-positions.jsonl src/lexc/bench/enable-selfplay.jsonl

LINTED := $(VENV)/.lint-installed

$(LINTED): $(BIN)/python pyproject.toml
	$(BIN)/python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['lint'])" \
	    | xargs $(BIN)/python -m pip install --quiet && touch $(LINTED)  # (the lint extra's pins, lexc itself not again)

lint: install $(LINTED) ## ruff and mypy (configured in pyproject.toml): zero findings on src/, tests/ and tools/ for ruff, src/ for mypy
	$(BIN)/ruff check src tests tools
	$(BIN)/mypy src

DOCSINSTALLED := $(VENV)/.docs-installed

$(DOCSINSTALLED): $(BIN)/python pyproject.toml
	@$(BIN)/python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['docs'])" \
	    | xargs $(BIN)/python -m pip install --quiet \
	    || { echo "make docs: MkDocs could not be installed; install the docs extra by hand ($(BIN)/python -m pip install 'mkdocs>=1.6') and run make docs again" >&2; exit 2; }
	touch $(DOCSINSTALLED)

docs: $(STAMP) $(DOCSINSTALLED) ## the manual (docs/, README.md, formats/) as a static site in build/site/ (MkDocs, the docs extra, installed on first use)
	$(BIN)/mkdocs build --strict --quiet
	@echo "the manual: build/site/index.html"

docs-reference: $(STAMP) ## rewrite docs/commands.md from the click commands (after a command or an option changed; the tests compare)
	PYTHONPATH=$(CURDIR)/src $(BIN)/python -m lexc.cli.reference docs/commands.md

clean:          ## remove the virtualenv and build outputs
	rm -rf $(VENV) build dist *.egg-info src/*.egg-info .pytest_cache
