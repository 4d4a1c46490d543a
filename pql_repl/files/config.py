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

from pql_repl.base.limits import CONFIG_MAX_BYTES
from pql_repl.files.storage import FileProblem, decode_text, read_bounded

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

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


# Every run of the command reads the config file and the named ranges, so their places are
# worked out as text: pathlib (and platformdirs on Linux) would cost a tenth of the start.


def config_path() -> Path:
    """Where the config file is read from (it need not exist)."""
    from pathlib import Path  # noqa: PLC0415 (see above)

    return Path(config_file())


def config_file() -> str:
    """``config_path()`` as text."""
    override = os.environ.get("PQL_CONFIG")
    if override:
        return os.path.expanduser(override)
    return os.path.join(_user_dir("XDG_CONFIG_HOME", "~/.config", "user_config_dir"), "config.toml")


def user_config_dir() -> Path:
    """The user's config dir for pql: platformdirs' answer (worked out here on Linux)."""
    from pathlib import Path  # noqa: PLC0415 (see above)

    return Path(_user_dir("XDG_CONFIG_HOME", "~/.config", "user_config_dir"))


def data_dir() -> Path:
    """Where the REPLs keep history and other state (created on demand by whoever writes there)."""
    from pathlib import Path  # noqa: PLC0415 (see above)

    return Path(data_dir_name())


def data_dir_name() -> str:
    """``data_dir()`` as text."""
    override = os.environ.get("PQL_DATA_DIR")
    if override:
        return os.path.expanduser(override)
    return _user_dir("XDG_DATA_HOME", "~/.local/share", "user_data_dir")


def _user_dir(variable: str, default: str, platformdirs_function: str) -> str:
    """pql's directory of one kind for this user: on Linux the XDG variable's (or its default),
    as platformdirs would say; elsewhere platformdirs' answer."""
    if sys.platform.startswith("linux"):
        home = os.environ.get(variable, "").strip()
        return os.path.join(home or os.path.expanduser(default), APP_NAME)
    import platformdirs  # noqa: PLC0415 (see above)

    return str(getattr(platformdirs, platformdirs_function)(APP_NAME, appauthor=False))


def load_config(path: Path | str | None = None) -> dict[str, Any]:
    """The settings of the config file at ``path`` (default ``config_path()``); ``{}`` when there is
    no file. Unknown keys and values of the wrong type raise ``ConfigError`` so typos do not pass
    silently; so does a file that is not UTF-8 text, is larger than ``CONFIG_MAX_BYTES``, nests
    too deeply for the TOML reader, or is no regular file (a FIFO would be waited on forever)."""
    path = path or config_file()
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
