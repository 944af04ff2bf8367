// cvodes_fsa with many parameters: one state x' = -(p_1 + ... + p_n) x over
// [0, 1], whose right-hand side sums every parameter, so that f's tape
// grows with n. J_x S formed by n tangent passes over f costs n^2; by J_x's
// values times S (sens_products=jacobian), n. Each row: the wall time of
// one solve with either, best of `repeats`, and their ratio; the
// automatic choice (sens_products=auto) is said.
// With --sbml: the same two on the shared SBML models (../shared, their own
// spans, 101 outputs, rtol 1e-8), where the rule's threshold comes from.
//
// Run: build/bin/bench_many_parameters [--repeats 3] [--sizes 1000,4000,16000] [--sbml]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "bench_flags.hpp"

namespace {

std::string model_text(std::size_t n) {
  std::ostringstream text;
  for (std::size_t i = 0; i < n; ++i) text << "param p" << i << " = " << 1.0 / n << '\n';
  text << "state x = 1\ndx/dt = -(";
  for (std::size_t i = 0; i < n; ++i) text << (i ? " + p" : "p") << i;
  text << ") * x\n";
  return text.str();
}

double best_seconds(const odesens::Problem& base, const char* products, int repeats,
                    double* choice) {
  odesens::Problem p = base;
  p.options.set("sens_products", products);
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const odesens::Result result = odesens::solve(p, "cvodes_fsa");
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (choice) *choice = result.stats.extra.at("sens_products_by_jacobian");
  }
  return best;
}

std::string shared_dir() {
  if (const char* env = std::getenv("ODESENS_SHARED_DIR")) return env;
  return ODESENS_DEFAULT_SHARED_DIR;
}

// The shared SBML models but the four whose solves take seconds to
// minutes (Lang, Laske, Lucarelli, SalazarCavazos).
void sbml_table(int repeats) {
  std::vector<std::string> files;
  const std::string dir = shared_dir() + "/models/sbml";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".xml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  std::printf("| model | states | parameters | tangents (ms) | jacobian (ms) | tangents / jacobian |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const std::string& file : files) {
    const std::string name = std::filesystem::path(file).stem().string();
    if (name.rfind("Lang", 0) == 0 || name.rfind("Laske", 0) == 0 ||
        name.rfind("Lucarelli", 0) == 0 || name.rfind("SalazarCavazos", 0) == 0)
      continue;
    odesens::Problem p;
    p.model = odesens::load_model(file);
    p.rtol = 1e-8;
    for (int k = 1; k <= 100; ++k) p.output_times.push_back(p.model->default_t_end() * k / 100.0);
    const double tangents = best_seconds(p, "tangents", repeats, nullptr);
    const double jacobian = best_seconds(p, "jacobian", repeats, nullptr);
    std::printf("| %s | %zu | %zu | %.2f | %.2f | %.2f |\n", name.c_str(), p.model->nx(),
                p.model->np(), 1e3 * tangents, 1e3 * jacobian, tangents / jacobian);
    std::fflush(stdout);
  }
}

std::vector<std::size_t> sizes_of(const char* list) {
  std::vector<std::size_t> out;
  std::istringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::strtoul(item.c_str(), nullptr, 10));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(argc, argv,
                              {{"--repeats", true}, {"--sizes", true}, {"--sbml", false}},
                              "[--repeats N] [--sizes N,...] [--sbml]");
  int repeats = 3;
  bool sbml = false;
  std::vector<std::size_t> sizes = {1000, 4000, 16000};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc)
      repeats = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc) sizes = sizes_of(argv[++i]);
    else if (!std::strcmp(argv[i], "--sbml")) sbml = true;
  }
  if (sbml) {
    sbml_table(repeats);
    return 0;
  }
  std::printf("| parameters | tangents (s) | jacobian (s) | tangents / jacobian | auto runs |\n");
  std::printf("|---|---|---|---|---|\n");
  for (std::size_t n : sizes) {
    odesens::Problem p;
    p.model = odesens::load_ode_text(model_text(n), "many.ode");
    p.output_times = {1.0};
    double automatic = 0.0;
    const double tangents = best_seconds(p, "tangents", repeats, nullptr);
    const double jacobian = best_seconds(p, "jacobian", repeats, nullptr);
    best_seconds(p, "auto", 1, &automatic);
    std::printf("| %zu | %.3f | %.3f | %.1f | %s |\n", n, tangents, jacobian, tangents / jacobian,
                automatic != 0.0 ? "jacobian" : "tangents");
    std::fflush(stdout);
  }
  return 0;
}
