"""The README tells users the truth about what ttr_nb decided where the rule books are silent."""
from pathlib import Path

from ttr_nb.variants import available_games, get_game

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_every_interpretation_of_every_game_is_listed_in_the_readme():
    for key in available_games():
        game = get_game(key)
        assert game.interpretations, f"{key}: no interpretations at all (every rule book leaves something open)"
        for rule_id, text in game.interpretations:
            assert f"**{rule_id}**" in README, f"{key}: interpretation of {rule_id} missing from README"
            assert text[:60] in README, f"{key}: the README's text for {rule_id} is out of date"
