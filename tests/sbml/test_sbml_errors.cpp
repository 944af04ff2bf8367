// Malformed and unsupported SBML files (tests/sbml/models/) are rejected as
// a whole with a status and a message that names the file, the line, the
// element and its id; nothing is half-loaded and nothing crashes.
#include <gtest/gtest.h>

#include <cmath>

#include "odesens/odesens.hpp"

namespace {

using namespace odesens;

std::string model_path(const std::string& name) {
  return std::string(ODESENS_SBML_TEST_MODELS) + "/" + name + ".xml";
}

struct BadFile {
  const char* name;
  Status status;
  const char* message;  // what the message must contain, after the file name
};

void PrintTo(const BadFile& f, std::ostream* os) { *os << f.name; }

class SbmlRejects : public ::testing::TestWithParam<BadFile> {};

TEST_P(SbmlRejects, WithItsStatusAndAMessageNamingTheElement) {
  const BadFile& bad = GetParam();
  try {
    load_sbml_file(model_path(bad.name));
    FAIL() << bad.name << " was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), bad.status) << e.what();
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(model_path(bad.name), 0), 0u) << message;
    EXPECT_NE(message.find(bad.message), std::string::npos) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Files, SbmlRejects,
    ::testing::Values(
        BadFile{"malformed_event_on_constant", Status::parse_error,
                ":30: <event> 'reset': the assignment to 'k': 'k' is declared constant, so no "
                "event may change it"},
        BadFile{"unsupported_algebraic_rule", Status::unsupported,
                ":16: <algebraicRule> (rule #1): algebraic rules are not supported yet"},
        BadFile{"unsupported_delay", Status::unsupported,
                "<reaction> 'R' (kinetic law): delay (csymbol) is not supported (odesens "
                "integrates ODEs, not delay equations)"},
        BadFile{"unsupported_fast_reaction", Status::unsupported,
                "<reaction> 'R': fast reactions are not supported yet"},
        BadFile{"unsupported_package", Status::unsupported,
                "<submodel> 'inner': SBML package 'comp' is not supported yet"},
        BadFile{"malformed_xml", Status::parse_error, ":7: not valid SBML: "},
        BadFile{"malformed_unknown_id", Status::parse_error,
                ":19: the kinetic law of reaction 'R': unknown id 'kk'"},
        BadFile{"malformed_rule_cycle", Status::parse_error,
                "rules and initial assignments form a cycle: k -> a -> k"},
        BadFile{"malformed_missing_value", Status::parse_error,
                "parameter 'k' has no value (needed by the kinetic law of reaction 'R')"},
        BadFile{"malformed_recursive_function", Status::parse_error,
                "function 'f' calls itself (recursion is not allowed)"},
        BadFile{"malformed_argument_count", Status::parse_error,
                "function 'mass_action' takes 2 arguments, called with 1"},
        BadFile{"malformed_no_kinetic_law", Status::parse_error,
                ":15: <reaction> 'R' has no kinetic law, so its rate is not defined (SBML "
                "leaves it to the simulator), and it changes species 'S'"},
        BadFile{"malformed_rule_on_constant", Status::parse_error,
                "the rate rule for 'k': 'k' is declared constant, so no rule may change it"}));

TEST(SbmlLoad, TheValidBaseOfTheBadFilesLoads) {
  auto m = load_sbml_file(model_path("decay"));
  EXPECT_EQ(m->state_names(), std::vector<std::string>{"S"});
  EXPECT_EQ(m->param_names(), std::vector<std::string>{"k"});
}

// A reaction without a kinetic law that changes only a boundary species has
// no effect whatever its rate: it loads, and S decays by the other reaction
// alone (S' = -0.5 S).
TEST(SbmlLoad, AReactionWithoutKineticLawThatChangesNothingLoads) {
  auto m = load_sbml_file(model_path("no_kinetic_law_no_effect"));
  Problem p;
  p.model = m;
  p.output_times = {0.0, 1.0};
  p.rtol = 1e-10;
  p.atol = {1e-12};
  const Result r = solve(p, "cvodes_fsa");
  ASSERT_EQ(r.nx, 1u);
  EXPECT_NEAR(r.x[1], std::exp(-0.5), 1e-8);
}

TEST(SbmlLoad, MissingFilesAndDirectoriesAreNamed) {
  try {
    load_sbml_file(model_path("no_such_model"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unknown_model);
    EXPECT_NE(std::string(e.what()).find("no_such_model.xml"), std::string::npos);
  }
  try {
    load_sbml_file(ODESENS_SBML_TEST_MODELS);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::io_error);
  }
}

TEST(SbmlLoad, TextThatIsNotSbmlIsAParseError) {
  for (const char* text : {"", "<html><body/></html>", "<sbml", "state x = 1\n"}) {
    try {
      load_sbml_text(text, "<text>");
      FAIL() << "accepted: " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::parse_error) << text << ": " << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("<text>", 0), 0u) << e.what();
    }
  }
}

TEST(SbmlLoad, SensitivityParametersMustBeConstantGlobalValues) {
  SbmlOptions options;
  const std::pair<std::vector<std::string>, const char*> bad[] = {
      {{"nope"}, "sensitivity parameter 'nope': the model has no such id"},
      {{"S"}, "'S' cannot be a sensitivity parameter: it is a species"},
      {{"R"}, "'R' cannot be a sensitivity parameter: it is a reaction"},
      {{"k", "k"}, "sensitivity parameter 'k' is listed twice"},
  };
  for (const auto& [ids, message] : bad) {
    options.sensitivity_params = ids;
    try {
      load_sbml_file(model_path("decay"), options);
      FAIL() << message;
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::invalid_argument);
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
  options.sensitivity_params = std::vector<std::string>{"c", "k"};
  EXPECT_EQ(load_sbml_file(model_path("decay"), options)->param_names(),
            (std::vector<std::string>{"c", "k"}));
  options.sensitivity_params = std::vector<std::string>{};
  EXPECT_EQ(load_sbml_file(model_path("decay"), options)->np(), 0u);
}

}  // namespace
