// zend-async-ref pdo_sim: the "mysql" driver's statements
// (mysql_internal.h), as pdo_mysql's: emulated prepares (the default: each
// execute sends the SQL with the values quoted in) and server-side prepared
// statements (PDO::ATTR_EMULATE_PREPARES false: ":name" made "?", the
// values bound as strings or NULL). Results are read whole (pdo_mysql's
// buffered queries), so fetching never waits.

#include <mysqld_error.h>

#include <algorithm>
#include <new>

#include "pdo_sim/src/drivers/mysql_internal.h"

extern "C" {
#include "ext/pdo/php_pdo_int.h"
}

namespace pdo_sim::mysql::internal {
namespace {

MysqlStatement* St(pdo_stmt_t* stmt) {
  return static_cast<MysqlStatement*>(stmt->driver_data);
}

// The connection a statement may still talk to: its slot, or its handle
// while the PDO object lives (one collected first has closed it).
MysqlConnection* LiveConn(pdo_stmt_t* stmt) {
  if (stmt->pooled_conn != nullptr) return Conn(stmt->pooled_conn);
  return php_pdo_stmt_valid_db_obj_handle(stmt) ? Conn(stmt->dbh) : nullptr;
}

// The value execute() gave a placeholder: by position, or for ":name" by
// "name" or ":name". Null when none.
zval* BoundValue(pdo_stmt_t* stmt, uint32_t index, const char* name,
                 size_t len) {
  HashTable* params = stmt->bound_params;
  if (params == nullptr) return nullptr;
  zval* value = name[0] != ':' ? zend_hash_index_find(params, index)
                               : zend_hash_str_find(params, name, len);
  if (value == nullptr && name[0] == ':') {
    value = zend_hash_str_find(params, name + 1, len - 1);
  }
  if (value != nullptr) ZVAL_DEREF(value);
  return value;
}

// The result of the last execute, let go.
void FreeResult(MysqlConnection* conn, MysqlStatement* s) {
  if (s->result != nullptr) {
    mysql_free_result(s->result);  // stored: no I/O
    s->result = nullptr;
  }
  s->row = nullptr;
  s->lengths = nullptr;
  if (s->metadata != nullptr) {
    mysql_free_result(s->metadata);
    s->metadata = nullptr;
  }
  if (s->stmt != nullptr && conn != nullptr) {
    my_bool failed = 0;
    Drive(conn, mysql_stmt_free_result_start(&failed, s->stmt), [&](int ready) {
      return mysql_stmt_free_result_cont(&failed, s->stmt, ready);
    });
  }
  s->fields = nullptr;
  s->columns.clear();
  s->buffers.clear();
  s->out_lengths.clear();
  s->out_nulls.clear();
}

// ---- Emulated prepares ------------------------------------------------------

struct QuoteContext {
  pdo_stmt_t* stmt;
  MYSQL* mysql;
};

// A placeholder of an emulated prepare as SQL: pdo_parse_params with
// PDO_PARAM_STR (execute()'s values): NULL, or the value as a string,
// escaped for the connection and quoted. Without values, the placeholder
// stays as written.
zend_string* QuoteValue(void* ctx, uint32_t index, const char* name,
                        size_t len) {
  auto* q = static_cast<QuoteContext*>(ctx);
  if (q->stmt->bound_params == nullptr) return zend_string_init(name, len, 0);
  zval* value = BoundValue(q->stmt, index, name, len);
  if (value == nullptr) {
    pdo_raise_impl_error(q->stmt->dbh, q->stmt, "HY093",
                         "parameter was not defined");
    return nullptr;
  }
  if (Z_TYPE_P(value) == IS_NULL) return zend_string_init(ZEND_STRL("NULL"), 0);
  zend_string* text = zval_get_string(value);
  zend_string* quoted = zend_string_alloc(2 * ZSTR_LEN(text) + 2, 0);
  char* out = ZSTR_VAL(quoted);
  out[0] = '\'';
  const unsigned long n =
      mysql_real_escape_string(q->mysql, out + 1, ZSTR_VAL(text),
                               static_cast<unsigned long>(ZSTR_LEN(text)));
  out[n + 1] = '\'';
  out[n + 2] = '\0';
  ZSTR_LEN(quoted) = n + 2;
  zend_string_release(text);
  return quoted;
}

int ExecuteEmulated(pdo_stmt_t* stmt, pdo_dbh_t* dbh, MysqlStatement* s) {
  MysqlConnection* conn = Conn(dbh);
  QuoteContext ctx{stmt, conn->mysql};
  zend_string* sql =
      php_mock_pdo_rewrite_placeholders(stmt->query_string, QuoteValue, &ctx);
  if (sql == nullptr) return 0;
  int err = 0;
  Drive(conn,
        mysql_real_query_start(&err, conn->mysql, ZSTR_VAL(sql), ZSTR_LEN(sql)),
        [&](int ready) {
          return mysql_real_query_cont(&err, conn->mysql, ready);
        });
  zend_string_release(sql);
  if (err != 0) {
    RecordError(dbh, stmt, s);
    return 0;
  }
  if (mysql_field_count(conn->mysql) > 0) {
    Drive(conn, mysql_store_result_start(&s->result, conn->mysql),
          [&](int ready) {
            return mysql_store_result_cont(&s->result, conn->mysql, ready);
          });
    if (s->result == nullptr) {
      RecordError(dbh, stmt, s);
      return 0;
    }
    stmt->row_count = static_cast<zend_long>(mysql_num_rows(s->result));
    php_pdo_stmt_set_column_count(
        stmt, static_cast<int>(mysql_num_fields(s->result)));
    s->fields = mysql_fetch_fields(s->result);
  } else {
    stmt->row_count = static_cast<zend_long>(mysql_affected_rows(conn->mysql));
  }
  return DrainResults(dbh, stmt, s) ? 1 : 0;
}

// ---- Server-side prepared statements ----------------------------------------

// A placeholder of a server-side prepare: "?", its name recorded.
zend_string* ToQuestionMark(void* ctx, uint32_t, const char* name, size_t len) {
  static_cast<std::vector<std::string>*>(ctx)->emplace_back(name, len);
  return zend_string_init(ZEND_STRL("?"), 0);
}

// Prepares `sql` on the server. False with the handle's error recorded;
// true with s->stmt null when the server cannot prepare it (1295): the
// statement is then emulated, as pdo_mysql falls back.
bool PrepareNative(pdo_dbh_t* dbh, zend_string* sql, pdo_stmt_t* stmt,
                   MysqlStatement* s) {
  MysqlConnection* conn = Conn(dbh);
  s->stmt = mysql_stmt_init(conn->mysql);
  if (s->stmt == nullptr) {
    RecordError(dbh, nullptr, nullptr);
    return false;
  }
  zend_string* nsql =
      php_mock_pdo_rewrite_placeholders(sql, ToQuestionMark, &s->param_names);
  int err = 0;
  Drive(
      conn,
      mysql_stmt_prepare_start(&err, s->stmt, ZSTR_VAL(nsql), ZSTR_LEN(nsql)),
      [&](int ready) { return mysql_stmt_prepare_cont(&err, s->stmt, ready); });
  zend_string_release(nsql);
  if (err == 0) {
    stmt->supports_placeholders = PDO_PLACEHOLDER_POSITIONAL;
    return true;
  }
  const bool unsupported = mysql_stmt_errno(s->stmt) == ER_UNSUPPORTED_PS;
  if (!unsupported) RecordError(dbh, nullptr, s);
  mysql_stmt_close(s->stmt);  // never prepared: nothing to tell the server
  s->stmt = nullptr;
  s->param_names.clear();
  return unsupported;
}

// Binds every column of the stored result as a string buffer large enough
// for its longest value.
bool BindColumns(pdo_stmt_t* stmt, MysqlStatement* s) {
  const unsigned count = mysql_num_fields(s->metadata);
  s->fields = mysql_fetch_fields(s->metadata);
  s->columns.assign(count, MYSQL_BIND{});
  s->buffers.resize(count);
  s->out_lengths.assign(count, 0);
  s->out_nulls.assign(count, 0);
  for (unsigned i = 0; i < count; i++) {
    const MYSQL_FIELD& field = s->fields[i];
    // max_length is the longest value (STMT_ATTR_UPDATE_MAX_LENGTH); a
    // number's text is at most 64 bytes.
    const size_t size = std::max<size_t>(field.max_length, 64) + 1;
    s->buffers[i].assign(size, '\0');
    MYSQL_BIND& bind = s->columns[i];
    bind.buffer_type = MYSQL_TYPE_STRING;
    bind.buffer = s->buffers[i].data();
    bind.buffer_length = size;
    bind.length = &s->out_lengths[i];
    bind.is_null = &s->out_nulls[i];
  }
  php_pdo_stmt_set_column_count(stmt, static_cast<int>(count));
  return mysql_stmt_bind_result(s->stmt, s->columns.data()) == 0;
}

int ExecuteNative(pdo_stmt_t* stmt, pdo_dbh_t* dbh, MysqlStatement* s) {
  MysqlConnection* conn = Conn(dbh);
  const uint32_t given = stmt->bound_params != nullptr
                             ? zend_hash_num_elements(stmt->bound_params)
                             : 0;
  if (given < mysql_stmt_param_count(s->stmt)) {
    // pdo_mysql: too few values, HY093 and no native error.
    s->einfo = ErrorInfo{};
    snprintf(stmt->error_code, sizeof(pdo_error_type), "HY093");
    return 0;
  }
  std::vector<MYSQL_BIND> params(s->param_names.size(), MYSQL_BIND{});
  std::vector<zend_string*> strings;
  bool ok = true;
  for (size_t i = 0; ok && i < params.size(); i++) {
    const std::string& name = s->param_names[i];
    zval* value =
        BoundValue(stmt, static_cast<uint32_t>(i), name.data(), name.size());
    if (value == nullptr) {
      pdo_raise_impl_error(stmt->dbh, stmt, "HY093",
                           "parameter was not defined");
      ok = false;
    } else if (Z_TYPE_P(value) == IS_NULL) {
      params[i].buffer_type = MYSQL_TYPE_NULL;
    } else {
      zend_string* text = zval_get_string(value);
      strings.push_back(text);
      params[i].buffer_type = MYSQL_TYPE_STRING;
      params[i].buffer = ZSTR_VAL(text);
      params[i].buffer_length = ZSTR_LEN(text);
    }
  }
  int err = 0;
  if (ok && mysql_stmt_bind_param(s->stmt, params.data()) != 0) {
    RecordError(dbh, stmt, s);
    ok = false;
  }
  if (ok) {
    Drive(conn, mysql_stmt_execute_start(&err, s->stmt), [&](int ready) {
      return mysql_stmt_execute_cont(&err, s->stmt, ready);
    });
  }
  for (zend_string* text : strings) zend_string_release(text);
  if (!ok) return 0;
  if (err != 0) {
    RecordError(dbh, stmt, s);
    return 0;
  }
  s->metadata = mysql_stmt_result_metadata(s->stmt);
  if (s->metadata != nullptr) {
    const my_bool on = 1;
    mysql_stmt_attr_set(s->stmt, STMT_ATTR_UPDATE_MAX_LENGTH, &on);
    Drive(conn, mysql_stmt_store_result_start(&err, s->stmt), [&](int ready) {
      return mysql_stmt_store_result_cont(&err, s->stmt, ready);
    });
    if (err != 0 || !BindColumns(stmt, s)) {
      RecordError(dbh, stmt, s);
      return 0;
    }
  }
  const my_ulonglong rows = mysql_stmt_affected_rows(s->stmt);
  if (rows != static_cast<my_ulonglong>(-1)) {
    stmt->row_count = static_cast<zend_long>(rows);
  }
  return 1;
}

// ---- The statement's methods ------------------------------------------------

int StmtDtor(pdo_stmt_t* stmt) {
  MysqlStatement* s = St(stmt);
  MysqlConnection* conn = LiveConn(stmt);
  FreeResult(conn, s);
  if (s->stmt != nullptr) {
    if (conn != nullptr) {
      my_bool failed = 0;
      Drive(conn, mysql_stmt_close_start(&failed, s->stmt), [&](int ready) {
        return mysql_stmt_close_cont(&failed, s->stmt, ready);
      });
    } else {
      mysql_stmt_close(s->stmt);  // its connection closed: no I/O
    }
  }
  s->~MysqlStatement();
  efree(s);
  stmt->driver_data = nullptr;
  return 1;
}

int StmtExecute(pdo_stmt_t* stmt) {
  MutableStats().queries++;
  MysqlStatement* s = St(stmt);
  pdo_dbh_t* dbh = pdo_stmt_conn(stmt);
  FreeResult(Conn(dbh), s);
  return s->stmt != nullptr ? ExecuteNative(stmt, dbh, s)
                            : ExecuteEmulated(stmt, dbh, s);
}

int StmtFetch(pdo_stmt_t* stmt, enum pdo_fetch_orientation, zend_long) {
  MysqlStatement* s = St(stmt);
  if (s->stmt == nullptr) {
    if (s->result == nullptr) return 0;
    s->row = mysql_fetch_row(s->result);  // stored: no I/O
    if (s->row == nullptr) return 0;
    s->lengths = mysql_fetch_lengths(s->result);
    return 1;
  }
  if (s->metadata == nullptr) return 0;
  MysqlConnection* conn = Conn(pdo_stmt_conn(stmt));
  int ret = 0;
  Drive(conn, mysql_stmt_fetch_start(&ret, s->stmt),
        [&](int ready) { return mysql_stmt_fetch_cont(&ret, s->stmt, ready); });
  if (ret == 0 || ret == MYSQL_DATA_TRUNCATED) return 1;
  if (ret != MYSQL_NO_DATA) RecordError(pdo_stmt_conn(stmt), stmt, s);
  return 0;
}

int StmtDescribe(pdo_stmt_t* stmt, int colno) {
  MysqlStatement* s = St(stmt);
  if (s->fields == nullptr || colno >= stmt->column_count) return 0;
  const MYSQL_FIELD& field = s->fields[colno];
  stmt->columns[colno].name =
      zend_string_init(field.name, field.name_length, 0);
  stmt->columns[colno].maxlen = field.length;
  stmt->columns[colno].precision = field.decimals;
  return 1;
}

int StmtGetCol(pdo_stmt_t* stmt, int colno, zval* result,
               enum pdo_param_type*) {
  MysqlStatement* s = St(stmt);
  if (s->fields == nullptr || colno >= stmt->column_count) return 0;
  const auto col = static_cast<size_t>(colno);
  if (s->stmt == nullptr) {
    if (s->row == nullptr) return 0;
    ColumnValue(s->fields[col], s->row[col], s->lengths[col], result);
    return 1;
  }
  if (s->out_nulls[col]) {
    ZVAL_NULL(result);
    return 1;
  }
  const unsigned long length = s->out_lengths[col];
  if (length < s->buffers[col].size()) {
    ColumnValue(s->fields[col], s->buffers[col].data(), length, result);
    return 1;
  }
  // Longer than its buffer (max_length misjudged it): fetched again whole.
  std::string whole(length, '\0');
  MYSQL_BIND bind = {};
  bind.buffer_type = MYSQL_TYPE_STRING;
  bind.buffer = whole.data();
  bind.buffer_length = length;
  mysql_stmt_fetch_column(s->stmt, &bind, static_cast<unsigned>(colno), 0);
  ColumnValue(s->fields[col], whole.data(), length, result);
  return 1;
}

const pdo_stmt_methods kStmtMethods = {
    StmtDtor, StmtExecute, StmtFetch, StmtDescribe, StmtGetCol,
};

}  // namespace

bool Prepare(pdo_dbh_t* dbh, zend_string* sql, pdo_stmt_t* stmt, zval*) {
  auto* s = new (emalloc(sizeof(MysqlStatement))) MysqlStatement;
  stmt->driver_data = s;
  stmt->methods = &kStmtMethods;
  // Emulated: PDO checks execute()'s values against the placeholders.
  stmt->supports_placeholders = PDO_PLACEHOLDER_NONE;
  return Conn(dbh)->emulate_prepares || PrepareNative(dbh, sql, stmt, s);
}

bool DrainResults(pdo_dbh_t* dbh, pdo_stmt_t* stmt, MysqlStatement* s) {
  MysqlConnection* conn = Conn(dbh);
  while (mysql_more_results(conn->mysql)) {
    int status = 0;
    Drive(conn, mysql_next_result_start(&status, conn->mysql), [&](int ready) {
      return mysql_next_result_cont(&status, conn->mysql, ready);
    });
    if (status < 0) break;  // no more results
    if (status > 0) {
      RecordError(dbh, stmt, s);
      return false;
    }
    if (mysql_field_count(conn->mysql) == 0) continue;
    MYSQL_RES* result = nullptr;
    Drive(conn, mysql_store_result_start(&result, conn->mysql), [&](int ready) {
      return mysql_store_result_cont(&result, conn->mysql, ready);
    });
    if (result == nullptr) {
      RecordError(dbh, stmt, s);
      return false;
    }
    mysql_free_result(result);
  }
  return true;
}

}  // namespace pdo_sim::mysql::internal
