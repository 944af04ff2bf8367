// libFuzzer target for the .ode parser and everything a parsed model goes
// through: symbolic first (and, for small models, second) derivatives, tape
// compilation and evaluation at x0 with every lane width the CPU has.
// Malformed text must end in Error(parse_error); anything else that escapes
// (another exception, a crash, a sanitizer report) is a finding.
//
// Build and run: tests/fuzz/run_fuzz.sh [seconds]
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "expr/derivatives.hpp"
#include "expr/lane_kernels.hpp"
#include "sources/ode/ode_parser.hpp"
#include "expr/tape.hpp"
#include "expr/tape_evaluate.hpp"
#include "odesens/status.hpp"

namespace {

using namespace odesens::expr;

void exercise(SymbolicModel& m) {
  const std::size_t nx = m.state_names.size(), np = m.param_names.size();
  const FirstDerivatives d = first_derivatives(m);
  const Tape x0 = compile_tape(m.graph, m.x0, nx, np, TapeKind::values);
  const Tape f = compile_tape(m.graph, m.rhs, nx, np, TapeKind::values);
  const Tape f_adj = compile_tape(m.graph, m.rhs, nx, np, TapeKind::adjoint);
  const Tape jx = compile_tape(m.graph, d.jac_x.values, nx, np, TapeKind::values);
  const Tape jp = compile_tape(m.graph, d.jac_p.values, nx, np, TapeKind::values);
  std::vector<double> x(nx), out(nx), J(d.jac_x.values.size()), Jp(d.jac_p.values.size());
  const std::vector<double>& p = m.nominal_params;
  Registers regs;
  evaluate(x0, regs, Slot::x0, 0.0, nullptr, p.data(), x.data());
  evaluate(f, regs, Slot::rhs, m.t0, x.data(), p.data(), out.data());
  evaluate(jx, regs, Slot::jac_x, m.t0, x.data(), p.data(), J.data());
  evaluate(jp, regs, Slot::jac_p, m.t0, x.data(), p.data(), Jp.data());
  std::vector<double> V(nx * 3, 1.0), JV(nx * 3), WX(nx * 3), WP(np * 3 + 1);
  for (int width : {1, 4, 8}) {
    const LaneKernels* k = lane_kernels(width);
    if (!k) continue;
    evaluate_tangents(f_adj, *k, regs, m.t0, x.data(), p.data(), 3, V.data(), nullptr, JV.data());
    evaluate_adjoints(f_adj, *k, regs, m.t0, x.data(), p.data(), 3, V.data(), WX.data(), WP.data());
    std::vector<double> ts(3, m.t0), X(nx * 3), P(np * 3 + 1), F(nx * 3);
    for (std::size_t i = 0; i < X.size(); ++i) X[i] = x[i % nx];
    for (std::size_t j = 0; j < np * 3; ++j) P[j] = p[j % np];
    evaluate_points(f, *k, regs, 3, ts.data(), X.data(), P.data(), F.data());
  }
  if (nx <= 12 && m.graph.size() < 4000) {
    const SecondDerivatives s = second_derivatives(m, d);
    const Tape xdd = compile_tape(m.graph, s.xddot_jac_x.values, nx, np, TapeKind::values);
    std::vector<double> JJ(s.xddot_jac_x.values.size());
    evaluate(xdd, regs, Slot::xddot_jac_x, m.t0, x.data(), p.data(), JJ.data());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    SymbolicModel m = parse_ode(text, "fuzz.ode");
    exercise(m);
  } catch (const odesens::Error& e) {
    if (e.status() != odesens::Status::parse_error && e.status() != odesens::Status::unsupported)
      std::abort();
  }
  return 0;
}
