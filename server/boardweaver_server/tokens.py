"""Bearer tokens for seats and hosts: 128+ random bits handed out once, stored only as SHA-256."""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 18  # 144 random bits


def new_token() -> str:
    """Returns a fresh url-safe bearer token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """Returns the SHA-256 hex digest the store keeps instead of the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: object, hashes: list[str]) -> bool:
    """Returns True when `token` hashes to one of `hashes`, comparing in constant time."""
    if not isinstance(token, str) or not token or len(token) > 256:
        return False
    try:
        digest = token_hash(token)
    except UnicodeEncodeError:  # a lone surrogate, from a JSON escape: no token has one
        return False
    found = False
    for stored in hashes:
        found |= hmac.compare_digest(digest, stored)
    return found


def bearer(header: str | None) -> str | None:
    """Returns the token of an `Authorization: Bearer <token>` header, or None."""
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None
