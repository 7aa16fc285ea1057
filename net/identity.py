"""A player's long-term identity: one Ed25519 key pair, kept on this machine.

The public key is what other players see (seat keys in the genesis record,
invite codes); the fingerprint is a short, human-comparable hash of it. The
private key never leaves the key file, which is readable by its owner only:
anyone who can read it can sign moves in this player's name.
"""

from __future__ import annotations

import base64
import os
import re
import stat
import tempfile
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from nacl.bindings import crypto_core_ed25519_is_valid_point

from engine.core.hashing import digest
from net.errors import BadPublicKey, BadSignature, IdentityError

PUBLIC_KEY_SIZE = 32
SIGNATURE_SIZE = 64
FINGERPRINT_DOMAIN = "fairtable/fingerprint/v1"
#: File name of the key inside the user data directory.
KEY_FILE_NAME = "identity.pem"
APP_NAME = "fairtable"


#: The environment variable naming a profile: its own identity key, settings and games, so two
#: windows on one computer can play each other (``FAIRTABLE_PROFILE=2 fairtable``).
PROFILE_VARIABLE = "FAIRTABLE_PROFILE"


def profile_parts() -> tuple[str, ...]:
    """The sub-folder of the chosen profile under the user folders, () for the default one.
    ValueError with what to do for a name that cannot be a folder."""
    name = os.environ.get(PROFILE_VARIABLE, "")
    if not name:
        return ()
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", name):
        raise ValueError(f"{PROFILE_VARIABLE}={name!r} cannot name a profile: use 1-32 letters, digits, '-' or '_'")
    return ("profiles", name)


def default_key_path() -> Path:
    """Where :meth:`Identity.load_or_create` keeps the key by default (per profile)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False)).joinpath(*profile_parts(), KEY_FILE_NAME)


def fingerprint_of(public_key: bytes) -> str:
    """Short human string for a public key: 16 base32 characters in 4 groups.

    80 bits of a domain-separated SHA-256: enough that nobody can make a key
    with a chosen fingerprint, short enough to read aloud.
    """
    _check_key_bytes(public_key)
    text = base64.b32encode(digest(FINGERPRINT_DOMAIN, public_key)[:10]).decode("ascii")
    return "-".join(text[i : i + 4] for i in range(0, 16, 4))


def _check_key_bytes(public_key: bytes, seat: int | None = None) -> None:
    if not isinstance(public_key, bytes) or len(public_key) != PUBLIC_KEY_SIZE:
        raise BadPublicKey("a public key must be 32 bytes", seat=seat)


def validate_public_key(public_key: bytes, *, seat: int | None = None) -> None:
    """Reject keys that are not canonical points of the prime-order group.

    Small-order keys would let anyone forge "signatures" by that key (and so
    forge equivocation proofs against it), so they are refused up front.
    """
    _check_key_bytes(public_key, seat)
    if not crypto_core_ed25519_is_valid_point(public_key):
        raise BadPublicKey("the public key is not a valid prime-order Ed25519 point; "
                           "the player must generate a new identity", seat=seat)


def verify_signature(public_key: bytes, signature: bytes, data: bytes, *, seat: int | None = None,
                     sender: str | None = None) -> None:
    """Check an Ed25519 signature; raise :class:`BadSignature` naming ``seat``."""
    validate_public_key(public_key, seat=seat)
    if not isinstance(signature, bytes) or len(signature) != SIGNATURE_SIZE:
        raise BadSignature("the signature is not 64 bytes", seat=seat, sender=sender)
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, data)
    except InvalidSignature:
        raise BadSignature(
            f"signature does not verify under the key {fingerprint_of(public_key)} "
            "(forged, altered, or signed by someone else)", seat=seat, sender=sender) from None


class Identity:
    """An Ed25519 signing key with its public key and fingerprint."""

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        self._key = private_key
        self.public_key: bytes = private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.fingerprint: str = fingerprint_of(self.public_key)

    @classmethod
    def generate(cls) -> Identity:
        """A fresh random identity (the OS random source, via ``cryptography``)."""
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> Identity:
        """Identity from a 32-byte secret seed (for tests and key import)."""
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise ValueError("an Ed25519 seed is 32 bytes")
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    @classmethod
    def load_or_create(cls, path: str | os.PathLike[str] | None = None) -> Identity:
        """Load the key at ``path`` (default: the user data dir), creating it once.

        A new key is written atomically with mode 0600 in a directory with
        mode 0700. An existing file is refused, with advice, if it is corrupt
        or other users may read it.
        """
        key_path = Path(path) if path is not None else default_key_path()
        if key_path.exists():
            return cls._load(key_path)
        _make_private_dir(key_path.parent)
        identity = cls.generate()
        pem = identity._key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption())
        if not _write_new_private_file(key_path, pem):
            return cls._load(key_path)  # another process created it first
        return identity

    @classmethod
    def _load(cls, key_path: Path) -> Identity:
        _check_private(key_path.parent, 0o022, "chmod 700")
        _check_private(key_path, 0o077, "chmod 600")
        try:
            data = key_path.read_bytes()
        except OSError as exc:
            raise IdentityError(f"cannot read the identity key {key_path}: {exc.strerror}. "
                                "Check that this user owns the file.") from None
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError):
            key = None
        if not isinstance(key, Ed25519PrivateKey):
            raise IdentityError(
                f"the identity key file {key_path} is corrupt or not an Ed25519 key. Restore it "
                "from a backup, or move it aside to create a new identity (other players will "
                "then see a new fingerprint).")
        return cls(key)

    def sign(self, data: bytes) -> bytes:
        """Ed25519 signature (64 bytes) over ``data``."""
        return self._key.sign(data)

    def __repr__(self) -> str:
        return f"Identity({self.fingerprint})"


def _make_private_dir(directory: Path) -> None:
    if not directory.exists():
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.name == "posix":
            os.chmod(directory, 0o700)  # mkdir's mode is filtered by the umask
    _check_private(directory, 0o022, "chmod 700")


def _check_private(path: Path, loose_bits: int, fix: str) -> None:
    """Refuse a key file others could read, or a key directory others could
    write to (they could swap the key file for their own)."""
    if os.name != "posix":
        return  # Windows: per-user profile directories are private by ACL
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError as exc:
        raise IdentityError(f"cannot inspect {path}: {exc.strerror}") from None
    if mode & loose_bits:
        raise IdentityError(
            f"{path} has permissions {mode:04o}, so other users on this machine could read or "
            f"replace your identity key. Run `{fix} {path}` and start again; if others may already "
            "have copied the key, move it aside to create a new identity.")


def _write_new_private_file(path: Path, content: bytes) -> bool:
    """Write ``content`` to a new owner-only file; False if ``path`` appeared meanwhile."""
    fd, tmp_name = tempfile.mkstemp(prefix=".identity-", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp_name, path)  # atomic and never overwrites an existing key
        except FileExistsError:
            return False
        except OSError:  # no hard links here (e.g. FAT): exclusive create instead
            try:
                out = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                return False
            with os.fdopen(out, "wb") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
        return True
    finally:
        os.unlink(tmp_name)
