// The tableaux of tableaux.def satisfy the order conditions they claim:
// weights b to order p, embedded weights to p_hat, the dense output to its
// order for every θ, and the row-sum condition c_i = Σ_j a_ij.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "integrate/erk/dense_output.hpp"
#include "integrate/erk/tableau.hpp"
#include "rooted_trees.hpp"

namespace odesens::integrate::erk {
namespace {

using testing::elementary_weights;
using testing::rooted_trees;
using testing::RootedTree;

// Checked up to order 8 (all 200 trees); tolerance covers dop853's
// 30-digit decimal coefficients rounded to double and its large a_ij.
constexpr double kOrderTolerance = 1e-12;

struct ConditionCheck {
  const Tableau& tab;
  std::vector<RootedTree> trees = rooted_trees(8);
  std::vector<std::vector<double>> phi =
      elementary_weights(trees, tab.dense_stages, [this](int i, int j) { return tab.a_at(i, j); });

  // Σ_i w_i Φ_i(t) - scale^|t| / γ(t) for every tree up to max_order; returns
  // the largest violation.
  double worst(const double* w, int count, int max_order, double scale = 1.0,
               std::string* tree_info = nullptr) const {
    double worst = 0;
    for (std::size_t t = 0; t < trees.size(); ++t) {
      if (trees[t].order > max_order) break;
      double sum = 0;
      for (int i = 0; i < count; ++i) sum += w[i] * phi[t][i];
      const double v = std::fabs(sum - std::pow(scale, trees[t].order) / trees[t].gamma);
      if (v > worst) {
        worst = v;
        if (tree_info) *tree_info = "tree " + std::to_string(t) + " of order " + std::to_string(trees[t].order);
      }
    }
    return worst;
  }
};

class EveryTableau : public ::testing::TestWithParam<TableauId> {};

TEST(RootedTrees, CountsMatchTheKnownSequence) {
  const auto trees = rooted_trees(8);
  int counts[9] = {};
  for (const auto& t : trees) ++counts[t.order];
  const int expected[9] = {0, 1, 1, 2, 4, 9, 20, 48, 115};
  for (int q = 1; q <= 8; ++q) EXPECT_EQ(counts[q], expected[q]) << "order " << q;
}

TEST_P(EveryTableau, NodesAreRowSums) {
  const Tableau& tab = tableau(GetParam());
  for (int i = 0; i < tab.dense_stages; ++i) {
    double sum = 0;
    for (int j = 0; j < i; ++j) sum += tab.a_at(i, j);
    EXPECT_NEAR(sum, tab.c[i], 1e-14) << tab.name << " row " << i;
  }
}

TEST_P(EveryTableau, WeightsSatisfyOrderConditionsUpToTheOrder) {
  const Tableau& tab = tableau(GetParam());
  const ConditionCheck check{tab};
  std::string where;
  EXPECT_LT(check.worst(tab.b, tab.stages, tab.order, 1.0, &where), kOrderTolerance)
      << tab.name << ": " << where;
}

TEST_P(EveryTableau, WeightsViolateTheNextOrder) {
  const Tableau& tab = tableau(GetParam());
  if (tab.order >= 8) GTEST_SKIP() << "order 9 trees not generated";
  const ConditionCheck check{tab};
  EXPECT_GT(check.worst(tab.b, tab.stages, tab.order + 1), 1e-6) << tab.name;
}

TEST_P(EveryTableau, EmbeddedWeightsHaveTheEmbeddedOrder) {
  const Tableau& tab = tableau(GetParam());
  if (!tab.e) GTEST_SKIP() << tab.name << " has no embedded formula";
  const ConditionCheck check{tab};
  std::vector<double> b_hat(tab.stages);
  for (int i = 0; i < tab.stages; ++i) b_hat[i] = tab.b[i] - tab.e[i];
  std::string where;
  EXPECT_LT(check.worst(b_hat.data(), tab.stages, tab.embedded_order, 1.0, &where), kOrderTolerance)
      << tab.name << ": " << where;
  EXPECT_GT(check.worst(b_hat.data(), tab.stages, tab.embedded_order + 1), 1e-6) << tab.name;
}

TEST(Dop853, ThirdOrderEstimateHasOrderThree) {
  const Tableau& tab = tableau(TableauId::dop853);
  const ConditionCheck check{tab};
  std::vector<double> bhh(tab.stages);
  for (int i = 0; i < tab.stages; ++i) bhh[i] = tab.b[i] - tab.e3[i];
  EXPECT_LT(check.worst(bhh.data(), tab.stages, 3), kOrderTolerance);
}

// x(t_n + θh) has order q for every θ iff Σ_j w_j(θ) Φ_j(t) = θ^|t|/γ(t)
// for |t| <= q (HNW I §II.6, Eq. 6.7).
TEST_P(EveryTableau, DenseOutputSatisfiesItsOrderConditionsForEveryTheta) {
  const Tableau& tab = tableau(GetParam());
  const ConditionCheck check{tab};
  const DenseWeights weights(tab);
  std::vector<double> w(tab.dense_stages);
  for (double theta : {0.0, 0.1, 0.37, 0.5, 0.81, 1.0}) {
    weights.at(theta, w.data());
    std::string where;
    EXPECT_LT(check.worst(w.data(), tab.dense_stages, tab.dense_order, theta, &where), 1e-11)
        << tab.name << " θ = " << theta << ": " << where;
  }
}

TEST_P(EveryTableau, DenseWeightsInterpolateTheStepEnds) {
  const Tableau& tab = tableau(GetParam());
  const DenseWeights weights(tab);
  std::vector<double> w(tab.dense_stages);
  weights.at(0.0, w.data());
  for (double v : w) EXPECT_EQ(v, 0.0) << tab.name;
  weights.at(1.0, w.data());
  for (int j = 0; j < tab.dense_stages; ++j)
    EXPECT_NEAR(w[j], j < tab.stages ? tab.b[j] : 0.0, 1e-12) << tab.name << " stage " << j;
}

TEST_P(EveryTableau, NewFStageIsTheStepEnd) {
  const Tableau& tab = tableau(GetParam());
  const int k = tab.new_f_stage;
  ASSERT_LT(k, tab.dense_stages);
  EXPECT_EQ(tab.c[k], 1.0) << tab.name;
  for (int j = 0; j < tab.stages; ++j) EXPECT_EQ(tab.a_at(k, j), tab.b[j]) << tab.name;
  if (tab.fsal) {
    EXPECT_EQ(k, tab.stages - 1) << tab.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Tableaux, EveryTableau,
                         ::testing::Values(TableauId::euler, TableauId::rk4, TableauId::bs3,
                                           TableauId::cash_karp, TableauId::dopri5,
                                           TableauId::dop853),
                         [](const auto& p) { return std::string(tableau(p.param).name); });

TEST(TableauLookup, FindsEveryTableauByName) {
  int count = 0;
  const Tableau* all = all_tableaux(&count);
  EXPECT_EQ(count, 6);
  for (int i = 0; i < count; ++i) {
    EXPECT_EQ(find_tableau(all[i].name), &all[i]);
    EXPECT_EQ(&tableau(all[i].id), &all[i]);
  }
  EXPECT_EQ(find_tableau("rk45"), nullptr);
}

TEST(TableauLookup, FlagsMatchTheLiterature) {
  EXPECT_TRUE(tableau(TableauId::euler).fixed_step_only);
  EXPECT_TRUE(tableau(TableauId::rk4).fixed_step_only);
  EXPECT_TRUE(tableau(TableauId::bs3).fsal);
  EXPECT_TRUE(tableau(TableauId::dopri5).fsal);
  EXPECT_TRUE(tableau(TableauId::dop853).fsal);
  EXPECT_FALSE(tableau(TableauId::cash_karp).fsal);
  EXPECT_EQ(tableau(TableauId::dop853).stages, 13);
  EXPECT_EQ(tableau(TableauId::dop853).dense_stages, 16);
  EXPECT_EQ(tableau(TableauId::dopri5).embedded_order, 4);
  EXPECT_EQ(tableau(TableauId::cash_karp).embedded_order, 4);
  EXPECT_EQ(tableau(TableauId::bs3).embedded_order, 2);
}

}  // namespace
}  // namespace odesens::integrate::erk
