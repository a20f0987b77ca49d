"""Facts checked against their own citations, derived facts recomputed, tables checked for meaning.

The facts in rules.yaml are the root of everything cardgen prints and plays, so a wrong fact (a hand limit of 7
where the rulebook says 8) must not pass unnoticed. Three mechanisms:

- **Quotes.** A fact from a rulebook (`origin: rulebook` or `facts`) carries the sentence it comes from: an explicit
  `quote:` (a string, or a mapping of row → string for tables), or else the passages in single quotes inside its
  `cite` ("Setup — 'Each player is given 3 credits'"). Every number, word and list element of the value must appear
  in the quote: numbers as digits, spelled out ("three", "twice") or inside ranges ("5-6"). A fact whose value a
  sentence cannot show says so: `check: none` with a `reason`, and `validate --notes` lists it as unchecked.
- **Derived facts.** `derive: "line_up[4] + 4 * held"` recomputes a fact from others (a sandboxed Jinja
  expression over the facts) and compares.
- **Tables** (check kind `table`, see `check_table`): a die table covers every face once, a progression is monotone,
  a table's keys are the ones another fact lists.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from cardgen.data.games import Game
from cardgen.data.rules import Check, Fact
from cardgen.errors import DataError
from cardgen.validate.base import Context, Violation, citation, resolve

QUOTED = re.compile(r"(?:^|[\s(—:,;\[])'(.+?)'(?=$|[\s).,;:\]…—])")
_SPELLED = (
    "no=0 none=0 zero=0 cannot=0 a=1 an=1 another=1 one=1 once=1 single=1 two=2 twice=2 double=2 both=2 pair=2 three=3 "
    "thrice=3 triple=3 four=4 five=5 six=6 seven=7 eight=8 nine=9 ten=10 eleven=11 twelve=12 dozen=12 thirteen=13 "
    "fourteen=14 fifteen=15 sixteen=16 seventeen=17 eighteen=18 nineteen=19 twenty=20 thirty=30 forty=40 fifty=50 "
    "sixty=60 hundred=100 half=0.5"
)
_WORDS = {word: float(number) for word, number in (pair.split("=") for pair in _SPELLED.split())}
_NUMBER = re.compile(r"(?<![\w.])[-+−]?\d+(?:[.,]\d+)?")
_RANGE = re.compile(r"(\d+)\s*(?:-|–|—|to|through)\s*(\d+)")


def quote_of(fact: Fact) -> str | dict[Any, str] | None:
    """A fact's quote: the explicit `quote`, else the single-quoted passages of its citation joined, else None."""
    if fact.quote is not None:
        return fact.quote
    passages = QUOTED.findall(fact.cite)
    return " … ".join(passages) if passages else None


def numbers_in(text: str) -> set[float]:
    """Every number a sentence states: digits, spelled-out numbers, and each whole number inside a range."""
    lowered = re.sub(r"(\d)x(\d)", r"\1 x \2", text.lower().replace("−", "-"))  # "3x1": three of value 1
    found = {float(n.replace(",", ".").replace("−", "-")) for n in _NUMBER.findall(lowered)}
    found |= {abs(n) for n in found}
    for low, high in _RANGE.findall(lowered):
        if int(high) - int(low) <= 100:
            found |= {float(n) for n in range(int(low), int(high) + 1)}
    for word in re.findall(r"[a-z]+", lowered):
        if word in _WORDS:
            found.add(float(_WORDS[word]))
    return found


def _words(text: str) -> list[str]:
    """Lower-case words, apostrophes inside words dropped (K'Totekk → ktotekk), other punctuation a separator."""
    return re.findall(r"[a-z0-9]+", re.sub(r"(?<=\w)['’](?=\w)", "", text.lower()))


_LETTER_RANGE = re.compile(r"\b([A-Z])\s*(?:through|to|-|–)\s*([A-Z])\b")


def _states(quote: str, phrase: str) -> bool:
    """Whether the quote contains the phrase's words in order, each as a word or the start of one, other words allowed
    between them (Deterian matches
    "Deterians", central-confederation matches "Central Confederation"); a one-letter word must stand alone, and
    "A through E" states each letter between."""
    words = _words(phrase)
    if not words:
        return True
    quote = _LETTER_RANGE.sub(lambda m: " ".join(chr(c) for c in range(ord(m[1]), ord(m[2]) + 1)), quote)
    # in order, other words allowed between: "highest_first" is stated by "the highest-numbered card … first"
    pattern = r"\b" + r"\W+(?:\w+\W+)*?".join(re.escape(w) + ("" if len(w) == 1 else r"\w*") for w in words) + r"\b"
    return re.search(pattern, " ".join(_words(quote))) is not None


