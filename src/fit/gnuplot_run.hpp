// Running gnuplot on a script in a scratch folder (fit_plots.hpp).
#pragma once

#include <string>
#include <vector>

namespace odesens::fitting {

// A scratch folder inside `folder` for a plot's data and script, removed
// with everything in it when the object goes.
class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& folder);
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  // Writes `text` to NAME inside the scratch folder; returns its path.
  std::string write(const std::string& name, const std::string& text) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs `gnuplot SCRIPT` with the scratch folder as working directory and
// waits for it; Error(unsupported) when gnuplot cannot be started,
// Error(io_error) with gnuplot's own message when it fails.
void run_gnuplot(const ScratchFolder& scratch, const std::string& script);

// `text` as a gnuplot string literal in single quotes ('' for ').
std::string gnuplot_quoted(const std::string& text);

// Renames each picture NAME.partial in `folder` to NAME (pictures gnuplot
// finished); Error(io_error) naming the picture on failure.
void publish_pictures(const std::string& folder, const std::vector<std::string>& names);

// Runs the script, then publishes the pictures; on any failure the
// pictures' temporary files are removed and the error passed on.
void draw_pictures(const ScratchFolder& scratch, const std::string& script,
                   const std::string& folder, const std::vector<std::string>& names);

}  // namespace odesens::fitting
