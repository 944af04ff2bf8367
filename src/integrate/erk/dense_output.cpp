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

void dense_weights(const Tableau& tab, double theta, double* w) {
  const double theta1 = 1.0 - theta;
  const int last_row = 4 + tab.dense_rows;
  for (int j = 0; j < tab.dense_stages; ++j) {
    // Horner from the innermost r_m outwards: after r_m comes θ' when m is
    // even and θ when m is odd.
    double acc = nested_row(tab, last_row, j);
    for (int m = last_row - 1; m >= 2; --m) acc = nested_row(tab, m, j) + (m % 2 == 0 ? theta1 : theta) * acc;
    w[j] = theta * acc;
  }
}

}  // namespace odesens::integrate::erk
