"""Seeded Go playouts stay bit-identical: same seed, same moves, same results.

The digests below were computed from the build of commit a92cf16 (before the heavy
policy's speed work of issue #7), so a speed-up of csrc/games/go_policy.c or
go_board.c that changes any move of any seeded playout fails here; the Go strength
results recorded with that build stay valid only while these pass.

Each digest covers, for one board size and playout policy mask, every position of a
fixed list (the empty board and mid-game positions reached by seeded random legal
moves, captures and kos included): the move sequences of seeded ``go.playout_trace``
playouts and the mean rewards and ply count of a seeded ``playout_run``.
``MIAI_FULL=1`` checks a larger set (also pinned).  Run this file as a script to print
the digests of the current build."""

from __future__ import annotations

import hashlib
import os
import random

import pytest

from engine import games, go
from engine.games import State
from engine.playouts import playout_run

FULL = os.environ.get("MIAI_FULL") == "1"

# (size, masks, positions, traces per position, playouts per playout_run)
Config = tuple[int, tuple[int, ...], int, int, int]
ALL_MASKS = tuple(range(16))
QUICK: list[Config] = [
    (9, (7,), 40, 25, 200),
    (5, ALL_MASKS, 6, 10, 30),
    (9, ALL_MASKS, 6, 6, 30),
    (13, (0, 7, 15), 3, 4, 10),
    (19, (0, 7, 15), 2, 3, 5),
]
LARGE: list[Config] = [
    (9, (7,), 200, 50, 500),
    (5, (7,), 60, 100, 300),
    (7, (7,), 60, 60, 300),
    (13, (7,), 40, 30, 100),
    (19, (7,), 20, 15, 40),
    (5, ALL_MASKS, 8, 30, 50),
    (7, ALL_MASKS, 6, 20, 30),
    (9, ALL_MASKS, 8, 20, 30),
    (13, ALL_MASKS, 4, 10, 10),
    (19, ALL_MASKS, 3, 5, 5),
]

