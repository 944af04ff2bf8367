// NewtonMatrix: dense LU and KLU give the same solutions of M X = B and
// Mᵀ X = B for M = c0·I + Σ c_k A_k, KLU analyses once and refactors after,
// unchanged set() calls reuse the factorization, failures carry the
// documented status, and set/factor/solve allocate nothing once warm.
#include <gtest/gtest.h>

#include <klu.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "integrate/implicit/newton_matrix.hpp"
#include "integrate/implicit/union_pattern.hpp"
#include "linalg/csc.hpp"
#include "odesens/sparsity.hpp"
#include "odesens/status.hpp"
#include "support/allocation_counter.hpp"

// ---------------------------------------------------------------------------
// Allocation counting: every global operator new of this thread while a test
// asks for it, and SuiteSparse's malloc hooks (KLU allocates through them).
namespace {
long suitesparse_allocations = 0;
void* counting_malloc(std::size_t n) {
  ++suitesparse_allocations;
  return std::malloc(n);
}
void* counting_calloc(std::size_t n, std::size_t size) {
  ++suitesparse_allocations;
  return std::calloc(n, size);
}
void* counting_realloc(void* p, std::size_t n) {
  ++suitesparse_allocations;
  return std::realloc(p, n);
}
}  // namespace


namespace odesens::integrate {
namespace {

// ---------------------------------------------------------------------------
// Test matrices.

struct SparseTerm {
  SparsityPattern pattern;
  std::vector<double> values;
};

// The entries of a dense column-major n×n matrix selected by keep(i, j).
template <class Keep>
SparseTerm sparse_from_dense(std::size_t n, const std::vector<double>& dense, Keep keep) {
  SparseTerm t;
  t.pattern.rows = t.pattern.cols = n;
  t.pattern.col_ptr.push_back(0);
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!keep(i, j)) continue;
      t.pattern.row_idx.push_back(static_cast<std::int64_t>(i));
      t.values.push_back(dense[i + j * n]);
    }
    t.pattern.col_ptr.push_back(static_cast<std::int64_t>(t.pattern.row_idx.size()));
  }
  t.pattern.validate();
  return t;
}

// 5-point Laplacian on an m×m grid (n = m²), the stiff part of J.
SparseTerm laplacian_2d(std::size_t m) {
  const std::size_t n = m * m;
  std::vector<double> d(n * n, 0.0);
  for (std::size_t x = 0; x < m; ++x) {
    for (std::size_t y = 0; y < m; ++y) {
      const std::size_t i = x + y * m;
      d[i + i * n] = -4.0;
      if (x > 0) d[i + (i - 1) * n] = 1.0;
      if (x + 1 < m) d[i + (i + 1) * n] = 1.0;
      if (y > 0) d[i + (i - m) * n] = 1.0;
      if (y + 1 < m) d[i + (i + m) * n] = 1.0;
    }
  }
  return sparse_from_dense(n, d, [&](std::size_t i, std::size_t j) { return d[i + j * n] != 0.0; });
}

// Random entries at random positions (density of the n² positions), values
// in [-scale, scale], never exactly zero.
SparseTerm random_sparse(std::size_t n, double density, double scale, std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> d(n * n, 0.0);
  for (double& v : d)
    if (unit(rng) < density) v = scale * (unit(rng) < 0.5 ? -1.0 : 1.0) * (0.1 + unit(rng));
  return sparse_from_dense(n, d, [&](std::size_t i, std::size_t j) { return d[i + j * n] != 0.0; });
}

// A + B on the union of their patterns.
SparseTerm add(std::size_t n, const SparseTerm& a, const SparseTerm& b) {
  std::vector<double> da(n * n), db(n * n), sum(n * n);
  linalg::csc_to_dense(a.pattern, a.values.data(), da.data());
  linalg::csc_to_dense(b.pattern, b.values.data(), db.data());
  std::vector<bool> in(n * n, false);
  for (std::size_t j = 0; j < n; ++j) {
    for (auto q = a.pattern.col_ptr[j]; q < a.pattern.col_ptr[j + 1]; ++q)
      in[a.pattern.row_idx[q] + j * n] = true;
    for (auto q = b.pattern.col_ptr[j]; q < b.pattern.col_ptr[j + 1]; ++q)
      in[b.pattern.row_idx[q] + j * n] = true;
  }
  for (std::size_t q = 0; q < n * n; ++q) sum[q] = da[q] + db[q];
  return sparse_from_dense(n, sum, [&](std::size_t i, std::size_t j) { return in[i + j * n]; });
}

