// The matrix exponential of the augmented block matrix
//
//        M = [ A  B ]      e^M = [ E  F ]     E = e^A,
//            [ 0  0 ],           [ 0  I ],    F = (int_0^1 e^{A s} ds) B,
//
// by scaling and squaring with Pade approximants (Higham, "The scaling and
// squaring method for the matrix exponential revisited", SIAM J. Matrix
// Anal. Appl. 26(4), 2005, Algorithm 2.3; degrees 3, 5, 7, 9, 13 with that
// paper's theta_m bounds, no balancing). F never needs A^{-1}, so a
// singular A (conservation laws) is fine. Every intermediate matrix keeps
// the block-upper-triangular shape, so the work is O(n^3 + n^2 m) instead
// of O((n + m)^3). With m = 0 this is the plain exponential of A.
//
// With a ramp (the second constructor) the matrix is
//
//        M = [ A  B1  B2 ]     e^M = [ E  F1  F ]    F1 = phi1(A) B1,
//            [ 0  0   I  ]           [ 0  I   I ]    F  = phi1(A) B2 + phi2(A) B1,
//            [ 0  0   0  ],          [ 0  0   I ],
//
// phi1(z) = (e^z - 1)/z, phi2(z) = (e^z - 1 - z)/z^2: F = int_0^1 e^{A(1-s)}
// (B2 + s B1) ds, the response to a forcing that varies linearly over the
// interval. The same block-triangular shortcut holds (the lower-right
// block is c I + d N with N nilpotent).
//
// The object owns its workspace: after construction, compute() does not
// allocate.
#pragma once

#include <cstddef>
#include <vector>

#include "odesens/sparsity.hpp"

namespace odesens::linalg {

class AugmentedExponential {
 public:
  AugmentedExponential(std::size_t n, std::size_t m);
  struct WithRamp {};
  AugmentedExponential(std::size_t n, std::size_t m, WithRamp);

  // E (n x n) = e^A and F (n x m) as above, all column-major. E and F may
  // not alias A or B. Returns the number of squarings used.
  int compute(const double* a, const double* b, double* e, double* f);
  // From now on compute() reads A as the values (pattern order) of a sparse
  // n x n matrix with this pattern (null: dense again; the pattern must
  // outlive its use). When A is sparse enough (16 nnz <= n^2) the products
  // with M, the powers M^2 ... M^8 of the Pade approximant and its odd
  // part, are sparse, O(nnz (n + m)) instead of O(n^2 (n + m)); what is
  // left dense is two products of degree 13, the LU solve and the
  // squarings. Allocates; call it once, before the solve.
  void take_a_sparse(const SparsityPattern* pattern);
  // Whether take_a_sparse would make the products sparse for n x n with
  // nnz: a power of M then costs two sparse products, each entry a gather
  // at about 8 times a dense BLAS-3 flop (linalg/csc.hpp), instead of one
  // dense product.
  static bool sparse_products_pay(std::size_t n, std::size_t nnz) {
    return 16.0 * static_cast<double>(nnz) <= static_cast<double>(n) * static_cast<double>(n);
  }
  bool sparse_products() const { return sparse_products_; }
  std::size_t bytes() const {
    return (storage_.size() + at_values_.size()) * sizeof(double) +
           pivots_.size() * sizeof(int) + at_source_.size() * sizeof(std::size_t) +
           at_pattern_.nnz() * sizeof(std::int64_t);
  }
  // The ramp form: b1 and b2 are n x m; F as above, and F1 = phi1(A) B1
  // when f1 is not null.
  int compute(const double* a, const double* b1, const double* b2, double* e, double* f,
              double* f1 = nullptr);

 private:
  // A block-upper-triangular matrix [[a, b], [0, c I + d N]] held in
  // workspace; b is n x m, or n x 2m = [b1 b2] with a ramp, where N maps
  // the second column block onto the first (N = 0 without a ramp).
  struct Block {
    double* a;
    double* b;
    double c;
    double d;
  };
  int run(double* e, double* f, double* f1);
  // The 1-norm of a block matrix.
  double block_norm(const Block& x) const;
  void load_a(const double* a);
  // out = y m^2 = m (m y), the next even power of m from y.
  void times_m_squared(const Block& y, Block& out);
  Block make_block();
  void multiply(const Block& x, const Block& y, Block& out);
  void pade(int degree, const Block& m, Block& u, Block& v);
  void solve(Block& p, const Block& r, Block& x);

  std::size_t n_, m_;
  bool ramp_ = false;
  std::size_t mb_;  // columns of a block's b: m, or 2m with a ramp
  std::vector<double> storage_;
  std::size_t used_ = 0;
  std::vector<int> pivots_;
  const SparsityPattern* pattern_ = nullptr;
  bool sparse_products_ = false;
  // A sparse A as A^T in compressed columns (linalg/csc.hpp), for products
  // by gathers; its values scaled with the block.
  SparsityPattern at_pattern_;
  std::vector<std::size_t> at_source_;
  std::vector<double> at_values_;
  Block m_block_, m2_, m4_, m6_, m8_, u_, v_, w_, t1_, t2_;
};

// Plain e^A (n x n) for tests and one-off use (allocates).
void expm(std::size_t n, const double* a, double* e);

}  // namespace odesens::linalg
