"""nbval settings for the workbook's notebooks.

stderr is executed but not compared: library warnings come and go with versions, and the
`check` command (`python -m helpers.workbook check`) refuses stored stderr anyway. pandas' text/html is
not compared either: its text/plain twin carries the same rounded numbers, while the HTML
changes whenever pandas tweaks its styling.
"""


def pytest_collectstart(collector):
    if collector.path.suffix == ".ipynb":
        collector.skip_compare += ("stderr", "text/html")
