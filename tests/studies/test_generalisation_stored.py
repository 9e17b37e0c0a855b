"""The own study's stored scores, of each edition kept: complete, made under its protocol, and reproducible.

Every run recomputes a different random sample of stored folds of each edition (its seed is in
the failure's message and in the output) and fails on any difference. The sample is drawn among
the folds whose stored fit time is at most BUDGET_SECONDS (414 of the third edition's 570 folds,
from 44 of its 57 data sets; 247 of the second's, from 27), the Reuters set left out (building it costs a
PCA of the corpus), so that `make test` keeps its time; `make run` recomputes every fold and
compares.
"""

from __future__ import annotations

import numpy as np
import pytest

from helpers.studies.generalisation import load_protocol
from helpers.studies.generalisation.datasets import REUTERS, study_names
from helpers.studies.generalisation.preregistration import EDITIONS, protocol_path
from helpers.studies.generalisation.readings import METHOD_LABELS
from helpers.studies.generalisation.scores import read_scores, recompute_sample, scores_path

pytestmark = pytest.mark.integration

#: the largest stored fit time (seconds, all methods of one fold) of a fold the sample may draw
BUDGET_SECONDS = 5


#: folds recomputed per run: the present edition's, then the earlier one's (its grid search is the slower)
SAMPLE = {5: 2, 4: 1, 3: 1, 2: 1}


@pytest.fixture(scope="module", params=EDITIONS, ids=lambda e: f"edition{e}")
def protocol(request):
    return load_protocol(protocol_path(request.param))


@pytest.fixture(scope="module")
def stored(protocol):
    return read_scores(scores_path(protocol["study"]["edition"]), protocol)


def test_the_stored_table_is_complete(stored, protocol):
    names = study_names(protocol)
    p = protocol["protocol"]
    assert list(stored["dataset"].unique()) == names
    assert len(names) >= protocol["datasets"]["min_sets"] and REUTERS in names
    assert set(stored["method"]) == set(METHOD_LABELS)
    assert len(stored) == len(names) * p["outer_folds"] * p["repeats"] * len(METHOD_LABELS)
    assert stored["accuracy"].between(0, 1).all() and stored["balanced_accuracy"].between(0, 1).all()
    ordered = stored["method"].isin(["expected_cholesky_cosine", "expected_cholesky_svc"])
    assert stored.loc[ordered, "order_min"].notna().all() and stored.loc[~ordered, "order_min"].isna().all()


def test_a_random_sample_of_stored_folds_recomputes_identically(stored, protocol):
    seed = int(np.random.SeedSequence().entropy % (2**32))
    print(f"recomputing a sample of stored folds with seed {seed}")
    draw = {"max_seconds": BUDGET_SECONDS, "exclude": [REUTERS]}
    n = SAMPLE[protocol["study"]["edition"]]
    used_seed, cells, diff = recompute_sample(stored, None, protocol, n=n, seed=seed, **draw)
    assert diff.empty, f"seed {used_seed}: the recomputed folds {cells} differ from the stored ones:\n{diff}"
