"""
    ODESens

Julia interface to libodesens, parameter sensitivities of ODE systems
`dx/dt = f(t, x, p)`, `x(t0) = x0(p)`, through its C ABI (`odesens.h`).

Two layers:

- **Low level**: one Julia function per C function, with the same name and
  arguments (`odesens_solve(solver, result_ref)`), each a single `ccall`,
  and the constants of `odesens.h`, all generated from the header
  (`generated/odesens_raw.jl`). They return the C status and never throw.
- **High level**: [`Model`](@ref), [`builtin_model`](@ref), [`Solver`](@ref),
  [`solve`](@ref) and [`Result`](@ref): Julia arrays in, Julia arrays out,
  handles freed by finalizers, and every failure raised as an
  [`ODESensError`](@ref) carrying the library's message.

```julia
include("ODESens.jl"); using .ODESens
m = builtin_model("chua")
s = Solver(m, "cvodes_fsa"; times = [1.0, 2.0, 5.0], rtol = 1e-8, atol = 1e-10)
r = solve(s)
r.s[:, :, end]          # S = dx/dp at t = 5, nx × np
```

The low level takes C function pointers made with `@cfunction`, for
callbacks that need no Julia state (`user` is passed through untouched):

```julia
function decay(t::Cdouble, x::Ptr{Cdouble}, p::Ptr{Cdouble}, xdot::Ptr{Cdouble},
               user::Ptr{Cvoid})::Cint
    unsafe_store!(xdot, -unsafe_load(p, 1) * unsafe_load(x, 1))
    return 0
end
f = @cfunction(decay, Cint, (Cdouble, Ptr{Cdouble}, Ptr{Cdouble}, Ptr{Cdouble}, Ptr{Cvoid}))
handle = Ref{Ptr{Cvoid}}(C_NULL)
ODESens.odesens_model_create(1, 1, f, C_NULL, handle) == ODESens.ODESENS_OK
```

The library is found as `libodesens` on the system's search path, or at the
path in the environment variable `ODESENS_LIBRARY` when the module is loaded.

Threading: a handle (model, solver) is used by one task at a time; distinct
solvers may be solved on different threads. Julia callbacks are then called
on those threads.
"""
module ODESens

export ODESensError, Model, Solver, Result, Bounds, builtin_model, model_from_file, solve,
       solve_ensemble, method_ids,
       method_options, set_params!, set_initial_state!, set_t0!, set_output_times!,
       set_tolerances!, set_max_steps!, set_adjoint_weights!, set_objectives!, set_integrand!,
       set_sens_directions!, set_param_box!, set_objective_data!, set_option!, add_observable!,
       model_sizes, nominal_params, state_names, param_names, PetabProblem, petab_evaluate

const libodesens = get(ENV, "ODESENS_LIBRARY", "libodesens")

# Low level: the constants of odesens.h and one function per C function,
# generated from the header (bindings/generate_bindings.py). They call the
# library named by `libodesens`.
include(joinpath("generated", "odesens_raw.jl"))

# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

"""
    ODESensError(status, name, message)

A failed library call: `status` is the C status code (`ODESENS_ERR_*`),
`name` its fixed text, `message` what went wrong in the library's words
(for a failing Julia callback, followed by the callback's own exception).
"""
struct ODESensError <: Exception
    status::Int
    name::String
    message::String
end

Base.showerror(io::IO, e::ODESensError) =
    print(io, "ODESensError ", e.status, " (", e.name, "): ", e.message)

# Throws the library's error for `status` unless it is ODESENS_OK; `handle`
# is the handle the call was made on (C_NULL for create functions).
function check(status::Integer, handle::Ptr{Cvoid} = C_NULL)
    status == ODESENS_OK && return nothing
    throw(ODESensError(status, unsafe_string(odesens_status_string(status)),
                       unsafe_string(odesens_errmsg(handle))))
end

# ---------------------------------------------------------------------------
# Callbacks: Julia functions behind C function pointers
# ---------------------------------------------------------------------------

# What the C callbacks receive as `user`: the Julia functions and sizes.
# Kept alive by the Model (and, through it, by every Solver of the model).
mutable struct CallbackData
    nx::Int
    np::Int
    f!::Any
    jac_x!::Any
    jac_p!::Any
    x0!::Any
    dx0dp!::Any
    error::Any   # exception thrown by a Julia callback during the last solve
end

# Runs a Julia callback; an exception becomes status 1 for the library and
# is kept to be reported by `solve`.
function guarded_call(f, data::CallbackData, args...)::Cint
    try
        f(args...)
        return Cint(0)
    catch err
        data.error = err
        return Cint(1)
    end
end

_data(user::Ptr{Cvoid}) = unsafe_pointer_to_objref(user)::CallbackData

function _rhs(t::Cdouble, x::Ptr{Cdouble}, p::Ptr{Cdouble}, xdot::Ptr{Cdouble},
              user::Ptr{Cvoid})::Cint
    d = _data(user)
    guarded_call(d.f!, d, unsafe_wrap(Array, xdot, d.nx), unsafe_wrap(Array, x, d.nx),
                 unsafe_wrap(Array, p, d.np), t)
end

