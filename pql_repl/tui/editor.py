"""The query editor: a TextArea that highlights PQL, offers completions in a dropdown, marks the
checker's first error inline and browses the history with Up/Down on its first/last screen line.

Enter breaks the line; at the end of a complete statement (after its `;`) or of a dot-command
line it also asks the app to run that statement or line (``RunRequested``), unless it ran
already and has not changed since (``ran``): a script typed top-down runs one statement at a
time, each once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import accumulate

from rich.markup import escape
from rich.style import Style
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding
from textual.geometry import Offset
from textual.message import Message
from textual.widgets import OptionList, TextArea
from textual.widgets.option_list import Option
from textual.widgets.text_area import TextAreaTheme

from pql_repl.files.history import History
from pql_repl.session import lexer
from pql_repl.session.completion import Candidate, complete, opens_by_itself
from pql_repl.tui.statement_spans import Span, enter_runs, spans

ERROR_HIGHLIGHT = "pql.error"
#: A text longer than this has only the lines around the view highlighted.
HIGHLIGHT_ALL_CHARS = 100_000
#: Lines above and below the view highlighted then, and at most how many characters of them.
HIGHLIGHT_MARGIN = 200
HIGHLIGHT_MAX_CHARS = 100_000
_HIGHLIGHT_NAMES = {
    lexer.KEYWORD: "keyword",
    lexer.SELECTOR: "keyword.function",
    lexer.FUNCTION: "function.call",
    lexer.CONSTANT: "constant.builtin",
    lexer.BOOLEAN: "boolean",
    lexer.RESERVED_KEY: "yaml.field",
    lexer.STRING: "string",
    lexer.NUMBER: "number",
    lexer.COMMENT: "comment",
    lexer.OPERATOR: "operator",
    lexer.DOT_COMMAND: "heading",
    lexer.ERROR: ERROR_HIGHLIGHT,
}


def pql_theme(base: str = "monokai") -> TextAreaTheme:
    """A built-in TextArea theme plus the style of the inline error marker."""
    theme = TextAreaTheme.get_builtin_theme(base) or TextAreaTheme.get_builtin_theme("monokai")
    assert theme is not None
    styles = dict(theme.syntax_styles)
    styles[ERROR_HIGHLIGHT] = Style(color="bright_white", bgcolor="red", underline=True, bold=True)
    return replace(theme, name=f"pql-{base}", syntax_styles=styles)


class CompletionList(OptionList):
    """The dropdown under the cursor; the editor keeps the focus and drives it."""

    can_focus = False


class QueryEditor(TextArea):
    """Multi-line PQL editor."""

    BINDINGS = [  # noqa: RUF012 - Textual reads the class attribute
        Binding("ctrl+space", "complete", "Complete", show=False, id="complete"),
        # As in harlequin and most editors (the TextArea's Ctrl+A goes to the line start, which
        # Home does too).
        Binding("ctrl+a", "select_all", "Select all", show=False, id="select_all"),
    ]

    class RunRequested(Message):
        """Enter after a complete statement's `;` (or at the end of a dot-command line): run
        ``text[start:end]`` of the editor's text (the line has already been broken after it)."""

        def __init__(self, start: int, end: int) -> None:
            super().__init__()
            self.start = start
            self.end = end

    class Checked(Message):
        """The text changed; the app checks it after a short pause."""

    class ExampleChosen(Message):
        """1, 2 or 3 typed into the empty editor of the start screen."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, history: History, text: str = "", *, id: str | None = None) -> None:
        #: (row, column, length) of the checker's error, in characters.
        self.error_at: tuple[int, int, int] | None = None
        super().__init__(text, id=id, soft_wrap=True, tab_behavior="focus", show_line_numbers=True)
        self.query_history = history
        self.candidates: list[Candidate] = []
        self._completion: CompletionList | None = None
        self._typing = False  # the next Changed comes from a key press
        #: The user asked for the menu (Tab, Ctrl+Space) or moved in it: only then does Enter
        #: take a completion; a menu that opened by itself never swallows an Enter.
        self._engaged = False
        #: How many start-screen examples a digit typed into the empty editor runs (0: none).
        self.examples = 0
        #: The statements and dot-command lines that ran since the text was loaded, by their
        #: ``Span.key``: Enter after one of them, unchanged, only opens a new line.
        self.ran: set[tuple[str, int]] = set()

    # -- highlighting ---------------------------------------------------------------------

    #: The lines highlighted, [first, last), when the text is long enough that only those
    #: around the view are (None: all of it).
    _highlighted: tuple[int, int] | None = None

    def _build_highlight_map(self) -> None:
        """Highlights from the PQL tokens (TextArea wants byte columns per line). A text longer
        than ``HIGHLIGHT_ALL_CHARS`` has only the lines around the view highlighted (at most
        ``HIGHLIGHT_MAX_CHARS`` of them), again as the view moves: the TextArea asks for the
        whole map on every edit, and a megabyte took a second to tokenize."""
        self._line_cache.clear()
        highlights = self._highlights
        highlights.clear()
        # The document's lines, joined by "\n" whatever breaks the text had: a text read with
        # "\r\n" split on "\n" alone kept each "\r", and highlights ran past their lines.
        lines = self.document.lines
        text = "\n".join(lines)
        first, last = 0, len(lines)
        self._highlighted = None
        if len(text) > HIGHLIGHT_ALL_CHARS:
            top, bottom = self._view_lines()
            first, last = max(0, top - HIGHLIGHT_MARGIN), min(len(lines), bottom + HIGHLIGHT_MARGIN)
            self._highlighted = (first, last)
            text = "\n".join(lines[first:last])[:HIGHLIGHT_MAX_CHARS]
        byte_columns = _ByteColumns(lines)
        line_starts = [0]
        for line in lines[first : last - 1]:
            line_starts.append(line_starts[-1] + len(line) + 1)
        row = 0
        for tok in lexer.tokenize(text):
            name = _HIGHLIGHT_NAMES.get(tok.kind)
            if name is None:
                continue
            start, end = tok.start, tok.end
            while row + 1 < len(line_starts) and line_starts[row + 1] <= start:
                row += 1
            r = row
            while start < end and r < len(line_starts):
                line = lines[first + r]
                col_start = start - line_starts[r]
                col_end = min(end - line_starts[r], len(line))
                if col_end > col_start:
                    at = byte_columns.of(first + r)
                    highlights[first + r].append((at(col_start), at(col_end), name))
                r += 1
                if r < len(line_starts):
                    start = line_starts[r]
        if self.error_at is not None:
            r, col, length = self.error_at
            if r < len(lines):
                line = lines[r]
                col = min(col, len(line))
                end = max(col + 1, min(col + length, len(line)))
                at = byte_columns.of(r)
                highlights[r].append((at(col), at(end) if end <= len(line) else None, ERROR_HIGHLIGHT))

    def _view_lines(self) -> tuple[int, int]:
        """The document lines in view, [top, bottom); around the cursor's before the editor is
        laid out (or while its wrapping is being redone)."""
        y = self.scroll_offset.y
        height = max(self.size.height, 1)
        try:
            top = self.wrapped_document.offset_to_location(Offset(0, y))[0]
            bottom = self.wrapped_document.offset_to_location(Offset(0, y + height - 1))[0] + 1
        except (IndexError, ValueError):
            row = self.cursor_location[0]
            return row, row + height
        return top, max(bottom, top + 1)

    def _watch_scroll_y(self) -> None:
        super()._watch_scroll_y()
        if self._highlighted is not None:
            first, last = self._highlighted
            top, bottom = self._view_lines()
            if top < first or bottom > last:
                self._build_highlight_map()
                self.refresh()

    def mark_error(self, at: tuple[int, int, int] | None) -> None:
        if at != self.error_at:
            self.error_at = at
            self._build_highlight_map()
            self.refresh()

    # -- completion -----------------------------------------------------------------------

    @property
    def cursor_offset(self) -> int:
        return self.offset_of(self.cursor_location)

    def offset_of(self, location: tuple[int, int]) -> int:
        """The character offset into the text of a (row, column) location."""
        row, col = location
        lines = self.text.split("\n")
        return sum(len(line) + 1 for line in lines[:row]) + col

    def location_of(self, offset: int) -> tuple[int, int]:
        """(row, column) of a character offset into the text."""
        before = self.text[:offset]
        row = before.count("\n")
        return row, offset - (before.rfind("\n") + 1)

    def attach_completion(self, dropdown: CompletionList) -> None:
        self._completion = dropdown

    @property
    def completing(self) -> bool:
        return self._completion is not None and self._completion.display

    def action_complete(self) -> None:
        self.show_completions(force=True)

    def show_completions(self, force: bool = False) -> None:
        """Fill the dropdown with what fits at the cursor: when asked (``force``), or as a word
        is typed; never by itself right after a closing quote, ``;`` or ``)``."""
        dropdown = self._completion
        if dropdown is None:
            return
        text, cursor = self.text, self.cursor_offset
        engaged = force or (self._engaged and self.completing)
        self.candidates = complete(text, cursor) if (force or opens_by_itself(text, cursor)) else []
        # A lone exact match of what was typed is not worth a dropdown.
        if not self.candidates or (
            not force and len(self.candidates) == 1 and self.candidates[0].match == "exact"
        ):
            self.hide_completions()
            return
        dropdown.clear_options()
        dropdown.add_options(
            [Option(_option_label(c), id=str(i)) for i, c in enumerate(self.candidates[:50])]
        )
        # Asked for, the first entry is chosen; opened by itself, none is until the user moves.
        dropdown.highlighted = 0 if engaged else None
        self._engaged = engaged
        x, y = self.cursor_screen_offset
        dropdown.styles.offset = (max(0, x - 2), y + 1)
        dropdown.display = True

    def hide_completions(self) -> None:
        if self._completion is not None:
            self._completion.display = False
        self.candidates = []
        self._engaged = False

    def accept_completion(self, index: int | None = None) -> None:
        dropdown = self._completion
        if dropdown is None or not self.candidates:
            return
        index = dropdown.highlighted if index is None else index
        candidate = self.candidates[index or 0]
        cursor = self.cursor_offset
        start, end = self.location_of(candidate.start), self.location_of(cursor)
        self.replace(candidate.text, start, end)
        self.hide_completions()

    # -- keys -------------------------------------------------------------------------------

    async def _on_key(self, event: events.Key) -> None:
        example = _example_key(event.character) if self.examples and not self.text else 0
        if 1 <= example <= self.examples:
            event.stop()
            event.prevent_default()
            self.post_message(self.ExampleChosen(example - 1))
            return
        if (
            self.completing
            and event.key == "enter"
            and (not self._engaged or self._highlighted_is_typed() or self._after_semicolon())
        ):
            # Nobody asked for the menu, or the word is already complete, or the statement is:
            # Enter means a new line (or run), not "accept".
            self.hide_completions()
        if self.completing and event.key in ("tab", "enter", "escape"):
            event.stop()
            event.prevent_default()
            if event.key == "escape":
                self.hide_completions()
            else:
                self.accept_completion()
            return
        if event.key == "tab":
            # With no dropdown, Tab asks for completions (as in pgcli and harlequin) rather than
            # moving the focus away, where the next keys typed would be lost.
            event.stop()
            event.prevent_default()
            self.show_completions(force=True)
            return
        # Only typing opens the dropdown, not text loaded from the history or by the app.
        self._typing = event.is_printable or event.key in ("backspace", "delete")
        span = self.enter_runs() if event.key == "enter" else None
        await super()._on_key(event)  # Enter always breaks the line
        if span is not None:
            self.post_message(self.RunRequested(span.start, span.end))

    def _highlighted_is_typed(self) -> bool:
        dropdown = self._completion
        if dropdown is None or dropdown.highlighted is None or not self.candidates:
            return False
        candidate = self.candidates[dropdown.highlighted]
        typed = self.text[candidate.start : self.cursor_offset]
        return typed.lower() == candidate.text.lower()

    def _after_semicolon(self) -> bool:
        return self.text[: self.cursor_offset].rstrip().endswith(";")

    def enter_runs(self) -> Span | None:
        """What Enter at the cursor runs: the complete statement it follows on its line or the
        dot-command line it ends, unless that ran already unchanged; None: Enter only breaks
        the line."""
        if not self.selection.is_empty:
            return None
        span = enter_runs(self.text, self.cursor_offset)
        return None if span is None or span.key in self.ran else span

    def mark_ran(self, text: str, start: int = 0, end: int | None = None) -> set[tuple[str, int]]:
        """The statements and dot-command lines of ``text`` between ``start`` and ``end`` (all
        of it by default) have run; their keys (to forget them if the run fails)."""
        end = len(text) if end is None else end
        keys = {s.key for s in spans(text) if start <= s.start and s.end <= end}
        self.ran |= keys
        return keys

    def action_copy(self) -> None:
        """Ctrl+C with a selection (and no run going: then the app's Ctrl+C cancels first):
        copy it to the clipboard (OSC 52, so over SSH too) and say so."""
        text = self.selected_text
        if not text:
            raise SkipAction()
        self.app.copy_to_clipboard(text)
        self.notify(copied_note("the selection", text), timeout=3)

    def load_text(self, text: str) -> None:
        """New text from the history or the app: nothing in it has run from here yet."""
        self.ran = set()
        super().load_text(text)

    def action_cursor_up(self, select: bool = False) -> None:
        if self.completing and self._completion is not None:
            self._completion.action_cursor_up()
            self._engaged = True
            return
        # The first line on screen: a long first line wraps, and Up on its lower parts moves.
        if not select and self.navigator.is_first_wrapped_line(self.cursor_location):
            entry = self.query_history.previous(self.text)
            if entry is not None:
                self._load(entry)
            return
        super().action_cursor_up(select)

    def action_cursor_down(self, select: bool = False) -> None:
        if self.completing and self._completion is not None:
            self._completion.action_cursor_down()
            self._engaged = True
            return
        if not select and self.navigator.is_last_wrapped_line(self.cursor_location):
            entry = self.query_history.next()
            if entry is not None:
                self._load(entry)
            return
        super().action_cursor_down(select)

    def _load(self, text: str) -> None:
        self.load_text(text)
        self.move_cursor(self.document.end)

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if self._typing:
            self._typing = False
            self.show_completions()
        self.post_message(self.Checked())


def copied_note(what: str, text: str) -> str:
    """``copied the selection (3 lines)``: what a copy says."""
    lines = text.count("\n") + (not text.endswith("\n"))
    return f"copied {what} ({lines} line{'s' if lines != 1 else ''})"


def _option_label(c: Candidate) -> str:
    """``nutHi(player: player, street: street) -> boolean`` for functions, ``flop  street`` else."""
    if c.kind == "function":
        return f"{escape(c.display)}  [dim]{escape(c.doc)}[/dim]" if c.doc else escape(c.display)
    return f"{escape(c.text)}  [dim]{escape(c.kind.replace('_', ' '))}[/dim]"


def _example_key(character: str | None) -> int:
    """The example a digit key stands for (0: not a digit)."""
    return int(character) if character is not None and len(character) == 1 and character in "123456789" else 0


class _ByteColumns:
    """Byte columns of character columns, per line: the column itself on an ASCII line, else
    from the line's running byte counts, made once (encoding the line's start for every token
    made a long line quadratic)."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines
        self._made: dict[int, Callable[[int], int]] = {}

    def of(self, row: int) -> Callable[[int], int]:
        made = self._made.get(row)
        if made is None:
            line = self._lines[row]
            if line.isascii():
                made = int
            else:
                counts = list(accumulate((_utf8_length(c) for c in line), initial=0))
                made = counts.__getitem__
            self._made[row] = made
        return made


def _utf8_length(character: str) -> int:
    code = ord(character)
    return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
