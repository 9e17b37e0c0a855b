"""The workbook as a book: a static site of the executed notebooks, the ledger and the sweeps.

``make run`` executes every notebook into ``build/notebooks/`` (results JSON in ``build/results/``,
each notebook's status in ``build/run.json``) and ends with :func:`build_book`; ``make book``
builds it again from what is there, executing nothing. :func:`write_sources` fills
``build/book_src/`` with

- the committed static parts of ``book/`` (``conf.py``, ``references.bib``, ``references.md``, CSS);
- ``index.md``: what the workbook is, its five sources, the status of every notebook of the last
  run (ok or failed, seconds, the verdicts on the source items it answered) and how to run it;
- ``notebooks/NN_*.ipynb``: every executed notebook, one chapter each; 00-07 follow the sources'
  sections, the workbook's own studies (the manifest's own_study) follow;
- ``ledger.md``: every row of ``data/source_ledger.csv`` with the verdict a notebook gave it, and the
  coverage per source;
- ``sweeps.md``: each parameter sweep found under ``build/sweeps/*/``, its figures as PNG files;

and Sphinx (MyST-NB, sphinx-book-theme, sphinxcontrib-bibtex, MathJax served from the site itself)
writes ``build/book/``: open ``build/book/index.html``, no network needed.

Command line: ``python -m helpers.workbook book [--out build] [--strict]`` (:mod:`helpers.workbook.cli`).
"""

from __future__ import annotations

import errno
import io
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from .._io import atomic_open
from ..data.paths import ROOT
from ..studies import SOURCES as STUDY_SOURCES
from ..studies import notebook
from .book_clean import book_notebook, machine_paths, outside_file, report_machine_paths, site_machine_paths
from .checks import effect_text
from .coverage import coverage, notebook_rows
from .ledger import SOURCES, load_ledger
from .sweep.store import RESERVED_NAMES
from .verdicts import VERDICTS

__all__ = [
    "BOOK_DIR",
    "SOURCE_CITATIONS",
    "BuiltBook",
    "build_book",
    "intro_page",
    "ledger_page",
    "machine_paths",
    "notebook_status",
    "site_machine_paths",
    "sweeps_page",
    "write_sources",
]

#: the committed static parts of the book
BOOK_DIR = ROOT / "book"
#: at most this many figures per sweep (the other results are in its summary table)
MAX_SWEEP_FIGURES = 12
#: each source's entry in book/references.bib, by ledger prefix (the manifest's)
SOURCE_CITATIONS = {source.prefix: source.citation for source in STUDY_SOURCES.values()}
_NOTEBOOK_GLOB = "[0-9][0-9]_*.ipynb"
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation mark: CommonMark escapes them all


# --------------------------------------------------------------------------------------------
# small pieces


def _escape(text) -> str:
    r"""``text`` as literal Markdown: every punctuation mark escaped, line breaks as spaces.

    Examples
    --------
    >>> print(_escape("$x$ | *a*"))
    \$x\$ \| \*a\*
    """
    return _PUNCTUATION.sub(r"\\\1", " ".join(str(text).split()))


def _verdict(text: str) -> str:
    """A verdict as a coloured span (the classes are in ``book/_static/book.css``)."""
    if not text:
        return ""
    css = re.sub(r"[^a-z]+", "-", text.lower()).strip("-")
    return f"[{_escape(text)}]{{.verdict-{css}}}"


def _table(header: list[str], rows: list[list[str]], css: str = "") -> str:
    """A Markdown pipe table (cells already Markdown), in a ``{table}`` directive when ``css`` is given."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("\n", " ") for cell in row) + " |" for row in rows]
    body = "\n".join(lines)
    if not css:
        return body
    return f":::{{table}}\n:class: {css}\n\n{body}\n:::"


def _write_if_changed(path: Path, data: str | bytes) -> bool:
    """Write ``data`` to ``path`` unless it holds exactly that already (Sphinx then skips the page)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if path.is_file() and path.read_bytes() == raw:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(path, "wb") as fh:
        fh.write(raw)
    return True


