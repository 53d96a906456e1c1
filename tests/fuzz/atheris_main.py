"""Coverage-guided fuzzing of one target with atheris (libFuzzer): ``python atheris_main.py
TARGET [libFuzzer options] [corpus dirs]``. The targets are ``fuzz_targets.BYTE_TARGETS``; a
Python exception or a hang (``-timeout``) is a crash, written to ``-artifact_prefix``.
``--write-seeds DIR`` writes the target's seed inputs into DIR and exits."""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

with atheris.instrument_imports(include=["mqlite"]):
    import fuzz_targets


def main() -> None:
    name, rest = sys.argv[1], sys.argv[2:]
    if rest[:1] == ["--write-seeds"]:
        folder = Path(rest[1])
        folder.mkdir(parents=True, exist_ok=True)
        for i, seed in enumerate(fuzz_targets.seeds()[name]):
            (folder / f"seed-{i}").write_bytes(seed)
        return
    target = fuzz_targets.BYTE_TARGETS[name]
    atheris.Setup([sys.argv[0], *rest], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
