// Small complete PEtab problems, written by the tests: inconsistent ones
// are refused by the builder naming the file, the row (and column) and the
// rule; consistent ones give the simulations, likelihoods and priors
// computed here by hand.
//
// The model: A -> B at rate k1*A in a compartment of size 1, A(0) = 1,
// B(0) = 0, so A(t) = A(0) exp(-k1 t); k2 is a constant parameter the
// model does not use, s = 2*k1 an assignment rule.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <limits>
#include <string>
#include <vector>

#include "odesens/petab.hpp"
#include "odesens/status.hpp"
#include "sources/petab_temp_problem.hpp"

namespace odesens {
namespace {

using testing::expect_error;
using testing::TempProblem;

constexpr double kLog2Pi = 1.8378770664093453;

const char* const kModel = R"(<?xml version="1.0" encoding="UTF-8"?>
<sbml xmlns="http://www.sbml.org/sbml/level2/version4" level="2" version="4">
  <model id="decay">
    <listOfCompartments>
      <compartment id="compartment" spatialDimensions="3" size="1" constant="true"/>
    </listOfCompartments>
    <listOfSpecies>
      <species id="A" compartment="compartment" initialConcentration="1" boundaryCondition="false" constant="false"/>
      <species id="B" compartment="compartment" initialConcentration="0" boundaryCondition="false" constant="false"/>
    </listOfSpecies>
    <listOfParameters>
      <parameter id="k1" value="0.5" constant="true"/>
      <parameter id="k2" value="0.1" constant="true"/>
      <parameter id="s" value="0" constant="false"/>
    </listOfParameters>
    <listOfRules>
      <assignmentRule variable="s">
        <math xmlns="http://www.w3.org/1998/Math/MathML">
          <apply><times/><cn> 2 </cn><ci> k1 </ci></apply>
        </math>
      </assignmentRule>
    </listOfRules>
    <listOfReactions>
      <reaction id="fwd" reversible="false">
        <listOfReactants>
          <speciesReference species="A" stoichiometry="1"/>
        </listOfReactants>
        <listOfProducts>
          <speciesReference species="B" stoichiometry="1"/>
        </listOfProducts>
        <kineticLaw>
          <math xmlns="http://www.w3.org/1998/Math/MathML">
            <apply><times/><ci> compartment </ci><ci> k1 </ci><ci> A </ci></apply>
          </math>
        </kineticLaw>
      </reaction>
    </listOfReactions>
  </model>
</sbml>
)";

const std::string kParameterHeader =
    "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\n";
const std::string kMeasurementHeader =
    "observableId\tsimulationConditionId\ttime\tmeasurement\tobservableParameters\t"
    "noiseParameters\n";
const std::string kObservableHeader =
    "observableId\tobservableFormula\tnoiseFormula\tobservableTransformation\t"
    "noiseDistribution\n";

// The consistent problem the refusals edit: condition c0 sets k1 to a
// number, c1 to the estimated kc and A(0) to 2; obs_b has a scale
// placeholder and sd is the noise of obs_a.
std::map<std::string, std::string> base_files() {
  return {
      {"model.xml", kModel},
      {"parameters.tsv", kParameterHeader +
                             "kc\tlog10\t1e-3\t1e3\t0.7\t1\n"
                             "sd\tlin\t0.01\t10\t0.2\t1\n"
                             "k2\tlin\t0\t10\t0.1\t0\n"},
      {"conditions.tsv",
       "conditionId\tk1\tA\n"
       "c0\t0.3\t\n"
       "c1\tkc\t2\n"},
      {"observables.tsv", kObservableHeader +
                              "obs_a\tA\tnoiseParameter1_obs_a\tlin\tnormal\n"
                              "obs_b\tobservableParameter1_obs_b * B\t0.1\tlin\tnormal\n"},
      {"measurements.tsv", kMeasurementHeader +
                               "obs_a\tc0\t1\t0.8\t\tsd\n"
                               "obs_a\tc1\t2\t0.5\t\t0.3\n"
                               "obs_b\tc0\t1\t0.4\t1.5\t\n"}};
}

// A problem in a temporary folder: the YAML file and `files`.
class ProblemFolder {
 public:
  explicit ProblemFolder(const std::map<std::string, std::string>& files) {
    p_.write("problem.yaml",
             "format_version: 1\nparameter_file: parameters.tsv\nproblems:\n"
             "- sbml_files: [model.xml]\n  condition_files: [conditions.tsv]\n"
             "  measurement_files: [measurements.tsv]\n  observable_files: [observables.tsv]\n");
    for (const auto& [name, text] : files) p_.write(name, text);
  }
  std::shared_ptr<const PetabProblem> load() const {
    return PetabProblem::load(p_.path("problem.yaml"));
  }
  std::string path(const std::string& name) const { return p_.path(name); }

