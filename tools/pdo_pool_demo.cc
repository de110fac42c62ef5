// zend-async-pdo-demo: many coroutines doing real database work through a
// small PDO connection pool, and what the pool did for them.
//
//   build/tools/zend-async-pdo-demo [coroutines=50] [max=4]
//   build/tools/zend-async-pdo-demo --mysql [coroutines=50] [max=4]
//   build/tools/zend-async-pdo-demo --mysql=DSN [coroutines=50] [max=4]
//
// One pooled PDO handle (PDO::ATTR_POOL_MAX connections, a statement
// cache) over a database of orders: by default a temporary SQLite file in
// WAL mode (Pdo\Sqlite, a user function registered on the template); with
// --mysql a private MariaDB server the demo starts and stops
// (testing/mariadb: mariadb-server installed, nothing else needed); with
// --mysql=DSN the server a pdo_mysql DSN names ("mysql:unix_socket=...;
// dbname=...;user=...;password=..."), where the demo makes (and replaces)
// a table "orders". Each coroutine runs one of three jobs and suspends in
// the middle of it, the way a request handler waits for some other I/O:
//   order   BEGIN, INSERT, wait, COMMIT       - its transaction pins the slot
//   report  prepare + execute, wait, fetch    - its live statement pins it
//   lookup  one query, wait                    - nothing pins it: the slot
//                                                goes back after the query
// On SQLite writers contend for the write lock, and the driver waits for
// it on the reactor; on MariaDB every query waits for the server on the
// reactor. Either way the thread never blocks.
//
// Exit status: 0, or 1 when a job failed or a block leaked; 77 when
// --mysql finds no mariadb-server to start (a test reads it as skipped).

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/extension.h"
#include "mock_zend/callable.h"
#include "mock_zend/inspect.h"
#include "mock_zend/lifecycle.h"
#include "pdo_sim/client.h"
#include "pdo_sim/sqlite_driver.h"
#include "testing/mariadb/mariadb_server.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"

#if defined(ZAR_PDO_MYSQL)
#include "pdo_sim/mysql_driver.h"
#endif

extern "C" {
#include "Zend/zend_async_API.h"
#include "ext/pdo/php_pdo.h"
}

