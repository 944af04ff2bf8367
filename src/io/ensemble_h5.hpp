// The HDF5 document of odesens: K members of one problem (an ensemble; a
// single result, `run --format h5` or odesens_result_write, is K = 1),
// written as the members finish.
//
// Layout (row-major, member slowest: h5py reads x[k, t, i], Julia's HDF5.jl
// the reverse, x[i, t, k]; docs/hdf5-output.md has the whole description):
//
//   t                (n_t)                  output times
//   x                (K, n_t, n_x)          states; one member per chunk, deflate
//   S                (K, n_S, n_x, n_p)     S[k, t, i, j] = dx_i/dp_j at S_times[t];
//                                           one member per chunk, deflate; only
//                                           when the method gives S
//   S_times          (n_S)                  with S: the output times (forward
//                                           methods) or the final time (adjoint)
//   gradient         (K, n_gradient)        when the method gives one
//   status           (K) int32              the odesens status code, 0 = ok
//   message          (K) UTF-8 strings      empty when ok
//   done             (K) uint8              1 once the member's rows are written
//   parameters       (K, n_p)               each member's parameter vector
//   parameter_names  (n_p) UTF-8 strings
//   state_names      (n_x) UTF-8 strings
//   attributes of /: model, method (as asked: "auto" stays "auto"),
//                    odesens_version (strings), members_done (int64, updated
//                    as members finish), methods_run (written by finish():
//                    the methods the members ran, comma-separated),
//                    stopped_by (by finish() of a run stopped early: the
//                    signal, "SIGINT")
//
// Members not written yet read as NaN (x, S, gradient), status unsupported
// (-11), an empty message and done = 0; a failed member has its status and
// message and NaN rows. The document is written to PATH.partial, flushed
// after each member (H5Fflush: its rows, then its done flag), and renamed to
// PATH by finish(): a run that ends early leaves PATH.partial with the
// members done so far.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "odesens/ensemble.hpp"

namespace odesens::io {

struct EnsembleH5Header {
  std::string model_spec;  // attribute model: the model as the user named it
  std::string method;      // attribute method
  std::vector<std::string> state_names;
  std::vector<std::string> parameter_names;
  std::vector<double> times;  // t
};

class EnsembleH5Writer {
 public:
  // Creates PATH.partial (replacing one a previous run left) for `members`
  // members with t, x, status, message, done, parameters (NaN until
  // write_parameters), the names and the attributes (members_done 0). When
  // PATH is a symbolic link, the file it leads to is replaced (and its
  // .partial is next to it). Error(invalid_argument) when PATH is standard
  // output or exists and is not a regular file (the message names PATH after
  // `path_label`: "--out", "path"); Error(io_error) naming the file and the
  // reason when it cannot be created, or when another run is writing it.
  EnsembleH5Writer(const std::string& path, const EnsembleH5Header& header,
                   std::size_t members, const std::string& path_label);
  // Closes PATH.partial, leaving it in place, unless finish() or discard() ran.
  ~EnsembleH5Writer();
  EnsembleH5Writer(const EnsembleH5Writer&) = delete;
  EnsembleH5Writer& operator=(const EnsembleH5Writer&) = delete;

  // Member k's rows (x, S and gradient when it succeeded), status and
  // message. Members are committed at most every half second and when the
  // file is closed: their rows flushed (H5Fflush), then their done flags and
  // members_done, flushed, so that a run killed at any point leaves no flag
  // without its rows (and at most the last half second's members
  // unflagged). Error(io_error) when writing fails, Error(internal_error)
  // when its result has another shape than the members before.
  void write_member(std::size_t k, const EnsembleMember& member);
  // Member k as a member that succeeded with `result`.
  void write_result(std::size_t k, const Result& result);
  std::size_t members_done() const;
  // After a failure: commits what it can (nothing once a write has failed:
  // the file is left as its last commit made it, readable), closes
  // PATH.partial and leaves it in place; the members done in it.
  std::size_t close_partial();
  // PATH.partial (next to the file a link PATH leads to).
  const std::string& partial_file() const;

  // The parameter vectors of members first, first + 1, ... (n_p values each).
  void write_parameters(std::size_t first, const std::vector<std::vector<double>>& sets);
  // Closes and syncs the file and renames PATH.partial to PATH
  // (Error(io_error) on failure; PATH.partial then stays). stopped_by: what
  // stopped the run early ("SIGINT"), written as the attribute stopped_by;
  // empty for a run that solved every member. The members not solved are
  // left as created (status -11, an empty message, done 0): nothing is
  // written for them, so that stopping takes no time that grows with them.
  void finish(const std::string& stopped_by = "");
  // Closes and removes PATH.partial.
  void discard();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace odesens::io
