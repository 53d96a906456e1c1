"""The README's code blocks, as tests/integration/test_readme.py runs them.

``blocks(text)`` returns every fenced block of ``text`` (Markdown) with the section it is in
(its ``##`` heading: blocks under one ``##`` and its ``###`` subsections share a queue manager home
and run in order), its language (the word after the opening fence), the line it starts on, and
what the HTML comments right around it say to the test:

- ``<!-- readme-test: skip, REASON -->`` on the line just before the opening fence (blank lines
  between are allowed): the block is not run, and REASON says why (only where running is
  impossible, such as ``make test`` itself);
- ``<!-- readme-test: expect TEXT -->`` on the lines just after the closing fence (one a line):
  TEXT must appear in what the block (and any process it started in the background) writes;
  ``<!-- readme-test: expect-line TEXT -->``: a whole line of it must be TEXT.

Comments are invisible on GitHub; the markers are for the test only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_FENCE = re.compile(r"^```\s*([A-Za-z0-9_+-]*)\s*$")
_MARKER = re.compile(r"^<!--\s*readme-test:\s*(skip|expect-line|expect)(?![\w-])[,:]?\s*(.*?)\s*-->\s*$")


@dataclass
class Block:
    """One fenced code block of the README."""

    section: str  # the ``##`` heading above it ("" before the first one)
    heading: str  # the nearest heading of any level above it
    language: str
    code: str
    line: int  # where its opening fence is, counting from 1
    skip: str | None = None  # the reason given by a skip marker
    expect: list[str] = field(default_factory=list)  # texts its output must contain
    expect_lines: list[str] = field(default_factory=list)  # lines its output must have

    def met(self, output: str) -> bool:
        """Whether ``output`` has everything the block's expect markers name."""
        lines = {line.strip() for line in output.splitlines()}
        return all(t in output for t in self.expect) and all(t in lines for t in self.expect_lines)


def blocks(text: str) -> list[Block]:
    """Every fenced block of ``text``, in order."""
    lines = text.splitlines()
    found: list[Block] = []
    section = heading = ""
    pending_skip: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        marker = _MARKER.match(line.strip())
        fence = _FENCE.match(line)
        if marker and marker.group(1) == "skip":
            pending_skip = marker.group(2) or "no reason given"
        elif marker:
            raise ValueError(f"line {i + 1}: an expect marker that follows no block")
        elif fence:
            start = i
            i += 1
            body: list[str] = []
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise ValueError(f"line {start + 1}: a code block that is never closed")
            block = Block(section, heading, fence.group(1).lower(), "\n".join(body) + "\n", start + 1,
                          pending_skip)
            pending_skip = None
            while i + 1 < len(lines):
                after = _MARKER.match(lines[i + 1].strip())
                if not after:
                    break
                if after.group(1) == "skip" or not after.group(2):
                    raise ValueError(f"line {i + 2}: only expect markers may follow a block")
                (block.expect if after.group(1) == "expect" else block.expect_lines).append(after.group(2))
                i += 1
            found.append(block)
        elif line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            title = line[level:].strip()
            if level <= 2:
                section = title if level == 2 else ""
            heading = title
            pending_skip = None
        elif line.strip() and pending_skip is not None:
            raise ValueError(f"line {i + 1}: a skip marker must come just before a code block")
        i += 1
    return found


def sections(text: str) -> dict[str, list[Block]]:
    """The blocks of each ``##`` section, in order, keyed by its heading ("" for the top)."""
    grouped: dict[str, list[Block]] = {}
    for block in blocks(text):
        grouped.setdefault(block.section, []).append(block)
    return grouped
