// zend-async-ref testing: a private MariaDB server (mariadb_server.h).

#include "testing/mariadb/mariadb_server.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

namespace zar::testing::mariadb {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kFixedDirs[] = {"/usr/sbin", "/usr/local/sbin",
                                      "/usr/libexec", "/usr/local/mysql/bin"};
// How many lines of a log a failure shows.
constexpr int kTailLines = 20;
// Small buffers (each test process starts its own server) and no fsync
// (the data is thrown away with the folder); the initialisation gets them
// too.
constexpr const char* kInnodbArgs[] = {
    "--innodb-buffer-pool-size=16M", "--innodb-log-file-size=4M",
    "--innodb-flush-method=nosync", "--innodb-flush-log-at-trx-commit=0",
    "--innodb-doublewrite=0"};

// The first executable `name` on PATH or in kFixedDirs, or "".
std::string FindProgram(const char* name) {
  std::vector<std::string> dirs;
  if (const char* path = getenv("PATH")) {
    std::stringstream in(path);
    for (std::string dir; std::getline(in, dir, ':');) {
      if (!dir.empty()) dirs.push_back(dir);
    }
  }
  for (const char* dir : kFixedDirs) dirs.emplace_back(dir);
  for (const std::string& dir : dirs) {
    const std::string candidate = dir + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

std::string FindFirst(std::initializer_list<const char*> names) {
  for (const char* name : names) {
    std::string found = FindProgram(name);
    if (!found.empty()) return found;
  }
  return "";
}

std::string CommandLine(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& arg : argv) {
    if (!out.empty()) out += ' ';
    out += arg;
  }
  return out;
}

// The last kTailLines lines of `path`, each indented, or "" when it is
// missing or empty.
std::string Tail(const std::string& path) {
  std::ifstream in(path);
  std::deque<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
    if (lines.size() > kTailLines) lines.pop_front();
  }
  if (lines.empty()) return "";
  std::string out = "  last lines of " + path + ":\n";
  for (const std::string& line : lines) out += "    " + line + "\n";
  return out;
}

std::string DescribeStatus(int status) {
  if (WIFEXITED(status)) {
    return "exit status " + std::to_string(WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status)) {
    return "killed by signal " + std::to_string(WTERMSIG(status));
  }
  return "wait status " + std::to_string(status);
}

// Runs argv[0] with stdin from /dev/null and stdout and stderr into `log`,
// in a process group of its own that dies with this process. The child's
// pid, or -1 with errno.
pid_t Spawn(const std::vector<std::string>& argv, const std::string& log) {
  std::vector<char*> args;
  for (const std::string& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid != 0) {
    if (pid > 0) setpgid(pid, pid);
    return pid;
  }
  // The child: only async-signal-safe calls until exec.
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the parent died already
  const int in = open("/dev/null", O_RDONLY);
  const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (in < 0 || out < 0) _exit(127);
  dup2(in, 0);
  dup2(out, 1);
  dup2(out, 2);
  execv(args[0], args.data());
  _exit(127);
}

// waitpid without blocking: true (and *status) once `pid` has ended.
bool Reaped(pid_t pid, int* status) {
  pid_t r;
  do {
    r = waitpid(pid, status, WNOHANG);
  } while (r < 0 && errno == EINTR);
  return r == pid;
}

// Waits for `pid` until `deadline`; true (and *status) when it ended.
bool WaitUntil(pid_t pid, Clock::time_point deadline, int* status) {
  while (!Reaped(pid, status)) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// Kills the process group of `pid` and reaps `pid`.
void KillGroup(pid_t pid) {
  kill(-pid, SIGKILL);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

// Whether the server answers a connection to `socket_path` with its
// greeting (a handshake packet, or an error packet: either way it is up).
bool Greets(const std::string& socket_path) {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_un addr = {};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, socket_path.c_str(), sizeof(addr.sun_path) - 1);
  bool up = false;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    pollfd p = {fd, POLLIN, 0};
    unsigned char packet[5];
    size_t got = 0;
    while (got < sizeof(packet) && poll(&p, 1, 1000) == 1) {
      const ssize_t n = read(fd, packet + got, sizeof(packet) - got);
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    // A 4-byte header, then protocol version 10 or an error packet (0xff).
    up = got == sizeof(packet) && (packet[4] == 10 || packet[4] == 0xff);
  }
  close(fd);
  return up;
}

std::string Failure(const std::string& what,
                    const std::vector<std::string>& argv,
                    const std::string& how,
                    const std::vector<std::string>& logs) {
  std::string out = "MariaDB: " + what + "\n  command: " + CommandLine(argv) +
                    "\n  " + how + "\n";
  for (const std::string& log : logs) out += Tail(log);
  return out;
}

// Runs `argv` to its end (at most options.start_timeout), its output into
// `log`; `what` names the step in a failure.
bool RunToEnd(const std::vector<std::string>& argv, const std::string& log,
              const std::string& what, const ServerOptions& options,
              std::string* error) {
  const pid_t pid = Spawn(argv, log);
  if (pid < 0) {
    *error = Failure(what, argv, std::string("fork: ") + strerror(errno), {});
    return false;
  }
  int status = 0;
  if (!WaitUntil(pid, Clock::now() + options.start_timeout, &status)) {
    KillGroup(pid);
    *error = Failure(what, argv,
                     "still running after " +
                         std::to_string(options.start_timeout.count()) +
                         " s: killed",
                     {log});
    return false;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    *error = Failure(what, argv, DescribeStatus(status), {log});
    return false;
  }
  return true;
}

// mariadb-install-db's command line for the data directory `datadir`.
std::vector<std::string> InstallCommand(const Programs& programs,
                                        const std::string& datadir) {
  std::vector<std::string> argv = {programs.install_db, "--no-defaults",
                                   "--auth-root-authentication-method=normal",
                                   "--datadir=" + datadir, "--skip-test-db"};
  if (geteuid() == 0) argv.emplace_back("--user=root");
  for (const char* arg : kInnodbArgs) argv.emplace_back(arg);
  return argv;
}

// Initialises the data directory <dir>/data, its log in <dir>.
bool InitialiseDataDirectory(const Programs& programs, const std::string& dir,
                             const ServerOptions& options, std::string* error) {
  return RunToEnd(InstallCommand(programs, dir + "/data"), dir + "/install.log",
                  "initialising the data directory failed", options, error);
}

// The cache's name for what InitialiseDataDirectory makes with this server:
// its version ("10.11.19-MariaDB-0+deb12u1", from mariadbd --version) and a
// hash of the initialisation's options, so that a new server or new options
// initialise again. "" with *error set when mariadbd cannot say.
std::string CacheKey(const Programs& programs, const std::string& dir,
                     const ServerOptions& options, std::string* error) {
  const std::string out = dir + "/version.out";
  if (!RunToEnd({programs.server, "--version"}, out,
                "asking the server for its version failed", options, error)) {
    return "";
  }
  std::ifstream in(out);
  std::string word;
  std::string version;
  while (in >> word) {
    if (word == "Ver" && in >> version) break;
  }
  std::filesystem::remove(out);
  if (version.empty()) {
    *error =
        Failure("the server's version was not understood",
                {programs.server, "--version"}, "no \"Ver <version>\"", {});
    return "";
  }
  for (char& c : version) {
    if (!isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' &&
        c != '+' && c != '_') {
      c = '_';
    }
  }
  std::string initialisation;
  for (const std::string& arg : InstallCommand(programs, "")) {
    initialisation += arg + '\n';
  }
  char hash[17];
  snprintf(hash, sizeof(hash), "%016zx",
           std::hash<std::string>{}(initialisation));
  return version + "-" + hash;
}

// Fills <dir>/data: a copy of the cache's data directory for this server
// (initialised first when the cache has none), or, without a usable cache,
// one initialised in place.
bool PrepareDataDirectory(const Programs& programs, const std::string& dir,
                          const ServerOptions& options, std::string* error) {
  std::error_code ec;
  if (!options.data_cache.empty()) {
    std::filesystem::create_directories(options.data_cache, ec);
  }
  if (options.data_cache.empty() || ec) {
    return InitialiseDataDirectory(programs, dir, options, error);
  }
  const std::string key = CacheKey(programs, dir, options, error);
  if (key.empty()) return false;
  const std::string cached = options.data_cache + "/" + key;
  if (!std::filesystem::exists(cached + "/data")) {
    std::string pattern = cached + ".tmp-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      return InitialiseDataDirectory(programs, dir, options, error);
    }
    const bool made =
        InitialiseDataDirectory(programs, pattern, options, error);
    // The first one renamed into place wins; a later one finds it there.
    if (!made || rename(pattern.c_str(), cached.c_str()) != 0) {
      std::filesystem::remove_all(pattern, ec);
    }
    if (!made) return false;
  }
  std::filesystem::copy(cached + "/data", dir + "/data",
                        std::filesystem::copy_options::recursive, ec);
  if (ec) {
    *error = "MariaDB: copying the initialised data directory " + cached +
             "/data to " + dir + "/data failed: " + ec.message() + "\n";
    return false;
  }
  return true;
}

}  // namespace

