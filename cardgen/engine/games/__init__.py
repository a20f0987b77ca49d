"""One module per game engine, each the rules of one rulebook read from that game's facts and cards."""
