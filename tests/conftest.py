"""Fixtures shared by the test files."""
from __future__ import annotations

import pytest

from ttr_nb.board.maps import load_map


@pytest.fixture(scope="session")
def usa():
    """The USA map (read once)."""
    return load_map("usa")


@pytest.fixture(scope="session")
def europe():
    """The Europe map (read once)."""
    return load_map("europe")
