// `odesens petab`, run as a user would on the PEtab conformance case 0001
// (../shared): the text and JSON documents, --at, --simulations, --out, and
// the exit statuses of what is wrong.
#include <gtest/gtest.h>

#include "cli/tool_run.hpp"
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "estimate/petab_test_support.hpp"

namespace {

using odesens::test::ToolRun;
using odesens::test::run_tool;

namespace fs = std::filesystem;

using odesens::test::read_text_file;

// A fresh folder under /tmp, removed with what it holds.
class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/odesens_cli_petab_XXXXXX";
    if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }

 private:
  fs::path dir_;
};

// Conformance case 0001: A <-> B, obs_a = A, sigma 0.5, two measurements;
// its llh at the nominal parameters is -0.84750169713188.
class CliPetab : public ::testing::Test {
 protected:
  void SetUp() override {
    yaml_ = odesens::test::conformance_case("0001");
    if (!odesens::test::exists(yaml_)) GTEST_SKIP() << "PEtab case not found: " << yaml_;
  }
  nlohmann::json json(const std::string& flags) const {
    const ToolRun r = run_tool("petab " + yaml_ + " --format json " + flags);
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out);
  }
  std::string yaml_;
};

constexpr double kLlh0001 = -0.84750169713188;

TEST_F(CliPetab, TextGivesTheLogLikelihood) {
  const ToolRun r = run_tool("petab " + yaml_);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::istringstream in(r.out);
  std::string word;
  double llh = NAN;
  in >> word >> llh;
  EXPECT_EQ(word, "llh");
  EXPECT_NEAR(llh, kLlh0001, 1e-6) << r.out;
  EXPECT_NE(r.out.find("\nchi2 "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("gradient"), std::string::npos) << r.out;

  const ToolRun g = run_tool("petab " + yaml_ + " --gradient --fim");
  ASSERT_EQ(g.status, 0) << g.err;
  EXPECT_NE(g.out.find("gradient of nllh (scaled parameters):\n  a0\t"), std::string::npos)
      << g.out;
  EXPECT_NE(g.out.find("fim (4 x 4"), std::string::npos) << g.out;
}

// Case 0001 estimates rate constants and initial values only: no inner
// parameters, and the same value with --hierarchical.
TEST_F(CliPetab, HierarchicalSaysWhichParametersAreInner) {
  const ToolRun r = run_tool("petab " + yaml_ + " --hierarchical");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("inner parameters: none"), std::string::npos) << r.out;
  const nlohmann::json j = json("--hierarchical");
  EXPECT_NEAR(j["llh"].get<double>(), kLlh0001, 1e-6);
  ASSERT_EQ(j["point"].size(), 4u);
  EXPECT_FALSE(json("").contains("point"));
}

TEST_F(CliPetab, JsonHasTheDocumentedKeys) {
  nlohmann::json j = json("");
  for (const char* key : {"problem", "method", "llh", "nllh", "chi2", "parameter_ids",
                          "parameter_scales", "simulations", "stats", "warnings"})
    EXPECT_TRUE(j.contains(key)) << key;
  for (const char* key : {"gradient", "fim", "log_prior", "nlpost"})
    EXPECT_FALSE(j.contains(key)) << key;
  EXPECT_NEAR(j["llh"].get<double>(), kLlh0001, 1e-6);
  EXPECT_DOUBLE_EQ(j["nllh"].get<double>(), -j["llh"].get<double>());
  EXPECT_NEAR(j["chi2"].get<double>(), 0.79183798368486, 1e-6);
  EXPECT_EQ(j["parameter_ids"], nlohmann::json({"a0", "b0", "k1", "k2"}));
  EXPECT_EQ(j["method"], "odesd");  // auto's choice (docs/petab.md)
  ASSERT_EQ(j["simulations"].size(), 2u);
  EXPECT_NEAR(j["simulations"][0].get<double>(), 1.0, 1e-9);
  EXPECT_NEAR(j["simulations"][1].get<double>(), 0.42857190373069665, 1e-6);
  EXPECT_EQ(j["stats"]["experiments"], 1);
  EXPECT_GT(j["stats"]["steps"].get<long>(), 0);

  j = json("--gradient --fim --threads 2");
  ASSERT_TRUE(j.contains("gradient"));
  ASSERT_EQ(j["gradient"].size(), 4u);
  for (const auto& g : j["gradient"]) EXPECT_TRUE(g.is_number());
  ASSERT_TRUE(j.contains("fim"));
  ASSERT_EQ(j["fim"].size(), 4u);
  for (std::size_t a = 0; a < 4; ++a) {
    ASSERT_EQ(j["fim"][a].size(), 4u);
    for (std::size_t b = 0; b < 4; ++b)
      EXPECT_NEAR(j["fim"][a][b].get<double>(), j["fim"][b][a].get<double>(),
                  1e-12 * (1 + std::abs(j["fim"][a][b].get<double>())));
  }
  EXPECT_NEAR(j["llh"].get<double>(), kLlh0001, 1e-6);
}

