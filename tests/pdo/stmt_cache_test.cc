// P10: each pooled SQLite connection keeps an LRU of prepared statements
// (PDO::ATTR_POOL_STMT_CACHE_SIZE), bypassed with emulated prepares; and
// the cache API of pdo_pool.h on its own.

#include <cstdint>

#include "tests/pdo/support/pdo_test.h"

namespace zar::testing::pdo {
namespace {

class StmtCacheTest : public PdoTest {
 protected:
  Pdo Open(zend_long max, zend_long cache, Options extra = {}) {
    extra.push_back({PDO_ATTR_POOL_STMT_CACHE_SIZE, cache});
    return Pdo::Open(SqliteDsn(), PoolOptions(max, -1, std::move(extra)));
  }
};

// The SQLite driver's statement counts: prepares, cache hits, statements
// held in the slots' caches.
void ExpectStatementCounts(uint64_t prepares, uint64_t cache_hits,
                           uint64_t cached_statements) {
  const pdo_sim::sqlite::Stats stats = pdo_sim::sqlite::GetStats();
  EXPECT_EQ(stats.prepares, prepares);
  EXPECT_EQ(stats.cache_hits, cache_hits);
  EXPECT_EQ(stats.cached_statements, cached_statements);
}

zend_long PrepareAndRun(Pdo& pdo, const std::string& sql, zend_long param) {
  Statement stmt = pdo.Prepare(sql);
  stmt.Execute({param});
  return stmt.FetchColumn().lval();
}

TEST_F(StmtCacheTest, SameSqlIsPreparedOnce) {
  RunMain([&] {
    Pdo pdo = Open(1, 16);
    std::vector<zend_long> results;
    for (zend_long i = 1; i <= 5; i++)
      results.push_back(PrepareAndRun(pdo, "SELECT ?", i));
    EXPECT_EQ(results, (std::vector<zend_long>{1, 2, 3, 4, 5}));
    ExpectStatementCounts(1, 4, 1);
  });
}

TEST_F(StmtCacheTest, WhitespaceDoesNotMakeANewStatement) {
  RunMain([&] {
    Pdo pdo = Open(1, 16);
    const std::vector<zend_long> results = {
        PrepareAndRun(pdo, "SELECT ?", 1),
        PrepareAndRun(pdo, "  SELECT\n   ?  ", 2)};
    EXPECT_EQ(results, (std::vector<zend_long>{1, 2}));
    ExpectStatementCounts(1, 1, 1);
  });
}

TEST_F(StmtCacheTest, WhitespaceInsideQuotesMakesANewStatement) {
  RunMain([&] {
    Pdo pdo = Open(1, 16);
    std::vector<std::string> results;
    for (const char* sql :
         {"SELECT 'a  b'", "SELECT 'a b'", " SELECT 'a  b' "}) {
      Statement stmt = pdo.Prepare(sql);
      stmt.Execute();
      results.push_back(stmt.FetchColumn().str());
    }
    EXPECT_EQ(results, (std::vector<std::string>{"a  b", "a b", "a  b"}));
    const pdo_sim::sqlite::Stats stats = pdo_sim::sqlite::GetStats();
    EXPECT_EQ(stats.prepares, 2u);
    EXPECT_EQ(stats.cache_hits, 1u);
  });
}

TEST_F(StmtCacheTest, LeastRecentlyUsedIsEvicted) {
  RunMain([&] {
    Pdo pdo = Open(1, 2);
    PrepareAndRun(pdo, "SELECT ? + 100", 1);  // a
    PrepareAndRun(pdo, "SELECT ? + 200", 1);  // b
    PrepareAndRun(pdo, "SELECT ? + 300", 1);  // c evicts a
    EXPECT_EQ(pdo_sim::sqlite::GetStats().cached_statements, 2u);
    EXPECT_EQ(pdo_sim::sqlite::GetStats().prepares, 3u);
    PrepareAndRun(pdo, "SELECT ? + 200", 1);  // b: a hit
    PrepareAndRun(pdo, "SELECT ? + 300", 1);  // c: a hit
    EXPECT_EQ(pdo_sim::sqlite::GetStats().prepares, 3u);
    PrepareAndRun(pdo, "SELECT ? + 100", 1);  // a was evicted
    ExpectStatementCounts(4, 2, 2);
  });
}

TEST_F(StmtCacheTest, NoCacheByDefault) {
  RunMain([&] {
    Pdo pdo = Open(1, 0);
    for (zend_long i = 0; i < 3; i++) PrepareAndRun(pdo, "SELECT ?", i);
    EXPECT_EQ(pdo_sim::sqlite::GetStats().prepares, 3u);
    EXPECT_EQ(pdo_sim::sqlite::GetStats().cached_statements, 0u);
  });
}

TEST_F(StmtCacheTest, EmulatedPreparesBypassTheCache) {
  RunMain([&] {
    Pdo pdo = Open(1, 16, {{PDO_ATTR_EMULATE_PREPARES, true}});
    std::vector<zend_long> results;
    for (zend_long i = 1; i <= 4; i++)
      results.push_back(PrepareAndRun(pdo, "SELECT ?", i));
    EXPECT_EQ(results, (std::vector<zend_long>{1, 2, 3, 4}));
    EXPECT_EQ(pdo_sim::sqlite::GetStats().prepares, 4u);
    EXPECT_EQ(pdo_sim::sqlite::GetStats().cached_statements, 0u);
  });
}

TEST_F(StmtCacheTest, CoroutinesOnOneSlotShareItsCache) {
  RunMain([&] {
    Pdo pdo = Open(1, 16);
    zend_long sum = 0;
    std::vector<Task> coroutines;
    for (zend_long i = 1; i <= 8; i++) {
      coroutines.push_back(
          Spawn([&, i] { sum += PrepareAndRun(pdo, "SELECT ?", i); }));
    }
    for (Task& c : coroutines) Await(c);
    EXPECT_EQ(sum, 36);
    EXPECT_EQ(pdo_sim::sqlite::GetStats().prepares, 1u);
  });
}

TEST_F(StmtCacheTest, TwoLiveStatementsWithTheSameSql) {
  RunMain([&] {
    Pdo pdo = Open(1, 16);
    Statement first = pdo.Prepare("SELECT ?");
    Statement second = pdo.Prepare("SELECT ?");  // the cached one is in use
    first.Execute({1});
    second.Execute({2});
    EXPECT_EQ(first.FetchColumn().lval(), 1);
    EXPECT_EQ(second.FetchColumn().lval(), 2);
    first.Reset();
    second.Reset();
    EXPECT_EQ(pdo_sim::sqlite::GetStats().prepares, 2u);
    EXPECT_EQ(pdo_sim::sqlite::GetStats().cached_statements, 1u);
  });
}

// The LRU of pdo_pool.h, through its C API.
class StmtCacheApiTest : public PdoTest {};

pdo_pool_stmt_cache_entry_t* Put(pdo_pool_stmt_cache_t* cache, const char* sql,
                                 std::vector<std::string>* evicted) {
  zend_string* key = zend_string_init(sql, strlen(sql), 0);
  pdo_pool_stmt_cache_entry_t* gone = nullptr;
  pdo_pool_stmt_cache_entry_t* entry =
      pdo_pool_stmt_cache_insert(cache, key, &gone);
  zend_string_release(key);
  if (gone != nullptr) {
    evicted->push_back(ZSTR_VAL(gone->nsql));
    pdo_pool_stmt_cache_entry_free(gone);
  }
  return entry;
}

bool Lookup(pdo_pool_stmt_cache_t* cache, const char* sql) {
  zend_string* key = zend_string_init(sql, strlen(sql), 0);
  const bool found = pdo_pool_stmt_cache_lookup(cache, key) != nullptr;
  zend_string_release(key);
  return found;
}

TEST_F(StmtCacheApiTest, LookupMovesToMostRecentlyUsedAndInsertEvictsOldest) {
  RunMain([&] {
    EXPECT_EQ(pdo_pool_stmt_cache_create(0), nullptr);
    EXPECT_EQ(pdo_pool_stmt_cache_capacity(nullptr), 0u);
    pdo_pool_stmt_cache_t* cache = pdo_pool_stmt_cache_create(2);
    std::vector<std::string> evicted;
    Put(cache, "a", &evicted);
    Put(cache, "b", &evicted);
    EXPECT_TRUE(Lookup(cache, "a"));  // a is now the most recent
    Put(cache, "c", &evicted);        // evicts b
    EXPECT_EQ(evicted, (std::vector<std::string>{"b"}));
    EXPECT_TRUE(Lookup(cache, "a"));
    EXPECT_FALSE(Lookup(cache, "b"));
    EXPECT_EQ(pdo_pool_stmt_cache_size(cache), 2u);
    EXPECT_EQ(pdo_pool_stmt_cache_capacity(cache), 2u);

    zend_string* key = zend_string_init(ZEND_STRL("c"), 0);
    pdo_pool_stmt_cache_entry_t* taken = pdo_pool_stmt_cache_take(cache, key);
    ASSERT_NE(taken, nullptr);
    EXPECT_EQ(pdo_pool_stmt_cache_take(cache, key), nullptr);
    zend_string_release(key);
    pdo_pool_stmt_cache_entry_free(taken);
    EXPECT_EQ(pdo_pool_stmt_cache_size(cache), 1u);
    pdo_pool_stmt_cache_destroy(cache);
  });
}

}  // namespace
}  // namespace zar::testing::pdo
