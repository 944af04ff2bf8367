// The table of a Result's arrays (odesens/result_arrays.hpp): every method's
// result fits its axes, the names are unique and stable, and a front end
// that iterates the table meets every array: the guard against NaN and Inf
// names any array of the table and the entry, by its axes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "methods/common/finite_result.hpp"
#include "odesens/odesens.hpp"

namespace odesens {
namespace {

// Two states and two parameters, with a dose at t = 0.5 (without it for the
// set-valued methods, which cannot enclose a jump).
const char* kResultDecay =
    "param k = 1\nparam c = 0.5\nstate a = 1\nstate b = 0\n"
    "da/dt = -k*a + c\ndb/dt = k*a - 0.2*b\ntime t_end = 1\n";
const char* kDosedDecay =
    "param k = 1\nparam c = 0.5\nstate a = 1\nstate b = 0\n"
    "da/dt = -k*a + c\ndb/dt = k*a - 0.2*b\n"
    "event dose when t >= 0.5: a = a + 1\ntime t_end = 1\n";

Problem problem_for(const MethodInfo& info) {
  Problem pr;
  const bool box = info.capabilities.parameter_box;
  pr.model = load_ode_text(box ? kResultDecay : kDosedDecay, "decay.ode");
  pr.output_times = {0.25, 0.75, 1.0};
  if (box) {
    pr.param_lower = {0.95, 0.45};
    pr.param_upper = {1.05, 0.55};
    pr.options.set("order", 2);
  }
  return pr;
}

TEST(ResultArrays, NamesAreUniqueAndLayoutsArePermutationsOfTheAxes) {
  std::set<std::string> names;
  for (const ResultArraySpec& spec : result_array_specs()) {
    SCOPED_TRACE(spec.name);
    EXPECT_TRUE(names.insert(spec.name).second);
    EXPECT_NE(std::string(spec.doc), "");
    std::vector<std::size_t> order = spec.layout;
    std::sort(order.begin(), order.end());
    ASSERT_EQ(order.size(), spec.axes.size());
    for (std::size_t a = 0; a < order.size(); ++a) EXPECT_EQ(order[a], a);
    EXPECT_EQ(result_array_index(spec.name), static_cast<std::size_t>(&spec - &result_array_specs()[0]));
  }
  try {
    result_array_index("s");
    ADD_FAILURE() << "an unknown name was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("S_times, S"), std::string::npos) << e.what();
  }
}

// x (state, time), S (state, parameter, s_time), a gradient (parameter,
// objective): the extents are the result's sizes and their product is the
// length of every array of every method.
TEST(ResultArrays, EveryMethodsArraysHaveTheExtentsOfTheirAxes) {
  for (const MethodInfo& info : method_infos()) {
    SCOPED_TRACE(info.id);
    const Result r = solve(problem_for(info), info.id);
    std::vector<ResultArrayView> arrays;
    ASSERT_NO_THROW(arrays = result_arrays(r));
    for (const ResultArrayView& view : arrays) {
      std::size_t product = 1;
      for (std::size_t e : view.extents) product *= e;
      EXPECT_EQ(product, view.data->size()) << view.spec->name;
    }
    const ResultArrayView x = arrays[result_array_index("x")];
    EXPECT_EQ(x.extents, (std::vector<std::size_t>{2, r.times.size()}));
    ASSERT_EQ(x.layout().size(), 2u);
    EXPECT_EQ(x.layout()[0].extent, r.times.size());
    EXPECT_EQ(x.layout()[1].extent, 2u);
    EXPECT_EQ(x.layout()[0].stride, 2u);
    EXPECT_EQ(x.layout()[1].stride, 1u);
    const ResultArrayView s = arrays[result_array_index("S")];
    if (!r.s.empty()) {
      EXPECT_EQ(s.extents, (std::vector<std::size_t>{2, 2, r.s_times.size()}));
    }
    const ResultArrayView g = arrays[result_array_index("gradient")];
    if (!r.gradient.empty()) {
      EXPECT_EQ(g.extents, (std::vector<std::size_t>{2, 1}));
    }
    EXPECT_EQ(g.layout().size(), r.gradient.empty() ? 2u : 1u)
        << "one objective: the gradient is a list of np";
    const ResultArrayView hull = arrays[result_array_index("x_hull")];
    if (info.capabilities.parameter_box)
      EXPECT_EQ(hull.extents, (std::vector<std::size_t>{2, 2, r.times.size()}));
    else
      EXPECT_TRUE(hull.empty());
  }
}

TEST(ResultArrays, ALengthThatDisagreesWithTheSizesIsAnInternalError) {
  Result r;
  r.method = "made_up";
  r.nx = 2;
  r.times = {0.0, 1.0};
  r.x = {1.0, 2.0, 3.0};  // one value short
  try {
    result_arrays(r);
    ADD_FAILURE() << "a short x was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::internal_error);
    EXPECT_NE(std::string(e.what()).find("'x' of method 'made_up' has 3 values"),
              std::string::npos)
        << e.what();
  }
}

// A result with every array of the table that is not an enclosure filled
// (2 states, 2 parameters, 2 times, 1 direction, 2 objectives), from which
// each array in turn gets one NaN.
Result full_result() {
  Result r;
  r.method = "made_up";
  r.nx = r.np = 2;
  r.ns = 1;
  r.times = r.s_times = {0.5, 1.0};
  r.x.assign(4, 1.0);
  r.s.assign(8, 1.0);
  r.sr.assign(4, 1.0);
  r.gradient.assign(4, 1.0);
  r.gradient_x0.assign(4, 1.0);
  r.objective_values.assign(2, 1.0);
  return r;
}

TEST(ResultArrays, ANonFiniteEntryOfAnyArrayIsNamedWithItsPlace) {
  Problem pr;
  pr.model = load_ode_text(kDosedDecay, "dosed_decay.ode");
  ASSERT_NO_THROW(methods::check_result_finite(full_result(), *pr.model, "made_up"));
  std::size_t checked = 0;
  for (std::size_t k = 0; k < result_array_specs().size(); ++k) {
    const ResultArraySpec& spec = result_array_specs()[k];
    if (*spec.group != '\0') continue;
    SCOPED_TRACE(spec.name);
    Result r = full_result();
    std::vector<double>& v = spec.storage(r);
    ASSERT_FALSE(v.empty());
    v.back() = std::nan("");
    try {
      methods::check_result_finite(r, *pr.model, "made_up");
      ADD_FAILURE() << "a NaN was let through";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::not_finite);
      const std::string m = e.what();
      EXPECT_NE(m.find(std::string("NaN in ") + spec.name + " ("), std::string::npos) << m;
      // The last entry: the last state, parameter, time or objective; of
      // the time arrays, their last entry.
      if (spec.axes.size() == 1 && (spec.axes[0] == ResultAxis::time ||
                                    spec.axes[0] == ResultAxis::s_time))
        EXPECT_NE(m.find("at entry 2;"), std::string::npos) << m;
      else
        for (ResultAxis axis : spec.axes) {
        const char* place = axis == ResultAxis::state       ? "state 'b'"
                            : axis == ResultAxis::parameter ? "parameter 'c'"
                            : axis == ResultAxis::objective ? "objective 2"
                            : axis == ResultAxis::direction ? "direction 1"
                                                            : "t = 1";
        EXPECT_NE(m.find(place), std::string::npos) << place << " in " << m;
      }
    }
    ++checked;
  }
  EXPECT_EQ(checked, 8u);
}

}  // namespace
}  // namespace odesens
