"""ttr_nb.compare: the variant comparison is generated from the variants' data (settings, features, maps)."""
from __future__ import annotations

from purity import run_blocked

from dataclasses import replace

import pytest

from ttr_nb import get_variant
from ttr_nb.compare import Comparison, as_html, as_markdown, compare_variants, interpretations, interpretations_html

USA = get_variant("usa")
EU = get_variant("europe")


@pytest.fixture(scope="module")
def table() -> Comparison:
    return compare_variants("usa", "europe")


def test_points_row_shows_8_to_21_for_europe_only(table):
    row = table["route points"]
    usa, eu = row.values
    assert "8→21" in eu and "8→21" not in usa
    assert "5→10" in usa and "5→10" not in eu          # Europe has no length-5 routes (EU-CLAIM-2)
    assert row.rules == ("USA-CLAIM-9", "EU-CLAIM-2/USA-CLAIM-9")
    assert not row.same


def test_rows_come_from_the_settings(table):
    st_u, st_e = USA.settings, EU.settings
    assert table["trains per player"].values == (str(st_u.trains), str(st_e.trains))
    assert table["trains per player"].same
    # a copy under a new (unregistered) key compares too: no row needs to play it
    renamed = compare_variants("usa", replace(EU, key="house-rules", settings=replace(EU.settings, trains=50)))
    assert renamed["trains per player"].values == ("45", "50")
    assert renamed["other score lines"].values == table["other score lines"].values
    assert table["setup tickets"].values == ("deal 3 regular, keep at least 2", "deal 1 long + 3 regular, keep at least 2")
    returned = table["returned setup tickets"].values
    assert "bottom" in returned[0] and "out of the game" in returned[1]
    assert table["undealt tickets"].values[1] == "the undealt long tickets leave the game"
    assert table["end trigger"].same and table["end trigger"].values[0].startswith(f"{st_u.end_trains} or fewer")
    assert "fewest stations built" in table["tie-breaks"].values[1]
    assert "fewest stations built" not in table["tie-breaks"].values[0]


def test_features_and_actions(table):
    usa, eu = table["turn choices"].values
    assert "build a train station" in eu and "station" not in usa
    assert "tunnel" in table["steps inside a turn"].values[1]
    mech = table["special routes and mechanics"].values
    assert mech[0] == "—"
    assert all(rule in mech[1] for rule in ("EU-FERRY", "EU-TUNNEL", "EU-STATION"))
    # the station bonus in the words the scoring feature builds from its own number (EU-STATION-6), and the book's
    # word beside ttr_nb's reading of it
    from ttr_nb.games.europe import STATION_BONUS
    assert table["other score lines"].values == (
        "—", f"+{STATION_BONUS} at the end per station not built (the book: 'not used'; ttr_nb's reading)")


def test_map_rows_are_map_summary(table):
    su, se = USA.map.summary(), EU.map.summary()
    assert table["cities"].values == (str(su["cities"]), str(se["cities"]))
    assert table["tunnels"].values == ("0", str(se["tunnels"]))
    assert table["ferries"].values[1].startswith(f"{se['ferries']} ({se['ferry_locos']} locomotive symbols)")
    assert table["route lengths on the map"].values == ("1–6", "1–4, 6, 8")
    assert table["tickets"].values[1] == f"{se['tickets']} worth {se['ticket_points']} points"
    assert "6 long" in table["ticket decks"].values[1]


def test_a_changed_setting_in_a_copied_variant_changes_its_row(table):
    points = dict(EU.settings.route_points)
    points[8] = 30
    custom = replace(EU, settings=replace(EU.settings, route_points=points, trains=40, setup_returns="bottom"))
    mine = compare_variants("usa", custom)
    assert "8→30" in mine["route points"].values[1]
    assert mine["trains per player"].values == ("45", "40") and not mine["trains per player"].same
    assert mine["returned setup tickets"].same
    # the registered Europe is untouched
    assert "8→21" in compare_variants("europe")["route points"].values[0]
    assert table["trains per player"].same
    # a copy under a new (unregistered) key compares too
    renamed = compare_variants("usa", replace(EU, key="house-rules", settings=replace(EU.settings, trains=50)))
    assert renamed["trains per player"].values == ("45", "50")


