"""The map format, its validating loader, and the USA / Europe board data (USA-COMP-*, EU-COMP-*)."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from ttr_nb.board.cards import CARD_NAMES, COLOURS, LOCOMOTIVE
from ttr_nb.errors import MapError, TTRError
from ttr_nb.board.maps import (City, Map, Route, Ticket, available_maps, check_map_file, load_map, map_from_dict,
                         map_from_reference, map_to_json, maps_dir)

REPO = Path(__file__).resolve().parents[1]
SOURCES = REPO / "maps" / "sources"                                  # the tables the maps are built from
SHARED_REFERENCE = REPO.parent / "shared" / "reference"              # the spec's copy, beside the repository
BOARDS = {"usa": "Ticket to Ride (USA)", "europe": "Ticket to Ride: Europe"}


def usa_doc() -> dict:
    return json.loads((maps_dir() / "usa.json").read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------------------ shipped files

def test_available_maps_and_maps_dir():
    assert available_maps() == ["europe", "maerklin", "south_korea", "usa"]
    assert maps_dir() == REPO / "maps"          # a source checkout: the top-level maps/ folder
    assert (maps_dir() / "README.md").is_file()


@pytest.mark.parametrize("key", sorted(BOARDS))
def test_shipped_maps_are_valid(key):
    assert check_map_file(maps_dir() / f"{key}.json") == []
    m = load_map(key)
    assert (m.key, m.name) == (key, BOARDS[key])
    assert m.provisional is False and m.provisional_note == ""
    assert Path(m.source_file) == maps_dir() / f"{key}.json"


def test_load_map_names_are_case_insensitive_and_cached(usa):
    assert load_map("USA") is usa
    assert load_map(" Usa ") is usa
    assert load_map(str(maps_dir() / "usa.json")) is not usa        # paths are read afresh
    assert load_map(maps_dir() / "usa.json").summary() == usa.summary()


def test_unknown_map_name_lists_the_available_ones():
    with pytest.raises(MapError, match=r"unknown map 'atlantis'.*europe, maerklin, south_korea, usa"):
        load_map("atlantis")
    with pytest.raises(MapError, match="no such map file"):
        load_map("/nonexistent/board.json")
    with pytest.raises(MapError):
        load_map(42)


# ------------------------------------------------------------------------------------------------ USA totals

def test_USA_COMP_1_routes_1_to_6_long_and_coloured(usa):
    s = usa.summary()
    assert (s["cities"], s["routes"], s["double_groups"], s["total_length"]) == (36, 100, 22, 309)
    assert s["city_pairs"] == 78
    assert {r.length for r in usa.routes} == {1, 2, 3, 4, 5, 6}
    assert Counter(r.length for r in usa.routes) == {1: 9, 2: 36, 3: 20, 4: 16, 5: 10, 6: 9}
    colours = Counter(r.colour for r in usa.routes)
    assert colours == {**{c: 7 for c in COLOURS}, "gray": 44}
    assert not any(r.tunnel or r.ferry_locos for r in usa.routes)
    groups = Counter(r.double_group for r in usa.routes if r.double_group)
    assert len(groups) == 22 and set(groups.values()) == {2}


def test_USA_COMP_1_known_routes(usa):
    (r,) = usa.routes_between("Denver", "Phoenix")
    assert (r.length, r.colour) == (5, "white")
    assert sorted(r.colour for r in usa.routes_between("New Orleans", "Atlanta")) == ["orange", "yellow"]
    assert sorted(r.colour for r in usa.routes_between("Denver", "Salt Lake City")) == ["red", "yellow"]
    (r,) = usa.routes_between("Sault St. Marie", "Winnipeg")
    assert (r.length, r.colour) == (6, "gray")
    assert sorted(n for r in usa.routes_at("Las Vegas") for n in r.cities if n != "Las Vegas") == \
        ["Los Angeles", "Salt Lake City"]


def test_USA_COMP_3_deck_110(usa):
    assert usa.deck == tuple((c, 12) for c in COLOURS) + ((LOCOMOTIVE, 14),)
    assert sum(n for _, n in usa.deck) == 110
    assert [name for name, _ in usa.deck] == list(CARD_NAMES[:9])


def test_USA_COMP_4_30_tickets(usa):
    assert len(usa.tickets) == 30
    assert sum(t.points for t in usa.tickets) == 349
    assert {t.deck for t in usa.tickets} == {"regular"}
    assert min(t.points for t in usa.tickets) == 4 and max(t.points for t in usa.tickets) == 22
    assert {(t.a, t.b, t.points) for t in usa.tickets} >= {("Denver", "El Paso", 4), ("Seattle", "New York", 22)}
    assert usa.summary()["ticket_points"] == 349


# ------------------------------------------------------------------------------------------------ Europe totals

def test_EU_COMP_1_lengths_no_5_or_7(europe):
    s = europe.summary()
    assert (s["cities"], s["routes"], s["double_groups"], s["total_length"]) == (47, 101, 11, 300)
    lengths = Counter(r.length for r in europe.routes)
    assert lengths == {1: 4, 2: 35, 3: 30, 4: 29, 6: 2, 8: 1}
    assert 5 not in lengths and 7 not in lengths
    assert Counter(r.colour for r in europe.routes) == {**{c: 8 for c in COLOURS}, "gray": 37}
    (r,) = europe.routes_between("Petrograd", "Stockholm")
    assert (r.length, r.tunnel) == (8, True)
    for name in ("Angora", "Constantinople", "Smyrna", "Petrograd", "Kobenhavn"):   # 1901 names
        europe.city(name)


def test_EU_COMP_1_tunnels_and_ferries(europe):
    tunnels = [r for r in europe.routes if r.tunnel]
    ferries = [r for r in europe.routes if r.ferry_locos]
    assert len(tunnels) == 18
    assert len(ferries) == 13 and sum(r.ferry_locos for r in ferries) == 17
    assert all(r.colour == "gray" for r in ferries)
    assert not any(r.tunnel and r.ferry_locos for r in europe.routes)
    assert sorted((r.a, r.b) for r in ferries if r.ferry_locos == 2) == [
        ("Amsterdam", "London"), ("Constantinople", "Sevastopol"), ("Erzurum", "Sevastopol"), ("Palermo", "Smyrna")]
    s = europe.summary()
    assert (s["tunnels"], s["ferries"], s["ferry_locos"]) == (18, 13, 17)


def test_EU_COMP_3_deck(europe):
    assert europe.deck == tuple((c, 12) for c in COLOURS) + ((LOCOMOTIVE, 14),)
    assert europe.summary()["deck_cards"] == 110


def test_EU_COMP_4_46_tickets_6_long(europe):
    assert len(europe.tickets) == 46
    assert sum(t.points for t in europe.tickets) == 444
    by_deck = Counter(t.deck for t in europe.tickets)
    assert by_deck == {"regular": 40, "long": 6}
    long = sorted((t.points, t.a, t.b) for t in europe.tickets if t.deck == "long")
    assert [p for p, *_ in long] == [20, 20, 20, 21, 21, 21]
    assert sum(t.points for t in europe.tickets if t.deck == "regular") == 321
    s = europe.summary()
    assert s["tickets_by_deck"] == {"regular": 40, "long": 6}
    assert s["ticket_points_by_deck"] == {"regular": 321, "long": 123}


# ------------------------------------------------------------------------------------------------ the Map API

@pytest.mark.parametrize("key", sorted(BOARDS))
def test_twins_are_symmetric(key):
    m = load_map(key)
    for r in m.routes:
        twins = m.twins(r.id)
        if r.double_group is None:
            assert twins == ()
            continue
        assert 1 <= len(twins) <= 2 and r not in twins
        for t in twins:
            assert r in m.twins(t.id)
            assert t.double_group == r.double_group and set(t.cities) == set(r.cities) and t.length == r.length
        assert set(m.routes_between(r.a, r.b)) == {r, *twins}


@pytest.mark.parametrize("key", sorted(BOARDS))
def test_indexes_and_lookups(key):
    m = load_map(key)
    assert [c.name for c in m.cities] == sorted(c.name for c in m.cities)
    assert all(r.index == i and m.route(r.id) is r for i, r in enumerate(m.routes))
    assert all(m.ticket(t.id) is t for t in m.tickets)
    for c in m.cities:
        at = m.routes_at(c.name)
        assert at and all(c.name in r.cities for r in at)
        assert all(r.other(r.other(c.name)) == c.name for r in at)
    assert sum(len(m.routes_at(c.name)) for c in m.cities) == 2 * len(m.routes)
    for t in m.tickets:
        assert m.city(t.a) and m.city(t.b)


def test_lookups_raise_map_error_not_key_error(usa):
    with pytest.raises(MapError, match="unknown city 'Gotham'"):
        usa.city("Gotham")
    with pytest.raises(MapError, match="did you mean 'Denver'"):
        usa.city("Denvr")
    with pytest.raises(MapError, match="unknown route 'R999'"):
        usa.route("R999")
    with pytest.raises(MapError, match="unknown ticket 'T99'"):
        usa.ticket("T99")
    with pytest.raises(MapError):
        usa.twins("nope")
    with pytest.raises(MapError):
        usa.routes_between("Denver", "Atlantis")
    with pytest.raises(MapError):
        usa.routes_at("Atlantis")
    with pytest.raises(MapError, match="does not touch"):
        usa.route("R001").other("Denver")
    assert isinstance(MapError("x"), TTRError) and not issubclass(MapError, KeyError)


def test_city_lookup_ignores_case_and_accents(usa, europe):
    assert usa.city("montreal").name == "Montréal"
    assert europe.city("Zurich").name == "Zürich"
    assert europe.city("MÜNCHEN").name == "München"
    assert usa.routes_between("denver", "omaha") == usa.routes_between("Omaha", "Denver")
    assert usa.routes_between("Miami", "Seattle") == ()


def test_values_are_immutable_and_hashable(usa):
    r = usa.route("R001")
    with pytest.raises(AttributeError):
        r.length = 3                                        # type: ignore[misc]
    assert len({r, usa.route("R001")}) == 1
    assert hash(usa.city("Denver")) == hash(City("Denver", usa.city("Denver").lat, usa.city("Denver").lon))
    assert hash(usa.tickets[0]) is not None
    with pytest.raises(TypeError):
        usa.provenance["totals"]["cities"] = 1              # type: ignore[index]
    assert {usa: 1}[usa] == 1                               # a Map hashes by identity
    assert "36 cities" in repr(usa)


def test_graph(usa, europe):
    for m in (usa, europe):
        g = m.graph()
        assert g.number_of_nodes() == len(m.cities)
        assert g.number_of_edges() == len(m.routes)
        assert g.graph == {"key": m.key, "name": m.name, "provisional": False, "ends_only": []}
        for c in m.cities:
            assert g.nodes[c.name]["lat"] == c.lat and g.nodes[c.name]["lon"] == c.lon
        for r in m.routes:
            assert g.edges[r.a, r.b, r.id] == {"id": r.id, "length": r.length, "colour": r.colour,
                                               "double_group": r.double_group, "tunnel": r.tunnel,
                                               "ferry_locos": r.ferry_locos}
        assert sum(d["length"] for *_, d in g.edges(data=True)) == m.summary()["total_length"]
        assert g is not m.graph()                            # a fresh graph each call: yours to modify
    import networkx as nx
    assert nx.is_connected(usa.graph()) and nx.is_connected(europe.graph())
    assert usa.graph().number_of_edges("Atlanta", "New Orleans") == 2


def test_summary_matches_provenance_totals(usa, europe):
    for m in (usa, europe):
        s = m.summary()
        totals = json.loads(json.dumps(s))                    # JSON form: string keys
        for k, v in m.provenance["totals"].items():
            assert json.loads(json.dumps(dict(v) if hasattr(v, "items") else v)) == totals[k]


def test_provenance_names_sources_and_reference(usa, europe):
    for m, board in ((usa, "usa"), (europe, "europe")):
        p = m.provenance
        assert f"maps/sources/{board}/" in p["reference"]
        assert "rewritten in our own format" in p["licence"]
        primary = [s for s in p["sources"] if s["role"] == "primary"]
        assert [(s["repo"], s["commit"]) for s in primary] == [
            ("thoun/tickettoride", "a31662b7cdb5bad742372c8fdefabe515a7260d7")]
        assert all(len(s["commit"]) == 40 for s in p["sources"] if s["repo"])
        assert p["disagreements"] and p["caveats"] and p["checks"]
    assert any("zsequeira9" in d for d in usa.provenance["disagreements"])


# ------------------------------------------------------------------------------------------------ regenerating

def test_sources_are_in_the_project_and_agree_with_the_shared_reference():
    """maps/sources/<board>/ holds the tables and their provenance; when the spec folder ../shared/reference/ is
    present beside the repository, the project's copies are byte-identical to it."""
    import filecmp
    for key in BOARDS:
        folder = SOURCES / key
        names = sorted(p.name for p in folder.iterdir())
        assert names == ["SOURCES.md", "cities.csv", "deck.csv", "routes.csv", "tickets.csv"], names
        assert "## Sources" in (folder / "SOURCES.md").read_text(encoding="utf-8")
        if SHARED_REFERENCE.is_dir():           # only beside the spec; a plain clone checks the rest
            match, mismatch, errors = filecmp.cmpfiles(folder, SHARED_REFERENCE / key, names, shallow=False)
            assert (mismatch, errors) == ([], []), f"maps/sources/{key} differs from {SHARED_REFERENCE / key}"


