// Ensembles: one problem for the rows of a parameter matrix, on the
// library's worker pool with the GIL released.
#include <string>
#include <utility>

#include "bindings.hpp"
#include "errors.hpp"
#include "numpy_arrays.hpp"
#include "problem_settings.hpp"
#include "result_binding.hpp"
#include "odesens/ensemble.hpp"

namespace py = pybind11;

namespace odesens::python {

namespace {

// One (status name, message, result dict or None) per row of P.
py::list ensemble(const std::shared_ptr<Model>& model, const std::string& method,
                  const py::dict& settings, const py::handle& P, unsigned threads) {
  const Problem problem = make_problem(model, settings);
  const auto sets = to_rows(P, "P");
  EnsembleOptions options;
  options.threads = threads;
  std::vector<EnsembleMember> members;
  {
    py::gil_scoped_release unlocked;
    members = solve_ensemble(problem, method, sets, options);
  }
  py::list out;
  for (auto& member : members) {
    py::object result = py::none();
    if (member.status == Status::ok) result = result_to_dict(std::move(member.result));
    out.append(py::make_tuple(status_name(member.status), member.message,
                              static_cast<int>(member.status), result));
  }
  return out;
}

}  // namespace

void register_ensembles(py::module_& m) {
  m.def("solve_ensemble", &ensemble, py::arg("model"), py::arg("method"), py::arg("settings"),
        py::arg("P"), py::arg("threads"));
}

}  // namespace odesens::python
