"""`python -m companion sheet FILE -o OUT.pdf` and `python -m companion pad GAME VARIANT -o OUT.pdf`:
a PDF written and exit 0, or `path: message` lines on standard error and exit 2 (like `score`)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from pypdf import PdfReader

from companion.cli import main
from document_helpers import load_example


def run(argv, stdin_text=None):
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=io.StringIO(stdin_text or ""))
    return code, out.getvalue(), err.getvalue()


def pdf_text(path) -> tuple[int, str]:
    reader = PdfReader(str(path))
    return len(reader.pages), "".join("".join(p.extract_text().split()) for p in reader.pages)


def test_sheet_from_a_file_with_colours_and_date(tmp_path):
    source = tmp_path / "game.json"
    source.write_text(json.dumps(load_example("reterra.json"), ensure_ascii=False), encoding="utf-8")
    target = tmp_path / "game.pdf"
    code, out, err = run(["sheet", str(source), "-o", str(target), "--colours", "vert, #f1c40f",
                          "--date", "2026-01-01"])
    assert (code, out, err) == (0, "", "")
    pages, text = pdf_text(target)
    assert pages == 1
    for words in ("Reterra", "1erjanvier2026", "Maëlle", "Yanis", "joueur1·vert", "Yanisgagne"):
        assert words in text


def test_sheet_from_standard_input(tmp_path):
    target = tmp_path / "out.pdf"
    code, _, err = run(["sheet", "-", "-o", str(target)], json.dumps(load_example("revive-abyss.json")))
    assert code == 0 and err == ""
    pages, text = pdf_text(target)
    assert pages == 1 and "Maëllegagne" in text


def test_invalid_sheet_prints_paths_and_exits_2(tmp_path):
    bad = load_example("rebirth-scotland.json")
    bad["players"][1]["castles"] = -1
    bad["players"][0]["colour"] = "red"
    target = tmp_path / "out.pdf"
    code, out, err = run(["sheet", "-", "-o", str(target)], json.dumps(bad))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert any(line.startswith("players[1].castles: ") for line in lines)
    assert any(line.startswith("players[0].colour: clé inconnue") for line in lines)
    assert not target.exists()

    code, _, err = run(["sheet", str(tmp_path / "absent.json"), "-o", str(target)])
    assert code == 2 and "introuvable" in err
    code, _, err = run(["sheet", "-", "-o", str(target)], "{oops")
    assert code == 2 and err.startswith("document: ")
    code, _, err = run(["sheet", "-", "-o", str(target), "--date", "22/11/2026"], "{}")
    assert code == 2 and err.startswith("date: ")
    code, _, err = run(["sheet", "-", "-o", str(tmp_path / "no" / "dir.pdf")],
                       json.dumps(load_example("revive-abyss.json")))
    assert code == 2 and "écriture impossible" in err


def test_pad_writes_one_page_and_unknown_pads_exit_2(tmp_path):
    target = tmp_path / "pad.pdf"
    code, _, err = run(["pad", "revive", "abyss", "-o", str(target)])
    assert code == 0 and err == ""
    pages, text = pdf_text(target)
    assert pages == 1 and "ReviveCalloftheAbyss" in text and "Dévotion" in text

    code, _, err = run(["pad", "chess", "base", "-o", str(tmp_path / "x.pdf")])
    assert code == 2 and err.startswith("game: jeu inconnu : 'chess'")
    code, _, err = run(["pad", "rebirth", "wales", "-o", str(tmp_path / "x.pdf")])
    assert code == 2 and err.startswith("variant: variante inconnue pour Rebirth")
    assert not (tmp_path / "x.pdf").exists()


def test_module_entry_point_prints_a_pad(tmp_path):
    """The real `python -m companion pad …`: the sub-commands are there without any other import."""
    target = tmp_path / "pad.pdf"
    command = [sys.executable, "-m", "companion", "pad", "rebirth", "scotland", "-o", str(target)]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert target.read_bytes().startswith(b"%PDF-")
    proc = subprocess.run([sys.executable, "-m", "companion", "pad", "reterra", "abyss", "-o", str(target)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.startswith("variant: ")
