// The tool's HDF5 output and `odesens ensemble`, run as a user would and read
// back with the HDF5 C API: the members bit for bit as solve() gives them,
// `run --format h5` as a one-member ensemble, a killed run's .partial file,
// Ctrl-C, and the parameter file's errors.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/tool_run.hpp"
#include "odesens/odesens.hpp"

namespace {

namespace fs = std::filesystem;
using odesens::Result;
using odesens::Status;

// ---- running the tool ----

struct Exit {
  int status = -1;  // exit status, or -1 when a signal ended it
  int signal = 0;   // that signal
  std::string err;  // standard error
};

// A fresh folder, removed with everything in it at the end of the test.
class ScratchDir {
 public:
  ScratchDir() {
    char name[] = "/tmp/odesens_cli_h5_XXXXXX";
    path_ = ::mkdtemp(name) ? name : "";
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

using odesens::test::read_text_file;

// Starts the tool with `args`, standard output to /dev/null and standard
// error to `err_path`; returns its process id.
// file_limit: the child's RLIMIT_FSIZE in bytes (a disk that fills up).
// ignore_hangup: the child starts with SIGHUP ignored, as under nohup.
pid_t start_tool(const std::vector<std::string>& args, const std::string& err_path,
                 rlim_t file_limit = RLIM_INFINITY, bool ignore_hangup = false) {
  std::vector<std::string> argv_text{ODESENS_CLI_PATH};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int out = ::open("/dev/null", O_WRONLY);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(err, STDERR_FILENO);
    if (file_limit != RLIM_INFINITY) {
      const struct rlimit limit {file_limit, file_limit};
      ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    if (ignore_hangup) ::signal(SIGHUP, SIG_IGN);  // kept across exec
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

Exit wait_tool(pid_t pid, const std::string& err_path) {
  int raw = 0;
  Exit e;
  if (::waitpid(pid, &raw, 0) == pid) {
    if (WIFEXITED(raw)) e.status = WEXITSTATUS(raw);
    if (WIFSIGNALED(raw)) e.signal = WTERMSIG(raw);
  }
  e.err = read_text_file(err_path);
  return e;
}

Exit run_tool(const ScratchDir& dir, const std::vector<std::string>& args) {
  const std::string err = dir / "stderr.txt";
  return wait_tool(start_tool(args, err), err);
}

// ---- reading the file ----

class H5File {
 public:
  explicit H5File(const std::string& path) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    id_ = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  }
  ~H5File() {
    if (id_ >= 0) H5Fclose(id_);
  }
  H5File(const H5File&) = delete;
  H5File& operator=(const H5File&) = delete;
  bool ok() const { return id_ >= 0; }
  hid_t id() const { return id_; }

  bool has(const char* name) const { return H5Lexists(id_, name, H5P_DEFAULT) > 0; }

  std::vector<hsize_t> dims(const char* name) const {
    const hid_t set = H5Dopen2(id_, name, H5P_DEFAULT);
    const hid_t space = H5Dget_space(set);
    std::vector<hsize_t> d(static_cast<std::size_t>(std::max(0, H5Sget_simple_extent_ndims(space))));
    H5Sget_simple_extent_dims(space, d.data(), nullptr);
    H5Sclose(space);
    H5Dclose(set);
    return d;
  }
  std::size_t size(const char* name) const {
    std::size_t n = 1;
    for (hsize_t d : dims(name)) n *= static_cast<std::size_t>(d);
    return n;
  }

  template <typename T>
  std::vector<T> read(const char* name, hid_t memory_type) const {
    std::vector<T> v(size(name));
    const hid_t set = H5Dopen2(id_, name, H5P_DEFAULT);
    if (set < 0 || H5Dread(set, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
      ADD_FAILURE() << "cannot read " << name;
    if (set >= 0) H5Dclose(set);
    return v;
  }
  std::vector<double> doubles(const char* name) const {
    return read<double>(name, H5T_NATIVE_DOUBLE);
  }
  std::vector<std::int32_t> ints(const char* name) const {
    return read<std::int32_t>(name, H5T_NATIVE_INT32);
  }
  std::vector<std::uint8_t> bytes(const char* name) const {
    return read<std::uint8_t>(name, H5T_NATIVE_UINT8);
  }
  std::vector<std::string> strings(const char* name) const {
    std::vector<char*> raw(size(name), nullptr);
    const hid_t type = string_type();
    const hid_t set = H5Dopen2(id_, name, H5P_DEFAULT);
    if (set < 0 || H5Dread(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()) < 0)
      ADD_FAILURE() << "cannot read " << name;
    std::vector<std::string> out;
    for (char* s : raw) {
      out.emplace_back(s ? s : "");
      H5free_memory(s);
    }
    if (set >= 0) H5Dclose(set);
    H5Tclose(type);
    return out;
  }
  std::string string_attribute(const char* name) const {
    const hid_t attr = H5Aopen(id_, name, H5P_DEFAULT);
    const hid_t type = string_type();
    char* raw = nullptr;
    std::string value = "(unreadable)";
    if (attr >= 0 && H5Aread(attr, type, &raw) >= 0 && raw) value = raw;
    H5free_memory(raw);
    H5Tclose(type);
    if (attr >= 0) H5Aclose(attr);
    return value;
  }
  // -1 when it cannot be read.
  long long members_done() const {
    const hid_t attr = H5Aopen(id_, "members_done", H5P_DEFAULT);
    long long done = -1;
    if (attr < 0 || H5Aread(attr, H5T_NATIVE_LLONG, &done) < 0) done = -1;
    if (attr >= 0) H5Aclose(attr);
    return done;
  }

 private:
  static hid_t string_type() {
    const hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    return t;
  }
  hid_t id_ = -1;
};

// Same bits (NaN included).
bool same_bits(const double* a, const double* b, std::size_t n) {
  return std::memcmp(a, b, n * sizeof(double)) == 0;
}

bool all_nan(const double* a, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isnan(a[i])) return false;
  return true;
}

odesens::Problem chua_problem(const std::vector<double>& times) {
  odesens::Problem p;
  p.model = odesens::load_model("builtin:chua");
  p.t0 = p.model->default_t0();
  p.output_times = times;
  return p;
}

// The member's rows in the file equal solve()'s result bit for bit:
// x[k] = x, S[k][t][i][j] = S(t)_ij, and the gradient.
void expect_member_equals(const H5File& f, std::size_t k, const Result& r) {
  const auto xd = f.dims("x");
  const std::size_t nt = xd[1], nx = xd[2];
  const auto x = f.doubles("x");
  ASSERT_EQ(r.x.size(), nt * nx);
  EXPECT_TRUE(same_bits(x.data() + k * nt * nx, r.x.data(), nt * nx)) << "x of member " << k;
  if (!r.s.empty()) {
    ASSERT_TRUE(f.has("S"));
    const auto sd = f.dims("S");
    ASSERT_EQ(sd[1], r.s_times.size());
    const std::size_t ns = sd[1], np = sd[3];
    const auto s = f.doubles("S");
    std::vector<double> expected(ns * nx * np);
    for (std::size_t t = 0; t < ns; ++t)
      for (std::size_t i = 0; i < nx; ++i)
        for (std::size_t j = 0; j < np; ++j) expected[(t * nx + i) * np + j] = r.s_at(t, i, j);
    EXPECT_TRUE(same_bits(s.data() + k * expected.size(), expected.data(), expected.size()))
        << "S of member " << k;
    EXPECT_EQ(f.doubles("S_times"), r.s_times);
  }
  if (!r.gradient.empty()) {
    ASSERT_TRUE(f.has("gradient"));
    const auto g = f.doubles("gradient");
    EXPECT_TRUE(same_bits(g.data() + k * r.gradient.size(), r.gradient.data(), r.gradient.size()))
        << "gradient of member " << k;
  }
}

const std::vector<double> kTimes = {0, 1, 2, 5};
const char* kTout = "0,1,2,5";

TEST(CliEnsemble, H5HoldsEveryMemberAsSolveGivesItBitForBit) {
  ScratchDir dir;
  const std::vector<std::vector<double>> sets = {
      {7.0, 15.0}, {7.5, 14.5}, {NAN, 15.0}, {8.25, 16.0}, {6.5, 13.75}};
  write_file(dir / "sets.csv",
             "# chua: p1 (alpha), p2 (beta)\np2,p1\n15,7\n14.5,7.5\n\n15,nan\n16,8.25\n13.75,6.5\n");
  const Exit e = run_tool(dir, {"ensemble", "builtin:chua", "--method", "cvodes_fsa", "--params",
                                dir / "sets.csv", "--threads", "2", "--tout", kTout, "--out",
                                dir / "fits.h5"});
  EXPECT_EQ(e.status, 3) << e.err;  // one member failed
  EXPECT_NE(e.err.find("odesens: ensemble: 5 members, 1 failed"), std::string::npos) << e.err;
  EXPECT_NE(e.err.find("member 2"), std::string::npos) << e.err;
  EXPECT_EQ(e.err.find('\r'), std::string::npos) << "a progress line on a non-terminal";
  EXPECT_FALSE(fs::exists(dir / "fits.h5.partial"));

  H5File f(dir / "fits.h5");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f.string_attribute("model"), "builtin:chua");
  EXPECT_EQ(f.string_attribute("method"), "cvodes_fsa");
  EXPECT_EQ(f.string_attribute("odesens_version"), ODESENS_VERSION_STRING);
  EXPECT_EQ(f.members_done(), 5);
  EXPECT_EQ(f.doubles("t"), kTimes);
  EXPECT_EQ(f.dims("x"), (std::vector<hsize_t>{5, 4, 3}));
  EXPECT_EQ(f.dims("S"), (std::vector<hsize_t>{5, 4, 3, 2}));
  // The default objective's gradient, through S.
  EXPECT_EQ(f.dims("gradient"), (std::vector<hsize_t>{5, 2}));
  EXPECT_EQ(f.strings("state_names"), (std::vector<std::string>{"x1", "x2", "x3"}));
  EXPECT_EQ(f.strings("parameter_names"), (std::vector<std::string>{"p1", "p2"}));
  const auto parameters = f.doubles("parameters");
  ASSERT_EQ(parameters.size(), 10u);
  for (std::size_t k = 0; k < sets.size(); ++k)
    EXPECT_TRUE(same_bits(parameters.data() + 2 * k, sets[k].data(), 2)) << k;
  EXPECT_EQ(f.bytes("done"), (std::vector<std::uint8_t>{1, 1, 1, 1, 1}));

  const auto status = f.ints("status");
  const auto message = f.strings("message");
  const auto x = f.doubles("x");
  const auto s = f.doubles("S");
  for (std::size_t k = 0; k < sets.size(); ++k) {
    odesens::Problem p = chua_problem(kTimes);
    p.params = sets[k];
    try {
      const Result r = odesens::solve(p, "cvodes_fsa");
      EXPECT_EQ(status[k], 0) << k;
      EXPECT_EQ(message[k], "") << k;
      expect_member_equals(f, k, r);
    } catch (const odesens::Error& error) {
      EXPECT_EQ(status[k], static_cast<int>(error.status())) << k;
      EXPECT_EQ(message[k], error.what()) << k;
      EXPECT_TRUE(all_nan(x.data() + k * 12, 12)) << "x of failed member " << k;
      EXPECT_TRUE(all_nan(s.data() + k * 24, 24)) << "S of failed member " << k;
    }
  }
  EXPECT_EQ(status[2], static_cast<int>(Status::not_finite));
}

// Adjoint methods: the gradient and S at the final time only (S_times).
TEST(CliEnsemble, GradientMethodsWriteTheGradientAndSAtTheFinalTime) {
  ScratchDir dir;
  write_file(dir / "sets.tsv", "p1\tp2\n7\t15\n7.25\t15.5\n");
  const Exit e = run_tool(dir, {"ensemble", "builtin:chua", "--method", "cvodes_asa", "--params",
                                dir / "sets.tsv", "--tout", kTout, "--out", dir / "adj.h5"});
  ASSERT_EQ(e.status, 0) << e.err;
  H5File f(dir / "adj.h5");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f.dims("S"), (std::vector<hsize_t>{2, 1, 3, 2}));
  EXPECT_EQ(f.doubles("S_times"), std::vector<double>{5.0});
  EXPECT_EQ(f.dims("gradient"), (std::vector<hsize_t>{2, 2}));
  const std::vector<std::vector<double>> sets = {{7, 15}, {7.25, 15.5}};
  for (std::size_t k = 0; k < 2; ++k) {
    odesens::Problem p = chua_problem(kTimes);
    p.params = sets[k];
    expect_member_equals(f, k, odesens::solve(p, "cvodes_asa"));
  }
}

// dir/decay.ode (dx/dt = -k x, x(0) = 1: x(t) = exp(-k t)) and dir/k.csv
// with `count` members, k = k0 + 0.001 m.
void write_decay_ensemble(const ScratchDir& dir, std::size_t count, double k0) {
  write_file(dir / "decay.ode", "param k = 1\nstate x = 1\ndx/dt = -k*x\n");
  std::ostringstream csv;
  csv.precision(17);
  csv << "k\n";
  for (std::size_t m = 0; m < count; ++m) csv << k0 + 0.001 * static_cast<double>(m) << '\n';
  write_file(dir / "k.csv", csv.str());
}

// More members than the tool gives the worker pool at once (4096): every
// member at its own row. x(1) = exp(-k).
TEST(CliEnsemble, ManyMembersEachAtItsRow) {
  ScratchDir dir;
  const std::size_t count = 5000;
  write_decay_ensemble(dir, count, 0.0);
  const Exit e = run_tool(dir, {"ensemble", dir / "decay.ode", "--method", "cvodes_fsa",
                                "--params", dir / "k.csv", "--tout", "0,1", "--threads", "2",
                                "--out", dir / "decay.h5"});
  ASSERT_EQ(e.status, 0) << e.err;
  H5File f(dir / "decay.h5");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f.members_done(), static_cast<long long>(count));
  const auto x = f.doubles("x");
  const auto s = f.doubles("S");
  const auto k = f.doubles("parameters");
  const auto done = f.bytes("done");
  ASSERT_EQ(x.size(), 2 * count);
  for (std::size_t m = 0; m < count; ++m) {
    ASSERT_EQ(k[m], 0.001 * static_cast<double>(m)) << m;
    ASSERT_EQ(done[m], 1) << m;
    ASSERT_NEAR(x[2 * m + 1], std::exp(-k[m]), 1e-6) << m;
    ASSERT_NEAR(s[2 * m + 1], -std::exp(-k[m]), 1e-5) << m;  // dx/dk = -t exp(-k t)
  }
}

// The shared check runs at the model's nominal parameters, which every row
// replaces: an x0 that is not finite there only (1/k at k = 0) is no
// reason to refuse the run; a row with k = 0 fails alone.
TEST(CliEnsemble, AnX0ThatFailsAtTheNominalValuesOnlyIsLeftToTheMembers) {
  ScratchDir dir;
  write_file(dir / "inverse.ode", "param k = 0\nstate x = 1/k\ndx/dt = -x\n");
  write_file(dir / "k.csv", "k\n1\n0\n2\n");
  const Exit e = run_tool(dir, {"ensemble", dir / "inverse.ode", "--method", "cvodes_fsa",
                                "--params", dir / "k.csv", "--tout", "0,1", "--out",
                                dir / "inverse.h5"});
  EXPECT_EQ(e.status, 3) << e.err;  // some members failed
  H5File f(dir / "inverse.h5");
  ASSERT_TRUE(f.ok());
  const auto status = f.ints("status");
  ASSERT_EQ(status.size(), 3u);
  EXPECT_EQ(status[0], 0);
  EXPECT_NE(status[1], 0);
  EXPECT_EQ(status[2], 0);
  const auto x = f.doubles("x");
  EXPECT_NEAR(x[1], std::exp(-1.0), 1e-6);  // x(1) = 1/k e^{-1} at k = 1
}

// Every dataset and attribute of two files, compared as stored.
void expect_same_documents(const H5File& a, const H5File& b) {
  for (const char* name : {"t", "x", "S", "S_times", "parameters"}) {
    ASSERT_EQ(a.has(name), b.has(name)) << name;
    if (!a.has(name)) continue;
    EXPECT_EQ(a.dims(name), b.dims(name)) << name;
    const auto va = a.doubles(name), vb = b.doubles(name);
    ASSERT_EQ(va.size(), vb.size()) << name;
    EXPECT_TRUE(same_bits(va.data(), vb.data(), va.size())) << name;
  }
  EXPECT_EQ(a.ints("status"), b.ints("status"));
  EXPECT_EQ(a.bytes("done"), b.bytes("done"));
  for (const char* name : {"message", "state_names", "parameter_names"})
    EXPECT_EQ(a.strings(name), b.strings(name)) << name;
  for (const char* name : {"model", "method", "odesens_version"})
    EXPECT_EQ(a.string_attribute(name), b.string_attribute(name)) << name;
  EXPECT_EQ(a.members_done(), b.members_done());
}

TEST(CliEnsemble, RunFormatH5IsAOneMemberEnsemble) {
  ScratchDir dir;
  Exit e = run_tool(dir, {"run", "builtin:chua", "--method", "cvodes_fsa", "--param", "p1=7.5",
                          "--tout", kTout, "--format", "h5", "--out", dir / "run.h5"});
  ASSERT_EQ(e.status, 0) << e.err;
  EXPECT_EQ(e.err, "");
  write_file(dir / "one.csv", "p1\n7.5\n");
  e = run_tool(dir, {"ensemble", "builtin:chua", "--method", "cvodes_fsa", "--params",
                     dir / "one.csv", "--tout", kTout, "--out", dir / "ensemble.h5"});
  ASSERT_EQ(e.status, 0) << e.err;
  H5File run(dir / "run.h5"), ensemble(dir / "ensemble.h5");
  ASSERT_TRUE(run.ok());
  ASSERT_TRUE(ensemble.ok());
  EXPECT_EQ(run.dims("x"), (std::vector<hsize_t>{1, 4, 3}));
  expect_same_documents(run, ensemble);
  // ... and both hold what solve() gives.
  odesens::Problem p = chua_problem(kTimes);
  p.params = {7.5, 15.0};
  expect_member_equals(run, 0, odesens::solve(p, "cvodes_fsa"));
}

// The header is written before any member runs: with --method auto it says
// "auto", and methods_run, written when the run ends, says what ran.
TEST(CliEnsemble, H5WithAutoSaysWhichMethodsRan) {
  ScratchDir dir;
  write_file(dir / "two.csv", "p1\n7.5\n8\n");
  const Exit e = run_tool(dir, {"ensemble", "builtin:chua", "--method", "auto", "--params",
                                dir / "two.csv", "--tout", kTout, "--out", dir / "auto.h5"});
  ASSERT_EQ(e.status, 0) << e.err;
  H5File f(dir / "auto.h5");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f.string_attribute("method"), "auto");
  odesens::Problem p = chua_problem(kTimes);
  p.params = {7.5, 15.0};
  const std::string chosen = odesens::solve(p, "auto").method;
  EXPECT_NE(chosen, "auto");
  EXPECT_EQ(f.string_attribute("methods_run"), chosen);
}

TEST(CliEnsemble, RunFormatH5NeedsAFileNotStandardOutput) {
  ScratchDir dir;
  Exit e = run_tool(dir, {"run", "builtin:chua", "--method", "cvodes_fsa", "--format", "h5"});
  EXPECT_EQ(e.status, 2);
  EXPECT_NE(e.err.find("--format h5 needs --out FILE.h5: HDF5 is not written to standard output"),
            std::string::npos)
      << e.err;
  // Standard output redirected to a file: refused all the same (never
  // replaced by a rename).
  const std::string command = std::string(ODESENS_CLI_PATH) +
                              " run builtin:chua --method cvodes_fsa --tout 0,1 --format h5 "
                              "--out /dev/stdout > " + (dir / "stdout.bin") + " 2> " +
                              (dir / "err.txt");
  const int raw = std::system(command.c_str());
  EXPECT_EQ(WEXITSTATUS(raw), 2);
  EXPECT_NE(read_text_file(dir / "err.txt").find("is standard output"), std::string::npos)
      << read_text_file(dir / "err.txt");
  EXPECT_EQ(read_text_file(dir / "stdout.bin"), "");
  // A failed solve leaves no file, as with the other formats.
  e = run_tool(dir, {"run", "builtin:chua", "--method", "cvodes_fsa", "--tout", "0,50",
                     "--max-steps", "3", "--format", "h5", "--out", dir / "failed.h5"});
  EXPECT_EQ(e.status, 1) << e.err;
  EXPECT_FALSE(fs::exists(dir / "failed.h5"));
  EXPECT_FALSE(fs::exists(dir / "failed.h5.partial"));
}

// ---- runs that end early ----

// network:30 members take about 0.2 s each (more under sanitizers): enough
// to stop a run of 40 in the middle.
const char* kSlowModel = "builtin:network:30";
const std::vector<double> kSlowTimes = {0, 25, 50, 75, 100};

std::vector<std::vector<double>> slow_sets(std::size_t count, std::string& csv) {
  const auto model = odesens::load_model(kSlowModel);
  const auto nominal = model->nominal_params();
  std::vector<std::vector<double>> sets;
  std::ostringstream text;
  text.precision(17);
  text << "k1,k2\n";
  for (std::size_t k = 0; k < count; ++k) {
    auto p = nominal;
    p[0] *= 1.0 + 0.01 * static_cast<double>(k);
    p[1] *= 1.0 - 0.005 * static_cast<double>(k);
    text << p[0] << ',' << p[1] << '\n';
    sets.push_back(p);
  }
  csv = text.str();
  return sets;
}

// Polls PATH until its members_done reaches `at_least` (or 120 s pass):
// the file is read while the tool writes it, so a read may fail and is
// tried again.
bool wait_for_members(const std::string& path, long long at_least) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    if (fs::exists(path)) {
      H5File f(path);
      if (f.ok() && f.members_done() >= at_least) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

odesens::Result solve_slow(const std::vector<double>& params) {
  odesens::Problem p;
  p.model = odesens::load_model(kSlowModel);
  p.t0 = p.model->default_t0();
  p.output_times = kSlowTimes;
  p.params = params;
  return odesens::solve(p, "cvodes_fsa");
}

std::vector<std::string> slow_run_args(const ScratchDir& dir) {
  return {"ensemble", kSlowModel, "--method", "cvodes_fsa", "--params", dir / "slow.csv",
          "--tout", "0,25,50,75,100", "--threads", "2", "--out", dir / "slow.h5"};
}

// The slow ensemble of 40 members, sent `sig` once one member is written.
struct StoppedRun {
  std::vector<std::vector<double>> sets;
  bool started = false;  // a member was written before the signal
  Exit exit;
};

StoppedRun stop_slow_run(const ScratchDir& dir, int sig) {
  StoppedRun run;
  std::string csv;
  run.sets = slow_sets(40, csv);
  write_file(dir / "slow.csv", csv);
  const pid_t pid = start_tool(slow_run_args(dir), dir / "stderr.txt");
  run.started = wait_for_members(dir / "slow.h5.partial", 1);
  ::kill(pid, sig);
  run.exit = wait_tool(pid, dir / "stderr.txt");
  return run;
}

TEST(CliEnsemble, AKilledRunLeavesThePartialFileWithTheMembersDone) {
  ScratchDir dir;
  const StoppedRun run = stop_slow_run(dir, SIGKILL);
  const auto& sets = run.sets;
  const bool started = run.started;
  const Exit& e = run.exit;
  ASSERT_TRUE(started) << e.err;
  ASSERT_EQ(e.signal, SIGKILL) << "the run ended before it was killed: " << e.err;
  EXPECT_FALSE(fs::exists(dir / "slow.h5"));

  H5File f(dir / "slow.h5.partial");
  ASSERT_TRUE(f.ok());
  const long long done_count = f.members_done();
  ASSERT_GE(done_count, 1);
  ASSERT_LT(done_count, 40);
  const auto done = f.bytes("done");
  const auto status = f.ints("status");
  const auto x = f.doubles("x");
  const std::size_t row = kSlowTimes.size() * 30;
  long long flagged = 0;
  std::size_t checked = 0;
  for (std::size_t k = 0; k < sets.size(); ++k) {
    if (!done[k]) {
      // Not begun: nothing written. (A member written since the last
      // commit may have its rows and status without its flag.)
      if (status[k] == static_cast<int>(Status::unsupported)) {
        EXPECT_TRUE(all_nan(x.data() + k * row, row)) << k;
      } else {
        // Its rows were written before its status.
        EXPECT_EQ(status[k], 0) << k;
        for (std::size_t i = 0; i < row; ++i) ASSERT_TRUE(std::isfinite(x[k * row + i])) << k;
      }
      continue;
    }
    ++flagged;
    EXPECT_EQ(status[k], 0) << k;
    // The members flagged done are whole: the first two compared with
    // solve(), the others finite.
    if (checked++ < 2) expect_member_equals(f, k, solve_slow(sets[k]));
    for (std::size_t i = 0; i < row; ++i) ASSERT_TRUE(std::isfinite(x[k * row + i])) << k;
  }
  // A commit flushes the flags after the rows and before the counter: a
  // kill during it can leave the counter behind the flags, never ahead.
  EXPECT_GE(flagged, done_count);

  // The next run with the same --out keeps the .partial and says so.
  const std::string before = read_text_file(dir / "slow.h5.partial");
  const Exit again = run_tool(dir, slow_run_args(dir));
  EXPECT_EQ(again.status, 1) << again.err;
  EXPECT_NE(again.err.find("slow.h5.partial' is left from an earlier run"), std::string::npos)
      << again.err;
  EXPECT_EQ(read_text_file(dir / "slow.h5.partial"), before);
}

// A disk that fills up during the run (here a file size limit): status 1,
// one sentence, and the .partial readable whole, with every member flagged
// done correct (the room for each flush is claimed before it, so no flush
// fails half-way).
TEST(CliEnsemble, AFullDiskLeavesAReadablePartialWithTheMembersCommitted) {
  ScratchDir dir;
  const std::size_t count = 2000;
  write_decay_ensemble(dir, count, 0.5);
  const std::string err = dir / "stderr.txt";
  const Exit e = wait_tool(
      start_tool({"ensemble", dir / "decay.ode", "--method", "cvodes_fsa", "--params",
                  dir / "k.csv", "--tout", "0:1:501", "--out", dir / "decay.h5"},
                 err, 4u << 20),
      err);
  ASSERT_EQ(e.signal, 0) << e.err;
  ASSERT_EQ(e.status, 1) << e.err;
  EXPECT_NE(e.err.find("File too large"), std::string::npos) << e.err;
  EXPECT_NE(e.err.find("members done are in"), std::string::npos) << e.err;
  EXPECT_EQ(std::count(e.err.begin(), e.err.end(), '\n'), 1) << e.err;
  EXPECT_FALSE(fs::exists(dir / "decay.h5"));

  H5File f(dir / "decay.h5.partial");
  ASSERT_TRUE(f.ok());
  const long long done_count = f.members_done();
  ASSERT_GT(done_count, 0);
  ASSERT_LT(done_count, static_cast<long long>(count));
  const auto done = f.bytes("done");
  const auto x = f.doubles("x");
  const auto k = f.doubles("parameters");
  ASSERT_EQ(x.size(), count * 501);
  long long flagged = 0;
  for (std::size_t m = 0; m < count; ++m) {
    if (!done[m]) continue;
    ++flagged;
    ASSERT_NEAR(x[m * 501 + 500], std::exp(-k[m]), 1e-6) << m;
  }
  EXPECT_EQ(flagged, done_count);
}

// A file size limit met when the file is closed at the end: HDF5 cannot
// complete it, and no reader opens it; it is removed and said, where a
// corrupt .partial was left that refused every later run.
TEST(CliEnsemble, AFileThatCannotBeClosedIsRemovedAndSaid) {
  ScratchDir dir;
  write_decay_ensemble(dir, 3, 0.5);
  const std::string err = dir / "stderr.txt";
  const std::vector<std::string> args = {"ensemble", dir / "decay.ode", "--method", "cvodes_fsa",
                                         "--params", dir / "k.csv", "--tout", "0:1:200",
                                         "--out", dir / "decay.h5"};
  const Exit e = wait_tool(start_tool(args, err, 20u << 10), err);
  ASSERT_EQ(e.signal, 0) << e.err;
  ASSERT_EQ(e.status, 1) << e.err;
  EXPECT_NE(e.err.find("File too large"), std::string::npos) << e.err;
  EXPECT_NE(e.err.find("was not written; '" + (dir / "decay.h5.partial") +
                       "', which could not be completed, was removed"),
            std::string::npos)
      << e.err;
  EXPECT_FALSE(fs::exists(dir / "decay.h5.partial"));
  EXPECT_FALSE(fs::exists(dir / "decay.h5"));
  const Exit again = wait_tool(start_tool(args, err), err);
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_TRUE(H5File(dir / "decay.h5").ok());
}

// Started under nohup (SIGHUP ignored), a closed terminal does not end the
// run: the tool keeps an ignored signal ignored.
TEST(CliEnsemble, AnIgnoredHangupStaysIgnored) {
  ScratchDir dir;
  std::string csv;
  slow_sets(40, csv);
  write_file(dir / "slow.csv", csv);
  const pid_t pid =
      start_tool(slow_run_args(dir), dir / "stderr.txt", RLIM_INFINITY, /*ignore_hangup=*/true);
  const bool started = wait_for_members(dir / "slow.h5.partial", 1);
  ::kill(pid, SIGHUP);
  const Exit e = wait_tool(pid, dir / "stderr.txt");
  ASSERT_TRUE(started) << e.err;
  EXPECT_EQ(e.signal, 0) << e.err;
  EXPECT_EQ(e.status, 0) << e.err;
  EXPECT_EQ(e.err.find("stopping after the work in progress"), std::string::npos) << e.err;
  H5File f(dir / "slow.h5");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f.members_done(), 40);
}

TEST(CliEnsemble, CtrlCEndsTheRunWithTheMembersDoneAndTheRestMarkedNotRun) {
  ScratchDir dir;
  const StoppedRun run = stop_slow_run(dir, SIGINT);
  const auto& sets = run.sets;
  const bool started = run.started;
  const Exit& e = run.exit;
  ASSERT_TRUE(started) << e.err;
  EXPECT_EQ(e.status, 128 + SIGINT) << e.err;
  EXPECT_NE(e.err.find("stopping after the work in progress (again to stop at once, leaving the "
                       ".partial file)"),
            std::string::npos)
      << e.err;
  EXPECT_NE(e.err.find("odesens: ensemble: interrupted by SIGINT: 40 members, 0 failed, "),
            std::string::npos)
      << e.err;
  EXPECT_FALSE(fs::exists(dir / "slow.h5.partial"));

  H5File f(dir / "slow.h5");
  ASSERT_TRUE(f.ok());
  const long long done_count = f.members_done();
  ASSERT_GE(done_count, 1);
  ASSERT_LT(done_count, 40);
  EXPECT_NE(e.err.find(std::to_string(40 - done_count) + " not run"), std::string::npos) << e.err;
  const auto done = f.bytes("done");
  const auto status = f.ints("status");
  const auto message = f.strings("message");
  long long flagged = 0;
  for (std::size_t k = 0; k < sets.size(); ++k) {
    if (done[k]) {
      ++flagged;
      EXPECT_EQ(status[k], 0) << k;
      continue;
    }
    // Not solved: left as created (nothing written for them while stopping).
    EXPECT_EQ(status[k], static_cast<int>(Status::unsupported)) << k;
    EXPECT_EQ(message[k], "") << k;
  }
  EXPECT_EQ(flagged, done_count);
  EXPECT_EQ(f.string_attribute("stopped_by"), "SIGINT");
  for (std::size_t k = 0; k < sets.size(); ++k)
    if (done[k]) {
      expect_member_equals(f, k, solve_slow(sets[k]));
      break;
    }
}

// Stopping takes no time that grows with the members not solved, and a
// second signal never lands in a write: SIGTERM, then (as `timeout -k` and
// Slurm do) SIGKILL or a second SIGTERM a moment later, on 200,000 cheap
// members. Whatever file is left, final or .partial, reads whole. (Before,
// the members not solved were written while stopping, and a kill during
// that write left `status` and `message` unreadable: 4 runs of 4.)
TEST(CliEnsemble, ASignalWhileStoppingLeavesAReadableFile) {
  ScratchDir dir;
  std::string csv = "k\n";
  for (int m = 0; m < 200000; ++m) csv += std::to_string(1.0 + (m % 997) * 1e-3) + "\n";
  write_file(dir / "sets.csv", csv);
  write_file(dir / "decay.ode", "param k = 1\nstate x = 1\ndx/dt = -k*x\n");
  for (const int second : {SIGKILL, SIGTERM, SIGKILL, SIGTERM}) {
    fs::remove(dir / "out.h5");
    fs::remove(dir / "out.h5.partial");
    const pid_t pid =
        start_tool({"ensemble", dir / "decay.ode", "--method", "cvodes_fsa", "--tout",
                    "0:1:5", "--params", dir / "sets.csv", "--out",
                    dir / "out.h5", "--threads", "2"},
                   dir / "stderr.txt");
    ASSERT_TRUE(wait_for_members(dir / "out.h5.partial", 1));
    ::kill(pid, SIGTERM);
    ::usleep(second == SIGKILL ? 300000 : 20000);
    ::kill(pid, second);
    const Exit e = wait_tool(pid, dir / "stderr.txt");
    const bool whole = fs::exists(dir / "out.h5");
    H5File f(dir / (whole ? "out.h5" : "out.h5.partial"));
    ASSERT_TRUE(f.ok()) << e.err;
    const std::size_t n = f.size("done");
    ASSERT_EQ(n, 200000u);
    EXPECT_EQ(f.ints("status").size(), n);
    EXPECT_EQ(f.strings("message").size(), n);
    EXPECT_EQ(f.bytes("done").size(), n);
    EXPECT_EQ(f.doubles("x").size(), n * 5);
    // The stop takes milliseconds: the first signal's run ends with its
    // status and the final file before the second signal comes, or the
    // second ends it with its own status. A SIGKILL can also land after the
    // final file and before the exit (sanitizers' checks at exit take time):
    // the file is whole all the same.
    if (whole) {
      if (e.signal == 0) EXPECT_EQ(e.status, 128 + SIGTERM) << e.err;
      else EXPECT_EQ(e.signal, second) << e.err;
      EXPECT_EQ(f.string_attribute("stopped_by"), "SIGTERM");
    } else if (second == SIGTERM) {
      EXPECT_EQ(e.status, 128 + SIGTERM) << e.err;
    }
  }
}

// ---- the parameter file ----

// Runs ensemble on chua with `content` as the parameter file NAME; checks
// exit status 2, the message, and that no output file was left.
void expect_params_error(const std::string& name, const std::string& content,
                         const std::string& message) {
  ScratchDir dir;
  write_file(dir / name, content);
  const Exit e = run_tool(dir, {"ensemble", "builtin:chua", "--method", "cvodes_fsa", "--params",
                                dir / name, "--out", dir / "out.h5"});
  EXPECT_EQ(e.status, 2) << e.err;
  EXPECT_EQ(e.err.rfind("odesens: error: ", 0), 0u) << e.err;
  EXPECT_NE(e.err.find(message), std::string::npos)
      << "expected: " << message << "\ngot: " << e.err;
  EXPECT_EQ(std::count(e.err.begin(), e.err.end(), '\n'), 1) << e.err;
  EXPECT_FALSE(fs::exists(dir / "out.h5"));
  EXPECT_FALSE(fs::exists(dir / "out.h5.partial"));
}

TEST(CliEnsembleParams, EmptyFile) {
  expect_params_error("sets.csv", "",
                      "sets.csv: empty file: expected a header row of parameter names");
}

TEST(CliEnsembleParams, OnlyCommentsAndBlankLines) {
  expect_params_error("sets.csv", "# nothing yet\n\n   \n", "sets.csv: only blank and comment lines");
}

TEST(CliEnsembleParams, HeaderWithoutDataRows) {
  expect_params_error("sets.csv", "p1,p2\n# none\n",
                      "sets.csv: no data rows after the header (line 1)");
}

TEST(CliEnsembleParams, RaggedRowNamesItsLine) {
  expect_params_error("sets.csv", "p1,p2\n7,15\n\n7,15,3\n",
                      "sets.csv:4: 3 cells, but the header (line 1) has 2");
  expect_params_error("sets.csv", "p1,p2\n7\n", "sets.csv:2: 1 cell, but the header (line 1) has 2");
}

TEST(CliEnsembleParams, NonNumericCellNamesLineAndColumn) {
  expect_params_error("sets.csv", "p1,p2\n7,15\n7,fifteen\n",
                      "sets.csv:3: column 2 (p2): 'fifteen' is not a number");
  expect_params_error("sets.tsv", "p1\tp2\n7\t\n", "sets.tsv:2: column 2 (p2) is empty");
  expect_params_error("sets.csv", "p1,p2\n7,1e999\n",
                      "sets.csv:2: column 2 (p2): '1e999' is out of the range of doubles");
  // Decimal only: strtod's hexadecimal numbers are refused, as on the command line.
  expect_params_error("sets.csv", "p1,p2\n7,0x10\n",
                      "sets.csv:2: column 2 (p2): '0x10' is not a number");
  expect_params_error("sets.csv", "p1,p2\n0X1p3,15\n",
                      "sets.csv:2: column 1 (p1): '0X1p3' is not a number");
}

TEST(CliEnsembleParams, UnknownParameterIsNamed) {
  expect_params_error("sets.csv", "p1,alpha\n7,15\n",
                      "sets.csv:1: model builtin:chua has no parameter 'alpha' (column 2)");
}

TEST(CliEnsembleParams, DuplicateOrEmptyNames) {
  expect_params_error("sets.csv", "p1,p2,p1\n1,2,3\n",
                      "sets.csv:1: parameter 'p1' appears twice in the header (columns 1 and 3)");
  expect_params_error("sets.csv", "p1,,p2\n1,2,3\n",
                      "sets.csv:1: column 2 of the header is empty");
}

TEST(CliEnsembleParams, SeparatorFollowsTheSuffix) {
  // A tab-separated header in a .csv file is one name (the tab shown as \x09).
  expect_params_error("sets.csv", "p1\tp2\n7\t15\n",
                      "sets.csv:1: model builtin:chua has no parameter 'p1\\x09p2' (column 1)");
  expect_params_error("sets.txt", "p1,p2\n7,15\n",
                      "sets.txt' must end in .csv (comma-separated) or .tsv (tab-separated)");
}

TEST(CliEnsembleParams, MissingOrSpecialFile) {
  ScratchDir dir;
  Exit e = run_tool(dir, {"ensemble", "builtin:chua", "--method", "cvodes_fsa", "--params",
                          dir / "nosuch.csv", "--out", dir / "out.h5"});
  EXPECT_EQ(e.status, 2);
  EXPECT_NE(e.err.find("cannot read '" + (dir / "nosuch.csv") + "': No such file or directory"),
            std::string::npos)
      << e.err;
  fs::create_directory(dir / "folder.csv");
  e = run_tool(dir, {"ensemble", "builtin:chua", "--method", "cvodes_fsa", "--params",
                     dir / "folder.csv", "--out", dir / "out.h5"});
  EXPECT_EQ(e.status, 2);
  EXPECT_NE(e.err.find("it is a directory, not a regular file"), std::string::npos) << e.err;
}

TEST(CliEnsembleParams, MoreMembersThanTheCapAreRefused) {
  std::string text = "p1,p2\n";
  text.reserve(6 + 4 * 10'000'001);
  for (int k = 0; k < 10'000'001; ++k) text += "7,9\n";
  expect_params_error("sets.csv", text,
                      "sets.csv:10000002: more than 10000000 parameter sets (members)");
}

// Comments, blank lines, spaces, CRLF and a byte-order mark are skipped;
// columns in any order, parameters not listed keep their nominal values.
TEST(CliEnsembleParams, CommentsSpacesAndUnlistedParameters) {
  ScratchDir dir;
  write_file(dir / "sets.csv", "\xEF\xBB\xBF# header next\r\n  p2 \r\n\r\n 14.5 \r\n# end\r\n");
  const Exit e = run_tool(dir, {"ensemble", "builtin:chua", "--method", "cvodes_fsa", "--params",
                                dir / "sets.csv", "--tout", kTout, "--out", dir / "out.h5"});
  ASSERT_EQ(e.status, 0) << e.err;
  H5File f(dir / "out.h5");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f.doubles("parameters"), (std::vector<double>{7.0, 14.5}));  // p1 nominal
}

