"""The MQMD's wire list: every field of MessageDescriptor, in MD_FIELDS order (to_list spells
them out for the compiled build; a field added to one and not the other fails here)."""

from __future__ import annotations

import dataclasses

from mqlite.message import MD_FIELDS, MessageDescriptor


def test_to_list_is_every_field_in_md_fields_order() -> None:
    assert tuple(f.name for f in dataclasses.fields(MessageDescriptor)) == MD_FIELDS
    values = {name: (bytes([i]) * len(getattr(MessageDescriptor(), name))
                     if isinstance(getattr(MessageDescriptor(), name), bytes) else
                     f"v{i}" if isinstance(getattr(MessageDescriptor(), name), str) else i)
              for i, name in enumerate(MD_FIELDS)}
    md = MessageDescriptor(**values)
    assert md.to_list() == [values[name] for name in MD_FIELDS]
    assert MessageDescriptor.from_list(md.to_list()) == md
    assert md.copy() == md and md.copy() is not md


def test_the_written_out_init_keeps_the_fields_defaults() -> None:
    """``__init__`` is written out (compiled, the generated one would run as Python), so its
    defaults are a second copy of the fields': IBM's MQMD_DEFAULT, held equal here."""
    made = MessageDescriptor()
    assert {f.name: getattr(made, f.name) for f in dataclasses.fields(MessageDescriptor)} == \
        {f.name: f.default for f in dataclasses.fields(MessageDescriptor)}
