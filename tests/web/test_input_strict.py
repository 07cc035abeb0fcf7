"""JSON that Python reads but the contract refuses: lone surrogates and keys given twice, through
the API (score and tools) and the CLI; always a path and a message, never a 500."""

from __future__ import annotations

import io
import json

import pytest

from companion.cli import main
from document_helpers import load_example

REVIVE = json.dumps(load_example("revive-abyss.json"))
FIRST_TRACK = '"track": 38'


def cli(text: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["score", "-"], stdout=out, stderr=err, stdin=io.StringIO(text))
    return code, out.getvalue(), err.getvalue()


def test_example_still_scores_through_the_strict_reader(client):
    assert FIRST_TRACK in REVIVE
    assert client.post("/api/v1/score", data=REVIVE).status_code == 200


@pytest.mark.parametrize("text, path", [
    (REVIVE.replace('"Ma\\u00eblle"', '"A\\ud800"'), "players[0].name"),
    (REVIVE.replace('"Ma\\u00eblle"', '"\\udc00"'), "players[0].name"),
    (REVIVE.replace('"scyphoz"', '"\\ud800x"', 1), "players[0].\\ud800x"),
    ('{"game": "revive", "\\udfff": 1}', "\\udfff"),
])
def test_lone_surrogate_is_a_422_with_its_path(client, text, path):
    res = client.post("/api/v1/score", data=text, content_type="application/json")
    assert res.status_code == 422, res.get_data(as_text=True)
    errors = res.get_json()["errors"]
    assert path in [e["path"] for e in errors]
    assert any("UTF-16" in e["message"] for e in errors)
    code, out, err = cli(text)
    assert code == 2 and out == ""
    assert any(line.startswith(f"{path}: ") for line in err.splitlines())


def test_a_valid_surrogate_pair_is_text(client):
    text = REVIVE.replace('"Ma\\u00eblle"', '"Ma\\ud83d\\ude00lle"')
    res = client.post("/api/v1/score", data=text)
    assert res.status_code == 200
    assert res.get_json()["players"][0]["name"] == "Ma\U0001f600lle"


def test_duplicate_key_is_refused_with_its_path_not_last_one_wins(client):
    text = REVIVE.replace(FIRST_TRACK, '"track": 999, "track": 48', 1)
    assert json.loads(text)["players"][0]["track"] == 48  # what plain json.loads silently did
    res = client.post("/api/v1/score", data=text)
    assert res.status_code == 422
    assert res.get_json()["errors"] == [{"path": "players[0].track", "message": res.get_json()["errors"][0]
                                         ["message"]}]
    assert "plusieurs fois" in res.get_json()["errors"][0]["message"]
    code, _, err = cli(text)
    assert code == 2 and err.startswith("players[0].track: ") and "plusieurs fois" in err


def test_duplicate_top_level_key(client):
    text = REVIVE.replace('"variant": "abyss"', '"variant": "abyss", "variant": "base"', 1)
    res = client.post("/api/v1/score", data=text)
    assert res.status_code == 422 and res.get_json()["errors"][0]["path"] == "variant"


def test_tool_endpoints_read_strictly_too(client):
    surrogate = '{"variant": "scotland", "players": ["A\\ud800", "Bob"], "city": {"tiles": []}}'
    res = client.post("/api/v1/rebirth/city", data=surrogate)
    assert res.status_code == 422 and res.get_json()["errors"][0]["path"] == "players[0]"
    twice = '{"variant": "scotland", "variant": "ireland", "players": ["Ann", "Bob"], "city": {}}'
    res = client.post("/api/v1/rebirth/city", data=twice)
    assert res.status_code == 422 and res.get_json()["errors"][0]["path"] == "variant"


@pytest.mark.parametrize("text", ["NaN", '{"game": Infinity}', "\udcff", "[1, 2"])
def test_what_is_not_json_is_a_400(client, text):
    res = client.post("/api/v1/score", data=text.encode("utf-8", "surrogatepass"))
    assert res.status_code == 400
    assert res.get_json()["errors"][0]["path"] == "document"


# ------------------------------------------------------------------ bodies without a Content-Length


