"""Turning pydantic's validation errors into located, readable problems.

Each error becomes one `Problem` naming the file, the line the value was written on, and the field's dotted path. An
unknown field gets a did-you-mean hint drawn from the fields the model allows at that place.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any

from pydantic import BaseModel
from pydantic_core import ErrorDetails, ValidationError

from cardgen.data.model import ItemModel
from cardgen.data.yaml_source import PathKey, YamlDocument, dotted
from cardgen.errors import Location, Problem, did_you_mean

_TYPE_WORDS = {
    "int_type": "expected a whole number",
    "int_from_float": "expected a whole number",
    "float_type": "expected a number",
    "string_type": "expected text (quote it if it looks like a number or yes/no)",
    "bool_type": "expected true or false",
    "list_type": "expected a list",
    "dict_type": "expected a mapping of keys to values",
    "model_type": "expected a mapping of keys to values",
    "tuple_type": "expected a list",
    "model_attributes_type": "expected a mapping of keys to values",
}


def validate(
    model: type[BaseModel], value: Any, doc: YamlDocument, base: PathKey = (), label: str = ""
) -> tuple[BaseModel | None, list[Problem]]:
    """Validate `value` (found at `base` inside `doc`) against `model`; return the model or the located problems."""
    try:
        return model.model_validate(value), []
    except ValidationError as exc:
        return None, [to_problem(err, model, doc, base, label) for err in exc.errors(include_url=False)]


def validate_item(
    model: ItemModel, value: Any, doc: YamlDocument, base: PathKey, label: str
) -> tuple[dict[str, Any] | None, list[Problem]]:
    """Validate one item against its card type's validator: its values, or the located problems."""
    try:
        return model.validate(value), []
    except ValidationError as exc:
        return None, [to_problem(err, model, doc, base, label) for err in exc.errors(include_url=False)]


def to_problem(
    err: ErrorDetails, model: type[BaseModel] | ItemModel, doc: YamlDocument, base: PathKey, label: str
) -> Problem:
    """One pydantic error as a `Problem` located in `doc`."""
    loc = tuple(part for part in err["loc"] if not _is_union_tag(part))
    path = (*base, *loc)
    head = dotted(base) + (f" ({label})" if label else "")
    tail = dotted(loc)
    field = f"{head}.{tail}" if head and tail and not tail.startswith("[") else head + tail
    where = Location(doc.display, doc.line_of(path), field or None)
    return Problem(where, _message(err, model, loc))


def _message(err: ErrorDetails, model: type[BaseModel] | ItemModel, loc: tuple[Any, ...]) -> str:
    kind = err["type"]
    given = err.get("input")
    if kind == "extra_forbidden":
        name = loc[-1] if loc else "?"  # a location made only of union tags names no field
        allowed = allowed_fields(model, loc[:-1])
        hint = did_you_mean(str(name), allowed)
        known = f"; known fields: {', '.join(sorted(allowed))}" if allowed and not hint else ""
        return f"unknown field '{name}'{hint}{known}"
    if kind == "missing":
        return f"missing required field '{loc[-1]}'"
    if kind == "literal_error":
        expected = err["ctx"]["expected"]
        options = [o.strip().strip("'") for o in expected.replace(" or ", ",").split(",") if o.strip()]
        return f"'{given}' is not one of {expected}{did_you_mean(str(given), options)}"
    if kind in _TYPE_WORDS:
        return f"{_TYPE_WORDS[kind]}, got {_shown(given)}"
    if kind == "string_pattern_mismatch":
        return f"{_shown(given)} is not a valid id (use letters, digits, '-', '_' and '.')"
    text = err["msg"]
    text = text.removeprefix("Value error, ")
    text = f"{text[:1].lower()}{text[1:]}"
    if "got" in text or (kind == "value_error" and isinstance(given, dict)):
        return text  # a check of a whole mapping (a model's own validator) says what is wrong with it
    return f"{text}, got {_shown(given)}"


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_UNION_TAG = re.compile(r"^(str|int|float|bool|list|dict|[A-Za-z_][\w.]*\[.*\])$")


def _is_union_tag(part: Any) -> bool:
    """pydantic inserts a union member's type into a location, e.g. ('source', 'str') or ('value', 'list[int]');
    those are dropped. A user's own key that merely contains a bracket (`'[': 1`) is not one."""
    return isinstance(part, str) and bool(_UNION_TAG.match(part))


def allowed_fields(model: Any, loc: tuple[Any, ...]) -> list[str]:
    """The field names the model accepts at `loc` (walking through lists, dicts and optional values)."""
    if isinstance(model, ItemModel):  # flat: its fields are the only names it knows
        return [] if loc else list(model.fields)
    current: Any = model
    for part in loc:
        current = _unwrap(current)
        if isinstance(current, type) and issubclass(current, BaseModel):
            info = current.model_fields.get(part)
            if info is None:
                return []
            current = info.annotation
        else:
            args = typing.get_args(current)
            origin = typing.get_origin(current)
            if origin in (list, tuple) and args:
                current = args[0]
            elif origin is dict and len(args) == 2:
                current = args[1]
            else:
                return []
    current = _unwrap(current)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _unwrap(annotation: Any) -> Any:
    """Strip Optional/Annotated/unions of one model down to the model (or the container)."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            members = [a for a in typing.get_args(annotation) if a is not type(None)]
            models = [m for m in members if isinstance(m, type) and issubclass(m, BaseModel)]
            annotation = models[0] if models else members[0]
        else:
            return annotation
