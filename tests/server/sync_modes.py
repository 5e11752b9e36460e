"""The ways the SQLite store syncs its WAL, for the tests that run each (store.SYNC_WITH)."""

from __future__ import annotations

import pytest


def kernel_may(mode: str) -> None:
    """Skips where the kernel refuses io_uring or Linux AIO (caio leaves that module None): not so here or in CI."""
    import caio

    if getattr(caio, "linux_uring" if mode == "uring" else "linux_aio") is None:
        pytest.skip(f"this kernel refuses {mode}")


def spin_may() -> None:
    """Skips where our own sync thread is not compiled (`scripts/install` builds it where gcc and Python.h are)."""
    try:
        from boardweaver_server import _walsync  # noqa: F401
    except ImportError:
        pytest.skip("boardweaver_server._walsync is not compiled (scripts/install)")
