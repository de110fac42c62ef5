// fuzz_sql: the mock driver's SQL (pdo_sim/src/drivers/mock_sql*.cc: the
// tokenizer, the parser and the executor) and PDO's placeholder scanner
// (pdo_sim/src/pdo/pdo_sql_parser.c), which checks execute()'s parameters
// against the statement's '?' and ':name' placeholders.
//
// Input: a flag byte, a parameter byte, then statements separated by NUL
// bytes (each may itself hold several ';'-separated statements).
//
//   flags bit 0     the statements also run through PDO (prepare + execute
//                   + fetchAll, and PDO::exec) on a mock connection
//         bit 1     PDO::ERRMODE_SILENT (else exceptions)
//         bits 2-3  execute()'s parameters: none, positional, named, both
//         bit 4     PDO::ATTR_EMULATE_PREPARES
//         bit 5     PDO::ATTR_POOL_ENABLED
//   params          bits 0-2: how many; bits 3-7 pick their values
//
// Directly (no engine), statement i runs in session i % 2 of one database:
// an error always carries a five-character SQLSTATE and a message, a
// result row always has as many values as the result has columns, and
// once both sessions are reset no named lock is left. Through PDO: every
// call ends in a result or an exception, never a crash or a leak.
// Statements that mention SLEEP run only directly (through PDO they would
// really sleep).

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pdo_sim/client.h"
#include "pdo_sim/mock_driver.h"
#include "pdo_sim/src/drivers/mock_sql.h"
#include "tools/fuzz/fuzz_support.h"
#include "zend_async_ref/testing/exceptions.h"

namespace {

constexpr const char* kTarget = "fuzz_sql";

namespace sql = pdo_sim::mock::internal;

const pdo_sim::Param kValues[] = {
    zend_long{1}, zend_long{-7}, "a", "", nullptr, 2.5, "1 + 1", "O'Reilly"};
const char* const kNames[] = {"id", "name", "v", "a_1", "x"};

void CheckResult(const sql::Result& result, std::string_view statement) {
  if (!result.ok) {
    ZAR_FUZZ_CHECK(result.error.sqlstate.size() == 5,
                   "SQLSTATE '%s' for '%.*s'", result.error.sqlstate.c_str(),
                   static_cast<int>(statement.size()), statement.data());
    ZAR_FUZZ_CHECK(!result.error.message.empty(), "an error without a message");
    return;
  }
  for (const std::vector<sql::Value>& row : result.rows) {
    ZAR_FUZZ_CHECK(row.size() == result.columns.size(),
                   "a row of %zu values under %zu columns for '%.*s'",
                   row.size(), result.columns.size(),
                   static_cast<int>(statement.size()), statement.data());
  }
}

void RunDirectly(const std::vector<std::string_view>& statements,
                 const sql::Params& params) {
  sql::Database db;
  sql::NamedLocks locks;
  sql::Session sessions[2];
  for (int i = 0; i < 2; i++) {
    sessions[i].id = i + 1;
    sessions[i].database = sessions[i].default_database = "fuzz";
  }
  for (size_t i = 0; i < statements.size(); i++) {
    CheckResult(sql::Execute(db, locks, sessions[i % 2], statements[i], params),
                statements[i]);
  }
  sql::Commit(db, sessions[0]);
  sql::Rollback(sessions[1]);
  for (sql::Session& session : sessions) sql::ResetSession(locks, session);
  ZAR_FUZZ_CHECK(locks.empty(), "%zu named locks outlive their sessions",
                 locks.size());
}

bool MentionsSleep(std::string_view statement) {
  std::string lower(statement);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return lower.find("sleep") != std::string::npos;
}

void RunThroughPdo(
    uint8_t flags, const std::vector<std::string_view>& statements,
    const std::vector<pdo_sim::Param>& positional,
    const std::vector<std::pair<std::string, pdo_sim::Param>>& named) {
  pdo_sim::Options attributes = {
      {PDO_ATTR_ERRMODE,
       zend_long{(flags & 0x02) ? PDO_ERRMODE_SILENT : PDO_ERRMODE_EXCEPTION}},
      {PDO_ATTR_EMULATE_PREPARES, (flags & 0x10) != 0}};
  if (flags & 0x20) {
    attributes.push_back({PDO_ATTR_POOL_ENABLED, true});
    attributes.push_back({PDO_ATTR_POOL_MAX, zend_long{2}});
  }
  pdo_sim::Pdo pdo = pdo_sim::Pdo::Open("mock:dbname=fuzz", attributes);
  ZAR_FUZZ_CHECK(pdo.ok(), "new PDO failed: %s",
                 zar::testing::TakeExceptionText().c_str());
  const int mode = (flags >> 2) & 3;
  for (size_t i = 0; i < statements.size(); i++) {
    const std::string statement(statements[i]);
    if (MentionsSleep(statement)) continue;
    if (i % 2 == 1) {
      pdo.Exec(statement);
      zar::testing::DropException();
      continue;
    }
    pdo_sim::Statement prepared = pdo.Prepare(statement);
    zar::testing::DropException();
    if (!prepared.ok()) continue;
    switch (mode) {
      case 0:
        prepared.Execute();
        break;
      case 1:
        prepared.Execute(positional);
        break;
      case 2:
        prepared.ExecuteNamed(named);
        break;
      default: {
        // Both kinds in one array: ':name' keys and 0, 1, ... .
        std::vector<std::pair<std::string, pdo_sim::Param>> both = named;
        for (size_t k = 0; k < positional.size(); k++) {
          both.emplace_back(std::to_string(k), positional[k]);
        }
        prepared.ExecuteNamed(both);
        break;
      }
    }
    zar::testing::DropException();
    prepared.FetchAll();
    zar::testing::DropException();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  zar::fuzz::Input in(data, size);
  const uint8_t flags = in.Byte();
  const uint8_t param_byte = in.Byte();
  std::vector<std::string_view> statements;
  while (!in.empty()) statements.push_back(in.Until('\0'));

  sql::Params params;
  std::vector<pdo_sim::Param> positional;
  std::vector<std::pair<std::string, pdo_sim::Param>> named;
  const size_t count = param_byte & 7;
  for (size_t k = 0; k < count; k++) {
    const pdo_sim::Param& value =
        kValues[((param_byte >> 3) + k) % std::size(kValues)];
    positional.push_back(value);
    named.emplace_back(kNames[k % std::size(kNames)], value);
    sql::Value direct;
    if (const auto* l = std::get_if<zend_long>(&value)) {
      direct = int64_t{*l};
    } else if (const auto* d = std::get_if<double>(&value)) {
      direct = *d;
    } else if (const auto* s = std::get_if<const char*>(&value)) {
      direct = std::string(*s);
    }
    params.positional.push_back(direct);
    params.named[kNames[k % std::size(kNames)]] = direct;
  }

  RunDirectly(statements, params);
  if (flags & 0x01) {
    pdo_sim::mock::Reset();
    zar::fuzz::RunInRequest(
        kTarget, [&] { RunThroughPdo(flags, statements, positional, named); });
    pdo_sim::mock::Reset();
  }
  return 0;
}
