"""A rules file's mistakes, named where they are, and what a stranger's rules file cannot do: hang, fill the memory,
or reach Python. Each problem is one located line; a failure while playing names the line it failed on."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_described import BASE, make, problems

from cardgen.engine.described.state import RulesFailure


def test_every_mistake_is_named_with_its_file_line_field_and_a_hint(tmp_path: Path) -> None:
    found = problems(
        tmp_path,
        BASE
        + """turn:
  - add: {gold: "golds + 1"}
  - drow: deck
  - draw: deck
    tu: hand
  - let: {x: "card.cots"}
  - move: hand
    to: discrad
  - let: {y: "max(1, (2)"}
  - let: {z: "foo(1)"}
  - call: nowhere
  - effects: "top(hand)"
    trigger: attack
  - let: {w: "1 +* 2"}
""",
    )
    messages = "\n".join(found)
    first = BASE.count("\n") + 2  # the line of the first step
    assert f"engine.yaml:{first}: turn[0].add.gold: unknown name 'golds' (did you mean 'gold'?)" in messages
    assert f"engine.yaml:{first + 1}: turn[1]: unknown step 'drow' (did you mean 'draw'?)" in messages
    assert f"engine.yaml:{first + 3}: turn[2].tu: 'draw' takes no 'tu' (it takes: as, count, to, trigger)" in messages
    assert "turn[3].let.x: unknown name 'card'" in messages
    assert f"engine.yaml:{first + 6}: turn[4].to: expected a zone (hand, column[p][c]) (did you mean 'discard'?)" in (
        messages
    )
    assert "turn[5].let.y: expected ',', found the end" in messages and "put the expression in quotes" in messages
    assert "turn[6].let.z: unknown function 'foo'" in messages
    assert "turn[7].call: no procedure 'nowhere' (declare it under procedures:)" in messages
    assert "turn[8].trigger: unknown trigger 'attack' (triggers: draw)" in messages
    assert "turn[9].let.w: expected a value, found '*' (in '1 +* 2', column 4)" in messages


def test_a_section_no_rules_file_has_is_named_with_a_hint(tmp_path: Path) -> None:
    (message,) = problems(tmp_path, BASE + "zonez: {}\n")
    line = BASE.count("\n") + 1
    assert message.endswith(f"engine.yaml:{line}: zonez: unknown field 'zonez' (did you mean 'zones'?)")


def test_an_attribute_no_card_or_table_has_is_caught_before_play(tmp_path: Path) -> None:
    (message,) = problems(tmp_path, BASE + "turn:\n  - for: c in hand\n    do: [{add: {gold: c.cots}}]\n")
    assert "turn[0].do[0].add.gold: unknown attribute 'cots': no card field, mark or table key has this name " in (
        message
    )
    assert "(did you mean 'cost'?)" in message


def test_a_loop_that_never_ends_stops_at_its_line(tmp_path: Path) -> None:
    engine = make(tmp_path, BASE + "turn:\n  - while: true\n    do: [{add: {gold: 1}}]\n")
    line = BASE.count("\n") + 2
    with pytest.raises(
        RulesFailure, match=rf"engine.yaml:{line}: turn\[0\].while: the rules ran 200,000 steps without"
    ):
        engine.new_state(2, 1)


def test_loops_inside_an_expression_are_bounded(tmp_path: Path) -> None:
    """The bound is cardgen's limit `rules_items` (50,000,000; lowered here so the test is quick)."""
    from dataclasses import replace

    from cardgen import limits

    kept = limits.current()
    limits.use(replace(kept, rules_items=1_000_000))
    try:
        engine = make(tmp_path, BASE + 'turn:\n  - let: {n: "sum(1 for a in range(100000) for b in range(100000))"}\n')
    finally:
        limits.use(kept)
    with pytest.raises(RulesFailure, match="went through more than 1,000,000 items without a question to a player"):
        engine.new_state(2, 1)


