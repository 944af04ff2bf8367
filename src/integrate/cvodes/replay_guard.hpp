// CVODES' adjoint recomputes the forward solution between two checkpoints
// (CVodeB's CVAdataStore) and stores each recomputed step in interpolation
// data sized for the checkpoint_steps steps the forward pass took there. The
// recomputation restarts from the checkpoint with a fresh Newton matrix,
// so its steps can differ from the forward pass's; where it needs more,
// CVODES writes past that data without a check (SUNDIALS issue 49, open in
// SUNDIALS 7): a segmentation fault, met on Chen_MSB2009 (500 states, KLU)
// at a point a fit visited. The guard stops the recomputation before that
// step: the forward right-hand side asks it at every call while CVodeB runs,
// and it throws ReplayOverflow when the step about to be taken would be
// stored past the data (the driver then holds whole segments, without
// checkpoints to recompute from: AdjointDriver::backward).
#pragma once

#include <cvodes/cvodes.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace odesens::cvodes {

// Not an odesens::Error: the adjoint driver handles it (a caller seeing one
// would be a defect of the driver).
struct ReplayOverflow : std::runtime_error {
  explicit ReplayOverflow(double t_reached, double t_wanted);
  double t_reached;  // the end of the step it asked for beyond the forward pass's
  double t_wanted;   // the end of the checkpoint interval it had to reach
};

class ReplayGuard {
 public:
  // The checkpoints CVODES holds now (`count` as CVodeF returned it: the
  // list has count + 1 records), `steps` apart.
  void arm(void* cvode_mem, int count, long steps);
  void disarm() { intervals_.clear(); }
  // Throws ReplayOverflow when CVODES, recomputing from a checkpoint, has
  // taken the interval's `steps` steps and asks for another.
  void check(void* cvode_mem);

 private:
  struct Interval {
    long first_step;  // CVODES' step count at the checkpoint
    double t_end;
  };
  std::vector<Interval> intervals_;
  std::vector<CVadjCheckPointRec> records_;  // scratch of arm()
  long steps_ = 0;
  long previous_steps_ = -1;  // CVODES' step count at the last check
};

}  // namespace odesens::cvodes
