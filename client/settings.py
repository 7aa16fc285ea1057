"""The player's client preferences (name, language, deck, sound, speeds,
fullscreen), kept between runs
in the user config directory as a small JSON file. A broken file is
ignored (defaults are used) rather than stopping the game."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from net.games import DEFAULT_GAME
from net.identity import profile_parts

APP = "fairtable"


def settings_path() -> Path:
    """The settings file of the chosen profile (FAIRTABLE_PROFILE, net/identity.py)."""
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP, appauthor=False)).joinpath(*profile_parts(), "client.json")


def data_dir(*parts: str) -> Path:
    """A folder under the user data directory of the chosen profile (transcripts, networked games)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP, appauthor=False)).joinpath(*profile_parts(), *parts)


def transcript_path(folder: Path | None, name: str) -> Path:
    """Where to save a transcript: ``folder`` (default: the user's transcripts
    folder, created if missing), ``name`` plus a UTC time stamp."""
    import datetime

    if folder is None:
        folder = data_dir("transcripts")
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
    return folder / name.format(stamp=stamp)


#: Animation speed: a factor on every animation's length (0: no animations).
ANIM_SPEEDS = {"slow": 0.5, "normal": 1.0, "fast": 2.0, "off": 0.0}
#: Sound volume: a factor on every cue (the mute is the sound setting's "off").
VOLUMES = {"quiet": 0.3, "medium": 0.6, "full": 1.0}
#: Bot speed: seconds before a bot's decision is applied (table operations take a third of it).
BOT_SPEEDS = {"slow": 1.6, "normal": 0.7, "fast": 0.25}


@dataclasses.dataclass
class Settings:
    name: str = "Player"
    lang: str = "en"
    deck: str = ""
    bot_deck: str = ""
    bot: str = "greedy"
    game: str = DEFAULT_GAME  # a name of the game registry (net/games/)
    seats: int = 0  # the lobby's table size for a game played by a range of seats; 0: the game's default
    sound: bool = True
    volume: str = "full"
    fullscreen: bool = False
    anim_speed: str = "normal"
    bot_speed: str = "normal"
    #: The window's size when it was last closed or resized (0: fit the screen it opens on).
    window_w: int = 0
    window_h: int = 0
    #: A game's bot for the other seats of its local table, by game name, for games whose picker
    #: offers one besides Rider's ``bot`` (a game's own client package reads its entry); none: the default.
    game_bots: dict[str, str] = dataclasses.field(default_factory=dict)
    auto_answer: bool = True  # a table answers for us a question with exactly one legal answer (client/locke/)
    #: Tables we host let people watch without a seat (net/peer/watching.py); False: players only.
    watchers: bool = True

    @property
    def volume_factor(self) -> float:
        return VOLUMES.get(self.volume, 1.0)

    @property
    def anim_factor(self) -> float:
        return ANIM_SPEEDS.get(self.anim_speed, 1.0)

    @property
    def bot_delay(self) -> float:
        return BOT_SPEEDS.get(self.bot_speed, BOT_SPEEDS["normal"])

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        path = path or settings_path()
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(raw, dict):
            return cls()
        defaults = cls()
        # each known field keeps its default's type (a hand-edited file cannot put a list where a name goes)
        kept = {f.name: raw[f.name] for f in dataclasses.fields(cls)
                if f.name in raw and type(raw[f.name]) is type(getattr(defaults, f.name))}
        return cls(**kept)

    def save(self, path: Path | None = None) -> None:
        path = path or settings_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(dataclasses.asdict(self), ensure_ascii=False, indent=1), encoding="utf-8")
        except OSError:
            pass  # preferences are a convenience; never fail the game over them
