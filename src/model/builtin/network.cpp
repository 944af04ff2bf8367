// network:N, the random sparse mass-action reaction network of
// ../shared/design/BUILTIN_MODELS.md (the large-model workload): N species,
// 2N reactions (conversions X_a -> X_b with rate k x_a, bindings
// X_a + X_b -> X_c with rate k x_a x_b), dx_i/dt = 0.1 - 0.01 x_i +
// sum_r nu_ir rate_r, parameters k_1..k_2N. J_x and J_p are given sparse and
// exact, so every method keeps them in O(nnz) memory.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "linalg/csc.hpp"
#include "model/builtin/builtin_models_internal.hpp"

namespace odesens::builtin {

namespace {

constexpr double kInflow = 0.1;
constexpr double kOutflow = 0.01;

// One reaction: reactants (b < 0 for a conversion) and its non-zero net
// stoichiometry, by species in increasing order.
struct Reaction {
  std::int64_t a = 0;
  std::int64_t b = -1;
  std::vector<std::pair<std::int64_t, double>> net;  // (species, nu)
};

}  // namespace

NetworkData network_data(std::size_t n, std::uint64_t seed) {
  NetworkData data;
  SplitMix64 stream(seed);
  const auto size = static_cast<double>(n);
  for (std::size_t r = 0; r < 2 * n; ++r) {
    const double ut = stream.uniform(), ua = stream.uniform(), ub = stream.uniform(),
                 uk = stream.uniform();
    auto a = static_cast<std::int64_t>(std::floor(ua * size));
    auto b = static_cast<std::int64_t>(std::floor(ub * size));
    const auto ni = static_cast<std::int64_t>(n);
    NetworkData::Reaction reaction;
    if (ut < 0.5) {
      if (a == b) b = (a + 1) % ni;
      reaction = {a, -1, b, std::pow(10.0, -2.0 + 4.0 * uk)};
    } else {
      reaction = {a, b, (std::max(a, b) + 1) % ni, std::pow(10.0, -3.0 + 4.0 * uk)};
    }
    data.reactions.push_back(reaction);
  }
  data.x0.resize(n);
  for (std::size_t i = 0; i < n; ++i) data.x0[i] = std::pow(10.0, -1.0 + 2.0 * stream.uniform());
  return data;
}

namespace {

std::vector<Reaction> reactions_of(const NetworkData& data) {
  std::vector<Reaction> out;
  for (const auto& r : data.reactions) {
    std::map<std::int64_t, double> nu;
    nu[r.a] -= 1.0;
    if (r.b >= 0) nu[r.b] -= 1.0;
    nu[r.product] += 1.0;
    Reaction reaction{r.a, r.b, {}};
    for (const auto& [species, coefficient] : nu)
      if (coefficient != 0.0) reaction.net.emplace_back(species, coefficient);
    out.push_back(std::move(reaction));
  }
  return out;
}

// d rate_r / d x_j = coefficient * k_r * (partner < 0 ? 1 : x_partner), added
// to J_x at values[q] with factor nu_ir.
struct JacobianTerm {
  std::int64_t q;
  std::uint32_t reaction;
  std::int64_t partner;
  double coefficient;  // nu_ir times the multiplicity of x_j in the rate
};

// Second derivatives (autonomous, so a = J f and da/dt = 0):
//   da/dx = J J + H,  H_ik = sum_j f_j dJ_ij/dx_k, non-zero only through the
//           bilinear binding rates (dJ_ij/dx_partner = coefficient * k_r),
//           and inside the pattern of J (the partner is a reactant), hence
//           inside that of J^2 (J has a full diagonal);
//   da/dk_r = (dJ/dk_r) f + J (df/dk_r), df/dk_r = column r of J_p.
class Network final : public BuiltinModel, public SecondDerivatives {
 public:
  explicit Network(std::size_t n)
      : BuiltinModel("builtin:network:" + std::to_string(n), numbered_names("x", n),
                     numbered_names("k", 2 * n), {}, 100.0),
        data_(network_data(n)),
        reactions_(reactions_of(data_)) {
    for (const auto& r : data_.reactions) rates_.push_back(r.rate_constant);
    build_state_jacobian();
    build_parameter_jacobian();
  }

  const SecondDerivatives* second_derivatives() const override { return this; }

  std::vector<double> nominal_params() const override { return rates_; }

  void initial_state(const double*, double* x0, Workspace* = nullptr) const override {
    std::copy(data_.x0.begin(), data_.x0.end(), x0);
  }

