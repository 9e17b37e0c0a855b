# Covariance-aware similarity workbook. `make help` lists the targets.
# Every target sets itself up: a fresh clone with python3 (3.11+) and the package registry is enough.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
KERNEL := covsim-workbook
# The environment is locked: exact versions and hashes of everything `make setup` installs
# (`make lock` refreshes them). uv, itself pinned by hash in $(UV_LOCK), installs the lock 6-13
# times faster than pip (benchmarks/README.md, case 10); `make setup INSTALLER=pip` installs
# the same lock with pip alone.
LOCK      := requirements/lock.txt
UV_LOCK   := requirements/uv.txt
UV        := $(VENV)/bin/uv
INSTALLER ?= uv
# The lock holds for every platform and for Python 3.11.5 onwards (soupsieve, pulled in by the
# book's theme, needs 3.11.5). `make lock LOCK_UPGRADE=` keeps the current pins where pyproject.toml
# allows them; `LOCK_UPGRADE="--upgrade-package numpy"` moves one package.
LOCK_UPGRADE ?= --upgrade
LOCK_FLAGS   := --quiet --generate-hashes --universal --python-version 3.11.5 --custom-compile-command "make lock"
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
.PHONY: help setup lock run study book test unit lint lab notebooks ledger bench bench-workbook bench-setup clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

# uv comes from PyPI into .venv, at the version and hashes of $(UV_LOCK): no second install step.
$(UV): $(UV_LOCK)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r $(UV_LOCK)
	@touch $@

# Setup prints one line. The lock is synced (uv removes what it does not hold; hashes are
# required), then the workbook itself is installed in editable mode, without dependencies and
# with the locked setuptools (no build isolation: nothing unlocked is downloaded). setuptools
# warns at every editable install that a folder named like the package may shadow it; here that
# folder is the package, so that one warning is filtered. The packages are compiled to bytecode
# once, at install (as pip does; uv does not unless asked): where PYTHONDONTWRITEBYTECODE is set,
# every Python process and notebook kernel would otherwise compile numpy, pandas, scikit-learn
# and the rest from source again, about 3.5 s each (benchmarks/README.md, case 7).
ifeq ($(INSTALLER),pip)
$(STAMP): pyproject.toml $(LOCK)
	@echo "setting up $(VENV) from $(LOCK) with pip (exact versions, hashes checked): the packages, the workbook, the Jupyter kernel"
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes -r $(LOCK)
	@PYTHONWARNINGS="ignore:Editable installation" $(PY) -m pip install --quiet --disable-pip-version-check \
		--no-deps --no-build-isolation -e .
else
$(STAMP): pyproject.toml $(LOCK) $(UV)
	@echo "setting up $(VENV) from $(LOCK) (exact versions, hashes checked): the packages, the workbook, the Jupyter kernel"
	@$(UV) pip sync --quiet --python $(PY) --require-hashes --compile-bytecode $(LOCK)
	@PYTHONWARNINGS="ignore:Editable installation" $(UV) pip install --quiet --python $(PY) \
		--no-deps --no-build-isolation -e .
endif
	@$(PY) -m ipykernel install --sys-prefix --name $(KERNEL) --display-name "Python (covsim workbook)" >/dev/null
	@touch $(STAMP)

setup: $(STAMP) ## create .venv, install the locked packages and the workbook, register the Jupyter kernel

# The lock covers pyproject.toml's dependencies with the dev extra (what `make setup` installs)
# and the build backend that the editable install uses, within requirements/constraints.txt
# (each constraint with its reason); uv's own pin is refreshed with it.
lock: $(UV) ## refresh requirements/ to the newest versions pyproject.toml allows (then make notebooks, review the diff, make test)
	$(PY) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires'], sep='\n')" \
		| $(UV) pip compile pyproject.toml - --extra dev -c requirements/constraints.txt $(LOCK_FLAGS) $(LOCK_UPGRADE) -o $(LOCK)
	echo uv | $(UV) pip compile - $(LOCK_FLAGS) $(LOCK_UPGRADE) -o $(UV_LOCK)

