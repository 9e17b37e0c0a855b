"""nbval settings for the workbook's notebooks (NOTEBOOK_PRACTICES 2.6 and 2.8).

stderr is executed but not compared (library warnings come and go with versions; the
`check` step of scripts/run_notebooks.py refuses stored stderr instead), and pandas'
text/html is not compared: its text/plain twin carries the same rounded numbers.
"""


def pytest_collectstart(collector):
    if collector.fspath and collector.fspath.ext == ".ipynb":
        collector.skip_compare += ("stderr", "text/html")
