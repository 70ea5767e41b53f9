"""The one spec grammar (engine/spec.py): game specs and bot specs through one parser.

The parser is checked against an independent statement of the grammar: one regular
expression for the whole text, plus the rule that a key is given once.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bots.spec import BotSpec
from bots.spec import parse_spec as parse_bot_spec
from engine import games
from engine.errors import InvalidArgumentError, ParseError
from engine.games import GameSpec
from engine.spec import Spec, parse_spec

KINDS = (Spec, BotSpec, GameSpec)

# The grammar written out once more, independently of the parser.
_ID = r"[A-Za-z_][A-Za-z0-9_.\-]*"
_VAL = r"[A-Za-z0-9_.+\-]+"
_PARAM = rf" *({_ID}) *= *({_VAL}) *"
_WHOLE = re.compile(rf" *({_ID}) *(?::({_PARAM}(?:,{_PARAM})*))?")


def _by_the_grammar(text: str) -> tuple[str, dict[str, str]] | None:
    """(name, params) when ``text`` is a valid spec, else None."""
    m = _WHOLE.fullmatch(text)
    if m is None:
        return None
    pairs = []
    if m.group(2) is not None:
        for part in m.group(2).split(","):
            key, value = re.fullmatch(_PARAM, part).groups()  # type: ignore[union-attr]
            pairs.append((key, value))
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        return None
    return m.group(1), dict(pairs)


@pytest.mark.parametrize(
    ("text", "name", "params"),
    [
        ("random", "random", {}),
        ("tictactoe", "tictactoe", {}),
        ("hex:size=7", "hex", {"size": "7"}),
        ("go:size=9,komi=7.5,policy=7", "go", {"size": "9", "komi": "7.5", "policy": "7"}),
        (" go : size = 9 , komi=7 ", "go", {"size": "9", "komi": "7"}),
        ("uct:c=0.5,iterations=2000", "uct", {"c": "0.5", "iterations": "2000"}),
        ("uctstar:p=0.5,s=inf", "uctstar", {"p": "0.5", "s": "inf"}),
        ("uct:final=mean,c=-1e-3", "uct", {"final": "mean", "c": "-1e-3"}),
        ("my-bot.v2:mode=tree", "my-bot.v2", {"mode": "tree"}),
        ("_x:a.b=+1", "_x", {"a.b": "+1"}),
    ],
)
def test_accepted_forms_mean_the_same_to_every_kind_of_spec(
    text: str, name: str, params: dict[str, str]
) -> None:
    for kind in KINDS:
        spec = kind.parse(text)
        assert type(spec) is kind
        assert (spec.name, dict(spec.params)) == (name, params)
        assert kind.parse(spec.text) == spec
    assert _by_the_grammar(text) == (name, params)


@pytest.mark.parametrize(
    ("text", "bad_part"),
    [
        ("", "missing the name"),
        ("   ", "missing the name"),
        (":size=7", "missing the name"),
        ("hex:", "nothing after ':'"),
        ("hex:size", "'size' is not key=value"),
        ("hex:size=", "bad value ''"),
        ("hex:=7", "bad parameter name ''"),
        ("go:size=9,", "empty parameter"),
        ("go:,size=9", "empty parameter"),
        ("go:size=9,,komi=7", "empty parameter"),
        ("go:size=9,size=13", "size is given twice"),
        ("1hex", "bad name '1hex'"),
        ("he x", "bad name 'he x'"),
        ("hex:si ze=7", "bad parameter name 'si ze'"),
        ("uct:c=a b", "bad value 'a b'"),
        ("uct:c=1;d=2", "bad value '1;d=2'"),
        ("uct:c=1=2", "bad value '1=2'"),
        ("uct:c=∞", "bad value '∞'"),
    ],
)
def test_refused_forms_name_the_spec_and_the_bad_part(text: str, bad_part: str) -> None:
    for kind in KINDS:
        with pytest.raises(ParseError) as info:
            kind.parse(text)
        message = str(info.value)
        assert message.startswith(f"{kind.kind} {text!r}: ")
        assert bad_part in message
    assert _by_the_grammar(text) is None


def test_a_spec_is_text() -> None:
    for kind in KINDS:
        with pytest.raises(ParseError, match=kind.kind):
            kind.parse(3)  # type: ignore[arg-type]


def test_the_kinds_only_name_themselves() -> None:
    assert BotSpec.kind == "bot spec" and GameSpec.kind == "game spec"
    assert parse_bot_spec("uct:c=1") == BotSpec("uct", {"c": "1"})
    assert parse_spec("uct:c=1") == Spec("uct", {"c": "1"})


# Text from the grammar's own characters and a few it refuses, so that most draws
# are near the border between specs and non-specs.
_NEAR_SPECS = st.text(alphabet="ab1_.-+:=, ;", max_size=14)


@given(text=_NEAR_SPECS)
def test_the_parser_accepts_exactly_the_grammar(text: str) -> None:
    expected = _by_the_grammar(text)
    for kind in (BotSpec, GameSpec):
        if expected is None:
            with pytest.raises(ParseError) as info:
                kind.parse(text)
            assert repr(text) in str(info.value)
        else:
            spec = kind.parse(text)
            assert (spec.name, dict(spec.params)) == expected


_NAME = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.\-]{0,6}", fullmatch=True)
_VALUE = st.one_of(
    st.from_regex(r"[A-Za-z0-9_.+\-]{1,8}", fullmatch=True),
    st.integers(-(2**64), 2**64).map(str),
    st.floats(allow_nan=False, allow_infinity=True).map(repr),
)


@given(name=_NAME, params=st.dictionaries(_NAME, _VALUE, max_size=5),
       kind=st.sampled_from(KINDS))
def test_text_round_trips(name: str, params: dict[str, str], kind: type[Spec]) -> None:
    spec = kind(name, params)
    assert kind.parse(spec.text) == spec
    spaced = " " + spec.text.replace(",", " , ").replace("=", " = ").replace(":", " : ")
    assert kind.parse(spaced) == spec


def test_game_specs_go_through_the_spec_parser() -> None:
    assert games.create_from_spec(" hex : size = 5 ").spec == "hex:size=5"
    game = games.create_from_spec(GameSpec("go", {"size": "9", "komi": "7.5"}))
    assert game.params["size"] == 9 and game.params["komi"] == 7.5
    assert GameSpec.parse(game.spec) == GameSpec(
        "go", {"size": "9", "komi": "7.5", "policy": "0"})


# Game specs the old lenient parser of engine/games.py accepted and the one grammar
# refuses (none of them appears in the docs, tests, README or scripts).  Values with
# underscores or non-ASCII digits, which Python's float() and int() read, are refused
# by engine.values for game, bot and algorithm parameters alike.
_REFUSED_NOW = [
    ("hex:", ParseError, "nothing after ':'"),
    ("go:size=9,", ParseError, "empty parameter"),
    ("go:,size=9", ParseError, "empty parameter"),
    ("go:size=9,,komi=7", ParseError, "empty parameter"),
    ("go:size=9,size=13", ParseError, "size is given twice"),
    ("hex:size=1_1", InvalidArgumentError, "size=1_1 is not a whole number"),
]


@pytest.mark.parametrize(("text", "error", "part"), _REFUSED_NOW)
def test_game_specs_the_lenient_parser_took_are_refused(
    text: str, error: type[Exception], part: str
) -> None:
    with pytest.raises(error) as info:
        games.create_from_spec(text)
    assert str(info.value).startswith("game spec ")
    assert part in str(info.value)


def test_game_parameter_errors_name_the_spec_and_the_value() -> None:
    cases = {
        "hex:size=big": "game spec 'hex:size=big': size=big is not a whole number",
        "hex:size=7.5": "game spec 'hex:size=7.5': size=7.5 is not a whole number",
        "hex:size=99": "game spec 'hex:size=99': size=99 is outside [",
        "hex:colour=1": "game spec 'hex:colour=1': hex has no parameter 'colour'",
        "nope": "game spec 'nope': unknown game 'nope'",
    }
    for text, start in cases.items():
        with pytest.raises(InvalidArgumentError) as info:
            games.create_from_spec(text)
        assert str(info.value).startswith(start)
    with pytest.raises(InvalidArgumentError, match=r"^game 'hex': size=True is not a whole"):
        games.create("hex", size=True)
    with pytest.raises(InvalidArgumentError, match=r"^game 'go': komi=True is not a number"):
        games.create("go", komi=True)


def test_bot_spec_values_use_the_one_converter() -> None:
    spec = parse_bot_spec("x:n=1e3,seed=18446744073709551615,u=1_000,w=Tree")
    assert spec.get_int("n") == 1000
    assert spec.get_int("seed", maximum=2**64 - 1) == 2**64 - 1
    assert spec.get_choice("w", ("dag", "tree"), "dag") == "tree"
    with pytest.raises(InvalidArgumentError) as info:
        spec.get_int("u")
    assert str(info.value) == f"bot spec {spec.text!r}: u=1_000 is not a whole number"
    with pytest.raises(InvalidArgumentError) as info:
        spec.get_float("n", maximum=10.0)
    assert str(info.value) == f"bot spec {spec.text!r}: n=1e3 is outside [-inf, 10]"
