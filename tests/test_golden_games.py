"""Golden bot games: identical seeds give identical games, whatever happens inside the engine.

For every game (the board variants and the Card Game), player count 2 and 4 (the Card Game's second round) and the
bots random, greedy and mixed:0.5, one seeded game is played through the public protocol (``new_game``, ``to_move``,
``choose``, ``apply``) and compared with the record in ``tests/golden/bot_games.json``: the number of plies, a digest
of the action line, the final state's JSON, the final totals and the winners. One random 4-player game per game
also pins every position's legal actions and every seat's ``observe`` view (the choices the bots see and the
secrets they may not).

The record was made on main at 7728263, before the fast core, and must not change when only the speed does. It
was re-recorded once, on main at 91251a5 (unchanged code, the edges stream's rule changes merged): the Card Game's
six games (``complete done`` refused while the pile can pay, CG-END-2), and the views of Märklin's (its passengers
leave at the end of the round, MK-PASS-6) and South Korea's (the draft's words) 4-player random games; the other 22
games and every other field are byte-identical. When a
rule changes on purpose (the games then really differ), regenerate it and say so in the commit:

    .venv/bin/python tests/test_golden_games.py --write
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

RECORD = Path(__file__).parent / "golden" / "bot_games.json"
GAMES = ("usa", "europe", "maerklin", "south_korea", "cardgame")
BOTS = ("random", "greedy", "mixed:0.5")
PLAYERS = (2, 4)
SEED = 7


def _digest(items) -> str:
    h = hashlib.sha256()
    for item in items:
        h.update(item.encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()[:24]


def play(game: str, players: int, bot: str, seed: int = SEED, *, deep: bool = False) -> dict:
    """One seeded bot game through the public protocol; ``deep`` also digests every position's legal actions and
    every seat's view."""
    from ttr_nb.bots import make_bot
    from ttr_nb.board.engine import apply, legal_actions, new_game, observe, to_move
    from ttr_nb.board.scoring import score
    bots = [make_bot(bot, seed * 10 + i) for i in range(players)]
    state = new_game(game, players, seed)
    line: list[str] = []
    looks: list[str] = []
    while state.phase != "over":
        if deep:
            looks.append(" | ".join(str(a) for a in legal_actions(state)))
            looks += [json.dumps(observe(state, s), sort_keys=True) for s in range(players)]
        seat = to_move(state)[0]
        action, _ = bots[seat].choose(state, seat)
        state = apply(state, action)
        line.append(str(action))
    sheet = score(state)
    out = {"plies": len(line), "line": _digest(line), "final_state": _digest([json.dumps(state.to_dict(), sort_keys=True)]),
           "totals": [p.total for p in sheet.players], "winners": list(sheet.winners)}
    if deep:
        out["looks"] = _digest(looks)
    return out


def cases() -> list[tuple[str, int, str, bool]]:
    return [(g, n, b, b == "random" and n == 4) for g in GAMES for n in PLAYERS for b in BOTS]


def _key(game: str, players: int, bot: str) -> str:
    return f"{game}/{players}p/{bot}"


def _record() -> dict:
    return json.loads(RECORD.read_text(encoding="utf-8"))


@pytest.mark.parametrize("game,players,bot,deep", cases(), ids=[_key(*c[:3]) for c in cases()])
def test_golden_bot_game(game, players, bot, deep):
    want = _record()[_key(game, players, bot)]
    assert play(game, players, bot, deep=deep) == want


def test_the_record_covers_every_game():
    from ttr_nb.variants import available_games
    assert sorted(GAMES) == available_games()
    assert sorted(_record()) == sorted(_key(*c[:3]) for c in cases())


def main(argv: list[str]) -> int:
    if argv != ["--write"]:
        print(__doc__)
        return 2
    RECORD.parent.mkdir(exist_ok=True)
    record = {_key(g, n, b): play(g, n, b, deep=deep) for g, n, b, deep in cases()}
    RECORD.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(record)} games to {RECORD}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main(sys.argv[1:]))
