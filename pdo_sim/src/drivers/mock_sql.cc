// zend-async-ref pdo_sim: the mock driver's in-process SQL server
// (mock_sql.h): statements, tables and transactions.

#include "pdo_sim/src/drivers/mock_sql.h"

#include <algorithm>

#include "pdo_sim/src/drivers/mock_sql_executor.h"

namespace pdo_sim::mock::internal {
namespace {

// MariaDB's text: what follows the point where the parser stopped.
Error SyntaxError(std::string_view near) {
  return Error{"42000", 1064,
               "You have an error in your SQL syntax; check the manual that "
               "corresponds to your MariaDB server version for the right "
               "syntax to use near '" +
                   std::string(near) + "' at line 1"};
}

}  // namespace

Executor::Executor(Database& db, NamedLocks& locks, Session& session,
                   const Params& params, std::string_view sql,
                   const std::vector<Token>& tokens)
    : db_(db),
      locks_(locks),
      session_(session),
      params_(params),
      parser_(sql, tokens, 0) {
  parser_.positional_counter = &positional_;
}

Result Executor::Run() {
  while (parser_.Peek().type != Token::kEnd) {
    if (parser_.Accept(";")) continue;
    result_ = Result{};
    result_.sleep_ms = sleep_ms_;
    if (!Statement()) {
      if (result_.ok) {
        Fail(parser_.literal_error() ? *parser_.literal_error()
                                     : SyntaxError(parser_.Near()));
      }
      return result_;
    }
    sleep_ms_ = result_.sleep_ms;
    if (!parser_.AtStatementEnd()) {
      Fail(SyntaxError(parser_.Near()));
      return result_;
    }
  }
  return result_;
}

bool Executor::Fail(Error error) {
  result_.ok = false;
  result_.error = std::move(error);
  return false;
}

bool Executor::Statement() {
  Parser& p = parser_;
  if (p.Accept("SELECT")) return Select();
  if (p.Accept("INSERT")) return Insert();
  if (p.Accept("UPDATE")) return Update();
  if (p.Accept("DELETE")) return Delete();
  if (p.Accept("CREATE")) return Create();
  if (p.Accept("SET")) return Set();
  if (p.Accept("START") && p.Accept("TRANSACTION")) {
    if (session_.in_transaction) Commit(db_, session_);
    session_.in_transaction = true;
    return true;
  }
  if (p.Accept("COMMIT")) {
    Commit(db_, session_);
    return true;
  }
  if (p.Accept("ROLLBACK")) {
    Rollback(session_);
    return true;
  }
  if (p.Accept("DO")) {
    clause_ = "DO";
    Expr expr;
    if (!p.ParseExpr(&expr)) return false;
    Value ignored;
    return Eval(expr, nullptr, nullptr, &ignored);
  }
  if (p.Accept("USE")) {
    std::string name;
    if (!p.Ident(&name)) return false;
    session_.database = name;
    return true;
  }
  return false;
}

Error Executor::NoSuchTable(const std::string& name) const {
  return Error{"42S02", 1146,
               "Table '" + session_.database + "." + name + "' doesn't exist"};
}

void Executor::TouchTransaction() {
  if (!session_.autocommit) session_.in_transaction = true;
}

Table* Executor::ReadTable(const std::string& name) {
  const std::string key = Lower(name);
  if (auto it = session_.temp_tables.find(key);
      it != session_.temp_tables.end()) {
    return &it->second;
  }
  TouchTransaction();
  if (session_.in_transaction) {
    auto& copies = session_.transaction.copies;
    if (auto it = copies.find(key); it != copies.end()) {
      return &it->second.table;
    }
  }
  auto it = db_.tables.find(key);
  return it != db_.tables.end() ? &it->second : nullptr;
}

Table* Executor::WriteTable(const std::string& name, int64_t** next_auto) {
  const std::string key = Lower(name);
  if (auto it = session_.temp_tables.find(key);
      it != session_.temp_tables.end()) {
    *next_auto = &it->second.next_auto;
    return &it->second;
  }
  auto committed = db_.tables.find(key);
  if (committed == db_.tables.end()) return nullptr;
  *next_auto = &committed->second.next_auto;
  TouchTransaction();
  if (!session_.in_transaction) return &committed->second;
  auto& copies = session_.transaction.copies;
  auto it = copies.find(key);
  if (it == copies.end()) {
    Transaction::Copy copy;
    copy.table = committed->second;
    for (const Row& row : copy.table.rows) copy.base_rowids.insert(row.rowid);
    it = copies.emplace(key, std::move(copy)).first;
  }
  return &it->second.table;
}

bool Executor::Insert() {
  Parser& p = parser_;
  p.Accept("INTO");
  std::string name;
  if (!p.Ident(&name)) return false;
  std::vector<std::string> columns;
  if (p.Accept("(")) {
    do {
      std::string column;
      if (!p.Ident(&column)) return false;
      columns.push_back(column);
    } while (p.Accept(","));
    if (!p.Accept(")")) return false;
  }
  if (!p.Accept("VALUES")) return false;
  std::vector<std::vector<Expr>> tuples;
  do {
    if (!p.Accept("(")) return false;
    std::vector<Expr> tuple;
    do {
      Expr e;
      if (!p.ParseExpr(&e)) return false;
      tuple.push_back(std::move(e));
    } while (p.Accept(","));
    if (!p.Accept(")")) return false;
    tuples.push_back(std::move(tuple));
  } while (p.Accept(","));

  int64_t* next_auto = nullptr;
  Table* table = WriteTable(name, &next_auto);
  if (table == nullptr) return Fail(NoSuchTable(name));
  if (columns.empty()) columns = table->columns;
  std::vector<size_t> slots;
  for (const std::string& column : columns) {
    auto it = std::find_if(
        table->columns.begin(), table->columns.end(),
        [&](const std::string& c) { return Lower(c) == Lower(column); });
    if (it == table->columns.end()) {
      return Fail(Error{"42S22", 1054,
                        "Unknown column '" + column + "' in 'INSERT INTO'"});
    }
    slots.push_back(static_cast<size_t>(it - table->columns.begin()));
  }
  int64_t number = 0;
  for (const std::vector<Expr>& tuple : tuples) {
    number++;
    if (tuple.size() != slots.size()) {
      return Fail(Error{"21S01", 1136,
                        "Column count doesn't match value count at row " +
                            std::to_string(number)});
    }
    Row row;
    row.rowid = db_.next_rowid++;
    row.values.assign(table->columns.size(), Value{});
    std::vector<bool> given(table->columns.size(), false);
    clause_ = "VALUES";
    for (size_t i = 0; i < tuple.size(); i++) {
      if (!Eval(tuple[i], nullptr, nullptr, &row.values[slots[i]])) {
        return false;
      }
      given[slots[i]] = true;
    }
    for (size_t c = 0; c < table->columns.size(); c++) {
      const ColumnDef& def = table->defs[c];
      const bool automatic = static_cast<int>(c) == table->auto_column;
      if (!given[c] && !automatic) {
        if (!def.default_value && def.not_null) {
          return Fail(Error{"HY000", 1364,
                            "Field '" + table->columns[c] +
                                "' doesn't have a default value"});
        }
        row.values[c] = def.default_value.value_or(Value{});
      }
      if (automatic && IsNull(row.values[c])) continue;  // numbered below
      if (!Store(*table, c, number, &row.values[c])) return false;
    }
    if (table->auto_column >= 0) {
      Value& id = row.values[static_cast<size_t>(table->auto_column)];
      if (IsNull(id)) {
        id = (*next_auto)++;
      } else if (const auto n = AsNumber(id); n && *n >= *next_auto) {
        *next_auto = static_cast<int64_t>(*n) + 1;
      }
      if (number == 1) {
        session_.last_insert_id =
            static_cast<int64_t>(AsNumber(id).value_or(0));
      }
    }
    table->rows.push_back(std::move(row));
    result_.affected++;
  }
  return true;
}

bool Executor::Update() {
  Parser& p = parser_;
  std::string name;
  if (!p.Ident(&name) || !p.Accept("SET")) return false;
  std::vector<std::pair<std::string, Expr>> sets;
  do {
    std::string column;
    Expr e;
    if (!p.Ident(&column) || !p.Accept("=") || !p.ParseExpr(&e)) return false;
    sets.emplace_back(column, std::move(e));
  } while (p.Accept(","));
  std::optional<Expr> where;
  if (!ParseWhere(&where)) return false;
  int64_t* next_auto = nullptr;
  Table* table = WriteTable(name, &next_auto);
  if (table == nullptr) return Fail(NoSuchTable(name));
  for (auto& [column, e] : sets) {
    Expr target;
    target.kind = Expr::kColumn;
    target.name = column;
    if (!ColumnsExist(target, table, "SET") || !ColumnsExist(e, table, "SET")) {
      return false;
    }
  }
  if (where && !ColumnsExist(*where, table, "WHERE")) return false;
  for (Row& row : table->rows) {
    bool matches;
    if (!Matches(where, table, &row, &matches)) return false;
    if (!matches) continue;
    Row updated = row;
    for (auto& [column, e] : sets) {
      const std::string wanted = Lower(column);
      auto it = std::find_if(
          table->columns.begin(), table->columns.end(),
          [&](const std::string& c) { return Lower(c) == wanted; });
      const size_t slot = static_cast<size_t>(it - table->columns.begin());
      clause_ = "SET";
      if (!Eval(e, table, &row, &updated.values[slot]) ||
          !Store(*table, slot, result_.affected + 1, &updated.values[slot])) {
        return false;
      }
    }
    row = std::move(updated);
    result_.affected++;
  }
  return true;
}

bool Executor::Delete() {
  Parser& p = parser_;
  std::string name;
  if (!p.Accept("FROM") || !p.Ident(&name)) return false;
  std::optional<Expr> where;
  if (!ParseWhere(&where)) return false;
  int64_t* next_auto = nullptr;
  Table* table = WriteTable(name, &next_auto);
  if (table == nullptr) return Fail(NoSuchTable(name));
  if (where && !ColumnsExist(*where, table, "WHERE")) return false;
  std::vector<Row> kept;
  for (Row& row : table->rows) {
    bool matches;
    if (!Matches(where, table, &row, &matches)) return false;
    if (matches) {
      result_.affected++;
    } else {
      kept.push_back(std::move(row));
    }
  }
  table->rows = std::move(kept);
  return true;
}

bool Executor::Create() {
  Parser& p = parser_;
  const bool temporary = p.Accept("TEMPORARY");
  if (!p.Accept("TABLE")) return false;
  bool if_not_exists = false;
  if (p.Accept("IF")) {
    if (!p.Accept("NOT") || !p.Accept("EXISTS")) return false;
    if_not_exists = true;
  }
  std::string name;
  if (!p.Ident(&name) || !p.Accept("(")) return false;
  Table table;
  table.name = name;
  do {
    // A column: its name, its type (with "(n[, m])"), then its attributes:
    // NOT NULL, PRIMARY KEY (NOT NULL too), AUTO_INCREMENT, DEFAULT
    // <literal>, and words that change nothing here (NULL, UNIQUE, KEY,
    // UNSIGNED, ...).
    std::string column, type;
    if (!p.Ident(&column) || !p.Ident(&type)) return false;
    if (p.Accept("(")) {
      Expr size;
      do {
        if (!p.ParseExpr(&size)) return false;
      } while (p.Accept(","));
      if (!p.Accept(")")) return false;
    }
    ColumnDef def;
    def.type = TypeNamed(type);
    for (std::string word;;) {
      if (p.Accept("NOT")) {
        if (!p.Accept("NULL")) return false;
        def.not_null = true;
      } else if (p.Accept("PRIMARY")) {
        p.Accept("KEY");
        def.not_null = true;
      } else if (p.Accept("AUTO_INCREMENT")) {
        table.auto_column = static_cast<int>(table.columns.size());
      } else if (p.Accept("DEFAULT")) {
        Expr value;
        if (!p.ParseExpr(&value) || value.kind != Expr::kLiteral) return false;
        def.default_value = value.literal;
      } else if (!p.Ident(&word)) {
        break;
      }
    }
    table.columns.push_back(Lower(column));
    table.defs.push_back(def);
  } while (p.Accept(","));
  if (!p.Accept(")")) return false;
  const std::string key = Lower(name);
  if (temporary) {
    if (session_.temp_tables.count(key) == 0) {
      session_.temp_tables.emplace(key, std::move(table));
    }
    return true;
  }
  if (session_.in_transaction) Commit(db_, session_);  // DDL commits
  if (db_.tables.count(key) != 0) {
    if (if_not_exists) return true;
    return Fail(Error{"42S01", 1050, "Table '" + name + "' already exists"});
  }
  db_.tables.emplace(key, std::move(table));
  return true;
}

bool Executor::Set() {
  Parser& p = parser_;
  clause_ = "SET";
  if (p.Accept("NAMES")) {
    const Token& charset = p.Next();
    if (charset.type != Token::kIdent && charset.type != Token::kString) {
      return false;
    }
    for (const char* name : {"character_set_client", "character_set_connection",
                             "character_set_results"}) {
      session_.system_vars[name] = Lower(charset.text);
    }
    return true;
  }
  do {
    const Token& target = p.Peek();
    std::string name;
    const bool user = target.type == Token::kUserVar;
    if (user || target.type == Token::kSysVar) {
      name = p.Next().text;
    } else {
      if (!p.Ident(&name)) return false;
      name = Lower(name);
    }
    Expr e;
    if (!p.Accept("=") || !p.ParseExpr(&e)) return false;
    Value v;
    if (!Eval(e, nullptr, nullptr, &v)) return false;
    if (user) {
      session_.user_vars[name] = v;
    } else if (name == "autocommit") {
      const bool on = IsTrue(v);
      if (on && session_.in_transaction) Commit(db_, session_);
      session_.autocommit = on;
    } else {
      session_.system_vars[name] = v;
    }
  } while (p.Accept(","));
  return true;
}

Result Execute(Database& db, NamedLocks& locks, Session& session,
               std::string_view sql, const Params& params) {
  std::vector<Token> tokens;
  size_t error_at = 0;
  if (!Tokenize(sql, &tokens, &error_at)) {
    Result result;
    result.ok = false;
    result.error = SyntaxError(sql.substr(error_at));
    return result;
  }
  return Executor(db, locks, session, params, sql, tokens).Run();
}

void Commit(Database& db, Session& session) {
  for (auto& [name, copy] : session.transaction.copies) {
    auto it = db.tables.find(name);
    if (it == db.tables.end()) continue;  // dropped meanwhile
    Table& committed = it->second;
    std::set<uint64_t> kept;
    for (const Row& row : copy.table.rows) kept.insert(row.rowid);
    // Rows the transaction deleted.
    std::vector<Row> rows;
    for (Row& row : committed.rows) {
      const bool deleted =
          copy.base_rowids.count(row.rowid) != 0 && kept.count(row.rowid) == 0;
      if (!deleted) rows.push_back(std::move(row));
    }
    // Rows it changed (by row id) and rows it added.
    for (const Row& row : copy.table.rows) {
      if (copy.base_rowids.count(row.rowid) != 0) {
        for (Row& target : rows) {
          if (target.rowid == row.rowid) target = row;
        }
      } else {
        rows.push_back(row);
      }
    }
    committed.rows = std::move(rows);
  }
  session.transaction.copies.clear();
  session.in_transaction = false;
}

void Rollback(Session& session) {
  session.transaction.copies.clear();
  session.in_transaction = false;
}

void ResetSession(NamedLocks& locks, Session& session) {
  session.user_vars.clear();
  session.system_vars.clear();
  session.temp_tables.clear();
  session.autocommit = true;  // the server's default, not the client's
  for (auto it = locks.begin(); it != locks.end();) {
    it = it->second == session.id ? locks.erase(it) : std::next(it);
  }
}

}  // namespace pdo_sim::mock::internal
