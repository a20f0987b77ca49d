"""The user guide cannot go stale: it builds with warnings as errors, and every command it shows is run.

The guide (`docs/`, Markdown read by Sphinx and MyST) shows commands in ```console blocks: a line `$ command`,
then what it prints. Each page's blocks run in order, as a reader would type them, in an empty folder of their
own (`cd` carries over to the next command), with cardgen on the PATH and a home, configuration and cache of their
own; lines starting `> ` right after a command continue it (a here-document, as a shell shows it). A command must
exit 0, or with the code of a last line `(exit N)`; when output is shown, the output must be it: `…` stands for
any text within a line, and a line holding only `…` for any number of lines. A block the reader cannot run here
(it needs machines of their own) is preceded by `<!-- not run: the reason -->`, and the test prints those reasons.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hostile import fork_cardgen

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
GUIDE_PAGES = sorted((DOCS / "guide").glob("*.md"))

FENCE = re.compile(r"^(`{3,})(\S*)[^\n]*\n(.*?)^\1[ \t]*$", re.MULTILINE | re.DOTALL)
NOT_RUN = re.compile(r"<!--\s*not run:\s*(.+?)\s*-->\s*$")
EXIT = re.compile(r"^\(exit (\d+)\)$")
COMMAND_SECONDS = 180


@dataclass(frozen=True)
class Example:
    """One `$ command` of a console block, with what the guide says it prints and the exit code it promises."""

    page: str
    line: int
    command: str
    output: list[str]
    exit_code: int


def console_blocks(text: str) -> tuple[list[tuple[int, str]], list[str]]:
    """The console blocks of a page (first line number, body) and the reasons given for those not run."""
    blocks: list[tuple[int, str]] = []
    skipped: list[str] = []
    for match in FENCE.finditer(text):
        if match.group(2) != "console":
            continue
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        reason = NOT_RUN.search(before)
        if reason:
            skipped.append(reason.group(1))
            continue
        blocks.append((text.count("\n", 0, match.start(3)) + 1, match.group(3)))
    return blocks, skipped


def examples(page: Path) -> list[Example]:
    """Every command of the page's console blocks, in order."""
    found: list[Example] = []
    blocks, _ = console_blocks(page.read_text(encoding="utf-8"))
    for first_line, body in blocks:
        current: tuple[int, str] | None = None
        output: list[str] = []
        for offset, line in enumerate([*body.rstrip("\n").split("\n"), "$ "]):
            if current is not None and not output and (line.startswith("> ") or line == ">"):
                current = (current[0], current[1] + "\n" + line[2:])  # a continuation line, as a shell shows it
            elif line.startswith("$ "):
                if current is not None:
                    code = 0
                    if output and EXIT.match(output[-1]):
                        code = int(EXIT.match(output.pop()).group(1))  # type: ignore[union-attr]
                    found.append(Example(page.name, current[0], current[1], output, code))
                current, output = (first_line + offset, line[2:]), []
            elif current is None:
                raise AssertionError(f"{page.name}:{first_line + offset}: a console block starts with a command")
            else:
                output.append(line.rstrip())
    return found


def pattern(expected: list[str]) -> re.Pattern[str]:
    """The regular expression of shown output: `…` any text within a line, a line of `…` any lines."""
    parts = []
    for line in expected:
        if line == "…":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(piece) for piece in line.split("…")) + r"\n")
    return re.compile("".join(parts), re.DOTALL)


def matches(expected: list[str], printed: str) -> bool:
    """Whether the printed output is what the guide shows (trailing spaces and blank lines aside)."""
    lines = [line.rstrip() for line in printed.rstrip("\n").split("\n")] if printed.strip() else []
    return pattern(expected).fullmatch("".join(line + "\n" for line in lines)) is not None


def matplotlib_cache() -> str:
    """Matplotlib's cache folder with its font list built (by this process, once): a reader sees "Matplotlib is
    building the font cache" once in their life, not on every page of the guide."""
    import matplotlib
    import matplotlib.font_manager  # builds the font list in the cache folder if it is not there

    return str(matplotlib.get_cachedir())


def environment(home: Path) -> dict[str, str]:
    """A reader's shell: cardgen on the PATH, a home, configuration and caches of the workspace's own (but
    matplotlib's font list, built once)."""
    bin_dir = str(Path(sys.executable).parent)
    return {
        "MPLCONFIGDIR": matplotlib_cache(),
        "PATH": f"{bin_dir}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "COLUMNS": "100",
        "TERM": "dumb",
        "PYTHONUNBUFFERED": "1",  # standard output and errors in the order a terminal shows them
        **{key: os.environ[key] for key in ("PYTHONDONTWRITEBYTECODE", "TMPDIR") if key in os.environ},
    }


def cardgen_arguments(command: str) -> list[str] | None:
    """The arguments of a plain `cardgen …` command (no pipe, redirection, variable or list), else None."""
    if "$" in command or "`" in command or "\n" in command:
        return None
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    words = list(lexer)
    if words[:1] != ["cardgen"] or any(word and set(word) <= set("|&;<>()") for word in words):
        return None
    return words[1:]