// Every --option counts: the second used to replace the first, so that a
// mistyped first option went unnoticed and a valid one went unused.
TEST_F(CliPetab, EveryRepeatedOptionIsRead) {
  const ToolRun bad_first =
      run_tool("petab " + yaml_ + " --option no_such_option=1 --option state_check=0");
  EXPECT_NE(bad_first.status, 0);
  EXPECT_NE(bad_first.err.find("no_such_option"), std::string::npos) << bad_first.err;
  // Two valid ones: the first changes the solve (Adams takes other steps than BDF).
  const nlohmann::json both = json("--option lmm=adams --option state_check=0");
  const nlohmann::json second_only = json("--option state_check=0");
  EXPECT_NE(both["stats"]["steps"].get<long>(), second_only["stats"]["steps"].get<long>());
}

TEST_F(CliPetab, AtChangesTheParametersAndRefusesUnknownIds) {
  TempDir dir;
  const std::string at = dir.write("at.tsv", "parameterId\tvalue\nk1\t0.5\n\nk2\t0.4\n");
  const nlohmann::json j = json("--at " + at);
  EXPECT_GT(std::abs(j["llh"].get<double>() - kLlh0001), 1e-3);
  // A(10) with A(0) = 1, B(0) = 0: k2/(k1+k2) + k1/(k1+k2) exp(-(k1+k2) 10).
  const double a10 = (0.4 + 0.5 * std::exp(-9.0)) / 0.9;
  EXPECT_NEAR(j["simulations"][1].get<double>(), a10, 1e-6);
  const double nllh = 2 * 0.5 * std::log(2 * M_PI * 0.25) + 0.5 * std::pow((0.7 - 1.0) / 0.5, 2) +
                      0.5 * std::pow((0.1 - a10) / 0.5, 2);
  EXPECT_NEAR(j["nllh"].get<double>(), nllh, 1e-6);

  const std::string bad = dir.write("bad.tsv", "parameterId\tvalue\nk1\t0.5\nnosuch\t1\n");
  ToolRun r = run_tool("petab " + yaml_ + " --at " + bad);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("bad.tsv:3: 'nosuch' is not an estimated parameter"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  const std::string value = dir.write("value.tsv", "parameterId\tvalue\nk1\tabc\n");
  r = run_tool("petab " + yaml_ + " --at " + value);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("value.tsv:2: value 'abc' is not a finite number"), std::string::npos)
      << r.err;

  // A value given twice (the last one won, unsaid).
  const std::string twice = dir.write("twice.tsv", "parameterId\tvalue\nk1\t0.5\nk1\t0.6\n");
  r = run_tool("petab " + yaml_ + " --at " + twice);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("twice.tsv:3: 'k1' is given again (row 2 gave it)"), std::string::npos)
      << r.err;

  // A cell past the header (a row shifted), as the problem's tables refuse it.
  const std::string extra = dir.write("extra.tsv", "parameterId\tvalue\nk1\t0.5\tjunk\n");
  r = run_tool("petab " + yaml_ + " --at " + extra);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("extra.tsv:2: the row has more cells than the header has columns (2)"),
            std::string::npos)
      << r.err;

  const std::string header = dir.write("header.tsv", "id\tvalue\nk1\t1\n");
  r = run_tool("petab " + yaml_ + " --at " + header);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("header.tsv:1: the header needs the columns parameterId and value"),
            std::string::npos)
      << r.err;

  // A missing file and one that is not a regular file are the command
  // line's errors, as ensemble's --params file.
  r = run_tool("petab " + yaml_ + " --at " + dir.path("nosuch.tsv"));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("nosuch.tsv: cannot be read: No such file"), std::string::npos) << r.err;
  r = run_tool("petab " + yaml_ + " --at " + dir.path(""));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(": a directory, not a parameter table"), std::string::npos) << r.err;
  r = run_tool("petab " + yaml_ + " --at /dev/zero");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("/dev/zero: not a regular file"), std::string::npos) << r.err;
}

