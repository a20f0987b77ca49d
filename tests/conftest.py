"""Shared test helpers: running the command line in-process, one factory for "a game copied to a temporary
folder and mutated" (`copy_game`, or the `demo_data` fixture for the demo game), and a headless browser."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import cli

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).parent.parent
CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")


@dataclass
class Run:
    code: int
    out: str
    err: str
    exception: BaseException | None


def run_cli(*args: str | Path) -> Run:
    """Invoke `cardgen ARGS` in-process; an exception other than a clean exit is a test failure."""
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=True)
    exception = result.exception if not isinstance(result.exception, SystemExit) else None
    return Run(result.exit_code, result.stdout, result.stderr, exception)


@pytest.fixture(autouse=True)
def own_configuration(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test has a configuration folder of its own (the trust store: cardgen/trust.py), never the user's
    ~/.config; processes a test starts inherit it with the environment."""
    folder = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    return folder


@pytest.fixture(scope="module")
def browser():
    """Debian's headless chromium driven by selenium, one per test module (skipped with the reason without it)."""
    if not (CHROMIUM and DRIVER):
        pytest.skip(
            "Debian's chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    flags = ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1300,900", "--disable-dev-shm-usage")
    for flag in flags:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def game(request: pytest.FixtureRequest):
    """The bundled game named by the test module's `GAME`, loaded once for the module."""
    from cardgen.data import load_games

    return load_games(REPO / "card_data", [request.module.GAME])[0]


@pytest.fixture(scope="module")
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test module's `GAME` as `cardgen build` builds it (`shared_build`: made once for the whole session); the
    game's output folder, read-only."""
    return shared_build(tmp_path_factory).out / request.module.GAME


@dataclass(frozen=True)
class SharedBuild:
    """Every bundled game built once for the whole test session with one set of options: the output folder (a
    folder per game, its files read-only) and what the build printed."""

    out: Path
    run: Run


