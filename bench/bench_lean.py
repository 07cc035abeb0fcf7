"""The stylesheet and scripts as phones get them (companion/web/lean.py: rjsmin, rcssmin): bytes served
beside the source, raw and compressed as companion.web.compress sends them (gzip 9, brotli 11), and the
CPU time of leaning every file beside gzip 9 of the same bytes (the floor: what the process does
with them next). `before`: the regular expressions lean.py had until issue 34 (whole-line comments,
blank lines and indentation), for comparison in the same run.

`.venv/bin/python -m bench.bench_lean`
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import brotli

from bench.common import interleaved, report_both
from companion.web.lean import lean

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "static" / "js").rglob("*.js")) + sorted((ROOT / "static" / "css").glob("*.css"))

_CSS_COMMENT = re.compile(r"/\*(?:(?!\*/).)*\*/", re.S)
_JS_BLOCK = re.compile(r"^[ \t]*/\*(?:(?!\*/).)*\*/[ \t]*\n", re.S | re.M)
_JS_LINE = re.compile(r"^[ \t]*//[^\n]*\n", re.M)
_INDENT = re.compile(r"^[ \t]+|[ \t]+$", re.M)
_BLANK = re.compile(r"\n[ \t]*(?=\n)")


def before(data: bytes, css: bool) -> bytes:
    text = data.decode()
    text = _CSS_COMMENT.sub("", text) if css else _JS_LINE.sub("", _JS_BLOCK.sub("", text))
    return _BLANK.sub("", _INDENT.sub("", text)).lstrip("\n").encode()


def main() -> list[dict]:
    sources = [(path.read_bytes(), path.suffix == ".css") for path in FILES]
    kinds = {True: "text/css", False: "text/javascript"}
    versions = {"source": [d for d, _ in sources], "before": [before(d, c) for d, c in sources],
                "now": [lean(d, kinds[c]) for d, c in sources]}
    print(f"{len(FILES)} files (static/js, static/css)")
    for name, datas in versions.items():
        raw = sum(map(len, datas))
        gz = sum(len(gzip.compress(d, 9)) for d in datas)
        br = sum(len(brotli.compress(d, quality=11)) for d in datas)
        print(f"{name}: {raw:,} bytes, gzip 9 {gz:,}, brotli 11 {br:,}")
    floor = lambda: [gzip.compress(d, 9) for d, _ in sources]  # noqa: E731
    results = [report_both("now (rjsmin, rcssmin), every file", interleaved(
        lambda: [lean(d, kinds[c]) for d, c in sources], floor, seconds=3.0), "gzip 9 of every file")]
    results.append(report_both("before (regular expressions), every file", interleaved(
        lambda: [before(d, c) for d, c in sources], floor, seconds=3.0), "gzip 9 of every file"))
    return results


if __name__ == "__main__":
    main()
