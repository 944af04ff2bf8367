#include "sources/petab/petab_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

#include "odesens/status.hpp"
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

  // The file names under KEY where it is present and names files; nothing
  // otherwise (a key odesens does not read is not an error).
  std::vector<std::string> optional_paths(const YAML::Node& map, const std::string& key) const {
    const YAML::Node node = map[key];
    std::vector<std::string> out;
    if (node && node.IsScalar() && !node.Scalar().empty()) out.push_back(path(node, key));
    if (node && node.IsSequence())
      for (const YAML::Node& item : node)
        if (item.IsScalar() && !item.Scalar().empty()) out.push_back(path(item, key));
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
  // Version 1 as the PEtab library takes it: 1, or its full number.
  const std::string& version = v.Scalar();
  if (version != "1" && version != "1.0" && version != "1.0.0")
    fail_unsupported(y.at(v), "format_version " + shown(version) +
                                  ": odesens reads PEtab format version 1 (1, 1.0 or 1.0.0)");
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

// The names the directory goes by: its own as written (".", "..", "dir/"
// made absolute and normal first) and, through symbolic links, its
// target's.
std::vector<std::string> directory_names(const std::filesystem::path& folder) {
  namespace fs = std::filesystem;
  std::vector<std::string> names;
  auto add = [&](fs::path p) {
    if (p.filename().empty()) p = p.parent_path();  // a trailing separator
    const std::string name = p.filename().string();
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  };
  std::error_code ec;
  const fs::path absolute = fs::absolute(folder, ec);
  add(ec ? folder.lexically_normal() : absolute.lexically_normal());
  const fs::path real = fs::canonical(folder, ec);
  if (!ec) add(real);
  return names;
}

// Whether the YAML file at PATH looks like a problem file: a line of its
// first 64 KiB opens with format_version or problems at the top level.
// Other YAML files live beside problems (the test suite's
// _NNNN_solution.yaml); the problem file's own reader judges it fully.
bool looks_like_problem_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  std::size_t read = 0;
  while (read < (64u << 10) && std::getline(in, line)) {
    read += line.size() + 1;
    if (line.rfind("format_version:", 0) == 0 || line.rfind("problems:", 0) == 0) return true;
  }
  return false;
}

// The .yaml and .yml files of FOLDER (PATH as given, for messages),
// sorted. Hidden files (editors' and archivers' "._problem.yaml") are no
// problem; an entry that cannot be looked at (a dangling link) is none.
std::vector<std::string> yaml_files_in(const std::filesystem::path& folder,
                                       const std::string& path) {
  namespace fs = std::filesystem;
  std::vector<std::string> found;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string file = it->path().filename().string();
    const std::string ext = it->path().extension().string();
    std::error_code entry_error;
    if ((ext == ".yaml" || ext == ".yml") && file[0] != '.' && it->is_regular_file(entry_error))
      found.push_back(it->path().string());
  }
  if (ec) throw Error(Status::io_error, "PEtab problem directory '" + path + "': " + ec.message());
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

std::string problem_file_of(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return path;
  const fs::path folder(path);
  const std::vector<std::string> names = directory_names(folder);
  for (const std::string& name : names) {
    const fs::path own = folder / (name + ".yaml");
    if (fs::is_regular_file(own, ec)) return own.string();
  }
  const std::vector<std::string> found = yaml_files_in(folder, path);
  if (found.size() == 1) return found.front();
  if (found.empty())
    throw Error(Status::unknown_model, "PEtab problem directory '" + path +
                                           "' holds no problem file (.yaml or .yml)");
  std::vector<std::string> problems;
  for (const std::string& f : found)
    if (looks_like_problem_file(f)) problems.push_back(f);
  if (problems.size() == 1) return problems.front();
  std::string list;
  for (const std::string& f : found)
    list += (list.empty() ? "" : ", ") + fs::path(f).filename().string();
  throw Error(Status::invalid_argument,
              "PEtab problem directory '" + path + "' holds " + std::to_string(found.size()) +
                  " YAML files (" + list + "), no " +
                  (names.empty() ? std::string("NAME") : names.front()) +
                  ".yaml, and not one alone with a format_version or problems key: name "
                  "the problem file");
}

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
  files.visualization_files = y.optional_paths(problem, "visualization_files");
  return files;
}

}  // namespace odesens::petab
