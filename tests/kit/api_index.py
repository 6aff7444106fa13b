"""What the real Isaac Sim 6.2 wheels define, read from their Python sources and stubs (`.py` / `.pyi`), never
imported: modules, module-level names (through `from x import y` and `import *`), classes with their bases, and
the signatures of functions and methods (pybind's `*args, **kwargs` stubs with their documented `Args:`).

The call audit (tests/kit/call_audit.py) asks this index whether a module, name, method or keyword exists.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

ARGS_SECTION = re.compile(r"^\s*(?:Args|Arguments|Parameters|Keyword Args):\s*$")
SECTION_END = re.compile(r"^\s*(?:Returns?|Raises|Yields|Examples?|Notes?):")
ARG_LINE = re.compile(r"^\s{2,}\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:")


@dataclass
class Function:
    module: "Module"
    node: ast.FunctionDef | ast.AsyncFunctionDef
    overloads: list = field(default_factory=list)  # further definitions with the same name (pybind overloads)

    @property
    def name(self) -> str:
        return self.node.name

    def where(self) -> str:
        return f"{self.module.path_of(self.node)}:{self.node.lineno}"

    def accepts(self, positional: int, keywords: list[str], bound: bool) -> str | None:
        """None if some definition accepts this call, else why not (the first definition's reason)."""
        reasons = [_accepts(n, positional, keywords, bound) for n in [self.node, *self.overloads]]
        return None if any(r is None for r in reasons) else reasons[0]

    def annotation(self, parameter_index: int, bound: bool) -> ast.expr | None:
        params = [*self.node.args.posonlyargs, *self.node.args.args][1 if bound else 0:]
        return params[parameter_index].annotation if parameter_index < len(params) else None

    def keyword_annotation(self, name: str) -> ast.expr | None:
        for p in [*self.node.args.posonlyargs, *self.node.args.args, *self.node.args.kwonlyargs]:
            if p.arg == name:
                return p.annotation
        return None

    def returns(self) -> str | None:
        """The return type's name: the annotation, else a docstring `Returns:` type, else `return Class(...)`."""
        if self.node.returns is not None:
            return ast.unparse(self.node.returns).strip("'\"")
        doc = ast.get_docstring(self.node) or ""
        found = re.search(r"Returns?:\s*\n\s*([A-Za-z_][\w.]*)\s*[:(]", doc)
        if found:
            return found.group(1)
        for node in ast.walk(self.node):
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Call):
                return ast.unparse(node.value.func)
        return None


def _documented_keywords(node) -> set[str] | None:
    """The argument names of a docstring's `Args:` section (pybind stubs declare only `*args, **kwargs`)."""
    names, inside = set(), False
    for line in (ast.get_docstring(node) or "").splitlines():
        if ARGS_SECTION.match(line):
            inside = True
        elif inside and SECTION_END.match(line):
            inside = False
        elif inside and (found := ARG_LINE.match(line)):
            names.add(found.group(1))
    return names or None


def _accepts(node, positional: int, keywords: list[str], bound: bool) -> str | None:
    a = node.args
    params = [*a.posonlyargs, *a.args][1 if bound else 0:]
    names = [p.arg for p in params] + [p.arg for p in a.kwonlyargs]
    if a.vararg is not None and a.kwarg is not None and not params:  # pybind `def f(*args, **kwargs)`
        documented = _documented_keywords(node)
        unknown = [k for k in keywords if documented is not None and k not in documented]
        return f"no keyword {unknown[0]!r} (documented: {sorted(documented)})" if unknown else None
    if positional > len(params) and a.vararg is None:
        return f"{positional} positional arguments, at most {len(params)}"
    for keyword in keywords:
        if keyword not in names and a.kwarg is None:
            return f"no keyword {keyword!r} (parameters: {names})"
        if keyword in [p.arg for p in params[:positional]]:
            return f"{keyword!r} given twice"
    defaults = len(a.defaults)
    required = [p.arg for p in params[: len(params) - defaults]]
    missing = [n for i, n in enumerate(required) if i >= positional and n not in keywords]
    required_kw = [p.arg for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is None and p.arg not in keywords]
    if missing or required_kw:
        return f"missing argument(s) {missing + required_kw}"
    return None


