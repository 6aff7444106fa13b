"""`simready-physics show-config [--config F]... [--set T.K=V]...`: the effective configuration as TOML, each value
with its unit."""

from __future__ import annotations

from rich.console import Console

from ..core.status import ExitCode


def add_parser(sub) -> None:
    from .validate import example_setting

    show = sub.add_parser(
        "show-config", help="print the effective configuration as TOML",
        description="Print the configuration a validate run with the same --config/--set would use, as TOML "
        "(the defaults of every test and of [run], then the overrides in order).",
    )
    show.add_argument("--config", action="append", default=[], metavar="FILE",
                      help="TOML file of overrides, sections are test names and run (repeatable, applied in order)")
    show.add_argument("--set", action="append", default=[], metavar="TEST.KEY=VALUE",
                      help=f"override one setting, e.g. {example_setting()} (repeatable, after the files)")


def run(args, console: Console) -> int:
    from ..reports.settings import config_toml
    from .validate import load_config

    config = load_config(args, console)
    print(config_toml(config))
    return ExitCode.OK
