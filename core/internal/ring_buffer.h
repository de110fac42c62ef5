// zend-async-ref core: a growable FIFO ring of trivially copyable values.
//
// RingBuffer<T> is the run queue of the scheduler and its microtask queue
// (and, later, the idle list of the resource pool). It stores its elements
// in one array whose capacity is always a power of two, so an index wraps
// with a mask instead of a division, and grows by doubling when a push
// finds it full. Nothing else allocates: PushBack, PushFront and PopFront
// on a ring with room are a few loads and stores.
//
//   RingBuffer<Coroutine*> queue;
//   queue.PushBack(a);            // a
//   queue.PushFront(b);           // b a
//   Coroutine* next = queue.PopFront();   // b
//
// Ordering: PopFront returns elements in PushBack order; PushFront puts an
// element before every element already queued (the next PopFront returns
// it).
//
// Memory: the array comes from the process allocator (malloc), not the
// request allocator, because a ring can outlive a request's allocator
// checks only as long as its owner does; every owner frees its rings when
// it is destroyed. A ring that cannot grow (out of memory) aborts the
// process, as the engine does when emalloc fails.
//
// Threading: not thread-safe; a ring belongs to one thread.
// Lifetime: the destructor frees the array; elements are not destroyed
// (they are trivially copyable).

#ifndef ZAR_CORE_INTERNAL_RING_BUFFER_H_
#define ZAR_CORE_INTERNAL_RING_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

namespace zar::core::internal {

template <typename T>
class RingBuffer {
  static_assert(std::is_trivially_copyable_v<T>,
                "RingBuffer moves its elements with memcpy");

 public:
  // The capacity a ring starts with when its first element is pushed.
  static constexpr uint32_t kMinCapacity = 8;

  RingBuffer() = default;
  // Reserves room for at least `capacity` elements (rounded up to a power
  // of two) so that the first pushes do not grow the ring.
  explicit RingBuffer(uint32_t capacity) { Reserve(capacity); }
  ~RingBuffer() { std::free(data_); }

  RingBuffer(const RingBuffer&) = delete;
  RingBuffer& operator=(const RingBuffer&) = delete;

  bool empty() const { return size_ == 0; }
  uint32_t size() const { return size_; }
  uint32_t capacity() const { return capacity_; }

  // Appends `value`; the element is returned after every element already
  // in the ring.
  void PushBack(const T& value) {
    if (size_ == capacity_) Grow();
    data_[(head_ + size_) & (capacity_ - 1)] = value;
    size_++;
  }

  // PushBack without growing: false (and nothing pushed) when the ring is
  // full. For fast paths that leave growing to a slower one.
  bool TryPushBack(const T& value) {
    if (__builtin_expect(size_ == capacity_, 0)) return false;
    data_[(head_ + size_) & (capacity_ - 1)] = value;
    size_++;
    return true;
  }

  // Inserts `value` before every element already in the ring.
  void PushFront(const T& value) {
    if (size_ == capacity_) Grow();
    head_ = (head_ - 1) & (capacity_ - 1);
    data_[head_] = value;
    size_++;
  }

  // Removes and returns the first element.
  // REQUIRES: !empty().
  T PopFront() {
    const T value = data_[head_];
    head_ = (head_ + 1) & (capacity_ - 1);
    size_--;
    return value;
  }

  // The first element, left in place.
  // REQUIRES: !empty().
  const T& Front() const { return data_[head_]; }

  // The i-th element from the front.
  // REQUIRES: i < size().
  const T& operator[](uint32_t i) const {
    return data_[(head_ + i) & (capacity_ - 1)];
  }

  // Removes the first element equal to `value`, keeping the order of the
  // others. O(size()). Returns whether an element was removed.
  bool RemoveFirst(const T& value) {
    for (uint32_t i = 0; i < size_; i++) {
      if (data_[(head_ + i) & (capacity_ - 1)] == value) {
        for (uint32_t j = i; j + 1 < size_; j++) {
          data_[(head_ + j) & (capacity_ - 1)] =
              data_[(head_ + j + 1) & (capacity_ - 1)];
        }
        size_--;
        return true;
      }
    }
    return false;
  }

  // Forgets every element; keeps the array.
  void Clear() {
    head_ = 0;
    size_ = 0;
  }

  // Makes room for at least `capacity` elements.
  void Reserve(uint32_t capacity) {
    while (capacity_ < capacity) Grow();
  }

 private:
  // Doubles the capacity and moves the elements to the start of the new
  // array (front first). Out of line: the pushes that do not grow stay a
  // few instructions, without a stack frame, wherever they are inlined.
  [[gnu::noinline]] void Grow() {
    const uint32_t new_capacity = capacity_ == 0 ? kMinCapacity : capacity_ * 2;
    if (new_capacity < capacity_) Abort();  // 2^32 elements
    T* data = static_cast<T*>(std::malloc(sizeof(T) * new_capacity));
    if (data == nullptr) Abort();
    if (size_ != 0) {
      const uint32_t first = capacity_ - head_;  // elements up to the end
      if (first >= size_) {
        std::memcpy(data, data_ + head_, sizeof(T) * size_);
      } else {
        std::memcpy(data, data_ + head_, sizeof(T) * first);
        std::memcpy(data + first, data_, sizeof(T) * (size_ - first));
      }
    }
    std::free(data_);
    data_ = data;
    capacity_ = new_capacity;
    head_ = 0;
  }

  [[noreturn]] static void Abort() {
    std::fputs("zend-async-ref: out of memory growing a ring buffer\n", stderr);
    std::abort();
  }

  // Elements live at data_[(head_ + i) & (capacity_ - 1)] for i < size_.
  T* data_ = nullptr;
  // 0 or a power of two; size_ <= capacity_.
  uint32_t capacity_ = 0;
  // Index of the front element; < capacity_ (0 while capacity_ is 0).
  uint32_t head_ = 0;
  uint32_t size_ = 0;
};

}  // namespace zar::core::internal

#endif  // ZAR_CORE_INTERNAL_RING_BUFFER_H_
