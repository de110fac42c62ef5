#include "core/fiber/fiber.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace zar::core {
namespace {

std::vector<std::string>* log = nullptr;
Fiber* thread_fiber = nullptr;

void PingBody(Fiber* self) {
  for (int i = 0; i < 3; i++) {
    log->push_back("fiber " + std::to_string(i));
    self->SwitchTo(thread_fiber);
  }
  log->push_back("fiber exits");
  self->ExitTo(thread_fiber);
}

TEST(FiberTest, SwitchesBackAndForthAndExits) {
  std::vector<std::string> events;
  log = &events;
  thread_fiber = Fiber::ForThread();
  EXPECT_EQ(Fiber::Current(), thread_fiber);
  Fiber* fiber = Fiber::New(&PingBody, kMinStackSize);
  ASSERT_NE(fiber, nullptr);
  for (int i = 0; i < 4; i++) {
    events.push_back("thread " + std::to_string(i));
    thread_fiber->SwitchTo(fiber);  // the last switch frees it
  }
  EXPECT_EQ(Fiber::Current(), thread_fiber);
  Fiber::Delete(thread_fiber);
  Fiber::ClearCurrent();
  EXPECT_EQ(events, (std::vector<std::string>{"thread 0", "fiber 0", "thread 1",
                                              "fiber 1", "thread 2", "fiber 2",
                                              "thread 3", "fiber exits"}));
}

void SaveFrameBody(Fiber* self) {
  // Each fiber starts with no frame and no zend_try of its own.
  log->push_back(EG(current_execute_data) == nullptr ? "null frame"
                                                     : "inherited frame");
  EG(current_execute_data) = reinterpret_cast<zend_execute_data*>(0x1000);
  self->SwitchTo(thread_fiber);
  log->push_back(EG(current_execute_data) ==
                         reinterpret_cast<zend_execute_data*>(0x1000)
                     ? "own frame back"
                     : "wrong frame");
  EG(current_execute_data) = nullptr;
  self->ExitTo(thread_fiber);
}

TEST(FiberTest, EachFiberKeepsItsOwnEngineFrame) {
  std::vector<std::string> events;
  log = &events;
  thread_fiber = Fiber::ForThread();
  auto* main_frame = reinterpret_cast<zend_execute_data*>(0x2000);
  EG(current_execute_data) = main_frame;
  Fiber* fiber = Fiber::New(&SaveFrameBody, kMinStackSize);
  ASSERT_NE(fiber, nullptr);
  thread_fiber->SwitchTo(fiber);
  EXPECT_EQ(EG(current_execute_data), main_frame);
  thread_fiber->SwitchTo(fiber);
  EXPECT_EQ(EG(current_execute_data), main_frame);
  EG(current_execute_data) = nullptr;
  Fiber::Delete(thread_fiber);
  EXPECT_EQ(events, (std::vector<std::string>{"null frame", "own frame back"}));
}

}  // namespace
}  // namespace zar::core
