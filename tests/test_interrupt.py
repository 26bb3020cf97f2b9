"""``lexc build`` killed with SIGKILL at random moments never leaves a partial output file.

An old valid lexicon is in place at the output path; ``lexc build`` (a subprocess, so the
kill is real) rebuilds it from ENABLE and is killed at seeded moments spread over the build,
including once while its temporary file exists (the write). After each kill the output path
holds the old file byte for byte or the complete new file (it loads, checksums hold, and it
is identical to an uninterrupted build), never a partial one.

The atomic writer (``container.write_atomic``) writes to ``.NAME.PID.XXXXXXXX.part`` beside
the output; SIGKILL runs no cleanup, so a kill during the write leaves that temporary file
behind (the old output stays intact), and the next write of NAME sweeps it away.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import lexc
from lexc import formats
from lexc.lexicons.source import bundled_wordlist
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words

ROOT = Path(lexc.__file__).resolve().parent.parent  # the tree holding the lexc package
ENABLE = bundled_wordlist()  # package data when installed (as in CI), wordlists/ in a checkout
SEED = 20261121
KILLS = 8


def start_build(out: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-m", "lexc", "build", str(ENABLE), "-f", "dawg", "-o", str(out)],
                            cwd=out.parent, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def temp_files(directory: Path, name: str) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.name != name)


pytestmark = pytest.mark.slow  # every test here kills real builds of ENABLE


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """One uninterrupted build (its bytes and duration), then the killed builds; returns
    (new bytes, old bytes, [(moment, outcome, leftovers)])."""
    directory = tmp_path_factory.mktemp("interrupt")
    alphabet = load_ruleset("english").alphabet
    old = formats.dumps(formats.build(from_words(["CAT", "CATS", "DOG", "DOGS", "OLD"], alphabet), "dawg"))

    out = directory / "out.dawg"
    out.write_bytes(old)
    t0 = time.monotonic()
    proc = start_build(out)
    _, err = proc.communicate(timeout=120)
    duration = time.monotonic() - t0
    assert proc.returncode == 0, err.decode()
    new = out.read_bytes()
    assert new != old
    formats.loads(new)  # a valid file
    assert temp_files(directory, out.name) == []  # a finished build leaves nothing behind

    rng = random.Random(SEED)
    # spread over the build, the last ones close to its end (the write comes last)
    moments = sorted(rng.uniform(0.05, 1.2) * duration for _ in range(KILLS - 2))
    moments += [duration * rng.uniform(0.9, 1.0), None]  # None: kill as soon as the .part file appears
    results = []
    for moment in moments:
        work = directory / f"kill{len(results)}"
        work.mkdir()
        target = work / "out.dawg"
        target.write_bytes(old)
        proc = start_build(target)
        t0 = time.monotonic()
        if moment is None:
            while proc.poll() is None and not temp_files(work, target.name) and time.monotonic() - t0 < 60:
                time.sleep(0.0005)
        else:
            time.sleep(max(0.0, moment - (time.monotonic() - t0)))
        killed_at = time.monotonic() - t0
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stderr.close()
        data = target.read_bytes()
        outcome = "old" if data == old else "new" if data == new else "OTHER"
        results.append((moment, killed_at, proc.returncode, outcome, data, temp_files(work, target.name)))
    return new, old, results


def test_every_kill_leaves_the_old_or_the_complete_new_file(run):
    _new, _old, results = run
    for _moment, killed_at, _code, outcome, data, _ in results:
        assert outcome in ("old", "new"), f"kill at {killed_at:.3f} s left {len(data)} bytes, neither file"
        lexicon = formats.loads(data)  # every check, the checksums included
        assert len(lexicon) == (5 if outcome == "old" else 172820)


def test_the_kills_really_interrupted_builds(run):
    _, _, results = run
    killed = [r for r in results if r[2] == -signal.SIGKILL]
    assert len(killed) >= KILLS // 2, [(r[1], r[2]) for r in results]
    assert any(r[3] == "old" for r in killed)


def test_leftover_temp_files_are_only_the_writers_part_files(run, capsys):
    """SIGKILL during the write leaves the writer's temporary file (no cleanup can run);
    nothing else is left, and the output itself is never touched until the rename."""
    _, _, results = run
    leftovers = [p for r in results for p in r[5]]
    for p in leftovers:
        assert p.name.startswith(".out.dawg.") and p.name.endswith(".part"), p
    with capsys.disabled():
        during_write = [r for r in results if r[0] is None]
        print(f"\n[interrupt] kills at {[round(r[1], 3) for r in results]} s -> {[r[3] for r in results]}; "
              f"kill when the .part file appeared: {[r[3] for r in during_write]}, "
              f"leftover temp files: {[f'{p.parent.name}/{p.name} ({p.stat().st_size} bytes)' for p in leftovers]}")


def test_the_next_build_sweeps_the_leftovers(run, tmp_path):
    """What a killed write leaves (the kills' own leftovers when one landed in the write, and
    always one left by a process known to be dead, since whether a kill lands in the short
    write depends on the machine's load) is swept by the next build of the same name."""
    _, old, results = run
    directories = {p.parent for r in results for p in r[5]}
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    made = tmp_path / "made"
    made.mkdir()
    (made / "out.dawg").write_bytes(old)
    (made / f".out.dawg.{int(dead.stdout)}.0123abcd.part").write_bytes(old[: len(old) // 2])
    for directory in directories | {made}:
        assert temp_files(directory, "out.dawg"), directory
        proc = start_build(directory / "out.dawg")
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
        assert temp_files(directory, "out.dawg") == []
