"""Fuzzing the action parser and the save loader (hypothesis strategies + the properties they must keep).

Used by tests/test_fuzz.py (a bounded, derandomized run in CI) and benchmarks/fuzz_long.py (a long run that
prints figures). The properties: nothing raises anything but a project error (``TTRError``), and nothing invalid
is accepted — a parsed action round-trips, an applied action is one ``legal_actions`` lists, a loaded save
replays to a valid position.
"""
from __future__ import annotations

import json
from functools import lru_cache

from hypothesis import strategies as st

from ttr_nb import Game
from ttr_nb.board.actions import parse_action
from ttr_nb.bots import RandomBot
from ttr_nb.board.engine import check, legal_actions, validate
from ttr_nb.errors import TTRError
from ttr_nb.board.names import route_text, ticket_text
from ttr_nb.variants import get_variant


@lru_cache(maxsize=None)
def positions() -> tuple:
    """A few seeded positions to apply fuzzed text to: setup, play, a second card owed, Europe mid-game, Märklin's
    announced ticket mix and a game with passengers, South Korea's draft and express cards, the Card Game."""
    out = []
    for variant, seed, plies in (("usa", 1, 0), ("usa", 2, 41), ("usa", 3, 120), ("europe", 4, 0), ("europe", 5, 90),
                                 ("maerklin", 6, 0), ("maerklin", 7, 60), ("south_korea", 8, 0),
                                 ("south_korea", 9, 60), ("cardgame", 10, 30)):
        g = Game(variant, 3, seed)
        g.play_bots(RandomBot(seed), max_plies=plies)
        out.append(g.state)
        for a in g.legal_actions():                 # a position with a second card owed
            if str(a).endswith("draw deck") and g.state.phase != "setup":
                g.push(a)
                out.append(g.state)
                break
    return tuple(out)


@lru_cache(maxsize=None)
def words() -> tuple[str, ...]:
    """Pieces of real action texts (verbs, seats, names in several spellings, payments) and hostile ones."""
    pieces = {"draw", "deck", "faceup", "claim", "tickets", "keep", "pass", "station", "tunnel", "pay", "withdraw",
              "red:", "blue:", "0:", "7:", "²:", "²", "٣", "1", "5", "9", "0", "10", "-1", "red3+loco1", "loco2",
              "pink1", "brown2", "gray2", "red0", "red1000", "+", "–", "-", "—", ",", "(", ")", "#2", "(gray #2)",
              "(blue)", "R001", "r099", "T24", "t03", "R999", "\x00", "\u200b", "İ", "ß", "Ω", " ", "\t", "\n",
              # Märklin, South Korea, the Card Game (issue 17: their parsers too)
              "announce", "short", "long", "place", "none", "ride", "stop", "١", "٣", "４", "+1", "+2", "+3", "+4",
              "+²", "province", "white", "draft", "pick", "yard", "track", "complete", "done", "locoplus1",
              "passenger1"}
    for key in ("usa", "europe", "maerklin", "south_korea"):
        m = get_variant(key).map
        for r in m.routes[::7]:
            text = route_text(m, r)
            pieces |= {text, text.lower(), text.replace("–", "-"), r.a, r.b, r.id}
        for t in m.tickets[::5]:
            pieces |= {ticket_text(m, t), ticket_text(m, t).upper(), t.id}
        pieces |= {c.name for c in m.cities[::6]} | {c.name.upper() for c in m.cities[::9]}
    return tuple(sorted(pieces))


def action_texts():
    """Texts built from real pieces (to reach deep into the parser) or fully arbitrary."""
    built = st.lists(st.sampled_from(words()), min_size=1, max_size=7).map(" ".join)
    return st.one_of(built, built.map(lambda t: t.replace(" ,", ",")), st.text(max_size=80))


@lru_cache(maxsize=None)
def legal_texts(i: int) -> tuple[str, ...]:
    return tuple(str(a) for a in legal_actions(positions()[i]))


_SPELLINGS = (str, str.lower, str.upper, lambda t: t.replace("–", "-"), lambda t: t.replace("–", " — "),
              lambda t: "  ".join(t.split(" ")), lambda t: t.replace(",", " ,"), lambda t: t.split(": ", 1)[-1])


