"""One URDF or MJCF to a USD robot, checked: the steps `simready-physics import` runs (cli/import_robot.py says them).

1. read the source (source.py): its kind by the root element; a URDF's package:// folders resolved (packages.py),
   an unresolved one a SourceError before anything is installed or converted;
2. the converters' venv (converter_env.py), installed on first use;
3. an MJCF read by MuJoCo in that venv (joints, mesh geoms);
4. the converter run into a staging folder under OUT (placement.py), with every package as an absolute `--package`;
   a failure is a ConversionError with the converter's last error line and its log kept beside OUT;
5. the top file named `<name>.usda`, the arrival check (arrival.py), import.json and converter.log written, the
   folder put in place as OUT/<name>/.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import arrival as arrival_check
from . import converter_env, placement
from .source import ConversionError, SourceError, SourceModel, kind_of, output_name, read_mjcf, read_urdf, safe_name

CONVERT_SECONDS = 1800


@dataclass
class ImportRequest:
    source: Path
    out: Path
    packages: dict[str, Path] = field(default_factory=dict)  # --package NAME=DIR, absolute
    name: str = ""  # --name; default output_name(source)


@dataclass
class ImportResult:
    asset: Path
    source: SourceModel
    arrival: arrival_check.Arrival
    converter: str  # "urdf-usd-converter 0.3.4"
    seconds: float


def read_source(request: ImportRequest) -> SourceModel | None:
    """The URDF as read (None for an MJCF: MuJoCo reads it once the converters are there); SourceError for a
    source that cannot be imported as given, unresolved packages included."""
    source = request.source
    if not source.is_file():
        raise SourceError(f"no such file: {source}" if not source.exists() else f"not a file: {source}")
    if kind_of(source) == "mjcf":
        return None
    model = read_urdf(source, request.packages)
    if model.unresolved:
        lines = [f"package://{r.name}/ (used by {_count_uses(model, r.name)} mesh file(s))" for r in model.unresolved]
        raise SourceError(f"{source.name} names meshes in package(s) not found: {', '.join(lines)}. Searched: package.xml "
                          f"in the folders above the file and beside them, ROS_PACKAGE_PATH, AMENT_PREFIX_PATH, a folder "
                          f"of that name above the file, a folder above it holding every file named. Pass "
                          + " ".join(f"--package {r.name}=DIR" for r in model.unresolved)
                          + " (DIR: the folder the package:// paths start from)")
    return model


def import_robot(request: ImportRequest, say: Callable[[str], None]) -> ImportResult:
    started = time.monotonic()
    model = read_source(request)
    name = safe_name(request.name) if request.name else (output_name(model) if model else "")
    if request.name and not name:
        raise SourceError(f"--name {request.name!r}: no letter or digit left to name a file with")
    if problem := placement.out_problem(request.out) or (name and placement.target_problem(request.out, name)):
        raise SourceError(problem)
    env = converter_env.ensure(say)
    if model is None:
        model = read_mjcf(request.source, env.python)
        name = name or output_name(model)
        if problem := placement.target_problem(request.out, name):
            raise SourceError(problem)
    command = [str(env.tool(model.kind)), str(request.source)]
    for package in model.packages.values():
        command += ["--package", f"{package.name}={package.folder}"]
    staged = placement.staging(request.out, name)
    try:
        log = _run(command + [str(staged)], model)
        top = placement.top_layer(staged, name)
        arrived = arrival_check.check(top, model, log)
        converter = f"{converter_env.TOOLS[model.kind].replace('_', '-')} {converter_env.VERSIONS[model.kind]}"
        placement.write_record(staged, _record(request, model, arrived, command, converter, top.name), log)
        folder = placement.place(staged, request.out, name)
    except BaseException as exc:
        placement.discard(staged)
        if isinstance(exc, ConversionError) and exc.log:
            exc.log_path = placement.keep_failed_log(request.out, name, exc.log)
        raise
    return ImportResult(folder / top.name, model, arrived, converter, time.monotonic() - started)


def _run(command: list[str], model: SourceModel) -> str:
    """The converter's output (stdout and stderr); a ConversionError when it failed, with its last error line."""
    import subprocess

    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=CONVERT_SECONDS, stdin=subprocess.DEVNULL,
                             env=converter_env.clean_env())
    except subprocess.TimeoutExpired:
        raise ConversionError(f"{Path(command[0]).name} did not finish {model.path.name} in {CONVERT_SECONDS} s") from None
    log = "$ " + " ".join(command) + "\n" + run.stdout + run.stderr
    failed = [ln for ln in log.splitlines() if "Conversion failed" in ln or "Error" in ln or "Traceback" in ln]
    if run.returncode != 0 or any("Conversion failed" in ln for ln in failed):
        last = (failed or [ln for ln in log.splitlines() if ln.strip()] or ["no output"])[-1].strip()
        raise ConversionError(f"{Path(command[0]).name} failed on {model.path.name} (exit {run.returncode}): {last[:400]}",
                              log)
    return log


def _record(request: ImportRequest, model: SourceModel, arrived: arrival_check.Arrival, command: list[str],
            converter: str, top: str) -> dict:
    return {"source": str(request.source), "kind": model.kind, "robot_name": model.name, "asset": top,
            "converter": converter, "command": command,
            "packages": {r.name: {"folder": str(r.folder), "found_by": r.how} for r in model.packages.values()},
            "arrival": arrived.as_json(), "time": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def _count_uses(model: SourceModel, package: str) -> int:
    return sum(1 for meshes in model.links.values() for m in meshes if m.uri.startswith(f"package://{package}/"))
