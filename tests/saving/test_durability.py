"""Saves on the documented deployment (gunicorn.conf.py, SQLite in WAL mode), for real: two phones
saving one game at the same instant never both win, and a server killed with SIGKILL during saves
keeps every save it acknowledged. Loopback only, bounded rounds and times."""

from __future__ import annotations

import re
import socket
import threading
import time

import pytest
import requests

from app_helpers import make_app
from bench import servers
from bench.bench_pages import form_fields
from bench.bench_revive import documents

DOC = next(iter(documents().values()))
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def input_value(html: str, name: str) -> str:
    tag = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', html).group(0)
    return re.search(r'value="([^"]*)"', tag).group(1)


class Phone:
    """One phone: its own cookies and CSRF token."""

    def __init__(self, host: str, token: str | None = None):
        self.host, self.http = host, requests.Session()
        if token is None:
            page = self.http.get(f"{host}/nouvelle?game=revive&variant=abyss", timeout=30)
            data = {"csrf_token": CSRF.search(page.text).group(1), "game": "revive", "variant": "abyss"}
            data.update({f"players-{i}-name": p["name"] for i, p in enumerate(DOC["players"])})
            made = self.http.post(f"{host}/nouvelle", data=data, allow_redirects=False, timeout=30)
            token = re.search(r"/g/([\w-]+)/", made.headers["Location"]).group(1)
        self.token = token
        self.csrf = CSRF.search(self.http.get(f"{host}/g/{token}/", timeout=30).text).group(1)

    def save(self, version: int, track: int) -> requests.Response:
        data = {**form_fields(DOC, version), "csrf_token": self.csrf, "players-0-track": str(track)}
        return self.http.post(f"{self.host}/g/{self.token}/save", data=data, timeout=30)

    def stored(self) -> tuple[int, str]:
        html = self.http.get(f"{self.host}/g/{self.token}/", timeout=30).text
        return int(input_value(html, "version")), input_value(html, "players-0-track")


@pytest.fixture
def deployment(tmp_path):
    """Start (and restart) gunicorn with the repository's config on one SQLite database."""
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    make_app(tmp_path, SQLALCHEMY_DATABASE_URI=database)  # the schema
    env = {"COMPANION_INSTANCE": str(tmp_path / "instance"), "DATABASE_URL": database,
           "GUNICORN_ACCESS_LOG": "/dev/null", "GUNICORN_ERROR_LOG": str(tmp_path / "error.log")}

    def start(port: int):
        return servers.gunicorn("companion:create_app()", port, env, ready="/api/v1/games",
                                error_log=tmp_path / "error.log")

    return start


def test_two_phones_saving_together_never_both_win(deployment):
    with deployment(free_port()) as host:
        first = Phone(host)
        second = Phone(host, first.token)
        version = 1
        for round_ in range(60):
            barrier = threading.Barrier(2)
            answers = {}

            def send(phone, track, answers=answers, barrier=barrier, version=version):
                barrier.wait(10)
                answers[track] = phone.save(version, track)

            threads = [threading.Thread(target=send, args=(first, 10 + round_ % 40)),
                       threading.Thread(target=send, args=(second, 60 + round_ % 30))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            codes = sorted(r.status_code for r in answers.values())
            assert codes == [200, 409], codes
            winner = next(track for track, r in answers.items() if r.status_code == 200)
            version += 1
            assert first.stored() == (version, str(winner))


def test_acknowledged_saves_survive_kill_9(deployment):
    port = free_port()
    acked: dict[str, tuple[int, str]] = {}
    pending: dict[str, tuple[int, str]] = {}
    stop = threading.Event()

    def phone_loop(phone: Phone):
        version, n = 1, 0
        while not stop.is_set():
            n += 1
            pending[phone.token] = (version + 1, str(n % 90))
            try:
                res = phone.save(version, n % 90)
            except requests.RequestException:
                return  # the server is gone
            if res.status_code != 200:
                return
            version = res.json()["version"]
            acked[phone.token] = (version, str(n % 90))

    with deployment(port) as host:
        phones = [Phone(host) for _ in range(6)]
        threads = [threading.Thread(target=phone_loop, args=(p,)) for p in phones]
        for t in threads:
            t.start()
        time.sleep(3)
        host.kill()  # SIGKILL to the master and every worker, saves in flight
        stop.set()
        for t in threads:
            t.join(30)
    assert len(acked) == len(phones) and all(v[0] > 3 for v in acked.values())
    with deployment(port) as host:
        for phone in phones:
            phone.host = host
            assert phone.stored() in (acked[phone.token], pending[phone.token])
