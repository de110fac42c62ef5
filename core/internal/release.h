// zend-async-ref core: letting go of what a field holds.
//
//   ReleaseAndClear(future->filename);   // zend_string_release, then NULL
//   ReleaseAndClear(self->exception);    // OBJ_RELEASE, then NULL
//
// Nothing when the field holds nothing. Threading: the request's thread.

#ifndef ZAR_CORE_INTERNAL_RELEASE_H_
#define ZAR_CORE_INTERNAL_RELEASE_H_

extern "C" {
#include "php.h"
}

namespace zar::core::internal {

inline void ReleaseAndClear(zend_string*& field) {
  if (field == nullptr) return;
  zend_string_release(field);
  field = nullptr;
}

inline void ReleaseAndClear(zend_object*& field) {
  if (field == nullptr) return;
  OBJ_RELEASE(field);
  field = nullptr;
}

}  // namespace zar::core::internal

#endif  // ZAR_CORE_INTERNAL_RELEASE_H_
