"""GTP framing and clocks, checked against the GTP 2 specification's rules."""

from __future__ import annotations

import pytest

from engine.errors import InvalidArgumentError
from protocols.gtp import framing
from protocols.gtp.timecontrol import TimeControl


def test_preprocessing_removes_comments_controls_and_tabs() -> None:
    assert framing.preprocess("play\tb D4  # a comment") == "play b D4"
    assert framing.preprocess("\x01pl\x02ay b\x7f D4\r") == "play b D4"
    assert framing.parse("   ") is None
    assert framing.parse("# only a comment") is None


def test_ids_are_parsed_and_echoed() -> None:
    cmd = framing.parse("42 genmove w")
    assert cmd == framing.Command("42", "genmove", ("w",))
    assert framing.success("42", "D4") == "=42 D4\n\n"
    assert framing.failure("42", "illegal move") == "?42 illegal move\n\n"
    assert framing.success("", "") == "= \n\n"
    assert framing.failure("", "") == "? failed\n\n"


def test_multiline_responses_end_with_one_blank_line() -> None:
    text = framing.success("7", "\nrow 1\nrow 2\n")
    assert text == "=7 \nrow 1\nrow 2\n\n"
    assert framing.success("", "a\nb") == "= a\nb\n\n"


def test_gtp_time_settings_systems() -> None:
    t = TimeControl()
    t.set_gtp(300, 0, 0)
    assert t.system == "absolute"
    t.set_gtp(0, 10, 0)
    assert t.system == "none" and t.budget("B", 9, 20) is None
    t.set_gtp(60, 30, 5)
    assert t.system == "canadian"
    with pytest.raises(InvalidArgumentError):
        t.set_gtp(-1, 0, 0)


def test_budget_never_exceeds_the_clock() -> None:
    t = TimeControl(margin=0.25)
    for main, left, ply in [(60, 60, 0), (60, 1.0, 40), (60, 0.3, 200), (60, 0.1, 5)]:
        t.set_gtp(main, 0, 0)
        t.time_left("B", left, 0)
        for size in (9, 13, 19):
            budget = t.budget("B", size, ply)
            assert budget is not None and 0 <= budget <= left - min(0.25, 0.1 * left)
    t.set_gtp(0, 10, 5)
    t.time_left("W", 4.0, 2)  # canadian overtime: 2 stones in 4 s
    budget = t.budget("W", 19, 100)
    assert budget is not None and budget <= 2.0
    t.set_kgs("byoyomi", ["0", "5", "3"])
    t.time_left("B", 5.0, 3)  # in a 5 s period
    budget = t.budget("B", 19, 100)
    assert budget is not None and budget < 5.0 - 0.25


def test_kgs_time_settings_validation() -> None:
    t = TimeControl()
    t.set_kgs("absolute", ["120"])
    assert t.system == "absolute" and t.main == 120
    t.set_kgs("canadian", ["60", "30", "10"])
    assert (t.system, t.byo_stones) == ("canadian", 10)
    for system, args in [("bogus", []), ("byoyomi", ["1"]), ("canadian", ["1", "2", "x"]),
                         ("absolute", ["nan"]), ("byoyomi", ["10", "5", "1.5"])]:
        with pytest.raises(InvalidArgumentError):
            t.set_kgs(system, args)
