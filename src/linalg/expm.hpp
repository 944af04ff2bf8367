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
// The object owns its workspace: after construction, compute() does not
// allocate.
#pragma once

#include <cstddef>
#include <vector>

namespace odesens::linalg {

class AugmentedExponential {
 public:
  AugmentedExponential(std::size_t n, std::size_t m);

  // E (n x n) = e^A and F (n x m) as above, all column-major. E and F may
  // not alias A or B. Returns the number of squarings used.
  int compute(const double* a, const double* b, double* e, double* f);

 private:
  // A block-upper-triangular matrix [[a, b], [0, c I]] held in workspace.
  struct Block {
    double* a;
    double* b;
    double c;
  };
  Block make_block();
  void multiply(const Block& x, const Block& y, Block& out);
  void pade(int degree, const Block& m, Block& u, Block& v);
  void solve(Block& p, const Block& r, Block& x);

  std::size_t n_, m_;
  std::vector<double> storage_;
  std::size_t used_ = 0;
  std::vector<int> pivots_;
  Block m_block_, m2_, m4_, m6_, m8_, u_, v_, w_, t1_, t2_;
};

// Plain e^A (n x n) for tests and one-off use (allocates).
void expm(std::size_t n, const double* a, double* e);

}  // namespace odesens::linalg
