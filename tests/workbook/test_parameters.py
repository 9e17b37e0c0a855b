"""The parameter checks of the notebooks' parameters cells (``helpers.workbook.parameters``): what each
check allows, and the messages that name the parameter, its value and the allowed values."""

import numpy as np
import pytest


def test_checks_describe_what_they_allow_and_sort_type_from_value_problems():
    from helpers.workbook.parameters import Boolean, DictOf, Integer, ListOf, OneOf, Real, Text

    cases = [  # (check, its description, allowed, wrong value, wrong type)
        (Integer(1), "an integer >= 1", 5, 0, 2.0),
        (Integer(0, 10), "an integer in [0, 10]", 10, 11, "3"),
        (Real(0, 1, closed="neither"), "a number in (0, 1)", 0.5, 1.0, "0.5"),
        (Real(0, 1, closed="left"), "a number in [0, 1)", 0, 1, None),
        (Real(0, closed="neither"), "a number > 0", 1e-300, 0.0, [1.0]),
        (OneOf(["a", "b"]), "one of 'a', 'b'", "b", "c", 1),
        (Boolean(), "one of True, False", np.bool_(False), None, 1),
        (ListOf(Integer(1), length=2), "a list of 2 integers >= 1", [1, 2], [1, 2, 3], "1,2"),
        (DictOf(Real(0), keys=["x"]), "a dict with keys 'x' of values: a number >= 0", {"x": 1}, {"y": 1}, [1]),
        (Integer(1) | OneOf([-1]), "an integer >= 1 or -1", -1, -2, 1.0),
    ]
    for check, words, allowed, bad_value, bad_type in cases:
        assert check.describe() == words
        assert (check.problem(allowed), check.problem(bad_value) if bad_value is not None else "value",
                check.problem(bad_type)) == (None, "value", "type"), words
    assert Text().problem("x") is None and Text().problem(1) == "type"


def test_check_parameters_names_the_parameter_its_value_and_the_allowed_values():
    from helpers.workbook.parameters import check_parameters, parameter_spec

    spec, relations = parameter_spec("notebooks/06_reuters_mahalanobis_knn.ipynb")
    assert spec["tfidf"].describe() == "one of 'paper', 'sklearn'" and relations[0][0] == "k_min <= k_max"
    assert parameter_spec("scratch.ipynb") == ({}, [])
    with pytest.raises(ValueError, match=r"^Parameter n_images = 0 \(int\) is not allowed: n_images takes an integer "
                                         r"in \[2, 10000\]\. Set it in the parameters cell \(papermill: -p n_images "
                                         r"VALUE\)\.$"):
        check_parameters({"n_images": 0, "threshold": 0.3, "n_resamples": 200, "random_state": 0,
                          "results_path": None}, "07")
    with pytest.raises(TypeError, match=r"^Parameter verbose = 'yes' is not allowed: verbose takes one of True, "
                                        r"False\. Set it in papermill -p \(papermill: -p verbose VALUE\)\.$"):
        check_parameters({"verbose": "yes"}, {"verbose": spec["verbose"]}, where="papermill -p")
    check_parameters({"n_images": 10_000, "threshold": 0.0, "n_resamples": 1, "random_state": 2**32 - 1,
                      "results_path": "r.json"}, "07")  # every bound that is allowed
