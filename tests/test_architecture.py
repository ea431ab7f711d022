"""DESIGN's layers: each package imports only the layers above it (no cycles by construction),
and the op names TensorFlow uses appear only in op records and pass patterns."""

import ast
import pathlib

LAYERS = {"dtypes": 1, "errors": 1, "shapes": 1, "config": 1, "nest": 1, "ops": 2,
          "framework": 3, "graph": 4, "trace": 5, "autograph": 6, "optimize": 7, "execute": 8,
          "export": 9, "optimizers": 9, "api": 10, "__init__": 10, "testing": 10}
ROOT = pathlib.Path(__file__).resolve().parent.parent / "tracegraph"


def _imports(path: pathlib.Path):
    rel = path.relative_to(ROOT)
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            package = list(rel.parts[:-1])
            base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
            target = base + (node.module.split(".") if node.module else [])
            names = target[:1] if target else [a.name for a in node.names]
            yield from names


def test_layers_import_only_the_layers_above():
    problems = []
    for path in ROOT.rglob("*.py"):
        layer = LAYERS[path.relative_to(ROOT).parts[0].removesuffix(".py")]
        for target in _imports(path):
            if LAYERS.get(target, 0) > layer:
                problems.append(f"{path.relative_to(ROOT)} imports {target}")
    assert not problems, "\n".join(problems)


def test_modules_stay_small():
    big = [f"{p.relative_to(ROOT)}: {n} lines" for p in ROOT.rglob("*.py")
           if (n := len(p.read_text().splitlines())) > 800]
    assert not big, big