# A mark in a quote says where the value stands: `{8}` (a scalar, or a list's elements in order), `{cost:6}` (a
# record's field), `{costs.2:10}` (a field inside a field, keys joined by dots) or `{0,1:1}` (one number stating
# several fields: a list's elements are fields numbered from 0). Written around the rulebook's own words, a mark
# leaves the quote verbatim once taken away (`unmarked`).
MARK = re.compile(r"\{(?:([\w-]+(?:[.,][\w-]+)*):)?([^{}:]+)\}")


def unmarked(quote: str) -> str:
    """The quote as the rulebook prints it: every mark replaced by the words it marks."""
    return MARK.sub(lambda m: m[2], quote)


def _marked_as(expected: Any, words: str) -> bool:
    """Whether the marked words state exactly `expected`: its number (the words state no other), its range, or its
    text."""
    if isinstance(expected, bool) or expected is None:
        return False
    if isinstance(expected, int | float):
        # "-{1}" marks the 1 of a −1 written in the text: the words' numbers are the value and its size, no other
        stated = numbers_in(words)
        return float(expected) in stated | {abs(n) for n in stated} and {abs(n) for n in stated} == {abs(expected)}
    bounds = _as_range(expected)
    if bounds is not None:
        return {(int(a), int(b)) for a, b in _RANGE.findall(words)} == {bounds}
    if isinstance(expected, str):
        return _states(words, expected)
    return False


