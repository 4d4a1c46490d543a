"""Writing the results history to a file: Ctrl+S asks where (the extension gives the format), and
`.output FILE` keeps the file up to date after every run. Both write the whole history, sweeps'
tables with the statements' results, as one document (``output.render_history``)."""

from __future__ import annotations

import io
from pathlib import Path

from pql_repl.api.output import render_history
from pql_repl.files.config import data_dir
from pql_repl.files.storage import write_text_atomic
from pql_repl.tui.app_core import AppCore
from pql_repl.tui.results import ResultsPanel
from pql_repl.tui.screens import ExportDialog, export_format


class Exporting(AppCore):
    """Ctrl+S and `.output`."""

    def action_export(self) -> None:
        """Ctrl+S: ask where to write the finished results (prefilled; the extension says the
        format: .csv, .json, .md or .html), then write them."""
        results = self.results.exportable
        if not results:
            self.notify("nothing to export yet", severity="warning")
            return

        served = self.session.served is not None

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            text = render_history(results, export_format(path) or "csv")
            if served:
                self._download(path.name, text, len(results))
            else:
                self._write(path, text, len(results))

        suggested = Path(self._suggested_export().name) if served else self._suggested_export()
        self.push_screen(ExportDialog(suggested, len(results), download=served), chosen)

    def _download(self, name: str, text: str, count: int) -> None:
        """A served session's export: the browser downloads it (``App.deliver_text``); nothing is
        written on the server."""
        mime = {"csv": "text/csv", "json": "application/json"}.get(
            export_format(Path(name)) or "", "text/plain"
        )
        # In a browser only the name travels; under a terminal (tests) the session's own folder.
        self.deliver_text(
            io.StringIO(text),
            save_directory=data_dir(),
            save_filename=name,
            mime_type=mime,
            open_method="download",
        )
        self.notify(f"downloading {count} result{'s' if count != 1 else ''} as {name}")

    def _suggested_export(self) -> Path:
        """The `.output` file, or pql-results.<format> in the current directory (shown whole,
        so the user sees where it goes)."""
        if self.session.settings.output:
            return Path(self.session.settings.output).resolve()
        extensions = {"json": ".json", "markdown": ".md", "html": ".html"}
        extension = extensions.get(self.session.settings.format, ".csv")
        return Path.cwd() / f"pql-results{extension}"

    def _write_output(self, quiet: bool) -> None:
        """`.output FILE` is in force: the file holds every finished result (its format from
        the extension, else from `.format`)."""
        output = self.session.settings.output
        results = self.results.exportable
        if not output or not results:
            return
        path = Path(output)
        fmt = export_format(path) or _file_format(self.session.settings.format)
        self._write(path, render_history(results, fmt), len(results), quiet)

    def on_results_panel_sweep_done(self, _: ResultsPanel.SweepDone) -> None:
        """A sweep ended: while `.output FILE` is in force, the file follows (as after a
        statement)."""
        if self.session.settings.output:
            self._write_output(quiet=True)

    def _write(self, path: Path, text: str, count: int, quiet: bool = False) -> None:
        try:
            write_text_atomic(path, text)
        except OSError as e:
            self.notify(f"cannot write {path}: {e.strerror}", severity="error")
            return
        if not quiet:
            self.notify(f"wrote {count} result{'s' if count != 1 else ''} to {path}")


def _file_format(fmt: str) -> str:
    """A file's format when its name does not say: the table is for screens, so CSV."""
    return "csv" if fmt == "table" else fmt
