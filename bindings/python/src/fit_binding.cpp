// Multi-start fits of PEtab problems (odesens/fit.hpp) with the GIL
// released: the starts run on the library's worker pool while other Python
// threads go on. odesens/fit.py wraps the dict returned here.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "errors.hpp"
#include "fit_settings.hpp"
#include "interruptible.hpp"
#include "numpy_arrays.hpp"
#include "petab_settings.hpp"
#include "fit/hop_blocks.hpp"
#include "fit/hops.hpp"
#include "fit/multi_start.hpp"
#include "odesens/fit.hpp"

namespace py = pybind11;

namespace odesens::python {

namespace {

using Problem = std::shared_ptr<PetabProblem>;

// Keys of `fit`: starts, seed, threads, resample_failed, start_points (None:
// a Latin hypercube of `starts` points), hops, hop_starts, hop_sigma,
// hop_flat, hop_blocks, stop_event (run_fit) and those of optimizer_options().
FitOptions fit_options(const py::dict& settings, const py::dict& fit) {
  FitOptions o;
  o.optimizer = optimizer_options(settings, fit);
  auto has = [&](const char* key) { return fit.contains(key) && !fit[key].is_none(); };
  if (has("starts")) o.starts = fit["starts"].cast<std::size_t>();
  if (has("seed")) o.seed = fit["seed"].cast<std::uint64_t>();
  if (has("threads")) o.threads = fit["threads"].cast<unsigned>();
  if (has("resample_failed")) {
    const auto tries = fit["resample_failed"].cast<long long>();
    if (tries < 0)
      throw Error(Status::invalid_argument,
                  "fit: resample_failed must be >= 0, got " + std::to_string(tries));
    o.resample_failed = static_cast<std::size_t>(tries);
  }
  if (has("start_points")) o.start_points = to_rows(fit["start_points"], "start_points");
  // Checked in odesens/petab.py and again by fit() (check_hop_options).
  if (has("hops")) o.hop_rounds = fit["hops"].cast<std::size_t>();
  if (has("hop_starts")) o.hop_starts = fit["hop_starts"].cast<std::size_t>();
  if (has("hop_sigma")) o.hop_sigma = fit["hop_sigma"].cast<double>();
  if (has("hop_flat")) o.hop_flat_from_box = fit["hop_flat"].cast<std::string>() == "box";
  if (has("hop_blocks")) o.hop_blocks = fit["hop_blocks"].cast<bool>();
  return o;
}

// A rows.size() x n array of booleans, row k True at the indices rows[k]
// (StartResult::redrawn).
py::array_t<bool> index_mask(const std::vector<std::vector<std::size_t>>& rows, std::size_t n) {
  py::array_t<bool> mask({static_cast<py::ssize_t>(rows.size()), static_cast<py::ssize_t>(n)});
  auto m = mask.mutable_unchecked<2>();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    for (std::size_t i = 0; i < n; ++i) m(k, i) = false;
    for (std::size_t i : rows[k]) m(k, i) = true;
  }
  return mask;
}

// The starts as columns: one array per field, row k the k-th start of the
// waterfall (sorted by final nlpost, failed starts last).
py::dict fit_to_dict(const FitResult& r, std::size_t n) {
  const std::size_t k = r.starts.size();
  std::vector<double> start, end, nllh, nlpost, gradient_norm, seconds;
  std::vector<std::int64_t> index, round, iterations, evaluations;
  std::vector<std::vector<std::size_t>> redrawn;
  py::list status, exit_reason;
  for (const StartResult& s : r.starts) {
    start.insert(start.end(), s.start.begin(), s.start.end());
    end.insert(end.end(), s.end.begin(), s.end.end());
    nllh.push_back(s.nllh);
    nlpost.push_back(s.nlpost);
    gradient_norm.push_back(s.gradient_norm);
    seconds.push_back(s.seconds);
    index.push_back(static_cast<std::int64_t>(s.index));
    round.push_back(static_cast<std::int64_t>(s.round));
    redrawn.push_back(s.redrawn);
    iterations.push_back(s.iterations);
    evaluations.push_back(s.evaluations);
    status.append(status_name(s.status));
    exit_reason.append(s.exit_reason);
  }
  const auto rows = static_cast<py::ssize_t>(k), cols = static_cast<py::ssize_t>(n);
  py::dict d;
  d["optimizer"] = r.optimizer;
  d["seed"] = r.seed;
  d["starts_planned"] = r.starts_planned;
  d["starts_at_best"] = r.starts_at_best;
  d["stopped"] = r.stopped;
  d["hops"] = r.hop_rounds;
  d["hop_starts"] = r.hop_starts;
  d["hop_sigma"] = r.hop_sigma;
  d["hop_flat"] = r.hop_rounds == 0 ? "" : r.hop_flat_from_box ? "box" : "local";
  d["hop_blocks"] = r.hop_blocks;
  d["hop_block_count"] = r.hop_block_count;
  d["index"] = py::array_t<std::int64_t>(rows, index.data());
  d["round"] = py::array_t<std::int64_t>(rows, round.data());
  d["redrawn"] = index_mask(redrawn, n);
  d["start"] = owned_array(std::move(start), {rows, cols}, {cols, 1});
  d["end"] = owned_array(std::move(end), {rows, cols}, {cols, 1});
  d["nllh"] = owned_vector(std::move(nllh));
  d["nlpost"] = owned_vector(std::move(nlpost));
  d["gradient_norm"] = owned_vector(std::move(gradient_norm));
  d["iterations"] = py::array_t<std::int64_t>(rows, iterations.data());
  d["evaluations"] = py::array_t<std::int64_t>(rows, evaluations.data());
  d["status"] = status;
  d["exit_reason"] = exit_reason;
  d["seconds"] = owned_vector(std::move(seconds));
  d["flat_at_best"] = r.flat_at_best;  // indices; odesens/fit.py names them
  return d;
}

py::dict run_fit(const Problem& problem, const py::dict& settings, const py::dict& fit_args) {
  const FitOptions options = fit_options(settings, fit_args);
  FitResult result;
  // A fit run from a thread other than Python's main one sees no Ctrl-C; its
  // caller's threading.Event stops it instead (odesens/scipy_fit.py).
  const py::object stop_event = fit_args.contains("stop_event") ? py::object(fit_args["stop_event"])
                                                                  : py::object(py::none());
  const bool interrupted = run_interruptibly(
      [&](const std::atomic<bool>* stop) { result = fit(*problem, options, {}, stop); },
      stop_event);
  if (interrupted &&
      PyErr_WarnEx(PyExc_RuntimeWarning,
                   "odesens: fit stopped by KeyboardInterrupt; the starts that ended are "
                   "returned (stopped is True)",
                   1) < 0)
    throw py::error_already_set();
  return fit_to_dict(result, problem->parameter_ids().size());
}

// The starts run_fit draws for `starts` and `seed` (K x n), for fits that
// run elsewhere (odesens/scipy_fit.py) from the same points.
py::array_t<double> drawn_starts(const Problem& problem, std::size_t starts, std::uint64_t seed) {
  std::vector<std::vector<double>> points;
  {
    py::gil_scoped_release unlocked;
    points = draw_starts(*problem, starts, seed);
  }
  const std::size_t n = problem->parameter_ids().size();
  std::vector<double> flat;
  flat.reserve(points.size() * n);
  for (const auto& x : points) flat.insert(flat.end(), x.begin(), x.end());
  const auto rows = static_cast<py::ssize_t>(points.size()), cols = static_cast<py::ssize_t>(n);
  return owned_array(std::move(flat), {rows, cols}, {cols, 1});
}

// The points of hop round `round` around center (fitting::hop_points), for
// fits that run elsewhere (odesens/scipy_fit.py); with flat_from_box, the
// parameters flat at center drawn from the box: `flat` (indices) where
// known, else from an evaluation under `settings` (Problem's); with
// blocks, every second point redraws a block from rank first_rank of the
// blocks' ranking on (block_point_mask: one more evaluation there, which
// nothing ends but its own end). Returns (points, redrawn): count x n
// arrays, redrawn True where a point redraws its block's parameter
// (StartResult::redrawn).
py::tuple hopped_starts(const Problem& problem, const std::vector<double>& center,
                                  double sigma, std::size_t count, std::uint64_t seed,
                                  std::size_t round, const py::dict& settings,
                                  bool flat_from_box,
                                  const std::optional<std::vector<std::size_t>>& flat_known,
                                  bool blocks, std::size_t first_rank) {
  const std::size_t n = problem->parameter_ids().size();
  // hop_sigma is at most 100, and the rounds double it up to 4 times that.
  if (!(sigma >= 1e-6 && sigma <= 400.0))
    throw Error(Status::invalid_argument, "hop_points: sigma must be from 1e-6 to 400");
  fitting::check_start_count(count, n);
  if (center.size() != n)
    throw Error(Status::invalid_argument, "hop_points: the center has " +
                                              std::to_string(center.size()) + " values, not " +
                                              std::to_string(n));
  fitting::HopDraw draw;
  draw.center = center;
  draw.sigma = sigma;
  draw.round = round;
  if (flat_from_box && flat_known) {
    for (std::size_t i : *flat_known)
      if (i >= n) throw Error(Status::invalid_argument, "hop_points: a flat index is out of range");
    draw.flat = fitting::flat_mask(*flat_known, n);
  } else if (flat_from_box) {
    const PetabOptions evaluation = petab_options(settings);
    py::gil_scoped_release unlocked;  // an evaluation with its gradient
    const auto flat = fitting::flat_parameters(*problem, evaluation, center);
    draw.flat = fitting::flat_mask(flat.value_or(std::vector<std::size_t>{}), n);
  }
  if (blocks) {
    const PetabOptions evaluation = petab_options(settings);
    py::gil_scoped_release unlocked;  // an evaluation of the residuals
    draw.blocks = fitting::block_point_mask(*problem, evaluation, center, count, first_rank);
  }
  const auto points = fitting::hop_points(*problem, draw, count, seed);
  std::vector<double> flat;
  flat.reserve(points.size() * n);
  for (const auto& x : points) flat.insert(flat.end(), x.begin(), x.end());
  const auto rows = static_cast<py::ssize_t>(points.size()), cols = static_cast<py::ssize_t>(n);
  std::vector<std::vector<std::size_t>> redrawn;
  for (std::size_t k = 0; k < points.size(); ++k)
    redrawn.push_back(fitting::redrawn_parameters(draw, k));
  return py::make_tuple(owned_array(std::move(flat), {rows, cols}, {cols, 1}),
                        index_mask(redrawn, n));
}

}  // namespace

