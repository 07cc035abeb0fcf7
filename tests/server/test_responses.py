"""companion.server.responses: a response's head goes out with its body's first bytes, in one send
(an autosave's answer: one segment, one wake-up of the phone's side); every other shape of response
is sent as gunicorn sends it. Each request is parsed by gunicorn's own parser, its response built by
gunicorn's own `create`, and what reaches the socket is recorded."""

from __future__ import annotations

import socket

import pytest
from gunicorn.config import Config
from gunicorn.http import RequestParser, wsgi

from companion.server import responses


class Recorder:
    """The connection as the response sees it: each `sendall` kept apart."""

    def __init__(self):
        self.sent: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.sent.append(bytes(data))

    def send(self, data: bytes) -> int:
        self.sent.append(bytes(data))
        return len(data)

    def sendfile(self, file, offset=0, count=None):
        self.sent.append(b"<file>" + file.read(count))


@pytest.fixture
def respond(monkeypatch):
    monkeypatch.setattr(wsgi, "Response", wsgi.Response)  # install() below is undone after the test
    responses.install()

    def respond(method: str, status: str, headers: list[tuple[str, str]], body: list[bytes],
                version: str = "1.1") -> list[bytes]:
        reader, writer = socket.socketpair()
        with reader, writer:
            writer.sendall(f"{method} /g/x/save HTTP/{version}\r\nHost: t\r\n\r\n".encode())
            cfg = Config()
            req = next(RequestParser(cfg, reader, ("127.0.0.1", 1)))
            sock = Recorder()
            resp, environ = wsgi.create(req, sock, ("127.0.0.1", 1), "127.0.0.1:8000", cfg)
            assert isinstance(resp, responses.OneSendResponse)
            resp.start_response(status, headers)
            for part in body:
                resp.write(part)
            resp.close()
            return sock.sent

    return respond


def test_a_small_answer_goes_in_one_send_head_first(respond):
    answer = b'{"ok":true,"totals":[41,38,35,30]}'
    sent = respond("POST", "200 OK", [("Content-Type", "application/json"),
                                      ("Content-Length", str(len(answer)))], [answer])
    assert len(sent) == 1
    head, _, body = sent[0].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK\r\n")
    assert b"Content-Length: %d" % len(answer) in head
    assert body == answer


def test_the_rest_of_a_body_follows_as_it_comes(respond):
    sent = respond("GET", "200 OK", [("Content-Length", "9")], [b"abc", b"def", b"ghi"])
    assert len(sent) == 3
    assert sent[0].endswith(b"\r\n\r\nabc") and sent[1:] == [b"def", b"ghi"]


def test_a_streamed_body_sends_its_head_then_its_chunks(respond):
    sent = respond("GET", "200 OK", [("Content-Type", "text/csv")], [b"a;b\n", b"1;2\n"])
    assert sent[0].endswith(b"\r\n\r\n") and b"Transfer-Encoding: chunked" in sent[0]
    assert b"".join(sent[1:]) == b"4\r\na;b\n\r\n4\r\n1;2\n\r\n0\r\n\r\n"


@pytest.mark.parametrize(("method", "status", "body"), [
    ("HEAD", "200 OK", [b"page"]),  # no body on the wire, whatever the app writes
    ("GET", "304 Not Modified", [b""]),
    ("GET", "204 No Content", []),
])
def test_a_response_without_a_body_still_sends_its_head_once(respond, method, status, body):
    sent = respond(method, status, [("Content-Length", "4")] if method == "HEAD" else [], body)
    assert len(sent) == 1
    assert sent[0].startswith(b"HTTP/1.1 " + status.encode()) and sent[0].endswith(b"\r\n\r\n")


def test_a_body_past_its_length_is_cut_and_the_head_still_goes(respond):
    sent = respond("GET", "200 OK", [("Content-Length", "2")], [b"okay", b"more"])
    assert b"".join(sent).endswith(b"\r\n\r\nok")
    assert b"".join(sent).count(b"HTTP/1.1") == 1
