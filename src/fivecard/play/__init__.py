"""The play layer: dealing rounds (:mod:`~fivecard.play.deal`), pay tables
(:mod:`~fivecard.play.paytables`), the exact advisor
(:mod:`~fivecard.play.advise`), the dealer game
(:mod:`~fivecard.play.game`), and the whole game solved: a pay table
(:mod:`~fivecard.play.strategy`) or the game against the dealer
(:mod:`~fivecard.play.dealer`) over the classes of deals that play alike
(:mod:`~fivecard.vector.classes`), in parts run here or on Dask
(:mod:`~fivecard.vector.jobs`), and read as a ranked hold list
(:mod:`~fivecard.play.holds`), and a game's bankroll figures from its
final hands (:mod:`~fivecard.play.risk`); with no input or output of
their own.
"""