def _read_json(path: Path):
    """A JSON file's content; an unreadable one is reported (warning naming it) and read as ``None``."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        warnings.warn(f"{path}: unreadable ({exc}); the book does without it. Run `make run` again to rewrite it.",
                      stacklevel=3)
        return None


def _notebooks(out: Path) -> list[Path]:
    return sorted((out / "notebooks").glob(_NOTEBOOK_GLOB))


def _rerun_hint(path: Path) -> str:
    return (f"Run `make run` again (`python -m helpers.workbook run --only {path.name[:2]}` for this one), or delete "
            "the file to leave it out of the book.")


def _read_notebook(path: Path) -> dict:
    """An executed notebook's JSON; ``ValueError`` naming the file and the fix when it is torn, empty or not one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except IsADirectoryError:
        raise ValueError(f"{path} is a folder, not an executed notebook: remove it from {path.parent}.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path} cannot be read ({exc}). {_rerun_hint(path)}") from None
    if not text.strip():
        raise ValueError(f"{path} is empty: the run that wrote it was cut short (a full disk?). {_rerun_hint(path)}")
    try:
        nb = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not a whole notebook (its JSON breaks off: {exc}); the run that wrote it was "
                         f"cut short. {_rerun_hint(path)}") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list) or not all(
            isinstance(c, dict) for c in nb["cells"]):
        what = (f"a {type(nb).__name__}" if not isinstance(nb, dict) else "an object without a list of cells"
                if not isinstance(nb.get("cells"), list) else "cells that are not objects")
        raise ValueError(f"{path} is JSON but not a notebook (it holds {what}). {_rerun_hint(path)}")
    if (taken := outside_file(nb)) is not None:
        raise ValueError(f"{path}: Markdown cell {taken[0]} takes a file from outside the book ({taken[1]}): "
                         "the book shows a notebook's own text and outputs and publishes no other file, which "
                         "an include or a path out of the book's folder could take from anywhere on this "
                         "machine. Put the text or figure in the notebook itself, then run `make run` again.")
    return nb


def _check_rows(rows, where: Path) -> str | None:
    """What is wrong with comparison rows read from ``where``, in words (``None``: nothing)."""
    if not isinstance(rows, list):
        return f"its comparison is a {type(rows).__name__}, not a list of rows"
    for i, r in enumerate(rows):
        if not isinstance(r, dict) or not isinstance(r.get("id"), str):
            return f"comparison row {i} is not a row with an id ({str(r)[:60]})"
        if r.get("verdict") not in VERDICTS:
            return f"comparison row {i} ({r['id']}) has no verdict the workbook gives ({r.get('verdict')!r})"
    return None


def _title(nb: dict, fallback: str) -> str:
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            first = "".join(cell.get("source", "")).strip().splitlines()
            if first and first[0].startswith("# "):
                return first[0][2:].strip()
    return fallback


def _comparison_rows(out: Path, nb_path: Path) -> list[dict]:
    """The comparison rows of one notebook: its results JSON's ``comparison``, else its stored tables."""
    results_file = out / "results" / f"{nb_path.stem}.json"
    if results_file.is_file():
        results = _read_json(results_file)
        if results is not None and not isinstance(results, dict):
            warnings.warn(f"{results_file} holds a {type(results).__name__}, not the object a notebook's save_results "
                          f"writes; the book uses the tables stored in {nb_path.name} instead. Run `make run` again "
                          "to rewrite it.", stacklevel=2)
        elif isinstance(results, dict) and "comparison" in results:
            problem = _check_rows(results["comparison"], results_file)
            if problem is None:
                return results["comparison"]
            warnings.warn(f"{results_file}: {problem}; the book uses the tables stored in {nb_path.name} instead. "
                          f"Run `make run` again to rewrite it.", stacklevel=2)
    try:
        rows = notebook_rows(nb_path)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"{nb_path}: its stored comparison tables cannot be read ({exc}). {_rerun_hint(nb_path)}") \
            from None
    problem = _check_rows(rows, nb_path)
    if problem:
        raise ValueError(f"{nb_path}: a stored comparison table is not the workbook's: {problem}. "
                         f"{_rerun_hint(nb_path)}")
    return rows


