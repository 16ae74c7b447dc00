// Tests for AtomicFile and AtomicDirectory: outputs appear whole or not at all.
#include "dlfl/files/atomic_file.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include "dlfl/error.h"
#include "../support/io_test_support.h"

namespace dlfl::io {
namespace {

using iotest::read_file;
using iotest::starts_with;
using iotest::TempDir;
using iotest::write_file;
using Names = std::vector<std::string>;

TEST(AtomicFile, CommitRenamesTheTemporaryOverTheTarget) {
  TempDir dir;
  AtomicFile out(dir / "out.txt");
  EXPECT_EQ(out.temp_path().parent_path(), dir.path());
  out.stream() << "hello\n";
  EXPECT_FALSE(fs::exists(dir / "out.txt")) << "nothing is visible before commit";
  out.commit();
  EXPECT_EQ(read_file(dir / "out.txt"), "hello\n");
  EXPECT_EQ(dir.listing(), Names{"out.txt"}) << "no temporary file is left";
}

TEST(AtomicFile, DestroyedWithoutCommitLeavesNothing) {
  TempDir dir;
  {
    AtomicFile out(dir / "out.txt");
    out.stream() << "partial";
  }
  EXPECT_TRUE(dir.listing().empty());
}

TEST(AtomicFile, AnExistingFileIsReplacedWholeOrNotAtAll) {
  TempDir dir;
  write_file(dir / "out.txt", "old content\n");
  {
    AtomicFile out(dir / "out.txt");
    out.stream() << "new content, abandoned half-way";
  }
  EXPECT_EQ(read_file(dir / "out.txt"), "old content\n");
  AtomicFile out(dir / "out.txt");
  out.stream() << "new\n";
  out.commit();
  EXPECT_EQ(read_file(dir / "out.txt"), "new\n");
  EXPECT_EQ(dir.listing(), Names{"out.txt"});
}

TEST(AtomicFile, LargeWritesBypassingTheBufferArriveInOrder) {
  TempDir dir;
  std::string big(1 << 20, 'x');
  big[12345] = 'y';
  AtomicFile out(dir / "big");
  out.stream() << "head:";
  out.stream().write(big.data(), static_cast<std::streamsize>(big.size()));
  out.stream() << ":tail";
  out.commit();
  EXPECT_EQ(read_file(dir / "big"), "head:" + big + ":tail");
}

// Past 8 MiB the writeback of what is written starts early; a seek back (the native
// writer patches its header last) and writes after it still land where they belong.
TEST(AtomicFile, OutputsPastTheWritebackChunkArriveWholeAfterASeekBack) {
  TempDir dir;
  std::string expected;
  AtomicFile out(dir / "big");
  out.stream() << "HEADER--";
  expected += "HEADER--";
  for (int i = 0; i < 40; ++i) {  // 40 x 512 KiB = 20 MiB, through the buffer and past it
    std::string piece(std::size_t{1} << 19, static_cast<char>('a' + i % 26));
    piece[static_cast<std::size_t>(i) * 7] = '#';
    if (i % 2) out.stream().write(piece.data(), static_cast<std::streamsize>(piece.size()));
    else
      for (std::size_t k = 0; k < piece.size(); k += 1000) out.stream() << piece.substr(k, 1000);
    expected += piece;
  }
  out.stream().seekp(0);
  out.stream() << "PATCHED!";
  out.stream().seekp(0, std::ios_base::end);
  out.stream() << "end";
  out.commit();
  expected.replace(0, 8, "PATCHED!");
  expected += "end";
  const std::string got = read_file(dir / "big");
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_TRUE(got == expected);
}

TEST(AtomicFile, MissingParentDirectoryIsAnErrorNamingTheTarget) {
  TempDir dir;
  const auto target = dir / "no/such/dir/out.txt";
  try {
    AtomicFile out(target);
    FAIL() << "expected dlfl::Error";
  } catch (const Error& e) {
    EXPECT_TRUE(starts_with(e.what(), target.string() + ": cannot create")) << e.what();
  }
  EXPECT_TRUE(dir.listing().empty());
}

TEST(AtomicFile, UnwritableDirectoryIsAnError) {
  // /proc refuses new files even for root.
  EXPECT_THROW(AtomicFile("/proc/dlfl-io-test-output"), Error);
}

TEST(AtomicFile, ReadOnlyDirectoryIsAnErrorAndLeavesNothing) {
  TempDir dir;
  fs::create_directory(dir / "ro");
  fs::permissions(dir / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  if (::access((dir / "ro").c_str(), W_OK) == 0) GTEST_SKIP() << "running with CAP_DAC_OVERRIDE (root)";
  EXPECT_THROW(AtomicFile(dir / "ro/out.txt"), Error);
  fs::permissions(dir / "ro", fs::perms::owner_all);
  EXPECT_TRUE(fs::is_empty(dir / "ro"));
}

// A full disk, simulated with a file size limit: write(2) fails with EFBIG (SIGXFSZ is
// ignored so the process survives). commit() must report it and remove the temporary.
TEST(AtomicFile, WriteFailureIsReportedByCommitAndLeavesNoFile) {
  TempDir dir;
  write_file(dir / "out.txt", "old\n");
  struct rlimit saved {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto* previous = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = saved;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string message;
  {
    AtomicFile out(dir / "out.txt");
    const std::string chunk(100000, 'z');
    out.stream() << chunk << chunk;
    try {
      out.commit();
    } catch (const Error& e) {
      message = e.what();
    }
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous);
  EXPECT_TRUE(starts_with(message, (dir / "out.txt").string() + ": cannot write")) << message;
  EXPECT_EQ(read_file(dir / "out.txt"), "old\n");
  EXPECT_EQ(dir.listing(), Names{"out.txt"});
}

TEST(AtomicFile, CommitOntoADirectoryFailsAndCleansUp) {
  TempDir dir;
  fs::create_directory(dir / "taken");
  AtomicFile out(dir / "taken");
  out.stream() << "x";
  EXPECT_THROW(out.commit(), Error);
  EXPECT_EQ(dir.listing(), Names{"taken"});
}

TEST(AtomicFile, CommitTwiceIsAnError) {
  TempDir dir;
  AtomicFile out(dir / "a");
  out.commit();
  EXPECT_THROW(out.commit(), Error);
  EXPECT_EQ(read_file(dir / "a"), "");
}

TEST(AtomicFile, IsMovable) {
  TempDir dir;
  AtomicFile a(dir / "a");
  a.stream() << "moved";
  AtomicFile b = std::move(a);
  b.commit();
  EXPECT_EQ(read_file(dir / "a"), "moved");
}

TEST(AtomicDirectory, CommitMovesTheDirectoryIntoPlace) {
  TempDir dir;
  AtomicDirectory out(dir / "txt");
  write_file(out.temp_path() / "a", "1");
  EXPECT_FALSE(fs::exists(dir / "txt"));
  out.commit();
  EXPECT_EQ(read_file(dir / "txt/a"), "1");
  EXPECT_EQ(dir.listing(), (Names{"txt", "txt/a"}));
}

TEST(AtomicDirectory, TrailingSlashNamesTheSameDirectory) {
  TempDir dir;
  AtomicDirectory out((dir / "txt").string() + "/");
  write_file(out.temp_path() / "a", "1");
  out.commit();
  EXPECT_EQ(dir.listing(), (Names{"txt", "txt/a"}));
}

TEST(AtomicDirectory, DestroyedWithoutCommitLeavesNothing) {
  TempDir dir;
  {
    AtomicDirectory out(dir / "txt");
    write_file(out.temp_path() / "a", "1");
    fs::create_directory(out.temp_path() / "sub");
    write_file(out.temp_path() / "sub/b", "2");
  }
  EXPECT_TRUE(dir.listing().empty());
}

TEST(AtomicDirectory, ReplacesAnEarlierOutputWhole) {
  TempDir dir;
  fs::create_directory(dir / "txt");
  write_file(dir / "txt/a", "old a");
  write_file(dir / "txt/b", "old b");
  {
    AtomicDirectory abandoned(dir / "txt");
    write_file(abandoned.temp_path() / "a", "half");
  }
  EXPECT_EQ(read_file(dir / "txt/a"), "old a") << "an abandoned write changes nothing";
  AtomicDirectory out(dir / "txt");
  write_file(out.temp_path() / "a", "new a");
  write_file(out.temp_path() / "b", "new b");
  out.commit();
  EXPECT_EQ(read_file(dir / "txt/a"), "new a");
  EXPECT_EQ(read_file(dir / "txt/b"), "new b");
  EXPECT_EQ(dir.listing(), (Names{"txt", "txt/a", "txt/b"}));
}

TEST(AtomicDirectory, ReplacesAnEmptyDirectory) {
  TempDir dir;
  fs::create_directory(dir / "txt");
  AtomicDirectory out(dir / "txt");
  write_file(out.temp_path() / "a", "1");
  out.commit();
  EXPECT_EQ(dir.listing(), (Names{"txt", "txt/a"}));
}

TEST(AtomicDirectory, RefusesToReplaceADirectoryHoldingOtherFiles) {
  TempDir dir;
  fs::create_directory(dir / "src");
  write_file(dir / "src/main.cpp", "precious");
  AtomicDirectory out(dir / "src");
  write_file(out.temp_path() / "matrix.txt", "+\n");
  try {
    out.commit();
    FAIL() << "expected dlfl::Error";
  } catch (const Error& e) {
    EXPECT_TRUE(starts_with(e.what(), (dir / "src").string() + ": refusing")) << e.what();
    EXPECT_NE(std::string(e.what()).find("main.cpp"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_file(dir / "src/main.cpp"), "precious");
  EXPECT_EQ(dir.listing(), (Names{"src", "src/main.cpp"}));
}

TEST(AtomicDirectory, RefusesToReplaceAFile) {
  TempDir dir;
  write_file(dir / "out", "a file");
  AtomicDirectory out(dir / "out");
  EXPECT_THROW(out.commit(), Error);
  EXPECT_EQ(read_file(dir / "out"), "a file");
  EXPECT_EQ(dir.listing(), Names{"out"});
}

TEST(AtomicDirectory, MissingParentIsAnError) {
  TempDir dir;
  EXPECT_THROW(AtomicDirectory(dir / "no/such/txt"), Error);
  EXPECT_TRUE(dir.listing().empty());
}

// Issue #14: SIGINT/SIGTERM while a temporary is open removed nothing (37 of 130 kill
// trials left `.NAME.tmp-PID-N`). A child opens an AtomicFile and an AtomicDirectory
// with a file inside, then receives the signal; the signal must still kill it.
TEST(AtomicFile, SignalsRemoveLiveTemporariesAndStillKill) {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    SCOPED_TRACE(sig);
    TempDir dir;
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      remove_temporaries_on_signals();
      AtomicFile file(dir / "out.csv");
      file.stream() << "partial";
      file.stream().flush();
      AtomicDirectory txt(dir / "txt");
      AtomicFile inner(txt.temp_path() / "matrix.txt");
      write_file(txt.temp_path() / "spectra.csv", "name\n");
      ::kill(::getpid(), sig);
      ::_exit(0);  // not reached
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
    EXPECT_EQ(dir.listing(), Names{});
  }
}

TEST(AtomicFile, StaleTemporariesOfDeadProcessesAreRemovedByTheNextWrite) {
  TempDir dir;
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ::waitpid(child, nullptr, 0);  // reaped: its pid is free
  const std::string dead = std::to_string(child), alive = std::to_string(::getpid());
  write_file(dir / (".out.csv.tmp-" + dead + "-7"), "half");
  write_file(dir / (".out.csv.tmp-" + alive + "-9999"), "ours, in use");
  write_file(dir / ".other.csv.tmp-1-0", "another target's");
  {
    AtomicFile out(dir / "out.csv");
    out.stream() << "whole";
    out.commit();
  }
  EXPECT_EQ(dir.listing(), (Names{".other.csv.tmp-1-0", ".out.csv.tmp-" + alive + "-9999", "out.csv"}));
  std::filesystem::create_directories(dir / (".txt.tmp-" + dead + "-0/sub"));
  write_file(dir / (".txt.tmp-" + dead + "-0/sub/x"), "x");
  AtomicDirectory txt(dir / "txt");
  txt.commit();
  EXPECT_EQ(dir.listing(), (Names{".other.csv.tmp-1-0", ".out.csv.tmp-" + alive + "-9999", "out.csv", "txt"}));
}

// The entries of `dir`, symlinks not followed (TempDir::listing resolves them).
Names names_in(const fs::path& dir) {
  Names names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A device, a FIFO or a symlink to one is written in place: a rename would replace it by
// a regular file (root may rename over /dev/null, and tests run as root in CI).
TEST(AtomicFile, DevicesAndFifosAreWrittenInPlaceNotReplaced) {
  TempDir dir;
  fs::create_symlink("/dev/null", dir / "null-link");
  {
    AtomicFile out(dir / "null-link");
    EXPECT_TRUE(out.temp_path().empty());
    out.stream() << "discarded\n";
    out.commit();
  }
  ASSERT_TRUE(fs::is_symlink(dir / "null-link")) << "replaced: /dev/null itself is not tried";
  EXPECT_EQ(names_in(dir.path()), Names{"null-link"});
  {
    AtomicFile out("/dev/null");
    out.stream() << "discarded\n";
    out.commit();
  }
  if (!fs::is_character_file("/dev/null")) {
    // Put the machine right before failing: every process on it writes there.
    ::mknod("/dev/.null-restored", S_IFCHR | 0666, ::makedev(1, 3));
    ::rename("/dev/.null-restored", "/dev/null");
    ADD_FAILURE() << "/dev/null was replaced by a regular file";
  }

  // A FIFO with a reader: what is written arrives through it, and it stays a FIFO.
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  const int reader = ::open((dir / "fifo").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  {
    AtomicFile out(dir / "fifo");
    out.stream() << "through the pipe\n";
    out.commit();
  }
  char buffer[64] = {};
  const ssize_t n = ::read(reader, buffer, sizeof buffer);
  ::close(reader);
  EXPECT_EQ(std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0), "through the pipe\n");
  EXPECT_TRUE(fs::is_fifo(dir / "fifo"));
  EXPECT_EQ(names_in(dir.path()), (Names{"fifo", "null-link"}));
}

// NAME_MAX is 255 bytes: the temporary `.NAME.tmp-PID-N` of a long NAME must still fit,
// and a killed writer's temporary of such a name must still be found and removed.
TEST(AtomicFile, NamesUpToNameMaxWorkAndTheirStaleTemporariesAreRemoved) {
  for (const std::size_t length : {245u, 255u}) {
    SCOPED_TRACE(length);
    TempDir dir;
    const std::string name = std::string(length - 4, 'n') + ".csv";
    {
      AtomicFile out(dir / name);
      EXPECT_LE(out.temp_path().filename().string().size(), 255u);
      out.stream() << "whole";
      out.commit();
    }
    EXPECT_EQ(read_file(dir / name), "whole");
    // A writer that dies without committing (as SIGKILL would: no destructor runs).
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      AtomicFile out(dir / name);
      out.stream() << "half";
      out.stream().flush();
      ::_exit(0);
    }
    ASSERT_EQ(::waitpid(child, nullptr, 0), child);
    ASSERT_EQ(dir.listing().size(), 2u) << "the dead writer's temporary";
    AtomicFile next(dir / name);
    next.stream() << "again";
    next.commit();
    EXPECT_EQ(dir.listing(), Names{name});
  }
  // Two long names alike in their first 240 bytes keep apart temporaries.
  TempDir dir;
  const std::string stem(240, 's');
  AtomicFile a(dir / (stem + "-a.csv")), b(dir / (stem + "-b.csv"));
  EXPECT_NE(a.temp_path().filename().string().substr(0, 230), b.temp_path().filename().string().substr(0, 230));
}

}  // namespace
}  // namespace dlfl::io
