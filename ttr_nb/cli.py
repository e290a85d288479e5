"""The ``ttr-nb`` command line.

    ttr-nb play usa --players 4 --bots greedy,random,greedy,mixed:0.5 --seed 7
    ttr-nb simulate usa --games 200 --players 4 --bots random --workers 2
    ttr-nb check-map maps/usa.json
    ttr-nb variants
    ttr-nb notebooks ~/ttr_nb        # copy the shipped notebooks out (never overwrites your edits)
    ttr-nb maps rebuild [--check]    # regenerate maps/*.json from maps/sources/
    ttr-nb tournament usa alice.py bob.py greedy --games 10   # students' bots: ratings, win rates, forfeits

Also runs as ``python -m ttr_nb ...``.
"""
from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import Sequence, TextIO

from .errors import TTRError
from .simulation import seat_bots


def play(variant: str, players: int, bots: str, seed: int, out: TextIO, quiet: bool = False) -> int:
    from .board.engine import seat_name
    from .game import Game
    from .variants import get_game
    game = Game(variant, players, seed)
    bot_list, names = seat_bots(bots, players, seed)
    v = get_game(variant)
    print(f"{v.name} — {players} players, seed {seed}", file=out)
    if v.provisional:
        print(f"PROVISIONAL data: {v.provisional_note}", file=out)
    print("Players: " + ", ".join(f"{seat_name(i)} ({names[i]})" for i in range(players)), file=out)
    last_turn = -1
    while not game.is_over:
        state = game.state
        seat = game.to_move()[0]
        action, reason = bot_list[seat].choose(state, seat)
        ply = game.push(action)
        if quiet:
            continue
        if state.phase != "setup" and state.turn != last_turn:
            last_turn = state.turn
            print(f"\nTurn {state.turn + 1} · {seat_name(seat)}", file=out)
        print(f"  {ply.words} — {reason}", file=out)
        for e in ply.events:
            if e.kind not in ("claim",):
                print(f"    ! {e}", file=out)
    sheet = game.score()
    print("\nFinal score", file=out)
    print(sheet.table(), file=out)
    for line in sheet.details():
        print(line, file=out)
    return 0


def simulate(variant: str, games: int, players: int, bots: str, seed: int, out: TextIO, err: TextIO,
             workers: int | None = None) -> int:
    """``ttr-nb simulate``: the statistics on ``out``, a progress bar on ``err`` (runs over two seconds)."""
    from . import simulation
    stats = simulation.simulate(variant, games, players, bots, seed, workers=workers, progress=err,
                                progress_after=simulation.PROGRESS_AFTER)
    print(stats.text(), file=out)
    return 0


def check_map(path: str, out: TextIO) -> int:
    from .board.maps import check_map_file, load_map
    problems = check_map_file(path)
    if problems:
        print(f"{path}: {len(problems)} problem{'s' if len(problems) != 1 else ''}", file=out)
        for p in problems:
            print(f"  - {p}", file=out)
        return 1
    m = load_map(path)
    s = m.summary()
    print(f"{path}: valid — {m.name}: {s.get('cities')} cities, {s.get('routes')} routes, {s.get('tickets')} tickets"
          + (" (PROVISIONAL)" if m.provisional else ""), file=out)
    return 0


PICTURE_FORMATS = {".png": "png", ".svg": "svg"}


def picture_target(out_path: str) -> tuple[Path, str]:
    """Where ``--out`` writes and in which format (from its ending); TTRError naming the problem before any work."""
    from .files import checked_path
    try:
        target = Path(checked_path(out_path))
    except TTRError as e:
        raise TTRError(f"--out {out_path[:200]!r}: {e}") from None
    fmt = PICTURE_FORMATS.get(target.suffix.lower())
    if fmt is None:
        raise TTRError(f"--out {out_path}: cannot write a {target.suffix or 'file without an ending'!s} picture; "
                       f"supported formats: {', '.join(PICTURE_FORMATS)}")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise TTRError(f"--out {out_path}: the folder {folder} does not exist (create it first)")
    if target.is_dir():
        raise TTRError(f"--out {out_path}: is a folder; give a file name ending in {' or '.join(PICTURE_FORMATS)}")
    return target, fmt


