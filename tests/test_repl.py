"""The prompt_toolkit line REPL driven through a pipe input, running real queries."""

from __future__ import annotations

import csv
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.enums import EditingMode
from prompt_toolkit.history import FileHistory
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.layout.processors import TransformationInput
from prompt_toolkit.output import DummyOutput

from pql_repl.files.history import read_entries
from pql_repl.repl.plain import ErrorMarker, PlainRepl, PqlCompleter, input_complete
from pql_repl.session.completion import complete
from pql_repl.session.session import Session
from pql_repl.session.themes import PLAIN_STYLES, plain_style
from pql_repl.session.vocabulary import vocabulary

QUERY = "select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins from hero='AA', villain='KK';"


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PQL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PQL_CONFIG", str(tmp_path / "no-config.toml"))
    return tmp_path / "data"


@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    with create_pipe_input() as p:
        yield p


def start(repl: PlainRepl) -> tuple[threading.Thread, list[int]]:
    code: list[int] = []
    thread = threading.Thread(target=lambda: code.append(repl.run()), daemon=True)
    thread.start()
    return thread, code


def wait_for(condition: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_enter_runs_only_complete_input() -> None:
    assert input_complete(".trials 10")
    assert input_complete("select avg(1) from h='AA';")
    assert input_complete("select avg(1)\nfrom h='AA'\n")
    assert not input_complete("select avg(1)")
    assert not input_complete("select avg(1) from h='AA;")


def test_completer_is_the_shared_engine() -> None:
    text = "select avg(riverEq"
    got = [c.text for c in PqlCompleter().get_completions(Document(text), CompleteEvent())]
    assert got == [c.text for c in complete(text)][: len(got)]
    assert got[0] == "riverEquity"


def test_no_menu_by_itself_after_a_closing_quote_a_semicolon_or_a_parenthesis() -> None:
    typing, asked = CompleteEvent(text_inserted=True), CompleteEvent(completion_requested=True)
    for text in ("select avg(1) from villain='KK'", ".range holdem 'QQ+, AKs'", "select avg(1)", "x;"):
        assert list(PqlCompleter().get_completions(Document(text), typing)) == [], text
    # Tab still asks, and a word being typed still opens the menu.
    assert [c.text for c in PqlCompleter().get_completions(Document("select avg(1) from v='KK'"), asked)] == [
        "where"
    ]
    assert list(PqlCompleter().get_completions(Document("select avg(riverEq"), typing))


def type_keys(pipe: PipeInput, text: str) -> None:
    """Type ``text`` a key at a time, as a person types."""
    for ch in text:
        pipe.send_text(ch)


def test_enter_after_a_quote_breaks_the_line_and_a_range_command_runs(pipe: PipeInput) -> None:
    out: list[str] = []
    repl = PlainRepl(input=pipe, output=DummyOutput(), write=out.append)
    ran: list[str] = []
    execute = repl.execute
    repl.execute = lambda text: ran.append(text) or execute(text)  # type: ignore[method-assign]
    thread, code = start(repl)
    typed = "select avg(riverEquity(hero)) from hero='AA', villain='KK'"
    type_keys(pipe, typed)
    pipe.send_text("\r")
    wait_for(lambda: repl.prompt.default_buffer.text == typed + "\n")
    type_keys(pipe, ";")
    pipe.send_text("\r")
    wait_for(lambda: len(ran) == 1)
    # Keys typed while the statement runs go to its progress line (Ctrl+C cancels): the next
    # line is typed once the result is out, however long the run takes.
    wait_for(lambda: repl.last is not None)
    type_keys(pipe, ".range holdem 'QQ+, AKs'")
    pipe.send_text("\r")
    wait_for(lambda: len(ran) == 2)
    pipe.send_text(".quit\r")
    thread.join(60)
    assert code == [0]
    assert ran[:2] == [typed + "\n;", ".range holdem 'QQ+, AKs'"]
    assert "22 hands" in "".join(out)


def test_completion_menu_shows_signature_and_doc() -> None:
    (first, *_) = PqlCompleter().get_completions(Document("select avg(riverEq"), CompleteEvent())
    info = vocabulary().function("riverEquity")
    assert info is not None
    assert first.text == "riverEquity"
    assert first.display_text == info.signature
    assert first.display_meta_text == info.doc
    (hero,) = PqlCompleter().get_completions(
        Document("select avg(riverEquity(he)) from hero='AA'", 25), CompleteEvent()
    )
    assert (hero.display_text, hero.display_meta_text) == ("hero", "player")


def test_runs_a_multi_line_query_and_dot_commands(pipe: PipeInput, data: Path) -> None:
    out: list[str] = []
    repl = PlainRepl(input=pipe, output=DummyOutput(), write=out.append)
    thread, code = start(repl)
    pipe.send_text(".trials 2000\r.seed 7\r")
    # Enter before the `;` continues the statement on a new line.
    pipe.send_text(QUERY.replace(" from", "\r from") + "\r")
    wait_for(lambda: repl.last is not None)
    pipe.send_text(".quit\r")
    thread.join(60)
    assert code == [0]
    text = "".join(out)
    assert "eq" in text
    assert "wins" in text
    assert "2,000 trials" in text
    assert repl.last is not None
    assert repl.last.trials == 2000
    assert repl.last.column("eq").value is not None
    assert 0.75 < float(repl.last.column("eq").value or 0) < 0.9
    assert any("riverEquity" in e for e in read_entries(data / "history"))


def test_seeded_runs_repeat(pipe: PipeInput) -> None:
    out: list[str] = []
    repl = PlainRepl(input=pipe, output=DummyOutput(), write=out.append)
    thread, _ = start(repl)
    pipe.send_text(".trials 3000\r.seed 11\r.exact off\r" + QUERY + "\r")
    wait_for(lambda: repl.last is not None)
    first = repl.last
    repl.last = None
    pipe.send_text(QUERY + "\r")
    wait_for(lambda: repl.last is not None)
    pipe.send_text(".quit\r")
    thread.join(60)
    assert first is not None
    assert repl.last is not None
    assert repl.last.column("eq").value == first.column("eq").value


def test_ctrl_c_cancels_a_run_and_keeps_the_session(pipe: PipeInput) -> None:
    out: list[str] = []
    repl = PlainRepl(input=pipe, output=DummyOutput(), write=out.append)
    thread, code = start(repl)
    pipe.send_text(".trials 2000000000\r.exact off\r" + QUERY + "\r")
    # Cancel once the run has produced a snapshot (its progress line is up by then).
    wait_for(lambda: repl.progress is not None and repl.progress.result is not None)
    pipe.send_text("\x03")
    wait_for(lambda: repl.last is not None)
    assert repl.last is not None
    assert repl.last.cancelled
    assert 0 < repl.last.trials < 2_000_000_000
    # The session goes on.
    pipe.send_text(".trials 1000\r" + QUERY + "\r")
    wait_for(lambda: repl.last is not None and not repl.last.cancelled)
    pipe.send_text(".quit\r")
    thread.join(60)
    assert code == [0]
    assert repl.last.trials == 1000


def test_errors_keep_the_session(pipe: PipeInput, capsys: pytest.CaptureFixture[str]) -> None:
    out: list[str] = []
    repl = PlainRepl(input=pipe, output=DummyOutput(), write=out.append)
    thread, code = start(repl)
    pipe.send_text("select avg(riverEquty(hero)) from hero='AA';\r.nonsense\r.quit\r")
    thread.join(60)
    assert code == [0]
    err = capsys.readouterr().err
    assert "riverEquty" in err
    assert "nonsense" in err


def test_ctrl_r_finds_a_query_of_an_earlier_session(pipe: PipeInput, data: Path) -> None:
    data.mkdir(parents=True, exist_ok=True)
    FileHistory(str(data / "history")).store_string(QUERY)
    FileHistory(str(data / "history")).store_string(".show")
    out: list[str] = []
    repl = PlainRepl(input=pipe, output=DummyOutput(), write=out.append)
    repl.session.settings.apply("trials", 1500)
    thread, code = start(repl)
    # Ctrl+R, type part of the old query, Enter takes it, Enter runs it.
    pipe.send_text("\x12winsHi")
    pipe.send_text("\r")
    pipe.send_text("\r")
    wait_for(lambda: repl.last is not None)
    pipe.send_text(".quit\r")
    thread.join(60)
    assert code == [0]
    assert repl.last is not None
    assert repl.last.trials == 1500
    assert [c.name for c in repl.last.columns] == ["eq", "wins"]


def test_read_of_an_unreadable_or_self_reading_script_keeps_the_session(
    pipe: PipeInput, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latin1 = tmp_path / "latin1.pql"
    latin1.write_bytes("-- caf\xe9\n".encode("latin-1"))
    loop = tmp_path / "loop.pql"
    loop.write_text(f".read {loop}\n.trials 77\n")
    out: list[str] = []
    repl = PlainRepl(input=pipe, output=DummyOutput(), write=out.append)
    thread, code = start(repl)
    pipe.send_text(f".read {latin1}\r.read {loop}\r.read {tmp_path}\r.quit\r")
    thread.join(60)
    assert code == [0]
    err = capsys.readouterr().err
    assert "not UTF-8" in err
    assert "nested more than 16 deep" in err
    assert "is a directory" in err
    # The first error stops the scripts that read the failing one too.
    assert repl.session.settings.trials != 77


def test_too_many_trials_is_refused_and_the_session_goes_on(
    pipe: PipeInput, capsys: pytest.CaptureFixture[str]
) -> None:
    out: list[str] = []
    repl = PlainRepl(input=pipe, output=DummyOutput(), write=out.append)
    repl.session.settings.apply("trials", 1000)
    thread, code = start(repl)
    pipe.send_text(".trials 1e30\r" + QUERY + "\r")
    wait_for(lambda: repl.last is not None)
    pipe.send_text(".quit\r")
    thread.join(60)
    assert code == [0]
    assert "'1e30' is more than" in capsys.readouterr().err
    assert repl.last is not None
    assert repl.last.trials == 1000


def test_output_file_holds_one_valid_document_after_every_run(pipe: PipeInput, tmp_path: Path) -> None:
    json_path, csv_path = tmp_path / "out.json", tmp_path / "out.csv"
    json_path.write_text("old content\n")
    out: list[str] = []
    repl = PlainRepl(input=pipe, output=DummyOutput(), write=out.append)
    repl.session.settings.apply("trials", 1000)
    thread, code = start(repl)
    pipe.send_text(f".format json\r.output {json_path}\r")
    for runs in (1, 2):
        repl.last = None
        pipe.send_text(QUERY + "\r")
        wait_for(lambda: repl.last is not None)
        doc = json.loads(json_path.read_text())
        assert [s["trials"] for s in doc["statements"]] == [1000] * runs
    pipe.send_text(f".format csv\r.output {csv_path}\r")
    for _ in range(2):
        repl.last = None
        pipe.send_text(QUERY + "\r")
        wait_for(lambda: repl.last is not None)
    pipe.send_text(".quit\r")
    thread.join(60)
    assert code == [0]
    rows = list(csv.DictReader(csv_path.read_text().splitlines()))
    # One header for the file: each run's rows are appended under it, numbered on.
    assert [(row["statement"], row["selector"], row["trials"]) for row in rows] == [
        ("1", "eq", "1000"),
        ("1", "wins", "1000"),
        ("2", "eq", "1000"),
        ("2", "wins", "1000"),
    ]
    assert len(json.loads(json_path.read_text())["statements"]) == 2
    assert "".join(out) == ""


def test_an_error_is_marked_in_the_input_and_named_in_the_toolbar_as_you_type(pipe: PipeInput) -> None:
    repl = PlainRepl(input=pipe, output=DummyOutput(), write=[].append)
    thread, code = start(repl)
    typed = "select avg(riverEquty(hero)) from hero='AA'"
    type_keys(pipe, typed)
    buffer = repl.prompt.default_buffer
    wait_for(lambda: buffer.text == typed and repl.check.error_for(typed) is not None)
    toolbar = "".join(text for _, text, *_ in repl._toolbar())
    assert "1:12 unknown function 'riverEquty'" in toolbar
    # The marker covers the misspelt name in the line as drawn.
    fragments = [("", ch) for ch in typed]
    marked = ErrorMarker(repl.check).apply_transformation(
        TransformationInput(None, Document(typed), 0, lambda i: i, fragments, 80, 1)  # type: ignore[arg-type]
    )
    styled = "".join(text for style, text, *_ in marked.fragments if "pql-error" in style)
    assert styled == "riverEquty"
    # Fixed, the toolbar shows the settings again.
    type_keys(pipe, "\x7f" * len(typed) + "select avg(1) from hero='AA'")
    wait_for(lambda: buffer.text == "select avg(1) from hero='AA'" and repl.check._checked[0] == buffer.text)
    assert repl.check.error_for(buffer.text) is None
    assert "trials" in "".join(text for _, text, *_ in repl._toolbar())
    pipe.send_text(";\r")
    wait_for(lambda: repl.last is not None)  # keys typed during the run go to its progress line
    pipe.send_text(".quit\r")
    thread.join(60)
    assert code == [0]


def test_the_status_line_shows_each_running_estimate_with_its_error(pipe: PipeInput) -> None:
    repl = PlainRepl(input=pipe, output=DummyOutput(), write=[].append)
    thread, code = start(repl)
    pipe.send_text(".trials 2000000000\r.exact off\r" + QUERY + "\r")
    wait_for(lambda: repl.progress is not None and repl.progress.result is not None)
    assert repl.progress is not None
    status, estimates = "".join(text for _, text, *_ in repl.progress._line()).split("\n")
    assert "running" in status
    assert "Ctrl+C cancels" in status
    eq, wins = estimates.strip().split(" · ")
    assert re.fullmatch(r"eq 0\.\d+ ± 0\.\d+", eq), eq
    assert re.fullmatch(r"wins \d+\.\d\d% ± \d+\.\d\d%", wins), wins
    pipe.send_text("\x03")
    wait_for(lambda: repl.last is not None)
    pipe.send_text(".quit\r")
    thread.join(60)
    assert code == [0]


def test_counts_print_with_their_margin(pipe: PipeInput) -> None:
    out: list[str] = []
    repl = PlainRepl(input=pipe, output=DummyOutput(), write=out.append)
    thread, _ = start(repl)
    pipe.send_text(".trials 2000\r.exact off\r" + QUERY + "\r")
    wait_for(lambda: repl.last is not None)
    pipe.send_text(".quit\r")
    thread.join(60)
    (wins,) = [line for line in "".join(out).splitlines() if line.startswith("wins")]
    assert re.fullmatch(r"wins \| \d+\.\d\d% ± \d+\.\d\d% \| +\d{1,3}(,\d{3})*", wins), wins


def test_colours_follow_the_theme_and_read_on_any_background(pipe: PipeInput) -> None:
    def keyword_colour(repl: PlainRepl) -> str | None:
        style = repl.prompt.style
        assert style is not None
        return style.get_attrs_for_style_str("class:pygments.keyword").color

    repl = PlainRepl(input=pipe, output=DummyOutput(), write=[].append)
    assert keyword_colour(repl) == "ansiblue"  # the terminal's own palette: dark or light
    repl.execute(".theme solarized-light")
    assert keyword_colour(repl) == "859900"  # pygments' solarized-light keyword green
    out: list[str] = []
    repl.write = out.append
    repl.execute(".theme")
    assert "* solarized-light" in "".join(out).splitlines()


def test_every_app_theme_has_colours_in_plain() -> None:
    textual_theme = pytest.importorskip("textual.theme")
    assert set(textual_theme.BUILTIN_THEMES) <= set(PLAIN_STYLES)
    for name in PLAIN_STYLES:
        assert plain_style(name).styles  # every style exists in pygments


def test_long_output_goes_through_the_pager(pipe: PipeInput) -> None:
    paged: list[str] = []
    out: list[str] = []
    repl = PlainRepl(
        input=pipe, output=DummyOutput(), write=out.append, pager=lambda t: bool(paged.append(t)) or True
    )
    rows = DummyOutput().get_size().rows
    repl.execute(".functions")  # longer than the terminal
    assert len(paged) == 1
    assert paged[0].count("\n") >= rows
    assert out == []
    repl.execute(".show")  # fits: printed
    assert len(paged) == 1
    assert "trials" in "".join(out)


def test_vi_mode_from_the_config_and_the_mode_command(pipe: PipeInput, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('editing_mode = "vi"\ntrials = 1000\n')
    repl = PlainRepl(Session.from_config(config), input=pipe, output=DummyOutput(), write=[].append)
    assert repl.prompt.editing_mode is EditingMode.VI
    thread, code = start(repl)
    # vi starts in insert mode; Escape then Enter runs the statement from normal mode.
    pipe.send_text(QUERY)
    pipe.send_text("\x1b")
    pipe.send_text("\r")
    wait_for(lambda: repl.last is not None)
    pipe.send_text(".mode emacs\r")
    wait_for(lambda: repl.prompt.editing_mode is EditingMode.EMACS)
    pipe.send_text(".quit\r")
    thread.join(60)
    assert code == [0]
    assert repl.last is not None
    assert repl.last.trials == 1000
