// The table of a Result's arrays (odesens/result_arrays.hpp): one entry per
// array, in the order of the C ABI's odesens_result_array.
#include "odesens/result_arrays.hpp"

#include "odesens/status.hpp"

namespace odesens {
namespace {

using A = ResultAxis;

std::vector<ResultArraySpec> make_specs() {
  const char* const bounds_who = "bounds_fsa and bounds_asa do, given a parameter box";
  return {
      {"times", "", "the output times", "", {A::time}, {0}, true,
       &Result::times, nullptr},
      {"x", "", "the states at the output times", "", {A::state, A::time}, {1, 0}, true,
       &Result::x, nullptr},
      {"S_times", "", "the times at which S is given",
       "the forward methods give S at every output time, the adjoint ones at the final time",
       {A::s_time}, {0}, true, &Result::s_times, nullptr},
      {"S", "", "the sensitivities dx_i/dp_j at S_times",
       "the forward methods give S at every output time, the adjoint ones at the final time",
       {A::state, A::parameter, A::s_time}, {2, 0, 1}, true,
       &Result::s, nullptr},
      {"gradient", "", "the gradient d psi_m/dp_j of each objective",
       "the gradient methods do (odesens methods lists them)", {A::parameter, A::objective},
       {1, 0}, false, &Result::gradient, nullptr},
      {"gradient_x0", "", "the gradient d psi_m/dx_i(t0) of each objective", "erk_adjoint does",
       {A::state, A::objective}, {1, 0}, false,
       &Result::gradient_x0, nullptr},
      {"objectives", "", "the values psi_m of the objectives", "erk_adjoint does",
       {A::objective}, {0}, false,
       &Result::objective_values, nullptr},
      {"SR", "", "the products S(t_k) r_j (S·R) with the sensitivity directions r_j",
       "dopri8s and grk4as do, given sensitivity directions or the option directions=states "
       "or all",
       {A::state, A::direction, A::time}, {2, 0, 1}, false,
       &Result::sr, nullptr},
      {"x_coef", "bounds", "the coefficients of the models of x over the box", bounds_who,
       {A::monomial, A::state, A::time}, {2, 1, 0}, true,
       nullptr, &BoundsResult::x_coef},
      {"x_rem", "bounds", "the remainder intervals of the models of x", bounds_who,
       {A::bound, A::state, A::time}, {2, 1, 0}, true,
       nullptr, &BoundsResult::x_rem},
      {"x_hull", "bounds", "the enclosures of x over the box", bounds_who,
       {A::bound, A::state, A::time}, {2, 1, 0}, true,
       nullptr, &BoundsResult::x_hull},
      {"x_shape", "bounds", "the shape matrices of the ellipsoidal remainders of x",
       "bounds_fsa and bounds_asa do with remainder=ellipsoid", {A::state, A::state, A::time},
       {2, 0, 1}, true, nullptr, &BoundsResult::x_shape},
      {"s_coef", "bounds", "the coefficients of the models of S over the box",
       "bounds_fsa does, given a parameter box", {A::monomial, A::state, A::parameter, A::s_time},
       {3, 1, 2, 0}, true, nullptr, &BoundsResult::s_coef},
      {"s_rem", "bounds", "the remainder intervals of the models of S",
       "bounds_fsa does, given a parameter box", {A::bound, A::state, A::parameter, A::s_time},
       {3, 1, 2, 0}, true, nullptr, &BoundsResult::s_rem},
      {"s_hull", "bounds", "the enclosures of S over the box",
       "bounds_fsa does, given a parameter box", {A::bound, A::state, A::parameter, A::s_time},
       {3, 1, 2, 0}, true, nullptr, &BoundsResult::s_hull},
      {"gradient_coef", "bounds", "the coefficients of the models of the objective's gradient",
       bounds_who, {A::monomial, A::parameter}, {1, 0}, true,
       nullptr, &BoundsResult::gradient_coef},
      {"gradient_rem", "bounds", "the remainder intervals of the models of the gradient",
       bounds_who, {A::bound, A::parameter}, {1, 0}, true,
       nullptr, &BoundsResult::gradient_rem},
      {"gradient_hull", "bounds", "the enclosures of the objective's gradient over the box",
       bounds_who, {A::bound, A::parameter}, {1, 0}, true,
       nullptr, &BoundsResult::gradient_hull},
      {"box_mid", "bounds", "the box's centres: p_j = mid_j + rad_j xi_j", bounds_who,
       {A::parameter}, {0}, true,
       nullptr, &BoundsResult::box_mid},
      {"box_rad", "bounds", "the box's radii (0 for a parameter held fixed)", bounds_who,
       {A::parameter}, {0}, true,
       nullptr, &BoundsResult::box_rad},
      {"box_lower", "bounds", "the box's lower bounds as given", bounds_who, {A::parameter}, {0},
       true, nullptr, &BoundsResult::box_lower},
      {"box_upper", "bounds", "the box's upper bounds as given", bounds_who, {A::parameter}, {0},
       true, nullptr, &BoundsResult::box_upper},
  };
}

// The extent of every axis but the objective's, which the array's length
// gives (0 here).
std::size_t fixed_extent(const Result& r, ResultAxis axis) {
  switch (axis) {
    case A::time: return r.times.size();
    case A::s_time: return r.s_times.size();
    case A::state: return r.nx;
    case A::parameter: return r.np;
    case A::direction: return r.ns;
    case A::monomial: return r.bounds.n_monomials;
    case A::bound: return 2;
    case A::objective: return 0;
  }
  return 0;
}

// Fills v.extents and v.strides from r's sizes; see result_array().
void set_extents(const Result& r, ResultArrayView& v) {
  const auto& axes = v.spec->axes;
  std::size_t known = 1;
  for (ResultAxis axis : axes) {
    v.extents.push_back(fixed_extent(r, axis));
    if (axis != A::objective) known *= v.extents.back();
  }
  const std::size_t n = v.data->size();
  for (std::size_t a = 0; a < axes.size(); ++a)
    if (axes[a] == A::objective) v.extents[a] = known == 0 ? 0 : n / known;
  if (n == 0) v.extents.back() = 0;
  std::size_t stride = 1;
  for (std::size_t extent : v.extents) {
    v.strides.push_back(stride);
    stride *= extent;
  }
  if (stride != n)
    throw Error(Status::internal_error,
                "result array '" + std::string(v.spec->name) + "' of method '" + r.method +
                    "' has " + std::to_string(n) + " values where its axes give " +
                    std::to_string(stride));
}

}  // namespace

const char* axis_name(ResultAxis axis) {
  switch (axis) {
    case A::time: return "time";
    case A::s_time: return "s_time";
    case A::state: return "state";
    case A::parameter: return "parameter";
    case A::direction: return "direction";
    case A::objective: return "objective";
    case A::monomial: return "monomial";
    case A::bound: return "bound";
  }
  return "";
}

const std::vector<ResultArraySpec>& result_array_specs() {
  static const std::vector<ResultArraySpec> specs = make_specs();
  return specs;
}

std::size_t result_array_index(const std::string& name) {
  const auto& specs = result_array_specs();
  std::string names;
  for (std::size_t k = 0; k < specs.size(); ++k) {
    if (name == specs[k].name) return k;
    names += (k ? ", " : "") + std::string(specs[k].name);
  }
  throw Error(Status::invalid_argument,
              "no result array is named '" + name + "'; the arrays are " + names);
}

std::vector<double>& ResultArraySpec::storage(Result& r) const {
  return field ? r.*field : r.bounds.*bounds_field;
}

const std::vector<double>& ResultArraySpec::storage(const Result& r) const {
  return field ? r.*field : r.bounds.*bounds_field;
}

std::vector<ResultArrayView::Axis> ResultArrayView::layout() const {
  std::vector<Axis> out;
  for (std::size_t a : spec->layout)
    if (!(spec->axes[a] == A::objective && extents[a] == 1 && spec->axes.size() > 1))
      out.push_back({extents[a], strides[a]});
  return out;
}

ResultArrayView result_array(const Result& r, std::size_t index) {
  const auto& specs = result_array_specs();
  if (index >= specs.size())
    throw Error(Status::invalid_argument, "result array index " + std::to_string(index) +
                                              " is out of range: there are " +
                                              std::to_string(specs.size()) + " arrays");
  ResultArrayView v;
  v.spec = &specs[index];
  v.data = &v.spec->storage(r);
  set_extents(r, v);
  return v;
}

std::vector<ResultArrayView> result_arrays(const Result& r) {
  std::vector<ResultArrayView> out;
  for (std::size_t k = 0; k < result_array_specs().size(); ++k) out.push_back(result_array(r, k));
  return out;
}

}  // namespace odesens
