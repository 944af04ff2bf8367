// Solves: one-off (odesens.solve) and prepared sessions (Model.solver).
// The GIL is released for the whole computation, so Python threads solve
// in parallel; everything Python is read before and built after.
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "bindings.hpp"
#include "numpy_arrays.hpp"
#include "problem_settings.hpp"
#include "result_binding.hpp"
#include "odesens/methods.hpp"
#include "odesens/session.hpp"

namespace py = pybind11;

namespace odesens::python {

namespace {

py::dict solve_once(const std::shared_ptr<Model>& model, const std::string& method,
                    const py::dict& settings) {
  const Problem problem = make_problem(model, settings);
  Result result;
  {
    py::gil_scoped_release unlocked;
    result = solve(problem, method);
  }
  return result_to_dict(std::move(result));
}

// A prepared method. A MethodSession is used by one thread at a time: the
// lock makes two Python threads sharing one solver take turns instead of
// racing (it is taken without the GIL, so the waiting thread blocks no one).
class Session {
 public:
  Session(const std::shared_ptr<Model>& model, const std::string& method,
          const py::dict& settings) {
    const Problem problem = make_problem(model, settings);
    py::gil_scoped_release unlocked;
    session_ = prepare(problem, method);
  }

  py::dict run(const py::object& p, const py::object& x0, const py::object& t) {
    RunInputs inputs;
    if (!p.is_none()) inputs.params = to_vector(p, "p");
    if (!x0.is_none()) inputs.initial_state = to_vector(x0, "x0");
    if (!t.is_none()) inputs.output_times = to_vector(t, "t");
    Result result;
    {
      py::gil_scoped_release unlocked;
      std::lock_guard<std::mutex> lock(mutex_);
      result = session_->run(inputs);
    }
    return result_to_dict(std::move(result));
  }

  // Under the lock: auto's session changes its method between runs.
  std::string method() {
    py::gil_scoped_release unlocked;
    std::lock_guard<std::mutex> lock(mutex_);
    return session_->method().id;
  }
  double rtol() {
    py::gil_scoped_release unlocked;
    std::lock_guard<std::mutex> lock(mutex_);
    return session_->problem().rtol.value_or(0.0);
  }

 private:
  std::unique_ptr<MethodSession> session_;
  std::mutex mutex_;
};

}  // namespace

void register_solves(py::module_& m) {
  m.def("solve", &solve_once, py::arg("model"), py::arg("method"), py::arg("settings"));
  py::class_<Session>(m, "Session", "A method prepared on a problem (see odesens.Solver).")
      .def(py::init<const std::shared_ptr<Model>&, const std::string&, const py::dict&>(),
           py::arg("model"), py::arg("method"), py::arg("settings"))
      .def("run", &Session::run, py::arg("p") = py::none(), py::arg("x0") = py::none(),
           py::arg("t") = py::none())
      .def_property_readonly("method", &Session::method)
      .def_property_readonly("rtol", &Session::rtol);
}

}  // namespace odesens::python
