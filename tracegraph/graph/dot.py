"""Graph pictures: DOT text (pure Python) and SVG/PNG/PDF images through the `graphviz` extra.

    print(concrete.graph.to_dot())
    concrete.optimized_graph.to_image("model.svg")

Each op is a node labelled with its name and type; edges carry the tensor's dtype and shape
(`float32[?,3]`), control edges are dashed. Sub-graphs (cond branches, loop condition and body,
called functions) are drawn as clusters next to the op that holds them, nested as deep as they
go, joined to it by a dotted edge.
"""

from __future__ import annotations

import os

from .graph import Graph

__all__ = ["graph_to_dot", "render", "write_image", "IMAGE_FORMATS"]

IMAGE_FORMATS = ("svg", "png", "pdf")
_MAX_NODES = 2000  # larger graphs are cut with a note: Graphviz layouts grow superlinearly


def _quote(text: str) -> str:
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _edge_label(t) -> str:
    shape = "?" if t._shape is None else ",".join("?" if s is None else str(s)
                                                   for s in t._shape)
    return f"{t.dtype.name}[{shape}]"


def _node_style(op) -> str:
    if "placeholder" in op.op_def.flags:
        return 'shape=ellipse, style=filled, fillcolor="#e3f2fd"'
    if "constant" in op.op_def.flags:
        return 'shape=box, style="rounded,filled", fillcolor="#f5f5f5", fontsize=10'
    if op.op_def.stateful:
        return 'shape=box, style="rounded,filled", fillcolor="#ffe0b2"'
    if op.subgraphs():
        return 'shape=box3d, style=filled, fillcolor="#e8f5e9"'
    return 'shape=box, style="rounded,filled", fillcolor="#ffffff"'


class _Writer:
    def __init__(self, max_nodes: int):
        self.lines: list[str] = []
        self.clusters = 0
        self.nodes = 0
        self.max_nodes = max_nodes
        self.cut = False

    def graph(self, graph: Graph, prefix: str, indent: str) -> str | None:
        """Writes the nodes and edges of `graph`; returns the id of its first node."""
        ids = {}
        first = None
        for op in graph.operations:
            if self.nodes >= self.max_nodes:
                self.cut = True
                break
            self.nodes += 1
            node_id = _quote(f"{prefix}{op.name}")
            ids[op] = node_id
            first = first or node_id
            label = op.name if op.name == op.type else f"{op.name}\n{op.type}"
            self.lines.append(f"{indent}{node_id} [label={_quote(label)}, {_node_style(op)}];")
            for t in op.inputs:
                source = ids.get(t.op)
                if source is not None:
                    self.lines.append(f"{indent}{source} -> {node_id} "
                                      f"[label={_quote(_edge_label(t))}, fontsize=9];")
            for c in op.control_inputs:
                source = ids.get(c)
                if source is not None:
                    self.lines.append(f"{indent}{source} -> {node_id} [style=dashed, "
                                      f"color=gray50];")
            for attr, sub in op.subgraphs():
                self.subgraph(op, attr, sub, f"{prefix}{op.name}/{attr}/", node_id, indent)
        return first

    def subgraph(self, op, attr, sub, prefix, owner_id, indent) -> None:
        self.clusters += 1
        name = f"cluster_{self.clusters}"
        self.lines.append(f"{indent}subgraph {name} {{")
        inner = indent + "  "
        self.lines.append(f"{inner}label={_quote(f'{op.name}.{attr}: {sub.name}')}; "
                          f'style="rounded,dashed"; color=gray40; fontsize=10;')
        first = self.graph(sub, prefix, inner)
        if first is None:  # an empty graph still shows as a cluster
            first = _quote(f"{prefix}(empty)")
            self.lines.append(f"{inner}{first} [label=\"(no ops)\", shape=plaintext];")
        outputs = getattr(sub, "outputs", [])
        if outputs:
            returns = _quote(f"{prefix}return")
            self.lines.append(f"{inner}{returns} [label=\"return\", shape=plaintext];")
            for t in outputs:
                self.lines.append(f"{inner}{_quote(prefix + t.op.name)} -> {returns} "
                                  f"[label={_quote(_edge_label(t))}, fontsize=9];")
        self.lines.append(f"{indent}}}")
        self.lines.append(f"{indent}{owner_id} -> {first} [style=dotted, lhead={name}, "
                          f"arrowhead=odot];")


def graph_to_dot(graph: Graph, *, rankdir: str = "TB", max_nodes: int = _MAX_NODES) -> str:
    """The graph (and its sub-graphs, as clusters) in Graphviz's DOT language."""
    if rankdir not in ("TB", "LR", "BT", "RL"):
        raise ValueError(f"rankdir must be one of TB, LR, BT, RL, got {rankdir!r}.")
    writer = _Writer(max_nodes)
    writer.lines.append(f"digraph {_quote(graph.name)} {{")
    writer.lines.append(f'  graph [rankdir={rankdir}, compound=true, fontname="Helvetica", '
                        f"label={_quote(graph.name)}, labelloc=t];")
    writer.lines.append('  node [fontname="Helvetica", fontsize=11];')
    writer.lines.append('  edge [fontname="Helvetica", color=gray30];')
    writer.graph(graph, "", "  ")
    outputs = getattr(graph, "outputs", [])
    if outputs:
        writer.lines.append('  "(outputs)" [label="outputs", shape=plaintext];')
        for t in outputs:
            writer.lines.append(f"  {_quote(t.op.name)} -> \"(outputs)\" "
                                f"[label={_quote(_edge_label(t))}, fontsize=9];")
    if writer.cut:
        writer.lines.append(f'  "(cut)" [label="... graph cut at {max_nodes} nodes", '
                            f"shape=plaintext];")
    writer.lines.append("}")
    return "\n".join(writer.lines) + "\n"


def _graphviz():
    try:
        import graphviz
    except ImportError as e:
        raise ImportError(f"Rendering graph images needs the 'graphviz' package, which is not "
                          f"installed ({e}). Install it with: pip install "
                          f"'tracegraph[graphviz]' (and the Graphviz programs: apt-get install "
                          f"graphviz, brew install graphviz, or https://graphviz.org)") from None
    return graphviz


def render(graph: Graph, fmt: str, **options) -> bytes:
    """The image of `graph` in `fmt` (svg, png or pdf), laid out by Graphviz's `dot`."""
    if fmt not in IMAGE_FORMATS:
        raise ValueError(f"Unsupported image format {fmt!r}: use one of {IMAGE_FORMATS}.")
    graphviz = _graphviz()
    source = graphviz.Source(graph_to_dot(graph, **options))
    try:
        return source.pipe(format=fmt)
    except graphviz.ExecutableNotFound:
        raise RuntimeError("Rendering graph images needs Graphviz's 'dot' program on PATH: "
                           "apt-get install graphviz, brew install graphviz, or "
                           "https://graphviz.org/download/") from None


def write_image(graph: Graph, path, fmt: str | None = None, **options) -> str:
    """Writes the image to `path`; the format comes from `fmt` or the file's suffix."""
    path = os.fspath(path)
    if fmt is None:
        fmt = os.path.splitext(path)[1].lstrip(".").lower() or "svg"
    data = render(graph, fmt, **options)
    with open(path, "wb") as f:
        f.write(data)
    return path
