// The odesens tool: output documents and error behaviour, run as a user would.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

struct ToolRun {
  int status;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

ToolRun run_tool(const std::string& args) {
  char err_path[] = "/tmp/odesens_cli_err_XXXXXX";
  const int fd = mkstemp(err_path);
  close(fd);
  const std::string cmd = std::string(ODESENS_CLI_PATH) + " " + args + " 2>" + err_path;
  ToolRun r{};
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int raw = pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.err = slurp(err_path);
  std::remove(err_path);
  return r;
}

TEST(Cli, MethodsListsOneIdPerLine) {
  const ToolRun r = run_tool("methods");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "cvodes_fsa\ncvodes_asa\npbsr\nexp\n");
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
  EXPECT_EQ(r.out.find("gradient"), std::string::npos);
  EXPECT_EQ(r.out.substr(r.out.size() - 3), "}}\n");
}

TEST(Cli, AdjointJsonGivesFinalTimeSensitivityAndGradient) {
  const ToolRun r = run_tool("run builtin:glv:3 --method cvodes_asa --tout 0:10:3");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"S_times\":[10]"), std::string::npos);
  EXPECT_NE(r.out.find(",\"gradient\":["), std::string::npos);
}

TEST(Cli, ParametersToleranceOptionsAndCsv) {
  const ToolRun r = run_tool(
      "run builtin:vanderpol --method cvodes_fsa --tout 0.1,0.2 --param mu=10 --rtol 1e-7 "
      "--atol 1e-9 --option corrector=staggered --format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "t,x,v,dx/dmu,dv/dmu");
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3);
}

TEST(Cli, OutFileReceivesTheDocument) {
  const std::string path = "/tmp/odesens_cli_out.json";
  const ToolRun r = run_tool("run builtin:chua --method cvodes_fsa --tout 0:1:2 --out " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(slurp(path).substr(0, 22), "{\"method\":\"cvodes_fsa\"");
  std::remove(path.c_str());
}

TEST(Cli, InfoDescribesTheModel) {
  const ToolRun r = run_tool("info builtin:heat2d:5");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("states (25)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("parameters (1): alpha=1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("J_x non-zeros: 45"), std::string::npos) << r.out;
}

TEST(Cli, CompareRunsBothMethodsOnOneProblem) {
  const ToolRun r = run_tool("compare builtin:chua --methods cvodes_fsa,cvodes_asa --tout 0:10:11");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("cvodes_asa"), std::string::npos);
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

}  // namespace
