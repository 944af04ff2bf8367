! odesens: Fortran interface to the C ABI of libodesens (odesens.h).
!
! The bind(C) interfaces and the constants are those of the module
! odesens_raw (generated/odesens_raw.f90, generated from odesens.h), which
! this module uses and passes on: every C function has an interface of the
! same name, argument for argument (see odesens.h for what each does):
!
!   handles            type(c_ptr), value           (odesens_model*, ...)
!   handle outputs     type(c_ptr), intent(out)     (odesens_model** out)
!   sizes, indices     integer(c_int64_t), value
!   arrays             real(c_double) / integer(c_int64_t) x(*), passed by reference
!   single outputs     real(c_double) / integer(c_int64_t), intent(out)
!   strings in         character(kind=c_char) s(*), NUL-terminated: pass
!                      "text"//c_null_char or odesens_c_string(text); Fortran
!                      cannot pass NULL (odesens_model_from_sbml_file: for the
!                      default parameters use odesens_model_from_file)
!   strings out        type(c_ptr); convert with odesens_f_string
!   arrays of strings  type(c_ptr) names(*), each c_loc of a NUL-terminated
!                      string; odesens_set_integrand builds them
!   callbacks          type(c_funptr), value: c_funloc of a bind(C) function
!   status             integer(c_int) function result, ODESENS_OK = 0
!
! Fortran names ignore case, so the header's ODESENS_ABI_VERSION is
! ODESENS_MODULE_ABI_VERSION (odesens_abi_version is the function).
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
! returning 0 for success. What this module adds (odesens_get_*,
! odesens_get_bounds_* for bounds_fsa and bounds_asa) allocates Fortran
! arrays of the right shape and copies results into them;
! odesens_copy_array copies any array of odesens_result_data;
! odesens_set_integrand passes Fortran strings as running costs;
! odesens_petab_get_bounds allocates a PEtab problem's parameter bounds.
! Fortran cannot pass NULL for an array either: odesens_petab_evaluate
! computes the gradient, the FIM and the simulations into the arrays given
! (pass "auto"//c_null_char or c_null_char as the method for "auto").
module odesens
  use, intrinsic :: iso_c_binding
  use odesens_raw
  implicit none

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

  ! lower, upper and nominal(n_parameters): the estimated parameters of a
  ! PEtab problem on their scales (odesens_petab_parameter_bounds).
  subroutine odesens_petab_get_bounds(petab, lower, upper, nominal, status)
    type(c_ptr), intent(in) :: petab
    real(c_double), allocatable, intent(out) :: lower(:), upper(:), nominal(:)
    integer(c_int), intent(out) :: status
    integer(c_int64_t) :: np, nm, ne
    status = odesens_petab_sizes(petab, np, nm, ne)
    if (status /= ODESENS_OK) return
    allocate(lower(np), upper(np), nominal(np))
    status = odesens_petab_parameter_bounds(petab, lower, upper, nominal, np)
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
