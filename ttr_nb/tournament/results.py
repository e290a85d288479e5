"""A tournament's results: its records, kept as JSON lines; ratings, win rates, a table; any game replayed.

The file (``--out``) starts with one header line (the tournament: game, players, deals, seed, limits, and each
bot's name and code digest), then one line per finished game, written and flushed as the game ends. A record
holds the game's index, deal and seed, the bot at each seat, the final scores and places, who forfeited (kind,
reason, move) and every action in order, so ``Results.game(i)`` rebuilds the game move by move for a
``HistoryView`` without running any bot again.

Ratings come from ``openskill`` (Plackett–Luce, for games of two or more players), updated game by game in the
order of the schedule, never in the order games happened to finish: the same tournament gives the same table on
one core, on many, or on a cluster. Win rates carry a 95% Wilson score interval.
"""
from __future__ import annotations

import html
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..errors import TTRError
from .contract import FORFEIT_KINDS

__all__ = ["Results", "Standing", "wilson", "ResultsFile", "ratings"]

FORMAT = "ttr-nb tournament 1"



def wilson(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate ``wins`` / ``n`` (0, 1 for no games)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def ratings(n_bots: int, records: Iterable[dict]) -> list[tuple[float, float]] | None:
    """(mu, sigma) of each bot after ``records`` in their order (openskill's Plackett–Luce); None without
    openskill."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    current = [model.rating(name=str(i)) for i in range(n_bots)]
    for r in records:
        teams = [[current[b]] for b in r["seats"]]
        for b, (new,) in zip(r["seats"], model.rate(teams, ranks=list(r["ranks"]))):
            current[b] = new
    return [(x.mu, x.sigma) for x in current]


@dataclass(frozen=True)
class Standing:
    """One bot's line of the table."""

    bot: str
    games: int
    wins: int
    win_low: float
    win_high: float
    mean_score: float
    mean_place: float
    forfeits: dict            # kind -> count
    mu: float | None = None
    sigma: float | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def rating(self) -> float | None:
        """The conservative rating mu - 3 sigma (a bot is ranked by it), None without openskill."""
        return None if self.mu is None else self.mu - 3 * self.sigma

    @property
    def forfeit_count(self) -> int:
        return sum(self.forfeits.values())


class Results:
    """The records of a tournament (finished games, in schedule order) and what follows from them."""

    def __init__(self, header: dict, records: Sequence[dict], note: str = "", *, resumed: int = 0, workers: int = 0):
        self.header = header
        self.note = note                  # e.g. what resuming its file had to repair
        self.resumed = resumed            # games found finished in the file, not played again
        self.workers = workers            # local referee processes that played (0: this process or a cluster)
        self.records = sorted(records, key=lambda r: r["index"])
        self.bots: list[str] = [b["name"] for b in header["bots"]]

    # -- numbers ---------------------------------------------------------------------------------------------
    @property
    def variant(self) -> str:
        return self.header["variant"]

    @property
    def complete(self) -> bool:
        return len(self.records) == self.header["games"]

    def standings(self) -> list[Standing]:
        """One line per bot, best first: by rating (with openskill), else by win rate, then mean place."""
        n = len(self.bots)
        games = [0] * n
        wins = [0] * n
        score = [0.0] * n
        place = [0.0] * n
        forfeits: list[dict] = [{} for _ in range(n)]
        for r in self.records:
            for seat, b in enumerate(r["seats"]):
                games[b] += 1
                score[b] += r["scores"][seat]
                place[b] += r["ranks"][seat]
                if seat in r["winners"]:
                    wins[b] += 1
            for f in r["forfeits"]:
                forfeits[f["bot"]][f["kind"]] = forfeits[f["bot"]].get(f["kind"], 0) + 1
        rated = ratings(n, self.records)
        rows = []
        for b in range(n):
            g = games[b]
            lo, hi = wilson(wins[b], g)
            mu, sigma = rated[b] if rated else (None, None)
            rows.append(Standing(self.bots[b], g, wins[b], lo, hi, score[b] / g if g else 0.0,
                                 place[b] / g if g else 0.0, dict(sorted(forfeits[b].items())), mu, sigma))
        if rated:
            return sorted(rows, key=lambda s: (-s.rating, s.mean_place, s.bot))
        return sorted(rows, key=lambda s: (-s.win_rate, s.mean_place, s.bot))

    def forfeits(self) -> list[dict]:
        """Every forfeit: game index, deal, bot name, kind, reason, move."""
        return [{"game": r["index"], "deal": r["deal"], "bot": self.bots[f["bot"]], "seat": f["seat"],
                 "kind": f["kind"], "reason": f["reason"], "move": f["move"]}
                for r in self.records for f in r["forfeits"]]

    def win_rate(self, bot: str) -> tuple[float, float, float]:
        """(rate, low, high) of one bot, by name."""
        for s in self.standings():
            if s.bot == bot:
                return s.win_rate, s.win_low, s.win_high
        raise TTRError(f"no bot {bot!r} in this tournament; its bots: {', '.join(self.bots)}")

    # -- words -----------------------------------------------------------------------------------------------
    def title(self) -> str:
        from ..variants import get_game
        h = self.header
        return (f"{get_game(h['variant']).name}, {h['players']} players: {len(self.records)} of {h['games']} games "
                f"({h['deals']} deal{'s' if h['deals'] != 1 else ''} from seed {h['seed']}, every table in every seat)")

    def table(self) -> str:
        """The standings as a text table (the CLI prints it)."""
        rows = self.standings()
        rated = bool(rows) and rows[0].rating is not None
        head = ["#", "bot", *(["rating", "mu ± sigma"] if rated else []), "games", "wins", "win rate (95% interval)",
                "mean score", "mean place", "forfeits"]
        lines = [head]
        for i, s in enumerate(rows, 1):
            cells = [str(i), s.bot]
            if rated:
                cells += [f"{s.rating:.1f}", f"{s.mu:.1f} ± {s.sigma:.1f}"]
            cells += [str(s.games), str(s.wins), f"{100 * s.win_rate:.0f}% ({100 * s.win_low:.0f}–{100 * s.win_high:.0f}%)",
                      f"{s.mean_score:.1f}", f"{s.mean_place:.2f}",
                      ", ".join(f"{n} {k}" for k, n in s.forfeits.items()) or "-"]
            lines.append(cells)
        widths = [max(len(r[c]) for r in lines) for c in range(len(head))]
        right = {0, *range(2, len(head) - 1)} - {1}
        out = [self.title()]
        for r in lines:
            out.append("  ".join(cell.rjust(w) if c in right else cell.ljust(w)
                                 for c, (cell, w) in enumerate(zip(r, widths))).rstrip())
        if not rated:
            out.append("(ratings need openskill: pip install 'ttr-nb[tournament]')")
        return "\n".join(out)

    def forfeits_text(self) -> str:
        """The forfeits in words, one line per bot and kind, with the first one's reason."""
        items = self.forfeits()
        if not items:
            return "No forfeits."
        groups: dict[tuple[str, str], list[dict]] = {}
        for f in items:
            groups.setdefault((f["bot"], f["kind"]), []).append(f)
        lines = [f"{len(items)} forfeit{'s' if len(items) != 1 else ''}:"]
        for (bot, kind), fs in groups.items():
            first = fs[0]
            lines.append(f"  {bot}: {len(fs)} × {kind} ({FORFEIT_KINDS.get(kind, kind)}); first in game {first['game']} "
                         f"at move {first['move']}: {first['reason']}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def _repr_pretty_(self, p, cycle) -> None:
        p.text(self.table())

    def _repr_html_(self) -> str:
        rows = self.standings()
        rated = bool(rows) and rows[0].rating is not None
        head = ["#", "bot", *(["rating", "mu ± sigma"] if rated else []), "games", "wins",
                "win rate (95% interval)", "mean score", "forfeits"]
        body = []
        for i, s in enumerate(rows, 1):
            cells = [i, s.bot, *([f"{s.rating:.1f}", f"{s.mu:.1f} ± {s.sigma:.1f}"] if rated else []), s.games,
                     s.wins, f"{100 * s.win_rate:.0f}% ({100 * s.win_low:.0f}–{100 * s.win_high:.0f}%)",
                     f"{s.mean_score:.1f}", ", ".join(f"{n} {k}" for k, n in s.forfeits.items()) or "-"]
            body.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells) + "</tr>")
        return (f"<div class=\"ttr-tournament\"><p>{html.escape(self.title())}</p><table><thead><tr>"
                + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead><tbody>" + "".join(body)
                + "</tbody></table></div>")

    # -- games -----------------------------------------------------------------------------------------------
    def record(self, index: int) -> dict:
        for r in self.records:
            if r["index"] == index:
                return r
        raise TTRError(f"no finished game {index} in this tournament (games 0–{self.header['games'] - 1}; "
                       f"{len(self.records)} finished)")

    def game(self, index: int):
        """Game ``index`` rebuilt move by move from its seed and actions (a ``ttr_nb.Game``: step through it in a
        ``HistoryView``)."""
        from ..game import Game
        r = self.record(index)
        game = Game(r["variant"], len(r["seats"]), r["seed"])
        game.push_many(r["actions"])
        return game

    def seat_names(self, index: int) -> list[str]:
        """Who played each seat of game ``index`` ('Blue: first', ...)."""
        from ..board.engine import seat_name
        r = self.record(index)
        return [f"{seat_name(s)}: {self.bots[b]}" for s, b in enumerate(r["seats"])]

    def games_of(self, bot: str) -> list[int]:
        """The indexes of the games ``bot`` played."""
        if bot not in self.bots:
            raise TTRError(f"no bot {bot!r} in this tournament; its bots: {', '.join(self.bots)}")
        ids = {i for i, name in enumerate(self.bots) if name == bot}
        return [r["index"] for r in self.records if ids & set(r["seats"])]

    def lost_games(self, bot: str, against: str | None = None) -> list[int]:
        """The indexes of the games ``bot`` did not win (only those with ``against`` at the table, if given)."""
        ids = {i for i, name in enumerate(self.bots) if name == bot}
        other = None if against is None else {i for i, name in enumerate(self.bots) if name == against}
        if not ids or other == set():
            raise TTRError(f"no bot {bot if not ids else against!r} in this tournament; its bots: {', '.join(self.bots)}")
        out = []
        for r in self.records:
            seats = [s for s, b in enumerate(r["seats"]) if b in ids]
            if seats and (other is None or other & set(r["seats"])) and not set(seats) & set(r["winners"]):
                out.append(r["index"])
        return out

    def chart(self):
        """Plotly figures of the standings (ratings and win rates with their intervals); see
        ``ttr_nb.render.tournament``."""
        from ..render.tournament import standings_figure
        return standings_figure(self)


