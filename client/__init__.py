"""Fairtable's pygame-ce user interface: scenes, rendering, input.

Dependencies flow one way: the client imports net and engine, never the
reverse. The client never decides a rule: it renders a seat's view and
offers exactly the engine's legal actions.
"""
