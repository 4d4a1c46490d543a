"""PQL in notebooks: ``%load_ext pql_repl``, the ``%pql`` and ``%%pql`` magics.

A real notebook is executed headless (nbclient on an ipykernel kernel in its own HOME, IPython
and Jupyter folders): the settings magic, a cell whose numbers are ``pql -c``'s with the same
seed, ``_.to_pandas()``, the live widgets, and a long cell interrupted as Jupyter's stop button
does (the kernel gets a SIGINT once the widgets show the run going), whose partial result is
kept and marked. In-process tests drive the magics through IPython's own shell, which has no
kernel: there the live view is text.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import pql_repl as pql

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("ipywidgets")
pytest.importorskip("pandas")

REPO = Path(pql.__file__).resolve().parent.parent
QUERY = "select avg(riverEquity(hero)) as eq, count(winsHi(villain)) as kings from hero='AA', villain='KK'"
LONG = "select avg(riverEquity(hero)) as eq from hero='AA', villain='KK'"


def pql_c(*args: str) -> list[dict[str, str]]:
    """``pql -c`` in CSV, its rows."""
    done = subprocess.run(
        [sys.executable, "-m", "pql_repl.cli", *args, "--format", "csv"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return list(csv.DictReader(io.StringIO(done.stdout)))


# ---------------------------------------------------------------------------------------------
# The notebook, executed headless


def kernel_path(*first: Path) -> str:
    """The kernel's PYTHONPATH: this checkout (however pql is installed), after ``first``."""
    return os.pathsep.join(filter(None, [*map(str, first), str(REPO), os.environ.get("PYTHONPATH")]))


