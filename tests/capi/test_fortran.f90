! Chua's circuit written as Fortran callbacks, solved through the C ABI with
! cvodes_fsa, against the same problem with the C++ built-in "chua": the
! sensitivities agree to 1e-10. Also exercises the Fortran conveniences, and
! two objectives with running costs (erk_adjoint) against differences.

! The right-hand side and Jacobians of src/model/builtin/chua.cpp, term for
! term in the same order, so that both give the same rounding.
module chua_fortran
  use, intrinsic :: iso_c_binding
  implicit none
  private
  public :: chua_rhs, chua_jac_x, chua_jac_p, failing_rhs

contains

  pure function g(x1)
    real(c_double), intent(in) :: x1
    real(c_double) :: g
    g = -8.0_c_double / 7.0_c_double * x1 + 4.0_c_double / 63.0_c_double * x1 * x1 * x1
  end function

  integer(c_int) function chua_rhs(t, x, p, xdot, user) bind(C)
    real(c_double), value :: t
    real(c_double), intent(in) :: x(3), p(2)
    real(c_double), intent(out) :: xdot(3)
    type(c_ptr), value :: user
    xdot(1) = p(1) * (x(2) - x(1) - g(x(1)))
    xdot(2) = x(1) - x(2) + x(3)
    xdot(3) = -p(2) * x(2)
    chua_rhs = 0
  end function

  ! J(3, 3) = df/dx, column-major as C expects.
  integer(c_int) function chua_jac_x(t, x, p, jac, user) bind(C)
    real(c_double), value :: t
    real(c_double), intent(in) :: x(3), p(2)
    real(c_double), intent(out) :: jac(3, 3)
    type(c_ptr), value :: user
    real(c_double) :: dg
    dg = -8.0_c_double / 7.0_c_double + 12.0_c_double / 63.0_c_double * x(1) * x(1)
    jac(:, 1) = [-p(1) * (1.0_c_double + dg), 1.0_c_double, 0.0_c_double]
    jac(:, 2) = [p(1), -1.0_c_double, -p(2)]
    jac(:, 3) = [0.0_c_double, 1.0_c_double, 0.0_c_double]
    chua_jac_x = 0
  end function

  ! Jp(3, 2) = df/dp.
  integer(c_int) function chua_jac_p(t, x, p, jac, user) bind(C)
    real(c_double), value :: t
    real(c_double), intent(in) :: x(3), p(2)
    real(c_double), intent(out) :: jac(3, 2)
    type(c_ptr), value :: user
    jac(:, 1) = [x(2) - x(1) - g(x(1)), 0.0_c_double, 0.0_c_double]
    jac(:, 2) = [0.0_c_double, 0.0_c_double, -x(2)]
    chua_jac_p = 0
  end function

  ! Reports failure once t > 1.
  integer(c_int) function failing_rhs(t, x, p, xdot, user) bind(C)
    real(c_double), value :: t
    real(c_double), intent(in) :: x(3), p(2)
    real(c_double), intent(out) :: xdot(3)
    type(c_ptr), value :: user
    failing_rhs = chua_rhs(t, x, p, xdot, user)
    if (t > 1.0_c_double) failing_rhs = 7
  end function

end module chua_fortran