  void rhs(double, const double* x, const double* p, double* f,
           Workspace* = nullptr) const override {
    const std::size_t n = nx();
    for (std::size_t i = 0; i < n; ++i) f[i] = kInflow - kOutflow * x[i];
    for (std::size_t r = 0; r < reactions_.size(); ++r) {
      const double rate = p[r] * mass_action(reactions_[r], x);
      for (const auto& [species, nu] : reactions_[r].net) f[species] += nu * rate;
    }
  }

  const SparsityPattern* jac_x_pattern() const override { return &jx_pattern_; }

  void jac_x_values(double, const double* x, const double* p, double* values,
                    Workspace* = nullptr) const override {
    std::fill(values, values + jx_pattern_.nnz(), 0.0);
    for (std::int64_t q : diagonal_) values[q] = -kOutflow;
    for (const auto& term : jx_terms_) {
      const double partner = term.partner < 0 ? 1.0 : x[term.partner];
      values[term.q] += term.coefficient * p[term.reaction] * partner;
    }
  }

  void jac_x(double t, const double* x, const double* p, double* J,
             Workspace* ws = nullptr) const override {
    std::unique_ptr<Workspace> local;
    double* values = workspace_or_local(*this, ws, local)
                         .scratch(Workspace::Scratch::jacobian_values, jx_pattern_.nnz());
    jac_x_values(t, x, p, values);
    linalg::csc_to_dense(jx_pattern_, values, J);
  }

  const SparsityPattern* jac_p_pattern() const override { return &jp_pattern_; }

  // Column r of J_p: nu_ir * rate_r / k_r.
  void jac_p_values(double, const double* x, const double*, double* values,
                    Workspace* = nullptr) const override {
    for (std::size_t r = 0; r < reactions_.size(); ++r) {
      const double m = mass_action(reactions_[r], x);
      auto q = jp_pattern_.col_ptr[r];
      for (const auto& entry : reactions_[r].net) values[q++] = entry.second * m;
    }
  }

  void jac_p(double, const double* x, const double*, double* Jp,
             Workspace* = nullptr) const override {
    const std::size_t n = nx();
    std::fill(Jp, Jp + n * np(), 0.0);
    for (std::size_t r = 0; r < reactions_.size(); ++r) {
      const double m = mass_action(reactions_[r], x);
      for (const auto& [species, nu] : reactions_[r].net)
        Jp[static_cast<std::size_t>(species) + r * n] = nu * m;
    }
  }

  void vjp_p(double, const double* x, const double*, std::size_t nw, const double* W,
             double* out, Workspace* = nullptr) const override {
    parameter_products<false>(x, nw, W, out);
  }

  // J_x^T W by the default (sparse J_x values), J_p^T W added into out_p
  // as it is formed: no np x nw temporary.
  void vjp_accumulate(double t, const double* x, const double* p, std::size_t nw,
                      const double* W, double* out_x, double* out_p,
                      Workspace* ws = nullptr) const override {
    vjp_x(t, x, p, nw, W, out_x, ws);
    if (out_p) parameter_products<true>(x, nw, W, out_p);
  }

  void xddot(double t, const double* x, const double* p, double* a,
             Workspace* ws = nullptr) const override {
    std::unique_ptr<Workspace> local;
    Workspace& w = workspace_or_local(*this, ws, local);
    double* f = w.scratch(Workspace::Scratch::product, nx());
    double* values = w.scratch(Workspace::Scratch::jacobian_values, jx_pattern_.nnz());
    rhs(t, x, p, f);
    jac_x_values(t, x, p, values);
    linalg::csc_multiply(jx_pattern_, values, 1, f, a);
  }

  const SparsityPattern& xddot_jac_x_pattern() const override { return squared().pattern; }

  void xddot_jac_x_values(double t, const double* x, const double* p, double* out,
                          Workspace* ws = nullptr) const override {
    const Squared& sq = squared();
    const std::size_t n = nx();
    std::unique_ptr<Workspace> local;
    Workspace& w = workspace_or_local(*this, ws, local);
    double* f = w.scratch(Workspace::Scratch::product, n);
    double* values = w.scratch(Workspace::Scratch::jacobian_values, jx_pattern_.nnz());
    double* column = w.scratch(Workspace::Scratch::fd_shift, n);
    rhs(t, x, p, f);
    jac_x_values(t, x, p, values);
    const auto& cp = jx_pattern_.col_ptr;
    const auto& ri = jx_pattern_.row_idx;
    std::fill(column, column + n, 0.0);
    for (std::size_t j = 0; j < n; ++j) {
      // column j of J J = sum_k J[:, k] J[k, j]
      for (auto q = cp[j]; q < cp[j + 1]; ++q) {
        const auto k = static_cast<std::size_t>(ri[q]);
        for (auto q2 = cp[k]; q2 < cp[k + 1]; ++q2) column[ri[q2]] += values[q2] * values[q];
      }
      for (auto q = sq.pattern.col_ptr[j]; q < sq.pattern.col_ptr[j + 1]; ++q) {
        out[q] = column[sq.pattern.row_idx[q]];
        column[sq.pattern.row_idx[q]] = 0.0;
      }
    }
    for (std::size_t e = 0; e < jx_terms_.size(); ++e) {
      const JacobianTerm& term = jx_terms_[e];
      if (term.partner < 0) continue;
      out[sq.h_position[e]] += f[jx_column_[term.q]] * term.coefficient * p[term.reaction];
    }
  }

