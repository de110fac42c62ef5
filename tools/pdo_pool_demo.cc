// zend-async-pdo-demo: many coroutines doing real SQLite work through a
// small PDO connection pool, and what the pool did for them.
//
//   build/tools/zend-async-pdo-demo [coroutines=50] [max=4]
//
// One pooled Pdo\Sqlite handle (PDO::ATTR_POOL_MAX connections, a
// statement cache, a user function registered on the template) over a
// temporary SQLite file in WAL mode. Each coroutine runs one of three jobs
// and suspends in the middle of it, the way a request handler waits for
// some other I/O:
//   order   BEGIN, INSERT, wait, COMMIT       - its transaction pins the slot
//   report  prepare + execute, wait, fetch    - its live statement pins it
//   lookup  one query, wait                    - nothing pins it: the slot
//                                                goes back after the query
// Writers contend for SQLite's write lock; the driver waits for it on the
// reactor instead of blocking the thread.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/extension.h"
#include "mock_zend/callable.h"
#include "mock_zend/inspect.h"
#include "mock_zend/lifecycle.h"
#include "pdo_sim/client.h"
#include "pdo_sim/sqlite_driver.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"

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

// One coroutine's job.
void Job(Pdo& pdo, int id, zend_long max, Report& report) {
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
      Statement stmt = pdo.Prepare(
          "SELECT COUNT(*), cents_to_money(COALESCE(SUM(cents), 0)) "
          "FROM orders");
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
  const int coroutines = argc > 1 ? atoi(argv[1]) : 50;
  const zend_long max = argc > 2 ? atol(argv[2]) : 4;
  char dir_template[] = "/tmp/zend-async-pdo-demo-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) {
    perror("mkdtemp");
    return 1;
  }
  const std::string path = std::string(dir_template) + "/shop.db";

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
        Pdo setup = Pdo::Open("sqlite:" + path);
        setup.Exec("PRAGMA journal_mode = WAL");
        setup.Exec(
            "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, "
            "cents INTEGER)");
      }
      pdo_sim::sqlite::ResetStats();  // from here on: the pool's connections
      Pdo pdo = Pdo::Open("sqlite:" + path,
                          {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_EXCEPTION}},
                           {PDO_ATTR_POOL_ENABLED, true},
                           {PDO_ATTR_POOL_MAX, max},
                           {PDO_ATTR_POOL_STMT_CACHE_SIZE, 8}},
                          std::nullopt, std::nullopt, "Pdo\\Sqlite");
      if (!pdo.ok()) {
        zend_object* e = mock_zend::TakeException();
        fprintf(stderr, "%s\n", mock_zend::ExceptionMessage(e).c_str());
        OBJ_RELEASE(e);
        return;
      }
      // Registered on the template; every slot gets it.
      zval money;
      mock_zend::MakeCallable(&money, [](mock_zend::Call& call) {
        const zend_long cents = zval_get_long(call.arg(0));
        char text[32];
        snprintf(text, sizeof(text), "$%ld.%02ld",
                 static_cast<long>(cents / 100),
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

      int done = 0;
      for (int id = 1; id <= coroutines; id++) {
        Spawn([&, id] {
          Job(pdo, id, max, report);
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
      rows = static_cast<int>(Z_LVAL_P(row.at(0)));
      total_cents = Z_LVAL_P(row.at(1));
    });
    leaks = request.Finish();
  }
  const pdo_sim::sqlite::Stats stats = pdo_sim::sqlite::GetStats();
  std::error_code ignored;
  std::filesystem::remove_all(dir_template, ignored);

  printf(
      "PDO pool demo: %d coroutines, one SQLite file, "
      "PDO::ATTR_POOL_MAX = %ld\n\n",
      coroutines, static_cast<long>(max));
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
  printf(
      "  connections opened      %4lu  (never more than MAX; %lu closed "
      "with the PDO object)\n",
      static_cast<unsigned long>(stats.connections_opened),
      static_cast<unsigned long>(stats.connections_closed));
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
  printf(
      "  write-lock waits        %4lu  (SQLITE_BUSY, retried on the reactor)\n",
      static_cast<unsigned long>(stats.busy_waits));
  printf(
      "  statements prepared     %4lu  (%lu served from the slots' "
      "statement caches)\n",
      static_cast<unsigned long>(stats.prepares),
      static_cast<unsigned long>(stats.cache_hits));
  printf("  orders written          %4d  (%ld cents in total)\n", rows,
         static_cast<long>(total_cents));
  printf("  pool at the end         count=%ld idle=%ld active=%ld\n",
         static_cast<long>(end_state.count), static_cast<long>(end_state.idle),
         static_cast<long>(end_state.active));
  printf("  failures                %4d\n", report.failures);
  printf("  leaked blocks           %4zu\n", leaks.leaked_blocks);
  return report.failures == 0 && leaks.leaked_blocks == 0 ? 0 : 1;
}