TEST(CliEnsemble, FlagsAreChecked) {
  ScratchDir dir;
  write_file(dir / "sets.csv", "p1\n7\n");
  const std::vector<std::string> base = {"ensemble", "builtin:chua", "--method", "cvodes_fsa"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_tool(dir, args);
  };
  Exit e = with({"--out", dir / "o.h5"});
  EXPECT_EQ(e.status, 2);
  EXPECT_NE(e.err.find("ensemble: --params FILE.csv|FILE.tsv is required"), std::string::npos);
  e = with({"--params", dir / "sets.csv"});
  EXPECT_EQ(e.status, 2);
  EXPECT_NE(e.err.find("ensemble: --out FILE.h5 is required"), std::string::npos) << e.err;
  e = with({"--params", dir / "sets.csv", "--out", dir / "o.h5", "--threads", "-1"});
  EXPECT_EQ(e.status, 2);
  EXPECT_NE(e.err.find("--threads needs a whole number from 0 (one per core) to 1024, got '-1'"),
            std::string::npos)
      << e.err;
  // 0 is one per core, as in fit, petab and profile (and odesens-mpi's help).
  e = with({"--params", dir / "sets.csv", "--out", dir / "zero.h5", "--threads", "0"});
  EXPECT_EQ(e.status, 0) << e.err;
  EXPECT_TRUE(fs::exists(dir / "zero.h5"));
  e = with({"--params", dir / "sets.csv", "--out", dir / "o.h5", "--rtol", "2"});
  EXPECT_EQ(e.status, 2);
  EXPECT_NE(e.err.find("rtol must be in (0, 1)"), std::string::npos) << e.err;
  EXPECT_FALSE(fs::exists(dir / "o.h5.partial"));
  e = with({"--params", dir / "sets.csv", "--out", dir / "o.h5", "--param", "p1=3"});
  EXPECT_EQ(e.status, 2);
  EXPECT_NE(e.err.find("unknown flag '--param'"), std::string::npos) << e.err;
  // It said "needs a parameter box (... --box ...)", a flag ensemble lacks.
  for (const char* method : {"bounds_fsa", "bounds_asa"}) {
    e = run_tool(dir, {"ensemble", "builtin:chua", "--method", method, "--params",
                       dir / "sets.csv", "--out", dir / "o.h5"});
    EXPECT_EQ(e.status, 2);
    EXPECT_NE(e.err.find("enclose each box with odesens run"), std::string::npos) << e.err;
  }
}

}  // namespace
