"""GCG game records: read and write them (``replay.py`` replays them through the referee).

GCG (John Chew's "Poslfit" format, written by Quackle, Macondo, Woogles/liwords and MAGPIE) has
pragma lines ``#name value`` and one event line per action, ``>nickname: ... +SCORE TOTAL``::

    >Tim: EIINSTU I2 UNITIES +68 92     a play (8H across, H8 down; ``.`` a tile on the board)
    >Tim: DIIILU -IIILU +0 24           an exchange (``-5``: five tiles, unnamed)
    >Tim: ADGKOSV - +0 24               a pass
    >Tim: ADGKOSV -- -27 131            the player's previous play taken back (a phony)
    >Tim: ABEIRTV (challenge) +5 136    a bonus for a play that stood a challenge
    >Tim: (RELATCH) +24 539             end-rack points for the tiles the opponent is left with
    >Tim: EIOQRRT (EIOQRRT) -16 -16     end-rack penalty (six scoreless turns; add-and-subtract)
    >Tim: (time) -20 358                time penalty

Encoding: a ``#character-encoding`` line must be the first line (UTF-8 or ISO-8859-1). Without
one the bytes are read as UTF-8 when they are valid UTF-8 (ASCII files are both), else as
Latin-1, the Poslfit default that old files rely on. CRLF and LF line ends are both read; blank
lines are skipped; text lines after a ``#note`` continue the note. Text after the total (old
Quackle files list the cross-words there) is kept in ``Event.extra``.

End of game, two conventions: *doubling* (NASPA), where the player who went out gets twice the
value of the opponent's rack, ``(RACK) +2X``; *add-and-subtract* (WESPA), where that player gets
``(RACK) +X`` and the opponent ``RACK (RACK) -X``. The replay accepts either and reports which.

"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..errors import LexcError
from ..wordlist import excerpt

PLAY, EXCHANGE, PASS, PHONY = "play", "exchange", "pass", "phony-returned"
CHALLENGE, END_POINTS, END_PENALTY, TIME = "challenge-bonus", "end-rack-points", "end-rack-penalty", "time-penalty"
TURNS = (PLAY, EXCHANGE, PASS)  # the events that take a turn (players alternate on these)
ENDINGS = (END_POINTS, END_PENALTY, TIME)  # the events that only come once the game is over
_ENCODINGS = {"UTF-8": "utf-8", "UTF8": "utf-8", "ISO-8859-1": "latin-1", "ISO8859-1": "latin-1",
              "LATIN-1": "latin-1", "LATIN1": "latin-1"}
_SCORE, _TOTAL = re.compile(r"[+-][0-9]{1,9}$"), re.compile(r"-?[0-9]{1,9}$")  # ASCII digits, at most 9
_RACK = re.compile(r"(?:[^\W\d_]|\?|\[[^\W\d_]+\])+$")
_COORD = re.compile(r"(?:[0-9]{1,2}[A-Za-z]|[A-Za-z][0-9]{1,2})$")
_COUNT = re.compile(r"[0-9]{1,2}$")  # an exchange written as the number of tiles
MAX_GCG_BYTES = 1 << 20  # a game record is a few kilobytes
MAX_GCG_LINE = 4096  # characters of one line


def is_count(tiles: str) -> bool:
    """Whether an exchange's tiles are written as their number (``-7``): ASCII digits only."""
    return bool(_COUNT.match(tiles))


class GCGError(LexcError, ValueError):
    """A malformed GCG file; the one-line message starts with the line number."""


@dataclass
class Event:
    """One ``>`` line. ``rack`` is as written ('' when absent); ``tiles`` the exchanged tiles
    (or their count) or the rack in parentheses of an end-rack event."""

    line: int
    player: int  # 0 or 1
    kind: str
    rack: str
    score: int
    total: int
    position: str = ""
    word: str = ""
    tiles: str = ""
    extra: str = ""
    note: str = ""

    def move(self) -> str:
        """The move as written: ``8H WORD``, ``-TILES``, ``-``, ``--``, ``(RACK)``, ``(time)``."""
        return {PLAY: f"{self.position} {self.word}", EXCHANGE: f"-{self.tiles}", PASS: "-", PHONY: "--",
                CHALLENGE: "(challenge)", TIME: "(time)"}.get(self.kind, f"({self.tiles})")


@dataclass
class Game:
    """A parsed game: players as (nickname, full name), events, and the other pragmas as
    (name, value) in file order (``#note`` text is on the events; notes before the first
    event are in ``notes``)."""

    players: list[tuple[str, str]]
    events: list[Event] = field(default_factory=list)
    pragmas: list[tuple[str, str]] = field(default_factory=list)
    notes: str = ""
    encoding: str = "utf-8"

    def pragma(self, name: str) -> str | None:
        """The value of the first ``#name`` pragma, or None."""
        return next((value for key, value in self.pragmas if key == name), None)


