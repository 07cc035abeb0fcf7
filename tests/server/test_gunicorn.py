"""The documented deployment, for real: gunicorn with the repository's gunicorn.conf.py on loopback.

Slow clients (trickling their headers or their body) must not stop the server, chunked bodies meet
the size limit, and the access log never holds a game's token. Every socket here is on 127.0.0.1,
every wait is bounded, and the server is stopped at the end of the module.
"""

from __future__ import annotations

import http.client
import json
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

BODY_TIMEOUT = 2  # seconds: GUNICORN_BODY_TIMEOUT for this server, so that a stalled body is dropped soon


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gunicorn")
    database = f"sqlite:///{tmp / 'games.sqlite3'}"
    app = make_app(tmp, SQLALCHEMY_DATABASE_URI=database)
    with app.test_request_context("/"):
        record = store.create("revive", "abyss", ["Maëlle", "Yanis"], ["#c0392b", "#2471a3"])
        db.session.commit()
        tokens = (record.edit_token, record.view_token)
    port = free_port()
    env = {"COMPANION_INSTANCE": str(tmp / "instance"), "DATABASE_URL": database,
           "GUNICORN_ACCESS_LOG": str(tmp / "access.log"), "GUNICORN_ERROR_LOG": str(tmp / "error.log"),
           "GUNICORN_BODY_TIMEOUT": str(BODY_TIMEOUT)}
    with servers.gunicorn("companion:create_app()", port, env, ready="/api/v1/games",
                          error_log=tmp / "error.log"):
        yield {"port": port, "tmp": tmp, "edit": tokens[0], "view": tokens[1]}


def get(port: int, path: str, timeout: float = 10) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        res = conn.getresponse()
        return res.status, res.read()
    finally:
        conn.close()


def post_chunked(port: int, path: str, data: bytes) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        chunks = (data[i:i + 16384] for i in range(0, len(data), 16384))
        conn.request("POST", path, body=chunks, encode_chunked=True,
                     headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
        res = conn.getresponse()
        return res.status, res.read()
    finally:
        conn.close()


class Trickler(threading.Thread):
    """One slow client: sends `head`, then one byte of `tail` every `pause` seconds until stopped."""

    def __init__(self, port: int, head: bytes, tail: bytes, pause: float, stop: threading.Event):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.head, self.tail, self.pause, self.stop = head, tail, pause, stop
        self.sent = 0

    def run(self):
        try:
            self.sock.sendall(self.head)
            for byte in self.tail:
                if self.stop.wait(self.pause):
                    break
                self.sock.sendall(bytes([byte]))
                self.sent += 1
        except OSError:
            pass
        finally:
            self.sock.close()


def test_slow_clients_do_not_stop_the_server(server):
    port = server["port"]
    stop = threading.Event()
    body = json.dumps(load_example("revive-abyss.json")).encode()
    slow_body = (f"POST /api/v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(body)}\r\n\r\n").encode()
    clients = [Trickler(port, slow_body, body, 0.2, stop) for _ in range(6)]
    clients += [Trickler(port, b"GET /api/v1/games HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n" * 20, 0.2, stop)
                for _ in range(6)]
    for c in clients:
        c.start()
    try:
        time.sleep(1.0)  # every slow client is now inside the server
        for _ in range(5):
            start = time.monotonic()
            status, _ = get(port, "/api/v1/games")
            elapsed = time.monotonic() - start
            assert status == 200
            assert elapsed < 1.0, f"the fast route took {elapsed:.2f} s beside 12 slow clients"
        assert all(c.sent > 0 and c.is_alive() for c in clients)  # they were still trickling
    finally:
        stop.set()
        for c in clients:
            c.join(5)


def test_a_stalled_body_is_dropped_after_the_body_timeout(server):
    sock = socket.create_connection(("127.0.0.1", server["port"]), timeout=BODY_TIMEOUT + 10)
    with sock:
        sock.sendall(b"POST /api/v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{")
        start = time.monotonic()
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
        elapsed = time.monotonic() - start
    assert elapsed < BODY_TIMEOUT + 5
    assert not answer.startswith(b"HTTP/1.1 200")


def test_headers_trickled_past_the_keepalive_are_cut(server):
    """Without nginx in front, a socket that never finishes its headers holds a greenlet of gunicorn's
    event loop until `keepalive` (5 s, gunicorn.conf.py) has passed, then is closed unanswered."""
    stop = threading.Event()
    slow = Trickler(server["port"], b"GET /api/v1/games HTTP/1.1\r\n", b"X-Slow: 1\r\n" * 200, 0.25, stop)
    slow.sock.settimeout(30)
    start = time.monotonic()
    slow.start()
    try:
        slow.join(30)  # it ends when the server closes the connection (its next byte fails)
        elapsed = time.monotonic() - start
        assert not slow.is_alive(), "the trickling headers were still read after 30 s"
        assert 4 < elapsed < 30 and slow.sent < len(b"X-Slow: 1\r\n" * 200)
    finally:
        stop.set()
        slow.join(5)


def test_chunked_bodies_meet_the_limit(server):
    port = server["port"]
    body = json.dumps(load_example("revive-abyss.json")).encode()
    valid = body[:-1] + b" " * (300_000 - len(body)) + b"}"
    status, answer = post_chunked(port, "/api/v1/score", valid)
    assert status == 200 and json.loads(answer)["winners"] == ["Maëlle"]
    status, answer = post_chunked(port, "/api/v1/score", b"[" + b"0," * 250_000 + b"0]")
    assert status == 413 and json.loads(answer)["errors"][0]["path"] == "document"


def test_access_log_masks_the_tokens(server):
    port, edit, view = server["port"], server["edit"], server["view"]
    assert get(port, f"/g/{edit}/")[0] == 200
    assert get(port, f"/r/{view}/sheet.pdf")[0] == 200
    log = Path(server["tmp"] / "access.log")
    deadline = time.monotonic() + 5
    while f"/r/{view[:4]}…/sheet.pdf" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    text = log.read_text()
    assert f'"GET /g/{edit[:4]}…/ HTTP/1.1" 200' in text
    assert f"/r/{view[:4]}…/sheet.pdf" in text
    assert edit not in text and view not in text
    assert edit[4:20] not in text and view[4:20] not in text
