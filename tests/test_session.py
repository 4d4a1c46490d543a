"""Session settings, dot-commands, config files and statement splitting (pql_repl.session.session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pql_repl import PqlRangeError, functions
from pql_repl.base.limits import MAX_READ_DEPTH
from pql_repl.base.records import fields
from pql_repl.files.config import ConfigError, config_path, data_dir, load_config
from pql_repl.session.session import Session
from pql_repl.session.settings import SessionError, Settings, parse_count, parse_seconds, parse_seed
from pql_repl.session.statements import DotCommand, Statement, is_complete, read_script, split_statements

# ---------------------------------------------------------------------------------------------
# Splitting


def texts(source: str) -> list[str]:
    return [item.text for item in split_statements(source)]


def test_semicolons_and_blank_lines_end_statements() -> None:
    source = "select 1 from a='x'; select 2 from a='x'\nfrom b\n\nselect 3\n"
    assert texts(source) == ["select 1 from a='x'", "select 2 from a='x'\nfrom b", "select 3"]


def test_no_split_inside_strings_or_comments() -> None:
    source = "select 1 from a='A;K\n\nQ'; /* a ; comment\n\nwith a blank line */ select 2 -- c;\nfrom x;"
    items = split_statements(source)
    assert [i.text for i in items] == [
        "select 1 from a='A;K\n\nQ'",
        "/* a ; comment\n\nwith a blank line */ select 2 -- c;\nfrom x",
    ]


def test_comment_only_parts_are_dropped() -> None:
    assert texts("-- nothing here\n\n/* nor here */;\n;;\n") == []


def test_positions_are_those_of_the_source() -> None:
    source = "-- intro\n.trials 10\n\n  select 1; select 2\n"
    items = split_statements(source)
    assert items[0] == DotCommand(".trials 10", 2)
    assert items[1] == Statement("select 1", 4, 3, source.index("select 1"))
    assert items[2] == Statement("select 2", 4, 13, source.index("select 2"))


def test_dot_commands_are_whole_lines_and_end_an_open_statement() -> None:
    items = split_statements("select 1\n  .seed 5\nselect 2 where x > .5;\n")
    assert items == [
        Statement("select 1", 1, 1, 0),
        DotCommand(".seed 5", 2),
        Statement("select 2 where x > .5", 3, 1, 19),
    ]


def test_unterminated_string_stays_one_statement_for_the_parser() -> None:
    assert texts("select 1 from a='AK;\n\nselect 2") == ["select 1 from a='AK;\n\nselect 2"]


@pytest.mark.parametrize(
    ("text", "complete"),
    [
        ("", True),
        ("   \n", True),
        (".trials 5", True),
        ("select 1", False),
        ("select 1;", True),
        ("select 1 -- done;", False),
        ("select 1; -- note", True),
        ("select 1\n\n", True),
        ("select 1 from a='x;", False),
        ("select 1 /* ; ", False),
    ],
)
def test_is_complete(text: str, complete: bool) -> None:
    assert is_complete(text) is complete


# ---------------------------------------------------------------------------------------------
# Values


@pytest.mark.parametrize(
    ("text", "value"),
    [("600000", 600_000), ("600_000", 600_000), ("600k", 600_000), ("1e6", 10**6), ("2M", 2 * 10**6)],
)
def test_counts(text: str, value: int) -> None:
    assert parse_count(text) == value


@pytest.mark.parametrize("text", ["0", "-5", "1.5", "lots", "", "0.0001k", "-1e400"])
def test_bad_counts(text: str) -> None:
    with pytest.raises(SessionError):
        parse_count(text)


@pytest.mark.parametrize("text", ["1e30", "1e400", str(2**64), "18446744073709552k"])
def test_counts_the_engine_cannot_take_are_refused(text: str) -> None:
    assert parse_count(str(2**64 - 1)) == 2**64 - 1
    with pytest.raises(SessionError, match="is more than 18,446,744,073,709,551,615"):
        parse_count(text)
    for setting in ("trials", "threads"):
        with pytest.raises(SessionError, match="is more than"):
            Session().handle(f".{setting} {text}")


def test_seeds_and_seconds() -> None:
    assert parse_seed("42") == 42
    assert parse_seed("off") is None
    with pytest.raises(SessionError):
        parse_seed(str(2**64))
    assert parse_seconds("1.5") == 1.5
    assert parse_seconds("500ms") == 0.5
    assert parse_seconds("off") is None
    with pytest.raises(SessionError):
        parse_seconds("-1")


# ---------------------------------------------------------------------------------------------
# Dot-commands


def test_setting_commands_change_the_run_options() -> None:
    s = Session()
    assert s.run_options() == {
        # The default: each statement's own (600,000 for select, 10,000 for simulate).
        "trials": None,
        "seed": None,
        "exact": None,
        "threads": None,
        "time_limit": None,
        "precision": None,
        "cluster": None,
    }
    lines = [".trials 20k", ".seed 7", ".exact off", ".threads 2", ".time_limit 3", ".precision 0.001"]
    for line in [*lines, ".cluster tcp://sched:8786"]:
        result = s.handle(line)
        assert result.changed
        assert not result.output
        assert not result.quit
    assert s.run_options() == {
        "trials": 20_000,
        "seed": 7,
        "exact": False,
        "threads": 2,
        "time_limit": 3.0,
        "precision": 0.001,
        "cluster": "tcp://sched:8786",
    }
    s.handle(".exact on")
    assert s.run_options()["exact"] is True
    s.handle(".threads auto")
    assert s.run_options()["threads"] is None
    s.handle(".exact AUTO")
    s.handle(".seed off")
    s.handle(".time_limit off")
    assert s.run_options()["exact"] is None
    assert s.run_options()["seed"] is None
    assert s.run_options()["time_limit"] is None


def test_notes_confirm_the_new_value() -> None:
    assert Session().handle(".trials 1e5").note == "trials 100000"
    assert Session().handle(".seed off").note == "seed off"


def test_format_output_and_timer() -> None:
    s = Session()
    assert s.handle(".format CSV").changed == {"format"}
    assert s.settings.format == "csv"
    s.handle(".output results.txt")
    assert s.settings.output == "results.txt"
    s.handle(".output stdout")
    assert s.settings.output is None
    s.handle(".timer on")
    assert s.settings.timer
    with pytest.raises(SessionError, match="format"):
        s.handle(".format xml")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (".trials", "missing value"),
        (".trials many", "not a number"),
        (".exact maybe", "unknown exact mode"),
        (".timer sometimes", "not on or off"),
        (".precision 2", "between 0 and 1"),
        (".read", "missing file"),
        (".read /nonexistent/file.pql", "no such file"),
        (".describe", "missing name"),
        (".range holdem", "missing argument"),
        ("trials 5", "not a dot-command"),
    ],
)
def test_bad_arguments_are_explained(line: str, message: str) -> None:
    with pytest.raises(SessionError, match=message):
        Session().handle(line)


def test_unknown_command_suggests_the_closest() -> None:
    with pytest.raises(SessionError) as e:
        Session().handle(".trails 1000")
    assert e.value.message == "unknown command '.trails'"
    assert e.value.hint == "did you mean '.trials'?"
    with pytest.raises(SessionError) as e:
        Session().handle(".xyzzy")
    assert e.value.hint == "type .help for the list"


def test_help_lists_every_command() -> None:
    out = Session().handle(".help").output
    for name in ["trials", "seed", "exact", "threads", "format", "read", "output", "functions", "describe"]:
        assert f".{name}" in out
    for name in ["range", "timer", "time_limit", "precision", "quit", "show"]:
        assert f".{name}" in out
    assert Session().handle(".help .seed").output.startswith(".seed N|off")


def test_quit_read_and_show(tmp_path: Path) -> None:
    s = Session()
    assert s.handle(".quit").quit
    assert s.handle(".exit").quit
    script = tmp_path / "more.pql"
    script.write_text("select 1;")
    assert s.handle(f".read {script}").read == script
    s.handle(".seed 3")
    shown = s.handle(".show").output
    assert "seed          3" in shown
    assert "trials        600000" in shown


def test_read_of_a_directory_says_so(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match="it is a directory"):
        Session().handle(f".read {tmp_path}")


def test_read_script_reports_what_it_cannot_read(tmp_path: Path) -> None:
    script = tmp_path / "latin1.pql"
    script.write_bytes("-- caf\xe9\nselect 1;".encode("latin-1"))
    with pytest.raises(SessionError, match="not UTF-8"):
        read_script(script)
    with pytest.raises(SessionError, match=r"cannot read .*: Is a directory"):
        read_script(tmp_path)
    good = tmp_path / "good.pql"
    good.write_text("\ufeffselect 1;", encoding="utf-8")
    assert read_script(good, MAX_READ_DEPTH - 1) == "select 1;"
    with pytest.raises(SessionError, match=f"nested more than {MAX_READ_DEPTH} deep"):
        read_script(good, MAX_READ_DEPTH)


def test_functions_lists_the_catalogue() -> None:
    names = {f.name for f in functions()}
    lines = Session().handle(".functions").output.splitlines()
    assert {line.split()[0] for line in lines} == names
    found = [line.split()[0] for line in Session().handle(".functions equity").output.splitlines()]
    assert "riverEquity" in found
    assert "HvHEquity" in found
    assert all("equity" in name.lower() for name in found)
    ending = [line.split()[0] for line in Session().handle(".functions *Equity").output.splitlines()]
    assert ending
    assert all(name.lower().endswith("equity") for name in ending)
    marked = [line.split()[0] for line in lines if line.endswith(" (ext)")]
    assert sorted(marked) == sorted(f.name for f in functions() if f.origin == "ext")
    assert "handStrength" in marked
    with pytest.raises(SessionError, match="no function matches"):
        Session().handle(".functions zzzz")


def test_describe_shows_signature_doc_example_and_games() -> None:
    (info,) = [f for f in functions() if f.name == "riverEquity"]
    out = Session().handle(".describe RIVEREQUITY").output.splitlines()
    assert out[0] == info.signature
    assert out[1].strip() == info.doc
    assert out[2].strip() == f"example: {info.example}"
    assert "holdem" in out[3]
    assert "razz" in out[3]
    with pytest.raises(SessionError) as e:
        Session().handle(".describe riverEquty")
    assert e.value.hint == "did you mean 'riverEquity'?"


@pytest.mark.parametrize(
    ("line", "count"),
    [
        (".range holdem 'QQ+, AK'", 18 + 16),  # three pairs of 6 combos, and 16 ace-kings
        (".range holdem AKs", 4),
        (".range holdem '**'", 1326),
        (".range omahahi 'AcAdKwKx' generic", 1),
        (".range omahahi 'RRRR' generic", 13),
    ],
)
def test_range_counts_hands(line: str, count: int) -> None:
    out = Session().handle(line).output.splitlines()
    noun = "hand" if count == 1 else "hands"
    assert out[0].startswith(f"{count} {noun} (")
    shown = out[1].split(" … ")[0].split()
    assert len(shown) == min(count, 24)


def test_range_errors_are_range_errors() -> None:
    with pytest.raises(PqlRangeError):
        Session().handle(".range holdem 'A#'")
    with pytest.raises(SessionError, match="quote"):
        Session().handle(".range holdem 'AK")


# ---------------------------------------------------------------------------------------------
# Config


def test_config_file_sets_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "config.toml"
    path.write_text('trials = 1000\nseed = 5\nthreads = 1\nformat = "json"\nexact = false\ntheme = "nord"\n')
    monkeypatch.setenv("PQL_CONFIG", str(path))
    assert config_path() == path
    s = Session.from_config()
    assert s.settings == Settings(trials=1000, seed=5, threads=1, format="json", exact="off", theme="nord")


def test_show_lines_up_every_setting_and_names_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`.show`: every setting (the longest names too) with its value in one column, then the
    config file in use, whether it is there and whether PQL_CONFIG named it (issue 37)."""
    path = tmp_path / "config.toml"
    path.write_text("seed = 3\nhistory_size = 500\n")
    monkeypatch.setenv("PQL_CONFIG", str(path))
    lines = Session.from_config().handle(".show").output.splitlines()
    names = [line.split("  ")[0].strip() for line in lines]
    assert names == [*fields(Settings()), "config file"]
    starts = {len(line) - len(line[len(name) :].lstrip()) for line, name in zip(lines, names, strict=True)}
    assert len(starts) == 1, lines  # the values start in one column
    assert lines[names.index("history_size")].split()[1] == "500"
    assert lines[names.index("editing_mode")].split()[1] == "emacs"
    assert lines[-1].endswith(f"{path} (read at the start; named by PQL_CONFIG)")
    monkeypatch.setenv("PQL_CONFIG", str(tmp_path / "absent.toml"))
    last = Session.from_config().handle(".show").output.splitlines()[-1]
    assert last.endswith(
        f"{tmp_path / 'absent.toml'} (none there: the built-in defaults; named by PQL_CONFIG)"
    )
    monkeypatch.delenv("PQL_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    last = Session().handle(".show").output.splitlines()[-1]
    assert last.endswith(f"{config_path()} (none there)")


def test_missing_config_is_no_config(tmp_path: Path) -> None:
    assert load_config(tmp_path / "absent.toml") == {}
    assert Session.from_config(tmp_path / "absent.toml").settings == Settings()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("trails = 5", "unknown setting 'trails'"),
        ('trials = "many"', "'trials' must be int"),
        ("timer = 1", "'timer' must be bool"),
        ("trials = true", "'trials' must be int"),
        ("trials = ", "config.toml"),
    ],
)
def test_bad_config_is_reported(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(path)


def test_bad_config_values_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('format = "xml"')
    with pytest.raises(SessionError, match="unknown format"):
        Session.from_config(path)


def test_data_dir_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path))
    assert data_dir() == tmp_path


