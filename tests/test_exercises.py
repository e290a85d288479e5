"""ttr_nb.exercises: right answers pass, wrong ones fail with the right feedback (rule ids), every exercise is
deterministic for its seed, and the module imports no plotting or widget library."""
from __future__ import annotations

from purity import run_blocked


import pytest

from ttr_nb import get_variant
from ttr_nb.board.actions import Claim, payment_str
from ttr_nb.board.engine import explain, legal_actions, seat_name, validate
from ttr_nb.errors import TTRError
from ttr_nb.exercises import (EXERCISES, FindLongest, IsItLegal, LegalPayments, ScoreThis, TicketDone, TunnelExtra,
                              Feedback, make_exercise)
from ttr_nb.board.scoring import score

SEEDS = range(4)
CASES = [(cls, variant) for cls in EXERCISES.values() for variant in cls.variants]


def _build(cls, seed, variant):
    return cls(seed, variant=variant)


# ---------------------------------------------------------------------------------------------- every exercise

@pytest.mark.parametrize("cls,variant", CASES, ids=[f"{c.kind}-{v}" for c, v in CASES])
def test_solution_passes_and_exercise_is_deterministic(cls, variant):
    for seed in SEEDS:
        ex = _build(cls, seed, variant)
        again = _build(cls, seed, variant)
        assert validate(ex.state) == []
        assert ex.state == again.state
        assert ex.solution() == again.solution()
        assert str(ex.prompt()) == str(again.prompt())
        fb = ex.check(ex.solution())
        assert isinstance(fb, Feedback) and fb.ok and bool(fb), fb
        ok, text = fb
        assert ok is True and text == fb.explanation and text
        assert ex.worked() == text
        assert ex.prompt().html.startswith('<div class="ttr-exercise">')
        assert f"seed {seed}" in ex.prompt()


@pytest.mark.parametrize("cls,variant", CASES, ids=[f"{c.kind}-{v}" for c, v in CASES])
def test_different_seeds_give_different_exercises(cls, variant):
    prompts = {str(_build(cls, seed, variant).prompt()).split("\n", 1)[1] for seed in range(6)}
    assert len(prompts) >= 3


def test_feedback_is_a_pair_that_is_false_when_wrong():
    fb = Feedback(False, "no (USA-CLAIM-1)", ["USA-CLAIM-1", "USA-CLAIM-1", ""])
    ok, text = fb
    assert (ok, text) == (False, "no (USA-CLAIM-1)")
    assert not fb and fb.rules == ("USA-CLAIM-1",)
    assert "Not quite" in fb._repr_html_() and "Right" in Feedback(True, "yes")._repr_html_()


def test_every_exercise_says_its_games():
    assert {v for cls in EXERCISES.values() for v in cls.variants} == {"usa", "europe", "maerklin", "south_korea", "cardgame"}
    assert TunnelExtra.variants == ("europe",)


def test_make_exercise_and_unknown_kinds():
    assert isinstance(make_exercise("score_this", 2), ScoreThis)
    with pytest.raises(TTRError):
        make_exercise("no_such_kind")
    with pytest.raises(TTRError):
        IsItLegal(0, scenario="no_such_scenario")
    with pytest.raises(TTRError):
        TunnelExtra(0, variant="usa")
    with pytest.raises(TTRError):
        LegalPayments(-1)


# ---------------------------------------------------------------------------------------------- payments

def test_legal_payments_are_the_engines_and_text_answers_work():
    ex = LegalPayments(2)
    want = [a.payment for a in legal_actions(ex.state, 0) if isinstance(a, Claim) and ex.v.map.route(a.route).id == ex.route.id]
    assert ex.legal == want and len(want) >= 2
    text = ", ".join(payment_str(p) for p in want)
    assert ex.check(text)
    assert ex.check(list(reversed(ex.solution())))              # order does not matter
    assert ex.check(set(ex.solution()))
    assert ex.check([f"claim {ex.route.id} {p}" for p in ex.solution()])
    assert ex.check(want)                                      # Payment tuples


