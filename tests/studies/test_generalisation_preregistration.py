"""The present edition's pre-registered protocol: read, hashed, and refused when it cannot decide."""

import hashlib

import pytest

from helpers.studies.generalisation.preregistration import PROTOCOL_PATH, load_protocol
from helpers.workbook.ledger import load_ledger


def test_the_protocol_names_three_claims_the_ledger_knows():
    protocol = load_protocol()
    ledger = load_ledger()
    keys = {c["key"] for c in protocol["claims"]}
    assert keys == set(ledger.loc[ledger["notebook"] == "08", "key"])
    assert protocol["sha256"] == hashlib.sha256(PROTOCOL_PATH.read_bytes()).hexdigest()


def test_the_protocols_rope_is_the_one_the_ledger_states_for_each_claim():
    protocol = load_protocol()
    ledger = load_ledger().set_index("key")
    for claim in protocol["claims"]:
        assert float(ledger.loc[claim["key"], "rope"]) == protocol["decision"]["rope"]


def test_the_svm_claim_is_an_intersection_union_test_against_both_kernels():
    svm = next(c for c in load_protocol()["claims"] if c["key"] == "svm.better-than-kernels")
    assert svm["combine"] == "intersection-union" and svm["baselines"] == ["linear_svc", "rbf_svc"]


@pytest.mark.parametrize("edit, message", [
    (("rope = 0.01 ", "rope = -0.01 "), "decision.rope must be a positive number"),
    (("rope_sensitivity = [0.005, 0.02]", "rope_sensitivity = [0.01, 0.02]"), "half and double the ROPE"),
    (("decisive = 0.95", "decisive = 0.4"), r"decision.decisive must lie in \(0.5, 1\)"),
    (('combine = "intersection-union"', 'combine = "any"'), "combine must be one of"),
    (('baselines = ["linear_svc", "rbf_svc"]', 'baselines = []'), "no baseline"),
    (("min_wide_sets = 8", "min_wide_sets = 80"), "min_wide_sets 80 exceeds min_sets 40"),
    (("[exploratory]", "[exploring]"), r"section \[exploratory\] is missing"),
    (("[study]", "[study"), "not valid TOML"),
    (('svc_search = "halving"', 'svc_search = "random"'),
     "tuning.svc_search must be 'grid' or 'halving', not 'random'"),
    (("factor = 3,", "factor = 1,"), "tuning.svc_halving.factor must be an integer of at least 2; got 1"),
    (("min_rows_per_class = 10}", "min_rows_per_class = 0.5}"), "min_rows_per_class must be an integer of at least 1"),
    (("svc_halving = {", "svc_halving = 3 #{"), "tuning.svc_halving must be a table"),
])
def test_a_protocol_that_cannot_decide_is_refused_with_the_field(tmp_path, edit, message):
    text = PROTOCOL_PATH.read_text(encoding="utf-8")
    assert edit[0] in text
    bad = tmp_path / "protocol.toml"
    bad.write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_protocol(bad)


def test_a_missing_protocol_says_where_it_belongs(tmp_path):
    with pytest.raises(ValueError, match="cannot read the study's protocol .*data/protocols/generalisation_v5.toml"):
        load_protocol(tmp_path / "nope.toml")
