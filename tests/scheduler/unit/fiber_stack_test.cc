#include "core/fiber/fiber_stack.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

namespace zar::core {
namespace {

TEST(FiberStackTest, AllocatesWholePagesAboveAGuardPage) {
  FiberStack stack;
  ASSERT_TRUE(stack.Allocate(100000));
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  EXPECT_EQ(stack.size() % page, 0u);
  EXPECT_GE(stack.size(), 100000u);
  EXPECT_EQ(stack.guard_size(), page);
  EXPECT_EQ(static_cast<char*>(stack.guard()) + page, stack.bottom());
  EXPECT_EQ(static_cast<char*>(stack.bottom()) + stack.size(), stack.top());
  // The usable part is writable from bottom to top.
  static_cast<volatile char*>(stack.bottom())[0] = 1;
  static_cast<volatile char*>(stack.top())[-1] = 1;
}

TEST(FiberStackTest, SmallRequestsGetTheMinimumSize) {
  FiberStack stack;
  ASSERT_TRUE(stack.Allocate(1));
  EXPECT_EQ(stack.size(), kMinStackSize);
}

TEST(FiberStackDeathTest, TouchingTheGuardPageFaults) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  FiberStack stack;
  ASSERT_TRUE(stack.Allocate(kMinStackSize));
  EXPECT_DEATH(
      {
        static_cast<volatile char*>(stack.guard())[stack.guard_size() - 1] = 1;
      },
      "");
}

TEST(FiberStackTest, ReleaseUnmapsAndEmpties) {
  FiberStack stack;
  ASSERT_TRUE(stack.Allocate(kMinStackSize));
  stack.Release();
  EXPECT_TRUE(stack.empty());
  stack.Release();  // harmless
}

TEST(FiberStackTest, MovingTransfersTheMapping) {
  FiberStack a;
  ASSERT_TRUE(a.Allocate(kMinStackSize));
  void* top = a.top();
  FiberStack b(std::move(a));
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(b.top(), top);
}

TEST(FiberStackTest, ParsesSizesWithSuffixes) {
  EXPECT_EQ(ParseStackSize("262144"), 262144u);
  EXPECT_EQ(ParseStackSize("256K"), 256u << 10);
  EXPECT_EQ(ParseStackSize("2m"), 2u << 20);
  EXPECT_EQ(ParseStackSize("1G"), size_t{1} << 30);
  EXPECT_EQ(ParseStackSize(""), 0u);
  EXPECT_EQ(ParseStackSize("12Q"), 0u);
  EXPECT_EQ(ParseStackSize("-1"), 0u);
}

TEST(FiberStackTest, DefaultSizeComesFromTheEnvironmentUnlessSet) {
  SetDefaultStackSize(0);
  setenv("ZEND_ASYNC_REF_STACK_SIZE", "512K", 1);
  EXPECT_EQ(DefaultStackSize(), 512u << 10);
  SetDefaultStackSize(3u << 20);
  EXPECT_EQ(DefaultStackSize(), 3u << 20);
  SetDefaultStackSize(0);
  unsetenv("ZEND_ASYNC_REF_STACK_SIZE");
  EXPECT_EQ(DefaultStackSize(), kDefaultStackSize);
}

}  // namespace
}  // namespace zar::core
