// Solves: one-off (odesens.solve) and prepared sessions (Model.solver).
// The GIL is released for the whole computation, so Python threads solve
// in parallel; everything Python is read before and built after.
#include <chrono>
#include <functional>
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
#include "odesens/status.hpp"

namespace py = pybind11;

namespace odesens::python {

namespace {

// Ctrl-C during a solve. The methods that ask Problem::interrupt (those on
// CVODES, and odesd) call it on the solving thread, which holds no GIL: at
// most every 50 ms it takes the GIL for Python's signal check alone. A
// handler that raised (KeyboardInterrupt) ends the solve, and the caller
// gets that exception, not a result (the other methods run to their end
// first). Python sees signals on its main thread only.
class SignalWatch {
 public:
  std::function<bool()> interrupt() {
    return [this] { return asked(); };
  }
  // After the solve (GIL held): the KeyboardInterrupt, where one was raised.
  void raise_if_raised() const {
    if (raised_) throw py::error_already_set();
  }

 private:
  bool asked() {
    if (raised_) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(50)) return false;
    last_ = now;
    py::gil_scoped_acquire gil;
    raised_ = PyErr_CheckSignals() != 0;  // the exception stays set for the caller
    return raised_;
  }

  bool raised_ = false;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// `run` (GIL released) with the watch's interrupt; the KeyboardInterrupt
// where one was raised, also when the solve ended with Error(interrupted).
template <class Run>
Result watched(SignalWatch& watch, Run&& run) {
  Result result;
  try {
    py::gil_scoped_release unlocked;
    result = run();
  } catch (const Error& e) {
    if (e.status() == Status::interrupted) watch.raise_if_raised();
    throw;
  }
  watch.raise_if_raised();
  return result;
}

py::dict solve_once(const std::shared_ptr<Model>& model, const std::string& method,
                    const py::dict& settings) {
  Problem problem = make_problem(model, settings);
  SignalWatch watch;
  problem.interrupt = watch.interrupt();
  Result result = watched(watch, [&] { return solve(problem, method); });
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
    SignalWatch watch;
    inputs.interrupt = watch.interrupt();
    Result result = watched(watch, [&] {
      std::lock_guard<std::mutex> lock(mutex_);
      return session_->run(inputs);
    });
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
