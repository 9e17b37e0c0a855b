"""The own study's commands: ``python -m helpers.workbook study {run,verify,hierarchical,edges}``.

``study run``: compute every score of the present edition (resumable: finished folds are kept
under ``build/``), then say whether the fresh table is identical to the stored one in
``data/results/`` (``--write`` stores it). ``study verify``: recompute a random sample of stored
folds (the seed is printed) and fail on any difference. ``--edition 2`` does either for an
earlier edition, whose protocol and scores are kept. ``study hierarchical``: the hierarchical
Bayesian model of the claims, stored beside the scores. ``study edges --edition 4``: score one
grid step beyond every SVC tuning on an edge of its grid (did the end of the grid limit it?),
stored beside the scores; the fifth edition steps beyond such an end itself.

The computation is the study's (:mod:`helpers.studies.generalisation`); this module reads the
command line, loads what a command needs and says what came out.
"""

from __future__ import annotations

import hashlib
import signal
import sys
import time
from pathlib import Path

import numpy as np

from .. import shrinkage
from .._dask import check_dask_address
from ..data.paths import ROOT
from ..studies.generalisation import readings
from ..studies.generalisation.datasets import study_datasets
from ..studies.generalisation.preregistration import EDITION, EDITIONS, IN_PROGRESS, load_protocol, protocol_path
from ..studies.generalisation.scores import (
    HIERARCHICAL_PATH,
    SCORES_PATH,
    ScoringError,
    check_sample_size,
    differences,
    read_scores,
    recompute_sample,
    run_scores,
    scores_path,
    write_hierarchical,
    write_scores,
)

__all__ = ["study"]


def _parts_folder(protocol):
    """``build/generalisation_v<edition>/<protocol>-<methods>``: parts of other protocols or method code never mix."""
    folder = Path(readings.__file__).parent
    engine = [folder / name for name in ("readings.py", "tuning.py", "svcs.py")] + [Path(shrinkage.__file__)]
    code = hashlib.sha256(b"".join(path.read_bytes() for path in engine)).hexdigest()[:12]   # the code of a score
    return ROOT / "build" / f"generalisation_v{protocol['study']['edition']}" / f"{protocol['sha256'][:12]}-{code}"


def _refusal(args) -> str | None:
    """What is wrong with the numbers of a ``study`` command line, in words (``None``: nothing)."""
    if args.edition is not None and args.edition not in EDITIONS + IN_PROGRESS:
        return (f"--edition must be one of {', '.join(map(str, EDITIONS + IN_PROGRESS))} (the editions kept and "
                f"those in progress), not {args.edition}")
    for option, value, least in (("--jobs", getattr(args, "jobs", 1), 1), ("--cells", getattr(args, "cells", 1), 1),
                                 ("--samples", 100 if getattr(args, "samples", None) is None else args.samples, 100)):
        if value < least:
            return f"{option} must be at least {least}, not {value}"
    seed = getattr(args, "seed", None)
    if seed is not None and not 0 <= seed < 2**32:
        return f"--seed must be an integer in [0, 2**32), not {seed}"
    return None


def study(args) -> int:
    """Run the ``study`` subcommand ``args.study_command``; returns the exit status (0 done or identical, 1 a
    difference or failed folds, 2 refused)."""
    refused = _refusal(args)
    if refused:
        print(f"error: {refused}", file=sys.stderr)
        return 2
    try:
        return _command(args)
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: the folds finished are on disk
        signum = getattr(exc, "signum", signal.SIGINT)
        how = "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"
        kept = ("the folds finished are kept under build/ (rerun the same command: they are read, not recomputed)"
                if not getattr(args, "dask", None) or args.dask == "local" else
                "the folds finished are kept where the Dask workers run, under their build/")
        print(f"{how}; " + (kept if args.study_command == "run" else "nothing was stored or compared"), file=sys.stderr)
        return 128 + signum
    except ScoringError as exc:  # the folds that failed, each named; the others are kept
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except (ValueError, FileNotFoundError, IsADirectoryError, ConnectionError) as exc:  # a file, the protocol or --dask
        print(f"error: {exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}", file=sys.stderr)
        return 2


def _stored_protocol(protocol, stored_path) -> str | None:
    """The protocol hash the stored scores were made under when it is not the present one, else ``None``."""
    import json

    record = stored_path.with_name(stored_path.name.replace(".csv.gz", ".json"))
    if not stored_path.exists() or not record.exists():
        return None
    try:
        stored = json.loads(record.read_text()).get("protocol_sha256")
    except (ValueError, AttributeError):
        stored = "unreadable"
    return None if stored == protocol["sha256"] else str(stored)