std::vector<double> dense_of(const SparseTerm& t) {
  std::vector<double> d(t.pattern.rows * t.pattern.cols);
  linalg::csc_to_dense(t.pattern, t.values.data(), d.data());
  return d;
}

// M = c0 I + Σ c_k A_k assembled independently of NewtonMatrix, from dense copies.
std::vector<double> reference_matrix(std::size_t n, double c0,
                                     const std::vector<std::pair<double, std::vector<double>>>& terms) {
  std::vector<double> m(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) m[i + i * n] = c0;
  for (const auto& [c, a] : terms)
    for (std::size_t q = 0; q < n * n; ++q) m[q] += c * a[q];
  return m;
}

// ||op(M) X − B||_max / (||M||_max ||X||_max n): a backward-error-like residual.
double relative_residual(std::size_t n, const std::vector<double>& m, std::size_t nrhs,
                         const std::vector<double>& x, const std::vector<double>& b,
                         bool transposed) {
  double worst = 0.0, mmax = 0.0, xmax = 0.0;
  for (double v : m) mmax = std::max(mmax, std::fabs(v));
  for (double v : x) xmax = std::max(xmax, std::fabs(v));
  for (std::size_t r = 0; r < nrhs; ++r) {
    for (std::size_t i = 0; i < n; ++i) {
      double s = -b[i + r * n];
      for (std::size_t j = 0; j < n; ++j)
        s += (transposed ? m[j + i * n] : m[i + j * n]) * x[j + r * n];
      worst = std::max(worst, std::fabs(s));
    }
  }
  return worst / (mmax * xmax * static_cast<double>(n));
}

double max_relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t q = 0; q < a.size(); ++q) {
    diff = std::max(diff, std::fabs(a[q] - b[q]));
    scale = std::max(scale, std::fabs(a[q]));
  }
  return diff / scale;
}

std::vector<double> random_rhs(std::size_t n, std::size_t nrhs, std::mt19937& rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> b(n * nrhs);
  for (double& v : b) v = dist(rng);
  return b;
}

// odeSD's family M = I − h/2·J + h²/12·J_a with J = Laplacian + random part
// and J_a on a different random pattern.
struct OdesdFamily {
  std::size_t n;
  SparseTerm jac, jac_a;
  double h = 0.5;
  double c0() const { return 1.0; }
  double c1() const { return -h / 2; }
  double c2() const { return h * h / 12; }
  std::vector<double> reference() const {
    return reference_matrix(n, c0(), {{c1(), dense_of(jac)}, {c2(), dense_of(jac_a)}});
  }
};

OdesdFamily odesd_family(std::size_t m, unsigned seed) {
  std::mt19937 rng(seed);
  const std::size_t n = m * m;
  OdesdFamily f{n, add(n, laplacian_2d(m), random_sparse(n, 0.04, 0.5, rng)),
                random_sparse(n, 0.06, 2.0, rng)};
  return f;
}

NewtonMatrixOptions backend_options(NewtonBackendKind kind) {
  NewtonMatrixOptions o;
  o.backend = kind;
  return o;
}

const char* name_of(NewtonBackendKind kind) {
  return kind == NewtonBackendKind::klu ? "klu" : "dense_lu";
}

// ---------------------------------------------------------------------------
// Union pattern.

