"""The board games, one module each: settings + features registered on the shared engine (``ttr_nb.variants``).

``usa`` is the base game; every other module adds only what its rule book changes. The Card Game, which has no
board, is a separate engine (``ttr_nb.cardgame``) on the same protocol.
"""
