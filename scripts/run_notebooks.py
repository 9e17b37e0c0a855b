"""Execute, refresh and check the workbook's numbered notebooks (behind make run / notebooks / test).

    run --out build          papermill every notebook into build/notebooks/, results JSON into
                             build/results/, HTML into build/html/, and build/report.html
    refresh [NB ...]         re-execute notebooks with their defaults and replace the committed
                             files (normalized) only on success            (make notebooks)
    check                    fail if a committed notebook is unexecuted, out of order, holds
                             errors/stderr/injected cells or is not normalized  (make test)

See ../shared/NOTEBOOK_PRACTICES.md sections 1.3 (cwd), 1.5 (errors), 3.2 (normalizing).
"""

from __future__ import annotations

import argparse
import copy
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}
DROP_CELL_TAGS = {"injected-parameters", "papermill-error-cell-tag"}
DROP_CELL_METADATA = ("papermill", "execution", "ExecuteTime", "collapsed", "scrolled")


def numbered_notebooks(folder: Path = NOTEBOOKS) -> list[Path]:
    return sorted(p for p in folder.glob("[0-9][0-9]_*.ipynb"))


def normalize(nb):
    """Drop papermill/nbclient run metadata and injected cells; force the python3 kernelspec."""
    nb = copy.deepcopy(nb)
    nb.metadata.pop("papermill", None)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata.get("language_info", {}).pop("version", None)
    cells = []
    for cell in nb.cells:
        if DROP_CELL_TAGS & set(cell.metadata.get("tags", [])):
            continue
        for key in DROP_CELL_METADATA:
            cell.metadata.pop(key, None)
        cells.append(cell)
    nb.cells = cells
    return nb


def _write(nb, path: Path) -> None:
    path.write_text(nbformat.writes(nb) + ("" if nbformat.writes(nb).endswith("\n") else "\n"))


def _execute(src: Path, dst: Path, parameters: dict | None = None):
    import papermill as pm

    from helpers.sweep import _kernel_manager_class  # ipc transport: no port races, no TCP warning

    manager = _kernel_manager_class()
    return pm.execute_notebook(
        str(src),
        str(dst),
        parameters=parameters or {},
        kernel_name="python3",
        cwd=str(src.parent),
        progress_bar=False,
        request_save_on_cell_execute=False,
        **({"kernel_manager_class": manager} if manager is not None else {}),
    )


def _describe(exc: Exception) -> str:
    evalue = str(getattr(exc, "evalue", exc)).strip().splitlines()
    where = f" in cell {exc.cell_index}" if hasattr(exc, "cell_index") else ""
    return f"{getattr(exc, 'ename', type(exc).__name__)}{where}: {evalue[0] if evalue else ''}"


def cmd_run(out: Path, only: list[str] | None, folder: Path) -> int:
    import papermill as pm
    from nbconvert import HTMLExporter

    out = out.resolve()
    for sub in ("notebooks", "results", "html"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    failures = []
    for src in numbered_notebooks(folder):
        if only and not any(name in src.name for name in only):
            continue
        params = {}
        if "results_path" in pm.inspect_notebook(str(src)):
            params["results_path"] = str(out / "results" / f"{src.stem}.json")
        dst = out / "notebooks" / src.name
        start = time.monotonic()
        try:
            _execute(src, dst, params)
            status = "ok"
        except Exception as exc:  # keep going; report all failures at the end
            status = "FAILED " + _describe(exc)
            failures.append(src.name)
        if dst.exists():
            body, _ = HTMLExporter().from_notebook_node(nbformat.read(dst, as_version=4))
            (out / "html" / f"{src.stem}.html").write_text(body)
        print(f"{src.name:<45} {time.monotonic() - start:6.1f} s  {status}", flush=True)
    try:
        from helpers.report import build_report
    except ImportError:
        pass
    else:
        print(f"report: {build_report(out)}")
    if failures:
        print(f"{len(failures)} notebook(s) failed: {', '.join(failures)}", file=sys.stderr)
        return 1
    return 0


def cmd_refresh(names: list[str], folder: Path) -> int:
    targets = [Path(n).resolve() for n in names] if names else numbered_notebooks(folder)
    failed = 0
    for src in targets:
        start = time.monotonic()
        with tempfile.TemporaryDirectory() as tmp:
            try:
                nb = _execute(src, Path(tmp) / src.name)
            except Exception as exc:
                print(f"{src.name:<45} FAILED, left unchanged: {_describe(exc)}", file=sys.stderr)
                failed += 1
                continue
        _write(normalize(nb), src)
        print(f"{src.name:<45} {time.monotonic() - start:6.1f} s  refreshed", flush=True)
    return 1 if failed else 0


def problems(path: Path) -> list[str]:
    """What is wrong with a committed notebook (empty list: nothing)."""
    nb = nbformat.read(path, as_version=4)
    found = []
    counts = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        tags = set(cell.metadata.get("tags", []))
        if "injected-parameters" in tags:
            found.append(f"cell {i} is a papermill injected-parameters cell")
        if cell.source.strip() and cell.execution_count is None:
            found.append(f"code cell {i} was not executed")
        if cell.execution_count is not None:
            counts.append(cell.execution_count)
        for output in cell.outputs:
            if output.output_type == "error":
                found.append(f"cell {i} holds an error output ({output.ename})")
            if output.output_type == "stream" and output.name == "stderr":
                found.append(f"cell {i} holds stderr output: {output.text.strip()[:80]!r}")
    if counts != list(range(1, len(counts) + 1)):
        found.append(f"execution counts are not 1..{len(counts)} in order: {counts}")
    if nbformat.writes(normalize(nb)) != nbformat.writes(nb):
        found.append("not normalized (run metadata or a non-python3 kernelspec): refresh it with make notebooks")
    return found


def cmd_check(folder: Path) -> int:
    notebooks = numbered_notebooks(folder)
    if not notebooks:
        print(f"no numbered notebooks in {folder}", file=sys.stderr)
        return 1
    bad = 0
    for path in notebooks:
        for problem in problems(path):
            print(f"{path.name}: {problem}", file=sys.stderr)
            bad += 1
    if bad:
        print("fix with: make notebooks NB=notebooks/<name>.ipynb", file=sys.stderr)
        return 1
    print(f"checked {len(notebooks)} notebooks")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notebooks-dir", type=Path, default=NOTEBOOKS)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("--out", type=Path, default=ROOT / "build")
    run.add_argument("--only", nargs="*", help="run only notebooks whose file name contains one of these")
    refresh = sub.add_parser("refresh")
    refresh.add_argument("notebooks", nargs="*")
    sub.add_parser("check")
    args = parser.parse_args(argv)
    if args.command == "run":
        return cmd_run(args.out, args.only, args.notebooks_dir)
    if args.command == "refresh":
        return cmd_refresh(args.notebooks, args.notebooks_dir)
    return cmd_check(args.notebooks_dir)


if __name__ == "__main__":
    sys.exit(main())
