// The benchmark collection's own simulation tables: most of its problems
// ship the simulation of their model at the nominal parameters
// (simulatedData_NAME.tsv, or simulations.tsv), made with other tools. Ours
// at tight tolerances must agree with each, row by row: an independent check
// of the whole path from SBML and the PEtab tables to h at every
// measurement, beyond the one number of the reference likelihood.
//
// Three kinds of table are not simulations of the model as given, and are
// recognised rather than trusted:
//  - one that names observables the problem does not have
//    (Raia_CancerResearch2011's, whose values are also all 0): skipped;
//  - a copy of the measurements (Zheng_PNAS2012's equals its measurement
//    column in every row): skipped;
//  - Perelson_Science1996's rises by 17 % over the first half day where the
//    model, whose virus load has a closed form (Perelson et al., Science
//    1996), has V'(0) = 0 and falls: checked against the closed form
//    instead.
//
// Tables of the collection's problems outside ../shared showed three more
// kinds, each recognised by simulating what the table is of: rows beyond
// the measurements (compared on the measurements' rows), a simulation at
// the SBML model's own parameter values where the parameter table rounds
// them, and conditions listed under each other's names.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "estimate/petab_test_support.hpp"
#include "estimate/two_state_petab_problem.hpp"
#include "io/temp_folder.hpp"
#include "odesens/petab.hpp"
#include "odesens/sbml_model.hpp"
#include "sources/petab/petab_tables.hpp"

namespace odesens {
namespace {

namespace fs = std::filesystem;

// A row's place: observable, pre-equilibration and simulation condition,
// time (as written), and its rank among equal keys.
using Place = std::tuple<std::string, std::string, std::string, double>;
using Key = std::tuple<std::string, std::string, std::string, double, int>;

// Rows keyed by their place and rank: the n-th row at a place is (place, n).
class RowTable {
 public:
  void add(const Place& place, double value) {
    values_[std::tuple_cat(place, std::make_tuple(seen_[place]++))] = value;
  }
  std::map<Key, double> values() && { return std::move(values_); }

 private:
  std::map<Place, int> seen_;
  std::map<Key, double> values_;
};

std::string simulation_table_of(const fs::path& dir) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == "simulations.tsv" ||
        (name.rfind("simulatedData", 0) == 0 && entry.path().extension() == ".tsv"))
      return entry.path().string();
  }
  return "";
}

// The column of the header row named one of `names`, or -1.
int column(const std::vector<std::string>& header, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    const auto it = std::find(header.begin(), header.end(), n);
    if (it != header.end()) return static_cast<int>(it - header.begin());
  }
  return -1;
}

// A number cell, all of it (a cell with more or less is a failure: NaN).
double number(const std::string& cell, const std::string& path) {
  const char* begin = cell.c_str();
  char* end = nullptr;
  const double v = std::strtod(begin, &end);
  if (cell.empty() || end != begin + cell.size()) {
    ADD_FAILURE() << path << ": '" << cell << "' is not a number";
    return std::nan("");
  }
  return v;
}

// A simulation table as key -> value; the condition columns under either
// of the names the collection uses.
std::map<Key, double> read_simulation_table(const std::string& path) {
  const auto rows = test::read_tsv(path);
  std::map<Key, double> out;
  if (rows.empty()) return out;
  const auto& h = rows[0];
  const int obs = column(h, {"observableId"});
  const int pre = column(h, {"preequilibrationConditionId", "preequilibrationCondition"});
  const int sim = column(h, {"simulationConditionId", "simulationCondition"});
  const int time = column(h, {"time"});
  const int value = column(h, {"simulation"});
  EXPECT_TRUE(obs >= 0 && sim >= 0 && time >= 0 && value >= 0) << path;
  if (obs < 0 || sim < 0 || time < 0 || value < 0) return out;
  RowTable table;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    auto cell = [&](int c) {
      return c >= 0 && c < static_cast<int>(rows[r].size()) ? rows[r][c] : "";
    };
    table.add(Place{cell(obs), cell(pre), cell(sim), number(cell(time), path)},
              number(cell(value), path));
  }
  return std::move(table).values();
}

std::map<Key, double> read_measurements(const std::string& dir) {
  RowTable table;
  for (const petab::MeasurementRow& m : petab::read_tables(dir).measurements)
    table.add(Place{m.observable_id, m.preequilibration_condition, m.simulation_condition, m.time},
              m.measurement);
  return std::move(table).values();
}