def run(command: str, cwd: Path, env: dict[str, str], printed: Path) -> tuple[int, str]:
    """Run one command as a reader's shell would; its exit code and what it printed (errors in their place). A plain
    `cardgen …` is forked from a process that has imported cardgen once (tests/hostile.py's zygote): the same
    program, without the second of start-up each command would cost; anything else goes through bash."""
    arguments = cardgen_arguments(command)
    if arguments is None:
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=COMMAND_SECONDS,
        )
        return done.returncode, done.stdout
    printed.write_bytes(b"")
    code, _peak = fork_cardgen(cwd, arguments, env, printed, printed, COMMAND_SECONDS)
    return code, printed.read_text(encoding="utf-8", errors="replace")


def run_page(page: Path, workspace: Path) -> list[str]:
    """Run the page's examples in order in `workspace`; the failures, each a paragraph."""
    home = workspace / "home"
    home.mkdir(parents=True)
    cwd = workspace / "work"
    cwd.mkdir()
    env = environment(home)
    failures = []
    for example in examples(page):
        if example.command.startswith("cd "):
            cwd = (cwd / example.command[3:].strip()).resolve()
            continue
        code, printed = run(example.command, cwd, env, workspace / "printed.txt")
        problems = []
        if code != example.exit_code:
            problems.append(f"exit {code}, the guide says {example.exit_code}")
        if example.output and not matches(example.output, printed):
            problems.append("printed something else")
        if problems:
            failures.append(
                f"{example.page}:{example.line}: $ {example.command}: {'; '.join(problems)}\n"
                + "--- the guide shows:\n"
                + "\n".join(example.output)
                + "\n--- printed:\n"
                + printed
            )
            break  # later commands build on this one
    return failures


PAGES_WITH_EXAMPLES = [page for page in GUIDE_PAGES if examples(page)]


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=[page.stem for page in PAGES_WITH_EXAMPLES])
def test_every_command_of_the_guide_runs_and_prints_what_it_shows(page: Path, tmp_path: Path) -> None:
    """Each page's commands, run in order in an empty folder, exit and print as the page shows."""
    failures = run_page(page, tmp_path)
    assert not failures, "\n\n".join(failures)


def test_the_guide_has_commands_and_says_why_any_is_not_run() -> None:
    """The pages hold runnable examples, and a block left out says why (the reasons are printed)."""
    total, reasons = 0, []
    for page in GUIDE_PAGES:
        _blocks, skipped = console_blocks(page.read_text(encoding="utf-8"))
        total += len(examples(page))
        reasons += [f"{page.name}: {reason}" for reason in skipped]
    print("\nconsole blocks not run:\n" + "\n".join(reasons))
    assert total >= 40, f"only {total} commands in the guide"
    assert len(reasons) <= 3, reasons


def test_a_wrong_output_or_exit_code_in_the_guide_fails(tmp_path: Path) -> None:
    """The runner can fail: a page whose shown output or exit code is wrong is reported, naming its line."""
    page = tmp_path / "wrong.md"
    page.write_text(
        "Intro.\n\n```console\n$ cardgen --version\ncardgen 0.0.0-not-this\n```\n\n"
        "```console\n$ cardgen list no-such-game\n```\n",
        encoding="utf-8",
    )
    failures = run_page(page, tmp_path / "ws")
    assert len(failures) == 1 and failures[0].startswith("wrong.md:4: $ cardgen --version: printed something else")
    page.write_text("```console\n$ cardgen list no-such-game\n…\n```\n", encoding="utf-8")
    failures = run_page(page, tmp_path / "ws2")
    assert len(failures) == 1 and "exit 2, the guide says 0" in failures[0]


def test_the_wildcards_match_what_they_say() -> None:
    """`…` within a line is any text; a line of `…` is any number of lines, none included."""
    assert matches(["built … in … s"], "built 3 files in 0.2 s\n")
    assert not matches(["built … in … s"], "built 3 files\nin 0.2 s\n")
    assert matches(["first", "…", "last"], "first\nlast\n")
    assert matches(["first", "…", "last"], "first\na\nb\nlast\n")
    assert not matches(["first", "last"], "first\nmiddle\nlast\n")


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::PendingDeprecationWarning")
def test_the_guide_builds_without_a_warning(tmp_path: Path) -> None:
    """Sphinx builds the whole guide with warnings as errors: no broken link, image, reference or heading."""
    from sphinx.cmd.build import build_main

    log = tmp_path / "warnings.txt"
    code = build_main(["-W", "--keep-going", "-q", "-b", "html", "-w", str(log), str(DOCS), str(tmp_path / "html")])
    assert code == 0, log.read_text(encoding="utf-8")
    assert (tmp_path / "html" / "guide" / "your-game.html").is_file()


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("document", [README, *GUIDE_PAGES], ids=lambda path: path.name)
def test_every_relative_link_leads_to_a_file(document: Path) -> None:
    """Each relative link of the README and the guide names a file of the repository (anchors are Sphinx's)."""
    broken = []
    for target in LINK.findall(document.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (document.parent / target.split("#", 1)[0]).resolve()
        if not path.exists():
            broken.append(target)
    assert not broken, f"{document.name}: links to nothing: {broken}"


def test_the_readme_is_short() -> None:
    """The README says what cardgen is, how to set it up, a quick start, the commands and where to read on."""
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 250, f"README.md has {lines} lines"