# Computed from the build of commit a92cf16 (the original heavy policy).
PINNED_QUICK = {
    "9x9 policy=7 40x25": "eea13b2426775f6e4295",
    "5x5 policy=0 6x10": "2cff8e86ba5da3db9ea1",
    "5x5 policy=1 6x10": "10dc7b7df1792f686335",
    "5x5 policy=2 6x10": "ef1e8f38ddc9d7eedc0f",
    "5x5 policy=3 6x10": "071837a450611e564067",
    "5x5 policy=4 6x10": "1cb652892ceb6354a08f",
    "5x5 policy=5 6x10": "fc457b075eec6bc54b02",
    "5x5 policy=6 6x10": "a73ee27e26ded22b8be9",
    "5x5 policy=7 6x10": "dbdc42fa2cc2280ca807",
    "5x5 policy=8 6x10": "a7bbc9756b4d3d66a5b0",
    "5x5 policy=9 6x10": "286793b79fd76573af0b",
    "5x5 policy=10 6x10": "2445711502b7091404cc",
    "5x5 policy=11 6x10": "2556c633728ed71b8b30",
    "5x5 policy=12 6x10": "d5968b90a57cf06b0688",
    "5x5 policy=13 6x10": "6c9b1d72d2d389abae10",
    "5x5 policy=14 6x10": "a937424062173deb998e",
    "5x5 policy=15 6x10": "371d2b78ba3792ee706e",
    "9x9 policy=0 6x6": "406f0dfe900321c56c71",
    "9x9 policy=1 6x6": "b275466f393db8071885",
    "9x9 policy=2 6x6": "223451fa6e3afca4d536",
    "9x9 policy=3 6x6": "809483a5a82c5103b849",
    "9x9 policy=4 6x6": "0216440b65a55d89c110",
    "9x9 policy=5 6x6": "22671358fa25a67253ed",
    "9x9 policy=6 6x6": "492b3b3309319a5cfb90",
    "9x9 policy=7 6x6": "dc4386cbe2e4928013dc",
    "9x9 policy=8 6x6": "e247e0a3db560e47defb",
    "9x9 policy=9 6x6": "3ece42e54c9590026ebb",
    "9x9 policy=10 6x6": "de929b761ca980365f2b",
    "9x9 policy=11 6x6": "6dd9a6c145ad6d40e5ec",
    "9x9 policy=12 6x6": "688802e67ec7ab3b8303",
    "9x9 policy=13 6x6": "9c1f1f4716c6d46aab55",
    "9x9 policy=14 6x6": "9b111894e6f25ee0cd40",
    "9x9 policy=15 6x6": "904d833030d3448ec4d0",
    "13x13 policy=0 3x4": "0902ecb4939c8808b1f1",
    "13x13 policy=7 3x4": "4154f249808034b0525b",
    "13x13 policy=15 3x4": "48141fe1883949ec195c",
    "19x19 policy=0 2x3": "305af47f3373c4cb26ff",
    "19x19 policy=7 2x3": "a81a2249171830ef9164",
    "19x19 policy=15 2x3": "242d18536414b76e6ff2",
}
PINNED_LARGE = {
    "9x9 policy=7 200x50": "d8165111854bb32a4a1a",
    "5x5 policy=7 60x100": "87a85efddf824395c722",
    "7x7 policy=7 60x60": "ed0fc7a5483146966b7a",
    "13x13 policy=7 40x30": "ca649e01987dae8da232",
    "19x19 policy=7 20x15": "bc663fb84e24470806a0",
    "5x5 policy=0 8x30": "eb7befb88e20b0141708",
    "5x5 policy=1 8x30": "c447d5f9eeffeddb065f",
    "5x5 policy=2 8x30": "c4fb8d956930fe8c96f7",
    "5x5 policy=3 8x30": "f22404cfceee4e2b7605",
    "5x5 policy=4 8x30": "5ddfffbf8673e3805739",
    "5x5 policy=5 8x30": "be506de4b67375a22800",
    "5x5 policy=6 8x30": "8a86bed784ec838fdfb0",
    "5x5 policy=7 8x30": "7f99139d79185621eda7",
    "5x5 policy=8 8x30": "685ca8d64ca2d4dd1b34",
    "5x5 policy=9 8x30": "e9715b6da58083cd4263",
    "5x5 policy=10 8x30": "cda0b67b0bf35468f9b5",
    "5x5 policy=11 8x30": "5ad81490c08bc8669160",
    "5x5 policy=12 8x30": "30433823aa309fd3a3e8",
    "5x5 policy=13 8x30": "2d48e736a12da28b4502",
    "5x5 policy=14 8x30": "cd9140ddf6f06e105125",
    "5x5 policy=15 8x30": "f523a0430fc12f5bee11",
    "7x7 policy=0 6x20": "ce3de00715a1b61cb2fb",
    "7x7 policy=1 6x20": "1d882dfe8fd69f96c621",
    "7x7 policy=2 6x20": "903843be25bcdd10f88a",
    "7x7 policy=3 6x20": "c91d9d172073f0183c07",
    "7x7 policy=4 6x20": "1c6d4309e27ae2dabc21",
    "7x7 policy=5 6x20": "0b3658c62d5fb98b6847",
    "7x7 policy=6 6x20": "7d47317430d1e62f96f9",
    "7x7 policy=7 6x20": "6c61b7156327d122ee9e",
    "7x7 policy=8 6x20": "563ccbe76b87cc1db0f2",
    "7x7 policy=9 6x20": "bd2f213603a651c11fa6",
    "7x7 policy=10 6x20": "5f81a26f6e7a1cb27ee7",
    "7x7 policy=11 6x20": "1734e02075f036a8499c",
    "7x7 policy=12 6x20": "1e51b4f563272a927468",
    "7x7 policy=13 6x20": "6f2c36a54d6ab0ab77f6",
    "7x7 policy=14 6x20": "80646849cc92ca9e6a10",
    "7x7 policy=15 6x20": "ce87be7b20038154225b",
    "9x9 policy=0 8x20": "c452b562bfa33ef3e86a",
    "9x9 policy=1 8x20": "358074de99d4d9cbdcd9",
    "9x9 policy=2 8x20": "acbf6fadb68acb4da4dd",
    "9x9 policy=3 8x20": "615f7829f78132212bfd",
    "9x9 policy=4 8x20": "ae72e328ecf0c3780f9f",
    "9x9 policy=5 8x20": "a7744d4427984f9a70d9",
    "9x9 policy=6 8x20": "8308da29ee0a11fed1b8",
    "9x9 policy=7 8x20": "05c8aee825ff07bca663",
    "9x9 policy=8 8x20": "185d7db15afcd46f2e8e",
    "9x9 policy=9 8x20": "0317b8c4bd9a976a1b5c",
    "9x9 policy=10 8x20": "50e9ad9b67e19242a0f5",
    "9x9 policy=11 8x20": "bdf2a123da3e54268cbf",
    "9x9 policy=12 8x20": "fc7778faf3d0a56613e5",
    "9x9 policy=13 8x20": "585e8fcac03bd397a14e",
    "9x9 policy=14 8x20": "d67bf97bbe343f514675",
    "9x9 policy=15 8x20": "642e3785644d36b3f1cd",
    "13x13 policy=0 4x10": "817ea9af6242b697d1ed",
    "13x13 policy=1 4x10": "e2b191b0a4cfdce0fdbe",
    "13x13 policy=2 4x10": "b5974ebf173d7a89c0bb",
    "13x13 policy=3 4x10": "075c3fde7a3a1124c381",
    "13x13 policy=4 4x10": "ab68ad71c33144b6dddc",
    "13x13 policy=5 4x10": "46170aa02dd4793514a8",
    "13x13 policy=6 4x10": "d76464dd981a27167ee0",
    "13x13 policy=7 4x10": "63a4c40ee6c69cfeba12",
    "13x13 policy=8 4x10": "bca600dca7ae0818abf1",
    "13x13 policy=9 4x10": "03eacef90df341bb0d37",
    "13x13 policy=10 4x10": "ef3585899e3ef6c97671",
    "13x13 policy=11 4x10": "5b59ba9c4acadd476218",
    "13x13 policy=12 4x10": "1977663912dcbc6bc7ec",
    "13x13 policy=13 4x10": "5cb8453e4a571081b524",
    "13x13 policy=14 4x10": "103bc6a07faa9bc4ab91",
    "13x13 policy=15 4x10": "5d2a179f001a90a304d6",
    "19x19 policy=0 3x5": "96d8711a312beb4cafd0",
    "19x19 policy=1 3x5": "1c951f2a4c95bda814da",
    "19x19 policy=2 3x5": "680ce4f71323a20e8c74",
    "19x19 policy=3 3x5": "94713585643635cbb5c9",
    "19x19 policy=4 3x5": "c6117f8c6358185ab741",
    "19x19 policy=5 3x5": "eeee20a309c899bb6c79",
    "19x19 policy=6 3x5": "6d7ca60ed682379a94a7",
    "19x19 policy=7 3x5": "1a591641ba92d6831ba1",
    "19x19 policy=8 3x5": "fb65eabfc512ba2704e8",
    "19x19 policy=9 3x5": "2f9fe8f3b7dc739d30b9",
    "19x19 policy=10 3x5": "e4e28739ff7b8365597b",
    "19x19 policy=11 3x5": "0bbf296a122797152977",
    "19x19 policy=12 3x5": "0ef5fcab742409133330",
    "19x19 policy=13 3x5": "fdb3979fc63db34c3866",
    "19x19 policy=14 3x5": "540d0d51ed43ad436cdb",
    "19x19 policy=15 3x5": "e474ed2bedaed0142a35",
}


