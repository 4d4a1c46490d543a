"""A fast fuzz campaign over issue 41's surfaces: many seeded inputs a second, in one process,
with no Hypothesis in the loop (its bookkeeping cost more than the inputs).

    python3 tests/fuzz_surfaces.py [--seed S] [--inputs N] [--targets a,b] [--report FILE]

Targets, each given its share of the inputs (``SHARES``): ``editor`` (the editor's text: the
tokens cover it, completion's candidates start before the cursor, the statement splitting and
Enter's spans hold, the highlight map's byte columns lie within their lines, short and long
texts alike), ``simulate`` (simulate states and histories, checked under a time limit, some
run for a few trials), ``dot`` (every dot-command with any argument), ``odds`` (`.odds`
requests, their runs prepared), ``sweep`` (sweep clauses and their lists, parsed and their
first rows checked), ``sheet`` (rows files and templates, read and their rows checked),
``cluster`` (addresses, read only), ``ranges`` (``ranges.json`` contents under statements with
and without ``$names``) and ``deep`` (deep and long inputs to all of these: histories of
thousands of actions, sweeps over lists of thousands, editor texts up to 150,000 characters,
ranges nested 5,000 deep, `.odds` arguments of thousands of characters).

Whatever an input is, it must end with a value or the surface's own error (a ``PqlError``, a
``SessionError``, a ``ClusterError``), whose message is a few short lines. Input ``K`` of seed
``S`` is always the same input (``--replay K`` runs it alone and prints it). Failures are
written to the report (JSON lines: target, input number, input, error), counts per target at
the end."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
import traceback
import zlib
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from data_dirs import data_dir  # noqa: E402

import pql_repl as pql  # noqa: E402
from pql_repl.api.query import LocalQuery  # noqa: E402
from pql_repl.files.history import History  # noqa: E402
from pql_repl.session import completion, lexer, statements  # noqa: E402
from pql_repl.session.command_result import CommandResult  # noqa: E402
from pql_repl.session.session import COMMANDS, Session  # noqa: E402
from pql_repl.session.settings import SessionError  # noqa: E402
from pql_repl.tui import statement_spans  # noqa: E402

#: Shares of the inputs, per target.
SHARES = {
    "editor": 0.26,
    "cluster": 0.14,
    "dot": 0.14,
    "odds": 0.05,
    "sweep": 0.12,
    "sheet": 0.12,
    "ranges": 0.08,
    "simulate": 0.07,
    "deep": 0.01,
}

PQL_BITS = [
    *("select ", "simulate ", "fold", "call", "raise", "check", "bet", "avg(", "count(", "riverEquity(hero)"),
    *(")", "(", " from ", "game='holdem'", "hero='AA'", "villain='KK'", "h='AA'", "'", '"', ";", "\n"),
    *(
        "\n\n",
        "/*",
        "*/",
        "--",
        ".trials 10",
        ".odds AdQc",
        ".seed",
        " ",
        ",",
        "where ",
        "sweep ",
        "$h over ",
    ),
    *(
        "histogram(",
        "as ",
        "=",
        "<>",
        "!",
        "é",
        "\ud800",
        "\t",
        "\r",
        "²",
        "case when ",
        " then 1 else 0 end",
    ),
]
VALUE_BITS = [
    "AA",
    "KK",
    "QQ+",
    "AKs",
    "22+",
    "*",
    "AsKs",
    "Kh9h7d",
    "2c3d4h",
    "15%",
    "$open",
    "'",
    ",",
    " ",
    "",
]
LISTS = [
    *("flops('all')", "flops()", "classes('holdem')", "classes()", "hands('QQ+')", "boards('Kh9h7d')"),
    *("ranks()", "flop()", "turns()", "", "flops('x')", "classes('omahahi')"),
]
ADDRESS_BITS = [
    *("tcp://", "TCP://", "tls://", "ucx://", "inproc://", "ws://", "://", "[", "]", "::1", "127.0.0.1"),
    *("localhost", "sched-1.example", "_x", ":", "8786", "0", "65535", "65536", "99999999999999999999"),
    *("/", " ", "\t", "\n", "²", "٣", "\ud800", "é", "@", "%", "x" * 300),
]
ARGUMENT_BITS = [
    *("AdQc", "3h4cJh", "Kh9h7d2c", "²", "٣", "9", "0", "10", "1-9", "9-1", "3-", "99999999999999999999"),
    *("-1", "1e6", "1_000", "0.5", "nan", "inf", "vs", "'QQ+'", "'*'", "'AA**'", '"', "'", "$open"),
    *(
        "'QQ+, AKs'",
        "hero",
        "villain",
        "raise",
        "call",
        "check",
        "on",
        "flop",
        "turn",
        "river",
        "off",
        "auto",
    ),
    *("holdem", "omahahi", "razz", "generic", "stdout", "tls://h:1", "\ud800", "x" * 300, ";", "--", "clear"),
]
SIMULATE_KEYS = [
    *("pot", "tocall", "bet", "raises", "folded", "to_act", "history", "board", "dead", "stakes", "game"),
    *("hero", "villain", "v2", "v3", "call_threshold", "raise_threshold", "villain.raise_threshold", "stop"),
    *("choose", "seed", "x"),
]
SIMULATE_VALUES = [
    *("10", "2", "0", "-4", "1e9", "0.5", "'limit'", "'nolimit'", "'holdem'", "'shortdeck'", "'omahahi'"),
    *("'Kd7c2h'", "'Kd7c2hQs'", "'Kd7c2hQs3c'", "''", "'AhKh'", "'QQ+@90, 22-JJ@40, AK@80, *@5'", "'*'"),
    *("'v2'", "'villain, v2'", "'villain:raise@flop'", "'villain:call@turn, villain:check@flop'", "'x'"),
    *("'loki'", "'mixed'", "'best'", "1", "'AA'", "'KK@50'", "'Kd'", "'2c3c'"),
]
ACTIONS = ["fold", "call", "raise", "check", "bet", "allin", ""]
STREETS = ["preflop", "flop", "turn", "river", "x", ""]
PLAYERS = ["villain", "hero", "v2", "v3", "nobody", "VILLAIN", ""]
COMMAND_NAMES = sorted(COMMANDS)


class Gen:
    """Seeded generators of each target's inputs."""

    def __init__(self, r: random.Random) -> None:
        self.r = r

    def pick(self, items: list[str]) -> str:
        return self.r.choice(items)

    def join_bits(self, bits: list[str], most: int) -> str:
        return "".join(self.pick(bits) for _ in range(self.r.randint(0, most)))

    def any_text(self, most: int) -> str:
        kind = self.r.random()
        if kind < 0.5:
            return "".join(chr(self.r.randint(32, 126)) for _ in range(self.r.randint(0, most)))
        if kind < 0.8:
            return "".join(chr(self.r.randint(0, 0x2FFF)) for _ in range(self.r.randint(0, most)))
        return "".join(
            chr(self.r.choice([self.r.randint(0, 0x10FFFF), 0xD800, 0x0]))
            for _ in range(self.r.randint(0, most))
        )

    def mutate(self, text: str) -> str:
        for _ in range(self.r.randint(0, 3)):
            at = self.r.randint(0, len(text))
            op = self.r.random()
            if op < 0.4:
                text = text[:at] + self.pick([*PQL_BITS, *VALUE_BITS]) + text[at:]
            elif op < 0.7:
                text = text[:at] + text[at + self.r.randint(1, 10) :]
            elif op < 0.85:
                text = text[:at] + self.any_text(4) + text[at:]
            else:
                text = text[:at] + text[at:][: self.r.randint(0, 20)] * self.r.randint(2, 5) + text[at:]
        return text

    # -- per target ------------------------------------------------------------------------

    def editor_text(self) -> str:
        kind = self.r.random()
        if kind < 0.4:
            text = self.join_bits(PQL_BITS, 40)
        elif kind < 0.7:
            text = (
                self.simulate_statement()
                + self.pick(["", "\n", ";\n", "\n\n"])
                + self.join_bits(PQL_BITS, 10)
            )
        elif kind < 0.85:
            text = self.any_text(80)
        else:
            text = self.sweep_statement()
        return self.mutate(text)

    def history(self, most: int = 6) -> str:
        parts = []
        for _ in range(self.r.randint(0, most)):
            parts.append(f"{self.pick(PLAYERS)}:{self.pick(ACTIONS)}@{self.pick(STREETS)}")
        return self.pick([", ", ",", " ", ";"]).join(parts)

    def simulate_statement(self) -> str:
        actions = ", ".join(self.pick(ACTIONS) for _ in range(self.r.randint(0, 4)))
        items = [f"hero={self.pick(['AhKh', 'AA', 'QQ+', '*', 'AhKh@50', 'Kd', 'AsAd'])!r}"]
        items.append(f"villain={self.pick(['QQ+@90, 22-JJ@40, AK@80, *@5', 'KK', '*', '15%', 'AA'])!r}")
        for _ in range(self.r.randint(0, 8)):
            key = self.pick(SIMULATE_KEYS)
            value = f"'{self.history()}'" if key == "history" else self.pick(SIMULATE_VALUES)
            items.append(f"{key}={value}")
        if self.r.random() < 0.7:
            items += ["pot=10", "tocall=2", "bet=2"]
        self.r.shuffle(items)
        return f"simulate {actions} from " + ", ".join(items)

    def sweep_statement(self) -> str:
        head = self.pick(
            [
                "select avg(riverEquity(hero)) as eq from game='holdem', hero=$h, villain='KK', board=$b",
                "select count(winsHi(hero)) from hero=$h, villain='$h'",
                "select avg(riverEquity(hero)) from hero='AA', villain=$v, board=$b",
                "select avg(riverEquity(hero)) from game='omahahi', hero=$h, villain='KK**'",
            ]
        )
        clauses = []
        for _ in range(self.r.randint(0, 3)):
            name = self.pick(["h", "b", "v", "x", "", "n" * 1000])
            clauses.append(f"${name} {self.pick(['over', 'OVER', 'in', ''])} {self.sweep_list()}")
        text = head + self.pick([" sweep ", "\nsweep\n", " SWEEP ", " sweep", " "]) + ", ".join(clauses)
        return self.mutate(text) if self.r.random() < 0.5 else text

    def sweep_list(self) -> str:
        if self.r.random() < 0.5:
            return self.pick(LISTS) if self.r.random() < 0.7 else self.join_bits(VALUE_BITS, 4)
        quote = self.pick(["'", '"', ""])
        values = [quote + self.join_bits(VALUE_BITS, 3) + quote for _ in range(self.r.randint(0, 5))]
        return "(" + self.pick([", ", ",", " "]).join(values) + self.pick([")", "", "))"])

    def rows_file(self) -> str:
        from pql_repl.api.output import csv_line  # noqa: PLC0415

        header = [self.pick(["A", "B", "C", "", " A", "A", "N" * 1000]) for _ in range(self.r.randint(0, 4))]
        lines = [csv_line(header)] if header or self.r.random() < 0.5 else []
        for _ in range(self.r.randint(0, 4)):
            width = self.pick([len(header), max(0, len(header) - 1), len(header) + 1])  # type: ignore[arg-type]
            cells = [
                self.pick([*VALUE_BITS, "TT', p3='QQ", "#A#", "x" * 200, "\n", ";", "--"])
                for _ in range(width)
            ]
            lines.append(csv_line(cells))
        text = "".join(lines)
        if self.r.random() < 0.5:
            at = self.r.randint(0, len(text))
            text = text[:at] + self.pick(['"', "\n", "\r", ",", "\x00", '""', "\n\n"]) + text[at:]
        return text

    def template(self) -> str:
        spots = ["'#A#'", "'#B#'", '"#C#"', "#A#", "'#D#'", "'#A", "#", "''", "'#" + "N" * 1000 + "#'"]
        text = (
            "select avg(riverEquity(p1)) as eq from game='holdem', p1="
            + self.pick(spots)
            + ", p2="
            + self.pick(spots)
            + self.pick(["", ", board=" + self.pick(spots), " -- #B#", "; select 1", "\n/* #C#"])
        )
        kind = self.r.random()
        if kind < 0.7:
            return self.mutate(text) if self.r.random() < 0.3 else text
        if kind < 0.85:
            return self.pick(["", "  \n", "-- #A#\n", "select"])
        return self.join_bits(PQL_BITS, 20)

    def address(self) -> str:
        if self.r.random() < 0.7:
            return self.join_bits(ADDRESS_BITS, 7)
        return self.any_text(40)

    def argument(self) -> str:
        if self.r.random() < 0.7:
            return " ".join(self.pick(ARGUMENT_BITS) for _ in range(self.r.randint(0, 6)))
        return self.any_text(40)

    def ranges_file(self) -> str | bytes:
        names = ["open", "kk", "OPEN", "a", "ds", "Nt", "1x", "open_2", "é", "\ud800", "", "$open", "x" * 200]
        texts = [
            "QQ+",
            "AKs, 22+",
            "$open",
            "$kk, AA",
            "!$open",
            "*",
            "AA@50, KK",
            "",
            "'",
            "(" * 200,
            "$open" * 50,
        ]
        kind = self.r.random()
        if kind < 0.6:
            return json.dumps(
                {
                    self.pick(names): self.pick([*texts, self.any_text(10)])
                    for _ in range(self.r.randint(0, 6))
                }
            )
        if kind < 0.7:
            n = self.r.randint(1, 5000)
            return "[" * n + "]" * n
        if kind < 0.8:
            n = self.r.randint(1, 3000)
            return '{"open": ' * n + '"QQ+"' + "}" * n
        if kind < 0.9:
            return bytes(self.r.randint(0, 255) for _ in range(self.r.randint(0, 200)))
        return self.any_text(200)

    def deep(self) -> tuple[str, str]:
        """A deep or long input for one of the other targets: (target, input)."""
        n = int(10 ** self.r.uniform(2, 3.7))
        kind = self.r.randrange(7)
        if kind == 0:
            history = ", ".join(f"villain:{self.pick(['raise', 'call', 'check'])}@flop" for _ in range(n))
            return "simulate", (
                "simulate fold, call, raise from game='holdem', hero='AhKh', "
                "villain='QQ+@90, 22-JJ@40, AK@80, *@5', "
                f"board='Kd7c2h', pot=10, tocall=2, bet=2, stakes='limit', history='{history}'"
            )
        if kind == 1:
            values = ", ".join(f"'{self.pick(VALUE_BITS)}'" for _ in range(n))
            return (
                "sweep",
                f"select avg(riverEquity(hero)) from hero=$h, villain='KK' sweep $h over ({values})",
            )
        if kind == 2:
            unit = self.pick(PQL_BITS) or "("
            return "editor", self.mutate(unit * (n * 10))
        if kind == 3:
            return "editor", ("select avg(riverEquity(hero)) from hero='AA', villain='KK';\n" * (n * 3))[
                :150_000
            ]
        if kind == 4:
            return (
                "simulate",
                f"simulate call from hero='{'(' * n}AA{')' * n}', villain='KK', pot=4, tocall=2, bet=2",
            )
        if kind == 5:
            return "dot", f".odds {'A' * n} {'h' * n} vs " + " ".join(["'QQ+'"] * min(n, 2000))
        return "sheet", "select 1 from p1='#A#'" + " -- #B#" * n


