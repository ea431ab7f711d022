"""DESIGN's layers: each package imports only the layers above it (no cycles by construction),
the op names TensorFlow uses appear only in op records and pass patterns, and passes use only
the IR's public surface."""

import ast
import fnmatch
import pathlib

# `optimizers` (tf.optimizers) sits above the tape (`minimize`, autodiff/) and below the formats
# (a checkpoint may hold an optimizer's slots); `distribute` ships saved graphs, so it stands
# above the formats.
LAYERS = {"dtypes": 1, "errors": 1, "shapes": 1, "dimension": 1, "config": 1, "nest": 1,
          "thread_budget": 1, "ops": 2,
          "library": 3, "framework": 4, "graph": 5, "trace": 6, "autodiff": 7, "autograph": 8,
          "optimize": 9, "execute": 10, "optimizers": 11, "data": 11, "formats": 12,
          "distribute": 13, "api": 14, "__init__": 14, "testing": 14, "saved_model": 14,
          "keras": 14, "compat": 14, "keras_switch": 14}
ROOT = pathlib.Path(__file__).resolve().parent.parent / "tracegraph"


def _imports(path: pathlib.Path):
    """The top-level package folders (or modules) `path` imports: relative imports, and
    absolute ones of `tracegraph.x` (`import tracegraph.x`, `from tracegraph.x import y`,
    `from tracegraph import x`), wherever they are (function bodies included)."""
    rel = path.relative_to(ROOT)
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            package = list(rel.parts[:-1])
            base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
            target = base + (node.module.split(".") if node.module else [])
            names = target[:1] if target else [a.name for a in node.names]
            yield from names
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == ROOT.name:
            parts = node.module.split(".")[1:]
            yield from parts[:1] if parts else [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == ROOT.name and len(parts) > 1:
                    yield parts[1]


def _layer_problems(paths) -> list[str]:
    problems = []
    for path in paths:
        layer = LAYERS[path.relative_to(ROOT).parts[0].removesuffix(".py")]
        for target in _imports(path):
            if LAYERS.get(target, 0) > layer:
                problems.append(f"{path.relative_to(ROOT)} imports {target}")
    return problems


def test_layers_import_only_the_layers_above():
    problems = _layer_problems(ROOT.rglob("*.py"))
    assert not problems, "\n".join(problems)


def test_nothing_below_autodiff_imports_it(tmp_path, monkeypatch):
    """The check sees a lower layer reaching up into autodiff/, by any spelling of the import
    (made on purpose in copies of a trace/ module)."""
    fake_root = tmp_path / "tracegraph"
    (fake_root / "trace").mkdir(parents=True)
    spellings = ["from ..autodiff.tape import GradientTape",
                 "from .. import autodiff",
                 "import tracegraph.autodiff.tape",
                 "def f():\n    from tracegraph.autodiff import tape"]
    for i, line in enumerate(spellings):
        (fake_root / "trace" / f"m{i}.py").write_text(line + "\n")
    monkeypatch.setitem(globals(), "ROOT", fake_root)
    problems = _layer_problems(sorted((fake_root / "trace").glob("*.py")))
    assert problems == [f"trace/m{i}.py imports autodiff" for i in range(len(spellings))]


# STYLE's hint: a module a reader can hold in mind. The exceptions name their reason.
LINE_CAP = 400
OVER_THE_CAP: dict[str, int] = {
    # a table generated from TensorFlow's op definitions, one line per op: grows with the ops
    "formats/tensorflow/op_signatures.py": 600,
}


def test_modules_stay_small():
    big = []
    for p in ROOT.rglob("*.py"):
        rel = p.relative_to(ROOT).as_posix()
        n = len(p.read_text().splitlines())
        if n > OVER_THE_CAP.get(rel, LINE_CAP):
            big.append(f"{rel}: {n} lines")
    assert not big, big


def _sibling_imports(path: pathlib.Path):
    """(module, imported names, inside a function?) for each `from .x import ...` in `path`."""
    tree = ast.parse(path.read_text())
    nested = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.ClassDef))
              for n in ast.walk(f) if n is not f}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            modules = [node.module] if node.module else [a.name for a in node.names]
            for module in modules:
                yield module.split(".")[0], [a.name for a in node.names], id(node) in nested