function _jac_x(t::Cdouble, x::Ptr{Cdouble}, p::Ptr{Cdouble}, J::Ptr{Cdouble},
                user::Ptr{Cvoid})::Cint
    d = _data(user)
    guarded_call(d.jac_x!, d, unsafe_wrap(Array, J, (d.nx, d.nx)), unsafe_wrap(Array, x, d.nx),
                 unsafe_wrap(Array, p, d.np), t)
end

function _jac_p(t::Cdouble, x::Ptr{Cdouble}, p::Ptr{Cdouble}, Jp::Ptr{Cdouble},
                user::Ptr{Cvoid})::Cint
    d = _data(user)
    guarded_call(d.jac_p!, d, unsafe_wrap(Array, Jp, (d.nx, d.np)), unsafe_wrap(Array, x, d.nx),
                 unsafe_wrap(Array, p, d.np), t)
end

function _x0(p::Ptr{Cdouble}, x0::Ptr{Cdouble}, user::Ptr{Cvoid})::Cint
    d = _data(user)
    guarded_call(d.x0!, d, unsafe_wrap(Array, x0, d.nx), unsafe_wrap(Array, p, d.np))
end

function _dx0dp(p::Ptr{Cdouble}, dx0dp::Ptr{Cdouble}, user::Ptr{Cvoid})::Cint
    d = _data(user)
    guarded_call(d.dx0dp!, d, unsafe_wrap(Array, dx0dp, (d.nx, d.np)),
                 unsafe_wrap(Array, p, d.np))
end

# @cfunction pointers are made at run time (they are not valid across
# precompilation).
_rhs_ptr() = @cfunction(_rhs, Cint, (Cdouble, Ptr{Cdouble}, Ptr{Cdouble}, Ptr{Cdouble}, Ptr{Cvoid}))
_jac_x_ptr() =
    @cfunction(_jac_x, Cint, (Cdouble, Ptr{Cdouble}, Ptr{Cdouble}, Ptr{Cdouble}, Ptr{Cvoid}))
_jac_p_ptr() =
    @cfunction(_jac_p, Cint, (Cdouble, Ptr{Cdouble}, Ptr{Cdouble}, Ptr{Cdouble}, Ptr{Cvoid}))
_x0_ptr() = @cfunction(_x0, Cint, (Ptr{Cdouble}, Ptr{Cdouble}, Ptr{Cvoid}))
_dx0dp_ptr() = @cfunction(_dx0dp, Cint, (Ptr{Cdouble}, Ptr{Cdouble}, Ptr{Cvoid}))

# ---------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------

"""
    Model

An ODE system held by the library: from Julia functions
(`Model(f!, nx, np; ...)`), a compiled built-in ([`builtin_model`](@ref)) or
an SBML or `.ode` file ([`model_from_file`](@ref)).
Freed by its finalizer.
"""
mutable struct Model
    handle::Ptr{Cvoid}
    callbacks::Union{Nothing,CallbackData}

    function Model(handle::Ptr{Cvoid}, callbacks::Union{Nothing,CallbackData})
        m = new(handle, callbacks)
        finalizer(m) do m
            odesens_model_free(m.handle)
            m.handle = C_NULL
        end
        return m
    end
end

"""
    Model(f!, nx, np; p = nothing, x0 = nothing, x0! = nothing, dx0dp! = nothing,
          jac_x! = nothing, jac_p! = nothing, name = nothing,
          state_names = nothing, param_names = nothing)

A model of `nx` states and `np` parameters with right-hand side
`f!(xdot, x, p, t)` (write `dx/dt` into `xdot`). Optional:

- `p`: nominal parameters (default zeros); `x0`: the initial state
  (default zeros), or `x0!(x0, p)` when it depends on `p`, with
  `dx0dp!(S0, p)` writing `dx0/dp` (nx × np; by differences otherwise);
- `jac_x!(J, x, p, t)` (nx × nx) and `jac_p!(Jp, x, p, t)` (nx × np):
  exact Jacobians, used instead of finite differences;
- names of the model, the states and the parameters.

An exception thrown by one of these functions aborts the solve, and
[`solve`](@ref) raises an `ODESensError` (`ODESENS_ERR_CALLBACK_FAILED`)
that includes it. Sparse Jacobians and Jacobian products are available
through the low-level functions (`odesens_model_set_sparsity`, ...).

```julia
decay!(xdot, x, p, t) = (xdot[1] = -p[1] * x[1])
m = Model(decay!, 1, 2; p = [0.5, 2.0], x0! = (x0, p) -> (x0[1] = p[2]))
```
"""
function Model(f!, nx::Integer, np::Integer; p = nothing, x0 = nothing, x0! = nothing,
               dx0dp! = nothing, jac_x! = nothing, jac_p! = nothing, name = nothing,
               state_names = nothing, param_names = nothing)
    data = CallbackData(nx, np, f!, jac_x!, jac_p!, x0!, dx0dp!, nothing)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(odesens_model_create(nx, np, _rhs_ptr(), pointer_from_objref(data), out))
    m = Model(out[], data)
    h = m.handle
    jac_x! === nothing || check(odesens_model_set_jac_x(h, _jac_x_ptr()), h)
    jac_p! === nothing || check(odesens_model_set_jac_p(h, _jac_p_ptr()), h)
    x0! === nothing || check(odesens_model_set_x0_fn(h, _x0_ptr()), h)
    dx0dp! === nothing || check(odesens_model_set_dx0dp_fn(h, _dx0dp_ptr()), h)
    if p !== nothing
        v = Vector{Float64}(p)
        check(odesens_model_set_nominal_params(h, v, length(v)), h)
    end
    if x0 !== nothing
        v = Vector{Float64}(x0)
        check(odesens_model_set_x0(h, v, length(v)), h)
    end
    name === nothing || check(odesens_model_set_name(h, String(name)), h)
    if state_names !== nothing
        for (i, n) in enumerate(state_names)
            check(odesens_model_set_state_name(h, i - 1, String(n)), h)
        end
    end
    if param_names !== nothing
        for (j, n) in enumerate(param_names)
            check(odesens_model_set_param_name(h, j - 1, String(n)), h)
        end
    end
    return m
