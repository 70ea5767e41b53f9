"""End to end over loopback HTTP: the local game master runs full matches between our
player and random players; every recorded move is replayed on the reference prover
(an implementation independent of the propnet both sides use), must be legal there,
must have come within the play clock, and the prover's goals must match the record.
"""

from __future__ import annotations

import asyncio
import json
import logging

import aiohttp
import pytest

from bots import make_bot
from bots.thinker import Thinker
from engine.gdl.game import load
from engine.gdl.prover_game import ProverGame
from engine.search import UCD, UCT
from protocols.ggp import kif
from protocols.ggp.gamemaster import MatchRecord
from protocols.ggp.local import run_series
from protocols.ggp.player import GgpPlayer, PlayerConfig
from tests.helpers.ggp import post, rules, served

PLAY_CLOCK = 2
GAMES = [
    ("tictactoe", 2, "alternating"),
    ("connectFour", 2, "alternating"),
    ("3pConnectFour", 3, "three players"),
    ("roshambo2", 2, "simultaneous"),
    ("ticTacToeParallel", 2, "simultaneous"),
    ("buttons", 1, "puzzle"),
    ("maze", 1, "puzzle"),
]


def play(name: str, matches: int = 1, bot: str = "uct:c=0.4", tmp: object = None
         ) -> list[MatchRecord]:
    return asyncio.run(run_series(name, rules(name), [], matches=matches, start_clock=10,
                                  play_clock=PLAY_CLOCK, grace=0.0, bot=bot, seed=3,
                                  max_think=0.1, out=tmp))  # type: ignore[arg-type]


def check_with_prover(name: str, record: MatchRecord) -> None:
    game = ProverGame(rules(name))
    assert record.roles == game.roles
    state = game.initial_state()
    for joint in record.moves:
        assert not state.is_terminal()
        for r, m in enumerate(joint):
            assert not m.replaced and m.seconds <= PLAY_CLOCK
            assert m.move in state.rule_moves(r), (m.role, m.move)
        state.play_joint([m.move for m in joint])
    assert state.is_terminal()
    assert record.goals == [round(100 * v) for v in state.rewards()]
    assert record.errors == []


@pytest.mark.parametrize(("name", "n_roles", "kind"), GAMES)
def test_full_match_legal_and_on_time(name: str, n_roles: int, kind: str, tmp_path) -> None:
    (record,) = play(name, tmp=tmp_path)
    assert len(record.roles) == n_roles, kind
    check_with_prover(name, record)
    saved = json.loads((tmp_path / f"{record.match_id}.json").read_text())
    assert saved["goals"] == record.goals and len(saved["moves"]) == len(record.moves)


def test_series_rotates_seats_and_search_beats_random_at_tictactoe() -> None:
    records = play("tictactoe", matches=2)
    assert records[0].players == records[1].players[::-1]
    ours_url = records[0].players[0]  # our player takes the first free seat
    for rec in records:
        check_with_prover("tictactoe", rec)
        ours = rec.players.index(ours_url)
        assert rec.goals[ours] >= 50  # UCT never loses tic-tac-toe to random play here


@pytest.mark.parametrize(("bot", "game"), [("mc", "tictactoe"), ("random", "tictactoe"),
                                           ("ggp-ucd", "tictactoe"), ("ggp-ucd", "maze"),
                                           ("mc", "roshambo2")])
def test_other_bots_play_legal_matches(bot: str, game: str) -> None:
    (record,) = play(game, bot=bot)
    check_with_prover(game, record)


def test_game_master_replaces_illegal_and_missing_moves() -> None:
    """A player that is not there at all: every move of its role is replaced by a
    random legal one, recorded as an error, and the match still ends properly."""
    record = asyncio.run(run_series("tictactoe", rules("tictactoe"), ["http://127.0.0.1:9/"],
                                    matches=1, start_clock=2, play_clock=1, grace=0.0,
                                    max_think=0.05))[0]
    assert all(joint[0].replaced for joint in record.moves)
    assert not any(joint[1].replaced for joint in record.moves)
    assert any("start xplayer" in e for e in record.errors)
    state = ProverGame(rules("tictactoe")).initial_state()
    for joint in record.moves:
        state.play_joint([m.move for m in joint])
    assert state.is_terminal()


def test_ggp_ucd_plays_a_three_player_game_with_ucd_itself(caplog: pytest.LogCaptureFixture
                                                           ) -> None:
    """UCD takes games with more than two roles (every role's payoffs kept): the player
    searches 3pConnectFour with UCD, no fallback to UCT."""
    with caplog.at_level(logging.WARNING):
        (record,) = play("3pConnectFour", bot="ggp-ucd")
    check_with_prover("3pConnectFour", record)
    assert not [r for r in caplog.records if "does not take" in r.getMessage()]


def test_ggp_ucd_preset_is_the_papers_ucd() -> None:
    """``ggp-ucd`` is UCD with the UCD paper's GGP setting (section 4.4): c = 40 on
    the 0..100 goal scale, i.e. 0.4 on rewards 0..1, and (d1, d2, d3) = (2, 1, 2)."""
    game = load(rules("tictactoe"), "ttt")
    player = GgpPlayer(PlayerConfig(bot="ggp-ucd"))
    try:
        algorithm = make_bot(player.spec, game).algorithm  # type: ignore[attr-defined]
        assert type(algorithm) is UCD
        assert (algorithm.c, algorithm.d1, algorithm.d2, algorithm.d3) == (0.4, 2, 1, 2)
        assert algorithm == UCD(c=0.4, d1=2, d2=1, d3=2)  # every other field the default
    finally:
        player.close()
    default = GgpPlayer(PlayerConfig())
    try:
        assert make_bot(default.spec, game).algorithm == UCT(c=0.4)  # type: ignore[attr-defined]
    finally:
        default.close()


def test_ggp_ucd_searches_a_three_player_game_with_ucd() -> None:
    """Over HTTP, our ggp-ucd player's search on 3pConnectFour runs UCD with the
    preset's parameters (no fallback to UCT), and its moves come from that search."""
    text = rules("3pConnectFour")
    oracle = ProverGame(text)

    async def main() -> None:
        config = PlayerConfig(bot="ggp-ucd", max_think=0.2, margin=0.3,
                              choice_seconds=0)  # the net plays, measured or not
        async with served(config) as (url, player), aiohttp.ClientSession() as s:
            reply = await post(s, url, kif.start_text("u", "red", text, 10, 2))
            assert reply[1] == "ready"
            state = oracle.initial_state()
            last: list[str] | None = None
            for _ in range(4):  # red, yellow, blue move in turn; red again at the end
                move = kif.parse_move_reply((await post(s, url, kif.play_text("u", last)))[1])
                assert move in state.rule_moves(0)
                last = [move] + [sorted(state.rule_moves(r))[0] for r in (1, 2)]
                state.play_joint(last)
            assert player.match is not None
            thinker = player.match.thinker
            assert isinstance(thinker, Thinker) and thinker.searching
            assert thinker.bot.algorithm == UCD(c=0.4, d1=2, d2=1, d3=2)  # type: ignore[attr-defined]
            assert thinker.iterations() > 0
            # the report of the algorithm the C search was configured with
            report = thinker.report()
            assert report is not None
            assert report.extra["ucd"]["depths"] == [2, 1, 2]  # type: ignore[attr-defined]
            assert player.match.moves_by["propnet-search"] >= 1
            assert (await post(s, url, "(abort u)"))[1] == "aborted"

    asyncio.run(main())
