"""The board engine: the game state, the actions, the rules, the score and the maps of the four board games (USA,
Europe, Märklin, South Korea), whose own mechanics are features in ``ttr_nb.games``.

Its entry points (``ttr_nb.board.engine``: ``new_game``, ``legal_actions``, ``apply``, ``observe``, ...) are the
protocol of every game: they hand a Card Game state to its own engine, ``ttr_nb.cardgame``, which shares the
actions, card colours and state helpers defined here. The modules' old names (``ttr_nb.engine``, ``ttr_nb.maps``,
...) still import: see ``ttr_nb.MOVED_TO_BOARD``.

This package imports none of its modules itself: ``import ttr_nb`` loads the engine, and the map module only when
first needed.
"""
