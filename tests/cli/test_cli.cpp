// The odesens tool: output documents and error behaviour, run as a user would.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "cli/tool_run.hpp"
#include "odesens/odesens.hpp"

namespace {

using odesens::test::ToolRun;
using odesens::test::read_text_file;
using odesens::test::run_shell;
using odesens::test::run_tool;

// The lines of a text.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The words of a line.
std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// The summary of method `id` below the table of `odesens methods`: the line
// that starts with the id and the indented lines that continue it, joined.
std::string summary_after_table(const std::vector<std::string>& lines, const std::string& id) {
  std::size_t k = odesens::method_infos().size() + 1;
  while (k < lines.size() && lines[k].rfind(id + "  ", 0) != 0) ++k;
  if (k == lines.size()) return "";
  std::string text;
  for (auto word : words_of(lines[k])) text += word + " ";
  while (++k < lines.size() && lines[k].rfind("             ", 0) == 0)
    for (const auto& word : words_of(lines[k])) text += word + " ";
  return text.substr(id.size() + 1, text.size() - id.size() - 2);
}

// `odesens methods`: one row per method with what it gives (yes or -) and
// needs and its default tolerances, read from the registry; then each
// method's summary; nothing wider than 100 columns.
TEST(Cli, MethodsTableShowsCapabilitiesTolerancesAndSummaries) {
  const ToolRun r = run_tool("methods");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto lines = lines_of(r.out);
  for (const auto& line : lines) EXPECT_LE(line.size(), 100u) << line;
  ASSERT_GT(lines.size(), odesens::method_infos().size());
  EXPECT_EQ(words_of(lines[0]),
            (std::vector<std::string>{"method", "S(t)", "S(T)", "grad", "events", "dirs",
                                      "integr", "bounds", "f-only", "needs", "rtol", "atol"}));
  const auto yes = [](bool b) { return std::string(b ? "yes" : "-"); };
  std::size_t row = 1;
  for (const auto& info : odesens::method_infos()) {
    const auto& c = info.capabilities;
    const auto words = words_of(lines[row++]);
    ASSERT_EQ(words.size(), 12u) << info.id;
    EXPECT_EQ(words[0], info.id);
    EXPECT_EQ(words[1], yes(c.s_trajectory)) << info.id;
    EXPECT_EQ(words[2], yes(c.final_s)) << info.id;
    EXPECT_EQ(words[3], yes(c.gradient)) << info.id;
    EXPECT_EQ(words[4], yes(c.events)) << info.id;
    EXPECT_EQ(words[5], yes(c.directions)) << info.id;
    EXPECT_EQ(words[6], yes(c.integrands)) << info.id;
    EXPECT_EQ(words[7], yes(c.bounds)) << info.id;
    EXPECT_EQ(words[8], yes(c.rhs_only)) << info.id;
    EXPECT_EQ(std::strtod(words[10].c_str(), nullptr), info.default_rtol) << info.id;
    EXPECT_EQ(std::strtod(words[11].c_str(), nullptr), info.default_atol) << info.id;
    EXPECT_EQ(summary_after_table(lines, info.id), info.summary);
  }
  EXPECT_EQ(words_of(lines[7])[9], "exact-J");     // grk4as
  EXPECT_EQ(words_of(lines[8])[9], "2nd-derivs");  // odesd
  EXPECT_EQ(words_of(lines[9])[9], "box");         // bounds_fsa
}

TEST(Cli, OptionsShowTypesRangesAsWrittenDefaultsAndChoices) {
  ToolRun r = run_tool("options cvodes_fsa");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("default tolerances: rtol 1e-8, atol 1e-10\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\n  sens_error_control (flag, 0 or 1; default 1)\n      1: "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\n  lmm (text: bdf, adams; default bdf)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  sparse_threshold (integer, 1 .. 1e15; default 100)\n"),
            std::string::npos)
      << r.out;
  // A positive range is "> 0", not [2.2250738585072014e-308, inf].
  r = run_tool("options pbsr");
  EXPECT_NE(r.out.find("\n  c (real, > 0; default 10)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  eps_tol (real, >= 0; default 0.0001)\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\n  max_refinement (integer, 1 .. 1e9; default 100000)\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("e-308"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("inf"), std::string::npos) << r.out;
  const ToolRun bad =
      run_tool("run builtin:chua --method cvodes_fsa --option sens_error_control=2");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.err.find("must be 0 or 1 (got 2)"), std::string::npos) << bad.err;
}

// `run --method ID --help`: the flags that apply to ID and ID's options;
// without a method every flag of run, and where the options are.
TEST(Cli, RunHelpShowsTheFlagsAndOptionsOfTheMethod) {
  ToolRun r = run_tool("run --method erk_adjoint --help");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_EQ(r.out.rfind("usage: odesens run MODEL --method erk_adjoint [flags]\n", 0), 0u) << r.out;
  for (const char* flag : {"\n  --rtol R ", "(default for erk_adjoint: 1e-6)", "\n  --integrand ",
                           "\n  --weights ", "\n  --observe ", "\n  --format json|csv|h5 ",
                           "\noptions of erk_adjoint (--option KEY=VALUE):\n",
                           "\n  tableau (text: euler, rk4, bs3, cash_karp, dopri5, dop853; default "
                           "dopri5)\n",
                           "\n  threads (integer, 0 .. 1024; default 1)\n"})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag << " in " << r.out;
  for (const char* flag : {"\n  --box ", "\n  --params ", "\n  --methods "})
    EXPECT_EQ(r.out.find(flag), std::string::npos) << flag << " in " << r.out;
  for (const auto& line : lines_of(r.out)) EXPECT_LE(line.size(), 100u) << line;

  // Flags of the set-valued methods; no gradient-only or h5 output.
  r = run_tool("run builtin:chua -h --method bounds_fsa");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* flag : {"\n  --box ", "\n  --data ", "\n  --weights ", "\n  --format json|csv ",
                           "\n  order (integer, 0 .. 12; default 4)\n"})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag << " in " << r.out;
  EXPECT_EQ(r.out.find("\n  --integrand "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("json|csv|h5"), std::string::npos) << r.out;

  // A forward method takes the objective flags (it gives their gradient
  // through S), not the box or running costs.
  r = run_tool("run --help --method cvodes_fsa");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* flag : {"\n  --data ", "\n  --weights "})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag << " in " << r.out;
  for (const char* flag : {"\n  --box ", "\n  --integrand "})
    EXPECT_EQ(r.out.find(flag), std::string::npos) << flag << " in " << r.out;

  // Without a method: every flag of run, and the way to the options.
  r = run_tool("run --help");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* flag : {"\n  --box ", "\n  --data ", "\n  --weights ", "\n  --integrand ",
                           "odesens run --method ID --help lists them"})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag << " in " << r.out;
  EXPECT_EQ(r.out.find("\noptions of "), std::string::npos) << r.out;

  // ensemble and compare have their own flags.
  r = run_tool("ensemble --method exp --help");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* flag : {"\n  --params ", "\n  --threads N ", "\noptions of exp "})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag << " in " << r.out;
  EXPECT_EQ(r.out.find("\n  --observe "), std::string::npos) << r.out;
  r = run_tool("compare --methods exp,pbsr --help");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* flag : {"\n  --methods ", "\noptions of exp ", "\noptions of pbsr "})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag << " in " << r.out;

  // An unknown method is a usage error, as without --help.
  r = run_tool("run --method nosuch --help");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown method 'nosuch'"), std::string::npos) << r.err;
  // compare accepted --out and --format and wrote no file.
  for (const char* command : {"compare builtin:chua --methods cvodes_fsa,odesd --out c.json",
                              "compare builtin:chua --methods cvodes_fsa,odesd --format csv"}) {
    r = run_tool(command);
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_NE(r.err.find("it prints its table to standard output"), std::string::npos) << r.err;
  }
  // methods, options and info have the tool's help (they were "unknown").
  for (const char* command : {"methods --help", "options -h", "info model.ode --help"}) {
    r = run_tool(command);
    EXPECT_EQ(r.status, 0) << command << ": " << r.err;
    EXPECT_NE(r.out.find("odesens info MODEL"), std::string::npos) << command << ": " << r.out;
  }
}