def _verdict_counts(rows: list[dict]) -> str:
    counts = pd.Series([r.get("verdict") for r in rows], dtype=object).value_counts()
    return " · ".join(f"{counts[v]} {v}" for v in VERDICTS if v in counts)


# --------------------------------------------------------------------------------------------
# the notebooks' status


def notebook_status(out) -> dict[str, dict]:
    """Status and seconds of each executed notebook in ``out/notebooks``, by file name.

    ``out/run.json`` (written by ``make run``) gives them as the run recorded them; a notebook
    it does not list falls back on papermill's metadata in the notebook, then on its outputs
    (an error output means it failed). Seconds are ``None`` when nothing recorded them.

    Examples
    --------
    >>> import tempfile
    >>> notebook_status(tempfile.mkdtemp())
    {}
    """
    out = Path(out)
    recorded = {}
    if (out / "run.json").exists():
        run = _read_json(out / "run.json") if (out / "run.json").is_file() else None
        if isinstance(run, dict) and isinstance(run.get("notebooks"), list):
            recorded = {r["name"]: r for r in run["notebooks"]
                        if isinstance(r, dict) and isinstance(r.get("name"), str)}
        elif run is not None or not (out / "run.json").is_file():
            warnings.warn(f"{out / 'run.json'} is not the record `make run` writes ({{\"notebooks\": [...]}}); the "
                          "book reads each notebook's status from the notebook instead. Run `make run` again to "
                          "rewrite it.", stacklevel=2)
    status = {}
    for path in _notebooks(out):
        if path.name in recorded:
            r = recorded[path.name]
            status[path.name] = {"status": str(r.get("status", "")), "seconds": r.get("seconds")}
            continue
        nb = _read_notebook(path)
        meta = nb.get("metadata", {}).get("papermill", {})
        meta = meta if isinstance(meta, dict) else {}
        failed = bool(meta.get("exception")) or any(
            o.get("output_type") == "error" for c in nb.get("cells", []) for o in c.get("outputs", []))
        status[path.name] = {"status": "FAILED" if failed else ("ok" if meta else "not recorded"),
                             "seconds": meta.get("duration")}
    return status


# --------------------------------------------------------------------------------------------
# the generated pages

_INTRO = """\
# Covariance-aware similarity: the workbook

This book is the workbook's notebooks as `make run` executed them, on the real data, with every
output kept: the derivations, the tables that set each number printed in a source beside ours,
and the figures. Five documents are reproduced item by item (see the [references](references.md)
for full citations):

{sources}

Each item they print (a number, a table row, a worked example, an equation, a claim) is a row of
the [source ledger](ledger.md), and the notebooks compute a verdict for every row in scope:
*reproduced*, *reproduced differently*, *practically equivalent*, *small but real*, *source
typo*, *extraction error*, *source slip*, *small, not significant*, *inconclusive*, *not
supported*, *depends on the unstated setting*, *not reproduced*, *refuted*, *our finding* or
*not testable*. A claimed advantage is judged from its effect, the
effect's 95% interval and the region of practical equivalence (ROPE) the ledger states for it;
the chapters' comparison tables and the ledger page show all three. Chapters 00-07
follow the sources' sections; the chapters after them are the workbook's own studies, testing
the sources' claims beyond the data they used.

## The notebooks of this build

{status}

## Running it

```
make run    # execute every notebook into build/ (two at a time), then build this book
make book   # build the book again from build/ without executing anything
make test   # unit tests, doctests, and every notebook checked against its stored outputs
```

`make run` writes the executed notebooks to `build/notebooks/`, their headline numbers to
`build/results/NN_*.json` and their status to `build/run.json`; the book is
`build/book/index.html` and reads offline. Parameter sweeps
(`python -m helpers.workbook sweep`, written under `build/sweeps/`) appear on the
[sweeps](sweeps.md) page.

{toctrees}
"""


