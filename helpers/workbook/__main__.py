"""``python -m helpers.workbook COMMAND``: the workbook's command line (:mod:`helpers.workbook.cli`).

Kept to an import and a guarded call: worker processes of ``run`` import this module again.
"""

from .cli import console

if __name__ == "__main__":
    raise SystemExit(console())
