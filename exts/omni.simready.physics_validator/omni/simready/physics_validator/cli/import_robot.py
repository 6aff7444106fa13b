"""`simready-physics import ROBOT.urdf|ROBOT.xml [--out DIR] [--package NAME=DIR]... [--name NAME] [--validate]`:
the road's first step, from URDF or MJCF to a USD robot `validate` can judge (docs/import.md).

Runs NVIDIA's urdf-usd-converter / mujoco-usd-converter from a venv of their own (installed on first use; `--setup`
installs or checks it and exits), resolves package:// paths, names the output OUT/<name>/<name>.usda, checks that
every movable joint and every link's meshes arrived, and prints the validate and fix commands to run next
(`--validate` runs the first). Exit codes: 0 the robot arrived whole (with --validate: validate's code), 1 joints or
meshes missing (said, the output kept), 2 a usage error (nothing converted), 3 the converters could not be installed
or failed (their message and log).
"""

from __future__ import annotations

import argparse
import os
import shlex
from pathlib import Path

from rich.console import Console

from ..core.status import ExitCode, UsageError
from ..reports.command_line import say_error, say_notice
from ..reports.pipe_console import PipeConsole
from ..reports.safe_text import escape

DEFAULT_OUT = "simready-import"


def add_parser(sub) -> None:
    command = sub.add_parser(
        "import", help="convert a URDF or MJCF robot to USD with NVIDIA's converters and check what arrived",
        usage="%(prog)s ROBOT.urdf|ROBOT.xml [--out DIR] [--package NAME=DIR]... [--name NAME] [--validate]\n"
              "       %(prog)s --setup",
        description="Converts with urdf-usd-converter 0.3.4 / mujoco-usd-converter 0.8.0 (installed on first use into "
                    "a venv of their own under ~/.cache/simready-physics), checks that every movable joint and every "
                    "link's meshes arrived, and prints the validate command to run next. docs/import.md.")
    command.add_argument("source", nargs="?", metavar="ROBOT", help="a URDF (<robot>) or MJCF (<mujoco>) file")
    command.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                         help=f"where OUT/<name>/<name>.usda goes (default: ./{DEFAULT_OUT})")
    command.add_argument("--package", action="append", default=[], metavar="NAME=DIR",
                         help="where package://NAME/ points (repeatable; DIR relative to here); found by package.xml "
                              "otherwise")
    command.add_argument("--name", default="", help="the output's name (default: the source's file name, or its folder's "
                                                    "when the file is robot.xml or model.xml)")
    command.add_argument("--validate", action="store_true", help="run `simready-physics validate` on the result")
    command.add_argument("--setup", action="store_true", help="install (or check) the converters' venv and exit")
    command.add_argument("--quiet", action="store_true", help="print only the result and errors")
    command.add_argument("--debug", action="store_true", help="show Python tracebacks")


def run(args, console: Console) -> int:
    from ..robot_import import converter_env
    from ..robot_import.source import ConversionError, SourceError

    def say(text: str) -> None:
        if not args.quiet:
            console.print(escape(text), highlight=False, soft_wrap=True)

    try:
        if args.setup:
            env = converter_env.ensure(say)
            PipeConsole(highlight=False).print(escape(f"converters ready: {env.venv}"), soft_wrap=True)
            return ExitCode.OK
        if not args.source:
            raise UsageError("import needs a URDF or MJCF file (or --setup): simready-physics import ROBOT.urdf --out DIR")
        result = _import(args, say)
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    except converter_env.ConverterEnvError as exc:
        say_error(console, str(exc))
        return ExitCode.ERROR
    except ConversionError as exc:
        say_error(console, str(exc) + (f" (the converter's whole output: {exc.log_path})" if exc.log_path else ""))
        return ExitCode.ERROR
    _print_result(result)
    code = int(ExitCode.OK if result.arrival.complete else ExitCode.FAILED)
    if args.validate:
        code = max(code, _validate(result.asset, console))
    return code


def _import(args, say):
    from ..robot_import import ImportRequest, import_robot
    from ..robot_import.packages import parse_package_flags

    try:
        packages = parse_package_flags(args.package, Path.cwd())
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    request = ImportRequest(source=Path(args.source).expanduser().absolute(), out=Path(args.out).expanduser().absolute(),
                            packages=packages, name=args.name)
    return import_robot(request, say)


def _print_result(result) -> None:
    out = PipeConsole(highlight=False)
    model, arrived = result.source, result.arrival
    show = _shown(result.asset)

    def line(text: str) -> None:
        out.print(escape(text), soft_wrap=True)

    line(f"imported {model.path.name} ({model.kind.upper()}, robot {model.name!r}) with {result.converter} in "
         f"{result.seconds:.1f} s -> {show}")
    line(f"  joints: {arrived.joints_found} of {arrived.joints_expected} arrived; meshes: "
         f"{arrived.mesh_links_expected - len(arrived.missing_meshes)} of {arrived.mesh_links_expected} links with meshes "
         f"have them ({arrived.meshes} Mesh prims); {arrived.bodies} rigid bodies, {arrived.mass_kg:.4g} kg authored")
    if arrived.massless_bodies:
        line(f"  {arrived.massless_bodies} of {arrived.bodies} bodies have no mass authored: the engine derives theirs "
             "(validate's readback shows the values it used)")
    for package in model.packages.values():
        line(f"  package://{package.name}/ -> {package.folder} (found by {package.how})")
    for missing in arrived.missing_joints:
        line(f"  MISSING joint {missing}")
    for missing in arrived.missing_meshes:
        line(f"  MISSING meshes of {missing}")
    if not arrived.complete:
        line("  the robot did not arrive whole: validate judges what is there; fix the source (or pass --package) and "
             "import again")
    if not arrived.drives:
        rated = f"{arrived.rated_joints} joint(s) carry a rated effort"
        if arrived.zero_rated_joints:
            rated += f", {arrived.zero_rated_joints} are rated 0 (no rating: fix sizes their maxForce, marked assumed)"
        if arrived.actuators:
            rated += f"; {arrived.actuators} MJCF actuator(s), which PhysX does not simulate"
        line(f"  drives: none (the converters author none; {rated}): the driven-joint tests SKIP until "
             "`fix --add-drives` proposes drives")
    line(f"next: simready-physics validate {shlex.quote(show)}")
    if not arrived.drives:
        line(f"      simready-physics fix {shlex.quote(show)} --add-drives")


def _validate(asset: Path, console: Console) -> int:
    """`simready-physics validate ASSET` with its defaults, as the printed next step says."""
    from . import validate

    parser = argparse.ArgumentParser(prog="simready-physics")
    validate.add_parser(parser.add_subparsers(dest="command"))
    say_notice(console, f"running: simready-physics validate {shlex.quote(_shown(asset))}")
    return int(validate.run(parser.parse_args(["validate", str(asset)]), console))


def _shown(path: Path) -> str:
    """The path as the user would type it: relative to the current folder when below it."""
    try:
        return os.path.relpath(path) if Path(path).resolve().is_relative_to(Path.cwd().resolve()) else str(path)
    except ValueError:
        return str(path)
