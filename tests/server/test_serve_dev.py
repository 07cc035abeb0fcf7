"""`make dev` says the app is ready only once it answers: its banner waits for the development server
to answer its own address (on a busy machine, importing the app and its first page took a minute
after the server had started). Loopback only; every wait bounded."""

from __future__ import annotations

import http.server
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from companion.server.serve import answers, wait_until_answering

ROOT = Path(__file__).resolve().parent.parent.parent
CEILING = 300  # seconds: how long the development server may take on a busy machine (a ceiling)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Loading(http.server.BaseHTTPRequestHandler):
    """A server still loading its app: it drops the first probes' connections without an answer,
    then answers. `probes` counts what it was asked."""

    probes: list[str] = []
    silent = 2

    def do_GET(self):  # noqa: N802 - http.server's name
        self.probes.append(self.path)
        if len(self.probes) <= self.silent:
            self.close_connection = True
            return
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


@pytest.fixture
def child():
    """A stand-in for the development server's process: running until the test ends."""
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    yield proc
    proc.stdin.close()
    proc.wait(timeout=30)


def test_ready_only_once_the_app_answers_not_when_its_port_accepts(child):
    Loading.probes = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Loading)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        assert not answers("127.0.0.1", port, timeout=5)  # accepted, dropped: not an answer
        assert wait_until_answering("127.0.0.1", port, child, within=CEILING, every=0.01)
        assert Loading.probes == ["/", "/", "/"]  # its home page, asked until it answered
    finally:
        server.shutdown()
        server.server_close()


def test_a_port_that_accepts_and_never_answers_is_not_ready(child):
    with socket.socket() as mute:
        mute.bind(("127.0.0.1", 0))
        mute.listen(16)  # the kernel completes the connections; nothing ever answers them
        port = mute.getsockname()[1]
        assert not wait_until_answering("127.0.0.1", port, child, within=1.0)  # each probe bounded
        assert child.poll() is None


def test_a_server_that_exits_is_not_waited_for():
    gone = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    assert not wait_until_answering("127.0.0.1", free_port(), gone, within=CEILING)
    assert gone.returncode == 3


def test_make_dev_prints_its_banner_once_the_home_page_answers(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "HOST")}
    env.update(COMPANION_INSTANCE=str(tmp_path / "instance"), LANG="fr_FR.UTF-8", FLASK_APP="companion")
    subprocess.run([sys.executable, "-m", "flask", "--app", "companion", "db", "upgrade"], cwd=ROOT, env=env,
                   check=True, capture_output=True, timeout=CEILING)
    proc = subprocess.Popen([sys.executable, "-m", "companion.server.serve", "--dev", "--host", "127.0.0.1",
                             "--port", str(port)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        said: queue.Queue[str] = queue.Queue()  # its lines, read as they come (a reader thread)
        threading.Thread(target=lambda: [said.put(line) for line in proc.stdout] + [said.put("")],
                         daemon=True).start()
        lines, deadline = [], time.monotonic() + CEILING
        while not any("Ctrl+C" in line for line in lines):
            try:
                line = said.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if not line:
                break
            lines.append(line)
        text = "".join(lines)
        assert "Le compagnon est prêt." in text and f"http://127.0.0.1:{port}" in text, text
        # Said once it answers: the page is there when the banner is.
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(f"http://127.0.0.1:{port}/", timeout=30) as response:
            assert response.status == 200
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
