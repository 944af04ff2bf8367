program quickstart
  use, intrinsic :: iso_c_binding
  use odesens
  implicit none
  type(c_ptr) :: model, solver, result
  real(c_double) :: times(3) = [1d0, 5d0, 10d0]
  real(c_double), allocatable :: s(:, :, :)   ! s(i, j, k) = dx_i/dp_j at times(k)
  integer(c_int) :: status
  call odesens_check(odesens_model_from_builtin(odesens_c_string("chua"), model), c_null_ptr)
  call odesens_check(odesens_solver_create(model, odesens_c_string("cvodes_fsa"), solver), c_null_ptr)
  call odesens_check(odesens_solver_set_output_times(solver, times, 3_c_int64_t), solver)
  call odesens_check(odesens_solve(solver, result), solver)
  call odesens_get_s(result, s, status)
  call odesens_check(status, result)
  print '(a, g0)', "dx_1/dp_2 at t = 10: ", s(1, 2, 3)
  deallocate(s)
  call odesens_result_free(result); call odesens_solver_free(solver); call odesens_model_free(model)
end program quickstart