void register_fit(py::module_& m) {
  m.def("fit", &run_fit, py::arg("problem"), py::arg("settings"), py::arg("fit"));
  m.def("draw_starts", &drawn_starts, py::arg("problem"), py::arg("starts"), py::arg("seed"));
  m.def("hop_points", &hopped_starts, py::arg("problem"), py::arg("center"), py::arg("sigma"),
        py::arg("count"), py::arg("seed"), py::arg("round"), py::arg("settings"),
        py::arg("flat_from_box"), py::arg("flat") = py::none(), py::arg("blocks") = false,
        py::arg("first_rank") = 0);
  m.def("found_new_optimum", &fitting::found_new_optimum, py::arg("best_before"),
        py::arg("best_after"));
  // fitting::parameter_blocks: the estimated parameters' blocks (indices).
  m.def(
      "parameter_blocks",
      [](const Problem& problem, bool hierarchical) {
        return fitting::parameter_blocks(*problem, hierarchical);
      },
      py::arg("problem"), py::arg("hierarchical") = false);
  // StartResult::flat of a start that ended at x with this gradient.
  m.def(
      "flat_entries",
      [](const Problem& problem, const py::dict& settings, const std::vector<double>& x,
         const std::vector<double>& gradient) {
        return fitting::flat_entries(*problem, petab_options(settings), x, gradient);
      },
      py::arg("problem"), py::arg("settings"), py::arg("x"), py::arg("gradient"));
  m.def(
      "check_initialization_priors",
      [](const Problem& problem) { fitting::check_initialization_priors(*problem); },
      py::arg("problem"));
  m.def(
      "check_start_count",
      [](const Problem& problem, std::size_t starts) {
        fitting::check_start_count(starts, problem->parameter_ids().size());
      },
      py::arg("problem"), py::arg("starts"));
  m.def("next_hop_sigma", &fitting::next_hop_sigma, py::arg("sigma"), py::arg("hop_sigma"),
        py::arg("best_before"), py::arg("best_after"));
}

}  // namespace odesens::python
