// Built-in models, compiled C++ with analytic Jacobians, named
// "NAME[:ARG]": chua, vanderpol, glv:N, linear:N, heat2d:Np. Used by tests,
// benchmarks and the command-line tool ("builtin:NAME[:ARG]").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "odesens/model.hpp"

namespace odesens {

// Throws Error(unknown_model) for an unknown name or a bad argument.
std::shared_ptr<Model> make_builtin_model(const std::string& spec);
std::vector<std::string> builtin_model_names();

namespace builtin {

// splitmix64 stream of BUILTIN_MODELS.md, shared with external programs.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform();  // in (0, 1)

 private:
  std::uint64_t state_;
};

// glv:N interaction matrix A (row-major, N x N) for a seed.
std::vector<double> glv_interaction_matrix(std::size_t n, std::uint64_t seed = 42);

// linear:N: A = -B^T B (column-major, N x N) and the nominal p.
struct LinearSystemData {
  std::vector<double> a;  // column-major
  std::vector<double> p;
};
LinearSystemData linear_system_data(std::size_t n, std::uint64_t seed = 42);

// Exact x(t) and S(t) (nx x np column-major) of linear:N at parameters p,
// from the eigen-decomposition of the symmetric A.
void linear_exact_solution(std::size_t n, const double* p, double t, double* x, double* s,
                           std::uint64_t seed = 42);

// Exact x(t) and dx/dalpha(t) of heat2d:Np (semi-discrete system: the
// initial state is an eigenvector of the discrete Laplacian) at alpha.
void heat2d_exact_solution(std::size_t np_grid, double alpha, double t, double* x, double* s);

}  // namespace builtin
}  // namespace odesens
