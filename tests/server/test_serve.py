"""`make run` as a table uses it: the real command line starts gunicorn on every interface, prints the
address the phones open and its QR code, and takes the next port when its own is busy. Loopback
addresses only: a server on every interface answers on 127.0.0.2, one kept to 127.0.0.1 does not."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.games import i18n
from companion.server import front
from companion.server.lan import Interface
from companion.server.serve import addresses_for, banner
from document_helpers import load_example
from qrdecode import decode, terminal_to_png

ROOT = Path(__file__).resolve().parent.parent.parent
QR_LINE = re.compile(r"^[█▀▄ ]{20,}$")
SGR = re.compile(r"\x1b\[[0-9;]*m")


def is_qr_line(line: str) -> bool:
    """A line of the terminal's QR code: half blocks only, once its colour sequences are set aside."""
    return bool(QR_LINE.match(SGR.sub("", line)))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Served:
    """`make run` in its own process group, read until its banner says it is ready."""

    def __init__(self, tmp_path: Path, ready: str = "Ctrl+C", **env: str):
        environ = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "HOST")}
        environ.update(COMPANION_INSTANCE=str(tmp_path / "instance"), WEB_CONCURRENCY="1",
                       GUNICORN_THREADS="4", LANG="fr_FR.UTF-8", **env)
        self.proc = subprocess.Popen(["make", "-s", "--no-print-directory", "run"], cwd=ROOT, env=environ,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        self.lines: list[str] = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.lines.append(line.rstrip("\n"))
            if ready in line:
                return
        self.stop()
        pytest.fail("make run never said it was ready:\n" + "\n".join(self.lines))

    def rest(self, within: float = 90) -> str:
        """What is still written to the terminal until every writer is gone (bounded)."""
        rest, deadline = [], time.monotonic() + within
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.proc.stdout], [], [], deadline - time.monotonic())
            line = self.proc.stdout.readline() if readable else ""
            if not line:
                break
            rest.append(line)
        return "".join(rest)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


def get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 - loopback only
        return response.status


@pytest.fixture
def served(tmp_path):
    started: list[Served] = []

    def start(**env: str) -> Served:
        server = Served(tmp_path, **env)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def qr_block(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if is_qr_line(line))


def test_the_banner_names_every_address_and_draws_the_first(tmp_path):
    phones = [Interface("wlan0", "192.168.1.20"), Interface("eth0", "10.0.0.5")]
    text = banner("0.0.0.0", 5000, phones)
    assert re.search(r"^  http://192\.168\.1\.20:5000 +\(wlan0\)$", text, flags=re.M)
    assert re.search(r"^  http://10\.0\.0\.5:5000 +\(eth0\)$", text, flags=re.M)
    for theme in ("light", "dark"):  # macOS's Terminal and many others are light; others dark
        png = terminal_to_png(qr_block(text), tmp_path / f"qr-{theme}.png", theme=theme)
        assert decode(png) == ["http://192.168.1.20:5000"], theme
    assert "Sur cette machine : http://127.0.0.1:5000" in text


def test_the_banner_with_one_address_needs_no_label_and_with_none_says_so():
    one = banner("0.0.0.0", 5000, [Interface("wlan0", "192.168.1.20")])
    assert "  http://192.168.1.20:5000\n" in one and "(wlan0)" not in one
    none = banner("0.0.0.0", 5000, [])
    assert "Aucune adresse réseau trouvée" in none and not qr_block(none)


def test_the_banner_in_english():
    with i18n.using("en"):
        text = banner("0.0.0.0", 5000, [Interface("wlan0", "192.168.1.20")])
    assert "On the table's phones" in text and "Ctrl+C to stop." in text


def test_addresses_for_each_kind_of_host():
    found = lambda: [Interface("lo", "127.0.0.1"), Interface("wlan0", "192.168.1.20")]  # noqa: E731
    assert addresses_for("0.0.0.0", found) == [Interface("wlan0", "192.168.1.20")]
    assert addresses_for("127.0.0.1", found) == []
    assert addresses_for("192.168.1.20", found) == [Interface("", "192.168.1.20")]


def test_make_run_serves_the_room_and_prints_the_address_as_a_qr_code(served, tmp_path):
    port = free_port()
    server = served(PORT=str(port))
    # Bound to every interface: another loopback address reaches it, as a phone reaches the laptop.
    assert get(f"http://127.0.0.2:{port}/") == 200
    assert get(f"http://127.0.0.1:{port}/") == 200
    assert f"Sur cette machine : http://127.0.0.1:{port}" in server.text
    urls = re.findall(rf"^\s+(http://[\d.]+:{port})\b", server.text, flags=re.M)
    block = qr_block(server.text)
    if urls:  # a machine with a network: the first address, drawn as a code a phone can read
        assert not any(u.startswith("http://127.") for u in urls)
        # The laptop's own page (through nginx when there is one) links to that address, port included.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as response:  # noqa: S310
            assert f"{urls[0]}/".encode() in response.read()
        assert block, server.text
        for theme in ("light", "dark"):
            png = terminal_to_png(block, tmp_path / f"terminal-qr-{theme}.png", theme=theme)
            assert decode(png) == [urls[0]], theme
    else:  # a machine with no network at all (a sandbox): it says so rather than print a useless code
        assert "Aucune adresse réseau trouvée" in server.text
    assert "Traceback" not in server.text and "debug" not in server.text.lower()


