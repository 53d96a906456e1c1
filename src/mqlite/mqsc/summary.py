"""runmqsc's closing lines: pure text, shared by the executor and the CLI (which imports
nothing of the engine)."""

from __future__ import annotations


def summary(read: int, syntax_errors: int, failed: int) -> list[str]:
    """runmqsc's three closing lines."""
    first = "No MQSC commands read." if read == 0 else f"{read} MQSC commands read."
    if syntax_errors == 0:
        second = "No commands have a syntax error."
    elif syntax_errors == 1:
        second = "One command has a syntax error."
    else:
        second = f"{syntax_errors} commands have a syntax error."
    if failed == 0:
        third = "All valid MQSC commands were processed."
    elif failed == 1:
        third = "One valid MQSC command could not be processed."
    else:
        third = f"{failed} valid MQSC commands could not be processed."
    return [first, second, third]