std::optional<Programs> FindPrograms() {
  Programs programs{FindFirst({"mariadb-install-db", "mysql_install_db"}),
                    FindFirst({"mariadbd", "mysqld"})};
  if (programs.install_db.empty() || programs.server.empty()) {
    return std::nullopt;
  }
  return programs;
}

std::string DefaultDataCache() {
  if (const char* cache = getenv("ZAR_MARIADB_DATA_CACHE")) return cache;
  return ZAR_MARIADB_DATA_CACHE_DEFAULT;
}

std::string NotInstalledMessage() {
  std::string where = "PATH";
  for (const char* dir : kFixedDirs) where += std::string(", ") + dir;
  return "no MariaDB server: mariadbd (or mysqld) and mariadb-install-db (or "
         "mysql_install_db) were not found on " +
         where + "; install Debian's mariadb-server (tools/setup.sh does)";
}

Server::Server(std::string directory, pid_t pid)
    : directory_(std::move(directory)),
      socket_path_(directory_ + "/mysqld.sock"),
      pid_(pid) {}

Server::~Server() { Stop(); }

std::unique_ptr<Server> Server::Start(const Programs& programs,
                                      const ServerOptions& options,
                                      std::string* error) {
  char pattern[] = "/tmp/zar_mariadb_XXXXXX";
  if (mkdtemp(pattern) == nullptr) {
    *error = std::string("MariaDB: no temporary folder: ") + strerror(errno);
    return nullptr;
  }
  const std::string dir = pattern;
  auto remove_folder = [&dir]() -> std::unique_ptr<Server> {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    return nullptr;
  };
  if (!PrepareDataDirectory(programs, dir, options, error)) {
    return remove_folder();
  }
  std::ofstream(dir + "/init.sql")
      << "CREATE DATABASE IF NOT EXISTS " << kDatabase << ";\n";

  std::vector<std::string> argv = {programs.server, "--no-defaults"};
  if (geteuid() == 0) argv.emplace_back("--user=root");
  for (const std::string& arg :
       {"--datadir=" + dir + "/data", "--socket=" + dir + "/mysqld.sock",
        "--pid-file=" + dir + "/mysqld.pid",
        "--log-error=" + dir + "/error.log", std::string("--skip-networking"),
        "--init-file=" + dir + "/init.sql"}) {
    argv.push_back(arg);
  }
  for (const char* arg : kInnodbArgs) argv.emplace_back(arg);
  for (const std::string& arg : options.extra_server_args) argv.push_back(arg);
  const std::vector<std::string> logs = {dir + "/error.log",
                                         dir + "/server.out"};

  const pid_t pid = Spawn(argv, dir + "/server.out");
  if (pid < 0) {
    *error = Failure("the server did not start", argv,
                     std::string("fork: ") + strerror(errno), {});
    return remove_folder();
  }
  std::unique_ptr<Server> server(new Server(dir, pid));
  const Clock::time_point deadline = Clock::now() + options.start_timeout;
  for (;;) {
    int status = 0;
    if (Reaped(pid, &status)) {
      server->pid_ = 0;
      *error = Failure("the server exited before accepting a connection", argv,
                       DescribeStatus(status), logs);
      server->Stop();
      return nullptr;
    }
    if (Greets(server->socket_path_)) return server;
    if (Clock::now() >= deadline) {
      KillGroup(pid);
      server->pid_ = 0;
      *error = Failure("the server did not accept a connection", argv,
                       "still running after " +
                           std::to_string(options.start_timeout.count()) +
                           " s: killed",
                       logs);
      server->Stop();
      return nullptr;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::string Server::Stop() {
  std::string problem;
  if (pid_ > 0) {
    const pid_t pid = pid_;
    pid_ = 0;
    kill(pid, SIGTERM);
    int status = 0;
    if (!WaitUntil(pid, Clock::now() + std::chrono::seconds(30), &status)) {
      KillGroup(pid);
      problem =
          "MariaDB: the server did not stop within 30 s of SIGTERM: "
          "killed\n";
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      problem = "MariaDB: the server stopped with " + DescribeStatus(status) +
                "\n" + Tail(directory_ + "/error.log");
    }
    // Whatever the server left running in its group goes with it.
    kill(-pid, SIGKILL);
  }
  if (!directory_.empty()) {
    std::error_code error;
    std::filesystem::remove_all(directory_, error);
    if (error) {
      problem += "MariaDB: could not remove " + directory_ + ": " +
                 error.message() + "\n";
    }
    directory_.clear();
  }
  return problem;
}

std::string Server::Dsn(const std::string& database) const {
  return "mysql:unix_socket=" + socket_path_ + ";dbname=" + database;
}

}  // namespace zar::testing::mariadb