def test_host_127_0_0_1_keeps_it_to_this_machine(served):
    port = free_port()
    server = served(PORT=str(port), HOST="127.0.0.1")
    assert get(f"http://127.0.0.1:{port}/") == 200
    with pytest.raises(urllib.error.URLError) as refused:
        get(f"http://127.0.0.2:{port}/")
    assert isinstance(refused.value.reason, ConnectionRefusedError)
    assert "Réservé à cette machine (HOST=127.0.0.1)" in server.text
    assert not any(is_qr_line(line) for line in server.lines), "no code for an address no phone can open"


def test_a_busy_port_is_said_in_one_line_and_the_next_free_one_taken(served):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        server = served(PORT=str(port), HOST="127.0.0.1")
        said = [line for line in server.lines if f"port {port}" in line]
        assert len(said) == 1, server.text
        # the next free port: port + 1 unless something else on the machine holds it too
        taken = re.search(r"le compagnon prend le port (\d+)", said[0])
        assert taken and int(taken.group(1)) > port, said[0]
        assert get(f"http://127.0.0.1:{taken.group(1)}/") == 200
        assert "Traceback" not in server.text


def test_an_uncoloured_drawing_reads_only_on_a_dark_terminal(tmp_path):
    """The check above is a real one: a code drawn without colours (light modules as blocks, as
    before) is found on a dark terminal's picture and not on a light one's, where it shows inverted."""
    import io

    import segno

    out = io.StringIO()
    segno.make("http://192.168.1.20:5000", error="m").terminal(out=out, compact=True, border=4)
    plain = out.getvalue()
    assert decode(terminal_to_png(plain, tmp_path / "plain-dark.png", theme="dark")) == ["http://192.168.1.20:5000"]
    assert decode(terminal_to_png(plain, tmp_path / "plain-light.png", theme="light")) == []


# --- Slow clients and restarts -------------------------------------------------------------------

SLOW = 200
PAUSE = 1.0  # seconds between two bytes of a slow client, as measured in issue 30
UNDER_ATTACK_WITHIN = 3.0  # seconds for a normal request beside them (issue 30's bound)


def needs_nginx() -> None:
    if front.binary() is None:
        pytest.fail("nginx is missing: `make run` and `make test` install Debian's nginx package")


class Tricklers(threading.Thread):
    """Slow clients in one thread: each sent its first bytes, then sends one more every PAUSE s."""

    def __init__(self, port: int, heads: list[bytes], tails: list[bytes]):
        super().__init__(daemon=True)
        self.socks = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in heads]
        for sock, head in zip(self.socks, heads, strict=True):
            sock.sendall(head)
        self.tails = tails
        self.stop = threading.Event()
        self.rounds = 0
        self.ticked = threading.Condition()

    def run(self):
        while not self.stop.wait(PAUSE):
            for sock, tail in zip(self.socks, self.tails, strict=True):
                with contextlib.suppress(OSError):
                    sock.sendall(tail[self.rounds % len(tail):][:1])
            with self.ticked:
                self.rounds += 1
                self.ticked.notify_all()

    def next_round(self) -> None:
        """Wait for the slow clients' next byte."""
        with self.ticked:
            seen = self.rounds
            assert self.ticked.wait_for(lambda: self.rounds > seen, timeout=PAUSE + 10)

    def closed_by_server(self, socks: list[socket.socket]) -> int:
        """How many of `socks` the server has closed (a read finds the end, or a reset)."""
        closed = 0
        for sock in socks:
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                try:
                    sock.setblocking(False)
                    while data := sock.recv(4096):
                        if not data:
                            break
                    closed += 1
                except BlockingIOError:
                    pass
                except OSError:
                    closed += 1
        return closed

    def close(self):
        self.stop.set()
        self.join(PAUSE + 5)
        for sock in self.socks:
            sock.close()


def timed(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes, float]:
    """One request on a new connection, its own timeout the issue's bound; status, body, seconds."""
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=UNDER_ATTACK_WITHIN)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        res = conn.getresponse()
        return res.status, res.read(), time.monotonic() - start
    finally:
        conn.close()