def test_only_differences_and_lookup(table):
    diff = compare_variants("usa", "europe", only_differences=True)
    assert diff.rows and all(not r.same for r in diff)
    assert len(diff) == len(table.differences()) < len(table)
    assert {r.topic for r in diff} == {r.topic for r in table.differences()}
    with pytest.raises(KeyError):
        table["no such row"]
    assert table[0] is table.rows[0]
    assert compare_variants("usa", "usa").differences() == []
    assert compare_variants("america", "eu").keys == ("usa", "europe")


def test_html_and_markdown(table):
    html = as_html(table)
    assert html == table.as_html() == table._repr_html_()
    assert html.startswith('<table class="ttr-compare"') and "Ticket to Ride Europe" in html
    assert html.count("<tr>") == len(table) + 1 + len({r.section for r in table})
    assert "8→21" in html and "EU-CLAIM-2/USA-CLAIM-9" in html
    assert "<script" not in html
    small = table.as_html(only_differences=True)
    assert small.count("<tr>") < html.count("<tr>")
    md = as_markdown(table)
    assert md.splitlines()[0] == "| | Ticket to Ride (USA) | Ticket to Ride Europe |"
    assert "| route points * |" in md
    dicts = table.to_dicts()
    assert dicts[0]["section"] == "Components" and "usa" in dicts[0] and "europe rule" in dicts[0]


def test_interpretations_include_the_inherited_ones():
    usa = interpretations("usa")
    assert [r["rule"] for r in usa] == [rule for rule, _ in USA.interpretations]
    eu = interpretations("europe")
    inherited = [r for r in eu if r["from"] == "usa"]
    still = [(rule, text) for rule, text in USA.interpretations if rule not in dict(EU.settled)]
    assert [r["what ttr_nb does"] for r in inherited] == [text for _, text in still]   # each once
    assert {r["rule"] for r in inherited} >= {"EU-DRAW-1/USA-DRAW-6", "EU-SCORE-3/USA-SCORE-4"}
    assert all(r["rule"] == EU.rule(rule) for r, (rule, _) in zip(inherited, still))
    own = [r for r in eu if r["from"] == "europe"]
    assert all(r["rule"].startswith("EU-") for r in own)
    assert len(eu) == len({(r["rule"], r["what ttr_nb does"]) for r in eu})
    assert "interpretations" in interpretations_html("europe")


def test_SK_SCORE_2_province_row_reads_the_bonus_table_not_a_sample_game():
    """The province bonus is paid once per line at the end, by rank, 10/6/4/2 by the number of players (the
    scoring card, SK-SCORE-2) — not "+10 per claim", which a 2-player sample game once suggested."""
    from ttr_nb.games.south_korea import PROVINCE_BONUS
    row = compare_variants("usa", "south_korea")["other score lines"]
    usa, korea = row.values
    assert usa == "—"
    assert korea.startswith("province board: each line pays once, at the end")
    assert "by the sum of their spaces" in korea
    for players, pays in PROVINCE_BONUS.items():
        assert f"{players} players {'/'.join(map(str, pays))}" in korea
    assert PROVINCE_BONUS == {2: (10,), 3: (10, 6), 4: (10, 6, 4), 5: (10, 6, 4, 2)}     # the scoring card
    assert "per 'claim'" not in korea and "at the start" not in korea


def test_every_scoring_feature_says_what_it_scores():
    """The 'other score lines' row comes from each scoring feature's own words, never from a probe."""
    from ttr_nb.variants import Feature, available_variants
    for key in available_variants():
        for f in get_variant(key).features:
            if type(f).score is not Feature.score:
                assert getattr(f, "score_words", ""), f"{key}: {type(f).__name__} scores but has no score_words"


