// The reference's own answers for async iterators where the ABI leaves the
// choice open and upstream chose otherwise (label unit, not in the
// conformance runner; docs/iterators.md, "Differences from upstream").

#include "gmock/gmock.h"
#include "tests/iterator/support/iterator_test.h"

namespace zar::iterator_testing {
namespace {

using ::testing::ElementsAre;
using IteratorReferenceTest = IteratorTest;

// iterator_size: the bytes after zend_async_iterator_t up to iterator_size
// are the caller's, zeroed, and the iterator never writes them (upstream
// allocates iterator_size bytes for its own larger private struct, so a
// caller's bytes there overlap upstream's fields).
TEST_F(IteratorReferenceTest,
       IteratorSizeGivesTheCallerZeroedBytesAfterTheStruct) {
  struct Extended {
    zend_async_iterator_t base;
    uint64_t marks[4];
  };
  Log log;
  zar::testing::RunMain([&] {
    zar::testing::Spawn([&] {
      Probe probe(&log);
      Zval array = LongArray({1, 2});
      auto* extended = reinterpret_cast<Extended*>(ZEND_ASYNC_NEW_ITERATOR_EX(
          array.get(), nullptr, nullptr, ProbeHandler, 0, 0, sizeof(Extended)));
      ASSERT_NE(extended, nullptr);
      for (uint64_t mark : extended->marks) EXPECT_EQ(mark, 0u);
      for (uint64_t& mark : extended->marks) mark = ~uint64_t{0};
      extended->base.extended_data = &probe;
      extended->base.run(&extended->base);
      for (uint64_t mark : extended->marks) EXPECT_EQ(mark, ~uint64_t{0});
      extended->base.microtask.dtor(&extended->base.microtask);
    });
  });
  EXPECT_THAT(log, ElementsAre("0=1", "1=2"));
}

}  // namespace
}  // namespace zar::iterator_testing
