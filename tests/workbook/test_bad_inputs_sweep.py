"""Bad input and faults against the sweep, the results file, notebook execution and the notebook runner.

A catalogue: each case is a row (id, what is called, the expected error type or answer, the
words that must name the problem and the fix). Three tables:

- ``CLI_CASES``: a command line (``python -m helpers.workbook sweep``, ``run`` or ``refresh``)
  run in process; it must exit with 2 before any work, print
  the words on stderr and leave no output folder behind.
- ``ERROR_CASES``: a call that must raise the given type with the words in its message.
- ``ANSWER_CASES``: a call that must give the right answer (checked value) instead of failing.

Corrupt run files, the final table after Ctrl-C and a notebook executed with a bad parameter
follow; tests that execute notebooks or stop a live sweep are marked ``integration``.
"""

import errno
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest

from helpers import _tasks
from helpers.studies import NOTEBOOKS as MANIFEST
from helpers.workbook import cli, sweep
from helpers.workbook.execute import execute_notebook
from helpers.workbook.parameters import (
    Integer,
    ListOf,
    OneOf,
    Real,
    check_parameters,
)
from helpers.workbook.results import save_results, to_jsonable
from tests.support import SLOW_BODY, processes_gone, unwritable_dir

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"

COVARIANCE = MANIFEST["04"].parameters["covariance"]
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}
TINY_PARAMETERS = 'seed = 0\nmethod = "a"\nscale = 1.0\nresults_path = None'
TINY_BODY = ("import json\nresults = {'score': seed * scale, 'detail': {'method': method}}\n"
             "if results_path:\n    json.dump(results, open(results_path, 'w'))")


def write_notebook(path: Path, parameters: str | None = TINY_PARAMETERS, body: str = TINY_BODY) -> Path:
    cells = [nbformat.v4.new_markdown_cell(f"# {path.stem}")]
    if parameters is not None:
        cells.append(nbformat.v4.new_code_cell(parameters, metadata={"tags": ["parameters"]}))
    cells.append(nbformat.v4.new_code_cell(body))
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nbformat.write(nb, path)
    return path


def closed_port() -> int:
    with socket.socket() as s:  # bound, then closed: nothing listens there
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tiny(t):
    return str(write_notebook(t / "tiny.ipynb"))


def grid(t, text, name="grid.json"):
    (t / name).write_bytes(text.encode() if isinstance(text, str) else text)
    return str(t / name)


def sweep_cli(*argv):
    return lambda t: (cli.main, ["sweep", *(a(t) if callable(a) else a for a in argv), "--out", str(t / "out")])


def sweep_to(out, *argv):
    """``sweep`` with an ``--out`` of its own (a function of the case's folder)."""
    return lambda t: (cli.main, ["sweep", *(a(t) if callable(a) else a for a in argv), "--out", str(out(t))])


def runner_cli(*argv):
    return lambda t: (cli.main, [a(t) if callable(a) else a for a in argv])


def out_file(t):
    (t / "out").write_text("a file where the output folder should go")
    return tiny(t)


RESERVED_PARAMETERS = 'seed = 0\nstatus = "x"\nkey = "k"\nvalue = 1\nrun_id = "r"\nresults_path = None'


def reserved(t):
    """A notebook whose parameters are named like the results table's own columns."""
    return str(write_notebook(t / "reserved.ipynb", parameters=RESERVED_PARAMETERS))


def big_grid_file(t):
    return grid(t, json.dumps({"seed": list(range(20_000))}))


def nb03(t):
    return str(NOTEBOOKS / "04_wisconsin_cosine_knn.ipynb")


def nb05(t):
    return str(NOTEBOOKS / "06_reuters_mahalanobis_knn.ipynb")


YAML_TYPES = (r"\(YAML reads yes, no, on, off, true and false as booleans and 2026-12-03 as a date: quote the value "
              r"in the grid file, e\.g\. 'yes'\)\.")