def test_legal_payments_wrong_answers_name_the_rule():
    ex = LegalPayments(2)                 # Denver–Omaha (4, purple) with 5 purple, 4 yellow, 2 locomotives
    assert ex.route.colour != "gray"
    other = next(c for c in ("red", "yellow", "green") if c != ex.route.colour)
    ok, text = ex.check(ex.solution() + [f"{other}{ex.route.length}"])
    assert not ok and "USA-CLAIM-2" in text and "not legal" in text
    fb = ex.check(ex.solution()[:1])
    assert not fb and "missing" in fb.explanation and "USA-CLAIM-3" in fb.rules
    fb = ex.check("purple9")
    assert not fb and "USA-CLAIM-1" in fb.explanation
    fb = ex.check("claim R999 purple4")
    assert not fb and "could not read" in fb.explanation
    fb = ex.check("purple4+green")
    assert not fb and "could not read" in fb.explanation


def test_legal_payments_counts_its_payments_in_words():
    """Not "All 1 legal payments": one payment is "the only legal payment"."""
    usa = get_variant("usa")
    gray = next(r for r in usa.map.routes if r.colour == "gray" and r.length == 2 and not usa.map.twins(r.id))
    one = LegalPayments(0, "usa", route=gray.id, hand={"red": 2})
    assert one.solution() == ["red2"]
    assert str(one.check("red2")).startswith("Right. The only legal payment: red2. ")
    two = LegalPayments(0, "usa", route=gray.id, hand={"red": 2, "locomotive": 1})
    assert str(two.check(two.solution())).startswith(f"Right. All {len(two.solution())} legal payments: ")


def test_is_it_legal_mixed_colours_prompt_states_nothing_false():
    """The trap is a question, not a claim: the prompt never says that gray takes any mix of colours."""
    seeds = [s for s in range(60) if IsItLegal(s).scenario == "mixed_colours"]
    assert seeds
    for seed in seeds[:3]:
        ex = IsItLegal(seed)
        words = str(ex.prompt())
        assert "after all" not in words and "two colours" in words
        assert ex.solution() is False and "USA-CLAIM-1" in ex.check(False).explanation


