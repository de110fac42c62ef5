// zend-async-ref pdo_sim: the mock driver's test API
// (pdo_sim/mock_driver.h) over its server state (mock_server.h).

#include "pdo_sim/src/drivers/mock_server.h"

#include "pdo_sim/src/drivers/mock_sql_parse.h"

namespace pdo_sim::mock {

using internal::Server;
using internal::TheServer;
using internal::Value;

namespace internal {

Server& TheServer() {
  static Server* server = new Server;
  return *server;
}

}  // namespace internal

void Reset() {
  Server& server = TheServer();
  server.databases.clear();
  server.locks.clear();
  if (server.live.empty()) server.next_id = 1;
  server.counters = Counters{};
  server.query_latency = 0;
  server.connect_latency = 0;
  server.txn_end_latency = 0;
  server.latencies.clear();
  server.failures.clear();
  server.connect_failures.clear();
  server.credentials.reset();
  server.connect_log.clear();
}

Counters GetCounters() { return TheServer().counters; }

uint32_t LiveConnections() {
  return static_cast<uint32_t>(TheServer().live.size());
}

std::vector<int64_t> LiveConnectionIds() {
  std::vector<int64_t> ids;
  for (const auto& [id, conn] : TheServer().live) ids.push_back(id);
  return ids;
}

std::vector<ConnectAttempt> ConnectLog() { return TheServer().connect_log; }

void SetQueryLatency(uint32_t ms) { TheServer().query_latency = ms; }
void SetLatency(const std::string& pattern, uint32_t ms) {
  TheServer().latencies.emplace_back(pattern, ms);
}
void SetConnectLatency(uint32_t ms) { TheServer().connect_latency = ms; }
void SetTransactionEndLatency(uint32_t ms) { TheServer().txn_end_latency = ms; }

void InjectFailure(const Failure& failure) {
  TheServer().failures.push_back(failure);
}
void FailConnect(const Failure& failure) {
  TheServer().connect_failures.push_back(failure);
}
void RequireCredentials(const std::string& username,
                        const std::string& password) {
  TheServer().credentials = std::make_pair(username, password);
}

bool KillConnection(int64_t connection_id) {
  Server& server = TheServer();
  auto it = server.live.find(connection_id);
  if (it == server.live.end()) return false;
  server.killed.insert(connection_id);
  // The server drops its work; the client still believes its transaction
  // open until it next speaks to the server.
  if (it->second->session.in_transaction) it->second->transaction_lost = true;
  internal::Rollback(it->second->session);
  return true;
}

std::optional<int64_t> LockHolder(const std::string& name) {
  const internal::NamedLocks& locks = TheServer().locks;
  auto it = locks.find(name);
  if (it == locks.end()) return std::nullopt;
  return it->second;
}

std::vector<std::vector<std::string>> CommittedRows(const std::string& database,
                                                    const std::string& table) {
  std::vector<std::vector<std::string>> out;
  Server& server = TheServer();
  auto db = server.databases.find(database);
  if (db == server.databases.end()) return out;
  auto t = db->second.tables.find(internal::Lower(table));
  if (t == db->second.tables.end()) return out;
  for (const internal::Row& row : t->second.rows) {
    std::vector<std::string> values;
    for (const Value& value : row.values) {
      if (const auto* i = std::get_if<int64_t>(&value)) {
        values.push_back(std::to_string(*i));
      } else if (const auto* s = std::get_if<std::string>(&value)) {
        values.push_back(*s);
      } else if (const auto* d = std::get_if<double>(&value)) {
        values.push_back(std::to_string(*d));
      } else {
        values.push_back("NULL");
      }
    }
    out.push_back(std::move(values));
  }
  return out;
}

}  // namespace pdo_sim::mock
