"""Action text: ``str(action)`` and ``parse_action(text)`` round-trip for every action kind (seat prefixes
included); malformed text gives ``BadAction`` with a message that says what is wrong; and the random streams
are pinned, so a change of shuffle algorithm (which would silently change every saved game) is caught.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_nb import new_game
from ttr_nb.board.actions import (Action, Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, Pass, parse_action,
                            payment_from_counts)
from ttr_nb.board.cards import CARD_NAMES, COLOURS, LOCO, PLAYER_COLOURS
from ttr_nb.errors import BadAction, TTRError
from ttr_nb.rng import Counter, choice_index, shuffled, stream

RED = COLOURS.index("red")
PURPLE = COLOURS.index("purple")


# ------------------------------------------------------------------------------------------------ round trips

ROUND_TRIPS = [
    ("draw deck", DrawDeck()),
    ("draw faceup 1", DrawFaceUp(slot=1)),
    ("draw faceup 5", DrawFaceUp(slot=5)),
    ("claim R042 red3+loco1", Claim(route="R042", payment=((RED, 3), (LOCO, 1)))),
    ("claim R001 purple2", Claim(route="R001", payment=((PURPLE, 2),))),
    ("claim R099 loco6", Claim(route="R099", payment=((LOCO, 6),))),
    ("tickets", DrawTickets()),
    ("keep T04", KeepTickets(tickets=("T04",))),
    ("keep T04 T11 T02", KeepTickets(tickets=("T04", "T11", "T02"))),
    ("pass", Pass()),
    ("blue: draw deck", DrawDeck(seat=0)),
    ("red: draw faceup 3", DrawFaceUp(slot=3, seat=1)),
    ("green: claim R010 yellow1", Claim(route="R010", payment=((COLOURS.index("yellow"), 1),), seat=2)),
    ("yellow: tickets", DrawTickets(seat=3)),
    ("black: keep T01 T30", KeepTickets(tickets=("T01", "T30"), seat=4)),
    ("black: pass", Pass(seat=4)),
    ("5: draw deck", DrawDeck(seat=5)),        # seats past the five colours are written as numbers
    ("7: keep T01", KeepTickets(tickets=("T01",), seat=7)),
]


@pytest.mark.parametrize("text,action", ROUND_TRIPS, ids=[t for t, _ in ROUND_TRIPS])
def test_canonical_text_round_trips(text, action):
    assert str(action) == text
    assert parse_action(text) == action
    assert str(parse_action(str(action))) == text


@pytest.mark.parametrize("text,canonical", [
    ("  BLUE :  Draw   Deck  ", "blue: draw deck"),
    ("0: draw deck", "blue: draw deck"),
    ("4: tickets", "black: tickets"),
    ("Draw FaceUp 2", "draw faceup 2"),
    ("claim r042 Red3+LOCO1", "claim R042 red3+loco1"),
    ("claim R042 loco1+red3", "claim R042 red3+loco1"),          # terms are put in card order
    ("claim R001 pink2", "claim R001 purple2"),                    # pink is the purple cards' other name
    ("claim R001 locomotive2", "claim R001 loco2"),
    ("keep t04 t11", "keep T04 T11"),
    ("red:keep T01", "red: keep T01"),
    ("PASS", "pass"),
])
def test_lenient_spellings_parse_to_the_canonical_action(text, canonical):
    action = parse_action(text)
    assert str(action) == canonical
    assert parse_action(canonical) == action


def test_parse_action_passes_actions_through():
    a = Claim(route="R001", payment=((RED, 2),), seat=1)
    assert parse_action(a) is a


def test_every_colour_and_seat_round_trips():
    for kind, name in enumerate(CARD_NAMES):
        for seat in (None, *range(len(PLAYER_COLOURS)), 6):
            a = Claim(route="R007", payment=((kind, 2),), seat=seat)
            assert parse_action(str(a)) == a, str(a)
            assert (name if kind != LOCO else "loco") in str(a)


_ids = st.from_regex(r"\A[A-Z][A-Z0-9_-]{0,15}\Z")
_payments = st.dictionaries(st.integers(0, LOCO), st.integers(1, 999), min_size=1, max_size=4).map(payment_from_counts)
_seats = st.none() | st.integers(0, 12)
_actions = st.one_of(
    st.builds(DrawDeck, seat=_seats),
    st.builds(DrawFaceUp, slot=st.integers(1, 5), seat=_seats),
    st.builds(Claim, route=_ids, payment=_payments, seat=_seats),
    st.builds(DrawTickets, seat=_seats),
    st.builds(KeepTickets, tickets=st.lists(_ids, min_size=1, max_size=6, unique=True).map(tuple), seat=_seats),
    st.builds(Pass, seat=_seats),
)


@settings(max_examples=300, deadline=None)
@given(_actions)
def test_property_str_parse_round_trip(action):
    text = str(action)
    back = parse_action(text)
    assert back == action
    assert str(back) == text
    assert isinstance(back, Action)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_property_parse_never_fails_with_anything_but_bad_action(text):
    try:
        action = parse_action(text)
    except BadAction as e:
        assert str(e)
    else:
        assert parse_action(str(action)) == action


# ------------------------------------------------------------------------------------------------ malformed text

MALFORMED = [
    ("", "empty action"),
    ("   ", "empty action"),
    ("jump 3", "unknown action 'jump'"),
    ("draw", "draw deck"),
    ("draw deck 2", "draw deck"),
    ("draw faceup x", "face-up card number"),
    ("draw faceup 0", "1–5"),
    ("draw faceup -1", "face-up card number"),
    ("claim R1", "claim ROUTE PAYMENT"),
    ("claim", "claim ROUTE PAYMENT"),
    ("claim R001 red2 extra", "claim ROUTE PAYMENT"),
    ("claim 001 red2", "is not a route id"),
    ("claim R001 red0", "count of 0"),
    ("claim R001 red", "cannot read payment term"),
    ("claim R001 red-1", "cannot read payment term"),
    ("claim R001 red1000", "cannot read payment term"),
    ("claim R001 red2+", "cannot read payment term"),
    ("claim R001 mauve2", "unknown card 'mauve'"),
    ("claim R001 purple2+purple1", "appears twice"),
    ("claim R001 purple2+pink1", "appears twice"),
    ("keep T01 T01", "named twice"),
    ("keep T01 t01", "named twice"),
    ("keep T01 *", "not a ticket id"),
    ("tickets T01", "takes nothing"),
    ("pass now", "takes nothing"),
    ("blue draw", "unknown action 'blue'"),
    ("mauve: draw deck", "'mauve' is not a seat"),
    (": draw deck", "is not a seat"),
    ("blue:", "empty action"),
]


@pytest.mark.parametrize("text,fragment", MALFORMED, ids=[repr(t) for t, _ in MALFORMED])
def test_malformed_text_is_a_bad_action_that_says_why(text, fragment):
    with pytest.raises(BadAction) as ei:
        parse_action(text)
    msg = str(ei.value)
    assert fragment in msg, msg
    assert repr(text) in msg, f"the message should quote the input: {msg}"
    assert isinstance(ei.value, TTRError) and isinstance(ei.value, ValueError)


def test_keep_with_no_tickets_parses_so_the_rules_can_say_how_many_to_keep():
    from ttr_nb import Game, IllegalAction
    assert str(parse_action("keep")) == "keep" and parse_action("keep").tickets == ()
    g = Game("usa", 2, 1)
    with pytest.raises(IllegalAction) as ei:
        g.push("blue: keep")
    assert ei.value.rule == "USA-SETUP-3" and "at least 2" in str(ei.value)
    assert g.ply == 0


def test_every_error_has_a_rule_attribute():
    assert BadAction("x").rule is None and TTRError("y").rule is None


def test_unknown_verb_lists_the_known_ones():
    msg = str(pytest.raises(BadAction, parse_action, "fly R001").value)
    for verb in ("claim", "draw", "keep", "pass", "tickets"):
        assert verb in msg


def test_ten_thousand_characters_is_refused_quickly():
    text = "draw " + "x" * 10_000
    with pytest.raises(BadAction, match="too long"):
        parse_action(text)
    msg = str(pytest.raises(BadAction, parse_action, "keep " + "T01 " * 3000).value)
    assert "too long" in msg and len(msg) < 200          # the message does not echo 10k characters


@pytest.mark.parametrize("value", [42, None, b"draw deck", ["draw", "deck"], 3.5, {"verb": "draw"}],
                         ids=lambda v: type(v).__name__)
def test_non_text_input_is_a_bad_action(value):
    with pytest.raises(BadAction, match="must be text") as ei:
        parse_action(value)
    assert type(value).__name__ in str(ei.value)


# ------------------------------------------------------------------------------------------------ reproducible randomness

def test_shuffled_order_is_pinned():
    # If these change, every saved game and every seed in the notebooks changes: only ever on purpose.
    assert shuffled(list(range(20)), 7, "deck", 0) == [0, 9, 1, 15, 5, 3, 6, 4, 18, 2, 12, 19, 13, 7, 14, 16, 17, 11, 8, 10]
    assert shuffled(list(range(20)), 7, "deck", 1) == [11, 10, 19, 15, 6, 9, 12, 5, 7, 8, 16, 3, 17, 0, 1, 4, 2, 18, 13, 14]
    assert shuffled(list(range(20)), 2**63 - 1, "deck", 0) == [10, 2, 17, 8, 13, 11, 4, 18, 15, 3, 14, 0, 5, 19, 16, 9, 1, 12, 6, 7]
    assert shuffled(list("abcdefghij"), "x", "tickets/regular", 3) == list("ecaghfjbdi")
    assert shuffled([], 1, "x") == [] and shuffled([5], 1, "x") == [5]
    assert stream(7, "deck", 0).random().hex() == "0x1.1807f1685a50cp-1"


def test_shuffled_is_a_pure_function():
    items = list(range(50))
    a = shuffled(items, 123, "deck", 4)
    assert a == shuffled(items, 123, "deck", 4)
    assert items == list(range(50))                       # the input is not touched
    assert sorted(a) == items
    assert a != shuffled(items, 124, "deck", 4)
    assert a != shuffled(items, 123, "deck", 5)
    assert a != shuffled(items, 123, "tickets", 4)


def test_counter_stream_is_pinned():
    c = Counter(1, 2, 3)
    assert [c.random() for _ in range(3)] == [0.9103127507274519, 0.7515800001932321, 0.16455716540265158]
    c = Counter(0)
    assert [c.index(10) for _ in range(10)] == [1, 4, 6, 5, 3, 5, 3, 2, 2, 4]
    assert Counter().random().hex() == "0x1.0d575c42e2811p-1"
    # keys are reduced to 64 bits: huge and negative keys are fine and still reproducible
    assert Counter(-1, 2**70).random() == Counter(-1, 2**70).random()
    assert Counter(1, 2).random() != Counter(2, 1).random()


def test_counter_at_a_precomputed_base_is_the_counter_of_the_whole_key():
    """RandomBot sums a decision key's fixed part (its seed, seat and the game's seed) once (Counter.base) and adds
    the ply per decision (Counter.at): the very stream of Counter(seed, seat, ply, game seed), negative and huge
    parts included."""
    from ttr_nb.rng import fold
    for seed, seat, ply, game in [(0, 0, 0, 0), (7, 3, 291, 12345), (-1, 2, 2**70, 2**63 - 1), (5, 1, -4, 9)]:
        at = Counter.at(Counter.base(fold(seed, seat), game), ply)
        whole = Counter(seed, seat, ply, game)
        assert [at.index(1000) for _ in range(5)] == [whole.index(1000) for _ in range(5)]
        assert Counter.resume(fold(seed, seat), ply, game).random() == Counter(seed, seat, ply, game).random()


def test_counter_state_is_public_read_only_and_resumes_the_stream():
    """Counter.state: where the counter stands now (RandomBot continues its integer draws from it after a
    variant's own action drew from a Counter); Counter.of_state(c.state) draws what c draws next; it cannot be set."""
    c = Counter(3, 1, 40, 7)
    c.index(5)
    same = Counter.of_state(c.state)
    assert [same.index(97) for _ in range(6)] == [c.index(97) for _ in range(6)]
    assert same.state == c.state and same.state != Counter(3, 1, 40, 7).state
    with pytest.raises(AttributeError):
        c.state = 0


def test_counter_skip_leaves_the_counter_where_the_draws_would():
    """Counter.skip(n): the next draws are the ones after n draws of any kind (index or random)."""
    for n in (0, 1, 2, 7):
        drawn, skipped = Counter(5, 8, 13), Counter(5, 8, 13)
        for k in range(n):
            drawn.index(3 + k) if k % 2 else drawn.random()
        skipped.skip(n)
        assert skipped.state == drawn.state and skipped.index(1000) == drawn.index(1000)
    assert Counter(5, 8, 13).index(1000) != Counter.of_state(skipped.state).index(1000)


def test_choice_index_bounds():
    c = Counter(9)
    assert all(0 <= choice_index(c, 3) < 3 for _ in range(1000))
    with pytest.raises(ValueError):
        choice_index(c, 0)


def test_new_game_deal_is_pinned():
    # The USA deck for seed 0: a change here means old game records no longer replay.
    s = new_game("usa", 2, 0)
    assert [CARD_NAMES[c] for c in s.deck[:8]] == ["orange", "purple", "locomotive", "red", "purple", "orange",
                                                   "black", "locomotive"]
    assert [CARD_NAMES[c] for c in s.market] == ["yellow", "yellow", "yellow", "white", "red"]
    assert s.pending[0].get("offered") == ("T04", "T02", "T21")
    assert new_game("usa", 2, 0) == s
    assert new_game("usa", 2, 1).deck != s.deck
