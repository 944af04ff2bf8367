// A PEtab evaluation as an HDF5 document (PetabProblem::write_h5; the
// layout is in docs/petab.md, "HDF5 output").
#include <unistd.h>

#include <cstdint>

#include "io/h5_document.hpp"
#include "io/partial_file.hpp"
#include "odesens/petab.hpp"
#include "odesens/status.hpp"
#include "odesens/version.hpp"
#include "sources/petab/petab_problem.hpp"

namespace odesens {
namespace {

// The measurement table's columns that say where each value belongs.
void write_measurements(io::H5Document& d, const petab::Definition& def) {
  std::vector<std::string> observable, pre, sim;
  std::vector<double> time, value;
  for (const petab::MeasurementRow& m : def.tables.measurements) {
    observable.push_back(m.observable_id);
    pre.push_back(m.preequilibration_condition);
    sim.push_back(m.simulation_condition);
    time.push_back(m.time);
    value.push_back(m.measurement);
  }
  d.texts("observable_id", observable);
  d.texts("preequilibration_condition_id", pre);
  d.texts("simulation_condition_id", sim);
  d.doubles("time", time);
  d.doubles("measurement", value);
}

void write_stats(io::H5Document& d, const Stats& s) {
  d.attribute("steps", static_cast<std::int64_t>(s.steps));
  d.attribute("rhs_evals", static_cast<std::int64_t>(s.rhs_evals));
  d.attribute("jac_evals", static_cast<std::int64_t>(s.jac_evals));
  d.attribute("wall_seconds", s.wall_seconds);
}

}  // namespace

void PetabProblem::write_h5(const PetabResult& r, const std::vector<double>& x,
                            const std::string& path) const {
  const std::size_t n = ids_.size();
  if (r.simulations.size() != def_->measurements.size() || r.parameter_ids != ids_)
    throw Error(Status::invalid_argument, "PEtab HDF5 output: the result is not one of this problem");
  if (x.size() != n)
    throw Error(Status::invalid_argument, "PEtab HDF5 output: " + std::to_string(x.size()) +
                                              " parameter values given, the problem estimates " +
                                              std::to_string(n));
  io::PartialFile target(path, "path");
  io::QuietHdf5Errors quiet;
  try {
    io::H5Document d(target.partial());
    d.attribute("problem", file());
    d.attribute("method", r.method);
    d.attribute("odesens_version", std::string(ODESENS_VERSION_STRING));
    d.attribute("llh", r.llh);
    d.attribute("nllh", r.nllh);
    d.attribute("chi2", r.chi2);
    d.attribute("log_prior", r.log_prior);
    d.attribute("nlpost", r.nlpost);
    d.attribute("has_priors", static_cast<std::int64_t>(r.has_priors));
    d.attribute("n_experiments", static_cast<std::int64_t>(r.n_experiments));
    write_stats(d, r.stats);
    d.texts("parameter_ids", ids_);
    d.texts("parameter_scales", scales_);
    d.doubles("x", x);
    if (!r.gradient.empty()) d.doubles("gradient", r.gradient);
    if (!r.fim.empty()) d.doubles("fim", r.fim, n);
    write_measurements(d, *def_);
    d.doubles("simulation", r.simulations);
    d.doubles("sigma", r.sigmas);
    d.doubles("residual", r.residuals);
    d.texts("warnings", r.warnings);
    d.close();
    target.rename_over_path();
  } catch (...) {
    ::unlink(target.partial().c_str());
    throw;
  }
}

}  // namespace odesens
