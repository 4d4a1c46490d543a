"""Every runnable example of the documentation (docs/**/*.md, README.md) runs, and prints what the
page shows beside it (tests/doc_examples.py; docs/contributing.md says how examples are written).
Each example is a test of its own, named by its file and line. Below them, the comparison itself
is tested, so that a wrong output cannot pass."""

from __future__ import annotations

import difflib
import doctest
import inspect
import re
import shlex
from pathlib import Path

import function_reference
import pytest
from doc_examples import (
    ROOT,
    Example,
    ExampleFailed,
    NumericChecker,
    all_examples,
    check_console,
    check_pql,
    check_pycon,
    check_python,
    command_env,
    difference,
    isolated_env,
    parse_examples,
    pql_options,
    run_command,
    run_pql,
)

import pql_repl as pql
from pql_repl.api.catalogue import FunctionInfo

EXAMPLES, PROBLEMS = all_examples()


@pytest.fixture
def fresh_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working folder with its own home, config and data folders, as a new user has;
    ``examples/`` is there, as in a clone."""
    for name, value in isolated_env(tmp_path).items():
        monkeypatch.setenv(name, value)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_example(example: Example, fresh_folder: Path) -> None:
    if example.kind == "pql":
        check_pql(example)
    elif example.kind == "console":
        check_console(example, command_env(fresh_folder), fresh_folder)
    elif example.kind == "pycon":
        check_pycon(example)
    else:
        check_python(example)


def test_the_examples_are_well_formed() -> None:
    assert not PROBLEMS, "\n".join(PROBLEMS)


def test_every_kind_of_example_is_found() -> None:
    kinds = {e.kind for e in EXAMPLES}
    assert kinds >= {"pql", "console", "pycon"}
    assert sum(e.shown is not None for e in EXAMPLES) >= 50


def test_in_process_runs_print_what_the_command_prints(fresh_folder: Path) -> None:
    """The pql examples run through the command's entry point in this process (fast); the
    command itself prints the same, results, dot-commands and errors alike."""
    env = command_env(fresh_folder)
    scripts = [
        (
            "--seed 1 --trials 3000",
            "select avg(riverEquity(hero)) as eq, histogram(handType(hero)) from hero='AK', villain='QQ'",
        ),
        (
            "--seed 1",
            ".trials 2000\nselect count(winsHi(hero)) from hero='AsAh', villain='KsKd', board='2c7d9h'",
        ),
        ("--seed 1", "select avg(riverEquty(hero)) from hero='AA'"),
    ]
    for options, code in scripts:
        in_process = run_pql(code, options.split())
        command = run_command(f"pql {options} -c {shlex.quote(code)}", env, fresh_folder)
        assert in_process == command, code


# ---------------------------------------------------------------------------------------------
# The comparison

SHOWN = """\
hero        | 0.821 ± 0.017
villainWins | 17.60% ± 1.67% | 352
2,000 trials
"""


def test_the_same_output_passes() -> None:
    assert difference(SHOWN, SHOWN) is None


def test_spacing_and_blank_lines_at_the_ends_do_not_matter() -> None:
    printed = "\n\nhero | 0.821 ± 0.017\nvillainWins   |  17.60% ± 1.67% |   352\n2,000 trials\n\n"
    assert difference(SHOWN, printed) is None


def test_a_number_within_the_margins_passes() -> None:
    # 0.821 ± 0.017 shown, 0.850 ± 0.015 printed: 0.029 apart, within 0.032.
    assert difference(SHOWN, SHOWN.replace("0.821 ± 0.017", "0.850 ± 0.015")) is None


def test_a_number_outside_the_margins_fails() -> None:
    why = difference(SHOWN, SHOWN.replace("0.821 ± 0.017", "0.860 ± 0.015"))
    assert why is not None
    assert "0.821 ± 0.017" in why
    assert difference(SHOWN, SHOWN.replace("17.60% ± 1.67%", "21.00% ± 1.60%")) is not None


def test_a_number_without_a_margin_agrees_to_the_digits_shown() -> None:
    assert difference("equity | 0.82", "equity | 0.819461") is None
    assert difference("equity | 0.819461", "equity | 0.82") is None
    assert difference("equity | 0.82", "equity | 0.8261") is not None
    assert difference("equity | 0.819461", "equity | 0.819462") is not None


def test_a_count_must_be_equal() -> None:
    assert difference("1,712,304 deals, exact", "1,712,305 deals, exact") is not None
    assert difference(SHOWN, SHOWN.replace("| 352", "| 353")) is not None


def test_a_percent_is_not_a_fraction() -> None:
    assert difference("wins | 17.60%", "wins | 17.60") is not None


def test_a_changed_word_fails() -> None:
    assert difference(SHOWN, SHOWN.replace("villainWins", "heroWins")) is not None
    assert difference("1,712,304 deals, exact", "1,712,304 trials") is not None
    assert difference("board | Qs7h2d", "board | Qs8h2d") is not None


def test_a_missing_or_extra_line_fails() -> None:
    lines = SHOWN.splitlines()
    assert difference(SHOWN, "\n".join(lines[:-1])) is not None
    assert difference("\n".join(lines[:-1]), SHOWN) is not None
    assert difference(SHOWN, "\n".join([*lines[:1], "extra | 1", *lines[1:]])) is not None


def test_a_missing_margin_or_number_fails() -> None:
    assert difference("eq | 0.5 | 10", "eq | 0.5") is not None
    assert difference("eq | 0.5", "eq | 0.5 | 10") is not None


def test_bars_match_bars_of_any_length() -> None:
    shown = "  pair | 40.41% | 34,246,080 | ███████████████████████"
    assert difference(shown, shown.replace("███████████████████████", "██████▌")) is None
    assert difference(shown, shown.replace(" ███████████████████████", "")) is not None


def test_digits_inside_words_are_words() -> None:
    assert difference("hero='AA23' wins", "hero='AA24' wins") is not None
    assert difference("positivePotential1(hero)", "positivePotential2(hero)") is not None


def test_the_doctest_checker_compares_numbers() -> None:
    checker, flags = NumericChecker(), doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    assert checker.check_output("(0.46, 0.007)\n", "(0.46, 0.007)\n", flags)
    assert checker.check_output("(0.82, True)\n", "(0.819461, True)\n", flags)
    assert not checker.check_output("(0.82, True)\n", "(0.83, True)\n", flags)
    assert not checker.check_output("(0.82, True)\n", "(0.82, False)\n", flags)
    assert checker.check_output("0.8194...\n", "0.819461\n", flags)


# ---------------------------------------------------------------------------------------------
# Finding and running examples

PAGE = """\
# A page