def picture(variant: str, out_path: str, seed: int, plies: int, out: TextIO) -> int:
    """A board from a seeded greedy game, with the leader's longest trail drawn (the README picture), written as
    PNG or SVG according to the ending of ``out_path``."""
    from .bots import GreedyBot
    from .board.engine import board_marks, seat_name
    from .game import Game
    from .board.scoring import score
    if plies < 0:
        raise TTRError("--plies must be 0 or more")
    target, fmt = picture_target(out_path)
    from .render.board import board_figure, board_png
    game = Game(variant, 4, seed)
    game.play_bots(GreedyBot(seed), max_plies=plies)
    sheet = score(game.state)
    best = max(sheet.players, key=lambda p: (p.longest.length, -p.seat))
    marks = board_marks(game.state)
    fig = board_figure(game.variant.map, owners=marks["owners"], closed=marks["closed"], stations=marks["stations"],
                       trail=best.longest.routes, trail_label=f"Longest trail ({seat_name(best.seat)}, {best.longest.length})",
                       title=f"{game.variant.name} — seeded game {seed}, after {game.ply} plies")
    try:
        if fmt == "png":
            board_png(fig, target)
        else:
            fig.write_image(str(target), format="svg", width=1200, height=800)
    except OSError as e:
        raise TTRError(f"--out {out_path}: cannot write the picture ({e.strerror or e})") from None
    print(f"wrote {out_path} ({fmt.upper()})", file=out)
    return 0


def notebooks(target: str, out: TextIO) -> int:
    from .shipped import copy_notebooks
    report = copy_notebooks(target)
    print(report, file=out)
    return 0


