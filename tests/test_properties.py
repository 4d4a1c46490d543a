"""Property tests (hypothesis) of what the front ends do with text and files they are handed:
the CLI's text handling, config loading, history and export. Whatever the input, the answer is
a value or one of the documented errors, and what is written reads back as it was.

``make fuzz`` runs them with many more examples (``HYPOTHESIS_PROFILE=fuzz``)."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pql_repl as pql
from pql_repl.api.output import render
from pql_repl.api.results import Column, StatementResult
from pql_repl.cli.scripts import command_source as _command_source
from pql_repl.files.config import ConfigError, load_config
from pql_repl.files.history import History, read_entries
from pql_repl.files.storage import FileProblem, ReplacingFile, decode_text, write_text_atomic
from pql_repl.session.session import Session
from pql_repl.session.settings import SessionError
from pql_repl.session.statements import DotCommand, Statement, is_complete, split_statements

T = TypeVar("T")

settings.register_profile("fuzz", max_examples=1000, deadline=None)
settings.register_profile(
    "default", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

#: Text as users and files give it: PQL's characters often, any character (even lone
#: surrogates, as Python carries bytes that are not UTF-8) sometimes.
PQL_BITS = [
    "select ",
    "avg(",
    "count(",
    ")",
    " from ",
    "h='AA'",
    "'",
    ";",
    "\n",
    "\n\n",
    "/*",
    "*/",
    "--",
    ".trials 10",
    ".seed",
    " ",
    ",",
]
text = st.one_of(
    st.lists(st.sampled_from(PQL_BITS), max_size=30).map("".join),
    st.text(max_size=200),
    st.text(st.characters(blacklist_categories=()), max_size=60),
)


# ---------------------------------------------------------------------------------------------
# The CLI's text handling


@given(text)
def test_statements_are_found_where_they_stand(source: str) -> None:
    items = split_statements(source)
    for item in items:
        if isinstance(item, Statement):
            assert source[item.offset :].startswith(item.text)
            before = source[: item.offset]
            assert item.line == before.count("\n") + 1
            assert item.col == item.offset - (before.rfind("\n") + 1) + 1
        else:
            assert isinstance(item, DotCommand)
            assert item.text.startswith(".")
    assert isinstance(is_complete(source), bool)


def attempt(f: Callable[[], T], *errors: type[Exception]) -> T | Exception:
    """What ``f`` returns, or the exception (one of ``errors``) it raises; any other escapes."""
    try:
        return f()
    except errors as e:
        return e


@given(text)
def test_any_text_is_checked_or_refused_with_a_pql_error(source: str) -> None:
    e = attempt(lambda: pql.prepare(source), pql.PqlError)
    if isinstance(e, pql.PqlError):
        assert e.message
        assert e.span is None or 0 <= e.span[0] <= e.span[1]


@given(st.binary(max_size=200))
def test_bytes_from_the_command_line_are_read_or_named(data: bytes) -> None:
    # How Python hands over a -c argument.
    arg = data.decode("utf-8", "surrogateescape")
    source = attempt(lambda: _command_source(arg), SessionError)
    valid = attempt(lambda: data.decode("utf-8"), UnicodeDecodeError)
    if isinstance(source, SessionError):
        assert "not UTF-8" in source.message
        assert isinstance(valid, UnicodeDecodeError)
    else:
        assert source.text == valid


@given(st.binary(max_size=300))
def test_decoding_names_the_first_bad_byte(data: bytes) -> None:
    decoded = attempt(lambda: decode_text(data), FileProblem)
    expected = attempt(lambda: data.decode("utf-8-sig"), UnicodeDecodeError)
    if isinstance(expected, UnicodeDecodeError):
        at = expected.start
        line = data[:at].count(b"\n") + 1
        assert isinstance(decoded, FileProblem)
        assert f"byte {data[at]:#04x} at line {line}," in str(decoded)
    else:
        assert decoded == expected


@given(text)
def test_any_dot_command_is_applied_or_refused(line: str) -> None:
    outcome = attempt(lambda: Session().handle("." + line), SessionError, pql.PqlError)
    assert outcome is not None


# ---------------------------------------------------------------------------------------------
# Config loading

VALUES = st.one_of(
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.text(max_size=20),
    st.lists(st.integers(), max_size=3),
)
KEYS = st.sampled_from(
    [
        "trials",
        "seed",
        "threads",
        "format",
        "exact",
        "timer",
        "time_limit",
        "precision",
        "theme",
        "history_size",
        "bogus",
    ]
)


def toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return json.dumps(v) if isinstance(v, list) else repr(v)


@given(st.dictionaries(KEYS, VALUES, max_size=5))
def test_any_config_gives_a_session_or_one_error(
    tmp_path_factory: pytest.TempPathFactory, config: dict[str, object]
) -> None:
    path = tmp_path_factory.mktemp("config") / "config.toml"
    path.write_text("".join(f"{k} = {toml_value(v)}\n" for k, v in config.items()))
    session = attempt(lambda: Session.from_config(path), ConfigError, SessionError)
    if isinstance(session, Session):
        assert "trials" not in config or session.settings.trials == config["trials"]
    else:
        # One line (and a hint after it).
        assert str(session)
        assert "\n" not in str(session).split("\n  hint:")[0]


@given(st.binary(max_size=400))
def test_any_config_bytes_give_settings_or_a_config_error(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = tmp_path_factory.mktemp("config") / "config.toml"
    path.write_bytes(data)
    outcome = attempt(lambda: load_config(path), ConfigError)
    assert isinstance(outcome, dict) or str(outcome).startswith(str(path))


# ---------------------------------------------------------------------------------------------
# History

ENTRY = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=80)


@given(st.lists(ENTRY, max_size=12), st.integers(min_value=1, max_value=8))
def test_history_reads_back_the_newest_entries(
    tmp_path_factory: pytest.TempPathFactory, entries: list[str], size: int
) -> None:
    path = tmp_path_factory.mktemp("history") / "history"
    h = History(path)
    for e in entries:
        h.append(e)
    # Kept: stripped, not empty, not twice in a row.
    kept: list[str] = []
    for e in entries:
        s = e.strip()
        if s and (not kept or kept[-1] != s):
            kept.append(s)
    assert History(path).entries == kept
    assert History(path, size=size).entries == kept[-size:]
    assert read_entries(path) == kept[-size:] if len(kept) > size else read_entries(path) == kept


# ---------------------------------------------------------------------------------------------
# Export and atomic writes


def result_with(query: str, value: float, label: str) -> StatementResult:
    return StatementResult(
        query=query,
        game="holdem",
        trials=10,
        accepted=10,
        attempted=10,
        exact=False,
        seed=1,
        elapsed=0.1,
        columns=[
            Column("eq", "avg", value, stderr=0.01),
            Column("hands", "histogram", None, buckets=[pql.Bucket(label, 10.0, 1.0)]),
        ],
    )


@given(
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=60),
    st.floats(allow_nan=False, allow_infinity=False),
    ENTRY,
)
def test_exports_read_back(query: str, value: float, label: str) -> None:
    r = result_with(query, value, label)
    doc = json.loads(render([r], "json"))
    assert doc["statements"][0]["query"] == query
    assert doc["statements"][0]["columns"][0]["value"] == value
    rows = list(csv.DictReader(io.StringIO(render([r], "csv"), newline="")))
    assert [row["query"] for row in rows] == [query, query]
    assert float(rows[0]["value"]) == value
    assert rows[1]["label"] == label


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=500))
def test_atomic_writes_read_back(tmp_path_factory: pytest.TempPathFactory, content: str) -> None:
    folder = tmp_path_factory.mktemp("atomic")
    path = folder / "out.txt"
    path.write_text("old")
    write_text_atomic(path, content)
    assert path.read_bytes() == content.encode("utf-8")
    assert [p.name for p in folder.iterdir()] == ["out.txt"]


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("write"), st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)),
        st.tuples(st.just("flush"), st.just("")),
        st.tuples(st.just("rewind"), st.just("")),
    ),
    max_size=15,
)


@given(OPS)
def test_a_replacing_file_holds_what_was_written_or_the_old_file(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[str, str]]
) -> None:
    folder = tmp_path_factory.mktemp("replacing")
    path = folder / "results"
    path.write_bytes(b"old")
    f = ReplacingFile(path, Path(os.path.realpath(path)))
    model = b""  # what the file holds once written
    written = False  # the old file stays until something is written and flushed
    for op, arg in ops:
        if op == "write":
            f.write(arg)
            model += arg.encode()
            written = True
        elif op == "flush":
            f.flush()
            assert path.read_bytes() == (model if written else b"old")
        else:  # a JSON writer's rewrite: back to the start, what follows to be replaced
            f.seek(0)
            f.truncate()
            model = b""
    f.close()
    assert path.read_bytes() == (model if written else b"old")
    assert [p.name for p in folder.iterdir()] == ["results"]
