"""The docs hold to the code: the generated references are current, every Python example in
the README and ``docs/`` runs, every ``pdnkit ...`` command line parses, every dotted
``pdnkit.`` name resolves, every path and link exists, and the README stays a page a newcomer
can read (at most 10 KB, short paragraphs and table rows).
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import re
import shlex
import shutil
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
REGENERATE = "python docs/generate.py"


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


@cache
def generator() -> ModuleType:
    """``docs/generate.py`` as a module."""
    spec = importlib.util.spec_from_file_location("pdnkit_docs_generate", DOCS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def fences(page: Path) -> list[tuple[str, str, int]]:
    """The fenced code blocks of a page: (info, text, first line of the text)."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(page.read_text(encoding="utf-8"))
    return [(t.info.strip().split(" ")[0], t.content, (t.map[0] + 2) if t.map else 0)
            for t in tokens if t.type == "fence"]


def prose(page: Path) -> str:
    """A page without its fenced code blocks and HTML comments."""
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"<!--.*?-->", "", text, flags=re.S)


# ------------------------------------------------------------------------------------------
# the generated references


def test_generated_docs_are_current() -> None:
    stale = [str(p.relative_to(ROOT)) for p in generator().stale()]
    assert stale == [], f"{', '.join(stale)} not current with the code: run {REGENERATE}"


def test_the_generator_sees_every_command_code_variant_and_table() -> None:
    """What the references must list comes from the code itself (a new command, code,
    variant or table appears in them after a run of the generator)."""
    from pdnkit.findings import CODES
    from pdnkit.rules import list_variants

    gen = generator()
    cli = (DOCS / "cli.md").read_text(encoding="utf-8")
    root, ctx = gen.root_command()
    for path, _ in gen._walk(root, ctx, ["pdnkit"]):
        assert f"\n### {' '.join(path)}\n" in cli or f"\n#### {' '.join(path)}\n" in cli
    findings = (DOCS / "findings.md").read_text(encoding="utf-8")
    assert all(f"#### {code}\n" in findings for code in CODES)
    variants = (DOCS / "variants.md").read_text(encoding="utf-8")
    assert all(f"| `{r.name}` |" in variants for r in list_variants())
    schema = (DOCS / "schema.md").read_text(encoding="utf-8")
    parsed = gen.parse_schema(gen.schema_sql_path().read_text(encoding="utf-8"))
    assert all(f"\n## {o['name']}\n" in schema for o in parsed["objects"]
               if o["kind"] in ("TABLE", "VIEW"))


def test_every_table_and_column_of_the_schema_is_described() -> None:
    """schema.sql is the one description of the database: each table and view has a comment
    above it, each column of a table one on its line (add it there, then run the
    generator)."""
    gen = generator()
    parsed = gen.parse_schema(gen.schema_sql_path().read_text(encoding="utf-8"))
    types = gen._duckdb_columns(gen.schema_sql_path().read_text(encoding="utf-8"))
    missing = [o["name"] for o in parsed["objects"]
               if o["kind"] in ("TABLE", "VIEW") and not o["doc"]]
    missing += [f"{o['name']}.{col}" for o in parsed["objects"] if o["kind"] == "TABLE"
                for col, _ in types[o["name"]] if col not in o["columns"]]
    assert missing == [], "described nowhere in pdnkit/store/schema.sql: " + ", ".join(missing)


def test_schema_comments_are_read_as_written() -> None:
    gen = generator()
    sql = ("-- the intro\n\n-- Rows of t.\nCREATE TABLE IF NOT EXISTS t (\n"
           "    a INTEGER,   -- first\n    b VARCHAR    -- second,\n"
           "                 -- on two lines\n);\n"
           "CREATE VIEW IF NOT EXISTS v AS\nSELECT a AS c,  -- derived\n       t.b\nFROM t;\n")
    parsed = gen.parse_schema(sql)
    t, v = parsed["objects"]
    assert parsed["intro"] == "the intro"
    assert (t["doc"], t["columns"]) == ("Rows of t.",
                                         {"a": "first", "b": "second, on two lines"})
    assert (v["doc"], v["columns"]) == ("Rows of t.", {"c": "derived"})
    grouped = ("CREATE TABLE IF NOT EXISTS g (\n    a INTEGER,   -- first\n"
               "    -- the pair below\n    b VARCHAR,   -- second\n    c VARCHAR    -- third\n);\n")
    (g,) = gen.parse_schema(grouped)["objects"]
    assert g["columns"] == {"a": "first", "b": "second", "c": "third"}  # the heading is not a's
    assert gen._column_headings("TABLE", g["sql"].splitlines()) == {"b": "the pair below"}


# ------------------------------------------------------------------------------------------
# the README


