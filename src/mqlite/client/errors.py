"""The client's exceptions, with pymqi's names and string forms.

pymqi programs catch ``pymqi.MQMIError`` and read ``.comp`` and ``.reason``; they also print
the exception, so ``str()`` keeps pymqi's exact wording.
"""

from __future__ import annotations

from typing import Any

from mqlite import cmqc
from mqlite.reasons import reason_name

__all__ = ["Error", "MQMIError", "PYIFError"]

# The reasons of PCF commands (cmqcfc.h's MQRCCF_*), which a PCFExecute call raises: named like
# the MQRC_ ones, as pymqi looks a reason up in CMQC's MQRC_ names, then in CMQCFC's MQRCCF_ names.
_COMMAND_REASONS: dict[int, str] = {}
for _name, _value in vars(cmqc).items():
    if _name.startswith("MQRCCF_") and isinstance(_value, int):
        _COMMAND_REASONS.setdefault(_value, _name)


class Error(Exception):
    """Base class of every exception the client raises (pymqi's ``pymqi.Error``)."""


class MQMIError(Error):
    """An MQI call completed with a warning or failed: IBM completion and reason codes.

    Extra keywords become attributes, as in pymqi (``message=`` and ``original_length=``
    on a truncated get).
    """

    comp: int = cmqc.MQCC_OK
    reason: int = cmqc.MQRC_NONE

    def __init__(self, comp: int, reason: int, **kw: Any) -> None:
        super().__init__(comp, reason)
        self.comp, self.reason = comp, reason
        for key, value in kw.items():
            setattr(self, key, value)

    def __str__(self) -> str:
        return f"MQI Error. Comp: {self.comp}, Reason {self.reason}: {self.errorAsString()}"

    def errorAsString(self) -> str:
        """The reason as its mnemonic, prefixed like pymqi: ``FAILED: MQRC_NO_MSG_AVAILABLE``."""
        if self.comp == cmqc.MQCC_OK:
            return "OK"
        prefix = "WARNING: " if self.comp == cmqc.MQCC_WARNING else "FAILED: "
        name = reason_name(self.reason)
        if name == f"MQRC_{self.reason}":  # reason_name's spelling of an unknown code
            name = _COMMAND_REASONS.get(self.reason, f"Error code {self.reason} not defined")
        return prefix + name

    error_as_string = errorAsString


class PYIFError(Error):
    """A misuse of the API detected by the client itself (pymqi's ``PYIFError``)."""

    def __init__(self, e: object) -> None:
        super().__init__(e)
        self.error = e

    def __str__(self) -> str:
        return f"PYMQI Error: {self.error}"
