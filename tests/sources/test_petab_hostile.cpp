// PEtab problems that are wrong, odd or hostile: each is refused with the
// place and the rule, or read, never a crash or a misreading.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "sources/petab/petab_tables.hpp"
#include "sources/petab_temp_problem.hpp"

namespace odesens {
namespace {

using testing::expect_error;
using testing::TempProblem;

// The small problem with `from` replaced by `to` in file `name`.
void expect_edit_refused(const std::string& name, const std::string& from, const std::string& to,
                         Status status, const std::string& part) {
  TempProblem p;
  std::string text = p.text(name);
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  p.write(name, text.replace(at, from.size(), to));
  expect_error([&] { p.read(); }, status, part[0] == ':' ? name + part : part);
}

const std::string kParameterHeader =
    "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\n";

void expect_parameters_refused(const std::string& rows, const std::string& part) {
  TempProblem p;
  p.write("parameters.tsv", kParameterHeader + rows);
  expect_error([&] { p.read(); }, Status::parse_error, part);
}

TEST(PetabHostile, MissingRequiredColumn) {
  expect_edit_refused("parameters.tsv", "\testimate", "\testimated", Status::parse_error,
                      ":1: the required column 'estimate' is missing");
  expect_edit_refused("measurements.tsv", "\ttime", "\tTime", Status::parse_error,
                      ":1: the required column 'time'");
  expect_edit_refused("observables.tsv", "\tnoiseFormula", "\tnoise", Status::parse_error,
                      ":1: the required column 'noiseFormula'");
  expect_edit_refused("conditions.tsv", "conditionId", "id", Status::parse_error,
                      ":1: the required column 'conditionId'");
}

TEST(PetabHostile, ParameterValues) {
  expect_parameters_refused("k\tloge\t1\t2\t1\t1\n", "parameters.tsv:2:2: parameterScale 'loge'");
  expect_parameters_refused("k\tlin\t1\t2\t1\t2\n",
                            "parameters.tsv:2:6: estimate '2' is not 0 or 1");
  expect_parameters_refused("k\tlin\t1\t2\t1.2.3\t0\n", "parameters.tsv:2:5: nominalValue '1.2.3'");
  expect_parameters_refused("k\tlin\t1\t2\t\t0\n", "parameters.tsv:2:5: nominalValue is empty");
  expect_parameters_refused("k\tlin\t\t2\t1\t1\n", "parameters.tsv:2:3: lowerBound is empty");
  expect_parameters_refused("k\tlin\t3\t2\t1\t1\n", "parameters.tsv:2:4: upperBound is below");
  expect_parameters_refused("k\tlog\t0\t2\t1\t1\n",
                            "parameters.tsv:2:3: lowerBound must be positive");
  expect_parameters_refused("k\tlog10\t-1\t-0.5\t1\t1\n", "lowerBound must be positive");
  expect_parameters_refused("k\tlin\tnan\t2\t1\t1\n", "lowerBound may not be NaN");
  expect_parameters_refused("1k\tlin\t1\t2\t1\t1\n", "parameters.tsv:2:1: parameterId '1k'");
  expect_parameters_refused("k\tlin\t1\t2\t1\t1\nk2\tlin\t1\t2\t1\t1\nk\tlin\t1\t2\t1\t1\n",
                            "parameters.tsv:4:1: parameterId 'k' appears twice (first at");
}

TEST(PetabHostile, Priors) {
  const std::string header =
      "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue"
      "\testimate\tobjectivePriorType\tobjectivePriorParameters\n";
  TempProblem p;
  const auto refused = [&](const std::string& prior, const std::string& part) {
    p.write("parameters.tsv", header + "k\tlin\t1\t2\t1\t1\t" + prior + "\n");
    expect_error([&] { p.read(); }, Status::parse_error, part);
  };
  refused("cauchy\t0;1", ":2:7: objectivePriorType 'cauchy'");
  refused("normal\t0;-1", ":2:8: the prior's standard deviation");
  refused("uniform\t2;1", ":2:8: a uniform prior's lower bound");
  refused("normal\t0", ":2:8: objectivePriorParameters '0' is not two");
  refused("normal\t0;1;2", "is not two finite numbers");
  refused("normal\t", ":2:7: objectivePriorType 'normal' needs objectivePriorParameters");
  refused("normal\t0;inf", "is not two finite numbers");
  p.write("parameters.tsv", header + "k\tlin\t1\t2\t1\t1\tlaplace\t0;1\nj\tlin\t1\t2\t1\t1\n");
  EXPECT_EQ(p.read().parameters[0].prior.type, petab::PriorType::laplace);
  p.write("parameters.tsv", header + "k\tlin\t1\t2\t1\t1\tnormal\t0; 0.001\n");
  EXPECT_EQ(p.read().parameters[0].prior.b, 0.001);
}

TEST(PetabHostile, MeasurementValues) {
  expect_edit_refused("measurements.tsv", "\t0\t1.0\t", "\t-1\t1.0\t", Status::parse_error,
                      ":2:3: time must be >= 0");
  expect_edit_refused("measurements.tsv", "\t0\t1.0\t", "\t-inf\t1.0\t", Status::parse_error,
                      ":2:3: time must be >= 0");
  expect_edit_refused("measurements.tsv", "\t0\t1.0\t", "\t0\tinf\t", Status::parse_error,
                      ":2:4: measurement must be finite");
  expect_edit_refused("measurements.tsv", "\t0\t1.0\t", "\t0\t\t", Status::parse_error,
                      ":2:4: measurement is empty");
  expect_edit_refused("measurements.tsv", "1;k1", "a;;b", Status::parse_error,
                      ":3:6: observableParameters 'a;;b': item 2 is empty");
  expect_edit_refused("measurements.tsv", "1;k1", "1;", Status::parse_error, "item 2 is empty");
  expect_edit_refused("measurements.tsv", "1;k1", "1;k-1", Status::parse_error,
                      "'k-1' is neither a number nor an id");
  // NaN as the whole cell is an empty one (as pandas writes it); as an item
  // of a list it is a value, which may not be NaN.
  expect_edit_refused("measurements.tsv", "\tsd\t", "\tnan;sd\t", Status::parse_error,
                      ":2:5: noiseParameters may not be NaN");
  expect_edit_refused("measurements.tsv", "obs_a\tc1", "obs_a\t", Status::parse_error,
                      ":3:2: simulationConditionId is empty");
}

TEST(PetabHostile, ObservableAndConditionValues) {
  expect_edit_refused("observables.tsv", "\tlog10", "\tln", Status::parse_error,
                      ":2:4: observableTransformation 'ln'");
  expect_edit_refused("observables.tsv", "A + offset", "", Status::parse_error,
                      ":2:2: observableFormula is empty");
  expect_edit_refused("conditions.tsv", "\tk1\t", "\t2*k1\t", Status::parse_error,
                      ":3:3: k2 '2*k1' is neither a number nor an id");
  expect_edit_refused("conditions.tsv", "\tA0\n", "\tA 0\n", Status::parse_error,
                      ":1:4: condition table column 'A 0' is not a model id");
  expect_edit_refused("conditions.tsv", "c1\t", "c0\t", Status::parse_error,
                      ":3:1: conditionId 'c0' appears twice");
  TempProblem p;
  p.write("observables.tsv", p.text("observables.tsv") + "obs_a\tA\t1\t\n");
  expect_error([&] { p.read(); }, Status::parse_error, "observableId 'obs_a' appears twice");
}

TEST(PetabHostile, RowWidths) {
  // Short rows are padded with empty cells; extra cells must be empty.
  TempProblem p;
  p.write("parameters.tsv", kParameterHeader + "k\tlin\t1\t2\t1\t1\t\t\nj\tlin\t\t\t1\t0\n");
  EXPECT_EQ(p.read().parameters.size(), 2u);
  p.write("parameters.tsv", kParameterHeader + "k\tlin\t1\t2\t1\t1\t\tx\n");
  expect_error([&] { p.read(); }, Status::parse_error,
               "parameters.tsv:2:8: the row has more cells than the header has columns (6)");
  p.write("parameters.tsv", kParameterHeader + "k\tlin\t1\n");
  expect_error([&] { p.read(); }, Status::parse_error,
               "parameters.tsv:2:6: estimate '' is not 0 or 1");
}

TEST(PetabHostile, ByteOrderMarkAndCrlfAreRead) {
  TempProblem p;
  for (const char* name : {"problem.yaml", "parameters.tsv", "conditions.tsv", "observables.tsv",
                           "measurements.tsv"}) {
    std::string crlf = "\xEF\xBB\xBF";
    for (char c : p.text(name)) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    p.write(name, crlf + "\r\n\r\n");  // and trailing empty lines
  }
  const petab::Tables t = p.read();
  EXPECT_EQ(t.parameters.size(), 2u);
  EXPECT_EQ(t.parameters[0].id, "k1");
  EXPECT_EQ(t.conditions.columns.back(), "A0");
  EXPECT_EQ(t.measurements.size(), 2u);
  EXPECT_EQ(t.measurements[1].observable_parameters[1].id, "k1");
}

// Lone CRs end lines as pandas reads them: a table was one header line.
TEST(PetabHostile, LoneCarriageReturnsEndLines) {
  TempProblem p;
  for (const char* name : {"parameters.tsv", "conditions.tsv", "observables.tsv",
                           "measurements.tsv"}) {
    std::string cr;
    for (char c : p.text(name)) cr += c == '\n' ? '\r' : c;
    p.write(name, cr);
  }
  const petab::Tables t = p.read();
  EXPECT_EQ(t.parameters.size(), 2u);
  EXPECT_EQ(t.conditions.columns.back(), "A0");
  EXPECT_EQ(t.measurements.size(), 2u);
  p.write("measurements.tsv", "observableId\tsimulationConditionId\ttime\r\rx\tc0\t1\r");
  expect_error([&] { p.read(); }, Status::parse_error, "measurements.tsv:1");
}

// pandas and spreadsheets quote a cell that holds a tab or a quote (and
// some quote every cell): "0.2" was refused as a formula with '"' in it.
TEST(PetabHostile, QuotedCellsAreTheirText) {
  TempProblem p;
  p.write("observables.tsv",
          "\"observableId\"\tobservableFormula\tnoiseFormula\tobservableTransformation\n"
          "\"obs_a\"\t\"A + offset\"\t\"0.2\"\tlog10\n");
  p.write("conditions.tsv",
          "conditionId\tconditionName\tk2\tA0\nc0\t\"a \"\"quoted\"\"\tname\"\t1.5\t\n"
          "c1\t\"a\"b\tk1\tnan\n");
  const petab::Tables t = p.read();
  ASSERT_EQ(t.observables.size(), 1u);
  EXPECT_EQ(t.observables[0].id, "obs_a");
  EXPECT_EQ(t.observables[0].formula, "A + offset");
  EXPECT_EQ(t.observables[0].noise_formula, "0.2");
  EXPECT_EQ(t.conditions.rows[0].name, "a \"quoted\"\tname");
  EXPECT_EQ(t.conditions.rows[1].name, "\"a\"b");  // not a quoted cell: read as written
  // A cell with a line break in it (pandas quotes it) cannot be a line's.
  p.write("conditions.tsv", "conditionId\tconditionName\nc0\t\"two\nlines\"\n");
  expect_error([&] { p.read(); }, Status::parse_error,
               "conditions.tsv:2:2: a quoted cell runs to the end of its line");
}

TEST(PetabHostile, Encoding) {
  TempProblem p;
  p.write("conditions.tsv", "conditionId\tconditionName\nc0\tbad \xFF\xFE name\nc1\t\n");
  expect_error([&] { p.read(); }, Status::parse_error, "conditions.tsv:2");
  p.write("conditions.tsv", std::string("\xFF\xFE"
                                        "c\0o\0",
                                        6));
  expect_error([&] { p.read(); }, Status::unsupported, "UTF-16");
  p.write("conditions.tsv", "conditionId\tconditionName\nc0\tcaf\xC3\xA9\nc1\t\n");
  EXPECT_EQ(p.read().conditions.rows[0].name, "caf\xC3\xA9");
  p.write("conditions.tsv", "conditionId\n\xC3\xA9t\xC3\xA9\n");
  expect_error([&] { p.read(); }, Status::parse_error, "conditions.tsv:2:1: conditionId");
}

TEST(PetabHostile, EmptyFiles) {
  TempProblem p;
  p.write("parameters.tsv", "");
  expect_error([&] { p.read(); }, Status::parse_error, "parameters.tsv:1: the header row is empty");
  p.write("parameters.tsv", "\n\n");
  expect_error([&] { p.read(); }, Status::parse_error, "the header row is empty");
  p.write("parameters.tsv", kParameterHeader);  // a header and no rows is a table
  EXPECT_TRUE(p.read().parameters.empty());
  p.write("problem.yaml", "");
  expect_error([&] { p.read(); }, Status::parse_error,
               "problem.yaml: a PEtab problem file must be");
}

// A 10 MB cell is read where text is allowed and refused, with a short
// message, where it is not.
TEST(PetabHostile, EnormousCells) {
  TempProblem p;
  const std::string big(10u << 20, 'x');
  p.write("observables.tsv",
          "observableId\tobservableName\tobservableFormula\tnoiseFormula\n"
          "obs_a\t" +
              big + "\tA\t1\n");
  EXPECT_EQ(p.read().observables[0].name.size(), big.size());
  p.write("observables.tsv",
          "observableId\tobservableFormula\tnoiseFormula\n"
          "obs_a\tA\t1\n");
  p.write("parameters.tsv", kParameterHeader + "k\tlin\t1\t2\t1" + big + "\t0\n");
  expect_error([&] { p.read(); }, Status::parse_error, "parameters.tsv:2:5: nominalValue '1xxx");
  p.write("parameters.tsv",
          kParameterHeader + "k\tlin\t1\t2\t1\t0" + std::string(1000000, '\t') + "\n");
  EXPECT_EQ(p.read().parameters.size(), 1u);
}

const std::string kProblem =
    "format_version: 1\nparameter_file: parameters.tsv\nproblems:\n"
    "- sbml_files: [model.xml]\n  condition_files: [conditions.tsv]\n"
    "  measurement_files: [measurements.tsv]\n  observable_files: [observables.tsv]\n";

void expect_yaml_refused(const std::string& yaml, Status status, const std::string& part) {
  TempProblem p;
  p.write("problem.yaml", yaml);
  expect_error([&] { p.read(); }, status, part);
}

TEST(PetabHostile, ProblemFile) {
  expect_yaml_refused("format_version: 1\nproblems: [\n", Status::parse_error,
                      "problem.yaml:3:1: malformed YAML");
  expect_yaml_refused("- just\n- a list\n", Status::parse_error, "must be a YAML mapping");
  // yaml-cpp refuses nesting deeper than its limit instead of overflowing the stack.
  expect_yaml_refused("a: " + std::string(100000, '['), Status::parse_error, "malformed YAML");
  std::string two = kProblem + "- sbml_files: [model.xml]\n";
  expect_yaml_refused(two, Status::unsupported, "problem.yaml:4:1: 2 problems in one file");
  std::string v2 = kProblem;
  v2.replace(v2.find("1"), 1, "2.0.0");
  expect_yaml_refused(v2, Status::unsupported, "format_version '2.0.0'");
  for (const char* version : {"1.0.0", "\"1.0\""}) {  // version 1, as PEtab writes it
    TempProblem p;
    std::string v1 = kProblem;
    v1.replace(v1.find("1"), 1, version);
    p.write("problem.yaml", v1);
    EXPECT_NO_THROW(p.read()) << version;
  }
  std::string sbml2 = kProblem;
  sbml2.replace(sbml2.find("[model.xml]"), 11, "[model.xml, other.xml]");
  expect_yaml_refused(sbml2, Status::unsupported, "2 files in sbml_files");
  std::string no_obs = kProblem.substr(0, kProblem.find("  observable_files"));
  expect_yaml_refused(no_obs, Status::parse_error, "the required key 'observable_files'");
  std::string empty_list = kProblem;
  empty_list.replace(empty_list.find("[measurements.tsv]"), 18, "[]");
  expect_yaml_refused(empty_list, Status::parse_error, "problem.yaml:6:22: measurement_files");
  expect_yaml_refused("format_version: 1\nparameter_file: parameters.tsv\nproblems: []\n",
                      Status::parse_error, "problems must be a list of one problem");
  expect_yaml_refused("format_version: 1\nparameter_file: {a: b}\nproblems: []\n",
                      Status::parse_error,
                      "problem.yaml:2:17: parameter_file must be a file name or a list");
  // yaml-cpp keeps one of two equal keys without a word; odesens refuses them.
  expect_yaml_refused(kProblem + "parameter_file: other.tsv\n", Status::parse_error,
                      "the key 'parameter_file' appears twice");
  std::string twice = kProblem;
  twice.replace(twice.find("  observable_files"), 0, "  sbml_files: [other.xml]\n");
  expect_yaml_refused(twice, Status::parse_error, "the key 'sbml_files' appears twice");
  expect_yaml_refused(kProblem + "---\n" + kProblem, Status::parse_error,
                      "2 YAML documents in one file");
  TempProblem trailing;  // an empty document after "---" is no second problem
  trailing.write("problem.yaml", kProblem + "---\n");
  EXPECT_NO_THROW(trailing.read());
}

TEST(PetabHostile, Files) {
  TempProblem p;
  std::filesystem::remove(p.path("observables.tsv"));
  expect_error([&] { p.read(); }, Status::unknown_model, "observables.tsv");
  std::filesystem::create_directory(p.path("observables.tsv"));
  expect_error([&] { p.read(); }, Status::io_error,
               "PEtab observable table: cannot read file '" + p.path("observables.tsv") +
                   "': it is a directory, not a regular file");
  expect_error([&] { petab::read_tables(p.path("none.yaml")); }, Status::unknown_model,
               "none.yaml");
  // A problem file in another folder: its paths are relative to that folder.
  std::filesystem::create_directory(p.path("sub"));
  p.write("sub/problem.yaml",
          "format_version: 1\nparameter_file: ../parameters.tsv\n"
          "problems:\n- sbml_files: [../model.xml]\n"
          "  condition_files: [../conditions.tsv]\n"
          "  measurement_files: [../measurements.tsv]\n"
          "  observable_files: [../sub]\n");
  expect_error([&] { petab::read_tables(p.path("sub/problem.yaml")); }, Status::io_error,
               "PEtab observable table");
}

}  // namespace
}  // namespace odesens
