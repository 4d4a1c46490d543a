"""The hand-written stubs of ``pql_repl._core`` match the compiled module (mypy.stubtest)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")
def test_core_stubs_match_the_extension() -> None:
    # stubtest imports the module and compares every name, signature and default with the stub.
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "pql_repl._core"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
