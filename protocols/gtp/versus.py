"""One game of a miai bot against an external GTP engine (GNU Go by default) on Go,
scored by the engine's ``final_score`` and by miai's GTP scorer.  Used by
scripts/match_gnugo.py and the tests."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from bots.gtp_bot import GtpBot
from bots.match import play_game
from bots.registry import make_bot
from engine import games
from protocols.gtp import scoring
from protocols.gtp.session import GoSession


@dataclass
class Outcome:
    miai_black: bool
    miai_won: bool
    gnugo_score: str
    miai_score: str
    plies: int
    seconds: float


def score_text(margin: float) -> str:
    if margin == 0:
        return "0"
    return f"{'B' if margin > 0 else 'W'}+{abs(margin):.1f}"


def winner_of(score: str) -> str:
    return score[0] if score and score[0] in "BW" else "0"


def play_one(bot_spec: str, gnugo_cmd: str, size: int, komi: float, index: int,
             sgf_dir: Path | None) -> Outcome:
    game = games.create("go", size=size, komi=komi)
    miai = make_bot(bot_spec, game, seed=index)
    gnugo = GtpBot(f"{gnugo_cmd} --seed {index + 1}", game)
    miai_black = index % 2 == 0
    players = [miai, gnugo] if miai_black else [gnugo, miai]
    t0 = time.perf_counter()
    try:
        record = play_game(game, players)
        assert gnugo.client is not None
        gnugo_score = gnugo.client.send("final_score")
    finally:
        gnugo.close()
        miai.close()
    session = GoSession(size=size, komi=komi)
    state = game.initial_state()
    for ply in record.plies:
        for text in ply.moves:  # the record keeps moves as text
            move = state.parse_move(text)
            session.play(state.to_move, move)
            state.play(move)
    ours = score_text(scoring.final_margin(session))
    if gnugo.resigned:  # GNU Go resigned: miai won whatever the board says
        gnugo_score = ("B" if not miai_black else "W") + "+R"
    if sgf_dir is not None:
        from protocols.gtp import sgf

        sgf_dir.mkdir(parents=True, exist_ok=True)
        (sgf_dir / f"game{index:04d}.sgf").write_text(sgf.dump(session))
    won_colour = winner_of(gnugo_score)
    return Outcome(miai_black, won_colour == ("B" if miai_black else "W"), gnugo_score, ours,
                   len(record.plies), time.perf_counter() - t0)