program test_fortran
  use, intrinsic :: iso_c_binding
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  use odesens
  use chua_fortran
  implicit none

  real(c_double), parameter :: times(4) = [0.5_c_double, 1.0_c_double, 2.0_c_double, 3.0_c_double]
  real(c_double), parameter :: p(2) = [7.0_c_double, 15.0_c_double]
  real(c_double), parameter :: x0(3) = [0.0_c_double, 0.0_c_double, -0.1_c_double]
  type(c_ptr) :: builtin, model, failing
  real(c_double), allocatable :: s_builtin(:, :, :), s_fortran(:, :, :)
  real(c_double), allocatable :: x_builtin(:, :), x_fortran(:, :), t_out(:)
  real(c_double) :: stats(ODESENS_STAT_COUNT), difference
  integer(c_int) :: status
  integer :: failures
  failures = 0

  call odesens_check(odesens_model_from_builtin("chua" // c_null_char, builtin), c_null_ptr)
  call odesens_check(odesens_model_create(3_c_int64_t, 2_c_int64_t, c_funloc(chua_rhs), &
                                          c_null_ptr, model), c_null_ptr)
  call odesens_check(odesens_model_set_nominal_params(model, p, 2_c_int64_t), model)
  call odesens_check(odesens_model_set_x0(model, x0, 3_c_int64_t), model)
  call odesens_check(odesens_model_set_jac_x(model, c_funloc(chua_jac_x)), model)
  call odesens_check(odesens_model_set_jac_p(model, c_funloc(chua_jac_p)), model)
  call odesens_check(odesens_model_set_name(model, odesens_c_string("chua in Fortran")), model)

  call solve_fsa(builtin, x_builtin, s_builtin, stats)
  call solve_fsa(model, x_fortran, s_fortran, stats)

  call expect(all(shape(s_fortran) == [3, 2, 4]), "S has shape (nx, np, n_times)")
  call expect(all(shape(x_fortran) == [3, 4]), "X has shape (nx, n_times)")
  difference = maxval(abs(s_fortran - s_builtin) / max(1.0_c_double, abs(s_builtin)))
  write (*, '(a, es10.3)') "max scaled difference of S, Fortran vs C++ built-in: ", difference
  call expect(difference <= 1e-10_c_double, "S of the Fortran callbacks matches the built-in to 1e-10")
  call expect(maxval(abs(x_fortran - x_builtin)) <= 1e-10_c_double, "X matches the built-in")
  call expect(maxval(abs(s_builtin)) > 1e-3_c_double, "S is not trivially zero")
  call expect(stats(ODESENS_STAT_STEPS + 1) > 0, "the solve took steps")
  call expect(stats(ODESENS_STAT_JAC_EVALS + 1) > 0, "the Fortran Jacobian was used")

  call check_getters(model)
  call check_array_table(model)
  call check_errors(model)
  call check_objectives()
  call check_directions()
  call check_bounds()
  call check_ensemble()

  ! A callback failure surfaces as a status and a message naming 'f'.
  call odesens_check(odesens_model_create(3_c_int64_t, 2_c_int64_t, c_funloc(failing_rhs), &
                                          c_null_ptr, failing), c_null_ptr)
  call odesens_check(odesens_model_set_nominal_params(failing, p, 2_c_int64_t), failing)
  call check_callback_failure(failing)

  call odesens_model_free(failing)
  call odesens_model_free(model)
  call odesens_model_free(builtin)
  call odesens_model_free(c_null_ptr)
  ! Variables of the main program are never freed implicitly.
  deallocate(s_builtin, s_fortran, x_builtin, x_fortran, t_out)

  if (failures > 0) then
    write (*, '(i0, a)') failures, " check(s) failed"
    error stop 1
  end if
  write (*, '(a)') "test_fortran: all checks passed"

contains

  subroutine expect(condition, what)
    logical, intent(in) :: condition
    character(len=*), intent(in) :: what
    if (condition) return
    write (*, '(a, a)') "check failed: ", what
    failures = failures + 1
  end subroutine

  ! cvodes_fsa at rtol 1e-10, atol 1e-12 at `times`.
  subroutine solve_fsa(m, x, s, stats)
    type(c_ptr), intent(in) :: m
    real(c_double), allocatable, intent(out) :: x(:, :), s(:, :, :)
    real(c_double), intent(out) :: stats(ODESENS_STAT_COUNT)
    type(c_ptr) :: solver, result
    call odesens_check(odesens_solver_create(m, "cvodes_fsa" // c_null_char, solver), c_null_ptr)
    call odesens_check(odesens_solver_set_output_times(solver, times, 4_c_int64_t), solver)
    call odesens_check(odesens_solver_set_tolerances(solver, 1e-10_c_double, 1e-12_c_double), &
                       solver)
    call odesens_check(odesens_solve(solver, result), solver)
    call odesens_get_x(result, x, status)
    call odesens_check(status, result)
    call odesens_get_s(result, s, status)
    call odesens_check(status, result)
    call odesens_get_times(result, t_out, status)
    call odesens_check(status, result)
    call expect(all(t_out == times), "the output times come back")
    call odesens_get_stats(result, stats, status)
    call odesens_check(status, result)
    call odesens_result_free(result)
    call odesens_solver_free(solver)
  end subroutine

  subroutine check_getters(m)
    type(c_ptr), intent(in) :: m
    integer(c_int64_t) :: nx, np, n_methods
    type(c_ptr) :: name
    real(c_double) :: nominal(2)
    call odesens_check(odesens_model_sizes(m, nx, np), m)
    call expect(nx == 3 .and. np == 2, "model sizes")
    call odesens_check(odesens_model_nominal_params(m, nominal, 2_c_int64_t), m)
    call expect(all(nominal == p), "nominal parameters")
    call odesens_check(odesens_model_state_name(m, 0_c_int64_t, name), m)
    call expect(odesens_f_string(name) == "x1", "default state name")
    call odesens_check(odesens_method_count(n_methods), c_null_ptr)
    call expect(n_methods >= 2, "at least the two CVODES methods")
    call odesens_check(odesens_method_id(0_c_int64_t, name), c_null_ptr)
    call expect(odesens_f_string(name) == "cvodes_fsa", "method 0 is cvodes_fsa")
    call expect(odesens_f_string(odesens_version()) == "0.1.0", "version string")
    call expect(odesens_abi_version() == ODESENS_MODULE_ABI_VERSION, "ABI version")
  end subroutine

  ! The result's arrays as a table: every name, and S found by name with
  ! its extents (nx, np, n_times), fastest first as Fortran indexes it.
  subroutine check_array_table(m)
    type(c_ptr), intent(in) :: m
    type(c_ptr) :: solver, result, name, doc
    integer(c_int64_t) :: count, k, index, ndim, extents(4)
    character(len=:), allocatable :: names
    call odesens_check(odesens_solver_create(m, "cvodes_fsa" // c_null_char, solver), c_null_ptr)
    call odesens_check(odesens_solver_set_output_times(solver, times, 4_c_int64_t), solver)
    call odesens_check(odesens_solve(solver, result), solver)
    call odesens_check(odesens_result_array_count(result, count), result)
    call expect(count == ODESENS_ARRAY_BOX_UPPER + 1, "one table entry per odesens_result_array")
    names = ""
    do k = 0, count - 1
      call odesens_check(odesens_result_array_name(result, k, name, doc), result)
      names = names // odesens_f_string(name) // " "
      call expect(len(odesens_f_string(doc)) > 0, "every array has a line of documentation")
    end do
    call expect(index_of(names, "times x S_times S gradient") == 1, "the table's first names")
    call odesens_check(odesens_result_array_index(result, "S" // c_null_char, index), result)
    call expect(index == ODESENS_ARRAY_S, "S by name")
    call odesens_check(odesens_result_array_dims(result, index, ndim, extents, 4_c_int64_t), &
                       result)
    call expect(ndim == 3 .and. all(extents(1:3) == [3, 2, 4]), "S is (nx, np, n_times)")
    call odesens_check(odesens_result_array_axis(result, index, 1_c_int64_t, name), result)
    call expect(odesens_f_string(name) == "parameter", "S's second axis")
    call odesens_result_free(result)
    call odesens_solver_free(solver)
  end subroutine

  integer function index_of(text, part)
    character(len=*), intent(in) :: text, part
    index_of = index(text, part)
  end function

  subroutine check_errors(m)
    type(c_ptr), intent(in) :: m
    type(c_ptr) :: solver
    real(c_double) :: short(1)
    integer(c_int) :: code
    code = odesens_solver_create(m, "no_such_method" // c_null_char, solver)
    call expect(code == ODESENS_ERR_UNKNOWN_METHOD, "unknown method is refused")
    call expect(.not. c_associated(solver), "no solver on failure")
    call expect(index(odesens_message(c_null_ptr), "no_such_method") > 0, &
                "the thread's message names the method")
    call odesens_check(odesens_solver_create(m, "cvodes_fsa" // c_null_char, solver), c_null_ptr)
    code = odesens_set_option_string(solver, odesens_c_string("lmm"), odesens_c_string("rk4"))
    call expect(code == ODESENS_ERR_OPTION_TYPE, "option value outside its choices")
    call expect(index(odesens_message(solver), "lmm") > 0, "the solver's message names the key")
    code = odesens_solver_set_params(solver, p, 3_c_int64_t)
    call expect(code == ODESENS_ERR_INVALID_ARGUMENT, "wrong parameter count")
    code = odesens_model_nominal_params(m, short, 1_c_int64_t)
    call expect(code == ODESENS_ERR_BUFFER_TOO_SMALL, "short buffer")
    call odesens_solver_free(solver)
  end subroutine

  ! Two objectives of a model from .ode text: psi_1 = -u(2) + integral of
  ! cost, psi_2 = integral of u; erk_adjoint with fixed steps, so that the
  ! objective values are smooth in p and their differences check the
  ! gradients.
  subroutine check_objectives()
    character(len=*), parameter :: text = &
      "param a = 1.3" // c_new_line // "param b = 0.7" // c_new_line // &
      "state u = 1" // c_new_line // "state v = 0.5*a" // c_new_line // &
      "du/dt = -a*u + b*sin(v)" // c_new_line // "dv/dt = a*u*v/(1 + v^2) - b*v" // &
      c_new_line // "output cost = (u - 0.3)^2 + b*log(1 + v^2)" // c_new_line
    real(c_double), parameter :: nominal(2) = [1.3_c_double, 0.7_c_double]
    type(c_ptr) :: m, solver, result
    real(c_double), allocatable :: gradients(:, :), gradient_x0(:, :), psi(:), flat(:)
    real(c_double) :: plus(2), minus(2), reference(2, 2), q(2), delta
    integer(c_int64_t) :: n_objectives
    integer :: j
    call odesens_check(odesens_model_from_text(text // c_null_char, m), c_null_ptr)
    solver = objectives_solver(m, nominal)
    call expect(odesens_set_integrand(solver, [character(len=6) :: "cost", "nosuch"]) == &
                ODESENS_ERR_INVALID_ARGUMENT, "an unknown running cost is refused")
    call expect(index(odesens_message(solver), "'nosuch'") > 0, "the message names it")
    call odesens_check(odesens_solve(solver, result), solver)
    call odesens_check(odesens_result_n_objectives(result, n_objectives), result)
    call expect(n_objectives == 2, "two objectives")
    call odesens_get_gradients(result, gradients, status)
    call odesens_check(status, result)
    call odesens_get_gradient_x0(result, gradient_x0, status)
    call odesens_check(status, result)
    call odesens_get_objectives(result, psi, status)
    call odesens_check(status, result)
    call odesens_get_gradient(result, flat, status)
    call odesens_check(status, result)
    call expect(all(shape(gradients) == [2, 2]), "gradients have shape (np, n_objectives)")
    call expect(all(shape(gradient_x0) == [2, 2]), "gradient_x0 has shape (nx, n_objectives)")
    call expect(size(psi) == 2 .and. size(flat) == 4, "objectives and flat gradient sizes")
    call expect(all(flat == reshape(gradients, [4])), "the flat gradient is column-major")
    call odesens_result_free(result)
    call odesens_solver_free(solver)
    do j = 1, 2
      delta = 1e-5_c_double * nominal(j)
      q = nominal
      q(j) = nominal(j) + delta
      call objectives_at(m, q, plus)
      q(j) = nominal(j) - delta
      call objectives_at(m, q, minus)
      reference(j, :) = (plus - minus) / (2 * delta)
    end do
    difference = maxval(abs(gradients - reference) / max(1.0_c_double, abs(reference)))
    write (*, '(a, es10.3)') "max scaled difference of the gradients from differences: ", &
      difference
    call expect(difference <= 1e-7_c_double, "the gradients agree with differences to 1e-7")
    call expect(all(abs(gradient_x0) > 0), "d psi / d x0 is not zero")
    deallocate(gradients, gradient_x0, psi, flat)
    call odesens_model_free(m)
  end subroutine

  ! S·R of dopri8s for directions given as a 2-D Fortran array (columns
  ! (u0, v0, a, b)) on u' = -a u, v' = -b v: sr(:, j, k) against the exact
  ! partial derivatives at t_k.
  subroutine check_directions()
    character(len=*), parameter :: text = &
      "param a = 0.5" // c_new_line // "param b = 2" // c_new_line // &
      "state u = 1" // c_new_line // "state v = b" // c_new_line // &
      "du/dt = -a*u" // c_new_line // "dv/dt = -b*v" // c_new_line
    real(c_double), parameter :: t(2) = [1.0_c_double, 2.0_c_double]
    real(c_double) :: r(4, 2), expected(2, 2, 2)
    real(c_double), allocatable :: sr(:, :, :)
    type(c_ptr) :: m, solver, result
    integer :: k
    r = 0
    r(1, 1) = 1                 ! du0
    r(2, 2) = -2                ! dv0 and db together
    r(4, 2) = 0.25_c_double
    do k = 1, 2
      expected(:, 1, k) = [exp(-0.5_c_double * t(k)), 0.0_c_double]
      expected(:, 2, k) = [0.0_c_double, &
                           (-2 - 0.25_c_double * t(k) * 2) * exp(-2 * t(k))]
    end do
    call odesens_check(odesens_model_from_text(text // c_null_char, m), c_null_ptr)
    call odesens_check(odesens_solver_create(m, "dopri8s" // c_null_char, solver), c_null_ptr)
    call odesens_check(odesens_solver_set_output_times(solver, t, 2_c_int64_t), solver)
    call expect(odesens_solver_set_sens_directions(solver, r, 3_c_int64_t) == &
                ODESENS_ERR_INVALID_ARGUMENT, "directions of a partial column are refused")
    call odesens_check(odesens_solver_set_sens_directions(solver, r, 8_c_int64_t), solver)
    call odesens_check(odesens_solve(solver, result), solver)
    call odesens_get_sr(result, sr, status)
    call odesens_check(status, result)
    call expect(all(shape(sr) == [2, 2, 2]), "sr has shape (nx, n_directions, n_times)")
    difference = maxval(abs(sr - expected))
    write (*, '(a, es10.3)') "max difference of S*R from the exact products: ", difference
    call expect(difference <= 1e-6_c_double, "S*R agrees with the exact products to 1e-6")
    call odesens_result_free(result)
    call odesens_solver_free(solver)
    call odesens_model_free(m)
  end subroutine

  ! An ensemble of four parameter vectors, the columns of params(2, 4), the
  ! third with a NaN: its status is not_finite, the others equal separate
  ! solves bit for bit.
  subroutine check_ensemble()
    character(len=*), parameter :: text = &
      "param a = 0.5" // c_new_line // "param b = 2" // c_new_line // &
      "state u = 1" // c_new_line // "state v = b" // c_new_line // &
      "du/dt = -a*u*v" // c_new_line // "dv/dt = -b*v + u" // c_new_line
    real(c_double), parameter :: t(2) = [1.0_c_double, 2.0_c_double]
    real(c_double) :: params(2, 4), s_member(2, 2, 2), s_alone(2, 2, 2)
    integer(c_int64_t) :: statuses(4), n_members, n_failed, k
    type(c_ptr) :: m, solver, ensemble, member, alone, message
    params(1, :) = [0.5_c_double, 0.6_c_double, 0.7_c_double, 0.8_c_double]
    params(2, :) = [2.0_c_double, 1.5_c_double, 1.0_c_double, 0.5_c_double]
    params(1, 3) = ieee_value(params(1, 3), ieee_quiet_nan)
    call odesens_check(odesens_model_from_text(text // c_null_char, m), c_null_ptr)
    call odesens_check(odesens_solver_create(m, "cvodes_fsa" // c_null_char, solver), c_null_ptr)
    call odesens_check(odesens_solver_set_output_times(solver, t, 2_c_int64_t), solver)
    call odesens_check(odesens_solver_solve_ensemble(solver, params, 4_c_int64_t, 2_c_int64_t, &
                                                     statuses, ensemble), solver)
    call odesens_check(odesens_ensemble_sizes(ensemble, n_members, n_failed), ensemble)
    call expect(n_members == 4 .and. n_failed == 1, "four members, one failed")
    call expect(statuses(3) == ODESENS_ERR_NOT_FINITE, "the NaN member is not_finite")
    call odesens_check(odesens_ensemble_message(ensemble, 2_c_int64_t, message), ensemble)
    call expect(index(odesens_f_string(message), "NaN") > 0, "its message names the NaN")
    do k = 1, 4
      if (k == 3) cycle
      call expect(statuses(k) == ODESENS_OK, "the other members succeed")
      call odesens_check(odesens_ensemble_result(ensemble, k - 1, member), ensemble)
      call odesens_check(odesens_result_s(member, s_member, 8_c_int64_t), member)
      call odesens_check(odesens_solver_set_params(solver, params(:, k), 2_c_int64_t), solver)
      call odesens_check(odesens_solve(solver, alone), solver)
      call odesens_check(odesens_result_s(alone, s_alone, 8_c_int64_t), alone)
      call expect(all(s_member == s_alone), "a member's S equals a separate solve's")
      call odesens_result_free(member)
      call odesens_result_free(alone)
    end do
    call odesens_ensemble_free(ensemble)
    call odesens_solver_free(solver)
    call odesens_model_free(m)
  end subroutine

  ! bounds_fsa over the box p in [0.9, 1.1] of x' = -p x, x(0) = 1: at
  ! parameters across the box, exp(-p t_k) lies in the hull of x(t_k) and
  ! in its Chebyshev model (T_e(xi) = cos(e acos(xi))) plus remainder,
  ! -t exp(-p t) in the hull of S, and -exp(-p) in that of the gradient of
  ! the default objective x(1).
  subroutine check_bounds()
    character(len=*), parameter :: text = &
      "param p = 1" // c_new_line // "state x = 1" // c_new_line // "dx/dt = -p*x" // c_new_line
    real(c_double), parameter :: t(2) = [0.5_c_double, 1.0_c_double], slack = 1e-6_c_double
    real(c_double), allocatable :: x_coef(:, :, :), x_rem(:, :, :), x_hull(:, :, :), &
                                   s_coef(:, :, :, :), s_rem(:, :, :, :), s_hull(:, :, :, :), &
                                   g_coef(:, :), g_rem(:, :), g_hull(:, :), mid(:), rad(:)
    integer(c_int64_t), allocatable :: exponents(:, :)
    real(c_double) :: p, xi, model_value, exact
    type(c_ptr) :: m, solver, result
    integer :: k, step
    logical :: inside
    call odesens_check(odesens_model_from_text(text // c_null_char, m), c_null_ptr)
    call odesens_check(odesens_solver_create(m, "bounds_fsa" // c_null_char, solver), c_null_ptr)
    call odesens_check(odesens_solver_set_output_times(solver, t, 2_c_int64_t), solver)
    call odesens_check(odesens_set_option_int(solver, "order" // c_null_char, 5_c_int64_t), &
                       solver)
    call expect(odesens_solver_set_param_box(solver, [1.1_c_double], [0.9_c_double], &
                                             1_c_int64_t) == ODESENS_ERR_INVALID_ARGUMENT, &
                "a box with lower > upper is refused")
    call odesens_check(odesens_solver_set_param_box(solver, [0.9_c_double], [1.1_c_double], &
                                                    1_c_int64_t), solver)
    call odesens_check(odesens_solve(solver, result), solver)
    call odesens_get_bounds_x(result, x_coef, x_rem, x_hull, status)
    call odesens_check(status, result)
    call odesens_get_bounds_s(result, s_coef, s_rem, s_hull, status)
    call odesens_check(status, result)
    call odesens_get_bounds_gradient(result, g_coef, g_rem, g_hull, status)
    call odesens_check(status, result)
    call odesens_get_bounds_basis(result, exponents, mid, rad, status)
    call odesens_check(status, result)
    call expect(all(shape(x_coef) == [6, 1, 2]) .and. all(shape(s_hull) == [2, 1, 1, 2]) .and. &
                all(shape(g_rem) == [2, 1]) .and. all(shape(exponents) == [1, 6]), &
                "the bounds have shapes (n_monomials or 2, nx, [np,] n_times)")
    inside = .true.
    do step = 0, 4
      p = 0.9_c_double + 0.05_c_double * step
      xi = (p - mid(1)) / rad(1)
      do k = 1, 2
        exact = exp(-p * t(k))
        model_value = sum(x_coef(:, 1, k) * cos(exponents(1, :) * acos(xi)))
        inside = inside .and. x_hull(1, 1, k) - slack <= exact .and. &
                 exact <= x_hull(2, 1, k) + slack .and. &
                 model_value + x_rem(1, 1, k) - slack <= exact .and. &
                 exact <= model_value + x_rem(2, 1, k) + slack .and. &
                 s_hull(1, 1, 1, k) - slack <= -t(k) * exact .and. &
                 -t(k) * exact <= s_hull(2, 1, 1, k) + slack
      end do
      inside = inside .and. g_hull(1, 1) - slack <= -exp(-p) .and. -exp(-p) <= g_hull(2, 1) + slack
    end do
    call expect(inside, "the bounds enclose x, S and the gradient across the box")
    call expect(x_hull(2, 1, 2) - x_hull(1, 1, 2) <= exp(-0.9_c_double) - exp(-1.1_c_double) + &
                1e-4_c_double, "the hull of x(1) is tight")
    call odesens_result_free(result)
    call odesens_solver_free(solver)
    ! bounds_asa: the same gradient enclosure by the adjoint, and no S.
    call odesens_check(odesens_solver_create(m, "bounds_asa" // c_null_char, solver), c_null_ptr)
    call odesens_check(odesens_solver_set_output_times(solver, t, 2_c_int64_t), solver)
    call odesens_check(odesens_set_option_int(solver, "order" // c_null_char, 5_c_int64_t), &
                       solver)
    call odesens_check(odesens_solver_set_param_box(solver, [0.9_c_double], [1.1_c_double], &
                                                    1_c_int64_t), solver)
    call odesens_check(odesens_solve(solver, result), solver)
    call odesens_get_bounds_s(result, s_coef, s_rem, s_hull, status)
    call odesens_check(status, result)
    call odesens_get_bounds_gradient(result, g_coef, g_rem, g_hull, status)
    call odesens_check(status, result)
    call expect(all(shape(s_hull) == [2, 1, 1, 0]), "bounds_asa keeps no S")
    call expect(g_hull(1, 1) - slack <= -exp(-0.9_c_double) .and. &
                -exp(-1.1_c_double) <= g_hull(2, 1) + slack .and. &
                g_hull(2, 1) - g_hull(1, 1) <= exp(-0.9_c_double) - exp(-1.1_c_double) + &
                1e-4_c_double, "bounds_asa encloses the gradient tightly")
    call odesens_result_free(result)
    call odesens_solver_free(solver)
    call odesens_model_free(m)
  end subroutine

  function objectives_solver(m, params) result(solver)
    type(c_ptr), intent(in) :: m
    real(c_double), intent(in) :: params(2)
    type(c_ptr) :: solver
    real(c_double), parameter :: t(3) = [0.5_c_double, 1.0_c_double, 2.0_c_double]
    real(c_double) :: w(2, 3, 2)
    w = 0
    w(1, 3, 1) = -1
    call odesens_check(odesens_solver_create(m, "erk_adjoint" // c_null_char, solver), &
                       c_null_ptr)
    call odesens_check(odesens_solver_set_output_times(solver, t, 3_c_int64_t), solver)
    call odesens_check(odesens_solver_set_params(solver, params, 2_c_int64_t), solver)
    call odesens_check(odesens_set_option_double(solver, odesens_c_string("h_fixed"), &
                                                 0.01_c_double), solver)
    call odesens_check(odesens_solver_set_objectives(solver, 2_c_int64_t), solver)
    call odesens_check(odesens_solver_set_adjoint_weights(solver, w, 12_c_int64_t), solver)
    call odesens_check(odesens_set_integrand(solver, [character(len=4) :: "cost", "u"]), solver)
  end function

  subroutine objectives_at(m, params, values)
    type(c_ptr), intent(in) :: m
    real(c_double), intent(in) :: params(2)
    real(c_double), intent(out) :: values(2)
    type(c_ptr) :: solver, result
    solver = objectives_solver(m, params)
    call odesens_check(odesens_solve(solver, result), solver)
    call odesens_check(odesens_result_objectives(result, values, 2_c_int64_t), result)
    call odesens_result_free(result)
    call odesens_solver_free(solver)
  end subroutine

  subroutine check_callback_failure(m)
    type(c_ptr), intent(in) :: m
    type(c_ptr) :: solver, result
    integer(c_int) :: code
    call odesens_check(odesens_solver_create(m, "cvodes_fsa" // c_null_char, solver), c_null_ptr)
    call odesens_check(odesens_solver_set_output_times(solver, times, 4_c_int64_t), solver)
    code = odesens_solve(solver, result)
    call expect(code == ODESENS_ERR_CALLBACK_FAILED, "a failing callback stops the solve")
    call expect(.not. c_associated(result), "no result on failure")
    call expect(index(odesens_message(solver), "'f' returned 7") > 0, &
                "the message names the callback and its code")
    call odesens_solver_free(solver)
  end subroutine

end program test_fortran