@pytest.mark.parametrize("key", sorted(BOARDS))
def test_rebuild_from_sources_gives_the_committed_json(key):
    doc = map_from_reference(SOURCES / key, key=key, name=BOARDS[key])
    committed = (maps_dir() / f"{key}.json").read_text(encoding="utf-8")
    assert json.loads(committed) == doc
    assert map_to_json(doc) == committed, "maps/ is out of date: run ttr-nb maps rebuild"
    assert doc["provenance"]["reference"].startswith(f"maps/sources/{key}/ ")


def test_rebuild_command_check_mode_without_warnings(tmp_path):
    for key in BOARDS:
        (tmp_path / f"{key}.json").write_text((maps_dir() / f"{key}.json").read_text(encoding="utf-8"),
                                              encoding="utf-8")
    run = [sys.executable, "-W", "error", "-m", "ttr_nb", "maps", "rebuild", "--check", "--out", str(tmp_path)]
    done = subprocess.run(run, cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == "", done.stdout + done.stderr
    assert done.stdout.count("up to date") == len(BOARDS)
    (tmp_path / "usa.json").write_text("{}", encoding="utf-8")
    done = subprocess.run(run, cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 1 and "usa.json: differs" in done.stdout and done.stderr == ""


def test_rebuild_through_the_cli_writes_the_files(tmp_path):
    import io

    from ttr_nb.cli import main
    out = io.StringIO()
    assert main(["maps", "rebuild", "--out", str(tmp_path)], out=out) == 0
    for key in BOARDS:
        assert (tmp_path / f"{key}.json").read_bytes() == (maps_dir() / f"{key}.json").read_bytes()
    assert "usa.json: written (36 cities, 100 routes, 30 tickets)" in out.getvalue()
    out = io.StringIO()
    assert main(["maps", "rebuild", "--check", "--sources", str(tmp_path / "nowhere"), "--out", str(tmp_path)],
                out=out) == 1
    assert "no such reference folder" in out.getvalue()


def test_reference_csv_errors_name_file_line_and_column(tmp_path):
    import shutil
    folder = tmp_path / "board"
    shutil.copytree(SOURCES / "usa", folder)
    text = (folder / "routes.csv").read_text(encoding="utf-8").replace("R003,Atlanta,Nashville,1,", "R003,Atlanta,Nashville,one,")
    (folder / "routes.csv").write_text(text, encoding="utf-8")
    with pytest.raises(MapError, match=r"routes\.csv: line 4 \(R003\): column 'length'"):
        map_from_reference(folder, key="usa", name="x")


def test_reference_totals_mismatch_is_caught(tmp_path):
    import shutil
    folder = tmp_path / "board"
    shutil.copytree(SOURCES / "usa", folder)
    md = (folder / "SOURCES.md").read_text(encoding="utf-8").replace("Cities: 36", "Cities: 37")
    (folder / "SOURCES.md").write_text(md, encoding="utf-8")
    with pytest.raises(MapError, match=r"SOURCES\.md: Totals: cities is stated as 37 but the CSVs give 36"):
        map_from_reference(folder, key="usa", name="x")


# ------------------------------------------------------------------------------------------------ load errors

def write(tmp_path, doc=None, raw=None, name="bad.json") -> Path:
    path = tmp_path / name
    path.write_text(raw if raw is not None else json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def mutated(change) -> dict:
    doc = usa_doc()
    change(doc)
    return doc


def assert_names(path: Path, *parts: str) -> str:
    """load_map raises a MapError naming the file and every part; check_map_file lists the same problem."""
    with pytest.raises(MapError) as info:
        load_map(path)
    message = str(info.value)
    for part in (str(path), *parts):
        assert part in message, f"{part!r} not in {message!r}"
    problems = check_map_file(path)
    assert problems and problems == info.value.problems
    assert any(all(p in problem for p in parts) for problem in problems)
    return message


def test_error_bad_json_names_line_item_and_field(tmp_path):
    text = (maps_dir() / "usa.json").read_text(encoding="utf-8")
    bad = text.replace('"id": "R017", "a": "Charleston", "b": "Raleigh", "length": 2,',
                       '"id": "R017", "a": "Charleston", "b": "Raleigh", "length": 2', 1)
    assert bad != text
    message = assert_names(write(tmp_path, raw=bad), "invalid JSON", "line ", "column ", "routes[16] (R017)",
                           "field 'length'")
    assert "Expecting ',' delimiter" in message


def test_error_truncated_file(tmp_path):
    text = (maps_dir() / "usa.json").read_text(encoding="utf-8")
    cut = text.index('{"id": "R050"') + 30                  # in the middle of route R050
    message = assert_names(write(tmp_path, raw=text[:cut]), "invalid JSON", "routes[49] (R050)", "field 'a'")
    assert "truncated" in message


@pytest.mark.parametrize("raw, expected", [
    ("", "the file is empty"),
    ("[1, 2]", "top level: a map file must be a JSON object"),
    ("null", "top level: a map file must be a JSON object"),
    ("\xff\xfe", "not UTF-8"),
])
def test_error_not_a_map_at_all(tmp_path, raw, expected):
    path = tmp_path / "bad.json"
    path.write_bytes(raw.encode("latin-1"))
    with pytest.raises(MapError, match=expected) as info:
        load_map(path)
    assert str(path) in str(info.value)


def test_error_wrong_type(tmp_path):
    path = write(tmp_path, mutated(lambda d: d["routes"][17].update(length="four")))
    message = assert_names(path, "routes[17] (R018)", "field 'length'", "whole number 1–8", '"four"')
    assert message == f'{path}: routes[17] (R018): field \'length\' must be a whole number 1–8, got "four"'


def test_error_unknown_key(tmp_path):
    def change(d):
        d["routes"][3]["lenght"] = d["routes"][3].pop("length")
    assert_names(write(tmp_path, mutated(change)), "routes[3] (R004)", "'lenght'", "did you mean 'length'")
    assert_names(write(tmp_path, mutated(lambda d: d.update(colour_blind=True))), "top level", "'colour_blind'")
    assert_names(write(tmp_path, mutated(lambda d: d["cities"][0].update(latitude=1))), "cities[0] (Atlanta)",
                 "unknown field 'latitude'")


def test_error_unknown_city(tmp_path):
    assert_names(write(tmp_path, mutated(lambda d: d["routes"][5].update(a="Gotham"))), "routes[5] (R006)",
                 "field 'a'", "unknown city \"Gotham\"")
    assert_names(write(tmp_path, mutated(lambda d: d["tickets"][2].update(b="Denvr"))), "tickets[2] (T03)",
                 "field 'b'", "did you mean 'Denver'")


def test_error_duplicate_id(tmp_path):
    assert_names(write(tmp_path, mutated(lambda d: d["routes"][1].update(id="R001"))), "routes[1] (R001)",
                 "field 'id'", "used twice")
    assert_names(write(tmp_path, mutated(lambda d: d["tickets"][5].update(id="T01"))), "tickets[5] (T01)",
                 "field 'id'", "used twice")
    assert_names(write(tmp_path, mutated(lambda d: d["cities"][1].update(name="Atlanta"))), "cities[1] (Atlanta)",
                 "field 'name'", "listed twice")


def test_error_duplicate_json_key(tmp_path):
    text = (maps_dir() / "usa.json").read_text(encoding="utf-8")
    bad = text.replace('"id": "R002", "a": "Atlanta",', '"id": "R002", "a": "Atlanta", "a": "Miami",', 1)
    assert_names(write(tmp_path, raw=bad), "id 'R002'", "field 'a'", "appears twice")


def test_error_bad_colour(tmp_path):
    assert_names(write(tmp_path, mutated(lambda d: d["routes"][2].update(colour="pink"))), "routes[2] (R003)",
                 "field 'colour'", "write 'purple'")
    assert_names(write(tmp_path, mutated(lambda d: d["routes"][2].update(colour=3))), "routes[2] (R003)",
                 "field 'colour'")


def test_error_negative_count(tmp_path):
    assert_names(write(tmp_path, mutated(lambda d: d["deck"].update(purple=-1))), "deck", "field 'purple'",
                 "got -1")
    assert_names(write(tmp_path, mutated(lambda d: d["deck"].update(pink=12))), "deck", "field 'pink'",
                 "not a card")


def test_error_huge_number(tmp_path):
    assert_names(write(tmp_path, mutated(lambda d: d["tickets"][0].update(points=10**30))), "tickets[0] (T01)",
                 "field 'points'", "1000000000000000000000000000000")
    text = (maps_dir() / "usa.json").read_text(encoding="utf-8")
    bad = text.replace('"length": 5,', '"length": ' + "9" * 5000 + ",", 1)   # beyond Python's int-parsing limit
    assert_names(write(tmp_path, raw=bad), "routes[1] (R002)", "field 'length'", "5000-digit number")
    bad = text.replace('"lat": 33.75', '"lat": 1e999', 1)
    assert_names(write(tmp_path, raw=bad), "cities[0] (Atlanta)", "field 'lat'", "inf")
    bad = text.replace('"lon": -84.39', '"lon": NaN', 1)
    assert_names(write(tmp_path, raw=bad), "cities[0] (Atlanta)", "field 'lon'", "NaN")


def test_error_missing_field(tmp_path):
    assert_names(write(tmp_path, mutated(lambda d: d["routes"][7].pop("length"))), "routes[7] (R008)",
                 "field 'length' is missing")
    assert_names(write(tmp_path, mutated(lambda d: d.pop("deck"))), "top level", "field 'deck' is missing")
    assert_names(write(tmp_path, mutated(lambda d: d["tickets"][3].pop("points"))), "tickets[3] (T04)",
                 "field 'points' is missing")


def test_error_provisional_without_note(tmp_path):
    assert_names(write(tmp_path, mutated(lambda d: d.update(provisional=True))), "top level",
                 "field 'provisional_note'", "when 'provisional' is true")
    ok = mutated(lambda d: d.update(provisional=True, provisional_note="PROVISIONAL: a stand-in board."))
    m = load_map(write(tmp_path, ok))
    assert m.provisional and m.provisional_note.startswith("PROVISIONAL")
    assert m.graph().graph["provisional"] is True


@pytest.mark.parametrize("change, parts", [
    (lambda d: d["routes"][0].update(b="Atlanta"), ["routes[0] (R001)", "field 'b'", "two different cities"]),
    (lambda d: d["routes"][0].update(double_group="D99"), ["routes[0] (R001)", "field 'double_group'", "only this"]),
    (lambda d: d["routes"][4].update(double_group=None), ["routes[4] (R005)", "field 'double_group'", "parallel"]),
    (lambda d: d["routes"][4].update(length=5), ["routes[4] (R005)", "field 'length'", "twin"]),
    (lambda d: d["routes"][0].update(double_group="D01"), ["routes[0] (R001)", "field 'double_group'", "D01"]),
    (lambda d: d["routes"][1].update(ferry_locos=2), ["routes[1] (R002)", "field 'colour'", "ferry", "gray"]),
    (lambda d: d["routes"][0].update(ferry_locos=3), ["routes[0] (R001)", "field 'ferry_locos'", "only 2 long"]),
    (lambda d: d["routes"][0].update(tunnel=1), ["routes[0] (R001)", "field 'tunnel'", "true or false"]),
    (lambda d: d["routes"][0].update(length=True), ["routes[0] (R001)", "field 'length'", "got true"]),
    (lambda d: d["routes"][0].update(length=9), ["routes[0] (R001)", "field 'length'", "1–8"]),
    (lambda d: d["routes"][0].update(id="R 1"), ["routes[0]", "field 'id'"]),
    (lambda d: d["cities"][1].update(lat=123), ["cities[1] (Boston)", "field 'lat'", "-90 to 90"]),
    (lambda d: d["cities"][1].update(lon="west"), ["cities[1] (Boston)", "field 'lon'"]),
    (lambda d: d["cities"][1].update(name="boston"), ["routes[", "unknown city \"Boston\""]),
    (lambda d: d["tickets"][0].update(points=0), ["tickets[0] (T01)", "field 'points'"]),
    (lambda d: d["tickets"][0].update(deck="Long Ones"), ["tickets[0] (T01)", "field 'deck'"]),
    (lambda d: d.update(format="something-else"), ["top level", "field 'format'"]),
    (lambda d: d.update(version=2), ["top level", "field 'version'", "upgrade"]),
    (lambda d: d.update(version="1"), ["top level", "field 'version'"]),
    (lambda d: d.update(key="U S A"), ["top level", "field 'key'"]),
    (lambda d: d.update(provisional_note="why?"), ["top level", "field 'provisional_note'", "must be \"\""]),
    (lambda d: d.update(routes={}), ["top level", "field 'routes'", "list"]),
    (lambda d: d["routes"].append(7), ["routes[100]", "must be an object"]),
    (lambda d: d["cities"].append({"name": "Reno", "lat": 39.5, "lon": -119.8}), ["cities[", "(Reno)",
                                                                               "no route touches"]),
    (lambda d: d["provenance"]["totals"].update(cities=35), ["provenance", "field 'totals.cities'", "35", "36"]),
    (lambda d: d["deck"].update(red=2000), ["deck", "field 'red'", "0–1000"]),
])
def test_error_classes(tmp_path, change, parts):
    assert_names(write(tmp_path, mutated(change)), *parts)


def test_error_collects_every_problem(tmp_path):
    def change(d):
        d["routes"][17]["length"] = "four"
        d["routes"][20]["colour"] = "pink"
        d["tickets"][0]["a"] = "Gotham"
        d["deck"]["purple"] = -1
    path = write(tmp_path, mutated(change))
    problems = check_map_file(path)
    assert len(problems) == 4, problems
    with pytest.raises(MapError) as info:
        load_map(path)
    assert "4 problems" in str(info.value) and all(p in str(info.value) for p in problems)


def test_error_disconnected_board(tmp_path):
    doc = {"format": "ttr_nb-map", "version": 1, "key": "tiny", "name": "Tiny", "provisional": False,
           "provisional_note": "", "provenance": {}, "deck": {"red": 2, "locomotive": 1},
           "cities": [{"name": n, "lat": 0, "lon": i} for i, n in enumerate("ABCD")],
           "routes": [{"id": "R1", "a": "A", "b": "B", "length": 1, "colour": "red"},
                      {"id": "R2", "a": "C", "b": "D", "length": 1, "colour": "red"}],
           "tickets": []}
    assert_names(write(tmp_path, doc), "routes", "in pieces", "C, D")


def test_map_from_dict_builds_small_boards():
    doc = {"format": "ttr_nb-map", "version": 1, "key": "tiny", "name": "Tiny", "provisional": True,
           "provisional_note": "A made-up board for tests.", "provenance": {},
           "deck": {"locomotive": 2, "red": 4},
           "cities": [{"name": "B", "lat": 1, "lon": 1}, {"name": "A", "lat": 0, "lon": 0, "extra": {"goods": "red"}}],
           "routes": [{"id": "R1", "a": "A", "b": "B", "length": 2, "colour": "gray", "double_group": "D1"},
                      {"id": "R2", "a": "B", "b": "A", "length": 2, "colour": "red", "double_group": "D1"},
                      {"id": "R3", "a": "A", "b": "B", "length": 2, "colour": "red", "double_group": "D1",
                       "tunnel": True}],
           "tickets": [{"id": "T1", "a": "A", "b": "B", "points": 3, "extra": {"red": 1}}]}
    m = map_from_dict(doc, source="tiny board")
    assert [c.name for c in m.cities] == ["A", "B"]
    assert m.deck == (("red", 4), ("locomotive", 2))
    assert [t.id for t in m.twins("R2")] == ["R1", "R3"]                # a triple route
    assert m.ticket("T1").deck == "regular" and m.ticket("T1").extra["red"] == 1
    assert m.city("A").extra["goods"] == "red" and m.graph().nodes["A"]["goods"] == "red"
    doc["routes"].append({"id": "R4", "a": "A", "b": "B", "length": 2, "colour": "red", "double_group": "D1"})
    with pytest.raises(MapError, match="tiny board: routes\\[3\\] \\(R4\\): field 'double_group'.*at most 3"):
        map_from_dict(doc, source="tiny board")


def test_values_can_be_built_by_hand():
    r = Route("X1", 0, "A", "B", 3, "red")
    assert (r.double_group, r.tunnel, r.ferry_locos, r.cities, r.other("B")) == (None, False, 0, ("A", "B"), "A")
    t = Ticket("T1", "A", "B", 5, extra={"red": 1})
    assert t.deck == "regular" and dict(t.extra) == {"red": 1}
    m = Map(key="k", name="K", cities=(City("B", 0, 1), City("A", 0, 0)), routes=(r,), tickets=(t,),
            deck=(("red", 3),))
    assert m.cities[0].name == "A" and m.routes_at("A") == (r,) and m.twins("X1") == ()


def test_shipped_map_fuzz_never_crashes(tmp_path):
    """Any single-field damage gives MapError (never a bare KeyError/TypeError) and check_map_file agrees."""
    pytest.importorskip("hypothesis")
    from hypothesis import HealthCheck, given, settings, strategies as st

    base = usa_doc()
    values = st.one_of(st.none(), st.booleans(), st.integers(-10**40, 10**40), st.floats(allow_nan=False),
                       st.text(max_size=8), st.just([]), st.just({}), st.sampled_from(["Denver", "R001", "gray"]))
    sections = st.sampled_from(["cities", "routes", "tickets"])

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(sections, st.integers(0, 200), st.text(min_size=1, max_size=12) | st.sampled_from(
        ["a", "b", "id", "name", "lat", "length", "colour", "double_group", "points", "deck", "ferry_locos"]), values)
    def damage(section, index, key, value):
        doc = copy.deepcopy(base)
        items = doc[section]
        items[index % len(items)][key] = value
        path = tmp_path / "fuzz.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        problems = check_map_file(path)
        try:
            load_map(path)
        except MapError as e:
            assert problems and e.problems == problems and all(str(path) in p for p in problems)
        else:
            assert problems == []

    damage()


def test_import_is_light():
    code = ("import sys, time; t = time.perf_counter(); import ttr_nb.board.maps; "
            "print(time.perf_counter() - t); "
            "print(sorted(m for m in ('networkx', 'json', 'csv', 'pathlib', 'importlib.resources') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True).stdout
    assert "networkx" not in out.splitlines()[1]          # networkx only inside Map.graph()


def test_module_rebuild_check_runs_without_warnings():
    """``python -m ttr_nb.board.maps rebuild --check`` (the command the docs give) prints no runpy RuntimeWarning:
    ``import ttr_nb`` does not load the map module first."""
    import subprocess
    import sys
    from pathlib import Path
    repo = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-W", "error", "-m", "ttr_nb.board.maps", "rebuild", "--check"], cwd=repo,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stderr and "up to date" in done.stdout