def intro_page(out) -> str:
    """``index.md``: the workbook, its sources, each notebook's status and verdicts, how to run it.

    Examples
    --------
    >>> import tempfile
    >>> "No executed notebook" in intro_page(tempfile.mkdtemp())
    True
    """
    out = Path(out)
    ledger = load_ledger()
    chapters = {prefix: sorted(set(ledger.loc[ledger["id"].str.startswith(prefix + "-"), "notebook"].dropna()) - {""})
                for prefix, _ in SOURCES.values()}  # the notebooks that answer each source's rows
    sources = "\n".join(
        f"- **{prefix}** {_escape(name)} {{cite:p}}`{SOURCE_CITATIONS[prefix]}`: "
        f"chapter{'s' * (len(chapters[prefix]) > 1)} {', '.join(chapters[prefix])}"
        for prefix, name in SOURCES.values())
    status = notebook_status(out)
    rows, sections, own = [], [], []
    for path in _notebooks(out):
        nb = _read_notebook(path)
        s = status[path.name]
        seconds = f"{s['seconds']:.1f}" if isinstance(s["seconds"], (int, float)) else ""
        word = "ok" if s["status"].startswith("ok") else ("failed" if s["status"].startswith("FAIL") else "")
        shown = f"[{_escape(s['status'])}]{{.status-{word}}}" if word else _escape(s["status"])
        rows.append([f"[{_escape(_title(nb, path.stem))}](notebooks/{path.name})", shown, seconds,
                     _escape(_verdict_counts(_comparison_rows(out, path)))])
        entry = notebook(path.name)
        (own if entry is not None and entry.own_study else sections).append(f"notebooks/{path.stem}")
    table = (_table(["notebook", "status", "seconds", "source items answered"], rows, "status")
             if rows else "No executed notebook in `build/notebooks/`: run `make run`.")
    toctrees = []
    for caption, docs in (("The sources' sections", sections), ("The workbook's own studies", own),
                          ("Evidence", ["ledger", "sweeps", "references"])):
        if docs:
            toctrees.append("```{toctree}\n:caption: " + caption + "\n:maxdepth: 1\n\n" + "\n".join(docs) + "\n```")
    return _INTRO.format(sources=sources, status=table, toctrees="\n\n".join(toctrees))


def _effect_note(found: dict) -> str:
    """A claim judged from an effect: `` (+0.012 [+0.004, +0.02]; ROPE ±0.01; P(better, ...) = ...)``."""
    if not found.get("interval") or found.get("effect") is None:
        return ""
    return f" ({_escape(effect_text(found))})"