// `methods --markdown ID`: the generated part of docs/methods/ID.md, a
// table row per option with its type, default and allowed values.
TEST(Cli, MethodsMarkdownIsATableOfTheOptions) {
  ToolRun r = run_tool("methods --markdown pbsr");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto lines = lines_of(r.out);
  const auto& info = odesens::method_info("pbsr");
  ASSERT_EQ(lines.size(), 4 + info.options.size()) << r.out;
  EXPECT_EQ(lines[0], "Default tolerances: rtol 1e-5, atol 1e-6.");
  EXPECT_EQ(lines[2], "| option | type | default | allowed | what it sets |");
  for (std::size_t k = 0; k < info.options.size(); ++k)
    EXPECT_EQ(lines[4 + k].rfind("| `" + info.options[k].key + "` | ", 0), 0u) << lines[4 + k];
  EXPECT_NE(r.out.find("\n| `c` | real | `10` | > 0 | "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n| `force_pbs` | flag | `0` | 0 or 1 | "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n| `exp_jp` | text | `linear` | `linear`, `frozen` | "),
            std::string::npos)
      << r.out;
  // A '|' of the documentation is escaped, so that it does not end the cell.
  EXPECT_NE(r.out.find("ceil(c \\* dt \\* \\|J_x\\|_F)"), std::string::npos) << r.out;
  r = run_tool("methods --markdown nosuch");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown method 'nosuch'"), std::string::npos) << r.err;
  r = run_tool("methods --markdown");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--markdown needs a method id"), std::string::npos) << r.err;
}

// Every method has its page, whose option table tests/cli/check_option_tables.cmake
// keeps current.
TEST(Cli, EveryMethodHasADocumentationPage) {
  for (const auto& info : odesens::method_infos()) {
    const std::string page =
        read_text_file(std::string(ODESENS_SOURCE_DIR) + "/docs/methods/" + info.id + ".md");
    EXPECT_NE(page.find("<!-- options:begin -->"), std::string::npos) << info.id;
  }
}

TEST(Cli, ForwardJsonHasExactlyTheDocumentedFields) {
  const ToolRun r = run_tool("run builtin:chua --method cvodes_fsa --tout 0:10:11");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty());
  const char* fields[] = {"{\"method\":\"cvodes_fsa\"", ",\"model\":\"builtin:chua\"",
                          ",\"nx\":3", ",\"np\":2", ",\"states\":[\"x1\",\"x2\",\"x3\"]",
                          ",\"parameters\":[\"p1\",\"p2\"]", ",\"times\":[0,1,2,3,4,5,6,7,8,9,10]",
                          ",\"x\":[[0,0,-0.1],", ",\"S_times\":[0,1,2,3,4,5,6,7,8,9,10]",
                          ",\"S\":[[[0,0],[0,0],[0,0]],", ",\"stats\":{\"steps\":",
                          ",\"rhs_evals\":", ",\"jac_evals\":", ",\"wall_seconds\":"};
  std::size_t pos = 0;
  for (const char* f : fields) {
    const auto found = r.out.find(f, pos);
    ASSERT_NE(found, std::string::npos) << "missing or out of order: " << f;
    pos = found;
  }
  // The default objective sum_i x_i(t_final), its gradient through S.
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["gradient"].size(), 2u);
  double sum = 0.0;
  for (const auto& v : doc["x"].back()) sum += v.get<double>();
  EXPECT_NEAR(doc["objectives"][0].get<double>(), sum, 1e-14 * std::fabs(sum));
  for (std::size_t j = 0; j < 2; ++j) {
    double column = 0.0;
    for (std::size_t i = 0; i < 3; ++i) column += doc["S"].back()[i][j].get<double>();
    EXPECT_NEAR(doc["gradient"][j].get<double>(), column, 1e-12 * (std::fabs(column) + 1.0));
  }
}

// dopri8s with directions=all: ns, then S (dx/dp) and after it SR (dx/dx0,
// then dx/dp: chua has 3 states and 2 parameters), in the result table's
// order.
TEST(Cli, DirectionsGiveSRInJsonAndCsv) {
  ToolRun r = run_tool("run builtin:chua --method dopri8s --tout 0,1 --option directions=all");
  ASSERT_EQ(r.status, 0) << r.err;
  const char* fields[] = {",\"ns\":5", ",\"S_times\":[0,1]", ",\"S\":[[[0,0],[0,0],[0,0]],",
                          ",\"SR\":[[[1,0,0,0,0],[0,1,0,0,0],[0,0,1,0,0]],", ",\"stats\":{"};
  std::size_t pos = 0;
  for (const char* f : fields) {
    const auto found = r.out.find(f, pos);
    ASSERT_NE(found, std::string::npos) << "missing or out of order: " << f << " in " << r.out;
    pos = found;
  }
  r = run_tool("run builtin:chua --method dopri8s --tout 0,1 --option directions=states "
               "--format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "t,x1,x2,x3,dx1/dr1,dx2/dr1,dx3/dr1,dx1/dr2,dx2/dr2,dx3/dr2,dx1/dr3,dx2/dr3,dx3/dr3");
  EXPECT_NE(r.out.find("\n0,0,0,-0.1,1,0,0,0,1,0,0,0,1\n"), std::string::npos) << r.out;
  // The default directions are the parameters: S alone.
  r = run_tool("run builtin:chua --method dopri8s --tout 0,1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("\"SR\""), std::string::npos);
}

TEST(Cli, AdjointJsonGivesFinalTimeSensitivityAndGradient) {
  const ToolRun r = run_tool("run builtin:glv:3 --method cvodes_asa --tout 0:10:3");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"S_times\":[10]"), std::string::npos);
  EXPECT_NE(r.out.find(",\"gradient\":["), std::string::npos);
}

// ---- several objectives: --integrand ----

// Two states, two parameters, and an output to serve as running cost.
const char* kCostModel =
    "param a = 1.3\nparam b = 0.7\nstate u = 1\nstate v = 0.5*a\n"
    "du/dt = -a*u + b*sin(v)\ndv/dt = a*u*v/(1 + v^2) - b*v\n"
    "output cost = (u - 0.3)^2 + b*log(1 + v^2)\n";

// A file under /tmp holding `text`, its name ending in `suffix`; removed
// with the object.
class TempFile {
 public:
  TempFile(const std::string& text, const std::string& suffix)
      : path_("/tmp/odesens_cli_XXXXXX" + suffix) {
    const int fd = mkstemps(path_.data(), static_cast<int>(suffix.size()));
    written_ = fd >= 0 && write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    if (fd >= 0) close(fd);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }
  bool written() const { return written_; }

 private:
  std::string path_;
  bool written_ = false;
};

// Runs the tool on the model `text` written to an .ode file; `flags`
// follow the model.
ToolRun run_model_text(const std::string& text, const std::string& flags) {
  const TempFile model(text, ".ode");
  return model.written() ? run_tool("run " + model.path() + " " + flags) : ToolRun{-1, "", ""};
}

ToolRun run_cost_model(const std::string& flags) { return run_model_text(kCostModel, flags); }

const char* const kDecay = "param p = 1\nstate x = 1\ndx/dt = -p*x\ntime t_end = 2\n";

// --out naming a file the command reads is refused before the work: run
// replaced its model with its JSON, ensemble its parameter table with HDF5.
TEST(Cli, OutputOverAnInputIsRefused) {
  const TempFile model(kDecay, ".ode");
  const TempFile params("p\n0.5\n", ".csv");
  ASSERT_TRUE(model.written() && params.written());
  for (const std::string& command :
       {"run " + model.path() + " --method cvodes_fsa --out " + model.path(),
        "run " + model.path() + " --method cvodes_fsa --format h5 --out " + model.path(),
        "ensemble " + model.path() + " --method cvodes_fsa --params " + params.path() +
            " --out " + params.path(),
        "ensemble " + model.path() + " --method cvodes_fsa --params " + params.path() +
            " --out " + model.path()}) {
    SCOPED_TRACE(command);
    const ToolRun r = run_tool(command);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("is a file this command reads"), std::string::npos) << r.err;
  }
  EXPECT_EQ(odesens::test::read_text_file(model.path()), kDecay);
  EXPECT_EQ(odesens::test::read_text_file(params.path()), "p\n0.5\n");
}