@pytest.mark.parametrize(
    ("grow", "message"),
    [
        ('"things + things"', "a list or text of 1,048,576 items"),  # doubled twenty times
        ('"things * 2"', "a list or text of 1,048,576 items"),
        ('"things + [count(things) * 3 * count(hand)]"', None),  # numbers of the data's sizes, a list growing slowly
    ],
)
def test_lists_texts_and_numbers_cannot_grow_without_bound(tmp_path: Path, grow: str, message: str | None) -> None:
    rules = BASE.replace("  gold: {each: player, min: 0}", "  gold: {each: player}\n  things: {start: '[1]'}")
    engine = make(tmp_path, rules + f"turn:\n  - repeat: 30\n    do: [{{set: {{things: {grow}}}}}]\n  - end: done\n")
    if message is None:
        assert engine.new_state(2, 1).ending == "done"
        return
    with pytest.raises(RulesFailure, match=message):
        engine.new_state(2, 1)


def test_a_number_squared_again_and_again_is_stopped(tmp_path: Path) -> None:
    rules = BASE.replace("  gold: {each: player, min: 0}", "  gold: {each: player}\n  n: {start: 3}")
    engine = make(tmp_path, rules + "turn:\n  - while: true\n    do: [{set: {n: n * n}}]\n")
    with pytest.raises(RulesFailure, match="a number of more than 19,000 digits"):
        engine.new_state(2, 1)


def test_text_formatting_is_not_arithmetic(tmp_path: Path) -> None:
    (message,) = problems(tmp_path, BASE + """turn:\n  - let: {t: "'%099999999d' % 1"}\n""")
    assert "turn[0].let.t: cannot work this out: % takes numbers, not str and int" in message
    rules = BASE.replace("  gold: {each: player, min: 0}", "  gold: {each: player}\n  form: {start: \"'%0999d'\"}")
    engine = make(tmp_path / "value", rules + """turn:\n  - let: {t: "form % 1"}\n""")
    with pytest.raises(RulesFailure, match="% takes numbers, not str and int"):
        engine.new_state(2, 1)


def test_a_function_that_calls_itself_without_end_stops_with_its_line(tmp_path: Path) -> None:
    engine = make(tmp_path, BASE + "functions:\n  f: {params: [x], value: f(x + 1)}\nturn:\n  - let: {y: f(1)}\n")
    with pytest.raises(RulesFailure, match=r"functions\.f\.value: while playing: maximum recursion depth"):
        engine.new_state(2, 1)


def test_the_rules_text_never_reaches_python(tmp_path: Path) -> None:
    """A rules file's texts and numbers become values, its names places: none of its words is written into the
    generated code, so a text made to look like code is only ever a text."""
    evil = '''"); __import__("os").system("touch PWNED"); ("'''  # a text made to look like code
    rules = BASE + "constants:\n  note: " + repr("'" + evil + "'").replace('"', '\\"').replace("'", '"', 1)
    rules = BASE + "constants:\n  note: |-\n    '" + evil + '\'\nturn:\n  - end: "{note} 1234567"\n'
    engine = make(tmp_path, rules)
    state = engine.new_state(2, 1)
    assert state.ending is not None and "__import__" in state.ending and not Path("PWNED").exists()
    sources = "\n".join(engine.unit.sources)
    assert "__import__" not in sources and "PWNED" not in sources and "1234567" not in sources
    assert "gold" not in sources and "hand" not in sources  # names of the rules file become places in the state
    for dunder in ("card.__class__", "__import__('os')", "hand.__len__", "().__class__"):
        found = problems(
            tmp_path / dunder.replace("(", "").replace("'", "").replace(")", ""),
            BASE
            + f"""turn:
  - let: {{x: "{dunder}"}}
""",
        )
        assert found and all("engine.yaml" in line for line in found), dunder


def test_a_number_squared_by_nested_calls_is_stopped(tmp_path: Path) -> None:
    """`sq(x)` of a number of the data multiplies without a guard inside, but its result is not known as such a number:
    calls nested on their own results are guarded (without it, 23 squarings of 12 would not end)."""
    nested = "sq(" * 23 + "count(deck)" + ")" * 23
    functions = "functions:\n  sq: {params: [x], value: x * x}\n"
    engine = make(tmp_path, BASE + functions + f'turn:\n  - let: {{y: "{nested}"}}\n')
    with pytest.raises(RulesFailure, match="a number of more than 19,000 digits"):
        engine.new_state(2, 1)
