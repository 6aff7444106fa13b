"""One writer for OUT: no module of the package makes a file or folder except through core.out_writer.

Walks every module's source for the calls that create, write, move or remove files and folders (open for writing,
os/shutil/tempfile's writers, Path.mkdir/write_text/unlink/..., pxr's Save/Export/CreateNew, savefig, Image.save).
Each one outside core/out_writer.py must be listed below with why it does not write under OUT (a temp folder of the
system, a kernel cache, a temp path the writer handed out); an entry that no longer matches anything fails too, so
the list stays exact. A new writer under OUT routes through core.out_writer (docs/architecture.md, "Running and
safety"); the behavioural side (links planted in OUT, at every depth) is the robustness corpus's.
"""

from __future__ import annotations

import ast
from pathlib import Path

import omni.simready.physics_validator as package

ROOT = Path(package.__file__).parent
WRITER = "core/out_writer.py"

OS_WRITES = {"mkdir", "makedirs", "rename", "renames", "replace", "remove", "unlink", "rmdir", "removedirs", "symlink",
             "link", "mkfifo", "mknod", "truncate", "chmod", "chown", "utime"}
SHUTIL_WRITES = {"copy", "copy2", "copyfile", "copytree", "move", "rmtree", "make_archive", "unpack_archive", "copymode",
                 "copystat"}
TEMPFILE_WRITES = {"mkstemp", "mkdtemp", "NamedTemporaryFile", "TemporaryDirectory", "TemporaryFile",
                   "SpooledTemporaryFile"}
METHOD_WRITES = {"mkdir", "write_text", "write_bytes", "touch", "symlink_to", "hardlink_to", "unlink", "rmdir", "rename",
                 "savefig", "Save", "Export", "CreateNew", "savez", "savez_compressed", "save", "chmod"}
WRITE_FLAGS = {"O_CREAT", "O_WRONLY", "O_RDWR", "O_TRUNC", "O_APPEND"}

