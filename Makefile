# Covariance-aware similarity workbook. `make help` lists the targets.
# Every target sets itself up: a fresh clone with python3 (3.11+) and the package registry is enough.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
KERNEL := covsim-workbook
NBVAL_FLAGS := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
# Two pytest-xdist workers; a file (a notebook's cells share one kernel) stays on one worker,
# and files start in the order tests/conftest.py gives them: the slowest first.
XDIST_FLAGS := -n 2 --dist loadfile --no-loadscope-reorder

# `make run` draws an overall progress bar on a terminal. The export below hides the kernels'
# own bars (they would be stored as stderr); a TQDM_DISABLE set by the caller hides this bar too.
RUN_FLAGS := $(if $(filter-out 0 false False,$(TQDM_DISABLE)),--no-progress)

# Same BLAS conditions when outputs are generated and when nbval checks them
# (last-digit differences otherwise); figures must not vanish under an inherited Agg backend.
export OMP_NUM_THREADS      := 1
export OPENBLAS_NUM_THREADS := 1
export MKL_NUM_THREADS      := 1
export PYTHONHASHSEED       := 0
export TQDM_DISABLE         := 1
unexport MPLBACKEND

.DEFAULT_GOAL := help
.PHONY: help setup run study book test unit lint lab notebooks ledger bench bench-workbook clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

# Setup prints one line. setuptools warns at every editable install that a folder named like the
# package may shadow it; here that folder is the package, so that one warning is filtered.
$(STAMP): pyproject.toml
	@echo "setting up $(VENV): the package, its tools, the Jupyter kernel (first run, and after pyproject.toml changes)"
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --upgrade pip
	@PYTHONWARNINGS="ignore:Editable installation" $(PY) -m pip install --quiet -e ".[dev]"
	@$(PY) -m ipykernel install --sys-prefix --name $(KERNEL) --display-name "Python (covsim workbook)" >/dev/null
	@touch $(STAMP)

setup: $(STAMP) ## create .venv, install the package and its tools, register the Jupyter kernel

run: $(STAMP) ## recompute the own study's scores (compared with the stored ones), execute every notebook into build/, then the book
	@$(PY) -m helpers.studies.generalisation run --jobs 2 $(if $(filter --no-progress,$(RUN_FLAGS)),--no-progress)
	@$(PY) -m helpers.workbook run --out build $(RUN_FLAGS)

study: $(STAMP) ## recompute the own study's scores only (resumable; about 45 minutes on two cores) and compare
	@$(PY) -m helpers.studies.generalisation run --jobs 2

book: $(STAMP) ## build the book build/book/index.html from what `make run` left in build/ (executes nothing)
	@$(PY) -m helpers.workbook book --out build

# pytest exits with 5 when it collected nothing; make would report that as a plain failure,
# so say what happened (CI must never pass, or fail silently, on an empty run).
NO_TESTS = status=$$?; [ $$status -ne 5 ] || echo "pytest collected no tests: failing on purpose" >&2; exit $$status

test: $(STAMP) ## everything: ruff, notebook check, unit + integration tests, doctests, nbval (each notebook once)
	$(VENV)/bin/ruff check .
	$(PY) -m helpers.workbook check
	$(PY) -m pytest tests helpers --doctest-modules $(NBVAL_FLAGS) $(XDIST_FLAGS) notebooks; $(NO_TESTS)

unit: $(STAMP) ## the fast tier: unit tests and doctests, no notebook execution (-m "not integration")
	$(PY) -m pytest tests helpers --doctest-modules -m "not integration"; $(NO_TESTS)

lint: $(STAMP) ## ruff over helpers, tests, benchmarks and notebooks (settings in pyproject.toml)
	$(VENV)/bin/ruff check .

lab: $(STAMP) ## JupyterLab on the workbook's kernel
	$(VENV)/bin/jupyter lab notebooks

notebooks: $(STAMP) ## re-execute notebooks in place to refresh stored outputs (review the diff)
	$(PY) -m helpers.workbook refresh $(NB)

ledger: $(STAMP) ## check data/source_ledger.csv against the source texts; refresh README's coverage table
	@if [ -f ../shared/tools/check_ledger.py ]; then $(PY) ../shared/tools/check_ledger.py; \
	 else echo "../shared/tools/check_ledger.py is not beside the workbook: transcriptions not checked"; fi
	$(PY) -m helpers.workbook readme

bench: $(STAMP) ## benchmarks against scipy and scikit-learn, cases 1-6 (not part of make test)
	for f in benchmarks/bench_*.py; do $(PY) $$f || exit 1; done

bench-workbook: $(STAMP) ## benchmark case 7: wall time of make unit, test and run on a fresh clone (~10 min)
	$(PY) benchmarks/workbook_timing.py

clean: ## remove build/ (keeps .venv)
	rm -rf build
