! odesens: Fortran interface to the C ABI of libodesens (odesens.h).
!
! Every C function has a bind(C) interface of the same name here, argument
! for argument (see odesens.h for what each does):
!
!   handles            type(c_ptr), value           (odesens_model*, ...)
!   handle outputs     type(c_ptr), intent(out)     (odesens_model** out)
!   sizes, indices     integer(c_int64_t), value
!   arrays             real(c_double) / integer(c_int64_t) x(*), passed by reference
!   strings in         character(kind=c_char) s(*), NUL-terminated: pass
!                      "text"//c_null_char or odesens_c_string(text)
!   strings out        type(c_ptr); convert with odesens_f_string
!   arrays of strings  type(c_ptr) names(*), each c_loc of a NUL-terminated
!                      string; odesens_set_integrand builds them
!   callbacks          type(c_funptr), value: c_funloc of a bind(C) function
!   status             integer(c_int) function result, ODESENS_OK = 0
!
! C arrays are 0-based and column-major, which is Fortran's order: S at one
! time is S(nx, np); a trajectory of S is S(nx, np, n_s_times). Indices
! passed to the C functions (names, methods) are 0-based.
!
! A callback is a bind(C) function with the C signature, for example
!
!   integer(c_int) function rhs(t, x, p, xdot, user) bind(C)
!     real(c_double), value :: t
!     real(c_double), intent(in) :: x(*), p(*)
!     real(c_double), intent(out) :: xdot(*)
!     type(c_ptr), value :: user
!
! returning 0 for success. The conveniences at the end (odesens_get_*,
! odesens_get_bounds_* for bounds_fsa and bounds_asa) allocate Fortran arrays of the right
! shape and copy results into them; odesens_copy_array copies any array of
! odesens_result_data;
! odesens_set_integrand passes Fortran strings as running costs.
module odesens
  use, intrinsic :: iso_c_binding
  implicit none

  integer, parameter :: ODESENS_VERSION_MAJOR = 0
  integer, parameter :: ODESENS_VERSION_MINOR = 1
  integer, parameter :: ODESENS_VERSION_PATCH = 0
  ! ODESENS_ABI_VERSION of odesens.h, renamed because Fortran names ignore
  ! case and odesens_abi_version is the function.
  integer, parameter :: ODESENS_MODULE_ABI_VERSION = 1

  ! Status codes (odesens_status).
  integer(c_int), parameter :: ODESENS_OK = 0
  integer(c_int), parameter :: ODESENS_ERR_INVALID_ARGUMENT = -1
  integer(c_int), parameter :: ODESENS_ERR_UNKNOWN_METHOD = -2
  integer(c_int), parameter :: ODESENS_ERR_UNKNOWN_OPTION = -3
  integer(c_int), parameter :: ODESENS_ERR_OPTION_TYPE = -4
  integer(c_int), parameter :: ODESENS_ERR_CALLBACK_FAILED = -5
  integer(c_int), parameter :: ODESENS_ERR_TOO_MUCH_WORK = -6
  integer(c_int), parameter :: ODESENS_ERR_SOLVER_FAILED = -7
  integer(c_int), parameter :: ODESENS_ERR_NOT_FINITE = -8
  integer(c_int), parameter :: ODESENS_ERR_UNKNOWN_MODEL = -9
  integer(c_int), parameter :: ODESENS_ERR_PARSE = -10
  integer(c_int), parameter :: ODESENS_ERR_UNSUPPORTED = -11
  integer(c_int), parameter :: ODESENS_ERR_BUFFER_TOO_SMALL = -12
  integer(c_int), parameter :: ODESENS_ERR_NULL_HANDLE = -13
  integer(c_int), parameter :: ODESENS_ERR_IO = -14
  integer(c_int), parameter :: ODESENS_ERR_OUT_OF_MEMORY = -15
  integer(c_int), parameter :: ODESENS_ERR_UNBOUNDED = -16
  integer(c_int), parameter :: ODESENS_ERR_INTERNAL = -99

  ! Arrays of a result (odesens_result_array).
  integer(c_int64_t), parameter :: ODESENS_ARRAY_TIMES = 0
  integer(c_int64_t), parameter :: ODESENS_ARRAY_X = 1
  integer(c_int64_t), parameter :: ODESENS_ARRAY_S_TIMES = 2
  integer(c_int64_t), parameter :: ODESENS_ARRAY_S = 3
  integer(c_int64_t), parameter :: ODESENS_ARRAY_GRADIENT = 4
  integer(c_int64_t), parameter :: ODESENS_ARRAY_GRADIENT_X0 = 5
  integer(c_int64_t), parameter :: ODESENS_ARRAY_OBJECTIVES = 6
  integer(c_int64_t), parameter :: ODESENS_ARRAY_SR = 7
  integer(c_int64_t), parameter :: ODESENS_ARRAY_X_COEF = 8
  integer(c_int64_t), parameter :: ODESENS_ARRAY_X_REM = 9
  integer(c_int64_t), parameter :: ODESENS_ARRAY_X_HULL = 10
  integer(c_int64_t), parameter :: ODESENS_ARRAY_X_SHAPE = 11
  integer(c_int64_t), parameter :: ODESENS_ARRAY_S_COEF = 12
  integer(c_int64_t), parameter :: ODESENS_ARRAY_S_REM = 13
  integer(c_int64_t), parameter :: ODESENS_ARRAY_S_HULL = 14
  integer(c_int64_t), parameter :: ODESENS_ARRAY_GRADIENT_COEF = 15
  integer(c_int64_t), parameter :: ODESENS_ARRAY_GRADIENT_REM = 16
  integer(c_int64_t), parameter :: ODESENS_ARRAY_GRADIENT_HULL = 17
  integer(c_int64_t), parameter :: ODESENS_ARRAY_BOX_MID = 18
  integer(c_int64_t), parameter :: ODESENS_ARRAY_BOX_RAD = 19
  integer(c_int64_t), parameter :: ODESENS_ARRAY_BOX_LOWER = 20
  integer(c_int64_t), parameter :: ODESENS_ARRAY_BOX_UPPER = 21

  ! Statistics, 0-based positions in odesens_result_stats (odesens_stat).
  integer(c_int64_t), parameter :: ODESENS_STAT_STEPS = 0
  integer(c_int64_t), parameter :: ODESENS_STAT_RHS_EVALS = 1
  integer(c_int64_t), parameter :: ODESENS_STAT_JAC_EVALS = 2
  integer(c_int64_t), parameter :: ODESENS_STAT_LINEAR_SETUPS = 3
  integer(c_int64_t), parameter :: ODESENS_STAT_ERROR_TEST_FAILURES = 4
  integer(c_int64_t), parameter :: ODESENS_STAT_WALL_SECONDS = 5
  integer(c_int64_t), parameter :: ODESENS_STAT_COUNT = 6

  ! Option types (odesens_option_type).
  integer(c_int64_t), parameter :: ODESENS_OPTION_DOUBLE = 0
  integer(c_int64_t), parameter :: ODESENS_OPTION_INT = 1
  integer(c_int64_t), parameter :: ODESENS_OPTION_STRING = 2

  interface
    ! ---- library ----

    function odesens_version() bind(C, name="odesens_version")
      import :: c_ptr
      type(c_ptr) :: odesens_version
    end function

    function odesens_abi_version() bind(C, name="odesens_abi_version")
      import :: c_int
      integer(c_int) :: odesens_abi_version
    end function

    function odesens_status_string(code) bind(C, name="odesens_status_string")
      import :: c_ptr, c_int
      integer(c_int), value :: code
      type(c_ptr) :: odesens_status_string
    end function

    function odesens_errmsg(handle) bind(C, name="odesens_errmsg")
      import :: c_ptr
      type(c_ptr), value :: handle
      type(c_ptr) :: odesens_errmsg
    end function

    ! ---- methods ----

    function odesens_method_count(count) bind(C, name="odesens_method_count")
      import :: c_int, c_int64_t
      integer(c_int64_t), intent(out) :: count
      integer(c_int) :: odesens_method_count
    end function

    function odesens_method_id(index, id) bind(C, name="odesens_method_id")
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: index
      type(c_ptr), intent(out) :: id
      integer(c_int) :: odesens_method_id
    end function

    function odesens_method_option_count(method, count) &
        bind(C, name="odesens_method_option_count")
      import :: c_int, c_int64_t, c_char
      character(kind=c_char), intent(in) :: method(*)
      integer(c_int64_t), intent(out) :: count
      integer(c_int) :: odesens_method_option_count
    end function

    function odesens_method_option(method, index, key, option_type, doc) &
        bind(C, name="odesens_method_option")
      import :: c_int, c_int64_t, c_char, c_ptr
      character(kind=c_char), intent(in) :: method(*)
      integer(c_int64_t), value :: index
      type(c_ptr), intent(out) :: key
      integer(c_int64_t), intent(out) :: option_type
      type(c_ptr), intent(out) :: doc
      integer(c_int) :: odesens_method_option
    end function

    function odesens_method_option_bounds(method, index, min_value, max_value) &
        bind(C, name="odesens_method_option_bounds")
      import :: c_int, c_int64_t, c_char, c_double
      character(kind=c_char), intent(in) :: method(*)
      integer(c_int64_t), value :: index
      real(c_double), intent(out) :: min_value, max_value
      integer(c_int) :: odesens_method_option_bounds
    end function

    ! ---- models ----

    function odesens_model_create(nx, np, f, user, out) bind(C, name="odesens_model_create")
      import :: c_int, c_int64_t, c_funptr, c_ptr
      integer(c_int64_t), value :: nx, np
      type(c_funptr), value :: f
      type(c_ptr), value :: user
      type(c_ptr), intent(out) :: out
      integer(c_int) :: odesens_model_create
    end function

    function odesens_model_from_builtin(name, out) bind(C, name="odesens_model_from_builtin")
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), intent(out) :: out
      integer(c_int) :: odesens_model_from_builtin
    end function

    function odesens_model_from_text(text, out) bind(C, name="odesens_model_from_text")
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: text(*)
      type(c_ptr), intent(out) :: out
      integer(c_int) :: odesens_model_from_text
    end function

    function odesens_model_from_file(path, out) bind(C, name="odesens_model_from_file")
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: out
      integer(c_int) :: odesens_model_from_file
    end function

    ! sens_params: "k1,k2"//c_null_char, or c_null_char alone for none (for
    ! the default set, use odesens_model_from_file: Fortran cannot pass NULL
    ! here).
    function odesens_model_from_sbml_file(path, sens_params, out) &
        bind(C, name="odesens_model_from_sbml_file")
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: path(*), sens_params(*)
      type(c_ptr), intent(out) :: out
      integer(c_int) :: odesens_model_from_sbml_file
    end function

    subroutine odesens_model_free(model) bind(C, name="odesens_model_free")
      import :: c_ptr
      type(c_ptr), value :: model
    end subroutine

    function odesens_model_set_jac_x(model, jac_x) bind(C, name="odesens_model_set_jac_x")
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: model
      type(c_funptr), value :: jac_x
      integer(c_int) :: odesens_model_set_jac_x
    end function

    function odesens_model_set_sparsity(model, nnz, col_ptr, row_idx) &
        bind(C, name="odesens_model_set_sparsity")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: model
      integer(c_int64_t), value :: nnz
      integer(c_int64_t), intent(in) :: col_ptr(*), row_idx(*)
      integer(c_int) :: odesens_model_set_sparsity
    end function

    function odesens_model_set_jac_x_sparse(model, jac_x_values) &
        bind(C, name="odesens_model_set_jac_x_sparse")
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: model
      type(c_funptr), value :: jac_x_values
      integer(c_int) :: odesens_model_set_jac_x_sparse
    end function

    function odesens_model_set_jac_p(model, jac_p) bind(C, name="odesens_model_set_jac_p")
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: model
      type(c_funptr), value :: jac_p
      integer(c_int) :: odesens_model_set_jac_p
    end function

    function odesens_model_set_jvp(model, jvp) bind(C, name="odesens_model_set_jvp")
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: model
      type(c_funptr), value :: jvp
      integer(c_int) :: odesens_model_set_jvp
    end function

    function odesens_model_set_vjp(model, vjp) bind(C, name="odesens_model_set_vjp")
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: model
      type(c_funptr), value :: vjp
      integer(c_int) :: odesens_model_set_vjp
    end function

    function odesens_model_set_x0_fn(model, x0) bind(C, name="odesens_model_set_x0_fn")
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: model
      type(c_funptr), value :: x0
      integer(c_int) :: odesens_model_set_x0_fn
    end function

    function odesens_model_set_dx0dp_fn(model, dx0dp) bind(C, name="odesens_model_set_dx0dp_fn")
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: model
      type(c_funptr), value :: dx0dp
      integer(c_int) :: odesens_model_set_dx0dp_fn
    end function

    function odesens_model_set_x0(model, x0, len) bind(C, name="odesens_model_set_x0")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: model
      real(c_double), intent(in) :: x0(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_model_set_x0
    end function

    function odesens_model_set_nominal_params(model, p, len) &
        bind(C, name="odesens_model_set_nominal_params")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: model
      real(c_double), intent(in) :: p(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_model_set_nominal_params
    end function

    function odesens_model_set_name(model, name) bind(C, name="odesens_model_set_name")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: model
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int) :: odesens_model_set_name
    end function

    function odesens_model_set_state_name(model, index, name) &
        bind(C, name="odesens_model_set_state_name")
      import :: c_int, c_int64_t, c_ptr, c_char
      type(c_ptr), value :: model
      integer(c_int64_t), value :: index
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int) :: odesens_model_set_state_name
    end function

    function odesens_model_set_param_name(model, index, name) &
        bind(C, name="odesens_model_set_param_name")
      import :: c_int, c_int64_t, c_ptr, c_char
      type(c_ptr), value :: model
      integer(c_int64_t), value :: index
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int) :: odesens_model_set_param_name
    end function

    function odesens_model_sizes(model, nx, np) bind(C, name="odesens_model_sizes")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: model
      integer(c_int64_t), intent(out) :: nx, np
      integer(c_int) :: odesens_model_sizes
    end function

    function odesens_model_nominal_params(model, out, len) &
        bind(C, name="odesens_model_nominal_params")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: model
      real(c_double), intent(inout) :: out(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_model_nominal_params
    end function

    function odesens_model_state_name(model, index, name) &
        bind(C, name="odesens_model_state_name")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: model
      integer(c_int64_t), value :: index
      type(c_ptr), intent(out) :: name
      integer(c_int) :: odesens_model_state_name
    end function

    function odesens_model_param_name(model, index, name) &
        bind(C, name="odesens_model_param_name")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: model
      integer(c_int64_t), value :: index
      type(c_ptr), intent(out) :: name
      integer(c_int) :: odesens_model_param_name
    end function

    ! ---- solvers ----

    function odesens_solver_create(model, method, out) bind(C, name="odesens_solver_create")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: model
      character(kind=c_char), intent(in) :: method(*)
      type(c_ptr), intent(out) :: out
      integer(c_int) :: odesens_solver_create
    end function

    subroutine odesens_solver_free(solver) bind(C, name="odesens_solver_free")
      import :: c_ptr
      type(c_ptr), value :: solver
    end subroutine

    function odesens_solver_set_params(solver, p, len) bind(C, name="odesens_solver_set_params")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: solver
      real(c_double), intent(in) :: p(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_solver_set_params
    end function

    function odesens_solver_set_initial_state(solver, x0, len) &
        bind(C, name="odesens_solver_set_initial_state")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: solver
      real(c_double), intent(in) :: x0(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_solver_set_initial_state
    end function

    function odesens_solver_set_t0(solver, t0) bind(C, name="odesens_solver_set_t0")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: solver
      real(c_double), value :: t0
      integer(c_int) :: odesens_solver_set_t0
    end function

    function odesens_solver_set_output_times(solver, times, len) &
        bind(C, name="odesens_solver_set_output_times")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: solver
      real(c_double), intent(in) :: times(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_solver_set_output_times
    end function

    function odesens_solver_set_tolerances(solver, rtol, atol) &
        bind(C, name="odesens_solver_set_tolerances")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: solver
      real(c_double), value :: rtol, atol
      integer(c_int) :: odesens_solver_set_tolerances
    end function

    function odesens_solver_set_atol_vector(solver, atol, len) &
        bind(C, name="odesens_solver_set_atol_vector")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: solver
      real(c_double), intent(in) :: atol(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_solver_set_atol_vector
    end function

    function odesens_solver_set_max_steps(solver, max_steps) &
        bind(C, name="odesens_solver_set_max_steps")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: solver
      integer(c_int64_t), value :: max_steps
      integer(c_int) :: odesens_solver_set_max_steps
    end function

    function odesens_solver_set_objectives(solver, n_objectives) &
        bind(C, name="odesens_solver_set_objectives")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: solver
      integer(c_int64_t), value :: n_objectives
      integer(c_int) :: odesens_solver_set_objectives
    end function

    function odesens_solver_set_adjoint_weights(solver, w, len) &
        bind(C, name="odesens_solver_set_adjoint_weights")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: solver
      real(c_double), intent(in) :: w(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_solver_set_adjoint_weights
    end function

    ! names(k) = c_loc of a NUL-terminated string (see odesens_set_integrand).
    function odesens_solver_set_integrand_observables(solver, names, count) &
        bind(C, name="odesens_solver_set_integrand_observables")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: solver
      type(c_ptr), intent(in) :: names(*)
      integer(c_int64_t), value :: count
      integer(c_int) :: odesens_solver_set_integrand_observables
    end function

    function odesens_set_option_double(solver, key, value) &
        bind(C, name="odesens_set_option_double")
      import :: c_int, c_ptr, c_char, c_double
      type(c_ptr), value :: solver
      character(kind=c_char), intent(in) :: key(*)
      real(c_double), value :: value
      integer(c_int) :: odesens_set_option_double
    end function

    function odesens_set_option_int(solver, key, value) bind(C, name="odesens_set_option_int")
      import :: c_int, c_int64_t, c_ptr, c_char
      type(c_ptr), value :: solver
      character(kind=c_char), intent(in) :: key(*)
      integer(c_int64_t), value :: value
      integer(c_int) :: odesens_set_option_int
    end function

    function odesens_set_option_string(solver, key, value) &
        bind(C, name="odesens_set_option_string")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: solver
      character(kind=c_char), intent(in) :: key(*), value(*)
      integer(c_int) :: odesens_set_option_string
    end function

    function odesens_solver_add_observable(solver, name) &
        bind(C, name="odesens_solver_add_observable")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: solver
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int) :: odesens_solver_add_observable
    end function

    function odesens_solver_clear_observables(solver) &
        bind(C, name="odesens_solver_clear_observables")
      import :: c_int, c_ptr
      type(c_ptr), value :: solver
      integer(c_int) :: odesens_solver_clear_observables
    end function

    function odesens_solve(solver, result) bind(C, name="odesens_solve")
      import :: c_int, c_ptr
      type(c_ptr), value :: solver
      type(c_ptr), intent(out) :: result
      integer(c_int) :: odesens_solve
    end function

    ! ---- results ----

    function odesens_solver_solve_ensemble(solver, params, n_members, threads, statuses, &
                                           ensemble) bind(C, name="odesens_solver_solve_ensemble")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: solver
      real(c_double), intent(in) :: params(*)
      integer(c_int64_t), value :: n_members, threads
      integer(c_int64_t), intent(out) :: statuses(*)
      type(c_ptr), intent(out) :: ensemble
      integer(c_int) :: odesens_solver_solve_ensemble
    end function

    subroutine odesens_ensemble_free(ensemble) bind(C, name="odesens_ensemble_free")
      import :: c_ptr
      type(c_ptr), value :: ensemble
    end subroutine

    function odesens_ensemble_sizes(ensemble, n_members, n_failed) &
        bind(C, name="odesens_ensemble_sizes")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ensemble
      integer(c_int64_t), intent(out) :: n_members, n_failed
      integer(c_int) :: odesens_ensemble_sizes
    end function

    function odesens_ensemble_status(ensemble, member, status) &
        bind(C, name="odesens_ensemble_status")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ensemble
      integer(c_int64_t), value :: member
      integer(c_int64_t), intent(out) :: status
      integer(c_int) :: odesens_ensemble_status
    end function

    function odesens_ensemble_message(ensemble, member, message) &
        bind(C, name="odesens_ensemble_message")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ensemble
      integer(c_int64_t), value :: member
      type(c_ptr), intent(out) :: message
      integer(c_int) :: odesens_ensemble_message
    end function

    function odesens_ensemble_result(ensemble, member, result) &
        bind(C, name="odesens_ensemble_result")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ensemble
      integer(c_int64_t), value :: member
      type(c_ptr), intent(out) :: result
      integer(c_int) :: odesens_ensemble_result
    end function

    subroutine odesens_result_free(result) bind(C, name="odesens_result_free")
      import :: c_ptr
      type(c_ptr), value :: result
    end subroutine

    function odesens_result_sizes(result, n_times, nx, np, n_s_times, n_gradient) &
        bind(C, name="odesens_result_sizes")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: result
      integer(c_int64_t), intent(out) :: n_times, nx, np, n_s_times, n_gradient
      integer(c_int) :: odesens_result_sizes
    end function

    function odesens_result_method(result, method) bind(C, name="odesens_result_method")
      import :: c_int, c_ptr
      type(c_ptr), value :: result
      type(c_ptr), intent(out) :: method
      integer(c_int) :: odesens_result_method
    end function

    function odesens_result_n_objectives(result, m) bind(C, name="odesens_result_n_objectives")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: result
      integer(c_int64_t), intent(out) :: m
      integer(c_int) :: odesens_result_n_objectives
    end function

    function odesens_result_times(result, out, len) bind(C, name="odesens_result_times")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: result
      real(c_double), intent(inout) :: out(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_result_times
    end function

    function odesens_result_x(result, out, len) bind(C, name="odesens_result_x")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: result
      real(c_double), intent(inout) :: out(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_result_x
    end function

    function odesens_result_s_times(result, out, len) bind(C, name="odesens_result_s_times")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: result
      real(c_double), intent(inout) :: out(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_result_s_times
    end function

    function odesens_result_s(result, out, len) bind(C, name="odesens_result_s")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: result
      real(c_double), intent(inout) :: out(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_result_s
    end function

    function odesens_result_gradient(result, out, len) bind(C, name="odesens_result_gradient")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: result
      real(c_double), intent(inout) :: out(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_result_gradient
    end function

    function odesens_result_gradient_x0(result, out, len) &
        bind(C, name="odesens_result_gradient_x0")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: result
      real(c_double), intent(inout) :: out(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_result_gradient_x0
    end function

    function odesens_solver_set_sens_directions(solver, r, len) &
        bind(C, name="odesens_solver_set_sens_directions")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: solver
      real(c_double), intent(in) :: r(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_solver_set_sens_directions
    end function

    function odesens_result_n_directions(result, n) bind(C, name="odesens_result_n_directions")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: result
      integer(c_int64_t), intent(out) :: n
      integer(c_int) :: odesens_result_n_directions
    end function

    function odesens_result_sr(result, out, len) bind(C, name="odesens_result_sr")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: result
      real(c_double), intent(inout) :: out(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_result_sr
    end function

    function odesens_solver_set_param_box(solver, lower, upper, np) &
        bind(C, name="odesens_solver_set_param_box")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: solver
      real(c_double), intent(in) :: lower(*), upper(*)
      integer(c_int64_t), value :: np
      integer(c_int) :: odesens_solver_set_param_box
    end function

    function odesens_solver_set_objective_data(solver, data, n) &
        bind(C, name="odesens_solver_set_objective_data")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: solver
      real(c_double), intent(in) :: data(*)
      integer(c_int64_t), value :: n
      integer(c_int) :: odesens_solver_set_objective_data
    end function

    function odesens_result_bounds_info(result, order, n_monomials, basis, remainder) &
        bind(C, name="odesens_result_bounds_info")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: result
      integer(c_int64_t), intent(out) :: order, n_monomials
      type(c_ptr), intent(out) :: basis, remainder
      integer(c_int) :: odesens_result_bounds_info
    end function

    function odesens_result_bounds_exponents(result, out, n) &
        bind(C, name="odesens_result_bounds_exponents")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: result
      integer(c_int64_t), intent(inout) :: out(*)
      integer(c_int64_t), value :: n
      integer(c_int) :: odesens_result_bounds_exponents
    end function

    function odesens_result_objectives(result, out, len) &
        bind(C, name="odesens_result_objectives")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: result
      real(c_double), intent(inout) :: out(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_result_objectives
    end function

    function odesens_result_stats(result, out, len) bind(C, name="odesens_result_stats")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: result
      real(c_double), intent(inout) :: out(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_result_stats
    end function

    function odesens_result_stat_count(result, count) bind(C, name="odesens_result_stat_count")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: result
      integer(c_int64_t), intent(out) :: count
      integer(c_int) :: odesens_result_stat_count
    end function

    function odesens_result_stat_name(result, index, name) &
        bind(C, name="odesens_result_stat_name")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: result
      integer(c_int64_t), value :: index
      type(c_ptr), intent(out) :: name
      integer(c_int) :: odesens_result_stat_name
    end function

    function odesens_result_stat(result, name, value) bind(C, name="odesens_result_stat")
      import :: c_int, c_ptr, c_char, c_double
      type(c_ptr), value :: result
      character(kind=c_char), intent(in) :: name(*)
      real(c_double), intent(out) :: value
      integer(c_int) :: odesens_result_stat
    end function

    function odesens_result_warning_count(result, count) &
        bind(C, name="odesens_result_warning_count")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: result
      integer(c_int64_t), intent(out) :: count
      integer(c_int) :: odesens_result_warning_count
    end function

    function odesens_result_warning(result, index, text) &
        bind(C, name="odesens_result_warning")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: result
      integer(c_int64_t), value :: index
      type(c_ptr), intent(out) :: text
      integer(c_int) :: odesens_result_warning
    end function

    function odesens_result_observable_count(result, count) &
        bind(C, name="odesens_result_observable_count")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: result
      integer(c_int64_t), intent(out) :: count
      integer(c_int) :: odesens_result_observable_count
    end function

    function odesens_result_observable_name(result, index, name) &
        bind(C, name="odesens_result_observable_name")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: result
      integer(c_int64_t), value :: index
      type(c_ptr), intent(out) :: name
      integer(c_int) :: odesens_result_observable_name
    end function

    function odesens_result_observable(result, index, out, len) &
        bind(C, name="odesens_result_observable")
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: result
      integer(c_int64_t), value :: index
      real(c_double), intent(inout) :: out(*)
      integer(c_int64_t), value :: len
      integer(c_int) :: odesens_result_observable
    end function

    function odesens_result_data(result, array, data, len) bind(C, name="odesens_result_data")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: result
      integer(c_int64_t), value :: array
      type(c_ptr), intent(out) :: data
      integer(c_int64_t), intent(out) :: len
      integer(c_int) :: odesens_result_data
    end function
  end interface

contains

  ! "text" as a NUL-terminated C string (trailing blanks removed).
  function odesens_c_string(text) result(c_text)
    character(len=*), intent(in) :: text
    character(kind=c_char, len=:), allocatable :: c_text
    c_text = trim(text) // c_null_char
  end function

  ! A C string returned by the library as a Fortran string ("" for NULL).
  function odesens_f_string(c_text) result(text)
    type(c_ptr), intent(in) :: c_text
    character(len=:), allocatable :: text
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    interface
      function c_strlen(s) bind(C, name="strlen")
        import :: c_ptr, c_size_t
        type(c_ptr), value :: s
        integer(c_size_t) :: c_strlen
      end function
    end interface
    if (.not. c_associated(c_text)) then
      text = ""
      return
    end if
    n = int(c_strlen(c_text))
    call c_f_pointer(c_text, chars, [n])
    allocate(character(len=n) :: text)
    do i = 1, n
      text(i:i) = chars(i)
    end do
  end function

  ! odesens_errmsg(handle) as a Fortran string; c_null_ptr gives the
  ! calling thread's last message.
  function odesens_message(handle) result(text)
    type(c_ptr), intent(in) :: handle
    character(len=:), allocatable :: text
    text = odesens_f_string(odesens_errmsg(handle))
  end function

  ! Stops the program with the library's message unless status is
  ! ODESENS_OK; `handle` is the handle the failed call was made on (or
  ! c_null_ptr for the create functions).
  subroutine odesens_check(status, handle)
    integer(c_int), intent(in) :: status
    type(c_ptr), intent(in) :: handle
    if (status == ODESENS_OK) return
    write (*, '(a, i0, a, a, a, a)') "odesens error ", status, " (", &
      odesens_f_string(odesens_status_string(status)), "): ", odesens_message(handle)
    error stop 1
  end subroutine

  ! times(n_times) of a result.
  subroutine odesens_get_times(result, times, status)
    type(c_ptr), intent(in) :: result
    real(c_double), allocatable, intent(out) :: times(:)
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: nt, nx, np, ns, ng
    status = odesens_result_sizes(result, nt, nx, np, ns, ng)
    if (status /= ODESENS_OK) return
    allocate(times(nt))
    status = odesens_result_times(result, times, nt)
  end subroutine

  ! x(nx, n_times): x(:, k) is the state at times(k).
  subroutine odesens_get_x(result, x, status)
    type(c_ptr), intent(in) :: result
    real(c_double), allocatable, intent(out) :: x(:, :)
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: nt, nx, np, ns, ng
    status = odesens_result_sizes(result, nt, nx, np, ns, ng)
    if (status /= ODESENS_OK) return
    allocate(x(nx, nt))
    status = odesens_result_x(result, x, nx * nt)
  end subroutine

  ! s(nx, np, n_s_times): s(i, j, k) = dx_i/dp_j at the k-th S time.
  subroutine odesens_get_s(result, s, status)
    type(c_ptr), intent(in) :: result
    real(c_double), allocatable, intent(out) :: s(:, :, :)
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: nt, nx, np, ns, ng
    status = odesens_result_sizes(result, nt, nx, np, ns, ng)
    if (status /= ODESENS_OK) return
    allocate(s(nx, np, ns))
    status = odesens_result_s(result, s, nx * np * ns)
  end subroutine

  ! Running costs R_m = names(m), observables of the model (trailing blanks
  ! removed), through odesens_solver_set_integrand_observables; no names
  ! removes them. Returns the status of that call.
  function odesens_set_integrand(solver, names) result(status)
    type(c_ptr), intent(in) :: solver
    character(len=*), intent(in) :: names(:)
    integer(c_int) :: status
    character(kind=c_char), allocatable, target :: chars(:)
    type(c_ptr), allocatable :: pointers(:)
    integer :: k, i, n, at
    allocate(chars(sum(len_trim(names)) + size(names)))
    allocate(pointers(max(size(names), 1)))
    pointers = c_null_ptr
    at = 1
    do k = 1, size(names)
      n = len_trim(names(k))
      do i = 1, n
        chars(at + i - 1) = names(k)(i:i)
      end do
      chars(at + n) = c_null_char
      pointers(k) = c_loc(chars(at))
      at = at + n + 1
    end do
    status = odesens_solver_set_integrand_observables(solver, pointers, &
                                                      int(size(names), c_int64_t))
  end function

  ! gradient(np) of an adjoint result; for M objectives all np * M values,
  ! objective slowest (see odesens_get_gradients).
  subroutine odesens_get_gradient(result, gradient, status)
    type(c_ptr), intent(in) :: result
    real(c_double), allocatable, intent(out) :: gradient(:)
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: nt, nx, np, ns, ng
    status = odesens_result_sizes(result, nt, nx, np, ns, ng)
    if (status /= ODESENS_OK) return
    allocate(gradient(ng))
    status = odesens_result_gradient(result, gradient, ng)
  end subroutine

  ! gradients(np, M) of an adjoint result: gradients(j, m) = dpsi_m/dp_j.
  subroutine odesens_get_gradients(result, gradients, status)
    type(c_ptr), intent(in) :: result
    real(c_double), allocatable, intent(out) :: gradients(:, :)
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: nt, nx, np, ns, ng, m
    status = odesens_result_sizes(result, nt, nx, np, ns, ng)
    if (status /= ODESENS_OK) return
    status = odesens_result_n_objectives(result, m)
    if (status /= ODESENS_OK) return
    allocate(gradients(np, m))
    status = odesens_result_gradient(result, gradients, np * m)
  end subroutine

  ! gradient_x0(nx, M): gradient_x0(i, m) = dpsi_m/dx_i(t0) (erk_adjoint).
  subroutine odesens_get_gradient_x0(result, gradient_x0, status)
    type(c_ptr), intent(in) :: result
    real(c_double), allocatable, intent(out) :: gradient_x0(:, :)
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: nt, nx, np, ns, ng, m
    status = odesens_result_sizes(result, nt, nx, np, ns, ng)
    if (status /= ODESENS_OK) return
    status = odesens_result_n_objectives(result, m)
    if (status /= ODESENS_OK) return
    allocate(gradient_x0(nx, m))
    status = odesens_result_gradient_x0(result, gradient_x0, nx * m)
  end subroutine

  ! sr(nx, n_directions, n_times): sr(i, j, k) = (S(t_k) r_j)_i for the
  ! directions of odesens_solver_set_sens_directions or of the option
  ! directions=states|all (dopri8s, grk4as).
  subroutine odesens_get_sr(result, sr, status)
    type(c_ptr), intent(in) :: result
    real(c_double), allocatable, intent(out) :: sr(:, :, :)
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: nt, nx, np, ns, ng, nd
    status = odesens_result_sizes(result, nt, nx, np, ns, ng)
    if (status /= ODESENS_OK) return
    status = odesens_result_n_directions(result, nd)
    if (status /= ODESENS_OK) return
    allocate(sr(nx, nd, nt))
    status = odesens_result_sr(result, sr, nx * nd * nt)
  end subroutine

  ! Copies the n values of result array `array` (odesens_result_array,
  ! through odesens_result_data) into values.
  subroutine odesens_copy_array(result, array, values, n, status)
    type(c_ptr), intent(in) :: result
    integer(c_int64_t), intent(in) :: array, n
    real(c_double), intent(inout) :: values(*)
    integer(c_int), intent(out) :: status
    type(c_ptr) :: data
    integer(c_int64_t) :: len
    real(c_double), pointer :: view(:)
    status = odesens_result_data(result, array, data, len)
    if (status /= ODESENS_OK) return
    if (len > n) then
      status = ODESENS_ERR_BUFFER_TOO_SMALL
      return
    end if
    call c_f_pointer(data, view, [len])
    values(1:len) = view
  end subroutine

  ! The sizes of a result with bounds (bounds_fsa, bounds_asa): n_times, nx, np and
  ! the number of coefficients of each model.
  subroutine bounds_sizes(result, nt, nx, np, n_monomials, status)
    type(c_ptr), intent(in) :: result
    integer(c_int64_t), intent(out) :: nt, nx, np, n_monomials
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: ns, ng, order
    type(c_ptr) :: basis, remainder
    status = odesens_result_sizes(result, nt, nx, np, ns, ng)
    if (status /= ODESENS_OK) return
    status = odesens_result_bounds_info(result, order, n_monomials, basis, remainder)
  end subroutine

  ! n models of one kind: coefficients from array `first` (ODESENS_ARRAY_X_COEF,
  ! _S_COEF or _GRADIENT_COEF), remainders and hulls from the two after it.
  subroutine copy_models(result, first, n_monomials, n, coef, rem, hull, status)
    type(c_ptr), intent(in) :: result
    integer(c_int64_t), intent(in) :: first, n_monomials, n
    real(c_double), intent(inout) :: coef(*), rem(*), hull(*)
    integer(c_int), intent(out) :: status
    call odesens_copy_array(result, first, coef, n_monomials * n, status)
    if (status /= ODESENS_OK) return
    call odesens_copy_array(result, first + 1, rem, 2 * n, status)
    if (status /= ODESENS_OK) return
    call odesens_copy_array(result, first + 2, hull, 2 * n, status)
  end subroutine

  ! The models of x (bounds_fsa, bounds_asa): coef(n_monomials, nx, n_times) over the
  ! basis of odesens_get_bounds_basis, rem(:, i, k) and hull(:, i, k) the
  ! (lower, upper) remainder and enclosure of x_i(t_k) over the box.
  subroutine odesens_get_bounds_x(result, coef, rem, hull, status)
    type(c_ptr), intent(in) :: result
    real(c_double), allocatable, intent(out) :: coef(:, :, :), rem(:, :, :), hull(:, :, :)
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: nt, nx, np, nm
    call bounds_sizes(result, nt, nx, np, nm, status)
    if (status /= ODESENS_OK) return
    allocate(coef(nm, nx, nt), rem(2, nx, nt), hull(2, nx, nt))
    call copy_models(result, ODESENS_ARRAY_X_COEF, nm, nx * nt, coef, rem, hull, status)
  end subroutine

  ! The models of S: coef(n_monomials, nx, np, n_times), rem and
  ! hull(2, nx, np, n_times) for dx_i/dp_j at t_k (bounds_fsa; bounds_asa
  ! keeps no S: the arrays are allocated with no times).
  subroutine odesens_get_bounds_s(result, coef, rem, hull, status)
    type(c_ptr), intent(in) :: result
    real(c_double), allocatable, intent(out) :: coef(:, :, :, :), rem(:, :, :, :), &
                                                hull(:, :, :, :)
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: nt, nx, np, nm, ns, ng
    call bounds_sizes(result, nt, nx, np, nm, status)
    if (status /= ODESENS_OK) return
    status = odesens_result_sizes(result, nt, nx, np, ns, ng)
    if (status /= ODESENS_OK) return
    allocate(coef(nm, nx, np, ns), rem(2, nx, np, ns), hull(2, nx, np, ns))
    if (ns == 0) return
    call copy_models(result, ODESENS_ARRAY_S_COEF, nm, nx * np * ns, coef, rem, hull, status)
  end subroutine

  ! The models of the objective's gradient: coef(n_monomials, np), rem and
  ! hull(2, np).
  subroutine odesens_get_bounds_gradient(result, coef, rem, hull, status)
    type(c_ptr), intent(in) :: result
    real(c_double), allocatable, intent(out) :: coef(:, :), rem(:, :), hull(:, :)
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: nt, nx, np, nm
    call bounds_sizes(result, nt, nx, np, nm, status)
    if (status /= ODESENS_OK) return
    allocate(coef(nm, np), rem(2, np), hull(2, np))
    call copy_models(result, ODESENS_ARRAY_GRADIENT_COEF, nm, np, coef, rem, hull, status)
  end subroutine

  ! The basis of the models: exponents(np, n_monomials) (basis function c
  ! is prod_j T_{exponents(j, c)}(xi_j), or xi_j^exponents(j, c) for the
  ! taylor basis) and xi_j = (p_j - mid(j)) / rad(j).
  subroutine odesens_get_bounds_basis(result, exponents, mid, rad, status)
    type(c_ptr), intent(in) :: result
    integer(c_int64_t), allocatable, intent(out) :: exponents(:, :)
    real(c_double), allocatable, intent(out) :: mid(:), rad(:)
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: nt, nx, np, nm
    call bounds_sizes(result, nt, nx, np, nm, status)
    if (status /= ODESENS_OK) return
    allocate(exponents(np, nm), mid(np), rad(np))
    status = odesens_result_bounds_exponents(result, exponents, np * nm)
    if (status /= ODESENS_OK) return
    call odesens_copy_array(result, ODESENS_ARRAY_BOX_MID, mid, np, status)
    if (status /= ODESENS_OK) return
    call odesens_copy_array(result, ODESENS_ARRAY_BOX_RAD, rad, np, status)
  end subroutine

  ! values(M): the objectives psi_m (erk_adjoint).
  subroutine odesens_get_objectives(result, values, status)
    type(c_ptr), intent(in) :: result
    real(c_double), allocatable, intent(out) :: values(:)
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: m
    status = odesens_result_n_objectives(result, m)
    if (status /= ODESENS_OK) return
    allocate(values(m))
    status = odesens_result_objectives(result, values, m)
  end subroutine

  ! The statistics in the order of odesens_stat; Fortran counts from 1, so
  ! the number of steps is stats(ODESENS_STAT_STEPS + 1).
  subroutine odesens_get_stats(result, stats, status)
    type(c_ptr), intent(in) :: result
    real(c_double), intent(out) :: stats(ODESENS_STAT_COUNT)
    integer(c_int), intent(out) :: status
    stats = 0
    status = odesens_result_stats(result, stats, ODESENS_STAT_COUNT)
  end subroutine

end module odesens
