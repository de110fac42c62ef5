// zend-async-ref testing: a private MariaDB server for tests, tools and the
// demo, started from mariadb-server's programs and gone when stopped.
//
//   std::string error;
//   std::optional<Programs> programs = FindPrograms();     // not installed?
//   std::unique_ptr<Server> server = Server::Start(*programs, {}, &error);
//   ... new PDO(server->Dsn(), "root", "") ...
//   server->Stop();                                         // or ~Server()
//
// Start() makes a fresh folder /tmp/zar_mariadb_XXXXXX with a data
// directory in it: a copy of the one kept in ServerOptions::data_cache for
// this server's version, which the first server of that version
// initialises (mariadb-install-db --no-defaults, root without a password,
// no test database; the tests' build tree keeps it); without a cache, one
// initialised for this server alone. It runs mariadbd in the foreground with
// --no-defaults, no network (--skip-networking: the Unix socket
// <folder>/mysqld.sock only), its pid and error log in the folder, small
// InnoDB buffers, no fsync at all (the data is thrown away with the
// folder), and a database "test" made at startup (--init-file). It returns
// once the socket answers a connection with the server's greeting, or when
// 30 s (ServerOptions::start_timeout) passed. Users: root over the socket,
// no password (KILL and every grant work, as the PDO pool's tests need).
//
// When a step fails, Start() returns null and *error says what failed, in
// this order: the step, the command line, how it ended ("exit status 7",
// "killed by signal 9", "still running after 30 s: killed") and the last
// lines of its log; the folder is removed.
//
// Stop(): SIGTERM to the server and a wait for it (30 s, then SIGKILL),
// then the folder is removed. The server also dies with the thread that
// started it (PR_SET_PDEATHSIG), so a crashed test leaves no server behind
// (its folder stays in /tmp).
//
// Threading: any one thread; a Server is not shared between threads.

#ifndef ZAR_TESTING_MARIADB_MARIADB_SERVER_H_
#define ZAR_TESTING_MARIADB_MARIADB_SERVER_H_

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace zar::testing::mariadb {

// The programs of mariadb-server (or MySQL's older names).
struct Programs {
  std::string install_db;  // mariadb-install-db, mysql_install_db
  std::string server;      // mariadbd, mysqld
};

// Looks for them on PATH, then in /usr/sbin, /usr/local/sbin,
// /usr/libexec and /usr/local/mysql/bin. nullopt when either is missing.
std::optional<Programs> FindPrograms();

// What FindPrograms() looked for and where, for a message saying why the
// tests that need a server are skipped.
std::string NotInstalledMessage();

// ServerOptions::data_cache's default.
std::string DefaultDataCache();

struct ServerOptions {
  // Appended to mariadbd's command line (the data directory's
  // initialisation gets none of them).
  std::vector<std::string> extra_server_args;
  // How long the initialisation, and then the server's startup, may take.
  std::chrono::seconds start_timeout{30};
  // Where initialised data directories are kept, one per server version
  // and initialisation, for every later server to copy (initialising one
  // takes seconds, copying it milliseconds). Several processes may share
  // it: each initialises into a folder of its own and renames it into
  // place, the first one in wins. "" initialises one per server. The
  // default: $ZAR_MARIADB_DATA_CACHE when set (even to ""), else the build
  // tree's testing/mariadb/data-cache.
  std::string data_cache = DefaultDataCache();
};

class Server {
 public:
  // The database Start() makes, and the user the tests connect as.
  static constexpr const char* kDatabase = "test";
  static constexpr const char* kUser = "root";

  // Starts a private server; null with *error set when it does not come up.
  static std::unique_ptr<Server> Start(const Programs& programs,
                                       const ServerOptions& options,
                                       std::string* error);

  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;
  // Stop(), its result dropped.
  ~Server();

  // Shuts the server down and removes its folder. "" on success, else what
  // went wrong (the folder is removed either way). Idempotent.
  std::string Stop();

  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  // The temporary folder (data directory, socket, logs).
  const std::string& directory() const { return directory_; }
  const std::string& socket_path() const { return socket_path_; }
  // "mysql:unix_socket=<socket>;dbname=<database>".
  std::string Dsn(const std::string& database = kDatabase) const;

 private:
  Server(std::string directory, pid_t pid);

  std::string directory_;
  std::string socket_path_;
  pid_t pid_;
};

}  // namespace zar::testing::mariadb

#endif  // ZAR_TESTING_MARIADB_MARIADB_SERVER_H_
