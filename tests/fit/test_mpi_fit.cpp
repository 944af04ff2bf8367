// The multi-start fit over MPI (run as `mpirun -np 2 test_mpi_fit`): rank
// 0's starts equal the threaded fit()'s bit for bit (points, values,
// iterations, evaluations, exit reasons), including starts whose
// simulation fails, whatever rank ran them; progress runs on rank 0 once
// per start; start points drawn again where they cannot be simulated are
// the same, and so are hop rounds; a stop flag set before the fit runs no start; a refused fit
// throws on every rank. A plain program: ctest reads its exit status.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "estimate/block_petab_problem.hpp"
#include "estimate/synthetic_petab_problem.hpp"
#include "fit/mpi_fit.hpp"
#include "odesens/fit.hpp"
#include "odesens/petab.hpp"
#include "support/mpi_checks.hpp"

namespace {

odesens::test::MpiChecks checks("test_mpi_fit");

void check(bool ok, const std::string& what) { checks.check(ok, what); }

// Equal, NaN equal to NaN (failed starts).
bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

void compare(const odesens::FitResult& mpi, const odesens::FitResult& threads,
             const std::string& what) {
  check(mpi.starts.size() == threads.starts.size(), what + ": start count");
  check(mpi.optimizer == threads.optimizer, what + ": optimizer");
  check(mpi.starts_at_best == threads.starts_at_best, what + ": starts at best");
  check(mpi.starts_planned == threads.starts_planned, what + ": starts planned");
  check(mpi.flat_at_best == threads.flat_at_best, what + ": flat at best");
  check(mpi.hop_flat_from_box == threads.hop_flat_from_box, what + ": hop flat from box");
  check(mpi.hop_blocks == threads.hop_blocks && mpi.hop_block_count == threads.hop_block_count,
        what + ": hop blocks");
  for (std::size_t k = 0; k < mpi.starts.size() && k < threads.starts.size(); ++k) {
    const odesens::StartResult& a = mpi.starts[k];
    const odesens::StartResult& b = threads.starts[k];
    const std::string row = what + ": row " + std::to_string(k);
    check(a.index == b.index && a.round == b.round, row + " index and round");
    check(a.start == b.start, row + " start");
    check(a.end.size() == b.end.size(), row + " end size");
    for (std::size_t i = 0; i < a.end.size() && i < b.end.size(); ++i)
      check(same(a.end[i], b.end[i]), row + " end");
    check(same(a.nllh, b.nllh) && same(a.nlpost, b.nlpost), row + " values");
    check(same(a.gradient_norm, b.gradient_norm), row + " gradient norm");
    check(a.iterations == b.iterations && a.evaluations == b.evaluations, row + " counts");
    check(a.status == b.status, row + " status");
    check(a.exit_reason == b.exit_reason, row + " exit reason: " + a.exit_reason);
    check(a.flat == b.flat && a.flat_known == b.flat_known, row + " flat parameters");
    check(a.redrawn == b.redrawn, row + " redrawn block");
  }
}

// The MPI fit of the problem at yaml against the threaded one.
void fit_both_ways(int rank, int provided, const std::string& yaml, const std::string& what,
                   std::size_t resample_failed = 0, std::size_t hop_rounds = 0,
                   const std::vector<std::vector<double>>& start_points = {},
                   bool hops_drawn_again = false, double hop_sigma = 0.5) {
  auto problem = odesens::PetabProblem::load(yaml);
  odesens::FitOptions options;
  options.starts = 8;
  options.seed = 3;
  options.threads = 2;
  options.resample_failed = resample_failed;
  options.hop_rounds = hop_rounds;
  options.hop_starts = 3;
  options.hop_sigma = hop_sigma;
  options.start_points = start_points;
  const std::size_t planned = (start_points.empty() ? 8 : start_points.size()) + 3 * hop_rounds;
  std::size_t calls = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const odesens::FitResult mpi = odesens::fitting::fit_mpi(
      MPI_COMM_WORLD, provided, *problem, options,
      [&](std::size_t done, std::size_t total, double) {
        ++calls;
        check(done == calls && total == planned, what + ": progress counts");
      });
  if (rank != 0) {
    check(mpi.starts.empty() && calls == 0, what + ": rank " + std::to_string(rank) +
                                                " returns nothing and reports no progress");
    return;
  }
  check(calls == planned, what + ": progress once per start");
  compare(mpi, odesens::fit(*problem, options), what);
  if (hops_drawn_again) {
    bool redrawn = false;  // the case exercises the redraws of hop points
    for (const odesens::StartResult& s : mpi.starts)
      redrawn = redrawn || (s.round > 0 && s.exit_reason.find("drawn again") != std::string::npos);
    check(redrawn, what + ": a hop point was drawn again");
  }
}

// The same on SyntheticProblem(shape).
void fit_both_ways(int rank, int provided, const odesens::test::SyntheticOptions& shape,
                   const std::string& what, std::size_t resample_failed = 0,
                   std::size_t hop_rounds = 0,
                   const std::vector<std::vector<double>>& start_points = {},
                   bool hops_drawn_again = false) {
  odesens::test::SyntheticProblem files(shape);
  fit_both_ways(rank, provided, files.yaml(), what, resample_failed, hop_rounds, start_points,
                hops_drawn_again);
}

}  // namespace

