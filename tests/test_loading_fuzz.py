"""Property: whatever YAML a user writes, loading ends in a game or in located problems — never a traceback."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.data import load_games
from cardgen.errors import DataError

from conftest import FIXTURES, run_cli

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.floats(allow_nan=False), st.text(max_size=12)
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.one_of(st.text(max_size=8), st.sampled_from(["id", "count", "cards", "type", "front"])),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=20,
)
yaml_text = st.text(alphabet=st.sampled_from(list("abc:-[]{}#&*!|>'\"%@`,? \n\t0123456789.")), max_size=200)


def _load_with(file_name: str, text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "card_data"
        shutil.copytree(FIXTURES / "card_data", data)
        (data / "demo" / file_name).write_text(text, encoding="utf-8")
        try:
            load_games(data)
        except DataError as exc:
            assert exc.problems, "a DataError must carry at least one problem"
            for line in exc.lines():
                assert "\n" not in line and line.strip()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=yaml_text, file_name=st.sampled_from(["game.yaml", "ships.yaml", "tokens.yaml"]))
def test_random_text_never_raises_anything_but_data_error(text, file_name):
    _load_with(file_name, text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=values, file_name=st.sampled_from(["game.yaml", "ships.yaml", "board.yaml"]))
def test_random_documents_never_raise_anything_but_data_error(value, file_name):
    _load_with(file_name, yaml.safe_dump(value, allow_unicode=True))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_real_files_never_raise_anything_but_data_error(data):
    name = data.draw(st.sampled_from(["game.yaml", "ships.yaml", "tokens.yaml"]))
    lines = (FIXTURES / "card_data" / "demo" / name).read_text().splitlines(keepends=True)
    index = data.draw(st.integers(0, len(lines) - 1))
    action = data.draw(st.sampled_from(["drop", "repeat", "replace"]))
    if action == "drop":
        del lines[index]
    elif action == "repeat":
        lines.insert(index, lines[index])
    else:
        lines[index] = data.draw(yaml_text) + "\n"
    _load_with(name, "".join(lines))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=yaml_text)
def test_command_line_exits_0_or_2_without_traceback(text):
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "card_data"
        shutil.copytree(FIXTURES / "card_data", data)
        (data / "demo" / "ships.yaml").write_text(text, encoding="utf-8")
        run = run_cli("--data-dir", data, "list")
        assert run.exception is None, repr(run.exception)
        assert run.code in (0, 2)
        assert "Traceback" not in run.out + run.err
