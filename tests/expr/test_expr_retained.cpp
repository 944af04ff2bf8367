// RetainedValues: f through the kept value sweep equals f, and adjoint
// products from kept values equal vjp_accumulate, to the bit, whatever
// slots are interleaved and at every lane width.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "expr/expr_test_support.hpp"

namespace odesens {
namespace {

using expr_testing::same_bits;

TEST(RetainedValues, ProductsFromKeptValuesEqualThoseOfAFreshSweep) {
  std::vector<std::string> files = {"chua.ode", "camkii.ode", "pka.ode", "vanderpol.ode"};
  for (const auto& file : files) {
    const std::string path = expr_testing::ode_model_path(file);
    if (!expr_testing::readable(path)) GTEST_SKIP() << path << " not found (set ODESENS_SHARED_DIR)";
    const auto model = load_ode_file(path);
    ASSERT_NE(model->retained_values(), nullptr);
    const std::size_t nx = model->nx(), np = model->np(), nw = 5, slots = 3;
    const std::vector<double> p = model->nominal_params();
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(0.1, 1.0);
    std::vector<std::vector<double>> x(slots, std::vector<double>(nx));
    for (auto& xs : x)
      for (auto& v : xs) v = u(rng);
    std::vector<double> W(nx * nw);
    for (auto& v : W) v = u(rng) - 0.5;
    for (int lanes : {1, widest_expr_lane_width()}) {
      auto ws = model->make_workspace(lanes);
      const RetainedValues& retained = *model->retained_values();
      // Keep all slots first, then take the products in another order.
      for (std::size_t s = 0; s < slots; ++s) {
        std::vector<double> f(nx), f_kept(nx);
        model->rhs(0.3 * s, x[s].data(), p.data(), f.data(), ws.get());
        retained.rhs_retained(s, 0.3 * s, x[s].data(), p.data(), f_kept.data(), ws.get());
        EXPECT_TRUE(same_bits(f, f_kept)) << file << " slot " << s;
      }
      for (std::size_t s : {std::size_t{2}, std::size_t{0}, std::size_t{1}}) {
        std::vector<double> ox(nx * nw), op(np * nw, 0.25), ox_kept(nx * nw), op_kept(np * nw, 0.25);
        model->vjp_accumulate(0.3 * s, x[s].data(), p.data(), nw, W.data(), ox.data(), op.data(),
                              ws.get());
        retained.vjp_accumulate_retained(s, nw, W.data(), ox_kept.data(), op_kept.data(), ws.get());
        EXPECT_TRUE(same_bits(ox, ox_kept)) << file << " lanes " << lanes << " slot " << s;
        EXPECT_TRUE(same_bits(op, op_kept)) << file << " lanes " << lanes << " slot " << s;
      }
    }
  }
}

TEST(RetainedValues, MisuseIsAnError) {
  const auto model = load_ode_text("param a = 1\nstate x = 1\ndx/dt = -a*x\n", "m.ode");
  auto ws = model->make_workspace();
  double w = 1, ox = 0, op = 0, f = 0, x = 1, p = 1;
  EXPECT_THROW(model->retained_values()->vjp_accumulate_retained(4, 1, &w, &ox, &op, ws.get()),
               Error);
  EXPECT_THROW(model->retained_values()->rhs_retained(0, 0.0, &x, &p, &f, nullptr), Error);
  EXPECT_EQ(load_model("builtin:chua")->retained_values(), nullptr);
}

}  // namespace
}  // namespace odesens
