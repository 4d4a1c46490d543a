"""The app's keys: its bindings, the actions that belong to the main screen, and the table of keys
the help screen shows."""

from __future__ import annotations

import re

from textual.binding import Binding, BindingType

APP_BINDINGS: list[BindingType] = [
    Binding("f5", "run", "Run", id="run"),
    Binding("f4,ctrl+enter,ctrl+j", "run_statement", "Stmt", id="run_statement"),
    Binding("escape", "cancel", "Cancel", id="cancel"),
    Binding("escape", "leave_results", "Editor", show=False, id="leave_results"),
    Binding("ctrl+c", "cancel", "Cancel", show=False, priority=True, id="cancel.ctrl_c"),
    # Ctrl+C copies when nothing runs and there is something to copy (``check_action``).
    Binding("ctrl+c", "copy", "Copy", show=False, priority=True, id="copy"),
    Binding("f8", "copy_result", "Copy result", show=False, priority=True, id="copy_result"),
    Binding("ctrl+l", "clear_results", "Clear", show=False, priority=True, id="clear_results"),
    Binding("f1", "help", "Help", id="help"),
    # Priority: the editor binds F6 and F7 (select line, select all) itself.
    Binding("f6", "focus_results", "Results", priority=True, id="focus_results"),
    # F2: in the editor, explore the range at the cursor; elsewhere, back to the editor.
    Binding("f2", "explore", "Explore", priority=True, id="explore"),
    Binding("f10", "full_screen", "Full", priority=True, id="full_screen"),
    Binding("ctrl+r", "history_search", "History", show=False, id="history_search"),
    Binding("ctrl+s", "export", "Export", id="export"),
    Binding("f7", "chart", "Chart", show=False, priority=True, id="chart"),
    Binding("ctrl+q", "quit", "Quit", id="quit"),
]


#: Actions of the main screen, which do nothing while a dialog or the help is open.
ON_MAIN_SCREEN = frozenset(
    {
        "run",
        "run_statement",
        "focus_results",
        "explore",
        "full_screen",
        "leave_results",
        "export",
        "copy",
        "copy_result",
        "clear_results",
    }
)

#: How the help names an action when its footer label is too short to say it.
KEY_HELP = {
    "run": "Run the whole editor (statements and dot-commands in order)",
    "run_statement": "Run the statement at the cursor (or the selection), again if it ran",
    "copy": "Copy the editor's selection; in the results (F6) the row under the cursor, or the "
    "latest result; while a run goes Ctrl+C cancels",
    "copy_result": "Copy the latest result's table",
    "clear_results": "Clear the results on screen (Ctrl+S still exports every result)",
    "focus_results": "Focus the results (again: the live table); arrows scroll",
    "full_screen": "Results full screen, or back",
    "explore": "Explore the range of the player at the cursor; elsewhere, back to the editor",
    "history_search": "Search the history",
    "export": "Export the results (asks for a file: .csv, .json, .md or .html)",
}


#: How Enter runs what is typed, first in the help's keys (docs/app.md's keys table says the same).
ENTER_KEYS = [
    ("Enter after a statement's ;", "Run that statement, then open a new line for the next one"),
    ("Enter at a dot-command line's end", "Run that line, then open a new line"),
    ("Enter on what ran, unchanged", "Only open a new line (F4 runs it again)"),
    ("Enter elsewhere", "Break the line"),
]


#: The range explorer's keys, for the help screen (docs/app.md lists them too).
EXPLORER_KEYS = [
    ("Explorer: arrows, hjkl", "Move the cursor in the grid"),
    ("Explorer: Shift+arrows, HJKL", "Select a rectangle"),
    ("Explorer: Space", "Toggle the class (or the selection)"),
    ("Explorer: +, -", "Widen or narrow along the game's hand ordering (the % it reaches is shown)"),
    ("Explorer: 1-9, 0", "Weight the selection @10..@90; 0 takes it out"),
    ("Explorer: @", "Weight the selection with any weight from 1 to 100 (decimals too: 33.3)"),
    ("Explorer: s", "Suit picker: single hands of the class under the cursor"),
    ("Explorer: u, r (Ctrl+Z, Ctrl+Y)", "Undo, redo"),
    ("Explorer: c, i", "Clear, invert"),
    ("Explorer: [, ]", "Highlight the classes of a board breakdown line"),
    ("Explorer: n, o", "Save the range as a named range ($name), open one"),
    ("Explorer: w", "Simulate statements: weights after the observed actions, or equities"),
    ("Explorer: y, Y", "Copy the range: in pql's form (AA@75, KK), in Pio's (AA:0.75,KK)"),
    ("Explorer: Escape", "Close the explorer"),
    ("Omaha explorer: a, Enter, x", "Add, edit, remove a term"),
    ("Omaha explorer: !, 1-9, 0", "Negate a term, weight it @10..@90, no weight"),
    ("Stud picker: Left, Right", "Move between the down and up cards"),
    ("Stud picker: A-2, c d h s", "A rank, then its suit for one card"),
    ("Stud picker: -, +, *, (", "Rank ceiling (7-), floor (T+), any card, ranks apart ((3-2-))"),
    ("Stud picker: Space, x", "Any card here, clear the hand"),
]


def _readable_key(key: str) -> str:
    """``ctrl+enter`` -> ``Ctrl+Enter``, ``f5`` -> ``F5``."""
    return "+".join(
        p.upper() if len(p) == 1 or re.fullmatch(r"f\d+", p) else p.capitalize() for p in key.split("+")
    )


def key_table(bindings: list[BindingType]) -> list[tuple[str, str]]:
    """(keys, what they do) for the help screen: one row per action, keys as people write them."""
    keys: dict[str, list[str]] = {}
    described: dict[str, str] = {}
    for b in bindings:
        if isinstance(b, Binding) and b.description:
            names = [_readable_key(k) for k in b.key.split(",") if k != "ctrl+j"]
            keys.setdefault(b.action, []).extend(names)
            described.setdefault(b.action, KEY_HELP.get(b.action, b.description))
    return [
        *ENTER_KEYS,
        *((", ".join(names), described[action]) for action, names in keys.items()),
        ("Ctrl+A (in the editor)", "Select all (Home goes to the line start)"),
        ("Escape (in the results)", "Back to the editor"),
        ("Up, Down", "History, from the first/last screen line (first: the editor's text at the last run)"),
        ("Tab, Ctrl+Space", "Complete; Tab takes the entry, Enter only one chosen with Up/Down"),
        ("1, 2, 3 (start screen)", "Run an example (in an empty editor; else F6 first)"),
        ("Ctrl+P", "Command palette"),
        *EXPLORER_KEYS,
    ]
