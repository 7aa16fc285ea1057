"""Reducer-contract helpers of the engine core: action codec and answer checks."""

from __future__ import annotations

import dataclasses

import pytest

from engine.core import (
    SYSTEM,
    Action,
    ActionCodec,
    CardsDealt,
    CardsRevealed,
    CardsShownTo,
    CardsShuffled,
    Chance,
    Decision,
    DiceRolled,
    HiddenOp,
    IllegalAction,
    Knowledge,
    MalformedAction,
    NotYourTurn,
    SealedChoice,
    SealedChoicesRevealed,
    WrongInputKind,
    check_answer_matches,
    decode,
    encode,
)


@dataclasses.dataclass(frozen=True)
class Play(Action):
    KIND = "play"
    handle: int
    card: str
    as_level: int | None
    targets: tuple[int, ...]


CODEC = ActionCodec([Play, DiceRolled])


def test_action_round_trips_through_canonical_bytes() -> None:
    action = Play(seat=1, handle=7, card="c01", as_level=None, targets=(1, 2))
    assert CODEC.decode(decode(encode(action))) == action


@pytest.mark.parametrize(
    "data",
    [
        "play",
        {"kind": "nope", "seat": 0},
        {"kind": "play", "seat": 0, "handle": 1, "card": "x", "as_level": None},  # missing targets
        {"kind": "play", "seat": 0, "handle": 1, "card": "x", "as_level": None, "targets": (), "extra": 1},
        {"kind": "play", "seat": True, "handle": 1, "card": "x", "as_level": None, "targets": ()},
        {"kind": "play", "seat": 0, "handle": "1", "card": "x", "as_level": None, "targets": ()},
        {"kind": "play", "seat": 0, "handle": 1, "card": "x", "as_level": "2", "targets": ()},
        {"kind": "play", "seat": 0, "handle": 1, "card": "x", "as_level": None, "targets": ("a",)},
    ],
)
def test_codec_rejects_malformed_actions(data: object) -> None:
    with pytest.raises(MalformedAction):
        CODEC.decode(data)


def test_decision_accepts_only_the_waited_for_seat() -> None:
    pending = Decision(seat=0, prompt="main")
    check_answer_matches(pending, Play(0, 1, "x", None, ()))
    with pytest.raises(NotYourTurn):
        check_answer_matches(pending, Play(1, 1, "x", None, ()))
    with pytest.raises(WrongInputKind):
        check_answer_matches(pending, DiceRolled(SYSTEM, "main", (1,)))


def test_chance_checks_purpose_count_and_faces() -> None:
    pending = Chance(purpose="trap", dice=(6, 6))
    check_answer_matches(pending, DiceRolled(SYSTEM, "trap", (1, 6)))
    for bad in [DiceRolled(SYSTEM, "trap", (0, 6)), DiceRolled(SYSTEM, "trap", (7, 1)), DiceRolled(SYSTEM, "trap", (3,))]:
        with pytest.raises(IllegalAction):
            check_answer_matches(pending, bad)
    with pytest.raises(WrongInputKind):
        check_answer_matches(pending, DiceRolled(SYSTEM, "event", (1, 1)))
    with pytest.raises(WrongInputKind):
        check_answer_matches(pending, Play(0, 1, "x", None, ()))


def test_sealed_choice_checks_each_seats_options() -> None:
    pending = SealedChoice(seats=(0, 1), purpose="rps", options=(("rock", "paper"), ("rock",)))
    check_answer_matches(pending, SealedChoicesRevealed(SYSTEM, "rps", ("paper", "rock")))
    with pytest.raises(IllegalAction):
        check_answer_matches(pending, SealedChoicesRevealed(SYSTEM, "rps", ("paper", "paper")))
    with pytest.raises(IllegalAction):
        check_answer_matches(pending, SealedChoicesRevealed(SYSTEM, "rps", ("paper",)))


def test_hidden_op_checks_zone_and_handles() -> None:
    deal = HiddenOp(op="deal", zone="deck:0", handles=(4, 5), to_seat=0)
    check_answer_matches(deal, CardsDealt(SYSTEM, "deck:0", (4, 5)))
    with pytest.raises(IllegalAction):
        check_answer_matches(deal, CardsDealt(SYSTEM, "deck:0", (5, 4)))
    with pytest.raises(WrongInputKind):
        check_answer_matches(deal, CardsShuffled(SYSTEM, "deck:0"))
    reveal = HiddenOp(op="reveal", zone="col", handles=(9,))
    with pytest.raises(IllegalAction):
        check_answer_matches(reveal, CardsRevealed(SYSTEM, "col", (9,), ()))


def test_knowledge_is_immutable_and_learns_by_copy() -> None:
    empty = Knowledge(seat=0)
    known = empty.learn([(3, "c1")])
    assert empty.card(3) is None and known.card(3) == "c1" and known.knows(3)


# --- audit additions: every branch of check_answer_matches, codec types, errors


@dataclasses.dataclass(frozen=True)
class Typed(Action):
    KIND = "typed"
    flag: bool
    blob: bytes
    pair: tuple[int, str]


