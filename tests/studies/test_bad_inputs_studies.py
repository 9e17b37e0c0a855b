"""Bad input and faults against the own study's computation, its driver and notebook 08's parameters.

A catalogue, one row per case (id, what is called, the expected error type or the right answer,
the words that must name the problem and the fix):

- ``ERROR_CASES``: a call that must raise the given type with the words in its message;
- ``ANSWER_CASES``: a call that must give the right answer (a check of its result);
- ``DRIVER_CASES``: a command line of ``python -m helpers.workbook study`` run in
  process, which must exit with the given code and print the words on stderr, without a traceback
  and before any computation (the data sets are never loaded).

Then the folds: one (data set, fold, method) that fails is named and the other folds are scored
and kept; a part file that cannot be trusted is recomputed, never read.
"""

from __future__ import annotations

import gzip
import json
import re
import socket
import warnings
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_wine

import helpers.studies.generalisation.scores as scores
import helpers.workbook.study as driver
from helpers.studies.generalisation import excluded_sets, load_protocol
from helpers.studies.generalisation.datasets import cap_rows, study_datasets
from helpers.studies.generalisation.scores import (
    COLUMNS,
    ScoringError,
    fingerprint,
    read_scores,
    recompute_sample,
    run_scores,
    write_scores,
)
from helpers.workbook import cli
from helpers.workbook.execute import execute_notebook
from helpers.workbook.parameters import check_parameter_names, check_parameters, injected_names

ROOT = Path(__file__).resolve().parents[2]
NB08 = ROOT / "notebooks" / "08_generalisation.ipynb"
X_WINE, Y_WINE = load_wine(return_X_y=True)
DEFAULTS_08 = {"metric": "accuracy", "exclude": "", "recompute": 0, "results_path": None}
DEFAULTS_04 = {"random_state": 0, "test_size": 0.2, "k": 13, "method": "cholesky", "covariance": "sample",
               "n_splits_sweep": 10, "n_repeats": 5, "n_random_transforms": 20, "n_orders": 10, "results_path": None}
NAMES = ["breast_cancer", "biopsy", "wine", "iris", "crabs", "fgl", "olive", "ais", "reuters"]
FAST = ["euclidean", "cosine"]  # two quick methods: a fold of wine takes a fraction of a second


def small_protocol():
    p = json.loads(json.dumps(load_protocol()))
    p["tuning"].update(k=[1, 3, 5], shrinkage=[0.0, 1.0], C_log2=[-1, 1, 2], C_linear_log2=[-1, 1, 2],
                       gamma_log2=[-3, -1, 2])
    p["protocol"].update(repeats=1, inner_folds=3, column_orders=2)
    return p


PROTOCOL = small_protocol()


def papermill_ran(namespace: dict, injected: str) -> dict:
    """``namespace`` as a notebook's ``globals()`` after papermill injected ``injected`` (IPython's ``In``)."""
    return {**namespace, "In": ["", "metric = 'accuracy'", "# Parameters\n" + injected, "check = ..."]}


def scored(data, **kwargs):
    return run_scores(data, PROTOCOL, FAST, n_jobs=1, progress=False, **kwargs)


def wine_with(X=None, y=None):
    return {"wine": (X_WINE if X is None else X, Y_WINE if y is None else y)}


def one_fold():
    return scored(wine_with(), cells=[("wine", 0, 0)])


def with_value(row, col, value):
    X = X_WINE.copy()
    X[row, col] = value
    return X


def tiny_notebook(t: Path) -> Path:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("seed: int = 0  # the seed",
                                                                   metadata={"tags": ["parameters"]}),
                                         nbformat.v4.new_code_cell("print(seed)")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = t / "scratch.ipynb"
    nbformat.write(nb, path)
    return path


def stored_pair(t: Path, edit_json=None, edit_gz=None):
    table = scored(wine_with(), cells=[("wine", 0, 0)])
    path = write_scores(table, t / "scores.csv.gz", PROTOCOL)
    if edit_json:
        meta = t / "scores.json"
        meta.write_text(edit_json(meta.read_text()))
    if edit_gz:
        path.write_bytes(edit_gz(path.read_bytes()))
    return read_scores(path, PROTOCOL)


