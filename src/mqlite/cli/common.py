"""What every `mqlite` command shares: IBM-style failures, exit codes and name rules.

Commands print IBM's message texts and return IBM's return codes (crtmqm 8 "already exists",
strmqm 5 "running", 16 "does not exist", ...) because scripts written for MQ test those codes.
"""

from __future__ import annotations

import re
from typing import IO, NoReturn

import click

# Return codes of IBM's control commands (crtmqm, strmqm, endmqm, dltmqm, dspmq).
RC_OK = 0
RC_RUNNING = 5
RC_EXISTS = 8
RC_NOT_EXIST = 16
RC_NOT_AVAILABLE = 40
RC_UNEXPECTED = 71
RC_NAME_ERROR = 72

# Exit code of the messaging commands (put, get, browse, dmpmqmsg...) when an MQI call fails.
RC_MQI_FAILED = 1

# IBM's rule for object names: up to 48 of A-Z a-z 0-9 . _ / %.
_QMGR_NAME = re.compile(r"[A-Za-z0-9._/%]{1,48}")


class CliError(click.ClickException):
    """A failure the user should see as-is: an IBM message on stderr and a return code.

    click prints ``Error: ...`` for its own exceptions; MQ commands print the bare AMQ message,
    so ``show`` is overridden.
    """

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code  # type: ignore[misc]  # click declares it a ClassVar

    def show(self, file: IO[str] | None = None) -> None:
        click.echo(self.message, err=True)


def fail(message: str, exit_code: int = 1) -> NoReturn:
    raise CliError(message, exit_code)


def check_qmgr_name(name: str) -> str:
    """Return ``name`` when IBM would accept it as a queue manager name, else fail (rc 72).

    ``/`` is an IBM name character, but ``paths.qmgr_dir`` maps the name straight onto a
    directory, so a slash would nest directories: refuse it until the layout transforms it as
    IBM does (``/`` -> ``&``). Names made only of dots would point outside ``qmgrs/``.
    """
    if not _QMGR_NAME.fullmatch(name) or set(name) == {"."}:
        fail("AMQ7048: The queue manager name is either not valid or not known.", RC_NAME_ERROR)
    if "/" in name:
        fail(
            f"AMQ7048: The queue manager name '{name}' is not supported here: '/' in names "
            "is not yet mapped to a directory name.",
            RC_NAME_ERROR,
        )
    return name


def mqi_failure(reason: int, context: str = "") -> CliError:
    """The error of a failed MQI call, as IBM's samples print it: ``MQRC_... (2085)``."""
    from mqlite.reasons import reason_name

    prefix = f"{context}: " if context else ""
    return CliError(f"{prefix}{reason_name(reason)} ({reason})", RC_MQI_FAILED)