// Ours at x (scaled; default: the nominal parameters), rtol 1e-12 and
// atol 1e-14.
std::map<Key, double> our_simulations(const PetabProblem& problem, const std::string& name,
                                      std::vector<double> x = {}) {
  PetabOptions o;
  o.rtol = 1e-12;
  o.atol = {1e-14};
  o.threads = 2;
  if (x.empty()) x = problem.nominal_scaled();
  const PetabResult r = problem.evaluate(x, o);
  const std::string path = (fs::temp_directory_path() /
                            ("odesens_sim_" + name + "_" + std::to_string(::getpid()) + ".tsv"))
                               .string();
  struct Removed {
    const std::string& path;
    ~Removed() { std::remove(path.c_str()); }
  } removed{path};
  problem.write_simulations(r, path);
  return read_simulation_table(path);
}

// Whether TABLE lists the measurements' rows (observable, conditions, time).
bool same_rows(const std::map<Key, double>& table, const std::map<Key, double>& measurements) {
  return table.size() == measurements.size() &&
         std::equal(table.begin(), table.end(), measurements.begin(),
                    [](const auto& a, const auto& b) { return a.first == b.first; });
}

// Whether every row of TABLE names an observable and conditions the
// problem has (a table of another version of the problem does not:
// Raia_CancerResearch2011's observables, or, outside ../shared,
// Fujita_SciSignal2010's conditions).
bool names_only_known_places(const std::map<Key, double>& table,
                             const std::map<Key, double>& measurements) {
  std::set<std::string> observables, preequilibrations, simulations;
  for (const auto& entry : measurements) {
    observables.insert(std::get<0>(entry.first));
    preequilibrations.insert(std::get<1>(entry.first));
    simulations.insert(std::get<2>(entry.first));
  }
  return std::all_of(table.begin(), table.end(), [&](const auto& entry) {
    const Key& k = entry.first;
    return observables.count(std::get<0>(k)) > 0 && preequilibrations.count(std::get<1>(k)) > 0 &&
           simulations.count(std::get<2>(k)) > 0;
  });
}

// A table whose times are written with other digits than the measurements'
// (Borghans_BiophysChem1997, outside ../shared: 0.0294848666192 for the
// measurement at 0.029484867) takes the measurement times within 1e-7 of
// its own, at the same observable, conditions and rank.
std::map<Key, double> aligned_times(const std::map<Key, double>& table,
                                    const std::map<Key, double>& measurements) {
  using Slot = std::tuple<std::string, std::string, std::string, int>;
  std::map<Slot, std::vector<double>> times;
  for (const auto& entry : measurements) {
    const Key& k = entry.first;
    times[Slot{std::get<0>(k), std::get<1>(k), std::get<2>(k), std::get<4>(k)}].push_back(
        std::get<3>(k));
  }
  std::map<Key, double> out;
  for (const auto& [k, value] : table) {
    Key key = k;
    const auto it =
        times.find(Slot{std::get<0>(k), std::get<1>(k), std::get<2>(k), std::get<4>(k)});
    if (it != times.end())
      for (double t : it->second)
        if (std::abs(t - std::get<3>(k)) <= 1e-7 * std::max(1.0, std::abs(t))) {
          std::get<3>(key) = t;
          break;
        }
    out[key] = value;
  }
  return out;
}

bool is_copy_of(const std::map<Key, double>& table, const std::map<Key, double>& measurements) {
  for (const auto& [key, value] : table) {
    const auto it = measurements.find(key);
    if (it == measurements.end() || std::abs(it->second - value) > 1e-12 * (1 + std::abs(value)))
      return false;
  }
  return true;
}

// Rows of TABLE beyond 1e-4 of OURS, relative to the value or to a
// thousandth of the observable's largest (values near 0 are compared on
// the observable's scale), and the largest difference. A row ours lacks
// counts as off.
struct Agreement {
  std::size_t off = 0;
  double worst = 0.0;
};
Agreement agreement(const std::map<Key, double>& table, const std::map<Key, double>& ours) {
  std::map<std::string, double> scale;
  for (const auto& [key, value] : table)
    scale[std::get<0>(key)] = std::max(scale[std::get<0>(key)], std::abs(value));
  Agreement a;
  for (const auto& [key, value] : table) {
    const auto it = ours.find(key);
    const double ref = std::max(std::abs(value), 1e-3 * scale[std::get<0>(key)]);
    const double difference = it == ours.end()
                                  ? std::numeric_limits<double>::infinity()
                                  : std::abs(it->second - value) / (ref > 0 ? ref : 1.0);
    if (!(difference <= 1e-4)) ++a.off;
    if (!(difference <= a.worst)) a.worst = difference;
  }
  return a;
}

