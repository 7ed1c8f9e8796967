"""SHA-256 for the fingerprints of rule sets and the signatures of cached tables.

CPython's own SHA-256 module when it has one: :mod:`hashlib` loads OpenSSL first, which costs
a few milliseconds of every command's start.  The digests are the same.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def _sha256() -> Callable[[bytes], Any]:
    for name in ("_sha256", "_sha2"):  # CPython 3.11; 3.12 and later
        try:
            return importlib.import_module(name).sha256  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    import hashlib  # lazy: only where the interpreter has no built-in module

    return hashlib.sha256


_SHA256 = _sha256()


def sha256_hex(data: bytes) -> str:
    """The SHA-256 digest of ``data`` in hexadecimal (64 characters).

    >>> sha256_hex(b"")[:16]
    'e3b0c44298fc1c14'
    """
    return str(_SHA256(data).hexdigest())


__all__ = ["sha256_hex"]