def _command(args) -> int:
    edition = EDITION if args.edition is None else args.edition
    protocol = load_protocol() if edition == EDITION else load_protocol(protocol_path(edition))
    stored_path = SCORES_PATH if edition == EDITION else scores_path(edition)
    hierarchical_path = HIERARCHICAL_PATH if edition == EDITION else stored_path.with_name("hierarchical.json")
    if args.study_command == "run":
        other = _stored_protocol(protocol, stored_path)
        if other is not None and not args.write:  # refused now, not after the whole computation
            raise ValueError(
                f"the stored scores ({stored_path.relative_to(ROOT)}) were made under protocol {other[:12]}, not the "
                f"present one ({protocol['sha256'][:12]}): a fresh table could not be compared with them. Pass "
                "--write to compute the scores under the present protocol and replace the stored ones, or restore "
                f"the protocol they were made under (git checkout data/protocols/{protocol_path(edition).name}).")
        if args.dask:  # refused in seconds, before the data sets load
            check_dask_address(args.dask)
        datasets, properties = study_datasets(protocol)
        start = time.perf_counter()
        table = run_scores(datasets, protocol, folder=_parts_folder(protocol), n_jobs=args.jobs, dask=args.dask,
                           progress=False if args.no_progress else None)
        seconds = time.perf_counter() - start
        print(f"{len(table):,} scores ({table['dataset'].nunique()} data sets) in {seconds / 60:.1f} minutes")
        if stored_path.exists() and other is None:
            diff = differences(read_scores(stored_path, protocol), table)
            print("identical to the stored scores" if diff.empty else
                  f"{len(diff)} scores differ from the stored ones, e.g.\n{diff.head().to_string()}")
        if args.write or not stored_path.exists():
            write_scores(table, stored_path, protocol, properties.reset_index(), seconds)
            print(f"stored in {stored_path.relative_to(ROOT)}")
        return 0
    stored = read_scores(stored_path, protocol)
    if args.study_command == "hierarchical":
        write_hierarchical(stored, protocol, hierarchical_path, n_samples=args.samples,
                           secondary=not args.primary_only)
        print(f"stored in {hierarchical_path.relative_to(ROOT)}")
        return 0
    if args.study_command == "edges":
        return _edges(stored, protocol, stored_path, args.write)
    check_sample_size(stored, args.cells, protocol)   # before the seed is printed and anything loads
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % (2**32))
    print(f"recomputing {args.cells} stored folds drawn with seed {seed} "
          f"(python -m helpers.workbook study verify --cells {args.cells} --seed {seed} repeats it)",
          flush=True)
    start = time.perf_counter()
    seed, cells, diff = recompute_sample(stored, None, protocol, n=args.cells, seed=seed,
                                         n_jobs=args.jobs)   # loads the drawn folds' data sets only
    listed = ", ".join(f"{d} fold {f}" + (f" (repeat {r})" if r else "") for d, r, f in cells)
    print(f"recomputed {listed} in {time.perf_counter() - start:.0f} s: "
          + ("every score identical to the stored one" if diff.empty else
             f"{len(diff)} scores differ from the stored ones:\n{diff.to_string()}"))
    return 0 if diff.empty else 1


def _edges(stored, protocol, stored_path, write: bool) -> int:
    """Probe every SVC tuning on an edge; compare with the stored probe, store it where none is or with --write."""
    import pandas as pd

    from ..studies.generalisation.edge_probe import (
        check_probeable,
        edge_tunings,
        probe_edges,
        probe_path,
        read_probe,
        write_probe,
    )

    check_probeable(protocol)   # before any data set loads
    names = set(edge_tunings(stored)["dataset"])
    datasets, _ = study_datasets(protocol, names=names)
    start = time.perf_counter()
    probe = probe_edges(stored, datasets, protocol)
    seconds = time.perf_counter() - start
    print(f"{len(probe)} tunings on an edge probed in {seconds:.0f} s, {int(probe['bound'].sum())} bound by the end of "
          "their grid")
    path = probe_path(stored_path)
    same = True
    if path.exists() and not write:
        old = read_probe(path, protocol)
        try:
            pd.testing.assert_frame_equal(probe.reset_index(drop=True), old, check_dtype=False, rtol=0, atol=1e-9)
            print("identical to the stored probe")
        except AssertionError as exc:
            same = False
            print(f"the probe differs from the stored one ({path.relative_to(ROOT)}):\n{exc}")
    if write or not path.exists():
        write_probe(probe, path, protocol, seconds)
        print(f"stored in {path.relative_to(ROOT)}")
    return 0 if same else 1
