# SPDX-License-Identifier: LGPL-2.1-or-later
"""The figures: records of one measured quantity over the repetitions
as median and interquartile range, and how two figures compare."""

# Metrics where more is better; everything else is a cost.
HIGHER_IS_BETTER = {"switches_per_s"}


def quantile(sorted_values, p):
    """Linear between the order statistics (R type 7): with 5 runs the
    quartiles are the 2nd and 4th, so one outlier each side cannot move them."""
    h = (len(sorted_values) - 1) * p
    i = int(h)
    if i + 1 >= len(sorted_values):
        return sorted_values[-1]
    return sorted_values[i] + (h - i) * (sorted_values[i + 1] - sorted_values[i])


class Figure:
    """One measured quantity: its values over the repetitions."""

    def __init__(self, unit, exact):
        self.unit, self.exact, self.values = unit, exact, []

    def finish(self):
        v = sorted(self.values)
        self.median = quantile(v, 0.5)
        self.low, self.high = quantile(v, 0.25), quantile(v, 0.75)
        self.min, self.max = v[0], v[-1]
        return self

    def overlaps(self, other):
        return self.low <= other.high and other.low <= self.high

    def as_json(self):
        return {"median": self.median, "q1": self.low, "q3": self.high,
                "min": self.min, "max": self.max, "runs": self.values,
                "unit": self.unit, "exact": self.exact}

    def cell(self):
        if self.exact:
            return number(self.median)
        if self.low == self.high:
            return number(self.median)
        return f"{number(self.median)} [{number(self.low)}..{number(self.high)}]"


def number(x):
    if x is None:
        return "-"
    if float(x).is_integer() and abs(x) < 1e7:
        return str(int(x))
    if abs(x) >= 1000:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.3g}"


def aggregate(records):
    """(suite, target, entry, clock, config, metric) -> Figure, in the order
    the records came."""
    figures = {}
    for r in records:
        key = (r["suite"], r["target"], r["entry"], r["clock"], r["config"], r["metric"])
        figures.setdefault(key, Figure(r["unit"], r["exact"])).values.append(r["value"])
    return {k: f.finish() for k, f in figures.items()}


class Comparison:
    """How A fares against B (B the reference): the ratio of the medians,
    oriented so that above 1 is better for A, its range from the spreads,
    and a verdict that is 'same' where the spreads overlap."""

    def __init__(self, a, b, metric):
        higher = metric in HIGHER_IS_BETTER
        self.ratio = a.median / b.median if higher else b.median / a.median
        if higher:
            self.low, self.high = a.low / b.high, a.high / b.low
        else:
            self.low, self.high = b.low / a.high, b.high / a.low
        if a.exact and b.exact:
            self.verdict = ("same" if a.median == b.median
                            else "better" if self.ratio > 1 else "worse")
        elif a.overlaps(b):
            self.verdict = "same"
        else:
            self.verdict = "faster" if self.ratio > 1 else "slower"

    def cell(self):
        return f"{self.ratio:.2f}x {self.verdict}"

    def as_json(self):
        return {"ratio": self.ratio, "low": self.low, "high": self.high,
                "verdict": self.verdict}


def compare(a, b, metric):
    return Comparison(a, b, metric) if a and b and a.median and b.median else None


class RoundsComparison(Comparison):
    """A against B measured taking turns, the i-th value of each in the
    same round (the kernel suite's boots): each round's ratio, oriented as
    Comparison's; their median and range; 'faster' or 'slower' only where
    every round agrees.  A drift of the host's load between rounds moves
    both of a round alike, which a comparison of the two spreads would
    take for a difference of the code's or hide one by."""

    def __init__(self, a, b, metric):
        higher = metric in HIGHER_IS_BETTER
        ratios = sorted((x / y if higher else y / x) for x, y in zip(a.values, b.values))
        self.ratio = quantile(ratios, 0.5)
        self.low, self.high = ratios[0], ratios[-1]
        self.verdict = ("faster" if self.low > 1 else "slower" if self.high < 1 else "same")


def compare_rounds(a, b, metric):
    """RoundsComparison where both have a value in every round and none is 0."""
    if not a or not b or len(a.values) != len(b.values) or 0 in a.values + b.values:
        return None
    return RoundsComparison(a, b, metric)


def is_control(entry, clock):
    """The controls: the process CPU-time clock, which the vDSO hands to the
    system call, and the null system call; they should come out 'same'."""
    return (clock or "").startswith("PROCESS_CPUTIME") or entry == "getppid"
