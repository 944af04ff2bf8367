// SBML import on the 20 real models of ../shared/models/sbml (PEtab
// benchmark collection): the time to import each (libsbml reading, the
// expression graph, symbolic J_x, J_p and dx0/dp, tape compilation), the
// cost of one f and one sparse J_x evaluation, and cvodes_fsa over
// [0, 100] (101 output times, rtol 1e-6, atol 1e-8, the default
// sensitivity parameters).
//
// [0, 100]: SBML models carry no time span; 100 is the importer's default
// end time and covers the transients of these models (their data span
// minutes to about a hundred time units).
//
// Run: build/bin/bench_sbml   (benchmarks/make_results.py writes RESULTS.md)
// The models are read from $ODESENS_SHARED_DIR/models/sbml, by default
// ../shared next to the repository.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"

namespace {

std::string shared_dir() {
  if (const char* env = std::getenv("ODESENS_SHARED_DIR")) return env;
  return ODESENS_DEFAULT_SHARED_DIR;
}

const std::vector<std::string> kModels = {
    "Armistead_CellDeathDis2024", "Bachmann_MSB2011", "Beer_MolBioSystems2014",
    "Bertozzi_PNAS2020", "Boehm_JProteomeRes2014", "Brannmark_JBC2010", "Bruno_JExpBot2016",
    "Crauste_CellSystems2017", "Elowitz_Nature2000", "Laske_PLOSComputBiol2019",
    "Lucarelli_CellSystems2018", "Okuonghae_ChaosSolitonsFractals2020", "Oliveira_NatCommun2021",
    "Perelson_Science1996", "Rahman_MBS2016", "Raia_CancerResearch2011",
    "SalazarCavazos_MBoC2020", "Schwen_PONE2014", "Weber_BMC2015", "Zheng_PNAS2012"};

std::string model_path(const std::string& name) {
  return shared_dir() + "/models/sbml/" + name + ".xml";
}

// The file's text, read once (import is timed without the disk).
const std::string* model_text(const std::string& name) {
  static std::map<std::string, std::string> texts;
  auto it = texts.find(name);
  if (it != texts.end()) return &it->second;
  std::ifstream in(model_path(name), std::ios::binary);
  if (!in) return nullptr;
  std::ostringstream s;
  s << in.rdbuf();
  return &texts.emplace(name, s.str()).first->second;
}

odesens::Problem fsa_problem(const std::shared_ptr<odesens::ExprModel>& model) {
  odesens::Problem p;
  p.model = model;
  for (int k = 0; k <= 100; ++k) p.output_times.push_back(k);
  p.rtol = 1e-6;
  p.atol = {1e-8};
  return p;
}

void counters(benchmark::State& state, const odesens::ExprModel& m) {
  state.counters["nx"] = static_cast<double>(m.nx());
  state.counters["np"] = static_cast<double>(m.np());
  state.counters["nnz"] = static_cast<double>(m.jac_x_pattern()->nnz());
}

void import(benchmark::State& state, const std::string& name) {
  const std::string* text = model_text(name);
  if (!text) return state.SkipWithError(("cannot read " + model_path(name)).c_str());
  std::shared_ptr<odesens::ExprModel> m;
  for (auto _ : state) {
    m = odesens::load_sbml_text(*text, name);
    benchmark::DoNotOptimize(m.get());
  }
  counters(state, *m);
}

// f and sparse J_x at the state the model reaches at t = 50, a point
// where its terms are active (x0 often has many zeros).
struct Evaluation {
  std::shared_ptr<odesens::ExprModel> model;
  std::vector<double> x, p;
};

Evaluation at_t50(const std::string& name) {
  Evaluation e;
  e.model = odesens::load_sbml_text(*model_text(name), name);
  odesens::Problem problem = fsa_problem(e.model);
  problem.output_times = {50.0};
  e.x = odesens::solve(problem, "cvodes_fsa").x;
  e.p = e.model->nominal_params();
  return e;
}

void rhs(benchmark::State& state, const std::string& name) {
  if (!model_text(name)) return state.SkipWithError(("cannot read " + model_path(name)).c_str());
  const Evaluation e = at_t50(name);
  std::vector<double> f(e.model->nx());
  const auto ws = e.model->make_workspace();
  for (auto _ : state) {
    e.model->rhs(50.0, e.x.data(), e.p.data(), f.data(), ws.get());
    benchmark::DoNotOptimize(f.data());
  }
  counters(state, *e.model);
}

void jac_x(benchmark::State& state, const std::string& name) {
  if (!model_text(name)) return state.SkipWithError(("cannot read " + model_path(name)).c_str());
  const Evaluation e = at_t50(name);
  std::vector<double> values(e.model->jac_x_pattern()->nnz());
  const auto ws = e.model->make_workspace();
  for (auto _ : state) {
    e.model->jac_x_values(50.0, e.x.data(), e.p.data(), values.data(), ws.get());
    benchmark::DoNotOptimize(values.data());
  }
  counters(state, *e.model);
}

void fsa(benchmark::State& state, const std::string& name) {
  const std::string* text = model_text(name);
  if (!text) return state.SkipWithError(("cannot read " + model_path(name)).c_str());
  auto m = odesens::load_sbml_text(*text, name);
  const odesens::Problem problem = fsa_problem(m);
  odesens::Result r;
  for (auto _ : state) {
    r = odesens::solve(problem, "cvodes_fsa");
    benchmark::DoNotOptimize(r.x.data());
  }
  counters(state, *m);
  state.counters["steps"] = static_cast<double>(r.stats.steps);
}

void register_all() {
  using benchmark::RegisterBenchmark;
  for (const auto& m : kModels) {
    RegisterBenchmark(("import/" + m).c_str(), import, m)->Unit(benchmark::kMillisecond);
    RegisterBenchmark(("f/" + m).c_str(), rhs, m);
    RegisterBenchmark(("jac_x/" + m).c_str(), jac_x, m);
    RegisterBenchmark(("cvodes_fsa/" + m).c_str(), fsa, m)->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