namespace {

using pdo_sim::Pdo;
using pdo_sim::Statement;
using pdo_sim::Zval;
using zar::testing::Delay;
using zar::testing::Spawn;

// ---- What happened ----------------------------------------------------------

struct Report {
  int orders = 0;
  int reports = 0;
  int lookups = 0;
  int waited = 0;  // found every slot taken
  int failures = 0;
  int given_back = 0;  // the coroutine held no slot right after its job
  zend_long peak_active = 0;
  std::vector<std::string> timeline;  // the first events
};

struct PoolState {
  zend_long count, idle, active;
};

PoolState StateOf(Pdo& pdo) {
  Zval pool = pdo.GetPool();
  return {pdo_sim::CallMethod(pool.get(), "count").lval(),
          pdo_sim::CallMethod(pool.get(), "idleCount").lval(),
          pdo_sim::CallMethod(pool.get(), "activeCount").lval()};
}

void Note(Report& report, const std::string& event) {
  if (report.timeline.size() < 18) report.timeline.push_back(event);
}

std::string Name(int id) {
  char name[8];
  snprintf(name, sizeof(name), "c%02d", id);
  return name;
}

// ---- The database
// -------------------------------------------------------------

// Where the orders live and the SQL that differs between the two.
struct Database {
  bool sqlite = true;
  std::string dsn;
  std::optional<std::string> user;
  std::optional<std::string> password;
  const char* pdo_class = "PDO";
  // Makes an empty "orders" table (one statement each).
  std::vector<std::string> setup;
  // The report's query: the orders and their sum as money ("$12.34").
  std::string report;
  // The private server, with --mysql.
  std::unique_ptr<zar::testing::mariadb::Server> server;
};

Database Sqlite(const std::string& path) {
  Database db;
  db.dsn = "sqlite:" + path;
  db.pdo_class = "Pdo\\Sqlite";
  db.setup = {"PRAGMA journal_mode = WAL",
              "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, "
              "cents INTEGER)"};
  // cents_to_money: registered on the template, every slot gets it.
  db.report =
      "SELECT COUNT(*), cents_to_money(COALESCE(SUM(cents), 0)) FROM orders";
  return db;
}

Database Mysql(const std::string& dsn) {
  Database db;
  db.sqlite = false;
  db.dsn = dsn;
  db.setup = {"DROP TABLE IF EXISTS orders",
              "CREATE TABLE orders (id INT AUTO_INCREMENT PRIMARY KEY, "
              "customer VARCHAR(64), cents BIGINT) ENGINE=InnoDB"};
  db.report =
      "SELECT COUNT(*), CONCAT('$', CAST(COALESCE(SUM(cents), 0) / 100 AS "
      "DECIMAL(20, 2))) FROM orders";
  return db;
}

// Registers cents_to_money(cents) on a Pdo\Sqlite handle.
void RegisterMoney(Pdo& pdo) {
  zval money;
  mock_zend::MakeCallable(&money, [](mock_zend::Call& call) {
    const zend_long cents = zval_get_long(call.arg(0));
    char text[32];
    snprintf(text, sizeof(text), "$%ld.%02ld", static_cast<long>(cents / 100),
             static_cast<long>(cents % 100));
    ZVAL_STRING(call.result(), text);
  });
  zval name;
  ZVAL_STRING(&name, "cents_to_money");
  zval arity;
  ZVAL_LONG(&arity, 1);
  pdo_sim::CallMethod(pdo.zv(), "createFunction", {&name, &money, &arity});
  zval_ptr_dtor(&name);
  zval_ptr_dtor(&money);
}

// One coroutine's job.
void Job(Pdo& pdo, const Database& db, int id, zend_long max, Report& report) {
  const PoolState before = StateOf(pdo);
  const bool waits = before.idle == 0 && before.count == max;
  if (waits) report.waited++;
  const std::string who = Name(id);
  switch (id % 3) {
    case 0: {  // order
      pdo.BeginTransaction();
      Statement insert =
          pdo.Prepare("INSERT INTO orders (customer, cents) VALUES (?, ?)");
      insert.Execute({"customer-" + std::to_string(id), zend_long{100} * id});
      insert.Reset();
      Note(report, who + " order : " + (waits ? "waited, " : "") +
                       "BEGIN + INSERT, pinned by its transaction");
      Delay(3);
      pdo.Commit();
      Note(report, who + " order : COMMIT, slot given back");
      report.orders++;
      break;
    }
    case 1: {  // report
      Statement stmt = pdo.Prepare(db.report);
      stmt.Execute();
      Note(report, who + " report: " + (waits ? "waited, " : "") +
                       "statement open, pinned by it");
      Delay(2);
      Zval row = stmt.Fetch(PDO_FETCH_NUM);
      stmt.Reset();
      Note(report, who + " report: " + pdo_sim::Render(row.at(0)) +
                       " orders, " + Z_STRVAL_P(row.at(1)) +
                       "; statement freed, slot given back");
      report.reports++;
      break;
    }
    default: {  // lookup
      Statement stmt = pdo.Query("SELECT COUNT(*) FROM orders");
      const zend_long n = stmt.FetchColumn().lval();
      stmt.Reset();
      Note(report, who + " lookup: " + (waits ? "waited, " : "") + "saw " +
                       std::to_string(n) + " orders, slot given back at once");
      Delay(2);
      report.lookups++;
      break;
    }
  }
  // lastInsertId() only peeks at the coroutine's slot: false when it holds
  // none, i.e. the slot went back to the pool.
  if (EG(exception) == nullptr && pdo.LastInsertId().is_false()) {
    report.given_back++;
  }
  if (EG(exception) != nullptr) {
    report.failures++;
    zend_object* e = mock_zend::TakeException();
    fprintf(stderr, "%s failed: %s\n", who.c_str(),
            mock_zend::ExceptionMessage(e).c_str());
    OBJ_RELEASE(e);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<std::string> mysql;  // "" for a private server, or a DSN
  std::vector<const char*> numbers;
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg == "--mysql") {
      mysql = "";
    } else if (arg.rfind("--mysql=", 0) == 0) {
      mysql = arg.substr(8);
    } else {
      numbers.push_back(argv[i]);
    }
  }
  const int coroutines = numbers.size() > 0 ? atoi(numbers[0]) : 50;
  const zend_long max = numbers.size() > 1 ? atol(numbers[1]) : 4;