TEST(UnionPattern, EveryTermEntryLandsAtItsRowAndColumn) {
  std::mt19937 rng(7);
  const std::size_t n = 30;
  const SparseTerm a = random_sparse(n, 0.1, 1.0, rng), b = random_sparse(n, 0.1, 1.0, rng);
  const UnionPattern u = merge_identity_and_terms(n, {&a.pattern, &b.pattern});
  ASSERT_NO_THROW(u.pattern.validate());

  // nnz equals the count of positions in I ∪ P(a) ∪ P(b).
  const std::vector<double> da = dense_of(a), db = dense_of(b);
  std::size_t expected_nnz = 0;
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i)
      expected_nnz += (i == j || da[i + j * n] != 0.0 || db[i + j * n] != 0.0) ? 1 : 0;
  EXPECT_EQ(u.pattern.nnz(), expected_nnz);
  EXPECT_GT(u.pattern.nnz(), std::max(a.pattern.nnz(), b.pattern.nnz()));

  auto column_of = [&](std::int64_t pos) {
    std::size_t j = 0;
    while (u.pattern.col_ptr[j + 1] <= pos) ++j;
    return j;
  };
  for (std::size_t j = 0; j < n; ++j) {
    EXPECT_EQ(u.pattern.row_idx[u.diagonal[j]], static_cast<std::int64_t>(j));
    EXPECT_EQ(column_of(u.diagonal[j]), j);
  }
  const SparseTerm* terms[] = {&a, &b};
  for (std::size_t k = 0; k < 2; ++k) {
    const SparsityPattern& p = terms[k]->pattern;
    ASSERT_EQ(u.term_positions[k].size(), p.nnz());
    for (std::size_t j = 0; j < n; ++j) {
      for (auto q = p.col_ptr[j]; q < p.col_ptr[j + 1]; ++q) {
        const std::int64_t pos = u.term_positions[k][q];
        EXPECT_EQ(u.pattern.row_idx[pos], p.row_idx[q]) << "term " << k << " entry " << q;
        EXPECT_EQ(column_of(pos), j) << "term " << k << " entry " << q;
      }
    }
  }

  // Scatter-adding through the maps reproduces dense assembly.
  std::vector<double> values(u.pattern.nnz(), 0.0);
  for (std::int64_t d : u.diagonal) values[d] += 2.0;
  for (std::size_t q = 0; q < a.pattern.nnz(); ++q) values[u.term_positions[0][q]] += -3.0 * a.values[q];
  for (std::size_t q = 0; q < b.pattern.nnz(); ++q) values[u.term_positions[1][q]] += 0.5 * b.values[q];
  std::vector<double> assembled(n * n);
  linalg::csc_to_dense(u.pattern, values.data(), assembled.data());
  const std::vector<double> expected = reference_matrix(n, 2.0, {{-3.0, da}, {0.5, db}});
  for (std::size_t q = 0; q < n * n; ++q) EXPECT_DOUBLE_EQ(assembled[q], expected[q]) << q;
}

TEST(UnionPattern, DiagonalIsAddedWhenNoTermHasIt) {
  SparsityPattern off;  // only (1, 0) and (0, 1) in a 2×2
  off.rows = off.cols = 2;
  off.col_ptr = {0, 1, 2};
  off.row_idx = {1, 0};
  const UnionPattern u = merge_identity_and_terms(2, {&off});
  EXPECT_EQ(u.pattern.col_ptr, (std::vector<std::int64_t>{0, 2, 4}));
  EXPECT_EQ(u.pattern.row_idx, (std::vector<std::int64_t>{0, 1, 0, 1}));
  EXPECT_EQ(u.diagonal, (std::vector<std::int64_t>{0, 3}));
  EXPECT_EQ(u.term_positions[0], (std::vector<std::int64_t>{1, 2}));
}

// ---------------------------------------------------------------------------
// Dense and KLU agree.

TEST(NewtonMatrix, DenseAndKluAgreeOnManyRightHandSidesAndTransposedSolves) {
  const OdesdFamily f = odesd_family(7, 11);  // n = 49
  const std::size_t n = f.n, nrhs = 5;
  std::mt19937 rng(3);
  const std::vector<double> b = random_rhs(n, nrhs, rng);
  const std::vector<double> m = f.reference();

  std::vector<double> x[2], xt[2];
  const NewtonBackendKind kinds[] = {NewtonBackendKind::dense_lu, NewtonBackendKind::klu};
  for (int s = 0; s < 2; ++s) {
    NewtonMatrix nm(n, {&f.jac.pattern, &f.jac_a.pattern}, backend_options(kinds[s]));
    ASSERT_EQ(nm.backend(), kinds[s]);
    ASSERT_TRUE(nm.set(f.c0(), {{f.c1(), f.jac.values.data(), 1}, {f.c2(), f.jac_a.values.data(), 1}}));
    ASSERT_TRUE(nm.factor());
    x[s] = b;
    nm.solve(nrhs, x[s].data());
    xt[s] = b;
    nm.solve_transposed(nrhs, xt[s].data());
    EXPECT_LT(relative_residual(n, m, nrhs, x[s], b, false), 1e-15) << name_of(kinds[s]);
    EXPECT_LT(relative_residual(n, m, nrhs, xt[s], b, true), 1e-15) << name_of(kinds[s]);
    EXPECT_EQ(nm.stats().solves, 2u);
    EXPECT_EQ(nm.stats().solved_columns, 2 * nrhs);
    if (kinds[s] == NewtonBackendKind::klu) {
      EXPECT_LT(nm.stats().nnz_matrix, n * n / 4);
      EXPECT_GE(nm.stats().nnz_factors, nm.stats().nnz_matrix);
    } else {
      EXPECT_EQ(nm.stats().nnz_matrix, n * n);
      EXPECT_EQ(nm.stats().nnz_factors, n * n);
    }
  }
  EXPECT_LT(max_relative_difference(x[0], x[1]), 1e-12);
  EXPECT_LT(max_relative_difference(xt[0], xt[1]), 1e-12);
  // Mᵀ ≠ M here, so the transposed solve really is a different solve.
  EXPECT_GT(max_relative_difference(x[0], xt[0]), 1e-3);
}

