// The result documents: the format told from a name or an extension, a
// file that holds what the stream gets, the JSON numbers that read back to
// the same double, the HDF5 document of one member, and what the HDF5
// layout refuses.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "io/result_file.hpp"
#include "io/result_h5.hpp"
#include "io/result_json.hpp"
#include "odesens/odesens.hpp"
#include "temp_folder.hpp"

namespace odesens::io {
namespace {

using testing::TempFolder;
using testing::text_of;

const char* kDecay = "param k = 0.5\nstate x = 2\ndx/dt = -k*x\n";

std::shared_ptr<const Model> decay_model() { return load_ode_text(kDecay, "decay.ode"); }

Result decay_result(const std::string& method) {
  Problem problem;
  problem.model = decay_model();
  problem.output_times = {0.5, 1.0, 2.0};
  return solve(problem, method);
}

TEST(ResultFormat, ComesFromTheNameOrElseTheExtension) {
  EXPECT_EQ(result_format("json", "a.csv"), ResultFormat::json);
  EXPECT_EQ(result_format("csv", "a"), ResultFormat::csv);
  EXPECT_EQ(result_format("h5", "a.json"), ResultFormat::h5);
  EXPECT_EQ(result_format("", "dir.h5/a.JSON"), ResultFormat::json);
  EXPECT_EQ(result_format("", "a.Csv"), ResultFormat::csv);
  EXPECT_EQ(result_format("", "a.h5"), ResultFormat::h5);
  EXPECT_EQ(result_format("", "a.hdf5"), ResultFormat::h5);
}

TEST(ResultFormat, AnythingElseIsAnInvalidArgument) {
  for (const auto& [format, path] : std::vector<std::pair<std::string, std::string>>{
           {"JSON", "a.json"}, {"xml", "a.xml"}, {"", "a.txt"}, {"", "a.h5/b"}, {"", "json"}}) {
    try {
      result_format(format, path);
      ADD_FAILURE() << format << " " << path;
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::invalid_argument) << e.what();
    }
  }
}

TEST(ResultFile, HoldsTheDocumentTheStreamGets) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  const auto model = decay_model();
  const Result result = decay_result("cvodes_fsa");
  const RunDescription run{"decay.ode", false, {"x"}, {{1.0, 2.0, 3.0}}, 1};
  for (const ResultFormat format : {ResultFormat::json, ResultFormat::csv}) {
    std::ostringstream streamed;
    write_result_text(streamed, format, *model, result, run);
    const std::string path = folder.file("result");
    write_result_file(path, format, *model, result, run, {0.5});
    EXPECT_EQ(text_of(path), streamed.str());
    EXPECT_NE(streamed.str().find("3"), std::string::npos);  // the observable
  }
  EXPECT_EQ(folder.listing(), "result");
  std::ostringstream h5;
  EXPECT_THROW(write_result_text(h5, ResultFormat::h5, *model, result, run), Error);
}

// Names with commas, quotes or line breaks (a callback model's, set
// through the C API) are quoted as RFC 4180 quotes a field, so that every
// row keeps its columns.
TEST(ResultCsv, NamesThatNeedQuotesAreQuoted) {
  CallbackModelSpec spec;
  spec.nx = 2;
  spec.np = 1;
  spec.nominal_params = {0.5};
  spec.x0 = {1.0, 2.0};
  spec.state_names = {"A,B", "say \"hi\""};
  spec.param_names = {"k"};
  spec.f = [](double, const double* x, const double* p, double* f, void*) {
    f[0] = -p[0] * x[0];
    f[1] = -p[0] * x[1];
    return 0;
  };
  const auto model = make_callback_model(spec);
  Problem problem;
  problem.model = model;
  problem.output_times = {1.0};
  const Result result = solve(problem, "cvodes_fsa");
  std::ostringstream out;
  write_result_text(out, ResultFormat::csv, *model, result,
                    RunDescription{"names", false, {}, {}, 1});
  const std::string header = out.str().substr(0, out.str().find('\n'));
  EXPECT_EQ(header, "t,\"A,B\",\"say \"\"hi\"\"\",\"dA,B/dk\",\"dsay \"\"hi\"\"/dk\"");
}

TEST(ResultJson, NumbersReadBackToTheSameDouble) {
  const auto model = decay_model();
  Result r;
  r.method = "by_hand";
  r.nx = 1;
  r.np = 1;
  r.times = {0.0, 0.1, 1e20};
  r.x = {-0.0, 2.0, std::numeric_limits<double>::quiet_NaN()};
  std::ostringstream out;
  write_json(out, *model, r, RunDescription{"decay.ode", false, {}, {}, 1});
  EXPECT_NE(out.str().find("\"times\":[0,0.1,1e+20]"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\"x\":[[-0.0],[2],[null]]"), std::string::npos) << out.str();
}