// The scaled point with the SBML model's own values for the estimated
// parameters that are model parameters: a table simulated with those where
// the parameter table rounds them (Chen_MSB2009, outside ../shared: 8.37e-9
// in the table, 8.36983e-9 in the model) differs from ours by more than
// the table's precision.
std::vector<double> model_values_point(const PetabProblem& problem) {
  std::vector<double> x = problem.nominal_scaled();
  std::string sbml;
  for (const std::string& f : problem.input_files())
    if (fs::path(f).extension() == ".xml") sbml = f;
  if (sbml.empty()) return x;
  const auto model = load_sbml_file(sbml);
  const auto& names = model->param_names();
  const std::vector<double> values = model->nominal_params();
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto it = std::find(names.begin(), names.end(), problem.parameter_ids()[i]);
    if (it != names.end())
      x[i] = problem.to_scale(i, values[static_cast<std::size_t>(it - names.begin())]);
  }
  return x;
}

// TABLE with its simulation conditions renamed to those of ours whose rows
// it matches (Sneyd_PNAS2002, outside ../shared, lists the rows of two
// dose conditions under each other's names); empty when some condition
// matches none, or two match the same.
std::map<Key, double> conditions_matched(const std::map<Key, double>& table,
                                         const std::map<Key, double>& ours) {
  std::map<std::string, std::map<Key, double>> theirs_by, ours_by;
  for (const auto& [k, v] : table) theirs_by[std::get<2>(k)][k] = v;
  for (const auto& [k, v] : ours) ours_by[std::get<2>(k)][k] = v;
  std::map<Key, double> renamed;
  std::set<std::string> taken;
  for (const auto& [condition, rows] : theirs_by) {
    std::string match;
    for (const auto& [candidate, candidate_rows] : ours_by) {
      if (taken.count(candidate)) continue;
      std::map<Key, double> moved;
      for (const auto& [k, v] : rows)
        moved[Key{std::get<0>(k), std::get<1>(k), candidate, std::get<3>(k), std::get<4>(k)}] = v;
      if (moved.size() == candidate_rows.size() && agreement(moved, candidate_rows).off == 0) {
        match = candidate;
        renamed.insert(moved.begin(), moved.end());
        break;
      }
    }
    if (match.empty()) return {};
    taken.insert(match);
  }
  return renamed;
}

// Whether TABLE holds every row of the measurements (and others: another
// version's measurements, as Zhao_QuantBiol2020's table of its training
// and test files, outside ../shared); then those rows alone.
std::map<Key, double> measured_rows_of(const std::map<Key, double>& table,
                                       const std::map<Key, double>& measurements) {
  std::map<Key, double> rows;
  for (const auto& entry : measurements) {
    const auto it = table.find(entry.first);
    if (it == table.end()) return {};
    rows.insert(*it);
  }
  return rows;
}

TEST(PetabSimulatedData, EveryShippedSimulationTableMatchesOursAtTightTolerances) {
  const fs::path collection = test::shared_dir() + "/petab/benchmark";
  if (!fs::is_directory(collection)) GTEST_SKIP() << "PEtab benchmark collection not found";
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(collection))
    if (entry.is_directory()) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  std::size_t compared = 0;
  for (const fs::path& dir : dirs) {
    const std::string name = dir.filename().string();
    const std::string file = simulation_table_of(dir);
    if (file.empty() || name == "Perelson_Science1996") continue;
    SCOPED_TRACE(name);
    const std::map<Key, double> measured = read_measurements(dir.string());
    std::map<Key, double> theirs = aligned_times(read_simulation_table(file), measured);
    if (!same_rows(theirs, measured)) {
      std::map<Key, double> rows = measured_rows_of(theirs, measured);
      if (!rows.empty()) {
        std::printf("%s: its simulation table has rows beyond the measurements: compared on "
                    "the measurements' rows\n",
                    name.c_str());
        theirs = std::move(rows);
      }
    }
    if (!same_rows(theirs, measured)) {
      // A table of another version of the problem names observables or
      // conditions this one does not have; other differences are ours to
      // explain.
      ASSERT_FALSE(names_only_known_places(theirs, measured))
          << file << " lists the problem's observables at other rows than its measurements";
      std::printf(
          "%s: its simulation table names observables or conditions the problem does not have "
          "(another version of the problem): skipped\n",
          name.c_str());
      continue;
    }
    if (is_copy_of(theirs, measured)) {
      std::printf("%s: its simulation table is a copy of the measurements: skipped\n",
                  name.c_str());
      continue;
    }
    auto problem = PetabProblem::load(dir.string());
    const std::map<Key, double> ours = our_simulations(*problem, name);
    ASSERT_EQ(ours.size(), theirs.size());
    ++compared;
    const Agreement direct = agreement(theirs, ours);
    if (direct.off == 0) continue;
    // Two ways a table differs from the problem as written, each checked by
    // simulating what the table says it is, not excused by name.
    if (agreement(theirs, our_simulations(*problem, name, model_values_point(*problem))).off == 0) {
      std::printf("%s: its simulation table is of the SBML model's own parameter values, which "
                  "the parameter table rounds (largest difference at the table's values %g): "
                  "it matches ours at the model's values\n",
                  name.c_str(), direct.worst);
      continue;
    }
    if (!conditions_matched(theirs, ours).empty()) {
      std::printf("%s: its simulation table lists conditions under each other's names: every "
                  "condition's rows match ours of another\n",
                  name.c_str());
      continue;
    }
    ADD_FAILURE() << direct.off << " rows more than 1e-4 from " << file
                  << " (the largest difference " << direct.worst << ")";
  }
  EXPECT_GT(compared, 0u);
}

