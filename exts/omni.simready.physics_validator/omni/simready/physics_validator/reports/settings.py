"""The settings as people read them: `list-tests` (each test with its defaults and their units) and `show-config`
(the effective configuration as TOML, each value's unit in a comment). Units come from each setting's declaration
(core.setting_units); `--set` takes a value in that unit, or with its own (`0.5deg`, `5mm`, `2%`)."""

from __future__ import annotations

import textwrap

from ..core.setting_units import unit_of, with_unit

NBSP = "\u00a0"


def _toml_value(value) -> str:
    """One value as TOML writes it (NaN as the string "nan", as the config reads it back)."""
    import tomli_w

    if isinstance(value, float) and value != value:
        value = "nan"
    if isinstance(value, list):  # one line, as --set takes it: [0.3, 0.6, 0.5]
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return tomli_w.dumps({"v": value}).strip()[len("v = "):]


def default_text(field) -> str:
    """A config field's default as --set takes it (TOML): default_factory values too, never PydanticUndefined."""
    value = field.get_default(call_default_factory=True)
    try:
        return _toml_value(value)
    except (TypeError, ValueError):
        return str(value)


def test_listing(registry, width: int) -> list[str]:
    """One block per test: name, version, features; its summary; every setting with its default and unit."""
    lines: list[str] = []
    for index, (name, test_cls) in enumerate(registry.items()):
        if index:
            lines.append("")
        lines += textwrap.wrap(f"{name} {test_cls.version}  {', '.join(test_cls.features)}", width=width,
                               subsequent_indent="    ")
        # a setting and its unit never split across lines (NBSP is no break point for textwrap)
        defaults = ", ".join(f"{key}={with_unit(default_text(field), unit_of(test_cls.Config, key))}".replace(" ", NBSP)
                             for key, field in test_cls.Config.model_fields.items())
        asked = "" if test_cls.runs_by_default else f" Runs only when asked for (--tests {name})."
        summary = test_cls.summary + asked
        for text, first, rest in ((summary, "  ", "  "), (defaults, "  defaults: ", "    ")):
            wrapped = textwrap.wrap(text, width=width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False)
            lines += [line.replace(NBSP, " ") for line in wrapped]
    return lines


def config_toml(config) -> str:
    """The effective configuration as TOML, each value followed by its unit as a comment (`# m`, `# rad`)."""
    sections = {"run": config.run, **config.engines, **config.tests}
    out: list[str] = []
    for section, model in sections.items():
        out.append(f"[{section}]")
        for key, value in model.model_dump().items():
            if value is None:
                continue
            unit = unit_of(type(model), key)
            out.append(f"{key} = {_toml_value(value)}" + (f"  # {unit}" if unit else ""))
        out.append("")
    return "\n".join(out)