# (id, call, error type, words in the message)
def _claims_of(rows=(), value=None, scale=1.0):
    """claim_table over the study's example scores, the accuracy scaled and some rows' replaced."""
    from helpers.studies.generalisation import claim_table
    from helpers.studies.generalisation._examples import example_scores

    table = example_scores().copy()
    table["accuracy"] = table["accuracy"] * scale
    if rows:
        table.loc[list(rows), "accuracy"] = value
    return lambda t: claim_table(table, load_protocol(), n_samples=200)


ERROR_CASES = [
    ("scores-above-one", _claims_of([3], 1.7), ValueError,
     r"1 accuracy score\(s\) lie outside \[0, 1\], which no accuracy can, e.g. 1.7 .* not a score table"),
    ("scores-negative", _claims_of([5, 9], -0.2), ValueError, r"2 accuracy score\(s\) lie outside \[0, 1\].* -0.2"),
    ("scores-in-per-cent", _claims_of(scale=100.0), ValueError,
     r"the scores look like per cents; store fractions \(0.95, not 95\)"),
    # notebook 08's parameters, checked in its setup cell
    ("nb08-metric-unknown", lambda t: check_parameters({**DEFAULTS_08, "metric": "auc"}, "08"), ValueError,
     r"Parameter metric = 'auc' is not allowed: metric takes one of 'accuracy', 'balanced_accuracy'\. Set it in "
     r"the parameters cell \(papermill: -p metric VALUE\)"),
    ("nb08-metric-wrong-case", lambda t: check_parameters({**DEFAULTS_08, "metric": "Accuracy"}, "08"), ValueError,
     r"metric = 'Accuracy' is not allowed"),
    ("nb08-exclude-a-number", lambda t: check_parameters({**DEFAULTS_08, "exclude": 3}, "08"), TypeError,
     r"Parameter exclude = 3 \(int\) is not allowed: exclude takes"),
    ("nb08-exclude-a-list", lambda t: check_parameters({**DEFAULTS_08, "exclude": ["iris"]}, "08"), TypeError,
     r"Parameter exclude = \['iris'\] \(list\) is not allowed"),
    ("nb08-recompute-a-fraction", lambda t: check_parameters({**DEFAULTS_08, "recompute": 2.5}, "08"), TypeError,
     r"recompute = 2\.5 \(float\) is not allowed: recompute takes an integer in \[0, 20\]"),
    ("nb08-recompute-as-text", lambda t: check_parameters({**DEFAULTS_08, "recompute": "2"}, "08"), TypeError,
     r"Parameter recompute = '2' is not allowed: recompute takes an integer in \[0, 20\]"),
    ("nb08-recompute-negative", lambda t: check_parameters({**DEFAULTS_08, "recompute": -1}, "08"), ValueError,
     r"recompute = -1 \(int\) is not allowed: recompute takes an integer in \[0, 20\]"),
    ("nb08-recompute-too-many", lambda t: check_parameters({**DEFAULTS_08, "recompute": 21}, "08"), ValueError,
     r"recompute = 21 \(int\) is not allowed"),
    ("nb08-recompute-a-boolean", lambda t: check_parameters({**DEFAULTS_08, "recompute": True}, "08"), TypeError,
     r"recompute = True \(bool\) is not allowed"),
    ("nb08-results-path-a-number", lambda t: check_parameters({**DEFAULTS_08, "results_path": 3}, "08"), TypeError,
     r"results_path = 3 \(int\) is not allowed"),
    ("nb08-exclude-unknown-near-miss", lambda t: excluded_sets("biopsy, wnie", NAMES), ValueError,
     r"exclude names data set\(s\) the study does not have: \['wnie'\]\. 'wnie': did you mean 'wine'\? Its data "
     r"sets are breast_cancer, biopsy, .*separate names with commas"),
    ("nb08-exclude-unicode-near-miss", lambda t: excluded_sets("íris", NAMES), ValueError,
     r"does not have: \['íris'\]\. 'íris': did you mean 'iris'\?"),
    ("nb08-exclude-semicolons", lambda t: excluded_sets("iris; wine", NAMES), ValueError,
     r"does not have: \['iris; wine'\].*separate names with commas"),
    ("nb08-exclude-leaves-too-few", lambda t: excluded_sets(", ".join(NAMES[4:]), NAMES), ValueError,
     r"exclude leaves 4 data sets; the notebook needs at least 5 \(the ranks over data sets, as autorank computes "
     r"them, need five\)\. Exclude at most 4\."),
    ("nb08-exclude-everything", lambda t: excluded_sets(", ".join(NAMES), NAMES), ValueError,
     r"exclude leaves 0 data sets"),
    # misspelt parameter names: in the setup cell (plain papermill) and before execution (the workbook's runner)
    ("params-injected-misspelt-k", lambda t: check_parameters(papermill_ran(DEFAULTS_04, "K = 5\n"), "04"),
     ValueError, r"notebook 04_wisconsin_cosine_knn has no parameter 'K' \(did you mean 'k'\?\); its parameters are "
                 r"random_state, .*the notebook would run on its default\. Correct the name"),
    ("params-injected-misspelt-exclude", lambda t: check_parameters(papermill_ran(DEFAULTS_08, "exlude = 'iris'\n"),
                                                                    "08"),
     ValueError, r"notebook 08_generalisation has no parameter 'exlude' \(did you mean 'exclude'\?\)"),
    ("params-injected-unrelated-name", lambda t: check_parameters(papermill_ran(DEFAULTS_08, "zzz = 1\n"), "08"),
     ValueError, r"has no parameter 'zzz'; its parameters are metric, exclude, recompute, results_path\."),
    ("params-names-checked-directly", lambda t: check_parameter_names(["metrc"], {"metric": None}), ValueError,
     r"this notebook has no parameter 'metrc' \(did you mean 'metric'\?\)"),
    ("execute-misspelt-name-refused-before-kernel",
     lambda t: execute_notebook(NB08, t / "out.ipynb", {"Metric": "accuracy"}), ValueError,
     r"notebook 08_generalisation\.ipynb has no parameter 'Metric' \(did you mean 'metric'\?\)"),
    ("execute-misspelt-name-scratch-notebook",
     lambda t: execute_notebook(tiny_notebook(t), t / "out.ipynb", {"sed": 1}), ValueError,
     r"notebook scratch\.ipynb has no parameter 'sed' \(did you mean 'seed'\?\); its parameters are seed"),
    # the computation's input
    ("scores-nan-in-features", lambda t: scored(wine_with(with_value(4, 2, np.nan))), ValueError,
     r"data set wine: X holds 1 missing or infinite values \(first at row 4, column 2\); drop or impute them"),
    ("scores-inf-in-features", lambda t: scored(wine_with(with_value(0, 0, -np.inf))), ValueError,
     r"data set wine: X holds 1 missing or infinite values"),
    ("scores-missing-labels", lambda t: scored(wine_with(y=np.where(np.arange(178) == 7, None, Y_WINE))),
     ValueError, r"data set wine: 1 labels stand for a missing class \(first at row 7: None\); drop those rows"),
    ("scores-text-nan-label", lambda t: scored(wine_with(y=np.where(np.arange(178) < 2, "nan", Y_WINE.astype(str)))),
     ValueError, r"data set wine: 2 labels stand for a missing class \(first at row 0: np\.str_\('nan'\)|'nan'"),
    ("scores-class-smaller-than-the-folds", lambda t: scored({"tiny": (X_WINE[:65], np.r_[np.zeros(59), np.ones(6)])}),
     ValueError, r"data set tiny: stratified 10-fold cross-validation needs at least two classes of 10 rows or "
                 r"more; classes \{'0\.0': 59, '1\.0': 6\}\. Drop the small classes first"),
    ("scores-one-class", lambda t: scored({"one": (X_WINE[:59], np.zeros(59))}), ValueError,
     r"data set one: stratified 10-fold cross-validation needs at least two classes"),
    ("scores-ragged-labels", lambda t: scored(wine_with(y=Y_WINE[:-1])), ValueError,
     r"data set wine: X must be 2-D .* y one label per row; got X \(178, 13\), y \(177,\)"),
    ("scores-text-features", lambda t: scored(wine_with(X_WINE.astype(str).astype(object) + "x")), ValueError,
     r"data set wine: X must be numbers"),
    ("scores-name-with-a-slash", lambda t: scored({"../wine": (X_WINE, Y_WINE)}), ValueError,
     r"data set names must be non-empty strings without path separators .*got '\.\./wine'"),
    ("scores-jobs-zero", lambda t: run_scores(wine_with(), PROTOCOL, FAST, n_jobs=0), ValueError,
     r"n_jobs must be a number of workers >= 1 \(or -1: one per CPU, None: one; two on a local Dask cluster\); got 0"),
    ("scores-method-twice", lambda t: run_scores(wine_with(), PROTOCOL, ["cosine", "cosine"]), ValueError,
     r"methods must name each method once, at least one; got \['cosine', 'cosine'\]"),
    ("scores-method-unknown", lambda t: run_scores(wine_with(), PROTOCOL, ["cosin"]), ValueError,
     r"unknown method\(s\) \['cosin'\]; the methods are euclidean"),
    ("scores-cells-of-another-set", lambda t: scored(wine_with(), cells=[("iris", 0, 0)]), ValueError,
     r"cells \[\('iris', 0, 0\)\] are not \(data set, repeat, fold\) of these data sets under the protocol "
     r"\(repeats 0-0, folds 0-9\)"),
    ("scores-cells-fold-out-of-range", lambda t: scored(wine_with(), cells=[("wine", 0, 10)]), ValueError,
     r"cells \[\('wine', 0, 10\)\] are not"),
    ("scores-part-is-a-folder",
     lambda t: ((t / f"wine-{fingerprint(X_WINE, Y_WINE)}" / "r0-f0.csv").mkdir(parents=True),
                scored(wine_with(), cells=[("wine", 0, 0)], folder=t)), IsADirectoryError,
     r"r0-f0\.csv is a folder where a part file of finished scores belongs; remove it and run again"),
    ("stored-record-not-json", lambda t: stored_pair(t, edit_json=lambda s: s[: len(s) // 2]), ValueError,
     r"scores\.json, the record of the stored scores, is not readable JSON .*restore the committed copies .*or "
     r"recompute them"),
    ("stored-record-a-list", lambda t: stored_pair(t, edit_json=lambda s: "[1, 2]"), ValueError,
     r"scores\.json, the record .* is not readable JSON \(a JSON list, not an object\)"),
    ("stored-table-truncated", lambda t: stored_pair(t, edit_gz=lambda b: b[: len(b) // 2]), ValueError,
     r"scores\.csv\.gz cannot be read \((EOFError|BadGzipFile|OSError).*restore the committed copies"),
    ("stored-table-under-edited-protocol",
     lambda t: read_scores(write_scores(scored(wine_with(), cells=[("wine", 0, 0)]), t / "scores.csv.gz", PROTOCOL),
                           dict(PROTOCOL, sha256="f" * 64)), ValueError,
     r"scores\.csv\.gz was computed under protocol [0-9a-f]{12}, not the present one \(ffffffffffff\).*Recompute "
     r"them, or restore the protocol"),
    ("protocol-file-missing", lambda t: load_protocol(t / "gone.toml"), ValueError,
     r"cannot read the study's protocol .*gone\.toml.*committed with the workbook as "
     r"data/protocols/generalisation_v5\.toml"),
    ("protocol-not-toml", lambda t: (t.joinpath("p.toml").write_text("[study\nx="), load_protocol(t / "p.toml"))[1],
     ValueError, r"p\.toml is not valid TOML"),
    ("study-names-a-bare-string", lambda t: study_datasets(PROTOCOL, names="iris"), TypeError,
     r"names must be a collection of data set names such as \['iris'\], not the string 'iris'"),
    ("recompute-no-folds", lambda t: recompute_sample(one_fold(), wine_with(), PROTOCOL, n=0), ValueError,
     r"n must be the number of stored folds to recompute, at least 1; got 0"),
    ("recompute-seed-negative", lambda t: recompute_sample(one_fold(), wine_with(), PROTOCOL, n=1, seed=-3), ValueError,
     r"seed must be an integer in \[0, 2\*\*32\) or None \(a fresh one\); got -3"),
    ("study-cap-rows-one", lambda t: cap_rows(X_WINE, Y_WINE, 1), ValueError, r"max_rows"),
]


def _check_names(value):
    return value is None


# (id, call, check of the result)
ANSWER_CASES = [
    ("params-injected-right-names", lambda t: check_parameters(papermill_ran(DEFAULTS_08, "metric = 'accuracy'\n"),
                                                               "08"), _check_names),
    ("params-injected-papermill-paths",
     lambda t: check_parameters(papermill_ran(DEFAULTS_08, "PAPERMILL_INPUT_PATH = 'a'\nrecompute = 1\n"), "08"),
     _check_names),
    ("params-injected-names-read", lambda t: injected_names(papermill_ran({}, "K = 5\nexclude: str = 'iris'\n")),
     lambda names: names == ["K", "exclude"]),
    ("params-without-papermill-unchecked-names", lambda t: check_parameters({**DEFAULTS_08, "K": 5}, "08"),
     _check_names),  # run in Jupyter by hand: a stray variable is not a parameter
    ("nb08-exclude-leaves-exactly-five", lambda t: excluded_sets(", ".join(NAMES[5:]), NAMES),
     lambda left: left == NAMES[5:]),
    ("nb08-exclude-repeated-and-spaced", lambda t: excluded_sets(" iris ,, wine, iris,", NAMES),
     lambda left: left == ["iris", "wine"]),
    ("scores-labels-as-objects", lambda t: scored(wine_with(y=Y_WINE.astype(object)), cells=[("wine", 0, 0)]),
     lambda table: len(table) == 2 and table["accuracy"].between(0, 1).all()),
    ("scores-unicode-set-name", lambda t: scored({"vin-rouge-é": (X_WINE, Y_WINE)}, cells=[("vin-rouge-é", 0, 1)],
                                                 folder=t),
     lambda table: table["dataset"].unique().tolist() == ["vin-rouge-é"]),
]


@pytest.mark.parametrize("case", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_bad_input_raises_a_clear_error(case, tmp_path):
    _, call, error, words = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error) as info:
            call(tmp_path)
    assert re.search(words, str(info.value), re.S), f"message does not match {words!r}:\n{info.value}"
    assert not list(tmp_path.rglob("*.tmp")) and not (tmp_path / "out.ipynb").exists()


@pytest.mark.parametrize("case", ANSWER_CASES, ids=[c[0] for c in ANSWER_CASES])
def test_awkward_input_gets_the_right_answer(case, tmp_path):
    _, call, check = case
    assert check(call(tmp_path))


# --------------------------------------------------------------------------------------------
# one fold's method fails: named, the others scored and kept


def _failing(real, method="cosine", fold_rows=None):
    """``score_fold`` that raises, as a singular covariance would, for one method on the fold with ``fold_rows``."""
    def score_fold(X, y, train, test, methods, grids, orders=None):
        if methods == [method] and (fold_rows is None or len(test) == fold_rows or test[0] == fold_rows):
            raise ValueError("The covariance is singular. Use a shrinkage estimate (covariance='ledoit_wolf', "
                             "'oas' or a float in (0, 1])")
        return real(X, y, train, test, methods, grids, orders)
    return score_fold


def test_a_failing_method_is_named_and_the_other_folds_are_kept(tmp_path, monkeypatch):
    """Case ``scores-one-method-fails``: the error names data set, repeat, fold and method, and the folds without
    a failure are scored and stored; a rerun computes only the failed fold."""
    cells = [("wine", 0, f) for f in range(3)]
    folds = scores.outer_folds(Y_WINE, PROTOCOL)
    first_test_row = int(folds[1][3][0])
    monkeypatch.setattr(scores, "score_fold", _failing(scores.score_fold, "cosine", first_test_row))
    with pytest.raises(ScoringError) as info:
        run_scores(wine_with(), PROTOCOL, FAST, cells=cells, folder=tmp_path, n_jobs=1, progress=False)
    message = str(info.value)
    assert re.search(r"1 of 3 folds could not be scored \(1 method fits failed\); the other 2 folds were scored; "
                     r"they are stored under .* and a rerun computes only the failed ones:\n"
                     r"  wine \(repeat 0, fold 1\), cosine: ValueError: The covariance is singular\..*"
                     r"advice in these messages about a function's arguments does not apply here", message, re.S)
    assert info.value.failures == [{"dataset": "wine", "repeat": 0, "fold": 1, "method": "cosine",
                                    "error": info.value.failures[0]["error"]}]
    assert sorted(info.value.table["fold"].unique()) == [0, 2] and len(info.value.table) == 4
    parts = sorted(p.name for p in tmp_path.rglob("*.csv"))
    assert parts == ["r0-f0.csv", "r0-f2.csv"]
    monkeypatch.undo()
    computed = []
    real = scores.score_fold
    monkeypatch.setattr(scores, "score_fold", lambda *a, **k: (computed.append(len(a[3])), real(*a, **k))[1])
    table = run_scores(wine_with(), PROTOCOL, FAST, cells=cells, folder=tmp_path, n_jobs=1, progress=False)
    assert len(table) == 6 and len(computed) == 2  # only fold 1, its two methods


def test_the_driver_reports_a_failing_fold_without_a_traceback(tmp_path, monkeypatch, capsys):
    """Case ``driver-scoring-error``: exit 1 and the message, the computed folds kept."""
    def fail(*a, **k):
        raise ScoringError("1 of 580 folds could not be scored ...\n  wine (repeat 0, fold 1), cosine: ValueError",
                           [], pd.DataFrame(columns=COLUMNS))
    monkeypatch.setattr(driver, "SCORES_PATH", tmp_path / "scores.csv.gz")
    monkeypatch.setattr(driver, "study_datasets", lambda protocol: ({}, pd.DataFrame()))
    monkeypatch.setattr(driver, "run_scores", fail)
    assert cli.main(["study", "run", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: 1 of 580 folds could not be scored") and "Traceback" not in err


# --------------------------------------------------------------------------------------------
# part files that cannot be trusted are recomputed, never read


def _part(t: Path) -> Path:
    return t / f"wine-{fingerprint(X_WINE, Y_WINE)}" / "r0-f0.csv"


@pytest.mark.parametrize("damage, words", [
    ("garbage", r"it cannot be read"),
    ("empty", r"it cannot be read \(EmptyDataError"),
    ("other-version", r"its columns \[.*'score'.*\] are not those of this code"),
    ("other-fold", r"it holds scores of another fold \(\[\['wine', 0, 3\]\]\)"),
    ("bad-accuracy", r"its accuracies are not all numbers in \[0, 1\]"),
    ("repeated-method", r"it repeats a method"),
    ("cut-in-last-row", r"the row\(s\) of \['[a-z_]+'\] lack fields \(the file was cut short\?\)"),
    ("bad-balanced-accuracy", r"its balanced accuracies are not all numbers in \[0, 1\]"),
], ids=["parts-corrupt-file", "parts-empty-file", "parts-from-another-code-version", "parts-of-another-fold",
        "parts-accuracy-out-of-range", "parts-method-twice", "parts-cut-inside-last-row",
        "parts-balanced-accuracy-out-of-range"])
def test_an_untrustworthy_part_is_recomputed(damage, words, tmp_path):
    good = scored(wine_with(), cells=[("wine", 0, 0)], folder=tmp_path)
    part = _part(tmp_path)
    frame = pd.read_csv(part)
    if damage == "garbage":
        part.write_bytes(b"\x00\xff\x00garbage\n\x01")
    elif damage == "empty":
        part.write_text("")
    elif damage == "other-version":
        frame.rename(columns={"accuracy": "score"}).to_csv(part, index=False)
    elif damage == "other-fold":
        frame.assign(fold=3).to_csv(part, index=False)
    elif damage == "bad-accuracy":
        frame.assign(accuracy=[1.5, 0.2]).to_csv(part, index=False)
    elif damage == "repeated-method":
        pd.concat([frame, frame.iloc[:1]]).to_csv(part, index=False)
    elif damage == "cut-in-last-row":  # the last line broken off after its accuracy
        text = part.read_text().rstrip("\n")
        head, last = text.rsplit("\n", 1)
        cut = ",".join(last.split(",")[:5])
        part.write_text(f"{head}\n{cut}\n")
        assert pd.read_csv(part)["accuracy"].notna().all()      # the cut row still has an accuracy
    elif damage == "bad-balanced-accuracy":
        frame.assign(balanced_accuracy=[0.9, 1.4]).to_csv(part, index=False)
    with pytest.warns(UserWarning, match=r"Part file wine-[0-9a-f]{12}/r0-f0\.csv is not a finished fold of this "
                                         r"run: " + words + r".*recomputing that fold \(the file is replaced\)"):
        again = scored(wine_with(), cells=[("wine", 0, 0)], folder=tmp_path)
    pd.testing.assert_frame_equal(again.drop(columns="fit_seconds"), good.drop(columns="fit_seconds"))
    assert len(pd.read_csv(part)) == 2 and not list(tmp_path.rglob(".*"))


# --------------------------------------------------------------------------------------------
# the driver: refused before any computation, no traceback

def _never(*args, **kwargs):
    raise AssertionError("the data sets were loaded: the command was not refused first")


DRIVER_CASES = [
    ("driver-jobs-zero", ["run", "--jobs", "0"], 2, r"--jobs must be at least 1, not 0"),
    ("driver-cells-zero", ["verify", "--cells", "0"], 2, r"--cells must be at least 1, not 0"),
    ("driver-samples-negative", ["hierarchical", "--samples", "-5"], 2, r"--samples must be at least 100, not -5"),
    ("driver-seed-negative", ["verify", "--seed", "-1"], 2, r"--seed must be an integer in \[0, 2\*\*32\), not -1"),
    ("driver-jobs-not-a-number", ["run", "--jobs", "two"], 2, r"argument --jobs: invalid int value: 'two'"),
    ("driver-unknown-command", ["rnu"], 2, r"invalid choice: 'rnu'"),
    ("driver-run-under-an-edited-protocol", ["run"], 2,
     r"error: the stored scores \(.*scores\.csv\.gz\) were made under protocol [0-9a-f]{12}, not the present one "
     r"\(eeeeeeeeeeee\): a fresh table could not be compared with them\. Pass --write .*or restore the protocol"),
    ("driver-verify-without-stored-scores", ["verify"], 2,
     r"error: no stored scores at scores\.csv\.gz .*compute them with "
     r"`python -m helpers\.workbook study run`"),
    ("driver-protocol-missing", ["verify"], 2,
     r"error: cannot read the study's protocol .*gone\.toml"),
    ("driver-dask-closed-port", ["run", "--dask", "tcp://127.0.0.1:1"], 2,
     r"^error: No Dask scheduler answers at tcp://127\.0\.0\.1:1 \(.*\); start one \(dask scheduler\)"),
    ("driver-dask-not-an-address", ["run", "--dask", "127.0.0.1:8786"], 2,
     r"error: --dask '127\.0\.0\.1:8786' is not a scheduler address; give 'local' or tcp://HOST:PORT"),
    ("driver-dask-silent-port", ["run", "--dask", "SILENT"], 2,
     r"^error: Something listens at tcp://127\.0\.0\.1:\d+ but it is not a Dask scheduler \(no answer to Dask's "
     r"handshake in 5 s\)"),
]


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.integration) if c[0] == "driver-dask-silent-port"
                                  else c for c in DRIVER_CASES], ids=[c[0] for c in DRIVER_CASES])  # 5 s of waiting
def test_driver_mistake_is_refused_before_any_work(case, tmp_path, monkeypatch, capsys):
    name, argv, code, words = case
    monkeypatch.setattr(driver, "study_datasets", _never)
    monkeypatch.setattr(driver, "run_scores", _never)
    if name == "driver-run-under-an-edited-protocol":
        stored = tmp_path / "scores.csv.gz"
        write_scores(scored(wine_with(), cells=[("wine", 0, 0)]), stored, PROTOCOL)
        monkeypatch.setattr(driver, "SCORES_PATH", stored)
        monkeypatch.setattr(driver, "ROOT", tmp_path)
        monkeypatch.setattr(driver, "load_protocol", lambda: dict(PROTOCOL, sha256="e" * 64))
    elif name == "driver-verify-without-stored-scores":
        monkeypatch.setattr(driver, "SCORES_PATH", tmp_path / "scores.csv.gz")
    elif name == "driver-protocol-missing":
        real = driver.load_protocol
        monkeypatch.setattr(driver, "load_protocol", lambda: real(tmp_path / "gone.toml"))
    elif name == "driver-dask-silent-port":  # accepts the connection, never says a word
        listener = socket.create_server(("127.0.0.1", 0))
        argv = [f"tcp://127.0.0.1:{listener.getsockname()[1]}" if a == "SILENT" else a for a in argv]
    try:
        result = cli.main(["study", *argv])
    except SystemExit as exc:  # argparse's own refusals
        result = exc.code
    err = capsys.readouterr().err
    assert result == code and re.search(words, err, re.S), err
    assert "Traceback" not in err


def test_every_case_id_is_unique():
    ids = [c[0] for c in ERROR_CASES + ANSWER_CASES + DRIVER_CASES]
    assert len(set(ids)) == len(ids)


def test_stored_table_truncated_helper_really_truncates(tmp_path):
    table = scored(wine_with(), cells=[("wine", 0, 0)])
    path = write_scores(table, tmp_path / "scores.csv.gz", PROTOCOL)
    with pytest.raises((EOFError, OSError)):
        gzip.decompress(path.read_bytes()[: len(path.read_bytes()) // 2])


def test_two_runs_sharing_a_parts_folder_agree(tmp_path):
    """Case ``scores-concurrent-runs``: two runs at once on one parts folder both finish with the same scores,
    and every part file is whole (each is written beside its place and renamed)."""
    from concurrent.futures import ThreadPoolExecutor

    cells = [("wine", 0, f) for f in range(4)]
    with ThreadPoolExecutor(2) as pool:
        one, two = pool.map(lambda _: scored(wine_with(), cells=cells, folder=tmp_path), range(2))
    pd.testing.assert_frame_equal(one.drop(columns="fit_seconds"), two.drop(columns="fit_seconds"))
    parts = sorted(tmp_path.rglob("r0-f*.csv"))
    assert len(parts) == 4 and all(len(pd.read_csv(p)) == 2 for p in parts)
    assert not [p for p in tmp_path.rglob("*") if p.name.startswith(".")]


@pytest.mark.integration
def test_plain_papermill_with_a_misspelt_name_stops_in_the_setup_cell(tmp_path):
    """Case ``nb08-plain-papermill-misspelt-name``: ``papermill 08_generalisation.ipynb out.ipynb -p exlude iris``
    (not the workbook's runner, which refuses it before a kernel starts) fails in the setup cell, naming it."""
    import papermill as pm

    from helpers.workbook.execute import ipc_kernel_manager_class

    manager = ipc_kernel_manager_class()
    with pytest.raises(pm.PapermillExecutionError) as caught:
        pm.execute_notebook(str(NB08), str(tmp_path / "out.ipynb"), parameters={"exlude": "iris"},
                            kernel_name="python3", cwd=str(NB08.parent), progress_bar=False,
                            **({"kernel_manager_class": manager} if manager else {}))
    assert caught.value.ename == "ValueError" and caught.value.exec_count == 3
    assert re.search(r"notebook 08_generalisation has no parameter 'exlude' \(did you mean 'exclude'\?\)",
                     caught.value.evalue)


def test_a_table_of_fewer_data_sets_than_the_protocol_asks_is_judged_with_a_warning():
    from helpers.studies.generalisation._examples import example_scores
    from helpers.studies.generalisation.evidence import FewerSetsWarning, claim_table

    scores = example_scores()                                     # 12 data sets; the protocol's min_sets is 40
    with pytest.warns(FewerSetsWarning, match=r"the score table holds 12 data sets, fewer than the protocol's "
                                              r"min_sets \(40\): the verdicts below .* are not the study's"):
        claim_table(scores, load_protocol(), n_samples=1000)
    enough = dict(load_protocol(), datasets={**load_protocol()["datasets"], "min_sets": 12})
    with warnings.catch_warnings():
        warnings.simplefilter("error", FewerSetsWarning)           # as many as asked: no warning
        claim_table(scores, enough, n_samples=1000)


def test_a_study_of_fewer_data_sets_than_the_protocol_asks_is_refused_before_any_loads(monkeypatch):
    from helpers.studies.generalisation import datasets

    monkeypatch.setattr(datasets, "study_names", lambda protocol: ["iris", "wine"])
    monkeypatch.setattr("helpers.data.collection.load_dataset", _never)
    with pytest.raises(ValueError, match=r"the protocol's criteria admit 2 data sets, fewer than its min_sets \(40\): "
                                         r"the study's decision rule needs that many"):
        datasets.study_datasets(load_protocol())


@pytest.mark.parametrize("scale", [1e-300, 1e300], ids=["study-euclidean-at-1e-300", "study-euclidean-at-1e300"])
def test_raw_rows_whose_squares_leave_float64_are_refused_not_scored_at_chance(scale):
    with pytest.raises(ScoringError) as caught:
        scored(wine_with(X_WINE * scale), cells=[("wine", 0, 0)])
    message = str(caught.value)
    assert "wine (repeat 0, fold 0), euclidean" in message and "Rescale the rows first" in message
    assert re.search(r"squared, such values (underflow to 0|overflow to infinity) in float64", message)
    assert caught.value.table.empty                                # a fold with a failed method is not kept
