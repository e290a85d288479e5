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


def _sections() -> dict[str, str]:
    """The README's ``## `` sections by heading."""
    import re
    parts = re.split(r"^## ", README, flags=re.M)
    return {p.splitlines()[0].strip(): p for p in parts[1:]}


def test_every_section_that_runs_the_venv_says_what_makes_it():
    """A reader who jumps to a section (the JupyterLite one, say) is told how .venv comes about before it is used."""
    import re
    makers = ("bash .ci/setup.sh", "bash .ci/lab.sh", "bash .ci/run")
    for heading, text in _sections().items():
        used = text.find(".venv/bin/")
        if used < 0:
            continue
        made = [text.find(m) for m in makers if 0 <= text.find(m) < used]
        assert made, f"section {heading!r} uses .venv/bin/ before saying which command makes .venv"
    lite = next(t for h, t in _sections().items() if "JupyterLite" in h)
    block = re.search(r"```bash\n(.*?)```", lite, re.S).group(1).splitlines()
    assert block[0].startswith("bash .ci/setup.sh") and block[1].startswith(".venv/bin/ttr-nb lite build")


def test_jupyterlite_section_names_the_build_cache_its_size_and_how_to_remove_it(monkeypatch):
    from pathlib import Path
    from ttr_nb.lite import default_cache
    for name in ("TTR_NB_LITE_CACHE", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    lite = next(t for h, t in _sections().items() if "JupyterLite" in h)
    where = "~/" + str(default_cache().relative_to(Path.home()))          # the default the code uses
    assert f"`{where}`" in lite and f"rm -rf {where}" in lite
    assert "TTR_NB_LITE_CACHE" in lite and "--cache DIR" in lite and "275 MB" in lite


def test_a_site_built_in_the_clone_is_ignored_by_git():
    import subprocess
    from pathlib import Path
    repo = Path(__file__).resolve().parents[1]
    if not (repo / ".git").exists():
        import pytest
        pytest.skip("not a git checkout")
    done = subprocess.run(["git", "check-ignore", "-q", "site/index.html"], cwd=repo)
    assert done.returncode == 0, "site/ is not in .gitignore"
    assert "/site/" in (repo / ".gitignore").read_text(encoding="utf-8").splitlines()
