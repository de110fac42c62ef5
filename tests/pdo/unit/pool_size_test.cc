// PDO's pool sizes as the reference's pool checks them: PDO passes
// PDO::ATTR_POOL_MIN and PDO::ATTR_POOL_MAX down to ZEND_ASYNC_NEW_POOL()
// after clamping them as upstream does, so a minimum no pool can pre-warm
// reaches the pool's own check (docs/pool.md, "Differences from upstream";
// upstream's pool accepts it and runs out of memory). The reference's own
// choice, hence a unit test.

#include "tests/pdo/support/pdo_test.h"

namespace zar::testing::pdo {
namespace {

using PoolSizeTest = PdoTest;

TEST_F(PoolSizeTest, AMinimumNoPoolCanPreWarmFailsConstructionWithAValueError) {
  RunMain([&] {
    Pdo pdo = Pdo::Open("mock:dbname=shop",
                        PoolOptions(zend_long{1} << 31, zend_long{1} << 31));
    EXPECT_FALSE(pdo.ok());
    Caught e;
    EXPECT_EQ(e.class_name(), "ValueError");
    EXPECT_EQ(e.message(),
              "ZEND_ASYNC_NEW_POOL(): Argument #6 ($min_size) must be <= "
              "1048576");
    EXPECT_EQ(pdo_sim::mock::GetCounters().connections_made, 0u);
  });
}

}  // namespace
}  // namespace zar::testing::pdo
