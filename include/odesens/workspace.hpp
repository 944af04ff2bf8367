// Workspace: everything mutable while a model is evaluated.
//
// A prepared Model is immutable and may be shared by any number of threads.
// Whoever evaluates it (a solve, a worker of an ensemble, a test) owns a
// Workspace made by that model, Model::make_workspace(), and passes it to
// every evaluation: register files, the cached parameter-only work of
// compiled expressions, scratch buffers of the default (finite-difference)
// implementations and the SIMD lane width live here, never in the model
// and never in thread-local storage. One workspace serves one thread at a
// time. Its buffers grow on first use and are then reused, so repeated
// evaluations allocate nothing.
//
// Passing no workspace (nullptr, the default argument of every evaluation
// function) is allowed for one-off calls: the model then uses a temporary
// one, which allocates.
#pragma once

#include <cstddef>
#include <vector>

namespace odesens {

class Workspace {
 public:
  // Scratch buffers of the default derivative implementations; distinct
  // slots never alias. accumulate holds J_p^T W in Model::vjp_accumulate
  // while vjp_p, whose own defaults use product and the fd_* slots, runs.
  enum class Scratch {
    fd_plus, fd_minus, fd_shift, dense_jacobian, jacobian_values, product, accumulate,
    point_products, count
  };

  // `owner` identifies the model (or its compiled form) the workspace was
  // made for, so that a model can refuse another model's workspace.
  explicit Workspace(int lane_width = 1, const void* owner = nullptr)
      : lane_width_(lane_width), owner_(owner) {}
  virtual ~Workspace() = default;
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  // SIMD lanes used by batched evaluations (1, 4 or 8); models without
  // lanes ignore it.
  int lane_width() const { return lane_width_; }
  const void* owner() const { return owner_; }

  // At least n doubles of the slot's buffer.
  double* scratch(Scratch slot, std::size_t n) {
    auto& b = scratch_[static_cast<int>(slot)];
    if (b.size() < n) b.resize(n);
    return b.data();
  }

 private:
  int lane_width_;
  const void* owner_;
  std::vector<double> scratch_[static_cast<int>(Scratch::count)];
};

}  // namespace odesens