end

"""
    builtin_model(name) -> Model

A compiled built-in model: `"chua"`, `"vanderpol"`, `"glv:N"`, `"linear:N"`,
`"heat2d:Np"` (a `"builtin:"` prefix is accepted).
"""
function builtin_model(name::AbstractString)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(odesens_model_from_builtin(String(name), out))
    return Model(out[], nothing)
end

"""
    model_from_file(path; sens_params = nothing) -> Model

A model file: SBML when its content is XML, `.ode` text otherwise. For SBML,
`sens_params` (a vector of SBML ids) chooses the sensitivity parameters;
`nothing` keeps the default set (every global parameter with a finite value
that no rule, initial assignment or event sets, declared constant or not).
"""
function model_from_file(path::AbstractString; sens_params = nothing)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    if sens_params === nothing
        check(odesens_model_from_file(String(path), out))
    else
        check(odesens_model_from_sbml_file(String(path), join(String.(sens_params), ","), out))
    end
    return Model(out[], nothing)
end

"""
    model_sizes(model) -> (nx, np)
"""
function model_sizes(m::Model)
    nx, np = Ref{Int64}(0), Ref{Int64}(0)
    check(odesens_model_sizes(m.handle, nx, np), m.handle)
    return (Int(nx[]), Int(np[]))
end

"""
    nominal_params(model) -> Vector{Float64}
"""
function nominal_params(m::Model)
    p = zeros(Float64, model_sizes(m)[2])
    check(odesens_model_nominal_params(m.handle, p, length(p)), m.handle)
    return p
end

function _names(m::Model, n::Integer, getter)
    out = Ref{Ptr{UInt8}}(C_NULL)
    return [begin
                check(getter(m.handle, i - 1, out), m.handle)
                unsafe_string(out[])
            end for i in 1:n]
end

"""
    state_names(model) -> Vector{String}
"""
state_names(m::Model) = _names(m, model_sizes(m)[1], odesens_model_state_name)

"""
    param_names(model) -> Vector{String}
"""
param_names(m::Model) = _names(m, model_sizes(m)[2], odesens_model_param_name)

# ---------------------------------------------------------------------------
# Methods
# ---------------------------------------------------------------------------

"""
    method_ids() -> Vector{String}

The ids of the available methods (`"cvodes_fsa"`, `"cvodes_asa"`, ...).
"""
function method_ids()
    n = Ref{Int64}(0)
    check(odesens_method_count(n))
    id = Ref{Ptr{UInt8}}(C_NULL)
    return [begin
                check(odesens_method_id(i - 1, id))
                unsafe_string(id[])
            end for i in 1:n[]]
end

"""
    method_options(method) -> Vector{NamedTuple{(:key, :type, :doc, :min, :max)}}

The options of a method; `type` is `Float64`, `Int64` or `String`; `min` and
`max` bound numeric options (`-Inf`/`Inf` where unbounded, `NaN` for strings).
"""
function method_options(method::AbstractString)
    n = Ref{Int64}(0)
    check(odesens_method_option_count(String(method), n))
    key, doc, code = Ref{Ptr{UInt8}}(C_NULL), Ref{Ptr{UInt8}}(C_NULL), Ref{Int64}(0)
    lo, hi = Ref{Float64}(0.0), Ref{Float64}(0.0)
    types = Dict(ODESENS_OPTION_DOUBLE => Float64, ODESENS_OPTION_INT => Int64,
                 ODESENS_OPTION_STRING => String)
    return [begin
                check(odesens_method_option(String(method), i - 1, key, code, doc))
                check(odesens_method_option_bounds(String(method), i - 1, lo, hi))
                (key = unsafe_string(key[]), type = types[code[]], doc = unsafe_string(doc[]),
                 min = lo[], max = hi[])
            end for i in 1:n[]]
end

# ---------------------------------------------------------------------------
# Solvers
# ---------------------------------------------------------------------------

