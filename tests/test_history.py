"""Persistent history and the editor buffer (shared file format with prompt_toolkit)."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.history import FileHistory

from pql_repl.files.history import History, data_dir, history_path, load_buffer, read_entries, save_buffer


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_data_dir_follows_the_environment(data: Path) -> None:
    assert data_dir() == data
    assert data.is_dir()
    assert history_path().parent == data


def test_entries_survive_a_new_history_object() -> None:
    h = History()
    h.append("select avg(1) from h='AA';")
    h.append("select count(winsHi(h))\nfrom h='KK';")
    h.append("select count(winsHi(h))\nfrom h='KK';")  # repeated: kept once
    h.append("   ")
    again = History()
    assert again.entries == ["select avg(1) from h='AA';", "select count(winsHi(h))\nfrom h='KK';"]


def test_file_format_is_shared_with_prompt_toolkit() -> None:
    History().append("select 1\nfrom a='AA';")
    assert list(FileHistory(str(history_path())).load_history_strings()) == ["select 1\nfrom a='AA';"]
    FileHistory(str(history_path())).store_string("select 2 from b='KK';")
    assert read_entries(history_path()) == ["select 1\nfrom a='AA';", "select 2 from b='KK';"]


def test_up_and_down_browse_and_keep_the_draft() -> None:
    h = History()
    for q in ("one", "two", "three"):
        h.append(q)
    assert h.previous("draft") == "three"
    assert h.previous("ignored") == "two"
    assert h.previous("") == "one"
    assert h.previous("") is None
    assert h.next() == "two"
    assert h.next() == "three"
    assert h.next() == "draft"
    assert h.next() is None


def test_search_is_newest_first_and_case_insensitive() -> None:
    h = History()
    for q in ("select A", "other", "SELECT b", "select A"):
        h.append(q)
    assert h.search("select") == ["select A", "SELECT b"]
    assert h.search("zzz") == []


def test_buffer_round_trip() -> None:
    assert load_buffer() == ""
    save_buffer("select avg(1)\nfrom h='AA'")
    assert load_buffer() == "select avg(1)\nfrom h='AA'"
