"""One game of a tournament, refereed: the rules decide, the bots only answer.

``play_game(task)`` is a pure function of its task (a JSON-ready dict: the game, the seats' bots, the seed and the
limits) and returns the game's record (a JSON-ready dict). The same task gives the same record on any worker, in
any order, on one core or on a cluster: the deal comes from the seed, a house bot's choices from its seed, and a
student's bot gets ``random`` seeded from the game, the seat and the move (``contract.seed_key``) in a fresh process.

A bot that forfeits (``contract.Forfeit``: an exception, an illegal answer, a timeout, a crash) loses the game: its
seat is played to the end by the house ``random`` bot (the stand-in) so the other players finish a real game,
and it is ranked last. The record says who forfeited, why, and at which move.
"""
from __future__ import annotations

import time

from ..errors import TTRError
from .contract import BotSpec, Forfeit, StudentBot, checked_action, seed_key
from .view import payload

__all__ = ["play_game", "STAND_IN", "house_seed"]

STAND_IN = "random"          # plays a forfeited seat to the end of its game


def house_seed(game_seed: int, seat: int) -> int:
    """A house bot's seed at ``seat`` in the game dealt from ``game_seed`` (``ttr-nb simulate``'s scheme: a
    game's bots get seed*100 + seat)."""
    return game_seed * 100 + seat


class _Seat:
    """Who plays one seat: a house bot, a student's bot in a process, or a student's bot in this process."""

    def __init__(self, spec: BotSpec, seat: int, task: dict):
        from ..bots import make_bot
        self.spec = spec
        self.seat = seat
        self.move_seconds = float(task["move_seconds"])
        self.house = make_bot(spec.house, house_seed(task["seed"], seat)) if spec.kind == "house" else None
        self.process = None
        self.local = None
        self.forfeit: dict | None = None
        if spec.kind != "house":
            if task.get("in_process"):
                self.local = spec
            else:
                from .sandbox import BotProcess
                self.process = BotProcess(spec, memory_mb=int(task["memory_mb"])).start()

    def ready(self) -> None:
        if self.process is not None:
            self.process.ready()
        elif self.local is not None:
            # in this process a slow move cannot be stopped, and timing it would make results depend on the
            # machine's load: no time limit here (tournaments in processes enforce it)
            self.local = StudentBot(self.local)

    def choose(self, state):
        if self.house is not None:
            return self.house.choose(state, self.seat)[0]
        if self.local is not None:
            return self.local.choose(state, self.seat)[0]
        doc = payload(state, self.seat)
        text, _ = self.process.ask(doc, seed_key(state.seed, self.seat, state.ply), self.move_seconds)
        return checked_action(state, self.seat, text, doc["legal"])

    def close(self) -> None:
        if self.process is not None:
            self.process.close()


def play_game(task: dict) -> dict:
    """Play the game ``task`` describes and return its record (see ``ttr_nb.tournament.results``)."""
    from ..bots import make_bot
    from ..variants import rules_of
    rules = rules_of(task["variant"])
    seats_of = task["seats"]                     # the tournament's bot index at each seat
    specs = [BotSpec.from_wire(b) if isinstance(b, dict) else b for b in task["seat_bots"]]    # the bot at each seat
    started = time.perf_counter()
    cpu = time.process_time()
    state = rules.new_game(task["variant"], len(seats_of), task["seed"])
    seats = [_Seat(specs[seat], seat, task) for seat in range(len(seats_of))]
    forfeits: list[dict] = []
    stand_in = {}
    actions: list[str] = []

    def forfeit(s: _Seat, f: Forfeit) -> None:
        s.forfeit = {"seat": s.seat, "bot": seats_of[s.seat], "kind": f.kind, "reason": f.reason,
                     "move": state.ply}
        forfeits.append(s.forfeit)
        s.close()
        stand_in[s.seat] = make_bot(STAND_IN, house_seed(task["seed"], s.seat))

    try:
        for s in seats:
            try:
                s.ready()
            except Forfeit as f:
                forfeit(s, f)
        while state.phase != "over":
            seat = rules.to_move(state)[0]
            s = seats[seat]
            action = None
            if s.forfeit is None:
                try:
                    action = s.choose(state)
                    state = rules.apply(state, action)
                except Forfeit as f:
                    forfeit(s, f)
                    action = None
                except TTRError as e:            # a house bot's move the rules refuse (a bot's bug): a forfeit too
                    forfeit(s, Forfeit("illegal", f"played {str(action)!r}, which the rules refuse: {e}"))
                    action = None
            if action is None:
                action = stand_in[seat].choose(state, seat)[0]
                state = rules.apply(state, action)
            actions.append(str(action))
            if len(actions) > task.get("max_moves", 100_000):     # a safety net: the rules end every game
                raise RuntimeError(f"game {task['index']} did not end after {len(actions)} moves")
    finally:
        for s in seats:
            s.close()
    sheet = rules.score(state)
    totals = [p.total for p in sheet.players]
    places = ranks(totals, list(sheet.winners), forfeits)
    out = {f["seat"] for f in forfeits}
    return {
        "index": task["index"], "deal": task["deal"], "seed": task["seed"], "variant": task["variant"],
        "seats": list(seats_of), "scores": totals, "ranks": places,
        "winners": [s for s, p in enumerate(places) if p == 1 and s not in out],
        "forfeits": forfeits, "moves": len(actions), "actions": actions,
        "seconds": round(time.perf_counter() - started, 3), "cpu": round(time.process_time() - cpu, 3),
    }


def ranks(totals: list[int], winners: list[int], forfeits: list[dict]) -> list[int]:
    """Each seat's place (1 = first; equal places share a number): the rules' winners first (their tie-breaks
    decide), then by points; a seat that forfeited comes after every seat that did not."""
    out = {f["seat"] for f in forfeits}

    def key(seat: int) -> tuple:
        return (seat in out, seat not in winners, -totals[seat])

    order = sorted(range(len(totals)), key=key)
    place = [0] * len(totals)
    for i, seat in enumerate(order):
        place[seat] = place[order[i - 1]] if i and key(order[i - 1]) == key(seat) else i + 1
    return place