def test_codec_checks_bool_bytes_and_fixed_tuples() -> None:
    codec = ActionCodec([Typed])
    good = {"kind": "typed", "seat": 0, "flag": False, "blob": b"\x00", "pair": (1, "a")}
    assert codec.decode(good) == Typed(0, False, b"\x00", (1, "a"))
    assert codec.decode({**good, "pair": [1, "a"]}).pair == (1, "a")  # type: ignore[attr-defined]
    for field, bad in [("flag", 0), ("blob", "00"), ("pair", (1,)), ("pair", (1, "a", 2)),
                       ("pair", ("a", 1)), ("pair", "1a")]:
        with pytest.raises(MalformedAction, match=f"typed.{field}"):
            codec.decode({**good, field: bad})


def test_codec_refuses_empty_or_repeated_kinds() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoKind(Action):
        pass

    with pytest.raises(ValueError, match="empty or repeated"):
        ActionCodec([NoKind])
    with pytest.raises(ValueError, match="empty or repeated"):
        ActionCodec([Play, Play])
    assert ActionCodec([Play, DiceRolled]).kinds == ("dice_rolled", "play")


def test_codec_refuses_a_field_named_kind() -> None:
    """to_data writes the action kind under "kind": a field of that name would overwrite it, and
    the action could never be read back (a saved Locke game failed to verify so, session 22)."""
    @dataclasses.dataclass(frozen=True)
    class Clash(Action):
        KIND = "clash"
        kind: str

    with pytest.raises(ValueError, match="field named 'kind'"):
        ActionCodec([Clash])


def test_the_suit_kind_statement_reads_back() -> None:
    """The Locke input that had the clash (N225's suit kind) survives to_data and decode through
    the game's own codec (the codec's guard covers every class when the game is built)."""
    from engine.locke.combat.actions import SuitKind
    from engine.locke.game import LockeGame
    from net.games.locke import components

    g = LockeGame(components())
    action = SuitKind(2, "powered-suit")
    assert g.codec.decode(action.to_data()) == action


def test_codec_turns_constructor_value_errors_into_malformed_action() -> None:
    @dataclasses.dataclass(frozen=True)
    class Checked(Action):
        KIND = "checked"
        n: int

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError("n must not be negative")

    with pytest.raises(MalformedAction, match="n must not be negative"):
        ActionCodec([Checked]).decode({"kind": "checked", "seat": 0, "n": -1})


def test_nothing_is_accepted_once_the_game_is_over() -> None:
    with pytest.raises(IllegalAction, match="over"):
        check_answer_matches(None, Play(0, 1, "x", None, ()))
    with pytest.raises(IllegalAction, match="over"):
        check_answer_matches(None, DiceRolled(SYSTEM, "trap", (1,)))


def test_sealed_choice_answer_must_name_its_purpose_and_come_from_the_driver() -> None:
    pending = SealedChoice(seats=(0, 1), purpose="rps", options=(("rock",), ("rock",)))
    with pytest.raises(WrongInputKind, match="rps"):
        check_answer_matches(pending, SealedChoicesRevealed(SYSTEM, "other", ("rock", "rock")))
    with pytest.raises(WrongInputKind):
        check_answer_matches(pending, DiceRolled(SYSTEM, "rps", (1,)))
    with pytest.raises(WrongInputKind):
        check_answer_matches(pending, SealedChoicesRevealed(0, "rps", ("rock", "rock")))
    assert pending.options_for(1) == ("rock",)
    assert SealedChoice((3, 5), "p", (("a",), ("b",))).options_for(5) == ("b",)


@pytest.mark.parametrize(
    ("op", "good", "wrong_handles"),
    [
        ("deal", CardsDealt(SYSTEM, "z", (1, 2)), CardsDealt(SYSTEM, "z", (1,))),
        ("show_to", CardsShownTo(SYSTEM, "z", (1, 2)), CardsShownTo(SYSTEM, "z", (2, 1))),
        ("reveal", CardsRevealed(SYSTEM, "z", (1, 2), ("a", "b")), CardsRevealed(SYSTEM, "z", (1, 3), ("a", "b"))),
    ],
)
def test_hidden_op_answers_must_match_zone_and_handles(op: str, good: Action, wrong_handles: Action) -> None:
    pending = HiddenOp(op=op, zone="z", handles=(1, 2), to_seat=0)  # type: ignore[arg-type]
    check_answer_matches(pending, good)
    with pytest.raises(IllegalAction, match="other cards"):
        check_answer_matches(pending, wrong_handles)
    with pytest.raises(WrongInputKind, match="'z'"):
        check_answer_matches(pending, dataclasses.replace(good, zone="elsewhere"))  # type: ignore[type-var]
    with pytest.raises(WrongInputKind):
        check_answer_matches(pending, dataclasses.replace(good, seat=0))  # type: ignore[type-var]


