"""The documented deployment with its proxy, for real: Debian's nginx with deploy/nginx/companion.conf
in front of gunicorn with gunicorn.conf.py, both on loopback.

Two hundred connections trickling one byte every 5 s (half in their headers, half in their body) are
held by nginx, not by gunicorn's threads: a route still answers within a second, through the proxy.
Every socket is on 127.0.0.1, every wait is bounded, both servers are stopped at the end.
"""

from __future__ import annotations

import gzip
import http.client
import json
import resource
import socket
import threading
import time
from pathlib import Path

import pytest

from app_helpers import make_app
from bench import servers
from companion.extensions import db
from companion.storage import store
from document_helpers import load_example

SLOW = 200
PAUSE = 5.0  # seconds between two bytes of a slow client


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    # The test holds SLOW sockets, nginx twice as many: make sure the limit on open files allows it.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, 4096) if hard != resource.RLIM_INFINITY else 4096
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= SLOW * 3, "too few open files allowed (ulimit -n)"
    tmp = tmp_path_factory.mktemp("proxy")
    database = f"sqlite:///{tmp / 'games.sqlite3'}"
    app = make_app(tmp, SQLALCHEMY_DATABASE_URI=database)
    with app.test_request_context("/"):
        record = store.create("revive", "abyss", ["Maëlle", "Yanis"], ["#c0392b", "#2471a3"])
        db.session.commit()
        edit = record.edit_token
    upstream, port = free_port(), free_port()
    env = {"COMPANION_INSTANCE": str(tmp / "instance"), "DATABASE_URL": database, "TRUSTED_PROXIES": "1",
           "GUNICORN_ACCESS_LOG": str(tmp / "access.log"), "GUNICORN_ERROR_LOG": str(tmp / "error.log")}
    with servers.gunicorn("companion:create_app()", upstream, env, ready="/api/v1/games",
                          error_log=tmp / "error.log"), servers.nginx(port, upstream) as logs:
        yield {"port": port, "logs": logs, "edit": edit}
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: dict | None = None) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        res = conn.getresponse()
        return res.status, dict(res.getheaders()), res.read()
    finally:
        conn.close()


class Tricklers(threading.Thread):
    """`SLOW` slow clients in one thread: each sent its first bytes, then one more every PAUSE s."""

    def __init__(self, port: int, heads: list[bytes], tails: list[bytes]):
        super().__init__(daemon=True)
        self.socks = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in heads]
        for sock, head in zip(self.socks, heads, strict=True):
            sock.sendall(head)
        self.tails = tails
        self.stop = threading.Event()
        self.rounds = 0
        self.open = len(self.socks)

    def run(self):
        while not self.stop.wait(PAUSE):
            open_ = 0
            for sock, tail in zip(self.socks, self.tails, strict=True):
                try:
                    sock.sendall(tail[self.rounds:self.rounds + 1])
                    open_ += 1
                except OSError:
                    pass
            self.rounds += 1
            self.open = open_

    def close(self):
        self.stop.set()
        self.join(PAUSE + 5)
        for sock in self.socks:
            sock.close()


def test_two_hundred_slow_sockets_do_not_stop_the_server(deployment):
    port = deployment["port"]
    body = json.dumps(load_example("revive-abyss.json")).encode()
    slow_body = (f"POST /api/v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(body)}\r\n\r\n").encode()
    heads = [slow_body] * (SLOW // 2) + [b"GET /api/v1/games HTTP/1.1\r\n"] * (SLOW // 2)
    tails = [body] * (SLOW // 2) + [b"X-Slow: " + b"a" * 100] * (SLOW // 2)
    slow = Tricklers(port, heads, tails)
    slow.start()
    try:
        time.sleep(1.0)  # every slow client is connected and has sent its first bytes
        started = time.monotonic()
        worst = 0.0
        while time.monotonic() - started < 2 * PAUSE + 1:  # two bytes from each slow client meanwhile
            start = time.monotonic()
            status, _, answer = request(port, "GET", "/api/v1/games")
            assert status == 200 and b"revive" in answer
            status, _, answer = request(port, "POST", "/api/v1/score", body,
                                        {"Content-Type": "application/json"})
            assert status == 200 and json.loads(answer)["winners"] == ["Maëlle"]
            worst = max(worst, time.monotonic() - start)
            time.sleep(0.3)
        assert worst < 1.0, f"a fast request took {worst:.2f} s beside {SLOW} slow clients"
        assert slow.rounds >= 2 and slow.open == SLOW  # they were all still trickling
    finally:
        slow.close()


def test_the_apps_own_limits_answer_through_the_proxy(deployment):
    """nginx lets through every body the app may accept, so its refusals are the app's (a path and a
    message, in its language), not the proxy's."""
    nine_mb = b"[" + b"0," * 4_500_000 + b"0]"  # the size of a club's export restored from the page
    status, _, answer = request(deployment["port"], "POST", "/api/v1/score", nine_mb,
                                {"Content-Type": "application/json"})
    assert status == 413
    assert json.loads(answer)["errors"][0]["path"] == "document"


def test_the_proxy_passes_the_public_host_and_logs_no_token(deployment):
    port, edit = deployment["port"], deployment["edit"]
    status, _, page = request(port, "GET", f"/g/{edit}/", headers={"Host": "scores.example.org"})
    assert status == 200
    # The Host the phone asked for reached the app (TRUSTED_PROXIES=1): its links name the public host.
    assert f"http://scores.example.org/g/{edit}/".encode() in page
    status, _, _ = request(port, "GET", f"/langue/en?next=/g/{edit}/", headers={"Referer": f"/g/{edit}/"})
    assert status in (302, 303)
    log = Path(deployment["logs"]) / "companion.access.log"
    deadline = time.monotonic() + 5
    while f"/g/{edit[:4]}…/" not in log.read_text(encoding="utf-8") and time.monotonic() < deadline:
        time.sleep(0.1)
    text = log.read_text(encoding="utf-8")
    assert f'"GET /g/{edit[:4]}…/" 200' in text
    assert edit not in text and edit[4:20] not in text


def test_exports_come_compressed_through_the_proxy(deployment):
    """The app streams its exports uncompressed (a generator); nginx compresses them for the phone."""
    port = deployment["port"]
    headers = {"Accept-Encoding": "gzip", "Cookie": "companion_device=" + "d" * 32}
    status, answer_headers, body = request(port, "GET", "/parties/export.csv", headers=headers)
    assert status == 200 and answer_headers.get("Content-Encoding") == "gzip"
    assert gzip.decompress(body).decode("utf-8").startswith("\ufeffgame_id,game,variant")