def ledger_page(out, ledger: pd.DataFrame | None = None) -> str:
    """``ledger.md``: coverage per source, then every ledger row with its verdict, one table per source.

    A row's verdict comes from the comparison rows of the executed notebooks (their results JSON,
    else the tables stored in the notebook); a row no notebook answered reads "unanswered", a row
    outside the workbook's scope gives its scope note.
    """
    out = Path(out)
    ledger = load_ledger() if ledger is None else ledger
    chapters = {p.name[:2]: p.name for p in _notebooks(out)}
    answered = [r for p in _notebooks(out) for r in _comparison_rows(out, p)]
    verdict_by_id = {r["id"]: r for r in answered if isinstance(r, dict) and "id" in r}
    table = coverage(ledger, answered)
    keep = [c for c in table.columns if c in ("rows", "out of scope") or table[c].sum() > 0]
    cover = _table(["source", *keep], [[_escape(str(i).split(":")[0]), *(str(int(v)) for v in row[keep])]
                                       for i, row in table.iterrows()], "coverage")  # "VAC", ..., "all sources"
    parts = [
        "# The source ledger",
        "",
        f"`data/source_ledger.csv` holds one row for every item of the five sources: {len(ledger)} rows. "
        "Each gives the source's file and lines, what it prints, and the notebook and key that answer it; "
        "the verdict is the one that notebook computed in this build.",
        "",
        "## Coverage per source",
        "",
        cover,
    ]
    for source, (prefix, name) in SOURCES.items():
        part = ledger[ledger["source"] == source]
        rows = []
        for r in part.to_dict("records"):
            found = verdict_by_id.get(r["id"])
            if r["key"] == "":
                verdict = _verdict("out of scope") + (f": {_escape(r['scope'])}" if r["scope"] else "")
            elif found is None:
                verdict = _verdict("unanswered")
            else:
                verdict = _verdict(found["verdict"]) + _effect_note(found)
            nb = r["notebook"]
            where = f"[{nb}](notebooks/{chapters[nb]})" if nb in chapters else _escape(nb)
            printed = _escape(r["printed"]) + (f" (reading: {_escape(r['reading'])})" if r["reading"] else "")
            rows.append([_escape(r["id"]), _escape(r["lines"]), _escape(r["item"]), printed, where, verdict])
        parts += ["", f"## {prefix}: {_escape(name)}", "",
                  f"Source file `{source}`, {len(part)} rows.", "",
                  _table(["id", "lines", "item", "printed", "notebook", "verdict"], rows, "ledger")]
    return "\n".join(parts) + "\n"


def _sweep_group(table: pd.DataFrame, params: list[str], n_runs: int) -> str | None:
    """The parameter to group a sweep's results by: the varying one with fewest values, repeated at least once."""
    levels = {p: table[p].astype(str).nunique() for p in params}
    candidates = [p for p, n in levels.items() if 1 < n < n_runs]
    return min(candidates, key=lambda p: levels[p]) if candidates else None


def _file_stem(name: str) -> str:
    """A sweep folder's name as a figure's file name: no space or mark a Markdown link would break on.

    Examples
    --------
    >>> _file_stem("seeds"), _file_stem("k by seed")
    ('seeds', 'k-by-seed-c8c563')
    """
    import hashlib

    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "sweep"
    return stem if stem == name else f"{stem}-{hashlib.sha1(name.encode()).hexdigest()[:6]}"  # "a b" vs "a-b"


