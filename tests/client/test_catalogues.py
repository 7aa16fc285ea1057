"""The client's word catalogues (client/i18n.py): complete, consistent, compiled, and split by package.

Each id has words in every language, the same {fields} in each, lives in
one domain only, and the .mo files the client loads are exactly the .po
sources compiled (``python -m tools.catalogues``). The checks can fail: the
last test breaks a copy of a catalogue and expects each check to say so.
"""

from __future__ import annotations

import shutil
import string
from pathlib import Path


from client.i18n import DOMAIN, LANGS, domains, known, tr
from tests.client.words import all_words, read_domain
from tools.catalogues import compiled, po_files, stale

ROOT = Path(__file__).resolve().parents[2]


def fields_of(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def problems(words: dict[str, tuple[str, ...]]) -> list[str]:
    found = []
    for key, texts in words.items():
        missing = [lang for lang, text in zip(LANGS, texts) if not text.strip()]
        if missing:
            found.append(f"{key}: no words in {', '.join(missing)}")
        elif len({frozenset(fields_of(t)) for t in texts}) > 1:
            found.append(f"{key}: the languages fill in different fields")
        elif texts[0] == key:
            found.append(f"{key}: the English words are the id itself")
    return found


def test_every_id_is_worded_in_every_language_with_the_same_fields() -> None:
    assert problems(all_words()) == []


def test_each_package_registers_its_own_domain_and_an_id_lives_in_one_only() -> None:
    registered = domains()
    assert {DOMAIN, "rider", "tiny"} <= set(registered)
    assert registered["rider"] == ROOT / "client" / "rider" / "locale"  # a game's words live with the game
    seen: dict[str, str] = {}
    clashes = []
    for domain, folder in registered.items():
        for key in read_domain(folder, domain):
            if key in seen:
                clashes.append(f"{key} in {seen[key]} and {domain}")
            seen[key] = domain
    assert clashes == []
    core = read_domain(registered[DOMAIN], DOMAIN)
    assert not any(key.startswith(("tiny_", "why_", "help_r_")) for key in core)  # games' words are not generic


def test_the_client_reads_the_compiled_catalogues_in_both_languages() -> None:
    assert stale() == [], "a .mo file differs from its .po: run python -m tools.catalogues"
    words = all_words()
    for key in ("title", "rematch", "log_attack", "tiny_won"):
        en, ja = words[key]
        assert known(key) and tr("en", key) == en and tr("ja", key) == ja and en != ja
    assert not known("no_such_words") and tr("ja", "no_such_words") == "no_such_words"


def test_the_checks_fail_on_a_broken_copy(tmp_path: Path) -> None:
    source = ROOT / "client" / "tiny" / "locale"
    copy = tmp_path / "client" / "tiny" / "locale"
    shutil.copytree(source, copy)
    ja = copy / "ja" / "LC_MESSAGES" / "tiny.po"
    text = ja.read_text(encoding="utf-8")
    assert 'msgstr "あなたの勝ちです。"' in text
    ja.write_text(text.replace('msgstr "あなたの勝ちです。"', 'msgstr ""', 1), encoding="utf-8")
    broken = read_domain(copy, "tiny")
    assert problems(broken) == ["tiny_won: no words in ja"]
    assert [p.relative_to(tmp_path) for p in stale(tmp_path)] == [ja.relative_to(tmp_path)]  # the .mo is stale now
    assert compiled(ja) != (source / "ja" / "LC_MESSAGES" / "tiny.mo").read_bytes()
    assert po_files(tmp_path) == sorted(copy.rglob("*.po"))
