"""`.define $name 'RANGE'`: named ranges kept in the data directory and usable in every range."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

import pql_repl as pql
from pql_repl.base.errors import PqlRangeError
from pql_repl.files import config, named_ranges
from pql_repl.session.session import Session
from pql_repl.session.settings import SessionError


def test_define_stores_and_every_range_can_use_it() -> None:
    s = Session()
    assert "no named ranges" in s.handle(".define").output
    s.handle(".define $open 'QQ+, AKs'")
    assert named_ranges.load() == {"open": "QQ+, AKs"}
    assert s.handle(".define $open").output == "$open QQ+, AKs"
    assert "$open" in s.handle(".define").output
    assert len(pql.parse_range("$open, 22")) == 18 + 4 + 6
    (r,) = pql.run("select avg(riverEquity(hero)) from hero='$open', villain='KK'", exact=True)
    (w,) = pql.run("select avg(riverEquity(hero)) from hero='QQ+, AKs', villain='KK'", exact=True)
    assert r.columns[0].value == w.columns[0].value
    # Redefined (another spelling of the same name), then forgotten.
    s.handle(".define $OPEN 'AA'")
    assert named_ranges.load() == {"OPEN": "AA"}
    assert len(pql.parse_range("$open")) == 6
    s.handle(".undefine $open")
    assert named_ranges.load() == {}
    with pytest.raises(PqlRangeError):
        pql.parse_range("$open")


def test_named_ranges_of_other_games_and_given_macros() -> None:
    Session().handle(".define $aces 'AA**' omahahi")
    assert len(pql.parse_range("$aces", "omahahi")) == len(pql.parse_range("AA**", "omahahi"))
    # Macros given to a call replace the stored ones.
    assert len(pql.parse_range("$x1", macros={"x1": "KK"})) == 6
    with pytest.raises(PqlRangeError):
        pql.parse_range("$aces", "omahahi", macros={})


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (".define $ds 'AA'", "built-in"),
        (".define $1x 'AA'", "not a range name"),
        (".define open", "no range is named"),
        (".define $open 'AA", "quote is not closed"),
        (".undefine $nothing", "no range is named"),
        (".undefine", "missing name"),
    ],
)
def test_define_mistakes(line: str, message: str) -> None:
    with pytest.raises(SessionError, match=message):
        Session().handle(line)


def test_a_bad_or_circular_range_is_refused_with_its_position() -> None:
    with pytest.raises(PqlRangeError, match="col 5"):
        Session().handle(".define $bad 'AK, 1'")
    s = Session()
    s.handle(".define $aa 'AA'")
    with pytest.raises(PqlRangeError, match="uses itself"):
        s.handle(".define $aa '$aa, KK'")
    assert named_ranges.load() == {"aa": "AA"}
    # A damaged file does not stop queries, and is not overwritten (what it holds is kept).
    named_ranges.ranges_path().write_text("{not json", encoding="utf-8")
    assert named_ranges.load() == {}
    assert len(pql.parse_range("AA")) == 6
    with pytest.raises(SessionError, match="not a named-ranges file"):
        s.handle(".define $kk 'KK'")
    assert named_ranges.ranges_path().read_text(encoding="utf-8") == "{not json"


def test_explore_names_a_player() -> None:
    r = Session().handle(".explore hero")
    assert r.explore == "hero"
    with pytest.raises(SessionError, match="missing player"):
        Session().handle(".explore")


def test_the_data_directory_is_platformdirs_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    # Worked out without loading platformdirs (every query looks for named ranges there).
    monkeypatch.delenv("PQL_DATA_DIR")
    for xdg in ("", "/tmp/xdg-data"):
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
        assert config.data_dir() == Path(platformdirs.user_data_dir("pql", appauthor=False))


# ---------------------------------------------------------------------------------------------
# A hostile ranges.json (issue 41, item 6): what cannot be used is skipped with one warning
# naming the file, said once; the file is read only for a statement that uses a `$name`.

PLAIN = "select avg(riverEquity(hero)) from hero='AsAh', villain='KsKd', board='2c3d4h5s9c'"
NAMED = "select avg(riverEquity(hero)) from hero='$open', villain='KsKd', board='2c3d4h5s9c'"
WRITTEN = "select avg(riverEquity(hero)) from hero='QQ+', villain='KsKd', board='2c3d4h5s9c'"


@pytest.fixture(autouse=True)
def _warnings_not_yet_said(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts as a new process would: nothing said yet, warnings on stderr."""
    monkeypatch.setattr(named_ranges, "_said", set(), raising=False)
    monkeypatch.setattr(named_ranges, "_warnings", [], raising=False)
    monkeypatch.setattr(named_ranges, "_claimed", False, raising=False)


def write_ranges(text: str | bytes) -> Path:
    path = named_ranges.ranges_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def value(text: str) -> object:
    (r,) = pql.run(text, exact=True)
    return r.columns[0].value


