// Hostile SBML: nesting deep enough to overflow a stack inside libsbml or
// the translation, function definitions whose inlining explodes, packages
// declared required. Each is refused with a status and a message that names
// the limit, before anything can crash; documents at the limits load on a
// thread with a small stack. The big documents are generated here.
#include <gtest/gtest.h>

#include <chrono>

#include "odesens/odesens.hpp"
#include "sbml/sbml_test_documents.hpp"
#include "support/small_stack.hpp"

namespace {

using namespace odesens;
using namespace odesens::sbml_testing;
using odesens::testing::kSmallStack;
using odesens::testing::on_small_stack;

// Loads `doc` and expects Error(status) with `fragment` in its message.
void expect_refused(const std::string& doc, Status status, const std::string& fragment) {
  try {
    load_sbml_text(doc, "hostile.xml");
    FAIL() << "accepted; expected: " << fragment;
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), status) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("hostile.xml", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

double rate_of(const Model& m) {
  std::vector<double> f(m.nx());
  const std::vector<double> x(m.nx(), 1.0);
  m.rhs(0.0, x.data(), m.nominal_params().data(), f.data());
  return f[0];
}

// S is used up at the rate `law` gives.
std::string decay_with(const std::string& law, const std::string& functions = "",
                       const std::string& extra_lists = "") {
  return l3v2(functions + list("Compartments", compartment("c", "1")) +
              list("Species", species("S", "c", "initialAmount=\"1\"", true)) +
              list("Parameters", parameter("k", "0.5", true)) + extra_lists +
              list("Reactions", reaction("R", "S:1", "", law)));
}

// k + 1 + 1 + ... with n nested <apply> elements.
std::string nested_sum(int n) {
  std::string open, close;
  for (int i = 0; i < n; ++i) {
    open += "<apply><plus/>";
    close += cn(1) + "</apply>";
  }
  return open + ci("k") + close;
}

// <sbml>, <model>, <listOfReactions>, <reaction>, <kineticLaw>, <math>: the
// math of a kinetic law starts at XML level 7; nested_sum(n)'s innermost
// elements are at level 7 + n.
constexpr int kLawLevel = 7;

TEST(SbmlLimits, MathNestedTenThousandDeepIsRefusedBeforeLibsbmlRecurses) {
  expect_refused(decay_with(nested_sum(10000)), Status::unsupported,
                 "hostile.xml:7: XML elements nested more than 256 levels deep; refused before "
                 "reading");
}

TEST(SbmlLimits, NestingAtTheLimitLoadsOnASmallStackAndOneMoreIsRefused) {
  const int n = 256 - kLawLevel;
  on_small_stack(kSmallStack, [&] {
    auto m = load_sbml_text(decay_with(nested_sum(n)), "limit.xml");
    EXPECT_EQ(rate_of(*m), -(0.5 + n));
  });
  expect_refused(decay_with(nested_sum(n + 1)), Status::unsupported,
                 "nested more than 256 levels deep");
  // Piecewise takes two elements a level; annotations nest any XML.
  std::string pieces = ci("k");
  for (int i = 0; i < n / 2; ++i)
    pieces = "<piecewise><piece>" + pieces + "<true/></piece></piecewise>";
  std::string annotation = "<x/>";  // at level 256 under <sbml>, <model>, <annotation>, <a>
  for (int i = 0; i < 256 - 5; ++i) annotation = "<x>" + annotation + "</x>";
  annotation = "<annotation><a xmlns=\"urn:test\">" + annotation + "</a></annotation>";
  on_small_stack(kSmallStack, [&] {
    EXPECT_EQ(rate_of(*load_sbml_text(decay_with(pieces), "pieces.xml")), -0.5);
    const std::string doc = decay_with(fn("times", ci("k") + ci("S")));
    const auto at = doc.find("<listOfCompartments>");
    EXPECT_EQ(rate_of(*load_sbml_text(doc.substr(0, at) + annotation + doc.substr(at), "a.xml")),
              -0.5);
  });
}

TEST(SbmlLimits, MarkupThatIsNotAnElementDoesNotCountAsNesting) {
  std::string deep_looking;
  for (int i = 0; i < 1000; ++i) deep_looking += "<apply>";
  const std::string doc = decay_with(fn("times", ci("k") + ci("S")));
  const auto at = doc.find("<listOfCompartments>");
  const std::string comment = "<!-- " + deep_looking + " -->";
  const std::string pi = "<?odesens " + deep_looking + " ?>";
  const std::string cdata = "<notes><body xmlns=\"http://www.w3.org/1999/xhtml\"><p><![CDATA[" +
                            deep_looking + "]]></p></body></notes>";
  for (const std::string& inside : {comment, pi, cdata}) {
    auto m = load_sbml_text(doc.substr(0, at) + inside + doc.substr(at), "flat.xml");
    EXPECT_EQ(rate_of(*m), -0.5) << inside.substr(0, 40);
  }
}

TEST(SbmlLimits, MarkupThatIsNotAnElementHidesNoNesting) {
  // 300 nested elements whose attribute values hold "/>" and between which
  // comments, CDATA and processing instructions hold end tags.
  std::string open, close;
  for (int i = 0; i < 300; ++i) {
    open += "<x b=\"/>\" c='>'><!-- </x></x> --><?pi </x> ?><![CDATA[</x>]]>";
    close += "</x>";
  }
  const std::string doc = decay_with(fn("times", ci("k") + ci("S")));
  const auto at = doc.find("<listOfCompartments>");
  expect_refused(doc.substr(0, at) + "<annotation><a xmlns=\"urn:test\">" + open + close +
                     "</a></annotation>" + doc.substr(at),
                 Status::unsupported, "XML elements nested more than 256 levels deep");
}

TEST(SbmlLimits, EntityDeclarationsAreRefused) {
  const std::string doc = decay_with(fn("times", ci("k") + ci("S")));
  const auto at = doc.find("<sbml");
  expect_refused(
      doc.substr(0, at) +
          "<!DOCTYPE sbml [\n<!ENTITY deep \"<apply><plus/><ci>k</ci><cn>1</cn></apply>\">\n]>\n" +
          doc.substr(at),
      Status::unsupported, ":3: the document declares XML entities");
}

// f0(x) = x, f_i(x) = f_{i-1}(x) (+ f_{i-1}(x) when doubling).
std::string function_chain(int n, bool doubling) {
  std::string defs = "<functionDefinition id=\"f0\">" +
                     math("<lambda><bvar>" + ci("x") + "</bvar>" + ci("x") + "</lambda>") +
                     "</functionDefinition>";
  for (int i = 1; i <= n; ++i) {
    const std::string call = "<apply>" + ci("f" + std::to_string(i - 1)) + ci("x") + "</apply>";
    defs += "<functionDefinition id=\"f" + std::to_string(i) + "\">" +
            math("<lambda><bvar>" + ci("x") + "</bvar>" +
                 (doubling ? fn("plus", call + call) : call) + "</lambda>") +
            "</functionDefinition>";
  }
  return decay_with("<apply>" + ci("f" + std::to_string(n)) + ci("k") + "</apply>",
                    list("FunctionDefinitions", defs));
}

TEST(SbmlLimits, ChainsOfFunctionDefinitionsAreCapped) {
  on_small_stack(kSmallStack, [] {
    EXPECT_EQ(rate_of(*load_sbml_text(function_chain(63, false), "chain.xml")), -0.5);
  });
  expect_refused(function_chain(64, false), Status::unsupported,
                 "more than 64 levels deep (f64 -> ... -> f1 -> f0)");
  expect_refused(function_chain(20000, false), Status::unsupported,
                 "function definitions call one another more than 64 levels deep "
                 "(f20000 -> ... -> f19937 -> f19936)");
}

TEST(SbmlLimits, FunctionDefinitionsWhoseInliningExplodesAreRefusedQuickly) {
  EXPECT_EQ(rate_of(*load_sbml_text(function_chain(10, true), "doubling.xml")), -0.5 * 1024);
  const auto start = std::chrono::steady_clock::now();
  expect_refused(function_chain(40, true), Status::unsupported,
                 "the function definitions inlined into the model exceed 1000000 expression "
                 "nodes (each call inlines its function's body again, so calls within calls "
                 "multiply); reached inlining 'f40'");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30.0);
}

// Rules a_i = a_{i-1} + 1 + ... over a_0 = 1, with `depth` nested sums in
// odd rules and `depth + 1` in even ones.
std::string rule_chain(int n, int depth) {
  std::string params = parameter("a0", "1", true), rules;
  for (int i = 1; i <= n; ++i) {
    params += parameter("a" + std::to_string(i), "", false);
    std::string body = ci("a" + std::to_string(i - 1));
    for (int d = 0; d < depth + (i % 2 == 0); ++d) body = fn("plus", body + cn(1));
    rules += assignment_rule("a" + std::to_string(i), body);
  }
  return l3v2(list("Compartments", compartment("c", "1")) +
              list("Species", species("S", "c", "initialAmount=\"1\"", true)) +
              list("Parameters", params) + list("Rules", rules) +
              list("Reactions", reaction("R", "S:1", "", ci("a" + std::to_string(n)))));
}

TEST(SbmlLimits, TranslationDepthCountsThroughRulesAndFunctionsAndFitsASmallStack) {
  // 196 rules of 2 and 3 levels (with the <ci> that refers to the next):
  // 491 levels of math under 198 nested values, as deep as both limits
  // allow at once.
  on_small_stack(kSmallStack, [] {
    EXPECT_EQ(rate_of(*load_sbml_text(rule_chain(196, 1), "rules.xml")), -(1.0 + 98 * 3));
  });
  expect_refused(rule_chain(100, 6), Status::unsupported,
                 "the assignment rule for 'a34': math nested more than 500 levels deep, counting "
                 "the function definitions it calls and the rules it refers to");
  expect_refused(rule_chain(250, 0), Status::unsupported,
                 "values nested more than 200 levels deep (rules and initial assignments that "
                 "refer to one another, from 'R' to 'a51')");
  // 63 functions whose bodies nest 7 levels: 441 levels.
  std::string defs = "<functionDefinition id=\"g0\">" +
                     math("<lambda><bvar>" + ci("x") + "</bvar>" + ci("x") + "</lambda>") +
                     "</functionDefinition>";
  for (int i = 1; i <= 63; ++i) {
    std::string body = "<apply>" + ci("g" + std::to_string(i - 1)) + ci("x") + "</apply>";
    for (int d = 0; d < 6; ++d) body = fn("plus", body + cn(0));
    defs += "<functionDefinition id=\"g" + std::to_string(i) + "\">" +
            math("<lambda><bvar>" + ci("x") + "</bvar>" + body + "</lambda>") +
            "</functionDefinition>";
  }
  on_small_stack(kSmallStack, [&] {
    auto m = load_sbml_text(
        decay_with("<apply>" + ci("g63") + ci("k") + "</apply>", list("FunctionDefinitions", defs)),
        "functions.xml");
    EXPECT_EQ(rate_of(*m), -0.5);
  });
}

// ---- packages ----

std::string with_package(const std::string& prefix, const std::string& uri, bool required,
                         const std::string& model_content = "") {
  std::string doc = decay_with(fn("times", ci("k") + ci("S")), "", model_content);
  const std::string root = "level=\"3\" version=\"2\">";
  doc.replace(doc.find(root), root.size(),
              "xmlns:" + prefix + "=\"" + uri + "\" level=\"3\" version=\"2\" " + prefix +
                  ":required=\"" + (required ? "true" : "false") + "\">");
  return doc;
}

TEST(SbmlLimits, PackagesDeclaredRequiredAreRefusedByName) {
  expect_refused(with_package("foo", "http://www.example.org/foo/version1", true),
                 Status::unsupported,
                 ": <sbml> foo:required=\"true\" (namespace http://www.example.org/foo/version1): "
                 "the model needs SBML package 'foo', which is not supported yet");
  expect_refused(
      with_package("d", "http://www.sbml.org/sbml/level3/version1/distrib/version1", true),
      Status::unsupported, "the model needs SBML package 'distrib'");
  // Beside comp (harmless alone), the one libsbml does not know is named.
  std::string both =
      with_package("comp", "http://www.sbml.org/sbml/level3/version1/comp/version1", true);
  const std::string comp = "comp:required=\"true\">";
  both.replace(both.find(comp), comp.size(),
               "comp:required=\"true\" xmlns:d=\"http://www.sbml.org/sbml/level3/version1/"
               "distrib/version1\" d:required=\"true\">");
  expect_refused(both, Status::unsupported, "the model needs SBML package 'distrib'");
  // An element of a package is named with its line, as before.
  expect_refused(
      with_package("layout", "http://www.sbml.org/sbml/level3/version1/layout/version1", false,
                   "<layout:listOfLayouts><layout:layout layout:id=\"L\">"
                   "<layout:dimensions layout:width=\"1\" layout:height=\"1\"/>"
                   "</layout:layout></layout:listOfLayouts>"),
      Status::unsupported, "<layout> 'L': SBML package 'layout' is not supported yet");
}

TEST(SbmlLimits, PackagesThatChangeNothingAreAccepted) {
  // Declared but unused and not required; and comp required without any of
  // its elements (flat models as sbmlutils writes them).
  for (const std::string& doc :
       {with_package("layout", "http://www.sbml.org/sbml/level3/version1/layout/version1", false),
        with_package("comp", "http://www.sbml.org/sbml/level3/version1/comp/version1", true)})
    EXPECT_EQ(rate_of(*load_sbml_text(doc, "harmless.xml")), -0.5);
}

}  // namespace