// --t0 at or after the model's end time without --tout is said as such
// (it was "--tout a:b:n needs b > a", of a --tout never given).
TEST(Cli, AT0AfterTheModelsEndTimeAsksForTout) {
  const ToolRun r = run_model_text(kDecay, "--method cvodes_fsa --t0 5");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--t0 5 is not before the model's end time 2: give --tout"),
            std::string::npos) << r.err;
}

// NaN is written "nan" whatever its sign bit (printf wrote "-nan", which
// many CSV readers take for no number).
TEST(Cli, NanIsWrittenNanInCsv) {
  const ToolRun r = run_model_text(
      "param p = 1\nstate x = 1\ndx/dt = -p*x\noutput o = log(-x)\ntime t_end = 1\n",
      "--method cvodes_fsa --tout 0:1:3 --observe o --format csv");
  EXPECT_EQ(r.out.find("-nan"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nan"), std::string::npos) << r.out;
}

TEST(Cli, IntegrandGivesOneGradientPerObjectiveInJson) {
  const std::string erk = "--method erk_adjoint --tout 0.5,1,2 --option h_fixed=0.01 ";
  // Two objectives, from two flags: psi_1 = int cost, psi_2 = int u.
  ToolRun r = run_cost_model(erk + "--integrand cost --integrand u");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_TRUE(doc["gradient"].is_array());
  ASSERT_EQ(doc["gradient"].size(), 2u) << r.out;
  for (const auto& column : doc["gradient"]) EXPECT_EQ(column.size(), 2u) << r.out;  // np
  ASSERT_EQ(doc["gradient_x0"].size(), 2u) << r.out;
  for (const auto& column : doc["gradient_x0"]) EXPECT_EQ(column.size(), 2u) << r.out;  // nx
  ASSERT_EQ(doc["objectives"].size(), 2u) << r.out;
  const double psi_cost = doc["objectives"][0].get<double>();
  const double psi_u = doc["objectives"][1].get<double>();
  EXPECT_GT(psi_cost, 0.0);
  EXPECT_GT(psi_u, 0.0);
  // The same running costs in one comma list, in the other order.
  r = run_cost_model(erk + "--integrand u,cost");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json swapped = nlohmann::json::parse(r.out);
  EXPECT_EQ(swapped["objectives"][0].get<double>(), psi_u);
  EXPECT_EQ(swapped["objectives"][1].get<double>(), psi_cost);
  EXPECT_EQ(swapped["gradient"][0], doc["gradient"][1]);

  // One objective: flat lists, as the gradient always was, and without
  // weights psi is the integral alone.
  r = run_cost_model(erk + "--integrand cost");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json one = nlohmann::json::parse(r.out);
  ASSERT_EQ(one["gradient"].size(), 2u);
  EXPECT_TRUE(one["gradient"][0].is_number()) << r.out;
  EXPECT_EQ(one["gradient"], doc["gradient"][0]);
  EXPECT_TRUE(one["gradient_x0"][0].is_number()) << r.out;
  ASSERT_EQ(one["objectives"].size(), 1u);
  EXPECT_EQ(one["objectives"][0].get<double>(), psi_cost);

  // Without --integrand: G = sum_i x_i(t_final), its value reported.
  r = run_cost_model(erk);
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json plain = nlohmann::json::parse(r.out);
  EXPECT_TRUE(plain["gradient"][0].is_number());
  const auto& x_final = plain["x"].back();
  EXPECT_NEAR(plain["objectives"][0].get<double>(),
              x_final[0].get<double>() + x_final[1].get<double>(), 1e-14);
  // cvodes_asa gives the objective's value too, but no gradient_x0.
  r = run_cost_model("--method cvodes_asa --tout 0.5,1,2");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("gradient_x0"), std::string::npos);
  const nlohmann::json asa = nlohmann::json::parse(r.out);
  const auto& asa_final = asa["x"].back();
  EXPECT_NEAR(asa["objectives"][0].get<double>(),
              asa_final[0].get<double>() + asa_final[1].get<double>(), 1e-14);
}

TEST(Cli, IntegrandCsvHasAGradientColumnPerObjectiveAndTheirValues) {
  ToolRun r = run_cost_model(
      "--method erk_adjoint --tout 0.5,1,2 --integrand cost,u,v --format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto table = r.out.find("\n\nparameter,gradient_1,gradient_2,gradient_3\na,");
  ASSERT_NE(table, std::string::npos) << r.out;
  const auto values = r.out.find("\n\nobjective,value\n1,", table);
  ASSERT_NE(values, std::string::npos) << r.out;
  const std::string tail = r.out.substr(values + 2);
  EXPECT_EQ(std::count(tail.begin(), tail.end(), '\n'), 4) << tail;  // header, 3 objectives
  const std::string b_row = r.out.substr(r.out.find("\nb,", table) + 1);
  EXPECT_EQ(std::count(b_row.begin(), b_row.begin() + b_row.find('\n'), ','), 3) << b_row;
  // One objective: the table of old, and the value.
  r = run_cost_model("--method erk_adjoint --tout 0.5,1,2 --integrand cost --format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\n\nparameter,gradient\na,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n\nobjective,value\n1,"), std::string::npos) << r.out;
}

TEST(Cli, IntegrandErrorsSayWhatIsWrong) {
  struct Bad {
    std::string flags;
    int status;
    const char* message;
  };
  const Bad bad[] = {
      // A method without running costs: the library's refusal, exit 1 as for
      // other unsupported input.
      {"--method cvodes_asa --tout 0.5,1,2 --integrand cost", 1,
       "method 'cvodes_asa' differentiates one objective G = sum_k w_k^T x(t_k) and takes "
       "neither several objectives nor integrands (erk_adjoint does)"},
      {"--method cvodes_fsa --tout 0.5,1,2 --integrand cost,u", 1,
       "takes neither several objectives nor integrands (erk_adjoint does)"},
      {"--method erk_adjoint --tout 0.5,1,2 --integrand cost,nosuch", 2,
       "--integrand: model"},
      {"--method erk_adjoint --tout 0.5,1,2 --integrand cost,nosuch", 2,
       "has no observable 'nosuch'"},
      {"--method erk_adjoint --integrand cost,", 2, "--integrand: empty name in 'cost,'"},
  };
  for (const auto& b : bad) {
    const ToolRun r = run_cost_model(b.flags);
    EXPECT_EQ(r.status, b.status) << b.flags << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << b.flags << ": " << r.err;
    EXPECT_NE(r.err.find(b.message), std::string::npos) << b.flags << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << b.flags;
  }
}

TEST(Cli, ParametersToleranceOptionsAndCsv) {
  const ToolRun r = run_tool(
      "run builtin:vanderpol --method cvodes_fsa --tout 0.1,0.2 --param mu=10 --rtol 1e-7 "
      "--atol 1e-9 --option corrector=staggered --format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "t,x,v,dx/dmu,dv/dmu");
  // Two rows of x and S, then the default objective's gradient and value.
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3 + 6);
  EXPECT_NE(r.out.find("\nparameter,gradient\nmu,"), std::string::npos) << r.out;
}

TEST(Cli, OutFileReceivesTheDocument) {
  const std::string path = "/tmp/odesens_cli_out.json";
  const ToolRun r = run_tool("run builtin:chua --method cvodes_fsa --tout 0:1:2 --out " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(read_text_file(path).substr(0, 22), "{\"method\":\"cvodes_fsa\"");
  std::remove(path.c_str());
}

TEST(Cli, InfoDescribesTheModel) {
  const ToolRun r = run_tool("info builtin:heat2d:5");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("states (25)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("parameters (1): alpha=1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("J_x non-zeros: 45"), std::string::npos) << r.out;
}

// --method auto: the result names the method that ran and why (JSON and
// standard error); info tells what auto would run; auto's own options
// pass, another method's are refused.
TEST(Cli, AutoSaysWhatItChoseAndWhy) {
  ToolRun r = run_tool("run builtin:chua --method auto --tout 0:1:5");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"method_choice\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"method\": \"auto\""), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("odesens: auto chose "), std::string::npos) << r.err;
  r = run_tool("run builtin:chua --method auto --tout 0:1:5 --option goal=gradient");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("a gradient is asked for"), std::string::npos) << r.err;
  r = run_tool("run builtin:chua --method auto --option lmm=adams");
  EXPECT_EQ(r.status, 2) << r.err;
  r = run_tool("info builtin:chua");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("auto, S at every output: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("auto, a gradient: "), std::string::npos) << r.out;
}

