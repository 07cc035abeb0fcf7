"""A gunicorn worker is recycled before it grows past WORKER_MAX_RSS_MB (issue 33): the documented
deployment, for real (gunicorn with gunicorn.conf.py on loopback). Every socket is on 127.0.0.1,
every wait is bounded, and the server is stopped at the end."""

from __future__ import annotations

import platform
import re
import socket
import time
import urllib.request

import pytest

from app_helpers import make_app
from bench import servers
from companion import settings
from companion.server import workers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=60) as res:  # noqa: S310 - loopback
        res.read()
        return res.status


def test_the_setting_reads_whole_megabytes_and_names_itself_when_wrong(monkeypatch):
    monkeypatch.delenv("WORKER_MAX_RSS_MB", raising=False)
    assert settings.worker_max_rss_mb() == settings.WORKER_MAX_RSS_MB > 0
    monkeypatch.setenv("WORKER_MAX_RSS_MB", " 0 ")
    assert settings.worker_max_rss_mb() == 0  # never recycled for its size
    monkeypatch.setenv("WORKER_MAX_RSS_MB", "512")
    assert settings.worker_max_rss_mb() == 512
    for bad in ("-1", "1.5", "lots", "512MB"):
        monkeypatch.setenv("WORKER_MAX_RSS_MB", bad)
        with pytest.raises(ValueError, match="WORKER_MAX_RSS_MB"):
            settings.worker_max_rss_mb()


def test_resident_size_is_this_process_size():
    size = workers.resident_bytes()
    held = bytearray(64 * 1024 * 1024)  # touched: resident
    held[::4096] = b"x" * len(held[::4096])
    grown = workers.resident_bytes()
    assert 10 * 2**20 < size < grown and grown - size >= 60 * 2**20
    del held


def test_a_worker_past_its_size_is_replaced_and_the_server_goes_on(tmp_path):
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    make_app(tmp_path, SQLALCHEMY_DATABASE_URI=database)
    errors = tmp_path / "error.log"
    env = {"COMPANION_INSTANCE": str(tmp_path / "instance"), "DATABASE_URL": database,
           "GUNICORN_ERROR_LOG": str(errors), "GUNICORN_ACCESS_LOG": str(tmp_path / "access.log"),
           "WEB_CONCURRENCY": "1", "GUNICORN_THREADS": "4",
           "WORKER_MAX_RSS_MB": "1"}  # every worker is past it after its first request
    port = free_port()
    with servers.gunicorn("companion:create_app()", port, env, ready="/api/v1/games", error_log=errors):
        url = f"http://127.0.0.1:{port}/api/v1/games"
        deadline = time.monotonic() + 120
        while True:  # the first worker said so, left, and a second one answers
            assert get(url) == 200
            log = errors.read_text(errors="replace")
            booted = re.findall(r"Booting worker with pid: (\d+)", log)
            if len(set(booted)) >= 2 and "WORKER_MAX_RSS_MB" in log:
                break
            assert time.monotonic() < deadline, log
    recycled = re.search(r"Worker (\d+) holds (\d+) MB, past its (\d+) MB \(WORKER_MAX_RSS_MB\)", log)
    assert recycled, log
    assert int(recycled.group(2)) > int(recycled.group(3)) >= 0 and recycled.group(1) == booted[0]
    assert "Traceback" not in log


def test_malloc_arenas_are_limited_unless_glibc_is_told_otherwise(monkeypatch):
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")  # the administrator's word: left to glibc
    assert workers.limit_malloc_arenas() is False
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    if platform.libc_ver()[0] == "glibc":
        assert workers.limit_malloc_arenas() is True