# (id, command line, words on stderr). Each must exit 2 before any work and leave no out/ behind.
CLI_CASES = [
    ("grid-file-missing", sweep_cli(tiny, "--grid", lambda t: str(t / "nope.json")),
     r"Grid file .*nope\.json does not exist; give the path of a JSON file such as \{\"seed\""),
    ("grid-bad-json", sweep_cli(tiny, "--grid", lambda t: grid(t, '{"seed": [0, 1,}')),
     r"Grid file .*grid\.json is not valid JSON at line 1, column 16 .*write \{\"seed\": \[0, 1, 2\]\}"),
    ("grid-bad-yaml", sweep_cli(tiny, "--grid", lambda t: grid(t, "seed: [0, 1\nmethod: a\n", "grid.yaml")),
     r"Grid file .*grid\.yaml is not valid YAML at line \d+, column \d+ .*seed: \[0, 1, 2\]"),
    ("grid-toml-file", sweep_cli(tiny, "--grid", lambda t: grid(t, "seed = [0, 1]\n", "grid.toml")),
     r"Grid file .*grid\.toml is read by its suffix, and '\.toml' is not one: write the grid as JSON \(\.json, "
     r"e\.g\. \{\"seed\": \[0, 1, 2\]\}\) or YAML \(\.yaml or \.yml, e\.g\. seed: \[0, 1, 2\]\)\."),
    ("grid-yaml-yes-for-a-string", sweep_cli(tiny, "--grid", lambda t: grid(t, "method: [zca, yes]\n", "g.yaml")),
     r"Parameter 'method' \(in .*g\.yaml\) of tiny\.ipynb takes .*; got True \(bool\) " + YAML_TYPES),
    ("grid-yaml-date-for-a-string", sweep_cli(tiny, "--grid", lambda t: grid(t, "method: [2026-12-03]\n", "g.yml")),
     r"Parameter 'method' \(in .*g\.yml\) of tiny\.ipynb takes .*; got datetime\.date\(2026, 12, 3\) \(date\) "
     + YAML_TYPES),
    ("grid-not-utf8", sweep_cli(tiny, "--grid", lambda t: grid(t, b"\xff\xfe{")),
     r"Grid file .*grid\.json cannot be read \(.*codec.*\); give a UTF-8 JSON file"),
    ("grid-not-a-mapping", sweep_cli(tiny, "--grid", lambda t: grid(t, "[0, 1]")),
     r"Grid file .*grid\.json must hold a non-empty mapping \{name: \[values\]\}.*it holds list"),
    ("grid-value-not-a-list", sweep_cli(tiny, "--grid", lambda t: grid(t, '{"seed": [0], "method": "b"}')),
     r"Grid file .*grid\.json: 'method' must be a list of values, not 'b' \(str\); write \"method\": \[\"b\"\]"),
    ("grid-empty-list", sweep_cli(tiny, "--grid", lambda t: grid(t, '{"seed": []}')),
     r"Grid file .*grid\.json: 'seed' has an empty list; give at least one value or remove the key"),
    ("grid-unknown-name", sweep_cli(tiny, "--grid", lambda t: grid(t, '{"sed": [1]}')),
     r"Unknown parameter 'sed' \(in .*grid\.json\) for tiny\.ipynb; its parameters are method, results_path, "
     r"scale, seed"),
    ("grid-wrong-type", sweep_cli(tiny, "--grid", lambda t: grid(t, '{"seed": [0, "one"]}')),
     r"Parameter 'seed' \(in .*grid\.json\) of tiny\.ipynb takes int values \(default 0\); got 'one' \(str\)"),
    ("grid-sweeps-results-path", sweep_cli(tiny, "-p", "results_path", "x.json"),
     r"results_path \(in -p results_path\) is set by the sweep for every run; do not sweep it"),
    ("value-unparsable", sweep_cli(tiny, "-p", "seed", "[0,"),
     r"takes int values \(default 0\); got '\[0,' \(str\) \(it could not be read as a Python literal: quote "
     r"strings, write lists as \[1, 2\]\)"),
    ("range-empty", sweep_cli(tiny, "-p", "seed", "3:3"), r"Range '3:3' is empty \(start:stop is half-open"),
    ("parameter-given-twice", sweep_cli(tiny, "-p", "seed", "0", "-p", "seed", "1"),
     r"'seed' is given by -p twice; give all its values after one -p \(e\.g\. -p seed 0 1 5\)"),
    ("parameter-in-grid-and-p", sweep_cli(tiny, "--grid", lambda t: grid(t, '{"seed": [0]}'), "-p", "seed", "1"),
     r"'seed' is in .*grid\.json and given by -p; set it in one place only"),
    ("nothing-to-sweep", sweep_cli(tiny), r"Nothing to sweep: give -p NAME VALUES\.\.\. or --grid FILE"),
    ("notebook-missing", sweep_cli(lambda t: str(t / "nope.ipynb"), "-p", "seed", "0"),
     r"Notebook .*nope\.ipynb does not exist; give the path of an \.ipynb file, e\.g\. notebooks/04_"),
    ("notebook-not-a-notebook", sweep_cli(lambda t: grid(t, "{not json", "broken.ipynb"), "-p", "seed", "0"),
     r"broken\.ipynb is not a readable Jupyter notebook \(.*\); give the path of an \.ipynb file"),
    ("notebook-is-a-folder", sweep_cli(lambda t: str(t), "-p", "seed", "0"),
     r"is not a notebook \(\.ipynb file\); give the path of one"),
    ("notebook-without-parameters-cell",
     sweep_cli(lambda t: str(write_notebook(t / "plain.ipynb", parameters=None)), "-p", "seed", "0"),
     r"plain\.ipynb has no cell tagged 'parameters', so papermill cannot inject values; tag the cell"),
    ("notebook-without-results-path",
     sweep_cli(lambda t: str(write_notebook(t / "nores.ipynb", parameters="seed = 0")), "-p", "seed", "0"),
     r"nores\.ipynb declares no results_path parameter, so its runs would record no results; add "
     r"`results_path: str = None`"),
    ("out-is-a-file", sweep_to(lambda t: t / "out", out_file, "-p", "seed", "0"),
     r"Output folder .*out is a file, not a folder\. Choose another --out"),
    ("out-under-a-file", sweep_to(lambda t: t / "out" / "sub", out_file, "-p", "seed", "0"),
     r"Output folder .*out/sub cannot be made: .*out is a file, not a folder\. Choose another --out"),
    ("out-unwritable", sweep_to(lambda t: unwritable_dir(t) / "o", tiny, "-p", "seed", "0"),
     r"Output folder .*o (is not writable|cannot be made)"),
    ("jobs-zero", sweep_cli(tiny, "-p", "seed", "0", "--jobs", "0"),
     r"--jobs must be a whole number >= 1 \(runs at a time\), not 0"),
    ("jobs-negative", sweep_cli(tiny, "-p", "seed", "0", "--jobs", "-3"),
     r"--jobs must be a whole number >= 1 \(runs at a time\), not -3"),
    ("timeout-negative", sweep_cli(tiny, "-p", "seed", "0", "--timeout", "-5"),
     r"--timeout must be a whole number of seconds >= 1 per cell \(or left out: no limit\), not -5\.0; "
     r"e\.g\. --timeout 600"),
    ("timeout-nan", sweep_cli(tiny, "-p", "seed", "0", "--timeout", "nan"),
     r"--timeout must be a whole number of seconds"),
    ("dask-refuses-connection", sweep_cli(tiny, "-p", "seed", "0", "--dask", lambda t: f"tcp://127.0.0.1:{closed_port()}"),
     r"No Dask scheduler answers at tcp://127\.0\.0\.1:\d+ \(.*refused.*\); start one \(dask scheduler\), check "
     r"the address, or use --dask local"),
    ("dask-address-malformed", sweep_cli(tiny, "-p", "seed", "0", "--dask", "scheduler"),
     r"--dask 'scheduler' is not a scheduler address; give 'local' or tcp://HOST:PORT"),
    # the sweep's bookkeeping: names of the table's own columns, grids too large to expand, whole seconds
    ("param-named-status", sweep_cli(reserved, "-p", "status", "a", "b"),
     r"Parameter 'status' \(in -p status\) of reserved\.ipynb cannot be swept: the results table has a column "
     r"'status' of its own \(run_id, status, notebook, code_sha, key, value, error\).*Rename it in the notebook's "
     r"parameters cell \(e\.g\. status_\)"),
    ("param-named-key", sweep_cli(reserved, "-p", "key", "a"), r"Parameter 'key' .* cannot be swept: .* column 'key'"),
    ("param-named-run-id", sweep_cli(reserved, "-p", "seed", "0", "-p", "run_id", "a"),
     r"Parameter 'run_id' .* cannot be swept: .* column 'run_id'.*Rename it"),
    ("param-named-value", sweep_cli(reserved, "--grid", lambda t: grid(t, '{"value": [1, 2]}')),
     r"Parameter 'value' \(in .*grid\.json\) of reserved\.ipynb cannot be swept"),
    ("grid-absurd-range", sweep_cli(tiny, "-p", "seed", "0:10000000"),
     r"Range '0:10000000' gives 10,000,000 runs, more than the limit of 10,000 \(--max-runs\); check the ranges "
     r"\(start:stop is half-open: 0:10 gives 10 values\), or raise --max-runs if you mean it"),
    ("grid-product-too-large", sweep_cli(tiny, "-p", "seed", "0:5000", "-p", "scale", "1.0", "2.0", "3.0"),
     r"The grid \(5,000 seed x 3 scale\) gives 15,000 runs, more than the limit of 10,000 \(--max-runs\)"),
    ("grid-file-too-many-runs", sweep_cli(tiny, "--grid", big_grid_file),
     r"The grid \(20,000 seed\) gives 20,000 runs, more than the limit of 10,000"),
    ("max-runs-lowered", sweep_cli(tiny, "-p", "seed", "0:5", "--max-runs", "3"),
     r"Range '0:5' gives 5 runs, more than the limit of 3 \(--max-runs\)"),
    ("max-runs-zero", sweep_cli(tiny, "-p", "seed", "0", "--max-runs", "0"),
     r"--max-runs must be a whole number >= 1, not 0"),
    ("timeout-fractional", sweep_cli(tiny, "-p", "seed", "0", "--timeout", "2.5"),
     r"--timeout must be a whole number of seconds >= 1 per cell \(or left out: no limit\), not 2\.5; e\.g\. "
     r"--timeout 600"),
    ("timeout-below-one-second", sweep_cli(tiny, "-p", "seed", "0", "--timeout", "0.5"),
     r"--timeout must be a whole number of seconds >= 1 per cell"),
    ("param-without-values", sweep_cli(tiny, "-p", "seed"),
     r"Parameter 'seed' has no values; give at least one after its name"),
    ("param-bool-for-int", sweep_cli(tiny, "-p", "seed", "0", "True"),
     r"Parameter 'seed' \(in -p seed\) of tiny\.ipynb takes int values \(default 0\); got True \(bool\)"),
    ("param-name-wrong-case", sweep_cli(tiny, "-p", "Seed", "0"),
     r"Unknown parameter 'Seed' \(in -p Seed\) for tiny\.ipynb; its parameters are method, results_path, scale, seed"),
    ("param-exponent-for-int", sweep_cli(tiny, "-p", "seed", "1e3"),
     r"Parameter 'seed' .* takes int values \(default 0\); got 1000\.0 \(float\)"),
    ("range-with-exponent", sweep_cli(tiny, "-p", "seed", "0:1e6"),
     r"takes int values \(default 0\); got '0:1e6' \(str\) \(it could not be read as a Python literal"),
    ("grid-json-name-twice", sweep_cli(tiny, "--grid", lambda t: grid(t, '{"seed": [0, 1], "seed": [2]}')),
     r"Grid file .*grid\.json gives 'seed' twice; the values of one would be dropped\. Give all its values in one "
     r"list, e\.g\. \{\"seed\": \[0, 1, 5\]\}"),
    ("grid-yaml-name-twice", sweep_cli(tiny, "--grid", lambda t: grid(t, "seed: [0, 1]\nseed: [2]\n", "g.yaml")),
     r"Grid file .*g\.yaml gives 'seed' twice \(line 2\); the values of one would be dropped"),
    ("dask-port-out-of-range", sweep_cli(tiny, "-p", "seed", "0", "--dask", "tcp://127.0.0.1:99999"),
     r"--dask 'tcp://127\.0\.0\.1:99999' is not a scheduler address; give 'local' or tcp://HOST:PORT"),
    ("notebook-path-with-spaces-missing",
     sweep_cli(lambda t: str(t / "my notebooks é" / "tiny ü.ipynb"), "-p", "seed", "0"),
     r"Notebook .*my notebooks é/tiny ü\.ipynb does not exist"),
    # the workbook's notebooks: values their parameters cannot take are refused before any run
    ("nb-covariance-unknown", sweep_cli(nb03, "-p", "covariance", "bogus"),
     r"Parameter 'covariance' \(in -p covariance\) of 04_wisconsin_cosine_knn\.ipynb takes one of 'sample', "
     r"'population', 'ledoit_wolf', 'oas' or a number in \[0, 1\] \(default 'sample'\); got 'bogus'"),
    ("nb-neighbours-zero", sweep_cli(nb03, "-p", "k", "0", "5"),
     r"Parameter 'k' .* takes an integer >= 1 \(default 13\); got 0 \(int\)"),
    ("nb-neighbours-negative", sweep_cli(nb03, "-p", "k", "-1"), r"Parameter 'k' .* takes an integer >= 1"),
    ("nb-seed-string", sweep_cli(nb03, "-p", "random_state", "x"),
     r"Parameter 'random_state' .* takes an integer in \[0, 4\.29497e\+09\] \(default 42\); got 'x' \(str\) "
     r"\(it could not be read"),
    ("nb-test-size-one", sweep_cli(nb03, "-p", "test_size", "1.0"), r"'test_size' .* takes a number in \(0, 1\)"),
    ("nb-k-range-inverted", sweep_cli(nb05, "-p", "k_min", "20", "-p", "k_max", "3"),
     r"The grid has a run with k_min = 20, k_max = 3, which breaks 06_reuters_mahalanobis_knn\.ipynb's condition "
     r"k_min <= k_max"),
    # python -m helpers.workbook run / refresh (helpers.workbook.run)
    ("runner-only-unknown", runner_cli("run", "--only", "99", "--out", lambda t: str(t / "out")),
     r"no notebook in .*notebooks matches '99'; --only takes file names, stems or numbers: 00_similarity_primer"),
    ("runner-only-one-unknown", runner_cli("run", "--only", "04", "nope", "--out", lambda t: str(t / "out")),
     r"matches 'nope';"),
    ("runner-jobs-zero", runner_cli("run", "--jobs", "0", "--out", lambda t: str(t / "out")),
     r"--jobs must be at least 1 \(notebooks at a time\), not 0"),
    ("runner-out-is-a-file", runner_cli("run", "--only", "03", "--out", lambda t: out_file(t) and str(t / "out")),
     r"cannot write into --out .*out: .*out is a file, not a folder; choose another --out"),
    ("runner-notebooks-dir-missing",
     runner_cli("run", "--notebooks-dir", lambda t: str(t / "nowhere"), "--out", lambda t: str(t / "out")),
     r"notebook folder .*nowhere does not exist; give --notebooks-dir a folder"),
    ("runner-refresh-unknown", runner_cli("refresh", "nope"),
     r"no such notebook: nope; give a path, or a name or stem in .*notebooks \(there: 00_similarity_primer"),
]


