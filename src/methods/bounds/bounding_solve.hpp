// What bounds_fsa and bounds_asa share around CVODES: the arithmetic and
// parameter models of a box, the initial values' models, the size guard,
// the tolerances of a bounding system's vector and the guard that turns a
// callback's exceptions into CVODES' return codes.
#pragma once

#include <cmath>
#include <cstddef>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <nvector/nvector_serial.h>

#include "integrate/cvodes/cvodes_flags.hpp"
#include "integrate/cvodes/replay_guard.hpp"
#include "methods/bounds/bounds_settings.hpp"
#include "methods/bounds/parameter_box.hpp"
#include "methods/bounds/system_bounder.hpp"
#include "methods/bounds/verified_arithmetic.hpp"
#include "odesens/problem.hpp"
#include "odesens/status.hpp"

namespace odesens::bounds {

std::string time_text(double t);

// The box, the arithmetic of order q and of the Jacobians' order q', and
// the parameters as models in both. Built under directed rounding.
struct BoundingArithmetic {
  ParameterBox box;
  std::unique_ptr<PolyArithmetic> arith, jac_arith;
  ParameterModels params;
};
BoundingArithmetic make_bounding_arithmetic(const Problem& problem,
                                            const BoundsSettings& settings);

// The functions the remainders need (each output alone for interval
// remainders, Jacobians for ellipsoidal ones); the caller adds its systems.
FunctionSelection functions_for(const BoundsSettings& settings);

// The state bounding system and, for ellipsoidal remainders, the J_x
// models it shares with the systems it drives. Under directed rounding.
struct StateBounding {
  std::unique_ptr<StateJacobian> jacobian;
  std::unique_ptr<SystemBounder> state;
};
StateBounding make_state_bounding(const BoundingFunctions& tapes, const BoundingArithmetic& a,
                                  const BoundsSettings& settings);

// x0(p) (nx) and dx0/dp (nx * np, column-major) over the box; an
// initial-state override is data (dx0/dp = 0). Under directed rounding.
void initial_models(const Problem& problem, const BoundingFunctions& tapes,
                    const BoundingArithmetic& a, std::vector<PolyModel>& x0,
                    std::vector<PolyModel>& dx0);

// Refuses a box and order whose bounding systems would hold more than 1e8
// coefficients (800 MB) at one time, before anything is allocated:
// C(n_var + q, q) coefficients per component, `components` of them.
void check_bounding_size(const Problem& problem, int order, double components,
                         const std::string& method);

// Refuses a box and order for which one evaluation of the bounding system
// (the functions `evaluated`, over polynomial models) would take more than
// settings.max_work products of coefficients, before anything runs:
// Function::polynomial_products x n_mon^2, an upper bound (dense models).
// Returns that estimate.
double check_bounding_work(const Problem& problem, const BoundsSettings& settings,
                           const std::vector<const Function*>& evaluated,
                           const std::string& method);

// Absolute tolerances of a bounding system's vector: atol on coefficients
// and interval bounds, shape_atol on Q's entries (the paper's 1e-20, i.e.
// 1e-10 on its square root).
void fill_tolerances(const SystemLayout& layout, double atol, double shape_atol, double* v);

// Throws Error for a failed CVODES call (integrate/cvodes' one flag mapping).
inline void check_cvodes(int flag, const char* what) { cvodes::check_flag(flag, what); }

// Runs a callback body under upward rounding and keeps its error. A range
// that cannot be enclosed is recoverable for CVODES (+1): Newton's trial
// iterates and too long steps may leave the region where the model can be
// bounded, and a shorter step may not; it is the solve's error only if
// CVODES gives up. Other exceptions are unrecoverable (-1).
struct CallbackGuard {
  std::optional<Error> failure;

  template <class Body>
  int run(double t, const double* out, std::size_t n, Body body) {
    try {
      UpwardRounding upward;
      body();
    } catch (const Error& e) {
      failure = Error(e.status(), std::string(e.what()) + " at t = " + time_text(t));
      return e.status() == Status::unbounded ? 1 : -1;
    } catch (const std::bad_alloc&) {
      failure = Error(Status::out_of_memory, "out of memory bounding the model");
      return -1;
    } catch (const std::exception& e) {
      failure = Error(Status::internal_error, e.what());
      return -1;
    } catch (...) {  // nothing may unwind through CVODES' C frames
      failure = Error(Status::internal_error, "unknown exception bounding the model");
      return -1;
    }
    for (std::size_t i = 0; i < n; ++i)
      if (!std::isfinite(out[i])) {
        failure = Error(Status::unbounded,
                        "the bounding system grew without bound (a value of its right-hand "
                        "side is not finite) at t = " + time_text(t));
        return 1;
      }
    return 0;
  }
};

// What the state system's CVODES callback reaches; each method's solve
// derives from it and is passed to CVODES as a StateSolve*.
struct StateSolve {
  SystemBounder* state = nullptr;
  CallbackGuard guard;
  // While CVodeB recomputes the state bounding system between checkpoints
  // (bounds_asa): the guard that stops a recomputation outrunning the
  // forward pass, and the CVODES memory it reads (replay_guard.hpp).
  cvodes::ReplayGuard* replay = nullptr;
  void* replay_mem = nullptr;
};

// CVODES' right-hand side of the state bounding system (user data: a
// StateSolve*).
int bounding_state_rhs(double t, N_Vector y, N_Vector ydot, void* data);

// MPFR's per-thread caches go when a solve does, however it ends.
struct ReleaseThreadCaches {
  ~ReleaseThreadCaches() { release_thread_caches(); }
};

}  // namespace odesens::bounds