"""
    Solver(model, method; p, x0, t0, times, rtol, atol, max_steps, objectives, integrand,
           weights, directions, box, data, options, observables)

A model with a method and the settings of the solve; every keyword is
optional and calls the setter of the same name (`set_params!`,
`set_initial_state!`, `set_t0!`, `set_output_times!`, `set_tolerances!`,
`set_max_steps!`, `set_objectives!`, `set_integrand!`,
`set_adjoint_weights!`, `set_sens_directions!`, `set_param_box!` (`box = (lower,
upper)`), `set_objective_data!`, `set_option!` for each pair of the `options`
dictionary and `add_observable!` for each name of `observables`). Given
only one of `rtol` and `atol`, the other is 1e-8 (rtol) or 1e-10 (atol);
given neither, the method's defaults apply.
Output times must be set before [`solve`](@ref). The solver keeps the model
(and its Julia callbacks) alive.
"""
mutable struct Solver
    handle::Ptr{Cvoid}
    model::Model

    function Solver(model::Model, method::AbstractString; p = nothing, x0 = nothing,
                    t0 = nothing, times = nothing, rtol = nothing, atol = nothing,
                    max_steps = nothing, objectives = nothing, integrand = nothing,
                    weights = nothing, directions = nothing, box = nothing, data = nothing,
                    options = Dict{String,Any}(), observables = String[])
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(odesens_solver_create(model.handle, String(method), out))
        s = new(out[], model)
        finalizer(s) do s
            odesens_solver_free(s.handle)
            s.handle = C_NULL
        end
        p === nothing || set_params!(s, p)
        x0 === nothing || set_initial_state!(s, x0)
        t0 === nothing || set_t0!(s, t0)
        times === nothing || set_output_times!(s, times)
        if rtol !== nothing || atol !== nothing
            set_tolerances!(s, something(rtol, 1e-8), something(atol, 1e-10))
        end
        max_steps === nothing || set_max_steps!(s, max_steps)
        objectives === nothing || set_objectives!(s, objectives)
        integrand === nothing || set_integrand!(s, integrand)
        weights === nothing || set_adjoint_weights!(s, weights)
        directions === nothing || set_sens_directions!(s, directions)
        box === nothing || set_param_box!(s, box...)
        data === nothing || set_objective_data!(s, data)
        for (key, value) in options
            set_option!(s, String(key), value)
        end
        for name in observables
            add_observable!(s, name)
        end
        return s
    end
end

# Runs a setter on the solver's handle and raises its error.
function _set(s::Solver, setter, args...)
    check(setter(s.handle, args...), s.handle)
    return s
end

_floats(v) = Vector{Float64}(vec(collect(v)))

"""
    set_params!(solver, p)

Parameter values (length np) instead of the model's nominal ones.
"""
set_params!(s::Solver, p) = (v = _floats(p); _set(s, odesens_solver_set_params, v, length(v)))

"""
    set_initial_state!(solver, x0)

A fixed initial state (length nx; `dx0/dp = 0`); an empty vector returns to
the model's `x0(p)`.
"""
set_initial_state!(s::Solver, x0) =
    (v = _floats(x0); _set(s, odesens_solver_set_initial_state, v, length(v)))

"""
    set_t0!(solver, t0)
"""
set_t0!(s::Solver, t0::Real) = _set(s, odesens_solver_set_t0, Float64(t0))

"""
    set_output_times!(solver, times)

Strictly increasing output times, all ≥ t0.
"""
set_output_times!(s::Solver, times) =
    (v = _floats(times); _set(s, odesens_solver_set_output_times, v, length(v)))

"""
    set_tolerances!(solver, rtol, atol)

Relative tolerance and absolute tolerance: one number for all states, or a
vector of nx.
"""
set_tolerances!(s::Solver, rtol::Real, atol::Real) =
    _set(s, odesens_solver_set_tolerances, Float64(rtol), Float64(atol))
function set_tolerances!(s::Solver, rtol::Real, atol::AbstractVector)
    _set(s, odesens_solver_set_tolerances, Float64(rtol), 0.0)
    v = _floats(atol)
    return _set(s, odesens_solver_set_atol_vector, v, length(v))
end

"""
    set_max_steps!(solver, n)

Maximum internal steps between two output times.
"""
set_max_steps!(s::Solver, n::Integer) = _set(s, odesens_solver_set_max_steps, Int64(n))

"""
    set_objectives!(solver, M)

The number of objectives differentiated at once (from 1, the default, to
1000000): `ψ_m = Σ_k W[:, k, m]' x(t_k) + ∫ R_m dt` with the weights of
[`set_adjoint_weights!`](@ref) and the running costs of
[`set_integrand!`](@ref). Methods other than `erk_adjoint` take one. Set it
before the weights.
"""
set_objectives!(s::Solver, m::Integer) = _set(s, odesens_solver_set_objectives, Int64(m))

"""
    set_adjoint_weights!(solver, W)

Objective `G = Σ_k W[:, k]' x(t_k)` of the adjoint methods, `W` of size
nx × n_times; with M objectives ([`set_objectives!`](@ref)) `W` is
nx × n_times × M. An empty array returns to the default: `G = Σ_i
x_i(t_final)` for one objective without running cost, all zero otherwise.
"""
set_adjoint_weights!(s::Solver, W) =
    (v = _floats(W); _set(s, odesens_solver_set_adjoint_weights, v, length(v)))

