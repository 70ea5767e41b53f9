"""Presets by board size (issue 28): ``miai gtp``'s default Go bot uses the learned
move model on 9x9 (the board it was fitted on, with 10 prior visits), the line and
ladder priors on larger boards (20 visits) and none on the smallest; an explicit
``priors=`` or ``prior=`` wins; the time plan expects longer games on larger boards."""

from __future__ import annotations

from bots.go_bot import default_priors
from bots.registry import make_bot
from engine import games, go
from protocols.gtp.engine import GtpEngine, GtpOptions
from protocols.gtp.timecontrol import expected_plies, plan


def bot_policy(spec: str, size: int) -> int:
    engine = GtpEngine(GtpOptions(bot_spec=spec, gfx=False))
    try:
        assert engine.handle(f"boardsize {size}") == "= \n\n"
        return engine.thinker().bot.policy  # type: ignore[attr-defined]
    finally:
        engine.close()


def test_the_default_bot_uses_the_model_on_9x9_and_the_rules_above() -> None:
    rules = go.PRIOR_LINES | go.PRIOR_LADDER
    assert bot_policy("go9", 7) & (rules | go.PRIOR_MODEL) == 0
    assert bot_policy("go9", 9) & (rules | go.PRIOR_MODEL) == go.PRIOR_MODEL
    assert bot_policy("go9", 13) & (rules | go.PRIOR_MODEL) == rules
    assert bot_policy("go9", 19) & (rules | go.PRIOR_MODEL) == rules
    assert bot_policy("go9:priors=0", 19) & rules == 0
    assert bot_policy("go9:priors=2", 9) & (rules | go.PRIOR_MODEL) == go.PRIOR_LADDER
    assert [default_priors(n) for n in (5, 7, 9, 11, 13, 19)] == [0, 0, 4, 3, 3, 3]


def test_the_prior_visits_follow_the_priors() -> None:
    for spec, size, want in (("go9", 9, 10.0), ("go9", 13, 20.0), ("go9:priors=3", 9, 20.0),
                             ("go9:prior=30", 9, 30.0)):
        game = games.create("go", size=size, komi=7)
        bot = make_bot(spec + (",iterations=1" if ":" in spec else ":iterations=1"), game)
        bot.choose(game.initial_state())
        assert bot.search.algorithm.prior == want, spec  # type: ignore[attr-defined]


def test_the_time_plan_scales_with_the_board() -> None:
    assert expected_plies(9) < expected_plies(13) < expected_plies(19)
    # The same main time gives a 19x19 move less than a 9x9 one at the same stage.
    assert plan(300, 19, 40) < plan(300, 9, 20)
