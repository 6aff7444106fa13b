"""The call audit: every omni.* / carb call the extension's Kit layer makes, checked against what the real Isaac
Sim 6.2 wheels define (tests/kit/api_index.py reads their sources and stubs).

The extension's modules are read with `ast`, never imported. Names bound to the wheels' modules are followed
through assignments, tuple unpacking, helper methods (`self._physx()`), attributes set on `self`, and into the
package's own functions and classes with the types their callers pass (`UserState.capture(timeline, selection,
physx)`). Return types come from the wheels' annotations, a docstring's `Returns:` type, or `return Class(...)`.

Each call or attribute gives a finding:
- `ok`: the module, name, method and every keyword exist, the positional count fits, and no literal None goes to a
  parameter typed `str` / `int` / `float` / `bool` (omni.physx 110.4.4's `set_simulation_layer(layer: str)`);
- `missing` / `bad call`: what the wheels do not have (the audit fails);
- `cited`: a module that only the stub-only kit-sdk defines (omni.ui, omni.usd, omni.timeline, ...): not auditable
  here, its public source is cited in the calling module;
- `untyped`: a call on a value rooted in an audited module whose type the audit could not follow (listed).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from tests.kit.api_index import ApiIndex, Class, Function, Module

AUDITED = ("omni.physx", "omni.physics.tensors", "omni.physics.stageupdate", "omni.physics.core",
           "isaacsim.core.simulation_manager", "omni.kit.app", "omni.ext", "carb")
STUB_ONLY = ("omni.ui", "omni.usd", "omni.timeline", "omni.kit.actions.core", "omni.kit.menu.utils",
             "omni.kit.viewport.utility", "omni.kit.test", "omni.kit.ui_test", "pxr.PhysicsSchemaTools")
NAMESPACES = {"omni", "omni.kit", "omni.physics", "isaacsim", "isaacsim.core", "omni.kit.viewport", "omni.kit.menu",
              "omni.kit.actions"}
PLAIN_TYPES = {"str", "int", "float", "bool"}


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    call: str
    status: str  # ok / missing / bad call / cited / untyped
    detail: str = ""


# -- the values the audit tracks -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mod:
    name: str


@dataclass(frozen=True)
class Stub:
    path: str


@dataclass(frozen=True)
class Api:
    obj: object


@dataclass(frozen=True)
class Inst:
    cls: Class


@dataclass(frozen=True)
class Bound:
    fn: Function


@dataclass(frozen=True)
class Ours:
    node: ast.AST  # a FunctionDef or ClassDef of the package
    module: "OurModule"
    owner: ast.ClassDef | None = None


@dataclass(frozen=True)
class OurInst:
    cls: ast.ClassDef
    module: "OurModule"


@dataclass(frozen=True)
class Tup:
    items: tuple


def _describe(value) -> str:
    """A short, stable key for a tracked value (the analysis runs once per function and argument types)."""
    for attr in ("name", "path"):
        if hasattr(value, attr):
            return f"{type(value).__name__}:{getattr(value, attr)}"
    inner = getattr(value, "cls", None) or getattr(value, "fn", None) or getattr(value, "node", None)
    return f"{type(value).__name__}:{getattr(inner, 'name', id(inner))}"


def _family(name: str, families) -> bool:
    return any(name == f or name.startswith(f + ".") for f in families)


class OurModule:
    def __init__(self, audit: "CallAudit", path: Path, dotted: str, source: str | None = None):
        self.audit, self.path, self.dotted = audit, path, dotted
        self.tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"), str(path))
        self.env: dict = {}

    def label(self) -> str:
        return str(self.path)


class CallAudit:
    def __init__(self, index: ApiIndex, package_root: Path, package: str):
        self.index, self.package_root, self.package = index, package_root, package
        self.findings: dict[tuple, Finding] = {}
        self.class_attrs: dict[tuple[int, str], object] = {}
        self.modules: dict[str, OurModule] = {}
        self._analysed: set = set()
        self._returned: dict = {}

    # -- entry points -------------------------------------------------------------------------------------------
    def audit_files(self, relative_paths: list[str], passes: int = 2) -> list[Finding]:
        modules = [self._our_module(p) for p in relative_paths]
        for _ in range(passes):  # the second pass sees the attribute types the first one found on `self`
            self._analysed.clear()
            for module in modules:
                self._run_module(module)
        return sorted(self.findings.values(), key=lambda f: (f.file, f.line, f.call))

    def audit_source(self, source: str, name: str = "negative_control") -> list[Finding]:
        module = OurModule(self, Path(f"<{name}>"), f"{self.package}.{name}", source)
        for _ in range(2):
            self._analysed.clear()
            self._run_module(module)
        return sorted(self.findings.values(), key=lambda f: (f.file, f.line, f.call))

    def _our_module(self, relative: str) -> OurModule:
        path = self.package_root / relative
        dotted = f"{self.package}.{relative[:-3].replace('/', '.')}".removesuffix(".__init__")
        if dotted not in self.modules:
            self.modules[dotted] = OurModule(self, path, dotted)
        return self.modules[dotted]

    def _note(self, module: OurModule, node, call: str, status: str, detail: str = "") -> None:
        key = (module.label(), node.lineno, node.col_offset, call)
        self.findings[key] = Finding(module.label(), node.lineno, call, status, detail)

    # -- statements -----------------------------------------------------------------------------------------------
    def _run_module(self, module: OurModule) -> None:
        self._block(module, module.tree.body, module.env, owner=None)

    def _block(self, module: OurModule, body: list, env: dict, owner, returns: list | None = None) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                env[stmt.name] = Ours(stmt, module, owner)
                if owner is None or env is not module.env:
                    self._function(module, stmt, dict(env), owner, {})
                continue
            if isinstance(stmt, ast.ClassDef):
                env[stmt.name] = Ours(stmt, module)
                for item in stmt.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self._function(module, item, dict(env), stmt, {})
                continue
            self._statement(module, stmt, env, owner, returns)

    def _function(self, module, node, env: dict, owner, arg_types: dict):
        key = (id(node), tuple(sorted((k, _describe(v)) for k, v in arg_types.items())))
        if key in self._analysed:
            return self._returned.get(key)
        self._analysed.add(key)
        params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        for param in params:  # annotated parameters: the package's classes, the wheels' classes, stub-only types
            typed = self._annotation(module, param.annotation, env)
            if typed is not None:
                env[param.arg] = typed
        if owner is not None and params and not any(ast.unparse(d) == "staticmethod" for d in node.decorator_list):
            env[params[0].arg] = OurInst(owner, module)
        env.update(arg_types)
        returns: list = []
        self._block(module, node.body, env, owner, returns)
        known = [r for r in returns if r is not None]
        self._returned[key] = known[0] if known else None
        return self._returned[key]

    def _annotation(self, module, annotation, env: dict):
        if annotation is None:
            return None
        text = annotation.value if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str) \
            else ast.unparse(annotation)
        text = text.split("|")[0].strip().strip("'\"")
        local = env.get(text, module.env.get(text))
        if isinstance(local, Ours) and isinstance(local.node, ast.ClassDef):
            return OurInst(local.node, local.module)
        if _family(text, STUB_ONLY):
            return Stub(f"{text}()")
        if _family(text, AUDITED):
            found = self.index.resolve(text)
            return Inst(found) if isinstance(found, Class) else None
        return None

    def _statement(self, module, stmt, env: dict, owner, returns) -> None:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                self._import(module, stmt, alias.name)
                env[alias.asname or alias.name.split(".")[0]] = Mod(alias.name if alias.asname else alias.name.split(".")[0])
            return
        if isinstance(stmt, ast.ImportFrom):
            self._import_from(module, stmt, env)
            return
        compound = isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try))
        headers = [getattr(stmt, f) for f in ("test", "iter") if getattr(stmt, f, None) is not None]
        headers += [item.context_expr for item in getattr(stmt, "items", [])]
        for part in (headers if compound else [stmt]):
            for node in ast.walk(part):  # every call and attribute of the statement, inner ones too
                if isinstance(node, ast.Call) or (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)):
                    self._eval(module, node, env)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            value = self._eval(module, stmt.value, env)
            for target in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]):
                self._bind(module, target, value, env, owner)
        elif isinstance(stmt, ast.Return) and stmt.value is not None and returns is not None:
            returns.append(self._eval(module, stmt.value, env))
        for field_name in ("body", "orelse", "finalbody"):
            self._block(module, getattr(stmt, field_name, []) or [], env, owner, returns)
        for handler in getattr(stmt, "handlers", []) or []:
            self._block(module, handler.body, env, owner, returns)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                if item.optional_vars is not None:
                    self._bind(module, item.optional_vars, self._eval(module, item.context_expr, env), env, owner)

    def _bind(self, module, target, value, env: dict, owner) -> None:
        if isinstance(target, ast.Name):
            if value is not None:
                env[target.id] = value
        elif isinstance(target, ast.Tuple) and isinstance(value, Tup):
            for t, v in zip(target.elts, value.items):
                self._bind(module, t, v, env, owner)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and owner is not None:
            if value is not None and target.value.id == "self":
                self.class_attrs[(id(owner), target.attr)] = value

    def _import(self, module, node, name: str) -> None:
        if _family(name, AUDITED) and self.index.module(name) is None:
            self._note(module, node, f"import {name}", "missing", "no such module in the 6.2 wheels")
        elif _family(name, AUDITED):
            self._note(module, node, f"import {name}", "ok")
        elif _family(name, STUB_ONLY):
            self._note(module, node, f"import {name}", "cited", name)

    def _import_from(self, module, node: ast.ImportFrom, env: dict) -> None:
        if node.level:
            base = module.dotted.split(".")[: -node.level]
            source = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                target = f"{source}.{alias.name}"
                found = self._our_symbol(source, alias.name) or (self._our_module_or_none(target) and Mod(target))
                if found is not None:
                    env[alias.asname or alias.name] = found
            return
        for alias in node.names:
            full = f"{node.module}.{alias.name}"
            value = self._module_value(full)
            if _family(node.module, AUDITED):
                resolved = self.index.resolve(full)
                self._note(module, node, f"from {node.module} import {alias.name}", "ok" if resolved is not None else
                           "missing", "" if resolved is not None else "no such name in the 6.2 wheels")
            elif _family(node.module, STUB_ONLY) or _family(full, STUB_ONLY):
                self._note(module, node, f"from {node.module} import {alias.name}", "cited", full)
            env[alias.asname or alias.name] = value

    def _our_symbol(self, dotted_module: str, name: str):
        module = self._our_module_or_none(dotted_module)
        if module is None:
            return None
        for node in module.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
                return Ours(node, module)
        return None

    def _our_module_or_none(self, dotted: str):
        if not dotted.startswith(self.package + "."):
            return None
        relative = dotted[len(self.package) + 1:].replace(".", "/")
        for candidate in (f"{relative}.py", f"{relative}/__init__.py"):
            if (self.package_root / candidate).is_file():
                return self._our_module(candidate)
        return None

    def _module_value(self, dotted: str):
        if _family(dotted, STUB_ONLY):
            return Stub(dotted)
        if _family(dotted, AUDITED):
            found = self.index.resolve(dotted)
            return Mod(dotted) if isinstance(found, Module) else Api(found) if found is not None else None
        return Mod(dotted) if dotted in NAMESPACES else None

    # -- expressions ----------------------------------------------------------------------------------------------
    def _eval(self, module, node, env: dict):
        if isinstance(node, ast.Name):
            return env.get(node.id, module.env.get(node.id))
        if isinstance(node, ast.Tuple):
            return Tup(tuple(self._eval(module, e, env) for e in node.elts))
        if isinstance(node, ast.Attribute):
            return self._attribute(module, node, self._eval(module, node.value, env))
        if isinstance(node, ast.Call):
            return self._call(module, node, self._eval(module, node.func, env), env)
        return None

    def _attribute(self, module, node: ast.Attribute, base):
        text = ast.unparse(node)
        if isinstance(base, Mod):
            value = self._module_value(f"{base.name}.{node.attr}")
            if isinstance(value, Api) and isinstance(value.obj, tuple) and _family(base.name, AUDITED):
                self._note(module, node, text, "ok", "a module constant")
            return value or self._missing(module, node, text, base.name)
        if isinstance(base, Ours) and isinstance(base.node, ast.ClassDef):
            for item in base.node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == node.attr:
                    return Ours(item, base.module, base.node)
            return None
        if isinstance(base, Stub):
            return Stub(f"{base.path}.{node.attr}")
        if isinstance(base, Api) and isinstance(base.obj, Class):
            member = base.obj.member(node.attr, self.index)
            if isinstance(member, tuple):
                self._note(module, node, text, "ok", "a class attribute")
            return Api(member) if member is not None else self._missing(module, node, text, base.obj.name)
        if isinstance(base, Inst):
            member = base.cls.member(node.attr, self.index)
            if member is None:
                return self._missing(module, node, text, base.cls.name)
            if isinstance(member, Function):
                return Bound(member)
            self._note(module, node, text, "ok", f"{member[0]} of {base.cls.name}")
            if member[0] == "property" and member[1] is not None:
                return self._instance_of(base.cls.module, ast.unparse(member[1]))
            return None
        if isinstance(base, OurInst):
            for item in base.cls.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == node.attr:
                    return Ours(item, base.module, base.cls)
            return self.class_attrs.get((id(base.cls), node.attr))
        return None

    def _missing(self, module, node, text: str, where: str):
        if _family(where, AUDITED):
            self._note(module, node, text, "missing", f"{where} has no {text.rsplit('.', 1)[1]!r} in the 6.2 wheels")
        return None

    def _instance_of(self, api_module: Module, type_name: str):
        if type_name.split("[")[0] in ("None", "dict", "list", "tuple", "bool", "int", "float", "str", "typing.Any"):
            return None
        resolved = self.index.resolve_in(api_module, type_name) or self.index.resolve(type_name)
        return Inst(resolved) if isinstance(resolved, Class) else None

    def _call(self, module, node: ast.Call, func, env: dict):
        text = ast.unparse(node.func)
        positional = sum(1 for a in node.args if not isinstance(a, ast.Starred))
        starred = any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords)
        keywords = [k.arg for k in node.keywords if k.arg is not None]
        if isinstance(func, Stub):
            self._note(module, node, text, "cited", func.path)
            # a USD context's stage is pxr's Usd.Stage: USD's own API from there on, not Kit's
            return None if func.path.endswith(".get_stage") else Stub(f"{func.path}()")
        fn, bound = None, False
        if isinstance(func, Api) and isinstance(func.obj, Function):
            fn = func.obj
        elif isinstance(func, Bound):
            fn, bound = func.fn, True
        elif isinstance(func, Api) and isinstance(func.obj, Class):
            init = func.obj.member("__init__", self.index)
            if isinstance(init, Function) and not starred:
                self._check(module, node, text, init, positional, keywords, True)
            else:
                self._note(module, node, text, "ok")
            return Inst(func.obj)
        if fn is not None:
            if starred:
                self._note(module, node, text, "ok", "arguments unpacked: count not checked")
            else:
                self._check(module, node, text, fn, positional, keywords, bound)
            returned = fn.returns()
            return self._instance_of(fn.module, returned) if returned else None
        if isinstance(func, Ours):
            return self._call_ours(module, node, func, env)
        root = node.func
        while isinstance(root, (ast.Attribute, ast.Call)):
            root = root.value if isinstance(root, ast.Attribute) else root.func
        rooted = self._eval(module, root, env) if isinstance(root, ast.Name) else None
        audited_root = isinstance(rooted, (Api, Inst, Bound)) or (isinstance(rooted, Mod) and _family(rooted.name, AUDITED))
        if audited_root and func is None:
            self._note(module, node, text, "untyped", "the receiver's type could not be followed")
        return None

    def _check(self, module, node, text: str, fn: Function, positional: int, keywords: list[str], bound: bool) -> None:
        problem = fn.accepts(positional, keywords, bound)
        if problem is None:
            for i, arg in enumerate(node.args):
                problem = problem or self._none_for_plain(fn.annotation(i, bound), arg)
            for keyword in node.keywords:
                problem = problem or self._none_for_plain(fn.keyword_annotation(keyword.arg), keyword.value)
        self._note(module, node, text, "bad call" if problem else "ok", f"{problem} ({fn.where()})" if problem else fn.where())

    @staticmethod
    def _none_for_plain(annotation, arg) -> str | None:
        if annotation is not None and isinstance(arg, ast.Constant) and arg.value is None:
            if ast.unparse(annotation) in PLAIN_TYPES:
                return f"None passed where the parameter is typed {ast.unparse(annotation)}"
        return None

    def _call_ours(self, module, node: ast.Call, func: Ours, env: dict):
        target = func.node
        if isinstance(target, ast.ClassDef):
            init = next((n for n in target.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
            if init is not None:
                self._function(func.module, init, dict(func.module.env), target, self._arg_types(module, init, node, env, True))
            return OurInst(target, func.module)
        bound = func.owner is not None and not any(ast.unparse(d) in ("staticmethod",
                                                                      "classmethod") for d in target.decorator_list)
        is_classmethod = any(ast.unparse(d) == "classmethod" for d in target.decorator_list)
        skip = 1 if func.owner is not None and (bound or is_classmethod) else 0
        arg_types = self._arg_types(module, target, node, env, skip)
        return self._function(func.module, target, dict(func.module.env), func.owner, arg_types)

    def _arg_types(self, module, target, node: ast.Call, env: dict, skip) -> dict:
        params = [*target.args.posonlyargs, *target.args.args][int(skip):]
        types = {p.arg: self._eval(module, a, env) for p, a in zip(params, node.args) if not isinstance(a, ast.Starred)}
        types.update({k.arg: self._eval(module, k.value, env) for k in node.keywords if k.arg})
        return {k: v for k, v in types.items() if isinstance(v, (Inst, Stub, Mod, Api))}