@pytest.mark.parametrize("case", CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_command_line_mistake_is_refused_before_any_work(case, tmp_path, capsys):
    _, make, words = case
    main, argv = make(tmp_path)
    was_file = (tmp_path / "out").is_file()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no stray warning instead of the message
        code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert re.search(words, err, flags=re.S), err
    assert "Traceback" not in err
    assert (tmp_path / "out").is_file() if was_file else not (tmp_path / "out").exists()


def _save(path_of, results):
    return lambda t: save_results(results, path_of(t))


def _check(values, spec):
    return lambda t: check_parameters(values, spec)


DEFAULTS_06 = {"categories": 10, "variance_retained": 0.9, "k_min": 3, "k_max": 20, "covariance": "ledoit_wolf",
               "tfidf": "paper", "sweep_components": [10], "train_fractions": [1.0], "reading_components": [25],
               "keyword_counts": [250],
               "n_resamples": 999, "random_state": 0, "verbose": True, "results_path": None}


def _missing_src(t):
    return execute_notebook(t / "nope.ipynb", t / "out.ipynb")


# (id, call, error type, words in the message). Each also leaves no file in the case's folder.
ERROR_CASES = [
    ("save-results-parent-is-a-file",
     lambda t: (t / "f").write_text("x") and save_results({"a": 1}, t / "f" / "r.json"),
     (NotADirectoryError, FileExistsError),
     r"Cannot write the results JSON .*f/r\.json: .*Give results_path a file in a folder you can write to"),
    ("save-results-unwritable", lambda t: save_results({"a": 1}, unwritable_dir(t) / "r.json"), OSError,
     r"Cannot write the results JSON .*r\.json: .*Give results_path a file in a folder you can write to"),
    ("save-results-path-is-a-folder", lambda t: save_results({"a": 1}, t), IsADirectoryError,
     r"results_path .* is a folder; give a file path such as .*results\.json"),
    ("save-results-path-not-a-path", _save(lambda t: 5, {"a": 1}), TypeError,
     r"results_path must be a file path \(str\) or None, not 5"),
    ("save-results-results-not-a-dict", _save(lambda t: t / "r.json", [1, 2]), TypeError,
     r"results must be a dict of headline numbers, not a list"),
    ("save-results-object-value", _save(lambda t: t / "r.json", {"fit": {"model": object()}}), TypeError,
     r"Cannot store a object in the results JSON: results\['fit'\]\['model'\] = <object.*Store numbers, strings"),
    ("save-results-complex-value", _save(lambda t: t / "r.json", {"z": np.complex128(1 + 2j)}), TypeError,
     r"Cannot store a complex128 in the results JSON: results\['z'\]"),
    ("save-results-colliding-keys", _save(lambda t: t / "r.json", {1: 0.5, "1": 0.7}), ValueError,
     r"results has two keys that are both '1' in JSON \(e\.g\. 1 and '1'\); .*Rename one of them"),
    ("params-covariance-unknown", _check({"covariance": "bogus"}, {"covariance": COVARIANCE}), ValueError,
     r"Parameter covariance = 'bogus' is not allowed: covariance takes one of 'sample', 'population', "
     r"'ledoit_wolf', 'oas' or a number in \[0, 1\]"),
    ("params-shrinkage-above-one", _check({"covariance": 1.5}, {"covariance": COVARIANCE}),
     ValueError, r"Parameter covariance = 1\.5 \(float\) is not allowed"),
    ("params-neighbours-zero", _check({"k": 0}, {"k": Integer(1)}), ValueError,
     r"Parameter k = 0 \(int\) is not allowed: k takes an integer >= 1\. Set it in the parameters cell "
     r"\(papermill: -p k VALUE\)"),
    ("params-seed-string", _check({"random_state": "x"}, {"random_state": MANIFEST["04"].parameters["random_state"]}),
     TypeError, r"Parameter random_state = 'x' is not allowed: random_state takes an integer in \[0, "),
    ("params-bool-is-not-an-int", _check({"k": True}, {"k": Integer(1)}), TypeError, r"k = True \(bool\)"),
    ("params-nan-fraction", _check({"test_size": float("nan")}, {"test_size": Real(0, 1, closed="neither")}),
     ValueError, r"test_size = nan \(float\) is not allowed: test_size takes a number in \(0, 1\)"),
    ("params-point-wrong-length", _check({"p": [1.0]}, {"p": ListOf(Real(), length=2)}), ValueError,
     r"p takes a list of 2 numbers"),
    ("params-choice-wrong-case", _check({"tfidf": "Paper"}, {"tfidf": OneOf(["paper", "sklearn"])}), ValueError,
     r"tfidf = 'Paper' is not allowed: tfidf takes one of 'paper', 'sklearn'"),
    ("params-k-range-inverted", lambda t: check_parameters({**DEFAULTS_06, "k_min": 9, "k_max": 3}, "06"),
     ValueError, r"Parameters k_min = 9, k_max = 3 break the condition k_min <= k_max"),
    ("params-name-missing", _check({}, {"k": Integer(1)}), ValueError,
     r"the parameters cell defines no k; every checked parameter needs a default there"),
    ("params-unknown-notebook", _check({}, "99"), ValueError, r"No parameter checks for notebook '99'; known: 00"),
    ("execute-missing-notebook", _missing_src, FileNotFoundError,
     r"Notebook .*nope\.ipynb does not exist; give the path of an \.ipynb file"),
    ("execute-negative-timeout", lambda t: execute_notebook(tiny(t), t / "o.ipynb", timeout=-1), ValueError,
     r"timeout must be a whole number of seconds > 0 per cell .*got -1"),
    ("execute-fractional-timeout", lambda t: execute_notebook(tiny(t), t / "o.ipynb", timeout=2.5), ValueError,
     r"whole number of seconds > 0 per cell \(papermill's limit refuses fractions\).*got 2\.5"),
    ("execute-parameters-not-a-dict", lambda t: execute_notebook(tiny(t), t / "o.ipynb", [("seed", 1)]), TypeError,
     r"parameters must be a dict \{name: value\}, not list"),
    ("sweep-load-no-sweep", lambda t: sweep.load(t / "nowhere"), FileNotFoundError,
     r"nowhere holds no sweep \(.*runs does not exist\); give the --out folder of a sweep"),
    ("grid-not-a-dict", lambda t: sweep.expand_grid([("seed", [1])]), TypeError,
     r"grid must be a dict \{name: \[values\]\}, not a list"),
    ("grid-value-scalar", lambda t: sweep.expand_grid({"seed": 3}), TypeError,
     r"Parameter 'seed' needs a list of values, e\.g\. \[3\]; got 3"),
    ("api-grid-too-many-runs",
     lambda t: sweep.run_sweep(tiny(t), {"seed": list(range(200)), "scale": [1.0] * 100}, t / "out", progress=False),
     ValueError, r"The grid \(200 seed x 100 scale\) gives 20,000 runs, more than the limit of 10,000"),
    ("api-timeout-fractional", lambda t: sweep.run_sweep(tiny(t), {"seed": [0]}, t / "out", timeout=0.5),
     ValueError, r"--timeout must be a whole number of seconds >= 1 per cell"),
    ("api-param-named-status", lambda t: sweep.validate_grid(reserved(t), {"status": ["a"]}), ValueError,
     r"Parameter 'status' of reserved\.ipynb cannot be swept"),
]


@pytest.mark.parametrize("case", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_bad_input_raises_a_clear_error(case, tmp_path):
    _, call, error, words = case
    before = set(tmp_path.rglob("*"))
    with pytest.raises(error, match=words):
        call(tmp_path)
    left = {p for p in set(tmp_path.rglob("*")) - before if p.name not in ("tiny.ipynb", "reserved.ipynb", "f")}
    assert not left, f"left behind: {left}"


def _saved(results):
    def call(t):
        return json.loads(save_results(results, t / "new" / "folder" / "r.json").read_text())
    return call


# (id, call, the right answer). Awkward but valid input gets the right answer, not an error.
ANSWER_CASES = [
    ("save-results-missing-folder-is-made", _saved({"acc": 0.5}), {"acc": 0.5}),
    ("save-results-nan-inf-na-become-null",
     _saved({"nan": float("nan"), "inf": np.inf, "na": pd.NA, "nat": pd.NaT, "ninf": np.float32(-np.inf)}),
     {"nan": None, "inf": None, "na": None, "nat": None, "ninf": None}),
    ("save-results-numpy-types",
     _saved({"f32": np.float32(0.25), "i8": np.int8(-3), "u64": np.uint64(2**63), "b": np.bool_(True),
             "s": np.str_("zca"), "a": np.arange(3), "0d": np.array(1.5)}),
     {"f32": 0.25, "i8": -3, "u64": 2**63, "b": True, "s": "zca", "a": [0, 1, 2], "0d": 1.5}),
    ("save-results-pandas-and-tuples",
     _saved({"s": pd.Series([1.0, np.nan], index=["x", "y"]), "t": (1, "a"), 2: "int key"}),
     {"s": {"x": 1.0, "y": None}, "t": [1, "a"], "2": "int key"}),
    ("to-jsonable-extreme-floats", lambda t: to_jsonable([np.float64(1e308), np.float64(5e-324), -0.0]),
     [1e308, 5e-324, -0.0]),
    ("params-int-for-float-accepted",
     lambda t: check_parameters({"svm_C": 1000}, {"svm_C": MANIFEST["02"].parameters["svm_C"]}), None),
    ("params-shrinkage-float-accepted",
     lambda t: check_parameters({"covariance": 0.1}, {"covariance": COVARIANCE}), None),
    ("params-n-jobs-all-cpus",
     lambda t: check_parameters({"n_jobs": -1}, {"n_jobs": MANIFEST["05"].parameters["n_jobs"]}), None),
    ("parse-values-ranges-and-literals", lambda t: sweep.parse_values(["5:2:-1", "[1, 2]", "cholesky", "1e-3"]),
     [5, 4, 3, [1, 2], "cholesky", 0.001]),
    ("grid-yaml-file", lambda t: sweep.read_grid_file(grid(t, "seed: [0, 1]\nmethod: [zca]\n", "g.yml")),
     {"seed": [0, 1], "method": ["zca"]}),
    ("float-with-exponent", lambda t: sweep.parse_values(["1e-3", "2E1", "-1.5e+2", "1_000"]),
     [0.001, 20.0, -150.0, 1000]),
    ("grid-at-the-run-limit", lambda t: sweep.grid_from_options(params=[["seed", "0:100"], ["k", "0:100"]])[0]["k"][-1],
     99),
    ("grid-run-count-without-expanding", lambda t: sweep.count_runs({"a": list(range(10**4)), "b": list(range(10**4))}),
     10**8),
    ("duplicate-values-planned-once",
     lambda t: sweep.plan(t, [{"seed": 0}, {"seed": 0}, {"seed": 1}], code="c0de"),
     ([{"seed": 0}, {"seed": 1}], [])),
    ("code-sha-ignores-outputs-and-markdown", lambda t: _code_sha_kept(t), True),
    ("grid-yaml-anchor-and-merge-key",
     lambda t: sweep.read_grid_file(grid(t, "seed: &s [0, 1]\nk: *s\npoints: [{<<: {x: 0, y: 1}, y: 2}]\n", "g.yaml")),
     {"seed": [0, 1], "k": [0, 1], "points": [{"x": 0, "y": 2}]}),
    ("timeout-whole-float-accepted",
     lambda t: sweep.check_sweep(tiny(t), {"seed": [0]}, t / "out", timeout=1e2)[1].name, "out"),
]


def _code_sha_kept(t):
    """Re-executing (outputs, counts) or re-documenting a notebook keeps its code_sha; editing code does not."""
    path = write_notebook(t / "tiny.ipynb")
    before = sweep.code_sha(path)
    nb = nbformat.read(path, as_version=4)
    nb.cells[0].source = "# reworded title"
    nb.cells[2].outputs = [nbformat.v4.new_output("stream", text="hello")]
    nb.cells[2].execution_count = 7
    nbformat.write(nb, path)
    kept = sweep.code_sha(path) == before
    nb.cells[2].source += "\n# a code comment"
    nbformat.write(nb, path)
    return kept and sweep.code_sha(path) != before


@pytest.mark.parametrize("case", ANSWER_CASES, ids=[c[0] for c in ANSWER_CASES])
def test_awkward_input_gets_the_right_answer(case, tmp_path):
    _, call, expected = case
    got = call(tmp_path)
    assert got == expected
    if isinstance(expected, dict) and "nan" not in expected:  # exact floats survive the round trip
        assert json.dumps(got, sort_keys=True) == json.dumps(expected, sort_keys=True)
    assert not [p for p in tmp_path.rglob("*.tmp")], "a temporary file was left behind"


def test_save_results_failure_keeps_the_previous_file(tmp_path):
    path = save_results({"acc": 0.9}, tmp_path / "r.json")
    with pytest.raises(TypeError, match=r"results\['model'\]"):
        save_results({"acc": 0.1, "model": object()}, path)
    assert json.loads(path.read_text()) == {"acc": 0.9} and [p.name for p in tmp_path.iterdir()] == ["r.json"]


# --------------------------------------------------------------------------------------
# Corrupt run files: reported, counted as failed, rerun by --retry-failed; never stop a sweep


def fake_sweep(tmp_path, seeds=(0, 1, 2)):
    """A sweep folder as finished runs leave it, without executing anything."""
    notebook = write_notebook(tmp_path / "tiny.ipynb")
    out = tmp_path / "out"
    (out / "runs").mkdir(parents=True)
    code = sweep.code_sha(notebook)
    for seed in seeds:
        params = {"seed": seed}
        rid = sweep.run_id(params, code)
        (out / "runs" / f"{rid}.json").write_text(json.dumps({"score": float(seed)}))
        (out / "runs" / f"{rid}.status.json").write_text(json.dumps(
            {"run_id": rid, "params": params, "notebook": notebook.name, "code_sha": code, "status": "ok",
             "error": None}))
    return notebook, out


CORRUPTIONS = [
    ("results-not-json", lambda runs, rid: (runs / f"{rid}.json").write_text('{"score": 1.0'), ".json"),
    ("results-empty", lambda runs, rid: (runs / f"{rid}.json").write_text(""), ".json"),
    ("results-not-utf8", lambda runs, rid: (runs / f"{rid}.json").write_bytes(b"\xff\xfe\x00"), ".json"),
    ("results-missing", lambda runs, rid: (runs / f"{rid}.json").unlink(), ".json"),
    ("results-a-list", lambda runs, rid: (runs / f"{rid}.json").write_text("[1, 2]"), ".json"),
    ("results-a-number", lambda runs, rid: (runs / f"{rid}.json").write_text("3.5"), ".json"),
    ("status-not-json", lambda runs, rid: (runs / f"{rid}.status.json").write_text("{ torn"), ".status.json"),
    ("status-not-a-record", lambda runs, rid: (runs / f"{rid}.status.json").write_text("[]"), ".status.json"),
]


@pytest.mark.parametrize("corrupt, suffix", [c[1:] for c in CORRUPTIONS], ids=[c[0] for c in CORRUPTIONS])
def test_a_corrupt_run_file_is_reported_counted_failed_and_retried(tmp_path, capsys, monkeypatch, corrupt, suffix):
    notebook, out = fake_sweep(tmp_path)
    code = sweep.code_sha(notebook)
    bad = sweep.run_id({"seed": 1}, code)
    corrupt(out / "runs", bad)
    bad_file = out / "runs" / f"{bad}{suffix}"

    with pytest.warns(sweep.CorruptRunFileWarning, match=rf"{bad_file}.*its run counts as failed\. Rerun the "
                                                           r"sweep with --retry-failed"):
        table = sweep.load(out)
    runs = table.drop_duplicates("run_id").set_index("run_id")
    assert runs.loc[bad, "status"] == "corrupt-file" and str(bad_file) in runs.loc[bad, "error"]
    assert sorted(table.loc[table["key"] == "score", "value"]) == [0.0, 2.0]     # the others are intact

    argv = [str(notebook), "-p", "seed", "0:3", "--out", str(out)]
    assert cli.main(["sweep", *argv]) == 1                  # the sweep runs to its summary, the run counts as failed
    captured = capsys.readouterr()
    assert f"warning: {bad_file}" in captured.err and "Traceback" not in captured.err
    assert "3 runs of this grid" in captured.out and "1 failed (1 with unreadable run files" in captured.out
    assert sweep.plan(out, [{"seed": s} for s in range(3)], code=code) == ([], [{"seed": 0}, {"seed": 1}, {"seed": 2}])
    assert sweep.plan(out, [{"seed": 1}], retry_failed=True, code=code)[0] == [{"seed": 1}]

    def run_again(notebook, out, params, timeout=None, code=""):  # what a successful run leaves behind
        rid = sweep.run_id(params, code)
        Path(out, "runs", f"{rid}.json").write_text(json.dumps({"score": float(params["seed"])}))
        record = {"run_id": rid, "params": params, "status": "ok", "error": None}
        Path(out, "runs", f"{rid}.status.json").write_text(json.dumps(record))
        return record

    monkeypatch.setattr(sweep.runner, "execute_run", run_again)
    assert cli.main(["sweep", *argv, "--retry-failed"]) == 0
    final = pd.read_csv(out / "results.csv")
    assert sorted(final["value"]) == [0.0, 1.0, 2.0] and (final["status"] == "ok").all()


def test_final_table_survives_a_second_ctrl_c_during_its_write(tmp_path, monkeypatch):
    notebook, out = fake_sweep(tmp_path)
    real = sweep.write_table

    def interrupted_write(path):  # the second Ctrl-C lands while the table is being written
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        return real(path)

    monkeypatch.setattr(sweep.runner, "write_table", interrupted_write)
    # Ctrl-C as in a terminal, even when this run was started with it ignored (a background job)
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):  # raised once the table is on disk, not in the middle of it
            sweep.run_sweep(notebook, {"seed": [0, 1, 2]}, out, progress=False)
    finally:
        signal.signal(signal.SIGINT, inherited)
    table = pd.read_csv(out / "results.csv")
    assert sorted(table["value"]) == [0.0, 1.0, 2.0]
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == [".sweep.lock"]  # no temporary file left


@pytest.mark.integration
def test_double_ctrl_c_leaves_a_table_of_every_finished_run(tmp_path):
    notebook = write_notebook(tmp_path / "slow.ipynb", parameters="seed = 0\nresults_path = None", body=SLOW_BODY)
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "helpers.workbook", "sweep", str(notebook), "-p", "seed", "0:8", "--jobs", "2",
           "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.time() + 180
    while time.time() < deadline and len(list((out / "runs").glob("*.status.json"))) < 2:
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)
    time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGINT)  # the impatient second Ctrl-C, while the sweep is stopping
    _, err = proc.communicate(timeout=120)
    assert proc.returncode in (130, -signal.SIGINT), err[-2000:]
    finished = {json.loads(p.read_text())["run_id"]: json.loads(p.read_text())["status"]
                for p in (out / "runs").glob("*.status.json")}
    table = pd.read_csv(out / "results.csv").drop_duplicates("run_id").set_index("run_id")["status"].to_dict()
    assert len(finished) >= 2 and table == finished            # every finished run, as recorded on disk
    assert not list(out.glob(".results.csv.*"))                 # no half-written table beside it
    deadline = time.time() + 30                                  # and no process of the sweep outlives it
    while time.time() < deadline:
        states = subprocess.run(["ps", "-o", "stat=", "-g", str(proc.pid)], capture_output=True, text=True).stdout
        if not [state for state in states.split() if not state.startswith("Z")]:
            break
        time.sleep(0.5)
    else:
        pytest.fail("processes of the sweep outlived it")