int main(int argc, char** argv) {
  return checks.run(argc, argv, [](int rank, int provided) {
    fit_both_ways(rank, provided, odesens::test::SyntheticOptions{}, "decay");
    odesens::test::SyntheticOptions blow_up;
    blow_up.blow_up = true;  // starts with k1 > 1/6 cannot be simulated
    fit_both_ways(rank, provided, blow_up, "blow-up");
    // Failed start points drawn again: the same draws on whatever rank.
    fit_both_ways(rank, provided, blow_up, "blow-up, drawn again", 10);
    // Hops: every rank draws each round around rank 0's best point.
    fit_both_ways(rank, provided, odesens::test::SyntheticOptions{}, "decay, hops", 0, 3);
    fit_both_ways(rank, provided, blow_up, "blow-up, hops", 0, 2);
    fit_both_ways(rank, provided, blow_up, "blow-up, hops drawn again", 10, 2);
    // Starts past the data: k1 and lag flat at the best, drawn from the box
    // by rank 0 and sent with the round.
    odesens::test::SyntheticOptions lagged;
    lagged.lag = true;
    fit_both_ways(rank, provided, lagged, "lag, hops with flat parameters", 0, 3,
                  {{0.0, 1.0, 20.0}, {0.5, 1.5, 12.0}});
    // Hop points that blow up (lag before 6 and k1 large) are drawn again on
    // the rank that runs them, with rank 0's flat parameters from the box.
    lagged.blow_up = true;
    lagged.lag_upper = 8.0;
    lagged.initial_a = 10.0;  // blows up at t = lag + 1 / (10 k1)
    fit_both_ways(rank, provided, lagged, "blow-up with lag, hops drawn again", 10, 3,
                  {{0.5, 1.0, 7.0}, {0.8, 1.5, 7.5}}, true);
    // Blocks (BlockProblem): rank 0 chooses each hop point's block and sends
    // it with the round; a block point with w above 3 cannot be evaluated
    // and is drawn again, in its block, on the rank that runs it (sigma
    // 1e-6: the other points stay where they can be).
    odesens::test::BlockProblem blocks(true);
    fit_both_ways(rank, provided, blocks.yaml(), "blocks, hops drawn again", 10, 3,
                  {{1.0, 0.3, -2.0, 0.5, 1.0, 0.83}}, true, 1e-6);

    odesens::test::SyntheticProblem files;
    auto problem = odesens::PetabProblem::load(files.yaml());
    odesens::FitOptions options;
    options.starts = 4;
    std::atomic<bool> stop{true};
    const odesens::FitResult stopped =
        odesens::fitting::fit_mpi(MPI_COMM_WORLD, provided, *problem, options, {}, &stop);
    check(stopped.starts.empty(), "a stop flag set before the fit runs no start");
    if (rank == 0) check(stopped.stopped && stopped.starts_planned == 4, "stopped is said");

    options.starts = 0;
    bool refused = false;
    try {
      odesens::fitting::fit_mpi(MPI_COMM_WORLD, provided, *problem, options);
    } catch (const odesens::Error& e) {
      refused = e.status() == odesens::Status::invalid_argument;
    }
    check(refused, "no starts: refused on rank " + std::to_string(rank));
    return true;
  });
}
