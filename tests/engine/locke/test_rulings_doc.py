"""docs/rules/locke-rulings.md must hold every Locke ruling the other docs make.

The chart and component docs record their rulings where they were made
(R-numbered in locke-charts.md, titled bullet points in locke-components.md).
locke-rulings.md gathers them all with ids; these tests fail as soon as a
ruling is added to either doc and not carried over, or when an id is cited
that no entry defines.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[3] / "docs" / "rules"

#: One ruling entry: a list item that starts with its bold id.
ENTRY = re.compile(r"^- \*\*([RCTDN]\d+)\*\* (.*)$", re.MULTILINE)
#: A chart ruling id as cited in locke-charts.md.
CHART_ID = re.compile(r"\bR\d+\b")
#: Any ruling id as cited in prose.
ANY_ID = re.compile(r"\b[RCTDN]\d+\b")
#: A component ruling: a bold-titled bullet in the Rulings section.
COMPONENT_TITLE = re.compile(r"^- \*\*(.+?)\*\*", re.MULTILINE)


def _read(name: str) -> str:
    return (RULES / name).read_text(encoding="utf-8")


def entries(text: str) -> dict[str, str]:
    """Ruling id -> entry text; refuses an id defined twice."""
    found: dict[str, str] = {}
    for rid, body in ENTRY.findall(text):
        assert rid not in found, f"ruling {rid} is defined twice in locke-rulings.md"
        found[rid] = body
    return found


def component_titles(text: str) -> list[str]:
    """Titles of the rulings in locke-components.md's "## Rulings" section."""
    section = text.split("\n## Rulings", 1)[1].split("\n## ", 1)[0]
    return [t.rstrip(".").strip() for t in COMPONENT_TITLE.findall(section)]


def missing_chart_ids(charts_doc: str, rulings_doc: str) -> list[str]:
    defined = entries(rulings_doc)
    return sorted(set(CHART_ID.findall(charts_doc)) - set(defined), key=lambda r: int(r[1:]))


def missing_component_titles(components_doc: str, rulings_doc: str) -> list[str]:
    c_entries = [body for rid, body in entries(rulings_doc).items() if rid.startswith("C")]
    return [t for t in component_titles(components_doc) if not any(t in body for body in c_entries)]


def test_every_chart_ruling_is_listed() -> None:
    """Each R id cited in locke-charts.md (or locke-components.md) has an entry."""
    rulings = _read("locke-rulings.md")
    assert missing_chart_ids(_read("locke-charts.md"), rulings) == []
    assert missing_chart_ids(_read("locke-components.md"), rulings) == []


def test_no_invented_chart_rulings() -> None:
    """R ids are owned by locke-charts.md: the rulings page defines no others."""
    defined = {rid for rid in entries(_read("locke-rulings.md")) if rid.startswith("R")}
    assert defined == set(CHART_ID.findall(_read("locke-charts.md")))


def test_every_component_ruling_is_listed() -> None:
    """Each titled ruling of locke-components.md appears, by title, in a C entry."""
    titles = component_titles(_read("locke-components.md"))
    assert len(titles) >= 20
    assert missing_component_titles(_read("locke-components.md"), _read("locke-rulings.md")) == []


def test_rulings_mappings_of_rulings_md() -> None:
    """The four term mappings RULINGS.md asks for are R11-R14, each with its decision."""
    e = entries(_read("locke-rulings.md"))
    assert '"C card"' in e["R11"] and "combat card" in e["R11"]
    assert '"check phase"' in e["R12"] and "recovery-check phase" in e["R12"]
    assert '"restraint"' in e["R13"] and "unable to act" in e["R13"]
    assert '"[intrinsic]"' in e["R14"] and "jammer" in e["R14"]


def test_cited_ids_are_defined() -> None:
    """Every ruling id locke.md or locke-rulings.md cites has an entry."""
    rulings = _read("locke-rulings.md")
    defined = set(entries(rulings))
    for name in ("locke.md", "locke-rulings.md"):
        cited = set(ANY_ID.findall(_read(name)))
        assert sorted(cited - defined) == [], name


def test_each_entry_says_where_it_lives() -> None:
    """Every entry ends by saying whether the engine enforces it or it is rules text."""
    for rid, body in entries(_read("locke-rulings.md")).items():
        assert re.search(r"(Engine|Rules)[^.]*\.( See [A-Z]\d+\.)?$", body), rid


@pytest.mark.parametrize("name", ["locke.md", "locke-rulings.md"])
def test_no_source_title_or_committee(name: str) -> None:
    """The rule pages are our own words: the rulebook's title and authors never appear."""
    text = _read(name)
    for marker in ("ルールブック", "制作委員会"):
        assert marker not in text


def test_checker_catches_a_dropped_ruling() -> None:
    """The checks above really fail when an entry is missing."""
    charts = "- **R1** one.\n- **R2** two.\nSee R3 too.\n"
    rulings = "- **R1** one. Engine.\n- **R3** three. Rules.\n"
    assert missing_chart_ids(charts, rulings) == ["R2"]
    components = "\n## Rulings\n\n- **Alpha.** x\n- **Beta** y\n\n## Next\n- **Gamma** z\n"
    assert missing_component_titles(components, '- **C1** *Alpha.* — x. Engine.\n') == ["Beta"]
    with pytest.raises(AssertionError, match="defined twice"):
        entries("- **N1** a. Rules.\n- **N1** b. Rules.\n")
