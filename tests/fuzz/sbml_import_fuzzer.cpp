// libFuzzer target for the SBML importer: text through libsbml, the
// importer's checks and symbol tables, and the ExprModel built from it
// (symbolic derivatives, tapes, native code), then one evaluation of x0,
// f, J_x and J_p at x0 so that a tape that was compiled wrong shows.
// Malformed or unsupported SBML must end in Error(parse_error) or
// Error(unsupported); anything else that escapes (another status, another
// exception, a crash, a sanitizer report) is a finding.
//
// Build and run: tests/fuzz/run_fuzz_lib.sh [seconds] (CMake option
// ODESENS_FUZZ, build-fuzz-lib/); seeds: tests/fuzz/corpus_sbml and the
// SBML files of ../shared.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "odesens/sbml_model.hpp"
#include "odesens/status.hpp"

namespace {

void exercise(const odesens::ExprModel& m) {
  const std::size_t nx = m.nx(), np = m.np();
  const std::vector<double> p = m.nominal_params();
  std::vector<double> x(nx), f(nx), jx(nx * nx), jp(nx * np), dx0(nx * np);
  const double t0 = m.default_t0();
  m.initial_state(p.data(), x.data());
  m.initial_sensitivity(p.data(), dx0.data());
  m.rhs(t0, x.data(), p.data(), f.data());
  // Dense J_x only while small: a large fuzzed model would spend the run
  // on nx^2 entries that say nothing new.
  if (nx <= 64) m.jac_x(t0, x.data(), p.data(), jx.data());
  m.jac_p(t0, x.data(), p.data(), jp.data());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    exercise(*odesens::load_sbml_text(text, "fuzz.xml"));
  } catch (const odesens::Error& e) {
    switch (e.status()) {
      case odesens::Status::parse_error:
      case odesens::Status::unsupported:
        break;
      default:
        std::abort();
    }
  }
  return 0;
}
