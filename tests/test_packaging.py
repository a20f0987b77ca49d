"""The bundled games, layouts and fonts travel inside the wheel, so an installed cardgen works from any directory."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out), str(REPO)],
        capture_output=True,
        text=True,
        env=os.environ | {"CARDGEN_PURE_PYTHON": "1"},  # what travels in it, not the engines compiled (half a minute)
    )
    if build.returncode != 0:
        pytest.skip(f"cannot build a wheel here (pip wheel failed: {build.stderr.strip()[-200:]})")
    (found,) = out.glob("cardgen-*.whl")
    return found


def test_wheel_carries_data_templates_and_fonts(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for game in ("battlefield-space", "scifi-domains", "space-empires-4x", "star-commander", "rift-domination"):
        assert f"cardgen/_bundled/card_data/{game}/game.yaml" in names
    assert any(n.startswith("cardgen/_bundled/fonts/") and n.endswith(".ttf") for n in names)
    assert any(n.startswith("cardgen/_bundled/fonts/") and "OFL" in n for n in names)
    assert any(n.startswith("cardgen/_bundled/templates/") for n in names)
    for asset in ("index.html.j2", "about.html.j2", "home.html.j2", "gallery.css", "gallery.js"):  # cardgen gallery
        assert f"cardgen/render/gallery_assets/{asset}" in names
    for part in ("game-icons.json", "ATTRIBUTION.md"):  # the icon library and the credit its licence asks for
        assert f"cardgen/render/icon_library/{part}" in names
    for font in ("Orbitron-Bold.ttf", "Orbitron-OFL.txt", "Audiowide-Regular.ttf", "Exo2-Regular.ttf", "Exo2-OFL.txt"):
        assert f"cardgen/_bundled/fonts/{font}" in names
    assert not any(n.startswith(("tests/", "output/", "tools/")) for n in names)


def test_installed_package_finds_bundled_folders(wheel, tmp_path):
    """Unpacked like an installed wheel, `paths.bundled` points inside the package, not at a source checkout."""
    zipfile.ZipFile(wheel).extractall(tmp_path)
    probe = (
        "import cardgen.paths as p, json;"
        "print(json.dumps([str(p.default_data_dir()), str(p.default_templates_dir()), str(p.default_fonts_dir())]))"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)}
    )
    assert run.returncode == 0, run.stderr
    for folder in eval(run.stdout):
        assert folder.startswith(str(tmp_path / "cardgen" / "_bundled")), folder
