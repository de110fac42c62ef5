// zend-async-ref pdo_sim: the mock SQL server's SELECT (mock_sql_executor.h):
// projection, WHERE, ORDER BY one key, COUNT and SUM.

#include <algorithm>

#include "pdo_sim/src/drivers/mock_sql_executor.h"

namespace pdo_sim::mock::internal {
namespace {

struct SelectItem {
  Expr expr;  // its text names the result column
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
    } else if (!p.ParseExpr(&item.expr)) {
      return false;
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
  std::optional<Expr> where;
  if (!ParseWhere(&where)) return false;
  Expr order;
  bool ordered = false;
  bool descending = false;
  if (p.Accept("ORDER")) {
    if (!p.Accept("BY") || !p.ParseExpr(&order)) return false;
    ordered = true;
    descending = p.Accept("DESC");
    if (!descending) p.Accept("ASC");
  }

  for (const SelectItem& item : items) {
    if (!item.star && !ColumnsExist(item.expr, table, "SELECT")) return false;
  }
  if ((where && !ColumnsExist(*where, table, "WHERE")) ||
      (ordered && !ColumnsExist(order, table, "ORDER BY"))) {
    return false;
  }
  std::vector<const Row*> rows;
  if (table != nullptr) {
    for (const Row& row : table->rows) {
      bool matches;
      if (!Matches(where, table, &row, &matches)) return false;
      if (matches) rows.push_back(&row);
    }
  } else {
    TouchTransaction();
  }
  if (ordered && !SortRows(order, descending, table, &rows)) return false;
  clause_ = "SELECT";

  for (const SelectItem& item : items) {
    if (!item.star) {
      result_.columns.push_back(item.expr.text);
    } else if (table != nullptr) {
      result_.columns.insert(result_.columns.end(), table->columns.begin(),
                             table->columns.end());
    } else {
      return false;  // SELECT * without FROM
    }
  }
  const bool aggregate =
      std::any_of(items.begin(), items.end(), [](const SelectItem& item) {
        return !item.star && IsAggregate(item.expr);
      });
  if (aggregate || table == nullptr) {
    // One row: aggregates over the rows; other items from the first row.
    const Row* first = rows.empty() ? nullptr : rows.front();
    std::vector<Value> out;
    for (const SelectItem& item : items) {
      Value v;
      if (item.star) return false;
      if (!(IsAggregate(item.expr) ? Aggregate(item.expr, table, rows, &v)
                                   : Eval(item.expr, table, first, &v))) {
        return false;
      }
      out.push_back(std::move(v));
    }
    result_.rows.push_back(std::move(out));
  } else {
    for (const Row* row : rows) {
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

bool Executor::SortRows(const Expr& key, bool descending, const Table* table,
                        std::vector<const Row*>* rows) {
  std::vector<std::pair<Value, const Row*>> keyed;
  clause_ = "ORDER BY";
  for (const Row* row : *rows) {
    Value v;
    if (!Eval(key, table, row, &v)) return false;
    keyed.emplace_back(std::move(v), row);
  }
  // NULL sorts first, as in MySQL; equal keys keep their order.
  std::stable_sort(
      keyed.begin(), keyed.end(), [descending](const auto& a, const auto& b) {
        const int c =
            Compare(a.first, b.first)
                .value_or(IsNull(a.first) ? (IsNull(b.first) ? 0 : -1) : 1);
        return descending ? c > 0 : c < 0;
      });
  rows->clear();
  for (auto& [value, row] : keyed) rows->push_back(row);
  return true;
}

}  // namespace pdo_sim::mock::internal
