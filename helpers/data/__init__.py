"""The data layer: one data folder (:mod:`helpers.data.paths`) and every loader.

:mod:`~helpers.data.tables` (WDBC, LFW faces, the tables typed in from the sources and their
query points), :mod:`~helpers.data.reuters` (Reuters-21578: finding the archive, its
checksummed download through pooch, the parse cache; it re-exports the names of its two
neighbours), :mod:`~helpers.data.reuters_sgml` (the distribution's files: checksums, SGML
records, archive members), :mod:`~helpers.data.reuters_splits` (ModApte, top-k and
single-label splits), :mod:`~helpers.data.mnist` (the MNIST test images),
:mod:`~helpers.data.collection` (the real classification data sets of notebook 08, and the criteria that admit them).
The data layer imports only the maths layer's private utilities, never the studies or the
workbook.
"""

from .._lazy import lazy_exports

# Imported when first used: the data folder's paths (helpers.data.paths) alone load nothing heavy.
__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".collection": ("COLLECTION", "Dataset", "collection_table", "load_dataset", "pooled_within_condition"),
    ".mnist": ("load_mnist_test",),
    ".paths": ("DATA_DIR", "PROCESSED_DIR", "RAW_DIR"),
    ".reuters": ("load_reuters21578",),
    ".tables": ("QUERIES", "list_tables", "load_animals", "load_athletes", "load_bird_ata", "load_lfw_faces",
                "load_salary_age", "load_signup", "load_table", "load_wdbc", "load_weather", "load_whiskey"),
})
