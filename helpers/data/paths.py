"""Where the workbook's data live: the one setting every loader reads.

``DATA_DIR`` is the repository's ``data/`` folder (the small tables typed in from the
sources, with their provenance in ``data/README.md``); ``RAW_DIR`` (``data/raw/``, never
committed) holds the large corpora a loader downloads or is given; ``PROCESSED_DIR``
(``data/processed/``) the parse caches.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["PACKAGE", "ROOT", "DATA_DIR", "RAW_DIR", "PROCESSED_DIR"]

#: the ``helpers`` package's folder
PACKAGE = Path(__file__).resolve().parents[1]
#: the repository: the one place its root is computed
ROOT = PACKAGE.parent
DATA_DIR = ROOT / "data"
RAW_DIR = DATA_DIR / "raw"
PROCESSED_DIR = DATA_DIR / "processed"