def said_briefly(e: BaseException) -> None:
    """A refusal: a message, a few lines, none of them long."""
    text = e.rendered if isinstance(e, pql.PqlError) else str(e)
    assert text.strip(), repr(e)
    lines = text.splitlines()
    assert len(lines) <= 8, text[:2000]
    assert all(len(line) <= 600 for line in lines), text[:2000]


def refused(f: Callable[[], object], *errors: type[BaseException]) -> object:
    """``f()``, or the error it raised if one of ``errors`` (checked to be brief)."""
    try:
        return f()
    except errors as e:
        said_briefly(e)
        return e


# -- targets -------------------------------------------------------------------------------


class Targets:
    def __init__(self, scratch: Path) -> None:
        self.scratch = scratch
        self._widget: object = None

    def run(self, target: str, given: object) -> None:
        getattr(self, target.rsplit(":", maxsplit=1)[-1])(given)

    def widget(self) -> object:
        """The app's editor, outside an app: its highlight map is built as in the app."""
        if self._widget is None:
            from pql_repl.tui.editor import QueryEditor  # noqa: PLC0415

            self._widget = QueryEditor(History.__new__(History))
        return self._widget

    def editor(self, text: str) -> None:
        tokens = lexer.tokenize(text)
        assert "".join(t.text for t in tokens) == text
        cursor = zlib.crc32(text.encode("utf-8", "surrogatepass")) % (len(text) + 1)
        for c in completion.complete(text, cursor):
            assert 0 <= c.start <= cursor, c
        items = statements.split_statements(text)
        statements.is_complete(text)
        for item in items:
            if isinstance(item, statements.Statement):
                assert text[item.offset :].startswith(item.text[:1])
        statement_spans.spans(text)
        statement_spans.enter_runs(text, cursor)
        editor = self.widget()
        editor.load_text(text)  # type: ignore[attr-defined]
        lines = editor.document.lines  # type: ignore[attr-defined]  # line breaks as the editor reads them
        for row, marks in editor._highlights.items():  # type: ignore[attr-defined]
            assert 0 <= row < len(lines), row
            size = len(lines[row].encode("utf-8", "surrogatepass"))
            for start, end, _ in marks:
                assert 0 <= start <= size, (row, start, end, size)
                assert end is None or start < end <= size, (row, start, end, size)

    def simulate(self, text: str) -> None:
        query = refused(lambda: LocalQuery(text, time_limit=10), pql.PqlError)
        if isinstance(query, LocalQuery) and zlib.crc32(text.encode("utf-8", "surrogatepass")) % 10 == 0:
            refused(lambda: query.run(trials=40, seed=1, threads=1), pql.PqlError)

    def dot(self, line: str) -> None:
        with tempfile.TemporaryDirectory(dir=self.scratch) as data, data_dir(data):
            outcome = refused(lambda: Session().handle(line), SessionError, pql.PqlError)
            assert isinstance(outcome, CommandResult | SessionError | pql.PqlError)

    def odds(self, line: str) -> None:
        outcome = refused(lambda: Session().handle(line), SessionError, pql.PqlError)
        if isinstance(outcome, CommandResult):
            assert outcome.odds is not None
            from pql_repl.api.multi_odds import OddsRun, OddsTableRun  # noqa: PLC0415

            request = outcome.odds
            if isinstance(request.opponents, range):
                refused(lambda: OddsTableRun(request.hand, request.board, request.opponents), pql.PqlError)
            else:
                refused(lambda: OddsRun(request.hand, request.board, request.opponents), pql.PqlError)

    def sweep(self, text: str) -> None:
        from pql_repl.api import sweeps  # noqa: PLC0415
        from pql_repl.base.limits import SWEEP_MAX_ROWS  # noqa: PLC0415

        swept = refused(lambda: sweeps.parse(text), pql.PqlError)
        if isinstance(swept, pql.PqlError):
            return
        assert 1 <= len(swept) <= SWEEP_MAX_ROWS  # type: ignore[arg-type]
        checked = refused(lambda: sweeps.check(swept, limit=3), pql.PqlError)  # type: ignore[arg-type]
        if not isinstance(checked, pql.PqlError):
            assert len(checked.rows) == min(3, len(swept))  # type: ignore[arg-type,attr-defined]

    def sheet(self, given: tuple[str, str]) -> None:
        from pql_repl.api.sheet import SpreadsheetError, check_rows, read_rows  # noqa: PLC0415

        template, data = given
        read = refused(lambda: read_rows(data, "rows.csv"), SpreadsheetError)
        if isinstance(read, SpreadsheetError):
            assert str(read).startswith("rows.csv: "), str(read)
            return
        header, rows = read  # type: ignore[misc]
        filled = refused(lambda: check_rows(template, header, rows[:5], "rows.csv"), pql.PqlError)
        if isinstance(filled, list):
            assert all("\x00" not in f or "\x00" in template + data for f in filled)

    def cluster(self, text: str) -> None:
        from pql_repl.api.cluster import check_address  # noqa: PLC0415
        from pql_repl.session.settings import parse_cluster  # noqa: PLC0415

        outcome = refused(lambda: check_address(text), pql.ClusterError)
        if isinstance(outcome, str):
            assert outcome.startswith("tcp://")
            assert check_address(outcome) == outcome
        else:
            assert "\n" not in str(outcome)
        refused(lambda: parse_cluster(text), SessionError)

    def ranges(self, given: tuple[str | bytes, str]) -> None:
        from pql_repl.files import named_ranges  # noqa: PLC0415

        content, hero = given
        with tempfile.TemporaryDirectory(dir=self.scratch) as data, data_dir(data):
            path = os.path.join(data, "ranges.json")
            with open(path, "wb") as f:
                f.write(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
            pql.prepare(PLAIN)
            assert named_ranges.take_warnings() == []
            refused(lambda: pql.prepare(PLAIN.replace("'AsAh'", f"'{hero}'")), pql.PqlError)
            stored = named_ranges.load()
            assert all(isinstance(k, str) and isinstance(v, str) for k, v in stored.items())
            for warning in named_ranges.take_warnings():
                assert "\n" not in warning, warning
                assert len(warning) <= 600, warning


PLAIN = "select count(winsHi(hero)) from hero='AsAh', villain='KsKd', board='2c3d4h5s9c'"


def make_input(target: str, g: Gen) -> tuple[str, object]:
    """The target an input goes to (``deep`` picks another) and the input."""
    if target == "editor":
        return target, g.editor_text()
    if target == "simulate":
        return target, g.mutate(g.simulate_statement()) if g.r.random() < 0.3 else g.simulate_statement()
    if target == "dot":
        return target, f".{g.pick(COMMAND_NAMES)} {g.argument()}"
    if target == "odds":
        return target, f".odds {g.argument()}"
    if target == "sweep":
        return target, g.sweep_statement()
    if target == "sheet":
        return target, (g.template(), g.rows_file())
    if target == "cluster":
        return target, g.address()
    if target == "ranges":
        return target, (
            g.ranges_file(),
            g.pick(["$open", "$kk", "$OPEN, 22", "$nothing", "!$open", "$a", "$open:suited"]),
        )
    inner, given = g.deep()
    if inner == "sheet":
        return "deep:sheet", (given, "A,B\nAA,KK\n")
    if inner == "dot":
        return "deep:odds", given
    return f"deep:{inner}", given


def schedule(inputs: int, targets: list[str]) -> list[str]:
    shares = {t: SHARES[t] for t in targets}
    total = sum(shares.values())
    plan: list[str] = []
    for t, share in shares.items():
        plan += [t] * round(inputs * share / total)
    return plan


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--targets", default=",".join(SHARES))
    parser.add_argument("--report", default="target/fuzz/surfaces.jsonl")
    parser.add_argument("--replay", type=int, default=None)
    args = parser.parse_args()
    targets = args.targets.split(",")
    plan = schedule(args.inputs, targets)
    random.Random(args.seed).shuffle(plan)
    counts: dict[str, int] = {}
    failures: dict[str, int] = {}
    slowest: tuple[float, int, str] = (0.0, -1, "")
    started = time.monotonic()
    report_path = Path(args.report) if os.path.isabs(args.report) else HERE.parent / args.report
    report_path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)  # `.output` and the like write nothing outside it
        run = Targets(Path(scratch))
        with report_path.open("a") as report:
            for k, planned in enumerate(plan):
                if args.replay is not None and k != args.replay:
                    continue
                g = Gen(random.Random(f"{args.seed}:{k}"))
                target, given = make_input(planned, g)
                if args.replay is not None:
                    print(f"input {k} ({planned} -> {target}): {given!r}"[:4000])
                counts[target] = counts.get(target, 0) + 1
                t0 = time.monotonic()
                try:
                    run.run(target, given)
                except Exception as e:
                    failures[target] = failures.get(target, 0) + 1
                    record = {
                        "seed": args.seed,
                        "input": k,
                        "target": target,
                        "given": repr(given)[:2000],
                        "error": "".join(traceback.format_exception_only(e))[-2000:],
                        "where": traceback.format_exc()[-3000:],
                    }
                    report.write(json.dumps(record) + "\n")
                    report.flush()
                    if args.replay is not None:
                        traceback.print_exc()
                took = time.monotonic() - t0
                if took > slowest[0]:
                    slowest = (took, k, target)
                if (k + 1) % 20_000 == 0:
                    print(
                        f"{k + 1:,} inputs, {time.monotonic() - started:,.0f} s, failures {failures}",
                        flush=True,
                    )
    elapsed = time.monotonic() - started
    print(
        json.dumps(
            {
                "seed": args.seed,
                "inputs": sum(counts.values()),
                "seconds": round(elapsed),
                "counts": counts,
                "failures": failures,
                "slowest": {"seconds": round(slowest[0], 2), "input": slowest[1], "target": slowest[2]},
            }
        )
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
