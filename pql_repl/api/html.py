"""Results as HTML: the terminal's table of a statement (``result_table``) or a sweep
(``sweep_table``) as an HTML table, and a self-contained page of several (``page_head``, the
tables, ``PAGE_TAIL``: the ``html`` format of ``output``).

A table has a row per selector and per histogram bucket: the value, its 95% margin (``numbers``'
convention; ``exact`` where the value is exact), the count, and for a bucket a bar drawn by an
inline CSS width; its caption is the query and whether it was computed exactly or sampled, its
footer the terminal's summary line. Each value cell carries the number the CSV holds
(``data-value``, ``data-stderr``), so a page reads back without rounding. Everything is
escaped; a page has no script and fetches nothing (its style is inline), so it can be mailed or
opened offline. A notebook shows a result by its ``_repr_html_``, which is ``result_table``.

The other results (the odds view, the explorers' grids and charts, a hand's value) are tables of
text and numbers built by ``figure_table`` from ``Figure`` and ``Bar`` cells, with the same look,
margins and ``data-*`` numbers; ``tables`` puts several views together (a notebook cell's).
"""

from __future__ import annotations

from pql_repl.api.numbers import (
    Z95,
    bucket_stderr,
    estimate_parts,
    format_count,
    format_number,
    format_percent,
    format_weight,
)
from pql_repl.api.tidy import csv_number, number_value

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (the command's start)
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any, Protocol

    from pql_repl.api.result_fields import Column, ResultFields

    class SweepRowView(Protocol):
        """What a sweep's table needs of a row (``pql_repl.api.sweeps.SweepRow``)."""

        @property
        def values(self) -> list[str]: ...
        @property
        def weight(self) -> float: ...
        @property
        def result(self) -> ResultFields | None: ...
        @property
        def error(self) -> str | None: ...

    class SweepView(Protocol):
        """What a sweep's table needs of its result (``pql_repl.api.sweeps.SweepResult``)."""

        names: list[str]
        selectors: list[str]
        total: int
        done: bool
        query: str

        @property
        def rows(self) -> Sequence[SweepRowView]: ...
        def aggregate(self) -> list[tuple[float | None, float | None]]: ...


#: A bar's colour and the table's look, inline (a notebook shows a table without the page's style).
BAR_STYLE = "display:inline-block;height:0.9em;background:#4c78a8;vertical-align:middle"
TABLE_STYLE = "border-collapse:collapse;font-variant-numeric:tabular-nums;margin:0.5em 0 1.5em 0"
CELL_STYLE = "padding:2px 10px;border-bottom:1px solid #ddd"
NUMBER_STYLE = CELL_STYLE + ";text-align:right"
BAR_CELL_STYLE = CELL_STYLE + ";width:12em"
#: How wide the widest bar is, as a share of its cell.
BAR_FULL = 100.0


#: What HTML text and attribute values may not hold as they are (the standard library's
#: ``html`` module loads its table of entities, which a run does not need).
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def esc(text: object) -> str:
    """``text`` escaped for HTML text and attribute values (quotes too)."""
    return str(text).translate(_ESCAPES)


def _cell(text: str, style: str = CELL_STYLE, **data: str) -> str:
    attributes = "".join(f' data-{name}="{esc(value)}"' for name, value in data.items() if value)
    return f'<td style="{style}"{attributes}>{esc(text)}</td>'


def _margin_text(result: ResultFields, stderr: float | None, percent: bool) -> str:
    """The 95% margin as the terminal shows it, ``exact`` for an exact value, '' when unknown."""
    if stderr is None:
        return "exact" if result.exact else ""
    return f"± {100 * Z95 * stderr:.2f}%" if percent else f"± {Z95 * stderr:.2g}"


def _selector_row(result: ResultFields, column: Column) -> str:
    name = _cell(column.name)
    if column.selector == "count":
        value = number_value(column.value)
        cells = [
            _cell(
                format_percent(value), NUMBER_STYLE, value=csv_number(value), stderr=csv_number(column.stderr)
            ),
            _cell(_margin_text(result, column.stderr, percent=True), NUMBER_STYLE),
            _cell(format_count(column.count), NUMBER_STYLE),
        ]
    elif column.selector == "avg":
        parts = estimate_parts(column.value, column.stderr)
        shown = format_number(column.value) if parts is None else parts[0]
        margin = _margin_text(result, column.stderr, percent=False) if parts is None else f"± {parts[1]}"
        value = number_value(column.value)
        cells = [
            _cell(shown, NUMBER_STYLE, value=csv_number(value), stderr=csv_number(column.stderr)),
            _cell(margin, NUMBER_STYLE),
            _cell("", NUMBER_STYLE),
        ]
    else:
        value = number_value(column.value)
        cells = [
            _cell(format_number(column.value), NUMBER_STYLE, value=csv_number(value)),
            _cell("", NUMBER_STYLE),
            _cell("", NUMBER_STYLE),
        ]
    return f'<tr class="{esc(column.selector)}">{name}{"".join(cells)}{_cell("")}</tr>'


def bar_cell(fraction: float, top: float) -> str:
    """A cell holding a bar as long as ``fraction`` is of ``top`` (the longest bar's)."""
    width = BAR_FULL * fraction / top if top > 0 else 0.0
    seen = ";min-width:2px" if fraction > 0 else ""  # a rare value's bar still shows, as in the terminal
    bar = f'<span class="bar" style="{BAR_STYLE};width:{width:.1f}%{seen}"></span>'
    return f'<td style="{BAR_CELL_STYLE}">{bar}</td>'


def _histogram_rows(result: ResultFields, column: Column) -> list[str]:
    rows = [
        f'<tr class="histogram"><th colspan="5" style="{CELL_STYLE};text-align:left">'
        f"{esc(column.name)}</th></tr>"
    ]
    top = max((b.fraction for b in column.buckets), default=0.0)
    for b in column.buckets:
        stderr = bucket_stderr(result, column, b)
        cells = [
            _cell(b.label, CELL_STYLE + ";padding-left:2em"),
            _cell(
                format_percent(b.fraction),
                NUMBER_STYLE,
                value=csv_number(b.fraction),
                stderr=csv_number(stderr),
            ),
            _cell(_margin_text(result, stderr, percent=True), NUMBER_STYLE),
            _cell(format_count(b.count), NUMBER_STYLE),
            bar_cell(b.fraction, top),
        ]
        rows.append(f'<tr class="bucket">{"".join(cells)}</tr>')
    return rows


def how_computed(result: ResultFields) -> str:
    """``exact`` or ``sampled``: the mark a table carries (an enumeration cut short, or with
    inner values sampled, is sampled)."""
    return "exact" if result.exact else "sampled"


def result_table(result: ResultFields, summary: str) -> str:
    """One statement's table (see the module's docstring), ``summary`` its footer: the
    terminal's summary line (``output.summary_line``, which writes it from the same result)."""
    how = how_computed(result)
    head = "".join(
        f'<th style="{CELL_STYLE};text-align:{align}">{title}</th>'
        for title, align in (
            ("selector", "left"),
            ("value", "right"),
            ("± 95%", "right"),
            ("count", "right"),
            ("", "left"),
        )
    )
    body: list[str] = []
    for column in result.columns:
        if column.selector == "histogram":
            body += _histogram_rows(result, column)
        else:
            body.append(_selector_row(result, column))
    return (
        f'<table class="pql-result {how}" data-exact="{"true" if result.exact else "false"}" '
        f'style="{TABLE_STYLE}">'
        f'<caption style="text-align:left;caption-side:top"><code>{esc(result.query)}</code> '
        f'<span class="how"><em>{how}</em></span></caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody>"
        f'<tfoot><tr><td colspan="5" style="{CELL_STYLE};font-style:italic">{esc(summary)}</td></tr></tfoot>'
        "</table>"
    )


def sweep_table(sweep: SweepView) -> str:
    """A sweep's table: a row per substitution (its values, weight, and each selector as value
    ± 95% margin), the weighted aggregate last (``all``)."""
    head = [*sweep.names, "weight", *sweep.selectors]
    lines = ["<tr>" + "".join(f'<th style="{CELL_STYLE}">{esc(h)}</th>' for h in head) + "</tr>"]
    for row in sweep.rows:
        cells = [_cell(v) for v in row.values] + [_cell(format_weight(row.weight), NUMBER_STYLE)]
        if row.result is None:
            cells += [_cell(row.error or "")] + [_cell("")] * (len(sweep.selectors) - 1)
        else:
            cells += [_sweep_value(row.result, c) for c in row.result.columns]
        lines.append(f"<tr>{''.join(cells)}</tr>")
    answered = [row.weight for row in sweep.rows if row.result is not None]
    total = [
        _cell("all"),
        *[_cell("")] * (len(sweep.names) - 1),
        _cell(format_weight(sum(answered)), NUMBER_STYLE),
    ]
    for value, stderr in sweep.aggregate():
        total.append(_estimate_cell(value, stderr) if value is not None else _cell(""))
    lines.append(f'<tr class="aggregate" style="font-weight:bold">{"".join(total)}</tr>')
    state = "" if sweep.done else f" ({len(sweep.rows)} of {sweep.total} rows)"
    return (
        f'<table class="pql-sweep" style="{TABLE_STYLE}">'
        f'<caption style="text-align:left;caption-side:top"><code>{esc(sweep.query)}</code>'
        f"{esc(state)}</caption>"
        f"<thead>{lines[0]}</thead><tbody>{''.join(lines[1:])}</tbody></table>"
    )


def text_table(header: Sequence[str], rows: Iterable[Sequence[str]], caption: str = "") -> str:
    """A table of text cells as they are (a spreadsheet's rows: ``sheet.Sheet``)."""
    head = "".join(f'<th style="{CELL_STYLE}">{esc(h)}</th>' for h in header)
    body = "".join("<tr>" + "".join(_cell(c) for c in row) + "</tr>" for row in rows)
    title = f'<caption style="text-align:left;caption-side:top">{esc(caption)}</caption>' if caption else ""
    return (
        f'<table class="pql-sheet" style="{TABLE_STYLE}">{title}'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


class Figure:
    """A number in a ``figure_table`` (the odds view, an explorer's grid or chart, a range in
    brief): its value and standard error, shown as a percent (``percent``) or a number, with the
    95% margin when it is sampled (``stderr`` known and not ``exact``); ``label`` is text before
    it (a grid cell's hand class) and ``shade`` (0 to 1) tints its cell as the explorer's
    heatmap does. The cell carries the numbers (``data-value``, ``data-stderr``: 0 when exact)."""

    __slots__ = ("exact", "label", "percent", "shade", "stderr", "value")

    def __init__(
        self,
        value: float | None,
        stderr: float | None = None,
        *,
        exact: bool = False,
        percent: bool = True,
        label: str = "",
        shade: float | None = None,
    ) -> None:
        self.value = value
        self.stderr = stderr
        self.exact = exact
        self.percent = percent
        self.label = label
        self.shade = shade

    def text(self) -> str:
        """The value (and margin) as shown: ``48.20% ± 0.31%``, ``0.8195 ± 0.0012``, ``12``."""
        if self.value is None:
            return ""
        sampled = self.stderr is not None and not self.exact
        if self.percent:
            shown = format_percent(self.value)
            if sampled and self.stderr is not None:
                return f"{shown} ± {100 * Z95 * self.stderr:.2f}%"
            return shown
        parts = estimate_parts(self.value, self.stderr) if sampled else None
        return format_number(self.value) if parts is None else f"{parts[0]} ± {parts[1]}"

    def cell(self) -> str:
        stderr = 0.0 if self.exact and self.value is not None else self.stderr
        style = NUMBER_STYLE
        if self.shade is not None:
            # Red (weak) to green (strong), light enough for black text.
            style += f";background:hsl({120 * min(max(self.shade, 0.0), 1.0):.0f},60%,82%);color:#000"
        data = {"value": csv_number(self.value), "stderr": csv_number(stderr), "label": self.label}
        attributes = "".join(f' data-{name}="{esc(value)}"' for name, value in data.items() if value)
        label = f"{esc(self.label)}<br>" if self.label else ""
        return f'<td style="{style}"{attributes}>{label}{esc(self.text())}</td>'


class Bar:
    """A bar in a ``figure_table``'s cell: ``fraction`` of the longest bar's ``top``."""

    __slots__ = ("fraction", "top")

    def __init__(self, fraction: float, top: float) -> None:
        self.fraction = fraction
        self.top = top


def figure_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str | Figure | Bar]],
    *,
    kind: str,
    caption: str = "",
    how: str | None = None,
    footer: str = "",
    row_classes: Sequence[str] = (),
) -> str:
    """A table of text, ``Figure`` and ``Bar`` cells, as the results' tables look: ``kind``
    its class (``pql-odds``), ``caption`` above it with ``how`` it was computed (``exact`` or
    ``sampled``, marked as a statement's table marks it), ``footer`` under it in italics; a
    row's class from ``row_classes`` (in order); no ``header``, no head (a grid)."""
    width = max(len(header), max((len(r) for r in rows), default=1))
    head = "".join(f'<th style="{CELL_STYLE}">{esc(h)}</th>' for h in header)
    body = []
    for i, row in enumerate(rows):
        cells = "".join(
            c.cell()
            if isinstance(c, Figure)
            else bar_cell(c.fraction, c.top)
            if isinstance(c, Bar)
            else _cell(c)
            for c in row
        )
        css = f' class="{esc(row_classes[i])}"' if i < len(row_classes) and row_classes[i] else ""
        body.append(f"<tr{css}>{cells}</tr>")
    mark = f' <span class="how"><em>{esc(how)}</em></span>' if how else ""
    title = (
        f'<caption style="text-align:left;caption-side:top"><code>{esc(caption)}</code>{mark}</caption>'
        if caption or how
        else ""
    )
    foot = (
        f'<tfoot><tr><td colspan="{width}" style="{CELL_STYLE};font-style:italic">'
        f"{esc(footer)}</td></tr></tfoot>"
        if footer
        else ""
    )
    classes = f"{kind} {how}" if how else kind
    return (
        f'<table class="{esc(classes)}" style="{TABLE_STYLE}">{title}'
        f"{f'<thead><tr>{head}</tr></thead>' if header else ''}<tbody>{''.join(body)}</tbody>{foot}</table>"
    )


