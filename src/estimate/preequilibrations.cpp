#include "estimate/preequilibrations.hpp"

namespace odesens::petab {

Preequilibrations::Entry& Preequilibrations::entry(const PreequilibrationKey& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& e : entries_)
    if (e->key == key) return *e;
  entries_.push_back(std::make_unique<Entry>());
  entries_.back()->key = key;
  return *entries_.back();
}

SteadyState Preequilibrations::get(const PreequilibrationKey& key,
                                   const std::function<SteadyState()>& solve) {
  Entry& e = entry(key);
  // The callable never throws, so the flag is set once it returns and
  // every waiting caller sees value or failure.
  std::call_once(e.once, [&] {
    try {
      e.value = solve();
    } catch (...) {
      e.failure = std::current_exception();
    }
  });
  if (e.failure) std::rethrow_exception(e.failure);
  return e.value;
}

}  // namespace odesens::petab
