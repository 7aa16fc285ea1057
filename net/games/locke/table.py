"""Networked Super Human Locke: the table plan and the start built from a genesis record.

What the session needs beyond the engine (net/session/plan.py):

- ``public_cards``: every Locke deck starts face down in data order with its
  handles public (``LockeGame.open_cards``), like Tiny's shared deck, so
  every card is a public card point and nothing is secret at genesis.
- ``claims``: none. Locke never lets an action's own fields stand as proof
  of a card. A kept card used (``UseCard``) and a combat card played
  (``Play``) are followed by the engine's own ``reveal`` of that handle
  (engine/locke/planet_cards.py ``CardUseReveal``, engine/locke/combat/path.py),
  which the session runs as the holder's proven decryption shares, and the
  engine checks the revealed card against the action (a wildcard against the
  card it stands for). With the default plan an action would carry a proof
  as well: a wildcard naming the card it stands for would be refused (its
  proof shows ``wildcard``), and a played card would be revealed twice. So
  every card is revealed once, by the round the engine asks for.
- ``stand_in``: a character whose player left (net/session/leave.py, ruling
  N270 in docs/rules/locke-rulings.md) is played on by Locke's random bot
  with a public seed, the same choice on every peer.
- ``drawers``: who will be dealt privately from a zone the engine shuffles
  now, read from the public state, so that only they shuffle it (under the
  genesis rule ``drawers-beacon/v1``, net/session/subset_shuffle.py): the
  combat deck of a running combat goes to its fighters and to the seats
  still on their way (``Fight.arrivals``); a seat's die deck to that seat.
  Every other zone (character groups, the planet stock, the base deck, the
  combat deck outside a combat) is shuffled by every seat, as before. A seat
  dealt from the combat deck later without having shuffled it (a follow-up
  draw nobody named here) reshuffles it first, so a wrong guess costs time,
  never privacy.
- ``claim_per_card``: declarations about hidden cards (claims) that the
  declaring seat can prove about its own cards are proven at their step
  (net/games/locke/claim_cards.py, net/session/claim_steps.py); every claim
  is judged again at the end-of-game audit (net/session/claim_audit.py).
  Hidden placements are checked by net/session/placement.py.
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.locke.combat.model import DECK, Fight
from engine.locke.components import ComponentSet
from engine.locke.game import LockeGame
from engine.locke.state import MAX_SEATS, MIN_SEATS, LockeState
from net.envelope import Genesis
from net.games.locke.claim_cards import per_card
from net.games.locke.random_bot import LockeRandomBot
from net.games import Table
from net.session.plan import TablePlan


def no_card_proofs(action: Action) -> tuple[tuple[int, str], ...]:
    """Locke's actions carry no card proofs: the engine reveals every card it uses (module docstring)."""
    return ()


DIE_ZONE = "die:"


def drawers(state: LockeState, zone: str) -> tuple[int, ...] | None:
    """The seats dealt privately from ``zone`` after its shuffle now; None: every seat shuffles
    (see the module docstring)."""
    if zone.startswith(DIE_ZONE) and zone[len(DIE_ZONE):].isdigit():
        seat = int(zone[len(DIE_ZONE):])
        return (seat,) if 0 <= seat < state.n else None
    if zone == DECK and state.combat is not None and isinstance(state.combat.detail, Fight):
        fight = state.combat.detail
        seats = {f.seat for f in fight.fighters if f.seat >= 0} | {seat for seat, _ in fight.arrivals}
        return tuple(sorted(seats))
    return None


def plan(game: LockeGame) -> TablePlan:
    """The table plan of a Locke game (see the module docstring)."""
    return TablePlan(public_cards=game.open_cards, claims=no_card_proofs, stand_in=LockeRandomBot, drawers=drawers,
                     claim_per_card=per_card)


def table(genesis: Genesis, chosen: ComponentSet) -> Table[LockeState]:
    """The networked start for the genesis' seats with the shipped components ``chosen``
    (net/games/locke/__init__.py passes them); ValueError when it does not fit."""
    if genesis.card_set_hash != chosen.digest():
        raise ValueError("this table plays another version of the Locke components (components hashes differ); "
                         "every player needs the same Fairtable version")
    seats = len(genesis.seat_keys)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"Super Human Locke is played by {MIN_SEATS} to {MAX_SEATS} seats, not {seats}")
    game = LockeGame(chosen)
    state, _ = game.new_game(seats)
    return Table(game, state, plan(game))
