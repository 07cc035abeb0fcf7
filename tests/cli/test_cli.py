"""`python -m companion score FILE|-`: result on standard output, errors on standard error, exit 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from companion.cli import main


def run(argv, stdin_text=None):
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=io.StringIO(stdin_text or ""))
    return code, out.getvalue(), err.getvalue()


DOC = {"game": "dice", "variant": "base",
       "players": [{"name": "Alice", "points": 3}, {"name": "Bob", "points": 5}]}


def test_score_a_file(tmp_path, dice):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(DOC), encoding="utf-8")
    code, out, err = run(["score", str(path)])
    assert code == 0 and err == ""
    assert json.loads(out)["winners"] == ["Bob"]


def test_score_standard_input(dice):
    code, out, _ = run(["score", "-"], json.dumps(DOC))
    assert code == 0 and json.loads(out)["ranking"][0]["players"] == ["Bob"]


def test_invalid_document_prints_path_and_message_and_exits_2(dice):
    bad = json.loads(json.dumps(DOC))
    bad["players"][1]["points"] = -1
    bad["players"][0]["colour"] = "red"
    code, out, err = run(["score", "-"], json.dumps(bad))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert any(line.startswith("players[1].points: ") for line in lines)
    assert any(line.startswith("players[0].colour: clé inconnue") for line in lines)


def test_not_json_and_missing_file(tmp_path):
    code, _, err = run(["score", "-"], "{oops")
    assert code == 2 and err.startswith("document: ") and "ligne 1" in err
    code, _, err = run(["score", str(tmp_path / "absent.json")])
    assert code == 2 and "introuvable" in err


def test_module_entry_point_runs(tmp_path):
    """The real `python -m companion`, as a user types it."""
    path = tmp_path / "bad.json"
    path.write_text('{"game": "chess"}', encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "companion", "score", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.startswith("game: jeu inconnu")
