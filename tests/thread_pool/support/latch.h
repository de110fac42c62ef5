// zend-async-ref thread pool tests: a one-shot latch between the test's
// thread and the threads it starts.
//
// Open() lets every Wait() through, now and later.
//
// Threading: any thread.
#ifndef ZAR_TESTS_THREAD_POOL_SUPPORT_LATCH_H_
#define ZAR_TESTS_THREAD_POOL_SUPPORT_LATCH_H_

#include <condition_variable>
#include <mutex>

namespace zar::thread_pool_testing {

class Latch {
 public:
  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    opened_.notify_all();
  }
  void Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    opened_.wait(lock, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

}  // namespace zar::thread_pool_testing

#endif  // ZAR_TESTS_THREAD_POOL_SUPPORT_LATCH_H_
