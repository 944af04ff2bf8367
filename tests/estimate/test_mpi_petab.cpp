// The PEtab evaluation over MPI (run as `mpirun -np 2 test_mpi_petab`):
// rank 0's result equals the threaded PetabProblem::evaluate's bit for bit
// (values, gradient, FIM, simulations, counters) on problems of several
// experiments, with pre-equilibration; the other ranks return nothing; a
// failed experiment is thrown on rank 0 with its status and message; a
// refused point on every rank. Problems from ../shared (skipped when
// absent). A plain program: ctest reads its exit status.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "estimate/mpi_petab.hpp"
#include "estimate/petab_test_support.hpp"
#include "odesens/petab.hpp"
#include "odesens/status.hpp"
#include "support/mpi_checks.hpp"

namespace {

odesens::test::MpiChecks checks("test_mpi_petab");

void check(bool ok, const std::string& what) { checks.check(ok, what); }

void compare(int rank, int provided, const std::string& yaml, const odesens::PetabOptions& o) {
  auto problem = odesens::PetabProblem::load(yaml);
  const std::vector<double> x = problem->nominal_scaled();
  MPI_Barrier(MPI_COMM_WORLD);
  const auto mpi = odesens::petab::evaluate_mpi(MPI_COMM_WORLD, provided, *problem, x, o);
  if (rank != 0) {
    check(!mpi, yaml + ": ranks other than 0 return nothing");
    return;
  }
  if (!mpi) {
    check(false, yaml + ": rank 0 returned nothing");
    return;
  }
  const odesens::PetabResult t = problem->evaluate(x, o);
  check(mpi->nllh == t.nllh && mpi->chi2 == t.chi2 && mpi->nlpost == t.nlpost, yaml + ": values");
  check(mpi->gradient == t.gradient, yaml + ": gradient");
  check(mpi->fim == t.fim, yaml + ": FIM");
  check(mpi->simulations == t.simulations && mpi->residuals == t.residuals,
        yaml + ": simulations");
  check(mpi->stats.steps == t.stats.steps && mpi->stats.rhs_evals == t.stats.rhs_evals,
        yaml + ": counters");
  check(mpi->warnings == t.warnings, yaml + ": warnings");
  check(mpi->n_experiments == problem->n_experiments(), yaml + ": experiments");
}

}  // namespace

int main(int argc, char** argv) {
  return checks.run(argc, argv, [](int rank, int provided) {
    const std::string bruno = odesens::test::benchmark_problem("Bruno_JExpBot2016");
    const std::string preequilibrated = odesens::test::conformance_case("0009");
    if (!odesens::test::exists(bruno) || !odesens::test::exists(preequilibrated)) {
      if (rank == 0)
        std::printf("test_mpi_petab: skipped: PEtab problems not found (%s)\n", bruno.c_str());
      return false;
    }
    odesens::PetabOptions o;
    o.threads = 2;
    compare(rank, provided, bruno, o);
    o.gradient = o.fim = true;
    compare(rank, provided, bruno, o);
    compare(rank, provided, preequilibrated, o);
    o.fim = false;
    o.method = "cvodes_asa";
    compare(rank, provided, bruno, o);

    // A failed simulation: a step limit no experiment meets.
    auto problem = odesens::PetabProblem::load(bruno);
    odesens::PetabOptions starved;
    starved.max_steps = 1;
    std::string message;
    try {
      const auto r = odesens::petab::evaluate_mpi(MPI_COMM_WORLD, provided, *problem,
                                                  problem->nominal_scaled(), starved);
      check(rank != 0 && !r, "a starved evaluation ends without a result on other ranks");
    } catch (const odesens::Error& e) {
      message = e.what();
      check(rank == 0 && e.status() == odesens::Status::too_much_work,
            "the failure on rank 0 keeps its status: " + message);
    }
    if (rank == 0)
      check(message.find("condition '") != std::string::npos, "names the condition: " + message);

    // A refused point: on every rank, before any message.
    bool refused = false;
    try {
      odesens::petab::evaluate_mpi(MPI_COMM_WORLD, provided, *problem, {1.0}, starved);
    } catch (const odesens::Error& e) {
      refused = e.status() == odesens::Status::invalid_argument;
    }
    check(refused, "a point of the wrong size is refused on rank " + std::to_string(rank));
    return true;
  });
}
