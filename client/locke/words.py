"""Locke's inputs, events and things in words, in either language, for buttons, the log and the board.

Why one module: the prompt buttons (client/locke/intents.py), the log
(client/locke/scene.py ``describe_input``), the seat rail and the private
panel all name the same cells, cards and seats; doing it once keeps a
button and the log line of the input it made word for word the same.

Names come from the card data (assets/locke/*.json through
net/games/locke ``components``) and Locke's word catalogue (client/locke/locale); a card
handle is named only when the player's own :class:`Knowledge` knows it
(never from the table's truth), so no hidden card of another seat can be
worded here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from client.agreement import you_agree
from client.i18n import known, pick, tr
from client.table.words import player_label
from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.core.inputs import PlacementPick, SealedPick
from engine.core.pending import (
    CardsDealt,
    CardsRevealed,
    CardsShownTo,
    CardsShuffled,
    CellsOpened,
    DiceRolled,
    PlacementDisclosed,
    PlacementMade,
    SealedChoicesRevealed,
)
from engine.locke.board import PLANETS
from engine.locke.components import ComponentSet
from client.locke.events import EVENT_ARGS

#: Input kinds with one yes/no field: the field's name (its value picks the ``_yes``/``_no`` words).
FLAGS = {
    "locke.declare": "declare", "locke.answer": "accept", "locke.override": "use", "locke.follow": "follow",
    "locke.join": "accept", "locke.keep": "keep", "locke.appear": "appear", "locke.surrender": "surrender",
    "locke.release": "use", "locke.escape": "escape", "locke.fact": "holds", "locke.try_revive": "attempt",
    "locke.cb.sleep": "sleep", "locke.cb.go_on": "go_on", "locke.cb.absorb": "absorb",
    "locke.cb.jam_veto": "veto", "locke.cb.disintegrate": "use", "locke.cb.broken": "broken",
}


_NAMES: dict[int, dict[str, tuple[str, str, int]]] = {}


def _names(components: ComponentSet) -> dict[str, tuple[str, str, int]]:
    """Card id -> (English name, Japanese name, combat card level or 0), built once per card set
    (characters first, as the data lists them: a silhouette sharing a character's id names alike)."""
    table = _NAMES.get(id(components))
    if table is None:
        table = {}
        for family in (components.characters, components.silhouettes, components.planets, components.bases):
            for card in family:
                table.setdefault(card.id, (card.name_en, card.name_ja, 0))
        for combat_card in components.combat_cards:
            table.setdefault(combat_card.id, (combat_card.name_en, combat_card.name_ja, combat_card.level))
        _NAMES[id(components)] = table
    return table


@dataclasses.dataclass(frozen=True)
class Namer:
    """What naming needs: the language, the seats' names, our seat, the card data and our knowledge."""

    lang: str
    names: Sequence[str]
    me: int
    components: ComponentSet
    knowledge: Knowledge | None = None
    #: The running combat's fighters by index (a seat, or an obstacle's id), for inputs that name one.
    fighters: tuple[int | str, ...] = ()

    # -- things ------------------------------------------------------------------------------
    def seat(self, seat: Any) -> str:
        """A seat for people ("You (Seat 1)"); -1 is an obstacle; a text id is named as a card."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            return self.card(str(seat))
        if 0 <= seat < len(self.names):
            return player_label(seat, self.names, self.me, self.lang)
        return tr(self.lang, "lk_obstacle")

    def cell(self, key: Any) -> str:
        """"P:3:4" -> "Selen 4", "P:3:0" -> "Selen spaceport", "B:2:5" -> "Base 2-5"."""
        parts = str(key).split(":")
        if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
            a, b = int(parts[1]), int(parts[2])
            if parts[0] == "P" and 1 <= a <= len(PLANETS):
                planet = PLANETS[a - 1]
                name = pick(self.lang, planet.name_en, planet.name_ja)
                return tr(self.lang, "lk_cell_port", planet=name) if b == 0 else f"{name} {b}"
            if parts[0] == "B":
                return tr(self.lang, "lk_cell_base", row=a, col=b)
        return str(key)

    def card(self, card_id: str) -> str:
        """Any Locke card id by its printed name (characters, silhouettes, planet, base and combat
        cards, abilities, items, shadow dice); an unknown id in plain words."""
        c = self.components
        named = _names(c).get(card_id)
        if named is not None:
            name = pick(self.lang, named[0], named[1])
            return f"{name} L{named[2]}" if named[2] else name
        for table in (c.catalogue.abilities, c.catalogue.items):
            spec = table.get(card_id)
            if spec is not None:
                return pick(self.lang, spec.name_en, spec.name_ja)
        if card_id.startswith("die-") and card_id[4:].isdigit():
            return tr(self.lang, "lk_die", n=card_id[4:])
        return self.word(card_id)

    def word(self, ident: str) -> str:
        """A rule word (a use, a stat, an alignment, an option id) in words."""
        for prefix in ("lk_use_", "lk_stat_", "lk_attr_", "lk_order_", "lk_id_"):
            if known(prefix + ident):
                return tr(self.lang, prefix + ident)
        if ":" in ident:  # a composite id ("random-combat:card", "trap:cybers"): each part in words
            return ": ".join(self.word(part) for part in ident.split(":") if part)
        head, _, tail = ident.rpartition("-")
        if head == "controlled-by" and tail.isdigit():  # a base card's orders: the seat index that gives them
            return tr(self.lang, "lk_id_controlled-by", who=self.seat(int(tail)))
        if head and tail.isdigit() and known(f"lk_id_{head}"):  # "combat-jammer-1"
            return f"{tr(self.lang, f'lk_id_{head}')} {tail}"
        return ident.replace("-", " ").replace("_", " ")

    def suit(self, suit: str) -> str:
        """A suit brought into a combat: its card's name (which says "suit" already), or a suit of a
        kind not said (``"suit"``, docs/rules/locke-rulings.md N225) in words of its own."""
        if suit == "suit":
            return tr(self.lang, "lk_eq_suit_unsaid")
        return tr(self.lang, "lk_eq_suit", suit=self.card(suit))

    def sealed_picks(self, seats: Sequence[int], choices: Sequence[Any]) -> str:
        """The revealed secret picks, each after its seat ("Ann (Seat 1): Locke, ..."), when the
        seats that picked are known (the sealed choice's own order, engine/core/pending.py)."""
        if len(seats) != len(choices):
            return tr(self.lang, "lk_log_sealed", picks=self.join(self.card(str(c)) for c in choices))
        return tr(self.lang, "lk_log_sealed", picks=self.join(
            tr(self.lang, "lk_log_sealed_pick", who=self.seat(s), pick=self.card(str(c))) for s, c in zip(seats, choices)))

    def dice_purpose(self, purpose: str) -> str:
        """What a roll is for, in words ("“prison” chart", "level check", "turn order"), from the
        engine's Chance purpose ("locke.chart.prison"); "" for a purpose without words."""
        short = str(purpose).removeprefix("locke.")
        kind, _, rest = short.partition(".")
        if kind == "chart" and rest:
            return tr(self.lang, "lk_dice_chart", chart=self.word(rest))
        if kind == "check" and rest:
            return tr(self.lang, "lk_dice_check", stat=self.word(rest))
        if kind == "restraint":  # how long a restraint lasts (a trap's or an event's)
            short = kind
        if kind == "combat" and rest:
            short = rest
            if rest in self.components.catalogue.items:  # an item's own roll (a Psycho-pod ...)
                return self.card(rest)
        if known(f"lk_dice_{short}"):
            return tr(self.lang, f"lk_dice_{short}")
        for prefix in ("lk_use_", "lk_id_"):
            if known(prefix + short):
                return tr(self.lang, prefix + short)
        return ""

    def handle(self, handle: int) -> str:
        """A card handle: its card when we know it, else "a hidden card"."""
        known = self.knowledge.card(handle) if self.knowledge is not None and handle >= 0 else None
        return self.card(known) if known else tr(self.lang, "lk_hidden_card")

    def fighter(self, index: int) -> str:
        """A combat fighter by its index: the seat or obstacle, else "fighter N"."""
        if 0 <= index < len(self.fighters):
            who = self.fighters[index]
            return self.seat(who) if isinstance(who, int) else self.card(who)
        return tr(self.lang, "lk_fighter_n", n=index + 1)

    def thing(self, thing: str) -> str:
        """A hidden placement's thing (an ambush, a key base)."""
        if known(f"lk_thing_{thing}"):
            return tr(self.lang, f"lk_thing_{thing}")
        if thing.startswith("ambush"):
            return tr(self.lang, "lk_thing_ambush")
        return self.card(thing)

    # -- inputs ------------------------------------------------------------------------------
    def action(self, action: Any) -> str:
        """The words of one input as a button shows it (no actor)."""
        lang = self.lang
        if isinstance(action, PlacementPick):
            return tr(lang, "lk_act_place", thing=self.thing(action.thing), cell=self.cell(action.cell))
        if isinstance(action, SealedPick):
            return tr(lang, "lk_act_sealed", choice=self.card(str(action.choice)))
        kind = getattr(action, "KIND", type(action).__name__)
        flag = FLAGS.get(kind)
        if flag is not None:
            return tr(lang, f"lk_act_{kind}_{'yes' if getattr(action, flag) else 'no'}")
        special = self._special(kind, action)
        if special is not None:
            return special
        key = f"lk_act_{kind}"
        if not known(key):
            return tr(lang, "lk_act_unknown", kind=kind)
        fields = {f.name: getattr(action, f.name) for f in dataclasses.fields(action) if f.name != "seat"}
        for name in ("to",):
            if name in fields:
                fields[name] = self.cell(fields[name])
        if "silhouette" in fields:
            fields["silhouette"] = self.card(fields["silhouette"])
        return tr(lang, key, **fields)

    def _special(self, kind: str, a: Any) -> str | None:
        """Inputs whose words depend on more than their fields."""
        lang = self.lang
        if kind == "locke.info_check":
            n = len(a.handles)
            return tr(lang, "lk_act_locke.info_check_none" if n == 0 else "lk_act_locke.info_check_one" if n == 1
                      else "lk_act_locke.info_check", n=n)
        if kind == "locke.propose":
            return tr(lang, "lk_act_locke.propose", partners=self.join(self.seat(s) for s in a.partners))
        if kind in ("locke.fight", "locke.identify"):
            if a.target < 0:
                return tr(lang, "lk_act_locke.fight_none")
            return tr(lang, f"lk_act_{kind}", target=self.seat(a.target))
        if kind == "locke.check_value" and a.value < 0:
            return tr(lang, "lk_act_locke.check_value_none")
        if kind == "locke.use_card":
            extra = tr(lang, "lk_to", who=self.seat(a.target)) if a.target >= 0 else ""
            if a.choice:
                extra += tr(lang, "lk_choice", choice=self.card(a.choice))
            known = self.knowledge.card(a.handle) if self.knowledge is not None else None
            card = self.card(a.card)
            if known and known != a.card:
                card = self.card(known) + tr(lang, "lk_as", card=card)
            return tr(lang, "lk_act_locke.use_card", card=card, extra=extra)
        if kind == "locke.stat":
            return tr(lang, "lk_act_locke.stat", stat=self.word(a.stat), value=a.value)
        if kind == "locke.choose":
            return tr(lang, "lk_act_locke.choose", option=self.word(a.option))
        if kind == "locke.play_teleport":
            if a.handle < 0:
                return tr(lang, "lk_act_locke.play_teleport_none")
            return tr(lang, "lk_act_locke.play_teleport", card=self.handle(a.handle))
        if kind == "locke.use_ability":
            extra = tr(lang, "lk_choice", choice=self.card(a.choice)) if a.choice else ""
            if a.level:
                extra += tr(lang, "lk_choice", choice=f"{self.word('level')} {a.level}")
            return tr(lang, "lk_act_locke.use_ability", ability=self.card(a.ability), target=self.seat(a.target),
                      extra=extra)
        if kind == "locke.cb.play":
            card = self.card(a.card)
            if a.acts_as and a.acts_as != a.card:
                card += tr(lang, "lk_as", card=self.card(a.acts_as))
            target = tr(lang, "lk_at", who=self.fighter(a.target)) if a.target >= 0 else ""
            stretch = tr(lang, "lk_stretch", n=a.stretch) if a.stretch else ""
            return tr(lang, "lk_act_locke.cb.play", use=self.word(a.use), card=card, target=target, stretch=stretch)
        if kind == "locke.cb.equip":
            return tr(lang, "lk_act_locke.cb.equip", list=self.equipment(a))
        if kind == "locke.cb.item":
            target = tr(lang, "lk_at", who=self.fighter(a.target)) if a.target >= 0 else ""
            return tr(lang, "lk_act_locke.cb.item", item=self.card(a.item), target=target)
        if kind == "locke.cb.suit_kind":
            return tr(lang, "lk_act_locke.cb.suit_kind", suit=self.card(a.suit))
        if kind == "locke.cb.ship_effect":
            return tr(lang, "lk_act_locke.cb.ship_effect", effect=self.word(a.effect))
        if kind == "locke.cb.trim":
            return tr(lang, "lk_act_locke.cb.trim", n=len(a.handles))
        if kind == "locke.cb.ebuster":
            key = f"lk_act_locke.cb.ebuster_{a.what}" if a.what else "lk_act_locke.cb.ebuster"
            return tr(lang, key, level=a.level)
        if kind == "locke.order":
            order = str(a.order)
            if order.startswith("attack:"):
                words = tr(lang, "lk_order_attack", who=self.fighter(int(order[7:])))
            else:
                words = self.word(order)
            return tr(lang, "lk_act_locke.order", order=words)
        return None

    def equipment(self, a: Any) -> str:
        """What an equip declaration brings, as a list."""
        lang = self.lang
        parts = []
        if a.henchmen:
            parts.append(self.henchmen(a.henchmen))
        if a.suit:
            parts.append(self.suit(a.suit))
        if a.field:
            parts.append(tr(lang, "lk_eq_field"))
        if a.jammer >= 0:
            parts.append(tr(lang, "lk_eq_jammer", who=self.fighter(a.jammer)))
        if a.nike:
            parts.append(tr(lang, "lk_eq_nike", n=a.nike))
        for handle, kind in zip(a.cards, a.kinds):
            card, as_card = self.handle(handle), self.card(kind)
            # a card equipped as what it is needs no "as" ("Henchman as Henchman" read oddly)
            parts.append(card if card == as_card else tr(lang, "lk_eq_card", card=card, kind=as_card))
        return self.join(parts) or tr(lang, "lk_eq_nothing")

    def logged(self, action: Action, pre: Any) -> str:
        """The log line of an applied input: its actor and its words; a driver's answer in words."""
        lang = self.lang
        if isinstance(action, DiceRolled):
            faces = " + ".join(map(str, action.faces))
            what = self.dice_purpose(action.purpose)
            return tr(lang, "lk_log_dice_for", what=what, faces=faces) if what else tr(lang, "lk_log_dice", faces=faces)
        if isinstance(action, CardsShuffled):
            return tr(lang, "lk_log_shuffled", zone=self.zone(action.zone))
        if isinstance(action, CardsDealt):
            return tr(lang, "lk_log_dealt", n=len(action.handles), zone=self.zone(action.zone))
        if isinstance(action, CardsShownTo):
            return tr(lang, "lk_log_shown", n=len(action.handles), zone=self.zone(action.zone))
        if isinstance(action, CardsRevealed):
            return tr(lang, "lk_log_revealed", cards=self.join(self.card(c) for c in action.cards))
        if isinstance(action, SealedChoicesRevealed):
            return tr(lang, "lk_log_sealed", picks=self.join(self.card(str(c)) for c in action.choices))
        if isinstance(action, PlacementMade):
            return tr(lang, "lk_log_placed", zone=self.zone(action.zone))
        if isinstance(action, CellsOpened):
            return tr(lang, "lk_log_opened", cells=self.join(self.card(c) if c else tr(lang, "lk_empty")
                                                             for c in action.contents))
        if isinstance(action, PlacementDisclosed):
            return tr(lang, "lk_log_disclosed", zone=self.zone(action.zone),
                      who=self.join(self.seat(x) for x in action.to_seats))
        return tr(lang, "lk_log_actor", who=self.seat(action.seat), what=self.action(action))

    def zone(self, zone: str) -> str:
        """A card zone or placement in words (a seat's zone names the seat)."""
        head, _, tail = zone.partition(":")
        if head == "cell":
            return self.cell(tail)
        name = tr(self.lang, f"lk_zone_{head}") if known(f"lk_zone_{head}") else self.word(head)
        if tail.isdigit():
            return tr(self.lang, "lk_zone_of_seat", zone=name, who=self.seat(int(tail)))
        if not tail:
            return name
        part = f"lk_zone_part_{tail}"  # a pile of the zone ("stock", "deck", a pool by alignment)
        return tr(self.lang, "lk_zone_pile", zone=name, pile=tr(self.lang, part) if known(part) else self.word(tail))

    # -- events ------------------------------------------------------------------------------
    def event(self, entry: Sequence[Any]) -> str:
        """One entry of the public event log in words (its arguments typed by EVENT_ARGS)."""
        kind, args = str(entry[0]), list(entry[1:])
        types = EVENT_ARGS.get(kind)
        if types is None:
            return tr(self.lang, "lk_ev_unknown", kind=self.word(kind), args=", ".join(map(str, args)))
        if kind == "cb-equip":
            return self._equipped(args)
        if kind == "cb-hit":
            return self._hit(args)
        shown = [self._arg(t, args, i) for i, t in enumerate(types)]
        shown += [""] * 8
        return self._possessive(tr(self.lang, f"lk_ev_{kind}").format(*shown))

    def _possessive(self, text: str) -> str:
        """English: our own seat's possessive is "your" ("Your illusion fails"), not "You (Seat 1)'s"."""
        if self.lang != "en":
            return text
        if text[:1].islower():  # a line that opens with an obstacle ("police's weapon check ...") is a sentence
            text = text[0].upper() + text[1:]
        if not 0 <= self.me < len(self.names):
            return text
        text = you_agree(text)
        label = self.seat(self.me)
        if label != tr(self.lang, "seat_you", n=self.me + 1):  # a watcher's table names every seat
            return text
        mine = label + "'s"
        if text.startswith(mine):
            text = "Your" + text[len(mine):]
        return text.replace(mine, "your")

    def _arg(self, kind: str, args: list[Any], i: int) -> str:
        if i >= len(args):
            return ""
        value = args[i]
        if kind == "S":  # a fighter: a seat, or -1 followed by the obstacle's id
            if value == -1 and i + 1 < len(args) and isinstance(args[i + 1], str):
                return self.card(args[i + 1])
            return self.seat(value)
        if kind == "s":
            return self.seat(value)
        if kind == "c":  # no cell (a combat in the prison): off the board, not an empty gap
            return self.cell(value) if value else tr(self.lang, "lk_cell_none")
        if kind in ("k", "t"):
            return self.card(str(value)) if isinstance(value, str) else str(value)
        if kind == "b":
            return tr(self.lang, "lk_passed" if value else "lk_failed")
        if kind == "l":
            seats = value if isinstance(value, (list, tuple)) else [value]
            return self.join(self.seat(s) for s in seats) or tr(self.lang, "lk_nobody")
        if kind == "f":
            return self.fighter(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)
        if kind == "L":
            ids = value if isinstance(value, (list, tuple)) else [value]
            return self.join(self.card(str(x)) for x in ids) or tr(self.lang, "lk_eq_nothing")
        return str(value)

    def _equipped(self, args: list[Any]) -> str:
        """``cb-equip`` (seat, henchmen, suit, field, jammer fighter or -1, Nike level, kinds of the
        kept cards equipped): only what was brought, each part in words (engine/locke/combat/equip.py)."""
        lang = self.lang
        given = list(args[:7])
        seat, henchmen, suit, field, jammer, nike, kinds = given + [None, 0, "", False, -1, 0, []][len(given):]
        parts = []
        if isinstance(henchmen, int) and henchmen > 0:
            parts.append(self.henchmen(henchmen))
        if suit:
            parts.append(self.suit(str(suit)))
        if field:
            parts.append(tr(lang, "lk_eq_field"))
        if isinstance(jammer, int) and not isinstance(jammer, bool) and jammer >= 0:
            parts.append(tr(lang, "lk_eq_jammer", who=self.fighter(jammer)))
        if isinstance(nike, int) and not isinstance(nike, bool) and nike > 0:
            parts.append(tr(lang, "lk_eq_nike", n=nike))
        for kind in kinds if isinstance(kinds, (list, tuple)) else ():
            parts.append(tr(lang, "lk_eq_kept", kind=self.card(str(kind))))
        return tr(lang, "lk_ev_cb-equip", who=self.seat(seat), list=self.join(parts) or tr(lang, "lk_eq_nothing"))

    def join(self, items: Iterable[str]) -> str:
        """Words in a list, with the language's separator ("a, b"; "a、b")."""
        return tr(self.lang, "lk_list_sep").join(items)

    def henchmen(self, n: int) -> str:
        """A count of henchmen, singular or plural ("1 henchman", "2 henchmen")."""
        return tr(self.lang, "lk_eq_hench_one" if n == 1 else "lk_eq_hench", n=n)

    def odds(self, column: str) -> str:
        """A damage-table column id ("2-1", "1-2-or-less", "50-1-or-more") as odds in words."""
        head, _, rest = column.partition("-")
        ratio, _, tail = rest.partition("-")
        if not (head.isdigit() and ratio.isdigit()):
            return column
        if tail:
            return tr(self.lang, f"lk_odds_{tail.replace('-', '_')}", a=head, b=ratio) \
                if known(f"lk_odds_{tail.replace('-', '_')}") else f"{head}:{ratio}"
        return f"{head}:{ratio}"

    def _hit(self, args: list[Any]) -> str:
        """``cb-hit`` (attacker, target, damage-table cells, durability before, after, card): who hit
        whom with what, and what it did: the damage and the durability left, or why there was
        none (the odds and the roll read a 0 on the damage table; engine/locke/combat/path.py)."""
        lang = self.lang
        who, target, cells, before, after, card = (args + [None] * 6)[:6]
        attacker = self.seat(who) if who is not None else tr(lang, "lk_obstacle")
        victim = self.seat(target) if target is not None else tr(lang, "lk_obstacle")
        weapon = self.card(str(card)) if card else self.card("weapon")
        checks = [str(c) for c in cells] if isinstance(cells, (list, tuple)) else []
        reads = []
        for c in checks:  # "2-1@7": the odds column and the roll read on it
            column, _, roll = c.partition("@")
            reads.append((self.odds(column), roll))
        odds = self.join(dict.fromkeys(o for o, _ in reads))
        rolls = self.join(r for _, r in reads)
        if isinstance(before, (list, tuple)) and isinstance(after, (list, tuple)):  # an obstacle's members
            left = [int(a) for a in after]
            lost = sum(int(b) for b in before) - sum(left)
            was, now = ", ".join(map(str, before)), ", ".join(map(str, left))
        elif isinstance(before, int) and isinstance(after, int):
            left, lost, was, now = [after], before - after, str(before), str(after)
        else:
            return tr(lang, "lk_ev_cb-hit_bare", who=attacker, target=victim, card=weapon)
        if lost <= 0:
            return tr(lang, "lk_ev_cb-hit_none", who=attacker, target=victim, card=weapon, odds=odds, rolls=rolls,
                      before=was)
        key = "lk_ev_cb-hit_out" if all(x <= 0 for x in left) else "lk_ev_cb-hit"
        return tr(lang, key, who=attacker, target=victim, card=weapon, odds=odds, rolls=rolls, n=lost,
                  before=was, after=now)