 private:
  TempProblem p_;
};

using Edit = std::function<void(std::map<std::string, std::string>&)>;

// The base problem with file `name` replaced by `text`.
Edit replace(const std::string& name, const std::string& text) {
  return [=](std::map<std::string, std::string>& files) { files[name] = text; };
}

// The base problem with `from` replaced by `to` in file `name`.
Edit edit(const std::string& name, const std::string& from, const std::string& to) {
  return [=](std::map<std::string, std::string>& files) {
    std::string& text = files.at(name);
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
}

// Loading the edited problem fails with `status` and a message holding
// each of `parts`.
void expect_refused(const Edit& change, Status status, const std::vector<std::string>& parts) {
  std::map<std::string, std::string> files = base_files();
  change(files);
  const ProblemFolder problem(files);
  try {
    problem.load();
    ADD_FAILURE() << "no error; expected one with '" << parts.front() << "'";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.status(), status) << message;
    for (const std::string& part : parts)
      EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
    EXPECT_LT(message.size(), 1000u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

void expect_parse_error(const Edit& change, const std::vector<std::string>& parts) {
  expect_refused(change, Status::parse_error, parts);
}

TEST(PetabRefusals, TheBaseProblemLoads) {
  const ProblemFolder problem(base_files());
  auto p = problem.load();
  EXPECT_EQ(p->parameter_ids(), (std::vector<std::string>{"kc", "sd"}));
  EXPECT_EQ(p->n_measurements(), 3u);
  EXPECT_EQ(p->n_experiments(), 2u);
}

// ---- ids that refer to nothing ----

TEST(PetabRefusals, UnknownObservableInMeasurements) {
  expect_parse_error(edit("measurements.tsv", "obs_a\tc1", "obs_c\tc1"),
                     {"measurements.tsv:3", "observableId 'obs_c' is not in the observable table"});
}

// A header alone read as a problem with nllh 0 that every fit "solved".
TEST(PetabRefusals, MeasurementTableWithoutRows) {
  expect_parse_error(replace("measurements.tsv", kMeasurementHeader),
                     {"measurements.tsv", "the measurement table has no rows"});
}

TEST(PetabRefusals, UnknownSimulationCondition) {
  expect_parse_error(edit("measurements.tsv", "obs_b\tc0", "obs_b\tc9"),
                     {"measurements.tsv:4", "simulationConditionId 'c9' is not in the condition table"});
}

TEST(PetabRefusals, UnknownPreequilibrationCondition) {
  expect_parse_error(replace("measurements.tsv",
                             "observableId\tpreequilibrationConditionId\tsimulationConditionId\t"
                             "time\tmeasurement\tnoiseParameters\n"
                             "obs_a\tc0\tc1\t1\t0.8\tsd\n"
                             "obs_a\tpre\tc1\t1\t0.8\tsd\n"),
                     {"measurements.tsv:3",
                      "preequilibrationConditionId 'pre' is not in the condition table"});
}

TEST(PetabRefusals, ConditionCellNotInTheParameterTable) {
  expect_parse_error(edit("conditions.tsv", "c1\tkc", "c1\tkx"),
                     {"conditions.tsv:3:2", "condition value 'kx' is not a parameter of the "
                                            "parameter table"});
}

TEST(PetabRefusals, MeasurementParameterNotInTheParameterTable) {
  expect_parse_error(edit("measurements.tsv", "\t\tsd\n", "\t\tsdx\n"),
                     {"measurements.tsv:2:6", "noiseParameters 'sdx' is not a parameter"});
  expect_parse_error(edit("measurements.tsv", "\t1.5\t", "\tscale\t"),
                     {"measurements.tsv:4:5", "observableParameters 'scale' is not a parameter"});
}

TEST(PetabRefusals, UnknownNameInAFormula) {
  expect_parse_error(edit("observables.tsv", "obs_a\tA\t", "obs_a\tA + Z\t"),
                     {"observables.tsv:2", "observableFormula", "'Z'"});
  expect_parse_error(edit("observables.tsv", " * B\t0.1\t", " * B\tnoise_b\t"),
                     {"observables.tsv:3", "noiseFormula", "'noise_b'"});
}

TEST(PetabRefusals, MalformedFormula) {
  expect_parse_error(edit("observables.tsv", "obs_a\tA\t", "obs_a\t(A + 1\t"),
                     {"observables.tsv:2", "observableFormula"});
  expect_parse_error(edit("observables.tsv", "obs_a\tA\t", "obs_a\tA +* 2\t"),
                     {"observables.tsv:2", "observableFormula", "column"});
  expect_parse_error(edit("observables.tsv", "obs_a\tA\t", "obs_a\tnosuchfunction(A)\t"),
                     {"observables.tsv:2", "observableFormula"});
  expect_parse_error(edit("observables.tsv", "\t0.1\t", "\t0.1)\t"),
                     {"observables.tsv:3", "noiseFormula"});
}

// ---- condition columns ----

TEST(PetabRefusals, ConditionColumnNotAModelId) {
  expect_parse_error(edit("conditions.tsv", "\tA\n", "\tAx\n"),
                     {"conditions.tsv:1:3", "column 'Ax' is not an id of the model"});
  // kc is a parameter of the parameter table, not of the model.
  expect_parse_error(edit("conditions.tsv", "\tA\n", "\tkc\n"),
                     {"conditions.tsv:1:3", "'kc'"});
}

TEST(PetabRefusals, ConditionColumnAlsoInTheParameterTable) {
  expect_parse_error(edit("conditions.tsv", "\tA\n", "\tk2\n"),
                     {"conditions.tsv:1:3", "'k2' is a column of the condition table and a row "
                                            "of the parameter table"});
}

TEST(PetabRefusals, ConditionColumnSetByAnAssignmentRule) {
  expect_parse_error(edit("conditions.tsv", "\tA\n", "\ts\n"),
                     {"conditions.tsv:1:3", "'s'", "assignment rule"});
}

TEST(PetabRefusals, ConditionColumnOfAnEmptyTableNamesTheFile) {
  expect_parse_error(replace("conditions.tsv", "conditionId\tk1\tAx\n"),
                     {"conditions.tsv", "'Ax' is not an id of the model"});
}

// ---- the parameter table ----

TEST(PetabRefusals, ParameterTableListsAPlaceholder) {
  expect_parse_error(edit("parameters.tsv", "k2\tlin", "observableParameter1_obs_b\tlin"),
                     {"parameters.tsv:4", "'observableParameter1_obs_b' is a placeholder",
                      "must not list it"});
  expect_parse_error(edit("parameters.tsv", "k2\tlin", "noiseParameter1_obs_a\tlin"),
                     {"parameters.tsv:4", "'noiseParameter1_obs_a' is a placeholder"});
}

// PEtab's "extraneous parameter": a row that is no model id and that no
// formula or cell names (it was estimated without effect on anything).
// Named only by a measurement's override, or only by a condition cell, a
// row is used.
TEST(PetabRefusals, ParameterTableRowUsedNowhere) {
  expect_parse_error(edit("parameters.tsv", "k2\tlin", "zz\tlin"),
                     {"parameters.tsv:4", "parameter 'zz' is used nowhere"});
  std::map<std::string, std::string> files = base_files();
  files["parameters.tsv"] += "scale_b\tlin\t0.1\t10\t1.5\t1\n";
  std::string& m = files["measurements.tsv"];
  m.replace(m.find("1.5\t\n"), 5, "scale_b\t\n");
  EXPECT_NO_THROW(ProblemFolder(files).load());
}

// Initialization priors are checked as written (the starts do not use
// them): a known type, parameters where given; they may be left out.
TEST(PetabRefusals, InitializationPriors) {
  const std::string header =
      "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\t"
      "initializationPriorType";
  const std::string rest = "sd\tlin\t0.01\t10\t0.2\t1\t\nk2\tlin\t0\t10\t0.1\t0\t\n";
  expect_parse_error(replace("parameters.tsv",
                             header + "\nkc\tlog10\t1e-3\t1e3\t0.7\t1\tcauchy\n" + rest),
                     {"parameters.tsv:2", "initializationPriorType 'cauchy' is not one of"});
  expect_parse_error(
      replace("parameters.tsv", header + "\tinitializationPriorParameters\n"
                                         "kc\tlog10\t1e-3\t1e3\t0.7\t1\tnormal\t1;x\n" +
                                         "sd\tlin\t0.01\t10\t0.2\t1\t\t\n"
                                         "k2\tlin\t0\t10\t0.1\t0\t\t\n"),
      {"parameters.tsv:2", "initializationPriorParameters '1;x'"});
  std::map<std::string, std::string> files = base_files();
  files["parameters.tsv"] =
      header + "\nkc\tlog10\t1e-3\t1e3\t0.7\t1\tparameterScaleUniform\n" + rest;
  EXPECT_NO_THROW(ProblemFolder(files).load());
}

// Objective priors of the uniform types may leave their parameters out:
// they span the bounds (on the parameter's scale for
// parameterScaleUniform), as for initialization priors; a normal prior
// needs its two numbers.
TEST(PetabRefusals, UniformObjectivePriorsDefaultToTheBounds) {
  const std::string header =
      "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\t"
      "objectivePriorType\tobjectivePriorParameters\n";
  const std::string rest = "sd\tlin\t0.01\t10\t0.2\t1\t\t\nk2\tlin\t0\t10\t0.1\t0\t\t\n";
  expect_parse_error(replace("parameters.tsv", header + "kc\tlog10\t1e-3\t1e3\t0.7\t1\tnormal\t\n" + rest),
                     {"parameters.tsv:2", "objectivePriorType 'normal' needs objectivePriorParameters"});
  std::map<std::string, std::string> files = base_files();
  const auto nlpost = [&](const std::string& type, const std::string& parameters) {
    files["parameters.tsv"] =
        header + "kc\tlog10\t1e-3\t1e3\t0.7\t1\t" + type + "\t" + parameters + "\n" + rest;
    auto problem = ProblemFolder(files).load();
    return problem->evaluate(problem->nominal_scaled(), PetabOptions()).nlpost;
  };
  EXPECT_EQ(nlpost("parameterScaleUniform", ""), nlpost("parameterScaleUniform", "-3;3"));
  EXPECT_EQ(nlpost("uniform", ""), nlpost("uniform", "1e-3;1e3"));
  EXPECT_NE(nlpost("uniform", ""), nlpost("uniform", "1e-3;1e2"));
  // At a bound of a log-scaled parameter, which 10^x gives back a unit in
  // the last place off in about a quarter of cases (nlpost was inf there).
  files["parameters.tsv"] = header + "kc\tlog10\t0.003\t0.2\t0.1\t1\tuniform\t\n" + rest;
  auto problem = ProblemFolder(files).load();
  for (const double bound : {0.003, 0.2})
    EXPECT_TRUE(std::isfinite(problem->evaluate({std::log10(bound), 0.2}, PetabOptions()).nlpost))
        << bound;
}

TEST(PetabRefusals, ParameterTableRowThatIsASpeciesOrRuleSet) {
  expect_parse_error(edit("parameters.tsv", "k2\tlin", "B\tlin"),
                     {"parameters.tsv:4", "parameter 'B' is a model id", "not a constant parameter"});
  expect_parse_error(edit("parameters.tsv", "k2\tlin", "s\tlin"),
                     {"parameters.tsv:4", "parameter 's'", "assignment rule"});
}

TEST(PetabRefusals, ObservableIdThatIsAModelOrParameterId) {
  expect_parse_error(edit("observables.tsv", "obs_a\t", "B\t"),
                     {"observables.tsv:2", "observable id 'B'"});
}

// ---- placeholders ----

TEST(PetabRefusals, TooManyObservableParameters) {
  expect_parse_error(edit("measurements.tsv", "\t1.5\t", "\t1.5;2\t"),
                     {"measurements.tsv:4", "observableParameters", "'obs_b' has 1 placeholder",
                      "gives 2 value(s)"});
}

TEST(PetabRefusals, TooFewObservableParameters) {
  expect_parse_error(edit("measurements.tsv", "\t1.5\t", "\t\t"),
                     {"measurements.tsv:4", "observableParameters", "gives 0 value(s)"});
  expect_parse_error(edit("measurements.tsv", "\t\t0.3\n", "\t\t\n"),
                     {"measurements.tsv:3", "noiseParameters", "'obs_a' has 1 placeholder"});
}

TEST(PetabRefusals, ParametersForAnObservableWithoutPlaceholders) {
  expect_parse_error(edit("measurements.tsv", "obs_a\tc0\t1\t0.8\t\tsd", "obs_a\tc0\t1\t0.8\t2\tsd"),
                     {"measurements.tsv:2", "observableParameters", "'obs_a' has 0 placeholder"});
}

TEST(PetabRefusals, PlaceholderOfAnotherObservable) {
  expect_parse_error(edit("observables.tsv", "obs_a\tA\t", "obs_a\tA * observableParameter1_obs_b\t"),
                     {"observables.tsv:2", "placeholder 'observableParameter1_obs_b' belongs to "
                                           "observable 'obs_b', not to 'obs_a'"});
  expect_parse_error(edit("observables.tsv", " * B\t0.1\t", " * B\tnoiseParameter1_obs_a\t"),
                     {"observables.tsv:3", "'noiseParameter1_obs_a' belongs to observable 'obs_a'"});
}

// A placeholder PEtab does not number (1, 2, ... without leading zeros):
// observableParameter01_obs_b was counted as the first placeholder, but its
// value reached observableParameter1_obs_b, a name no formula uses, so the
// scale kept its dummy value 0 and the likelihood was wrong without a word.
TEST(PetabRefusals, PlaceholdersNumberedOtherwiseThanPetab) {
  expect_parse_error(edit("observables.tsv", "observableParameter1_obs_b", "observableParameter01_obs_b"),
                     {"observables.tsv:3", "'observableParameter01_obs_b' has the form of a "
                                           "placeholder of observable 'obs_b' but not its numbering"});
  expect_parse_error(edit("observables.tsv", "noiseParameter1_obs_a", "noiseParameter0_obs_a"),
                     {"observables.tsv:2", "'noiseParameter0_obs_a'", "no leading zeros"});
  expect_parse_error(edit("observables.tsv", "noiseParameter1_obs_a", "noiseParameter1234567890_obs_a"),
                     {"observables.tsv:2", "not its numbering"});
}

// A name of the form of a placeholder is read without recursion per
// character: std::regex overflowed the stack on 50 000 characters.
TEST(PetabRefusals, AVeryLongPlaceholderLikeNameIsAnErrorNotACrash) {
  const std::string name = "noiseParameter1_" + std::string(200000, 'a');
  expect_parse_error(edit("observables.tsv", "\t0.1\tlin", "\t0.1 + 0 * " + name + "\tlin"),
                     {"observables.tsv:3", "is neither an id of the model nor a parameter",
                      "(200016 bytes)"});
  expect_parse_error(edit("parameters.tsv", "k2\t", name + "\t"),
                     {"parameters.tsv:4", "is used nowhere", "(200016 bytes)"});
}

// PEtab's noiseParameters hold "the measurement standard deviation or NaN
// if the corresponding sigma is a model parameter": NaN is an empty cell, as
// pandas writes one; so is NaN as a pre-equilibration condition.
TEST(PetabRefusals, NanCellsWherePetabAllowsEmptyOnesAreEmpty) {
  auto files = base_files();
  files["measurements.tsv"] =
      "observableId\tpreequilibrationConditionId\tsimulationConditionId\ttime\tmeasurement\t"
      "observableParameters\tnoiseParameters\n"
      "obs_a\tnan\tc0\t1\t0.8\tNaN\tsd\n"
      "obs_a\tNaN\tc1\t2\t0.5\tnan\t0.3\n"
      "obs_b\t\tc0\t1\t0.4\t1.5\tNaN\n";
  const ProblemFolder with_nan(files);
  const ProblemFolder with_empty(base_files());
  auto p = with_nan.load(), q = with_empty.load();
  EXPECT_EQ(p->n_experiments(), 2u);
  const PetabResult a = p->evaluate(p->nominal_scaled(), PetabOptions{});
  const PetabResult b = q->evaluate(q->nominal_scaled(), PetabOptions{});
  ASSERT_TRUE(std::isfinite(a.nllh));
  EXPECT_EQ(a.nllh, b.nllh);
}

// The logarithm of a measurement <= 0 is not defined: refused with the
// tables (libpetab's linter does so too), where it was a NaN likelihood
// with a warning that did not say why.
TEST(PetabRefusals, ALogTransformedMeasurementThatIsNotPositive) {
  auto log10_obs_a = [](const std::string& value) {
    return [value](std::map<std::string, std::string>& files) {
      files["observables.tsv"] = kObservableHeader + "obs_a\tA\t0.1\tlog10\tnormal\n";
      files["measurements.tsv"] = kMeasurementHeader + "obs_a\tc0\t1\t0.8\t\t\n" +
                                  "obs_a\tc1\t3\t" + value + "\t\t\n";
      files["parameters.tsv"] = kParameterHeader + "kc\tlog10\t1e-3\t1e3\t0.7\t1\n";
    };
  };
  expect_parse_error(log10_obs_a("0"), {"measurements.tsv:3", "measurement 0 of observable "
                                        "'obs_a' is not positive", "log-transformed"});
  expect_parse_error(log10_obs_a("-0.2"), {"measurements.tsv:3", "measurement -0.2"});
}

// ---- the point of an evaluation ----

// A point on a bound, written as a parameter table (10^x) and read back
// (log10), is on the bound: log10(10^log10(0.13)) is an ulp above
// log10(0.13), and `profile --from BEST.tsv` refused the best point of a fit
// as outside its box.
TEST(PetabRefusals, APointWrittenOnItsBoundsIsReadBackOnThem) {
  auto files = base_files();
  files["parameters.tsv"] = kParameterHeader +
                            "kc\tlog10\t0.01\t0.13\t0.07\t1\n"
                            "sd\tlog\t0.013\t10\t0.2\t1\n"
                            "k2\tlin\t0\t10\t0.1\t0\n";
  const ProblemFolder problem(files);
  auto p = problem.load();
  ASSERT_NE(std::log10(std::pow(10.0, p->upper_scaled()[0])), p->upper_scaled()[0]);
  for (const auto& x : {p->upper_scaled(), p->lower_scaled()}) {
    p->write_parameter_table(x, problem.path("best.tsv"));
    EXPECT_EQ(read_petab_parameter_values(*p, problem.path("best.tsv")), x);
  }
  EXPECT_EQ(p->to_scale(0, std::pow(10.0, p->upper_scaled()[0])), p->upper_scaled()[0]);
  // Farther outside is a value outside, as it was; so is any value outside
  // a lin-scale bound (no scale to come back from).
  EXPECT_GT(p->to_scale(0, 0.13 * (1 + 1e-12)), p->upper_scaled()[0]);
  const ProblemFolder base(base_files());
  auto q = base.load();
  ASSERT_EQ(q->parameter_scales()[1], "lin");
  EXPECT_LT(q->to_scale(1, 0.01 * (1 - 1e-15)), q->lower_scaled()[1]);
}

// A table of values with lone CR line ends is read as the PEtab tables
// are: it was one header line, and every value stayed nominal.
TEST(PetabRefusals, AParameterTableOfValuesWithLoneCarriageReturns) {
  const ProblemFolder problem(base_files());
  auto p = problem.load();
  for (const char* end : {"\n", "\r", "\r\n"}) {
    SCOPED_TRACE(end);
    std::ofstream(problem.path("at.tsv"), std::ios::binary)
        << "parameterId\tvalue" << end << "kc\t5" << end << "sd\t0.5" << end;
    const std::vector<double> x = read_petab_parameter_values(*p, problem.path("at.tsv"));
    EXPECT_EQ(x, (std::vector<double>{std::log10(5.0), 0.5}));
  }
}

// A condition named nan (in any case) would be read as an empty cell where
// a measurement names it as its pre-equilibration: refused.
TEST(PetabRefusals, AConditionNamedNan) {
  expect_parse_error(edit("conditions.tsv", "c0\t0.3", "NaN\t0.3"),
                     {"conditions.tsv:2:1", "conditionId 'NaN' reads as NaN"});
}

TEST(PetabRefusals, EvaluateRefusesAWrongSizeOrANonFiniteValue) {
  const ProblemFolder problem(base_files());
  auto p = problem.load();
  const PetabOptions options;
  expect_error([&] { p->evaluate({0.1}, options); }, Status::invalid_argument,
               "1 parameter values given, the problem estimates 2");
  expect_error([&] { p->evaluate({0.1, 0.2, 0.3}, options); }, Status::invalid_argument,
               "3 parameter values given");
  expect_error([&] { p->evaluate({}, options); }, Status::invalid_argument, "0 parameter values");
  const double nan = std::nan(""), inf = HUGE_VAL;
  expect_error([&] { p->evaluate({nan, 0.2}, options); }, Status::invalid_argument,
               "the value of parameter 'kc' is ");
  expect_error([&] { p->evaluate({-0.1, nan}, options); }, Status::invalid_argument,
               "the value of parameter 'sd' is ");
  // sd is on the linear scale: -inf is no value of it.
  expect_error([&] { p->evaluate({-0.1, -inf}, options); }, Status::invalid_argument,
               "the value of parameter 'sd' is ");
  // kc is on log10: +inf is not allowed, -inf (kc = 0) is.
  expect_error([&] { p->evaluate({inf, 0.2}, options); }, Status::invalid_argument,
               "the value of parameter 'kc' is ");
  // A set-valued method gives no likelihood (it asked for a parameter box).
  PetabOptions bounds;
  bounds.method = "bounds_fsa";
  expect_error([&] { p->evaluate({0.1, 0.2}, bounds); }, Status::invalid_argument,
               "gives no likelihood");
  const PetabResult r = p->evaluate({-inf, 0.2}, options);
  // k1 = 0 in c1: A stays at 2.
  EXPECT_NEAR(r.simulations[1], 2.0, 1e-9);
}

// A parameter table given as values (--at, --from): its estimated rows set
// the point; a fixed row must hold the problem's value (another would be
// ignored without a word) and an id the problem lacks is refused.
TEST(PetabRefusals, AParameterTableOfValuesNamesOnlyThisProblemsParameters) {
  const ProblemFolder problem(base_files());
  auto p = problem.load();
  auto table = [&](const std::string& name, const std::string& rows) {
    std::ofstream(problem.path(name), std::ios::binary) << kParameterHeader + rows;
    return problem.path(name);
  };
  const std::vector<double> x = read_petab_parameter_values(
      *p, table("same.tsv", "kc\tlog10\t1e-3\t1e3\t0.5\t1\nk2\tlin\t0\t10\t0.1\t0\n"));
  ASSERT_EQ(x.size(), 2u);
  EXPECT_DOUBLE_EQ(x[0], std::log10(0.5));
  EXPECT_DOUBLE_EQ(x[1], 0.2);  // sd's row absent: its nominal value
  const std::string k2 = table("k2.tsv", "k2\tlin\t0\t10\t0.2\t0\n");
  expect_error([&] { read_petab_parameter_values(*p, k2); }, Status::parse_error,
               "k2.tsv:2: 'k2' is fixed in the problem (estimate 0) at 0.1; 0.2 here would be "
               "ignored");
  const std::string zz = table("zz.tsv", "zz\tlin\t0\t10\t5\t1\n");
  expect_error([&] { read_petab_parameter_values(*p, zz); }, Status::parse_error,
               "zz.tsv:2: 'zz' is not a parameter of the problem's");
}

// ---- what consistent problems give ----

PetabOptions tight() {
  PetabOptions o;
  o.rtol = 1e-11;
  o.atol = {1e-13};
  return o;
}

double normal_nllh(double y, double h, double sigma) {
  const double z = (y - h) / sigma;
  return 0.5 * (kLog2Pi + 2.0 * std::log(sigma)) + 0.5 * z * z;
}

TEST(PetabEvaluation, ConditionOverridesGiveTheAnalyticSimulations) {
  const ProblemFolder problem(base_files());
  auto p = problem.load();
  const PetabResult r = p->evaluate(p->nominal_scaled(), tight());
  ASSERT_EQ(r.simulations.size(), 3u);
  // c0: k1 = 0.3, A(0) = 1; c1: k1 = kc = 0.7, A(0) = 2; obs_b = 1.5 * B.
  const double h0 = std::exp(-0.3), h1 = 2.0 * std::exp(-0.7 * 2.0), h2 = 1.5 * (1.0 - std::exp(-0.3));
  EXPECT_NEAR(r.simulations[0], h0, 1e-9);
  EXPECT_NEAR(r.simulations[1], h1, 1e-9);
  EXPECT_NEAR(r.simulations[2], h2, 1e-9);
  EXPECT_NEAR(r.sigmas[0], 0.2, 1e-15);
  EXPECT_NEAR(r.sigmas[1], 0.3, 1e-15);
  EXPECT_NEAR(r.sigmas[2], 0.1, 1e-15);
  const double nllh = normal_nllh(0.8, h0, 0.2) + normal_nllh(0.5, h1, 0.3) +
                      normal_nllh(0.4, h2, 0.1);
  EXPECT_NEAR(r.nllh, nllh, 1e-8);
  EXPECT_DOUBLE_EQ(r.llh, -r.nllh);
  const double chi2 = std::pow((0.8 - h0) / 0.2, 2) + std::pow((0.5 - h1) / 0.3, 2) +
                      std::pow((0.4 - h2) / 0.1, 2);
  EXPECT_NEAR(r.chi2, chi2, 1e-7);
  EXPECT_FALSE(r.has_priors);
  EXPECT_DOUBLE_EQ(r.nlpost, r.nllh);

  // kc at 0.05 (log10 scale: log10(0.05)) moves only c1.
  const PetabResult q = p->evaluate({std::log10(0.05), 0.2}, tight());
  EXPECT_NEAR(q.simulations[0], h0, 1e-9);
  EXPECT_NEAR(q.simulations[1], 2.0 * std::exp(-0.05 * 2.0), 1e-9);
}

TEST(PetabEvaluation, NumericAndParameterOverridesOfPlaceholders) {
  auto files = base_files();
  // obs_b's scale from the parameter table (estimated, linear); no row
  // measures obs_a, so sd (its noise) would be used nowhere.
  files["parameters.tsv"] = kParameterHeader +
                            "kc\tlog10\t1e-3\t1e3\t0.7\t1\n"
                            "k2\tlin\t0\t10\t0.1\t0\n"
                            "scale_b\tlin\t0\t10\t3\t1\n";
  files["measurements.tsv"] = kMeasurementHeader +
                              "obs_b\tc0\t1\t0.4\tscale_b\t\n"
                              "obs_b\tc0\t2\t0.4\t0.5\t\n";
  const ProblemFolder problem(files);
  auto p = problem.load();
  EXPECT_EQ(p->n_experiments(), 1u);
  const PetabResult r = p->evaluate(p->nominal_scaled(), tight());
  EXPECT_NEAR(r.simulations[0], 3.0 * (1.0 - std::exp(-0.3)), 1e-9);
  EXPECT_NEAR(r.simulations[1], 0.5 * (1.0 - std::exp(-0.6)), 1e-9);
}

// y = 0.8 and 0.2 of A on log10 with sigma 0.1 (on the log10 scale).
TEST(PetabEvaluation, Log10ObservableHasTheHandComputedLikelihood) {
  auto files = base_files();
  files["observables.tsv"] = kObservableHeader + "obs_a\tA\t0.1\tlog10\tnormal\n";
  files["measurements.tsv"] = kMeasurementHeader +
                              "obs_a\tc0\t1\t0.8\t\t\n"
                              "obs_a\tc1\t3\t0.2\t\t\n";
  files["parameters.tsv"] = kParameterHeader + "kc\tlog10\t1e-3\t1e3\t0.7\t1\n";
  const ProblemFolder problem(files);
  auto p = problem.load();
  const PetabResult r = p->evaluate(p->nominal_scaled(), tight());
  const double h0 = std::exp(-0.3), h1 = 2.0 * std::exp(-0.7 * 3.0);
  const double ln10 = std::log(10.0);
  double nllh = 0.0, chi2 = 0.0;
  for (auto [y, h] : {std::pair{0.8, h0}, std::pair{0.2, h1}}) {
    const double z = (std::log10(y) - std::log10(h)) / 0.1;
    nllh += 0.5 * std::log(2.0 * M_PI * 0.01) + 0.5 * z * z + std::log(y * ln10);
    chi2 += z * z;
  }
  ASSERT_TRUE(std::isfinite(r.nllh));
  EXPECT_NEAR(r.nllh, nllh, 1e-8 * std::abs(nllh));
  EXPECT_NEAR(r.chi2, chi2, 1e-7);
  // The simulations are of A itself, not of its log.
  EXPECT_NEAR(r.simulations[0], h0, 1e-9);
  EXPECT_NEAR(r.simulations[1], h1, 1e-9);
  EXPECT_NEAR(r.residuals[0], (std::log10(0.8) - std::log10(h0)) / 0.1, 1e-7);
}

TEST(PetabEvaluation, LaplaceNoiseHasTheHandComputedLikelihood) {
  auto files = base_files();
  files["observables.tsv"] = kObservableHeader +
                             "obs_a\tA\tnoiseParameter1_obs_a\tlin\tlaplace\n"
                             "obs_b\tobservableParameter1_obs_b * B\t0.1\tlog\tlaplace\n";
  const ProblemFolder problem(files);
  auto p = problem.load();
  const PetabResult r = p->evaluate(p->nominal_scaled(), tight());
  const double h0 = std::exp(-0.3), h1 = 2.0 * std::exp(-1.4), h2 = 1.5 * (1.0 - std::exp(-0.3));
  const double nllh = std::log(2 * 0.2) + std::abs(0.8 - h0) / 0.2 + std::log(2 * 0.3) +
                      std::abs(0.5 - h1) / 0.3 + std::log(2 * 0.1) +
                      std::abs(std::log(0.4) - std::log(h2)) / 0.1 + std::log(0.4);
  EXPECT_NEAR(r.nllh, nllh, 1e-8 * std::abs(nllh));
}

// Priors on kc (log10 scale), sd and a third parameter k3 (log scale,
// a parameter of no formula).
TEST(PetabEvaluation, PriorsGiveTheHandComputedPosteriorAndItsGradient) {
  auto files = base_files();
  files["parameters.tsv"] =
      "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\t"
      "objectivePriorType\tobjectivePriorParameters\n"
      "kc\tlog10\t1e-3\t1e3\t0.7\t1\tparameterScaleNormal\t-0.5;0.4\n"
      "sd\tlin\t0.01\t10\t0.2\t1\tnormal\t0.3;0.05\n"
      "k3\tlog\t1e-3\t1e3\t1.5\t1\tlogNormal\t0.2;0.7\n"
      "k2\tlin\t0\t10\t0.1\t0\t\t\n";
  const ProblemFolder problem(files);
  auto p = problem.load();
  ASSERT_EQ(p->parameter_ids(), (std::vector<std::string>{"kc", "sd", "k3"}));
  PetabOptions options = tight();
  options.gradient = true;
  const std::vector<double> x = {std::log10(0.6), 0.25, std::log(1.2)};
  const PetabResult r = p->evaluate(x, options);
  ASSERT_TRUE(r.has_priors);
  const double h0 = std::exp(-0.3), h1 = 2.0 * std::exp(-0.6 * 2.0), h2 = 1.5 * (1.0 - std::exp(-0.3));
  const double nllh = normal_nllh(0.8, h0, 0.25) + normal_nllh(0.5, h1, 0.3) +
                      normal_nllh(0.4, h2, 0.1);
  EXPECT_NEAR(r.nllh, nllh, 1e-8);
  // -log densities: of x_kc on its scale, of sd, and of k3 with log k3 normal.
  const double prior_kc = normal_nllh(x[0], -0.5, 0.4);
  const double prior_sd = normal_nllh(0.25, 0.3, 0.05);
  const double prior_k3 = normal_nllh(std::log(1.2), 0.2, 0.7) + std::log(1.2);
  EXPECT_NEAR(r.log_prior, -(prior_kc + prior_sd + prior_k3), 1e-12);
  EXPECT_NEAR(r.nlpost, nllh + prior_kc + prior_sd + prior_k3, 1e-8);
  ASSERT_EQ(r.gradient.size(), 3u);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double h = 1e-5;
    std::vector<double> xp = x, xm = x;
    xp[i] += h;
    xm[i] -= h;
    const double fd = (p->evaluate(xp, tight()).nlpost - p->evaluate(xm, tight()).nlpost) / (2 * h);
    EXPECT_NEAR(r.gradient[i], fd, 1e-5 * (1.0 + std::abs(fd))) << p->parameter_ids()[i];
  }
  // k3 is in no formula: its gradient is its prior's alone,
  // d/dx [(x - mu)^2 / (2 s^2) + x] at x = log k3.
  EXPECT_NEAR(r.gradient[2], (x[2] - 0.2) / (0.7 * 0.7) + 1.0, 1e-10);
}

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

// A log-normal or log-Laplace prior of a linear-scale parameter at 0 (its
// lower bound): the density is 0 there, so nlpost is +inf with a warning
// naming the parameter (it was NaN), and the gradient stays finite.
TEST(PetabEvaluation, LogPriorsAtZeroAreOutsideTheirSupport) {
  for (const char* prior : {"logNormal\t0.2;0.7", "logLaplace\t0.2;0.7"}) {
    SCOPED_TRACE(prior);
    auto files = base_files();
    files["parameters.tsv"] =
        "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\t"
        "objectivePriorType\tobjectivePriorParameters\n"
        "kc\tlog10\t1e-3\t1e3\t0.7\t1\t\t\n"
        "sd\tlin\t0.01\t10\t0.2\t1\t\t\n"
        "k3\tlin\t0\t10\t1.5\t1\t" + std::string(prior) + "\n"
        "k2\tlin\t0\t10\t0.1\t0\t\t\n";
    const ProblemFolder problem(files);
    auto p = problem.load();
    ASSERT_EQ(p->parameter_ids(), (std::vector<std::string>{"kc", "sd", "k3"}));
    PetabOptions options = tight();
    options.gradient = true;
    const PetabResult r = p->evaluate({std::log10(0.6), 0.25, 0.0}, options);
    EXPECT_EQ(r.nlpost, std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isfinite(r.nllh));
    ASSERT_EQ(r.gradient.size(), 3u);
    EXPECT_TRUE(std::isfinite(r.gradient[2]));
    // The value named is the parameter's (it named log p: "-inf at -inf").
    bool named = false;
    for (const std::string& w : r.warnings)
      named = named || w.find("'k3': the log-density of its objective prior is -inf at its "
                              "value 0 (outside") != std::string::npos;
    EXPECT_TRUE(named) << (r.warnings.empty() ? "no warning" : r.warnings[0]);
    // Just inside the support it is finite again.
    EXPECT_TRUE(std::isfinite(p->evaluate({std::log10(0.6), 0.25, 1e-3}, tight()).nlpost));
  }
}

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

// A noise parameter below 0 makes sigma negative: the likelihood is not
// defined there, and neither are its gradient and FIM. They were finite
// (the formulas' values at a negative sigma) beside a NaN nllh; by the
// forward sensitivities and by the adjoint alike they are NaN now, with
// the rows named.
TEST(PetabEvaluation, ANegativeSigmaLeavesNoFiniteDerivatives) {
  auto files = base_files();
  files["parameters.tsv"] = kParameterHeader +
                            "kc\tlog10\t1e-3\t1e3\t0.7\t1\n"
                            "sd\tlin\t-10\t10\t0.2\t1\n"
                            "k2\tlin\t0\t10\t0.1\t0\n";
  const ProblemFolder problem(files);
  auto p = problem.load();
  for (const char* method : {"cvodes_fsa", "cvodes_asa"}) {
    SCOPED_TRACE(method);
    PetabOptions options = tight();
    options.method = method;
    options.gradient = true;
    options.fim = std::string(method) == "cvodes_fsa";
    const PetabResult good = p->evaluate({std::log10(0.6), 0.25}, options);
    ASSERT_TRUE(std::isfinite(good.nllh));
    for (double g : good.gradient) EXPECT_TRUE(std::isfinite(g));
    const PetabResult r = p->evaluate({std::log10(0.6), -0.25}, options);
    EXPECT_TRUE(std::isnan(r.nllh));
    ASSERT_EQ(r.gradient.size(), 2u);
    for (double g : r.gradient) EXPECT_TRUE(std::isnan(g));
    for (double f : r.fim) EXPECT_TRUE(std::isnan(f));
    ASSERT_FALSE(r.warnings.empty());
    EXPECT_NE(r.warnings[0].find("measurements.tsv:2: the noise formula gives sigma = -0.25, "
                                 "not positive"),
              std::string::npos)
        << r.warnings[0];
  }
  // The least-squares form is not defined there either: its residuals were
  // finite where sigma is a constant: the third row's noise parameter, a
  // number here).
  PetabOptions least_squares = tight();
  least_squares.residual_jacobian = true;
  for (const char* sigma : {"-0.25", "0"}) {
    SCOPED_TRACE(sigma);
    auto constant = base_files();
    const std::string row = "obs_a\tc1\t2\t0.5\t\t";
    std::string& text = constant["measurements.tsv"];
    text.replace(text.find(row + "0.3"), row.size() + 3, row + sigma);
    auto q = ProblemFolder(constant).load();
    try {
      const PetabResult r = q->evaluate({std::log10(0.6), 0.25}, least_squares);
      ADD_FAILURE() << "residual " << r.least_squares_residuals[1];
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::not_finite);
      EXPECT_NE(std::string(e.what()).find("measurements.tsv:3: sigma = "), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

// Values no evaluation can take, refused at load with their cell (they
// reached the evaluation as NaN or inf, named without file or row).
TEST(PetabRefusals, ANegativeNominalValueOnALogScale) {
  expect_parse_error(edit("parameters.tsv", "1e3\t0.7", "1e3\t-0.7"),
                     {"parameters.tsv:2:5", "nominalValue -0.7 is negative on a log scale"});
}

TEST(PetabRefusals, AnInfiniteConditionValue) {
  expect_parse_error(edit("conditions.tsv", "c0\t0.3\t", "c0\tinf\t"),
                     {"conditions.tsv:2:2", "condition value inf for 'k1'", "must be finite"});
  // an initial value (a species' column)
  expect_parse_error(edit("conditions.tsv", "c1\tkc\t2", "c1\tkc\t-inf"),
                     {"conditions.tsv:3:3", "condition value -inf for 'A'"});
}

TEST(PetabRefusals, AnInfiniteObservableOrNoiseParameter) {
  expect_parse_error(edit("measurements.tsv", "0.4\t1.5\t", "0.4\tinf\t"),
                     {"measurements.tsv:4", "observableParameters 'inf': item 1 is infinite"});
  expect_parse_error(edit("measurements.tsv", "0.5\t\t0.3", "0.5\t\t0.3;-inf"),
                     {"measurements.tsv:3", "noiseParameters '0.3;-inf': item 2 is infinite"});
}

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

// The log10 transformation's term log(y ln 10) of a measurement above
// about 7.8e307: the product overflowed, and nllh was -inf with a warning
// blaming the term. Summed, it is the finite hand-computed value.
TEST(PetabEvaluation, ALog10MeasurementNearTheLargestDoubleHasAFiniteTerm) {
  auto files = base_files();
  files["observables.tsv"] = kObservableHeader + "obs_a\tA\t0.1\tlog10\tnormal\n";
  files["measurements.tsv"] = kMeasurementHeader + "obs_a\tc0\t1\t8e307\t\t\n";
  files["parameters.tsv"] = kParameterHeader + "kc\tlog10\t1e-3\t1e3\t0.7\t1\n";
  const ProblemFolder problem(files);
  auto p = problem.load();
  const PetabResult r = p->evaluate(p->nominal_scaled(), tight());
  const double h = std::exp(-0.3), y = 8e307;
  const double z = (std::log10(y) - std::log10(h)) / 0.1;
  const double nllh =
      0.5 * std::log(2.0 * M_PI * 0.01) + 0.5 * z * z + std::log(y) + std::log(std::log(10.0));
  ASSERT_TRUE(std::isfinite(r.nllh));
  EXPECT_NEAR(r.nllh, nllh, 1e-8 * std::abs(nllh));
  EXPECT_TRUE(r.warnings.empty()) << r.warnings[0];
}

// A normal prior of scale 1e-200 at its mean: -log p is finite, but its
// curvature 1/b^2 is not a double, and the FIM's entry was inf without a
// word.
TEST(PetabEvaluation, APriorWhoseCurvatureOverflowsIsNamed) {
  auto files = base_files();
  files["parameters.tsv"] =
      "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\t"
      "objectivePriorType\tobjectivePriorParameters\n"
      "kc\tlog10\t1e-3\t1e3\t0.7\t1\t\t\n"
      "sd\tlin\t0.01\t10\t0.2\t1\tnormal\t0.2;1e-200\n"
      "k2\tlin\t0\t10\t0.1\t0\t\t\n";
  const ProblemFolder problem(files);
  auto p = problem.load();
  PetabOptions options = tight();
  options.fim = true;
  const PetabResult r = p->evaluate(p->nominal_scaled(), options);
  ASSERT_TRUE(std::isfinite(r.nlpost));
  ASSERT_EQ(r.fim.size(), 4u);
  EXPECT_FALSE(std::isfinite(r.fim[3]));
  bool named = false;
  for (const std::string& w : r.warnings)
    named = named || (w.find("'sd': the derivatives of its objective prior's -log p overflow") !=
                          std::string::npos &&
                      w.find("the FIM's diagonal entry is not finite") != std::string::npos);
  EXPECT_TRUE(named) << (r.warnings.empty() ? "no warning" : r.warnings[0]);
}

// A parameter without an initialization prior whose objective prior is
// uniform on part of its box: its starts lie in that part (drawn from the
// whole box, most had nlpost = inf and failed), spread over it on the
// parameter's scale; a uniform prior outside the box is refused.
TEST(PetabEvaluation, StartsLieWithinAUniformObjectivePriorsSupport) {
  auto files = base_files();
  files["parameters.tsv"] =
      "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\t"
      "objectivePriorType\tobjectivePriorParameters\n"
      "kc\tlog10\t1e-3\t1e3\t0.7\t1\tuniform\t0.5;2\n"
      "sd\tlin\t0.01\t10\t0.2\t1\tparameterScaleUniform\t-5;1\n"
      "k2\tlin\t0\t10\t0.1\t0\t\t\n";
  const ProblemFolder problem(files);
  auto p = problem.load();
  const std::vector<double> lo = p->lower_scaled(), hi = p->upper_scaled();
  EXPECT_DOUBLE_EQ(p->start_value(0, lo[0]), std::log10(0.5));
  EXPECT_DOUBLE_EQ(p->start_value(0, hi[0]), std::log10(2.0));
  EXPECT_DOUBLE_EQ(p->start_value(0, 0.5 * (lo[0] + hi[0])),
                   0.5 * (std::log10(0.5) + std::log10(2.0)));
  EXPECT_DOUBLE_EQ(p->start_value(1, lo[1]), 0.01);  // the box's bound: within -5
  EXPECT_DOUBLE_EQ(p->start_value(1, hi[1]), 1.0);
  files["parameters.tsv"] =
      "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\t"
      "objectivePriorType\tobjectivePriorParameters\n"
      "kc\tlog10\t1e-3\t1e3\t0.7\t1\tuniform\t2000;3000\n"
      "sd\tlin\t0.01\t10\t0.2\t1\t\t\n"
      "k2\tlin\t0\t10\t0.1\t0\t\t\n";
  const ProblemFolder outside(files);
  auto q = outside.load();
  try {
    q->start_value(0, q->lower_scaled()[0]);
    ADD_FAILURE() << "a uniform prior outside the box was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("lies outside its bounds"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace odesens