# `make run` checks the own study on a random sample of its stored folds (the seed and the folds are printed,
# any difference is fatal; about 1-3 minutes); `make study` recomputes every fold.
STUDY_SAMPLE ?= 8
run: $(STAMP) ## recompute a random sample of the own study's folds (any difference fails), execute every notebook into build/, then the book
	@$(PY) -m helpers.workbook study verify --cells $(STUDY_SAMPLE) --jobs 2
	@$(PY) -m helpers.workbook run --out build $(RUN_FLAGS)

study: $(STAMP) ## recompute every score of the own study's present edition (resumable; about 50 minutes on two cores) and compare with the stored ones
	@$(PY) -m helpers.workbook study run --jobs 2

book: $(STAMP) ## build the book build/book/index.html from what `make run` left in build/ (executes nothing)
	@$(PY) -m helpers.workbook book --out build

# The workbook's own modules are compiled to bytecode before the tests (only the changed ones; the
# locked packages were compiled at setup): where PYTHONDONTWRITEBYTECODE is set, each of the many
# processes a test run starts (pytest workers, notebook kernels, command lines, Sphinx) would
# otherwise compile helpers/ from source again (benchmarks/README.md, case 7).
BYTECODE = $(PY) -m compileall -q -j 2 helpers

# pytest exits with 5 when it collected nothing; make would report that as a plain failure,
# so say what happened (CI must never pass, or fail silently, on an empty run).
NO_TESTS = status=$$?; [ $$status -ne 5 ] || echo "pytest collected no tests: failing on purpose" >&2; exit $$status

test: $(STAMP) ## everything: ruff, the CI workflow's schema, notebook check, unit + integration tests, doctests, nbval (each notebook once)
	@$(PY) tests/lockfile.py
	@$(BYTECODE)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/ci.yml
	$(PY) -m helpers.workbook check
	$(PY) -m pytest tests helpers --doctest-modules $(NBVAL_FLAGS) $(XDIST_FLAGS) notebooks; $(NO_TESTS)

unit: $(STAMP) ## the fast tier: unit tests and doctests, no notebook execution (-m "not integration"), two workers
	@$(PY) tests/lockfile.py
	@$(BYTECODE)
	$(PY) -m pytest tests helpers --doctest-modules -m "not integration" -n 2 --dist worksteal; $(NO_TESTS)

lint: $(STAMP) ## ruff over helpers, tests, benchmarks and notebooks (settings in pyproject.toml)
	$(VENV)/bin/ruff check .

lab: $(STAMP) ## JupyterLab on the workbook's kernel
	$(VENV)/bin/jupyter lab notebooks

notebooks: $(STAMP) ## re-execute notebooks in place to refresh stored outputs (review the diff)
	$(PY) -m helpers.workbook refresh $(NB)

ledger: $(STAMP) ## check data/source_ledger.csv against the source texts; refresh README's coverage table
	$(PY) -m helpers.workbook transcriptions
	$(PY) -m helpers.workbook readme

bench: $(STAMP) ## benchmarks: cases 1-6 against scipy and scikit-learn, 8 the own study, 9 memory (not part of make test)
	for f in $(filter-out benchmarks/bench_setup.py,$(wildcard benchmarks/bench_*.py)); do $(PY) $$f || exit 1; done

bench-workbook: $(STAMP) ## benchmark case 7: wall time of make unit, test and run on a fresh clone (~10 min)
	$(PY) benchmarks/workbook_timing.py

bench-setup: $(STAMP) ## benchmark case 10: setup time of a fresh clone: make setup with uv and with pip, empty and filled caches (pip's runs take most of it)
	$(PY) benchmarks/bench_setup.py

clean: ## remove build/ (keeps .venv)
	rm -rf build
