#include "sources/petab/petab_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <vector>

#include "sources/petab/petab_cells.hpp"
#include "sources/petab/petab_tsv.hpp"

namespace odesens::petab {
namespace {

struct Yaml {
  std::string file;
  std::filesystem::path folder;

  Place at(const YAML::Node& node) const {
    const YAML::Mark mark = node.Mark();
    // A node made up by yaml-cpp (a missing key) has no place in the file.
    if (mark.is_null()) return Place{file, 0, 0};
    return Place{file, static_cast<std::size_t>(mark.line) + 1,
                 static_cast<std::size_t>(mark.column) + 1};
  }

  YAML::Node member(const YAML::Node& map, const std::string& key) const {
    const YAML::Node node = map[key];
    if (!node) fail(at(map), "the required key '" + key + "' is missing");
    return node;
  }

  std::string path(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar() || node.Scalar().empty())
      fail(at(node), key + " must name a file");
    const std::filesystem::path p(node.Scalar());
    return (p.is_absolute() || folder.empty() ? p : folder / p).string();
  }

  // A file name or a list of them (at least one).
  std::vector<std::string> paths(const YAML::Node& map, const std::string& key) const {
    const YAML::Node node = member(map, key);
    if (node.IsScalar()) return {path(node, key)};
    if (!node.IsSequence() || node.size() == 0)
      fail(at(node), key + " must be a file name or a list of one or more");
    std::vector<std::string> out;
    for (const YAML::Node& item : node) out.push_back(path(item, key));
    return out;
  }

  std::string single_path(const YAML::Node& map, const std::string& key) const {
    const std::vector<std::string> all = paths(map, key);
    if (all.size() > 1)
      fail_unsupported(at(map[key]), std::to_string(all.size()) + " files in " + key +
                                         ": odesens reads one");
    return all.front();
  }
};

void check_format_version(const Yaml& y, const YAML::Node& root) {
  const YAML::Node v = y.member(root, "format_version");
  if (!v.IsScalar()) fail(y.at(v), "format_version must be a number");
  if (v.Scalar() != "1")
    fail_unsupported(y.at(v), "format_version " + shown(v.Scalar()) +
                                  ": odesens reads PEtab format version 1");
}

// yaml-cpp keeps the first of two equal keys and drops the other without a
// word; a problem file whose second parameter_file is silently ignored
// would be read as another problem than its author meant.
void refuse_duplicate_keys(const Yaml& y, const YAML::Node& map) {
  std::set<std::string> seen;
  for (const auto& entry : map) {
    if (!entry.first.IsScalar()) continue;
    if (!seen.insert(entry.first.Scalar()).second)
      fail(y.at(entry.first), "the key '" + entry.first.Scalar() + "' appears twice");
  }
}

YAML::Node load(const std::string& yaml_path) {
  const std::string text = read_petab_file(yaml_path, "problem file");
  try {
    std::vector<YAML::Node> documents = YAML::LoadAll(text);
    // An empty document (a trailing "---") is no second problem.
    documents.erase(std::remove_if(documents.begin(), documents.end(),
                                   [](const YAML::Node& d) { return d.IsNull(); }),
                    documents.end());
    if (documents.size() > 1)
      fail(Place{yaml_path, 0, 0}, std::to_string(documents.size()) +
                                       " YAML documents in one file: a PEtab problem file is one");
    return documents.empty() ? YAML::Node() : documents.front();
  } catch (const YAML::Exception& e) {
    fail(Place{yaml_path, static_cast<std::size_t>(e.mark.line) + 1,
               static_cast<std::size_t>(e.mark.column) + 1},
         "malformed YAML: " + e.msg);
  }
}

}  // namespace

ProblemFiles read_problem_files(const std::string& yaml_path) {
  Yaml y{yaml_path, std::filesystem::path(yaml_path).parent_path()};
  const YAML::Node root = load(yaml_path);
  if (!root.IsMap()) fail(Place{yaml_path, 0, 0}, "a PEtab problem file must be a YAML mapping");
  refuse_duplicate_keys(y, root);
  check_format_version(y, root);
  ProblemFiles files;
  files.parameter_file = y.single_path(root, "parameter_file");
  const YAML::Node problems = y.member(root, "problems");
  if (!problems.IsSequence() || problems.size() == 0)
    fail(y.at(problems), "problems must be a list of one problem");
  if (problems.size() > 1)
    fail_unsupported(y.at(problems), std::to_string(problems.size()) +
                                         " problems in one file: odesens reads one");
  const YAML::Node problem = problems[0];
  if (!problem.IsMap()) fail(y.at(problem), "a problem must be a YAML mapping");
  refuse_duplicate_keys(y, problem);
  files.sbml_file = y.single_path(problem, "sbml_files");
  files.condition_files = y.paths(problem, "condition_files");
  files.measurement_files = y.paths(problem, "measurement_files");
  files.observable_files = y.paths(problem, "observable_files");
  return files;
}

}  // namespace odesens::petab