# --------------------------------------------------------------------------------------
# A workbook notebook executed with a bad parameter fails in its setup cell, naming it

CHECK_LINE = 'check_parameters(globals(), "{key}")'


def test_every_workbook_notebook_checks_its_parameters_in_its_setup_cell():
    """The setup cell checks the parameters: through notebook_setup, or check_parameters directly."""
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        cells = [c for c in nb.cells if c.cell_type == "code"]
        after = cells[[i for i, c in enumerate(cells) if "parameters" in c.metadata.get("tags", [])][0] + 1]
        key = path.name[:2]
        assert (CHECK_LINE.format(key=key) in after.source
                or f'notebook_setup(globals(), "{key}")' in after.source), path.name


@pytest.mark.integration
@pytest.mark.parametrize("parameters, error, words", [
    ({"covariance": "bogus"}, "ValueError",
     r"Parameter covariance = 'bogus' is not allowed: covariance takes one of 'sample', 'population'"),
    ({"k": 0}, "ValueError", r"Parameter k = 0 \(int\) is not allowed: k takes an integer >= 1"),
    ({"random_state": "x"}, "TypeError", r"Parameter random_state = 'x' is not allowed"),
], ids=["covariance-unknown", "neighbours-zero", "seed-string"])
def test_notebook_with_a_bad_parameter_fails_in_its_setup_cell(tmp_path, parameters, error, words):
    import papermill as pm

    src = NOTEBOOKS / "04_wisconsin_cosine_knn.ipynb"
    with pytest.raises(pm.PapermillExecutionError) as caught:
        execute_notebook(src, tmp_path / "out.ipynb", parameters, cwd=NOTEBOOKS)
    assert caught.value.ename == error and re.search(words, caught.value.evalue)
    assert caught.value.exec_count == 3  # the setup cell, right after the parameters and papermill's injected cell