def sweeps_page(out, src) -> str:
    """``sweeps.md``: for each sweep under ``out/sweeps/*/``, its runs, a summary and figures (PNG in ``src``).

    Each numeric result that varies over the runs gets a box and strip plot
    (:func:`helpers.workbook.sweep.plot_distribution`), grouped by the varying parameter with the
    fewest values that repeats (the method, say, rather than the seed); the first
    :data:`MAX_SWEEP_FIGURES` results get a figure, every one is in the summary table.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from ..plotting import figure_title
    from .sweep import load, plot_distribution

    out, src = Path(out), Path(src)
    folders = sorted(p.parent for p in (out / "sweeps").glob("*/runs")) if (out / "sweeps").is_dir() else []
    figures_dir = src / "sweeps"
    keep_pngs = set()
    parts = ["# Parameter sweeps", ""]
    if not folders:
        parts.append(
            "No parameter sweep in this build. `python -m helpers.workbook sweep NOTEBOOK -p NAME VALUES "
            "--out build/sweeps/NAME` runs a notebook over a grid of its parameters (for example "
            "`-p random_state 0:50` over 50 random splits); the book then shows each sweep here."
        )
    for folder in folders:
        name = folder.name
        table = load(folder)
        parts += [f"## Sweep `{name}`", ""]
        if table.empty:
            parts += ["No finished run yet.", ""]
            continue
        params = [c for c in table.columns if c not in RESERVED_NAMES]
        n_runs = table["run_id"].nunique()
        n_failed = table.loc[table["status"] != "ok", "run_id"].nunique()
        varying = [p for p in params if table[p].astype(str).nunique() > 1]
        names = ", ".join(f"`{p}`" for p in varying) or "none"
        parts.append(f"{n_runs} runs, {n_failed} failed; parameters varied: {names}. "
                     f"Table: `{folder.relative_to(out)}/results.csv`.")
        parts.append("")
        ok = table[table["status"] == "ok"].copy()
        ok["number"] = pd.to_numeric(ok["value"].where(ok["value"].map(lambda v: isinstance(v, (int, float)))),
                                     errors="coerce")
        numeric = ok.dropna(subset=["number"])
        keys = [k for k in dict.fromkeys(numeric["key"]) if numeric.loc[numeric["key"] == k, "number"].nunique() > 1]
        by = _sweep_group(numeric, params, n_runs)
        if not keys:
            parts += ["No numeric result varies over the runs.", ""]
            continue
        summary = []
        for key in keys:
            values = numeric.loc[numeric["key"] == key, "number"]
            summary.append([f"`{key}`", str(len(values)), f"{values.mean():.4g}", f"{values.std():.3g}",
                            f"{values.min():.4g}", f"{values.max():.4g}"])
        parts += [_table(["result", "runs", "mean", "sd", "min", "max"], summary), ""]
        grouped = numeric.assign(**({} if by else {"runs": "all runs"}))
        grouped = grouped.assign(value=grouped["number"]).drop(columns="number")
        for i, key in enumerate(keys[:MAX_SWEEP_FIGURES]):
            fig, ax = plt.subplots(figsize=(6, 3.6))
            try:
                plot_distribution(grouped, key, by or "runs", ax=ax)
                alt = figure_title(fig) or f"{key} over the runs of sweep {name}"  # its title, as in the chapters
                buffer = io.BytesIO()
                fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight", metadata={"Software": None})
            finally:
                plt.close(fig)
            png = figures_dir / f"{_file_stem(name)}_{i:02d}.png"
            _write_if_changed(png, buffer.getvalue())
            keep_pngs.add(png)
            parts += [f"![{_escape(alt)}](sweeps/{png.name})", ""]
        if len(keys) > MAX_SWEEP_FIGURES:
            parts += [f"The other {len(keys) - MAX_SWEEP_FIGURES} results are in the table above.", ""]
    if figures_dir.is_dir():
        for stale in set(figures_dir.glob("*.png")) - keep_pngs:
            stale.unlink()
    return "\n".join(parts).rstrip() + "\n"


# --------------------------------------------------------------------------------------------
# the source tree and the build


def write_sources(out="build") -> Path:
    """Write the book's source tree ``out/book_src/`` from ``out/`` and ``book/``; returns its path.

    Files whose content is unchanged are left alone, so Sphinx rebuilds only what changed;
    chapters of notebooks no longer in ``out/notebooks`` are removed.

    Raises
    ------
    FileNotFoundError
        ``out/notebooks`` holds no executed notebook (``NN_*.ipynb``): run ``make run`` first.
    ValueError
        An executed notebook is torn, empty or not a notebook, or its stored comparison tables
        are not the workbook's; the ledger is malformed. The message names the file and the fix.
    OSError
        ``out/book_src`` cannot be written (a file in its place, no permission, a full disk):
        the message names it and the way out; files written before are whole.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, f"{out} is a file, not the build folder the book is made from (the "
                                 "--out of `make run`, with notebooks/, results/ and run.json); give that folder.")
    notebooks = _notebooks(out)
    if not notebooks:
        raise FileNotFoundError(
            errno.ENOENT,
            f"No executed notebooks in {out / 'notebooks'} (NN_*.ipynb): the book shows the notebooks as "
            "`make run` executed them. Run `make run` first (it builds the book when it ends).",
        )
    bad = []
    for path in notebooks:  # every unreadable input named at once, before anything is written
        try:
            _read_notebook(path)
        except ValueError as exc:
            bad.append(str(exc))
    if bad:
        raise ValueError("the book cannot show these executed notebooks:\n  " + "\n  ".join(bad))
    src = out / "book_src"
    with warnings.catch_warnings(record=True) as said:  # both pages read the results: each damaged file said once
        warnings.simplefilter("always")
        pages = {"index.md": intro_page(out), "ledger.md": ledger_page(out)}  # every input read before writing
    for category, message in dict.fromkeys((w.category, str(w.message)) for w in said):
        warnings.warn(message, category, stacklevel=2)
    try:
        if src.exists() and not src.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "a file is in its place")
        for static in BOOK_DIR.rglob("*"):
            if static.is_file() and "__pycache__" not in static.parts:
                _write_if_changed(src / static.relative_to(BOOK_DIR), static.read_bytes())
        chapters = src / "notebooks"
        for path in notebooks:
            _write_if_changed(chapters / path.name, book_notebook(path))
        for stale in set(chapters.glob("*.ipynb")) - {chapters / p.name for p in notebooks}:
            stale.unlink()
        for name, page in pages.items():
            _write_if_changed(src / name, page)
        _write_if_changed(src / "sweeps.md", sweeps_page(out, src))
    except OSError as exc:
        message = (f"Cannot write the book's sources into {src}: {exc.strerror or exc}. It is rebuilt from {out} "
                   "every time: delete it if something else is in its place, make the folder writable or free "
                   "space there, then build the book again.")
        raise (type(exc)(exc.errno, message) if exc.errno is not None else OSError(message)) from None
    return src