def test_readme_is_a_page_a_newcomer_reads() -> None:
    size = README.stat().st_size
    assert size <= 10 * 1024, f"README.md is {size} bytes (at most 10 KB)"
    long_rows = [ln[:60] for ln in prose(README).splitlines()
                 if ln.startswith("|") and len(ln) > 200]
    assert long_rows == [], "README table rows over 200 characters"
    paragraphs = [p for p in re.split(r"\n\s*\n", prose(README)) if not p.startswith(("|", "#"))]
    long_paras = [" ".join(p.split()[:8]) for p in paragraphs if len(p.split()) > 80]
    assert long_paras == [], "README paragraphs over 80 words"


def test_readme_keeps_the_two_commands() -> None:
    demo = "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/pdnkit demo"
    tests = ('python3 -m venv .venv && .venv/bin/pip install -e ".[test]" && '
             ".venv/bin/python -m pytest")
    blocks = [text.strip() for _, text, _ in fences(README)]
    assert demo in blocks and tests in blocks
    assert tests in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_every_page_is_reached_from_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    pages = {p.name for p in DOCS.glob("*.md")}
    linked = set(re.findall(r"\(docs/([\w.-]+\.md)(?:#[\w-]*)?\)", text))
    assert pages - linked == set(), "docs pages the README does not link"


# ------------------------------------------------------------------------------------------
# the Python examples


def _python_blocks(page: Path) -> list[tuple[str, int]]:
    return [(text, line) for info, text, line in fences(page) if info in ("python", "pycon")]


@pytest.mark.parametrize("page", [p for p in PAGES if _python_blocks(p)], ids=_name)
def test_python_examples_run(page: Path, demo_folder: Path, tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``python`` block of a page runs, in order, in one namespace, in a fresh folder
    that holds the demo database as ``pdnkit demo`` leaves it (``pdnkit-demo/``): ``>>>``
    examples are doctests whose output must match, other blocks run as scripts."""
    shutil.copytree(demo_folder, tmp_path / "pdnkit-demo")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    failed = []
    for text, line in _python_blocks(page):
        where = f"{_name(page)}:{line}"
        if ">>>" in text:
            test = parser.get_doctest(text, namespace, where, str(page), line - 1)
            if runner.run(test, clear_globs=False).failed:
                failed.append(where)
            namespace.update(test.globs)  # a DocTest runs on a copy of the namespace
        else:
            exec(compile(text, where, "exec"), namespace)  # noqa: S102 - the docs' own code
    assert failed == [], f"examples that failed (see above): {', '.join(failed)}"


def _sql_blocks(page: Path) -> list[tuple[str, int]]:
    return [(text, line) for info, text, line in fences(page) if info == "sql"]


@pytest.mark.parametrize("page", [p for p in PAGES if _sql_blocks(p)], ids=_name)
def test_sql_examples_run(page: Path, demo_folder: Path) -> None:
    """Every statement of a page's ``sql`` blocks runs on the demo database (read-only, as
    ``pdnkit query`` runs it), so a renamed column or macro cannot linger in the docs."""
    from pdnkit.store import query

    db = demo_folder / "pdnkit-demo.duckdb"
    for text, line in _sql_blocks(page):
        body = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("--"))
        for statement in filter(str.strip, body.split(";")):
            try:
                query(statement, db=db)
            except Exception as exc:  # the statement and where it is, then the error
                pytest.fail(f"{_name(page)}:{line}: {statement.strip()}\n{exc}")


# ------------------------------------------------------------------------------------------
# the command lines

_SHELL = ("bash", "sh", "shell", "console")
_CUT = re.compile(r"^(\||>|>>|<|&&|;|2>|2>&1|&)$")


def command_lines(page: Path) -> list[tuple[str, int]]:
    """Every ``pdnkit ...`` line of the page's shell blocks (a ``$ `` prompt taken off)."""
    out = []
    for info, text, line in fences(page):
        if info not in _SHELL:
            continue
        for i, row in enumerate(text.splitlines()):
            row = row.strip().removeprefix("$ ")
            if row.startswith("pdnkit "):
                out.append((row, line + i))
    return out


def parse_error(line: str) -> str | None:
    """Why ``line`` does not parse as a pdnkit command line (``None``: it does): an unknown
    command or option, a missing or extra argument, a value the option refuses."""
    tokens = shlex.split(line, comments=True)
    cut = next((i for i, t in enumerate(tokens) if _CUT.match(t) or t.startswith((">", "2>"))),
               len(tokens))
    args = tokens[1:cut]
    root, ctx = generator().root_command()
    cmd, path = root, ["pdnkit"]
    while hasattr(cmd, "list_commands") and args and not args[0].startswith("-"):
        sub = cmd.get_command(ctx, args[0])
        if sub is None:
            return f"no command {' '.join([*path, args[0]])!r}"
        cmd, path, args = sub, [*path, args[0]], args[1:]
    try:
        cmd.make_context(" ".join(path), list(args), parent=ctx)
    except Exception as exc:  # click's usage errors, and what the option checks raise
        return f"{type(exc).__name__}: {exc}"
    return None


