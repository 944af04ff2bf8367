// The frame of the MPI test programs (run as `mpirun -np 2 PROGRAM`; plain
// programs, ctest reads their exit status): checks counted on each rank,
// and a main that initializes MPI, runs the body, counts what it throws as
// a failure, sums the failures over the ranks and reports once on rank 0.
#pragma once

#include <mpi.h>

#include <cstdio>
#include <exception>
#include <functional>
#include <string>

namespace odesens::test {

class MpiChecks {
 public:
  explicit MpiChecks(const char* program) : program_(program) {}

  void check(bool ok, const std::string& what) {
    if (ok) return;
    std::fprintf(stderr, "%s: check failed: %s\n", program_, what.c_str());
    ++failures_;
  }

  // MPI_Init_thread (MPI_THREAD_MULTIPLE), BODY(rank, provided thread
  // level), MPI_Finalize. BODY returns false when it skipped its checks
  // (it says why). The exit status is 1 when a check failed on any rank or
  // when the program ran on one rank (nothing crossed a rank then).
  int run(int argc, char** argv, const std::function<bool(int rank, int provided)>& body) {
    int provided = 0, rank = 0, ranks = 1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    bool ran = true;
    try {
      ran = body(rank, provided);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: rank %d: %s\n", program_, rank, e.what());
      ++failures_;
    }
    int all = 0;
    MPI_Allreduce(&failures_, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    const bool failed = all > 0 || ranks < 2;
    if (rank == 0 && ranks < 2) std::fprintf(stderr, "%s: run it on 2 or more ranks\n", program_);
    if (rank == 0 && ran)
      std::printf("%s: %d ranks, %s\n", program_, ranks, failed ? "FAILED" : "passed");
    MPI_Finalize();
    return failed ? 1 : 0;
  }

 private:
  const char* program_;
  int failures_ = 0;
};

}  // namespace odesens::test
