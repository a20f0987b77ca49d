"""A game's edition in one of its languages (data/languages.py says how texts are written in several).

`edition(game, "de")` is the German edition: every field in German where it is written in German, else in the default
language, field by field — and the list of what fell back (`Fallback`), so a translator sees what is left. Values
without a letter (`"5"`, `"+2"`) need no translation. The edition's `language` is what layouts read as
`game.language` and what an overflow report names.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import MappingProxyType

from cardgen.data.games import Game, Item
from cardgen.data.languages import has_words, named, translatable
from cardgen.errors import DataError, Location, did_you_mean


@dataclass(frozen=True)
class Fallback:
    """A field an edition prints in the default language: no text in the edition's language was written."""

    where: Location
    language: str
    default: str

    def __str__(self) -> str:
        return f"{self.where}: no {named(self.language)} text; the {named(self.default)} text is printed"


@dataclass(frozen=True)
class Edition:
    """A game in one language, and the fields that fell back to the default language."""

    game: Game
    fallbacks: tuple[Fallback, ...]


def edition(game: Game, language: str) -> Edition:
    """The game with every item's text in `language`, falling back to the default language field by field."""
    languages = game.languages
    if language not in languages:
        known = f"its languages: {', '.join(languages)}" if languages else "it lists none in game.yaml (languages:)"
        raise DataError(f"{game.id}: no language '{language}'{did_you_mean(language, languages)} ({known})")
    default = languages[0]
    fallbacks: list[Fallback] = []
    components = []
    for component in game.components:
        items = tuple(_item(game, item, language, default, fallbacks) for item in component.items)
        components.append(dataclasses.replace(component, items=items))
    readable = tuple(  # every component a layout may read, when a build prints only some (`--only`)
        dataclasses.replace(c, items=tuple(_item(game, i, language, default, []) for i in c.items))
        for c in game.readable
    )
    localized = dataclasses.replace(game, components=tuple(components), readable=readable, language=language)
    return Edition(localized, tuple(fallbacks))


def _item(game: Game, item: Item, language: str, default: str, fallbacks: list[Fallback]) -> Item:
    card_type = game.manifest.card_types.get(item.type or "")
    fields = dict(item.fields)
    for name, value in item.fields.items():
        text = item.translations.get(name, {}).get(language)
        if text is not None and language != default:
            fields[name] = text
        elif language != default and has_words(value) and translatable(card_type.fields.get(name) if card_type
                                                                        else None):  # fmt: skip
            fallbacks.append(Fallback(item.field_where(name), language, default))
    return dataclasses.replace(item, fields=MappingProxyType(fields), translations=MappingProxyType({}))