@pytest.mark.parametrize(
    ("entries", "why"),
    [
        ('"a": "AA"', "'$a' is not a range name"),
        ('"ab": "\\ud800"', "not Unicode text"),
        ('"x1": {"y": [1, {"z": 2}]}', "not a range text"),
        ('"x1": 5', "not a range text"),
        ('"ds": "AA"', "'$ds' is a built-in macro"),
        ('"bad name": "AA"', "is not a range name"),
        ('"\\ud800x": "AA"', "is not a range name"),
    ],
    ids=["one-letter", "surrogate", "nested", "number", "built-in", "space", "surrogate-name"],
)
def test_an_entry_that_cannot_be_used_is_skipped_with_one_warning(
    entries: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_ranges('{"open": "QQ+", ' + entries + ', "kk": "KK"}')
    assert value(PLAIN) == value(PLAIN)  # a statement without names never reads the file
    assert capsys.readouterr().err == ""
    assert value(NAMED) == value(WRITTEN)
    assert len(pql.parse_range("$kk")) == 6
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"pql: warning: {path}: skipped 1 named range that cannot be used: ")
    assert why in err
    value(NAMED)  # said once a process
    assert capsys.readouterr().err == ""
    assert set(named_ranges.load()) == {"open", "kk"}


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deep"),
        ('{"open": ' * 5_000 + '"QQ+"' + "}" * 5_000, "nested too deep"),
        ("{not json", "not JSON"),
        ('["open", "QQ+"]', "not a JSON object"),
        (b'{"open": "\xff"}', "not UTF-8"),
    ],
    ids=["deep-array", "deep-object", "not-json", "array", "not-utf8"],
)
def test_a_file_that_cannot_be_read_is_said_once(
    content: str | bytes, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_ranges(content)
    assert value(PLAIN) == value(PLAIN)
    assert capsys.readouterr().err == ""
    with pytest.raises(PqlRangeError, match=r"unknown named range `\$open`"):
        pql.run(NAMED)
    with pytest.raises(PqlRangeError, match=r"unknown named range `\$open`"):
        pql.parse_range("$open")
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"pql: warning: cannot read the named ranges in {path}: ")
    assert why in err
    assert err.endswith("; no $name is defined until it is fixed\n")


def test_a_directory_in_place_of_the_file_is_said_once(capsys: pytest.CaptureFixture[str]) -> None:
    path = named_ranges.ranges_path()
    path.mkdir(parents=True)
    for _ in range(3):
        with pytest.raises(PqlRangeError, match="unknown named range"):
            pql.run(NAMED)
    err = capsys.readouterr().err
    said = f"cannot read the named ranges in {path}: Is a directory; no $name is defined until it is fixed"
    assert err == f"pql: warning: {said}\n"


def test_a_front_end_takes_the_warnings_itself(capsys: pytest.CaptureFixture[str]) -> None:
    path = write_ranges('{"open": "QQ+", "a": "AA"}')
    named_ranges.claim_warnings()
    assert value(NAMED) == value(WRITTEN)
    assert capsys.readouterr().err == ""
    (warning,) = named_ranges.take_warnings()
    assert warning.startswith(f"{path}: skipped 1 named range that cannot be used: ")
    value(NAMED)
    assert named_ranges.take_warnings() == []


def test_the_command_says_a_warning_once_on_stderr(tmp_path: Path) -> None:
    import os  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    path = tmp_path / "ranges.json"
    path.write_text('{"open": "QQ+", "a": "AA"}', encoding="utf-8")
    env = {**os.environ, "PQL_DATA_DIR": str(tmp_path), "PQL_CONFIG": str(tmp_path / "none.toml")}
    command = [sys.executable, "-m", "pql_repl.cli", "-c", f"{NAMED}; {NAMED}; {PLAIN}"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(", exact\n") == 3  # three results, each "N deals, exact"
    assert done.stderr == (
        f"pql: warning: {path}: skipped 1 named range that cannot be used: "
        "'$a' is not a range name: use a letter, then letters, digits or '_' (two characters at least)\n"
    )


def test_a_large_file_costs_a_statement_only_the_names_it_uses() -> None:
    """150,000 names: read once (when a statement first uses one), then each statement takes
    only what it uses, so a hundred statements cost about what they cost with one name."""
    import time  # noqa: PLC0415

    def hundred(text: str) -> float:
        started = time.perf_counter()
        for _ in range(100):
            pql.prepare(text)
        return time.perf_counter() - started

    write_ranges('{"open": "QQ+"}')
    small = hundred(NAMED)
    write_ranges("{" + ", ".join(f'"n{i}": "AA, KK"' for i in range(150_000)) + ', "open": "QQ+"}')
    pql.prepare(NAMED)  # the file read once
    assert hundred(PLAIN) < 3 * small + 0.5
    assert hundred(NAMED) < 3 * small + 0.5


def test_the_line_repl_says_a_warning_between_prompts(capsys: pytest.CaptureFixture[str]) -> None:
    """`pql --plain` checks as you type, on another thread: a warning found then waits for the
    line to have run, and is said once."""
    import sys  # noqa: PLC0415
    import threading  # noqa: PLC0415

    from prompt_toolkit.input import create_pipe_input  # noqa: PLC0415
    from prompt_toolkit.output import DummyOutput  # noqa: PLC0415

    from pql_repl.repl.plain import PlainRepl  # noqa: PLC0415

    path = write_ranges('{"open": "QQ+", "a": "AA"}')
    with create_pipe_input() as pipe:
        # Results and messages in one stream, in the order they come.
        repl = PlainRepl(input=pipe, output=DummyOutput(), write=lambda text: sys.stderr.write(f"OUT {text}"))
        code: list[int] = []
        thread = threading.Thread(target=lambda: code.append(repl.run()), daemon=True)
        thread.start()
        pipe.send_text(f"{NAMED};\r{NAMED};\r.quit\r")
        thread.join(120)
    assert code == [0]
    said = capsys.readouterr().err
    assert said.count("OUT avg(riverEquity(hero))") == 2
    assert said.count("pql: warning: ") == 1
    warning = said.index(f"pql: warning: {path}: skipped 1 named range that cannot be used: ")
    assert said.index("OUT avg(riverEquity(hero))") < warning < said.rindex("OUT avg(riverEquity(hero))")