  void xddot_jac_x(double t, const double* x, const double* p, double* Ja,
                   Workspace* ws = nullptr) const override {
    const Squared& sq = squared();
    std::unique_ptr<Workspace> local;
    Workspace& w = workspace_or_local(*this, ws, local);
    double* values = w.scratch(Workspace::Scratch::dense_jacobian, sq.pattern.nnz());
    xddot_jac_x_values(t, x, p, values, &w);
    linalg::csc_to_dense(sq.pattern, values, Ja);
  }

  void xddot_jac_p(double t, const double* x, const double* p, double* Ap,
                   Workspace* ws = nullptr) const override {
    const std::size_t n = nx();
    std::fill(Ap, Ap + n * np(), 0.0);
    for_each_xddot_jac_p_term(t, x, p, ws, [&](std::size_t, std::int64_t row, std::size_t r,
                                               double v) { Ap[static_cast<std::size_t>(row) + r * n] += v; });
  }

  const SparsityPattern* xddot_jac_p_pattern() const override { return &sparse_ap().pattern; }

  // The terms of xddot_jac_p, each added at its place in the pattern.
  void xddot_jac_p_values(double t, const double* x, const double* p, double* values,
                          Workspace* ws = nullptr) const override {
    const SparseAp& ap = sparse_ap();
    std::fill(values, values + ap.pattern.nnz(), 0.0);
    for_each_xddot_jac_p_term(t, x, p, ws, [&](std::size_t k, std::int64_t, std::size_t,
                                               double v) { values[ap.position[k]] += v; });
  }

  // Visits the terms of da/dk_r = J (df/dk_r) + (dJ/dk_r) f in a fixed order,
  // the k-th as visit(k, row, r, value); several terms may share an entry.
  template <class Visit>
  void for_each_xddot_jac_p_term(double t, const double* x, const double* p, Workspace* ws,
                                 Visit&& visit) const {
    const std::size_t n = nx();
    std::unique_ptr<Workspace> local;
    Workspace& w = workspace_or_local(*this, ws, local);
    double* f = w.scratch(Workspace::Scratch::product, n);
    double* jx = w.scratch(Workspace::Scratch::jacobian_values, jx_pattern_.nnz());
    rhs(t, x, p, f);
    jac_x_values(t, x, p, jx);
    const auto& cp = jx_pattern_.col_ptr;
    const auto& ri = jx_pattern_.row_idx;
    std::size_t k = 0;
    for (std::size_t r = 0; r < reactions_.size(); ++r) {
      const double m = mass_action(reactions_[r], x);
      for (const auto& [species, nu] : reactions_[r].net)  // J (df/dk_r)
        for (auto q = cp[species]; q < cp[species + 1]; ++q) visit(k++, ri[q], r, jx[q] * nu * m);
    }
    for (const auto& term : jx_terms_) {  // (dJ/dk_r) f
      const double partner = term.partner < 0 ? 1.0 : x[term.partner];
      visit(k++, ri[term.q], term.reaction, term.coefficient * partner * f[jx_column_[term.q]]);
    }
  }

  // Autonomous: f does not depend on t.
  void dfdt(double, const double*, const double*, double* out,
            Workspace* = nullptr) const override {
    std::fill(out, out + nx(), 0.0);
  }

  void xddot_dt(double, const double*, const double*, double* out,
                Workspace* = nullptr) const override {
    std::fill(out, out + nx(), 0.0);
  }