@dataclass
class Class:
    module: "Module"
    node: ast.ClassDef

    @property
    def name(self) -> str:
        return f"{self.module.name}.{self.node.name}"

    def member(self, name: str, index: "ApiIndex", seen=None):
        """A Function (method), ("property", annotation), ("value", node) or None, through the bases."""
        found = [n for n in self.node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]
        if found:
            first = found[0]
            if any(ast.unparse(d).endswith("property") for d in first.decorator_list):
                return ("property", first.returns)
            return Function(self.module, first, found[1:])
        for n in self.node.body:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, ast.AnnAssign) else []
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return ("value", n)
        seen = seen or set()
        for base in self.node.bases:
            resolved = index.resolve_in(self.module, ast.unparse(base))
            if isinstance(resolved, Class) and resolved.name not in seen:
                seen.add(resolved.name)
                hit = resolved.member(name, index, seen)
                if hit is not None:
                    return hit
        return None


class Module:
    """One module: its `.py` and `.pyi` files (a stub wins where both define a name)."""

    def __init__(self, name: str, files: list[Path]):
        self.name, self.files = name, files
        self.is_package = any(f.stem == "__init__" for f in files)

    @cached_property
    def trees(self) -> list[tuple[Path, ast.Module]]:
        order = sorted(self.files, key=lambda f: f.suffix != ".pyi")
        return [(f, ast.parse(f.read_text(encoding="utf-8"), str(f))) for f in order]

    def path_of(self, node) -> str:
        for path, tree in self.trees:
            if any(n is node for n in ast.walk(tree)):
                return str(path)
        return self.name

    def top_level(self):
        """Module-level statements, including those under top-level if / try (import guards)."""
        for _path, tree in self.trees:
            stack = list(tree.body)
            while stack:
                node = stack.pop(0)
                if isinstance(node, (ast.If, ast.Try)):
                    stack[:0] = [*node.body, *getattr(node, "orelse", []),
                                 *[s for h in getattr(node, "handlers", []) for s in h.body]]
                else:
                    yield node

    def absolute(self, level: int, target: str | None) -> str:
        base = self.name.split(".") if self.is_package else self.name.split(".")[:-1]
        base = base[: len(base) - (level - 1)] if level > 1 else base
        return ".".join(base + ([target] if target else []))


class ApiIndex:
    """Modules found under the given Python roots (`<root>/a/b/c.py|.pyi|/__init__.py`)."""

    def __init__(self, roots: list[Path]):
        self.roots = [Path(r) for r in roots]
        self._modules: dict[str, Module | None] = {}

    def module(self, name: str) -> Module | None:
        if name not in self._modules:
            parts, files = name.split("."), []
            for root in self.roots:
                base = root.joinpath(*parts)
                files += [p for p in (base / "__init__.py", base / "__init__.pyi", base.with_suffix(".py"),
                                      base.with_suffix(".pyi")) if p.is_file()]
            self._modules[name] = Module(name, files) if files else None
        return self._modules[name]

    def resolve(self, dotted: str):
        """A Module, Function, Class, ("value", node) for `a.b.c`, or None."""
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            module = self.module(".".join(parts[:cut]))
            if module is not None:
                obj = module
                for attr in parts[cut:]:
                    obj = self.attribute(obj, attr)
                    if obj is None:
                        return None
                return obj
        return None

    def resolve_in(self, module: Module, dotted: str):
        head, _, rest = dotted.partition(".")
        obj = self.symbol(module, head) or self.resolve(dotted.split(".")[0])
        for attr in rest.split(".") if rest else []:
            obj = self.attribute(obj, attr) if obj is not None else None
        return obj

    def attribute(self, obj, attr: str):
        if isinstance(obj, Module):
            return self.symbol(obj, attr) or self.module(f"{obj.name}.{attr}")
        if isinstance(obj, Class):
            return obj.member(attr, self)
        return None

    def symbol(self, module: Module, name: str, seen=None):
        seen = seen or set()
        if (module.name, name) in seen:
            return None
        seen.add((module.name, name))
        functions = [n for n in module.top_level() if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]
        if functions:
            return Function(module, functions[0], functions[1:])
        for node in module.top_level():
            if isinstance(node, ast.ClassDef) and node.name == name:
                return Class(module, node)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return ("value", node)
            if isinstance(node, ast.ImportFrom):
                source = module.absolute(node.level, node.module) if node.level else node.module
                for alias in node.names:
                    if alias.name == "*":
                        found = self.module(source) and self.symbol(self.module(source), name, seen)
                        if found is not None:
                            return found
                    elif (alias.asname or alias.name) == name:
                        target = self.module(source)
                        return (self.symbol(target, alias.name,
                                            seen) if target else None) or self.module(f"{source}.{alias.name}")
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname == name:
                        return self.module(alias.name)
        return None