def decode_gcg(data: bytes) -> tuple[str, str]:
    """The text of a GCG file's bytes and the encoding used (see the module docstring). A
    NUL byte, which no text encoding of a game record holds, makes it a binary file (or
    UTF-16): refused with its line."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    if b"\0" in data:
        line = data.count(b"\n", 0, data.index(b"\0")) + 1
        utf16 = data.startswith((b"\xff\xfe", b"\xfe\xff"))
        raise GCGError(f"line {line}: " + ("UTF-16 text: a game record is UTF-8 or ISO-8859-1" if utf16 else
                                           "a NUL byte: a binary file, not a GCG game record"))
    m = re.match(rb"[ \t]*#character-encoding[ \t]+(\S+)", data)
    declared = m.group(1).decode("latin-1") if m else ""
    encoding = _ENCODINGS.get(declared.upper()) if declared else "utf-8"
    if encoding is None:
        raise GCGError(f"line 1: unsupported #character-encoding {declared} (UTF-8 or ISO-8859-1)")
    try:
        return data.decode(encoding), encoding
    except UnicodeDecodeError as exc:
        if not declared:
            return data.decode("latin-1"), "latin-1"
        raise GCGError(f"line {data[:exc.start].count(10) + 1}: not valid {declared}, "
                       f"as #character-encoding says") from None


def read_gcg(source: str | bytes | os.PathLike[str]) -> Game:
    """Read a game from a path, from the file's bytes, or from GCG text (a str with a newline
    or starting with ``#``/``>``)."""
    if isinstance(source, str) and ("\n" in source or source.lstrip().startswith(("#", ">"))):
        return parse_gcg(source)
    if isinstance(source, bytes):
        data = source
    else:
        with open(source, "rb") as f:
            data = f.read(MAX_GCG_BYTES + 1)
        if len(data) > MAX_GCG_BYTES:
            raise GCGError(f"larger than {MAX_GCG_BYTES:,} bytes: not a game record")
    text, encoding = decode_gcg(data)
    return parse_gcg(text, encoding)


def parse_gcg(text: str, encoding: str = "utf-8") -> Game:
    """Parse GCG text; GCGError with the line number for anything malformed."""
    game, nicks, in_note = Game(players=[("", ""), ("", "")], encoding=encoding), {}, False
    for n, line in enumerate(re.split(r"\r\n|\r|\n", text), 1):
        if len(line) > MAX_GCG_LINE:
            raise GCGError(f"line {n}: longer than {MAX_GCG_LINE:,} characters")
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            name, value = [*line[1:].split(None, 1), "", ""][:2]
            in_note = name == "note"
            if name == "character-encoding":
                if n != 1:
                    raise GCGError(f"line {n}: #character-encoding must be the first line")
                if value.upper() not in _ENCODINGS:
                    raise GCGError(f"line {n}: unsupported #character-encoding {value} (UTF-8 or ISO-8859-1)")
            elif name in ("player1", "player2"):
                p = int(name[-1]) - 1
                nick, full = [*value.split(None, 1), "", ""][:2]
                if not nick:
                    raise GCGError(f"line {n}: #{name} needs a nickname")
                if game.players[p][0]:
                    raise GCGError(f"line {n}: player {p + 1} is declared twice")
                if nick in nicks:
                    raise GCGError(f"line {n}: both players have the nickname {excerpt(nick)}")
                game.players[p], nicks[nick] = (nick, full or nick), p
            elif name == "note":
                add_note(game, value)
            else:
                game.pragmas.append((name, value))
        elif line.startswith(">"):
            in_note = False
            nick, colon, body = line[1:].partition(":")
            if not colon or not nick.strip():
                raise GCGError(f"line {n}: an event line must start '>nickname:'")
            if nick.strip() not in nicks:
                known = ", ".join(nicks) or "none declared"
                raise GCGError(f"line {n}: no player has the nickname {excerpt(nick.strip())} (players: {known})")
            game.events.append(_event(n, nicks[nick.strip()], body))
        elif in_note:
            add_note(game, line)
        else:
            unread = "" if game.events or any(nick for nick, _ in game.players) else \
                " (no player and no move before it: not a GCG game record?)"
            raise GCGError(f"line {n}: not a pragma (#...), an event (>...) or a #note's continuation{unread}")
    if not game.events and not any(nick for nick, _ in game.players):
        raise GCGError("no players and no moves: not a GCG game record")
    return game


