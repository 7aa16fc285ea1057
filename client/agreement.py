"""English verb agreement after the viewer's own seat label.

Every line template of the catalogues puts a seat before a verb in the third person
("{who} plays", "{who} is deciding"), which reads well for "Aki (Seat 2)" but not for
"You (Seat 1)". Rather than a second template per line, :func:`you_agree` turns the verb that
follows "You (Seat N)" into the form "you" takes ("You (Seat 1) play", "You (Seat 1) are
deciding"). :func:`client.i18n.tr` applies it to every English line it fills in, and the Locke
event words (client/locke/words.py) to the lines they format themselves. Japanese needs nothing:
its verbs do not agree with the subject.
"""

from __future__ import annotations

import re

#: "You (Seat 3)" (the English ``seat_you`` words, client/locale/en), then an optional adverb and a word.
_AFTER_YOU = re.compile(r"\b(You \(Seat \d+\) )((?:now|also|still|then|first|again|just|only) )?([a-z]+)\b")
_IRREGULAR = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}
#: Words ending in s that are no third-person verb.
_NOT_VERBS = frozenset({"its", "this", "thus", "as", "us", "plus", "always", "perhaps", "less", "unless", "cards",
                        "seats", "turns", "points", "dice"})


def base_form(word: str) -> str:
    """The form of a third-person-singular verb that goes with "you" ("plays" -> "play");
    any other word unchanged."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    # a third-person verb never ends in -ss, -us or -is ("status", "bonus", "axis" are nouns)
    if word in _NOT_VERBS or not word.endswith("s") or word.endswith(("ss", "us", "is")) or len(word) < 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes", "zzes")):
        return word[:-2]
    return word[:-1]


def you_agree(text: str) -> str:
    """``text`` with every verb right after "You (Seat N)" in the form "you" takes."""
    if "You (Seat " not in text:
        return text
    return _AFTER_YOU.sub(lambda m: m.group(1) + (m.group(2) or "") + base_form(m.group(3)), text)