// The members_done attribute and the shape of x of an HDF5 file.
std::pair<long long, std::vector<hsize_t>> members_and_x_shape(const std::string& path) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return {-1, {}};
  long long done = -1;
  const hid_t attribute = H5Aopen(file, "members_done", H5P_DEFAULT);
  H5Aread(attribute, H5T_NATIVE_LLONG, &done);
  H5Aclose(attribute);
  const hid_t x = H5Dopen2(file, "x", H5P_DEFAULT);
  const hid_t space = H5Dget_space(x);
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  H5Sclose(space);
  H5Dclose(x);
  H5Fclose(file);
  return {done, dims};
}

TEST(ResultH5, IsTheEnsembleDocumentWithOneMember) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  const auto model = decay_model();
  const std::string path = folder.file("one.h5");
  write_result_file(path, ResultFormat::h5, *model, decay_result("cvodes_fsa"),
                    RunDescription{"decay.ode", false, {}, {}, 1}, {0.5});
  const auto [done, dims] = members_and_x_shape(path);
  EXPECT_EQ(done, 1);
  EXPECT_EQ(dims, (std::vector<hsize_t>{1, 3, 1}));
  EXPECT_EQ(folder.listing(), "one.h5");
}

// A dataset's shape and values (empty when it is not in the file).
std::pair<std::vector<hsize_t>, std::vector<double>> dataset_of(const std::string& path,
                                                                 const char* name) {
  std::pair<std::vector<hsize_t>, std::vector<double>> out;
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return out;
  if (H5Lexists(file, name, H5P_DEFAULT) > 0) {
    const hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
    const hid_t space = H5Dget_space(set);
    out.first.resize(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
    H5Sget_simple_extent_dims(space, out.first.data(), nullptr);
    out.second.resize(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.second.data());
    H5Sclose(space);
    H5Dclose(set);
  }
  H5Fclose(file);
  return out;
}

// Every array of the result's table that the result has (t, x and S_times
// aside) is a dataset of its name: (1 member, its documents' extents), the
// values in the documents' order: S[t][i][j], SR[t][i][r].
TEST(ResultH5, HoldsEveryArrayOfTheResultTable) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  Problem problem;
  problem.model = load_ode_text("param k = 0.5\nparam c = 1\nstate x = 2\nstate y = 0\n"
                                "dx/dt = -k*x + c\ndy/dt = k*x - y\n",
                                "pair.ode");
  problem.output_times = {0.5, 1.0, 2.0};
  problem.options.set("directions", "all");
  const Result r = solve(problem, "dopri8s");
  ASSERT_EQ(r.ns, 4u);
  const std::string path = folder.file("all.h5");
  write_result_file(path, ResultFormat::h5, *problem.model, r,
                    RunDescription{"pair.ode", true, {}, {}, 1}, {0.5, 1.0});
  std::size_t written = 0;
  for (const ResultArrayView& view : result_arrays(r)) {
    const std::string name = view.spec->name;
    if (view.empty() || name == "times" || name == "x" || name == "S_times") continue;
    SCOPED_TRACE(name);
    const auto [dims, values] = dataset_of(path, view.spec->name);
    std::vector<hsize_t> expected = {1};
    for (const auto& axis : view.layout()) expected.push_back(axis.extent);
    EXPECT_EQ(dims, expected);
    ASSERT_EQ(values.size(), view.data->size());
    ++written;
  }
  EXPECT_EQ(written, 4u);  // S, gradient, objectives, SR
  const auto s = dataset_of(path, "S").second;
  const auto sr = dataset_of(path, "SR").second;
  for (std::size_t t = 0; t < 3; ++t)
    for (std::size_t i = 0; i < 2; ++i) {
      for (std::size_t j = 0; j < 2; ++j) EXPECT_EQ(s[(t * 2 + i) * 2 + j], r.s_at(t, i, j));
      for (std::size_t d = 0; d < 4; ++d) EXPECT_EQ(sr[(t * 2 + i) * 4 + d], r.sr_at(t, i, d));
    }
  EXPECT_EQ(dataset_of(path, "gradient").second, r.gradient);
  EXPECT_TRUE(dataset_of(path, "gradient_x0").first.empty());
}

TEST(ResultH5, AFileNeverWrittenLeavesNothing) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  const auto model = decay_model();
  {
    ResultH5File file(
        folder.file("r.h5"),
        {"decay.ode", "cvodes_fsa", model->state_names(), model->param_names(), {0.5, 1.0}}, {0.5},
        "path");
    EXPECT_EQ(folder.listing(), "r.h5.partial");
  }
  EXPECT_EQ(folder.listing(), "");
}

TEST(ResultH5, RefusesEnclosuresBeforeMakingAFile) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  const auto model = decay_model();
  Problem problem;
  problem.model = model;
  problem.output_times = {0.5, 1.0};
  problem.param_lower = {0.45};
  problem.param_upper = {0.55};
  const Result bounds = solve(problem, "bounds_fsa");
  try {
    write_result_file(folder.file("b.h5"), ResultFormat::h5, *model, bounds,
                      RunDescription{"decay.ode", false, {}, {}, 1}, {0.5});
    FAIL() << "written";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unsupported);
    EXPECT_NE(std::string(e.what()).find("enclosures of bounds_fsa"), std::string::npos);
  }
  EXPECT_EQ(folder.listing(), "");
}

}  // namespace
}  // namespace odesens::io