def _workers(text: str) -> int:
    """``--workers N``: a whole number, 1 or more (argparse reports the message with the option's name)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number: give how many processes, 1 or more") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n}: give 1 (this process) or more")
    return n


BOTS_HELP = ("the bots: one name for every seat, or one per seat separated by commas (blue first). random = a random "
             "legal move; greedy = plans routes for its tickets; mixed:P = greedy with probability P (0–1), otherwise "
             "random")


def variants_text() -> str:
    """Every game ``--variant`` accepts, one a line, names aligned: ``usa          Ticket to Ride (USA) — map usa``."""
    from .variants import available_games, get_game
    keys = available_games()
    width = max(len(k) for k in keys)
    lines = []
    for key in keys:
        v = get_game(key)
        lines.append(f"{key:<{width}}  {v.name} — {v.summary}{' (PROVISIONAL)' if v.provisional else ''}")
    return "\n".join(lines)


def _players_words() -> str:
    from .variants import available_games, get_game
    ranges = {}
    for key in available_games():
        st = get_game(key).settings
        ranges.setdefault(f"{st.min_players}–{st.max_players}", []).append(key)
    return "; ".join(f"{r} in {', '.join(keys)}" for r, keys in ranges.items())


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["maps"]:                 # its own sub-commands and --help: ttr_nb.board.maps.main
        from .board.maps import main as maps_main
        return maps_main(argv[1:], out=out)
    parser = argparse.ArgumentParser(prog="ttr-nb", description="Ticket to Ride rules engine: play, simulate, check maps.")
    sub = parser.add_subparsers(dest="command", required=True)
    helping = any(a in ("-h", "--help") for a in argv)        # the list of games loads every map: only for help
    listing = ("the games (VARIANT):\n" + "\n".join(f"  {line}" for line in variants_text().splitlines())
               if helping else "")
    players_help = f"how many players: {_players_words()}; default 4" if helping else ""
    variant_help = "the game to play, by its key (below) or its name, e.g. 'märklin'; default usa"
    p = sub.add_parser("play", help="play a bot game and print it turn by turn",
                       description=textwrap.fill("Play one game between bots and print it turn by turn: every move "
                                                 "with the bot's reason, what happened, and the final score with how "
                                                 "it was reached.", 79),
                       epilog=listing + "\n\nexample: ttr-nb play europe --players 3 --bots greedy,random,mixed:0.5 "
                                        "--seed 7", formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant", nargs="?", default="usa", metavar="VARIANT", help=variant_help)
    p.add_argument("--players", type=int, default=4, metavar="N", help=players_help)
    p.add_argument("--bots", default="greedy", metavar="BOTS", help=BOTS_HELP + "; default greedy")
    p.add_argument("--seed", type=int, default=0, metavar="SEED",
                   help="the seed of the shuffles (a whole number): the same seed plays the same game again; default 0")
    p.add_argument("--quiet", action="store_true", help="print only the final score")
    s = sub.add_parser("simulate", help="run many bot games and print statistics",
                       description=textwrap.fill("Play many games between bots (seeds SEED, SEED+1, ...) and print "
                                                 "statistics: scores, game length, tickets completed, wins by seat.",
                                                 79),
                       epilog=listing, formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("variant", nargs="?", default="usa", metavar="VARIANT", help=variant_help)
    s.add_argument("--games", type=int, default=100, metavar="G", help="how many games; default 100")
    s.add_argument("--players", type=int, default=4, metavar="N", help=players_help)
    s.add_argument("--bots", default="random", metavar="BOTS", help=BOTS_HELP + "; default random")
    s.add_argument("--seed", type=int, default=0, metavar="SEED", help="the first game's seed; default 0")
    s.add_argument("--workers", type=_workers, default=None, metavar="N",
                   help="how many processes play the games at once: default one per core; 1 = this process only. "
                        "The statistics are the same for any N (game g is always dealt from seed SEED+g)")
    c = sub.add_parser("check-map", help="validate a map file")
    c.add_argument("file")
    sub.add_parser("variants", help="list the variants and maps")
    pic = sub.add_parser("picture", help="draw the board of a seeded bot game to a .png or .svg file (needs plotly, "
                                         "kaleido, Chromium)")
    pic.add_argument("variant", nargs="?", default="usa")
    pic.add_argument("--out", required=True)
    pic.add_argument("--seed", type=int, default=3)
    pic.add_argument("--plies", type=int, default=200)
    nb = sub.add_parser("notebooks", help="copy the notebooks into a folder (never overwrites a file you changed)")
    nb.add_argument("dir", help="the folder to copy them into (created if missing), e.g. ~/ttr_nb")
    sub.add_parser("maps", help="map files: rebuild [--check] from maps/sources, check, summary (ttr-nb maps -h)")
    lite = sub.add_parser("lite", help="JupyterLite: `lite build OUT` makes an offline site that runs the notebooks in a browser")
    lite_build = lite.add_subparsers(dest="lite_command", required=True).add_parser(
        "build", help="build the static site into OUT (needs network to PyPI and npm the first time)")
    lite_build.add_argument("out")
    lite_build.add_argument("--cache", help="download and build-tool cache (default ~/.cache/ttr-nb/lite)")
    lite_build.add_argument("--notebooks", help="notebooks folder (default: the shipped notebooks)")
    lite_build.add_argument("--wheel", help="a ttr_nb wheel to put in the site (default: built from the checkout)")
    from .tournament.cli import add_parser as add_tournament, run as run_tournament
    add_tournament(sub)
    args = parser.parse_args(argv)
    try:
        if args.command == "tournament":
            return run_tournament(args, out, err)
        if args.command == "play":
            return play(args.variant, args.players, args.bots, args.seed, out, args.quiet)
        if args.command == "simulate":
            return simulate(args.variant, args.games, args.players, args.bots, args.seed, out, err, args.workers)
        if args.command == "check-map":
            return check_map(args.file, out)
        if args.command == "picture":
            return picture(args.variant, args.out, args.seed, args.plies, out)
        if args.command == "notebooks":
            return notebooks(args.dir, out)
        if args.command == "lite":
            from .lite import build
            try:
                report = build(args.out, cache=args.cache, notebooks=args.notebooks, wheel=args.wheel,
                               log=lambda line: print(f"[lite] {line}", file=err, flush=True))
            except OSError as e:            # a folder that vanished or filled up mid-build: said, not a traceback
                raise TTRError(f"lite build: {e.strerror or e}" + (f": {e.filename}" if e.filename else "")) from None
            print(report.summary(), file=out)
            return 0
        print(variants_text(), file=out)
        return 0
    except TTRError as e:
        print(f"ttr-nb: {e}", file=err)
        return 2
    except KeyboardInterrupt:          # Ctrl-C: the worker processes are stopped already; no traceback
        print("\nttr-nb: interrupted", file=err)
        return 130
    except BrokenPipeError:            # e.g. piped into `head`: stop quietly
        try:
            sys.stdout = None  # type: ignore[assignment]
        finally:
            return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
