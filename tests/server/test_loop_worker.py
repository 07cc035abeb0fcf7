"""gunicorn's workers serve from one event loop (companion.server.workers.LoopWorker): a PDF sheet
being laid out, a second of work that never yields, runs in a thread beside the loop
(companion.base.offload), so the same worker answers every other request meanwhile. For real:
gunicorn with gunicorn.conf.py and one worker on loopback, a sheet held in its layout until the test
lets it finish. Every socket is on 127.0.0.1, every wait is bounded, the server is stopped at the end."""

from __future__ import annotations

import socket
import threading

from app_helpers import make_app
from bench import servers
from companion.extensions import db
from companion.storage import store
from tests.server.test_gunicorn import get

HELD_CONF = '''
import os
exec(open({conf!r}, encoding="utf-8").read())
_warm = post_worker_init


def post_worker_init(worker):
    """Warmed as usual; then every sheet's layout calls the test (its signal: the layout started)
    and waits for the test's word on that connection."""
    _warm(worker)
    import _socket  # a plain socket, not gevent's: the layout runs in a thread of its own

    from companion import pdf

    laid_out = pdf._one_page_document

    def held(*args, **kwargs):
        call = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
        call.connect(("127.0.0.1", int(os.environ["DRAW_CALLS"])))
        call.recv(1)
        call.close()
        return laid_out(*args, **kwargs)

    pdf._one_page_document = held
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_sheet_being_laid_out_stops_no_other_request_of_its_worker(tmp_path):
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    app = make_app(tmp_path, SQLALCHEMY_DATABASE_URI=database)
    with app.test_request_context("/"):
        record = store.create("revive", "abyss", ["Maëlle", "Yanis"], ["#c0392b", "#2471a3"])
        db.session.commit()
        edit, view = record.edit_token, record.view_token
    conf = tmp_path / "held.conf.py"
    conf.write_text(HELD_CONF.format(conf=str(servers.ROOT / "gunicorn.conf.py")), encoding="utf-8")
    errors = tmp_path / "error.log"
    calls = socket.create_server(("127.0.0.1", 0))  # where a held layout says it started
    calls.settimeout(60)  # a bound for a broken server, not a budget
    env = {"COMPANION_INSTANCE": str(tmp_path / "instance"), "DATABASE_URL": database,
           "WEB_CONCURRENCY": "1",  # one worker: the sheet and the other requests share its loop
           "GUNICORN_ACCESS_LOG": str(tmp_path / "access.log"), "GUNICORN_ERROR_LOG": str(errors),
           "DRAW_CALLS": str(calls.getsockname()[1])}
    port = free_port()
    with servers.gunicorn("companion:create_app()", port, env, ("-c", str(conf)), ready="/api/v1/games",
                          error_log=errors):
        sheet: dict = {}

        def ask_sheet():
            sheet["answer"] = get(port, f"/r/{view}/sheet.pdf", timeout=120)

        asking = threading.Thread(target=ask_sheet, daemon=True)
        asking.start()
        try:
            layout, _ = calls.accept()  # the worker is inside the sheet's layout
        except TimeoutError:
            raise AssertionError(errors.read_text(errors="replace")) from None
        try:
            # The same worker answers while the layout is held (before, its one thread would be in it).
            assert get(port, "/api/v1/games", timeout=30)[0] == 200
            status, page = get(port, f"/g/{edit}/", timeout=30)
            assert status == 200 and "Maëlle" in page.decode()
            assert asking.is_alive() and "answer" not in sheet  # the sheet is still being laid out
        finally:
            layout.sendall(b"!")  # the layout goes on
            layout.close()
            calls.close()
        asking.join(120)
        status, pdf_bytes = sheet["answer"]
        assert status == 200 and pdf_bytes.startswith(b"%PDF")
    assert "Traceback" not in errors.read_text(errors="replace")