def test_make_run_answers_beside_two_hundred_slow_sockets(served):
    """Issue 30: 100 sockets sending their headers a byte a second and 100 sending a body as slowly
    stopped `make run` (gunicorn alone). Behind its nginx, a GET and a POST still answer within 3 s,
    and a header that never ends is cut (nginx's 10-s deadline for the whole header)."""
    needs_nginx()
    port = free_port()
    server = served(PORT=str(port), HOST="127.0.0.1")
    assert "nginx" not in server.text  # nginx was found and started: nothing to say about it
    body = json.dumps(load_example("revive-abyss.json")).encode()
    slow_body = (f"POST /api/v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(body)}\r\n\r\n").encode()
    heads = [b"GET /api/v1/games HTTP/1.1\r\n"] * (SLOW // 2) + [slow_body] * (SLOW // 2)
    tails = [b"X-Slow: " + b"a" * 4000] * (SLOW // 2) + [body] * (SLOW // 2)
    slow = Tricklers(port, heads, tails)
    slow.start()
    headers_only, bodies = slow.socks[:SLOW // 2], slow.socks[SLOW // 2:]
    try:
        worst = 0.0
        slow.next_round()
        assert slow.closed_by_server(slow.socks) == 0, "every slow client is there"
        while slow.rounds < 5:  # more bytes from each slow client meanwhile
            status, answer, took = timed(port, "GET", "/api/v1/games")
            assert status == 200 and b"revive" in answer
            worst = max(worst, took)
            status, answer, took = timed(port, "POST", "/api/v1/score", body)
            assert status == 200 and json.loads(answer)["winners"] == ["Maëlle"]
            worst = max(worst, took)
            slow.next_round()
        assert slow.closed_by_server(bodies) == 0, "the slow bodies were still coming"
        print(f"\nbeside {SLOW} slow sockets: worst GET/POST {worst:.3f} s")
        # The headers' deadline: sockets still sending a header byte a second are cut within ~10 s.
        deadline = time.monotonic() + 30
        while slow.closed_by_server(headers_only) < len(headers_only) and time.monotonic() < deadline:
            slow.next_round()
        assert slow.closed_by_server(headers_only) == len(headers_only)
        status, _, _ = timed(port, "GET", "/api/v1/games")
        assert status == 200
    finally:
        slow.close()


@pytest.mark.parametrize("proxy", ["nginx", "gunicorn alone"])
def test_a_restart_comes_back_on_its_port_after_the_master_died_while_a_worker_warmed_up(
        served, tmp_path, proxy):
    """Issue 30: the master killed while a fresh worker warms up (WeasyPrint) left that worker on the
    port for half a minute, and `make run` started again moved to the next port: every link and
    code the phones held pointed at nothing. Now the port comes back, with or without nginx."""
    if proxy == "nginx":
        needs_nginx()
    env = {"GUNICORN_LOG_LEVEL": "info"} | ({} if proxy == "nginx" else {"COMPANION_NGINX": ""})
    port = free_port()
    first = Served(tmp_path, ready="Booting worker with pid", PORT=str(port), **env)
    try:
        worker = int(re.search(r"Booting worker with pid: (\d+)", first.text).group(1))
        master = int(Path(f"/proc/{worker}/stat").read_text().rsplit(")", 1)[1].split()[1])
        os.kill(master, signal.SIGKILL)  # the worker is loading the app and warming WeasyPrint
        first.proc.wait(10)
        second = served(PORT=str(port), **env)
        rest = first.rest()  # until the orphaned worker is gone: it left without serving
        assert "Master gone while this worker started" in rest, rest
        assert "Le compagnon est prêt" not in rest  # no banner for a server that is not there
        assert "déjà pris" not in second.text, second.text
        assert f"Sur cette machine : http://127.0.0.1:{port}" in second.text
        assert get(f"http://127.0.0.1:{port}/") == 200
        if proxy == "gunicorn alone":  # said, for a server on the room's Wi-Fi
            assert "nginx est absent" in second.text
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(first.proc.pid, signal.SIGKILL)


def test_a_port_held_by_this_clones_dead_run_is_waited_for_and_another_programs_is_not(
        tmp_path, monkeypatch, capsys):
    """choose_port: the record of a run whose master is dead names its nginx, which is stopped, and
    the port comes back; a port whose holder is no such leftover moves to the next one."""
    from companion.server import serve

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    folder = tmp_path / "companion-serve-left"
    # A leftover holding the port, its command line naming its run's folder, as nginx's does.
    holder = subprocess.Popen(
        [sys.executable, "-c", "import socket, sys; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, "
         "socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1', 0)); s.listen(); print(s.getsockname()[1], "
         "flush=True); sys.stdin.read()", str(folder)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = int(holder.stdout.readline())
        gone = subprocess.Popen(["true"])  # its process id: a master no longer running
        gone.wait()
        assert serve.choose_port("127.0.0.1", port) > port
        assert "un autre programme" in capsys.readouterr().out  # no record: another program's port
        serve.record_of(port).parent.mkdir(parents=True)
        serve.record_of(port).write_text(json.dumps({"master": gone.pid, "nginx": holder.pid,
                                                     "folder": str(folder)}))
        assert serve.choose_port("127.0.0.1", port) == port
        said = capsys.readouterr().out
        assert f"Le port {port} est encore tenu par le compagnon lancé avant" in said
        assert "un autre programme" not in said
        assert holder.wait(10) == -signal.SIGTERM
    finally:
        holder.kill()
        holder.wait(10)
