"""`.define $name 'RANGE'`: named ranges kept in the data directory and usable in every range."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

import pql_repl as pql
from pql_repl.base.errors import PqlRangeError
from pql_repl.files import config, named_ranges
from pql_repl.session.session import Session
from pql_repl.session.settings import SessionError


def test_define_stores_and_every_range_can_use_it() -> None:
    s = Session()
    assert "no named ranges" in s.handle(".define").output
    s.handle(".define $open 'QQ+, AKs'")
    assert named_ranges.load() == {"open": "QQ+, AKs"}
    assert s.handle(".define $open").output == "$open QQ+, AKs"
    assert "$open" in s.handle(".define").output
    assert len(pql.parse_range("$open, 22")) == 18 + 4 + 6
    (r,) = pql.run("select avg(riverEquity(hero)) from hero='$open', villain='KK'", exact=True)
    (w,) = pql.run("select avg(riverEquity(hero)) from hero='QQ+, AKs', villain='KK'", exact=True)
    assert r.columns[0].value == w.columns[0].value
    # Redefined (another spelling of the same name), then forgotten.
    s.handle(".define $OPEN 'AA'")
    assert named_ranges.load() == {"OPEN": "AA"}
    assert len(pql.parse_range("$open")) == 6
    s.handle(".undefine $open")
    assert named_ranges.load() == {}
    with pytest.raises(PqlRangeError):
        pql.parse_range("$open")


def test_named_ranges_of_other_games_and_given_macros() -> None:
    Session().handle(".define $aces 'AA**' omahahi")
    assert len(pql.parse_range("$aces", "omahahi")) == len(pql.parse_range("AA**", "omahahi"))
    # Macros given to a call replace the stored ones.
    assert len(pql.parse_range("$x1", macros={"x1": "KK"})) == 6
    with pytest.raises(PqlRangeError):
        pql.parse_range("$aces", "omahahi", macros={})


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (".define $ds 'AA'", "built-in"),
        (".define $1x 'AA'", "not a range name"),
        (".define open", "no range is named"),
        (".define $open 'AA", "quote is not closed"),
        (".undefine $nothing", "no range is named"),
        (".undefine", "missing name"),
    ],
)
def test_define_mistakes(line: str, message: str) -> None:
    with pytest.raises(SessionError, match=message):
        Session().handle(line)


def test_a_bad_or_circular_range_is_refused_with_its_position() -> None:
    with pytest.raises(PqlRangeError, match="col 5"):
        Session().handle(".define $bad 'AK, 1'")
    s = Session()
    s.handle(".define $aa 'AA'")
    with pytest.raises(PqlRangeError, match="uses itself"):
        s.handle(".define $aa '$aa, KK'")
    assert named_ranges.load() == {"aa": "AA"}
    # A damaged file does not stop queries, and is not overwritten (what it holds is kept).
    named_ranges.ranges_path().write_text("{not json", encoding="utf-8")
    assert named_ranges.load() == {}
    assert len(pql.parse_range("AA")) == 6
    with pytest.raises(SessionError, match="not a named-ranges file"):
        s.handle(".define $kk 'KK'")
    assert named_ranges.ranges_path().read_text(encoding="utf-8") == "{not json"


def test_explore_names_a_player() -> None:
    r = Session().handle(".explore hero")
    assert r.explore == "hero"
    with pytest.raises(SessionError, match="missing player"):
        Session().handle(".explore")


def test_the_data_directory_is_platformdirs_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    # Worked out without loading platformdirs (every query looks for named ranges there).
    monkeypatch.delenv("PQL_DATA_DIR")
    for xdg in ("", "/tmp/xdg-data"):
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
        assert config.data_dir() == Path(platformdirs.user_data_dir("pql", appauthor=False))