@st.composite
def cases(draw):
    """(position index, text): a legal action of that position spelt another way, one pieced together from
    real words, or arbitrary text."""
    i = draw(st.integers(0, len(positions()) - 1))
    kind = draw(st.integers(0, 2))
    if kind == 0 and legal_texts(i):
        text = draw(st.sampled_from(legal_texts(i)))
        text = draw(st.sampled_from(_SPELLINGS))(text)
        if draw(st.booleans()):                   # and perhaps one word changed
            parts = text.split(" ")
            parts[draw(st.integers(0, len(parts) - 1))] = draw(st.sampled_from(words()))
            text = " ".join(parts)
        return i, text
    return i, draw(action_texts())


def check_action_text(state, text: str) -> str:
    """The parser/engine property for one text; returns what happened (for the long run's figures)."""
    try:
        a = parse_action(text)
    except TTRError:
        return "refused by the parser"
    assert parse_action(str(a)) == a, f"{text!r} does not round-trip: {str(a)!r}"
    try:
        canonical, _seat = check(state, a)
    except TTRError:
        return "refused by the rules"
    legal = legal_actions(state)
    assert canonical in legal, f"{text!r} was accepted as {canonical} but legal_actions does not list it"
    assert parse_action(str(canonical)) == canonical
    return "accepted"


@lru_cache(maxsize=None)
def save_doc() -> str:
    g = Game("usa", 3, 6)
    g.play_bots(RandomBot(6), max_plies=30)
    g.undo()
    g.undo()
    g.push(str(g.legal_actions()[-1]))          # a variation
    return json.dumps(g.to_dict())


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12)


@st.composite
def save_texts(draw):
    """A real save file, damaged: fields replaced, removed or added, actions edited, bytes cut or flipped."""
    doc = json.loads(save_doc())
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["replace", "remove", "add", "action", "variation", "cut", "flip"]))
        if how == "replace":
            doc[draw(st.sampled_from(sorted(doc)))] = draw(json_values)
        elif how == "remove" and doc:
            doc.pop(draw(st.sampled_from(sorted(doc))))
        elif how == "add":
            doc[draw(st.text(max_size=8))] = draw(json_values)
        elif how == "action" and isinstance(doc.get("actions"), list) and doc["actions"]:
            i = draw(st.integers(0, len(doc["actions"]) - 1))
            doc["actions"][i] = draw(action_texts())
        elif how == "variation" and isinstance(doc.get("variations"), list):
            doc["variations"].append({"parted_at": draw(st.integers(-2, 40)),
                                      "actions": draw(st.lists(action_texts(), max_size=4))})
        elif how in ("cut", "flip"):
            text = json.dumps(doc)
            i = draw(st.integers(0, len(text) - 1))
            return text[:i] if how == "cut" else text[:i] + draw(st.sampled_from('{}[]",:0x\x00\\')) + text[i + 1:]
    return json.dumps(doc)


@lru_cache(maxsize=None)
def start_save_doc() -> str:
    """A Märklin save of an edited position (stored whole under "start"), with passengers and goods taken."""
    from ttr_nb.board.positions import position
    s = position("maerklin", players=3, seed=4, passengers={0: ["Berlin"], 1: ["Leipzig"]},
                 claims={"Berlin–Leipzig": 0})
    g = Game(start=s)
    g.push("ride Berlin–Leipzig")
    g.push("stop")
    return json.dumps(g.to_dict())


@st.composite
def feature_save_texts(draw):
    """That save with its feature data damaged: a key of the table's or a player's data replaced by any JSON value,
    removed, or another key added (another game's, or junk)."""
    doc = json.loads(start_save_doc())
    start = doc["start"]
    for _ in range(draw(st.integers(1, 3))):
        ext = start["ext"] if draw(st.booleans()) else start["players"][draw(st.integers(0, 2))]["ext"]
        how = draw(st.sampled_from(["replace", "remove", "add"]))
        if how == "replace" and ext:
            ext[draw(st.sampled_from(sorted(ext)))] = draw(json_values)
        elif how == "remove" and ext:
            ext.pop(draw(st.sampled_from(sorted(ext))))
        else:
            ext[draw(st.sampled_from(["stations", "express", "province", "junk", "moved", "goods", "passengers"]))] = \
                draw(json_values)
    return json.dumps(doc)


def check_save_text(path, text: str) -> str:
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        g = Game.load(path)
    except TTRError:
        return "refused"
    assert validate(g.state) == [], f"a loaded save holds an invalid position: {validate(g.state)}"
    for p in g.line:
        assert parse_action(p.text) == p.action
    return "loaded"
