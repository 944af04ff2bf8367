// Model files that are not what they seem: too large, not regular files,
// in another encoding than UTF-8. Each is refused with a status and a
// message that names the file and the reason, through load_model_file (the
// loader the tool and the C ABI use) as well as the format's own loaders;
// nothing blocks, exhausts memory or is misread as the other format.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>
#include <iterator>

#include "odesens/odesens.hpp"
#include "core/text_encoding.hpp"
#include "support/small_stack.hpp"

namespace {

using namespace odesens;

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

const std::string kDecay = read(std::string(ODESENS_SBML_TEST_MODELS) + "/decay.xml");
const std::string kOde = "# S decays\nparam k = 0.5\nstate S = 1\ndS/dt = -k*S\n";

// A directory of its own for each test, removed afterwards.
class ModelFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/odesens_model_files_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const auto& f : files_) ::unlink(f.c_str());
    ::rmdir(dir_.c_str());
  }
  std::string path(const std::string& name) {
    files_.push_back(dir_ + "/" + name);
    return files_.back();
  }
  std::string write(const std::string& name, const std::string& bytes) {
    const std::string p = path(name);
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }

  std::string dir_;
  std::vector<std::string> files_;
};

// load_model_file(path, options) fails with `status` and a message that
// starts with `prefix` and contains `fragment`.
void expect_refused(const std::string& path, Status status, const std::string& prefix,
                    const std::string& fragment, const LoadOptions& options = {}) {
  try {
    load_model_file(path, options);
    FAIL() << path << " was accepted; expected: " << fragment;
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.status(), status) << message;
    EXPECT_EQ(message.rfind(prefix, 0), 0u) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

std::string utf16(const std::string& ascii, bool big_endian) {
  std::string out;
  for (char c : ascii) {
    out += big_endian ? std::string(1, '\0') + c : std::string(1, c) + '\0';
  }
  return out;
}

std::string utf32_le(const std::string& ascii) {
  std::string out;
  for (char c : ascii) out += std::string(1, c) + std::string(3, '\0');
  return out;
}

// ---- size ----

TEST_F(ModelFiles, FilesOverTheSizeLimitAreRefusedBeforeTheyAreRead) {
  const std::string decay = write("decay.xml", kDecay);
  LoadOptions small;
  small.max_file_bytes = 1024;
  expect_refused(decay, Status::io_error, "cannot read model file '" + decay + "'",
                 ": it is larger than the model file size limit of 1 KiB (1024 bytes); set "
                 "ODESENS_MAX_MODEL_FILE_SIZE (bytes, or with a K, M or G suffix) to allow more",
                 small);
  small.max_file_bytes = kDecay.size();
  EXPECT_EQ(load_model_file(decay, small)->nx(), 1u);

  // The default, 64 MiB: a sparse file one byte larger takes no disk space
  // and is refused without reading it.
  const std::string big = path("big.ode");
  const int fd = ::open(big.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, (off_t{64} << 20) + 1), 0);
  ::close(fd);
  expect_refused(big, Status::io_error, "cannot read model file '" + big + "'",
                 "larger than the model file size limit of 64 MiB (67108864 bytes)");
}

TEST_F(ModelFiles, TheEnvironmentVariableSetsTheLimit) {
  const std::string decay = write("decay.xml", kDecay);
  const std::string ode = write("decay.ode", kOde);
  ::setenv("ODESENS_MAX_MODEL_FILE_SIZE", "1K", 1);
  expect_refused(decay, Status::io_error, "cannot read model file", "limit of 1 KiB (1024 bytes)");
  EXPECT_EQ(load_ode_file(ode)->nx(), 1u);  // 50 bytes
  try {
    load_sbml_file(decay);
    ADD_FAILURE() << "load_sbml_file ignores the limit";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::io_error) << e.what();
  }
  ::setenv("ODESENS_MAX_MODEL_FILE_SIZE", "2k", 1);
  EXPECT_EQ(load_model_file(decay)->nx(), 1u);
  ::setenv("ODESENS_MAX_MODEL_FILE_SIZE", "lots", 1);
  expect_refused(decay, Status::invalid_argument, "ODESENS_MAX_MODEL_FILE_SIZE='lots'",
                 "is not a size: give a positive number of bytes, or one with a K, M or G suffix");
  ::unsetenv("ODESENS_MAX_MODEL_FILE_SIZE");
  LoadOptions zero;
  zero.max_file_bytes = 0;
  expect_refused(decay, Status::invalid_argument, "the model file size limit must be positive", "",
                 zero);
}