```pql
-- pql --trials 2000 --no-exact
select avg(riverEquity(hero)) as eq from hero='AA', villain='KK'
```

```output
eq | 0.82 ± 0.02
2,000 trials
```

```pql
select avg(riverEquity(hero)) as eq from hero='AsAh', villain='KsKd'
```

Text between.

```output
eq | 0.5
```

- in a list:

    ```pycon
    >>> 1 + 1
    2
    ```

```sql
select nothing
```
"""


def test_examples_are_found_with_their_outputs() -> None:
    examples, problems = parse_examples(PAGE, "page.txt")
    assert [(e.kind, e.line, e.shown is not None) for e in examples] == [
        ("pql", 3, True),
        ("pql", 13, False),
        ("pycon", 25, False),
    ]
    assert examples[0].shown == "eq | 0.82 ± 0.02\n2,000 trials\n"
    assert examples[2].code == ">>> 1 + 1\n2\n"
    assert problems == ["page.txt:19: an output block must follow a pql block"]


def test_options_come_from_the_first_line() -> None:
    assert pql_options("-- pql --trials 2000 --no-exact\nselect 1\n") == (
        ["--seed", "1", "--trials", "2000", "--no-exact"],
        "select 1\n",
    )
    assert pql_options("-- pql --seed 7\nselect 1\n") == (["--seed", "7"], "select 1\n")
    assert pql_options("select 1\n") == (["--seed", "1"], "select 1\n")


@pytest.mark.usefixtures("fresh_folder")
def test_a_wrong_output_fails_the_example() -> None:
    examples, _ = parse_examples(PAGE, "page.txt")
    check_pql(examples[0])
    wrong = Example("page.txt", 3, "pql", examples[0].code, "eq | 0.70 ± 0.02\n2,000 trials\n", 8)
    with pytest.raises(ExampleFailed, match=r"page\.txt:3"):
        check_pql(wrong)
    with pytest.raises(ExampleFailed, match="exit code 1"):
        check_pql(Example("page.txt", 1, "pql", "select avg(nothing(hero)) from hero='AA'\n"))


def test_a_wrong_doctest_or_a_raising_block_fails(fresh_folder: Path) -> None:
    check_pycon(Example("page.txt", 1, "pycon", ">>> round(2 / 3, 2)\n0.67\n"))
    with pytest.raises(ExampleFailed):
        check_pycon(Example("page.txt", 1, "pycon", ">>> round(2 / 3, 2)\n0.6\n"))
    with pytest.raises(ExampleFailed, match="ZeroDivisionError"):
        check_python(Example("page.txt", 1, "python", "1 / 0\n"))
    console = "$ pql --seed 1 -c \"select avg(riverEquity(hero)) from hero='AsAh', villain='KsKd'\"\n"
    check_console(
        Example(
            "page.txt", 1, "console", console + "avg(riverEquity(hero)) | 0.8195\n1,712,304 deals, exact\n"
        ),
        command_env(fresh_folder),
        fresh_folder,
    )
    with pytest.raises(ExampleFailed):
        check_console(
            Example(
                "page.txt", 1, "console", console + "avg(riverEquity(hero)) | 0.81\n1,712,304 deals, exact\n"
            ),
            command_env(fresh_folder),
            fresh_folder,
        )


# ---------------------------------------------------------------------------------------------
# The function reference


def test_the_function_reference_is_what_the_catalogue_gives() -> None:
    """docs/reference/functions.md is written from the catalogue by tests/function_reference.py;
    written again today (its examples' outputs as the page shows them, which test_example checks
    are still printed), it is the same page. After changing the catalogue: `make reference`."""
    page = function_reference.PAGE.read_text(encoding="utf-8")
    now = function_reference.render(pql.functions(), function_reference.runs_on_page(page))
    if page != now:
        diff = difflib.unified_diff(
            page.splitlines(), now.splitlines(), "committed", "catalogue", lineterm="", n=1
        )
        pytest.fail(
            "docs/reference/functions.md is out of date; run `make reference`:\n" + "\n".join(list(diff)[:60])
        )


def test_the_function_reference_has_every_function_and_its_example() -> None:
    page = function_reference.PAGE.read_text(encoding="utf-8")
    headings = re.findall(r"^## (\S+)$", page, re.MULTILINE)
    names = [f.name for f in pql.functions()]
    assert headings == names
    runs = function_reference.runs_on_page(page)
    assert sorted(runs) == sorted(names)
    examples = [e for e in EXAMPLES if e.path == "docs/reference/functions.md"]
    assert len(examples) == len(names)
    assert all(e.kind == "pql" and e.shown is not None for e in examples)


def test_a_changed_catalogue_changes_the_reference() -> None:
    page = function_reference.PAGE.read_text(encoding="utf-8")
    functions, runs = pql.functions(), function_reference.runs_on_page(page)
    fields = dict(vars(functions[0]))
    reworded = FunctionInfo(**{**fields, "doc": "Something else."})
    assert function_reference.render([reworded, *functions[1:]], runs) != page
    added = FunctionInfo(**{**fields, "name": "newFunction"})
    assert "(not run yet" in function_reference.render([*functions, added], runs)


# ---------------------------------------------------------------------------------------------
# The Python API's docstrings (the Python API page names them; help() shows them)


def undocumented_api() -> list[str]:
    """The public names of ``pql_repl``, and the public methods and properties of its classes,
    that have no docstring of their own."""
    missing: list[str] = []
    for name in pql.__all__:
        value = getattr(pql, name)
        if inspect.ismodule(value):
            continue
        if not (value.__doc__ or "").strip():
            missing.append(name)
        if not inspect.isclass(value) or issubclass(value, BaseException):
            continue
        for member, attribute in vars(value).items():
            if member.startswith("_") or not (callable(attribute) or isinstance(attribute, property)):
                continue
            function = attribute.fget if isinstance(attribute, property) else attribute
            if not (getattr(function, "__doc__", None) or "").strip():
                missing.append(f"{name}.{member}")
    return missing


def test_the_python_api_is_documented() -> None:
    assert len(pql.__all__) >= 40
    assert undocumented_api() == []
