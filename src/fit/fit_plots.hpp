// Pictures of fits and profiles, drawn by gnuplot (Debian package
// gnuplot-nox, found on PATH): PNG files in a folder.
//
//   waterfall.png      the final nlpost of every start, sorted, as
//                      nlpost - best + 1 on a log axis; the starts within
//                      0.1 of the best marked
//   parameters.png     the end points of the best starts (up to 20), one
//                      line each across the parameters, on their scales,
//                      inside the box
//   profiles_K.png     the profiles, 12 a page: nlpost - best against the
//                      parameter's value, the threshold and the interval
//
// gnuplot rather than a plotting library in the process: the tool stays
// free of an interpreter, the pictures are drawn in a child process that
// cannot take the fit down, and gnuplot-nox is one small Debian package.
// Each picture is written under a temporary name and renamed when gnuplot
// has finished it.
#pragma once

#include <string>
#include <vector>

#include "odesens/fit.hpp"
#include "odesens/profile.hpp"

namespace odesens::fitting {

// Error(unsupported) when gnuplot cannot be found or run (naming the
// package), Error(io_error) naming the folder or the picture when the
// folder cannot be created or gnuplot fails (with its message). The folder
// is created when missing; the names written are returned.
std::vector<std::string> plot_fit(const PetabProblem& problem, const FitResult& fit,
                                  const std::string& folder);
std::vector<std::string> plot_profiles(const PetabProblem& problem,
                                       const std::vector<Profile>& profiles,
                                       const std::string& folder);

// The pictures plot_fit writes, and plot_profiles for `profiles` profiles
// (the CLI checks that none of them is a folder before it runs).
std::vector<std::string> fit_picture_names();
std::vector<std::string> profile_picture_names(std::size_t profiles);

// The gnuplot x range of a profile's panel: gnuplot's own ("set autoscale
// x"), except around a lone point (a side stopped before its first step),
// where gnuplot would spread its ticks over a range of rounding width: the
// value +- 1 then.
std::string profile_xrange(const Profile& p);

}  // namespace odesens::fitting