"""
    set_integrand!(solver, names)

Running costs that are observables of the model, `R_m = names[m]` (a state;
an `.ode` let or output; an SBML id with a value), one per objective
(`length(names)` must equal the number of objectives when solving); an
empty vector removes them. Only `erk_adjoint` takes running costs.

```julia
s = Solver(model_from_file("cost.ode"), "erk_adjoint"; times = [1.0, 2.0],
           objectives = 2, integrand = ["cost", "energy"])
r = solve(s)
r.objectives                          # ψ_1, ψ_2 = ∫ cost dt, ∫ energy dt
reshape(r.gradient, :, 2)             # np × 2: dψ_m/dp
```
"""
function set_integrand!(s::Solver, names::AbstractVector)
    v = String[String(n) for n in names]
    return _set(s, odesens_solver_set_integrand_observables, v, length(v))
end

"""
    set_sens_directions!(solver, R)

Sensitivity directions of `dopri8s` and `grk4as`: `R` of size
(nx + np) × n_directions, rows 1:nx perturbing x(t0) and the rest p; the
result's `sr[:, j, k]` is then `S(t_k) R[:, j]`. They override the
method's `directions` option; an empty matrix removes them. Other methods
refuse them.
"""
set_sens_directions!(s::Solver, R) =
    (v = _floats(R); _set(s, odesens_solver_set_sens_directions, v, length(v)))

"""
    set_param_box!(solver, lower, upper)

The parameter box of `bounds_fsa` and `bounds_asa` (length np each, `lower ≤ upper`; a
parameter with equal bounds is held fixed): the result's `bounds` then
encloses x, S and the gradient for every p in the box. Empty vectors
remove it. Other methods refuse it.
"""
function set_param_box!(s::Solver, lower, upper)
    lo, hi = _floats(lower), _floats(upper)
    length(lo) == length(hi) ||
        throw(ArgumentError("lower and upper have $(length(lo)) and $(length(hi)) entries"))
    return _set(s, odesens_solver_set_param_box, lo, hi, length(lo))
end

"""
    set_objective_data!(solver, D)

Data of the least-squares objective of `bounds_fsa` and `bounds_asa`, `F = Σ (D[i, k] -
x_i(t_k))²` over the observed entries: `D` of size nx × n_times, `NaN`
where a state is not observed. The result's gradient (and
`bounds.gradient_*`) is then that of F. An empty matrix removes it.
"""
set_objective_data!(s::Solver, D) =
    (v = _floats(D); _set(s, odesens_solver_set_objective_data, v, length(v)))

"""
    set_option!(solver, key, value)

A method option (see [`method_options`](@ref)); the value's Julia type
picks the typed setter: `AbstractFloat`, `Integer` or `AbstractString`.
"""
set_option!(s::Solver, key::AbstractString, value::AbstractFloat) =
    _set(s, odesens_set_option_double, String(key), Float64(value))
set_option!(s::Solver, key::AbstractString, value::Integer) =
    _set(s, odesens_set_option_int, String(key), Int64(value))
set_option!(s::Solver, key::AbstractString, value::AbstractString) =
    _set(s, odesens_set_option_string, String(key), String(value))

"""
    add_observable!(solver, name)

A named value of the model to evaluate at the output times (a state; an
`.ode` let or output; any SBML id with a value, a species also as
`"ID:amount"` or `"ID:concentration"`); the result's `observables` holds it.
"""
add_observable!(s::Solver, name::AbstractString) =
    _set(s, odesens_solver_add_observable, String(name))

# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------

"""
    Bounds

The enclosures of a set-valued method (`bounds_fsa`; `bounds_asa` has no S), valid for every p in
the box: polynomial models in the scaled parameters `ξ_j = (p_j -
box_mid[j]) / box_rad[j]` ∈ [-1, 1], model m being `Σ_c coef[c, m...]
B_c(ξ) + [rem[1, m...], rem[2, m...]]` over the basis functions `B_c(ξ) =
Π_j T_{e_cj}(ξ_j)` (`basis == "chebyshev"`, Chebyshev polynomials) or `Π_j
ξ_j^{e_cj}` (`"taylor"`) with `e_cj = exponents[j, c]`, and `hull[:, m...]`
the (lower, upper) enclosure of its range:

- `basis`, `remainder` (`"interval"` or `"ellipsoid"`), `order` q;
- `box_lower`, `box_upper` (the box as given), `box_mid`, `box_rad` (np);
- `exponents` (np × n_monomials);
- `x_coef` (n_monomials × nx × n_times), `x_rem`, `x_hull` (2 × nx ×
  n_times), `x_shape` (nx × nx × n_times, the ellipsoids' shape matrices;
  empty with interval remainders);
- `s_coef` (n_monomials × nx × np × n_times), `s_rem`, `s_hull` (2 × nx ×
  np × n_times); no times for `bounds_asa`, which keeps no S;
- `gradient_coef` (n_monomials × np), `gradient_rem`, `gradient_hull`
  (2 × np): the objective's gradient.
"""
struct Bounds
    basis::String
    remainder::String
    order::Int
    box_lower::Vector{Float64}
    box_upper::Vector{Float64}
    box_mid::Vector{Float64}
    box_rad::Vector{Float64}
    exponents::Matrix{Int64}
    x_coef::Array{Float64,3}
    x_rem::Array{Float64,3}
    x_hull::Array{Float64,3}
    x_shape::Array{Float64,3}
    s_coef::Array{Float64,4}
    s_rem::Array{Float64,4}
    s_hull::Array{Float64,4}
    gradient_coef::Matrix{Float64}
    gradient_rem::Matrix{Float64}
    gradient_hull::Matrix{Float64}