// ---- file types ----

TEST_F(ModelFiles, DevicesDirectoriesAndFifosAreRefusedWithoutBlocking) {
  expect_refused("/dev/zero", Status::io_error, "cannot read model file '/dev/zero'",
                 ": it is a character device, not a regular file");
  expect_refused(dir_, Status::io_error, "cannot read model file '" + dir_ + "'",
                 ": it is a directory, not a regular file");
  const std::string fifo = path("model.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto load = std::async(std::launch::async, [&] {
    expect_refused(fifo, Status::io_error, "cannot read model file '" + fifo + "'",
                   ": it is a FIFO (named pipe), not a regular file");
  });
  if (load.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    ADD_FAILURE() << "loading a FIFO blocks";
    std::ofstream(fifo) << kOde;  // a writer releases it
  }
  load.get();
}

// ---- encodings ----

TEST_F(ModelFiles, AUtf8ByteOrderMarkIsAccepted) {
  const std::string bom = "\xEF\xBB\xBF";
  const std::string sbml = write("bom.xml", bom + kDecay);
  const std::string ode = write("bom.ode", bom + kOde);
  EXPECT_EQ(load_model_file(sbml)->state_names(), std::vector<std::string>{"S"});
  EXPECT_EQ(load_sbml_file(sbml)->state_names(), std::vector<std::string>{"S"});
  EXPECT_EQ(load_sbml_text(bom + kDecay, "bom.xml")->state_names(), std::vector<std::string>{"S"});
  EXPECT_EQ(load_model_file(ode)->state_names(), std::vector<std::string>{"S"});
  EXPECT_EQ(load_ode_text(bom + kOde, "bom.ode")->state_names(), std::vector<std::string>{"S"});
}

TEST_F(ModelFiles, Utf16AndUtf32AreRefusedByName) {
  const struct {
    const char* name;
    std::string bytes;
    const char* encoding;
  } cases[] = {
      {"le_bom.xml", "\xFF\xFE" + utf16(kDecay, false), "UTF-16 (little-endian)"},
      {"be_bom.xml", "\xFE\xFF" + utf16(kDecay, true), "UTF-16 (big-endian)"},
      {"le.xml", utf16(kDecay, false), "UTF-16 (little-endian)"},
      {"be.xml", utf16(kDecay, true), "UTF-16 (big-endian)"},
      {"le.ode", utf16(kOde, false), "UTF-16 (little-endian)"},
      {"le_bom.ode", "\xFF\xFE" + utf16(kOde, false), "UTF-16 (little-endian)"},
      {"32.xml", std::string("\xFF\xFE\0\0", 4) + utf32_le(kDecay), "UTF-32 (little-endian)"},
      {"32.ode", utf32_le(kOde), "UTF-32 (little-endian)"},
  };
  for (const auto& c : cases) {
    const std::string p = write(c.name, c.bytes);
    expect_refused(p, Status::unsupported, p + ": ",
                   std::string(c.encoding) + " is not supported; convert the file to UTF-8");
    // Each format's own loader says the same.
    try {
      if (std::string(c.name).find(".xml") != std::string::npos)
        load_sbml_text(c.bytes, c.name);
      else
        load_ode_text(c.bytes, c.name);
      ADD_FAILURE() << c.name << " accepted as text";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::unsupported) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.encoding), std::string::npos) << e.what();
    }
  }
  // With SBML sensitivity parameters: not called .ode text.
  LoadOptions sens;
  sens.sbml_sensitivity_params = std::vector<std::string>{"k"};
  const std::string p = write("le_sens.xml", utf16(kDecay, false));
  expect_refused(p, Status::unsupported, p + ": ", "UTF-16 (little-endian) is not supported", sens);
}

