#include "errors.hpp"

#include <exception>

#include "bindings.hpp"

namespace py = pybind11;

namespace odesens::python {

const char* status_name(Status status) noexcept {
  switch (status) {
    case Status::ok: return "ok";
    case Status::invalid_argument: return "invalid_argument";
    case Status::unknown_method: return "unknown_method";
    case Status::unknown_option: return "unknown_option";
    case Status::option_type: return "option_type";
    case Status::callback_failed: return "callback_failed";
    case Status::too_much_work: return "too_much_work";
    case Status::solver_failed: return "solver_failed";
    case Status::not_finite: return "not_finite";
    case Status::unknown_model: return "unknown_model";
    case Status::parse_error: return "parse_error";
    case Status::unsupported: return "unsupported";
    case Status::buffer_too_small: return "buffer_too_small";
    case Status::null_handle: return "null_handle";
    case Status::io_error: return "io_error";
    case Status::out_of_memory: return "out_of_memory";
    case Status::unbounded: return "unbounded";
    case Status::stiff: return "stiff";
    case Status::interrupted: return "interrupted";
    case Status::internal_error: return "internal_error";
  }
  return "internal_error";
}

// The Python class lives in odesens._errors so that the pure-Python layer
// raises and catches the same type; it is looked up when an error happens
// (the package is then imported already).
void register_errors(py::module_& m) {
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const Error& e) {
      py::object type = py::module_::import("odesens._errors").attr("Error");
      py::object value = type(status_name(e.status()), e.what(), static_cast<int>(e.status()));
      PyErr_SetObject(type.ptr(), value.ptr());
    }
  });
  m.def("status_name", [](int code) { return status_name(static_cast<Status>(code)); },
        "The name of a status code.");
}

}  // namespace odesens::python
