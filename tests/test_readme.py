"""The README tells users the truth about what ttr_nb decided where the rule books are silent."""
from pathlib import Path

from ttr_nb.variants import available_variants, get_variant

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_every_interpretation_is_listed_in_the_readme():
    for key in available_variants():
        v = get_variant(key)
        own = [r for r, _ in v.interpretations if r.startswith(v.rule_prefix + "-")]
        rules = Path(__file__).resolve().parents[1] / "docs" / "rules" / f"{key}.md"
        if v.rule_prefix != "USA" and not any(f"**{r}**" in README for r in own) and rules.is_file():
            # a game the README has no section for yet (South Korea): its rules page must list every interpretation
            page = rules.read_text(encoding="utf-8")
            assert all(r in page for r in own), f"{key}: an interpretation is missing from docs/rules/{key}.md"
            continue
        for rule_id, text in get_variant(key).interpretations:
            assert f"**{rule_id}**" in README, f"{key}: interpretation of {rule_id} missing from README"
            assert text[:60] in README, f"{key}: the README's text for {rule_id} is out of date"