@pytest.mark.parametrize("page", [p for p in PAGES if command_lines(p)], ids=_name)
def test_command_lines_parse(page: Path) -> None:
    bad = [f"{_name(page)}:{n}: {line}\n    {err}" for line, n in command_lines(page)
           if (err := parse_error(line)) is not None]
    assert bad == [], "\n".join(bad)


def test_the_command_line_check_sees_a_mistake() -> None:
    assert parse_error("pdnkit validate games.pdn --jobs 2 > r.txt") is None
    assert parse_error('pdnkit stats openings --plies 4 --by position') is None
    assert "No such option" in str(parse_error("pdnkit validate games.pdn --jobz 2"))
    assert "unknown variant" in str(parse_error("pdnkit validate x.pdn --variant internationl"))
    assert "no command" in str(parse_error("pdnkit stats opening"))
    assert parse_error("pdnkit query") is not None  # its SQL is missing


# ------------------------------------------------------------------------------------------
# names, paths and links

_DOTTED = re.compile(r"(?<![\w./-])pdnkit(?:\.[A-Za-z_]\w*)+")
#: ``pdnkit.<x>`` words that are file names, not Python names
_FILES = {"pdnkit.duckdb"}


def resolves(dotted: str) -> bool:
    """Whether ``pdnkit.a.b.c`` names a module, or an attribute reached from one."""
    parts = dotted.split(".")
    if parts[-1] == "__main__":  # importing it would run the command line
        return importlib.util.find_spec(dotted) is not None
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_every_dotted_name_resolves() -> None:
    bad = []
    for page in PAGES:
        for name in sorted(set(_DOTTED.findall(page.read_text(encoding="utf-8")))):
            if name not in _FILES and not resolves(name):
                bad.append(f"{_name(page)}: {name}")
    assert bad == [], "names the code does not have: " + ", ".join(bad)


def test_the_name_check_sees_a_wrong_name() -> None:
    assert resolves("pdnkit.stats.crosstable") and resolves("pdnkit.rules.Position.initial")
    assert not resolves("pdnkit.stats.identities.crosstable")
    assert not resolves("pdnkit.players")


_PATH = re.compile(r"`((?:pdnkit|tests|docs|benchmarks|grammars|data|notebooks|\.ci)/[\w./*-]*"
                   r"|hatch_build\.py|pyproject\.toml)`")


def test_every_path_named_exists() -> None:
    bad = []
    for page in PAGES:
        for path in sorted(set(_PATH.findall(page.read_text(encoding="utf-8")))):
            if not any(ROOT.glob(path.rstrip("/"))):
                bad.append(f"{_name(page)}: {path}")
    assert bad == [], "paths that do not exist: " + ", ".join(bad)


def test_every_relative_link_exists() -> None:
    bad = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)\s]+)\)", prose(page)):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path, _, frag = target.partition("#")
            file = (page.parent / path).resolve()
            if not file.exists():
                bad.append(f"{_name(page)}: {target}")
            elif frag and file.suffix == ".md" and frag not in anchors(file):
                bad.append(f"{_name(page)}: {target} (no such heading)")
    assert bad == [], "broken links: " + ", ".join(bad)


@cache
def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings (as GitHub makes them)."""
    gen = generator()
    return {gen.anchor(m) for m in re.findall(r"^#+ (.+)$", prose(page), re.M)}


# ------------------------------------------------------------------------------------------
# the API page and the architecture


def test_the_api_page_shows_every_public_name() -> None:
    import pdnkit

    text = (DOCS / "api.md").read_text(encoding="utf-8")
    missing = [n for n in pdnkit._API if f"### `pdnkit.{n}`" not in text]
    assert missing == [], "public names without a section in docs/api.md: " + ", ".join(missing)


def test_the_architecture_gives_the_floors_the_house_test_holds() -> None:
    from tests.test_house import FLOORS

    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| (\d+) \| (.+?) \|", text, re.M))
    written = {room.strip("` "): int(floor) for floor, rooms in table.items()
               for room in rooms.split(",")}
    assert written == FLOORS


def test_the_architecture_states_the_schema_version_the_code_has() -> None:
    from pdnkit.store.schema import SCHEMA_VERSION

    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    stated = re.findall(r"SCHEMA_VERSION`, (\d+) today", text)
    assert stated == [str(SCHEMA_VERSION)]


def test_the_architecture_names_each_replay_strategy_the_code_has() -> None:
    """The replay story lists the strategies: every class with a ``take`` of the
    ``FastPlies`` shape in pdnkit.validation is named there."""
    import inspect

    import pdnkit.validation.coreline as coreline
    import pdnkit.validation.plainline as plainline

    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    story = text[text.index("### Who replays what"):text.index("### Glossary")]
    found = {f"{m.__name__}.{name}" for m in (coreline, plainline)
             for name, obj in vars(m).items()
             if inspect.isclass(obj) and obj.__module__ == m.__name__ and hasattr(obj, "take")}
    assert found and all(f"`{name}`" in story for name in found), found
