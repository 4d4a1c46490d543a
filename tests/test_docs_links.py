"""Nothing in the repository names a file it lacks (issue 39): every link of a markdown file
leads to a file of the repository, and every ``*.md`` file named in a text file (a docstring, a
comment, a page) is there. The documentation cites only documents in the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

THIS_FILE = Path(__file__).resolve()
ROOT = THIS_FILE.parent.parent

#: The kinds of files read for names: pages, code, settings, scripts.
TEXT_SUFFIXES = {".md", ".py", ".rs", ".toml", ".txt", ".pql", ".yml", ".yaml", ".cfg"}
#: A markdown link or image: ``[text](target)``, the target up to a space or ``)``.
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
#: A name of a markdown file, with the folders before it: ``docs/language/ranges.md``.
MD_NAME = re.compile(r"(?<![\w./~-])((?:\.\./|\./)?[\w.-]+(?:/[\w.-]+)*\.md)\b")
#: A whole string literal holding a bare file name (``"notes.md"``): a file the code writes.
WRITTEN_NAME = re.compile(r"[\"'][\w.-]+\.md[\"']")


def text_files() -> list[Path]:
    """The repository's files (tracked, and new ones git does not ignore) that hold text."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    paths = [ROOT / p for p in dict.fromkeys(listed)]
    # This file names missing files on purpose, to see them caught.
    return [
        p
        for p in paths
        if (p.suffix in TEXT_SUFFIXES or p.name == "Makefile")
        and p.is_file()
        and p != Path(__file__).resolve()
    ]


def exists_near(name: str, source: Path) -> bool:
    """Whether ``name`` is a file beside ``source`` or beside one of its folders up to the root
    (code names ``docs/cli.md`` from the root, ``data/README.md`` from its crate; the site's
    settings name pages in ``docs/``)."""
    if source.name == "mkdocs.yml" and (ROOT / "docs" / name).is_file():
        return True
    folder = source.parent
    while True:
        if (folder / name).is_file():
            return True
        if folder == ROOT:
            return False
        folder = folder.parent


def heading_anchors(path: Path) -> set[str]:
    """The anchors of a markdown page's headings, as GitHub and the site make them: lower case,
    punctuation dropped, spaces as hyphens (code blocks' ``#`` lines are no headings)."""
    anchors, in_code = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (m := re.match(r"#{1,6}\s+(.*?)\s*$", line)):
            anchors.add(re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-"))
    return anchors


def anchored_links(path: Path) -> list[tuple[int, Path, str]]:
    """(line, page, anchor) of every link of a markdown file to a heading of a page."""
    found, in_code = [], False
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            in_code = not in_code
            continue
        for m in [] if in_code else LINK.finditer(line):
            target = m.group(1)
            if "#" in target and not re.match(r"[a-z][a-z0-9+.-]*:", target):
                page, anchor = target.split("#", 1)
                found.append((n, path.parent / page if page else path, anchor))
    return found


def link_targets(path: Path) -> list[tuple[int, str]]:
    """(line, target) of every link in a markdown file that points into the repository."""
    found = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a web address, mailto:, or a place in the same page
            found.append((n, target.split("#", 1)[0]))
    return found


def named_md_files(path: Path) -> list[tuple[int, str]]:
    """(line, name) of every markdown file a text file names, files the code writes aside."""
    found = []
    for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        prose = WRITTEN_NAME.sub('""', line) if path.suffix == ".py" else line
        for m in MD_NAME.finditer(prose):
            found.append((n, m.group(1)))
    return found


def test_every_markdown_link_leads_to_a_file() -> None:
    missing = [
        f"{page.relative_to(ROOT)}:{n}: {target}"
        for page in text_files()
        if page.suffix == ".md"
        for n, target in link_targets(page)
        if not (page.parent / target).exists()
    ]
    assert not missing, "links to files the repository lacks:\n" + "\n".join(missing)


def test_every_link_to_a_heading_finds_it() -> None:
    missing = [
        f"{page.relative_to(ROOT)}:{n}: {target.name}#{anchor}"
        for page in text_files()
        if page.suffix == ".md"
        for n, target, anchor in anchored_links(page)
        if target.suffix == ".md" and target.is_file() and anchor not in heading_anchors(target)
    ]
    assert not missing, "links to headings that are not there:\n" + "\n".join(missing)


def test_every_markdown_file_named_is_there() -> None:
    missing = [
        f"{path.relative_to(ROOT)}:{n}: {name}"
        for path in text_files()
        for n, name in named_md_files(path)
        if not exists_near(name, path)
    ]
    assert not missing, "markdown files the repository lacks:\n" + "\n".join(missing)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("see docs/analysis.md and ANALYSIS.md's example", ["docs/analysis.md", "ANALYSIS.md"]),
        ("(`rust_core/data/README.md` says how)", ["rust_core/data/README.md"]),
        ("[the CLI](../cli.md#options)", ["../cli.md"]),
        ("https://example.org/page.md is a web page", []),
    ],
)
def test_names_are_found_as_written(tmp_path: Path, text: str, names: list[str]) -> None:
    page = tmp_path / "page.txt"
    page.write_text(text)
    assert [name for _, name in named_md_files(page)] == names


def test_a_missing_file_is_caught(tmp_path: Path) -> None:
    # The checks see a name that leads nowhere, and the links of a page, as written.
    assert not exists_near("NO-SUCH-NOTES.md", ROOT / "tests" / "test_docs_links.py")
    assert exists_near("docs/index.md", ROOT / "tests" / "test_docs_links.py")
    page = tmp_path / "page.md"
    page.write_text("[a](missing.md) [b](https://example.org) [c](#here) [d](other.md#part)")
    assert link_targets(page) == [(1, "missing.md"), (1, "other.md")]
    assert anchored_links(page) == [(1, page, "here"), (1, tmp_path / "other.md", "part")]


def test_headings_give_the_anchors_links_use(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# The app and --plain\n## Hold'em: the classic syntax\n```sh\n# not a heading\n```\n")
    assert heading_anchors(page) == {"the-app-and---plain", "holdem-the-classic-syntax"}