def test_every_notebook_default_passes_its_checks():
    import papermill as pm

    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        declared = pm.inspect_notebook(str(path))
        spec = MANIFEST[path.name[:2]].parameters
        assert set(spec) == set(declared), f"{path.name}: checks for {sorted(spec)}, parameters {sorted(declared)}"
        check_parameters({name: sweep.parse_literal(p["default"]) for name, p in declared.items()}, path.name[:2])


# --------------------------------------------------------------------------------------
# The sweep's bookkeeping: what ran with which notebook, who writes the folder, Dask, signals


def fake_execute_run(calls):
    """A stand-in for execute_run that leaves what a successful run leaves, and records its call."""
    def run(notebook, out, params, timeout=None, code=""):
        rid = sweep.run_id(params, code)
        Path(out, "runs", f"{rid}.json").write_text(json.dumps({"score": float(params.get("seed", 0)) + 100}))
        record = {"run_id": rid, "params": params, "notebook": Path(notebook).name, "code_sha": code,
                  "status": "ok", "error": None}
        Path(out, "runs", f"{rid}.status.json").write_text(json.dumps(record))
        calls.append((Path(notebook).name, params))
        return record
    return run


def _edit_code(notebook):
    nb = nbformat.read(notebook, as_version=4)
    nb.cells[2].source = nb.cells[2].source.replace("seed * scale", "seed * scale + 100")
    nbformat.write(nb, notebook)
    return notebook