def test_MK_DRAW_4_face_up_row_says_three_of_one_kind():
    """Three locomotives, or three passenger cards, reset the face-up row; a mix of the two does not."""
    from ttr_nb.board.positions import position
    from ttr_nb.board.engine import step
    row = compare_variants("usa", "maerklin")["face-up cards"]
    assert row.values == ("5; 3 face-up locomotives reset them",
                          "5; 3 face-up locomotives, or 3 face-up passenger cards, reset them")
    # the engine agrees: two locomotives and a passenger card face up, and a passenger card turned up — no reset
    mix = position("maerklin", players=2, seed=1, market=["locomotive", "locomotive", "passenger", "red", "blue"],
                   deck_top=["passenger", "white", "black", "yellow", "orange", "green"])
    after, events = step(mix, "draw faceup 4")
    assert after.market == mix.market[:3] + (after.market[3],) + mix.market[4:]
    assert "market_reset" not in [e.kind for e in events]
    passengers = [k for k in after.market if k == mix.market[2]]
    assert len(passengers) == 2 and after.market.count(mix.market[0]) == 2       # 2 + 2 + 1: a mix, no reset


def test_MK_SETUP_3_returned_setup_tickets_row():
    row = compare_variants("usa", "maerklin")["returned setup tickets"]
    assert row.values[1] == "to the bottom of their own deck; then both decks are shuffled"


def test_tie_break_row_names_ttr_nbs_readings():
    row = compare_variants("usa", "europe", "maerklin", "south_korea")["tie-breaks"]
    assert row.readings == ("USA-SCORE-4", "EU-SCORE-3, USA-SCORE-4", "MK-SCORE-4", "")   # SK: the book says it all
    import html
    assert "ttr_nb's reading: EU-SCORE-3, USA-SCORE-4" in html.unescape(as_html(compare_variants("europe")))
    assert "[ttr_nb's reading: MK-SCORE-4]" in as_markdown(compare_variants("maerklin"))
    assert all(r.readings == ("",) for r in compare_variants("europe") if r.topic != "tie-breaks")


def test_base_readings_a_variants_own_book_settles_are_not_inherited():
    eu = {r["rule"] for r in interpretations("europe")}
    assert "EU-DRAW-1/USA-DRAW-4" not in eu and "EU-SCORE-2/USA-SCORE-3" not in eu     # the Icelandic book says so
    assert "EU-SETUP-4/USA-SETUP-3" in eu
    for key in ("maerklin", "south_korea"):                                           # no longest-path bonus there
        assert not any(r["rule"].endswith("USA-SCORE-3") for r in interpretations(key))
    assert not any(r["rule"].endswith("USA-SCORE-4") for r in interpretations("south_korea"))   # SK-SCORE-5
    for key in ("europe", "maerklin", "south_korea"):
        v = get_variant(key)
        usa_ids = {rule for rule, _ in USA.interpretations}
        assert v.settled and {rule for rule, _ in v.settled} <= usa_ids
        assert not {rule for rule, _ in v.interpretations} & {rule for rule, _ in v.settled}


def test_deterministic():
    assert compare_variants("usa", "europe") == compare_variants("usa", "europe")


def test_compare_imports_no_plotting_or_widgets():
    done = run_blocked("""
        from ttr_nb.compare import compare_variants
        t = compare_variants('usa', 'europe'); t.as_html(); print(len(t))
        assert not attempts, attempts
    """)
    assert done.returncode == 0, done.stderr

def test_a_variants_own_reading_of_a_base_rule_replaces_the_inherited_one():
    """Märklin's book lets face-up cards be taken with deck and discard pile empty (MK-DRAW-1): the USA reading of
    USA-DRAW-8 (face-up cards included) is not shown as inherited."""
    mk = interpretations("maerklin")
    rows = [r for r in mk if r["rule"] == "MK-DRAW-1/USA-DRAW-8"]
    assert len(rows) == 1 and rows[0]["from"] == "maerklin" and "may still be taken" in rows[0]["what ttr_nb does"]
    assert any(r["rule"] == "MK-DRAW-4/USA-DRAW-6" and r["from"] == "usa" for r in mk)   # the others still inherited