TEST_F(CliPetab, SimulationsFileHoldsTheMeasurementRows) {
  TempDir dir;
  const std::string sims = dir.path("sims.tsv");
  const nlohmann::json j = json("--simulations " + sims);
  const auto table = odesens::test::read_tsv(sims);
  const auto measurements =
      odesens::test::read_tsv(fs::path(yaml_).parent_path() / "_measurements.tsv");
  ASSERT_EQ(table.size(), measurements.size());
  const auto& header = table[0];
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  const std::size_t sim = column("simulation"), obs = column("observableId"),
                    cond = column("simulationConditionId"), time = column("time");
  ASSERT_LT(sim, header.size());
  ASSERT_LT(obs, header.size());
  ASSERT_LT(cond, header.size());
  ASSERT_LT(time, header.size());
  EXPECT_EQ(std::find(header.begin(), header.end(), "measurement"), header.end());
  for (std::size_t i = 1; i < table.size(); ++i) {
    EXPECT_EQ(table[i][obs], measurements[i][0]);
    EXPECT_EQ(table[i][cond], measurements[i][1]);
    EXPECT_DOUBLE_EQ(std::stod(table[i][time]), std::stod(measurements[i][2]));
    const double expected = j["simulations"][i - 1].get<double>();
    EXPECT_NEAR(std::stod(table[i][sim]), expected, 1e-15 * (1 + std::abs(expected)));
  }
}

TEST_F(CliPetab, OutWritesTheDocument) {
  TempDir dir;
  const std::string out = dir.path("result.json");
  ToolRun r = run_tool("petab " + yaml_ + " --format json --out " + out);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const nlohmann::json j = nlohmann::json::parse(read_text_file(out));
  EXPECT_NEAR(j["llh"].get<double>(), kLlh0001, 1e-6);

  const std::string text = dir.path("result.txt");
  r = run_tool("petab " + yaml_ + " --out " + text);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_text_file(text).rfind("llh ", 0), 0u);

  r = run_tool("petab " + yaml_ + " --out /nonexistent/dir/x.json");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("/nonexistent/dir/x.json"), std::string::npos) << r.err;
}

// A dataset of the PEtab HDF5 document, read whole.
std::vector<double> petab_h5_doubles(const std::string& file, const char* name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_GE(f, 0) << file;
  const hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  EXPECT_GE(d, 0) << name;
  const hid_t s = H5Dget_space(d);
  std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
  H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(s);
  H5Dclose(d);
  H5Fclose(f);
  return v;
}

double petab_h5_attribute(const std::string& file, const char* name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t a = H5Aopen(f, name, H5P_DEFAULT);
  EXPECT_GE(a, 0) << name;
  double v = NAN;
  H5Aread(a, H5T_NATIVE_DOUBLE, &v);
  H5Aclose(a);
  H5Fclose(f);
  return v;
}

bool petab_h5_has(const std::string& file, const char* name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const bool has = H5Lexists(f, name, H5P_DEFAULT) > 0;
  H5Fclose(f);
  return has;
}

// The HDF5 document holds what the JSON one holds, bit for bit, and more:
// each measurement's sigma and residual.
TEST_F(CliPetab, H5HoldsWhatJsonHolds) {
  TempDir dir;
  const std::string h5 = dir.path("result.h5");
  const nlohmann::json j = json("--gradient --fim");
  ToolRun r = run_tool("petab " + yaml_ + " --gradient --fim --format h5 --out " + h5);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(h5 + ".partial"));
  EXPECT_EQ(petab_h5_attribute(h5, "llh"), j["llh"].get<double>());
  EXPECT_EQ(petab_h5_attribute(h5, "chi2"), j["chi2"].get<double>());
  EXPECT_EQ(petab_h5_doubles(h5, "gradient"), j["gradient"].get<std::vector<double>>());
  std::vector<double> fim;
  for (const auto& row : j["fim"])
    for (const auto& v : row) fim.push_back(v.get<double>());
  EXPECT_EQ(petab_h5_doubles(h5, "fim"), fim);
  EXPECT_EQ(petab_h5_doubles(h5, "simulation"), j["simulations"].get<std::vector<double>>());
  EXPECT_EQ(petab_h5_doubles(h5, "x").size(), 4u);
  const std::vector<double> y = petab_h5_doubles(h5, "measurement");
  const std::vector<double> h = petab_h5_doubles(h5, "simulation");
  const std::vector<double> sigma = petab_h5_doubles(h5, "sigma");
  const std::vector<double> residual = petab_h5_doubles(h5, "residual");
  ASSERT_EQ(y.size(), 2u);
  ASSERT_EQ(residual.size(), 2u);
  for (std::size_t m = 0; m < 2; ++m) {
    EXPECT_EQ(sigma[m], 0.5);  // case 0001's noise
    EXPECT_NEAR(residual[m], (y[m] - h[m]) / sigma[m], 1e-14);
  }
  // Without --gradient and --fim the document has neither.
  r = run_tool("petab " + yaml_ + " --format h5 --out " + h5);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(petab_h5_has(h5, "gradient"));
  EXPECT_FALSE(petab_h5_has(h5, "fim"));
  EXPECT_TRUE(petab_h5_has(h5, "simulation"));
}