def _edit_markdown(notebook):
    nb = nbformat.read(notebook, as_version=4)
    nb.cells[0].source = "# the same code, reworded"
    nb.cells[2].outputs = [nbformat.v4.new_output("stream", text="executed in place")]
    nbformat.write(nb, notebook)
    return notebook


# (id, what is done to the finished sweep's notebook, the notebook then swept, runs made again, warning words)
NOTEBOOK_CHANGES = [
    ("edited-notebook-reruns", _edit_code, lambda t, nb: nb, 3,
     r"warning: 3 runs of this grid in .*out were made by other code \(3 by tiny\.ipynb\): tiny\.ipynb has been "
     r"edited, is another notebook, or the helpers package has changed\. They run again with the code as it is now; "
     r"the earlier results are kept, told apart in results\.csv by the notebook and code_sha columns"),
    ("other-notebook-same-out", lambda nb: nb,
     lambda t, nb: write_notebook(t / "other.ipynb", body="import json\njson.dump({'x': 1}, open(results_path, 'w'))"),
     3, r"warning: 3 runs .* \(3 by tiny\.ipynb\): other\.ipynb has been edited, is another notebook"),
    ("package-changed-reruns", "package", lambda t, nb: nb, 3,   # a helper edited since the sweep
     r"warning: 3 runs .* \(3 by tiny\.ipynb\): tiny\.ipynb has been edited, is another notebook, or the helpers "
     r"package has changed"),
    ("markdown-or-outputs-edit-keeps-runs", _edit_markdown, lambda t, nb: nb, 0, None),
]


