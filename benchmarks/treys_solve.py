"""A plain treys script for comparison with `fivecard solve`: read a
Project-Euler-style file (ten cards a line) and write a CSV of line, input,
each hand's category, the winner and a category-level explanation (treys
cannot say which kicker decided).

    python benchmarks/treys_solve.py INPUT OUTPUT
"""

from __future__ import annotations

import csv
import sys

from treys import Card, Evaluator


def main() -> None:
    source, target = sys.argv[1], sys.argv[2]
    evaluator = Evaluator()
    new = Card.new
    with open(source) as lines, open(target, "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["line", "input", "hand 1 category", "hand 2 category", "winner", "explanation"])
        for number, text in enumerate(lines, 1):
            cards = [new(t[0] + t[1].lower()) for t in text.split()]
            first = evaluator.evaluate(cards[:5], [])
            second = evaluator.evaluate(cards[5:], [])
            name1 = evaluator.class_to_string(evaluator.get_rank_class(first))
            name2 = evaluator.class_to_string(evaluator.get_rank_class(second))
            if first == second:
                winner, why = "1,2", f"Draw: both {name1}"
            elif first < second:  # treys: lower is better
                winner, why = "1", f"Hand 1 wins: {name1} against {name2}"
            else:
                winner, why = "2", f"Hand 2 wins: {name2} against {name1}"
            writer.writerow([number, text.strip(), name1, name2, winner, why])


if __name__ == "__main__":
    main()
