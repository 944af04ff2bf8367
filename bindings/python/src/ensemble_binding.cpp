// Ensembles: one problem for the rows of a parameter matrix, on the
// library's worker pool with the GIL released.
#include <string>
#include <utility>

#include "bindings.hpp"
#include "errors.hpp"
#include "interruptible.hpp"
#include "numpy_arrays.hpp"
#include "problem_settings.hpp"
#include "result_binding.hpp"
#include "odesens/ensemble.hpp"

namespace py = pybind11;

namespace odesens::python {

namespace {

// (one (status name, message, code, result dict or None) per row of P,
// whether Ctrl-C stopped it): a stopped ensemble's members not begun have
// status interrupted.
py::tuple ensemble(const std::shared_ptr<Model>& model, const std::string& method,
                   const py::dict& settings, const py::handle& P, unsigned threads) {
  const Problem problem = make_problem(model, settings);
  const auto sets = to_rows(P, "P");
  EnsembleOptions options;
  options.threads = threads;
  std::vector<EnsembleMember> members;
  const bool interrupted = run_interruptibly([&](const std::atomic<bool>* stop) {
    options.cancel = stop;
    members = solve_ensemble(problem, method, sets, options);
  });
  py::list out;
  for (auto& member : members) {
    if (!member.ran) {
      member.status = Status::interrupted;
      member.message = "not solved: the ensemble was stopped (KeyboardInterrupt) before it";
    }
    py::object result = py::none();
    if (member.status == Status::ok) result = result_to_dict(std::move(member.result));
    out.append(py::make_tuple(status_name(member.status), member.message,
                              static_cast<int>(member.status), result));
  }
  return py::make_tuple(out, interrupted);
}

}  // namespace

void register_ensembles(py::module_& m) {
  m.def("solve_ensemble", &ensemble, py::arg("model"), py::arg("method"), py::arg("settings"),
        py::arg("P"), py::arg("threads"));
}

}  // namespace odesens::python
