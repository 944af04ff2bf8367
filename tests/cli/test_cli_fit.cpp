// `odesens fit`, run as a user would on a small problem with a known
// optimum: the waterfall, the HDF5 document, --best read back by
// `odesens petab --at`, and the refusals of a wrong command line.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/tool_run.hpp"
#include "estimate/block_petab_problem.hpp"
#include "estimate/petab_test_support.hpp"
#include "estimate/synthetic_petab_problem.hpp"

namespace {

using odesens::test::ToolRun;
using odesens::test::run_tool;

std::vector<double> read_doubles(const std::string& file, const char* name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  const hid_t s = H5Dget_space(d);
  std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
  H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(s);
  H5Dclose(d);
  H5Fclose(f);
  return v;
}

TEST(CliFit, WritesTheStartsAndABestTableThatPetabReadsBack) {
  odesens::test::SyntheticProblem p;
  const std::string h5 = p.path("fit.h5"), best = p.path("best.tsv");
  const ToolRun r = run_tool("fit " + p.yaml() + " --starts 3 --threads 2 --seed 5 --out " +
                                 h5 + " --best " + best + " --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["starts"].size(), 3u);
  const double value = j["starts"][0]["nlpost"];
  const std::vector<double> nlpost = read_doubles(h5, "nlpost");
  ASSERT_EQ(nlpost.size(), 3u);
  EXPECT_EQ(nlpost[0], value);
  EXPECT_EQ(read_doubles(h5, "end").size(), 6u);
  const ToolRun back = run_tool("petab " + p.yaml() + " --at " + best + " --format json");
  ASSERT_EQ(back.status, 0) << back.err;
  EXPECT_NEAR(nlohmann::json::parse(back.out)["nllh"].get<double>(), value, 1e-8);
}

// A --best table given to --starts-from is one start at its point: a fit
// cut short goes on from where it stopped (the table's parameterId rows were
// refused as unknown column names).
TEST(CliFit, ABestTableIsOneStartToGoOnFrom) {
  odesens::test::SyntheticProblem p;
  const std::string best = p.path("best.tsv");
  const ToolRun cut = run_tool("fit " + p.yaml() + " --starts 1 --seed 3 --max-iterations 1 " +
                               "--optimizer ceres_lm --format json --best " + best);
  ASSERT_EQ(cut.status, 0) << cut.err;
  const auto first = nlohmann::json::parse(cut.out)["starts"][0];
  const ToolRun on = run_tool("fit " + p.yaml() + " --starts-from " + best + " --format json");
  ASSERT_EQ(on.status, 0) << on.err;
  const auto starts = nlohmann::json::parse(on.out)["starts"];
  ASSERT_EQ(starts.size(), 1u);
  for (std::size_t i = 0; i < first["end"].size(); ++i)
    EXPECT_NEAR(starts[0]["start"][i].get<double>(), first["end"][i].get<double>(), 1e-12) << i;
  EXPECT_LT(starts[0]["nlpost"].get<double>(), first["nlpost"].get<double>() - 1e-3);
  std::ofstream(p.path("unknown.tsv")) << "parameterId\tvalue\nk9\t0.5\n";
  const ToolRun unknown = run_tool("fit " + p.yaml() + " --starts-from " + p.path("unknown.tsv"));
  EXPECT_NE(unknown.status, 0);
  EXPECT_NE(unknown.err.find("unknown.tsv:2: 'k9' is not an estimated parameter"),
            std::string::npos)
      << unknown.err;
}

// L-BFGS-B writes to Fortran's standard output whatever its print level
// (" ascent direction in projection gd = ..."); on Perelson_Science1996 one
// of these starts meets it, and the line ended up after the JSON document.
TEST(CliFit, LbfgsbLeavesStandardOutputToTheDocument) {
  const std::string problem = odesens::test::benchmark_problem("Perelson_Science1996");
  if (!std::filesystem::exists(problem)) GTEST_SKIP() << "shared problem not found: " << problem;
  const ToolRun r = run_tool("fit " + problem + " --optimizer lbfgsb --starts 10 --seed 1 " +
                             "--threads 2 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("ascent direction"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["optimizer"], "lbfgsb");
  EXPECT_EQ(j["starts"].size(), 10u);
}

TEST(CliFit, TextIsTheWaterfall) {
  odesens::test::SyntheticProblem p;
  const ToolRun r = run_tool("fit " + p.yaml() + " --starts 2 --optimizer nlopt_lbfgs");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("optimizer nlopt_lbfgs, 2 of 2 starts"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("starts within 0.1"), std::string::npos) << r.out;
}

// An integer attribute of the document's root.
long long read_attribute(const std::string& h5, const char* name) {
  const hid_t f = H5Fopen(h5.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t a = H5Aopen(f, name, H5P_DEFAULT);
  long long value = -1;
  H5Aread(a, H5T_NATIVE_LLONG, &value);
  H5Aclose(a);
  H5Fclose(f);
  return value;
}

// --hops: the text says which rows are the hops', and the document has
// each row's round and the settings.
TEST(CliFit, HopsAreSaidInTheTextAndTheDocument) {
  odesens::test::SyntheticProblem p;
  const std::string h5 = p.path("hops.h5");
  const ToolRun r = run_tool("fit " + p.yaml() + " --starts 2 --hops 2 --hop-starts 3 " +
                             "--hop-sigma 0.25 --threads 2 --out " + h5);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("optimizer ceres_lm_lbfgs, 8 of 8 starts\nhops: 2 rounds of 3 starts "
                       "around the best so far (sigma 0.25, a parameter without effect at the "
                       "center from its range); start indices from 2 are theirs"),
            std::string::npos)
      << r.out;
  std::vector<double> rounds = read_doubles(h5, "round");
  std::sort(rounds.begin(), rounds.end());
  EXPECT_EQ(rounds, (std::vector<double>{0, 0, 1, 1, 1, 2, 2, 2}));
  const hid_t f = H5Fopen(h5.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t a = H5Aopen(f, "hop_sigma", H5P_DEFAULT);
  double sigma = 0;
  H5Aread(a, H5T_NATIVE_DOUBLE, &sigma);
  H5Aclose(a);
  H5Fclose(f);
  EXPECT_EQ(sigma, 0.25);
  EXPECT_EQ(read_attribute(h5, "hop_flat_from_box"), 1);
  const ToolRun local = run_tool("fit " + p.yaml() + " --starts 2 --hops 1 --hop-flat local " +
                                 "--out " + h5);
  ASSERT_EQ(local.status, 0) << local.err;
  EXPECT_NE(local.out.find("hops: 1 rounds of 8 starts around the best so far (sigma 0.5); "),
            std::string::npos)
      << local.out;
  EXPECT_EQ(read_attribute(h5, "hop_flat_from_box"), 0);
}

// Two experiments with parameters of their own (BlockProblem): the hops'
// line says the blocks, the documents have the setting and the count.
TEST(CliFit, HopBlocksAreSaid) {
  odesens::test::BlockProblem p;
  const std::string h5 = p.dir() + "/fit.h5";
  const std::string fit = "fit " + p.yaml() + " --starts 2 --hops 1 --hop-starts 2 ";
  const ToolRun r = run_tool(fit + "--out " + h5);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("hops: 1 rounds of 2 starts around the best so far (sigma 0.5, a "
                       "parameter without effect at the center from its range, every second "
                       "point one of the 2 blocks redrawn alone); "),
            std::string::npos)
      << r.out;
  EXPECT_EQ(read_attribute(h5, "hop_blocks"), 1);
  EXPECT_EQ(read_attribute(h5, "hop_block_count"), 2);
  // The round's second point redraws a block: its row of `redrawn` (4
  // starts x 6 parameters) is c1's or c2's block, every other row 0.
  const std::vector<double> round = read_doubles(h5, "round");
  const std::vector<double> redrawn = read_doubles(h5, "redrawn");
  ASSERT_EQ(redrawn.size(), 4u * 6u);
  const std::vector<double> c2 = {0, 1, 0, 0, 0, 1}, c1 = {0, 0, 1, 0, 1, 0};
  int block_rows = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    const std::vector<double> row(redrawn.begin() + 6 * k, redrawn.begin() + 6 * (k + 1));
    if (row == c2 || row == c1) {
      ++block_rows;
      EXPECT_EQ(round.at(k), 1.0) << k;
    } else {
      EXPECT_EQ(row, std::vector<double>(6, 0.0)) << k;
    }
  }
  EXPECT_EQ(block_rows, 1);
  const ToolRun off = run_tool(fit + "--hop-blocks off --out " + h5);
  ASSERT_EQ(off.status, 0) << off.err;
  EXPECT_EQ(off.out.find("blocks"), std::string::npos) << off.out;
  EXPECT_EQ(read_attribute(h5, "hop_blocks"), 0);
  EXPECT_EQ(read_attribute(h5, "hop_block_count"), 0);
  const ToolRun json = run_tool(fit + "--hop-blocks on --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["hop_blocks"], true);
  EXPECT_EQ(j["hop_block_count"], 2);
  int said = 0;
  for (const auto& s : j["starts"]) {
    if (s["redrawn"].empty()) continue;
    ++said;
    EXPECT_EQ(s["round"], 1);
    EXPECT_TRUE(s["redrawn"] == nlohmann::json({"offset_c2", "w_c2"}) ||
                s["redrawn"] == nlohmann::json({"sd_c1", "w_c1"}))
        << s["redrawn"];
  }
  EXPECT_EQ(said, 1);
}

// A start past the data of the lagged decay: the best point leaves k1 and
// lag without effect, which the text warns of and the documents list.
TEST(CliFit, ParametersWithoutEffectAtTheBestAreSaid) {
  odesens::test::SyntheticOptions lagged;
  lagged.lag = true;
  odesens::test::SyntheticProblem p(lagged);
  const std::string starts = p.path("start.tsv"), h5 = p.path("fit.h5");
  std::ofstream(starts) << "k1\tscale\tlag\n1\t1\t20\n";
  const ToolRun r = run_tool("fit " + p.yaml() + " --starts-from " + starts + " --out " + h5);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("warning: at the best point nlpost does not depend on 2 parameters "
                       "(gradient exactly 0: the data do not determine them there): k1 lag\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(read_doubles(h5, "flat_at_best"), (std::vector<double>{1, 0, 1}));
  const ToolRun json = run_tool("fit " + p.yaml() + " --starts-from " + starts +
                                " --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out)["flat_at_best"],
            nlohmann::json(std::vector<std::string>{"k1", "lag"}))
      << json.out;
}

TEST(CliFit, WrongCommandLinesAreRefused) {
  odesens::test::SyntheticProblem p;
  for (const char* args : {"--starts 0", "--starts x", "--starts 2.5", "--threads -1",
                                 "--optimizer newton --starts 2", "",
                                 "--starts 2 --max-seconds-per-start 0",
                                 // before any start (each start failed with it)
                                 "--starts 2 --method bounds_fsa", "--starts 2 --method zzz",
                                 "--starts 2 --rtol 0", "--starts 2 --rtol 1e-30",
                                 "--starts 2 --atol -1", "--starts 2 --hops -1",
                                 "--starts 2 --hops 1.5", "--starts 2 --hops 10001",
                                 "--starts 2 --hops 1 --hop-starts 0",
                                 "--starts 2 --hops 1 --hop-sigma 0",
                                 "--starts 2 --hops 1 --hop-sigma nan",
                                 "--starts 2 --hops 1 --hop-sigma inf",
                                 "--starts 2 --hops 1 --hop-sigma 101",
                                 "--starts 2 --hops 1 --hop-flat wide",
                                 "--starts 2 --hops 1 --hop-blocks yes",
                                 "--starts 2 --hop-blocks off",
                                 "--starts 2 --hop-starts 4", "--starts 2 --hop-sigma 1",
                                 "--starts 2 --hop-flat local"}) {
    const ToolRun r = run_tool("fit " + p.yaml() + " " + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find("odesens: error:"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << args;  // no waterfall of failed starts
  }
  // The limit is said, not only the lower bound the value exceeds.
  const ToolRun huge = run_tool("fit " + p.yaml() + " --starts 1 --max-iterations 1e14");
  EXPECT_EQ(huge.status, 2) << huge.err;
  EXPECT_NE(huge.err.find("--max-iterations needs a whole number from 1 to 1e12, got '1e14'"),
            std::string::npos)
      << huge.err;
  const ToolRun missing = run_tool("fit /nonexistent/problem.yaml --starts 2");
  EXPECT_NE(missing.status, 0);
  EXPECT_NE(missing.err.find("/nonexistent/problem.yaml"), std::string::npos) << missing.err;
  const ToolRun help = run_tool("fit --help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--starts-from"), std::string::npos);
}

// An observable that divides by zero: every row's term is infinite. The
// evaluation says which rows (it returned -inf with exit 0 and no word),
// and a profile, which compares every point with the start's value,
// refuses to begin (it listed every interval "open: failed" with exit 0).
TEST(CliFit, NonFiniteLikelihoodsAreSaidAndProfilesRefuseThem) {
  odesens::test::SyntheticProblem p;
  std::ofstream(p.path("observables.tsv"), std::ios::binary)
      << "observableId\tobservableFormula\tnoiseFormula\tnoiseDistribution\n"
         "obs\tscale * A / 0\tsd\tnormal\n";
  const ToolRun petab = run_tool("petab " + p.yaml());
  EXPECT_EQ(petab.status, 0) << petab.err;
  EXPECT_NE(petab.err.find("measurements.tsv:2: the term of the likelihood is inf"),
            std::string::npos)
      << petab.err;
  EXPECT_NE(petab.err.find("further measurement rows"), std::string::npos) << petab.err;
  const ToolRun profile = run_tool("profile " + p.yaml() + " --max-points 2");
  EXPECT_NE(profile.status, 0);
  EXPECT_NE(profile.err.find("nlpost at the starting point is inf"), std::string::npos)
      << profile.err;
  // The start fails, said in its row; Ceres' own log lines stay out of it.
  const ToolRun fit = run_tool("fit " + p.yaml() + " --starts 1");
  EXPECT_EQ(fit.status, 1) << fit.err;
  EXPECT_NE(fit.out.find("the likelihood at the start point is not finite: "), std::string::npos)
      << fit.out;
  EXPECT_EQ(fit.err.find("trust_region_minimizer"), std::string::npos) << fit.err;
  EXPECT_EQ(fit.err.find("InitGoogleLogging"), std::string::npos) << fit.err;
}

// --starts-from rows must match its header (a short row started the rest at
// nominal values unsaid); --out and --best may not be one file (the table
// overwrote the HDF5 document).
TEST(CliFit, MalformedStartTablesAndOneFileForTwoOutputsAreRefused) {
  odesens::test::SyntheticProblem p;
  std::ofstream(p.path("short.tsv")) << "k1\tscale\n0.5\n";
  std::ofstream(p.path("twice.tsv")) << "k1\tk1\n0.5\t0.6\n";
  std::ofstream(p.path("empty.tsv")) << "k1\tscale\n0.5\t\n";
  const ToolRun shorter = run_tool("fit " + p.yaml() + " --starts-from " + p.path("short.tsv"));
  EXPECT_NE(shorter.status, 0);
  EXPECT_NE(shorter.err.find("short.tsv:2: 1 cell, but the header (line 1) has 2"), std::string::npos)
      << shorter.err;
  const ToolRun twice = run_tool("fit " + p.yaml() + " --starts-from " + p.path("twice.tsv"));
  EXPECT_NE(twice.status, 0);
  EXPECT_NE(twice.err.find("estimated parameter 'k1' appears twice"), std::string::npos) << twice.err;
  const ToolRun empty = run_tool("fit " + p.yaml() + " --starts-from " + p.path("empty.tsv"));
  EXPECT_NE(empty.status, 0);
  EXPECT_NE(empty.err.find("column 2 (scale) is empty"), std::string::npos) << empty.err;
  std::ofstream(p.path("two.tsv")) << "k1\tscale\n0.5\t1\n0.6\t1\n";
  const ToolRun both =
      run_tool("fit " + p.yaml() + " --starts 5 --starts-from " + p.path("two.tsv"));
  EXPECT_EQ(both.status, 2) << both.err;
  EXPECT_NE(both.err.find("--starts and --starts-from both given"), std::string::npos) << both.err;
  const ToolRun same = run_tool("fit " + p.yaml() + " --starts 1 --out " + p.path("r") +
                                " --best " + p.path("r"));
  EXPECT_EQ(same.status, 2) << same.err;
  EXPECT_NE(same.err.find("name the same file"), std::string::npos) << same.err;
  // Tables of one point: a column named twice (which one is meant?) and a
  // table that gives no value (it ran from the nominal values) are refused.
  const std::pair<const char*, const char*> points[] = {
      {"parameterId\tvalue\tvalue\nk1\t0.5\t0.6\n", "the column value appears more than once"},
      {"parameterId\tparameterId\tvalue\nk1\tscale\t0.5\n",
       "the column parameterId appears more than once"},
      {"parameterId\tvalue\n", "no row gives an estimated parameter's value"}};
  for (const auto& [text, message] : points) {
    std::ofstream(p.path("point.tsv")) << text;
    for (const std::string& command : {"fit " + p.yaml() + " --starts-from ",
                                      "petab " + p.yaml() + " --at "}) {
      const ToolRun r = run_tool(command + p.path("point.tsv"));
      EXPECT_EQ(r.status, 2) << command << text << ": " << r.err;
      EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    }
  }
}

// --starts-from goes through the shared table reader: a FIFO ran without
// end (and /dev/zero filled the memory), a folder read as "no starts".
TEST(CliFit, StartTablesThatAreNotRegularFilesAreRefused) {
  odesens::test::SyntheticProblem p;
  const std::string fifo = p.path("starts.tsv");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::filesystem::create_directory(p.path("folder.tsv"));
  for (const std::string& table : {fifo, p.path("folder.tsv")}) {
    const ToolRun r = run_tool("fit " + p.yaml() + " --starts-from " + table);
    EXPECT_NE(r.status, 0) << table;
    EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  }
  std::ofstream(p.path("log.tsv")) << "k1\n-1\n";  // k1 is on log10
  const ToolRun negative = run_tool("fit " + p.yaml() + " --starts-from " + p.path("log.tsv"));
  EXPECT_NE(negative.status, 0);
  EXPECT_NE(negative.err.find("'k1' is -1, not a positive finite number (its scale is log10)"),
            std::string::npos)
      << negative.err;
}

// Outputs that would replace the problem's own files, or each other under
// another spelling, are refused before any work (the measurement table was
// replaced by simulations; ./same.h5 and same.h5 passed as two files).
TEST(CliFit, OutputsThatWouldReplaceInputsOrEachOtherAreRefused) {
  odesens::test::SyntheticProblem p;
  const std::string measurements = p.path("measurements.tsv");
  const std::string before = odesens::test::read_text_file(measurements);
  for (const std::string& command :
       {"petab " + p.yaml() + " --simulations " + measurements,
        "petab " + p.yaml() + " --format json --out " + p.yaml(),
        "fit " + p.yaml() + " --starts 1 --best " + p.path("parameters.tsv"),
        "profile " + p.yaml() + " --out " + p.path("./model.xml"),
        "fit " + p.yaml() + " --starts-from " + p.path("starts.tsv") + " --best " +
            p.path("starts.tsv"),
        "petab " + p.yaml() + " --at " + p.path("starts.tsv") + " --simulations " +
            p.path("starts.tsv")}) {
    std::ofstream(p.path("starts.tsv")) << "k1\n0.5\n";
    const ToolRun r = run_tool(command);
    EXPECT_EQ(r.status, 2) << command << ": " << r.err;
    EXPECT_NE(r.err.find("is a file of the problem"), std::string::npos) << r.err;
  }
  EXPECT_EQ(odesens::test::read_text_file(measurements), before);
  // A visualization table the problem lists, though odesens does not read it.
  std::ofstream(p.path("with_plots.yaml"))
      << odesens::test::read_text_file(p.yaml()) << "  visualization_files: [plots.tsv]\n";
  std::ofstream(p.path("plots.tsv")) << "plotId\tyValues\n";
  for (const char* flag : {"--out", "--best"}) {
    const ToolRun r = run_tool("fit " + p.path("with_plots.yaml") + " --starts 1 " + flag + " " +
                               p.path("plots.tsv"));
    EXPECT_EQ(r.status, 2) << flag << ": " << r.err;
    EXPECT_NE(r.err.find("is a file of the problem"), std::string::npos) << r.err;
  }
  EXPECT_EQ(odesens::test::read_text_file(p.path("plots.tsv")), "plotId\tyValues\n");
  const std::string dir = p.path("");
  const ToolRun same = odesens::test::run_shell("cd " + dir + " && " + ODESENS_CLI_PATH + " fit " +
                                                p.yaml() + " --starts 1 --out same.h5 --best ./same.h5");
  EXPECT_EQ(same.status, 2) << same.err;
  EXPECT_NE(same.err.find("name the same file"), std::string::npos) << same.err;
}

// An HDF5 --out that is not a regular file, and a --plot folder that lies
// under a file, are refused before any start (they were found after the
// fit, its hours lost but for standard output).
TEST(CliFit, OutputsThatCannotBeWrittenAreRefusedBeforeAnyStart) {
  odesens::test::SyntheticProblem p;
  std::ofstream(p.path("file")) << "a file\n";
  const std::pair<std::string, std::string> refused[] = {
      {"fit " + p.yaml() + " --starts 1 --out /dev/null", "'/dev/null' is not a regular file"},
      {"fit " + p.yaml() + " --starts 1 --plot " + p.path("file/sub"),
       "cannot be made: '" + p.path("file") + "' is a file, not a folder"},
      {"profile " + p.yaml() + " --plot " + p.path("file/sub/deeper"), "is a file, not a folder"},
      // a folder that access() says root may make, but that cannot be made
      {"fit " + p.yaml() + " --starts 1 --plot /proc/odesens_plots",
       "--plot '/proc/odesens_plots' cannot be made in '/proc'"},
      // a picture's name taken by a folder in the --plot folder
      {"fit " + p.yaml() + " --starts 1 --plot " + p.path("pictures"),
       "cannot write --plot '" + p.path("pictures") + "/parameters.png': it is a directory"},
      {"profile " + p.yaml() + " --plot " + p.path("pictures"),
       "cannot write --plot '" + p.path("pictures") + "/profiles_1.png': it is a directory"},
      {"petab " + p.yaml() + " --format h5 --out /dev/null", "is not a regular file"},
      // what a killed write of the same document left (it was refused
      // only after every start had run, and the document was lost)
      {"fit " + p.yaml() + " --starts 1 --out " + p.path("left.h5"),
       "left.h5.partial' is left from an earlier run"},
      {"petab " + p.yaml() + " --format h5 --out " + p.path("left.h5"),
       "left.h5.partial' is left from an earlier run"}};
  std::ofstream(p.path("left.h5.partial")) << "what a killed run wrote\n";
  std::filesystem::create_directories(p.path("pictures/parameters.png"));
  std::filesystem::create_directories(p.path("pictures/profiles_1.png"));
  // not a regular file: refused, without waiting for a writer of the FIFO
  ASSERT_EQ(::mkfifo(p.path("fifo.h5.partial").c_str(), 0600), 0);
  const ToolRun fifo = run_tool("fit " + p.yaml() + " --starts 1 --out " + p.path("fifo.h5"));
  EXPECT_NE(fifo.status, 0);
  EXPECT_NE(fifo.err.find("fifo.h5.partial', where the document is written"), std::string::npos)
      << fifo.err;
  for (const auto& [command, message] : refused) {
    const ToolRun r = run_tool(command);
    EXPECT_NE(r.status, 0) << command;
    EXPECT_EQ(r.out, "") << command << ": the work was done first";
    EXPECT_NE(r.err.find(message), std::string::npos) << command << ": " << r.err;
  }
}

// Ctrl-C ends the fit after the starts in progress, with the waterfall of
// those done, and says what a second one would do (it named a .partial
// file, which a fit does not write).
// A bash script that runs COMMAND in the background, waits until it
// catches SIGINT (bit 2 of SigCgt in /proc: its handler is installed, the
// problem loaded), runs BEFORE_SIGNAL, and a second later sends SIGINT.
// A fixed delay could come before the handler on a loaded machine, and end
// the tool by the default action instead. bash with job control (set -m):
// a shell without it starts `&` commands with SIGINT ignored, which the
// tool keeps ignoring (as under nohup).
std::string interrupting_script(const std::string& command, const std::string& before_signal) {
  return "set -m\n" + command + " &\n" +
         "pid=$!\n"
         "for i in $(seq 1200); do\n"
         "  m=$(awk '/^SigCgt/ {print $2}' /proc/$pid/status 2>/dev/null)\n"
         "  [ -n \"$m\" ] && [ $((0x$m & 2)) -ne 0 ] && break\n"
         "  sleep 0.05\n"
         "done\n" +
         before_signal +
         "sleep 1\n"
         "kill -INT $pid\n"
         "wait $pid\n";
}

TEST(CliFit, CtrlCKeepsTheStartsDone) {
  odesens::test::SyntheticProblem p;
  std::ofstream(p.path("interrupt.sh"))
      << interrupting_script(ODESENS_CLI_PATH + std::string(" fit ") + p.yaml() +
                             " --starts 100000", "");
  const ToolRun r = odesens::test::run_shell("bash " + p.path("interrupt.sh"));
  EXPECT_EQ(r.status, 128 + SIGINT) << r.err;
  EXPECT_NE(r.out.find(" of 100000 starts (stopped)"), std::string::npos) << r.out.substr(0, 200);
  EXPECT_NE(r.err.find("(again to stop at once, without the results of the starts done)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find(".partial"), std::string::npos) << r.err;
}

// An output that cannot be written at the end (here a stale .partial that
// appeared during the fit, after the checks before it) is said, and the
// others are still written: --best was lost with --out.
TEST(CliFit, AnOutputThatFailsAtTheEndLeavesTheOthersWritten) {
  odesens::test::SyntheticProblem p;
  const std::string h5 = p.path("fit.h5"), best = p.path("best.tsv");
  std::ofstream(p.path("stale.sh"))
      << interrupting_script(ODESENS_CLI_PATH + std::string(" fit ") + p.yaml() +
                                 " --starts 100000 --out " + h5 + " --best " + best +
                                 " > /dev/null",
                             "echo stale > " + h5 + ".partial\n");
  const ToolRun r = odesens::test::run_shell("bash " + p.path("stale.sh"));
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("fit: --out was not written: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is left from an earlier run"), std::string::npos) << r.err;
  EXPECT_NE(odesens::test::read_text_file(best).find("parameterId"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(h5));
}

// --max-steps reaches every simulation of the starts (the messages said
// "raise max_steps" where the fit had no flag for it).
TEST(CliFit, MaxStepsLimitsTheSimulations) {
  odesens::test::SyntheticProblem p;
  const ToolRun r =
      run_tool("fit " + p.yaml() + " --starts 2 --method cvodes_fsa --max-steps 2");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("max_steps = 2 steps taken"), std::string::npos) << r.out;
  const ToolRun enough = run_tool("fit " + p.yaml() + " --starts 2 --max-steps 100000");
  EXPECT_EQ(enough.status, 0) << enough.err;
}

// --option reaches every simulation of the starts, as with odesens petab
// (the fit had no such flag: the adjoint's backward tolerances, which set
// most of a gradient's cost on Lang_PLOSComputBiol2024, could not be given).
TEST(CliFit, MethodOptionsReachTheSimulations) {
  odesens::test::SyntheticProblem p;
  const std::string fit = "fit " + p.yaml() + " --starts 1 --seed 3 --method cvodes_fsa";
  const ToolRun bdf = run_tool(fit + " --format json");
  const ToolRun adams = run_tool(fit + " --option lmm=adams --format json");
  ASSERT_EQ(bdf.status, 0) << bdf.err;
  ASSERT_EQ(adams.status, 0) << adams.err;
  // The same optimum, where another integrator's error moves the end point.
  const std::vector<double> a = nlohmann::json::parse(bdf.out)["starts"][0]["end"];
  const std::vector<double> b = nlohmann::json::parse(adams.out)["starts"][0]["end"];
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_NE(a, b);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(a[i], b[i], 1e-5) << i;
  for (const std::string& wrong : {fit + " --option nonsense=1", fit + " --option lmm=euler",
                                   "fit " + p.yaml() + " --starts 1 --option rtol_adjoint=1e-4",
                                   "profile " + p.yaml() + " --option lmm=euler"}) {
    SCOPED_TRACE(wrong);
    const ToolRun r = run_tool(wrong);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("option"), std::string::npos) << r.err;
  }
}

// No start ended with a finite objective: said on standard error, status 1,
// and --best left as it was.
TEST(CliFit, NoStartThatSucceededIsAnErrorOnStandardError) {
  odesens::test::SyntheticOptions o;
  o.sd = 0.0;
  odesens::test::SyntheticProblem p(o);
  std::ofstream(p.path("best.tsv")) << "old\n";
  const ToolRun r = run_tool("fit " + p.yaml() + " --starts 2 --best " + p.path("best.tsv"));
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("no start succeeded with a finite objective"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--best and --plot were not written"), std::string::npos) << r.err;
  EXPECT_EQ(odesens::test::read_text_file(p.path("best.tsv")), "old\n");
}

// Each start is one row of the text table, whatever its exit reason holds:
// a failed pre-equilibration's reason lists each way it tried, a line each,
// which broke the row into several.
TEST(CliFit, AMultiLineExitReasonStaysOneRow) {
  odesens::test::SyntheticProblem p;
  std::string model = odesens::test::read_text_file(p.path("model.xml"));
  // A' = k1: no steady state, so every pre-equilibration fails.
  const std::string decay = "<apply><times/><ci> cell </ci><ci> k1 </ci><ci> A </ci></apply>";
  const std::size_t at = model.find(decay);
  ASSERT_NE(at, std::string::npos);
  model.replace(at, decay.size(), "<ci> k1 </ci>");
  std::ofstream(p.path("model.xml")) << model;
  std::ofstream(p.path("measurements.tsv"))
      << "observableId\tpreequilibrationConditionId\tsimulationConditionId\ttime\tmeasurement\n"
         "obs\tc0\tc0\t1\t1.5\nobs\tc0\tc0\t2\t2\n";
  const ToolRun r = run_tool("fit " + p.yaml() + " --starts 2");
  EXPECT_EQ(r.status, 1) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::size_t rows = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("1\t", 0) != 0 && line.rfind("2\t", 0) != 0) continue;
    ++rows;
    EXPECT_NE(line.find("no steady state found from the initial state: newton"),
              std::string::npos) << line;
    EXPECT_NE(line.find("; integration of x alone"), std::string::npos) << line;
  }
  EXPECT_EQ(rows, 2u) << r.out;
  EXPECT_EQ(r.out.find("\n  "), std::string::npos) << r.out;
}

// A repeated flag overrides the earlier one (it failed with "2 needs a value").
TEST(CliFit, ARepeatedFlagOverrides) {
  odesens::test::SyntheticProblem p;
  const ToolRun r = run_tool("fit " + p.yaml() + " --starts 1 --starts 2 --threads 1 --threads 2");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("2 of 2 starts"), std::string::npos) << r.out;
}

// An empty path (an unset shell variable) is refused, not taken as "not
// given"; a start count whose table would not fit in memory is refused
// before anything is drawn; a profile's --out that cannot be written is
// said before the work.
TEST(CliFit, EmptyPathsHugeStartCountsAndUnwritableOutputsAreRefusedAtOnce) {
  odesens::test::SyntheticProblem p;
  for (const std::string& command :
       {"fit " + p.yaml() + " --starts 1 --best ''", "fit " + p.yaml() + " --starts 1 --out ''",
        "petab " + p.yaml() + " --out ''", "petab " + p.yaml() + " --at ''",
        "profile " + p.yaml() + " --from ''"}) {
    const ToolRun r = run_tool(command);
    EXPECT_EQ(r.status, 2) << command << ": " << r.err;
    EXPECT_NE(r.err.find("needs a value, got ''"), std::string::npos) << r.err;
  }
  const ToolRun huge = run_tool("fit " + p.yaml() + " --starts 1000000000");
  EXPECT_EQ(huge.status, 2) << huge.err;
  EXPECT_NE(huge.err.find("at most"), std::string::npos) << huge.err;
  const ToolRun out = run_tool("profile " + p.yaml() + " --out " + p.path("missing/x.json"));
  EXPECT_EQ(out.status, 1) << out.err;
  EXPECT_NE(out.err.find("cannot create a file in"), std::string::npos) << out.err;
  EXPECT_EQ(out.out, "");  // nothing was profiled
}

}  // namespace

namespace {

// --threads means the same range to petab, fit and profile: 0 (one per
// core) to 1024, and anything else is refused with that range (fit and
// profile cut larger counts to 1024 silently before).
TEST(CliThreads, EveryEstimationCommandTakesTheSameRange) {
  odesens::test::SyntheticProblem p;
  for (const std::string command : {"petab ", "fit ", "profile "}) {
    const std::string base =
        command + p.yaml() + (command == "fit " ? " --starts 1" : "") +
        (command == "profile " ? " --parameters k1 --max-points 2" : "");
    for (const char* bad : {"1025", "-1", "2.5", "1e9"}) {
      const ToolRun r = run_tool(base + " --threads " + bad);
      EXPECT_EQ(r.status, 2) << command << bad << ": " << r.err;
      EXPECT_NE(r.err.find("--threads needs a whole number from 0 (one per core) to 1024"),
                std::string::npos)
          << command << bad << ": " << r.err;
    }
    const ToolRun text = run_tool(base + " --threads x");
    EXPECT_EQ(text.status, 2) << text.err;
    EXPECT_NE(text.err.find("--threads: 'x' is not a finite number"), std::string::npos)
        << text.err;
    const ToolRun ok = run_tool(base + " --threads 0");
    EXPECT_EQ(ok.status, 0) << command << ok.err;
  }
  // ensemble too (its test, CliEnsemble.FlagsAreChecked, runs one).
  const ToolRun r = run_tool("ensemble builtin:chua --method cvodes_fsa --threads 1025");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--threads needs a whole number from 0 (one per core) to 1024, got '1025'"),
            std::string::npos)
      << r.err;
}

}  // namespace
