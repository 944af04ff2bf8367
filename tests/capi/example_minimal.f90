! Sensitivities of x' = -k x, x(0) = x0, with respect to p = (k, x0):
! the minimal Fortran example of docs/c-api.md.
module decay_model
  use, intrinsic :: iso_c_binding
  implicit none
contains
  integer(c_int) function decay(t, x, p, xdot, user) bind(C)
    real(c_double), value :: t
    real(c_double), intent(in) :: x(1), p(2)
    real(c_double), intent(out) :: xdot(1)
    type(c_ptr), value :: user
    xdot(1) = -p(1) * x(1)
    decay = 0
  end function

  integer(c_int) function initial_state(p, x0, user) bind(C)
    real(c_double), intent(in) :: p(2)
    real(c_double), intent(out) :: x0(1)
    type(c_ptr), value :: user
    x0(1) = p(2)
    initial_state = 0
  end function
end module decay_model

program example_minimal
  use, intrinsic :: iso_c_binding
  use odesens
  use decay_model
  implicit none
  real(c_double), parameter :: p(2) = [0.5_c_double, 2.0_c_double]
  real(c_double), parameter :: times(3) = [1.0_c_double, 2.0_c_double, 4.0_c_double]
  type(c_ptr) :: model, solver, result
  real(c_double), allocatable :: s(:, :, :)  ! s(nx, np, n_times)
  integer(c_int) :: status
  integer :: k

  call odesens_check(odesens_model_create(1_c_int64_t, 2_c_int64_t, c_funloc(decay), &
                                          c_null_ptr, model), c_null_ptr)
  call odesens_check(odesens_model_set_x0_fn(model, c_funloc(initial_state)), model)
  call odesens_check(odesens_solver_create(model, odesens_c_string("cvodes_fsa"), solver), &
                     c_null_ptr)
  call odesens_check(odesens_solver_set_params(solver, p, 2_c_int64_t), solver)
  call odesens_check(odesens_solver_set_output_times(solver, times, 3_c_int64_t), solver)
  call odesens_check(odesens_solve(solver, result), solver)
  call odesens_get_s(result, s, status)
  call odesens_check(status, result)

  do k = 1, 3
    write (*, '(a, f4.1, a, f12.8, a, f12.8)') "t = ", times(k), "  dx/dk = ", s(1, 1, k), &
      "  dx/dx0 = ", s(1, 2, k)
    if (abs(s(1, 2, k) - exp(-p(1) * times(k))) > 1e-6_c_double) error stop 1
  end do
  deallocate(s)
  call odesens_result_free(result)
  call odesens_solver_free(solver)
  call odesens_model_free(model)
end program example_minimal
