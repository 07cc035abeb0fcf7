"""The access log's lines: the app's gunicorn logger writes what gunicorn's own would, tokens masked,
while building only the atoms its format names."""

from __future__ import annotations

import datetime
import logging
import runpy
from pathlib import Path

import pytest
from gunicorn.config import Config
from gunicorn.glogging import Logger

from companion.web import logmask

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "AbCdEfGhIjKlMnOpQrStUv"
FORMATS = [
    runpy.run_path(str(ROOT / "gunicorn.conf.py"))["access_log_format"],  # the deployment's
    '"%(r)s" %(s)s %(D)s %({companion.service_us}e)s %({companion.service_cpu_us}e)s',  # bench/load.py's
    '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"',  # gunicorn's default
    "%(m)s %(U)s ?%(q)s %(H)s %(B)s %(T)s %(L)s %(M)s %(p)s %(x)s %()s",  # every plain one, and unknown ones
    '%({User-Agent}i)s %({content-type}o)s %({X-Twice}i)s %({HTTP_X_MISSING}e)s %({remote_addr}e)s',
]


class Response:
    def __init__(self, status="200 OK", sent=312):
        self.status, self.sent = status, sent
        self.headers = [("Content-Type", "application/json"), ("Content-Length", str(sent)),
                        ("X-Frame-Options", "DENY")]


class Request:
    headers = [("HOST", "127.0.0.1:8000"), ("USER-AGENT", 'Phone "quoted" 1.0'), ("X-TWICE", "first"),
               ("X-TWICE", "second"), ("AUTHORIZATION", "Basic YW5hOnNlY3JldA==")]


def environ() -> dict:
    return {"REQUEST_METHOD": "POST", "RAW_URI": f"/g/{TOKEN}/save?x=1", "SERVER_PROTOCOL": "HTTP/1.1",
            "PATH_INFO": f"/g/{TOKEN}/save", "QUERY_STRING": "x=1", "REMOTE_ADDR": "127.0.0.1",
            "HTTP_USER_AGENT": 'Phone "quoted" 1.0', "HTTP_REFERER": f"http://h/r/{TOKEN}/",
            "HTTP_AUTHORIZATION": "Basic YW5hOnNlY3JldA==", "companion.service_us": "1234",
            "companion.service_cpu_us": "987", "wsgi.input": object()}


def logged(kind, fmt: str, folder: Path, response: Response) -> str:
    cfg = Config()
    path = folder / f"{kind.__name__}.log"
    cfg.set("accesslog", str(path))
    cfg.set("errorlog", str(folder / "error.log"))
    cfg.set("access_log_format", fmt)
    log = kind(cfg)
    try:
        log.access(response, Request(), environ(), datetime.timedelta(seconds=1, microseconds=23456))
        for handler in log.access_log.handlers:
            handler.flush()
        return path.read_text(encoding="utf-8")
    finally:
        for handler in [*log.access_log.handlers, *log.error_log.handlers]:
            handler.close()
        logging.getLogger("gunicorn.access").handlers.clear()
        logging.getLogger("gunicorn.access").filters.clear()


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("response", [Response(), Response("404 NOT FOUND", None)], ids=["200", "404"])
def test_a_line_is_what_gunicorn_writes_with_the_tokens_masked(tmp_path, fmt, response):
    ours = logged(logmask.GunicornLogger, fmt, tmp_path, response)
    theirs = logged(Logger, fmt, tmp_path, response)
    assert ours == logmask.mask(theirs) and ours.count("\n") == 1
    assert TOKEN not in ours


def test_only_the_named_atoms_are_built(tmp_path):
    cfg = Config()
    cfg.set("accesslog", str(tmp_path / "access.log"))
    cfg.set("errorlog", str(tmp_path / "error.log"))
    cfg.set("access_log_format", FORMATS[0])
    log = logmask.GunicornLogger(cfg)
    atoms = log.atoms(Response(), Request(), environ(), datetime.timedelta(microseconds=5000))
    assert set(atoms) == {"h", "t", "r", "s", "b", "M", "f", "a"}
    assert atoms["M"] == 5 and atoms["r"] == f"POST /g/{TOKEN}/save?x=1 HTTP/1.1"
