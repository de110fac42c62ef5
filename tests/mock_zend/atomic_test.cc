// Tests of the atomics (zend_atomic.h): every operation's result, and that
// concurrent increments are not lost.

#include <gtest/gtest.h>

#include <thread>
#include <vector>

extern "C" {
#include "zend_atomic.h"
}

namespace {

TEST(MockZendAtomicTest, InitMacrosAndInitializersSetTheValue) {
  zend_atomic_bool b;
  zend_atomic_int i;
  zend_atomic_int64 l;
  ZEND_ATOMIC_BOOL_INIT(&b, true);
  ZEND_ATOMIC_INT_INIT(&i, 7);
  ZEND_ATOMIC_INT64_INIT(&l, INT64_C(1) << 40);
  EXPECT_TRUE(zend_atomic_bool_load_ex(&b));
  EXPECT_EQ(zend_atomic_int_load_ex(&i), 7);
  EXPECT_EQ(zend_atomic_int64_load_ex(&l), INT64_C(1) << 40);
  zend_atomic_int static_int = ZEND_ATOMIC_INT_INITIALIZER(3);
  zend_atomic_int64 static_int64 = ZEND_ATOMIC_INT64_INITIALIZER(-5);
  zend_atomic_bool static_bool = ZEND_ATOMIC_BOOL_INITIALIZER(false);
  EXPECT_EQ(zend_atomic_int_load(&static_int), 3);
  EXPECT_EQ(zend_atomic_int64_load(&static_int64), -5);
  EXPECT_FALSE(zend_atomic_bool_load(&static_bool));
}

TEST(MockZendAtomicTest, StoreExAndLoadExRoundTrip) {
  zend_atomic_int i;
  zend_atomic_int_init(&i, 0);
  zend_atomic_int_store_ex(&i, -12);
  EXPECT_EQ(zend_atomic_int_load_ex(&i), -12);
  zend_atomic_int64 l;
  zend_atomic_int64_init(&l, 0);
  zend_atomic_int64_store_ex(&l, INT64_MIN);
  EXPECT_EQ(zend_atomic_int64_load_ex(&l), INT64_MIN);
  zend_atomic_int64_store(&l, INT64_MAX);
  EXPECT_EQ(zend_atomic_int64_load(&l), INT64_MAX);
  zend_atomic_bool b;
  zend_atomic_bool_init(&b, false);
  zend_atomic_bool_store_ex(&b, true);
  EXPECT_TRUE(zend_atomic_bool_load_ex(&b));
}

TEST(MockZendAtomicTest, ExchangeReturnsThePreviousValue) {
  zend_atomic_int i;
  zend_atomic_int_init(&i, 1);
  EXPECT_EQ(zend_atomic_int_exchange_ex(&i, 2), 1);
  EXPECT_EQ(zend_atomic_int_exchange(&i, 3), 2);
  EXPECT_EQ(zend_atomic_int_load(&i), 3);
  zend_atomic_int64 l;
  zend_atomic_int64_init(&l, 10);
  EXPECT_EQ(zend_atomic_int64_exchange_ex(&l, 20), 10);
  EXPECT_EQ(zend_atomic_int64_exchange(&l, 30), 20);
  zend_atomic_bool b;
  zend_atomic_bool_init(&b, false);
  EXPECT_FALSE(zend_atomic_bool_exchange_ex(&b, true));
  EXPECT_TRUE(zend_atomic_bool_exchange(&b, false));
}

TEST(MockZendAtomicTest, CompareExchangeSucceedsOnlyOnTheExpectedValue) {
  zend_atomic_int i;
  zend_atomic_int_init(&i, 5);
  int expected = 4;
  EXPECT_FALSE(zend_atomic_int_compare_exchange_ex(&i, &expected, 9));
  EXPECT_EQ(expected, 5);  // the current value is reported back
  EXPECT_EQ(zend_atomic_int_load(&i), 5);
  EXPECT_TRUE(zend_atomic_int_compare_exchange(&i, &expected, 9));
  EXPECT_EQ(zend_atomic_int_load(&i), 9);

  zend_atomic_int64 l;
  zend_atomic_int64_init(&l, 100);
  int64_t expected64 = 100;
  EXPECT_TRUE(zend_atomic_int64_compare_exchange_ex(&l, &expected64, 200));
  EXPECT_FALSE(zend_atomic_int64_compare_exchange(&l, &expected64, 300));
  EXPECT_EQ(expected64, 200);

  zend_atomic_bool b;
  zend_atomic_bool_init(&b, false);
  bool expected_bool = false;
  EXPECT_TRUE(zend_atomic_bool_compare_exchange_ex(&b, &expected_bool, true));
  EXPECT_FALSE(zend_atomic_bool_compare_exchange(&b, &expected_bool, true));
  EXPECT_TRUE(expected_bool);
}

TEST(MockZendAtomicTest, FetchAddSubAndIncDecReturnThePreviousValue) {
  zend_atomic_int i;
  zend_atomic_int_init(&i, 10);
  EXPECT_EQ(zend_atomic_int_fetch_add(&i, 5), 10);
  EXPECT_EQ(zend_atomic_int_fetch_sub(&i, 3), 15);
  EXPECT_EQ(zend_atomic_int_inc(&i), 12);
  EXPECT_EQ(zend_atomic_int_dec(&i), 13);
  EXPECT_EQ(zend_atomic_int_load(&i), 12);
}

TEST(MockZendAtomicTest, ConcurrentIncrementsAreNotLost) {
  zend_atomic_int counter;
  zend_atomic_int_init(&counter, 0);
  zend_atomic_int64 total;
  zend_atomic_int64_init(&total, 0);
  constexpr int kThreads = 4;
  constexpr int kPerThread = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&] {
      for (int n = 0; n < kPerThread; n++) {
        zend_atomic_int_inc(&counter);
        int64_t seen = zend_atomic_int64_load_ex(&total);
        while (
            !zend_atomic_int64_compare_exchange_ex(&total, &seen, seen + 2)) {
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(zend_atomic_int_load(&counter), kThreads * kPerThread);
  EXPECT_EQ(zend_atomic_int64_load(&total), int64_t{2} * kThreads * kPerThread);
}

TEST(MockZendAtomicTest, PointerOperationsHaveTheSameSemantics) {
  int a = 0;
  int b = 0;
  zend_atomic_ptr p;
  ZEND_ATOMIC_PTR_INIT(&p, &a);
  EXPECT_EQ(zend_atomic_ptr_load_ex(&p), &a);
  zend_atomic_ptr_store_ex(&p, &b);
  EXPECT_EQ(zend_atomic_ptr_load(&p), &b);
  EXPECT_EQ(zend_atomic_ptr_exchange_ex(&p, &a), &b);
  void* expected = &b;
  EXPECT_FALSE(zend_atomic_ptr_compare_exchange_ex(&p, &expected, nullptr));
  EXPECT_EQ(expected, &a);
  EXPECT_TRUE(zend_atomic_ptr_compare_exchange(&p, &expected, nullptr));
  EXPECT_EQ(zend_atomic_ptr_load(&p), nullptr);
  zend_atomic_ptr q = ZEND_ATOMIC_PTR_INITIALIZER(&b);
  EXPECT_EQ(zend_atomic_ptr_load(&q), &b);
}

}  // namespace
