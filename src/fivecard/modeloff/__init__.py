"""The ModelOff layer: the spreadsheet tools of the ModelOff 2012 poker
challenge. Marking a spreadsheet's answers as the marking macro does
(:mod:`~fivecard.modeloff.mark`) and writing a test grid of showdowns that
covers every outcome (:mod:`~fivecard.modeloff.grid`).
"""
