// The HDF5 document of a fit (fit_h5.hpp), written at once when the fit
// ends: its rows are few (one a start) and are all known then.
#include "fit/fit_h5.hpp"

#include <hdf5.h>
#include <unistd.h>

#include <cstdint>

#include "io/h5_document.hpp"
#include "io/partial_file.hpp"
#include "odesens/version.hpp"

namespace odesens::fitting {
namespace {

using io::H5Document;

void write_rows(H5Document& d, const FitResult& fit, std::size_t n) {
  std::vector<double> start, end, nllh, nlpost, gradient, seconds;
  std::vector<std::int64_t> iterations, evaluations, index, round;
  std::vector<std::int32_t> status, redrawn(fit.starts.size() * n, 0);
  std::vector<std::string> reasons;
  for (std::size_t k = 0; k < fit.starts.size(); ++k)
    for (std::size_t i : fit.starts[k].redrawn) redrawn.at(k * n + i) = 1;
  for (const StartResult& s : fit.starts) {
    start.insert(start.end(), s.start.begin(), s.start.end());
    end.insert(end.end(), s.end.begin(), s.end.end());
    nllh.push_back(s.nllh);
    nlpost.push_back(s.nlpost);
    gradient.push_back(s.gradient_norm);
    seconds.push_back(s.seconds);
    iterations.push_back(s.iterations);
    evaluations.push_back(s.evaluations);
    index.push_back(static_cast<std::int64_t>(s.index));
    round.push_back(static_cast<std::int64_t>(s.round));
    status.push_back(static_cast<std::int32_t>(s.status));
    reasons.push_back(s.exit_reason);
  }
  const std::size_t k = fit.starts.size();
  d.numbers("start", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, k, n, start.data());
  d.numbers("end", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, k, n, end.data());
  d.doubles("nllh", nllh);
  d.doubles("nlpost", nlpost);
  d.doubles("gradient_norm", gradient);
  d.doubles("seconds", seconds);
  d.int64s("iterations", iterations);
  d.int64s("evaluations", evaluations);
  d.int64s("start_index", index);
  d.int64s("round", round);
  d.numbers("redrawn", H5T_STD_I32LE, H5T_NATIVE_INT32, k, n, redrawn.data());
  d.int32s("status", status);
  d.texts("exit_reason", reasons);
}

}  // namespace

void write_fit_h5(const std::string& path, const PetabProblem& problem, const FitResult& fit,
                  const std::string& path_label) {
  io::PartialFile target(path, path_label);
  io::QuietHdf5Errors quiet;
  try {
    H5Document d(target.partial());
    d.attribute("problem", problem.file());
    d.attribute("optimizer", fit.optimizer);
    d.attribute("odesens_version", std::string(ODESENS_VERSION_STRING));
    d.attribute("seed", static_cast<std::int64_t>(fit.seed));
    d.attribute("starts_planned", static_cast<std::int64_t>(fit.starts_planned));
    d.attribute("starts_at_best", static_cast<std::int64_t>(fit.starts_at_best));
    d.attribute("stopped", static_cast<std::int64_t>(fit.stopped));
    d.attribute("hop_rounds", static_cast<std::int64_t>(fit.hop_rounds));
    d.attribute("hop_starts", static_cast<std::int64_t>(fit.hop_starts));
    d.attribute("hop_sigma", fit.hop_sigma);
    d.attribute("hop_flat_from_box", static_cast<std::int64_t>(fit.hop_flat_from_box));
    d.attribute("hop_blocks", static_cast<std::int64_t>(fit.hop_blocks));
    d.attribute("hop_block_count", static_cast<std::int64_t>(fit.hop_block_count));
    write_rows(d, fit, problem.parameter_ids().size());
    d.texts("parameter_ids", problem.parameter_ids());
    d.texts("parameter_scales", problem.parameter_scales());
    d.doubles("lower", problem.lower_scaled());
    d.doubles("upper", problem.upper_scaled());
    std::vector<std::int32_t> flat(problem.parameter_ids().size(), 0);
    for (std::size_t i : fit.flat_at_best) flat.at(i) = 1;
    d.int32s("flat_at_best", flat);
    d.close();
    target.rename_over_path();
  } catch (...) {
    ::unlink(target.partial().c_str());
    throw;
  }
}

}  // namespace odesens::fitting
