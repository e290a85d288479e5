"""The notebooks shipped with ttr_nb, and ``ttr-nb notebooks DIR``, which copies them out for you to open and edit.

The wheel carries the notebooks as ``ttr_nb/notebooks/`` (a source checkout has them in ``notebooks/`` at the top).
Copying never loses anything a user made:

* a file that is not there yet is copied;
* a file identical to the shipped one is left alone;
* a file ttr_nb copied earlier and nobody changed since is brought up to date (``DIR/.ttr_nb-notebooks.json``
  remembers what was copied, by SHA-256);
* any other file with the same name (you edited it, or it is yours) is kept untouched, and the report says so;
* a link where a notebook (or a folder of them) would go is never followed: the place is reported as yours.

Every file, the manifest included, is written atomically through a temp file made exclusively in its folder, so a
link planted there is never written through (``ttr_nb.files.write_atomic``).

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
    blocked: list[str] = field(default_factory=list)      # a link or a non-file stands where it would go

    def __str__(self) -> str:
        lines = [f"ttr_nb notebooks in {self.target}:"]
        for label, names in (("copied", self.copied), ("updated (you had not changed them)", self.updated),
                             ("already up to date", self.unchanged)):
            if names:
                lines.append(f"  {label}: {', '.join(names)}")
        for name in self.kept:
            lines.append(f"  kept yours: {name} differs from the shipped copy and was not overwritten "
                         "(rename it and run this again to get the shipped one)")
        for name in self.blocked:
            lines.append(f"  not written: {name} — a link (or something that is not a file) stands where it would "
                         "go, and ttr-nb never writes through one (move it away and run this again)")
        first = self.target / "00_start_here.ipynb"
        lines.append(f"Open {first} in JupyterLab, e.g.: jupyter lab {first}")
        return "\n".join(lines)


def _manifest(path: Path) -> dict:
    """What an earlier run copied (name -> SHA-256); nothing from a link, a huge file or a damaged one."""
    from .files import read_bounded
    if path.is_symlink():
        return {}
    try:
        files = json.loads(read_bounded(path, 1_000_000, "manifest").decode("utf-8")).get("files", {})
    except (TTRError, ValueError, AttributeError, RecursionError):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(files, dict) else {}


def copy_notebooks(target) -> CopyReport:
    """Copy the shipped notebooks into the folder ``target`` (created if missing); never overwrite a file the user
    changed or made, never write through a link. Returns a :class:`CopyReport`; TTRError if ``target`` is empty,
    not a folder, or cannot be written."""
    from .files import checked_path, new_file_mode, write_atomic
    if isinstance(target, str) and not target.strip():
        raise TTRError("give the folder to copy the notebooks into, e.g. ~/ttr_nb (an empty name would mean the "
                       "current folder)")
    try:
        target = Path(os.path.expanduser(checked_path(target)))
    except TTRError as e:
        raise TTRError(f"the notebooks folder: {e}") from None
    if target.exists() and not target.is_dir():
        raise TTRError(f"{target} is a file, not a folder: give a folder to copy the notebooks into")
    root = notebooks_dir()
    report = CopyReport(target)
    manifest_path = target / MANIFEST
    try:
        target.mkdir(parents=True, exist_ok=True)
        copied_before = _manifest(manifest_path)
        manifest = {k: v for k, v in copied_before.items() if isinstance(k, str) and isinstance(v, str)}
        for source in shipped_notebooks():
            rel = source.relative_to(root).as_posix()
            dest = target / rel
            data = source.read_bytes()
            digest = hashlib.sha256(data).hexdigest()
            folders = [target / Path(rel).parents[i] for i in range(len(Path(rel).parents) - 1)]
            if any(f.is_symlink() or (f.exists() and not f.is_dir()) for f in folders) \
                    or dest.is_symlink() or (dest.exists() and not dest.is_file()):
                report.blocked.append(rel)       # a link (or something else) where ours would go: never followed
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
            write_atomic(dest, data, new_file_mode())
            manifest[rel] = digest
            status.append(rel)
        write_atomic(manifest_path, json.dumps({"written_by": "ttr-nb notebooks", "files": manifest}, indent=1,
                                               sort_keys=True) + "\n", new_file_mode())
    except OSError as e:
        raise TTRError(f"cannot copy the notebooks into {target}: {e.strerror or e}") from None
    return report
