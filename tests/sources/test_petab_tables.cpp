// PEtab tables read from the conformance test suite, the benchmark
// collection (../shared/petab, or $ODESENS_SHARED_DIR/petab) and a small
// problem written for the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "sources/petab/petab_cells.hpp"
#include "sources/petab/petab_tables.hpp"
#include "sources/petab/petab_yaml.hpp"
#include "sources/petab_temp_problem.hpp"

namespace odesens {
namespace {

namespace fs = std::filesystem;
using petab::Value;

fs::path shared_petab() {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  return fs::path(env ? env : ODESENS_DEFAULT_SHARED_DIR) / "petab";
}

// Every problem file under `dir` (the benchmark collection holds one in a
// subfolder of another problem's folder).
std::vector<fs::path> yaml_files(const fs::path& dir) {
  std::vector<fs::path> out;
  const auto follow = fs::directory_options::follow_directory_symlink;
  for (const auto& entry : fs::recursive_directory_iterator(dir, follow)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".yaml" && name.find("_solution") == std::string::npos)
      out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void expect_complete(const petab::Tables& t, const fs::path& yaml) {
  SCOPED_TRACE(yaml.string());
  EXPECT_FALSE(t.parameters.empty());
  EXPECT_FALSE(t.conditions.rows.empty());
  EXPECT_FALSE(t.measurements.empty());
  EXPECT_FALSE(t.observables.empty());
  EXPECT_TRUE(fs::is_regular_file(t.sbml_file)) << t.sbml_file;
}

TEST(PetabTables, EveryTestSuiteCaseReads) {
  const fs::path dir = shared_petab() / "test-suite";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no PEtab test suite at " << dir;
  const auto files = yaml_files(dir);
  EXPECT_GE(files.size(), 20u) << "../shared/petab/test-suite holds the 20 PEtab v1 cases";
  for (const fs::path& yaml : files) {
    try {
      expect_complete(petab::read_tables(yaml.string()), yaml);
    } catch (const Error& e) {
      ADD_FAILURE() << yaml << ": " << e.what();
    }
  }
}

TEST(PetabTables, EveryBenchmarkProblemReads) {
  const fs::path dir = shared_petab() / "benchmark";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no PEtab benchmark collection at " << dir;
  const auto files = yaml_files(dir);
  std::size_t complete = 0;
  for (const fs::path& yaml : files) {
    try {
      const petab::Tables t = petab::read_tables(yaml.string());
      // The collection ships some second YAML files whose model file is
      // not in the folder (Zhao_QuantBiol2020's petab_test_*.yaml, outside
      // ../shared): the tables read, the problem cannot be whole.
      if (!fs::exists(t.sbml_file)) {
        std::printf("%s names a model file that is not there (%s): skipped\n",
                    yaml.string().c_str(), t.sbml_file.c_str());
        continue;
      }
      expect_complete(t, yaml);
      ++complete;
    } catch (const Error& e) {
      ADD_FAILURE() << yaml << ": " << e.what();
    }
  }
  EXPECT_GE(complete, 21u) << "../shared/petab/benchmark holds 21 problems";
}

TEST(PetabTables, TestSuiteCase0001MatchesItsFiles) {
  const fs::path yaml = shared_petab() / "test-suite/0001/_0001.yaml";
  if (!fs::exists(yaml)) GTEST_SKIP() << "no PEtab test suite at " << yaml;
  const petab::Tables t = petab::read_tables(yaml.string());
  ASSERT_EQ(t.parameters.size(), 4u);
  EXPECT_EQ(t.parameters[2].id, "k1");
  EXPECT_EQ(t.parameters[2].nominal, 0.8);
  EXPECT_TRUE(t.parameters[2].estimate);
  ASSERT_EQ(t.conditions.rows.size(), 1u);
  EXPECT_TRUE(t.conditions.columns.empty());
  ASSERT_EQ(t.measurements.size(), 2u);
  EXPECT_EQ(t.measurements[1].time, 10.0);
  EXPECT_EQ(t.measurements[1].measurement, 0.1);
  ASSERT_EQ(t.observables.size(), 1u);
  EXPECT_EQ(t.observables[0].noise_formula, "0.5");
  EXPECT_EQ(fs::path(t.sbml_file).filename(), "_model.xml");
}

TEST(PetabTables, BoehmMatchesItsFiles) {
  const fs::path yaml =
      shared_petab() / "benchmark/Boehm_JProteomeRes2014/Boehm_JProteomeRes2014.yaml";
  if (!fs::exists(yaml)) GTEST_SKIP() << "no PEtab benchmark collection at " << yaml;
  const petab::Tables t = petab::read_tables(yaml.string());
  ASSERT_EQ(t.parameters.size(), 11u);
  const petab::ParameterRow& epo = t.parameters[0];
  EXPECT_EQ(epo.id, "Epo_degradation_BaF3");
  EXPECT_EQ(epo.scale, petab::Scale::log10);
  EXPECT_EQ(epo.lower, 1e-5);
  EXPECT_EQ(epo.upper, 1e5);
  EXPECT_EQ(epo.nominal, 0.026982514033029);
  EXPECT_TRUE(epo.estimate);
  EXPECT_EQ(t.parameters[6].id, "ratio");
  EXPECT_FALSE(t.parameters[6].estimate);
  EXPECT_EQ(t.parameters[6].nominal, 0.693);
  EXPECT_EQ(t.measurements.size(), 48u);  // the last line has no newline
  EXPECT_EQ(t.measurements[1].time, 2.5);
  ASSERT_EQ(t.measurements[1].noise_parameters.size(), 1u);
  EXPECT_EQ(t.measurements[1].noise_parameters[0].id, "sd_pSTAT5A_rel");
  EXPECT_TRUE(t.measurements[1].observable_parameters.empty());
  ASSERT_EQ(t.observables.size(), 3u);
  EXPECT_EQ(t.observables[2].id, "rSTAT5A_rel");
  ASSERT_EQ(t.conditions.rows.size(), 1u);
  EXPECT_EQ(t.conditions.rows[0].name, "condition1");
}

// Bachmann's parameter table (CRLF) gives priors only on some rows, whose
// other rows stop short of the prior columns.
TEST(PetabTables, BachmannPriors) {
  const fs::path yaml = shared_petab() / "benchmark/Bachmann_MSB2011/Bachmann_MSB2011.yaml";
  if (!fs::exists(yaml)) GTEST_SKIP() << "no PEtab benchmark collection at " << yaml;
  const petab::Tables t = petab::read_tables(yaml.string());
  int with_prior = 0;
  for (const auto& p : t.parameters) {
    if (p.prior.type == petab::PriorType::none) continue;
    ++with_prior;
    if (p.id == "init_EpoRJAK2") {
      EXPECT_EQ(p.prior.type, petab::PriorType::parameter_scale_normal);
      EXPECT_EQ(p.prior.a, 0.599470870492697);
      EXPECT_EQ(p.prior.b, 0.193459292722329);
    }
  }
  EXPECT_GT(with_prior, 0);
}

TEST(PetabTables, SmallProblemValues) {
  testing::TempProblem problem;
  const petab::Tables t = problem.read();
  EXPECT_EQ(t.sbml_file, problem.path("model.xml"));
  ASSERT_EQ(t.parameters.size(), 2u);
  EXPECT_TRUE(std::isnan(t.parameters[1].lower));
  EXPECT_EQ(t.parameters[1].nominal, 0.5);
  EXPECT_EQ(t.parameters[1].place.text(), problem.path("parameters.tsv") + ":3");
  ASSERT_EQ(t.conditions.columns, (std::vector<std::string>{"k2", "A0"}));
  const auto& c0 = t.conditions.rows[0].values;
  const auto& c1 = t.conditions.rows[1].values;
  EXPECT_EQ(c0[0].kind, Value::Kind::number);
  EXPECT_EQ(c0[0].number, 1.5);
  EXPECT_EQ(c0[1].kind, Value::Kind::empty);
  EXPECT_EQ(c1[0].kind, Value::Kind::id);
  EXPECT_EQ(c1[0].id, "k1");
  EXPECT_EQ(c1[0].place.text(), problem.path("conditions.tsv") + ":3:3");
  EXPECT_TRUE(std::isnan(c1[1].number));
  EXPECT_EQ(t.observables[0].transformation, petab::Transformation::log10);
  EXPECT_EQ(t.observables[0].distribution, petab::NoiseDistribution::normal);
  const auto& m = t.measurements[1];
  EXPECT_TRUE(std::isinf(m.time));
  ASSERT_EQ(m.observable_parameters.size(), 2u);
  EXPECT_EQ(m.observable_parameters[0].number, 1.0);
  EXPECT_EQ(m.observable_parameters[1].id, "k1");
  EXPECT_EQ(m.noise_parameters[0].number, 0.1);
}

// Several condition, measurement and observable files: rows concatenated,
// condition columns the union of the files' columns.
TEST(PetabTables, SeveralFilesOfAKind) {
  testing::TempProblem problem;
  problem.write("problem.yaml",
                "format_version: '1'\nparameter_file: [parameters.tsv]\nproblems:\n"
                "- sbml_files: [model.xml]\n  condition_files: [conditions.tsv, more.tsv]\n"
                "  measurement_files: [measurements.tsv, measurements.tsv]\n"
                "  observable_files: observables.tsv\n");
  problem.write("more.tsv", "conditionId\tB0\tk2\nc2\t3\t4\n");
  const petab::Tables t = problem.read();
  EXPECT_EQ(t.measurements.size(), 4u);
  ASSERT_EQ(t.conditions.columns, (std::vector<std::string>{"k2", "A0", "B0"}));
  ASSERT_EQ(t.conditions.rows.size(), 3u);
  for (const auto& row : t.conditions.rows) EXPECT_EQ(row.values.size(), 3u);
  EXPECT_EQ(t.conditions.rows[0].values[2].kind, Value::Kind::empty);
  EXPECT_EQ(t.conditions.rows[2].values[0].number, 4.0);
  EXPECT_EQ(t.conditions.rows[2].values[2].number, 3.0);
}

TEST(PetabTables, PlaceText) {
  EXPECT_EQ((petab::Place{"f.tsv", 0, 0}.text()), "f.tsv");
  EXPECT_EQ((petab::Place{"f.tsv", 12, 0}.text()), "f.tsv:12");
  EXPECT_EQ((petab::Place{"f.tsv", 12, 3}.text()), "f.tsv:12:3");
}

TEST(PetabTables, NumbersAreReadStrictly) {
  using petab::number_of;
  EXPECT_EQ(number_of("1E-05"), 1e-5);
  EXPECT_EQ(number_of(".5"), 0.5);
  EXPECT_EQ(number_of("+2"), 2.0);
  EXPECT_EQ(number_of("-3e2"), -300.0);
  EXPECT_EQ(number_of("-inf"), -INFINITY);
  EXPECT_EQ(number_of("Inf"), INFINITY);
  EXPECT_TRUE(std::isnan(*number_of("NaN")));
  for (const char* bad : {"", "1.2.3", " 1", "1 ", "1e", "e5", "nan(1)", "0x10", "1e999", "+-1",
                          "--1", "1,5", "inf5", "-"})
    EXPECT_FALSE(number_of(bad)) << bad;
  EXPECT_TRUE(petab::is_id("_a1"));
  EXPECT_FALSE(petab::is_id("1a"));
  EXPECT_FALSE(petab::is_id("a-b"));
  EXPECT_FALSE(petab::is_id("\xc3\xa9"));
}

// A directory names the problem file it holds: NAME.yaml after its own
// name, else its only .yaml or .yml file.
TEST(PetabProblemDirectory, ItsOnlyYamlFileIsTheProblem) {
  testing::TempProblem p;
  const fs::path dir = fs::path(p.path("problem.yaml")).parent_path();
  for (const std::string& given : {dir.string(), dir.string() + "/"}) {
    const petab::Tables t = petab::read_tables(given);
    EXPECT_EQ(t.problem_file, p.path("problem.yaml")) << given;
    EXPECT_EQ(t.parameters.size(), 2u);
  }
  EXPECT_EQ(petab::problem_file_of(p.path("problem.yaml")), p.path("problem.yaml"));
}

TEST(PetabProblemDirectory, SeveralYamlFilesAreRefusedByName) {
  testing::TempProblem p;
  const fs::path dir = fs::path(p.path("problem.yaml")).parent_path();
  p.write("other.yml", p.text("problem.yaml"));
  testing::expect_error([&] { petab::read_tables(dir.string()); }, Status::invalid_argument,
                        "2 YAML files (other.yml, problem.yaml)");
  // A YAML file that is no problem file (the test suite's solutions) is
  // told apart by its keys.
  fs::remove(p.path("other.yml"));
  p.write("_solution.yaml", "llh: -1.5\nchi2: 0.3\ntol_llh: 1e-3\n");
  EXPECT_EQ(petab::read_tables(dir.string()).problem_file, p.path("problem.yaml"));
  p.write("other.yml", p.text("problem.yaml"));
  // The file named after the directory is the problem among several.
  const std::string own = dir.filename().string() + ".yaml";
  p.write(own, p.text("problem.yaml"));
  EXPECT_EQ(petab::read_tables(dir.string()).problem_file, p.path(own));
}

// NAME is the directory's own name however the path is written: ".",
// "dir/.", "dir/", or a link to it under another name.
TEST(PetabProblemDirectory, ItsNameIsFoundFromDotsAndLinks) {
  testing::TempProblem p;
  const fs::path dir = fs::path(p.path("problem.yaml")).parent_path();
  const std::string own = dir.filename().string() + ".yaml";
  p.write(own, p.text("problem.yaml"));  // two YAML files: only NAME.yaml can decide
  const fs::path link = dir.parent_path() / (dir.filename().string() + "_link");
  fs::create_directory_symlink(dir, link);
  const fs::path before = fs::current_path();
  fs::current_path(dir);
  for (const std::string& given : {std::string("."), dir.string() + "/.", dir.string() + "/",
                                   (dir / "..").string() + "/" + dir.filename().string(),
                                   link.string()})
    EXPECT_EQ(fs::path(petab::problem_file_of(given)).filename(), own) << given;
  fs::current_path(before);
  fs::remove(link);
}

// Hidden files and entries that cannot be looked at (a dangling link) are
// not problem files.
TEST(PetabProblemDirectory, HiddenFilesAndDanglingLinksAreNotProblems) {
  testing::TempProblem p;
  const fs::path dir = fs::path(p.path("problem.yaml")).parent_path();
  p.write("._problem.yaml", "not YAML");
  fs::create_symlink(dir / "missing.yaml", dir / "dangling.yaml");
  EXPECT_EQ(petab::problem_file_of(dir.string()), p.path("problem.yaml"));
}

TEST(PetabProblemDirectory, OneWithoutAProblemFileIsNotFound) {
  testing::TempProblem p;
  const fs::path dir = fs::path(p.path("problem.yaml")).parent_path();
  fs::remove(p.path("problem.yaml"));
  fs::create_directory(dir / "sub.yaml");  // a directory is no problem file
  testing::expect_error([&] { petab::read_tables(dir.string()); }, Status::unknown_model,
                        "holds no problem file (.yaml or .yml)");
}

TEST(PetabProblemDirectory, EveryBenchmarkProblemLoadsFromItsDirectory) {
  const fs::path dir = shared_petab() / "benchmark";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "PEtab benchmark collection not found: " << dir;
  std::size_t n = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.is_directory()) continue;
    const petab::Tables t = petab::read_tables(entry.path().string());
    EXPECT_EQ(fs::path(t.problem_file).parent_path(), entry.path());
    ++n;
  }
  EXPECT_GT(n, 0u);
}

}  // namespace
}  // namespace odesens