TEST(NewtonMatrix, DenseTermsWorkOnBothBackends) {
  // Rosenbrock's M = I − hγ·J with J given dense, plus a sparse term.
  std::mt19937 rng(5);
  const std::size_t n = 12;
  const SparseTerm s = random_sparse(n, 0.2, 1.0, rng);
  std::vector<double> jd(n * n);
  std::uniform_real_distribution<double> dist(-0.3, 0.3);
  for (double& v : jd) v = dist(rng);
  const double hg = 0.25;
  const std::vector<double> m = reference_matrix(n, 1.0, {{-hg, jd}, {0.1, dense_of(s)}});
  const std::vector<double> b = random_rhs(n, 3, rng);
  std::vector<double> x[2];
  const NewtonBackendKind kinds[] = {NewtonBackendKind::dense_lu, NewtonBackendKind::klu};
  for (int k = 0; k < 2; ++k) {
    NewtonMatrix nm(n, {nullptr, &s.pattern}, backend_options(kinds[k]));
    nm.set(1.0, {{-hg, jd.data(), 1}, {0.1, s.values.data(), 1}});
    nm.factor_or_throw(0.0);
    x[k] = b;
    nm.solve(3, x[k].data());
    EXPECT_LT(relative_residual(n, m, 3, x[k], b, false), 1e-15) << name_of(kinds[k]);
  }
  EXPECT_LT(max_relative_difference(x[0], x[1]), 1e-12);
}

TEST(NewtonMatrix, ATermWithoutEntriesNeedsNoValues) {
  // f independent of x: J has an empty pattern, and its values pointer is
  // that of an empty vector (null). M = 2 I then.
  SparsityPattern empty;
  empty.rows = empty.cols = 3;
  empty.col_ptr.assign(4, 0);
  for (const auto kind : {NewtonBackendKind::dense_lu, NewtonBackendKind::klu}) {
    NewtonMatrix nm(3, {&empty}, backend_options(kind));
    nm.set(2.0, {{-0.5, nullptr, 1}});
    nm.factor_or_throw(0.0);
    std::vector<double> b = {2.0, 4.0, -6.0};
    nm.solve(1, b.data());
    EXPECT_EQ(b, (std::vector<double>{1.0, 2.0, -3.0})) << name_of(kind);
  }
}

TEST(NewtonMatrix, AutomaticChoosesKluOnlyForLargeSparseTerms) {
  const OdesdFamily small = odesd_family(5, 1), large = odesd_family(12, 1);  // n = 25, 144
  const std::size_t m = 20, n = m * m;
  const SparsityPattern grid = laplacian_2d(m).pattern;  // factors stay sparse
  NewtonMatrixOptions o;
  o.sparse_threshold = 100;
  EXPECT_EQ(NewtonMatrix(small.n, {&small.jac.pattern}, o).backend(), NewtonBackendKind::dense_lu);
  EXPECT_EQ(NewtonMatrix(n, {&grid}, o).backend(), NewtonBackendKind::klu);
  EXPECT_EQ(NewtonMatrix(large.n, {&large.jac.pattern, nullptr}, o).backend(),
            NewtonBackendKind::dense_lu);
  const SparsityPattern full = SparsityPattern::dense(large.n, large.n);
  EXPECT_EQ(NewtonMatrix(large.n, {&full}, o).backend(), NewtonBackendKind::dense_lu);
  // J plus a random 4 % (J_a's 6 % in the second term): M has under 20 %
  // non-zeros, but klu_analyze foresees factors far denser than
  // max_factor_density, so the dense LU is chosen; without that bound, KLU.
  const std::size_t nnz_m =
      NewtonMatrix(large.n, {&large.jac.pattern, &large.jac_a.pattern},
                   backend_options(NewtonBackendKind::klu))
          .stats()
          .nnz_matrix;
  ASSERT_LT(static_cast<double>(nnz_m), o.max_sparse_density * large.n * large.n);
  EXPECT_EQ(NewtonMatrix(large.n, {&large.jac.pattern, &large.jac_a.pattern}, o).backend(),
            NewtonBackendKind::dense_lu);
  o.max_factor_density = 1.0;
  EXPECT_EQ(NewtonMatrix(large.n, {&large.jac.pattern, &large.jac_a.pattern}, o).backend(),
            NewtonBackendKind::klu);
}