// auto's choice on a model without states gives S and no gradient, and
// the CSV writer, told that auto may give one, indexed a gradient that was
// empty (a segmentation fault on the SBML Test Suite's models of
// parameters alone); --format h5 refused auto as if it enclosed.
TEST(Cli, AutoWritesEveryFormatOnAModelWithoutStates) {
  const std::string dir = std::filesystem::temp_directory_path().string() + "/odesens_cli_" +
                          std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string model = dir + "/no_states.xml";
  std::ofstream(model) << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sbml "
                          "xmlns=\"http://www.sbml.org/sbml/level3/version2/core\" level=\"3\" "
                          "version=\"2\"><model id=\"no_states\"><listOfParameters><parameter "
                          "id=\"k\" value=\"1\" constant=\"true\"/></listOfParameters></model>"
                          "</sbml>\n";
  ToolRun r = run_tool("run " + model + " --method auto --tout 0:1:3 --format csv");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"t", "0", "0.5", "1"})) << r.out;
  r = run_tool("run " + model + " --method auto --tout 0:1:3 --format h5 --out " + dir + "/a.h5");
  EXPECT_EQ(r.status, 0) << r.err;
  r = run_tool("run builtin:chua --method auto --tout 0:1:3 --format h5 --out " + dir + "/c.h5");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/c.h5"));
  std::filesystem::remove_all(dir);
}

// auto takes --box and encloses (it was refused: --box asked for the
// capability of needing a box), and --format h5 then refuses it.
TEST(Cli, AutoTakesABoxAndEncloses) {
  const std::string dir = std::filesystem::temp_directory_path().string() + "/odesens_cli_box_" +
                          std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string model = dir + "/decay.ode";
  std::ofstream(model) << "param k = 1\nstate x = 1\ndx/dt = -k*x\n";
  ToolRun r = run_tool("run " + model + " --method auto --tout 0:1:3 --box k=0.9:1.1 --format csv");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("auto chose bounds_fsa"), std::string::npos) << r.err;
  r = run_tool("run " + model + " --method auto --box k=0.9:1.1 --format h5 --out " + dir +
               "/a.h5");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("does not hold the enclosures"), std::string::npos) << r.err;
  r = run_tool("run " + model + " --method cvodes_fsa --box k=0.9:1.1");
  EXPECT_NE(r.err.find("bounds_fsa, bounds_asa and auto do"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

TEST(Cli, CompareRunsBothMethodsOnOneProblem) {
  const ToolRun r = run_tool("compare builtin:chua --methods cvodes_fsa,cvodes_asa --tout 0:10:11");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("cvodes_asa"), std::string::npos);
}

// A method that gives no S (dopri8s with directions=states gives S R) has
// nothing to compare: its column says so (it read 0.000e+00, agreement).
TEST(Cli, CompareSaysWhenAMethodGaveNoS) {
  const ToolRun r = run_tool(
      "compare builtin:chua --tout 0,0.5,1 --methods cvodes_fsa,dopri8s "
      "--option directions=states");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::size_t row = r.out.find("\ndopri8s");
  ASSERT_NE(row, std::string::npos) << r.out;
  const std::string line = r.out.substr(row + 1, r.out.find('\n', row + 1) - row - 1);
  EXPECT_NE(line.find("no S to compare"), std::string::npos) << line;
  EXPECT_EQ(line.find("0.000e+00"), std::string::npos) << line;
}

// Every error: non-zero exit and exactly one line on standard error.
TEST(Cli, ErrorsExitNonZeroWithOneLineOnStderr) {
  const char* bad[] = {
      "run builtin:chua --method nosuch",
      "run builtin:nosuch --method cvodes_fsa",
      "run builtin:chua --method cvodes_fsa --rtol -1",
      "run builtin:chua --method cvodes_fsa --rtol abc",
      "run builtin:chua --method cvodes_fsa --tout 3,2,1",
      "run builtin:chua --method cvodes_fsa --tout 0:1:1",
      "run builtin:chua --method cvodes_fsa --param nosuch=1",
      "run builtin:chua --method cvodes_fsa --param p1=nan",
      "run builtin:chua --method cvodes_fsa --option nosuch=1",
      "run builtin:chua --method cvodes_fsa --option sens_error_control=0.5",
      "run builtin:chua --method cvodes_fsa --format xml",
      "run builtin:chua --method cvodes_fsa --max-steps 2",
      "run builtin:chua --method cvodes_fsa --out /nonexistent/dir/x.json",
      "run builtin:chua",
      "run --method cvodes_fsa",
      "run builtin:chua --method cvodes_fsa --bogus",
      "frobnicate",
      "info",
  };
  for (const char* args : bad) {
    const ToolRun r = run_tool(args);
    EXPECT_NE(r.status, 0) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
    EXPECT_EQ(r.err.rfind("odesens: error: ", 0), 0u) << args << ": " << r.err;
  }
}

// ---- SBML models, --sens-params and --observe ----

std::string sbml_model(const std::string& name) {
  return std::string(ODESENS_SBML_TEST_MODELS) + "/" + name + ".xml";
}

TEST(Cli, SbmlJsonHasTheDocumentedFieldsAndObservablesOnlyWhenAsked) {
  const std::string model = sbml_model("decay");
  ToolRun r = run_tool("run " + model + " --method cvodes_fsa --tout 0:2:3");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(",\"states\":[\"S\"],\"parameters\":[\"k\"],\"times\":[0,1,2],"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("observables"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::accept(r.out));

  r = run_tool("run " + model + " --method cvodes_fsa --tout 0:2:3 --rtol 1e-12 --atol 1e-14"
               " --observe S,S:amount --observe k,R,c");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto at = r.out.find(",\"observables\":{\"S\":[1,");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_GT(at, r.out.find("\"stats\""));
  EXPECT_NE(r.out.find("\"S:amount\":[1,0.60653065"), std::string::npos) << r.out;  // e^-0.5
  EXPECT_NE(r.out.find("\"k\":[0.5,0.5,0.5]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"R\":[0.5,0.30326532"), std::string::npos) << r.out;  // k S
  EXPECT_NE(r.out.find("\"c\":[1,1,1]}}"), std::string::npos) << r.out;
}

TEST(Cli, ObservablesBecomeCsvColumnsAfterTheSensitivities) {
  const ToolRun r = run_tool("run " + sbml_model("decay") +
                             " --method cvodes_fsa --tout 0:1:2 --format csv --observe R");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "t,S,dS/dk,R");
  EXPECT_NE(r.out.find("\n0,1,0,0.5\n"), std::string::npos) << r.out;
}

TEST(Cli, SensParamsChooseTheSensitivityParameters) {
  ToolRun r = run_tool("run " + sbml_model("decay") + " --method cvodes_fsa --tout 0:1:2 "
                       "--sens-params c,k");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"np\":2,"), std::string::npos);
  EXPECT_NE(r.out.find("\"parameters\":[\"c\",\"k\"]"), std::string::npos) << r.out;
  r = run_tool("run " + sbml_model("decay") + " --method cvodes_fsa --tout 0:1:2 --sens-params ''");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"np\":0,\"states\":[\"S\"],\"parameters\":[]"), std::string::npos)
      << r.out;
}

TEST(Cli, InfoOfSbmlCountsReactionsAndRules) {
  const ToolRun r = run_tool("info " + sbml_model("decay"));
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* line : {"states (1): S\n", "parameters (1): k=0.5\n", "time span: [0, 100]\n",
                           "format: SBML Level 3 Version 2\n", "reactions: 1\n",
                           "assignment rules: 0\n", "rate rules: 0\n", "J_x non-zeros: 1\n"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << " in\n" << r.out;
  const ToolRun only_c = run_tool("info " + sbml_model("decay") + " --sens-params c");
  EXPECT_NE(only_c.out.find("parameters (1): c=1\n"), std::string::npos) << only_c.out;
}

TEST(Cli, OdeModelsObserveTheirLets) {
  char path[] = "/tmp/odesens_cli_lets_XXXXXX";
  const int fd = mkstemp(path);
  const std::string text = "param k = 1\nstate x = 4\nlet half = x/2\ndx/dt = -k*x\n";
  ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  close(fd);
  const ToolRun r = run_tool(std::string("run ") + path +
                             " --method cvodes_fsa --tout 0:1:2 --observe half,x");
  std::remove(path);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(",\"observables\":{\"half\":[2,"), std::string::npos) << r.out;
}

