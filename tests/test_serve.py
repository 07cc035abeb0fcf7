"""`make run` as a table uses it: the real command line starts gunicorn on every interface, prints the
address the phones open and its QR code, and takes the next port when its own is busy. Loopback
addresses only: a server on every interface answers on 127.0.0.2, one kept to 127.0.0.1 does not."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.games import i18n
from companion.lan import Interface
from companion.serve import addresses_for, banner
from qrdecode import decode, terminal_to_png

ROOT = Path(__file__).resolve().parent.parent
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

    def __init__(self, tmp_path: Path, **env: str):
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
            if line.startswith("Ctrl+C"):
                return
        self.stop()
        pytest.fail("make run never said it was ready:\n" + "\n".join(self.lines))

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
        assert len(said) == 1 and f"le compagnon prend le port {port + 1}" in said[0], server.text
        assert get(f"http://127.0.0.1:{port + 1}/") == 200
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
