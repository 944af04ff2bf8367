// Butcher's rooted trees and elementary weights (HNW I §II.2), for checking
// order conditions Σ_i b_i Φ_i(t) = 1/γ(t) of any tableau up to order 8.
#pragma once

#include <cstddef>
#include <vector>

namespace odesens::integrate::testing {

struct RootedTree {
  int order;                  // number of vertices |t|
  double gamma;               // density γ(t) = |t| Π γ(children)
  std::vector<int> children;  // indices into the tree list, non-increasing
};

// All rooted trees with up to max_order vertices, by increasing order
// (1, 1, 2, 4, 9, 20, 48, 115 of each order).
inline std::vector<RootedTree> rooted_trees(int max_order) {
  std::vector<RootedTree> trees{{1, 1.0, {}}};
  for (int order = 2; order <= max_order; ++order) {
    const int existing = static_cast<int>(trees.size());
    // Multisets of existing trees whose orders sum to order-1, as
    // non-increasing index sequences (each multiset once).
    std::vector<int> stack;
    auto extend = [&](auto&& self, int remaining, int max_index) -> void {
      if (remaining == 0) {
        double gamma = order;
        for (int c : stack) gamma *= trees[c].gamma;
        trees.push_back({order, gamma, stack});
        return;
      }
      for (int k = max_index; k >= 0; --k) {
        if (trees[k].order > remaining) continue;
        stack.push_back(k);
        self(self, remaining - trees[k].order, k);
        stack.pop_back();
      }
    };
    extend(extend, order - 1, existing - 1);
  }
  return trees;
}

// Φ_i(t) for every tree and stage i < s, with A (s x s, row-major) given by a(i, j).
template <class AFn>
std::vector<std::vector<double>> elementary_weights(const std::vector<RootedTree>& trees, int s,
                                                    AFn a) {
  std::vector<std::vector<double>> phi(trees.size(), std::vector<double>(s, 1.0));
  std::vector<std::vector<double>> a_phi(trees.size(), std::vector<double>(s, 0.0));
  for (std::size_t t = 0; t < trees.size(); ++t) {
    for (int c : trees[t].children)
      for (int i = 0; i < s; ++i) phi[t][i] *= a_phi[c][i];
    for (int i = 0; i < s; ++i)
      for (int j = 0; j < i; ++j) a_phi[t][i] += a(i, j) * phi[t][j];
  }
  return phi;
}

}  // namespace odesens::integrate::testing
