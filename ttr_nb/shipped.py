"""The notebooks shipped with ttr_nb, and ``ttr-nb notebooks DIR``, which copies them out for you to open and edit.

The wheel carries the notebooks as ``ttr_nb/notebooks/`` (a source checkout has them in ``notebooks/`` at the top).
Copying never loses anything a user made:

* a file that is not there yet is copied;
* a file identical to the shipped one is left alone;
* a file ttr_nb copied earlier and nobody changed since is brought up to date (``DIR/.ttr_nb-notebooks.json``
  remembers what was copied, by SHA-256);
* any other file with the same name (you edited it, or it is yours) is kept untouched, and the report says so.

    >>> from ttr_nb.shipped import shipped_notebooks
    >>> [p.name for p in shipped_notebooks()][:2]
    ['00_start_here.ipynb', '01_usa.ipynb']
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from .errors import TTRError

__all__ = ["notebooks_dir", "shipped_notebooks", "copy_notebooks", "CopyReport", "MANIFEST"]

MANIFEST = ".ttr_nb-notebooks.json"


def notebooks_dir() -> Path:
    """The folder of shipped notebooks: ``ttr_nb/notebooks/`` in an installed wheel, else ``notebooks/`` of the source
    checkout (or editable install). TTRError if neither exists."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "notebooks", here.parent / "notebooks"):
        if candidate.is_dir() and any(candidate.glob("*.ipynb")):
            return candidate
    raise TTRError(f"the notebooks are missing: neither {here / 'notebooks'} nor {here.parent / 'notebooks'} holds "
                   "any .ipynb file; reinstall ttr_nb")


def shipped_notebooks() -> list[Path]:
    """Every shipped file under :func:`notebooks_dir` (notebooks and the files they use), sorted; no hidden files,
    no checkpoints, no caches."""
    root = notebooks_dir()
    return sorted(p for p in root.rglob("*") if p.is_file()
                  and not any(part.startswith(".") or part == "__pycache__" for part in p.relative_to(root).parts))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass
class CopyReport:
    """What :func:`copy_notebooks` did, file by file (paths relative to the target folder)."""
    target: Path
    copied: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        lines = [f"ttr_nb notebooks in {self.target}:"]
        for label, names in (("copied", self.copied), ("updated (you had not changed them)", self.updated),
                             ("already up to date", self.unchanged)):
            if names:
                lines.append(f"  {label}: {', '.join(names)}")
        for name in self.kept:
            lines.append(f"  kept yours: {name} differs from the shipped copy and was not overwritten "
                         "(rename it and run this again to get the shipped one)")
        first = self.target / "00_start_here.ipynb"
        lines.append(f"Open {first} in JupyterLab, e.g.: jupyter lab {first}")
        return "\n".join(lines)


def copy_notebooks(target) -> CopyReport:
    """Copy the shipped notebooks into the folder ``target`` (created if missing); never overwrite a file the user
    changed or made. Returns a :class:`CopyReport`; TTRError if ``target`` is not a folder or cannot be written."""
    target = Path(os.path.expanduser(os.fspath(target)))
    if target.exists() and not target.is_dir():
        raise TTRError(f"{target} is a file, not a folder: give a folder to copy the notebooks into")
    root = notebooks_dir()
    report = CopyReport(target)
    manifest_path = target / MANIFEST
    try:
        target.mkdir(parents=True, exist_ok=True)
        try:
            copied_before = json.loads(manifest_path.read_text(encoding="utf-8")).get("files", {})
            if not isinstance(copied_before, dict):
                copied_before = {}
        except (OSError, ValueError, AttributeError):
            copied_before = {}
        manifest = {k: v for k, v in copied_before.items() if isinstance(k, str) and isinstance(v, str)}
        for source in shipped_notebooks():
            rel = source.relative_to(root).as_posix()
            dest = target / rel
            data = source.read_bytes()
            digest = hashlib.sha256(data).hexdigest()
            if dest.is_symlink() or (dest.exists() and not dest.is_file()):
                report.kept.append(rel)
                continue
            if dest.is_file():
                have = _sha256(dest)
                if have == digest:
                    report.unchanged.append(rel)
                    manifest[rel] = digest
                    continue
                if manifest.get(rel) != have:          # not the copy we made: the user's work
                    report.kept.append(rel)
                    continue
                status = report.updated
            else:
                status = report.copied
            dest.parent.mkdir(parents=True, exist_ok=True)
            tmp = dest.with_name(f".{dest.name}.ttr_nb-tmp")
            try:
                tmp.write_bytes(data)
                os.replace(tmp, dest)
            finally:
                tmp.unlink(missing_ok=True)
            manifest[rel] = digest
            status.append(rel)
        manifest_path.write_text(json.dumps({"written_by": "ttr-nb notebooks", "files": manifest}, indent=1,
                                            sort_keys=True) + "\n", encoding="utf-8")
    except OSError as e:
        raise TTRError(f"cannot copy the notebooks into {target}: {e.strerror or e}") from None
    return report
