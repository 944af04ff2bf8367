// solve_ensemble: member problems, per-member failures, the callback under
// one lock, results kept or released, cancellation.
#include <algorithm>
#include <exception>
#include <mutex>
#include <new>
#include <thread>

#include "ensemble/ensemble_member.hpp"
#include "ensemble/worker_pool.hpp"
#include "odesens/ensemble.hpp"
#include "odesens/method_choice.hpp"
#include "odesens/methods.hpp"

namespace odesens {
namespace {

void require_per_member(const std::vector<std::vector<double>>& v, std::size_t members,
                        const char* what) {
  if (!v.empty() && v.size() != members)
    throw Error(Status::invalid_argument,
                std::string("ensemble: ") + what + " has " + std::to_string(v.size()) +
                    " entries, expected none or one per member (" + std::to_string(members) + ")");
}

// The base problem with member k's parameters, initial state and times.
Problem member_problem(const Problem& base, std::size_t k,
                       const std::vector<std::vector<double>>& parameter_sets,
                       const EnsembleOptions& options) {
  Problem p = base;
  p.params = parameter_sets[k];
  if (!options.initial_states.empty() && !options.initial_states[k].empty())
    p.initial_state = options.initial_states[k];
  if (!options.output_times.empty() && !options.output_times[k].empty())
    p.output_times = options.output_times[k];
  return p;
}

// A set-valued method encloses the solutions over the problem's one box and
// takes no parameter vector: every member would be that box's enclosure,
// whatever its row.
void refuse_parameter_boxes(const Problem& problem, const MethodInfo& info) {
  const bool encloses = info.capabilities.parameter_box ||
                        (info.id == kAutomaticMethod && !problem.param_lower.empty());
  if (!encloses) return;
  throw Error(Status::unsupported,
              "ensemble: method '" + info.id +
                  "' with a parameter box encloses the solutions over that one box and takes no "
                  "parameter vector, so every member would get the same enclosure; enclose each "
                  "box with its own solve (odesens run --box)");
}

unsigned worker_count(unsigned wanted) {
  if (wanted > 0) return wanted;
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware > 0 ? hardware : 1;
}

}  // namespace

std::vector<EnsembleMember> solve_ensemble(const Problem& problem, const std::string& method_id,
                                           const std::vector<std::vector<double>>& parameter_sets,
                                           const EnsembleOptions& options) {
  const std::size_t count = parameter_sets.size();
  // An unknown method fails here, not K times.
  refuse_parameter_boxes(problem, method_info(method_id));
  require_per_member(options.initial_states, count, "initial_states");
  require_per_member(options.output_times, count, "output_times");
  // A failure every member would have is the call's, not K members' own.
  if (problem.output_times.empty() && options.output_times.empty())
    throw Error(Status::invalid_argument,
                "no output times given (neither the problem's nor one set per member)");

  std::vector<EnsembleMember> members(count);
  std::atomic<bool> stop{false};
  std::mutex callback_mutex;
  std::exception_ptr callback_error;

  const unsigned threads = worker_count(options.threads);
  // One session per worker thread.
  std::vector<ensemble::MemberSolver> solvers;
  for (std::size_t w = ensemble::worker_threads(count, threads); w > 0; --w)
    solvers.emplace_back(method_id);
  ensemble::run_tasks(count, threads, stop, [&](std::size_t k, std::size_t worker) {
    if (options.cancel && options.cancel->load()) {
      stop = true;
      return;
    }
    EnsembleMember& m = members[k];
    m = solvers[worker].solve(member_problem(problem, k, parameter_sets, options));
    if (options.on_member_done) {
      std::lock_guard<std::mutex> lock(callback_mutex);
      if (!callback_error) {
        try {
          options.on_member_done(k, m);
        } catch (...) {
          callback_error = std::current_exception();
          stop = true;
        }
      }
    }
    if (!options.keep_results) m.result = Result{};
  });
  if (callback_error) std::rethrow_exception(callback_error);
  ensemble::mark_not_run(members);
  return members;
}

}  // namespace odesens