end

"""
    Result

What one solve computed, copied into Julia arrays:

- `method`: the method id;
- `times` (n_times) and `x` (nx × n_times);
- `s_times` and `s` (nx × np × n_s_times, `s[i, j, k] = ∂x_i/∂p_j` at
  `s_times[k]`): all output times for forward methods, the final time (or
  nothing) for adjoint methods;
- `gradient` (adjoint methods; empty otherwise): np values of dG/dp, or
  for M objectives np × M of them, column-major (`reshape(r.gradient, :,
  r.n_objectives)[j, m] = ∂ψ_m/∂p_j`);
- `stats`: every statistic by name (`"steps"`, `"rhs_evals"`,
  `"jac_evals"`, `"linear_setups"`, `"error_test_failures"`,
  `"wall_seconds"`, then the method's own);
- `observables`: the values at `times` of each observable the solver had
  (see [`add_observable!`](@ref)), by name;
- `warnings`: what the method distrusts in this result;
- `n_objectives`: the number M of objectives (0 for methods without
  gradient), `gradient_x0` (nx × M, `∂ψ_m/∂x_i(t0)`) and `objectives` (the
  M values ψ_m), from the methods that give them (`erk_adjoint`; empty
  otherwise);
- `sr` (nx × n_directions × n_times, `sr[:, j, k] = S(t_k) r_j`): the
  products with the sensitivity directions of `dopri8s` and `grk4as`
  ([`set_sens_directions!`](@ref), or the option `directions` = `states`
  or `all`); empty otherwise;
- `bounds`: the enclosures of `bounds_fsa` or `bounds_asa` over the parameter box (a
  [`Bounds`](@ref)), `nothing` for the other methods.
"""
struct Result
    method::String
    times::Vector{Float64}
    x::Matrix{Float64}
    s_times::Vector{Float64}
    s::Array{Float64,3}
    gradient::Vector{Float64}
    stats::Dict{String,Float64}
    observables::Dict{String,Vector{Float64}}
    # What the method distrusts in this result; empty when nothing is suspect.
    warnings::Vector{String}
    n_objectives::Int
    gradient_x0::Matrix{Float64}
    objectives::Vector{Float64}
    sr::Array{Float64,3}
    bounds::Union{Nothing,Bounds}
end

# A copy of one array of a C result (empty when the method did not compute it).
function _array(handle::Ptr{Cvoid}, which::Int64, n::Integer)
    n == 0 && return Float64[]
    data, len = Ref{Ptr{Cdouble}}(C_NULL), Ref{Int64}(0)
    check(odesens_result_data(handle, which, data, len), handle)
    return copy(unsafe_wrap(Array, data[], len[]))
end

# A copy of an array that only some methods compute: empty for the others.
function _optional_array(handle::Ptr{Cvoid}, which::Int64)
    data, len = Ref{Ptr{Cdouble}}(C_NULL), Ref{Int64}(0)
    status = odesens_result_data(handle, which, data, len)
    status == ODESENS_ERR_UNSUPPORTED && return Float64[]
    check(status, handle)
    len[] == 0 && return Float64[]
    return copy(unsafe_wrap(Array, data[], len[]))
end

# The bounds of a result, or nothing when its method computed none.
function _bounds(handle::Ptr{Cvoid}, nt::Int, nx::Int, np::Int)
    order, nm = Ref{Int64}(0), Ref{Int64}(0)
    basis, remainder = Ref{Ptr{UInt8}}(C_NULL), Ref{Ptr{UInt8}}(C_NULL)
    status = odesens_result_bounds_info(handle, order, nm, basis, remainder)
    status == ODESENS_ERR_UNSUPPORTED && return nothing
    check(status, handle)
    n = Int(nm[])
    exponents = Vector{Int64}(undef, n * np)
    check(odesens_result_bounds_exponents(handle, exponents, length(exponents)), handle)
    # Models of one kind (coefficients, remainders, hulls) in the shape of their index.
    models(first, dims...) = (reshape(_optional_array(handle, first), n, dims...),
                              reshape(_optional_array(handle, first + 1), 2, dims...),
                              reshape(_optional_array(handle, first + 2), 2, dims...))
    # bounds_asa keeps no S: its S models have no times.
    ns = isempty(_optional_array(handle, ODESENS_ARRAY_S_HULL)) ? 0 : nt
    box(which) = _array(handle, which, np)
    shape = _optional_array(handle, ODESENS_ARRAY_X_SHAPE)
    return Bounds(unsafe_string(basis[]), unsafe_string(remainder[]), Int(order[]),
                  box(ODESENS_ARRAY_BOX_LOWER), box(ODESENS_ARRAY_BOX_UPPER),
                  box(ODESENS_ARRAY_BOX_MID), box(ODESENS_ARRAY_BOX_RAD),
                  reshape(exponents, np, n),
                  models(ODESENS_ARRAY_X_COEF, nx, nt)...,
                  reshape(shape, nx, nx, isempty(shape) ? 0 : nt),
                  models(ODESENS_ARRAY_S_COEF, nx, np, ns)...,
                  models(ODESENS_ARRAY_GRADIENT_COEF, np)...)
