"""The player's client preferences (name, language, deck), kept between runs
in the user config directory as a small JSON file. A broken file is
ignored (defaults are used) rather than stopping the game."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

APP = "fairtable"


def settings_path() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP, appauthor=False)) / "client.json"


def data_dir(*parts: str) -> Path:
    """A folder under the user data directory (transcripts, networked games)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP, appauthor=False)).joinpath(*parts)


def transcript_path(folder: Path | None, name: str) -> Path:
    """Where to save a transcript: ``folder`` (default: the user's transcripts
    folder, created if missing), ``name`` plus a UTC time stamp."""
    import datetime

    if folder is None:
        folder = data_dir("transcripts")
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
    return folder / name.format(stamp=stamp)


@dataclasses.dataclass
class Settings:
    name: str = "Player"
    lang: str = "en"
    deck: str = ""
    bot_deck: str = ""
    bot: str = "greedy"
    game: str = "rider"  # a name of the game registry (net/games/)

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        path = path or settings_path()
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(raw, dict):
            return cls()
        fields = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in raw.items() if k in fields and isinstance(v, str)})

    def save(self, path: Path | None = None) -> None:
        path = path or settings_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(dataclasses.asdict(self), ensure_ascii=False, indent=1), encoding="utf-8")
        except OSError:
            pass  # preferences are a convenience; never fail the game over them
