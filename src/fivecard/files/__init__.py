"""The files layer: rows in, answers out. Reading inputs
(:mod:`~fivecard.files.sources`, :mod:`~fivecard.files.rows`,
:mod:`~fivecard.files.workbook`), the one pipeline that solves a chunk of
rows into columns (:mod:`~fivecard.files.pipeline`), a big file on several
cores (:mod:`~fivecard.files.parallel`), one writer per output format
(:mod:`~fivecard.files.writers`), outputs written atomically
(:mod:`~fivecard.files.target`), and the library's entry points for files
(:mod:`~fivecard.files.solve`).
"""