// ---------------------------------------------------------------------------
// Reuse: refactor on new values, nothing on identical set().

TEST(NewtonMatrix, KluAnalysesOnceFactorsOnceThenRefactors) {
  const OdesdFamily f = odesd_family(8, 21);  // n = 64
  const std::size_t n = f.n, nrhs = 3;
  std::mt19937 rng(9);
  const std::vector<double> b = random_rhs(n, nrhs, rng);
  NewtonMatrix klu(n, {&f.jac.pattern, &f.jac_a.pattern}, backend_options(NewtonBackendKind::klu));
  NewtonMatrix dense(n, {&f.jac.pattern, &f.jac_a.pattern},
                     backend_options(NewtonBackendKind::dense_lu));

  SparseTerm jac = f.jac, jac_a = f.jac_a;
  const double scales[] = {1.0, 1.3, 0.7, 2.0};
  for (std::uint64_t version = 1; version <= 4; ++version) {
    const double s = scales[version - 1];
    for (std::size_t q = 0; q < jac.values.size(); ++q) jac.values[q] = s * f.jac.values[q];
    for (std::size_t q = 0; q < jac_a.values.size(); ++q) jac_a.values[q] = s * s * f.jac_a.values[q];
    const double h = 0.3 * s;
    std::vector<double> x[2];
    NewtonMatrix* both[] = {&dense, &klu};
    for (int k = 0; k < 2; ++k) {
      ASSERT_TRUE(both[k]->set(1.0, {{-h / 2, jac.values.data(), version},
                                     {h * h / 12, jac_a.values.data(), version}}));
      ASSERT_TRUE(both[k]->factor());
      x[k] = b;
      both[k]->solve(nrhs, x[k].data());
    }
    const std::vector<double> m =
        reference_matrix(n, 1.0, {{-h / 2, dense_of(jac)}, {h * h / 12, dense_of(jac_a)}});
    EXPECT_LT(relative_residual(n, m, nrhs, x[1], b, false), 1e-15) << "version " << version;
    EXPECT_LT(max_relative_difference(x[0], x[1]), 1e-12) << "version " << version;
  }
  const NewtonMatrixStats& st = klu.stats();
  EXPECT_EQ(st.symbolic_analyses, 1u);
  EXPECT_EQ(st.factorizations, 1u);
  EXPECT_EQ(st.refactorizations, 3u);
  EXPECT_EQ(st.refactor_fallbacks, 0u);
  EXPECT_EQ(st.assemblies, 4u);
  EXPECT_EQ(dense.stats().factorizations, 4u);
  EXPECT_EQ(dense.stats().symbolic_analyses, 0u);
}

class NewtonMatrixReuse : public ::testing::TestWithParam<NewtonBackendKind> {};

