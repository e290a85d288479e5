"""A local referee process of a tournament: reads one game's task per line (JSON), plays it
(``referee.play_game``) and writes its record as one line. Started by ``runner`` (``--workers``)."""
from __future__ import annotations

import json
import sys
import traceback

from .referee import play_game


def main() -> int:
    for line in sys.stdin:
        try:
            record = play_game(json.loads(line))
        except Exception:                   # noqa: BLE001 (reported to the runner, which stops the tournament)
            record = {"error": traceback.format_exc(limit=8)}
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
