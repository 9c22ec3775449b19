"""Keyed signatures of model files: HMAC-SHA256 over the metadata.

The checksums of a model file (SHA-256 of its metadata, and of each array,
recorded in the metadata) detect corruption, not tampering: whoever alters a
file can recompute them. A signature made with a secret key can be made only
by whoever holds the key: ``HMAC-SHA256(key, metadata)``, stored as the member
``signature``. The metadata records every array's SHA-256, so the signature
covers the arrays too.

The key is given as ``key=`` (bytes, or a str taken as UTF-8) or, when
``key`` is None, read from the environment variable ``PREIMAGE_MODEL_KEY``
(the command line's way: ``preimage fit`` signs with it, ``preimage denoise``
and ``preimage info`` verify with it).
"""

import hashlib
import hmac
import os

__all__ = ["KEY_VARIABLE", "resolve_key", "sign", "signature_matches"]

#: The environment variable holding the key when none is passed.
KEY_VARIABLE = "PREIMAGE_MODEL_KEY"


def resolve_key(key):
    """The key as bytes: `key`, else ``$PREIMAGE_MODEL_KEY``, else None."""
    if key is None:
        key = os.environ.get(KEY_VARIABLE) or None
        name = KEY_VARIABLE
    else:
        name = "key"
    if key is None:
        return None
    if isinstance(key, str):
        key = key.encode("utf-8")
    if not isinstance(key, (bytes, bytearray)):
        raise TypeError(f"{name!r} must be bytes or a str, got {type(key).__name__}")
    if not key:
        raise ValueError(f"{name!r} must not be empty")
    return bytes(key)


def sign(text, key):
    """The signature of the metadata bytes `text` under `key`, as hex (ASCII bytes)."""
    return hmac.new(key, text, hashlib.sha256).hexdigest().encode("ascii")


def signature_matches(text, key, signature):
    """Whether `signature` (bytes) is that of `text` under `key`, compared in
    constant time."""
    return hmac.compare_digest(sign(text, key), bytes(signature))
