"""The bulk layer: many hands at once. Arrays of hands
(:mod:`~fivecard.bulk.batch`, numpy), the one pipeline that solves a chunk of
rows into columns (:mod:`~fivecard.bulk.pipeline`), reading inputs
(:mod:`~fivecard.bulk.sources`, :mod:`~fivecard.bulk.rows`,
:mod:`~fivecard.bulk.workbook`), one writer per output format
(:mod:`~fivecard.bulk.writers`), atomic outputs (:mod:`~fivecard.bulk.target`),
the library's entry points for files (:mod:`~fivecard.bulk.solve`), marking a
spreadsheet's answers (:mod:`~fivecard.bulk.mark`) and
counting every hand of a deck (:mod:`~fivecard.bulk.stats`).
"""
