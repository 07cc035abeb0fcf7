"""gunicorn's HTTP/1 response, its head sent with the body's first bytes (issue 33).

gunicorn writes a response's status line and headers in one `send`, then its body in another: two
system calls and two TCP segments for an autosave's answer of a few hundred bytes, each waking the
phone's side once. Profiled under 150 tables of four phones, those sends were 5 % of a worker's time.
`OneSendResponse` keeps the head back until the body's first bytes are written and sends both at
once. Everything else goes as gunicorn sends it: a chunked or streamed body after its head, an
empty body, a file (`sendfile`), a response with no body (HEAD, 204, 304): the head is sent alone
the moment there is nothing to join it to.

`install()` makes it the response gunicorn builds for each request of this process
(`gunicorn.http.wsgi.create` takes the module's `Response`); the loop worker calls it as it starts.
"""

from __future__ import annotations

from gunicorn import util
from gunicorn.http import wsgi


class OneSendResponse(wsgi.Response):
    """A response whose head waits for the first bytes of its body, then goes with them."""

    _holding = False  # within the first `write`: the head is kept, not sent
    _head = b""

    def write(self, arg):
        if self.headers_sent or self.chunked or not arg or not isinstance(arg, bytes):
            return super().write(arg)
        self._holding = True
        try:
            super().write(arg)  # its `send_headers` keeps the head, its `_emit_body` sends both
        finally:
            self._holding = False
            self._flush_head()  # a body gunicorn chose not to send (no-body status, past its length)

    def send_headers(self):
        if self.headers_sent or not self._holding:
            return super().send_headers()
        head = self.default_headers()  # as gunicorn's `send_headers` builds it
        head.extend([f"{k}: {v}\r\n" for k, v in self.headers])
        self._head = util.to_bytestring("".join(head) + "\r\n", "latin-1")
        self.headers_sent = True
        return None

    def _emit_body(self, data):
        head, self._head = self._head, b""
        if head:
            util.write(self.sock, head + data)  # never chunked here (`write`)
        else:
            super()._emit_body(data)

    def _flush_head(self) -> None:
        head, self._head = self._head, b""
        if head:
            util.write(self.sock, head)


def install() -> None:
    """Every response gunicorn builds in this process from now on is a `OneSendResponse`."""
    wsgi.Response = OneSendResponse
