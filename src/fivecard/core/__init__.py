"""The core layer: cards and their notation (:mod:`~fivecard.core.cards`),
hands (:mod:`~fivecard.core.hand`), rule sets as data
(:mod:`~fivecard.core.rules`: a ladder of categories per rule set), the
lookup tables built from them (:mod:`~fivecard.core.lookup`, cached by
:mod:`~fivecard.core.lookup_cache`; what every hand of a strength shares,
as columns: :mod:`~fivecard.core.columns`), evaluation of one hand
(:mod:`~fivecard.core.evaluate`), showdowns and their explanations
(:mod:`~fivecard.core.showdown`: the one result model), and their JSON and
terminal forms (:mod:`~fivecard.core.report`). Nothing here needs numpy.
"""
