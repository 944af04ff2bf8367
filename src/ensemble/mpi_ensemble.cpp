// The MPI ensemble: members as tasks of the MPI task farm (mpi_tasks.hpp),
// each solved on its worker's session and sent as encode_member's bytes.
#include "ensemble/mpi_ensemble.hpp"

#include <memory>
#include <string>

#include "ensemble/ensemble_member.hpp"
#include "ensemble/member_codec.hpp"
#include "ensemble/mpi_tasks.hpp"
#include "odesens/methods.hpp"

namespace odesens::ensemble {
namespace {

// One member solved as solve_ensemble does, on the worker's session.
EnsembleMember solve_member(MemberSolver& solver, const Problem& problem,
                            const std::vector<double>& params) {
  Problem p = problem;
  p.params = params;
  return solver.solve(p);
}

// Member k's bytes, or, when they do not fit in one message, those of a
// member that says so.
void encode_fitting(std::size_t k, const EnsembleMember& m, std::size_t max_bytes,
                    std::vector<char>& bytes) {
  encode_member(k, m, bytes);
  if (bytes.size() <= max_bytes) return;
  EnsembleMember too_large;
  too_large.ran = true;
  too_large.status = Status::unsupported;
  too_large.message = "the member's result (" + std::to_string(bytes.size()) +
                      " bytes) is too large for one MPI message; fewer output times "
                      "or parameters, or the threaded ensemble, avoid this";
  bytes.clear();
  encode_member(k, too_large, bytes);
}

}  // namespace

std::vector<EnsembleMember> solve_ensemble_mpi(MPI_Comm comm, int thread_level,
                                               const Problem& problem, const std::string& method_id,
                                               const std::vector<std::vector<double>>& parameter_sets,
                                               const EnsembleOptions& options,
                                               std::vector<int>* solved_by) {
  method_info(method_id);  // an unknown method fails on every rank alike, before any message
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::size_t count = parameter_sets.size();
  std::vector<EnsembleMember> members(rank == 0 ? count : 0);
  std::vector<int> by(rank == 0 ? count : 0, -1);
  MpiTaskOptions farm;
  farm.threads = options.threads;
  farm.cancel = options.cancel;
  auto make_worker = [&]() -> MpiTaskWorker {
    auto solver = std::make_shared<MemberSolver>(method_id);
    return [&, solver](std::size_t k, std::size_t max_bytes, std::vector<char>& bytes) {
      encode_fitting(k, solve_member(*solver, problem, parameter_sets[k]), max_bytes, bytes);
    };
  };
  auto deliver = [&](std::size_t k, const char* bytes, std::size_t size, int from) {
    std::size_t index = 0;
    members[k] = decode_member(bytes, size, &index);
    if (index != k) throw Error(Status::internal_error, "a rank sent a member under another's index");
    by[k] = from;
    if (options.on_member_done) options.on_member_done(k, members[k]);
    if (!options.keep_results) members[k].result = Result{};
  };
  run_tasks_mpi(comm, thread_level, count, farm, make_worker, deliver);
  if (rank != 0) return {};
  mark_not_run(members);
  if (solved_by) *solved_by = std::move(by);
  return members;
}

}  // namespace odesens::ensemble