TEST_P(NewtonMatrixReuse, IdenticalSetKeepsTheFactorization) {
  const OdesdFamily f = odesd_family(5, 4);
  NewtonMatrix nm(f.n, {&f.jac.pattern, &f.jac_a.pattern}, backend_options(GetParam()));
  const double* j = f.jac.values.data();
  const double* ja = f.jac_a.values.data();
  ASSERT_TRUE(nm.set(1.0, {{-0.1, j, 7}, {0.01, ja, 3}}));
  ASSERT_TRUE(nm.factor());
  const NewtonMatrixStats first = nm.stats();

  // Same coefficients and versions: nothing happens, the solve still works.
  EXPECT_FALSE(nm.set(1.0, {{-0.1, j, 7}, {0.01, ja, 3}}));
  EXPECT_TRUE(nm.factor());
  EXPECT_EQ(nm.stats().assemblies, first.assemblies);
  EXPECT_EQ(nm.stats().factorizations, first.factorizations);
  EXPECT_EQ(nm.stats().refactorizations, first.refactorizations);
  std::vector<double> x(f.n, 1.0);
  EXPECT_NO_THROW(nm.solve(1, x.data()));

  // A new step size, a new Jacobian version, or an unversioned term: rebuilt.
  EXPECT_TRUE(nm.set(1.0, {{-0.2, j, 7}, {0.04, ja, 3}}));
  EXPECT_TRUE(nm.set(1.0, {{-0.2, j, 8}, {0.04, ja, 3}}));
  EXPECT_TRUE(nm.set(1.0, {{-0.2, j, 8}, {0.04, ja, NewtonTerm::always_changed}}));
  EXPECT_TRUE(nm.set(1.0, {{-0.2, j, 8}, {0.04, ja, NewtonTerm::always_changed}}));
  EXPECT_TRUE(nm.set(2.0, {{-0.2, j, 8}, {0.04, ja, 3}}));
  EXPECT_EQ(nm.stats().assemblies, first.assemblies + 5);
  // A rebuilt but not yet factored matrix cannot be solved with.
  EXPECT_THROW(nm.solve(1, x.data()), Error);
  ASSERT_TRUE(nm.factor());
  EXPECT_EQ(nm.stats().factorizations + nm.stats().refactorizations,
            first.factorizations + first.refactorizations + 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, NewtonMatrixReuse,
                         ::testing::Values(NewtonBackendKind::dense_lu, NewtonBackendKind::klu),
                         [](const auto& param_info) { return std::string(name_of(param_info.param)); });

TEST(NewtonMatrix, KluRefactorFallsBackToFreshPivotingWhenPivotsCollapse) {
  // First M = [4 1; 1 4]: diagonal pivots. Then M = [ε 1; 1 ε]: the old
  // diagonal pivot order gives |U_22| ≈ 1/ε, klu_rcond ≈ ε², so a fresh
  // factorization with row exchanges must be done.
  const SparsityPattern full = SparsityPattern::dense(2, 2);
  NewtonMatrix nm(2, {&full}, backend_options(NewtonBackendKind::klu));
  const std::vector<double> good = {4.0, 1.0, 1.0, 4.0};
  const std::vector<double> swapped = {1e-14, 1.0, 1.0, 1e-14};
  ASSERT_TRUE(nm.set(0.0, {{1.0, good.data(), 1}}));
  ASSERT_TRUE(nm.factor());
  ASSERT_TRUE(nm.set(0.0, {{1.0, swapped.data(), 2}}));
  ASSERT_TRUE(nm.factor());
  EXPECT_EQ(nm.stats().refactorizations, 1u);
  EXPECT_EQ(nm.stats().refactor_fallbacks, 1u);
  EXPECT_EQ(nm.stats().factorizations, 2u);
  std::vector<double> x = {1.0, 2.0};  // solution of [ε 1; 1 ε] x = (1, 2) ≈ (2, 1)
  nm.solve(1, x.data());
  EXPECT_NEAR(x[0], 2.0, 1e-13);
  EXPECT_NEAR(x[1], 1.0, 1e-13);
}

// ---------------------------------------------------------------------------
// Failures.

class NewtonMatrixFailures : public ::testing::TestWithParam<NewtonBackendKind> {};

TEST_P(NewtonMatrixFailures, ZeroMatrixIsSingular) {
  // M = I − J with J = I.
  const std::size_t n = 5;
  const SparseTerm identity = sparse_from_dense(n, std::vector<double>(n * n, 1.0),
                                                [](std::size_t i, std::size_t j) { return i == j; });
  NewtonMatrix nm(n, {&identity.pattern}, backend_options(GetParam()));
  ASSERT_TRUE(nm.set(1.0, {{-1.0, identity.values.data(), 1}}));
  EXPECT_FALSE(nm.factor());
  EXPECT_FALSE(nm.factor());  // same matrix, same answer, no second attempt
  EXPECT_EQ(nm.stats().singular, 1u);
  try {
    nm.factor_or_throw(1.5);
    ADD_FAILURE() << "no exception";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::solver_failed);
    EXPECT_NE(std::string(e.what()).find("singular"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("t=1.5"), std::string::npos) << e.what();
  }
  std::vector<double> x(n, 1.0);
  try {
    nm.solve(1, x.data());
    ADD_FAILURE() << "solve with a singular matrix did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::internal_error);
  }
  // A smaller step (coefficient) makes M regular again.
  ASSERT_TRUE(nm.set(1.0, {{-0.5, identity.values.data(), 1}}));
  ASSERT_TRUE(nm.factor());
  nm.solve(1, x.data());
  for (double v : x) EXPECT_DOUBLE_EQ(v, 2.0);
}

TEST_P(NewtonMatrixFailures, CancellationToAZeroPivotIsSingularAlsoAfterARegularFactor) {
  // J = [.5 .5; .5 .5]: M = I − J = [.5 −.5; −.5 .5] has rank 1 and its
  // elimination gives an exact zero pivot. Factored after a regular M, KLU
  // goes through the refactor → fallback path first.
  const SparsityPattern full = SparsityPattern::dense(2, 2);
  const std::vector<double> j = {0.5, 0.5, 0.5, 0.5};
  NewtonMatrix nm(2, {&full}, backend_options(GetParam()));
  ASSERT_TRUE(nm.set(1.0, {{-0.5, j.data(), 1}}));
  ASSERT_TRUE(nm.factor());
  ASSERT_TRUE(nm.set(1.0, {{-1.0, j.data(), 1}}));
  EXPECT_FALSE(nm.factor());
  EXPECT_THROW(nm.factor_or_throw(0.0), Error);
  if (GetParam() == NewtonBackendKind::klu) {
    EXPECT_EQ(nm.stats().refactor_fallbacks, 1u);
    EXPECT_EQ(nm.stats().nnz_factors, 0u);
  }
  ASSERT_TRUE(nm.set(1.0, {{-0.5, j.data(), 1}}));
  EXPECT_TRUE(nm.factor());
}

TEST_P(NewtonMatrixFailures, NonFiniteValuesAndCoefficientsAreRejected) {
  const OdesdFamily f = odesd_family(4, 2);
  NewtonMatrix nm(f.n, {&f.jac.pattern, &f.jac_a.pattern}, backend_options(GetParam()));
  SparseTerm bad = f.jac_a;
  bad.values[bad.values.size() / 2] = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto expect_not_finite = [](auto&& call, const char* what) {
    try {
      call();
      ADD_FAILURE() << what << ": no exception";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::not_finite) << what << ": " << e.what();
    }
  };
  expect_not_finite([&] { nm.set(1.0, {{-0.1, f.jac.values.data(), 1}, {0.1, bad.values.data(), 1}}); },
                    "NaN value");
  expect_not_finite([&] { nm.set(1.0, {{-inf, f.jac.values.data(), 1}, {0.1, f.jac_a.values.data(), 1}}); },
                    "Inf coefficient");
  expect_not_finite([&] { nm.set(std::nan(""), {{-0.1, f.jac.values.data(), 1}, {0.1, f.jac_a.values.data(), 1}}); },
                    "NaN c0");
  // Overflow in assembly from finite inputs.
  SparseTerm huge = f.jac;
  for (double& v : huge.values) v = 1e300;
  expect_not_finite([&] { nm.set(1.0, {{1e300, huge.values.data(), 1}, {0.1, f.jac_a.values.data(), 1}}); },
                    "overflow");
  // After a rejected set nothing is factored; a finite set works.
  EXPECT_THROW(nm.factor(), Error);
  ASSERT_TRUE(nm.set(1.0, {{-0.1, f.jac.values.data(), 1}, {0.1, f.jac_a.values.data(), 1}}));
  EXPECT_TRUE(nm.factor());
}

