"""``python -m helpers.workbook coverage|readme``: the source-ledger coverage of the committed notebooks."""

from .ledger import main

raise SystemExit(main())
