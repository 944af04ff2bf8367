// The pre-equilibrations of one PEtab evaluation, each solved once. The
// experiments of a problem often share their pre-equilibration condition
// (Brannmark_JBC2010: 8 experiments after one), whose steady state is the
// same for each at the same parameters; solving it per experiment repeated
// the evaluation's dearest part.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "odesens/steady_state.hpp"

namespace odesens::petab {

// What a pre-equilibration's steady state depends on within an evaluation
// (whose parameters and options are fixed): the condition, the method of
// the experiment's solves, and the columns of S (the subset model's).
struct PreequilibrationKey {
  std::size_t condition = 0;
  std::string method;
  bool sensitivities = false;
  std::vector<std::size_t> columns;
  bool operator==(const PreequilibrationKey& o) const {
    return condition == o.condition && method == o.method && sensitivities == o.sensitivities &&
           columns == o.columns;
  }
};

// Shared by the threads of one evaluation, made anew for each (the
// parameters change between evaluations).
class Preequilibrations {
 public:
  // The steady state of key: solved by `solve` on the first call, waited
  // for by concurrent calls of the same key, copied after. A failure is
  // thrown again to every caller of its key.
  SteadyState get(const PreequilibrationKey& key, const std::function<SteadyState()>& solve);

 private:
  struct Entry {
    PreequilibrationKey key;
    std::once_flag once;
    SteadyState value;
    std::exception_ptr failure;
  };
  Entry& entry(const PreequilibrationKey& key);

  std::mutex mutex_;
  std::vector<std::unique_ptr<Entry>> entries_;  // a few: searched in order
};

}  // namespace odesens::petab
