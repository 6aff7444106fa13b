"""`simready-physics`: the headless command line, a dispatcher over one module per command.

    simready-physics validate PATH... [--tests a,b] [--engine physx|sapien|newton|kit] [--compare E1,E2]
                                      [--config F] [--set k=v] [--out DIR] [--json F] [--junit F] [-j N]
                                      [--fail-on-skip] [--no-video] [--no-html] [--quiet] [--debug] ...   (cli/validate.py)
    simready-physics import ROBOT.urdf|ROBOT.xml [--out DIR] [--package NAME=DIR] [--validate]          (cli/import_robot.py)
    simready-physics fix PATH... [--tests a,b] [--out DIR] (a drive-tuning layer, proved by a re-run)   (fix/command.py)
    simready-physics gripper-site ASSET --out SITE.usda [--at PRIM] [--payload KG] ... (a FET028 site layer) (cli/gripper_site.py)
    simready-physics list-tests                                                                         (cli/list_tests.py)
    simready-physics show-config [--config F] [--set k=v]                                               (cli/show_config.py)

Each command module has `add_parser(sub)` and `run(args, console) -> exit code`; a problem with the command line
is a `UsageError` (or a ConfigError, an unknown test, an unavailable engine found before anything runs), said here
in one line with exit code 2. Exit codes: 0 nothing failed, 1 any FAIL or PRECHECK_FAILURE (or SKIP with
--fail-on-skip), 2 usage error, 3 any ERROR. No Python traceback reaches the user unless --debug. Every flag:
docs/cli.md.
"""

from __future__ import annotations

import argparse
import warnings

from ..core.status import ExitCode, UsageError
from ..fix import command as fix_command
from . import gripper_site, import_robot, list_tests, show_config, validate
from ..reports.pipe_console import PipeConsole
from ..reports.safe_text import escape  # control characters in names escaped too

# In the order `--help` lists them.
COMMANDS = {"validate": validate, "import": import_robot, "fix": fix_command, "gripper-site": gripper_site,
            "list-tests": list_tests, "show-config": show_config}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="simready-physics",
        description="Physics-conformance tests for simulation-ready USD assets.",
        epilog="Exit codes: 0 nothing failed, 1 a FAIL or PRECHECK_FAILURE (or a SKIP with --fail-on-skip), "
        "2 usage error, 3 an ERROR or an interrupted run. Every command and flag: docs/cli.md.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command")
    for command in COMMANDS.values():
        command.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """The console script; a reader closing the pipe early is no error (reports.pipe_console.closed_pipe_is_done)."""
    from ..reports.pipe_console import closed_pipe_is_done

    return closed_pipe_is_done(_main, argv)


def _main(argv: list[str] | None) -> int:
    warnings.filterwarnings("ignore")
    parser = build_parser()
    args = parser.parse_args(argv)
    console = PipeConsole(stderr=True, soft_wrap=True)  # `2>&1 | head` must not change the exit code
    if args.version:
        from .._version import __version__

        print(__version__)
        return ExitCode.OK
    if args.command is None:
        parser.print_help()
        return ExitCode.USAGE
    try:
        if args.command not in ("validate", "fix", "import"):
            return int(COMMANDS[args.command].run(args, console))
        from ..run.command_guard import guarded

        with guarded(args.command) as signals:  # SIGTERM as Ctrl-C; a second signal never costs the reports
            return signals.exit_code(COMMANDS[args.command].run(args, console))
    except UsageError as exc:
        from ..reports.command_line import say_error

        say_error(console, str(exc))
        return int(ExitCode.USAGE)
    except KeyboardInterrupt:
        console.print("[bold yellow]interrupted[/]")
        return ExitCode.ERROR
    except BrokenPipeError:
        raise  # the reader closed the pipe: main() ends quietly
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one clear line, no traceback
        if getattr(args, "debug", False):
            raise
        console.print(f"[bold red]error:[/] {escape(f'{type(exc).__name__}: {exc}')} (run with --debug for the traceback)",
                      highlight=False, soft_wrap=True)
        return ExitCode.ERROR


__all__ = ["COMMANDS", "build_parser", "main"]
