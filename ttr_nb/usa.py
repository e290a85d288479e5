"""Kept so that ``import ttr_nb.usa`` goes on working: the game lives in ``ttr_nb.games.usa``."""
from .games.usa import USA, USA_INTERPRETATIONS  # noqa: F401