// Errors: one line on standard error, the status of odesens --help's table
// (2: the command line or what it names is wrong).
TEST_F(CliPetab, ErrorsExitWithOneLineAndTheirStatus) {
  TempDir dir;
  struct Bad {
    std::string args;
    int status;
    std::string message;
  };
  const Bad bad[] = {
      {"petab " + dir.path("nosuch.yaml"), 2, "nosuch.yaml"},
      {"petab " + yaml_ + " --method nosuch", 2, "unknown method 'nosuch'"},
      {"petab " + yaml_ + " --threads x", 2, "--threads"},
      {"petab " + yaml_ + " --threads -1", 2, "--threads needs a whole number"},
      {"petab " + yaml_ + " --threads 1.5", 2, "--threads needs a whole number"},
      {"petab " + yaml_ + " --rtol abc", 2, "--rtol"},
      {"petab " + yaml_ + " --format xml", 2, "--format"},
      {"petab " + yaml_ + " --format h5", 2, "--format h5 needs --out"},
      {"petab " + yaml_ + " --option nosuch=1", 2,
       "odesens: error: method 'cvodes_fsa' has no option 'nosuch'"},
      {"petab " + yaml_ + " --option sens_error_control=0.5", 2, "needs an integer"},
      {"petab " + yaml_ + " --option linear_solver=nosuch", 2, "linear_solver"},
      {"petab " + yaml_ + " --bogus", 2, "--bogus"},
      {"petab " + yaml_ + " --max-steps 0", 2, "--max-steps needs a positive integer"},
      {"petab " + yaml_ + " --method cvodes_fsa --max-steps 3", 1, "max_steps = 3 steps taken"},
      {"petab " + yaml_ + " --at", 2, "--at needs a value"},
      {"petab", 2, "petab"},
  };
  for (const Bad& b : bad) {
    const ToolRun r = run_tool(b.args);
    EXPECT_EQ(r.status, b.status) << b.args << ": " << r.err;
    EXPECT_EQ(r.out, "") << b.args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << b.args << ": " << r.err;
    EXPECT_EQ(r.err.rfind("odesens: error: ", 0), 0u) << b.args << ": " << r.err;
    EXPECT_NE(r.err.find(b.message), std::string::npos) << b.args << ": " << r.err;
  }
}

// Crauste_CellSystems2017 amplifies its errors: at the default tolerances
// its states are 1e5 times their tolerances off, and the gradient far more
// than its own size (PetabAutomatic.TheStateCheck...). `petab` checks the
// states and says so; --no-state-check leaves the check out, and the
// numbers are the same.
TEST(CliPetabStateCheck, WarnsOfStatesOffByFarMoreThanTheTolerances) {
  const std::string yaml = odesens::test::benchmark_problem("Crauste_CellSystems2017");
  if (!odesens::test::exists(yaml)) GTEST_SKIP() << "PEtab problem not found: " << yaml;
  const ToolRun checked = run_tool("petab " + yaml + " --gradient --format json");
  ASSERT_EQ(checked.status, 0) << checked.err;
  EXPECT_NE(checked.err.find("odesens: warning: condition 'model1_data1': the states differ from "
                             "a state solve at tolerances 10 times tighter"),
            std::string::npos)
      << checked.err;
  const ToolRun unchecked =
      run_tool("petab " + yaml + " --gradient --format json --no-state-check");
  ASSERT_EQ(unchecked.status, 0) << unchecked.err;
  EXPECT_EQ(unchecked.err, "");
  const auto a = nlohmann::json::parse(checked.out), b = nlohmann::json::parse(unchecked.out);
  EXPECT_EQ(a["nllh"], b["nllh"]);
  EXPECT_EQ(a["gradient"], b["gradient"]);
  EXPECT_EQ(a["warnings"].size(), 1u);
}

TEST(CliPetabHelp, HelpListsTheFlags) {
  for (const char* args : {"petab --help", "petab -h", "petab problem.yaml --help"}) {
    const ToolRun r = run_tool(args);
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
    EXPECT_EQ(r.out.rfind("usage: odesens petab PROBLEM.yaml", 0), 0u) << args << ": " << r.out;
    for (const char* flag : {"--at FILE.tsv", "--method ID", "--gradient", "--fim", "--threads N",
                             "--simulations FILE.tsv", "--format text|json|h5", "--out FILE",
                             "--no-state-check"})
      EXPECT_NE(r.out.find(flag), std::string::npos) << args << ": " << flag;
  }
}

}  // namespace
