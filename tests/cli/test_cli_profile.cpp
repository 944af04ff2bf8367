// `odesens profile` and the pictures of `fit --plot` and `profile --plot`,
// run as a user would on a small problem with a known optimum: intervals on
// standard output, the JSON document, PNG files, and the refusals of a
// wrong command line.
#include <gtest/gtest.h>

#include "cli/tool_run.hpp"
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "estimate/petab_test_support.hpp"
#include "estimate/synthetic_petab_problem.hpp"

namespace {

using odesens::test::ToolRun;
using odesens::test::run_tool;

// A PNG of some size: the signature and more than a blank picture's bytes.
bool is_png(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(8, '\0');
  in.read(head.data(), 8);
  struct stat s;
  return head == "\x89PNG\r\n\x1a\n" && ::stat(path.c_str(), &s) == 0 && s.st_size > 5000;
}

// Profiles from the optimum of exact data (log10 k1 = log10 0.3, scale 2):
// closed intervals around it, in the text and in the JSON document.
TEST(CliProfile, PrintsClosedIntervalsAroundTheOptimumAndWritesTheirPoints) {
  odesens::test::SyntheticOptions so;
  so.perturbation = 0.05;
  odesens::test::SyntheticProblem p(so);
  {
    std::ofstream at(p.path("at.tsv"));
    at << "parameterId\tvalue\nk1\t0.3\nscale\t2\n";
  }
  const std::string json = p.path("profiles.json");
  const ToolRun r = run_tool("profile " + p.yaml() + " --from " + p.path("at.tsv") +
                             " --threads 2 --out " + json);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("k1\t"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("open"), std::string::npos) << r.out;
  std::ifstream in(json);
  const nlohmann::json doc = nlohmann::json::parse(in);
  ASSERT_EQ(doc["profiles"].size(), 2u);
  for (const auto& profile : doc["profiles"]) {
    EXPECT_EQ(profile["lower_end"], "crossed");
    EXPECT_EQ(profile["upper_end"], "crossed");
    EXPECT_LT(profile["lower"].get<double>(), profile["start"].get<double>());
    EXPECT_GT(profile["upper"].get<double>(), profile["start"].get<double>());
    EXPECT_GE(profile["points"].size(), 3u);
  }
}

// Sides whose re-optimizations fail say why (120 steps evaluate Boehm's
// start, not its gradient): the reason was dropped, and intervals collapsed
// onto the start came with exit status 0.
TEST(CliProfile, FailedSidesSayWhyAndAllFailingIsAnError) {
  const std::string problem = odesens::test::benchmark_problem("Boehm_JProteomeRes2014");
  if (!odesens::test::exists(problem)) GTEST_SKIP() << "shared problem not found: " << problem;
  const std::string command =
      "profile " + problem + " --threads 2 --max-steps 120 --parameters k_phos";
  const ToolRun r = run_tool(command);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("every side failed at its first value"), std::string::npos) << r.err;
  for (const char* side : {"k_phos: the lower side failed at ", "k_phos: the upper side failed at "})
    EXPECT_NE(r.out.find(side), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("max_steps = 120"), std::string::npos) << r.out;
  const ToolRun j = run_tool(command + " --format json");
  EXPECT_EQ(j.status, 1) << j.err;
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  const auto& p = doc["profiles"].at(0);
  EXPECT_EQ(p["lower_end"], "failed");
  EXPECT_NE(p["lower_failure"].get<std::string>().find("max_steps = 120"), std::string::npos);
  EXPECT_NE(p["upper_failure"].get<std::string>().find("max_steps = 120"), std::string::npos);
}

TEST(CliProfile, ParametersChoosesTheProfilesAndPlotDrawsThem) {
  odesens::test::SyntheticProblem p;
  const std::string dir = p.path("pictures");
  const ToolRun r = run_tool("profile " + p.yaml() + " --parameters scale --format json --plot " + dir);
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["profiles"].size(), 1u);
  EXPECT_EQ(doc["profiles"][0]["parameter"], "scale");
  EXPECT_TRUE(is_png(dir + "/profiles_1.png"));
}

// Repeated, the lists add up: each --parameters adds its names.
TEST(CliProfile, RepeatedParametersAddUp) {
  odesens::test::SyntheticProblem p;
  const ToolRun r =
      run_tool("profile " + p.yaml() + " --parameters scale --parameters k1 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["profiles"].size(), 2u);
  EXPECT_EQ(doc["profiles"][0]["parameter"], "scale");
  EXPECT_EQ(doc["profiles"][1]["parameter"], "k1");
}

TEST(CliProfile, FitPlotDrawsTheWaterfallAndTheParameters) {
  odesens::test::SyntheticProblem p;
  const std::string dir = p.path("fit pictures");  // a space in the name
  const ToolRun r = run_tool("fit " + p.yaml() + " --starts 4 --seed 2 --plot '" + dir + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(is_png(dir + "/waterfall.png"));
  EXPECT_TRUE(is_png(dir + "/parameters.png"));
}

// A picture renamed over a pipe (or a device) of its name took its place.
TEST(CliProfile, APipeNamedAsAPictureIsLeftAlone) {
  odesens::test::SyntheticProblem p;
  const std::string dir = p.path("pipes");
  std::filesystem::create_directories(dir);
  ASSERT_EQ(::mkfifo((dir + "/waterfall.png").c_str(), 0600), 0);
  const ToolRun r = run_tool("fit " + p.yaml() + " --starts 2 --seed 2 --plot " + dir);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat((dir + "/waterfall.png").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(CliProfile, WrongCommandLinesExitTwoWithOneLine) {
  odesens::test::SyntheticProblem p;
  for (const std::string& args :
       {std::string("profile"), "profile " + p.yaml() + " --parameters nope",
        "profile " + p.yaml() + " --confidence 1.5", "profile " + p.yaml() + " --max-points 0",
        "profile " + p.yaml() + " --threads -1", "profile " + p.yaml() + " --optimizer newton",
        "profile " + p.yaml() + " --parameters k1,k1",
        "profile " + p.yaml() + " --parameters k1 --parameters k1",
        "profile " + p.yaml() + " --parameters k1 --parameters all",
        "profile " + p.yaml() + " --parameters all,k1"}) {
    SCOPED_TRACE(args);
    const ToolRun r = run_tool(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(CliProfile, APlotFolderThatIsAFileIsAnErrorAndNothingIsLeftBehind) {
  odesens::test::SyntheticProblem p;
  const std::string file = p.path("not_a_folder");
  std::ofstream(file) << "x";
  const ToolRun r = run_tool("profile " + p.yaml() + " --parameters k1 --plot " + file);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("not_a_folder"), std::string::npos) << r.err;
}

}  // namespace