class BuiltBook(NamedTuple):
    """A built book: where to open it, and the pages that show a path of the building machine."""

    index: Path                          #: ``out/book/index.html``
    machine_paths: dict[str, list[str]]  #: ``{page: [absolute paths it shows]}``, empty when the book is clean


def build_book(out="build", *, strict: bool = False, quiet: bool = True) -> BuiltBook:
    """Write the book's sources (:func:`write_sources`) and build ``out/book/`` with Sphinx.

    Parameters
    ----------
    out : path-like
        The build folder of ``make run`` (``notebooks/``, ``results/``, ``run.json``, ``sweeps/``).
    strict : bool
        Fail on any Sphinx warning (the tests build this way).
    quiet : bool
        Print only warnings and errors (Sphinx's ``-q``).

    Returns
    -------
    BuiltBook
        ``index`` (``out/book/index.html``) and ``machine_paths``: the pages that show an absolute
        path of this machine (listed on stderr; a book to publish has none), found once here.

    Raises
    ------
    FileNotFoundError
        No executed notebook in ``out/notebooks``: run ``make run`` first.
    RuntimeError
        Sphinx failed, or (``strict``) warned or showed a machine path; the message holds its
        warnings and the log's path.
    """
    out = Path(out)
    src = write_sources(out)
    html, log = out / "book", src / "_build" / "warnings.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-d", str(src / "_build" / "doctrees"),
           "-w", str(log), *(["-q"] if quiet else []), *(["-W"] if strict else []), str(src), str(html)]
    done = subprocess.run(cmd, stdout=None if not quiet else subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    warned = log.read_text(encoding="utf-8").strip() if log.is_file() else ""
    if done.returncode != 0:
        detail = warned or done.stderr.strip()[-4000:]
        raise RuntimeError(f"Sphinx could not build the book from {src} (exit {done.returncode}):\n{detail}\n"
                           f"Warnings: {log}")
    if warned:
        print(f"the book was built with {len(warned.splitlines())} warning line(s), listed in {log}:\n{warned}",
              file=sys.stderr)
    return BuiltBook(html / "index.html", report_machine_paths(html, out, strict))