 private:
  // (J_p^T w)_r = (rate_r / k_r) * sum_i nu_ir w_i, without forming J_p;
  // stored into out, or added to it (vjp_accumulate).
  template <bool Add>
  void parameter_products(const double* x, std::size_t nw, const double* W, double* out) const {
    const std::size_t n = nx(), m = np();
    for (std::size_t r = 0; r < reactions_.size(); ++r) {
      const double ma = mass_action(reactions_[r], x);
      for (std::size_t k = 0; k < nw; ++k) {
        double s = 0.0;
        for (const auto& [species, nu] : reactions_[r].net)
          s += nu * W[static_cast<std::size_t>(species) + k * n];
        if (Add)
          out[r + k * m] += ma * s;
        else
          out[r + k * m] = ma * s;
      }
    }
  }

  // Structural pattern of J^2 and, for each J_x term with a partner, the
  // position of (row, partner) in it (H's entry). Built on first use.
  struct Squared {
    SparsityPattern pattern;
    std::vector<std::int64_t> h_position;
  };

  const Squared& squared() const {
    return squared_.get([&] {
      const std::size_t n = nx();
      const auto& cp = jx_pattern_.col_ptr;
      const auto& ri = jx_pattern_.row_idx;
      Squared sq;
      sq.pattern.rows = sq.pattern.cols = n;
      sq.pattern.col_ptr.assign(n + 1, 0);
      std::vector<char> mark(n, 0);
      std::vector<std::int64_t> rows;
      for (std::size_t j = 0; j < n; ++j) {
        rows.clear();
        for (auto q = cp[j]; q < cp[j + 1]; ++q)
          for (auto q2 = cp[ri[q]]; q2 < cp[ri[q] + 1]; ++q2)
            if (!mark[ri[q2]]) {
              mark[ri[q2]] = 1;
              rows.push_back(ri[q2]);
            }
        std::sort(rows.begin(), rows.end());
        for (auto r : rows) mark[r] = 0;
        sq.pattern.row_idx.insert(sq.pattern.row_idx.end(), rows.begin(), rows.end());
        sq.pattern.col_ptr[j + 1] = static_cast<std::int64_t>(sq.pattern.row_idx.size());
      }
      sq.h_position.assign(jx_terms_.size(), -1);
      for (std::size_t e = 0; e < jx_terms_.size(); ++e) {
        const JacobianTerm& term = jx_terms_[e];
        if (term.partner < 0) continue;
        const auto begin = sq.pattern.row_idx.begin() + sq.pattern.col_ptr[term.partner];
        const auto end = sq.pattern.row_idx.begin() + sq.pattern.col_ptr[term.partner + 1];
        sq.h_position[e] = std::lower_bound(begin, end, ri[term.q]) - sq.pattern.row_idx.begin();
      }
      return sq;
    });
  }

  // The pattern of da/dk: column r holds the rows of J's columns for the
  // species reaction r changes (J df/dk_r) and the rows of the J entries
  // whose value k_r scales ((dJ/dk_r) f). The position of every term, in
  // the order for_each_xddot_jac_p_term visits them.
  struct SparseAp {
    SparsityPattern pattern;
    std::vector<std::int64_t> position;  // of each term, in for_each_xddot_jac_p_term's order
  };
  const SparseAp& sparse_ap() const {
    return sparse_ap_.get([this] {
      const std::size_t n = nx(), m = reactions_.size();
      const auto& cp = jx_pattern_.col_ptr;
      const auto& ri = jx_pattern_.row_idx;
      std::vector<std::vector<std::int64_t>> rows(m);
      for (std::size_t r = 0; r < m; ++r)
        for (const auto& entry : reactions_[r].net)
          for (auto q = cp[entry.first]; q < cp[entry.first + 1]; ++q) rows[r].push_back(ri[q]);
      for (const auto& term : jx_terms_) rows[term.reaction].push_back(ri[term.q]);
      SparseAp ap;
      ap.pattern.rows = n;
      ap.pattern.cols = m;
      ap.pattern.col_ptr.assign(m + 1, 0);
      for (std::size_t r = 0; r < m; ++r) {
        auto& col = rows[r];
        std::sort(col.begin(), col.end());
        col.erase(std::unique(col.begin(), col.end()), col.end());
        ap.pattern.row_idx.insert(ap.pattern.row_idx.end(), col.begin(), col.end());
        ap.pattern.col_ptr[r + 1] = static_cast<std::int64_t>(ap.pattern.row_idx.size());
      }
      auto position = [&](std::int64_t row, std::size_t col) {
        const auto begin = ap.pattern.row_idx.begin() + ap.pattern.col_ptr[col];
        const auto end = ap.pattern.row_idx.begin() + ap.pattern.col_ptr[col + 1];
        return static_cast<std::int64_t>(std::lower_bound(begin, end, row) -
                                         ap.pattern.row_idx.begin());
      };
      for (std::size_t r = 0; r < m; ++r)
        for (const auto& entry : reactions_[r].net)
          for (auto q = cp[entry.first]; q < cp[entry.first + 1]; ++q)
            ap.position.push_back(position(ri[q], r));
      for (const auto& term : jx_terms_) ap.position.push_back(position(ri[term.q], term.reaction));
      return ap;
    });
  }