TEST_F(ModelFiles, SbmlThatIsNotUtf8IsRefusedWhereTheBadByteIs) {
  std::string latin1 = kDecay;
  latin1.replace(latin1.find("<model id=\"decay\">"), 18, "<model id=\"decay\" name=\"caf\xE9\">");
  const std::string p = write("latin1.xml", latin1);
  expect_refused(p, Status::parse_error,
                 p + ":4:30: ", "not valid UTF-8 (byte 0xE9); SBML files must be UTF-8");
  std::string declared = latin1;
  declared.replace(declared.find("UTF-8"), 5, "ISO-8859-1");
  const std::string q = write("declared.xml", declared);
  expect_refused(q, Status::unsupported, q + ":1: ",
                 "the XML declaration names the encoding 'ISO-8859-1': SBML files must be UTF-8");
  // UTF-8 itself is fine anywhere SBML allows text.
  std::string utf8 = kDecay;
  utf8.replace(utf8.find("<model id=\"decay\">"), 18,
               "<model id=\"decay\" name=\"caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\xA7\xAA\">");
  EXPECT_EQ(load_sbml_text(utf8, "utf8.xml")->nx(), 1u);
  // A declaration without its optional encoding is UTF-8, as XML reads it
  // (libsbml's "Missing encoding attribute" refused it, at the last line).
  std::string bare = kDecay;
  bare.replace(0, bare.find("?>") + 2, "<?xml version=\"1.0\"?>");
  ASSERT_EQ(bare.rfind("<?xml version=\"1.0\"?>\n", 0), 0u) << bare.substr(0, 60);
  EXPECT_EQ(load_sbml_text(bare, "bare.xml")->nx(), 1u);
}

TEST_F(ModelFiles, NulBytesAreNotModelText) {
  const std::string p = write("nul.ode", kOde + std::string("x\0y", 3));
  expect_refused(p, Status::parse_error, p + ":5:2: ", "a NUL byte: this is not text");
}

// ---- .ode nesting ----

// dx/dt = open^n x close^n
std::string ode_nested(int n, const std::string& open, const std::string& close) {
  std::string rhs = "x";
  for (int i = 0; i < n; ++i) rhs = open + rhs + close;
  return "state x = 1\ndx/dt = " + rhs + "\n";
}

TEST(OdeNesting, ExpressionsAtTheParsersLimitParseOnASmallStack) {
  // The parser recurses once a level and stops at 200 (x itself is one).
  for (const auto& [open, close] : {std::pair<std::string, std::string>{"(", ")"},
                                    {"exp(", ")"},
                                    {"-", ""},
                                    {"x^", ""},
                                    {"max(x, ", ")"}}) {
    odesens::testing::on_small_stack(
        odesens::testing::kSmallStack, [&, open = open, close = close] {
          EXPECT_EQ(load_ode_text(ode_nested(199, open, close), "deep.ode")->nx(), 1u) << open;
        });
    try {
      load_ode_text(ode_nested(200, open, close), "deeper.ode");
      ADD_FAILURE() << open << " nested 200 deep accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::parse_error);
      EXPECT_NE(std::string(e.what()).find("expression nested too deeply (more than 200 levels)"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(Utf8, ValidAndInvalidSequences) {
  EXPECT_EQ(first_invalid_utf8(""), std::string_view::npos);
  EXPECT_EQ(first_invalid_utf8("ascii \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF"),
            std::string_view::npos);
  const std::pair<const char*, std::size_t> bad[] = {
      {"ab\xE9", 2},            // Latin-1
      {"\x80", 0},              // a lone continuation byte
      {"a\xC0\xAF", 1},         // overlong '/'
      {"\xE0\x80\xAF", 0},      // overlong, three bytes
      {"\xED\xA0\x80", 0},      // a surrogate
      {"\xF4\x90\x80\x80", 0},  // beyond U+10FFFF
      {"\xF5\x80\x80\x80", 0},  // no such lead byte
      {"ok\xE2\x82", 2},        // truncated
      {"\xC3\xA9\xC3(", 2},     // a bad continuation
  };
  for (const auto& [text, at] : bad) EXPECT_EQ(first_invalid_utf8(text), at) << text;
}

}  // namespace
