"""``python -m tools.catalogues [--check]``: compile the client's word catalogues (.po to .mo).

The client's words live in gettext catalogues, one domain per package
(client/locale for the client's own, client/<game>/locale for each game's;
``<lang>/LC_MESSAGES/<domain>.po``), keyed by stable ids. Translators edit
the .po files with any gettext tool; this command writes the .mo file beside
each one, which the client loads through the standard library
(client/i18n.py). ``--check`` writes nothing and exits 1 when a .mo file is
missing or differs from its .po (the test suite runs the same check).
Needs Babel (installed with the test extras).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from tools._cli import run as run_cli

ROOT = Path(__file__).resolve().parents[1]


def po_files(root: Path = ROOT) -> list[Path]:
    """Every catalogue source of the client, in a stable order."""
    return sorted((root / "client").rglob("locale/*/LC_MESSAGES/*.po"))


def compiled(po: Path) -> bytes:
    """The .mo bytes of one .po file (Babel's reader and writer, messages sorted)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalogue = read_po(source)
    out = io.BytesIO()
    write_mo(out, catalogue)
    return out.getvalue()


def stale(root: Path = ROOT) -> list[Path]:
    """The .po files whose .mo is missing or out of date."""
    return [po for po in po_files(root)
            if not po.with_suffix(".mo").exists() or po.with_suffix(".mo").read_bytes() != compiled(po)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.catalogues", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report .mo files that are missing or stale")
    args = parser.parse_args(argv)
    todo = stale()
    if args.check:
        for po in todo:
            print(f"stale: {po.relative_to(ROOT)} (run python -m tools.catalogues)", file=sys.stderr)
        return 1 if todo else 0
    for po in todo:
        po.with_suffix(".mo").write_bytes(compiled(po))
        print(f"compiled {po.relative_to(ROOT).with_suffix('.mo')}")
    return 0


if __name__ == "__main__":
    run_cli(main)
