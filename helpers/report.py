"""The workbook report: ``build/report.html``, an index of the executed notebooks.

``make run`` executes every notebook into ``build/notebooks/``, writes each notebook's
results JSON to ``build/results/`` and its HTML (nbconvert) to ``build/html/``; then
:func:`build_report` writes one page that links them, shows each notebook's
"What we found", every paper / ours / difference table the notebook saved under the
results key ``comparison``, and the robustness summaries saved under ``sweep50``.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import nbformat
import pandas as pd

__all__ = ["build_report", "notebook_summary"]

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
.ok { color: #1a7f37; } .failed { color: #cf222e; font-weight: bold; }
.matches { color: #1a7f37; } .differs { color: #9a6700; font-weight: bold; }
section { border-top: 1px solid #ddd; margin-top: 2em; }
"""


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
    table = pd.DataFrame.from_records(records)
    if table.empty:
        return ""
    for col in ("paper", "ours", "difference"):
        if col in table:
            table[col] = pd.to_numeric(table[col], errors="coerce").round(4)
    if "verdict" in table:
        table["verdict"] = [f'<span class="{html.escape(str(v))}">{html.escape(str(v))}</span>' for v in table["verdict"]]
    return table.to_html(index=False, escape=False, na_rep="")


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
        "<table><tr><th>notebook</th><th>status</th><th>run time (s)</th></tr>",
    ]
    sections = []
    for nb_path in sorted((out / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        info = notebook_summary(nb_path)
        link = f"html/{nb_path.stem}.html"
        seconds = f"{info['seconds']:.0f}" if isinstance(info["seconds"], (int, float)) else ""
        parts.append(
            f"<tr><td><a href='{link}'>{html.escape(info['title'])}</a></td>"
            f"<td class='{info['status']}'>{info['status']}</td><td>{seconds}</td></tr>"
        )
        body = [f"<section><h2><a href='{link}'>{html.escape(info['title'])}</a></h2>"]
        if info["found"]:
            body.append("<h3>What we found</h3>" + _markdown(info["found"]))
        results_file = out / "results" / f"{nb_path.stem}.json"
        if results_file.exists():
            results = json.loads(results_file.read_text())
            if results.get("comparison"):
                body.append("<h3>Source · ours · difference</h3>" + _comparison_html(results["comparison"]))
            if isinstance(results.get("sweep50"), dict):
                body.append("<h3>Accuracy over random splits (mean, sd)</h3>" + _sweep_html(results["sweep50"]))
        body.append("</section>")
        sections.append("\n".join(body))
    parts.append("</table>")
    parts.extend(sections)
    parts.append("</body></html>")
    path = out / "report.html"
    path.write_text("\n".join(parts))
    return path
