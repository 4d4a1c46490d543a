"""The user's configuration file and data directory.

The config file is TOML in the user's config dir (``PQL_CONFIG`` overrides its path) and holds
defaults for the CLI and both REPLs::

    trials = 600000
    seed = 7            # or leave out for a fresh seed each run
    threads = 2
    format = "table"    # table | csv | json
    exact = "auto"      # on | off | auto
    timer = false
    theme = "textual-dark"
    editing_mode = "vi"   # pql --plain's keys: emacs (default) or vi
    history_size = 10000  # entries the REPLs' shared history keeps

The data dir (``PQL_DATA_DIR`` overrides it) holds what the REPLs keep between runs, like history.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from pql_repl.files import FileProblem, decode_text, read_bounded
from pql_repl.limits import CONFIG_MAX_BYTES

APP_NAME = "pql"

#: The keys a config file may set, with the Python types each accepts.
KNOWN_KEYS: dict[str, tuple[type, ...]] = {
    "trials": (int,),
    "seed": (int,),
    "threads": (int,),
    "format": (str,),
    "exact": (str, bool),
    "timer": (bool,),
    "time_limit": (int, float),
    "precision": (int, float, str),
    "theme": (str,),
    "editing_mode": (str,),
    "history_size": (int,),
    "cluster": (str,),
}


class ConfigError(Exception):
    """The config file exists but cannot be used; the message names the file and the problem."""


def config_path() -> Path:
    """Where the config file is read from (it need not exist)."""
    override = os.environ.get("PQL_CONFIG")
    if override:
        return Path(override).expanduser()
    return user_config_dir() / "config.toml"


def user_config_dir() -> Path:
    """The user's config dir for pql. On Linux it is platformdirs' answer, worked out here:
    every run of the command reads it, and loading platformdirs would cost a tenth of the start."""
    if sys.platform.startswith("linux"):
        home = os.environ.get("XDG_CONFIG_HOME", "").strip()
        return Path(home or os.path.expanduser("~/.config")) / APP_NAME
    import platformdirs  # noqa: PLC0415

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """Where the REPLs keep history and other state (created on demand by whoever writes there)."""
    override = os.environ.get("PQL_DATA_DIR")
    if override:
        return Path(override).expanduser()
    if sys.platform.startswith("linux"):
        # Every run reads the named ranges there (`.define`): platformdirs' answer, worked out here.
        home = os.environ.get("XDG_DATA_HOME", "").strip()
        return Path(home or os.path.expanduser("~/.local/share")) / APP_NAME
    import platformdirs  # noqa: PLC0415 (only the REPLs keep data: the command starts faster)

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def load_config(path: Path | None = None) -> dict[str, Any]:
    """The settings of the config file at ``path`` (default ``config_path()``); ``{}`` when there is
    no file. Unknown keys and values of the wrong type raise ``ConfigError`` so typos do not pass
    silently; so does a file that is not UTF-8 text, is larger than ``CONFIG_MAX_BYTES``, nests
    too deeply for the TOML reader, or is no regular file (a FIFO would be waited on forever)."""
    path = path or config_path()
    try:
        data = read_bounded(path, CONFIG_MAX_BYTES, regular_only=True)
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise ConfigError(f"{path}: {e.strerror or e}") from None
    if b"\0" in data:
        raise ConfigError(f"{path}: not a text file (it holds NUL bytes)")
    import tomllib  # noqa: PLC0415 (only when there is a file: the command starts faster)

    try:
        text = decode_text(data)
    except FileProblem as e:
        raise ConfigError(f"{path}: {e}") from None
    try:
        settings = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: {e}") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply to read") from None
    for key, value in settings.items():
        if key not in KNOWN_KEYS:
            known = ", ".join(sorted(KNOWN_KEYS))
            raise ConfigError(f"{path}: unknown setting '{_short(key)}' (known: {known})")
        types = KNOWN_KEYS[key]
        # bool is an int in Python; a number setting must not accept `true`.
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            want = " or ".join(t.__name__ for t in types)
            raise ConfigError(f"{path}: '{key}' must be {want}, not {_short(repr(value))}")
    return settings


def _short(text: str, limit: int = 60) -> str:
    """``text`` for a one-line message: cut to ``limit`` characters (a config value may be
    huge), what cannot be printed (a newline in a quoted key) escaped."""
    cut = text if len(text) <= limit else text[:limit] + "…"
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut)