  // rate_r / k_r
  static double mass_action(const Reaction& r, const double* x) {
    return r.b < 0 ? x[r.a] : x[r.a] * x[r.b];
  }

  // Pattern: the diagonal plus (i, j) for species i with non-zero net
  // stoichiometry in a reaction whose rate depends on x_j.
  void build_state_jacobian() {
    const std::size_t n = nx();
    struct Raw {
      std::int64_t row, col;
      std::uint32_t reaction;
      std::int64_t partner;
      double coefficient;
    };
    std::vector<Raw> raw;
    for (std::size_t r = 0; r < reactions_.size(); ++r) {
      const Reaction& re = reactions_[r];
      const auto ri = static_cast<std::uint32_t>(r);
      for (const auto& [species, nu] : re.net) {
        if (re.b < 0) {
          raw.push_back({species, re.a, ri, -1, nu});
        } else if (re.a == re.b) {
          raw.push_back({species, re.a, ri, re.a, 2.0 * nu});
        } else {
          raw.push_back({species, re.a, ri, re.b, nu});
          raw.push_back({species, re.b, ri, re.a, nu});
        }
      }
    }
    std::vector<std::vector<std::int64_t>> rows(n);
    for (std::size_t i = 0; i < n; ++i) rows[i].push_back(static_cast<std::int64_t>(i));
    for (const auto& e : raw) rows[static_cast<std::size_t>(e.col)].push_back(e.row);
    jx_pattern_.rows = jx_pattern_.cols = n;
    jx_pattern_.col_ptr.assign(n + 1, 0);
    for (std::size_t j = 0; j < n; ++j) {
      auto& col = rows[j];
      std::sort(col.begin(), col.end());
      col.erase(std::unique(col.begin(), col.end()), col.end());
      jx_pattern_.row_idx.insert(jx_pattern_.row_idx.end(), col.begin(), col.end());
      jx_pattern_.col_ptr[j + 1] = static_cast<std::int64_t>(jx_pattern_.row_idx.size());
    }
    auto position = [&](std::int64_t row, std::int64_t col) {
      const auto begin = jx_pattern_.row_idx.begin() + jx_pattern_.col_ptr[col];
      const auto end = jx_pattern_.row_idx.begin() + jx_pattern_.col_ptr[col + 1];
      return static_cast<std::int64_t>(std::lower_bound(begin, end, row) -
                                       jx_pattern_.row_idx.begin());
    };
    for (std::size_t i = 0; i < n; ++i)
      diagonal_.push_back(position(static_cast<std::int64_t>(i), static_cast<std::int64_t>(i)));
    for (const auto& e : raw)
      jx_terms_.push_back({position(e.row, e.col), e.reaction, e.partner, e.coefficient});
    jx_column_.resize(jx_pattern_.nnz());
    for (std::size_t j = 0; j < n; ++j)
      for (auto q = jx_pattern_.col_ptr[j]; q < jx_pattern_.col_ptr[j + 1]; ++q)
        jx_column_[q] = j;
  }

  void build_parameter_jacobian() {
    jp_pattern_.rows = nx();
    jp_pattern_.cols = reactions_.size();
    jp_pattern_.col_ptr.assign(reactions_.size() + 1, 0);
    for (std::size_t r = 0; r < reactions_.size(); ++r) {
      for (const auto& entry : reactions_[r].net) jp_pattern_.row_idx.push_back(entry.first);
      jp_pattern_.col_ptr[r + 1] = static_cast<std::int64_t>(jp_pattern_.row_idx.size());
    }
  }

  NetworkData data_;
  std::vector<Reaction> reactions_;
  std::vector<double> rates_;
  SparsityPattern jx_pattern_, jp_pattern_;
  std::vector<std::int64_t> diagonal_;
  std::vector<JacobianTerm> jx_terms_;
  std::vector<std::size_t> jx_column_;  // column of each J_x entry
  OnceBuilt<Squared> squared_;
  OnceBuilt<SparseAp> sparse_ap_;
};

}  // namespace

std::shared_ptr<Model> make_network(std::size_t n) { return std::make_shared<Network>(n); }

}  // namespace odesens::builtin