def tables(entries: Iterable[str]) -> str:
    """Several tables (or other views) one after the other, as one element (a notebook
    cell's value of several parts)."""
    return '<div class="pql-results">' + "".join(entries) + "</div>"


def _estimate_cell(value: Any, stderr: float | None) -> str:
    parts = estimate_parts(value, stderr)
    shown = format_number(value) if parts is None else f"{parts[0]} ± {parts[1]}"
    return _cell(shown, NUMBER_STYLE, value=csv_number(number_value(value)), stderr=csv_number(stderr))


def _sweep_value(result: ResultFields, column: Column) -> str:
    if column.selector == "histogram":
        return _cell(f"{len(column.buckets)} values", NUMBER_STYLE)
    return _estimate_cell(column.value, column.stderr)


#: What ends a page.
PAGE_TAIL = "</body></html>\n"


def page_head(title: str = "pql results") -> str:
    """The start of a page: its head (the charset, the title, the style, all inline) and the
    opening of its body; the tables follow, then ``PAGE_TAIL``."""
    style = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}code{font-size:0.95em}"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{esc(title)}</title><style>{style}</style></head><body>\n"
    )


def page(entries: Iterable[str], title: str = "pql results") -> str:
    """A whole page of tables (each from ``result_table`` or ``sweep_table``)."""
    return page_head(title) + "\n".join(entries) + "\n" + PAGE_TAIL
