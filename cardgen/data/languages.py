"""Card text in several languages, and a game's edition in one of them.

A game lists its languages in game.yaml, the default first (`languages: [en, de]`); its plain text is in the default
language. A text field (`str` or `text`, without `choices`: a choice is a value rules and layouts compare, not words
to translate) may then hold one value per language, written as a mapping or as one key per language — in a
spreadsheet, one column per language::

    - {id: scout, name: {en: Scout, de: Späher}, text: "Look at the top card.", text@de: "Sieh dir die oberste an."}

    id,name,name@de,text,text@de

An item keeps its default-language values as its fields (what the rules facts and checks read: they do not depend on
the language) and the others as `translations`; `data/editions.py` makes a game's edition in one language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardgen.data.model import LANGUAGE_PATTERN
from cardgen.errors import did_you_mean

if TYPE_CHECKING:
    from cardgen.data.model import CardType, FieldSpec

__all__ = ["LANGUAGE_PATTERN", "SEPARATOR", "named", "refused", "split", "translatable"]

SEPARATOR = "@"  # name@de
# what a language is called in English (its code otherwise): reports and the gallery's switch say it so
NAMES = {
    "cs": "Czech", "da": "Danish", "de": "German", "el": "Greek", "en": "English", "es": "Spanish", "fi": "Finnish",
    "fr": "French", "hu": "Hungarian", "it": "Italian", "ja": "Japanese", "ko": "Korean", "nl": "Dutch",
    "no": "Norwegian", "pl": "Polish", "pt": "Portuguese", "ru": "Russian", "sv": "Swedish", "tr": "Turkish",
    "uk": "Ukrainian", "zh": "Chinese",
}  # fmt: skip
# what a language calls itself: the gallery's switch shows it to a reader of that language
OWN_NAMES = {
    "cs": "Čeština", "da": "Dansk", "de": "Deutsch", "en": "English", "es": "Español", "fi": "Suomi",
    "fr": "Français", "it": "Italiano", "nl": "Nederlands", "no": "Norsk", "pl": "Polski", "pt": "Português",
    "sv": "Svenska",
}  # fmt: skip


def named(language: str) -> str:
    """`German (de)`, or the code alone for a language without a name here."""
    name = NAMES.get(language.split("-")[0])
    return f"{name} ({language})" if name else language


def translatable(spec: FieldSpec | None) -> bool:
    """Whether a field holds words that an edition translates: text, not a number, a choice or a list."""
    return spec is not None and spec.type in ("str", "text") and spec.choices is None


def has_words(value: Any) -> bool:
    """Whether a value needs translating at all: text with a letter in it."""
    return isinstance(value, str) and re.search(r"[^\W\d_]", value) is not None


@dataclass(frozen=True)
class Split:
    """An item's raw values with the default language's text in place, its other languages apart, and what was
    wrong (each as the path below the item and a message)."""

    raw: dict[str, Any]
    translations: dict[str, dict[str, str]]
    problems: list[tuple[tuple[str, ...], str]]


def split(raw: Mapping[str, Any], card_type: CardType | None, languages: tuple[str, ...]) -> Split:
    """Take an item's translations out of its raw values (`name: {en: …, de: …}` and `name@de: …`)."""
    fields = card_type.fields if card_type else {}
    default = languages[0] if languages else ""
    kept: dict[str, Any] = {}
    translations: dict[str, dict[str, str]] = {}
    problems: list[tuple[tuple[str, ...], str]] = []
    for key, value in raw.items():
        name, at, language = key.partition(SEPARATOR) if isinstance(key, str) else (key, "", "")
        spec = fields.get(name)
        if at:
            reason = refused(name, spec, language, languages)
            if reason:
                problems.append(((key,), reason))
            elif not isinstance(value, str):
                problems.append(((key,), "expected text (quote it if it looks like a number or yes/no)"))
            elif language == default:
                if name in raw:
                    problems.append(((key,), f"'{name}' is written twice: as {name} and as {key}"))
                kept[name] = value
            else:
                translations.setdefault(name, {})[language] = value
            continue
        if isinstance(value, dict) and translatable(spec) and not languages:
            problems.append(((key,), "a text per language, but game.yaml lists no languages (languages: [en, de])"))
            continue
        if isinstance(value, dict) and translatable(spec) and languages:
            if default not in value:
                problems.append(((key,), f"no {named(default)} text: the first language of game.yaml's "
                                         "languages is the one every text is written in"))  # fmt: skip
            for language, text in value.items():
                reason = refused(name, spec, str(language), languages)
                if reason:
                    problems.append(((key, str(language)), reason))
                elif not isinstance(text, str):
                    problems.append(((key, str(language)), "expected text (quote it if it looks like a number)"))
                elif language != default:
                    translations.setdefault(name, {})[str(language)] = text
            if isinstance(value.get(default), str):
                kept[name] = value[default]
            continue
        kept[key] = value
    return Split(kept, translations, problems)


def refused(name: str, spec: FieldSpec | None, language: str, languages: tuple[str, ...]) -> str | None:
    """Why `name@language` cannot hold a text (None when it can): no such language or field, or not a text field."""
    if not languages:
        return f"a text in '{language}', but game.yaml lists no languages (languages: [en, {language}])"
    if language not in languages:
        hint = did_you_mean(language, languages)
        return f"'{language}' is not one of the game's languages ({', '.join(languages)}){hint}"
    if spec is None:
        return f"unknown field '{name}'"
    if not translatable(spec):
        kind = "a choice" if spec.choices is not None else f"a field of type {spec.type}"
        return f"'{name}' is {kind}, not text to translate: it holds one value in every language"
    return None
