// zend-async-ref pdo_sim: the mock SQL server's SELECT (mock_sql_executor.h):
// projection, WHERE, ORDER BY, LIMIT, aggregates.

#include <algorithm>

#include "pdo_sim/src/drivers/mock_sql_executor.h"

namespace pdo_sim::mock::internal {
namespace {

struct SelectItem {
  Expr expr;
  std::string name;
  bool star = false;
};

}  // namespace

bool Executor::Select() {
  Parser& p = parser_;
  std::vector<SelectItem> items;
  do {
    SelectItem item;
    if (p.Accept("*")) {
      item.star = true;
    } else {
      if (!p.ParseExpr(&item.expr)) return false;
      item.name = item.expr.text;
      if (p.Accept("AS")) {
        if (p.Peek().type != Token::kIdent && p.Peek().type != Token::kString) {
          return false;
        }
        item.name = p.Next().text;
      }
    }
    items.push_back(std::move(item));
  } while (p.Accept(","));

  const Table* table = nullptr;
  if (p.Accept("FROM")) {
    std::string name;
    if (!p.Ident(&name)) return false;
    table = ReadTable(name);
    if (table == nullptr) return Fail(NoSuchTable(name));
  }
  Expr where;
  const bool has_where = p.Accept("WHERE");
  if (has_where && !p.ParseExpr(&where)) return false;
  std::vector<std::pair<Expr, bool>> order;  // key, descending
  if (p.Accept("ORDER")) {
    if (!p.Accept("BY")) return false;
    do {
      Expr key;
      if (!p.ParseExpr(&key)) return false;
      bool desc = p.Accept("DESC");
      if (!desc) p.Accept("ASC");
      order.emplace_back(std::move(key), desc);
    } while (p.Accept(","));
  }
  int64_t limit = -1;
  if (p.Accept("LIMIT")) {
    if (p.Peek().type != Token::kNumber) return false;
    limit = std::stoll(p.Next().text);
  }

  std::vector<const Row*> rows;
  if (table != nullptr) {
    for (const Row& row : table->rows) {
      Value keep = int64_t{1};
      if (has_where && !Eval(where, table, &row, &keep)) return false;
      if (IsTrue(keep)) rows.push_back(&row);
    }
  } else {
    TouchTransaction();
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    std::vector<std::pair<Value, const Row*>> keyed;
    for (const Row* row : rows) {
      Value v;
      if (!Eval(it->first, table, row, &v)) return false;
      keyed.emplace_back(std::move(v), row);
    }
    const bool desc = it->second;
    std::stable_sort(
        keyed.begin(), keyed.end(), [desc](const auto& a, const auto& b) {
          const int c =
              Compare(a.first, b.first)
                  .value_or(IsNull(a.first) ? (IsNull(b.first) ? 0 : -1) : 1);
          return desc ? c > 0 : c < 0;
        });
    rows.clear();
    for (auto& [key, row] : keyed) rows.push_back(row);
  }

  for (const SelectItem& item : items) {
    if (item.star) {
      if (table == nullptr) return false;
      for (const std::string& c : table->columns) result_.columns.push_back(c);
    } else {
      result_.columns.push_back(item.name);
    }
  }
  const bool aggregate =
      std::any_of(items.begin(), items.end(), [](const SelectItem& item) {
        return !item.star && IsAggregate(item.expr);
      });
  if (aggregate) {
    std::vector<Value> out;
    for (const SelectItem& item : items) {
      Value v;
      if (item.star || !Aggregate(item.expr, table, rows, &v)) return false;
      out.push_back(std::move(v));
    }
    result_.rows.push_back(std::move(out));
  } else if (table == nullptr) {
    std::vector<Value> out;
    for (const SelectItem& item : items) {
      Value v;
      if (!Eval(item.expr, nullptr, nullptr, &v)) return false;
      out.push_back(std::move(v));
    }
    result_.rows.push_back(std::move(out));
  } else {
    for (const Row* row : rows) {
      if (limit >= 0 && static_cast<int64_t>(result_.rows.size()) >= limit) {
        break;
      }
      std::vector<Value> out;
      for (const SelectItem& item : items) {
        if (item.star) {
          out.insert(out.end(), row->values.begin(), row->values.end());
          continue;
        }
        Value v;
        if (!Eval(item.expr, table, row, &v)) return false;
        out.push_back(std::move(v));
      }
      result_.rows.push_back(std::move(out));
    }
  }
  result_.affected = static_cast<int64_t>(result_.rows.size());
  return true;
}

}  // namespace pdo_sim::mock::internal