@pytest.mark.parametrize("case", NOTEBOOK_CHANGES, ids=[c[0] for c in NOTEBOOK_CHANGES])
def test_a_changed_notebook_runs_again_and_says_why(case, tmp_path, monkeypatch, capsys):
    _, change, swept, n_again, words = case
    notebook, out = fake_sweep(tmp_path)
    old_code = sweep.code_sha(notebook)
    if change == "package":
        monkeypatch.setattr(sweep.store, "package_sha", lambda: "0123456789ab")
    else:
        notebook = swept(tmp_path, change(notebook))
    calls = []
    monkeypatch.setattr(sweep.runner, "execute_run", fake_execute_run(calls))
    assert cli.main(["sweep", str(notebook), "-p", "seed", "0:3", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert len(calls) == n_again and captured.out.startswith(f"3 runs of this grid in {out}: 3 ok, 0 failed")
    table = pd.read_csv(out / "results.csv")
    if words is None:
        assert "warning" not in captured.err and set(table["code_sha"]) == {old_code}
        return
    assert re.search(words, captured.err), captured.err
    new = table[table["code_sha"] == sweep.code_sha(notebook)]             # this notebook's runs, its own results
    assert sorted(new["seed"]) == [0, 1, 2] and set(new["notebook"]) == {notebook.name}
    assert sorted(table.loc[table["code_sha"] == old_code, "value"].astype(float)) == [0.0, 1.0, 2.0]  # kept


def test_a_parameter_set_given_twice_runs_once(tmp_path, monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(sweep.runner, "execute_run", fake_execute_run(calls))
    argv = ["sweep", tiny(tmp_path), "-p", "seed", "0", "0", "1", "0:2", "--out", str(tmp_path / "out")]
    assert cli.main(argv) == 0
    assert sorted(p["seed"] for _, p in calls) == [0, 1]
    assert capsys.readouterr().out.startswith("2 runs of this grid")


class InlinePool:
    """A ProcessPoolExecutor stand-in that runs each call at once, remembering how many workers it was asked for."""
    asked: list = []

    def __init__(self, max_workers, initializer=None):
        InlinePool.asked.append(max_workers)
        self._processes = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def submit(self, fn, *args):
        from concurrent.futures import Future
        future = Future()
        future.set_result(fn(*args))
        return future


def test_huge_jobs_starts_no_more_workers_than_runs(tmp_path, monkeypatch, capsys):
    calls = []
    InlinePool.asked = []
    monkeypatch.setattr(sweep.runner, "execute_run", fake_execute_run(calls))
    monkeypatch.setattr(_tasks, "ProcessPoolExecutor", InlinePool)
    argv = ["sweep", tiny(tmp_path), "-p", "seed", "0:3", "--jobs", "100000", "--out", str(tmp_path / "out")]
    assert cli.main(argv) == 0
    assert InlinePool.asked == [3] and len(calls) == 3


def test_a_folder_another_live_sweep_writes_is_refused(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    out.mkdir()
    held = sweep.store.lock_out_folder(out)  # a live sweep holds the folder (here: this process, another descriptor)
    calls = []
    monkeypatch.setattr(sweep.runner, "execute_run", fake_execute_run(calls))
    try:
        code = cli.main(["sweep", tiny(tmp_path), "-p", "seed", "0", "--out", str(out)])
    finally:
        os.close(held)
    err = capsys.readouterr().err
    assert code == 2 and not calls
    assert re.search(rf"error: Another sweep \(pid {os.getpid()}, since \d\d:\d\d:\d\d\) is writing into .*out; "
                     r"wait for it to finish, or give this one another --out", err), err
    with pytest.raises(sweep.SweepBusyError, match=r"Another sweep \(pid \d+"):  # the same when it takes the lock
        held = sweep.store.lock_out_folder(out)
        try:
            sweep.run_checked(Path(tiny(tmp_path)), {"seed": [0]}, out, progress=False)
        finally:
            os.close(held)


def test_a_stale_lock_of_a_killed_sweep_does_not_block(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / ".sweep.lock").write_text(json.dumps({"pid": 2**22 + 1, "started": "00:00:00"}))  # nobody holds it
    calls = []
    monkeypatch.setattr(sweep.runner, "execute_run", fake_execute_run(calls))
    assert cli.main(["sweep", tiny(tmp_path), "-p", "seed", "0:2", "--out", str(out)]) == 0
    assert len(calls) == 2
    assert json.loads((out / ".sweep.lock").read_text())["pid"] == os.getpid()


def _http_server():
    import http.server
    import threading

    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1], server.shutdown


def _silent_listener():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()  # accepts connections (the kernel does), never says a word
    return listener, listener.getsockname()[1], listener.close


@pytest.mark.parametrize("start", [_http_server, _silent_listener], ids=["dask-http-server", "dask-silent-listener"])
def test_dask_address_that_is_not_a_scheduler_is_refused_quickly(start, tmp_path, monkeypatch, capsys):
    pytest.importorskip("distributed")
    monkeypatch.setattr(sweep.runner, "DASK_CONNECT_TIMEOUT", 0.5)
    _, port, stop = start()
    began = time.monotonic()
    try:
        code = cli.main(["sweep", tiny(tmp_path), "-p", "seed", "0", "--dask", f"tcp://127.0.0.1:{port}",
                         "--out", str(tmp_path / "out")])
    finally:
        stop()
    err = capsys.readouterr().err
    assert code == 2 and time.monotonic() - began < 5
    assert re.search(rf"Something listens at tcp://127\.0\.0\.1:{port} but it is not a Dask scheduler \(no answer to "
                     r"Dask's handshake in 0\.5 s\): a web server, or the dashboard's port \(8787\)\? Give the "
                     r"scheduler's address \(dask scheduler prints it: tcp://HOST:8786\), or use --dask local",
                     err), err
    assert not (tmp_path / "out").exists()


def _sweep_process(notebook, out, *words):
    cmd = [sys.executable, "-m", "helpers.workbook", "sweep", str(notebook), *words, "--out", str(out)]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, "TQDM_DISABLE": "1"})


def _wait_for_runs(out, n, within=180):
    deadline = time.time() + within
    while time.time() < deadline and len(list((out / "runs").glob("*.status.json"))) < n:
        time.sleep(0.1)


@pytest.mark.integration
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm-sweep-alone", "sigkill-sweep-alone"])
def test_a_sweep_stopped_alone_takes_its_workers_with_it(tmp_path, sig):
    """A signal to the sweep's process only (kill PID, a job scheduler), not to its process group."""
    notebook = write_notebook(tmp_path / "slow.ipynb", parameters="seed = 0\nresults_path = None", body=SLOW_BODY)
    out = tmp_path / "out"
    proc = _sweep_process(notebook, out, "-p", "seed", "0:4", "--jobs", "2")
    _wait_for_runs(out, 1)
    os.kill(proc.pid, sig)
    _, err = proc.communicate(timeout=120)
    assert processes_gone(proc.pid, within=30), "pool workers or kernels outlived the sweep"
    if sig == signal.SIGTERM:
        assert proc.returncode == 143 and "stopped by SIGTERM; finished runs are kept" in err, err[-2000:]
        # No traceback of the sweep's own code. A kernel stopped mid-message may log tornado's
        # "Uncaught exception in ZMQStream callback" with its traceback (seen once in about 30
        # runs): the third-party noise of a kernel's shutdown, allowed, and only that.
        assert "/helpers/" not in err, err[-2000:]
        assert err.count("Traceback") == err.count("Uncaught exception in ZMQStream callback"), err[-2000:]
        finished = {p.name.split(".")[0] for p in (out / "runs").glob("*.status.json")}
        assert set(pd.read_csv(out / "results.csv")["run_id"]) == finished
    sweep.store.check_unlocked(out)  # the lock was released: a rerun may resume (test_sweep.py resumes one)
    kept = [json.loads(p.read_text()) for p in (out / "runs").glob("*.status.json")]
    assert kept and all(r["status"] == "ok" for r in kept)  # a stopped run left no record


LOGGED_BODY = ("import json, os, time\nopen(os.environ['SWEEP_LOG'], 'a').write(f'{seed}\\n')\ntime.sleep(2)\n"
               "json.dump({'score': seed}, open(results_path, 'w'))")


@pytest.mark.integration
def test_a_second_sweep_into_a_busy_folder_is_refused_and_no_run_is_made_twice(tmp_path, monkeypatch):
    log = tmp_path / "executions.log"
    monkeypatch.setenv("SWEEP_LOG", str(log))
    notebook = write_notebook(tmp_path / "logged.ipynb", parameters="seed = 0\nresults_path = None", body=LOGGED_BODY)
    out = tmp_path / "out"
    first = _sweep_process(notebook, out, "-p", "seed", "0:3")
    _wait_for_runs(out, 1)
    second = _sweep_process(notebook, out, "-p", "seed", "0:3")
    _, err = second.communicate(timeout=120)
    assert second.returncode == 2, err[-2000:]
    assert re.search(rf"error: Another sweep \(pid {first.pid}, since [\d:]+\) is writing into .*out; wait for it to "
                     r"finish, or give this one another --out", err), err
    assert first.wait(timeout=300) == 0
    assert sorted(log.read_text().split()) == [str(seed) for seed in range(3)]   # each run executed once


@pytest.mark.integration
@pytest.mark.parametrize("saved, kind", [("[1, 2]", "list"), ("3.5", "number")],
                         ids=["results-json-list", "results-json-number"])
def test_a_run_whose_results_are_not_an_object_fails(tmp_path, saved, kind):
    body = f"import json\njson.dump({saved}, open(results_path, 'w'))"
    notebook = write_notebook(tmp_path / "odd.ipynb", parameters="seed = 0\nresults_path = None", body=body)
    (tmp_path / "out" / "runs").mkdir(parents=True)
    record = sweep.execute_run(str(notebook), str(tmp_path / "out"), {"seed": 0})
    assert record["status"] == "invalid-results"
    assert re.search(rf"\.json holds a JSON {kind}, not an object \{{key: value\}}; have the notebook save a dict "
                     r"\(save_results\(results, results_path\)\)", record["error"]), record["error"]


@pytest.mark.integration
def test_unicode_and_space_paths_for_the_notebook_and_out(tmp_path, capsys):
    folder = tmp_path / "my notebooks é"
    folder.mkdir()
    notebook = write_notebook(folder / "tiny ü.ipynb")
    out = tmp_path / "résultats été" / "out 1"
    assert cli.main(["sweep", str(notebook), "-p", "seed", "0:2", "--jobs", "2", "--out", str(out)]) == 0
    table = pd.read_csv(out / "results.csv")
    assert sorted(table.loc[table["key"] == "score", "value"].astype(float)) == [0.0, 1.0]
    assert set(table["notebook"]) == {"tiny ü.ipynb"}


@pytest.mark.integration
def test_dask_scheduler_without_workers_warns_and_a_worker_address_is_refused(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as empty:
        with pytest.warns(UserWarning, match=rf"The Dask scheduler at {empty.scheduler_address} has no workers yet; "
                                             rf"the runs wait until one joins \(start one with: dask worker "
                                             rf"{empty.scheduler_address}\)"):
            sweep.check_sweep(tiny(tmp_path), {"seed": [0]}, tmp_path / "out", dask=empty.scheduler_address)
    with distributed.LocalCluster(n_workers=1, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        worker = next(iter(cluster.scheduler.workers))
        with pytest.raises(ConnectionError, match=rf"{worker} is a Dask Worker, not a scheduler; give the "
                                                  r"scheduler's address \(dask scheduler prints it"):
            sweep.check_sweep(tiny(tmp_path), {"seed": [0]}, tmp_path / "out", dask=worker)
    assert not (tmp_path / "out").exists()


def test_a_folder_that_cannot_be_locked_is_swept_with_a_warning(tmp_path, monkeypatch, capsys):
    def no_locks(fd, operation):  # what a file system without flock (some network or FUSE mounts) answers
        raise OSError(errno.ENOLCK, "No locks available")

    calls = []
    monkeypatch.setattr(sweep.store.fcntl, "flock", no_locks)
    monkeypatch.setattr(sweep.runner, "execute_run", fake_execute_run(calls))
    assert cli.main(["sweep", tiny(tmp_path), "-p", "seed", "0:2", "--out", str(tmp_path / "out")]) == 0
    assert len(calls) == 2
    assert re.search(r"warning: .*out cannot be locked \(No locks available\); make sure no other sweep writes into "
                     r"it while this one runs", capsys.readouterr().err)


@pytest.mark.parametrize("change", [_edit_code, lambda nb: nb.unlink() or nb],
                         ids=["notebook-edited-mid-sweep", "notebook-deleted-mid-sweep"])
def test_a_run_after_the_notebook_changed_mid_sweep_is_not_made(tmp_path, change):
    notebook = write_notebook(tmp_path / "tiny.ipynb")
    code = sweep.code_sha(notebook)
    (tmp_path / "out" / "runs").mkdir(parents=True)
    change(notebook)
    record = sweep.execute_run(str(notebook), str(tmp_path / "out"), {"seed": 0}, code=code)
    assert record["status"] == "notebook-changed" and record["code_sha"] == code
    assert re.search(rf"tiny\.ipynb or the helpers package changed during the sweep \(their code is now \w+, the "
                     rf"sweep started with {code}\); this run was not made\. Rerun the sweep: it runs the code as it "
                     r"is now", record["error"])
    assert not (tmp_path / "out" / "runs" / f"{record['run_id']}.ipynb").exists()


def test_run_files_deleted_mid_sweep_are_reported_with_the_way_out(tmp_path, monkeypatch, capsys):
    calls = []
    ok_run = fake_execute_run(calls)

    def deleting_run(notebook, out, params, timeout=None, code=""):
        if calls:  # someone removes runs/ while the second run is under way
            import shutil
            shutil.rmtree(Path(out, "runs"))
            return sweep.store.write_text(Path(out, "runs", "x.status.json"), "{}")
        return ok_run(notebook, out, params, timeout, code)

    monkeypatch.setattr(sweep.runner, "execute_run", deleting_run)
    out = tmp_path / "out"
    assert cli.main(["sweep", tiny(tmp_path), "-p", "seed", "0:3", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert re.search(r"error: could not write the sweep's files in .*out: .*No such file or directory.*free space or "
                     r"fix the folder, then rerun the same command \(finished runs are skipped\)", err), err
    assert "Traceback" not in err and (out / "results.csv").exists()


def test_unicode_and_spaced_string_values_keep_their_runs_apart(tmp_path, monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(sweep.runner, "execute_run", fake_execute_run(calls))
    out = tmp_path / "out"
    argv = ["sweep", tiny(tmp_path), "-p", "method", "zça", "日本 語", "a b", "--out", str(out)]
    assert cli.main(argv) == 0 and len(calls) == 3
    assert set(pd.read_csv(out / "results.csv")["method"]) == {"zça", "日本 語", "a b"}
    assert cli.main(argv) == 0 and len(calls) == 3                     # the same command again: nothing rerun
