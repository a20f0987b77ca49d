"""Curate cardgen's icon library from game-icons.net: the icons card and counter games use, by category.

    python tools/curate_icons.py iconify-json-game-icons-1.2.4.tgz path/to/game-icons/icons

reads the npm package `@iconify-json/game-icons` (its tarball, as `npm pack @iconify-json/game-icons` downloads it)
for the SVG bodies, and a checkout of https://github.com/game-icons/icons for who drew each icon (the package does
not record it: the repository keeps each author's icons in a folder of its own, and names the authors in its
`license.txt`). It writes `cardgen/render/icon_library/game-icons.json` and the `ATTRIBUTION.md` beside it; the same
inputs give the same bytes. Not part of the wheel: cardgen reads only what this script wrote.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tarfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "cardgen" / "render" / "icon_library"

# What card and counter games draw, by category; every name must exist in the package.
CATEGORIES: dict[str, list[str]] = {
    "ships and craft": """spaceship starfighter battleship cargo-ship scout-ship interceptor-ship space-shuttle rocket
        rocket-flight rocket-thruster ufo jet-fighter bomber stealth-bomber helicopter submarine airplane biplane
        delivery-drone carrier tank battle-tank great-war-tank battle-mech missile-mech tracked-robot anchor
        ship-wheel""",
    "space": """ringed-planet planet-core exploding-planet planet-conquest galaxy moon moon-orbit orbit orbital sun
        sun-radiations sunrise star-formation star-gate star-satellites falling-star polar-star asteroid evil-comet
        comet-spark burning-meteor meteor-impact black-hole-bolas vortex portal teleport satellite beam-satellite
        defense-satellite radar-dish radar-sweep telescope observatory astronaut-helmet space-suit world
        earth-america earth-africa-europe globe solar-system alien-skull alien-bug alien-stare alien-egg""",
    "weapons": """crossed-swords sword-clash broadsword energy-sword lightning-saber laser-blast laser-gun
        laser-turret laser-burst ray-gun zat-gun missile-pod missile-swarm missile-launcher incoming-rocket
        nuclear-bomb falling-bomb cluster-bomb time-bomb grenade land-mine minefield bullets heavy-bullets
        machine-gun minigun sentry-gun field-gun anti-aircraft-gun pistol-gun crossed-pistols bow-arrow
        crossbow thrown-spear battle-axe warhammer mace-head targeting crosshair on-target
        target-laser bombing-run carpet-bombing explosion-rays bright-explosion spiky-explosion""",
    "defence": """shield energy-shield bolt-shield checked-shield round-shield broken-shield magic-shield
        shield-reflect shield-impact riot-shield templar-shield winged-shield lightning-shield heart-shield
        spiked-shield dice-shield arrows-shield shieldcomb chest-armor armor-upgrade visored-helm spartan-helmet
        robot-helmet brodie-helmet stone-wall military-fort castle watchtower guarded-tower locked-fortress
        hill-fort cloak invisible""",
    "resources": """ore minerals gold-bar metal-bar stone-pile wood-pile wheat water-drop drop oil-drum fuel-tank
        energy-tank battery-pack battery-100 battery-0 atom atom-core crystal-cluster crystal-growth gems
        cut-diamond emerald coins two-coins coins-pile cash money-stack swap-bag cargo-crate wooden-crate
        ammo-box cardboard-box open-treasure-chest chest barrel gold-mine mining mine-wagon factory power-lightning
        lightning-branches fire flame ice-cube snowflake-1 poison bubbles dna1 virus microchip circuitry
        processor cog gears big-gear auto-repair wrench spanner hammer-nails anvil toolbox magnet""",
    "factions and emblems": """crown imperial-crown laurel-crown eagle-emblem hawk-emblem condor-emblem
        winged-emblem swords-emblem batwing-emblem steelwing-emblem star-flag flying-flag knight-banner
        vertical-banner tattered-banner black-flag pirate-flag checkered-flag flag-objective tower-flag
        dragon-head wolf-head lion bird-claw hive-mind beehive spiked-dragon-head tentacles-skull
        cracked-alien-skull death-skull crowned-skull skull-crossed-bones triple-skulls star-skull
        pentagram-rose yin-yang triquetra peace-dove iron-cross gothic-cross hospital-cross radioactive
        biohazard fist mailed-fist robot-golem vintage-robot cyborg-face android-mask mecha-head gas-mask
        ninja-mask trident-shield all-seeing-eye eye-of-horus third-eye hexes nested-hexagons""",
    "people and units": """person meeple 3d-meeple backup rally-the-troops team-upgrade spy mad-scientist
        plane-pilot pirate-captain captain-hat-profile swordman flamethrower-soldier miner wizard-face
        ninja-heroic-stance strong muscle-up medal star-medal ribbon-medal rank-1 rank-2 rank-3 trophy
        laurels-trophy diamond-trophy""",
    "dice": """perspective-dice-six-faces-random perspective-dice-six-faces-one perspective-dice-six-faces-two
        perspective-dice-six-faces-three perspective-dice-six-faces-four perspective-dice-six-faces-five
        perspective-dice-six-faces-six dice-six-faces-one dice-six-faces-two dice-six-faces-three
        dice-six-faces-four dice-six-faces-five dice-six-faces-six rolling-dices rolling-dice-cup dice-target
        dice-fire dice-eight-faces-eight dice-twenty-faces-one dice-twenty-faces-twenty inverted-dice-1
        inverted-dice-6 coinflip""",
    "cards": """card-draw card-discard card-play card-pick card-pickup card-exchange card-burn card-random
        card-joker buy-card poker-hand stack card-ace-spades card-ace-hearts card-ace-diamonds card-ace-clubs
        jigsaw-piece""",
    "actions": """move footsteps walk run sprint return-arrow clockwise-rotation anticlockwise-rotation cycle
        recycle upgrade health-increase health-decrease healing heart-plus heart-minus health-potion
        first-aid-kit syringe pill hourglass empty-hourglass stopwatch alarm-clock sands-of-time extra-time
        backward-time magnifying-glass spyglass binoculars eye-target lock-picking padlock padlock-open key
        unlocking locked-door door shaking-hands conversation talk scroll-unfurled quill-ink checklist
        check-mark cancel interdiction hazard-sign divert stop-sign thumb-up thumb-down hand grab
        push sonic-boom sound-waves radio-tower network-bars wifi-router smartphone
        brain brainstorm light-bulb open-book spell-book rule-book archive-research bubbling-flask
        round-bottom-flask fizzing-flask lightning-arc chain-lightning fireball fire-ring frozen-arrow
        armor-punch punch sword-brandish shield-bash rally-the-troops trade""",
    "structures and places": """house modern-city city-car castle-ruins factory-arm mechanic-garage warehouse
        greenhouse lighthouse control-tower stone-tower white-tower barracks-tent campfire mountains
        mountain-cave forest pine-tree island volcano desert big-wave waves swamp crossroad bridge
        treasure-map compass position-marker world""",
}


def author_names(repository: Path) -> dict[str, str]:
    """Author folders → names as the repository's `license.txt` writes them ('lorc' → 'Lorc')."""
    names = {}
    for line in (repository / "license.txt").read_text(encoding="utf-8").splitlines():
        match = re.match(r"-\s+([^,]+?)(?:,|\s+-\s+|$)", line.strip())
        if match:
            name = match.group(1).strip()
            names[re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")] = name
            names[re.sub(r"[^a-z0-9]+", "", name.lower())] = name
    return names


# Folders whose name is not the one license.txt gives their author
FOLDER_AUTHORS = {"lucasms": "Lucas"}


def authors(repository: Path) -> dict[str, str]:
    """Icon name → its author's name, from the folder each SVG lies in."""
    names = {**author_names(repository), **FOLDER_AUTHORS}
    found = {}
    for svg in sorted(repository.glob("*/*.svg")):
        folder = svg.parent.name
        found[svg.stem] = names.get(folder) or names.get(folder.replace("-", "")) or folder.replace("-", " ").title()
    return found


def read_package(tarball: Path) -> dict[str, object]:
    with tarfile.open(tarball) as archive:
        member = archive.extractfile("package/icons.json")
        if member is None:
            sys.exit(f"{tarball}: no package/icons.json")
        return json.load(member)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tarball", type=Path, help="the npm tarball of @iconify-json/game-icons")
    parser.add_argument("repository", type=Path, help="a checkout of github.com/game-icons/icons (for the authors)")
    args = parser.parse_args()
    package = read_package(args.tarball)
    bodies, aliases = package["icons"], package.get("aliases", {})
    assert isinstance(bodies, dict) and isinstance(aliases, dict)
    side = package.get("width", 512)
    drawn_by = authors(args.repository)
    icons: dict[str, dict[str, str]] = {}
    missing = []
    for category, words in CATEGORIES.items():
        for name in words.split():
            if name in icons:
                continue
            source = aliases.get(name, {}).get("parent", name)
            if source not in bodies:
                missing.append(name)
                continue
            match = re.fullmatch(r'<path fill="currentColor" d="([^"]+)"/>', bodies[source]["body"])
            if match is None or (name not in drawn_by and source not in drawn_by):
                missing.append(f"{name} (not one path, or no author)")
                continue
            icons[name] = {"d": match.group(1), "author": drawn_by.get(source, drawn_by.get(name, "")),
                           "category": category}  # fmt: skip
    if missing:
        sys.exit("not in the package: " + ", ".join(missing))
    OUT.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(name) + ": " + json.dumps(icon, ensure_ascii=False) for name, icon in sorted(icons.items())]
    header = {"source": "game-icons.net (npm @iconify-json/game-icons)", "licence": "CC BY 3.0", "side": side}
    text = "{\n" + "".join(f"{json.dumps(k)}: {json.dumps(v)},\n" for k, v in header.items())
    text += '"icons": {\n' + ",\n".join(lines) + "\n}}\n"
    (OUT / "game-icons.json").write_text(text, encoding="utf-8")
    write_attribution(icons)
    print(f"{len(icons)} icons in {len(CATEGORIES)} categories → {OUT / 'game-icons.json'}")


def write_attribution(icons: dict[str, dict[str, str]]) -> None:
    by_author: dict[str, list[str]] = {}
    for name, icon in sorted(icons.items()):
        by_author.setdefault(icon["author"], []).append(name)
    text = [
        "# Icon library attribution",
        "",
        "The icons in `game-icons.json` come from game-icons.net (https://game-icons.net), as published on the npm",
        "registry in `@iconify-json/game-icons`, and are licensed under the Creative Commons Attribution 3.0 Unported",
        "licence (CC BY 3.0, https://creativecommons.org/licenses/by/3.0/); the icons by Viscious Speed and",
        "Zeromancer are CC0. cardgen draws them unchanged except for their colour (and their size).",
        "",
        "A game that prints one of them credits its authors in its print guide and gallery:",
        '"Icons by Lorc, Delapouite from game-icons.net, CC BY 3.0".',
        "",
        "| author | icons |",
        "|---|---|",
    ]
    for author, names in sorted(by_author.items(), key=lambda item: (-len(item[1]), item[0])):
        text.append(f"| {author} | {', '.join(names)} |")
    (OUT / "ATTRIBUTION.md").write_text("\n".join(text) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