# (module, enclosing function, call) -> why it is not a write under OUT. Keep it exact: each entry must still match.
ALLOWED: dict[tuple[str, str, str], str] = {
    # the system temp folder, a worker's scratch folder, /proc, the null device
    ("run/worker_pool.py", "Worker.__init__", "tempfile.mkdtemp"): "a worker's own temp folder (TMPDIR)",
    ("run/worker_pool.py", "Worker.__init__", "shutil.rmtree"): "a worker's own temp folder (TMPDIR)",
    ("run/worker_pool.py", "Worker.reap", "shutil.rmtree"): "a worker's own temp folder (TMPDIR)",
    ("run/worker_main.py", "_quick_exit", "shutil.rmtree"): "a worker's own temp folder (TMPDIR)",
    ("run/worker_main.py", "reset_peak_rss", "open"): "/proc/self/clear_refs",
    ("reports/pipe_console.py", "silence", "os.open"): "the null device, for a closed stdout",
    ("engines/quiet_warp.py", "native_stderr_without", "tempfile.TemporaryFile"): "an anonymous temp file (stderr capture)",
    ("engines/physx/wrapper.py", "make_workdir", ".mkdir"): "the wrapper stage's temp folder (system temp, never OUT)",
    ("engines/physx/wrapper.py", "make_workdir", "tempfile.mkdtemp"): "the wrapper stage's temp folder",
    ("engines/physx/wrapper.py", "_sweep_orphans", "shutil.rmtree"): "dead workers' wrapper temp folders",
    ("engines/physx/wrapper.py", "author_wrapper", ".CreateNew"): "the wrapper stage, in its temp folder",
    ("engines/physx/wrapper.py", "author_wrapper", ".Save"): "the wrapper stage, in its temp folder",
    ("core/usd/referable.py", "referable_path", ".symlink_to"): "a link in the engine's temp folder to the asset's",
    ("core/usd/referable.py", "referable_path", ".CreateNew"): "the root layer's copy, in the engine's temp folder",
    ("core/usd/referable.py", "referable_path", ".Save"): "the root layer's copy, in the engine's temp folder",
    ("core/rig.py", "TestRig.close", "shutil.rmtree"): "a rig's temp folder",
    ("core/rig.py", "build_rig", "tempfile.mkdtemp"): "a rig's temp folder",
    ("core/rig.py", "build_rig", ".CreateNew"): "a rig's layer, in its temp folder",
    ("core/rig.py", "build_rig", ".Save"): "a rig's layer, in its temp folder",
    ("core/rig.py", "build_rig", "shutil.rmtree"): "a rig's temp folder, when building it failed",
    ("live/open_stage.py", "read_stage", "tempfile.mkstemp"): "the live stage exported to a temp file",
    ("live/open_stage.py", "read_stage", ".Export"): "the live stage exported to a temp file",
    ("live/open_stage.py", "read_stage", "os.unlink"): "the live stage's temp file",
    # Newton's kernel cache (the user's cache folder, SIMREADY_WARP_CACHE): shared across runs, never OUT
    ("engines/newton/runtime.py", "import_newton", ".mkdir"): "Newton's kernel cache",
    ("engines/newton/runtime.py", "mark_warm", ".touch"): "Newton's kernel cache's ready marker",
    ("engines/newton/warm_up.py", "warm_kernels", "tempfile.TemporaryDirectory"): "the warm-up asset's temp folder",
    ("engines/newton/warm_up.py", "warm_kernels", ".write_text"): "the warm-up asset, in its temp folder",
    # the side-by-side Newton targets (newton.target=isaacsim-6.2), pip-installed once under the user's cache
    # (SIMREADY_NEWTON_SITES), never OUT; the lock file beside them also serialises the kernel warm-up
    ("engines/newton/install.py", "ensure_installed", ".mkdir"): "the side-by-side Newton targets' folder (~/.cache)",
    ("engines/newton/install.py", "ensure_installed", "shutil.rmtree"): "a half-made or replaced Newton target (~/.cache)",
    ("engines/newton/install.py", "ensure_installed", ".rename"): "a Newton target put in place once pip succeeded",
    ("engines/newton/install.py", "exclusive", ".mkdir"): "the lock file's folder (~/.cache or the kernel cache)",
    ("engines/newton/install.py", "exclusive", "os.open"): "the install or warm-up lock file (~/.cache)",
    # the URDF/MJCF converters' own venv, installed once under the user's cache (robot_import), never OUT
    ("robot_import/converter_env.py", "_install_lock", ".mkdir"): "the converters' venv folder (~/.cache)",
    ("robot_import/converter_env.py", "_install_lock", "os.open"): "the converters' install lock (~/.cache)",
    ("robot_import/converter_env.py", "_install", "shutil.rmtree"): "a half-made converters' venv (~/.cache)",
    ("robot_import/converter_env.py", "_install", "open"): "the converters' install log (~/.cache)",
    ("robot_import/converter_env.py", "_install", ".write_text"): "the converters' venv stamp (~/.cache)",
    # the one write outside OUT, only when the user asks (--record-beside-asset): NVIDIA's validation record in the
    # asset's own .metadata/, links refused, by replace from the folder's descriptor (reports/asset_sidecar.py)
    ("reports/asset_sidecar.py", "_metadata_folder", "os.mkdir"): "the asset folder's .metadata/, when asked",
    ("reports/asset_sidecar.py", "_replace", "os.open"): "the record's temp file in the asset's .metadata/, when asked",
    ("reports/asset_sidecar.py", "_replace", "os.rename"): "the record put in place in the asset's .metadata/",
    ("reports/asset_sidecar.py", "_replace", "os.unlink"): "the record's temp file, when writing it failed",
    # writers that take a path, writing the temp path out_writer.replacing handed them (or memory)
    ("recording/recorder.py", "Recording._write_poses", ".savez"): "an in-memory buffer (io.BytesIO)",
    ("recording/video_job.py", "_save_jpeg", ".save"): "the temp path of out_writer.replacing",
    ("reports/plots.py", "write_plots", ".savefig"): "the temp path of out_writer.replacing",
    ("reports/html.py", "_media", "shutil.copyfile"): "the temp path of out_writer.replacing",
}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _mode_writes(call: ast.Call, position: int) -> bool:
    mode = call.args[position] if len(call.args) > position else next(
        (k.value for k in call.keywords if k.arg == "mode"), None)
    return isinstance(mode, ast.Constant) and isinstance(mode.value, str) and any(c in mode.value for c in "wax+")


def _flag_names(node: ast.AST) -> set[str]:
    return {_name(n) for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Attribute))}