def positions(size: int, count: int) -> list[State]:
    """The empty board and count - 1 positions after seeded random legal moves (a pass
    now and then), black or white to move."""
    rnd = random.Random(7000 + size)
    game = games.create("go", size=size, komi=7.5, policy=0)
    out = [game.initial_state()]
    while len(out) < count:
        st = game.initial_state()
        depth = rnd.choice([3, 10, 25, size * size // 2, size * size, 2 * size * size])
        for _ in range(depth):
            if st.is_terminal():
                break
            moves = st.legal_moves()
            st = st.play(rnd.choice(moves[:-1] if len(moves) > 1 and rnd.random() < 0.97
                                    else moves))
        if not st.is_terminal():
            out.append(st)
    return out


def digests(configs: list[Config]) -> dict[str, str]:
    out = {}
    for size, masks, n_pos, n_traces, n_run in configs:
        start = positions(size, n_pos)
        for mask in masks:
            h = hashlib.sha256()
            game = go.policy_game(start[0].game, mask)
            for i, pos in enumerate(start):
                st = go.in_game(pos, game)
                for s in range(n_traces):
                    h.update(repr(go.playout_trace(st, seed=s * 7919 + i)).encode())
                run = playout_run(st, n_run, seed=i)
                h.update(repr((run.mean_rewards, run.plies)).encode())
            out[f"{size}x{size} policy={mask} {n_pos}x{n_traces}"] = h.hexdigest()[:20]
    return out


def test_seeded_playouts_match_the_original_build() -> None:
    assert digests(QUICK) == PINNED_QUICK


@pytest.mark.skipif(not FULL, reason="MIAI_FULL=1 checks the larger set")
def test_seeded_playouts_match_the_original_build_large() -> None:
    assert digests(LARGE) == PINNED_LARGE


if __name__ == "__main__":
    for name, configs in (("PINNED_QUICK", QUICK), ("PINNED_LARGE", LARGE)):
        print(f"{name} = {{")
        for key, value in digests(configs).items():
            print(f'    "{key}": "{value}",')
        print("}")
