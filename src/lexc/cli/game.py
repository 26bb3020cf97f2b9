"""Game commands: replay (``lexc.game.replay``), selfplay (``lexc.game.manager``), play
(``lexc.game.interactive``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from ..limits import MAX_COUNT, MAX_GAMES, MAX_LINE_BYTES, MAX_MATCH_GAMES, MAX_SEARCH_S, MAX_SEED, MAX_WORKERS
from ..plural import plural
from . import common
from .common import Bounded, BoundedFloat, Negative, emit, lexicon_file, lexicon_option, note


@click.command()
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("-L", "--lexicon", "lexfile", metavar="FILE",
              help="Lexicon file or word list to judge the words [default: bundled ENABLE].")
@click.option("-a", "--all", "every_event", is_flag=True, help="Show every event, not only the problems.")
@click.option("--until", type=Bounded(1, MAX_COUNT), metavar="N",
              help="Replay up to the event on line N of the file and stop there: N is the line number "
                   "replay prints for each event ('line  12  Josh: ...'; replay -a lists them all).")
@click.option("--board", "show_board", is_flag=True,
              help="Print the position after the last event replayed (--until's, else the last), "
                   "drawn as lexc play draws it, instead of the report.")
@click.option("--cgp", "show_cgp", is_flag=True,
              help="Print that position as a CGP line: the player to move first, racks the record gives "
                   "in full (else empty), the recorded scores, the game's #lexicon as lex.")
@click.option("--color/--no-color", default=None, help="Colour the --board [default: on a colour terminal].")
@click.option("--json", "as_json", is_flag=True,
              help="Machine-readable JSON output (with --until, --board or --cgp, the position as 'position').")
def replay(game: str, lexfile: str | None, every_event: bool, until: int | None, show_board: bool,
           show_cgp: bool, color: bool | None, as_json: bool) -> None:
    """Replay a GCG game through the referee: recorded and computed scores, words the
    lexicon lacks, score mismatches, broken rules (the bag's too: an exchange with too few
    tiles in the bag, a turn after the end, going out with tiles left). A mismatch is a
    move (a play, exchange, pass, withdrawal or challenge bonus) whose recorded score or
    total differs; the end-of-game lines and the final scores are reported apart. A game
    whose #lexicon names another lexicon than the one used gets a warning. Exit status 0
    iff nothing differs and no rule is broken (up to --until's event).

    Example: lexc replay game.gcg -L enable.dawg; lexc replay game.gcg --until 12 --board
    """
    from ..game.gcg import GCGError, read_gcg
    from ..game.position import position_after
    from ..game.replay import ReplayError
    from ..game.replay import replay as replay_game
    from ..lexicons.source import open_lexicon
    from .board import _lexicon_name

    try:
        record = read_gcg(game)
    except GCGError as exc:  # (the message names the line: the file's name goes before it)
        raise GCGError(f"{game}: {exc}") from None
    lexicon = open_lexicon(lexfile, "dawg", "english", progress=note)
    using = _lexicon_name(lexfile)
    try:
        report = replay_game(record, lexicon, until=until, lexicon_name=using)
    except ReplayError as exc:
        raise click.BadParameter(str(exc), param_hint="'--until'") from None
    named = report.game_lexicon
    if named and named.casefold() != using.casefold():
        click.echo(f"lexc replay: warning: the game names lexicon {named}; judging with {using}", err=True)
    data = report.as_dict()
    if until is not None or show_board or show_cgp:
        position = position_after(report)
        data["position"] = position.as_dict()
        if show_board or show_cgp:
            _show_position(report, position, show_board, show_cgp, color, as_json, data)
            return
    emit(data, as_json, "\n".join(report.lines(every_event)))
    if not report.ok:
        raise Negative()


def _show_position(report: Any, position: Any, show_board: bool, show_cgp: bool, color: bool | None,
                   as_json: bool, data: dict[str, Any]) -> None:
    """``replay --board/--cgp``: the position instead of the report (its JSON as ever), a note
    on stderr when the CGP's rack to move stands for a rack the record does not give, or when
    the replay found problems (exit status 1, as without --board)."""
    if color is None:
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    shown = position.lines(color) if show_board else []
    emit(data, as_json, "\n".join(shown + ([position.cgp()] if show_cgp else [])))
    mover = position.seats[position.to_move]
    if show_cgp and not as_json and mover.rack is None:
        click.echo(f"lexc replay: note: the record does not give {mover.nickname}'s rack in full: the CGP's rack "
                   "to move is empty (give lexc moves or judge a --rack)", err=True)
    if not report.ok:
        if not as_json:
            until = f" up to line {report.until}" if report.until is not None else ""
            click.echo(f"lexc replay: note: the replay{until} finds problems ("
                       f"{plural(report.mismatches, 'mismatch', 'mismatches')} in the moves, "
                       f"{plural(len(report.errors), 'error')}): the report without --board/--cgp lists them", err=True)
        raise Negative()


@click.command()
@click.argument("lexfile", required=False)
@common.ruleset_option("Ruleset: board, tiles, bingo.")
@click.option("--games", default=1, show_default=True, type=Bounded(1, MAX_GAMES), help="How many games.")
@click.option("--seed", default=0, show_default=True, type=Bounded(0, MAX_SEED),
              help="Seed of the first game (game i uses SEED + i).")
@click.option("--strategy", default="auto", show_default=True,
              help="Move generator: naive, appel-jacobson, gordon, shapiro-smith, or auto.")
@click.option("--end-rule", type=click.Choice(["doubling", "add-and-subtract"]), default="doubling",
              show_default=True, help="End-rack points: NASPA's doubling or WESPA's add-and-subtract.")
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Write each game as DIR/selfplay-SEED.gcg.")
@click.option("--positions", "positions_out", type=click.Path(dir_okay=False), metavar="OUT.jsonl",
              help='Write every position met, {"game", "turn", "cgp", "rack"} per line.')
@click.option("--player", "levels", multiple=True, type=click.Choice(["greedy", "equity", "sim"]), metavar="LEVEL",
              help="The programs: greedy (the best-scoring play), equity (the best static equity: score plus the "
                   "leave's value) or sim (MAVEN's: simulation, the pre-endgame and the exact endgame); once for "
                   "both, twice for each seat [default: equity].")
@click.option("--leaves", "leaves_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="The equity players' leave values (any file lexc leaves reads) [default: the learned leaves "
                   "bundled for the ruleset's bag].")
@click.option("--workers", type=Bounded(1, MAX_WORKERS), default=None, metavar="N",
              help="Local processes to play the games on [default: every core]; the games are the same whatever N.")
@click.option("--scheduler", metavar="ADDRESS",
              help="Play the games on a Dask distributed cluster, e.g. tcp://10.0.0.1:8786 (pip install "
                   "'lexc[cluster]'; every worker needs lexc and the lexicon and leave files at the same paths).")
@click.option("--move-time", type=BoundedFloat(0.001, MAX_SEARCH_S), metavar="SECONDS",
              help="A sim player's time per move (the games then depend on the machine) [default: its iteration "
                   "limit].")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
@lexicon_option
def selfplay(lexfile: str | None, ruleset: str | None, games: int, seed: int, strategy: str, end_rule: str,
             out_dir: str | None, positions_out: str | None, levels: tuple[str, ...], leaves_file: str | None,
             workers: int | None, scheduler: str | None, move_time: float | None, as_json: bool,
             lexicon_opt: str | None) -> None:
    """Programs play complete games (a real bag, exchanges and passes, the standard end of
    game): by default equity players (the move of the best static equity, with the learned
    leave values bundled with lexc or --leaves FILE's), or greedy ones; every game's GCG
    record is replayed through the referee (exit 1 if a replay disagrees) and, with -o,
    written to DIR. The same seed gives the same games, on one
    core, on all of them (the default) or on a cluster (--scheduler).

    Example: lexc selfplay enable.gaddawg --games 10 --seed 1 -o games --positions positions.jsonl
    """
    from ..engine.player import play_selfplay
    from ..formats.container import write_atomic
    from ..game.tasks import SelfplayTask
    from ..parallel import per_process, run_tasks

    ruleset, path_given, name = games_lexicon(lexfile, lexicon_opt, ruleset)
    seats, leaves_file = program_levels(levels, leaves_file, ruleset)
    table = leave_table(leaves_file, ruleset)
    leaves_given = os.path.abspath(leaves_file) if leaves_file else None
    if table is not None:
        per_process(("leaves", leaves_given, ruleset), lambda: table)
    tasks = [SelfplayTask(path_given, ruleset, seed + i, strategy, end_rule, name, seats, leaves_given, move_time)
             for i in range(games)]
    bar = click.progressbar(length=games, label="self-play", file=sys.stderr) if common.on_terminal() else None
    played = run_tasks(play_selfplay, tasks, workers=workers, scheduler=scheduler,
                       progress=(lambda done, total: bar.update(1)) if bar else None)
    if bar:
        bar.render_finish()
    summaries: list[dict[str, Any]] = []
    positions: list[dict[str, Any]] = []
    failed: list[int] = []
    for game in played:
        path = None
        if out_dir:
            os.makedirs(out_dir, exist_ok=True)
            path = os.path.join(out_dir, f"selfplay-{game['seed']}.gcg")
            write_atomic(path, game["gcg"].encode("utf-8"))
        positions += game["positions"]
        kept = ("seed", "players", "scores", "turns", "end", "replay_ok")
        summaries.append({k: game[k] for k in kept} | {"gcg": path})
        if not game["replay_ok"]:
            failed.append(game["seed"])
    if positions_out:
        import json

        write_atomic(positions_out,
                     "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in positions).encode("utf-8"))
    emit(summaries, as_json, "\n".join(
        f"seed {g['seed']}: {g['players'][0]} {g['scores'][0]}, {g['players'][1]} {g['scores'][1]}; "
        f"{g['turns']} turns, ended {g['end']}; replay {'ok' if g['replay_ok'] else 'DISAGREES'}"
        + (f" -> {g['gcg']}" if g["gcg"] else "") for g in summaries))
    if failed:
        seeds = ", ".join(map(str, failed))
        click.echo(f"lexc: error: the replay of game {seeds} disagrees with the game" if len(failed) == 1 else
                   f"lexc: error: the replays of games {seeds} disagree with the games", err=True)
        raise Negative()


def games_lexicon(lexfile: str | None, lexicon_opt: str | None, ruleset: str | None) -> tuple[str, str | None, str]:
    """The lexicon games are played on (``selfplay``, ``match``), opened and checked once: the
    ruleset the games use (the lexicon's own unless ``-r`` says otherwise), its absolute
    path as tasks name it (None: the bundled ENABLE) and its name for the records. It is kept
    for this process and the local workers it forks (``parallel.per_process``)."""
    from ..lexicons.source import check_listable, open_lexicon
    from ..parallel import per_process

    lexfile = lexicon_file(lexfile, lexicon_opt)
    lexicon = open_lexicon(lexfile, "gaddawg" if lexfile is None else "dawg", ruleset, progress=note)
    rules = common.command_ruleset(lexicon, ruleset, lexfile)
    check_listable(lexicon, lexfile or "the bundled lexicon")  # the programs' plays grow with the lexicon
    path_given = os.path.abspath(lexfile) if lexfile else None
    per_process(("lexicon", path_given, rules), lambda: lexicon)
    return rules, path_given, Path(lexfile).stem if lexfile else "ENABLE"


def program_levels(levels: tuple[str, ...], leaves_file: str | None,
                   ruleset: str) -> tuple[tuple[str, str], str | None]:
    """The two programs' levels from ``--player`` (none: equity; once: both seats; twice: each
    seat) and the equity players' leave file: ``--leaves``, else the learned leaves bundled
    for the ruleset's bag (``equity.bundled``). With no ``--player`` and no bundled leaves
    for the ruleset, the programs are greedy (said on a terminal); an equity player asked for
    then needs ``--leaves``. ``--leaves`` without an equity player is refused."""
    from ..equity.bundled import bundled_leaves_path, none_bundled
    from ..ruleset import load_ruleset

    if len(levels) > 2:
        raise click.UsageError(f"--player given {len(levels)} times: once for both programs, or twice")
    seats = (levels * 2)[:2] if levels else ("equity", "equity")
    valued = "equity" in seats or "sim" in seats  # (a sim player ranks its candidates by equity)
    if leaves_file is not None and not valued:
        raise click.UsageError("--leaves is for an equity player: give --player equity")
    if valued and leaves_file is None:
        rules = load_ruleset(ruleset)
        bundled = bundled_leaves_path(rules)
        if bundled is not None:
            leaves_file = str(bundled)
        elif levels:
            raise click.UsageError(f"{none_bundled(rules)}: an equity player needs --leaves FILE")
        else:
            note(f"{none_bundled(rules)}: greedy programs (--leaves FILE for equity ones)")
            seats = ("greedy", "greedy")
    return (seats[0], seats[1]), leaves_file


def leave_table(leaves_file: str | None, ruleset: str) -> Any:
    """The leave table of ``--leaves`` under the ruleset (None without one)."""
    if leaves_file is None:
        return None
    from ..formats.leaves import read_leaves
    from ..ruleset import load_ruleset

    return read_leaves(leaves_file, load_ruleset(ruleset))


@click.command()
@click.argument("player_a", metavar="A")
@click.argument("player_b", metavar="B")
@click.argument("lexfile", required=False)
@common.ruleset_option("Ruleset: board, tiles, bingo.")
@click.option("--games", default=200, show_default=True, type=Bounded(2, MAX_MATCH_GAMES),
              help="How many games: an even number, each deal played twice with the seats swapped.")
@click.option("--seed", default=0, show_default=True, type=Bounded(0, MAX_SEED),
              help="Seed of the first deal (deal i uses SEED + i).")
@click.option("--end-rule", type=click.Choice(["doubling", "add-and-subtract"]), default="doubling",
              show_default=True, help="End-rack points: NASPA's doubling or WESPA's add-and-subtract.")
@click.option("--workers", type=Bounded(1, MAX_WORKERS), default=None, metavar="N",
              help="Local processes to play on [default: every core]; the games are the same whatever N.")
@click.option("--scheduler", metavar="ADDRESS", help="Play on a Dask distributed cluster, e.g. tcp://10.0.0.1:8786.")
@click.option("--move-time", type=BoundedFloat(0.001, MAX_SEARCH_S), metavar="SECONDS",
              help="A sim player's time per move (its simulation and endgame search stop after about so long; "
                   "the games then depend on the machine) [default: its iteration limit, the same games "
                   "everywhere].")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output (with every game).")
@lexicon_option
def match(player_a: str, player_b: str, lexfile: str | None, ruleset: str | None, games: int, seed: int,
          end_rule: str, workers: int | None, scheduler: str | None, move_time: float | None, as_json: bool,
          lexicon_opt: str | None) -> None:
    """Play a match between the program players A and B in paired games (each deal played
    twice, the seats swapped, so the luck of the draw cancels in each pair) and report A's mean
    spread a game with its 95% confidence interval over the pairs, and each side's win rate (a
    tie counts half). Players: greedy (the highest score), beginner (the middle of the
    ranking), equity (the best static equity with the learned leaves bundled with lexc),
    equity:FILE (the same with FILE's leave values), sim (MAVEN's player: simulation, the
    pre-endgame and the exact endgame, lexc.engine.player; sim:FILE its leaves). The same
    seed gives the same match on one core, on every core (the default) or on a cluster.

    Example: lexc match equity:TWL06.klv2 greedy enable.dawg --games 2000
    """
    import time

    from ..engine.player import SimMatchGame, play_match_game
    from ..game.match import match_games, resolved, summarise
    from ..parallel import run_tasks

    ruleset, path_given, name = games_lexicon(lexfile, lexicon_opt, ruleset)
    tasks = [SimMatchGame(game, move_time) for game in match_games(
        path_given, ruleset, resolved(player_a, ruleset), resolved(player_b, ruleset), games, seed, end_rule, name)]
    started = time.perf_counter()
    bar = click.progressbar(length=games, label="match", file=sys.stderr) if common.on_terminal() else None
    results = run_tasks(play_match_game, tasks, workers=workers, scheduler=scheduler,
                        progress=(lambda done, total: bar.update(1)) if bar else None)
    if bar:
        bar.render_finish()
    seconds = time.perf_counter() - started
    report = {"a": player_a, "b": player_b, "seed": seed, **summarise(results), "seconds": round(seconds, 3),
              "games_per_second": round(games / seconds, 2) if seconds else None}
    if as_json:
        return emit(report | {"results": results}, True)
    low, high = report["ci95"]
    click.echo(f"{player_a} vs {player_b}: {plural(games, 'game')} ({plural(report['pairs'], 'pair')}), "
               f"seeds {seed}..{seed + report['pairs'] - 1}\n"
               f"  mean spread {report['mean_spread']:+.2f} a game for {player_a}, 95% CI [{low:+.2f}, {high:+.2f}]\n"
               f"  {player_a} wins {report['a_wins']}, {player_b} wins {report['b_wins']}, ties {report['ties']}; "
               f"win rate {report['a_win_rate']:.1%} for {player_a}\n"
               f"  mean score {report['a_mean_score']:.1f} to {report['b_mean_score']:.1f}  seconds {seconds:.2f}")


@click.command()
@click.argument("lexfile", required=False)
@common.ruleset_option("Ruleset: board, tiles, bingo.")
@click.option("--seed", type=Bounded(0, MAX_SEED), default=None,
              help="Seed of the deal [default: a random one, printed].")
@click.option("--strategy", default="auto", show_default=True,
              help="The program's move generator: naive, appel-jacobson, gordon, shapiro-smith, or auto.")
@click.option("--player", "--level", "level", type=click.Choice(["greedy", "beginner", "equity", "sim"]),
              default="equity", show_default=True,
              help="The program: equity, the move of the best static equity (score plus the leave's value); "
                   "greedy, its best-scoring play; beginner, the middle of that ranking; sim, MAVEN's player "
                   "(simulation, the pre-endgame, the exact endgame) (--level: the old name).")
@click.option("--move-time", type=BoundedFloat(0.001, MAX_SEARCH_S), metavar="SECONDS",
              help="The sim player's time per move [default: its iteration limit].")
@click.option("--leaves", "leaves_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="The equity player's leave values (any file lexc leaves reads) [default: the learned leaves "
                   "bundled for the ruleset's bag].")
@click.option("--name", default="you", show_default=True, help="Your nickname in the game record (no spaces).")
@click.option("--end-rule", type=click.Choice(["doubling", "add-and-subtract"]), default="doubling",
              show_default=True, help="End-rack points: NASPA's doubling or WESPA's add-and-subtract.")
@click.option("--save", type=click.Path(dir_okay=False), metavar="FILE.gcg",
              help="Where the game is saved as GCG [default: your game to lexc-game-SEED.gcg in the current "
                   "folder, never over a file already there; a --watch game only with --save].")
@click.option("--watch", is_flag=True,
              help="Watch two programs play (the same game loop); saved only with --save.")
@click.option("--color/--no-color", default=None, help="Colour the board [default: on a colour terminal].")
@click.option("--json", "as_json", is_flag=True, help="The game's summary as JSON at the end (the game on stderr).")
@lexicon_option
def play(lexfile: str | None, ruleset: str | None, seed: int | None, strategy: str, level: str,
         move_time: float | None, leaves_file: str | None, name: str, end_rule: str, save: str | None, watch: bool,
         color: bool | None, as_json: bool, lexicon_opt: str | None) -> None:
    """Play a game against lexc in the terminal (by default its equity program, with the
    learned leaves bundled with lexc): type plays as 8H WORD (across) or H8 WORD (down), or
    pass, exchange TILES, check, anagram, hooks, hint, add, score, board, help, quit (Ctrl-C
    ends and saves the game as quit does).

    Example: lexc play enable.gaddawg --seed 7
    """
    import random as _random

    from ..formats.container import write_atomic
    from ..game.interactive import Console, HumanPlayer, Session, play_game, save_record
    from ..game.manager import GameManager
    from ..game.players import ProgramPlayer
    from ..lexicons.source import check_listable, open_lexicon
    from ..ruleset import load_ruleset

    if not name or name.split() != [name] or ":" in name or name == "lexc":
        raise click.BadParameter("a nickname without spaces or ':', other than 'lexc'", param_hint="--name")
    if save is not None:  # refused before the game, not after it
        check_save_path(save)
    if leaves_file is not None and level not in ("equity", "sim"):
        raise click.UsageError("--leaves is for the equity player: give --player equity")
    if move_time is not None and level != "sim":
        raise click.UsageError("--move-time is for the sim player: give --player sim")
    lexfile = lexicon_file(lexfile, lexicon_opt)
    lexicon = open_lexicon(lexfile, "gaddawg" if lexfile is None else "dawg", ruleset, progress=note)
    used = common.command_ruleset(lexicon, ruleset, lexfile)  # the lexicon's own unless -r
    rules = load_ruleset(used)
    if level in ("equity", "sim"):  # the default player falls back to greedy where lexc ships no leaves; one
        # asked for, not
        asked = click.get_current_context().get_parameter_source("level") is not ParameterSource.DEFAULT
        (level, _), leaves_file = program_levels((level,) if asked else (), leaves_file, used)
    table = leave_table(leaves_file, used)
    check_listable(lexicon, lexfile or "the bundled lexicon")  # the programs' plays grow with the lexicon
    if seed is None:
        seed = _random.SystemRandom().randrange(1_000_000)
    out = sys.stderr if as_json else sys.stdout
    tty = out.isatty()
    color = (tty and "NO_COLOR" not in os.environ) if color is None else color

    def say(text: str) -> None:
        click.echo(text, file=out, color=color)

    def ask(prompt: str) -> str | None:
        click.echo(prompt, nl=False, file=out)
        line = typed_line(sys.stdin)
        if line is None:
            click.echo(file=out)
        return line

    session = Session(Console(ask, say, color), lexicon, leaves=table)

    def program_player(nick: str, full: str) -> Any:
        if level == "sim":
            from ..engine.player import SimPlayer

            return SimPlayer(lexicon, table, nick, full, seed=seed or 0, move_seconds=move_time)
        return ProgramPlayer(lexicon, strategy, nick, full, level=level, leaves=table)

    program = program_player("lexc", f"lexc {level} player")
    other = program_player("lexc2", f"lexc {level} player 2") if watch else HumanPlayer(session, name, "human player")
    name_tag = Path(lexfile).stem if lexfile else "ENABLE"
    manager = GameManager(rules, [other, program], lexicon, seed, end_rule, name_tag,
                          f"lexc play: seed {seed}, strategy {strategy}, level {level}, end rule {end_rule}")
    say(f"lexc play: seed {seed} (the same seed deals the same game), {rules.name} rules, lexicon {name_tag}; "
        "type help for the commands")
    end = play_game(manager, session)
    path = save if save is not None or watch else free_game_path(seed)
    if path is None:  # a watched game is the seed's to play again: nothing is written unasked
        say(f"not saved (--save FILE.gcg saves a game; lexc play --watch --seed {seed} plays this one again)")
    else:
        write_atomic(path, save_record(manager).encode("utf-8"))
        say(f"saved to {path} (lexc replay {path})")
    if as_json:
        emit({"seed": seed, "players": [p.nick for p in manager.players], "scores": list(manager.scores),
              "end": end, "turns": manager.turns, "added": session.added, "gcg": path}, True)


def check_save_path(save: str) -> None:
    """Refuse a --save path the game could not be written to (no such folder, a folder not
    writable; click refuses a folder), in one line before the game starts."""
    folder = os.path.dirname(os.path.abspath(save))
    problem = (f"no folder {folder}" if not os.path.isdir(folder)
               else f"the folder {folder} is not writable" if not os.access(folder, os.W_OK) else None)
    if problem:
        raise click.BadParameter(f"{save}: {problem}", param_hint="--save")


def free_game_path(seed: int) -> str:
    """Where a game played without --save goes: lexc-game-SEED.gcg in the current folder, or
    lexc-game-SEED-2.gcg, -3, ... if that file is there already (a game is never written over
    another), as an absolute path so that the message says where it is."""
    base = os.path.abspath(f"lexc-game-{seed}")
    path, n = f"{base}.gcg", 1
    while os.path.lexists(path):
        n += 1
        path = f"{base}-{n}.gcg"
    return path


def typed_line(stream: Any) -> str | None:
    """One line the player typed (None at the end of the input), without its line break:
    read as bytes, at most ``MAX_LINE_BYTES`` of it (the rest of a longer line is skipped),
    and decoded by ``lexc.textfile.decode_line`` (a byte that is not UTF-8 is a character no
    command or alphabet holds: the line is refused as a mistyped one is, and the game goes
    on). A text stream without bytes beneath (a test's) is read as text."""
    from ..textfile import decode_line

    source = getattr(stream, "buffer", stream)
    raw = source.readline(MAX_LINE_BYTES + 1)
    if not raw:
        return None
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
        while True:  # skip the rest of the line, a bounded piece at a time
            rest = source.readline(MAX_LINE_BYTES)
            if not rest or rest[-1:] in ("\n", b"\n"):
                break
        raw = raw[:MAX_LINE_BYTES]
    return decode_line(raw)
