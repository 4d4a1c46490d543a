"""The views the app opens over the main screen: the odds views of `.odds`, charts (F7, `.plot`),
the help (F1) and the history search (Ctrl+R)."""

from __future__ import annotations

from pql_repl.api.results import DEFAULT_TRIALS
from pql_repl.session.command_result import OddsRequest
from pql_repl.tui.app_core import AppCore
from pql_repl.tui.key_table import key_table
from pql_repl.tui.screens import HelpScreen, HistorySearch


class Views(AppCore):
    """Screens pushed over the main one."""

    def open_odds(self, request: OddsRequest) -> None:
        """`.odds`: the odds view (a span of opponents) or the MultiOdds screen, computing live."""
        from pql_repl.api.multi_odds import OddsRun, OddsTableRun  # noqa: PLC0415
        from pql_repl.tui.odds_screen import OddsScreen, OddsTableScreen  # noqa: PLC0415

        options = self.session.run_options()
        how = {
            "trials": options["trials"] or DEFAULT_TRIALS,
            "seed": options["seed"],
            "threads": options["threads"],
            "time_limit": options["time_limit"],
        }
        if isinstance(request.opponents, range):
            self.push_screen(
                OddsTableScreen(OddsTableRun(request.hand, request.board, request.opponents, **how))
            )
        else:
            self.push_screen(OddsScreen(OddsRun(request.hand, request.board, request.opponents, **how)))

    def action_chart(self) -> None:
        """F7: the latest result's histograms as charts, or on an odds screen its own chart
        (F7 again: back)."""
        from pql_repl.tui.chart import ChartScreen  # noqa: PLC0415
        from pql_repl.tui.odds_screen import OddsChart, OddsScreen, OddsTableScreen  # noqa: PLC0415

        screen = self.screen
        if isinstance(screen, ChartScreen | OddsChart):
            screen.dismiss()
        elif isinstance(screen, OddsScreen | OddsTableScreen):
            screen.open_chart()
        else:
            self.open_chart()

    def open_chart(self, title: str | None = None) -> None:
        """The latest result's histograms as charts (``title``: the first one's, else its name);
        after a failed statement, the result before it (in the history now)."""
        from pql_repl.tui.chart import ChartScreen, histogram_columns  # noqa: PLC0415

        finished = self.results.finished
        result = self.results.last or (finished[-1] if finished else None)
        if result is None or not histogram_columns(result):
            self.results.show_status("no histogram to chart: run a statement with histogram(…)")
            return
        self.push_screen(ChartScreen(result, title))

    def action_help(self) -> None:
        self.push_screen(HelpScreen(key_table(self.BINDINGS)))

    def action_history_search(self) -> None:
        def chosen(entry: str | None) -> None:
            if entry:
                self.editor.load_text(entry)
                self.editor.move_cursor(self.editor.document.end)

        self.push_screen(HistorySearch(self.history.search("")), chosen)
