// The data behind the built-in models and their exact solutions, for the
// library's tests and for external programs that regenerate the same models
// (the splitmix64 stream of ../shared/design/BUILTIN_MODELS.md). Not part of
// the public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace odesens {

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

// network:N: the reactions in order (b < 0 for a conversion X_a -> X_product,
// else a binding X_a + X_b -> X_product) and x(0).
struct NetworkData {
  struct Reaction {
    std::int64_t a, b, product;
    double rate_constant;
  };
  std::vector<Reaction> reactions;
  std::vector<double> x0;
};
NetworkData network_data(std::size_t n, std::uint64_t seed = 42);

// Exact x(t) and dx/dalpha(t) of heat2d:Np (semi-discrete system: the
// initial state is an eigenvector of the discrete Laplacian) at alpha.
void heat2d_exact_solution(std::size_t np_grid, double alpha, double t, double* x, double* s);

}  // namespace builtin

}  // namespace odesens
