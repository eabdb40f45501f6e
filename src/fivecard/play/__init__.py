"""The play layer: dealing rounds (:mod:`~fivecard.play.deal`), the exact
advisor (:mod:`~fivecard.play.advise`) and the dealer game
(:mod:`~fivecard.play.game`), with no input or output of their own.
"""
