"""Results of multi-start fits and profile likelihoods of PEtab problems.

Made by :meth:`odesens.petab.Problem.fit` and
:meth:`odesens.petab.Problem.profile`, which run the library's optimizers
(docs/fit.md) with the GIL released; drawn by
:func:`odesens.plot.waterfall` and :func:`odesens.plot.profiles`.
"""

import numpy

from ._errors import invalid_argument


class FitResult:
    """The starts of a multi-start fit, sorted by final nlpost (the
    waterfall; failed starts last, with NaN values).

    Attributes (row k is the k-th start of the waterfall):

    ``index`` (K,) the start's number among all that ran: the starts drawn
    or given from 0, then the hops'; ``round`` (K,) 0, or the hop round
    (``hops`` rounds of ``hop_starts`` at ``hop_sigma``, flat parameters
    drawn as ``hop_flat`` says, "" without hops; ``hop_blocks`` True where
    every second hop point redrew one of the problem's ``hop_block_count``
    blocks: Problem.fit); ``redrawn`` (K x n) True where the start is a
    hop point that redrew that parameter's block from its range (the
    others held at its round's center, but for those flat there, drawn
    from their range with ``hop_flat="box"``);
    ``start``, ``end`` (K x n) points on the parameters' scales;
    ``nllh``, ``nlpost``, ``gradient_norm`` (largest projected-gradient
    component at the end), ``iterations``, ``evaluations``, ``seconds`` (K,)
    arrays; ``exit_reason``, ``status`` (K) lists of str ("ok" or the
    failure's status); ``best`` the best end point (None when no start
    succeeded); ``starts_at_best`` the starts within 0.1 of the best
    nlpost; ``flat_at_best`` the ids of the parameters whose gradient of
    nlpost is exactly 0 at ``best`` (nothing depends on them there, so the
    data do not determine them; empty when none is, and where the best
    start's time limit or a stop ended it before its gradient there);
    ``optimizer`` what ran ("auto" resolved); ``seed``;
    ``starts_planned``; ``parameter_ids``.
    """

    def __init__(self, data, parameter_ids):
        self.__dict__.update(data)
        self.parameter_ids = list(parameter_ids)
        self.flat_at_best = [self.parameter_ids[i] for i in data.get("flat_at_best", [])]

    @property
    def best(self):
        if len(self.nlpost) == 0 or not numpy.isfinite(self.nlpost[0]):
            return None
        return self.end[0].copy()

    def __len__(self):
        return len(self.nlpost)

    def __repr__(self):
        best = self.nlpost[0] if len(self.nlpost) else float("nan")
        return (f"<odesens.fit.FitResult {self.optimizer}: {len(self)} starts, best nlpost "
                f"{best!r}, {self.starts_at_best} within 0.1 of it>")


class Profile:
    """The profile likelihood of one parameter: nlpost with the parameter
    held at each of ``values`` and the other estimated parameters
    re-optimized.

    Attributes: ``id``, ``parameter`` (index among the estimated ones),
    ``start`` (its value at the starting point), ``best_nlpost`` (there),
    ``threshold`` (the nlpost rise of the confidence level), ``values``,
    ``nlpost`` (arrays, sorted by value), ``x`` (the whole points, one row
    per value), ``exit_reason`` (per point), ``lower``, ``upper`` (the
    confidence interval on the parameter's scale), ``lower_end``,
    ``upper_end`` (how each side ended: "crossed" closes it; "bound",
    "max_points", "failed", "stopped" leave it open), ``lower_failure``,
    ``upper_failure`` (a failed side: the value tried and why; "" otherwise),
    ``found_better``
    (a point below the start's nlpost: the start was not the optimum).
    """

    def __init__(self, data):
        self.__dict__.update(data)

    lower_open = property(lambda self: self.lower_end != "crossed")
    upper_open = property(lambda self: self.upper_end != "crossed")

    def __repr__(self):
        left = "(" if self.lower_open else "["
        right = ")" if self.upper_open else "]"
        return (f"<odesens.fit.Profile {self.id}: {left}{self.lower!r}, {self.upper!r}{right}, "
                f"{len(self.values)} points>")


def parameter_indices(parameter_ids, parameters):
    """Indices of ``parameters`` (ids or indices, or one of either) among
    ``parameter_ids``; None stays None (every parameter). Raises
    Error(invalid_argument) for an unknown id or an index out of range."""
    if parameters is None:
        return None
    if isinstance(parameters, (bytes, bytearray)):
        raise invalid_argument(f"parameters are ids (str) or indices, got bytes {parameters!r}")
    if isinstance(parameters, (str, int, numpy.integer)):
        parameters = [parameters]
    try:
        parameters = list(parameters)
    except TypeError:
        raise invalid_argument(f"parameters are an id, an index or a list of them, got "
                               f"{parameters!r}") from None
    indices = []
    for p in parameters:
        if isinstance(p, str):
            if p not in parameter_ids:
                raise invalid_argument(f"'{p}' is not an estimated parameter of the problem")
            i = parameter_ids.index(p)
        elif isinstance(p, (int, numpy.integer)) and not isinstance(p, (bool, numpy.bool_)):
            i = int(p)
            if not 0 <= i < len(parameter_ids):
                raise invalid_argument(
                    f"parameter index {i} is outside 0..{len(parameter_ids) - 1}")
        else:
            raise invalid_argument(f"a parameter is an id or a whole index, got {p!r}")
        if i in indices:
            raise invalid_argument(f"parameter '{parameter_ids[i]}' is named twice")
        indices.append(i)
    if not indices:
        raise invalid_argument("no parameters to profile (None profiles every one)")
    return indices