  char dir_template[] = "/tmp/zend-async-pdo-demo-XXXXXX";
  Database db;
  if (!mysql) {
    if (mkdtemp(dir_template) == nullptr) {
      perror("mkdtemp");
      return 1;
    }
    db = Sqlite(std::string(dir_template) + "/shop.db");
  } else {
#if defined(ZAR_PDO_MYSQL)
    if (mysql->empty()) {
      const auto programs = zar::testing::mariadb::FindPrograms();
      if (!programs) {
        fprintf(stderr, "%s\n",
                zar::testing::mariadb::NotInstalledMessage().c_str());
        return 77;
      }
      std::string error;
      auto server = zar::testing::mariadb::Server::Start(*programs, {}, &error);
      if (server == nullptr) {
        fprintf(stderr, "%s\n", error.c_str());
        return 1;
      }
      db = Mysql(server->Dsn());
      db.user = zar::testing::mariadb::Server::kUser;
      db.password = "";
      db.server = std::move(server);
    } else {
      db = Mysql(*mysql);
    }
#else
    fprintf(stderr,
            "--mysql: this build has no mysql driver (MariaDB Connector/C, "
            "libmariadb-dev, was not found)\n");
    return 77;
#endif
  }

  Report report;
  PoolState end_state{};
  int rows = 0;
  zend_long total_cents = 0;
  zend_mm_leak_info leaks{};
  {
    mock_zend::Engine engine({&zar_async_module_entry, &pdo_module_entry});
    mock_zend::Request request;
    request.RunMain([&] {
      {
        Pdo setup = Pdo::Open(
            db.dsn, {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_EXCEPTION}}},
            db.user, db.password);
        for (const std::string& sql : db.setup) {
          if (setup.ok()) setup.Exec(sql);
        }
      }
      if (EG(exception) != nullptr) {
        zend_object* e = mock_zend::TakeException();
        fprintf(stderr, "%s\n", mock_zend::ExceptionMessage(e).c_str());
        OBJ_RELEASE(e);
        report.failures++;
        return;
      }
      // From here on: the pool's connections.
      pdo_sim::sqlite::ResetStats();
#if defined(ZAR_PDO_MYSQL)
      pdo_sim::mysql::ResetStats();
#endif
      Pdo pdo = Pdo::Open(db.dsn,
                          {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_EXCEPTION}},
                           {PDO_ATTR_POOL_ENABLED, true},
                           {PDO_ATTR_POOL_MAX, max},
                           {PDO_ATTR_POOL_STMT_CACHE_SIZE, 8}},
                          db.user, db.password, db.pdo_class);
      if (!pdo.ok()) {
        zend_object* e = mock_zend::TakeException();
        fprintf(stderr, "%s\n", mock_zend::ExceptionMessage(e).c_str());
        OBJ_RELEASE(e);
        report.failures++;
        return;
      }
      if (db.sqlite) RegisterMoney(pdo);

      int done = 0;
      for (int id = 1; id <= coroutines; id++) {
        Spawn([&, id] {
          Job(pdo, db, id, max, report);
          const PoolState now = StateOf(pdo);
          if (now.active > report.peak_active) report.peak_active = now.active;
          done++;
        });
      }
      while (done < coroutines) {
        const PoolState now = StateOf(pdo);
        if (now.active > report.peak_active) report.peak_active = now.active;
        Delay(1);
      }
      end_state = StateOf(pdo);
      Statement totals = pdo.Query("SELECT COUNT(*), SUM(cents) FROM orders");
      Zval row = totals.Fetch(PDO_FETCH_NUM);
      rows = static_cast<int>(zval_get_long(row.at(0)));
      total_cents = zval_get_long(row.at(1));
    });
    leaks = request.Finish();
  }
  if (!mysql) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_template, ignored);
  }
  if (db.server != nullptr) {
    const std::string problem = db.server->Stop();
    if (!problem.empty()) fprintf(stderr, "%s\n", problem.c_str());
  }

  printf("PDO pool demo: %d coroutines, %s, PDO::ATTR_POOL_MAX = %ld\n\n",
         coroutines,
         db.sqlite              ? "one SQLite file"
         : db.server != nullptr ? "a private MariaDB server"
                                : "a MariaDB/MySQL server",
         static_cast<long>(max));
  printf("The first events:\n");
  for (const std::string& event : report.timeline) {
    printf("  %s\n", event.c_str());
  }
  printf("\n");
  printf("  %-8s %4d coroutines  kept their slot while waiting: transaction\n",
         "order", report.orders);
  printf(
      "  %-8s %4d coroutines  kept their slot while waiting: open statement\n",
      "report", report.reports);
  printf("  %-8s %4d coroutines  gave it back right after the query\n",
         "lookup", report.lookups);
  printf("\n");
  // The driver's counts: its connections, and lines of its own.
  uint64_t opened = 0;
  uint64_t closed = 0;
  std::vector<std::string> driver_lines;
  char line[160];
  if (db.sqlite) {
    const pdo_sim::sqlite::Stats stats = pdo_sim::sqlite::GetStats();
    opened = stats.connections_opened;
    closed = stats.connections_closed;
    snprintf(line, sizeof(line),
             "  write-lock waits        %4lu  (SQLITE_BUSY, retried on the "
             "reactor)",
             static_cast<unsigned long>(stats.busy_waits));
    driver_lines.emplace_back(line);
    snprintf(line, sizeof(line),
             "  statements prepared     %4lu  (%lu served from the slots' "
             "statement caches)",
             static_cast<unsigned long>(stats.prepares),
             static_cast<unsigned long>(stats.cache_hits));
    driver_lines.emplace_back(line);
  } else {
#if defined(ZAR_PDO_MYSQL)
    const pdo_sim::mysql::Stats stats = pdo_sim::mysql::GetStats();
    opened = stats.connections_opened;
    closed = stats.connections_closed;
    snprintf(line, sizeof(line),
             "  waits for the server    %4lu  (a query in flight, its "
             "coroutine parked on the reactor)",
             static_cast<unsigned long>(stats.socket_waits));
    driver_lines.emplace_back(line);
    snprintf(line, sizeof(line),
             "  sessions reset          %4lu  (a slot left dirty, reset "
             "before reuse)",
             static_cast<unsigned long>(stats.resets));
    driver_lines.emplace_back(line);
#endif
  }
  printf(
      "  connections opened      %4lu  (never more than MAX; %lu closed "
      "with the PDO object)\n",
      static_cast<unsigned long>(opened), static_cast<unsigned long>(closed));
  printf("  peak slots in use       %4ld\n",
         static_cast<long>(report.peak_active));
  printf(
      "  coroutines that waited  %4d  (every slot was taken when they "
      "started)\n",
      report.waited);
  printf(
      "  slots given back        %4d  (right after COMMIT, the statement's "
      "end, or the query)\n",
      report.given_back);
  for (const std::string& driver_line : driver_lines) {
    printf("%s\n", driver_line.c_str());
  }
  printf("  orders written          %4d  (%ld cents in total)\n", rows,
         static_cast<long>(total_cents));
  printf("  pool at the end         count=%ld idle=%ld active=%ld\n",
         static_cast<long>(end_state.count), static_cast<long>(end_state.idle),
         static_cast<long>(end_state.active));
  printf("  failures                %4d\n", report.failures);
  printf("  leaked blocks           %4zu\n", leaks.leaked_blocks);
  return report.failures == 0 && leaks.leaked_blocks == 0 ? 0 : 1;
}
