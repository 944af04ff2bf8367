// The tables read by odesens: parameter sets (any subset of the model's
// parameters, the rest nominal), measurements (times from the file or
// checked against given ones), the file conventions they share, and the
// UTF-8 repair of the HDF5 strings.
#include <gtest/gtest.h>

#include <cmath>

#include "io/data_table.hpp"
#include "io/parameter_table.hpp"
#include "io/valid_utf8.hpp"
#include "odesens/odesens.hpp"
#include "temp_folder.hpp"

namespace odesens::io {
namespace {

using testing::TempFolder;
using testing::write_text;

const char* kModel =
    "param k1 = 1\nparam k2 = 2\nparam k3 = 3\nstate a = 1\nstate b = 0\n"
    "da/dt = -k1*a\ndb/dt = k1*a - k2*b + k3\n";

// The Error(invalid_argument) message of reading, or "" when it reads.
template <class Read>
std::string refusal(Read read) {
  try {
    read();
  } catch (const Error& e) {
    return e.status() == Status::invalid_argument ? e.what()
                                                  : "wrong status: " + std::string(e.what());
  }
  return "";
}

TEST(ParameterTable, SetsTheNamedColumnsOverTheNominalValues) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  const std::string path = folder.file("sets.tsv");
  write_text(path, "\xEF\xBB\xBF# fits\r\nk3\t k1\r\n\r\n0.5\t7\r\n# skipped\n-1\tnan\n");
  const NumberTable table = read_parameter_table(path, {"k1", "k2", "k3"}, "m", "--params");
  EXPECT_EQ(table.names, (std::vector<std::string>{"k3", "k1"}));
  EXPECT_EQ(table.header_line, 2u);
  ASSERT_EQ(table.rows, 2u);
  const auto sets = parameter_sets(table, {1.0, 2.0, 3.0}, 1, 1);
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_TRUE(std::isnan(sets[0][0]));
  EXPECT_EQ(sets[0][1], 2.0);
  EXPECT_EQ(sets[0][2], -1.0);
  EXPECT_EQ(parameter_sets(table, {1.0, 2.0, 3.0}, 0, 1)[0], (std::vector<double>{7.0, 2.0, 0.5}));
}

TEST(ParameterTable, ErrorsNameTheFileTheLineAndTheCell) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  const std::vector<std::string> names = {"k1", "k2"};
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"k1,k9\n1,2\n", ":1: model m has no parameter 'k9' (column 2)"},
      {"k1,k1\n1,2\n", ":1: parameter 'k1' appears twice in the header (columns 1 and 2)"},
      {"k1,k2\n1\n", ":2: 1 cell, but the header (line 1) has 2"},
      {"k1,k2\n1,x\n", ":2: column 2 (k2): 'x' is not a number"},
      {"k1,k2\n1,1e999\n", ":2: column 2 (k2): '1e999' is out of the range of doubles"},
      {"k1,k2\n1,\n", ":2: column 2 (k2) is empty"},
      {"# only\n\n", ": only blank and comment lines"},
      {"k1\n", ": no data rows after the header (line 1)"},
  };
  for (const auto& c : cases) {
    const std::string path = folder.file("sets.csv");
    write_text(path, c.text);
    const std::string message =
        refusal([&] { read_parameter_table(path, names, "m", "--params"); });
    EXPECT_NE(message.find(path + c.message), std::string::npos) << c.text << ": " << message;
  }
  EXPECT_NE(refusal([&] {
              read_parameter_table(folder.file("sets.txt"), names, "m", "--params");
            }).find("--params: '"),
            std::string::npos);
  const std::string not_a_file = folder.file("folder.csv");
  std::filesystem::create_directory(not_a_file);
  EXPECT_NE(refusal([&] {
              read_parameter_table(not_a_file, names, "m", "--params");
            }).find("it is a directory, not a regular file"),
            std::string::npos);
}

DataTableOptions data_options(std::vector<double> times) {
  return {"--data", std::move(times), "--tout"};
}

TEST(Measurements, TakeTheirTimesFromTheFileOrCheckThem) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  const auto model = load_ode_text(kModel, "m.ode");
  const std::string path = folder.file("data.csv");
  write_text(path, "b,t\n0.25,0.5\n,1\n");
  for (const auto& given : {std::vector<double>{}, std::vector<double>{0.5, 1.0}}) {
    const Measurements m = read_measurements(path, *model, data_options(given));
    EXPECT_EQ(m.times, (std::vector<double>{0.5, 1.0}));
    ASSERT_EQ(m.values.size(), 4u);  // nx per time
    EXPECT_TRUE(std::isnan(m.values[0]));
    EXPECT_EQ(m.values[1], 0.25);
    EXPECT_TRUE(std::isnan(m.values[2]) && std::isnan(m.values[3]));
  }
  EXPECT_NE(refusal([&] {
              read_measurements(path, *model, data_options({0.5}));
            }).find("--data: " + path + " has 2 rows, but --tout gives 1 output times"),
            std::string::npos);
  EXPECT_NE(refusal([&] {
              read_measurements(path, *model, data_options({0.5, 2.0}));
            }).find("row 2 has t = 1, not the output time 2"),
            std::string::npos);
}

TEST(Measurements, RefuseATableWithoutTimesOrWithInfiniteValues) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  const auto model = load_ode_text(kModel, "m.ode");
  const std::string path = folder.file("data.csv");
  write_text(path, "a\n1\n");
  EXPECT_NE(refusal([&] {
              read_measurements(path, *model, data_options({}));
            }).find("no column 't' (the output times)"),
            std::string::npos);
  write_text(path, "t,a\n0,1\n1,-inf\n");
  EXPECT_NE(refusal([&] {
              read_measurements(path, *model, data_options({}));
            }).find("row 2, column 2: -inf is not a measurement"),
            std::string::npos);
  write_text(path, "t,a\nnan,1\n");
  EXPECT_NE(
      refusal([&] { read_measurements(path, *model, data_options({})); }).find("row 1 has no t"),
      std::string::npos);
}

TEST(ValidUtf8, ReplacesEveryByteThatIsNotPartOfUtf8) {
  EXPECT_EQ(valid_utf8("plain"), "plain");
  EXPECT_EQ(valid_utf8("caf\xC3\xA9 \xF0\x9F\x99\x82"), "caf\xC3\xA9 \xF0\x9F\x99\x82");
  EXPECT_EQ(valid_utf8("a\xFF"), "a\xEF\xBF\xBD");
  EXPECT_EQ(valid_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong '/'
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_EQ(valid_utf8("\xE2\x82"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // cut short
}

}  // namespace
}  // namespace odesens::io