@pytest.fixture
def jupyter_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The client's and the kernel's folders, all under ``tmp_path``: no user's IPython profile,
    Jupyter config or runtime files, pql config or named ranges reaches the run."""
    home = tmp_path / "home"
    home.mkdir()
    for name, path in {
        "HOME": home,
        "IPYTHONDIR": home / ".ipython",
        "JUPYTER_CONFIG_DIR": home / ".jupyter",
        "JUPYTER_DATA_DIR": home / "jupyter-data",
        "JUPYTER_RUNTIME_DIR": home / "jupyter-runtime",
        "XDG_CONFIG_HOME": home / ".config",
        "XDG_DATA_HOME": home / ".local" / "share",
        "XDG_CACHE_HOME": home / ".cache",
        "MPLCONFIGDIR": home / ".matplotlib",
        "PQL_CONFIG": tmp_path / "no-config.toml",
        "PQL_DATA_DIR": tmp_path / "pql-data",
    }.items():
        monkeypatch.setenv(name, str(path))
    monkeypatch.delenv("JUPYTER_PATH", raising=False)
    monkeypatch.delenv("JUPYTER_CONFIG_PATH", raising=False)
    return home


def text_of(output: dict[str, Any]) -> str:
    if output["output_type"] == "stream":
        return str(output["text"])
    return str(output.get("data", {}).get("text/plain", ""))


def widget_texts(client: Any) -> list[str]:
    """The values of the HTML widgets the kernel has drawn so far (the live status lines)."""
    return [
        str(state.get("value", ""))
        for state in client.widget_state.values()
        if state.get("_model_name") == "HTMLModel"
    ]


def widgets_say_running(client: Any, cell: Any) -> bool:
    return any("running ·" in text for text in widget_texts(client))


def text_says_running(client: Any, cell: Any) -> bool:
    return any("running ·" in text_of(o) for o in cell.outputs if o["output_type"] == "display_data")


async def execute(
    tmp_path: Path,
    nb: Any,
    interrupt_at: int,
    running: Callable[[Any, Any], bool] = widgets_say_running,
    env: dict[str, str] | None = None,
) -> Any:
    """Run every cell; cell ``interrupt_at`` is interrupted once its live view says it is
    ``running`` (waited for, not slept for)."""
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    kernel_env = {**os.environ, "PYTHONPATH": kernel_path(), **(env or {})}
    async with client.async_setup_kernel(env=kernel_env):
        for index, cell in enumerate(nb.cells):
            if index != interrupt_at:
                await client.async_execute_cell(cell, index)
                continue
            going = asyncio.ensure_future(client.async_execute_cell(cell, index))
            deadline = time.monotonic() + 60
            while not running(client, cell):
                assert not going.done(), "the long cell ended before it was interrupted"
                assert time.monotonic() < deadline, "the live view never showed the run going"
                await asyncio.sleep(0.05)
            await client.km.interrupt_kernel()
            await going
    return client


@pytest.mark.usefixtures("jupyter_home")
def test_a_notebook_runs_pql_cells_live_and_keeps_an_interrupted_result(tmp_path: Path) -> None:
    new = nbformat.v4
    nb = new.new_notebook()
    nb.cells = [
        new.new_code_cell("%load_ext pql_repl"),
        new.new_code_cell("%pql .seed 7\n%pql .trials 100000\n%pql .exact off"),
        new.new_code_cell(f"%%pql\n{QUERY}"),
        new.new_code_cell(
            "df = _.to_pandas()\nprint(df[['selector', 'value', 'trials', 'status']].to_json())"
        ),
        new.new_code_cell(f"%%pql\n.trials 1e12\n.threads 1\n{LONG}"),
        new.new_code_cell("partial = _\nprint(partial.cancelled, partial.trials)"),
    ]
    started = time.monotonic()
    client = asyncio.run(execute(tmp_path, nb, interrupt_at=4))
    took = time.monotonic() - started
    cells = nb.cells

    # The settings magic answers each change.
    said = "".join(text_of(o) for o in cells[1].outputs)
    assert "seed 7" in said
    assert "trials 100000" in said

    # The %%pql cell: its value is the result, shown as the HTML table, with pql -c's numbers.
    result = [o for o in cells[2].outputs if o["output_type"] == "execute_result"]
    assert len(result) == 1
    table = result[0]["data"]["text/html"]
    assert '<table class="pql-result sampled"' in table
    assert "riverEquity" in table
    expected = pql_c("-c", QUERY, "--seed", "7", "--trials", "100000", "--no-exact")
    # The live widgets gave way to the last status line.
    status = [o for o in cells[2].outputs if o["output_type"] == "display_data"]
    assert len(status) == 1
    assert "done · 100,000 trials" in text_of(status[0])

    # `_` is the result: to_pandas() holds pql -c's values to the last digit.
    frame = json.loads(text_of(cells[3].outputs[0]))
    assert list(frame["selector"].values()) == ["eq", "kings"]
    assert [float(row["value"]) for row in expected] == list(frame["value"].values())
    assert set(frame["trials"].values()) == {100_000}
    assert set(frame["status"].values()) == {"done"}

    # The interrupted cell: stopped, its partial result kept as the cell's value and marked.
    outputs = cells[4].outputs
    assert not [o for o in outputs if o["output_type"] == "error"]
    stderr = "".join(o["text"] for o in outputs if o.get("name") == "stderr")
    assert "pql: interrupted" in stderr
    partial = [o for o in outputs if o["output_type"] == "execute_result"]
    assert len(partial) == 1
    assert "cancelled (partial result)" in partial[0]["data"]["text/html"]
    live = "".join(text_of(o) for o in outputs if o["output_type"] == "display_data")
    assert "cancelled ·" in live
    assert "stopped: a partial result from" in live
    cancelled, trials = text_of(cells[5].outputs[0]).split()
    assert cancelled == "True"
    assert 0 < int(trials) < 10**12

    # While it ran, the widgets showed a progress bar and the values converging.
    models = {state.get("_model_name") for state in client.widget_state.values()}
    assert {"FloatProgressModel", "HTMLModel", "VBoxModel"} <= models
    assert any("pql-result" in text for text in widget_texts(client))
    assert took < 60


@pytest.mark.usefixtures("jupyter_home")
def test_without_ipywidgets_the_live_view_is_text_redrawn_in_place(tmp_path: Path) -> None:
    # A kernel where ipywidgets cannot be imported: a module of that name that refuses.
    blocker = tmp_path / "no-widgets"
    blocker.mkdir()
    (blocker / "ipywidgets.py").write_text("raise ImportError('ipywidgets is not installed here')\n")
    new = nbformat.v4
    nb = new.new_notebook()
    nb.cells = [
        new.new_code_cell("%load_ext pql_repl"),
        new.new_code_cell(f"%%pql\n.trials 1e12\n.exact off\n.threads 1\n.seed 7\n{LONG}"),
    ]
    env = {"PYTHONPATH": kernel_path(blocker)}
    client = asyncio.run(execute(tmp_path, nb, 1, running=text_says_running, env=env))
    outputs = nb.cells[1].outputs
    assert not client.widget_state
    # One output, drawn while the run went ("running ·", waited for above) and redrawn since.
    (live,) = [o for o in outputs if o["output_type"] == "display_data"]
    shown = text_of(live).splitlines()
    assert shown[0] == LONG
    assert shown[1].startswith("cancelled · ")
    assert shown[2].startswith("eq 0.8")
    assert shown[3].startswith("stopped: a partial result from")
    (value,) = [o for o in outputs if o["output_type"] == "execute_result"]
    assert "cancelled (partial result)" in value["data"]["text/html"]


# ---------------------------------------------------------------------------------------------
# In process: IPython's shell (no kernel: the live view is text)


@pytest.fixture
def shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from IPython.core.interactiveshell import InteractiveShell  # noqa: PLC0415

    monkeypatch.setenv("PQL_CONFIG", str(tmp_path / "no-config.toml"))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "pql_repl")
    yield ip
    del ip._pql_magic
    ip.extension_manager.loaded.discard("pql_repl")
    InteractiveShell.clear_instance()


def test_import_pql_repl_loads_no_ipython() -> None:
    code = (
        "import sys, pql_repl; pql_repl.load_ipython_extension; "
        "print(sorted(m for m in sys.modules if m.startswith(('IPython', 'pql_repl.notebook'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"


def test_settings_persist_across_cells_and_results_are_the_api_s(shell: Any) -> None:
    shell.run_line_magic("pql", ".seed 7")
    shell.run_line_magic("pql", ".trials 20000")
    shell.run_line_magic("pql", ".exact off")
    shell.run_line_magic("pql", ".define $big 'AA,KK'")
    one = shell.run_line_magic("pql", "select avg(riverEquity(hero)) as eq from hero='$big', villain='QQ'")
    assert isinstance(one, pql.StatementResult)
    assert (one.trials, one.seed, one.done, one.cancelled) == (20_000, 7, True, False)
    (same,) = pql.run(
        "select avg(riverEquity(hero)) as eq from hero='AA,KK', villain='QQ'",
        seed=7,
        trials=20_000,
        exact=False,
    )
    assert one.columns == same.columns
    several = shell.run_cell_magic("pql", "", f"{QUERY};\n{LONG}")
    assert isinstance(several, pql.Results)
    assert len(several) == 2
    frame = several.to_pandas()
    assert list(frame["statement"]) == [1, 1, 2]
    assert several._repr_html_().count("<table") == 2


def test_a_cell_with_only_commands_has_no_value_and_says_what_changed(shell: Any) -> None:
    from IPython.utils.capture import capture_output  # noqa: PLC0415

    with capture_output() as seen:
        value = shell.run_cell_magic("pql", ".trials 5000", ".seed 3\n.show")
    assert value is None
    assert "trials 5000" in seen.stdout
    assert "seed 3" in seen.stdout
    assert "config file" in seen.stdout  # .show's table
    with capture_output() as seen:
        shell.run_line_magic("pql", ".quit")
    assert "restart the kernel" in seen.stdout


def test_a_mistake_is_said_at_its_place_without_a_traceback(shell: Any) -> None:
    from IPython.utils.capture import capture_output  # noqa: PLC0415

    cell = (
        "%%pql\nselect avg(riverEquity(hero)) from hero='AA', villain='KK';\n"
        "select avg(nosuch(hero)) from hero='AA'"
    )
    with capture_output() as seen:
        outcome = shell.run_cell(cell)
    assert not outcome.success
    shown = seen.stdout + seen.stderr
    assert "UsageError" in shown
    assert "nosuch" in shown
    assert "line 3, col 12: unknown function 'nosuch'" in shown  # the %%pql line is line 1
    assert "Traceback" not in shown
    # Nothing ran: the first statement's live view never showed.
    assert "done ·" not in shown
    with capture_output() as seen:
        outcome = shell.run_cell("%pql .trials many")
    assert not outcome.success
    assert "Traceback" not in seen.stdout + seen.stderr
    assert "line 1" in seen.stdout + seen.stderr


def test_a_script_read_in_a_cell_is_checked_and_its_mistakes_name_it(shell: Any, tmp_path: Path) -> None:
    from IPython.utils.capture import capture_output  # noqa: PLC0415

    script = tmp_path / "bad.pql"
    script.write_text(
        "select avg(riverEquity(hero)) from hero='AA', villain='KK';\n"
        "select avg(bogus(hero)) from hero='AA'\n"
    )
    with capture_output() as seen:
        outcome = shell.run_cell(f"%pql .read {script}")
    assert not outcome.success
    assert f"{script}: line 2, col 12: unknown function 'bogus'" in seen.stdout + seen.stderr
    assert not seen.outputs  # nothing ran
    script.write_text(
        ".seed 7\n.trials 20000\n.exact off\n"
        "select avg(riverEquity(hero)) as eq from hero='AA', villain='KK'\n"
    )
    one = shell.run_line_magic("pql", f".read {script}")
    assert (one.trials, one.seed) == (20_000, 7)


def test_the_text_view_prints_the_last_status(shell: Any) -> None:
    from IPython.utils.capture import capture_output  # noqa: PLC0415

    shell.run_line_magic("pql", ".seed 7")
    with capture_output() as seen:
        shell.run_line_magic("pql", "select avg(riverEquity(hero)) as eq from hero='AA', villain='KK'")
    shown = [o.data["text/plain"] for o in seen.outputs]
    assert len(shown) == 1  # printed once, at the end: a terminal cannot redraw it
    assert "done · 600,000 trials" in shown[0]
    assert "eq 0.81" in shown[0]


def test_a_cell_with_a_sweep_and_odds_shows_every_part_in_order(shell: Any) -> None:
    from html_tables import Page  # noqa: PLC0415
    from IPython.utils.capture import capture_output  # noqa: PLC0415

    from pql_repl.notebook.cell_results import CellResults  # noqa: PLC0415

    cell = (
        ".seed 5\n.trials 2000\n.exact off\n"
        f"{QUERY};\n"
        "select avg(riverEquity(hero)) as eq from hero='AA', villain='KK', board=$flop\n"
        "sweep $flop over ('Kh9h7d', 'As8c2d');\n"
        ".odds AdQc 3h4cJh 1\n"
    )
    with capture_output():
        value = shell.run_cell_magic("pql", "", cell)
    assert isinstance(value, CellResults)
    statement, sweep, odds = value
    assert isinstance(statement, pql.StatementResult)
    assert isinstance(sweep, pql.SweepResult)
    assert isinstance(odds, pql.Odds)
    # The cell's value as Jupyter shows it (IPython's formatter): every part's table, in order.
    data, _ = shell.display_formatter.format(value)
    page = Page(data["text/html"])
    assert page.active == []
    kinds = [t.attrs["class"] or "" for t in page.tables]
    assert [k.split()[0] for k in kinds] == [
        "pql-result",
        "pql-sweep",
        "pql-odds",
        "pql-odds-player_hand",
        "pql-odds-opponent_hand",
    ]
    eq = page.tables[0].rows[1][1]
    assert float(eq.data("value") or "nan") == statement.columns[0].value
    assert float(eq.data("stderr") or "nan") == statement.columns[0].stderr
    assert [r[0].text for r in page.tables[1].rows[1:]] == ["Kh9h7d", "As8c2d", "all"]
    assert "AdQc on 3h4cJh" in page.tables[2].caption
    # As data: a frame per part, each the part's own.
    frames = value.to_pandas()
    assert len(frames) == 3
    assert frames[0].equals(statement.to_pandas())
    assert frames[1].equals(sweep.to_pandas())
    head = frames[2][frames[2]["table"] == "odds"].set_index("measure")
    assert head.loc["win", "value"] == odds.win