# ----------------------------------------------------------------------------------------------- the file

class ResultsFile:
    """The JSON-lines file of a tournament: created with its header, or resumed when the header matches."""

    def __init__(self, path: str | os.PathLike, header: dict):
        self.path = Path(path)
        self.header = header
        self.records: list[dict] = []
        self.note = ""
        if self.path.is_dir():
            raise TTRError(f"--out {self.path}: is a folder; give a file name, e.g. results.jsonl")
        if self.path.exists() and self.path.stat().st_size:
            self._resume()
        else:
            folder = self.path.parent if str(self.path.parent) else Path(".")
            if not folder.is_dir():
                raise TTRError(f"--out {self.path}: the folder {folder} does not exist (create it first)")
            self._write_line(header, mode="w")

    def _resume(self) -> None:
        text = self.path.read_text(encoding="utf-8")
        lines = text.split("\n")
        try:
            old = json.loads(lines[0])
        except ValueError:
            raise TTRError(f"--out {self.path}: the file exists and is not a ttr-nb tournament's results; "
                           "choose another file (it is left as it is)") from None
        if not isinstance(old, dict) or old.get("format") != FORMAT:
            raise TTRError(f"--out {self.path}: the file exists and is not a ttr-nb tournament's results; "
                           "choose another file (it is left as it is)")
        differ = [k for k in sorted(set(old) | set(self.header)) if old.get(k) != self.header.get(k)]
        if differ:
            raise TTRError(f"--out {self.path} holds another tournament ({', '.join(differ)} differ"
                           f"{_bot_changes(old, self.header) if 'bots' in differ else ''}); to resume it, run the "
                           "same command with the same bot files, else choose another file (it is left as it is)")
        good = len(lines[0]) + 1
        seen = set()
        for line in lines[1:]:
            if not line.strip():
                good += len(line) + 1
                continue
            try:
                r = json.loads(line)
                if not isinstance(r, dict) or not isinstance(r.get("index"), int):
                    raise ValueError
            except ValueError:
                break                              # a line cut by an interruption: the game is played again
            if r["index"] not in seen:
                seen.add(r["index"])
                self.records.append(r)
            good += len(line) + 1
        if good < len(text):
            cut = text[good:]
            self.note = f"dropped an unfinished last line ({len(cut)} characters) left by an interruption"
            with open(self.path, "r+", encoding="utf-8") as f:
                f.seek(0)
                f.write(text[:good])
                f.truncate()
        if not text.endswith("\n") and not self.note:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write("\n")

    def _write_line(self, doc: dict, mode: str = "a") -> None:
        with open(self.path, mode, encoding="utf-8") as f:
            f.write(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def add(self, record: dict) -> None:
        """Append one finished game (flushed to disk before this returns)."""
        self._write_line(record)
        self.records.append(record)


def _bot_changes(old: dict, new: dict) -> str:
    a = {b["name"]: b["digest"] for b in old.get("bots", [])}
    b = {x["name"]: x["digest"] for x in new.get("bots", [])}
    changed = sorted(n for n in a.keys() & b.keys() if a[n] != b[n])
    parts = []
    if changed:
        parts.append(f"changed code: {', '.join(changed)}")
    if a.keys() - b.keys() or b.keys() - a.keys():
        parts.append(f"bots then: {', '.join(a)}; now: {', '.join(b)}")
    return ": " + "; ".join(parts) if parts else ""


def load_results(path: str | os.PathLike) -> Results:
    """The results in a tournament's JSON-lines file (finished games only)."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise TTRError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        header = json.loads(lines[0]) if lines else None
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise TTRError(f"{path} is not a ttr-nb tournament's results file")
    records = {}
    for line in lines[1:]:
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if isinstance(r, dict) and isinstance(r.get("index"), int):
            records.setdefault(r["index"], r)
    return Results(header, list(records.values()))


__all__ += ["load_results", "FORMAT"]