TEST(Cli, SbmlAndObservableErrorsSayWhatIsWrong) {
  struct Bad {
    std::string args;
    int status;
    const char* message;
  };
  const std::string decay = sbml_model("decay");
  const Bad bad[] = {
      {"run " + decay + " --method cvodes_fsa --observe nosuch", 2, "no observable 'nosuch'"},
      {"run " + decay + " --method cvodes_fsa --observe k:amount", 2, "'k' is not a species"},
      {"run " + decay + " --method cvodes_fsa --observe S,", 2, "--observe: empty name"},
      {"run " + decay + " --method cvodes_fsa --sens-params S", 2, "'S' cannot be a sensitivity"},
      {"run builtin:chua --method cvodes_fsa --sens-params p1", 2, "apply to SBML models"},
      {"run " + sbml_model("malformed_event_on_constant") + " --method cvodes_fsa", 2,
       "<event> 'reset': the assignment to 'k': 'k' is declared constant"},
      {"info " + sbml_model("malformed_unknown_id"), 2, "unknown id 'kk'"},
      {"info " + sbml_model("no_such_model"), 2, "no_such_model.xml"},
      {"info " + decay + " --sens-params", 2, "info takes MODEL"},
  };
  for (const auto& b : bad) {
    const ToolRun r = run_tool(b.args);
    EXPECT_EQ(r.status, b.status) << b.args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << b.args << ": " << r.err;
    EXPECT_NE(r.err.find(b.message), std::string::npos) << b.args << ": " << r.err;
  }
}

// ---- hostile model files: one line, exit status 1 (a model error), no crash ----

TEST(Cli, HostileModelFilesFailWithOneLineNamingTheReason) {
  char dir[] = "/tmp/odesens_cli_hostile_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string deep = std::string(dir) + "/deep.xml";
  {
    std::string law;
    for (int i = 0; i < 10000; ++i) law += "<apply><plus/>";
    law += "<ci> k </ci>";
    for (int i = 0; i < 10000; ++i) law += "<cn> 1 </cn></apply>";
    std::string doc = read_text_file(sbml_model("decay"));
    const std::string old_law = "<apply><times/><ci> k </ci><ci> S </ci></apply>";
    doc.replace(doc.find(old_law), old_law.size(), law);
    std::ofstream(deep) << doc;
  }
  const std::string utf16 = std::string(dir) + "/utf16.xml";
  {
    std::string bytes = "\xFF\xFE";
    for (char c : read_text_file(sbml_model("decay"))) bytes += std::string(1, c) + '\0';
    std::ofstream(utf16, std::ios::binary) << bytes;
  }
  const std::string fifo = std::string(dir) + "/model.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  struct Bad {
    std::string args;
    const char* message;
  };
  const Bad bad[] = {
      {"run " + deep + " --method cvodes_fsa", "XML elements nested more than 256 levels deep"},
      {"info " + utf16, "UTF-16 (little-endian) is not supported; convert the file to UTF-8"},
      {"run /dev/zero --method cvodes_fsa",
       "cannot read model file '/dev/zero': it is a character device, not a regular file"},
      {"info " + fifo, "it is a FIFO (named pipe), not a regular file"},
      {"info " + std::string(dir), "it is a directory, not a regular file"},
  };
  for (const auto& b : bad) {
    const ToolRun r = run_tool(b.args);
    EXPECT_EQ(r.status, 1) << b.args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << b.args << ": " << r.err;
    EXPECT_NE(r.err.find(b.message), std::string::npos) << b.args << ": " << r.err;
  }
  ::setenv("ODESENS_MAX_MODEL_FILE_SIZE", "1K", 1);
  const ToolRun limited = run_tool("info " + sbml_model("decay"));
  ::unsetenv("ODESENS_MAX_MODEL_FILE_SIZE");
  EXPECT_EQ(limited.status, 1) << limited.err;
  EXPECT_NE(limited.err.find("larger than the model file size limit of 1 KiB (1024 bytes); set "
                             "ODESENS_MAX_MODEL_FILE_SIZE"),
            std::string::npos)
      << limited.err;
  std::remove(deep.c_str());
  std::remove(utf16.c_str());
  std::remove(fifo.c_str());
  ::rmdir(dir);
}

TEST(Cli, AStoichiometryNearTheLargestDoubleFailsWithTheTruthAboutIt) {
  // S -> 1e300 P at rate k: CVODES' first step size is 0.
  std::string doc = read_text_file(sbml_model("decay"));
  const std::string old_law = "<apply><times/><ci> k </ci><ci> S </ci></apply>";
  doc.replace(doc.find(old_law), old_law.size(), "<ci> k </ci>");
  const std::string reactants = "</listOfReactants>";
  doc.replace(doc.find(reactants), reactants.size(),
              reactants + "<listOfProducts><speciesReference species=\"P\" "
                          "stoichiometry=\"1e300\" constant=\"true\"/></listOfProducts>");
  const std::string species = "</listOfSpecies>";
  doc.replace(doc.find(species), species.size(),
              "<species id=\"P\" compartment=\"c\" initialAmount=\"0\" "
              "hasOnlySubstanceUnits=\"false\" boundaryCondition=\"false\" "
              "constant=\"false\"/>" + species);
  char path[] = "/tmp/odesens_cli_big_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  std::ofstream(path) << doc;
  for (const char* method : {"cvodes_fsa", "cvodes_asa"}) {
    const ToolRun r = run_tool(std::string("run ") + path + " --method " + method);
    EXPECT_EQ(r.status, 1) << method << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << method << ": " << r.err;
    EXPECT_NE(r.err.find("the step size is 0 at t = 0, where 'P' = 0 changes at 5e+299 per unit "
                         "time"),
              std::string::npos)
        << method << ": " << r.err;
    EXPECT_EQ(r.err.find("tcur"), std::string::npos) << method << ": " << r.err;
  }
  std::remove(path);
}

}  // namespace

