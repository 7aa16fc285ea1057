"""Engine core: encoding, hashing, the reducer contract, pending inputs, errors."""

from engine.core.actions import SYSTEM, Action, ActionCodec
from engine.core.encoding import decode, encode
from engine.core.errors import (
    CheatDetected,
    DeckError,
    EncodingError,
    EngineError,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    WrongInputKind,
)
from engine.core.game import Game, Outcome, check_answer_matches, hash_of
from engine.core.hashing import digest, short_hex, state_hash
from engine.core.hidden import Knowledge
from engine.core.pending import (
    DRIVER_ANSWERS,
    CardsDealt,
    CardsRevealed,
    CardsShownTo,
    CardsShuffled,
    Chance,
    Decision,
    DiceRolled,
    HiddenOp,
    Pending,
    SealedChoice,
    SealedChoicesRevealed,
)

__all__ = [
    "DRIVER_ANSWERS",
    "SYSTEM",
    "Action",
    "ActionCodec",
    "CardsDealt",
    "CardsRevealed",
    "CardsShownTo",
    "CardsShuffled",
    "Chance",
    "CheatDetected",
    "Decision",
    "DeckError",
    "DiceRolled",
    "EncodingError",
    "EngineError",
    "Game",
    "GameOver",
    "HiddenOp",
    "IllegalAction",
    "Knowledge",
    "MalformedAction",
    "NotYourTurn",
    "Outcome",
    "Pending",
    "SealedChoice",
    "SealedChoicesRevealed",
    "WrongInputKind",
    "check_answer_matches",
    "decode",
    "digest",
    "encode",
    "hash_of",
    "short_hex",
    "state_hash",
]
