"""Colour themes by name, shared by the config's ``theme`` and ``.theme``: the full-screen app
uses Textual's theme of that name, ``pql --plain`` colours PQL with the pygments style below.

With no theme (or ``ansi-dark``/``ansi-light``) ``--plain`` uses ``AnsiStyle``: the terminal's own
sixteen colours, which every terminal palette makes readable on its own background, dark or
light. The other themes name fixed colours made for a dark or a light background.
"""

from __future__ import annotations

from pygments.style import Style
from pygments.token import (
    Comment,
    Error,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Token,
)


class AnsiStyle(Style):
    """PQL in the terminal's sixteen colours (readable on dark and light backgrounds alike)."""

    styles = {  # noqa: RUF012 - pygments reads the class attribute
        Token: "",
        Keyword: "bold ansiblue",
        Keyword.Constant: "ansimagenta",
        Name.Function: "ansicyan",
        Name.Builtin: "bold ansimagenta",
        Name.Constant: "ansimagenta",
        Name.Attribute: "ansiyellow",
        Name.Variable: "",
        Name.Label: "bold",
        String: "ansigreen",
        Number: "ansimagenta",
        Comment: "italic ansibrightblack",
        Operator: "",
        Punctuation: "",
        Error: "bg:ansired ansiwhite",
    }


#: The themes of the full-screen app (Textual's built-in ones) and the pygments style with which
#: ``--plain`` shows each; None: ``AnsiStyle``.
PLAIN_STYLES: dict[str, str | None] = {
    "textual-dark": "monokai",
    "textual-light": "friendly",
    "nord": "nord",
    "gruvbox": "gruvbox-dark",
    "catppuccin-mocha": "one-dark",
    "catppuccin-frappe": "one-dark",
    "catppuccin-macchiato": "one-dark",
    "catppuccin-latte": "friendly",
    "dracula": "dracula",
    "tokyo-night": "one-dark",
    "monokai": "monokai",
    "flexoki": "zenburn",
    "solarized-light": "solarized-light",
    "solarized-dark": "solarized-dark",
    "rose-pine": "one-dark",
    "rose-pine-moon": "one-dark",
    "rose-pine-dawn": "friendly",
    "atom-one-dark": "one-dark",
    "atom-one-light": "friendly",
    "ansi-dark": None,
    "ansi-light": None,
}

THEMES = tuple(PLAIN_STYLES)


def plain_style(theme: str | None) -> type[Style]:
    """The pygments style ``--plain`` colours PQL with under ``theme``."""
    from pygments.styles import get_style_by_name  # noqa: PLC0415 - only a REPL needs it

    name = PLAIN_STYLES.get(theme or "")
    return AnsiStyle if name is None else get_style_by_name(name)


def theme_list(themes: tuple[str, ...], current: str | None) -> str:
    """The themes one per line, the one in use marked (what ``.theme`` alone prints)."""
    lines = [f"{'*' if name == current else ' '} {name}" for name in themes]
    return "\n".join([*lines, "(.theme NAME chooses one; `theme` in the config sets it for good)"])