INSTANTIATE_TEST_SUITE_P(Backends, NewtonMatrixFailures,
                         ::testing::Values(NewtonBackendKind::dense_lu, NewtonBackendKind::klu),
                         [](const auto& param_info) { return std::string(name_of(param_info.param)); });

TEST(NewtonMatrix, InvalidShapesAreInvalidArguments) {
  const SparsityPattern p3 = SparsityPattern::dense(3, 3), p4 = SparsityPattern::dense(4, 4);
  auto status_of = [](auto&& call) {
    try {
      call();
    } catch (const Error& e) {
      return e.status();
    }
    return Status::ok;
  };
  EXPECT_EQ(status_of([&] { NewtonMatrix(0, {}); }), Status::invalid_argument);
  EXPECT_EQ(status_of([&] { NewtonMatrix(3, {&p4}); }), Status::invalid_argument);
  EXPECT_EQ(status_of([&] { NewtonMatrix(3, {&p3, &p3, &p3, &p3}); }), Status::invalid_argument);
  NewtonMatrix nm(3, {&p3, nullptr});
  const std::vector<double> v(9, 0.0);
  EXPECT_EQ(status_of([&] { nm.set(1.0, {{1.0, v.data(), 1}}); }), Status::invalid_argument);
  EXPECT_EQ(status_of([&] { nm.set(1.0, {{1.0, v.data(), 1}, {1.0, nullptr, 1}}); }),
            Status::invalid_argument);
  EXPECT_EQ(status_of([&] { nm.factor(); }), Status::internal_error);
  // No terms at all: M = c0 I.
  NewtonMatrix scalar(3, {});
  ASSERT_TRUE(scalar.set(4.0, {}));
  ASSERT_TRUE(scalar.factor());
  std::vector<double> x = {4.0, 8.0, 12.0};
  scalar.solve(1, x.data());
  EXPECT_EQ(x, (std::vector<double>{1.0, 2.0, 3.0}));
}

