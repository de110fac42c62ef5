// zend-async-ref pdo_sim: the mock driver's server state, shared by the
// PDO driver (mock_driver.cc) and the test API (mock_server.cc,
// pdo_sim/mock_driver.h).
//
// Threading: the engine's thread. Lifetime: the Server lives for the
// process (never destroyed: connections may outlive static destruction);
// connections and statements are allocated in the request (emalloc), so
// one nobody closed is reported by the request's leak check.

#ifndef ZAR_PDO_SIM_SRC_DRIVERS_MOCK_SERVER_H_
#define ZAR_PDO_SIM_SRC_DRIVERS_MOCK_SERVER_H_

#include <cstdint>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "pdo_sim/mock_driver.h"
#include "pdo_sim/src/drivers/mock_sql.h"

extern "C" {
#include "php.h"
}

namespace pdo_sim::mock::internal {

// A connection's driver_data.
struct MockConnection {
  Session session;
  Error last_error;
  bool emulate_prepares = true;
  // The connection broke while a transaction was open and the client has
  // not ended it yet: in_transaction() still says yes (the client cannot
  // know better, as with MySQL's last reported status), and commit() or
  // rollBack() reports the loss, which ends it.
  bool transaction_lost = false;
};

// A statement's driver_data: its SQL and, once executed, its result.
struct MockStatement {
  explicit MockStatement(std::string text) : sql(std::move(text)) {}
  std::string sql;
  Result result;
  size_t next_row = 0;
  size_t current_row = 0;
  Error last_error;
};

struct Server {
  std::map<std::string, Database> databases;  // by dbname
  NamedLocks locks;
  std::map<int64_t, MockConnection*> live;  // by CONNECTION_ID()
  std::set<int64_t> killed;                 // live ids killed server-side
  int64_t next_id = 1;
  Counters counters;
  // The script (see pdo_sim/mock_driver.h).
  uint32_t query_latency = 0;
  uint32_t connect_latency = 0;
  uint32_t txn_end_latency = 0;
  std::vector<std::pair<std::string, uint32_t>> latencies;
  std::vector<Failure> failures;
  std::vector<Failure> connect_failures;
  std::optional<std::pair<std::string, std::string>> credentials;
  std::vector<ConnectAttempt> connect_log;
};

Server& TheServer();

template <typename T, typename... Args>
T* NewInRequest(Args&&... args) {
  return new (emalloc(sizeof(T))) T(std::forward<Args>(args)...);
}

template <typename T>
void DeleteInRequest(T* object) {
  object->~T();
  efree(object);
}

}  // namespace pdo_sim::mock::internal

#endif  // ZAR_PDO_SIM_SRC_DRIVERS_MOCK_SERVER_H_
