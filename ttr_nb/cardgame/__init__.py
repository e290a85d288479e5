"""Ticket to Ride: The Card Game — a second rules engine on the same protocol as the board engine.

There is no board: players bank cards in a rail yard, move one card of each colour per turn onto a face-down
on-the-track pile, rob other players' yards, and complete tickets from the pile at the end of a round (two rounds
with four players). Modules:

* ``data``: the cards (``maps/cardgame.cards.json``, built from ``maps/sources/cardgame/``; provisional tickets);
* ``state``: ``CardState``, an immutable JSON-round-tripping value;
* ``actions``: ``track``, ``yard green3+loco1``, ``complete Chicago–Miami`` (the draws, ``tickets``, ``keep``
  and ``pass`` are the board game's);
* ``engine``: the protocol (new_game, legal_actions, apply, step, observe, validate, turn_status, describe, ...);
* ``completion``: the exact end-of-round ticket completion; ``scoring``; ``bots``.

Use it through the shared entry points, e.g. ``ttr_nb.Game("cardgame", players=4, seed=1)`` or
``ttr-nb play cardgame --players 4 --seed 1``; the rules are in docs/rules/cardgame.md.
"""
