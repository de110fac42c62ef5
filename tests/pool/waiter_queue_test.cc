// Unit tests of core/internal/waiter_queue.h (no engine needed).

#include "core/internal/waiter_queue.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace zar::core::internal {
namespace {

class WaiterQueueTest : public ::testing::Test {
 protected:
  // Waiters numbered 0..N-1; id() recovers the number.
  std::array<Waiter, 8> waiters_{};
  WaiterQueue queue_;

  Waiter* w(int i) { return &waiters_[i]; }
  int id(const Waiter* waiter) const {
    return waiter == nullptr ? -1 : static_cast<int>(waiter - &waiters_[0]);
  }
  std::vector<int> Order() const {
    std::vector<int> ids;
    for (const Waiter* p = queue_.front(); p != nullptr; p = p->next) {
      ids.push_back(id(p));
    }
    return ids;
  }
  void PushAll(int n) {
    for (int i = 0; i < n; i++) queue_.PushBack(w(i));
  }
};

TEST_F(WaiterQueueTest, StartsEmpty) {
  EXPECT_TRUE(queue_.empty());
  EXPECT_EQ(queue_.size(), 0u);
  EXPECT_EQ(queue_.front(), nullptr);
  EXPECT_EQ(queue_.back(), nullptr);
  EXPECT_EQ(queue_.FirstUnreserved(), nullptr);
  EXPECT_EQ(queue_.ReserveOldestUnreserved(), nullptr);
  EXPECT_EQ(queue_.PopBack(), nullptr);
  EXPECT_TRUE(queue_.CheckInvariants());
}

TEST_F(WaiterQueueTest, ArrivalOrderIsServiceOrder) {
  PushAll(5);
  EXPECT_EQ(Order(), (std::vector<int>{0, 1, 2, 3, 4}));
  for (int expected = 0; expected < 5; expected++) {
    EXPECT_EQ(id(queue_.ReserveOldestUnreserved()), expected);
    EXPECT_TRUE(queue_.CheckInvariants());
  }
  EXPECT_EQ(queue_.ReserveOldestUnreserved(), nullptr);
  EXPECT_EQ(queue_.size(), 5u) << "reserved waiters stay queued until they run";
}

TEST_F(WaiterQueueTest, PushedWaiterStartsUnreserved) {
  w(0)->reserved = true;  // stale mark from an earlier use
  queue_.PushBack(w(0));
  EXPECT_FALSE(w(0)->reserved);
  EXPECT_TRUE(w(0)->queued);
  EXPECT_EQ(queue_.FirstUnreserved(), w(0));
}

TEST_F(WaiterQueueTest, RemovingFromTheMiddleKeepsEveryoneElsesPlace) {
  PushAll(6);
  EXPECT_TRUE(queue_.Remove(w(2)));
  EXPECT_TRUE(queue_.Remove(w(4)));
  EXPECT_EQ(Order(), (std::vector<int>{0, 1, 3, 5}));
  EXPECT_FALSE(w(2)->queued);
  EXPECT_TRUE(queue_.CheckInvariants());
  EXPECT_EQ(id(queue_.ReserveOldestUnreserved()), 0);
  EXPECT_EQ(id(queue_.ReserveOldestUnreserved()), 1);
  EXPECT_EQ(id(queue_.ReserveOldestUnreserved()), 3);
  EXPECT_EQ(id(queue_.ReserveOldestUnreserved()), 5);
}

TEST_F(WaiterQueueTest, RemovingFrontAndBackUpdatesEnds) {
  PushAll(3);
  EXPECT_TRUE(queue_.Remove(w(0)));
  EXPECT_EQ(queue_.front(), w(1));
  EXPECT_TRUE(queue_.Remove(w(2)));
  EXPECT_EQ(queue_.back(), w(1));
  EXPECT_TRUE(queue_.Remove(w(1)));
  EXPECT_TRUE(queue_.empty());
  EXPECT_TRUE(queue_.CheckInvariants());
}

TEST_F(WaiterQueueTest, RemovingAWaiterNotQueuedDoesNothing) {
  PushAll(2);
  EXPECT_FALSE(queue_.Remove(w(5)));
  EXPECT_TRUE(queue_.Remove(w(1)));
  EXPECT_FALSE(queue_.Remove(w(1))) << "removed twice";
  EXPECT_EQ(queue_.size(), 1u);
  EXPECT_TRUE(queue_.CheckInvariants());
}

TEST_F(WaiterQueueTest, ReservedWaitersFormAPrefix) {
  PushAll(5);
  queue_.ReserveOldestUnreserved();  // 0
  queue_.ReserveOldestUnreserved();  // 1
  EXPECT_EQ(queue_.FirstUnreserved(), w(2));
  // A reserved waiter in the prefix leaves (it ran): the cursor stays.
  queue_.Remove(w(0));
  EXPECT_EQ(queue_.FirstUnreserved(), w(2));
  EXPECT_TRUE(queue_.CheckInvariants());
  // The first unreserved one leaves (it timed out): the next one is first.
  queue_.Remove(w(2));
  EXPECT_EQ(queue_.FirstUnreserved(), w(3));
  EXPECT_TRUE(queue_.CheckInvariants());
  EXPECT_EQ(Order(), (std::vector<int>{1, 3, 4}));
}

TEST_F(WaiterQueueTest, NewcomerAfterEveryoneIsReservedIsNextUnreserved) {
  PushAll(2);
  queue_.ReserveOldestUnreserved();
  queue_.ReserveOldestUnreserved();
  EXPECT_FALSE(queue_.HasUnreserved());
  queue_.PushBack(w(2));
  EXPECT_EQ(queue_.FirstUnreserved(), w(2));
  EXPECT_TRUE(queue_.CheckInvariants());
}

TEST_F(WaiterQueueTest, LastUnreservedLeavingLeavesNoneUnreserved) {
  PushAll(2);
  queue_.ReserveOldestUnreserved();
  queue_.Remove(w(1));
  EXPECT_FALSE(queue_.HasUnreserved());
  EXPECT_TRUE(queue_.CheckInvariants());
}

TEST_F(WaiterQueueTest, PopBackDrainsNewestFirst) {
  PushAll(4);
  queue_.ReserveOldestUnreserved();
  std::vector<int> drained;
  while (Waiter* waiter = queue_.PopBack()) {
    drained.push_back(id(waiter));
    EXPECT_TRUE(queue_.CheckInvariants());
  }
  EXPECT_EQ(drained, (std::vector<int>{3, 2, 1, 0}));
  EXPECT_TRUE(queue_.empty());
  EXPECT_EQ(queue_.FirstUnreserved(), nullptr);
}

TEST_F(WaiterQueueTest, AWaiterCanQueueAgainAfterLeaving) {
  PushAll(3);
  queue_.ReserveOldestUnreserved();
  queue_.Remove(w(0));
  queue_.PushBack(w(0));
  EXPECT_EQ(Order(), (std::vector<int>{1, 2, 0}));
  EXPECT_FALSE(w(0)->reserved);
  EXPECT_EQ(queue_.FirstUnreserved(), w(1));
  EXPECT_TRUE(queue_.CheckInvariants());
}

// A deterministic mix of every operation against a vector model.
TEST_F(WaiterQueueTest, RandomOperationsMatchAVectorModel) {
  std::vector<int> model;
  std::vector<bool> reserved(8, false);
  uint32_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) & 0x7fff;
  };
  for (int step = 0; step < 5000; step++) {
    const int op = static_cast<int>(next() % 4);
    const int i = static_cast<int>(next() % 8);
    const bool in_model =
        std::find(model.begin(), model.end(), i) != model.end();
    if (op == 0 && !in_model) {
      queue_.PushBack(w(i));
      model.push_back(i);
      reserved[i] = false;
    } else if (op == 1) {
      Waiter* got = queue_.ReserveOldestUnreserved();
      int expected = -1;
      for (int m : model) {
        if (!reserved[m]) {
          expected = m;
          break;
        }
      }
      ASSERT_EQ(id(got), expected);
      if (expected >= 0) reserved[expected] = true;
    } else if (op == 2) {
      ASSERT_EQ(queue_.Remove(w(i)), in_model);
      if (in_model) model.erase(std::find(model.begin(), model.end(), i));
    } else if (op == 3 && next() % 8 == 0) {
      Waiter* got = queue_.PopBack();
      ASSERT_EQ(id(got), model.empty() ? -1 : model.back());
      if (!model.empty()) model.pop_back();
    }
    ASSERT_TRUE(queue_.CheckInvariants()) << "step " << step;
    ASSERT_EQ(Order(), model) << "step " << step;
  }
}

}  // namespace
}  // namespace zar::core::internal
