// PDO's pool object (PDO::getPool()) refuses acquire(), tryAcquire() and
// release(): the reference's pool keeps the resources of a pool made with a
// C factory to the extension that made it (docs/pool.md, "Differences from
// upstream"; upstream's pool hands PDO's IS_PTR connections to PHP as they
// are). The reference's own choice, hence a unit test.

#include "tests/pdo/support/pdo_test.h"

namespace zar::testing::pdo {
namespace {

using PoolOwnershipTest = PdoTest;

TEST_F(PoolOwnershipTest,
       GetPoolRefusesAcquireTryAcquireAndReleaseAndKeepsCounts) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop", PoolOptions(4, 2));
    ASSERT_TRUE(pdo.ok()) << TakeExceptionText();
    Zval pool = pdo.GetPool();
    ASSERT_EQ(pool.type(), IS_OBJECT);
    const std::string owned =
        "(): the resources of this pool are owned by the extension that "
        "created it and cannot be ";
    Zval forged = Zval::Long(42);
    {
      EXPECT_TRUE(
          pdo_sim::CallMethod(pool.get(), "release", {forged.get()}).undef());
      Caught e;
      EXPECT_EQ(e.class_name(), "Async\\PoolException");
      EXPECT_EQ(e.message(),
                "Async\\Pool::release" + owned + "released from PHP");
    }
    for (const char* method : {"acquire", "tryAcquire"}) {
      EXPECT_TRUE(pdo_sim::CallMethod(pool.get(), method).undef()) << method;
      Caught e;
      EXPECT_EQ(e.class_name(), "Async\\PoolException") << method;
      EXPECT_EQ(e.message(), std::string("Async\\Pool::") + method + owned +
                                 "acquired from PHP");
    }
    // No connection left the pool; the counts stay readable.
    EXPECT_EQ(CountsOf(pdo), (PoolCounts{2, 2, 0}));
    EXPECT_EQ(pdo_sim::CallMethod(pool.get(), "count").lval(), 2);
    EXPECT_EQ(pdo_sim::CallMethod(pool.get(), "idleCount").lval(), 2);
    EXPECT_EQ(pdo_sim::CallMethod(pool.get(), "activeCount").lval(), 0);
    EXPECT_EQ(QueryLong(pdo, "SELECT 1"), 1) << "PDO still uses its pool";
    EXPECT_EQ(pdo_sim::mock::GetCounters().connections_made, 2u);
  });
}

}  // namespace
}  // namespace zar::testing::pdo
