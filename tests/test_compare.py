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
    # a copy under a new (unregistered) key still compares; only the scored row needs the engine
    renamed = compare_variants("usa", replace(EU, key="house-rules", settings=replace(EU.settings, trains=50)))
    assert renamed["trains per player"].values == ("45", "50")
    assert "register" in renamed["other score lines"].values[1]
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
    # the unbuilt-station bonus is found by scoring, not typed: 3 stations × 4 at the start, −4 per station built
    assert table["other score lines"].values == ("—", "stations not built: +12 at the start (−4 per 'station' action)")


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
    # a copy under a new (unregistered) key still compares; only the scored row needs the engine
    renamed = compare_variants("usa", replace(EU, key="house-rules", settings=replace(EU.settings, trains=50)))
    assert renamed["trains per player"].values == ("45", "50")
    assert "register" in renamed["other score lines"].values[1]


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
    assert [r["what ttr_nb does"] for r in inherited] == [text for _, text in USA.interpretations]   # each once
    assert {r["rule"] for r in inherited} >= {"EU-DRAW-1/USA-DRAW-6", "EU-SCORE-3/USA-SCORE-4"}
    assert all(r["rule"] == EU.rule(rule) for r, (rule, _) in zip(inherited, USA.interpretations))
    own = [r for r in eu if r["from"] == "europe"]
    assert all(r["rule"].startswith("EU-") for r in own)
    assert len(eu) == len({(r["rule"], r["what ttr_nb does"]) for r in eu})
    assert "interpretations" in interpretations_html("europe")


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
