"""What a session served to a web browser (``pql serve``) may not do: the browser's user is not
the machine's, so nothing typed there reaches the server's files or network (``.read``,
``.output FILE``, ``.cluster``), and a session's runs stay within the share of the machine the
server gave it (its threads and seconds per statement)."""

from __future__ import annotations

from pql_repl.base.records import record
from pql_repl.session.settings import SessionError, Settings, parse_count, parse_seconds

#: The dot-commands a served session refuses whatever their argument, and why.
REFUSED: dict[str, tuple[str, str]] = {
    "read": (
        ".read is refused here: a served session cannot read the server's files",
        "paste the statements into the editor",
    ),
    "output": (
        ".output FILE is refused here: a served session cannot write the server's files",
        "Ctrl+S downloads the results to your browser",
    ),
    "cluster": (
        ".cluster is refused here: a served session cannot reach other machines",
        "statements run on the server's own cores",
    ),
}

#: A served session's folder (``PQL_DATA_DIR``) is named after its process (``session-PID-…``),
#: so the server can tell one whose process is gone.
FOLDER_PREFIX = "session-"


def folder_owner(name: str) -> int | None:
    """The process id a session folder's name carries, or None."""
    if not name.startswith(FOLDER_PREFIX):
        return None
    pid = name.removeprefix(FOLDER_PREFIX).split("-", 1)[0]
    return int(pid) if pid.isdigit() else None


@record(frozen=True)
class ServedBounds:
    """A served session's share of the machine: worker threads and seconds per statement."""

    threads: int
    seconds: float

    def apply(self, settings: Settings) -> None:
        """Bring settings read from the server's config within the bounds, and drop what points
        at the server's files or network."""
        if settings.threads is None or settings.threads > self.threads:
            settings.threads = self.threads
        if settings.time_limit is None or settings.time_limit > self.seconds:
            settings.time_limit = self.seconds
        settings.output = None
        settings.cluster = None

    def check(self, command: str, arg: str) -> None:
        """Raise ``SessionError`` when ``.command arg`` is refused in a served session."""
        if command == "output" and arg.strip() in ("", "stdout", "-"):
            return  # back to the screen: nothing written
        if command in REFUSED:
            raise SessionError(*REFUSED[command])
        if command == "threads" and arg:
            wanted = None if arg.strip().lower() in ("auto", "all") else parse_count(arg)
            if wanted is None or wanted > self.threads:
                raise SessionError(
                    f"a served session runs on at most {self.threads} thread"
                    f"{'s' if self.threads != 1 else ''}",
                    f".threads 1 to {self.threads}",
                )
        if command == "time_limit" and arg:
            seconds = parse_seconds(arg)
            if seconds is None or seconds > self.seconds:
                raise SessionError(
                    f"a served session's statements stop after at most {self.seconds:g} s",
                    f".time_limit up to {self.seconds:g}",
                )
