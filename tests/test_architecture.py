"""DESIGN's layers: each package imports only the layers above it (no cycles by construction),
the op names TensorFlow uses appear only in op records and pass patterns, and passes use only
the IR's public surface."""

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


# ---- passes use the IR's public surface -------------------------------------------------------

def _private_uses(path: pathlib.Path):
    """`x._name` where x is not `self` (a class's own state), and getattr/setattr/hasattr of a
    `_name` string: a reach into another object's private fields."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and \
                not node.attr.startswith("__"):
            if not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                yield node.lineno, node.attr
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("getattr", "setattr", "hasattr", "delattr") and \
                len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and \
                str(node.args[1].value).startswith("_"):
            yield node.lineno, node.args[1].value


def test_passes_use_only_the_public_surface_of_graph_objects():
    """optimize/ reads and writes tensors, operations, graphs and the builder through their
    public methods and properties (graph/tensor.py, graph/graph.py, optimize/builder.py)."""
    problems = [f"{p.relative_to(ROOT)}:{line}: .{attr}"
                for p in sorted((ROOT / "optimize").rglob("*.py"))
                for line, attr in _private_uses(p)]
    assert not problems, "\n".join(problems)


# ---- op types are named in op records and pattern tables only ---------------------------------

# Files whose by-name op lists (layout's `_FORMAT_SENSITIVE`, mixed precision's `_ALLOW`, their
# only op-type strings left) the house-ops branch (issue 8, point 2) turns into flags on the op
# records. PENDING: the integrator empties this set after merging house-ops.
PENDING_OP_NAME_LISTS = {"optimize/layout_optimizer.py", "optimize/auto_mixed_precision.py"}
PATTERN_CONSTRUCTORS = {"Op", "New"}   # optimize/rules.py: a rule table's rows


def _op_type_strings(path: pathlib.Path, op_types: set):
    """String constants equal to an op type, outside a pattern (`Op(...)`, `New(...)`) and
    outside `__all__` (class names such as `Const` are exported by name)."""
    tree = ast.parse(path.read_text())
    exempt = set()
    for node in ast.walk(tree):
        in_pattern = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id in PATTERN_CONSTRUCTORS
        exports = isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        if in_pattern or exports:
            exempt.update(id(n) for n in ast.walk(node))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in op_types and id(node) not in exempt:
            yield node.lineno, node.value


def test_op_types_are_named_only_in_ops_and_pattern_tables():
    import tracegraph  # noqa: F401  (registers every op)
    from tracegraph.ops.registry import all_ops
    op_types = {op.tf_type for op in all_ops()}
    problems = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] == "ops" or rel.as_posix() in PENDING_OP_NAME_LISTS:
            continue
        problems += [f"{rel}:{line}: {name!r}" for line, name in _op_type_strings(path, op_types)]
    assert not problems, "\n".join(problems)