// ---------------------------------------------------------------------------
// Allocations.

struct SuiteSparseAllocationCounter {
  SuiteSparseAllocationCounter() {
    saved = SuiteSparse_config;
    SuiteSparse_config.malloc_func = counting_malloc;
    SuiteSparse_config.calloc_func = counting_calloc;
    SuiteSparse_config.realloc_func = counting_realloc;
    suitesparse_allocations = 0;
  }
  ~SuiteSparseAllocationCounter() { SuiteSparse_config = saved; }
  SuiteSparse_config_struct saved;
};

TEST(NewtonMatrixAllocations, DenseSetFactorSolveAllocateNothing) {
  const OdesdFamily f = odesd_family(6, 8);
  NewtonMatrix nm(f.n, {&f.jac.pattern, nullptr}, backend_options(NewtonBackendKind::dense_lu));
  std::vector<double> ja = dense_of(f.jac_a), b(f.n * 4, 1.0);
  nm.set(1.0, {{-0.1, f.jac.values.data(), 1}, {0.01, ja.data(), 1}});
  nm.factor();
  nm.solve(4, b.data());  // warm: LAPACK's first call may set itself up

  allocations = 0;
  counting = true;
  for (std::uint64_t version = 2; version < 6; ++version) {
    nm.set(1.0, {{-0.1 * static_cast<double>(version), f.jac.values.data(), version},
                 {0.01, ja.data(), version}});
    nm.factor();
    nm.solve(4, b.data());
    nm.solve_transposed(4, b.data());
  }
  counting = false;
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(nm.stats().factorizations, 5u);
}

TEST(NewtonMatrixAllocations, KluRefactorAndSolveAllocateNothing) {
  const OdesdFamily f = odesd_family(8, 8);
  SuiteSparseAllocationCounter suitesparse;
  NewtonMatrix nm(f.n, {&f.jac.pattern, &f.jac_a.pattern}, backend_options(NewtonBackendKind::klu));
  std::vector<double> b(f.n * 4, 1.0);
  const long before_first_factor = suitesparse_allocations;
  nm.set(1.0, {{-0.1, f.jac.values.data(), 1}, {0.01, f.jac_a.values.data(), 1}});
  nm.factor();
  // The counter does see KLU: the first (fresh) factorization allocates.
  EXPECT_GT(suitesparse_allocations, before_first_factor);
  nm.solve(4, b.data());

  allocations = 0;
  suitesparse_allocations = 0;
  counting = true;
  for (std::uint64_t version = 2; version < 6; ++version) {
    nm.set(1.0, {{-0.1 * static_cast<double>(version), f.jac.values.data(), version},
                 {0.01, f.jac_a.values.data(), version}});
    nm.factor();
    nm.solve(4, b.data());
    nm.solve_transposed(4, b.data());
  }
  counting = false;
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(suitesparse_allocations, 0);
  EXPECT_EQ(nm.stats().factorizations, 1u);
  EXPECT_EQ(nm.stats().refactorizations, 4u);
}

}  // namespace
}  // namespace odesens::integrate
