"""Reading games: YAML files → validated models (the first arrow of the pipeline)."""

from cardgen.data.games import Component, Game, Item, find_game, game_folders, load_game, load_games

__all__ = ["Component", "Game", "Item", "find_game", "game_folders", "load_game", "load_games"]