def writing_call(call: ast.Call, aliases: dict[str, str]) -> str:
    """The call's name as the allow-list spells it when it creates, writes, moves or removes a file, else ''."""
    func = call.func
    if isinstance(func, ast.Name):
        if func.id == "open" and _mode_writes(call, 1):
            return "open"
        origin = aliases.get(func.id, "")
        module = origin.rsplit(".", 1)[0] if "." in origin else ""
        for name, writes in (("os", OS_WRITES), ("shutil", SHUTIL_WRITES), ("tempfile", TEMPFILE_WRITES)):
            if module == name and func.id in writes:
                return f"{name}.{func.id}"
        return ""
    if not isinstance(func, ast.Attribute):
        return ""
    owner = _name(func.value) if isinstance(func.value, ast.Name) else ""
    owner = aliases.get(owner, owner)
    if owner.endswith("out_writer"):  # the writer itself: what every module should call
        return ""
    if owner == "os" and func.attr == "open":
        flags = call.args[1] if len(call.args) > 1 else None
        return "os.open" if flags is not None and _flag_names(flags) & WRITE_FLAGS else ""
    for name, writes in (("os", OS_WRITES), ("shutil", SHUTIL_WRITES), ("tempfile", TEMPFILE_WRITES)):
        if owner == name:
            return f"{name}.{func.attr}" if func.attr in writes else ""
    if func.attr == "open" and _mode_writes(call, 0):
        return ".open"
    if func.attr == "replace" and len(call.args) == 1 and not call.keywords:  # Path.replace (str.replace takes two)
        return ".replace"
    return f".{func.attr}" if func.attr in METHOD_WRITES else ""


def findings() -> list[tuple[str, str, str, int]]:
    """(module, enclosing function, call, line) of every writing call outside the writer."""
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        module = path.relative_to(ROOT).as_posix()
        if module == WRITER:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                aliases.update({a.asname or a.name: a.name for a in node.names})
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                aliases.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names})
        out += _walk(tree, module, aliases, [])
    return out


def _walk(node: ast.AST, module: str, aliases: dict[str, str], scope: list[str]) -> list[tuple[str, str, str, int]]:
    found = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found += _walk(child, module, aliases, scope + [child.name])
            continue
        if isinstance(child, ast.Call):
            name = writing_call(child, aliases)
            if name:
                found.append((module, _qualname(scope), name, child.lineno))
        found += _walk(child, module, aliases, scope)
    return found


def _qualname(scope: list[str]) -> str:
    """The function a call is in, as `Class.method` or `function` (nested helpers count as their outer function)."""
    if not scope:
        return "<module>"
    return ".".join(scope[:2]) if scope[0][:1].isupper() else scope[0]


def test_no_module_writes_files_or_folders_but_the_writer():
    unlisted = [f"{m}:{line} {call} in {fn}" for m, fn, call, line in findings() if (m, fn, call) not in ALLOWED]
    assert not unlisted, ("files or folders made outside core/out_writer.py (route them through it, or list here why "
                          "they are not under OUT):\n  " + "\n  ".join(unlisted))


def test_every_allowed_writer_still_exists():
    seen = {(m, fn, call) for m, fn, call, _ in findings()}
    stale = [key for key in ALLOWED if key not in seen]
    assert not stale, f"allow-list entries that match nothing (remove them): {stale}"


def test_the_rule_sees_the_writes_it_forbids():
    source = ("import os, shutil\nfrom pathlib import Path\nfrom tempfile import mkdtemp\n"
              "def f(p):\n    Path(p).mkdir(parents=True)\n    open(p, 'w')\n    p.open(mode='a')\n"
              "    os.open(p, os.O_WRONLY | os.O_CREAT)\n    os.open(p, os.O_RDONLY)\n    shutil.copyfile(p, p)\n"
              "    mkdtemp()\n    p.replace(p)\n    'a'.replace('a', 'b')\n    layer.Save()\n    d.copy()\n")
    tree = ast.parse(source)
    aliases = {"os": "os", "shutil": "shutil", "Path": "pathlib.Path", "mkdtemp": "tempfile.mkdtemp"}
    calls = [call for _, _, call, _ in _walk(tree, "x.py", aliases, [])]
    assert calls == [".mkdir", "open", ".open", "os.open", "shutil.copyfile", "tempfile.mkdtemp", ".replace", ".Save"]