def add_note(game: Game, text: str) -> None:
    """Append a note line to the last event's note (or the game's, before any event): the
    reader's rule for a ``#note`` line, and how a program records one as the game goes."""
    if game.events:
        game.events[-1].note = f"{game.events[-1].note}\n{text}".lstrip("\n")
    else:
        game.notes = f"{game.notes}\n{text}".lstrip("\n")


ADDED_WORDS = "added to this game's lexicon:"  # a #note of lexc play's add: "NICK added ...: WORD WORD"


def added_words(game: Game) -> list[str]:
    """The words a game's notes say were added to its lexicon during the game (``lexc play``'s
    ``add`` writes ``#note NICK added to this game's lexicon: WORD...``), in order."""
    words: list[str] = []
    for note in [game.notes, *(e.note for e in game.events)]:
        for line in note.split("\n"):
            head, found, tail = line.partition(ADDED_WORDS)
            if found and len(head.split()) == 1:
                words += [w for w in tail.split() if w not in words]
    return words


def _event(n: int, player: int, body: str) -> Event:
    """One event from the text after ``>nickname:``."""
    toks = body.split()
    i = next((i for i in range(len(toks) - 1) if _SCORE.match(toks[i]) and _TOTAL.match(toks[i + 1])), None)
    if i is None:
        raise GCGError(f"line {n}: no '+SCORE TOTAL' in {excerpt(body.strip())}")
    head, score, total, extra = toks[:i], int(toks[i]), int(toks[i + 1]), " ".join(toks[i + 2:])
    event = Event(n, player, "", "", score, total, extra=extra)
    if len(head) == 3 or (len(head) == 2 and _COORD.match(head[0])):
        event.kind = PLAY
        event.rack, event.position, event.word = head if len(head) == 3 else ("", *head)
    elif len(head) in (1, 2):
        event.rack, last = (head[0] if len(head) == 2 else ""), head[-1]
        kinds = {"--": PHONY, "-": PASS, "(challenge)": CHALLENGE, "(time)": TIME}
        if last in kinds:
            event.kind = kinds[last]
        elif last.startswith("-"):
            event.kind, event.tiles = EXCHANGE, last[1:]
            if not (_COUNT.match(event.tiles) or _RACK.match(event.tiles)):
                raise GCGError(f"line {n}: malformed exchange {excerpt(last)}")
        elif len(last) > 2 and last[0] == "(" and last[-1] == ")" and _RACK.match(last[1:-1]):
            penalty = score < 0 or toks[i] == "-0"  # a rack of blanks only costs -0
            event.kind, event.tiles = (END_PENALTY if penalty else END_POINTS), last[1:-1]
    if not event.kind:
        raise GCGError(f"line {n}: cannot read {excerpt(body.strip())} (expected RACK, then 8H WORD, -TILES, -, --, "
                       f"(challenge), (time) or (RACK), then +SCORE TOTAL)")
    if event.kind == PLAY and not _COORD.match(event.position):
        raise GCGError(f"line {n}: {excerpt(event.position)} is not a coordinate such as 8H or H8")
    if event.rack and not _RACK.match(event.rack):
        raise GCGError(f"line {n}: malformed rack {excerpt(event.rack)}")
    return event


# -- writing ---------------------------------------------------------------------------------

def write_gcg(game: Game) -> str:
    """GCG text for a game, UTF-8 declared on the first line: the players, the other pragmas in
    order, the game's notes, then one line per event (each followed by its ``#note`` lines).
    ``parse_gcg(write_gcg(g))`` gives back ``g`` but for the events' line numbers and
    ``encoding``; an event's ``line`` is not written."""
    out = ["#character-encoding UTF-8"]
    for n, (nick, full) in enumerate(game.players, 1):
        out.append(f"#player{n} {nick} {full}".rstrip())
    out += [f"#{name} {value}".rstrip() for name, value in game.pragmas]
    out += _note_lines(game.notes)
    for event in game.events:
        out.append(event_line(event, game.players[event.player][0]))
        out += _note_lines(event.note)
    return "\n".join(out) + "\n"


def event_line(event: Event, nick: str) -> str:
    """One ``>nick: RACK MOVE +SCORE TOTAL`` line, no rack when ``event.rack`` is empty. An
    end-rack penalty of 0 (a rack of blanks) is written ``-0``, which the reader takes for a
    penalty."""
    score = "-0" if event.kind == END_PENALTY and event.score == 0 else f"{event.score:+d}"
    fields = [f">{nick}:", event.rack, event.move(), score, str(event.total), event.extra]
    return " ".join(f for f in fields if f)


def _note_lines(note: str) -> list[str]:
    """A note as ``#note`` lines, one per line of its text (the reader joins them back with
    newlines)."""
    return [f"#note {line}".rstrip() for line in note.split("\n")] if note else []
