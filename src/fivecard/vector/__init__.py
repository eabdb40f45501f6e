"""The vector layer: many hands at once, in numpy arrays, with no files.
Strengths of arrays of hands (:mod:`~fivecard.vector.batch`), seven-card
hands (:mod:`~fivecard.vector.seven`) and wild cards
(:mod:`~fivecard.vector.wild`) in bulk, every hand of a deck counted
(:mod:`~fivecard.vector.census`), the classes of deals that play alike
(:mod:`~fivecard.vector.classes`), and the one job runner that solves a
job's parts here, on Dask or in forked processes
(:mod:`~fivecard.vector.jobs`), holding the stop signals where a stop must
wait (:mod:`~fivecard.vector.stops`).
"""