namespace {

// A method's warning reaches standard error and the JSON document; the
// exit status stays 0 (the numbers are there, with the warning).
TEST(Cli, WarningsGoToStandardErrorAndTheDocument) {
  char path[] = "/tmp/odesens_cli_fast_slow_XXXXXX.ode";
  const int fd = mkstemps(path, 4);
  ASSERT_GE(fd, 0);
  const std::string text =
      "param k = 1e8\nstate x = 1\nstate y = 0\ndx/dt = -k*x + y\ndy/dt = k*x - 1e-8*y\n";
  ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  close(fd);
  const std::string run = std::string("run ") + path + " --method pbsr --tout 0:100:3";
  const ToolRun frozen = run_tool(run + " --option exp_jp=frozen");
  EXPECT_EQ(frozen.status, 0) << frozen.err;
  EXPECT_NE(frozen.err.find("odesens: warning: exp_jp=frozen: over stiff steps"),
            std::string::npos)
      << frozen.err;
  EXPECT_NE(frozen.out.find(",\"warnings\":[\"exp_jp=frozen"), std::string::npos);
  const ToolRun linear = run_tool(run);
  EXPECT_EQ(linear.status, 0) << linear.err;
  EXPECT_TRUE(linear.err.empty()) << linear.err;
  EXPECT_EQ(linear.out.find("warnings"), std::string::npos);
  std::remove(path);
}

// ---- exit statuses, limits and the output file ----

// Usage errors exit 2 wherever they are found (the tool or the library),
// failures of valid input 1; the message names what is wrong.
TEST(Cli, ExitStatusTellsUsageErrorsFromFailures) {
  struct Case {
    std::string args;
    int status;
    const char* message;
  };
  const std::string chua = "run builtin:chua --method cvodes_fsa --tout 0:1:3 ";
  const Case cases[] = {
      {chua + "--rtol 0", 2, "rtol must be in (0, 1), got 0"},
      {chua + "--rtol 1e300", 2, "rtol must be in (0, 1), got 1e+300"},
      {chua + "--rtol 1", 2, "rtol must be in (0, 1), got 1"},
      {chua + "--rtol nan", 2, "--rtol: 'nan' is not a finite number"},
      {chua + "--rtol 0x1p-20", 2, "--rtol: '0x1p-20' is not a finite number"},
      {chua + "--rtol 1e-400", 2, "--rtol: '1e-400' is below the smallest double"},
      {chua + "--atol -1", 2, "atol must not be negative, got -1"},
      {chua + "--atol 1e-320", 2, "atol = 1e-320 is below the smallest normal double"},
      {chua + "--atol inf", 2, "--atol: 'inf' is not a finite number"},
      {chua + "--param p1=-inf", 2, "--param p1: '-inf' is not a finite number"},
      {chua + "--option nosuch=1", 2, "method 'cvodes_fsa' has no option 'nosuch'"},
      {chua + "--option sens_error_control=2", 2, "must be 0 or 1 (got 2)"},
      {chua + "--option sparse_threshold=-5", 2, "must be from 1 to 1e15 (got -5)"},
      {"run builtin:chua --method pbsr --tout 0:1:3 --option c=0", 2,
       "option 'c' of method 'pbsr' must be > 0 (got 0)"},
      {"run builtin:chua --method dopri8s --tout 0:1:3 --option h0=-1", 2,
       "option 'h0' of method 'dopri8s' must be >= 0 (got -1)"},
      {chua + "--option lmm=euler", 2, "must be one of: bdf, adams (got 'euler')"},
      {chua + "--option lmm=bdf --tout 1,0.5", 2,
       "output times must be strictly increasing: times[1] = 0.5 <= times[0] = 1"},
      {chua + "--tout 0,1e-7,1e-7", 2, "times[2] = 1e-07 <= times[1] = 1e-07"},
      {chua + "--t0 1e308 --tout 1,2", 2, "output time 1 is before t0 = 1e+308"},
      {chua + "--tout 0:1e308:101", 2, "is 1e+308, at most 1e+300"},
      {chua + "--tout 1e-320,1", 2, "closer than the smallest normal double"},
      {chua + "--rtol 1e-300", 2, "rtol = 1e-300 is below the machine epsilon"},
      {"run builtin:chua --method grk4as --tout 1,2 --rtol 1e-300 --atol 0", 2,
       "no method can meet it in double precision"},
      {chua + "--option sensitivities=0 --tout 1,2 --weights x1=1", 2,
       "which sensitivities=0 turns off"},
      {"run builtin:chua --method dopri8s --tout 1,2 --option lanes=3", 2,
       "must be 0, 1, 4 or 8 (got 3)"},
      {"run builtin:chua --method nosuch", 2, "unknown method 'nosuch'"},
      {"run builtin:pbsr --method pbsr", 2, "unknown built-in model 'pbsr'"},
      {"run builtin:chua --method pbsr --tout 0:1:3 --option force_pbs=5", 2,
       "option 'force_pbs' of method 'pbsr' must be 0 or 1 (got 5)"},
      {chua + "--max-steps 2", 1, "steps taken before reaching t ="},
      {"run " + std::string(ODESENS_SBML_TEST_MODELS) + "/event_reset.xml --method bounds_fsa", 1,
       "method 'bounds_fsa' cannot enclose a model with events"},
  };
  for (const auto& c : cases) {
    const ToolRun r = run_tool(c.args);
    EXPECT_EQ(r.status, c.status) << c.args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
  }
}

TEST(Cli, MalformedModelTextIsAUsageError) {
  char path[] = "/tmp/odesens_cli_bad_XXXXXX";
  const int fd = mkstemp(path);
  const std::string text = "state x = 1\ndx/dt = -k*\n";
  ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  close(fd);
  const ToolRun r = run_tool(std::string("run ") + path + " --method cvodes_fsa");
  std::remove(path);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(std::string(path) + ":2:"), std::string::npos) << r.err;
}

// An observable that is not finite (log of a negative number) was written
// as nan or null without a word.
TEST(Cli, ObservablesThatAreNotFiniteAreSaid) {
  const ToolRun r =
      run_model_text("param p = 1\nstate x = 1\ndx/dt = -p*x\noutput o = log(x - 1)\n",
                     "--method cvodes_fsa --tout 0.25,1 --observe o --format csv");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("warning: observable 'o' is NaN at t = 0.25 (at 2 of 2 output times)"),
            std::string::npos)
      << r.err;
}

// An empty value (an unset shell variable, say) was taken as "not given".
TEST(Cli, EmptyValuesAreRefusedNamingTheFlag) {
  const std::string chua = "run builtin:chua --method cvodes_fsa ";
  const char* flags[] = {"--tout", "--out", "--option", "--param", "--rtol", "--atol", "--t0",
                         "--max-steps", "--format", "--observe", "--integrand"};
  for (const char* flag : flags) {
    const ToolRun r = run_tool(chua + flag + " ''");
    EXPECT_EQ(r.status, 2) << flag << ": " << r.err;
    EXPECT_NE(r.err.find(std::string(flag) + " needs a value, got ''"), std::string::npos)
        << flag << ": " << r.err;
  }
  ToolRun r = run_tool("run builtin:chua --method ''");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--method needs a value, got ''"), std::string::npos) << r.err;
  r = run_tool("compare builtin:chua --methods ''");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--methods needs a value, got ''"), std::string::npos) << r.err;
}

// The grid's span b - a overflowed to Inf and the times became NaN ("output
// time[0] is NaN or Inf", exit 1); such a span is now refused as too long.
TEST(Cli, OutputGridBetweenTheLargestDoublesIsRefusedAsTooLong) {
  const ToolRun r =
      run_tool("run builtin:linear:2 --method cvodes_fsa --tout -1e308:1e308:3 --t0 -1e308");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err.find("NaN"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the time span from t0 = -1e+308 to the last output time 1e+308 is inf, "
                       "at most 1e+300"),
            std::string::npos)
      << r.err;
}

TEST(Cli, OutputTimesBeyondTheLimitNameTheLimit) {
  const ToolRun r = run_tool("run builtin:chua --method cvodes_fsa --tout 0:1:1e9");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--tout a:b:n needs an integer n from 2 to 100000000 (output times), "
                       "got '1e9'"),
            std::string::npos)
      << r.err;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ODESENS_CLI_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ODESENS_CLI_SANITIZED 1
#endif
#endif

// 1e8 output times need 800 MB: under a 600 MB address-space limit the
// allocation fails, which is said as such (it was "internal error").
TEST(Cli, OutOfMemoryIsSaidClearly) {
#ifdef ODESENS_CLI_SANITIZED
  GTEST_SKIP() << "sanitizers reserve address space and abort on a failed allocation";
#else
  const ToolRun r = run_shell("ulimit -v 600000; exec timeout 120 " +
                              std::string(ODESENS_CLI_PATH) +
                              " run builtin:chua --method cvodes_fsa --tout 0:1:100000000");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err, "odesens: error: out of memory (an allocation failed; fewer output times, "
                   "states or parameters need less)\n");
#endif
}

// A fresh folder for output files, removed with what is left in it.
struct Folder {
  Folder() {
    char name[] = "/tmp/odesens_cli_out_XXXXXX";
    path = mkdtemp(name);
  }
  ~Folder() { std::filesystem::remove_all(path); }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(path))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  std::string path;
};

// --out was written in place: a write that failed half-way destroyed the
// previous file and left a truncated one.
TEST(Cli, OutFileIsReplacedWholeOrNotAtAll) {
  Folder folder;
  const std::string out = folder.path + "/result.json";
  {
    std::ofstream old(out);
    old << "previous result\n";
  }
  std::filesystem::permissions(out, std::filesystem::perms::owner_read |
                                        std::filesystem::perms::owner_write |
                                        std::filesystem::perms::group_read);
  const std::string run = std::string(ODESENS_CLI_PATH) +
                          " run builtin:chua --method cvodes_fsa --tout 0:10:101 --out " + out;
  // A file-size limit of 512 bytes: the document (15 kB) cannot be written.
  ToolRun r = run_shell("ulimit -f 1; exec " + run);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err, "odesens: error: writing '" + out +
                       "' failed: File too large (the file is unchanged)\n");
  EXPECT_EQ(read_text_file(out), "previous result\n");
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"result.json"});  // no temporary left

  r = run_shell(run);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  const std::string doc = read_text_file(out);
  EXPECT_EQ(doc.rfind("{\"method\":\"cvodes_fsa\"", 0), 0u) << doc.substr(0, 80);
  EXPECT_TRUE(nlohmann::json::accept(doc));
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"result.json"});
  // The replaced file keeps the permissions of the old one.
  EXPECT_EQ(std::filesystem::status(out).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
                std::filesystem::perms::group_read);
}

