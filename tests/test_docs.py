"""Every relative link in README.md and docs/*.md resolves: the file exists and, for a
link with `#anchor`, the target has a heading with that anchor (GitHub's rule)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])

_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def _prose_lines(text: str) -> list[str]:
    """The lines of a Markdown text outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def _strip_code_spans(line: str) -> str:
    return re.sub(r"`[^`]*`", "", line)


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: inline markup dropped, lower case, punctuation
    other than '-' and '_' removed, spaces turned into '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links keep their text
    text = text.replace("`", "").replace("*", "").replace("\\", "")
    out = []
    for ch in text.lower():
        if ch in "-_ " or ch.isalnum() or unicodedata.category(ch).startswith("M"):
            out.append("-" if ch == " " else ch)
    return "".join(out)


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    result = set()
    for line in _prose_lines(path.read_text(encoding="utf-8")):
        m = _HEADING.match(line)
        if not m:
            continue
        base = anchor(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        result.add(base if n == 0 else f"{base}-{n}")
    return result


def relative_links(path: Path) -> list[str]:
    links = []
    for line in _prose_lines(path.read_text(encoding="utf-8")):
        for m in _LINK.finditer(_strip_code_spans(line)):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, mailto:, …
                continue
            links.append(target)
    return links


def test_the_anchor_rule_matches_github():
    assert anchor("Registering with a public game master") == (
        "registering-with-a-public-game-master")
    assert anchor("7. Go strength: the Go bot against GNU Go, ablation") == (
        "7-go-strength-the-go-bot-against-gnu-go-ablation")
    assert anchor("UCD — UCT on rooted DAGs (`ucd`)") == "ucd--uct-on-rooted-dags-ucd"
    assert anchor("Go light playouts (9×9 and other sizes)") == (
        "go-light-playouts-99-and-other-sizes")


def test_the_link_reader_finds_links_and_skips_code(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("See [a](a.md#x), ![img](p.png) and [web](https://x.org).\n"
                    "`[not](code.md)`\n```\n[nor](fenced.md)\n```\n", encoding="utf-8")
    assert relative_links(page) == ["a.md#x", "p.png"]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(doc: Path):
    broken = []
    for target in relative_links(doc):
        file_part, _, frag = target.partition("#")
        dest = (doc.parent / file_part).resolve() if file_part else doc
        if not dest.exists():
            broken.append(f"{target}: no file {dest.relative_to(ROOT)}")
        elif frag and dest.suffix == ".md" and frag not in anchors(dest):
            broken.append(f"{target}: no heading with anchor #{frag}")
    assert not broken, f"{doc.relative_to(ROOT)}: " + "; ".join(broken)
