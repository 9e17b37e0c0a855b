"""End to end, as a reader does it: JupyterLab in headless Chromium runs a notebook.

Starts ``jupyter lab`` from the venv on 127.0.0.1 with a token, opens a small notebook written
for the test (it imports the workbook's package, prints a worked example and draws a figure;
the numbered notebooks themselves are executed once per ``make test``, by nbval), runs all
cells from the Run menu, and checks that every cell ran with the expected output, that no
cell shows an error or stderr, and that the kernel is the venv's. A screenshot goes to
``build/lab_e2e.png``. Chromium comes from Debian (``.ci/run`` installs it); Playwright
drives it through ``executable_path`` (the ``chromium`` fixture of ``tests/conftest.py``), since
Playwright's own browser download is not available here.
"""

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "lab_check.ipynb"
# Worked example of the style guide: inv(cov) = [[3, -2], [-2, 4]] / 8, so the whitened cosine
# of e1 and e2 is -0.25 / sqrt(0.375 * 0.5) = -0.5774.
CELLS = [
    nbformat.v4.new_markdown_cell("# JupyterLab check"),
    nbformat.v4.new_code_cell("import helpers\nprint(helpers.__file__)"),
    nbformat.v4.new_code_cell(
        "import numpy as np\n"
        "from helpers.metrics import variance_adjusted_cosine\n"
        "from helpers.whitening import whitening_matrix\n"
        "W = whitening_matrix(np.array([[4.0, 2.0], [2.0, 3.0]]), 'cholesky')\n"
        "print(f'{variance_adjusted_cosine([1, 0], [0, 1], W):.4f}')"
    ),
    nbformat.v4.new_code_cell(
        "import matplotlib.pyplot as plt\n"
        "fig, ax = plt.subplots(figsize=(3, 2))\n"
        "ax.plot([0, 1], [0, 1])\n"
        "plt.show()"
    ),
]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.integration,
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:  # the process ended meanwhile
        return b""


def _get(url: str):
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


@pytest.fixture
def lab(tmp_path):
    nb = nbformat.v4.new_notebook(cells=CELLS)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / NOTEBOOK)
    port, token = _free_port(), secrets.token_hex(16)
    jupyter = Path(sys.executable).with_name("jupyter")
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    proc = subprocess.Popen(
        [str(jupyter), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={tmp_path}",
         "--ServerApp.open_browser=False", "--allow-root", "--LabApp.news_url=",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                _get(f"{base}/api/status?token={token}")
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("jupyter lab did not start within 60 s")
        yield base, token, tmp_path
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_notebook_runs_in_jupyterlab_on_the_venv_kernel(chromium, lab, tmp_path):
    base, token, root = lab
    copy = root / NOTEBOOK
    shot = ROOT / "build" / "lab_e2e.png"
    shot.parent.mkdir(exist_ok=True)
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{base}/lab/tree/{NOTEBOOK}?token={token}")
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=90_000)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    # JupyterLab renders only the visible cells, so read progress from the saved file:
    # save (Ctrl+S) until every code cell has an execution count and the kernel is idle
    deadline = time.monotonic() + 120
    while True:
        page.keyboard.press("Control+s")
        time.sleep(1)
        nb = json.loads(copy.read_text())
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        idle = page.get_by_text("Python 3 (ipykernel) | Idle").count() > 0
        if all(c.get("execution_count") for c in code) and idle:
            break
        if time.monotonic() > deadline:
            page.screenshot(path=str(shot))
            pytest.fail(f"not every cell ran within 120 s; see {shot}")
    page.screenshot(path=str(shot))
    page.close()
    bad = [
        (i, out.get("ename") or out.get("text", "")[:200])
        for i, cell in enumerate(code)
        for out in cell["outputs"]
        if out["output_type"] == "error" or out.get("name") == "stderr"
    ]
    assert bad == [], f"cells with errors or stderr: {bad}; see {shot}"
    printed = ["".join(out["text"]).strip() for c in code for out in c["outputs"] if out.get("name") == "stdout"]
    assert printed == [str(ROOT / "helpers" / "__init__.py"), "-0.5774"]  # the workbook's package, its maths
    assert [sum("image/png" in out.get("data", {}) for out in c["outputs"]) for c in code] == [0, 0, 1]

    sessions = _get(f"{base}/api/sessions?token={token}")
    assert [s["kernel"]["name"] for s in sessions] == ["python3"]
    # the kernel process runs the venv's interpreter (found by its connection file in /proc)
    kernel_id = sessions[0]["kernel"]["id"]
    cmdlines = map(_read, Path("/proc").glob("[0-9]*/cmdline"))
    argv = [cmd.split(b"\0") for cmd in cmdlines if f"kernel-{kernel_id}".encode() in cmd]
    assert argv, "kernel process not found"
    assert Path(argv[0][0].decode()).parent == Path(sys.executable).parent
    assert "covsim-workbook" in _get(f"{base}/api/kernelspecs?token={token}")["kernelspecs"]