TEST(Cli, OutFileWhereNoneCanBeCreatedAndDevices) {
  Folder folder;
  ToolRun r = run_tool("run builtin:chua --method cvodes_fsa --tout 0:1:2 --out " + folder.path +
                       "/missing/x.json");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("cannot write '" + folder.path + "/missing/x.json': cannot create a file "
                       "in '" + folder.path + "/missing/': No such file or directory"),
            std::string::npos)
      << r.err;
  // Not a regular file: written directly, nothing to replace.
  r = run_tool("run builtin:chua --method cvodes_fsa --tout 0:1:2 --out /dev/null");
  EXPECT_EQ(r.status, 0) << r.err;
  r = run_tool("run builtin:chua --method cvodes_fsa --tout 0:1:2 --out " + folder.path);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("Is a directory"), std::string::npos) << r.err;
  EXPECT_TRUE(folder.entries().empty());
}

// Two runs writing the same --out at once leave one whole document.
TEST(Cli, ConcurrentWritersLeaveOneWholeDocument) {
  Folder folder;
  const std::string out = folder.path + "/same.json";
  const std::string run = std::string(ODESENS_CLI_PATH) +
                          " run builtin:glv:10 --method cvodes_fsa --out " + out + " --tout 0:1:";
  const ToolRun r = run_shell("(" + run + "400 & " + run + "401 & wait)");
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string doc = read_text_file(out);
  std::size_t documents = 0;
  for (auto at = doc.find("{\"method\""); at != std::string::npos;
       at = doc.find("{\"method\"", at + 1))
    ++documents;
  EXPECT_EQ(documents, 1u);
  EXPECT_TRUE(nlohmann::json::accept(doc));
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"same.json"});
}

// ---- set-valued bounds: --box, --weights, --data ----

// x' = -p x, x(0) = c/2 = 1: x = e^{-pt}, dx/dp = -t e^{-pt}.
const char* kDecayModel = "param p = 1\nparam c = 2\nstate x = c/2\ndx/dt = -p*x\n";
const double kSlack = 1e-6;  // the integration error, not enclosed (result.hpp)

// The pair [lower, upper] of a hull holds `value`.
::testing::AssertionResult encloses(const nlohmann::json& hull, double value) {
  const double lo = hull[0].get<double>(), hi = hull[1].get<double>();
  if (lo - kSlack <= value && value <= hi + kSlack) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << value << " outside [" << lo << ", " << hi << "]";
}

// p across the box [0.9, 1.1].
std::vector<double> box_points() { return {0.9, 0.95, 1.0, 1.05, 1.1}; }

TEST(Cli, BoundsJsonHullsEncloseTheClosedForm) {
  const ToolRun r = run_model_text(kDecayModel, "--method bounds_fsa --box p=0.9:1.1 --tout "
                                                "0.5,1 --option order=5 --param c=2");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  const nlohmann::json& b = doc["bounds"];
  const char* fields[] = {"basis",         "remainder",    "order",         "n_monomials",
                          "exponents",     "x_coef",       "x_rem",         "x_hull",
                          "x_shape",       "s_coef",       "s_rem",         "s_hull",
                          "gradient_coef", "gradient_rem", "gradient_hull", "box_mid",
                          "box_rad",       "box_lower",    "box_upper"};
  ASSERT_EQ(b.size(), std::size(fields)) << b.dump();
  std::size_t at = r.out.find("\"bounds\":{");
  for (const char* f : fields) {  // in this order
    at = r.out.find("\"" + std::string(f) + "\":", at);
    EXPECT_NE(at, std::string::npos) << "missing or out of order: " << f;
  }
  EXPECT_EQ(b["basis"], "chebyshev");
  EXPECT_EQ(b["order"], 5);
  EXPECT_EQ(b["n_monomials"], 6);
  // c is held at its value: a zero radius and exponent.
  EXPECT_EQ(b["box_lower"], nlohmann::json::parse("[0.9,2]"));
  EXPECT_EQ(b["box_upper"], nlohmann::json::parse("[1.1,2]"));
  EXPECT_EQ(b["box_rad"][1], 0);
  ASSERT_EQ(b["exponents"].size(), 6u);
  for (const auto& e : b["exponents"]) EXPECT_EQ(e[1], 0);
  ASSERT_EQ(b["x_coef"][1][0].size(), 6u);  // [time][state][coefficient]
  const double times[] = {0.5, 1.0};
  for (double p : box_points()) {
    for (std::size_t k = 0; k < 2; ++k) {
      const double t = times[k], x = std::exp(-p * t);
      EXPECT_TRUE(encloses(b["x_hull"][k][0], x)) << "p = " << p << ", t = " << t;
      EXPECT_TRUE(encloses(b["s_hull"][k][0][0], -t * x)) << "p = " << p << ", t = " << t;
      EXPECT_TRUE(encloses(b["s_hull"][k][0][1], 0.5 * x)) << "p = " << p << ", t = " << t;
    }
    EXPECT_TRUE(encloses(b["gradient_hull"][0], -std::exp(-p))) << "p = " << p;
  }
  // Tight: within 1e-4 of the exact range of x(1).
  EXPECT_NEAR(b["x_hull"][1][0][0].get<double>(), std::exp(-1.1), 1e-4);
  EXPECT_NEAR(b["x_hull"][1][0][1].get<double>(), std::exp(-0.9), 1e-4);
  // Held parameters take their --param values.
  const ToolRun held = run_model_text(kDecayModel, "--method bounds_fsa --box p=0.9:1.1 "
                                                   "--tout 1 --param c=3");
  ASSERT_EQ(held.status, 0) << held.err;
  EXPECT_EQ(nlohmann::json::parse(held.out)["bounds"]["box_lower"][1], 3);
}