def test_output_to_a_path_that_cannot_be_written_is_refused_at_once(tmp_path: Path) -> None:
    s = Session()
    with pytest.raises(SessionError, match="there is no directory '/nonexistent/dir'"):
        s.handle(".output /nonexistent/dir/x.csv")
    with pytest.raises(SessionError, match="it is a directory"):
        s.handle(f".output {tmp_path}")
    assert s.settings.output is None
    s.handle(f".output {tmp_path / 'x.csv'}")
    assert s.settings.output == str(tmp_path / "x.csv")


def test_theme_must_be_one_the_front_end_offers() -> None:
    s = Session()
    s.themes = ("nord", "textual-dark")
    with pytest.raises(SessionError) as e:
        s.handle(".theme nosuch")
    assert e.value.message == "unknown theme 'nosuch'"
    assert e.value.hint == "one of nord, textual-dark"
    # Alone, `.theme` lists them, the one in use marked.
    assert s.handle(".theme").output.splitlines()[:2] == ["  nord", "  textual-dark"]
    assert s.settings.theme is None
    s.handle(".theme NORD")
    assert s.settings.theme == "nord"
    assert s.handle(".theme").output.splitlines()[:2] == ["* nord", "  textual-dark"]
    # Front ends without themes keep the name for the app's next start.
    assert Session().handle(".theme anything").note == "theme anything"
