"""The subscription descriptor and output strings on the client side (spec C §3.2, R-PUB-5, R-PROP-8)."""

from __future__ import annotations

from mqlite import cmqc as C
from mqlite.client.structs import OD, SD, sd_fill, sd_to_wire

OUT = {"ResObjectString": "NYSE/IBM/PRICE", "SubCorrelId": b"c" * 24, "SubName": "X",
       "SelectionString": "Colour = 'Red'", "SubExpiry": 600, "SubLevel": 1}


def test_defaults_are_ibms() -> None:
    sd = SD()
    assert (sd.PubPriority, sd.SubLevel, sd.SubExpiry) == (C.MQPRI_PRIORITY_AS_PUBLISHED, 1, C.MQEI_UNLIMITED)


def test_subname_not_initialised_is_none_on_the_wire() -> None:  # C:SC-SUB-05
    assert sd_to_wire(SD())["SubName"] is None
    sd = SD()
    sd.set_vs("SubName", "")
    assert sd_to_wire(sd)["SubName"] == ""


def test_res_object_string_is_cut_to_the_buffer_with_the_full_length() -> None:  # C:SC-PUB-04
    od = OD()
    od.ResObjectStringVSBufSize = 5
    od.fill_vs("ResObjectString", "NYSE/IBM/PRICE")
    assert (od.get_vs("ResObjectString"), od.ResObjectStringVSLength) == ("NYSE/", 14)
    whole = OD()
    whole.fill_vs("ResObjectString", "NYSE/IBM/PRICE")
    assert whole.get_vs("ResObjectString") == "NYSE/IBM/PRICE"


def test_selection_string_on_resume_needs_a_big_enough_buffer() -> None:  # C:SC-PROP-08
    small = SD(Options=C.MQSO_RESUME)
    small.set_vs("SelectionString", "", vs_buffer_size=5)
    sd_fill(small, OUT)
    assert (small.get_vs("SelectionString"), small.SelectionStringVSLength) == ("", 14)
    large = SD(Options=C.MQSO_RESUME)
    large.set_vs("SelectionString", "", vs_buffer_size=64)
    sd_fill(large, OUT)
    assert large.get_vs("SelectionString") == "Colour = 'Red'"
    assert (large.SubCorrelId, large.SubExpiry) == (b"c" * 24, 600)