def test_feedback_texts_start_their_sentence_with_a_capital():
    """After "Right." or "Not quite." the explanation is a sentence of its own: every text an exercise writes
    starts with a capital, unless it starts with a name or a payment filled in at run time."""
    import ast
    from pathlib import Path
    import ttr_nb.exercises as pkg
    lower = []
    for path in sorted(Path(pkg.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Feedback" and len(node.args) >= 2:
                text = node.args[1]
                first = text.values[0] if isinstance(text, ast.JoinedStr) and text.values else text
                if isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value[:1].islower():
                    lower.append(f"{path.name}:{node.lineno}: {first.value[:40]!r}")
    assert lower == []
    assert str(make_exercise("province_space", 13).check(7)).startswith("Not quite. Space 7 is taken")


def test_legal_payments_ferry_needs_locomotives():
    eu = get_variant("europe")
    ferry = next(r for r in eu.map.routes if r.ferry_locos == 1 and r.length == 2)
    ex = LegalPayments(0, "europe", route=ferry.id, hand={"red": 3})
    assert ex.solution() == []
    assert ex.check("none") and ex.check([])
    fb = ex.check("red2")
    assert not fb and "EU-FERRY-2" in fb.explanation
    ex2 = LegalPayments(0, "europe", route=ferry.id, hand={"red": 3, "locomotive": 2})
    assert ex2.solution() == ["red1+loco1", "loco2"]
    assert "EU-FERRY-2" in ex2.check(ex2.solution()).explanation


# ---------------------------------------------------------------------------------------------- is it legal?

@pytest.mark.parametrize("variant", ["usa", "europe"])
def test_is_it_legal_every_scenario_agrees_with_explain(variant):
    v = get_variant(variant)
    for scenario in IsItLegal.SCENARIOS_FOR(v):
        for seed in range(6):
            ex = IsItLegal(seed, variant, scenario=scenario)
            err = explain(ex.state, ex.action)
            assert ex.solution() is (err is None)
            right, wrong = ex.check(ex.solution()), ex.check(not ex.solution())
            assert right and not wrong
            if err is not None:
                assert err.rule in right.explanation and err.rule in wrong.rules
            assert ex.check("yes" if ex.solution() else "no")
            assert not ex.check("maybe")


@pytest.mark.parametrize("scenario,answer,rule", [
    ("second_faceup_loco", None, "USA-DRAW-4"),
    ("own_double_route", False, "USA-CLAIM-7"),
    ("mixed_colours", False, "USA-CLAIM-1"),
    ("two_actions", False, "USA-DRAW-1"),
    ("already_claimed", False, "USA-CLAIM-5"),
    ("first_faceup_loco", True, "USA-DRAW-3"),
    ("blind_loco", True, "USA-DRAW-4"),
])
def test_is_it_legal_teaches_the_rule(scenario, answer, rule):
    for seed in range(8):
        ex = IsItLegal(seed, scenario=scenario)
        if answer is not None:
            assert ex.solution() is answer
        fb = ex.check(ex.solution())
        if answer is not None or not ex.solution():
            assert rule in fb.explanation, fb


def test_is_it_legal_double_routes_depend_on_the_player_count():
    seen = {}
    for seed in range(20):
        ex = IsItLegal(seed, scenario="double_route")
        seen[ex.state.n_players] = ex.solution()
        if not ex.solution():
            assert "USA-CLAIM-8" in ex.check(False).explanation
    assert seen.get(4) is True and (seen.get(2) is False or seen.get(3) is False)


@pytest.mark.parametrize("scenario,rule", [("ferry_locomotives", "EU-FERRY-2"), ("station_city_taken", "EU-STATION-1"),
                                           ("station_cost", "EU-STATION-3")])
def test_is_it_legal_europe_scenarios(scenario, rule):
    answers = set()
    for seed in range(10):
        ex = IsItLegal(seed, "europe", scenario=scenario)
        answers.add(ex.solution())
        fb = ex.check(ex.solution())
        assert rule in fb.explanation, fb
    assert False in answers


def test_is_it_legal_mixes_legal_and_illegal():
    answers = [IsItLegal(seed).solution() for seed in range(40)]
    assert 8 <= sum(answers) <= 32


# ---------------------------------------------------------------------------------------------- scoring

def test_score_this_matches_score_and_diagnoses_slips():
    ex = ScoreThis(0)
    ps = score(ex.state).players[ex.seat]
    assert ex.solution() == ps.total and ex.state.phase == "over"
    assert ex.check(str(ps.total)) and ex.check(f"{ps.total} points")
    assert ps.longest_bonus == 10                      # seed 0: this player holds the bonus
    fb = ex.check(ps.total - 10)
    assert not fb and "longest-path bonus" in fb.explanation and "USA-SCORE-3" in fb.explanation
    assert f"total: {ps.total}" in fb.explanation       # the breakdown comes with it
    assert not ex.check(True) and not ex.check("lots")


def test_score_this_uncompleted_tickets_and_route_points_slips():
    ex = next(e for e in (ScoreThis(s) for s in range(20)) if any(not t.completed for t in e.player.tickets))
    ps = ex.player
    failed = sum(t.points for t in ps.tickets if not t.completed)
    fb = ex.check(ps.total + failed)
    assert not fb and "subtracted" in fb.explanation and "USA-TICKET-4" in fb.explanation
    trains = sum(ex.v.map.route(r).length for r in ps.routes)
    fb = ex.check(ps.total - ps.route_points + trains)
    assert not fb and "USA-CLAIM-9" in fb.explanation


def test_score_this_europe_counts_unbuilt_stations():
    ex = ScoreThis(1, "europe")
    ps = ex.player
    extras = dict(ps.extras)
    assert "stations not built" in extras
    fb = ex.check(ps.total - extras["stations not built"])
    assert not fb and "stations not built" in fb.explanation
    assert "stations" in ex.prompt()


# ---------------------------------------------------------------------------------------------- longest path

def test_find_longest_accepts_any_longest_trail_in_either_direction():
    ex = FindLongest(2)
    best = ex.solution()
    assert ex.check(best) and ex.check(list(reversed(best))) and ex.check(", ".join(best).lower())
    assert ex.check("; ".join(best)) and ex.check(" ".join(ex.best.routes))        # cities, or ids as before
    assert all("R0" not in r for r in best)                                          # answers name cities


def test_find_longest_wrong_answers():
    ex = FindLongest(2)
    best = ex.solution()
    fb = ex.check(best[:-1])
    assert not fb and f"longest is {ex.best.length} trains" in fb.explanation and "USA-SCORE-3" in fb.rules
    fb = ex.check(best[1:] + best[:1])
    assert not fb and "does not continue" in fb.explanation
    fb = ex.check(best + best[:1])
    assert not fb and "used twice" in fb.explanation
    other = next(r.id for r in ex.v.map.routes if ex.state.claims[r.index] != ex.seat)
    fb = ex.check([other])
    assert not fb and f"not {seat_name(ex.seat)}'s" in fb.explanation
    assert not ex.check("") and not ex.check("R999")


def test_find_longest_uses_a_mid_game_network():
    ex = FindLongest(0, routes=6)
    n = sum(1 for c in ex.state.claims if c == ex.seat)
    assert n == 6 and ex.state.phase != "over"


# ---------------------------------------------------------------------------------------------- tickets

def test_ticket_done_right_and_wrong():
    ex = TicketDone(0)
    done = ex.solution()
    assert done and len(done) < len(ex.results)         # a mix: some done, some not
    assert ex.check(", ".join(done)) and ex.check(done[::-1]) and ex.check(", ".join(d.lower() for d in done))
    assert ex.check(" ".join(t.id for t in ex.results if t.completed))          # ids work too
    fb = ex.check(done[:1])
    assert not fb and "is completed" in fb.explanation
    not_done = next(t.id for t in ex.results if not t.completed)
    fb = ex.check(done + [not_done])
    assert not fb and "not completed" in fb.explanation and "USA-TICKET-4" in fb.explanation
    fb = ex.check("T99")
    assert not fb and "T99" in fb.explanation
    stranger = next(t for t in ex.v.map.tickets if t.id not in {r.id for r in ex.results})
    fb = ex.check(f"{stranger.a}–{stranger.b}")
    assert not fb and "not among" in fb.explanation


def test_ticket_done_europe_station_borrowing_is_counted():
    ex = TicketDone(28, "europe", seat=0)     # seed 28: Blue's station in Essen borrows Red's Essen–Kobenhavn
    t = next(t for t in ex.results if t.via)
    assert f"{t.a}–{t.b}" in ex.solution()
    assert "Essen" in ex.prompt() and "EU-STATION-4" in ex.prompt()
    assert "EU-STATION-4" in ex.check(ex.solution()).explanation
    fb = ex.check([x for x in ex.solution() if x != f"{t.a}–{t.b}"])
    assert not fb and "Essen–Kobenhavn" in fb.explanation


# ---------------------------------------------------------------------------------------------- tunnels

def test_tunnel_extra_matches_the_engine():
    from ttr_nb.europe import tunnel_extra
    from ttr_nb.board.cards import CARD_NAMES
    for seed in range(12):
        ex = TunnelExtra(seed)
        kinds = [CARD_NAMES.index(c) for c in ex.revealed]
        assert ex.solution() == tunnel_extra(ex.payment, kinds)
        if ex.solution():
            assert ex.after.pending[0].get("revealed") == tuple(ex.revealed)
        assert ex.check(ex.solution()) and ex.check(str(ex.solution()))
        wrong = ex.check(ex.solution() + 1)
        assert not wrong and "EU-TUNNEL" in wrong.explanation


def test_tunnel_extra_locomotives_only_cites_eu_tunnel_3():
    ex = TunnelExtra(3, locomotives_only=True)
    assert all(k == 8 for k, _ in ex.payment)
    assert "EU-TUNNEL-3" in ex.check(ex.solution()).explanation


# ---------------------------------------------------------------------------------------------- boards, purity

def test_board_is_a_plotly_figure_with_the_highlight():
    pytest.importorskip("plotly")
    ex = LegalPayments(2)
    fig = ex.board()
    names = [t.name for t in fig.data if t.meta == "highlight:0"]
    assert names == [f"{ex.route.a}–{ex.route.b}"]
    fl = FindLongest(2)
    fig = fl.board(solution=True)
    trail = next(t for t in fig.data if t.meta == "trail")
    assert trail.visible is not False


def test_exercises_import_no_plotting_or_widgets():
    done = run_blocked("""
        from ttr_nb.exercises import EXERCISES
        for cls in EXERCISES.values():
            ex = cls(1, variant=cls.variants[-1])
            assert ex.check(ex.solution()), cls
            str(ex.prompt())
        assert not attempts, attempts
        print('ok')
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"