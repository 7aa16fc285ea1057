"""Resolve Locke dice charts from the command line.

    python -m tools.chart list [--json]
    python -m tools.chart CHART [--dice 3,4] [--mod N] [--weapon W]
        [--attack A --durability D | --odds COLUMN] [--esp-level L]
        [--forest] [--chain] [--json]

Without ``--dice`` the dice are rolled locally (this tool, not the engine,
rolls). With ``--chain`` the chained charts are followed too, taking further
faces from ``--dice`` (or rolling them). Examples::

    python -m tools.chart damage --attack 50 --durability 5 --dice 1,1
    python -m tools.chart weapon-firepower --weapon blaster --dice 4
    python -m tools.chart prison --mod 2 --dice 3,4 --chain --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator, Sequence

from engine.core.errors import EngineError
from engine.locke import charts
from engine.locke.outcomes import Context, Outcome


def _parse_dice(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--dice takes faces separated by commas, like 3,4 (got {text!r})") from None


def _faces(given: list[int] | None, rng: random.Random) -> Iterator[int]:
    """Given faces first; after them (or without any) roll d6s locally."""
    yield from given or ()
    while True:
        yield rng.randint(1, 6)


def _summary(outcome: Outcome) -> str:
    parts = [f"{outcome.chart}: dice {','.join(map(str, outcome.faces))}"]
    if outcome.modifier:
        parts.append(f"{outcome.modifier:+d}")
    parts.append(f"-> row {outcome.row}: {outcome.entry}")
    if outcome.value is not None:
        parts.append(f"(value {outcome.value})")
    if outcome.eliminated:
        parts.append("(eliminated)")
    if outcome.next is not None:
        parts.append(f"; next: {outcome.next.chart}" + (f" {outcome.next.modifier:+d}" if outcome.next.modifier else ""))
    return " ".join(parts)


def _list(as_json: bool) -> int:
    listing = {cid: list(charts.entry_ids(cid)) for cid in charts.chart_ids()}
    if as_json:
        print(json.dumps(listing, indent=2, sort_keys=False))
    else:
        for cid, ids in listing.items():
            c = charts.chart(cid)
            print(f"{cid} ({len(c.dice)}d{c.dice[0]}, rows {c.low}..{c.high}): {', '.join(ids)}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.chart", description="Resolve one Super Human Locke chart roll.")
    parser.add_argument("chart", help="chart id, or 'list' to list every chart and entry id")
    parser.add_argument("--dice", type=_parse_dice, help="faces, comma-separated (rolled locally if omitted)")
    parser.add_argument("--mod", "--modifier", dest="modifier", type=int, default=0, help="roll modifier")
    parser.add_argument("--weapon", help="weapon-firepower column: raygun, blaster, bazooka, beam-cannon")
    parser.add_argument("--attack", type=int, help="damage: the attack's firepower")
    parser.add_argument("--durability", type=int, help="damage: the target's current durability")
    parser.add_argument("--odds", help="damage: a fixed column such as 10-1")
    parser.add_argument("--esp-level", type=int, help="hallucination: the target's ESP level")
    parser.add_argument("--forest", action="store_true", help="random-combat rolled in the resonance-tree forest")
    parser.add_argument("--not-character", action="store_true", help="damage target is not a character")
    parser.add_argument("--chain", action="store_true", help="follow chained charts to the end")
    parser.add_argument("--json", action="store_true", help="print structured JSON")
    args = parser.parse_args(argv)

    if args.chart == "list":
        return _list(args.json)
    context = Context(
        weapon=args.weapon,
        attack=args.attack,
        durability=args.durability,
        odds=args.odds,
        esp_level=args.esp_level,
        forest=args.forest,
        target_is_character=not args.not_character,
    )
    rng = random.SystemRandom()
    try:
        if args.chain:
            outcomes = charts.run_chain(args.chart, _faces(args.dice, rng), args.modifier, context)
        else:
            req = charts.request(args.chart, args.modifier, context)
            if args.dice is None:
                faces = [rng.randint(1, sides) for sides in req.dice]
            else:
                faces = args.dice
            outcomes = (charts.resolve_request(req, faces),)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        print("Run 'python -m tools.chart list' for chart ids, or --help for options.", file=sys.stderr)
        return 2
    if args.json:
        data = [o.to_data() for o in outcomes]
        print(json.dumps(data[0] if len(data) == 1 and not args.chain else data, indent=2))
    else:
        for o in outcomes:
            print(_summary(o))
    return 0


if __name__ == "__main__":
    sys.exit(main())
