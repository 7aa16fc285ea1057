"""Shared entry-point glue for the command-line tools."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable


def run(main: Callable[[list[str]], int]) -> None:
    """Run ``main(sys.argv[1:])`` and exit with its code.

    Output piped into a program that stops reading (``| head``) ends the tool
    quietly instead of with a BrokenPipeError traceback.
    """
    try:
        code = main(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    raise SystemExit(code)
