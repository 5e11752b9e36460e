"""A throwaway PostgreSQL server for the store tests: Debian's binaries, initdb into a temporary folder,
listening on 127.0.0.1 and a free port only; one server a test session, one new database a test.

Without the binaries (`apt-get install postgresql`, which `scripts/install --postgres` and `.ci/run` do) the
tests that need it skip, saying so; under CI=true they fail instead.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator

import pytest

_databases = itertools.count(1)


def postgres_bin() -> str | None:
    """Returns the newest /usr/lib/postgresql/<version>/bin holding initdb, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return os.path.dirname(found[-1]) if found else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_user(user: str | None, command: list[str]) -> list[str]:
    return command if user is None else ["runuser", "-u", user, "--", *command]


@contextlib.contextmanager
def running_postgres(durable: bool = False) -> Iterator[tuple[str, str]]:
    """Runs a throwaway PostgreSQL server; yields the URL of its `postgres` database and its data folder (whose
    `postmaster.pid` names the server). `durable=False` (the tests) turns fsync off; the benches keep it on."""
    bin_dir = postgres_bin()
    assert bin_dir is not None, "PostgreSQL is not installed; run scripts/install --postgres"
    user = None
    folder = tempfile.mkdtemp(prefix="boardweaver-pg-")
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: its own user runs it
        user = "postgres"
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    data = os.path.join(folder, "data")
    port = _free_port()
    init = subprocess.run(
        _as_user(user, [f"{bin_dir}/initdb", "-D", data, "-U", "boardweaver", "--auth=trust", "-E", "UTF8", "-N"]),
        capture_output=True,
        text=True,
        check=False,
    )
    assert init.returncode == 0, init.stderr
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c max_connections=200"
    if not durable:
        options += " -c fsync=off -c full_page_writes=off"
    started = subprocess.run(
        _as_user(
            user, [f"{bin_dir}/pg_ctl", "-D", data, "-l", f"{folder}/log", "-w", "-t", "30", "-o", options, "start"]
        ),
        capture_output=True,
        text=True,
        check=False,
    )
    assert started.returncode == 0, started.stderr + open(f"{folder}/log").read()
    try:
        yield f"postgresql://boardweaver@127.0.0.1:{port}/postgres", data
    finally:
        subprocess.run(
            _as_user(user, [f"{bin_dir}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"]),
            capture_output=True,
            check=False,
        )
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """Starts a PostgreSQL server for the session; yields the URL of its `postgres` database."""
    if postgres_bin() is None:
        reason = "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); run scripts/install --postgres"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    with running_postgres() as (url, _):
        yield url


@contextlib.contextmanager
def new_database(server_url: str, prefix: str = "t") -> Iterator[str]:
    """Creates a new, empty database on the server of `server_url`; yields its URL and drops it after."""
    import psycopg

    name = f"{prefix}{os.getpid()}_{next(_databases)}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield server_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin, contextlib.suppress(psycopg.Error):
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture
def pg_url(postgres_server: str) -> Iterator[str]:
    """Yields the URL of a new, empty database on the session's server (dropped after the test)."""
    with new_database(postgres_server) as url:
        yield url