TEST(Cli, BoundsCsvPrintsTheHulls) {
  const ToolRun r = run_model_text(kDecayModel, "--method bounds_fsa --box p=0.9:1.1 --tout "
                                                "0.5,1 --format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string header = "\nt,x_lower,x_upper,dx/dp_lower,dx/dp_upper,dx/dc_lower,dx/dc_upper\n";
  const auto table = r.out.find(header);
  ASSERT_NE(table, std::string::npos) << r.out;
  std::istringstream rows(r.out.substr(table + header.size()));
  std::string row;
  ASSERT_TRUE(std::getline(rows, row));
  ASSERT_TRUE(std::getline(rows, row));  // t = 1
  double cells[7];
  char comma;
  std::istringstream in(row);
  in >> cells[0];
  for (int c = 1; c < 7; ++c) in >> comma >> cells[c];
  EXPECT_EQ(cells[0], 1.0);
  EXPECT_LE(cells[1], std::exp(-1.1));
  EXPECT_GE(cells[2], std::exp(-0.9));
  EXPECT_NE(r.out.find("\nparameter,gradient_lower,gradient_upper\np,"), std::string::npos);
}

// G = 2 x(t_final) by --weights: twice the default gradient.
TEST(Cli, WeightsSetTheObjectiveAtTheFinalTime) {
  const ToolRun r = run_model_text(kDecayModel, "--method bounds_fsa --box p=0.9:1.1 --tout "
                                                "0.5,1 --weights x=2");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  for (double p : box_points())
    EXPECT_TRUE(encloses(doc["bounds"]["gradient_hull"][0], -2.0 * std::exp(-p))) << p;
  EXPECT_NEAR(doc["gradient"][0].get<double>(), -2.0 * std::exp(-1.0), 1e-6);
  // Gradient methods take them too.
  const ToolRun asa = run_model_text(kDecayModel, "--method cvodes_asa --tout 0.5,1 --weights x=2");
  ASSERT_EQ(asa.status, 0) << asa.err;
  EXPECT_NEAR(nlohmann::json::parse(asa.out)["gradient"][0].get<double>(),
              -2.0 * std::exp(-1.0), 1e-6);
}

// bounds_asa: the same objectives by the adjoint; the JSON and CSV carry
// x and the gradient, no S.
TEST(Cli, BoundsAsaEnclosesTheGradientWithoutS) {
  const double d = std::exp(-0.95);
  std::ostringstream table;
  table.precision(17);
  table << "t,x\n0.5,\n1," << d << "\n";
  const TempFile data(table.str(), ".csv");
  const ToolRun weights = run_model_text(kDecayModel, "--method bounds_asa --box p=0.9:1.1 "
                                                      "--tout 0.5,1 --weights x=2 --option order=5");
  const ToolRun fitted = run_model_text(kDecayModel, "--method bounds_asa --box p=0.9:1.1 --data " +
                                                     data.path());
  ASSERT_EQ(weights.status, 0) << weights.err;
  ASSERT_EQ(fitted.status, 0) << fitted.err;
  const nlohmann::json w = nlohmann::json::parse(weights.out), f = nlohmann::json::parse(fitted.out);
  EXPECT_TRUE(w["bounds"]["s_hull"].empty());
  EXPECT_TRUE(w["S"].empty());
  for (double p : box_points()) {
    const double x = std::exp(-p);
    EXPECT_TRUE(encloses(w["bounds"]["gradient_hull"][0], -2.0 * x)) << p;
    EXPECT_TRUE(encloses(w["bounds"]["x_hull"][1][0], x)) << p;
    EXPECT_TRUE(encloses(f["bounds"]["gradient_hull"][0], 2.0 * (x - d) * -x)) << p;
  }
  const ToolRun csv = run_model_text(kDecayModel, "--method bounds_asa --box p=0.9:1.1 --tout "
                                                  "0.5,1 --format csv");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_NE(csv.out.find("\nt,x_lower,x_upper\n"), std::string::npos) << csv.out;
  EXPECT_NE(csv.out.find("\nparameter,gradient_lower,gradient_upper\np,"), std::string::npos);
}

// F = (d - x(1))^2 with x(0.5) unobserved: dF/dp = 2 (x(1) - d) dx(1)/dp.
TEST(Cli, DataGiveTheLeastSquaresObjectiveAndTheTimes) {
  const double d = std::exp(-0.95);
  std::ostringstream table;
  table.precision(17);
  table << "t,x\n0.5,\n1," << d << "\n";
  const TempFile data(table.str(), ".csv");
  for (const std::string tout : {"", " --tout 0.5,1"}) {
    const ToolRun r = run_model_text(kDecayModel, "--method bounds_fsa --box p=0.9:1.1 --data " +
                                                      data.path() + tout);
    ASSERT_EQ(r.status, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["times"], nlohmann::json::parse("[0.5,1]"));
    for (double p : box_points()) {
      const double x = std::exp(-p);
      EXPECT_TRUE(encloses(doc["bounds"]["gradient_hull"][0], 2.0 * (x - d) * -x)) << p;
    }
  }
}

TEST(Cli, DataErrorsNameTheFileAndWhatIsWrong) {
  const std::string flags = "--method bounds_fsa --box p=0.9:1.1 --data ";
  const struct {
    const char* table;
    const char* more_flags;
    const char* message;
  } cases[] = {
      {"t,x,y\n1,0.3,0.2\n", "", ".ode has no state 'y' (column 3)"},
      {"t,x\n0.5,0.6\n1,abc\n", "", ":3: column 2 (x): 'abc' is not a number"},
      {"x\n0.5\n", "", "no column 't' (the output times)"},
      {"t,x\n0.5,0.6\n1,0.3\n", " --tout 0.5", "has 2 rows, but --tout gives 1 output times"},
      {"t,x\n0.5,0.6\n1,0.3\n", " --tout 0.5,2", "row 2 has t = 1, not the output time 2"},
      {"t,x\n,0.6\n", "", "row 1 has no t"},
  };
  for (const auto& c : cases) {
    const TempFile data(c.table, ".csv");
    const ToolRun r = run_model_text(kDecayModel,
                                     flags + data.path() + c.more_flags);
    EXPECT_EQ(r.status, 2) << c.table;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  const TempFile data("t,x\n1,0.3\n", ".csv");
  // Every method with S or a gradient takes --data: least squares over the
  // states, F = (0.3 - x(1))^2 here.
  for (const char* method : {"cvodes_fsa", "cvodes_asa"}) {
    const ToolRun other =
        run_model_text(kDecayModel, std::string("--method ") + method + " --data " + data.path());
    ASSERT_EQ(other.status, 0) << other.err;
    const nlohmann::json doc = nlohmann::json::parse(other.out);
    const double x1 = doc["x"][0][0].get<double>();
    EXPECT_NEAR(doc["objectives"][0].get<double>(), (0.3 - x1) * (0.3 - x1), 1e-12) << method;
    EXPECT_EQ(doc["gradient"].size(), doc["parameters"].size()) << method;
  }
  const ToolRun both =
      run_model_text(kDecayModel, "--method cvodes_fsa --weights x=1 --data " + data.path());
  EXPECT_EQ(both.status, 2);
  EXPECT_NE(both.err.find("--data and --weights are two objectives"), std::string::npos)
      << both.err;
}

TEST(Cli, BoxAndWeightsErrorsAreUsageErrors) {
  const struct {
    const char* flags;
    const char* message;
  } cases[] = {
      {"--box q=0.9:1.1", ".ode has no sensitivity parameter 'q'"},
      {"--box p=1.1:0.9", "--box p: the lower bound 1.1 is above the upper bound 0.9"},
      {"--box p=0.9", "--box p expects LOWER:UPPER, got '0.9'"},
      {"--box p=0.9:1:2", "--box p expects LOWER:UPPER"},
      {"--box p=a:1", "--box p lower bound: 'a' is not a finite number"},
      {"--box 0.9:1.1", "--box expects NAME=VALUE"},
      {"--box p=0.9:1.1,", "--box expects NAME=VALUE, got ''"},
      {"--box p=0.9:1.1 --weights z=1", ".ode has no state 'z'"},
      {"--box p=0.9:1.1 --weights x=nan", "--weights x: 'nan' is not a finite number"},
      {"", "needs a parameter box"},
  };
  for (const auto& c : cases) {
    const ToolRun r = run_model_text(kDecayModel,
                                     std::string("--method bounds_fsa --tout 1 ") + c.flags);
    EXPECT_EQ(r.status, 2) << c.flags;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.flags << ": " << r.err;
  }
  const ToolRun other = run_model_text(kDecayModel, "--method cvodes_fsa --box p=0.9:1.1");
  EXPECT_EQ(other.status, 2);
  EXPECT_NE(other.err.find("--box: method cvodes_fsa does not take it"), std::string::npos)
      << other.err;
  // A forward method takes --weights: the same gradient through S as the adjoint's.
  const ToolRun forward = run_model_text(kDecayModel, "--method cvodes_fsa --weights x=1");
  const ToolRun adjoint = run_model_text(kDecayModel, "--method cvodes_asa --weights x=1");
  ASSERT_EQ(forward.status, 0) << forward.err;
  ASSERT_EQ(adjoint.status, 0) << adjoint.err;
  const nlohmann::json f = nlohmann::json::parse(forward.out), b = nlohmann::json::parse(adjoint.out);
  ASSERT_EQ(f["gradient"].size(), b["gradient"].size());
  for (std::size_t j = 0; j < f["gradient"].size(); ++j)
    EXPECT_NEAR(f["gradient"][j].get<double>(), b["gradient"][j].get<double>(),
                1e-5 * (std::fabs(b["gradient"][j].get<double>()) + 1e-3));
}

}  // namespace

namespace odesens {
namespace {

// Standard output that cannot be written (a full disk) is a failure, said:
// a caller reading the tool's output must not take a truncated one for
// whole.
TEST(Cli, StandardOutputThatCannotBeWrittenIsAFailure) {
  test::ToolRun r = test::run_shell(std::string(ODESENS_CLI_PATH) + " methods > /dev/full");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("writing standard output failed"), std::string::npos) << r.err;
  r = test::run_shell(std::string(ODESENS_CLI_PATH) + " methods > /dev/null");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

}  // namespace
}  // namespace odesens