def _fields(record: dict[Any, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """A record's fields as (dotted name, value), fields inside fields and list elements included (a range stays one
    field)."""
    found: list[tuple[str, Any]] = []
    for key, part in record.items():
        name = f"{prefix}{key}"
        if isinstance(part, list | tuple) and _as_range(part) is None:
            part = dict(enumerate(part))  # a list that is not a range: its elements are fields numbered from 0
        found += _fields(part, f"{name}.") if isinstance(part, dict) and _as_range(part) is None else [(name, part)]
    return found


def _missing_at_marks(value: Any, quote: str) -> list[str]:
    """The value checked at its marks: each mark must state the value's part it stands for — a scalar's one mark, a
    list's elements in order, a record's fields by name — and every number of the value must be marked."""
    marks = [(name, words) for name, words in MARK.findall(quote)]
    if isinstance(value, list | tuple) and any(name for name, _ in marks):
        value = dict(enumerate(value))
    if isinstance(value, dict):
        unnamed = [words for name, words in marks if not name]
        missing = [f"{{{w}}} (a record's marks name their field: {{field:{w}}})" for w in unnamed]
        named = {part: words for name, words in marks if name for part in name.split(",")}
        for key, part in _fields(value):
            words = named.pop(key, None)
            if words is None:
                if _as_range(part) is not None or (isinstance(part, int | float) and not isinstance(part, bool)):
                    missing.append(f"{key}: {part!r} (not marked)")
            elif not _marked_as(part, words):
                missing.append(f"{key}: {part!r} (marked '{words}')")
        return missing + [f"{name} (marked, not in the value)" for name in named]
    if any(name for name, _ in marks):
        return [f"{name} (a mark names a field, but the value is not a record)" for name, _ in marks if name]
    marked = [words for _, words in marks]
    if isinstance(value, list | tuple) and (len(marked) > 1 or _as_range(value) is None):
        if len(marked) != len(value):
            return [f"{len(value)} marks for {len(value)} elements (found {len(marked)})"]
        return [f"{part!r} (marked '{words}')" for part, words in zip(value, marked, strict=True)
                if not _marked_as(part, words)]  # fmt: skip
    # a scalar (or a range) may be stated in several places, each marked: every mark must state it
    return [f"{value!r} (marked '{words}')" for words in marked if not _marked_as(value, words)]


def missing_from(value: Any, quote: str) -> list[str]:
    """The parts of `value` the quote does not state (empty when the quote shows the whole value). A quote with
    marks (`{8}`, `{cost:6}`) is checked where the marks stand, not as a bag of the numbers it holds."""
    if MARK.search(quote):
        return _missing_at_marks(value, quote)
    if value is None or isinstance(value, bool):
        return [] if value is None else [f"{value} (a yes/no value: give check: none and a reason)"]
    if isinstance(value, int | float):
        return [] if float(value) in numbers_in(quote) else [f"{value:g}"]
    if isinstance(value, str):
        return [] if _states(quote, value) else [repr(value)]
    bounds = _as_range(value)
    if bounds is not None and _RANGE.search(quote):
        # a [low, high] pair (or {min, max}) must be one of the quote's ranges, not just two numbers inside them
        stated = {(int(a), int(b)) for a, b in _RANGE.findall(quote)}
        return [] if bounds in stated else [f"{bounds[0]}–{bounds[1]}"]
    if isinstance(value, list | tuple):
        return [part for element in value for part in missing_from(element, quote)]
    if isinstance(value, dict):
        # numeric keys (player counts, levels) are figures the rulebook fixes; text keys name the parts of a record
        # (`first`, `fraction`) or the rows of a table, whose values are what the quote must state
        keys = [k for k in value if isinstance(k, int | float) and not isinstance(k, bool)]
        return [
            *(p for k in keys for p in missing_from(k, quote)),
            *(p for v in value.values() for p in missing_from(v, quote)),
        ]
    return [repr(value)]


def _as_range(value: Any) -> tuple[int, int] | None:
    """`[1, 6]` or `{min: 1, max: 6}` as (1, 6); None for anything else."""
    if isinstance(value, dict) and set(value) == {"min", "max"}:
        value = [value["min"], value["max"]]
    if isinstance(value, list | tuple) and len(value) == 2 and all(type(v) is int for v in value):
        low, high = value
        return (low, high) if low < high else None
    return None


def check_facts(game: Game) -> tuple[list[Violation], list[str]]:
    """Violations of facts that disagree with their quotes or derivations, and the names of unchecked facts."""
    violations, unchecked = [], []
    for name, fact in game.rules.facts.items():
        where = _fact_where(game, name)
        if fact.derive is not None:
            found = derived_value(game, name, fact.derive)
            if found != fact.value:
                rule = f"fact '{name}' equals its derivation {fact.derive}"
                violations.append(Violation(rule, fact.cite, found, fact.value, where))
            continue
        if fact.check == "none" or fact.origin == "designed":
            unchecked.append(name)
            continue
        quote = quote_of(fact)
        if quote is None:
            rule = f"fact '{name}' quotes the rulebook"
            expected = "a quote (quote: or 'quoted words' in cite), or check: none with a reason"
            violations.append(Violation(rule, fact.cite, expected, "no quote", where))
            continue
        missing = _missing_by_row(fact.value, quote, partial=fact.reason is not None)
        if missing:
            rule = f"fact '{name}' agrees with its quote"
            violations.append(
                Violation(rule, fact.cite, f"{', '.join(missing)} stated in the quote", fact.value, where)
            )
    return violations, unchecked


def _missing_by_row(value: Any, quote: str | dict[Any, str], partial: bool = False) -> list[str]:
    """Check a table row by row when the quote is a mapping of row → sentence, else the whole value at once.

    With `partial` (the fact gives a `reason`), rows the quote leaves out are not checked: a record whose parts are
    partly cardgen's codes (`ability: race_synergy_battle`) quotes the parts the rulebook states and says why not
    the rest."""
    if not isinstance(quote, dict):
        return missing_from(value, quote)
    if isinstance(value, list):
        # a list of names the rulebook spells out (SY → "Ship Yards"): one row per element, no more, no fewer
        rows = set(map(str, quote))
        names = set(map(str, value))
        return [f"{n} (no quote for it)" for n in sorted(names - rows)] + [
            f"{n} (quoted, not in the value)" for n in sorted(rows - names)
        ]
    if not isinstance(value, dict):
        return missing_from(value, " ".join(map(str, quote.values())))
    missing = []
    for key, row in value.items():
        sentence = quote.get(key, quote.get(str(key)))
        if sentence is None:
            if not partial:
                missing.append(f"row {key} (no quote for it)")
        else:
            missing += [f"{key}: {part}" for part in missing_from(row, sentence)]
    return missing


def derived_value(game: Game, name: str, expression: str) -> Any:
    """Evaluate a derivation over the other facts in Jinja's sandbox (`line_up[4] + players * held`)."""
    from jinja2 import TemplateError
    from jinja2.sandbox import SandboxedEnvironment

    environment = SandboxedEnvironment()
    environment.globals.update(sum=sum, min=min, max=max, len=len, sorted=sorted, list=list, range=range)
    values = {other: fact.value for other, fact in game.rules.facts.items() if other != name}
    try:
        return environment.compile_expression(expression, undefined_to_none=False)(**values)
    except (TemplateError, TypeError, ValueError, KeyError, ArithmeticError) as exc:
        raise DataError(f"fact '{name}': cannot compute its derivation '{expression}' ({exc})") from None


def _fact_where(game: Game, name: str) -> str:
    doc = game.rules_doc
    if doc is None:
        return f"rules.yaml: facts.{name}"
    line = doc.line_of(("facts", name))
    return f"{doc.where(()).file}:{line}"


def check_table(ctx: Context, check: Check) -> list[Violation]:
    """A fact that is a table, checked for meaning.

    `args.fact` names it. `covers: [low, high]`: its ranges (`[low, high]` values, or integer keys) cover every whole
    number from low to high exactly once — a die table. `monotone: increasing|non-decreasing|decreasing|
    non-increasing`: its values, in key order, run that way (lists compared element by element). `keys: …`: its
    keys are exactly these (a list, or `{fact: other}` whose keys or elements they must be).
    """
    game = ctx.game
    name = str(check.args.get("fact", ""))
    table = game.fact(name)
    if not isinstance(table, dict | list):
        raise DataError(f"fact '{name}' is not a table")
    where = _fact_where(game, name.split(".")[0])
    cite = citation(game, check)
    out: list[Violation] = []
    if "covers" in check.args:
        low, high = (int(resolve(game, v)) for v in resolve(game, check.args["covers"]))
        out += _covers(check, cite, where, table, low, high)
    if "monotone" in check.args:
        out += _monotone(check, cite, where, table, str(check.args["monotone"]))
    if "keys" in check.args:
        wanted = resolve(game, check.args["keys"])
        wanted_keys = sorted(map(str, wanted.keys() if isinstance(wanted, dict) else wanted))
        keys = sorted(map(str, table.keys() if isinstance(table, dict) else range(len(table))))
        if keys != wanted_keys:
            out.append(Violation(check.rule, cite, f"keys {wanted_keys}", keys, where))
    return out


def _covers(check: Check, cite: str, where: str, table: Any, low: int, high: int) -> list[Violation]:
    faces: Counter[int] = Counter()
    entries = table.values() if isinstance(table, dict) else table
    for entry in entries:
        if isinstance(entry, list | tuple) and len(entry) == 2:
            faces.update(range(int(entry[0]), int(entry[1]) + 1))
        elif isinstance(entry, int):
            faces[entry] += 1
    if isinstance(table, dict) and not faces:
        faces.update(int(k) for k in table)
    expected = set(range(low, high + 1))
    if set(faces) == expected and all(n == 1 for n in faces.values()):
        return []
    missing = sorted(expected - set(faces))
    twice = sorted(f for f, n in faces.items() if n > 1)
    extra = sorted(set(faces) - expected)
    found = f"missing {missing}, more than once {twice}, outside {extra}"
    return [Violation(check.rule, cite, f"every number {low}–{high} exactly once", found, where)]


_ORDERS: dict[str, Callable[[Any, Any], bool]] = {
    "increasing": lambda a, b: a < b,
    "non-decreasing": lambda a, b: a <= b,
    "decreasing": lambda a, b: a > b,
    "non-increasing": lambda a, b: a >= b,
}


def _monotone(check: Check, cite: str, where: str, table: Any, order: str) -> list[Violation]:
    if order not in _ORDERS:
        raise DataError(f"monotone must be one of {', '.join(_ORDERS)}, got '{order}'")
    keyed = sorted(table.items(), key=lambda kv: _sort_key(kv[0])) if isinstance(table, dict) else enumerate(table)
    values = [v for _, v in keyed]
    holds = _ORDERS[order]
    out = []
    for before, after in itertools.pairwise(values):
        pairs = (
            list(zip(before, after, strict=False))
            if isinstance(before, list) and isinstance(after, list)
            else [(before, after)]
        )
        if not all(holds(a, b) for a, b in pairs):
            out.append(Violation(check.rule, cite, f"values {order}", f"{before} then {after}", where))
    return out


def _sort_key(key: Any) -> tuple[int, Any]:
    return (0, key) if isinstance(key, int | float) else (1, str(key))
