"""Presets by board size (issue 28): ``miai gtp``'s default Go bot turns the line
and ladder priors on from 9x9 on and off on the smallest boards; an explicit
``priors=`` wins; the time plan expects longer games on larger boards."""

from __future__ import annotations

from bots.go_bot import default_priors
from engine import go
from protocols.gtp.engine import GtpEngine, GtpOptions
from protocols.gtp.timecontrol import expected_plies, plan


def bot_policy(spec: str, size: int) -> int:
    engine = GtpEngine(GtpOptions(bot_spec=spec, gfx=False))
    try:
        assert engine.handle(f"boardsize {size}") == "= \n\n"
        return engine.thinker().bot.policy  # type: ignore[attr-defined]
    finally:
        engine.close()


def test_the_default_bot_uses_line_and_ladder_priors_from_9x9() -> None:
    priors = go.PRIOR_LINES | go.PRIOR_LADDER
    assert bot_policy("go9", 7) & priors == 0
    assert bot_policy("go9", 9) & priors == priors
    assert bot_policy("go9", 13) & priors == priors
    assert bot_policy("go9", 19) & priors == priors
    assert bot_policy("go9:priors=0", 19) & priors == 0
    assert bot_policy("go9:priors=2", 9) & priors == go.PRIOR_LADDER
    assert [default_priors(n) for n in (5, 7, 9, 11, 13, 19)] == [0, 0, 3, 3, 3, 3]


def test_the_time_plan_scales_with_the_board() -> None:
    assert expected_plies(9) < expected_plies(13) < expected_plies(19)
    # The same main time gives a 19x19 move less than a 9x9 one at the same stage.
    assert plan(300, 19, 40) < plan(300, 9, 20)