end

function _result(handle::Ptr{Cvoid})
    nt, nx, np, ns, ng = (Ref{Int64}(0) for _ in 1:5)
    check(odesens_result_sizes(handle, nt, nx, np, ns, ng), handle)
    method = Ref{Ptr{UInt8}}(C_NULL)
    check(odesens_result_method(handle, method), handle)
    stats = Dict{String,Float64}()
    count, name, value = Ref{Int64}(0), Ref{Ptr{UInt8}}(C_NULL), Ref{Cdouble}(0.0)
    check(odesens_result_stat_count(handle, count), handle)
    for i in 1:count[]
        check(odesens_result_stat_name(handle, i - 1, name), handle)
        key = unsafe_string(name[])
        check(odesens_result_stat(handle, key, value), handle)
        stats[key] = value[]
    end
    observables = Dict{String,Vector{Float64}}()
    check(odesens_result_observable_count(handle, count), handle)
    for i in 1:count[]
        check(odesens_result_observable_name(handle, i - 1, name), handle)
        values = Vector{Float64}(undef, nt[])
        check(odesens_result_observable(handle, i - 1, values, nt[]), handle)
        observables[unsafe_string(name[])] = values
    end
    warnings = String[]
    check(odesens_result_warning_count(handle, count), handle)
    for i in 1:count[]
        check(odesens_result_warning(handle, i - 1, name), handle)
        push!(warnings, unsafe_string(name[]))
    end
    m = Ref{Int64}(0)
    check(odesens_result_n_objectives(handle, m), handle)
    gradient_x0 = _optional_array(handle, ODESENS_ARRAY_GRADIENT_X0)
    n_directions = Ref{Int64}(0)
    check(odesens_result_n_directions(handle, n_directions), handle)
    sr = _optional_array(handle, ODESENS_ARRAY_SR)
    return Result(unsafe_string(method[]),
                  _array(handle, ODESENS_ARRAY_TIMES, nt[]),
                  reshape(_array(handle, ODESENS_ARRAY_X, nt[]), Int(nx[]), Int(nt[])),
                  _array(handle, ODESENS_ARRAY_S_TIMES, ns[]),
                  reshape(_array(handle, ODESENS_ARRAY_S, ns[]), Int(nx[]), Int(np[]), Int(ns[])),
                  _array(handle, ODESENS_ARRAY_GRADIENT, ng[]),
                  stats, observables, warnings, Int(m[]),
                  reshape(gradient_x0, Int(nx[]), length(gradient_x0) ÷ Int(nx[])),
                  _optional_array(handle, ODESENS_ARRAY_OBJECTIVES),
                  reshape(sr, Int(nx[]), Int(n_directions[]),
                          Int(n_directions[]) == 0 ? 0 : Int(nt[])),
                  _bounds(handle, Int(nt[]), Int(nx[]), Int(np[])))
end

"""
    solve_ensemble(solver, P; threads = 0) -> Vector{Union{Result,ODESensError}}

The solver's problem for every column of `P` (np × K: column k is member
k's parameter vector), on `threads` threads (0: one per hardware thread)
sharing the model: element k is member k's `Result`, bit for bit what
`solve` gives with `set_params!(solver, P[:, k])`, or the `ODESensError` it
failed with (a failed member never loses the others). Julia callbacks are
then called from several threads at once.

```julia
P = [0.8 0.9 1.0; 1.7 1.7 1.6]            # np = 2, K = 3
members = solve_ensemble(s, P; threads = 2)
ok = [m.s for m in members if m isa ODESens.Result]
```
"""
function solve_ensemble(s::Solver, P::AbstractMatrix; threads::Integer = 0)
    params = Matrix{Float64}(P)
    K = size(params, 2)
    statuses = Vector{Int64}(undef, K)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    status = GC.@preserve s params statuses odesens_solver_solve_ensemble(
        s.handle, params, K, Int64(threads), statuses, out)
    status == ODESENS_OK || throw(ODESensError(status, unsafe_string(odesens_status_string(status)),
                                               unsafe_string(odesens_errmsg(s.handle))))
    try
        message, result = Ref{Ptr{UInt8}}(C_NULL), Ref{Ptr{Cvoid}}(C_NULL)
        return Union{Result,ODESensError}[begin
            if statuses[k] == ODESENS_OK
                check(odesens_ensemble_result(out[], k - 1, result), out[])
                try
                    _result(result[])
                finally
                    odesens_result_free(result[])
                end
            else
                check(odesens_ensemble_message(out[], k - 1, message), out[])
                ODESensError(Cint(statuses[k]),
                             unsafe_string(odesens_status_string(Cint(statuses[k]))),
                             unsafe_string(message[]))
            end
        end for k in 1:K]
    finally
        odesens_ensemble_free(out[])
    end