def chunked(client, data: bytes, path: str = "/api/v1/score"):
    """A body as a server that decodes chunked transfer encoding hands it on (gunicorn, Werkzeug):
    no CONTENT_LENGTH, `wsgi.input_terminated` set. The real server is in test_gunicorn.py."""
    return client.post(path, input_stream=io.BytesIO(data), content_type="application/json",
                       headers={"Transfer-Encoding": "chunked"},
                       environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""})


def padded(size: int) -> bytes:
    """The Revive example as a valid document of `size` bytes (indentation, as an editor may save)."""
    body = REVIVE.encode()
    return body[:-1] + b" " * (size - len(body)) + b"}"


def test_chunked_document_of_300_kb_is_read_whole(client, app):
    data = padded(300_000)
    assert len(data) == 300_000 < app.config["MAX_CONTENT_LENGTH"]
    res = chunked(client, data)
    assert res.status_code == 200, res.get_data(as_text=True)
    assert res.get_json()["winners"] == ["Maëlle"]


def test_chunked_body_past_the_limit_is_a_413(client, app):
    limit = app.config["MAX_CONTENT_LENGTH"]
    res = chunked(client, padded(limit + 1))
    assert res.status_code == 413
    assert res.get_json()["errors"][0]["path"] == "document"
    assert chunked(client, padded(limit)).status_code == 200  # the limit itself is allowed


def test_chunked_form_past_the_limit_is_a_413_page(client, app):
    res = client.post("/nouvelle", input_stream=io.BytesIO(b"game=revive&x=" + b"a" * 400_000),
                      content_type="application/x-www-form-urlencoded",
                      headers={"Transfer-Encoding": "chunked"},
                      environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""})
    assert res.status_code == 413
    assert "Trop volumineux" in res.get_data(as_text=True)


def test_the_gate_lets_only_a_few_requests_work_at_once():
    """companion.web.limits.RequestGate: bodies are read first, then at most `active` requests run."""
    import threading
    import time

    from companion.web.limits import RequestGate

    running, peak, lock = [0], [0], threading.Lock()

    def slow_app(environ, start_response):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.05)
        body = environ["wsgi.input"].read()
        with lock:
            running[0] -= 1
        start_response("200 OK", [])
        return [body]

    gate = RequestGate(slow_app, limit=100, active=2)
    answers = []

    def call():
        environ = {"wsgi.input": io.BytesIO(b"hello"), "CONTENT_LENGTH": "5", "REQUEST_METHOD": "POST"}
        answers.append(b"".join(gate(environ, lambda *a: None)))

    threads = [threading.Thread(target=call) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert answers == [b"hello"] * 8
    assert peak[0] == 2


def test_the_gate_reads_an_upload_larger_than_the_document_limit_ahead():
    """A view may allow a larger body (an upload): it is read before the app runs, from memory
    or a temporary file; a body past BUFFERED_MAX is left to the app (which answers 413)."""
    from companion.web.limits import BUFFERED_MAX, RequestGate

    seen = {}

    def app(environ, start_response):
        seen["length"] = environ["CONTENT_LENGTH"]
        seen["body"] = environ["wsgi.input"].read()
        start_response("200 OK", [])
        return [b""]

    class Trickle(io.BytesIO):
        """Counts reads, so that the test knows the gate read the body before the app ran."""

        reads = 0

        def read(self, n=-1):
            Trickle.reads += 1
            return super().read(n)

    gate = RequestGate(app, limit=1000, active=2)
    upload = b"x" * (3 * 1024 * 1024)
    gate({"wsgi.input": Trickle(upload), "CONTENT_LENGTH": str(len(upload))}, lambda *a: None)
    assert seen["body"] == upload and seen["length"] == str(len(upload))
    assert Trickle.reads > 1  # read ahead in pieces by the gate

    huge = {"wsgi.input": io.BytesIO(b"y"), "CONTENT_LENGTH": str(BUFFERED_MAX + 1)}
    gate(huge, lambda *a: None)
    assert seen["length"] == str(BUFFERED_MAX + 1)  # untouched: Werkzeug refuses it by its length
