"""Reading pql's HTML back in tests, with the standard library's ``html.parser``: the tables of a
page or a ``_repr_html_`` (their captions, cells' text and ``data-*`` attributes), and everything
a page would run or fetch (scripts, event handlers, external ``href``/``src``, ``url(...)``)."""

from __future__ import annotations

import re
from html.parser import HTMLParser


class Cell:
    """One ``td`` or ``th``: its text (entities decoded) and its attributes."""

    def __init__(self, tag: str, attrs: dict[str, str | None]) -> None:
        self.tag = tag
        self.attrs = attrs
        self.text = ""

    def data(self, name: str) -> str | None:
        return self.attrs.get(f"data-{name}")

    def __repr__(self) -> str:
        return f"Cell({self.text!r})"


class Table:
    def __init__(self, attrs: dict[str, str | None]) -> None:
        self.attrs = attrs
        self.caption = ""
        self.rows: list[list[Cell]] = []
        self.row_classes: list[str] = []


class Page(HTMLParser):
    """A page parsed: ``tables``, and ``active`` (what would run or fetch something)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[Table] = []
        self.active: list[str] = []
        self.tags: list[str] = []
        self._cell: Cell | None = None
        self._caption = False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        found = dict(attrs)
        if tag in ("script", "iframe", "object", "embed", "link", "img", "base", "form", "meta") and (
            tag != "meta" or "http-equiv" in found
        ):
            self.active.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.active.append(f"{name}=")
            if name in ("href", "src", "srcset", "action") and value is not None:
                self.active.append(f"{name}={value}")
            if name == "style" and value is not None and re.search(r"url\(|@import|expression\(", value):
                self.active.append(f"style={value}")
        if tag == "table":
            self.tables.append(Table(found))
        elif tag == "tr" and self.tables:
            self.tables[-1].rows.append([])
            self.tables[-1].row_classes.append(found.get("class") or "")
        elif tag in ("td", "th") and self.tables and self.tables[-1].rows:
            self._cell = Cell(tag, found)
            self.tables[-1].rows[-1].append(self._cell)
        elif tag == "caption":
            self._caption = True

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self._cell = None
        elif tag == "caption":
            self._caption = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.text += data
        elif self._caption and self.tables:
            self.tables[-1].caption += data

    def handle_comment(self, data: str) -> None:
        self.active.append("<!--comment-->")  # pql writes none; a comment could hide markup


def style_blocks(text: str) -> list[str]:
    """The contents of a page's ``<style>`` elements."""
    return re.findall(r"<style>(.*?)</style>", text, re.S)
