"""Result: what a method computed, as numpy arrays."""


class Result:
    """What a method computed, and what it did to compute it.

    Attributes
    ----------
    method : str
        The method that ran (the one chosen by ``method="auto"``).
    method_choice : str
        Why ``"auto"`` chose it; ``""`` when the method was named.
    t : ndarray (n_t,)
        The output times.
    x : ndarray (n_t, n_x)
        The states at the output times.
    s_times : ndarray (n_s,)
        The times at which S is given: every output time for the forward
        methods, the final time for the adjoint ones, none for methods
        without S.
    S : ndarray (n_s, n_x, n_p)
        ``S[k, i, j] = dx_i/dp_j`` at ``s_times[k]``.
    sr : ndarray (n_t, n_x, n_s) or None
        S·R for sensitivity directions R (dopri8s, grk4as).
    gradient : ndarray (n_p,) or (n_p, M)
        dG/dp of the objective(s), for the gradient methods; empty otherwise.
    gradient_x0 : ndarray (n_x,) or (n_x, M)
        dpsi/dx(t0), from the methods that report it; empty otherwise.
    objective_values : ndarray (M,)
        The objectives' values psi_m, from the methods that report them.
    bounds : dict or None
        The set-valued methods' enclosures: basis, remainder, order,
        n_monomials and their arrays by name (x_hull (n_t, n_x, 2), s_hull
        (n_s, n_x, n_p, 2), gradient_hull (n_p, 2), box_lower, ..., as in
        ``arrays``).
    arrays : dict of str to ndarray
        Every array of the result's table by the library's name (``times``,
        ``x``, ``S_times``, ``S``, ``gradient``, ``gradient_x0``,
        ``objectives``, ``SR``, then the enclosures' ``x_coef``, ...), each
        shaped as the JSON document nests it (outermost first): an output
        the library adds appears here without a change to this module.
        ``gradient`` and ``gradient_x0`` are (M, n) there for M > 1
        objectives; the attributes above are their transposes.
    stats : dict
        steps, rhs_evals, jac_evals, linear_setups, error_test_failures,
        wall_seconds, then the method's own counters.
    warnings : list of str
        What the method has reason to distrust (also issued as
        :class:`odesens.OdesensWarning`).
    p : ndarray (n_p,)
        The parameter values solved with.
    state_names, param_names : tuple of str

    The arrays are views of the library's own buffers (no copy): ``S`` is
    not C-contiguous (its layout is the library's column-major one); use
    ``numpy.ascontiguousarray`` where a function needs C order.
    """

    def __init__(self, data, model, p):
        self.method = data["method"]
        self.method_choice = data["method_choice"]
        arrays = data["arrays"]
        self.arrays = arrays
        self.t = arrays["times"]
        self.x = arrays["x"]
        self.s_times = arrays["S_times"]
        self.S = arrays["S"]
        self.sr = data["sr"]
        self.gradient = arrays["gradient"].T
        self.gradient_x0 = arrays["gradient_x0"].T
        self.objective_values = arrays["objectives"]
        self.bounds = data["bounds"]
        self.stats = data["stats"]
        self.warnings = data["warnings"]
        self.p = p
        self.state_names = model.state_names
        self.param_names = model.param_names

    def __repr__(self):
        return (f"<odesens.Result {self.method}: {len(self.t)} times, x {self.x.shape}, "
                f"S {self.S.shape}, gradient {self.gradient.shape}>")
