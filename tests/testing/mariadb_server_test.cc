// The private MariaDB server of the tests (testing/mariadb/mariadb_server.h):
// it starts, answers a query over its socket, and leaves nothing behind when
// stopped; when it cannot start it says what failed. Skipped when
// mariadb-server's programs are not installed.

#include "testing/mariadb/mariadb_server.h"

#include <gtest/gtest.h>
#include <mysql.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "zend_async_ref/testing/request_fixture.h"

namespace zar::testing::mariadb {
namespace {

using MariaDbServerTest = zar::testing::RequestFixture;

// The first column of `sql`'s first row through Connector/C (blocking), or
// "error <errno> <message>".
std::string QueryOne(const std::string& socket_path, const char* sql) {
  MYSQL* mysql = mysql_init(nullptr);
  std::string out;
  if (mysql_real_connect(mysql, nullptr, Server::kUser, nullptr,
                         Server::kDatabase, 0, socket_path.c_str(),
                         0) == nullptr ||
      mysql_query(mysql, sql) != 0) {
    out = "error " + std::to_string(mysql_errno(mysql)) + " " +
          mysql_error(mysql);
  } else if (MYSQL_RES* result = mysql_store_result(mysql)) {
    MYSQL_ROW row = mysql_fetch_row(result);
    out = row != nullptr && row[0] != nullptr ? row[0] : "(no row)";
    mysql_free_result(result);
  }
  mysql_close(mysql);
  return out;
}

TEST_F(MariaDbServerTest, StartsAnswersAQueryAndLeavesNothingWhenStopped) {
  const std::optional<Programs> programs = FindPrograms();
  if (!programs) GTEST_SKIP() << NotInstalledMessage();
  std::string error;
  std::unique_ptr<Server> server = Server::Start(*programs, {}, &error);
  ASSERT_NE(server, nullptr) << error;
  EXPECT_EQ(error, "");
  EXPECT_TRUE(server->running());
  const std::string directory = server->directory();
  EXPECT_EQ(server->socket_path(), directory + "/mysqld.sock");
  EXPECT_EQ(server->Dsn(),
            "mysql:unix_socket=" + directory + "/mysqld.sock;dbname=test");

  EXPECT_EQ(QueryOne(server->socket_path(), "SELECT 1"), "1");
  EXPECT_EQ(QueryOne(server->socket_path(), "SELECT DATABASE()"), "test");

  EXPECT_EQ(server->Stop(), "");
  EXPECT_FALSE(server->running());
  EXPECT_FALSE(std::filesystem::exists(directory));
  EXPECT_EQ(server->Stop(), "");  // idempotent
}

TEST_F(MariaDbServerTest, AServerThatCannotStartSaysWhatFailed) {
  const std::optional<Programs> programs = FindPrograms();
  if (!programs) GTEST_SKIP() << NotInstalledMessage();
  ServerOptions options;
  options.extra_server_args = {"--no-such-option"};
  std::string error;
  EXPECT_EQ(Server::Start(*programs, options, &error), nullptr);

  // The step, the command line, how it ended, the log's last lines (with
  // mariadbd's own complaint).
  EXPECT_EQ(error.rfind("MariaDB: the server exited before accepting a "
                        "connection\n  command: " +
                            programs->server + " --no-defaults ",
                        0),
            0u)
      << error;
  EXPECT_NE(error.find(" --no-such-option\n  exit status "), std::string::npos)
      << error;
  EXPECT_NE(error.find("/error.log:\n"), std::string::npos) << error;
  EXPECT_NE(error.find("unknown option '--no-such-option'"), std::string::npos)
      << error;

  // Its folder is gone.
  const size_t datadir = error.find("--datadir=");
  ASSERT_NE(datadir, std::string::npos) << error;
  const size_t end = error.find("/data ", datadir);
  ASSERT_NE(end, std::string::npos) << error;
  const std::string directory = error.substr(
      datadir + strlen("--datadir="), end - datadir - strlen("--datadir="));
  EXPECT_EQ(directory.rfind("/tmp/zar_mariadb_", 0), 0u) << directory;
  EXPECT_FALSE(std::filesystem::exists(directory)) << directory;
}

// The entries of folder `path` (none when it does not exist), by name.
std::vector<std::string> Entries(const std::string& path) {
  std::vector<std::string> names;
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator(path, ignored)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// A fresh folder for a data cache, removed with the object.
class TemporaryFolder {
 public:
  TemporaryFolder() {
    char pattern[] = "/tmp/zar_mariadb_cache_XXXXXX";
    path_ = mkdtemp(pattern) != nullptr ? pattern : "";
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The first server of a version initialises a data directory into the
// cache; the next copies it: one entry, named by the version.
TEST_F(MariaDbServerTest, ServersOfOneVersionShareOneInitialisedDataDirectory) {
  const std::optional<Programs> programs = FindPrograms();
  if (!programs) GTEST_SKIP() << NotInstalledMessage();
  TemporaryFolder cache;
  ASSERT_FALSE(cache.path().empty());
  ServerOptions options;
  options.data_cache = cache.path();
  std::string error;
  std::unique_ptr<Server> first = Server::Start(*programs, options, &error);
  ASSERT_NE(first, nullptr) << error;
  const std::vector<std::string> entries = Entries(cache.path());
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].find(".tmp-"), std::string::npos) << entries[0];
  EXPECT_TRUE(
      std::filesystem::exists(cache.path() + "/" + entries[0] + "/data/mysql"));
  std::unique_ptr<Server> second = Server::Start(*programs, options, &error);
  ASSERT_NE(second, nullptr) << error;
  EXPECT_EQ(Entries(cache.path()), entries);
  EXPECT_EQ(QueryOne(first->socket_path(), "SELECT 1"), "1");
  EXPECT_EQ(QueryOne(second->socket_path(), "SELECT DATABASE()"), "test");
  EXPECT_EQ(first->Stop(), "");
  EXPECT_EQ(second->Stop(), "");
}

TEST_F(MariaDbServerTest, WithoutACacheAServerInitialisesItsOwnDataDirectory) {
  const std::optional<Programs> programs = FindPrograms();
  if (!programs) GTEST_SKIP() << NotInstalledMessage();
  ServerOptions options;
  options.data_cache = "";
  std::string error;
  std::unique_ptr<Server> server = Server::Start(*programs, options, &error);
  ASSERT_NE(server, nullptr) << error;
  EXPECT_EQ(QueryOne(server->socket_path(), "SELECT 1"), "1");
  EXPECT_EQ(server->Stop(), "");
}

// An initialisation that fails is reported as before and leaves the cache
// without an entry.
TEST_F(MariaDbServerTest, AFailedInitialisationSaysWhatFailedAndCachesNothing) {
  std::optional<Programs> programs = FindPrograms();
  if (!programs) GTEST_SKIP() << NotInstalledMessage();
  programs->install_db = "/bin/false";
  TemporaryFolder cache;
  ServerOptions options;
  options.data_cache = cache.path();
  std::string error;
  EXPECT_EQ(Server::Start(*programs, options, &error), nullptr);
  EXPECT_EQ(error.rfind("MariaDB: initialising the data directory failed\n"
                        "  command: /bin/false --no-defaults ",
                        0),
            0u)
      << error;
  EXPECT_NE(error.find("\n  exit status 1\n"), std::string::npos) << error;
  EXPECT_EQ(Entries(cache.path()), std::vector<std::string>{});
}

}  // namespace
}  // namespace zar::testing::mariadb
