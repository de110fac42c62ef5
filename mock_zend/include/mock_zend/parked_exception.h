// zend-async-ref: C++ helpers over the mock Zend engine.
//
// ParkedException: the exception in flight parked for a scope
// (mock_zend/exception_park.h), put back when the scope ends.
//
//   {
//     mock_zend::ParkedException parked(ZEND_MOCK_PARKED_STAYS_CURRENT);
//     CallUserCallback();
//   }  // the parked exception is in flight again
//
// Threading: the engine's thread; not copyable or movable (it owns the
// parked references until it puts them back).

#ifndef MOCK_ZEND_PARKED_EXCEPTION_H_
#define MOCK_ZEND_PARKED_EXCEPTION_H_

extern "C" {
#include "mock_zend/exception_park.h"
}

namespace mock_zend {

class ParkedException {
 public:
  // Parks EG(exception) and EG(prev_exception); `order` says which
  // exception is in flight after Restore() when one was raised meanwhile.
  explicit ParkedException(zend_mock_exception_order order)
      : parked_(zend_mock_exception_park()), order_(order) {}
  ~ParkedException() { Restore(); }
  ParkedException(const ParkedException &) = delete;
  ParkedException &operator=(const ParkedException &) = delete;

  // Puts the parked exceptions back now (the destructor then does
  // nothing). Idempotent.
  void Restore() { zend_mock_exception_unpark(&parked_, order_); }

 private:
  zend_mock_parked_exception parked_;
  zend_mock_exception_order order_;
};

}  // namespace mock_zend

#endif  // MOCK_ZEND_PARKED_EXCEPTION_H_
