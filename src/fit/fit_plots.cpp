// The pictures of fits and profiles (fit_plots.hpp): data and a gnuplot
// script a picture, written to a scratch folder and drawn by gnuplot.
#include "fit/fit_plots.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "fit/gnuplot_run.hpp"

namespace odesens::fitting {
namespace {

constexpr std::size_t kTracedStarts = 20;   // starts drawn in parameters.png
constexpr std::size_t kProfilesPerPage = 12;  // 4 x 3

std::string output_of(const std::string& folder, const std::string& name) {
  return gnuplot_quoted((std::filesystem::absolute(folder) / (name + ".partial")).string());
}

std::string header(const std::string& folder, const std::string& name, int width, int height) {
  std::ostringstream s;
  s << "reset\nset terminal pngcairo size " << width << "," << height << " noenhanced font 'sans,10'\n"
    << "set output " << output_of(folder, name) << "\nset grid\n";
  return s.str();
}

std::ostringstream numbers_stream() {
  std::ostringstream s;
  s.precision(17);
  return s;
}

std::string waterfall(const FitResult& fit, const std::string& folder, const ScratchFolder& tmp) {
  const double best = fit.starts[0].nlpost;
  std::ostringstream data = numbers_stream();
  std::size_t drawn = 0;
  for (std::size_t k = 0; k < fit.starts.size(); ++k) {
    const double f = fit.starts[k].nlpost;
    if (!start_succeeded(fit.starts[k])) continue;
    data << k + 1 << ' ' << f - best + 1 << ' ' << (f - best <= 0.1 ? 1 : 0) << '\n';
    ++drawn;
  }
  const std::string file = gnuplot_quoted(tmp.write("waterfall.dat", data.str()));
  std::ostringstream s = numbers_stream();
  s << header(folder, "waterfall.png", 900, 600) << "set title "
    << gnuplot_quoted("Waterfall: " + std::to_string(drawn) + " starts (" + fit.optimizer +
                      "), " + std::to_string(fit.starts_at_best) +
                      " within 0.1 of the best, nlpost " + std::to_string(best))
    << "\nset xlabel 'start, sorted by final nlpost'\nset ylabel 'nlpost - best + 1'\n"
    << "set logscale y\nset key top left\n"
    << "plot " << file << " using 1:2 with linespoints pt 6 ps 0.8 lc rgb '#1f77b4' title 'final value', "
    << file << " using 1:($3 == 1 ? $2 : 1/0) with points pt 7 ps 1.2 lc rgb '#d62728' "
    << "title 'within 0.1 of the best'\n";
  return s.str();
}

std::string xtics_of(const std::vector<std::string>& ids) {
  std::string tics = "set xtics rotate by -45 (";
  for (std::size_t i = 0; i < ids.size(); ++i)
    tics += (i ? ", " : "") + gnuplot_quoted(ids[i]) + " " + std::to_string(i + 1);
  return tics + ")\n";
}

std::string traces(const PetabProblem& problem, const FitResult& fit, const std::string& folder,
                   const ScratchFolder& tmp) {
  const std::size_t n = problem.parameter_ids().size();
  std::ostringstream data = numbers_stream(), box = numbers_stream();
  std::size_t blocks = 0;
  for (std::size_t k = 0; k < fit.starts.size() && blocks < kTracedStarts; ++k) {
    if (!start_succeeded(fit.starts[k])) continue;
    for (std::size_t i = 0; i < n; ++i) data << i + 1 << ' ' << fit.starts[k].end[i] << '\n';
    data << "\n\n";
    ++blocks;
  }
  for (std::size_t i = 0; i < n; ++i)
    box << i + 1 << ' ' << problem.lower_scaled()[i] << ' ' << problem.upper_scaled()[i] << '\n';
  const std::string file = gnuplot_quoted(tmp.write("traces.dat", data.str()));
  const std::string bounds = gnuplot_quoted(tmp.write("bounds.dat", box.str()));
  std::ostringstream s;
  s << header(folder, "parameters.png", std::max<int>(900, 40 * static_cast<int>(n)), 650)
    << "set title " << gnuplot_quoted("End points of the best " + std::to_string(blocks) +
                                      " starts (the best in red), on the parameters' scales")
    << "\n" << xtics_of(problem.parameter_ids()) << "set xrange [0.5:" << n + 0.5 << "]\n"
    << "set xlabel 'estimated parameter'\nset ylabel 'value on the parameter''s scale'\nset key off\nset bmargin 10\n"
    << "plot " << bounds << " using 1:2:3 with filledcurves lc rgb '#eeeeee', "
    << "for [k=" << blocks << ":1:-1] " << file
    << " index (k-1) using 1:2 with linespoints pt 7 ps 0.6 lw (k == 1 ? 3 : 1) "
    << "lc rgb (k == 1 ? '#d62728' : '#7f9fbf')\n";
  return s.str();
}

// One profile's panel in a multiplot.
void profile_panel(std::ostringstream& s, const PetabProblem& problem, const Profile& p,
                   const std::string& file) {
  std::string title = p.id + " (" + problem.parameter_scales()[p.parameter] + ")";
  if (p.points.size() < 2) title += ": not traced";
  s << "unset arrow\nset title " << gnuplot_quoted(title) << "\n" << profile_xrange(p);
  if (!p.lower_open())
    s << "set arrow from " << p.lower << ", graph 0 to " << p.lower
      << ", graph 1 nohead dt 2 lc rgb '#2ca02c'\n";
  if (!p.upper_open())
    s << "set arrow from " << p.upper << ", graph 0 to " << p.upper
      << ", graph 1 nohead dt 2 lc rgb '#2ca02c'\n";
  s << "plot " << file << " using 1:2 with linespoints pt 7 ps 0.5 lc rgb '#1f77b4', "
    << p.threshold << " dt 2 lc rgb '#d62728'\n";
}

std::string profile_page(const PetabProblem& problem, const std::vector<Profile>& profiles,
                         std::size_t first, const std::string& name, const std::string& folder,
                         const ScratchFolder& tmp) {
  const std::size_t count = std::min(kProfilesPerPage, profiles.size() - first);
  const std::size_t columns = std::min<std::size_t>(4, count);
  const std::size_t rows = (count + columns - 1) / columns;
  std::ostringstream s = numbers_stream();
  s << header(folder, name, 300 * static_cast<int>(columns), 260 * static_cast<int>(rows))
    << "set key off\nset ylabel 'nlpost - best'\nset multiplot layout " << rows << "," << columns
    << " title 'Profiles (dashed red: the threshold; dashed green: the interval)'\n";
  for (std::size_t k = first; k < first + count; ++k) {
    const Profile& p = profiles[k];
    std::ostringstream data = numbers_stream();
    for (const ProfilePoint& q : p.points)
      if (std::isfinite(q.nlpost)) data << q.value << ' ' << q.nlpost - p.best_nlpost << '\n';
    const std::string file =
        gnuplot_quoted(tmp.write("profile_" + std::to_string(k) + ".dat", data.str()));
    profile_panel(s, problem, p, file);
  }
  s << "unset multiplot\n";
  return s.str();
}

}  // namespace

std::string profile_xrange(const Profile& p) {
  double lo = INFINITY, hi = -INFINITY;
  for (const ProfilePoint& q : p.points)
    if (std::isfinite(q.nlpost)) lo = std::min(lo, q.value), hi = std::max(hi, q.value);
  if (!(lo <= hi)) lo = hi = p.start;
  std::ostringstream s = numbers_stream();
  if (hi - lo > 1e-9 * (1.0 + std::fabs(lo))) {
    // Ticks 1, 2 or 5 times a power of ten apart, at most four over the
    // range: gnuplot's own put up to ten on a panel 300 pixels wide, whose
    // labels ran into each other (-0.64-0.63-0.62...).
    const double rough = (hi - lo) / 3.0;
    const double decade = std::pow(10.0, std::floor(std::log10(rough)));
    const double step = rough <= decade ? decade
                        : rough <= 2.0 * decade ? 2.0 * decade
                        : rough <= 5.0 * decade ? 5.0 * decade
                                                : 10.0 * decade;
    s << "set autoscale x\nset xtics " << step << "\n";
    return s.str();
  }
  s << "set xrange [" << lo - 1.0 << ":" << hi + 1.0 << "]\nset xtics autofreq\n";
  return s.str();
}

std::vector<std::string> fit_picture_names() { return {"waterfall.png", "parameters.png"}; }

std::vector<std::string> profile_picture_names(std::size_t profiles) {
  std::vector<std::string> names;
  for (std::size_t first = 0; first < profiles; first += kProfilesPerPage)
    names.push_back("profiles_" + std::to_string(names.size() + 1) + ".png");
  return names;
}

std::vector<std::string> plot_fit(const PetabProblem& problem, const FitResult& fit,
                                  const std::string& folder) {
  if (fit.starts.empty() || !start_succeeded(fit.starts[0]))
    throw Error(Status::invalid_argument, "plots: no start of the fit succeeded: nothing to draw");
  const ScratchFolder tmp(folder);
  const std::vector<std::string> names = fit_picture_names();
  draw_pictures(tmp, tmp.write("fit.gp", waterfall(fit, folder, tmp) + traces(problem, fit, folder, tmp)),
                folder, names);
  return names;
}

std::vector<std::string> plot_profiles(const PetabProblem& problem,
                                       const std::vector<Profile>& profiles,
                                       const std::string& folder) {
  if (profiles.empty()) throw Error(Status::invalid_argument, "plots: no profile to draw");
  const ScratchFolder tmp(folder);
  const std::vector<std::string> names = profile_picture_names(profiles.size());
  std::string script;
  for (std::size_t first = 0, page = 0; first < profiles.size(); first += kProfilesPerPage)
    script += profile_page(problem, profiles, first, names[page++], folder, tmp);
  draw_pictures(tmp, tmp.write("profiles.gp", script), folder, names);
  return names;
}

}  // namespace odesens::fitting
