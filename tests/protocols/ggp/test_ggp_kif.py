"""GGP request bodies: every message form, case and whitespace, and malformed ones."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.gdl.game import load
from engine.gdl.sheets import sheet_path
from protocols.ggp import kif

TTT = sheet_path("tictactoe").read_text()


def test_info_any_case_and_spacing() -> None:
    for body in ("(info)", "( INFO )", "\n\t(Info)\r\n"):
        assert kif.parse_message(body) == kif.Info()


def test_start_fields_and_rules_load() -> None:
    body = f"(START Match.7 XPlayer ({TTT}) 30   15)"
    msg = kif.parse_message(body)
    assert isinstance(msg, kif.Start)
    assert (msg.match_id, msg.role, msg.start_clock, msg.play_clock) == (
        "match.7", "xplayer", 30, 15)
    # the rules survive the round trip: same roles and initial moves as the file
    a, b = load(msg.rules, "a"), load(TTT, "b")
    assert a.roles == b.roles == ["xplayer", "oplayer"]
    assert sorted(a.moves[0]) == sorted(b.moves[0])
    # trailing arguments after the play clock are ignored, as ggp-base players do
    extra = kif.parse_message(f"(start m r ({TTT}) 30 15 (future field) 7)")
    assert isinstance(extra, kif.Start) and (extra.start_clock, extra.play_clock) == (30, 15)


def test_play_stop_nil_and_moves() -> None:
    assert kif.parse_message("(play m1 nil)") == kif.Play("m1", None)
    assert kif.parse_message("(PLAY m1 ((Mark 1 1) NOOP))") == kif.Play(
        "m1", ("(mark 1 1)", "noop"))
    assert kif.parse_message("(stop m1 (noop (mark  3 3)))") == kif.Stop(
        "m1", ("noop", "(mark 3 3)"))
    assert kif.parse_message("(stop m1 nil)") == kif.Stop("m1", None)


def test_abort_and_preview() -> None:
    assert kif.parse_message("(abort X)") == kif.Abort("x")
    msg = kif.parse_message(f"(preview ({TTT}) 20)")
    assert isinstance(msg, kif.Preview) and msg.clock == 20


@pytest.mark.parametrize("body", [
    "", "   ", "info", "()", "(info", "(info))", "(info) (info)", "(hello)",
    "(start m r (role x) 10)", "(start m r ((role x)) 0 10)", "(start m r ((role x)) 10 -1)",
    "(start m r ((role x)) ten 10)", "(start (m) r ((role x)) 10 10)",
    "(play m)", "(play m noop)", "(play m ())", "(abort)", "(stop m nil extra)",
    "((info))", "(play m1 nil) junk",
])
def test_malformed_bodies_raise_kif_error(body: str) -> None:
    with pytest.raises(kif.KifError):
        kif.parse_message(body)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="()abc ?;\n\t19-.xyz", max_size=60))
def test_arbitrary_text_parses_or_raises_kif_error(body: str) -> None:
    try:
        msg = kif.parse_message(body)
    except kif.KifError:
        return
    assert isinstance(msg, kif.Info | kif.Play | kif.Stop | kif.Abort | kif.Start | kif.Preview)


def test_requests_written_by_the_game_master_parse_back() -> None:
    start = kif.parse_message(kif.start_text("m", "oplayer", TTT + "\n; trailing comment", 5, 3))
    assert isinstance(start, kif.Start) and start.role == "oplayer" and start.play_clock == 3
    assert kif.parse_message(kif.play_text("m", ["(mark 1 1)", "noop"])) == kif.Play(
        "m", ("(mark 1 1)", "noop"))
    assert kif.parse_message(kif.stop_text("m", None)) == kif.Stop("m", None)
    assert kif.parse_message(kif.abort_text("m")) == kif.Abort("m")
    assert kif.parse_move_reply("  ( MARK 1  2 )\n") == "(mark 1 2)"
    with pytest.raises(kif.KifError):
        kif.parse_move_reply("(mark 1 2) (mark 1 3)")
