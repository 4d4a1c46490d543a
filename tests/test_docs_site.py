"""The documentation site builds (`make docs`: MkDocs, strict, so a broken link or anchor fails),
from the files the repository tracks alone, as in a fresh clone."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tracked_docs() -> list[str] | None:
    """The site's files as git tracks them (None outside a git checkout)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    r = subprocess.run(
        ["git", "ls-files", "-z", "--", "mkdocs.yml", "docs"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if r.returncode != 0:
        return None
    return [name for name in r.stdout.decode().split("\0") if name]


@pytest.mark.skipif(
    importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None,
    reason="mkdocs-material is not installed (pip install -e '.[test]')",
)
def test_the_site_builds_strictly_from_tracked_files(tmp_path: Path) -> None:
    source = tmp_path / "source"
    files = tracked_docs()
    if files is None:
        shutil.copytree(ROOT / "docs", source / "docs")
        shutil.copy(ROOT / "mkdocs.yml", source)
    else:
        assert "mkdocs.yml" in files
        assert "docs/index.md" in files
        for name in files:  # the working tree's text of each tracked file, nothing untracked
            if (ROOT / name).exists():
                (source / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(ROOT / name, source / name)
    r = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=source,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},  # Material's banner about its future
        timeout=300,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert not re.search(r"^WARNING\b", r.stderr, re.MULTILINE), r.stderr
    built = tmp_path / "site"
    assert (built / "index.html").exists()
    assert (built / "reference" / "functions" / "index.html").exists()
