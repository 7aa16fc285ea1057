"""Fairtable's pygame-ce user interface: scenes, rendering, input.

Dependencies flow one way: the client imports net and engine, never the
reverse. The client never decides a rule: it renders a seat's view and
offers exactly the engine's legal actions.
"""

import os as _os

# pygame prints a banner on import; keep stdout clean for tools and --json output.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