def test_shuffle_answer_checks_zone_only() -> None:
    pending = HiddenOp(op="shuffle", zone="deck:1", handles=(1, 2))
    check_answer_matches(pending, CardsShuffled(SYSTEM, "deck:1"))
    with pytest.raises(WrongInputKind):
        check_answer_matches(pending, CardsShuffled(SYSTEM, "deck:0"))
    with pytest.raises(WrongInputKind):
        check_answer_matches(pending, CardsDealt(SYSTEM, "deck:1", (1, 2)))


def test_pending_inputs_have_distinct_pinned_canonical_forms() -> None:
    """The pending input is part of a game's public state, so its encoding is
    part of the state hash: pin it."""
    assert encode(Decision(0, "p")) == b"ds7:pendings8:decisions6:prompts1:ps4:seati0ee"
    assert encode(SealedChoice((0,), "rps", (("r",),))) == (
        b"ds7:optionslls1:rees7:pendings6:sealeds7:purposes3:rpss5:seatsli0eee")
    assert encode(Chance("trap", (6,))) == b"ds4:diceli6ees7:pendings6:chances7:purposes4:trape"
    assert encode(HiddenOp("deal", "d", (4,), 1)) == (
        b"ds7:handlesli4ees2:ops4:deals7:pendings6:hiddens7:to_seati1es4:zones1:de")
    assert encode(HiddenOp("reveal", "d", (4,))) != encode(HiddenOp("reveal", "d", (4,), 0))


def test_action_canonical_form_names_kind_and_every_field() -> None:
    assert Play(2, 7, "c", None, (1,)).to_data() == {
        "kind": "play", "seat": 2, "handle": 7, "card": "c", "as_level": None, "targets": (1,)}
    assert encode(DiceRolled(SYSTEM, "t", (3,))) == b"ds5:facesli3ees4:kinds11:dice_rolleds7:purposes1:ts4:seati-1ee"


def test_knowledge_cannot_be_changed_in_place_and_learn_leaves_the_original() -> None:
    base = Knowledge(seat=1).learn([(1, "a")])
    later = base.learn([(2, "b"), (1, "a2")])
    assert dict(base.cards) == {1: "a"} and dict(later.cards) == {1: "a2", 2: "b"}
    assert later.seat == 1 and not base.knows(2)
    with pytest.raises(TypeError):
        later.cards[3] = "c"  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        later.seat = 2  # type: ignore[misc]


def test_typed_errors_carry_rule_and_seat() -> None:
    from engine.core import CheatDetected, DeckError, EngineError

    err = IllegalAction("no attack from an empty column", rule="rider.12")
    assert err.rule == "rider.12" and str(err) == "no attack from an empty column [rider.12]"
    assert str(IllegalAction("plain")) == "plain" and IllegalAction("plain").rule is None
    cheat = CheatDetected("face-down card was not Lv.1", seat=2, rule="rider.3")
    assert cheat.seat == 2 and isinstance(cheat, IllegalAction)
    assert str(cheat) == "seat 2: face-down card was not Lv.1 [rider.3]"
    deck = DeckError(["too many cards", "no Lv.4"])
    assert deck.problems == ["too many cards", "no Lv.4"] and "too many cards; no Lv.4" == str(deck)
    for cls in (IllegalAction, MalformedAction, DeckError, CheatDetected, NotYourTurn, WrongInputKind):
        assert issubclass(cls, EngineError)


def test_learning_never_writes_into_a_mapping_given_by_the_caller() -> None:
    given = {1: "a"}
    Knowledge(seat=0, cards=given).learn([(2, "b")])
    assert given == {1: "a"}


def test_hash_of_hashes_the_games_public_data_and_short_hex_is_for_people() -> None:
    from engine.core import hash_of, short_hex, state_hash

    class Tiny:
        def public(self, state: int) -> object:
            return {"n": state}

    assert hash_of(Tiny(), 3) == state_hash({"n": 3}) != hash_of(Tiny(), 4)  # type: ignore[arg-type]
    assert short_hex(bytes(range(16))) == "000102030405" and short_hex(b"\xab", 1) == "a"


@dataclasses.dataclass(frozen=True)
class WithDefaults(Action):
    KIND = "with_defaults"
    need: int
    level: int = 0
    cards: tuple[int, ...] = ()
    extra: tuple[int, ...] = dataclasses.field(default_factory=tuple)


def test_codec_names_defaults_but_decode_still_wants_every_field() -> None:
    """Scenario files may leave fields with a default out (net/games/locke/scenario.py fills
    them in); the wire may not: decode refuses a message missing any field."""
    codec = ActionCodec([WithDefaults])
    assert codec.defaults("with_defaults") == {"level": 0, "cards": (), "extra": ()}
    assert codec.defaults("no-such-kind") == {}
    with pytest.raises(MalformedAction, match="missing fields"):
        codec.decode({"kind": "with_defaults", "seat": 0, "need": 1})
    full = {**codec.defaults("with_defaults"), "kind": "with_defaults", "seat": 0, "need": 1}
    assert codec.decode(full) == WithDefaults(0, 1)
