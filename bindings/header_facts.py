"""What odesens.h means that its C types do not say.

The header parser (odesens_header.py) derives every argument's kind from
its C type, and these few facts settle the cases a type leaves open. Each
names a function and a parameter; the parser refuses a fact about a
function or parameter the header does not declare, so none goes stale.
"""

# A non-const `double*` or `int64_t*` followed by an int64_t `len` or `n` is
# a caller's buffer of that many values; without such a length it is one
# value written by the call. These are buffers whose length is elsewhere.
ARRAY_OUTPUTS = {
    ("odesens_solver_solve_ensemble", "statuses"),  # n_members values, or NULL
    ("odesens_petab_parameter_bounds", "lower"),  # len values (after `nominal`), or NULL
    ("odesens_petab_parameter_bounds", "upper"),
    ("odesens_petab_evaluate", "gradient"),  # n values, or NULL: not computed
    ("odesens_petab_evaluate", "fim"),  # n x n values, or NULL: not computed
    ("odesens_profile_result_points", "values"),  # len values (after `nlpost`), or NULL
}

# A `const char*` is a NUL-terminated string; these may also be NULL, with
# a meaning of their own (bindings that can pass NULL let the caller do so).
NULLABLE_STRINGS = {
    ("odesens_model_from_sbml_file", "sens_params"),  # NULL: the default set
    ("odesens_petab_evaluate", "method"),  # NULL (or ""): "auto"
    ("odesens_fit_options_set_optimizer", "optimizer"),  # NULL (or ""): "auto"
    ("odesens_fit_options_set_method", "method"),  # NULL (or ""): "auto"
}

# Enums whose values travel as C int: the status every function returns
# (and odesens_status_string takes). The other enums' values are passed
# and reported as int64_t.
INT_ENUMS = {"odesens_status"}
