#include "core/internal/ring_buffer.h"

#include <gtest/gtest.h>

#include <deque>
#include <random>

namespace zar::core::internal {
namespace {

TEST(RingBufferTest, PopsInPushOrder) {
  RingBuffer<int> ring;
  for (int i = 0; i < 5; i++) ring.PushBack(i);
  for (int i = 0; i < 5; i++) EXPECT_EQ(ring.PopFront(), i);
  EXPECT_TRUE(ring.empty());
}

TEST(RingBufferTest, PushFrontGoesBeforeEverything) {
  RingBuffer<int> ring;
  ring.PushBack(1);
  ring.PushBack(2);
  ring.PushFront(0);
  EXPECT_EQ(ring.Front(), 0);
  EXPECT_EQ(ring.PopFront(), 0);
  EXPECT_EQ(ring.PopFront(), 1);
  EXPECT_EQ(ring.PopFront(), 2);
}

TEST(RingBufferTest, GrowsToPowersOfTwoKeepingOrderAcrossTheWrap) {
  RingBuffer<int> ring;
  EXPECT_EQ(ring.capacity(), 0u);
  ring.PushBack(-1);
  EXPECT_EQ(ring.capacity(), RingBuffer<int>::kMinCapacity);
  // Move the head so the contents wrap, then grow.
  for (int i = 0; i < 5; i++) ring.PushBack(i);
  ring.PopFront();
  ring.PopFront();
  for (int i = 5; i < 40; i++) ring.PushBack(i);
  EXPECT_EQ(ring.size(), 39u);
  EXPECT_EQ(ring.capacity(), 64u);
  for (int i = 1; i < 40; i++) EXPECT_EQ(ring.PopFront(), i);
}

TEST(RingBufferTest, TryPushBackNeverGrows) {
  RingBuffer<int> ring;
  EXPECT_FALSE(ring.TryPushBack(0));  // no array yet
  ring.Reserve(8);
  ring.PushBack(-1);
  EXPECT_EQ(ring.PopFront(), -1);  // the front is no longer at index 0
  for (int i = 0; i < 8; i++) EXPECT_TRUE(ring.TryPushBack(i));
  EXPECT_FALSE(ring.TryPushBack(8));
  EXPECT_EQ(ring.capacity(), 8u);
  EXPECT_EQ(ring.size(), 8u);
  for (int i = 0; i < 8; i++) EXPECT_EQ(ring.PopFront(), i);
}

TEST(RingBufferTest, ReserveRoundsUpToAPowerOfTwo) {
  RingBuffer<int> ring(20);
  EXPECT_EQ(ring.capacity(), 32u);
}

TEST(RingBufferTest, RemoveFirstKeepsTheOrderOfTheRest) {
  RingBuffer<int> ring;
  for (int i = 0; i < 6; i++) ring.PushBack(i);
  EXPECT_TRUE(ring.RemoveFirst(3));
  EXPECT_FALSE(ring.RemoveFirst(42));
  EXPECT_EQ(ring.size(), 5u);
  for (int expected : {0, 1, 2, 4, 5}) EXPECT_EQ(ring.PopFront(), expected);
}

TEST(RingBufferTest, IndexingReadsFromTheFront) {
  RingBuffer<int> ring;
  ring.PushBack(1);
  ring.PushBack(2);
  ring.PushFront(0);
  for (uint32_t i = 0; i < ring.size(); i++) EXPECT_EQ(ring[i], int(i));
}

TEST(RingBufferTest, BehavesAsADequeUnderRandomOperations) {
  RingBuffer<int> ring;
  std::deque<int> model;
  std::mt19937 random(7);
  for (int step = 0; step < 20000; step++) {
    switch (random() % 4) {
      case 0:
        ring.PushBack(step);
        model.push_back(step);
        break;
      case 1:
        ring.PushFront(step);
        model.push_front(step);
        break;
      default:
        if (!model.empty()) {
          ASSERT_EQ(ring.PopFront(), model.front());
          model.pop_front();
        }
    }
    ASSERT_EQ(ring.size(), model.size());
  }
}

TEST(RingBufferTest, ClearKeepsTheCapacity) {
  RingBuffer<int> ring;
  for (int i = 0; i < 10; i++) ring.PushBack(i);
  const uint32_t capacity = ring.capacity();
  ring.Clear();
  EXPECT_TRUE(ring.empty());
  EXPECT_EQ(ring.capacity(), capacity);
}

}  // namespace
}  // namespace zar::core::internal
