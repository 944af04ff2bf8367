// Shared helpers of the expression-engine tests: where the reference models
// are, probe points, and central differences of any vector function.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"

namespace odesens::expr_testing {

// ../shared next to the repository, or $ODESENS_SHARED_DIR.
inline std::string shared_dir() {
  if (const char* env = std::getenv("ODESENS_SHARED_DIR")) return env;
  return ODESENS_DEFAULT_SHARED_DIR;
}

inline std::string ode_model_path(const std::string& file) {
  return shared_dir() + "/models/ode/" + file;
}

inline std::string sbml_model_path(const std::string& name) {
  return shared_dir() + "/models/sbml/" + name + ".xml";
}

inline bool readable(const std::string& path) { return std::ifstream(path).good(); }

// Skips the test when the shared SBML model NAME (no extension) is absent.
#define ODESENS_REQUIRE_SHARED_SBML(name)                                                   \
  do {                                                                                      \
    if (!::odesens::expr_testing::readable(::odesens::expr_testing::sbml_model_path(name))) \
      GTEST_SKIP() << ::odesens::expr_testing::sbml_model_path(name)                        \
                   << " not found (set ODESENS_SHARED_DIR)";                              \
  } while (0)

#define ODESENS_REQUIRE_SHARED_MODEL(file)                                                  \
  do {                                                                                      \
    if (!::odesens::expr_testing::readable(::odesens::expr_testing::ode_model_path(file)))  \
      GTEST_SKIP() << "reference model " << ::odesens::expr_testing::ode_model_path(file)   \
                   << " not found (set ODESENS_SHARED_DIR)";                              \
  } while (0)

inline const std::vector<std::string>& shared_ode_files() {
  static const std::vector<std::string> files = {
      "camkii.ode", "chua.ode", "cubic_oscillator.ode", "detest_c1.ode",
      "michaelis_menten.ode", "pka.ode", "stiff_e3.ode", "vanderpol.ode"};
  return files;
}

// Parameters near nominal, every one non-zero (so that terms the nominal
// zeros switch off are exercised), and a state near x0 with every component
// positive and moved.
inline std::vector<double> probe_params(const Model& m, unsigned seed = 11) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0.8, 1.2);
  auto p = m.nominal_params();
  for (auto& v : p) v = v == 0.0 ? 0.5 * u(gen) : v * u(gen);
  return p;
}

inline std::vector<double> probe_state(const Model& m, const std::vector<double>& p,
                                       unsigned seed = 7) {
  std::vector<double> x(m.nx());
  m.initial_state(p.data(), x.data());
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0.1, 1.0);
  for (auto& v : x) v = std::fabs(v) + u(gen);
  return x;
}

using VectorFunction = std::function<void(const std::vector<double>& in, std::vector<double>& out)>;

// Column k of the result (n_out x in.size()) is (F(in + h e_k) - F(in - h e_k)) / 2h
// with h = rel * max(|in_k|, 1e-2).
inline std::vector<double> central_jacobian(const VectorFunction& F, std::vector<double> in,
                                            std::size_t n_out, double rel = 1e-6) {
  std::vector<double> J(n_out * in.size()), plus(n_out), minus(n_out);
  for (std::size_t k = 0; k < in.size(); ++k) {
    const double v = in[k], h = rel * std::max(std::fabs(v), 1e-2);
    in[k] = v + h;
    F(in, plus);
    in[k] = v - h;
    F(in, minus);
    in[k] = v;
    for (std::size_t i = 0; i < n_out; ++i) J[i + k * n_out] = (plus[i] - minus[i]) / (2 * h);
  }
  return J;
}

inline double max_abs(const std::vector<double>& a) {
  double m = 0.0;
  for (double v : a) m = std::max(m, std::fabs(v));
  return m;
}

// max |a - b| / max(1, max |b|)
inline double scaled_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i]));
  return d / std::max(1.0, max_abs(b));
}

inline std::vector<double> dense_from_pattern(const SparsityPattern& s,
                                              const std::vector<double>& values) {
  std::vector<double> d(s.rows * s.cols, 0.0);
  for (std::size_t j = 0; j < s.cols; ++j)
    for (auto q = s.col_ptr[j]; q < s.col_ptr[j + 1]; ++q)
      d[static_cast<std::size_t>(s.row_idx[q]) + j * s.rows] = values[static_cast<std::size_t>(q)];
  return d;
}

// a and b hold the same doubles, bit for bit (NaNs and the sign of zero
// included).
inline bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

inline bool in_pattern(const SparsityPattern& s, std::size_t i, std::size_t j) {
  for (auto q = s.col_ptr[j]; q < s.col_ptr[j + 1]; ++q)
    if (static_cast<std::size_t>(s.row_idx[q]) == i) return true;
  return false;
}

// A reference .ode model (the test parameter, a file name) loaded with
// probe parameters and a probe state; skipped when the file is absent.
class ReferenceModelTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ODESENS_REQUIRE_SHARED_MODEL(GetParam());
    m = load_ode_file(ode_model_path(GetParam()));
    p = probe_params(*m);
    x = probe_state(*m, p);
    n = m->nx();
    np = m->np();
  }
  std::shared_ptr<ExprModel> m;
  std::vector<double> p, x;
  std::size_t n = 0, np = 0;
};

}  // namespace odesens::expr_testing
