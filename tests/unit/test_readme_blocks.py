"""The README block extractor (tests/helpers/readme.py) that tests/integration/test_readme.py uses."""

from __future__ import annotations

import pytest

from helpers.readme import blocks, sections

PAGE = """# title

<!-- readme-test: skip, cannot run here -->

```sh
make test
```

## First

```sh
echo one
```
<!-- readme-test: expect one -->
<!-- readme-test: expect-line two -->

### Deeper

```python
print("x")
```

```
plain text
```

## Second

```sh
# a comment inside a block is no heading
echo three
```
"""


def test_blocks_sections_markers() -> None:
    found = blocks(PAGE)
    assert [(b.section, b.heading, b.language, b.line) for b in found] == [
        ("", "title", "sh", 5), ("First", "First", "sh", 11), ("First", "Deeper", "python", 19),
        ("First", "Deeper", "", 23), ("Second", "Second", "sh", 29)]
    assert found[0].skip == "cannot run here" and found[0].code == "make test\n"
    assert found[1].skip is None and found[1].expect == ["one"] and found[1].expect_lines == ["two"]
    assert found[4].code == "# a comment inside a block is no heading\necho three\n"
    assert list(sections(PAGE)) == ["", "First", "Second"]


def test_met() -> None:
    block = blocks(PAGE)[1]
    assert block.met("one\ntwo\n") and block.met("someone\n  two  \n")
    assert not block.met("one\ntwo three\n") and not block.met("two\n")


@pytest.mark.parametrize("page", [
    "<!-- readme-test: skip, why -->\ntext\n```sh\nx\n```\n",  # a skip must come right before
    "text\n<!-- readme-test: expect x -->\n",  # an expect follows a block
    "```sh\nx\n```\n<!-- readme-test: skip, no -->\n",  # only expects after a block
    "```sh\nnever closed\n",
])
def test_misplaced_markers_fail(page: str) -> None:
    with pytest.raises(ValueError):
        blocks(page)