def shared_build(factory: pytest.TempPathFactory, *options: str) -> SharedBuild:
    """`cardgen build OPTIONS` of every bundled game, made once per session and shared by every test module that
    reads the build as it is (a build of the five games with their art is the largest single cost of the suite).
    Under pytest-xdist the workers share it too: the first to ask builds it under a file lock, the others wait for
    it and read. Its files are made read-only, so that a test that would change what the others read fails instead;
    a test that writes builds its own."""
    import fcntl
    import hashlib
    import json
    import os

    root = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # the workers' temporary folders share their parent
        root = root.parent
    key = hashlib.sha1(json.dumps(options).encode()).hexdigest()[:10]
    out, record = root / f"bundled-{key}", root / f"bundled-{key}.json"
    with open(root / f"bundled-{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.is_file():
            run = run_cli("build", "--out", out, *options)
            assert run.exception is None, run.exception
            assert run.code == 0, run.out + run.err
            for path in out.rglob("*"):
                if path.is_file():
                    path.chmod(0o444)
            record.write_text(json.dumps({"code": run.code, "out": run.out, "err": run.err}))
    printed = json.loads(record.read_text())
    return SharedBuild(out, Run(printed["code"], printed["out"], printed["err"], None))


@dataclass(frozen=True)
class GameCopy:
    """A writable copy of one game's data folder, alone in its own `card_data` folder."""

    data: Path  # the card_data folder (pass it as --data-dir)
    game: str

    @property
    def folder(self) -> Path:
        return self.data / self.game

    def edit(self, file: str, old: str, new: str, count: int | None = None) -> None:
        """Replace the first `old` in one of the game's files; `old` must be there (exactly `count` times if given),
        so a mutation that no longer matches its file fails loudly instead of testing nothing."""
        path = self.folder / file
        text = path.read_text(encoding="utf-8")
        found = text.count(old)
        assert found if count is None else found == count, f"{old!r} found {found} times in {file}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def validate(self, *args: str) -> Run:
        """`cardgen validate` of the copy, its own checks.py trusted."""
        return run_cli("--data-dir", self.data, "validate", self.game, "--trust-code", *args)

    def broken_rules(self, text_fit: bool = False) -> set[str]:
        """The rules the copy breaks (there must be one), validated in-process with its checks.py trusted; text
        fitting (which renders every face) only when asked."""
        from cardgen.data import load_games
        from cardgen.paths import default_fonts_dir
        from cardgen.validate import validate_game

        (game,) = load_games(self.data, [self.game])
        layouts = (REPO / "templates", default_fonts_dir()) if text_fit else (None, None)
        report = validate_game(game, *layouts, trust_code=True)
        assert report.violations, "the copy breaks no rule"
        return {v.rule for v in report.violations}


def write_game(root: Path, game_id: str, data: dict[str, str], layouts: dict[str, str]) -> Path:
    """A game of a test's own under `root` (`card_data/<id>/` and `templates/<id>/`, files by name); returns `root`."""
    for folder, files in ((root / "card_data" / game_id, data), (root / "templates" / game_id, layouts)):
        folder.mkdir(parents=True)
        for name, text in files.items():
            (folder / name).write_text(text)
    return root


def copy_game(game: str, tmp_path: Path, source: Path = REPO / "card_data") -> GameCopy:
    """Copy one game (a bundled one by default) into `tmp_path/card_data/` to mutate."""
    data = tmp_path / "card_data"
    shutil.copytree(source / game, data / game)
    return GameCopy(data, game)


@pytest.fixture
def demo_data(tmp_path: Path) -> Path:
    """A writable copy of the demo game's data folder (tests/fixtures/card_data)."""
    return copy_game("demo", tmp_path, FIXTURES / "card_data").data


def check_golden_log(spec, golden: Path, tmp_path: Path) -> None:
    """Game 0 of `spec` (which logs) must give exactly the committed log `golden`, and the committed log must replay;
    `CARDGEN_UPDATE_GOLDEN=1` rewrites it after a deliberate change of rules or data (look at the diff)."""
    import os

    from cardgen.engine.runner import play_game, replay, write_log

    fresh = tmp_path / "fresh.jsonl"
    write_log(fresh, [play_game(spec, 0)])
    if os.environ.get("CARDGEN_UPDATE_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(fresh.read_text())
    assert fresh.read_text() == golden.read_text(), "the same seed must give the same game"
    assert all(ok for _, ok, _ in replay(golden, Path(spec.data_dir)))


def listed_afresh(state) -> list:
    """The legal actions of a copy of `state` listed from nothing: no listing's parts carried past plain moves (Space
    Empires 4X's and Rift's `carried`; Star Commander's `_carry`, which a clone never has), to hold a carried listing
    to."""
    copy = state.clone()
    if hasattr(copy, "carried"):  # (a compiled state takes no field its class does not declare)
        copy.carried = False
    copy._legal = None
    return copy.legal_actions()


def check_clone_playouts(engine, games: tuple[tuple[int, int], ...], every: int, held, changed) -> None:
    """Clones that share parts of their state until one changes them: from every `every`-th decision of seeded
    random games ((players, seed) each), a clone played to the end by random choices leaves `held(state)` of the
    original and its chance log (shared until either records: `core.ChanceLog`) as they were. `changed(clone,
    state)` says whether a clone's playout changed a shared part (the test must see some, or it proves nothing)."""
    from cardgen.engine.rng import CounterRng

    seen = 0
    for players, seed in games:
        state, rng, step = engine.new_state(players, seed), CounterRng(seed), 0
        while not state.is_terminal():
            if step % every == 0:
                before, clone, playout = (held(state), state.chance.events[:]), state.clone(), CounterRng(1000 + step)
                while not clone.is_terminal():
                    legal = clone.legal_actions()
                    clone.apply(legal[playout.randbelow(len(legal))])
                    seen += bool(changed(clone, state))
                assert (held(state), state.chance.events) == before, f"{players} players, seed {seed}, decision {step}"
            legal = state.legal_actions()
            state.apply(legal[rng.randbelow(len(legal))])
            step += 1
    assert seen, "no clone changed a shared part"


def check_pickle_and_clone(engine, players: int, seed: int, before: int, after: int) -> None:
    """After `before` random actions, a pickled copy and a clone equal the state; playing the clone leaves the state
    (and the copy) as they were; then the state and the copy play `after` more actions in step."""
    import pickle

    from cardgen.engine.rng import CounterRng

    def step(state, rng) -> object | None:
        if state.is_terminal():
            return None
        legal = state.legal_actions()
        action = legal[rng.randbelow(len(legal))]
        state.apply(action)
        return action

    s = engine.new_state(players, seed)
    rng = CounterRng(1)
    for _ in range(before):
        step(s, rng)
    copy = pickle.loads(pickle.dumps(s))
    clone = s.clone()
    assert copy.observation(0) == s.observation(0) == clone.observation(0)
    for _ in range(after):
        step(clone, rng)
    assert copy.observation(0) == s.observation(0)  # playing the clone changed nothing in the original
    assert copy.invariant_violations() == [] and clone.invariant_violations() == []
    for _ in range(after // 2):
        action = step(s, rng)
        if action is None:
            break
        copy.apply(action)
    assert copy.observation(1) == s.observation(1)
