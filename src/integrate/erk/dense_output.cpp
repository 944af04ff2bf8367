#include "integrate/erk/dense_output.hpp"

namespace odesens::integrate::erk {

namespace {
// Coefficient of k_j in r_m / h, m = 2 .. 4 + dense_rows (see the header).
double nested_row(const Tableau& tab, int m, int j) {
  const double b = j < tab.stages ? tab.b[j] : 0.0;
  const double first = j == 0 ? 1.0 : 0.0;
  const double new_f = j == tab.new_f_stage ? 1.0 : 0.0;
  switch (m) {
    case 2: return b;                          // r2 = x_{n+1} - x_n
    case 3: return first - b;                  // r3 = h k_0 - r2
    case 4: return b - new_f - (first - b);    // r4 = r2 - h f_{n+1} - r3
    default: return tab.dense[(m - 5) * tab.dense_stages + j];
  }
}
}  // namespace

DenseWeights::DenseWeights(const Tableau& tab)
    : stages_(tab.dense_stages), last_row_(4 + tab.dense_rows) {
  rows_.resize(static_cast<std::size_t>((last_row_ - 1) * stages_));
  for (int m = 2; m <= last_row_; ++m)
    for (int j = 0; j < stages_; ++j)
      rows_[static_cast<std::size_t>((m - 2) * stages_ + j)] = nested_row(tab, m, j);
}

void DenseWeights::at(double theta, double* w) const {
  const double theta1 = 1.0 - theta;
  const std::size_t s = static_cast<std::size_t>(stages_);
  // Horner from the innermost r_m outwards: after r_m comes θ' when m is
  // even and θ when m is odd.
  const double* row = rows_.data() + static_cast<std::size_t>(last_row_ - 2) * s;
  for (std::size_t j = 0; j < s; ++j) w[j] = row[j];
  for (int m = last_row_ - 1; m >= 2; --m) {
    const double factor = m % 2 == 0 ? theta1 : theta;
    row -= s;
    for (std::size_t j = 0; j < s; ++j) w[j] = row[j] + factor * w[j];
  }
  for (std::size_t j = 0; j < s; ++j) w[j] *= theta;
}

}  // namespace odesens::integrate::erk