def test_no_import_circle_inside_ops_and_library():
    """The op records (`ops/`) and the library (`library/`) each import their siblings in one
    order: a circle would be found by following the imports, including those in function bodies
    (which is where circles used to hide)."""
    for package in ("ops", "library"):
        folder = ROOT / package
        graph = {p.stem: {m for m, _, _ in _sibling_imports(p) if (folder / f"{m}.py").exists()}
                 for p in folder.glob("*.py") if p.stem != "__init__"}
        state = {}

        def visit(node, trail, graph=graph, state=state, package=package):
            if state.get(node) == "done":
                return
            assert state.get(node) != "open", (
                f"import circle in {package}/: {' -> '.join(trail + [node])}")
            state[node] = "open"
            for nxt in sorted(graph[node]):
                visit(nxt, trail + [node])
            state[node] = "done"

        for node in sorted(graph):
            visit(node, [])


def test_ops_and_library_import_at_the_top_and_no_private_names():
    """No import hides in a function body, and no module reaches for a sibling's private name."""
    problems = []
    for package in ("ops", "library"):
        for path in (ROOT / package).glob("*.py"):
            for module, names, in_body in _sibling_imports(path):
                where = f"{package}/{path.name} imports from .{module}"
                if in_body:
                    problems.append(f"{where} inside a function")
                problems += [f"{where} the private name {n}" for n in names if n.startswith("_")]
    assert not problems, "\n".join(problems)


def test_defop_rejects_a_flag_outside_the_vocabulary():
    import pytest

    from tracegraph.ops.registry import FLAGS, all_ops, defop
    with pytest.raises(ValueError, match=r"op 'not_registered': unknown flag\(s\) 'pur'.*FLAGS"):
        defop("not_registered", "NotRegistered", infer=lambda: (), kernel=None, flags={"pur"})
    used = {f for op in all_ops() for f in op.flags}
    assert used <= FLAGS.keys()
    assert all(isinstance(meaning, str) and meaning for meaning in FLAGS.values())


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

# Files allowed to name op types by string while a change is pending (a commented reason each).
# Empty since house-ops (issue 8, point 2) turned layout's and mixed precision's by-name lists into
# flags on the op records.
PENDING_OP_NAME_LISTS: set = set()
PATTERN_CONSTRUCTORS = {"Op", "New"}   # optimize/rules.py: a rule table's rows
# Registrations keyed by an op type: the gradient rules (autodiff/rules/).
REGISTRATIONS = {"defgrad", "defgrad_unary"}
# A format's per-op table, keyed by the op's TensorFlow type (STYLE: what others do with an op
# lives with them): each row names an op type, and the ONNX rows also name ONNX's own ops.
PER_OP_TABLES = ("formats/onnx/lowering_table.py", "formats/onnx/*_lowerings.py",
                 "formats/tensorflow/op_signatures.py", "formats/tensorflow/import_table.py")


def _op_type_strings(path: pathlib.Path, op_types: set):
    """String constants equal to an op type, outside a pattern (`Op(...)`, `New(...)`) or a
    registration (`defgrad("MatMul")`), outside `__all__` (class names such as `Const` are
    exported by name) and other than the default of a `name` parameter (TensorFlow's API names
    a node after its op: `tf.constant(name="Const")`)."""
    tree = ast.parse(path.read_text())
    exempt = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            positional = args.posonlyargs + args.args
            pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
            pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
            exempt.update(id(d) for a, d in pairs if a.arg == "name")
        in_pattern = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id in PATTERN_CONSTRUCTORS | REGISTRATIONS
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
        # data/ holds the op records of tf.data next to the nodes they make (DESIGN layer 11)
        if rel.parts[0] in ("ops", "data") or rel.as_posix() in PENDING_OP_NAME_LISTS or any(
                fnmatch.fnmatch(rel.as_posix(), table) for table in PER_OP_TABLES):
            continue
        problems += [f"{rel}:{line}: {name!r}" for line, name in _op_type_strings(path, op_types)]
    assert not problems, "\n".join(problems)