end

"""
    solve(solver) -> Result

Runs the solver's method. Raises `ODESensError` with the library's message
on failure; when a Julia callback threw, the message includes its exception.
"""
function solve(s::Solver)
    data = s.model.callbacks
    data === nothing || (data.error = nothing)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    status = GC.@preserve s odesens_solve(s.handle, out)
    if status != ODESENS_OK
        message = unsafe_string(odesens_errmsg(s.handle))
        if data !== nothing && data.error !== nothing
            message *= "\n  caused by: " * sprint(showerror, data.error)
        end
        throw(ODESensError(status, unsafe_string(odesens_status_string(status)), message))
    end
    try
        return _result(out[])
    finally
        odesens_result_free(out[])
    end
end

# ---------------------------------------------------------------------------
# PEtab problems
# ---------------------------------------------------------------------------

"""
    PetabProblem(path)

A PEtab (v1) problem read from its YAML file (`docs/petab.md`): `ids`,
`scales`, `lower`, `upper` and `nominal` of the estimated parameters (on
their scales), `n_measurements` and `n_experiments`. Freed by its
finalizer. Evaluate it with [`petab_evaluate`](@ref).
"""
mutable struct PetabProblem
    handle::Ptr{Cvoid}
    ids::Vector{String}
    scales::Vector{String}
    lower::Vector{Float64}
    upper::Vector{Float64}
    nominal::Vector{Float64}
    n_measurements::Int
    n_experiments::Int

    function PetabProblem(path::AbstractString)
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(odesens_petab_load(String(path), out))
        h = out[]
        try
            np, nm, ne = Ref{Int64}(0), Ref{Int64}(0), Ref{Int64}(0)
            check(odesens_petab_sizes(h, np, nm, ne), h)
            text = Ref{Ptr{UInt8}}(C_NULL)
            ids, scales = String[], String[]
            for i in 1:np[]
                check(odesens_petab_parameter_id(h, i - 1, text), h)
                push!(ids, unsafe_string(text[]))
                check(odesens_petab_parameter_scale(h, i - 1, text), h)
                push!(scales, unsafe_string(text[]))
            end
            lower, upper, nominal = (Vector{Float64}(undef, np[]) for _ in 1:3)
            check(odesens_petab_parameter_bounds(h, lower, upper, nominal, np[]), h)
            p = new(h, ids, scales, lower, upper, nominal, Int(nm[]), Int(ne[]))
            finalizer(p) do p
                odesens_petab_free(p.handle)
                p.handle = C_NULL
            end
            return p
        catch
            odesens_petab_free(h)
            rethrow()
        end
    end
end

"""
    petab_evaluate(problem, x = problem.nominal; method = "auto", rtol = 0.0, atol = 0.0,
                   threads = 1, gradient = false, fim = false)

The problem at `x` (the estimated parameters on their scales): a named
tuple of `nllh`, `nlpost` (`nllh` minus the priors' log-densities; `nllh`
without priors), `chi2`, `simulations` (one per measurement), `gradient`
(of `nlpost`; `nothing` unless asked for), `fim` (n × n; `nothing` unless
asked for) and `warnings`. Tolerances `<= 0` take the defaults (1e-8
relative, 1e-10 absolute);
`threads = 0` is one per core.
"""
function petab_evaluate(p::PetabProblem, x::AbstractVector = p.nominal; method = "auto",
                        rtol::Real = 0.0, atol::Real = 0.0, threads::Integer = 1,
                        gradient::Bool = false, fim::Bool = false)
    n = length(p.ids)
    xs = Vector{Float64}(x)
    nllh, nlpost, chi2 = Ref{Cdouble}(0.0), Ref{Cdouble}(0.0), Ref{Cdouble}(0.0)
    g = gradient ? Vector{Float64}(undef, n) : nothing
    F = fim ? Vector{Float64}(undef, n * n) : nothing
    sims = Vector{Float64}(undef, p.n_measurements)
    status = GC.@preserve p xs g F sims odesens_petab_evaluate(
        p.handle, xs, length(xs), String(method), Float64(rtol), Float64(atol), Int64(threads),
        nllh, nlpost, chi2, g === nothing ? C_NULL : g, F === nothing ? C_NULL : F, sims,
        length(sims))
    check(status, p.handle)
    count, text = Ref{Int64}(0), Ref{Ptr{UInt8}}(C_NULL)
    check(odesens_petab_warning_count(p.handle, count), p.handle)
    warnings = String[]
    for i in 1:count[]
        check(odesens_petab_warning(p.handle, i - 1, text), p.handle)
        push!(warnings, unsafe_string(text[]))
    end
    # The FIM is row-major in C; it is symmetric, but keep its rows as rows.
    return (nllh = nllh[], nlpost = nlpost[], chi2 = chi2[], simulations = sims,
            gradient = g, fim = F === nothing ? nothing : permutedims(reshape(F, n, n)),
            warnings = warnings)
end

"""
    version() -> VersionNumber

The version of the loaded libodesens.
"""
version() = VersionNumber(unsafe_string(odesens_version()))

end # module ODESens