// Perelson et al. (Science 1996): with the infected cells' production
// in balance at t = 0, the virus load after a protease inhibitor is
//   V(t) = V0 e^{-ct} + c V0/(c - d) [c/(c - d) (e^{-dt} - e^{-ct}) - d t
//   e^{-ct}].
// The model's balance holds to 4e-4 (K0 T0 V0 against d T*(0)).
TEST(PetabSimulatedData, PerelsonsVirusLoadIsItsClosedForm) {
  const std::string dir = test::benchmark_problem("Perelson_Science1996");
  if (!test::exists(dir)) GTEST_SKIP() << "PEtab benchmark problem not found: " << dir;
  auto problem = PetabProblem::load(dir);
  const std::map<Key, double> ours = our_simulations(*problem, "Perelson_Science1996");
  // c and delta as the parameter table gives them (log10 scale); V(0), the
  // model's initial concentration of V.
  double c = 0, d = 0;
  for (std::size_t i = 0; i < problem->parameter_ids().size(); ++i) {
    if (problem->parameter_ids()[i] == "c") c = std::pow(10.0, problem->nominal_scaled()[i]);
    if (problem->parameter_ids()[i] == "delta") d = std::pow(10.0, problem->nominal_scaled()[i]);
  }
  ASSERT_TRUE(c > 0 && d > 0 && c != d);
  const double v0 = 1.86e6;
  ASSERT_EQ(ours.size(), 16u);
  for (const auto& [key, v] : ours) {
    const double t = std::get<3>(key);
    const double closed =
        v0 * std::exp(-c * t) +
        c * v0 / (c - d) *
            (c / (c - d) * (std::exp(-d * t) - std::exp(-c * t)) - d * t * std::exp(-c * t));
    EXPECT_NEAR(v, closed, 3e-4 * closed) << "t = " << t;
  }
}

// PEtab's simulation table has the measurement table's form: datasetId and
// replicateId, which tools group by, were dropped.
TEST(PetabSimulatedData, TheSimulationTableKeepsDatasetsAndReplicates) {
  const test::TwoStateProblem files(
      "observableId\tsimulationConditionId\ttime\tmeasurement\treplicateId\tdatasetId\n"
      "obs_a\tc0\t1\t0.7\tr1\td_a\nobs_a\tc0\t1\t0.8\tr2\td_a\n"
      "obs_b\tc1\t2\t0.4\t\"r\t\"\"3\"\"\"\td_b\n");
  const auto problem = PetabProblem::load(files.yaml());
  const PetabResult r = problem->evaluate(problem->nominal_scaled(), PetabOptions());
  io::testing::TempFolder folder;
  problem->write_simulations(r, folder.file("sims.tsv"));
  const auto table = test::read_tsv(folder.file("sims.tsv"));
  ASSERT_EQ(table.size(), 4u);
  const auto& header = table[0];
  ASSERT_GE(header.size(), 9u);
  EXPECT_EQ(header[7], "datasetId");
  EXPECT_EQ(header[8], "replicateId");
  EXPECT_EQ(table[1][7], "d_a");
  EXPECT_EQ(table[2][8], "r2");
  EXPECT_EQ(table[3][7], "d_b");
  // A replicate id with a tab and quotes in it, quoted again as it was read.
  EXPECT_EQ(petab::read_tables(files.yaml()).measurements[2].replicate_id, "r\t\"3\"");
  std::ifstream written(folder.file("sims.tsv"));
  const std::string text((std::istreambuf_iterator<char>(written)), {});
  EXPECT_NE(text.find("\t\"r\t\"\"3\"\"\"\n"), std::string::npos) << text;
  EXPECT_EQ(std::stod(table[1][4]), r.simulations[0]);
}

}  // namespace
}  // namespace odesens
