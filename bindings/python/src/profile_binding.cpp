// Profile likelihoods of PEtab problems (odesens/profile.hpp) with the GIL
// released. odesens/fit.py turns each dict returned here into a Profile.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "fit_settings.hpp"
#include "interruptible.hpp"
#include "numpy_arrays.hpp"
#include "odesens/profile.hpp"

namespace py = pybind11;

namespace odesens::python {

namespace {

using Problem = std::shared_ptr<PetabProblem>;

// Keys of `args`: parameters (indices; None: every estimated parameter),
// confidence, threads, max_points and those of optimizer_options().
ProfileOptions profile_options(const py::dict& settings, const py::dict& args) {
  ProfileOptions o;
  o.optimizer = optimizer_options(settings, args);
  auto has = [&](const char* key) { return args.contains(key) && !args[key].is_none(); };
  if (has("parameters")) o.parameters = args["parameters"].cast<std::vector<std::size_t>>();
  if (has("confidence")) o.confidence = args["confidence"].cast<double>();
  if (has("threads")) o.threads = args["threads"].cast<unsigned>();
  if (has("max_points")) o.max_points = args["max_points"].cast<std::size_t>();
  return o;
}

py::dict profile_to_dict(const Profile& p, std::size_t n) {
  std::vector<double> values, nlpost, x;
  py::list exit_reason;
  for (const ProfilePoint& q : p.points) {
    values.push_back(q.value);
    nlpost.push_back(q.nlpost);
    x.insert(x.end(), q.x.begin(), q.x.end());
    exit_reason.append(q.exit_reason);
  }
  const auto rows = static_cast<py::ssize_t>(p.points.size());
  const auto cols = static_cast<py::ssize_t>(n);
  py::dict d;
  d["parameter"] = p.parameter;
  d["id"] = p.id;
  d["threshold"] = p.threshold;
  d["start"] = p.start;
  d["best_nlpost"] = p.best_nlpost;
  d["lower"] = p.lower;
  d["upper"] = p.upper;
  d["lower_end"] = profile_end_name(p.lower_end);
  d["upper_end"] = profile_end_name(p.upper_end);
  d["lower_failure"] = p.lower_failure;
  d["upper_failure"] = p.upper_failure;
  d["found_better"] = p.found_better;
  d["values"] = owned_vector(std::move(values));
  d["nlpost"] = owned_vector(std::move(nlpost));
  d["x"] = owned_array(std::move(x), {rows, cols}, {cols, 1});
  d["exit_reason"] = exit_reason;
  return d;
}

py::list run_profile(const Problem& problem, const py::handle& point, const py::dict& settings,
                     const py::dict& args) {
  const std::vector<double> best = to_vector(point, "point");
  const ProfileOptions options = profile_options(settings, args);
  std::vector<Profile> profiles;
  const bool interrupted = run_interruptibly([&](const std::atomic<bool>* stop) {
    profiles = profile(*problem, best, options, {}, stop);
  });
  if (interrupted &&
      PyErr_WarnEx(PyExc_RuntimeWarning,
                   "odesens: profiles stopped by KeyboardInterrupt; the points traced are "
                   "returned, the sides stopped are open",
                   1) < 0)
    throw py::error_already_set();
  py::list out;
  for (const Profile& p : profiles)
    out.append(profile_to_dict(p, problem->parameter_ids().size()));
  return out;
}

}  // namespace

void register_profile(py::module_& m) {
  m.def("profile", &run_profile, py::arg("problem"), py::arg("point"), py::arg("settings"),
        py::arg("profile"));
}

}  // namespace odesens::python
