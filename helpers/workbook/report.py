"""The workbook report: ``build/report.html``, an index of the executed notebooks.

``make run`` executes every notebook into ``build/notebooks/``, writes each notebook's
results JSON to ``build/results/`` and its HTML (nbconvert) to ``build/html/``; then
:func:`build_report` writes one page that links them, shows each notebook's
"What we found", every paper / ours / difference table the notebook saved under the
results key ``comparison`` (``helpers.workbook.results.save_results`` stores them) with a count of
verdicts, the robustness summaries saved under ``sweep50`` with box and strip plots of the
per-split values saved under ``sweep50_values``, and the distribution of every result of
each parameter sweep found in ``out/sweeps/*/`` (``python -m helpers.workbook.sweep --out build/sweeps/NAME``).
"""

from __future__ import annotations

import base64
import html
import io
import json
import warnings
from pathlib import Path

import nbformat
import pandas as pd

__all__ = ["build_report", "coverage_html", "notebook_summary", "verdict_counts"]

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
.ok { color: #1a7f37; } .failed { color: #cf222e; font-weight: bold; }
.v-reproduced, .v-reproduced-differently { color: #1a7f37; }
.v-source-typo, .v-extraction-error, .v-not-testable { color: #57606a; }
.v-small-not-significant, .v-not-supported, .v-not-reproduced { color: #9a6700; font-weight: bold; }
.v-refuted { color: #cf222e; font-weight: bold; }
section { border-top: 1px solid #ddd; margin-top: 2em; }
"""


def _read_results(path: Path) -> dict:
    """A notebook's results JSON; an unreadable one is reported (warning naming it) and left out."""
    try:
        results = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        warnings.warn(f"{path}: results file unreadable ({exc}); left out of the report. Re-run its "
                      "notebook (make run) to write it again.", stacklevel=2)
        return {}
    return results if isinstance(results, dict) else {}


def _markdown(text: str) -> str:
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    return markdown2html_mistune(text)


def notebook_summary(path: Path) -> dict:
    """Title, status, run time and the "What we found" text of an executed notebook."""
    nb = nbformat.read(path, as_version=4)
    markdown = [c.source for c in nb.cells if c.cell_type == "markdown"]
    title = markdown[0].splitlines()[0].lstrip("# ").strip() if markdown else path.stem
    found = ""
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown" and "What we found" in cell.source.splitlines()[0]:
            body = cell.source.split("\n", 1)[1] if "\n" in cell.source else ""
            nxt = nb.cells[i + 1] if i + 1 < len(nb.cells) else None
            if not body.strip() and nxt is not None and nxt.cell_type == "markdown":
                body = nxt.source
            found = body.strip()
            break
    meta = nb.metadata.get("papermill", {})
    failed = bool(meta.get("exception"))
    return {
        "title": title,
        "status": "failed" if failed else "ok",
        "seconds": meta.get("duration"),
        "found": found,
    }


def _comparison_html(records) -> str:
    """Source · ours · difference · verdict rows of one notebook, as a table with the ledger ids."""
    from .ledger import ComparisonTable

    if not records:
        return ""
    frame = ComparisonTable(records).frame()
    frame["verdict"] = [f'<span class="v-{html.escape(v.replace(" ", "-").replace(",", ""))}">{html.escape(v)}</span>'
                        for v in frame["verdict"]]
    for col in ("id", "item", "lines", "source", "ours", "difference", "note"):
        frame[col] = frame[col].map(lambda v: html.escape(str(v)))
    return frame.to_html(index=False, escape=False, na_rep="")


def verdict_counts(records) -> str:
    """One line, e.g. "31 reproduced · 2 source typo · 1 refuted", for a notebook's comparison rows."""
    from .ledger import VERDICTS

    verdicts = pd.Series([r.get("verdict") for r in records or []], dtype=object).value_counts()
    return " · ".join(f"{verdicts[v]} {v}" for v in VERDICTS if v in verdicts)


def coverage_html(results_dir: Path) -> str:
    """Coverage of the source ledger by the executed notebooks: rows and verdicts per source."""
    from .ledger import coverage, load_ledger

    rows = []
    for path in sorted(Path(results_dir).glob("[0-9][0-9]_*.json")):
        rows += _read_results(path).get("comparison") or []
    table = coverage(load_ledger(), rows)
    keep = [c for c in table.columns if c in ("rows", "out of scope") or table[c].sum() > 0]
    return table[keep].to_html()


def _png(fig) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80, bbox_inches="tight")
    return f"<img alt='figure' src='data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}'>"


def _distribution_png(data: pd.DataFrame, x: str, y: str, title: str) -> str:
    """Box and strip plot of ``y`` for each value of ``x`` (long table), as an inline PNG."""
    from matplotlib.figure import Figure

    from ..plotting import box_strip

    fig = Figure(figsize=(max(5.0, 1.1 * data[x].nunique() + 2), 3.8))
    ax = box_strip(fig.subplots(), data, x, y)
    ax.set(title=title, xlabel=x.replace("_", " "), ylabel=y.replace("_", " "))
    ax.tick_params(axis="x", labelrotation=30)
    return _png(fig)


def _split_values_html(values: dict, title: str) -> str:
    rows = [{"method": m, "test accuracy": v} for m, vals in values.items() if isinstance(vals, list) for v in vals
            if isinstance(v, (int, float))]
    if not rows:
        return ""
    data = pd.DataFrame(rows)
    n = data.groupby("method").size().max()
    return _distribution_png(data, "method", "test accuracy", f"{title}: test accuracy over {n} random splits")


def _sweeps_html(out: Path) -> str:
    """Distribution plots of each parameter sweep in ``out/sweeps/*/results.csv``."""
    parts = []
    for csv in sorted((out / "sweeps").glob("*/results.csv")):
        try:
            table = pd.read_csv(csv)
        except (pd.errors.EmptyDataError, OSError):
            continue
        if table.empty or "key" not in table:
            continue
        ok = table[table["status"] == "ok"]
        accuracy = ok[ok["key"].astype(str).str.startswith("test_accuracy.")].copy()
        n_runs, n_failed = table["run_id"].nunique(), table.loc[table["status"] != "ok", "run_id"].nunique()
        parts.append(f"<h3>Sweep <code>{html.escape(csv.parent.name)}</code></h3><p>{n_runs} runs, "
                     f"{n_failed} failed; table: <code>{html.escape(str(csv.relative_to(out)))}</code></p>")
        if not accuracy.empty:
            accuracy["method"] = accuracy["key"].str.removeprefix("test_accuracy.")
            accuracy["test accuracy"] = pd.to_numeric(accuracy["value"], errors="coerce")
            parts.append(_distribution_png(
                accuracy.dropna(subset=["test accuracy"]), "method", "test accuracy",
                f"{csv.parent.name}: test accuracy over {accuracy['run_id'].nunique()} runs",
            ))
    return "\n".join(parts)


def _sweep_html(sweep: dict) -> str:
    rows = []
    for method, stats in sweep.items():
        if isinstance(stats, dict) and "mean" in stats:
            rows.append({"method": method, "mean": stats["mean"], "sd": stats.get("sd")})
    if not rows:
        return ""
    return pd.DataFrame(rows).round(4).to_html(index=False, na_rep="")


def build_report(out) -> Path:
    """Write ``out/report.html`` from ``out/notebooks``, ``out/results`` and ``out/html``."""
    out = Path(out)
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Covariance-aware similarity: workbook report</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>Covariance-aware similarity: workbook report</h1>",
        "<p>Every number below was computed by executing the notebooks on the real data "
        "(<code>make run</code>). Each notebook links to its full HTML.</p>",
        "<table><tr><th>notebook</th><th>status</th><th>run time (s)</th><th>source numbers</th></tr>",
    ]
    sections = []
    for nb_path in sorted((out / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        info = notebook_summary(nb_path)
        link = f"html/{nb_path.stem}.html"
        seconds = f"{info['seconds']:.0f}" if isinstance(info["seconds"], (int, float)) else ""
        results_file = out / "results" / f"{nb_path.stem}.json"
        results = _read_results(results_file) if results_file.exists() else {}
        counts = verdict_counts(results.get("comparison"))
        parts.append(
            f"<tr><td><a href='{link}'>{html.escape(info['title'])}</a></td>"
            f"<td class='{info['status']}'>{info['status']}</td><td>{seconds}</td><td>{counts}</td></tr>"
        )
        body = [f"<section><h2><a href='{link}'>{html.escape(info['title'])}</a></h2>"]
        if info["found"]:
            body.append("<h3>What we found</h3>" + _markdown(info["found"]))
        if results.get("comparison"):
            body.append(
                f"<h3>Source · ours · difference · verdict ({counts})</h3>" + _comparison_html(results["comparison"])
            )
        if isinstance(results.get("sweep50"), dict):
            body.append("<h3>Accuracy over random splits (mean, sd)</h3>" + _sweep_html(results["sweep50"]))
        if isinstance(results.get("sweep50_values"), dict):
            body.append(_split_values_html(results["sweep50_values"], info["title"].split(" · ")[0]))
        body.append("</section>")
        sections.append("\n".join(body))
    parts.append("</table>")
    parts.append("<h2>Source ledger coverage</h2><p>Every item of the five sources is a row of "
                 "<code>data/source_ledger.csv</code>; the notebooks compute a verdict for each row in scope.</p>"
                 + coverage_html(out / "results"))
    parts.extend(sections)
    sweeps = _sweeps_html(out)
    if sweeps:
        parts.append("<section><h2>Parameter sweeps</h2>" + sweeps + "</section>")
    parts.append("</body></html>")
    path = out / "report.html"
    path.write_text("\n".join(parts))
    return path
