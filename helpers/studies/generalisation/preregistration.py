"""The pre-registered protocol of each edition of the study (``data/protocols/generalisation_v<edition>.toml``).

The protocol fixes, before any result, the claims and their readings, the inclusion criteria of
the data sets, the tuning grids, the primary metric, the region of practical equivalence and the
decision rule. :func:`load_protocol` reads and checks it; its ``sha256`` is stored with every
score, so a result can always be traced to the protocol it was computed under.
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

from ...data.paths import DATA_DIR

__all__ = ["EDITION", "EDITIONS", "IN_PROGRESS", "PROTOCOL_PATH", "load_protocol", "protocol_path"]

#: the edition the study computes and its notebook reads
EDITION = 5
#: the editions whose protocol and scores are kept (an earlier one stays, to be compared with and recomputed)
EDITIONS = (2, 3, 4, 5)
#: editions whose protocol is written and committed, and whose scores are still being computed
#: (``python -m helpers.workbook study run --edition N``); none is read by a notebook
IN_PROGRESS = ()


def protocol_path(edition: int = EDITION) -> Path:
    """The protocol file of an edition.

    Examples
    --------
    >>> protocol_path(2).name
    'generalisation_v2.toml'
    """
    if edition not in EDITIONS + IN_PROGRESS:
        raise ValueError(f"edition must be one of {EDITIONS + IN_PROGRESS} (the editions kept and those in progress), "
                         f"not {edition!r}.")
    return DATA_DIR / "protocols" / f"generalisation_v{edition}.toml"


PROTOCOL_PATH = protocol_path()

_SECTIONS = ("study", "metric", "decision", "claims", "datasets", "protocol", "tuning", "exploratory")
_COMBINE = ("single", "intersection-union")


def load_protocol(path=None) -> dict:
    """Read the study's protocol and check that it can decide what it promises to.

    Parameters
    ----------
    path : path-like, optional
        Defaults to the present edition's, :data:`PROTOCOL_PATH`.

    Returns
    -------
    dict
        The protocol's sections, and ``sha256``: the hash of the file's bytes.

    Raises
    ------
    ValueError
        A missing section, a ROPE that is not a positive number with its half and double
        beside it, a decisive probability outside (0.5, 1), a claim without a primary reading or
        a baseline, an unknown way of combining comparisons, or data-set criteria that cannot be
        met; each message names the field and its value.

    Examples
    --------
    >>> protocol = load_protocol()
    >>> [c["key"] for c in protocol["claims"]], protocol["decision"]["rope"]
    (['vac.expected-better', 'mkn.accuracy-vs-euclidean', 'svm.better-than-kernels'], 0.01)
    """
    path = Path(path or PROTOCOL_PATH)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read the study's protocol {path}: {exc.strerror or exc}; it is committed with the "
                         f"workbook as data/protocols/{PROTOCOL_PATH.name}") from None
    try:
        protocol = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path} is not valid TOML: {exc}") from None
    problems = _problems(protocol)
    if problems:
        raise ValueError(f"{path} has {len(problems)} problem(s):\n  " + "\n  ".join(problems))
    return {**protocol, "sha256": hashlib.sha256(raw).hexdigest()}


def _problems(protocol: dict) -> list[str]:
    problems = [f"section [{s}] is missing" for s in _SECTIONS if s not in protocol]
    if problems:
        return problems
    decision = protocol["decision"]
    rope = decision.get("rope")
    if not isinstance(rope, (int, float)) or not rope > 0:
        problems.append(f"decision.rope must be a positive number (0.01 is one accuracy point), not {rope!r}")
    elif decision.get("rope_sensitivity") != [rope / 2, rope * 2]:
        problems.append(f"decision.rope_sensitivity must be half and double the ROPE, [{rope / 2:g}, {rope * 2:g}]; "
                        f"got {decision.get('rope_sensitivity')!r}")
    decisive = decision.get("decisive")
    if not isinstance(decisive, (int, float)) or not 0.5 < decisive < 1:
        problems.append(f"decision.decisive must lie in (0.5, 1), e.g. 0.95; got {decisive!r}")
    claims = protocol["claims"]
    if not claims:
        problems.append("no [[claims]]: the confirmatory family is empty")
    keys = [c.get("key") for c in claims]
    if len(set(keys)) != len(keys):
        problems.append(f"claims repeat a key: {keys}")
    problems += [p for claim in claims for p in _claim_problems(claim, protocol["study"].get("edition", 0))]
    problems += _tuning_problems(protocol["tuning"])
    data = protocol["datasets"]
    if data.get("min_wide_sets", 0) > data.get("min_sets", 0):
        problems.append(f"datasets: min_wide_sets {data.get('min_wide_sets')} exceeds min_sets {data.get('min_sets')}")
    for field in ("min_rows", "min_continuous_features", "min_rows_per_class", "min_sets"):
        if not isinstance(data.get(field), int) or data[field] < 1:
            problems.append(f"datasets.{field} must be a positive integer; got {data.get(field)!r}")
    return problems


def _claim_problems(claim: dict, edition: int) -> list[str]:
    problems = []
    name = claim.get("key", "a claim")
    if not claim.get("primary"):
        problems.append(f"claim {name}: no primary reading")
    if not claim.get("baselines"):
        problems.append(f"claim {name}: no baseline to compare with")
    if claim.get("combine") not in _COMBINE:
        problems.append(f"claim {name}: combine must be one of {_COMBINE}, not {claim.get('combine')!r}")
    elif claim["combine"] == "single" and len(claim.get("baselines", [])) != 1:
        problems.append(f"claim {name}: a single comparison needs one baseline; got {claim.get('baselines')}")
    if edition >= 4 and not isinstance(claim.get("nested"), str):
        problems.append(f"claim {name}: no nested method (the reading with its covariance switched off), "
                        "the confirmatory comparison since edition 4")
    return problems


#: the fourth edition's choices in [tuning] and the values each may take (absent: the earlier editions')
_CHOICES = {"nca_nested": (True, False), "linear_solver": ("by-shape", "mixed"),
            "svc_rows": ("standardised", "scaled"), "per_category_target": ("pooled", "own"),
            "factorisation": ("eigen", "cholesky"), "edge_rule": ("open-decided", "chosen"),
            "whiten_once": (True, False), "rbf_gram": (True, False)}


def _tuning_problems(tuning: dict) -> list[str]:
    """The SVC search: ``svc_search`` 'grid' or 'halving', and halving's factor and smallest first round."""
    problems = []
    for field, allowed in _CHOICES.items():
        if field in tuning and tuning[field] not in allowed:
            problems.append(f"tuning.{field} must be one of {allowed}, not {tuning[field]!r}")
    steps = tuning.get("edge_extension", 0)
    if isinstance(steps, bool) or not isinstance(steps, int) or not 0 <= steps <= 10:
        problems.append(f"tuning.edge_extension must be a number of grid steps from 0 to 10; got {steps!r}")
    if tuning.get("svc_search", "grid") not in ("grid", "halving"):
        problems.append(f"tuning.svc_search must be 'grid' or 'halving', not {tuning.get('svc_search')!r}")
    halving = tuning.get("svc_halving", {})
    if not isinstance(halving, dict):
        return [*problems, "tuning.svc_halving must be a table such as {factor = 3, min_rows_per_class = 10}; "
                           f"got {halving!r}"]
    for field, least in (("factor", 2), ("min_rows_per_class", 1)):
        value = halving.get(field, least)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            problems.append(f"tuning.svc_halving.{field} must be an integer of at least {least}; got {value!r}")
    return problems
