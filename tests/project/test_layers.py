"""companion/ is in layers, and a module imports only from its own layer or one below
(docs/architecture.md, "Layers"). Every import counts, those inside functions too."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent.parent / "companion"

# Bottom first. A name is a package of companion/ or a module at its top; "app" is
# companion/__init__.py (create_app). A module may import its own layer and those above it here.
LAYERS = [
    ("settings",),             # the environment read, the checkout's folders
    ("games",),                # the rules: pure Python
    ("base", "extensions"),    # helpers knowing no request and no table; the Flask extensions' instances
    ("storage",),              # stored games: tables, reads, versioned writes
    ("web",),                  # HTTP plumbing: the request gate, headers, compression, errors, languages
    ("saving",),               # one save path, and the game's log
    ("forms",),                # a game's fields on a page
    ("outputs", "pdf"),        # what is made of games: sheets, charts, statistics, export and restore
    ("views",),                # pages and the API (blueprints)
    ("server",),               # `make run`: gunicorn, nginx, this machine's addresses
    ("app", "__main__", "cli"),
]
RANK = {name: i for i, names in enumerate(LAYERS) for name in names}
MAX_TOP_MODULES = 15


def module_name(path: Path) -> str:
    parts = ["companion", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit(dotted: str) -> str:
    """The layer's name of a dotted module of companion."""
    parts = dotted.split(".")
    return "app" if len(parts) == 1 else parts[1]


def is_module(dotted: str) -> bool:
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports(path: Path):
    """(line, dotted module of companion) for every import in the file."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "companion":
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "companion":
                continue
            for alias in node.names:
                full = f"{target}.{alias.name}"
                yield node.lineno, full if is_module(full) else target


def test_every_module_is_in_a_layer():
    units = {unit(module_name(p)) for p in PACKAGE.rglob("*.py")}
    assert sorted(units - RANK.keys()) == [], "name its layer in LAYERS (and in docs/architecture.md)"


def test_few_modules_at_the_top():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top


def test_imports_only_go_down():
    climbing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = unit(module_name(path))
        for line, target in imports(path):
            there = unit(target)
            if RANK.get(there, -1) > RANK.get(here, -1):
                where = path.relative_to(PACKAGE.parent)
                climbing.append(f"{where}:{line}: {here} imports {target} ({there})")
    assert climbing == []


def test_the_check_sees_a_climbing_import(tmp_path, monkeypatch):
    """The rule itself: an import inside a function, relative, from a lower layer is reported."""
    package = tmp_path / "companion"
    (package / "games").mkdir(parents=True)
    (package / "views").mkdir()
    for init in ("__init__.py", "games/__init__.py", "views/__init__.py", "views/home.py"):
        (package / init).write_text("", encoding="utf-8")
    (package / "games" / "core.py").write_text("def f():\n    from ..views import home\n", encoding="utf-8")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", package)
    found = [(line, target) for line, target in imports(package / "games" / "core.py")]
    assert found == [(2, "companion.views.home")]
    assert RANK[unit(found[0][1])] > RANK["games"]
