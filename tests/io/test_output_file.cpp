// OutputFile: a file replaced whole or not at all, with no temporary left
// behind, its mode kept, and the signal handlers of the process touched
// only when asked.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <csignal>

#include "io/output_file.hpp"
#include "odesens/status.hpp"
#include "temp_folder.hpp"

namespace odesens::io {
namespace {

using testing::TempFolder;
using testing::text_of;
using testing::write_text;

TEST(OutputFile, CommitReplacesTheFileWhole) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  const std::string path = folder.file("doc.json");
  write_text(path, "old");
  OutputFile file(path);
  file.stream() << "new document";
  file.stream().flush();
  EXPECT_EQ(text_of(path), "old");  // until the commit
  file.commit();
  EXPECT_EQ(text_of(path), "new document");
  EXPECT_EQ(folder.listing(), "doc.json");
}

TEST(OutputFile, AFileNotCommittedLeavesTheOldOneAndNoTemporary) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  const std::string path = folder.file("doc.csv");
  write_text(path, "old");
  {
    OutputFile file(path);
    file.stream() << "half a docu";
    EXPECT_EQ(folder.listing().find(".doc.csv."), 0u) << folder.listing();
  }
  EXPECT_EQ(text_of(path), "old");
  EXPECT_EQ(folder.listing(), "doc.csv");
}

TEST(OutputFile, KeepsTheModeOfTheFileItReplaces) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  const std::string path = folder.file("doc.json");
  write_text(path, "old");
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  OutputFile file(path);
  file.stream() << "new";
  file.commit();
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0640u);
}

TEST(OutputFile, AMissingFolderIsAnIoErrorNamingThePath) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  const std::string path = folder.file("no/such/doc.json");
  try {
    OutputFile file(path);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::io_error);
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

void ignore_signal(int) {}

// The handler SIGTERM has now.
void (*sigterm_handler())(int) {
  struct sigaction now {};
  sigaction(SIGTERM, nullptr, &now);
  return now.sa_handler;
}

TEST(OutputFile, LeavesTheSignalHandlersAloneUnlessAsked) {
  TempFolder folder;
  ASSERT_TRUE(folder.made());
  struct sigaction mine {}, before {};
  mine.sa_handler = ignore_signal;
  sigemptyset(&mine.sa_mask);
  sigaction(SIGTERM, &mine, &before);
  {
    OutputFile file(folder.file("a.json"));
    EXPECT_EQ(sigterm_handler(), ignore_signal);
    file.commit();
  }
  {
    OutputFile file(folder.file("b.json"), OutputFileOptions{true});
    EXPECT_NE(sigterm_handler(), ignore_signal);  // the temporary's remover
    file.commit();
    EXPECT_EQ(sigterm_handler(), ignore_signal);
  }
  sigaction(SIGTERM, &before, nullptr);
  EXPECT_EQ(folder.listing(), "a.json b.json");
}

}  // namespace
}  // namespace odesens::io
