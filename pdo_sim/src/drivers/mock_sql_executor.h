// zend-async-ref pdo_sim: the mock SQL server's executor (mock_sql.h):
// what its two files share. mock_sql.cc runs statements and keeps tables
// and transactions; mock_sql_eval.cc evaluates expressions.
//
// Threading: the engine's thread. Lifetime: one Execute() call.

#ifndef ZAR_PDO_SIM_SRC_DRIVERS_MOCK_SQL_EXECUTOR_H_
#define ZAR_PDO_SIM_SRC_DRIVERS_MOCK_SQL_EXECUTOR_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pdo_sim/src/drivers/mock_sql.h"
#include "pdo_sim/src/drivers/mock_sql_parse.h"

namespace pdo_sim::mock::internal {

// SQL value semantics: NULL, numbers (int or float), text.
bool IsNull(const Value& v);
// The number a value reads as, or nullopt (text that is not a number).
std::optional<double> AsNumber(const Value& v);
std::string AsString(const Value& v);
bool IsTrue(const Value& v);
// -1, 0, 1; nullopt when either side is NULL.
std::optional<int> Compare(const Value& a, const Value& b);
// a + b: integers stay integers, else numbers; NULL in, NULL out.
Value Add(const Value& a, const Value& b);
// The type MySQL gives a column declared with type name `name`.
ColumnType TypeNamed(std::string_view name);

// Runs the statements of one Execute call.
class Executor {
 public:
  Executor(Database& db, NamedLocks& locks, Session& session,
           const Params& params, std::string_view sql,
           const std::vector<Token>& tokens);
  // Runs every statement; the last one's result, or the first error.
  Result Run();

 private:
  bool Fail(Error error);
  bool Statement();

  // ---- Tables (mock_sql.cc) -------------------------------------------------
  Error NoSuchTable(const std::string& name) const;
  // Opens the implicit transaction of autocommit=0.
  void TouchTransaction();
  // The table a read sees: temporary, the transaction's copy, committed.
  Table* ReadTable(const std::string& name);
  // The table a write changes (a transaction's changes go to its copy).
  Table* WriteTable(const std::string& name, int64_t** next_auto);

  // ---- Expressions (mock_sql_eval.cc) ---------------------------------------
  bool Column(const Table* table, const Row* row, const std::string& name,
              Value* out);
  // Whether every column `e` names is one of `table`'s (MariaDB resolves
  // them before reading a row: an empty table does not hide a wrong name);
  // false (the error recorded, naming `clause`) at the first that is not.
  bool ColumnsExist(const Expr& e, const Table* table, const char* clause);
  bool Eval(const Expr& e, const Table* table, const Row* row, Value* out);
  // An optional "WHERE expression" clause (SELECT, UPDATE, DELETE): `where`
  // stays empty without one; false on a parse error.
  bool ParseWhere(std::optional<Expr>* where);
  // Whether `row` of `table` passes `where` (without a clause every row
  // does); false when evaluating it failed (the error recorded).
  bool Matches(const std::optional<Expr>& where, const Table* table,
               const Row* row, bool* matches);
  bool Binary(const Expr& e, const Table* table, const Row* row, Value* out);
  bool Call(const Expr& e, const Table* table, const Row* row, Value* out);
  // Makes `*value` what column `column` of `table` stores, as MySQL's
  // strict mode converts it for row `row_number` of an INSERT or UPDATE: a
  // number as text in a text column, a numeric text as a number in a
  // numeric one (rounded in an integer one); false (the error recorded)
  // for NULL in a NOT NULL column (23000/1048) and for text that is no
  // number in a numeric one (22007/1366).
  bool Store(const Table& table, size_t column, int64_t row_number,
             Value* value);
  Value SystemVariable(const std::string& name) const;
  // COUNT(*), COUNT(x) or SUM(x) (IsAggregate) over `rows`.
  bool Aggregate(const Expr& e, const Table* table,
                 const std::vector<const Row*>& rows, Value* out);

  // ---- Statements (mock_sql.cc; Select: mock_sql_select.cc) -----------------
  bool Select();
  // Orders `rows` by `key` (stable; NULL first).
  bool SortRows(const Expr& key, bool descending, const Table* table,
                std::vector<const Row*>* rows);
  bool Insert();
  bool Update();
  bool Delete();
  bool Create();
  bool Set();

  Database& db_;
  NamedLocks& locks_;
  Session& session_;
  const Params& params_;
  Parser parser_;
  size_t positional_ = 0;
  uint32_t sleep_ms_ = 0;
  // The clause being evaluated, as MariaDB names it in "Unknown column 'x'
  // in 'WHERE'".
  const char* clause_ = "SELECT";
  Result result_;
};

}  // namespace pdo_sim::mock::internal

#endif  // ZAR_PDO_SIM_SRC_DRIVERS_MOCK_SQL_EXECUTOR_H_
